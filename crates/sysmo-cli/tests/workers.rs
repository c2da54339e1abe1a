//! `sysmo check --workers N` gives the answers of one worker: for every configuration of
//! tests/data (each `.cfg` with its spec: the `.tla` of the same name, or else the longest
//! `.tla` name that starts the `.cfg`'s name), with no budget, with `--max-states` and with
//! `--max-depth` (and `--safety-only` where there are temporal properties), runs with 1 and
//! with 3 workers must print the same JSON report apart from `elapsed_seconds` and `workers`:
//! result, property, message, counts, depth, counterexample (so its length) and coverage.
//! Specs named Machine* (which write files) are left to check.rs.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn sysmo(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sysmo")).args(args).current_dir(data()).output().unwrap()
}

/// The report, and the `workers` it names (taken out, with the elapsed time).
fn report(out: &Output) -> (Value, u64) {
    let text = String::from_utf8_lossy(&out.stdout);
    let mut j: Value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    let obj = j.as_object_mut().unwrap();
    assert!(obj.remove("elapsed_seconds").is_some(), "{text}");
    let workers = obj.remove("workers").and_then(|w| w.as_u64()).unwrap();
    (j, workers)
}

/// (spec, config) for every `.cfg` of tests/data.
fn configurations() -> Vec<(String, String)> {
    let names = |ext: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(data())
            .unwrap()
            .filter_map(|e| {
                let p = e.unwrap().path();
                (p.extension().and_then(|x| x.to_str()) == Some(ext)).then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
            })
            .collect();
        v.sort();
        v
    };
    let specs = names("tla");
    names("cfg")
        .into_iter()
        .map(|cfg| {
            let spec = specs
                .iter()
                .filter(|s| cfg.starts_with(s.as_str()))
                .max_by_key(|s| s.len())
                .unwrap_or_else(|| panic!("no spec for {cfg}.cfg"))
                .clone();
            (format!("{spec}.tla"), format!("{cfg}.cfg"))
        })
        .collect()
}

#[test]
fn three_workers_answer_as_one() {
    let configs = configurations();
    assert!(configs.len() >= 15, "{configs:?}");
    let mut compared = 0;
    let mut large = 0;
    for (spec, cfg) in &configs {
        // Specs that use the machine's files and programs read a folder that check.rs gives
        // them (Machine*), and are run there.
        if spec.starts_with("Machine") {
            continue;
        }
        let base = ["check", spec.as_str(), "--config", cfg.as_str(), "--json"];
        let one = sysmo(&[&base[..], &["--safety-only"]].concat());
        let (safety_one, _) = report(&one);
        // Temporal properties left unchecked by --safety-only: the spec has some.
        let temporal = safety_one["unchecked_properties"].as_array().is_some_and(|a| !a.is_empty());
        let mut variants: Vec<Vec<&str>> = vec![vec![], vec!["--max-states", "50"], vec!["--max-depth", "4"]];
        if temporal {
            variants.push(vec!["--safety-only"]);
        }
        for extra in &variants {
            let args = |w: &'static str| [&base[..], &extra[..], &["--workers", w]].concat();
            let (a, b) = (sysmo(&args("1")), sysmo(&args("3")));
            let what = format!("{spec} --config {cfg} {}", extra.join(" "));
            assert_eq!(a.status.code(), b.status.code(), "exit codes differ: {what}");
            let ((ra, wa), (rb, wb)) = (report(&a), report(&b));
            assert_eq!(ra, rb, "reports differ with 3 workers: {what}");
            assert_eq!(wa, 1, "{what}");
            let stderr = String::from_utf8_lossy(&b.stderr);
            let explored = !["assumption_violation", "parse_error", "config_error"].contains(&ra["result"].as_str().unwrap());
            if !explored {
                // Stopped before exploring: no worker ran.
            } else if spec.starts_with("Registers") || spec.starts_with("Exit") || spec.starts_with("Behaviour") {
                // TLC's registers (and `TLCSet("exit", ...)`) follow one worker's order, and
                // one worker rebuilds the behaviour TLCExt's Trace reads: the run uses one and
                // says so.
                assert_eq!(wb, 1, "{what}");
                assert!(stderr.contains("exploring with 1 worker"), "{what}: {stderr}");
            } else if temporal && !extra.contains(&"--safety-only") {
                // The liveness checker reads one worker's graph: the run says so and uses one.
                assert_eq!(wb, 1, "{what}");
                assert!(stderr.contains("exploring with 1 worker"), "{what}: {stderr}");
            } else {
                assert_eq!(wb, 3, "{what}");
                assert!(!stderr.contains("exploring with 1 worker"), "{what}: {stderr}");
            }
            if ra["distinct_states"].as_u64().unwrap_or(0) > 500 {
                large += 1;
            }
            compared += 1;
        }
    }
    // The comparisons above include runs big enough to be cut into many chunks and rounds.
    assert!(compared >= 45 && large >= 4, "{compared} runs compared, {large} large");
}

/// The figures of the larger runs, as TLC 2.15 gives them (`-workers 1` and `-workers 3`), so
/// that a run with 3 workers that agrees with 1 worker cannot be agreeing on a wrong answer.
/// Runs stopped by an action property or an evaluation error have TLC's figures with one
/// worker (TLC's own figures with several workers vary from run to run there); ours must be
/// those with 1 worker and with 3. A depth of `None` is one TLC does not print.
#[test]
fn three_workers_give_tlc_figures() {
    let cases = [
        ("Grid.cfg", "success", 2883, 9862, 0, Some(33), None),
        ("GridBad.cfg", "safety_violation", 2203, 6322, 380, Some(13), Some(13)),
        ("GridStuck.cfg", "deadlock", 827, 1816, 73, Some(13), Some(12)),
        ("GridBounded.cfg", "success", 1749, 6619, 0, Some(33), None),
        // `[][A]_v` is checked on every step after the successor is stored: TLC counts the
        // violating state among the distinct ones.
        ("GridJumps.cfg", "safety_violation", 131, 248, 68, Some(7), Some(7)),
        // The failing action's state: the successors of the actions before it are counted and
        // stored first. TLC prints no behaviour for this error; ours leads to the state whose
        // successors failed (x + y = N), at depth 7.
        ("GridFails.cfg", "eval_error", 268, 630, 141, None, Some(7)),
    ];
    // Each figure is TLC 2.15's with `-workers 1`, states left on queue included.
    for (cfg, result, distinct, generated, left, depth, len) in cases {
        for workers in ["1", "3"] {
            let out = sysmo(&["check", "Grid.tla", "--config", cfg, "--json", "--workers", workers]);
            let (r, used) = report(&out);
            let what = format!("{cfg} with {workers} workers");
            assert_eq!(used.to_string(), workers, "{what}");
            assert_eq!(r["result"], result, "{what}: {r}");
            assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64()), (Some(distinct), Some(generated)), "{what}");
            assert_eq!(r["states_left_on_queue"].as_u64(), Some(left), "{what}");
            if let Some(depth) = depth {
                assert_eq!(r["depth"].as_u64(), Some(depth), "{what}");
            }
            assert_eq!(r["counterexample_length"].as_u64(), len, "{what}");
        }
    }
}

/// Split: actions split by TLC into one per value of `p` in `\E p \in 1..3` and per
/// disjunct; the violation at `Jump(1)` from x = 3 is its first successor. TLC 2.15,
/// `-workers 1`: 6 states generated, 6 distinct, 3 left on queue.
#[test]
fn generated_states_at_a_stop_with_split_actions() {
    for workers in ["1", "3"] {
        let out = sysmo(&["check", "Split.tla", "--json", "--workers", workers]);
        let (r, _) = report(&out);
        assert_eq!(r["result"], "safety_violation", "{r}");
        let figures = ["distinct_states", "states_generated", "states_left_on_queue", "counterexample_length"].map(|k| r[k].as_u64());
        assert_eq!(figures, [Some(6), Some(6), Some(3), Some(3)], "{workers} workers: {r}");
    }
}

/// TLC counts each successor as it produces it and stops at the first that violates an
/// invariant: Stop's violating 6 is the second of the three successors of one action (a
/// quantifier over a set that reads the state), and neither the third nor the next disjunct's
/// is counted. TLC 2.15, `-workers 1`: 11 states generated, 7 distinct, 3 left on queue
/// (counting the whole action would give 12).
#[test]
fn generated_states_at_a_stop_end_at_the_violating_successor() {
    for workers in ["1", "3"] {
        let out = sysmo(&["check", "Stop.tla", "--json", "--workers", workers]);
        let (r, _) = report(&out);
        assert_eq!(r["result"], "safety_violation", "{r}");
        let figures = ["distinct_states", "states_generated", "states_left_on_queue", "counterexample_length"].map(|k| r[k].as_u64());
        assert_eq!(figures, [Some(7), Some(11), Some(3), Some(3)], "{workers} workers: {r}");
    }
}

/// An action that fails part-way: the successor TLC produced before the failure is counted,
/// stored and queued. TLC 2.15, `-workers 1`: 2 states generated, 2 distinct, 1 left on queue.
#[test]
fn successors_before_an_evaluation_error_are_counted_and_kept() {
    for workers in ["1", "3"] {
        let out = sysmo(&["check", "StopFail.tla", "--json", "--workers", workers]);
        let (r, _) = report(&out);
        assert_eq!(r["result"], "eval_error", "{r}");
        let figures = ["distinct_states", "states_generated", "states_left_on_queue"].map(|k| r[k].as_u64());
        assert_eq!(figures, [Some(2), Some(2), Some(1)], "{workers} workers: {r}");
    }
}
