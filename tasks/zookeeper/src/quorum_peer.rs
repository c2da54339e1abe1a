//! `QuorumPeer.java`, as far as the election needs it: the peer's id, its state, its persisted
//! epoch and last logged zxid (the history its own vote stands for), its current vote, and its
//! run loop's moves between states: an election when it starts or stops following or leading.
//! Leader activation after the election (Zab's discovery and synchronisation) is left out:
//! a follower stays with its leader while that leader leads, a leader while a quorum follows it.

use crate::fast_leader_election::{Bug, FastLeaderElection, Outcome};
use crate::vote::{Notification, Vote};
use crate::{ServerState, Sid};

/// What the election reads and writes of its peer (`FastLeaderElection.self`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Myself {
    pub id: Sid,
    /// The voting members are 1..=voters.
    pub voters: u64,
    pub state: ServerState,
    /// `getCurrentEpoch()`: the epoch of the history this peer holds (persisted).
    pub current_epoch: u64,
    /// `getLastLoggedZxid()` (persisted).
    pub last_zxid: u64,
    /// `getCurrentVote()`: the vote the last election ended with (leader 0 before any).
    pub current_vote: Vote,
}

/// A peer: the process (up or down) with its election.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QuorumPeer {
    pub me: Myself,
    pub election: FastLeaderElection,
    pub up: bool,
}

/// No vote yet.
pub const NO_VOTE: Vote = Vote { leader: 0, zxid: 0, peer_epoch: 0, election_epoch: 0, state: ServerState::Looking };

impl QuorumPeer {
    /// A peer that has not started, with the history it holds on disk.
    pub fn new(id: Sid, voters: u64, current_epoch: u64, last_zxid: u64, bug: Bug) -> QuorumPeer {
        QuorumPeer { me: Myself { id, voters, state: ServerState::Looking, current_epoch, last_zxid, current_vote: NO_VOTE }, election: FastLeaderElection::new(bug), up: false }
    }

    pub fn state(&self) -> ServerState {
        self.me.state
    }

    /// `QuorumPeer.start` (a start or a restart): a new process whose election object is new
    /// (logical clock 0), LOOKING, and the run loop's first election.
    pub fn start(&mut self) {
        self.up = true;
        self.me.state = ServerState::Looking;
        self.me.current_vote = NO_VOTE;
        self.election = FastLeaderElection::new(self.election.bug);
        self.election.look_for_leader(&self.me);
    }

    /// The process stops: everything but the persisted history is gone.
    pub fn crash(&mut self) {
        let bug = self.election.bug;
        *self = QuorumPeer::new(self.me.id, self.me.voters, self.me.current_epoch, self.me.last_zxid, bug);
    }

    /// The run loop after `followLeader` or `lead` returns (the leader went away, or the leader
    /// lost its quorum): LOOKING again and a new election in the next round.
    pub fn stop_and_look(&mut self) {
        self.me.state = ServerState::Looking;
        self.election.look_for_leader(&self.me);
    }

    /// A notification from `sid` reaches the messenger's receiving thread.
    pub fn receive(&mut self, sid: Sid, n: Notification) -> Option<Outcome> {
        self.election.worker_receiver(&mut self.me, sid, n)
    }

    /// The election loop's poll times out.
    pub fn poll_timeout(&mut self) {
        if self.election.finalizing {
            self.election.finalize_wait_timeout(&mut self.me);
        } else {
            self.election.notification_timeout(&self.me);
        }
    }
}
