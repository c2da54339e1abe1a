//! The negative suite: small broken models, each with one mistake of the kind generated models
//! make, checked against what SANY says about them.
//!
//! Data: `tests/negative/NNN_name.tla` (SANY rejects each one; `SANY.tsv` records SANY's verdict,
//! the line it reports and a summary) and `tests/negative/warn/` (SANY accepts them, TLC fails on
//! them at run time; `TLC.tsv` records what TLC says). Each module's second line is a comment
//! `\* mistake: ...; error at line N` naming the intended mistake and its line.
//!
//! For every module the diagnostics of `tla_sema::analyze` are snapshotted beside it
//! (`NNN_name.snap`; refresh with `UPDATE_EXPECT=1`), and:
//! - every module of the negative folder has at least one error;
//! - one of those errors lies on the line SANY reports (or on the intended line of the comment,
//!   when SANY points elsewhere, e.g. at the next definition after an unclosed bracket); when
//!   SANY gives no line (a module it cannot find), on the intended line;
//! - no module of `warn/` has an error (what SANY accepts, we accept).
//!
//! `cargo xtask sany` re-runs SANY over both folders and compares with `SANY.tsv`.

use std::path::{Path, PathBuf};
use tla_sema::{analyze, Library, LoadedModule};
use tla_syntax::{Severity, SourceMap};

/// Finds `<Name>.tla` in one folder, as SANY finds modules beside the root file.
fn folder(dir: PathBuf) -> Library {
    Library::reading(move |name| {
        let file_name = format!("{name}.tla");
        let text = std::fs::read_to_string(dir.join(&file_name)).ok()?;
        Some(LoadedModule { file_name, text })
    })
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/negative")
}

/// `.tla` files of a folder, sorted by name.
fn modules_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tla"))
        .collect();
    v.sort();
    v
}

/// One row of SANY.tsv: the file, whether SANY rejects it, and the lines it reports.
struct SanyRow {
    file: String,
    rejected: bool,
    lines: Option<(u32, u32)>,
}

fn sany_rows(dir: &Path) -> Vec<SanyRow> {
    let text = std::fs::read_to_string(dir.join("SANY.tsv")).expect("SANY.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 4, "SANY.tsv row `{l}`");
            let lines = if c[2].is_empty() {
                None
            } else {
                let (a, b) = c[2].split_once('-').unwrap_or((c[2], c[2]));
                Some((a.parse().expect("line"), b.parse().expect("line")))
            };
            SanyRow { file: c[0].to_string(), rejected: c[1] == "rejected", lines }
        })
        .collect()
}

/// The intended error line, from the `\* mistake: ...; error at line N` comment.
fn intended_line(text: &str) -> Option<u32> {
    let l = text.lines().find(|l| l.trim_start().starts_with("\\* mistake:"))?;
    let at = l.rfind("error at line ")? + "error at line ".len();
    l[at..].trim().parse().ok()
}

/// A diagnostic as the snapshot shows it, with its primary span's lines.
struct Shown {
    severity: Severity,
    start_line: u32,
    end_line: u32,
    text: String,
}

fn run(dir: &Path, file: &str) -> (String, Vec<Shown>) {
    let text = std::fs::read_to_string(dir.join(file)).expect("module text");
    let mut sources = SourceMap::new();
    let root = sources.add(file, text);
    let analysis = analyze(&mut sources, root, &folder(dir.to_path_buf()));
    let mut shown = Vec::new();
    for d in &analysis.diagnostics {
        let f = sources.get(d.span.file);
        let (line, col) = f.line_col(d.span.start);
        // The line of the span's last character (an empty span ends where it starts).
        let last = if d.span.end > d.span.start { d.span.end - 1 } else { d.span.start };
        let (end_line, _) = f.line_col(last);
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        let msg = d.message.replace('\n', " ");
        shown.push(Shown {
            severity: d.severity,
            start_line: line,
            end_line,
            text: format!("{sev} {} {}:{line}:{col} {msg}", d.code, f.name),
        });
    }
    let mut snap = String::new();
    for s in &shown {
        snap.push_str(&s.text);
        snap.push('\n');
    }
    snap.push_str(&format!(
        "score: clean={} parsed={}/{} score={:.4}\n",
        analysis.score.clean, analysis.score.parsed, analysis.score.total, analysis.score.score
    ));
    (snap, shown)
}

/// Compare a snapshot beside the module, collecting failures instead of stopping at the first.
fn check_snapshot(dir: &Path, file: &str, actual: &str, failures: &mut Vec<String>) {
    let snap = dir.join(file.replace(".tla", ".snap"));
    let outcome = std::panic::catch_unwind(|| expect_test::expect_file![snap.clone()].assert_eq(actual));
    if outcome.is_err() {
        failures.push(format!("{file}: snapshot differs (UPDATE_EXPECT=1 to accept)"));
    }
}

#[test]
fn sany_record_covers_every_module() {
    let dir = suite_dir();
    let rows = sany_rows(&dir);
    let files = modules_in(&dir);
    assert!(files.len() >= 70, "the suite has {} modules, wants at least 70", files.len());
    for f in &files {
        let row = rows.iter().find(|r| &r.file == f).unwrap_or_else(|| panic!("{f}: no row in SANY.tsv"));
        assert!(row.rejected, "{f}: SANY accepts it, so it belongs in warn/");
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(intended_line(&text).is_some(), "{f}: no `\\* mistake: ...; error at line N` comment");
        let stem = f.trim_end_matches(".tla");
        if !f.contains("module_name_mismatch") && !f.contains("missing_header") && !f.contains("missing_module_keyword") {
            assert!(text.contains(&format!("MODULE {stem} ")), "{f}: module name differs from file name");
        }
    }
    for r in &rows {
        assert!(files.contains(&r.file), "SANY.tsv row {} has no file", r.file);
    }
}

#[test]
fn negative_modules_are_rejected_where_sany_rejects_them() {
    let dir = suite_dir();
    let rows = sany_rows(&dir);
    let mut failures = Vec::new();
    let mut line_mismatches = Vec::new();
    for file in modules_in(&dir) {
        let (snap, shown) = run(&dir, &file);
        check_snapshot(&dir, &file, &snap, &mut failures);
        let errors: Vec<&Shown> = shown.iter().filter(|s| s.severity == Severity::Error).collect();
        if errors.is_empty() {
            failures.push(format!("{file}: no error reported (SANY rejects it)"));
            continue;
        }
        let text = std::fs::read_to_string(dir.join(&file)).unwrap();
        let intended = intended_line(&text);
        let Some(row) = rows.iter().find(|r| r.file == file) else { continue };
        let on_intended = intended.is_some_and(|n| errors.iter().any(|e| e.start_line <= n && e.end_line >= n));
        let ours: Vec<String> = errors.iter().map(|e| e.start_line.to_string()).collect();
        match row.lines {
            Some((a, b)) => {
                let on_sany_line = errors.iter().any(|e| e.start_line <= b && e.end_line >= a);
                if !on_sany_line && !on_intended {
                    line_mismatches.push(format!(
                        "{file}: SANY reports line {}, the mistake is on line {}, our errors are on line(s) {}",
                        if a == b { a.to_string() } else { format!("{a}-{b}") },
                        intended.map(|n| n.to_string()).unwrap_or_default(),
                        ours.join(", ")
                    ));
                }
            }
            // SANY gives no line (a missing module, no module header): the error must then be
            // on the line of the mistake.
            None if !on_intended => line_mismatches.push(format!(
                "{file}: SANY gives no line, the mistake is on line {}, our errors are on line(s) {}",
                intended.map(|n| n.to_string()).unwrap_or_default(),
                ours.join(", ")
            )),
            None => {}
        }
    }
    failures.extend(line_mismatches);
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn warn_modules_have_no_error() {
    let dir = suite_dir().join("warn");
    let rows = sany_rows(&dir);
    let mut failures = Vec::new();
    let tlc = std::fs::read_to_string(dir.join("TLC.tsv")).expect("warn/TLC.tsv");
    for file in modules_in(&dir) {
        let row = rows.iter().find(|r| r.file == file);
        assert!(row.is_some_and(|r| !r.rejected), "{file}: warn/ holds only modules SANY accepts");
        assert!(
            tlc.lines().any(|l| l.starts_with(&format!("{file}\terror\t"))),
            "{file}: TLC.tsv must record the run-time error TLC reports"
        );
        assert!(dir.join(file.replace(".tla", ".cfg")).is_file(), "{file}: no .cfg beside it");
        let (snap, shown) = run(&dir, &file);
        check_snapshot(&dir, &file, &snap, &mut failures);
        for s in shown.iter().filter(|s| s.severity == Severity::Error) {
            failures.push(format!("{file}: SANY accepts it but we report `{}`", s.text));
        }
    }
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

/// Inputs that made the front end panic (found by fuzzing, `fuzz/regressions/`): each must be
/// handled without a panic. `parse/` holds module texts for `analyze`, `cfg/` holds `.cfg` texts.
#[test]
fn fuzz_regressions_do_not_panic() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let inputs = |sub: &str| -> Vec<(String, String)> {
        let Ok(entries) = std::fs::read_dir(base.join(sub)) else { return vec![] };
        let mut v: Vec<(String, String)> = entries
            .filter_map(|e| e.ok())
            .map(|e| {
                let bytes = std::fs::read(e.path()).unwrap();
                (e.file_name().to_string_lossy().into_owned(), String::from_utf8_lossy(&bytes).into_owned())
            })
            .collect();
        v.sort();
        v
    };
    let mut panicked = Vec::new();
    for (name, text) in inputs("parse") {
        let ok = std::panic::catch_unwind(|| {
            let mut sources = SourceMap::new();
            let root = sources.add(name.clone(), text.clone());
            let a = analyze(&mut sources, root, &Library::new());
            let _ = tla_syntax::diag::render_terminal(&sources, &a.diagnostics, false);
        });
        if ok.is_err() {
            panicked.push(format!("parse/{name}"));
        }
    }
    for (name, text) in inputs("cfg") {
        let ok = std::panic::catch_unwind(|| {
            let mut sources = SourceMap::new();
            let file = sources.add(name.clone(), text.clone());
            let out = tla_syntax::cfg::parse_cfg(file, &text);
            let _ = tla_syntax::diag::render_terminal(&sources, &out.diagnostics, false);
        });
        if ok.is_err() {
            panicked.push(format!("cfg/{name}"));
        }
    }
    assert!(panicked.is_empty(), "these fuzz regressions still panic: {}", panicked.join(", "));
}
