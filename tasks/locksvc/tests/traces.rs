//! The locksvc traces: they regenerate identically, the files under `traces/locksvc` and
//! `traces/locksvc-bug` are those runs, every pinned action occurs, several clients wait in the
//! server's queue at once, every line keeps the service's own rules, and the bug switch puts two
//! clients in their critical sections at once in some runs (in every run it grants the lock to a
//! client behind the head of the queue).

use serde_json::Value;
use std::collections::BTreeMap;
use task_locksvc::locksvc::{Bug, Label, SERVER_ID};
use task_locksvc::workload::{Schedule, constants, run_system, traces};
use task_probe::testing::{assert_check_constant, assert_label_step, assert_pinned_with_self, assert_traces_match_files, seq, trace};

const PINNED: [&str; 6] = ["serverLoop", "serverReceive", "serverRespond", "acquireLock", "criticalSection", "unlock"];

fn nodes() -> Vec<String> {
    let mut v: Vec<String> = (0..=constants().num_clients).map(|n| n.to_string()).collect();
    v.sort();
    v
}

fn clients() -> Vec<String> {
    (1..=constants().num_clients).map(|n| n.to_string()).collect()
}

fn count(v: &Value, c: u64) -> u64 {
    v[c.to_string()].as_u64().expect("a count")
}

#[test]
fn pinned_names_and_constants_match_task_toml() {
    let toml = include_str!("../task.toml");
    assert_pinned_with_self(toml, &PINNED);
    assert_eq!(Label::STEPS.map(|l| l.name()), PINNED);
    let k = constants();
    assert_check_constant(toml, "NumClients", k.num_clients);
    assert!((2..=3).contains(&k.num_clients), "2 or 3 clients");
    assert_eq!(SERVER_ID, 0);
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    assert_traces_match_files(traces, &["locksvc", "locksvc-bug"]);
    assert!(traces().iter().filter(|t| t.dir == "locksvc").count() >= 20);
}

/// Checks one line against the previous state with the rules of the service's description; the
/// rules are written here apart from the code that made the line. Returns the client the
/// server's message came from and the message's kind when the step is serverReceive, which the
/// next serverRespond of the server needs (`msg` is not observed).
fn check_step(name: &str, prev: &Value, s: &Value, msg: &mut Option<(u64, &'static str)>, grant_when: usize) {
    let (a, me) = assert_label_step(name, prev, s, |a| match a {
        "serverLoop" => "serverReceive",
        "serverReceive" => "serverRespond",
        "serverRespond" => "serverLoop",
        "acquireLock" => "criticalSection",
        "criticalSection" => "unlock",
        "unlock" => "Done",
        other => panic!("{name}: action {other}"),
    });
    let (st, key) = (&s["state"], me.to_string());
    assert_eq!(me == SERVER_ID, a.starts_with("server"), "{name}: {a} by {me}");
    let mut expect = prev.clone();
    expect["pc"][&key] = st["pc"][&key].clone();
    let bump = |v: &mut Value, c: u64, by: i64| {
        let n = v[c.to_string()].as_u64().unwrap() as i64 + by;
        assert!(n >= 0, "{name}: a message taken that was not there");
        v[c.to_string()] = (n as u64).into();
    };
    match a {
        "acquireLock" => bump(&mut expect["lockMsgs"], me, 1),
        "unlock" => {
            assert_eq!(prev["hasLock"][&key], true, "{name}: unlock without the lock");
            expect["hasLock"][&key] = false.into();
            bump(&mut expect["unlockMsgs"], me, 1);
        }
        "criticalSection" => {
            assert!(count(&prev["grantMsgs"], me) > 0, "{name}: criticalSection without a grant");
            bump(&mut expect["grantMsgs"], me, -1);
            expect["hasLock"][&key] = true.into();
        }
        "serverReceive" => {
            // Exactly one message left the server's bag, any of them.
            let mut taken = None;
            for c in 1..=constants().num_clients {
                for kind in ["lockMsgs", "unlockMsgs"] {
                    if count(&st[kind], c) + 1 == count(&prev[kind], c) {
                        assert!(taken.is_none(), "{name}: two messages taken");
                        taken = Some((c, if kind == "lockMsgs" { "lock" } else { "unlock" }));
                        bump(&mut expect[kind], c, -1);
                    }
                }
            }
            assert!(taken.is_some(), "{name}: serverReceive took nothing");
            *msg = taken;
        }
        "serverRespond" => {
            let (from, kind) = msg.take().expect("serverRespond after serverReceive");
            let mut q = seq(&prev["q"]);
            if kind == "lock" {
                if q.len() < grant_when {
                    bump(&mut expect["grantMsgs"], from, 1);
                }
                q.push(from);
            } else {
                assert!(!q.is_empty(), "{name}: an unlock with an empty queue");
                q.remove(0);
                if let Some(&h) = q.first() {
                    bump(&mut expect["grantMsgs"], h, 1);
                }
            }
            expect["q"] = q.into();
        }
        _ => {}
    }
    assert_eq!(st, &expect, "{name}: state after {a} by {me}");
}

#[test]
fn traces_cover_every_action_with_clients_waiting_in_the_queue() {
    let mut count_of: BTreeMap<String, usize> = BTreeMap::new();
    let (mut total, mut max_queue, mut granted_on_unlock) = (0, 0, 0);
    for t in traces().iter().filter(|t| t.dir == "locksvc") {
        let tr = trace(&t.name, "locksvc", &t.text);
        assert!(tr.header.get("bug").is_none(), "{}", t.name);
        total += tr.steps.len();
        let mut prev = tr.init;
        let mut msg = None;
        for s in &tr.steps {
            let st = &s["state"];
            assert_eq!(st["pc"].as_object().unwrap().keys().cloned().collect::<Vec<_>>(), nodes());
            assert_eq!(st["hasLock"].as_object().unwrap().keys().cloned().collect::<Vec<_>>(), nodes());
            let mut cs = clients();
            cs.sort();
            assert_eq!(st["grantMsgs"].as_object().unwrap().keys().cloned().collect::<Vec<_>>(), cs);
            check_step(&t.name, &prev, s, &mut msg, 1);
            let holders = clients().iter().filter(|c| st["hasLock"][c.as_str()] == true).count();
            assert!(holders <= 1, "{}: two holders", t.name);
            let q = seq(&st["q"]);
            max_queue = max_queue.max(q.len());
            if s["action"] == "serverRespond" && q.len() < seq(&prev["q"]).len() && !q.is_empty() {
                granted_on_unlock += 1;
            }
            *count_of.entry(s["action"].as_str().unwrap().to_string()).or_default() += 1;
            prev = st.clone();
        }
        // Every run ends with every client done and the server idle on an empty mailbox.
        for c in clients() {
            assert_eq!(prev["pc"][&c], "Done", "{}", t.name);
            assert_eq!(prev["grantMsgs"][&c], 0, "{}", t.name);
        }
        assert_eq!(prev["pc"]["0"], "serverReceive", "{}", t.name);
        assert_eq!(prev["q"], Value::Array(vec![]), "{}", t.name);
    }
    for a in PINNED {
        assert!(count_of.get(a).copied().unwrap_or(0) > 0, "action {a} never traced: {count_of:?}");
    }
    println!("{total} steps; {count_of:?}; longest queue {max_queue}; {granted_on_unlock} grants to a waiter on unlock");
    assert_eq!(max_queue as u64, constants().num_clients, "every client in the queue at once");
    assert!(granted_on_unlock >= 10, "{granted_on_unlock}");
}

#[test]
fn the_bug_switch_puts_two_clients_in_their_critical_sections() {
    let bug: Vec<_> = traces().into_iter().filter(|t| t.dir == "locksvc-bug").collect();
    assert!(bug.len() >= 5);
    let mut runs_with_two_holders = 0;
    for t in &bug {
        let tr = trace(&t.name, "locksvc", &t.text);
        assert_eq!(tr.header["bug"], "grant-to-second-waiter", "{}", t.name);
        let mut prev = tr.init;
        let mut msg = None;
        let (mut two_holders, mut granted_behind_head) = (false, false);
        for s in &tr.steps {
            // The switch's rule: a lock request is granted when the queue holds at most one.
            check_step(&t.name, &prev, s, &mut msg, 2);
            let q = seq(&s["state"]["q"]);
            if s["action"] == "serverRespond" && q.len() == 2 && seq(&prev["q"]).len() == 1 {
                let second = q[1];
                granted_behind_head |= count(&s["state"]["grantMsgs"], second) > count(&prev["grantMsgs"], second);
            }
            two_holders |= clients().iter().filter(|c| s["state"]["hasLock"][c.as_str()] == true).count() > 1;
            prev = s["state"].clone();
        }
        assert!(granted_behind_head, "{}: no grant to a client behind the head of the queue", t.name);
        runs_with_two_holders += usize::from(two_holders);
    }
    assert!(runs_with_two_holders >= 3, "{runs_with_two_holders} bug runs with two holders at once");
    // Without the switch the same schedules never give the lock to two clients.
    for seed in 0..200 {
        let run = run_system(Schedule::Contending, seed, Bug::None);
        for st in &run.steps {
            assert!(st.after.has_lock.iter().filter(|(_, h)| *h).count() <= 1, "seed {seed}");
        }
    }
}
