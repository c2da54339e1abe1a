//! The runs that produce the reader-writer mutex's traces. Three threads:
//! thread 0 takes an upgradeable read, upgrades, writes, downgrades, then reads and writes;
//! thread 1 reads and, still reading, tries to write, takes an upgradeable read and tries to upgrade it (which,
//! without an announced upgrade, fails), then reads;
//! thread 2 writes, tries an upgradeable read, reads and, still reading, tries to read again.

use crate::{RwMutex, RwState};
use std::sync::Arc;
use task_probe::rt::spawn_named;
use task_probe::{FirstDone, Header, Probe, Recorder, Scheduler, TraceFile, run_once, schedules, trace_name};

pub const THREADS: usize = 3;

/// The system graph's search (in a module of its own, beside this harness: `lib.rs` is the lock
/// alone, as the traces quote it and the prompt shows it).
pub mod graph;

fn thread0(m: &RwMutex<u32>) {
    let up = m.upread();
    let mut w = up.upgrade();
    *w += 1;
    let up = w.downgrade();
    drop(up);
    drop(m.try_read());
    *m.write() += 1;
}

fn thread1(m: &RwMutex<u32>) {
    let r = m.read();
    // Fails: this thread itself still reads.
    if let Some(mut w) = m.try_write() {
        *w += 1;
    }
    drop(r);
    let up = m.upread();
    match up.try_upgrade() {
        Ok(mut w) => *w += 1,
        Err(up) => drop(up),
    }
    drop(m.read());
}

fn thread2(m: &RwMutex<u32>) {
    *m.write() += 1;
    drop(m.try_upread());
    let r = m.read();
    drop(m.try_read());
    drop(r);
}

/// Runs the workload once and returns the trace text.
pub fn run(scheduler: Scheduler, seed: u64) -> String {
    run_bodies(scheduler, seed, (0..THREADS).map(|t| vec![t]).collect(), &[thread0, thread1, thread2], &FirstDone::new())
}

/// A run in which thread `t` calls `bodies[i]` for each `i` of `plans[t]` in turn, and tells
/// `done` when it has made its last call.
fn run_bodies(scheduler: Scheduler, seed: u64, plans: Vec<Vec<usize>>, bodies: &'static [fn(&RwMutex<u32>)], done: &FirstDone) -> String {
    let done = done.clone();
    let header = Header {
        task: "rwmutex".to_string(),
        constants: serde_json::json!({ "Threads": [0, 1, 2] }),
        seed,
        scheduler,
        source_path: "tasks/rwmutex/src/lib.rs".to_string(),
        source_text: include_str!("lib.rs"),
        bug: None,
    };
    let rec = Recorder::new(&header, RwState::new(THREADS));
    let r = rec.clone();
    run_once(scheduler, seed, move || {
        let m = Arc::new(RwMutex::with_probe(0u32, Probe::on(&r)));
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let m = Arc::clone(&m);
                let plan = plans[t].clone();
                let (done, r) = (done.clone(), r.clone());
                spawn_named(&t.to_string(), move || {
                    for i in plan {
                        bodies[i](&m)
                    }
                    done.done(&r);
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(m.word(), 0, "lock word back at zero");
        assert_eq!(r.state(), RwState::new(THREADS), "shadow state back at rest");
    });
    rec.text()
}

/// All traces of the task (`traces/rwmutex`).
pub fn traces() -> Vec<TraceFile> {
    schedules(12)
        .into_iter()
        .map(|(sched, seed)| TraceFile { dir: "rwmutex".into(), name: trace_name(sched, seed), text: run(sched, seed) })
        .collect()
}
