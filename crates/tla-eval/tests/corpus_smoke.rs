//! Robustness on the public models of the reference corpus (read at test time from
//! ../shared/corpus when it exists; skipped otherwise): every zero-argument definition and
//! every ASSUME of every model is evaluated at constant level with the model's .cfg words
//! interned. Many fail (they read state variables or constants the .cfg gives); the test checks
//! that each outcome is a value or a coded error with a span inside the file — never a panic.

use std::path::PathBuf;

use tla_eval::ConstEval;
use tla_syntax::ast::Unit;
use tla_syntax::{parse_file, FileId};

fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    p.is_dir().then_some(p)
}

#[test]
fn constant_definitions_of_corpus_models_evaluate_or_fail_cleanly() {
    let Some(dir) = corpus() else {
        eprintln!("corpus not found; skipped");
        return;
    };
    let index = std::fs::read_to_string(dir.join("index.tsv")).unwrap_or_default();
    let (mut values, mut errors, mut files) = (0, 0, 0);
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (name, module, cfg_name) = match cols.as_slice() {
            [n, _, m, c, ..] => (*n, *m, *c),
            _ => continue,
        };
        let Ok(text) = std::fs::read_to_string(dir.join(name).join(format!("{module}.tla"))) else { continue };
        let cfg = std::fs::read_to_string(dir.join(name).join(cfg_name)).unwrap_or_default();
        files += 1;
        let out = parse_file(FileId(0), &text);
        let Some(root) = out.modules.first() else { continue };
        let parsed_cfg = tla_syntax::cfg::parse_cfg(FileId(1), &cfg);
        let mut ev = ConstEval::with_config(std::slice::from_ref(root), &cfg);
        for err in ev.apply_config(&parsed_cfg.config) {
            assert!(err.code.starts_with("E04"), "{name}: {err}");
        }
        for u in &root.units {
            let r = match u {
                Unit::OpDef(d) if d.params.is_empty() => ev.eval_def(&d.name.name),
                Unit::Assume(a) => ev.eval(&a.expr),
                _ => continue,
            };
            match r {
                Ok(_) => values += 1,
                Err(err) => {
                    errors += 1;
                    if std::env::var("CORPUS_SMOKE_VERBOSE").is_ok() { eprintln!("{name}: {err}"); }
                    assert!(err.code.starts_with("E04"), "{name}: {err}");
                    if let Some(s) = err.span {
                        assert!((s.end as usize) <= text.len(), "{name}: span out of the file");
                    }
                }
            }
        }
    }
    eprintln!("{files} models: {values} definitions evaluated, {errors} coded errors");
    assert!(files > 0);
}
