//! The runs that produce the zookeeper task's traces: three peers under five scenarios with
//! four seeds each, and the bug switch's runs. Every trace line is one move of one peer (its
//! action, the peer, its arguments) and the whole observed state after it.
//!
//! A scenario weighs the kinds of step when the driver picks the next one among those enabled
//! (the weight may look at the ensemble: a crash of the leader once there is one); the choice
//! comes from the seeded PRNG, so a scenario and a seed give the trace byte for byte.

use serde_json::{Map, Value, json};
use simnet::Rng;
use task_probe::{Header, Scheduler, StepLine, TraceFile, named_runs, run_name, trace_text};

use crate::ServerState;
use crate::cluster::{Cluster, Constants, Step};
use crate::fast_leader_election::Bug;

const TASK_TOML: &str = include_str!("../task.toml");

/// The constants of every run: those of task.toml's `[check]`.
pub fn constants() -> Constants {
    let c = |name| task_probe::check_constant(TASK_TOML, name);
    Constants { servers: c("NumServers"), max_round: c("MaxRound"), max_crashes: c("MaxCrashes") }
}

/// The constants as a trace header and the model name them.
pub fn constants_json() -> Value {
    let k = constants();
    json!({ "NumServers": k.servers, "MaxRound": k.max_round, "MaxCrashes": k.max_crashes })
}

/// Seeds per scenario (see [`named_runs`]).
pub const SEEDS: u64 = 4;

/// Steps at most per run.
pub const MAX_STEPS: usize = 120;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// The ensemble boots and elects, nothing crashes.
    Boot,
    /// Peers crash while they are still looking, and restart into the election.
    CrashMidElection,
    /// The leader crashes once elected: its followers look again in a new round, and the old
    /// leader restarts into an ensemble that settled without it.
    CrashLeader,
    /// Peer 1, whose history is the most recent, starts last, after the others settled: it
    /// learns the leader from their answers.
    LateJoiner,
    /// Notifications from peer 1 are slow: peers 2 and 3 compete and may settle first.
    Competing,
}

impl Scenario {
    pub const ALL: [Scenario; 5] = [Scenario::Boot, Scenario::CrashMidElection, Scenario::CrashLeader, Scenario::LateJoiner, Scenario::Competing];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Boot => "boot",
            Scenario::CrashMidElection => "crash-mid-election",
            Scenario::CrashLeader => "crash-leader",
            Scenario::LateJoiner => "late-joiner",
            Scenario::Competing => "competing",
        }
    }

    /// The weight of step `s` of this scenario in ensemble `c` (0: never taken).
    fn weight(self, c: &Cluster, s: &Step) -> u64 {
        use Scenario::*;
        let settled = |i: u64| c.peer(i).up && c.peer(i).state() != ServerState::Looking;
        match (self, s) {
            (Boot, Step::Crash { .. }) => 0,
            (CrashMidElection, Step::Crash { i }) => {
                if c.peer(*i).state() == ServerState::Looking {
                    6
                } else {
                    0
                }
            }
            (CrashLeader, Step::Crash { i }) => {
                if c.peer(*i).state() == ServerState::Leading {
                    40
                } else {
                    0
                }
            }
            (LateJoiner, Step::Start { i: 1 }) => {
                if settled(2) && settled(3) {
                    20
                } else {
                    0
                }
            }
            (LateJoiner, Step::Crash { .. }) => 0,
            (Competing, Step::Receive { j: 1, .. }) => 1,
            (Competing, Step::Start { i: 1 }) => 2,
            (Competing, Step::Crash { i }) => {
                if c.peer(*i).state() == ServerState::Leading {
                    5
                } else {
                    0
                }
            }
            (_, Step::StopFollowing { .. } | Step::StopLeading { .. }) => 10,
            (_, Step::Timeout { .. }) => 4,
            _ => 20,
        }
    }
}

/// A finished run: the initial state, and each step (its action) with the state after it.
pub struct Run {
    pub initial: Map<String, Value>,
    pub steps: Vec<(Step, &'static str, Map<String, Value>)>,
    pub end: Cluster,
    /// Whether some state of the run had a LOOKING peer propose a vote older than its own.
    pub gave_up_own_vote: bool,
}

/// Whether an up, LOOKING peer of `c` proposes a vote that the correct order ranks below its
/// own (its epoch, zxid and id): what the bug switch makes possible.
pub fn proposes_older_vote(c: &Cluster) -> bool {
    c.peers.iter().any(|p| {
        let e = &p.election;
        let own = (p.me.current_epoch, p.me.last_zxid, p.me.id);
        p.up && p.state() == ServerState::Looking && e.logicalclock > 0 && (e.proposed_epoch, e.proposed_zxid, e.proposed_leader) < own
    })
}

/// Runs `scenario` with `seed` (and the bug switch) until no step is enabled or
/// [`MAX_STEPS`] steps.
pub fn run_system(scenario: Scenario, seed: u64, bug: Bug) -> Run {
    let mut cluster = Cluster::new(constants(), bug);
    let mut rng = Rng::new(seed);
    let initial = cluster.observe();
    let mut steps = vec![];
    let mut gave_up_own_vote = false;
    while steps.len() < MAX_STEPS {
        let Some(step) = task_probe::pick_weighted(&mut rng, cluster.enabled(), |s| scenario.weight(&cluster, s)) else { break };
        let action = cluster.apply(&step);
        gave_up_own_vote |= proposes_older_vote(&cluster);
        steps.push((step, action, cluster.observe()));
    }
    Run { initial, steps, end: cluster, gave_up_own_vote }
}

pub const SOURCE_PATH: &str = "tasks/zookeeper/src/fast_leader_election.rs";

/// The bug switch's name in traces and task.toml.
pub const BUG_NAME: &str = "epoch-blind-tie-break";

/// The trace text of a run.
pub fn render(seed: u64, bug: Bug, run: &Run) -> String {
    let header = Header {
        task: "zookeeper".into(),
        constants: constants_json(),
        seed,
        // The driver's seeded choices; the scenario (its weights) is in the file name.
        scheduler: Scheduler::Random,
        source_path: SOURCE_PATH.into(),
        source_text: include_str!("fast_leader_election.rs"),
        bug: (bug == Bug::EpochBlindTieBreak).then(|| BUG_NAME.into()),
    };
    let steps = run.steps.iter().map(|(s, action, state)| StepLine { action, actor: s.server().into(), args: Value::Object(s.args()), state: Value::Object(state.clone()) });
    trace_text(&header, &Value::Object(run.initial.clone()), steps)
}

/// The first seeds (from 101) whose `boot` run with the bug switch has a peer give up its own
/// vote for an older one.
pub fn bug_seeds(count: usize) -> Vec<u64> {
    (101..3000).filter(|&seed| run_system(Scenario::Boot, seed, Bug::EpochBlindTieBreak).gave_up_own_vote).take(count).collect()
}

/// The system as a state machine for its system graph, at its start.
pub fn graph_state() -> Cluster {
    Cluster::new(constants(), Bug::None)
}

/// All traces of the task (`traces/zookeeper`) and of the bug switch (`traces/zookeeper-bug`).
pub fn traces() -> Vec<TraceFile> {
    let mut v: Vec<TraceFile> = named_runs(&Scenario::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile { dir: "zookeeper".into(), name: run_name(sc.name(), seed), text: render(seed, Bug::None, &run_system(sc, seed, Bug::None)) })
        .collect();
    v.extend(bug_seeds(2).into_iter().map(|seed| TraceFile {
        dir: "zookeeper-bug".into(),
        name: run_name(Scenario::Boot.name(), seed),
        text: render(seed, Bug::EpochBlindTieBreak, &run_system(Scenario::Boot, seed, Bug::EpochBlindTieBreak)),
    }));
    v
}
