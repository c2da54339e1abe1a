//! Time `parse_file` (lexing and parsing) on a `.tla` file:
//! `cargo run --release -p tla-syntax --example parse_time -- FILE [RUNS]`.
//! Prints the line count, the number of modules, units and diagnostics, and the best and
//! median wall-clock time over RUNS runs (default 10).
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: parse_time FILE.tla [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(10).max(1);
    let text = std::fs::read_to_string(&path).expect("readable file");
    let mut times = Vec::with_capacity(runs);
    let mut summary = (0, 0, 0);
    for _ in 0..runs {
        let t0 = Instant::now();
        let out = tla_syntax::parse_file(tla_syntax::FileId(0), &text);
        times.push(t0.elapsed());
        let units = out.modules.iter().map(|m| m.units.len()).sum::<usize>();
        summary = (out.modules.len(), units, out.diagnostics.len());
    }
    times.sort();
    println!(
        "{path}: {} lines, {} bytes; {} module(s), {} units, {} diagnostics",
        text.lines().count(),
        text.len(),
        summary.0,
        summary.1,
        summary.2
    );
    println!("parse_file: best {:.2?}, median {:.2?} over {runs} runs", times[0], times[runs / 2]);
}
