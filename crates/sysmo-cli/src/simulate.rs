//! `sysmo simulate SPEC.tla [--config C.cfg] --depth D --num N --seed S [--json]`: seeded random
//! behaviours (tla_check::simulate), reported like `sysmo check` (same result kinds, exit codes
//! and ITF counterexamples), with per-action coverage.

use crate::check::{show_trace, Describe, ResultKind, ShownState};
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::time::Instant;
use tla_check::simulate::{SimOptions, SimOutcome, Simulator};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulateArgs {
    pub spec: PathBuf,
    pub config: Option<PathBuf>,
    pub depth: u32,
    pub num: u64,
    pub seed: u64,
    pub json: bool,
}

impl SimulateArgs {
    pub fn from_args(args: &[String]) -> Result<SimulateArgs, String> {
        let mut out = SimulateArgs { spec: PathBuf::new(), config: None, depth: 100, num: 1, seed: 0, json: false };
        let mut spec = None;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            match a.as_str() {
                "--json" => out.json = true,
                "--config" => out.config = Some(PathBuf::from(value("--config")?)),
                "--depth" => {
                    out.depth = u32::try_from(crate::check::positive(&value("--depth")?, "--depth")?)
                        .map_err(|_| "--depth is too large")?
                }
                "--num" => out.num = crate::check::positive(&value("--num")?, "--num")?,
                "--seed" => {
                    let v = value("--seed")?;
                    out.seed = v.parse().map_err(|_| format!("--seed needs a number, not `{v}`"))?
                }
                s if s.starts_with('-') && s != "-" => return Err(format!("unknown option `{s}` for `sysmo simulate`")),
                s => {
                    if spec.replace(PathBuf::from(s)).is_some() {
                        return Err("`sysmo simulate` takes one .tla file".into());
                    }
                }
            }
        }
        out.spec = spec.ok_or("`sysmo simulate` needs a .tla file")?;
        Ok(out)
    }
}

#[derive(Debug, Clone)]
pub struct SimReport {
    pub result: ResultKind,
    pub property: Option<String>,
    pub message: Option<String>,
    pub seed: u64,
    pub behaviours: u64,
    /// Index of the behaviour that failed.
    pub failed_behaviour: Option<u64>,
    pub states_generated: u64,
    pub steps: u64,
    pub max_length: u32,
    pub trace: Vec<ShownState>,
    pub counterexample: Option<Json>,
    /// (action, successors generated, steps taken)
    /// (action, where it is, successors generated, steps taken).
    pub coverage: Vec<(String, Option<String>, u64, u64)>,
    pub elapsed_seconds: f64,
}

impl SimReport {
    pub fn to_json(&self) -> Json {
        json!({
            "result": self.result.as_str(),
            "property": self.property,
            "message": self.message,
            "seed": self.seed,
            "behaviours": self.behaviours,
            "failed_behaviour": self.failed_behaviour,
            "states_generated": self.states_generated,
            "steps": self.steps,
            "max_length": self.max_length,
            "counterexample": self.counterexample,
            "counterexample_length": self.counterexample.as_ref().map(|_| self.trace.len()),
            "coverage": self.coverage.iter().map(|(a, l, g, t)| json!({"action": a, "location": l, "generated": g, "taken": t})).collect::<Vec<_>>(),
            "elapsed_seconds": self.elapsed_seconds,
        })
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        if let Some(m) = &self.message {
            if self.result != ResultKind::Success {
                s += &format!("Error: {m}\n");
            }
        }
        if !self.trace.is_empty() {
            s += &format!(
                "Error: The behavior up to this point is (behaviour {} of seed {}):\n",
                self.failed_behaviour.map(|b| b + 1).unwrap_or(0),
                self.seed
            );
            for (i, st) in self.trace.iter().enumerate() {
                let label = st.action.as_deref().map(|a| format!("<{a}>")).unwrap_or("<Initial predicate>".into());
                s += &format!("State {}: {label}\n", i + 1);
                for (n, v) in &st.vars {
                    s += &format!("/\\ {n} = {v}\n");
                }
                s.push('\n');
            }
        }
        if self.result == ResultKind::Success {
            s += "Simulation completed. No error has been found.\n";
        }
        if !self.coverage.is_empty() {
            s += "Coverage (action: steps taken / successors generated):\n";
            for (a, l, g, t) in &self.coverage {
                let at = l.as_ref().map(|l| format!(" {l}")).unwrap_or_default();
                s += &format!("  <{a}{at}>: {t}:{g}\n");
            }
        }
        s += &format!(
            "{} behaviours (seed {}), {} steps, {} states generated, longest behaviour {} states.\n",
            self.behaviours, self.seed, self.steps, self.states_generated, self.max_length
        );
        s += &format!("Finished in {:.2} s.\n", self.elapsed_seconds);
        s
    }
}

pub fn simulate<P: Describe>(spec: &P, source: &str, opts: SimOptions, started: Instant) -> SimReport {
    let seed = opts.seed;
    let mut sim = Simulator::new(spec, opts);
    let outcome = sim.run_to_end();
    let st = sim.stats().clone();
    let actions = spec.action_names();
    let locations = spec.action_locations();
    let mut r = SimReport {
        result: ResultKind::Success,
        property: None,
        message: None,
        seed,
        behaviours: st.behaviours,
        failed_behaviour: None,
        states_generated: st.generated,
        steps: st.steps,
        max_length: st.max_length,
        trace: vec![],
        counterexample: None,
        coverage: sim
            .coverage()
            .iter()
            .enumerate()
            .map(|(i, c)| (actions.get(i).cloned().unwrap_or_else(|| format!("action {i}")), locations.get(i).map(|l| l.0.clone()), c.generated, c.taken))
            .collect(),
        elapsed_seconds: 0.0,
    };
    let (what, behaviour, trace) = match outcome {
        SimOutcome::Success => (None, None, vec![]),
        SimOutcome::InvariantViolated { invariant, behaviour, trace } => {
            let name = spec.invariant_names().get(invariant).cloned().unwrap_or_else(|| format!("invariant {invariant}"));
            r.result = ResultKind::SafetyViolation;
            r.message = Some(format!("Invariant {name} is violated."));
            r.property = Some(name.clone());
            (Some(format!("invariant {name} is violated")), Some(behaviour), trace)
        }
        SimOutcome::Deadlock { behaviour, trace } => {
            r.result = ResultKind::Deadlock;
            r.message = Some("Deadlock reached.".into());
            (Some("deadlock reached".to_string()), Some(behaviour), trace)
        }
        SimOutcome::Error { error, behaviour, trace } => {
            let (kind, msg) = spec.describe_error(&error);
            r.result = kind;
            r.message = Some(msg.clone());
            (Some(msg), Some(behaviour), trace)
        }
    };
    r.failed_behaviour = behaviour;
    if let Some(what) = what.filter(|_| !trace.is_empty()) {
        let (shown, itf) = show_trace(spec, source, &what, &trace);
        r.trace = shown;
        r.counterexample = Some(itf);
    }
    r.elapsed_seconds = started.elapsed().as_secs_f64();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::tests::toy;

    fn opts(depth: u32, behaviours: u64, seed: u64) -> SimOptions {
        SimOptions { depth, behaviours, seed, check_deadlock: true }
    }

    #[test]
    fn violation_found_by_simulation_is_reported_with_itf() {
        let t = toy(10, 5);
        let r = simulate(&t, "Toy.tla", opts(50, 20, 3), Instant::now());
        assert_eq!(r.result, ResultKind::SafetyViolation);
        let j = r.to_json();
        let states = j["counterexample"]["states"].as_array().unwrap();
        assert_eq!(states.last().unwrap()["x"], 5);
        assert_eq!(j["counterexample_length"].as_u64().unwrap() as usize, states.len());
        assert!(r.to_text().contains("Error: Invariant NotBad is violated."));
    }

    #[test]
    fn same_seed_same_report() {
        let t = toy(10, -1);
        let a = simulate(&t, "Toy.tla", SimOptions { check_deadlock: false, ..opts(8, 30, 77) }, Instant::now());
        let b = simulate(&t, "Toy.tla", SimOptions { check_deadlock: false, ..opts(8, 30, 77) }, Instant::now());
        assert_eq!(a.result, ResultKind::Success);
        assert_eq!((a.steps, a.states_generated, &a.coverage), (b.steps, b.states_generated, &b.coverage));
        assert_eq!(a.behaviours, 30);
        // Reset can only follow x = 3: some of the 30 behaviours take it.
        assert!(a.coverage[1].3 > 0);
    }

    #[test]
    fn args() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let a = SimulateArgs::from_args(&s(&["M.tla", "--depth", "5", "--num", "3", "--seed", "9"])).unwrap();
        assert_eq!((a.depth, a.num, a.seed, a.json), (5, 3, 9, false));
        assert!(SimulateArgs::from_args(&s(&["M.tla", "--seed", "x"])).is_err());
        assert!(SimulateArgs::from_args(&s(&["M.tla", "--depth"])).is_err());
    }
}

/// `sysmo simulate`: load like `sysmo check`, then simulate.
pub fn run(args: &SimulateArgs) -> std::process::ExitCode {
    let started = Instant::now();
    crate::check::with_checked_model(&args.spec, args.config.as_deref(), args.json, started, None, |tla| {
        simulate_loaded(args, tla, started)
    })
}

fn simulate_loaded(args: &SimulateArgs, tla: &crate::check::Tla<'_>, started: Instant) -> u8 {
    let model = tla.model;
    if model.has_postcondition() {
        // TLC's simulator checks it with figures of its own (behaviours, traces), which are
        // not reproduced here: say so rather than leave it unchecked.
        let stop = crate::check::Stop {
            kind: crate::check::ResultKind::ConfigError,
            diagnostics: vec![],
            message: "the .cfg's POSTCONDITION is checked by `sysmo check`, once the state space is explored; \
                      `sysmo simulate` does not check it (remove it from the .cfg to simulate)"
                .into(),
            sources: None,
        };
        let _ = crate::check::report_stop(&stop, None, args.json, started);
        return crate::check::ResultKind::ConfigError.exit_code();
    }
    let opts = SimOptions { depth: args.depth, behaviours: args.num, seed: args.seed, check_deadlock: model.check_deadlock() };
    let r = simulate(tla, &args.spec.display().to_string(), opts, started);
    for line in model.take_output() {
        eprintln!("{line}");
    }
    if args.json {
        println!("{}", r.to_json());
    } else {
        print!("{}", r.to_text());
    }
    r.result.exit_code()
}
