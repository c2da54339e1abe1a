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

pub mod graph {
    //! The cluster as a state machine for its system graph (docs/system-graph.md): the three
    //! [`Raft`] nodes of the traces and the messages they sent, searched by the task's graph
    //! generator (`tasks/traces`, `How::Search`).
    //!
    //! Two abstractions keep the machine finite and small, each exact for what a trace can show:
    //!
    //! - **The network is the set of every message ever sent.** The traces' network loses,
    //!   delays, duplicates and reorders messages without limit, so any message sent may still be
    //!   delivered at any later moment, any number of times (a copy made when it was sent), or
    //!   never. A delivery leaves the message in the set. Loss and duplication are therefore no
    //!   steps, and neither is a crash's loss of the messages to the node.
    //! - **Timers are not counted.** A tick that does not fire changes only a node's hidden
    //!   counters, and a node's clock may tick any number of times between two other steps, so
    //!   its timer can always be made to fire next: `Timeout(i)` is a step of every non-leader and
    //!   `HeartbeatTimeout(i)` of every leader, whenever the checking bounds allow it (a held timer
    //!   is one whose firing would take the node past them). The counters and the random draw of
    //!   the election timeout decide only when, never whether, so they are left out of the state.
    //!
    //! A proposal is taken by a leader directly (a proposal a follower forwards reaches the leader
    //! as the same step); its payload, which no step of the code reads, is 0. Restart (crash and
    //! restart in one step) is a step of every node at any moment: term, vote, log and commit kept,
    //! a follower with no leader. The checking bounds are the traces' ([`super::bounds`]):
    //! a step that would take a node past them is not taken (for a delivery, the message is lost).

    use std::collections::{BTreeMap, BTreeSet};
    use std::hash::{Hash, Hasher};

    use serde_json::{Map, Value};

    use crate::cluster::{Action, Bounds, View};
    use crate::raft::{Config, Durable, Entry, Message, MsgType, NodeId, Progress, Raft, Role};
    use super::{SERVERS, bounds, state_json};

    /// A node's state as far as any step reads it: everything but its timers.
    #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    struct NodeState {
        term: u64,
        vote: NodeId,
        lead: NodeId,
        role: u8,
        /// Each entry's term.
        log: Vec<u64>,
        committed: u64,
        /// Per node: (match, next).
        prs: Vec<(NodeId, u64, u64)>,
        votes: Vec<(NodeId, bool)>,
    }

    const ROLES: [Role; 4] = [Role::Follower, Role::PreCandidate, Role::Candidate, Role::Leader];

    fn cfg(id: NodeId) -> Config {
        Config { id, peers: SERVERS.to_vec(), election_tick: 1, heartbeat_tick: 1, pre_vote: true, seed: 1 }
    }

    impl NodeState {
        fn of(r: &Raft) -> NodeState {
            NodeState {
                term: r.term,
                vote: r.vote,
                lead: r.lead,
                role: ROLES.iter().position(|&x| x == r.role).unwrap_or(0) as u8,
                log: r.log.iter().map(|e| e.term).collect(),
                committed: r.committed,
                prs: r.prs.iter().map(|(&id, p)| (id, p.matched, p.next)).collect(),
                votes: r.votes.iter().map(|(&id, &g)| (id, g)).collect(),
            }
        }

        fn durable(&self) -> Durable {
            Durable { term: self.term, vote: self.vote, commit: self.committed, log: self.log.iter().map(|&term| Entry { term, data: 0 }).collect() }
        }

        /// The node as a [`Raft`] (its timers new).
        fn raft(&self, id: NodeId) -> Raft {
            let mut r = Raft::new(&cfg(id), self.durable());
            r.role = ROLES[self.role as usize];
            r.lead = self.lead;
            r.prs = self.prs.iter().map(|&(p, matched, next)| (p, Progress { matched, next })).collect::<BTreeMap<_, _>>();
            r.votes = self.votes.iter().copied().collect();
            r
        }
    }

    /// A message as the set holds it.
    #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
    struct Msg(Message);

    impl Hash for Msg {
        fn hash<H: Hasher>(&self, h: &mut H) {
            let m = &self.0;
            (m.kind as u8, m.from, m.to, m.term, m.log_term, m.index, m.commit, m.reject, m.reject_hint).hash(h);
            for e in &m.entries {
                e.term.hash(h);
            }
        }
    }

    /// The cluster: its nodes (ids 1, 2, 3) and every message sent so far.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    pub struct GraphState {
        nodes: Vec<NodeState>,
        sent: BTreeSet<Msg>,
    }

    impl GraphState {
        /// Every node new (term 0, no vote, empty log, a follower), nothing sent.
        pub fn initial() -> GraphState {
            GraphState { nodes: SERVERS.iter().map(|&id| NodeState::of(&Raft::new(&cfg(id), Durable::default()))).collect(), sent: BTreeSet::new() }
        }

        /// The largest term of a node.
        pub fn max_term(&self) -> u64 {
            self.nodes.iter().map(|n| n.term).max().unwrap_or(0)
        }

        /// Messages sent so far (distinct).
        pub fn sent(&self) -> usize {
            self.sent.len()
        }

        fn within(b: Bounds, r: &Raft) -> bool {
            r.term <= b.max_term && r.last_index() <= b.max_log_len && r.msgs.iter().all(|m| m.term <= b.max_term)
        }

        /// Node `k`'s step to `r`: the state after it, its outbox added to the set.
        fn with(&self, k: usize, mut r: Raft) -> GraphState {
            let mut next = self.clone();
            for m in r.take_msgs() {
                next.sent.insert(Msg(m));
            }
            next.nodes[k] = NodeState::of(&r);
            next
        }

        /// Whether `other` has the same nodes (it may hold more messages).
        pub fn same_nodes(&self, other: &GraphState) -> bool {
            self.nodes == other.nodes
        }

        /// Whether this state's nodes are `other`'s and its messages a subset of `other`'s: every
        /// step of this state is then one of `other`'s, and so is everything that follows.
        pub fn subsumed_by(&self, other: &GraphState) -> bool {
            self.nodes == other.nodes && self.sent.is_subset(&other.sent)
        }

        /// The nodes alone, as a key.
        pub fn nodes_key(&self) -> impl Hash + Eq + Clone + use<> {
            self.nodes.clone()
        }

        /// Takes every message of `other` (a state with the same nodes) into this one.
        pub fn absorb(&mut self, other: GraphState) {
            self.sent.extend(other.sent);
        }

        fn views(&self) -> Vec<View> {
            self.nodes.iter().zip(SERVERS).map(|(n, id)| View::of(&n.raft(id))).collect()
        }
    }

    fn args(i: NodeId, j: Option<NodeId>) -> Map<String, Value> {
        let mut a = Map::new();
        a.insert("i".into(), i.into());
        if let Some(j) = j {
            a.insert("j".into(), j.into());
        }
        a
    }

    impl task_probe::Machine for GraphState {
        fn observe(&self) -> Map<String, Value> {
            match state_json(&self.views()) {
                Value::Object(m) => m,
                _ => Map::new(),
            }
        }

        fn successors(&self) -> Vec<(String, Map<String, Value>, GraphState)> {
            let b = bounds();
            let mut out = vec![];
            for (k, (n, &id)) in self.nodes.iter().zip(SERVERS.iter()).enumerate() {
                let leader = n.role == 3;
                // The node's timer fires.
                let mut r = n.raft(id);
                let (local, action) = if leader { (MsgType::Beat, Action::HeartbeatTimeout) } else { (MsgType::Hup, Action::Timeout) };
                let _ = r.step(Message::new(local, id));
                if Self::within(b, &r) {
                    out.push((action.name().to_string(), args(id, None), self.with(k, r)));
                }
                // A client's proposal at a leader.
                if leader {
                    let mut r = n.raft(id);
                    let mut m = Message::new(MsgType::Prop, id);
                    m.entries = vec![Entry { term: 0, data: 0 }];
                    if r.step(m).is_ok() && Self::within(b, &r) {
                        out.push((Action::ClientRequest.name().to_string(), args(id, None), self.with(k, r)));
                    }
                }
                // A message to it is delivered.
                for Msg(m) in self.sent.iter().filter(|m| m.0.to == id) {
                    let Some(action) = Action::handling(m.kind) else { continue };
                    let mut r = n.raft(id);
                    let from = m.from;
                    let _ = r.step(m.clone());
                    if Self::within(b, &r) {
                        out.push((action.name().to_string(), args(id, Some(from)), self.with(k, r)));
                    }
                }
                // A crash and a restart.
                let r = Raft::new(&cfg(id), n.durable());
                out.push((Action::Restart.name().to_string(), args(id, None), self.with(k, r)));
            }
            out
        }
    }
}
