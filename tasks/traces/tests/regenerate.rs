//! Regenerating the traces gives the committed files byte for byte; writing into a fresh folder
//! and comparing finds no difference, and a changed byte is found.

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn committed_traces_are_what_the_systems_produce() {
    let traces = task_traces::all();
    let diffs = task_traces::differences(&repo_root().join("traces"), &traces);
    assert!(diffs.is_empty(), "run `cargo xtask traces`:\n{}", diffs.join("\n"));
}

#[test]
fn regenerating_into_a_temp_dir_matches_and_detects_changes() {
    let tmp = std::env::temp_dir().join(format!("task-traces-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let traces = task_traces::all();
    let n = task_traces::write_all(&tmp, &traces).unwrap();
    assert_eq!(n, traces.len());
    // A second generation in the same process is identical.
    assert!(task_traces::differences(&tmp, &task_traces::all()).is_empty());
    // Byte-identical with the committed files.
    for t in &traces {
        let fresh = std::fs::read(tmp.join(&t.dir).join(&t.name)).unwrap();
        let committed = std::fs::read(repo_root().join("traces").join(&t.dir).join(&t.name)).unwrap_or_default();
        assert_eq!(fresh, committed, "{}/{}", t.dir, t.name);
    }
    // A tampered file is reported.
    let first = &traces[0];
    std::fs::write(tmp.join(&first.dir).join(&first.name), "{}\n").unwrap();
    let d = task_traces::differences(&tmp, &traces);
    assert_eq!(d.len(), 1, "{d:?}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn counts_per_task() {
    let traces = task_traces::all();
    let count = |d: &str| traces.iter().filter(|t| t.dir == d).count();
    for d in ["spin", "mutex", "rwmutex", "ringbuffer", "etcd", "dqueue", "locksvc", "raftkvs", "curp", "redisraft", "zookeeper"] {
        assert!(count(d) >= 20, "{d}: {}", count(d));
    }
    for d in ["counter", "hourclock", "spin-split", "mutex-bug", "dqueue-bug", "locksvc-bug"] {
        assert!(count(d) >= 5, "{d}: {}", count(d));
    }
    // raftkvs's bug trace is one scripted schedule (the Raft paper's Figure 8).
    assert_eq!(count("raftkvs-bug"), 1);
    // curp's bug traces are the first two seeds whose run shows the bug.
    assert_eq!(count("curp-bug"), 2);
    assert_eq!(count("redisraft-bug"), 2);
    assert_eq!(count("zookeeper-bug"), 2);
}

#[test]
fn every_trace_follows_the_documented_line_shapes() {
    for t in task_traces::all() {
        let lines: Vec<serde_json::Value> = t.text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let keys = |v: &serde_json::Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        let h = &lines[0];
        assert_eq!(h["kind"], "header");
        let mut want = vec!["constants", "kind", "scheduler", "seed", "source", "task", "version"];
        if h.get("bug").is_some() {
            want.push("bug");
            want.sort();
        }
        assert_eq!(keys(h), want, "{}", t.name);
        assert_eq!(lines[1]["kind"], "init");
        let vars = keys(&lines[1]["state"]);
        for (i, s) in lines[2..].iter().enumerate() {
            assert_eq!(keys(s), ["action", "actor", "args", "kind", "seq", "state"], "{}/{}", t.dir, t.name);
            assert_eq!(s["seq"], i as u64 + 1, "{}/{}", t.dir, t.name);
            assert_eq!(keys(&s["state"]), vars, "{}/{}", t.dir, t.name);
            if s["actor"].is_u64() {
                // A numbered thread is argument `t`; a node of etcd, a server of redisraft or a
                // peer of zookeeper is `i`; a PGo process is `self`, MPCal's name.
                let who = match t.dir.as_str() {
                    "etcd" | "redisraft" | "redisraft-bug" | "zookeeper" | "zookeeper-bug" => "i",
                    "dqueue" | "dqueue-bug" | "locksvc" | "locksvc-bug" | "raftkvs" | "raftkvs-bug" => "self",
                    _ => "t",
                };
                assert_eq!(s["args"][who], s["actor"], "{}/{}", t.dir, t.name);
            }
        }
    }
}

/// The committed graph of one task is what its system produces, unpacks to the task it names,
/// and holds every pinned action of its traces, but for the etcd graph, whose bounds (every term
/// 0) hold the pre-vote phase of the first election: a timeout, the pre-vote requests and
/// responses, restarts.
fn check_graph(dir: &str) {
    let spec = task_traces::graphs::specs().into_iter().find(|s| s.dir == dir).expect("a graph of this task");
    let path = format!("{dir}/{}", task_traces::graphs::FILE);
    let bytes = task_traces::graphs::compress(&task_traces::graphs::build(&spec).unwrap());
    let graphs = vec![(path.clone(), bytes.clone())];
    let diffs = task_traces::graphs::differences(&repo_root().join("traces"), &graphs);
    assert!(diffs.is_empty(), "run `cargo xtask traces`:\n{}", diffs.join("\n"));
    let etcd_phase = ["Timeout", "HandlePreVoteRequest", "HandlePreVoteResponse", "Restart"];
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).unwrap();
    let g = tla_trace::parse_graph(&path, &text).unwrap();
    let in_graph: std::collections::BTreeSet<&str> = g.edges.iter().map(|e| e.action.as_str()).collect();
    if dir == "etcd" {
        assert_eq!(in_graph, etcd_phase.into_iter().collect(), "{path}: the pre-vote phase's actions");
    }
    for t in task_traces::all().iter().filter(|t| t.dir == dir) {
        for line in t.text.lines().skip(1) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(a) = v.get("action").and_then(|a| a.as_str()) {
                if dir == "etcd" && !etcd_phase.contains(&a) {
                    continue;
                }
                // curp's graph holds six steps from the start; a slow round comes later (three
                // answers, a commit and an apply after the proposal).
                if dir == "curp" && a == "SlowRound" {
                    continue;
                }
                // redisraft's graph holds five steps from the start; an entry is applied after a
                // write, its replication, the answer and a commit (six), a new leader needs a
                // pre-vote and a vote round (six), and a removal must be applied before a node is
                // added back or a snapshot sent.
                if dir == "redisraft" && ["ApplyEntry", "BecomeLeader", "BecomeFollower", "AddNode", "RecvSnapshot", "RecvSnapshotResponse"].contains(&a) {
                    continue;
                }
                // zookeeper's graph holds nine steps from the start; a decision from settled
                // peers' answers needs two peers settled first (two starts, four notifications
                // taken, two final waits), then a third peer's start and two answers taken.
                if dir == "zookeeper" && a == "DecideBySettled" {
                    continue;
                }
                assert!(in_graph.contains(a), "{path}: the traces' action {a} is not in the graph");
            }
        }
    }
}

/// One test per graph, so that the test runner spreads them over its workers.
macro_rules! committed_graph_of {
    ($($name:ident => $dir:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_graph($dir);
            }
        )*
        #[test]
        fn every_graph_has_its_test() {
            let mut listed = vec![$($dir),*];
            listed.sort();
            let mut specs: Vec<&str> = task_traces::graphs::specs().iter().map(|s| s.dir).collect();
            specs.sort();
            assert_eq!(specs, listed, "add the graph to `committed_graph_of!` in this file");
        }
    };
}

committed_graph_of! {
    committed_graph_of_counter => "counter",
    committed_graph_of_curp => "curp",
    committed_graph_of_dqueue => "dqueue",
    committed_graph_of_etcd => "etcd",
    committed_graph_of_hourclock => "hourclock",
    committed_graph_of_locksvc => "locksvc",
    committed_graph_of_mutex => "mutex",
    committed_graph_of_raftkvs => "raftkvs",
    committed_graph_of_redisraft => "redisraft",
    committed_graph_of_ringbuffer => "ringbuffer",
    committed_graph_of_rwmutex => "rwmutex",
    committed_graph_of_spin => "spin",
    committed_graph_of_spin_split => "spin-split",
    committed_graph_of_zookeeper => "zookeeper",
}
