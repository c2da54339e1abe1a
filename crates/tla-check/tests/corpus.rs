//! Runs every model of the reference corpus (read at test time from ../shared/corpus when it
//! exists; skipped with a note otherwise) and compares our explorer's answer with TLC's:
//! result kind; for successes distinct states, states generated and depth; for violations the
//! counterexample length. Prints a table. Debug builds skip models above 5,000 generated states.
//!
//! `CORPUS_ONLY=Name` runs one model. The test fails when a model that is known to match
//! (listed in `MUST_MATCH`) stops matching.

use std::path::{Path, PathBuf};

use tla_check::liveness::{LiveOptions, LiveOutcome, LivenessChecker};
use tla_check::model::{load, ModelError};
use tla_check::{Explorer, Options, Outcome};
use tla_sema::{analyze, LoadedModule, ModuleLoader};
use tla_syntax::SourceMap;

/// Models whose answer matches TLC today; a regression fails the test.
const MUST_MATCH: &[&str] = &[
    "DieHard", "HourClock", "LiveHourClock", "ABCorrectness", "InnerFIFO", "InternalMemory", "LiveWriteThroughCache",
    "RealTimeHourClock", "SimpleMath", "TCommit", "TwoPhaseTC", "DiningPhilosophers", "Echo", "Prisoners",
    "CigaretteSmokers", "Barrier", "SpanTree", "KVStore", "Majority", "NbacgGuer01", "SingleLaneBridge", "ACP_NB_WRONG",
    "Chameneos", "TokenRing", "QueensPluscal", "CarTalkPuzzle", "SimpleAllocator", "SchedulingAllocator", "Peterson",
    "TwoPhaseProof", "DisruptorSPMC", "LeastCircularSubstring", "NanoSmall", "SimplePaxos",
];

fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    p.is_dir().then_some(p)
}

struct DirLoader(PathBuf);
impl ModuleLoader for DirLoader {
    fn load(&self, name: &str) -> Option<LoadedModule> {
        let f = self.0.join(format!("{name}.tla"));
        let text = std::fs::read_to_string(&f).ok()?;
        Some(LoadedModule { file_name: format!("{name}.tla"), text })
    }
}

#[derive(Debug, PartialEq)]
enum Got {
    Success { distinct: u64, generated: u64, depth: u32 },
    Safety { len: usize },
    Liveness,
    Deadlock { len: usize },
    Assumption,
    Error(String),
}

fn json_field<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let i = text.find(&format!("\"{key}\""))?;
    let rest = &text[i + key.len() + 2..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest.find([',', '\n', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim().trim_matches('"'))
}

fn run_model(dir: &Path, module: &str, cfg_name: &str) -> Got {
    let Ok(text) = std::fs::read_to_string(dir.join(format!("{module}.tla"))) else {
        return Got::Error("no module file".into());
    };
    let cfg_text = std::fs::read_to_string(dir.join(cfg_name)).unwrap_or_default();
    let mut sources = SourceMap::new();
    let root = sources.add(format!("{module}.tla"), text);
    let analysis = analyze(&mut sources, root, &DirLoader(dir.to_path_buf()));
    if analysis.has_errors() {
        let d = analysis.diagnostics.iter().find(|d| d.is_error()).map(|d| format!("{} {}", d.code, d.message));
        return Got::Error(format!("front end: {}", d.unwrap_or_default()));
    }
    let cfg_file = sources.add(cfg_name.to_string(), cfg_text.clone());
    let cfg = tla_syntax::cfg::parse_cfg(cfg_file, &cfg_text).config;
    let model = match load(&analysis, &cfg) {
        Ok(m) => m,
        Err(ds) => return Got::Error(format!("load: {} {}", ds[0].code, ds[0].message)),
    };
    match model.check_assumptions() {
        Ok(()) => {}
        Err(ModelError::AssumptionFalse { .. }) => return Got::Assumption,
        Err(e) => return Got::Error(format!("assume: {e}")),
    }
    let opts = Options { check_deadlock: model.check_deadlock(), max_states: Some(3_000_000), max_depth: None };
    let mut ex = Explorer::new(&model, opts);
    let out = ex.run_to_end();
    let st = ex.stats();
    let safety = match out {
        Outcome::Success => None,
        Outcome::InvariantViolated { trace, .. } => Some(Got::Safety { len: trace.len() }),
        Outcome::Deadlock { trace } => Some(Got::Deadlock { len: trace.len() }),
        Outcome::Error { error: ModelError::ActionProperty { .. }, trace } => Some(Got::Safety { len: trace.len() }),
        Outcome::Error { error, .. } => Some(Got::Error(format!("{error}"))),
        Outcome::BudgetExhausted(_) => Some(Got::Error("budget".into())),
    };
    if let Some(g) = safety {
        return g;
    }
    for p in model.live_properties() {
        let mut lc = match LivenessChecker::new(&model, model.fairness(), &p.formula, LiveOptions::default()) {
            Ok(l) => l,
            Err(e) => return Got::Error(format!("liveness {}: {e:?}", p.name)),
        };
        match lc.run_to_end() {
            LiveOutcome::Holds => {}
            LiveOutcome::Violated(_) => return Got::Liveness,
            LiveOutcome::Error { error, .. } => return Got::Error(format!("liveness {}: {error}", p.name)),
            other => return Got::Error(format!("liveness {}: {:?}", p.name, std::mem::discriminant(&other))),
        }
    }
    Got::Success { distinct: st.distinct, generated: st.generated, depth: st.depth }
}

#[test]
fn corpus_models_match_tlc() {
    // Debug builds use large stack frames; the evaluator's depth bound is sized for the main
    // thread's 8 MiB, not for a test thread's 2 MiB.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run_corpus_models)
        .expect("spawn the corpus thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn run_corpus_models() {
    let Some(dir) = corpus() else {
        eprintln!("corpus not found (../shared/corpus); skipped");
        return;
    };
    let only = std::env::var("CORPUS_ONLY").ok();
    let index = std::fs::read_to_string(dir.join("index.tsv")).unwrap_or_default();
    let mut rows = Vec::new();
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (name, module, cfg) = match cols.as_slice() {
            [n, _, m, c, ..] => (*n, *m, *c),
            _ => continue,
        };
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let exp = std::fs::read_to_string(dir.join(name).join("expected.json")).unwrap_or_default();
        let tlc = exp.find("tlc_2_15_check").map(|i| &exp[i..]).unwrap_or("");
        let result = json_field(tlc, "result").unwrap_or("").to_string();
        let num = |k: &str| json_field(tlc, k).and_then(|v| v.parse::<u64>().ok());
        let distinct = num("distinct_states");
        // The full differential run is `cargo xtask corpus` (release build); a debug build here
        // keeps to the small models so that `cargo test --workspace` stays quick.
        if cfg!(debug_assertions) && num("states_generated").unwrap_or(0) > 5_000 && only.is_none() {
            eprintln!("{name:24} skipped (debug build, large)");
            rows.push((name.to_string(), "skipped (debug build, large)".to_string(), None));
            continue;
        }
        let expected = match result.as_str() {
            "success" => Got::Success {
                distinct: distinct.unwrap_or(0),
                generated: num("states_generated").unwrap_or(0),
                depth: num("depth").unwrap_or(0) as u32,
            },
            "safety failure" => Got::Safety { len: num("counterexample_length").unwrap_or(0) as usize },
            "liveness failure" => Got::Liveness,
            "deadlock failure" => Got::Deadlock { len: num("counterexample_length").unwrap_or(0) as usize },
            "assumption failure" => Got::Assumption,
            other => Got::Error(other.to_string()),
        };
        let t0 = std::time::Instant::now();
        let got = run_model(&dir.join(name), module, cfg);
        let secs = t0.elapsed().as_secs_f64();
        let ok = got == expected;
        eprintln!("{name:24} {} {:?} (TLC {:?}) {:.2}s", if ok { "MATCH" } else { "DIFF " }, got, expected, secs);
        rows.push((name.to_string(), format!("{} {:?} (TLC {:?}) {:.2}s", if ok { "MATCH" } else { "DIFF " }, got, expected, secs), Some(ok)));
    }
    let matched = rows.iter().filter(|r| r.2 == Some(true)).count();
    eprintln!("{matched} of {} models match TLC", rows.len());
    for m in MUST_MATCH {
        if let Some((_, line, ok)) = rows.iter().find(|(n, _, _)| n == m) {
            assert!(*ok != Some(false), "{m} no longer matches TLC: {line}");
        }
    }
}
