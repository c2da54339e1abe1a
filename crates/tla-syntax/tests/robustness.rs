//! The parsers never panic: every prefix of the test modules, and each with one character
//! removed, still parses to a result plus diagnostics.

use std::path::Path;

fn inputs(dir: &str, ext: &str) -> Vec<String> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<_> = std::fs::read_dir(d).unwrap().flatten().map(|e| e.path()).collect();
    v.sort();
    v.into_iter().filter(|p| p.extension().is_some_and(|e| e == ext)).map(|p| std::fs::read_to_string(p).unwrap()).collect()
}

fn variants(text: &str) -> Vec<String> {
    let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(3).collect();
    let mut out = Vec::new();
    for &i in &cuts {
        out.push(text[..i].to_string());
        let mut t = text.to_string();
        t.remove(i);
        out.push(t);
    }
    out
}

#[test]
fn tla_parser_never_panics() {
    let mut n = 0;
    for text in inputs("tests/parse", "tla") {
        for v in variants(&text) {
            let out = tla_syntax::parse_file(tla_syntax::FileId(0), &v);
            n += out.modules.len();
        }
    }
    assert!(n > 0);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let text = format!("---- MODULE Deep ----\nX == {}1{}\n====\n", "(".repeat(5000), ")".repeat(5000));
    let out = tla_syntax::parse_file(tla_syntax::FileId(0), &text);
    assert!(out.diagnostics.iter().any(|d| d.code == "E0116"));
    let text = format!("---- MODULE Deep ----\nX == {}1\n====\n", "~".repeat(5000));
    let out = tla_syntax::parse_file(tla_syntax::FileId(0), &text);
    assert!(out.diagnostics.iter().any(|d| d.code == "E0116"));
}

#[test]
fn cfg_parser_never_panics() {
    for text in inputs("tests/cfg", "cfg") {
        for v in variants(&text) {
            let _ = tla_syntax::cfg::parse_cfg(tla_syntax::FileId(0), &v);
        }
    }
}
