//! The shape of a specification: SPECIFICATION split into Init, Next and fairness conjuncts
//! (through definitions), and what a formula mentions (temporal operators, primes, operators
//! that must run when used).

use tla_eval::{Bindings, ConstEval};
use tla_sema::Level;
use tla_syntax::ast::*;

use crate::liveness::FairnessKind;

pub(super) fn mentions_io(e: &Expr) -> bool {
    // Print/PrintT/TLCGet/TLCSet/RandomElement must run when used, not once at load time.
    applies_any(e, &["Print", "PrintT", "TLCGet", "TLCSet", "RandomElement", "Assert"])
}

/// Whether `e` applies one of the operators `names`.
pub(super) fn applies_any(e: &Expr, names: &[&str]) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        if let ExprKind::OpApp { op, .. } = &*x.kind
            && names.contains(&op.name.as_str()) {
                found = true;
            }
    });
    found
}

pub(super) use tla_syntax::ast::walk;

pub(super) struct FairnessConjunct<'a> {
    pub(super) kind: FairnessKind,
    pub(super) sub: &'a Expr,
    pub(super) action: &'a Expr,
    pub(super) label: String,
}

#[derive(Default)]
pub(super) struct SpecParts<'a> {
    pub(super) init: Vec<(&'a Expr, Bindings<'a>)>,
    pub(super) next: Option<(&'a Expr, Bindings<'a>)>,
    pub(super) fair: Vec<(FairnessConjunct<'a>, Bindings<'a>)>,
    /// Other temporal conjuncts (`<>[][A]_v`, `[]P`, ...): assumptions every behaviour that
    /// refutes a property must also satisfy, as TLC reads them.
    pub(super) temporal: Vec<(&'a Expr, Bindings<'a>)>,
}

pub(super) fn unfold<'a>(ev: &ConstEval<'a>, e: &'a Expr, b: &Bindings<'a>) -> Option<(&'a Expr, Bindings<'a>)> {
    ev.unfold_with(e, b)
}

/// Unfold definitions until the formula is not a name applied to arguments.
pub(super) fn unfold_all<'a>(ev: &ConstEval<'a>, e: &'a Expr, b: &Bindings<'a>) -> (&'a Expr, Bindings<'a>) {
    let (mut a, mut ab) = (e, b.clone());
    for _ in 0..100 {
        match unfold(ev, a, &ab) {
            Some((x, xb)) => {
                a = x;
                ab = xb;
            }
            None => break,
        }
    }
    (a, ab)
}

pub(super) fn conjuncts<'a>(e: &'a Expr) -> Option<&'a [Expr]> {
    match &*e.kind {
        ExprKind::Junction { kind: JunctionKind::And, items, .. } => Some(items),
        ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "/\\" && args.len() == 2 => Some(args),
        _ => None,
    }
}

pub(super) fn spec_parts<'a>(ev: &ConstEval<'a>, e: &'a Expr, env: &Bindings<'a>, parts: &mut SpecParts<'a>, depth: u32) -> Result<(), String> {
    if depth > 60 {
        return Err("the specification is nested too deeply".into());
    }
    if let Some(items) = conjuncts(e) {
        for it in items {
            spec_parts(ev, it, env, parts, depth + 1)?;
        }
        return Ok(());
    }
    match &*e.kind {
        ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "[]" && args.len() == 1 => {
            let (a, ab) = unfold_all(ev, &args[0], env);
            if let ExprKind::BoxAction { action, .. } = &*a.kind {
                if parts.next.is_some() {
                    return Err("SPECIFICATION has more than one next-state relation [][A]_v; TLC handles one".into());
                }
                parts.next = Some((action, ab));
                return Ok(());
            }
            // `[]P` of anything else: an assumption, as TLC reads it.
            parts.temporal.push((e, env.clone()));
            Ok(())
        }
        ExprKind::Fair { kind, sub, action } => {
            let k = if matches!(kind, tla_syntax::ast::Fairness::Weak) { FairnessKind::Weak } else { FairnessKind::Strong };
            let label = format!("{}F_ {}", if k == FairnessKind::Weak { "W" } else { "S" }, action_label(action));
            parts.fair.push((FairnessConjunct { kind: k, sub, action, label }, env.clone()));
            Ok(())
        }
        ExprKind::Quant { kind: QuantKind::Forall, bounds, body } if is_temporal(ev, body, env)? => {
            for b in ev.bindings_of(bounds, env).map_err(|e| e.to_string())? {
                spec_parts(ev, body, &b, parts, depth + 1)?;
            }
            Ok(())
        }
        _ => {
            if let Some((b, bb)) = unfold(ev, e, env) {
                // A definition: Init, a fairness conjunct, or a nested spec.
                if is_temporal(ev, b, &bb)? {
                    return spec_parts(ev, b, &bb, parts, depth + 1);
                }
            }
            if is_temporal(ev, e, env)? {
                parts.temporal.push((e, env.clone()));
            } else {
                parts.init.push((e, env.clone()));
            }
            Ok(())
        }
    }
}

pub(super) fn action_label(e: &Expr) -> String {
    match &*e.kind {
        ExprKind::OpApp { op, .. } => op.name.clone(),
        _ => "action".into(),
    }
}

/// The level of `e` under `b`, as the analysis worked it out (SANY's: constant, state, action
/// or temporal), through the definitions it applies and the arguments `b` binds.
pub(super) fn level<'a>(ev: &ConstEval<'a>, e: &'a Expr, b: &Bindings<'a>) -> Result<Level, String> {
    ev.level_under(e, b).ok_or_else(|| {
        format!("the analysis gave no level to the formula at bytes {}..{}; please report this model", e.span.start, e.span.end)
    })
}

/// Whether `e` is a temporal formula.
pub(super) fn is_temporal<'a>(ev: &ConstEval<'a>, e: &'a Expr, b: &Bindings<'a>) -> Result<bool, String> {
    Ok(level(ev, e, b)? == Level::Temporal)
}

/// Whether `e` is an action (it primes, UNCHANGEs or is `[A]_v`), not temporal.
pub(super) fn is_action<'a>(ev: &ConstEval<'a>, e: &'a Expr, b: &Bindings<'a>) -> Result<bool, String> {
    Ok(level(ev, e, b)? == Level::Action)
}
