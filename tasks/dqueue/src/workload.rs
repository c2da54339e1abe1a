//! The runs that produce the dqueue task's traces: the producer (id 0) and three consumers
//! (ids 1, 2, 3), `BUFFER_SIZE` 3, driven through four schedules, and the bug switch's runs.
//! Every trace line is one labelled step with the process that took it (`self`) and the whole
//! observed state after it.
//!
//! A schedule is how the driver weighs the processes when it picks the next step among those
//! enabled (each process has at most one: the one at its label); the choice comes from the
//! seeded PRNG, so a schedule and a seed give the trace byte for byte.

use crate::dqueue::{Archetype, Bug, Constants, Label, PRODUCER, Role, system};
use serde_json::{Map, Value, json};
use simnet::{NodeId, Rng, Sim};
use task_probe::net::{self, NetTask, SimMachine};
use task_probe::{Header, Scheduler, TraceFile, named_runs, run_name};

const TASK_TOML: &str = include_str!("../task.toml");

/// An integer constant of task.toml's `[check]` table.
pub fn check_constant(name: &str) -> u64 {
    task_probe::check_constant(TASK_TOML, name)
}

/// The constants of every run: those of task.toml's `[check]`.
pub fn constants() -> Constants {
    Constants { buffer_size: check_constant("BUFFER_SIZE"), num_consumers: check_constant("NUM_CONSUMERS") }
}

/// Seeds per schedule (see [`named_runs`]).
pub const SEEDS: u64 = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every enabled step equally likely.
    Random,
    /// Consumers four times as likely as the producer: requests pile up in the producer's
    /// mailbox and are answered in the order they arrived.
    Contending,
    /// The producer four times as likely as each consumer: requests are answered as they come.
    Eager,
    /// One consumer (chosen by the seed) four times less likely than the others.
    SlowConsumer,
}

impl Schedule {
    pub const ALL: [Schedule; 4] = [Schedule::Random, Schedule::Contending, Schedule::Eager, Schedule::SlowConsumer];

    pub fn name(self) -> &'static str {
        match self {
            Schedule::Random => "random",
            Schedule::Contending => "contending",
            Schedule::Eager => "eager",
            Schedule::SlowConsumer => "slow-consumer",
        }
    }
}

/// The observed state: the MPCal variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// `pc[id]`: each process's label.
    pub pc: Vec<(NodeId, Label)>,
    /// `network[id]`: the values in node `id`'s mailbox, oldest first.
    pub network: Vec<(NodeId, Vec<u64>)>,
    /// `processor`: the last item a consumer processed (its `proc` write at `c2`), 0 before any.
    pub processor: u64,
    /// `stream`: the producer's stream.
    pub stream: u64,
    /// `requester`: the producer's local.
    pub requester: u64,
}

impl Observed {
    pub fn of(sim: &Sim<Archetype>, processor: u64) -> Observed {
        let mut pc = vec![];
        let mut network = vec![];
        let (mut stream, mut requester) = (0, 0);
        for (id, a) in sim.processes() {
            pc.push((id, a.pc()));
            network.push((id, sim.net.addressed_to(id).map(|m| m.body).collect()));
            if let Role::Producer(p) = &a.role {
                stream = p.s.value;
                requester = p.requester;
            }
        }
        Observed { pc, network, processor, stream, requester }
    }

    pub fn json(&self) -> Value {
        let mut pc = Map::new();
        for (id, l) in &self.pc {
            pc.insert(id.to_string(), l.name().into());
        }
        let mut net = Map::new();
        for (id, q) in &self.network {
            net.insert(id.to_string(), json!(q));
        }
        json!({
            "pc": pc,
            "network": net,
            "processor": self.processor,
            "stream": self.stream,
            "requester": self.requester,
        })
    }
}

/// The system as the shared driver sees it: its archetypes, its observed state, and the
/// `processor` value the trace shows (the last item a consumer processed).
pub struct Dqueue;

impl NetTask for Dqueue {
    type Proc = Archetype;
    type Memory = u64;
    type Observed = Observed;

    fn observe(sim: &Sim<Archetype>, processor: &u64) -> Observed {
        Observed::of(sim, *processor)
    }

    fn json(o: &Observed) -> Value {
        o.json()
    }

    fn action(label: &Label) -> &'static str {
        label.name()
    }

    fn remember(sim: &Sim<Archetype>, node: NodeId, label: &Label, processor: &mut u64) {
        if *label == Label::C2
            && let Some(Archetype { role: Role::Consumer(c), .. }) = sim.process(node)
        {
            *processor = c.proc;
        }
    }
}

/// A finished run: the initial state, the steps and the simulation at the end.
pub type Run = net::Run<Dqueue>;

/// Runs `schedule` with `seed` (and the bug switch) until `cap` steps or until no step is
/// enabled (with the bug, every consumer may end up waiting for an answer that never comes).
pub fn run_system(schedule: Schedule, seed: u64, bug: Bug) -> Run {
    let k = constants();
    let mut rng = Rng::new(seed);
    let cap = 40 + rng.below(41) as usize;
    let slow = 1 + rng.below(k.num_consumers);
    let weight = |id: NodeId| -> u64 {
        match schedule {
            Schedule::Random => 1,
            Schedule::Contending => if id == PRODUCER { 1 } else { 4 },
            Schedule::Eager => if id == PRODUCER { 4 } else { 1 },
            Schedule::SlowConsumer => if id == slow { 1 } else { 4 },
        }
    };
    net::run(system(k, bug), 0, &mut rng, cap, weight)
}

/// The system as a state machine for its system graph.
pub type GraphState = SimMachine<Dqueue>;

/// The system at its start, with the task's constants, for its system graph.
pub fn graph_state() -> GraphState {
    SimMachine::new(system(constants(), Bug::None), 0)
}

pub const SOURCE_PATH: &str = "tasks/dqueue/src/dqueue.rs";

/// The trace text of a run: header (with the bug's name when the switch is on), init line, one
/// line per step.
pub fn render(seed: u64, bug: Bug, run: &Run) -> String {
    let k = constants();
    let header = Header {
        task: "dqueue".into(),
        constants: json!({ "BUFFER_SIZE": k.buffer_size, "NUM_CONSUMERS": k.num_consumers, "PRODUCER": PRODUCER }),
        seed,
        // The driver's seeded choices; the schedule (its weights) is in the file name.
        scheduler: Scheduler::Random,
        source_path: SOURCE_PATH.into(),
        source_text: include_str!("dqueue.rs"),
        bug: (bug == Bug::ZeroItemUnanswered).then(|| "zero-item-unanswered".into()),
    };
    net::render(&header, run)
}

/// Runs a schedule once and returns the trace text.
pub fn run(schedule: Schedule, seed: u64, bug: Bug) -> String {
    render(seed, bug, &run_system(schedule, seed, bug))
}

/// Seeds of the bug switch's runs (schedule `random`).
pub const BUG_SEEDS: std::ops::RangeInclusive<u64> = 101..=106;

/// All traces of the task (`traces/dqueue`) and of the bug switch (`traces/dqueue-bug`).
pub fn traces() -> Vec<TraceFile> {
    let mut v: Vec<TraceFile> = named_runs(&Schedule::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile { dir: "dqueue".into(), name: run_name(sc.name(), seed), text: run(sc, seed, Bug::None) })
        .collect();
    v.extend(BUG_SEEDS.map(|seed| TraceFile {
        dir: "dqueue-bug".into(),
        name: run_name(Schedule::Random.name(), seed),
        text: run(Schedule::Random, seed, Bug::ZeroItemUnanswered),
    }));
    v
}
