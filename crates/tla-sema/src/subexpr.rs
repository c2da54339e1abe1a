//! Subexpression names: `Inv!2`, `Init!1`, `Inv!P0` (a label), `QuorumNonEmpty!:`,
//! `Next!1!<<`, `Op(a)!lbl(b)`, `Spec!2!(x)`.
//!
//! A subexpression name denotes an operator: the selected part of a definition's body, whose
//! parameters are the definition's own followed by the bound names it lies under (given by a
//! label's arguments or by `!(...)`). The analysis gives it exactly that form. For each
//! subexpression name used, [`select`] builds a definition (named by the reference, `Inv!2`,
//! a name no user can write) and the checker adds it to the module that holds the selected
//! definition; [`rewrite`] then turns each use into an ordinary application of it, through the
//! same instance path. Everything after the analysis (levels, evaluation, instances and their
//! substitutions) sees plain definitions.
//!
//! The operands a number selects are those of SANY's semantic tree: the items of a bullet
//! list; the two operands of an infix `/\` or `\/` (so in `A /\ B /\ C`, `!1` is `A /\ B`);
//! the arguments of an operator application; condition, then and else of IF; `!i!1` and
//! `!i!2` for the guard and value of CASE's i-th arm; the values of a record or a set of
//! records; the elements of a tuple or a set; a LET's body (`!1`); the bound sets of a
//! quantifier, CHOOSE or set former, whose body is reached with `!(e, ...)`. `!<<` is the
//! first operand, `!>>` the last, `!:` changes nothing. `!@` and the parts of EXCEPT past its
//! base are errors that say so, as in SANY.

use std::collections::HashMap;

use tla_syntax::ast::{self, Expr, ExprKind, LetDef, OpDef, OpParam, SelKind};
use tla_syntax::{Diagnostic, Span};

use crate::diagnostics as d;
use crate::levels::Levels;

/// A definition a subexpression name selects in: its parameters and body.
#[derive(Clone, Debug)]
pub(crate) struct Selectable {
    pub name: String,
    pub params: Vec<OpParam>,
    pub body: Expr,
}

/// One selector with its arguments, however it was written.
pub(crate) struct Step<'e> {
    pub kind: SelKind,
    pub args: &'e [Expr],
    pub span: Span,
}

/// The definition a subexpression name stands for, and the arguments of a use beyond the
/// selected definition's own (labels' and `!(...)`'s, in order).
pub(crate) struct Selected<'e> {
    pub def: OpDef,
    pub extra_args: Vec<&'e Expr>,
}

/// The definition `steps` select in `target`.
pub(crate) fn select<'e>(target: &Selectable, steps: &[Step<'e>], at: Span) -> Result<Selected<'e>, Diagnostic> {
    let st = State { lets: Vec::new(), params: target.params.clone(), extra_args: Vec::new(), name: target.name.clone() };
    go(&target.body, steps, st, at)
}

/// What the selectors read so far add to the definition.
struct State<'x, 'e> {
    /// LETs crossed, outermost first: the selected body is wrapped in them.
    lets: Vec<&'x Vec<LetDef>>,
    params: Vec<OpParam>,
    extra_args: Vec<&'e Expr>,
    name: String,
}

fn go<'x, 'e>(mut cur: &'x Expr, steps: &[Step<'e>], mut st: State<'x, 'e>, at: Span) -> Result<Selected<'e>, Diagnostic> {
    let mut i = 0;
    while i < steps.len() {
        let step = &steps[i];
        cur = strip_labels(cur);
        match &step.kind {
            SelKind::Colon => st.name.push_str("!:"),
            SelKind::At => {
                return Err(d::subexpression(
                    step.span,
                    "`!@` names a body under its own bound names, which only its definition can use: write `!(e, ...)` with the values",
                ));
            }
            SelKind::Name(label) => {
                st.name.push('!');
                st.name.push_str(label);
                let Some(found) = find_label(cur, label) else {
                    if i == 0 {
                        // `A!Op` with `A` a definition: perhaps an instance was meant.
                        let def = st.name.split('!').next().unwrap_or_default();
                        return Err(d::subexpression(step.span, &format!("`{def}` has no label `{label}`")).with_hint(format!(
                            "`{def}` is a definition, not a module instance: for a module's definitions write `{def} == INSTANCE M` first"
                        )));
                    }
                    return Err(d::subexpression(step.span, &format!("the selected expression has no label `{label}`")));
                };
                if found.label_params.len() != step.args.len() {
                    return Err(d::subexpression(
                        step.span,
                        &format!("the label `{label}` takes {} argument(s), not {}", found.label_params.len(), step.args.len()),
                    ));
                }
                let given: Vec<&str> = found.label_params.iter().map(|p| p.name.as_str()).collect();
                if found.bound.iter().any(|b| !given.contains(&b.name.as_str())) {
                    let under: Vec<&str> = found.bound.iter().map(|b| b.name.as_str()).collect();
                    return Err(d::subexpression(
                        step.span,
                        &format!("the label `{label}` lies under the bound names {}: it must list them as its parameters", under.join(", ")),
                    ));
                }
                st.lets.extend(found.lets);
                for p in found.label_params {
                    st.params.push(OpParam { name: p.clone(), arity: 0 });
                }
                st.extra_args.extend(step.args.iter());
                cur = found.body;
            }
            SelKind::Null => {
                st.name.push_str("!()");
                let Some((bound, body)) = binder(cur) else {
                    return Err(d::subexpression(
                        step.span,
                        "`!(...)` selects the body of a quantifier, CHOOSE, set or function former, and this expression has none",
                    ));
                };
                if bound.len() != step.args.len() {
                    return Err(d::subexpression(
                        step.span,
                        &format!("the expression binds {} name(s), and `!(...)` gives {} value(s)", bound.len(), step.args.len()),
                    ));
                }
                for b in bound {
                    st.params.push(OpParam { name: b.clone(), arity: 0 });
                }
                st.extra_args.extend(step.args.iter());
                cur = body;
            }
            SelKind::Pos(_) | SelKind::First | SelKind::Last => {
                st.name.push_str(&format!("!{}", sel_text(&step.kind)));
                if let ExprKind::Let { defs, body } = &*cur.kind {
                    if operand_number(&step.kind, 1) != Some(1) {
                        return Err(d::subexpression(step.span, "a LET/IN expression has one operand, its body"));
                    }
                    st.lets.push(defs);
                    cur = body;
                } else if let ExprKind::Case { arms, .. } = &*cur.kind {
                    let Some(k) = operand_number(&step.kind, arms.len()) else { return Err(no_operand(step, arms.len())) };
                    let Some(next) = steps.get(i + 1) else {
                        return Err(d::subexpression(step.span, "a CASE arm is selected as `!i!1` (its guard) or `!i!2` (its value)"));
                    };
                    let Some(j) = operand_number(&next.kind, 2) else { return Err(no_operand(next, 2)) };
                    st.name.push_str(&format!("!{}", sel_text(&next.kind)));
                    let arm = &arms[k - 1];
                    cur = if j == 1 { &arm.guard } else { &arm.body };
                    i += 1;
                } else if let ExprKind::Junction { kind, items, bulleted: false } = &*cur.kind
                    && items.len() > 2
                {
                    // An infix chain `A /\ B /\ C` is `(A /\ B) /\ C`.
                    match operand_number(&step.kind, 2) {
                        Some(1) => {
                            let left = &items[..items.len() - 1];
                            let span = left[0].span.to(left[left.len() - 1].span);
                            let owned = Expr::new(ExprKind::Junction { kind: *kind, items: left.to_vec(), bulleted: false }, span);
                            let State { lets, params, extra_args, name } = st;
                            return go(&owned, &steps[i + 1..], State { lets, params, extra_args, name }, at);
                        }
                        Some(_) => cur = &items[items.len() - 1],
                        None => return Err(no_operand(step, 2)),
                    }
                } else {
                    let ops = operands(cur);
                    if ops.is_empty() {
                        return Err(d::subexpression(step.span, "the selected expression has no operands"));
                    }
                    let Some(k) = operand_number(&step.kind, ops.len()) else { return Err(no_operand(step, ops.len())) };
                    match ops[k - 1] {
                        Some(e) => cur = e,
                        None => {
                            return Err(d::subexpression(
                                step.span,
                                "this operand cannot be selected (a part of EXCEPT after its base, or OTHER)",
                            ));
                        }
                    }
                }
            }
        }
        i += 1;
    }
    let mut body = strip_labels(cur).clone();
    for defs in st.lets.into_iter().rev() {
        let span = body.span;
        body = Expr::new(ExprKind::Let { defs: defs.clone(), body }, span);
    }
    let def = OpDef { name: ast::Ident { name: st.name, span: at }, params: st.params, body, local: false, span: at };
    Ok(Selected { def, extra_args: st.extra_args })
}

fn sel_text(k: &SelKind) -> String {
    match k {
        SelKind::Pos(n) => n.to_string(),
        SelKind::First => "<<".into(),
        SelKind::Last => ">>".into(),
        SelKind::Colon => ":".into(),
        SelKind::At => "@".into(),
        SelKind::Null => "()".into(),
        SelKind::Name(n) => n.clone(),
    }
}

/// The 1-based operand a selector names among `n`: `!<<` the first, `!>>` the last.
fn operand_number(k: &SelKind, n: usize) -> Option<usize> {
    match k {
        SelKind::Pos(i) if (*i as usize) >= 1 && (*i as usize) <= n => Some(*i as usize),
        SelKind::First if n >= 1 => Some(1),
        SelKind::Last if n >= 1 => Some(n),
        _ => None,
    }
}

fn no_operand(st: &Step, n: usize) -> Diagnostic {
    d::subexpression(st.span, &format!("`!{}` names no operand: the selected expression has {n}", sel_text(&st.kind)))
}

fn strip_labels(mut e: &Expr) -> &Expr {
    while let ExprKind::Label { body, .. } = &*e.kind {
        e = body;
    }
    e
}

/// The operands of `e` in SANY's order; `None` for one that cannot be selected.
fn operands(e: &Expr) -> Vec<Option<&Expr>> {
    match &*e.kind {
        ExprKind::OpApp { args, .. } => args.iter().map(Some).collect(),
        ExprKind::FunApp { fun, args } => {
            let mut v = vec![Some(fun)];
            v.push(if args.len() == 1 { Some(&args[0]) } else { None });
            v
        }
        ExprKind::Field { record, .. } => vec![Some(record), None],
        ExprKind::Junction { items, .. } | ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => {
            items.iter().map(Some).collect()
        }
        ExprKind::If { cond, then, els } => vec![Some(cond), Some(then), Some(els)],
        ExprKind::Record(fs) | ExprKind::RecordSet(fs) => fs.iter().map(|(_, x)| Some(x)).collect(),
        ExprKind::FunSet { domain, range } => vec![Some(domain), Some(range)],
        ExprKind::Except { base, updates } => std::iter::once(Some(base)).chain(updates.iter().map(|_| None)).collect(),
        ExprKind::BoxAction { action, sub } | ExprKind::AngleAction { action, sub } => vec![Some(action), Some(sub)],
        ExprKind::Fair { sub, action, .. } => vec![Some(sub), Some(action)],
        ExprKind::Quant { bounds, .. } | ExprKind::SetMap { bounds, .. } | ExprKind::FunCons { bounds, .. } => {
            bounds.iter().filter_map(|b| b.set.as_ref()).map(Some).collect()
        }
        ExprKind::Choose { bound, .. } | ExprKind::SetFilter { bound, .. } => bound.set.iter().map(Some).collect(),
        _ => vec![],
    }
}

/// The names `e` binds and its body, for a quantifier, CHOOSE or set or function former.
fn binder(e: &Expr) -> Option<(Vec<&ast::Ident>, &Expr)> {
    fn names(bs: &[ast::Bound]) -> Vec<&ast::Ident> {
        bs.iter().flat_map(|b| b.vars.idents()).collect()
    }
    match &*e.kind {
        ExprKind::Quant { bounds, body, .. } | ExprKind::SetMap { bounds, body } | ExprKind::FunCons { bounds, body } => {
            Some((names(bounds), body))
        }
        ExprKind::Choose { bound, body } | ExprKind::SetFilter { bound, pred: body } => Some((names(std::slice::from_ref(bound)), body)),
        ExprKind::TemporalQuant { vars, body, .. } => Some((vars.iter().collect(), body)),
        _ => None,
    }
}

struct FoundLabel<'x> {
    body: &'x Expr,
    label_params: &'x [ast::Ident],
    /// LETs crossed on the way, outermost first.
    lets: Vec<&'x Vec<LetDef>>,
    /// Bound names crossed on the way.
    bound: Vec<&'x ast::Ident>,
}

/// The label `name` in `e`, not inside another label or a LET definition's body.
fn find_label<'x>(e: &'x Expr, name: &str) -> Option<FoundLabel<'x>> {
    fn go<'x>(e: &'x Expr, name: &str, lets: &mut Vec<&'x Vec<LetDef>>, bound: &mut Vec<&'x ast::Ident>) -> Option<FoundLabel<'x>> {
        match &*e.kind {
            ExprKind::Label { name: n, params, body } => {
                if n.name == name {
                    return Some(FoundLabel { body, label_params: params, lets: lets.clone(), bound: bound.clone() });
                }
                None
            }
            ExprKind::Let { defs, body } => {
                lets.push(defs);
                let r = go(body, name, lets, bound);
                lets.pop();
                r
            }
            _ => {
                if let Some((names, body)) = binder(e) {
                    for s in operands(e).into_iter().flatten() {
                        if let Some(r) = go(s, name, lets, bound) {
                            return Some(r);
                        }
                    }
                    let mark = bound.len();
                    bound.extend(names);
                    let r = go(body, name, lets, bound);
                    bound.truncate(mark);
                    return r;
                }
                let mut children: Vec<&'x Expr> = Vec::new();
                match &*e.kind {
                    ExprKind::Case { arms, other } => {
                        for a in arms {
                            children.push(&a.guard);
                            children.push(&a.body);
                        }
                        children.extend(other.iter());
                    }
                    ExprKind::Except { base, updates } => {
                        children.push(base);
                        children.extend(updates.iter().map(|u| &u.value));
                    }
                    ExprKind::Lambda { .. } => {}
                    _ => children.extend(operands(e).into_iter().flatten()),
                }
                children.into_iter().find_map(|c| go(c, name, lets, bound))
            }
        }
    }
    go(e, name, &mut Vec::new(), &mut Vec::new())
}

/// How a use of a subexpression name is rewritten: the instance path to keep, the
/// definition's name, and its arguments.
#[derive(Clone, Debug)]
pub(crate) struct Rewrite {
    pub path: Vec<ast::PathStep>,
    pub name: String,
    pub args: Vec<Expr>,
}

/// Add each selected definition to its module (once per name), and make every recorded use an
/// application of it.
pub(crate) fn rewrite(modules: &mut [ast::Module], defs: Vec<(String, OpDef)>, uses: HashMap<Span, Rewrite>, levels: &mut Levels) {
    for (module, def) in defs {
        if let Some(m) = modules.iter_mut().find(|m| m.name.name == module)
            && !m.units.iter().any(|u| matches!(u, ast::Unit::OpDef(o) if o.name.name == def.name.name))
        {
            m.units.push(ast::Unit::OpDef(def));
        }
    }
    if uses.is_empty() {
        return;
    }
    for m in modules.iter_mut() {
        ast::walk_module_mut(m, &mut |e: &mut Expr| {
            if let ExprKind::OpApp { op, args } = &mut *e.kind
                && let Some(r) = uses.get(&op.span)
                && (!op.sel.is_empty() || !op.path.is_empty())
            {
                op.path = r.path.clone();
                op.name = r.name.clone();
                op.sel.clear();
                *args = r.args.clone();
                for (original, copy) in r.args.iter().zip(args.iter()) {
                    levels.copy(original, copy);
                }
            }
        });
    }
}
