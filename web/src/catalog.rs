//! What the gallery and the task page show about a task, read from the files `sysmo-tasks`
//! embeds: the `task.toml` fields, the invariants module's names and comments, the traces as
//! tables, and a starter module with the pinned names. Plain data, tested natively and in wasm.

use serde_json::Value as Json;
use sysmo_task_format::TaskToml;
use sysmo_tasks::TaskFiles;

/// A pinned action: its name, parameters and what it means (task.toml's own type).
pub use sysmo_task_format::PinnedAction;

/// A task as the gallery and the Description tab show it.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskInfo {
    pub id: String,
    pub title: String,
    pub tutorial: bool,
    /// The original system (`Asterinas`, ...), its file and language.
    pub system: String,
    pub file: String,
    pub language: String,
    /// Lines of the original file, and whether the figure is rounded.
    pub original_lines: Option<i64>,
    pub approx: bool,
    /// Lines of the code that produced the traces (embedded with the task).
    pub code_lines: usize,
    pub code_files: usize,
    pub traces: usize,
    pub summary: String,
    pub must_capture: Vec<String>,
    pub leave_out: Vec<String>,
    pub module: String,
    /// (name, meaning) of the pinned constants and variables.
    pub constants: Vec<(String, String)>,
    pub variables: Vec<(String, String)>,
    pub actions: Vec<PinnedAction>,
    /// The constants the task is checked with, as .cfg values.
    pub check_constants: Vec<(String, String)>,
    /// The historical bug the task's bug switch turns on, when it has one.
    pub bug: Option<sysmo_task_format::Bug>,
    /// The content hash of the pack the task was opened from; `None` for a built-in task.
    pub pack: Option<String>,
    /// How many exercises task.toml declares (`[[exercise]]`).
    pub exercises: usize,
}

/// Read a task's `task.toml` (its one schema, [`TaskToml`]) and count its embedded code and
/// traces.
pub fn task_info(t: &TaskFiles) -> Result<TaskInfo, String> {
    let v = TaskToml::parse(t.task_toml()).map_err(|e| format!("{}: {e}", t.id))?;
    let lines = v.original_lines();
    Ok(TaskInfo {
        id: t.id.to_string(),
        title: if v.title.is_empty() { t.id.to_string() } else { v.title.clone() },
        tutorial: v.tutorial,
        original_lines: lines.and_then(|(n, _)| i64::try_from(n).ok()),
        approx: lines.is_some_and(|(_, rounded)| rounded),
        code_lines: t.code.iter().map(|(_, text)| text.lines().count()).sum(),
        code_files: t.code.len(),
        traces: t.traces.len(),
        summary: v.description.summary.trim().to_string(),
        check_constants: v.check.constants_cfg(),
        system: v.original.system,
        file: v.original.file,
        language: v.original.language,
        must_capture: v.description.must_capture,
        leave_out: v.description.leave_out,
        module: v.pinned.module,
        constants: v.pinned.constants.into_iter().collect(),
        variables: v.pinned.variables.into_iter().collect(),
        actions: v.pinned.actions,
        bug: v.bug,
        pack: t.pack_hash(),
        exercises: v.exercises.len(),
    })
}

/// Every embedded task, in the order `sysmo-tasks` lists them, then the tasks opened from packs
/// in the order opened (a task whose task.toml does not read is left out; `sysmo-tasks`' own
/// tests make sure no built-in one is, and a pack's is read when it opens).
pub fn all_tasks() -> Vec<TaskInfo> {
    sysmo_tasks::tasks().iter().chain(sysmo_tasks::opened()).filter_map(|t| task_info(t).ok()).collect()
}

/// One definition of the invariants module, with the comment written above it.
#[derive(Clone, Debug, PartialEq)]
pub struct InvariantDoc {
    pub name: String,
    /// The tag at the start of the comment (`safety`, `liveness`), if any.
    pub tag: Option<String>,
    /// The comment's first sentence.
    pub sentence: String,
    /// `INVARIANT` or `PROPERTY` when invariants.cfg (or violations.cfg) checks it.
    pub checked_as: Option<String>,
    /// The task expects a faithful model to violate it (violations.cfg).
    pub must_violate: bool,
}

/// The first sentence of a comment: up to the first `.` followed by a space or the end.
fn first_sentence(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        out.push(*c);
        if *c == '.' && chars.get(i + 1).is_none_or(|n| n.is_whitespace()) {
            break;
        }
    }
    out.trim().to_string()
}

/// The names a .cfg checks: (name, `INVARIANT`/`PROPERTY`).
fn cfg_checks(cfg: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    let mut current: Option<&str> = None;
    for line in cfg.lines() {
        let line = line.split("\\*").next().unwrap_or("");
        for w in line.split_whitespace() {
            match w {
                "INVARIANT" | "INVARIANTS" => current = Some("INVARIANT"),
                "PROPERTY" | "PROPERTIES" => current = Some("PROPERTY"),
                w if w.chars().all(|c| c.is_ascii_uppercase() || c == '_') && w.len() > 1 => current = None,
                w => {
                    if let Some(k) = current {
                        out.push((w.to_string(), k.to_string()));
                    }
                }
            }
        }
    }
    out
}

/// The definitions of an invariants module, each with the `\*` comment lines right above it,
/// and how the task's .cfg files check them.
pub fn invariant_docs(module: &str, invariants_cfg: &str, violations_cfg: Option<&str>) -> Vec<InvariantDoc> {
    let checks = cfg_checks(invariants_cfg);
    let violations = violations_cfg.map(cfg_checks).unwrap_or_default();
    let mut out = vec![];
    let mut comment: Vec<String> = vec![];
    for line in module.lines() {
        let trimmed = line.trim();
        if let Some(c) = trimmed.strip_prefix("\\*") {
            comment.push(c.trim().to_string());
            continue;
        }
        let starts_def = line.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if starts_def && line.contains("==") {
            let name: String = line.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let mut text = comment.join(" ");
            let mut tag = None;
            if let Some(rest) = text.strip_prefix('[') {
                if let Some((t, after)) = rest.split_once(']') {
                    tag = Some(t.to_string());
                    text = after.trim().to_string();
                }
            }
            let checked = checks.iter().chain(violations.iter()).find(|(n, _)| *n == name);
            out.push(InvariantDoc {
                name: name.clone(),
                tag,
                sentence: first_sentence(&text),
                checked_as: checked.map(|(_, k)| k.clone()),
                must_violate: violations.iter().any(|(n, _)| *n == name),
            });
        }
        if !trimmed.is_empty() {
            comment.clear();
        }
    }
    out
}

/// One observed step of a trace, as the Traces tab's table shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceRow {
    /// The line of the NDJSON file (1-based).
    pub line: usize,
    pub actor: String,
    pub action: String,
    pub args: String,
    pub state: String,
}

/// A trace: its header's facts, its initial state and its steps.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TraceView {
    pub scheduler: String,
    pub seed: String,
    pub constants: String,
    pub init: String,
    pub rows: Vec<TraceRow>,
}

/// A JSON value (a trace's, or ITF) as TLA+ text: `sysmo_grade::itf::text`.
pub use sysmo_grade::itf::text as tla_text;

/// Read one NDJSON trace (`docs/trace-format.md`) into a table. Lines that do not read are
/// shown as such rather than dropped.
pub fn trace_view(text: &str) -> TraceView {
    let mut view = TraceView::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Json = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                view.rows.push(TraceRow { line: i + 1, actor: String::new(), action: "(unreadable)".into(), args: e.to_string(), state: String::new() });
                continue;
            }
        };
        let field = |k: &str| v.get(k).map(|x| if let Some(s) = x.as_str() { s.to_string() } else { x.to_string() }).unwrap_or_default();
        match v.get("kind").and_then(Json::as_str) {
            Some("header") => {
                view.scheduler = field("scheduler");
                view.seed = field("seed");
                view.constants = v.get("constants").map(tla_text).unwrap_or_default();
            }
            Some("init") => view.init = v.get("state").map(tla_text).unwrap_or_default(),
            _ => view.rows.push(TraceRow {
                line: i + 1,
                actor: field("actor"),
                action: field("action"),
                args: v.get("args").map(tla_text).unwrap_or_default(),
                state: v.get("state").map(tla_text).unwrap_or_default(),
            }),
        }
    }
    view
}

/// A starter module with the pinned names: constants, variables, `vars`, `Init`, one operator
/// per pinned action (with its parameters and meaning), `Next` and `Spec`. It parses clean;
/// the bodies are left for the user to write.
pub fn template_module(info: &TaskInfo) -> String {
    let mut s = format!("---- MODULE {} ----\n", info.module);
    s += "EXTENDS Naturals, Integers, Sequences, FiniteSets, TLC\n\n";
    if !info.constants.is_empty() {
        for (c, meaning) in &info.constants {
            s += &format!("\\* {c}: {meaning}\n");
        }
        s += &format!("CONSTANTS {}\n\n", info.constants.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>().join(", "));
    }
    for (v, ty) in &info.variables {
        s += &format!("\\* {v}: {ty}\n");
    }
    let vars: Vec<&str> = info.variables.iter().map(|(v, _)| v.as_str()).collect();
    s += &format!("VARIABLES {}\n\n", vars.join(", "));
    s += &format!("vars == <<{}>>\n\n", vars.join(", "));
    s += "\\* The initial states: give every variable its initial value.\nInit ==\n    TRUE\n\n";
    for a in &info.actions {
        s += &format!("\\* {}\n{} ==\n    UNCHANGED vars\n\n", a.meaning, a.head());
    }
    let domain = info.constants.first().map(|(c, _)| c.clone()).unwrap_or_else(|| "{}".into());
    s += "\\* Bind each action's parameters with \\E over the values they range over.\nNext ==\n";
    for a in &info.actions {
        if a.params.is_empty() {
            s += &format!("    \\/ {}\n", a.name);
        } else {
            s += &format!("    \\/ \\E {} \\in {domain} : {}\n", a.params.join(", "), a.head());
        }
    }
    if info.actions.is_empty() {
        s += "    UNCHANGED vars\n";
    }
    s += "\nSpec == Init /\\ [][Next]_vars\n\n====\n";
    s
}

/// The names of the properties a task hides (`[hidden] properties` of its task.toml).
pub fn hidden_properties(task_toml: &str) -> Vec<String> {
    TaskToml::parse(task_toml).map(|t| t.hidden.properties).unwrap_or_default()
}

/// The invariants module with the body of each hidden definition replaced: the definition's
/// first line keeps its name and `==`, the lines after it up to the next definition, comment or
/// blank line are dropped. Comments (the sentences) stay.
pub fn redact(module: &str, hidden: &[String]) -> String {
    if hidden.is_empty() {
        return module.to_string();
    }
    let mut out = vec![];
    let mut skipping = false;
    for line in module.lines() {
        let starts_def = line.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && line.contains("==");
        let name: String = line.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if starts_def && hidden.contains(&name) {
            out.push(format!("{name} == (hidden by the task's author)"));
            skipping = true;
            continue;
        }
        if skipping {
            let t = line.trim();
            if t.is_empty() || t.starts_with("\\*") || t.starts_with("====") || starts_def {
                skipping = false;
            } else {
                continue;
            }
        }
        out.push(line.to_string());
    }
    out.join("\n") + if module.ends_with('\n') { "\n" } else { "" }
}

/// A report with what it says of each hidden property reduced to whether it holds: no
/// message (an evaluation error could quote the formula).
pub fn hide_in_report(report: &mut sysmo_grade::report::Report, hidden: &[String]) {
    for i in report.stages.invariants.invariants.iter_mut().filter(|i| hidden.contains(&i.name)) {
        i.message = None;
    }
}
