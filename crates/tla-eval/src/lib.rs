//! Values, fingerprints and the evaluator of TLA+ expressions, matching TLC.
//!
//! # Code map
//! - [`value`]: the value type, canonical forms and TLC's order (read its docs for the order
//!   CHOOSE relies on); [`set`]: symbolic sets, membership without enumeration, and TLC's
//!   enumeration order (what `\E` and `x' \in S` fan out over); [`fcn`]: functions, records,
//!   sequences; [`host`]: the files and processes a front end may give the I/O operators
//!   (the engine does none itself); [`arith`]: TLC's 32-bit integer arithmetic; [`intern`]: strings and the intern
//!   order TLC sorts them by, and [`stdnames`] the standard modules' part of that order;
//!   [`fingerprint`]: stable 64-bit fingerprints; [`shared`]: the reference-counted parts of
//!   values, with counts that are plain when one thread touches values; [`eval`]: the
//!   constant-level evaluator over the AST; [`testing`]: fixtures shared by native and wasm tests.
//!
//! Architecture invariant: nothing here does I/O, reads a clock, starts a thread or panics on
//! user input; every failure is a [`ValueError`] with a stable code (docs/diagnostics.md) and,
//! once the evaluator has seen it, the span of the innermost expression that failed.
//!
//! Architecture invariant: a value stored in a state is canonical — equal values have equal
//! bytes and equal fingerprints, on every target (see [`value`] and [`fingerprint`]).
//!
//! # How expressions are evaluated (design)
//!
//! [`eval::ConstEval`] interprets the AST directly. What a name denotes comes from the analysis
//! ([`tla_sema::Names`]): a local is looked up in a persistent environment keyed by its binder
//! (an address, not a text); a module-level name among the variables, the modules' definitions
//! and the standard operators. It is the reference semantics, used for ASSUME, `.cfg` constants and tests, and wherever the faster
//! paths below do not reach. It runs with three memos that never change an answer (each
//! keyed by the address of an AST node or definition; scoping is lexical, so a node means the
//! same thing at every evaluation outside instances, and inside them at every evaluation under
//! the same instances entered):
//! - constant subexpressions (`0..N-1`, `[P -> SUBSET S]`, string literals, calls of constant
//!   operators on constant arguments) are evaluated once (`eval/konst.rs`);
//! - a name at a node is resolved once: to a local's binder (at any depth), or outside
//!   instances to a state variable, a constant, a definition, a function definition or a
//!   standard operator, and the usual comparison and arithmetic operators dispatch without
//!   matching their names. Inside instances a module-level name is resolved once per node
//!   and context (the instance sites entered): to the substitution that gives it (which frame,
//!   which `WITH`), a definition of the innermost module or of one further out, or a
//!   variable (`eval/instance.rs`);
//! - a zero-argument LET definition keeps its value for the life of its environment when
//!   computing it read nothing of the next state (TLC's LazyValue).
//!
//! The first two are looked up at almost every node, so their latest answers are also kept in
//! small direct-mapped caches keyed by node address (`ptrcache.rs`): a hit costs a multiply and
//! a compare instead of a hash-table probe, and a miss falls back to the memo.
//!
//! Expressions that read only the current state (invariants, constraints, guards, the right
//! sides of `x' = e`) are also compiled once, outside instances, into a tree whose names are
//! resolved (`eval/compile.rs`): bound names become slots of a value stack, variables their
//! index in the state, constants and constant subexpressions values, calls of definitions
//! with value parameters calls of their compiled bodies. What it does not compile it leaves
//! to the interpreter, node by node; when a compiled expression fails, the interpreter
//! evaluates it again and its answer (and error) stands. The actions of Next are compiled too,
//! into plans (`eval/plan.rs`): the walk the interpreter (`eval/action.rs`) makes at every
//! state is made once per action, names bound to slots, guards and assignments compiled; what
//! a plan does not cover stays with the interpreter, node by node. tla-check's `compiled` test
//! explores every model of the project and of the corpus both ways and compares the outcomes.
//!
//! Names are read by their text in these places only, none of them repeated per evaluation
//! of a node: the first evaluation of a node outside instances (`resolve_name` classifies a
//! module-level name), the first evaluation of a node in a context inside instances
//! (`instance::meaning_in`), the checks made when code is compiled (`compile`, `plan`,
//! `konst`), a parameter's level when the expression is a copy made after the analysis
//! (`level_in`), and nodes the analysis never saw (subexpression-name copies, evaluators made
//! without an analysis in unit tests), which are read by their text each time.
//! `TLCEvalDefinition` looks up the name it is given at run time.
//!
//! What is still to come is the lowering of the whole program onto an IR in which tla-sema
//! has resolved every name (today the evaluator reads the AST with the analysis's side tables,
//! and classifies a module-level name itself, once, before it caches the answer), with the
//! same semantics:
//!
//! 1. **Lowering.** After tla-sema has resolved names, each definition reachable from the
//!    `.cfg` (Init, Next, invariants, constraints, properties) is lowered into a compact IR: a
//!    tree of nodes in one arena (`Vec<Node>` with `u32` child indices), every name replaced by a
//!    slot — `Var(i)` / `Primed(i)` for state variables, `Const(i)` for constants (folded to
//!    values when the `.cfg` gives them), `Local(k)` for bound variables and parameters (a
//!    de Bruijn-style index into a frame), `Def(d)` for a call to a user definition, `Std(op)`
//!    for a standard operator. Zero-argument constant-level definitions are evaluated once and
//!    become literals; string literals and record fields become [`Str`] with their TLC rank, so
//!    the intern table is complete and frozen before checking (workers share it read-only).
//! 2. **Environment.** A state is `[Value]` indexed by variable slot; a successor under
//!    construction is `[Option<Value>]` (unassigned primed variables are `None`). Locals live in
//!    one `Vec<Value>` stack: binders push, leave pops, closures (LET operators, LAMBDA) capture
//!    the frame base. No hashing of names and no allocation per lookup.
//! 3. **Expressions** evaluate to [`Value`] over (state, next-state, locals). Reading `x'` when
//!    `x'` is still unassigned is an error with the span of `x'` ("x' is read before it is
//!    assigned"), as in TLC.
//! 4. **Actions** are enumerated, not evaluated: `succ(action, state, partial, emit)` walks
//!    conjuncts left to right, threading the partial next state; `A \/ B` and `\E x \in S : A`
//!    fan out in order (`S` in [`Value::elements`] order, which is TLC's); `x' = e` assigns when
//!    `x'` is unassigned and tests equality when it is assigned; `x' \in S` fans out over `S`;
//!    `UNCHANGED <<x, y>>` assigns each from the current state; any other conjunct is a guard
//!    evaluated to a boolean; IF/CASE/LET inside actions enumerate their chosen branch; a call
//!    of an action definition enumerates its body with the arguments bound. At the end of a
//!    conjunction every variable must be assigned, else it is an error naming the variable
//!    (TLC: "successor state is not completely specified"). Each complete next state is emitted
//!    with the index of the top-level disjunct of Next that produced it (for coverage, replay
//!    and the grader's per-action counts).
//! 5. **Init** is enumerated the same way with no current state (`x = e` / `x \in S` assign).
//!
//! The explorer (tla-check) stores the fingerprint of each canonical state, a parent index and
//! the action index; counterexamples are rebuilt by re-running the enumeration.

// Unsafe code only in `shared` (values' reference counts and prefetching), tested under Miri.
#![deny(unsafe_code)]

pub mod arith;
mod display;
pub mod error;
pub mod eval;
pub mod fcn;
pub mod fingerprint;
mod fxhash;
pub mod host;
mod ptrcache;
pub mod intern;
pub mod set;
#[allow(unsafe_code)]
pub mod shared;
pub use shared::single_thread;
pub mod stdnames;
pub mod testing;
pub mod value;

pub use error::{VResult, ValueError};
pub use eval::{ActionSite, ActionSplit, Bindings, ConstEval, Register, RunFigures, SharedProgram, SplitAction, State};
pub use intern::{Interner, Str};
pub use set::{LazySet, SetPredicate};
pub use value::{Elems, ModelValue, SetVal, Value};
