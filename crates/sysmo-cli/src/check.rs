//! `sysmo check SPEC.tla [--config C.cfg] [--workers N] [--max-states N] [--max-depth N] [--json]`:
//! exhaustive model checking with TLC's summary, exit codes and figures.
//!
//! The run itself is generic over [`Describe`] (a [`Spec`] that can name its actions,
//! invariants and variables and print its states), so the reporting is tested on small systems
//! written in Rust as well as on TLA+ models.

use crate::itf;
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::time::Instant;
use tla_check::{Budget, Explorer, Options, Outcome, Spec, TraceStep};

/// TLC's exit codes.
pub mod exit {
    pub const OK: u8 = 0;
    pub const ASSUMPTION: u8 = 10;
    pub const DEADLOCK: u8 = 11;
    pub const SAFETY: u8 = 12;
    pub const LIVENESS: u8 = 13;
    pub const ASSERTION: u8 = 14;
    pub const EVAL: u8 = 75;
    pub const PARSE: u8 = 150;
    pub const CONFIG: u8 = 151;
    pub const OTHER: u8 = 255;
}

/// What a checkable model tells the reports, beyond [`Spec`].
pub trait Describe: Spec {
    /// Variable names, in the order of [`Describe::values`].
    fn variables(&self) -> Vec<String>;
    /// The variables' values in a state.
    fn values<'s>(&self, state: &'s Self::State) -> &'s [tla_eval::Value];
    fn action_names(&self) -> Vec<String>;
    fn invariant_names(&self) -> Vec<String>;
    /// (variable, TLC-style printed value) for each variable.
    fn format_state(&self, state: &Self::State) -> Vec<(String, String)>;
    /// The error's kind and message.
    fn describe_error(&self, error: &Self::Error) -> (ResultKind, String);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    Success,
    SafetyViolation,
    Deadlock,
    LivenessViolation,
    AssumptionViolation,
    AssertionFailure,
    EvalError,
    BudgetExhausted,
    ParseError,
    ConfigError,
}

impl ResultKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ResultKind::Success => "success",
            ResultKind::SafetyViolation => "safety_violation",
            ResultKind::Deadlock => "deadlock",
            ResultKind::LivenessViolation => "liveness_violation",
            ResultKind::AssumptionViolation => "assumption_violation",
            ResultKind::AssertionFailure => "assertion_failure",
            ResultKind::EvalError => "eval_error",
            ResultKind::BudgetExhausted => "budget_exhausted",
            ResultKind::ParseError => "parse_error",
            ResultKind::ConfigError => "config_error",
        }
    }

    /// TLC's exit code. Running out of a budget with no error found exits 0, like success.
    pub fn exit_code(self) -> u8 {
        match self {
            ResultKind::Success | ResultKind::BudgetExhausted => exit::OK,
            ResultKind::SafetyViolation => exit::SAFETY,
            ResultKind::Deadlock => exit::DEADLOCK,
            ResultKind::LivenessViolation => exit::LIVENESS,
            ResultKind::AssumptionViolation => exit::ASSUMPTION,
            ResultKind::AssertionFailure => exit::ASSERTION,
            ResultKind::EvalError => exit::EVAL,
            ResultKind::ParseError => exit::PARSE,
            ResultKind::ConfigError => exit::CONFIG,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckArgs {
    pub spec: PathBuf,
    pub config: Option<PathBuf>,
    pub workers: usize,
    pub max_states: Option<u64>,
    pub max_depth: Option<u32>,
    pub json: bool,
}

impl CheckArgs {
    pub fn from_args(args: &[String]) -> Result<CheckArgs, String> {
        let mut out =
            CheckArgs { spec: PathBuf::new(), config: None, workers: 1, max_states: None, max_depth: None, json: false };
        let mut spec = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            match a.as_str() {
                "--json" => out.json = true,
                "--config" => out.config = Some(PathBuf::from(value("--config")?)),
                "--workers" => out.workers = positive(&value("--workers")?, "--workers")? as usize,
                "--max-states" => out.max_states = Some(positive(&value("--max-states")?, "--max-states")?),
                "--max-depth" => {
                    out.max_depth = Some(u32::try_from(positive(&value("--max-depth")?, "--max-depth")?).map_err(|_| "--max-depth is too large")?)
                }
                s if s.starts_with('-') && s != "-" => return Err(format!("unknown option `{s}` for `sysmo check`")),
                s => {
                    if spec.replace(PathBuf::from(s)).is_some() {
                        return Err("`sysmo check` takes one .tla file".into());
                    }
                }
            }
        }
        out.spec = spec.ok_or("`sysmo check` needs a .tla file")?;
        Ok(out)
    }
}

pub fn positive(s: &str, name: &str) -> Result<u64, String> {
    s.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| format!("{name} needs a positive number, not `{s}`"))
}

/// One state of a counterexample, ready for printing.
#[derive(Debug, Clone)]
pub struct ShownState {
    pub action: Option<String>,
    pub vars: Vec<(String, String)>,
}

/// Per-action coverage row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverageRow {
    pub action: String,
    pub generated: u64,
    pub distinct: u64,
}

/// Everything a run reports, in both renderings.
#[derive(Debug, Clone)]
pub struct Report {
    pub result: ResultKind,
    pub property: Option<String>,
    pub message: Option<String>,
    pub distinct_states: u64,
    pub states_generated: u64,
    pub depth: u32,
    pub trace: Vec<ShownState>,
    pub counterexample: Option<Json>,
    pub coverage: Vec<CoverageRow>,
    pub elapsed_seconds: f64,
    pub workers: usize,
    /// For liveness: the index in `trace` where the lasso's cycle starts.
    pub cycle_start: Option<usize>,
}

impl Report {
    /// A report with no run behind it (parse, config or assumption failures).
    pub fn without_run(result: ResultKind, message: String, started: Instant) -> Report {
        Report {
            result,
            property: None,
            message: Some(message),
            distinct_states: 0,
            states_generated: 0,
            depth: 0,
            trace: vec![],
            counterexample: None,
            coverage: vec![],
            elapsed_seconds: started.elapsed().as_secs_f64(),
            workers: 1,
            cycle_start: None,
        }
    }

    pub fn to_json(&self) -> Json {
        json!({
            "result": self.result.as_str(),
            "property": self.property,
            "message": self.message,
            "distinct_states": self.distinct_states,
            "states_generated": self.states_generated,
            "depth": self.depth,
            "counterexample": self.counterexample,
            "counterexample_length": self.counterexample.as_ref().map(|_| self.trace.len()),
            "coverage": self.coverage.iter().map(|c| json!({
                "action": c.action, "generated": c.generated, "distinct": c.distinct
            })).collect::<Vec<_>>(),
            "elapsed_seconds": self.elapsed_seconds,
            "workers": self.workers,
        })
    }

    /// TLC-like summary text.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        match self.result {
            ResultKind::SafetyViolation => {
                s += &format!("Error: Invariant {} is violated.\n", self.property.as_deref().unwrap_or("?"))
            }
            ResultKind::Deadlock => s += "Error: Deadlock reached.\n",
            ResultKind::LivenessViolation => {
                s += &format!("Error: Temporal property {} is violated.\n", self.property.as_deref().unwrap_or("?"))
            }
            ResultKind::AssumptionViolation | ResultKind::AssertionFailure | ResultKind::EvalError => {
                s += &format!("Error: {}\n", self.message.as_deref().unwrap_or("evaluation failed"))
            }
            ResultKind::ParseError | ResultKind::ConfigError => {
                if let Some(m) = &self.message {
                    s += m;
                    if !m.ends_with('\n') {
                        s.push('\n');
                    }
                }
                return s;
            }
            ResultKind::Success | ResultKind::BudgetExhausted => {}
        }
        if !self.trace.is_empty() {
            s += "Error: The behavior up to this point is:\n";
            for (i, st) in self.trace.iter().enumerate() {
                if self.cycle_start == Some(i) && i > 0 {
                    s += "(the behavior loops back to here)\n";
                }
                let label = match &st.action {
                    None => "<Initial predicate>".to_string(),
                    Some(a) => format!("<{a}>"),
                };
                s += &format!("State {}: {}\n", i + 1, label);
                for (name, v) in &st.vars {
                    s += &format!("/\\ {name} = {v}\n");
                }
                s.push('\n');
            }
            if let Some(c) = self.cycle_start {
                s += &format!("Back to state {}.\n\n", c + 1);
            }
        }
        match self.result {
            ResultKind::Success => s += "Model checking completed. No error has been found.\n",
            ResultKind::BudgetExhausted => s += &format!(
                "Model checking stopped: {}. No error has been found so far.\n",
                self.message.as_deref().unwrap_or("budget exhausted")
            ),
            _ => {}
        }
        if !self.coverage.is_empty() {
            s += "Coverage (action: distinct states found / states generated):\n";
            for c in &self.coverage {
                s += &format!("  <{}>: {}:{}\n", c.action, c.distinct, c.generated);
            }
        }
        s += &format!(
            "{} states generated, {} distinct states found.\n",
            self.states_generated, self.distinct_states
        );
        s += &format!("The depth of the complete state graph search is {}.\n", self.depth);
        s += &format!(
            "Finished in {:.2} s ({} worker{}).\n",
            self.elapsed_seconds,
            self.workers,
            if self.workers == 1 { "" } else { "s" }
        );
        s
    }
}

/// Printed and ITF forms of a trace.
pub fn show_trace<P: Describe>(spec: &P, source: &str, what: &str, trace: &[TraceStep<P::State>]) -> (Vec<ShownState>, Json) {
    let actions = spec.action_names();
    let name = |a: Option<u32>| a.map(|a| actions.get(a as usize).cloned().unwrap_or_else(|| format!("action {a}")));
    let shown = trace
        .iter()
        .map(|t| ShownState { action: name(t.action), vars: spec.format_state(&t.state) })
        .collect();
    let names: Vec<Option<String>> = trace.iter().map(|t| name(t.action)).collect();
    let states: Vec<itf::ItfState<'_>> = trace
        .iter()
        .zip(&names)
        .map(|(t, n)| itf::ItfState { action: n.as_deref(), values: spec.values(&t.state) })
        .collect();
    (shown, itf::trace(source, what, &spec.variables(), &states))
}

/// The explorer's figures and outcome, from one worker or several.
pub struct Explored<S, E> {
    pub outcome: Outcome<S, E>,
    pub distinct: u64,
    pub generated: u64,
    pub depth: u32,
    /// (generated, distinct) per action.
    pub coverage: Vec<(u64, u64)>,
}

/// Explore with one worker (the wasm-clean explorer).
pub fn explore_single<P: Spec>(spec: &P, opts: Options) -> Explored<P::State, P::Error> {
    let mut ex = Explorer::new(spec, opts);
    let outcome = ex.run_to_end();
    let st = ex.stats();
    Explored {
        outcome,
        distinct: st.distinct,
        generated: st.generated,
        depth: st.depth,
        coverage: ex.coverage().iter().map(|c| (c.generated, c.distinct)).collect(),
    }
}

/// Turn an exploration into a report.
pub fn report_of<P: Describe>(spec: &P, source: &str, ex: Explored<P::State, P::Error>, started: Instant, workers: usize) -> Report {
    let actions = spec.action_names();
    let invariants = spec.invariant_names();
    let mut r = Report {
        result: ResultKind::Success,
        property: None,
        message: None,
        distinct_states: ex.distinct,
        states_generated: ex.generated,
        depth: ex.depth,
        trace: vec![],
        counterexample: None,
        coverage: ex
            .coverage
            .iter()
            .enumerate()
            .map(|(i, (g, d))| CoverageRow {
                action: actions.get(i).cloned().unwrap_or_else(|| format!("action {i}")),
                generated: *g,
                distinct: *d,
            })
            .collect(),
        elapsed_seconds: 0.0,
        workers,
        cycle_start: None,
    };
    let set_trace = |r: &mut Report, what: &str, trace: &[TraceStep<P::State>]| {
        let (shown, itf) = show_trace(spec, source, what, trace);
        r.trace = shown;
        r.counterexample = Some(itf);
    };
    match ex.outcome {
        Outcome::Success => {}
        Outcome::InvariantViolated { invariant, trace } => {
            let name = invariants.get(invariant).cloned().unwrap_or_else(|| format!("invariant {invariant}"));
            r.result = ResultKind::SafetyViolation;
            r.message = Some(format!("Invariant {name} is violated."));
            set_trace(&mut r, &format!("invariant {name} is violated"), &trace);
            r.property = Some(name);
        }
        Outcome::Deadlock { trace } => {
            r.result = ResultKind::Deadlock;
            r.message = Some("Deadlock reached.".into());
            set_trace(&mut r, "deadlock reached", &trace);
        }
        Outcome::Error { error, trace } => {
            let (kind, msg) = spec.describe_error(&error);
            r.result = kind;
            if !trace.is_empty() {
                set_trace(&mut r, &msg, &trace);
            }
            r.message = Some(msg);
        }
        Outcome::BudgetExhausted(b) => {
            r.result = ResultKind::BudgetExhausted;
            r.message = Some(match b {
                Budget::States(n) => format!("the limit of {n} distinct states was reached"),
                Budget::Depth(d) => format!("states at depth {d} were not expanded (--max-depth)"),
            });
        }
    }
    r.elapsed_seconds = started.elapsed().as_secs_f64();
    r
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use tla_check::ActionId;
    use tla_eval::Value;

    /// x counts up to `limit` by Inc; Reset goes back to 0 from 3; invariant x # bad.
    pub struct Toy {
        pub limit: i32,
        pub bad: i32,
    }

    fn st(x: i32) -> Vec<Value> {
        vec![Value::Int(x)]
    }

    fn x(s: &[Value]) -> i32 {
        s[0].as_int().unwrap()
    }

    impl Spec for Toy {
        type State = Vec<Value>;
        type Error = String;
        fn fingerprint(&self, s: &Vec<Value>) -> u64 {
            x(s) as u64
        }
        fn initial_states(&self, out: &mut Vec<Vec<Value>>) -> Result<(), String> {
            out.push(st(0));
            Ok(())
        }
        fn successors(&self, s: &Vec<Value>, out: &mut Vec<(ActionId, Vec<Value>)>) -> Result<(), String> {
            let v = x(s);
            if v == 99 {
                return Err("boom at 99".into());
            }
            if v < self.limit {
                out.push((0, st(v + 1)));
            }
            if v == 3 {
                out.push((1, st(0)));
            }
            Ok(())
        }
        fn violated_invariant(&self, s: &Vec<Value>) -> Result<Option<usize>, String> {
            Ok((x(s) == self.bad).then_some(0))
        }
        fn action_count(&self) -> usize {
            2
        }
    }

    impl Describe for Toy {
        fn variables(&self) -> Vec<String> {
            vec!["x".into()]
        }
        fn values<'s>(&self, s: &'s Vec<Value>) -> &'s [Value] {
            s
        }
        fn action_names(&self) -> Vec<String> {
            vec!["Inc".into(), "Reset".into()]
        }
        fn invariant_names(&self) -> Vec<String> {
            vec!["NotBad".into()]
        }
        fn format_state(&self, s: &Vec<Value>) -> Vec<(String, String)> {
            vec![("x".into(), s[0].to_string())]
        }
        fn describe_error(&self, e: &String) -> (ResultKind, String) {
            (ResultKind::EvalError, e.clone())
        }
    }

    pub fn toy(limit: i32, bad: i32) -> Toy {
        Toy { limit, bad }
    }

    fn run(t: &Toy) -> Report {
        report_of(t, "Toy.tla", explore_single(t, Options::default()), Instant::now(), 1)
    }

    #[test]
    fn violation_report_has_trace_itf_and_exit_12() {
        let t = toy(10, 5);
        let r = run(&t);
        assert_eq!(r.result, ResultKind::SafetyViolation);
        assert_eq!(r.result.exit_code(), 12);
        assert_eq!(r.property.as_deref(), Some("NotBad"));
        assert_eq!(r.trace.len(), 6);
        let j = r.to_json();
        assert_eq!(j["result"], "safety_violation");
        assert_eq!(j["counterexample_length"], 6);
        let states = j["counterexample"]["states"].as_array().unwrap();
        assert_eq!(states.len(), 6);
        assert_eq!(states[5]["x"], 5);
        assert_eq!(states[5]["#meta"]["action"], "Inc");
        let text = r.to_text();
        assert!(text.contains("Error: Invariant NotBad is violated."), "{text}");
        assert!(text.contains("State 6: <Inc>\n/\\ x = 5\n"), "{text}");
    }

    #[test]
    fn deadlock_success_and_error_kinds() {
        let t = toy(10, -1);
        let r = run(&t);
        assert_eq!(r.result, ResultKind::Deadlock);
        assert_eq!(r.result.exit_code(), 11);
        assert_eq!(r.trace.last().unwrap().vars[0].1, "10");
        let t = toy(99, -1);
        let r = run(&t);
        assert_eq!((r.result, r.result.exit_code()), (ResultKind::EvalError, 75));
        assert_eq!(r.message.as_deref(), Some("boom at 99"));
        let t = toy(10, -1);
        let r = report_of(
            &t,
            "Toy.tla",
            explore_single(&t, Options { check_deadlock: false, ..Options::default() }),
            Instant::now(),
            1,
        );
        assert_eq!(r.result, ResultKind::Success);
        assert_eq!((r.distinct_states, r.states_generated, r.depth), (11, 12, 11));
        assert_eq!(r.coverage[0], CoverageRow { action: "Inc".into(), generated: 10, distinct: 10 });
        assert_eq!(r.coverage[1], CoverageRow { action: "Reset".into(), generated: 1, distinct: 0 });
        assert!(r.to_text().contains("12 states generated, 11 distinct states found."));
    }

    #[test]
    fn args() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let a = CheckArgs::from_args(&s(&["M.tla", "--workers", "2", "--max-states", "10", "--json"])).unwrap();
        assert_eq!((a.workers, a.max_states, a.json), (2, Some(10), true));
        assert!(CheckArgs::from_args(&s(&["M.tla", "--workers", "0"])).is_err());
        assert!(CheckArgs::from_args(&s(&["--json"])).is_err());
        assert!(CheckArgs::from_args(&s(&["A.tla", "B.tla"])).is_err());
    }
}
