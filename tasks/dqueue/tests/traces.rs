//! The dqueue traces: they regenerate identically, the files under `traces/dqueue` and
//! `traces/dqueue-bug` are those runs, every pinned action occurs, several consumers contend for
//! the producer, every line keeps the system's own rules, and the bug switch leaves a request
//! unanswered.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use task_dqueue::dqueue::{Bug, Label, PRODUCER};
use task_dqueue::workload::{Schedule, constants, run_system, traces};

fn lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str::<Value>(l).expect("a JSON line")).collect()
}

const PINNED: [&str; 6] = ["c", "c1", "c2", "p", "p1", "p2"];

fn ids() -> Vec<String> {
    (0..=constants().num_consumers).map(|n| n.to_string()).collect()
}

fn seq(v: &Value) -> Vec<u64> {
    v.as_array().expect("a sequence").iter().map(|x| x.as_u64().expect("a number")).collect()
}

#[test]
fn pinned_names_and_constants_match_task_toml() {
    let toml = include_str!("../task.toml");
    for a in PINNED {
        assert!(toml.contains(&format!("name = \"{a}\", params = [\"self\"]")), "{a} not pinned in task.toml");
    }
    assert_eq!(Label::ALL.map(|l| l.name()), PINNED);
    let k = constants();
    let check = toml.split("[check]").nth(1).expect("a [check] table");
    assert!(check.contains(&format!("BUFFER_SIZE = {}", k.buffer_size)));
    assert!(check.contains(&format!("NUM_CONSUMERS = {}", k.num_consumers)));
    assert!(check.contains(&format!("PRODUCER = {PRODUCER}")));
    assert!(k.num_consumers >= 2, "several consumers");
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    let a = traces();
    assert_eq!(a, traces());
    for dir in ["dqueue", "dqueue-bug"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../traces").join(dir);
        let mut on_disk: BTreeSet<String> = std::fs::read_dir(&path)
            .map(|rd| rd.flatten().map(|e| e.file_name().to_string_lossy().to_string()).collect())
            .unwrap_or_default();
        on_disk.retain(|n| n.ends_with(".ndjson"));
        let made: BTreeSet<String> = a.iter().filter(|t| t.dir == dir).map(|t| t.name.clone()).collect();
        assert_eq!(on_disk, made, "traces/{dir}: run `cargo xtask traces`");
        for t in a.iter().filter(|t| t.dir == dir) {
            let disk = std::fs::read_to_string(path.join(&t.name)).unwrap();
            assert!(disk == t.text, "traces/{dir}/{} differs from its run: run `cargo xtask traces`", t.name);
        }
    }
    assert!(a.iter().filter(|t| t.dir == "dqueue").count() >= 20);
}

/// Checks one line against the previous state with the rules of the system's description; the
/// rules are written here apart from the code that made the line.
fn check_step(name: &str, prev: &Value, s: &Value, buffer: u64) {
    let a = s["action"].as_str().unwrap();
    let me = s["actor"].as_u64().unwrap();
    assert_eq!(s["args"]["self"], me, "{name}");
    let (st, key) = (&s["state"], me.to_string());
    assert_eq!(prev["pc"][&key], a, "{name}: {a} taken from label {}", prev["pc"][&key]);
    let next = match a {
        "c" => "c1",
        "c1" => "c2",
        "c2" => "c",
        "p" => "p1",
        "p1" => "p2",
        "p2" => "p",
        other => panic!("{name}: action {other}"),
    };
    assert_eq!(st["pc"][&key], next, "{name}");
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
        let ls = lines(&t.text);
        assert_eq!(ls[0]["kind"], "header");
        assert_eq!(ls[0]["task"], "dqueue");
        assert!(ls[0].get("bug").is_none(), "{}", t.name);
        assert_eq!(ls[0]["constants"]["BUFFER_SIZE"], buffer);
        assert_eq!(ls[1]["kind"], "init");
        let steps = &ls[2..];
        assert!((40..=80).contains(&steps.len()), "{}: {} steps", t.name, steps.len());
        total += steps.len();
        let mut prev = ls[1]["state"].clone();
        for (k, s) in steps.iter().enumerate() {
            assert_eq!(s["seq"], (k + 1) as u64);
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
        let ls = lines(&t.text);
        assert_eq!(ls[0]["bug"], "zero-item-unanswered", "{}", t.name);
        let mut prev = ls[1]["state"].clone();
        let mut dropped = 0;
        for s in &ls[2..] {
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
