//! `sysmo parse`: run the front end (`tla_sema::analyze`) on files and report.

use crate::args::ParseArgs;
use crate::{EXIT_INPUT_ERRORS, EXIT_USAGE};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tla_check::load::Analyzed;
use tla_sema::{Analysis, Library, LoadedModule};
use tla_syntax::diag::{render_terminal, to_json, JsonDiagnostic};
use tla_syntax::SourceMap;

/// The modules `<Name>.tla` of one directory (the directory of the file being parsed), read
/// when asked for. The library asks only for identifiers, so no name walks out of `dir`.
pub fn folder(dir: PathBuf) -> Library {
    Library::reading(move |name| {
        let path = dir.join(format!("{name}.tla"));
        let text = std::fs::read_to_string(&path).ok()?;
        Some(LoadedModule { file_name: path.display().to_string(), text })
    })
}

/// The `--json` report of one file.
#[derive(Serialize, Debug)]
pub struct ParseReport {
    pub ok: bool,
    pub file: String,
    pub syntax_score: f64,
    pub definitions: Definitions,
    pub diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Serialize, Debug)]
pub struct Definitions {
    pub total: usize,
    pub parsed: usize,
}

/// One file analysed: the source map (for rendering), the analysis and the time it took.
pub struct FileResult {
    pub sources: SourceMap,
    pub analysis: Analysis,
    pub elapsed: Duration,
}

/// The directory a file is in (`.` for a bare file name).
pub fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

pub fn analyze_path(path: &Path, text: String) -> FileResult {
    let library = folder(directory_of(path));
    let start = Instant::now();
    let Analyzed { sources, analysis, .. } = Analyzed::new(path.display().to_string(), text, &library);
    let elapsed = start.elapsed();
    FileResult { sources, analysis, elapsed }
}

pub fn report(file: &Path, r: &FileResult) -> ParseReport {
    ParseReport {
        ok: !r.analysis.has_errors(),
        file: file.display().to_string(),
        syntax_score: r.analysis.score.score,
        definitions: Definitions { total: r.analysis.score.total, parsed: r.analysis.score.parsed },
        diagnostics: r.analysis.diagnostics.iter().map(|d| to_json(&r.sources, d)).collect(),
    }
}

pub fn run(args: &ParseArgs) -> ExitCode {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut any_errors = false;
    let mut unreadable = false;
    let stdout = std::io::stdout();
    for path in &args.files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                unreadable = true;
                continue;
            }
        };
        let r = analyze_path(path, text);
        if args.timing {
            eprintln!(
                "timing: {} parse+check {:.3} ms",
                path.display(),
                r.elapsed.as_secs_f64() * 1000.0
            );
        }
        any_errors |= r.analysis.has_errors();
        if args.json {
            let line = serde_json::to_string(&report(path, &r)).unwrap_or_else(|e| {
                format!("{{\"ok\":false,\"error\":\"cannot serialise report: {e}\"}}")
            });
            let _ = writeln!(stdout.lock(), "{line}");
        } else if !r.analysis.diagnostics.is_empty() {
            eprint!("{}", render_terminal(&r.sources, &r.analysis.diagnostics, color));
        }
        // The process ends soon: skip freeing the syntax trees (a large module's drop costs
        // a noticeable share of the run), as compilers commonly do.
        std::mem::forget(r);
    }
    if unreadable {
        ExitCode::from(EXIT_USAGE)
    } else if any_errors {
        ExitCode::from(EXIT_INPUT_ERRORS)
    } else {
        ExitCode::SUCCESS
    }
}
