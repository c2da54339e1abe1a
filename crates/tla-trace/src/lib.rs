//! Trace replay: does a TLA+ model conform to the traces of a system?
//!
//! A trace (docs/trace-format.md) is read by [`trace::parse_trace`]; a mapping
//! (docs/mapping.md) by [`mapping::Mapping::parse`] (the identity when absent). A
//! [`replay::Replayer`] checks a trace against a [`tla_check::model::Model`]:
//!
//! - **windows**: each pair of consecutive lines (pre-state, action with arguments, post-state)
//!   on its own; a window passes when a model state agreeing with the pre-state has a successor
//!   by the mapped action, with the step's arguments, agreeing with the post-state. Hidden
//!   variables are drawn from the reachable states (explored within a budget) and the states
//!   consistent with the previous window.
//! - **whole**: the set of model states consistent with the trace so far, from the Init states
//!   that agree with the init line; the trace passes if the set never empties.
//!
//! The first failure is explained ([`replay::Divergence`]): line, action, candidate states, the
//! first FALSE conjunct of the action's body with its operands' values, and the fields in which
//! the closest successor differs from the observation.
//!
//! Precision is the other direction ([`precision`]): the steps the model allows from the states
//! the code reaches, against the system's own behaviour graph ([`graph`]), built from runs of
//! the code.
//!
//! Architecture invariant: no I/O, clock or threads (the crate builds for the web); every
//! malformed input is an [`trace::InputError`] with a code and a line, never a panic.

#![forbid(unsafe_code)]

pub mod explain;
pub mod graph;
pub mod mapping;
pub mod precision;
pub mod replay;
pub mod steps;
pub mod testing;
pub mod trace;

pub use graph::{parse_graph, GraphBuilder, SystemGraph};
pub use mapping::Mapping;
pub use precision::{check_precision, Precision, PrecisionOptions};
pub use replay::{Divergence, MappingExprs, Mode, Options, Replayer, Summary, TraceReport};
pub use steps::ActionSteps;
pub use trace::{parse_trace, InputError, Trace};
