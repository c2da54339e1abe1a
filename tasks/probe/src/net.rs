//! Traces and system graphs of a system on the simulated network ([`simnet::Sim`]) whose
//! processes take labelled steps (PGo's archetypes; each step taken by one process, its `self`).
//! A task says only what is its own ([`NetTask`]): how a label is named, what the traces
//! observe, and what they keep besides the simulation. The rest is here: a run under a seeded
//! weighted schedule ([`run`]), its trace text ([`render`]), and the system as a [`Machine`]
//! for its system graph ([`SimMachine`]).

use crate::{Header, Machine, StepLine, trace_text};
use serde_json::{Map, Value, json};
use simnet::{NodeId, Process, Rng, Sim, Step};
use std::fmt::Debug;
use std::hash::{Hash, Hasher};

/// A step's label, as a process of a task's system names it.
pub type Label<T> = <<T as NetTask>::Proc as Process>::Label;

/// What a distributed task tells the shared driver about its system.
pub trait NetTask {
    /// The processes of the system.
    type Proc: Process;
    /// What the traces show besides the simulation's state, kept from step to step (`()` when
    /// the simulation holds it all).
    type Memory: Clone + Debug + Eq + Hash;
    /// The observed state.
    type Observed: Clone + Debug;

    /// The observed state of `sim`, with what is kept besides it.
    fn observe(sim: &Sim<Self::Proc>, memory: &Self::Memory) -> Self::Observed;
    /// The observed state as a trace line's `state`.
    fn json(observed: &Self::Observed) -> Value;
    /// The action a trace records for a step with this label.
    fn action(label: &Label<Self>) -> &'static str;
    /// Updates what is kept besides the simulation once process `node` took `label` (`sim`
    /// is the state after the step).
    fn remember(sim: &Sim<Self::Proc>, node: NodeId, label: &Label<Self>, memory: &mut Self::Memory) {
        let _ = (sim, node, label, memory);
    }
    /// The process a trace names (`actor`, argument `self`) for node `node`'s step `label`:
    /// the node itself, unless one simulated node runs several processes.
    fn actor(node: NodeId, label: &Label<Self>) -> NodeId {
        let _ = label;
        node
    }
    /// Puts `sim` in the form a graph's search takes as its state ([`SimMachine`]), so that
    /// two simulations that differ in nothing a step can tell apart are one state (a bag
    /// mailbox's messages in any order: [`simnet::Network::sort_in_flight`]). Unchanged by
    /// default.
    fn canonical(sim: &mut Sim<Self::Proc>) {
        let _ = sim;
    }
}

/// One recorded step: process `actor` took the step `label`, then the state was `after`.
pub struct Recorded<T: NetTask> {
    pub label: Label<T>,
    pub actor: NodeId,
    pub after: T::Observed,
}

/// A finished run: the initial state, the steps and the simulation at the end.
pub struct Run<T: NetTask> {
    pub initial: T::Observed,
    pub steps: Vec<Recorded<T>>,
    pub sim: Sim<T::Proc>,
}

/// Runs `sim` until `cap` steps or until no step is enabled: each time the next step is drawn
/// from `rng` among those enabled, a process's step weighted by `weight` of the process (a
/// weight 0 leaves it out). Only processes' steps are taken: the system's faults stay off.
pub fn run<T: NetTask>(mut sim: Sim<T::Proc>, mut memory: T::Memory, rng: &mut Rng, cap: usize, weight: impl Fn(NodeId) -> u64) -> Run<T> {
    let node_weight = |s: &Step<Label<T>>| match s {
        Step::Local { node, .. } => weight(*node),
        _ => 0,
    };
    let initial = T::observe(&sim, &memory);
    let mut steps = vec![];
    while steps.len() < cap {
        let Some(step) = crate::pick_weighted(rng, sim.enabled(), node_weight) else { break };
        sim.apply(&step);
        let Step::Local { node, label } = step else { unreachable!("no faults are enabled") };
        T::remember(&sim, node, &label, &mut memory);
        steps.push(Recorded { after: T::observe(&sim, &memory), actor: T::actor(node, &label), label });
    }
    Run { initial, steps, sim }
}

/// The trace text of a run: `header`, the init line, one line per step with the process that
/// took it as `actor` and as the argument `self`.
pub fn render<T: NetTask>(header: &Header, run: &Run<T>) -> String {
    let steps = run.steps.iter().map(|st| StepLine {
        action: T::action(&st.label),
        actor: st.actor.into(),
        args: json!({ "self": st.actor }),
        state: T::json(&st.after),
    });
    trace_text(header, &T::json(&run.initial), steps)
}

/// The system as a state machine for its system graph: the simulation (in its
/// [`NetTask::canonical`] form) and what the traces keep besides it. Its steps are the
/// processes' steps, each with its process ([`NetTask::actor`]) as `self`.
pub struct SimMachine<T: NetTask> {
    pub sim: Sim<T::Proc>,
    pub memory: T::Memory,
}

impl<T: NetTask> SimMachine<T> {
    pub fn new(mut sim: Sim<T::Proc>, memory: T::Memory) -> SimMachine<T> {
        T::canonical(&mut sim);
        SimMachine { sim, memory }
    }
}

impl<T: NetTask> Clone for SimMachine<T> {
    fn clone(&self) -> Self {
        SimMachine { sim: self.sim.clone(), memory: self.memory.clone() }
    }
}

impl<T: NetTask> PartialEq for SimMachine<T>
where
    Sim<T::Proc>: Eq,
{
    fn eq(&self, o: &Self) -> bool {
        self.sim == o.sim && self.memory == o.memory
    }
}

impl<T: NetTask> Eq for SimMachine<T> where Sim<T::Proc>: Eq {}

impl<T: NetTask> Hash for SimMachine<T>
where
    Sim<T::Proc>: Hash,
{
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.sim.hash(h);
        self.memory.hash(h);
    }
}

impl<T: NetTask> Machine for SimMachine<T>
where
    Sim<T::Proc>: Eq + Hash,
{
    fn observe(&self) -> Map<String, Value> {
        match T::json(&T::observe(&self.sim, &self.memory)) {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    fn successors(&self) -> Vec<(String, Map<String, Value>, Self)> {
        let mut out = vec![];
        for step in self.sim.enabled() {
            let Step::Local { node, label } = &step else { continue };
            let mut next = self.clone();
            next.sim.apply(&step);
            T::remember(&next.sim, *node, label, &mut next.memory);
            T::canonical(&mut next.sim);
            let mut args = Map::new();
            args.insert("self".into(), T::actor(*node, label).into());
            out.push((T::action(label).to_string(), args, next));
        }
        out
    }
}
