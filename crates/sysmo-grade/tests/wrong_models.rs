//! The wrong-model suite: every `tasks/<id>/wrong/<case>/` folder holds a model
//! (`<module>.tla`, optionally `<module>.cfg` and `mapping.json`) and `expect.toml`, what the
//! grader must say about it stage by stage (format in docs/grade-report.md). Each folder is
//! graded and compared; every mismatch is printed with its folder. One test per task; a test
//! checks that every task with wrong models has one.

use std::path::{Path, PathBuf};
use sysmo_grade::report::Report;
use sysmo_grade::{grade, ModelInput, TaskInput, TaskSpec};
use toml::{Table, Value};

const TOLERANCE: f64 = 1e-4;

fn cases(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = vec![];
    let Ok(tasks) = std::fs::read_dir(root.join("tasks")) else { return out };
    let mut tasks: Vec<PathBuf> = tasks.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    tasks.sort();
    for t in tasks {
        let Ok(wrong) = std::fs::read_dir(t.join("wrong")) else { continue };
        let mut dirs: Vec<PathBuf> = wrong.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.join("expect.toml").is_file()).collect();
        dirs.sort();
        let id = t.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        out.extend(dirs.into_iter().map(|d| (id.clone(), d)));
    }
    out
}

fn num(v: &Value) -> Option<f64> {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
}

/// Compare one stage table (or `overall`) of expect.toml with the report.
fn compare_stage(stage: &str, exp: &Table, score: f64, status: Option<&str>, report: &Report, out: &mut Vec<String>) {
    for (k, v) in exp {
        match k.as_str() {
            "score" => match num(v) {
                Some(x) if (x - score).abs() <= TOLERANCE => {}
                Some(x) => out.push(format!("{stage}.score: expected {x}, got {score}")),
                None => out.push(format!("{stage}.score: not a number")),
            },
            "min" => match num(v) {
                Some(x) if score >= x - TOLERANCE => {}
                Some(x) => out.push(format!("{stage}: expected at least {x}, got {score}")),
                None => out.push(format!("{stage}.min: not a number")),
            },
            "max" => match num(v) {
                Some(x) if score <= x + TOLERANCE => {}
                Some(x) => out.push(format!("{stage}: expected at most {x}, got {score}")),
                None => out.push(format!("{stage}.max: not a number")),
            },
            "status" => {
                let want = v.as_str().unwrap_or("?");
                if status != Some(want) {
                    out.push(format!("{stage}.status: expected {want}, got {}", status.unwrap_or("none")));
                }
            }
            "gate" if stage == "runtime" => {
                let got = report.stages.runtime.gate.as_ref().map(|g| g.passed);
                if got != v.as_bool() {
                    let why = report.stages.runtime.gate.as_ref().and_then(|g| g.message.clone()).unwrap_or_default();
                    out.push(format!("runtime.gate: expected {:?}, got {got:?} {why}", v.as_bool()));
                }
            }
            "failed" if stage == "invariants" => {
                let mut want: Vec<String> = v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default();
                let mut got: Vec<String> =
                    report.stages.invariants.invariants.iter().filter(|i| i.verdict != "pass").map(|i| i.name.clone()).collect();
                want.sort();
                got.sort();
                if want != got {
                    let details: Vec<String> = report
                        .stages
                        .invariants
                        .invariants
                        .iter()
                        .filter(|i| i.verdict != "pass")
                        .map(|i| format!("{}: {} {}", i.name, i.result, i.message.clone().unwrap_or_default()))
                        .collect();
                    out.push(format!("invariants.failed: expected {want:?}, got {got:?} [{}]", details.join("; ")));
                }
            }
            "steps" if stage == "precision" => {
                // Each listed step (`LockSpin(t=0)`) is among the over-permissive steps reported.
                let got: Vec<&str> = report.stages.precision.steps.iter().map(|o| o.step.as_str()).collect();
                for want in v.as_array().into_iter().flatten().filter_map(|x| x.as_str()) {
                    if !got.contains(&want) {
                        out.push(format!("precision.steps: expected {want} among {got:?}"));
                    }
                }
            }
            other => out.push(format!("{stage}: unknown key {other}")),
        }
    }
}

fn check_case(id: &str, dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let Some(task) = sysmo_tasks::task(id) else { return vec![format!("no task {id}")] };
    let spec = TaskSpec::parse(task.task_toml()).expect("task.toml");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let Some(expect_text) = read("expect.toml") else { return vec!["expect.toml unreadable".into()] };
    let expect: Table = match toml::from_str(&expect_text) {
        Ok(t) => t,
        Err(e) => return vec![format!("expect.toml: {e}")],
    };
    if !expect.contains_key("what") {
        out.push("expect.toml has no `what`".into());
    }
    let Some(tla) = read(&format!("{}.tla", spec.module)) else { return vec![format!("no {}.tla", spec.module)] };
    let cfg = read(&format!("{}.cfg", spec.module));
    let mapping = read("mapping.json");
    let name = dir.display().to_string();
    let input = TaskInput::from_folder(task.files, task.traces).with_system_graph(task.system_graph());
    let r = grade(&input, &ModelInput { name: &name, text: &tla, cfg: cfg.as_deref(), mapping: mapping.as_deref() }, &|| false);
    let st = &r.stages;
    for (k, v) in &expect {
        let Some(t) = v.as_table() else {
            if k != "what" {
                out.push(format!("{k}: not a table"));
            }
            continue;
        };
        match k.as_str() {
            "overall" => compare_stage("overall", t, r.overall, None, &r, &mut out),
            "syntax" => compare_stage(k, t, st.syntax.score, Some(st.syntax.status.as_str()), &r, &mut out),
            "runtime" => compare_stage(k, t, st.runtime.score, Some(st.runtime.status.as_str()), &r, &mut out),
            "conformance" => compare_stage(k, t, st.conformance.score, Some(st.conformance.status.as_str()), &r, &mut out),
            "invariants" => compare_stage(k, t, st.invariants.score, Some(st.invariants.status.as_str()), &r, &mut out),
            "precision" => compare_stage(k, t, st.precision.score, Some(st.precision.status.as_str()), &r, &mut out),
            "combined" => match r.combined {
                Some(c) => compare_stage("combined", t, c, None, &r, &mut out),
                None => out.push("combined: the report has none (the task has no system graph)".into()),
            },
            other => out.push(format!("unknown table {other}")),
        }
    }
    if !out.is_empty() {
        out.push(format!("report:\n{}", r.to_text()));
    }
    out
}

/// Grades every wrong model of one task and fails with every mismatch. `WRONG_CASE=text` keeps
/// only the folders whose path contains it.
fn check_task(task: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let filter = std::env::var("WRONG_CASE").unwrap_or_default();
    let all: Vec<_> = cases(&root).into_iter().filter(|(id, d)| id == task && d.display().to_string().contains(&filter)).collect();
    let mut failed = 0;
    for (id, dir) in &all {
        let m = check_case(id, dir);
        let rel = dir.strip_prefix(&root).unwrap_or(dir).display().to_string();
        if m.is_empty() {
            println!("ok       {rel}");
        } else {
            failed += 1;
            println!("MISMATCH {rel}");
            for line in &m {
                println!("    {}", line.replace('\n', "\n    "));
            }
        }
    }
    println!("{} wrong models, {} as expected, {} mismatched", all.len(), all.len() - failed, failed);
    assert_eq!(failed, 0, "{failed} wrong model(s) do not get the expected grades (see the output above)");
}

/// One test per task, so that the test runner spreads them over its workers.
macro_rules! wrong_models_of {
    ($($name:ident => $id:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_task($id);
            }
        )*
        /// Every task with wrong models has its test above.
        #[test]
        fn every_task_with_wrong_models_has_its_test() {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
            let mut listed = vec![$($id),*];
            listed.sort();
            let mut found: Vec<String> = cases(&root).into_iter().map(|(id, _)| id).collect();
            found.dedup();
            assert_eq!(found, listed, "add the task to `wrong_models_of!` in this file");
        }
    };
}

wrong_models_of! {
    wrong_models_of_counter => "counter",
    wrong_models_of_curp => "curp",
    wrong_models_of_redisraft => "redisraft",
    wrong_models_of_zookeeper => "zookeeper",
    wrong_models_of_dqueue => "dqueue",
    wrong_models_of_etcd => "etcd",
    wrong_models_of_hourclock => "hourclock",
    wrong_models_of_locksvc => "locksvc",
    wrong_models_of_mutex => "mutex",
    wrong_models_of_raftkvs => "raftkvs",
    wrong_models_of_ringbuffer => "ringbuffer",
    wrong_models_of_rwmutex => "rwmutex",
    wrong_models_of_spin => "spin",
    wrong_models_of_spin_split => "spin-split",
}
