//! The etcd Raft task's system: one Raft node as a pure state machine ([`raft`]), modelled on
//! etcd raft v3.5's `raft.go`, and a deterministic simulated cluster of three nodes around it
//! ([`cluster`]). [`workload`] runs the cluster through its scenarios and records the traces;
//! its `graph` is the cluster as the state machine the system graph is searched on.
//! [`node`] is the same cluster as a `simnet::Sim`, a state machine whose every enabled step can
//! be listed and taken.

#![forbid(unsafe_code)]

pub mod cluster;
pub mod node;
pub mod raft;
pub mod workload;
