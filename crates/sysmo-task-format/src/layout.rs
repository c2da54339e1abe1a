//! The files of a task folder that belong to the task (its system's crate sources do not): what
//! `sysmo-tasks` embeds (its build script includes this file) and what `sysmo task check` reads.

/// Top-level files of a task folder.
pub const TOP_FILES: &[&str] = &["task.toml", "invariants.cfg", "violations.cfg", "mapping.json", "NOTES.md", "PROVENANCE.md"];
/// The invariants module of a task folder is `<module>Invariants.tla`, named after the module.
pub const INVARIANTS_SUFFIX: &str = "Invariants.tla";
/// Sub-folders whose files belong to the task.
pub const SUB_DIRS: &[&str] = &["reference", "bug", "exercises"];
/// The system graph in a task's (first) traces folder, gzipped.
pub const GRAPH_FILE: &str = "system-graph.ndjson.gz";
