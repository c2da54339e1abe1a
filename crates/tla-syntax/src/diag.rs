//! Diagnostics as data: a stable code, a severity, a primary span, secondary labels and hints.
//!
//! Rendering is a separate step ([`render_terminal`], [`to_json`]); nothing here prints.
//! Every code is listed in `docs/diagnostics.md`.

use crate::span::{SourceMap, Span};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A secondary place that helps explain a diagnostic ("first defined here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code such as `E0101`; see docs/diagnostics.md.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub labels: Vec<Label>,
    pub hints: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, severity: Severity::Error, message: message.into(), span, labels: vec![], hints: vec![] }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, severity: Severity::Warning, message: message.into(), span, labels: vec![], hints: vec![] }
    }
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into() });
        self
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The JSON shape of one diagnostic, as `sysmo parse --json` and the web editor use it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct JsonDiagnostic {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub hints: Vec<String>,
}

pub fn to_json(map: &SourceMap, d: &Diagnostic) -> JsonDiagnostic {
    let f = map.get(d.span.file);
    let (line, column) = f.line_col(d.span.start);
    let (end_line, end_column) = f.line_col(d.span.end);
    JsonDiagnostic {
        code: d.code.to_string(),
        severity: d.severity,
        message: d.message.clone(),
        file: f.name.clone(),
        line,
        column,
        end_line,
        end_column,
        hints: d.hints.clone(),
    }
}

/// `CODE: message (file:line:column)`: one diagnostic on one line, for logs, reports and
/// messages that quote a diagnostic in a sentence.
pub fn one_line(map: &SourceMap, d: &Diagnostic) -> String {
    let j = to_json(map, d);
    format!("{}: {} ({}:{}:{})", j.code, j.message, j.file, j.line, j.column)
}

/// Render diagnostics for a terminal (no colour when `color` is false).
pub fn render_terminal(map: &SourceMap, diags: &[Diagnostic], color: bool) -> String {
    use codespan_reporting::diagnostic as cr;
    use codespan_reporting::files::SimpleFiles;
    use codespan_reporting::term::{self, termcolor};

    let mut files = SimpleFiles::new();
    for (_, f) in map.files() {
        files.add(f.name.clone(), f.text.clone());
    }
    let config = term::Config::default();
    let mut out: Vec<u8> = Vec::new();
    {
        let mut writer: Box<dyn termcolor::WriteColor> = if color {
            Box::new(termcolor::Ansi::new(&mut out))
        } else {
            Box::new(termcolor::NoColor::new(&mut out))
        };
        for d in diags {
            let sev = match d.severity {
                Severity::Error => cr::Severity::Error,
                Severity::Warning => cr::Severity::Warning,
                Severity::Note => cr::Severity::Note,
            };
            let fid = d.span.file.0 as usize;
            let mut labels =
                vec![cr::Label::primary(fid, d.span.start as usize..d.span.end as usize)];
            for l in &d.labels {
                labels.push(
                    cr::Label::secondary(l.span.file.0 as usize, l.span.start as usize..l.span.end as usize)
                        .with_message(l.message.clone()),
                );
            }
            let cd = cr::Diagnostic::new(sev)
                .with_code(d.code)
                .with_message(d.message.clone())
                .with_labels(labels)
                .with_notes(d.hints.iter().map(|h| format!("help: {h}")).collect());
            let _ = term::emit(&mut writer, &config, &files, &cd);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
