//! The redisraft traces: they regenerate identically, the files under `traces/redisraft` are
//! those runs, every pinned action occurs, the situations the task lists happen (pre-votes
//! refused, logs repaired, snapshots sent, nodes removed and added back, reads served and
//! dropped), and every line keeps Raft's rules, checked here apart from the code that made the
//! lines. The bug traces serve a stale read; the correct system never does.

use std::collections::BTreeMap;

use serde_json::Value;
use task_probe::testing::{assert_actions_pinned, assert_check_constant, assert_traces_match_files, trace};
use task_redisraft::raft_server::Bug;
use task_redisraft::workload::{Scenario, bug_seeds, constants, run_system, served_stale_read, traces};

const PINNED: [&str; 21] = [
    "ElectionStart",
    "SendHeartbeat",
    "RecvRequestVote",
    "RecvRequestVoteResponse",
    "BecomeCandidate",
    "BecomeLeader",
    "BecomeFollower",
    "RecvAppendEntries",
    "RecvAppendEntriesResponse",
    "SendAppendEntries",
    "LogCommit",
    "ApplyEntry",
    "RecvEntry",
    "AddNode",
    "RemoveNode",
    "RecvReadRequest",
    "ProcessReadQueue",
    "SnapshotBegin",
    "SnapshotEnd",
    "RecvSnapshot",
    "RecvSnapshotResponse",
];

#[test]
fn pinned_names_and_constants_match_task_toml() {
    let toml = include_str!("../task.toml");
    assert_actions_pinned(toml, &PINNED);
    let k = constants();
    assert_check_constant(toml, "NumServers", k.servers);
    assert_check_constant(toml, "MaxTerm", k.max_term);
    assert_check_constant(toml, "MaxIndex", k.max_index);
    assert_check_constant(toml, "MaxMsgId", k.max_msg_id);
    assert_check_constant(toml, "NumReads", k.reads);
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    assert_traces_match_files(traces, &["redisraft", "redisraft-bug"]);
    assert!(traces().iter().filter(|t| t.dir == "redisraft").count() >= 20);
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a number: {v}"))
}

/// A server's (or a server's per-node) fields, by id.
fn per<'a>(state: &'a Value, field: &str) -> Vec<(u64, &'a Value)> {
    let m = state[field].as_object().unwrap_or_else(|| panic!("{field}: an object"));
    let mut v: Vec<(u64, &Value)> = m.iter().map(|(k, x)| (k.parse().unwrap(), x)).collect();
    v.sort_by_key(|(k, _)| *k);
    v
}

/// The entries server `s` holds, by index (those in its snapshot are gone).
fn entries(state: &Value, s: u64) -> BTreeMap<u64, Value> {
    let base = u(&state["snapshotIndex"][s.to_string()]);
    state["log"][s.to_string()].as_array().unwrap().iter().enumerate().map(|(k, e)| (base + 1 + k as u64, e.clone())).collect()
}

/// Raft's rules on one observed state.
fn check_state(name: &str, s: &Value) {
    let ids: Vec<u64> = per(s, "state").into_iter().map(|(i, _)| i).collect();
    let mut leaders: BTreeMap<u64, u64> = BTreeMap::new();
    for &i in &ids {
        let key = i.to_string();
        let (base, commit, applied) = (u(&s["snapshotIndex"][&key]), u(&s["commitIndex"][&key]), u(&s["lastApplied"][&key]));
        let last = base + s["log"][&key].as_array().unwrap().len() as u64;
        assert!(base <= applied && applied <= commit && commit <= last, "{name}: server {i}: snapshot {base} <= applied {applied} <= commit {commit} <= last {last}");
        let terms: Vec<u64> = entries(s, i).values().map(|e| u(&e["term"])).collect();
        assert!(terms.windows(2).all(|w| w[0] <= w[1]), "{name}: server {i}'s log terms decrease");
        assert!(terms.iter().all(|&t| t <= u(&s["currentTerm"][&key])), "{name}: server {i} holds an entry of a future term");
        if s["state"][&key] == "leader" {
            *leaders.entry(u(&s["currentTerm"][&key])).or_default() += 1;
        }
    }
    assert!(leaders.values().all(|&n| n == 1), "{name}: two leaders in one term");
    // Committed entries agree wherever two servers both hold them.
    for &i in &ids {
        for &j in &ids {
            let (ei, ej) = (entries(s, i), entries(s, j));
            let upto = u(&s["commitIndex"][i.to_string()]).min(u(&s["commitIndex"][j.to_string()]));
            for k in 1..=upto {
                if let (Some(a), Some(b)) = (ei.get(&k), ej.get(&k)) {
                    assert_eq!(a, b, "{name}: servers {i} and {j} committed different entries at {k}");
                }
            }
        }
    }
}

#[test]
fn every_action_occurs_and_every_line_keeps_rafts_rules() {
    let mut actions: BTreeMap<String, usize> = BTreeMap::new();
    let (mut refused_prevotes, mut truncations, mut loaded, mut readded, mut served, mut dropped, mut higher_terms) = (0, 0, 0, 0, 0, 0, 0);
    for t in traces().iter().filter(|t| t.dir == "redisraft") {
        let tr = trace(&t.name, "redisraft", &t.text);
        check_state(&t.name, &tr.init);
        let mut prev = tr.init.clone();
        for s in &tr.steps {
            let a = s["action"].as_str().unwrap().to_string();
            let st = &s["state"];
            check_state(&t.name, st);
            let i = s["args"]["i"].to_string();
            match a.as_str() {
                "RecvRequestVote" => {
                    let j = s["args"]["j"].to_string();
                    let resp = st["messages"][&i][&j].as_array().unwrap().last().expect("an answer");
                    if resp["prevote"] == true && resp["granted"] == false && prev["leaderId"][&i] != 0 {
                        refused_prevotes += 1;
                    }
                }
                "RecvAppendEntries" => {
                    let before = u(&prev["snapshotIndex"][&i]) + prev["log"][&i].as_array().unwrap().len() as u64;
                    let kept = entries(&prev, u(&s["args"]["i"])).iter().filter(|(k, e)| entries(st, u(&s["args"]["i"])).get(k) == Some(e)).count() as u64;
                    if kept + u(&prev["snapshotIndex"][&i]) < before {
                        truncations += 1;
                    }
                }
                "RecvSnapshot" if st["snapshotIndex"][&i] != prev["snapshotIndex"][&i] => loaded += 1,
                "AddNode" => {
                    let n = s["args"]["n"].to_string();
                    assert_eq!(prev["nodes"][&i][&n], "absent", "{}: a node is added only once removed", t.name);
                    readded += 1;
                }
                "ProcessReadQueue" => {
                    for (before, after) in prev["reads"].as_array().unwrap().iter().zip(st["reads"].as_array().unwrap()) {
                        if before["status"] == "pending" && after["status"] == "served" {
                            served += 1;
                            assert!(u(&after["index"]) >= u(&after["floor"]), "{}: a stale read served", t.name);
                        }
                        if before["status"] == "pending" && after["status"] == "dropped" {
                            dropped += 1;
                        }
                    }
                }
                "BecomeFollower" => higher_terms += 1,
                _ => {}
            }
            *actions.entry(a).or_default() += 1;
            prev = st.clone();
        }
    }
    for a in PINNED {
        assert!(actions.get(a).copied().unwrap_or(0) > 0, "{a} never occurs: {actions:?}");
    }
    eprintln!(
        "actions {actions:?}; pre-votes refused {refused_prevotes}, logs truncated {truncations}, snapshots loaded {loaded}, nodes added back {readded}, reads served {served}, dropped {dropped}, steps down on a higher term {higher_terms}"
    );
    assert!(refused_prevotes >= 1 && truncations >= 1 && loaded >= 1 && readded >= 1);
    assert!(served >= 10 && dropped >= 1 && higher_terms >= 1);
}

#[test]
fn the_bug_switch_serves_a_stale_read_and_the_correct_system_never_does() {
    let seeds = bug_seeds(2);
    assert_eq!(seeds.len(), 2);
    for t in traces().iter().filter(|t| t.dir == "redisraft-bug") {
        let tr = trace(&t.name, "redisraft", &t.text);
        assert_eq!(tr.header["bug"], "stale-read", "{}", t.name);
        let last = &tr.steps.last().expect("steps")["state"]["reads"];
        assert!(last.as_array().unwrap().iter().any(|r| r["status"] == "served" && u(&r["index"]) < u(&r["floor"])), "{}: no stale read", t.name);
    }
    for sc in Scenario::ALL {
        for seed in 1..=40 {
            assert!(!served_stale_read(&run_system(sc, seed, Bug::None)), "{} {seed}", sc.name());
        }
    }
}
