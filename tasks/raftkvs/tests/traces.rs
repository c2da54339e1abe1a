//! The raftkvs traces: they regenerate identically, the files under `traces/raftkvs` are those
//! runs, every pinned action occurs, the failures the task lists happen (a crashed server,
//! lost messages, client retries and timeouts, competing candidates), and every line keeps the
//! labels' order and Raft's safety rules, checked here apart from the code that made the lines.

use serde_json::Value;
use std::collections::BTreeMap;
use task_probe::testing::{
    assert_check_constant, assert_pinned_with_self, assert_traces_match_files, trace,
};
use task_raftkvs::raftkvs::{Label, Part};
use task_raftkvs::raftkvs::Bug;
use task_raftkvs::workload::{constants, figure8, observe, traces};

const PINNED: [&str; 14] = [
    "serverLoop",
    "handleMsg",
    "serverRequestVoteLoop",
    "requestVoteLoop",
    "serverAppendEntriesLoop",
    "appendEntriesLoop",
    "serverAdvanceCommitIndexLoop",
    "applyLoop",
    "serverBecomeLeaderLoop",
    "serverCrash",
    "fdUpdate",
    "clientLoop",
    "sndReq",
    "rcvResp",
];

#[test]
fn pinned_names_and_constants_match_task_toml() {
    let toml = include_str!("../task.toml");
    assert_pinned_with_self(toml, &PINNED);
    assert_eq!(Label::STEPS.map(|l| l.name()), PINNED);
    let k = constants();
    assert_check_constant(toml, "NumServers", k.num_servers);
    assert_check_constant(toml, "NumClients", k.num_clients);
    assert_check_constant(toml, "MaxNodeFail", k.max_node_fail);
    assert_eq!(
        (k.num_servers, k.num_clients, k.max_node_fail),
        (3, 1, 1),
        "three servers, a client, a crasher"
    );
    assert_eq!(
        Part::AdvanceCommitIndex.process(&k, 2),
        11,
        "PGo's process ids"
    );
}

#[test]
fn traces_regenerate_identically_and_match_the_files() {
    assert_traces_match_files(traces, &["raftkvs", "raftkvs-bug"]);
    assert!(traces().iter().filter(|t| t.dir == "raftkvs").count() >= 20);
}

/// The system graph's machine (`graph_state`, searched by `tasks/traces/src/graphs.rs`) takes
/// every traced step: from the states it may be in, a step with the line's action and `self`
/// leads to the line's state. So the graph's steps are named, and its states observed, as the
/// traces' are (a server's step by its archetype's process id).
#[test]
fn every_trace_is_a_path_of_the_graph_machine() {
    use task_probe::Machine;
    for t in traces().iter().filter(|t| t.dir == "raftkvs") {
        let tr = trace(&t.name, "raftkvs", &t.text);
        let init = task_raftkvs::workload::graph_state();
        assert_eq!(Value::Object(init.observe()), tr.init, "{}", t.name);
        let mut at = vec![init];
        for (k, s) in tr.steps.iter().enumerate() {
            let mut next: Vec<_> = vec![];
            for m in &at {
                for (action, args, n) in m.successors() {
                    if action == s["action"] && Value::Object(args) == s["args"] && Value::Object(n.observe()) == s["state"] && !next.contains(&n) {
                        next.push(n);
                    }
                }
            }
            assert!(!next.is_empty(), "{} line {}: no step of the machine is {} {}", t.name, k + 3, s["action"], s["args"]);
            at = next;
        }
    }
}

fn u(v: &Value) -> u64 {
    v.as_u64().expect("a number")
}

/// The labels a step named `a` may leave its process at (loops stay at their label).
fn next_labels(a: &str) -> &'static [&'static str] {
    match a {
        "serverLoop" => &["handleMsg"],
        "handleMsg" => &["serverLoop"],
        "serverRequestVoteLoop" => &["requestVoteLoop"],
        "requestVoteLoop" => &["requestVoteLoop", "serverRequestVoteLoop"],
        "serverAppendEntriesLoop" => &["appendEntriesLoop"],
        "appendEntriesLoop" => &["appendEntriesLoop", "serverAppendEntriesLoop"],
        "serverAdvanceCommitIndexLoop" => &["applyLoop"],
        "applyLoop" => &["applyLoop", "serverAdvanceCommitIndexLoop"],
        "serverBecomeLeaderLoop" => &["serverBecomeLeaderLoop"],
        "serverCrash" => &["fdUpdate"],
        "fdUpdate" => &["Done"],
        "clientLoop" => &["sndReq"],
        "sndReq" => &["rcvResp"],
        "rcvResp" => &["rcvResp", "sndReq", "clientLoop"],
        other => panic!("action {other}"),
    }
}

/// Raft's safety rules on one state: one leader per term, committed prefixes agree, commit
/// indexes within the logs, servers with the same commit index applied the same state machine.
fn check_state(name: &str, st: &Value) {
    let servers: Vec<String> = (1..=constants().num_servers)
        .map(|i| i.to_string())
        .collect();
    let log = |i: &str| st["log"][i].as_array().expect("a log").clone();
    for i in &servers {
        assert!(
            u(&st["commitIndex"][i]) as usize <= log(i).len(),
            "{name}: commitIndex past the log of {i}"
        );
        for j in &servers {
            if i < j && st["state"][i] == "leader" && st["state"][j] == "leader" {
                assert_ne!(
                    st["currentTerm"][i], st["currentTerm"][j],
                    "{name}: two leaders in one term"
                );
            }
            let c = u(&st["commitIndex"][i]).min(u(&st["commitIndex"][j])) as usize;
            assert_eq!(
                log(i)[..c],
                log(j)[..c],
                "{name}: committed prefixes of {i} and {j} differ"
            );
            if st["commitIndex"][i] == st["commitIndex"][j] {
                assert_eq!(
                    st["sm"][i], st["sm"][j],
                    "{name}: state machines of {i} and {j}"
                );
            }
        }
    }
}

#[derive(Default, Debug)]
struct Seen {
    actions: BTreeMap<String, usize>,
    crashes: usize,
    traces_with_a_commit: usize,
    highest_term: u64,
    failures_retried: usize,
    timeouts: usize,
    gets_answered: usize,
    lost: usize,
    next_index_back: usize,
}

#[test]
fn every_line_keeps_the_labels_and_raft_safety_and_the_traces_cover_the_failures() {
    let k = constants();
    let n = k.num_servers;
    let mut seen = Seen::default();
    for t in traces().into_iter().filter(|t| t.dir == "raftkvs") {
        let tr = trace(&t.name, "raftkvs", &t.text);
        assert!(tr.header.get("bug").is_none(), "{}", t.name);
        let name = t.name.as_str();
        let mut prev = tr.init.clone();
        check_state(name, &prev);
        let mut committed = false;
        for s in &tr.steps {
            let (a, me) = (s["action"].as_str().unwrap(), u(&s["actor"]));
            let st = &s["state"];
            assert_eq!(s["args"]["self"], me, "{name}");
            let key = me.to_string();
            assert_eq!(
                prev["pc"][&key], a,
                "{name}: {a} taken at label {}",
                prev["pc"][&key]
            );
            assert!(
                next_labels(a).contains(&st["pc"][&key].as_str().unwrap()),
                "{name}: {a} leaves {}",
                st["pc"][&key]
            );
            for (p, l) in st["pc"].as_object().unwrap() {
                if *p != key {
                    assert_eq!(&prev["pc"][p], l, "{name}: {a} by {me} moved process {p}");
                }
            }
            // A server's process runs only while its server is up; a crashed server's
            // variables never change again.
            if me <= 5 * n {
                let srv = ((me - 1) % n + 1).to_string();
                assert_eq!(
                    prev["netEnabled"][&srv], true,
                    "{name}: {a} by {me} on a crashed server"
                );
            }
            for i in 1..=n {
                let i = i.to_string();
                if prev["netEnabled"][&i] == false {
                    for v in [
                        "state",
                        "currentTerm",
                        "log",
                        "commitIndex",
                        "votedFor",
                        "sm",
                    ] {
                        assert_eq!(prev[v][&i], st[v][&i], "{name}: {v} of crashed server {i}");
                    }
                }
                assert!(
                    u(&st["currentTerm"][&i]) >= u(&prev["currentTerm"][&i]),
                    "{name}: a term went back"
                );
                if prev["state"][&i] == "leader" && st["state"][&i] == "leader" {
                    let (before, after) = (
                        prev["log"][&i].as_array().unwrap(),
                        st["log"][&i].as_array().unwrap(),
                    );
                    assert_eq!(
                        before[..],
                        after[..before.len()],
                        "{name}: a leader's log lost an entry"
                    );
                }
                for j in 1..=n {
                    let j = j.to_string();
                    seen.next_index_back +=
                        usize::from(u(&st["nextIndex"][&i][&j]) < u(&prev["nextIndex"][&i][&j]));
                }
            }
            check_state(name, st);
            committed |= st["commitIndex"]
                .as_object()
                .unwrap()
                .values()
                .any(|c| u(c) > 0);
            seen.highest_term = seen.highest_term.max(
                st["currentTerm"]
                    .as_object()
                    .unwrap()
                    .values()
                    .map(u)
                    .max()
                    .unwrap(),
            );
            let c = key.as_str();
            match a {
                "serverCrash" => seen.crashes += 1,
                "rcvResp"
                    if st["pc"][c] == "sndReq"
                        && st["clientLeader"][c] == 0
                        && prev["clientLeader"][c] != 0 =>
                {
                    seen.timeouts += 1
                }
                "rcvResp" if st["pc"][c] == "sndReq" => seen.failures_retried += 1,
                "rcvResp" if st["pc"][c] == "clientLoop" && u(&st["reqIdx"][c]) == 2 => {
                    seen.gets_answered += 1
                }
                // A request sent to a crashed server is lost.
                "sndReq" if prev["netEnabled"][&st["clientLeader"][c].to_string()] == false => {
                    seen.lost += 1
                }
                _ => {}
            }
            *seen.actions.entry(a.to_string()).or_default() += 1;
            prev = st.clone();
        }
        seen.traces_with_a_commit += usize::from(committed);
    }
    println!("{seen:?}");
    for a in PINNED {
        assert!(
            seen.actions.get(a).copied().unwrap_or(0) > 0,
            "action {a} never traced: {:?}",
            seen.actions
        );
    }
    assert!(seen.crashes >= 4 && seen.lost >= 3, "{seen:?}");
    assert!(seen.traces_with_a_commit >= 10, "{seen:?}");
    assert!(
        seen.highest_term >= 5,
        "competing candidates reach term 5: {seen:?}"
    );
    assert!(
        seen.failures_retried >= 5 && seen.timeouts >= 10,
        "{seen:?}"
    );
    assert!(seen.gets_answered >= 3, "{seen:?}");
}

/// Whether two servers have committed different entries at the same index (StateMachineSafety
/// broken), in a state of a trace line.
fn committed_entries_differ(st: &Value) -> bool {
    let n = constants().num_servers;
    (1..=n).any(|i| {
        (1..=n).any(|j| {
            let (i, j) = (i.to_string(), j.to_string());
            let c = u(&st["commitIndex"][&i]).min(u(&st["commitIndex"][&j])) as usize;
            st["log"][&i].as_array().unwrap()[..c] != st["log"][&j].as_array().unwrap()[..c]
        })
    })
}

#[test]
fn the_bug_switch_commits_an_earlier_terms_entry_that_a_later_leader_overwrites() {
    let bug: Vec<_> = traces().into_iter().filter(|t| t.dir == "raftkvs-bug").collect();
    assert_eq!(bug.len(), 1);
    let tr = trace(&bug[0].name, "raftkvs", &bug[0].text);
    assert_eq!(tr.header["bug"], "commit-earlier-term");
    // Server 1 commits index 1 while leading term 4, though that entry is of term 2.
    let early = tr.steps.iter().find(|s| s["action"] == "applyLoop" && s["state"]["commitIndex"]["1"] == 1).expect("server 1 commits");
    assert_eq!(early["state"]["currentTerm"]["1"], 4);
    assert_eq!(early["state"]["log"]["1"][0]["term"], 2);
    // At the end, server 3 (term 5) has committed another entry at index 1.
    let last = &tr.steps.last().unwrap()["state"];
    assert_eq!(last["log"]["3"][0]["term"], 3);
    assert!(u(&last["commitIndex"]["3"]) >= 1);
    assert!(committed_entries_differ(last), "{last}");
    // The same schedule without the switch: server 1 never commits the entry of term 2, and
    // no two servers ever commit different entries.
    let run = figure8(Bug::None);
    for st in run.steps.iter().map(|s| &s.after).chain([&observe(&run.sim)]) {
        assert!(!committed_entries_differ(st), "{st}");
        assert_eq!(st["commitIndex"]["1"], 0, "server 1 commits nothing of term 2");
    }
}
