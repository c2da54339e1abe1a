//! A whole system over a network, as a state machine of steps.

use crate::network::{Envelope, Network, NodeId};
use crate::rng::Rng;
use std::fmt::Debug;
use std::hash::Hash;

/// One process of a system: its state and its labelled steps. A step may read and write the
/// process's own state and the network (send, or take a message addressed to it); which steps
/// are enabled depends only on those.
pub trait Process: Clone {
    type Msg: Envelope + Clone;
    /// A step's name and arguments, as the trace records it (a PGo label, a handler).
    type Label: Clone + Debug + PartialEq;

    /// The steps process `id` can take now, in a fixed order.
    fn enabled(&self, id: NodeId, net: &Network<Self::Msg>) -> Vec<Self::Label>;

    /// Takes `label`, one of the steps [`Process::enabled`] listed for this state.
    fn step(&mut self, id: NodeId, label: &Self::Label, net: &mut Network<Self::Msg>);

    /// The process after a crash and a restart: what it keeps across a crash (its disk), the
    /// rest as at start.
    fn restarted(&self) -> Self;
}

/// The faults a simulation's [`Sim::enabled`] lists besides the processes' steps. Each fault
/// taken uses one of [`Faults::budget`], so that a run, or the graph of every run, stays finite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Faults {
    /// Any message in flight may be lost.
    pub loss: bool,
    /// Any message in flight may be duplicated.
    pub duplication: bool,
    /// A running node may crash, and a crashed one restart (a restart uses no budget).
    pub crash: bool,
    /// A link may be cut (one way), and all cut links healed (a heal uses no budget).
    pub partition: bool,
    /// How many faults a run may take in all.
    pub budget: u32,
}

impl Faults {
    /// A reliable network and processes that never crash.
    pub const NONE: Faults = Faults { loss: false, duplication: false, crash: false, partition: false, budget: 0 };
}

/// One step of a simulation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step<L> {
    /// Process `node` takes its step `label`.
    Local { node: NodeId, label: L },
    /// The `k`-th message in flight is lost.
    Drop(usize),
    /// The `k`-th message in flight is duplicated.
    Duplicate(usize),
    /// A node crashes.
    Crash(NodeId),
    /// A crashed node restarts.
    Restart(NodeId),
    /// The link from the first node to the second is cut.
    Cut(NodeId, NodeId),
    /// Every cut link is up again.
    Heal,
}

impl<L> Step<L> {
    /// Whether this is a step of a process (not of the network or of the environment).
    pub fn is_local(&self) -> bool {
        matches!(self, Step::Local { .. })
    }
}

/// What [`Sim::apply`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    Taken,
    /// The step is not enabled in this state; nothing changed.
    NotEnabled,
}

/// A system: processes with ids, the network between them and the faults allowed.
///
/// The state is the processes, the network and the fault budget left; two simulations in the
/// same state have the same enabled steps in the same order, and applying the same step gives
/// the same state.
#[derive(Clone, Debug)]
pub struct Sim<P: Process> {
    procs: Vec<(NodeId, P)>,
    pub net: Network<P::Msg>,
    faults: Faults,
    faults_left: u32,
}

impl<P> PartialEq for Sim<P>
where
    P: Process + PartialEq,
    P::Msg: PartialEq,
{
    fn eq(&self, o: &Self) -> bool {
        self.procs == o.procs && self.net == o.net && self.faults == o.faults && self.faults_left == o.faults_left
    }
}
impl<P> Eq for Sim<P>
where
    P: Process + Eq,
    P::Msg: Eq,
{
}
impl<P> Hash for Sim<P>
where
    P: Process + Hash,
    P::Msg: Hash,
{
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.procs.hash(h);
        self.net.hash(h);
        self.faults.hash(h);
        self.faults_left.hash(h);
    }
}

impl<P: Process> Sim<P> {
    /// Processes (ids distinct; kept in the given order, which is the order of
    /// [`Sim::enabled`]), an empty network and the faults allowed.
    pub fn new(procs: Vec<(NodeId, P)>, net: Network<P::Msg>, faults: Faults) -> Sim<P> {
        Sim { procs, net, faults, faults_left: faults.budget }
    }

    pub fn ids(&self) -> Vec<NodeId> {
        self.procs.iter().map(|(id, _)| *id).collect()
    }

    pub fn process(&self, id: NodeId) -> Option<&P> {
        self.procs.iter().find(|(i, _)| *i == id).map(|(_, p)| p)
    }

    pub fn processes(&self) -> impl Iterator<Item = (NodeId, &P)> + '_ {
        self.procs.iter().map(|(id, p)| (*id, p))
    }

    /// Faults the run may still take.
    pub fn faults_left(&self) -> u32 {
        self.faults_left
    }

    /// Every step enabled now: the processes' steps (running processes in order, each one's
    /// steps in its order), then the faults [`Faults`] allows while budget is left: losses and
    /// duplications of each message in flight, crashes of running nodes, cuts of each link
    /// still up; then restarts of crashed nodes and a heal when a link is cut.
    pub fn enabled(&self) -> Vec<Step<P::Label>> {
        let mut out = Vec::new();
        for (id, p) in &self.procs {
            if self.net.is_up(*id) {
                out.extend(p.enabled(*id, &self.net).into_iter().map(|label| Step::Local { node: *id, label }));
            }
        }
        let ids = self.ids();
        if self.faults_left > 0 {
            if self.faults.loss {
                out.extend((0..self.net.len()).map(Step::Drop));
            }
            if self.faults.duplication {
                out.extend((0..self.net.len()).map(Step::Duplicate));
            }
            if self.faults.crash {
                out.extend(ids.iter().filter(|&&id| self.net.is_up(id)).map(|&id| Step::Crash(id)));
            }
            if self.faults.partition {
                for &a in &ids {
                    for &b in &ids {
                        if a != b && !self.net.is_cut(a, b) {
                            out.push(Step::Cut(a, b));
                        }
                    }
                }
            }
        }
        if self.faults.crash {
            out.extend(ids.iter().filter(|&&id| !self.net.is_up(id)).map(|&id| Step::Restart(id)));
        }
        if self.faults.partition && ids.iter().any(|&a| ids.iter().any(|&b| self.net.is_cut(a, b))) {
            out.push(Step::Heal);
        }
        out
    }

    /// Applies `step` if it is enabled now.
    pub fn apply(&mut self, step: &Step<P::Label>) -> Applied {
        if !self.enabled().contains(step) {
            return Applied::NotEnabled;
        }
        match step {
            Step::Local { node, label } => {
                let Some(k) = self.procs.iter().position(|(i, _)| i == node) else { return Applied::NotEnabled };
                let (id, p) = &mut self.procs[k];
                p.step(*id, label, &mut self.net);
            }
            Step::Drop(k) => {
                self.net.drop(*k);
                self.faults_left -= 1;
            }
            Step::Duplicate(k) => {
                self.net.duplicate(*k);
                self.faults_left -= 1;
            }
            Step::Crash(id) => {
                self.net.crash(*id);
                self.faults_left -= 1;
            }
            Step::Restart(id) => {
                if let Some((_, p)) = self.procs.iter_mut().find(|(i, _)| i == id) {
                    *p = p.restarted();
                }
                self.net.restart(*id);
            }
            Step::Cut(a, b) => {
                self.net.cut(*a, *b);
                self.faults_left -= 1;
            }
            Step::Heal => self.net.heal(),
        }
        Applied::Taken
    }

    /// One random step: with probability `fault_pct` percent a fault (or restart, or heal)
    /// when one is enabled, otherwise a process's step; uniform within the kind. Returns the
    /// step taken, or `None` when nothing is enabled.
    pub fn random_step(&mut self, rng: &mut Rng, fault_pct: u64) -> Option<Step<P::Label>> {
        let all = self.enabled();
        let (local, env): (Vec<_>, Vec<_>) = all.into_iter().partition(|s| s.is_local());
        let pool = if env.is_empty() || (!local.is_empty() && !rng.chance(fault_pct)) { local } else { env };
        let step = rng.pick(&pool)?.clone();
        self.apply(&step);
        Some(step)
    }
}
