//! `cargo xtask bench web [--runs N] [--check-runs N] [--threads N] [--no-build]`: the web app's
//! figures (`--no-build` measures the dist/ of the last Trunk build).
//!
//! - Transfer size: every file of dist/ (Trunk release build), raw and gzipped (DEFLATE at the
//!   default level), and the totals: all files, and what the first page load fetches.
//! - Time to a usable gallery: navigation start to the first visible `.task-card` in headless
//!   Chromium, each load in a fresh browser context (empty cache); median of `--runs` (5).
//! - The checker's throughput: the same model and configuration (the reader-writer mutex's
//!   reference model with `--threads` threads, 4 by default: tens of thousands of states) checked
//!   by the grading worker in the page and by the native `sysmo check --workers 1` (release);
//!   distinct states per second both ways and their ratio (target: at least 0.7 of native).
//!
//! The browser side is web/bench/web.bench.mjs (playwright-core, as the browser tests). Results
//! are printed and written to target/bench/web.md. A benchmark: nothing is asserted but that both
//! sides agree on the state counts.

use crate::serve::{build_web, serve_forever, WebBuild};
use crate::tools::{self, Need, CHROMIUM};
use crate::util::{build_release_sysmo, capture, median, step};
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One file of dist/ and its sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct FileSize {
    pub path: String,
    pub raw: u64,
    pub gzip: u64,
}

/// gzip at the default level, as a server would send it.
pub fn gzip_len(bytes: &[u8]) -> u64 {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    let _ = enc.write_all(bytes);
    enc.finish().map(|v| v.len() as u64).unwrap_or(0)
}

/// Every file under `dir` (recursively), sorted by path, with its raw and gzipped sizes.
pub fn dist_sizes(dir: &Path) -> Result<Vec<FileSize>, String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<FileSize>) -> Result<(), String> {
        for e in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out)?;
            } else {
                let bytes = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                let path = p.strip_prefix(base).unwrap_or(&p).to_string_lossy().into_owned();
                out.push(FileSize { path, raw: bytes.len() as u64, gzip: gzip_len(&bytes) });
            }
        }
        Ok(())
    }
    let mut out = vec![];
    walk(dir, dir, &mut out)?;
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// What a file is, for the table: the page's own files load first, the worker's on the first grade.
pub fn file_role(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "index.html" {
        "page"
    } else if name.starts_with("worker") {
        "worker (first grade)"
    } else if name.starts_with("web") {
        "page"
    } else {
        "other"
    }
}

/// The rwmutex reference configuration with `threads` threads and deadlock checking off (the
/// grader checks with deadlock off; the model can park every thread in the queue).
pub fn bench_cfg(reference_cfg: &str, threads: usize) -> Result<String, String> {
    let ids: Vec<String> = (0..threads).map(|i| i.to_string()).collect();
    let mut found = false;
    let mut out = String::new();
    for line in reference_cfg.lines() {
        if line.trim_start().starts_with("CONSTANT") && line.contains("Threads") {
            found = true;
            out += &format!("CONSTANT Threads = {{{}}}\n", ids.join(", "));
        } else {
            out += line;
            out.push('\n');
        }
    }
    if !found {
        return Err("the reference cfg has no `CONSTANT Threads = ...` line".into());
    }
    out += "CHECK_DEADLOCK FALSE\n";
    Ok(out)
}

fn kib(n: u64) -> String {
    format!("{:.1} KiB", n as f64 / 1024.0)
}

pub fn bench_web(root: &Path, args: &[String]) -> Result<bool, String> {
    let (mut runs, mut check_runs, mut threads) = (5usize, 3usize, 4usize);
    let mut build = true;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = || it.next().and_then(|v| v.parse::<usize>().ok()).filter(|n| *n > 0);
        match a.as_str() {
            "--runs" => runs = num().ok_or("--runs needs a positive number")?,
            "--check-runs" => check_runs = num().ok_or("--check-runs needs a positive number")?,
            "--threads" => threads = num().ok_or("--threads needs a positive number")?,
            "--no-build" => build = false,
            other => return Err(format!("unknown option `{other}` for bench web")),
        }
    }
    let tb = tools::ensure_all(root, Need { web: true, browser: true, ..Need::none() })?;
    let dist = if build {
        build_web(root, &tb.path, WebBuild::Release, None)?
    } else if root.join("dist/index.html").exists() {
        step("--no-build: measuring the existing dist/");
        root.join("dist")
    } else {
        return Err("--no-build: dist/ has no index.html (run without --no-build once)".into());
    };
    let sysmo = build_release_sysmo(root)?;
    let mut report = String::new();
    let mut say = |line: String| {
        println!("{line}");
        report += &line;
        report.push('\n');
    };

    // 1. Transfer sizes.
    let files = dist_sizes(&dist)?;
    say("## Transfer size (dist/, Trunk release build; gzip at the default level)".into());
    say(String::new());
    say(format!("| {:<44} | {:<20} | {:>12} | {:>12} |", "file", "loaded by", "raw", "gzip"));
    say(format!("|{:-<46}|{:-<22}|{:->14}|{:->14}|", "", "", "", ""));
    for f in &files {
        say(format!("| {:<44} | {:<20} | {:>12} | {:>12} |", f.path, file_role(&f.path), kib(f.raw), kib(f.gzip)));
    }
    let sum = |pick: &dyn Fn(&FileSize) -> bool| -> (u64, u64) {
        files.iter().filter(|f| pick(f)).fold((0, 0), |(r, g), f| (r + f.raw, g + f.gzip))
    };
    let (all_raw, all_gz) = sum(&|_| true);
    let (page_raw, page_gz) = sum(&|f| file_role(&f.path) == "page");
    say(format!("| {:<44} | {:<20} | {:>12} | {:>12} |", "total: first page load", "", kib(page_raw), kib(page_gz)));
    say(format!("| {:<44} | {:<20} | {:>12} | {:>12} |", "total: all files", "", kib(all_raw), kib(all_gz)));
    say(String::new());

    // 2 and 3 need the page served and the bench model.
    let dir = root.join("target/bench/web");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let model_text = std::fs::read_to_string(root.join("tasks/rwmutex/reference/rwmutex.tla")).map_err(|e| format!("rwmutex.tla: {e}"))?;
    let cfg_text = bench_cfg(
        &std::fs::read_to_string(root.join("tasks/rwmutex/reference/rwmutex.cfg")).map_err(|e| format!("rwmutex.cfg: {e}"))?,
        threads,
    )?;
    let (model, cfg) = (dir.join("rwmutex.tla"), dir.join("rwmutex.cfg"));
    std::fs::write(&model, &model_text).map_err(|e| e.to_string())?;
    std::fs::write(&cfg, &cfg_text).map_err(|e| e.to_string())?;

    // Native: sysmo check, one worker; the figures from its JSON. Run before and after the
    // browser's runs, so a change of the machine's load during the bench touches both sides.
    let mut native_rates = vec![];
    let mut native = serde_json::Value::Null;
    let mut native_runs = |label: &str| -> Result<(), String> {
        for i in 1..=check_runs {
            let out = capture(Command::new(&sysmo).args(["check", "--json", "--workers", "1"]).arg(&model).arg("--config").arg(&cfg))?;
            let j: serde_json::Value = serde_json::from_slice(&out.stdout)
                .map_err(|e| format!("sysmo check --json: {e}: {}", String::from_utf8_lossy(&out.stderr)))?;
            let secs = j["elapsed_seconds"].as_f64().unwrap_or(0.0);
            let distinct = j["distinct_states"].as_u64().unwrap_or(0);
            step(&format!("native run {i}/{check_runs} ({label}): {} {distinct} distinct states in {secs:.2} s", j["result"]));
            native_rates.push(distinct as f64 / secs.max(1e-9));
            native = j;
        }
        Ok(())
    };
    native_runs("before the browser")?;

    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    std::thread::spawn(move || serve_forever(listener, dist));
    let out_json = dir.join("browser.json");
    let _ = std::fs::remove_file(&out_json);
    let script: PathBuf = root.join("web/bench/web.bench.mjs");
    let status = Command::new("node")
        .arg(&script)
        .current_dir(root.join("web"))
        .env("PATH", &tb.path)
        .env("SYSMO_URL", format!("http://127.0.0.1:{port}/"))
        .env("CHROMIUM", CHROMIUM)
        .env("BENCH_RUNS", runs.to_string())
        .env("BENCH_CHECK_RUNS", check_runs.to_string())
        .env("BENCH_MODEL", &model)
        .env("BENCH_CFG", &cfg)
        .env("BENCH_OUT", &out_json)
        .status()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if !status.success() {
        return Err(format!("{} failed ({status})", script.display()));
    }
    native_runs("after the browser")?;
    let browser: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out_json).map_err(|e| format!("{}: {e}", out_json.display()))?)
        .map_err(|e| format!("{}: {e}", out_json.display()))?;

    // 2. Load time.
    let loads: Vec<f64> = browser["loads_ms"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default();
    let min = loads.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = loads.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    say("## Time to a usable gallery (headless Chromium, fresh context each load)".into());
    say(String::new());
    say(format!(
        "navigation start to the first visible task card: median {:.0} ms over {} loads (min {min:.0}, max {max:.0}); loads: {}",
        median(&loads),
        loads.len(),
        loads.iter().map(|x| format!("{x:.0}")).collect::<Vec<_>>().join(", ")
    ));
    say(String::new());

    // 3. Throughput.
    let checks = browser["checks"].as_array().cloned().unwrap_or_default();
    let worker_rates: Vec<f64> = checks.iter().filter_map(|c| c["distinct_per_second"].as_f64()).collect();
    let worker_distinct = checks.first().and_then(|c| c["distinct_states"].as_u64()).unwrap_or(0);
    let native_distinct = native["distinct_states"].as_u64().unwrap_or(0);
    let (n, w) = (median(&native_rates), median(&worker_rates));
    say(format!("## Model checking: rwmutex reference, Threads = {{0..{}}}, deadlock off", threads - 1));
    say(String::new());
    say(format!(
        "native `sysmo check --workers 1` (release): {} {native_distinct} distinct, {} generated, depth {}; median {n:.0} distinct states/s over {} runs",
        native["result"], native["states_generated"], native["depth"], native_rates.len()
    ));
    if let Some(c) = checks.first() {
        say(format!(
            "grading worker (wasm, headless Chromium): {} {worker_distinct} distinct, {} generated, depth {}; median {w:.0} distinct states/s over {} runs (each {} ms)",
            c["result"],
            c["states_generated"],
            c["depth"],
            checks.len(),
            checks.iter().map(|c| format!("{:.0}", c["elapsed_ms"].as_f64().unwrap_or(0.0))).collect::<Vec<_>>().join(", ")
        ));
    }
    let ratio = if n > 0.0 { w / n } else { 0.0 };
    say(format!("worker / native: {ratio:.2}x; target >= 0.7x: {}", if ratio >= 0.7 { "met" } else { "NOT met" }));
    let md = root.join("target/bench/web.md");
    let _ = std::fs::write(&md, &report);
    step(&format!("wrote {}", md.display()));
    if worker_distinct != native_distinct || native_distinct == 0 {
        return Err(format!("the worker found {worker_distinct} distinct states, native {native_distinct}: they must agree"));
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_sizes_are_real_compressions() {
        let text = "MODULE ".repeat(1000);
        let g = gzip_len(text.as_bytes());
        assert!(g > 18 && g < 200, "{g}");
        // Incompressible bytes grow by the gzip header and block overhead only.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 56) as u8
            })
            .collect();
        let g = gzip_len(&noise);
        assert!(g >= 4096 && g < 4096 + 64, "{g}");
    }

    #[test]
    fn dist_files_are_listed_with_their_roles() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-web-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("snippets/x")).unwrap();
        std::fs::write(dir.join("index.html"), "<html></html>").unwrap();
        std::fs::write(dir.join("web-abc_bg.wasm"), [0u8; 100]).unwrap();
        std::fs::write(dir.join("snippets/x/a.js"), "export {}").unwrap();
        let files = dist_sizes(&dir).unwrap();
        assert_eq!(files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["index.html", "snippets/x/a.js", "web-abc_bg.wasm"]);
        assert_eq!(files[2].raw, 100);
        assert!(files[2].gzip < 100);
        assert_eq!(file_role("index.html"), "page");
        assert_eq!(file_role("web-abc_bg.wasm"), "page");
        assert_eq!(file_role("worker_loader.js"), "worker (first grade)");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_bench_cfg_sets_the_threads_and_turns_deadlock_off() {
        let cfg = bench_cfg("SPECIFICATION Spec\nCONSTANT Threads = {0, 1, 2}\nINVARIANT TypeOK\n", 4).unwrap();
        assert_eq!(cfg, "SPECIFICATION Spec\nCONSTANT Threads = {0, 1, 2, 3}\nINVARIANT TypeOK\nCHECK_DEADLOCK FALSE\n");
        assert!(bench_cfg("SPECIFICATION Spec\n", 4).is_err());
    }
}
