//! Exhaustive model checking in the grading worker, for measuring the checker's throughput in
//! the browser against the native `sysmo check` on the same model and configuration.
//!
//! The page (or a benchmark driving it) posts a [`CheckRequest`] (`{"kind": "check", ...}`) to
//! the worker; the worker answers with a [`CheckReply`] (`{"kind": "checked", ...}`) carrying the
//! result, the state counts and the elapsed milliseconds measured by the worker's clock (passed
//! in by the worker, so this module itself reads no clock).

use serde_json::{json, Value as Json};
use tla_check::load::Inputs;
use tla_check::{Explorer, Options, Outcome, Status};
use tla_sema::Library;
use tla_syntax::SourceMap;

/// States expanded between two checks of the budget (a slice of work).
const SLICE: usize = 4096;

/// What to check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckRequest {
    pub run: u64,
    pub model: String,
    pub cfg: String,
    /// Stop once this many distinct states are stored (`None`: no limit).
    pub max_states: Option<u64>,
}

impl CheckRequest {
    pub fn to_json(&self) -> String {
        json!({ "kind": "check", "run": self.run, "model": self.model, "cfg": self.cfg, "max_states": self.max_states }).to_string()
    }

    /// `None` when the text is not a check request (it is then a grade request).
    pub fn from_json(text: &str) -> Option<Result<CheckRequest, String>> {
        let v: Json = serde_json::from_str(text).ok()?;
        if v.get("kind").and_then(Json::as_str) != Some("check") {
            return None;
        }
        let s = |k: &str| v.get(k).and_then(Json::as_str).map(str::to_string).ok_or(format!("bad check request: no {k}"));
        Some((|| {
            Ok(CheckRequest {
                run: v.get("run").and_then(Json::as_u64).unwrap_or(0),
                model: s("model")?,
                cfg: s("cfg")?,
                max_states: v.get("max_states").and_then(Json::as_u64),
            })
        })())
    }
}

/// What a check found.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReply {
    pub run: u64,
    /// `success`, `invariant_violated`, `deadlock`, `eval_error`, `budget_exhausted`, or
    /// `error` (the model or its configuration does not load).
    pub result: String,
    pub message: Option<String>,
    pub distinct_states: u64,
    pub states_generated: u64,
    pub depth: u32,
    pub elapsed_ms: f64,
}

impl CheckReply {
    pub fn to_json(&self) -> String {
        let per_second = if self.elapsed_ms > 0.0 { self.distinct_states as f64 * 1000.0 / self.elapsed_ms } else { 0.0 };
        json!({
            "kind": "checked", "run": self.run, "result": self.result, "message": self.message,
            "distinct_states": self.distinct_states, "states_generated": self.states_generated,
            "depth": self.depth, "elapsed_ms": self.elapsed_ms, "distinct_per_second": per_second,
        })
        .to_string()
    }
}

/// Check `model` with `cfg` (single-threaded breadth-first search, as `sysmo check --workers 1`).
/// `now` is a clock in milliseconds; the elapsed time covers parsing, loading and the search.
pub fn check_model(req: &CheckRequest, now: &dyn Fn() -> f64) -> CheckReply {
    let started = now();
    let mut reply = CheckReply {
        run: req.run,
        result: "error".into(),
        message: None,
        distinct_states: 0,
        states_generated: 0,
        depth: 0,
        elapsed_ms: 0.0,
    };
    let first_error = |sources: &SourceMap, diags: &[tla_syntax::Diagnostic]| {
        diags.iter().find(|d| d.is_error()).map(|d| {
            let j = tla_syntax::diag::to_json(sources, d);
            format!("{}:{}:{} {} {}", j.file, j.line, j.column, j.code, j.message)
        })
    };
    let inputs = match Inputs::read(crate::file_name_for(&req.model), req.model.as_str(), &Library::new(), "check.cfg", &req.cfg) {
        Ok(inputs) => inputs,
        Err((failure, sources)) => {
            reply.message = first_error(&sources, &failure.diagnostics);
            reply.elapsed_ms = now() - started;
            return reply;
        }
    };
    let m = match inputs.model() {
        Ok(m) => m,
        Err(failure) => {
            reply.message = first_error(&inputs.sources, &failure.diagnostics).or(Some("the model cannot be built".into()));
            reply.elapsed_ms = now() - started;
            return reply;
        }
    };
    let opts = Options { check_deadlock: m.check_deadlock(), max_states: req.max_states, max_depth: None };
    let mut ex = Explorer::new(&m, opts);
    let outcome = loop {
        if let Status::Done(o) = ex.run(SLICE) {
            break o;
        }
    };
    let stats = ex.stats();
    reply.distinct_states = stats.distinct;
    reply.states_generated = stats.generated;
    reply.depth = stats.depth;
    reply.result = match &outcome {
        Outcome::Success => "success",
        Outcome::InvariantViolated { .. } => "invariant_violated",
        Outcome::Deadlock { .. } => "deadlock",
        Outcome::Error { .. } => "eval_error",
        Outcome::BudgetExhausted(_) => "budget_exhausted",
    }
    .into();
    if let Outcome::Error { error, .. } = &outcome {
        reply.message = Some(format!("{error:?}"));
    }
    reply.elapsed_ms = now() - started;
    reply
}

/// The worker's answer when `text` is a check request; `None` when it is not one.
pub fn handle_check_request(text: &str, now: &dyn Fn() -> f64) -> Option<String> {
    Some(match CheckRequest::from_json(text)? {
        Ok(req) => check_model(&req, now).to_json(),
        Err(message) => json!({ "kind": "checked", "run": 0, "result": "error", "message": message }).to_string(),
    })
}
