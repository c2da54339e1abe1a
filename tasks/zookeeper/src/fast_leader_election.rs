//! `FastLeaderElection.java`: a peer's election. Its Java thread blocks in two places inside
//! `lookForLeader` (polling the receive queue for the next notification, and polling it again
//! for `finalizeWait` once a quorum agrees); here each return from a poll is a call:
//! [`FastLeaderElection::look_for_leader`] enters the loop, [`FastLeaderElection::worker_receiver`]
//! is the messenger's receiving thread handing a notification to the loop (which processes it at
//! once: the receive queue never holds more than the notification in hand),
//! [`FastLeaderElection::notification_timeout`] is the poll that finds nothing, and
//! [`FastLeaderElection::finalize_wait_timeout`] ends the final wait. Notifications go out through
//! `sendqueue`, which the messenger's sending thread ([`FastLeaderElection::worker_sender`])
//! hands to the connection manager.

use std::collections::BTreeMap;

use crate::quorum_peer::Myself;
use crate::vote::{Notification, Vote};
use crate::{ServerState, Sid, is_quorum};

/// The bug switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    None,
    /// `totalOrderPredicate` as ZooKeeper 3.4.3 and earlier wrote it (fixed by ZOOKEEPER-1419):
    /// its third case compares the id when the zxids are equal without requiring equal epochs,
    /// so a vote of a lower epoch beats one of a higher epoch when its zxid is the same and its
    /// server id higher. The order is no longer total: proposals can cycle, and a peer can give
    /// up its own, more recent vote for an older one.
    EpochBlindTieBreak,
}

/// What a notification made of a LOOKING peer's election.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Still looking (perhaps in the final wait now, or out of it).
    Looking,
    /// Decided from settled peers' notifications: it now follows or leads.
    Decided,
}

/// A peer's election (`FastLeaderElection`): the logical clock, the proposal, the votes of this
/// round and of settled peers, whether the final wait is on, and what waits to be sent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FastLeaderElection {
    /// `logicalclock`: the election round.
    pub logicalclock: u64,
    pub proposed_leader: Sid,
    pub proposed_zxid: u64,
    pub proposed_epoch: u64,
    /// `recvset`: the votes of the current round, by sender (a local of `lookForLeader`; kept
    /// until the next election so that a trace shows what the decision counted).
    pub recvset: BTreeMap<Sid, Vote>,
    /// `outofelection`: the votes of peers that settled (FOLLOWING or LEADING), by sender.
    pub outofelection: BTreeMap<Sid, Vote>,
    /// A quorum agrees with the proposal and the loop polls for `finalizeWait` for a better one.
    pub finalizing: bool,
    /// `sendqueue`: (recipient, notification), emptied by the sending worker.
    pub sendqueue: Vec<(Sid, Notification)>,
    pub bug: Bug,
}

impl FastLeaderElection {
    /// `starter`: no election yet (`proposedLeader = -1`, here 0).
    pub fn new(bug: Bug) -> FastLeaderElection {
        FastLeaderElection { logicalclock: 0, proposed_leader: 0, proposed_zxid: 0, proposed_epoch: 0, recvset: BTreeMap::new(), outofelection: BTreeMap::new(), finalizing: false, sendqueue: Vec::new(), bug }
    }

    /// `totalOrderPredicate`: does the vote (new_id, new_zxid, new_epoch) beat the current one?
    /// A higher epoch wins; at the same epoch a higher zxid; at the same zxid a higher id.
    pub fn total_order_predicate(&self, new_id: Sid, new_zxid: u64, new_epoch: u64, cur_id: Sid, cur_zxid: u64, cur_epoch: u64) -> bool {
        match self.bug {
            Bug::None => new_epoch > cur_epoch || (new_epoch == cur_epoch && (new_zxid > cur_zxid || (new_zxid == cur_zxid && new_id > cur_id))),
            Bug::EpochBlindTieBreak => new_epoch > cur_epoch || (new_epoch == cur_epoch && new_zxid > cur_zxid) || (new_zxid == cur_zxid && new_id > cur_id),
        }
    }

    /// `updateProposal`.
    pub fn update_proposal(&mut self, leader: Sid, zxid: u64, epoch: u64) {
        self.proposed_leader = leader;
        self.proposed_zxid = zxid;
        self.proposed_epoch = epoch;
    }

    /// `getVote` as a vote of this round (what `termPredicate` counts).
    fn proposal(&self) -> Vote {
        Vote { leader: self.proposed_leader, zxid: self.proposed_zxid, peer_epoch: self.proposed_epoch, election_epoch: self.logicalclock, state: ServerState::Looking }
    }

    /// `sendNotifications`: the proposal, as LOOKING, to every voter, this peer included (the
    /// connection manager hands a peer's message to itself straight to its receive queue).
    pub fn send_notifications(&mut self, me: &Myself) {
        for sid in 1..=me.voters {
            let n = Notification { leader: self.proposed_leader, zxid: self.proposed_zxid, peer_epoch: self.proposed_epoch, election_epoch: self.logicalclock, state: ServerState::Looking };
            self.sendqueue.push((sid, n));
        }
    }

    /// `WorkerSender`: what waits in `sendqueue`, in order, for the connection manager.
    pub fn worker_sender(&mut self) -> Vec<(Sid, Notification)> {
        std::mem::take(&mut self.sendqueue)
    }

    /// `getVoteTracker(votes, vote).hasAllQuorums()`: the senders whose vote equals `vote`
    /// (`Vote.equals`) form a quorum (the `termPredicate` of earlier releases).
    pub fn term_predicate(me: &Myself, votes: &BTreeMap<Sid, Vote>, vote: &Vote) -> bool {
        is_quorum(me.voters as usize, votes.values().filter(|v| vote.same_as(v)).count())
    }

    /// `checkLeader`: a leader other than this peer must have told it that it leads; this peer
    /// as the leader must be in the round the votes are of.
    pub fn check_leader(&self, me: &Myself, votes: &BTreeMap<Sid, Vote>, leader: Sid, election_epoch: u64) -> bool {
        if leader != me.id {
            votes.get(&leader).is_some_and(|v| v.state == ServerState::Leading)
        } else {
            self.logicalclock == election_epoch
        }
    }

    /// `lookForLeader`, up to its loop: a new round, a vote for this peer's own history, sent to
    /// every voter. The votes of earlier rounds are forgotten (they were the locals of the last
    /// call).
    pub fn look_for_leader(&mut self, me: &Myself) {
        self.recvset.clear();
        self.outofelection.clear();
        self.finalizing = false;
        self.logicalclock += 1;
        self.update_proposal(me.id, me.last_zxid, me.current_epoch);
        self.send_notifications(me);
    }

    /// The loop's poll finds nothing in `notTimeout`: the notifications go out again
    /// (`manager.haveDelivered()` holds: the connections are up).
    pub fn notification_timeout(&mut self, me: &Myself) {
        self.send_notifications(me);
    }

    /// The final wait's poll finds nothing in `finalizeWait`: the peer leads if it proposed
    /// itself and follows otherwise (`setPeerState`), and the proposal of this round becomes
    /// its current vote (`leaveInstance`).
    pub fn finalize_wait_timeout(&mut self, me: &mut Myself) {
        self.finalizing = false;
        me.state = if self.proposed_leader == me.id { ServerState::Leading } else { ServerState::Following };
        me.current_vote = self.proposal();
        me.current_vote.state = me.state;
    }

    /// `WorkerReceiver`: a notification `n` from `sid` reaches this peer. A LOOKING peer puts it
    /// on its receive queue, where the loop takes it at once ([`Self::handle_notification`]), and
    /// answers a LOOKING sender of an older round with its proposal; a settled peer answers a
    /// LOOKING sender with the vote it settled on. Returns what the loop made of it, if it ran.
    pub fn worker_receiver(&mut self, me: &mut Myself, sid: Sid, n: Notification) -> Option<Outcome> {
        if me.state == ServerState::Looking {
            let outcome = self.handle_notification(me, sid, n);
            if n.state == ServerState::Looking && n.election_epoch < self.logicalclock {
                let v = Notification { leader: self.proposed_leader, zxid: self.proposed_zxid, peer_epoch: self.proposed_epoch, election_epoch: self.logicalclock, state: me.state };
                self.sendqueue.push((sid, v));
            }
            Some(outcome)
        } else {
            if n.state == ServerState::Looking {
                let c = me.current_vote;
                self.sendqueue.push((sid, Notification { leader: c.leader, zxid: c.zxid, peer_epoch: c.peer_epoch, election_epoch: c.election_epoch, state: me.state }));
            }
            None
        }
    }

    /// The body of `lookForLeader`'s loop for a notification `n` from `sid`.
    pub fn handle_notification(&mut self, me: &mut Myself, sid: Sid, n: Notification) -> Outcome {
        if self.finalizing {
            // The final wait's poll: a better vote ends it and goes back on the queue (the loop
            // takes it next, below); any other is dropped.
            if !self.total_order_predicate(n.leader, n.zxid, n.peer_epoch, self.proposed_leader, self.proposed_zxid, self.proposed_epoch) {
                return Outcome::Looking;
            }
            self.finalizing = false;
        }
        match n.state {
            ServerState::Looking => {
                if n.election_epoch > self.logicalclock {
                    self.logicalclock = n.election_epoch;
                    self.recvset.clear();
                    if self.total_order_predicate(n.leader, n.zxid, n.peer_epoch, me.id, me.last_zxid, me.current_epoch) {
                        self.update_proposal(n.leader, n.zxid, n.peer_epoch);
                    } else {
                        self.update_proposal(me.id, me.last_zxid, me.current_epoch);
                    }
                    self.send_notifications(me);
                } else if n.election_epoch < self.logicalclock {
                    return Outcome::Looking;
                } else if self.total_order_predicate(n.leader, n.zxid, n.peer_epoch, self.proposed_leader, self.proposed_zxid, self.proposed_epoch) {
                    self.update_proposal(n.leader, n.zxid, n.peer_epoch);
                    self.send_notifications(me);
                }
                self.recvset.insert(sid, n.vote());
                if Self::term_predicate(me, &self.recvset, &self.proposal()) {
                    self.finalizing = true;
                }
                Outcome::Looking
            }
            ServerState::Following | ServerState::Leading => {
                let v = n.vote();
                if n.election_epoch == self.logicalclock {
                    self.recvset.insert(sid, v);
                    if Self::term_predicate(me, &self.recvset, &v) && self.check_leader(me, &self.recvset, n.leader, n.election_epoch) {
                        self.decide(me, n);
                        return Outcome::Decided;
                    }
                }
                self.outofelection.insert(sid, v);
                if Self::term_predicate(me, &self.outofelection, &v) && self.check_leader(me, &self.outofelection, n.leader, n.election_epoch) {
                    self.logicalclock = n.election_epoch;
                    self.decide(me, n);
                    return Outcome::Decided;
                }
                Outcome::Looking
            }
        }
    }

    /// `setPeerState(n.leader)` and `leaveInstance(endVote)`: the settled peers' leader is the
    /// current vote.
    fn decide(&mut self, me: &mut Myself, n: Notification) {
        self.finalizing = false;
        me.state = if n.leader == me.id { ServerState::Leading } else { ServerState::Following };
        me.current_vote = Vote { leader: n.leader, zxid: n.zxid, peer_epoch: n.peer_epoch, election_epoch: n.election_epoch, state: me.state };
    }
}
