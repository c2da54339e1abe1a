//! Shared plumbing: the repository root, running commands with their line printed, PATH.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

/// The repository root (xtask's manifest lives one level below it).
pub fn repo_root() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    dir.parent().map(Path::to_path_buf).unwrap_or(dir)
}

/// Print one setup or build step, so a log shows what happened and in what order.
pub fn step(msg: &str) {
    eprintln!("[xtask] {msg}");
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Run a command with inherited stdio; Ok(true) when it exits 0.
pub fn run_status(cmd: &mut Command) -> Result<bool, String> {
    step(&format!("$ {}", describe(cmd)));
    let status = cmd
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run `{}`: {e}", describe(cmd)))?;
    Ok(status.success())
}

/// Run a command that must succeed.
pub fn run_checked(cmd: &mut Command) -> Result<(), String> {
    if run_status(cmd)? {
        Ok(())
    } else {
        Err(format!("`{}` failed", describe(cmd)))
    }
}

/// Run a command and capture its output (nothing printed).
pub fn capture(cmd: &mut Command) -> Result<Output, String> {
    cmd.stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", describe(cmd)))
}

/// The first line of `program --version`, if the program runs.
pub fn version_of(program: &str, path_env: &OsString) -> Option<String> {
    let out = Command::new(program)
        .arg("--version")
        .env("PATH", path_env)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().next().map(|l| l.trim().to_string())
}

/// PATH with `dirs` put first.
pub fn path_with(dirs: &[PathBuf]) -> OsString {
    let mut all: Vec<PathBuf> = dirs.to_vec();
    if let Some(p) = std::env::var_os("PATH") {
        all.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(all).unwrap_or_else(|_| std::env::var_os("PATH").unwrap_or_default())
}

/// Milliseconds since `t`.
pub fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// The median of a non-empty list (mean of the two middle values for an even count).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// The target directory cargo builds into (CARGO_TARGET_DIR honoured).
pub fn target_dir(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    if target.is_relative() { root.join(target) } else { target }
}

/// Build the release `sysmo` binary and return its path (for benchmarks).
pub fn build_release_sysmo(root: &Path) -> Result<PathBuf, String> {
    run_checked(Command::new(cargo()).current_dir(root).args(["build", "--release", "-p", "sysmo-cli"]))?;
    let exe = target_dir(root).join("release/sysmo");
    if exe.exists() { Ok(exe) } else { Err(format!("{} was not built", exe.display())) }
}

/// Build `sysmo` as the test suite does (the dev profile: the engine optimised, debug assertions
/// on), so that the corpus harness and the tests share one build, and return its path.
pub fn build_sysmo(root: &Path) -> Result<PathBuf, String> {
    run_checked(Command::new(cargo()).current_dir(root).args(["build", "-p", "sysmo-cli"]))?;
    let exe = target_dir(root).join("debug/sysmo");
    if exe.exists() { Ok(exe) } else { Err(format!("{} was not built", exe.display())) }
}

/// Run a command, echoing its output as it comes and keeping it for inspection.
pub fn run_tee(cmd: &mut Command) -> Result<(bool, String), String> {
    step(&format!("$ {:?}", cmd));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    fn pump<R: Read + Send + 'static>(r: R, to_stderr: bool) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut kept = String::new();
            for line in BufReader::new(r).lines().map_while(Result::ok) {
                if to_stderr {
                    eprintln!("{line}");
                } else {
                    let _ = writeln!(std::io::stdout(), "{line}");
                }
                kept.push_str(&line);
                kept.push('\n');
            }
            kept
        })
    }
    let out = pump(child.stdout.take().ok_or("no stdout")?, false);
    let err = pump(child.stderr.take().ok_or("no stderr")?, true);
    let status = child.wait().map_err(|e| e.to_string())?;
    let mut text = out.join().unwrap_or_default();
    text.push_str(&err.join().unwrap_or_default());
    Ok((status.success(), text))
}

/// The line of a failed command's output that says why: the first `error` or panic, or else
/// the last line; at most 300 characters.
pub fn first_cause(output: &str) -> String {
    let lines: Vec<&str> = output.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let found = lines.iter().find(|l| {
        l.starts_with("error") || l.contains("panicked at") || l.contains("No space left") || l.contains("ERROR")
    });
    let line = found.or(lines.last()).copied().unwrap_or("(no output)");
    line.chars().take(300).collect()
}

/// The cargo that runs us (so the same toolchain builds everything).
pub fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Run one of the commands that live in `xtask/engine` (`mutate`, `traces`) with inherited
/// stdio, through cargo so that it is built first (in the dev profile, with the workspace's
/// other crates).
pub fn run_engine_command(root: &Path, args: &[String]) -> Result<bool, String> {
    let mut cmd = Command::new(cargo());
    cmd.current_dir(root).args(["run", "--quiet", "--package", "xtask-engine", "--"]).args(args);
    run_status(&mut cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn first_cause_is_the_first_error_or_panic_else_the_last_line() {
        let build = "   Compiling web v0.1.0\nerror[E0308]: mismatched types\n  --> a.rs:1:1\nerror: could not compile `web`\n";
        assert_eq!(first_cause(build), "error[E0308]: mismatched types");
        let panic = "  1: foo\nthread 'main' panicked at src/x.rs:3:5:\nboom\n";
        assert_eq!(first_cause(panic), "thread 'main' panicked at src/x.rs:3:5:");
        assert_eq!(first_cause("one\n two \n\n"), "two");
        assert_eq!(first_cause(""), "(no output)");
        assert_eq!(first_cause(&"x".repeat(400)).len(), 300);
    }

    #[test]
    fn root_has_workspace_manifest() {
        let text = std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
        assert!(text.contains("[workspace]"));
    }
}
