//! A server's view of one node of the cluster (`raft_node.c`): what the leader tracks of it and
//! the flags that say whether it votes, is being removed, voted for this server.

use crate::NodeId;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub id: NodeId,
    /// The next entry to send it.
    pub next_idx: u64,
    /// The last entry it is known to hold.
    pub match_idx: u64,
    /// The message id after the last one sent to it.
    pub next_msgid: u64,
    /// The highest message id it answered.
    pub match_msgid: u64,
    /// `RAFT_NODE_VOTING`.
    pub voting: bool,
    /// Not `RAFT_NODE_INACTIVE`: a node being removed is inactive and gets no more messages.
    pub active: bool,
    /// `RAFT_NODE_VOTED_FOR_ME`.
    pub voted_for_me: bool,
}

impl Node {
    /// `raft_node_new`.
    pub fn new(id: NodeId, voting: bool) -> Node {
        Node { id, next_idx: 1, match_idx: 0, next_msgid: 0, match_msgid: 0, voting, active: true, voted_for_me: false }
    }

    /// `raft_node_set_next_idx`: log indexes begin at 1.
    pub fn set_next_idx(&mut self, idx: u64) {
        self.next_idx = idx.max(1);
    }

    /// The node's membership as a trace shows it.
    pub fn status(&self) -> &'static str {
        status(self.voting, self.active)
    }
}

/// A membership as a trace shows it, from the voting and active flags.
pub fn status(voting: bool, active: bool) -> &'static str {
    match (voting, active) {
        (true, true) => "voting",
        (true, false) => "removing",
        (false, true) => "nonvoting",
        (false, false) => "nonvoting-removing",
    }
}
