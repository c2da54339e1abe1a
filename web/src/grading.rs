//! Grading for the page: the messages between the page and its grading worker, the worker's
//! side (grade a model against an embedded task with `sysmo-grade`, reporting progress between
//! slices of work), and the scorecard read from a report.
//!
//! The page never runs the engine: it posts a [`GradeRequest`] to the worker and renders the
//! [`WorkerMessage`]s that come back. Everything here is plain data and runs natively too.

use serde_json::{json, Value as Json};
use std::cell::Cell;
use sysmo_grade::report::{Report, Status};
use tla_syntax::diag::Severity;

use crate::catalog::tla_text;

/// What the page asks the worker.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GradeRequest {
    /// Counts the page's requests, so a message of an older run is recognised.
    pub run: u64,
    pub task: String,
    pub model: String,
    /// The user's configuration, in place of the task's constants.
    pub cfg: Option<String>,
    /// The user's mapping, in place of the task's.
    pub mapping: Option<String>,
    /// Grade the task's own bug model instead of `model` ([`BugModel`]: its `.cfg`, its budget,
    /// no precision stage), to show the historical bug's counterexample.
    pub bug_model: bool,
    /// The JSON of the pack the task was opened from ([`GradeRequest::pack_of`]): the worker
    /// opens it too, as it has only the built-in tasks of its own.
    pub pack: Option<String>,
    /// The exercise `model` answers (`[[exercise]]` of the task): the worker judges it too
    /// ([`WorkerMessage::Exercise`]).
    pub exercise: Option<String>,
}

/// Whether an answer solves an exercise, as the worker judged it: sysmo-grade's own type.
pub use sysmo_grade::exercise::Verdict as ExerciseVerdict;

impl GradeRequest {
    /// The pack's JSON of the task `task_id`, when it was opened from a pack.
    pub fn pack_of(task_id: &str) -> Option<String> {
        sysmo_tasks::task(task_id).and_then(|t| t.pack).map(str::to_string)
    }

    pub fn to_json(&self) -> String {
        json!({
            "run": self.run, "task": self.task, "model": self.model, "cfg": self.cfg, "mapping": self.mapping,
            "bug_model": self.bug_model, "pack": self.pack, "exercise": self.exercise,
        })
        .to_string()
    }

    pub fn from_json(text: &str) -> Result<GradeRequest, String> {
        let v: Json = serde_json::from_str(text).map_err(|e| format!("bad request: {e}"))?;
        let bug_model = v.get("bug_model").and_then(Json::as_bool).unwrap_or(false);
        let model = match v.get("model").and_then(Json::as_str) {
            Some(m) => m.to_string(),
            None if bug_model => String::new(),
            None => return Err("bad request: no model".into()),
        };
        Ok(GradeRequest {
            run: v.get("run").and_then(Json::as_u64).unwrap_or(0),
            task: v.get("task").and_then(Json::as_str).ok_or("bad request: no task")?.to_string(),
            model,
            cfg: v.get("cfg").and_then(Json::as_str).map(str::to_string),
            mapping: v.get("mapping").and_then(Json::as_str).map(str::to_string),
            bug_model,
            pack: v.get("pack").and_then(Json::as_str).map(str::to_string),
            exercise: v.get("exercise").and_then(Json::as_str).map(str::to_string),
        })
    }
}

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerMessage {
    /// The worker has loaded and listens: requests posted before this one would be lost.
    Ready,
    /// A stage started (`syntax`, `checking` = runtime, conformance and invariants in turn);
    /// `slices` counts the slices of work done so far (a slice is a bounded number of states
    /// or simulation steps); `syntax` is the syntax score once known.
    Progress { run: u64, stage: String, slices: u64, syntax: Option<f64> },
    /// Where a stage of the grader stands, at every slice of work and when the stage ends
    /// (read by [`crate::progress::Board`]).
    Stage { run: u64, progress: sysmo_grade::Progress },
    /// The grade report (sysmo-grade's own type, `sysmo-grade/2` JSON on the wire).
    Report { run: u64, report: Box<Report> },
    /// The request could not be graded (unknown task, bad message).
    Failed { run: u64, message: String },
    /// Whether the answer solves the request's exercise; comes after the report, when there is
    /// one (a `write-invariant` answer has none).
    Exercise { run: u64, verdict: ExerciseVerdict },
}

impl WorkerMessage {
    pub fn to_json(&self) -> String {
        match self {
            WorkerMessage::Ready => json!({ "kind": "ready" }),
            WorkerMessage::Progress { run, stage, slices, syntax } => {
                json!({ "kind": "progress", "run": run, "stage": stage, "slices": slices, "syntax": syntax })
            }
            WorkerMessage::Stage { run, progress } => json!({ "kind": "stage", "run": run, "progress": progress.to_json() }),
            WorkerMessage::Report { run, report } => json!({ "kind": "report", "run": run, "report": report.to_json() }),
            WorkerMessage::Failed { run, message } => json!({ "kind": "failed", "run": run, "message": message }),
            WorkerMessage::Exercise { run, verdict } => json!({ "kind": "exercise", "run": run, "verdict": verdict }),
        }
        .to_string()
    }

    pub fn from_json(text: &str) -> Result<WorkerMessage, String> {
        let v: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let run = v.get("run").and_then(Json::as_u64).unwrap_or(0);
        match v.get("kind").and_then(Json::as_str) {
            Some("ready") => Ok(WorkerMessage::Ready),
            Some("progress") => Ok(WorkerMessage::Progress {
                run,
                stage: v.get("stage").and_then(Json::as_str).unwrap_or("").to_string(),
                slices: v.get("slices").and_then(Json::as_u64).unwrap_or(0),
                syntax: v.get("syntax").and_then(Json::as_f64),
            }),
            Some("stage") => {
                let progress = serde_json::from_value(v.get("progress").cloned().unwrap_or(Json::Null))
                    .map_err(|e| format!("the worker's progress report does not read: {e}"))?;
                Ok(WorkerMessage::Stage { run, progress })
            }
            Some("report") => {
                let report = serde_json::from_value::<Report>(v.get("report").cloned().unwrap_or(Json::Null))
                    .map_err(|e| format!("the worker's report does not read as {}: {e}", sysmo_grade::report::SCHEMA))?;
                Ok(WorkerMessage::Report { run, report: Box::new(report) })
            }
            Some("failed") => Ok(WorkerMessage::Failed { run, message: v.get("message").and_then(Json::as_str).unwrap_or("").to_string() }),
            Some("exercise") => {
                let verdict = serde_json::from_value(v.get("verdict").cloned().unwrap_or(Json::Null)).map_err(|e| format!("bad exercise verdict: {e}"))?;
                Ok(WorkerMessage::Exercise { run, verdict })
            }
            other => Err(format!("unknown message kind {other:?}")),
        }
    }
}

/// Grade `model` against the embedded task `task_id`. `should_stop` is passed to the grader
/// (called between slices of work).
pub fn grade_task(task_id: &str, model: &str, should_stop: &dyn Fn() -> bool) -> Result<Report, String> {
    grade_task_with(task_id, model, None, None, should_stop)
}

/// [`grade_task`] with the user's configuration and mapping in place of the task's.
pub fn grade_task_with(task_id: &str, model: &str, cfg: Option<&str>, mapping: Option<&str>, should_stop: &dyn Fn() -> bool) -> Result<Report, String> {
    grade_task_with_progress(task_id, model, cfg, mapping, should_stop, &mut |_| {})
}

/// [`grade_task_with`], telling `progress` where each stage stands (`sysmo_grade::grade_with_progress`).
pub fn grade_task_with_progress(
    task_id: &str,
    model: &str,
    cfg: Option<&str>,
    mapping: Option<&str>,
    should_stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(&sysmo_grade::Progress),
) -> Result<Report, String> {
    let task = sysmo_tasks::task(task_id).ok_or_else(|| format!("no task `{task_id}`"))?;
    let traces: Vec<(&str, &str)> = task.traces.iter().map(|(p, t)| (p.rsplit('/').next().unwrap_or(*p), *t)).collect();
    let input = sysmo_grade::TaskInput::from_folder(task.files, &traces).with_system_graph(task.system_graph());
    let name = format!("{}.tla", sysmo_grade::module_name(model).unwrap_or_else(|| "model".into()));
    let model = sysmo_grade::ModelInput { name: &name, text: model, cfg, mapping };
    Ok(sysmo_grade::grade_with_progress(&input, &model, should_stop, progress))
}

/// A task's bug model: the model of its code with the bug switch on, checked with its own
/// `.cfg` within its own budget (task.toml's `[check] bug_cfg` and `bug_max_states`), as
/// `sysmo task check` refutes it.
#[derive(Clone, Debug, PartialEq)]
pub struct BugModel {
    /// `bug/<Module>.tla`.
    pub path: String,
    pub text: &'static str,
    /// `bug/<Module>.cfg`, or the one `[check] bug_cfg` names.
    pub cfg_path: String,
    pub cfg: &'static str,
    /// The budget in distinct states, when it is not the task's `[check] max_states`.
    pub max_states: Option<u64>,
}

impl BugModel {
    /// The bug model of an embedded task, when it has one; an error when its task.toml does
    /// not read or its `.cfg` is missing.
    pub fn of(task: &sysmo_tasks::TaskFiles) -> Result<Option<BugModel>, String> {
        let toml = sysmo_task_format::TaskToml::parse(task.task_toml())?;
        let path = toml.bug_model_path();
        let Some(text) = task.file(&path) else { return Ok(None) };
        let cfg_path = toml.bug_cfg_path();
        let cfg = task.file(&cfg_path).ok_or_else(|| format!("the bug model's configuration {cfg_path} is missing"))?;
        Ok(Some(BugModel { path, text, cfg_path, cfg, max_states: toml.check.bug_max_states }))
    }
}

/// Grade `bug`, the bug model of the embedded task `task_id` ([`BugModel::of`]), against the task's
/// traces and invariants, as `sysmo task check` does: no system graph (the graph is of the
/// correct code), so no precision stage.
pub fn grade_bug_model_with_progress(
    task_id: &str,
    bug: &BugModel,
    should_stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(&sysmo_grade::Progress),
) -> Result<Report, String> {
    let task = sysmo_tasks::task(task_id).ok_or_else(|| format!("no task `{task_id}`"))?;
    let traces: Vec<(&str, &str)> = task.traces.iter().map(|(p, t)| (p.rsplit('/').next().unwrap_or(*p), *t)).collect();
    let input = sysmo_grade::TaskInput::from_folder(task.files, &traces).with_max_states(bug.max_states);
    let model = sysmo_grade::ModelInput { name: &bug.path, text: bug.text, cfg: Some(bug.cfg), mapping: None };
    Ok(sysmo_grade::grade_with_progress(&input, &model, should_stop, progress))
}

/// What a report says of the task's hidden properties, reduced to whether each holds
/// ([`crate::catalog::hide_in_report`]): every report the worker sends goes through it.
fn hide(task_id: &str, report: &mut Report) {
    if let Some(t) = sysmo_tasks::task(task_id) {
        crate::catalog::hide_in_report(report, &crate::catalog::hidden_properties(t.task_toml()));
    }
}

/// Judges `answer` on the exercise `id` of the embedded (or opened) task `task_id`
/// (`sysmo_grade::exercise::judge`): the verdict, and the grade report when the answer is a model.
pub fn judge_exercise(
    task_id: &str,
    id: &str,
    answer: &str,
    should_stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(&sysmo_grade::Progress),
) -> Result<(ExerciseVerdict, Option<Report>), String> {
    let task = sysmo_tasks::task(task_id).ok_or_else(|| format!("no task `{task_id}`"))?;
    let toml = sysmo_task_format::TaskToml::parse(task.task_toml())?;
    let name_of = |(p, t): &(&'static str, &'static str)| (p.rsplit('/').next().unwrap_or(*p), *t);
    let traces: Vec<(&str, &str)> = task.traces.iter().map(name_of).collect();
    let bug_traces: Vec<(&str, &str)> = task.bug_traces.iter().map(name_of).collect();
    let etask = sysmo_grade::exercise::ExerciseTask { toml: &toml, files: task.files, traces: &traces, bug_traces: &bug_traces, graph: task.system_graph() };
    let name = format!("{}.tla", sysmo_grade::module_name(answer).unwrap_or_else(|| toml.pinned.module.clone()));
    let judged = sysmo_grade::exercise::judge(&etask, id, &name, answer, should_stop, progress)?;
    Ok((judged.verdict(), judged.report))
}

/// The worker's answer to one request: posts progress through `post` while it works, and
/// returns the last message (the report, or why there is none).
pub fn handle_request(text: &str, post: &mut dyn FnMut(WorkerMessage)) -> WorkerMessage {
    let req = match GradeRequest::from_json(text) {
        Ok(r) => r,
        Err(message) => return WorkerMessage::Failed { run: 0, message },
    };
    let run = req.run;
    if let Some(json) = &req.pack {
        // A pack the worker opened for an earlier request is not read again.
        if let Err(e) = sysmo_tasks::open_pack_json(json) {
            return WorkerMessage::Failed { run, message: format!("the task pack does not open: {e}") };
        }
    }
    if sysmo_tasks::task(&req.task).is_none() {
        return WorkerMessage::Failed { run, message: format!("no task `{}`", req.task) };
    }
    post(WorkerMessage::Progress { run, stage: "syntax".into(), slices: 0, syntax: None });
    // The syntax score comes first (the grader computes it again; it is cheap), so the page
    // can show it while the later stages run.
    let bug = match req.bug_model {
        true => match sysmo_tasks::task(&req.task).map(BugModel::of) {
            Some(Ok(Some(b))) => Some(b),
            Some(Err(message)) => return WorkerMessage::Failed { run, message },
            _ => return WorkerMessage::Failed { run, message: format!("the task `{}` has no bug model", req.task) },
        },
        false => None,
    };
    let text = bug.as_ref().map_or(req.model.as_str(), |b| b.text);
    // An answer to a write-invariant exercise is definitions, not a module: it has no syntax
    // score of its own.
    let property_answer = req.exercise.as_ref().is_some_and(|id| {
        let exercises = sysmo_tasks::task(&req.task).map(|t| crate::exercises::exercises_of(t.task_toml())).unwrap_or_default();
        exercises.iter().any(|e| e.id == *id && e.kind == sysmo_task_format::ExerciseKind::WriteInvariant)
    });
    let syntax = (!property_answer).then(|| crate::analyze_text(text).syntax_score);
    post(WorkerMessage::Progress { run, stage: "checking".into(), slices: 0, syntax });
    let slices = Cell::new(0u64);
    let post_cell = std::cell::RefCell::new(post);
    let should_stop = || {
        slices.set(slices.get() + 1);
        if let Ok(mut p) = post_cell.try_borrow_mut() {
            (*p)(WorkerMessage::Progress { run, stage: "checking".into(), slices: slices.get(), syntax });
        }
        false
    };
    let mut stage = |p: &sysmo_grade::Progress| {
        if let Ok(mut post) = post_cell.try_borrow_mut() {
            (*post)(WorkerMessage::Stage { run, progress: p.clone() });
        }
    };
    if let Some(id) = &req.exercise {
        return match judge_exercise(&req.task, id, &req.model, &should_stop, &mut stage) {
            Ok((verdict, Some(mut report))) => {
                hide(&req.task, &mut report);
                if let Ok(mut post) = post_cell.try_borrow_mut() {
                    (*post)(WorkerMessage::Report { run, report: Box::new(report) });
                }
                WorkerMessage::Exercise { run, verdict }
            }
            Ok((verdict, None)) => WorkerMessage::Exercise { run, verdict },
            Err(message) => WorkerMessage::Failed { run, message },
        };
    }
    let report = match &bug {
        Some(b) => grade_bug_model_with_progress(&req.task, b, &should_stop, &mut stage),
        None => grade_task_with_progress(&req.task, &req.model, req.cfg.as_deref(), req.mapping.as_deref(), &should_stop, &mut stage),
    };
    match report {
        Ok(mut report) => {
            hide(&req.task, &mut report);
            WorkerMessage::Report { run, report: Box::new(report) }
        }
        Err(message) => WorkerMessage::Failed { run, message },
    }
}

/// One of the five stages on the scorecard.
#[derive(Clone, Debug, PartialEq)]
pub struct StageCard {
    /// `syntax`, `runtime`, `conformance`, `invariants`, `precision`.
    pub key: String,
    pub score: f64,
    /// `ran`, `skipped` (a gate before it failed), `error`.
    pub status: String,
    pub reason: Option<String>,
    /// One line of what the stage found.
    pub summary: String,
}

/// Runtime coverage of one action.
#[derive(Clone, Debug, PartialEq)]
pub struct CoverageRow {
    pub action: String,
    /// It produced a successor in some simulated state.
    pub produced: bool,
    pub counted: bool,
    pub before_error: bool,
}

/// Conformance of one action.
#[derive(Clone, Debug, PartialEq)]
pub struct ConformanceRow {
    pub action: String,
    pub windows: u64,
    pub passed: u64,
    pub ok: bool,
    /// Where the first failing window is and why it fails.
    pub first_failure: Option<String>,
}

/// One state of a counterexample: the action that led to it and each variable's value.
#[derive(Clone, Debug, PartialEq)]
pub struct CexState {
    pub index: usize,
    pub action: Option<String>,
    pub values: Vec<(String, String)>,
}

/// A counterexample (ITF), as a list of states.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Counterexample {
    /// The ITF JSON as the grader produced it (the player reads and exports it).
    pub itf: Json,
    pub description: String,
    pub states: Vec<CexState>,
    /// The index of the state a liveness lasso loops back to.
    pub loop_to: Option<usize>,
}

/// One invariant's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct InvariantRow {
    pub name: String,
    pub kind: String,
    /// `hold` or `violate`.
    pub expect: String,
    /// `pass`, `fail`, `error`.
    pub verdict: String,
    pub result: String,
    pub message: Option<String>,
    pub counterexample: Option<Counterexample>,
}

/// A step the model allows and the code never takes (the precision stage).
#[derive(Clone, Debug, PartialEq)]
pub struct PrecisionRow {
    /// `LockSpin(t=0)`.
    pub step: String,
    pub message: String,
    /// The system state it departs from: each observed field and its value.
    pub from: Vec<(String, String)>,
    /// What the code does from there.
    pub code_steps: Vec<String>,
    /// The model's path to the step, for the player.
    pub counterexample: Counterexample,
}

/// What the scorecard shows, read from a report.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Scorecard {
    pub task: String,
    pub overall: f64,
    /// The mean of the five stages, when the task has a system graph.
    pub combined: Option<f64>,
    pub stages: Vec<StageCard>,
    /// `line:column code message` of every syntax diagnostic.
    pub diagnostics: Vec<String>,
    /// The runtime gate's result line, and its counterexample when it found an error.
    pub gate: Option<String>,
    pub gate_counterexample: Option<Counterexample>,
    pub simulation_errors: Vec<String>,
    pub coverage: Vec<CoverageRow>,
    pub conformance: Vec<ConformanceRow>,
    pub windows: String,
    pub invariants: Vec<InvariantRow>,
    /// The precision stage's figures in a line, and its over-permissive steps.
    pub precision_note: String,
    pub precision: Vec<PrecisionRow>,
    pub stopped: Option<String>,
}

fn s(v: &Json, k: &str) -> String {
    v.get(k).and_then(Json::as_str).unwrap_or("").to_string()
}

fn u(v: &Json, k: &str) -> u64 {
    v.get(k).and_then(Json::as_u64).unwrap_or(0)
}

fn list<'a>(v: &'a Json, k: &str) -> &'a [Json] {
    v.get(k).and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// Read an ITF trace into states.
pub fn counterexample(itf: &Json) -> Counterexample {
    let vars: Vec<String> = list(itf, "vars").iter().filter_map(|x| x.as_str().map(str::to_string)).collect();
    let states = list(itf, "states")
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let meta = st.get("#meta");
            CexState {
                index: meta.and_then(|m| m.get("index")).and_then(Json::as_u64).map(|x| x as usize).unwrap_or(i),
                action: meta.and_then(|m| m.get("action")).and_then(Json::as_str).map(str::to_string),
                values: vars.iter().map(|n| (n.clone(), st.get(n).map(tla_text).unwrap_or_default())).collect(),
            }
        })
        .collect();
    Counterexample {
        itf: itf.clone(),
        description: itf.get("#meta").map(|m| s(m, "description")).unwrap_or_default(),
        states,
        loop_to: itf.get("loop").and_then(Json::as_u64).map(|x| x as usize),
    }
}

/// The first failing window of an action, in a line: where, what the replay says, the first
/// conjunct of the action that was FALSE (with its operands' values) and the fields that differ.
fn failure_text(f: &Json) -> String {
    let mut out = String::new();
    let file = s(f, "file");
    if !file.is_empty() {
        out += &format!("{file}:{}: ", u(f, "line"));
    }
    out += &s(f, "message");
    if let Some(c) = f.get("first_false_conjunct").filter(|c| !c.is_null()) {
        out += &format!(" — FALSE: {}", s(c, "text"));
        let ops: Vec<String> = list(c, "operands").iter().map(|o| format!("{} = {}", s(o, "expr"), s(o, "value"))).collect();
        if !ops.is_empty() {
            out += &format!(" where {}", ops.join(", "));
        }
    }
    let diffs: Vec<String> =
        list(f, "differences").iter().map(|d| format!("{}: observed {}, model {}", s(d, "field"), s(d, "observed"), s(d, "model"))).collect();
    if !diffs.is_empty() {
        out += &format!(" — differs: {}", diffs.join("; "));
    }
    if out.trim().is_empty() { f.to_string() } else { out.trim().to_string() }
}

impl Scorecard {
    /// The scorecard of a report (sysmo-grade's own type, as the worker sent it).
    pub fn from_report(r: &Report) -> Scorecard {
        let (sy, rt, cf, iv, pr) = (&r.stages.syntax, &r.stages.runtime, &r.stages.conformance, &r.stages.invariants, &r.stages.precision);
        let diagnostics: Vec<String> =
            sy.diagnostics.iter().map(|d| format!("{}:{} {} {}", d.line, d.column, d.code, d.message)).collect();
        let coverage: Vec<CoverageRow> = rt
            .actions
            .iter()
            .map(|a| CoverageRow { action: a.action.clone(), produced: a.produced, counted: a.counted, before_error: a.before_error })
            .collect();
        let gate = rt.gate.as_ref().map(|g| {
            let mut line = format!(
                "gate {} ({}, {} distinct states, depth {})",
                if g.passed { "passed" } else { "failed" },
                g.result,
                g.distinct_states,
                g.depth
            );
            if let Some(m) = &g.message {
                line += &format!(": {m}");
            }
            line
        });
        let gate_counterexample = rt.gate.as_ref().and_then(|g| g.counterexample.as_ref()).filter(|c| !c.is_null()).map(counterexample);
        let simulation_errors = rt
            .simulation
            .iter()
            .flat_map(|sim| &sim.errors)
            .map(|e| format!("run {}: {} after {}", e.run, e.message, e.last_action.as_deref().unwrap_or("the initial state")))
            .collect();
        let conformance: Vec<ConformanceRow> = cf
            .actions
            .iter()
            .map(|a| ConformanceRow {
                action: a.action.clone(),
                windows: a.windows as u64,
                passed: a.passed as u64,
                ok: a.verdict == 1,
                first_failure: a.first_failure.as_ref().filter(|x| !x.is_null()).map(failure_text),
            })
            .collect();
        let invariants: Vec<InvariantRow> = iv
            .invariants
            .iter()
            .map(|i| InvariantRow {
                name: i.name.clone(),
                kind: i.kind.to_string(),
                expect: i.expect.to_string(),
                verdict: i.verdict.to_string(),
                result: i.result.clone(),
                message: i.message.clone(),
                counterexample: i.counterexample.as_ref().filter(|c| !c.is_null()).map(counterexample),
            })
            .collect();
        let precision: Vec<PrecisionRow> = pr
            .steps
            .iter()
            .map(|o| PrecisionRow {
                step: o.step.clone(),
                message: o.message.clone(),
                from: o.from.as_object().map(|m| m.iter().map(|(k, v)| (k.clone(), tla_text(v))).collect()).unwrap_or_default(),
                code_steps: o.code_steps.clone(),
                counterexample: counterexample(&o.counterexample),
            })
            .collect();
        let precision_note = match &pr.graph {
            Some(g) => format!(
                "{} of {} steps are the code's ({} over-permissive); {} of {} system states reached{}; system graph: {} states, {} steps, {}",
                pr.matched,
                pr.transitions,
                pr.over_permissive,
                pr.system_states - pr.unreached,
                pr.system_states,
                if pr.complete { "" } else { " (model explored within the budget)" },
                g.states,
                g.steps,
                if g.exhaustive { "searched exhaustively within its bounds".to_string() } else { format!("sampled from {} runs of the code", g.runs) }
            ),
            None => pr.reason.clone().unwrap_or_default(),
        };
        let errors = sy.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        let stage = |key: &str, score: f64, status: Status, reason: &Option<String>, summary: String| StageCard {
            key: key.to_string(),
            score,
            status: status.as_str().to_string(),
            reason: reason.clone(),
            summary,
        };
        let or_reason = |empty: bool, reason: &Option<String>, summary: String| {
            if empty { reason.clone().unwrap_or_default() } else { summary }
        };
        let stages = vec![
            stage(
                "syntax",
                sy.score,
                sy.status,
                &None,
                format!("{} of {} definitions parse; {} error(s)", sy.definitions.parsed, sy.definitions.total, errors),
            ),
            stage(
                "runtime",
                rt.score,
                rt.status,
                &rt.reason,
                or_reason(
                    coverage.is_empty(),
                    &rt.reason,
                    format!("{} of {} actions covered", coverage.iter().filter(|c| c.counted).count(), coverage.len()),
                ),
            ),
            stage(
                "conformance",
                cf.score,
                cf.status,
                &cf.reason,
                or_reason(
                    conformance.is_empty(),
                    &cf.reason,
                    format!("{} of {} actions conform", conformance.iter().filter(|c| c.ok).count(), conformance.len()),
                ),
            ),
            stage(
                "invariants",
                iv.score,
                iv.status,
                &iv.reason,
                or_reason(invariants.is_empty(), &iv.reason, format!("{} of {} pass", iv.passed, iv.checked)),
            ),
            stage(
                "precision",
                pr.score,
                pr.status,
                &pr.reason,
                or_reason(pr.graph.is_none(), &pr.reason, format!("{} of {} steps are the code's", pr.matched, pr.transitions)),
            ),
        ];
        Scorecard {
            task: r.task.clone(),
            overall: r.overall,
            combined: r.combined,
            stages,
            diagnostics,
            gate,
            gate_counterexample,
            simulation_errors,
            coverage,
            conformance,
            windows: format!(
                "windows {}/{} ({:.1}%); whole traces {}/{}",
                cf.windows_passed,
                cf.windows,
                100.0 * cf.window_pass_rate,
                cf.whole_traces_passed,
                cf.traces
            ),
            invariants,
            precision_note,
            precision,
            stopped: r.stopped.clone(),
        }
    }
}
