//! Every `.tla` file of the reference corpus (when present beside the repository) parses
//! without an error.

use std::path::{Path, PathBuf};
use tla_syntax::{SourceMap, diag::render_terminal};

fn tla_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            tla_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "tla") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_parses_without_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !root.exists() {
        eprintln!("note: {} not found; corpus test skipped", root.display());
        return;
    }
    let mut files = Vec::new();
    tla_files(&root, &mut files);
    assert!(!files.is_empty(), "no .tla files under {}", root.display());
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut map = SourceMap::new();
        let id = map.add(f.display().to_string(), text.clone());
        let out = tla_syntax::parse_file(id, &text);
        let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
        let has_error_unit = out.modules.iter().any(|m| m.units.iter().any(|u| matches!(u, tla_syntax::ast::Unit::Error(_))));
        if !errors.is_empty() || out.modules.is_empty() || has_error_unit {
            failures.push(format!("{}\n{}", f.display(), render_terminal(&map, &errors, false)));
        }
    }
    eprintln!("corpus: {} of {} files parse cleanly", files.len() - failures.len(), files.len());
    assert!(failures.is_empty(), "{} files failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn corpus_cfgs_parse_without_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !root.exists() {
        eprintln!("note: {} not found; corpus cfg test skipped", root.display());
        return;
    }
    let mut files = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "cfg") {
                out.push(p);
            }
        }
    }
    walk(&root, &mut files);
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut map = SourceMap::new();
        let id = map.add(f.display().to_string(), text.clone());
        let out = tla_syntax::cfg::parse_cfg(id, &text);
        let c = &out.config;
        let empty = c.specification.is_none() && c.init.is_none() && c.constants.is_empty() && c.invariants.is_empty();
        if out.diagnostics.iter().any(|d| d.is_error()) || empty {
            failures.push(format!("{}\n{}", f.display(), render_terminal(&map, &out.diagnostics, false)));
        }
    }
    eprintln!("corpus: {} of {} cfg files parse cleanly", files.len() - failures.len(), files.len());
    assert!(failures.is_empty(), "{} cfg files failed:\n{}", failures.len(), failures.join("\n"));
}
