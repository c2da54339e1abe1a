//! The runs that produce the spin lock's traces: three threads, each doing three lock or try_lock
//! calls and incrementing the protected counter in the critical section.

use crate::{SpinLock, SpinState};
use std::sync::Arc;
use task_probe::rt::spawn_named;
use task_probe::{FirstDone, Rng, Header, Probe, Recorder, Scheduler, TraceFile, run_once, schedules, trace_name};

pub const THREADS: usize = 3;

#[derive(Clone, Copy)]
enum Op {
    Lock,
    TryLock,
}

const PLANS: [[Op; 3]; THREADS] = [
    [Op::Lock, Op::TryLock, Op::Lock],
    [Op::TryLock, Op::Lock, Op::TryLock],
    [Op::Lock, Op::Lock, Op::TryLock],
];

/// With the split test-and-set, every thread calls `lock` twice.
const SPLIT_PLANS: [[Op; 2]; THREADS] = [[Op::Lock, Op::Lock], [Op::Lock, Op::Lock], [Op::Lock, Op::Lock]];

/// Runs the workload once and returns the trace text.
pub fn run(scheduler: Scheduler, seed: u64, split: bool) -> String {
    let plans: Vec<Vec<Op>> = if split { SPLIT_PLANS.iter().map(|p| p.to_vec()).collect() } else { PLANS.iter().map(|p| p.to_vec()).collect() };
    run_plans(scheduler, seed, split, plans, &FirstDone::new())
}

/// Calls per thread in a run of the system graph.
const GRAPH_CALLS: usize = 4;

/// Run `k` of the system graph: each thread makes [`GRAPH_CALLS`] calls drawn at random (lock or
/// try_lock; lock only with the split test-and-set, whose try_lock the task leaves out), with a
/// scheduling point after every step (`task_probe::with_step_yields`).
pub fn graph_run(scheduler: Scheduler, seed: u64, split: bool) -> String {
    let mut draw = Rng::new(seed);
    let plans = (0..THREADS)
        .map(|_| (0..GRAPH_CALLS).map(|_| if split || draw.below(2) == 0 { Op::Lock } else { Op::TryLock }).collect())
        .collect();
    let done = FirstDone::new();
    done.cut(&task_probe::with_step_yields(|| run_plans(scheduler, seed, split, plans, &done)))
}

/// A run in which thread `t` makes the calls of `plans[t]`; each thread tells `done` when it has
/// made its last.
fn run_plans(scheduler: Scheduler, seed: u64, split: bool, plans: Vec<Vec<Op>>, done: &FirstDone) -> String {
    let done = done.clone();
    let header = Header {
        task: if split { "spin-split" } else { "spin" }.to_string(),
        constants: serde_json::json!({ "Threads": [0, 1, 2] }),
        seed,
        scheduler,
        source_path: "tasks/spin/src/lib.rs".to_string(),
        source_text: include_str!("lib.rs"),
        bug: None,
    };
    let rec = Recorder::new(&header, SpinState::new(THREADS));
    let r = rec.clone();
    run_once(scheduler, seed, move || {
        let probe = Probe::on(&r);
        let lock = Arc::new(if split {
            SpinLock::new_split(0u32, probe)
        } else {
            SpinLock::with_probe(0u32, probe)
        });
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let l = Arc::clone(&lock);
                let plan = plans[t].clone();
                let (done, r) = (done.clone(), r.clone());
                spawn_named(&t.to_string(), move || {
                    let mut entered = 0u32;
                    for op in &plan {
                        match op {
                            Op::Lock => {
                                *l.lock() += 1;
                                entered += 1;
                            }
                            Op::TryLock => {
                                if let Some(mut g) = l.try_lock() {
                                    *g += 1;
                                    entered += 1;
                                }
                            }
                        }
                    }
                    done.done(&r);
                    entered
                })
            })
            .collect();
        let entered: u32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert!(!lock.is_locked(), "lock left held");
        if !split {
            let mut lock = Arc::try_unwrap(lock).ok().expect("all threads joined");
            assert_eq!(*lock.get_mut(), entered, "lost update under the lock");
        }
        assert_eq!(r.state(), SpinState::new(THREADS), "shadow state back at rest");
    });
    rec.text()
}

/// All traces of the task (`traces/spin`) and of the split-test-and-set bug (`traces/spin-split`).
pub fn traces() -> Vec<TraceFile> {
    let mut out = Vec::new();
    for (sched, seed) in schedules(12) {
        out.push(TraceFile { dir: "spin".into(), name: trace_name(sched, seed), text: run(sched, seed, false) });
    }
    for (sched, seed) in schedules(6) {
        out.push(TraceFile { dir: "spin-split".into(), name: trace_name(sched, seed), text: run(sched, seed, true) });
    }
    out
}
