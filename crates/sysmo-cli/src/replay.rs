//! `sysmo replay MODEL.tla [--config C.cfg] --trace T.ndjson... [--mapping M.json]
//! [--mode windows|whole] [--max-states N] [--json]`: does the model conform to the traces?

use crate::check::{build_model, read_inputs, report_stop};
use crate::EXIT_USAGE;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tla_trace::{parse_trace, Mapping, MappingExprs, Mode, Options, Replayer, Summary};

pub struct ReplayArgs {
    pub spec: PathBuf,
    pub config: Option<PathBuf>,
    pub traces: Vec<PathBuf>,
    pub mapping: Option<PathBuf>,
    pub mode: Mode,
    pub max_states: usize,
    pub json: bool,
}

impl ReplayArgs {
    pub fn from_args(args: &[String]) -> Result<ReplayArgs, String> {
        let mut spec = None;
        let mut a = ReplayArgs { spec: PathBuf::new(), config: None, traces: vec![], mapping: None, mode: Mode::Windows, max_states: Options::default().max_states, json: false };
        let mut i = 0;
        let mut in_traces = false;
        while i < args.len() {
            let s = args[i].as_str();
            let val = |i: usize| args.get(i + 1).cloned().ok_or_else(|| format!("{s} needs a value"));
            match s {
                "--config" => {
                    a.config = Some(val(i)?.into());
                    i += 1;
                    in_traces = false;
                }
                "--trace" => {
                    a.traces.push(val(i)?.into());
                    i += 1;
                    in_traces = true;
                }
                "--mapping" => {
                    a.mapping = Some(val(i)?.into());
                    i += 1;
                    in_traces = false;
                }
                "--mode" => {
                    a.mode = match val(i)?.as_str() {
                        "windows" => Mode::Windows,
                        "whole" => Mode::Whole,
                        m => return Err(format!("--mode is windows or whole, not {m}")),
                    };
                    i += 1;
                    in_traces = false;
                }
                "--max-states" => {
                    a.max_states = crate::check::positive(&val(i)?, "--max-states")? as usize;
                    i += 1;
                    in_traces = false;
                }
                "--json" => a.json = true,
                _ if s.starts_with("--") => return Err(format!("unknown option {s}")),
                _ if in_traces => a.traces.push(s.into()),
                _ if spec.is_none() => spec = Some(PathBuf::from(s)),
                _ => return Err(format!("unexpected argument {s}")),
            }
            i += 1;
        }
        a.spec = spec.ok_or("replay needs MODEL.tla")?;
        if a.traces.is_empty() {
            return Err("replay needs at least one --trace T.ndjson".into());
        }
        Ok(a)
    }
}

/// Exit codes: 0 every trace conforms, 1 a divergence or an exhausted budget, 2 unreadable
/// files, 65 malformed trace or mapping, TLC's codes when the model itself does not load.
pub fn run(a: &ReplayArgs) -> ExitCode {
    let started = Instant::now();
    let input_error = |e: &tla_trace::InputError| {
        if a.json {
            println!("{}", json!({"result": "input_error", "error": e.to_json()}));
        } else {
            eprintln!("error: {e}");
        }
        ExitCode::from(65)
    };
    let mapping = match &a.mapping {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(text) => match Mapping::parse(&p.display().to_string(), &text) {
                Ok(m) => m,
                Err(e) => return input_error(&e),
            },
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", p.display());
                return ExitCode::from(EXIT_USAGE);
            }
        },
        None => Mapping::identity(),
    };
    let map_name = a.mapping.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let exprs = match MappingExprs::parse(&mapping, &map_name) {
        Ok(x) => x,
        Err(e) => return input_error(&e),
    };
    let inputs = match read_inputs(&a.spec, a.config.as_deref()) {
        Ok(x) => x,
        Err(stop) => return report_stop(&stop, None, a.json, started),
    };
    let mut model = match build_model(&inputs, false) {
        Ok(m) => m,
        Err(stop) => return report_stop(&stop, Some(&inputs.sources), a.json, started),
    };
    let interner = model.interner();
    let replayer = Replayer::new(&model, interner, &mapping, &exprs, Some(&inputs.sources), Options { mode: a.mode, max_states: a.max_states });
    let mut summary = Summary::default();
    let mut reports = Vec::new();
    for path in &a.traces {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return ExitCode::from(EXIT_USAGE);
            }
        };
        let trace = match parse_trace(&path.display().to_string(), &text) {
            Ok(t) => t,
            Err(e) => return input_error(&e),
        };
        match replayer.replay(&trace) {
            Ok(r) => {
                summary.add(&r);
                reports.push(r);
            }
            Err(e) => return input_error(&e),
        }
    }
    let ok = reports.iter().all(|r| r.result == "pass");
    if a.json {
        println!(
            "{}",
            json!({
                "result": if ok { "pass" } else { "fail" }, "mode": a.mode.as_str(), "model": a.spec.display().to_string(),
                "summary": summary.to_json(), "traces": reports.iter().map(|r| r.to_json()).collect::<Vec<_>>(),
                "elapsed_seconds": started.elapsed().as_secs_f64(),
            })
        );
    } else {
        for r in &reports {
            println!("{}: {} ({} of {} windows pass)", r.file, r.result, r.windows_passed, r.windows);
            for n in &r.notes {
                println!("  note: {n}");
            }
            if let Some(d) = &r.first_failure {
                print!("{}", d.render());
            }
        }
        println!("mode {}: {} of {} traces pass", a.mode.as_str(), summary.traces_passed, summary.traces);
        println!("windows: {} of {} pass ({:.1}%)", summary.windows_passed, summary.windows, 100.0 * summary.window_pass_rate());
        for (act, v) in summary.verdicts() {
            let (n, p) = summary.per_action[&act];
            println!("  {act}: {v} ({p}/{n})");
        }
        println!("action score: {:.3}   ({:.2} s)", summary.action_score(), started.elapsed().as_secs_f64());
    }
    if ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
