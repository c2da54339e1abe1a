//! `cargo xtask bench check [--models A,B,...] [--runs N] [--timeout SECS] [--workers N] [--no-tlc] [--baseline BIN] [DIR]`:
//! model-check the same corpus models with `sysmo check --workers N` (release build) and with TLC
//! (`-workers N`; N is 1 unless given), in the same run, each as a whole process; report distinct states, wall and CPU time, distinct states
//! per second, peak memory and the ratios. The table is printed and written to
//! target/bench/check.md.
//!
//! Each tool runs each model `--runs` times (3 unless given), the two tools taking turns, and
//! the table shows each tool's run of median wall time, with the fastest and slowest walls
//! beside it: the speed of this machine drifts over minutes, and taking turns exposes both
//! tools to the same drift.
//!
//! For a model with temporal properties, both tools also run it safety-only (ours with
//! `--safety-only`; TLC with a copy of the .cfg without the temporal properties, which are the
//! ones our safety-only run lists as unchecked), and a second table compares the cost of
//! liveness: full time over safety-only time, for each tool.
//!
//! `--baseline BIN` runs another `sysmo` binary (one built from an older commit, say) in the
//! same turns, and a third table compares our wall and CPU times with its, and says whether
//! both gave the same result and state count: a before-and-after measured on one machine state.
//!
//! Peak memory is the child's `ru_maxrss` as `wait4` reports it when the child is reaped (the
//! kernel's resident high-water mark of the whole process, JVM included). Each run has a
//! timeout (default 300 s) after which the child is killed, so a run always finishes.

use crate::corpus::{default_corpus_dir, Expected};
use crate::fuzz_tlc::read_tlc;
use crate::tools::{self, Need};
use crate::util::{build_release_sysmo, step};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DEFAULT_MODELS: &[&str] = &["LamportMutex", "SimpleRegular", "SlushSmall", "CoffeeCan1000"];
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// One whole-process run.
pub struct Run {
    pub wall: f64,
    /// User plus system CPU seconds of the child.
    pub cpu: f64,
    /// Peak resident set, KiB (`ru_maxrss`).
    pub peak_kib: u64,
    pub code: Option<i32>,
    pub stdout: String,
    pub timed_out: bool,
}

#[repr(C)]
#[derive(Default)]
struct Timeval {
    sec: i64,
    usec: i64,
}

/// `struct rusage` of 64-bit Linux: two timevals, then fourteen longs.
#[repr(C)]
#[derive(Default)]
struct Rusage {
    utime: Timeval,
    stime: Timeval,
    maxrss: i64,
    rest: [i64; 13],
}

#[allow(unsafe_code)]
unsafe extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

const WNOHANG: i32 = 1;

/// Reap `pid` (blocking or not); `Some((status, rusage))` once it has exited.
#[allow(unsafe_code)]
fn reap(pid: u32, block: bool) -> Result<Option<(i32, Rusage)>, String> {
    let mut status = 0i32;
    let mut ru = Rusage::default();
    // SAFETY: wait4 writes only into the two out-parameters, which live for the call.
    let r = unsafe { wait4(pid as i32, &mut status, if block { 0 } else { WNOHANG }, &mut ru) };
    match r {
        0 => Ok(None),
        r if r == pid as i32 => Ok(Some((status, ru))),
        _ => Err(format!("wait4({pid}): {}", std::io::Error::last_os_error())),
    }
}

/// Exit code from a wait status (None when a signal ended the process).
fn exit_code(status: i32) -> Option<i32> {
    if status & 0x7f == 0 { Some((status >> 8) & 0xff) } else { None }
}

/// Run `cmd` to completion or until `timeout`, measuring it as a whole process.
pub fn measure(cmd: &mut Command, timeout: Duration) -> Result<Run, String> {
    let t = Instant::now();
    let mut child =
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().map_err(|e| format!("{cmd:?}: {e}"))?;
    let pid = child.id();
    let mut out = child.stdout.take().ok_or("no stdout")?;
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let mut timed_out = false;
    let (status, ru) = loop {
        if let Some(done) = reap(pid, false)? {
            break done;
        }
        if t.elapsed() > timeout {
            // Not reaped yet, so the pid is still our child's.
            let _ = child.kill();
            timed_out = true;
            match reap(pid, true)? {
                Some(done) => break done,
                None => return Err(format!("wait4({pid}) returned without a status")),
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall = t.elapsed().as_secs_f64();
    let secs = |tv: &Timeval| tv.sec as f64 + tv.usec as f64 / 1e6;
    Ok(Run {
        wall,
        cpu: secs(&ru.utime) + secs(&ru.stime),
        peak_kib: ru.maxrss.max(0) as u64,
        code: exit_code(status),
        stdout: reader.join().unwrap_or_default(),
        timed_out,
    })
}

struct Side {
    run: Run,
    distinct: Option<u64>,
    result: String,
    /// The fastest and slowest wall times of the runs this one is the median of.
    spread: Option<(f64, f64)>,
}

/// The run of median wall time among `runs` (the slower of the two middle ones for an even
/// count), with the spread of their walls; None when there is none.
fn median_side(mut runs: Vec<Side>) -> Option<Side> {
    if runs.is_empty() {
        return None;
    }
    runs.sort_by(|a, b| a.run.wall.total_cmp(&b.run.wall));
    let spread = (runs[0].run.wall, runs[runs.len() - 1].run.wall);
    let n = runs.len();
    let mut m = runs.swap_remove(n / 2);
    if n > 1 {
        m.spread = Some(spread);
    }
    Some(m)
}

struct Row {
    model: String,
    expected: Option<u64>,
    ours: Option<Side>,
    tlc: Option<Side>,
    /// The `--baseline` binary's median run.
    baseline: Option<Side>,
    /// Safety-only runs of a model with temporal properties: the properties left out, ours, TLC's.
    safety: Option<(Vec<String>, Side, Option<Side>)>,
}

const CFG_KEYWORDS: &[&str] = &[
    "CONSTANT", "CONSTANTS", "INIT", "NEXT", "SPECIFICATION", "INVARIANT", "INVARIANTS", "PROPERTY",
    "PROPERTIES", "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "SYMMETRY",
    "VIEW", "CHECK_DEADLOCK", "ALIAS", "POSTCONDITION",
];

/// A .cfg text without the properties named in `drop` (a PROPERTY keyword left with no name
/// goes too). Lines that lose nothing are kept as they are.
pub fn cfg_without_properties(text: &str, drop: &[String]) -> String {
    // Words of every line (comments cut), with the section each word is in.
    let mut lines: Vec<(String, Vec<String>, bool)> = Vec::new();
    let mut in_prop = false;
    for line in text.lines() {
        let code = line.split("\\*").next().unwrap_or("");
        let mut kept = Vec::new();
        let mut touched = false;
        for w in code.split_whitespace() {
            if CFG_KEYWORDS.contains(&w) {
                in_prop = w.starts_with("PROPERT");
                kept.push(w.to_string());
            } else if in_prop && drop.iter().any(|d| d == w) {
                touched = true;
            } else {
                kept.push(w.to_string());
            }
        }
        lines.push((line.to_string(), kept, touched));
    }
    // A PROPERTY keyword directly followed by another keyword, or by nothing, names nothing.
    let words: Vec<(usize, usize)> =
        lines.iter().enumerate().flat_map(|(i, l)| (0..l.1.len()).map(move |k| (i, k))).collect();
    let mut empty = Vec::new();
    for (n, &(i, k)) in words.iter().enumerate() {
        if lines[i].1[k].starts_with("PROPERT") {
            let next = words.get(n + 1).map(|&(j, m)| lines[j].1[m].as_str());
            if next.is_none_or(|w| CFG_KEYWORDS.contains(&w)) {
                empty.push((i, k));
            }
        }
    }
    for &(i, k) in empty.iter().rev() {
        lines[i].1.remove(k);
        lines[i].2 = true;
    }
    let mut out = String::new();
    for (line, kept, touched) in lines {
        out += &if touched { kept.join(" ") } else { line };
        out.push('\n');
    }
    out
}

struct Opts {
    models: Vec<String>,
    dir: PathBuf,
    timeout: Duration,
    tlc: bool,
    /// Worker threads for both tools.
    workers: usize,
    /// Runs of each tool on each model.
    runs: usize,
    /// Another `sysmo` to compare with.
    baseline: Option<PathBuf>,
}

fn parse_args(root: &Path, args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        models: DEFAULT_MODELS.iter().map(|s| s.to_string()).collect(),
        dir: default_corpus_dir(root),
        timeout: DEFAULT_TIMEOUT,
        tlc: true,
        workers: 1,
        runs: 3,
        baseline: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--models" => {
                o.models = it
                    .next()
                    .ok_or("--models needs a comma-separated list")?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            }
            "--timeout" => {
                let v = it.next().ok_or("--timeout needs a number of seconds")?;
                let s: u64 = v.parse().map_err(|_| format!("--timeout needs a number of seconds, not `{v}`"))?;
                o.timeout = Duration::from_secs(s.max(1));
            }
            "--no-tlc" => o.tlc = false,
            "--baseline" => o.baseline = Some(PathBuf::from(it.next().ok_or("--baseline needs a sysmo binary")?)),
            "--runs" => {
                let v = it.next().ok_or("--runs needs a number")?;
                o.runs = v.parse().ok().filter(|n| *n > 0).ok_or_else(|| format!("--runs needs a positive number, not `{v}`"))?;
            }
            "--workers" => {
                let v = it.next().ok_or("--workers needs a number")?;
                o.workers = v.parse().ok().filter(|n| *n > 0).ok_or_else(|| format!("--workers needs a positive number, not `{v}`"))?;
            }
            other if !other.starts_with('-') => o.dir = PathBuf::from(other),
            other => return Err(format!("unknown option `{other}` for bench check")),
        }
    }
    if o.models.is_empty() {
        return Err("--models names no model".into());
    }
    Ok(o)
}

pub fn bench_check(root: &Path, args: &[String]) -> Result<bool, String> {
    let o = parse_args(root, args)?;
    let workers = o.workers.to_string();
    let jar = if o.tlc {
        let tb = tools::ensure_all(root, Need { tla_tools: true, ..Need::none() })?;
        Some(tb.tla_tools_jar.ok_or("no tla2tools.jar")?)
    } else {
        None
    };
    let sysmo = build_release_sysmo(root)?;
    let scratch = root.join("target/bench/tlc-metadir");
    let mut rows = vec![];
    for model in &o.models {
        let mdir = o.dir.join(model);
        let expected = std::fs::read_to_string(mdir.join("expected.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| Expected::from_json(&v));
        let Some(exp) = expected.filter(|e| e.spec_module.is_some() && e.cfg.is_some()) else {
            step(&format!("{model}: no expected.json naming its module and cfg; skipped"));
            rows.push(Row { model: model.clone(), expected: None, ours: None, tlc: None, baseline: None, safety: None });
            continue;
        };
        let (module, cfg) = (exp.spec_module.clone().unwrap_or_default(), exp.cfg.clone().unwrap_or_default());
        // The two tools take turns, run after run.
        let mut ours_runs = Vec::new();
        let mut tlc_runs = Vec::new();
        let mut base_runs = Vec::new();
        for k in 1..=o.runs {
            step(&format!("{model}: sysmo check {module}.tla --config {cfg} --workers {workers} (run {k}/{})", o.runs));
            let side = run_sysmo(&sysmo, &mdir, &module, &cfg, &workers, o.timeout)?;
            step(&format!("{model}: ours {}, {} distinct, {:.2} s, {} MiB", side.result, side.distinct.unwrap_or(0), side.run.wall, side.run.peak_kib / 1024));
            ours_runs.push(side);
            if let Some(base) = &o.baseline {
                let side = run_sysmo(base, &mdir, &module, &cfg, &workers, o.timeout)?;
                step(&format!("{model}: baseline {}, {} distinct, {:.2} s", side.result, side.distinct.unwrap_or(0), side.run.wall));
                base_runs.push(side);
            }
            if let Some(jar) = &jar {
                step(&format!("{model}: TLC -workers {workers} (run {k}/{})", o.runs));
                let side = run_tlc(jar, &scratch, &mdir, Path::new(&cfg), &module, o.timeout, &workers)?;
                step(&format!("{model}: TLC {}, {} distinct, {:.2} s, {} MiB", side.result, side.distinct.unwrap_or(0), side.run.wall, side.run.peak_kib / 1024));
                tlc_runs.push(side);
            }
        }
        let ours = median_side(ours_runs);
        let tlc = median_side(tlc_runs);
        let baseline = median_side(base_runs);
        // Safety-only: ours lists the temporal properties it leaves out.
        let mut safety = None;
        let safe_run = measure(
            Command::new(&sysmo)
                .args(["check", &format!("{module}.tla"), "--config", &cfg, "--json", "--safety-only", "--workers", &workers])
                .current_dir(&mdir),
            o.timeout,
        )?;
        let safe_report: Option<Value> = safe_run.stdout.lines().rev().find_map(|l| serde_json::from_str(l).ok());
        let temporal: Vec<String> = safe_report
            .as_ref()
            .and_then(|r| r["unchecked_properties"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        if !temporal.is_empty() {
            let distinct = safe_report.as_ref().and_then(|r| r["distinct_states"].as_u64());
            let result = safe_report.as_ref().and_then(|r| r["result"].as_str().map(str::to_string)).unwrap_or_default();
            step(&format!("{model}: ours safety-only {result}, {:.2} s (CPU {:.2} s)", safe_run.wall, safe_run.cpu));
            safety = Some((temporal, Side { run: safe_run, distinct, result, spread: None }, None));
        }
        if let Some(jar) = &jar {
            if let Some((temporal, _, tlc_safe)) = &mut safety {
                let text = std::fs::read_to_string(mdir.join(&cfg)).map_err(|e| format!("{cfg}: {e}"))?;
                let safe_cfg = root.join("target/bench").join(format!("{model}-safety.cfg"));
                std::fs::create_dir_all(root.join("target/bench")).map_err(|e| e.to_string())?;
                std::fs::write(&safe_cfg, cfg_without_properties(&text, temporal)).map_err(|e| e.to_string())?;
                step(&format!("{model}: TLC -workers {workers}, safety-only (without {})", temporal.join(", ")));
                let side = run_tlc(jar, &scratch, &mdir, &safe_cfg, &module, o.timeout, &workers)?;
                step(&format!("{model}: TLC safety-only {}, {:.2} s (CPU {:.2} s)", side.result, side.run.wall, side.run.cpu));
                *tlc_safe = Some(side);
            }
        }
        rows.push(Row { model: model.clone(), expected: exp.distinct_states, ours, tlc, baseline, safety });
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let table = render(&rows);
    print!("{table}");
    let out = root.join("target/bench/check.md");
    std::fs::create_dir_all(root.join("target/bench")).map_err(|e| e.to_string())?;
    std::fs::write(&out, format!("# sysmo check vs TLC ({} worker{})\n\n{table}", o.workers, if o.workers == 1 { "" } else { "s" })).map_err(|e| format!("{}: {e}", out.display()))?;
    step(&format!("wrote {}", out.display()));
    Ok(true)
}

/// `sysmo check` (the binary `bin`) on `module` in `mdir` under `cfg`.
fn run_sysmo(bin: &Path, mdir: &Path, module: &str, cfg: &str, workers: &str, timeout: Duration) -> Result<Side, String> {
    let run = measure(
        Command::new(bin).args(["check", &format!("{module}.tla"), "--config", cfg, "--json", "--workers", workers]).current_dir(mdir),
        timeout,
    )?;
    let report: Option<Value> = run.stdout.lines().rev().find_map(|l| serde_json::from_str(l).ok());
    let distinct = report.as_ref().and_then(|r| r["distinct_states"].as_u64());
    let result = if run.timed_out {
        format!("timed out after {} s", timeout.as_secs())
    } else {
        report.as_ref().and_then(|r| r["result"].as_str().map(str::to_string)).unwrap_or_else(|| format!("exit {:?}", run.code))
    };
    Ok(Side { run, distinct, result, spread: None })
}

/// TLC with `workers` workers on `module` in `mdir` with the .cfg `cfg` (relative to `mdir`, or
/// absolute).
///
/// TLC 2.15 does not know the .cfg's `CHECK_DEADLOCK`: a .cfg that has it is given to TLC as a
/// copy without it (beside `scratch`), with `-deadlock` when it turns deadlock checking off.
fn run_tlc(jar: &Path, scratch: &Path, mdir: &Path, cfg: &Path, module: &str, timeout: Duration, workers: &str) -> Result<Side, String> {
    let _ = std::fs::remove_dir_all(scratch);
    let text = std::fs::read_to_string(mdir.join(cfg)).map_err(|e| format!("{}: {e}", cfg.display()))?;
    let (cfg, deadlock_off) = match cfg_for_old_tlc(&text) {
        Some((copy, off)) => {
            let path = scratch.with_extension("cfg");
            std::fs::write(&path, copy).map_err(|e| format!("{}: {e}", path.display()))?;
            (path, off)
        }
        None => (cfg.to_path_buf(), false),
    };
    let mut cmd = Command::new("java");
    cmd.args(["-XX:+UseParallelGC", "-cp"]).arg(jar).args(["tlc2.TLC", "-workers", workers, "-metadir"]).arg(scratch);
    if deadlock_off {
        cmd.arg("-deadlock");
    }
    let run = measure(cmd.arg("-config").arg(&cfg).arg(module).current_dir(mdir), timeout)?;
    let answer = read_tlc(&run.stdout);
    let distinct = answer.distinct_states;
    let result = if run.timed_out { format!("timed out after {} s", timeout.as_secs()) } else { answer.result };
    Ok(Side { run, distinct, result, spread: None })
}

/// A .cfg text that says `CHECK_DEADLOCK TRUE` or `FALSE`, as TLC 2.15 reads it: without those
/// two words, and whether they turned deadlock checking off. `None` when the text does not
/// say it (outside comments).
fn cfg_for_old_tlc(text: &str) -> Option<(String, bool)> {
    // Byte ranges of the words outside `\*` comments, in order.
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let code = &line[..line.find("\\*").unwrap_or(line.len())];
        let mut i = 0;
        for w in code.split_whitespace() {
            let start = i + code[i..].find(w).unwrap_or(0);
            words.push((at + start, at + start + w.len()));
            i = start + w.len();
        }
        at += line.len();
    }
    let k = words.iter().position(|&(a, b)| &text[a..b] == "CHECK_DEADLOCK")?;
    let (start, kw_end) = words[k];
    let (end, off) = match words.get(k + 1).map(|&(a, b)| (b, &text[a..b])) {
        Some((b, "FALSE")) => (b, true),
        Some((b, "TRUE")) => (b, false),
        _ => (kw_end, false),
    };
    Some((format!("{}{}", &text[..start], &text[end..]), off))
}

/// Distinct states per wall second, when the run finished with a count.
fn rate(s: &Side) -> Option<f64> {
    if s.run.timed_out {
        return None;
    }
    s.distinct.map(|d| d as f64 / s.run.wall.max(1e-9))
}

fn render(rows: &[Row]) -> String {
    let mut s = String::from(
        "| model | distinct (TLC's record) | ours: result (distinct) | ours wall s (min–max) | ours CPU s | ours states/s | ours peak MiB \
         | TLC: result (distinct) | TLC wall s (min–max) | TLC CPU s | TLC states/s | TLC peak MiB | throughput ours/TLC | memory ours/TLC |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let num = |x: Option<f64>, prec: usize| x.map(|v| format!("{v:.prec$}")).unwrap_or_else(|| "-".into());
    let mib = |k: u64| k as f64 / 1024.0;
    for r in rows {
        let side = |x: &Option<Side>| match x {
            Some(x) => format!(
                "{} ({}) | {:.2}{} | {:.2} | {} | {:.0}",
                x.result,
                x.distinct.map(|d| d.to_string()).unwrap_or("-".into()),
                x.run.wall,
                x.spread.map(|(a, b)| format!(" ({a:.2}–{b:.2})")).unwrap_or_default(),
                x.run.cpu,
                num(rate(x), 0),
                mib(x.run.peak_kib)
            ),
            None => "not run | | | |".into(),
        };
        let (speed, memory) = match (&r.ours, &r.tlc) {
            (Some(o), Some(t)) => (
                rate(o).zip(rate(t)).map(|(a, b)| a / b.max(1e-9)),
                Some(o.run.peak_kib as f64 / t.run.peak_kib.max(1) as f64),
            ),
            _ => (None, None),
        };
        s += &format!(
            "| {} | {} | {} | {} | {}x | {}x |\n",
            r.model,
            r.expected.map(|d| d.to_string()).unwrap_or("-".into()),
            side(&r.ours),
            side(&r.tlc),
            num(speed, 2),
            num(memory, 2),
        );
    }
    if rows.iter().any(|r| r.baseline.is_some()) {
        s += "\nAgainst the baseline binary (median of the runs, taken in turns with ours):\n\n\
              | model | same answer | baseline wall s (min–max) | ours wall s (min–max) | baseline CPU s | ours CPU s | CPU ours/baseline |\n\
              |---|---|---|---|---|---|---|\n";
        for r in rows {
            let (Some(o), Some(b)) = (&r.ours, &r.baseline) else { continue };
            let wall = |x: &Side| format!("{:.2}{}", x.run.wall, x.spread.map(|(a, b)| format!(" ({a:.2}–{b:.2})")).unwrap_or_default());
            let same = if o.result == b.result && o.distinct == b.distinct { "yes" } else { "NO" };
            s += &format!(
                "| {} | {same} | {} | {} | {:.2} | {:.2} | {:.3}x |\n",
                r.model,
                wall(b),
                wall(o),
                b.run.cpu,
                o.run.cpu,
                o.run.cpu / b.run.cpu.max(1e-9)
            );
        }
    }
    let live: Vec<&Row> = rows.iter().filter(|r| r.safety.is_some()).collect();
    if !live.is_empty() {
        s += "\nThe cost of liveness (CPU seconds; full = with the temporal properties, safety = without them):\n\n\
              | model | temporal properties | ours safety | ours full | ours full/safety | TLC safety | TLC full | TLC full/safety | full: ours/TLC |\n\
              |---|---|---|---|---|---|---|---|---|\n";
        for r in live {
            let Some((temporal, ours_safe, tlc_safe)) = &r.safety else { continue };
            let cpu = |x: Option<&Side>| x.filter(|x| !x.run.timed_out).map(|x| x.run.cpu);
            let ratio = |a: Option<f64>, b: Option<f64>| a.zip(b).map(|(a, b)| a / b.max(1e-9));
            let (os, of) = (cpu(Some(ours_safe)), cpu(r.ours.as_ref()));
            let (ts, tf) = (cpu(tlc_safe.as_ref()), cpu(r.tlc.as_ref()));
            s += &format!(
                "| {} | {} | {} | {} | {}x | {} | {} | {}x | {}x |\n",
                r.model,
                temporal.join(", "),
                num(os, 2),
                num(of, 2),
                num(ratio(of, os), 2),
                num(ts, 2),
                num(tf, 2),
                num(ratio(tf, ts), 2),
                num(ratio(of, tf), 2),
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_run_is_shown_with_the_spread_of_the_walls() {
        let side = |wall: f64| Side {
            run: Run { wall, cpu: wall, peak_kib: 1, code: Some(0), stdout: String::new(), timed_out: false },
            distinct: Some(10),
            result: "success".into(),
            spread: None,
        };
        let m = median_side(vec![side(3.0), side(1.0), side(2.0)]).expect("a run");
        assert_eq!((m.run.wall, m.spread), (2.0, Some((1.0, 3.0))));
        let m = median_side(vec![side(4.0), side(1.0)]).expect("a run");
        assert_eq!((m.run.wall, m.spread), (4.0, Some((1.0, 4.0))));
        let m = median_side(vec![side(5.0)]).expect("a run");
        assert_eq!((m.run.wall, m.spread), (5.0, None));
        assert!(median_side(vec![]).is_none());
    }

    #[test]
    fn measures_a_real_child() {
        // The child touches about 64 MiB, so its peak resident set must exceed that.
        let r = measure(
            Command::new("sh").args(["-c", "echo hi; head -c 67108864 /dev/zero | tr '\\0' a | { v=$(cat); echo ${#v}; }"]),
            Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(r.code, Some(0));
        assert_eq!(r.stdout.lines().next(), Some("hi"));
        assert!(!r.timed_out);
        assert!(r.peak_kib > 60 * 1024, "peak {} KiB", r.peak_kib);
        assert!(r.cpu > 0.0);
    }

    #[test]
    fn kills_a_child_at_the_timeout() {
        let r = measure(Command::new("sh").args(["-c", "exec sleep 30"]), Duration::from_millis(200)).unwrap();
        assert!(r.timed_out);
        assert_eq!(r.code, None);
        assert!(r.wall < 10.0);
    }

    #[test]
    fn cfg_without_temporal_properties() {
        let cfg = "CONSTANTS\n  N = 3 \\* three\nSPECIFICATION Spec\nPROPERTY Live Safe\nPROPERTIES\n  Other\nINVARIANT Inv\n";
        let out = cfg_without_properties(cfg, &["Live".into(), "Other".into()]);
        assert_eq!(out, "CONSTANTS\n  N = 3 \\* three\nSPECIFICATION Spec\nPROPERTY Safe\n\n\nINVARIANT Inv\n");
        let out = cfg_without_properties("SPECIFICATION Spec PROPERTY A\n", &["A".into()]);
        assert_eq!(out, "SPECIFICATION Spec\n");
        // Nothing to drop: the text is unchanged.
        assert_eq!(cfg_without_properties(cfg, &[]), cfg);
    }

        #[test]
    fn tlc_is_given_check_deadlock_as_its_flag() {
        let (cfg, off) = cfg_for_old_tlc("SPECIFICATION Spec\nCHECK_DEADLOCK\n    FALSE\nINVARIANT Inv \\* CHECK_DEADLOCK TRUE\n").unwrap();
        assert_eq!(cfg, "SPECIFICATION Spec\n\nINVARIANT Inv \\* CHECK_DEADLOCK TRUE\n");
        assert!(off);
        let (cfg, off) = cfg_for_old_tlc("CHECK_DEADLOCK TRUE\nINIT Init\n").unwrap();
        assert_eq!(cfg, "\nINIT Init\n");
        assert!(!off);
        assert!(cfg_for_old_tlc("INIT Init \\* CHECK_DEADLOCK FALSE\nNEXT Next\n").is_none());
    }

#[test]
    fn options() {
        let root = Path::new("/r");
        let o = parse_args(root, &["--models".into(), "A,B".into(), "--timeout".into(), "5".into(), "--no-tlc".into()]).unwrap();
        assert_eq!(o.models, vec!["A", "B"]);
        assert_eq!(o.timeout, Duration::from_secs(5));
        assert!(!o.tlc);
        assert_eq!(o.workers, 1);
        assert_eq!(parse_args(root, &["--workers".into(), "2".into()]).unwrap().workers, 2);
        assert!(parse_args(root, &["--workers".into(), "0".into()]).is_err());
        assert!(parse_args(root, &["--timeout".into(), "x".into()]).is_err());
        assert!(parse_args(root, &["--bogus".into()]).is_err());
    }
}
