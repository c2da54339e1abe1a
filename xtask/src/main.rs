//! Project automation, run as `cargo xtask <command>` (an alias in .cargo/config.toml).
//!
//! - `serve`: install what is missing, build the web app with Trunk, serve it on 127.0.0.1:8080.
//! - `test`: install what is missing and run every test suite; prints `N passed, M failed`.
//! - `corpus [DIR]`: run `sysmo parse --json` on every model of a corpus (default
//!   `../shared/corpus`, relative to the repository root).
//! - `sany`: re-run SANY over `crates/tla-sema/tests/negative` and compare with its `SANY.tsv`.
//! - `fuzz-tlc`: random small specs checked by `sysmo` and by TLC, every disagreement kept.
//! - `bench parse`: time `sysmo parse` and SANY on a generated 20,000-line module.
//! - `bench check`: `sysmo check` against TLC on corpus models; writes target/bench/check.md.
//! - `bench grade`: time `sysmo grade` on a task's reference model (spin: target under 1 s).
//! - `bench web`: the web app's transfer size, time to a usable gallery, and the checker's
//!   throughput in the grading worker against native.
//! - `mutate --task ID|all`: mutants of a task's reference model (guards dropped or negated,
//!   assigned literals changed), each graded; which stage catches each, and which survivors are
//!   equivalent (the same state graph as the reference).
//! - `traces [--check]`: regenerate the task traces and system graphs.
//!
//! `mutate` and `traces` live in `xtask/engine` (the binary `xtask-engine`), which this one runs
//! through cargo: xtask itself depends on no crate of the engine and builds in seconds.

// Unsafe code only to read a child's resource usage (`bench_check::reap`).
#![deny(unsafe_code)]

mod bench;
mod bench_check;
mod bench_grade;
mod bench_web;
mod corpus;
mod fuzz_gen;
mod fuzz_tlc;
mod runner;
mod sany;
mod bench_module;
mod serve;
mod suites;
mod tools;
mod util;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

  serve            build the web app (release, offline) and serve it on http://127.0.0.1:8080
  test [SUITE...]  run every test suite, or only the named ones (workspace, miri, wasm, browser, corpus)
  corpus [DIR]     parse every model of a corpus (default ../shared/corpus)
  bench parse      time `sysmo parse` against SANY on a generated 20,000-line module
  bench check      sysmo check against TLC on corpus models (states/s, wall, peak memory;
                   --models A,B  --runs N each (3, taking turns; medians)  --timeout SECS per run
                   --workers N for both tools  --no-tlc)
  bench grade      time `sysmo grade` on a task's reference model (default spin; target < 1 s)
  bench web        the web app: transfer size of dist/ (raw, gzip), time to a usable gallery in
                   headless Chromium, checker states/s in the worker vs native (target >= 0.7x)
                   (--runs N loads, --check-runs N, --threads N for the rwmutex model,
                   --no-build to measure the last build's dist/)
  fuzz-tlc         random small specs through `sysmo check` and TLC, compared (--minutes N, default 10,
                   or --count N; --seed S; --workers N for sysmo); disagreements go to target/fuzz-tlc/findings/
  mutate --task ID|all [--json]
                   grade mutants of the task's reference model (guard-drop, guard-flip,
                   body-flip) and report which stage catches each; `all`: tasks with a system graph
  traces [--check] regenerate traces/<task>/*.ndjson from the task systems
  setup            only install missing tools
  sany             re-run SANY over the negative suite and compare with its SANY.tsv
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = util::repo_root();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve::serve_command(&root, &args[1..]),
        Some("test") => suites::test_command(&root, &args[1..]),
        Some("corpus") => corpus::corpus_command(&root, args.get(1).map(String::as_str)),
        Some("bench") => match args.get(1).map(String::as_str) {
            Some("parse") => bench::bench_parse(&root, &args[2..]),
            Some("check") => bench_check::bench_check(&root, &args[2..]),
            Some("grade") => bench_grade::bench_grade(&root, &args[2..]),
            Some("web") => bench_web::bench_web(&root, &args[2..]),
            _ => Err("usage: cargo xtask bench parse [--runs N] [--lines N] | bench check [--models A,B] [--runs N] [--timeout SECS] [--workers N] [--no-tlc] [DIR] | bench grade [--runs N] [--task ID] | bench web [--runs N] [--check-runs N] [--threads N] [--no-build]".to_string()),
        },
        Some("fuzz-tlc") => fuzz_tlc::fuzz_command(&root, &args[1..]),
        Some("mutate" | "traces") => util::run_engine_command(&root, &args),
        Some("sany") => sany::confirm_negative(&root).map(|(agreed, total)| agreed == total),
        Some("setup") => tools::ensure_all(&root, tools::Need::everything()).map(|_| true),
        Some("help" | "-h" | "--help") => {
            print!("{USAGE}");
            Ok(true)
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}
