//! Expressions compiled once into a tree whose names are resolved to slots.
//!
//! The interpreter (`ev`) looks up what every name means, checks whether every node is
//! constant and counts its depth at every node it evaluates. For an expression evaluated
//! many times outside instances (an invariant, a guard, the right side of `x' = e`), this
//! module resolves all of that once: a name bound inside the expression becomes a slot of a
//! value stack, a state variable its index in the state, a `.cfg` constant its value, a
//! constant subexpression a value computed once, a call of a definition whose parameters are
//! values a call of the definition's own compiled body, and the usual standard operators
//! direct calls on values.
//!
//! A LET of definitions without parameters computes them into slots on entry, not when first
//! used (a definition that fails, used or not, sends the expression back to the interpreter
//! by the second rule below, and the interpreter computes them lazily); a
//! function definition `f[x \in S] == e` is applied as the interpreter applies it, without
//! building `f`.
//!
//! Anything else (LET of operators, CHOOSE, instances, operators passed as arguments,
//! recursive definitions, ...) stays with the interpreter: the node is evaluated by
//! `ev_uncached` in an environment that binds the names in scope, and its subexpressions may
//! be compiled in turn.
//!
//! The interpreter remains the reference semantics, and two rules keep the compiled tree
//! from ever giving another answer:
//! - only expressions that call no operator with an effect (`Print`, `Assert`, `TLCSet`, ...)
//!   and are evaluated with the current state, outside instances and outside ENABLED, are
//!   compiled (see `ConstEval::ev`); they read nothing of the next state, except in an
//!   action's plan, where `x'` of a state variable reads the value assigned to it so far;
//! - when a compiled expression fails, it is evaluated again by the interpreter, whose error
//!   (message, code and span) is the one reported. Errors end a run, so they are rare; the
//!   compiled tree does not have to reproduce them.
//!
//! Compiled code reads rather than copies where it can: `f[a].g[b]` whose keys are bound names,
//! variables or literals is one `Code::Path`, read by a loop; a comparison, equality or
//! membership whose operands are such paths, names or constants tests them in place, with no
//! value cloned or built; and a function over a small domain finds its argument by identity
//! (the very model value or interned string) before comparing values.

use std::cell::OnceCell;
use std::rc::Rc;

use tla_syntax::ast::*;

use super::{ConstEval, Env, StdOp, Global, each_value, err};
use crate::error::{VResult, codes};
use crate::intern::Str;
use crate::value::{SetVal, Value};

/// One node of a compiled expression.
pub(super) enum Code<'a> {
    Lit(Value),
    /// A constant subexpression, evaluated by the interpreter on first use and kept.
    Constness(&'a Expr, OnceCell<Value>),
    /// A variable of the current state.
    Var(usize),
    /// `x'` for a state variable `x`, in a plan (see `plan`): its value in the next state,
    /// once assigned (before, an error, which sends the node to the interpreter).
    Next(usize),
    /// A name bound inside the compiled expression (a slot above the frame's base).
    Local(u32),
    /// A name without arguments bound around the compiled expression (by an enclosing
    /// quantifier, operator call or LET), read from the environment.
    Outer(&'a OpName, tla_syntax::Span),
    /// Evaluated by the interpreter, with the names in scope bound to their slots.
    Interp(&'a Expr, Box<[(&'a str, u32)]>),
    Not(Box<Code<'a>>),
    And(Box<[Code<'a>]>),
    Or(Box<[Code<'a>]>),
    Implies(Box<Code<'a>>, Box<Code<'a>>),
    Equiv(Box<Code<'a>>, Box<Code<'a>>),
    If(Box<Code<'a>>, Box<Code<'a>>, Box<Code<'a>>),
    Case(Box<[(Code<'a>, Code<'a>)]>, Option<Box<Code<'a>>>),
    /// One of the two-argument operators of `StdOp`.
    Bin(StdOp, Box<Code<'a>>, Box<Code<'a>>),
    /// One of the one-argument operators of `StdOp`.
    Un(StdOp, Box<Code<'a>>),
    /// Any other standard operator that evaluates all its arguments (`strict_builtin`).
    Strict(&'a str, Box<[Code<'a>]>),
    /// `f[x]`.
    App(Box<Code<'a>>, Box<Code<'a>>),
    /// `v[x]` for a state variable `v` (read in place).
    AppVar(usize, Box<Code<'a>>),
    /// `f[x]` for a function definition `f[y \in S] == e` (see `apply_global_fun`).
    FunDef(&'a FunDef, Box<Code<'a>>),
    Field(Box<Code<'a>>, Str),
    /// `v[a].f[b]...`: applications and fields whose keys are bound names, variables or
    /// literals, from a root that can be read in place (a variable, a bound name, a literal or
    /// a constant); read by one loop instead of a nested call per step.
    Path(Box<Code<'a>>, Box<[Key]>),
    /// `\A` / `\E` over one or more names, each with its set, the first turning fastest (TLC's
    /// order, see `bind_each`).
    Quant { exists: bool, slots: Box<[(u32, Code<'a>)]>, body: Box<Code<'a>> },
    SetEnum(Box<[Code<'a>]>),
    Tuple(Box<[Code<'a>]>),
    Record(Box<[(Str, Code<'a>)]>),
    /// `{x \in S : P}`.
    Filter { slot: u32, set: Box<Code<'a>>, pred: Box<Code<'a>> },
    /// `{e : x \in S, ...}`.
    Map { slots: Box<[(u32, Code<'a>)]>, body: Box<Code<'a>> },
    /// `[x \in S |-> e]`.
    FunCons { slot: u32, set: Box<Code<'a>>, body: Box<Code<'a>>, dom: OnceCell<SetVal> },
    /// `[f EXCEPT !.a[k] = e, ...]`: each update's path, and the slot `@` is kept in.
    Except(Box<Code<'a>>, Box<[Update<'a>]>),
    /// `LET a == e1 ... IN body` (definitions without parameters): each value computed into
    /// its slot, then the body.
    Let(Box<[(u32, Code<'a>)]>, Box<Code<'a>>),
    /// A call of a definition whose compiled body is `Unit`.
    Call(Rc<Unit<'a>>, Box<[Code<'a>]>),
}

/// The set a quantifier's name ranges over: `set`, less `without` when the set was written
/// `S \ {x}` (see `bound_values`), so that `\E q \in Procs \ {p}` builds no set per `p`.
#[derive(Clone)]
pub(super) struct Dom {
    pub(super) set: Value,
    pub(super) without: Option<Value>,
}

impl Dom {
    /// Whether the name ranges over infinitely many values.
    pub(super) fn is_infinite(&self) -> bool {
        matches!(&self.set, Value::Lazy(l) if !l.is_finite())
    }
}

/// Every value of `d`, in TLC's order (that of `d.set`, which `S \ {x}` keeps).
#[inline]
pub(super) fn each_in(d: &Dom, mut f: impl FnMut(Value) -> VResult<bool>) -> VResult<bool> {
    match &d.without {
        None => each_value(&d.set, f),
        Some(x) => each_value(&d.set, |v| if same_scalar(&v, x) == Some(true) { Ok(true) } else { f(v) }),
    }
}

/// `a = b` for two scalars of one kind that compare without error (integers, strings,
/// booleans, untyped model values); `None` for any other pair.
fn same_scalar(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x == y),
        (Value::Str(x), Value::Str(y)) => Some(x == y),
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::Model(x), Value::Model(y)) if x.typ().is_none() && y.typ().is_none() => Some(x == y),
        _ => None,
    }
}

/// `each_in` through a dynamic call (nested binders).
fn each_dom(d: &Dom, f: &mut dyn FnMut(Value) -> VResult<bool>) -> VResult<bool> {
    each_in(d, f)
}

/// The sets of a quantifier's names, in order.
pub(super) enum BoundSets {
    One([Dom; 1]),
    Many(Vec<Dom>),
}

impl std::ops::Deref for BoundSets {
    type Target = [Dom];
    fn deref(&self) -> &[Dom] {
        match self {
            BoundSets::One(s) => s,
            BoundSets::Many(s) => s,
        }
    }
}

/// One update of an EXCEPT: its path, the slot `@` is kept in, the new value.
pub(super) type Update<'a> = (Box<[Step<'a>]>, u32, Code<'a>);

/// One step of a `Path`: an argument that is a bound name, a variable or a literal, or a field.
pub(super) enum Key {
    Local(u32),
    Var(usize),
    Lit(Value),
    Field(Str),
}

/// A reference to the value of `c` when it is read without evaluating anything: a literal, a
/// bound name, a variable of `cur`, a constant computed already, or a `Path` from one of them
/// (its application may fail). None when `c` must be evaluated.
#[inline]
pub(super) fn peek<'r>(c: &'r Code<'_>, st: &'r [Value], base: usize, cur: &'r [Value]) -> Option<VResult<&'r Value>> {
    Some(Ok(match c {
        Code::Lit(v) => v,
        Code::Local(s) => &st[base + *s as usize],
        Code::Var(slot) => cur.get(*slot)?,
        Code::Constness(_, cell) => cell.get()?,
        Code::Path(root, keys) => {
            let root = match &**root {
                Code::Lit(v) => v,
                Code::Local(s) => &st[base + *s as usize],
                Code::Var(slot) => cur.get(*slot)?,
                Code::Constness(_, cell) => cell.get()?,
                _ => return None,
            };
            return Some(follow(root, keys, st, base, cur));
        }
        _ => return None,
    }))
}

/// `a` and `b` are the same compiled expression: evaluated with the same slots, state and next
/// state, they give the same value or the same error. False says nothing.
pub(super) fn same_c(a: &Code<'_>, b: &Code<'_>) -> bool {
    let all = |xs: &[Code<'_>], ys: &[Code<'_>]| xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_c(x, y));
    match (a, b) {
        (Code::Lit(x), Code::Lit(y)) => same_lit(x, y),
        (Code::Constness(x, _), Code::Constness(y, _)) => std::ptr::eq(*x, *y) || same_literal_expr(x, y),
        (Code::Var(x), Code::Var(y)) | (Code::Next(x), Code::Next(y)) => x == y,
        (Code::Local(x), Code::Local(y)) => x == y && *x != u32::MAX,
        (Code::Not(x), Code::Not(y)) => same_c(x, y),
        (Code::Bin(f, x1, y1), Code::Bin(g, x2, y2)) => f == g && same_c(x1, x2) && same_c(y1, y2),
        (Code::Un(f, x), Code::Un(g, y)) => f == g && same_c(x, y),
        (Code::App(f, x), Code::App(g, y)) => same_c(f, g) && same_c(x, y),
        (Code::AppVar(s, x), Code::AppVar(t, y)) => s == t && same_c(x, y),
        (Code::Field(r, n), Code::Field(q, m)) => n.same(m) && same_c(r, q),
        (Code::Path(r, ks), Code::Path(q, ls)) => {
            same_c(r, q)
                && ks.len() == ls.len()
                && ks.iter().zip(ls.iter()).all(|(k, l)| match (k, l) {
                    (Key::Local(x), Key::Local(y)) => x == y,
                    (Key::Var(x), Key::Var(y)) => x == y,
                    (Key::Lit(x), Key::Lit(y)) => same_lit(x, y),
                    (Key::Field(x), Key::Field(y)) => x.same(y),
                    _ => false,
                })
        }
        (Code::FunDef(d, x), Code::FunDef(e, y)) => std::ptr::eq(*d, *e) && same_c(x, y),
        (Code::Call(u, xs), Code::Call(v, ys)) => Rc::ptr_eq(u, v) && all(xs, ys),
        (Code::And(xs), Code::And(ys)) | (Code::Or(xs), Code::Or(ys)) | (Code::SetEnum(xs), Code::SetEnum(ys)) | (Code::Tuple(xs), Code::Tuple(ys)) => all(xs, ys),
        _ => false,
    }
}

/// Literals that are one value: the same boolean, integer or string.
fn same_lit(x: &Value, y: &Value) -> bool {
    matches!((x, y), (Value::Bool(a), Value::Bool(b)) if a == b) || crate::value::identical(x, y)
}

/// Two constant expressions written alike with literals only (`<< >>`, `{1, "a"}`).
fn same_literal_expr(a: &Expr, b: &Expr) -> bool {
    let all = |xs: &[Expr], ys: &[Expr]| xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_literal_expr(x, y));
    match (&*a.kind, &*b.kind) {
        (ExprKind::Num(x), ExprKind::Num(y)) => x == y,
        (ExprKind::Str(x), ExprKind::Str(y)) => x == y,
        (ExprKind::Bool(x), ExprKind::Bool(y)) => x == y,
        (ExprKind::Tuple(xs), ExprKind::Tuple(ys)) | (ExprKind::SetEnum(xs), ExprKind::SetEnum(ys)) => all(xs, ys),
        _ => false,
    }
}

/// The integer value of `c` when `peek` reads it (or the sequence `Len` is applied to), None
/// when `c` must be evaluated or is not an integer.
#[inline]
fn peek_int(c: &Code<'_>, st: &[Value], base: usize, cur: &[Value]) -> Option<VResult<i32>> {
    match c {
        Code::Un(StdOp::Len, x) => Some(peek(x, st, base, cur)?.and_then(Value::seq_len)),
        c => match peek(c, st, base, cur)? {
            Ok(Value::Int(i)) => Some(Ok(*i)),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        },
    }
}

/// The value at the end of `keys` from `v`.
#[inline]
pub(super) fn follow<'r>(mut v: &'r Value, keys: &[Key], st: &'r [Value], base: usize, cur: &[Value]) -> VResult<&'r Value> {
    for k in keys {
        v = match k {
            Key::Local(s) => v.apply_ref(&st[base + *s as usize])?,
            Key::Var(x) => v.apply_ref(cur.get(*x).ok_or_else(|| err(codes::UNASSIGNED, "no state"))?)?,
            Key::Lit(a) => v.apply_ref(a)?,
            Key::Field(name) => v.field_ref(name)?,
        };
    }
    Ok(v)
}

/// `g[a]` or `g.f` (`a` None, `field` Some): a `Path` when the key is a bound name, a variable
/// or a literal and `g` a root or a path, `App` / `Field` otherwise.
fn app<'a>(g: Code<'a>, a: Option<Code<'a>>, field: Option<Str>) -> Code<'a> {
    let key = match (a, field) {
        (Some(Code::Local(s)), _) if s != u32::MAX => Key::Local(s),
        (Some(Code::Var(v)), _) => Key::Var(v),
        (Some(Code::Lit(v)), _) => Key::Lit(v),
        (Some(a), _) => return Code::App(Box::new(g), Box::new(a)),
        (None, Some(name)) => Key::Field(name),
        (None, None) => unreachable!("app without a key"),
    };
    match g {
        Code::Path(root, keys) => {
            let mut keys = keys.into_vec();
            keys.push(key);
            Code::Path(root, keys.into_boxed_slice())
        }
        g @ (Code::Var(_) | Code::Local(_) | Code::Lit(_) | Code::Constness(..)) if !matches!(g, Code::Local(u32::MAX)) => {
            Code::Path(Box::new(g), Box::new([key]))
        }
        g => match key {
            Key::Local(s) => Code::App(Box::new(g), Box::new(Code::Local(s))),
            Key::Var(v) => Code::App(Box::new(g), Box::new(Code::Var(v))),
            Key::Lit(v) => Code::App(Box::new(g), Box::new(Code::Lit(v))),
            Key::Field(name) => Code::Field(Box::new(g), name),
        },
    }
}

pub(super) enum Step<'a> {
    Index(Code<'a>),
    Field(Str),
}

/// The compiled body of a definition whose parameters are all values.
pub(super) struct Unit<'a> {
    body: Code<'a>,
    /// Slots of one call: the parameters first, then the names bound in the body.
    slots: u32,
    /// Without parameters: values kept per state so far, and values found kept. Keeping stops
    /// when the first 256 found none (a definition evaluated once per state).
    kept: std::cell::Cell<u32>,
    found: std::cell::Cell<u32>,
}

/// A compiled expression evaluated from the interpreter.
pub(super) struct Root<'a> {
    code: Code<'a>,
    slots: u32,
    /// The names it took for variables, constants or definitions: a local binding of one of
    /// them where it is evaluated (a formula seen out of its context) sends it back to the
    /// interpreter.
    globals: Box<[&'a str]>,
}

/// Compilation context: the names bound inside the expression so far (innermost last).
pub(super) struct CompileScope<'a> {
    pub(super) scope: Vec<(&'a str, u32)>,
    pub(super) next: u32,
    pub(super) max: u32,
    globals: Vec<&'a str>,
    /// Definitions being compiled or inlined (a call of one of them is left to the
    /// interpreter).
    pub(super) open: Vec<*const OpDef>,
    /// Nesting of the compilation (expressions and calls), bounded to spare the stack.
    depth: u32,
    /// `x'` is compiled (as `Code::Next`): the expression is part of an action's plan.
    pub(super) primes: bool,
}

impl<'a> CompileScope<'a> {
    pub(super) fn new() -> CompileScope<'a> {
        CompileScope { scope: Vec::new(), next: 0, max: 0, globals: Vec::new(), open: Vec::new(), depth: 0, primes: false }
    }
    pub(super) fn bind(&mut self, name: &'a str) -> u32 {
        let s = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        self.scope.push((name, s));
        s
    }
    fn lookup(&self, name: &str) -> Option<u32> {
        self.scope.iter().rev().find(|(n, _)| *n == name).map(|&(_, s)| s)
    }
    fn mark(&self) -> (usize, u32) {
        (self.scope.len(), self.next)
    }
    fn reset(&mut self, m: (usize, u32)) {
        self.scope.truncate(m.0);
        self.next = m.1;
    }
}

/// Operators `builtin` treats before evaluating their arguments.
fn lazy_builtin(name: &str, n: usize) -> bool {
    matches!((name, n), ("/\\" | "\\/" | "=>" | "SelectSeq" | "\\in" | "\\notin", 2))
}

impl<'a> ConstEval<'a> {
    /// Whether `e` (and every definition it calls, transitively) reads no next state and has no
    /// effect. Memoised per definition.
    pub(super) fn pure_expr(&self, e: &'a Expr, depth: u32) -> bool {
        self.pure_walk(e, depth, false)
    }

    /// As `pure_expr`, but `x'` of a state variable `x` is allowed (`primes`): the expression
    /// may read the next state as far as it is assigned.
    pub(super) fn pure_walk(&self, e: &'a Expr, depth: u32, primes: bool) -> bool {
        if depth > 200 {
            return false;
        }
        let mut ok = true;
        walk(e, &mut |x| {
            if !ok {
                return;
            }
            match &*x.kind {
                ExprKind::OpApp { op, args } if primes && op.path.is_empty() && op.name == "'" && args.len() == 1 && self.primed_var_name(&args[0]).is_some() => {}
                ExprKind::OpApp { op, .. } => {
                    let name = op.name.as_str();
                    if super::konst::impure(name) || !op.path.is_empty() {
                        ok = false;
                    } else {
                        match self.global(name) {
                            Some(Global::Op(d)) => ok = self.pure_def(d as *const OpDef as usize, &d.body, depth + 1),
                            Some(Global::Fun(d)) => ok = self.pure_def(d as *const FunDef as usize, &d.body, depth + 1),
                            Some(Global::Native(o)) => ok = o.pure,
                            _ => {}
                        }
                    }
                }
                ExprKind::BoxAction { .. } | ExprKind::AngleAction { .. } | ExprKind::Fair { .. } | ExprKind::TemporalQuant { .. } => ok = false,
                ExprKind::Let { defs, .. } if defs.iter().any(|d| matches!(d, LetDef::ModuleDef(_))) => ok = false,
                _ => {}
            }
        });
        ok
    }

    /// The compiled code reads the name `op` as module-level. A root is run only where no local
    /// binds such a name (`root`); a name the analysis resolved as module-level is never bound
    /// by a local (TLA+ forbids it), so only the others are listed.
    fn read_global(&self, cx: &mut CompileScope<'a>, op: &'a OpName) {
        if !self.module_level(op) {
            cx.globals.push(op.name.as_str());
        }
    }

    /// `e` is the name of a state variable (without arguments): the name and its slot.
    pub(super) fn primed_var_name(&self, e: &'a Expr) -> Option<(&'a str, usize)> {
        let ExprKind::OpApp { op, args } = &*e.kind else { return None };
        if !op.path.is_empty() || !args.is_empty() {
            return None;
        }
        self.program.vars.get(op.name.as_str()).map(|&slot| (op.name.as_str(), slot))
    }

    fn pure_def(&self, key: usize, body: &'a Expr, depth: u32) -> bool {
        if let Some(&p) = self.caches.pure_defs.borrow().get(&key) {
            return p;
        }
        // A definition being examined counts as pure (recursion adds nothing new).
        self.caches.pure_defs.borrow_mut().insert(key, true);
        let p = self.pure_expr(body, depth);
        self.caches.pure_defs.borrow_mut().insert(key, p);
        p
    }

    /// The state variables `e` may read, as a mask (bit `i`: the variable of slot `i`), through
    /// every definition it calls; None when `e` is not pure (it reads the next state, has an
    /// effect, depends on more than the state, such as `TLCGet("level")`, or calls into an
    /// instance) or there are more than 64 variables. The mask never misses a read: a name that
    /// is a variable counts even where a bound name hides it.
    pub fn state_reads(&self, e: &'a Expr) -> Option<u64> {
        if self.program.var_names.len() > 64 || !self.frame.ctx.borrow().is_empty() || !self.pure_expr(e, 0) {
            return None;
        }
        let mut mask = 0u64;
        let mut seen = crate::fxhash::FxHashSet::default();
        self.reads_into(e, &mut mask, &mut seen, 0).then_some(mask)
    }

    fn reads_into(&self, e: &'a Expr, mask: &mut u64, seen: &mut crate::fxhash::FxHashSet<usize>, depth: u32) -> bool {
        if depth > 200 {
            return false;
        }
        let mut ok = true;
        walk(e, &mut |x| {
            let ExprKind::OpApp { op, .. } = &*x.kind else { return };
            if !ok {
                return;
            }
            let name = op.name.as_str();
            if let Some(&slot) = self.program.vars.get(name) {
                *mask |= 1u64 << slot;
            }
            let body = match self.global(name) {
                Some(Global::Op(d)) => &d.body,
                Some(Global::Fun(d)) => &d.body,
                _ => return,
            };
            if seen.insert(body as *const Expr as usize) {
                ok = self.reads_into(body, mask, seen, depth + 1);
            }
        });
        ok
    }

    /// The compiled form of `e` as evaluated in `env`, compiled on first use; `None`: the
    /// interpreter evaluates it.
    pub(super) fn root(&self, e: &'a Expr, env: &Env<'a>) -> Option<Rc<Root<'a>>> {
        let key = e as *const Expr as usize;
        let idx = match self.code.roots_fast.get(key) {
            Some(i) => i,
            None => {
                let known = self.code.roots_index.borrow().get(&key).copied();
                let i = match known {
                    Some(i) => i,
                    None => {
                        let i = self.compile_root(e, env);
                        self.code.roots_index.borrow_mut().insert(key, i);
                        i
                    }
                };
                self.code.roots_fast.put(key, i);
                i
            }
        };
        if idx == 0 {
            return None;
        }
        let r = self.code.roots.borrow()[idx as usize - 1].clone();
        // Only names the analysis did not resolve are listed (see `read_global`).
        if env.0.is_some() && !r.globals.is_empty() && r.globals.iter().any(|n| env.find_name(n).is_some()) {
            return None;
        }
        Some(r)
    }

    fn compile_root(&self, e: &'a Expr, env: &Env<'a>) -> u32 {
        if !self.pure_expr(e, 0) {
            return 0;
        }
        let mut cx = CompileScope::new();
        let mut code = self.comp(e, &mut cx, env);
        let mut slots = cx.max;
        if matches!(code, Code::Interp(..) | Code::Constness(..) | Code::Lit(_)) {
            return 0;
        }
        // The body of a definition without parameters evaluated on its own (an invariant named
        // in the .cfg) runs as a call of its unit, so that its value in a state is kept for the
        // calls of it as well (`TypeOK` alone and inside `Inv`).
        if env.0.is_none()
            && let Some(d) = self.def_of_body(e)
            && let Some(u) = self.unit(d, &mut CompileScope::new())
        {
            code = Code::Call(u, Box::new([]));
            slots = 0;
        }
        // Each name once: they are looked up in the environment at every evaluation.
        cx.globals.sort_unstable();
        cx.globals.dedup();
        let mut roots = self.code.roots.borrow_mut();
        roots.push(Rc::new(Root { code, slots, globals: cx.globals.into() }));
        roots.len() as u32
    }

    /// Runs a compiled expression; on failure the interpreter evaluates it again and its
    /// answer stands.
    pub(super) fn run_root(&self, root: &Root<'a>, e: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        // The value stack is taken out while the expression runs (a nested compiled
        // expression, reached through the interpreter, starts a stack of its own).
        let mut st = std::mem::take(&mut *self.code.stack.borrow_mut());
        st.resize(root.slots as usize, Value::Bool(false));
        let r = self.run(&root.code, env, &mut st, 0);
        st.clear();
        *self.code.stack.borrow_mut() = st;
        match r {
            Ok(v) => Ok(v),
            Err(_) => {
                // Interpreted all the way down: a failing expression nested in this one would
                // otherwise fail and be evaluated again at every level (twice per level).
                let was = self.code.compiling.replace(false);
                let r = self.ev_uncached(e, env);
                self.code.compiling.set(was);
                r
            }
        }
    }

    /// The module definition without parameters whose body is `e`, if any.
    fn def_of_body(&self, e: &'a Expr) -> Option<&'a OpDef> {
        let mut index = self.caches.body_defs.borrow_mut();
        let index = index.get_or_insert_with(|| {
            let mut m = crate::fxhash::FxHashMap::default();
            for g in self.program.globals.values().chain(self.program.overrides.values()) {
                if let Global::Op(d) = g
                    && d.params.is_empty()
                {
                    m.insert(&d.body as *const Expr as usize, *d);
                }
            }
            m
        });
        index.get(&(e as *const Expr as usize)).copied()
    }

    fn unit(&self, d: &'a OpDef, cx: &mut CompileScope<'a>) -> Option<Rc<Unit<'a>>> {
        let key = d as *const OpDef;
        if cx.open.contains(&key) || d.params.iter().any(|p| p.arity > 0) {
            return None;
        }
        if let Some(u) = self.code.units.borrow().get(&(key as usize)) {
            return u.clone();
        }
        let mut inner = CompileScope::new();
        inner.open = cx.open.clone();
        inner.open.push(key);
        for p in &d.params {
            inner.bind(&p.name.name);
        }
        inner.depth = cx.depth;
        let body = self.comp(&d.body, &mut inner, &Env::default());
        let u = Some(Rc::new(Unit { body, slots: inner.max, kept: Default::default(), found: Default::default() }));
        self.code.units.borrow_mut().insert(key as usize, u.clone());
        u
    }

    fn interp(&self, e: &'a Expr, cx: &CompileScope<'a>) -> Code<'a> {
        Code::Interp(e, cx.scope.clone().into())
    }

    fn comp_all(&self, xs: &'a [Expr], cx: &mut CompileScope<'a>, env: &Env<'a>) -> Box<[Code<'a>]> {
        xs.iter().map(|x| self.comp(x, cx, env)).collect()
    }

    /// Compile the bounds `x, y \in S, z \in T`: the sets (in the scope outside them), then
    /// the names, one slot each. `None` for tuple patterns or unbounded names.
    fn comp_bounds(&self, bounds: &'a [Bound], cx: &mut CompileScope<'a>, env: &Env<'a>) -> Option<Vec<(u32, Code<'a>)>> {
        let mut sets = Vec::new();
        for b in bounds {
            let (BoundVars::Names(ns), Some(s)) = (&b.vars, &b.set) else { return None };
            sets.push((ns, self.comp(s, cx, env)));
        }
        let mut out = Vec::new();
        for (ns, set) in sets {
            // Each name of `x, y \in S` ranges over S (evaluated once).
            let mut set = Some(set);
            for n in ns.iter() {
                let slot = cx.bind(&n.name);
                let s = match set.take() {
                    Some(s) => s,
                    None => Code::Local(u32::MAX), // the set of the name before (see `bound_values`)
                };
                out.push((slot, s));
            }
        }
        Some(out)
    }

    /// `body` under `bounds` (several names and sets): their slots and sets, and the body.
    #[allow(clippy::type_complexity)]
    fn comp_under(&self, bounds: &'a [Bound], body: &'a Expr, cx: &mut CompileScope<'a>, env: &Env<'a>) -> Option<(Box<[(u32, Code<'a>)]>, Box<Code<'a>>)> {
        let m = cx.mark();
        let r = self.comp_bounds(bounds, cx, env).map(|slots| (slots.into(), Box::new(self.comp(body, cx, env))));
        cx.reset(m);
        r
    }

    /// `body` under one bound `x \in S`: the slot of x, S, and the body.
    #[allow(clippy::type_complexity)]
    fn comp_one(&self, bounds: &'a [Bound], body: &'a Expr, cx: &mut CompileScope<'a>, env: &Env<'a>) -> Option<(u32, Box<Code<'a>>, Box<Code<'a>>)> {
        let [Bound { vars: BoundVars::Names(ns), set: Some(s) }] = bounds else { return None };
        let [n] = ns.as_slice() else { return None };
        let set = self.comp(s, cx, env);
        let m = cx.mark();
        let slot = cx.bind(&n.name);
        let body = self.comp(body, cx, env);
        cx.reset(m);
        Some((slot, Box::new(set), Box::new(body)))
    }

    pub(super) fn comp(&self, e: &'a Expr, cx: &mut CompileScope<'a>, env: &Env<'a>) -> Code<'a> {
        if cx.depth > 150 {
            return self.interp(e, cx);
        }
        cx.depth += 1;
        let c = self.comp_node(e, cx, env);
        cx.depth -= 1;
        c
    }

    fn comp_node(&self, e: &'a Expr, cx: &mut CompileScope<'a>, env: &Env<'a>) -> Code<'a> {
        // A constant subexpression: computed once (by the interpreter, which keeps it too).
        if super::konst::worth_keeping(e) && !matches!(&*e.kind, ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_)) {
            // Names bound inside the compiled expression are neither bound in `env` nor
            // definitions: `is_const` sees them as unknown names, hence not constant.
            let mut bound: Vec<&'a str> = Vec::new();
            let mut free: Vec<&'a str> = Vec::new();
            if self.is_const(e, env, &mut bound, &mut free, 0) && !free.iter().any(|n| cx.lookup(n).is_some()) {
                cx.globals.extend(free.iter().copied());
                return Code::Constness(e, OnceCell::new());
            }
        }
        match &*e.kind {
            ExprKind::Num(n) => match crate::arith::literal(*n) {
                Ok(i) => Code::Lit(Value::Int(i)),
                Err(_) => self.interp(e, cx),
            },
            ExprKind::Str(s) => Code::Lit(Value::Str(self.program.interner.get(s))),
            ExprKind::Bool(b) => Code::Lit(Value::Bool(*b)),
            ExprKind::Label { body, .. } => self.comp(body, cx, env),
            ExprKind::OpApp { op, args } => self.comp_op(e, op, args, cx, env),
            ExprKind::FunApp { fun, args } if args.len() == 1 => {
                if let ExprKind::OpApp { op, args: fa } = &*fun.kind
                    && op.path.is_empty()
                    && fa.is_empty()
                    && cx.lookup(&op.name).is_none()
                {
                    let name = op.name.as_str();
                    if self.local(op, env).is_some() {
                        return self.interp(e, cx);
                    }
                    if let Some(&slot) = self.program.vars.get(name) {
                        self.read_global(cx, op);
                        return match self.comp(&args[0], cx, env) {
                            a @ (Code::Local(_) | Code::Lit(_) | Code::Var(_)) => app(Code::Var(slot), Some(a), None),
                            a => Code::AppVar(slot, Box::new(a)),
                        };
                    }
                    if let Some(Global::Fun(d)) = self.global(name) {
                        // Applied without building the function, as the interpreter does.
                        self.read_global(cx, op);
                        return Code::FunDef(d, Box::new(self.comp(&args[0], cx, env)));
                    }
                }
                let arg = self.comp(&args[0], cx, env);
                app(self.comp(fun, cx, env), Some(arg), None)
            }
            ExprKind::Field { record, field } => {
                let name = self.program.interner.get(&field.name);
                app(self.comp(record, cx, env), None, Some(name))
            }
            ExprKind::Junction { kind, items, .. } => {
                let items = self.comp_all(items, cx, env);
                match kind {
                    JunctionKind::And => Code::And(items),
                    JunctionKind::Or => Code::Or(items),
                }
            }
            ExprKind::If { cond, then, els } => {
                Code::If(Box::new(self.comp(cond, cx, env)), Box::new(self.comp(then, cx, env)), Box::new(self.comp(els, cx, env)))
            }
            ExprKind::Case { arms, other } => {
                let arms = arms.iter().map(|a| (self.comp(&a.guard, cx, env), self.comp(&a.body, cx, env))).collect();
                Code::Case(arms, other.as_ref().map(|o| Box::new(self.comp(o, cx, env))))
            }
            ExprKind::Quant { kind, bounds, body } => match self.comp_under(bounds, body, cx, env) {
                Some((slots, body)) => Code::Quant { exists: matches!(kind, QuantKind::Exists), slots, body },
                None => self.interp(e, cx),
            },
            ExprKind::SetMap { body, bounds } => match self.comp_under(bounds, body, cx, env) {
                Some((slots, body)) => Code::Map { slots, body },
                None => self.interp(e, cx),
            },
            ExprKind::SetFilter { bound, pred } => match self.comp_one(std::slice::from_ref(bound), pred, cx, env) {
                Some((slot, set, pred)) => Code::Filter { slot, set, pred },
                None => self.interp(e, cx),
            },
            ExprKind::FunCons { bounds, body } => match self.comp_one(bounds, body, cx, env) {
                Some((slot, set, body)) => Code::FunCons { slot, set, body, dom: OnceCell::new() },
                None => self.interp(e, cx),
            },
            ExprKind::Let { defs, body } => {
                // Definitions without parameters, each computed into its slot on entry (as a
                // plan's LET is), in order: each sees those before it.
                if !defs.iter().all(|d| matches!(d, LetDef::Op(od) if od.params.is_empty())) {
                    return self.interp(e, cx);
                }
                let m = cx.mark();
                let mut slots = Vec::with_capacity(defs.len());
                for d in defs {
                    let LetDef::Op(od) = d else { unreachable!("checked above") };
                    let c = self.comp(&od.body, cx, env);
                    slots.push((cx.bind(od.name.name.as_str()), c));
                }
                let body = self.comp(body, cx, env);
                cx.reset(m);
                Code::Let(slots.into(), Box::new(body))
            }
            ExprKind::SetEnum(items) => Code::SetEnum(self.comp_all(items, cx, env)),
            ExprKind::Tuple(items) => Code::Tuple(self.comp_all(items, cx, env)),
            ExprKind::Record(fields) => {
                Code::Record(fields.iter().map(|(n, x)| (self.program.interner.get(&n.name), self.comp(x, cx, env))).collect())
            }
            ExprKind::Except { base, updates } => {
                let b = self.comp(base, cx, env);
                let mut ups = Vec::new();
                for u in updates {
                    let mut path = Vec::new();
                    for st in &u.path {
                        match st {
                            ExceptStep::Index(xs) if xs.len() == 1 => path.push(Step::Index(self.comp(&xs[0], cx, env))),
                            ExceptStep::Index(_) => return self.interp(e, cx),
                            ExceptStep::Field(id) => path.push(Step::Field(self.program.interner.get(&id.name))),
                        }
                    }
                    let m = cx.mark();
                    let at = cx.bind(super::AT);
                    let v = self.comp(&u.value, cx, env);
                    cx.reset(m);
                    ups.push((path.into_boxed_slice(), at, v));
                }
                Code::Except(Box::new(b), ups.into())
            }
            ExprKind::At => match cx.lookup(super::AT) {
                Some(s) => Code::Local(s),
                None => self.interp(e, cx),
            },
            _ => self.interp(e, cx),
        }
    }

    fn comp_op(&self, e: &'a Expr, op: &'a OpName, args: &'a [Expr], cx: &mut CompileScope<'a>, env: &Env<'a>) -> Code<'a> {
        if !op.path.is_empty() {
            return self.interp(e, cx);
        }
        let name = op.name.as_str();
        if cx.primes && name == "'" && args.len() == 1 {
            // `x'` of a state variable that no name bound around it hides.
            return match (self.primed_var_name(&args[0]), &*args[0].kind) {
                (Some((v, slot)), ExprKind::OpApp { op: var, .. }) if cx.lookup(v).is_none() && self.local(var, env).is_none() => {
                    self.read_global(cx, var);
                    Code::Next(slot)
                }
                _ => self.interp(e, cx),
            };
        }
        if let Some(s) = cx.lookup(name) {
            return if args.is_empty() { Code::Local(s) } else { self.interp(e, cx) };
        }
        if self.local(op, env).is_some() {
            return if args.is_empty() { Code::Outer(op, e.span) } else { self.interp(e, cx) };
        }
        if args.is_empty()
            && let Some(&slot) = self.program.vars.get(name)
        {
            self.read_global(cx, op);
            return Code::Var(slot);
        }
        match self.global(name) {
            Some(Global::Value(v)) if args.is_empty() => {
                self.read_global(cx, op);
                return Code::Lit(v);
            }
            Some(Global::Op(d)) => {
                if d.params.len() != args.len() {
                    return self.interp(e, cx);
                }
                if args.is_empty() && self.program.cacheable.contains(&(d as *const OpDef as usize)) {
                    // A constant-level definition: the interpreter computes and keeps it.
                    self.read_global(cx, op);
                    return Code::Constness(e, OnceCell::new());
                }
                let Some(u) = self.unit(d, cx) else { return self.interp(e, cx) };
                self.read_global(cx, op);
                return Code::Call(u, self.comp_all(args, cx, env));
            }
            Some(_) => return self.interp(e, cx),
            None => {}
        }
        if !super::konst::known_builtin(name, args.len()) || super::konst::impure(name) {
            return self.interp(e, cx);
        }
        match self.std_op(name, args) {
            StdOp::Named => {
                if lazy_builtin(name, args.len()) {
                    return self.interp(e, cx);
                }
                if name == "<=>" && args.len() == 2 {
                    return Code::Equiv(Box::new(self.comp(&args[0], cx, env)), Box::new(self.comp(&args[1], cx, env)));
                }
                Code::Strict(name, self.comp_all(args, cx, env))
            }
            StdOp::Not => Code::Not(Box::new(self.comp(&args[0], cx, env))),
            StdOp::And => Code::And(self.comp_all(args, cx, env)),
            StdOp::Or => Code::Or(self.comp_all(args, cx, env)),
            StdOp::Implies => Code::Implies(Box::new(self.comp(&args[0], cx, env)), Box::new(self.comp(&args[1], cx, env))),
            f @ (StdOp::Len | StdOp::Head | StdOp::Tail | StdOp::Cardinality | StdOp::Domain) => Code::Un(f, Box::new(self.comp(&args[0], cx, env))),
            f => Code::Bin(f, Box::new(self.comp(&args[0], cx, env)), Box::new(self.comp(&args[1], cx, env))),
        }
    }

    /// `a f b` for a comparison, equality or membership whose operands `peek` (or `peek_int`)
    /// reads in place; None when one must be evaluated (or, for `<` and the like, is not an
    /// integer).
    #[inline]
    fn test_in_place(&self, f: StdOp, a: &Code<'a>, b: &Code<'a>, st: &[Value], base: usize) -> Option<VResult<bool>> {
        if !matches!(f, StdOp::Eq | StdOp::Neq | StdOp::In | StdOp::NotIn | StdOp::Lt | StdOp::Le | StdOp::Gt | StdOp::Ge) {
            return None;
        }
        let cur = self.frame.cur.borrow();
        Some(match f {
            StdOp::Eq | StdOp::Neq => {
                let (x, y) = (peek(a, st, base, &cur)?, peek(b, st, base, &cur)?);
                (|| Ok(x?.tlc_eq(y?)? == (f == StdOp::Eq)))()
            }
            StdOp::In | StdOp::NotIn => {
                let (x, s) = (peek(a, st, base, &cur)?, peek(b, st, base, &cur)?);
                (|| Ok(s?.member(x?)? == (f == StdOp::In)))()
            }
            StdOp::Lt | StdOp::Le | StdOp::Gt | StdOp::Ge => {
                let (x, y) = (peek_int(a, st, base, &cur)?, peek_int(b, st, base, &cur)?);
                (|| {
                    let (x, y) = (x?, y?);
                    Ok(match f {
                        StdOp::Lt => x < y,
                        StdOp::Le => x <= y,
                        StdOp::Gt => x > y,
                        _ => x >= y,
                    })
                })()
            }
            _ => return None,
        })
    }

    /// `a f b`, its operands evaluated (after `test_in_place` found it could not read them).
    fn bin(&self, f: StdOp, a: &Code<'a>, b: &Code<'a>, env: &Env<'a>, st: &mut Vec<Value>, base: usize) -> VResult<Value> {
        Ok(match f {
            StdOp::In | StdOp::NotIn => {
                let a = self.run(a, env, st, base)?;
                let m = self.with_ref(b, env, st, base, &mut |s| s.member(&a))?;
                Value::Bool(m == (f == StdOp::In))
            }
            StdOp::Eq | StdOp::Neq => {
                let a = self.run(a, env, st, base)?;
                let eq = self.with_ref(b, env, st, base, &mut |b| a.tlc_eq(b))?;
                Value::Bool(eq == (f == StdOp::Eq))
            }
            f => {
                let a = self.run(a, env, st, base)?;
                let b = self.run(b, env, st, base)?;
                // Integers (most operands) without a call, and without dropping anything.
                if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
                    let (x, y) = (*x, *y);
                    match f {
                        StdOp::Lt => return Ok(Value::Bool(x < y)),
                        StdOp::Le => return Ok(Value::Bool(x <= y)),
                        StdOp::Gt => return Ok(Value::Bool(x > y)),
                        StdOp::Ge => return Ok(Value::Bool(x >= y)),
                        StdOp::Add => return Ok(Value::Int(crate::arith::add(x, y)?)),
                        StdOp::Sub => return Ok(Value::Int(crate::arith::sub(x, y)?)),
                        _ => {}
                    }
                }
                super::fast_pair(f, a, b)?
            }
        })
    }

    pub(super) fn run_bool(&self, c: &Code<'a>, env: &Env<'a>, st: &mut Vec<Value>, base: usize) -> VResult<bool> {
        let v = match c {
            Code::Bin(f, a, b) => match self.test_in_place(*f, a, b, st, base) {
                Some(r) => return r,
                None => self.bin(*f, a, b, env, st, base)?,
            },
            c => self.run(c, env, st, base)?,
        };
        match v {
            Value::Bool(b) => Ok(b),
            _ => Err(err(codes::TYPE, "expected a boolean")),
        }
    }

    /// Binds the names of the first `k` of `slots` to every combination of their sets'
    /// elements, in TLC's order: the first name turns fastest (see `iterate_slots`).
    pub(super) fn bind_each(
        &self,
        slots: &[(u32, Code<'a>)],
        sets: &[Dom],
        k: usize,
        st: &mut Vec<Value>,
        base: usize,
        f: &mut dyn FnMut(&Self, &mut Vec<Value>) -> VResult<bool>,
    ) -> VResult<bool> {
        let Some(k) = k.checked_sub(1) else {
            return f(self, st);
        };
        let slot = slots[k].0 as usize;
        each_dom(&sets[k], &mut |v| {
            st[base + slot] = v;
            self.bind_each(slots, sets, k, st, base, f)
        })
    }

    pub(super) fn bound_values(&self, slots: &[(u32, Code<'a>)], env: &Env<'a>, st: &mut Vec<Value>, base: usize) -> VResult<BoundSets> {
        // One name (most quantifiers): no vector.
        if let [(_, s)] = slots {
            return Ok(BoundSets::One([self.bound_dom(s, env, st, base)?]));
        }
        let mut sets: Vec<Dom> = Vec::with_capacity(slots.len());
        for (_, s) in slots {
            let v = match s {
                Code::Local(u32::MAX) => sets.last().cloned().ok_or_else(|| err(codes::UNKNOWN, "internal: no set"))?,
                s => self.bound_dom(s, env, st, base)?,
            };
            sets.push(v);
        }
        Ok(BoundSets::Many(sets))
    }

    /// The set `s` a name ranges over. `S \ {x}`, with `S` an integer interval and `x` an
    /// integer, or `S` a set of scalars of `x`'s kind, is `S` less `x`, skipped as the
    /// elements are enumerated: TLC enumerates `S \ T` as the elements of `S` not in `T`, in
    /// `S`'s order, and here no element is compared with `x` with an error. Otherwise the set
    /// is computed as any other value.
    fn bound_dom(&self, s: &Code<'a>, env: &Env<'a>, st: &mut Vec<Value>, base: usize) -> VResult<Dom> {
        if let Code::Bin(StdOp::Diff, a, b) = s
            && let Code::SetEnum(xs) = &**b
            && let [x] = &**xs
        {
            let set = self.run(a, env, st, base)?;
            let x = self.run(x, env, st, base)?;
            let skips = match &set {
                Value::Lazy(l) => l.as_interval().is_some() && matches!(x, Value::Int(_)),
                Value::Set(s) => s.elems().iter().all(|v| same_scalar(v, &x).is_some()),
                _ => false,
            };
            if skips {
                return Ok(Dom { set, without: Some(x) });
            }
            // `S \ {x}` built from the values already computed, as `bin` builds it.
            return Ok(Dom { set: super::fast_pair(StdOp::Diff, set, Value::set(vec![x])?)?, without: None });
        }
        Ok(Dom { set: self.run(s, env, st, base)?, without: None })
    }

    /// The value of `c`. Leaves (literals, bound names) are read here, inlined at each call;
    /// other nodes are evaluated by `run_inner`, whose many cases need a large frame.
    #[inline]
    pub(super) fn run(&self, c: &Code<'a>, env: &Env<'a>, st: &mut Vec<Value>, base: usize) -> VResult<Value> {
        match c {
            Code::Local(s) => Ok(st[base + *s as usize].clone()),
            Code::Lit(v) => Ok(v.clone()),
            _ => self.run_inner(c, env, st, base),
        }
    }

    #[inline(never)]
    fn run_inner(&self, c: &Code<'a>, env: &Env<'a>, st: &mut Vec<Value>, base: usize) -> VResult<Value> {
        Ok(match c {
            Code::Lit(v) => v.clone(),
            Code::Constness(e, cell) => {
                if let Some(v) = cell.get() {
                    return Ok(v.clone());
                }
                let v = self.ev(e, env)?;
                let _ = cell.set(v.clone());
                v
            }
            Code::Var(slot) => self.frame.cur.borrow().get(*slot).cloned().ok_or_else(|| err(codes::UNASSIGNED, "no state"))?,
            Code::Let(slots, body) => {
                for (s, c) in slots.iter() {
                    let v = self.run(c, env, st, base)?;
                    st[base + *s as usize] = v;
                }
                self.run(body, env, st, base)?
            }
            Code::FunDef(d, a) => {
                let a = self.run(a, env, st, base)?;
                self.apply_global_fun(d, &a)?
            }
            Code::Next(slot) => self.frame.next.borrow().get(*slot).cloned().flatten().ok_or_else(|| err(codes::UNASSIGNED, "not assigned yet"))?,
            Code::Local(s) => st[base + *s as usize].clone(),
            Code::Outer(op, span) => match self.local(op, env) {
                Some(super::Binding::Value(v)) => v.clone(),
                // A LET definition: computed (and kept) as the interpreter does.
                Some(super::Binding::Op(cl)) if cl.memo.is_some() => self.op_app(op, &[], env, *span)?,
                // An argument passed by name, a LAMBDA, a function definition: the whole
                // expression goes back to the interpreter.
                _ => return Err(err(codes::UNSUPPORTED, "not compiled")),
            },
            Code::Interp(e, names) => {
                let mut env2 = env.clone();
                for (n, s) in names.iter() {
                    env2 = env2.bind_value(n, st[base + *s as usize].clone());
                }
                self.ev_uncached(e, &env2)?
            }
            Code::Not(a) => Value::Bool(!self.run_bool(a, env, st, base)?),
            Code::And(xs) => {
                for x in xs.iter() {
                    if !self.run_bool(x, env, st, base)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Value::Bool(true)
            }
            Code::Or(xs) => {
                for x in xs.iter() {
                    if self.run_bool(x, env, st, base)? {
                        return Ok(Value::Bool(true));
                    }
                }
                Value::Bool(false)
            }
            Code::Implies(a, b) => Value::Bool(!self.run_bool(a, env, st, base)? || self.run_bool(b, env, st, base)?),
            Code::Equiv(a, b) => Value::Bool(self.run_bool(a, env, st, base)? == self.run_bool(b, env, st, base)?),
            Code::If(c, t, f) => {
                if self.run_bool(c, env, st, base)? {
                    self.run(t, env, st, base)?
                } else {
                    self.run(f, env, st, base)?
                }
            }
            Code::Case(arms, other) => {
                for (g, b) in arms.iter() {
                    if self.run_bool(g, env, st, base)? {
                        return self.run(b, env, st, base);
                    }
                }
                match other {
                    Some(o) => self.run(o, env, st, base)?,
                    None => return Err(err(codes::CASE_NONE, "no CASE arm applies")),
                }
            }
            Code::Un(f, a) => self.with_ref(a, env, st, base, &mut |a| match f {
                StdOp::Len => Ok(Value::Int(a.seq_len()?)),
                StdOp::Head => a.head(),
                StdOp::Tail => a.tail().map(|v| self.ranked(v)),
                StdOp::Cardinality => Ok(Value::Int(a.cardinality()?)),
                _ => a.domain(),
            })?,
            Code::Bin(f, a, b) => {
                if let Some(r) = self.test_in_place(*f, a, b, st, base) {
                    return r.map(Value::Bool);
                }
                if matches!(f, StdOp::Add | StdOp::Sub) {
                    let cur = self.frame.cur.borrow();
                    if let (Some(x), Some(y)) = (peek_int(a, st, base, &cur), peek_int(b, st, base, &cur)) {
                        let (x, y) = (x?, y?);
                        return Ok(Value::Int(if *f == StdOp::Add { crate::arith::add(x, y)? } else { crate::arith::sub(x, y)? }));
                    }
                }
                self.bin(*f, a, b, env, st, base)?
            }
            Code::Strict(name, xs) => {
                let mut vals = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    vals.push(self.run(x, env, st, base)?);
                }
                self.strict_builtin(name, vals)?
            }
            Code::App(..) | Code::AppVar(..) | Code::Field(..) | Code::Path(..) => self.with_ref(c, env, st, base, &mut |v| Ok(v.clone()))?,
            Code::Quant { exists, slots, body } => {
                let sets = self.bound_values(slots, env, st, base)?;
                let want = *exists;
                let mut found = !want;
                let mut test = |me: &Self, st: &mut Vec<Value>| -> VResult<bool> {
                    if me.run_bool(body, env, st, base)? == want {
                        found = want;
                        return Ok(false);
                    }
                    Ok(true)
                };
                // One or two names (most quantifiers): loops the compiler sees through, in
                // `bind_each`'s order (the first name turns fastest).
                match (&**slots, &*sets) {
                    ([(a, _)], [sa]) => {
                        let a = base + *a as usize;
                        each_in(sa, |v| {
                            st[a] = v;
                            test(self, st)
                        })?;
                    }
                    ([(a, _), (b, _)], [sa, sb]) => {
                        let (a, b) = (base + *a as usize, base + *b as usize);
                        each_in(sb, |w| {
                            st[b] = w;
                            each_in(sa, |v| {
                                st[a] = v;
                                test(self, st)
                            })
                        })?;
                    }
                    _ => {
                        self.bind_each(slots, &sets, slots.len(), st, base, &mut test)?;
                    }
                }
                Value::Bool(found)
            }
            Code::Map { slots, body } => {
                let sets = self.bound_values(slots, env, st, base)?;
                let mut out = Vec::new();
                self.bind_each(slots, &sets, slots.len(), st, base, &mut |me, st| {
                    out.push(me.run(body, env, st, base)?);
                    Ok(true)
                })?;
                Value::set(out)?
            }
            Code::Filter { slot, set, pred } => {
                let s = self.run(set, env, st, base)?;
                let mut out = Vec::new();
                for v in s.elements()? {
                    let v = v?;
                    st[base + *slot as usize] = v.clone();
                    if self.run_bool(pred, env, st, base)? {
                        out.push(v);
                    }
                }
                if let Value::Set(_) = s {
                    Value::Set(SetVal::from_sorted(out))
                } else {
                    Value::set(out)?
                }
            }
            Code::FunCons { slot, set, body, dom } => {
                // A constant domain is built once, at the first evaluation.
                let built;
                let d = match (&**set, dom.get()) {
                    (Code::Constness(..), Some(d)) => d,
                    (Code::Constness(..), None) => {
                        let _ = dom.set(self.run(set, env, st, base)?.to_set()?);
                        dom.get().ok_or_else(|| err(codes::UNKNOWN, "internal: no domain"))?
                    }
                    _ => {
                        built = self.run(set, env, st, base)?.to_set()?;
                        &built
                    }
                };
                let mut vals = Vec::with_capacity(d.len());
                for x in d.elems() {
                    st[base + *slot as usize] = x.clone();
                    vals.push(self.run(body, env, st, base)?);
                }
                Value::fcn_over(d, vals)?
            }
            Code::SetEnum(xs) => {
                let mut vals = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    vals.push(self.run(x, env, st, base)?);
                }
                Value::set(vals)?
            }
            Code::Tuple(xs) => {
                let mut vals = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    vals.push(self.run(x, env, st, base)?);
                }
                Value::tuple(vals)?
            }
            Code::Record(fs) => {
                let mut vals = Vec::with_capacity(fs.len());
                for (n, x) in fs.iter() {
                    vals.push((n.clone(), self.run(x, env, st, base)?));
                }
                Value::record(vals)?
            }
            Code::Except(b, ups) => {
                let mut f = self.run(b, env, st, base)?;
                for (path, at, v) in ups.iter() {
                    f = self.except_steps(&f, path, *at, v, env, st, base)?;
                }
                f
            }
            // A definition without parameters reads only the current state and constants (a
            // unit is pure and runs with no outer names): its value in this state is kept.
            Code::Call(u, args) if args.is_empty() => {
                let key = Rc::as_ptr(u) as usize;
                let keep = u.found.get() > 0 || u.kept.get() < 256;
                if keep && let Some(v) = self.state_memo_get(key) {
                    u.found.set(u.found.get().saturating_add(1));
                    return Ok(v);
                }
                let v = self.call_unit(u, st.len(), st)?;
                if keep {
                    u.kept.set(u.kept.get().saturating_add(1));
                    self.state_memo_put(key, v.clone());
                }
                v
            }
            Code::Call(u, args) => {
                // The arguments go straight into the callee's frame, on top of the stack.
                let b2 = st.len();
                for a in args.iter() {
                    match self.run(a, env, st, base) {
                        Ok(v) => st.push(v),
                        Err(e) => {
                            st.truncate(b2);
                            return Err(e);
                        }
                    }
                }
                self.call_unit(u, b2, st)?
            }
        })
    }

    /// Calls `f` with the value of `c`, borrowed where it is found (a slot, the state, a
    /// constant, a function or record found there): `f[a][b]`, `r.field`, `Len(s)` or `x \in S`
    /// then copy nothing on the way, where evaluating would clone each intermediate value.
    fn with_ref<R>(&self, c: &Code<'a>, env: &Env<'a>, st: &mut Vec<Value>, base: usize, f: &mut dyn FnMut(&Value) -> VResult<R>) -> VResult<R> {
        match c {
            Code::Lit(v) => f(v),
            Code::Constness(_, cell) => match cell.get() {
                Some(v) => f(v),
                None => f(&self.run(c, env, st, base)?),
            },
            Code::Local(s) => f(&st[base + *s as usize]),
            Code::Var(slot) => {
                let cur = self.frame.cur.borrow();
                f(cur.get(*slot).ok_or_else(|| err(codes::UNASSIGNED, "no state"))?)
            }
            Code::AppVar(slot, a) => {
                let a = self.run(a, env, st, base)?;
                let cur = self.frame.cur.borrow();
                f(cur.get(*slot).ok_or_else(|| err(codes::UNASSIGNED, "no state"))?.apply_ref(&a)?)
            }
            Code::App(g, a) => {
                let a = self.run(a, env, st, base)?;
                self.with_ref(g, env, st, base, &mut |g| f(g.apply_ref(&a)?))
            }
            Code::Field(r, name) => self.with_ref(r, env, st, base, &mut |r| f(r.field_ref(name)?)),
            Code::Path(root, keys) => {
                {
                    let cur = self.frame.cur.borrow();
                    if let Some(v) = peek(c, st, base, &cur) {
                        return f(v?);
                    }
                }
                // The root is a constant not computed yet, or a variable without a state.
                let root = self.run(root, env, st, base)?;
                let cur = self.frame.cur.borrow();
                f(follow(&root, keys, st, base, &cur)?)
            }
            _ => f(&self.run(c, env, st, base)?),
        }
    }

    /// Runs a unit in a frame of its own on top of the value stack from `b2`, where its
    /// arguments have been pushed.
    fn call_unit(&self, u: &Unit<'a>, b2: usize, st: &mut Vec<Value>) -> VResult<Value> {
        if let Err(e) = self.enter() {
            st.truncate(b2);
            return Err(e);
        }
        st.resize(b2 + u.slots as usize, Value::Bool(false));
        let r = self.run(&u.body, &Env::default(), st, b2);
        st.truncate(b2);
        self.leave();
        r
    }

    /// The value of the unit `key` kept for the current state, if any.
    fn state_memo_get(&self, key: usize) -> Option<Value> {
        let memo = self.caches.state_memo.borrow();
        if !std::sync::Arc::ptr_eq(&memo.0, &self.frame.cur.borrow()) {
            return None;
        }
        memo.1.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())
    }

    fn state_memo_put(&self, key: usize, v: Value) {
        let mut memo = self.caches.state_memo.borrow_mut();
        let cur = self.frame.cur.borrow();
        if !std::sync::Arc::ptr_eq(&memo.0, &cur) {
            memo.0 = cur.clone();
            memo.1.clear();
        }
        memo.1.push((key, v));
    }

    #[allow(clippy::too_many_arguments)]
    fn except_steps(&self, f: &Value, path: &[Step<'a>], at: u32, val: &Code<'a>, env: &Env<'a>, st: &mut Vec<Value>, base: usize) -> VResult<Value> {
        let Some((step, rest)) = path.split_first() else {
            st[base + at as usize] = f.clone();
            return self.run(val, env, st, base);
        };
        let key = match step {
            Step::Index(k) => self.run(k, env, st, base)?,
            Step::Field(s) => Value::Str(s.clone()),
        };
        // A key outside the domain leaves the function as it is.
        let Some(i) = f.index_of(&key)? else { return Ok(f.clone()) };
        let new = self.except_steps(crate::value::fcn_val_at(f, i), rest, at, val, env, st, base)?;
        f.except_at(i, new)
    }
}

/// Calls `f` on `e` and every subexpression (not into definitions).
pub(super) fn walk<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    let mut each = |x: &'a Expr| walk(x, f);
    match &*e.kind {
        ExprKind::Num(_) | ExprKind::Decimal(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::At | ExprKind::Error => {}
        ExprKind::OpApp { args, .. } => args.iter().for_each(&mut each),
        ExprKind::FunApp { fun, args } => {
            each(fun);
            args.iter().for_each(&mut each);
        }
        ExprKind::Field { record, .. } => each(record),
        ExprKind::Junction { items, .. } | ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => {
            items.iter().for_each(&mut each)
        }
        ExprKind::If { cond, then, els } => {
            each(cond);
            each(then);
            each(els);
        }
        ExprKind::Case { arms, other } => {
            for a in arms {
                each(&a.guard);
                each(&a.body);
            }
            if let Some(o) = other {
                each(o);
            }
        }
        ExprKind::Let { defs, body } => {
            for d in defs {
                match d {
                    LetDef::Op(od) => each(&od.body),
                    LetDef::Fun(fd) => {
                        for b in &fd.bounds {
                            if let Some(s) = &b.set {
                                each(s);
                            }
                        }
                        each(&fd.body);
                    }
                    _ => {}
                }
            }
            each(body);
        }
        ExprKind::Quant { bounds, body, .. } | ExprKind::SetMap { body, bounds } | ExprKind::FunCons { bounds, body } => {
            for b in bounds {
                if let Some(s) = &b.set {
                    each(s);
                }
            }
            each(body);
        }
        ExprKind::TemporalQuant { body, .. } => each(body),
        ExprKind::Choose { bound, body } | ExprKind::SetFilter { bound, pred: body } => {
            if let Some(s) = &bound.set {
                each(s);
            }
            each(body);
        }
        ExprKind::FunSet { domain, range } => {
            each(domain);
            each(range);
        }
        ExprKind::Record(fs) | ExprKind::RecordSet(fs) => fs.iter().for_each(|(_, x)| each(x)),
        ExprKind::Except { base, updates } => {
            each(base);
            for u in updates {
                for s in &u.path {
                    if let ExceptStep::Index(xs) = s {
                        xs.iter().for_each(&mut each);
                    }
                }
                each(&u.value);
            }
        }
        ExprKind::BoxAction { action, sub } | ExprKind::AngleAction { action, sub } => {
            each(action);
            each(sub);
        }
        ExprKind::Fair { sub, action, .. } => {
            each(sub);
            each(action);
        }
        ExprKind::Lambda { body, .. } => each(body),
        ExprKind::Label { body, .. } => each(body),
    }
}
