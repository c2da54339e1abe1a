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
use tla_check::liveness::{LiveOptions, LiveOutcome};
use tla_check::run::{LiveVerdict, Liveness, Run};
use tla_check::{Budget, Options, Outcome, Spec, TraceStep};

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
}

/// What a checkable model tells the reports, beyond [`Spec`].
pub trait Describe: Spec {
    /// Variable names, in the order of [`Describe::values`].
    fn variables(&self) -> Vec<String>;
    /// The variables' values in a state.
    fn values<'s>(&self, state: &'s Self::State) -> &'s [tla_eval::Value];
    fn action_names(&self) -> Vec<String>;
    /// Where each action is, as TLC writes it, with the place it is listed by (file and
    /// offset: TLC lists coverage by the actions' places). Empty when unknown.
    fn action_locations(&self) -> Vec<(String, (u32, u32))> {
        Vec::new()
    }
    fn invariant_names(&self) -> Vec<String>;
    /// (variable, TLC-style printed value) for each variable.
    fn format_state(&self, state: &Self::State) -> Vec<(String, String)>;
    /// The error's kind and message.
    fn describe_error(&self, error: &Self::Error) -> (ResultKind, String);
    /// The property an error violates, when it is a property's violation (an action property).
    fn violated_property(&self, _error: &Self::Error) -> Option<String> {
        None
    }
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
    /// Check invariants and safety properties only; temporal properties are listed as unchecked.
    pub safety_only: bool,
}

impl CheckArgs {
    pub fn from_args(args: &[String]) -> Result<CheckArgs, String> {
        let mut out =
            CheckArgs {
            spec: PathBuf::new(),
            config: None,
            workers: 1,
            max_states: None,
            max_depth: None,
            json: false,
            safety_only: false,
        };
        let mut spec = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            match a.as_str() {
                "--json" => out.json = true,
                "--safety-only" => out.safety_only = true,
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
    /// Where the action is (`line 4, col 11 to line 4, col 44 of module M`), when known.
    pub location: Option<String>,
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
    /// States stored but not expanded when the run ended (TLC's "states left on queue").
    pub states_left: u64,
    pub states_generated: u64,
    pub depth: u32,
    pub trace: Vec<ShownState>,
    pub counterexample: Option<Json>,
    pub coverage: Vec<CoverageRow>,
    pub elapsed_seconds: f64,
    pub workers: usize,
    /// For liveness: the index in `trace` where the lasso's cycle starts.
    pub cycle_start: Option<usize>,
    /// Temporal properties of the .cfg that the run could not check (budget, formula).
    pub unchecked_properties: Vec<String>,
}

impl Report {
    /// A report with no run behind it (parse, config or assumption failures).
    pub fn without_run(result: ResultKind, message: String, started: Instant) -> Report {
        Report {
            result,
            property: None,
            message: Some(message),
            distinct_states: 0,
            states_left: 0,
            states_generated: 0,
            depth: 0,
            trace: vec![],
            counterexample: None,
            coverage: vec![],
            elapsed_seconds: started.elapsed().as_secs_f64(),
            workers: 1,
            cycle_start: None,
            unchecked_properties: vec![],
        }
    }

    pub fn to_json(&self) -> Json {
        json!({
            "result": self.result.as_str(),
            "property": self.property,
            "message": self.message,
            "distinct_states": self.distinct_states,
            "states_generated": self.states_generated,
            "states_left_on_queue": self.states_left,
            "depth": self.depth,
            "counterexample": self.counterexample,
            "counterexample_length": self.counterexample.as_ref().map(|_| self.counterexample_length()),
            "coverage": self.coverage.iter().map(|c| json!({
                "action": c.action, "location": c.location, "generated": c.generated, "distinct": c.distinct
            })).collect::<Vec<_>>(),
            "elapsed_seconds": self.elapsed_seconds,
            "workers": self.workers,
            "unchecked_properties": self.unchecked_properties,
        })
    }

    /// Whether the lasso's cycle is its last state alone: the behaviour ends by stuttering there
    /// for ever. TLC prints that as one more state, "Stuttering", and counts it.
    fn stutters_at_end(&self) -> bool {
        self.cycle_start.is_some_and(|c| c + 1 == self.trace.len())
    }

    /// The counterexample's length as TLC counts it: the states printed, plus the stuttering
    /// state that ends a lasso whose cycle is a single state.
    pub fn counterexample_length(&self) -> usize {
        self.trace.len() + usize::from(self.stutters_at_end())
    }

    /// TLC-like summary text.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        match self.result {
            ResultKind::SafetyViolation => match &self.message {
                // An invariant's message names it; an action property's points at its step.
                Some(m) => s += &format!("Error: {m}\n"),
                None => s += &format!("Error: Invariant {} is violated.\n", self.property.as_deref().unwrap_or("?")),
            },
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
            match self.cycle_start {
                Some(_) if self.stutters_at_end() => {
                    s += &format!("State {}: Stuttering\n\n", self.trace.len() + 1)
                }
                Some(c) => s += &format!("Back to state {}.\n\n", c + 1),
                None => {}
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
        if !self.unchecked_properties.is_empty() {
            s += &format!("Temporal properties not checked: {}\n", self.unchecked_properties.join(", "));
        }
        if !self.coverage.is_empty() {
            s += "Coverage (action: distinct states found / states generated):\n";
            for c in &self.coverage {
                let at = c.location.as_ref().map(|l| format!(" {l}")).unwrap_or_default();
                s += &format!("  <{}{at}>: {}:{}\n", c.action, c.distinct, c.generated);
            }
        }
        s += &format!(
            "{} states generated, {} distinct states found, {} states left on queue.\n",
            self.states_generated, self.distinct_states, self.states_left
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
    /// States left on the queue when the run ended.
    pub queued: u64,
    /// (generated, distinct) per action.
    pub coverage: Vec<(u64, u64)>,
}

/// Check the safety properties with `workers` threads (one: [`Run`]; several:
/// [`tla_check::run::explore_parallel`], whose answers are one worker's). Either ends with the
/// .cfg's POSTCONDITION checked, as in TLC. What the other workers printed goes to `printed`.
pub fn explore_tla(tla: &Tla<'_>, opts: Options, workers: usize, printed: &mut Vec<String>) -> Explored<tla_eval::State, ModelError> {
    let finished = if workers <= 1 {
        Run::new(tla.model, opts, Liveness::Off).run_to_end()
    } else {
        // SAFETY: no other thread holds a value yet; the workers start after this.
        #[allow(unsafe_code)]
        unsafe {
            tla_eval::single_thread(false)
        };
        let (finished, out) = tla_check::run::explore_parallel(tla.model, opts, workers);
        printed.extend(out);
        finished
    };
    Explored::of_run(finished)
}

impl Explored<tla_eval::State, ModelError> {
    /// The figures and outcome of a finished [`Run`].
    pub fn of_run(finished: tla_check::run::Finished) -> Self {
        Explored {
            outcome: finished.outcome,
            distinct: finished.stats.distinct,
            generated: finished.stats.generated,
            depth: finished.stats.depth,
            queued: finished.stats.queued,
            coverage: finished.coverage.iter().map(|c| (c.generated, c.distinct)).collect(),
        }
    }
}


/// Turn an exploration into a report.
pub fn report_of<P: Describe>(spec: &P, source: &str, ex: Explored<P::State, P::Error>, started: Instant, workers: usize) -> Report {
    let actions = spec.action_names();
    let locations = spec.action_locations();
    let invariants = spec.invariant_names();
    // TLC lists coverage by the actions' places in the spec.
    let mut order: Vec<usize> = (0..ex.coverage.len()).collect();
    order.sort_by_key(|&i| locations.get(i).map(|l| l.1));
    let mut r = Report {
        result: ResultKind::Success,
        property: None,
        message: None,
        distinct_states: ex.distinct,
        states_left: ex.queued,
        states_generated: ex.generated,
        depth: ex.depth,
        trace: vec![],
        counterexample: None,
        coverage: order
            .iter()
            .map(|&i| CoverageRow {
                action: actions.get(i).cloned().unwrap_or_else(|| format!("action {i}")),
                location: locations.get(i).map(|l| l.0.clone()),
                generated: ex.coverage[i].0,
                distinct: ex.coverage[i].1,
            })
            .collect(),
        elapsed_seconds: 0.0,
        workers,
        cycle_start: None,
        unchecked_properties: vec![],
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
            r.property = spec.violated_property(&error);
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

    /// Explore a spec written in Rust with one worker (the explorer alone, no model).
    pub fn explore_single<P: Spec>(spec: &P, opts: Options) -> Explored<P::State, P::Error> {
        let mut ex = tla_check::Explorer::new(spec, opts);
        let outcome = ex.run_to_end();
        let st = ex.stats();
        Explored {
            outcome,
            distinct: st.distinct,
            queued: st.queued,
            generated: st.generated,
            depth: st.depth,
            coverage: ex.coverage().iter().map(|c| (c.generated, c.distinct)).collect(),
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
        assert_eq!(r.coverage[0], CoverageRow { action: "Inc".into(), location: None, generated: 10, distinct: 10 });
        assert_eq!(r.coverage[1], CoverageRow { action: "Reset".into(), location: None, generated: 1, distinct: 0 });
        assert!(r.to_text().contains("12 states generated, 11 distinct states found, 0 states left on queue."));
    }

    /// A lasso whose cycle is its last state alone ends in stuttering: TLC prints one more state,
    /// "Stuttering", and counts it; a longer cycle is printed as "Back to state k" and not counted.
    #[test]
    fn lasso_ending_in_stuttering_counts_as_tlc_does() {
        let state = |x: i32| ShownState { action: Some("Tick".into()), vars: vec![("x".into(), x.to_string())] };
        let mut r = Report::without_run(ResultKind::LivenessViolation, "Temporal property".into(), Instant::now());
        r.message = None;
        r.property = Some("Live".into());
        r.trace = vec![state(0), state(1), state(2)];
        r.counterexample = Some(json!({}));
        r.cycle_start = Some(2);
        assert_eq!(r.to_json()["counterexample_length"], 4);
        let text = r.to_text();
        assert!(text.contains("State 4: Stuttering"), "{text}");
        assert!(!text.contains("Back to state"), "{text}");

        r.cycle_start = Some(1);
        assert_eq!(r.to_json()["counterexample_length"], 3);
        let text = r.to_text();
        assert!(text.contains("Back to state 2."), "{text}");
        assert!(!text.contains("Stuttering"), "{text}");
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

    /// An action's place as TLC writes it: a parenthesised formula is placed inside its
    /// parentheses (TLC 2.15 places the disjunct `(x = 7 /\ x' = 0)` of
    /// `\E p \in P : A(p) \/ (x = 7 /\ x' = 0)` from `x` to `0`); parentheses that do not
    /// enclose the whole formula stay.
    #[test]
    fn action_places_leave_the_enclosing_parentheses_out() {
        let mut sources = SourceMap::new();
        let text = "Next == A \\/ ( (x = 7 /\\ x' = 0) ) \\/ (a) /\\ (b)";
        let f = sources.add("S.tla", text);
        let span_of = |part: &str| {
            let start = text.find(part).unwrap();
            Span::new(f, start, start + part.len())
        };
        let site = |part: &str| tla_eval::ActionSite { formula: span_of(part), def: None };
        assert_eq!(action_location(&sources, &site("( (x = 7 /\\ x' = 0) )")), "line 1, col 17 to line 1, col 31 of module S");
        assert_eq!(action_location(&sources, &site("(a) /\\ (b)")), "line 1, col 39 to line 1, col 48 of module S");
    }
}

// ---------------------------------------------------------------------------------------------
// The TLA+ front end: files → analysis → .cfg → model → run.

use crate::parse::{directory_of, folder};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use tla_check::load::{Analyzed, FailureKind, Inputs};
use tla_check::model::{Model, ModelError};
use tla_syntax::diag::{render_terminal, to_json};
use tla_syntax::{Diagnostic, SourceMap, Span};

/// A loaded model and the sources its spans point into.
pub struct Tla<'m> {
    pub model: &'m Model<'m>,
    pub sources: &'m SourceMap,
    pub vars: Vec<String>,
}

impl Spec for Tla<'_> {
    type State = tla_eval::State;
    type Error = ModelError;
    fn fingerprint(&self, s: &Self::State) -> u64 {
        self.model.fingerprint(s)
    }
    fn initial_states(&self, out: &mut Vec<Self::State>) -> Result<(), ModelError> {
        self.model.initial_states(out)
    }
    fn successors(&self, s: &Self::State, out: &mut Vec<(tla_check::ActionId, Self::State)>) -> Result<(), ModelError> {
        self.model.successors(s, out)
    }
    fn take_intermediate(&self) -> u64 {
        self.model.take_intermediate()
    }
    fn violated_invariant(&self, s: &Self::State) -> Result<Option<usize>, ModelError> {
        self.model.violated_invariant(s)
    }
    fn violated_invariant_after(&self, parent: &Self::State, s: &Self::State) -> Result<Option<usize>, ModelError> {
        self.model.violated_invariant_after(parent, s)
    }
    fn take_fingerprint_error(&self) -> Option<ModelError> {
        self.model.take_fingerprint_error()
    }
    fn set_level(&self, level: u32) {
        self.model.set_level(level);
    }
    fn identity_fingerprint(&self, s: &Self::State) -> Option<u64> {
        self.model.identity_fingerprint(s)
    }
    fn warm(&self, s: &Self::State, depth: u32) {
        self.model.warm(s, depth)
    }
    fn exit_requested(&self) -> bool {
        self.model.exit_requested()
    }
    fn in_model(&self, s: &Self::State) -> Result<bool, ModelError> {
        self.model.in_model(s)
    }
    fn in_model_after(&self, parent: &Self::State, s: &Self::State) -> Result<bool, ModelError> {
        self.model.in_model_after(parent, s)
    }
    fn step_in_model(&self, from: &Self::State, to: &Self::State) -> Result<bool, ModelError> {
        self.model.step_in_model(from, to)
    }
    fn check_step(&self, from: &Self::State, to: &Self::State) -> Result<(), ModelError> {
        self.model.check_step(from, to)
    }
    fn action_count(&self) -> usize {
        self.model.action_count()
    }
}

impl Describe for Tla<'_> {
    fn variables(&self) -> Vec<String> {
        self.vars.clone()
    }
    fn values<'s>(&self, s: &'s Self::State) -> &'s [tla_eval::Value] {
        s
    }
    fn action_names(&self) -> Vec<String> {
        self.model.action_names()
    }
    fn action_locations(&self) -> Vec<(String, (u32, u32))> {
        self.model.action_sites().iter().map(|site| (action_location(self.sources, site), (site.formula.file.0, site.formula.start))).collect()
    }
    fn invariant_names(&self) -> Vec<String> {
        self.model.invariant_names()
    }
    fn format_state(&self, s: &Self::State) -> Vec<(String, String)> {
        self.model.format_state(s)
    }
    fn describe_error(&self, e: &ModelError) -> (ResultKind, String) {
        let kind = match e {
            // As TLC: a false POSTCONDITION exits as a false assumption does (code 10).
            ModelError::AssumptionFalse { .. } | ModelError::PostconditionFalse { .. } | ModelError::PostconditionFailed { .. } => {
                ResultKind::AssumptionViolation
            }
            ModelError::ActionProperty { .. } => ResultKind::SafetyViolation,
            ModelError::Eval(v) if v.code == tla_eval::error::codes::ASSERT => ResultKind::AssertionFailure,
            ModelError::Eval(_) => ResultKind::EvalError,
        };
        (kind, tla_syntax::diag::one_line(self.sources, &e.to_diagnostic(Span::default())))
    }
    fn violated_property(&self, e: &ModelError) -> Option<String> {
        match e {
            ModelError::ActionProperty { name } => Some(name.clone()),
            _ => None,
        }
    }
}

/// Where an action is, as TLC writes it: the head of the definition it is named after
/// (`Send(p)`), and in parentheses its formula when that is not the definition's body
/// (`Try line 8, col 1 to line 8, col 6 of module M (9 8 9 52)` for a disjunct of Try);
/// the formula alone when it is named after no definition.
pub fn action_location(sources: &SourceMap, site: &tla_eval::ActionSite) -> String {
    let inner = unparenthesized(sources, site.formula);
    let formula = sources.tlc_range(inner).map(|(a, b, c, d)| format!("({a} {b} {c} {d})"));
    let Some((def, body)) = site.def else { return sources.tlc_location(inner).unwrap_or_default() };
    if def.file != body.file || def.start > body.start {
        return sources.tlc_location(inner).unwrap_or_default();
    }
    // The head: the definition's text up to `==`.
    let text = sources.snippet(Span { file: def.file, start: def.start, end: body.start });
    let head = text.trim_end();
    let head = head.strip_suffix("==").or_else(|| head.strip_suffix('\u{225C}')).unwrap_or(head).trim_end();
    let head = Span { file: def.file, start: def.start, end: def.start + head.len() as u32 };
    let mut s = sources.tlc_location(head).unwrap_or_default();
    if site.formula != body
        && let Some(f) = formula {
            s += " ";
            s += &f;
        }
    s
}

/// A formula's span without the parentheses around it, which TLC's locations leave out:
/// `(x = 7 /\ x' = 0)` is placed at `x = 7 /\ x' = 0`.
fn unparenthesized(sources: &SourceMap, mut span: Span) -> Span {
    if sources.files().all(|(id, _)| id != span.file) {
        return span;
    }
    loop {
        let text = sources.snippet(span);
        let trimmed = text.trim();
        if !(trimmed.starts_with('(') && trimmed.ends_with(')') && trimmed.len() >= 2) {
            return span;
        }
        // The first parenthesis must close at the last character.
        let body = &trimmed[1..trimmed.len() - 1];
        let (mut depth, mut in_str) = (0i32, false);
        for c in body.chars() {
            match c {
                '"' => in_str = !in_str,
                '(' if !in_str => depth += 1,
                ')' if !in_str => {
                    depth -= 1;
                    if depth < 0 {
                        return span;
                    }
                }
                _ => {}
            }
        }
        if depth != 0 {
            return span;
        }
        let lead = (text.len() - text.trim_start().len()) as u32 + 1;
        let inner = body.trim();
        let start = span.start + lead + (body.len() - body.trim_start().len()) as u32;
        span = Span { file: span.file, start, end: start + inner.len() as u32 };
    }
}

/// What stopped a run before exploring: its kind, diagnostics and sources.
pub struct Stop {
    pub kind: ResultKind,
    pub diagnostics: Vec<Diagnostic>,
    pub message: String,
    /// The sources the diagnostics point into, when the stop owns them.
    pub sources: Option<SourceMap>,
}

/// Read the spec and its .cfg, analyse them: the inputs a model is built from. The modules
/// the spec uses are read from its directory.
pub fn read_inputs(spec: &Path, config: Option<&Path>) -> Result<Inputs, Stop> {
    let text = std::fs::read_to_string(spec).map_err(|e| Stop {
        kind: ResultKind::ParseError,
        diagnostics: vec![],
        message: format!("cannot read {}: {e}", spec.display()),
        sources: None,
    })?;
    let analyzed = Analyzed::new(spec.display().to_string(), text, &folder(directory_of(spec)));
    if analyzed.failure().is_some() {
        // Every diagnostic is shown, warnings included.
        let diagnostics: Vec<Diagnostic> = analyzed.analysis.diagnostics.clone();
        let message = format!("{} has errors", spec.display());
        return Err(Stop { kind: ResultKind::ParseError, diagnostics, message, sources: Some(analyzed.sources) });
    }
    let cfg_path = config.map(Path::to_path_buf).unwrap_or_else(|| spec.with_extension("cfg"));
    let cfg_text = std::fs::read_to_string(&cfg_path).map_err(|e| Stop {
        kind: ResultKind::ConfigError,
        diagnostics: vec![],
        message: format!("cannot read the configuration {}: {e}", cfg_path.display()),
        sources: None,
    })?;
    // IOEnv (IOUtils) answers this process's environment, and the I/O operators (IOExec,
    // JsonSerialize, CSVWrite, ...) use its files and programs, as in TLC.
    let inputs = analyzed
        .configure(cfg_path.display().to_string(), &cfg_text)
        .map(|i| i.with_environment(std::env::vars().collect()).with_host(std::sync::Arc::new(crate::host::Machine::new())));
    inputs.map_err(|(failure, sources)| Stop {
        kind: ResultKind::ConfigError,
        diagnostics: failure.diagnostics,
        message: format!("{} has errors", cfg_path.display()),
        sources: Some(sources),
    })
}

/// The kind of result a failure to load reports.
pub fn result_kind(kind: FailureKind) -> ResultKind {
    match kind {
        FailureKind::Parse => ResultKind::ParseError,
        FailureKind::Config => ResultKind::ConfigError,
        FailureKind::Assumption => ResultKind::AssumptionViolation,
        FailureKind::Assertion => ResultKind::AssertionFailure,
        FailureKind::Eval => ResultKind::EvalError,
    }
}

/// Build the model (and check its ASSUMEs when `assumptions`); errors of the .cfg's names exit
/// 151, false ASSUMEs 10, evaluation errors 75.
pub fn build_model(inputs: &Inputs, assumptions: bool) -> Result<Model<'_>, Stop> {
    let model = if assumptions { inputs.checked_model() } else { inputs.model() };
    model.map_err(|f| Stop { kind: result_kind(f.kind), message: f.first_line(&inputs.sources), diagnostics: f.diagnostics, sources: None })
}

/// Print a stop (diagnostics on stderr, or one JSON line) and return its exit code.
pub fn report_stop(stop: &Stop, sources: Option<&SourceMap>, json: bool, started: Instant) -> ExitCode {
    let sources = sources.or(stop.sources.as_ref());
    if json {
        let mut j = Report::without_run(stop.kind, stop.message.clone(), started).to_json();
        if let Some(src) = sources {
            j["diagnostics"] = serde_json::to_value(stop.diagnostics.iter().map(|d| to_json(src, d)).collect::<Vec<_>>()).unwrap_or_default();
        }
        println!("{j}");
    } else {
        let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        match sources {
            Some(src) if !stop.diagnostics.is_empty() => eprint!("{}", render_terminal(src, &stop.diagnostics, color)),
            _ => {}
        }
        eprintln!("Error: {}", stop.message);
    }
    ExitCode::from(stop.kind.exit_code())
}

/// Check the liveness properties after a successful safety run. Returns the violated property's
/// name and the lasso, an error, or the properties that could not be checked.
fn check_liveness(tla: &Tla<'_>, source: &str, r: &mut Report, max_states: Option<u64>) {
    let props = tla.model.live_properties();
    let mut unchecked = vec![];
    for p in props {
        let opts = tla_check::liveness::LiveOptions { max_states, ..Default::default() };
        match tla_check::liveness::check(tla.model, tla.model.fairness(), &p.formula, opts) {
            Ok(outcome) => {
                if let Some(name) = report_live(tla, source, r, &p.name, outcome) {
                    unchecked.push(name);
                } else if r.result != ResultKind::Success {
                    return;
                }
            }
            Err(_) => unchecked.push(p.name.clone()),
        }
    }
    r.unchecked_properties = unchecked;
}

/// Put one liveness outcome for property `name` into the report. Returns the name back when the
/// property could not be checked (budget, a counterexample that could not be rebuilt).
fn report_live(
    tla: &Tla<'_>,
    source: &str,
    r: &mut Report,
    name: &str,
    outcome: tla_check::liveness::LiveOutcome<tla_eval::State, ModelError>,
) -> Option<String> {
    use tla_check::liveness::{LiveOutcome, Step};
    match outcome {
        LiveOutcome::Holds => {}
        LiveOutcome::Violated(lasso) => {
            let trace: Vec<TraceStep<tla_eval::State>> = lasso
                .steps
                .iter()
                .map(|s| TraceStep {
                    action: match s.step {
                        Step::Action(a) => Some(a),
                        _ => None,
                    },
                    state: s.state.clone(),
                })
                .collect();
            let (shown, mut itf) = show_trace(tla, source, &format!("temporal property {name} is violated"), &trace);
            r.result = ResultKind::LivenessViolation;
            r.message = Some(format!("Temporal property {name} is violated."));
            r.property = Some(name.to_string());
            r.trace = shown;
            itf["loop"] = json!(lasso.cycle_start);
            r.counterexample = Some(itf);
            r.cycle_start = Some(lasso.cycle_start);
        }
        LiveOutcome::Error { error, trace } => {
            let (kind, msg) = tla.describe_error(&error);
            r.result = kind;
            let (shown, itf) = show_trace(tla, source, &msg, &trace);
            if !trace.is_empty() {
                r.trace = shown;
                r.counterexample = Some(itf);
            }
            r.message = Some(msg);
        }
        LiveOutcome::BudgetExhausted(_) | LiveOutcome::ReplayFailed => return Some(name.to_string()),
    }
    None
}

/// Whether the spec stopped the run (`TLCSet("exit", TRUE)`); if so, its temporal properties
/// are reported unchecked: the states explored are part of the graph only, and a property may
/// fail on a part where it holds on the whole.
fn stopped_by_spec(tla: &Tla<'_>, r: &mut Report) -> bool {
    if !tla.model.exit_requested() {
        return false;
    }
    r.unchecked_properties = tla.model.live_properties().iter().map(|p| p.name.clone()).collect();
    true
}

/// Explore and check every temporal property on the graph of the same run
/// ([`tla_check::run`]). With a budget the graph is not kept on the first exploration (a
/// budget that runs out leaves the properties unchecked); only when that exploration reaches
/// the end is the model explored again, keeping it.
fn explore_with_liveness(tla: &Tla<'_>, source: &str, opts: Options, max_states: Option<u64>, started: Instant) -> Report {
    let model = tla.model;
    let props = model.live_properties();
    let from_start = opts.max_states.is_none() && opts.max_depth.is_none();
    let live = LiveOptions { max_states, ..Default::default() };
    let mut finished = Run::new(model, opts, Liveness::OnGraph { from_start, after_budget_cut: false, opts: live }).run_to_end();
    let liveness = std::mem::replace(&mut finished.liveness, LiveVerdict::NotChecked);
    let mut r = report_of(tla, source, Explored::of_run(finished), started, 1);
    match liveness {
        LiveVerdict::NotChecked => {
            if r.result == ResultKind::Success {
                stopped_by_spec(tla, &mut r);
            }
        }
        LiveVerdict::Holds => {}
        LiveVerdict::Violated(lasso) => {
            let name = props.get(lasso.property).map(|p| p.name.clone()).unwrap_or_default();
            report_live(tla, source, &mut r, &name, LiveOutcome::Violated(lasso));
        }
        LiveVerdict::Error { error, trace } => {
            report_live(tla, source, &mut r, "", LiveOutcome::Error { error, trace });
        }
        LiveVerdict::BudgetExhausted | LiveVerdict::ReplayFailed => {
            r.unchecked_properties = props.iter().map(|p| p.name.clone()).collect();
        }
        // Some property cannot be checked: check them one by one, each says for itself.
        LiveVerdict::Unsupported(_) => check_liveness(tla, source, &mut r, max_states),
    }
    r
}

/// Read the spec and its .cfg, build the model and check its ASSUMEs (what `check` and
/// `simulate` share), then hand the loaded model to `run`. A stop on the way is reported.
pub fn with_checked_model(
    spec: &Path,
    config: Option<&Path>,
    json: bool,
    started: Instant,
    workers: Option<usize>,
    run: impl FnOnce(&Tla<'_>) -> u8,
) -> ExitCode {
    let inputs = match read_inputs(spec, config) {
        Ok(x) => x,
        Err(stop) => return report_stop(&stop, None, json, started),
    };
    let model = match build_model(&inputs, false) {
        Ok(m) => m,
        Err(stop) => return report_stop(&stop, Some(&inputs.sources), json, started),
    };
    // A model-checking run answers TLCGet("config"), in its ASSUMEs too.
    if let Some(w) = workers {
        model.evaluator().set_check_config(model.check_deadlock(), w);
    }
    if let Err(e) = model.check_assumptions() {
        // What the ASSUMEs before the failing one printed, as TLC prints it before the error.
        for line in model.take_output() {
            eprintln!("{line}");
        }
        let failure = tla_check::load::LoadFailure::of_error(e);
        let stop = Stop { kind: result_kind(failure.kind), message: failure.first_line(&inputs.sources), diagnostics: failure.diagnostics, sources: None };
        return report_stop(&stop, Some(&inputs.sources), json, started);
    }
    let tla = Tla { model: &model, sources: &inputs.sources, vars: model.variables() };
    let code = run(&tla);
    // The process ends now: exit without freeing the model and the syntax trees.
    let _ = std::io::stdout().flush();
    std::process::exit(i32::from(code))
}

pub fn run(args: &CheckArgs) -> ExitCode {
    let started = Instant::now();
    with_checked_model(&args.spec, args.config.as_deref(), args.json, started, Some(args.workers), |tla| check_loaded(args, tla, started))
}

/// Explore, then check temporal properties, and print the report; returns TLC's exit code.
///
/// With temporal properties to check (and no `--safety-only`), the liveness checker reads the
/// state graph while one worker builds it, so such a run explores with one worker and says so.
fn check_loaded(args: &CheckArgs, tla: &Tla<'_>, started: Instant) -> u8 {
    let model = tla.model;
    let live = !model.live_properties().is_empty() && !args.safety_only;
    let workers = if live && args.workers > 1 {
        eprintln!(
            "note: temporal properties are checked on the state graph of a single worker; exploring with 1 worker \
             (--safety-only explores with {} workers and leaves them unchecked)",
            args.workers
        );
        1
    } else if model.writes_registers() && args.workers > 1 {
        eprintln!(
            "note: the model sets TLC's registers (TLCSet), whose values follow one worker's order of evaluation; \
             exploring with 1 worker"
        );
        1
    } else if model.reads_behaviour() && args.workers > 1 {
        eprintln!("note: the model reads the behaviour to each state (TLCExt's Trace), which one worker rebuilds; exploring with 1 worker");
        1
    } else {
        args.workers
    };
    let opts = Options { check_deadlock: model.check_deadlock(), max_states: args.max_states, max_depth: args.max_depth };
    let source = args.spec.display().to_string();
    let mut printed = Vec::new();
    let mut r = if !live {
        let mut r = report_of(tla, &source, explore_tla(tla, opts, workers, &mut printed), started, workers);
        if r.result == ResultKind::Success {
            r.unchecked_properties = model.live_properties().iter().map(|p| p.name.clone()).collect();
        }
        r
    } else {
        explore_with_liveness(tla, &source, opts, args.max_states, started)
    };
    for line in model.take_output().into_iter().chain(printed) {
        eprintln!("{line}");
    }
    r.elapsed_seconds = started.elapsed().as_secs_f64();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let _ = writeln!(out, "{}", r.to_json());
    } else {
        let _ = write!(out, "{}", r.to_text());
    }
    r.result.exit_code()
}
