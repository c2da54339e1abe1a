//! The runs that produce the locksvc task's traces: the server (id 0) and three clients (ids 1,
//! 2, 3), driven through four schedules until every client has locked and unlocked, and the bug
//! switch's runs. Every trace line is one labelled step with the process that took it (`self`)
//! and the whole observed state after it.
//!
//! A schedule is how the driver weighs the processes when it picks the next step among those
//! enabled (a process has one step, or one per distinct message its bag mailbox may hand over);
//! the choice comes from the seeded PRNG, so a schedule and a seed give the trace byte for byte.

use crate::locksvc::{Action, Archetype, Body, Bug, Constants, Label, SERVER_ID, system};
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
    Constants { num_clients: check_constant("NumClients") }
}

/// Seeds per schedule (see [`named_runs`]).
pub const SEEDS: u64 = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every enabled step equally likely.
    Random,
    /// Clients four times as likely as the server: lock requests pile up in the server's bag
    /// and several clients wait in its queue.
    Contending,
    /// The server four times as likely as each client: requests are handled as they come.
    Eager,
    /// One client (chosen by the seed) four times less likely than the others.
    SlowClient,
}

impl Schedule {
    pub const ALL: [Schedule; 4] = [Schedule::Random, Schedule::Contending, Schedule::Eager, Schedule::SlowClient];

    pub fn name(self) -> &'static str {
        match self {
            Schedule::Random => "random",
            Schedule::Contending => "contending",
            Schedule::Eager => "eager",
            Schedule::SlowClient => "slow-client",
        }
    }
}

/// The observed state: the MPCal variables `pc`, `hasLock` and the server's `q`, and the
/// mailboxes as counts of each kind of message (a bag holds nothing else).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// `pc[id]`: each process's label.
    pub pc: Vec<(NodeId, Label)>,
    /// `hasLock[id]`, for every node (the server's is always false, as in PGo).
    pub has_lock: Vec<(NodeId, bool)>,
    /// `q`: the server's queue, head first.
    pub q: Vec<NodeId>,
    /// Per client: copies of its lock request, of its unlock message in the server's bag, and
    /// of the grant in its own bag.
    pub lock_msgs: Vec<(NodeId, u64)>,
    pub unlock_msgs: Vec<(NodeId, u64)>,
    pub grant_msgs: Vec<(NodeId, u64)>,
}

impl Observed {
    pub fn of(sim: &Sim<Archetype>) -> Observed {
        let mut o = Observed { pc: vec![], has_lock: vec![], q: vec![], lock_msgs: vec![], unlock_msgs: vec![], grant_msgs: vec![] };
        let count = |to: NodeId, from: Option<NodeId>, body: Body| {
            sim.net.addressed_to(to).filter(|m| m.body == body && from.is_none_or(|f| m.from == f)).count() as u64
        };
        for (id, a) in sim.processes() {
            o.pc.push((id, a.pc()));
            o.has_lock.push((id, a.has_lock()));
            match a {
                Archetype::Server(s) => o.q = s.q.clone(),
                Archetype::Client(_) => {
                    o.lock_msgs.push((id, count(SERVER_ID, Some(id), Body::Lock)));
                    o.unlock_msgs.push((id, count(SERVER_ID, Some(id), Body::Unlock)));
                    o.grant_msgs.push((id, count(id, None, Body::Grant)));
                }
            }
        }
        o
    }

    pub fn json(&self) -> Value {
        fn map<T: Clone + Into<Value>>(v: &[(NodeId, T)]) -> Value {
            Value::Object(v.iter().map(|(id, x)| (id.to_string(), x.clone().into())).collect::<Map<_, _>>())
        }
        let pc: Vec<(NodeId, &str)> = self.pc.iter().map(|(id, l)| (*id, l.name())).collect();
        json!({
            "pc": map(&pc),
            "hasLock": map(&self.has_lock),
            "q": self.q,
            "lockMsgs": map(&self.lock_msgs),
            "unlockMsgs": map(&self.unlock_msgs),
            "grantMsgs": map(&self.grant_msgs),
        })
    }
}

/// The system as the shared driver sees it: its archetypes and its observed state (the
/// simulation holds it all).
pub struct Locksvc;

impl NetTask for Locksvc {
    type Proc = Archetype;
    type Memory = ();
    type Observed = Observed;

    fn observe(sim: &Sim<Archetype>, _: &()) -> Observed {
        Observed::of(sim)
    }

    fn json(o: &Observed) -> Value {
        o.json()
    }

    fn action(a: &Action) -> &'static str {
        a.label.name()
    }
}

/// A finished run: the initial state, the steps and the simulation at the end.
pub type Run = net::Run<Locksvc>;

/// Runs `schedule` with `seed` (and the bug switch) until no step is enabled: every client has
/// locked and unlocked once and the server waits for a message that never comes.
pub fn run_system(schedule: Schedule, seed: u64, bug: Bug) -> Run {
    let k = constants();
    let mut rng = Rng::new(seed);
    let slow = 1 + rng.below(k.num_clients);
    let weight = |id: NodeId| -> u64 {
        match schedule {
            Schedule::Random => 1,
            Schedule::Contending => if id == SERVER_ID { 1 } else { 4 },
            Schedule::Eager => if id == SERVER_ID { 4 } else { 1 },
            Schedule::SlowClient => if id == slow { 1 } else { 4 },
        }
    };
    // A run ends by itself; the bound only guards against a system that never stops.
    net::run(system(k, bug), (), &mut rng, 1000, weight)
}

/// The system as a state machine for its system graph.
pub type GraphState = SimMachine<Locksvc>;

/// The system at its start, with the task's constants, for its system graph.
pub fn graph_state() -> GraphState {
    SimMachine::new(system(constants(), Bug::None), ())
}

pub const SOURCE_PATH: &str = "tasks/locksvc/src/locksvc.rs";

/// The trace text of a run: header (with the bug's name when the switch is on), init line, one
/// line per step.
pub fn render(seed: u64, bug: Bug, run: &Run) -> String {
    let k = constants();
    let header = Header {
        task: "locksvc".into(),
        constants: json!({ "NumClients": k.num_clients }),
        seed,
        // The driver's seeded choices; the schedule (its weights) is in the file name.
        scheduler: Scheduler::Random,
        source_path: SOURCE_PATH.into(),
        source_text: include_str!("locksvc.rs"),
        bug: (bug == Bug::GrantToSecondWaiter).then(|| "grant-to-second-waiter".into()),
    };
    net::render(&header, run)
}

/// Runs a schedule once and returns the trace text.
pub fn run(schedule: Schedule, seed: u64, bug: Bug) -> String {
    render(seed, bug, &run_system(schedule, seed, bug))
}

/// Seeds of the bug switch's runs (schedule `eager`: the server handles the second lock request,
/// and grants it, before the first client has left its critical section).
pub const BUG_SEEDS: std::ops::RangeInclusive<u64> = 101..=106;

/// All traces of the task (`traces/locksvc`) and of the bug switch (`traces/locksvc-bug`).
pub fn traces() -> Vec<TraceFile> {
    let mut v: Vec<TraceFile> = named_runs(&Schedule::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile { dir: "locksvc".into(), name: run_name(sc.name(), seed), text: run(sc, seed, Bug::None) })
        .collect();
    v.extend(BUG_SEEDS.map(|seed| TraceFile {
        dir: "locksvc-bug".into(),
        name: run_name(Schedule::Eager.name(), seed),
        text: run(Schedule::Eager, seed, Bug::GrantToSecondWaiter),
    }));
    v
}
