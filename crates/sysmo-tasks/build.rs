//! Embeds every task folder (`tasks/<id>/` with a `task.toml`) and the traces its `task.toml`
//! names, so the tasks need no file system at run time (the web app, a `sysmo` run from any
//! directory). The generated table is sorted, so the binary is the same on every build.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// Which files of a task folder are the task's (shared with `sysmo task check`).
#[path = "../sysmo-task-format/src/layout.rs"]
#[allow(dead_code)]
mod layout;
use layout::{GRAPH_FILE, INVARIANTS_SUFFIX, SUB_DIRS, TOP_FILES};

/// The files of the simulated network (`tasks/simnet`) that are part of a distributed system's
/// behaviour: how messages travel (the delivery orders, loss, crashes) and its timers. Its
/// driver (`sim.rs`, `rng.rs`) picks the schedule, as a task's `workload.rs` does, and is not
/// shown.
const SIMNET_CODE: &[&str] = &["tasks/simnet/src/network.rs", "tasks/simnet/src/timer.rs"];

/// The system's code that produced a task's traces: the folder of the `source` in the first
/// trace's header (`"source":"tasks/spin/src/lib.rs@…"`), its `.rs` files but `workload.rs` (the
/// harness that runs and records), and, for a task whose crate runs on the simulated network,
/// [`SIMNET_CODE`], as (path from the repository root, file).
fn code_files(root: &Path, first_trace: &Path) -> Vec<(String, PathBuf)> {
    let text = fs::read_to_string(first_trace).unwrap_or_default();
    let header = text.lines().next().unwrap_or("");
    let Some(source) = header.split("\"source\":\"").nth(1).and_then(|r| r.split(['@', '"']).next()) else {
        return vec![];
    };
    let Some((folder, _)) = source.rsplit_once('/') else { return vec![] };
    println!("cargo:rerun-if-changed={}", root.join(folder).display());
    let mut files: Vec<(String, PathBuf)> = sorted_files(&root.join(folder))
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            (name.ends_with(".rs") && name != "workload.rs").then(|| (format!("{folder}/{name}"), p))
        })
        .collect();
    let manifest = root.join(folder).parent().map(|crate_dir| crate_dir.join("Cargo.toml"));
    let on_simnet = manifest.and_then(|m| fs::read_to_string(m).ok()).is_some_and(|m| m.lines().any(|l| l.trim_start().starts_with("simnet")));
    if on_simnet {
        for f in SIMNET_CODE {
            println!("cargo:rerun-if-changed={}", root.join(f).display());
            files.push((f.to_string(), root.join(f)));
        }
    }
    files
}

fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => vec![],
    };
    out.sort();
    out
}

/// The `traces = ["traces/x", ...]` entry of a task.toml (a plain reading of one line).
fn trace_dirs(task_toml: &str) -> Vec<String> {
    for line in task_toml.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("traces") {
            let rest = rest.trim_start();
            if let Some(list) = rest.strip_prefix('=') {
                return list.split('"').skip(1).step_by(2).map(str::to_string).collect();
            }
        }
    }
    vec![]
}

fn literal(s: &str) -> String {
    format!("{s:?}")
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..").canonicalize().expect("workspace root");
    let tasks_dir = root.join("tasks");
    println!("cargo:rerun-if-changed={}", tasks_dir.display());
    let mut ids: Vec<PathBuf> = fs::read_dir(&tasks_dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.join("task.toml").is_file()).collect())
        .unwrap_or_default();
    ids.sort();
    let mut code = String::from("/// Every task, sorted by id.\npub static TASKS: &[TaskFiles] = &[\n");
    for dir in &ids {
        let id = dir.file_name().and_then(|n| n.to_str()).expect("task folder name");
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<(String, PathBuf)> = vec![];
        for name in TOP_FILES {
            let p = dir.join(name);
            if p.is_file() {
                files.push((name.to_string(), p));
            }
        }
        for p in sorted_files(dir) {
            let name = p.file_name().and_then(|n| n.to_str()).expect("file name");
            if name.ends_with(INVARIANTS_SUFFIX) {
                files.push((name.to_string(), p));
            }
        }
        for sub in SUB_DIRS {
            // A path that does not exist would make Cargo run this script on every build; the
            // task folder's own line above covers a sub-folder created later.
            if dir.join(sub).is_dir() {
                println!("cargo:rerun-if-changed={}", dir.join(sub).display());
            }
            for p in sorted_files(&dir.join(sub)) {
                let name = p.file_name().and_then(|n| n.to_str()).expect("file name");
                files.push((format!("{sub}/{name}"), p));
            }
        }
        files.sort();
        let toml_text = fs::read_to_string(dir.join("task.toml")).expect("task.toml");
        let mut traces: Vec<(String, PathBuf)> = vec![];
        for t in trace_dirs(&toml_text) {
            let tdir = root.join(&t);
            println!("cargo:rerun-if-changed={}", tdir.display());
            for p in sorted_files(&tdir) {
                if p.extension().and_then(|e| e.to_str()) == Some("ndjson") {
                    let name = p.file_name().and_then(|n| n.to_str()).expect("file name");
                    traces.push((format!("{t}/{name}"), p));
                }
            }
        }
        let graph = trace_dirs(&toml_text).first().map(|t| root.join(t).join(GRAPH_FILE)).filter(|p| p.is_file());
        let _ = writeln!(code, "    TaskFiles {{\n        id: {},", literal(id));
        match &graph {
            Some(p) => {
                let _ = writeln!(code, "        graph: Some(include_bytes!({})),", literal(&p.display().to_string()));
            }
            None => code.push_str("        graph: None,\n"),
        }
        code.push_str("        files: &[\n");
        for (name, p) in &files {
            let _ = writeln!(code, "            ({}, include_str!({})),", literal(name), literal(&p.display().to_string()));
        }
        code.push_str("        ],\n        traces: &[\n");
        for (name, p) in &traces {
            let _ = writeln!(code, "            ({}, include_str!({})),", literal(name), literal(&p.display().to_string()));
        }
        code.push_str("        ],\n        code: &[\n");
        for (name, p) in traces.first().map(|(_, p)| code_files(&root, p)).unwrap_or_default() {
            let _ = writeln!(code, "            ({}, include_str!({})),", literal(&name), literal(&p.display().to_string()));
        }
        code.push_str("        ],\n    },\n");
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("tasks.rs");
    fs::write(out, code).expect("write tasks.rs");
}
