//! The reader-writer mutex's traces: every target action occurs (upread, upgrade, downgrade,
//! waiting, waking, failed try forms), and in every state a writer excludes everyone else.

use serde_json::Value;
use std::collections::BTreeMap;
use task_rwmutex::workload::traces;

fn steps(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|v| v["kind"] == "step")
        .collect()
}

fn holders(state: &Value, labels: &[&str]) -> usize {
    state["pc"].as_object().unwrap().values().filter(|v| labels.iter().any(|l| *v == *l)).count()
}

pub const ACTIONS: [&str; 19] = [
    "Read", "TryRead", "ReadUndo", "Write", "TryWrite", "UpRead", "TryUpRead", "UpReadUndo",
    "ReadUnlock", "WriteUnlock", "UpReadUnlock", "WakeOne", "WakeAll", "UpgradeBegin", "Upgrade",
    "TryUpgrade", "UpgradeRelease", "Downgrade", "DowngradeRelease",
];

#[test]
fn rwmutex_traces_cover_every_action_and_exclude_writers() {
    let all = traces();
    assert!(all.len() >= 20);
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let (mut failed_try, mut waited, mut woke, mut upgrade_spin) = (0, 0, 0, 0);
    for f in &all {
        for s in steps(&f.text) {
            let a = s["action"].as_str().unwrap().to_string();
            let st = &s["state"];
            let me = st["pc"][s["actor"].to_string()].as_str().unwrap();
            let writers = holders(st, &["write", "upgraded"]);
            let others = holders(st, &["read", "upread", "upgrading", "downgraded", "downgrading"]);
            assert!(writers <= 1 && (writers == 0 || others == 0), "{}: seq {}", f.name, s["seq"]);
            assert_eq!(holders(st, &["waiting"]), st["waiters"].as_array().unwrap().len());
            if st["writer"] == true {
                assert_eq!(writers + holders(st, &["downgrading"]), 1, "{}: seq {}", f.name, s["seq"]);
            }
            match (a.as_str(), me) {
                ("TryRead" | "TryWrite" | "TryUpRead", "idle") => failed_try += 1,
                ("ReadUndo" | "UpReadUndo", "idle") => failed_try += 1,
                (_, "waiting") => waited += 1,
                ("Upgrade", "upgrading") => upgrade_spin += 1,
                _ => {}
            }
            if a.starts_with("Wake") && holders(st, &["woken"]) > 0 {
                woke += 1;
            }
            *count.entry(a).or_default() += 1;
        }
    }
    for a in ACTIONS {
        assert!(count.get(a).copied().unwrap_or(0) > 0, "action {a} never traced: {count:?}");
    }
    assert!(count.len() == ACTIONS.len(), "untracked actions: {count:?}");
    assert!(failed_try > 0 && waited > 0 && woke > 0 && upgrade_spin > 0, "{failed_try} {waited} {woke} {upgrade_spin}");
}
