//! `sysmo task check DIR`: built-in task folders pass; a copy of one, broken in five ways,
//! gets one problem for each, with its file and line.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `sysmo task check DIR --json`: exit code and report.
fn task_check(dir: &Path) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_sysmo")).args(["task", "check"]).arg(dir).arg("--json").output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap_or(-1), v)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

#[test]
fn built_in_task_folders_pass() {
    for task in ["counter", "locksvc", "spin-split"] {
        let (code, v) = task_check(&repo().join("tasks").join(task));
        assert_eq!((code, &v["problems"]), (0, &Value::Array(vec![])), "{task}: {v}");
        let passed = v["passed"].as_array().unwrap();
        assert!(passed.iter().any(|p| p.as_str().unwrap().contains("grades 1.0 in every stage")), "{task}: {v}");
    }
}

#[test]
fn a_broken_folder_gets_a_problem_for_each_fault_with_its_file_and_line() {
    let dir = std::env::temp_dir().join(format!("sysmo-task-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&repo().join("tasks/locksvc"), &dir);
    for sub in ["src", "tests", "wrong", "target"] {
        let _ = std::fs::remove_dir_all(dir.join(sub));
    }
    copy_dir(&repo().join("traces/locksvc"), &dir.join("traces/locksvc"));
    copy_dir(&repo().join("traces/locksvc-bug"), &dir.join("traces/locksvc-bug"));
    // 1. A pinned action that no trace takes.
    let toml = std::fs::read_to_string(dir.join("task.toml")).unwrap();
    let toml = toml.replace("actions = [\n", "actions = [\n  { name = \"ghost\", params = [\"self\"], meaning = \"never taken\" },\n");
    std::fs::write(dir.join("task.toml"), &toml).unwrap();
    let ghost_line = toml.lines().position(|l| l.contains("name = \"ghost\"")).unwrap() + 1;
    // 2. A trace line that is not JSON (line 3 of a trace).
    let trace = dir.join("traces/locksvc/random-001.ndjson");
    let mut lines: Vec<String> = std::fs::read_to_string(&trace).unwrap().lines().map(str::to_string).collect();
    lines[2] = "{\"kind\":\"step\",".into();
    std::fs::write(&trace, lines.join("\n") + "\n").unwrap();
    // 3. A step whose action is not pinned (line 4 of another trace).
    let trace2 = dir.join("traces/locksvc/random-002.ndjson");
    let text2 = std::fs::read_to_string(&trace2).unwrap();
    let mut lines2: Vec<String> = text2.lines().map(str::to_string).collect();
    lines2[3] = lines2[3].replacen("\"action\":\"", "\"action\":\"x", 1);
    std::fs::write(&trace2, lines2.join("\n") + "\n").unwrap();
    // 4. A reference model that is a wrong one; 5. a bug model that is the reference.
    let wrong = std::fs::read_to_string(repo().join("tasks/locksvc/wrong/lifo-queue/locksvc.tla")).unwrap();
    let reference = std::fs::read_to_string(repo().join("tasks/locksvc/reference/locksvc.tla")).unwrap();
    std::fs::write(dir.join("reference/locksvc.tla"), wrong).unwrap();
    std::fs::write(dir.join("bug/locksvc.tla"), reference).unwrap();

    let (code, v) = task_check(&dir);
    assert_eq!(code, 1, "{v}");
    let problems: Vec<(String, Option<u64>, String)> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["file"].as_str().unwrap().to_string(), p["line"].as_u64(), p["message"].as_str().unwrap().to_string()))
        .collect();
    let has = |file: &str, line: Option<u64>, words: &str| problems.iter().any(|(f, l, m)| f == file && *l == line && m.contains(words));
    assert!(has("task.toml", Some(ghost_line as u64), "pinned action `ghost` occurs in no trace"), "{problems:#?}");
    assert!(has("traces/locksvc/random-001.ndjson", Some(3), "not JSON"), "{problems:#?}");
    assert!(has("traces/locksvc/random-002.ndjson", Some(4), "is not pinned"), "{problems:#?}");
    assert!(has("reference/locksvc.tla", None, "the reference model must grade 1.0; short: conformance"), "{problems:#?}");
    assert!(has("bug/locksvc.tla", None, "the bug model must violate a property"), "{problems:#?}");
    assert_eq!(problems.len(), 5, "{problems:#?}");
    // A task.toml that does not read: its line.
    std::fs::write(dir.join("task.toml"), "id = \"locksvc\"\ntitle = \n").unwrap();
    let (code, v) = task_check(&dir);
    assert_eq!(code, 1);
    assert_eq!(v["problems"][0]["file"], "task.toml", "{v}");
    assert_eq!(v["problems"][0]["line"], 2, "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}
