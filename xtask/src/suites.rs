//! `cargo xtask test`: every test suite, each reported as passed or failed, a time table, and a
//! final line `N passed, M failed` counting suites. Exits non-zero when any suite fails.
//!
//! How the run keeps both cores busy:
//! 1. One native build: `cargo test --workspace --no-run` builds every test binary and `sysmo`
//!    (the engine optimised, debug assertions on: see the workspace's Cargo.toml). The corpus
//!    harness uses that same `sysmo`.
//! 2. Then two streams side by side:
//!    - the jobs: every test of every test binary, each its own process, and every corpus
//!      model (the largest before the tests), taken by two workers from one queue (so a long
//!      test never leaves a core idle while short ones wait);
//!    - the web: the wasm tests (build and run in node), the app built with Trunk as
//!      `cargo xtask serve` builds it (from the wasm tests' compiled crates), and the browser
//!      tests in Chromium.
//!
//! Each suite's whole output goes to `target/xtask/logs/<suite>.log`; the console gets one line
//! per slow or failed job (a failure with its output), each suite's verdict, and at the end
//! the time table: each suite's wall time and the slowest jobs.

use crate::corpus;
use crate::runner::{duration_text, run_jobs, run_process, Done, Finished, Job};
use crate::serve::{build_web, serve_forever, WebBuild};
use crate::tools::{self, Need, Toolbox, CHROMEDRIVER, CHROMIUM, MIRI_TOOLCHAIN};
use crate::util::{cargo, first_cause};
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The whole run should end within this; past it the summary warns (it does not fail).
pub const BUDGET: Duration = Duration::from_secs(25 * 60);
/// One test process, wasm test run or browser script may run this long before it counts as hung.
const JOB_LIMIT: Duration = Duration::from_secs(15 * 60);
/// A job at least this slow gets a line on the console as it ends.
const SLOW: f64 = 20.0;
/// Workers taking jobs: the machines this runs on have two cores.
const WORKERS: usize = 2;
/// A corpus model of at least this many states generated (by TLC) is queued before the tests.
const LARGE_MODEL: u64 = 2_000_000;

/// Passed tests counted in a test runner's output ("test result: ok. 3 passed; 0 failed" from
/// libtest and wasm-bindgen-test, "N passed" from our browser tests). None when no count is printed.
pub fn count_passed(output: &str) -> Option<(u64, u64)> {
    let mut passed = None::<u64>;
    let mut failed = 0u64;
    for line in output.lines() {
        let words: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == ';' || c == ',' || c == '.').collect();
        for w in words.windows(2) {
            if let Ok(n) = w[0].parse::<u64>() {
                match w[1] {
                    "passed" => *passed.get_or_insert(0) += n,
                    "failed" => failed += n,
                    _ => {}
                }
            }
        }
    }
    passed.map(|p| (p, failed))
}

/// Tests counted as ignored in libtest's summary line.
fn count_ignored(output: &str) -> u64 {
    output
        .lines()
        .filter(|l| l.starts_with("test result:"))
        .filter_map(|l| l.split(';').find_map(|part| part.trim().strip_suffix(" ignored")?.trim().parse::<u64>().ok()))
        .sum()
}

/// A test binary that `cargo test --no-run` built.
#[derive(Clone, Debug, PartialEq)]
pub struct TestBinary {
    /// `tla-check/plans` for tests/plans.rs, `tla-eval/lib` for the library's unit tests.
    pub label: String,
    pub executable: PathBuf,
    /// The package's folder: cargo runs a test binary there, and so do we.
    pub package_dir: PathBuf,
    pub package: String,
}

/// What the native build gives: the test binaries and the `sysmo` they test.
pub struct NativeBuild {
    pub tests: Vec<TestBinary>,
    pub sysmo: Option<PathBuf>,
}

/// Reads one `--message-format=json` line of cargo: a test binary, or the `sysmo` executable.
pub fn artifact_of(line: &str) -> Option<Result<TestBinary, PathBuf>> {
    let v: Value = serde_json::from_str(line).ok()?;
    if v.get("reason")?.as_str()? != "compiler-artifact" {
        return None;
    }
    let exe = PathBuf::from(v.get("executable")?.as_str()?);
    let target = v.get("target")?;
    let name = target.get("name")?.as_str()?;
    let kinds: Vec<&str> = target.get("kind")?.as_array()?.iter().filter_map(Value::as_str).collect();
    let is_test = v.get("profile").and_then(|p| p.get("test")).and_then(Value::as_bool) == Some(true);
    if !is_test {
        return (kinds == ["bin"] && name == "sysmo").then_some(Err(exe));
    }
    let manifest = PathBuf::from(v.get("manifest_path")?.as_str()?);
    let package_dir = manifest.parent()?.to_path_buf();
    let package = package_dir.file_name()?.to_string_lossy().into_owned();
    let package = if manifest.parent()?.parent()?.ends_with("tasks") { format!("tasks/{package}") } else { package };
    let label = match kinds.first().copied() {
        Some("lib") => format!("{package}/lib"),
        Some("bin") => format!("{package}/bin {name}"),
        _ => format!("{package}/{name}"),
    };
    Some(Ok(TestBinary { label, executable: exe, package_dir, package }))
}

/// `cargo build -p sysmo-cli`: the `sysmo` executable, for a run without the native build.
fn build_sysmo(root: &Path) -> Result<PathBuf, String> {
    let out = Command::new(cargo())
        .current_dir(root)
        .args(["build", "-p", "sysmo-cli", "--message-format=json-render-diagnostics"])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err("`cargo build -p sysmo-cli` failed (see the compiler's messages above)".into());
    }
    String::from_utf8_lossy(&out.stdout).lines().filter_map(artifact_of).find_map(Result::err).ok_or_else(|| "cargo built no `sysmo`".to_string())
}

/// `cargo test --workspace --no-run`: builds every test binary (cargo's own lines on the
/// console) and lists them.
fn build_native(root: &Path) -> Result<NativeBuild, String> {
    let mut child = Command::new(cargo())
        .current_dir(root)
        .args(["test", "--workspace", "--no-run", "--message-format=json-render-diagnostics"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut tests = vec![];
    let mut sysmo = None;
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        match artifact_of(&line) {
            Some(Ok(t)) => tests.push(t),
            Some(Err(exe)) => sysmo = Some(exe),
            None => {}
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("`cargo test --workspace --no-run` failed (see the compiler's messages above)".into());
    }
    tests.sort_by(|a, b| a.label.cmp(&b.label));
    Ok(NativeBuild { tests, sysmo })
}

/// The tests of a test binary (`--list --format terse`: `name: test` lines).
fn list_tests(bin: &TestBinary) -> Result<Vec<String>, String> {
    let out = Command::new(&bin.executable)
        .args(["--list", "--format", "terse"])
        .current_dir(&bin.package_dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", bin.label))?;
    if !out.status.success() {
        return Err(format!("{}: --list failed: {}", bin.label, String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.strip_suffix(": test")).map(str::to_string).collect())
}

/// One job per test: the binary run with `--exact NAME` in its package's folder, as cargo runs it.
fn test_jobs(bins: &[TestBinary]) -> Result<Vec<Job>, String> {
    let mut jobs = vec![];
    for bin in bins {
        for test in list_tests(bin)? {
            let bin = bin.clone();
            let name = format!("{} {test}", bin.label);
            jobs.push(Job {
                suite: "workspace",
                name,
                work: Box::new(move || {
                    let mut cmd = Command::new(&bin.executable);
                    cmd.args(["--exact", &test, "--test-threads", "1"])
                        .current_dir(&bin.package_dir)
                        .env("CARGO_MANIFEST_DIR", &bin.package_dir)
                        .env("CARGO_PKG_NAME", &bin.package);
                    match run_process(&mut cmd, JOB_LIMIT) {
                        Err(e) => Done { ok: false, line: e, output: String::new() },
                        Ok(end) => {
                            let output = end.output();
                            let (passed, failed) = count_passed(&output).unwrap_or((0, 0));
                            let ignored = count_ignored(&output);
                            let ok = end.success() && failed == 0 && passed + ignored == 1;
                            let line = if end.timed_out {
                                format!("timed out after {}", duration_text(JOB_LIMIT.as_secs_f64()))
                            } else if ok {
                                (if ignored == 1 { "ignored" } else { "passed" }).to_string()
                            } else {
                                format!("exit {:?}: {}", end.code, first_cause(&output))
                            };
                            Done { ok, line, output }
                        }
                    }
                }),
            });
        }
    }
    Ok(jobs)
}

/// The unsafe module's tests (`tla_eval::shared`: values' reference counts, prefetching) under
/// Miri, which reports undefined behaviour and data races. Miri builds in `target/miri`, beside
/// the other builds.
fn miri_job(root: &Path) -> Job {
    let root = root.to_path_buf();
    Job {
        suite: "miri",
        name: "tla-eval shared:: under Miri".into(),
        work: Box::new(move || {
            let mut cmd = Command::new("rustup");
            cmd.args(["run", MIRI_TOOLCHAIN, "cargo", "miri", "test", "-p", "tla-eval", "--lib", "shared::"])
                .current_dir(&root)
                // The stable toolchain that runs xtask must not leak into nightly's cargo.
                .env_remove("CARGO")
                .env_remove("RUSTC")
                .env_remove("RUSTDOC")
                .env_remove("RUSTUP_TOOLCHAIN");
            match run_process(&mut cmd, JOB_LIMIT) {
                Err(e) => Done { ok: false, line: e, output: String::new() },
                Ok(end) => {
                    let output = end.output();
                    match count_passed(&output) {
                        Some((p, 0)) if end.success() && p > 0 => Done { ok: true, line: format!("{p} tests passed under Miri"), output },
                        other => Done { ok: false, line: format!("{other:?} (exit {:?}): {}", end.code, first_cause(&output)), output },
                    }
                }
            }
        }),
    }
}

/// Wall times of the last run's jobs (`target/xtask/job-times.tsv`), to start the slowest first.
/// A clean clone has none, and runs the jobs in the order they were listed.
struct History(HashMap<String, f64>);

impl History {
    fn path(root: &Path) -> PathBuf {
        root.join("target/xtask/job-times.tsv")
    }
    fn load(root: &Path) -> History {
        let text = std::fs::read_to_string(Self::path(root)).unwrap_or_default();
        History(
            text.lines()
                .filter_map(|l| {
                    let (secs, name) = l.split_once('\t')?;
                    Some((name.to_string(), secs.parse().ok()?))
                })
                .collect(),
        )
    }
    /// Slowest first; jobs never timed keep their order, after those slower than a second.
    /// Without a history, the order is left as it is.
    fn order(&self, jobs: &mut [Job]) {
        if self.0.is_empty() {
            return;
        }
        let secs = |j: &Job| self.0.get(&j.name).copied().unwrap_or(1.0);
        jobs.sort_by(|a, b| secs(b).total_cmp(&secs(a)));
    }
    fn save(root: &Path, finished: &[&Finished]) {
        let text: String = finished.iter().map(|f| format!("{:.3}\t{}\n", f.secs, f.name)).collect();
        let _ = std::fs::create_dir_all(root.join("target/xtask"));
        let _ = std::fs::write(Self::path(root), text);
    }
}

/// Records a step of the web stream (a build, a script) for the time table.
fn record(jobs: &Mutex<Vec<Finished>>, suite: &'static str, name: String, ok: bool, line: String, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    let done = Done { ok, line, output: String::new() };
    jobs.lock().unwrap_or_else(|e| e.into_inner()).push(Finished { suite, name, done, started, secs });
}

/// A suite's verdict: Ok(what it counted) or Err(what failed), with its wall time.
struct SuiteResult {
    name: &'static str,
    verdict: Result<String, String>,
    secs: f64,
}

fn log_dir(root: &Path) -> PathBuf {
    let d = root.join("target/xtask/logs");
    let _ = std::fs::create_dir_all(&d);
    d
}

/// Appends to a suite's log.
fn log(root: &Path, suite: &str, text: &str) {
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log_dir(root).join(format!("{suite}.log"))) {
        let _ = f.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = f.write_all(b"\n");
        }
    }
}

/// Prints lines to the console as one block, so that streams running side by side do not mix
/// their lines.
fn say(lines: &str) {
    let out = std::io::stdout();
    let mut out = out.lock();
    let _ = writeln!(out, "{}", lines.trim_end());
    let _ = out.flush();
}

/// The last `n` lines of a text.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(n);
    let mut s = String::new();
    if from > 0 {
        s.push_str(&format!("     ... ({from} lines above in the log)\n"));
    }
    for l in &lines[from..] {
        s.push_str("     ");
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// wasm-bindgen-test in node (the wasm32 runner is set in .cargo/config.toml). A runner that
/// finds no test prints "no tests to run!" and exits 0, so demand a positive count.
fn wasm_suite(root: &Path, tb: &Toolbox, jobs: &Mutex<Vec<Finished>>) -> Result<String, String> {
    let run = || {
        let started = Instant::now();
        let end = run_process(
            Command::new(cargo())
                .current_dir(root)
                .args(["test", "--target", "wasm32-unknown-unknown", "-p", "web", "--test", "wasm"])
                .env("PATH", &tb.path)
                .env("CHROMEDRIVER", CHROMEDRIVER),
            JOB_LIMIT,
        )?;
        log(root, "wasm", &end.output());
        Ok::<_, String>((end, started))
    };
    let (mut end, mut started) = run()?;
    if !end.success() && count_passed(&end.output()).is_none() {
        // Nothing ran: the build failed. Once more, so that a passing trouble of the machine
        // (a crashed compiler) does not fail the suite; the cause is shown.
        say(&format!("[xtask] the wasm test build failed ({}); trying once more", first_cause(&end.output())));
        (end, started) = run()?;
    }
    let output = end.output();
    let verdict = match count_passed(&output) {
        Some((p, 0)) if end.success() && p > 0 => Ok(format!("{p} wasm tests passed in node")),
        Some((p, f)) => Err(format!("{p} passed, {f} failed (exit {:?})\n{}", end.code, tail(&output, 60))),
        None => Err(format!("no wasm test ran: {}\n{}", first_cause(&output), tail(&output, 40))),
    };
    let line = match &verdict {
        Ok(s) => s.clone(),
        Err(e) => e.lines().next().unwrap_or("").to_string(),
    };
    record(jobs, "wasm", "web/wasm (build and run in node)".into(), verdict.is_ok(), line, started);
    verdict
}

/// Build the app with Trunk (the `dev` profile, as `cargo xtask serve` builds it: after the wasm
/// tests it compiles only the app's two binaries), serve it on a free port of 127.0.0.1 and run
/// every web/tests/*.mjs with node and playwright-core against the system Chromium.
fn browser_suite(root: &Path, tb: &Toolbox, jobs: &Mutex<Vec<Finished>>, sysmo: Option<&Path>) -> Result<String, String> {
    let started = Instant::now();
    // The CLI, for the tests that check what the page writes with it (a results file graded
    // again): the native build's, else built here.
    let sysmo = match sysmo {
        Some(p) => p.to_path_buf(),
        None => build_sysmo(root)?,
    };
    let built = build_web(root, &tb.path, WebBuild::Quick, Some(&log_dir(root).join("browser.log")));
    let failure = built.as_ref().err().cloned().unwrap_or_default();
    record(jobs, "browser", "trunk build (app and worker)".into(), built.is_ok(), failure, started);
    say(&format!("[xtask] browser: the app built in {}", duration_text(started.elapsed().as_secs_f64())));
    let dist = built?;
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    std::thread::spawn(move || serve_forever(listener, dist));
    let mut scripts: Vec<_> = std::fs::read_dir(root.join("web/tests"))
        .map_err(|e| format!("web/tests: {e}"))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mjs"))
        .collect();
    scripts.sort();
    if scripts.is_empty() {
        return Err("no browser test in web/tests/*.mjs".into());
    }
    let (mut total, mut failures) = (0u64, vec![]);
    for script in &scripts {
        let name = script.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let profile = std::env::temp_dir().join(format!("sysmo-chromium-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let t = Instant::now();
        let end = run_process(
            Command::new("node")
                .arg(script)
                .current_dir(root.join("web"))
                .env("PATH", &tb.path)
                .env("SYSMO_URL", format!("http://127.0.0.1:{port}/"))
                .env("CHROMIUM", CHROMIUM)
                .env("USER_DATA_DIR", &profile)
                .env("SCREENSHOT_DIR", root.join("target/screenshots"))
                .env("SYSMO_BIN", &sysmo),
            JOB_LIMIT,
        );
        let _ = std::fs::remove_dir_all(&profile);
        let (ok, line, output) = match end {
            Err(e) => (false, e, String::new()),
            Ok(end) => {
                let output = end.output();
                match count_passed(&output) {
                    Some((p, 0)) if end.success() && p > 0 => {
                        total += p;
                        (true, format!("{p} checks passed"), output)
                    }
                    other => (false, format!("{other:?} (exit {:?}, timed out: {})", end.code, end.timed_out), output),
                }
            }
        };
        log(root, "browser", &format!("===== {name}\n{output}"));
        let secs = t.elapsed().as_secs_f64();
        if ok {
            say(&format!("[xtask] browser: {name}: {line} in {}", duration_text(secs)));
        } else {
            say(&format!("[xtask] browser: {name} FAILED: {line}\n{}", tail(&output, 60)));
            failures.push(format!("{name}: {line}"));
        }
        record(jobs, "browser", format!("web/tests/{name}"), ok, line, t);
    }
    if failures.is_empty() {
        Ok(format!("{total} browser checks passed"))
    } else {
        Err(failures.join("; "))
    }
}

/// Suites `cargo xtask test` runs, by short name; `cargo xtask test wasm browser` runs a subset.
pub const SUITES: [&str; 6] = ["workspace", "miri", "wasm", "browser", "corpus", "examples"];

pub fn test_command(root: &Path, only: &[String]) -> Result<bool, String> {
    if let Some(bad) = only.iter().find(|s| !SUITES.contains(&s.as_str())) {
        return Err(format!("unknown suite `{bad}`; suites: {}", SUITES.join(", ")));
    }
    let wanted = |s: &str| only.is_empty() || only.iter().any(|o| o == s);
    let started = Instant::now();
    let _ = std::fs::remove_dir_all(root.join("target/xtask/logs"));
    let mut results: Vec<SuiteResult> = vec![];
    // Every job that ran, for the time table (the web stream adds its own).
    let timed: Mutex<Vec<Finished>> = Mutex::new(vec![]);

    say("[xtask] ===== setup");
    let t = Instant::now();
    let toolbox = tools::ensure_all(root, Need { web: wanted("wasm") || wanted("browser"), browser: wanted("browser"), miri: wanted("miri"), tla_tools: false });
    results.push(SuiteResult {
        name: "setup",
        verdict: toolbox.as_ref().map(|_| "tools present".to_string()).map_err(Clone::clone),
        secs: t.elapsed().as_secs_f64(),
    });

    // The model folders checked against TLC's figures: the corpus, and the further examples.
    let mut model_dirs: Vec<(&'static str, std::path::PathBuf)> = vec![];
    for (suite, dir) in [("corpus", corpus::default_corpus_dir(root)), ("examples", root.join("../shared/examples"))] {
        if !wanted(suite) {
            continue;
        }
        if dir.join("index.tsv").exists() {
            model_dirs.push((suite, dir));
        } else {
            say(&format!("[xtask] no models at {}: {suite} suite not run", dir.display()));
        }
    }
    let run_corpus = !model_dirs.is_empty();

    // 1. The native build, shared by the workspace tests and the corpus.
    let mut native = None;
    if wanted("workspace") || run_corpus {
        say("[xtask] ===== native build: cargo test --workspace --no-run");
        let t = Instant::now();
        let built = build_native(root);
        let secs = t.elapsed().as_secs_f64();
        results.push(SuiteResult {
            name: "native build",
            verdict: built.as_ref().map(|b| format!("{} test binaries", b.tests.len())).map_err(Clone::clone),
            secs,
        });
        native = built.ok();
    }

    // 2. The web stream beside the jobs.
    let history = History::load(root);
    let sysmo_exe: Option<PathBuf> = native.as_ref().and_then(|n| n.sysmo.clone());
    let web_results: Mutex<Vec<SuiteResult>> = Mutex::new(vec![]);
    std::thread::scope(|s| {
        if wanted("wasm") || wanted("browser") {
            let (toolbox, web_results, timed) = (&toolbox, &web_results, &timed);
            s.spawn(move || {
                let push = |name: &'static str, f: &dyn Fn(&Toolbox) -> Result<String, String>| {
                    let t = Instant::now();
                    let verdict = match toolbox {
                        Ok(tb) => f(tb),
                        Err(_) => Err("not run: setup failed".into()),
                    };
                    let secs = t.elapsed().as_secs_f64();
                    say(&verdict_line(name, &verdict, secs));
                    web_results.lock().unwrap_or_else(|e| e.into_inner()).push(SuiteResult { name, verdict, secs });
                };
                if wanted("wasm") {
                    push("wasm", &|tb| wasm_suite(root, tb, timed));
                }
                if wanted("browser") {
                    push("browser", &|tb| browser_suite(root, tb, timed, sysmo_exe.as_deref()));
                }
            });
        }

        // The jobs: every test, then every corpus model, on two workers.
        let mut jobs = vec![];
        let mut listing_error = None;

        if wanted("workspace") {
            match &native {
                Some(b) => match test_jobs(&b.tests) {
                    Ok(j) => jobs.extend(j),
                    Err(e) => listing_error = Some(e),
                },
                None => listing_error = Some("not run: the native build failed".into()),
            }
        }
        let workspace_jobs = jobs.len();
        if wanted("miri") {
            jobs.insert(0, miri_job(root));
        }
        // The models of both folders, largest first.
        let mut corpus_setups: Vec<(&'static str, Result<corpus::Plan, String>, corpus::Rows)> = vec![];
        let mut model_jobs = vec![];
        for (suite, dir) in &model_dirs {
            let rows = corpus::Rows::default();
            let setup = match native.as_ref().and_then(|b| b.sysmo.clone()) {
                Some(sysmo) => corpus::plan(root, dir, &sysmo, true).inspect(|plan| model_jobs.extend(plan.sized_jobs(&rows))),
                None => Err("not run: `sysmo` was not built".into()),
            };
            corpus_setups.push((suite, setup, rows));
        }
        model_jobs.sort_by_key(|(size, _)| std::cmp::Reverse(*size));
        // With no timings of an earlier run (a clean clone), the largest models go first (each
        // is minutes on one worker: last in the queue, one would run alone at the end while the
        // other worker idles), then the tests, then the other models, largest first (see
        // corpus::Plan::jobs).
        let large = model_jobs.iter().take_while(|(size, _)| *size >= LARGE_MODEL).count();
        let mut models = model_jobs.into_iter().map(|(_, j)| j);
        let front: Vec<Job> = models.by_ref().take(large).collect();
        jobs.splice(0..0, front);
        jobs.extend(models);
        history.order(&mut jobs);
        if !jobs.is_empty() {
            say(&format!(
                "[xtask] ===== jobs: {}{workspace_jobs} tests{} on {WORKERS} workers (logs in target/xtask/logs/)",
                if wanted("miri") { "Miri, " } else { "" },
                if run_corpus { format!(" and the models of {}", model_dirs.iter().map(|(s, _)| *s).collect::<Vec<_>>().join(" and ")) } else { String::new() }
            ));
        }
        let done_count = std::sync::atomic::AtomicUsize::new(0);
        let total = jobs.len();
        let finished = run_jobs(jobs, WORKERS, &|f| {
            let n = done_count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            log(root, f.suite, &format!("===== {} ({}): {}\n{}", f.name, duration_text(f.secs), f.done.line, f.done.output));
            if !f.done.ok {
                say(&format!("[xtask] {} FAILED in {}: {}\n{}", f.name, duration_text(f.secs), f.done.line, tail(&f.done.output, 80)));
            } else if f.secs >= SLOW {
                say(&format!("[xtask] {} {} in {} ({n}/{total})", f.name, f.done.line, duration_text(f.secs)));
            } else if n.is_multiple_of(100) {
                say(&format!("[xtask] {n}/{total} jobs done"));
            }
        });
        let suite_wall = |suite: &str| {
            let mine: Vec<&Finished> = finished.iter().filter(|f| f.suite == suite).collect();
            let first = mine.iter().map(|f| f.started).min();
            let last = mine.iter().map(|f| f.started + Duration::from_secs_f64(f.secs)).max();
            match (first, last) {
                (Some(a), Some(b)) => b.duration_since(a).as_secs_f64(),
                _ => 0.0,
            }
        };
        if wanted("workspace") {
            let mine: Vec<&Finished> = finished.iter().filter(|f| f.suite == "workspace").collect();
            let failed: Vec<&&Finished> = mine.iter().filter(|f| !f.done.ok).collect();
            let ignored = mine.iter().filter(|f| f.done.ok && f.done.line == "ignored").count();
            let passed = mine.len() - failed.len() - ignored;
            let verdict = if let Some(e) = listing_error.take() {
                Err(e)
            } else if failed.is_empty() && passed > 0 {
                let bins = native.as_ref().map_or(0, |b| b.tests.len());
                Ok(format!("{passed} tests passed ({ignored} ignored) in {bins} test binaries"))
            } else {
                Err(format!(
                    "{passed} passed, {} failed: {}",
                    failed.len(),
                    failed.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
                ))
            };
            let secs = suite_wall("workspace");
            say(&verdict_line("workspace", &verdict, secs));
            results.push(SuiteResult { name: "workspace", verdict, secs });
        }
        if wanted("miri") {
            let verdict = match finished.iter().find(|f| f.suite == "miri") {
                Some(f) if f.done.ok => Ok(f.done.line.clone()),
                Some(f) => Err(f.done.line.clone()),
                None => Err("not run".into()),
            };
            let secs = suite_wall("miri");
            say(&verdict_line("miri", &verdict, secs));
            results.push(SuiteResult { name: "miri", verdict, secs });
        }
        for (suite, setup, rows) in corpus_setups {
            let verdict = setup.and_then(|plan| {
                let report = plan.report(&rows);
                log(root, suite, &report.table);
                say(&report.table);
                if report.failed == 0 {
                    Ok(format!("{} models match TLC", report.passed))
                } else {
                    Err(format!("{} models passed, {} failed", report.passed, report.failed))
                }
            });
            let secs = suite_wall(suite);
            say(&verdict_line(suite, &verdict, secs));
            results.push(SuiteResult { name: suite, verdict, secs });
        }
        timed.lock().unwrap_or_else(|e| e.into_inner()).extend(finished);
    });
    results.extend(web_results.into_inner().unwrap_or_else(|e| e.into_inner()));
    let timed = timed.into_inner().unwrap_or_else(|e| e.into_inner());
    History::save(root, &timed.iter().collect::<Vec<_>>());

    let total = started.elapsed();
    say(&summary_text(&results, &timed, total));
    let passed = results.iter().filter(|r| r.verdict.is_ok()).count();
    let failed = results.len() - passed;
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

fn verdict_line(name: &str, verdict: &Result<String, String>, secs: f64) -> String {
    match verdict {
        Ok(s) => format!("[xtask] suite {name}: PASSED ({s}) in {}", duration_text(secs)),
        Err(e) => format!("[xtask] suite {name}: FAILED ({e}) in {}", duration_text(secs)),
    }
}

/// The time table: each suite's verdict and wall time, the slowest ten jobs, the total, and a
/// warning when the run went over [`BUDGET`].
fn summary_text(results: &[SuiteResult], jobs: &[Finished], total: Duration) -> String {
    let mut s = String::new();
    s.push_str(&format!("\n{:<14} {:<7} {:>11}  detail\n", "suite", "result", "wall"));
    for r in results {
        let (verdict, detail) = match &r.verdict {
            Ok(d) => ("passed", d.as_str()),
            Err(e) => ("FAILED", e.lines().next().unwrap_or("")),
        };
        s.push_str(&format!("{:<14} {verdict:<7} {:>11}  {detail}\n", r.name, duration_text(r.secs)));
    }
    s.push_str("(after the native build, the miri, workspace and model jobs run beside the wasm and browser suites)\n");
    let mut slow: Vec<&Finished> = jobs.iter().collect();
    slow.sort_by(|a, b| b.secs.total_cmp(&a.secs));
    if !slow.is_empty() {
        s.push_str("\nslowest jobs:\n");
        for f in slow.iter().take(10) {
            s.push_str(&format!("  {:>11}  {:<9} {}\n", duration_text(f.secs), f.suite, f.name));
        }
        let cpu: f64 = jobs.iter().map(|f| f.secs).sum();
        s.push_str(&format!("  ({} jobs, {} of job time in all)\n", jobs.len(), duration_text(cpu)));
    }
    s.push_str(&format!("\ntotal {}\n", duration_text(total.as_secs_f64())));
    if total > BUDGET {
        s.push_str(&format!(
            "warning: this run took {}, over the {}-minute budget of the whole suite\n",
            duration_text(total.as_secs_f64()),
            BUDGET.as_secs() / 60
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_libtest_and_runner_lines() {
        let out = "running 3 tests\n...\ntest result: ok. 3 passed; 0 failed; 0 ignored\n\
                   test result: ok. 2 passed; 1 failed; 0 ignored\n";
        assert_eq!(count_passed(out), Some((5, 1)));
        assert_eq!(count_passed("no tests to run!\n"), None);
        assert_eq!(count_passed("browser: 4 passed, 0 failed\n"), Some((4, 0)));
        let ignored = "test result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; 9 filtered out; finished in 0.00s\n";
        assert_eq!(count_ignored(ignored), 1);
        assert_eq!(count_ignored(out), 0);
    }

    #[test]
    fn the_time_table_lists_the_slowest_jobs_and_warns_past_the_budget() {
        let suite = |name, verdict: Result<&str, &str>, secs| SuiteResult {
            name,
            verdict: verdict.map(str::to_string).map_err(str::to_string),
            secs,
        };
        let results = [suite("workspace", Ok("3 tests passed"), 70.0), suite("corpus", Err("1 failed\nmore"), 5.0)];
        let jobs: Vec<Finished> = (0..12)
            .map(|i| Finished {
                suite: "workspace",
                name: format!("t{i}"),
                done: Done { ok: true, line: String::new(), output: String::new() },
                started: Instant::now(),
                secs: i as f64,
            })
            .collect();
        let quick = summary_text(&results, &jobs, Duration::from_secs(400));
        assert!(quick.contains("workspace      passed   1 min 10 s  3 tests passed"), "{quick}");
        assert!(quick.contains("corpus         FAILED        5.0 s  1 failed\n"), "{quick}");
        let listed: Vec<&str> = quick.lines().filter(|l| l.starts_with("  ") && l.contains(" workspace ")).collect();
        assert_eq!(listed.len(), 10, "{quick}");
        assert!(listed[0].ends_with(" t11") && listed[9].ends_with(" t2"), "{quick}");
        assert!(quick.contains("total 6 min 40 s") && !quick.contains("warning"), "{quick}");
        let slow = summary_text(&results, &jobs, BUDGET + Duration::from_secs(1));
        assert!(slow.contains("warning: this run took 25 min 01 s, over the 25-minute budget"), "{slow}");
    }

    #[test]
    fn cargo_artifact_lines_give_test_binaries_and_sysmo() {
        let line = |kind: &str, name: &str, test: bool, manifest: &str, exe: &str| {
            serde_json::json!({
                "reason": "compiler-artifact",
                "manifest_path": manifest,
                "target": {"kind": [kind], "name": name},
                "profile": {"test": test},
                "executable": exe,
            })
            .to_string()
        };
        let plans = line("test", "plans", true, "/r/crates/tla-check/Cargo.toml", "/r/target/debug/deps/plans-1");
        assert_eq!(
            artifact_of(&plans),
            Some(Ok(TestBinary {
                label: "tla-check/plans".into(),
                executable: "/r/target/debug/deps/plans-1".into(),
                package_dir: "/r/crates/tla-check".into(),
                package: "tla-check".into(),
            }))
        );
        let unit = line("lib", "task_spin", true, "/r/tasks/spin/Cargo.toml", "/r/target/debug/deps/task_spin-2");
        assert_eq!(artifact_of(&unit).unwrap().unwrap().label, "tasks/spin/lib");
        let sysmo = line("bin", "sysmo", false, "/r/crates/sysmo-cli/Cargo.toml", "/r/target/debug/sysmo");
        assert_eq!(artifact_of(&sysmo), Some(Err(PathBuf::from("/r/target/debug/sysmo"))));
        let lib = line("lib", "tla_eval", false, "/r/crates/tla-eval/Cargo.toml", "");
        assert_eq!(artifact_of(&lib.replace("\"executable\":\"\"", "\"executable\":null")), None);
        assert_eq!(artifact_of("{\"reason\":\"build-finished\",\"success\":true}"), None);
        assert_eq!(artifact_of("not json"), None);
    }
}
