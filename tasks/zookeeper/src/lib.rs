//! The zookeeper task's system: ZooKeeper's Fast Leader Election
//! (`FastLeaderElection.java`) run by quorum peers (`QuorumPeer.java`) on the simulated network.
//!
//! The files follow the original's: the vote and the notification a peer sends (`vote`, as
//! `Vote.java` and `FastLeaderElection.Notification`/`ToSend`), the election with one function
//! per method of `FastLeaderElection` that the task covers (`fast_leader_election`: its
//! `lookForLeader` split where the Java thread blocks, `totalOrderPredicate`, `termPredicate`
//! through the vote tracker, `checkLeader`, `updateProposal`, `sendNotifications`, the
//! messenger's `WorkerReceiver` and `WorkerSender`), and the peer around it
//! (`quorum_peer`: its state, its persisted epoch and last zxid, its current vote, leaving
//! FOLLOWING or LEADING for a new election). [`cluster`] is the event loop that decides which
//! thread of which peer moves next and records each move as a step; [`workload`] runs it under
//! seeded scenarios.

#![forbid(unsafe_code)]

pub mod cluster;
pub mod fast_leader_election;
pub mod quorum_peer;
pub mod vote;
pub mod workload;

/// A server's id (`myid`), from 1.
pub type Sid = u64;

/// `QuorumPeer.ServerState` (observers are left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ServerState {
    Looking,
    Following,
    Leading,
}

impl ServerState {
    /// The name a trace gives the state.
    pub fn name(self) -> &'static str {
        match self {
            ServerState::Looking => "LOOKING",
            ServerState::Following => "FOLLOWING",
            ServerState::Leading => "LEADING",
        }
    }
}

/// `QuorumMaj.containsQuorum`: more than half of the `n` voting members.
pub fn is_quorum(n: usize, count: usize) -> bool {
    count * 2 > n
}

#[cfg(test)]
mod tests {
    use super::is_quorum;

    #[test]
    fn a_quorum_is_a_strict_majority() {
        assert!(is_quorum(3, 2));
        assert!(!is_quorum(3, 1));
        assert!(!is_quorum(4, 2));
        assert!(is_quorum(4, 3));
    }
}
