//! The cluster as a [`simnet::Sim`]: each node a [`Process`] whose steps are a tick of its
//! clock, the delivery of a message addressed to it and, at a leader, a client's proposal.
//! The network's faults (loss, duplication, partitions, crashes and restarts) are the
//! simulation's. This is the state-machine view of the same system [`crate::cluster`] drives
//! with its own weighted choices (which the traces were recorded with): [`Sim::enabled`] lists
//! every step a state allows and [`Sim::apply`] takes one, so every behaviour of the system can
//! be walked, not only the sampled ones.
//!
//! The steps keep within the task's checking bounds as the cluster driver does: a tick that
//! would take a node past them is not enabled, a delivery that would is a loss, a proposal that
//! would is not enabled.

use crate::cluster::{Action, Bounds};
use crate::raft::{Config, Durable, Entry, Message, MsgType, NodeId, Raft, Role, Tick};
use simnet::{Delivery, Faults, Network, Order, Process, Sim};

/// A node's step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeStep {
    /// One tick of the node's clock.
    Tick,
    /// Deliver the `k`-th message in flight, addressed to this node.
    Deliver(usize),
    /// A client proposes an entry to this node, a leader.
    Propose,
}

/// One node of the cluster: its Raft state machine, what it restarts from, and the task action
/// its last step was (with the sender of the message it handled), if any.
#[derive(Clone, Debug)]
pub struct Node {
    pub raft: Raft,
    cfg: Config,
    bounds: Bounds,
    restarts: u64,
    proposals: u64,
    /// The task action of the node's last step: what a trace line would record.
    pub last: Option<(Action, Option<NodeId>)>,
}

impl Node {
    pub fn new(cfg: Config, bounds: Bounds) -> Node {
        let raft = Raft::new(&cfg, Durable::default());
        Node { raft, cfg, bounds, restarts: 0, proposals: 0, last: None }
    }

    fn within(&self, r: &Raft) -> bool {
        r.term <= self.bounds.max_term
            && r.last_index() <= self.bounds.max_log_len
            && r.msgs.iter().all(|m| m.term <= self.bounds.max_term)
    }

    fn proposal(&self) -> Message {
        let mut m = Message::new(MsgType::Prop, self.raft.id);
        m.entries = vec![Entry { term: 0, data: self.raft.id * 1_000_000 + self.proposals + 1 }];
        m
    }

    /// Takes `r` as the node's state and puts its outbox on the network.
    fn install(&mut self, mut r: Raft, net: &mut Network<Message>) {
        for m in r.take_msgs() {
            net.send(m);
        }
        self.raft = r;
    }
}

impl Process for Node {
    type Msg = Message;
    type Label = NodeStep;

    fn enabled(&self, id: NodeId, net: &Network<Message>) -> Vec<NodeStep> {
        let mut v = vec![];
        let mut r = self.raft.clone();
        r.tick();
        if self.within(&r) {
            v.push(NodeStep::Tick);
        }
        v.extend(net.deliverable().into_iter().filter(|&k| net.in_flight()[k].to == id).map(NodeStep::Deliver));
        if self.raft.role == Role::Leader {
            let mut r = self.raft.clone();
            if r.step(self.proposal()).is_ok() && self.within(&r) {
                v.push(NodeStep::Propose);
            }
        }
        v
    }

    fn step(&mut self, id: NodeId, label: &NodeStep, net: &mut Network<Message>) {
        self.last = None;
        match *label {
            NodeStep::Tick => {
                let mut r = self.raft.clone();
                let t = r.tick();
                self.install(r, net);
                self.last = match t {
                    Tick::Nothing => None,
                    Tick::Campaign => Some((Action::Timeout, None)),
                    Tick::Heartbeat => Some((Action::HeartbeatTimeout, None)),
                };
            }
            NodeStep::Deliver(k) => {
                let Delivery::Delivered(m) = net.take(k) else { return };
                let (from, kind) = (m.from, m.kind);
                let mut r = self.raft.clone();
                let was_leader = r.role == Role::Leader;
                let ok = r.step(m).is_ok();
                if !self.within(&r) {
                    // Past the bounds: the message is lost, as the cluster driver loses it.
                    return;
                }
                self.install(r, net);
                self.last = match Action::handling(kind) {
                    Some(Action::ClientRequest) => (was_leader && ok).then_some((Action::ClientRequest, None)),
                    Some(a) => Some((a, Some(from))),
                    None => None,
                };
            }
            NodeStep::Propose => {
                let mut r = self.raft.clone();
                if r.step(self.proposal()).is_ok() && self.within(&r) {
                    self.proposals += 1;
                    self.install(r, net);
                    self.last = Some((Action::ClientRequest, None));
                }
            }
        }
        debug_assert_eq!(self.raft.id, id);
    }

    /// Back from its durable state (term, vote, log, commit), a follower with lead 0; its
    /// timeouts are drawn anew.
    fn restarted(&self) -> Node {
        let restarts = self.restarts + 1;
        let mut cfg = self.cfg.clone();
        cfg.seed = cfg.seed.wrapping_add(restarts.wrapping_mul(0x9e37_79b9));
        let raft = Raft::new(&cfg, self.raft.durable());
        Node { raft, cfg: self.cfg.clone(), bounds: self.bounds, restarts, proposals: self.proposals, last: Some((Action::Restart, None)) }
    }
}

/// `n` nodes with ids `1..=n`, all new, PreVote on, on a network that delivers in any order,
/// with the faults allowed.
pub fn cluster_sim(n: u64, seed: u64, election_tick: u32, heartbeat_tick: u32, bounds: Bounds, faults: Faults) -> Sim<Node> {
    let peers: Vec<NodeId> = (1..=n).collect();
    let procs = peers
        .iter()
        .map(|&id| (id, Node::new(Config { id, peers: peers.clone(), election_tick, heartbeat_tick, pre_vote: true, seed }, bounds)))
        .collect();
    Sim::new(procs, Network::new(Order::Any), faults)
}
