//! The dqueue task's system: PGo's distributed queue ([`dqueue`]), one producer and several
//! consumers as archetypes of labelled steps on the shared simulated network, and
//! [`workload`], which runs it under seeded schedules and records the traces.

#![forbid(unsafe_code)]

pub mod dqueue;
pub mod workload;
