//! Checks the tasks' tests share (feature `testing`): a task's pinned names and constants
//! against its task.toml, its traces against the files under `traces/`, the shape of a trace's
//! lines, a step of a PGo archetype, and a breadth-first walk of every state a [`Machine`]
//! reaches.

use crate::{Machine, TraceFile};
use serde_json::Value;
use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::Path;

/// The lines of a trace, each parsed.
pub fn lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str::<Value>(l).expect("a JSON line")).collect()
}

/// A JSON sequence of numbers.
pub fn seq(v: &Value) -> Vec<u64> {
    v.as_array().expect("a sequence").iter().map(|x| x.as_u64().expect("a number")).collect()
}

/// A trace's lines: its header, its initial state and its steps.
pub struct Trace {
    pub header: Value,
    pub init: Value,
    pub steps: Vec<Value>,
}

/// The lines of trace `name` of `task`, checked for their shape: a header of the task, an
/// `init` line, then steps numbered from 1.
pub fn trace(name: &str, task: &str, text: &str) -> Trace {
    let mut ls = lines(text);
    assert!(ls.len() >= 2, "{name}: a header and an init line");
    let steps = ls.split_off(2);
    let (header, init) = (ls[0].clone(), ls[1].clone());
    assert_eq!(header["kind"], "header", "{name}");
    assert_eq!(header["task"], task, "{name}");
    assert_eq!(init["kind"], "init", "{name}");
    for (k, s) in steps.iter().enumerate() {
        assert_eq!(s["kind"], "step", "{name}");
        assert_eq!(s["seq"], (k + 1) as u64, "{name}");
    }
    Trace { header, init: init["state"].clone(), steps }
}

/// Every name of `pinned` is pinned in `toml` (a task.toml) as an action with the parameter
/// `self`.
pub fn assert_pinned_with_self(toml: &str, pinned: &[&str]) {
    for a in pinned {
        assert!(toml.contains(&format!("name = \"{a}\", params = [\"self\"]")), "{a} not pinned in task.toml");
    }
}

/// Every name of `pinned` is pinned in `toml` (a task.toml) as an action, and no other.
pub fn assert_actions_pinned(toml: &str, pinned: &[&str]) {
    for a in pinned {
        assert!(toml.contains(&format!("{{ name = \"{a}\", params = [")), "{a} not pinned in task.toml");
    }
    assert_eq!(toml.matches("{ name = \"").count(), pinned.len(), "task.toml pins other actions");
}

/// `toml`'s (a task.toml's) `[check]` table sets `name` to `value`.
pub fn assert_check_constant(toml: &str, name: &str, value: impl std::fmt::Display) {
    let check = toml.split("[check]").nth(1).expect("a [check] table");
    assert!(check.contains(&format!("{name} = {value}")), "{name} differs from task.toml");
}

/// `traces` gives the same traces twice, and for each of `dirs` they are the `.ndjson` files
/// under `traces/<dir>`, byte for byte.
pub fn assert_traces_match_files(traces: fn() -> Vec<TraceFile>, dirs: &[&str]) {
    let a = traces();
    assert_eq!(a, traces());
    for &dir in dirs {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../traces").join(dir);
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
}

/// A step line `s` of trace `name` as a PGo archetype takes it, after the state `prev`: taken by
/// its actor, which is also its `self`, at the label it is named after (`pc`), moving that
/// process to the label `next` gives for it. Returns the action and the actor.
pub fn assert_label_step<'a>(name: &str, prev: &Value, s: &'a Value, next: impl Fn(&str) -> &'static str) -> (&'a str, u64) {
    let a = s["action"].as_str().unwrap();
    let me = s["actor"].as_u64().unwrap();
    assert_eq!(s["args"]["self"], me, "{name}");
    let key = me.to_string();
    assert_eq!(prev["pc"][&key], a, "{name}: {a} taken from label {}", prev["pc"][&key]);
    assert_eq!(s["state"]["pc"][&key], next(a), "{name}");
    (a, me)
}

/// What a breadth-first walk of every state reachable from a start found.
#[derive(Clone, Copy, Debug)]
pub struct Reach {
    /// Distinct keys of the states reached (the start's included).
    pub states: usize,
    /// The most states on a shortest path from the start to a key (TLC's depth).
    pub depth: usize,
    /// States where no step is enabled.
    pub dead_ends: usize,
}

/// Walks every state of `init`'s machine breadth first, `visit`ing each once, and counts the
/// distinct `key`s of the states reached (the states of a model, which may fold several states
/// of the machine into one).
pub fn reach<M: Machine>(init: M, key: impl Fn(&M) -> String, mut visit: impl FnMut(&M)) -> Reach {
    let mut seen: HashMap<M, usize> = HashMap::new();
    // Each key with the length of the shortest path to it (in states).
    let mut keys: HashMap<String, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    let mut dead_ends = 0;
    keys.insert(key(&init), 1);
    seen.insert(init.clone(), 1);
    queue.push_back(init);
    while let Some(m) = queue.pop_front() {
        let d = seen[&m];
        visit(&m);
        let next = m.successors();
        if next.is_empty() {
            dead_ends += 1;
        }
        for (_, _, n) in next {
            keys.entry(key(&n)).or_insert(d + 1);
            if let Entry::Vacant(e) = seen.entry(n.clone()) {
                e.insert(d + 1);
                queue.push_back(n);
            }
        }
    }
    let depth = keys.values().copied().max().unwrap_or(0);
    Reach { states: keys.len(), depth, dead_ends }
}
