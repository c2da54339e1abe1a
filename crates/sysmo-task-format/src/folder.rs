//! Reading a task folder from disk (feature `folder`): which of its files are the task's, where
//! its traces are, and which code the task shows. One reading for the three that need it:
//! `sysmo-tasks`' build script (which embeds the built-in tasks), `sysmo task check` and
//! `sysmo task pack` (which make a [`Pack`] of it).
//!
//! - The task's files: [`TOP_FILES`], `<Module>Invariants.tla`, and every file of [`SUB_DIRS`].
//! - Its traces: the `*.ndjson` files of each folder task.toml's `traces` and `bug_traces`
//!   name, found beside task.toml or, as the built-in tasks keep them, from the repository root
//!   two folders up; the system graph ([`GRAPH_FILE`]) in the first of `traces`.
//! - Its code: the files of a `code/` folder beside task.toml, in any language (a task a
//!   teacher writes); else, for a task whose system is a crate of this repository, the `.rs`
//!   files of the folder the first trace's header names as its `source` but `workload.rs` (the
//!   harness that runs and records), with the simulated network's own files for a crate that
//!   runs on it.

use crate::layout::{GRAPH_FILE, INVARIANTS_SUFFIX, SUB_DIRS, TOP_FILES};
use crate::pack::Pack;
use crate::{Problem, TaskToml};
use std::fs;
use std::path::{Path, PathBuf};

/// The files of the simulated network (`tasks/simnet`) that are part of a distributed system's
/// behaviour: how messages travel (the delivery orders, loss, crashes) and its timers. Its
/// driver (`sim.rs`, `rng.rs`) picks the schedule, as a task's `workload.rs` does, and is not
/// shown.
pub const SIMNET_CODE: &[&str] = &["tasks/simnet/src/network.rs", "tasks/simnet/src/timer.rs"];

/// A task folder's files, by the name each has in the task (a [`Pack`]'s keys) and where it is.
#[derive(Clone, Debug)]
pub struct Listing {
    pub task: TaskToml,
    /// task.toml's text.
    pub task_toml: String,
    pub files: Vec<(String, PathBuf)>,
    /// The traces of task.toml's `traces`, then of its `bug_traces`, each folder's sorted.
    pub traces: Vec<(String, PathBuf)>,
    pub bug_traces: Vec<(String, PathBuf)>,
    /// The system graph, gzipped.
    pub graph: Option<PathBuf>,
    pub code: Vec<(String, PathBuf)>,
    /// Every folder read, for a build script's `rerun-if-changed`.
    pub folders: Vec<PathBuf>,
}

/// The files of `dir`, sorted.
fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => vec![],
    };
    out.sort();
    out
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The line (from 1) of the first line of `text` that contains `needle`.
pub fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

/// The line a TOML error message names (`... at line 3, column 5`).
fn toml_error_line(message: &str) -> Option<usize> {
    let rest = message.split("line ").nth(1)?;
    rest.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

/// Where a trace folder named in task.toml is: beside task.toml, or from the repository root
/// two folders up (`tasks/<id>/` and `traces/<id>/`).
fn trace_folder(dir: &Path, name: &str) -> Option<PathBuf> {
    [dir.join(name), dir.join("../..").join(name)].into_iter().find(|p| p.is_dir()).map(|p| fs::canonicalize(&p).unwrap_or(p))
}

/// Lists the task folder `dir`. A folder without a task.toml that reads is an error; a trace
/// folder task.toml names but that is not there is a problem beside the listing.
pub fn list(dir: &Path) -> Result<(Listing, Vec<Problem>), Problem> {
    let task_toml = fs::read_to_string(dir.join("task.toml"))
        .map_err(|e| Problem::new("task.toml", None, format!("no task.toml in {} ({e})", dir.display())))?;
    let task = TaskToml::parse(&task_toml).map_err(|e| Problem::new("task.toml", toml_error_line(&e), e))?;
    let mut problems = vec![];
    let mut l = Listing { task, task_toml, files: vec![], traces: vec![], bug_traces: vec![], graph: None, code: vec![], folders: vec![dir.to_path_buf()] };
    for name in TOP_FILES {
        let p = dir.join(name);
        if p.is_file() {
            l.files.push((name.to_string(), p));
        }
    }
    for p in sorted_files(dir) {
        if file_name(&p).ends_with(INVARIANTS_SUFFIX) {
            l.files.push((file_name(&p), p));
        }
    }
    for sub in SUB_DIRS {
        if dir.join(sub).is_dir() {
            l.folders.push(dir.join(sub));
        }
        for p in sorted_files(&dir.join(sub)) {
            l.files.push((format!("{sub}/{}", file_name(&p)), p));
        }
    }
    l.files.sort();
    for (names, out) in [(l.task.traces.clone(), &mut l.traces), (l.task.bug_traces.clone(), &mut l.bug_traces)] {
        for name in names {
            let Some(folder) = trace_folder(dir, &name) else {
                problems.push(Problem::new(
                    "task.toml",
                    line_of(&l.task_toml, &format!("\"{name}\"")),
                    format!("the trace folder `{name}` is neither beside task.toml nor at the repository root"),
                ));
                continue;
            };
            for p in sorted_files(&folder) {
                let n = file_name(&p);
                if n.ends_with(".ndjson") {
                    out.push((format!("{name}/{n}"), p));
                } else if n == GRAPH_FILE && l.graph.is_none() && l.task.traces.first() == Some(&name) {
                    l.graph = Some(p);
                }
            }
            l.folders.push(folder);
        }
    }
    l.code = code_files(dir, l.traces.first().map(|(_, p)| p.as_path()), &mut l.folders);
    Ok((l, problems))
}

/// The code a task shows (see the module's docs), as (path, where it is).
fn code_files(dir: &Path, first_trace: Option<&Path>, folders: &mut Vec<PathBuf>) -> Vec<(String, PathBuf)> {
    let own = dir.join("code");
    if own.is_dir() {
        folders.push(own.clone());
        return sorted_files(&own).into_iter().map(|p| (format!("code/{}", file_name(&p)), p)).collect();
    }
    let header = first_trace.and_then(|p| fs::read_to_string(p).ok()).and_then(|t| t.lines().next().map(str::to_string)).unwrap_or_default();
    let Some(source) = header.split("\"source\":\"").nth(1).and_then(|r| r.split(['@', '"']).next()) else {
        return vec![];
    };
    let Some((folder, _)) = source.rsplit_once('/') else { return vec![] };
    let root = fs::canonicalize(dir.join("../..")).unwrap_or_else(|_| dir.join("../.."));
    let src = root.join(folder);
    if !src.is_dir() {
        return vec![];
    }
    folders.push(src.clone());
    let mut files: Vec<(String, PathBuf)> = sorted_files(&src)
        .into_iter()
        .filter(|p| {
            let n = file_name(p);
            n.ends_with(".rs") && n != "workload.rs"
        })
        .map(|p| (format!("{folder}/{}", file_name(&p)), p))
        .collect();
    let manifest = src.parent().map(|crate_dir| crate_dir.join("Cargo.toml"));
    let on_simnet = manifest.and_then(|m| fs::read_to_string(m).ok()).is_some_and(|m| m.lines().any(|l| l.trim_start().starts_with("simnet")));
    if on_simnet {
        for f in SIMNET_CODE {
            files.push((f.to_string(), root.join(f)));
        }
    }
    files
}

impl Listing {
    /// The listed files read into a pack; a file that cannot be read as UTF-8 text is a problem.
    pub fn read(&self) -> (Pack, Vec<Problem>) {
        let mut pack = Pack::new();
        let mut problems = vec![];
        let mut text = |name: &str, p: &Path| match fs::read_to_string(p) {
            Ok(t) => Some(t),
            Err(e) => {
                problems.push(Problem::new(name, None, format!("cannot be read as UTF-8 text: {e}")));
                None
            }
        };
        for (name, p) in &self.files {
            if let Some(t) = text(name, p) {
                pack.files.insert(name.clone(), t);
            }
        }
        for (name, p) in self.traces.iter().chain(&self.bug_traces) {
            if let Some(t) = text(name, p) {
                pack.traces.insert(name.clone(), t);
            }
        }
        for (name, p) in &self.code {
            if let Some(t) = text(name, p) {
                pack.code.insert(name.clone(), t);
            }
        }
        if let Some(p) = &self.graph {
            use std::io::Read as _;
            let mut s = String::new();
            let name = self.task.traces.first().map(|t| format!("{t}/{GRAPH_FILE}")).unwrap_or_default();
            match fs::read(p).map_err(|e| e.to_string()).and_then(|b| flate2::read::GzDecoder::new(&b[..]).read_to_string(&mut s).map_err(|e| e.to_string())) {
                Ok(_) => pack.graph = Some(s),
                Err(e) => problems.push(Problem::new(name, None, format!("the system graph does not unpack (gzip): {e}"))),
            }
        }
        (pack, problems)
    }
}

/// Reads the task folder `dir` into a pack: [`list`], then [`Listing::read`].
pub fn read(dir: &Path) -> Result<(Pack, Vec<Problem>), Problem> {
    let (listing, mut problems) = list(dir)?;
    let (pack, more) = listing.read();
    problems.extend(more);
    Ok((pack, problems))
}
