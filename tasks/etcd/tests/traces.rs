//! The etcd Raft traces: they regenerate identically, the files under `traces/etcd` are those
//! runs, every pinned action occurs, every line stays within the task's checking bounds, and the
//! system is safe (one leader per term, committed prefixes agree) over many seeds.

use serde_json::Value;
use std::collections::BTreeMap;
use task_etcd::cluster::{Action, Bounds, Cluster, Weights};
use task_etcd::raft::Role;
use task_etcd::workload::{self, Scenario, bounds, traces};
use task_probe::testing::{assert_check_constant, assert_traces_match_files, trace};

fn per_node(state: &Value, field: &str) -> Vec<Value> {
    let m = state[field].as_object().unwrap_or_else(|| panic!("{field} is a map"));
    assert_eq!(m.keys().cloned().collect::<Vec<_>>(), vec!["1", "2", "3"], "{field}");
    m.values().cloned().collect()
}

const PINNED: [&str; 12] = [
    "Timeout",
    "HandlePreVoteRequest",
    "HandlePreVoteResponse",
    "HandleVoteRequest",
    "HandleVoteResponse",
    "ClientRequest",
    "HeartbeatTimeout",
    "HandleAppendEntriesRequest",
    "HandleAppendEntriesResponse",
    "HandleHeartbeat",
    "HandleHeartbeatResponse",
    "Restart",
];

#[test]
fn pinned_names_and_bounds_match_task_toml() {
    let toml = include_str!("../task.toml");
    for a in PINNED {
        assert!(toml.contains(&format!("name = \"{a}\"")), "{a} not pinned in task.toml");
    }
    assert_eq!(Action::ALL.map(|a| a.name()), PINNED);
    let b = bounds();
    assert_check_constant(toml, "MaxTerm", b.max_term);
    assert_check_constant(toml, "MaxLogLen", b.max_log_len);
    assert_check_constant(toml, "Servers", "[1, 2, 3]");
    assert!(b.max_term >= 1 && b.max_log_len >= 1);
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    assert_traces_match_files(traces, &["etcd"]);
    assert!(traces().len() >= 20, "{} traces", traces().len());
}

#[test]
fn traces_cover_every_action_within_the_bounds() {
    let (max_term_bound, max_log_bound) = (bounds().max_term, bounds().max_log_len);
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let (mut max_term, mut max_log, mut total) = (0, 0, 0);
    let (mut truncations, mut step_downs, mut prevote_rejections) = (0, 0, 0);
    for t in traces() {
        let tr = trace(&t.name, "etcd", &t.text);
        assert_eq!(tr.header["constants"]["MaxTerm"], max_term_bound);
        assert_eq!(tr.header["constants"]["MaxLogLen"], max_log_bound);
        let steps = &tr.steps;
        assert!((20..=200).contains(&steps.len()), "{}: {} steps", t.name, steps.len());
        total += steps.len();
        let mut prev = tr.init;
        for (k, s) in steps.iter().enumerate() {
            let a = s["action"].as_str().unwrap().to_string();
            assert!(PINNED.contains(&a.as_str()), "{a}");
            assert_eq!(s["actor"], s["args"]["i"]);
            let st = &s["state"];
            for term in per_node(st, "currentTerm") {
                max_term = max_term.max(term.as_u64().unwrap());
            }
            for (len, last) in per_node(st, "logLen").iter().zip(per_node(st, "logLastTerm")) {
                max_log = max_log.max(len.as_u64().unwrap());
                assert_eq!(len == 0, last == 0, "{}: seq {k}", t.name);
            }
            for f in ["votedFor", "lead", "commitIndex", "state"] {
                per_node(st, f);
            }
            // Observed changes that the counts below look for.
            let i = s["actor"].to_string();
            let before_len = prev["logLen"][&i].as_u64().unwrap();
            let after_len = st["logLen"][&i].as_u64().unwrap();
            if a == "HandleAppendEntriesRequest" && prev["logLastTerm"][&i] != st["logLastTerm"][&i] && after_len <= before_len {
                truncations += 1;
            }
            if prev["state"][&i] == "Leader" && st["state"][&i] == "Follower" {
                step_downs += 1;
            }
            if a == "HandlePreVoteResponse" && prev["state"][&i] == "PreCandidate" && st["state"][&i] == "Follower" {
                prevote_rejections += 1;
            }
            prev = st.clone();
            *count.entry(a).or_default() += 1;
        }
    }
    for a in PINNED {
        assert!(count.get(a).copied().unwrap_or(0) > 0, "action {a} never traced: {count:?}");
    }
    assert!(max_term <= max_term_bound && max_log <= max_log_bound, "term {max_term}, log {max_log}");
    println!("{total} steps; max term {max_term}, max log length {max_log}; {truncations} conflicting appends, {step_downs} leader step-downs, {prevote_rejections} lost pre-vote campaigns");
    println!("{count:?}");
    assert!(step_downs > 0 && truncations > 0 && prevote_rejections > 0, "{step_downs} step-downs, {truncations} truncations, {prevote_rejections} lost pre-vote campaigns");
}

/// Many seeds of every scenario, and a harsher network than the traces': no two leaders in a
/// term, no committed entry lost or changed, and progress (something is committed).
#[test]
fn the_system_is_safe_over_many_seeds() {
    for sc in Scenario::ALL {
        let mut committed_runs = 0;
        for seed in 100..160 {
            let c = workload::run_cluster(sc, seed);
            assert!(c.safety.violation.is_none(), "{} seed {seed}: {:?}", sc.name(), c.safety.violation);
            if c.safety.committed_len() > 0 {
                committed_runs += 1;
            }
        }
        assert!(committed_runs >= 40, "{}: only {committed_runs} of 60 runs commit anything", sc.name());
    }
    let bounds = Bounds { max_term: 12, max_log_len: 30 };
    let w = Weights { tick: 4, deliver: 6, propose: 2, loss: 30, duplicate: 20 };
    for seed in 0..60 {
        let mut c = Cluster::new(3, seed, 3, 1, bounds);
        for n in 0..3000 {
            let (what, who) = (c.rng.below(100), 1 + c.rng.below(3));
            match what {
                0 => c.restart(who),
                1 => c.partition(&[who]),
                2 | 3 => c.heal(),
                _ => {
                    c.random_event(&w);
                }
            }
            assert!(c.safety.violation.is_none(), "seed {seed} event {n}: {:?}", c.safety.violation);
        }
        // Logs agree where both hold an entry of the same index and term (Log Matching).
        for a in &c.nodes {
            for b in &c.nodes {
                for k in 0..a.log.len().min(b.log.len()) {
                    if a.log[k].term == b.log[k].term {
                        assert_eq!(a.log[..=k], b.log[..=k], "seed {seed}: logs of {} and {} at {}", a.id, b.id, k + 1);
                    }
                }
            }
        }
        assert!(c.nodes.iter().any(|r| r.role == Role::Leader || r.term > 0));
    }
}
