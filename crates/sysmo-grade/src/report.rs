//! The grade report (`docs/grade-report.md`, schema `sysmo-grade/2`). Everything in it is a
//! function of the task and the model, except `elapsed` (filled in by a front end that has a
//! clock) and `stopped` (set only when the caller's wall-clock safety net was hit).
//!
//! These types are the report's one definition: the grader builds them, `--json` and the web
//! worker serialise them, and the web page deserialises the worker's message into them.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use tla_syntax::diag::JsonDiagnostic;

pub const SCHEMA: &str = "sysmo-grade/2";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The stage ran.
    Ran,
    /// A gate before it failed: score 0.
    Skipped,
    /// The stage could not run (the model or the task's files do not load): score 0.
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ran => "ran",
            Status::Skipped => "skipped",
            Status::Error => "error",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema: Cow<'static, str>,
    pub task: String,
    pub model: String,
    /// Mean of the four stage scores (SysMoBench's overall, comparable with its leaderboard).
    pub overall: f64,
    /// Mean of the five stage scores, precision included; absent when the task has no system
    /// graph to measure precision against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combined: Option<f64>,
    pub stages: Stages,
    /// Set when the caller's "should stop" callback ended a stage early (a wall-clock safety
    /// net): names the stage. Scores are then not reproducible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Seconds per stage, filled in by a front end; the only timing in the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed: Option<BTreeMap<String, f64>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stages {
    pub syntax: SyntaxStage,
    pub runtime: RuntimeStage,
    pub conformance: ConformanceStage,
    pub invariants: InvariantsStage,
    /// The fifth stage, beside SysMoBench's four (a report of `sysmo-grade/1` has none).
    #[serde(default = "PrecisionStage::absent")]
    pub precision: PrecisionStage,
}

impl Stages {
    /// Each stage's name, score and status, in the order they run.
    pub fn scores(&self) -> [(&'static str, f64, Status); 5] {
        [
            ("syntax", self.syntax.score, self.syntax.status),
            ("runtime", self.runtime.score, self.runtime.status),
            ("conformance", self.conformance.score, self.conformance.status),
            ("invariants", self.invariants.score, self.invariants.status),
            ("precision", self.precision.score, self.precision.status),
        ]
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Definitions {
    pub total: usize,
    pub parsed: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SyntaxStage {
    pub score: f64,
    pub status: Status,
    pub clean: bool,
    pub definitions: Definitions,
    pub diagnostics: Vec<JsonDiagnostic>,
}

/// The exhaustive run of the runtime gate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    pub passed: bool,
    /// `success`, `budget_exhausted`, `safety_violation`, `action_property_violation`,
    /// `eval_error`, `assertion_failure`, `assumption_violation`, `stopped`.
    pub result: String,
    pub message: Option<String>,
    pub distinct_states: u64,
    pub states_generated: u64,
    pub depth: u32,
    pub max_states: u64,
    pub max_depth: u32,
    /// ITF JSON of the path to the error.
    pub counterexample: Option<Json>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionCoverage {
    pub action: String,
    /// It produced a successor in some state a simulated behaviour visited.
    pub produced: bool,
    /// It was the last step before an error in some run.
    pub before_error: bool,
    /// It counts for the score: produced > 0 and never the last step before an error.
    pub counted: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulationSummary {
    pub runs: u64,
    pub behaviours_per_run: u64,
    pub depth: u32,
    pub seed: u64,
    pub behaviours: u64,
    pub steps: u64,
    /// Runs that ended with an error, with the error's kind and message (first run's first).
    pub errors: Vec<SimulationError>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulationError {
    pub run: u64,
    pub behaviour: u64,
    pub result: String,
    pub message: String,
    pub last_action: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuntimeStage {
    pub score: f64,
    pub status: Status,
    /// Why the stage was skipped or could not run.
    pub reason: Option<String>,
    pub gate: Option<Gate>,
    /// `next_disjuncts`: the actions are Next's disjuncts named after the operators they apply
    /// (through `\E` and definitions); `model_split`: the checker's own split of Next (used when
    /// some disjunct names no operator).
    pub actions_from: Cow<'static, str>,
    pub actions: Vec<ActionCoverage>,
    pub simulation: Option<SimulationSummary>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionVerdict {
    pub action: String,
    pub windows: usize,
    pub passed: usize,
    /// 1 when every window of the action passes, else 0.
    pub verdict: u8,
    /// The first failing window (in trace order) whose explanation the replay kept: line,
    /// action, candidates, the first FALSE conjunct, the differing fields.
    pub first_failure: Option<Json>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConformanceStage {
    /// Mean over target actions with windows of the per-action verdicts.
    pub score: f64,
    pub status: Status,
    pub reason: Option<String>,
    pub traces: usize,
    pub windows: usize,
    pub windows_passed: usize,
    pub window_pass_rate: f64,
    /// Share of traces some behaviour of the model consumes entirely (2025's method).
    pub whole_traces_passed: usize,
    pub whole_trace_rate: f64,
    pub actions: Vec<ActionVerdict>,
    /// Per trace: file, windows result, windows passed, whole-trace result.
    pub per_trace: Vec<TraceLine>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceLine {
    pub file: String,
    pub windows: usize,
    pub windows_passed: usize,
    pub whole: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InvariantResult {
    pub name: String,
    /// `invariant` (INVARIANT) or `property` (PROPERTY: action property or liveness).
    pub kind: Cow<'static, str>,
    /// `hold` (invariants.cfg) or `violate` (violations.cfg: a faithful model must violate it).
    pub expect: Cow<'static, str>,
    /// `pass` or `fail` (against `expect`), or `error` (could not be checked).
    pub verdict: Cow<'static, str>,
    /// `holds`, `budget_exhausted` (no violation within the budget), `violated`, `error`.
    pub result: String,
    pub message: Option<String>,
    pub distinct_states: u64,
    /// ITF JSON of the violation (with `loop` for a liveness lasso).
    pub counterexample: Option<Json>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InvariantsStage {
    /// passed / checked.
    pub score: f64,
    pub status: Status,
    pub reason: Option<String>,
    pub checked: usize,
    pub passed: usize,
    pub invariants: Vec<InvariantResult>,
}

/// How the system graph was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphInfo {
    pub states: usize,
    pub steps: usize,
    /// Runs of the code folded into it, and how many of the last added nothing.
    pub runs: u64,
    pub settled_runs: u64,
    /// Every schedule within the bounds was explored.
    pub exhaustive: bool,
    pub bounds: String,
}

/// A step the model allows that the code never takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OverPermissiveStep {
    /// `LockSpin(t=1)`: the model's action with the arguments the code's steps carry.
    pub step: String,
    /// What the model allows, from where, and what the code does there, in one sentence.
    pub message: String,
    /// The system state it departs from, as the code's traces show it.
    pub from: Json,
    /// The code's own steps from that state (`TryLock(t=0)`).
    pub code_steps: Vec<String>,
    /// ITF JSON of a path of the model from an initial state, ending with the step.
    pub counterexample: Json,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrecisionStage {
    /// matched / transitions.
    pub score: f64,
    pub status: Status,
    pub reason: Option<String>,
    pub graph: Option<GraphInfo>,
    /// Distinct steps of the code's actions, projected onto the observed fields, that the
    /// model takes from states the code reaches; those that are steps of the code.
    pub transitions: usize,
    pub matched: usize,
    /// All over-permissive steps, and the first few with their paths.
    pub over_permissive: usize,
    pub steps: Vec<OverPermissiveStep>,
    /// Model states explored (within the task's `max_states`), and whether that was all.
    pub states_explored: usize,
    pub complete: bool,
    /// Explored states whose projection the code never reaches: their steps are not judged.
    pub unknown_states: usize,
    /// Explored states whose projection is a state of the (sampled) graph that its runs visited
    /// too seldom to know all its steps: not judged either.
    pub unsettled_states: usize,
    /// States of the code that no explored model state projects onto, of all; the first few
    /// (states the model cannot reach when `complete`).
    pub unreached: usize,
    pub system_states: usize,
    pub unreached_examples: Vec<Json>,
    /// Actions of the code whose steps could not be judged, with why.
    pub skipped_actions: Vec<String>,
}

impl PrecisionStage {
    /// A stage that did not run, with why.
    pub fn not_run(status: Status, reason: impl Into<String>) -> PrecisionStage {
        PrecisionStage {
            score: 0.0,
            status,
            reason: Some(reason.into()),
            graph: None,
            transitions: 0,
            matched: 0,
            over_permissive: 0,
            steps: vec![],
            states_explored: 0,
            complete: false,
            unknown_states: 0,
            unsettled_states: 0,
            unreached: 0,
            system_states: 0,
            unreached_examples: vec![],
            skipped_actions: vec![],
        }
    }

    fn absent() -> PrecisionStage {
        PrecisionStage::not_run(Status::Skipped, "graded before the precision stage existed")
    }
}

impl Report {
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or(Json::Null)
    }

    /// The report as a short table with the key details, for a terminal.
    pub fn to_text(&self) -> String {
        let st = &self.stages;
        let mut s = format!("task {}   model {}\n", self.task, self.model);
        s += &format!("{:<12} {:>7}  {:<8} details\n", "stage", "score", "status");
        let row = |name: &str, score: f64, status: Status, detail: String| {
            format!("{:<12} {:>7.4}  {:<8} {}\n", name, score, status.as_str(), detail)
        };
        let sy = &st.syntax;
        s += &row(
            "syntax",
            sy.score,
            sy.status,
            format!(
                "{} of {} definitions parse; {} error(s)",
                sy.definitions.parsed,
                sy.definitions.total,
                sy.diagnostics.iter().filter(|d| d.severity == tla_syntax::Severity::Error).count()
            ),
        );
        let rt = &st.runtime;
        let detail = match (&rt.gate, &rt.reason) {
            (Some(g), _) => format!(
                "gate {} ({}, {} states); {} of {} actions covered",
                if g.passed { "passed" } else { "FAILED" },
                g.result,
                g.distinct_states,
                rt.actions.iter().filter(|a| a.counted).count(),
                rt.actions.len()
            ),
            (None, Some(r)) => r.clone(),
            _ => String::new(),
        };
        s += &row("runtime", rt.score, rt.status, detail);
        let cf = &st.conformance;
        let detail = match &cf.reason {
            Some(r) => r.clone(),
            None => format!(
                "{} of {} actions conform; windows {}/{} ({:.1}%); whole traces {}/{}",
                cf.actions.iter().filter(|a| a.verdict == 1).count(),
                cf.actions.len(),
                cf.windows_passed,
                cf.windows,
                100.0 * cf.window_pass_rate,
                cf.whole_traces_passed,
                cf.traces
            ),
        };
        s += &row("conformance", cf.score, cf.status, detail);
        let iv = &st.invariants;
        let detail = match &iv.reason {
            Some(r) => r.clone(),
            None => format!("{} of {} pass", iv.passed, iv.checked),
        };
        s += &row("invariants", iv.score, iv.status, detail);
        let pr = &st.precision;
        let detail = match &pr.reason {
            Some(r) => r.clone(),
            None => format!(
                "{} of {} steps are the code's; {} of {} system states reached{}",
                pr.matched,
                pr.transitions,
                pr.system_states - pr.unreached,
                pr.system_states,
                if pr.complete { "" } else { " (model explored within the budget)" }
            ),
        };
        s += &row("precision", pr.score, pr.status, detail);
        s += &format!("{:<12} {:>7.4}\n", "overall", self.overall);
        if let Some(c) = self.combined {
            s += &format!("{:<12} {:>7.4}  (the five stages)\n", "combined", c);
        }
        for d in &sy.diagnostics {
            s += &format!("  {}:{}:{}: {} {}\n", d.file, d.line, d.column, d.code, d.message);
        }
        if let Some(g) = &rt.gate {
            if !g.passed {
                s += &format!("  runtime: {}\n", g.message.as_deref().unwrap_or(&g.result));
            }
        }
        for e in rt.simulation.iter().flat_map(|x| &x.errors).take(3) {
            s += &format!("  simulation run {}: {} after {}\n", e.run, e.message, e.last_action.as_deref().unwrap_or("the initial state"));
        }
        for a in rt.actions.iter().filter(|a| !a.counted) {
            let why = if !a.produced { "never enabled" } else { "last step before an error" };
            s += &format!("  action {} not covered: {}\n", a.action, why);
        }
        for a in cf.actions.iter().filter(|a| a.verdict == 0) {
            s += &format!("  conformance: {} fails {} of {} windows\n", a.action, a.windows - a.passed, a.windows);
            if let Some(f) = &a.first_failure {
                let file = f.get("file").and_then(Json::as_str).unwrap_or("");
                let line = f.get("line").and_then(Json::as_u64).unwrap_or(0);
                let msg = f.get("message").and_then(Json::as_str).unwrap_or("");
                s += &format!("    first at {file}:{line}: {msg}\n");
            }
        }
        for i in iv.invariants.iter().filter(|i| i.verdict != "pass") {
            let expect = if i.expect == "violate" { " (must be violated)" } else { "" };
            s += &format!("  invariant {}{}: {} {}\n", i.name, expect, i.result, i.message.as_deref().unwrap_or(""));
        }
        for o in &pr.steps {
            s += &format!("  precision: {}\n", o.message);
        }
        if pr.over_permissive > pr.steps.len() {
            s += &format!("  precision: {} more over-permissive steps\n", pr.over_permissive - pr.steps.len());
        }
        if let Some(st) = &self.stopped {
            s += &format!("  stopped early by the time limit during the {st} stage\n");
        }
        s
    }
}
