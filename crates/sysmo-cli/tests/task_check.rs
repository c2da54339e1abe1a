//! `sysmo task check DIR|PACK` and `sysmo task pack DIR`: built-in task folders pass and pack
//! into what sysmo-tasks embeds; a pack checks as its folder does; a teacher's folder with its
//! own code and traces packs; the sample course's buffer checks and packs, and its traces are
//! what its Python program writes; a copy of a task broken in five ways gets one problem for
//! each, with its file and line; a broken pack or folder says what is wrong and packs nothing.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `sysmo task <sub> ARGS --json`: exit code and report.
fn task(sub: &str, args: &[&std::ffi::OsStr]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_sysmo")).args(["task", sub]).args(args).arg("--json").output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap_or(-1), v)
}

/// `sysmo task check DIR --json`: exit code and report.
fn task_check(dir: &Path) -> (i32, Value) {
    task("check", &[dir.as_os_str()])
}

/// `sysmo task pack DIR -o FILE --json`: exit code and report.
fn task_pack(dir: &Path, file: &Path) -> (i32, Value) {
    task("pack", &[dir.as_os_str(), "-o".as_ref(), file.as_os_str()])
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sysmo-task-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn problems(v: &Value) -> Vec<(String, Option<u64>, String)> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["file"].as_str().unwrap().to_string(), p["line"].as_u64(), p["message"].as_str().unwrap().to_string()))
        .collect()
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
    let problems = problems(&v);
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

#[test]
fn every_built_in_task_packs_into_what_is_embedded() {
    use sysmo_task_format::pack::Pack;
    let out = scratch("pack-all");
    for t in sysmo_tasks::tasks() {
        let file = out.join(format!("{}.sysmo", t.id));
        let (code, v) = task_pack(&repo().join("tasks").join(t.id), &file);
        assert_eq!((code, &v["problems"]), (0, &Value::Array(vec![])), "{}: {v}", t.id);
        let bytes = std::fs::read(&file).unwrap();
        let pack = Pack::from_bytes(&bytes).unwrap();
        assert_eq!(v["pack"]["hash"].as_str(), Some(pack.content_hash().as_str()));
        // The same reading as the embedded task's: files, traces (and bug traces), code and
        // graph; the pack keeps its files sorted, as `to_pack` does.
        let embedded = t.to_pack();
        assert_eq!(pack.files, embedded.files, "{}", t.id);
        assert_eq!(pack.traces, embedded.traces, "{}", t.id);
        assert_eq!(pack.code, embedded.code, "{}", t.id);
        assert_eq!(pack.graph, embedded.graph, "{}", t.id);
        assert_eq!(pack.content_hash(), embedded.content_hash(), "{}", t.id);
        // Packing again gives the same bytes.
        if ["counter", "redisraft"].contains(&t.id) {
            let again = out.join(format!("{}-again.sysmo", t.id));
            task_pack(&repo().join("tasks").join(t.id), &again);
            assert_eq!(std::fs::read(&again).unwrap(), bytes, "{}", t.id);
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_pack_checks_as_its_folder_does() {
    let out = scratch("pack-check");
    for task in ["counter", "locksvc"] {
        let dir = repo().join("tasks").join(task);
        let file = out.join(format!("{task}.sysmo"));
        assert_eq!(task_pack(&dir, &file).0, 0);
        let (code, from_pack) = task_check(&file);
        let (_, from_folder) = task_check(&dir);
        assert_eq!(code, 0, "{from_pack}");
        assert_eq!(from_pack["passed"], from_folder["passed"], "{task}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_teachers_folder_with_its_own_code_and_traces_packs_and_passes() {
    // The counter task as a teacher would write it: the system in Python under code/, its
    // traces beside task.toml.
    let dir = scratch("teacher");
    copy_dir(&repo().join("tasks/counter"), &dir);
    for sub in ["src", "tests", "wrong"] {
        let _ = std::fs::remove_dir_all(dir.join(sub));
    }
    std::fs::remove_file(dir.join("Cargo.toml")).unwrap();
    copy_dir(&repo().join("traces/counter"), &dir.join("traces/counter"));
    std::fs::create_dir_all(dir.join("code")).unwrap();
    std::fs::write(dir.join("code/counter.py"), "import threading\n\nclass Counter:\n    def inc(self):\n        v = self.n\n        self.n = v + 1\n").unwrap();
    let file = dir.join("counter.sysmo");
    let (code, v) = task_pack(&dir, &file);
    assert_eq!(code, 0, "{v}");
    assert_eq!((v["pack"]["code"].as_u64(), v["pack"]["graph"].as_bool()), (Some(1), Some(true)), "{v}");
    let pack = sysmo_task_format::pack::Pack::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(pack.code.keys().collect::<Vec<_>>(), ["code/counter.py"]);
    let (code, v) = task_check(&file);
    assert_eq!(code, 0, "{v}");
    assert!(v["passed"].as_array().unwrap().iter().any(|p| p.as_str().unwrap().contains("grades 1.0 in every stage")), "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_pack_or_folder_says_what_is_wrong_and_packs_nothing() {
    let dir = scratch("broken-pack");
    let task = dir.join("locksvc");
    copy_dir(&repo().join("tasks/locksvc"), &task);
    for sub in ["src", "tests", "wrong"] {
        let _ = std::fs::remove_dir_all(task.join(sub));
    }
    copy_dir(&repo().join("traces/locksvc"), &task.join("traces/locksvc"));
    copy_dir(&repo().join("traces/locksvc-bug"), &task.join("traces/locksvc-bug"));
    // A missing file, and a trace folder with no trace.
    std::fs::remove_file(task.join("invariants.cfg")).unwrap();
    for f in std::fs::read_dir(task.join("traces/locksvc-bug")).unwrap() {
        std::fs::remove_file(f.unwrap().path()).unwrap();
    }
    let file = dir.join("locksvc.sysmo");
    let (code, v) = task_pack(&task, &file);
    assert_eq!(code, 1, "{v}");
    assert!(!file.exists() && v["pack"].is_null(), "{v}");
    let found = problems(&v);
    let toml = std::fs::read_to_string(task.join("task.toml")).unwrap();
    let bug_line = toml.lines().position(|l| l.contains("\"traces/locksvc-bug\"")).unwrap() as u64 + 1;
    assert_eq!(
        found,
        [
            ("invariants.cfg".to_string(), None, "missing: every task has it".to_string()),
            ("task.toml".to_string(), Some(bug_line), "the trace folder `traces/locksvc-bug` holds no trace (*.ndjson)".to_string()),
        ]
    );
    // A trace folder that is not there at all.
    std::fs::remove_dir_all(task.join("traces/locksvc-bug")).unwrap();
    let (_, v) = task_pack(&task, &file);
    assert!(problems(&v).iter().any(|(f, l, m)| f == "task.toml" && *l == Some(bug_line) && m.contains("neither beside task.toml nor at the repository root")), "{v}");
    assert_eq!(problems(&v).len(), 2, "{v}");
    // Files that are not packs.
    for (bytes, says) in [
        (b"\x1f\x8b\x08\x00broken".to_vec(), "does not unpack"),
        (b"{\"format\": \"sysmo-pack/9\", \"files\": {}, \"traces\": {}}".to_vec(), "this version reads `sysmo-pack/1`"),
        (b"{\"format\": \"sysmo-pack/1\", \"files\": {}, \"traces\": {}}".to_vec(), "the pack has no task.toml"),
        (b"hello".to_vec(), "not a task pack"),
    ] {
        std::fs::write(&file, &bytes).unwrap();
        let (code, v) = task_check(&file);
        assert_eq!(code, 1, "{v}");
        let found = problems(&v);
        assert!(found.len() == 1 && found[0].0 == file.display().to_string() && found[0].2.contains(says), "{says}: {found:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sample_courses_buffer_checks_packs_and_its_traces_are_its_programs() {
    let dir = repo().join("tasks/course/buffer");
    let (code, v) = task_check(&dir);
    assert_eq!(code, 0, "{v}");
    let passed: Vec<&str> = v["passed"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(
        passed,
        [
            "task.toml reads (task buffer, module buffer)",
            "10 trace(s) read, every pinned action occurs (3 bug trace(s))",
            "reference/buffer.tla grades 1.0 in every stage (no system graph: precision skipped)",
            "bug/buffer.tla is refuted: EveryGetTakesAnItem, ItemsConserved violated",
            "4 exercise(s): their expected outcomes hold",
        ]
    );
    let out = scratch("course");
    let file = out.join("buffer.sysmo");
    let (code, v) = task_pack(&dir, &file);
    assert_eq!(code, 0, "{v}");
    assert_eq!((v["pack"]["traces"].as_u64(), v["pack"]["code"].as_u64(), v["pack"]["graph"].as_bool()), (Some(13), Some(1), Some(false)), "{v}");
    assert_eq!(task_check(&file).1["passed"], v_passed(&passed));
    // Small enough for a link whose fragment carries it.
    let (code, v) = task("pack", &[dir.as_os_str(), "-o".as_ref(), file.as_os_str(), "--link".as_ref(), "http://127.0.0.1:8080/".as_ref()]);
    assert_eq!(code, 0, "{v}");
    let link = v["pack"]["link"].as_str().unwrap_or_else(|| panic!("{v}"));
    let fragment = link.strip_prefix("http://127.0.0.1:8080/").unwrap();
    let pack = sysmo_task_format::pack::Pack::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(sysmo_task_format::pack::Pack::from_fragment(fragment).unwrap(), pack);
    // The checked-in traces are what the course's program writes (Python 3, as on every
    // machine the suite runs on).
    for (folder, flag) in [("traces/buffer", None), ("traces/buffer-bug", Some("--bug"))] {
        let written = out.join(folder);
        std::fs::create_dir_all(&written).unwrap();
        let mut cmd = Command::new("python3");
        cmd.arg(dir.join("code/buffer.py")).arg(&written);
        if let Some(f) = flag {
            cmd.arg(f);
        }
        let status = cmd.status().expect("python3 runs the course's program");
        assert!(status.success());
        let names = |d: &Path| {
            let mut n: Vec<String> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
            n.sort();
            n
        };
        assert_eq!(names(&written), names(&dir.join(folder)), "{folder}");
        for n in names(&written) {
            assert_eq!(std::fs::read_to_string(written.join(&n)).unwrap(), std::fs::read_to_string(dir.join(folder).join(&n)).unwrap(), "{folder}/{n}");
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_sample_course_checks_and_packs_whole_with_the_tutorials_as_built_in() {
    use sysmo_task_format::course::Course;
    let dir = repo().join("tasks/course");
    let (code, v) = task_check(&dir);
    assert_eq!(code, 0, "{v}");
    let passed: Vec<&str> = v["passed"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    for (task, exercises) in [("../counter", 2), ("../hourclock", 2), ("../spin-split", 2), ("buffer", 4)] {
        assert!(passed.contains(&format!("{task}: {exercises} exercise(s): their expected outcomes hold").as_str()), "{task}: {passed:?}");
        assert!(passed.iter().any(|p| p.starts_with(&format!("{task}: reference/")) && p.contains("grades 1.0 in every stage")), "{task}: {passed:?}");
    }
    let out = scratch("whole-course");
    let file = out.join("course.sysmo");
    let (code, v) = task("pack", &[dir.as_os_str(), "-o".as_ref(), file.as_os_str(), "--link".as_ref(), "http://127.0.0.1:8080/".as_ref()]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["course"]["tasks"], serde_json::json!(["counter", "hourclock", "spin-split", "buffer"]), "{v}");
    let course = Course::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(course.title, "Modeling concurrent code");
    let link = v["course"]["link"].as_str().unwrap_or_else(|| panic!("{v}"));
    assert_eq!(Course::from_fragment(link.strip_prefix("http://127.0.0.1:8080/").unwrap()).unwrap(), course);
    // The tutorials travel whole and open as the built-in tasks; the buffer opens as a task of
    // its own.
    for pack in &course.packs {
        let opened = sysmo_tasks::open_pack(pack).unwrap();
        let built_in = sysmo_tasks::tasks().iter().find(|t| t.id == opened.id);
        assert_eq!(built_in.is_some(), opened.id != "buffer", "{}", opened.id);
        assert!(built_in.is_none_or(|b| std::ptr::eq(b, opened)), "{}", opened.id);
    }
    // The course file checks as its folder does, by task id.
    let (code, v) = task_check(&file);
    assert_eq!(code, 0, "{v}");
    assert!(v["passed"].as_array().unwrap().iter().any(|p| p == "spin-split: 2 exercise(s): their expected outcomes hold"), "{v}");
    // A course that names a folder that is not there, or no task, says so and writes nothing.
    let broken = out.join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("course.toml"), "title = \"B\"\ntasks = [\"nowhere\"]\n").unwrap();
    let (code, v) = task("pack", &[broken.as_os_str(), "-o".as_ref(), out.join("b.sysmo").as_os_str()]);
    assert_eq!(code, 1, "{v}");
    let p = problems(&v);
    assert_eq!((p.len(), p[0].0.as_str()), (1, "nowhere/task.toml"), "{v}");
    assert!(p[0].2.starts_with("no task.toml in"), "{v}");
    assert!(!out.join("b.sysmo").exists());
    std::fs::write(broken.join("course.toml"), "title = \"B\"\ntasks = []\n").unwrap();
    assert_eq!(problems(&task_check(&broken).1), [("course.toml".to_string(), None, "`tasks` names no task folder".to_string())]);
    std::fs::remove_dir_all(&out).unwrap();
}

fn v_passed(passed: &[&str]) -> Value {
    Value::Array(passed.iter().map(|p| Value::String(p.to_string())).collect())
}

/// `sysmo exercise TASK ID ANSWER --json`: exit code and verdict.
fn exercise(task: &Path, id: &str, answer: &Path) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_sysmo")).arg("exercise").arg(task).arg(id).arg(answer).arg("--json").output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {} {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), v)
}

#[test]
fn each_exercise_kind_of_the_course_is_solved_and_failed_with_its_hint() {
    let dir = repo().join("tasks/course/buffer");
    let out = scratch("exercises");
    let write = |name: &str, text: &str| {
        let p = out.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let (reference, bug, starter) = (dir.join("reference/buffer.tla"), dir.join("bug/buffer.tla"), dir.join("exercises/buffer.tla"));
    let good = write("good.tla", "NoEmptyGet == \\A t \\in Consumers : got[t] # -1\n");
    let weak = write("weak.tla", "NoEmptyGet == TRUE\n");
    let strict = write("strict.tla", "NoEmptyGet == \\A t \\in Consumers : got[t] = 0\n");
    let unnamed = write("unnamed.tla", "Other == TRUE\n");
    let cases: [(&str, &Path, bool, &str, Option<&str>); 10] = [
        ("model", &reference, true, "grades 1.0 in every stage", None),
        ("model", &starter, false, "the conformance stage scores 0.7500", Some("who does a put or a get wake?")),
        ("find-the-bug", &bug, true, "EveryGetTakesAnItem refutes the model of the buggy code", None),
        ("find-the-bug", &reference, false, "must conform to the buggy code's traces first", Some("what does a woken consumer do")),
        ("write-the-invariant", &good, true, "every bug model violates it (1 of 1)", None),
        ("write-the-invariant", &weak, false, "bug/buffer.tla satisfies it too", Some("What does got[t] hold")),
        ("write-the-invariant", &strict, false, "violated by the reference model", Some("What does got[t] hold")),
        ("write-the-invariant", &unnamed, false, "must define NoEmptyGet", Some("What does got[t] hold")),
        ("fix-the-model", &starter, false, "the conformance stage scores 0.7500", Some("which thread was waiting")),
        ("fix-the-model", &reference, true, "grades 1.0 in every stage", None),
    ];
    for (id, answer, solved, why, hint) in cases {
        let (code, v) = exercise(&dir, id, answer);
        assert_eq!((code, v["solved"].as_bool()), (if solved { 0 } else { 1 }, Some(solved)), "{id} {}: {v}", answer.display());
        assert!(v["why"].as_str().unwrap().contains(why), "{id}: {v}");
        assert_eq!(v["hint"].as_str().map(|h| hint.is_some_and(|w| h.contains(w))), hint.map(|_| true), "{id}: {v}");
    }
    // An unknown exercise, and a broken exercise the task check finds.
    let out2 = Command::new(env!("CARGO_BIN_EXE_sysmo")).arg("exercise").arg(&dir).arg("nope").arg(&reference).output().unwrap();
    assert_eq!(out2.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out2.stderr).contains("no exercise `nope` (exercises: model, find-the-bug, write-the-invariant, fix-the-model)"));
    let copy = out.join("buffer");
    copy_dir(&dir, &copy);
    let toml = std::fs::read_to_string(copy.join("task.toml")).unwrap().replace("starter = \"exercises/buffer.tla\"", "starter = \"reference/buffer.tla\"");
    std::fs::write(copy.join("task.toml"), &toml).unwrap();
    let (code, v) = task_check(&copy);
    let line = toml.lines().position(|l| l.contains("id = \"fix-the-model\"")).unwrap() as u64 + 1;
    assert_eq!(code, 1);
    assert_eq!(problems(&v), [("task.toml".to_string(), Some(line), "exercise `fix-the-model`: the starter reference/buffer.tla already solves it".to_string())]);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn results_files_are_graded_again_and_each_claim_is_checked() {
    let out = scratch("results");
    let course = repo().join("tasks/course/buffer");
    let pack_file = out.join("buffer.sysmo");
    assert_eq!(task_pack(&course, &pack_file).0, 0);
    let pack = sysmo_task_format::pack::Pack::from_bytes(&std::fs::read(&pack_file).unwrap()).unwrap();
    let read = |p: &str| std::fs::read_to_string(p).unwrap();
    let spin = read(repo().join("tasks/spin/reference/spin.tla").to_str().unwrap());
    let bug = read(course.join("bug/buffer.tla").to_str().unwrap());
    let results = serde_json::json!({ "format": "sysmo-results/1", "attempts": [
        { "task": "spin", "model": spin, "overall": 1.0, "hints": 0, "time": 1.0 },
        { "task": "spin", "exercise": null, "model": "---- MODULE spin ----\n====\n", "overall": 1.0, "hints": 0, "time": 2.0 },
        { "task": "buffer", "pack": pack.content_hash(), "exercise": "find-the-bug", "model": bug, "overall": 0.9, "solved": true, "hints": 2, "time": 3.0 },
        { "task": "buffer", "pack": "0000000000000000", "exercise": "model", "model": bug, "solved": true, "hints": 0, "time": 4.0 },
    ]});
    let file = out.join("class.json");
    std::fs::write(&file, results.to_string()).unwrap();
    let csv = out.join("grades.csv");
    let o = Command::new(env!("CARGO_BIN_EXE_sysmo")).args(["grade", "--results"]).arg(&file).arg("--pack").arg(&pack_file).arg("--csv").arg(&csv).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0].join(","), "file,task,exercise,hints,claimed_overall,claimed_solved,overall,combined,solved,claim_holds,error");
    let f = file.display().to_string();
    // The reference's claim holds; an empty module's claim of 1.0 does not.
    assert_eq!(rows[1][..10], [f.as_str(), "spin", "", "0", "1", "", "1", "1", "", "true"]);
    assert_eq!((rows[2][1], rows[2][4], rows[2][9]), ("spin", "1", "false"));
    // The pack's exercise is judged again: solved, graded against the bug traces as claimed.
    assert_eq!((rows[3][1], rows[3][2], rows[3][3], rows[3][8]), ("buffer", "find-the-bug", "2", "true"));
    assert_eq!((rows[3][6], rows[3][9]), ("0.9", "true"), "syntax, runtime, conformance 1 and invariants 3 of 5: {text}");
    // A pack not given: the row says so.
    assert!(rows[4][10].contains("the attempt is on the task pack 0000000000000000: give it with --pack"), "{text}");
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim(), "4 attempt(s) graded again; 2 claim(s) hold");
    std::fs::remove_dir_all(&out).unwrap();
}
