//! Evaluation errors: data with a stable code, turned into a [`Diagnostic`] once a span is known.
//!
//! Values know nothing about source positions; the evaluator attaches the span of the
//! expression being evaluated (see [`ValueError::into_diagnostic`]).

use tla_syntax::{Diagnostic, Span};

/// Stable codes of evaluation errors (listed in docs/diagnostics.md).
pub mod codes {
    /// An integer result outside TLC's range -2^31 .. 2^31-1.
    pub const OVERFLOW: &str = "E0401";
    /// Division or modulus by zero, `%` by a negative number, `0^0`, a negative exponent.
    pub const ARITH: &str = "E0402";
    /// Two values TLC cannot compare (an integer and a string, a set and a function, ...).
    pub const INCOMPARABLE: &str = "E0403";
    /// A value of the wrong kind for an operation (`1 + "a"`, `DOMAIN 3`, `x \in 5`).
    pub const TYPE: &str = "E0404";
    /// Applying a function to an argument outside its domain, or a missing record field.
    pub const NOT_IN_DOMAIN: &str = "E0405";
    /// Enumerating (or fingerprinting, or comparing) a set that is infinite or not enumerable.
    pub const NOT_ENUMERABLE: &str = "E0406";
    /// A set or cardinality too large to build.
    pub const TOO_LARGE: &str = "E0407";
    /// The same value twice in a function's domain.
    pub const DUPLICATE_DOMAIN: &str = "E0408";
    /// An error raised by a set predicate (`{x \in S : P}`) the evaluator supplied.
    pub const PREDICATE: &str = "E0409";
    /// An expression that has no value at constant level (primes, ENABLED, temporal operators).
    pub const NOT_CONSTANT: &str = "E0410";
    /// A construct the evaluator does not handle yet (named instances, unbounded quantifiers).
    pub const UNSUPPORTED: &str = "E0411";
    /// CHOOSE found no element satisfying its predicate.
    pub const CHOOSE_NONE: &str = "E0412";
    /// No CASE arm applies and there is no OTHER.
    pub const CASE_NONE: &str = "E0413";
    /// `Assert(FALSE, msg)` from the TLC module.
    pub const ASSERT: &str = "E0414";
    /// A name with no definition at evaluation time (normally reported earlier by the checker).
    pub const UNKNOWN: &str = "E0415";
    /// Recursion deeper than the evaluator's limit.
    pub const TOO_DEEP: &str = "E0416";
    /// An operator applied to the wrong number of arguments.
    pub const ARITY: &str = "E0417";
    /// A variable read where it has no value: `x'` before an action assigns it, `x` in Init
    /// before Init assigns it, or any variable at constant level.
    pub const UNASSIGNED: &str = "E0418";
    /// An action (or Init) left a variable without a value: the successor is not completely
    /// specified.
    pub const INCOMPLETE: &str = "E0419";
}

/// An error raised while computing with values. Boxed, so that `VResult<Value>` stays as small
/// as a `Value` (results are returned at every node of the evaluator); its fields are read
/// through `Deref` (`e.code`, `e.message`, `e.span`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError(Box<ValueErrorData>);

/// What a [`ValueError`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueErrorData {
    pub code: &'static str,
    pub message: String,
    /// Where the error happened, when the evaluator knows it.
    pub span: Option<Span>,
}

impl std::ops::Deref for ValueError {
    type Target = ValueErrorData;
    fn deref(&self) -> &ValueErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for ValueError {
    fn deref_mut(&mut self) -> &mut ValueErrorData {
        &mut self.0
    }
}

impl ValueError {
    pub fn new(code: &'static str, message: impl Into<String>) -> ValueError {
        ValueError(Box::new(ValueErrorData { code, message: message.into(), span: None }))
    }
    /// Attach a span unless one is already there (the innermost span wins).
    pub fn at(mut self, span: Span) -> ValueError {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
    pub fn into_diagnostic(self, fallback: Span) -> Diagnostic {
        let ValueErrorData { code, message, span } = *self.0;
        let span = span.unwrap_or(fallback);
        let hint = match code {
            codes::OVERFLOW => Some("TLC's integers are 32-bit: keep values between -2147483648 and 2147483647"),
            codes::INCOMPARABLE => {
                Some("a set may only mix values TLC can compare; use model values for symbolic constants")
            }
            codes::NOT_ENUMERABLE => Some("bound the quantifier or CHOOSE with a finite set"),
            _ => None,
        };
        let d = Diagnostic::error(code, span, message);
        match hint {
            Some(h) => d.with_hint(h),
            None => d,
        }
    }
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

pub type VResult<T> = Result<T, ValueError>;
