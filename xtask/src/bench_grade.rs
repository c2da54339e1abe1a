//! `cargo xtask bench grade [--runs N] [--task ID]`: time `sysmo grade` end to end (process start
//! to exit, release build) on a task's reference model, and the grader's own time (the report's
//! `elapsed.total_seconds`). Target (reported, not asserted): under 1 s for the spin lock.

use crate::util::{build_release_sysmo, capture, median, ms_since, step};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

pub fn bench_grade(root: &Path, args: &[String]) -> Result<bool, String> {
    let mut runs = 5usize;
    let mut task = "spin".to_string();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => runs = it.next().and_then(|v| v.parse().ok()).filter(|n| *n > 0).ok_or("--runs needs a positive number")?,
            "--task" => task = it.next().cloned().ok_or("--task needs an id")?,
            other => return Err(format!("unknown option `{other}` for bench grade")),
        }
    }
    let sysmo = build_release_sysmo(root)?;
    let toml = std::fs::read_to_string(root.join(format!("tasks/{task}/task.toml"))).map_err(|e| format!("task {task}: {e}"))?;
    let module = toml
        .lines()
        .find_map(|l| l.trim().strip_prefix("module").and_then(|r| r.split('"').nth(1)).map(str::to_string))
        .ok_or("task.toml has no [pinned] module")?;
    let model = root.join(format!("tasks/{task}/reference/{module}.tla"));
    let mut wall = vec![];
    let mut inproc = vec![];
    let mut overall = String::new();
    for _ in 0..runs {
        let t = Instant::now();
        let out = capture(Command::new(&sysmo).args(["grade", "--task", &task, "--json"]).arg(&model))?;
        wall.push(ms_since(t));
        if !out.status.success() {
            return Err(format!("sysmo grade failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("report: {e}"))?;
        inproc.push(j["elapsed"]["total_seconds"].as_f64().unwrap_or(0.0) * 1000.0);
        overall = j["overall"].to_string();
    }
    let (w, g) = (median(&wall), median(&inproc));
    step(&format!(
        "sysmo grade --task {task} reference/{module}.tla: {w:.0} ms end to end, {g:.0} ms grading (median of {runs}); overall {overall}; target < 1000 ms: {}",
        if w < 1000.0 { "met" } else { "NOT met" }
    ));
    Ok(true)
}
