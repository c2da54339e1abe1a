//! `sysmo task check DIR [--json]`: validates a task folder, a built-in one (`tasks/<id>`) or
//! one a teacher wrote, before it is used:
//!
//! - `task.toml` reads with the one schema (`sysmo_task_format::TaskToml`);
//! - the files the task needs are there: `<Module>Invariants.tla`, `invariants.cfg`,
//!   `reference/<Module>.tla`;
//! - every trace folder `task.toml` names is found (beside `task.toml`, or from the repository
//!   root two folders up, as the built-in tasks keep them) and every line of every trace reads:
//!   a JSON object, a header of this task first, steps whose action is pinned;
//! - every pinned action occurs in the traces;
//! - the reference model grades 1.0 in every stage that runs (with the folder's system graph
//!   when one is there);
//! - the bug model, if any (`bug/<Module>.tla`), is refuted: the grader's invariants stage finds
//!   a property it violates, within `[check] bug_max_states` when task.toml sets it (else the
//!   task's budget), with `[check] bug_cfg` when set (else `bug/<Module>.cfg`).
//!
//! Every problem names its file and, where there is one, its line. The files are read the way
//! the built-in tasks are embedded (`sysmo-tasks`' build script): the same names, so a folder
//! that passes here grades the same once built in.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use sysmo_grade::report::Status;
use sysmo_grade::{ModelInput, TaskInput, grade};

use sysmo_task_format::layout::{GRAPH_FILE, INVARIANTS_SUFFIX, SUB_DIRS, TOP_FILES};

/// One problem: the file (relative to the folder checked, or a trace's path), the line (from
/// 1) when the problem has one, and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl Problem {
    fn new(file: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Problem {
        Problem { file: file.into(), line, message: message.into() }
    }

    fn text(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}: {}", self.file, self.message),
            None => format!("{}: {}", self.file, self.message),
        }
    }
}

/// What a check found: its problems, and a line for each part that passed.
#[derive(Debug, Default)]
pub struct Outcome {
    pub problems: Vec<Problem>,
    pub passed: Vec<String>,
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut json_out = false;
    let mut dir = None;
    for a in args {
        match a.as_str() {
            "--json" => json_out = true,
            x if x.starts_with("--") => return Err(format!("unknown option `{x}` for `sysmo task check`")),
            x if dir.is_none() => dir = Some(PathBuf::from(x)),
            x => return Err(format!("`sysmo task check` takes one folder, not also `{x}`")),
        }
    }
    let dir = dir.ok_or("`sysmo task check` needs the task's folder")?;
    let out = check_dir(&dir);
    if json_out {
        let problems: Vec<Value> = out.problems.iter().map(|p| json!({ "file": p.file, "line": p.line, "message": p.message })).collect();
        println!("{}", json!({ "folder": dir.display().to_string(), "ok": out.problems.is_empty(), "problems": problems, "passed": out.passed }));
    } else {
        for p in &out.passed {
            println!("ok    {p}");
        }
        for p in &out.problems {
            println!("error {}", p.text());
        }
        println!("{}: {} problem(s)", dir.display(), out.problems.len());
    }
    Ok(if out.problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The line (from 1) of the first line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

/// The line a TOML error message names (`... at line 3, column 5`).
fn toml_error_line(message: &str) -> Option<usize> {
    let rest = message.split("line ").nth(1)?;
    rest.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// The task's files as the built-in tasks embed them: (path in the folder, text), sorted.
fn task_files(dir: &Path) -> Vec<(String, String)> {
    let mut files = vec![];
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    names.sort();
    for p in names {
        let Some(name) = p.file_name().and_then(|n| n.to_str()).map(str::to_string) else { continue };
        if p.is_file() && (TOP_FILES.contains(&name.as_str()) || name.ends_with(INVARIANTS_SUFFIX)) {
            if let Some(t) = read(&p) {
                files.push((name, t));
            }
        } else if p.is_dir() && SUB_DIRS.contains(&name.as_str()) {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(&p).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
            inner.sort();
            for f in inner.into_iter().filter(|f| f.is_file()) {
                if let (Some(n), Some(t)) = (f.file_name().and_then(|n| n.to_str()), read(&f)) {
                    files.push((format!("{name}/{n}"), t));
                }
            }
        }
    }
    files
}

/// Where a trace folder named in task.toml is: beside task.toml, or from the repository root
/// two folders up (`tasks/<id>/` and `traces/<id>/`).
fn trace_folder(dir: &Path, name: &str) -> Option<PathBuf> {
    [dir.join(name), dir.join("../..").join(name)].into_iter().find(|p| p.is_dir())
}

/// The traces of the folders `names`: (the name as task.toml writes it / the file name, text).
fn traces_of(dir: &Path, names: &[String], toml_text: &str, out: &mut Outcome) -> (Vec<(String, String)>, Option<String>) {
    let mut traces = vec![];
    let mut graph = None;
    for name in names {
        let Some(folder) = trace_folder(dir, name) else {
            out.problems.push(Problem::new("task.toml", line_of(toml_text, &format!("\"{name}\"")), format!("the trace folder `{name}` is neither beside task.toml nor at the repository root")));
            continue;
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
        files.sort();
        for f in files {
            let Some(n) = f.file_name().and_then(|n| n.to_str()).map(str::to_string) else { continue };
            if n.ends_with(".ndjson") {
                match read(&f) {
                    Some(t) => traces.push((format!("{name}/{n}"), t)),
                    None => out.problems.push(Problem::new(format!("{name}/{n}"), None, "cannot be read as UTF-8 text")),
                }
            } else if n == GRAPH_FILE && graph.is_none() {
                graph = std::fs::read(&f).ok().and_then(|b| gunzip(&b));
                if graph.is_none() {
                    out.problems.push(Problem::new(format!("{name}/{n}"), None, "the system graph does not unpack (gzip)"));
                }
            }
        }
    }
    (traces, graph)
}

fn gunzip(bytes: &[u8]) -> Option<String> {
    use std::io::Read as _;
    let mut s = String::new();
    flate2::read::GzDecoder::new(bytes).read_to_string(&mut s).ok()?;
    Some(s)
}

/// Every line of a trace reads: JSON objects, a header of task `id` first, steps whose action
/// is one of `actions`. Returns the actions its steps take.
fn check_trace(path: &str, text: &str, id: &str, actions: &[String], out: &mut Outcome) -> Vec<String> {
    let mut seen = vec![];
    for (i, line) in text.lines().enumerate() {
        let n = Some(i + 1);
        let v: Value = match serde_json::from_str(line) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => {
                out.problems.push(Problem::new(path, n, "a trace line is a JSON object"));
                continue;
            }
            Err(e) => {
                out.problems.push(Problem::new(path, n, format!("not JSON: {e}")));
                continue;
            }
        };
        match (i, v["kind"].as_str()) {
            (0, Some("header")) => {
                if v["task"].as_str() != Some(id) {
                    out.problems.push(Problem::new(path, n, format!("the header names task {}, not {id}", v["task"])));
                }
            }
            (0, _) => out.problems.push(Problem::new(path, n, "the first line is the header (\"kind\":\"header\")")),
            (_, Some("init")) => {}
            (_, Some("step")) => match v["action"].as_str() {
                Some(a) if actions.iter().any(|p| p == a) => seen.push(a.to_string()),
                Some(a) => out.problems.push(Problem::new(path, n, format!("action `{a}` is not pinned in task.toml"))),
                None => out.problems.push(Problem::new(path, n, "a step without an action")),
            },
            (_, k) => out.problems.push(Problem::new(path, n, format!("unknown line kind {}", k.unwrap_or("(none)")))),
        }
    }
    seen
}

/// Checks the task folder `dir` (see the module's docs).
pub fn check_dir(dir: &Path) -> Outcome {
    let mut out = Outcome::default();
    let Some(toml_text) = read(&dir.join("task.toml")) else {
        out.problems.push(Problem::new("task.toml", None, format!("no task.toml in {}", dir.display())));
        return out;
    };
    let task = match sysmo_task_format::TaskToml::parse(&toml_text) {
        Ok(t) => t,
        Err(e) => {
            out.problems.push(Problem::new("task.toml", toml_error_line(&e), e));
            return out;
        }
    };
    out.passed.push(format!("task.toml reads (task {}, module {})", task.id, task.pinned.module));
    let module = task.pinned.module.clone();
    let files = task_files(dir);
    let file = |p: &str| files.iter().find(|(n, _)| n == p).map(|(_, t)| t.as_str());
    for needed in [format!("{module}Invariants.tla"), "invariants.cfg".to_string(), format!("reference/{module}.tla")] {
        if file(&needed).is_none() {
            out.problems.push(Problem::new(needed, None, "missing: every task has it"));
        }
    }

    // Traces: every line reads; every pinned action occurs.
    let actions: Vec<String> = task.pinned.actions.iter().map(|a| a.name.clone()).collect();
    let (traces, graph) = traces_of(dir, &task.traces, &toml_text, &mut out);
    let (bug_traces, _) = traces_of(dir, &task.bug_traces, &toml_text, &mut out);
    if traces.is_empty() {
        out.problems.push(Problem::new("task.toml", line_of(&toml_text, "traces"), "no trace: task.toml's `traces` names the folders of the system's traces"));
    }
    let before = out.problems.len();
    let mut seen: Vec<String> = vec![];
    for (path, text) in traces.iter().chain(&bug_traces) {
        seen.extend(check_trace(path, text, &task.id, &actions, &mut out));
    }
    for a in &actions {
        if !traces.is_empty() && !seen.contains(a) {
            out.problems.push(Problem::new("task.toml", line_of(&toml_text, &format!("name = \"{a}\"")), format!("pinned action `{a}` occurs in no trace")));
        }
    }
    if out.problems.len() == before && !traces.is_empty() {
        out.passed.push(format!("{} trace(s) read, every pinned action occurs ({} bug trace(s))", traces.len(), bug_traces.len()));
    }

    // The reference model and the bug model, graded as the grader grades a user's model.
    let file_refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let trace_refs: Vec<(&str, &str)> = traces.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let input = TaskInput::from_folder(&file_refs, &trace_refs).with_system_graph(graph.as_deref());
    if let Some(reference) = file(&format!("reference/{module}.tla")) {
        let name = format!("reference/{module}.tla");
        let cfg = file(&format!("reference/{module}.cfg"));
        let r = grade(&input, &ModelInput { name: &name, text: reference, cfg, mapping: None }, &|| false);
        let short: Vec<String> = r
            .stages
            .scores()
            .into_iter()
            .filter(|(stage, score, status)| *score < 1.0 && !(*stage == "precision" && *status == Status::Skipped && graph.is_none()))
            .map(|(stage, score, status)| format!("{stage} {score:.4} ({})", status.as_str()))
            .collect();
        if short.is_empty() {
            out.passed.push(format!("{name} grades 1.0 in every stage{}", if graph.is_none() { " (no system graph: precision skipped)" } else { "" }));
        } else {
            let why = sysmo_grade::feedback::feedback(&r, reference, 1500);
            out.problems.push(Problem::new(name, None, format!("the reference model must grade 1.0; short: {}\n{why}", short.join(", "))));
        }
    }
    if let Some(bug) = file(&task.bug_model_path()) {
        let cfg_path = task.bug_cfg_path();
        let cfg = file(&cfg_path);
        if cfg.is_none() {
            out.problems.push(Problem::new(cfg_path, None, "missing: the bug model's .cfg"));
        }
        let budget = task.check.bug_max_states;
        let bug_input = TaskInput::from_folder(&file_refs, &trace_refs).with_max_states(budget);
        let name = task.bug_model_path();
        let r = grade(&bug_input, &ModelInput { name: &name, text: bug, cfg, mapping: None }, &|| false);
        let violated: Vec<&str> = r.stages.invariants.invariants.iter().filter(|i| i.verdict != "pass").map(|i| i.name.as_str()).collect();
        // The bug model's own .cfg may state the property (an INVARIANT the runtime gate finds
        // violated): that refutes it as well.
        let gate = r.stages.runtime.gate.as_ref().filter(|g| !g.passed && g.result.contains("violation"));
        if r.stages.invariants.status == Status::Ran && !violated.is_empty() {
            out.passed.push(format!("{name} is refuted: {} violated", violated.join(", ")));
        } else if let Some(g) = gate {
            out.passed.push(format!("{name} is refuted by its own .cfg: {} ({})", g.result, g.message.clone().unwrap_or_default()));
        } else {
            let within = budget.map_or("the task's budget".to_string(), |n| format!("{n} states ([check] bug_max_states)"));
            out.problems.push(Problem::new(
                name,
                None,
                format!("the bug model must violate a property of invariants.cfg; none is violated within {within} (invariants stage: {})", r.stages.invariants.status.as_str()),
            ));
        }
    }
    out
}
