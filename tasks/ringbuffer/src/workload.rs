//! The runs that produce the ring buffer's traces (capacity 4): the producer pushes the numbers
//! 1, 2, 3, ... one by one and in slices of 2, 3 and 5 (5 never fits); the consumer pops one by
//! one and in slices of 2, 3 and 5, and checks that it receives the numbers in order.

use crate::{RingBuffer, RingState};
use task_probe::rt::spawn_named;
use task_probe::{FirstDone, Rng, Header, Probe, Recorder, Scheduler, TraceFile, run_once, schedules, trace_name};

pub const CAPACITY: usize = 4;

/// Slice lengths tried in turn (1 means `push`/`pop`).
const PRODUCER: [usize; 10] = [1, 1, 3, 1, 2, 5, 1, 1, 3, 2];
const CONSUMER: [usize; 10] = [1, 2, 1, 1, 5, 3, 1, 2, 1, 1];

/// Runs the workload once and returns the trace text.
pub fn run(scheduler: Scheduler, seed: u64) -> String {
    run_plans(scheduler, seed, PRODUCER.iter().map(|&n| (n, n > 1)).collect(), CONSUMER.iter().map(|&n| (n, n > 1)).collect(), &FirstDone::new())
}

/// Calls per thread in a run of the system graph.
const GRAPH_CALLS: usize = 8;

/// Run `k` of the system graph: the producer and the consumer each make [`GRAPH_CALLS`] calls
/// drawn at random (`push`/`pop`, or a slice of 1 to capacity + 1 items), with a scheduling
/// point after every step (`task_probe::with_step_yields`).
pub fn graph_run(scheduler: Scheduler, seed: u64) -> String {
    let mut draw = Rng::new(seed);
    let mut plan = || -> Vec<(usize, bool)> {
        (0..GRAPH_CALLS)
            .map(|_| match draw.below(CAPACITY as u64 + 2) {
                0 => (1, false),
                n => (n as usize, true),
            })
            .collect()
    };
    let (p, c) = (plan(), plan());
    let done = FirstDone::new();
    done.cut(&task_probe::with_step_yields(|| run_plans(scheduler, seed, p, c, &done)))
}

/// A run whose producer and consumer make the calls of their plans in turn: (items, as a
/// slice call) — `(1, false)` is `push` or `pop`.
fn run_plans(scheduler: Scheduler, seed: u64, producer: Vec<(usize, bool)>, consumer: Vec<(usize, bool)>, done: &FirstDone) -> String {
    let done = done.clone();
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
        let producer = producer.clone();
        let consumer = consumer.clone();
        let (done_p, rec_p) = (done.clone(), r.clone());
        let (done_c, rec_c) = (done.clone(), r.clone());
        let p = spawn_named("producer", move || {
            let mut next = 1u32;
            let mut pushed = 0;
            for (n, slice) in producer {
                let items: Vec<u32> = (next..next + n as u32).collect();
                let ok = if !slice { prod.push(items[0]) } else { prod.push_slice(&items) };
                if ok.is_some() {
                    next += n as u32;
                    pushed += n;
                }
            }
            done_p.done(&rec_p);
            pushed
        });
        let c = spawn_named("consumer", move || {
            let mut expect = 1u32;
            let mut popped = 0;
            for (n, slice) in consumer {
                let mut items = vec![0u32; n];
                let ok = if !slice { cons.pop().map(|x| items[0] = x) } else { cons.pop_slice(&mut items) };
                if ok.is_some() {
                    for x in items {
                        assert_eq!(x, expect, "items out of order");
                        expect += 1;
                    }
                    popped += n;
                }
            }
            done_c.done(&rec_c);
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
