//! Messages in flight, links and nodes that are up or down.

use crate::rng::Rng;
use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};

/// A node's id. Tasks number their nodes as their specifications do (etcd from 1, PGo's
/// producer 0 and consumers from 1).
pub type NodeId = u64;

/// A message knows its sender and its receiver.
pub trait Envelope {
    fn src(&self) -> NodeId;
    fn dst(&self) -> NodeId;
}

/// A message from one node to another with a body of the task's own: the shape every
/// distributed task's messages have (its ordering is the sender's, then the receiver's, then the
/// body's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Message<B> {
    pub from: NodeId,
    pub to: NodeId,
    pub body: B,
}

impl<B> Envelope for Message<B> {
    fn src(&self) -> NodeId {
        self.from
    }
    fn dst(&self) -> NodeId {
        self.to
    }
}

/// Which message in flight may be delivered next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Any of them: messages are reordered freely (etcd's test network, UDP).
    Any,
    /// The oldest of each link (sender, receiver): one TCP connection per pair of nodes.
    FifoPerLink,
    /// The oldest addressed to each receiver: one FIFO mailbox per node, whoever sent
    /// (PGo's `TCPChannel` mapping macro over `network[id]`).
    FifoPerReceiver,
}

/// What [`Network::take`] did with a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery<M> {
    /// Removed from the network and handed over.
    Delivered(M),
    /// Removed and lost: its receiver is down or its link is cut.
    Lost,
    /// Not taken: no such message, or the order does not let it go first. Nothing changed.
    Blocked,
}

/// The network: messages in flight in the order they were sent, cut links and crashed nodes.
///
/// Two networks are equal (and hash alike) when their order, messages in flight, cut links and
/// crashed nodes are; the counters of what happened so far ([`Network::lost`] and the like) are
/// statistics and take no part.
#[derive(Clone, Debug)]
pub struct Network<M> {
    order: Order,
    in_flight: Vec<M>,
    cut: BTreeSet<(NodeId, NodeId)>,
    down: BTreeSet<NodeId>,
    lost: u64,
    duplicated: u64,
    delivered: u64,
}

impl<M: PartialEq> PartialEq for Network<M> {
    fn eq(&self, o: &Self) -> bool {
        self.order == o.order && self.in_flight == o.in_flight && self.cut == o.cut && self.down == o.down
    }
}
impl<M: Eq> Eq for Network<M> {}
impl<M: Hash> Hash for Network<M> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.order.hash(h);
        self.in_flight.hash(h);
        self.cut.hash(h);
        self.down.hash(h);
    }
}

impl<M: Envelope + Clone + Ord> Network<M> {
    /// A node's mailbox read as a bag: the distinct messages in flight to `dst`, sorted. A read
    /// of a bag may take any one of them.
    pub fn bag_of(&self, dst: NodeId) -> Vec<M> {
        let mut v: Vec<M> = self.addressed_to(dst).cloned().collect();
        v.sort();
        v.dedup();
        v
    }

    /// Under [`Order::Any`], sorts the messages in flight: no delivery depends on their order
    /// there (a bag's read takes any message, equal copies are alike), so a search can take
    /// two networks that hold the same messages as one state. Under the other orders, nothing.
    pub fn sort_in_flight(&mut self) {
        if self.order == Order::Any {
            self.in_flight.sort();
        }
    }

    /// Takes one copy of `m` from its receiver's bag (the oldest in flight): delivered, lost
    /// (its receiver is down or its link cut), or blocked when no such message is in flight.
    pub fn take_copy(&mut self, m: &M) -> Delivery<M> {
        match self.in_flight.iter().position(|x| x == m) {
            Some(k) => self.take(k),
            None => Delivery::Blocked,
        }
    }
}

impl<M: Envelope + Clone> Network<M> {
    /// An empty network, every link up, every node up.
    pub fn new(order: Order) -> Network<M> {
        Network {
            order,
            in_flight: Vec::new(),
            cut: BTreeSet::new(),
            down: BTreeSet::new(),
            lost: 0,
            duplicated: 0,
            delivered: 0,
        }
    }

    pub fn order(&self) -> Order {
        self.order
    }

    /// Puts `m` in flight. A message on a cut link is lost at once; returns whether it is in
    /// flight.
    pub fn send(&mut self, m: M) -> bool {
        if self.is_cut(m.src(), m.dst()) {
            self.lost += 1;
            return false;
        }
        self.in_flight.push(m);
        true
    }

    /// The messages in flight, oldest first.
    pub fn in_flight(&self) -> &[M] {
        &self.in_flight
    }

    pub fn len(&self) -> usize {
        self.in_flight.len()
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// The messages in flight to `dst`, oldest first: its mailbox under
    /// [`Order::FifoPerReceiver`].
    pub fn addressed_to(&self, dst: NodeId) -> impl Iterator<Item = &M> + '_ {
        self.in_flight.iter().filter(move |m| m.dst() == dst)
    }

    /// Whether the order lets the `k`-th message in flight be delivered next.
    pub fn is_deliverable(&self, k: usize) -> bool {
        let Some(m) = self.in_flight.get(k) else { return false };
        let earlier = &self.in_flight[..k];
        match self.order {
            Order::Any => true,
            Order::FifoPerLink => !earlier.iter().any(|e| e.src() == m.src() && e.dst() == m.dst()),
            Order::FifoPerReceiver => !earlier.iter().any(|e| e.dst() == m.dst()),
        }
    }

    /// The positions of the messages that may be delivered next, in increasing order.
    pub fn deliverable(&self) -> Vec<usize> {
        (0..self.in_flight.len()).filter(|&k| self.is_deliverable(k)).collect()
    }

    /// The position of the oldest message in flight to `dst` (deliverable under every order).
    pub fn next_for(&self, dst: NodeId) -> Option<usize> {
        self.in_flight.iter().position(|m| m.dst() == dst)
    }

    /// Delivers the `k`-th message in flight: removes it and hands it over, or loses it when
    /// its receiver is down or its link is cut. Blocked (nothing changes) when there is no such
    /// message or the order holds it back.
    pub fn take(&mut self, k: usize) -> Delivery<M> {
        if !self.is_deliverable(k) {
            return Delivery::Blocked;
        }
        let m = self.in_flight.remove(k);
        if !self.is_up(m.dst()) || self.is_cut(m.src(), m.dst()) {
            self.lost += 1;
            return Delivery::Lost;
        }
        self.delivered += 1;
        Delivery::Delivered(m)
    }

    /// Loses the `k`-th message in flight. Returns whether there was one.
    pub fn drop(&mut self, k: usize) -> bool {
        if k >= self.in_flight.len() {
            return false;
        }
        self.in_flight.remove(k);
        self.lost += 1;
        true
    }

    /// Puts a copy of the `k`-th message in flight, as the newest. Returns whether there was one.
    pub fn duplicate(&mut self, k: usize) -> bool {
        let Some(m) = self.in_flight.get(k).cloned() else { return false };
        self.in_flight.push(m);
        self.duplicated += 1;
        true
    }

    /// Loses each message in flight to `dst` with probability `pct` percent, asking `rng` once
    /// per such message, oldest first (what a restarting node's dropped connections do).
    pub fn lose_addressed_to(&mut self, dst: NodeId, pct: u64, rng: &mut Rng) {
        let mut kept = Vec::with_capacity(self.in_flight.len());
        for m in std::mem::take(&mut self.in_flight) {
            if m.dst() == dst && rng.chance(pct) {
                self.lost += 1;
            } else {
                kept.push(m);
            }
        }
        self.in_flight = kept;
    }

    /// Cuts the link from `a` to `b` (one way): messages on it are lost.
    pub fn cut(&mut self, a: NodeId, b: NodeId) {
        self.cut.insert((a, b));
    }

    pub fn is_cut(&self, a: NodeId, b: NodeId) -> bool {
        self.cut.contains(&(a, b))
    }

    /// Cuts every link between `group` and the other nodes of `all`, both ways.
    pub fn partition(&mut self, group: &[NodeId], all: &[NodeId]) {
        for &a in all {
            for &b in all {
                if group.contains(&a) != group.contains(&b) {
                    self.cut.insert((a, b));
                }
            }
        }
    }

    /// Every link up again.
    pub fn heal(&mut self) {
        self.cut.clear();
    }

    /// Node `id` stops: messages delivered to it are lost until it restarts.
    pub fn crash(&mut self, id: NodeId) {
        self.down.insert(id);
    }

    /// Node `id` is up again.
    pub fn restart(&mut self, id: NodeId) {
        self.down.remove(&id);
    }

    pub fn is_up(&self, id: NodeId) -> bool {
        !self.down.contains(&id)
    }

    /// Messages lost so far (dropped, on a cut link, or to a crashed node).
    pub fn lost(&self) -> u64 {
        self.lost
    }

    /// Copies made so far by [`Network::duplicate`].
    pub fn duplicated(&self) -> u64 {
        self.duplicated
    }

    /// Messages handed over so far by [`Network::take`].
    pub fn delivered(&self) -> u64 {
        self.delivered
    }
}
