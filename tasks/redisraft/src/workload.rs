//! The runs that produce the redisraft task's traces: three servers under five scenarios with
//! four seeds each, and the bug switch's runs. Every trace line is one call into a server's
//! library (its action, the server, its arguments) and the whole observed state after it.
//!
//! A scenario weighs the kinds of step when the driver picks the next one among those enabled;
//! the choice comes from the seeded PRNG, so a scenario and a seed give the trace byte for byte.

use serde_json::{Map, Value, json};
use simnet::Rng;
use task_probe::{Header, Scheduler, StepLine, TraceFile, named_runs, run_name, trace_text};

use crate::cluster::{Cluster, Constants, ReadStatus, Step};
use crate::raft_server::Bug;

const TASK_TOML: &str = include_str!("../task.toml");

/// The constants of every run: those of task.toml's `[check]`.
pub fn constants() -> Constants {
    let c = |name| task_probe::check_constant(TASK_TOML, name);
    Constants { servers: c("NumServers"), max_term: c("MaxTerm"), max_index: c("MaxIndex"), max_msg_id: c("MaxMsgId"), reads: c("NumReads") }
}

/// The constants as a trace header and the model name them.
pub fn constants_json() -> Value {
    let k = constants();
    json!({ "NumServers": k.servers, "MaxTerm": k.max_term, "MaxIndex": k.max_index, "MaxMsgId": k.max_msg_id, "NumReads": k.reads })
}

/// Seeds per scenario (see [`named_runs`]).
pub const SEEDS: u64 = 4;

/// Steps at most per run.
pub const MAX_STEPS: usize = 150;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// No election: writes, reads, heartbeats and the flush's steps of one leader.
    Steady,
    /// Election timers fire now and then: pre-votes, votes, new leaders, logs repaired.
    Elections,
    /// Elections while the old leader hears late: it keeps its reads queued until it learns of
    /// the new term, and drops them.
    StaleLeader,
    /// The operator removes and adds nodes.
    Membership,
    /// Snapshots often, and one server slow to hear: it is sent a snapshot.
    Snapshots,
}

impl Scenario {
    pub const ALL: [Scenario; 5] = [Scenario::Steady, Scenario::Elections, Scenario::StaleLeader, Scenario::Membership, Scenario::Snapshots];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Steady => "steady",
            Scenario::Elections => "elections",
            Scenario::StaleLeader => "stale-leader",
            Scenario::Membership => "membership",
            Scenario::Snapshots => "snapshots",
        }
    }

    /// The weight of a step of this kind (0: never taken).
    fn weight(self, s: &Step) -> u64 {
        use Scenario::*;
        match (self, s) {
            (Steady, Step::ElectionStart { .. } | Step::AddNode { .. } | Step::RemoveNode { .. }) => 0,
            (Steady, Step::SnapshotBegin { .. }) => 2,
            (Elections, Step::ElectionStart { .. }) => 4,
            (Elections, Step::AddNode { .. } | Step::RemoveNode { .. }) => 0,
            (Elections, Step::SnapshotBegin { .. }) => 1,
            (StaleLeader, Step::ElectionStart { i }) => if *i == 1 { 0 } else { 30 },
            (StaleLeader, Step::Receive { i: 1, .. }) => 1,
            (StaleLeader, Step::RecvReadRequest { i: 1 }) => 2,
            (StaleLeader, Step::SendHeartbeat { i: 1 }) => 60,
            (StaleLeader, Step::AddNode { .. } | Step::RemoveNode { .. } | Step::SnapshotBegin { .. }) => 0,
            (Membership, Step::RemoveNode { .. }) => 30,
            (Membership, Step::AddNode { .. }) => 80,
            (Membership, Step::RecvEntry { .. }) => 2,
            (Membership, Step::LogCommit { .. } | Step::ApplyEntry { .. }) => 40,
            (Membership, Step::ElectionStart { .. }) => 2,
            (Membership, Step::SnapshotBegin { .. }) => 10,
            (Snapshots, Step::SnapshotBegin { .. }) => 12,
            (Snapshots, Step::Receive { i: 3, .. }) => 2,
            (Snapshots, Step::ElectionStart { .. }) => 3,
            (Snapshots, Step::AddNode { .. } | Step::RemoveNode { .. }) => 0,
            _ => 20,
        }
    }
}

/// A finished run: the initial state, and each step (its action) with the state after it.
pub struct Run {
    pub initial: Map<String, Value>,
    pub steps: Vec<(Step, &'static str, Map<String, Value>)>,
    pub end: Cluster,
}

/// Runs `scenario` with `seed` (and the bug switch) until no step is enabled or
/// [`MAX_STEPS`] steps.
pub fn run_system(scenario: Scenario, seed: u64, bug: Bug) -> Run {
    let mut cluster = Cluster::new(constants(), bug);
    let mut rng = Rng::new(seed);
    let initial = cluster.observe();
    let mut steps = vec![];
    while steps.len() < MAX_STEPS {
        let Some(step) = task_probe::pick_weighted(&mut rng, cluster.enabled(), |s| scenario.weight(s)) else { break };
        let action = cluster.apply(&step);
        steps.push((step, action, cluster.observe()));
    }
    Run { initial, steps, end: cluster }
}

pub const SOURCE_PATH: &str = "tasks/redisraft/src/raft_server.rs";

/// The bug switch's name in traces and task.toml.
pub const BUG_NAME: &str = "stale-read";

/// The trace text of a run.
pub fn render(seed: u64, bug: Bug, run: &Run) -> String {
    let header = Header {
        task: "redisraft".into(),
        constants: constants_json(),
        seed,
        // The driver's seeded choices; the scenario (its weights) is in the file name.
        scheduler: Scheduler::Random,
        source_path: SOURCE_PATH.into(),
        source_text: include_str!("raft_server.rs"),
        bug: (bug == Bug::LocalRead).then(|| BUG_NAME.into()),
    };
    let steps = run.steps.iter().map(|(s, action, state)| StepLine { action, actor: s.server().into(), args: Value::Object(s.args()), state: Value::Object(state.clone()) });
    trace_text(&header, &Value::Object(run.initial.clone()), steps)
}

/// Whether a read of `run` was served at an index below its floor: a stale read, which the
/// bug switch makes possible.
pub fn served_stale_read(run: &Run) -> bool {
    run.end.reads.iter().any(|r| r.status == ReadStatus::Served && r.index < r.floor)
}

/// The first seeds (from 101) whose `stale-leader` run with the bug switch serves a stale read.
pub fn bug_seeds(count: usize) -> Vec<u64> {
    (101..3000).filter(|&seed| served_stale_read(&run_system(Scenario::StaleLeader, seed, Bug::LocalRead))).take(count).collect()
}

/// The system as a state machine for its system graph, at its start.
pub fn graph_state() -> Cluster {
    Cluster::new(constants(), Bug::None)
}

/// All traces of the task (`traces/redisraft`) and of the bug switch (`traces/redisraft-bug`).
pub fn traces() -> Vec<TraceFile> {
    let mut v: Vec<TraceFile> = named_runs(&Scenario::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile { dir: "redisraft".into(), name: run_name(sc.name(), seed), text: render(seed, Bug::None, &run_system(sc, seed, Bug::None)) })
        .collect();
    v.extend(bug_seeds(2).into_iter().map(|seed| TraceFile {
        dir: "redisraft-bug".into(),
        name: run_name(Scenario::StaleLeader.name(), seed),
        text: render(seed, Bug::LocalRead, &run_system(Scenario::StaleLeader, seed, Bug::LocalRead)),
    }));
    v
}
