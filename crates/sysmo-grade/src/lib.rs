//! SysMoBench's grading of a TLA+ model against a task, in four stages:
//!
//! 1. **syntax** — 1.0 for a clean module, else 0.5 × definitions that check on their own / all
//!    definitions (`tla_sema::SyntaxScore`);
//! 2. **runtime** — gate: an exhaustive run with deadlock checking off finds no error within the
//!    task's budget; score: the share of actions (disjuncts of Next) that the task's seeded
//!    simulations saw produce a successor and never saw as the last step before an error;
//! 3. **conformance** — every trace replayed window by window: per target action 1 when all its
//!    windows pass, the mean over actions with windows; the window pass rate and the whole-trace
//!    pass rate beside it;
//! 4. **invariants** — each invariant of the task checked on its own under the budget; passed /
//!    checked.
//!
//! Syntax below 1 skips the rest; a failed gate or no coverage skips conformance and
//! invariants. Overall is the mean of the four.
//!
//! Architecture invariant: no I/O, no clock, no threads. Budgets are states and steps from the
//! task, so a model gets the same report on every machine; a caller's `should_stop` callback
//! (checked between slices of work) is only a safety net, and the report says when it fired.

#![forbid(unsafe_code)]

mod actions;
mod adapters;
pub mod exercise;
pub mod feedback;
mod precision;
pub mod itf;
pub mod progress;
mod steps;
pub mod report;
pub mod task;

use report::*;
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use tla_check::liveness::{LiveOptions, Step};
use tla_check::run::{LiveVerdict, Liveness, Run, RunStatus};
use tla_check::load::{self, Analyzed, Inputs};
use tla_check::model::{Model, ModelError};
use tla_check::simulate::{SimOptions, SimOutcome, SimStatus, Simulator};
use tla_check::{Budget, Explorer, Options, Outcome, Status as ExStatus, TraceStep};
use tla_sema::Library;
use tla_syntax::cfg::Config;
use tla_syntax::{SourceMap, Span};
use tla_trace::{parse_trace, Mapping, MappingExprs, Mode, Replayer, Summary};

pub use feedback::feedback;
pub use precision::projected_steps;
pub use tla_trace::precision::StepClass;
pub use progress::{Progress, StageState};
pub use report::Report;
use progress::Hooks;
pub use task::TaskSpec;

/// A task's files, as texts.
#[derive(Clone, Debug, Default)]
pub struct TaskInput<'a> {
    pub task_toml: &'a str,
    pub invariants_tla: &'a str,
    pub invariants_cfg: &'a str,
    /// `violations.cfg`: properties a faithful model must violate (tutorial tasks).
    pub violations_cfg: Option<&'a str>,
    /// (file name, NDJSON text) of every trace.
    pub traces: Vec<(&'a str, &'a str)>,
    /// The task's mapping (JSON), when its traces do not use the pinned names.
    pub mapping: Option<&'a str>,
    /// The system's behaviour graph (NDJSON, docs/system-graph.md), for the precision stage.
    pub system_graph: Option<&'a str>,
    /// A budget in distinct states in place of task.toml's `[check] max_states` (a bug model
    /// refuted beyond the grading budget: `[check] bug_max_states`).
    pub max_states: Option<u64>,
}

impl<'a> TaskInput<'a> {
    /// A task from its folder's files, as (path inside the folder, text) — `task.toml`, the
    /// invariants module (`<module>Invariants.tla`, or `invariants.tla`), `invariants.cfg`,
    /// `violations.cfg`, `mapping.json` — and its traces as (file name, text).
    pub fn from_folder(files: &[(&'a str, &'a str)], traces: &[(&'a str, &'a str)]) -> TaskInput<'a> {
        let get = |p: &str| files.iter().find(|(n, _)| *n == p).map(|(_, t)| *t);
        TaskInput {
            task_toml: get("task.toml").unwrap_or(""),
            invariants_tla: get("invariants.tla")
                .or_else(|| files.iter().find(|(n, _)| !n.contains('/') && n.ends_with("Invariants.tla")).map(|(_, t)| *t))
                .unwrap_or(""),
            invariants_cfg: get("invariants.cfg").unwrap_or(""),
            violations_cfg: get("violations.cfg"),
            traces: traces.to_vec(),
            mapping: get("mapping.json"),
            system_graph: None,
            max_states: None,
        }
    }

    /// The same task with its system graph.
    pub fn with_system_graph(self, graph: Option<&'a str>) -> TaskInput<'a> {
        TaskInput { system_graph: graph, ..self }
    }

    /// The same task explored to `max_states` distinct states (when given) instead of its
    /// task.toml's budget.
    pub fn with_max_states(self, max_states: Option<u64>) -> TaskInput<'a> {
        TaskInput { max_states: max_states.or(self.max_states), ..self }
    }
}

/// The model to grade.
#[derive(Clone, Debug, Default)]
pub struct ModelInput<'a> {
    /// A name for the report (e.g. the file's path).
    pub name: &'a str,
    pub text: &'a str,
    /// Its .cfg; when absent the task's constants are used (see [`TaskSpec::default_cfg`]).
    pub cfg: Option<&'a str>,
    /// A mapping that replaces the task's.
    pub mapping: Option<&'a str>,
}

/// States expanded (or steps simulated) between two calls of `should_stop`.
const SLICE: usize = 2_000;

/// The module name a TLA+ text declares (`---- MODULE name ----`), if any.
pub fn module_name(text: &str) -> Option<String> {
    let mut words = text.split(|c: char| c.is_whitespace() || c == '-');
    while let Some(w) = words.next() {
        if w == "MODULE" {
            let name = words.find(|w| !w.is_empty())?;
            let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            return ok.then(|| name.to_string());
        }
    }
    None
}

fn stage_skipped_runtime(reason: &str) -> RuntimeStage {
    RuntimeStage { score: 0.0, status: Status::Skipped, reason: Some(reason.into()), gate: None, actions_from: "".into(), actions: vec![], simulation: None }
}

fn conformance_empty(status: Status, reason: String) -> ConformanceStage {
    ConformanceStage {
        score: 0.0,
        status,
        reason: Some(reason),
        traces: 0,
        windows: 0,
        windows_passed: 0,
        window_pass_rate: 0.0,
        whole_traces_passed: 0,
        whole_trace_rate: 0.0,
        actions: vec![],
        per_trace: vec![],
    }
}

fn invariants_empty(status: Status, reason: String) -> InvariantsStage {
    InvariantsStage { score: 0.0, status, reason: Some(reason), checked: 0, passed: 0, invariants: vec![] }
}

/// The kind name of a model error, as `sysmo check` reports it.
fn error_kind(e: &ModelError) -> &'static str {
    match e {
        // TLC classifies a false POSTCONDITION with the false assumptions (exit code 10).
        ModelError::AssumptionFalse { .. } | ModelError::PostconditionFalse { .. } | ModelError::PostconditionFailed { .. } => {
            "assumption_violation"
        }
        ModelError::ActionProperty { .. } => "action_property_violation",
        ModelError::Eval(v) if v.code == tla_eval::error::codes::ASSERT => "assertion_failure",
        ModelError::Eval(_) => "eval_error",
    }
}

fn error_message(sources: &SourceMap, e: &ModelError) -> String {
    let d = e.to_diagnostic(Span::default());
    tla_syntax::diag::one_line(sources, &d)
}

/// ITF of a path of the model, each state with the action that led to it (and, in
/// `#meta.step`, the named action and parameters that take the step: [`steps`]).
fn itf_of(model: &Model<'_>, source: &str, what: &str, trace: &[TraceStep<tla_eval::State>]) -> Json {
    let names = model.action_names();
    let states: Vec<itf::ItfState<'_>> = trace
        .iter()
        .map(|t| itf::ItfState { action: t.action.and_then(|a| names.get(a as usize)).map(String::as_str), values: &t.state })
        .collect();
    let mut out = itf::trace(source, what, &model.variables(), &states);
    let raw: Vec<&tla_eval::State> = trace.iter().map(|t| &t.state).collect();
    steps::name_steps(model, &mut out, &raw);
    out
}

/// The model analysed with its configuration, ready for the later stages.
struct Loaded {
    inputs: Inputs,
    cfg_text: String,
}

/// Grade `model` against `task`. `should_stop` is called between slices of work; when it
/// returns true the current stage ends early and the report says so.
pub fn grade(task: &TaskInput<'_>, model: &ModelInput<'_>, should_stop: &dyn Fn() -> bool) -> Report {
    grade_with_progress(task, model, should_stop, &mut |_| {})
}

/// [`grade`], telling `progress` where the work stands at every slice (before `should_stop` is
/// asked) and when each stage ends: a stage's last report has [`StageState::Done`] with its
/// score and status, and every stage gets one, in order, the gated ones included.
pub fn grade_with_progress(
    task: &TaskInput<'_>,
    model: &ModelInput<'_>,
    should_stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(&Progress),
) -> Report {
    let mut told = 0usize;
    let report = {
        let mut tell = |p: &Progress| {
            if p.state != StageState::Running {
                told += 1;
            }
            progress(p);
        };
        let hooks = Hooks::new(should_stop, &mut tell);
        grade_stages(task, model, &hooks)
    };
    // The stages that a gate skipped (or an error cut short) end here.
    for (stage, score, status) in report.stages.scores().into_iter().skip(told) {
        progress(&Progress::done(stage, score, status));
    }
    report
}

fn grade_stages(task: &TaskInput<'_>, model: &ModelInput<'_>, hooks: &Hooks<'_>) -> Report {
    let spec = TaskSpec::parse(task.task_toml).map(|mut s| {
        if let Some(n) = task.max_states {
            s.max_states = n;
        }
        s
    });
    let (task_id, spec) = match spec {
        Ok(s) => (s.id.clone(), Ok(s)),
        Err(e) => (String::new(), Err(e)),
    };
    let mut stopped: Option<String> = None;

    // 1. Syntax.
    let name = module_name(model.text).unwrap_or_else(|| spec.as_ref().map(|s| s.module.clone()).unwrap_or_else(|_| "Model".into()));
    let analyzed = Analyzed::new(format!("{name}.tla"), model.text, &Library::new());
    let (sources, analysis) = (&analyzed.sources, &analyzed.analysis);
    let syntax = SyntaxStage {
        score: analysis.score.score,
        status: Status::Ran,
        clean: analysis.score.clean,
        definitions: Definitions { total: analysis.score.total, parsed: analysis.score.parsed },
        diagnostics: analysis.diagnostics.iter().map(|d| tla_syntax::diag::to_json(sources, d)).collect(),
    };
    hooks.tell(&Progress::done("syntax", syntax.score, syntax.status));
    let has_graph = task.system_graph.is_some();
    let finish = |syntax: SyntaxStage, runtime: RuntimeStage, conformance: ConformanceStage, invariants: InvariantsStage, precision: Option<PrecisionStage>, stopped: Option<String>| {
        let overall = (syntax.score + runtime.score + conformance.score + invariants.score) / 4.0;
        let precision = precision.unwrap_or_else(|| {
            if has_graph {
                PrecisionStage::not_run(Status::Skipped, "an earlier stage's gate failed")
            } else {
                PrecisionStage::not_run(Status::Skipped, "the task has no system graph")
            }
        });
        let combined = has_graph.then(|| (4.0 * overall + precision.score) / 5.0);
        Report {
            schema: SCHEMA.into(),
            task: task_id.clone(),
            model: model.name.to_string(),
            overall,
            combined,
            stages: Stages { syntax, runtime, conformance, invariants, precision },
            stopped,
            elapsed: None,
        }
    };
    let spec = match spec {
        Ok(s) => s,
        Err(e) => {
            let msg = format!("the task cannot be read: {e}");
            return finish(syntax, RuntimeStage { status: Status::Error, ..stage_skipped_runtime(&msg) }, conformance_empty(Status::Error, msg.clone()), invariants_empty(Status::Error, msg), None, None);
        }
    };
    if syntax.score < 1.0 {
        let why = "syntax score below 1".to_string();
        return finish(syntax, stage_skipped_runtime(&why), conformance_empty(Status::Skipped, why.clone()), invariants_empty(Status::Skipped, why), None, None);
    }

    // The configuration: the model's own, or the task's constants.
    let has_spec = analysis.symbol("Spec").is_some_and(|s| s.arity == 0);
    let cfg_text = model.cfg.map(str::to_string).unwrap_or_else(|| spec.default_cfg(has_spec));
    let inputs = match analyzed.configure(format!("{name}.cfg"), &cfg_text) {
        Ok(inputs) => inputs,
        Err((failure, sources)) => {
            let errors: Vec<String> = failure.diagnostics.iter().map(|d| tla_syntax::diag::one_line(&sources, d)).collect();
            let msg = format!("the configuration has errors: {}", errors.join("; "));
            let runtime = RuntimeStage { status: Status::Error, ..stage_skipped_runtime(&msg) };
            let why = "the runtime stage could not run".to_string();
            return finish(syntax, runtime, conformance_empty(Status::Skipped, why.clone()), invariants_empty(Status::Skipped, why), None, None);
        }
    };
    let loaded = Loaded { inputs, cfg_text };

    // 2. Runtime.
    let runtime = runtime_stage(&spec, &loaded, &name, hooks, &mut stopped);
    hooks.tell(&Progress::done("runtime", runtime.score, runtime.status));
    let gate_ok = runtime.gate.as_ref().is_some_and(|g| g.passed);
    if !gate_ok || runtime.score == 0.0 {
        let why = if !gate_ok { "the runtime gate failed" } else { "no action was covered" }.to_string();
        return finish(syntax, runtime, conformance_empty(Status::Skipped, why.clone()), invariants_empty(Status::Skipped, why), None, stopped);
    }

    // 3. Conformance.
    let conformance = conformance_stage(&spec, task, model, &loaded, hooks, &mut stopped);
    hooks.tell(&Progress::done("conformance", conformance.score, conformance.status));

    // 4. Invariants.
    // The gate explored the same state space: whether it explored all of it tells whether the
    // properties' runs will (see `explore_checks`).
    let whole_space = runtime.gate.as_ref().is_some_and(|g| g.result == "success");
    let invariants = invariants_stage(&spec, task, model, &name, &loaded.cfg_text, whole_space, hooks, &mut stopped);
    hooks.tell(&Progress::done("invariants", invariants.score, invariants.status));

    // 5. Precision, when the model conforms.
    let precision = match task.system_graph {
        None => None,
        Some(_) if conformance.score < 1.0 => Some(PrecisionStage::not_run(Status::Skipped, "the model does not conform to the traces")),
        Some(text) => Some(precision::stage(&spec, task, model, &loaded.inputs, &name, text, hooks, &mut stopped)),
    };
    if let Some(p) = &precision {
        hooks.tell(&Progress::done("precision", p.score, p.status));
    }
    finish(syntax, runtime, conformance, invariants, precision, stopped)
}

fn runtime_stage(spec: &TaskSpec, loaded: &Loaded, name: &str, hooks: &Hooks<'_>, stopped: &mut Option<String>) -> RuntimeStage {
    let source = format!("{name}.tla");
    let m = match loaded.inputs.model() {
        Ok(m) => m,
        Err(failure) => {
            let msg = failure.first_line(&loaded.inputs.sources);
            return RuntimeStage { status: Status::Error, ..stage_skipped_runtime(&format!("the model cannot be built: {msg}")) };
        }
    };
    let mut gate = Gate {
        passed: false,
        result: String::new(),
        message: None,
        distinct_states: 0,
        states_generated: 0,
        depth: 0,
        max_states: spec.max_states,
        max_depth: spec.max_depth,
        counterexample: None,
    };
    let actions = m.action_names();
    if let Err(e) = m.check_assumptions() {
        gate.result = error_kind(&e).into();
        gate.message = Some(error_message(&loaded.inputs.sources, &e));
        return RuntimeStage { score: 0.0, status: Status::Ran, reason: None, gate: Some(gate), actions_from: "".into(), actions: vec![], simulation: None };
    }

    // The gate: exhaustive, deadlock off, within the task's budget.
    let opts = Options { check_deadlock: false, max_states: Some(spec.max_states), max_depth: Some(spec.max_depth) };
    let mut ex = Explorer::new(&m, opts);
    let gate_progress = |st: tla_check::Stats| {
        Progress { states: st.generated as u64, distinct: st.distinct as u64, depth: st.depth as u64, max_states: spec.max_states as u64, ..Progress::new("runtime", "gate") }
    };
    let outcome = loop {
        match ex.run(SLICE) {
            ExStatus::Done(o) => break Some(o),
            ExStatus::Running if hooks.slice(&gate_progress(ex.stats())) => break None,
            ExStatus::Running => {}
        }
    };
    hooks.tell(&gate_progress(ex.stats()));
    let st = ex.stats();
    gate.distinct_states = st.distinct;
    gate.states_generated = st.generated;
    gate.depth = st.depth;
    match outcome {
        None => {
            *stopped = Some("runtime".into());
            gate.passed = true;
            gate.result = "stopped".into();
            gate.message = Some("stopped by the time limit with no error found so far".into());
        }
        Some(Outcome::Success) => {
            gate.passed = true;
            gate.result = "success".into();
        }
        Some(Outcome::BudgetExhausted(b)) => {
            gate.passed = true;
            gate.result = "budget_exhausted".into();
            gate.message = Some(match b {
                Budget::States(n) => format!("the limit of {n} distinct states was reached with no error"),
                Budget::Depth(d) => format!("states at depth {d} were not expanded; no error found"),
            });
        }
        Some(Outcome::InvariantViolated { invariant, trace }) => {
            let inv = m.invariant_names().get(invariant).cloned().unwrap_or_default();
            gate.result = "safety_violation".into();
            gate.message = Some(format!("Invariant {inv} is violated."));
            gate.counterexample = Some(itf_of(&m, &source, &format!("invariant {inv} is violated"), &trace));
        }
        Some(Outcome::Deadlock { trace }) => {
            gate.result = "deadlock".into();
            gate.message = Some("Deadlock reached.".into());
            gate.counterexample = Some(itf_of(&m, &source, "deadlock reached", &trace));
        }
        Some(Outcome::Error { error, trace }) => {
            gate.result = error_kind(&error).into();
            let msg = error_message(&loaded.inputs.sources, &error);
            if !trace.is_empty() {
                gate.counterexample = Some(itf_of(&m, &source, &msg, &trace));
            }
            gate.message = Some(msg);
        }
    }

    // The score: the task's seeded simulations.
    let sim = &spec.simulation;
    let named = actions::named_actions(&m);
    let cov = actions::Covered::new(&m, named.clone().unwrap_or_default());
    if named.is_none() {
        *cov.failed.borrow_mut() = true;
    }
    let mut generated = vec![0u64; actions.len()];
    let mut before_error = vec![false; actions.len()];
    let mut named_before_error = vec![false; cov.names.len()];
    let mut summary = SimulationSummary {
        runs: sim.count,
        behaviours_per_run: sim.behaviours,
        depth: sim.depth,
        seed: sim.seed,
        behaviours: 0,
        steps: 0,
        errors: vec![],
    };
    let sim_progress = |behaviours: u64| Progress {
        behaviours,
        behaviours_total: sim.count as u64 * sim.behaviours as u64,
        ..Progress::new("runtime", "simulation")
    };
    'runs: for run in 0..sim.count {
        let opts = SimOptions { depth: sim.depth, behaviours: sim.behaviours, seed: sim.seed.wrapping_add(run), check_deadlock: false };
        let mut s = Simulator::new(&cov, opts);
        let outcome = loop {
            match s.run(SLICE as u64) {
                SimStatus::Done(o) => break o,
                SimStatus::Running if hooks.slice(&sim_progress(summary.behaviours as u64 + s.stats().behaviours as u64)) => {
                    *stopped = Some("runtime".into());
                    break 'runs;
                }
                SimStatus::Running => {}
            }
        };
        for (i, c) in s.coverage().iter().enumerate() {
            if let Some(g) = generated.get_mut(i) {
                *g += c.generated;
            }
        }
        summary.behaviours += s.stats().behaviours;
        summary.steps += s.stats().steps;
        let failed = match outcome {
            SimOutcome::Success => None,
            SimOutcome::InvariantViolated { invariant, behaviour, trace } => {
                let inv = m.invariant_names().get(invariant).cloned().unwrap_or_default();
                Some((behaviour, "safety_violation".to_string(), format!("Invariant {inv} is violated."), trace))
            }
            SimOutcome::Deadlock { behaviour, trace } => Some((behaviour, "deadlock".into(), "Deadlock reached.".into(), trace)),
            SimOutcome::Error { error, behaviour, trace } => {
                Some((behaviour, error_kind(&error).to_string(), error_message(&loaded.inputs.sources, &error), trace))
            }
        };
        if let Some((behaviour, result, message, trace)) = failed {
            let last = trace.last().and_then(|t| t.action);
            if let Some(b) = last.and_then(|a| before_error.get_mut(a as usize)) {
                *b = true;
            }
            let mut last_action = last.and_then(|a| actions.get(a as usize)).cloned();
            if trace.len() >= 2 && last.is_some() {
                let by = cov.actions_of_step(&trace[trace.len() - 2].state, &trace[trace.len() - 1].state);
                for &i in &by {
                    named_before_error[i] = true;
                }
                if !*cov.failed.borrow() && !by.is_empty() {
                    last_action = Some(by.iter().map(|&i| cov.names[i].clone()).collect::<Vec<_>>().join(" | "));
                }
            }
            summary.errors.push(SimulationError { run, behaviour, result, message, last_action });
        }
        // A run is a slice too (a run may fit in one call of the simulator).
        if hooks.slice(&sim_progress(summary.behaviours as u64)) && run + 1 < sim.count {
            *stopped = Some("runtime".into());
            break;
        }
    }
    let by_name = !*cov.failed.borrow();
    let rows: Vec<ActionCoverage> = if by_name {
        let enabled = cov.enabled.borrow();
        cov.names
            .iter()
            .enumerate()
            .map(|(i, a)| ActionCoverage {
                action: a.clone(),
                produced: enabled[i],
                before_error: named_before_error[i],
                counted: enabled[i] && !named_before_error[i],
            })
            .collect()
    } else {
        actions
            .iter()
            .enumerate()
            .map(|(i, a)| ActionCoverage {
                action: a.clone(),
                produced: generated[i] > 0,
                before_error: before_error[i],
                counted: generated[i] > 0 && !before_error[i],
            })
            .collect()
    };
    let score = if rows.is_empty() { 0.0 } else { rows.iter().filter(|r| r.counted).count() as f64 / rows.len() as f64 };
    let actions_from = if by_name { "next_disjuncts" } else { "model_split" };
    RuntimeStage { score, status: Status::Ran, reason: None, gate: Some(gate), actions_from: actions_from.into(), actions: rows, simulation: Some(summary) }
}

/// The mapping from the traces' vocabulary to the model's: the model's own, else the task's,
/// else the identity.
fn mapping_of(task: &TaskInput<'_>, input: &ModelInput<'_>) -> Result<(Mapping, MappingExprs), String> {
    let (map_name, map_text) = match (input.mapping, task.mapping) {
        (Some(m), _) => ("mapping.json (model)", Some(m)),
        (None, Some(m)) => ("mapping.json (task)", Some(m)),
        (None, None) => ("", None),
    };
    let mapping = match map_text {
        Some(t) => Mapping::parse(map_name, t).map_err(|e| format!("the mapping cannot be read: {}", e.message))?,
        None => Mapping::identity(),
    };
    let exprs = MappingExprs::parse(&mapping, map_name).map_err(|e| format!("the mapping cannot be read: {}", e.message))?;
    Ok((mapping, exprs))
}

fn conformance_stage(
    spec: &TaskSpec,
    task: &TaskInput<'_>,
    input: &ModelInput<'_>,
    loaded: &Loaded,
    hooks: &Hooks<'_>,
    stopped: &mut Option<String>,
) -> ConformanceStage {
    let (mapping, exprs) = match mapping_of(task, input) {
        Ok(m) => m,
        Err(e) => return conformance_empty(Status::Error, e),
    };
    let mut m = match loaded.inputs.model() {
        Ok(m) => m,
        Err(_) => return conformance_empty(Status::Error, "the model cannot be built".into()),
    };
    let interner_w = m.interner();
    let interner_h = m.interner();
    let budget = usize::try_from(spec.max_states).unwrap_or(usize::MAX);
    let windows = Replayer::new(&m, interner_w, &mapping, &exprs, Some(&loaded.inputs.sources), tla_trace::Options { mode: Mode::Windows, max_states: budget });
    let whole = Replayer::new(&m, interner_h, &mapping, &exprs, Some(&loaded.inputs.sources), tla_trace::Options { mode: Mode::Whole, max_states: budget });
    let mut w_sum = Summary::default();
    let mut whole_passed = 0;
    let mut first: BTreeMap<String, Json> = BTreeMap::new();
    let mut per_trace = vec![];
    // The bar's total: the steps of the traces that parse (one that does not ends the stage).
    let steps_total: usize = task.traces.iter().filter_map(|(f, t)| parse_trace(f, t).ok()).map(|t| t.steps.len()).sum();
    let mut at = Progress { traces_total: task.traces.len() as u64, steps_total: steps_total as u64, ..Progress::new("conformance", "") };
    for (file, text) in &task.traces {
        at.phase = file.to_string();
        if hooks.slice(&at) {
            *stopped = Some("conformance".into());
            break;
        }
        let trace = match parse_trace(file, text) {
            Ok(t) => t,
            Err(e) => return conformance_empty(Status::Error, format!("trace {file} cannot be read: {}", e.message)),
        };
        let w = match windows.replay(&trace) {
            Ok(r) => r,
            Err(e) => return conformance_empty(Status::Error, format!("trace {file}: {} {}", e.code, e.message)),
        };
        // The window replay tells the whole-trace result when it carries hidden state; only
        // otherwise is the trace replayed whole.
        let h = match w.whole {
            Some(r) => r,
            None => match whole.replay(&trace) {
                Ok(r) => r.result,
                Err(e) => return conformance_empty(Status::Error, format!("trace {file}: {} {}", e.code, e.message)),
            },
        };
        w_sum.add(&w);
        whole_passed += usize::from(h == "pass");
        if let Some(d) = &w.first_failure {
            first.entry(d.model_action.clone()).or_insert_with(|| d.to_json());
        }
        per_trace.push(TraceLine { file: file.to_string(), windows: w.windows, windows_passed: w.windows_passed, whole: h.to_string() });
        at.traces += 1;
        at.windows += w.windows as u64;
        at.steps += trace.steps.len() as u64;
    }
    at.phase.clear();
    hooks.tell(&at);
    let actions: Vec<ActionVerdict> = w_sum
        .verdicts()
        .into_iter()
        .map(|(a, v)| {
            let (n, p) = w_sum.per_action[&a];
            ActionVerdict { first_failure: if v == 0 { first.get(&a).cloned() } else { None }, action: a, windows: n, passed: p, verdict: v }
        })
        .collect();
    let traces = w_sum.traces;
    ConformanceStage {
        score: w_sum.action_score(),
        status: Status::Ran,
        reason: None,
        traces,
        windows: w_sum.windows,
        windows_passed: w_sum.windows_passed,
        window_pass_rate: w_sum.window_pass_rate(),
        whole_traces_passed: whole_passed,
        whole_trace_rate: if traces == 0 { 0.0 } else { whole_passed as f64 / traces as f64 },
        actions,
        per_trace,
    }
}

/// One property to check: its name, INVARIANT or PROPERTY, and whether it must hold or be violated.
struct Check {
    ident: tla_syntax::ast::Ident,
    invariant: bool,
    must_hold: bool,
}

fn invariants_stage(
    spec: &TaskSpec,
    task: &TaskInput<'_>,
    input: &ModelInput<'_>,
    name: &str,
    cfg_text: &str,
    whole_space: bool,
    hooks: &Hooks<'_>,
    stopped: &mut Option<String>,
) -> InvariantsStage {
    let inv_name = module_name(task.invariants_tla).unwrap_or_else(|| format!("{}Invariants", spec.module));
    // The model is the module the invariants EXTEND.
    let library = Library::new().with(name, format!("{name}.tla"), input.text);
    let mut analyzed = Analyzed::new(format!("{inv_name}.tla"), task.invariants_tla, &library);
    // A model with actions of its own (no-hints): the pinned actions the invariants name are
    // defined as the model's actions the mapping maps them to.
    let mut adapter_notes: Vec<String> = vec![];
    if analyzed.analysis.has_errors()
        && let Ok((mapping, _)) = mapping_of(task, input)
        && let Some(inv) = analyzed.analysis.root.and_then(|r| analyzed.analysis.modules.get(r))
        && let Some(model) = analyzed.analysis.modules.iter().find(|m| m.name.name == name)
    {
        let a = adapters::adapters(&spec.action_params, &adapters::operators(model), &mapping);
        if let Some(text) = adapters::splice(task.invariants_tla, inv, &a.definitions) {
            analyzed = Analyzed::new(format!("{inv_name}.tla"), text, &library);
        }
        adapter_notes = a.unmatched;
    }
    let Analyzed { mut sources, analysis, .. } = analyzed;
    // What to check: invariants.cfg (must hold), violations.cfg (must be violated).
    let mut checks: Vec<Check> = vec![];
    for (file, text, must_hold) in [("invariants.cfg", Some(task.invariants_cfg), true), ("violations.cfg", task.violations_cfg, false)] {
        let Some(text) = text else { continue };
        let id = sources.add(file.to_string(), text.to_string());
        let out = tla_syntax::cfg::parse_cfg(id, text);
        checks.extend(out.config.invariants.iter().map(|i| Check { ident: i.clone(), invariant: true, must_hold }));
        checks.extend(out.config.properties.iter().map(|i| Check { ident: i.clone(), invariant: false, must_hold }));
    }
    if checks.is_empty() {
        return invariants_empty(Status::Error, "the task lists no invariant".into());
    }
    let base_id = sources.add(format!("{name}.cfg"), cfg_text.to_string());
    let mut base = tla_syntax::cfg::parse_cfg(base_id, cfg_text).config;
    base.invariants.clear();
    base.properties.clear();
    base.check_deadlock = Some(false);
    let analysis_error = analysis.has_errors().then(|| {
        let errs: Vec<String> = analysis.diagnostics.iter().filter(|d| d.is_error()).take(3).map(|d| tla_syntax::diag::one_line(&sources, d)).collect();
        let notes = if adapter_notes.is_empty() { String::new() } else { format!(" ({})", adapter_notes.join("; ")) };
        format!("the invariants do not check against this model: {}{notes}", errs.join("; "))
    });
    let mut rows: Vec<InvariantResult> = checks
        .iter()
        .map(|c| InvariantResult {
            name: c.ident.name.clone(),
            kind: if c.invariant { "invariant" } else { "property" }.into(),
            expect: if c.must_hold { "hold" } else { "violate" }.into(),
            verdict: "error".into(),
            result: "error".into(),
            message: analysis_error.clone(),
            distinct_states: 0,
            counterexample: None,
        })
        .collect();
    let mut at = Progress { checks_total: checks.len() as u64, max_states: spec.max_states as u64, ..Progress::new("invariants", "") };
    if analysis_error.is_none() {
        check_all(spec, &analysis, &base, &sources, &checks, &mut rows, whole_space, hooks, &mut at, stopped);
    }
    for (c, row) in checks.iter().zip(rows.iter_mut()) {
        if row.result != "error" {
            let violated = row.result == "violated";
            row.verdict = if violated != c.must_hold { "pass" } else { "fail" }.into();
        }
    }
    at.phase.clear();
    at.checked = rows.len() as u64;
    hooks.tell(&at);
    let passed = rows.iter().filter(|r| r.verdict == "pass").count();
    InvariantsStage {
        score: passed as f64 / rows.len() as f64,
        status: Status::Ran,
        reason: None,
        checked: rows.len(),
        passed,
        invariants: rows,
    }
}

/// Checks every property with as few explorations as it takes: one run checks all the
/// properties not yet decided; a violation decides the property it names (with its
/// counterexample), and the others are checked again without it, but after a temporal
/// property's violation, which comes once the whole graph is built: the same run then goes on
/// with the temporal properties after it on that graph, and decides them all, and every
/// invariant with them (see `explore_checks`). A model that violates
/// nothing is explored once, whatever the number of properties. Exploration does not depend on
/// which properties are checked, so each property gets the verdict, the shortest
/// counterexample and the state count that a run of its own gives. An outcome that names no
/// property (an evaluation error, a model that cannot be built) sends each property left to a
/// run of its own, so that the error is reported where it belongs.
#[allow(clippy::too_many_arguments)]
fn check_all(
    spec: &TaskSpec,
    analysis: &tla_sema::Analysis,
    base: &Config,
    sources: &SourceMap,
    checks: &[Check],
    rows: &mut [InvariantResult],
    whole_space: bool,
    hooks: &Hooks<'_>,
    at: &mut Progress,
    stopped: &mut Option<String>,
) {
    let config_of = |which: &[usize]| {
        let mut config = base.clone();
        for &k in which {
            if checks[k].invariant {
                config.invariants.push(checks[k].ident.clone());
            } else {
                config.properties.push(checks[k].ident.clone());
            }
        }
        config
    };
    let mut open: Vec<usize> = (0..checks.len()).collect();
    while !open.is_empty() {
        if stopped.is_some() {
            for k in open.drain(..) {
                rows[k].message = Some("not checked: the time limit was reached".into());
            }
            break;
        }
        at.checked = (checks.len() - open.len()) as u64;
        at.phase = if open.len() == 1 { checks[open[0]].ident.name.clone() } else { format!("{} properties", open.len()) };
        hooks.tell(at);
        let config = config_of(&open);
        let mut run = PropertyRun::new(rows[open[0]].clone());
        explore_checks(spec, analysis, &config, sources, &mut run, whole_space, hooks, at, stopped);
        let name = run.violated.take();
        let decided = name.as_deref().and_then(|n| open.iter().position(|&k| checks[k].ident.name == n));
        match decided {
            // One property violated: it is decided, and so are the later violations and the
            // rest when the run went on to them; else the rest run again.
            Some(pos) => {
                let k = open.remove(pos);
                let fill = |r: &InvariantResult, by: InvariantResult| InvariantResult { name: r.name.clone(), kind: r.kind.clone(), expect: r.expect.clone(), ..by };
                rows[k] = fill(&rows[k], run.row);
                // A later violation that names no property left means the run's names are not
                // the checks' (a property split in parts): then the rest run again.
                let mut named = true;
                for (name, row) in std::mem::take(&mut run.later) {
                    match open.iter().position(|&k| checks[k].ident.name == name) {
                        Some(pos) => {
                            let k = open.remove(pos);
                            rows[k] = fill(&rows[k], row);
                        }
                        None => named = false,
                    }
                }
                if let Some(rest) = run.rest.take().filter(|_| named) {
                    for k in std::mem::take(&mut open) {
                        rows[k] = fill(&rows[k], rest.clone());
                    }
                }
            }
            // No violation (or the time limit): the run decides every property left.
            None if run.row.result != "error" && name.is_none() => {
                for &k in &open {
                    let r = &mut rows[k];
                    r.result = run.row.result.clone();
                    r.message = run.row.message.clone();
                    r.distinct_states = run.row.distinct_states;
                }
                open.clear();
            }
            // An error that names no property: each property left on its own.
            None if open.len() > 1 => {
                for k in std::mem::take(&mut open) {
                    at.checked = k as u64;
                    at.phase = checks[k].ident.name.clone();
                    hooks.tell(at);
                    if stopped.is_some() {
                        rows[k].message = Some("not checked: the time limit was reached".into());
                        continue;
                    }
                    let mut one = PropertyRun::new(rows[k].clone());
                    explore_checks(spec, analysis, &config_of(&[k]), sources, &mut one, whole_space, hooks, at, stopped);
                    rows[k] = one.row;
                }
            }
            None => {
                rows[open[0]] = run.row;
                open.clear();
            }
        }
    }
}

/// What one run found: the row it fills in, and the name of the property it found violated.
/// After a temporal property's violation, the run goes on with the temporal properties after
/// it on the same graph: `later` holds the further violations, and `rest` the row that every
/// other property of the run shares (None when the run could not go on).
struct PropertyRun {
    row: InvariantResult,
    violated: Option<String>,
    later: Vec<(String, InvariantResult)>,
    rest: Option<InvariantResult>,
}

impl PropertyRun {
    fn new(row: InvariantResult) -> PropertyRun {
        PropertyRun { row, violated: None, later: vec![], rest: None }
    }

    /// The row of the run's properties that no violation decided: the run's own row when none
    /// was found, else `rest`.
    fn settle(&mut self, row: InvariantResult) {
        if self.violated.is_some() {
            self.rest = Some(row);
        } else {
            self.row = row;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn explore_checks(
    spec: &TaskSpec,
    analysis: &tla_sema::Analysis,
    config: &Config,
    sources: &SourceMap,
    run: &mut PropertyRun,
    whole_space: bool,
    hooks: &Hooks<'_>,
    at: &Progress,
    stopped: &mut Option<String>,
) {
    let row = &mut run.row;
    let source = format!("{}.tla", spec.module);
    let m = match load::build_checked(analysis, config) {
        Ok(m) => m,
        Err(failure) => {
            row.message = Some(failure.first_line(sources));
            return;
        }
    };
    let invariant_names = m.invariant_names();
    let opts = Options { check_deadlock: false, max_states: Some(spec.max_states), max_depth: Some(spec.max_depth) };
    // Temporal properties are checked on the graph of the run, kept from the start only when
    // the runtime gate explored the whole state space (see `tla_check::run`). A depth or
    // state limit leaves the graph unfinished; liveness then explores on its own, under the
    // state budget alone, and a violation it finds in that graph stands.
    let liveness = Liveness::OnGraph {
        from_start: whole_space,
        after_budget_cut: true,
        opts: LiveOptions { max_states: Some(spec.max_states), ..Default::default() },
    };
    let explored = |st: tla_check::Stats| {
        Progress { states: st.generated as u64, distinct: st.distinct as u64, depth: st.depth as u64, ..at.clone() }
    };
    let mut checking = Run::new(&m, opts, liveness);
    // One slice after another until the run ends; None when the time limit stopped it.
    let mut drive = |checking: &mut Run<'_, '_>, row: &mut InvariantResult| loop {
        let (slice_at, distinct) = match checking.run(SLICE) {
            RunStatus::Done(f) => return Some(*f),
            RunStatus::Exploring(st) => (explored(st.clone()), st.distinct),
            RunStatus::CheckingLiveness(st) => (at.clone(), st.distinct),
        };
        if hooks.slice(&slice_at) {
            *stopped = Some("invariants".into());
            row.distinct_states = distinct;
            row.result = "budget_exhausted".into();
            row.message = Some("stopped by the time limit with no violation found so far".into());
            return None;
        }
    };
    let Some(mut finished) = drive(&mut checking, &mut run.row) else { return };
    let row = &mut run.row;
    row.distinct_states = finished.stats.distinct;
    let what = |name: &str| format!("property {name} is violated");
    // An error: its message, and the path to it when there is one.
    let failed = |row: &mut InvariantResult, error: &ModelError, trace: &[TraceStep<tla_eval::State>]| {
        let msg = error_message(sources, error);
        if !trace.is_empty() {
            row.counterexample = Some(itf_of(&m, &source, &msg, trace));
        }
        row.message = Some(msg);
    };
    let mut exhausted = false;
    match finished.outcome {
        Outcome::InvariantViolated { invariant, trace } => {
            let name = invariant_names.get(invariant).cloned().unwrap_or_default();
            row.result = "violated".into();
            row.counterexample = Some(itf_of(&m, &source, &what(&name), &trace));
            run.violated = Some(name);
            return;
        }
        Outcome::Error { error: ModelError::ActionProperty { name }, trace } => {
            row.result = "violated".into();
            row.counterexample = Some(itf_of(&m, &source, &what(&name), &trace));
            run.violated = Some(name);
            return;
        }
        Outcome::Error { error, trace } => return failed(row, &error, &trace),
        Outcome::Deadlock { .. } => {
            row.message = Some("deadlock reported with deadlock checking off".into());
            return;
        }
        Outcome::BudgetExhausted(_) => exhausted = true,
        Outcome::Success => {}
    }
    // The temporal properties. Once one is violated, those after it are checked on the same
    // graph: the rows of the later violations go to `run.later`, and what holds of the rest
    // (invariants included: the exploration found none violated) to `run.rest`.
    let mut row = run.row.clone();
    loop {
        match std::mem::replace(&mut finished.liveness, LiveVerdict::NotChecked) {
            LiveVerdict::NotChecked | LiveVerdict::Holds => {}
            LiveVerdict::Unsupported(why) => {
                row.distinct_states = 0;
                row.message = Some(format!("the property cannot be checked: {why}"));
                return run.settle(row);
            }
            LiveVerdict::BudgetExhausted => exhausted = true,
            LiveVerdict::Violated(lasso) => {
                let trace: Vec<TraceStep<tla_eval::State>> = lasso
                    .steps
                    .iter()
                    .map(|s| TraceStep { action: if let Step::Action(a) = s.step { Some(a) } else { None }, state: s.state.clone() })
                    .collect();
                let name = m.live_properties().get(lasso.property).map(|p| p.name.clone()).unwrap_or_default();
                let mut itf = itf_of(&m, &source, &what(&name), &trace);
                itf["loop"] = json!(lasso.cycle_start);
                let mut violated = row.clone();
                violated.result = "violated".into();
                violated.counterexample = Some(itf);
                if run.violated.is_none() {
                    run.row = violated;
                    run.violated = Some(name);
                } else {
                    run.later.push((name, violated));
                }
                if !checking.check_remaining_properties() {
                    return;
                }
                match drive(&mut checking, &mut row) {
                    Some(f) => finished = f,
                    None => return,
                }
                continue;
            }
            LiveVerdict::Error { error, trace } => {
                failed(&mut row, &error, &trace);
                return run.settle(row);
            }
            LiveVerdict::ReplayFailed => {
                row.message = Some("the liveness counterexample could not be rebuilt".into());
                return run.settle(row);
            }
        }
        break;
    }
    if exhausted {
        row.result = "budget_exhausted".into();
        row.message = Some(format!("no violation within {} states", spec.max_states));
    } else {
        row.result = "holds".into();
    }
    run.settle(row);
}
