//! The hour clock's traces tick by one, wrap from 12 to 1, and stay in 1..=12; `Tick` has no
//! parameter, so no step carries an argument.

#[test]
fn hourclock_traces_wrap() {
    let all = task_hourclock::workload::traces();
    assert!(all.len() >= 5);
    for f in &all {
        let hrs: Vec<u64> = f
            .text
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["state"]["hr"].as_u64().unwrap())
            .collect();
        assert_eq!(hrs.len(), 1 + task_hourclock::workload::TICKS);
        assert!(hrs.windows(2).all(|w| w[1] == w[0] % 12 + 1), "{}", f.name);
        assert!(hrs.windows(2).any(|w| w == [12, 1]), "{}: no wrap", f.name);
    }
}

#[test]
fn hourclock_steps_carry_no_arguments() {
    for f in &task_hourclock::workload::traces() {
        for l in f.text.lines().skip(2) {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["action"], "Tick", "{}", f.name);
            assert_eq!(v["args"], serde_json::json!({}), "{}: {l}", f.name);
            assert_eq!(v["actor"], "clock", "{}", f.name);
        }
    }
}
