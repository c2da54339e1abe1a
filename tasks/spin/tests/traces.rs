//! The spin lock's traces: every target action occurs, failed try_lock and spinning occur, mutual
//! exclusion holds in every state of the correct lock, and the split test-and-set breaks it.

use std::collections::BTreeMap;
use task_spin::workload::traces;

fn steps(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON line"))
        .filter(|v| v["kind"] == "step")
        .collect()
}

fn in_cs(state: &serde_json::Value) -> usize {
    state["pc"].as_object().unwrap().values().filter(|v| *v == "cs").count()
}

#[test]
fn spin_traces_cover_every_action_and_keep_mutual_exclusion() {
    let all = traces();
    let spin: Vec<_> = all.iter().filter(|f| f.dir == "spin").collect();
    assert!(spin.len() >= 20, "{} traces", spin.len());
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let mut failed_try = 0;
    for f in &spin {
        for s in steps(&f.text) {
            *count.entry(s["action"].as_str().unwrap().to_string()).or_default() += 1;
            assert!(in_cs(&s["state"]) <= 1, "{}: two holders at seq {}", f.name, s["seq"]);
            assert_eq!(in_cs(&s["state"]) == 1, s["state"]["locked"] == true, "{}: locked vs pc", f.name);
            if s["action"] == "TryLock" && s["state"]["pc"][s["actor"].to_string()] == "idle" {
                failed_try += 1;
            }
        }
    }
    for a in ["TryLock", "LockSpin", "LockAcquired", "Unlock"] {
        assert!(count.get(a).copied().unwrap_or(0) > 0, "action {a} never traced: {count:?}");
    }
    assert!(failed_try > 0, "no failed try_lock");
}

#[test]
fn split_test_and_set_lets_two_threads_in() {
    let all = traces();
    let split: Vec<_> = all.iter().filter(|f| f.dir == "spin-split").collect();
    assert!(split.len() >= 5);
    let broken = split
        .iter()
        .filter(|f| steps(&f.text).iter().any(|s| in_cs(&s["state"]) >= 2))
        .count();
    assert!(broken > 0, "no split run violated mutual exclusion");
    for f in &split {
        for s in steps(&f.text) {
            let a = s["action"].as_str().unwrap();
            assert!(["LockTest", "LockSet", "Unlock"].contains(&a), "{a}");
        }
    }
}

#[test]
fn same_seed_same_trace() {
    use task_probe::Scheduler;
    let a = task_spin::workload::run(Scheduler::Pct { depth: 3 }, 5, false);
    let b = task_spin::workload::run(Scheduler::Pct { depth: 3 }, 5, false);
    assert_eq!(a, b);
    let c = task_spin::workload::run(Scheduler::Random, 5, false);
    assert_ne!(a, c, "schedulers should differ");
}
