//! `sysmo parse` as a user runs it: exit codes, terminal rendering, `--json`, the loader that
//! reads modules beside the file.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sysmo-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, file: &str, text: &str) {
    std::fs::write(dir.join(file), text).unwrap();
}

fn sysmo(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sysmo")).args(args).current_dir(dir).output().unwrap()
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const LIB: &str = "---- MODULE Lib ----\nEXTENDS Naturals\nDouble(n) == 2 * n\n====\n";
const MAIN: &str = "---- MODULE Main ----\nEXTENDS Lib\nVARIABLE x\nInit == x = Double(1)\nNext == x' = x + 1\n====\n";
const BROKEN: &str = "---- MODULE Broken ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = x +\nInv == x >= 0\n====\n";

#[test]
fn clean_module_with_a_neighbour_exits_zero_and_prints_nothing() {
    let d = scratch("clean");
    write(&d, "Lib.tla", LIB);
    write(&d, "Main.tla", MAIN);
    let out = sysmo(&d, &["parse", "Main.tla"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty() && out.stdout.is_empty());
}

#[test]
fn neighbour_is_found_beside_the_file_not_in_the_working_directory() {
    let d = scratch("beside");
    std::fs::create_dir_all(d.join("specs")).unwrap();
    write(&d.join("specs"), "Lib.tla", LIB);
    write(&d.join("specs"), "Main.tla", MAIN);
    let out = sysmo(&d, &["parse", "--json", "specs/Main.tla"]);
    let r = &json_lines(&out)[0];
    assert_eq!(out.status.code(), Some(0), "{r}");
    assert_eq!(r["ok"], true);
    assert_eq!(r["syntax_score"], 1.0);
}

#[test]
fn missing_neighbour_is_an_error_with_exit_150() {
    let d = scratch("missing");
    write(&d, "Main.tla", MAIN);
    let out = sysmo(&d, &["parse", "--json", "Main.tla"]);
    assert_eq!(out.status.code(), Some(150));
    let r = &json_lines(&out)[0];
    assert_eq!(r["ok"], false);
    let d0 = &r["diagnostics"][0];
    assert!(d0["message"].as_str().unwrap().contains("Lib"), "{d0}");
    assert_eq!((d0["line"].as_u64(), d0["column"].as_u64()), (Some(2), Some(9)));
}

#[test]
fn syntax_error_is_rendered_on_stderr_with_code_and_place() {
    let d = scratch("broken");
    write(&d, "Broken.tla", BROKEN);
    let out = sysmo(&d, &["parse", "Broken.tla"]);
    assert_eq!(out.status.code(), Some(150));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[E"), "{err}");
    assert!(err.contains("Broken.tla:"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn json_report_has_the_documented_shape() {
    let d = scratch("json");
    write(&d, "Broken.tla", BROKEN);
    let out = sysmo(&d, &["parse", "--json", "Broken.tla"]);
    assert_eq!(out.status.code(), Some(150));
    let r = &json_lines(&out)[0];
    for key in ["ok", "syntax_score", "definitions", "diagnostics"] {
        assert!(r.get(key).is_some(), "missing {key} in {r}");
    }
    assert_eq!(r["ok"], false);
    let (total, parsed) = (r["definitions"]["total"].as_u64().unwrap(), r["definitions"]["parsed"].as_u64().unwrap());
    assert!(parsed < total, "{r}");
    let score = r["syntax_score"].as_f64().unwrap();
    assert!((score - 0.5 * parsed as f64 / total as f64).abs() < 1e-9, "{r}");
    let diags = r["diagnostics"].as_array().unwrap();
    assert!(!diags.is_empty());
    for d in diags {
        for key in ["code", "severity", "message", "file", "line", "column", "end_line", "end_column", "hints"] {
            assert!(d.get(key).is_some(), "missing {key} in {d}");
        }
        assert_eq!(d["file"], "Broken.tla");
        assert!(d["line"].as_u64().unwrap() >= 5, "{d}");
    }
}

#[test]
fn several_files_give_one_json_line_each_and_the_worst_exit() {
    let d = scratch("several");
    write(&d, "Lib.tla", LIB);
    write(&d, "Main.tla", MAIN);
    write(&d, "Broken.tla", BROKEN);
    let out = sysmo(&d, &["parse", "--json", "Main.tla", "Broken.tla", "Lib.tla"]);
    assert_eq!(out.status.code(), Some(150));
    let oks: Vec<Value> = json_lines(&out).iter().map(|r| r["ok"].clone()).collect();
    assert_eq!(oks, vec![Value::Bool(true), Value::Bool(false), Value::Bool(true)]);
}

#[test]
fn unreadable_file_and_bad_usage_exit_2() {
    let d = scratch("usage");
    let out = sysmo(&d, &["parse", "Nope.tla"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Nope.tla"));
    assert_eq!(sysmo(&d, &["parse"]).status.code(), Some(2));
    assert_eq!(sysmo(&d, &["frobnicate"]).status.code(), Some(2));
}

#[test]
fn timing_goes_to_stderr() {
    let d = scratch("timing");
    write(&d, "Lib.tla", LIB);
    let out = sysmo(&d, &["parse", "--timing", "Lib.tla"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err.lines().find(|l| l.starts_with("timing: Lib.tla parse+check ")).expect("timing line");
    let ms: f64 = line.rsplit(' ').nth(1).unwrap().parse().unwrap();
    assert!(ms >= 0.0);
}
