//! `sysmo check` and `sysmo simulate` as a user runs them, on the small specs of tests/data:
//! exit codes as TLC's, the JSON report's shape, ITF counterexamples, seeded simulation.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn sysmo(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sysmo")).args(args).current_dir(data()).output().unwrap()
}

fn json(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)))
}

/// The ITF trace is well formed: meta, vars, indexed states holding every variable.
fn assert_itf(cx: &Value, len: usize) {
    assert_eq!(cx["#meta"]["format"], "ITF", "{cx}");
    let vars: Vec<&str> = cx["vars"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let states = cx["states"].as_array().unwrap();
    assert_eq!(states.len(), len, "{cx}");
    for (i, s) in states.iter().enumerate() {
        assert_eq!(s["#meta"]["index"], i, "{s}");
        for v in &vars {
            assert!(s.get(*v).is_some(), "{v} missing in {s}");
        }
        assert_eq!(s["#meta"].get("action").is_some(), i > 0, "{s}");
    }
}

#[test]
fn success_exits_0_with_tlc_counts_and_coverage() {
    let out = sysmo(&["check", "Counter.tla", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let r = json(&out);
    assert_eq!(r["result"], "success");
    // Init, four Incs, then Reset to x = 0 with the last log (new); Inc from there is seen.
    assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64(), r["depth"].as_u64()), (Some(6), Some(7), Some(6)));
    assert!(r["counterexample"].is_null());
    let cov = r["coverage"].as_array().unwrap();
    assert_eq!(cov[0]["action"], "Inc");
    assert_eq!((cov[0]["distinct"].as_u64(), cov[0]["generated"].as_u64()), (Some(4), Some(5)));
    for key in ["property", "elapsed_seconds", "states_generated"] {
        assert!(r.get(key).is_some(), "{key} missing");
    }
    let text = String::from_utf8_lossy(&sysmo(&["check", "Counter.tla"]).stdout).into_owned();
    assert!(text.contains("7 states generated, 6 distinct states found, 0 states left on queue."), "{text}");
}

#[test]
fn invariant_violation_exits_12_with_a_shortest_itf_trace() {
    let out = sysmo(&["check", "Counter.tla", "--config", "CounterBad.cfg", "--json"]);
    assert_eq!(out.status.code(), Some(12));
    let r = json(&out);
    assert_eq!(r["result"], "safety_violation");
    assert_eq!(r["property"], "Small");
    assert_eq!(r["counterexample_length"], 4);
    let cx = &r["counterexample"];
    assert_itf(cx, 4);
    assert_eq!(cx["states"][3]["x"], 3);
    assert_eq!(cx["states"][2]["log"], serde_json::json!({"step": 1, "seen": {"#set": [1, 2]}}));
    assert_eq!(cx["states"][0]["log"], serde_json::json!({"#tup": []}));
    let text = String::from_utf8_lossy(&sysmo(&["check", "Counter.tla", "--config", "CounterBad.cfg"]).stdout).into_owned();
    assert!(text.contains("Error: Invariant Small is violated.") && text.contains("State 4: <Inc>\n/\\ x = 3"), "{text}");
}

#[test]
fn deadlock_exits_11() {
    let out = sysmo(&["check", "Stuck.tla", "--json"]);
    assert_eq!(out.status.code(), Some(11));
    let r = json(&out);
    assert_eq!(r["result"], "deadlock");
    // Shortest path to n = 3 starts from n = 1.
    assert_itf(&r["counterexample"], 3);
    assert_eq!(r["counterexample"]["states"][2]["n"], 3);
}

#[test]
fn false_assumption_exits_10() {
    let out = sysmo(&["check", "Assume.tla", "--json"]);
    assert_eq!(out.status.code(), Some(10));
    let r = json(&out);
    assert_eq!(r["result"], "assumption_violation");
    assert!(r["message"].as_str().unwrap().contains("Assume.tla:4:1"), "{r}");
}

#[test]
fn evaluation_error_exits_75_with_the_trace_to_the_failing_state() {
    let out = sysmo(&["check", "EvalError.tla", "--json"]);
    assert_eq!(out.status.code(), Some(75));
    let r = json(&out);
    assert_eq!(r["result"], "eval_error");
    assert!(r["message"].as_str().unwrap().contains("E0402"), "{r}");
    assert_itf(&r["counterexample"], 2);
    assert_eq!(r["counterexample"]["states"][1]["k"], 1);
}

#[test]
fn failed_assert_exits_14() {
    let out = sysmo(&["check", "Asserts.tla", "--json"]);
    assert_eq!(out.status.code(), Some(14));
    assert_eq!(json(&out)["result"], "assertion_failure");
}

#[test]
fn parse_and_config_errors_exit_150_and_151() {
    let dir = std::env::temp_dir().join(format!("sysmo-check-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Bad.tla"), "---- MODULE Bad ----\nVARIABLE x\nInit == x = \n====\n").unwrap();
    std::fs::write(dir.join("Bad.cfg"), "INIT Init\n").unwrap();
    std::fs::write(dir.join("NoCfg.tla"), "---- MODULE NoCfg ----\nVARIABLE x\nInit == x = 1\nNext == x' = x\n====\n").unwrap();
    std::fs::write(dir.join("Wrong.cfg"), "INIT Init\nNEXT Nope\n").unwrap();
    let run = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_sysmo")).args(args).current_dir(&dir).output().unwrap();
    assert_eq!(run(&["check", "Bad.tla"]).status.code(), Some(150));
    let out = run(&["check", "NoCfg.tla", "--json"]);
    assert_eq!(out.status.code(), Some(151));
    assert_eq!(json(&out)["result"], "config_error");
    assert_eq!(run(&["check", "NoCfg.tla", "--config", "Wrong.cfg"]).status.code(), Some(151));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn max_states_budget_stops_without_error() {
    let out = sysmo(&["check", "Counter.tla", "--json", "--max-states", "3"]);
    assert_eq!(out.status.code(), Some(0));
    let r = json(&out);
    assert_eq!(r["result"], "budget_exhausted");
    assert_eq!(r["distinct_states"], 3);
}

#[test]
fn simulation_is_deterministic_per_seed() {
    let args = ["simulate", "Counter.tla", "--depth", "12", "--num", "20", "--json"];
    let a = json(&sysmo(&[&args[..], &["--seed", "5"]].concat()));
    let b = json(&sysmo(&[&args[..], &["--seed", "5"]].concat()));
    assert_eq!(a["result"], "success");
    assert_eq!(a["coverage"], b["coverage"]);
    assert_eq!(a["steps"], 20 * 11);
    assert_eq!(a["behaviours"], 20);
    // Reset is taken only after four Incs: a behaviour of 12 states takes it twice at most.
    let reset = a["coverage"][1]["taken"].as_u64().unwrap();
    assert!((1..=40).contains(&reset), "{a}");
}

#[test]
fn simulation_finds_the_violation_and_reports_itf() {
    let out = sysmo(&["simulate", "Counter.tla", "--config", "CounterBad.cfg", "--depth", "10", "--num", "5", "--seed", "1", "--json"]);
    assert_eq!(out.status.code(), Some(12));
    let r = json(&out);
    assert_eq!(r["result"], "safety_violation");
    let n = r["counterexample_length"].as_u64().unwrap() as usize;
    assert_itf(&r["counterexample"], n);
    assert_eq!(r["counterexample"]["states"][n - 1]["x"], 3);
}

/// ENABLED of an action that leaves a variable unassigned: that variable may take any value, so
/// the action is enabled (TLC agrees: FreeEnabled has no error), and fairness applies.
#[test]
fn fairness_on_an_action_that_leaves_a_variable_free() {
    let out = sysmo(&["check", "FreeEnabled.tla", "--json"]);
    let r = json(&out);
    assert_eq!(r["result"], "success", "{r}");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64()), (Some(2), Some(3)));
}

/// An action property `[][A]_v` violated by a step: exit 12, the property named in the JSON and
/// the text, the trace ending with the step (Reset takes x from 4 back to 0).
#[test]
fn action_property_violation_names_the_property() {
    let out = sysmo(&["check", "Counter.tla", "--config", "CounterDown.cfg", "--json"]);
    assert_eq!(out.status.code(), Some(12));
    let r = json(&out);
    assert_eq!(r["result"], "safety_violation", "{r}");
    assert_eq!(r["property"], "OnlyUp", "{r}");
    assert_eq!(r["counterexample_length"], 6, "{r}");
    let text = String::from_utf8_lossy(&sysmo(&["check", "Counter.tla", "--config", "CounterDown.cfg"]).stdout).into_owned();
    assert!(text.contains("OnlyUp is violated"), "{text}");
}

/// ENABLED of an instance's fairness condition reads the instance's own variables, with only the
/// unprimed ones replaced by their substitutes (TLC 2.15 agrees on both runs). In SubstEnabled,
/// `P == INSTANCE PairedCounter WITH p <- y, q <- y, r <- z \div 2`: Both (`p' = 1 /\ q' = 2`) is
/// enabled though `y'` cannot be 1 and 2 at once, so `WF(Both)` fails once z stops at 6 (TLC: a
/// stuttering counterexample of 8 states); Bump's `r' = r + 1` is enabled while `z \div 2 < 3`
/// without asking for a `z'`, and Bump steps happen, so `WF_r(Bump)` holds.
#[test]
fn enabled_inside_an_instance_reads_the_instance_variables() {
    let out = sysmo(&["check", "SubstEnabled.tla", "--json"]);
    let r = json(&out);
    assert_eq!(r["result"], "liveness_violation", "{r}");
    assert_eq!(out.status.code(), Some(13));
    assert_eq!(r["property"], "Refines", "{r}");
    assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64()), (Some(7), Some(7)));
    assert_eq!(r["counterexample_length"], 8, "{r}");
    let last = &r["counterexample"]["states"][6];
    assert_eq!((&last["y"], &last["z"]), (&Value::from(0), &Value::from(6)), "{r}");

    let out = sysmo(&["check", "SubstEnabled.tla", "--config", "SubstEnabledBump.cfg", "--json"]);
    let r = json(&out);
    assert_eq!(r["result"], "success", "{r}");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64()), (Some(7), Some(7)));
}

/// Under a budget the temporal properties are checked only when the budget covers the whole
/// state space (SubstEnabled has 7 states): then the answer is the unbudgeted one; otherwise
/// the run ends "budget exhausted" (a budget of 7 is used up by the 7th state) and says nothing
/// of them.
#[test]
fn a_budget_checks_temporal_properties_only_when_it_covers_the_state_space() {
    for budget in ["8", "100"] {
        let out = sysmo(&["check", "SubstEnabled.tla", "--json", "--max-states", budget]);
        let r = json(&out);
        assert_eq!(r["result"], "liveness_violation", "--max-states {budget}: {r}");
        assert_eq!(out.status.code(), Some(13));
        assert_eq!(r["counterexample_length"], 8, "{r}");
        assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64()), (Some(7), Some(7)));
        let out = sysmo(&["check", "SubstEnabled.tla", "--config", "SubstEnabledBump.cfg", "--json", "--max-states", budget]);
        assert_eq!(json(&out)["result"], "success", "--max-states {budget}");
    }
    let out = sysmo(&["check", "SubstEnabled.tla", "--json", "--max-states", "7"]);
    let r = json(&out);
    assert_eq!(r["result"], "budget_exhausted", "{r}");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(r["distinct_states"], 7, "{r}");
    let out = sysmo(&["check", "SubstEnabled.tla", "--json", "--max-depth", "3"]);
    assert_eq!(json(&out)["result"], "budget_exhausted");
}

/// A name an instance declares and leaves to the same name one module out reads what that name
/// means there, in that module's context: in Hallway, `D!L!Now` is Light's `lit`, which Dimmer
/// defines as `level > 0` (with `level <- k % 3`), not Hallway's own `lit == k`. TLC 2.15: no
/// error, 5 distinct states, 6 generated.
#[test]
fn an_implicit_substitution_reads_the_outer_module_definition() {
    let out = sysmo(&["check", "Hallway.tla", "--json"]);
    let r = json(&out);
    assert_eq!(r["result"], "success", "{r}");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64(), r["depth"].as_u64()), (Some(5), Some(6), Some(5)));
}

/// `P => Q` in an action: when P holds, Q is enumerated as an action (it may assign variables
/// and branch), as TLC does; figures from TLC 2.15 (see BranchCount.tla).
#[test]
fn an_implication_in_an_action_enumerates_its_conclusion() {
    let out = sysmo(&["check", "BranchCount.tla", "--json"]);
    let r = json(&out);
    assert_eq!(r["result"], "success", "{r}");
    assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64(), r["depth"].as_u64()), (Some(6), Some(8), Some(4)));
}

/// Coverage lists TLC's actions: Next split through `\/`, `\E` over sets that do not depend on
/// the state, LET and definitions applied to such arguments, each action named after its
/// definition and placed as TLC places it, listed by place. The counts and places are TLC
/// 2.15's (`-coverage 1`) on the same spec, with one difference on purpose: where TLC names
/// `\E m \in msgs : Receive(m)` after Next (the set depends on the state, so TLC does not split
/// there), the action is named after the operator it applies. The same with 2 workers.
#[test]
fn coverage_lists_tlcs_actions_with_tlcs_counts_and_places() {
    let tlc = [
        "<Send line 6, col 1 to line 6, col 7 of module ActionSplit>: 16:102",
        "<Try line 8, col 1 to line 8, col 6 of module ActionSplit (9 8 9 52)>: 15:40",
        "<Try line 8, col 1 to line 8, col 6 of module ActionSplit (10 8 10 55)>: 6:40",
        "<Reset line 12, col 1 to line 12, col 5 of module ActionSplit (13 12 13 82)>: 9:16",
        "<Next line 15, col 1 to line 15, col 4 of module ActionSplit (17 8 17 33)>: 39:134",
        "<Bump line 14, col 1 to line 14, col 7 of module ActionSplit (19 8 19 14)>: 45:63",
        "<Next line 15, col 1 to line 15, col 4 of module ActionSplit (20 48 20 115)>: 4:32",
    ];
    let ours: Vec<String> = tlc
        .iter()
        .map(|l| l.replace("<Next line 15, col 1 to line 15, col 4 of module ActionSplit (17", "<Receive line 11, col 1 to line 11, col 10 of module ActionSplit (17"))
        .collect();
    for workers in ["1", "2"] {
        let out = sysmo(&["check", "ActionSplit.tla", "--workers", workers]);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  <")).map(str::trim).collect();
        assert_eq!(lines, ours, "{workers} workers:\n{text}");
        assert!(text.contains("428 states generated, 135 distinct states found"), "{text}");
    }
    let r = json(&sysmo(&["check", "ActionSplit.tla", "--json"]));
    let names: Vec<&str> = r["coverage"].as_array().unwrap().iter().map(|c| c["action"].as_str().unwrap()).collect();
    assert_eq!(names, ["Send", "Try", "Try", "Reset", "Receive", "Bump", "Next"]);
    assert_eq!(r["coverage"][1]["location"], "line 8, col 1 to line 8, col 6 of module ActionSplit (9 8 9 52)");
    // A definition split where its argument is constant (`Handle(k)`, LET k == 1) and taken
    // whole where it is not (`Handle(m)`, m read from the state): TLC 2.15's rows.
    let tlc_let = [
        "<Handle line 7, col 1 to line 7, col 9 of module ActionSplitLet (7 17 7 41)>: 2:5",
        "<Handle line 7, col 1 to line 7, col 9 of module ActionSplitLet (8 17 8 41)>: 0:0",
        "<Handle line 7, col 1 to line 7, col 9 of module ActionSplitLet (9 30 9 38)>: 2:5",
    ];
    for workers in ["1", "2"] {
        let text = String::from_utf8_lossy(&sysmo(&["check", "ActionSplitLet.tla", "--workers", workers]).stdout).into_owned();
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  <")).map(str::trim).collect();
        assert_eq!(lines, tlc_let, "{workers} workers:\n{text}");
    }
    // Simulation counts by the same actions.
    let sim = json(&sysmo(&["simulate", "ActionSplit.tla", "--depth", "8", "--num", "5", "--json"]));
    let simulated: Vec<&str> = sim["coverage"].as_array().unwrap().iter().map(|c| c["action"].as_str().unwrap()).collect();
    assert_eq!(simulated.len(), 7, "{sim}");
    assert!(simulated.contains(&"Receive") && simulated.contains(&"Try"), "{sim}");
}

/// TLC's registers: `TLCSet` in an ASSUME and in Next, `TLCGet` in Next and in an invariant,
/// read in TLC's order. TLC 2.15: the invariant fails at x = 3 (4 states generated, 4
/// distinct, a trace of 4 states); an unset register is an evaluation error after 1 state.
/// Asked for 2 workers, the run uses one (registers follow one worker's order) and says so.
#[test]
fn tlc_registers_are_set_and_read_as_in_tlc() {
    for workers in ["1", "2"] {
        let out = sysmo(&["check", "Registers.tla", "--workers", workers, "--json"]);
        assert_eq!(out.status.code(), Some(12), "{workers} workers");
        let r = json(&out);
        assert_eq!(r["property"], "Counted");
        assert_eq!((r["distinct_states"].as_u64(), r["states_generated"].as_u64()), (Some(4), Some(4)), "{r}");
        assert_itf(&r["counterexample"], 4);
        assert_eq!(r["workers"], 1);
        assert_eq!(String::from_utf8_lossy(&out.stderr).contains("exploring with 1 worker"), workers == "2");
    }
    let out = sysmo(&["check", "Registers.tla", "--config", "RegistersUnset.cfg", "--json"]);
    assert_eq!(out.status.code(), Some(75));
    let r = json(&out);
    assert!(r["message"].as_str().unwrap().starts_with("E0418: TLCGet(7) was undefined"), "{r}");
    assert_eq!(r["states_generated"].as_u64(), Some(1));
}

#[test]
fn tlcset_exit_stops_after_the_state_being_expanded_as_tlc_does() {
    // TLC 2.15 on Exit.tla: 10 generated, 7 distinct, 3 left on the queue, depth 4, success.
    for workers in ["1", "2"] {
        let out = sysmo(&["check", "Exit.tla", "--workers", workers, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{workers} workers");
        let r = json(&out);
        assert_eq!(r["result"], "success");
        assert_eq!((r["states_generated"].as_u64(), r["distinct_states"].as_u64(), r["depth"].as_u64()), (Some(10), Some(7), Some(4)), "{r}");
    }
    let text = String::from_utf8_lossy(&sysmo(&["check", "Exit.tla"]).stdout).to_string();
    assert!(text.contains("10 states generated, 7 distinct states found, 3 states left on queue."), "{text}");
    // Asked by the invariant of the initial state: 1 generated, 1 left on the queue (TLC 2.15).
    let text = String::from_utf8_lossy(&sysmo(&["check", "Exit.tla", "--config", "ExitInv.cfg"]).stdout).to_string();
    assert!(text.contains("1 states generated, 1 distinct states found, 1 states left on queue."), "{text}");
    // The explored states are part of the graph only: temporal properties are left unchecked
    // and said so (TLC 2.15 checks them on the part it explored).
    let out = sysmo(&["check", "Exit.tla", "--config", "ExitLive.cfg", "--json"]);
    let r = json(&out);
    assert_eq!((r["result"].as_str(), r["states_generated"].as_u64()), (Some("success"), Some(10)), "{r}");
    assert_eq!(r["unchecked_properties"], serde_json::json!(["Reach"]), "{r}");
    // The simulator stops at the step that asks (x = 3 is reached on the 4th step of the
    // first behaviour with seed 1), not after 50 behaviours.
    let out = sysmo(&["simulate", "Exit.tla", "--depth", "20", "--num", "50", "--seed", "1", "--json"]);
    let r = json(&out);
    assert_eq!((r["result"].as_str(), r["behaviours"].as_u64(), r["steps"].as_u64()), (Some("success"), Some(0), Some(4)), "{r}");
}

/// `TLCGet("config")` answers TLC's record of the run's settings in `sysmo check` (in the
/// ASSUMEs too), and is an error that says so in `sysmo simulate`.
#[test]
fn tlcget_config_is_the_checkers_record() {
    let r = json(&sysmo(&["check", "ConfigGet.tla", "--json"]));
    assert_eq!(r["result"], "success", "{r}");
    assert_eq!(r["distinct_states"], 4, "{r}");
    let out = sysmo(&["simulate", "ConfigGet.tla", "--json", "--seed", "1"]);
    let r = json(&out);
    assert!(r["message"].as_str().is_some_and(|m| m.contains("TLCGet(\"config\")")), "{r}");
}

/// TLC's random draws cannot be reproduced: RandomElement is an error that names it and says
/// what to write instead, never a run on values of our own choosing.
#[test]
fn random_element_is_unsupported_by_name() {
    let out = sysmo(&["check", "RandomPick.tla", "--json"]);
    assert_eq!(out.status.code(), Some(75));
    let r = json(&out);
    assert!(r["message"].as_str().is_some_and(|m| m.contains("RandomElement is not supported")), "{r}");
}

/// The graph operators TLC computes in Java give what their modules define (checked in the
/// spec's ASSUMEs against the definitions with bounded paths).
#[test]
fn graph_overrides_agree_with_their_definitions() {
    let out = sysmo(&["check", "GraphOps.tla", "--json"]);
    let r = json(&out);
    assert_eq!(r["result"], "success", "{r}");
}

/// What the ASSUMEs printed before one failed is shown with the error, as TLC shows it.
#[test]
fn output_printed_before_a_failing_assumption_is_kept() {
    let out = sysmo(&["check", "PrintThenFail.tla"]);
    assert_eq!(out.status.code(), Some(10));
    let err = String::from_utf8_lossy(&out.stderr);
    let (printed, error) = (err.find("\"before the failure\""), err.find("Assumption is false"));
    assert!(printed.is_some() && printed < error, "{err}");
}

/// JavaTime is this machine's clock through `sysmo check`.
#[test]
fn java_time_is_the_machines_clock() {
    let out = sysmo(&["check", "WallClock.tla", "--json"]);
    let r = json(&out);
    assert_eq!(r["result"], "success", "{r}");
    assert_eq!(r["distinct_states"], 1, "{r}");
}

/// IOEnv answers the environment of the `sysmo` process; a library operator TLC replaces with
/// other I/O in Java is an error that says so.
#[test]
fn ioenv_reads_the_environment_and_other_io_is_refused_by_name() {
    let run = |value: Option<&str>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sysmo"));
        cmd.args(["check", "ReadsEnv.tla", "--json"]).current_dir(data()).env_remove("SYSMO_TEST_COUNT");
        if let Some(v) = value {
            cmd.env("SYSMO_TEST_COUNT", v);
        }
        let r = json(&cmd.output().unwrap());
        (r["result"].as_str().unwrap_or("").to_string(), r["distinct_states"].as_u64())
    };
    assert_eq!(run(None), ("success".to_string(), Some(4)));
    assert_eq!(run(Some("2")), ("success".to_string(), Some(2)));
    let out = sysmo(&["check", "ReadsEnv.tla", "--config", "ReadsEnvExec.cfg", "--json"]);
    assert_eq!(out.status.code(), Some(75));
    let r = json(&out);
    assert!(r["message"].as_str().is_some_and(|m| m.contains("IOSerialize (module IOUtils) is not supported")), "{r}");
}

/// The I/O operators (Json, CSV, IOUtils) read and write the machine's files and run its
/// programs through `sysmo check`: the ASSUMEs of MachineIo state what each gives back, in a fresh
/// folder. Without the folder, the first ASSUME fails (IOEnv has no such field).
#[test]
fn io_operators_use_the_machines_files_and_programs() {
    let dir = std::env::temp_dir().join(format!("sysmo-io-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |with_dir: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sysmo"));
        cmd.args(["check", "MachineIo.tla", "--json"]).current_dir(data()).env_remove("SYSMO_TEST_DIR");
        if with_dir {
            cmd.env("SYSMO_TEST_DIR", &dir);
        }
        json(&cmd.output().unwrap())
    };
    let r = run(true);
    assert_eq!((r["result"].as_str(), r["distinct_states"].as_u64()), (Some("success"), Some(3)), "{r}");
    assert_eq!(std::fs::read_to_string(dir.join("sub/v.json")).unwrap(), r#"{"a":1,"b":["x",true],"c":[1,2]}"#);
    assert_eq!(std::fs::read_to_string(dir.join("t.csv")).unwrap(), "1#\"a\"\n2#{3}\n");
    assert_ne!(run(false)["result"], "success");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `A \cdot B` explores the steps written out by hand, and counts each intermediate state (each
/// state A reaches) as a state generated, as TLC does: the composed run generates the explicit
/// run's states plus one per Inc and per Bump successor, which the explicit run's coverage of
/// Inc and Bump counts.
#[test]
fn action_composition_is_the_steps_written_out_and_counts_its_intermediate_states() {
    let figures = |spec: &str, cfg: &str| {
        let r = json(&sysmo(&["check", spec, "--config", cfg, "--json"]));
        let cov: Vec<u64> = r["coverage"].as_array().unwrap().iter().map(|c| c["generated"].as_u64().unwrap()).collect();
        (r["result"].as_str().unwrap().to_string(), r["distinct_states"].as_u64().unwrap(), r["states_generated"].as_u64().unwrap(), r["depth"].as_u64(), r["counterexample_length"].as_u64(), cov)
    };
    for (cfg, explicit_cfg) in [("Compose.cfg", "ComposeExplicit.cfg"), ("ComposeBounded.cfg", "ComposeExplicitBounded.cfg")] {
        let composed = figures("Compose.tla", cfg);
        let explicit = figures("ComposeExplicit.tla", explicit_cfg);
        assert_eq!((&composed.0, composed.1, composed.3, composed.4), (&explicit.0, explicit.1, explicit.3, explicit.4), "{cfg}");
        let intermediate = explicit.5[0] + explicit.5[1];
        assert!(intermediate > 0);
        assert_eq!(composed.2, explicit.2 + intermediate, "{cfg}: {composed:?} {explicit:?}");
        assert_eq!(composed.5, explicit.5, "{cfg}");
    }
    // Evaluated on a step: every step satisfies Next's formula; not every step is composed.
    let only = figures("Compose.tla", "ComposeOnly.cfg");
    assert_eq!((only.0.as_str(), only.4), ("safety_violation", Some(2)), "{only:?}");
}

/// Json's ToJson family gives TLC's text (the ASSUMEs of JsonOut state it); ToJsonObject of a
/// sequence, whose answer in TLC depends on how the value was built, is an error that says so.
#[test]
fn json_text_is_tlcs_and_an_ambiguous_object_is_refused() {
    let out = sysmo(&["check", "JsonOut.tla", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let out = sysmo(&["check", "JsonOut.tla", "--config", "JsonOutTuple.cfg", "--json"]);
    assert_eq!(out.status.code(), Some(75));
    let r = json(&out);
    assert!(r["message"].as_str().is_some_and(|m| m.contains("ToJsonObject: the sequence <<1>>")), "{r}");
}

/// A SPECIFICATION with two `[][A]_v` conjuncts is refused, as TLC refuses it; `[]P` of a
/// state or temporal formula is an assumption (see tests/tlc/SpecAssumption).
#[test]
fn two_next_state_relations_are_a_config_error() {
    let out = sysmo(&["check", "TwoNext.tla", "--json"]);
    assert_eq!(out.status.code(), Some(151));
    let r = json(&out);
    assert!(r["message"].as_str().is_some_and(|m| m.contains("more than one next-state relation")), "{r}");
}

/// TLCExt's TLCGetOrDefault and TLCModelValue (computed natively, as TLC does in Java), TLC's
/// named registers (`TLCSet("s:name", v)`), and TLCGetAndSet, TLCNoOp, TLCCache and AssertEq
/// from their text: the ASSUMEs of RegistersExt state what each gives.
#[test]
fn tlcext_operators_and_named_registers() {
    let out = sysmo(&["check", "RegistersExt.tla", "--json"]);
    let r = json(&out);
    assert_eq!(out.status.code(), Some(0), "{r}");
    assert_eq!((r["result"].as_str(), r["distinct_states"].as_u64()), (Some("success"), Some(4)), "{r}");
}

/// TLCExt's TLCDefer, TLCEvalDefinition and PickSuccessor as TLC's TLCExt.java evaluates
/// them: a deferred expression is never evaluated while model checking, a definition is
/// found by name in the root module, PickSuccessor is TRUE where TLC asks no one. Where TLC
/// would ask its user, or TLCDefer's expression would run (simulation), the run stops with
/// an error naming the operator; so does a name that is not a definition without parameters.
#[test]
fn tlcext_defer_eval_definition_and_pick_successor() {
    let out = sysmo(&["check", "RegistersDefer.tla", "--json"]);
    let r = json(&out);
    assert_eq!(out.status.code(), Some(0), "{r}");
    assert_eq!((r["result"].as_str(), r["distinct_states"].as_u64()), (Some("success"), Some(4)), "{r}");
    for (cfg, code, says) in [
        ("RegistersDeferAsks.cfg", "E0411", "PickSuccessor's condition is FALSE on a successor"),
        ("RegistersDeferNotDef.cfg", "E0415", "\"x\" is not the name of a definition"),
        ("RegistersDeferParams.cfg", "E0417", "Scaled takes 1"),
    ] {
        let out = sysmo(&["check", "RegistersDefer.tla", "--config", cfg, "--json"]);
        let r = json(&out);
        assert_eq!((out.status.code(), r["result"].as_str()), (Some(75), Some("eval_error")), "{cfg}: {r}");
        let m = r["message"].as_str().unwrap_or("");
        assert!(m.starts_with(code) && m.contains(says), "{cfg}: {r}");
    }
    let out = sysmo(&["simulate", "RegistersDefer.tla", "--json"]);
    let r = json(&out);
    assert_eq!(out.status.code(), Some(75), "{r}");
    assert!(r["counterexample"]["#meta"]["description"].as_str().is_some_and(|m| m.contains("TLCDefer (module TLCExt)")), "{r}");
}

/// SVG's SVGElemToString gives the text TLC's Java override writes, and NodeOfRingNetwork
/// the coordinates it computes (the ASSUMEs of SvgOut state them).
#[test]
fn svg_text_is_tlcs() {
    let out = sysmo(&["check", "SvgOut.tla", "--json"]);
    let r = json(&out);
    assert_eq!(out.status.code(), Some(0), "{r}");
    assert_eq!(r["result"].as_str(), Some("success"), "{r}");
}

/// The .cfg's POSTCONDITION is evaluated once the state space is explored, with
/// TLCGet("stats") giving the run's figures (RegistersPost's states them); a false one is reported as a
/// false assumption is (exit 10), after a temporal property too; `sysmo simulate` says it does
/// not check one.
#[test]
fn postcondition_is_checked_with_the_runs_figures() {
    let out = sysmo(&["check", "RegistersPost.tla", "--json"]);
    let r = json(&out);
    assert_eq!((out.status.code(), r["result"].as_str()), (Some(0), Some("success")), "{r}");
    for cfg in ["RegistersPostFalse.cfg", "RegistersPostLive.cfg"] {
        let out = sysmo(&["check", "RegistersPost.tla", "--config", cfg, "--json"]);
        let r = json(&out);
        assert_eq!(out.status.code(), Some(10), "{cfg}: {r}");
        assert!(r["message"].as_str().is_some_and(|m| m.contains("E0436: Postcondition Wrong is false")), "{cfg}: {r}");
    }
    let out = sysmo(&["check", "RegistersPost.tla", "--config", "RegistersPostBroken.cfg", "--json"]);
    let r = json(&out);
    assert_eq!(out.status.code(), Some(10), "{r}");
    assert!(r["message"].as_str().is_some_and(|m| m.contains("E0436: Evaluating postcondition Broken failed")), "{r}");
    let out = sysmo(&["simulate", "RegistersPost.tla", "--json"]);
    assert_eq!(out.status.code(), Some(151));
}

/// TLCExt's Trace is the behaviour to the state being checked (Inv states it for every state),
/// and in an action the behaviour to the state whose successors are computed: the action that
/// stops once Trace has 3 states reaches x = 2 only. TLC 2.15 predates TLCExt's Trace; what it
/// gives is read in TLC's TLCExt.java.
#[test]
fn trace_is_the_behaviour_to_the_state() {
    for (cfg, distinct) in [("BehaviourTrace.cfg", 4), ("BehaviourTraceAction.cfg", 3)] {
        let r = json(&sysmo(&["check", "BehaviourTrace.tla", "--config", cfg, "--json"]));
        assert_eq!((r["result"].as_str(), r["distinct_states"].as_u64()), (Some("success"), Some(distinct)), "{cfg}: {r}");
    }
    let out = sysmo(&["simulate", "BehaviourTrace.tla", "--json"]);
    let r = json(&out);
    assert!(r["message"].as_str().is_some_and(|m| m.contains("Trace (module TLCExt)")), "{r}");
}
