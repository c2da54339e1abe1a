//! The curp task's system: Xline's CURP protocol (Consistent Unordered Replication Protocol) as
//! steps of replicas, clients and an abstracted Raft backend on the shared simulated network.
//!
//! The files follow the original's: the quorum sizes (here, as in `crates/curp/src/lib.rs`), a
//! replica's state and handlers (`raw_curp`, `crates/curp/src/server/raw_curp/mod.rs` and the
//! conflict pools), the backend that orders and commits commands and elects leaders (`backend`,
//! Raft abstracted as the task asks), the client's fast and slow rounds (`client`,
//! `crates/curp/src/client/unary/propose_impl.rs`), and the whole cluster as a state machine
//! whose every step the traces record (`cluster`). [`workload`] runs it under seeded scenarios.

#![forbid(unsafe_code)]

pub mod backend;
pub mod client;
pub mod cluster;
pub mod raw_curp;
pub mod workload;

/// The size of a quorum: a majority of `size` replicas.
pub fn quorum(size: usize) -> usize {
    size / 2 + 1
}

/// The smallest number of a quorum's speculative pools that must hold a command for a new
/// leader to recover it.
pub fn recover_quorum(size: usize) -> usize {
    quorum(size) / 2 + 1
}

/// How many replicas must accept a command without conflict for the fast round to succeed:
/// the faults tolerated plus a recover quorum, so that any quorum a later election gathers
/// holds the command in at least a recover quorum of its pools.
pub fn super_quorum(size: usize) -> usize {
    let fault_tolerance = size - quorum(size);
    fault_tolerance + recover_quorum(size)
}

/// A command: its number. Client `c` (from 1) of `clients` proposes, in its `j`-th round (from
/// 1), the command `(j - 1) * clients + c`, which writes key `j`: the commands of one round
/// conflict with each other, those of different rounds do not.
pub type Cmd = u64;

/// The key a command writes (see [`Cmd`]).
pub fn key(cmd: Cmd, clients: u64) -> u64 {
    (cmd - 1) / clients + 1
}

/// The client that proposes a command (see [`Cmd`]).
pub fn client_of(cmd: Cmd, clients: u64) -> u64 {
    (cmd - 1) % clients + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorum_sizes() {
        // (size, quorum, recover quorum, super quorum)
        let expected = [(1, 1, 1, 1), (2, 2, 2, 2), (3, 2, 2, 3), (4, 3, 2, 3), (5, 3, 2, 4), (7, 4, 3, 6)];
        for (n, q, r, s) in expected {
            assert_eq!((quorum(n), recover_quorum(n), super_quorum(n)), (q, r, s), "size {n}");
        }
    }

    #[test]
    fn keys_and_clients() {
        assert_eq!([1, 2, 3, 4].map(|c| key(c, 2)), [1, 1, 2, 2]);
        assert_eq!([1, 2, 3, 4].map(|c| client_of(c, 2)), [1, 2, 1, 2]);
    }
}
