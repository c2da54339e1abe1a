//! The mutex's traces: every target action occurs, failed try_lock, waiting and waking occur,
//! mutual exclusion holds in every state, and the try_lock bug breaks it.

use serde_json::Value;
use std::collections::BTreeMap;
use task_mutex::workload::traces;

fn steps(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|v| v["kind"] == "step")
        .collect()
}

fn count_pc(state: &Value, label: &str) -> usize {
    state["pc"].as_object().unwrap().values().filter(|v| *v == label).count()
}

#[test]
fn mutex_traces_cover_every_action_and_keep_mutual_exclusion() {
    let all = traces();
    let ok: Vec<_> = all.iter().filter(|f| f.dir == "mutex").collect();
    assert!(ok.len() >= 20);
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let (mut failed_try, mut waited, mut woke) = (0, 0, 0);
    for f in &ok {
        for s in steps(&f.text) {
            let a = s["action"].as_str().unwrap().to_string();
            let st = &s["state"];
            let me = st["pc"][s["actor"].to_string()].as_str().unwrap();
            assert!(count_pc(st, "cs") <= 1, "{}: two holders at {}", f.name, s["seq"]);
            assert_eq!(count_pc(st, "cs") == 1, st["locked"] == true, "{}: {}", f.name, s["seq"]);
            assert_eq!(count_pc(st, "waiting"), st["waiters"].as_array().unwrap().len());
            match (a.as_str(), me) {
                ("TryLock", "idle") => failed_try += 1,
                ("Lock", "waiting") => waited += 1,
                _ => {}
            }
            if a == "WakeOne" && count_pc(st, "woken") > 0 {
                woke += 1;
            }
            *count.entry(a).or_default() += 1;
        }
    }
    for a in ["Lock", "TryLock", "Unlock", "WakeOne"] {
        assert!(count.get(a).copied().unwrap_or(0) > 0, "action {a} never traced: {count:?}");
    }
    assert!(failed_try > 0 && waited > 0 && woke > 0, "{failed_try} {waited} {woke}");
}

#[test]
fn try_lock_bug_breaks_mutual_exclusion() {
    let all = traces();
    let bug: Vec<_> = all.iter().filter(|f| f.dir == "mutex-bug").collect();
    assert!(bug.len() >= 5);
    let broken = bug.iter().filter(|f| steps(&f.text).iter().any(|s| count_pc(&s["state"], "cs") >= 2)).count();
    assert!(broken > 0, "no buggy run let two threads in");
}
