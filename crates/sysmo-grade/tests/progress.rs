//! The progress hook of `grade_with_progress`: counts grow slice by slice, every stage ends
//! with its score, the last figures are the report's, and stopping from the hook works. Also
//! the step names (`#meta.step`) of a counterexample.

use std::cell::Cell;
use sysmo_grade::{grade, grade_with_progress, ModelInput, Progress, StageState, TaskInput};

fn spin() -> (TaskInput<'static>, &'static str) {
    let t = sysmo_tasks::task("spin").expect("the spin task");
    (TaskInput::from_folder(t.files, t.traces).with_system_graph(t.system_graph()), t.file("reference/spin.tla").expect("the reference"))
}

fn run(task: &TaskInput<'_>, model: &ModelInput<'_>, stop: &dyn Fn(&[Progress]) -> bool) -> (sysmo_grade::Report, Vec<Progress>) {
    let seen = std::cell::RefCell::new(Vec::<Progress>::new());
    let should_stop = || stop(&seen.borrow());
    let r = grade_with_progress(task, model, &should_stop, &mut |p| seen.borrow_mut().push(p.clone()));
    (r, seen.into_inner())
}

fn done_stages(ps: &[Progress]) -> Vec<(&str, f64, &'static str)> {
    ps.iter()
        .filter_map(|p| match p.state {
            StageState::Done { score, status } => Some((p.stage.as_ref(), score, status.as_str())),
            StageState::Running => None,
        })
        .collect()
}

#[test]
fn the_reference_reports_every_stage_and_its_last_figures_are_the_reports() {
    let (task, text) = spin();
    let model = ModelInput { name: "spin.tla", text, cfg: None, mapping: None };
    let (r, ps) = run(&task, &model, &|_| false);
    // The same report as without the hook.
    let plain = grade(&task, &model, &|| false);
    assert_eq!(serde_json::to_string(&r.to_json()).unwrap(), serde_json::to_string(&plain.to_json()).unwrap());
    let done = done_stages(&ps);
    let stages: Vec<&str> = done.iter().map(|d| d.0).collect();
    assert_eq!(stages, ["syntax", "runtime", "conformance", "invariants", "precision"]);
    assert_eq!(done[1], ("runtime", r.stages.runtime.score, "ran"));
    assert_eq!(done[3], ("invariants", r.stages.invariants.score, "ran"));
    assert_eq!(done[4], ("precision", r.stages.precision.score, "ran"));
    // The gate's last report is the report's gate.
    let gate = r.stages.runtime.gate.as_ref().unwrap();
    let last_gate = ps.iter().rev().find(|p| p.stage == "runtime" && p.phase == "gate").expect("a gate report");
    assert_eq!((last_gate.distinct, last_gate.states, last_gate.depth), (gate.distinct_states as u64, gate.states_generated as u64, gate.depth as u64));
    assert_eq!(last_gate.max_states, gate.max_states as u64);
    let sims: Vec<&Progress> = ps.iter().filter(|p| p.phase == "simulation").collect();
    let sim = r.stages.runtime.simulation.as_ref().unwrap();
    assert!(sims.len() as u64 >= sim.runs as u64, "one report at least per simulation run");
    assert!(sims.windows(2).all(|w| w[0].behaviours <= w[1].behaviours), "behaviours grow");
    assert!(sims[0].behaviours < sims.last().unwrap().behaviours);
    assert_eq!(sims.last().unwrap().behaviours, sim.behaviours as u64);
    assert_eq!(sims.last().unwrap().fraction(), Some(1.0));
    // Conformance: one report per trace before it, then the totals.
    let conf: Vec<&Progress> = ps.iter().filter(|p| p.stage == "conformance" && p.state == StageState::Running).collect();
    let cf = &r.stages.conformance;
    assert_eq!(conf.len(), cf.traces + 1);
    assert!(conf.windows(2).all(|w| w[0].windows <= w[1].windows && w[0].steps < w[1].steps && w[0].traces + 1 == w[1].traces));
    let last = conf.last().unwrap();
    assert_eq!((last.traces, last.windows), (cf.traces as u64, cf.windows as u64));
    assert_eq!(last.steps, last.steps_total, "every step of every trace replayed");
    // Invariants: one exploration checks every property at once (the reference violates none),
    // then all are checked.
    let inv: Vec<&Progress> = ps.iter().filter(|p| p.stage == "invariants" && p.state == StageState::Running).collect();
    let n = r.stages.invariants.invariants.len();
    assert!(n > 1);
    let phases: Vec<&str> = inv.iter().map(|p| p.phase.as_str()).filter(|p| !p.is_empty()).collect::<Vec<_>>();
    let mut distinct_phases = phases.clone();
    distinct_phases.dedup();
    assert_eq!(distinct_phases, [format!("{n} properties")]);
    assert_eq!(inv.last().unwrap().checked, r.stages.invariants.checked as u64);
    assert_eq!(inv.last().unwrap().checks_total, r.stages.invariants.checked as u64);
}

#[test]
fn a_big_gate_reports_growing_counts_and_stops_from_the_hook() {
    let (task, text) = spin();
    // Twelve threads: tens of thousands of states, many slices of the gate.
    let cfg = "SPECIFICATION Spec\nCONSTANT Threads = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}\n";
    let model = ModelInput { name: "spin.tla", text, cfg: Some(cfg), mapping: None };
    // Stop after the gate's fifth slice.
    let (r, ps) = run(&task, &model, &|ps| ps.iter().filter(|p| p.phase == "gate").count() >= 5);
    let gate: Vec<&Progress> = ps.iter().filter(|p| p.phase == "gate").collect();
    assert_eq!(gate.len(), 6, "five slices and the gate's end");
    assert!(gate[..5].windows(2).all(|w| w[0].distinct < w[1].distinct && w[0].states < w[1].states), "counts grow");
    let g = r.stages.runtime.gate.as_ref().unwrap();
    assert_eq!(g.result, "stopped");
    // Later stages stop at their first slice too; `stopped` names the last one stopped.
    assert!(r.stopped.is_some());
    assert_eq!((gate[5].distinct, gate[5].states), (g.distinct_states as u64, g.states_generated as u64));
    let f = gate[4].fraction().unwrap();
    assert!(f > 0.0 && f < 1.0, "{f}");
    // The simulation stops after its first run; every stage still ends.
    assert_eq!(ps.iter().filter(|p| p.phase == "simulation").count(), 1);
    let done = done_stages(&ps);
    assert_eq!(done.iter().map(|d| d.0).collect::<Vec<_>>(), ["syntax", "runtime", "conformance", "invariants", "precision"]);
}

#[test]
fn gated_stages_end_with_their_status() {
    let (task, text) = spin();
    let broken = text.replace("pc' = [pc EXCEPT ![t] = \"idle\"]", "pc' = [pc EXCEPT ![t] == \"idle\"]");
    assert_ne!(broken, text);
    let model = ModelInput { name: "spin.tla", text: &broken, cfg: None, mapping: None };
    let calls = Cell::new(0);
    let (r, ps) = run(&task, &model, &|_| {
        calls.set(calls.get() + 1);
        false
    });
    let done = done_stages(&ps);
    assert_eq!(done.len(), 5);
    assert_eq!(done[0], ("syntax", r.stages.syntax.score, "ran"));
    for d in &done[1..] {
        assert_eq!((d.1, d.2), (0.0, "skipped"));
    }
    assert_eq!(ps.len(), 5, "nothing runs after the syntax gate");
}

#[test]
fn counterexample_steps_name_the_action_and_its_parameters() {
    let (task, _) = spin();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tasks/spin/wrong/over-permissive/spin.tla");
    let text = std::fs::read_to_string(path).expect("the over-permissive model");
    let r = grade(&task, &ModelInput { name: "spin.tla", text: &text, cfg: None, mapping: None }, &|| false);
    let me = r.stages.invariants.invariants.iter().find(|i| i.name == "MutualExclusion").expect("MutualExclusion");
    let cex = me.counterexample.as_ref().expect("a counterexample");
    let states = cex["states"].as_array().unwrap();
    assert!(states.len() >= 3);
    assert!(states[0]["#meta"].get("step").is_none(), "the initial state has no step");
    let threads = ["0", "1", "2"];
    for st in &states[1..] {
        let step = &st["#meta"]["step"];
        let action = step["action"].as_str().unwrap_or_default();
        assert!(["TryLock", "LockSpin", "LockAcquired", "Unlock"].contains(&action), "{step}");
        let t = step["params"]["t"].to_string();
        assert!(threads.contains(&t.as_str()), "{step}");
    }
    // The last step puts its thread into the critical section beside another.
    let last = states.last().unwrap();
    let t = &last["#meta"]["step"]["params"]["t"];
    let pc = last["pc"]["#map"].as_array().unwrap();
    assert!(pc.iter().any(|kv| &kv[0] == t && kv[1] == "cs"), "{last}");
    assert_eq!(pc.iter().filter(|kv| kv[1] == "cs").count(), 2);
}
