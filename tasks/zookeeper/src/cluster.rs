//! The ensemble as one state machine: peers `1..=servers` and the notifications in flight on the
//! shared simulated network. Each step is one move of one peer's thread: the process starts or
//! crashes, its receiving worker takes a notification, its election loop's poll times out, or
//! its run loop leaves FOLLOWING or LEADING. The trace records each step with the observed state
//! after it ([`Cluster::observe`]).
//!
//! The connection manager (`QuorumCnxManager`) keeps one connection per pair of peers (a peer's
//! notifications to itself go straight to its own queue) and a send queue of one message per
//! peer (`SEND_CAPACITY`): a notification not yet taken is replaced by a newer one to the same
//! peer. A notification to a peer that is down is lost, and a crash closes the peer's
//! connections: what was in flight to or from it is lost. The poll of a peer's election loop
//! times out only when nothing is in flight to it (`finalizeWait` and the notification timeout
//! are longer than a message's delay). The runs are bounded: peers crash `MaxCrashes` times in
//! all, and a peer leaves FOLLOWING or LEADING only while its round is below `MaxRound`.

use std::hash::{Hash, Hasher};

use serde_json::{Map, Value, json};
use simnet::{Delivery, Message, Network, Order};

use crate::fast_leader_election::{Bug, Outcome};
use crate::quorum_peer::QuorumPeer;
use crate::vote::Notification;
use crate::{ServerState, Sid, is_quorum};

/// The constants of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constants {
    /// `NumServers`: peers 1..NumServers, all voting members.
    pub servers: u64,
    /// `MaxRound`: a peer leaves FOLLOWING or LEADING only while its round is below it.
    pub max_round: u64,
    /// `MaxCrashes`: the crashes of a run, all peers together.
    pub max_crashes: u64,
}

/// The epoch of the history peer `i` holds: peer 1 was last in epoch 2, the others in epoch 1.
pub fn initial_epoch(i: Sid) -> u64 {
    if i == 1 { 2 } else { 1 }
}

/// The last zxid peer `i` logged (its counter within its epoch): peer 2 holds 2, the others 1.
/// So peer 1 has the most recent history (the highest epoch), then peer 2 (the highest zxid of
/// epoch 1), then peer 3.
pub fn initial_zxid(i: Sid) -> u64 {
    if i == 2 { 2 } else { 1 }
}

pub type Msg = Message<Notification>;

/// A step: a move of one thread of peer `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The process starts (or restarts): a new election.
    Start { i: Sid },
    /// The process crashes.
    Crash { i: Sid },
    /// `i`'s receiving worker takes the notification on the connection from `j`.
    Receive { i: Sid, j: Sid },
    /// `i`'s election loop polls and nothing comes: notifications again, or the end of the final
    /// wait.
    Timeout { i: Sid },
    /// `i` stops following (its leader does not lead) and looks again.
    StopFollowing { i: Sid },
    /// `i` stops leading (no quorum follows it) and looks again.
    StopLeading { i: Sid },
}

impl Step {
    pub fn server(&self) -> Sid {
        match *self {
            Step::Start { i } | Step::Crash { i } | Step::Receive { i, .. } | Step::Timeout { i } | Step::StopFollowing { i } | Step::StopLeading { i } => i,
        }
    }

    /// The arguments a trace records (the model's action parameters).
    pub fn args(&self) -> Map<String, Value> {
        let v = match *self {
            Step::Receive { i, j } => json!({ "i": i, "j": j }),
            _ => json!({ "i": self.server() }),
        };
        v.as_object().cloned().unwrap_or_default()
    }
}

#[derive(Clone, Debug)]
pub struct Cluster {
    pub k: Constants,
    /// Peer `i` at index `i - 1`.
    pub peers: Vec<QuorumPeer>,
    pub net: Network<Msg>,
    /// Crashes so far.
    pub crashes: u64,
}

impl Cluster {
    /// The ensemble before it boots: every peer down, nothing in flight.
    pub fn new(k: Constants, bug: Bug) -> Cluster {
        let peers = (1..=k.servers).map(|i| QuorumPeer::new(i, k.servers, initial_epoch(i), initial_zxid(i), bug)).collect();
        Cluster { k, peers, net: Network::new(Order::FifoPerLink), crashes: 0 }
    }

    pub fn peer(&self, i: Sid) -> &QuorumPeer {
        &self.peers[i as usize - 1]
    }

    fn peer_mut(&mut self, i: Sid) -> &mut QuorumPeer {
        &mut self.peers[i as usize - 1]
    }

    fn ids(&self) -> std::ops::RangeInclusive<Sid> {
        1..=self.k.servers
    }

    /// The notifications on the connection from `j` to `i`, oldest first (at most one).
    pub fn link(&self, j: Sid, i: Sid) -> Vec<&Notification> {
        self.net.in_flight().iter().filter(|m| m.from == j && m.to == i).map(|m| &m.body).collect()
    }

    fn nothing_for(&self, i: Sid) -> bool {
        self.net.in_flight().iter().all(|m| m.to != i)
    }

    /// Whether leader `i` has a quorum: itself and the peers up that follow it.
    pub fn leader_has_quorum(&self, i: Sid) -> bool {
        let followers = self.peers.iter().filter(|p| p.up && p.state() == ServerState::Following && p.me.current_vote.leader == i).count();
        is_quorum(self.k.servers as usize, followers + 1)
    }

    /// Whether the leader follower `i` follows leads.
    pub fn leader_leads(&self, i: Sid) -> bool {
        let l = self.peer(i).me.current_vote.leader;
        let p = self.peer(l);
        p.up && p.state() == ServerState::Leading
    }

    /// Every step enabled now, in a fixed order.
    pub fn enabled(&self) -> Vec<Step> {
        let mut out = vec![];
        for i in self.ids() {
            let p = self.peer(i);
            if !p.up {
                out.push(Step::Start { i });
                continue;
            }
            if self.crashes < self.k.max_crashes {
                out.push(Step::Crash { i });
            }
            for j in self.ids() {
                if !self.link(j, i).is_empty() {
                    out.push(Step::Receive { i, j });
                }
            }
            if p.state() == ServerState::Looking && self.nothing_for(i) {
                out.push(Step::Timeout { i });
            }
            if p.election.logicalclock < self.k.max_round {
                if p.state() == ServerState::Following && !self.leader_leads(i) {
                    out.push(Step::StopFollowing { i });
                }
                if p.state() == ServerState::Leading && !self.leader_has_quorum(i) {
                    out.push(Step::StopLeading { i });
                }
            }
        }
        out
    }

    /// Takes `step`, one of those [`Cluster::enabled`] listed, and returns the action a trace
    /// records for it.
    pub fn apply(&mut self, step: &Step) -> &'static str {
        let i = step.server();
        let action = match *step {
            Step::Start { .. } => {
                self.peer_mut(i).start();
                "Start"
            }
            Step::Crash { .. } => {
                self.crashes += 1;
                self.peer_mut(i).crash();
                self.close_connections(i);
                "Crash"
            }
            Step::Receive { j, .. } => self.receive(i, j),
            Step::Timeout { .. } => {
                let finalizing = self.peer(i).election.finalizing;
                self.peer_mut(i).poll_timeout();
                if finalizing { "FinalizeWait" } else { "NotificationTimeout" }
            }
            Step::StopFollowing { .. } => {
                self.peer_mut(i).stop_and_look();
                "StopFollowing"
            }
            Step::StopLeading { .. } => {
                self.peer_mut(i).stop_and_look();
                "StopLeading"
            }
        };
        self.worker_sender(i);
        action
    }

    /// Peer `i`'s sending worker hands its queued notifications to the connection manager
    /// (`QuorumCnxManager.toSend`): to a peer that is down, lost; otherwise on the connection,
    /// replacing a notification to the same peer not yet taken.
    fn worker_sender(&mut self, i: Sid) {
        for (to, n) in self.peer_mut(i).election.worker_sender() {
            if !self.peer(to).up {
                continue;
            }
            if let Some(k) = self.net.in_flight().iter().position(|m| m.from == i && m.to == to) {
                self.net.drop(k);
            }
            self.net.send(Msg { from: i, to, body: n });
        }
    }

    /// A crash closes the peer's connections: what was in flight to or from it is lost.
    fn close_connections(&mut self, i: Sid) {
        while let Some(k) = self.net.in_flight().iter().position(|m| m.from == i || m.to == i) {
            self.net.drop(k);
        }
    }

    /// Peer `i` takes the notification from `j`.
    fn receive(&mut self, i: Sid, j: Sid) -> &'static str {
        let Some(k) = self.net.in_flight().iter().position(|m| m.from == j && m.to == i) else { return "" };
        let Delivery::Delivered(m) = self.net.take(k) else { return "" };
        match self.peer_mut(i).receive(j, m.body) {
            Some(Outcome::Looking) => "ReceiveNotification",
            Some(Outcome::Decided) => "DecideBySettled",
            None => "SettledReceive",
        }
    }

    /// The observed state, as a trace's `state`.
    pub fn observe(&self) -> Map<String, Value> {
        let ids: Vec<Sid> = self.ids().collect();
        let per = |f: &dyn Fn(&QuorumPeer) -> Value| Value::Object(self.peers.iter().map(|p| (p.me.id.to_string(), f(p))).collect());
        let votes = |m: &std::collections::BTreeMap<Sid, crate::vote::Vote>| Value::Object(m.iter().map(|(s, v)| (s.to_string(), v.to_json())).collect());
        let mut m = Map::new();
        m.insert("state".into(), per(&|p| p.state().name().into()));
        m.insert("up".into(), per(&|p| p.up.into()));
        m.insert("currentEpoch".into(), per(&|p| p.me.current_epoch.into()));
        m.insert("lastZxid".into(), per(&|p| p.me.last_zxid.into()));
        m.insert("logicalclock".into(), per(&|p| p.election.logicalclock.into()));
        m.insert(
            "vote".into(),
            per(&|p| {
                let e = &p.election;
                if p.state() == ServerState::Looking {
                    json!({ "leader": e.proposed_leader, "zxid": e.proposed_zxid, "epoch": e.proposed_epoch })
                } else {
                    let c = p.me.current_vote;
                    json!({ "leader": c.leader, "zxid": c.zxid, "epoch": c.peer_epoch })
                }
            }),
        );
        m.insert("recvset".into(), per(&|p| votes(&p.election.recvset)));
        m.insert("outofelection".into(), per(&|p| votes(&p.election.outofelection)));
        m.insert("finalizing".into(), per(&|p| p.election.finalizing.into()));
        m.insert("messages".into(), Value::Object(ids.iter().map(|&from| (from.to_string(), Value::Object(ids.iter().map(|&to| (to.to_string(), Value::Array(self.link(from, to).into_iter().map(|n| n.to_json()).collect()))).collect()))).collect()));
        m.insert("crashes".into(), self.crashes.into());
        m
    }

    /// The notifications in flight, per connection: the order across connections is no part of
    /// the state.
    fn links(&self) -> Vec<(Sid, Sid, Vec<&Notification>)> {
        let mut v = vec![];
        for j in self.ids() {
            for i in self.ids() {
                let l = self.link(j, i);
                if !l.is_empty() {
                    v.push((j, i, l));
                }
            }
        }
        v
    }
}

impl PartialEq for Cluster {
    fn eq(&self, o: &Self) -> bool {
        self.k == o.k && self.peers == o.peers && self.crashes == o.crashes && self.links() == o.links()
    }
}
impl Eq for Cluster {}
impl Hash for Cluster {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.k.hash(h);
        self.peers.hash(h);
        self.crashes.hash(h);
        self.links().hash(h);
    }
}

impl task_probe::Machine for Cluster {
    fn observe(&self) -> Map<String, Value> {
        Cluster::observe(self)
    }

    fn successors(&self) -> Vec<(String, Map<String, Value>, Self)> {
        task_probe::successors_by(self, self.enabled(), |next, s| (next.apply(s).to_string(), s.args()))
    }
}
