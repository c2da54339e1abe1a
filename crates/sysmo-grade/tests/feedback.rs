//! The repair text of a grade (`sysmo_grade::feedback`): for the first stage short of 1.0, what
//! a model's author needs to fix it, within a size limit. Snapshots of the spin task's wrong
//! models, one per stage that can come first.

use expect_test::{expect, Expect};
use sysmo_grade::{feedback, grade, ModelInput, TaskInput};

fn check(model: &str, limit: usize, want: Expect) {
    let t = sysmo_tasks::task("spin").expect("the spin task");
    let task = TaskInput::from_folder(t.files, t.traces).with_system_graph(t.system_graph());
    let r = grade(&task, &ModelInput { name: "spin.tla", text: model, cfg: None, mapping: None }, &|| false);
    let text = feedback(&r, model, limit);
    assert!(text.len() <= limit + 100, "{} characters", text.len());
    // The same model, graded again, gives the same bytes.
    let again = grade(&task, &ModelInput { name: "spin.tla", text: model, cfg: None, mapping: None }, &|| false);
    assert_eq!(feedback(&again, model, limit), text, "the repair text is deterministic");
    want.assert_eq(&text);
}

#[test]
fn a_runtime_error_shows_the_action_and_the_state() {
    let model = include_str!("../../../tasks/spin/wrong/runtime-error/spin.tla");
    check(model, 4000, expect![[r#"
        Grade of spin.tla on task spin: syntax 1.0000, runtime 0.0000, conformance 0.0000 (skipped), invariants 0.0000 (skipped), precision 0.0000 (skipped); overall 0.2500.
        Fix the runtime stage first; the stages after it depend on it.

        The exhaustive run (deadlock checking off, at most 100000 states, depth 100) stopped with eval_error: E0403: Attempted to compare the boolean FALSE with the string "false" (spin.tla:17:11)
        at line 17, in TryLock: /\ IF locked = "false"
        The path to it:
          state 1 (initial): locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle")

        Later stages, for information: conformance 0.0000 (skipped), invariants 0.0000 (skipped), precision 0.0000 (skipped).
    "#]]);
}

#[test]
fn a_syntax_error_shows_its_line_and_hint() {
    let reference = sysmo_tasks::task("spin").unwrap().file("reference/spin.tla").unwrap();
    let broken = reference.replace("pc' = [pc EXCEPT ![t] = \"idle\"]", "pc' = [pc EXCEPT ![t] == \"idle\"]");
    assert_ne!(broken, reference);
    check(&broken, 600, expect![[r#"
        Grade of spin.tla on task spin: syntax 0.4500, runtime 0.0000 (skipped), conformance 0.0000 (skipped), invariants 0.0000 (skipped), precision 0.0000 (skipped); overall 0.1125.
        Fix the syntax stage first; the stages after it depend on it.

        The module has 3 error(s); 9 of 10 definitions check on their own.
        line 56, column 30: E0111 `==` defines an operator; it cannot appear inside an expression
          |     /\ pc' = [pc EXCEPT ![t] == "idle"]
          |                              ^
          hint: write `=` for equality
        line 63, column 12: E0201 unknown name `Unlock`
          |         \/ Unlock(t)
          |            ^
        [7 more lines left out to keep this text short]
    "#]]);
}

#[test]
fn a_conformance_failure_shows_the_step_and_the_false_conjunct() {
    check(include_str!("../../../tasks/spin/wrong/trylock-blocks/spin.tla"), 2_000, expect![[r#"
        Grade of spin.tla on task spin: syntax 1.0000, runtime 1.0000, conformance 0.7500, invariants 1.0000, precision 0.0000 (skipped); overall 0.9375.
        Fix the conformance stage first; the stages after it depend on it.

        449 of 465 trace steps (windows) replay; the actions whose steps the model cannot take:
        - TryLock: 16 of 96 steps fail.
          first at traces/spin/random-001.ndjson line 6 (step TryLock with t = 1): the action is not enabled in the 1 model state(s) that agree with the state before the step
          the first FALSE conjunct (spin.tla:17:8): ~locked, where locked = TRUE

        Later stages, for information: invariants 1.0000 (ran), precision 0.0000 (skipped).
    "#]]);
}

#[test]
fn a_violated_invariant_shows_its_counterexample() {
    check(include_str!("../../../tasks/spin/wrong/spin-on-free-lock/spin.tla"), 2_000, expect![[r#"
        Grade of spin.tla on task spin: syntax 1.0000, runtime 1.0000, conformance 1.0000, invariants 0.8571, precision 0.7941; overall 0.9643.
        Fix the invariants stage first; the stages after it depend on it.

        - NoDeadlock (invariant, must hold): violated
            state 1 (initial): locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle")
            state 2 after LockSpin(t=0): pc' = (0 :> "spin" @@ 1 :> "idle" @@ 2 :> "idle")
            state 3 after LockSpin(t=1): pc' = (0 :> "spin" @@ 1 :> "spin" @@ 2 :> "idle")
            state 4 after LockSpin(t=2): pc' = (0 :> "spin" @@ 1 :> "spin" @@ 2 :> "spin")

        Later stages, for information: precision 0.7941 (ran).
    "#]]);
}

#[test]
fn an_over_permissive_model_shows_the_steps_the_code_never_takes() {
    check(include_str!("../../../tasks/spin/wrong/trylock-fails-while-free/spin.tla"), 1_500, expect![[r#"
        Grade of spin.tla on task spin: syntax 1.0000, runtime 1.0000, conformance 1.0000, invariants 1.0000, precision 0.8710; overall 1.0000.
        Fix the precision stage first; the stages after it depend on it.

        The model allows 12 step(s) that the code never takes (it conforms to the traces, but forbids too little). The first ones:
        - the model allows TryLock(t=0) from locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle"), changing no observed field; the code's TryLock(t=0) from there goes to locked' = TRUE, pc' = (0 :> "cs" @@ 1 :> "idle" @@ 2 :> "idle")
            state 1 (initial): locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle")
            state 2 after TryLock(t=0): changes no variable
        - the model allows TryLock(t=1) from locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle"), changing no observed field; the code's TryLock(t=1) from there goes to locked' = TRUE, pc' = (0 :> "idle" @@ 1 :> "cs" @@ 2 :> "idle")
            state 1 (initial): locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle")
            state 2 after TryLock(t=1): changes no variable
        - the model allows TryLock(t=2) from locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle"), changing no observed field; the code's TryLock(t=2) from there goes to locked' = TRUE, pc' = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "cs")
            state 1 (initial): locked = FALSE, pc = (0 :> "idle" @@ 1 :> "idle" @@ 2 :> "idle")
            state 2 after TryLock(t=2): changes no variable
        [12 more lines left out to keep this text short]
    "#]]);
}

#[test]
fn the_reference_has_nothing_to_repair() {
    let reference = sysmo_tasks::task("spin").unwrap().file("reference/spin.tla").unwrap();
    check(reference, 1_000, expect![[r#"
        Grade of spin.tla on task spin: syntax 1.0000, runtime 1.0000, conformance 1.0000, invariants 1.0000, precision 1.0000; overall 1.0000.
        Every stage scores 1.0: nothing to repair.
    "#]]);
}
