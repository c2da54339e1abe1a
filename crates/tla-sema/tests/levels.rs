//! The analysis's level of each expression ([`tla_sema::Levels`]): the levels of definitions
//! whose parameters pass through primes and ENABLED, and that every expression the evaluator
//! may read has one, in every model of this repository (and in `../shared/corpus` when it is
//! there).

use std::path::{Path, PathBuf};

use tla_sema::{analyze, Analysis, Binder, Level, Library, LoadedModule, Through};
use tla_syntax::ast::{self, Expr};
use tla_syntax::SourceMap;

fn analysed(text: &str) -> Analysis {
    let mut sources = SourceMap::new();
    let name = text.split_whitespace().nth(2).unwrap().to_string();
    let root = sources.add(format!("{name}.tla"), text.to_string());
    let a = analyze(&mut sources, root, &Library::new());
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    a
}

fn body<'a>(a: &'a Analysis, name: &str) -> &'a Expr {
    a.root_module()
        .unwrap()
        .units
        .iter()
        .find_map(|u| match u {
            ast::Unit::OpDef(d) if d.name.name == name => Some(&d.body),
            _ => None,
        })
        .unwrap()
}

/// The level of definition `name`'s body, and its parameters as `p:through`.
fn level_of(a: &Analysis, name: &str) -> String {
    let l = a.levels.of(body(a, name)).expect("a level");
    let params: Vec<String> = l.params.iter().map(|p| format!("{}:{:?}", p.name, p.through)).collect();
    format!("{:?} {}", l.base, params.join(" "))
}

#[test]
fn parameters_pass_through_primes_and_enabled() {
    let a = analysed(
        r#"---- MODULE L ----
EXTENDS Naturals
CONSTANT N
VARIABLE x
SetTo(v, e) == v' = e
Keep(v) == UNCHANGED v
Can(A) == ENABLED A
Both(p, q) == p /\ q'
Plain(p) == p + 1
Init == SetTo(x, 0)
PrimedConstant == SetTo(N, 0)
CanStep == Can(x' = x + 1)
Mixed == Both(x, x)
State == Plain(x)
Deep1 == <>(x = 3)
Deep2 == Deep1
Deep3 == Deep2
Fair == WF_x(SetTo(x, 1))
Lam(F(_)) == F(x)
Applied == Lam(LAMBDA y : y + 1)
====
"#,
    );
    let got: Vec<String> =
        ["SetTo", "Keep", "Can", "Both", "Plain", "Init", "PrimedConstant", "CanStep", "Mixed", "State", "Deep3", "Fair", "Applied"]
            .iter()
            .map(|n| format!("{n}: {}", level_of(&a, n)))
            .collect();
    expect_test::expect![[r#"
        SetTo: Action v:Primed e:Plain
        Keep: Action v:Primed
        Can: State A:Enabled
        Both: Action p:Plain q:Primed
        Plain: Constant p:Plain
        Init: Action 
        PrimedConstant: Action 
        CanStep: State 
        Mixed: Action 
        State: State 
        Deep3: Temporal 
        Fair: Temporal 
        Applied: State "#]]
    .assert_eq(&got.join("\n"));
    // A caller that binds the parameters finishes the computation; under a prime or ENABLED
    // an argument adds nothing to the level (SANY's rule), but is still marked as read there.
    let plain = a.levels.of(body(&a, "Plain")).unwrap();
    assert_eq!(plain.under(|_| Some(Level::State)), Level::State);
    assert_eq!(plain.under(|_| Some(Level::Constant)), Level::Constant);
    let can = a.levels.of(body(&a, "Can")).unwrap();
    assert_eq!(can.under(|_| Some(Level::Action)), Level::State);
    assert_eq!(Through::Enabled.apply(Level::Action), Level::State);
    // Each parameter is known by its binder too: the definition's own parameter identifier.
    let both = a.root_module().unwrap().units.iter().find_map(|u| match u {
        ast::Unit::OpDef(d) if d.name.name == "Both" => Some(d),
        _ => None,
    });
    let both = both.unwrap();
    let l = a.levels.of(&both.body).unwrap();
    let binders: Vec<Option<Binder>> = l.params.iter().map(|p| p.binder).collect();
    let declared: Vec<Option<Binder>> = both.params.iter().map(|p| Some(Binder::of(&p.name.name))).collect();
    assert_eq!(binders, declared);
}

/// Every expression of `a`'s modules the evaluator may read: definitions' bodies (LET ones
/// included), functions' bounds, ASSUMEs, named theorems, instances' substitutions.
fn expressions(a: &Analysis) -> Vec<&Expr> {
    let mut out = Vec::new();
    for m in &a.modules {
        units(&m.units, &mut out);
    }
    out
}

fn units<'a>(us: &'a [ast::Unit], out: &mut Vec<&'a Expr>) {
    let walk = |e: &'a Expr, out: &mut Vec<&'a Expr>| ast::walk(e, &mut |x| out.push(x));
    for u in us {
        match u {
            ast::Unit::OpDef(d) => walk(&d.body, out),
            ast::Unit::FunDef(d) => {
                d.bounds.iter().filter_map(|b| b.set.as_ref()).for_each(|s| walk(s, out));
                walk(&d.body, out);
            }
            ast::Unit::Assume(x) => walk(&x.expr, out),
            ast::Unit::Theorem(ast::Theorem { name: Some(_), statement: ast::Statement::Expr(e), .. }) => walk(e, out),
            ast::Unit::ModuleDef(d) => d.instance.substs.iter().for_each(|s| walk(&s.expr, out)),
            ast::Unit::Instance(i) => i.substs.iter().for_each(|s| walk(&s.expr, out)),
            ast::Unit::Submodule(m) => units(&m.units, out),
            _ => {}
        }
    }
}

/// The `.tla` files under `dir`, but not under `target`.
fn tla_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if !p.ends_with("target") && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                tla_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "tla") {
            out.push(p);
        }
    }
}

/// For each model under `dir` that analyses without errors, the expressions without a level.
fn unleveled(dir: &Path) -> (usize, usize, Vec<String>) {
    let mut files = Vec::new();
    tla_files(dir, &mut files);
    files.sort();
    let (mut models, mut exprs, mut missing) = (0, 0, Vec::new());
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        let folder = f.parent().unwrap().to_path_buf();
        let library = Library::reading(move |name| {
            let p = folder.join(format!("{name}.tla"));
            Some(LoadedModule { file_name: p.display().to_string(), text: std::fs::read_to_string(&p).ok()? })
        });
        let mut sources = SourceMap::new();
        let root = sources.add(f.display().to_string(), text);
        let a = analyze(&mut sources, root, &library);
        if a.has_errors() || a.root.is_none() {
            continue;
        }
        models += 1;
        for e in expressions(&a) {
            exprs += 1;
            if a.levels.of(e).is_none() {
                let file = sources.get(e.span.file);
                let (l, c) = file.line_col(e.span.start);
                missing.push(format!("{}:{l}:{c}", file.name));
            }
        }
    }
    (models, exprs, missing)
}

#[test]
fn every_expression_of_the_repositorys_models_has_a_level() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (models, exprs, missing) = unleveled(&root);
    assert!(models > 100, "only {models} models found under {}", root.display());
    assert!(missing.is_empty(), "{} of {exprs} expressions have no level:\n{}", missing.len(), missing[..missing.len().min(30)].join("\n"));
}

#[test]
fn every_expression_of_the_public_models_has_a_level() {
    for folder in ["corpus", "examples"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared").join(folder);
        if !dir.exists() {
            println!("note: ../shared/{folder} not found; skipped");
            continue;
        }
        let (models, exprs, missing) = unleveled(&dir);
        assert!(
            missing.is_empty(),
            "{} of {exprs} expressions in {models} models have no level:\n{}",
            missing.len(),
            missing[..missing.len().min(30)].join("\n")
        );
    }
}
