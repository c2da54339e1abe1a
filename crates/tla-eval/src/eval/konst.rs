//! Constant subexpressions, evaluated once.
//!
//! An expression is *constant* when its value cannot depend on the state, the next state or any
//! name bound around it: every name it uses is bound inside it, or is a `.cfg` constant, or a
//! definition whose body is constant in the same sense (its parameters bound to constant
//! arguments), or a pure standard operator. `0..(N-1)`, `SUBSET {0, 1} \ {{}}` or
//! `[0..N-1 -> {"a", "b"}]` inside an invariant or an action are constant; `pc[self]` is not.
//!
//! Whether a node is constant is decided the first time it is evaluated outside any instance
//! (names inside instances mean what the instance's substitutions say, so nothing is kept
//! there), from the names the local environment binds at that point — TLA+'s scoping is
//! lexical, so every later evaluation of the same node sees the same names bound. The value
//! is kept once it evaluates without error (an error is raised again each time, as before).
//! Operators with observable effects (`Print`, `PrintT`, `TLCGet`, `TLCSet`, `RandomElement`,
//! `Assert`) are never treated as constant.

use tla_syntax::ast::*;

use super::{ConstEval, Env, Global};
use crate::error::VResult;
use crate::value::Value;

/// What is known of one expression node.
#[derive(Clone)]
pub(super) enum Constness<'a> {
    /// It may depend on the state or on names bound around it.
    Varies,
    /// Constant; its value once computed, and the free names it took for definitions or
    /// standard operators. The value is used only where no local binds one of them: model
    /// loading may evaluate a formula out of its context, where a name that a quantifier binds
    /// (`n` in `{F(n) : n \in Nat}`) reads as the definition or variable of that name.
    Fixed(Option<Value>, std::rc::Rc<[&'a str]>),
}

/// Standard operators that are not functions of their arguments (or not of constants): they
/// read the next state, have an effect or are not values.
pub(super) fn impure(name: &str) -> bool {
    matches!(
        name,
        "'" | "UNCHANGED"
            | "ENABLED"
            | "[]"
            | "<>"
            | "~>"
            | "-+->"
            | "\\cdot"
            | "Print"
            | "PrintT"
            | "TLCGet"
            | "TLCSet"
            | "RandomElement"
            | "Assert"
            | "JavaTime"
    )
}

/// The standard operators the evaluator implements (`builtin` and `strict_builtin`), with
/// their number of arguments. A name outside this list that no definition or local binds is
/// not taken for a standard operator: it may be a bound name seen out of its context (model
/// loading evaluates formulas tentatively, without their quantifiers' bindings).
pub(super) fn known_builtin(name: &str, n: usize) -> bool {
    matches!(
        (name, n),
        ("'" | "<>" | "[]" | "ENABLED" | "UNCHANGED" | "~" | "-." | "Cardinality" | "DOMAIN" | "Head" | "IsFiniteSet", 1)
            | ("Len" | "Permutations" | "PrintT" | "SUBSET" | "Seq" | "Tail" | "TLCEval" | "TLCGet" | "ToString" | "UNION", 1)
            | ("-+->" | "/\\" | "=>" | "SelectSeq" | "\\/" | "\\in" | "\\notin" | "~>" | "%" | "*" | "+" | "-", 2)
            | (".." | "/=" | ":>" | "<" | "<=" | "<=>" | "=" | ">" | ">=" | "@@" | "Append" | "Assert" | "Print", 2)
            | ("\\" | "\\cap" | "\\cup" | "\\div" | "\\o" | "\\subseteq" | "^", 2)
            | ("SubSeq", 3)
            | ("BOOLEAN" | "Int" | "Nat" | "STRING", 0)
    )
}

/// Nodes worth a table lookup: not literals of one machine word, not bare names (variables and
/// bound names are the most frequent nodes and are never constant; constant names are cheap).
#[inline]
pub(super) fn worth_keeping(e: &Expr) -> bool {
    match &*e.kind {
        ExprKind::Num(_) | ExprKind::Bool(_) | ExprKind::At | ExprKind::Label { .. } | ExprKind::Error => false,
        ExprKind::OpApp { op, args } => !args.is_empty() || !op.path.is_empty(),
        _ => true,
    }
}

impl<'a> ConstEval<'a> {
    /// The kept value of `e` if it is constant; computes and keeps it on first use. `None`: not
    /// constant (evaluate it normally). Only called outside instances.
    #[inline(never)]
    pub(super) fn konst_value(&self, e: &'a Expr, env: &Env<'a>) -> Option<VResult<Value>> {
        let key = e as *const Expr;
        // Looked at in place: only a kept value is cloned (most nodes vary).
        let pending = {
            let table = self.caches.konst.borrow();
            match table.get(&key) {
                Some(Constness::Varies) => {
                    self.caches.varies_fast.put(key as usize, ());
                    return None;
                }
                Some(Constness::Fixed(v, free)) => {
                    // Only names the analysis did not resolve are listed (see `is_const`).
                    if !free.is_empty() && free.iter().any(|n| env.find_name(n).is_some()) {
                        return None;
                    }
                    match v {
                        Some(v) => return Some(Ok(v.clone())),
                        None => Some(free.clone()),
                    }
                }
                None => None,
            }
        };
        match pending {
            Some(free) => Some(self.konst_fill(e, env, free)),
            None => {
                let mut bound = Vec::new();
                let mut free = Vec::new();
                let c = self.is_const(e, env, &mut bound, &mut free, 0);
                let free: std::rc::Rc<[&'a str]> = free.into();
                self.caches.konst.borrow_mut().insert(key, if c { Constness::Fixed(None, free.clone()) } else { Constness::Varies });
                if !c {
                    self.caches.varies_fast.put(key as usize, ());
                }
                if c { Some(self.konst_fill(e, env, free)) } else { None }
            }
        }
    }

    fn konst_fill(&self, e: &'a Expr, env: &Env<'a>, free: std::rc::Rc<[&'a str]>) -> VResult<Value> {
        let v = self.ev_uncached(e, env)?;
        self.caches.konst.borrow_mut().insert(e as *const Expr, Constness::Fixed(Some(v.clone()), free));
        Ok(v)
    }

    /// Whether the body of a definition is constant with its parameters bound (memoised per
    /// definition; a definition being analysed counts as not constant, so recursion is safe).
    pub(super) fn def_const(&self, key: usize, params: &[&'a str], body: &'a Expr, bounds: &'a [Bound], depth: u32) -> bool {
        if let Some(&c) = self.caches.konst_defs.borrow().get(&key) {
            return c;
        }
        self.caches.konst_defs.borrow_mut().insert(key, false);
        let mut bound: Vec<&'a str> = params.to_vec();
        let mut free = Vec::new();
        let empty = Env::default();
        let c = self.bounds_const(bounds, &empty, &mut bound, &mut free, depth + 1)
            && self.is_const(body, &empty, &mut bound, &mut free, depth + 1);
        self.caches.konst_defs.borrow_mut().insert(key, c);
        c
    }

    /// The sets of `bounds` are constant; their names are pushed onto `bound`.
    fn bounds_const(&self, bounds: &'a [Bound], env: &Env<'a>, bound: &mut Vec<&'a str>, free: &mut Vec<&'a str>, depth: u32) -> bool {
        for b in bounds {
            match &b.set {
                Some(s) if self.is_const(s, env, bound, free, depth) => {}
                _ => return false,
            }
        }
        for b in bounds {
            for n in b.vars.idents() {
                bound.push(&n.name);
            }
        }
        true
    }

    fn all_const(&self, items: &'a [Expr], env: &Env<'a>, bound: &mut Vec<&'a str>, free: &mut Vec<&'a str>, depth: u32) -> bool {
        items.iter().all(|x| self.is_const(x, env, bound, free, depth))
    }

    /// Whether `e` is constant given that the names in `bound` (bound inside the expression
    /// being analysed) are. `bound` is restored on return.
    pub(super) fn is_const(&self, e: &'a Expr, env: &Env<'a>, bound: &mut Vec<&'a str>, free: &mut Vec<&'a str>, depth: u32) -> bool {
        if depth > 64 {
            return false;
        }
        let d = depth + 1;
        let mark = bound.len();
        let r = match &*e.kind {
            ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_) => true,
            ExprKind::Decimal(_) | ExprKind::At | ExprKind::Error | ExprKind::Lambda { .. } => false,
            ExprKind::TemporalQuant { .. } | ExprKind::BoxAction { .. } | ExprKind::AngleAction { .. } | ExprKind::Fair { .. } => false,
            ExprKind::OpApp { op, args } => {
                if !op.path.is_empty() {
                    false
                } else {
                    let name = op.name.as_str();
                    let args_const = self.all_const(args, env, bound, free, d);
                    if !args_const {
                        false
                    } else if bound.contains(&name) {
                        true
                    } else if self.local(op, env).is_some() || self.program.vars.contains_key(name) {
                        false
                    } else {
                        // A module-level name is never bound by a local where the value is
                        // reused (TLA+ forbids it): only the others are checked then.
                        if !self.module_level(op) && name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
                            free.push(name);
                        }
                        match self.global(name) {
                            Some(Global::Value(_)) => args.is_empty(),
                            Some(Global::Op(od)) => {
                                if od.params.len() != args.len() || od.params.iter().any(|p| p.arity > 0) {
                                    false
                                } else {
                                    let params: Vec<&'a str> = od.params.iter().map(|p| p.name.name.as_str()).collect();
                                    self.def_const(od as *const OpDef as usize, &params, &od.body, &[], d)
                                }
                            }
                            Some(Global::Fun(fd)) => {
                                args.is_empty() && self.def_const(fd as *const FunDef as usize, &[fd.name.name.as_str()], &fd.body, &fd.bounds, d)
                            }
                            Some(Global::Inst(_) | Global::Stated(_) | Global::Native(_) | Global::Standard) => false,
                            // A standard operator of values (Max(S), Range(f), SetToBag(S), ...)
                            // on constant arguments is a constant.
                            None => {
                                (known_builtin(name, args.len()) && !impure(name))
                                    || super::stdext::is_value_op(name, args.len())
                                    || super::bags::value_op(name, args.len())
                            }
                        }
                    }
                }
            }
            ExprKind::FunApp { fun, args } => {
                // `f[x]` of a function definition applies it without building it.
                let fun_ok = match &*fun.kind {
                    ExprKind::OpApp { op, args: fa } if op.path.is_empty() && fa.is_empty() => self.is_const(fun, env, bound, free, d),
                    _ => self.is_const(fun, env, bound, free, d),
                };
                fun_ok && self.all_const(args, env, bound, free, d)
            }
            ExprKind::Field { record, .. } => self.is_const(record, env, bound, free, d),
            ExprKind::Junction { items, .. } | ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => {
                self.all_const(items, env, bound, free, d)
            }
            ExprKind::If { cond, then, els } => {
                self.is_const(cond, env, bound, free, d) && self.is_const(then, env, bound, free, d) && self.is_const(els, env, bound, free, d)
            }
            ExprKind::Case { arms, other } => {
                arms.iter().all(|a| self.is_const(&a.guard, env, bound, free, d) && self.is_const(&a.body, env, bound, free, d))
                    && other.as_ref().is_none_or(|o| self.is_const(o, env, bound, free, d))
            }
            ExprKind::Let { defs, body } => {
                let mut ok = true;
                for def in defs {
                    match def {
                        LetDef::Op(od) => {
                            if od.params.iter().any(|p| p.arity > 0) {
                                ok = false;
                                break;
                            }
                            bound.push(&od.name.name);
                            let m = bound.len();
                            bound.extend(od.params.iter().map(|p| p.name.name.as_str()));
                            let c = self.is_const(&od.body, env, bound, free, d);
                            bound.truncate(m);
                            if !c {
                                ok = false;
                                break;
                            }
                        }
                        LetDef::Fun(fd) => {
                            bound.push(&fd.name.name);
                            let m = bound.len();
                            let c = self.bounds_const(&fd.bounds, env, bound, free, d) && self.is_const(&fd.body, env, bound, free, d);
                            bound.truncate(m);
                            if !c {
                                ok = false;
                                break;
                            }
                        }
                        LetDef::Recursive(ds) => bound.extend(ds.iter().map(|x| x.name.name.as_str())),
                        LetDef::ModuleDef(_) => {
                            ok = false;
                            break;
                        }
                    }
                }
                ok && self.is_const(body, env, bound, free, d)
            }
            ExprKind::Quant { bounds, body, .. } | ExprKind::SetMap { body, bounds } | ExprKind::FunCons { bounds, body } => {
                self.bounds_const(bounds, env, bound, free, d) && self.is_const(body, env, bound, free, d)
            }
            ExprKind::Choose { bound: b, body } | ExprKind::SetFilter { bound: b, pred: body } => {
                self.bounds_const(std::slice::from_ref(b), env, bound, free, d) && self.is_const(body, env, bound, free, d)
            }
            ExprKind::FunSet { domain, range } => self.is_const(domain, env, bound, free, d) && self.is_const(range, env, bound, free, d),
            ExprKind::Record(fs) | ExprKind::RecordSet(fs) => fs.iter().all(|(_, x)| self.is_const(x, env, bound, free, d)),
            ExprKind::Except { base, updates } => {
                self.is_const(base, env, bound, free, d)
                    && updates.iter().all(|u| {
                        u.path.iter().all(|st| match st {
                            ExceptStep::Index(xs) => self.all_const(xs, env, bound, free, d),
                            ExceptStep::Field(_) => true,
                        }) && self.is_const(&u.value, env, bound, free, d)
                    })
            }
            ExprKind::Label { body, .. } => self.is_const(body, env, bound, free, d),
        };
        bound.truncate(mark);
        r
    }
}
