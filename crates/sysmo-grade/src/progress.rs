//! Progress of a grade while it runs: what [`crate::grade_with_progress`] reports at every slice
//! of work (a bounded number of states or simulation steps, or one trace), and when a stage ends.
//!
//! The figures are counts of work done, never times, so a front end can draw a bar per stage:
//! the runtime gate's states against the task's budget, the simulation's behaviours against
//! those it will run, the traces' steps replayed against all of them, and the properties
//! checked against all of them.

use crate::report::Status;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::borrow::Cow;
use std::cell::RefCell;

/// Where a stage stands (in JSON, `"state": "running"`, or `"state": "done"` with `score` and
/// `status` beside it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum StageState {
    /// Work is under way; more reports follow.
    Running,
    /// The stage is over: its score and status, as in the report.
    Done { score: f64, status: Status },
}

/// One progress report. Its JSON (serde) is what the web app's worker forwards to the page,
/// which reads it back into this type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// `syntax`, `runtime`, `conformance` or `invariants`.
    pub stage: Cow<'static, str>,
    /// What the stage is doing: `gate` or `simulation` (runtime), the trace file being
    /// replayed (conformance), the property being checked (invariants); empty when done.
    pub phase: String,
    #[serde(flatten)]
    pub state: StageState,
    /// States generated (explored) by the exhaustive run under way: the runtime gate, or the
    /// current property's check.
    pub states: u64,
    /// Distinct states found by that run.
    pub distinct: u64,
    /// Its depth so far.
    pub depth: u64,
    /// The run's state budget (the task's `max_states`).
    pub max_states: u64,
    /// Simulation: behaviours run so far, and how many the task asks for.
    pub behaviours: u64,
    pub behaviours_total: u64,
    /// Conformance: traces replayed, of all; windows replayed so far (passed or not) and the
    /// trace steps they came from, of all the traces' steps.
    pub traces: u64,
    pub traces_total: u64,
    pub windows: u64,
    pub steps: u64,
    pub steps_total: u64,
    /// Invariants: properties whose check is over, of all.
    pub checked: u64,
    pub checks_total: u64,
}

impl Progress {
    pub(crate) fn new(stage: &'static str, phase: impl Into<String>) -> Progress {
        Progress {
            stage: stage.into(),
            phase: phase.into(),
            state: StageState::Running,
            states: 0,
            distinct: 0,
            depth: 0,
            max_states: 0,
            behaviours: 0,
            behaviours_total: 0,
            traces: 0,
            traces_total: 0,
            windows: 0,
            steps: 0,
            steps_total: 0,
            checked: 0,
            checks_total: 0,
        }
    }

    pub(crate) fn done(stage: &'static str, score: f64, status: Status) -> Progress {
        Progress { phase: String::new(), state: StageState::Done { score, status }, ..Progress::new(stage, "") }
    }

    /// The share of the stage's work done, in 0..=1, when it can be told: states against the
    /// budget (an exhaustive run ending early, with no error or with one, jumps to done),
    /// behaviours, trace steps, properties. A finished stage is 1.
    pub fn fraction(&self) -> Option<f64> {
        if let StageState::Done { .. } = self.state {
            return Some(1.0);
        }
        let part = |a: u64, b: u64| (b > 0).then(|| (a as f64 / b as f64).clamp(0.0, 1.0));
        match (self.stage.as_ref(), self.phase.as_str()) {
            ("runtime", "gate") => part(self.distinct, self.max_states),
            ("runtime", _) => part(self.behaviours, self.behaviours_total),
            ("conformance", _) => part(self.steps, self.steps_total),
            ("invariants", _) => part(self.checked, self.checks_total),
            _ => None,
        }
    }

    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or(Json::Null)
    }
}

/// The caller's two callbacks: `should_stop` is asked after every slice, `report` told before.
pub(crate) struct Hooks<'a> {
    should_stop: &'a dyn Fn() -> bool,
    report: RefCell<&'a mut dyn FnMut(&Progress)>,
}

impl<'a> Hooks<'a> {
    pub(crate) fn new(should_stop: &'a dyn Fn() -> bool, report: &'a mut dyn FnMut(&Progress)) -> Hooks<'a> {
        Hooks { should_stop, report: RefCell::new(report) }
    }

    /// Report `p`, with no question asked.
    pub(crate) fn tell(&self, p: &Progress) {
        if let Ok(mut r) = self.report.try_borrow_mut() {
            (*r)(p);
        }
    }

    /// A slice of work is over: report `p`, then whether to stop.
    pub(crate) fn slice(&self, p: &Progress) -> bool {
        self.tell(p);
        (self.should_stop)()
    }
}
