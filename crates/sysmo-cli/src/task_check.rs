//! `sysmo task check DIR|PACK.sysmo [--json]`: validates a task, a folder (a built-in one,
//! `tasks/<id>`, or one a teacher wrote) or a pack made of one, before it is used:
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
//! `sysmo task pack DIR [-o FILE.sysmo]` writes the folder as one pack
//! (`sysmo_task_format::pack`) once the first four checks pass (the models are graded by `task
//! check`, which takes the pack as it takes the folder).
//!
//! Every problem names its file and, where there is one, its line. A folder is read with
//! `sysmo_task_format::folder`, the reading `sysmo-tasks` embeds the built-in tasks with, so a
//! folder that passes here grades the same once built in or packed.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use sysmo_grade::report::Status;
use sysmo_grade::{ModelInput, TaskInput, grade};

use sysmo_task_format::folder::line_of;
use sysmo_task_format::pack::Pack;
use sysmo_task_format::{Problem, TaskToml};

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
            x => return Err(format!("`sysmo task check` takes one folder or pack, not also `{x}`")),
        }
    }
    let dir = dir.ok_or("`sysmo task check` needs the task's folder or pack")?;
    let out = check_path(&dir);
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

/// Checks the task folder or pack at `path`, or each task of the course there (see the
/// module's docs).
pub fn check_path(path: &Path) -> Outcome {
    match course_at(path) {
        Some(Ok(tasks)) => {
            let mut out = Outcome::default();
            for (prefix, read) in tasks {
                let one = match read {
                    Ok((pack, problems)) => check_pack(&pack, problems),
                    Err(p) => Outcome { problems: vec![p], passed: vec![] },
                };
                out.passed.extend(one.passed.into_iter().map(|p| format!("{prefix}: {p}")));
                out.problems.extend(one.problems.into_iter().map(|p| Problem { file: format!("{prefix}/{}", p.file), ..p }));
            }
            out
        }
        Some(Err(p)) => Outcome { problems: vec![p], passed: vec![] },
        None => match open(path) {
            Ok((pack, problems)) => check_pack(&pack, problems),
            Err(p) => Outcome { problems: vec![p], passed: vec![] },
        },
    }
}

/// A task of a course: where its files are named from (its folder as course.toml gives it, or
/// its id in a course file), and the task read, with the problems reading it found.
type CourseTask = (String, Result<(Pack, Vec<Problem>), Problem>);

/// The tasks of the course at `path`: a folder with a course.toml, each task folder it names
/// read; or a course file. `None` when `path` is neither (a task folder, a pack).
fn course_at(path: &Path) -> Option<Result<Vec<CourseTask>, Problem>> {
    use sysmo_task_format::course::{Course, CourseToml, COURSE_TOML};
    let toml_path = path.join(COURSE_TOML);
    if path.is_dir() && toml_path.is_file() {
        let read = std::fs::read_to_string(&toml_path).map_err(|e| e.to_string()).and_then(|t| CourseToml::parse(&t));
        return Some(match read {
            Ok(course) => Ok(course.tasks.iter().map(|t| (t.trim_end_matches('/').to_string(), sysmo_task_format::folder::read(&path.join(t)))).collect()),
            Err(e) => Err(Problem::new(COURSE_TOML, None, e.trim_start_matches("course.toml: ").to_string())),
        });
    }
    let bytes = std::fs::read(path).ok().filter(|_| path.is_file())?;
    match Course::from_bytes(&bytes) {
        Ok(c) if c.is_course() => Some(Ok(c
            .packs
            .into_iter()
            .map(|p| (p.task_toml().map(|t| t.id).unwrap_or_default(), Ok((p, vec![]))))
            .collect())),
        // A pack, or a file that reads as neither: `open` says which.
        _ => None,
    }
}

/// The task at `path`: a pack file, or a folder read into one (with the problems reading it
/// found: a trace folder that is not there, a file that is not text).
pub(crate) fn open(path: &Path) -> Result<(Pack, Vec<Problem>), Problem> {
    if path.is_file() {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| Problem::new(&name, None, format!("cannot be read: {e}")))?;
        let pack = Pack::from_bytes(&bytes).map_err(|e| Problem::new(&name, None, e))?;
        return Ok((pack, vec![]));
    }
    sysmo_task_format::folder::read(path)
}

/// The checks that need no grading: task.toml, the files every task has, the traces and the
/// pinned actions they take. Returns the task when its task.toml reads.
fn check_structure(pack: &Pack, out: &mut Outcome) -> Option<TaskToml> {
    let toml_text = pack.files.get("task.toml").map(String::as_str).unwrap_or("");
    let task = match pack.task_toml() {
        Ok(t) => t,
        Err(e) => {
            out.problems.push(Problem::new("task.toml", None, e));
            return None;
        }
    };
    out.passed.push(format!("task.toml reads (task {}, module {})", task.id, task.pinned.module));
    let module = &task.pinned.module;
    for needed in [format!("{module}Invariants.tla"), "invariants.cfg".to_string(), format!("reference/{module}.tla")] {
        if !pack.files.contains_key(&needed) {
            out.problems.push(Problem::new(needed, None, "missing: every task has it"));
        }
    }
    // A hidden property is one the invariants module defines.
    let invariants = pack.files.get(&format!("{module}Invariants.tla")).map(String::as_str).unwrap_or("");
    for name in &task.hidden.properties {
        if !invariants.lines().any(|l| l.starts_with(name.as_str()) && l[name.len()..].trim_start().starts_with("==")) {
            out.problems.push(Problem::new("task.toml", line_of(toml_text, &format!("\"{name}\"")), format!("the hidden property `{name}` is not defined in {module}Invariants.tla")));
        }
    }

    // Traces: every folder has some; every line reads; every pinned action occurs.
    for name in task.traces.iter().chain(&task.bug_traces) {
        let reported = out.problems.iter().any(|p| p.message.contains(&format!("`{name}`")));
        if pack.traces_in(std::slice::from_ref(name)).is_empty() && !reported {
            out.problems.push(Problem::new("task.toml", line_of(toml_text, &format!("\"{name}\"")), format!("the trace folder `{name}` holds no trace (*.ndjson)")));
        }
    }
    let actions: Vec<String> = task.pinned.actions.iter().map(|a| a.name.clone()).collect();
    let traces = pack.traces_in(&task.traces);
    let bug_traces = pack.traces_in(&task.bug_traces);
    if traces.is_empty() {
        out.problems.push(Problem::new("task.toml", line_of(toml_text, "traces"), "no trace: task.toml's `traces` names the folders of the system's traces"));
    }
    let before = out.problems.len();
    let mut seen: Vec<String> = vec![];
    for (path, text) in traces.iter().chain(&bug_traces) {
        seen.extend(check_trace(path, text, &task.id, &actions, out));
    }
    for a in &actions {
        if !traces.is_empty() && !seen.contains(a) {
            out.problems.push(Problem::new("task.toml", line_of(toml_text, &format!("name = \"{a}\"")), format!("pinned action `{a}` occurs in no trace")));
        }
    }
    if out.problems.len() == before && !traces.is_empty() {
        out.passed.push(format!("{} trace(s) read, every pinned action occurs ({} bug trace(s))", traces.len(), bug_traces.len()));
    }
    Some(task)
}

/// Checks a task's pack (see the module's docs); `problems` are those found reading it.
pub fn check_pack(pack: &Pack, problems: Vec<Problem>) -> Outcome {
    let mut out = Outcome { problems, passed: vec![] };
    let Some(task) = check_structure(pack, &mut out) else { return out };
    let module = task.pinned.module.clone();
    let file = |p: &str| pack.files.get(p).map(String::as_str);
    let graph = pack.graph.as_deref();
    let traces = pack.traces_in(&task.traces);

    // The reference model and the bug model, graded as the grader grades a user's model.
    let file_refs: Vec<(&str, &str)> = pack.files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let input = TaskInput::from_folder(&file_refs, &traces).with_system_graph(graph);
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
        let bug_input = TaskInput::from_folder(&file_refs, &traces).with_max_states(budget);
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
    check_exercises(pack, &task, &mut out);
    out
}

/// Each exercise is well formed and its expected outcomes hold: a `find-bug` exercise is solved
/// by the task's bug model and not by its reference model, a `fix-model` starter is there and
/// does not solve its exercise already, a `write-invariant` exercise names its property.
fn check_exercises(pack: &Pack, task: &TaskToml, out: &mut Outcome) {
    let toml_text = pack.files.get("task.toml").map(String::as_str).unwrap_or("");
    let mut seen: Vec<&str> = vec![];
    for ex in &task.exercises {
        let line = line_of(toml_text, &format!("id = \"{}\"", ex.id));
        let mut problem = |m: String| out.problems.push(Problem::new("task.toml", line, format!("exercise `{}`: {m}", ex.id)));
        if seen.contains(&ex.id.as_str()) {
            problem("a second exercise with this id".into());
        }
        seen.push(&ex.id);
        let judged = |path: &str| -> Result<sysmo_grade::exercise::Outcome, String> {
            let text = pack.files.get(path).ok_or_else(|| format!("{path} is missing"))?;
            crate::exercise::judge(pack, &ex.id, path, text).map(|(_, o)| o)
        };
        use sysmo_task_format::ExerciseKind as K;
        match ex.kind {
            K::Model => {}
            K::WriteInvariant if ex.property.is_none() => problem("a write-invariant exercise names its property (`property`)".into()),
            K::WriteInvariant => {}
            K::FindBug if ex.property.is_none() => problem("a find-bug exercise names the property that finds the bug (`property`)".into()),
            K::FindBug => {
                match judged(&task.bug_model_path()) {
                    Ok(o) if o.solved => {}
                    Ok(o) => problem(format!("the bug model must solve it: {}", o.why)),
                    Err(e) => problem(e),
                }
                match judged(&format!("reference/{}.tla", task.pinned.module)) {
                    Ok(o) if o.solved => problem("the reference model solves it too: the bug traces must show the bug".into()),
                    Ok(_) => {}
                    Err(e) => problem(e),
                }
            }
            K::FixModel => match &ex.starter {
                None => problem("a fix-model exercise names its starter model (`starter`)".into()),
                Some(path) => match judged(path) {
                    Ok(o) if o.solved => problem(format!("the starter {path} already solves it")),
                    Ok(_) => {}
                    Err(e) => problem(e),
                },
            },
        }
    }
    if !task.exercises.is_empty() && out.problems.iter().all(|p| !p.message.starts_with("exercise `")) {
        out.passed.push(format!("{} exercise(s): their expected outcomes hold", task.exercises.len()));
    }
}

/// `sysmo task pack DIR [-o FILE.sysmo] [--link URL] [--json]`: the folder as one pack, written
/// once its structure checks pass (see the module's docs); with `--link`, also the playground's
/// address with a fragment that carries the pack, when it is small enough.
pub fn run_pack(args: &[String]) -> Result<ExitCode, String> {
    let (mut dir, mut output, mut json_out, mut link_base) = (None, None, false, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json_out = true,
            "--link" => link_base = Some(it.next().ok_or("--link needs the playground's address")?.clone()),
            "-o" | "--output" => output = Some(PathBuf::from(it.next().ok_or("-o needs the pack's file name")?)),
            x if x.starts_with('-') => return Err(format!("unknown option `{x}` for `sysmo task pack`")),
            x if dir.is_none() => dir = Some(PathBuf::from(x)),
            x => return Err(format!("`sysmo task pack` takes one folder, not also `{x}`")),
        }
    }
    let dir = dir.ok_or("`sysmo task pack` needs the task's folder")?;
    if dir.join(sysmo_task_format::course::COURSE_TOML).is_file() {
        return pack_course(&dir, output, link_base.as_deref(), json_out);
    }
    let mut out = Outcome::default();
    let pack = match sysmo_task_format::folder::read(&dir) {
        Ok((pack, problems)) => {
            out.problems = problems;
            check_structure(&pack, &mut out).map(|task| (pack, task))
        }
        Err(p) => {
            out.problems.push(p);
            None
        }
    };
    let written = match pack {
        Some((pack, task)) if out.problems.is_empty() => {
            let path = output.unwrap_or_else(|| PathBuf::from(format!("{}.sysmo", task.id)));
            let bytes = pack.to_bytes();
            std::fs::write(&path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Some((path, bytes.len(), pack))
        }
        _ => None,
    };
    // A link whose fragment carries the pack, when it is small enough.
    let link = match (&written, &link_base) {
        (Some((_, _, p)), Some(base)) => Some(p.to_fragment().map(|f| format!("{}{f}", base.split('#').next().unwrap_or(base)))),
        _ => None,
    };
    if json_out {
        let problems: Vec<Value> = out.problems.iter().map(|p| json!({ "file": p.file, "line": p.line, "message": p.message })).collect();
        let pack = written.as_ref().map(|(path, size, p)| {
            let (link, link_error) = match &link {
                Some(Ok(l)) => (Some(l.clone()), None),
                Some(Err(e)) => (None, Some(e.clone())),
                None => (None, None),
            };
            json!({ "path": path.display().to_string(), "bytes": size, "hash": p.content_hash(), "files": p.files.len(), "traces": p.traces.len(), "code": p.code.len(), "graph": p.graph.is_some(), "link": link, "link_error": link_error })
        });
        println!("{}", json!({ "folder": dir.display().to_string(), "ok": written.is_some(), "problems": problems, "pack": pack }));
    } else {
        for p in &out.problems {
            println!("error {}", p.text());
        }
        match &written {
            Some((path, size, p)) => println!(
                "wrote {}: {} files, {} traces, {} code files, {}; {size} bytes, content hash {}",
                path.display(),
                p.files.len(),
                p.traces.len(),
                p.code.len(),
                if p.graph.is_some() { "a system graph" } else { "no system graph" },
                p.content_hash()
            ),
            None => println!("{}: {} problem(s), no pack written", dir.display(), out.problems.len()),
        }
        match &link {
            Some(Ok(l)) => println!("link: {l}"),
            Some(Err(e)) => println!("no link: {e}"),
            None => {}
        }
    }
    Ok(if written.is_some() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `sysmo task pack COURSE_DIR`: every task folder of the course's course.toml, each read and
/// checked as a task folder is, into one course file (default `<folder's name>.sysmo`),
/// written when none has a problem.
fn pack_course(dir: &Path, output: Option<PathBuf>, link_base: Option<&str>, json_out: bool) -> Result<ExitCode, String> {
    use sysmo_task_format::course::{Course, CourseToml, COURSE_TOML};
    let toml_text = std::fs::read_to_string(dir.join(COURSE_TOML)).map_err(|e| format!("cannot read {}: {e}", dir.join(COURSE_TOML).display()))?;
    let toml = CourseToml::parse(&toml_text)?;
    let mut course = Course::new(&toml.title, &toml.description);
    let mut problems: Vec<Problem> = vec![];
    for t in &toml.tasks {
        let mut out = Outcome::default();
        match sysmo_task_format::folder::read(&dir.join(t)) {
            Ok((pack, read_problems)) => {
                out.problems = read_problems;
                if check_structure(&pack, &mut out).is_some() {
                    course.packs.push(pack);
                }
            }
            Err(p) => out.problems.push(p),
        }
        problems.extend(out.problems.into_iter().map(|p| Problem { file: format!("{}/{}", t.trim_end_matches('/'), p.file), ..p }));
    }
    let name = dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned())).unwrap_or_else(|| "course".into());
    let path = output.unwrap_or_else(|| PathBuf::from(format!("{name}.sysmo")));
    let mut size = None;
    if problems.is_empty() {
        // The course as a file reads back (two tasks with one id, say, do not).
        let bytes = course.to_bytes();
        match Course::from_bytes(&bytes) {
            Ok(_) => {
                std::fs::write(&path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                size = Some(bytes.len());
            }
            Err(e) => problems.push(Problem::new(COURSE_TOML, None, e)),
        }
    }
    let ids: Vec<String> = course.packs.iter().filter_map(|p| p.task_toml().ok()).map(|t| t.id).collect();
    let link = match (size, link_base) {
        (Some(_), Some(base)) => Some(course.to_fragment().map(|f| format!("{}{f}", base.split('#').next().unwrap_or(base)))),
        _ => None,
    };
    if json_out {
        let list: Vec<Value> = problems.iter().map(|p| json!({ "file": p.file, "line": p.line, "message": p.message })).collect();
        let (link, link_error) = match &link {
            Some(Ok(l)) => (Some(l.clone()), None),
            Some(Err(e)) => (None, Some(e.clone())),
            None => (None, None),
        };
        let written = size.map(|bytes| json!({ "path": path.display().to_string(), "bytes": bytes, "title": course.title, "tasks": ids, "link": link, "link_error": link_error }));
        println!("{}", json!({ "folder": dir.display().to_string(), "ok": size.is_some(), "problems": list, "course": written }));
    } else {
        for p in &problems {
            println!("error {}", p.text());
        }
        match size {
            Some(bytes) => println!("wrote {}: the course \"{}\", {} tasks ({}); {bytes} bytes", path.display(), course.title, ids.len(), ids.join(", ")),
            None => println!("{}: {} problem(s), no course written", dir.display(), problems.len()),
        }
        match &link {
            Some(Ok(l)) => println!("link: {l}"),
            Some(Err(e)) => println!("no link: {e}"),
            None => {}
        }
    }
    Ok(if size.is_some() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
