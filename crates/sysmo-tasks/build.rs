//! Embeds every task folder (`tasks/<id>/` with a `task.toml`) and the traces its `task.toml`
//! names, so the tasks need no file system at run time (the web app, a `sysmo` run from any
//! directory). Which files are a task's, and which code it shows, is
//! `sysmo_task_format::folder`'s reading, the one `sysmo task check` and `sysmo task pack` use.
//! The generated table is sorted, so the binary is the same on every build.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use sysmo_task_format::folder;

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
    let mut code = format!("/// Every task, sorted by id.\npub static TASKS: [TaskFiles; {}] = [\n", ids.len());
    for dir in &ids {
        let id = dir.file_name().and_then(|n| n.to_str()).expect("task folder name");
        let (listing, problems) = folder::list(dir).unwrap_or_else(|p| panic!("tasks/{id}: {}", p.text()));
        if let Some(p) = problems.first() {
            panic!("tasks/{id}: {}", p.text());
        }
        // A path that does not exist would make Cargo run this script on every build; the task
        // folder's own line covers a sub-folder created later.
        for f in &listing.folders {
            println!("cargo:rerun-if-changed={}", f.display());
        }
        for (_, p) in &listing.code {
            println!("cargo:rerun-if-changed={}", p.display());
        }
        let _ = writeln!(code, "    TaskFiles {{\n        id: {},\n        graph_text: OnceLock::new(),\n        pack: None,\n        pack_hash: None,", literal(id));
        match &listing.graph {
            Some(p) => {
                let _ = writeln!(code, "        graph: Some(include_bytes!({})),", literal(&p.display().to_string()));
            }
            None => code.push_str("        graph: None,\n"),
        }
        for (field, list) in [("files", &listing.files), ("traces", &listing.traces), ("bug_traces", &listing.bug_traces), ("code", &listing.code)] {
            let _ = writeln!(code, "        {field}: &[");
            for (name, p) in list {
                let _ = writeln!(code, "            ({}, include_str!({})),", literal(name), literal(&p.display().to_string()));
            }
            code.push_str("        ],\n");
        }
        code.push_str("    },\n");
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("tasks.rs");
    fs::write(out, code).expect("write tasks.rs");
}
