//! State- and action-level evaluation: variables, primes, `UNCHANGED`, `ENABLED`, and the
//! enumeration of Init's states and of an action's successors (see the crate docs, steps 3–5).
//!
//! An action is enumerated in continuation-passing style: [`ConstEval::act`] walks the formula
//! with a continuation `k` standing for "the rest of the conjunction"; an assignment `x' = e`
//! stores `x'`, calls `k`, then clears `x'` again, so the partial next state is restored on every
//! path back. A disjunction or `\E` calls `k` once per branch or binding. The outermost
//! continuation checks that every variable is assigned and emits the state.

use std::sync::Arc;

use tla_syntax::ast::*;

use super::instance::OuterMeaning;
use super::{err, Binding, Closure, ConstEval, Env, Global, InstFrame, Resolved, State};
use crate::error::{codes, VResult};
use crate::value::Value;
use tla_sema::Level;

/// A top-level disjunct of Next: what the checker enumerates successors by, in this order.
#[derive(Clone, Debug)]
pub struct SplitAction<'a> {
    pub expr: &'a Expr,
    /// The number of the first of TLC's actions inside it (see [`ActionSplit`]); a successor
    /// is that action's unless a disjunct inside begins another.
    pub first: u32,
    /// Whether it is one action (no disjunct inside begins another).
    pub single: bool,
}

/// Next split as TLC splits it into actions (for coverage and the steps of traces): through
/// `\/`, labels, LET, `\E` over sets that do not depend on the state, and definitions applied
/// to arguments that do not (TLC enumerates such an `\E` and binds such arguments; here the
/// successors are still enumerated by the top-level disjuncts, `units`, in TLC's order, and
/// only counted under the action they come from). An action is the formula where the split
/// stops; the same formula reached again (`Request(p)` for each `p`) is the same action, as
/// TLC's coverage merges them. Its name is the operator it applies
/// (`\E m \in msgs : Receive(m)` is "Receive"), else the definition it is the body of or sits
/// in ("Request", "Next"), else "Action".
#[derive(Clone, Debug, Default)]
pub struct ActionSplit<'a> {
    pub units: Vec<SplitAction<'a>>,
    /// The actions' names, by number.
    pub names: Vec<String>,
    /// Where each action is.
    pub sites: Vec<ActionSite>,
}

/// Where one of TLC's actions is: its formula, and the definition it is named after.
#[derive(Clone, Copy, Debug)]
pub struct ActionSite {
    pub formula: tla_syntax::Span,
    /// The whole definition and its body.
    pub def: Option<(tla_syntax::Span, tla_syntax::Span)>,
}

pub(super) type Cont<'k> = dyn FnMut() -> VResult<bool> + 'k;

/// A disjunct that begins no action (see `ConstEval::disjunct_mark`).
pub(super) const NO_MARK: u32 = u32::MAX;
/// In a disjunct's mark: the disjunct is one action whole.
const WHOLE: u32 = 1 << 31;

/// A variable an action assigns or reads primed.
#[derive(Clone, Copy)]
pub(super) enum VarRef<'a> {
    /// A variable of the root module, by slot.
    Slot(usize),
    /// Inside ENABLED, a variable of an instance (entered before ENABLED) that the root
    /// module does not declare, by name (see `cut_var`).
    Free(&'a str),
}

impl<'a> ConstEval<'a> {
    /// Declare the state variables, in slot order.
    pub fn set_variables(&mut self, names: &[&'a str]) {
        self.forget_constants();
        self.program_mut().vars = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        self.program_mut().var_names = names.to_vec();
    }

    /// The variables, in slot order.
    pub fn variables(&self) -> &[&'a str] {
        &self.program.var_names
    }

    /// Keep the value of the zero-argument definition `name` once computed (it must be
    /// constant-level).
    pub fn cache_definition(&mut self, name: &str) {
        if let Some(Global::Op(d)) = self.program.globals.get(name)
            && d.params.is_empty() {
                let d = *d as *const OpDef as usize;
                self.program_mut().cacheable.insert(d);
            }
    }

    /// Every state satisfying all of `parts` (a conjunction), in TLC's order.
    pub fn initial_states_of(&self, parts: &[&'a Expr], emit: &mut dyn FnMut(State) -> VResult<()>) -> VResult<()> {
        self.enumerate_init(emit, &mut |k| self.act_refs(parts, &Env::default(), k))
    }

    /// Initial states: every assignment `enumerate` makes, completed and emitted, with the next
    /// state empty, no current state and Init's reading of unprimed variables.
    fn enumerate_init(&self, emit: &mut dyn FnMut(State) -> VResult<()>, enumerate: &mut dyn FnMut(&mut Cont<'_>) -> VResult<bool>) -> VResult<()> {
        let n = self.program.var_names.len();
        *self.frame.next.borrow_mut() = vec![None; n];
        *self.frame.cur.borrow_mut() = Arc::from(Vec::new());
        self.frame.init_mode.set(true);
        let r = self.enumerating(|| {
            enumerate(&mut || {
                let st = self.complete("the initial predicate")?;
                emit(st)?;
                Ok(true)
            })
        });
        self.frame.init_mode.set(false);
        r.map(|_| ())
    }

    fn act_refs(&self, items: &[&'a Expr], env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        self.act_refs_from(items, env, k, false)
    }

    fn act_refs_from(&self, items: &[&'a Expr], env: &Env<'a>, k: &mut Cont<'_>, pending: bool) -> VResult<bool> {
        match items.split_first() {
            None => k(),
            Some((first, _)) if pending && self.conditions_from(first) => {
                self.all_hold(items.iter().map(|it| (*it, env)), k)
            }
            Some((first, rest)) => self.act(first, env, &mut || self.act_refs_from(rest, env, k, true)),
        }
    }

    /// Whether every variable has its next value (its value, enumerating Init) while states
    /// are enumerated. As in TLC, the conjuncts still to come are then conditions: each is
    /// evaluated, not enumerated, so a disjunction among them does not count its successor
    /// twice. Not inside ENABLED, where a variable of an instance may still be free.
    #[inline(never)]
    pub(super) fn all_assigned(&self) -> bool {
        self.frame.enumerating.get() && self.frame.next.borrow().iter().all(Option::is_some)
    }

    /// Whether the conditions shortcut applies before the pending conjunct `e`: asked only
    /// where enumerating `e` may branch, since elsewhere evaluating it gives the same.
    fn conditions_from(&self, e: &'a Expr) -> bool {
        self.frame.enumerating.get() && self.may_branch(e, 0) && self.all_assigned()
    }

    /// The conjuncts still to come, read as conditions (see `all_assigned`), then `k` when all
    /// hold.
    fn all_hold<'e>(&self, items: impl IntoIterator<Item = (&'a Expr, &'e Env<'a>)>, k: &mut Cont<'_>) -> VResult<bool>
    where
        'a: 'e,
    {
        for (it, env) in items {
            if !self.condition(it, env)? {
                return Ok(true);
            }
        }
        k()
    }

    /// A conjunct read as a condition (see `all_assigned`), its error placed at it.
    pub(super) fn condition(&self, e: &'a Expr, env: &Env<'a>) -> VResult<bool> {
        self.ev_bool(e, env).map_err(|x| x.at(e.span))
    }

    /// Enumerate states with the conditions shortcut on (see `all_assigned`).
    fn enumerating<R>(&self, f: impl FnOnce() -> R) -> R {
        let old = self.frame.enumerating.replace(true);
        let r = f();
        self.frame.enumerating.set(old);
        r
    }

    /// Replace the value of a zero-argument definition (a constant-level definition computed
    /// once, or a `.cfg` override).
    pub fn set_definition_value(&mut self, name: &'a str, v: Value) {
        self.forget_constants();
        self.program_mut().globals.insert(name, Global::Value(v));
    }

    /// Override the definition `name` of an instantiated module with a value (`.cfg`'s
    /// `name = [M] v`): the value wins in every module, instances included.
    pub fn override_value(&mut self, name: &'a str, v: Value) {
        self.forget_constants();
        self.program_mut().globals.insert(name, Global::Value(v.clone()));
        self.program_mut().overrides.insert(name, Global::Value(v));
    }

    /// Override `name` with the definition `def` in every module, instances included
    /// (`.cfg`'s `name <- [M] def`). False when `def` is not defined.
    pub fn override_with(&mut self, name: &'a str, def: &str) -> bool {
        self.forget_constants();
        match self.program.globals.get(def).cloned() {
            Some(g) => {
                self.program_mut().globals.insert(name, g.clone());
                self.program_mut().overrides.insert(name, g);
                true
            }
            None => false,
        }
    }

    /// Make `name` mean the definition `def` (`.cfg`'s `name <- def`). False when `def` is not
    /// defined.
    pub fn substitute(&mut self, name: &'a str, def: &str) -> bool {
        self.forget_constants();
        match self.program.globals.get(def).cloned() {
            Some(g) => {
                self.program_mut().globals.insert(name, g);
                true
            }
            None => false,
        }
    }

    /// The zero-argument definition or operator named `name`, if any.
    pub fn definition(&self, name: &str) -> Option<&'a OpDef> {
        match self.program.globals.get(name) {
            Some(Global::Op(d)) => Some(d),
            _ => None,
        }
    }

    /// Whether `name` is defined (operator, function or value).
    pub fn is_defined(&self, name: &str) -> bool {
        self.program.globals.contains_key(name)
    }

    pub(super) fn read_var(&self, slot: usize) -> VResult<Value> {
        if self.frame.primed.get() || self.frame.init_mode.get() {
            self.frame.next_reads.set(self.frame.next_reads.get() + 1);
            match self.frame.next.borrow().get(slot) {
                Some(Some(v)) => Ok(v.clone()),
                _ => {
                    let n = self.program.var_names.get(slot).copied().unwrap_or("?");
                    let msg = if self.frame.init_mode.get() && !self.frame.primed.get() {
                        format!("the variable {} is read before the initial predicate assigns it", n)
                    } else {
                        format!("{}' is read before it is assigned", n)
                    };
                    Err(err(codes::UNASSIGNED, msg))
                }
            }
        } else {
            match self.frame.cur.borrow().get(slot) {
                Some(v) => Ok(v.clone()),
                None => {
                    let n = self.program.var_names.get(slot).copied().unwrap_or("?");
                    Err(err(codes::UNASSIGNED, format!("the variable {} has no value here (constant level)", n)))
                }
            }
        }
    }

    pub(super) fn ev_primed(&self, e: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        let old = self.frame.primed.replace(true);
        let r = self.ev(e, env);
        self.frame.primed.set(old);
        r
    }

    /// `ENABLED A` in the current state: whether A has a successor. A variable that A leaves
    /// unassigned may take any value in that successor, so reaching the end of A's conjuncts is
    /// enough (`ENABLED x' = 1` is TRUE whatever the other variables are), as in TLC.
    pub(super) fn enabled(&self, a: &'a Expr, env: &Env<'a>) -> VResult<bool> {
        let n = self.program.var_names.len();
        let saved = std::mem::replace(&mut *self.frame.next.borrow_mut(), vec![None; n]);
        let saved_free = std::mem::take(&mut *self.frame.free.borrow_mut());
        let cutoff = self.frame.cutoff.replace(self.frame.ctx.borrow().len());
        let (p, i) = (self.frame.primed.replace(false), self.frame.init_mode.replace(false));
        let enumerating = self.frame.enumerating.replace(false);
        let mut found = false;
        let r = self.act(a, env, &mut || {
            found = true;
            Ok(false)
        });
        self.frame.enumerating.set(enumerating);
        self.frame.primed.set(p);
        self.frame.init_mode.set(i);
        self.frame.cutoff.set(cutoff);
        *self.frame.free.borrow_mut() = saved_free;
        *self.frame.next.borrow_mut() = saved;
        r.map(|_| found)
    }

    /// The states the first action of a composition `A \cdot B` reaches from the current
    /// state: A enumerated with `start` as the next state so far.
    fn composed_middles(&self, a: &'a Expr, env: &Env<'a>, start: Vec<Option<Value>>) -> VResult<Vec<State>> {
        let saved = std::mem::replace(&mut *self.frame.next.borrow_mut(), start);
        let enumerating = self.frame.enumerating.replace(false);
        let mut middles: Vec<Vec<Option<Value>>> = Vec::new();
        let r = self.act(a, env, &mut || {
            middles.push(self.frame.next.borrow().clone());
            Ok(true)
        });
        self.frame.enumerating.set(enumerating);
        *self.frame.next.borrow_mut() = saved;
        r?;
        middles
            .into_iter()
            .map(|t| {
                t.iter().enumerate().map(|(i, v)| {
                    v.clone().ok_or_else(|| {
                        err(
                            codes::UNSUPPORTED,
                            format!(
                                "A \\cdot B where A leaves the variable {} unassigned is not supported: the intermediate state must be complete",
                                self.program.var_names[i]
                            ),
                        )
                    })
                })
                .collect::<VResult<State>>()
            })
            .collect()
    }

    /// `B` from each state `A` reaches (`middles`), the current state set to it and the next
    /// state to `next`, restored after each.
    fn from_middles(&self, middles: Vec<State>, next: &[Option<Value>], mut each: impl FnMut() -> VResult<bool>) -> VResult<bool> {
        let s0 = self.frame.cur.borrow().clone();
        for t in middles {
            *self.frame.cur.borrow_mut() = t;
            *self.frame.next.borrow_mut() = next.to_vec();
            let r = each();
            *self.frame.cur.borrow_mut() = s0.clone();
            *self.frame.next.borrow_mut() = next.to_vec();
            if !r? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `A \cdot B` enumerated (action composition, as TLC does it with
    /// `-Dtlc2.tool.impl.Tool.cdot=true`): `s -A-> t -B-> u`. A is enumerated from the current
    /// state `s`, its next state starting with `s`'s values of the variables assigned so far;
    /// then B from each state `t` it reaches, with the next state as it was before `A \cdot B`.
    /// The rest of the action (the continuation) runs with `t` as the current state, as in
    /// TLC. Each `t` counts as a state generated (see `take_composed`).
    pub(super) fn act_composed(&self, a: &'a Expr, b: &'a Expr, env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        let s1 = self.frame.next.borrow().clone();
        let s0 = self.frame.cur.borrow().clone();
        let start = s1.iter().enumerate().map(|(i, v)| v.as_ref().and_then(|_| s0.get(i).cloned())).collect();
        let middles = self.composed_middles(a, env, start)?;
        self.tlc.composed.set(self.tlc.composed.get() + middles.len() as u64);
        self.from_middles(middles, &s1, || self.act(b, env, k))
    }

    /// `A \cdot B` on a step `s → u` (both states known): whether some state `t` that A
    /// reaches from `s` (A enumerated from scratch) has B hold on `t → u`.
    pub(super) fn composed_step(&self, a: &'a Expr, b: &'a Expr, env: &Env<'a>) -> VResult<bool> {
        let n = self.program.var_names.len();
        let primed = self.frame.primed.replace(false);
        let middles = self.composed_middles(a, env, vec![None; n]);
        self.frame.primed.set(primed);
        let next = self.frame.next.borrow().clone();
        let mut found = false;
        self.from_middles(middles?, &next, || {
            found = self.ev_bool(b, env)?;
            Ok(!found)
        })?;
        Ok(found)
    }

    /// Evaluate a state-level expression on `state`.
    pub fn eval_in_state(&self, e: &'a Expr, state: &State) -> VResult<Value> {
        let old = self.frame.cur.replace(state.clone());
        let r = self.eval(e);
        *self.frame.cur.borrow_mut() = old;
        r
    }

    /// Evaluate an action-level expression on the step `from → to`.
    pub fn eval_on_step(&self, e: &'a Expr, from: &State, to: &State) -> VResult<Value> {
        let old = self.frame.cur.replace(from.clone());
        let old_next = std::mem::replace(&mut *self.frame.next.borrow_mut(), to.iter().cloned().map(Some).collect());
        let r = self.eval(e);
        *self.frame.cur.borrow_mut() = old;
        *self.frame.next.borrow_mut() = old_next;
        r
    }

    /// Every state satisfying the initial predicate, in TLC's order (duplicates included).
    pub fn initial_states(&self, init: &'a Expr, emit: &mut dyn FnMut(State) -> VResult<()>) -> VResult<()> {
        self.enumerate_init(emit, &mut |k| self.act(init, &Env::default(), k))
    }

    /// Every successor of `state` by the action `a`, in TLC's order (duplicates included).
    pub fn successors(&self, a: &'a Expr, state: &State, emit: &mut dyn FnMut(State) -> VResult<()>) -> VResult<()> {
        let n = self.program.var_names.len();
        {
            // The next state's vector is reused (a successor leaves it as it found it).
            let mut next = self.frame.next.borrow_mut();
            next.clear();
            next.resize(n, None);
        }
        *self.frame.cur.borrow_mut() = state.clone();
        let mut k = || {
            let st = self.complete("the action")?;
            emit(st)?;
            Ok(true)
        };
        let enumerating = self.frame.enumerating.replace(true);
        let r = match self.plan(a) {
            Some(p) => self.run_plan(&p, &mut k),
            None => self.act(a, &Env::default(), &mut k),
        };
        self.frame.enumerating.set(enumerating);
        r.map(|_| ())
    }

    fn complete(&self, what: &str) -> VResult<State> {
        let next = self.frame.next.borrow();
        if let Some(i) = next.iter().position(Option::is_none) {
            return Err(err(
                codes::INCOMPLETE,
                format!("{} does not assign the variable {}: the state is not completely specified", what, self.program.var_names[i]),
            ));
        }
        // One allocation: a slice's mapped iterator knows its length.
        Ok(next.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect())
    }

    /// Split Next into its top-level disjuncts (through zero-argument definitions) and into
    /// TLC's actions (see [`ActionSplit`]). The disjuncts where an action begins are marked,
    /// so that enumerating a successor through one sets the number [`ConstEval::branch`] reads.
    /// `def`: the definition `e` is the body of, if any.
    pub fn split_action(&self, e: &'a Expr, def: Option<&'a OpDef>) -> ActionSplit<'a> {
        let mut units = Vec::new();
        self.split_into(e, def, &mut units, 0);
        let mut sp = Splitter::default();
        let units = units
            .into_iter()
            .map(|(x, def)| {
                let before = sp.marks.len();
                let first = self.tlc_actions(x, def, &mut sp, 0);
                SplitAction { expr: x, first, single: sp.marks.len() == before }
            })
            .collect();
        *self.tlc.marks.borrow_mut() = sp.marks;
        // Plans compiled before hold no marks.
        self.code.plans.borrow_mut().clear();
        ActionSplit { units, names: sp.names, sites: sp.sites }
    }

    /// The action the successor being enumerated comes from (see [`ConstEval::split_action`]).
    pub fn branch(&self) -> u32 {
        self.tlc.branch.get()
    }

    /// Enumerating the top-level disjunct `unit` of [`ConstEval::split_action`] next: its
    /// successors are its first action's unless a disjunct inside begins another.
    pub fn start_unit(&self, unit: &SplitAction<'a>) {
        self.tlc.branch.set(unit.first);
        self.tlc.branch_locked.set(unit.single);
    }

    /// Entering the disjunct `e`, marked `mark` (see `disjunct_mark`): the action it begins,
    /// unless the disjunct is reached inside an action (the same definition split in one
    /// place and applied whole in another: `Handle(k) \/ (g /\ Handle(m))`). Whether it
    /// entered an action whole, which the caller undoes with `leave_action` when it returns.
    #[inline]
    pub(super) fn enter_marked(&self, mark: u32) -> bool {
        if mark == NO_MARK || self.tlc.branch_locked.get() {
            return false;
        }
        self.tlc.branch.set(mark & !WHOLE);
        let whole = mark & WHOLE != 0;
        self.tlc.branch_locked.set(whole);
        whole
    }

    #[inline]
    pub(super) fn leave_action(&self, entered: bool) {
        if entered {
            self.tlc.branch_locked.set(false);
        }
    }

    /// The mark of the disjunct `e`: `NO_MARK`, or the action it begins, with `WHOLE` when it
    /// is that action whole (no disjunct inside begins another).
    pub(super) fn disjunct_mark(&self, e: &'a Expr) -> u32 {
        let marks = self.tlc.marks.borrow();
        if marks.is_empty() {
            return NO_MARK;
        }
        marks.get(&(e as *const Expr as usize)).copied().unwrap_or(NO_MARK)
    }

    fn split_into(&self, e: &'a Expr, def: Option<&'a OpDef>, out: &mut Vec<(&'a Expr, Option<&'a OpDef>)>, depth: u32) {
        if depth < 50 {
            match &*e.kind {
                ExprKind::Junction { kind: JunctionKind::Or, items, .. } => {
                    for it in items {
                        self.split_into(it, def, out, depth + 1);
                    }
                    return;
                }
                ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "\\/" && args.len() == 2 => {
                    for it in args {
                        self.split_into(it, def, out, depth + 1);
                    }
                    return;
                }
                ExprKind::Label { body, .. } => return self.split_into(body, def, out, depth + 1),
                ExprKind::OpApp { op, args } if op.path.is_empty() && args.is_empty() && !self.program.vars.contains_key(op.name.as_str()) => {
                    if let Some(Global::Op(d)) = self.program.globals.get(op.name.as_str())
                        && d.params.is_empty() {
                            return self.split_into(&d.body, Some(d), out, depth + 1);
                        }
                }
                _ => {}
            }
        }
        out.push((e, def));
    }

    /// TLC's actions in `e`, read inside the definition `def`: the number of the first.
    fn tlc_actions(&self, e: &'a Expr, def: Option<&'a OpDef>, sp: &mut Splitter<'a>, depth: u32) -> u32 {
        if depth < 50 {
            let constant = |x: &'a Expr, sp: &Splitter<'a>| self.constant_level(x, &sp.varying);
            match &*e.kind {
                ExprKind::Junction { kind: JunctionKind::Or, items, .. } => return self.tlc_disjuncts(items, def, sp, depth),
                ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "\\/" && args.len() == 2 => {
                    return self.tlc_disjuncts(args, def, sp, depth);
                }
                ExprKind::Label { body, .. } => return self.tlc_actions(body, def, sp, depth + 1),
                ExprKind::Let { defs, body } => {
                    let mark = sp.varying.len();
                    for d in defs {
                        if let LetDef::Op(od) = d
                            && !(od.params.is_empty() && constant(&od.body, sp)) {
                                sp.varying.push(od.name.name.as_str());
                            }
                    }
                    let first = self.tlc_actions(body, def, sp, depth + 1);
                    sp.varying.truncate(mark);
                    return first;
                }
                ExprKind::Quant { kind: QuantKind::Exists, bounds, body }
                    if bounds.iter().all(|b| matches!(b.vars, BoundVars::Names(_)) && b.set.as_ref().is_some_and(|x| constant(x, sp))) =>
                {
                    return self.tlc_actions(body, def, sp, depth + 1);
                }
                ExprKind::OpApp { op, args } if op.path.is_empty() && !self.program.vars.contains_key(op.name.as_str()) => {
                    if let Some(Global::Op(d)) = self.program.globals.get(op.name.as_str())
                        && d.params.len() == args.len()
                        && args.iter().all(|x| constant(x, sp)) {
                            return self.tlc_actions(&d.body, Some(d), sp, depth + 1);
                        }
                }
                _ => {}
            }
        }
        let key = e as *const Expr as usize;
        if let Some(i) = sp.keys.iter().position(|&k| k == key) {
            return i as u32;
        }
        // Named after the operator it applies, else the definition it is in.
        let (name, def) = match applied_operator(e) {
            Some(n) => (n, match self.program.globals.get(n) {
                Some(Global::Op(d)) => Some(*d),
                _ => None,
            }),
            None => (def.map_or("Action", |d| d.name.name.as_str()), def),
        };
        sp.keys.push(key);
        sp.names.push(name.to_string());
        sp.sites.push(ActionSite { formula: e.span, def: def.map(|d| (d.span, d.body.span)) });
        (sp.names.len() - 1) as u32
    }

    /// Whether `x` is constant-level: it reads no variable, through definitions, nor a
    /// definition of the LETs entered that does (`varying`): TLC splits only where it can
    /// evaluate without a state.
    fn constant_level(&self, x: &'a Expr, varying: &[&'a str]) -> bool {
        if self.state_reads(x) != Some(0) {
            return false;
        }
        if varying.is_empty() {
            return true;
        }
        let mut ok = true;
        super::compile::walk(x, &mut |y| {
            if let ExprKind::OpApp { op, .. } = &*y.kind
                && op.path.is_empty()
                && varying.contains(&op.name.as_str()) {
                    ok = false;
                }
        });
        ok
    }

    fn tlc_disjuncts(&self, items: &'a [Expr], def: Option<&'a OpDef>, sp: &mut Splitter<'a>, depth: u32) -> u32 {
        let mut first = None;
        for it in items {
            let before = sp.marks.len();
            let a = self.tlc_actions(it, def, sp, depth + 1);
            let whole = if sp.marks.len() == before { WHOLE } else { 0 };
            sp.marks.insert(it as *const Expr as usize, a | whole);
            first.get_or_insert(a);
        }
        first.unwrap_or(0)
    }

    /// The variable `e` names, when it is one: a variable of the root module (through the
    /// substitutions of the instances being evaluated), or inside ENABLED a variable of an
    /// instance entered before ENABLED (see `cut_var`).
    fn var_ref(&self, e: &'a Expr, env: &Env<'a>) -> Option<VarRef<'a>> {
        let ExprKind::OpApp { op, args } = &*e.kind else { return None };
        if !op.path.is_empty() || !args.is_empty() || self.local(op, env).is_some() {
            return None;
        }
        // Outside instances, what the node resolved to (see `op_app`).
        if self.frame.ctx.borrow().is_empty() {
            return match self.meaning_at(op, args, env, true) {
                Some(Resolved::Var(slot)) => Some(VarRef::Slot(slot)),
                Some(_) => None,
                // A name the analysis did not see: by its text.
                None => self.program.vars.get(op.name.as_str()).map(|&slot| VarRef::Slot(slot)),
            };
        }
        let n = self.in_instances(op as *const OpName as usize, &op.name);
        if let Some(r) = self.cut_var(&n, &op.name) {
            return Some(r);
        }
        // An instance's variable substituted by an expression of the instantiating module
        // (implicitly by the same name when the instance does not substitute it).
        if let Some((x, senv, level)) = self.substitution_of(&n) {
            let popped: Vec<InstFrame<'a>> = self.frame.ctx.borrow_mut().split_off(level);
            // Through an instance parameter passed by name too (`D(w) == INSTANCE M WITH z <- w`).
            let r = self.var_of(x, &senv);
            self.frame.ctx.borrow_mut().extend(popped);
            return r;
        }
        n.var.map(VarRef::Slot)
    }

    /// The next value of a variable (`x'`).
    pub(super) fn read_ref(&self, r: VarRef<'a>) -> VResult<Value> {
        match r {
            VarRef::Slot(slot) => self.read_var(slot),
            VarRef::Free(name) => {
                self.frame.next_reads.set(self.frame.next_reads.get() + 1);
                match self.frame.free.borrow().iter().rev().find(|(n, _)| *n == name) {
                    Some((_, v)) => Ok(v.clone()),
                    None => Err(err(codes::UNASSIGNED, format!("{}' is read before it is assigned", name))),
                }
            }
        }
    }

    fn is_assigned(&self, r: VarRef<'a>) -> bool {
        match r {
            VarRef::Slot(slot) => self.frame.next.borrow()[slot].is_some(),
            VarRef::Free(name) => self.frame.free.borrow().iter().any(|(n, _)| *n == name),
        }
    }

    fn var_name(&self, r: VarRef<'a>) -> &'a str {
        match r {
            VarRef::Slot(slot) => self.program.var_names[slot],
            VarRef::Free(name) => name,
        }
    }

    /// The variable `e` names: a variable, or a parameter whose argument (passed by name) is
    /// one (`q` in `q' = Tail(q)` for `Lose(msgs)`).
    fn var_of(&self, e: &'a Expr, env: &Env<'a>) -> Option<VarRef<'a>> {
        self.var_ref(e, env).or_else(|| by_name(self, e, env).and_then(|cl| self.in_closure_frames(cl.depth, || self.var_of(cl.body, &cl.env))))
    }

    /// The variable of `x'` (or of `x` when enumerating Init).
    fn target_slot(&self, e: &'a Expr, env: &Env<'a>) -> Option<VarRef<'a>> {
        if self.frame.primed.get() {
            return None;
        }
        if self.frame.init_mode.get() {
            return self.var_of(e, env);
        }
        if let ExprKind::OpApp { op, args } = &*e.kind
            && op.path.is_empty() && op.name == "'" && args.len() == 1 {
                return self.var_of(&args[0], env);
            }
        // A parameter bound to `x'` (passed by name, as TLC does).
        by_name(self, e, env).and_then(|cl| self.in_closure_frames(cl.depth, || self.target_slot(cl.body, &cl.env)))
    }

    /// An argument of an action call, for the parameter at `pos` (named `param`) of the
    /// definition whose body is `body`. Passed by name, as TLC substitutes arguments: an
    /// action-level expression (with primes, directly or through the definitions it calls, e.g.
    /// `Op(t, Sleep(t))`), and an expression that mentions a variable where the parameter may
    /// stand for one (`Lose(q) == q' = Tail(q)` applied to `msgs`, an Init operator that assigns
    /// its parameter). Others by value.
    fn action_arg(&self, arity: usize, a: &'a Expr, env: &Env<'a>, body: &'a Expr, param: &str, pos: usize) -> VResult<Binding<'a>> {
        if arity == 0
            && (self.arg_is_action_level(a)
                || ((self.frame.init_mode.get() || self.primes_param(body, param, pos)) && self.mentions_var(a, env)))
        {
            return Ok(Binding::Op(std::rc::Rc::new(Closure { own: None, params: Vec::new(), body: a, env: env.clone(), memo: None, depth: self.frames_entered() })));
        }
        self.op_arg(arity, a, env)
    }

    pub(super) fn assign(&self, r: VarRef<'a>, v: Value, k: &mut Cont<'_>) -> VResult<bool> {
        let slot = match r {
            VarRef::Slot(slot) => slot,
            VarRef::Free(name) => {
                let existing = self.frame.free.borrow().iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
                return match existing {
                    Some(old) => {
                        if old.tlc_eq(&v)? { k() } else { Ok(true) }
                    }
                    None => {
                        let v = v.canonical()?;
                        self.frame.free.borrow_mut().push((name, v));
                        let r = k();
                        self.frame.free.borrow_mut().pop();
                        r
                    }
                };
            }
        };
        // Compared with the value already assigned, if any, without copying it.
        let same = match &self.frame.next.borrow()[slot] {
            Some(old) => Some(old.tlc_eq(&v)?),
            None => None,
        };
        match same {
            Some(same) => {
                if same { k() } else { Ok(true) }
            }
            None => {
                // Moved in as it is unless a lazy set must be built (no copy of the value).
                let v = if v.is_lazy() { v.canonical()? } else { v };
                self.frame.next.borrow_mut()[slot] = Some(v);
                let r = k();
                self.frame.next.borrow_mut()[slot] = None;
                r
            }
        }
    }

    fn guard(&self, e: &'a Expr, env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        if self.ev_bool(e, env)? { k() } else { Ok(true) }
    }

    /// Enumerate the action `e`: call `k` for each way of satisfying it (with the partial next
    /// state extended accordingly). Returns false when `k` asked to stop.
    pub(super) fn act(&self, e: &'a Expr, env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        self.enter().map_err(|x| x.at(e.span))?;
        let r = self.act_inner(e, env, k).map_err(|x| x.at(e.span));
        self.leave();
        r
    }

    /// `body` under each environment in turn, as a conjunction (`pending` as in
    /// `act_conj_from`).
    fn act_each(&self, body: &'a Expr, envs: &[Env<'a>], k: &mut Cont<'_>, pending: bool) -> VResult<bool> {
        match envs.split_first() {
            None => k(),
            Some(_) if pending && self.conditions_from(body) => {
                self.all_hold(envs.iter().map(|env| (body, env)), k)
            }
            Some((first, rest)) => self.act(body, first, &mut || self.act_each(body, rest, k, true)),
        }
    }

    /// Whether enumerating `e` as an action may give more than one way to satisfy it: it has,
    /// where an action is enumerated (conjuncts, the branches of IF and CASE, LET and label
    /// bodies, `\A` bodies, the bodies of the definitions it applies), a disjunction or a
    /// `\E`. Followed 8 definitions deep; deeper, and anything unknown (an operator argument,
    /// an instance), counts as yes. Found once per node.
    pub(super) fn may_branch(&self, e: &'a Expr, depth: u32) -> bool {
        let key = e as *const Expr as usize;
        if let Some(&known) = self.caches.branching.borrow().get(&key) {
            return known;
        }
        let r = self.may_branch_at(e, depth);
        self.caches.branching.borrow_mut().insert(key, r);
        r
    }

    fn may_branch_at(&self, e: &'a Expr, depth: u32) -> bool {
        if depth > 8 {
            return true;
        }
        let sub = |x: &'a Expr| self.may_branch_at(x, depth);
        match &*e.kind {
            ExprKind::Junction { kind: JunctionKind::Or, .. } | ExprKind::Quant { kind: QuantKind::Exists, .. } => true,
            ExprKind::Junction { kind: JunctionKind::And, items, .. } => items.iter().any(sub),
            ExprKind::Quant { kind: QuantKind::Forall, body, .. } | ExprKind::Let { body, .. } | ExprKind::Label { body, .. } => sub(body),
            ExprKind::If { then, els, .. } => sub(then) || sub(els),
            ExprKind::Case { arms, other } => arms.iter().any(|a| sub(&a.body)) || other.as_ref().is_some_and(sub),
            ExprKind::OpApp { op, args } if op.path.is_empty() => match (op.name.as_str(), args.len()) {
                // A composition may reach several states (and, all variables assigned, TLC
                // evaluates it on the step, as `composed_step` does).
                ("\\/", 2) | ("\\cdot", 2) => true,
                ("/\\", 2) => args.iter().any(sub),
                ("=>", 2) => sub(&args[1]),
                (name, _) => match self.program.globals.get(name) {
                    Some(Global::Op(d)) => self.may_branch_at(&d.body, depth + 1),
                    Some(_) => false,
                    // A variable or a standard operator written as a symbol is a value; another
                    // name may be bound locally (a parameter passed by name, a LET operator)
                    // and stand for anything.
                    None => {
                        !self.program.vars.contains_key(name)
                            && !matches!(name, "TRUE" | "FALSE")
                            && name.starts_with(|c: char| c.is_alphabetic() || c == '_')
                    }
                },
            },
            ExprKind::OpApp { .. } => true,
            // `f[a]` of a function definition is enumerated as its body (see `act_inner`); a
            // name that is no definition, variable or constant may be a LET function.
            ExprKind::FunApp { fun, .. } => match &*fun.kind {
                ExprKind::OpApp { op, args } if op.path.is_empty() && args.is_empty() => match self.program.globals.get(op.name.as_str()) {
                    Some(Global::Fun(d)) => !self.fun_tabled(d) && self.may_branch_at(&d.body, depth + 1),
                    Some(_) => false,
                    None => !self.program.vars.contains_key(op.name.as_str()),
                },
                _ => false,
            },
            _ => false,
        }
    }

    /// The function definition `fun` names, with the environment its body is read in (a LET
    /// function sees itself, as it may be recursive): None for anything else.
    fn fun_def_named(&self, fun: &'a Expr, env: &Env<'a>) -> Option<(&'a FunDef, Env<'a>)> {
        let ExprKind::OpApp { op, args } = &*fun.kind else { return None };
        if !op.path.is_empty() || !args.is_empty() {
            return None;
        }
        match self.local(op, env) {
            Some(Binding::Fun(d, fenv)) => Some((d, fenv.bind(&d.name.name, Binding::Fun(d, fenv.clone())))),
            Some(_) => None,
            None => match self.global_at(op) {
                Some(Global::Fun(d)) if !self.fun_tabled(d) => Some((d, Env::default())),
                _ => None,
            },
        }
    }

    /// Whether TLC holds the module's function definition `d` as a table when an action
    /// applies it. TLC evaluates a constant-level definition once, before checking, and makes
    /// a table of a non-recursive one whose domains are finite (Tool.evalAppl, OPCODE_nrfs);
    /// a recursive one, or one that reads the state, stays a lambda (a LET's always does).
    fn fun_tabled(&self, d: &'a FunDef) -> bool {
        let key = d as *const FunDef as usize;
        if let Some(&known) = self.caches.tabled.borrow().get(&key) {
            return known;
        }
        let name = d.name.name.as_str();
        let mut recursive = false;
        tla_syntax::ast::walk(&d.body, &mut |x| {
            if let ExprKind::OpApp { op, .. } = &*x.kind
                && op.path.is_empty()
                && op.name == name
            {
                recursive = true;
            }
        });
        let tabled = !recursive
            && self.frame.ctx.borrow().is_empty()
            && self.def_const(key, &[name], &d.body, &d.bounds, 0)
            && self.bound_sets(&d.bounds, &Env::default()).is_ok_and(|sets| sets.iter().all(|s| !matches!(s, Value::Lazy(l) if !l.is_finite())));
        self.caches.tabled.borrow_mut().insert(key, tabled);
        tabled
    }

    fn act_conj(&self, items: &'a [Expr], env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        self.act_conj_from(items, env, k, false)
    }

    /// The conjuncts `items`; `pending` when the first of them is not the first of its
    /// conjunction (TLC takes it from its list of conjuncts still to come).
    fn act_conj_from(&self, items: &'a [Expr], env: &Env<'a>, k: &mut Cont<'_>, pending: bool) -> VResult<bool> {
        match items.split_first() {
            None => k(),
            Some((first, _)) if pending && self.conditions_from(first) => {
                self.all_hold(items.iter().map(|it| (it, env)), k)
            }
            Some((first, rest)) => self.act(first, env, &mut || self.act_conj_from(rest, env, k, true)),
        }
    }

    fn act_unchanged(&self, e: &'a Expr, env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        if let Some(r) = self.var_ref(e, env) {
            let v = match r {
                VarRef::Slot(slot) if self.frame.cutoff.get() == 0 => self.read_var(slot)?,
                // Inside ENABLED an instance's variable keeps its value now, which is its
                // substitute's value in the current state.
                _ => self.ev(e, env)?,
            };
            return self.assign(r, v, k);
        }
        // A parameter whose argument was passed by name: UNCHANGED of that argument.
        if let Some(cl) = by_name(self, e, env) {
            return self.act_in_closure_frames(cl.depth, &mut |k| self.act_unchanged(cl.body, &cl.env, k), k);
        }
        // A variable of an instance that the instance substitutes by an expression that is not
        // a variable (`UNCHANGED z` with `z <- <<u, y>>`): UNCHANGED of that expression, where
        // the instance reads it.
        if let ExprKind::OpApp { op, args } = &*e.kind
            && op.path.is_empty()
            && args.is_empty()
            && self.local(op, env).is_none()
            && self.frame.cutoff.get() == 0
            && !self.frame.ctx.borrow().is_empty()
            && let Some((x, senv, level)) = self.substitution_of(&self.in_instances(op as *const OpName as usize, &op.name))
        {
            return self.act_in_closure_frames(level, &mut |k| self.act_unchanged(x, &senv, k), k);
        }
        match &*e.kind {
            ExprKind::Tuple(items) => self.act_unchanged_list(items, env, k),
            ExprKind::OpApp { op, args } if op.path.is_empty() && args.is_empty() && self.local(op, env).is_none() => {
                match self.global_at(op) {
                    Some(Global::Op(d)) if d.params.is_empty() => self.act_unchanged(&d.body, &Env::default(), k),
                    _ => self.unchanged_guard(e, env, k),
                }
            }
            _ => self.unchanged_guard(e, env, k),
        }
    }

    fn unchanged_guard(&self, e: &'a Expr, env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        let now = self.ev(e, env)?;
        let then = self.ev_primed(e, env)?;
        if now.tlc_eq(&then)? { k() } else { Ok(true) }
    }

    fn act_unchanged_list(&self, items: &'a [Expr], env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        match items.split_first() {
            None => k(),
            Some((first, rest)) => self.act_unchanged(first, env, &mut || self.act_unchanged_list(rest, env, k)),
        }
    }

    /// Each disjunct in turn, counted under the action it begins (see `enter_marked`).
    fn act_disj(&self, items: &'a [Expr], env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        for it in items {
            let whole = self.enter_marked(self.disjunct_mark(it));
            let r = self.act(it, env, k);
            self.leave_action(whole);
            if !r? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn act_inner(&self, e: &'a Expr, env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        match &*e.kind {
            ExprKind::Junction { kind: JunctionKind::And, items, .. } => self.act_conj(items, env, k),
            ExprKind::Junction { kind: JunctionKind::Or, items, .. } => self.act_disj(items, env, k),
            ExprKind::Label { body, .. } => self.act(body, env, k),
            ExprKind::If { cond, then, els } => {
                if self.ev_bool(cond, env)? { self.act(then, env, k) } else { self.act(els, env, k) }
            }
            ExprKind::Case { arms, other } => {
                for arm in arms {
                    if self.ev_bool(&arm.guard, env)? {
                        return self.act(&arm.body, env, k);
                    }
                }
                match other {
                    Some(o) => self.act(o, env, k),
                    None => Err(err(codes::CASE_NONE, "Attempted to evaluate a CASE with no arm enabled and no OTHER")),
                }
            }
            ExprKind::Let { defs, body } => {
                let env2 = self.let_env(defs, env)?;
                self.act(body, &env2, k)
            }
            // As TLC: `f[a]`, where `f` is a function definition (the module's or a LET's), is
            // not read as a value in an action. TLC holds such a function as a lambda with no
            // table yet, and enumerates its body as an action with the bound names given `a`
            // (Tool.getNextStates, OPCODE_fa): a disjunction or `\E` there branches, and a
            // successor reached through two disjuncts that hold is generated twice.
            ExprKind::FunApp { fun, args } if self.may_branch(e, 0) && let Some((d, fenv)) = self.fun_def_named(fun, env) && self.may_branch(&d.body, 0) => {
                let arg = if args.len() == 1 {
                    self.ev(&args[0], env)?
                } else {
                    Value::tuple(args.iter().map(|a| self.ev(a, env)).collect::<VResult<_>>()?)?
                };
                let env2 = self.fun_def_env(d, &fenv, &arg)?;
                self.act(&d.body, &env2, k)
            }
            // As TLC: `\A` in an action is the conjunction of its instances, each enumerated
            // as an action, so a disjunction or `\E` inside branches (and counts as TLC counts).
            // A body that cannot branch is a guard.
            ExprKind::Quant { kind: QuantKind::Forall, bounds, body } if self.may_branch(body, 0) => {
                let sets = self.bound_sets(bounds, env)?;
                for s in &sets {
                    if let Value::Lazy(l) = s
                        && !l.is_finite() {
                            return Err(err(codes::NOT_ENUMERABLE, format!("\\A over the infinite set {} cannot be enumerated", s)));
                        }
                }
                let mut envs = Vec::new();
                self.for_each_binding(bounds, &sets, env, &mut |env2| {
                    envs.push(env2.clone());
                    Ok(true)
                })?;
                // TLC takes the first instance, then the others from the last to the second
                // (each is put in front of the rest of the action in turn).
                if envs.len() > 2 {
                    envs[1..].reverse();
                }
                self.act_each(body, &envs, k, false)
            }
            ExprKind::Quant { kind: QuantKind::Exists, bounds, body } => {
                let sets = self.bound_sets(bounds, env)?;
                for s in &sets {
                    if let Value::Lazy(l) = s
                        && !l.is_finite() {
                            return Err(err(codes::NOT_ENUMERABLE, format!("\\E over the infinite set {} cannot be enumerated", s)));
                        }
                }
                self.for_each_binding(bounds, &sets, env, &mut |env2| self.act(body, env2, k))
            }
            ExprKind::BoxAction { action, sub } => {
                if !self.act(action, env, k)? {
                    return Ok(false);
                }
                self.act_unchanged(sub, env, k)
            }
            ExprKind::AngleAction { action, sub } => self.act(action, env, &mut || {
                let now = self.ev(sub, env)?;
                let then = self.ev_primed(sub, env)?;
                if now.tlc_eq(&then)? { Ok(true) } else { k() }
            }),
            ExprKind::OpApp { op, args } if op.path.is_empty() => self.act_op(e, op, args, env, k),
            ExprKind::OpApp { op, args } => {
                let (frames, target) = self.resolve_path(op, env)?;
                let Some(Global::Op(d)) = target else { return self.guard(e, env, k) };
                if d.params.len() != args.len() {
                    return Err(err(codes::ARITY, format!("{} takes {} arguments, not {}", op.name, d.params.len(), args.len())));
                }
                let mut callee = Env::default();
                for (i, (p, a)) in d.params.iter().zip(args.iter()).enumerate() {
                    callee = callee.bind(&p.name.name, self.action_arg(p.arity, a, env, &d.body, &p.name.name, i)?);
                }
                // The continuation runs in the caller's module.
                let outer = self.frame.ctx.borrow().clone();
                let n = frames.len();
                self.in_frames(frames, || {
                    self.act(&d.body, &callee, &mut || {
                        let inner = std::mem::replace(&mut *self.frame.ctx.borrow_mut(), outer.clone());
                        let r = k();
                        *self.frame.ctx.borrow_mut() = inner;
                        r
                    })
                })
                .inspect(|_| debug_assert!(n > 0))
            }
            _ => self.guard(e, env, k),
        }
    }

    fn act_op(&self, e: &'a Expr, op: &'a OpName, args: &'a [Expr], env: &Env<'a>, k: &mut Cont<'_>) -> VResult<bool> {
        let name = op.name.as_str();
        match (name, args.len()) {
            ("/\\", 2) => return self.act_conj(args, env, k),
            ("\\/", 2) => return self.act_disj(args, env, k),
            ("=", 2) => {
                if let Some(r) = self.target_slot(&args[0], env) {
                    let v = self.ev(&args[1], env)?;
                    return self.assign(r, v, k);
                }
                return self.guard(e, env, k);
            }
            ("\\in", 2) => {
                if let Some(slot) = self.target_slot(&args[0], env) {
                    if self.is_assigned(slot) {
                        return self.guard(e, env, k);
                    }
                    let set = self.ev(&args[1], env)?;
                    if let Value::Lazy(l) = &set
                        && !l.is_finite() {
                            let vn = self.var_name(slot);
                            return Err(err(
                                codes::NOT_ENUMERABLE,
                                format!("{}{} \\in {}: TLC cannot enumerate an infinite set of values for a variable", vn, if self.frame.init_mode.get() { "" } else { "'" }, set),
                            ));
                        }
                    for v in set.elements()? {
                        if !self.assign(slot, v?, k)? {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
                return self.guard(e, env, k);
            }
            ("UNCHANGED", 1) if !self.frame.primed.get() => return self.act_unchanged(&args[0], env, k),
            ("\\cdot", 2) if !self.frame.primed.get() && !self.frame.init_mode.get() => return self.act_composed(&args[0], &args[1], env, k),
            // As TLC: when P holds, Q is enumerated as an action (a disjunction in Q branches).
            ("=>", 2) => {
                return if self.ev_bool(&args[0], env)? { self.act(&args[1], env, k) } else { k() };
            }
            _ => {}
        }
        // Outside instances, what the name means at this node is found once (see `op_app`).
        let top = self.frame.ctx.borrow().is_empty();
        let known = self.meaning_at(op, args, env, top);
        let local = match known {
            Some(Resolved::Local(b)) => env.get_or_find(b, name),
            Some(Resolved::Def(d) | Resolved::Kept(d)) if top => return self.act_def(d, args, env, k, name),
            // A variable, a standard operator, a constant, a function, a replaced library
            // definition, a named ASSUME or THEOREM: a condition.
            Some(
                Resolved::Var(_) | Resolved::Builtin(_) | Resolved::Ext | Resolved::Constant(_) | Resolved::Fun(_) | Resolved::Native(_) | Resolved::Stated(_),
            ) if top => return self.guard(e, env, k),
            Some(_) => None,
            None => env.find_name(name),
        };
        // A call of a user definition: enumerate its body with the arguments bound.
        if let Some(b) = local {
            if let Binding::Op(cl) = b {
                let cl: std::rc::Rc<Closure<'a>> = cl.clone();
                if cl.params.len() == args.len() {
                    let mut callee = match cl.own {
                        Some(own) => cl.env.bind(own, Binding::Op(cl.clone())),
                        None => cl.env.clone(),
                    };
                    for (i, ((p, arity), a)) in cl.params.iter().zip(args.iter()).enumerate() {
                        callee = callee.bind(p, self.action_arg(*arity, a, env, cl.body, p, i)?);
                    }
                    return self.act_in_closure_frames(cl.depth, &mut |k| self.act(cl.body, &callee, k), k);
                }
            }
            return self.guard(e, env, k);
        }
        let global = if top {
            if self.program.vars.contains_key(name) {
                return self.guard(e, env, k);
            }
            self.global(name)
        } else {
            // What the name means in the instances entered (see `instance`): a variable or a
            // name they substitute is a condition here.
            let n = self.in_instances(op as *const OpName as usize, name);
            if n.var.is_some() || n.substituted_here(args.is_empty()) {
                return self.guard(e, env, k);
            }
            n.global.clone()
        };
        if let Some(Global::Op(d)) = global {
            return self.act_def(d, args, env, k, name);
        }
        self.guard(e, env, k)
    }

    /// Enumerate the body of the global definition `d` with its parameters bound to `args`.
    fn act_def(&self, d: &'a OpDef, args: &'a [Expr], env: &Env<'a>, k: &mut Cont<'_>, name: &str) -> VResult<bool> {
        if d.params.len() != args.len() {
            return Err(err(codes::ARITY, format!("{} takes {} arguments, not {}", name, d.params.len(), args.len())));
        }
        let mut callee = Env::default();
        for (i, (p, a)) in d.params.iter().zip(args.iter()).enumerate() {
            callee = callee.bind(&p.name.name, self.action_arg(p.arity, a, env, &d.body, &p.name.name, i)?);
        }
        self.act(&d.body, &callee, k)
    }

    /// Whether the definition whose body is `body` primes, UNCHANGEs or takes ENABLED of its
    /// parameter `param` (at `pos`), directly or through the definitions it calls: then its
    /// argument is passed by name (see `level::acts_on_param`). Found once per definition and
    /// position.
    pub(super) fn primes_param(&self, body: &'a Expr, param: &str, pos: usize) -> bool {
        let key = (body as *const Expr as usize, pos);
        if let Some(&known) = self.caches.primed_params.borrow().get(&key) {
            return known;
        }
        let r = self.acts_on_param(body, param);
        self.caches.primed_params.borrow_mut().insert(key, r);
        r
    }
}

impl<'a> ConstEval<'a> {
    /// `may_be_action` of an action call's argument, found once per argument.
    fn arg_is_action_level(&self, a: &'a Expr) -> bool {
        let key = a as *const Expr as usize;
        if let Some(&known) = self.caches.action_level.borrow().get(&key) {
            return known;
        }
        let r = self.may_be_action(a);
        self.caches.action_level.borrow_mut().insert(key, r);
        r
    }
}

/// The operator an action applies, through `\E`, LET and labels (`\E m \in msgs : Receive(m)`).
fn applied_operator(e: &Expr) -> Option<&str> {
    match &*e.kind {
        ExprKind::OpApp { op, .. } if op.path.is_empty() && op.name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && op.name != "UNCHANGED" => Some(&op.name),
        ExprKind::OpApp { op, .. } if !op.path.is_empty() => Some(&op.name),
        ExprKind::Quant { body, .. } | ExprKind::Let { body, .. } | ExprKind::Label { body, .. } => applied_operator(body),
        _ => None,
    }
}

/// What splitting Next into TLC's actions gathers: each action's formula (by address) and
/// name, and the disjuncts where one begins.
#[derive(Default)]
struct Splitter<'a> {
    keys: Vec<usize>,
    names: Vec<String>,
    sites: Vec<ActionSite>,
    marks: crate::fxhash::FxHashMap<usize, u32>,
    /// Names of the LETs entered whose definitions are not constant-level.
    varying: Vec<&'a str>,
}

/// Values bound to names (a quantifier's variables, an operator's parameters) and the instances
/// a formula is read in, for formulas evaluated under bindings: `\A p \in P : WF_vars(Act(p))`
/// gives one fairness condition per `p`; the parts of `I!Spec` are read inside the instance `I`.
#[derive(Clone, Default)]
pub struct Bindings<'a> {
    pub(super) env: Env<'a>,
    frames: Vec<InstFrame<'a>>,
}

impl<'a> Bindings<'a> {
    pub fn bind(&self, name: &'a str, v: Value) -> Bindings<'a> {
        Bindings { env: self.env.bind_value(name, v), frames: self.frames.clone() }
    }
    /// Whether names are bound (a property under a quantifier goes to liveness, as
    /// `\A p : [](...)` does in TLC).
    pub fn has_names(&self) -> bool {
        self.env.0.is_some()
    }
    /// No bound names and no instance: the formula reads as written in the root module.
    pub fn is_empty(&self) -> bool {
        self.env.0.is_none() && self.frames.is_empty()
    }
}

impl<'a> ConstEval<'a> {
    fn with_b<T>(&self, b: &Bindings<'a>, f: impl FnOnce() -> VResult<T>) -> VResult<T> {
        if b.frames.is_empty() { f() } else { self.in_frames(b.frames.clone(), f) }
    }

    /// Evaluate `e` under `b` with `from` as the current state and, when given, `to` as the next.
    pub fn eval_with(&self, e: &'a Expr, b: &Bindings<'a>, from: &State, to: Option<&State>) -> VResult<Value> {
        let old = self.frame.cur.replace(from.clone());
        let old_next = to.map(|t| std::mem::replace(&mut *self.frame.next.borrow_mut(), t.iter().cloned().map(Some).collect()));
        let r = self.with_b(b, || self.ev(e, &b.env));
        *self.frame.cur.borrow_mut() = old;
        if let Some(n) = old_next {
            *self.frame.next.borrow_mut() = n;
        }
        r
    }

    /// `ENABLED <<A>>_sub` (or `ENABLED A` without `sub`) under `b` in `state`.
    pub fn enabled_with(&self, a: &'a Expr, sub: Option<&'a Expr>, b: &Bindings<'a>, state: &State) -> VResult<bool> {
        let old = self.frame.cur.replace(state.clone());
        let n = self.program.var_names.len();
        let saved = std::mem::replace(&mut *self.frame.next.borrow_mut(), vec![None; n]);
        let saved_free = std::mem::take(&mut *self.frame.free.borrow_mut());
        let enumerating = self.frame.enumerating.replace(false);
        let mut found = false;
        let r = self.with_b(b, || {
            // The instances the fairness condition is read in were entered before ENABLED.
            let cutoff = self.frame.cutoff.replace(self.frame.ctx.borrow().len());
            let r = self.act(a, &b.env, &mut || {
                // Variables that A leaves unassigned may take any value (see `enabled`).
                if let Some(s) = sub {
                    let now = self.ev(s, &b.env)?;
                    match self.ev_primed(s, &b.env) {
                        Ok(then) => {
                            if now.tlc_eq(&then)? {
                                return Ok(true);
                            }
                        }
                        // `sub` reads a variable that A leaves free: some value of it makes
                        // `sub` change, so the step <<A>>_sub exists.
                        Err(e) if e.code == codes::UNASSIGNED => {}
                        Err(e) => return Err(e),
                    }
                }
                found = true;
                Ok(false)
            });
            self.frame.cutoff.set(cutoff);
            r
        });
        self.frame.enumerating.set(enumerating);
        *self.frame.free.borrow_mut() = saved_free;
        *self.frame.next.borrow_mut() = saved;
        *self.frame.cur.borrow_mut() = old;
        r.map(|_| found)
    }

    /// Every successor of `state` by the action `a` with `b` bound (an action operator's body
    /// with its parameters bound to the arguments of a trace step, or a next-state relation
    /// that a SPECIFICATION reaches through an instance), in TLC's order.
    pub fn successors_with(&self, a: &'a Expr, b: &Bindings<'a>, state: &State, emit: &mut dyn FnMut(State) -> VResult<()>) -> VResult<()> {
        let n = self.program.var_names.len();
        *self.frame.next.borrow_mut() = vec![None; n];
        *self.frame.cur.borrow_mut() = state.clone();
        self.enumerating(|| {
            self.with_b(b, || {
                self.act(a, &b.env, &mut || {
                    let st = self.complete("the action")?;
                    emit(st)?;
                    Ok(true)
                })
            })
        })
        .map(|_| ())
    }

    /// Every initial state satisfying all of `parts`, each read under its bindings (the parts
    /// of an instance's Init are read inside the instance), in TLC's order.
    pub fn initial_states_with(&self, parts: &[(&'a Expr, Bindings<'a>)], emit: &mut dyn FnMut(State) -> VResult<()>) -> VResult<()> {
        self.enumerate_init(emit, &mut |k| self.act_bound(parts, k))
    }

    fn act_bound(&self, items: &[(&'a Expr, Bindings<'a>)], k: &mut Cont<'_>) -> VResult<bool> {
        match items.split_first() {
            None => k(),
            Some(((first, b), rest)) => {
                if b.frames.is_empty() {
                    return self.act(first, &b.env, &mut || self.act_bound(rest, k));
                }
                // The rest of the conjunction runs in the caller's module.
                let outer = self.frame.ctx.borrow().clone();
                self.in_frames(b.frames.clone(), || {
                    self.act(first, &b.env, &mut || {
                        let inner = std::mem::replace(&mut *self.frame.ctx.borrow_mut(), outer.clone());
                        let r = self.act_bound(rest, k);
                        *self.frame.ctx.borrow_mut() = inner;
                        r
                    })
                })
            }
        }
    }

    /// The definition a name applied to arguments stands for under `b`, when it is a user
    /// definition (`Op(args)`, `I!Op(args)`, or a parameter passed by name): its body, with
    /// the parameters bound (constant arguments by value, others by name) and the instance
    /// frames extended. None for variables, built-in operators and anything else.
    pub fn unfold_with(&self, e: &'a Expr, b: &Bindings<'a>) -> Option<(&'a Expr, Bindings<'a>)> {
        let ExprKind::OpApp { op, args } = &*e.kind else {
            if let ExprKind::Label { body, .. } = &*e.kind {
                return Some((body, b.clone()));
            }
            return None;
        };
        if op.path.is_empty() {
            if let Some(bd) = self.local(op, &b.env) {
                return match bd {
                    Binding::Op(cl) if cl.params.is_empty() && args.is_empty() => {
                        Some((cl.body, Bindings { env: cl.env.clone(), frames: b.frames[..cl.depth.min(b.frames.len())].to_vec() }))
                    }
                    _ => None,
                };
            }
            if args.is_empty() && self.program.vars.contains_key(op.name.as_str()) {
                return None;
            }
            // A name an instance substitutes reads in the module that gives it its meaning.
            match self.outer_meaning(&b.frames, &op.name) {
                Some(OuterMeaning::Subst(x, env, level)) => {
                    if !args.is_empty() {
                        return None;
                    }
                    return Some((x, Bindings { env, frames: b.frames[..level].to_vec() }));
                }
                Some(OuterMeaning::Def(g, level)) => {
                    return match g {
                        Global::Op(d) if d.params.is_empty() && args.is_empty() => {
                            Some((&d.body, Bindings { env: Env::default(), frames: b.frames[..level].to_vec() }))
                        }
                        _ => None,
                    };
                }
                None => {}
            }
        }
        let (frames, target) = if op.path.is_empty() {
            (b.frames.clone(), self.with_b(b, || Ok(self.global(&op.name))).ok()?)
        } else {
            let (mut fr, t) = self.with_b(b, || self.resolve_path(op, &b.env)).ok()?;
            let mut all = b.frames.clone();
            all.append(&mut fr);
            (all, t)
        };
        let Some(Global::Op(d)) = target else { return None };
        if d.params.len() != args.len() {
            return None;
        }
        let mut env = Env::default();
        for (p, a) in d.params.iter().zip(args.iter()) {
            let bind = if p.arity == 0 {
                // An action or a temporal formula is passed by name; anything else by value
                // if it has one here.
                let val = if self.level_in(a, &b.env).is_none_or(|l| l >= Level::Action) { None } else { self.with_b(b, || self.ev(a, &b.env)).ok() };
                match val {
                    Some(v) => Binding::Value(v),
                    None => Binding::Op(std::rc::Rc::new(Closure { own: None, params: Vec::new(), body: a, env: b.env.clone(), memo: None, depth: b.frames.len() })),
                }
            } else {
                self.with_b(b, || self.op_arg(p.arity, a, &b.env)).ok()?
            };
            env = env.bind(&p.name.name, bind);
        }
        Some((&d.body, Bindings { env, frames }))
    }

    /// The bindings of a quantifier's bounds (`\A p \in P, q \in Q`, tuples included) under
    /// `b`, in TLC's order. Errors for unbounded or infinite bounds.
    pub fn bindings_of(&self, bounds: &'a [Bound], b: &Bindings<'a>) -> VResult<Vec<Bindings<'a>>> {
        self.with_b(b, || {
            if bounds.iter().any(|x| x.set.is_none()) {
                return Err(err(codes::NOT_ENUMERABLE, "TLC cannot evaluate an unbounded quantifier here"));
            }
            let sets = self.bound_sets(bounds, &b.env)?;
            let mut out = Vec::new();
            self.for_each_binding(bounds, &sets, &b.env, &mut |e2| {
                out.push(Bindings { env: e2.clone(), frames: b.frames.clone() });
                Ok(true)
            })?;
            Ok(out)
        })
    }

    /// The elements of a constant-level set expression under `b` (for splitting `\A p \in P`).
    pub fn elements_of(&self, e: &'a Expr, b: &Bindings<'a>) -> VResult<Vec<Value>> {
        self.with_b(b, || self.ev(e, &b.env)?.elements()?.collect())
    }
}

/// parameters, read in its own environment).
fn by_name<'a>(ev: &ConstEval<'a>, e: &'a Expr, env: &Env<'a>) -> Option<std::rc::Rc<Closure<'a>>> {
    let ExprKind::OpApp { op, args } = &*e.kind else { return None };
    if !op.path.is_empty() || !args.is_empty() {
        return None;
    }
    match ev.local(op, env) {
        Some(Binding::Op(cl)) if cl.params.is_empty() => Some(cl.clone()),
        _ => None,
    }
}
