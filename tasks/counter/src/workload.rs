//! The runs that produce the counter's traces: two threads, one increment each.

use crate::{Counter, CounterState};
use std::sync::Arc;
use task_probe::rt::spawn_named;
use task_probe::{Header, Probe, Recorder, Scheduler, TraceFile, run_once, schedules, trace_name};

pub const THREADS: usize = 2;

pub fn run(scheduler: Scheduler, seed: u64) -> String {
    let header = Header {
        task: "counter".to_string(),
        constants: serde_json::json!({ "Threads": [0, 1] }),
        seed,
        scheduler,
        source_path: "tasks/counter/src/lib.rs".to_string(),
        source_text: include_str!("lib.rs"),
        bug: None,
    };
    let rec = Recorder::new(&header, CounterState::new(THREADS));
    let r = rec.clone();
    run_once(scheduler, seed, move || {
        let c = Arc::new(Counter::new(Probe::on(&r)));
        let hs: Vec<_> = (0..THREADS)
            .map(|t| {
                let c = Arc::clone(&c);
                spawn_named(&t.to_string(), move || c.increment())
            })
            .collect();
        for h in hs {
            h.join().unwrap();
        }
        assert_eq!(r.state().counter, c.get(), "shadow counter");
    });
    rec.text()
}

/// All traces of the task (`traces/counter`).
pub fn traces() -> Vec<TraceFile> {
    schedules(4)
        .into_iter()
        .map(|(sched, seed)| TraceFile { dir: "counter".into(), name: trace_name(sched, seed), text: run(sched, seed) })
        .collect()
}

/// Run `k` of the system graph: the traces' workload with a scheduling point after every step
/// (`task_probe::with_step_yields`), so a thread's local add may be interleaved like its
/// reads and writes.
pub fn graph_run(scheduler: Scheduler, seed: u64) -> String {
    task_probe::with_step_yields(|| run(scheduler, seed))
}
