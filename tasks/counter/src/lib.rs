//! Two threads each add one to a shared counter as three steps: read the counter into a local
//! `tmp`, add one to `tmp`, write `tmp` back. Interleaved reads lose an update.
//!
//! Observable state (pinned names): `counter`, `tmp` (thread -> local copy), `pc` (thread ->
//! "read" | "add" | "write" | "done", the next step). Actions: `Read(t)`, `Add(t)`, `Write(t)`.

#![forbid(unsafe_code)]

use task_probe::rt::sync::atomic::{AtomicUsize, Ordering};
use task_probe::{Observed, Probe, per_thread};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterState {
    pub counter: usize,
    pub tmp: Vec<usize>,
    pub pc: Vec<&'static str>,
}

impl CounterState {
    pub fn new(threads: usize) -> Self {
        CounterState { counter: 0, tmp: vec![0; threads], pc: vec!["read"; threads] }
    }
}

impl Observed for CounterState {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "counter": self.counter, "tmp": per_thread(&self.tmp), "pc": per_thread(&self.pc) })
    }
}

/// A counter incremented without a lock.
pub struct Counter {
    value: AtomicUsize,
    probe: Probe<CounterState>,
}

impl Counter {
    pub fn new(probe: Probe<CounterState>) -> Self {
        Counter { value: AtomicUsize::new(0), probe }
    }

    /// `counter = counter + 1`, as a read, an add and a write.
    pub fn increment(&self) {
        let mut tmp = self.value.load(Ordering::SeqCst);
        self.probe.step("Read", |s, t| {
            s.tmp[t] = tmp;
            s.pc[t] = "add";
        });
        tmp += 1;
        self.probe.step("Add", |s, t| {
            s.tmp[t] = tmp;
            s.pc[t] = "write";
        });
        self.value.store(tmp, Ordering::SeqCst);
        self.probe.step("Write", |s, t| {
            s.counter = tmp;
            s.pc[t] = "done";
        });
    }

    pub fn get(&self) -> usize {
        self.value.load(Ordering::SeqCst)
    }
}

pub mod workload;
