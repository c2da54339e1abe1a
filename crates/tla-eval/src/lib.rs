//! Values, fingerprints and (next) the evaluator of TLA+ expressions, matching TLC.
//!
//! - [`value`]: the value type, canonical forms and TLC's order (read its docs for the order
//!   CHOOSE relies on); [`set`]: symbolic sets, membership and TLC's enumeration order;
//!   [`fcn`]: functions, records, sequences; [`arith`]: TLC's 32-bit integer arithmetic;
//!   [`intern`]: strings and the intern order TLC sorts them by; [`fingerprint`]: stable
//!   64-bit fingerprints; [`testing`]: fixtures shared by native and wasm tests.
//!
//! Architecture invariant: nothing here does I/O, reads a clock, starts a thread or panics on
//! user input; every failure is a [`ValueError`] with a stable code (docs/diagnostics.md).

pub mod arith;
mod display;
pub mod error;
pub mod eval;
pub mod fcn;
pub mod fingerprint;
pub mod intern;
pub mod set;
pub mod testing;
pub mod value;

pub use error::{VResult, ValueError};
pub use eval::ConstEval;
pub use intern::{Interner, Str};
pub use set::{LazySet, SetPredicate};
pub use value::{ModelValue, SetVal, Value};
