//! The runs that produce the hour clock's traces: one thread ticks 14 times from a starting hour
//! chosen by the seed, so every trace passes 12 -> 1. The ticking thread is the role `clock`, not
//! a numbered thread: `Tick` has no parameter, so its steps carry no thread argument `t`.

use crate::{ClockState, HourClock};
use task_probe::rt::spawn_named;
use task_probe::{Header, Probe, Recorder, Scheduler, TraceFile, run_once, trace_name};

pub const TICKS: usize = 14;

pub fn start_hour(seed: u64) -> usize {
    (seed.wrapping_mul(5) % 12) as usize + 1
}

pub fn run(seed: u64) -> String {
    let scheduler = Scheduler::Random;
    let header = Header {
        task: "hourclock".to_string(),
        constants: serde_json::json!({}),
        seed,
        scheduler,
        source_path: "tasks/hourclock/src/lib.rs".to_string(),
        source_text: include_str!("lib.rs"),
        bug: None,
    };
    let start = start_hour(seed);
    let rec = Recorder::new(&header, ClockState { hr: start });
    let r = rec.clone();
    run_once(scheduler, seed, move || {
        let probe = Probe::on(&r);
        let h = spawn_named("clock", move || {
            let clock = HourClock::new(start, probe);
            for _ in 0..TICKS {
                clock.tick();
            }
            clock.hr()
        });
        let end = h.join().unwrap();
        assert_eq!(end, (start - 1 + TICKS) % 12 + 1);
    });
    rec.text()
}

/// All traces of the task (`traces/hourclock`).
pub fn traces() -> Vec<TraceFile> {
    (1..=6)
        .map(|seed| TraceFile { dir: "hourclock".into(), name: trace_name(Scheduler::Random, seed), text: run(seed) })
        .collect()
}
