//! A compact S-expression dump of the AST, for snapshot tests and debugging.
//!
//! Junctions print as `(and ...)` / `(or ...)` for infix chains and `(and* ...)` / `(or* ...)`
//! for bullet lists; operator applications as `(op arg ...)`, names as themselves.

use crate::ast::*;
use std::fmt::Write;

/// Dump a module (and its submodules), one unit per line.
pub fn dump(m: &Module) -> String {
    let mut out = String::new();
    module(&mut out, m, 0);
    out
}

/// Dump one expression on a single line.
pub fn dump_expr(e: &Expr) -> String {
    let mut s = String::new();
    expr(&mut s, e);
    s
}

fn module(out: &mut String, m: &Module, indent: usize) {
    let pad = " ".repeat(indent);
    let _ = write!(out, "{pad}(module {}", m.name.name);
    if !m.extends.is_empty() {
        let names: Vec<_> = m.extends.iter().map(|i| i.name.as_str()).collect();
        let _ = write!(out, " (extends {})", names.join(" "));
    }
    out.push('\n');
    for u in &m.units {
        unit(out, u, indent + 2);
    }
    let _ = writeln!(out, "{pad})");
}

fn decl(d: &ConstDecl) -> String {
    if d.arity == 0 { d.name.name.clone() } else { format!("({} {})", d.name.name, d.arity) }
}

fn params(ps: &[OpParam]) -> String {
    let v: Vec<String> =
        ps.iter().map(|p| if p.arity == 0 { p.name.name.clone() } else { format!("({} {})", p.name.name, p.arity) }).collect();
    format!("({})", v.join(" "))
}

fn unit(out: &mut String, u: &Unit, indent: usize) {
    let pad = " ".repeat(indent);
    match u {
        Unit::Submodule(m) => return module(out, m, indent),
        _ => out.push_str(&pad),
    }
    match u {
        Unit::Constants(cs) => {
            let v: Vec<_> = cs.iter().map(decl).collect();
            let _ = write!(out, "(constants {})", v.join(" "));
        }
        Unit::Variables(vs) => {
            let v: Vec<_> = vs.iter().map(|i| i.name.as_str()).collect();
            let _ = write!(out, "(variables {})", v.join(" "));
        }
        Unit::Assume(a) => {
            out.push_str("(assume ");
            if let Some(n) = &a.name {
                let _ = write!(out, "{} ", n.name);
            }
            expr(out, &a.expr);
            out.push(')');
        }
        Unit::OpDef(d) => opdef(out, d),
        Unit::FunDef(d) => fundef(out, d),
        Unit::ModuleDef(d) => moddef(out, d),
        Unit::Instance(i) => instance(out, i),
        Unit::Recursive(ds) => {
            let v: Vec<_> = ds.iter().map(decl).collect();
            let _ = write!(out, "(recursive {})", v.join(" "));
        }
        Unit::Theorem(t) => {
            let _ = write!(out, "({}{} ", t.keyword.to_lowercase(), t.name.as_ref().map(|n| format!(" {}", n.name)).unwrap_or_default());
            statement(out, &t.statement);
            if let Some(p) = &t.proof {
                out.push(' ');
                proof(out, p);
            }
            out.push(')');
        }
        Unit::UseHide(u) => use_items(out, if u.hide { "hide" } else { "use" }, &u.items),
        Unit::Error(_) => out.push_str("(error)"),
        Unit::Submodule(_) => {}
    }
    out.push('\n');
}

fn statement(out: &mut String, s: &Statement) {
    match s {
        Statement::Expr(e) => expr(out, e),
        Statement::AssumeProve(ap) => assume_prove(out, ap),
    }
}

fn assume_prove(out: &mut String, ap: &AssumeProve) {
    out.push_str("(assume");
    if let Some(l) = &ap.label {
        let _ = write!(out, " (label {})", l.name);
    }
    for a in &ap.assumptions {
        out.push(' ');
        match a {
            Assumption::Expr(e) => expr(out, e),
            Assumption::AssumeProve(inner) => assume_prove(out, inner),
            Assumption::New(n) => {
                let _ = write!(out, "(new {:?} {}", n.kind, decl(&n.decl));
                if let Some(s) = &n.set {
                    out.push(' ');
                    expr(out, s);
                }
                out.push(')');
            }
        }
    }
    out.push_str(" (prove ");
    expr(out, &ap.prove);
    out.push_str("))");
}

fn fact(out: &mut String, f: &Fact) {
    match f {
        Fact::Expr(e) => expr(out, e),
        Fact::Module(m) => {
            let _ = write!(out, "(module {})", m.name);
        }
    }
}

fn use_items(out: &mut String, head: &str, u: &UseItems) {
    let _ = write!(out, "({head}{}", if u.only { " only" } else { "" });
    for f in &u.facts {
        out.push(' ');
        fact(out, f);
    }
    if !u.defs.is_empty() {
        out.push_str(" (def");
        for f in &u.defs {
            out.push(' ');
            fact(out, f);
        }
        out.push(')');
    }
    out.push(')');
}

fn proof(out: &mut String, p: &Proof) {
    match p {
        Proof::By(u) => use_items(out, "by", u),
        Proof::Obvious(_) => out.push_str("(obvious)"),
        Proof::Omitted(_) => out.push_str("(omitted)"),
        Proof::Steps { steps, .. } => {
            out.push_str("(steps");
            for s in steps {
                let _ = write!(out, " ({} {} ", s.label.name, s.level);
                match &s.body {
                    StepBody::Define(units) => {
                        out.push_str("(define");
                        for u in units {
                            out.push(' ');
                            match u {
                                Unit::OpDef(d) => opdef(out, d),
                                Unit::FunDef(d) => fundef(out, d),
                                Unit::ModuleDef(d) => moddef(out, d),
                                _ => {}
                            }
                        }
                        out.push(')');
                    }
                    StepBody::Use { hide, items } => use_items(out, if *hide { "hide" } else { "use" }, items),
                    StepBody::Instance(i) => instance(out, i),
                    StepBody::Have(e) => list(out, "have", std::slice::from_ref(e)),
                    StepBody::Take(bs) => {
                        out.push_str("(take ");
                        bounds(out, bs);
                        out.push(')');
                    }
                    StepBody::Witness(es) => list(out, "witness", es),
                    StepBody::Pick { bounds: bs, pred } => {
                        out.push_str("(pick ");
                        bounds(out, bs);
                        out.push(' ');
                        expr(out, pred);
                        out.push(')');
                    }
                    StepBody::Case(e) => list(out, "case", std::slice::from_ref(e)),
                    StepBody::Assert { suffices, statement: st } => {
                        if *suffices {
                            out.push_str("(suffices ");
                            statement(out, st);
                            out.push(')');
                        } else {
                            statement(out, st);
                        }
                    }
                    StepBody::Qed => out.push_str("qed"),
                }
                if let Some(p) = &s.proof {
                    out.push(' ');
                    proof(out, p);
                }
                out.push(')');
            }
            out.push(')');
        }
    }
}

fn opdef(out: &mut String, d: &OpDef) {
    let _ = write!(out, "({} {} {} ", if d.local { "local-def" } else { "def" }, d.name.name, params(&d.params));
    expr(out, &d.body);
    out.push(')');
}

fn fundef(out: &mut String, d: &FunDef) {
    let _ = write!(out, "({} {} ", if d.local { "local-fundef" } else { "fundef" }, d.name.name);
    bounds(out, &d.bounds);
    out.push(' ');
    expr(out, &d.body);
    out.push(')');
}

fn moddef(out: &mut String, d: &ModuleDef) {
    let _ = write!(out, "({} {} {} ", if d.local { "local-moddef" } else { "moddef" }, d.name.name, params(&d.params));
    instance(out, &d.instance);
    out.push(')');
}

fn instance(out: &mut String, i: &Instance) {
    let _ = write!(out, "({} {}", if i.local { "local-instance" } else { "instance" }, i.module.name);
    for s in &i.substs {
        let _ = write!(out, " ({} <- ", s.name.name);
        expr(out, &s.expr);
        out.push(')');
    }
    out.push(')');
}

fn bound(out: &mut String, b: &Bound) {
    out.push('(');
    match &b.vars {
        BoundVars::Names(v) => {
            let n: Vec<_> = v.iter().map(|i| i.name.as_str()).collect();
            let _ = write!(out, "({})", n.join(" "));
        }
        BoundVars::Tuple(v) => {
            let n: Vec<_> = v.iter().map(|i| i.name.as_str()).collect();
            let _ = write!(out, "<<{}>>", n.join(" "));
        }
    }
    if let Some(s) = &b.set {
        out.push(' ');
        expr(out, s);
    }
    out.push(')');
}

fn bounds(out: &mut String, bs: &[Bound]) {
    out.push('(');
    for (i, b) in bs.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        bound(out, b);
    }
    out.push(')');
}

fn list(out: &mut String, head: &str, items: &[Expr]) {
    let _ = write!(out, "({head}");
    for e in items {
        out.push(' ');
        expr(out, e);
    }
    out.push(')');
}

fn opname(op: &OpName) -> String {
    let mut s = String::new();
    for st in &op.path {
        s.push_str(&st.name.name);
        if !st.args.is_empty() {
            let a: Vec<_> = st.args.iter().map(dump_expr).collect();
            let _ = write!(s, "({})", a.join(", "));
        }
        s.push('!');
    }
    s.push_str(&op.name);
    for (i, sel) in op.sel.iter().enumerate() {
        if i > 0 {
            s.push('!');
        }
        match &sel.kind {
            SelKind::Name(n) => s.push_str(n),
            SelKind::Pos(n) => {
                let _ = write!(s, "{n}");
            }
            SelKind::First => s.push_str("<<"),
            SelKind::Last => s.push_str(">>"),
            SelKind::Colon => s.push(':'),
            SelKind::At => s.push('@'),
            SelKind::Null => {}
        }
        if !sel.args.is_empty() || sel.kind == SelKind::Null {
            let a: Vec<_> = sel.args.iter().map(dump_expr).collect();
            let _ = write!(s, "({})", a.join(", "));
        }
    }
    s
}

fn expr(out: &mut String, e: &Expr) {
    match &*e.kind {
        ExprKind::Num(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Decimal(d) => out.push_str(d),
        ExprKind::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        ExprKind::Bool(b) => out.push_str(if *b { "TRUE" } else { "FALSE" }),
        ExprKind::OpApp { op, args } => {
            if args.is_empty() {
                out.push_str(&opname(op));
            } else {
                list(out, &opname(op), args);
            }
        }
        ExprKind::FunApp { fun, args } => {
            out.push_str("(app ");
            expr(out, fun);
            for a in args {
                out.push(' ');
                expr(out, a);
            }
            out.push(')');
        }
        ExprKind::Field { record, field } => {
            out.push_str("(. ");
            expr(out, record);
            let _ = write!(out, " {})", field.name);
        }
        ExprKind::Junction { kind, items, bulleted } => {
            let h = match (kind, bulleted) {
                (JunctionKind::And, false) => "and",
                (JunctionKind::And, true) => "and*",
                (JunctionKind::Or, false) => "or",
                (JunctionKind::Or, true) => "or*",
            };
            list(out, h, items);
        }
        ExprKind::If { cond, then, els } => list(out, "if", &[cond.clone(), then.clone(), els.clone()]),
        ExprKind::Case { arms, other } => {
            out.push_str("(case");
            for a in arms {
                out.push_str(" (");
                expr(out, &a.guard);
                out.push_str(" -> ");
                expr(out, &a.body);
                out.push(')');
            }
            if let Some(o) = other {
                out.push_str(" (other ");
                expr(out, o);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::Let { defs, body } => {
            out.push_str("(let (");
            for (i, d) in defs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                match d {
                    LetDef::Op(d) => opdef(out, d),
                    LetDef::Fun(d) => fundef(out, d),
                    LetDef::ModuleDef(d) => moddef(out, d),
                    LetDef::Recursive(ds) => {
                        let v: Vec<_> = ds.iter().map(decl).collect();
                        let _ = write!(out, "(recursive {})", v.join(" "));
                    }
                }
            }
            out.push_str(") ");
            expr(out, body);
            out.push(')');
        }
        ExprKind::Quant { kind, bounds: bs, body } => {
            out.push_str(if *kind == QuantKind::Forall { "(\\A " } else { "(\\E " });
            bounds(out, bs);
            out.push(' ');
            expr(out, body);
            out.push(')');
        }
        ExprKind::TemporalQuant { kind, vars, body } => {
            let n: Vec<_> = vars.iter().map(|i| i.name.as_str()).collect();
            let _ = write!(out, "({} ({}) ", if *kind == QuantKind::Forall { "\\AA" } else { "\\EE" }, n.join(" "));
            expr(out, body);
            out.push(')');
        }
        ExprKind::Choose { bound: b, body } => {
            out.push_str("(choose ");
            bound(out, b);
            out.push(' ');
            expr(out, body);
            out.push(')');
        }
        ExprKind::SetEnum(items) => list(out, "set", items),
        ExprKind::SetFilter { bound: b, pred } => {
            out.push_str("(filter ");
            bound(out, b);
            out.push(' ');
            expr(out, pred);
            out.push(')');
        }
        ExprKind::SetMap { body, bounds: bs } => {
            out.push_str("(map ");
            expr(out, body);
            out.push(' ');
            bounds(out, bs);
            out.push(')');
        }
        ExprKind::FunCons { bounds: bs, body } => {
            out.push_str("(fun ");
            bounds(out, bs);
            out.push(' ');
            expr(out, body);
            out.push(')');
        }
        ExprKind::FunSet { domain, range } => list(out, "->", &[domain.clone(), range.clone()]),
        ExprKind::Record(fs) | ExprKind::RecordSet(fs) => {
            out.push_str(if matches!(&*e.kind, ExprKind::Record(_)) { "(record" } else { "(recset" });
            for (f, v) in fs {
                let _ = write!(out, " ({} ", f.name);
                expr(out, v);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::Except { base, updates } => {
            out.push_str("(except ");
            expr(out, base);
            for u in updates {
                out.push_str(" (");
                for st in &u.path {
                    match st {
                        ExceptStep::Index(ix) => {
                            let a: Vec<_> = ix.iter().map(dump_expr).collect();
                            let _ = write!(out, "[{}]", a.join(" "));
                        }
                        ExceptStep::Field(f) => {
                            let _ = write!(out, ".{}", f.name);
                        }
                    }
                }
                out.push(' ');
                expr(out, &u.value);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::At => out.push('@'),
        ExprKind::Tuple(items) => list(out, "tuple", items),
        ExprKind::Times(items) => list(out, "times", items),
        ExprKind::BoxAction { action, sub } => list(out, "[]_", &[action.clone(), sub.clone()]),
        ExprKind::AngleAction { action, sub } => list(out, "<>_", &[action.clone(), sub.clone()]),
        ExprKind::Fair { kind, sub, action } => {
            list(out, if *kind == Fairness::Weak { "WF" } else { "SF" }, &[sub.clone(), action.clone()])
        }
        ExprKind::Lambda { params, body } => {
            let n: Vec<_> = params.iter().map(|i| i.name.as_str()).collect();
            let _ = write!(out, "(lambda ({}) ", n.join(" "));
            expr(out, body);
            out.push(')');
        }
        ExprKind::Label { name, params, body } => {
            let n: Vec<_> = params.iter().map(|i| i.name.as_str()).collect();
            let _ = write!(out, "(label {} ({}) ", name.name, n.join(" "));
            expr(out, body);
            out.push(')');
        }
        ExprKind::Error => out.push_str("<error>"),
    }
}
