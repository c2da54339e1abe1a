//! The dqueue traces: they regenerate identically, the files under `traces/dqueue` and
//! `traces/dqueue-bug` are those runs, every pinned action occurs, several consumers contend for
//! the producer, every line keeps the system's own rules, and the bug switch leaves a request
//! unanswered.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use task_dqueue::dqueue::{Bug, Label, PRODUCER};
use task_dqueue::workload::{Schedule, constants, run_system, traces};
use task_probe::testing::{assert_check_constant, assert_label_step, assert_pinned_with_self, assert_traces_match_files, seq, trace};

const PINNED: [&str; 6] = ["c", "c1", "c2", "p", "p1", "p2"];

fn ids() -> Vec<String> {
    (0..=constants().num_consumers).map(|n| n.to_string()).collect()
}

#[test]
fn pinned_names_and_constants_match_task_toml() {
    let toml = include_str!("../task.toml");
    assert_pinned_with_self(toml, &PINNED);
    assert_eq!(Label::ALL.map(|l| l.name()), PINNED);
    let k = constants();
    assert_check_constant(toml, "BUFFER_SIZE", k.buffer_size);
    assert_check_constant(toml, "NUM_CONSUMERS", k.num_consumers);
    assert_check_constant(toml, "PRODUCER", PRODUCER);
    assert!(k.num_consumers >= 2, "several consumers");
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    assert_traces_match_files(traces, &["dqueue", "dqueue-bug"]);
    assert!(traces().iter().filter(|t| t.dir == "dqueue").count() >= 20);
}

/// Checks one line against the previous state with the rules of the system's description; the
/// rules are written here apart from the code that made the line.
fn check_step(name: &str, prev: &Value, s: &Value, buffer: u64) {
    let (a, me) = assert_label_step(name, prev, s, |a| match a {
        "c" => "c1",
        "c1" => "c2",
        "c2" => "c",
        "p" => "p1",
        "p1" => "p2",
        "p2" => "p",
        other => panic!("{name}: action {other}"),
    });
    let (st, key) = (&s["state"], me.to_string());
    assert_eq!((me == PRODUCER), a.starts_with('p'), "{name}: {a} by {me}");
    let prod = PRODUCER.to_string();
    let mut expect_net = prev["network"].clone();
    let (mut processor, mut stream, mut requester) = (prev["processor"].clone(), prev["stream"].clone(), prev["requester"].clone());
    match a {
        "c1" => {
            let mut q = seq(&prev["network"][&prod]);
            assert!((q.len() as u64) < buffer, "{name}: c1 on a full mailbox");
            q.push(me);
            expect_net[&prod] = q.into();
        }
        "c2" => {
            let q = seq(&prev["network"][&key]);
            assert!(!q.is_empty(), "{name}: c2 on an empty mailbox");
            processor = q[0].into();
            expect_net[&key] = q[1..].to_vec().into();
        }
        "p1" => {
            let q = seq(&prev["network"][&prod]);
            assert!(!q.is_empty(), "{name}: p1 on an empty mailbox");
            requester = q[0].into();
            expect_net[&prod] = q[1..].to_vec().into();
        }
        "p2" => {
            let item = (prev["stream"].as_u64().unwrap() + 1) % buffer;
            stream = item.into();
            let r = prev["requester"].to_string();
            let mut q = seq(&prev["network"][&r]);
            q.push(item);
            expect_net[&r] = q.into();
        }
        _ => {}
    }
    assert_eq!(st["network"], expect_net, "{name}: network after {a} by {me}");
    assert_eq!(st["processor"], processor, "{name}");
    assert_eq!(st["stream"], stream, "{name}");
    assert_eq!(st["requester"], requester, "{name}");
}

#[test]
fn traces_cover_every_action_with_consumers_contending() {
    let buffer = constants().buffer_size;
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let (mut total, mut max_queue, mut taken_with_others_waiting) = (0, 0, 0);
    let mut consumers_served: BTreeSet<u64> = BTreeSet::new();
    for t in traces().iter().filter(|t| t.dir == "dqueue") {
        let tr = trace(&t.name, "dqueue", &t.text);
        assert!(tr.header.get("bug").is_none(), "{}", t.name);
        assert_eq!(tr.header["constants"]["BUFFER_SIZE"], buffer);
        let steps = &tr.steps;
        assert!((40..=80).contains(&steps.len()), "{}: {} steps", t.name, steps.len());
        total += steps.len();
        let mut prev = tr.init;
        for s in steps {
            let st = &s["state"];
            assert_eq!(st["pc"].as_object().unwrap().keys().cloned().collect::<Vec<_>>(), ids());
            assert_eq!(st["network"].as_object().unwrap().keys().cloned().collect::<Vec<_>>(), ids());
            check_step(&t.name, &prev, s, buffer);
            let queue = seq(&st["network"][&PRODUCER.to_string()]);
            max_queue = max_queue.max(queue.len());
            // Contention: p1 steps that take a request while another waits behind it.
            if s["action"] == "p1" {
                consumers_served.insert(st["requester"].as_u64().unwrap());
                if !queue.is_empty() {
                    taken_with_others_waiting += 1;
                }
            }
            *count.entry(s["action"].as_str().unwrap().to_string()).or_default() += 1;
            prev = st.clone();
        }
    }
    for a in PINNED {
        assert!(count.get(a).copied().unwrap_or(0) > 0, "action {a} never traced: {count:?}");
    }
    println!("{total} steps; {count:?}; longest producer queue {max_queue}; {taken_with_others_waiting} requests taken with others waiting");
    assert_eq!(max_queue as u64, constants().num_consumers, "every consumer's request waiting at once");
    assert!(taken_with_others_waiting >= 10, "{taken_with_others_waiting}");
    assert_eq!(consumers_served.len() as u64, constants().num_consumers, "{consumers_served:?}");
}

#[test]
fn the_bug_switch_leaves_requests_unanswered() {
    let buffer = constants().buffer_size;
    let bug: Vec<_> = traces().into_iter().filter(|t| t.dir == "dqueue-bug").collect();
    assert!(bug.len() >= 5);
    let mut stuck_runs = 0;
    for t in &bug {
        let tr = trace(&t.name, "dqueue", &t.text);
        assert_eq!(tr.header["bug"], "zero-item-unanswered", "{}", t.name);
        let mut prev = tr.init;
        let mut dropped = 0;
        for s in &tr.steps {
            let r = prev["requester"].to_string();
            let before = seq(&prev["network"][&r]).len();
            if s["action"] == "p2" && seq(&s["state"]["network"][&r]).len() == before {
                // The answer was not sent: the stream moved on to 0.
                assert_eq!(s["state"]["stream"], 0, "{}", t.name);
                dropped += 1;
            } else {
                check_step(&t.name, &prev, s, buffer);
            }
            prev = s["state"].clone();
        }
        assert!(dropped > 0, "{}: no answer dropped", t.name);
        let all_waiting = (1..=constants().num_consumers).all(|c| prev["pc"][&c.to_string()] == "c2");
        if all_waiting && prev["pc"]["0"] == "p1" {
            stuck_runs += 1;
        }
    }
    assert!(stuck_runs > 0, "no bug run ends with every consumer waiting for ever");
    // Without the switch the same schedules never leave a consumer without its answer.
    for seed in 0..100 {
        let run = run_system(Schedule::Random, seed, Bug::None);
        assert!(!run.sim.enabled().is_empty(), "seed {seed}: the correct system stopped");
    }
}
