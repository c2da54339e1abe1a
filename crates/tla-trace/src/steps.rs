//! The steps of one action of Next, for replaying a trace whose lines name an action and its
//! arguments: where Next draws an action's parameters from, whether a step is a step of Next,
//! and the successors of a state by an action with some or all of its arguments given.

use tla_check::model::{Model, ModelError};
use tla_eval::error::codes;
use tla_eval::{Bindings, State, Value, ValueError};
use tla_syntax::ast::*;

/// Where Next draws an action's parameters from ([`ActionSteps::parameter_sites`]): for each
/// parameter position, the `\E x \in S` sites that bind the argument passed there.
#[derive(Clone, Debug, Default)]
pub struct ParameterSites<'a> {
    by_param: Vec<Vec<Site<'a>>>,
}

/// One `\E x \in S` binding a parameter's argument: `S`, and the variables bound before `x`
/// (which `S` may read).
#[derive(Clone, Debug)]
struct Site<'a> {
    set: &'a Expr,
    outer: Vec<(&'a str, &'a Expr)>,
}

/// A model's steps by action.
#[derive(Clone, Copy)]
pub struct ActionSteps<'m, 'a> {
    model: &'m Model<'a>,
}

fn eval_bool<'a>(model: &Model<'a>, e: &'a Expr, env: &Bindings<'a>, from: &State, to: Option<&State>) -> Result<bool, ModelError> {
    match model.evaluator().eval_with(e, env, from, to)? {
        Value::Bool(b) => Ok(b),
        v => Err(ModelError::Eval(ValueError::new(codes::TYPE, format!("expected a boolean, found {}", v)).at(e.span))),
    }
}

impl<'m, 'a> ActionSteps<'m, 'a> {
    pub fn new(model: &'m Model<'a>) -> ActionSteps<'m, 'a> {
        ActionSteps { model }
    }

    /// Where Next applies `name(p1, ..., pn)` under `\E p \in S`, the elements of each `S` (by
    /// parameter position); `None` for a parameter whose argument is not a bound variable of a
    /// constant-level set.
    pub fn parameter_domains(&self, name: &str) -> Vec<Option<Vec<Value>>> {
        self.domains_at(&self.parameter_sites(name), None)
    }

    /// Where Next draws each parameter of `name` from, found by one walk of Next's text: for
    /// each parameter position, every `\E x \in S` whose `x` an application of `name` passes
    /// there, in the order Next's text has them. [`ActionSteps::domains_at`] evaluates them.
    pub fn parameter_sites(&self, name: &str) -> ParameterSites<'a> {
        let arity = self.model.evaluator().definition(name).map_or(0, |d| d.params.len());
        let mut sites = ParameterSites { by_param: vec![Vec::new(); arity] };
        let mut bound: Vec<(&'a str, &'a Expr)> = Vec::new();
        for a in self.model.next_actions() {
            self.find_sites(a.expr, name, &mut bound, &mut sites, 0);
        }
        sites
    }

    /// The values of each parameter: the first of its sites whose set can be enumerated,
    /// at constant level or, given a state, in that state (a set that reads the state,
    /// `\E m \in network[self] : Receive(self, m)`, is evaluated there).
    pub fn domains_at(&self, sites: &ParameterSites<'a>, state: Option<&State>) -> Vec<Option<Vec<Value>>> {
        sites.by_param.iter().map(|candidates| candidates.iter().find_map(|site| self.domain_values(site.set, &site.outer, state))).collect()
    }

    /// The elements of the set a bound variable is drawn from. A set that depends on the
    /// variables bound before it (`\E i \in S : \E j \in S \ {i} : A(i, j)`) gives the
    /// union of its values over theirs, in enumeration order; [`ActionSteps::successors_by_action`]
    /// keeps only the steps of Next, so a value Next would not draw for some `i` adds nothing.
    fn domain_values(&self, set: &'a Expr, outer: &[(&'a str, &'a Expr)], state: Option<&State>) -> Option<Vec<Value>> {
        // The set's elements, at constant level or (given a state) in the state.
        let elements = |e: &'a Expr, b: &Bindings<'a>| -> Option<Vec<Value>> {
            match state {
                // In a state, the set is evaluated there (a constant set gives the same).
                Some(st) => {
                    let v = self.model.evaluator().eval_with(e, b, st, None).ok()?;
                    v.elements().ok()?.collect::<Result<Vec<Value>, _>>().ok()
                }
                None => self.model.evaluator().elements_of(e, b).ok(),
            }
        };
        if let Some(vs) = elements(set, &Bindings::default()) {
            return Some(vs);
        }
        let mut envs = vec![Bindings::default()];
        for (n, s) in outer {
            let mut next = Vec::new();
            for b in &envs {
                for v in elements(s, b)? {
                    next.push(b.bind(n, v));
                }
            }
            if next.len() > 10_000 {
                return None;
            }
            envs = next;
        }
        let mut all: Vec<Value> = Vec::new();
        for b in &envs {
            for v in elements(set, b)? {
                if !all.contains(&v) {
                    all.push(v);
                }
            }
        }
        Some(all)
    }

    fn find_sites(&self, e: &'a Expr, name: &str, bound: &mut Vec<(&'a str, &'a Expr)>, sites: &mut ParameterSites<'a>, depth: u32) {
        if depth > 30 {
            return;
        }
        match &*e.kind {
            ExprKind::Quant { kind: QuantKind::Exists, bounds, body } => {
                let n = bound.len();
                for b in bounds {
                    if let (BoundVars::Names(ns), Some(s)) = (&b.vars, &b.set) {
                        ns.iter().for_each(|x| bound.push((&x.name, s)));
                    }
                }
                self.find_sites(body, name, bound, sites, depth + 1);
                bound.truncate(n);
            }
            ExprKind::OpApp { op, args } if op.path.is_empty() => {
                if op.name == name && args.len() == sites.by_param.len() {
                    for (i, a) in args.iter().enumerate() {
                        if let ExprKind::OpApp { op: an, args: aa } = &*a.kind
                            && an.path.is_empty() && aa.is_empty()
                            && let Some(pos) = bound.iter().rposition(|(b, _)| *b == an.name) {
                                sites.by_param[i].push(Site { set: bound[pos].1, outer: bound[..pos].to_vec() });
                            }
                    }
                    return;
                }
                args.iter().for_each(|a| self.find_sites(a, name, bound, sites, depth + 1));
                // Through definitions: a parameter passed a bound variable keeps its set.
                if let Some(d) = self.model.evaluator().definition(&op.name)
                    && d.params.len() == args.len() && !matches!(op.name.as_str(), "UNCHANGED" | "'") {
                        let n = bound.len();
                        for (p, a) in d.params.iter().zip(args.iter()) {
                            if let ExprKind::OpApp { op: an, args: aa } = &*a.kind
                                && an.path.is_empty() && aa.is_empty()
                                && let Some((_, set)) = bound.iter().rev().find(|(b, _)| *b == an.name).copied() {
                                    bound.push((&p.name.name, set));
                                }
                        }
                        self.find_sites(&d.body, name, bound, sites, depth + 1);
                        bound.truncate(n);
                    }
            }
            ExprKind::Junction { items, .. } => items.iter().for_each(|x| self.find_sites(x, name, bound, sites, depth + 1)),
            ExprKind::Label { body, .. } | ExprKind::Let { body, .. } => self.find_sites(body, name, bound, sites, depth + 1),
            ExprKind::If { then, els, .. } => {
                self.find_sites(then, name, bound, sites, depth + 1);
                self.find_sites(els, name, bound, sites, depth + 1);
            }
            ExprKind::Case { arms, other } => {
                arms.iter().for_each(|a| self.find_sites(&a.body, name, bound, sites, depth + 1));
                if let Some(o) = other {
                    self.find_sites(o, name, bound, sites, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// Whether every step of `name` with its parameters bound to `args` is a step of Next, as
    /// Next's text shows: Next reaches an application `name(x1, ..., xn)` through disjunctions,
    /// labels, definitions without parameters and `\E x \in S` alone, where the arguments
    /// are the variables those `\E` bind and each argument value is in its set in `state`
    /// (membership, so a big or symbolic set is not enumerated). Then
    /// [`ActionSteps::successors_by_action`] need not evaluate Next on each step.
    /// `false` when this cannot be seen (a guard beside the application, an argument that is
    /// an expression, a variable bound but not passed): the caller evaluates Next.
    /// `values` are the action's arguments by parameter position.
    fn next_takes_all_of(&self, state: &State, name: &str, values: &[&Value]) -> bool {
        let mut bound: Vec<(&'a str, &'a Expr)> = Vec::new();
        self.model.next_actions().iter().any(|a| self.reaches_unguarded(a.expr, state, name, values, &mut bound, 0))
    }

    fn reaches_unguarded(&self, e: &'a Expr, state: &State, name: &str, values: &[&Value], bound: &mut Vec<(&'a str, &'a Expr)>, depth: u32) -> bool {
        if depth > 30 {
            return false;
        }
        match &*e.kind {
            ExprKind::Junction { kind: JunctionKind::Or, items, .. } => items.iter().any(|x| self.reaches_unguarded(x, state, name, values, bound, depth + 1)),
            ExprKind::Label { body, .. } => self.reaches_unguarded(body, state, name, values, bound, depth + 1),
            ExprKind::Quant { kind: QuantKind::Exists, bounds, body } => {
                let n = bound.len();
                for b in bounds {
                    match (&b.vars, &b.set) {
                        (BoundVars::Names(ns), Some(s)) => ns.iter().for_each(|x| bound.push((&x.name, s))),
                        _ => {
                            bound.truncate(n);
                            return false;
                        }
                    }
                }
                let r = self.reaches_unguarded(body, state, name, values, bound, depth + 1);
                bound.truncate(n);
                r
            }
            ExprKind::OpApp { op, args } if op.path.is_empty() => {
                if op.name == "\\/" && args.len() == 2 {
                    return args.iter().any(|x| self.reaches_unguarded(x, state, name, values, bound, depth + 1));
                }
                if op.name == name {
                    // Each bound variable is passed as exactly one argument, in binding order.
                    if args.len() != values.len() || bound.len() != args.len() {
                        return false;
                    }
                    let mut b = Bindings::default();
                    for (k, (var, set)) in bound.iter().enumerate() {
                        let Some(pos) = args.iter().position(|a| matches!(&*a.kind, ExprKind::OpApp { op: an, args: aa } if an.path.is_empty() && aa.is_empty() && an.name == *var)) else {
                            return false;
                        };
                        if bound[..k].iter().any(|(v, _)| v == var) {
                            return false;
                        }
                        match self.model.evaluator().eval_with(set, &b, state, None).and_then(|sv| sv.member(values[pos])) {
                            Ok(true) => b = b.bind(var, values[pos].clone()),
                            _ => return false,
                        }
                    }
                    return true;
                }
                // A definition's body cannot see the variables bound around its use.
                if args.is_empty()
                    && bound.is_empty()
                    && let Some(d) = self.model.evaluator().definition(&op.name)
                    && d.params.is_empty()
                    && self.model.variable_index(&op.name).is_none()
                {
                    return self.reaches_unguarded(&d.body, state, name, values, bound, depth + 1);
                }
                false
            }
            _ => false,
        }
    }

    /// Whether the step `from → to` is a step of Next: some disjunct of Next holds on it. A step
    /// of an action that the model defines but leaves out of Next is not one. When no disjunct
    /// holds but some could not be evaluated on the step, the step is not rejected: the error
    /// is the model's, and exploring from `from` reports it.
    pub fn step_in_next(&self, from: &State, to: &State) -> bool {
        let mut unknown = false;
        for a in self.model.next_actions() {
            match eval_bool(self.model, a.expr, &Bindings::default(), from, Some(to)) {
                Ok(true) => return true,
                Ok(false) => {}
                Err(_) => unknown = true,
            }
        }
        unknown
    }

    /// The successors of `state` by the action operator `name` with its parameters bound to
    /// `args` (by parameter name); a parameter not in `args` ranges over the set Next draws it
    /// from (`\E p \in S : name(p)`). Duplicates removed, in enumeration order. Only
    /// steps of Next count (see [`ActionSteps::step_in_next`]).
    pub fn successors_by_action(&self, state: &State, name: &str, args: &[(String, Value)]) -> Result<Vec<State>, ModelError> {
        let Some(d) = self.model.evaluator().definition(name) else {
            return Err(ModelError::Eval(ValueError::new(codes::UNKNOWN, format!("the model has no action named {}", name))));
        };
        let domains = if d.params.iter().all(|p| args.iter().any(|(n, _)| *n == p.name.name)) {
            vec![None; d.params.len()]
        } else {
            self.parameter_domains(name)
        };
        let mut choices: Vec<Vec<Value>> = Vec::with_capacity(d.params.len());
        for (i, p) in d.params.iter().enumerate() {
            if let Some((_, v)) = args.iter().find(|(n, _)| *n == p.name.name) {
                choices.push(vec![v.clone()]);
            } else if let Some(Some(vs)) = domains.get(i) {
                choices.push(vs.clone());
            } else {
                return Err(ModelError::Eval(ValueError::new(
                    codes::UNKNOWN,
                    format!("the parameter {} of {} has no value: the step gives none and Next does not draw it from a set", p.name.name, name),
                )));
            }
        }
        let mut out: Vec<State> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut idx = vec![0usize; choices.len()];
        loop {
            let mut b = Bindings::default();
            for (i, p) in d.params.iter().enumerate() {
                b = b.bind(&p.name.name, choices[i][idx[i]].clone());
            }
            let values: Vec<&Value> = (0..choices.len()).map(|i| &choices[i][idx[i]]).collect();
            let in_next = self.next_takes_all_of(state, name, &values);
            self.model.evaluator().successors_with(&d.body, &b, state, &mut |s| {
                if !in_next && !self.step_in_next(state, &s) {
                    return Ok(());
                }
                let mut h = tla_eval::fingerprint::FpHasher::new();
                for x in s.iter() {
                    h.write_value(x)?;
                }
                if seen.insert(h.finish()) {
                    out.push(s);
                }
                Ok(())
            })?;
            // Next combination (the last parameter turns fastest).
            let mut k = choices.len();
            loop {
                if k == 0 {
                    return Ok(out);
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < choices[k].len() {
                    break;
                }
                idx[k] = 0;
            }
        }
    }
}
