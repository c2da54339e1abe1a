//! The machine's files, processes and clock, for the I/O operators of the library modules
//! and `TLCGet("duration")`
//! (`tla_eval::host`). `sysmo check`, `simulate` and `replay` give them, as TLC does for the user's
//! own model; `sysmo grade` does not, so a graded model never touches the machine.

use std::io::Write;
use std::path::Path;

use tla_eval::host::{Exec, Host};

/// This process's files, programs and clock.
pub struct Machine {
    started: std::time::Instant,
}

impl Machine {
    /// The machine, its clock counting from now.
    pub fn new() -> Machine {
        Machine { started: std::time::Instant::now() }
    }
}

impl Host for Machine {
    fn seconds_since_start(&self) -> Option<u64> {
        Some(self.started.elapsed().as_secs())
    }

    fn unix_seconds(&self) -> Option<u64> {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok().map(|d| d.as_secs())
    }

    fn read_file(&self, path: &str) -> Result<Option<String>, String> {
        match std::fs::read(path) {
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {path}: {e}")),
        }
    }

    fn write_file(&self, path: &str, text: &str, append: bool, make_folders: bool) -> Result<(), String> {
        if make_folders && let Some(parent) = Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot make the folder {}: {e}", parent.display()))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        file.write_all(text.as_bytes()).map_err(|e| format!("cannot write {path}: {e}"))
    }

    fn exec(&self, command: &[String], env: &[(String, String)]) -> Result<Exec, String> {
        let (program, args) = command.split_first().ok_or("the command is empty")?;
        let out = std::process::Command::new(program)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot run `{program}`: {e}"))?;
        Ok(Exec {
            // A process killed by a signal has no exit code; Java reports 128 + the signal.
            exit: out.status.code().unwrap_or_else(|| {
                #[cfg(unix)]
                {
                    use std::os::unix::process::ExitStatusExt;
                    128 + out.status.signal().unwrap_or(0)
                }
                #[cfg(not(unix))]
                {
                    -1
                }
            }),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}
