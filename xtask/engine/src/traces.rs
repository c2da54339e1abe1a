//! `cargo xtask traces [--check]`: regenerate `traces/<task>/*.ndjson` from the task systems
//! (or, with `--check`, only compare them with the files on disk).

use std::path::Path;

pub fn traces_command(root: &Path, args: &[String]) -> Result<bool, String> {
    if args.iter().any(|a| a == "--check") {
        return task_traces::run(root, true);
    }
    run(root)
}

/// Regenerates the traces under `root/traces`.
pub fn run(root: &Path) -> Result<bool, String> {
    task_traces::run(root, false)
}
