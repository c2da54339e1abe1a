//! The raftkvs task's system: PGo's Raft key-value store ([`raftkvs`]), Raft servers of five
//! archetypes each, a failure injector and a client, as labelled steps on the shared simulated
//! network, and [`workload`], which runs it under seeded scenarios and records the traces.

#![forbid(unsafe_code)]

pub mod raftkvs;
pub mod workload;
