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
use task_probe::net::{self, NetTask, Recorded, SimMachine};
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

    /// A server's step is taken by one of its five archetypes, each a process of its own.
    fn actor(node: NodeId, a: &Action) -> NodeId {
        actor(&constants(), node, a)
    }

    /// Mailboxes are bags: the order of the messages in flight is no part of the state.
    fn canonical(sim: &mut Sim<Node>) {
        sim.net.sort_in_flight();
    }
}

/// The system as a state machine, for its system graph (`tasks/traces/src/graphs.rs`).
pub type GraphState = SimMachine<Raftkvs>;

/// The system of the traces at its start, without the bug: every schedule of it is searched,
/// the crash included (the traces' scenarios only weigh the steps, see the module's comment).
pub fn graph_state() -> GraphState {
    let k = constants();
    SimMachine::new(system(k, Bug::None, vec![requests(); k.num_clients as usize]), ())
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
        let w = |s: &Step<Action>| match s {
            Step::Local { node, label } => weight(scenario, slow, max_term, &sim, *node, label),
            _ => 0,
        };
        let Some(step) = task_probe::pick_weighted(&mut rng, sim.enabled(), w) else { break };
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

/// A run driven step by step by a script rather than by weights: each step is the first
/// enabled one that the script's predicate accepts.
struct Script {
    k: Constants,
    sim: Sim<Node>,
    steps: Vec<Recorded<Raftkvs>>,
}

impl Script {
    /// Takes the first enabled step of `node` that `want` accepts; returns whether there was one.
    fn try_take(&mut self, node: NodeId, want: impl Fn(&Action) -> bool) -> bool {
        let step = self.sim.enabled().into_iter().find(|s| matches!(s, Step::Local { node: n, label } if *n == node && want(label)));
        let Some(step) = step else { return false };
        self.sim.apply(&step);
        let Step::Local { node, label } = step else { unreachable!("a process's step") };
        self.steps.push(Recorded { actor: actor(&self.k, node, &label), after: observe(&self.sim), label });
        true
    }

    fn take(&mut self, node: NodeId, what: &str, want: impl Fn(&Action) -> bool) {
        assert!(self.try_take(node, want), "the script's step `{what}` of node {node} is not enabled");
    }

    fn at(&self, node: NodeId, part: Part) -> Label {
        server(&self.sim, node).map_or(Label::Done, |s| s.pc[part as usize])
    }

    /// Server `s` times out and sends its RequestVotes.
    fn election(&mut self, s: NodeId) {
        self.take(s, "election timeout", |a| a.label == Label::ServerRequestVoteLoop);
        while self.at(s, Part::RequestVote) == Label::RequestVoteLoop {
            self.take(s, "requestVoteLoop", |a| a.label == Label::RequestVoteLoop);
        }
    }

    /// Server `s` takes and handles every message in its mailbox, oldest first.
    fn handle_all(&mut self, s: NodeId) {
        loop {
            let next = self.sim.net.addressed_to(s).next().cloned();
            let Some(m) = next else { return };
            self.take(s, "serverLoop", |a| a.label == Label::ServerLoop && a.take.as_ref() == Some(&m));
            self.take(s, "handleMsg", |a| a.label == Label::HandleMsg);
        }
    }

    /// Leader `s` runs its AppendEntries loop up to the turn of server `upto` (a later turn is
    /// not taken; `upto` = NumServers + 1 ends the round).
    fn append_entries(&mut self, s: NodeId, upto: NodeId) {
        if self.at(s, Part::AppendEntries) == Label::ServerAppendEntriesLoop {
            self.take(s, "serverAppendEntriesLoop", |a| a.label == Label::ServerAppendEntriesLoop);
        }
        let idx = |sc: &Script| server(&sc.sim, s).map_or(0, |x| x.idx_ae);
        while self.at(s, Part::AppendEntries) == Label::AppendEntriesLoop && idx(self) <= upto {
            self.take(s, "appendEntriesLoop", |a| a.label == Label::AppendEntriesLoop);
        }
    }

    /// Leader `s` checks its commit index and commits what it may.
    fn advance_commit(&mut self, s: NodeId) {
        self.take(s, "serverAdvanceCommitIndexLoop", |a| a.label == Label::ServerAdvanceCommitIndexLoop);
        while self.at(s, Part::AdvanceCommitIndex) == Label::ApplyLoop {
            self.take(s, "applyLoop", |a| a.label == Label::ApplyLoop);
        }
    }

    fn client(&self, c: NodeId) -> Label {
        match self.sim.process(c) {
            Some(Node::Client(x)) => x.pc,
            _ => Label::Done,
        }
    }
}

/// The Raft paper's Figure 8 on three servers, as one scripted schedule. Server 1 leads term 2
/// and appends the client's Put (entry a) without replicating it; server 3 leads term 3 and
/// appends the client's retry (entry b); server 1 leads term 4 and replicates a to server 2, so
/// that a quorum stores it. With `Bug::CommitEarlierTerm` server 1 commits a, applies it and
/// answers the client; the correct code does not, since a is not of term 4. Then server 3,
/// whose last entry is of term 3, wins term 5 with server 1's vote, takes the client's next
/// request or retry (entry c), stores b and c on a quorum with server 2 and commits both: under
/// the bug, servers 1 and 3 have committed different entries at index 1.
pub fn figure8(bug: Bug) -> Run {
    let k = constants();
    let client = 6 * k.num_servers + 1;
    let mut sc = Script { k, sim: system(k, bug, vec![requests(); k.num_clients as usize]), steps: vec![] };
    let initial = observe(&sc.sim);
    // Term 2: server 1 leads with every vote; the client's Put reaches it (entry a).
    sc.election(1);
    sc.handle_all(2);
    sc.handle_all(3);
    sc.handle_all(1);
    sc.take(1, "serverBecomeLeaderLoop", |a| a.label == Label::ServerBecomeLeaderLoop);
    sc.take(client, "clientLoop", |a| a.label == Label::ClientLoop);
    sc.take(client, "sndReq to 1", |a| a.label == Label::SndReq && a.srv == Some(1));
    sc.handle_all(1);
    // Term 3: server 3 leads with server 2's vote (server 1's log is more up to date); the
    // client times out and retries at server 3 (entry b).
    sc.election(3);
    sc.handle_all(2);
    sc.handle_all(1);
    sc.handle_all(3);
    sc.take(3, "serverBecomeLeaderLoop", |a| a.label == Label::ServerBecomeLeaderLoop);
    sc.take(client, "client timeout", |a| a.label == Label::RcvResp && a.timeout);
    sc.take(client, "sndReq to 3", |a| a.label == Label::SndReq && a.srv == Some(3));
    sc.handle_all(3);
    // Term 4: server 1 leads with server 2's vote. Its first round finds both followers
    // behind (server 3's entry at index 1 is of term 3: rejected, b stays); its second round
    // replicates a to server 2 and stops before server 3's turn.
    let end = k.num_servers + 1;
    sc.election(1);
    sc.handle_all(2);
    sc.handle_all(3);
    sc.handle_all(1);
    sc.take(1, "serverBecomeLeaderLoop", |a| a.label == Label::ServerBecomeLeaderLoop);
    sc.append_entries(1, end);
    sc.handle_all(2);
    sc.handle_all(3);
    sc.handle_all(1);
    sc.append_entries(1, 2);
    sc.handle_all(2);
    sc.handle_all(1);
    // Server 1 checks its commit index: a is on a quorum (servers 1 and 2) but of term 2.
    sc.advance_commit(1);
    if sc.sim.net.addressed_to(client).next().is_some() {
        // Under the bug, a was committed and answered: the client takes the answer and its
        // next request.
        sc.take(client, "rcvResp", |a| a.label == Label::RcvResp && a.take.is_some());
        sc.take(client, "clientLoop", |a| a.label == Label::ClientLoop);
    }
    // Term 5: server 3 (last entry of term 3) wins with server 1's vote; server 1's
    // AppendEntries loop ends as it no longer leads.
    sc.election(3);
    sc.handle_all(1);
    sc.handle_all(2);
    sc.handle_all(3);
    sc.take(3, "serverBecomeLeaderLoop", |a| a.label == Label::ServerBecomeLeaderLoop);
    sc.append_entries(1, 3);
    // The client's request (or its retry) reaches server 3 (entry c).
    for _ in 0..8 {
        if server(&sc.sim, 3).is_some_and(|s| s.res.log.len() >= 2) {
            break;
        }
        match sc.client(client) {
            Label::SndReq => sc.take(client, "sndReq", |a| a.label == Label::SndReq && a.srv.is_none_or(|s| s == 3)),
            Label::RcvResp if sc.sim.net.addressed_to(client).next().is_some() => {
                sc.take(client, "rcvResp", |a| a.label == Label::RcvResp && a.take.is_some())
            }
            Label::RcvResp if sc.sim.net.addressed_to(1).next().is_none() && sc.sim.net.addressed_to(3).next().is_none() => {
                sc.take(client, "client timeout", |a| a.label == Label::RcvResp && a.timeout)
            }
            _ => {
                sc.handle_all(1);
                sc.handle_all(3);
            }
        }
    }
    // Server 3's first round finds both behind; its second sends b and c to both, of which
    // server 2 takes them at once: b and c are on a quorum, and server 3 commits both.
    sc.append_entries(3, end);
    sc.handle_all(1);
    sc.handle_all(2);
    sc.handle_all(3);
    sc.append_entries(3, end);
    sc.handle_all(2);
    sc.handle_all(3);
    sc.advance_commit(3);
    Run { initial, steps: sc.steps, sim: sc.sim }
}

/// All traces of the task (`traces/raftkvs`) and of the bug switch (`traces/raftkvs-bug`: the
/// Figure 8 script, with the switch on; seed 101 names it, though no choice is random).
pub fn traces() -> Vec<TraceFile> {
    let mut v: Vec<TraceFile> = named_runs(&Scenario::ALL, SEEDS)
        .into_iter()
        .map(|(sc, seed)| TraceFile { dir: "raftkvs".into(), name: run_name(sc.name(), seed), text: run(sc, seed, Bug::None) })
        .collect();
    let bug = Bug::CommitEarlierTerm;
    v.push(TraceFile { dir: "raftkvs-bug".into(), name: run_name("figure8", 101), text: render(101, bug, &figure8(bug)) });
    v
}

/// The client ids.
pub fn clients(k: &Constants) -> Vec<NodeId> {
    (1..=k.num_clients).map(|c| 6 * k.num_servers + c).collect()
}
