//! The constant-level evaluator over the AST: the reference semantics that the compact IR
//! (see the crate docs) will be checked against.
//!
//! Names are looked up in the local environment (bound variables, operator parameters, LET
//! definitions), then in the modules' definitions and the `.cfg` constants, then among the
//! standard modules' operators (Naturals, Integers, Sequences, FiniteSets, TLC). Every error is
//! a [`ValueError`] carrying the span of the innermost expression that failed; nothing panics,
//! and recursion is bounded.

use std::cell::{Cell, RefCell};
use crate::fxhash::{FxHashMap as HashMap, FxHashSet};
use std::rc::Rc;
use std::sync::Arc;

use tla_syntax::ast::*;
use tla_syntax::Span;
use tla_sema::{Binder, Denotes};

use crate::arith;
use crate::error::{codes, VResult, ValueError};
use crate::intern::Interner;
use crate::ptrcache::PtrCache;
use crate::value::{kind_name, Value};

mod action;
mod compile;
mod konst;
mod plan;
mod bags;
mod stdext;
mod overrides;
mod io;
mod parts;
mod level;
mod instance;
use instance::InstFrame;
use parts::{Caches, CompiledCode, Frame, Program, TlcRuntime};
pub use parts::SharedProgram;
pub use action::{ActionSite, ActionSplit, Bindings, SplitAction};

/// A state: the values of the variables, indexed by variable slot (declaration order).
pub type State = std::sync::Arc<[Value]>;

/// Slots of the evaluator's direct-mapped caches (2^FAST_BITS each).
const FAST_BITS: u32 = 12;
/// Arguments of constant function definitions whose results are kept (see `apply_global_fun`).
const FUN_MEMO_LIMIT: usize = 1 << 20;
/// Results of constant function definitions: by definition and the argument's fingerprint,
/// the arguments (compared in full) and their results.
type FunMemo = HashMap<(usize, u64), Vec<(Value, Value)>>;

/// Deepest nesting of expressions (operator calls included) before evaluation stops with an
/// error instead of exhausting the stack (wasm32's stack is small). Adjustable with
/// [`ConstEval::set_max_depth`]. Measured: about 0.7 KB of stack per level in optimised builds,
/// against wasm32's 1 MiB stack and a 2 MiB test thread. The engine is optimised in every build
/// of the workspace, tests included (the workspace's `[profile.dev.package]` lines), so the
/// bound is the same everywhere.
pub const DEFAULT_MAX_DEPTH: u32 = 1000;

#[derive(Clone)]
enum Global<'a> {
    Op(&'a OpDef),
    Fun(&'a FunDef),
    Value(Value),
    /// A named instance `I == INSTANCE M WITH ...`.
    Inst(&'a ModuleDef),
    /// A named ASSUME or THEOREM used as an operator (`ASSUME T1` where `THEOREM T1 == P`):
    /// its statement, evaluated where it is used.
    Stated(&'a Expr),
    /// A library definition TLC replaces with Java, replaced here too (see `overrides`).
    Native(&'static overrides::Override),
    /// An operator of a standard module built into the evaluator (TLC, Sequences, ...), named
    /// through an instance of that module (`T == INSTANCE TLC`, then `T!PrintT(x)`): the
    /// built-in of that name.
    Standard,
}

type Scope<'a> = HashMap<&'a str, Global<'a>>;

/// What a local name stands for.
#[derive(Clone)]
enum Binding<'a> {
    Value(Value),
    /// A LET operator, a LAMBDA, or an operator passed as an argument.
    Op(Rc<Closure<'a>>),
    /// A LET function definition `f[x \in S] == e`, applied lazily (it may be recursive).
    Fun(&'a FunDef, Env<'a>),
    /// A LET definition of a named instance (`LET CC == INSTANCE M IN CC!Op`), whose
    /// substitutions read no local name.
    Inst(&'a ModuleDef),
    /// A standard operator passed as an argument by its symbol or name (`<`, `+`, `\cup`,
    /// `Append`, `Max`), applied to values (`stdext::apply_builtin`).
    Builtin(&'a str),
}

struct Closure<'a> {
    /// The name of the LET operator it is, visible in its own body (a RECURSIVE LET operator
    /// calls itself). `None` for a LAMBDA, an argument passed by name and a module definition
    /// (found by name anyway). Not the name a call uses: passed as an argument, the closure is
    /// called by the parameter's name, which its body must not see.
    own: Option<&'a str>,
    params: Vec<(&'a str, usize)>,
    body: &'a Expr,
    env: Env<'a>,
    /// A zero-argument LET definition keeps its value here once computed in this environment,
    /// when computing it read nothing of the next state (TLC's LazyValue keeps it the same
    /// way). `None`: not kept (operators with parameters, LAMBDAs, arguments passed by name).
    memo: Option<RefCell<Option<Value>>>,
    /// How many instance frames were entered where it was made. Its body is read with those
    /// frames alone: an argument passed by name from the root module into an instance's
    /// operator means there what it means where it was written, not what the instance's
    /// substitutions make of its names (see `ConstEval::in_closure_frames`).
    depth: usize,
}

/// A persistent list of local bindings (closures capture it by reference count). Each is
/// keyed by its binder, the binding identifier's text in the AST: a name the analysis resolved
/// to that binder ([`tla_sema::Names`]) is found by comparing addresses (`get`), never names.
#[derive(Clone, Default)]
struct Env<'a>(Option<Rc<EnvLink<'a>>>);

struct EnvLink<'a> {
    /// The binding identifier's text (its address is the binder).
    name: &'a str,
    binding: Binding<'a>,
    next: Env<'a>,
}

/// The binder of `@` in an EXCEPT's value: every binding and look-up of `@` uses this text, so
/// one address.
static AT: &str = "@";

impl<'a> Env<'a> {
    /// Bind the identifier whose text (in the AST) is `name`.
    fn bind(&self, name: &'a str, binding: Binding<'a>) -> Env<'a> {
        Env(Some(Rc::new(EnvLink { name, binding, next: self.clone() })))
    }
    fn bind_value(&self, name: &'a str, v: Value) -> Env<'a> {
        self.bind(name, Binding::Value(v))
    }
    /// The innermost binding made by `binder`.
    #[inline]
    fn get(&self, binder: Binder) -> Option<&Binding<'a>> {
        let mut cur = &self.0;
        while let Some(n) = cur {
            if Binder::of(n.name) == binder {
                return Some(&n.binding);
            }
            cur = &n.next.0;
        }
        None
    }
    /// The innermost binding of a name, by its text: for names the analysis did not resolve
    /// (expressions made after it, evaluators made without one) and for the checks made when
    /// code is compiled, never for a resolved name being evaluated (see `ConstEval::local`).
    fn find_name(&self, name: &str) -> Option<&Binding<'a>> {
        self.find_link(name).map(|n| &n.binding)
    }
    /// The binder of the innermost binding of a name, by its text (see `find_name`).
    fn binder_of(&self, name: &str) -> Option<Binder> {
        self.find_link(name).map(|n| Binder::of(n.name))
    }
    fn find_link(&self, name: &str) -> Option<&EnvLink<'a>> {
        let mut cur = &self.0;
        while let Some(n) = cur {
            if same_name(n.name, name) {
                return Some(n);
            }
            cur = &n.next.0;
        }
        None
    }
    /// The binding of `binder`, or else of its name's text: a name is resolved to a binder the
    /// environment lacks when its formula is read out of its context (model loading reads some
    /// alone) or was copied after the analysis. Debug builds check that the text finds nothing
    /// either in the first case.
    #[inline]
    fn get_or_find(&self, binder: Binder, name: &str) -> Option<&Binding<'a>> {
        match self.get(binder) {
            Some(b) => Some(b),
            None => {
                let b = self.find_name(name);
                debug_assert!(b.is_none(), "{name}: bound under another binder than the analysis's");
                b
            }
        }
    }
}

/// Name equality for environment lookups: most names compared differ in length or first byte
/// (or are the same text in the same place), so those are tested before the bytes.
#[inline(always)]
fn same_name(a: &str, b: &str) -> bool {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    if x.len() != y.len() {
        return false;
    }
    if std::ptr::eq(x.as_ptr(), y.as_ptr()) {
        return true;
    }
    match x.len() {
        0 => true,
        1 => x[0] == y[0],
        _ => x[0] == y[0] && x == y,
    }
}

/// Evaluates expressions of a set of parsed modules at every level: the interpreter (this
/// file, `action`, `konst`), compiled code (`compile`, `plan`) and built-ins (`bags`,
/// `stdext`, `builtin` here), over five parts of state, each with its own job (see `parts`).
pub struct ConstEval<'a> {
    program: Arc<Program<'a>>,
    frame: Frame<'a>,
    caches: Caches<'a>,
    code: CompiledCode<'a>,
    tlc: TlcRuntime,
}

/// The figures of a finished exploration, as TLC's `TLCGet("stats")` gives them: distinct
/// states, states generated (initial states included), initial states generated, states left
/// on the queue, and the diameter (the depth TLC reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunFigures {
    pub distinct: u64,
    pub generated: u64,
    pub initial: u64,
    pub queue: u64,
    pub diameter: u64,
}

/// One of TLC's registers: `TLCSet(i, v)` with a natural number `i`, or, as newer TLCs have
/// them, `TLCSet("s:name", v)` with a string that starts with `s:`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Register {
    Index(i32),
    Named(String),
}

impl Register {
    /// What a named register's name starts with.
    pub const NAMED_PREFIX: &'static str = "s:";

    /// The register `key` names, as `TLCGet`'s argument (None: it names none).
    fn of(key: &Value) -> Option<Register> {
        match key {
            Value::Int(i) if *i >= 0 => Some(Register::Index(*i)),
            Value::Str(s) if s.as_str().starts_with(Register::NAMED_PREFIX) => Some(Register::Named(s.as_str().to_string())),
            _ => None,
        }
    }
}

#[derive(Clone, Copy)]
enum Resolved<'a> {
    /// A local (parameter, bound name, LET definition) bound by this binder.
    Local(Binder),
    Var(usize),
    Builtin(StdOp),
    /// A definition with parameters, or one whose value is not kept.
    Def(&'a OpDef),
    /// A constant-level definition of no parameters, whose value is kept (`Caches::cache`).
    Kept(&'a OpDef),
    /// A constant: its value, at this index of `Caches::constants`.
    Constant(u32),
    /// A function definition `f[x \in S] == e` of the modules.
    Fun(&'a FunDef),
    /// A library definition replaced by a built-in (see `overrides`).
    Native(&'static overrides::Override),
    /// A named ASSUME or THEOREM used as an operator: its statement.
    Stated(&'a Expr),
    /// An operator of a standard or community module that the core fast paths do not know
    /// (`SortSeq`, Bags, `stdext`'s), dispatched by its name.
    Ext,
    /// A module-level name not classified further: outside instances until its first
    /// evaluation finds what it is (or for good when it is none of the above, a named instance),
    /// inside them any (what it means there depends on the instances entered: see `instance`).
    Other,
}

/// The most frequent standard operators, dispatched without matching their names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StdOp {
    Eq,
    Neq,
    In,
    NotIn,
    Lt,
    Gt,
    Le,
    Ge,
    Add,
    Sub,
    Not,
    Mul,
    Mod,
    Div,
    Range,
    Cup,
    Cap,
    Diff,
    Subseteq,
    /// `/\`, `\/` and `=>` written as infix operators (short-circuit, as `builtin`).
    And,
    Or,
    Implies,
    Len,
    Append,
    Head,
    Tail,
    Cardinality,
    Domain,
    /// Any other: by name, through `builtin`.
    Named,
}

impl StdOp {
    /// `filter`: the set of a membership is a set filter, or names one (see `filter_target`).
    fn of(name: &str, args: &[Expr], filter: bool) -> StdOp {
        match (name, args.len()) {
            ("=", 2) => StdOp::Eq,
            ("/=", 2) => StdOp::Neq,
            // `x \in {y \in S : P}` is decided without building the set (see `builtin`).
            ("\\in", 2) if !filter => StdOp::In,
            ("\\notin", 2) if !filter => StdOp::NotIn,
            ("<", 2) => StdOp::Lt,
            (">", 2) => StdOp::Gt,
            ("<=", 2) => StdOp::Le,
            (">=", 2) => StdOp::Ge,
            ("+", 2) => StdOp::Add,
            ("-", 2) => StdOp::Sub,
            ("~", 1) => StdOp::Not,
            ("*", 2) => StdOp::Mul,
            ("%", 2) => StdOp::Mod,
            ("\\div", 2) => StdOp::Div,
            ("..", 2) => StdOp::Range,
            ("\\cup", 2) => StdOp::Cup,
            ("\\cap", 2) => StdOp::Cap,
            ("\\", 2) => StdOp::Diff,
            ("\\subseteq", 2) => StdOp::Subseteq,
            ("/\\", 2) => StdOp::And,
            ("\\/", 2) => StdOp::Or,
            ("=>", 2) => StdOp::Implies,
            ("Len", 1) => StdOp::Len,
            ("Append", 2) => StdOp::Append,
            ("Head", 1) => StdOp::Head,
            ("Tail", 1) => StdOp::Tail,
            ("Cardinality", 1) => StdOp::Cardinality,
            ("DOMAIN", 1) => StdOp::Domain,
            _ => StdOp::Named,
        }
    }
}

/// Builds the scope of module `m` (its definitions, those of the modules it extends and of
/// its unnamed instances) on top of `outer` (for a module nested in another, the enclosing
/// module's definitions that precede it, which SANY makes visible inside), and records it
/// with its variables and declared names; a nested module's own scope is recorded first, when
/// the walk reaches it, so that an instance of it further down finds it.
fn module_scope<'a>(
    m: &'a Module,
    outer: Scope<'a>,
    globals: &mut Scope<'a>,
    scopes: &mut HashMap<&'a str, Arc<Scope<'a>>>,
    module_vars: &mut HashMap<&'a str, (Arc<FxHashSet<&'a str>>, Arc<FxHashSet<&'a str>>)>,
) {
    let mut scope: Scope<'a> = outer;
    let mut vars: FxHashSet<&'a str> = FxHashSet::default();
    let mut decls: FxHashSet<&'a str> = FxHashSet::default();
    for e in &m.extends {
        // A name two extended modules define differently means the first one's, as in
        // SANY (which warns) and TLC.
        if let Some(sc) = scopes.get(e.name.as_str()) {
            for (k, v) in sc.iter() {
                scope.entry(*k).or_insert_with(|| v.clone());
            }
        }
        if let Some((vs, ds)) = module_vars.get(e.name.as_str()) {
            vars.extend(vs.iter().copied());
            decls.extend(ds.iter().copied());
        }
    }
    for u in &m.units {
        match u {
            Unit::Variables(vs) => vars.extend(vs.iter().map(|v| v.name.as_str())),
            Unit::Constants(cs) => decls.extend(cs.iter().map(|c| c.name.name.as_str())),
            Unit::OpDef(d) => {
                let g = match overrides::of(&m.name.name, &d.name.name) {
                    Some(o) => Global::Native(o),
                    None => Global::Op(d),
                };
                globals.insert(d.name.name.as_str(), g.clone());
                scope.insert(d.name.name.as_str(), g);
            }
            Unit::FunDef(d) => {
                globals.insert(d.name.name.as_str(), Global::Fun(d));
                scope.insert(d.name.name.as_str(), Global::Fun(d));
            }
            Unit::ModuleDef(d) => {
                globals.insert(d.name.name.as_str(), Global::Inst(d));
                scope.insert(d.name.name.as_str(), Global::Inst(d));
            }
            Unit::Assume(Assume { name: Some(n), expr, .. })
            | Unit::Theorem(Theorem { name: Some(n), statement: Statement::Expr(expr), .. }) => {
                globals.insert(n.name.as_str(), Global::Stated(expr));
                scope.insert(n.name.as_str(), Global::Stated(expr));
            }
            Unit::Instance(i) => {
                if let Some(sc) = scopes.get(i.module.name.as_str()) {
                    for (k, v) in sc.iter() {
                        scope.entry(*k).or_insert_with(|| v.clone());
                    }
                }
            }
            Unit::Submodule(sm) => module_scope(sm, scope.clone(), globals, scopes, module_vars),
            _ => {}
        }
    }
    scopes.insert(m.name.name.as_str(), Arc::new(scope));
    decls.extend(vars.iter().copied());
    module_vars.insert(m.name.name.as_str(), (Arc::new(vars), Arc::new(decls)));
}

fn err(code: &'static str, msg: impl Into<String>) -> ValueError {
    ValueError::new(code, msg)
}

impl<'a> ConstEval<'a> {
    /// Definitions of every module (later modules override earlier ones: pass them in
    /// dependency order with the root module last, as tla-sema's analysis lists them).
    ///
    /// The interner is seeded in TLC's order: identifiers module by module as TLC parses them
    /// (the root first, then the modules it uses, breadth first; the standard modules from
    /// [`crate::stdnames`]), then the string literals in the same module order (TLC interns a
    /// literal when it builds its value, after parsing).
    pub fn new(modules: &'a [Module]) -> ConstEval<'a> {
        ConstEval::with_config(modules, "")
    }

    /// Like [`ConstEval::new`], for a run with a `.cfg`: TLC reads the `.cfg` before it parses
    /// the modules, so the words of the `.cfg` (constant names, model values, strings) take the
    /// first ranks. TLC 2.15, with `P = {zx, zy, za}` in the `.cfg` and a record
    /// `[za |-> 1, zy |-> 2]` in the spec, prints P as `{zx, zy, za}`.
    pub fn with_config(modules: &'a [Module], cfg_text: &str) -> ConstEval<'a> {
        crate::set::forget_kept_memberships();
        let mut globals = HashMap::default();
        let mut interner = Interner::new();
        for w in crate::intern::cfg_words(cfg_text) {
            interner.intern(&w);
        }
        let mut literals = Vec::new();
        if let Some(root) = modules.last() {
            let mut queue: std::collections::VecDeque<&str> = std::collections::VecDeque::new();
            let mut seen: Vec<&str> = Vec::new();
            queue.push_back(root.name.name.as_str());
            seen.push(root.name.name.as_str());
            while let Some(name) = queue.pop_front() {
                let mut uses: Vec<&str> = Vec::new();
                if let Some(m) = modules.iter().rev().find(|m| m.name.name == name) {
                    let mut w = Walker { interner: &mut interner, literals: &mut literals };
                    w.module(m);
                    uses.extend(m.extends.iter().map(|e| e.name.as_str()));
                    for u in &m.units {
                        match u {
                            Unit::Instance(i) => uses.push(&i.module.name),
                            Unit::ModuleDef(d) => uses.push(&d.instance.module.name),
                            _ => {}
                        }
                    }
                } else if let Some((ids, deps)) = crate::stdnames::standard_module(name) {
                    for id in ids {
                        interner.intern(id);
                    }
                    uses.extend(deps.iter().copied());
                }
                for u in uses {
                    if !seen.contains(&u) {
                        seen.push(u);
                        queue.push_back(u);
                    }
                }
            }
        }
        for l in literals {
            interner.intern(l);
        }
        let mut scopes: HashMap<&'a str, Arc<Scope<'a>>> = HashMap::default();
        let mut module_vars: HashMap<&'a str, (Arc<FxHashSet<&'a str>>, Arc<FxHashSet<&'a str>>)> = HashMap::default();
        for m in modules {
            module_scope(m, Scope::default(), &mut globals, &mut scopes, &mut module_vars);
        }
        // A name means in the root module what the root's scope says: where two modules it
        // extends or instantiates define it, the first (not the module loaded last); and a
        // definition of a module it reaches only through a named instance (`D == INSTANCE
        // DieHard`, whose Min(m, n) is not the Min(S) of FiniteSetsExt) is not visible there.
        if let Some(root) = modules.last().and_then(|m| scopes.get(m.name.name.as_str())) {
            globals.retain(|k, _| root.contains_key(k));
            for (k, v) in root.iter() {
                globals.insert(*k, v.clone());
            }
        }
        ConstEval::around(Arc::new(Program {
            globals,
            interner,
            vars: HashMap::default(),
            var_names: Vec::new(),
            scopes,
            module_vars,
            overrides: HashMap::default(),
            levels: None,
            names: None,
            cacheable: Default::default(),
        }))
    }

    /// An evaluator of `program` with nothing evaluated yet: no state, empty caches, no
    /// compiled code, TLC's registers empty.
    fn around(program: Arc<Program<'a>>) -> ConstEval<'a> {
        ConstEval {
            program,
            frame: Frame {
                depth: Cell::new(0),
                max_depth: DEFAULT_MAX_DEPTH,
                cur: RefCell::new(std::sync::Arc::from(Vec::new())),
                next: RefCell::new(Vec::new()),
                primed: Cell::new(false),
                init_mode: Cell::new(false),
                cutoff: Cell::new(0),
                free: RefCell::new(Vec::new()),
                ctx: RefCell::new(Vec::new()),
                next_reads: Cell::new(0),
                enumerating: Cell::new(false),
            },
            caches: Caches {
                cache: RefCell::new(HashMap::default()),
                konst: RefCell::new(HashMap::default()),
                konst_defs: RefCell::new(HashMap::default()),
                fun_memo: RefCell::new(HashMap::default()),
                action_level: RefCell::new(HashMap::default()),
                primed_params: RefCell::new(HashMap::default()),
                primed_mask_fast: PtrCache::new(FAST_BITS, 0),
                branching: RefCell::new(HashMap::default()),
                tabled: RefCell::new(HashMap::default()),
                resolved: RefCell::new(HashMap::default()),
                resolved_fast: PtrCache::new(FAST_BITS, Resolved::Other),
                instances: Default::default(),
                constants: RefCell::default(),
                varies_fast: PtrCache::new(FAST_BITS, ()),
                pure_defs: RefCell::default(),
                state_memo: RefCell::new((std::sync::Arc::from(Vec::new()), Vec::new())),
                body_defs: RefCell::new(None),
            },
            code: CompiledCode {
                compiling: Cell::new(true),
                roots: RefCell::default(),
                roots_index: RefCell::default(),
                roots_fast: PtrCache::new(FAST_BITS, 0),
                units: RefCell::default(),
                stack: RefCell::default(),
                plans: RefCell::default(),
            },
            tlc: TlcRuntime {
                output: RefCell::new(Vec::new()),
                level: Cell::new(0),
                marks: RefCell::default(),
                registers: RefCell::default(),
                exit: Cell::new(false),
                config: RefCell::new(None),
                branch: Cell::new(0),
                branch_locked: Cell::new(false),
                composed: Cell::new(0),
                environment: RefCell::new(None),
                host: RefCell::new(None),
                figures: RefCell::new(None),
                behaviour: RefCell::new(None),
            },
        }
    }

    /// Allow deeper nesting (when running on a thread with a large stack).
    pub fn set_max_depth(&mut self, depth: u32) {
        self.forget_constants();
        self.frame.max_depth = depth;
    }

    /// Give a CONSTANT its value (from the `.cfg`).
    pub fn set_constant(&mut self, name: &'a str, v: Value) {
        self.forget_constants();
        self.program_mut().globals.insert(name, Global::Value(v));
    }

    /// A `.cfg` value (`3`, `"a"`, `{p1, p2}`); bare names are model values.
    pub fn cfg_value(&mut self, v: &tla_syntax::cfg::CfgValue) -> VResult<Value> {
        use tla_syntax::cfg::CfgValue;
        Ok(match v {
            CfgValue::Int(n) => Value::Int(arith::literal(*n)?),
            CfgValue::Str(s) => Value::Str(self.program_mut().interner.intern(s)),
            CfgValue::Bool(b) => Value::Bool(*b),
            CfgValue::ModelValue(m) => Value::model(self.program_mut().interner.intern(m)),
            CfgValue::Set(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.cfg_value(i)?);
                }
                Value::set(out)?
            }
        })
    }

    /// Give the `.cfg`'s CONSTANTS their values: `N = 3` sets a value, `Op <- Def` makes `Op`
    /// mean the definition `Def`. Returns the errors (with the `.cfg` spans); `[M]`-qualified
    /// assignments to other modules are left to the instance machinery.
    pub fn apply_config(&mut self, cfg: &'a tla_syntax::cfg::Config) -> Vec<ValueError> {
        self.forget_constants();
        use tla_syntax::cfg::ConstRhs;
        let mut errors = Vec::new();
        for c in &cfg.constants {
            if c.module.is_some() {
                continue;
            }
            match &c.rhs {
                ConstRhs::Value(v, span) => match self.cfg_value(v) {
                    Ok(val) => self.set_constant(&c.name.name, val),
                    Err(e) => errors.push(e.at(*span)),
                },
                ConstRhs::Subst(def) => match self.program.globals.get(def.name.as_str()).cloned() {
                    Some(g) => {
                        self.program_mut().globals.insert(&c.name.name, g);
                    }
                    None => errors.push(err(codes::UNKNOWN, format!("{} <- {}: no definition named {}", c.name.name, def.name, def.name)).at(def.span)),
                },
                ConstRhs::ModSubst { .. } => {}
            }
        }
        errors
    }

    /// The intern table (to build `.cfg` values and model values with TLC's ranks).
    pub fn interner_mut(&mut self) -> &mut Interner {
        self.forget_constants();
        &mut self.program_mut().interner
    }

    /// What `Print` and `PrintT` would have printed, in order (this crate does no I/O).
    pub fn take_output(&self) -> Vec<String> {
        std::mem::take(&mut *self.tlc.output.borrow_mut())
    }

    /// Evaluate an expression with no local bindings.
    pub fn eval(&self, e: &'a Expr) -> VResult<Value> {
        self.ev(e, &Env::default())
    }

    /// The value of a zero-argument definition.
    pub fn eval_def(&self, name: &str) -> VResult<Value> {
        match self.program.globals.get(name) {
            Some(Global::Op(d)) if d.params.is_empty() => self.eval(&d.body),
            Some(Global::Value(v)) => Ok(v.clone()),
            Some(Global::Fun(d)) => self.fun_value(d, &Env::default()),
            _ => Err(err(codes::UNKNOWN, format!("no zero-argument definition named {}", name))),
        }
    }

    /// Forget what is known of constant subexpressions (the definitions or constants changed).
    fn forget_constants(&mut self) {
        self.caches.konst.get_mut().clear();
        self.caches.konst_defs.get_mut().clear();
        self.caches.fun_memo.get_mut().clear();
        self.caches.action_level.get_mut().clear();
        self.caches.resolved.get_mut().clear();
        self.caches.instances.clear();
        self.caches.resolved_fast.clear(Resolved::Other);
        self.caches.constants.get_mut().clear();
        self.caches.primed_mask_fast.clear(0);
        self.caches.varies_fast.clear(());
        self.code.roots.get_mut().clear();
        self.code.roots_index.get_mut().clear();
        self.code.roots_fast.clear(0);
        self.code.units.get_mut().clear();
        self.caches.pure_defs.get_mut().clear();
        self.caches.state_memo.get_mut().1.clear();
        *self.caches.body_defs.get_mut() = None;
        self.code.plans.get_mut().clear();
    }

    #[inline]
    fn ev(&self, e: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        if konst::worth_keeping(e) && self.frame.ctx.borrow().is_empty() {
            if self.caches.varies_fast.get(e as *const Expr as usize).is_none()
                && let Some(r) = self.konst_value(e, env)
            {
                return r;
            }
            // Compiled once when it reads only the current state (see `compile`).
            if self.code.compiling.get()
                && !self.frame.primed.get()
                && !self.frame.init_mode.get()
                && let Some(root) = self.root(e, env)
            {
                return self.run_root(&root, e, env);
            }
        }
        self.ev_uncached(e, env)
    }

    /// Whether expressions are compiled (on by default). Off, the interpreter evaluates
    /// everything: the same answers, slower (tests compare the two).
    pub fn set_compiling(&mut self, on: bool) {
        self.code.compiling.set(on);
    }

    fn ev_uncached(&self, e: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        self.enter().map_err(|x| x.at(e.span))?;
        let r = self.ev_inner(e, env).map_err(|x| x.at(e.span));
        self.leave();
        r
    }

    fn ev_bool(&self, e: &'a Expr, env: &Env<'a>) -> VResult<bool> {
        let v = self.ev(e, env)?;
        match v {
            Value::Bool(b) => Ok(b),
            _ => Err(err(codes::TYPE, format!("expected a boolean, found the {} {}", kind_name(&v), v)).at(e.span)),
        }
    }


    fn ev_inner(&self, e: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        match &*e.kind {
            ExprKind::Num(n) => Ok(Value::Int(arith::literal(*n)?)),
            ExprKind::Decimal(d) => Err(err(codes::UNSUPPORTED, format!("TLC cannot evaluate the decimal number {}", d))),
            ExprKind::Str(s) => Ok(Value::Str(self.program.interner.get(s))),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::OpApp { op, args } => self.op_app(op, args, env, e.span),
            ExprKind::FunApp { fun, args } => self.ev_fun_app(fun, args, env),
            ExprKind::Field { record, field } => {
                let r = self.ev(record, env)?;
                r.field(&self.program.interner.get(&field.name))
            }
            ExprKind::Junction { kind, items, .. } => {
                for it in items {
                    let b = self.ev_bool(it, env)?;
                    match kind {
                        JunctionKind::And if !b => return Ok(Value::Bool(false)),
                        JunctionKind::Or if b => return Ok(Value::Bool(true)),
                        _ => {}
                    }
                }
                Ok(Value::Bool(matches!(kind, JunctionKind::And)))
            }
            ExprKind::If { cond, then, els } => {
                if self.ev_bool(cond, env)? { self.ev(then, env) } else { self.ev(els, env) }
            }
            ExprKind::Case { arms, other } => self.ev_case(arms, other.as_ref(), env),
            ExprKind::Let { defs, body } => self.ev_let(defs, body, env),
            ExprKind::Quant { kind, bounds, body } => self.ev_quant(*kind, bounds, body, env),
            ExprKind::TemporalQuant { .. } => Err(err(codes::NOT_CONSTANT, "\\AA and \\EE have no value at constant level")),
            ExprKind::Choose { bound, body } => self.ev_choose(bound, body, env),
            ExprKind::SetEnum(items) => Value::set(items.iter().map(|i| self.ev(i, env)).collect::<VResult<_>>()?),
            ExprKind::SetFilter { bound, pred } => self.ev_set_filter(bound, pred, env),
            ExprKind::SetMap { body, bounds } => self.ev_set_map(body, bounds, env),
            ExprKind::FunCons { bounds, body } => self.fun_cons(bounds, body, env),
            ExprKind::FunSet { domain, range } => Value::fcn_set(self.ev(domain, env)?, self.ev(range, env)?),
            ExprKind::Record(fields) => self.ev_record(fields, false, env),
            ExprKind::RecordSet(fields) => self.ev_record(fields, true, env),
            ExprKind::Except { base, updates } => self.ev_except(base, updates, env),
            ExprKind::At => match env.get(Binder::of(AT)) {
                Some(Binding::Value(v)) => Ok(v.clone()),
                _ => Err(err(codes::UNKNOWN, "@ used outside an EXCEPT value")),
            },
            ExprKind::Tuple(items) => Value::tuple(items.iter().map(|i| self.ev(i, env)).collect::<VResult<_>>()?),
            ExprKind::Times(items) => Value::product(items.iter().map(|i| self.ev(i, env)).collect::<VResult<_>>()?),
            ExprKind::BoxAction { action, sub } => {
                if self.ev_bool(action, env)? {
                    return Ok(Value::Bool(true));
                }
                let now = self.ev(sub, env)?;
                Ok(Value::Bool(now.tlc_eq(&self.ev_primed(sub, env)?)?))
            }
            ExprKind::AngleAction { action, sub } => {
                if !self.ev_bool(action, env)? {
                    return Ok(Value::Bool(false));
                }
                let now = self.ev(sub, env)?;
                Ok(Value::Bool(!now.tlc_eq(&self.ev_primed(sub, env)?)?))
            }
            ExprKind::Fair { .. } => {
                Err(err(codes::NOT_CONSTANT, "an action or temporal formula has no value at constant level"))
            }
            ExprKind::Lambda { .. } => Err(err(codes::TYPE, "LAMBDA can only be an argument of an operator")),
            ExprKind::Label { body, .. } => self.ev(body, env),
            ExprKind::Error => Err(err(codes::UNSUPPORTED, "this expression did not parse")),
        }
    }

    #[inline(never)]
    fn ev_fun_app(&self, fun: &'a Expr, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
                let arg = if args.len() == 1 {
                    self.ev(&args[0], env)?
                } else {
                    Value::tuple(args.iter().map(|a| self.ev(a, env)).collect::<VResult<_>>()?)?
                };
                // A function definition is applied without building the whole function (its
                // domain may be infinite and the definition recursive).
                if let ExprKind::OpApp { op, args: fargs } = &*fun.kind
                    && op.path.is_empty() && fargs.is_empty() {
                        // A variable (the usual `pc[self]`) or a function definition, known from
                        // an earlier evaluation.
                        let top = self.frame.ctx.borrow().is_empty();
                        match self.resolved_at(op) {
                            Some(Resolved::Var(slot)) if top => return self.read_var(slot).map_err(|x| x.at(fun.span))?.apply(&arg),
                            Some(Resolved::Fun(d)) if top => return self.apply_global_fun(d, &arg),
                            _ => {}
                        }
                        match self.local(op, env) {
                            Some(Binding::Fun(d, fenv)) => {
                                // A LET function sees itself (it may be recursive).
                                let own = fenv.bind(&d.name.name, Binding::Fun(d, fenv.clone()));
                                return self.apply_fun_def(d, &own, &arg);
                            }
                            Some(_) => {}
                            None => {
                                if let Some(Global::Fun(d)) = self.global_at(op) {
                                    return self.apply_global_fun(d, &arg);
                                }
                            }
                        }
                    }
                self.ev(fun, env)?.apply(&arg)
            }

    #[inline(never)]
    fn ev_case(&self, arms: &'a [CaseArm], other: Option<&'a Expr>, env: &Env<'a>) -> VResult<Value> {
                for arm in arms {
                    if self.ev_bool(&arm.guard, env)? {
                        return self.ev(&arm.body, env);
                    }
                }
                match other {
                    Some(o) => self.ev(o, env),
                    None => Err(err(codes::CASE_NONE, "Attempted to evaluate a CASE with no arm enabled and no OTHER")),
                }
            }

    #[inline(never)]
    fn let_env(&self, defs: &'a [LetDef], env: &Env<'a>) -> VResult<Env<'a>> {
                let mut env2 = env.clone();
                for d in defs {
                    match d {
                        LetDef::Op(od) => {
                            let memo = if od.params.is_empty() { Some(RefCell::new(None)) } else { None };
                            let cl = Closure {
                                own: Some(od.name.name.as_str()),
                                params: od.params.iter().map(|p| (p.name.name.as_str(), p.arity)).collect(),
                                body: &od.body,
                                env: env2.clone(),
                                memo,
                                depth: self.frames_entered(),
                            };
                            // A LET operator sees itself only when declared RECURSIVE; binding it
                            // in its own environment would need a cycle, so recursive LET
                            // operators are resolved by name at call time (see `call_closure`).
                            env2 = env2.bind(od.name.name.as_str(), Binding::Op(Rc::new(cl)));
                        }
                        LetDef::Fun(fd) => {
                            env2 = env2.bind(fd.name.name.as_str(), Binding::Fun(fd, env2.clone()));
                        }
                        LetDef::Recursive(_) => {}
                        // An instance whose substitutions read a local name (a parameter of the
                        // operator around the LET) would need them bound where it is used.
                        LetDef::ModuleDef(m) if m.instance.substs.iter().any(|s| reads_local(&s.expr, &env2)) => {
                            return Err(err(
                                codes::UNSUPPORTED,
                                format!("an instance inside LET whose substitutions read a local name is not evaluated yet ({})", m.name.name),
                            ));
                        }
                        LetDef::ModuleDef(m) => {
                            env2 = env2.bind(m.name.name.as_str(), Binding::Inst(m));
                        }
                    }
                }
                Ok(env2)
            }

    #[inline(never)]
    fn ev_let(&self, defs: &'a [LetDef], body: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        let env2 = self.let_env(defs, env)?;
        self.ev(body, &env2)
    }

    #[inline(never)]
    fn ev_quant(&self, kind: QuantKind, bounds: &'a [Bound], body: &'a Expr, env: &Env<'a>) -> VResult<Value> {
                let sets = self.bound_sets(bounds, env)?;
                let want = matches!(kind, QuantKind::Exists);
                let mut found = !want;
                self.for_each_binding(bounds, &sets, env, &mut |env2| {
                    if self.ev_bool(body, env2)? == want {
                        found = want;
                        return Ok(false);
                    }
                    Ok(true)
                })?;
                Ok(Value::Bool(found))
            }

    #[inline(never)]
    fn ev_choose(&self, bound: &'a Bound, body: &'a Expr, env: &Env<'a>) -> VResult<Value> {
                let Some(set_e) = &bound.set else {
                    return Err(err(codes::NOT_ENUMERABLE, "TLC cannot evaluate an unbounded CHOOSE"));
                };
                // TLC's CHOOSE scans the set in normalized (sorted) order.
                let set = self.ev(set_e, env)?.to_set()?;
                for v in set.elems() {
                    let env2 = self.bind_bound(&bound.vars, v.clone(), env)?;
                    if self.ev_bool(body, &env2)? {
                        return Ok(v.clone());
                    }
                }
                Err(err(
                    codes::CHOOSE_NONE,
                    format!("Attempted to compute the value of CHOOSE x \\in S : P, but no element of S = {} satisfies P", Value::Set(set)),
                ))
            }

    #[inline(never)]
    fn ev_set_filter(&self, bound: &'a Bound, pred: &'a Expr, env: &Env<'a>) -> VResult<Value> {
                let Some(set_e) = &bound.set else {
                    return Err(err(codes::NOT_ENUMERABLE, "a set filter needs a bounding set"));
                };
                let base = self.ev(set_e, env)?;
                let mut out = Vec::new();
                for v in base.elements()? {
                    let v = v?;
                    let env2 = self.bind_bound(&bound.vars, v.clone(), env)?;
                    if self.ev_bool(pred, &env2)? {
                        out.push(v);
                    }
                }
                // A part of a canonical set, in its order, is canonical.
                if let Value::Set(_) = base {
                    return Ok(Value::Set(crate::value::SetVal::from_sorted(out)));
                }
                Value::set(out)
            }

    #[inline(never)]
    fn ev_set_map(&self, body: &'a Expr, bounds: &'a [Bound], env: &Env<'a>) -> VResult<Value> {
                let sets = self.bound_sets(bounds, env)?;
                let mut out = Vec::new();
                self.for_each_binding(bounds, &sets, env, &mut |env2| {
                    out.push(self.ev(body, env2)?);
                    Ok(true)
                })?;
                Value::set(out)
            }

    #[inline(never)]
    fn ev_except(&self, base: &'a Expr, updates: &'a [ExceptUpdate], env: &Env<'a>) -> VResult<Value> {
                let mut f = self.ev(base, env)?;
                for u in updates {
                    f = self.except_path(&f, &u.path, &u.value, env)?;
                }
                Ok(f)
            }

    #[inline(never)]
    fn ev_record(&self, fields: &'a [(Ident, Expr)], set: bool, env: &Env<'a>) -> VResult<Value> {
        let mut fs = Vec::new();
        for (name, ex) in fields {
            fs.push((self.program.interner.get(&name.name), self.ev(ex, env)?));
        }
        if set { Value::record_set(fs) } else { Value::record(fs) }
    }

    #[inline(never)]
    fn except_path(&self, f: &Value, path: &'a [ExceptStep], val: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        let Some((step, rest)) = path.split_first() else {
            return self.ev(val, &env.bind_value(AT, f.clone()));
        };
        let key = match step {
            ExceptStep::Index(args) if args.len() == 1 => self.ev(&args[0], env)?,
            ExceptStep::Index(args) => Value::tuple(args.iter().map(|a| self.ev(a, env)).collect::<VResult<_>>()?)?,
            ExceptStep::Field(id) => Value::Str(self.program.interner.get(&id.name)),
        };
        // TLC leaves the function unchanged when the argument is outside its domain.
        let old = match f.apply(&key) {
            Ok(v) => v,
            Err(e) if e.code == codes::NOT_IN_DOMAIN => return Ok(f.clone()),
            Err(e) => return Err(e),
        };
        let new = self.except_path(&old, rest, val, env)?;
        f.except(&key, new)
    }

    /// The sets of a list of bounds, evaluated in the outer environment.
    fn bound_sets(&self, bounds: &'a [Bound], env: &Env<'a>) -> VResult<Vec<Value>> {
        bounds
            .iter()
            .map(|b| match &b.set {
                Some(s) => self.ev(s, env),
                None => Err(err(codes::NOT_ENUMERABLE, "TLC cannot evaluate an unbounded quantifier")),
            })
            .collect()
    }

    /// Bind `x` or `<<x, y>>` to a value.
    fn bind_bound(&self, vars: &'a BoundVars, v: Value, env: &Env<'a>) -> VResult<Env<'a>> {
        match vars {
            BoundVars::Names(names) if names.len() == 1 => Ok(env.bind_value(&names[0].name, v)),
            BoundVars::Names(_) => Err(err(codes::UNSUPPORTED, "several names bound to one element")),
            BoundVars::Tuple(names) => {
                let Value::Seq(t) = &v else {
                    return Err(err(codes::TYPE, format!("cannot bind <<...>> to the {} {}", kind_name(&v), v)));
                };
                if t.len() != names.len() {
                    return Err(err(codes::TYPE, format!("cannot bind a {}-tuple pattern to {}", names.len(), v)));
                }
                let mut e2 = env.clone();
                for (n, x) in names.iter().zip(t.iter()) {
                    e2 = e2.bind_value(&n.name, x.clone());
                }
                Ok(e2)
            }
        }
    }

    /// Every combination of bound values, in TLC's order: the first variable turns fastest
    /// (`\E j \in 0..1, k \in 0..2` gives j, k = 0, 0 then 1, 0 then 0, 1, ...); `f` returns
    /// false to stop.
    #[inline(never)]
    fn for_each_binding(
        &self,
        bounds: &'a [Bound],
        sets: &[Value],
        env: &Env<'a>,
        f: &mut dyn FnMut(&Env<'a>) -> VResult<bool>,
    ) -> VResult<bool> {
        // Flatten `x, y \in S` into one slot per name.
        let mut slots: Vec<(&'a BoundVars, Option<&'a str>, &Value)> = Vec::new();
        for (b, s) in bounds.iter().zip(sets.iter()) {
            match &b.vars {
                BoundVars::Names(ns) => {
                    for n in ns {
                        slots.push((&b.vars, Some(n.name.as_str()), s));
                    }
                }
                BoundVars::Tuple(_) => slots.push((&b.vars, None, s)),
            }
        }
        self.iterate_slots(&slots, env, f)
    }

    #[inline(never)]
    fn iterate_slots(
        &self,
        slots: &[(&'a BoundVars, Option<&'a str>, &Value)],
        env: &Env<'a>,
        f: &mut dyn FnMut(&Env<'a>) -> VResult<bool>,
    ) -> VResult<bool> {
        let Some(((vars, name, set), rest)) = slots.split_last() else {
            return f(env);
        };
        let mut step = |v: Value| -> VResult<bool> {
            let env2 = match name {
                Some(n) => env.bind_value(n, v),
                None => self.bind_bound(vars, v, env)?,
            };
            self.iterate_slots(rest, &env2, f)
        };
        each_element(set, &mut step)
    }

    #[inline(never)]
    fn fun_cons(&self, bounds: &'a [Bound], body: &'a Expr, env: &Env<'a>) -> VResult<Value> {
        let sets = self.bound_sets(bounds, env)?;
        let single = bounds.len() == 1 && bounds[0].vars.idents().len() == 1 || matches!(bounds, [b] if matches!(b.vars, BoundVars::Tuple(_)));
        if single {
            let dom = sets[0].to_set()?;
            let mut vals = Vec::with_capacity(dom.len());
            for d in dom.elems() {
                let env2 = self.bind_bound(&bounds[0].vars, d.clone(), env)?;
                vals.push(self.ev(body, &env2)?);
            }
            return Value::fcn_over(&dom, vals);
        }
        // Several variables: the domain is a set of tuples.
        let mut pairs = Vec::new();
        let mut names: Vec<&'a str> = Vec::new();
        for b in bounds {
            for n in b.vars.idents() {
                names.push(&n.name);
            }
        }
        self.for_each_binding(bounds, &sets, env, &mut |env2| {
            let mut key = Vec::new();
            for n in &names {
                if let Some(Binding::Value(v)) = env2.get(Binder::of(n)) {
                    key.push(v.clone());
                }
            }
            pairs.push((Value::tuple(key)?, self.ev(body, env2)?));
            Ok(true)
        })?;
        Value::fcn(pairs)
    }

    /// `f[x \in S] == e` as a value: built over its whole (finite) domain.
    fn fun_value(&self, d: &'a FunDef, env: &Env<'a>) -> VResult<Value> {
        self.enter()?;
        let r = self.fun_cons(&d.bounds, &d.body, env);
        self.leave();
        r
    }

    /// `f[arg]` of a module's function definition. When its body is constant (reads no state,
    /// no effect) and we are outside instances, each argument's result is kept: `HostOf[pid]`
    /// of a CHOOSE over constants is computed once per `pid`, not once per state. Errors are
    /// not kept (they are raised again, as before).
    fn apply_global_fun(&self, d: &'a FunDef, arg: &Value) -> VResult<Value> {
        let key = d as *const FunDef as usize;
        if !self.frame.ctx.borrow().is_empty() || !self.def_const(key, &[d.name.name.as_str()], &d.body, &d.bounds, 0) {
            return self.apply_fun_def(d, &Env::default(), arg);
        }
        let Ok(fp) = arg.fingerprint() else {
            return self.apply_fun_def(d, &Env::default(), arg);
        };
        if let Some(seen) = self.caches.fun_memo.borrow().get(&(key, fp))
            && let Some((_, r)) = seen.iter().find(|(a, _)| a == arg)
        {
            return Ok(r.clone());
        }
        let r = self.apply_fun_def(d, &Env::default(), arg)?;
        let mut memo = self.caches.fun_memo.borrow_mut();
        if memo.len() < FUN_MEMO_LIMIT {
            memo.entry((key, fp)).or_default().push((arg.clone(), r.clone()));
        }
        Ok(r)
    }

    /// `f[arg]` for a function definition: membership in the domain, then the body.
    #[inline(never)]
    fn apply_fun_def(&self, d: &'a FunDef, env: &Env<'a>, arg: &Value) -> VResult<Value> {
        self.enter()?;
        let r = self.fun_def_env(d, env, arg).and_then(|env2| self.ev(&d.body, &env2));
        self.leave();
        r
    }

    /// The environment the body of the function definition `d` is read in for `d[arg]`: `env`
    /// with its bound names given the argument's components, each checked to be in its set.
    fn fun_def_env(&self, d: &'a FunDef, env: &Env<'a>, arg: &Value) -> VResult<Env<'a>> {
        // One name over one set, the usual `f[x \in S]`: no lists built.
        if let [Bound { vars: BoundVars::Names(ns), set: Some(set), .. }] = &d.bounds[..]
            && let [n] = &ns[..]
        {
            if !self.ev(set, env)?.member(arg)? {
                return Err(err(
                    codes::NOT_IN_DOMAIN,
                    format!("Attempted to apply function {} to argument {}, which is not in its domain", d.name.name, arg),
                ));
            }
            return Ok(env.bind_value(&n.name, arg.clone()));
        }
        let sets = self.bound_sets(&d.bounds, env)?;
        let mut names: Vec<(&'a BoundVars, &Value)> = Vec::new();
        for (b, s) in d.bounds.iter().zip(sets.iter()) {
            names.push((&b.vars, s));
        }
        let total: usize = d.bounds.iter().map(|b| match &b.vars {
            BoundVars::Names(ns) => ns.len(),
            BoundVars::Tuple(_) => 1,
        }).sum();
        let comps: Vec<Value> = if total == 1 {
            vec![arg.clone()]
        } else {
            match arg {
                Value::Seq(t) if t.len() == total => t.to_vec(),
                _ => return Err(err(codes::NOT_IN_DOMAIN, format!("{} is not in the domain of {}", arg, d.name.name))),
            }
        };
        let mut env2 = env.clone();
        let mut k = 0;
        for (vars, set) in names {
            let count = match vars {
                BoundVars::Names(ns) => ns.len(),
                BoundVars::Tuple(_) => 1,
            };
            for j in 0..count {
                let v = &comps[k];
                if !set.member(v)? {
                    return Err(err(
                        codes::NOT_IN_DOMAIN,
                        format!("Attempted to apply function {} to argument {}, which is not in its domain", d.name.name, arg),
                    ));
                }
                env2 = match vars {
                    BoundVars::Names(ns) => env2.bind_value(&ns[j].name, v.clone()),
                    BoundVars::Tuple(_) => self.bind_bound(vars, v.clone(), &env2)?,
                };
                k += 1;
            }
        }
        Ok(env2)
    }

    /// Bytes of stack between the outermost and the current evaluation frame (for tuning).
    #[doc(hidden)]
    pub fn stack_probe() -> usize {
        let x = 0u8;
        &x as *const u8 as usize
    }

    fn enter(&self) -> VResult<()> {
        let d = self.frame.depth.get() + 1;
        if d > self.frame.max_depth {
            return Err(err(codes::TOO_DEEP, format!("evaluation nested more than {} levels deep (unbounded recursion?)", self.frame.max_depth)));
        }
        self.frame.depth.set(d);
        Ok(())
    }
    fn leave(&self) {
        self.frame.depth.set(self.frame.depth.get().saturating_sub(1));
    }

    /// The level `TLCGet("level")` answers from now on: the level of the state whose
    /// successors are computed and checked next (1 for an initial state), 0 for the initial
    /// states themselves.
    pub fn set_level(&self, level: u32) {
        self.tlc.level.set(level.min(i32::MAX as u32) as i32);
    }

    /// The figures of a finished exploration, which `TLCGet("stats")`, `TLCGet("distinct")`,
    /// `TLCGet("generated")`, `TLCGet("queue")` and `TLCGet("diameter")` answer (in a
    /// POSTCONDITION); `None` while exploring.
    pub fn set_run_figures(&self, figures: Option<RunFigures>) {
        *self.tlc.figures.borrow_mut() = figures;
    }

    /// What `TLCGet` answers for one of TLC's statistics, `key`: from the figures of a finished
    /// run, the clock from the host.
    fn run_statistic(&self, key: &str) -> VResult<Value> {
        let int = |n: u64| Value::Int(i32::try_from(n).unwrap_or(i32::MAX));
        let duration = || -> VResult<Value> {
            let host = self.tlc.host.borrow().clone();
            match host.and_then(|h| h.seconds_since_start()) {
                Some(s) => Ok(int(s)),
                None => Err(err(codes::UNSUPPORTED, format!("TLCGet(\"{key}\") reads the clock, and this run has none (`sysmo check` gives its own)"))),
            }
        };
        if key == "duration" {
            return duration();
        }
        let Some(f) = self.tlc.figures.borrow().clone() else {
            return Err(err(
                codes::UNSUPPORTED,
                format!(
                    "TLCGet(\"{key}\") is answered once the state space is explored (in a POSTCONDITION): while \
                     exploring, TLC's figures depend on its order of work, which this checker does not reproduce"
                ),
            ));
        };
        Ok(match key {
            "distinct" => int(f.distinct),
            "generated" => int(f.generated),
            "queue" => int(f.queue),
            "diameter" => int(f.diameter),
            // TLC's record: queue, distinct, initial, generated, diameter, duration, worker.
            _ => {
                let mut fields = vec![
                    (self.program.interner.get("queue"), int(f.queue)),
                    (self.program.interner.get("distinct"), int(f.distinct)),
                    (self.program.interner.get("initial"), int(f.initial)),
                    (self.program.interner.get("generated"), int(f.generated)),
                    (self.program.interner.get("diameter"), int(f.diameter)),
                    (self.program.interner.get("worker"), Value::Int(0)),
                ];
                if let Ok(d) = duration() {
                    fields.push((self.program.interner.get("duration"), d));
                }
                Value::record(fields)?
            }
        })
    }

    /// The behaviour TLCExt's `Trace` answers from now on: the states from an initial one to
    /// the state being evaluated; `None`: none (then `Trace` is an error that says so).
    pub fn set_behaviour(&self, states: Option<Vec<State>>) {
        *self.tlc.behaviour.borrow_mut() = states;
    }

    /// What `TLCGet("config")` answers in a breadth-first model-checking run: TLC's record
    /// `[mode |-> "bfs", deadlock, worker, seed, fingerprint, install]`. TLC's seed,
    /// fingerprint polynomial and install location are its own; this checker answers "0",
    /// "0" and "sysmo".
    pub fn set_check_config(&self, deadlock: bool, workers: usize) {
        let s = |t: &str| Value::Str(self.program.interner.get(t));
        let fields = vec![
            (self.program.interner.get("mode"), s("bfs")),
            (self.program.interner.get("deadlock"), Value::Bool(deadlock)),
            (self.program.interner.get("worker"), Value::Int(i32::try_from(workers).unwrap_or(i32::MAX))),
            (self.program.interner.get("seed"), s("0")),
            (self.program.interner.get("fingerprint"), s("0")),
            (self.program.interner.get("install"), s("sysmo")),
        ];
        *self.tlc.config.borrow_mut() = Value::record(fields).ok();
    }

    /// Whether `TLCSet("exit", TRUE)` has been evaluated: as TLC, the explorer finishes the
    /// state it is expanding, then stops as if it had found no error.
    pub fn exit_requested(&self) -> bool {
        self.tlc.exit.get()
    }

    /// How many intermediate states of action compositions (`A \cdot B`, the states `A`
    /// reaches) were enumerated since the last call: TLC counts each as a state generated.
    pub fn take_composed(&self) -> u64 {
        self.tlc.composed.replace(0)
    }

    /// The environment variables `IOEnv` answers (IOUtils): the host's (the CLI gives its
    /// process's). The engine reads none itself.
    pub fn set_environment(&self, vars: &[(String, String)]) -> VResult<()> {
        let fields = vars.iter().map(|(k, v)| (self.program.interner.get(k), Value::Str(self.program.interner.get(v)))).collect();
        *self.tlc.environment.borrow_mut() = Some(Value::record(fields)?);
        Ok(())
    }

    /// TLC's registers as `TLCSet` left them.
    pub fn registers(&self) -> Vec<(Register, Value)> {
        self.tlc.registers.borrow().iter().map(|(i, v)| (i.clone(), v.clone())).collect()
    }

    /// Set TLC's registers (a worker starts with those the ASSUMEs set, as in TLC, where a
    /// `TLCSet` outside the workers sets the register of every worker).
    pub fn set_registers(&self, regs: &[(Register, Value)]) {
        *self.tlc.registers.borrow_mut() = regs.iter().cloned().collect();
    }

    /// An argument of a call evaluated for its value (a guard, an invariant, an action checked
    /// on a step). A parameter the body primes or leaves UNCHANGED (`Prime(v) == v'`,
    /// `Keep(v) == UNCHANGED v`) stands for the argument's expression, not its value in the
    /// current state: TLC substitutes arguments by name, so `Prime(x)` is `x'`. Others by value.
    #[allow(clippy::too_many_arguments)]
    fn value_arg(&self, arity: usize, a: &'a Expr, env: &Env<'a>, primed: u64, body: &'a Expr, param: &str, pos: usize) -> VResult<Binding<'a>> {
        let by_name = if pos < 64 { primed & (1 << pos) != 0 } else { self.primes_param(body, param, pos) };
        if arity == 0 && by_name {
            return Ok(Binding::Op(Rc::new(Closure { own: None, params: Vec::new(), body: a, env: env.clone(), memo: None, depth: self.frames_entered() })));
        }
        self.op_arg(arity, a, env)
    }

    /// Which of the first 64 parameters (named `params`) the definition body `body` may prime
    /// or leave UNCHANGED (see `primes_param`), a bit each: found once per body.
    #[inline]
    fn primed_mask<'p>(&self, body: &'a Expr, params: impl Iterator<Item = &'p str>) -> u64 {
        let key = body as *const Expr as usize;
        if let Some(m) = self.caches.primed_mask_fast.get(key) {
            return m;
        }
        let m = params.take(64).enumerate().fold(0u64, |m, (i, p)| if self.primes_param(body, p, i) { m | 1 << i } else { m });
        self.caches.primed_mask_fast.put(key, m);
        m
    }

    /// An operator argument: a LAMBDA, an operator name, or an ordinary value.
    fn op_arg(&self, arity: usize, a: &'a Expr, env: &Env<'a>) -> VResult<Binding<'a>> {
        if arity == 0 {
            return Ok(Binding::Value(self.ev(a, env)?));
        }
        match &*a.kind {
            ExprKind::Lambda { params, body } => Ok(Binding::Op(Rc::new(Closure {
                own: None,
                params: params.iter().map(|p| (p.name.as_str(), 0)).collect(),
                body,
                env: env.clone(),
                memo: None,
                depth: self.frames_entered(),
            }))),
            ExprKind::OpApp { op, args } if args.is_empty() && op.path.is_empty() => {
                if let Some(b) = self.local(op, env) {
                    return Ok(b.clone());
                }
                match self.global_at(op) {
                    Some(Global::Op(d)) => Ok(Binding::Op(Rc::new(Closure {
                        own: None,
                        params: d.params.iter().map(|p| (p.name.name.as_str(), p.arity)).collect(),
                        body: &d.body,
                        env: Env::default(),
                        memo: None,
                        depth: self.frames_entered(),
                    }))),
                    _ if stdext::builtin_arg(op.name.as_str(), arity) => Ok(Binding::Builtin(op.name.as_str())),
                    _ => Err(err(codes::UNSUPPORTED, format!("passing the built-in operator {} as an argument is not supported yet", op.name))),
                }
            }
            _ => Err(err(codes::TYPE, "expected an operator (a name or a LAMBDA) as this argument")),
        }
    }

    #[inline(never)]
    /// A call of a closure's body (or of a definition's, with `depth` usize::MAX), made at
    /// `depth` instance frames (see `Closure::depth`).
    #[allow(clippy::too_many_arguments)]
    fn call(&self, params: &[(&'a str, usize)], body: &'a Expr, base: &Env<'a>, args: &'a [Expr], env: &Env<'a>, name: &str, depth: usize) -> VResult<Value> {
        if params.len() != args.len() {
            return Err(err(codes::ARITY, format!("{} takes {} arguments, not {}", name, params.len(), args.len())));
        }
        let mut callee = base.clone();
        let primed = self.primed_mask(body, params.iter().map(|p| p.0));
        for (i, ((p, arity), a)) in params.iter().zip(args.iter()).enumerate() {
            callee = callee.bind(p, self.value_arg(*arity, a, env, primed, body, p, i)?);
        }
        self.enter()?;
        let r = self.in_closure_frames(depth, || self.ev(body, &callee));
        self.leave();
        r
    }

    /// A call of the global definition `d` (its parameters bound to the arguments).
    fn call_def(&self, d: &'a OpDef, args: &'a [Expr], env: &Env<'a>, name: &str) -> VResult<Value> {
        if d.params.len() != args.len() {
            return Err(err(codes::ARITY, format!("{} takes {} arguments, not {}", name, d.params.len(), args.len())));
        }
        let mut callee = Env::default();
        let primed = self.primed_mask(&d.body, d.params.iter().map(|p| p.name.name.as_str()));
        for (i, (p, a)) in d.params.iter().zip(args.iter()).enumerate() {
            callee = callee.bind(&p.name.name, self.value_arg(p.arity, a, env, primed, &d.body, &p.name.name, i)?);
        }
        self.enter()?;
        let r = self.ev(&d.body, &callee);
        self.leave();
        r
    }

    /// What `op` means at its node outside instances, if known (see `resolved`).
    #[inline]
    fn resolved_at(&self, op: &'a OpName) -> Option<Resolved<'a>> {
        let key = op as *const OpName as usize;
        if let Some(r) = self.caches.resolved_fast.get(key) {
            return Some(r);
        }
        let r = self.caches.resolved.borrow().get(&(op as *const OpName)).copied();
        if let Some(r) = r {
            self.caches.resolved_fast.put(key, r);
        }
        r
    }

    fn set_resolved(&self, op: &'a OpName, r: Resolved<'a>) {
        self.caches.resolved.borrow_mut().insert(op as *const OpName, r);
        self.caches.resolved_fast.put(op as *const OpName as usize, r);
    }

    /// What the name `op` denotes, the first time it is evaluated (then `resolved_at` knows):
    /// the analysis says whether it is a local and its binder ([`tla_sema::Names`]). Outside
    /// instances a module-level name is classified here, once, by its text: a variable, a
    /// definition (kept or not), a function definition, a constant, a replaced library
    /// definition, a named ASSUME or THEOREM, a standard operator. Inside instances what it
    /// means depends on the instances entered (`Other`: see `instance`). A name the analysis
    /// did not see is a local when `env` binds its text (TLA+ forbids a bound name that is
    /// already visible); otherwise it is left unresolved (`None`) and looked up by its text
    /// each time, as it may be a bound name read out of its context.
    #[inline(never)]
    fn resolve_name(&self, op: &'a OpName, args: &'a [Expr], env: &Env<'a>, top: bool) -> Option<Resolved<'a>> {
        let name = op.name.as_str();
        let r = match self.program.names.and_then(|n| n.of(op)) {
            Some(Denotes::Local(b)) => Resolved::Local(b),
            Some(Denotes::ModuleLevel) if !top => Resolved::Other,
            Some(Denotes::ModuleLevel) => {
                debug_assert!(env.find_name(name).is_none(), "{name}: module-level in the analysis, bound here");
                if let (true, Some(&slot)) = (args.is_empty(), self.program.vars.get(name)) {
                    Resolved::Var(slot)
                } else {
                    match self.global(name) {
                        None if konst::known_builtin(name, args.len()) => Resolved::Builtin(self.std_op(name, args)),
                        None => Resolved::Ext,
                        Some(g) => self.classify_global(&g, args.is_empty()),
                    }
                }
            }
            None => Resolved::Local(env.binder_of(name)?),
        };
        self.set_resolved(op, r);
        Some(r)
    }

    /// What `op_app` does with the definition `g` a name outside instances names, applied to
    /// arguments or not: a definition (its value kept when it is constant-level and unapplied),
    /// a function definition, a constant, a replaced library definition, a named ASSUME or
    /// THEOREM. `Other` when the application is an error (left to `op_app`'s slow path, which
    /// says which).
    fn classify_global(&self, g: &Global<'a>, unapplied: bool) -> Resolved<'a> {
        match g {
            Global::Op(d) if unapplied && d.params.is_empty() && self.program.cacheable.contains(&(*d as *const OpDef as usize)) => Resolved::Kept(d),
            Global::Op(d) => Resolved::Def(d),
            Global::Fun(d) if unapplied => Resolved::Fun(d),
            Global::Value(v) if unapplied => {
                let mut constants = self.caches.constants.borrow_mut();
                constants.push(v.clone());
                Resolved::Constant(constants.len() as u32 - 1)
            }
            Global::Native(o) => Resolved::Native(o),
            Global::Stated(x) if unapplied => Resolved::Stated(x),
            _ => Resolved::Other,
        }
    }

    /// What `op` means at its node, found the first time (`resolve_name`). Outside instances a
    /// module-level name classified `Other` there is an error to evaluate, or was first met
    /// inside an instance: it is classified again.
    #[inline]
    fn meaning_at(&self, op: &'a OpName, args: &'a [Expr], env: &Env<'a>, top: bool) -> Option<Resolved<'a>> {
        match self.resolved_at(op) {
            Some(Resolved::Other) if top => self.resolve_name(op, args, env, top),
            Some(r) => Some(r),
            None => self.resolve_name(op, args, env, top),
        }
    }

    /// The binding of the first step of `op`'s instance path (`CC` in `CC!Op`) when it is a
    /// local (a LET instance). The analysis records what that step denotes under `op`; it is
    /// remembered in `resolved` (unused otherwise for a name with a path).
    fn path_start<'e>(&self, op: &'a OpName, env: &'e Env<'a>) -> Option<&'e Binding<'a>> {
        if env.0.is_none() {
            return None;
        }
        let step = op.path.first()?;
        let known = match self.resolved_at(op) {
            Some(r) => Some(r),
            None => {
                let r = match self.program.names.and_then(|n| n.of(op)) {
                    Some(Denotes::Local(b)) => Some(Resolved::Local(b)),
                    Some(Denotes::ModuleLevel) => Some(Resolved::Other),
                    None => None,
                };
                if let Some(r) = r {
                    self.set_resolved(op, r);
                }
                r
            }
        };
        match known {
            Some(Resolved::Local(b)) => env.get_or_find(b, &step.name.name),
            Some(_) => None,
            None => env.find_name(&step.name.name),
        }
    }

    /// The definition the name `op` (no instance path, no arguments, bound by no local) names
    /// where it is evaluated: inside instances what it means in the context (see `instance`),
    /// outside what its node resolves to (`meaning_at`), else what its text finds.
    fn global_at(&self, op: &'a OpName) -> Option<Global<'a>> {
        if !self.frame.ctx.borrow().is_empty() {
            return self.in_instances(op as *const OpName as usize, &op.name).global.clone();
        }
        match self.meaning_at(op, &[], &Env::default(), true) {
            Some(Resolved::Def(d) | Resolved::Kept(d)) => Some(Global::Op(d)),
            Some(Resolved::Fun(d)) => Some(Global::Fun(d)),
            Some(Resolved::Constant(i)) => Some(Global::Value(self.caches.constants.borrow()[i as usize].clone())),
            Some(Resolved::Native(o)) => Some(Global::Native(o)),
            Some(Resolved::Stated(x)) => Some(Global::Stated(x)),
            Some(Resolved::Var(_) | Resolved::Builtin(_) | Resolved::Ext) => None,
            // A name the analysis did not see, or one whose use is an error: by its text.
            Some(Resolved::Local(_) | Resolved::Other) | None => self.global(&op.name),
        }
    }

    /// Whether the analysis resolved `op` as a module-level name (no local binds it anywhere).
    fn module_level(&self, op: &OpName) -> bool {
        matches!(self.program.names.and_then(|n| n.of(op)), Some(Denotes::ModuleLevel))
    }

    /// The binding of the name `op` (no instance path) when it is a local bound in `env`.
    #[inline]
    fn local<'e>(&self, op: &'a OpName, env: &'e Env<'a>) -> Option<&'e Binding<'a>> {
        if env.0.is_none() {
            return None;
        }
        let known = match self.resolved_at(op) {
            Some(r) => Some(r),
            None => match self.program.names.and_then(|n| n.of(op)) {
                Some(Denotes::Local(b)) => {
                    self.set_resolved(op, Resolved::Local(b));
                    Some(Resolved::Local(b))
                }
                Some(Denotes::ModuleLevel) => return None,
                None => None,
            },
        };
        match known {
            Some(Resolved::Local(b)) => env.get_or_find(b, &op.name),
            Some(_) => None,
            None => env.find_name(&op.name),
        }
    }

    #[inline(never)]
    fn op_app(&self, op: &'a OpName, args: &'a [Expr], env: &Env<'a>, span: Span) -> VResult<Value> {
        if !op.path.is_empty() {
            let (frames, target) = self.resolve_path(op, env)?;
            let d = match target {
                Some(Global::Op(d)) => d,
                // Its arguments are written here: read in the caller's module.
                Some(Global::Standard) => return self.builtin(&op.name, args, env, span),
                Some(Global::Native(o)) => return self.call_override(o, args, env),
                Some(Global::Value(v)) if args.is_empty() => return Ok(v),
                Some(Global::Stated(x)) if args.is_empty() => return self.in_frames(frames, || self.ev(x, &Env::default())),
                Some(Global::Fun(d)) if args.is_empty() => return self.in_frames(frames, || self.fun_value(d, &Env::default())),
                _ => return Err(err(codes::UNKNOWN, format!("{}!{}: no such definition in the instantiated module", op.path[0].name.name, op.name))),
            };
            let mut callee = Env::default();
            if d.params.len() != args.len() {
                return Err(err(codes::ARITY, format!("{} takes {} arguments, not {}", op.name, d.params.len(), args.len())));
            }
            let primed = self.primed_mask(&d.body, d.params.iter().map(|p| p.name.name.as_str()));
            for (i, (p, a)) in d.params.iter().zip(args.iter()).enumerate() {
                callee = callee.bind(&p.name.name, self.value_arg(p.arity, a, env, primed, &d.body, &p.name.name, i)?);
            }
            return self.in_frames(frames, || self.ev(&d.body, &callee));
        }
        let name = op.name.as_str();
        let top = self.frame.ctx.borrow().is_empty();
        // What the name denotes is the same at every evaluation of this node (scoping is
        // lexical): a local's binder, and outside instances a variable, a constant, a
        // definition or a standard operator, is found once and remembered.
        let known = self.meaning_at(op, args, env, top);
        let local = match known {
            Some(Resolved::Local(b)) => env.get_or_find(b, name),
            Some(Resolved::Var(slot)) if top => return self.read_var(slot),
            Some(Resolved::Builtin(StdOp::Named)) if top => return self.builtin(name, args, env, span),
            Some(Resolved::Builtin(f)) if top => return self.fast_builtin(f, args, env),
            Some(Resolved::Def(d)) if top => return self.call_def(d, args, env, name),
            Some(Resolved::Kept(d)) if top => return self.kept_def(d, env, name),
            Some(Resolved::Constant(i)) if top => return Ok(self.caches.constants.borrow()[i as usize].clone()),
            Some(Resolved::Fun(d)) if top && args.is_empty() => return self.fun_value(d, &Env::default()),
            Some(Resolved::Native(o)) if top => return self.call_override(o, args, env),
            Some(Resolved::Stated(x)) if top && args.is_empty() => return self.ev(x, &Env::default()),
            Some(Resolved::Ext) if top => return self.ext_op(name, args, env, span),
            Some(_) => None,
            // Not resolved (an expression the analysis did not see): by its text.
            None => env.find_name(name),
        };
        // What is left: a local, a name the analysis did not see, one whose use here is an
        // error, and inside instances any module-level name. What such a name means inside
        // instances (a substitution, a definition of some module, a variable) is found once per
        // node and context (see `instance`). A name bound here (a parameter, a bound name, a
        // LET definition) is not one the instances substitute: TLA+ forbids a bound name that a
        // module declares or defines, and the environment holds only this module's bindings.
        let inner = if !top && local.is_none() { Some(self.in_instances(op as *const OpName as usize, name)) } else { None };
        if let Some(n) = &inner {
            if args.is_empty() && self.frame.primed.get() && self.frame.cutoff.get() > 0 && let Some(r) = self.cut_var(n, name) {
                return self.read_ref(r);
            }
            let r = if args.is_empty() { self.try_subst(n, name) } else { self.apply_subst(n, name, args, env) };
            if let Some(r) = r {
                return r;
            }
        }
        if let Some(b) = local {
            return match b {
                Binding::Value(v) if args.is_empty() => Ok(v.clone()),
                Binding::Value(v) => Err(err(codes::ARITY, format!("{} is the value {}, not an operator", name, v))),
                Binding::Op(cl) => {
                    let keep = cl.memo.as_ref().filter(|_| args.is_empty() && !self.frame.primed.get() && !self.frame.init_mode.get());
                    if let Some(m) = keep
                        && let Some(v) = &*m.borrow()
                    {
                        return Ok(v.clone());
                    }
                    // Recursive LET operators: the closure's own name is visible in its body.
                    let base = match cl.own {
                        Some(own) => cl.env.bind(own, b.clone()),
                        None => cl.env.clone(),
                    };
                    let before = self.frame.next_reads.get();
                    let r = self.call(&cl.params, cl.body, &base, args, env, name, cl.depth);
                    // Kept only when it read nothing of the next state (directly or through a
                    // parameter passed by name): the current state does not change while the
                    // LET's environment lives.
                    if let (Some(m), Ok(v)) = (keep, &r)
                        && self.frame.next_reads.get() == before
                    {
                        *m.borrow_mut() = Some(v.clone());
                    }
                    r
                }
                Binding::Fun(d, fenv) if args.is_empty() => {
                    let own = fenv.bind(&d.name.name, Binding::Fun(d, fenv.clone()));
                    self.fun_value(d, &own)
                }
                Binding::Fun(..) => Err(err(codes::ARITY, format!("{} is a function: apply it with {}[...]", name, name))),
                Binding::Builtin(op) => {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        vals.push(self.ev(a, env)?);
                    }
                    self.apply_builtin(op, vals)
                }
                Binding::Inst(_) => Err(err(codes::TYPE, format!("{} is an instance: use its definitions as {}!Op", name, name))),
            };
        }
        let global = match &inner {
            Some(n) => {
                if let (true, Some(slot)) = (args.is_empty(), n.var) {
                    return self.read_var(slot);
                }
                n.global.clone()
            }
            None => {
                if let (true, Some(&slot)) = (args.is_empty(), self.program.vars.get(name)) {
                    return self.read_var(slot);
                }
                self.global(name)
            }
        };
        match global {
            Some(Global::Op(d)) if args.is_empty() && d.params.is_empty() && self.program.cacheable.contains(&(d as *const OpDef as usize)) => {
                return self.kept_def(d, env, name);
            }
            Some(Global::Op(d)) => return self.call_def(d, args, env, name),
            Some(Global::Fun(d)) if args.is_empty() => return self.fun_value(d, &Env::default()),
            Some(Global::Value(v)) if args.is_empty() => return Ok(v),
            Some(Global::Stated(x)) if args.is_empty() => return self.ev(x, &Env::default()),
            Some(Global::Native(o)) => return self.call_override(o, args, env),
            Some(_) => return Err(err(codes::ARITY, format!("{} takes no arguments", name))),
            None => {}
        }
        self.ext_op(name, args, env, span)
    }

    /// TLC's SortSeq, the community modules' operators (see `stdext`), Bags, and the standard
    /// operators the fast paths of `op_app` do not dispatch: by name.
    fn ext_op(&self, name: &str, args: &'a [Expr], env: &Env<'a>, span: Span) -> VResult<Value> {
        if let Some(r) = self.std_ext(name, args, env) {
            return r;
        }
        if let Some(r) = self.bags_op(name, args, env) {
            return r;
        }
        self.builtin(name, args, env, span)
    }

    /// The value of a constant-level definition of no parameters, computed once.
    fn kept_def(&self, d: &'a OpDef, env: &Env<'a>, name: &str) -> VResult<Value> {
        if let Some(v) = self.caches.cache.borrow().get(&(d as *const OpDef)) {
            return Ok(v.clone());
        }
        let v = self.call(&[], &d.body, &Env::default(), &[], env, name, usize::MAX)?;
        self.caches.cache.borrow_mut().insert(d as *const OpDef, v.clone());
        Ok(v)
    }

    /// The operators of [`StdOp`] (the same results and errors as `strict_builtin`).
    fn fast_builtin(&self, f: StdOp, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
        match f {
            StdOp::Not => return Ok(Value::Bool(!self.ev(&args[0], env)?.as_bool()?)),
            StdOp::And => return Ok(Value::Bool(self.ev_bool(&args[0], env)? && self.ev_bool(&args[1], env)?)),
            StdOp::Or => return Ok(Value::Bool(self.ev_bool(&args[0], env)? || self.ev_bool(&args[1], env)?)),
            StdOp::Implies => return Ok(Value::Bool(!self.ev_bool(&args[0], env)? || self.ev_bool(&args[1], env)?)),
            StdOp::Len => return Ok(Value::Int(self.ev(&args[0], env)?.seq_len()?)),
            StdOp::Head => return self.ev(&args[0], env)?.head(),
            StdOp::Tail => return self.ev(&args[0], env)?.tail().map(|v| self.ranked(v)),
            StdOp::Cardinality => return Ok(Value::Int(self.ev(&args[0], env)?.cardinality()?)),
            StdOp::Domain => return self.ev(&args[0], env)?.domain(),
            _ => {}
        }
        let a = self.ev(&args[0], env)?;
        let b = self.ev(&args[1], env)?;
        fast_pair(f, a, b)
    }
}

/// Every element of `set`, in the order of `elements` (TLC's), until `f` says stop (the two
/// usual kinds of sets are walked in place).
fn each_element(set: &Value, f: &mut dyn FnMut(Value) -> VResult<bool>) -> VResult<bool> {
    each_value(set, f)
}

/// `each_element` with `f` known to the caller, so that the loop and its body are compiled
/// together (compiled quantifiers).
#[inline]
pub(super) fn each_value(set: &Value, mut f: impl FnMut(Value) -> VResult<bool>) -> VResult<bool> {
    match set {
        Value::Set(s) => {
            for v in s.elems() {
                if !f(v.clone())? {
                    return Ok(false);
                }
            }
        }
        Value::Lazy(l) if l.as_interval().is_some() => {
            let (lo, hi) = l.as_interval().unwrap_or((1, 0));
            for i in lo..=hi {
                if !f(Value::Int(i))? {
                    return Ok(false);
                }
            }
        }
        _ => {
            for v in set.elements()? {
                if !f(v?)? {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

/// The two-argument operators of [`StdOp`] on their values.
fn fast_pair(f: StdOp, a: Value, b: Value) -> VResult<Value> {
    Ok(match f {
        StdOp::Eq => Value::Bool(a.tlc_eq(&b)?),
        StdOp::Neq => Value::Bool(!a.tlc_eq(&b)?),
        StdOp::In => Value::Bool(b.member(&a)?),
        StdOp::NotIn => Value::Bool(!b.member(&a)?),
        StdOp::Lt => Value::Bool(a.as_int()? < b.as_int()?),
        StdOp::Gt => Value::Bool(a.as_int()? > b.as_int()?),
        StdOp::Le => Value::Bool(a.as_int()? <= b.as_int()?),
        StdOp::Ge => Value::Bool(a.as_int()? >= b.as_int()?),
        StdOp::Add => Value::Int(arith::add(a.as_int()?, b.as_int()?)?),
        StdOp::Sub => Value::Int(arith::sub(a.as_int()?, b.as_int()?)?),
        StdOp::Mul => Value::Int(arith::mul(a.as_int()?, b.as_int()?)?),
        StdOp::Mod => Value::Int(arith::modulo(a.as_int()?, b.as_int()?)?),
        StdOp::Div => Value::Int(arith::div(a.as_int()?, b.as_int()?)?),
        StdOp::Range => Value::interval(a.as_int()?, b.as_int()?),
        StdOp::Cup => return Value::cup(a, b),
        StdOp::Cap => return Value::cap(a, b),
        StdOp::Diff => return Value::diff(a, b),
        StdOp::Subseteq => {
            for x in a.elements()? {
                if !b.member(&x?)? {
                    return Ok(Value::Bool(false));
                }
            }
            Value::Bool(true)
        }
        StdOp::Append => return a.append(b),
        StdOp::Not
        | StdOp::And
        | StdOp::Or
        | StdOp::Implies
        | StdOp::Len
        | StdOp::Head
        | StdOp::Tail
        | StdOp::Cardinality
        | StdOp::Domain
        | StdOp::Named => return Err(err(codes::UNKNOWN, "internal: not a two-argument fast operator")),
    })
}

impl<'a> ConstEval<'a> {

    #[inline(never)]
    fn builtin(&self, name: &str, args: &'a [Expr], env: &Env<'a>, _span: Span) -> VResult<Value> {
        // Operators that do not evaluate all their arguments first.
        match (name, args.len()) {
            ("/\\", 2) => return Ok(Value::Bool(self.ev_bool(&args[0], env)? && self.ev_bool(&args[1], env)?)),
            ("\\/", 2) => return Ok(Value::Bool(self.ev_bool(&args[0], env)? || self.ev_bool(&args[1], env)?)),
            ("=>", 2) => return Ok(Value::Bool(!self.ev_bool(&args[0], env)? || self.ev_bool(&args[1], env)?)),
            ("SelectSeq", 2) => return self.select_seq(args, env),
            ("\\in", 2) | ("\\notin", 2) if let Some(filter) = self.filter_target(&args[1]) => {
                let m = self.filter_member(&args[0], filter, env)?;
                return Ok(Value::Bool(m == (name == "\\in")));
            }
            ("'", 1) => return self.ev_primed(&args[0], env),
            ("UNCHANGED", 1) => {
                let now = self.ev(&args[0], env)?;
                let then = self.ev_primed(&args[0], env)?;
                return Ok(Value::Bool(now.tlc_eq(&then)?));
            }
            ("ENABLED", 1) => return Ok(Value::Bool(self.enabled(&args[0], env)?)),
            ("\\cdot", 2) => return Ok(Value::Bool(self.composed_step(&args[0], &args[1], env)?)),
            ("[]", 1) | ("<>", 1) | ("~>", 2) | ("-+->", 2) => {
                return Err(err(codes::NOT_CONSTANT, format!("{} has no value at constant level", name)));
            }
            _ => {}
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.ev(a, env)?);
        }
        self.strict_builtin(name, vals)
    }

    /// The fast path of the standard operator `name` applied to `args` (a membership in a set
    /// filter has none: see `filter_target`).
    fn std_op(&self, name: &str, args: &'a [Expr]) -> StdOp {
        let filter = matches!(name, "\\in" | "\\notin") && args.len() == 2 && self.filter_target(&args[1]).is_some();
        StdOp::of(name, args, filter)
    }

    /// The set filter `{y \in S : P}` that the set `e` of a membership is, or names through
    /// definitions without parameters (`x \in Partitions` where `Partitions == {p \in SUBSET
    /// S : ...}`): TLC's SetPredValue is lazy wherever it comes from. A definition is followed
    /// outside instances only (inside one, a name may be substituted). With the filter's span,
    /// and whether it is a definition's body (read with no local names).
    fn filter_target(&self, e: &'a Expr) -> Option<(&'a Bound, &'a Expr, Span, bool)> {
        let mut e = e;
        for depth in 0..8 {
            match &*e.kind {
                ExprKind::SetFilter { bound, pred } => return Some((bound, pred, e.span, depth > 0)),
                ExprKind::OpApp { op, args } if args.is_empty() && op.path.is_empty() && op.sel.is_empty() => {
                    if !self.frame.ctx.borrow().is_empty() {
                        return None;
                    }
                    match self.global_at(op) {
                        // A constant-level definition is computed once and kept: its value is
                        // looked up faster than its predicate is evaluated.
                        Some(Global::Op(d)) if d.params.is_empty() && !self.program.cacheable.contains(&(d as *const OpDef as usize)) => e = &d.body,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        None
    }

    /// `x \in {y \in S : P}` without enumerating S (S may be infinite), as TLC's SetPredValue.
    #[inline(never)]
    fn filter_member(&self, elem: &'a Expr, (bound, pred, at, in_def): (&'a Bound, &'a Expr, Span, bool), env: &Env<'a>) -> VResult<bool> {
        let Some(base_e) = &bound.set else {
            return Err(err(codes::NOT_ENUMERABLE, "a set filter needs a bounding set").at(at));
        };
        let x = self.ev(elem, env)?;
        // A definition's body reads no local name of the membership's.
        let fenv = if in_def { Env::default() } else { env.clone() };
        let base = self.ev(base_e, &fenv)?;
        if !base.member(&x).map_err(|e| e.at(at))? {
            return Ok(false);
        }
        let env2 = self.bind_bound(&bound.vars, x, &fenv).map_err(|e| e.at(at))?;
        self.ev_bool(pred, &env2)
    }

    #[inline(never)]
    fn select_seq(&self, args: &'a [Expr], env: &Env<'a>) -> VResult<Value> {
        let s = self.ev(&args[0], env)?;
        let test = self.op_arg(1, &args[1], env)?;
        let mut out = Vec::new();
        for x in s.as_seq("SelectSeq")? {
            if self.apply_binding(&test, vec![x.clone()])?.as_bool()? {
                out.push(x.clone());
            }
        }
        Value::tuple(out)
    }

    /// Standard-module operators over evaluated arguments (no recursion into `ev`).
    #[inline(never)]
    fn strict_builtin(&self, name: &str, vals: Vec<Value>) -> VResult<Value> {
        let n = vals.len();
        let int = |i: usize| vals[i].as_int();
        let b = |i: usize| vals[i].as_bool();
        let bool_v = |x: bool| Ok(Value::Bool(x));
        match (name, n) {
            ("~", 1) => bool_v(!b(0)?),
            ("<=>", 2) => bool_v(b(0)? == b(1)?),
            ("=", 2) => bool_v(vals[0].tlc_eq(&vals[1])?),
            ("/=", 2) => bool_v(!vals[0].tlc_eq(&vals[1])?),
            ("<", 2) => bool_v(int(0)? < int(1)?),
            (">", 2) => bool_v(int(0)? > int(1)?),
            ("<=", 2) => bool_v(int(0)? <= int(1)?),
            (">=", 2) => bool_v(int(0)? >= int(1)?),
            ("+", 2) => Ok(Value::Int(arith::add(int(0)?, int(1)?)?)),
            ("-", 2) => Ok(Value::Int(arith::sub(int(0)?, int(1)?)?)),
            ("*", 2) => Ok(Value::Int(arith::mul(int(0)?, int(1)?)?)),
            ("\\div", 2) => Ok(Value::Int(arith::div(int(0)?, int(1)?)?)),
            ("%", 2) => Ok(Value::Int(arith::modulo(int(0)?, int(1)?)?)),
            ("^", 2) => Ok(Value::Int(arith::pow(int(0)?, int(1)?)?)),
            ("-.", 1) => Ok(Value::Int(arith::neg(int(0)?)?)),
            ("..", 2) => Ok(Value::interval(int(0)?, int(1)?)),
            ("\\in", 2) => bool_v(vals[1].member(&vals[0])?),
            ("\\notin", 2) => bool_v(!vals[1].member(&vals[0])?),
            ("\\cup", 2) | ("\\cap", 2) | ("\\", 2) => {
                let mut it = vals.into_iter();
                let (a, c) = (it.next().unwrap_or(Value::Bool(false)), it.next().unwrap_or(Value::Bool(false)));
                match name {
                    "\\cup" => Value::cup(a, c),
                    "\\cap" => Value::cap(a, c),
                    _ => Value::diff(a, c),
                }
            }
            ("\\subseteq", 2) => {
                for x in vals[0].elements()? {
                    if !vals[1].member(&x?)? {
                        return bool_v(false);
                    }
                }
                bool_v(true)
            }
            ("SUBSET", 1) => Value::subset(vals[0].clone()),
            ("UNION", 1) => Value::union_of(vals[0].clone()),
            ("DOMAIN", 1) => vals[0].domain(),
            ("Nat", 0) => Ok(Value::nat()),
            ("Int", 0) => Ok(Value::int_set()),
            ("BOOLEAN", 0) => Value::set(vec![Value::Bool(false), Value::Bool(true)]),
            ("STRING", 0) => Ok(Value::strings()),
            ("Seq", 1) => Value::seq_set(vals[0].clone()),
            ("Len", 1) => Ok(Value::Int(vals[0].seq_len()?)),
            ("Append", 2) => vals[0].append(vals[1].clone()),
            ("Head", 1) => vals[0].head(),
            ("Tail", 1) => vals[0].tail().map(|v| self.ranked(v)),
            // A string built at run time takes the rank its text already has (TLC interns it).
            ("\\o", 2) => match vals[0].concat(&vals[1])? {
                Value::Str(x) => Ok(Value::Str(self.program.interner.get(x.as_str()))),
                other => Ok(other),
            },
            ("SubSeq", 3) => vals[0].subseq(int(1)?, int(2)?).map(|v| self.ranked(v)),
            ("Cardinality", 1) => Ok(Value::Int(vals[0].cardinality()?)),
            ("IsFiniteSet", 1) => bool_v(vals[0].is_finite_set()),
            (":>", 2) => Value::fcn(vec![(vals[0].clone(), vals[1].clone())]),
            ("@@", 2) => {
                let (f, g) = (&vals[0], &vals[1]);
                let (fd, gd) = (f.domain()?, g.domain()?);
                let mut pairs: Vec<(Value, Value)> = Vec::new();
                for x in fd.elements()? {
                    let x = x?;
                    let fx = f.apply(&x)?;
                    pairs.push((x, fx));
                }
                for x in gd.elements()? {
                    let x = x?;
                    if !fd.member(&x)? {
                        let gx = g.apply(&x)?;
                        pairs.push((x, gx));
                    }
                }
                Value::fcn(pairs)
            }
            ("Print", 2) => {
                self.tlc.output.borrow_mut().push(vals[0].to_string());
                Ok(vals[1].clone())
            }
            ("PrintT", 1) => {
                self.tlc.output.borrow_mut().push(vals[0].to_string());
                bool_v(true)
            }
            ("Assert", 2) => {
                if b(0)? {
                    bool_v(true)
                } else {
                    Err(err(codes::ASSERT, format!("The first argument of Assert evaluated to FALSE; the second argument was: {}", vals[1])))
                }
            }
            ("Permutations", 1) => {
                // All bijections S -> S (TLC module; used for SYMMETRY sets).
                let dom = vals[0].to_set()?;
                let n = dom.len();
                if n > 10 {
                    return Err(err(codes::TOO_LARGE, format!("Permutations of a set of {} elements is too large", n)));
                }
                let mut idx: Vec<usize> = (0..n).collect();
                let mut out = Vec::new();
                loop {
                    out.push(Value::fcn_over(&dom, idx.iter().map(|&i| dom.elems()[i].clone()).collect())?);
                    // Next permutation in lexicographic order of positions.
                    let Some(k) = (0..n.saturating_sub(1)).rev().find(|&k| idx[k] < idx[k + 1]) else { break };
                    let l = (k + 1..n).rev().find(|&l| idx[k] < idx[l]).unwrap_or(k + 1);
                    idx.swap(k, l);
                    idx[k + 1..].reverse();
                }
                Value::set(out)
            }
            ("ToString", 1) => Ok(Value::Str(self.program.interner.get(&vals[0].to_string()))),
            ("TLCEval", 1) => Ok(vals[0].clone()),
            // A register: TLCSet(i, v) with a natural number, or TLCSet("s:name", v).
            ("TLCGet", 1) if let Some(r) = Register::of(&vals[0]) => self.tlc.registers.borrow().get(&r).cloned().ok_or_else(|| {
                err(codes::UNASSIGNED, format!("TLCGet({0}) was undefined: no TLCSet({0}, ...) has been evaluated before it", vals[0]))
            }),
            ("TLCSet", 2) if let Some(r) = Register::of(&vals[0]) => {
                self.tlc.registers.borrow_mut().insert(r, vals[1].clone());
                Ok(Value::Bool(true))
            }
            ("TLCGet", 1) => match &vals[0] {
                Value::Str(s) if s.as_str() == "level" => Ok(Value::Int(self.tlc.level.get())),
                Value::Str(s) if s.as_str() == "config" => self.tlc.config.borrow().clone().ok_or_else(|| {
                    err(codes::UNSUPPORTED, "TLCGet(\"config\") is answered in a model-checking run (sysmo check) only")
                }),
                // A Java system property, as TLC reads it: its value, or the argument itself when
                // it is not set. Action composition is always on here (TLC needs
                // -Dtlc2.tool.impl.Tool.cdot=true); no other property is set.
                Value::Str(s) if s.as_str().starts_with("-D") => Ok(if s.as_str() == "-Dtlc2.tool.impl.Tool.cdot" {
                    Value::Str(self.program.interner.get("true"))
                } else {
                    vals[0].clone()
                }),
                Value::Str(s) if matches!(s.as_str(), "stats" | "distinct" | "generated" | "queue" | "diameter" | "duration") => {
                    self.run_statistic(s.as_str())
                }
                Value::Str(s) => Err(err(
                    codes::UNSUPPORTED,
                    format!(
                        "TLCGet(\"{}\") is not supported: of TLC's keys, \"level\", \"config\", \"stats\", \"distinct\", \
                         \"generated\", \"queue\", \"diameter\" and \"duration\" are",
                        s.as_str()
                    ),
                )),
                v => Err(err(codes::TYPE, format!("The argument of TLCGet should be a nonnegative integer or a string, but instead it is {}", v))),
            },
            ("TLCSet", 2) => match &vals[0] {
                // Waiting for a key press: nothing to wait for here.
                Value::Str(s) if s.as_str() == "pause" => Ok(Value::Bool(true)),
                // As TLC: TRUE asks the explorer to stop, any other value does nothing.
                Value::Str(s) if s.as_str() == "exit" => {
                    if matches!(vals[1], Value::Bool(true)) {
                        self.tlc.exit.set(true);
                    }
                    Ok(Value::Bool(true))
                }
                v => Err(err(codes::TYPE, format!("The first argument of TLCSet should be a nonnegative integer, but instead it is {}", v))),
            },
            // The wall clock, as TLC gives it: seconds since 1970 with the top bit cleared (TLC
            // 2.15 gave milliseconds; current TLCs give seconds, which this follows).
            ("JavaTime", 0) => {
                let host = self.tlc.host.borrow().clone();
                match host.and_then(|h| h.unix_seconds()) {
                    Some(s) => Ok(Value::Int((s as u32 & 0x7FFF_FFFF) as i32)),
                    None => Err(err(codes::UNSUPPORTED, "JavaTime reads the wall clock, and this run has none (`sysmo check` and `sysmo simulate` give theirs)")),
                }
            }
            // TLC draws these with its random generator, seeded per run: their values (and so the
            // states a model reaches) cannot be reproduced.
            ("RandomElement", 1) | ("RandomSubset", 2) | ("RandomSetOfSubsets", 3) | ("TestRandomSetOfSubsets", 3) => Err(err(
                codes::UNSUPPORTED,
                format!("{name} is not supported: TLC draws its value at random, and no other checker can reproduce the draw; enumerate the choices instead (\\E x \\in S or x' \\in S)"),
            )),
            _ => Err(err(codes::UNKNOWN, format!("unknown operator {} with {} argument(s)", name, n))),
        }
    }

    /// `v`, a string built at run time (`Tail` or `SubSeq` of a string) taking the rank its
    /// text already has, as TLC interns it; other values unchanged.
    pub(super) fn ranked(&self, v: Value) -> Value {
        match v {
            Value::Str(x) if x.rank() == crate::intern::UNRANKED => Value::Str(self.program.interner.get(x.as_str())),
            v => v,
        }
    }

    fn apply_binding(&self, b: &Binding<'a>, args: Vec<Value>) -> VResult<Value> {
        match b {
            Binding::Op(cl) => {
                if cl.params.len() != args.len() {
                    return Err(err(codes::ARITY, "operator argument applied to the wrong number of arguments"));
                }
                let mut env = cl.env.clone();
                for ((p, _), a) in cl.params.iter().zip(args) {
                    env = env.bind_value(p, a);
                }
                self.enter()?;
                let r = self.in_closure_frames(cl.depth, || self.ev(cl.body, &env));
                self.leave();
                r
            }
            Binding::Value(f) if args.len() == 1 => f.apply(&args[0]),
            Binding::Builtin(op) => self.apply_builtin(op, args),
            _ => Err(err(codes::TYPE, "expected an operator")),
        }
    }
}

/// Collects identifiers (interned at once) and string literals (kept for later) in source order.
struct Walker<'i, 'a> {
    interner: &'i mut Interner,
    literals: &'i mut Vec<&'a str>,
}

impl<'i, 'a> Walker<'i, 'a> {
    fn id(&mut self, s: &str) {
        self.interner.intern(s);
    }
    fn module(&mut self, m: &'a Module) {
        self.id(&m.name.name);
        for e in &m.extends {
            self.id(&e.name);
        }
        for u in &m.units {
            match u {
                Unit::Constants(cs) | Unit::Recursive(cs) => cs.iter().for_each(|c| self.id(&c.name.name)),
                Unit::Variables(vs) => vs.iter().for_each(|v| self.id(&v.name)),
                Unit::Assume(a) => {
                    if let Some(n) = &a.name {
                        self.id(&n.name);
                    }
                    self.expr(&a.expr);
                }
                Unit::OpDef(d) => self.op_def(d),
                Unit::FunDef(d) => self.fun_def(d),
                Unit::ModuleDef(d) => self.id(&d.name.name),
                Unit::Instance(i) => self.id(&i.module.name),
                Unit::Submodule(m) => self.module(m),
                Unit::Theorem(_) | Unit::UseHide(_) | Unit::Error(_) => {}
            }
        }
    }
    fn op_def(&mut self, d: &'a OpDef) {
        self.id(&d.name.name);
        d.params.iter().for_each(|p| self.id(&p.name.name));
        self.expr(&d.body);
    }
    fn fun_def(&mut self, d: &'a FunDef) {
        self.id(&d.name.name);
        self.bounds(&d.bounds);
        self.expr(&d.body);
    }
    fn bounds(&mut self, bs: &'a [Bound]) {
        for b in bs {
            b.vars.idents().iter().for_each(|i| self.id(&i.name));
            if let Some(s) = &b.set {
                self.expr(s);
            }
        }
    }
    fn expr(&mut self, e: &'a Expr) {
        match &*e.kind {
            ExprKind::Str(s) => self.literals.push(s),
            ExprKind::Num(_) | ExprKind::Decimal(_) | ExprKind::Bool(_) | ExprKind::At | ExprKind::Error => {}
            ExprKind::OpApp { op, args } => {
                for st in &op.path {
                    self.id(&st.name.name);
                    st.args.iter().for_each(|a| self.expr(a));
                }
                self.id(&op.name);
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::FunApp { fun, args } => {
                self.expr(fun);
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Field { record, field } => {
                self.expr(record);
                self.id(&field.name);
            }
            ExprKind::Junction { items, .. } | ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => {
                items.iter().for_each(|a| self.expr(a))
            }
            ExprKind::If { cond, then, els } => {
                self.expr(cond);
                self.expr(then);
                self.expr(els);
            }
            ExprKind::Case { arms, other } => {
                for a in arms {
                    self.expr(&a.guard);
                    self.expr(&a.body);
                }
                if let Some(o) = other {
                    self.expr(o);
                }
            }
            ExprKind::Let { defs, body } => {
                for d in defs {
                    match d {
                        LetDef::Op(od) => self.op_def(od),
                        LetDef::Fun(fd) => self.fun_def(fd),
                        LetDef::Recursive(ds) => ds.iter().for_each(|x| self.id(&x.name.name)),
                        LetDef::ModuleDef(m) => self.id(&m.name.name),
                    }
                }
                self.expr(body);
            }
            ExprKind::Quant { bounds, body, .. } | ExprKind::SetMap { body, bounds } | ExprKind::FunCons { bounds, body } => {
                if matches!(&*e.kind, ExprKind::SetMap { .. }) {
                    self.expr(body);
                    self.bounds(bounds);
                } else {
                    self.bounds(bounds);
                    self.expr(body);
                }
            }
            ExprKind::TemporalQuant { vars, body, .. } => {
                vars.iter().for_each(|v| self.id(&v.name));
                self.expr(body);
            }
            ExprKind::Choose { bound, body } => {
                self.bounds(std::slice::from_ref(bound));
                self.expr(body);
            }
            ExprKind::SetFilter { bound, pred } => {
                self.bounds(std::slice::from_ref(bound));
                self.expr(pred);
            }
            ExprKind::FunSet { domain, range } => {
                self.expr(domain);
                self.expr(range);
            }
            ExprKind::Record(fs) | ExprKind::RecordSet(fs) => {
                for (n, x) in fs {
                    self.id(&n.name);
                    self.expr(x);
                }
            }
            ExprKind::Except { base, updates } => {
                self.expr(base);
                for u in updates {
                    for st in &u.path {
                        match st {
                            ExceptStep::Index(xs) => xs.iter().for_each(|x| self.expr(x)),
                            ExceptStep::Field(id) => self.id(&id.name),
                        }
                    }
                    self.expr(&u.value);
                }
            }
            ExprKind::BoxAction { action, sub } | ExprKind::AngleAction { action, sub } | ExprKind::Fair { sub, action, .. } => {
                self.expr(action);
                self.expr(sub);
            }
            ExprKind::Lambda { params, body } => {
                params.iter().for_each(|p| self.id(&p.name));
                self.expr(body);
            }
            ExprKind::Label { name, params, body } => {
                self.id(&name.name);
                params.iter().for_each(|p| self.id(&p.name));
                self.expr(body);
            }
        }
    }
}

/// Whether `e` applies a name bound in `env` (a local: a parameter, a bound name, a LET
/// definition).
fn reads_local(e: &Expr, env: &Env<'_>) -> bool {
    let mut found = false;
    tla_syntax::ast::walk(e, &mut |x| {
        if let ExprKind::OpApp { op, .. } = &*x.kind {
            found |= op.path.is_empty() && env.find_name(&op.name).is_some();
        }
    });
    found
}
