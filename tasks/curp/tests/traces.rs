//! The curp traces: they regenerate identically, the files under `traces/curp` are those runs,
//! every pinned action occurs, the situations the task lists happen (fast and slow rounds,
//! conflicts, leader changes with recovery, a deposed leader answering in its old term), and
//! every line keeps CURP's rules, checked here apart from the code that made the lines. The bug
//! traces show a fast result of a lower term than another answer of the same round.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use task_curp::client::Bug;
use task_curp::workload::{Scenario, bug_seeds, constants, run_system, took_lower_term_result, traces};
use task_curp::{key, super_quorum};
use task_probe::testing::{assert_actions_pinned, assert_check_constant, assert_traces_match_files, seq, trace};

const PINNED: [&str; 9] = [
    "Propose",
    "ProcessProposeLeader",
    "ProcessProposeNonLeader",
    "Commit",
    "ProcessCommitMsg",
    "LeaderChange",
    "AppendEntries",
    "FastRound",
    "SlowRound",
];

#[test]
fn pinned_names_and_constants_match_task_toml() {
    let toml = include_str!("../task.toml");
    assert_actions_pinned(toml, &PINNED);
    let k = constants();
    assert_check_constant(toml, "NumReplicas", k.replicas);
    assert_check_constant(toml, "NumClients", k.clients);
    assert_check_constant(toml, "NumRounds", k.rounds);
    assert_check_constant(toml, "MaxTerm", k.max_term);
    assert_eq!(super_quorum(k.replicas as usize), 3, "three replicas: every one must accept for the fast path");
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    assert_traces_match_files(traces, &["curp", "curp-bug"]);
    assert!(traces().iter().filter(|t| t.dir == "curp").count() >= 20);
}

fn u(v: &Value) -> u64 {
    v.as_u64().expect("a number")
}

fn per<'a>(state: &'a Value, field: &str) -> Vec<&'a Value> {
    let m = state[field].as_object().unwrap_or_else(|| panic!("{field}: an object"));
    let mut v: Vec<(u64, &Value)> = m.iter().map(|(k, x)| (k.parse().unwrap(), x)).collect();
    v.sort_by_key(|(k, _)| *k);
    v.into_iter().map(|(_, x)| x).collect()
}

/// CURP's rules on one observed state.
fn check_state(name: &str, s: &Value) {
    let k = constants();
    let log = seq(&s["log"]);
    let commit = u(&s["commitIndex"]) as usize;
    assert!(commit <= log.len(), "{name}: commit index within the log");
    let unique: BTreeSet<u64> = log.iter().copied().collect();
    assert_eq!(unique.len(), log.len(), "{name}: a command is ordered once");
    for (r, sp) in per(s, "specPool").into_iter().enumerate() {
        let keys: Vec<u64> = seq(sp).iter().map(|&c| key(c, k.clients)).collect();
        let distinct: BTreeSet<u64> = keys.iter().copied().collect();
        assert_eq!(distinct.len(), keys.len(), "{name}: replica {} holds conflicting commands", r + 1);
    }
    for (r, applied) in per(s, "lastApplied").into_iter().enumerate() {
        assert!(u(applied) as usize <= commit, "{name}: replica {} applied past the commit index", r + 1);
    }
    let mut leaders_by_term: BTreeMap<u64, u32> = BTreeMap::new();
    for (role, term) in per(s, "role").into_iter().zip(per(s, "term")) {
        if role == "leader" {
            *leaders_by_term.entry(u(term)).or_default() += 1;
        }
    }
    assert!(leaders_by_term.values().all(|&n| n == 1), "{name}: two leaders in one term");
    for (c, result) in per(s, "result").into_iter().enumerate() {
        if result["path"] == "fast" {
            let answers = &per(s, "answers")[c];
            let top = answers.as_object().unwrap().values().map(|a| u(&a["term"])).max().unwrap();
            assert_eq!(u(&result["term"]), top, "{name}: client {}'s fast result is of the highest term answered", c + 1);
        }
    }
    for m in per(s, "mail").into_iter().flat_map(|v| v.as_array().unwrap()) {
        if m["type"] == "synced" {
            assert!(log[..commit].contains(&u(&m["cmd"])), "{name}: an after-sync result of an uncommitted command");
        }
    }
}

#[test]
fn every_action_occurs_and_every_line_keeps_curps_rules() {
    let mut actions: BTreeMap<String, usize> = BTreeMap::new();
    let (mut fast, mut slow, mut conflicts, mut recovered, mut stale_answers) = (0, 0, 0, 0, 0);
    for t in traces().iter().filter(|t| t.dir == "curp") {
        let tr = trace(&t.name, "curp", &t.text);
        check_state(&t.name, &tr.init);
        let mut prev = tr.init.clone();
        for s in &tr.steps {
            let a = s["action"].as_str().unwrap().to_string();
            let st = &s["state"];
            check_state(&t.name, st);
            match a.as_str() {
                "FastRound" | "SlowRound" => {
                    for (before, after) in per(&prev, "result").into_iter().zip(per(st, "result")) {
                        if before["path"] == "none" && after["path"] == "fast" {
                            fast += 1;
                        }
                        if before["path"] == "none" && after["path"] == "slow" {
                            slow += 1;
                        }
                    }
                }
                "ProcessProposeLeader" | "ProcessProposeNonLeader" => {
                    let r = s["args"]["r"].to_string();
                    let cmd = u(&s["args"]["k"]);
                    let c = ((cmd - 1) % constants().clients + 1).to_string();
                    let m = st["mail"][&c].as_array().unwrap().iter().find(|m| m["cmd"] == cmd && m["from"].to_string() == r && m["type"] == "answer").expect("the answer is sent");
                    if m["conflict"] == true {
                        conflicts += 1;
                    }
                    let max_term = per(st, "term").into_iter().map(u).max().unwrap();
                    if u(&m["term"]) < max_term && m["leader"] == true {
                        stale_answers += 1;
                    }
                }
                "LeaderChange" => {
                    let l = s["args"]["l"].to_string();
                    if !st["specPool"][&l].as_array().unwrap().is_empty() {
                        recovered += 1;
                    }
                }
                _ => {}
            }
            *actions.entry(a).or_default() += 1;
            prev = st.clone();
        }
    }
    for a in PINNED {
        assert!(actions.get(a).copied().unwrap_or(0) > 0, "{a} never occurs: {actions:?}");
    }
    eprintln!("actions {actions:?}; fast {fast}, slow {slow}, conflicts {conflicts}, leader changes that recovered commands {recovered}, answers of a deposed leader {stale_answers}");
    assert!(fast >= 5 && slow >= 5, "fast {fast}, slow {slow}");
    assert!(conflicts >= 10, "conflicts {conflicts}");
    assert!(recovered >= 1, "no leader change recovered a command");
    assert!(stale_answers >= 1, "no deposed leader answered as leader");
}

#[test]
fn the_bug_switch_gives_a_lower_term_result_and_the_correct_system_never_does() {
    assert_eq!(bug_seeds(2), [103, 106]);
    for t in traces().iter().filter(|t| t.dir == "curp-bug") {
        let tr = trace(&t.name, "curp", &t.text);
        assert_eq!(tr.header["bug"], "lower-term-result", "{}", t.name);
    }
    for sc in Scenario::ALL {
        for seed in 1..=40 {
            let run = run_system(sc, seed, Bug::None);
            assert!(!took_lower_term_result(&run), "{} {seed}", sc.name());
        }
    }
}
