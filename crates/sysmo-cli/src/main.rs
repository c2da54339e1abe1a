//! The `sysmo` command: `parse`, `check`, `simulate`, `replay`, `grade`, `tasks`, `prompt`,
//! `agent`.
//!
//! This is a front end: it reads files, the clock and the terminal (and, for `agent`, talks to
//! an LLM over HTTP), and leaves all analysis to the library crates, which do no I/O.

// Unsafe code only for the allocator (mimalloc) and to make values' counts atomic before
// workers start (`check::explore_tla`).
#![deny(unsafe_code)]

mod agent;
mod args;
mod exercise;
mod grade;
mod results;
mod tasks;
mod task_check;
mod parse;
mod prompt;
mod replay;
mod check;
mod itf;
mod simulate;
mod host;

use std::process::ExitCode;

/// The checker allocates and frees many small values per state; mimalloc does that several
/// times faster than the system allocator, and with several workers a value is often freed by
/// another thread than the one that made it (glibc's malloc spent about 10% of a 2-worker run
/// consolidating its arenas). Requests whose alignment mimalloc's ordinary blocks
/// already satisfy (at most 16, and at most the size, as std's own allocator assumes) take its
/// fast path; others its aligned one.
struct Mi;

const MI_MIN_ALIGN: usize = 16;

#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for Mi {
    #[inline]
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        // SAFETY: mimalloc's C functions; `l` is a valid layout of non-zero size.
        unsafe {
            if l.align() <= MI_MIN_ALIGN && l.align() <= l.size() {
                libmimalloc_sys::mi_malloc(l.size()) as *mut u8
            } else {
                libmimalloc_sys::mi_malloc_aligned(l.size(), l.align()) as *mut u8
            }
        }
    }
    #[inline]
    unsafe fn alloc_zeroed(&self, l: std::alloc::Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if l.align() <= MI_MIN_ALIGN && l.align() <= l.size() {
                libmimalloc_sys::mi_zalloc(l.size()) as *mut u8
            } else {
                libmimalloc_sys::mi_zalloc_aligned(l.size(), l.align()) as *mut u8
            }
        }
    }
    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, _l: std::alloc::Layout) {
        // SAFETY: `p` was returned by this allocator.
        unsafe { libmimalloc_sys::mi_free(p as *mut std::ffi::c_void) }
    }
    #[inline]
    unsafe fn realloc(&self, p: *mut u8, l: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `p` was returned by this allocator with layout `l`.
        unsafe {
            if l.align() <= MI_MIN_ALIGN && l.align() <= new_size {
                libmimalloc_sys::mi_realloc(p as *mut std::ffi::c_void, new_size) as *mut u8
            } else {
                libmimalloc_sys::mi_realloc_aligned(p as *mut std::ffi::c_void, new_size, l.align()) as *mut u8
            }
        }
    }
}

#[global_allocator]
static GLOBAL: Mi = Mi;

/// Exit status when the input has errors (distinct from usage and I/O errors, which exit 2).
pub const EXIT_INPUT_ERRORS: u8 = 150;
/// Exit status for bad command lines and unreadable files.
pub const EXIT_USAGE: u8 = 2;

const USAGE: &str = "\
sysmo — TLA+ modeling playground

Usage:
  sysmo parse FILE.tla... [--json] [--timing]
      Parse and check TLA+ modules at SANY's level. Modules a file EXTENDS or INSTANCEs are
      read from <Name>.tla beside it. Exits 0 when clean, 150 when there are errors.
      --json     print one JSON object per file (one per line) on stdout
      --timing   print the in-process parse+check time on stderr

  sysmo check SPEC.tla [--config C.cfg] [--max-states N] [--max-depth N] [--workers N]
              [--safety-only] [--json]
      Model-check a spec with its .cfg (default: SPEC.cfg beside it), as TLC does: ASSUME,
      invariants, deadlock, action properties, then temporal properties under fairness, on
      the state graph of the same run, then the .cfg's POSTCONDITION with the run's figures
      (TLCGet(\"stats\")). --safety-only leaves the temporal properties out (the report lists
      them as unchecked). The library modules' I/O operators (Json, CSV, IOUtils: IOExec,
      JsonSerialize, CSVWrite, ...) read and write this machine's files and run its programs,
      as TLC's Java does; `sysmo grade` and the web app never do.
      Prints TLC's summary and the counterexample; --json prints one object with result,
      distinct_states, states_generated, depth, counterexample (ITF JSON), coverage.
      Exit codes as TLC: 0 no error (also when a --max-* budget stopped the run), 10 assumption,
      11 deadlock, 12 safety, 13 liveness, 14 assertion, 75 evaluation error, 150 parse error,
      151 configuration error.
      --workers N explores with N threads, each with its own evaluator; the answers (result,
      counts, depth, coverage, counterexample) are those of 1 worker (default 1). Temporal
      properties are checked on one worker's state graph: with them (and no --safety-only),
      the run explores with 1 worker and says so on stderr; so does a model that sets TLC's
      registers (TLCSet).

  sysmo simulate SPEC.tla [--config C.cfg] [--depth D] [--num N] [--seed S] [--json]
      N seeded random behaviours of at most D states (defaults: 1, 100, seed 0), as
      `tlc -simulate`; same seed, same behaviours. Same result kinds and exit codes as check.

  sysmo replay MODEL.tla [--config C.cfg] --trace T.ndjson... [--mapping M.json]
               [--mode windows|whole] [--max-states N] [--json]
      Does the model conform to the system's traces? windows: each pair of consecutive lines
      on its own (per-action verdicts, their mean, the window pass rate); whole: the states
      consistent with the trace from Init on. The first divergence is explained: line, action,
      candidate states, the first FALSE conjunct and the differing fields. Exit 0 all pass,
      1 a divergence or exhausted budget, 65 a malformed trace or mapping.

  sysmo grade --task ID MODEL.tla... [--config C.cfg] [--mapping M.json] [--json]
              [--feedback] [--time-limit SECS] [--csv FILE]
  sysmo grade DIR [--csv FILE]
      Grade models as SysMoBench does: syntax, runtime (exhaustive gate, seeded simulation
      coverage), conformance to the task's traces (per-action windows, whole traces) and the
      task's invariants, each 0..1, overall their mean; then precision: the model's steps from
      the states the code reaches against the system's own graph, and the combined mean of the
      five. Budgets and seeds come from the task, so scores are the same on every machine. MODEL.cfg and mapping.json beside a model are
      used when present (else the task's constants). One model: a stage table (--json: the
      report, schema sysmo-grade/2; --feedback: the repair text for the first stage short of
      1.0, to give back to the model's author, person or LLM). Several models, or DIR holding <task-id>/.../*.tla: one
      JSON report per line, in input order, graded one per core, then mean scores per task and
      stage as CSV on stderr (or in --csv FILE). --time-limit: wall-clock safety net per model
      (default 600 s; the report says when it fired). Exit 0 when grading ran, whatever the
      scores; 2 for usage errors.

  sysmo grade --results FILE... [--pack PACK.sysmo]... [--csv OUT]
      Grade again the results files students export from the web app (each task's best attempt
      per exercise): each model is graded, or judged on its exercise, here; one CSV row per
      attempt (file, task, exercise, hints used, the claimed and the graded overall score and
      verdict, whether the claim holds). Tasks of packs are found in the --pack files (packs or
      courses).

  sysmo tasks [--json]
      List the tasks built into sysmo (id, pinned module, traces, title).

  sysmo task check DIR|PACK.sysmo [--json]
      Validate a task folder (a built-in tasks/<id>, or one of your own) or a pack of one, or each
      task of a course (a folder with a course.toml, or its file): task.toml reads, the
      files a task needs are there, every trace line reads and every pinned action occurs in
      the traces, the reference model grades 1.0, the bug model (bug/<Module>.tla) violates a
      property of invariants.cfg (within [check] bug_max_states, with [check] bug_cfg when set). Each
      problem names its file and line. Exit 0 when there is none, 1 otherwise.

  sysmo task pack DIR [-o FILE.sysmo] [--link URL] [--json]
      Write a task folder as one file (default <id>.sysmo): its task.toml, invariants, reference
      and bug models, traces (of traces and bug_traces), the code it shows (a code/ folder, in
      any language, or the Rust crate its traces name) and its system graph, gzipped JSON with a
      content hash. Written only when task.toml, the files every task has and the traces check
      (run `sysmo task check` on the pack to grade its models). --link URL: also print URL with
      a fragment that carries the pack (#/pack/1/...), which opens it in the playground, when
      the pack is small enough for a link (96 KiB of fragment). A folder with a course.toml (title,
      description, tasks = [its task folders, in order]) is a course: every task it names, in one
      file (default <folder>.sysmo) that the playground opens whole. Exit 0 when written, 1 otherwise.

  sysmo exercise TASK ID ANSWER [--json]
      Judge an answer to the exercise ID of a task (a folder or a .sysmo pack; [[exercise]] in
      its task.toml): model / fix-model (the answer, a model, grades 1.0), find-bug (the answer
      models the buggy code: it conforms to the bug traces and the exercise's property refutes
      it), write-invariant (the answer's definitions hold on the reference model and every bug
      model violates the named property). Prints whether it is solved, why, and the teacher's
      hint for what fell short. Exit 0 when solved, 1 when not, 2 for usage errors.

  sysmo prompt --task ID [--no-hints]
      Print the text to give an LLM to model a task: the system and its code, what to model
      and what to leave out, the pinned names, the expected module and .cfg. --no-hints: no
      action list (the model chooses its actions); the traces' step names are listed and a
      third file is asked for, mapping.json, from those names to the model's actions.

  sysmo agent --task ID|all --endpoint URL --model M [--api openai|anthropic] [--rounds N]
              [--repeat R] [--out DIR] [--max-tokens N] [--no-hints | --mode hints|no-hints|both]
      Let an LLM model a task in a repair loop: round 1 sends the task's prompt; the answer's
      module (a ```tla block, or a bare ---- MODULE ... ====) and .cfg (a ```cfg block) are
      graded; while the score (combined, else overall) is below 1.0 and rounds remain (default
      3), the next turn of the same conversation gives back the repair text (or, for an answer
      without a usable module, the reason and the expected format). --api openai (default)
      posts to URL/chat/completions, anthropic to URL/messages; the key is SYSMO_API_KEY, else
      OPENAI_API_KEY or ANTHROPIC_API_KEY (none: no auth header, for local servers); 300 s per
      request. --max-tokens: per answer (anthropic's default 8192; openai's: not sent).
      Writes DIR/<task>/run-<r>/ (default DIR: agent-out; the run's folder is replaced):
      round-N/ with <module>.tla, <module>.cfg, report.json, feedback.txt, and transcript.json
      (the conversation); DIR/results.csv: a row per task, mode, run and round (task,mode,run,
      round,status,syntax,runtime,conformance,invariants,precision,overall,combined,error).
      Prints a line per round. --task all: every task, each --repeat R times (default 1).
      --no-hints: the prompt of `sysmo prompt --no-hints`; an answer must hold its mapping.json
      (a ```json block), which grades it, written beside it; runs go to DIR/<task>/no-hints/.
      --mode both: each task in both modes, one CSV.

  sysmo help       print this text
  sysmo --version  print the version
";

/// mimalloc hands memory that stayed free for a second back to the OS, which hands it back
/// zeroed when it is asked for again: an exploration frees and allocates values at every state
/// (LamportMutex: 1,200-1,700 page faults and 0.22-0.36 s of system time; 221 faults and
/// 0.12-0.23 s without). Keeping freed memory costs about 12 MiB more at the peak there.
#[allow(unsafe_code)]
fn keep_freed_memory() {
    unsafe extern "C" {
        fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    // `mi_option_purge_delay` in the mimalloc of libmimalloc-sys 0.1.49 (not exported by its
    // bindings); set only where it reads as its default, 1000 ms, so that another version or a
    // MIMALLOC_PURGE_DELAY in the environment is left alone.
    const PURGE_DELAY: std::ffi::c_int = 15;
    // SAFETY: mimalloc's C functions, linked by libmimalloc-sys; options may be set at any time.
    unsafe {
        if mi_option_get(PURGE_DELAY) == 1000 {
            mi_option_set(PURGE_DELAY, -1);
        }
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = argv.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(EXIT_USAGE);
    };
    if matches!(cmd.as_str(), "check" | "simulate") {
        // SAFETY: one thread touches values in these commands, but for `check --workers N`,
        // which makes counts atomic again before it starts its workers (`explore_tla`).
        #[allow(unsafe_code)]
        unsafe {
            tla_eval::single_thread(true)
        };
        keep_freed_memory();
    }
    match cmd.as_str() {
        "parse" => match args::ParseArgs::from_args(rest) {
            Ok(a) => parse::run(&a),
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "check" => match check::CheckArgs::from_args(rest) {
            Ok(a) => check::run(&a),
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "simulate" => match simulate::SimulateArgs::from_args(rest) {
            Ok(a) => simulate::run(&a),
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "replay" => match replay::ReplayArgs::from_args(rest) {
            Ok(a) => replay::run(&a),
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "grade" if rest.iter().any(|a| a == "--results") => match results::run(rest) {
            Ok(code) => code,
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "grade" => match grade::GradeArgs::from_args(rest) {
            Ok(a) => grade::run(&a),
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "task" => match rest.split_first() {
            Some((sub, more)) if sub == "check" => match task_check::run(more) {
                Ok(code) => code,
                Err(msg) => {
                    eprintln!("error: {msg}\n\n{USAGE}");
                    ExitCode::from(EXIT_USAGE)
                }
            },
            Some((sub, more)) if sub == "pack" => match task_check::run_pack(more) {
                Ok(code) => code,
                Err(msg) => {
                    eprintln!("error: {msg}\n\n{USAGE}");
                    ExitCode::from(EXIT_USAGE)
                }
            },
            _ => {
                eprintln!("error: `sysmo task` takes a subcommand: check, pack\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "exercise" => match exercise::run(rest) {
            Ok(code) => code,
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "tasks" => match tasks::run(rest) {
            Ok(code) => code,
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "prompt" => match prompt::PromptArgs::from_args(rest) {
            Ok(a) => prompt::run(&a),
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "agent" => match agent::AgentArgs::from_args(rest) {
            Ok(a) => agent::run(&a),
            Err(msg) => {
                eprintln!("error: {msg}\n\n{USAGE}");
                ExitCode::from(EXIT_USAGE)
            }
        },
        "help" | "-h" | "--help" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        "-V" | "--version" => {
            println!("sysmo {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("error: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
