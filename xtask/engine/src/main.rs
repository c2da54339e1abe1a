//! The project commands that need the engine or the task systems, run by `cargo xtask` (which
//! spawns this binary through cargo, so that xtask itself depends on none of them):
//!
//! - `mutate --task ID|all [--json] [--limit SECONDS]`: mutants of the task reference models,
//!   each graded (see [`mutate`]);
//! - `traces [--check]`: regenerate `traces/<task>/*` from the task systems, or compare.

mod equiv;
mod mutate;
mod traces;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = dir.ancestors().nth(2).map(Path::to_path_buf).unwrap_or(dir);
    let result = match args.first().map(String::as_str) {
        Some("mutate") => mutate::mutate_command(&args[1..]),
        Some("traces") => traces::traces_command(&root, &args[1..]),
        _ => Err("usage: xtask-engine mutate --task ID|all [--json] [--limit SECONDS] | traces [--check]".to_string()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}
