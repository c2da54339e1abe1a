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
    let analyzed = Analyzed::new(file_name_for(text), text, &Library::new());
    view_of(&analyzed, Some)
}

/// Run the front end on the definitions a `write-invariant` exercise asks for (not a module):
/// checked as the grader checks them, inside the task's invariants module `invariants`
/// (`<module>Invariants.tla`, which extends the task's `module`, here `model`), so that the
/// pinned names resolve. Only the diagnostics in the definitions are kept, placed in them.
pub fn analyze_definitions(definitions: &str, invariants: (&str, &str), module: &str, model: &str) -> EditorView {
    let (file, text) = invariants;
    let (wrapped, offset) = match sysmo_grade::exercise::with_definitions_at(text, definitions) {
        Ok(w) => w,
        // A task whose invariants module has no end line: check the text alone.
        Err(_) => return analyze_text(definitions),
    };
    let library = Library::new().with(module, format!("{module}.tla"), model);
    let analyzed = Analyzed::new(file, wrapped, &library);
    let (from, to) = (offset as u32, (offset + definitions.trim_end().len()) as u32);
    // A diagnostic after the definitions (an expression cut short, found at the module's end
    // line) is placed at their end; one before them (in the task's own module) is listed only.
    let mut view = view_of(&analyzed, |(start, end)| (start >= from).then(|| (start.min(to) - from, end.clamp(start.min(to), to) - from)));
    // Lines and columns in the definitions.
    for d in &mut view.diagnostics {
        if let Some((start, _)) = d.span {
            let before = &definitions[..(start as usize).min(definitions.len())];
            d.line = before.matches('\n').count() as u32 + 1;
            d.column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
        }
    }
    view
}

/// The editor's view of an analysis: its diagnostics, those in the root module placed in the
/// editor's text by `place` (a byte range in the root's text to one in the editor's; `None`
/// lists it without a place, as a diagnostic of another module is).
fn view_of(analyzed: &Analyzed, place: impl Fn((u32, u32)) -> Option<(u32, u32)>) -> EditorView {
    let Analyzed { sources, root, analysis } = analyzed;
    let diagnostics = analysis
        .diagnostics
        .iter()
        .map(|d| {
            let j = to_json(sources, d);
            let span = (d.span.file == *root).then(|| place((d.span.start, d.span.end))).flatten();
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
