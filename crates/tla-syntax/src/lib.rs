//! TLA+ front end, part one: source map, diagnostics, a lexer and a precedence-climbing parser
//! (with TLA+'s bullet-list column rule) producing the AST, an S-expression [`dump`] of it,
//! and TLC's `.cfg` language.
//!
//! How pest is used: the tokens come from pest grammars, `src/tla.pest` for modules and
//! `src/cfg.pest` for configurations. Each grammar reads the whole input as a flat sequence
//! of tokens, comments and blanks (ordered choices encode the longest-match rules; nested
//! `(* *)` comments are counted on pest's stack, without recursion; any other character is a
//! token of its own that becomes a diagnostic), and the lexers turn pest's pairs into tokens
//! with byte spans, lines, columns and literal values. The structure (modules, units,
//! expressions, `.cfg` sections) is parsed from those tokens by hand-written parsers: TLA+'s
//! `/\` and `\/` bullet lists are delimited by the columns of their bullets, which a PEG
//! cannot compare, and precedence climbing over TLA+'s precedence ranges reports conflicts that
//! a grammar would silently resolve. pest's types never leave the lexer modules.
//!
//! Architecture invariant: parsing never panics and never stops at the first error. A module
//! is split into its top-level units and each is parsed on its own, so one bad definition
//! yields one [`ast::Unit::Error`] and a diagnostic, and the other units are still there.

#![forbid(unsafe_code)]

// The code pest_derive generates without pest's `std` feature names `crate::alloc`.
extern crate alloc;

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
