//! Data-driven snapshot tests: every `tests/parse/*.tla` is parsed and its AST dump plus its
//! diagnostics are compared with `tests/parse/*.snap`; every `tests/cfg/*.cfg` likewise with
//! `tests/cfg/*.snap`. Update with `UPDATE_EXPECT=1 cargo test -p tla-syntax --test snapshots`.

use expect_test::expect_file;
use std::path::{Path, PathBuf};
use tla_syntax::cfg::{CfgValue, ConstRhs};
use tla_syntax::{Diagnostic, SourceFile};

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no .{ext} files in {}", d.display());
    v
}

fn diags(src: &SourceFile, ds: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in ds {
        let (l, c) = src.line_col(d.span.start);
        let sev = if d.is_error() { "error" } else { "warning" };
        s.push_str(&format!("{} {l}:{c} {sev}: {}\n", d.code, d.message));
        for lab in &d.labels {
            let (l, c) = src.line_col(lab.span.start);
            s.push_str(&format!("    label {l}:{c}: {}\n", lab.message));
        }
        for h in &d.hints {
            s.push_str(&format!("    hint: {h}\n"));
        }
    }
    s
}

#[test]
fn parse_snapshots() {
    for path in files("tests/parse", "tla") {
        let text = std::fs::read_to_string(&path).unwrap();
        let src = SourceFile::new("t", text.clone());
        let out = tla_syntax::parse_file(tla_syntax::FileId(0), &text);
        let mut s = String::new();
        for m in &out.modules {
            s.push_str(&tla_syntax::dump(m));
        }
        s.push_str("--- diagnostics\n");
        s.push_str(&diags(&src, &out.diagnostics));
        expect_file![path.with_extension("snap")].assert_eq(&s);
    }
}

fn value(v: &CfgValue) -> String {
    match v {
        CfgValue::Int(n) => n.to_string(),
        CfgValue::Str(s) => format!("{s:?}"),
        CfgValue::Bool(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        CfgValue::ModelValue(m) => format!("mv:{m}"),
        CfgValue::Set(vs) => format!("{{{}}}", vs.iter().map(value).collect::<Vec<_>>().join(", ")),
    }
}

#[test]
fn cfg_snapshots() {
    for path in files("tests/cfg", "cfg") {
        let text = std::fs::read_to_string(&path).unwrap();
        let src = SourceFile::new("t", text.clone());
        let out = tla_syntax::cfg::parse_cfg(tla_syntax::FileId(0), &text);
        let c = &out.config;
        let mut s = String::new();
        let one = |s: &mut String, k: &str, v: &Option<tla_syntax::ast::Ident>| {
            if let Some(v) = v {
                s.push_str(&format!("{k} {}\n", v.name));
            }
        };
        one(&mut s, "specification", &c.specification);
        one(&mut s, "init", &c.init);
        one(&mut s, "next", &c.next);
        for a in &c.constants {
            let rhs = match &a.rhs {
                ConstRhs::Value(v, _) => format!("= {}", value(v)),
                ConstRhs::Subst(d) => format!("<- {}", d.name),
                ConstRhs::ModSubst { module, def } => format!("<- [{}] {}", module.name, def.name),
            };
            let m = a.module.as_ref().map(|m| format!(" (module {})", m.name)).unwrap_or_default();
            s.push_str(&format!("constant {} {rhs}{m}\n", a.name.name));
        }
        let many = |s: &mut String, k: &str, v: &[tla_syntax::ast::Ident]| {
            if !v.is_empty() {
                s.push_str(&format!("{k} {}\n", v.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(" ")));
            }
        };
        many(&mut s, "invariants", &c.invariants);
        many(&mut s, "properties", &c.properties);
        many(&mut s, "constraints", &c.constraints);
        many(&mut s, "action_constraints", &c.action_constraints);
        one(&mut s, "symmetry", &c.symmetry);
        one(&mut s, "view", &c.view);
        one(&mut s, "alias", &c.alias);
        one(&mut s, "postcondition", &c.postcondition);
        if let Some(d) = c.check_deadlock {
            s.push_str(&format!("check_deadlock {d}\n"));
        }
        s.push_str("--- diagnostics\n");
        s.push_str(&diags(&src, &out.diagnostics));
        expect_file![path.with_extension("snap")].assert_eq(&s);
    }
}
