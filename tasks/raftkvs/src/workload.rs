//! The runs that produce the raftkvs task's traces: three Raft servers, one crasher (it may
//! crash server 1) and one client with a few Put and Get requests, driven through five
//! scenarios. Every trace line is one labelled step with the process that took it (`self`,
//! PGo's process id) and the whole observed state after it.
//!
//! A scenario weighs each enabled step when the driver picks the next one; the choice comes
//! from the seeded PRNG, so a scenario and a seed give the trace byte for byte. What the
//! weights decide is only when things happen, never what a step does: an election timeout is
//! not scheduled while a live leader exists, nor past the task's term bound `MaxTerm`; the
//! crasher runs only in the crash scenarios.

use crate::raftkvs::{Action, Bug, Constants, Label, Node, Part, Req, Role, system};
use serde_json::{Map, Value, json};
use simnet::{NodeId, Rng, Sim, Step};
use task_probe::net::{self, NetTask, Recorded};
use task_probe::{Header, Scheduler, TraceFile, named_runs, run_name};

const TASK_TOML: &str = include_str!("../task.toml");

/// An integer constant of task.toml's `[check]` table.
pub fn check_constant(name: &str) -> u64 {
    task_probe::check_constant(TASK_TOML, name)
}

/// The constants of every run: those of task.toml's `[check]` (read once).
pub fn constants() -> Constants {
    static K: std::sync::OnceLock<Constants> = std::sync::OnceLock::new();
    *K.get_or_init(|| Constants {
        num_servers: check_constant("NumServers"),
        num_clients: check_constant("NumClients"),
        max_node_fail: check_constant("MaxNodeFail"),
    })
}

/// The keys and the values the client's requests use (the model's `Keys` and `Values`).
pub const KEYS: [&str; 1] = ["k1"];
pub const VALUES: [&str; 2] = ["v1", "v2"];

/// Seeds per scenario (see [`named_runs`]).
pub const SEEDS: u64 = 4;

/// Steps of a run: a leader keeps sending heartbeats, so a run never stops by itself.
pub const MAX_STEPS: usize = 120;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// An election, then the client's requests.
    Steady,
    /// Election timeouts three times as likely: candidates compete and split the votes.
    Competing,
    /// Server 1 wins the first election and is crashed once it has committed an entry; server 3
    /// lags behind.
    LeaderCrash,
    /// Server 1 is crashed while another server leads.
    FollowerCrash,
    /// One server (chosen by the seed) is scheduled four times less often than the others:
    /// it falls behind and its leader walks `nextIndex` back.
    SlowServer,
}

impl Scenario {
    pub const ALL: [Scenario; 5] = [
        Scenario::Steady,
        Scenario::Competing,
        Scenario::LeaderCrash,
        Scenario::FollowerCrash,
        Scenario::SlowServer,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Steady => "steady",
            Scenario::Competing => "competing",
            Scenario::LeaderCrash => "leader-crash",
            Scenario::FollowerCrash => "follower-crash",
            Scenario::SlowServer => "slow-server",
        }
    }
}

/// The client's requests in every run: a Put, a Get of the same key, a Put that overwrites.
pub fn requests() -> Vec<Req> {
    vec![
        Req {
            key: "k1".into(),
            value: Some("v1".into()),
        },
        Req {
            key: "k1".into(),
            value: None,
        },
        Req {
            key: "k1".into(),
            value: Some("v2".into()),
        },
    ]
}

/// The system as the shared trace writer sees it.
pub struct Raftkvs;

fn map<T: Into<Value>>(v: impl IntoIterator<Item = (NodeId, T)>) -> Value {
    Value::Object(
        v.into_iter()
            .map(|(id, x)| (id.to_string(), x.into()))
            .collect::<Map<_, _>>(),
    )
}

/// The observed state: every process's label, each server's resources (`smDomain`, the
/// messages in flight and the archetypes' locals are not observed), the network toggles and
/// failure detector, and the client's `leader` and `reqIdx`.
pub fn observe(sim: &Sim<Node>) -> Value {
    let k = constants();
    let servers: Vec<(NodeId, &crate::raftkvs::Server)> = sim
        .processes()
        .filter_map(|(id, n)| n.as_server().map(|s| (id, s)))
        .collect();
    let mut pc = vec![];
    for (id, node) in sim.processes() {
        match node {
            Node::Server(s) => {
                pc.extend(Part::ALL.map(|p| (p.process(&k, id), s.pc[p as usize].name())))
            }
            Node::Crasher(c) => pc.push((id, c.pc.name())),
            Node::Client(c) => pc.push((id, c.pc.name())),
        }
    }
    pc.sort();
    let res = |f: &dyn Fn(&crate::raftkvs::Resources) -> Value| {
        map(servers.iter().map(|(id, s)| (*id, f(&s.res))))
    };
    let per_server = |v: &[u64]| map((1..).zip(v.iter().copied()));
    let fd = |srv: NodeId| {
        sim.processes()
            .any(|(_, n)| matches!(n, Node::Crasher(c) if c.srv == srv && c.pc == Label::Done))
    };
    let clients = || {
        sim.processes().filter_map(|(id, n)| {
            if let Node::Client(c) = n {
                Some((id, c))
            } else {
                None
            }
        })
    };
    json!({
        "pc": map(pc),
        "state": res(&|r| r.state.name().into()),
        "currentTerm": res(&|r| r.current_term.into()),
        "log": res(&|r| Value::Array(r.log.iter().map(entry_json).collect())),
        "commitIndex": res(&|r| r.commit_index.into()),
        "nextIndex": res(&|r| per_server(&r.next_index)),
        "matchIndex": res(&|r| per_server(&r.match_index)),
        "votedFor": res(&|r| r.voted_for.into()),
        "votesResponded": res(&|r| r.votes_responded.iter().copied().collect::<Vec<_>>().into()),
        "votesGranted": res(&|r| r.votes_granted.iter().copied().collect::<Vec<_>>().into()),
        "leader": res(&|r| r.leader.into()),
        "sm": res(&|r| Value::Object(r.sm.iter().map(|(k, v)| (k.clone(), Value::from(v.clone()))).collect())),
        "netEnabled": map(servers.iter().map(|(id, _)| (*id, sim.net.is_up(*id)))),
        "fd": map(servers.iter().map(|(id, _)| (*id, fd(*id)))),
        "clientLeader": map(clients().map(|(id, c)| (id, c.leader))),
        "reqIdx": map(clients().map(|(id, c)| (id, c.req_idx))),
    })
}

/// A log entry as the traces show it: `[term, cmd |-> [idx, type, key (, value)], client]`.
pub fn entry_json(e: &crate::raftkvs::Entry) -> Value {
    let mut cmd = json!({ "idx": e.cmd.idx, "type": if e.cmd.put { "put" } else { "get" }, "key": e.cmd.key });
    if let Some(v) = &e.cmd.value {
        cmd["value"] = v.clone().into();
    }
    json!({ "term": e.term, "cmd": cmd, "client": e.client })
}

impl NetTask for Raftkvs {
    type Proc = Node;
    type Memory = ();
    type Observed = Value;

    fn observe(sim: &Sim<Node>, _: &()) -> Value {
        observe(sim)
    }

    fn json(o: &Value) -> Value {
        o.clone()
    }

    fn action(a: &Action) -> &'static str {
        a.label.name()
    }
}

/// A finished run: the initial state, the steps and the simulation at the end.
pub type Run = net::Run<Raftkvs>;

/// The process id of a step: for a server's step, that of the archetype that takes it.
pub fn actor(k: &Constants, node: NodeId, a: &Action) -> NodeId {
    a.part.map_or(node, |p| p.process(k, node))
}

fn server(sim: &Sim<Node>, id: NodeId) -> Option<&crate::raftkvs::Server> {
    sim.process(id).and_then(Node::as_server)
}

fn k_quorum(sim: &Sim<Node>, votes: usize) -> bool {
    votes * 2
        > sim
            .ids()
            .into_iter()
            .filter(|&id| server(sim, id).is_some())
            .count()
}

/// The weight of one enabled step under `scenario`.
fn weight(
    scenario: Scenario,
    slow: NodeId,
    max_term: u64,
    sim: &Sim<Node>,
    node: NodeId,
    a: &Action,
) -> u64 {
    let leads = |id: NodeId| {
        sim.net.is_up(id) && server(sim, id).is_some_and(|s| s.res.state == Role::Leader)
    };
    let live_leader = sim.ids().into_iter().any(leads);
    let crashed = |id: NodeId| !sim.net.is_up(id);
    let base = match scenario {
        Scenario::SlowServer if node == slow => 1,
        // Server 3 lags, so that the leader after the crash finds a follower behind.
        Scenario::LeaderCrash if node == 3 => 2,
        _ => 4,
    };
    match a.label {
        Label::ServerRequestVoteLoop => {
            let term = server(sim, node).map_or(0, |s| s.res.current_term);
            if live_leader || term + 1 >= max_term {
                return 0;
            }
            match scenario {
                Scenario::Competing => 6,
                // Server 1 leads first, and the others stand for election only once it crashed.
                Scenario::LeaderCrash if node == 1 => 6,
                Scenario::LeaderCrash if !crashed(1) => 0,
                _ => 1,
            }
        }
        // A leader's periodic work (a round of AppendEntries, a commit check) when it has
        // something to do: entries or a commit index a live follower lacks, entries a quorum
        // holds beyond its commit index.
        Label::ServerAppendEntriesLoop => {
            let Some(s) = server(sim, node) else { return 0 };
            let behind = sim
                .ids()
                .into_iter()
                .filter(|&j| j != node && sim.net.is_up(j))
                .any(|j| {
                    let lags = server(sim, j).is_some_and(|f| {
                        f.res.commit_index < s.res.commit_index
                            || f.res.current_term < s.res.current_term
                    });
                    s.res
                        .match_index
                        .get(j as usize - 1)
                        .is_some_and(|&m| m < s.res.log.len() as u64)
                        || lags
                });
            if behind { 3 } else { 0 }
        }
        Label::ServerAdvanceCommitIndexLoop => {
            let Some(s) = server(sim, node) else { return 0 };
            let stored = |k: u64| {
                s.res
                    .match_index
                    .iter()
                    .enumerate()
                    .filter(|(j, m)| *j as u64 + 1 == node || **m >= k)
                    .count()
            };
            if k_quorum(sim, stored(s.res.commit_index + 1)) {
                3
            } else {
                0
            }
        }
        Label::ServerCrash => {
            let s1 = server(sim, 1).map(|s| s.res.state);
            let other_leads = sim.ids().into_iter().any(|id| id != 1 && leads(id));
            match scenario {
                Scenario::LeaderCrash
                    if s1 == Some(Role::Leader)
                        && server(sim, 1).is_some_and(|s| s.res.commit_index >= 1) =>
                {
                    6
                }
                Scenario::FollowerCrash if s1 == Some(Role::Follower) && other_leads => 3,
                _ => 0,
            }
        }
        Label::FdUpdate => 4,
        // The client times out only when the server it waits on does not lead (or crashed).
        Label::RcvResp if a.timeout => {
            let waits_on = sim.process(node).and_then(|n| {
                if let Node::Client(c) = n {
                    Some(c.leader)
                } else {
                    None
                }
            });
            if waits_on.is_some_and(leads) { 0 } else { 1 }
        }
        // The client asks less often while no server leads.
        Label::ClientLoop | Label::SndReq | Label::RcvResp if !live_leader => 1,
        _ => base,
    }
}

/// Runs `scenario` with `seed` (and the bug switch) for [`MAX_STEPS`] steps, or until no step
/// is enabled.
pub fn run_system(scenario: Scenario, seed: u64, bug: Bug) -> Run {
    let k = constants();
    let max_term = check_constant("MaxTerm");
    let mut rng = Rng::new(seed);
    let slow = 1 + rng.below(k.num_servers);
    let mut sim = system(k, bug, vec![requests(); k.num_clients as usize]);
    let initial = observe(&sim);
    let mut steps = vec![];
    while steps.len() < MAX_STEPS {
        let weighted: Vec<(Step<Action>, u64)> = sim
            .enabled()
            .into_iter()
            .map(|s| {
                let w = match &s {
                    Step::Local { node, label } => {
                        weight(scenario, slow, max_term, &sim, *node, label)
                    }
                    _ => 0,
                };
                (s, w)
            })
            .collect();
        let total: u64 = weighted.iter().map(|(_, w)| w).sum();
        if total == 0 {
            break;
        }
        let mut pick = rng.below(total);
        let (step, _) = weighted
            .into_iter()
            .find(|(_, w)| {
                if pick < *w {
                    return true;
                }
                pick -= w;
                false
            })
            .expect("a step of the weighted total");
        sim.apply(&step);
        let Step::Local { node, label } = step else {
            unreachable!("no faults are enabled")
        };
        steps.push(Recorded {
            actor: actor(&k, node, &label),
            after: observe(&sim),
            label,
        });
    }
    Run {
        initial,
        steps,
        sim,
    }
}

pub const SOURCE_PATH: &str = "tasks/raftkvs/src/raftkvs.rs";

/// The constants a trace's header names, as the model names them.
pub fn header_constants() -> Value {
    let k = constants();
    json!({
        "NumServers": k.num_servers,
        "NumClients": k.num_clients,
        "MaxNodeFail": k.max_node_fail,
        "MaxTerm": check_constant("MaxTerm"),
        "MaxCommitIndex": check_constant("MaxCommitIndex"),
        "Keys": KEYS,
        "Values": VALUES,
    })
}

/// The trace text of a run.
pub fn render(seed: u64, bug: Bug, run: &Run) -> String {
    let header = Header {
        task: "raftkvs".into(),
        constants: header_constants(),
        seed,
        // The driver's seeded choices; the scenario (its weights) is in the file name.
        scheduler: Scheduler::Random,
        source_path: SOURCE_PATH.into(),
        source_text: include_str!("raftkvs.rs"),
        bug: (bug == Bug::CommitEarlierTerm).then(|| "commit-earlier-term".into()),
    };
    net::render(&header, run)
}

/// Runs a scenario once and returns the trace text.
pub fn run(scenario: Scenario, seed: u64, bug: Bug) -> String {
    render(seed, bug, &run_system(scenario, seed, bug))
}

/// All traces of the task (`traces/raftkvs`).
pub fn traces() -> Vec<TraceFile> {
    named_runs(&Scenario::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile {
            dir: "raftkvs".into(),
            name: run_name(sc.name(), seed),
            text: run(sc, seed, Bug::None),
        })
        .collect()
}

/// The client ids.
pub fn clients(k: &Constants) -> Vec<NodeId> {
    (1..=k.num_clients).map(|c| 6 * k.num_servers + c).collect()
}
