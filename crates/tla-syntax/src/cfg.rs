//! TLC's model configuration language (`.cfg` files).

use crate::ast::Ident;
use crate::diag::Diagnostic;
use crate::span::{FileId, Span};

/// A value written in a .cfg file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CfgValue {
    Int(i64),
    Str(String),
    Bool(bool),
    /// A bare identifier on the right of `=`: a model value.
    ModelValue(String),
    Set(Vec<CfgValue>),
}

#[derive(Clone, Debug)]
pub enum ConstRhs {
    /// `N = 3`, `Procs = {p1, p2}`
    Value(CfgValue, Span),
    /// `Op <- Def`
    Subst(Ident),
    /// `Op <- [Mod] Def`
    ModSubst { module: Ident, def: Ident },
}

#[derive(Clone, Debug)]
pub struct ConstAssign {
    pub name: Ident,
    /// `F(a, b) = ...` is not TLC syntax; operator constants are overridden with `<-`.
    pub rhs: ConstRhs,
    /// `N = [M] v` / `Op <- [M] Def`: the module whose constant or definition is meant
    /// (also given in [`ConstRhs::ModSubst`]); `None` for the spec's own module.
    pub module: Option<Ident>,
}

/// One parsed .cfg file. Lists keep the order of the file; repeated single-valued
/// keywords (INIT twice) are reported and the last one wins, as in TLC.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub specification: Option<Ident>,
    pub init: Option<Ident>,
    pub next: Option<Ident>,
    pub constants: Vec<ConstAssign>,
    pub invariants: Vec<Ident>,
    pub properties: Vec<Ident>,
    pub constraints: Vec<Ident>,
    pub action_constraints: Vec<Ident>,
    pub symmetry: Option<Ident>,
    pub view: Option<Ident>,
    pub alias: Option<Ident>,
    pub postcondition: Option<Ident>,
    pub check_deadlock: Option<bool>,
}

pub struct CfgOutput {
    pub config: Config,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse a .cfg file. Never fails: errors come back as diagnostics and the rest is kept.
pub fn parse_cfg(file: FileId, text: &str) -> CfgOutput {
    crate::cfg_parser::parse(file, text)
}
