//! The runs that produce the mutex's traces: three threads, each doing three lock or try_lock
//! calls and incrementing the protected counter in the critical section.

use crate::{Mutex, MutexState};
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
    [Op::TryLock, Op::Lock, Op::Lock],
    [Op::Lock, Op::Lock, Op::TryLock],
];

/// Runs the workload once and returns the trace text.
pub fn run(scheduler: Scheduler, seed: u64, bug: bool) -> String {
    run_plans(scheduler, seed, bug, PLANS.iter().map(|p| p.to_vec()).collect(), &FirstDone::new())
}

/// Calls per thread in a run of the system graph.
const GRAPH_CALLS: usize = 6;

/// Run `k` of the system graph: each thread makes [`GRAPH_CALLS`] calls drawn at random (lock or
/// try_lock), with a scheduling point after every step (`task_probe::with_step_yields`).
pub fn graph_run(scheduler: Scheduler, seed: u64) -> String {
    let mut draw = Rng::new(seed);
    let plans = (0..THREADS).map(|_| (0..GRAPH_CALLS).map(|_| if draw.below(2) == 0 { Op::Lock } else { Op::TryLock }).collect()).collect();
    let done = FirstDone::new();
    done.cut(&task_probe::with_step_yields(|| run_plans(scheduler, seed, false, plans, &done)))
}

/// A run in which thread `t` makes the calls of `plans[t]`; each thread tells `done` when it has
/// made its last.
fn run_plans(scheduler: Scheduler, seed: u64, bug: bool, plans: Vec<Vec<Op>>, done: &FirstDone) -> String {
    let done = done.clone();
    let header = Header {
        task: "mutex".to_string(),
        constants: serde_json::json!({ "Threads": [0, 1, 2] }),
        seed,
        scheduler,
        source_path: "tasks/mutex/src/lib.rs".to_string(),
        source_text: include_str!("lib.rs"),
        bug: bug.then(|| "try-lock-unlocks".to_string()),
    };
    let rec = Recorder::new(&header, MutexState::new(THREADS));
    let r = rec.clone();
    run_once(scheduler, seed, move || {
        let probe = Probe::on(&r);
        let m = Arc::new(if bug {
            Mutex::new_with_try_lock_bug(0u32, probe)
        } else {
            Mutex::with_probe(0u32, probe)
        });
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let m = Arc::clone(&m);
                let plan = plans[t].clone();
                let (done, r) = (done.clone(), r.clone());
                spawn_named(&t.to_string(), move || {
                    let mut entered = 0u32;
                    for op in plan {
                        match op {
                            Op::Lock => {
                                *m.lock() += 1;
                                entered += 1;
                            }
                            Op::TryLock => {
                                if let Some(mut g) = m.try_lock() {
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
        if !bug {
            assert!(!m.is_locked(), "mutex left held");
            let mut m = Arc::try_unwrap(m).ok().expect("all threads joined");
            assert_eq!(*m.get_mut(), entered, "lost update under the mutex");
            assert_eq!(r.state(), MutexState::new(THREADS), "shadow state back at rest");
        }
    });
    rec.text()
}

/// All traces of the task (`traces/mutex`) and of the try_lock bug (`traces/mutex-bug`).
pub fn traces() -> Vec<TraceFile> {
    let mut out = Vec::new();
    for (sched, seed) in schedules(12) {
        out.push(TraceFile { dir: "mutex".into(), name: trace_name(sched, seed), text: run(sched, seed, false) });
    }
    for (sched, seed) in schedules(6) {
        out.push(TraceFile { dir: "mutex-bug".into(), name: trace_name(sched, seed), text: run(sched, seed, true) });
    }
    out
}
