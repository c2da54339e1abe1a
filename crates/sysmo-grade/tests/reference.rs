//! Every task's reference model scores 1.0 in every stage, precision included when the task
//! has a system graph (with no over-permissive step). For the tutorial tasks with a
//! `violations.cfg` (spin-split, counter, rwmutex), the properties listed there must be
//! violated by a faithful model: the grader counts such a property as passed when it finds the
//! violation, so the reference model scores 1.0 there too.

use sysmo_grade::report::Status;
use sysmo_grade::{grade, ModelInput, TaskInput, TaskSpec};

fn never() -> bool {
    false
}

/// Grades the reference model of `id` and fails with the report when a stage is short of 1.0.
fn reference_scores_one(id: &str) {
    let t = sysmo_tasks::task(id).unwrap_or_else(|| panic!("no task `{id}`"));
    let spec = TaskSpec::parse(t.task_toml()).expect("task.toml");
    let input = TaskInput::from_folder(t.files, t.traces).with_system_graph(t.system_graph());
    let tla = t.file(&format!("reference/{}.tla", spec.module)).expect("reference model");
    let cfg = t.file(&format!("reference/{}.cfg", spec.module));
    let name = format!("tasks/{}/reference/{}.tla", t.id, spec.module);
    let r = grade(&input, &ModelInput { name: &name, text: tla, cfg, mapping: None }, &never);
    let failures: Vec<String> = r
        .stages
        .scores()
        .iter()
        .filter(|(stage, score, status)| {
            let no_graph = *stage == "precision" && t.system_graph().is_none() && *status == Status::Skipped;
            !no_graph && (*score != 1.0 || *status != Status::Ran)
        })
        .map(|(stage, score, status)| format!("{id}: {stage} = {score} ({})", status.as_str()))
        .collect();
    assert!(failures.is_empty(), "{}\n{}", failures.join("\n"), r.to_text());
    assert_eq!(r.overall, 1.0);
    assert_eq!(r.stages.precision.over_permissive, 0, "{id}: {}", r.to_text());
    assert_eq!(r.combined, t.system_graph().map(|_| 1.0));
    assert!(r.stopped.is_none());
}

/// The tasks whose system graph ships with them (every task): the precision stage measures
/// each reference against its code.
#[test]
fn tasks_with_a_system_graph() {
    let with: Vec<&str> = sysmo_tasks::tasks().iter().filter(|t| t.system_graph().is_some()).map(|t| t.id).collect();
    assert_eq!(with, ["counter", "curp", "dqueue", "etcd", "hourclock", "locksvc", "mutex", "raftkvs", "redisraft", "ringbuffer", "rwmutex", "spin", "spin-split", "zookeeper"]);
    for t in sysmo_tasks::tasks() {
        if let Some(g) = t.system_graph() {
            let g = tla_trace::parse_graph("system-graph.ndjson", g).unwrap_or_else(|e| panic!("{}: {e}", t.id));
            assert_eq!(g.task, t.id);
        }
        // task.toml's [graph] says whether the graph is exhaustive, as the graph's header does.
        let toml = sysmo_task_format::TaskToml::parse(t.task_toml()).unwrap_or_else(|e| panic!("{}: {e}", t.id));
        let header = t.system_graph().map(|g| tla_trace::parse_graph("system-graph.ndjson", g).expect("parsed above").exploration.exhaustive);
        assert_eq!(toml.graph.map(|g| g.exhaustive), header, "{}: task.toml's [graph] against the graph's header", t.id);
    }
}

/// One test per task, so that they run side by side; `every_task_is_graded_here` keeps the
/// list whole.
const GRADED: &[&str] = &["counter", "curp", "dqueue", "etcd", "hourclock", "locksvc", "mutex", "raftkvs", "redisraft", "ringbuffer", "rwmutex", "spin", "spin-split", "zookeeper"];

#[test]
fn every_task_is_graded_here() {
    let ids: Vec<&str> = sysmo_tasks::tasks().iter().map(|t| t.id).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, GRADED);
}

#[test]
fn reference_counter() {
    reference_scores_one("counter");
}

#[test]
fn reference_curp() {
    reference_scores_one("curp");
}

#[test]
fn reference_redisraft() {
    reference_scores_one("redisraft");
}

#[test]
fn reference_zookeeper() {
    reference_scores_one("zookeeper");
}

#[test]
fn reference_dqueue() {
    reference_scores_one("dqueue");
}

#[test]
fn reference_etcd() {
    reference_scores_one("etcd");
}

#[test]
fn reference_hourclock() {
    reference_scores_one("hourclock");
}

#[test]
fn reference_locksvc() {
    reference_scores_one("locksvc");
}

#[test]
fn reference_mutex() {
    reference_scores_one("mutex");
}

#[test]
fn reference_raftkvs() {
    reference_scores_one("raftkvs");
}

#[test]
fn reference_ringbuffer() {
    reference_scores_one("ringbuffer");
}

#[test]
fn reference_rwmutex() {
    reference_scores_one("rwmutex");
}

#[test]
fn reference_spin() {
    reference_scores_one("spin");
}

#[test]
fn reference_spin_split() {
    reference_scores_one("spin-split");
}
