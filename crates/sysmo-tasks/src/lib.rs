//! The tasks, embedded: each task folder's `task.toml`, invariants, reference model, notes and
//! the traces its system produced, compiled into the binary by `build.rs`. The web app (which
//! has no file system) and `sysmo grade --task <id>` (from any directory) read them from here,
//! and so they read a task opened from a pack while they run ([`open_pack`]).
//!
//! No I/O at run time; builds for `wasm32-unknown-unknown`.

#![forbid(unsafe_code)]

pub mod prompt;

use std::sync::{Mutex, OnceLock};
use sysmo_task_format::pack::Pack;

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
    /// The traces of its bug switch (task.toml's `bug_traces`), as `traces`.
    pub bug_traces: &'static [(&'static str, &'static str)],
    /// (path from the repository root, e.g. `tasks/spin/src/lib.rs`, text): the system's code
    /// that produced the traces (the folder of the traces' `source`, without the harness
    /// `workload.rs`), sorted.
    pub code: &'static [(&'static str, &'static str)],
    /// The system's behaviour graph (`traces/<id>/system-graph.ndjson.gz`), gzipped, when the
    /// task has one: see [`TaskFiles::system_graph`].
    pub graph: Option<&'static [u8]>,
    /// The graph unpacked, on first use (a task opened from a pack has it unpacked already).
    pub graph_text: OnceLock<Option<String>>,
    /// The pack's JSON, for a task opened from a pack ([`open_pack`]); `None` for a built-in one.
    pub pack: Option<&'static str>,
    /// That pack's content hash ([`Pack::content_hash`]).
    pub pack_hash: Option<&'static str>,
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

impl TaskFiles {
    /// The system's behaviour graph (NDJSON, `docs/system-graph.md`), when the task has one.
    pub fn system_graph(&self) -> Option<&str> {
        self.graph_text.get_or_init(|| self.graph.map(gunzip)).as_deref()
    }

    /// The content hash of the pack the task was opened from ([`Pack::content_hash`]).
    pub fn pack_hash(&self) -> Option<String> {
        self.pack_hash.map(str::to_string)
    }

    /// The task as a pack holds it: what `sysmo task pack` writes of its folder.
    pub fn to_pack(&self) -> Pack {
        let pairs = |list: &[(&str, &str)]| list.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect::<std::collections::BTreeMap<_, _>>();
        let mut pack = Pack::new();
        pack.files = pairs(self.files);
        pack.traces = pairs(self.traces);
        pack.traces.extend(pairs(self.bug_traces));
        pack.code = pairs(self.code);
        pack.graph = self.system_graph().map(str::to_string);
        pack
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

/// Every built-in task, sorted by id.
pub fn tasks() -> &'static [TaskFiles] {
    &TASKS
}

/// Tasks opened from packs while the program runs, in the order opened ([`open_pack`]). Each
/// lives as long as the program, as the built-in ones do (a page opens a handful).
static OPENED: Mutex<Vec<&'static TaskFiles>> = Mutex::new(Vec::new());

fn opened_list() -> std::sync::MutexGuard<'static, Vec<&'static TaskFiles>> {
    OPENED.lock().unwrap_or_else(|e| e.into_inner())
}

/// The tasks opened from packs, in the order opened.
pub fn opened() -> Vec<&'static TaskFiles> {
    opened_list().clone()
}

/// The task with this id: a built-in one, or one opened from a pack.
pub fn task(id: &str) -> Option<&'static TaskFiles> {
    TASKS.iter().find(|t| t.id == id).or_else(|| opened_list().iter().find(|t| t.id == id).copied())
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn leak_pairs<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> &'static [(&'static str, &'static str)] {
    pairs.map(|(p, t)| (leak(p), leak(t))).collect::<Vec<_>>().leak()
}

/// Opens a task pack: its task joins [`task`] and [`opened`] under its task.toml's id (a pack
/// opened again with other content replaces the earlier one). A pack of a built-in task (a
/// course carries the tutorials, say) is that task when its content is the same. An error when
/// its task.toml does not read, or a built-in task has its id and other content.
pub fn open_pack(pack: &Pack) -> Result<&'static TaskFiles, String> {
    let toml = pack.task_toml()?;
    if let Some(built_in) = TASKS.iter().find(|t| t.id == toml.id) {
        return match first_difference(&built_in.to_pack(), pack) {
            None => Ok(built_in),
            Some(what) => Err(format!("the pack's task `{}` has the id of a built-in task, and differs from it ({what})", toml.id)),
        };
    }
    let json = pack.to_json();
    if let Some(same) = opened_with(&json) {
        return Ok(same);
    }
    let graph_text = OnceLock::new();
    let _ = graph_text.set(pack.graph.clone());
    let files: &'static TaskFiles = Box::leak(Box::new(TaskFiles {
        id: leak(&toml.id),
        files: leak_pairs(pack.files.iter().map(|(p, t)| (p.as_str(), t.as_str()))),
        traces: leak_pairs(pack.traces_in(&toml.traces).into_iter()),
        bug_traces: leak_pairs(pack.traces_in(&toml.bug_traces).into_iter()),
        code: leak_pairs(pack.code.iter().map(|(p, t)| (p.as_str(), t.as_str()))),
        graph: None,
        graph_text,
        pack_hash: Some(leak(&sysmo_task_format::pack::hash_of_json(&json))),
        pack: Some(leak(&json)),
    }));
    let mut list = opened_list();
    list.retain(|t| t.id != files.id);
    list.push(files);
    Ok(files)
}

/// The task opened from the pack whose JSON is `json`, if one was.
fn opened_with(json: &str) -> Option<&'static TaskFiles> {
    opened_list().iter().find(|t| t.pack == Some(json)).copied()
}

/// Opens a task pack from its JSON ([`Pack::to_json`]), as [`open_pack`]; a pack opened already
/// is found without reading it again.
pub fn open_pack_json(json: &str) -> Result<&'static TaskFiles, String> {
    match opened_with(json) {
        Some(t) => Ok(t),
        None => open_pack(&Pack::from_json(json)?),
    }
}

/// Closes the task opened from a pack with this id: it leaves [`task`] and [`opened`]. Returns
/// whether one was open (a built-in task is never closed).
pub fn close(id: &str) -> bool {
    let mut list = opened_list();
    let before = list.len();
    list.retain(|t| t.id != id);
    list.len() < before
}

/// The first file in which two packs differ, named; `None` when they are the same.
fn first_difference(a: &Pack, b: &Pack) -> Option<String> {
    for (what, x, y) in [("file", &a.files, &b.files), ("trace", &a.traces, &b.traces), ("code file", &a.code, &b.code)] {
        if let Some(path) = x.keys().chain(y.keys()).find(|p| x.get(*p) != y.get(*p)) {
            return Some(format!("{what} {path}"));
        }
    }
    (a.graph != b.graph).then(|| "the system graph".to_string())
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

    /// A pack of the built-in task `id`, renamed `new_id`.
    fn pack_of(id: &str, new_id: &str) -> Pack {
        let mut p = task(id).unwrap().to_pack();
        let toml = p.files["task.toml"].replacen(&format!("id = \"{id}\""), &format!("id = \"{new_id}\""), 1);
        p.files.insert("task.toml".into(), toml);
        p
    }

    #[test]
    fn a_task_opened_from_a_pack_is_found_as_a_built_in_one() {
        let pack = pack_of("counter", "my-counter");
        let first = open_pack(&pack).unwrap();
        assert_eq!(first.id, "my-counter");
        assert!(std::ptr::eq(task("my-counter").unwrap(), first));
        assert_eq!(first.traces.len(), task("counter").unwrap().traces.len());
        assert_eq!(first.system_graph(), task("counter").unwrap().system_graph());
        assert_eq!(first.pack_hash(), Some(pack.content_hash()));
        assert!(task("counter").unwrap().pack.is_none());
        // The same pack again is the same task; another version replaces it.
        assert!(std::ptr::eq(open_pack(&pack).unwrap(), first));
        let mut newer = pack.clone();
        newer.code.insert("code/extra.py".into(), "pass\n".into());
        let replaced = open_pack(&newer).unwrap();
        assert!(!std::ptr::eq(replaced, first));
        assert!(std::ptr::eq(task("my-counter").unwrap(), replaced));
        assert_eq!(super::opened().iter().filter(|t| t.id == "my-counter").count(), 1);
        // The JSON of a pack opened already finds its task.
        assert!(std::ptr::eq(open_pack_json(&newer.to_json()).unwrap(), replaced));
        // A pack of a built-in task is that task when it is the same, and refused when not.
        let same = task("counter").unwrap().to_pack();
        assert!(std::ptr::eq(open_pack(&same).unwrap(), task("counter").unwrap()));
        let mut other = same.clone();
        other.files.insert("reference/counter.tla".into(), "changed".into());
        let err = open_pack(&other).unwrap_err();
        assert_eq!(err, "the pack's task `counter` has the id of a built-in task, and differs from it (file reference/counter.tla)");
        assert!(task("counter").unwrap().pack_hash().is_none());
        // Closed, it is gone; a built-in task is never closed.
        assert!(close("my-counter") && task("my-counter").is_none() && !close("my-counter"));
        assert!(!close("counter") && task("counter").is_some());
    }

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
