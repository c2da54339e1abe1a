//! The redisraft task's system: the Raft library under RedisRaft (`deps/raft/src/raft_server.c`)
//! as a cluster of servers whose every call into the library is one step of the trace.
//!
//! The files follow the original's: a log that starts after the last snapshot (`raft_log`), a
//! server's view of another node (`raft_node`), and the server with one function per function
//! of `raft_server.c` that the task covers (`raft_server`). [`cluster`] is the event loop around
//! the library: it decides which call comes next (a timer, a message from the network, a client
//! request, a flush) and records each call as a step. [`workload`] runs it under seeded
//! scenarios.

#![forbid(unsafe_code)]

pub mod cluster;
pub mod raft_log;
pub mod raft_node;
pub mod raft_server;
pub mod workload;

/// A server's id, from 1 (`raft_node_id_t`; 0 is `RAFT_NODE_ID_NONE`).
pub type NodeId = u64;

/// No node (`RAFT_NODE_ID_NONE`).
pub const NONE: NodeId = 0;

/// What a log entry carries (`raft_logtype_e`; non-voting members are left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntryKind {
    /// The entry a new leader appends (`RAFT_LOGTYPE_NO_OP`).
    NoOp,
    /// A client's write of a value to the one register the state machine holds
    /// (`RAFT_LOGTYPE_NORMAL`).
    Write(u64),
    /// Adds a voting node (`RAFT_LOGTYPE_ADD_NODE`).
    AddNode(NodeId),
    /// Removes a node (`RAFT_LOGTYPE_REMOVE_NODE`).
    RemoveNode(NodeId),
}

impl EntryKind {
    /// The name a trace gives the kind.
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::NoOp => "noop",
            EntryKind::Write(_) => "write",
            EntryKind::AddNode(_) => "add",
            EntryKind::RemoveNode(_) => "remove",
        }
    }

    /// The value written, or the node added or removed (0 for a no-op).
    pub fn value(self) -> u64 {
        match self {
            EntryKind::NoOp => 0,
            EntryKind::Write(v) | EntryKind::AddNode(v) | EntryKind::RemoveNode(v) => v,
        }
    }

    /// `raft_entry_is_voting_cfg_change` (and `raft_entry_is_cfg_change`: with no non-voting
    /// members they are the same).
    pub fn is_cfg_change(self) -> bool {
        matches!(self, EntryKind::AddNode(_) | EntryKind::RemoveNode(_))
    }
}

/// A log entry (`raft_entry_t`): its term and what it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    pub term: u64,
    pub kind: EntryKind,
}

/// `raft_votes_is_majority`.
pub fn votes_is_majority(num_nodes: usize, nvotes: usize) -> bool {
    num_nodes >= nvotes && num_nodes / 2 < nvotes
}

#[cfg(test)]
mod tests {
    use super::votes_is_majority;

    #[test]
    fn majority_as_raft_server_c_counts_it() {
        assert!(votes_is_majority(3, 2));
        assert!(!votes_is_majority(3, 1));
        assert!(votes_is_majority(2, 2));
        assert!(!votes_is_majority(2, 1));
        assert!(votes_is_majority(1, 1));
        // More votes than voting nodes is not a majority (a stale count).
        assert!(!votes_is_majority(2, 3));
    }
}
