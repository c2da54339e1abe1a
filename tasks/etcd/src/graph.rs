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
//! a follower with no leader. The checking bounds are the traces' ([`crate::workload::bounds`]):
//! a step that would take a node past them is not taken (for a delivery, the message is lost).

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use serde_json::{Map, Value};

use crate::cluster::{Action, Bounds, View};
use crate::raft::{Config, Durable, Entry, Message, MsgType, NodeId, Progress, Raft, Role};
use crate::workload::{SERVERS, bounds, state_json};

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

    /// The largest commit index of a node.
    pub fn max_commit(&self) -> u64 {
        self.nodes.iter().map(|n| n.committed).max().unwrap_or(0)
    }

    /// The longest log of a node.
    pub fn max_log(&self) -> u64 {
        self.nodes.iter().map(|n| n.log.len() as u64).max().unwrap_or(0)
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
