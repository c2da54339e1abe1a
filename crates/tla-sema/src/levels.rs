//! The level of every expression of an analysis, as the checker worked it out.
//!
//! SANY gives each expression one of four levels: constant, state (reads variables), action
//! (primes or UNCHANGEs something) and temporal. Inside a definition the level also depends on
//! the arguments its parameters get: `Plus(a, b) == a + b` is a state function when `a` is a
//! variable and a constant when both are constants. So an expression's level is recorded as a
//! base level (every parameter constant) and the parameters it reads, each with the way it
//! reads them: plainly (the argument's level passes through), under a prime or `UNCHANGED`, or
//! under `ENABLED`. As in SANY, `e'` and `UNCHANGED e` are actions and `ENABLED e` a state
//! predicate whatever `e` is, so the last two add nothing to the level; they say that the
//! argument is read in the next state, which the evaluator needs (it passes such an argument
//! by name: `SetTo(v, e) == v' = e` applied to a variable assigns that variable).
//!
//! Users of the analysis read it here instead of working levels out again: the model loader
//! (is a property temporal, an action or a state predicate?) and the evaluator (may an argument
//! be an action, to be passed by name?). They know what each parameter is bound to, so
//! [`ExprLevel::under`] finishes the computation with their bindings.
//!
//! Expressions are known by the address of their boxed kind, which does not move while the
//! analysis holds the modules; each record also keeps the expression's span and kind, so a
//! look-up never answers for another expression.

use std::collections::HashMap;
use std::mem::Discriminant;

use tla_syntax::Span;
use tla_syntax::ast::{self, Expr, ExprKind};

use crate::names::Binder;

/// SANY's levels, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Constant = 0,
    State = 1,
    Action = 2,
    Temporal = 3,
}

impl Level {
    pub(crate) fn from_u8(l: u8) -> Level {
        match l {
            0 => Level::Constant,
            1 => Level::State,
            2 => Level::Action,
            _ => Level::Temporal,
        }
    }
}

/// How an argument's level passes through to the expression that uses its parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Through {
    /// As it is: `p + 1`.
    Plain,
    /// Under a prime or `UNCHANGED` (an action already, whatever the argument).
    Primed,
    /// Under `ENABLED` (a state predicate already, whatever the argument).
    Enabled,
}

impl Through {
    /// The level the argument `arg` gives the expression.
    pub fn apply(self, arg: Level) -> Level {
        match (self, arg) {
            (Through::Plain, l) => l,
            (_, Level::Constant) => Level::Constant,
            (Through::Primed, _) => Level::Action,
            (Through::Enabled, _) => Level::State,
        }
    }
}

/// An expression's level: its level when every parameter it depends on is a constant, and
/// those parameters (of the definitions, LAMBDAs and LET definitions around it).
#[derive(Clone, Copy, Debug)]
pub struct ExprLevel<'l> {
    pub base: Level,
    pub params: &'l [LevelParam],
}

/// A parameter an expression's level depends on, and how.
#[derive(Clone, Debug)]
pub struct LevelParam {
    pub name: String,
    /// The parameter's binding identifier (see [`crate::names`]): what the evaluator finds its
    /// argument by. `None` for the copy of an expression made after the analysis (its
    /// parameters are the copy's, found by name).
    pub binder: Option<Binder>,
    pub through: Through,
}

impl ExprLevel<'_> {
    /// The level once each parameter's argument has a level: `arg` gives it (None for a
    /// name the caller does not bind, which then counts as a constant).
    pub fn under(&self, mut arg: impl FnMut(&LevelParam) -> Option<Level>) -> Level {
        let mut l = self.base;
        for p in self.params {
            if l == Level::Temporal {
                break;
            }
            if let Some(a) = arg(p) {
                l = l.max(p.through.apply(a));
            }
        }
        l
    }
}

struct Recorded {
    span: Span,
    kind: Discriminant<ExprKind>,
    base: Level,
    params: Box<[LevelParam]>,
}

/// The level of every expression the checker saw (see the module docs).
#[derive(Default)]
pub struct Levels {
    map: HashMap<usize, Recorded>,
}

fn key(e: &Expr) -> usize {
    &*e.kind as *const ExprKind as usize
}

impl Levels {
    /// The level recorded for `e`, if the analysis saw it.
    pub fn of(&self, e: &Expr) -> Option<ExprLevel<'_>> {
        let r = self.map.get(&key(e))?;
        (r.span == e.span && r.kind == std::mem::discriminant(&*e.kind)).then_some(ExprLevel { base: r.base, params: &r.params })
    }

    /// How many expressions have a level.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub(crate) fn record(&mut self, e: &Expr, base: Level, params: Vec<LevelParam>) {
        let r = Recorded { span: e.span, kind: std::mem::discriminant(&*e.kind), base, params: params.into_boxed_slice() };
        self.map.insert(key(e), r);
    }

    /// Give `copy`, a clone of `original` put in the same place, the levels of the original.
    pub(crate) fn copy(&mut self, original: &Expr, copy: &Expr) {
        let mut from = Vec::new();
        ast::walk(original, &mut |x| from.push(x));
        let mut to = Vec::new();
        ast::walk(copy, &mut |x| to.push(x));
        for (a, b) in from.into_iter().zip(to) {
            if let Some(r) = self.map.get(&key(a))
                && r.span == a.span
            {
                // The copy's parameters are not the original's binders.
                let params = r.params.iter().map(|p| LevelParam { binder: None, ..p.clone() }).collect();
                let r = Recorded { span: b.span, kind: std::mem::discriminant(&*b.kind), base: r.base, params };
                self.map.insert(key(b), r);
            }
        }
    }
}
