//! The syntax formula and its gate, and determinism of the whole report.

use sysmo_grade::report::Status;
use sysmo_grade::{grade, ModelInput, TaskInput, TaskSpec};

fn spin() -> (TaskInput<'static>, TaskSpec) {
    let t = sysmo_tasks::task("spin").expect("the spin task");
    (TaskInput::from_folder(t.files, t.traces).with_system_graph(t.system_graph()), TaskSpec::parse(t.task_toml()).expect("task.toml"))
}

/// A spin lock module with 23 top-level definitions, two of which do not parse.
fn twenty_one_of_twenty_three() -> String {
    let mut s = String::from("---- MODULE spin ----\nEXTENDS Naturals\nCONSTANT Threads\nVARIABLES locked, pc\nvars == <<locked, pc>>\n");
    s += "Init == locked = FALSE /\\ pc = [t \\in Threads |-> \"idle\"]\n";
    s += "TryLock(t) == /\\ pc[t] = \"idle\" /\\ ~locked /\\ locked' = TRUE /\\ pc' = [pc EXCEPT ![t] = \"cs\"]\n";
    s += "Unlock(t) == /\\ pc[t] = \"cs\" /\\ locked' = FALSE /\\ pc' = [pc EXCEPT ![t] = \"idle\"]\n";
    s += "Next == \\E t \\in Threads : TryLock(t) \\/ Unlock(t)\n";
    s += "Spec == Init /\\ [][Next]_vars\n";
    // 6 so far; 15 more that parse...
    for i in 0..15 {
        s += &format!("Helper{i} == {i} + 1\n");
    }
    // ... and two that do not: a definition sign inside an expression, an unclosed bracket.
    s += "Broken1 == [pc EXCEPT ![1] == \"idle\"]\n";
    s += "Broken2 == locked = TRUE /\\ )\n";
    s += "====\n";
    s
}

#[test]
fn twenty_one_of_twenty_three_definitions_score_0_4565_and_skip_the_rest() {
    let (task, _) = spin();
    let text = twenty_one_of_twenty_three();
    let r = grade(&task, &ModelInput { name: "spin.tla", text: &text, cfg: None, mapping: None }, &|| false);
    let sy = &r.stages.syntax;
    assert_eq!((sy.definitions.parsed, sy.definitions.total), (21, 23), "{}", r.to_text());
    assert!((sy.score - 0.4565).abs() < 1e-4, "{}", sy.score);
    assert!(!sy.clean);
    assert!(sy.diagnostics.iter().any(|d| d.severity == tla_syntax::Severity::Error));
    for (score, status) in [
        (r.stages.runtime.score, r.stages.runtime.status),
        (r.stages.conformance.score, r.stages.conformance.status),
        (r.stages.invariants.score, r.stages.invariants.status),
    ] {
        assert_eq!((score, status), (0.0, Status::Skipped));
    }
    assert!((r.overall - sy.score / 4.0).abs() < 1e-12);
    let j = r.to_json();
    assert_eq!(j["schema"], "sysmo-grade/2");
    assert_eq!(j["stages"]["runtime"]["status"], "skipped");
}

#[test]
fn grading_twice_gives_byte_identical_json() {
    let t = sysmo_tasks::task("spin").expect("the spin task");
    let (task, spec) = spin();
    let text = t.file(&format!("reference/{}.tla", spec.module)).unwrap();
    // No .cfg: the task's constants are used.
    let model = ModelInput { name: "spin.tla", text, cfg: None, mapping: None };
    let a = serde_json::to_string(&grade(&task, &model, &|| false).to_json()).unwrap();
    let b = serde_json::to_string(&grade(&task, &model, &|| false).to_json()).unwrap();
    assert_eq!(a, b);
    assert!(!a.contains("elapsed"));
    let r: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert_eq!(r["overall"], 1.0, "{a}");
    assert_eq!(r["combined"], 1.0, "{a}");
}

#[test]
fn an_over_permissive_grade_is_byte_identical_too() {
    // LockSpin without its guard: precision names steps with paths; twice the same bytes.
    let (task, _) = spin();
    let text = include_str!("../../../tasks/spin/wrong/spin-on-free-lock/spin.tla");
    let model = ModelInput { name: "spin.tla", text, cfg: None, mapping: None };
    let a = grade(&task, &model, &|| false);
    let b = grade(&task, &model, &|| false);
    assert_eq!(serde_json::to_string(&a.to_json()).unwrap(), serde_json::to_string(&b.to_json()).unwrap());
    assert!(a.stages.precision.score < 1.0 && !a.stages.precision.steps.is_empty());
    // A report reads back into the same value (the web page reads the worker's JSON).
    let back: sysmo_grade::Report = serde_json::from_value(a.to_json()).unwrap();
    assert_eq!(back, a);
    // A report of the first schema (no precision, no combined) still reads.
    let mut old = a.to_json();
    old["schema"] = "sysmo-grade/1".into();
    old["stages"].as_object_mut().unwrap().remove("precision");
    old.as_object_mut().unwrap().remove("combined");
    let old: sysmo_grade::Report = serde_json::from_value(old).unwrap();
    assert_eq!((old.stages.precision.status, old.combined), (Status::Skipped, None));
}

#[test]
fn a_stop_request_is_reported() {
    let (task, _) = spin();
    let t = sysmo_tasks::task("spin").expect("the spin task");
    let text = t.file("reference/spin.tla").unwrap();
    let r = grade(&task, &ModelInput { name: "spin.tla", text, cfg: None, mapping: None }, &|| true);
    // The spin lock's state space fits in one slice; the stop is seen at the first trace.
    assert_eq!(r.stopped.as_deref(), Some("conformance"), "{}", r.to_text());
    assert!(r.to_text().contains("stopped early"));
}

#[test]
fn a_missing_pinned_module_name_still_grades_and_a_bad_cfg_is_a_runtime_error() {
    let (task, _) = spin();
    let t = sysmo_tasks::task("spin").expect("the spin task");
    let text = t.file("reference/spin.tla").unwrap();
    let r = grade(&task, &ModelInput { name: "spin.tla", text, cfg: Some("SPECIFICATION Nope\n"), mapping: None }, &|| false);
    assert_eq!(r.stages.syntax.score, 1.0);
    assert_eq!(r.stages.runtime.status, Status::Error, "{}", r.to_text());
    assert_eq!(r.stages.conformance.status, Status::Skipped);
    assert_eq!(r.overall, 0.25);
}

/// A model with actions of its own (the no-hints prompt) and its mapping: the reference with
/// every action renamed and one parameter too. Conformance and precision read the steps
/// through the mapping; the invariants that name the pinned actions (TryLockNoSpinning, ...)
/// see them defined as the model's actions, so every stage scores as the reference's.
#[test]
fn a_model_with_its_own_actions_grades_through_its_mapping() {
    let (task, _) = spin();
    let t = sysmo_tasks::task("spin").expect("the spin task");
    let reference = t.file("reference/spin.tla").expect("the reference");
    let renamed = reference
        .replace("TryLock(t)", "Attempt(t)")
        .replace("LockSpin(t)", "Spinning(t)")
        .replace("LockAcquired(t)", "Acquired(t)")
        .replace("Unlock(t) ==\n", "Release(th) ==\n")
        .replace("Unlock(t)", "Release(t)");
    assert!(!renamed.contains("TryLock(") && !renamed.contains("Unlock("), "every action renamed");
    let th = renamed[renamed.find("Release(th) ==").unwrap()..].split("\n\n").next().unwrap().replace("[t]", "[th]");
    let renamed = renamed.replacen(renamed[renamed.find("Release(th) ==").unwrap()..].split("\n\n").next().unwrap(), &th, 1);
    let mapping = r#"{"actions": {"TryLock": "Attempt", "LockSpin": "Spinning", "LockAcquired": "Acquired",
                      "Unlock": {"action": "Release", "args": {"t": "th"}}}}"#;
    let r = grade(&task, &ModelInput { name: "spin.tla", text: &renamed, cfg: None, mapping: Some(mapping) }, &|| false);
    assert_eq!(r.combined, Some(1.0), "{}", r.to_text());
    // Without the mapping the steps have no action to replay.
    let r = grade(&task, &ModelInput { name: "spin.tla", text: &renamed, cfg: None, mapping: None }, &|| false);
    assert!(r.stages.conformance.score < 1.0);
}

/// The counter with its actions in a nested module, reached through an instance (`Next ==
/// I!Next`, `Read(t) == I!Read(t)`): Next draws no parameter the precision stage can find, so
/// each action is taken with the arguments the code's steps give. It grades as the reference
/// does, and the same over-permissive Write (`counter' \in {tmp[t], tmp[t] + 1}`) gives the
/// same precision as written flat: 28 of 38 steps.
#[test]
fn a_model_reached_through_an_instance_grades_as_the_flat_model() {
    let t = sysmo_tasks::task("counter").expect("the counter task");
    let task = TaskInput::from_folder(t.files, t.traces).with_system_graph(t.system_graph());
    let nested = include_str!("data/counter_through_instance.tla");
    let r = grade(&task, &ModelInput { name: "counter.tla", text: nested, cfg: None, mapping: None }, &|| false);
    assert_eq!(r.combined, Some(1.0), "{}", r.to_text());
    assert_eq!((r.stages.precision.matched, r.stages.precision.transitions), (28, 28), "{}", r.to_text());
    let (exact, loose) = ("    /\\ counter' = tmp[t]\n", "    /\\ counter' \\in {tmp[t], tmp[t] + 1}\n");
    let flat = t.file("reference/counter.tla").expect("the reference");
    for (what, text) in [("nested", nested), ("flat", flat)] {
        assert!(text.contains(exact), "{what}");
        let wrong = text.replace(exact, loose);
        let r = grade(&task, &ModelInput { name: "counter.tla", text: &wrong, cfg: None, mapping: None }, &|| false);
        let p = &r.stages.precision;
        assert_eq!((p.matched, p.transitions, p.over_permissive), (28, 38, 10), "{what}: {}", r.to_text());
    }
}
