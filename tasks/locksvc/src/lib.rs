//! The locksvc task's system: PGo's lock service ([`locksvc`]), one server and several clients
//! as archetypes of labelled steps on the shared simulated network, and [`workload`], which
//! runs it under seeded schedules and records the traces.

#![forbid(unsafe_code)]

pub mod locksvc;
pub mod workload;
