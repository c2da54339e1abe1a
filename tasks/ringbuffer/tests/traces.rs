//! The ring buffer's traces: every action occurs, with a full buffer, an empty buffer and slices
//! that do not fit; counters never cross and never exceed the capacity apart.

use serde_json::Value;
use std::collections::BTreeSet;
use task_ringbuffer::workload::{CAPACITY, traces};

#[test]
fn ringbuffer_traces_cover_full_empty_and_unfit_slices() {
    let all = traces();
    assert!(all.len() >= 20);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for f in &all {
        let mut prev = (0u64, 0u64);
        for l in f.text.lines().skip(2) {
            let s: Value = serde_json::from_str(l).unwrap();
            let (h, t) = (s["state"]["head"].as_u64().unwrap(), s["state"]["tail"].as_u64().unwrap());
            assert!(h <= t && t - h <= CAPACITY as u64, "{}: {l}", f.name);
            let a = s["action"].as_str().unwrap();
            let n = s["args"]["n"].as_u64().unwrap_or(1);
            let failed = (h, t) == prev;
            let label = match (a, failed) {
                ("Push", true) => { assert_eq!(prev.1 - prev.0, CAPACITY as u64); "push-full" }
                ("Pop", true) => { assert_eq!(prev.1, prev.0); "pop-empty" }
                ("PushSlice", true) => { assert!(CAPACITY as u64 - (prev.1 - prev.0) < n); "push-slice-unfit" }
                ("PopSlice", true) => { assert!(prev.1 - prev.0 < n); "pop-slice-unfit" }
                (_, false) => { assert_eq!(h - prev.0 + t - prev.1, n, "{}: {l}", f.name); a }
                _ => panic!("unknown action {a}"),
            };
            seen.insert(label.to_string());
            prev = (h, t);
        }
    }
    for want in ["Push", "Pop", "PushSlice", "PopSlice", "push-full", "pop-empty", "push-slice-unfit", "pop-slice-unfit"] {
        assert!(seen.contains(want), "{want} never traced: {seen:?}");
    }
}
