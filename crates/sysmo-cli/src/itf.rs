//! Counterexamples as ITF JSON: the writer lives in `sysmo_grade::itf` (the grader's reports
//! and `sysmo check` share it).

pub use sysmo_grade::itf::{trace, ItfState};
