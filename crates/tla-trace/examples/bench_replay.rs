//! Benchmark (not a test): a 1,000-line trace of a three-thread lock replayed in both modes.
//! `cargo run --release -p tla-trace --example bench_replay`

use std::time::Instant;
use tla_check::load::Inputs;
use tla_sema::Library;
use tla_trace::testing::{lock_trace, HeldAs};
use tla_trace::{parse_trace, Mapping, MappingExprs, Mode, Options, Replayer};

const LOCK: &str = r#"---- MODULE lock ----
EXTENDS Naturals
CONSTANT Threads
VARIABLES held, pc
Init == held = FALSE /\ pc = [t \in Threads |-> "idle"]
Request(t) == pc[t] = "idle" /\ pc' = [pc EXCEPT ![t] = "waiting"] /\ UNCHANGED held
Acquire(t) == pc[t] = "waiting" /\ ~held /\ held' = TRUE /\ pc' = [pc EXCEPT ![t] = "cs"]
Release(t) == pc[t] = "cs" /\ held' = FALSE /\ pc' = [pc EXCEPT ![t] = "idle"]
Next == \E t \in Threads : Request(t) \/ Acquire(t) \/ Release(t)
Spec == Init /\ [][Next]_<<held, pc>>
====
"#;

fn main() {
    let mt = Inputs::read("lock.tla", LOCK, &Library::new(), "lock.cfg", "SPECIFICATION Spec\nCONSTANT Threads = {0, 1, 2}\n").map_err(|(f, _)| f).expect("model");
    let mut m = mt.model().expect("load");
    let interner = m.interner();
    let mapping = Mapping::identity();
    let exprs = MappingExprs::empty();
    let text = lock_trace(3, 998, 42, HeldAs::Bool);
    let trace = parse_trace("lock.ndjson", &text).expect("trace");
    println!("trace: {} lines", trace.line_count());
    for mode in [Mode::Windows, Mode::Whole] {
        let r = Replayer::new(&m, interner.clone(), &mapping, &exprs, Some(&mt.sources), Options { mode, max_states: 100_000 });
        let start = Instant::now();
        let rep = r.replay(&trace).expect("replay");
        let secs = start.elapsed().as_secs_f64();
        println!("{:8} {} ({}/{} windows) in {:.3} s", mode.as_str(), rep.result, rep.windows_passed, rep.windows, secs);
        assert_eq!(rep.result, "pass");
    }
}
