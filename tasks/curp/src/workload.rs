//! The runs that produce the curp task's traces: three replicas and two clients of two commands
//! each, under five scenarios with four seeds each, and the bug switch's runs. Every trace line
//! is one step (its action, who took it, its arguments) and the whole observed state after it.
//!
//! A scenario weighs the kinds of step when the driver picks the next one among those enabled;
//! the choice comes from the seeded PRNG, so a scenario and a seed give the trace byte for byte.

use serde_json::{Value, json};
use simnet::Rng;
use task_probe::{Header, Scheduler, StepLine, TraceFile, named_runs, run_name, trace_text};

use crate::client::Bug;
use crate::cluster::{Cluster, Constants, Step};

const TASK_TOML: &str = include_str!("../task.toml");

/// The constants of every run: those of task.toml's `[check]`.
pub fn constants() -> Constants {
    let c = |name| task_probe::check_constant(TASK_TOML, name);
    Constants { replicas: c("NumReplicas"), clients: c("NumClients"), rounds: c("NumRounds"), max_term: c("MaxTerm") }
}

/// Seeds per scenario (see [`named_runs`]).
pub const SEEDS: u64 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// No election: fast rounds, and slow rounds where commands conflict.
    Steady,
    /// Elections now and then: speculative pools recovered by new leaders.
    LeaderChange,
    /// Elections, with the replicas outside the voters slow to hear of them: a deposed leader
    /// keeps answering as leader in its old term.
    StaleLeader,
    /// Clients propose faster than replicas record: conflicting commands meet in the pools.
    Contending,
    /// Commit and apply are slow: the leader's uncommitted pool fills, and proposals conflict
    /// with it.
    SlowCommit,
}

impl Scenario {
    pub const ALL: [Scenario; 5] = [Scenario::Steady, Scenario::LeaderChange, Scenario::StaleLeader, Scenario::Contending, Scenario::SlowCommit];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Steady => "steady",
            Scenario::LeaderChange => "leader-change",
            Scenario::StaleLeader => "stale-leader",
            Scenario::Contending => "contending",
            Scenario::SlowCommit => "slow-commit",
        }
    }

    /// The weight of a step of this kind (0: never taken).
    fn weight(self, s: &Step) -> u64 {
        use Scenario::*;
        match (self, s) {
            (Steady, Step::LeaderChange { .. } | Step::AppendEntries { .. }) => 0,
            (LeaderChange, Step::LeaderChange { .. }) => 2,
            (StaleLeader, Step::LeaderChange { voters, .. }) => if voters.len() == 2 { 4 } else { 1 },
            (StaleLeader, Step::AppendEntries { .. }) => 1,
            (StaleLeader, Step::ProcessCommitMsg { .. } | Step::Commit) => 4,
            (Contending, Step::Propose { .. }) => 40,
            (Contending, Step::LeaderChange { .. }) => 1,
            (SlowCommit, Step::Commit | Step::ProcessCommitMsg { .. }) => 2,
            (SlowCommit, Step::LeaderChange { .. }) => 1,
            _ => 20,
        }
    }
}

/// A finished run: the initial state, and each step with the state after it.
pub struct Run {
    pub initial: serde_json::Map<String, Value>,
    pub steps: Vec<(Step, serde_json::Map<String, Value>)>,
    pub end: Cluster,
}

/// Runs `scenario` with `seed` (and the bug switch) until no step is enabled.
pub fn run_system(scenario: Scenario, seed: u64, bug: Bug) -> Run {
    let mut cluster = Cluster::new(constants(), bug);
    let mut rng = Rng::new(seed);
    let initial = cluster.observe();
    let mut steps = vec![];
    // A run ends by itself (every command is proposed once, elections stop at MaxTerm); the
    // bound only guards against a system that never stops.
    while steps.len() < 1000 {
        let Some(step) = task_probe::pick_weighted(&mut rng, cluster.enabled(), |s| scenario.weight(s)) else { break };
        cluster.apply(&step);
        steps.push((step, cluster.observe()));
    }
    Run { initial, steps, end: cluster }
}

pub const SOURCE_PATH: &str = "tasks/curp/src/client.rs";

/// The bug switch's name in traces and task.toml.
pub const BUG_NAME: &str = "lower-term-result";

/// The trace text of a run.
pub fn render(seed: u64, bug: Bug, run: &Run) -> String {
    let k = constants();
    let header = Header {
        task: "curp".into(),
        constants: json!({ "NumReplicas": k.replicas, "NumClients": k.clients, "NumRounds": k.rounds, "MaxTerm": k.max_term }),
        seed,
        // The driver's seeded choices; the scenario (its weights) is in the file name.
        scheduler: Scheduler::Random,
        source_path: SOURCE_PATH.into(),
        source_text: include_str!("client.rs"),
        bug: (bug == Bug::LowerTermResult).then(|| BUG_NAME.into()),
    };
    let steps = run.steps.iter().map(|(s, state)| StepLine { action: s.action(), actor: s.actor().into(), args: Value::Object(s.args()), state: Value::Object(state.clone()) });
    trace_text(&header, &Value::Object(run.initial.clone()), steps)
}

/// Whether a client of `run` took a fast result of a lower term than an answer it had: what
/// the bug switch makes possible. Read from the observed states, as the traces show them.
pub fn took_lower_term_result(run: &Run) -> bool {
    run.steps.iter().any(|(_, state)| {
        let (Some(Value::Object(results)), Some(Value::Object(answers))) = (state.get("result"), state.get("answers")) else { return false };
        results.iter().any(|(c, r)| {
            let top = answers.get(c).and_then(Value::as_object).map_or(0, |a| a.values().filter_map(|x| x["term"].as_u64()).max().unwrap_or(0));
            r["path"] == "fast" && r["term"].as_u64().unwrap_or(0) < top
        })
    })
}

/// The first seeds (from 101) whose `stale-leader` run with the bug switch shows the bug.
pub fn bug_seeds(count: usize) -> Vec<u64> {
    (101..2000).filter(|&seed| took_lower_term_result(&run_system(Scenario::StaleLeader, seed, Bug::LowerTermResult))).take(count).collect()
}

/// The system as a state machine for its system graph, at its start.
pub fn graph_state() -> Cluster {
    Cluster::new(constants(), Bug::None)
}

/// All traces of the task (`traces/curp`) and of the bug switch (`traces/curp-bug`).
pub fn traces() -> Vec<TraceFile> {
    let mut v: Vec<TraceFile> = named_runs(&Scenario::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile { dir: "curp".into(), name: run_name(sc.name(), seed), text: render(seed, Bug::None, &run_system(sc, seed, Bug::None)) })
        .collect();
    v.extend(bug_seeds(2).into_iter().map(|seed| TraceFile {
        dir: "curp-bug".into(),
        name: run_name(Scenario::StaleLeader.name(), seed),
        text: render(seed, Bug::LowerTermResult, &run_system(Scenario::StaleLeader, seed, Bug::LowerTermResult)),
    }));
    v
}
