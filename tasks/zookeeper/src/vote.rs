//! A vote (`Vote.java`) and the notification that carries one between peers
//! (`FastLeaderElection.Notification`, sent as a `ToSend`).

use serde_json::{Value, json};

use crate::{ServerState, Sid};

/// A notification as it travels: the sender's proposal (leader, its last zxid, its epoch), the
/// sender's election round (`electionEpoch`, its logical clock) and the sender's state. The
/// sender and the receiver are the network message's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Notification {
    pub leader: Sid,
    pub zxid: u64,
    /// `peerEpoch`: the proposed leader's epoch.
    pub peer_epoch: u64,
    /// `electionEpoch`: the round of the election the sender is in (or decided in).
    pub election_epoch: u64,
    pub state: ServerState,
}

impl Notification {
    /// The notification as a trace shows it.
    pub fn to_json(&self) -> Value {
        json!({ "leader": self.leader, "zxid": self.zxid, "epoch": self.peer_epoch, "round": self.election_epoch, "state": self.state.name() })
    }

    /// The vote it carries, as `recvset` and `outofelection` keep it.
    pub fn vote(&self) -> Vote {
        Vote { leader: self.leader, zxid: self.zxid, peer_epoch: self.peer_epoch, election_epoch: self.election_epoch, state: self.state }
    }
}

/// A vote as an election keeps it (`Vote`: id, zxid, electionEpoch, peerEpoch, state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vote {
    pub leader: Sid,
    pub zxid: u64,
    pub peer_epoch: u64,
    pub election_epoch: u64,
    pub state: ServerState,
}

impl Vote {
    /// `Vote.equals`: two votes of which one is LOOKING agree on all four numbers; two votes of
    /// servers that settled (FOLLOWING or LEADING, both of the current message version) agree on
    /// the leader and its epoch only, since the settled servers may have seen different zxids and
    /// rounds for the same leader.
    pub fn same_as(&self, o: &Vote) -> bool {
        if self.state == ServerState::Looking || o.state == ServerState::Looking {
            self.leader == o.leader && self.zxid == o.zxid && self.election_epoch == o.election_epoch && self.peer_epoch == o.peer_epoch
        } else {
            self.leader == o.leader && self.peer_epoch == o.peer_epoch
        }
    }

    /// The vote as a trace shows it (`recvset`, `outofelection`).
    pub fn to_json(&self) -> Value {
        json!({ "leader": self.leader, "zxid": self.zxid, "epoch": self.peer_epoch, "round": self.election_epoch, "state": self.state.name() })
    }
}
