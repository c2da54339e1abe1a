//! Actions compiled once into a plan whose names are resolved to slots.
//!
//! The interpreter (`act`) enumerates an action by walking its formula at every state: it
//! finds what each name means, binds the arguments of each action it calls in an environment,
//! and looks up the compiled form of each guard it meets. For the actions of Next, this module
//! does that walk once per action, outside instances: a name bound by `\E`, by LET or as a
//! parameter of a called action becomes a slot of the value stack (in one frame: called
//! actions are inlined; a parameter whose argument is a name bound in the plan shares its
//! slot), a guard or the right side of `x' = e` becomes a compiled expression (see `compile`;
//! there `y'` reads the next state's `y`, an error until `y'` is assigned), `UNCHANGED <<x, y>>`
//! becomes a list of variables.
//!
//! A disjunction whose disjuncts begin with guards `K = "label"` on the same `K` (the labels
//! of a PlusCal process: `pc[self] = "label"`) reads `K` once and passes over the disjuncts
//! whose guard is then false (see `Keyed`). Disjuncts that begin with the same guard (as
//! `net[p] # << >>` begins each way to receive a message) read it once where it is false (see
//! `same_guards`); where it holds, those that go on with `LET m == Head(net[p]) IN m.type = v`
//! (the same `m`, each its own `v`) read `m.type` once and pass over the disjuncts whose guard
//! on it is then false (see `let_keyed`).
//!
//! The interpreter remains the reference semantics:
//! - anything the plan does not cover (instances, ENABLED, `[A]_v`, tuple patterns, operators
//!   passed as arguments, arguments passed by name, expressions that have an effect, ...) is a
//!   node the interpreter enumerates, with the names in scope bound to their slots;
//! - when the compiled part of a node fails (an evaluation error, a value of the wrong kind,
//!   an infinite set to enumerate), the interpreter enumerates that node instead, before the
//!   node has done anything, so its answer and its error stand;
//! - each node adds its span to an error that has none, as `act` does at each level, so an
//!   error raised by the rest of the action points at the same place.
//!
//! One difference is in cost only: the zero-argument definitions of a LET are computed when
//! the LET is entered, not when first used (a definition that fails sends the whole LET back
//! to the interpreter, which computes them lazily).
//!
//! Slots of names bound by a plan are never reused within it: the rest of the action (the
//! continuation) runs while the names bound before it are still live.

use std::rc::Rc;

use tla_syntax::ast::*;

use super::compile::{Code, CompileScope};
use super::{ConstEval, Env, StdOp, Global};
use crate::error::{VResult, ValueError};
use crate::intern::Str;
use crate::value::Value;

/// The compiled form of one action of Next.
pub(super) struct Plan<'a> {
    code: PlanNode<'a>,
    slots: u32,
}

/// One node of a plan: the formula it stands for and the names in scope there (with their
/// slots), which the interpreter is given when it takes the node over.
pub(super) struct PlanNode<'a> {
    e: &'a Expr,
    names: Rc<[(&'a str, u32)]>,
    kind: PlanStep<'a>,
    /// Whether enumerating the node may give more than one way (a disjunction, `\E`, a node
    /// the interpreter enumerates that may branch): only then can the conditions shortcut
    /// (`action::all_assigned`) change what it gives, so only then is it asked.
    branches: bool,
}

enum PlanStep<'a> {
    /// Enumerated by the interpreter.
    Interp,
    /// A formula without primes: the action goes on when it holds.
    Guard(Code<'a>),
    /// `x' = e`: assigns `x'`, or compares with it when already assigned.
    Assign(usize, Code<'a>),
    /// `x' \in S`.
    In(usize, Code<'a>),
    /// `UNCHANGED` of these variables, in this order.
    Unchanged(Box<[usize]>),
    And(Box<[PlanNode<'a>]>),
    /// A disjunction, with each disjunct's mark (`ConstEval::disjunct_mark`; empty: none
    /// begins an action) and, when several disjuncts begin with a guard `K = v` on the same
    /// `K`, their values `v` (see `keyed`), when several begin with the same guard, the
    /// first of those for each (see `same_guards`), and when several go on with
    /// `LET d == e IN d.f = v /\ ...` on the same `e`, their values `v` (see `let_keyed`).
    Or(Box<[PlanNode<'a>]>, Box<[u32]>, Option<Box<Keyed>>, Option<Box<[u32]>>, Option<Box<Keyed>>),
    If(Code<'a>, Box<PlanNode<'a>>, Box<PlanNode<'a>>),
    Case(Box<[(Code<'a>, PlanNode<'a>)]>, Option<Box<PlanNode<'a>>>),
    /// `P => A`: A when P holds, else the action goes on.
    Implies(Code<'a>, Box<PlanNode<'a>>),
    /// `\E x \in S, ... : A` (the names' slots and sets, as in `Code::Quant`).
    Exists(Box<[(u32, Code<'a>)]>, Box<PlanNode<'a>>),
    /// `\A x \in S, ... : A` whose instances may branch: the conjunction of the instances, in
    /// TLC's order (see `ConstEval::act`); the names' slots and sets as in `Exists`, and the
    /// whole formula compiled as a condition, when it can be: where it is false there is no
    /// way to satisfy it, and no instance is enumerated.
    ForAll(Box<[(u32, Code<'a>)]>, Box<PlanNode<'a>>, Option<Box<Code<'a>>>),
    /// A LET of zero-argument definitions (computed on entry into their slots), or a call of
    /// an action definition (its arguments computed into the slots of its parameters).
    Bind(Box<[(u32, Code<'a>)]>, Box<PlanNode<'a>>),
}

/// What enumerating (part of) an action says: go on (`Ok`), or stop, because of an error or
/// because the continuation asked to (`Err(stop())`). It is one word, returned in a register:
/// the interpreter's `VResult<bool>` (a tag, a flag and a pointer) is returned through memory
/// in pieces that stall the processor on every node.
type Flow = Result<(), ValueError>;

/// Continuation of a plan: the rest of the action, given the value stack.
type Continuation<'k> = dyn FnMut(&mut Vec<Value>) -> Flow + 'k;

const STOP: &str = "stop";

fn stop() -> ValueError {
    ValueError::new(STOP, "")
}

/// The interpreter's answer as a `Flow`.
fn flow(r: VResult<bool>) -> Flow {
    match r {
        Ok(true) => Ok(()),
        Ok(false) => Err(stop()),
        Err(e) => Err(e),
    }
}

/// A `Flow` as the interpreter's answer.
fn answer(f: Flow) -> VResult<bool> {
    match f {
        Ok(()) => Ok(true),
        Err(e) if e.code == STOP => Ok(false),
        Err(e) => Err(e),
    }
}

// A plan is compiled in the expressions' context (`CompileScope`), whose next free slot it only ever
// advances (see the module docs); an expression compiled in it binds its own names above and
// leaves it as it found it. Its `open` holds the action definitions being inlined.

/// The names in scope, for a node the interpreter may take over.
/// Whether the node only tests (guards, conjunctions, IF and `=>` of them, `\A` of them):
/// satisfied in exactly one way or in none, whatever the state.
fn only_conditions(n: &PlanNode<'_>) -> bool {
    match &n.kind {
        PlanStep::Guard(_) => true,
        PlanStep::And(items) => items.iter().all(only_conditions),
        PlanStep::If(_, t, f) => only_conditions(t) && only_conditions(f),
        PlanStep::Implies(_, body) | PlanStep::Bind(_, body) | PlanStep::ForAll(_, body, _) => only_conditions(body),
        _ => false,
    }
}

fn names<'a>(pcx: &CompileScope<'a>) -> Rc<[(&'a str, u32)]> {
    pcx.scope.as_slice().into()
}

/// Inlined action calls nested deeper than this are left to the interpreter.
const MAX_INLINE: usize = 32;

impl<'a> ConstEval<'a> {
    /// The plan of the action `a`, compiled on first use; `None`: the interpreter enumerates it.
    pub(super) fn plan(&self, a: &'a Expr) -> Option<Rc<Plan<'a>>> {
        if !self.code.compiling.get() || !self.frame.ctx.borrow().is_empty() || self.frame.cutoff.get() != 0 || self.frame.primed.get() || self.frame.init_mode.get() {
            return None;
        }
        let key = a as *const Expr as usize;
        if let Some(p) = self.code.plans.borrow().get(&key) {
            return p.clone();
        }
        let mut pcx = CompileScope::new();
        pcx.primes = true;
        let code = self.plan_node(a, &mut pcx);
        let p = if matches!(code.kind, PlanStep::Interp) { None } else { Some(Rc::new(Plan { code, slots: pcx.max })) };
        self.code.plans.borrow_mut().insert(key, p.clone());
        p
    }

    /// Every successor by the plan `p` (as `act` would enumerate its action), each passed to `k`.
    pub(super) fn run_plan(&self, p: &Plan<'a>, k: &mut dyn FnMut() -> VResult<bool>) -> VResult<bool> {
        let mut st = std::mem::take(&mut *self.code.stack.borrow_mut());
        st.clear();
        st.resize(p.slots as usize, Value::Bool(false));
        let r = answer(self.run_node(&p.code, &mut st, &mut |_| flow(k())));
        st.clear();
        *self.code.stack.borrow_mut() = st;
        r
    }

    /// The actions the disjuncts `items` begin (empty when none begins one).
    fn or_marks(&self, items: &[PlanNode<'a>]) -> Box<[u32]> {
        let marks: Box<[u32]> = items.iter().map(|n| self.disjunct_mark(n.e)).collect();
        if marks.iter().all(|&m| m == super::action::NO_MARK) { Box::new([]) } else { marks }
    }

    /// A node the interpreter enumerates.
    fn interp_node(&self, e: &'a Expr, pcx: &CompileScope<'a>) -> PlanNode<'a> {
        PlanNode { branches: false, e, names: names(pcx), kind: PlanStep::Interp }
    }

    /// `e` compiled as an expression in the plan's scope, when it reads no next state and has
    /// no effect.
    fn plan_expr(&self, e: &'a Expr, pcx: &mut CompileScope<'a>) -> Option<Code<'a>> {
        if !self.pure_walk(e, 0, true) {
            return None;
        }
        Some(self.comp(e, pcx, &Env::default()))
    }

    fn guard_node(&self, e: &'a Expr, pcx: &mut CompileScope<'a>) -> PlanNode<'a> {
        match self.plan_expr(e, pcx) {
            Some(c) => PlanNode { branches: false, e, names: names(pcx), kind: PlanStep::Guard(c) },
            None => self.interp_node(e, pcx),
        }
    }

    fn plan_node(&self, e: &'a Expr, pcx: &mut CompileScope<'a>) -> PlanNode<'a> {
        let mut n = self.plan_node_kind(e, pcx);
        n.branches = match &n.kind {
            PlanStep::Interp => self.may_branch(n.e, 0),
            PlanStep::Guard(_) | PlanStep::Assign(..) | PlanStep::In(..) | PlanStep::Unchanged(_) => false,
            PlanStep::Or(..) | PlanStep::Exists(..) => true,
            PlanStep::ForAll(_, body, _) => body.branches,
            PlanStep::And(items) => items.iter().any(|x| x.branches),
            PlanStep::If(_, t, f) => t.branches || f.branches,
            PlanStep::Case(arms, other) => arms.iter().any(|(_, x)| x.branches) || other.as_ref().is_some_and(|x| x.branches),
            PlanStep::Implies(_, body) | PlanStep::Bind(_, body) => body.branches,
        };
        n
    }

    fn plan_node_kind(&self, e: &'a Expr, pcx: &mut CompileScope<'a>) -> PlanNode<'a> {
        match &*e.kind {
            ExprKind::Junction { kind: JunctionKind::And, items, .. } => {
                let names = names(pcx);
                let items = items.iter().map(|x| self.plan_node(x, pcx)).collect();
                PlanNode { branches: false, e, names, kind: PlanStep::And(items) }
            }
            ExprKind::Junction { kind: JunctionKind::Or, items, .. } => {
                let names = names(pcx);
                let items: Box<[PlanNode<'a>]> = items.iter().map(|x| self.plan_node(x, pcx)).collect();
                let marks = self.or_marks(&items);
                let keyed = keyed(&items);
                let same = same_guards(&items);
                let let_keyed = let_keyed(&items, same.as_deref());
                PlanNode { branches: false, e, names, kind: PlanStep::Or(items, marks, keyed, same, let_keyed) }
            }
            ExprKind::Label { body, .. } => {
                let names = names(pcx);
                let body = self.plan_node(body, pcx);
                PlanNode { branches: false, e, names, kind: PlanStep::And(Box::new([body])) }
            }
            ExprKind::If { cond, then, els } => {
                let names = names(pcx);
                let Some(c) = self.plan_expr(cond, pcx) else { return self.interp_node(e, pcx) };
                let t = self.plan_node(then, pcx);
                let f = self.plan_node(els, pcx);
                PlanNode { branches: false, e, names, kind: PlanStep::If(c, Box::new(t), Box::new(f)) }
            }
            ExprKind::Case { arms, other } => {
                let names = names(pcx);
                let mut out = Vec::new();
                for arm in arms {
                    let Some(g) = self.plan_expr(&arm.guard, pcx) else { return self.interp_node(e, pcx) };
                    out.push((g, self.plan_node(&arm.body, pcx)));
                }
                let other = other.as_ref().map(|o| Box::new(self.plan_node(o, pcx)));
                PlanNode { branches: false, e, names, kind: PlanStep::Case(out.into(), other) }
            }
            // A LET definition whose body branches, used as an action: TLC enumerates its body
            // there (a LazyValue not yet computed, in Tool.getNextStates), so the interpreter
            // takes the LET (`act_op` enumerates a LET definition's body).
            ExprKind::Let { defs, body }
                if defs.iter().any(|d| {
                    matches!(d, LetDef::Op(od) if od.params.is_empty()
                        && self.may_branch(&od.body, 0)
                        && (used_as_action(&od.name.name, body) || defs.iter().any(|o| matches!(o, LetDef::Op(x) if used_as_action(&od.name.name, &x.body)))))
                }) =>
            {
                self.interp_node(e, pcx)
            }
            ExprKind::Let { defs, body } => {
                let names = names(pcx);
                let mark = pcx.scope.len();
                let mut slots = Vec::new();
                for d in defs {
                    let LetDef::Op(od) = d else {
                        pcx.scope.truncate(mark);
                        return self.interp_node(e, pcx);
                    };
                    if !od.params.is_empty() {
                        pcx.scope.truncate(mark);
                        return self.interp_node(e, pcx);
                    }
                    let Some(c) = self.plan_expr(&od.body, pcx) else {
                        pcx.scope.truncate(mark);
                        return self.interp_node(e, pcx);
                    };
                    slots.push((pcx.bind(od.name.name.as_str()), c));
                }
                let body = self.plan_node(body, pcx);
                pcx.scope.truncate(mark);
                PlanNode { branches: false, e, names, kind: PlanStep::Bind(slots.into(), Box::new(body)) }
            }
            ExprKind::Quant { kind: kind @ (QuantKind::Exists | QuantKind::Forall), bounds, body }
                if *kind == QuantKind::Exists || self.may_branch(body, 0) =>
            {
                let names = names(pcx);
                let mark = pcx.scope.len();
                let mut sets = Vec::new();
                for b in bounds {
                    let (BoundVars::Names(ns), Some(s)) = (&b.vars, &b.set) else { return self.interp_node(e, pcx) };
                    let Some(c) = self.plan_expr(s, pcx) else { return self.interp_node(e, pcx) };
                    sets.push((ns, c));
                }
                let mut slots = Vec::new();
                for (ns, set) in sets {
                    // Each name of `x, y \in S` ranges over S, evaluated once (see `bound_values`).
                    let mut set = Some(set);
                    for n in ns.iter() {
                        let s = set.take().unwrap_or(Code::Local(u32::MAX));
                        slots.push((pcx.bind(n.name.as_str()), s));
                    }
                }
                let body = Box::new(self.plan_node(body, pcx));
                pcx.scope.truncate(mark);
                let kind = if *kind == QuantKind::Exists {
                    PlanStep::Exists(slots.into(), body)
                } else {
                    let whole = self.plan_expr(e, pcx);
                    match whole {
                        // Each instance is satisfied in one way or none, so the `\A` in one
                        // way or none: a condition, as the whole formula compiled.
                        Some(c) if only_conditions(&body) => PlanStep::Guard(c),
                        whole => PlanStep::ForAll(slots.into(), body, whole.map(Box::new)),
                    }
                };
                PlanNode { branches: false, e, names, kind }
            }
            ExprKind::OpApp { op, args } if op.path.is_empty() => self.plan_op(e, op, args, pcx),
            ExprKind::BoxAction { .. } | ExprKind::AngleAction { .. } | ExprKind::OpApp { .. } => self.interp_node(e, pcx),
            // `f[a]` of a function definition whose body branches: enumerated as its body, as
            // TLC does (see `action::act_inner`).
            ExprKind::FunApp { .. } if self.may_branch(e, 0) => self.interp_node(e, pcx),
            _ => self.guard_node(e, pcx),
        }
    }

    /// The variable of `x'`, for a state variable `x` not bound in the plan.
    fn primed_var(&self, e: &'a Expr, pcx: &CompileScope<'a>) -> Option<usize> {
        let ExprKind::OpApp { op, args } = &*e.kind else { return None };
        if !op.path.is_empty() || op.name != "'" || args.len() != 1 {
            return None;
        }
        let (name, slot) = self.primed_var_name(&args[0])?;
        if pcx.scope.iter().any(|(n, _)| *n == name) { None } else { Some(slot) }
    }

    /// The variables `UNCHANGED e` keeps, in `act_unchanged`'s order, when `e` is made of
    /// variables, tuples and zero-argument definitions only.
    fn unchanged_vars(&self, e: &'a Expr, bound: &[(&'a str, u32)], out: &mut Vec<usize>, depth: u32) -> bool {
        if depth > 16 {
            return false;
        }
        match &*e.kind {
            ExprKind::Tuple(items) => items.iter().all(|x| self.unchanged_vars(x, bound, out, depth + 1)),
            ExprKind::OpApp { op, args } if op.path.is_empty() && args.is_empty() && !bound.iter().any(|(n, _)| *n == op.name.as_str()) => {
                let name = op.name.as_str();
                if let Some(&slot) = self.program.vars.get(name) {
                    out.push(slot);
                    return true;
                }
                match self.global(name) {
                    Some(Global::Op(d)) if d.params.is_empty() => self.unchanged_vars(&d.body, &[], out, depth + 1),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    fn plan_op(&self, e: &'a Expr, op: &'a OpName, args: &'a [Expr], pcx: &mut CompileScope<'a>) -> PlanNode<'a> {
        let name = op.name.as_str();
        match (name, args.len()) {
            ("/\\", 2) => {
                let names = names(pcx);
                let items = args.iter().map(|x| self.plan_node(x, pcx)).collect();
                return PlanNode { branches: false, e, names, kind: PlanStep::And(items) };
            }
            ("\\/", 2) => {
                let names = names(pcx);
                let items: Box<[PlanNode<'a>]> = args.iter().map(|x| self.plan_node(x, pcx)).collect();
                let marks = self.or_marks(&items);
                let keyed = keyed(&items);
                let same = same_guards(&items);
                let let_keyed = let_keyed(&items, same.as_deref());
                return PlanNode { branches: false, e, names, kind: PlanStep::Or(items, marks, keyed, same, let_keyed) };
            }
            ("=", 2) | ("\\in", 2) => {
                let Some(var) = self.primed_var(&args[0], pcx) else { return self.guard_node(e, pcx) };
                let Some(c) = self.plan_expr(&args[1], pcx) else { return self.interp_node(e, pcx) };
                let kind = if name == "=" { PlanStep::Assign(var, c) } else { PlanStep::In(var, c) };
                return PlanNode { branches: false, e, names: names(pcx), kind };
            }
            ("UNCHANGED", 1) => {
                let mut vars = Vec::new();
                if !self.unchanged_vars(&args[0], &pcx.scope, &mut vars, 0) {
                    return self.interp_node(e, pcx);
                }
                return PlanNode { branches: false, e, names: names(pcx), kind: PlanStep::Unchanged(vars.into()) };
            }
            ("=>", 2) => {
                let names = names(pcx);
                let Some(c) = self.plan_expr(&args[0], pcx) else { return self.interp_node(e, pcx) };
                let body = self.plan_node(&args[1], pcx);
                return PlanNode { branches: false, e, names, kind: PlanStep::Implies(c, Box::new(body)) };
            }
            // Action composition changes the current state mid-action: `act_composed`.
            ("\\cdot", 2) => return self.interp_node(e, pcx),
            _ => {}
        }
        // A name bound in the plan or a variable: a value, hence a guard (as in `act_op`).
        if pcx.scope.iter().any(|(n, _)| *n == name) || self.program.vars.contains_key(name) {
            return self.guard_node(e, pcx);
        }
        let Some(Global::Op(d)) = self.global(name) else { return self.guard_node(e, pcx) };
        // A call of an action definition: inlined, its arguments computed into its parameters'
        // slots. The interpreter takes calls with a wrong number of arguments (its error),
        // operator parameters, arguments passed by name (action-level, or mentioning a variable
        // where the parameter is primed: see `action_arg`), and recursion.
        let key = d as *const OpDef;
        if d.params.len() != args.len()
            || d.params.iter().any(|p| p.arity > 0)
            || pcx.open.contains(&key)
            || pcx.open.len() >= MAX_INLINE
            || args.iter().any(|a| self.may_be_action(a))
            || d.params.iter().zip(args).enumerate().any(|(i, (p, a))| {
                self.primes_param(&d.body, &p.name.name, i) && self.mentions_var(a, &Env::default())
            })
        {
            return self.interp_node(e, pcx);
        }
        let names = names(pcx);
        let first = pcx.next;
        pcx.next += args.len() as u32;
        pcx.max = pcx.max.max(pcx.next);
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            let Some(c) = self.plan_expr(a, pcx) else { return self.interp_node(e, pcx) };
            vals.push(c);
        }
        // The body sees its parameters only (a module definition has no other scope). Their
        // slots were reserved before the arguments were compiled: an argument computed after
        // the first is stored does not overwrite it with a name of its own.
        // A parameter whose argument is a name bound in the plan reads that name's slot: its
        // value stays there while the body runs (slots are never reused within a plan), so
        // it is not copied.
        let outer = std::mem::replace(&mut pcx.scope, Vec::new());
        let mut slots = Vec::with_capacity(args.len());
        for ((p, c), s) in d.params.iter().zip(vals).zip(first..) {
            match c {
                Code::Local(b) if b != u32::MAX => pcx.scope.push((p.name.name.as_str(), b)),
                c => {
                    pcx.scope.push((p.name.name.as_str(), s));
                    slots.push((s, c));
                }
            }
        }
        pcx.open.push(key);
        let body = self.plan_node(&d.body, pcx);
        pcx.open.pop();
        pcx.scope = outer;
        PlanNode { branches: false, e, names, kind: PlanStep::Bind(slots.into(), Box::new(body)) }
    }

    #[inline]
    fn run_node(&self, n: &PlanNode<'a>, st: &mut Vec<Value>, k: &mut Continuation<'_>) -> Flow {
        self.at_node(n, || self.run_kind(n, st, k))
    }

    /// `f` one level deeper, its error placed at `n` unless placed already (as `act` does).
    #[inline]
    fn at_node(&self, n: &PlanNode<'a>, f: impl FnOnce() -> Flow) -> Flow {
        self.enter().map_err(|x| x.at(n.e.span))?;
        let r = f().map_err(|x| x.at(n.e.span));
        self.leave();
        r
    }

    /// The interpreter enumerates `n`, with the names in scope bound to their slots.
    fn run_interp(&self, n: &PlanNode<'a>, st: &mut Vec<Value>, k: &mut Continuation<'_>) -> Flow {
        let mut env = Env::default();
        for (name, s) in n.names.iter() {
            env = env.bind_value(name, st[*s as usize].clone());
        }
        flow(self.act(n.e, &env, &mut || answer(k(st))))
    }

    /// The conjuncts `items`, then `k`. Guards that hold are passed over in a loop rather than
    /// each through a continuation; an error from what follows them takes the span of the
    /// last, as when each passes the rest to its continuation (`at` keeps the first span set).
    fn run_conj(&self, items: &[PlanNode<'a>], st: &mut Vec<Value>, k: &mut Continuation<'_>) -> Flow {
        self.run_conj_from(items, st, k, false)
    }

    /// `run_conj`, `pending` when the first of `items` is not the first of its conjunction:
    /// once every variable has its value, the conjuncts still to come are conditions (see
    /// `action::all_assigned`). Guards are conditions already, so the question is asked only
    /// before a conjunct of another kind.
    fn run_conj_from(&self, items: &[PlanNode<'a>], st: &mut Vec<Value>, k: &mut Continuation<'_>, mut pending: bool) -> Flow {
        let mut items = items;
        let mut passed: Option<&PlanNode<'a>> = None;
        let r = loop {
            match items.split_first() {
                None => break k(st),
                Some((first, rest)) => {
                    if let PlanStep::Guard(c) = &first.kind {
                        match self.run_bool(c, &Env::default(), st, 0) {
                            Ok(true) => {
                                passed = Some(first);
                                items = rest;
                                pending = true;
                                continue;
                            }
                            Ok(false) => return Ok(()),
                            // The interpreter takes the guard over (as in `run_kind`).
                            Err(_) => break self.at_node(first, || self.run_interp(first, st, &mut |st| self.run_conj_from(rest, st, k, true))),
                        }
                    }
                    if pending && first.branches && self.all_assigned() {
                        break self.run_conditions(items, st, k);
                    }
                    break self.run_node(first, st, &mut |st| self.run_conj_from(rest, st, k, true));
                }
            }
        };
        match passed {
            Some(g) => r.map_err(|x| x.at(g.e.span)),
            None => r,
        }
    }

    /// A `\A` whose instances may branch (see `PlanStep::ForAll`).
    #[inline(never)]
    fn run_forall(
        &self,
        n: &PlanNode<'a>,
        slots: &[(u32, Code<'a>)],
        body: &PlanNode<'a>,
        whole: Option<&Code<'a>>,
        st: &mut Vec<Value>,
        k: &mut Continuation<'_>,
    ) -> Flow {
        let env = Env::default();
        let sets = match self.bound_values(slots, &env, st, 0) {
            Ok(sets) => sets,
            Err(_) => return self.run_interp(n, st, k),
        };
        if sets.iter().any(|s| s.is_infinite()) {
            return self.run_interp(n, st, k);
        }
        // A body that assigns nothing leaves the partial state as it found it, whichever way it
        // is satisfied: the ways are counted with the compiled conditions (stopping at the
        // first instance that does not hold) and the rest of the action runs once for each, as
        // TLC's enumeration would run it.
        if let Some(ways) = self.forall_ways(slots, body, &sets, st) {
            for _ in 0..ways {
                k(st)?;
            }
            return Ok(());
        }
        // Otherwise the instances are enumerated, unless the formula, compiled as a condition,
        // is false. Their values (one row of `slots.len()` a binding) in enumeration order;
        // TLC takes the first, then the others from the last to the second.
        if let Some(c) = whole
            && let Ok(false) = self.run_bool(c, &env, st, 0)
        {
            return Ok(());
        }
        let width = slots.len();
        let mut rows: Vec<Value> = Vec::new();
        flow(self.bind_each(slots, &sets, width, st, 0, &mut |_, st| {
            rows.extend(slots.iter().map(|(s, _)| st[*s as usize].clone()));
            Ok(true)
        }))?;
        let mut order: Vec<usize> = (0..rows.len() / width.max(1)).collect();
        if order.len() > 2 {
            order[1..].reverse();
        }
        self.run_instances(slots, body, &rows, &order, st, k, false)
    }

    /// The number of ways `\A` over `sets` is satisfied, counted as TLC enumerates it (the
    /// product over instances of each instance's ways), when the body assigns nothing and every
    /// part of it can be counted with compiled code; `None` otherwise (the instances are then
    /// enumerated). `Some(0)` when some instance does not hold.
    fn forall_ways(&self, slots: &[(u32, Code<'a>)], body: &PlanNode<'a>, sets: &super::compile::BoundSets, st: &mut Vec<Value>) -> Option<u64> {
        let mut total: u64 = 1;
        let mut failed = false;
        let r = self.bind_each(slots, sets, slots.len(), st, 0, &mut |me, st| match me.ways(body, st) {
            Some(w) => {
                total = total.saturating_mul(w);
                Ok(total != 0)
            }
            None => {
                failed = true;
                Ok(false)
            }
        });
        match r {
            Ok(_) if !failed => Some(total),
            _ => None,
        }
    }

    /// The number of ways the node is satisfied where it assigns nothing (see `forall_ways`).
    fn ways(&self, n: &PlanNode<'a>, st: &mut Vec<Value>) -> Option<u64> {
        let env = Env::default();
        let holds = |c: &Code<'a>, st: &mut Vec<Value>| self.run_bool(c, &env, st, 0).ok();
        match &n.kind {
            PlanStep::Guard(c) => holds(c, st).map(u64::from),
            PlanStep::And(items) => {
                let mut w: u64 = 1;
                for it in items.iter() {
                    w = w.saturating_mul(self.ways(it, st)?);
                    if w == 0 {
                        return Some(0);
                    }
                }
                Some(w)
            }
            PlanStep::Or(items, marks, ..) if marks.iter().all(|m| *m == super::action::NO_MARK) => {
                let mut w: u64 = 0;
                for it in items.iter() {
                    w = w.saturating_add(self.ways(it, st)?);
                }
                Some(w)
            }
            PlanStep::If(c, t, f) => {
                if holds(c, st)? { self.ways(t, st) } else { self.ways(f, st) }
            }
            PlanStep::Implies(c, body) => {
                if holds(c, st)? { self.ways(body, st) } else { Some(1) }
            }
            PlanStep::Exists(slots, body) | PlanStep::ForAll(slots, body, _) => {
                let sets = self.bound_values(slots, &env, st, 0).ok()?;
                if sets.iter().any(|s| s.is_infinite()) {
                    return None;
                }
                let exists = matches!(n.kind, PlanStep::Exists(..));
                let mut w: u64 = if exists { 0 } else { 1 };
                let mut failed = false;
                let _ = self.bind_each(slots, &sets, slots.len(), st, 0, &mut |me, st| match me.ways(body, st) {
                    Some(x) => {
                        w = if exists { w.saturating_add(x) } else { w.saturating_mul(x) };
                        Ok(exists || w != 0)
                    }
                    None => {
                        failed = true;
                        Ok(false)
                    }
                });
                (!failed).then_some(w)
            }
            PlanStep::Bind(slots, body) => {
                for (s, c) in slots.iter() {
                    st[*s as usize] = self.run(c, &env, st, 0).ok()?;
                }
                self.ways(body, st)
            }
            _ => None,
        }
    }

    /// The instances `order` (rows of `rows`) of a `\A`'s body, as a conjunction (`pending` as
    /// in `run_conj_from`). A continuation that binds the slots to a later instance puts the
    /// earlier values back when it returns, for the branches of the earlier instance still to
    /// come.
    #[allow(clippy::too_many_arguments)]
    fn run_instances(
        &self,
        slots: &[(u32, Code<'a>)],
        body: &PlanNode<'a>,
        rows: &[Value],
        order: &[usize],
        st: &mut Vec<Value>,
        k: &mut Continuation<'_>,
        pending: bool,
    ) -> Flow {
        let width = slots.len();
        let bind = |st: &mut Vec<Value>, row: usize| {
            for (i, (s, _)) in slots.iter().enumerate() {
                st[*s as usize] = rows[row * width + i].clone();
            }
        };
        match order.split_first() {
            None => k(st),
            Some(_) if pending && body.branches && self.all_assigned() => {
                for &row in order {
                    bind(st, row);
                    if !self.node_holds(body, st)? {
                        return Ok(());
                    }
                }
                k(st)
            }
            Some((&first, rest)) => {
                bind(st, first);
                self.run_node(body, st, &mut |st| {
                    let r = self.run_instances(slots, body, rows, rest, st, k, true);
                    bind(st, first);
                    r
                })
            }
        }
    }

    /// Conjuncts read as conditions, then `k` (see `run_conj_from`).
    #[cold]
    #[inline(never)]
    fn run_conditions(&self, items: &[PlanNode<'a>], st: &mut Vec<Value>, k: &mut Continuation<'_>) -> Flow {
        for n in items {
            let holds = match &n.kind {
                PlanStep::Guard(c) => match self.run_bool(c, &Env::default(), st, 0) {
                    Ok(b) => b,
                    Err(_) => self.node_holds(n, st)?,
                },
                _ => self.node_holds(n, st)?,
            };
            if !holds {
                return Ok(());
            }
        }
        k(st)
    }

    /// The interpreter's value of the node's formula, with the names in scope bound to their
    /// slots (as `run_interp` binds them).
    fn node_holds(&self, n: &PlanNode<'a>, st: &[Value]) -> Result<bool, ValueError> {
        let mut env = Env::default();
        for (name, s) in n.names.iter() {
            env = env.bind_value(name, st[*s as usize].clone());
        }
        self.condition(n.e, &env)
    }

    fn run_unchanged(&self, vars: &[usize], st: &mut Vec<Value>, k: &mut Continuation<'_>) -> Flow {
        match vars.split_first() {
            None => k(st),
            Some((&slot, rest)) => {
                let v = self.read_var(slot)?;
                flow(self.assign(super::action::VarRef::Slot(slot), v, &mut || answer(self.run_unchanged(rest, st, k))))
            }
        }
    }

    fn run_kind(&self, n: &PlanNode<'a>, st: &mut Vec<Value>, k: &mut Continuation<'_>) -> Flow {
        let env = Env::default();
        match &n.kind {
            PlanStep::Interp => self.run_interp(n, st, k),
            PlanStep::Guard(c) => match self.run_bool(c, &env, st, 0) {
                Ok(true) => k(st),
                Ok(false) => Ok(()),
                Err(_) => self.run_interp(n, st, k),
            },
            PlanStep::Assign(var, c) => match self.run(c, &env, st, 0) {
                Ok(v) => flow(self.assign(super::action::VarRef::Slot(*var), v, &mut || answer(k(st)))),
                Err(_) => self.run_interp(n, st, k),
            },
            PlanStep::In(var, c) => {
                if self.frame.next.borrow()[*var].is_some() {
                    return self.run_interp(n, st, k);
                }
                let set = match self.run(c, &env, st, 0) {
                    Ok(Value::Lazy(l)) if !l.is_finite() => return self.run_interp(n, st, k),
                    Ok(s) => s,
                    Err(_) => return self.run_interp(n, st, k),
                };
                for v in set.elements()? {
                    flow(self.assign(super::action::VarRef::Slot(*var), v?, &mut || answer(k(st))))?;
                }
                Ok(())
            }
            PlanStep::Unchanged(vars) => self.run_unchanged(vars, st, k),
            PlanStep::And(items) => self.run_conj(items, st, k),
            PlanStep::Or(items, marks, keyed, same, let_keyed) => {
                // The value of the guards' common K, when it is read in place as a string or
                // an integer: a disjunct whose first guard compares it with another such value
                // is false there, with no effect and no error, and is passed over.
                let key = keyed.as_ref().and_then(|kd| {
                    let (k, _) = lead(&items[kd.from as usize])?;
                    match super::compile::peek(k, st, 0, &self.frame.cur.borrow())? {
                        Ok(v) => Some((kd, Scalar::of(v)?)),
                        Err(_) => None,
                    }
                });
                // The disjuncts (of the first 64) whose first guard was found false here. A
                // guard reads only the state, the next state as assigned before the
                // disjunction and names bound before it, which are the same for every
                // disjunct: where it is false for one, it is false for the others.
                let mut falsified = 0u64;
                // Those whose first guard was found true here.
                let mut held = 0u64;
                // The value of `d.f` of the disjuncts `let_keyed` knows (computed once, when a
                // disjunct first needs it): None when not computed yet, Some(None) when it
                // failed or is not such a value.
                let mut let_key: Option<Option<Scalar>> = None;
                for (i, it) in items.iter().enumerate() {
                    if let Some((kd, key)) = &key
                        && let Some(v) = &kd.values[i]
                        && key.differs(v)
                    {
                        continue;
                    }
                    if let Some(same) = same
                        && let Some(&first) = same.get(i)
                        && first != NO_GUARD
                    {
                        if first as usize != i {
                            if falsified & (1 << first) != 0 {
                                continue;
                            }
                        } else if let Some(g) = first_guard(it) {
                            match self.run_bool(g, &env, st, 0) {
                                Ok(false) => {
                                    falsified |= 1 << i;
                                    continue;
                                }
                                Ok(true) => held |= 1 << i,
                                Err(_) => {}
                            }
                        }
                        // The disjunct's first guard holds, so that its `d.f = v` comes next
                        // (see `let_keyed`): passed over where `d.f` is another value.
                        if held & (1 << first) != 0
                            && let Some(lk) = let_keyed
                            && let Some(v) = &lk.values[i]
                        {
                            let key = let_key.get_or_insert_with(|| self.let_key(&items[lk.from as usize], st));
                            if key.as_ref().is_some_and(|k| k.differs(v)) {
                                continue;
                            }
                        }
                    }
                    let whole = self.enter_marked(marks.get(i).copied().unwrap_or(super::action::NO_MARK));
                    let r = self.run_node(it, st, k);
                    self.leave_action(whole);
                    r?;
                }
                Ok(())
            }
            PlanStep::If(c, t, f) => match self.run(c, &env, st, 0) {
                Ok(Value::Bool(b)) => self.run_node(if b { t } else { f }, st, k),
                _ => self.run_interp(n, st, k),
            },
            PlanStep::Case(arms, other) => {
                for (g, body) in arms.iter() {
                    match self.run(g, &env, st, 0) {
                        Ok(Value::Bool(true)) => return self.run_node(body, st, k),
                        Ok(Value::Bool(false)) => {}
                        _ => return self.run_interp(n, st, k),
                    }
                }
                match other {
                    Some(o) => self.run_node(o, st, k),
                    None => self.run_interp(n, st, k),
                }
            }
            PlanStep::Implies(c, body) => match self.run(c, &env, st, 0) {
                Ok(Value::Bool(true)) => self.run_node(body, st, k),
                Ok(Value::Bool(false)) => k(st),
                _ => self.run_interp(n, st, k),
            },
            PlanStep::Exists(slots, body) => {
                let sets = match self.bound_values(slots, &env, st, 0) {
                    Ok(sets) => sets,
                    Err(_) => return self.run_interp(n, st, k),
                };
                if sets.iter().any(|s| s.is_infinite()) {
                    return self.run_interp(n, st, k);
                }
                flow(self.bind_each(slots, &sets, slots.len(), st, 0, &mut |me, st| answer(me.run_node(body, st, k))))
            }
            PlanStep::ForAll(slots, body, whole) => self.run_forall(n, slots, body, whole.as_deref(), st, k),
            PlanStep::Bind(slots, body) => {
                for (s, c) in slots.iter() {
                    match self.run(c, &env, st, 0) {
                        Ok(v) => st[*s as usize] = v,
                        Err(_) => return self.run_interp(n, st, k),
                    }
                }
                self.run_node(body, st, k)
            }
        }
    }

    /// `d.f...` of the disjunct `n` (see `let_lead`), computed as its LET computes `d`, when
    /// that gives a string or an integer without error.
    fn let_key(&self, n: &PlanNode<'a>, st: &mut Vec<Value>) -> Option<Scalar> {
        let (_, def, keys, _) = let_lead(n)?;
        let d = self.run(def, &Env::default(), st, 0).ok()?;
        let cur = self.frame.cur.borrow();
        let v = super::compile::follow(&d, keys, st, 0, &cur).ok()?;
        Scalar::of(v)
    }
}

/// The disjunct `n` when it is `g /\ LET d == e ... IN (d.f... = v /\ ...)` (through calls
/// whose arguments are bound names), `g` a guard, `d` the LET's first definition, `v` a literal
/// and the path after `d` made of fields and literals: `(g, e, the path, v)`.
fn let_lead<'n, 'a>(n: &'n PlanNode<'a>) -> Option<(&'n Code<'a>, &'n Code<'a>, &'n [super::compile::Key], &'n Value)> {
    use super::compile::Key;
    match &n.kind {
        PlanStep::Bind(slots, body) if slots.is_empty() => let_lead(body),
        PlanStep::And(items) => {
            let [first, second, ..] = &**items else { return None };
            let PlanStep::Guard(g) = &first.kind else { return None };
            let PlanStep::Bind(slots, body) = &second.kind else { return None };
            let (d, e) = slots.first()?;
            let Code::Bin(StdOp::Eq, a, b) = first_guard(body)? else { return None };
            let (k, v) = match (&**a, &**b) {
                (Code::Lit(_), Code::Lit(_)) => return None,
                (k, Code::Lit(v)) | (Code::Lit(v), k) => (k, v),
                _ => return None,
            };
            let Code::Path(root, keys) = k else { return None };
            let (Code::Local(r), true) = (&**root, keys.iter().all(|k| matches!(k, Key::Field(_) | Key::Lit(_)))) else { return None };
            (r == d).then_some((g, e, &**keys, v))
        }
        _ => None,
    }
}

/// The disjuncts of `items` that go on from the same first guard (`same`) with a LET whose
/// first definition `d` is the same expression, and whose body begins with `d.f = v` on the
/// same path (the ways to receive a message, each for its own `m.type`), if there are two
/// or more. Where that guard holds, each computes the same `d` and reads the same `d.f`, with
/// nothing before it that could fail or have an effect; a disjunct whose `v` is another value
/// of the kind of `d.f` then has a false guard and is passed over (as `keyed`), where `d.f`
/// is read without error. Where `d` fails, none is passed over.
fn let_keyed(items: &[PlanNode<'_>], same: Option<&[u32]>) -> Option<Box<Keyed>> {
    use super::compile::{Key, same_c};
    let same = same?;
    let leads: Vec<_> = items.iter().take(same.len()).map(let_lead).collect();
    let from = leads.iter().position(|l| l.is_some())?;
    let (g, e, keys, _) = leads[from]?;
    let same_keys = |ks: &[Key]| {
        ks.len() == keys.len()
            && ks.iter().zip(keys).all(|(a, b)| match (a, b) {
                (Key::Field(x), Key::Field(y)) => x.same(y),
                (Key::Lit(x), Key::Lit(y)) => crate::value::identical(x, y),
                _ => false,
            })
    };
    let values: Box<[Option<Scalar>]> = leads
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (h, f, ks, v) = (*l)?;
            if same[i] != same[from] || same[i] == NO_GUARD || !same_c(g, h) || !same_c(e, f) || !same_keys(ks) {
                return None;
            }
            Scalar::of(v)
        })
        .collect();
    if values.iter().filter(|v| v.is_some()).count() < 2 {
        return None;
    }
    Some(Box::new(Keyed { from: from as u32, values }))
}

/// The first guard of the disjunct `n` (see `first_guard`), when it is `K = v` (or `v = K`)
/// with `v` a literal: `(K, v)`.
fn lead<'n, 'a>(n: &'n PlanNode<'a>) -> Option<(&'n Code<'a>, &'n Value)> {
    let Code::Bin(StdOp::Eq, a, b) = first_guard(n)? else { return None };
    match (&**a, &**b) {
        (Code::Lit(_), Code::Lit(_)) => None,
        (k, Code::Lit(v)) | (Code::Lit(v), k) => Some((k, v)),
        _ => None,
    }
}

/// `a` and `b` are the same variable, bound name, or path of applications and fields from
/// one (`same_c`): they have the same value wherever both are read, and `peek` reads it in
/// place.
fn same_key(a: &Code<'_>, b: &Code<'_>) -> bool {
    matches!(a, Code::Var(_) | Code::Local(_) | Code::Path(..)) && super::compile::same_c(a, b)
}

/// Disjuncts that begin with a guard `K = v` on the same `K` (the labels of a PlusCal
/// process: `pc[self] = "Label"`), `v` a string or an integer. Where `K`'s value is such a
/// value, the guard of each disjunct whose `v` is another of its kind is false: `=` compares
/// them without failing, and nothing comes before it. The disjunction passes over those.
pub(super) struct Keyed {
    /// A disjunct whose `lead` reads `K`.
    from: u32,
    /// Each disjunct's `v`, for those whose `lead` reads `K`.
    values: Box<[Option<Scalar>]>,
}

/// The disjuncts of `items` that begin with a guard on the same `K` as the first that begins
/// with one, if there are two or more.
fn keyed(items: &[PlanNode<'_>]) -> Option<Box<Keyed>> {
    let leads: Vec<_> = items.iter().map(lead).collect();
    let from = leads.iter().position(|l| l.is_some_and(|(k, _)| same_key(k, k)))?;
    let (key, _) = leads[from]?;
    let values: Box<[Option<Scalar>]> =
        leads.iter().map(|l| l.filter(|(k, _)| same_key(key, k)).and_then(|(_, v)| Scalar::of(v))).collect();
    if values.iter().filter(|v| v.is_some()).count() < 2 {
        return None;
    }
    Some(Box::new(Keyed { from: from as u32, values }))
}

/// A value that `=` compares with another of its kind without failing.
enum Scalar {
    Str(Str),
    Int(i32),
}

impl Scalar {
    fn of(v: &Value) -> Option<Scalar> {
        match v {
            Value::Str(s) => Some(Scalar::Str(s.clone())),
            Value::Int(i) => Some(Scalar::Int(*i)),
            _ => None,
        }
    }

    /// `v` is of the same kind, and another value.
    fn differs(&self, v: &Scalar) -> bool {
        match (self, v) {
            (Scalar::Str(a), Scalar::Str(b)) => a != b,
            (Scalar::Int(a), Scalar::Int(b)) => a != b,
            _ => false,
        }
    }
}

/// The guard the disjunct `n` begins with, with nothing before it that could fail or have an
/// effect.
fn first_guard<'n, 'a>(n: &'n PlanNode<'a>) -> Option<&'n Code<'a>> {
    match &n.kind {
        PlanStep::Bind(slots, body) if slots.is_empty() => first_guard(body),
        PlanStep::And(items) => first_guard(items.first()?),
        PlanStep::Guard(c) => Some(c),
        _ => None,
    }
}

const NO_GUARD: u32 = u32::MAX;

/// For each of the first 64 disjuncts that begins with the same guard as another (as
/// `network[q][p] # <<>>` begins each of the three ways to receive a message), the first
/// disjunct that begins with it; `NO_GUARD` for the others. None when no two share one.
fn same_guards(items: &[PlanNode<'_>]) -> Option<Box<[u32]>> {
    let guards: Vec<_> = items.iter().take(64).map(first_guard).collect();
    let mut same = vec![NO_GUARD; guards.len()];
    let mut any = false;
    for j in 0..guards.len() {
        let Some(g) = guards[j] else { continue };
        if let Some(i) = (0..j).find(|&i| guards[i].is_some_and(|h| super::compile::same_c(h, g))) {
            same[i] = same[i].min(i as u32);
            same[j] = same[i];
            any = true;
        }
    }
    any.then(|| same.into_boxed_slice())
}

/// Whether the name `name` stands, in `e`, where an action is enumerated: a conjunct or
/// disjunct, a branch of IF or CASE, the body of LET, a label, `\E` or `\A`, or what `=>`
/// implies.
fn used_as_action(name: &str, e: &Expr) -> bool {
    match &*e.kind {
        ExprKind::Junction { items, .. } => items.iter().any(|x| used_as_action(name, x)),
        ExprKind::Label { body, .. } | ExprKind::Let { body, .. } | ExprKind::Quant { body, .. } => used_as_action(name, body),
        ExprKind::If { then, els, .. } => used_as_action(name, then) || used_as_action(name, els),
        ExprKind::Case { arms, other } => arms.iter().any(|a| used_as_action(name, &a.body)) || other.as_ref().is_some_and(|o| used_as_action(name, o)),
        ExprKind::OpApp { op, args } if op.path.is_empty() => match (op.name.as_str(), args.len()) {
            ("/\\" | "\\/", 2) => args.iter().any(|x| used_as_action(name, x)),
            ("=>", 2) => used_as_action(name, &args[1]),
            (n, 0) => n == name,
            _ => false,
        },
        _ => false,
    }
}
