//! What a model may ask of the program that runs the check: a clock (`TLCGet("duration")`,
//! `JavaTime`),
//! and files and processes, for the
//! library operators that TLC runs as Java with I/O (IOUtils' `IOExec`, Json's
//! `JsonSerialize` and `JsonDeserialize`, CSV's `CSVWrite` and `CSVRead`, ...).
//!
//! Architecture invariant: the engine does no I/O. A front end that may touch the machine
//! gives a [`Host`] (`sysmo check` and `sysmo simulate` do, as TLC would run those operators
//! for the user's own model); one that must not gives none, and those operators are then an
//! error that says so: the web playground has no files, and the grader never runs what a
//! model asks it to run.

/// Files and processes, as the program that runs the check provides them.
pub trait Host: Send + Sync {
    /// The text of the file at `path`; `Ok(None)` when there is no such file.
    fn read_file(&self, path: &str) -> Result<Option<String>, String>;
    /// Write `text` to the file at `path`, replacing it or appending to it; with
    /// `make_folders`, make the folders above it first (Json's operators do, CSV's do not).
    fn write_file(&self, path: &str, text: &str, append: bool, make_folders: bool) -> Result<(), String>;
    /// Run the program `command[0]` with the arguments `command[1..]`, `env` added to the
    /// environment, and wait for it.
    fn exec(&self, command: &[String], env: &[(String, String)]) -> Result<Exec, String>;
    /// Whole seconds since the run started, for `TLCGet("duration")`; `None`: no clock.
    fn seconds_since_start(&self) -> Option<u64> {
        None
    }
    /// Seconds since 1970-01-01 UTC, for TLC's `JavaTime`; `None`: no clock.
    fn unix_seconds(&self) -> Option<u64> {
        None
    }
}

/// What a process that ran gave back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exec {
    pub exit: i32,
    pub stdout: String,
    pub stderr: String,
}

/// A host that keeps files in memory and runs no process: for tests, and for a front end that
/// wants files without a disk.
#[derive(Default)]
pub struct MemoryHost {
    files: std::sync::Mutex<std::collections::BTreeMap<String, String>>,
}

impl MemoryHost {
    /// The files written so far, by path.
    pub fn files(&self) -> std::collections::BTreeMap<String, String> {
        self.files.lock().map(|f| f.clone()).unwrap_or_default()
    }
    /// Put a file in place.
    pub fn put(&self, path: &str, text: &str) {
        if let Ok(mut f) = self.files.lock() {
            f.insert(path.to_string(), text.to_string());
        }
    }
}

impl Host for MemoryHost {
    fn read_file(&self, path: &str) -> Result<Option<String>, String> {
        Ok(self.files.lock().map_err(|_| "the file table is poisoned".to_string())?.get(path).cloned())
    }
    fn write_file(&self, path: &str, text: &str, append: bool, _make_folders: bool) -> Result<(), String> {
        let mut f = self.files.lock().map_err(|_| "the file table is poisoned".to_string())?;
        let e = f.entry(path.to_string()).or_default();
        if !append {
            e.clear();
        }
        e.push_str(text);
        Ok(())
    }
    fn exec(&self, command: &[String], _env: &[(String, String)]) -> Result<Exec, String> {
        Err(format!("cannot run `{}`: this host runs no process", command.join(" ")))
    }
}
