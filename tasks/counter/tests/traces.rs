//! The counter's traces show both outcomes: some runs end at 2, some lose an update and end at 1.

use task_counter::workload::traces;

#[test]
fn counter_traces_show_the_lost_update() {
    let all = traces();
    assert!(all.len() >= 5);
    let mut finals = std::collections::BTreeSet::new();
    for f in &all {
        let last: serde_json::Value = serde_json::from_str(f.text.lines().last().unwrap()).unwrap();
        finals.insert(last["state"]["counter"].as_u64().unwrap());
        for a in ["Read", "Add", "Write"] {
            assert_eq!(f.text.matches(&format!("\"action\":\"{a}\"")).count(), 2, "{}", f.name);
        }
    }
    assert_eq!(finals.into_iter().collect::<Vec<_>>(), vec![1, 2], "both outcomes");
}
