//! SysMo Playground in the browser. This first page is an editor: type a TLA+ module and see
//! the front end's diagnostics and the syntax score, recomputed on every input.
//!
//! The page is a client of the engine through a small view model ([`EditorView`]), which is
//! plain data and is tested on its own (natively and in wasm).

use tla_sema::NoLoader;
use tla_syntax::diag::to_json;
use tla_syntax::{Severity, SourceMap};
use yew::prelude::*;

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
    let mut sources = SourceMap::new();
    let root = sources.add(file_name_for(text), text);
    let analysis = tla_sema::analyze(&mut sources, root, &NoLoader);
    let diagnostics = analysis
        .diagnostics
        .iter()
        .map(|d| {
            let j = to_json(&sources, d);
            DiagnosticRow { code: j.code, severity: j.severity, line: j.line, column: j.column, message: j.message }
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

fn severity_class(s: Severity) -> &'static str {
    match s {
        Severity::Error => "diagnostic error",
        Severity::Warning => "diagnostic warning",
        Severity::Note => "diagnostic note",
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let text = use_state(|| SAMPLE_MODULE.to_string());
    let view = use_memo((*text).clone(), |t| analyze_text(t));
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            text.set(area.value());
        })
    };
    let status = if view.clean { "clean" } else { "errors" };
    html! {
        <main>
            <h1>{ "SysMo Playground" }</h1>
            <label for="editor">{ "TLA+ module" }</label>
            <textarea id="editor" spellcheck="false" rows="24" cols="90"
                value={(*text).clone()} {oninput} />
            <section id="summary" data-status={status}>
                <span id="score">{ format!("syntax score {:.4}", view.syntax_score) }</span>
                { " · " }
                <span id="definitions">
                    { format!("{} of {} definitions parse", view.definitions_parsed, view.definitions_total) }
                </span>
            </section>
            <ul id="diagnostics">
                { for view.diagnostics.iter().map(|d| html! {
                    <li class={severity_class(d.severity)} data-code={d.code.clone()}>{ d.summary() }</li>
                }) }
            </ul>
        </main>
    }
}
