//! The abstract syntax tree of TLA+ modules.
//!
//! Operators are uniform: every prefix, infix and postfix operator, built-in or user-definable,
//! is an [`ExprKind::OpApp`] whose [`OpName::name`] is the operator's *canonical* ASCII spelling
//! (see [`crate::ops`]): `\land`, `∧` and `/\` all become `/\`; `#` becomes `/=`; `\union`
//! becomes `\cup`; `=<` and `\leq` become `<=`. Prefix minus is `-.` as in TLA+'s own
//! convention, so it is distinct from binary `-`. Postfix operators are `'`, `^+`, `^*`, `^#`.
//! Keyword operators use their keyword: `SUBSET`, `UNION`, `DOMAIN`, `UNCHANGED`, `ENABLED`,
//! and `[]`, `<>` for the temporal prefix operators, `~>` and `-+->` for the infix ones.
//!
//! Forms with binders or special shape have their own variants.

use crate::span::Span;

/// An identifier with its place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A parsed source file: one or more modules (later ones may be used by earlier ones).
#[derive(Clone, Debug)]
pub struct SourceModules {
    pub modules: Vec<Module>,
}

#[derive(Clone, Debug)]
pub struct Module {
    pub name: Ident,
    pub extends: Vec<Ident>,
    pub units: Vec<Unit>,
    /// From the first dash line to the closing `====` (or the end of what was parsed).
    pub span: Span,
}

/// A top-level unit of a module.
#[derive(Clone, Debug)]
pub enum Unit {
    Constants(Vec<ConstDecl>),
    Variables(Vec<Ident>),
    Assume(Assume),
    OpDef(OpDef),
    FunDef(FunDef),
    /// `I == INSTANCE M WITH ...` or `I(p) == INSTANCE M ...` (named instance).
    ModuleDef(ModuleDef),
    /// A bare `INSTANCE M WITH ...` (its definitions are imported into this module).
    Instance(Instance),
    /// `RECURSIVE F(_), G`
    Recursive(Vec<OpDecl>),
    /// THEOREM / LEMMA / PROPOSITION / COROLLARY / AXIOM with its proof.
    Theorem(Theorem),
    /// `USE ...` / `HIDE ...` (proof-checker directives).
    UseHide(UseHide),
    /// A nested `---- MODULE Inner ----` ... `====`.
    Submodule(Box<Module>),
    /// A unit that failed to parse; its diagnostic was reported. Kept so counts stay right.
    Error(Span),
}

impl Unit {
    /// Whether this unit is a "definition" for the syntax score (operator, function,
    /// instance, and declarations each count as one unit).
    pub fn span(&self) -> Span {
        match self {
            Unit::Constants(cs) => cs.first().map(|c| c.name.span.to(cs.last().unwrap().name.span)).unwrap_or_default(),
            Unit::Variables(vs) => vs.first().map(|v| v.span.to(vs.last().unwrap().span)).unwrap_or_default(),
            Unit::Assume(a) => a.span,
            Unit::OpDef(d) => d.span,
            Unit::FunDef(d) => d.span,
            Unit::ModuleDef(d) => d.span,
            Unit::Instance(i) => i.span,
            Unit::Recursive(ds) => ds.first().map(|d| d.name.span.to(ds.last().unwrap().name.span)).unwrap_or_default(),
            Unit::Theorem(t) => t.span,
            Unit::UseHide(u) => u.span,
            Unit::Submodule(m) => m.span,
            Unit::Error(s) => *s,
        }
    }
}

/// `CONSTANT N` or `CONSTANT F(_, _)` or `CONSTANT _ + _`.
#[derive(Clone, Debug)]
pub struct ConstDecl {
    pub name: Ident,
    /// Number of arguments for an operator constant; 0 for an ordinary constant.
    pub arity: usize,
}

/// An operator declaration in RECURSIVE or as a higher-order parameter: `F(_, _)`.
pub type OpDecl = ConstDecl;

#[derive(Clone, Debug)]
pub struct Assume {
    /// `ASSUME Name == expr`
    pub name: Option<Ident>,
    pub expr: Expr,
    pub span: Span,
}

/// `THEOREM T == statement proof` (or LEMMA, PROPOSITION, COROLLARY; an AXIOM has no proof).
/// Proofs are parsed, not checked: nothing after the parser reads them.
#[derive(Clone, Debug)]
pub struct Theorem {
    /// The keyword as written (`THEOREM`, `LEMMA`, ...).
    pub keyword: String,
    pub name: Option<Ident>,
    pub statement: Statement,
    pub proof: Option<Proof>,
    pub span: Span,
}

impl Theorem {
    /// The statement when it is an expression: a named theorem may then be used as an
    /// operator (`ASSUME T`); an `ASSUME ... PROVE` statement may not.
    pub fn expr(&self) -> Option<&Expr> {
        match &self.statement {
            Statement::Expr(e) => Some(e),
            Statement::AssumeProve(_) => None,
        }
    }
}

/// What a theorem or a proof step asserts.
#[derive(Clone, Debug)]
pub enum Statement {
    Expr(Expr),
    AssumeProve(AssumeProve),
}

/// `ASSUME a, NEW x \in S, ASSUME b PROVE c PROVE e`, optionally labelled `L :: ASSUME ...`.
#[derive(Clone, Debug)]
pub struct AssumeProve {
    pub label: Option<Ident>,
    pub assumptions: Vec<Assumption>,
    pub prove: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Assumption {
    Expr(Expr),
    New(NewDecl),
    AssumeProve(AssumeProve),
}

/// `NEW x`, `NEW x \in S`, `NEW CONSTANT F(_)`, `NEW VARIABLE v`, `NEW ACTION A`, ...
#[derive(Clone, Debug)]
pub struct NewDecl {
    pub kind: NewKind,
    pub decl: ConstDecl,
    /// `NEW x \in S`
    pub set: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewKind {
    Constant,
    Variable,
    State,
    Action,
    Temporal,
}

/// A proof: a leaf (`BY ...`, `OBVIOUS`, `OMITTED`) or a sequence of steps ending in QED.
#[derive(Clone, Debug)]
pub enum Proof {
    By(UseItems),
    Obvious(Span),
    Omitted(Span),
    Steps { steps: Vec<ProofStep>, span: Span },
}

/// The facts and definitions of `BY`, `USE` and `HIDE`: `ONLY f1, MODULE M DEF d1, d2`.
#[derive(Clone, Debug)]
pub struct UseItems {
    pub only: bool,
    pub facts: Vec<Fact>,
    pub defs: Vec<Fact>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Fact {
    /// An expression; a step's name (`<1>2`) is an operator application with that name.
    Expr(Expr),
    /// `MODULE M`
    Module(Ident),
}

/// `<2>3. statement proof`: the step's label as written, its level (that of its proof), what
/// it says and its own proof.
#[derive(Clone, Debug)]
pub struct ProofStep {
    pub label: Ident,
    pub level: u32,
    pub body: StepBody,
    pub proof: Option<Proof>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StepBody {
    /// `DEFINE f == e` (DEFINE may be left out), or a named instance.
    Define(Vec<Unit>),
    Use { hide: bool, items: UseItems },
    Instance(Instance),
    Have(Expr),
    Take(Vec<Bound>),
    Witness(Vec<Expr>),
    Pick { bounds: Vec<Bound>, pred: Expr },
    Case(Expr),
    /// A statement, with SUFFICES or not.
    Assert { suffices: bool, statement: Statement },
    Qed,
}

/// `USE ...` or `HIDE ...` at module level.
#[derive(Clone, Debug)]
pub struct UseHide {
    pub hide: bool,
    pub items: UseItems,
    pub span: Span,
}

/// A formal parameter of an operator definition: `x` (arity 0) or `F(_, _)` (arity 2).
#[derive(Clone, Debug)]
pub struct OpParam {
    pub name: Ident,
    pub arity: usize,
}

/// `Op(p1, ..., pn) == body`, `a \prec b == body`, `-. a == body`, `a ^+ == body`.
#[derive(Clone, Debug)]
pub struct OpDef {
    /// The name; for operator-symbol definitions the canonical symbol.
    pub name: Ident,
    pub params: Vec<OpParam>,
    pub body: Expr,
    pub local: bool,
    pub span: Span,
}

/// `f[x \in S, y \in T] == body`
#[derive(Clone, Debug)]
pub struct FunDef {
    pub name: Ident,
    pub bounds: Vec<Bound>,
    pub body: Expr,
    pub local: bool,
    pub span: Span,
}

/// `Name(params) == INSTANCE M WITH ...`
#[derive(Clone, Debug)]
pub struct ModuleDef {
    pub name: Ident,
    pub params: Vec<OpParam>,
    pub instance: Instance,
    pub local: bool,
    pub span: Span,
}

/// `INSTANCE M WITH a <- e, b <- f`
#[derive(Clone, Debug)]
pub struct Instance {
    pub module: Ident,
    pub substs: Vec<Subst>,
    pub local: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Subst {
    /// The substituted name; for operator symbols the canonical symbol.
    pub name: Ident,
    pub expr: Expr,
}

/// Variables bound by a quantifier, CHOOSE, set former or function constructor.
#[derive(Clone, Debug)]
pub enum BoundVars {
    /// `x, y \in S` (several names share one set).
    Names(Vec<Ident>),
    /// `<<x, y>> \in S`
    Tuple(Vec<Ident>),
}

impl BoundVars {
    pub fn idents(&self) -> &[Ident] {
        match self {
            BoundVars::Names(v) | BoundVars::Tuple(v) => v,
        }
    }
}

/// `vars \in set`; `set` is `None` for unbounded forms (`\A x : P`, `CHOOSE x : P`).
#[derive(Clone, Debug)]
pub struct Bound {
    pub vars: BoundVars,
    pub set: Option<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantKind {
    Forall,
    Exists,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JunctionKind {
    /// `/\`
    And,
    /// `\/`
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fairness {
    Weak,
    Strong,
}

/// A reference to an operator, possibly through named instances: `M!I(x)!Op`.
#[derive(Clone, Debug)]
pub struct OpName {
    /// The instance steps before the name: `M` and `I(x)` in `M!I(x)!Op`. In a subexpression
    /// name (`sel` not empty) every named step before the first selector, the definition's
    /// name included: `I`, `Inv` in `I!Inv!2`.
    pub path: Vec<PathStep>,
    /// Identifier, or canonical operator symbol; empty in a subexpression name.
    pub name: String,
    /// Span of the whole reference (path and name, without arguments).
    pub span: Span,
    /// The selectors of a subexpression name, from the first one that is not a name: `2` in
    /// `Inv!2`, `:` in `Q!:`, `1` and `lbl` in `Op(a)!1!lbl`. A subexpression name made of
    /// names only (`Inv!P0`, a label of `Inv`) reads like an instance path: the analysis tells
    /// the two apart.
    pub sel: Vec<Selector>,
}

/// One selector of a subexpression name.
#[derive(Clone, Debug)]
pub struct Selector {
    pub kind: SelKind,
    /// Arguments: a label's parameters (`lbl(a, b)`) or the bound names' values of `!(a, b)`.
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelKind {
    /// A label (or, after `!:`, a definition's name).
    Name(String),
    /// `!3`: the third operand.
    Pos(u32),
    /// `!<<`: the first operand.
    First,
    /// `!>>`: the last operand.
    Last,
    /// `!:`
    Colon,
    /// `!@`: the body under its bound names, themselves.
    At,
    /// `!(a, b)`: the body under its bound names, with these values.
    Null,
}

#[derive(Clone, Debug)]
pub struct PathStep {
    pub name: Ident,
    pub args: Vec<Expr>,
}

/// One step of an EXCEPT path: `[e]` / `[e1, e2]` or `.field`.
#[derive(Clone, Debug)]
pub enum ExceptStep {
    /// `![a]` or `![a, b]` (the latter indexes by the tuple `<<a, b>>`).
    Index(Vec<Expr>),
    Field(Ident),
}

#[derive(Clone, Debug)]
pub struct ExceptUpdate {
    pub path: Vec<ExceptStep>,
    pub value: Expr,
}

#[derive(Clone, Debug)]
pub struct CaseArm {
    pub guard: Expr,
    pub body: Expr,
}

/// A definition inside LET.
#[derive(Clone, Debug)]
pub enum LetDef {
    Op(OpDef),
    Fun(FunDef),
    Recursive(Vec<OpDecl>),
    ModuleDef(ModuleDef),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: Box<ExprKind>,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind: Box::new(kind), span }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// Decimal, `\b`, `\o`, `\h` literals, already converted. Values beyond i64 are
    /// reported by the parser and replaced by 0.
    Num(i64),
    /// `1.5` (Reals): kept as text; TLC cannot evaluate it.
    Decimal(String),
    Str(String),
    Bool(bool),
    /// A name or operator application: `x`, `Op(a, b)`, `a + b`, `-. a`, `x'`, `M!Op(a)`.
    OpApp { op: OpName, args: Vec<Expr> },
    /// `f[a]` or `f[a, b]` (the latter applies `f` to `<<a, b>>`).
    FunApp { fun: Expr, args: Vec<Expr> },
    /// `r.field`
    Field { record: Expr, field: Ident },
    /// Bullet list or infix chain of `/\` or `\/`, flattened where they came from one list.
    Junction { kind: JunctionKind, items: Vec<Expr>, bulleted: bool },
    If { cond: Expr, then: Expr, els: Expr },
    Case { arms: Vec<CaseArm>, other: Option<Expr> },
    Let { defs: Vec<LetDef>, body: Expr },
    /// Bounded or unbounded `\A` / `\E`.
    Quant { kind: QuantKind, bounds: Vec<Bound>, body: Expr },
    /// `\AA x : F` / `\EE x : F` (temporal quantification; parsed, not evaluated).
    TemporalQuant { kind: QuantKind, vars: Vec<Ident>, body: Expr },
    Choose { bound: Bound, body: Expr },
    /// `{a, b, c}`
    SetEnum(Vec<Expr>),
    /// `{x \in S : P}`
    SetFilter { bound: Bound, pred: Expr },
    /// `{e : x \in S, y \in T}`
    SetMap { body: Expr, bounds: Vec<Bound> },
    /// `[x \in S |-> e]`
    FunCons { bounds: Vec<Bound>, body: Expr },
    /// `[S -> T]`
    FunSet { domain: Expr, range: Expr },
    /// `[a |-> e, b |-> f]`
    Record(Vec<(Ident, Expr)>),
    /// `[a : S, b : T]`
    RecordSet(Vec<(Ident, Expr)>),
    /// `[f EXCEPT ![a] = e, !.b = g]`
    Except { base: Expr, updates: Vec<ExceptUpdate> },
    /// `@` inside an EXCEPT value.
    At,
    /// `<<a, b>>`
    Tuple(Vec<Expr>),
    /// `A \X B \X C` (one n-ary product, not nested).
    Times(Vec<Expr>),
    /// `[A]_v`
    BoxAction { action: Expr, sub: Expr },
    /// `<<A>>_v`
    AngleAction { action: Expr, sub: Expr },
    /// `WF_v(A)` / `SF_v(A)`
    Fair { kind: Fairness, sub: Expr, action: Expr },
    /// `LAMBDA x, y : e` (only as an operator argument).
    Lambda { params: Vec<Ident>, body: Expr },
    /// `lbl:: e` or `lbl(a, b):: e`
    Label { name: Ident, params: Vec<Ident>, body: Expr },
    /// A subexpression that failed to parse (its diagnostic was reported).
    Error,
}

/// Call `f` on `e` and on every expression inside it, before its children (the bodies of LET
/// definitions, the sets of bound names and the indices of EXCEPT included).
pub fn walk<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    f(e);
    match &*e.kind {
        ExprKind::OpApp { args, op } => {
            op.path.iter().for_each(|p| p.args.iter().for_each(|a| walk(a, f)));
            op.sel.iter().for_each(|s| s.args.iter().for_each(|a| walk(a, f)));
            args.iter().for_each(|a| walk(a, f))
        }
        ExprKind::FunApp { fun, args } => {
            walk(fun, f);
            args.iter().for_each(|a| walk(a, f))
        }
        ExprKind::Field { record, .. } => walk(record, f),
        ExprKind::Junction { items, .. } | ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => {
            items.iter().for_each(|a| walk(a, f))
        }
        ExprKind::If { cond, then, els } => {
            walk(cond, f);
            walk(then, f);
            walk(els, f);
        }
        ExprKind::Case { arms, other } => {
            for a in arms {
                walk(&a.guard, f);
                walk(&a.body, f);
            }
            if let Some(o) = other {
                walk(o, f);
            }
        }
        ExprKind::Let { defs, body } => {
            for d in defs {
                match d {
                    LetDef::Op(o) => walk(&o.body, f),
                    LetDef::Fun(fd) => walk(&fd.body, f),
                    _ => {}
                }
            }
            walk(body, f);
        }
        ExprKind::Quant { bounds, body, .. } | ExprKind::SetMap { body, bounds } | ExprKind::FunCons { bounds, body } => {
            bounds.iter().filter_map(|b| b.set.as_ref()).for_each(|s| walk(s, f));
            walk(body, f);
        }
        ExprKind::TemporalQuant { body, .. } | ExprKind::Lambda { body, .. } | ExprKind::Label { body, .. } => walk(body, f),
        ExprKind::Choose { bound, body } | ExprKind::SetFilter { bound, pred: body } => {
            if let Some(s) = &bound.set {
                walk(s, f);
            }
            walk(body, f);
        }
        ExprKind::FunSet { domain, range } => {
            walk(domain, f);
            walk(range, f);
        }
        ExprKind::Record(fs) | ExprKind::RecordSet(fs) => fs.iter().for_each(|(_, x)| walk(x, f)),
        ExprKind::Except { base, updates } => {
            walk(base, f);
            for u in updates {
                for st in &u.path {
                    if let ExceptStep::Index(xs) = st {
                        xs.iter().for_each(|x| walk(x, f));
                    }
                }
                walk(&u.value, f);
            }
        }
        ExprKind::BoxAction { action, sub } | ExprKind::AngleAction { action, sub } | ExprKind::Fair { sub, action, .. } => {
            walk(action, f);
            walk(sub, f);
        }
        _ => {}
    }
}

/// Call `f` on every expression of `m` (its submodules' included; of a theorem, its statement
/// and not its proof), children before parents, so that `f` may replace the node it is given.
pub fn walk_module_mut(m: &mut Module, f: &mut dyn FnMut(&mut Expr)) {
    fn instance(i: &mut Instance, f: &mut dyn FnMut(&mut Expr)) {
        i.substs.iter_mut().for_each(|s| walk_mut(&mut s.expr, f));
    }
    for u in &mut m.units {
        match u {
            Unit::Assume(a) => walk_mut(&mut a.expr, f),
            Unit::OpDef(d) => walk_mut(&mut d.body, f),
            Unit::FunDef(d) => {
                d.bounds.iter_mut().filter_map(|b| b.set.as_mut()).for_each(|s| walk_mut(s, f));
                walk_mut(&mut d.body, f)
            }
            Unit::ModuleDef(d) => instance(&mut d.instance, f),
            Unit::Instance(i) => instance(i, f),
            // A statement, not its proof: nothing after the parser reads proofs.
            Unit::Theorem(t) => {
                if let Statement::Expr(e) = &mut t.statement {
                    walk_mut(e, f)
                }
            }
            Unit::Submodule(sm) => walk_module_mut(sm, f),
            Unit::Constants(_) | Unit::Variables(_) | Unit::Recursive(_) | Unit::UseHide(_) | Unit::Error(_) => {}
        }
    }
}

/// Call `f` on `e` and every expression inside it, children first (see [`walk`] for which).
pub fn walk_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut *e.kind {
        ExprKind::OpApp { args, op } => {
            op.path.iter_mut().for_each(|p| p.args.iter_mut().for_each(|a| walk_mut(a, f)));
            op.sel.iter_mut().for_each(|s| s.args.iter_mut().for_each(|a| walk_mut(a, f)));
            args.iter_mut().for_each(|a| walk_mut(a, f))
        }
        ExprKind::FunApp { fun, args } => {
            walk_mut(fun, f);
            args.iter_mut().for_each(|a| walk_mut(a, f))
        }
        ExprKind::Field { record, .. } => walk_mut(record, f),
        ExprKind::Junction { items, .. } | ExprKind::SetEnum(items) | ExprKind::Tuple(items) | ExprKind::Times(items) => {
            items.iter_mut().for_each(|a| walk_mut(a, f))
        }
        ExprKind::If { cond, then, els } => {
            walk_mut(cond, f);
            walk_mut(then, f);
            walk_mut(els, f);
        }
        ExprKind::Case { arms, other } => {
            for a in arms {
                walk_mut(&mut a.guard, f);
                walk_mut(&mut a.body, f);
            }
            if let Some(o) = other {
                walk_mut(o, f);
            }
        }
        ExprKind::Let { defs, body } => {
            for d in defs {
                match d {
                    LetDef::Op(o) => walk_mut(&mut o.body, f),
                    LetDef::Fun(fd) => {
                        fd.bounds.iter_mut().filter_map(|b| b.set.as_mut()).for_each(|s| walk_mut(s, f));
                        walk_mut(&mut fd.body, f)
                    }
                    LetDef::ModuleDef(md) => md.instance.substs.iter_mut().for_each(|s| walk_mut(&mut s.expr, f)),
                    LetDef::Recursive(_) => {}
                }
            }
            walk_mut(body, f);
        }
        ExprKind::Quant { bounds, body, .. } | ExprKind::SetMap { body, bounds } | ExprKind::FunCons { bounds, body } => {
            bounds.iter_mut().filter_map(|b| b.set.as_mut()).for_each(|s| walk_mut(s, f));
            walk_mut(body, f);
        }
        ExprKind::TemporalQuant { body, .. } | ExprKind::Lambda { body, .. } | ExprKind::Label { body, .. } => walk_mut(body, f),
        ExprKind::Choose { bound, body } | ExprKind::SetFilter { bound, pred: body } => {
            if let Some(s) = &mut bound.set {
                walk_mut(s, f);
            }
            walk_mut(body, f);
        }
        ExprKind::FunSet { domain, range } => {
            walk_mut(domain, f);
            walk_mut(range, f);
        }
        ExprKind::Record(fs) | ExprKind::RecordSet(fs) => fs.iter_mut().for_each(|(_, x)| walk_mut(x, f)),
        ExprKind::Except { base, updates } => {
            walk_mut(base, f);
            for u in updates {
                for st in &mut u.path {
                    if let ExceptStep::Index(xs) = st {
                        xs.iter_mut().for_each(|x| walk_mut(x, f));
                    }
                }
                walk_mut(&mut u.value, f);
            }
        }
        ExprKind::BoxAction { action, sub } | ExprKind::AngleAction { action, sub } | ExprKind::Fair { sub, action, .. } => {
            walk_mut(action, f);
            walk_mut(sub, f);
        }
        ExprKind::Num(_) | ExprKind::Decimal(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::At | ExprKind::Error => {}
    }
    f(e);
}
