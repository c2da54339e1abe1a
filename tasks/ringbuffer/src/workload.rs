//! The runs that produce the ring buffer's traces (capacity 4): the producer pushes the numbers
//! 1, 2, 3, ... one by one and in slices of 2, 3 and 5 (5 never fits); the consumer pops one by
//! one and in slices of 2, 3 and 5, and checks that it receives the numbers in order.

use crate::{RingBuffer, RingState};
use task_probe::rt::spawn_named;
use task_probe::{Header, Probe, Recorder, Scheduler, TraceFile, run_once, schedules, trace_name};

pub const CAPACITY: usize = 4;

/// Slice lengths tried in turn (1 means `push`/`pop`).
const PRODUCER: [usize; 10] = [1, 1, 3, 1, 2, 5, 1, 1, 3, 2];
const CONSUMER: [usize; 10] = [1, 2, 1, 1, 5, 3, 1, 2, 1, 1];

/// Runs the workload once and returns the trace text.
pub fn run(scheduler: Scheduler, seed: u64) -> String {
    let header = Header {
        task: "ringbuffer".to_string(),
        constants: serde_json::json!({ "Capacity": CAPACITY }),
        seed,
        scheduler,
        source_path: "tasks/ringbuffer/src/lib.rs".to_string(),
        source_text: include_str!("lib.rs"),
        bug: None,
    };
    let rec = Recorder::new(&header, RingState::default());
    let r = rec.clone();
    run_once(scheduler, seed, move || {
        let (mut prod, mut cons) = RingBuffer::<u32>::with_probe(CAPACITY, Probe::on(&r)).split();
        let p = spawn_named("producer", move || {
            let mut next = 1u32;
            let mut pushed = 0;
            for n in PRODUCER {
                let items: Vec<u32> = (next..next + n as u32).collect();
                let ok = if n == 1 { prod.push(items[0]) } else { prod.push_slice(&items) };
                if ok.is_some() {
                    next += n as u32;
                    pushed += n;
                }
            }
            pushed
        });
        let c = spawn_named("consumer", move || {
            let mut expect = 1u32;
            let mut popped = 0;
            for n in CONSUMER {
                let mut items = vec![0u32; n];
                let ok = if n == 1 { cons.pop().map(|x| items[0] = x) } else { cons.pop_slice(&mut items) };
                if ok.is_some() {
                    for x in items {
                        assert_eq!(x, expect, "items out of order");
                        expect += 1;
                    }
                    popped += n;
                }
            }
            popped
        });
        let pushed = p.join().unwrap();
        let popped = c.join().unwrap();
        let s = r.state();
        assert_eq!((s.tail, s.head), (pushed, popped), "shadow counters");
    });
    rec.text()
}

/// All traces of the task (`traces/ringbuffer`).
pub fn traces() -> Vec<TraceFile> {
    schedules(12)
        .into_iter()
        .map(|(sched, seed)| TraceFile { dir: "ringbuffer".into(), name: trace_name(sched, seed), text: run(sched, seed) })
        .collect()
}
