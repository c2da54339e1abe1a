//! What each name denotes ([`tla_sema::Names`]): every use of a local is resolved to the
//! identifier that binds it (parameters, bound names, LET definitions, a RECURSIVE LET
//! operator's own name, a LET function's own name, LAMBDA parameters, a LET instance as the
//! first step of a path), and every other name the checker resolved is module-level.

use expect_test::expect;
use tla_sema::{analyze, Binder, Denotes, Library};
use tla_syntax::ast::{self, BoundVars, Expr, ExprKind, LetDef, Unit};
use tla_syntax::SourceMap;

const MODULE: &str = r#"---- MODULE Names ----
EXTENDS Naturals
VARIABLE x
CONSTANT N

Add(a, b) == a + b
fact[n \in 0..N] == IF n = 0 THEN 1 ELSE n * fact[n - 1]
Apply(F(_), v) == F(v)

Sum(S) ==
  LET RECURSIVE Go(_)
      Go(T) == IF T = {} THEN 0 ELSE LET e == CHOOSE y \in T : TRUE IN e + Go(T \ {e})
      g[k \in 0..2] == IF k = 0 THEN 0 ELSE g[k - 1] + k
  IN Go(S) + g[2]

Next == \E i \in 1..N : x' = Apply(LAMBDA z : Add(z, i), x)
Inner == LET C == INSTANCE Naturals IN C!+(x, 1)
====
"#;

/// Each binding identifier, by its binder.
fn binders(m: &ast::Module) -> Vec<(Binder, String, u32)> {
    let mut out = Vec::new();
    let mut add = |i: &ast::Ident| out.push((Binder::of(&i.name), i.name.clone(), i.span.start));
    fn bounds<'b>(bs: &'b [ast::Bound], add: &mut dyn FnMut(&'b ast::Ident)) {
        for b in bs {
            let (BoundVars::Names(v) | BoundVars::Tuple(v)) = &b.vars;
            v.iter().for_each(&mut *add);
        }
    }
    let mut exprs: Vec<&Expr> = Vec::new();
    for u in &m.units {
        match u {
            Unit::OpDef(d) => {
                d.params.iter().for_each(|p| add(&p.name));
                exprs.push(&d.body);
            }
            Unit::FunDef(d) => {
                bounds(&d.bounds, &mut add);
                exprs.push(&d.body);
            }
            _ => {}
        }
    }
    for e in exprs {
        ast::walk(e, &mut |x| match &*x.kind {
            ExprKind::Quant { bounds: bs, .. } | ExprKind::SetMap { bounds: bs, .. } | ExprKind::FunCons { bounds: bs, .. } => bounds(bs, &mut add),
            ExprKind::Choose { bound, .. } | ExprKind::SetFilter { bound, .. } => bounds(std::slice::from_ref(bound), &mut add),
            ExprKind::Lambda { params, .. } | ExprKind::TemporalQuant { vars: params, .. } => params.iter().for_each(&mut add),
            ExprKind::Let { defs, .. } => {
                for d in defs {
                    match d {
                        LetDef::Op(od) => {
                            add(&od.name);
                            od.params.iter().for_each(|p| add(&p.name));
                        }
                        LetDef::Fun(fd) => {
                            add(&fd.name);
                            bounds(&fd.bounds, &mut add);
                        }
                        LetDef::ModuleDef(md) => add(&md.name),
                        LetDef::Recursive(_) => {}
                    }
                }
            }
            _ => {}
        });
    }
    out
}

#[test]
fn every_use_is_resolved_to_its_binder_or_module_level() {
    let mut sources = SourceMap::new();
    let root = sources.add("Names.tla", MODULE);
    let a = analyze(&mut sources, root, &Library::new());
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let m = a.root_module().unwrap();
    let binders = binders(m);
    let mut lines = Vec::new();
    let mut uses: Vec<&ast::OpName> = Vec::new();
    for u in &m.units {
        let body = match u {
            Unit::OpDef(d) => &d.body,
            Unit::FunDef(d) => &d.body,
            _ => continue,
        };
        ast::walk(body, &mut |x| {
            if let ExprKind::OpApp { op, .. } = &*x.kind {
                uses.push(op);
            }
        });
    }
    uses.sort_by_key(|op| op.span.start);
    for op in uses {
        let written = &MODULE[op.span.start as usize..op.span.end as usize];
        let what = match a.names.of(op) {
            Some(Denotes::Local(b)) => match binders.iter().find(|(x, ..)| *x == b) {
                Some((_, n, at)) => format!("local, bound at {n}@{at}"),
                None => "local, bound by no identifier of the module".into(),
            },
            Some(Denotes::ModuleLevel) => "module-level".into(),
            None => "not recorded".into(),
        };
        lines.push(format!("{written}@{}: {what}", op.span.start));
    }
    expect![[r#"
        a@76: local, bound at a@67
        +@78: module-level
        b@80: local, bound at b@70
        n@105: local, bound at n@87
        =@107: module-level
        n@123: local, bound at n@87
        *@125: module-level
        fact@127: module-level
        n@132: local, bound at n@87
        -@134: module-level
        F@157: local, bound at F@145
        v@159: local, bound at v@151
        T@213: local, bound at T@204
        =@215: module-level
        T@254: local, bound at T@204
        e@266: local, bound at e@236
        +@268: module-level
        Go@270: local, bound at Go@201
        T@273: local, bound at T@204
        \@275: module-level
        e@278: local, bound at e@236
        k@308: local, bound at k@290
        =@310: module-level
        g@326: local, bound at g@288
        k@328: local, bound at k@290
        -@330: module-level
        +@335: module-level
        k@337: local, bound at k@290
        Go@344: local, bound at Go@201
        S@347: local, bound at S@167
        +@350: module-level
        g@352: local, bound at g@288
        ..@376: module-level
        N@378: module-level
        x@382: module-level
        '@383: module-level
        =@385: module-level
        Apply@387: module-level
        Add@404: module-level
        z@408: local, bound at z@400
        i@411: local, bound at i@369
        x@415: module-level
        C!+@457: local, bound at C@431
        x@461: module-level"#]].assert_eq(&lines.join("\n"));
}
