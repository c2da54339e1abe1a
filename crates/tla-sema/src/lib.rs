//! TLA+ front end, part two: modules loaded and put in order, names resolved, arity and level
//! checked, at SANY's level. What SANY rejects is an error here; what SANY leaves to TLC is a
//! warning here.
//!
//! No I/O: other modules come from a [`Library`] that the caller fills.

#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use tla_syntax::cfg::{Config, ConstRhs};
use tla_syntax::{ast, Diagnostic, FileId, SourceMap, Span};

pub mod bundled;
mod subexpr;
mod unnamed;
pub mod levels;
pub mod names;
mod check;
pub mod diagnostics;
pub mod stdlib;
pub mod suggest;

use check::{Checker, ModuleEnv, ModuleSig, Sym, SymKind};
pub use diagnostics::UNKNOWN_NAME_CODES;
pub use levels::{ExprLevel, Level, LevelParam, Levels, Through};
pub use names::{Binder, Denotes, Names};

/// A module's text, found by name (beside the root file, in a task folder, in a browser tab).
#[derive(Clone, Debug)]
pub struct LoadedModule {
    /// The name to show in diagnostics, e.g. `specs/Foo.tla`.
    pub file_name: String,
    pub text: String,
}

/// The modules a model may use beyond the root file and the standard modules, found by
/// name: the one way every front end hands modules to [`analyze`].
///
/// - [`Library::new`]: none (a model on its own, as the web editor has it).
/// - [`Library::with`]: texts held in memory (a task's files, a test's modules).
/// - [`Library::reading`]: a look-up run on demand (the CLI reads `<Name>.tla` beside the
///   file). The crate does no I/O itself: the caller's function does.
///
/// Texts given with `with` are found first, then the look-up is asked.
#[derive(Default)]
pub struct Library {
    modules: Vec<(String, LoadedModule)>,
    read: Option<Box<dyn Fn(&str) -> Option<LoadedModule>>>,
}

impl Library {
    /// No module beyond the root file's and the standard ones.
    pub fn new() -> Library {
        Library::default()
    }

    /// Modules found by `read(name)` when asked for.
    pub fn reading(read: impl Fn(&str) -> Option<LoadedModule> + 'static) -> Library {
        Library { modules: Vec::new(), read: Some(Box::new(read)) }
    }

    /// The module `name`, shown as `file_name` in diagnostics, with its text.
    pub fn with(mut self, name: impl Into<String>, file_name: impl Into<String>, text: impl Into<String>) -> Library {
        self.modules.push((name.into(), LoadedModule { file_name: file_name.into(), text: text.into() }));
        self
    }

    /// The module called `name`, if the library has it. The look-up is asked only for
    /// identifiers, so a file reader given a module name never walks out of its folder.
    pub fn find(&self, name: &str) -> Option<LoadedModule> {
        if let Some((_, m)) = self.modules.iter().find(|(n, _)| n == name) {
            return Some(m.clone());
        }
        let identifier = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        self.read.as_ref().filter(|_| identifier).and_then(|read| read(name))
    }
}

/// SysMoBench's syntax score for the root module.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxScore {
    /// True when the root module and everything it uses has no error.
    pub clean: bool,
    /// Top-level definitions of the root module.
    pub total: usize,
    /// Those that parse and check on their own, unknown names stubbed.
    pub parsed: usize,
    /// 1.0 when clean, else 0.5 × parsed / total.
    pub score: f64,
}

/// What kind of thing a name in the root module's scope is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Constant,
    Variable,
    Operator,
    Function,
    Instance,
    Theorem,
}

/// A name visible at the end of the root module, with what the checker learned about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolInfo {
    pub name: String,
    pub kind: SymbolKind,
    pub arity: usize,
    /// SANY's level when every argument is a constant: 0 constant, 1 state, 2 action, 3 temporal.
    pub level: u8,
    /// The module that defines it (a standard module's name for built-in ones).
    pub module: String,
    /// Where it is defined (`None` for built-in standard modules).
    pub span: Option<Span>,
}

/// Everything the front end learned about a root file and the modules it uses.
pub struct Analysis {
    /// Every user module loaded (root file's modules and those found in the library), in
    /// dependency order: a module comes after every module it extends or instantiates.
    pub modules: Vec<ast::Module>,
    /// Index in `modules` of the root module (the first module of the root file).
    pub root: Option<usize>,
    /// Parse and semantic diagnostics of every file, in source order per file.
    pub diagnostics: Vec<Diagnostic>,
    pub score: SyntaxScore,
    /// Every name visible at the end of the root module (own, extended, instantiated), by name.
    pub root_scope: Vec<SymbolInfo>,
    /// The level of every expression of `modules`.
    pub levels: Levels,
    /// What every name of `modules` denotes (for `I!Op`, what `I` denotes).
    pub names: Names,
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }

    /// The root module's AST.
    pub fn root_module(&self) -> Option<&ast::Module> {
        self.root.map(|i| &self.modules[i])
    }

    /// A name visible in the root module.
    pub fn symbol(&self, name: &str) -> Option<&SymbolInfo> {
        self.root_scope.iter().find(|s| s.name == name)
    }
}

/// Loads, orders and checks modules; the [`ModuleEnv`] the checker asks for modules.
struct Env<'a> {
    sources: &'a mut SourceMap,
    library: &'a Library,
    /// User modules parsed but not yet checked, by name.
    available: HashMap<String, ast::Module>,
    /// Names already asked of the library.
    asked: HashSet<String>,
    sigs: HashMap<String, Rc<ModuleSig>>,
    in_progress: Vec<String>,
    ordered: Vec<ast::Module>,
    unit_codes: HashMap<String, Vec<Vec<&'static str>>>,
    scopes: HashMap<String, Vec<Sym>>,
    diags: Vec<Diagnostic>,
    /// The definitions subexpression names stand for, with the module each belongs to.
    subexpr_defs: Vec<(String, ast::OpDef)>,
    /// How each use of a subexpression name is rewritten, by its span.
    subexpr_uses: HashMap<Span, subexpr::Rewrite>,
    /// The level of every expression checked.
    levels: Levels,
    /// What every name checked denotes.
    names: Names,
}

impl Env<'_> {
    fn check_user_module(&mut self, m: ast::Module) -> Rc<ModuleSig> {
        let name = m.name.name.clone();
        self.in_progress.push(name.clone());
        let (res, diags) = Checker::new(self, &name).check_module(&m, vec![], HashMap::new());
        self.in_progress.pop();
        self.diags.extend(diags);
        self.unit_codes.insert(name.clone(), res.unit_codes);
        self.scopes.insert(name.clone(), res.scope);
        self.sigs.insert(name, res.sig.clone());
        self.ordered.push(m);
        res.sig
    }

    fn standard_sig(&mut self, name: &str) -> Option<Rc<ModuleSig>> {
        if let Some(s) = self.sigs.get(name) {
            return Some(s.clone());
        }
        let m = stdlib::standard_module(name)?;
        let sig = Rc::new(ModuleSig::standard(m, &mut |n| self.standard_sig(n)));
        self.sigs.insert(name.to_string(), sig.clone());
        Some(sig)
    }
}

impl ModuleEnv for Env<'_> {
    fn selectable(&self, module: &str, name: &str) -> Option<subexpr::Selectable> {
        let m = self.ordered.iter().find(|m| m.name.name == module)?;
        check::selectable_in(m, name).or_else(|| {
            // Defined by an earlier subexpression name (`Inv!1!2` after `Inv!1`).
            self.subexpr_defs.iter().find(|(m, d)| m == module && d.name.name == name).map(|(_, d)| subexpr::Selectable {
                name: name.to_string(),
                params: d.params.clone(),
                body: d.body.clone(),
            })
        })
    }

    fn scope_of(&self, module: &str) -> Option<Vec<Sym>> {
        self.scopes.get(module).cloned()
    }

    fn record_subexpression(&mut self, module: &str, def: ast::OpDef, use_at: Span, rewrite: subexpr::Rewrite) {
        if !self.subexpr_defs.iter().any(|(m, d)| m == module && d.name.name == def.name.name) {
            self.subexpr_defs.push((module.to_string(), def));
        }
        self.subexpr_uses.insert(use_at, rewrite);
    }

    fn levels(&mut self) -> &mut Levels {
        &mut self.levels
    }

    fn names(&mut self) -> &mut Names {
        &mut self.names
    }

    fn module_sig(&mut self, name: &str, at: Span) -> Option<Rc<ModuleSig>> {
        if let Some(pos) = self.in_progress.iter().position(|n| n == name) {
            let mut cycle: Vec<String> = self.in_progress[pos..].to_vec();
            cycle.push(name.to_string());
            self.diags.push(diagnostics::circular_modules(at, &cycle));
            return None;
        }
        if let Some(s) = self.sigs.get(name) {
            return Some(s.clone());
        }
        if let Some(m) = self.available.remove(name) {
            return Some(self.check_user_module(m));
        }
        if self.asked.insert(name.to_string()) {
            if let Some(lm) = self.library.find(name) {
                let file = self.sources.add(lm.file_name.clone(), lm.text.clone());
                let out = tla_syntax::parse_file(file, &lm.text);
                self.diags.extend(out.diagnostics);
                let mut found = None;
                for m in out.modules {
                    if m.name.name == name && found.is_none() {
                        found = Some(m);
                    } else {
                        self.available.entry(m.name.name.clone()).or_insert(m);
                    }
                }
                match found {
                    Some(m) => return Some(self.check_user_module(m)),
                    None => {
                        self.diags.push(diagnostics::module_name_mismatch(at, name, &lm.file_name));
                        return None;
                    }
                }
            }
        }
        if let Some(s) = self.standard_sig(name) {
            return Some(s);
        }
        if let Some((file_name, text)) = bundled::bundled_module(name)
            && self.asked.insert(format!("<library>{name}"))
        {
            let file = self.sources.add(file_name, text.to_string());
            let out = tla_syntax::parse_file(file, text);
            self.diags.extend(out.diagnostics);
            if let Some(m) = out.modules.into_iter().find(|m| m.name.name == name) {
                return Some(self.check_user_module(m));
            }
        }
        let mut names: Vec<&str> = stdlib::STANDARD_MODULES.iter().map(|m| m.name).chain(bundled::bundled_names()).collect();
        names.extend(self.available.keys().map(|k| k.as_str()));
        let suggestion = suggest::did_you_mean(name, names.into_iter());
        self.diags.push(diagnostics::module_not_found(at, name, suggestion));
        None
    }
}

fn symbol_info(s: &Sym) -> Option<SymbolInfo> {
    let kind = match s.kind {
        SymKind::Constant => SymbolKind::Constant,
        SymKind::Variable => SymbolKind::Variable,
        SymKind::Operator => SymbolKind::Operator,
        SymKind::Function => SymbolKind::Function,
        SymKind::Instance(_) => SymbolKind::Instance,
        SymKind::Theorem => SymbolKind::Theorem,
        _ => return None,
    };
    Some(SymbolInfo {
        name: s.name.clone(),
        kind,
        arity: s.params.len(),
        level: s.level,
        module: s.module.clone(),
        span: s.span,
    })
}

/// Whether a unit counts as a "definition" for the syntax score.
fn is_definition(u: &ast::Unit, sources: &SourceMap) -> bool {
    match u {
        ast::Unit::OpDef(_) | ast::Unit::FunDef(_) | ast::Unit::ModuleDef(_) => true,
        ast::Unit::Error(sp) => {
            let text = sources.snippet(*sp);
            let first = text.trim_start();
            let keyword = ["CONSTANT", "VARIABLE", "ASSUME", "THEOREM", "LEMMA", "EXTENDS", "RECURSIVE", "AXIOM"]
                .iter()
                .any(|k| first.starts_with(k));
            text.contains("==") && !keyword
        }
        _ => false,
    }
}

/// Parse and check the file `root` (already added to `sources`); other modules are loaded
/// from `library` and added to `sources`.
pub fn analyze(sources: &mut SourceMap, root: FileId, library: &Library) -> Analysis {
    let text = sources.get(root).text.clone();
    let out = tla_syntax::parse_file(root, &text);
    let parse_diags = out.diagnostics;
    let root_name = out.modules.first().map(|m| m.name.name.clone());
    let mut parse_diags = parse_diags;
    // SANY rejects a root file whose name is not its module's name, and so do we. Front ends
    // that hold a model without a file (the web editor, the grader) name it after its module.
    if let Some(m) = out.modules.first() {
        let file_name = sources.get(root).name.clone();
        let base = file_name.rsplit(['/', '\\']).next().unwrap_or(&file_name);
        if let Some(stem) = base.strip_suffix(".tla") {
            if stem != m.name.name {
                parse_diags.push(diagnostics::file_name_mismatch(m.name.span, &m.name.name, base));
            }
        }
    }
    let file_order: Vec<String> = out.modules.iter().map(|m| m.name.name.clone()).collect();
    let mut available = HashMap::new();
    for m in out.modules {
        available.entry(m.name.name.clone()).or_insert(m);
    }
    let mut env = Env {
        sources,
        library,
        available,
        asked: HashSet::new(),
        sigs: HashMap::new(),
        in_progress: vec![],
        ordered: vec![],
        unit_codes: HashMap::new(),
        scopes: HashMap::new(),
        diags: parse_diags,
        subexpr_defs: Vec::new(),
        subexpr_uses: HashMap::new(),
        levels: Levels::default(),
        names: Names::default(),
    };
    // The root first (it pulls in what it uses), then the file's other modules.
    for name in &file_order {
        if let Some(m) = env.available.remove(name) {
            env.check_user_module(m);
        }
    }
    let root_idx = root_name.as_ref().and_then(|n| env.ordered.iter().position(|m| &m.name.name == n));
    let mut diagnostics = std::mem::take(&mut env.diags);
    diagnostics.sort_by_key(|d| (d.span.file, d.span.start));
    diagnostics.dedup();

    let clean = root_idx.is_some() && !diagnostics.iter().any(|d| d.is_error());
    let mut total = 0;
    let mut parsed = 0;
    let mut root_scope = vec![];
    if let Some(ri) = root_idx {
        let m = &env.ordered[ri];
        let codes = env.unit_codes.get(&m.name.name).cloned().unwrap_or_default();
        for (i, u) in m.units.iter().enumerate() {
            // A unit that failed to parse may report the token that ended it ("expected ELSE,
            // found `B` at the start of the next unit"): that error is the failed unit's.
            let after_failed = i > 0 && matches!(m.units[i - 1], ast::Unit::Error(_));
            if !is_definition(u, env.sources) {
                continue;
            }
            total += 1;
            if matches!(u, ast::Unit::Error(_)) {
                continue;
            }
            let span = u.span();
            let parse_error = diagnostics.iter().any(|d| {
                d.is_error()
                    && d.code.starts_with("E01")
                    && d.span.file == span.file
                    && d.span.start >= span.start
                    && d.span.start < span.end.max(span.start + 1)
                    && !(after_failed && d.span.start == span.start)
            });
            let sema_error = codes.get(i).is_some_and(|cs| {
                cs.iter().any(|c| c.starts_with('E') && !UNKNOWN_NAME_CODES.contains(c))
            });
            if !parse_error && !sema_error {
                parsed += 1;
            }
        }
        root_scope = env.scopes.get(&m.name.name).map(|v| v.iter().filter_map(symbol_info).collect()).unwrap_or_default();
    }
    let score = if clean {
        1.0
    } else if total == 0 {
        0.0
    } else {
        0.5 * parsed as f64 / total as f64
    };
    let mut modules = env.ordered;
    let mut levels = env.levels;
    subexpr::rewrite(&mut modules, env.subexpr_defs, env.subexpr_uses, &mut levels);
    let sigs = &env.sigs;
    unnamed::name_instances(&mut modules, &mut levels, &|name: &str| {
        let Some(sig) = sigs.get(name) else { return vec![] };
        let mut defs: Vec<unnamed::Export> = sig
            .syms
            .values()
            .filter(|s| s.span.is_some() && matches!(s.kind, SymKind::Operator | SymKind::Function | SymKind::Theorem))
            .map(|s| unnamed::Export { name: s.name.clone(), arities: s.params.clone(), level: s.level, param_deps: s.param_deps.clone() })
            .collect();
        defs.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.arities.cmp(&b.arities)));
        defs
    });
    Analysis {
        modules,
        root: root_idx,
        diagnostics,
        score: SyntaxScore { clean, total, parsed, score },
        root_scope,
        levels,
        names: env.names,
    }
}

/// Read a `.cfg` for an analysed module: adds it to `sources` as `name`, parses it, and checks
/// it against the module ([`check_against_config`]). Returns the configuration and every
/// diagnostic of both steps (the .cfg's own first). The CLI, the grader, the replayer and the
/// web app all read a model's configuration through this.
pub fn read_config(sources: &mut SourceMap, analysis: &Analysis, name: String, text: &str) -> (Config, Vec<Diagnostic>) {
    let file = sources.add(name, text.to_string());
    let out = tla_syntax::cfg::parse_cfg(file, text);
    let mut diagnostics = out.diagnostics;
    diagnostics.extend(check_against_config(analysis, &out.config));
    (out.config, diagnostics)
}

/// Check a TLC configuration against the analysed root module: every name it uses exists with
/// the arity and level TLC needs (INIT state-level, NEXT action-level, INVARIANT state-level,
/// CONSTANTS declared and all given a value, ...). Diagnostics point into the .cfg file.
pub fn check_against_config(analysis: &Analysis, config: &Config) -> Vec<Diagnostic> {
    let mut out = vec![];
    let names = || analysis.root_scope.iter().map(|s| s.name.as_str());
    let need = |what: &str, id: &ast::Ident, max_level: u8, out: &mut Vec<Diagnostic>| {
        match analysis.symbol(&id.name) {
            None => out.push(diagnostics::cfg_undefined(id.span, what, &id.name, suggest::did_you_mean(&id.name, names()))),
            Some(s) => {
                if s.arity != 0 {
                    out.push(diagnostics::cfg_arity(id.span, what, &id.name, s.arity));
                } else if s.level > max_level {
                    out.push(diagnostics::cfg_level(id.span, what, &id.name, s.level, max_level));
                }
            }
        }
    };
    if let Some(id) = &config.specification {
        need("SPECIFICATION", id, 3, &mut out);
    }
    if let Some(id) = &config.init {
        need("INIT", id, 1, &mut out);
    }
    if let Some(id) = &config.next {
        need("NEXT", id, 2, &mut out);
    }
    for id in &config.invariants {
        need("INVARIANT", id, 1, &mut out);
    }
    for id in &config.properties {
        need("PROPERTY", id, 3, &mut out);
    }
    for id in &config.constraints {
        need("CONSTRAINT", id, 1, &mut out);
    }
    for id in &config.action_constraints {
        need("ACTION_CONSTRAINT", id, 2, &mut out);
    }
    for (what, id) in [("SYMMETRY", &config.symmetry), ("VIEW", &config.view), ("ALIAS", &config.alias), ("POSTCONDITION", &config.postcondition)] {
        if let Some(id) = id {
            need(what, id, 1, &mut out);
        }
    }
    for c in &config.constants {
        // TLC accepts assignments to names the root module does not see (`r1 = r1` declares
        // a model value; definitions of instantiated modules can be overridden), so an
        // unknown name here is not an error; a misspelled constant shows up as unassigned.
        let Some(s) = analysis.symbol(&c.name.name) else {
            continue;
        };
        if s.kind == SymbolKind::Variable {
            out.push(diagnostics::cfg_not_constant(c.name.span, &c.name.name, "variable"));
            continue;
        }
        match &c.rhs {
            // TLC substitutes the built-in constants too (`C <- TRUE`).
            ConstRhs::Subst(def) if s.arity == 0 && matches!(def.name.as_str(), "TRUE" | "FALSE") => {}
            ConstRhs::Subst(def) => match analysis.symbol(&def.name) {
                None => out.push(diagnostics::cfg_undefined(def.span, "definition", &def.name, suggest::did_you_mean(&def.name, names()))),
                Some(d) if d.arity != s.arity => out.push(diagnostics::cfg_subst_arity(def.span, &c.name.name, s.arity, &def.name, d.arity)),
                Some(_) => {}
            },
            ConstRhs::Value(..) | ConstRhs::ModSubst { .. } => {}
        }
    }
    let assigned: HashSet<&str> = config.constants.iter().map(|c| c.name.name.as_str()).collect();
    let cfg_span = config
        .init
        .as_ref()
        .or(config.specification.as_ref())
        .or(config.next.as_ref())
        .or(config.constants.first().map(|c| &c.name))
        .map(|i| i.span);
    if let Some(root) = analysis.root_module() {
        let root_name = &root.name.name;
        for s in &analysis.root_scope {
            if s.kind == SymbolKind::Constant && !assigned.contains(s.name.as_str()) {
                let at = cfg_span.unwrap_or(s.span.unwrap_or_default());
                let _ = root_name;
                out.push(diagnostics::cfg_constant_unassigned(at, &s.name).with_label(s.span.unwrap_or(at), "declared here"));
            }
        }
        let has_vars = analysis.root_scope.iter().any(|s| s.kind == SymbolKind::Variable);
        if has_vars && config.specification.is_none() && (config.init.is_none() || config.next.is_none()) {
            let at = cfg_span.unwrap_or(root.name.span);
            out.push(diagnostics::cfg_no_behaviour(at));
        }
    }
    out
}

#[cfg(test)]
mod tests;
