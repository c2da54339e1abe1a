//! `cargo xtask bench parse`: time `sysmo parse` and SANY on the same generated module, in the
//! same run, and print medians. Targets (reported, not asserted): under 200 ms for 20,000
//! lines, and at least 10× faster than SANY.

use crate::bench_module::bench_module;
use crate::tools::{self, Need};
use crate::util::{build_release_sysmo, capture, median, ms_since, step};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const MODULE: &str = "BenchParse";
const SEED: u64 = 20_000;

pub fn bench_parse(root: &Path, args: &[String]) -> Result<bool, String> {
    let mut runs = 5usize;
    let mut lines = 20_000usize;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = || it.next().and_then(|v| v.parse::<usize>().ok()).filter(|n| *n > 0);
        match a.as_str() {
            "--runs" => runs = num().ok_or("--runs needs a positive number")?,
            "--lines" => lines = num().ok_or("--lines needs a positive number")?,
            other => return Err(format!("unknown option `{other}` for bench parse")),
        }
    }
    let tb = tools::ensure_all(root, Need { tla_tools: true, ..Need::none() })?;
    let jar = tb.tla_tools_jar.ok_or("no tla2tools.jar")?;
    let sysmo = build_release_sysmo(root)?;

    let dir = root.join("target/bench");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let text = bench_module(MODULE, lines, SEED);
    let file = dir.join(format!("{MODULE}.tla"));
    std::fs::write(&file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
    let n_lines = text.lines().count();
    step(&format!("generated {} ({} lines, {} bytes)", file.display(), n_lines, text.len()));

    let mut sysmo_wall = vec![];
    let mut sysmo_inproc = vec![];
    let mut sany_wall = vec![];
    let mut sysmo_status = String::new();
    let mut sany_status = String::new();
    for run in 1..=runs {
        let t = Instant::now();
        let out = capture(Command::new(&sysmo).arg("parse").arg("--timing").arg(&file))?;
        sysmo_wall.push(ms_since(t));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let inproc = parse_timing(&stderr).ok_or_else(|| format!("no timing line from sysmo: {stderr}"))?;
        sysmo_inproc.push(inproc);
        sysmo_status = match out.status.code() {
            Some(0) => "clean".into(),
            Some(150) => format!("errors ({} reported)", stderr.matches("error[").count()),
            c => format!("exit {c:?}"),
        };

        let t = Instant::now();
        let out = capture(
            Command::new("java").arg("-cp").arg(&jar).arg("tla2sany.SANY").arg(&file).current_dir(&dir),
        )?;
        sany_wall.push(ms_since(t));
        let stdout = String::from_utf8_lossy(&out.stdout);
        sany_status = sany_verdict(&stdout);
        step(&format!(
            "run {run}/{runs}: sysmo {:.1} ms (in-process {:.1} ms), SANY {:.1} ms",
            sysmo_wall[run - 1],
            sysmo_inproc[run - 1],
            sany_wall[run - 1]
        ));
    }

    let (sw, si, jw) = (median(&sysmo_wall), median(&sysmo_inproc), median(&sany_wall));
    println!();
    println!("parse benchmark: {} ({n_lines} lines), median of {runs} runs", file.display());
    println!("{:<34} {:>12} {:>12} {:>12}  verdict", "measure", "median ms", "min ms", "max ms");
    let row = |name: &str, v: &[f64], verdict: &str| {
        let min = v.iter().cloned().fold(f64::INFINITY, f64::min);
        let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        println!("{name:<34} {:>12.1} {min:>12.1} {max:>12.1}  {verdict}", median(v));
    };
    row("sysmo parse (whole process)", &sysmo_wall, &sysmo_status);
    row("sysmo parse+check (in-process)", &sysmo_inproc, "");
    row("SANY (whole process, java)", &sany_wall, &sany_status);
    println!();
    println!(
        "speed-up vs SANY: {:.1}x whole process, {:.1}x in-process; target < 200 ms: {}; target >= 10x: {}",
        jw / sw,
        jw / si,
        if sw < 200.0 { "met" } else { "NOT met" },
        if jw / sw >= 10.0 { "met" } else { "NOT met" }
    );
    Ok(true)
}

/// The in-process milliseconds from `sysmo parse --timing`'s stderr line.
pub fn parse_timing(stderr: &str) -> Option<f64> {
    stderr
        .lines()
        .filter(|l| l.starts_with("timing:"))
        .filter_map(|l| l.split("parse+check").nth(1))
        .filter_map(|rest| rest.trim().trim_end_matches("ms").trim().parse::<f64>().ok())
        .reduce(|a, b| a + b)
}

/// What SANY said about the file, in a few words.
pub fn sany_verdict(stdout: &str) -> String {
    if stdout.contains("***Parse Error***") || stdout.contains("Fatal errors") {
        "parse errors".into()
    } else if stdout.contains("Semantic errors") {
        "semantic errors".into()
    } else if stdout.contains("Semantic processing of module") {
        "clean".into()
    } else {
        "unknown (see SANY's output)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_timing_lines() {
        assert_eq!(parse_timing("timing: a.tla parse+check 12.500 ms\n"), Some(12.5));
        assert_eq!(parse_timing("timing: a parse+check 1.0 ms\ntiming: b parse+check 2.0 ms\n"), Some(3.0));
        assert_eq!(parse_timing("nothing here"), None);
    }

    #[test]
    fn sany_verdicts() {
        assert_eq!(sany_verdict("Parsing file x\nSemantic processing of module X\n"), "clean");
        assert_eq!(sany_verdict("***Parse Error***\n"), "parse errors");
        assert_eq!(sany_verdict("Semantic errors:\n"), "semantic errors");
    }
}
