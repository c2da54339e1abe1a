//! `cargo xtask test`: every test suite, each reported as passed or failed, and a final line
//! `N passed, M failed` counting suites. Exits non-zero when any suite fails.

use crate::corpus;
use crate::serve::{build_web, serve_forever};
use crate::tools::{self, Need, Toolbox, CHROMEDRIVER, CHROMIUM};
use crate::util::{cargo, first_cause, run_tee, step};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

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

fn workspace_suite(root: &Path) -> Result<String, String> {
    let (ok, text) = run_tee(Command::new(cargo()).current_dir(root).args(["test", "--workspace", "--no-fail-fast"]))?;
    let (p, f) = count_passed(&text).unwrap_or((0, 0));
    if ok && p > 0 { Ok(format!("{p} tests passed")) } else { Err(format!("{p} passed, {f} failed")) }
}

/// wasm-bindgen-test in node (the wasm32 runner is set in .cargo/config.toml). A runner that
/// finds no test prints "no tests to run!" and exits 0, so demand a positive count.
fn wasm_suite(root: &Path, tb: &Toolbox) -> Result<String, String> {
    let run = || {
        run_tee(
            Command::new(cargo())
                .current_dir(root)
                .args(["test", "--target", "wasm32-unknown-unknown", "-p", "web", "--test", "wasm"])
                .env("PATH", &tb.path)
                .env("CHROMEDRIVER", CHROMEDRIVER),
        )
    };
    let (mut ok, mut text) = run()?;
    if !ok && count_passed(&text).is_none() {
        // Nothing ran: the build failed. Once more, so that a passing trouble of the machine
        // (a crate download, a crashed compiler) does not fail the suite; the cause is shown.
        step(&format!("the wasm test build failed ({}); trying once more", first_cause(&text)));
        (ok, text) = run()?;
    }
    match count_passed(&text) {
        Some((p, 0)) if ok && p > 0 => Ok(format!("{p} wasm tests passed in node")),
        Some((p, f)) => Err(format!("{p} passed, {f} failed (exit ok: {ok})")),
        None => Err(format!("no wasm test ran: {}", first_cause(&text))),
    }
}

/// Build the app with Trunk, serve it on a free port of 127.0.0.1 and run every
/// web/tests/*.mjs with node and playwright-core against the system Chromium.
fn browser_suite(root: &Path, tb: &Toolbox) -> Result<String, String> {
    let dist = build_web(root, &tb.path)?;
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
        let profile = std::env::temp_dir().join(format!("sysmo-chromium-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let (ok, text) = run_tee(
            Command::new("node")
                .arg(script)
                .current_dir(root.join("web"))
                .env("PATH", &tb.path)
                .env("SYSMO_URL", format!("http://127.0.0.1:{port}/"))
                .env("CHROMIUM", CHROMIUM)
                .env("USER_DATA_DIR", &profile)
                .env("SCREENSHOT_DIR", root.join("target/screenshots")),
        )?;
        let _ = std::fs::remove_dir_all(&profile);
        let name = script.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match count_passed(&text) {
            Some((p, 0)) if ok && p > 0 => total += p,
            other => failures.push(format!("{name}: {other:?}, exit ok: {ok}")),
        }
    }
    if failures.is_empty() {
        Ok(format!("{total} browser checks passed"))
    } else {
        Err(failures.join("; "))
    }
}

fn corpus_suite(root: &Path, dir: &Path) -> Result<String, String> {
    let (p, f) = corpus::run_corpus(root, dir)?;
    // `p` counts models that parse clean and whose check matches TLC (known differences apart).
    if f == 0 { Ok(format!("{p} models match TLC")) } else { Err(format!("{p} models passed, {f} failed")) }
}

/// Suites `cargo xtask test` runs, by short name; `cargo xtask test wasm browser` runs a subset.
pub const SUITES: [&str; 4] = ["workspace", "wasm", "browser", "corpus"];

pub fn test_command(root: &Path, only: &[String]) -> Result<bool, String> {
    if let Some(bad) = only.iter().find(|s| !SUITES.contains(&s.as_str())) {
        return Err(format!("unknown suite `{bad}`; suites: {}", SUITES.join(", ")));
    }
    let wanted = |s: &str| only.is_empty() || only.iter().any(|o| o == s);
    let started = Instant::now();
    let mut results: Vec<(&str, Result<String, String>, f64)> = vec![];
    let mut record = |name: &'static str, f: &mut dyn FnMut() -> Result<String, String>| {
        eprintln!("\n[xtask] ===== suite: {name} =====");
        let t = Instant::now();
        let r = f();
        let secs = t.elapsed().as_secs_f64();
        match &r {
            Ok(s) => eprintln!("[xtask] suite {name}: PASSED ({s}) in {secs:.0} s"),
            Err(e) => eprintln!("[xtask] suite {name}: FAILED ({e}) in {secs:.0} s"),
        }
        results.push((name, r, secs));
    };

    let mut toolbox = None;
    record("setup", &mut || {
        let tb = tools::ensure_all(root, Need { web: true, browser: true, tla_tools: false })?;
        toolbox = Some(tb);
        Ok("tools present".into())
    });
    if wanted("workspace") {
        record("cargo test --workspace", &mut || workspace_suite(root));
    }
    let need_tools = || "skipped: setup failed".to_string();
    if wanted("wasm") {
        record("wasm tests (node)", &mut || match &toolbox {
            Some(tb) => wasm_suite(root, tb),
            None => Err(need_tools()),
        });
    }
    if wanted("browser") {
        record("browser tests (chromium)", &mut || match &toolbox {
            Some(tb) => browser_suite(root, tb),
            None => Err(need_tools()),
        });
    }
    let corpus_dir = corpus::default_corpus_dir(root);
    if !wanted("corpus") {
    } else if corpus_dir.join("index.tsv").exists() {
        record("corpus (../shared/corpus)", &mut || corpus_suite(root, &corpus_dir));
    } else {
        eprintln!("[xtask] no corpus at {}: corpus suite not run", corpus_dir.display());
    }

    let passed = results.iter().filter(|r| r.1.is_ok()).count();
    let failed = results.len() - passed;
    println!("\n{:<28} {:<7} {:>7}  detail", "suite", "result", "seconds");
    for (name, r, secs) in &results {
        let (verdict, detail) = match r {
            Ok(s) => ("passed", s.as_str()),
            Err(e) => ("FAILED", e.as_str()),
        };
        println!("{name:<28} {verdict:<7} {secs:>7.0}  {detail}");
    }
    println!("total {:.0} s", started.elapsed().as_secs_f64());
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

#[cfg(test)]
mod tests {
    use super::count_passed;

    #[test]
    fn counts_libtest_and_runner_lines() {
        let out = "running 3 tests\n...\ntest result: ok. 3 passed; 0 failed; 0 ignored\n\
                   test result: ok. 2 passed; 1 failed; 0 ignored\n";
        assert_eq!(count_passed(out), Some((5, 1)));
        assert_eq!(count_passed("no tests to run!\n"), None);
        assert_eq!(count_passed("browser: 4 passed, 0 failed\n"), Some((4, 0)));
    }
}
