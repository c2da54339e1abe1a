//! What every name denotes (for a name with an instance path, its first step), as the checker
//! resolved it.
//!
//! A name is either **local**, bound by a binder around it (an operator's or LAMBDA's
//! parameter, a bound name of a quantifier, CHOOSE, set former or function, a LET definition,
//! a recursive function's own name), or it is **module-level** (a variable, a constant, a
//! definition, a standard operator). TLA+ forbids a bound name that is already visible, so a
//! local name has exactly one binder; the evaluator keeps the values of locals keyed by that
//! binder ([`Binder`]) and never compares names while evaluating.
//!
//! Names are known by the address of their [`ast::OpName`], which lives in a boxed expression
//! kind and does not move while the analysis holds the modules (as for [`crate::Levels`]); each
//! record keeps the name's span too, so a look-up never answers for another name. A binder is
//! known by the address of its identifier's text, which the evaluator also has where it binds.
//! Expressions the checker never saw (those made later, such as a subexpression name's
//! definition) have no record: a user must then resolve them itself.

use std::collections::HashMap;

use tla_syntax::Span;
use tla_syntax::ast;

/// The binder of a local name: the address of the binding identifier's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Binder(usize);

impl Binder {
    /// The binder that is the identifier whose text is `name` (the `String` of the AST, not a
    /// copy of it).
    #[inline]
    pub fn of(name: &str) -> Binder {
        Binder(name.as_ptr() as usize)
    }
}

/// What a name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denotes {
    /// A name bound by the binder given.
    Local(Binder),
    /// A variable, constant, definition, instance or standard operator of the module.
    ModuleLevel,
}

/// What each name the checker saw denotes (see the module docs).
#[derive(Default)]
pub struct Names {
    map: HashMap<usize, (Span, Denotes)>,
}

fn key(op: &ast::OpName) -> usize {
    op as *const ast::OpName as usize
}

impl Names {
    /// What `op` denotes, if the checker resolved it. For a name with an instance path
    /// (`CC!Op`), what its first step (`CC`) denotes.
    pub fn of(&self, op: &ast::OpName) -> Option<Denotes> {
        let (span, d) = self.map.get(&key(op))?;
        (*span == op.span).then_some(*d)
    }

    /// How many names are recorded.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub(crate) fn record(&mut self, op: &ast::OpName, d: Denotes) {
        self.map.insert(key(op), (op.span, d));
    }

    /// Names recorded as bound by `from` are bound by `to`: a RECURSIVE LET operator's uses
    /// in its own body were resolved to its declaration before it was defined.
    pub(crate) fn rebind(&mut self, from: Binder, to: Binder) {
        for (_, d) in self.map.values_mut() {
            if *d == Denotes::Local(from) {
                *d = Denotes::Local(to);
            }
        }
    }
}
