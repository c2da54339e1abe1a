//! A three-node cluster around [`Raft`] nodes on the shared simulated network ([`simnet`]), in
//! the manner of etcd's own test network: messages sit in flight until the driver delivers
//! them (in any order: [`Order::Any`]), drops or duplicates them; links can be cut (partitions)
//! and healed; nodes crash and restart from their durable state; clients propose at any node.
//! Every choice comes from one seeded [`Rng`], so a seed and a scenario give the same run every
//! time. The driver here picks its events itself ([`Cluster::random_event`], with weights per
//! kind of event) rather than through [`simnet::Sim`], so that the traces it recorded stay the
//! same.
//!
//! Each step that is one of the task's actions is recorded with the observed state of every node
//! after it. Steps that change nothing a node shows and no message it holds (a timer tick that
//! does not fire, a proposal forwarded by a follower) and the network's own doings (loss,
//! duplication, reordering) are not actions.
//!
//! The driver keeps runs inside the model's checking bounds ([`Bounds`]): a step that would take
//! a node past the largest term or log length is not taken (the timer is held, the message is
//! lost, the proposal is refused).

use crate::raft::{Config, Durable, Entry, Message, MsgType, NodeId, Raft, Role, Tick, NONE};
pub use simnet::Rng;
use simnet::{Delivery, Envelope, Network, Order};
use std::collections::{BTreeMap, BTreeSet};

impl Envelope for Message {
    fn src(&self) -> NodeId {
        self.from
    }
    fn dst(&self) -> NodeId {
        self.to
    }
}

/// The task's actions (the pinned names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Action {
    Timeout,
    HandlePreVoteRequest,
    HandlePreVoteResponse,
    HandleVoteRequest,
    HandleVoteResponse,
    ClientRequest,
    HeartbeatTimeout,
    HandleAppendEntriesRequest,
    HandleAppendEntriesResponse,
    HandleHeartbeat,
    HandleHeartbeatResponse,
    Restart,
}

impl Action {
    pub const ALL: [Action; 12] = [
        Action::Timeout,
        Action::HandlePreVoteRequest,
        Action::HandlePreVoteResponse,
        Action::HandleVoteRequest,
        Action::HandleVoteResponse,
        Action::ClientRequest,
        Action::HeartbeatTimeout,
        Action::HandleAppendEntriesRequest,
        Action::HandleAppendEntriesResponse,
        Action::HandleHeartbeat,
        Action::HandleHeartbeatResponse,
        Action::Restart,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Action::Timeout => "Timeout",
            Action::HandlePreVoteRequest => "HandlePreVoteRequest",
            Action::HandlePreVoteResponse => "HandlePreVoteResponse",
            Action::HandleVoteRequest => "HandleVoteRequest",
            Action::HandleVoteResponse => "HandleVoteResponse",
            Action::ClientRequest => "ClientRequest",
            Action::HeartbeatTimeout => "HeartbeatTimeout",
            Action::HandleAppendEntriesRequest => "HandleAppendEntriesRequest",
            Action::HandleAppendEntriesResponse => "HandleAppendEntriesResponse",
            Action::HandleHeartbeat => "HandleHeartbeat",
            Action::HandleHeartbeatResponse => "HandleHeartbeatResponse",
            Action::Restart => "Restart",
        }
    }

    /// The action that handles a message of this type, for network messages.
    pub fn handling(kind: MsgType) -> Option<Action> {
        Some(match kind {
            MsgType::PreVote => Action::HandlePreVoteRequest,
            MsgType::PreVoteResp => Action::HandlePreVoteResponse,
            MsgType::Vote => Action::HandleVoteRequest,
            MsgType::VoteResp => Action::HandleVoteResponse,
            MsgType::App => Action::HandleAppendEntriesRequest,
            MsgType::AppResp => Action::HandleAppendEntriesResponse,
            MsgType::Heartbeat => Action::HandleHeartbeat,
            MsgType::HeartbeatResp => Action::HandleHeartbeatResponse,
            MsgType::Prop => Action::ClientRequest,
            MsgType::Hup | MsgType::Beat => return None,
        })
    }
}

/// What the trace shows of one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub current_term: u64,
    pub voted_for: NodeId,
    pub state: Role,
    pub lead: NodeId,
    pub commit_index: u64,
    pub log_len: u64,
    pub log_last_term: u64,
}

impl View {
    pub fn of(r: &Raft) -> View {
        View {
            current_term: r.term,
            voted_for: r.vote,
            state: r.role,
            lead: r.lead,
            commit_index: r.committed,
            log_len: r.last_index(),
            log_last_term: r.last_term(),
        }
    }
}

/// One recorded step: `i` acts (handling a message from `j`), then every node shows `after`
/// (node `k` at `after[k - 1]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub action: Action,
    pub i: NodeId,
    pub j: Option<NodeId>,
    pub after: Vec<View>,
}

/// The model's checking bounds, which runs stay within.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub max_term: u64,
    pub max_log_len: u64,
}

/// How often the driver picks each kind of event in [`Cluster::random_event`] (relative
/// weights; the network's faults as percentages of deliveries).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub tick: u64,
    pub deliver: u64,
    pub propose: u64,
    /// Percent of picked messages lost instead of delivered.
    pub loss: u64,
    /// Percent of delivered messages that stay in flight as a duplicate.
    pub duplicate: u64,
}

/// Safety as the system itself sees it: one leader per term, and every committed entry is the
/// same on every node and forever (State Machine Safety).
#[derive(Clone, Debug, Default)]
pub struct Safety {
    leaders: BTreeMap<u64, NodeId>,
    committed: Vec<Entry>,
    pub violation: Option<String>,
}

impl Safety {
    pub fn observe(&mut self, nodes: &[Raft]) {
        if self.violation.is_some() {
            return;
        }
        for r in nodes {
            if r.role == Role::Leader {
                let l = *self.leaders.entry(r.term).or_insert(r.id);
                if l != r.id {
                    self.violation = Some(format!("two leaders in term {}: {} and {}", r.term, l, r.id));
                    return;
                }
            }
            let c = r.committed as usize;
            if c > r.log.len() {
                self.violation = Some(format!("node {} commits {} past its log", r.id, c));
                return;
            }
            let common = c.min(self.committed.len());
            if r.log[..common] != self.committed[..common] {
                self.violation = Some(format!("node {} committed prefix differs from the cluster's", r.id));
                return;
            }
            if c > self.committed.len() {
                self.committed.extend_from_slice(&r.log[self.committed.len()..c]);
            }
        }
    }

    /// Entries committed so far (on some node).
    pub fn committed_len(&self) -> usize {
        self.committed.len()
    }
}

pub struct Cluster {
    cfgs: Vec<Config>,
    pub nodes: Vec<Raft>,
    /// Messages in flight (any may be delivered next), cut links and crashed nodes.
    pub net: Network<Message>,
    pub rng: Rng,
    pub bounds: Bounds,
    pub steps: Vec<Step>,
    pub safety: Safety,
    restarts: u64,
    next_data: u64,
    /// Deliveries not taken because they would leave the bounds (the message is lost).
    held: u64,
}

impl Cluster {
    /// `n` nodes with ids `1..=n`, all new (term 0, empty logs), PreVote on.
    pub fn new(n: u64, seed: u64, election_tick: u32, heartbeat_tick: u32, bounds: Bounds) -> Cluster {
        let peers: Vec<NodeId> = (1..=n).collect();
        let cfgs: Vec<Config> = peers
            .iter()
            .map(|&id| Config { id, peers: peers.clone(), election_tick, heartbeat_tick, pre_vote: true, seed })
            .collect();
        let nodes = cfgs.iter().map(|c| Raft::new(c, Durable::default())).collect();
        Cluster {
            cfgs,
            nodes,
            net: Network::new(Order::Any),
            rng: Rng::new(seed),
            bounds,
            steps: vec![],
            safety: Safety::default(),
            restarts: 0,
            next_data: 1,
            held: 0,
        }
    }

    pub fn ids(&self) -> Vec<NodeId> {
        (1..=self.nodes.len() as u64).collect()
    }

    pub fn node(&self, id: NodeId) -> &Raft {
        &self.nodes[(id - 1) as usize]
    }

    pub fn is_up(&self, id: NodeId) -> bool {
        self.net.is_up(id)
    }

    /// Messages lost so far: dropped, on a cut link, to a crashed node, or held back by the
    /// bounds.
    pub fn lost(&self) -> u64 {
        self.net.lost() + self.held
    }

    /// The leader of the highest term among the running nodes, if any.
    pub fn leader(&self) -> Option<NodeId> {
        self.nodes
            .iter()
            .filter(|r| r.role == Role::Leader && self.is_up(r.id))
            .max_by_key(|r| r.term)
            .map(|r| r.id)
    }

    fn within(&self, r: &Raft) -> bool {
        r.term <= self.bounds.max_term
            && r.last_index() <= self.bounds.max_log_len
            && r.msgs.iter().all(|m| m.term <= self.bounds.max_term)
    }

    /// Puts `r` in place and its outbox on the network.
    fn install(&mut self, mut r: Raft) {
        let msgs = r.take_msgs();
        let id = r.id;
        self.nodes[(id - 1) as usize] = r;
        for m in msgs {
            self.net.send(m);
        }
    }

    fn record(&mut self, action: Action, i: NodeId, j: Option<NodeId>) {
        let after = self.nodes.iter().map(View::of).collect();
        self.steps.push(Step { action, i, j, after });
        self.safety.observe(&self.nodes);
    }

    /// One tick of node `id`'s clock. Returns the action it took, if any.
    pub fn tick(&mut self, id: NodeId) -> Option<Action> {
        if !self.is_up(id) {
            return None;
        }
        let mut r = self.node(id).clone();
        let t = r.tick();
        if !self.within(&r) {
            return None;
        }
        self.install(r);
        let a = match t {
            Tick::Nothing => return None,
            Tick::Campaign => Action::Timeout,
            Tick::Heartbeat => Action::HeartbeatTimeout,
        };
        self.record(a, id, None);
        Some(a)
    }

    /// Delivers the `k`-th message in flight. Returns the action it made, if any.
    pub fn deliver(&mut self, k: usize) -> Option<Action> {
        let Delivery::Delivered(m) = self.net.take(k) else { return None };
        let (from, to) = (m.from, m.to);
        let mut r = self.node(to).clone();
        let was_leader = r.role == Role::Leader;
        let kind = m.kind;
        let ok = r.step(m).is_ok();
        if !self.within(&r) {
            self.held += 1;
            return None;
        }
        self.install(r);
        let a = Action::handling(kind)?;
        if a == Action::ClientRequest {
            // A proposal is an action where a leader takes it; a follower only forwards it.
            if !(was_leader && ok) {
                return None;
            }
            self.record(a, to, None);
        } else {
            self.record(a, to, Some(from));
        }
        Some(a)
    }

    /// A client proposes a new entry at node `id`.
    pub fn propose(&mut self, id: NodeId) -> Option<Action> {
        if !self.is_up(id) {
            return None;
        }
        let mut m = Message::new(MsgType::Prop, id);
        m.entries = vec![Entry { term: 0, data: self.next_data }];
        let mut r = self.node(id).clone();
        let was_leader = r.role == Role::Leader;
        let ok = r.step(m).is_ok();
        if !ok || !self.within(&r) {
            return None;
        }
        self.next_data += 1;
        self.install(r);
        if was_leader {
            self.record(Action::ClientRequest, id, None);
            return Some(Action::ClientRequest);
        }
        None
    }

    /// Loses the `k`-th message in flight.
    pub fn drop_message(&mut self, k: usize) {
        self.net.drop(k);
    }

    /// Node `id` stops: it takes no steps and messages to it are lost until it restarts.
    pub fn crash(&mut self, id: NodeId) {
        self.net.crash(id);
    }

    /// Node `id` (crashed or running) comes back from its durable state. Messages to it that
    /// are in flight are each lost with probability one half.
    pub fn restart(&mut self, id: NodeId) {
        self.restarts += 1;
        let mut cfg = self.cfgs[(id - 1) as usize].clone();
        cfg.seed = cfg.seed.wrapping_add(self.restarts.wrapping_mul(0x9e37_79b9));
        let durable = self.node(id).durable();
        self.nodes[(id - 1) as usize] = Raft::new(&cfg, durable);
        self.net.restart(id);
        self.net.lose_addressed_to(id, 50, &mut self.rng);
        self.record(Action::Restart, id, None);
    }

    /// Cuts every link between `group` and the other nodes, both ways.
    pub fn partition(&mut self, group: &[NodeId]) {
        self.net.partition(group, &self.ids());
    }

    pub fn heal(&mut self) {
        self.net.heal();
    }

    /// One random event: a tick of a random running node, a delivery (or loss, or duplication)
    /// of a random message in flight, or a client proposal at a random node (the leader more
    /// often, as clients learn it).
    pub fn random_event(&mut self, w: &Weights) -> Option<Action> {
        let deliver = if self.net.is_empty() { 0 } else { w.deliver };
        let total = w.tick + deliver + w.propose;
        let pick = self.rng.below(total);
        if pick < w.tick {
            let id = 1 + self.rng.below(self.nodes.len() as u64);
            self.tick(id)
        } else if pick < w.tick + deliver {
            let k = self.rng.below(self.net.len() as u64) as usize;
            if self.rng.chance(w.loss) {
                self.drop_message(k);
                return None;
            }
            if self.rng.chance(w.duplicate) {
                self.net.duplicate(k);
            }
            self.deliver(k)
        } else {
            let id = match self.leader() {
                Some(l) if self.rng.chance(80) => l,
                _ => 1 + self.rng.below(self.nodes.len() as u64),
            };
            self.propose(id)
        }
    }

    /// The `lead` every running node agrees on, if they all know the same leader.
    pub fn settled_leader(&self) -> Option<NodeId> {
        let leads: BTreeSet<NodeId> =
            self.nodes.iter().filter(|r| self.is_up(r.id)).map(|r| r.lead).collect();
        match leads.into_iter().collect::<Vec<_>>()[..] {
            [l] if l != NONE => Some(l),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Bounds = Bounds { max_term: 5, max_log_len: 8 };

    #[test]
    fn a_quiet_network_elects_one_leader_and_commits() {
        for seed in 1..40 {
            let mut c = Cluster::new(3, seed, 6, 2, B);
            let w = Weights { tick: 3, deliver: 6, propose: 1, loss: 0, duplicate: 0 };
            for _ in 0..600 {
                c.random_event(&w);
            }
            assert!(c.safety.violation.is_none(), "seed {seed}: {:?}", c.safety.violation);
            assert!(c.steps.iter().any(|s| s.action == Action::HandleVoteResponse), "seed {seed}");
            assert!(c.safety.committed_len() >= 1, "seed {seed}: nothing committed");
        }
    }

    #[test]
    fn safety_finds_two_leaders_and_a_changed_committed_entry() {
        let c = Cluster::new(3, 1, 6, 2, B);
        let mut nodes = c.nodes.clone();
        nodes[0].role = Role::Leader;
        nodes[1].role = Role::Leader;
        let mut s = Safety::default();
        s.observe(&nodes);
        assert!(s.violation.as_deref().is_some_and(|v| v.starts_with("two leaders in term 0")), "{:?}", s.violation);

        let mut nodes = c.nodes.clone();
        nodes[0].log = vec![Entry { term: 1, data: 0 }, Entry { term: 1, data: 7 }];
        nodes[0].committed = 2;
        let mut s = Safety::default();
        s.observe(&nodes);
        assert!(s.violation.is_none());
        nodes[1].log = vec![Entry { term: 1, data: 0 }, Entry { term: 2, data: 0 }];
        nodes[1].committed = 2;
        s.observe(&nodes);
        assert!(s.violation.as_deref().is_some_and(|v| v.contains("node 2 committed prefix")), "{:?}", s.violation);
        // A node that forgets a committed entry later is caught too.
        let mut s = Safety::default();
        nodes[1] = nodes[0].clone();
        nodes[1].id = 2;
        s.observe(&nodes);
        nodes[0].log[1].data = 8;
        s.observe(&nodes);
        assert!(s.violation.is_some());
    }

    #[test]
    fn bounds_hold_on_every_step() {
        let b = Bounds { max_term: 2, max_log_len: 3 };
        for seed in 1..30 {
            let mut c = Cluster::new(3, seed, 3, 2, b);
            let w = Weights { tick: 5, deliver: 5, propose: 2, loss: 20, duplicate: 10 };
            for _ in 0..800 {
                c.random_event(&w);
            }
            for s in &c.steps {
                for v in &s.after {
                    assert!(v.current_term <= 2 && v.log_len <= 3, "seed {seed}: {v:?}");
                }
            }
            assert!(c.safety.violation.is_none());
        }
    }

    #[test]
    fn an_isolated_leader_steps_down_after_the_heal() {
        let mut c = Cluster::new(3, 3, 6, 2, B);
        let w = Weights { tick: 3, deliver: 6, propose: 0, loss: 0, duplicate: 0 };
        let mut n = 0;
        while c.settled_leader().is_none() {
            c.random_event(&w);
            n += 1;
            assert!(n < 5000);
        }
        let old = c.settled_leader().unwrap();
        c.partition(&[old]);
        while c.nodes.iter().all(|r| r.id == old || r.role != Role::Leader) {
            c.random_event(&w);
            n += 1;
            assert!(n < 20000);
        }
        assert_eq!(c.node(old).role, Role::Leader, "isolated, the old leader does not know");
        c.heal();
        while c.node(old).role == Role::Leader {
            c.random_event(&w);
            n += 1;
            assert!(n < 40000);
        }
        assert!(c.safety.violation.is_none());
    }
}
