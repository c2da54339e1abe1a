//! The tasks, embedded: each task folder's `task.toml`, invariants, reference model, notes and
//! the traces its system produced, compiled into the binary by `build.rs`. The web app (which
//! has no file system) and `sysmo grade --task <id>` (from any directory) read them from here.
//!
//! No I/O at run time; builds for `wasm32-unknown-unknown`.

#![forbid(unsafe_code)]

pub mod prompt;

/// One task folder and its traces.
#[derive(Debug)]
pub struct TaskFiles {
    /// The folder's name, e.g. `spin`.
    pub id: &'static str,
    /// (path inside the task folder, text): `task.toml`, `<module>Invariants.tla`, `invariants.cfg`,
    /// `violations.cfg`, `NOTES.md`, `PROVENANCE.md`, `reference/<module>.tla`, ... sorted by path.
    pub files: &'static [(&'static str, &'static str)],
    /// (path from the repository root, e.g. `traces/spin/pct-001.ndjson`, text), sorted.
    pub traces: &'static [(&'static str, &'static str)],
    /// (path from the repository root, e.g. `tasks/spin/src/lib.rs`, text): the system's code
    /// that produced the traces (the folder of the traces' `source`, without the harness
    /// `workload.rs`), sorted.
    pub code: &'static [(&'static str, &'static str)],
    /// The system's behaviour graph (`traces/<id>/system-graph.ndjson.gz`), gzipped, when the
    /// task has one: see [`TaskFiles::system_graph`].
    pub graph: Option<&'static [u8]>,
}

impl TaskFiles {
    /// The text of a file of the task folder.
    pub fn file(&self, path: &str) -> Option<&'static str> {
        self.files.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
    }

    /// The invariants module, `<module>Invariants.tla`: (file name, text).
    pub fn invariants_tla(&self) -> Option<(&'static str, &'static str)> {
        self.files.iter().find(|(p, _)| !p.contains('/') && p.ends_with("Invariants.tla")).copied()
    }

    pub fn task_toml(&self) -> &'static str {
        self.file("task.toml").unwrap_or("")
    }

    /// The files of a sub-folder (`reference`, `bug`), as (file name, text).
    pub fn folder(&self, dir: &str) -> Vec<(&'static str, &'static str)> {
        self.files
            .iter()
            .filter_map(|(p, t)| p.strip_prefix(dir).and_then(|r| r.strip_prefix('/')).map(|n| (n, *t)))
            .collect()
    }
}

include!(concat!(env!("OUT_DIR"), "/tasks.rs"));

/// The system graphs, unpacked on first use (by task, in [`TASKS`]' order).
static GRAPHS: std::sync::OnceLock<Vec<Option<String>>> = std::sync::OnceLock::new();

impl TaskFiles {
    /// The system's behaviour graph (NDJSON, `docs/system-graph.md`), when the task has one.
    pub fn system_graph(&self) -> Option<&'static str> {
        let all = GRAPHS.get_or_init(|| TASKS.iter().map(|t| t.graph.map(gunzip)).collect());
        let i = TASKS.iter().position(|t| t.id == self.id)?;
        all[i].as_deref()
    }
}

/// The text of gzipped bytes (the build embeds only files `cargo xtask traces` wrote, which a
/// test reads back, so a failure here is a broken build, shown as the graph's text).
fn gunzip(bytes: &[u8]) -> String {
    use std::io::Read as _;
    let mut out = String::new();
    match flate2::read::GzDecoder::new(bytes).read_to_string(&mut out) {
        Ok(_) => out,
        Err(e) => format!("the embedded system graph cannot be unpacked: {e}"),
    }
}

/// Every task, sorted by id.
pub fn tasks() -> &'static [TaskFiles] {
    TASKS
}

/// The task with this id.
pub fn task(id: &str) -> Option<&'static TaskFiles> {
    TASKS.iter().find(|t| t.id == id)
}

impl TaskFiles {
    /// The task's prompt ([`prompt::prompt`] over its `task.toml` and its code).
    pub fn prompt(&self) -> Result<String, String> {
        let code: Vec<(String, String)> = self.code.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        prompt::prompt(self.task_toml(), &code)
    }

    /// The task's prompt without the action list ([`prompt::Hints::None`], over its traces).
    pub fn prompt_no_hints(&self) -> Result<String, String> {
        let code: Vec<(String, String)> = self.code.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        prompt::prompt_with(self.task_toml(), &code, prompt::Hints::None { traces: self.traces })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_has_its_files_and_traces() {
        assert!(!tasks().is_empty());
        for t in tasks() {
            assert!(t.task_toml().contains(&format!("id = \"{}\"", t.id)), "{}", t.id);
            assert!(t.invariants_tla().is_some(), "{} has no <module>Invariants.tla", t.id);
            assert!(t.code.iter().any(|(p, _)| p.ends_with("/lib.rs")), "{} has no code", t.id);
            assert!(t.code.iter().all(|(p, _)| !p.ends_with("workload.rs")), "{}: the harness is not code", t.id);
            assert!(t.folder("reference").iter().any(|(n, _)| n.ends_with(".tla")), "{} has no reference model", t.id);
            assert!(!t.traces.is_empty(), "{} has no traces", t.id);
        }
        for t in tasks() {
            let p = t.prompt().unwrap_or_else(|e| panic!("{}: {e}", t.id));
            assert!(p.starts_with(&format!("# Modeling task `{}`", t.id)), "{}", t.id);
            // The code is explained as what it is: threads with the recorder's hooks, or
            // processes on the simulated network.
            let hooks = t.code.iter().any(|(_, text)| text.contains("probe.step("));
            assert_eq!(p.contains("are the recorder's hooks"), hooks, "{}", t.id);
            assert_eq!(p.contains("seeded simulated network"), !hooks, "{}", t.id);
        }
        assert!(!task("spin").expect("the spin task").prompt().unwrap().contains("seeded simulated network"));
        assert!(task("dqueue").expect("the dqueue task").prompt().unwrap().contains("seeded simulated network"));
        // A distributed system's code includes how its messages travel; a thread-based one's
        // does not.
        let network = |id: &str| task(id).expect(id).code.iter().any(|(p, _)| *p == "tasks/simnet/src/network.rs");
        assert!(network("dqueue") && network("etcd") && network("locksvc") && network("raftkvs") && !network("spin"));
        let spin = task("spin").expect("the spin task");
        assert!(spin.traces.iter().all(|(p, _)| p.starts_with("traces/spin/")));
    }
}
