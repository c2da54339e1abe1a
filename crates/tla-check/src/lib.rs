//! Explicit-state model checking: breadth-first exploration over fingerprints with parent links,
//! invariants, deadlock, CONSTRAINT/ACTION_CONSTRAINT, budgets, slices and per-action coverage.
//!
//! The explorer is generic over [`Spec`]: the TLA+ evaluator implements it for a model and its
//! configuration; tests implement it for small systems written in Rust.
//!
//! Architecture invariant: nothing here does I/O, reads a clock or starts a thread. A run
//! advances in slices ([`Explorer::run`] with a number of states to expand), so a caller can
//! report progress and cancel between slices. The one exception is [`parallel`], built only
//! with the `parallel` feature (native front ends), which explores with several threads.

#![forbid(unsafe_code)]

mod explore;
pub mod fpset;
pub mod liveness;
pub mod load;
pub mod model;
#[cfg(feature = "parallel")]
pub mod parallel;
pub mod run;
pub mod simulate;

pub use explore::{
    ActionCoverage, ActionId, Budget, ExploredGraph, Explorer, GraphSink, NoGraph, Options, Outcome, Spec, Stats, Status, TraceStep,
};
