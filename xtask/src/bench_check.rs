//! `cargo xtask bench check [--models A,B,...] [DIR]`: model-check the same corpus models with
//! `sysmo check` and with TLC (one worker, `-XX:+UseParallelGC`), in the same run, each as a
//! whole process; report wall time, distinct states per second, peak memory and the ratios.
//! The table is printed and written to target/bench/check.md.
//!
//! Peak memory is the child's VmHWM (the kernel's resident high-water mark, read from
//! /proc/<pid>/status while it runs; it only grows, so the last reading is the peak up to the
//! final few milliseconds).

use crate::corpus::{default_corpus_dir, Expected};
use crate::tools::{self, Need};
use crate::util::{build_release_sysmo, step};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DEFAULT_MODELS: &[&str] = &["LamportMutex", "SimpleRegular", "SlushSmall", "CoffeeCan1000"];
const TIMEOUT: Duration = Duration::from_secs(600);

/// One whole-process run: wall seconds, peak resident KiB, exit code, stdout.
pub struct Run {
    pub wall: f64,
    pub peak_kib: u64,
    pub code: Option<i32>,
    pub stdout: String,
    pub timed_out: bool,
}

fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_vm_hwm(&text)
}

/// The `VmHWM:` line of /proc/<pid>/status, in KiB.
pub fn parse_vm_hwm(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

pub fn measure(cmd: &mut Command) -> Result<Run, String> {
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
    let mut peak = 0;
    let (code, timed_out) = loop {
        if let Some(k) = vm_hwm_kib(pid) {
            peak = peak.max(k);
        }
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break (status.code(), false),
            None if t.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break (None, true);
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let wall = t.elapsed().as_secs_f64();
    Ok(Run { wall, peak_kib: peak, code, stdout: reader.join().unwrap_or_default(), timed_out })
}

/// Distinct states from TLC's output ("N states generated, M distinct states found").
pub fn tlc_distinct(stdout: &str) -> Option<u64> {
    stdout.lines().rev().find_map(|l| {
        let (_, rest) = l.split_once("states generated, ")?;
        rest.split_whitespace().next()?.replace(',', "").parse().ok()
    })
}

struct Row {
    model: String,
    expected: Option<u64>,
    ours: Option<(Run, Option<u64>, String)>,
    tlc: Option<(Run, Option<u64>)>,
}

pub fn bench_check(root: &Path, args: &[String]) -> Result<bool, String> {
    let mut models: Vec<String> = DEFAULT_MODELS.iter().map(|s| s.to_string()).collect();
    let mut dir = default_corpus_dir(root);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--models" => {
                models = it.next().ok_or("--models needs a comma-separated list")?.split(',').map(str::to_string).collect()
            }
            other if !other.starts_with('-') => dir = PathBuf::from(other),
            other => return Err(format!("unknown option `{other}` for bench check")),
        }
    }
    let tb = tools::ensure_all(root, Need { web: false, browser: false, tla_tools: true })?;
    let jar = tb.tla_tools_jar.ok_or("no tla2tools.jar")?;
    let sysmo = build_release_sysmo(root)?;
    let scratch = root.join("target/bench/tlc-metadir");
    let mut rows = vec![];
    for model in &models {
        let mdir = dir.join(model);
        let expected = std::fs::read_to_string(mdir.join("expected.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| Expected::from_json(&v));
        let Some(exp) = expected.clone().filter(|e| e.spec_module.is_some() && e.cfg.is_some()) else {
            step(&format!("{model}: no expected.json naming its module and cfg; skipped"));
            rows.push(Row { model: model.clone(), expected: None, ours: None, tlc: None });
            continue;
        };
        let (module, cfg) = (exp.spec_module.clone().unwrap_or_default(), exp.cfg.clone().unwrap_or_default());
        step(&format!("{model}: sysmo check"));
        let ours = measure(Command::new(&sysmo).args(["check", &format!("{module}.tla"), "--config", &cfg, "--json"]).current_dir(&mdir))?;
        let report: Option<Value> = ours.stdout.lines().rev().find_map(|l| serde_json::from_str(l).ok());
        let ours_distinct = report.as_ref().and_then(|r| r["distinct_states"].as_u64());
        let ours_result = report.as_ref().and_then(|r| r["result"].as_str().map(str::to_string)).unwrap_or_else(|| format!("exit {:?}", ours.code));
        step(&format!("{model}: TLC"));
        let _ = std::fs::remove_dir_all(&scratch);
        let tlc = measure(
            Command::new("java")
                .args(["-XX:+UseParallelGC", "-cp"])
                .arg(&jar)
                .args(["tlc2.TLC", "-workers", "1", "-metadir"])
                .arg(&scratch)
                .args(["-config", &cfg, &module])
                .current_dir(&mdir),
        )?;
        let tlc_d = tlc_distinct(&tlc.stdout);
        rows.push(Row { model: model.clone(), expected: exp.distinct_states, ours: Some((ours, ours_distinct, ours_result)), tlc: Some((tlc, tlc_d)) });
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let table = render(&rows);
    print!("{table}");
    let out = root.join("target/bench/check.md");
    std::fs::create_dir_all(root.join("target/bench")).map_err(|e| e.to_string())?;
    std::fs::write(&out, format!("# sysmo check vs TLC (1 worker)\n\n{table}")).map_err(|e| format!("{}: {e}", out.display()))?;
    step(&format!("wrote {}", out.display()));
    Ok(true)
}

fn render(rows: &[Row]) -> String {
    let mut s = String::from(
        "| model | distinct (TLC's expected) | ours: result | ours s | ours states/s | ours peak MiB | TLC s | TLC states/s | TLC peak MiB | speed-up (wall) | memory ratio |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let (Some((o, od, ores)), Some((t, td))) = (&r.ours, &r.tlc) else {
            s += &format!("| {} | - | not run | | | | | | | | |\n", r.model);
            continue;
        };
        let rate = |d: Option<u64>, run: &Run| d.map(|d| format!("{:.0}", d as f64 / run.wall)).unwrap_or("-".into());
        let mib = |k: u64| k as f64 / 1024.0;
        let ores = if o.timed_out { "timed out".to_string() } else { ores.clone() };
        s += &format!(
            "| {} | {} | {} ({}) | {:.2} | {} | {:.0} | {:.2} | {} | {:.0} | {:.2}x | {:.2}x |\n",
            r.model,
            r.expected.map(|d| d.to_string()).unwrap_or("-".into()),
            ores,
            od.map(|d| d.to_string()).unwrap_or("-".into()),
            o.wall,
            rate(*od, o),
            mib(o.peak_kib),
            t.wall,
            rate(*td, t),
            mib(t.peak_kib),
            t.wall / o.wall,
            o.peak_kib as f64 / t.peak_kib.max(1) as f64,
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tlc_counts_and_vm_hwm() {
        let out = "Model checking completed.\n2,729,079 states generated, 724,274 distinct states found, 0 states left on queue.\n";
        assert_eq!(tlc_distinct(out), Some(724_274));
        assert_eq!(tlc_distinct("nothing"), None);
        assert_eq!(parse_vm_hwm("Name:\tx\nVmHWM:\t  123456 kB\nVmRSS:\t 1 kB\n"), Some(123_456));
    }

    #[test]
    fn measures_a_real_child() {
        let r = measure(Command::new("sh").args(["-c", "echo hi; sleep 0.1"])).unwrap();
        assert_eq!(r.code, Some(0));
        assert_eq!(r.stdout.trim(), "hi");
        assert!(r.wall >= 0.1 && r.peak_kib > 0);
    }
}
