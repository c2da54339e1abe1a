//! Differential tests against TLC's recorded answers: every `NAME.tla` of tests/tlc is checked
//! with `NAME.cfg`, and the result, distinct states, states generated and depth must be TLC's,
//! as recorded in `NAME.expect` (`key = value` lines; the comment above them says what the spec
//! exercises and the TLC command that gave the figures). The specs are small and ours; each
//! stands for a way of writing TLA+ that once gave a wrong answer here.

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/tlc")
}

/// The `key = value` pairs of an expect file, comments left out.
fn expected(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap_or_else(|| panic!("{}: `{l}` is not `key = value`", path.display()));
            (k.trim().to_string(), v.trim().trim_matches('"').to_string())
        })
        .collect()
}

#[test]
fn every_spec_gets_tlcs_figures() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("tests/tlc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".expect").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 2, "no expect files in {}", dir().display());
    let mut wrong = vec![];
    for name in &names {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sysmo"))
            .args(["check", &format!("{name}.tla"), "--config", &format!("{name}.cfg"), "--json"])
            .current_dir(dir())
            .output()
            .expect("sysmo runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let report: serde_json::Value =
            serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{name}: {e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
        for (key, want) in expected(&dir().join(format!("{name}.expect"))) {
            let field = match key.as_str() {
                "result" => "result",
                "distinct" => "distinct_states",
                "generated" => "states_generated",
                "depth" => "depth",
                other => panic!("{name}.expect: unknown key `{other}`"),
            };
            let got = match &report[field] {
                serde_json::Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            if got != want {
                wrong.push(format!("{name}: {key} is {got}, TLC's is {want} ({})", report["message"]));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
