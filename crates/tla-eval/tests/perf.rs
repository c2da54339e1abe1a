//! Timings for the report, not assertions about speed: `cargo test --release -p tla-eval
//! --test perf -- --ignored --nocapture`. Each also checks its result, so it cannot pass
//! while computing the wrong thing.

use std::time::Instant;

use tla_eval::{ConstEval, Interner, Value};
use tla_syntax::{parse_file, FileId};

#[test]
#[ignore]
fn fingerprint_rate() {
    let mut t = Interner::new();
    let idle = Value::Str(t.intern("idle"));
    let pc = Value::fcn((1..=5).map(|p| (Value::Int(p), idle.clone())).collect()).unwrap();
    let q = Value::tuple(vec![Value::Int(1), Value::Int(2), Value::Int(3)]).unwrap();
    let state = Value::record(vec![(t.intern("pc"), pc), (t.intern("q"), q), (t.intern("s"), Value::interval(1, 10).canonical().unwrap())]).unwrap();
    let n = 1_000_000;
    let start = Instant::now();
    let mut acc = 0u64;
    for _ in 0..n {
        acc ^= state.fingerprint().unwrap();
    }
    let el = start.elapsed();
    assert_eq!(acc, 0, "an even number of equal fingerprints xors to 0");
    eprintln!("fingerprint of a 3-field record state: {:.0} ns each", el.as_nanos() as f64 / n as f64);
}

#[test]
#[ignore]
fn sorted_functions_count() {
    // TLC 2.15 gives 220 (same spec, ASSUME PrintT).
    let text = "---- MODULE P ----\nEXTENDS Naturals, FiniteSets\nX == Cardinality({f \\in [1..9 -> 1..4] : \\A i \\in 1..8 : f[i] <= f[i+1]})\n====\n";
    let out = parse_file(FileId(0), text);
    let ev = ConstEval::new(&out.modules);
    let start = Instant::now();
    let v = ev.eval_def("X").unwrap();
    eprintln!("{} in {:?} (262144 functions filtered)", v, start.elapsed());
    assert_eq!(v, Value::Int(220));
}
