//! TLA+ front end, part one: source map, diagnostics, a lexer and a precedence-climbing parser
//! (with TLA+'s bullet-list column rule) producing the AST, an S-expression [`dump`] of it,
//! and TLC's `.cfg` language.
//!
//! Architecture invariant: parsing never panics and never stops at the first error. A module
//! is split into its top-level units and each is parsed on its own, so one bad definition
//! yields one [`ast::Unit::Error`] and a diagnostic, and the other units are still there.

pub mod ast;
pub mod cfg;
mod cfg_parser;
pub mod diag;
mod dump;
mod lexer;
pub mod ops;
mod parser;
pub mod span;

pub use diag::{Diagnostic, Label, Severity};
pub use dump::{dump, dump_expr};
pub use span::{FileId, SourceFile, SourceMap, Span};

/// The result of parsing one file.
#[derive(Debug)]
pub struct ParseOutput {
    /// Every module found in the file, in order (the first is the file's main module).
    pub modules: Vec<ast::Module>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse a `.tla` file (text outside the modules is ignored, as SANY does).
pub fn parse_file(file: FileId, text: &str) -> ParseOutput {
    parser::parse_file(file, text)
}
