//! Every task's reference model scores 1.0 in every stage. For the tutorial tasks with a
//! `violations.cfg` (spin-split, counter, rwmutex), the properties listed there must be
//! violated by a faithful model: the grader counts such a property as passed when it finds the
//! violation, so the reference model scores 1.0 there too.

use sysmo_grade::report::Status;
use sysmo_grade::{grade, ModelInput, TaskInput, TaskSpec};

fn never() -> bool {
    false
}

/// Tasks graded here only in an optimised build (`cargo test --release`): etcd's grade explores
/// 20,000 states in each of three runs and replays 2,907 trace lines, about 15 CPU seconds
/// optimised and many minutes in the debug build of the workspace suite. The browser suite
/// grades etcd's reference model too (web/tests/etcd.test.mjs).
const TOO_SLOW_FOR_THE_SUITE: &[&str] = if cfg!(debug_assertions) { &["etcd"] } else { &[] };

#[test]
fn every_reference_model_scores_one_in_every_stage() {
    let mut failures = vec![];
    for t in sysmo_tasks::tasks().iter().filter(|t| !TOO_SLOW_FOR_THE_SUITE.contains(&t.id)) {
        let spec = TaskSpec::parse(t.task_toml()).expect("task.toml");
        let input = TaskInput::from_folder(t.files, t.traces);
        let tla = t.file(&format!("reference/{}.tla", spec.module)).expect("reference model");
        let cfg = t.file(&format!("reference/{}.cfg", spec.module));
        let name = format!("tasks/{}/reference/{}.tla", t.id, spec.module);
        let r = grade(&input, &ModelInput { name: &name, text: tla, cfg, mapping: None }, &never);
        let st = &r.stages;
        let scores = [("syntax", st.syntax.score, st.syntax.status), ("runtime", st.runtime.score, st.runtime.status), ("conformance", st.conformance.score, st.conformance.status), ("invariants", st.invariants.score, st.invariants.status)];
        for (stage, score, status) in scores {
            if score != 1.0 || status != Status::Ran {
                failures.push(format!("{}: {stage} = {score} ({})\n{}", t.id, status.as_str(), r.to_text()));
            }
        }
        assert_eq!(r.overall == 1.0, failures.is_empty() || !failures.iter().any(|f| f.starts_with(&format!("{}:", t.id))));
        assert!(r.stopped.is_none());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
