//! The actions of the runtime score: the disjuncts of Next, each named after the operator it
//! applies, found through `\/`, `\E`, labels and operator definitions whose body is itself a
//! disjunction or an `\E` (so `Next == \E t \in T : A(t) \/ B(t)` has the actions A and B, as
//! TLC's coverage names them). A disjunct that is a conjunction (`guard /\ A(t)`) is named after
//! the first operator it applies; its successors are those of that operator, Next's guard aside.
//!
//! [`Covered`] wraps a model for the simulator and records which named actions produced a
//! successor in some state a behaviour visited (an action is evaluated on its own only until it
//! has produced one, so the cost vanishes once every action has been seen).

use std::cell::RefCell;
use tla_trace::ActionSteps;
use tla_check::model::{Model, ModelError};
use tla_check::{ActionId, Spec};
use tla_eval::State;
use tla_syntax::ast::{Expr, ExprKind, JunctionKind, QuantKind};

fn is_split_point(e: &Expr) -> bool {
    match &*e.kind {
        ExprKind::Junction { kind: JunctionKind::Or, .. } | ExprKind::Quant { kind: QuantKind::Exists, .. } => true,
        ExprKind::OpApp { op, args } => op.path.is_empty() && op.name == "\\/" && args.len() == 2,
        ExprKind::Label { body, .. } => is_split_point(body),
        _ => false,
    }
}

/// Whether `e` reads a state variable, directly or through the definitions it applies
/// (followed a few calls deep; too deep counts as reading).
fn reads_state(m: &Model<'_>, vars: &[String], e: &Expr, depth: u32) -> bool {
    if depth > 12 {
        return true;
    }
    let sub = |x: &Expr| reads_state(m, vars, x, depth + 1);
    match &*e.kind {
        ExprKind::OpApp { op, args } => {
            (op.path.is_empty() && vars.iter().any(|v| *v == op.name))
                || args.iter().any(sub)
                || (op.path.is_empty() && m.action_definition(&op.name).is_some_and(|d| sub(&d.body)))
        }
        ExprKind::Num(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::Decimal(_) => false,
        ExprKind::FunApp { fun, args } => sub(fun) || args.iter().any(sub),
        ExprKind::Field { record, .. } => sub(record),
        ExprKind::Junction { items, .. } | ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => items.iter().any(sub),
        ExprKind::If { cond, then, els } => sub(cond) || sub(then) || sub(els),
        ExprKind::Case { arms, other } => arms.iter().any(|a| sub(&a.guard) || sub(&a.body)) || other.as_ref().is_some_and(sub),
        ExprKind::Quant { bounds, body, .. } | ExprKind::SetMap { body, bounds } | ExprKind::FunCons { bounds, body } => {
            sub(body) || bounds.iter().any(|b| b.set.as_ref().is_some_and(sub))
        }
        ExprKind::SetFilter { bound, pred: body } | ExprKind::Choose { bound, body } => sub(body) || bound.set.as_ref().is_some_and(sub),
        ExprKind::FunSet { domain, range } => sub(domain) || sub(range),
        ExprKind::Record(fs) | ExprKind::RecordSet(fs) => fs.iter().any(|(_, x)| sub(x)),
        ExprKind::Except { base, updates } => sub(base) || updates.iter().any(|u| sub(&u.value)),
        ExprKind::Label { body, .. } => sub(body),
        // Anything else (LET, temporal forms, ...) is taken to read the state.
        _ => true,
    }
}

/// Whether the actions are found inside the body of a definition Next applies: a disjunction
/// is split, and so is an `\E` over sets that do not depend on the state
/// (`\E j \in Servers \ {i} : ...`); an `\E m \in msgs : ...` is the definition's own
/// choice, and the action keeps the definition's name, as TLC's coverage names it.
fn splits_into_actions(m: &Model<'_>, body: &Expr) -> bool {
    match &*body.kind {
        ExprKind::Quant { kind: QuantKind::Exists, bounds, .. } => {
            let vars = m.variables();
            bounds.iter().all(|b| b.set.as_ref().is_some_and(|s| !reads_state(m, &vars, s, 0)))
        }
        ExprKind::Label { body, .. } => splits_into_actions(m, body),
        _ => is_split_point(body),
    }
}

/// The first user-defined operator a formula applies (for a conjunction disjunct).
fn first_operator(m: &Model<'_>, e: &Expr, depth: u32) -> Option<String> {
    if depth > 30 {
        return None;
    }
    match &*e.kind {
        ExprKind::OpApp { op, args } => {
            if op.path.is_empty() && op.name != "UNCHANGED" && m.action_definition(&op.name).is_some() {
                return Some(op.name.clone());
            }
            args.iter().find_map(|a| first_operator(m, a, depth + 1))
        }
        ExprKind::Junction { items, .. } => items.iter().find_map(|a| first_operator(m, a, depth + 1)),
        ExprKind::Quant { body, .. } | ExprKind::Label { body, .. } | ExprKind::Let { body, .. } => first_operator(m, body, depth + 1),
        _ => None,
    }
}

fn walk(m: &Model<'_>, e: &Expr, out: &mut Vec<String>, depth: u32) -> bool {
    if depth > 30 {
        return false;
    }
    match &*e.kind {
        ExprKind::Junction { kind: JunctionKind::Or, items, .. } => items.iter().all(|x| walk(m, x, out, depth + 1)),
        ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "\\/" && args.len() == 2 => {
            args.iter().all(|x| walk(m, x, out, depth + 1))
        }
        ExprKind::Quant { kind: QuantKind::Exists, body, .. } | ExprKind::Label { body, .. } => walk(m, body, out, depth + 1),
        ExprKind::OpApp { op, .. } if op.path.is_empty() && m.action_definition(&op.name).is_some() => {
            let d = m.action_definition(&op.name).expect("checked");
            if splits_into_actions(m, &d.body) {
                walk(m, &d.body, out, depth + 1)
            } else {
                if !out.contains(&op.name) {
                    out.push(op.name.clone());
                }
                true
            }
        }
        _ => match first_operator(m, e, depth) {
            Some(n) => {
                if !out.contains(&n) {
                    out.push(n);
                }
                true
            }
            None => false,
        },
    }
}

/// The named actions of the model, in the order Next lists them; `None` when some disjunct
/// names no operator (the model's own split is used then).
pub fn named_actions(m: &Model<'_>) -> Option<Vec<String>> {
    let mut out = vec![];
    for n in m.action_names() {
        match m.action_definition(&n) {
            Some(d) if d.params.is_empty() && splits_into_actions(m, &d.body) => {
                if !walk(m, &d.body, &mut out, 0) {
                    return None;
                }
            }
            Some(_) => {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            None => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A model for the simulator that also records, per named action, whether it produced a
/// successor in some visited state.
pub struct Covered<'m, 'a> {
    pub model: &'m Model<'a>,
    pub names: Vec<String>,
    pub enabled: RefCell<Vec<bool>>,
    /// Set when a named action could not be evaluated on its own (its parameters have no set
    /// in Next): the caller falls back to the model's own actions.
    pub failed: RefCell<bool>,
}

impl<'m, 'a> Covered<'m, 'a> {
    pub fn new(model: &'m Model<'a>, names: Vec<String>) -> Self {
        let n = names.len();
        Covered { model, names, enabled: RefCell::new(vec![false; n]), failed: RefCell::new(false) }
    }

    /// The named actions that take `from` to `to`.
    pub fn actions_of_step(&self, from: &State, to: &State) -> Vec<usize> {
        let fp = self.model.fingerprint(to);
        (0..self.names.len())
            .filter(|&i| match ActionSteps::new(self.model).successors_by_action(from, &self.names[i], &[]) {
                Ok(v) => v.iter().any(|s| self.model.fingerprint(s) == fp),
                Err(_) => false,
            })
            .collect()
    }
}

impl Spec for Covered<'_, '_> {
    type State = State;
    type Error = ModelError;
    fn fingerprint(&self, s: &State) -> u64 {
        self.model.fingerprint(s)
    }
    fn initial_states(&self, out: &mut Vec<State>) -> Result<(), ModelError> {
        self.model.initial_states(out)
    }
    fn take_intermediate(&self) -> u64 {
        self.model.take_intermediate()
    }
    fn successors(&self, s: &State, out: &mut Vec<(ActionId, State)>) -> Result<(), ModelError> {
        self.model.successors(s, out)?;
        if !*self.failed.borrow() {
            let mut en = self.enabled.borrow_mut();
            for (i, n) in self.names.iter().enumerate() {
                if en[i] {
                    continue;
                }
                match ActionSteps::new(self.model).successors_by_action(s, n, &[]) {
                    Ok(v) if !v.is_empty() => en[i] = true,
                    Ok(_) => {}
                    Err(_) => *self.failed.borrow_mut() = true,
                }
            }
        }
        Ok(())
    }
    fn violated_invariant(&self, s: &State) -> Result<Option<usize>, ModelError> {
        self.model.violated_invariant(s)
    }
    fn violated_invariant_after(&self, parent: &State, s: &State) -> Result<Option<usize>, ModelError> {
        self.model.violated_invariant_after(parent, s)
    }
    fn take_fingerprint_error(&self) -> Option<ModelError> {
        self.model.take_fingerprint_error()
    }
    fn set_level(&self, level: u32) {
        self.model.set_level(level);
    }
    fn identity_fingerprint(&self, s: &State) -> Option<u64> {
        self.model.identity_fingerprint(s)
    }
    fn in_model(&self, s: &State) -> Result<bool, ModelError> {
        self.model.in_model(s)
    }
    fn in_model_after(&self, parent: &State, s: &State) -> Result<bool, ModelError> {
        self.model.in_model_after(parent, s)
    }
    fn step_in_model(&self, from: &State, to: &State) -> Result<bool, ModelError> {
        self.model.step_in_model(from, to)
    }
    fn check_step(&self, from: &State, to: &State) -> Result<(), ModelError> {
        self.model.check_step(from, to)
    }
    fn action_count(&self) -> usize {
        self.model.action_count()
    }
}
