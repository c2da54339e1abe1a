//! Checking one module: names, arities, duplicate definitions and levels.
//!
//! TLA+ is checked in order: a name is visible only after its definition (RECURSIVE aside), so
//! a cyclic definition shows up as a use before definition, as in SANY.
//!
//! Levels follow SANY: constant 0, state 1, action 2, temporal 3. An operator definition's level
//! is summarised as a base level plus the set of parameters whose argument's level passes
//! through to the result; each expression's level is a [`Lv`]: a level and a bit set of the
//! enclosing definitions' parameters it depends on.

use std::collections::HashMap;
use std::rc::Rc;

use tla_syntax::ast::{self, Expr, ExprKind};
use tla_syntax::{Diagnostic, Span};

use crate::diagnostics as d;
use crate::levels::{Level, Levels, Through};
use crate::names::{Binder, Denotes, Names};
use crate::stdlib::{self, builtin_arity, canonical};
use crate::subexpr::{Rewrite, Selectable, Step};

/// What a name denotes.
#[derive(Clone, Debug)]
pub(crate) enum SymKind {
    Builtin,
    Constant,
    Variable,
    Operator,
    Function,
    Instance(Rc<ModuleSig>),
    Theorem,
    /// An ordinary or higher-order parameter of the definition being checked; the slot is a
    /// bit in [`Deps`].
    Param(u32),
    /// A variable bound by a quantifier, CHOOSE, set former, function constructor, label.
    Bound,
    /// A variable bound by `\EE` / `\AA` (behaves as a state variable).
    TemporalBound,
}

#[derive(Clone, Debug)]
pub(crate) struct Sym {
    pub name: String,
    pub kind: SymKind,
    /// The arity each argument must have; `params.len()` is the operator's arity.
    pub params: Vec<usize>,
    pub span: Option<Span>,
    /// The module that defines it.
    pub module: String,
    pub level: u8,
    /// For each parameter, how the body reads it (see [`Deps`]: a bit set of `PLAIN`, whose
    /// argument's level passes through to the result, `PRIMED` and `ENABLED`; 0: not read).
    pub param_deps: Vec<u8>,
    /// The parameters of enclosing definitions the result depends on (LET definitions).
    pub outer_deps: Deps,
    /// Declared in RECURSIVE and not yet defined.
    pub pending_recursive: bool,
    /// What a use of the name denotes: a local and its binder, or a module-level name (see
    /// [`crate::names`]).
    pub denotes: Denotes,
}

impl Sym {
    fn new(name: &str, kind: SymKind, params: Vec<usize>, span: Option<Span>, module: &str, level: u8) -> Sym {
        let n = params.len();
        Sym {
            name: name.to_string(),
            kind,
            params,
            span,
            module: module.to_string(),
            level,
            param_deps: vec![Deps::PLAIN; n],
            outer_deps: Deps::NONE,
            pending_recursive: false,
            denotes: Denotes::ModuleLevel,
        }
    }
    fn same_origin(&self, other: &Sym) -> bool {
        self.module == other.module && self.span == other.span && self.name == other.name
    }
    pub fn kind_word(&self) -> &'static str {
        match self.kind {
            SymKind::Builtin => "a built-in operator",
            SymKind::Constant => "a constant",
            SymKind::Variable => "a variable",
            SymKind::Operator => "an operator",
            SymKind::Function => "a function",
            SymKind::Instance(_) => "a module instance",
            SymKind::Theorem => "a theorem or assumption",
            SymKind::Param(_) => "a parameter",
            SymKind::Bound | SymKind::TemporalBound => "a bound variable",
        }
    }
}

/// What a module exports: its own non-LOCAL definitions and declarations and everything it
/// gets through EXTENDS and non-LOCAL INSTANCE.
#[derive(Debug)]
pub(crate) struct ModuleSig {
    pub name: String,
    pub syms: HashMap<String, Sym>,
    /// The module could not be loaded (already reported): lookups in it report nothing more.
    pub broken: bool,
}

impl ModuleSig {
    /// Constants and variables: the parameters an INSTANCE must substitute.
    pub fn params(&self) -> Vec<&Sym> {
        let mut v: Vec<&Sym> =
            self.syms.values().filter(|s| matches!(s.kind, SymKind::Constant | SymKind::Variable)).collect();
        v.sort_by(|a, b| a.span.cmp(&b.span).then(a.name.cmp(&b.name)));
        v
    }

    /// A built-in standard module's signature (the modules it extends are found by `get`).
    pub fn standard(m: &stdlib::StdModule, get: &mut dyn FnMut(&str) -> Option<Rc<ModuleSig>>) -> ModuleSig {
        let mut syms = HashMap::new();
        for e in m.extends {
            if let Some(sig) = get(e) {
                for (k, s) in &sig.syms {
                    syms.insert(k.clone(), s.clone());
                }
            }
        }
        for v in m.variables {
            syms.insert(v.to_string(), Sym::new(v, SymKind::Variable, vec![], None, m.name, 1));
        }
        for op in m.ops {
            syms.insert(op.name.to_string(), Sym::new(op.name, SymKind::Operator, op.params.to_vec(), None, m.name, op.level));
        }
        ModuleSig { name: m.name.to_string(), syms, broken: false }
    }
}

/// The parameters (a bit per slot) an expression reads, by the way it reads them: plainly
/// (the argument's level counts), under a prime or UNCHANGED, or under ENABLED (see
/// [`Through`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Deps {
    pub plain: u64,
    pub primed: u64,
    pub enabled: u64,
}

impl Deps {
    pub const NONE: Deps = Deps { plain: 0, primed: 0, enabled: 0 };
    /// Flags of `Sym::param_deps`.
    pub const PLAIN: u8 = 1;
    pub const PRIMED: u8 = 2;
    pub const ENABLED: u8 = 4;

    fn union(self, o: Deps) -> Deps {
        Deps { plain: self.plain | o.plain, primed: self.primed | o.primed, enabled: self.enabled | o.enabled }
    }
    fn all(self) -> u64 {
        self.plain | self.primed | self.enabled
    }
    /// The flags of the slot `bit`.
    fn flags(self, bit: u64) -> u8 {
        let mut f = 0;
        if self.plain & bit != 0 {
            f |= Deps::PLAIN;
        }
        if self.primed & bit != 0 {
            f |= Deps::PRIMED;
        }
        if self.enabled & bit != 0 {
            f |= Deps::ENABLED;
        }
        f
    }
    fn without(self, bits: u64) -> Deps {
        Deps { plain: self.plain & !bits, primed: self.primed & !bits, enabled: self.enabled & !bits }
    }
}

/// A level (when every parameter is a constant) and the parameters the expression reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lv {
    pub level: u8,
    pub deps: Deps,
}

impl Lv {
    const CONST: Lv = Lv { level: 0, deps: Deps::NONE };
    fn at(level: u8) -> Lv {
        Lv { level, deps: Deps::NONE }
    }
    fn join(self, o: Lv) -> Lv {
        Lv { level: self.level.max(o.level), deps: self.deps.union(o.deps) }
    }
    /// At least `level` (`[]e`, `e ~> f`, `\EE`: temporal whatever `e` is).
    fn at_least(self, level: u8) -> Lv {
        Lv { level: self.level.max(level), deps: self.deps }
    }
    /// `e'` or `UNCHANGED e`: an action, whatever `e` is (SANY's rule: `'` and UNCHANGED have
    /// level 2 and give their argument no weight, so `c'` of a constant is an action too). The
    /// parameters `e` reads are kept as read primed: an argument for them is passed by name.
    fn primed(self) -> Lv {
        Lv { level: 2, deps: Deps { plain: 0, primed: self.deps.all(), enabled: 0 } }
    }
    /// `ENABLED e`: a state predicate, whatever `e` is (SANY's rule, as for `'`).
    fn enabled(self) -> Lv {
        Lv { level: 1, deps: Deps { plain: 0, primed: 0, enabled: self.deps.all() } }
    }
    /// This level as an argument's, passed to a parameter whose level goes through as `flags`.
    fn through(self, flags: u8) -> Lv {
        let mut lv = Lv::CONST;
        if flags & Deps::PLAIN != 0 {
            lv = lv.join(self);
        }
        if flags & Deps::PRIMED != 0 {
            lv = lv.join(self.primed());
        }
        if flags & Deps::ENABLED != 0 {
            lv = lv.join(self.enabled());
        }
        lv
    }
    fn param(slot_bit: u64) -> Lv {
        Lv { level: 0, deps: Deps { plain: slot_bit, primed: 0, enabled: 0 } }
    }
}

/// Finds modules by name for EXTENDS and INSTANCE (loading and checking them as needed).
pub(crate) trait ModuleEnv {
    /// The signature of module `name`, or `None` after reporting why (not found, cycle).
    fn module_sig(&mut self, name: &str, at: Span) -> Option<Rc<ModuleSig>>;
    /// The top-level definition, named ASSUME or theorem `name` of the checked module `module`.
    fn selectable(&self, module: &str, name: &str) -> Option<Selectable>;
    /// Every name visible at the end of the checked module `module`.
    fn scope_of(&self, module: &str) -> Option<Vec<Sym>>;
    /// A subexpression name's definition, to add to `module`, and how its use is rewritten.
    fn record_subexpression(&mut self, module: &str, def: ast::OpDef, use_at: Span, rewrite: Rewrite);
    /// Where the level of each expression checked is recorded.
    fn levels(&mut self) -> &mut Levels;
    /// What each name denotes, as resolved.
    fn names(&mut self) -> &mut Names;
}

/// The outcome of checking one module.
pub(crate) struct ModuleResult {
    pub sig: Rc<ModuleSig>,
    /// For each unit of the module, the codes of the diagnostics its check produced.
    pub unit_codes: Vec<Vec<&'static str>>,
    /// Every name visible at the end of the module (for checking a .cfg against it).
    pub scope: Vec<Sym>,
}

struct Entry {
    sym: Sym,
    exported: bool,
}

pub(crate) struct Checker<'e, 'm> {
    env: &'e mut dyn ModuleEnv,
    /// The module being checked (for subexpression names of its own definitions).
    cur: Option<&'m ast::Module>,
    module: String,
    ctx: HashMap<String, Entry>,
    locals: Vec<Sym>,
    diags: Vec<Diagnostic>,
    /// Top-level definitions of the module (name → span), for "used before its definition".
    all_defs: HashMap<String, Span>,
    /// The top-level definition being checked.
    current_def: Option<String>,
    next_slot: u32,
    submodules: HashMap<String, Rc<ModuleSig>>,
}

/// The top-level definition, named ASSUME or theorem `name` of `m`, to select subexpressions in.
pub(crate) fn selectable_in(m: &ast::Module, name: &str) -> Option<Selectable> {
    m.units.iter().find_map(|u| match u {
        ast::Unit::OpDef(d) if d.name.name == name => Some(Selectable { name: name.to_string(), params: d.params.clone(), body: d.body.clone() }),
        ast::Unit::Assume(ast::Assume { name: Some(n), expr, .. })
        | ast::Unit::Theorem(ast::Theorem { name: Some(n), statement: ast::Statement::Expr(expr), .. })
            if n.name == name =>
        {
            Some(Selectable { name: name.to_string(), params: vec![], body: expr.clone() })
        }
        _ => None,
    })
}

fn def_name(u: &ast::Unit) -> Option<&ast::Ident> {
    match u {
        ast::Unit::OpDef(d) => Some(&d.name),
        ast::Unit::FunDef(d) => Some(&d.name),
        ast::Unit::ModuleDef(d) => Some(&d.name),
        _ => None,
    }
}

impl<'e, 'm> Checker<'e, 'm> {
    pub fn new(env: &'e mut dyn ModuleEnv, module: &str) -> Checker<'e, 'm> {
        Checker {
            env,
            cur: None,
            module: module.to_string(),
            ctx: HashMap::new(),
            locals: vec![],
            diags: vec![],
            all_defs: HashMap::new(),
            current_def: None,
            next_slot: 0,
            submodules: HashMap::new(),
        }
    }

    /// Check a whole module. `outer` holds the names visible from an enclosing module (for a
    /// nested submodule): visible, not exported.
    pub fn check_module(
        mut self,
        m: &'m ast::Module,
        outer: Vec<Sym>,
        outer_submodules: HashMap<String, Rc<ModuleSig>>,
    ) -> (ModuleResult, Vec<Diagnostic>) {
        self.cur = Some(m);
        for s in outer {
            self.ctx.insert(s.name.clone(), Entry { sym: s, exported: false });
        }
        self.submodules = outer_submodules;
        for u in &m.units {
            if let Some(n) = def_name(u) {
                self.all_defs.entry(n.name.clone()).or_insert(n.span);
            }
        }
        for e in &m.extends {
            if let Some(sig) = self.lookup_module(&e.name, e.span) {
                self.import(&sig, e.span, true, &format!("EXTENDS {}", e.name));
            }
        }
        let extends_codes: Vec<&'static str> = self.diags.iter().map(|d| d.code).collect();
        let mut unit_codes = Vec::with_capacity(m.units.len());
        for u in &m.units {
            let before = self.diags.len();
            self.next_slot = 0;
            self.check_unit(u);
            unit_codes.push(self.diags[before..].iter().map(|d| d.code).collect());
        }
        let _ = extends_codes;
        // RECURSIVE declarations never defined.
        let mut pending: Vec<&Entry> = self.ctx.values().filter(|e| e.sym.pending_recursive).collect();
        pending.sort_by_key(|e| e.sym.span);
        let mut late = vec![];
        for e in pending {
            if let Some(sp) = e.sym.span {
                late.push(
                    d::recursive_undefined(sp, &e.sym.name),
                );
            }
        }
        self.diags.extend(late);
        let mut syms = HashMap::new();
        let mut scope = vec![];
        for (k, e) in &self.ctx {
            if e.exported {
                syms.insert(k.clone(), e.sym.clone());
            }
            scope.push(e.sym.clone());
        }
        scope.sort_by(|a, b| a.name.cmp(&b.name));
        let sig = Rc::new(ModuleSig { name: m.name.name.clone(), syms, broken: false });
        (ModuleResult { sig, unit_codes, scope }, self.diags)
    }

    fn lookup_module(&mut self, name: &str, at: Span) -> Option<Rc<ModuleSig>> {
        if let Some(s) = self.submodules.get(name) {
            return Some(s.clone());
        }
        self.env.module_sig(name, at)
    }

    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Bring `sig`'s symbols into the module context (EXTENDS, or an unnamed INSTANCE that
    /// imports only definitions).
    fn import(&mut self, sig: &ModuleSig, at: Span, with_params: bool, how: &str) {
        let mut names: Vec<&String> = sig.syms.keys().collect();
        names.sort();
        for n in names {
            let s = &sig.syms[n];
            if !with_params && matches!(s.kind, SymKind::Constant | SymKind::Variable) {
                continue;
            }
            if let Some(prev) = self.ctx.get(n) {
                if prev.sym.same_origin(s) {
                    continue;
                }
                // Two definitions of one name, the second brought in by EXTENDS or INSTANCE:
                // SANY warns and keeps the first (TLC evaluates the first). A clash that
                // involves a CONSTANT or VARIABLE is an error.
                let declared = |s: &Sym| matches!(s.kind, SymKind::Constant | SymKind::Variable);
                let diag = d::multiply_defined_import(at, n, &prev.sym, &sig.name, how);
                let diag = if declared(&prev.sym) || declared(s) { diag } else { d::as_warning(diag) };
                self.err(diag);
                continue;
            }
            self.ctx.insert(n.clone(), Entry { sym: s.clone(), exported: true });
        }
    }

    /// The symbol a name denotes here, innermost first.
    fn resolve(&self, name: &str) -> Option<Sym> {
        let name = canonical(name);
        if let Some(s) = self.locals.iter().rev().find(|s| s.name == name) {
            return Some(s.clone());
        }
        if let Some(e) = self.ctx.get(name) {
            return Some(e.sym.clone());
        }
        builtin_arity(name).map(|a| Sym::new(name, SymKind::Builtin, vec![0; a], None, "", 0))
    }

    fn visible(&self, name: &str) -> Option<Sym> {
        let s = self.resolve(name)?;
        if matches!(s.kind, SymKind::Builtin) { None } else { Some(s) }
    }

    /// Declare a top-level name; reports a clash.
    fn define(&mut self, sym: Sym, exported: bool) {
        if let Some(prev) = self.ctx.get(&sym.name) {
            if prev.sym.pending_recursive && prev.sym.module == self.module {
                if prev.sym.params.len() != sym.params.len() {
                    let diag = d::recursive_arity(sym.span.unwrap_or_default(), &sym.name, prev.sym.params.len(), sym.params.len(), prev.sym.span);
                    self.err(diag);
                }
            } else {
                let diag = d::multiply_defined(sym.span.unwrap_or_default(), &sym.name, &prev.sym);
                self.err(diag);
                return;
            }
        }
        self.ctx.insert(sym.name.clone(), Entry { sym, exported });
    }

    /// Bind a local name (parameter, bound variable, LET definition); SANY rejects any name that
    /// is already visible.
    /// `binder` is the binding identifier's text in the AST (see [`crate::names`]).
    fn bind_local(&mut self, mut sym: Sym, binder: &str) {
        if let Some(prev) = self.visible(&sym.name) {
            let diag = d::shadows(sym.span.unwrap_or_default(), &sym.name, &prev);
            self.err(diag);
        }
        sym.denotes = Denotes::Local(Binder::of(binder));
        self.locals.push(sym);
    }

    /// Record what the name `op` (or, with an instance path, its first step) denotes, found as
    /// `sym`.
    fn record_use(&mut self, op: &ast::OpName, sym: &Sym) {
        self.env.names().record(op, sym.denotes);
    }

    fn check_unit(&mut self, u: &ast::Unit) {
        match u {
            ast::Unit::Constants(cs) => {
                for c in cs {
                    let s = Sym::new(&c.name.name, SymKind::Constant, vec![0; c.arity], Some(c.name.span), &self.module, 0);
                    self.define(s, true);
                }
            }
            ast::Unit::Variables(vs) => {
                for v in vs {
                    let s = Sym::new(&v.name, SymKind::Variable, vec![], Some(v.span), &self.module, 1);
                    self.define(s, true);
                }
            }
            ast::Unit::Assume(a) => {
                let lv = self.expr(&a.expr);
                if lv.level > 0 {
                    self.err(d::assume_level(a.expr.span, lv.level));
                }
                if let Some(n) = &a.name {
                    let s = Sym::new(&n.name, SymKind::Theorem, vec![], Some(n.span), &self.module, lv.level);
                    self.define(s, true);
                }
            }
            ast::Unit::OpDef(def) => {
                self.current_def = Some(def.name.name.clone());
                // A RECURSIVE declaration writes each parameter as `_`: the definition says which
                // are operators (`F(Op(_, _), v)`), for the recursive calls in its own body.
                if let Some(e) = self.ctx.get_mut(&def.name.name)
                    && e.sym.pending_recursive
                    && e.sym.module == self.module
                    && e.sym.params.len() == def.params.len()
                {
                    e.sym.params = def.params.iter().map(|p| p.arity).collect();
                }
                let s = self.op_def(def);
                self.current_def = None;
                if def.name.name == "Init" && s.level == 2 {
                    self.err(d::init_primed(def.name.span));
                }
                self.define(s, !def.local);
            }
            ast::Unit::FunDef(def) => {
                self.current_def = Some(def.name.name.clone());
                let s = self.fun_def(def, false);
                self.current_def = None;
                self.define(s, !def.local);
            }
            ast::Unit::ModuleDef(def) => {
                let s = self.module_def(def);
                if let Some(s) = s {
                    self.define(s, !def.local);
                }
            }
            ast::Unit::Instance(inst) => {
                if let Some(sig) = self.instance(inst) {
                    let n = self.ctx.len();
                    self.import(&sig, inst.module.span, false, &format!("INSTANCE {}", inst.module.name));
                    if inst.local {
                        // Imported names stay visible here but are not exported.
                        let _ = n;
                        for s in sig.syms.values() {
                            if let Some(e) = self.ctx.get_mut(&s.name) {
                                if e.sym.same_origin(s) && !matches!(s.kind, SymKind::Constant | SymKind::Variable) {
                                    e.exported = false;
                                }
                            }
                        }
                    }
                }
            }
            ast::Unit::Recursive(decls) => {
                for dcl in decls {
                    let mut s = Sym::new(&dcl.name.name, SymKind::Operator, vec![0; dcl.arity], Some(dcl.name.span), &self.module, 0);
                    s.pending_recursive = true;
                    self.define(s, true);
                }
            }
            ast::Unit::Theorem(t) => {
                // A named theorem may be used as an operator: its statement gets levels, but
                // (as before proofs are checked) reports nothing.
                if let (Some(_), Some(e)) = (&t.name, t.expr()) {
                    let before = self.diags.len();
                    self.expr(e);
                    self.diags.truncate(before);
                }
                if let Some(n) = &t.name {
                    let s = Sym::new(&n.name, SymKind::Theorem, vec![], Some(n.span), &self.module, 0);
                    self.define(s, true);
                }
            }
            ast::Unit::Submodule(m) => {
                let outer: Vec<Sym> = self.ctx.values().map(|e| e.sym.clone()).collect();
                let subs = self.submodules.clone();
                let (res, diags) = Checker::new(&mut *self.env, &m.name.name).check_module(m, outer, subs);
                self.diags.extend(diags);
                self.submodules.insert(m.name.name.clone(), res.sig);
            }
            // Proof-checker directives: parsed, not checked.
            ast::Unit::UseHide(_) | ast::Unit::Error(_) => {}
        }
    }

    fn fresh_slot(&mut self) -> u32 {
        let s = self.next_slot;
        self.next_slot += 1;
        s
    }

    fn slot_bit(slot: u32) -> u64 {
        if slot < 64 { 1u64 << slot } else { 0 }
    }

    /// Check `Op(params) == body` and return its symbol (not yet defined in the context).
    fn op_def(&mut self, def: &ast::OpDef) -> Sym {
        let mark = self.locals.len();
        let mut slots = vec![];
        for p in &def.params {
            let slot = self.fresh_slot();
            slots.push(slot);
            let s = Sym::new(&p.name.name, SymKind::Param(slot), vec![0; p.arity], Some(p.name.span), &self.module, 0);
            self.bind_local(s, &p.name.name);
        }
        let lv = self.expr(&def.body);
        self.locals.truncate(mark);
        let mut s = Sym::new(&def.name.name, SymKind::Operator, def.params.iter().map(|p| p.arity).collect(), Some(def.name.span), &self.module, lv.level);
        let mut own = 0u64;
        for (i, slot) in slots.iter().enumerate() {
            let bit = Self::slot_bit(*slot);
            own |= bit;
            s.param_deps[i] = if bit == 0 { Deps::PLAIN } else { lv.deps.flags(bit) };
        }
        s.outer_deps = lv.deps.without(own);
        s
    }

    /// `local`: a LET definition (its own name is then a local of its body).
    fn fun_def(&mut self, def: &ast::FunDef, local: bool) -> Sym {
        let mut lv = Lv::CONST;
        for b in &def.bounds {
            if let Some(set) = &b.set {
                lv = lv.join(self.expr(set));
            }
        }
        let mark = self.locals.len();
        // The function's own name is visible in its body (recursive functions).
        let mut own = Sym::new(&def.name.name, SymKind::Function, vec![], Some(def.name.span), &self.module, 0);
        if local {
            own.denotes = Denotes::Local(Binder::of(&def.name.name));
        }
        self.locals.push(own);
        for b in &def.bounds {
            for v in b.vars.idents() {
                self.bind_local(Sym::new(&v.name, SymKind::Bound, vec![], Some(v.span), &self.module, 0), &v.name);
            }
        }
        lv = lv.join(self.expr(&def.body));
        self.locals.truncate(mark);
        let mut s = Sym::new(&def.name.name, SymKind::Function, vec![], Some(def.name.span), &self.module, lv.level);
        s.outer_deps = lv.deps;
        s
    }

    fn module_def(&mut self, def: &ast::ModuleDef) -> Option<Sym> {
        let mark = self.locals.len();
        for p in &def.params {
            let slot = self.fresh_slot();
            let s = Sym::new(&p.name.name, SymKind::Param(slot), vec![0; p.arity], Some(p.name.span), &self.module, 0);
            self.bind_local(s, &p.name.name);
        }
        let sig = self.instance(&def.instance);
        self.locals.truncate(mark);
        // A module that cannot be loaded still defines the instance name (the error is
        // reported once, at the module name).
        let sig = sig.unwrap_or_else(|| {
            Rc::new(ModuleSig { name: def.instance.module.name.clone(), syms: HashMap::new(), broken: true })
        });
        Some(Sym::new(&def.name.name, SymKind::Instance(sig), def.params.iter().map(|p| p.arity).collect(), Some(def.name.span), &self.module, 0))
    }

    /// Check `INSTANCE M WITH ...`: the substitutions and SANY's rule that every constant and
    /// variable of M is substituted or exists here under the same name.
    fn instance(&mut self, inst: &ast::Instance) -> Option<Rc<ModuleSig>> {
        let sig = self.lookup_module(&inst.module.name, inst.module.span)?;
        let params = sig.params();
        for sub in &inst.substs {
            let target = params.iter().find(|p| p.name == canonical(&sub.name.name));
            match target {
                None => {
                    self.err(d::no_such_parameter(sub.name.span, &sub.name.name, &sig.name));
                    self.expr(&sub.expr);
                }
                Some(p) if !p.params.is_empty() => {
                    let want = p.params.len();
                    let lv = self.operator_argument(&sub.expr, want, &sub.name.name, 0);
                    level_of_substitution(self, &sig, p, lv, sub);
                    if let Some(what) = self.non_leibniz(&sub.expr) {
                        self.err(d::non_leibniz(sub.expr.span, &what, &p.name, &sig.name));
                    }
                }
                Some(p) => {
                    let lv = self.expr(&sub.expr);
                    level_of_substitution(self, &sig, p, lv, sub);
                }
            }
        }
        for p in params {
            if inst.substs.iter().any(|s| canonical(&s.name.name) == p.name) {
                continue;
            }
            if self.visible(&p.name).is_none() {
                self.err(d::missing_substitution(inst.span, &p.name, p.kind_word(), &sig.name, p.span));
            }
        }
        Some(sig)
    }

    fn bind_bounds(&mut self, bounds: &[ast::Bound]) -> Lv {
        // SANY checks every bound's set in the outer scope: in `\A x \in S, y \in T`, T
        // cannot mention x ("Unknown operator").
        let mut lv = Lv::CONST;
        for b in bounds {
            if let Some(set) = &b.set {
                lv = lv.join(self.expr(set));
            }
        }
        for b in bounds {
            for v in b.vars.idents() {
                self.bind_local(Sym::new(&v.name, SymKind::Bound, vec![], Some(v.span), &self.module, 0), &v.name);
            }
        }
        lv
    }

    fn let_def(&mut self, ld: &ast::LetDef) {
        match ld {
            ast::LetDef::Op(def) => {
                if let Some(l) = self.locals.iter_mut().rev().find(|l| l.name == def.name.name && l.pending_recursive)
                    && l.params.len() == def.params.len()
                {
                    l.params = def.params.iter().map(|p| p.arity).collect();
                }
                let mut s = self.op_def(def);
                // Replace a pending RECURSIVE declaration made in this LET.
                if let Some(pos) = self.locals.iter().rposition(|l| l.name == s.name && l.pending_recursive) {
                    s.pending_recursive = false;
                    let to = Binder::of(&def.name.name);
                    s.denotes = Denotes::Local(to);
                    if let Denotes::Local(from) = self.locals[pos].denotes {
                        self.env.names().rebind(from, to);
                    }
                    self.locals[pos] = s;
                } else {
                    self.bind_local(s, &def.name.name);
                }
            }
            ast::LetDef::Fun(def) => {
                let s = self.fun_def(def, true);
                self.bind_local(s, &def.name.name);
            }
            ast::LetDef::Recursive(decls) => {
                for dcl in decls {
                    let mut s = Sym::new(&dcl.name.name, SymKind::Operator, vec![0; dcl.arity], Some(dcl.name.span), &self.module, 0);
                    s.pending_recursive = true;
                    self.bind_local(s, &dcl.name.name);
                }
            }
            ast::LetDef::ModuleDef(def) => {
                if let Some(s) = self.module_def(def) {
                    self.bind_local(s, &def.name.name);
                }
            }
        }
    }

    /// An argument in a position that wants an operator of arity `want`: an operator name or
    /// a LAMBDA of that arity.
    fn operator_argument(&mut self, e: &Expr, want: usize, of: &str, index: usize) -> Lv {
        let lv = self.operator_argument_level(e, want, of, index);
        self.note_level(e, lv);
        lv
    }

    /// For an operator argument (a name or a LAMBDA) that reads a parameter under a prime,
    /// UNCHANGED or ENABLED, what to call it: SANY says it is not Leibniz (equal arguments need
    /// not give equal results). Called after the argument was checked.
    fn non_leibniz(&mut self, e: &Expr) -> Option<String> {
        match &*e.kind {
            ExprKind::Lambda { params, body } => {
                let l = self.env.levels().of(body)?;
                l.params
                    .iter()
                    .any(|lp| lp.through != Through::Plain && params.iter().any(|p| p.name == lp.name))
                    .then(|| "the LAMBDA".to_string())
            }
            ExprKind::OpApp { op, args } if args.is_empty() => {
                let sym = if op.path.is_empty() { self.resolve(&op.name) } else { None }?;
                let reads = matches!(sym.kind, SymKind::Operator)
                    && sym.param_deps.iter().any(|f| f & (Deps::PRIMED | Deps::ENABLED) != 0);
                reads.then(|| format!("`{}`", op.name))
            }
            _ => None,
        }
    }

    fn operator_argument_level(&mut self, e: &Expr, want: usize, of: &str, index: usize) -> Lv {
        match &*e.kind {
            ExprKind::Lambda { params, body } => {
                if params.len() != want {
                    self.err(d::operator_argument_arity(e.span, of, index, want, params.len()));
                }
                let mark = self.locals.len();
                for p in params {
                    let slot = self.fresh_slot();
                    self.bind_local(Sym::new(&p.name, SymKind::Param(slot), vec![], Some(p.span), &self.module, 0), &p.name);
                }
                let lv = self.expr(body);
                self.locals.truncate(mark);
                lv
            }
            ExprKind::OpApp { op, args } if args.is_empty() => {
                let sym = if op.path.is_empty() {
                    match self.resolve(&op.name) {
                        Some(s) => {
                            self.record_use(op, &s);
                            Some(s)
                        }
                        None => {
                            self.unknown(&op.name, op.span);
                            None
                        }
                    }
                } else {
                    self.resolve_path(op)
                };
                if let Some(s) = sym {
                    if s.params.len() != want && !s.pending_recursive {
                        self.err(d::operator_argument_arity(e.span, of, index, want, s.params.len()));
                    }
                    let mut lv = Lv::at(s.level);
                    if let SymKind::Param(slot) = s.kind {
                        lv = lv.join(Lv::param(Self::slot_bit(slot)));
                    }
                    lv.deps = lv.deps.union(s.outer_deps);
                    lv
                } else {
                    Lv::CONST
                }
            }
            _ => {
                self.err(d::operator_argument_arity(e.span, of, index, want, 0));
                self.expr(e)
            }
        }
    }

    fn unknown(&mut self, name: &str, span: Span) {
        if let Some(def_span) = self.all_defs.get(name).copied() {
            let selfref = self.current_def.as_deref() == Some(name);
            self.err(d::used_before_definition(span, name, def_span, selfref));
            return;
        }
        let mut cands: Vec<&str> = self.locals.iter().map(|s| s.name.as_str()).collect();
        cands.extend(self.ctx.keys().map(|k| k.as_str()));
        cands.extend(stdlib::BUILTIN_OPERATORS.iter().map(|(n, _)| *n));
        let suggestion = crate::suggest::did_you_mean(name, cands.into_iter());
        let mods = stdlib::modules_defining(name);
        if suggestion.is_none() && mods.is_empty() {
            // A misspelled standard operator of a module not extended (`len` for `Len`).
            let std_names = stdlib::STANDARD_MODULES.iter().flat_map(|m| m.ops.iter().map(|o| o.name));
            if let Some(s) = crate::suggest::did_you_mean(name, std_names) {
                let m = stdlib::modules_defining(&s);
                let hint = format!("`{s}` is defined in the standard module {}: add `EXTENDS {}`", m[0], m[0]);
                self.err(d::unknown_name(span, name, Some(s), &[]).with_hint(hint));
                return;
            }
        }
        self.err(d::unknown_name(span, name, suggestion, &mods));
    }

    /// Resolve `A!B(x)!Op` to the symbol of `Op`, checking each step.
    fn resolve_path(&mut self, op: &ast::OpName) -> Option<Sym> {
        let mut sig: Option<Rc<ModuleSig>> = None;
        for step in &op.path {
            let s = match &sig {
                None => {
                    let s = self.resolve(&step.name.name);
                    // What the first step denotes is recorded under the whole name.
                    if let Some(s) = &s {
                        self.record_use(op, s);
                    }
                    s
                }
                Some(sg) => sg.syms.get(&step.name.name).cloned(),
            };
            for a in &step.args {
                self.expr(a);
            }
            let Some(s) = s else {
                match &sig {
                    None => self.unknown(&step.name.name, step.name.span),
                    Some(sg) if sg.broken => {}
                    Some(sg) => self.err(d::not_in_module(step.name.span, &step.name.name, &sg.name)),
                }
                return None;
            };
            let SymKind::Instance(next) = &s.kind else {
                self.err(d::not_an_instance(step.name.span, &step.name.name, s.kind_word()));
                return None;
            };
            if step.args.len() != s.params.len() {
                self.err(d::wrong_arity(step.name.span, &step.name.name, s.params.len(), step.args.len(), s.span));
            }
            sig = Some(next.clone());
        }
        let sg = sig?;
        match sg.syms.get(canonical(&op.name)) {
            Some(s) => Some(s.clone()),
            None => {
                if !sg.broken {
                    self.err(d::not_in_module(op.span, &op.name, &sg.name));
                }
                None
            }
        }
    }

    /// The level of an expression, reporting every problem in it; recorded in the analysis's
    /// [`Levels`].
    pub fn expr(&mut self, e: &Expr) -> Lv {
        let lv = self.expr_level(e);
        self.note_level(e, lv);
        lv
    }

    /// Record `lv` as `e`'s level, with its parameters' names and binders.
    fn note_level(&mut self, e: &Expr, lv: Lv) {
        let mut params = Vec::new();
        if lv.deps != Deps::NONE {
            for l in &self.locals {
                if let SymKind::Param(slot) = l.kind {
                    let f = lv.deps.flags(Self::slot_bit(slot));
                    for (flag, through) in [(Deps::PLAIN, Through::Plain), (Deps::PRIMED, Through::Primed), (Deps::ENABLED, Through::Enabled)] {
                        if f & flag != 0 {
                            let binder = match l.denotes {
                                Denotes::Local(b) => Some(b),
                                Denotes::ModuleLevel => None,
                            };
                            params.push(crate::levels::LevelParam { name: l.name.clone(), binder, through });
                        }
                    }
                }
            }
        }
        self.env.levels().record(e, Level::from_u8(lv.level), params);
    }

    fn expr_level(&mut self, e: &Expr) -> Lv {
        match &*e.kind {
            ExprKind::Num(_) | ExprKind::Decimal(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::At | ExprKind::Error => {
                Lv::CONST
            }
            ExprKind::OpApp { op, args } => self.op_app(e, op, args),
            ExprKind::FunApp { fun, args } => {
                let mut lv = self.expr(fun);
                for a in args {
                    lv = lv.join(self.expr(a));
                }
                lv
            }
            ExprKind::Field { record, .. } => self.expr(record),
            ExprKind::Junction { items, kind, .. } => {
                let lvs: Vec<(Lv, Span)> = items.iter().map(|i| (self.expr(i), i.span)).collect();
                let name = match kind {
                    ast::JunctionKind::And => "/\\",
                    ast::JunctionKind::Or => "\\/",
                };
                self.mixed_levels(e.span, name, &lvs);
                lvs.iter().fold(Lv::CONST, |a, (l, _)| a.join(*l))
            }
            ExprKind::If { cond, then, els } => self.expr(cond).join(self.expr(then)).join(self.expr(els)),
            ExprKind::Case { arms, other } => {
                let mut lv = Lv::CONST;
                for a in arms {
                    lv = lv.join(self.expr(&a.guard)).join(self.expr(&a.body));
                }
                if let Some(o) = other {
                    lv = lv.join(self.expr(o));
                }
                lv
            }
            ExprKind::Let { defs, body } => {
                let mark = self.locals.len();
                for ld in defs {
                    self.let_def(ld);
                }
                let lv = self.expr(body);
                self.locals.truncate(mark);
                lv
            }
            ExprKind::Quant { bounds, body, .. } => {
                let mark = self.locals.len();
                let lv = self.bind_bounds(bounds);
                let lv = lv.join(self.expr(body));
                self.locals.truncate(mark);
                lv
            }
            ExprKind::TemporalQuant { vars, body, .. } => {
                let mark = self.locals.len();
                for v in vars {
                    self.bind_local(Sym::new(&v.name, SymKind::TemporalBound, vec![], Some(v.span), &self.module, 1), &v.name);
                }
                let lv = self.expr(body);
                self.locals.truncate(mark);
                lv.at_least(3)
            }
            ExprKind::Choose { bound, body } => {
                let mark = self.locals.len();
                let lv = self.bind_bounds(std::slice::from_ref(bound));
                let lv = lv.join(self.expr(body));
                self.locals.truncate(mark);
                lv
            }
            ExprKind::SetFilter { bound, pred } => {
                let mark = self.locals.len();
                let lv = self.bind_bounds(std::slice::from_ref(bound));
                let lv = lv.join(self.expr(pred));
                self.locals.truncate(mark);
                lv
            }
            ExprKind::SetMap { body, bounds } | ExprKind::FunCons { bounds, body } => {
                let mark = self.locals.len();
                let lv = self.bind_bounds(bounds);
                let lv = lv.join(self.expr(body));
                self.locals.truncate(mark);
                lv
            }
            ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => {
                items.iter().fold(Lv::CONST, |a, i| a.join(self.expr(i)))
            }
            ExprKind::FunSet { domain, range } => self.expr(domain).join(self.expr(range)),
            ExprKind::Record(fields) => fields.iter().fold(Lv::CONST, |a, (_, v)| a.join(self.expr(v))),
            ExprKind::RecordSet(fields) => {
                let mut lv = Lv::CONST;
                for (name, v) in fields {
                    if matches!(&*v.kind, ExprKind::Str(_) | ExprKind::Num(_) | ExprKind::Bool(_)) {
                        self.err(d::record_set_field_not_set(v.span, &name.name, e.span));
                    }
                    lv = lv.join(self.expr(v));
                }
                lv
            }
            ExprKind::Except { base, updates } => {
                let mut lv = self.expr(base);
                for u in updates {
                    for step in &u.path {
                        if let ast::ExceptStep::Index(ix) = step {
                            for i in ix {
                                lv = lv.join(self.expr(i));
                            }
                        }
                    }
                    lv = lv.join(self.expr(&u.value));
                }
                lv
            }
            ExprKind::BoxAction { action, sub } | ExprKind::AngleAction { action, sub } => {
                let a = self.expr(action);
                let s = self.expr(sub);
                if a.level >= 3 {
                    self.err(d::temporal_in_action(action.span, "the action of [A]_v / <<A>>_v"));
                }
                if s.level >= 3 {
                    self.err(d::temporal_in_action(sub.span, "the subscript of [A]_v / <<A>>_v"));
                }
                Lv { level: 2, deps: a.deps.union(s.deps) }
            }
            ExprKind::Fair { sub, action, .. } => {
                let s = self.expr(sub);
                let a = self.expr(action);
                if a.level >= 3 {
                    self.err(d::temporal_in_action(action.span, "the action of WF/SF"));
                }
                if s.level >= 3 {
                    self.err(d::temporal_in_action(sub.span, "the subscript of WF/SF"));
                }
                Lv { level: 3, deps: a.deps.union(s.deps) }
            }
            ExprKind::Lambda { params, body } => {
                let mark = self.locals.len();
                for p in params {
                    let slot = self.fresh_slot();
                    self.bind_local(Sym::new(&p.name, SymKind::Param(slot), vec![], Some(p.span), &self.module, 0), &p.name);
                }
                let lv = self.expr(body);
                self.locals.truncate(mark);
                lv
            }
            ExprKind::Label { params, body, .. } => {
                // A label's parameters name bound names it lies under (`\E v : L(v):: P`).
                for p in params {
                    if !self.locals.iter().any(|l| l.name == p.name) {
                        self.unknown(&p.name, p.span);
                    }
                }
                self.expr(body)
            }
        }
    }

    /// SANY: `/\` and `\/` may not mix an action-level and a temporal-level operand.
    fn mixed_levels(&mut self, span: Span, op: &str, lvs: &[(Lv, Span)]) {
        let action = lvs.iter().find(|(l, _)| l.level == 2);
        let temporal = lvs.iter().find(|(l, _)| l.level == 3);
        if let (Some((_, a)), Some((_, t))) = (action, temporal) {
            self.err(d::mixed_action_temporal(span, op, *a, *t));
        }
    }

    fn op_app(&mut self, e: &Expr, op: &ast::OpName, args: &[Expr]) -> Lv {
        if !op.path.is_empty()
            && let Some(lv) = self.subexpression(op, args)
        {
            return lv;
        }
        let sym = if op.path.is_empty() {
            match self.resolve(&op.name) {
                Some(s) => {
                    self.record_use(op, &s);
                    Some(s)
                }
                None => {
                    self.unknown(&op.name, op.span);
                    None
                }
            }
        } else {
            self.resolve_path(op)
        };
        let Some(sym) = sym else {
            return args.iter().fold(Lv::CONST, |a, x| a.join(self.expr(x)));
        };
        if let SymKind::Builtin = sym.kind {
            return self.builtin_app(e, canonical(&op.name), args);
        }
        if let SymKind::Instance(_) = sym.kind {
            self.err(d::instance_as_value(op.span, &op.name));
            return Lv::CONST;
        }
        let arity = sym.params.len();
        if args.len() != arity {
            if args.is_empty() {
                self.err(d::operator_without_arguments(op.span, &op.name, arity, sym.span));
            } else {
                self.err(d::wrong_arity(op.span, &op.name, arity, args.len(), sym.span));
            }
        }
        let mut lv = Lv { level: sym.level, deps: sym.outer_deps };
        match sym.kind {
            SymKind::Param(slot) => lv = lv.join(Lv::param(Self::slot_bit(slot))),
            SymKind::Variable | SymKind::TemporalBound => lv.level = lv.level.max(1),
            _ => {}
        }
        let is_param = matches!(sym.kind, SymKind::Param(_));
        for (i, a) in args.iter().enumerate() {
            let want = sym.params.get(i).copied().unwrap_or(0);
            let alv = if want > 0 { self.operator_argument(a, want, &op.name, i + 1) } else { self.expr(a) };
            // An operator parameter's arguments all count; a definition's as its body uses them.
            let flags = if is_param { Deps::PLAIN } else { sym.param_deps.get(i).copied().unwrap_or(Deps::PLAIN) };
            lv = lv.join(alv.through(flags));
        }
        lv
    }

    /// A subexpression name (`Inv!2`, `I!Inv!lbl`): `None` when `op` is an ordinary instance
    /// path. The selected part becomes a definition of the module that holds the selected one
    /// (see [`crate::subexpr`]), and this use an application of it.
    fn subexpression(&mut self, op: &ast::OpName, args: &[Expr]) -> Option<Lv> {
        // The instance steps, then the definition selected in.
        let mut sig: Option<Rc<ModuleSig>> = None;
        let mut head = None;
        for (i, step) in op.path.iter().enumerate() {
            let s = match &sig {
                None => {
                    let s = self.resolve(&step.name.name);
                    // What the first step denotes is recorded under the whole name.
                    if let Some(s) = &s {
                        self.record_use(op, s);
                    }
                    s
                }
                Some(sg) => sg.syms.get(&step.name.name).cloned(),
            };
            let Some(s) = s else { break };
            let selects = i + 1 < op.path.len() || !op.name.is_empty() || !op.sel.is_empty();
            match &s.kind {
                SymKind::Instance(next) => sig = Some(next.clone()),
                SymKind::Operator | SymKind::Theorem if s.span.is_some() && selects => {
                    head = Some((i, s));
                    break;
                }
                _ => break,
            }
        }
        let Some((k, sym)) = head else {
            if op.name.is_empty() {
                // `X!2` where X is no definition: what X is, as resolve_path would report it.
                let last = &op.path[op.path.len() - 1];
                let x = ast::OpName { path: op.path[..op.path.len() - 1].to_vec(), name: last.name.name.clone(), span: last.name.span, sel: vec![] };
                let found = if x.path.is_empty() { self.resolve(&x.name) } else { self.resolve_path(&x) };
                match found {
                    Some(_) => self.err(d::subexpression(op.span, "only a definition, a named ASSUME or a theorem has subexpressions")),
                    None if x.path.is_empty() => self.unknown(&x.name, x.span),
                    None => {}
                }
                return Some(Lv::CONST);
            }
            return None;
        };
        for step in &op.path[..k] {
            for a in &step.args {
                self.expr(a);
            }
        }
        let head_args = &op.path[k].args;
        let head_lvs: Vec<Lv> = head_args.iter().map(|a| self.expr(a)).collect();
        // The selectors: names after the definition's, the final name, then the rest.
        let mut steps: Vec<Step> = op.path[k + 1..]
            .iter()
            .map(|p| Step { kind: ast::SelKind::Name(p.name.name.clone()), args: &p.args, span: p.name.span })
            .collect();
        if !op.name.is_empty() {
            steps.push(Step { kind: ast::SelKind::Name(op.name.clone()), args, span: op.span });
        }
        steps.extend(op.sel.iter().map(|s| Step { kind: s.kind.clone(), args: &s.args, span: s.span }));
        let target = if sym.module == self.module {
            self.cur.and_then(|m| selectable_in(m, &sym.name))
        } else {
            self.env.selectable(&sym.module, &sym.name)
        };
        let Some(target) = target else {
            self.err(d::subexpression(op.span, &format!("`{}` has no expression to select in (an ASSUME ... PROVE statement?)", sym.name)));
            return Some(Lv::CONST);
        };
        if head_args.len() != target.params.len() {
            self.err(d::wrong_arity(op.path[k].name.span, &sym.name, target.params.len(), head_args.len(), sym.span));
            return Some(Lv::CONST);
        }
        let selected = match crate::subexpr::select(&target, &steps, op.span) {
            Ok(s) => s,
            Err(diag) => {
                self.err(diag);
                return Some(Lv::CONST);
            }
        };
        let extra_lvs: Vec<Lv> = selected.extra_args.iter().map(|a| self.expr(a)).collect();
        // The new definition's level and parameters, read in its module's scope (its
        // diagnostics are the selected definition's, already reported).
        let def_sym = if sym.module == self.module {
            let saved = std::mem::take(&mut self.locals);
            let n = self.diags.len();
            let s = self.op_def(&selected.def);
            self.diags.truncate(n);
            self.locals = saved;
            s
        } else {
            let scope = self.env.scope_of(&sym.module).unwrap_or_default();
            let mut c = Checker::new(&mut *self.env, &sym.module);
            for s in scope {
                c.ctx.insert(s.name.clone(), Entry { sym: s, exported: false });
            }
            c.op_def(&selected.def)
        };
        // As any application: an argument's level counts where its parameter is used.
        let mut lv = Lv::at(def_sym.level);
        for (i, alv) in head_lvs.into_iter().chain(extra_lvs).enumerate() {
            lv = lv.join(alv.through(def_sym.param_deps.get(i).copied().unwrap_or(Deps::PLAIN)));
        }
        let rewrite = Rewrite {
            path: op.path[..k].to_vec(),
            name: selected.def.name.name.clone(),
            args: head_args.iter().chain(selected.extra_args.iter().copied()).cloned().collect(),
        };
        for (original, copy) in head_args.iter().chain(selected.extra_args.iter().copied()).zip(&rewrite.args) {
            self.env.levels().copy(original, copy);
        }
        self.env.record_subexpression(&sym.module, selected.def, op.span, rewrite);
        Some(lv)
    }

    fn builtin_app(&mut self, e: &Expr, name: &str, args: &[Expr]) -> Lv {
        let want = builtin_arity(name).unwrap_or(args.len());
        if args.len() != want {
            self.err(d::wrong_arity(e.span, name, want, args.len(), None));
        }
        let lvs: Vec<(Lv, Span)> = args.iter().map(|a| (self.expr(a), a.span)).collect();
        let all = lvs.iter().fold(Lv::CONST, |a, (l, _)| a.join(*l));
        let Some((first, fspan)) = lvs.first().copied() else { return all };
        match name {
            "'" => {
                if first.level >= 3 {
                    self.err(d::temporal_in_action(fspan, "a primed expression"));
                } else if first.level == 2 {
                    self.err(d::double_prime(e.span));
                }
                first.primed()
            }
            "UNCHANGED" => {
                if first.level >= 3 {
                    self.err(d::temporal_in_action(fspan, "UNCHANGED"));
                } else if first.level == 2 {
                    self.err(d::unchanged_action(fspan));
                }
                first.primed()
            }
            "ENABLED" => {
                if first.level >= 3 {
                    self.err(d::temporal_in_action(fspan, "ENABLED"));
                }
                first.enabled()
            }
            "[]" | "<>" => {
                let arg = &args[0];
                let allowed = match (&*arg.kind, name) {
                    (ExprKind::BoxAction { .. }, "[]") => true,
                    (ExprKind::AngleAction { .. }, "<>") => true,
                    _ => false,
                };
                if first.level == 2 && !allowed {
                    self.err(d::box_of_action(e.span, name));
                }
                first.at_least(3)
            }
            "~>" | "-+->" => all.at_least(3),
            "/\\" | "\\/" | "=>" | "<=>" => {
                // SANY reports this for \land, \lor, => and \equiv alike.
                self.mixed_levels(e.span, name, &lvs);
                all
            }
            "=" => {
                if args.len() == 2 {
                    let (a, b) = (&*args[0].kind, &*args[1].kind);
                    if matches!((a, b), (ExprKind::RecordSet(_), ExprKind::Record(_)) | (ExprKind::Record(_), ExprKind::RecordSet(_))) {
                        self.err(d::record_equals_record_set(e.span));
                    }
                }
                all
            }
            _ => all,
        }
    }
}

/// SANY's level rule for `INSTANCE M WITH p <- e` where M is not a constant module (it has
/// variables): `e` (an expression, or the operator substituted for an operator constant) may
/// be no higher than `p` itself: a constant for a CONSTANT, a state function for a VARIABLE.
fn level_of_substitution(c: &mut Checker<'_, '_>, sig: &ModuleSig, p: &Sym, lv: Lv, sub: &ast::Subst) {
    let constant_module = !sig.syms.values().any(|s| matches!(s.kind, SymKind::Variable));
    if !constant_module && lv.level > p.level {
        c.err(d::substitution_level(sub.expr.span, &p.name, p.kind_word(), &sig.name, lv.level, p.level));
    }
}
