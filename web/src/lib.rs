//! SysMo Playground in the browser: a gallery of tasks, each task's description, code, traces,
//! invariants and prompt, an editor checked as you type, and grading in a Web Worker with a
//! scorecard.
//!
//! The page is a client of the engine through small view models, plain data tested on their own
//! (natively and in wasm): [`EditorView`] for the editor, [`catalog`] for what a task shows,
//! [`grading`] for the worker's messages and the scorecard. `src/app.rs` renders them
//! ([`bug_run`]: a task's bug model checked and its counterexample played);
//! `src/main.rs` mounts the page and `src/worker.rs` is the grading worker.

#![forbid(unsafe_code)]

pub mod bug_run;
pub mod catalog;
pub mod check_bench;
pub mod code_editor;
pub mod exercises;
pub mod grading;
pub mod llm;
pub mod packs;
pub mod player;
pub mod progress;
pub mod share;
mod app;

pub use app::App;

use tla_check::load::Analyzed;
use tla_sema::Library;
use tla_syntax::diag::to_json;
use tla_syntax::Severity;

/// The module the editor starts with.
pub const SAMPLE_MODULE: &str = "\
---- MODULE HourClock ----
EXTENDS Naturals
VARIABLE hr

Init == hr \\in 1..12
Next == hr' = IF hr = 12 THEN 1 ELSE hr + 1
Spec == Init /\\ [][Next]_hr
====
";

/// One diagnostic as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagnosticRow {
    pub code: String,
    pub severity: Severity,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The byte range `[start, end)` in the text, when the diagnostic is in the text itself.
    pub span: Option<(u32, u32)>,
    pub hints: Vec<String>,
}

impl DiagnosticRow {
    /// `E0101 3:5 message`, the text of one row.
    pub fn summary(&self) -> String {
        format!("{} {}:{} {}", self.code, self.line, self.column, self.message)
    }
}

/// What the editor shows for one text.
#[derive(Clone, Debug, PartialEq)]
pub struct EditorView {
    pub diagnostics: Vec<DiagnosticRow>,
    pub clean: bool,
    pub syntax_score: f64,
    pub definitions_total: usize,
    pub definitions_parsed: usize,
}

/// The file name the editor's text stands for: `<Name>.tla` after the first `MODULE Name`
/// (SANY wants a module's file named after it), else `Main.tla`.
pub fn file_name_for(text: &str) -> String {
    let mut words = text.split(|c: char| !(c.is_alphanumeric() || c == '_'));
    while let Some(w) = words.next() {
        if w == "MODULE" {
            if let Some(name) = words.find(|w| !w.is_empty()) {
                return format!("{name}.tla");
            }
        }
    }
    "Main.tla".to_string()
}

/// Run the front end on one module's text (no other files: only built-in modules resolve).
pub fn analyze_text(text: &str) -> EditorView {
    let Analyzed { sources, root, analysis } = Analyzed::new(file_name_for(text), text, &Library::new());
    let diagnostics = analysis
        .diagnostics
        .iter()
        .map(|d| {
            let j = to_json(&sources, d);
            let span = (d.span.file == root).then_some((d.span.start, d.span.end));
            DiagnosticRow {
                code: j.code,
                severity: j.severity,
                line: j.line,
                column: j.column,
                message: j.message,
                span,
                hints: j.hints,
            }
        })
        .collect();
    EditorView {
        diagnostics,
        clean: !analysis.has_errors(),
        syntax_score: analysis.score.score,
        definitions_total: analysis.score.total,
        definitions_parsed: analysis.score.parsed,
    }
}

pub(crate) fn severity_class(s: Severity) -> &'static str {
    match s {
        Severity::Error => "diagnostic error",
        Severity::Warning => "diagnostic warning",
        Severity::Note => "diagnostic note",
    }
}
