//! `cargo xtask fuzz-tlc`: a differential fuzzer against TLC.
//!
//! Each seed gives a small spec (`fuzz_gen`), checked by the release `sysmo check --json` and by
//! TLC 2.15 (`-workers 1`). The two must agree on the result and, as in the corpus harness
//! (`corpus::compare_check`), on distinct states, states generated, depth, and the length of a
//! safety counterexample. A spec TLC rejects must be rejected here too.
//!
//! Options: `--minutes N` (default 10) or `--count N`; `--seed S`, the first seed (default: the
//! one after the last seed of `target/fuzz-tlc/log.tsv`, so runs add up to new specs);
//! `--workers N`, the workers of `sysmo check` (default 1; TLC keeps one: a parallel run must
//! give one worker's answers, so the figures compare the same way).
//! Each disagreement is kept in `target/fuzz-tlc/findings/seed-S/`, ready to become a test of
//! `crates/sysmo-cli/tests/tlc`: the modules, the .cfg, TLC's output, our report and a
//! `NAME.expect` with TLC's figures. Each run appends a line to `target/fuzz-tlc/log.tsv`.

use crate::bench_check::measure;
use crate::corpus::{compare_check, CheckFigures, Expected};
use crate::fuzz_gen::generate;
use crate::tools;
use crate::util::{build_release_sysmo, step};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const SYSMO_TIMEOUT: Duration = Duration::from_secs(60);
const TLC_TIMEOUT: Duration = Duration::from_secs(120);

/// TLC's answer, read from its output, in expected.json's words: result "success", "safety
/// failure", "liveness failure", "deadlock", "crash" (TLC threw an unexpected exception) or
/// "error" (a parse, semantic or evaluation error); the counts; the depth of a complete search;
/// the states of a safety or deadlock counterexample (a liveness one is a lasso, and TLC's is not
/// the shortest, so its length is not kept).
pub fn read_tlc(stdout: &str) -> Expected {
    let result = if stdout.contains("Model checking completed. No error has been found.") {
        "success"
    } else if stdout.contains("Error: Deadlock reached.") {
        "deadlock"
    } else if stdout.contains("Error: Temporal properties were violated.") {
        "liveness failure"
    } else if stdout
        .lines()
        .any(|l| (l.starts_with("Error: Invariant ") || l.starts_with("Error: Action property ")) && l.contains(" is violated"))
    {
        "safety failure"
    } else if stdout.contains("TLC threw an unexpected exception") {
        "crash"
    } else {
        "error"
    };
    let counts = stdout.lines().rev().find_map(|l| {
        let (g, rest) = l.split_once(" states generated, ")?;
        let g: u64 = g.trim().replace(',', "").parse().ok()?;
        let d: u64 = rest.split_whitespace().next()?.replace(',', "").parse().ok()?;
        Some((g, d))
    });
    let depth = stdout.lines().find_map(|l| {
        l.strip_prefix("The depth of the complete state graph search is ")?.trim_end_matches('.').parse().ok()
    });
    // An initial state that violates an invariant is printed alone, with no "State 1:" and no counts.
    let initial = stdout.contains(" is violated by the initial state");
    let trace = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("State ")?.split(':').next()?.parse::<u64>().ok())
        .max()
        .or(initial.then_some(1));
    Expected {
        result: result.to_string(),
        states_generated: counts.map(|c| c.0),
        distinct_states: counts.map(|c| c.1),
        depth: if result == "success" { depth } else { None },
        counterexample_length: if matches!(result, "safety failure" | "deadlock") { trace } else { None },
        spec_module: None,
        cfg: None,
    }
}

/// How one spec went.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    Agree,
    /// Both rejected the spec (the generator wrote something TLC does not take).
    BothRejected,
    /// We said the construct is unsupported; TLC answered.
    Unsupported(String),
    Differ(String),
    /// One side timed out.
    TimedOut(&'static str),
    /// TLC threw an unexpected exception (an internal error, not a verdict on the spec): kept
    /// to be looked at, not counted as a disagreement.
    TlcCrashed(String),
}

pub fn compare(tlc: &Expected, ours: &Value) -> Verdict {
    let kind = ours["result"].as_str().unwrap_or("");
    if tlc.result == "crash" {
        return Verdict::TlcCrashed(format!("TLC threw an unexpected exception; ours: {kind}"));
    }
    let ours_rejects = matches!(kind, "parse_error" | "config_error" | "eval_error" | "assertion_failure");
    if tlc.result == "error" {
        return if ours_rejects { Verdict::BothRejected } else { Verdict::Differ(format!("TLC rejects the spec; ours: {kind}")) };
    }
    if ours_rejects {
        let message = ours["message"].as_str().unwrap_or("").to_string();
        if message.to_lowercase().contains("unsupported") || message.contains("not supported") {
            return Verdict::Unsupported(message);
        }
        return Verdict::Differ(format!("ours: {kind} ({message}); TLC: {}", tlc.result));
    }
    let Some(got) = CheckFigures::from_report(ours) else {
        return Verdict::Differ(format!("unreadable report: {ours}"));
    };
    match compare_check(tlc, &got) {
        Ok(()) => Verdict::Agree,
        Err(e) => Verdict::Differ(e),
    }
}

struct Opts {
    minutes: Option<f64>,
    count: Option<u64>,
    seed: Option<u64>,
    workers: u32,
}

fn parse_args(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts { minutes: None, count: None, seed: None, workers: 1 };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |name: &str| it.next().ok_or(format!("{name} needs a value")).cloned();
        match a.as_str() {
            "--minutes" => o.minutes = Some(val("--minutes")?.parse().map_err(|e| format!("--minutes: {e}"))?),
            "--count" => o.count = Some(val("--count")?.parse().map_err(|e| format!("--count: {e}"))?),
            "--seed" => o.seed = Some(val("--seed")?.parse().map_err(|e| format!("--seed: {e}"))?),
            "--workers" => o.workers = val("--workers")?.parse().ok().filter(|&w| w >= 1).ok_or("--workers needs a number of at least 1")?,
            other => return Err(format!("unknown option `{other}` (--minutes N | --count N | --seed S | --workers N)")),
        }
    }
    if o.minutes.is_none() && o.count.is_none() {
        o.minutes = Some(10.0);
    }
    Ok(o)
}

/// The seed after the last one in the log, or 1.
fn next_seed(log: &str) -> u64 {
    log.lines().filter_map(|l| l.split('\t').nth(2)?.parse::<u64>().ok()).max().map_or(1, |s| s + 1)
}

pub fn fuzz_command(root: &Path, args: &[String]) -> Result<bool, String> {
    let o = parse_args(args)?;
    let jar = tools::ensure_all(root, tools::Need { tla_tools: true, ..tools::Need::none() })?.tla_tools_jar.ok_or("tla2tools.jar is not installed")?;
    let sysmo = build_release_sysmo(root)?;
    let out = root.join("target/fuzz-tlc");
    let work = out.join("work");
    let log_path = out.join("log.tsv");
    std::fs::create_dir_all(out.join("findings")).map_err(|e| e.to_string())?;
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let first = o.seed.unwrap_or_else(|| next_seed(&log));
    let started = Instant::now();
    let (mut agree, mut rejected, mut unsupported, mut differ, mut timed_out, mut crashed) = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut by_result: std::collections::BTreeMap<String, u64> = Default::default();
    let mut seed = first;
    loop {
        let n = seed - first;
        if o.count.is_some_and(|c| n >= c) || o.minutes.is_some_and(|m| started.elapsed().as_secs_f64() >= m * 60.0) {
            break;
        }
        let spec = generate(seed);
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        for (name, text) in &spec.modules {
            std::fs::write(work.join(format!("{name}.tla")), text).map_err(|e| e.to_string())?;
        }
        std::fs::write(work.join("Fuzz.cfg"), &spec.cfg).map_err(|e| e.to_string())?;
        let ours = measure(
            Command::new(&sysmo).args(["check", "Fuzz.tla", "--config", "Fuzz.cfg", "--json", "--workers", &o.workers.to_string()]).current_dir(&work),
            SYSMO_TIMEOUT,
        )?;
        let tlc = measure(
            Command::new("java")
                .args(["-XX:+UseParallelGC", "-cp"])
                .arg(&jar)
                .args(["tlc2.TLC", "-workers", "1", "-metadir"])
                .arg(work.join("states"))
                .args(["-config", "Fuzz.cfg", "Fuzz"])
                .current_dir(&work),
            TLC_TIMEOUT,
        )?;
        let answer = read_tlc(&tlc.stdout);
        let report: Value = ours.stdout.lines().rev().find_map(|l| serde_json::from_str(l).ok()).unwrap_or(Value::Null);
        let verdict = if ours.timed_out {
            Verdict::TimedOut("sysmo")
        } else if tlc.timed_out {
            Verdict::TimedOut("TLC")
        } else {
            compare(&answer, &report)
        };
        *by_result.entry(answer.result.clone()).or_default() += 1;
        match &verdict {
            Verdict::Agree => agree += 1,
            Verdict::BothRejected => {
                rejected += 1;
                // What the generator wrote that TLC refuses, to make it write less of it.
                let why = tlc.stdout.lines().find(|l| l.starts_with("Error") || l.contains("***") || l.contains("Exception")).unwrap_or("");
                step(&format!("seed {seed}: both reject the spec (TLC: {why})"));
            }
            Verdict::Unsupported(_) => unsupported += 1,
            Verdict::Differ(_) => differ += 1,
            Verdict::TimedOut(_) => timed_out += 1,
            Verdict::TlcCrashed(_) => crashed += 1,
        }
        if !matches!(verdict, Verdict::Agree | Verdict::BothRejected) {
            let why = match &verdict {
                Verdict::Differ(w) | Verdict::Unsupported(w) | Verdict::TlcCrashed(w) => w.clone(),
                Verdict::TimedOut(who) => format!("{who} timed out"),
                _ => String::new(),
            };
            step(&format!("seed {seed}: {why}"));
            keep_finding(&out.join(format!("findings/seed-{seed}")), &work, &spec.modules, &tlc.stdout, &ours.stdout, &answer, &why)?;
        }
        seed += 1;
        if (seed - first) % 50 == 0 {
            step(&format!(
                "{} specs in {:.1} min: {agree} agree, {rejected} rejected by both, {differ} differ, {unsupported} unsupported, {timed_out} timed out",
                seed - first,
                started.elapsed().as_secs_f64() / 60.0
            ));
        }
    }
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let total = seed - first;
    let results: Vec<String> = by_result.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!(
        "fuzz-tlc: {total} specs (seeds {first}..{}) in {minutes:.1} min: {agree} agree, {rejected} rejected by both, \
         {differ} differ, {unsupported} unsupported, {timed_out} timed out, {crashed} where TLC crashed. TLC's results: {}",
        seed.saturating_sub(1),
        results.join(", ")
    );
    let line = format!(
        "{}\t{first}\t{}\t{total}\t{minutes:.1}\t{agree}\t{rejected}\t{differ}\t{unsupported}\t{timed_out}\t{crashed}\n",
        unix_now(),
        seed.saturating_sub(1)
    );
    let mut log = log;
    if log.is_empty() {
        log.push_str("# unix time\tfirst seed\tlast seed\tspecs\tminutes\tagree\tboth rejected\tdiffer\tunsupported\ttimed out\tTLC crashed\n");
    }
    log.push_str(&line);
    std::fs::write(&log_path, &log).map_err(|e| e.to_string())?;
    let (specs, mins) = log
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((f.get(3)?.parse::<u64>().ok()?, f.get(4)?.parse::<f64>().ok()?))
        })
        .fold((0, 0.0), |(s, m), (a, b)| (s + a, m + b));
    println!("fuzz-tlc: in all ({}): {specs} specs in {mins:.1} min", log_path.display());
    Ok(differ == 0)
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Keep a disagreement: the spec, both outputs, and TLC's figures as an expect file.
fn keep_finding(
    dir: &PathBuf,
    work: &Path,
    modules: &[(String, String)],
    tlc_out: &str,
    ours_out: &str,
    tlc: &Expected,
    why: &str,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for (name, _) in modules {
        let f = format!("{name}.tla");
        std::fs::copy(work.join(&f), dir.join(&f)).map_err(|e| e.to_string())?;
    }
    std::fs::copy(work.join("Fuzz.cfg"), dir.join("Fuzz.cfg")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("tlc.out"), tlc_out).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("sysmo.json"), ours_out).map_err(|e| e.to_string())?;
    let mut expect = format!("# {why}\n# TLC 2.15: java -cp tla2tools.jar tlc2.TLC -workers 1 -config Fuzz.cfg Fuzz\nresult = \"{}\"\n", tlc.result);
    for (key, v) in [("distinct", tlc.distinct_states), ("generated", tlc.states_generated), ("depth", tlc.depth)] {
        if let Some(v) = v {
            expect.push_str(&format!("{key} = {v}\n"));
        }
    }
    std::fs::write(dir.join("Fuzz.expect"), expect).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::tlc_words;

    const VIOLATION: &str = "Error: Invariant Inv is violated.\nError: The behavior up to this point is:\n\
        State 1: <Initial predicate>\nx = 0\n\nState 2: <Next line 5>\nx = 1\n\n\
        3 states generated, 3 distinct states found, 0 states left on queue.\n\
        The depth of the complete state graph search is 3.\n";

    #[test]
    fn reads_tlcs_answers() {
        let a = read_tlc(VIOLATION);
        let figures = |e: &Expected| (e.result.clone(), e.distinct_states, e.states_generated, e.depth, e.counterexample_length);
        assert_eq!(figures(&a), ("safety failure".into(), Some(3), Some(3), None, Some(2)));
        let ok = read_tlc("Model checking completed. No error has been found.\n1,204 states generated, 310 distinct states found, 0 states left on queue.\nThe depth of the complete state graph search is 7.\n");
        assert_eq!(figures(&ok), ("success".into(), Some(310), Some(1204), Some(7), None));
        let live = read_tlc("Error: Temporal properties were violated.\nState 1: <Initial predicate>\nState 2: Stuttering\n4 states generated, 4 distinct states found, 0 states left on queue.\n");
        assert_eq!((live.result.as_str(), live.counterexample_length), ("liveness failure", None));
        assert_eq!(read_tlc("***Parse Error***\n").result, "error");
        assert_eq!(read_tlc("Error: Action property Steps is violated.\nState 1: <Initial predicate>\nState 2: <A>\n").counterexample_length, Some(2));
        let crash = read_tlc("Error: TLC threw an unexpected exception.\n");
        assert_eq!(crash.result, "crash");
        assert!(matches!(compare(&crash, &serde_json::json!({"result": "success"})), Verdict::TlcCrashed(_)));
        let init = read_tlc("Error: Invariant Inv0 is violated by the initial state:\nx = 1\n\nFinished in 00s\n");
        assert_eq!((init.result.as_str(), init.counterexample_length, init.distinct_states), ("safety failure", Some(1), None));
    }

    #[test]
    fn compares_with_ours() {
        let tlc = read_tlc(VIOLATION);
        let ours = |r: &str, d: u64, g: u64, len: u64| {
            serde_json::json!({"result": r, "distinct_states": d, "states_generated": g, "counterexample_length": len})
        };
        assert_eq!(compare(&tlc, &ours("safety_violation", 3, 3, 2)), Verdict::Agree);
        assert!(matches!(compare(&tlc, &ours("safety_violation", 3, 4, 2)), Verdict::Differ(_)));
        assert!(matches!(compare(&tlc, &ours("safety_violation", 3, 3, 3)), Verdict::Differ(_)));
        assert!(matches!(compare(&tlc, &ours("success", 3, 3, 0)), Verdict::Differ(_)));
        let rejected = read_tlc("Semantic errors:\n");
        assert_eq!(compare(&rejected, &serde_json::json!({"result": "parse_error"})), Verdict::BothRejected);
        assert!(matches!(compare(&rejected, &ours("success", 1, 1, 0)), Verdict::Differ(_)));
        assert!(matches!(
            compare(&tlc, &serde_json::json!({"result": "eval_error", "message": "E0700: `\\cdot` is unsupported"})),
            Verdict::Unsupported(_)
        ));
    }

    #[test]
    fn runs_add_up_to_new_seeds() {
        assert_eq!(next_seed(""), 1);
        assert_eq!(next_seed("# header\n1\t1\t200\t200\n2\t201\t350\t150\n"), 351);
    }

    #[test]
    fn words_match_the_corpus_harness() {
        assert_eq!(tlc_words("liveness_violation"), "liveness failure");
    }
}
