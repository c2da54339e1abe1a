//! The runs that produce the etcd Raft task's traces: a three-node cluster (ids 1, 2, 3, all new:
//! term 0, empty logs) driven through seven scenarios, four seeds each. Every trace line is one
//! action of the task with the node that acts (`i`), the sender of the message it handles (`j`)
//! and every node's observed state after it.
//!
//! The runs stay within the task's checking bounds (`MaxTerm`, `MaxLogLen` of `task.toml`'s
//! `[check]`, read from that file when the crate is built): the driver holds a timer, loses a
//! message or refuses a proposal that would take a node past them.

use crate::cluster::{Action, Bounds, Cluster, Step, View, Weights};
use crate::raft::{MsgType, NodeId};
use serde_json::{Map, Value, json};
use task_probe::{Header, Scheduler, StepLine, TraceFile, named_runs, run_name, trace_text};

pub const SERVERS: [NodeId; 3] = [1, 2, 3];
const TASK_TOML: &str = include_str!("../task.toml");

/// An integer constant of task.toml's `[check]` table.
pub fn check_constant(name: &str) -> u64 {
    task_probe::check_constant(TASK_TOML, name)
}

/// The bounds the traces keep: `MaxTerm` and `MaxLogLen` of task.toml's `[check]`.
pub fn bounds() -> Bounds {
    Bounds { max_term: check_constant("MaxTerm"), max_log_len: check_constant("MaxLogLen") }
}
/// Seeds per scenario (see [`named_runs`]).
pub const SEEDS: u64 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// A quiet network: an election, proposals, replication, heartbeats.
    Normal,
    /// The leader crashes once something is committed; the others elect a new one; the old
    /// leader restarts and catches up.
    LeaderCrash,
    /// The leader is cut off alone (clients may still reach it); the majority elects a new
    /// leader; after the heal the old leader steps down and its uncommitted entries are replaced.
    Partition,
    /// A lossy network that also duplicates and reorders.
    MessageLoss,
    /// Short, close election timeouts and slow delivery: several nodes campaign at once.
    Competing,
    /// Nodes crash and restart at random moments, leaders included.
    Restart,
    /// A follower is cut off while the others commit; after the heal its campaigns with a
    /// stale log are rejected (the up-to-date check) unless the leader reaches it first.
    Lagging,
}

impl Scenario {
    pub const ALL: [Scenario; 7] = [
        Scenario::Normal,
        Scenario::LeaderCrash,
        Scenario::Partition,
        Scenario::MessageLoss,
        Scenario::Competing,
        Scenario::Restart,
        Scenario::Lagging,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Normal => "normal",
            Scenario::LeaderCrash => "leader-crash",
            Scenario::Partition => "partition",
            Scenario::MessageLoss => "loss",
            Scenario::Competing => "competing",
            Scenario::Restart => "restart",
            Scenario::Lagging => "lagging",
        }
    }
}

const QUIET: Weights = Weights { tick: 3, deliver: 8, propose: 1, loss: 0, duplicate: 0 };

/// Runs events until `done` holds, the run has `cap` steps, or `budget` events went by.
fn run_until(c: &mut Cluster, w: &Weights, cap: usize, budget: usize, done: impl Fn(&Cluster) -> bool) {
    for _ in 0..budget {
        if c.steps.len() >= cap || done(c) {
            return;
        }
        c.random_event(w);
    }
}

/// Runs one scenario with one seed and returns the cluster with its recorded steps.
pub fn run_cluster(scenario: Scenario, seed: u64) -> Cluster {
    let (election, heartbeat) = match scenario {
        Scenario::Competing => (2, 2),
        _ => (6, 2),
    };
    let mut c = Cluster::new(SERVERS.len() as u64, seed, election, heartbeat, bounds());
    let cap = 60 + c.rng.below(140) as usize;
    let budget = 4000;
    match scenario {
        Scenario::Normal => run_until(&mut c, &QUIET, cap, budget, |_| false),
        Scenario::LeaderCrash => {
            run_until(&mut c, &QUIET, cap, budget, |c| c.settled_leader().is_some() && c.safety.committed_len() >= 2);
            if let Some(old) = c.leader() {
                c.crash(old);
                run_until(&mut c, &QUIET, cap, budget, |c| c.leader().is_some_and(|l| l != old));
                let later = c.steps.len() + 5 + c.rng.below(15) as usize;
                run_until(&mut c, &QUIET, cap, budget, |c| c.steps.len() >= later);
                c.restart(old);
            }
            run_until(&mut c, &QUIET, cap, budget, |_| false);
        }
        Scenario::Partition => {
            run_until(&mut c, &QUIET, cap, budget, |c| c.settled_leader().is_some());
            if let Some(old) = c.leader() {
                c.partition(&[old]);
                // Clients still reach the old leader; its new entries cannot commit.
                let w = Weights { propose: 2, ..QUIET };
                run_until(&mut c, &w, cap, budget, |c| c.leader().is_some_and(|l| l != old));
                let later = c.steps.len() + c.rng.below(10) as usize;
                run_until(&mut c, &QUIET, cap, budget, |c| c.steps.len() >= later);
                c.heal();
            }
            run_until(&mut c, &QUIET, cap, budget, |_| false);
        }
        Scenario::MessageLoss => {
            let w = Weights { tick: 3, deliver: 8, propose: 1, loss: 25, duplicate: 10 };
            run_until(&mut c, &w, cap, budget, |_| false);
        }
        Scenario::Competing => {
            let w = Weights { tick: 6, deliver: 5, propose: 1, loss: 5, duplicate: 0 };
            run_until(&mut c, &w, cap, budget, |_| false);
        }
        Scenario::Lagging => {
            run_until(&mut c, &QUIET, cap, budget, |c| c.settled_leader().is_some());
            if let Some(leader) = c.leader() {
                let lagging = c.ids().into_iter().filter(|&n| n != leader).nth(c.rng.below(2) as usize).unwrap_or(leader);
                c.partition(&[lagging]);
                // The leader takes proposals until its log is full and commits them with the
                // third node; the lagging node's timer fires and its pre-votes are lost.
                let w = Weights { tick: 3, deliver: 8, propose: 3, loss: 0, duplicate: 0 };
                let full = bounds().max_log_len;
                run_until(&mut c, &w, cap, budget, |c| {
                    c.nodes.iter().filter(|r| r.id != lagging).all(|r| r.committed == full)
                });
                c.heal();
                // Its clock runs out before the leader's next message reaches it, and its
                // pre-votes and their answers travel first.
                for _ in 0..50 {
                    if c.tick(lagging) == Some(Action::Timeout) {
                        break;
                    }
                }
                for _ in 0..8 {
                    let first = c.net.in_flight().iter().position(|m| {
                        matches!(m.kind, MsgType::PreVote | MsgType::PreVoteResp) && (m.from == lagging || m.to == lagging)
                    });
                    match first {
                        Some(k) => {
                            c.deliver(k);
                        }
                        None => break,
                    }
                }
            }
            run_until(&mut c, &QUIET, cap, budget, |_| false);
        }
        Scenario::Restart => {
            // After a recorded step, now and then a node (any, the leader too) crashes and
            // restarts at once; at most three times a run.
            let mut restarts = 0;
            for _ in 0..budget {
                if c.steps.len() >= cap {
                    break;
                }
                if c.random_event(&QUIET).is_some() && restarts < 3 && c.rng.chance(4) {
                    let id = 1 + c.rng.below(SERVERS.len() as u64);
                    c.restart(id);
                    restarts += 1;
                }
            }
        }
    }
    c
}

/// The observed state: each field a map from node id to value.
pub fn state_json(views: &[View]) -> Value {
    let per = |f: &dyn Fn(&View) -> Value| -> Value {
        let mut m = Map::new();
        for (k, v) in views.iter().enumerate() {
            m.insert((k + 1).to_string(), f(v));
        }
        Value::Object(m)
    };
    json!({
        "currentTerm": per(&|v| v.current_term.into()),
        "votedFor": per(&|v| v.voted_for.into()),
        "state": per(&|v| v.state.name().into()),
        "lead": per(&|v| v.lead.into()),
        "commitIndex": per(&|v| v.commit_index.into()),
        "logLen": per(&|v| v.log_len.into()),
        "logLastTerm": per(&|v| v.log_last_term.into()),
    })
}

pub const SOURCE_PATH: &str = "tasks/etcd/src/raft.rs";

/// The trace text of a run: header, init line, one line per step.
pub fn render(seed: u64, initial: &[View], steps: &[Step]) -> String {
    let header = Header {
        task: "etcd".into(),
        constants: json!({ "Servers": SERVERS, "MaxTerm": bounds().max_term, "MaxLogLen": bounds().max_log_len }),
        seed,
        scheduler: Scheduler::Random,
        source_path: SOURCE_PATH.into(),
        source_text: include_str!("raft.rs"),
        bug: None,
    };
    let lines = steps.iter().map(|st| {
        let mut args = Map::new();
        args.insert("i".into(), st.i.into());
        if let Some(j) = st.j {
            args.insert("j".into(), j.into());
        }
        StepLine { action: st.action.name(), actor: st.i.into(), args: Value::Object(args), state: state_json(&st.after) }
    });
    trace_text(&header, &state_json(initial), lines)
}

/// Runs a scenario once and returns the trace text.
pub fn run(scenario: Scenario, seed: u64) -> String {
    let initial: Vec<View> = Cluster::new(SERVERS.len() as u64, seed, 1, 1, bounds()).nodes.iter().map(View::of).collect();
    let c = run_cluster(scenario, seed);
    render(seed, &initial, &c.steps)
}

/// All traces of the task (`traces/etcd`).
pub fn traces() -> Vec<TraceFile> {
    named_runs(&Scenario::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile { dir: "etcd".into(), name: run_name(sc.name(), seed), text: run(sc, seed) })
        .collect()
}
