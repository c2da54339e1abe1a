//! `sysmo grade DIR` as a researcher runs it over many models: each model is graded in a child
//! process of its own, the reports come out in input order, and a model that cannot be graded
//! is that model's error while the others are graded.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sysmo-grade-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn reference(file: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tasks/spin/reference").join(file);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn put(dir: &Path, file: &str, bytes: &[u8]) {
    let p = dir.join(file);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

#[test]
fn a_directory_of_models_is_graded_in_order_and_one_unreadable_model_stops_only_itself() {
    let d = scratch("dir");
    put(&d, "spin/a/spin.tla", &reference("spin.tla"));
    put(&d, "spin/a/spin.cfg", &reference("spin.cfg"));
    put(&d, "spin/b/spin.tla", b"---- MODULE spin ----\nVARIABLE x\nInit == x =\nNext == x' = x\n====\n");
    // Not UTF-8: the child cannot read it and says so; the parent goes on.
    put(&d, "spin/c/spin.tla", b"---- MODULE spin ----\n\xff\xfe\n====\n");
    put(&d, "spin/d/spin.tla", &reference("spin.tla"));
    put(&d, "spin/d/spin.cfg", &reference("spin.cfg"));
    let out = Command::new(env!("CARGO_BIN_EXE_sysmo")).args(["grade", "--json"]).arg(&d).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let reports: Vec<Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let models: Vec<String> = reports.iter().map(|r| r["model"].as_str().unwrap().replace('\\', "/")).collect();
    assert_eq!(reports.len(), 3, "{models:?}\n{stderr}");
    assert!(models[0].ends_with("spin/a/spin.tla") && models[1].ends_with("spin/b/spin.tla") && models[2].ends_with("spin/d/spin.tla"), "{models:?}");
    assert_eq!(reports[0]["overall"], 1.0, "{}", reports[0]);
    assert_eq!(reports[2]["overall"], 1.0, "{}", reports[2]);
    // One of its two definitions parses: partial syntax credit, the later stages skipped.
    assert_eq!(reports[1]["stages"]["syntax"]["score"], 0.25, "{}", reports[1]);
    assert_eq!(reports[1]["stages"]["runtime"]["status"], "skipped", "{}", reports[1]);
    // The unreadable model: one error line naming it and why, from the child.
    let line = stderr.lines().find(|l| l.contains("spin/c/spin.tla")).unwrap_or_else(|| panic!("no error for c:\n{stderr}"));
    assert!(line.starts_with("error: ") && line.contains("UTF-8") && !line.contains("unexpectedly"), "{line}");
    // The summary counts the three graded models.
    assert!(stderr.lines().any(|l| l.starts_with("spin,3,")), "{stderr}");
}
