//! A checkable model built from a front-end [`Analysis`] and a `.cfg` [`Config`], with TLC's
//! semantics: constants and model values, `<-` substitutions, Init/Next or SPECIFICATION (the
//! subscript and fairness conjuncts extracted), invariants, properties classified as TLC does
//! (`[]P` with P state-level is an invariant, `[][A]_v` an action property checked on every step,
//! anything else a liveness property), CONSTRAINT, ACTION_CONSTRAINT, SYMMETRY, VIEW.
//!
//! [`Model`] implements [`Spec`] and [`LiveSpec`] over [`tla_eval::State`].

use std::cell::RefCell;

use tla_eval::error::codes;
use tla_eval::{ActionSite, ActionSplit, Bindings, ConstEval, SplitAction, State, Value, ValueError};
use tla_sema::Analysis;
use tla_syntax::ast::*;
use tla_syntax::cfg::{CfgValue, Config, ConstRhs};
use tla_syntax::{Diagnostic, Span};

use crate::explore::{ActionId, Spec};

use crate::liveness::{AtomId, Fairness, LiveSpec, Temporal};

mod shape;
mod symmetry;
use shape::*;
use symmetry::*;

/// Codes of model-building errors (docs/diagnostics.md).
pub mod model_codes {
    /// The .cfg names no behaviour: neither SPECIFICATION nor INIT and NEXT.
    pub const NO_SPEC: &str = "E0430";
    /// A name the .cfg uses (INIT, NEXT, INVARIANT, ...) has no suitable definition.
    pub const BAD_NAME: &str = "E0431";
    /// A CONSTANT of the spec has no value in the .cfg.
    pub const MISSING_CONSTANT: &str = "E0432";
    /// A formula the checker cannot use where the .cfg puts it (SPECIFICATION shape,
    /// a temporal property it cannot translate).
    pub const BAD_FORMULA: &str = "E0433";
    /// An ASSUME is false.
    pub const ASSUMPTION: &str = "E0434";
    /// An action property `[][A]_v` is violated by a step.
    pub const ACTION_PROPERTY: &str = "E0435";
    /// The .cfg's POSTCONDITION is false once the state space is explored.
    pub const POSTCONDITION: &str = "E0436";
}

/// Why a check stopped with an error.
#[derive(Clone, Debug)]
pub enum ModelError {
    /// Evaluation failed (with the span, when known).
    Eval(ValueError),
    /// An ASSUME is false.
    AssumptionFalse { span: Span },
    /// The step to the last state of the trace violates the action property `name`.
    ActionProperty { name: String },
    /// The .cfg's POSTCONDITION `name` is false once the state space is explored.
    PostconditionFalse { name: String, span: Span },
    /// Evaluating the .cfg's POSTCONDITION `name` failed (TLC reports it as it reports a false
    /// one, with the evaluation's error).
    PostconditionFailed { name: String, span: Span, error: ValueError },
}

impl ModelError {
    pub fn to_diagnostic(&self, fallback: Span) -> Diagnostic {
        match self {
            ModelError::Eval(e) => e.clone().into_diagnostic(fallback),
            ModelError::AssumptionFalse { span } => Diagnostic::error(model_codes::ASSUMPTION, *span, "Assumption is false"),
            ModelError::ActionProperty { name } => {
                Diagnostic::error(model_codes::ACTION_PROPERTY, fallback, format!("Action property {} is violated", name))
            }
            ModelError::PostconditionFalse { name, span } => {
                Diagnostic::error(model_codes::POSTCONDITION, *span, format!("Postcondition {name} is false"))
                    .with_hint("it is evaluated once the state space is explored, with TLCGet(\"stats\") giving the run's figures")
            }
            ModelError::PostconditionFailed { name, span, error } => {
                Diagnostic::error(model_codes::POSTCONDITION, *span, format!("Evaluating postcondition {name} failed: {}", error.message))
            }
        }
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Eval(e) => write!(f, "{}", e),
            ModelError::AssumptionFalse { .. } => write!(f, "{}: an assumption is false", model_codes::ASSUMPTION),
            ModelError::ActionProperty { name } => write!(f, "{}: action property {} is violated", model_codes::ACTION_PROPERTY, name),
            ModelError::PostconditionFalse { name, .. } => write!(f, "{}: postcondition {} is false", model_codes::POSTCONDITION, name),
            ModelError::PostconditionFailed { name, error, .. } => {
                write!(f, "{}: evaluating postcondition {} failed: {}", model_codes::POSTCONDITION, name, error)
            }
        }
    }
}

impl From<ValueError> for ModelError {
    fn from(e: ValueError) -> Self {
        ModelError::Eval(e)
    }
}

#[derive(Clone)]
enum AtomKind<'a> {
    /// A state or action formula evaluated on a state or step.
    Expr(&'a Expr),
    /// `ENABLED <<A>>_sub` (sub optional).
    Enabled(&'a Expr, Option<&'a Expr>),
    /// `<<A>>_sub` on a step.
    Angle(&'a Expr, &'a Expr),
    /// `[A]_sub` on a step.
    BoxAction(&'a Expr, &'a Expr),
}

#[derive(Clone)]
struct Atom<'a> {
    kind: AtomKind<'a>,
    env: Bindings<'a>,
}

/// A liveness property translated for the liveness checker.
pub struct LiveProperty {
    pub name: String,
    pub formula: Temporal,
}

/// A model ready to check.
pub struct Model<'a> {
    ev: ConstEval<'a>,
    /// What it was loaded from, and what loading learnt of the declarations: to rebuild it for
    /// parallel workers (see [`Model::seed`]).
    analysis: &'a Analysis,
    config: &'a Config,
    declared: Declared<'a>,
    init: Vec<(&'a Expr, Bindings<'a>)>,
    /// Next's top-level disjuncts, each enumerated in turn.
    actions: Vec<SplitAction<'a>>,
    /// The bindings Next is read under when a SPECIFICATION reaches it through an instance
    /// (then `actions` is Next whole).
    next_bindings: Option<Bindings<'a>>,
    /// TLC's actions (what a successor is counted under: [`ActionId`]), by name.
    action_names: Vec<String>,
    action_sites: Vec<ActionSite>,
    invariants: Vec<(String, &'a Expr, Bindings<'a>)>,
    constraints: Vec<&'a Expr>,
    action_constraints: Vec<&'a Expr>,
    action_props: Vec<(String, &'a Expr, Bindings<'a>)>,
    view: Option<&'a Expr>,
    /// Permutations of model values (each a map from model value to model value).
    symmetry: Vec<Vec<(Value, Value)>>,
    assumes: Vec<(&'a Expr, Span)>,
    check_deadlock: bool,
    atoms: Vec<Atom<'a>>,
    /// The next-state relation with its definitions unfolded (read in the root module), to
    /// recognise fairness on the whole of it (`WF_vars(Next)`).
    next_unfolded: Option<&'a Expr>,
    fairness: Vec<Fairness>,
    properties: Vec<LiveProperty>,
    alias: Option<&'a Expr>,
    /// The .cfg's POSTCONDITION: its name, body and where the .cfg names it.
    postcondition: Option<(String, &'a Expr, Span)>,
    /// Why the last state fingerprinted could not be (see [`Spec::take_fingerprint_error`]).
    fp_error: RefCell<Option<ModelError>>,
    /// Per invariant, once asked for (see `violated_invariant_after`): its conjuncts, through
    /// definitions without parameters, each with the variables it may read (a mask), when it is
    /// read in the root module and every conjunct's reads are known; None: evaluated whole.
    inv_parts: std::cell::OnceCell<Vec<Option<Box<[(&'a Expr, u64)]>>>>,
    /// Per CONSTRAINT, once asked for (see `in_model_after`): the variables it may read, when
    /// known.
    constraint_reads: std::cell::OnceCell<Vec<Option<u64>>>,
}

/// The variables (of the first 64) whose values `state` does not share with `parent` (the
/// same allocation: the step left them unchanged), as a mask (see `state_reads`).
fn changed_vars(parent: &State, state: &State) -> u64 {
    let mut changed = 0u64;
    for (i, (a, b)) in parent.iter().zip(state.iter()).take(64).enumerate() {
        if !Value::same_allocation(a, b) {
            changed |= 1 << i;
        }
    }
    changed
}

fn diag(code: &'static str, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, span, msg)
}

fn cfg_text_words(config: &Config) -> String {
    fn val(v: &CfgValue, out: &mut String) {
        match v {
            CfgValue::Str(s) => {
                out.push('"');
                out.push_str(&s.replace('\\', "\\\\").replace('"', "\\\""));
                out.push_str("\" ");
            }
            CfgValue::ModelValue(m) => {
                out.push_str(m);
                out.push(' ');
            }
            CfgValue::Set(items) => items.iter().for_each(|i| val(i, out)),
            _ => {}
        }
    }
    let mut out = String::new();
    for c in &config.constants {
        out.push_str(&c.name.name);
        out.push(' ');
        match &c.rhs {
            ConstRhs::Value(v, _) => val(v, &mut out),
            ConstRhs::Subst(d) => {
                out.push_str(&d.name);
                out.push(' ');
            }
            ConstRhs::ModSubst { def, .. } => {
                out.push_str(&def.name);
                out.push(' ');
            }
        }
    }
    out
}

/// Build a model from an analysis without errors and a parsed .cfg.
pub fn load<'a>(analysis: &'a Analysis, config: &'a Config) -> Result<Model<'a>, Vec<Diagnostic>> {
    let (ev, declared) = program(analysis, config)?;
    shape(analysis, config, ev, declared)
}

/// What loading learns of the modules' declarations while it builds the program, for the
/// rest of the model: the variables in scope and where they are declared, the modules whose
/// ASSUMEs are the root's, and whether definitions apply `TLCSet` or TLCExt's `Trace`.
#[derive(Clone)]
struct Declared<'a> {
    /// Where each variable is declared (for errors about its value).
    var_decls: Vec<(&'a str, Span)>,
    visible: Vec<&'a str>,
    writes_registers: bool,
    reads_behaviour: bool,
}

/// A model as a parallel run's other workers rebuild it (see [`Model::seed`]): `Send + Sync`,
/// holding the program they share.
pub struct ModelSeed<'a> {
    analysis: &'a Analysis,
    config: &'a Config,
    program: tla_eval::SharedProgram<'a>,
    declared: Declared<'a>,
}

impl<'a> ModelSeed<'a> {
    /// A model of its own for a worker, over the shared program: the spec's shape (Init, the
    /// actions, the properties) is read again, the program and its constants are not.
    pub fn model(&self) -> Result<Model<'a>, Vec<Diagnostic>> {
        shape(self.analysis, self.config, ConstEval::from_shared(&self.program), self.declared.clone())
    }
}

// Seeds go to worker threads.
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<ModelSeed<'static>>();
};

/// The evaluator of a model, with the `.cfg`'s constants and overrides applied: its program.
fn program<'a>(analysis: &'a Analysis, config: &'a Config) -> Result<(ConstEval<'a>, Declared<'a>), Vec<Diagnostic>> {
    let Some(root) = analysis.root_module() else {
        return Err(vec![diag(model_codes::NO_SPEC, Span::default(), "no root module")]);
    };
    let mut errors = Vec::new();
    let mut ev = ConstEval::with_config(&analysis.modules, &cfg_text_words(config));
    ev.use_levels(&analysis.levels);
    ev.use_names(&analysis.names);
    ev.set_max_depth(tla_eval::eval::DEFAULT_MAX_DEPTH);

    // Variables and constants in scope (own, extended, instantiated without a name).
    let mut vars: Vec<&'a str> = Vec::new();
    let mut var_decls: Vec<(&'a str, Span)> = Vec::new();
    let mut consts: Vec<(&'a str, Span)> = Vec::new();
    // The root and the modules it extends, transitively. An instance (named or not) declares
    // nothing: its module's constants and variables are substituted, explicitly or by a name
    // of the instantiating module (`INSTANCE M WITH c <- e` needs no value for M's `c`).
    let mut visible: Vec<&str> = vec![root.name.name.as_str()];
    let mut k = 0;
    while k < visible.len() {
        if let Some(m) = analysis.modules.iter().rev().find(|m| m.name.name == visible[k]) {
            let uses: Vec<&str> = m.extends.iter().map(|e| e.name.as_str()).collect();
            for u in uses {
                if !visible.contains(&u) {
                    visible.push(u);
                }
            }
        }
        k += 1;
    }
    for m in analysis.modules.iter().filter(|m| visible.contains(&m.name.name.as_str())) {
        for u in &m.units {
            match u {
                Unit::Variables(vs) => vs.iter().for_each(|v| {
                    if !vars.contains(&v.name.as_str()) {
                        vars.push(&v.name);
                        var_decls.push((v.name.as_str(), v.span));
                    }
                }),
                Unit::Constants(cs) => cs.iter().for_each(|c| consts.push((&c.name.name, c.name.span))),
                _ => {}
            }
        }
    }
    // Keep only the names visible from the root (a module only instantiated by name keeps its own).
    vars.retain(|v| analysis.symbol(v).is_none_or(|s| s.kind == tla_sema::SymbolKind::Variable));
    ev.set_variables(&vars);

    // .cfg constants.
    let mut given: Vec<&str> = Vec::new();
    for c in &config.constants {
        if c.module.is_some() {
            given.push(&c.name.name);
            // `Op <- [M] Def`: Op (a constant or a definition of M, or a standard operator
            // M uses, such as Nat) means Def. Applied to every module that sees Op.
            match &c.rhs {
                ConstRhs::ModSubst { def, .. } => {
                    if !ev.override_with(&c.name.name, &def.name) {
                        errors.push(diag(model_codes::BAD_NAME, def.span, format!("{} <- [..] {}: no definition named {}", c.name.name, def.name, def.name)));
                    }
                }
                // `Op = [M] v`: M's definition Op is replaced by the value v.
                ConstRhs::Value(v, span) => match ev.cfg_value(v) {
                    Ok(val) => ev.override_value(&c.name.name, val),
                    Err(e) => errors.push(e.into_diagnostic(*span)),
                },
                ConstRhs::Subst(_) => {}
            }
            continue;
        }
        given.push(&c.name.name);
        match &c.rhs {
            ConstRhs::Value(v, span) => match ev.cfg_value(v) {
                Ok(val) => ev.set_definition_value(&c.name.name, val),
                Err(e) => errors.push(e.into_diagnostic(*span)),
            },
            ConstRhs::Subst(def) if matches!(def.name.as_str(), "TRUE" | "FALSE") => {
                ev.set_definition_value(&c.name.name, Value::Bool(def.name == "TRUE"));
            }
            ConstRhs::Subst(def) => {
                if !ev.substitute(&c.name.name, &def.name) {
                    errors.push(diag(model_codes::BAD_NAME, def.span, format!("{} <- {}: no definition named {}", c.name.name, def.name, def.name)));
                }
            }
            ConstRhs::ModSubst { def, .. } => {
                if !ev.substitute(&c.name.name, &def.name) {
                    errors.push(diag(model_codes::BAD_NAME, def.span, format!("{} <- [..] {}: no definition named {}", c.name.name, def.name, def.name)));
                }
            }
        }
    }
    for (c, span) in &consts {
        if !given.contains(c) && !ev.is_defined(c) {
            errors.push(diag(model_codes::MISSING_CONSTANT, *span, format!("the constant {} is not given a value in the .cfg", c)));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Constant-level zero-argument definitions: computed once, when first used.
    for sym in &analysis.root_scope {
        if sym.level == 0 && sym.arity == 0 && sym.kind == tla_sema::SymbolKind::Operator && !given.contains(&sym.name.as_str()) {
            if let Some(d) = ev.definition(&sym.name)
                && !mentions_io(&d.body) {
                    ev.cache_definition(&sym.name);
                }
        }
    }
    let _ = ev.take_output();
    let writes_registers = analysis.root_scope.iter().any(|sym| ev.definition(&sym.name).is_some_and(|d| applies_any(&d.body, &["TLCSet"])));
    let reads_behaviour = analysis.modules.iter().any(|m| m.name.name == "TLCExt")
        && analysis.root_scope.iter().any(|sym| ev.definition(&sym.name).is_some_and(|d| applies_any(&d.body, &["Trace"])));
    Ok((ev, Declared { var_decls, visible, writes_registers, reads_behaviour }))
}

/// The model of a program: the spec's Init and actions, its invariants, constraints and
/// properties, read from the `.cfg` with the program's definitions.
fn shape<'a>(analysis: &'a Analysis, config: &'a Config, ev: ConstEval<'a>, declared: Declared<'a>) -> Result<Model<'a>, Vec<Diagnostic>> {
    let Some(root) = analysis.root_module() else {
        return Err(vec![diag(model_codes::NO_SPEC, Span::default(), "no root module")]);
    };
    let root_span = root.name.span;
    let mut errors = Vec::new();
    let vars = ev.variables().len();

    let def_body = |ev: &ConstEval<'a>, id: &Ident, what: &str| -> Result<&'a Expr, Diagnostic> {
        match ev.definition(&id.name) {
            Some(d) if d.params.is_empty() => Ok(&d.body),
            _ => Err(diag(model_codes::BAD_NAME, id.span, format!("the {} {} is not a zero-argument definition", what, id.name))),
        }
    };

    let mut init: Vec<(&'a Expr, Bindings<'a>)> = Vec::new();
    let mut next = None;
    let mut fair: Vec<(FairnessConjunct, Bindings<'a>)> = Vec::new();
    let mut assumed: Vec<(&'a Expr, Bindings<'a>)> = Vec::new();
    if let Some(spec) = &config.specification {
        match def_body(&ev, spec, "SPECIFICATION") {
            Ok(body) => {
                let mut parts = SpecParts::default();
                if let Err(msg) = spec_parts(&ev, body, &Bindings::default(), &mut parts, 0) {
                    errors.push(diag(model_codes::BAD_FORMULA, spec.span, msg));
                }
                init = parts.init;
                next = parts.next;
                fair = parts.fair;
                assumed = parts.temporal;
            }
            Err(d) => errors.push(d),
        }
    } else {
        if let Some(i) = &config.init {
            match def_body(&ev, i, "INIT") {
                Ok(b) => init.push((b, Bindings::default())),
                Err(d) => errors.push(d),
            }
        }
        if let Some(n) = &config.next {
            match def_body(&ev, n, "NEXT") {
                Ok(b) => next = Some((b, Bindings::default())),
                Err(d) => errors.push(d),
            }
        }
    }
    if init.is_empty() && vars > 0 {
        errors.push(diag(model_codes::NO_SPEC, root_span, "the .cfg gives no initial predicate (SPECIFICATION or INIT)"));
        return Err(errors);
    }
    let split = match next {
        Some((n, ref b)) if b.is_empty() => {
            // Read in the NEXT definition (SPECIFICATION's `[][Next]_v` applies it by name).
            let def = config.next.as_ref().and_then(|id| ev.definition(&id.name));
            ev.split_action(n, def)
        }
        // Read inside an instance (or under bound names): one action, enumerated under its
        // bindings (see `next_bindings`).
        Some((n, _)) => ActionSplit {
            units: vec![SplitAction { expr: n, first: 0, single: true }],
            names: vec![action_label(n)],
            sites: vec![ActionSite { formula: n.span, def: None }],
        },
        None => ActionSplit::default(),
    };
    if next.is_none() && vars > 0 {
        errors.push(diag(model_codes::NO_SPEC, root_span, "the .cfg gives no next-state relation (SPECIFICATION or NEXT)"));
    }

    let mut invariants = Vec::new();
    for i in &config.invariants {
        match def_body(&ev, i, "INVARIANT") {
            Ok(b) => invariants.push((i.name.clone(), b, Bindings::default())),
            Err(d) => errors.push(d),
        }
    }
    let mut constraints = Vec::new();
    for c in &config.constraints {
        match def_body(&ev, c, "CONSTRAINT") {
            Ok(b) => constraints.push(b),
            Err(d) => errors.push(d),
        }
    }
    let mut action_constraints = Vec::new();
    for c in &config.action_constraints {
        match def_body(&ev, c, "ACTION_CONSTRAINT") {
            Ok(b) => action_constraints.push(b),
            Err(d) => errors.push(d),
        }
    }
    let next_unfolded = match &next {
        Some((n, b)) if b.is_empty() => {
            let (u, ub) = unfold_all(&ev, n, b);
            ub.is_empty().then_some(u)
        }
        _ => None,
    };
    let mut model = Model {
        ev,
        analysis,
        config,
        declared,
        init,
        actions: split.units,
        next_bindings: next.as_ref().map(|(_, b)| b.clone()).filter(|b| !b.is_empty()),
        action_names: split.names,
        action_sites: split.sites,
        invariants,
        constraints,
        action_constraints,
        action_props: Vec::new(),
        view: None,
        symmetry: Vec::new(),
        assumes: Vec::new(),
        check_deadlock: config.check_deadlock.unwrap_or(true),
        atoms: Vec::new(),
        next_unfolded,
        fairness: Vec::new(),
        properties: Vec::new(),
        alias: None,
        postcondition: None,
        fp_error: RefCell::new(None),
        inv_parts: std::cell::OnceCell::new(),
        constraint_reads: std::cell::OnceCell::new(),
    };
    // ASSUMEs of the root and the modules it shares names with (a module instantiated by name
    // reads its ASSUMEs through its substitutions, which are not evaluated here).
    for m in analysis.modules.iter().filter(|m| model.declared.visible.contains(&m.name.name.as_str())) {
        for u in &m.units {
            if let Unit::Assume(a) = u {
                model.assumes.push((&a.expr, a.span));
            }
        }
    }
    // Fairness of the SPECIFICATION.
    for (f, env) in fair {
        let enabled = model.atom(AtomKind::Enabled(f.action, Some(f.sub)), env.clone());
        let taken = model.atom(AtomKind::Angle(f.action, f.sub), env);
        model.fairness.push(Fairness { kind: f.kind, enabled, taken, label: f.label });
    }
    // The SPECIFICATION's other temporal conjuncts: a behaviour refutes a property only if it
    // satisfies them too (each property P is checked as `Assumed => P`).
    let mut assumptions = Vec::new();
    for (e, env) in &assumed {
        match model.temporal(e, env, 0) {
            Ok(t) => assumptions.push(t),
            Err(msg) => errors.push(diag(model_codes::BAD_FORMULA, config.specification.as_ref().map_or(root_span, |s| s.span), msg)),
        }
    }
    // PROPERTIES.
    for p in &config.properties {
        match def_body(&model.ev, p, "PROPERTY") {
            Ok(body) => {
                let mut live = Vec::new();
                if let Err(msg) = model.classify_property(&p.name, body, &Bindings::default(), &mut live, 0) {
                    errors.push(diag(model_codes::BAD_FORMULA, p.span, msg));
                }
                if !live.is_empty() {
                    let formula = if live.len() == 1 { live.pop().unwrap_or(Temporal::Bool(true)) } else { Temporal::And(live) };
                    let formula = if assumptions.is_empty() {
                        formula
                    } else {
                        Temporal::implies(Temporal::And(assumptions.clone()), formula)
                    };
                    model.properties.push(LiveProperty { name: p.name.clone(), formula });
                }
            }
            Err(d) => errors.push(d),
        }
    }
    if let Some(v) = &config.view {
        match def_body(&model.ev, v, "VIEW") {
            Ok(b) => model.view = Some(b),
            Err(d) => errors.push(d),
        }
    }
    if let Some(a) = &config.alias {
        match def_body(&model.ev, a, "ALIAS") {
            Ok(b) => model.alias = Some(b),
            Err(d) => errors.push(d),
        }
    }
    if let Some(p) = &config.postcondition {
        match def_body(&model.ev, p, "POSTCONDITION") {
            Ok(b) => model.postcondition = Some((p.name.clone(), b, p.span)),
            Err(d) => errors.push(d),
        }
    }
    if let Some(s) = &config.symmetry {
        match model.ev.eval_def(&s.name) {
            Ok(perms) => match symmetry_maps(&perms).and_then(permutation_group) {
                Ok(maps) => model.symmetry = maps,
                Err(e) => errors.push(e.into_diagnostic(s.span)),
            },
            Err(e) => errors.push(e.into_diagnostic(s.span)),
        }
    }
    if errors.is_empty() { Ok(model) } else { Err(errors) }
}

impl<'a> Model<'a> {
    /// What the other workers of a parallel run build their models from: this model's program
    /// (shared, not copied: with the constants computed so far, the ASSUMEs' included) and its
    /// sources. Values cross threads, so their counts must be atomic (the default).
    pub fn seed(&self) -> ModelSeed<'a> {
        ModelSeed { analysis: self.analysis, config: self.config, program: self.ev.share(), declared: self.declared.clone() }
    }

    /// Whether this model and `other` evaluate over one program (a worker's model made from
    /// [`Model::seed`] does).
    pub fn shares_program_with(&self, other: &Model<'a>) -> bool {
        self.ev.shares_program_with(&other.ev)
    }

    fn atom(&mut self, kind: AtomKind<'a>, env: Bindings<'a>) -> AtomId {
        self.atoms.push(Atom { kind, env });
        (self.atoms.len() - 1) as AtomId
    }

    /// Sort a conjunct of a PROPERTY: `[]P` (P state-level) becomes an invariant, `[][A]_v` an
    /// action property, anything else a liveness formula. An instance's specification
    /// (`I!Spec`) is unfolded into its parts the same way: its Init is checked on the initial
    /// states, its `[][Next]_v` on every step, its fairness by the liveness checker.
    fn classify_property(&mut self, name: &str, e: &'a Expr, env: &Bindings<'a>, live: &mut Vec<Temporal>, depth: u32) -> Result<(), String> {
        if depth > 60 {
            return Err("the property is nested too deeply".into());
        }
        if let Some(items) = conjuncts(e) {
            for it in items {
                self.classify_property(name, it, env, live, depth + 1)?;
            }
            return Ok(());
        }
        if let Some((b, bb)) = unfold(&self.ev, e, env) {
            return self.classify_property(name, b, &bb, live, depth + 1);
        }
        if let ExprKind::OpApp { op, args } = &*e.kind
            && op.path.is_empty() && op.name == "[]" && args.len() == 1 {
                let inner = &args[0];
                if !is_temporal(&self.ev, inner, env)? && !env.has_names() {
                    let (a, ab) = unfold_all(&self.ev, inner, env);
                    if is_action(&self.ev, a, &ab)? {
                        self.action_props.push((name.to_string(), a, ab));
                    } else {
                        self.invariants.push((name.to_string(), inner, env.clone()));
                    }
                    return Ok(());
                }
            }
        live.push(self.temporal(e, env, 0)?);
        Ok(())
    }

    fn temporal(&mut self, e: &'a Expr, env: &Bindings<'a>, depth: u32) -> Result<Temporal, String> {
        if depth > 60 {
            return Err("the temporal formula is nested too deeply".into());
        }
        if !is_temporal(&self.ev, e, env)? {
            // A state or action formula.
            let (a, env) = unfold_all(&self.ev, e, env);
            let env = &env;
            return Ok(match &*a.kind {
                ExprKind::AngleAction { action, sub } => Temporal::Action(self.atom(AtomKind::Angle(action, sub), env.clone())),
                ExprKind::BoxAction { action, sub } => Temporal::Action(self.atom(AtomKind::BoxAction(action, sub), env.clone())),
                ExprKind::OpApp { op, args } if op.path.is_empty() && op.name == "ENABLED" && args.len() == 1 => {
                    let (x, xenv) = unfold_all(&self.ev, &args[0], env);
                    match &*x.kind {
                        ExprKind::AngleAction { action, sub } => Temporal::State(self.atom(AtomKind::Enabled(action, Some(sub)), xenv)),
                        _ => Temporal::State(self.atom(AtomKind::Enabled(x, None), xenv)),
                    }
                }
                _ if is_action(&self.ev, a, env)? => Temporal::Action(self.atom(AtomKind::Expr(a), env.clone())),
                _ => Temporal::State(self.atom(AtomKind::Expr(a), env.clone())),
            });
        }
        if let Some((b, bb)) = unfold(&self.ev, e, env) {
            return self.temporal(b, &bb, depth + 1);
        }
        match &*e.kind {
            ExprKind::Junction { kind, items, .. } => {
                let mut v = Vec::new();
                for it in items {
                    v.push(self.temporal(it, env, depth + 1)?);
                }
                Ok(if *kind == JunctionKind::And { Temporal::And(v) } else { Temporal::Or(v) })
            }
            ExprKind::If { cond, then, els } => {
                // IF c THEN A ELSE B == (c /\ A) \/ (~c /\ B), c state-level.
                let c = self.temporal(cond, env, depth + 1)?;
                let a = self.temporal(then, env, depth + 1)?;
                let b = self.temporal(els, env, depth + 1)?;
                Ok(Temporal::Or(vec![Temporal::And(vec![c.clone(), a]), Temporal::And(vec![Temporal::negate(c), b])]))
            }
            ExprKind::OpApp { op, args } if op.path.is_empty() => {
                let n = op.name.as_str();
                match (n, args.len()) {
                    ("[]", 1) => Ok(Temporal::always(self.temporal(&args[0], env, depth + 1)?)),
                    ("<>", 1) => Ok(Temporal::eventually(self.temporal(&args[0], env, depth + 1)?)),
                    ("~>", 2) => Ok(Temporal::leads_to(self.temporal(&args[0], env, depth + 1)?, self.temporal(&args[1], env, depth + 1)?)),
                    ("=>", 2) => Ok(Temporal::implies(self.temporal(&args[0], env, depth + 1)?, self.temporal(&args[1], env, depth + 1)?)),
                    ("<=>", 2) | ("\\equiv", 2) => {
                        let (a, b) = (self.temporal(&args[0], env, depth + 1)?, self.temporal(&args[1], env, depth + 1)?);
                        Ok(Temporal::And(vec![Temporal::implies(a.clone(), b.clone()), Temporal::implies(b, a)]))
                    }
                    ("/\\", 2) => Ok(Temporal::And(vec![self.temporal(&args[0], env, depth + 1)?, self.temporal(&args[1], env, depth + 1)?])),
                    ("\\/", 2) => Ok(Temporal::Or(vec![self.temporal(&args[0], env, depth + 1)?, self.temporal(&args[1], env, depth + 1)?])),
                    ("~", 1) => Ok(Temporal::negate(self.temporal(&args[0], env, depth + 1)?)),
                    _ => Err(format!("the checker cannot use the temporal operator {} here", n)),
                }
            }
            ExprKind::Fair { kind, sub, action } => {
                // WF_v(A) == []<>~ENABLED <<A>>_v \/ []<><<A>>_v;  SF: <>[]~ENABLED \/ []<>taken.
                let en = Temporal::State(self.atom(AtomKind::Enabled(action, Some(sub)), env.clone()));
                let taken = Temporal::Action(self.atom(AtomKind::Angle(action, sub), env.clone()));
                let not_en = Temporal::negate(en);
                let first = if matches!(kind, tla_syntax::ast::Fairness::Weak) {
                    Temporal::always(Temporal::eventually(not_en))
                } else {
                    Temporal::eventually(Temporal::always(not_en))
                };
                Ok(Temporal::Or(vec![first, Temporal::always(Temporal::eventually(taken))]))
            }
            ExprKind::Quant { kind, bounds, body } => {
                let mut v = Vec::new();
                for b in self.ev.bindings_of(bounds, env).map_err(|e| e.to_string())? {
                    v.push(self.temporal(body, &b, depth + 1)?);
                }
                Ok(if *kind == QuantKind::Forall { Temporal::And(v) } else { Temporal::Or(v) })
            }
            ExprKind::Label { body, .. } => self.temporal(body, env, depth + 1),
            _ => Err("the checker cannot translate this temporal formula".into()),
        }
    }

    /// Names of TLC's actions (see [`ActionSplit`]), indexed by [`ActionId`].
    pub fn action_names(&self) -> Vec<String> {
        self.action_names.clone()
    }

    /// TLC's registers as `TLCSet` left them (see `ConstEval::registers`).
    pub fn registers(&self) -> Vec<(tla_eval::Register, Value)> {
        self.ev.registers()
    }

    /// Start from these registers (a worker's model, after the ASSUMEs of the main one).
    pub fn set_registers(&self, regs: &[(tla_eval::Register, Value)]) {
        self.ev.set_registers(regs);
    }

    /// Where each of TLC's actions is, indexed by [`ActionId`].
    pub fn action_sites(&self) -> &[ActionSite] {
        &self.action_sites
    }

    /// Names of the invariants (INVARIANTS, then the `[]P` conjuncts of PROPERTIES).
    pub fn invariant_names(&self) -> Vec<String> {
        self.invariants.iter().map(|(n, _, _)| n.clone()).collect()
    }

    /// Liveness properties (PROPERTIES that are neither invariants nor action properties).
    pub fn live_properties(&self) -> &[LiveProperty] {
        &self.properties
    }

    /// Fairness conditions of the SPECIFICATION.
    pub fn fairness(&self) -> &[Fairness] {
        &self.fairness
    }

    /// Names of the action properties `[][A]_v`.
    pub fn action_property_names(&self) -> Vec<String> {
        self.action_props.iter().map(|(n, _, _)| n.clone()).collect()
    }

    /// Whether the evaluator compiles the expressions it evaluates often (on by default; see
    /// tla-eval's `compile`). Off, everything is interpreted: the same answers, slower. Tests
    /// compare the two.
    pub fn set_compiling(&mut self, on: bool) {
        self.ev.set_compiling(on);
    }

    /// Whether a definition of the model applies `TLCSet`: TLC's registers then carry values
    /// from state to state in the order one worker evaluates them, which several workers
    /// would not keep.
    pub fn writes_registers(&self) -> bool {
        self.declared.writes_registers
    }

    /// Whether the model reads the behaviour to the state it evaluates in (TLCExt's `Trace`):
    /// the explorer then rebuilds it for every state, and one worker explores, as for TLC's
    /// registers.
    pub fn reads_behaviour(&self) -> bool {
        self.declared.reads_behaviour
    }

    pub fn check_deadlock(&self) -> bool {
        self.check_deadlock
    }

    /// The variables, in slot order.
    pub fn variables(&self) -> Vec<String> {
        self.ev.variables().iter().map(|s| s.to_string()).collect()
    }

    /// Evaluate every ASSUME (first, before exploring).
    pub fn check_assumptions(&self) -> Result<(), ModelError> {
        for (e, span) in &self.assumes {
            match self.ev.eval(e) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => return Err(ModelError::AssumptionFalse { span: *span }),
                Ok(v) => {
                    return Err(ModelError::Eval(ValueError::new(codes::TYPE, format!("an ASSUME evaluated to {}, not a boolean", v)).at(*span)))
                }
                Err(e) => return Err(ModelError::Eval(e.at(*span))),
            }
        }
        Ok(())
    }

    /// Evaluate the .cfg's POSTCONDITION, as TLC does once the state space is explored (and
    /// the temporal properties hold), with `TLCGet("stats")` answering the run's figures.
    /// `Ok` when there is none.
    pub fn check_postcondition(&self, stats: &crate::explore::Stats) -> Result<(), ModelError> {
        let Some((name, body, span)) = &self.postcondition else { return Ok(()) };
        self.ev.set_run_figures(Some(tla_eval::RunFigures {
            distinct: stats.distinct,
            generated: stats.generated,
            initial: stats.initial,
            queue: stats.queued,
            diameter: u64::from(stats.depth),
        }));
        let r = self.ev.eval(body);
        self.ev.set_run_figures(None);
        match r {
            Ok(Value::Bool(true)) => Ok(()),
            Ok(Value::Bool(false)) => Err(ModelError::PostconditionFalse { name: name.clone(), span: *span }),
            Ok(v) => Err(ModelError::PostconditionFailed {
                name: name.clone(),
                span: *span,
                error: ValueError::new(codes::TYPE, format!("it evaluated to {v}, not a boolean")),
            }),
            Err(error) => Err(ModelError::PostconditionFailed { name: name.clone(), span: *span, error }),
        }
    }

    /// Whether the .cfg has a POSTCONDITION.
    pub fn has_postcondition(&self) -> bool {
        self.postcondition.is_some()
    }

    /// What Print and PrintT printed so far.
    pub fn take_output(&self) -> Vec<String> {
        self.ev.take_output()
    }

    /// A state as (variable, value printed as TLC prints it); through ALIAS when the .cfg has one.
    pub fn format_state(&self, state: &State) -> Vec<(String, String)> {
        if let Some(a) = self.alias
            && let Ok(v) = self.ev.eval_in_state(a, state)
            && let Value::Fcn(f) = &v
            && f.is_record() {
                return f.domain().iter().zip(f.values().iter()).map(|(d, x)| {
                    let name = match d { Value::Str(s) => s.as_str().to_string(), _ => d.to_string() };
                    (name, x.to_string())
                }).collect();
            }
        self.ev.variables().iter().zip(state.iter()).map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    fn eval_bool(&self, e: &'a Expr, env: &Bindings<'a>, from: &State, to: Option<&State>) -> Result<bool, ModelError> {
        match self.ev.eval_with(e, env, from, to)? {
            Value::Bool(b) => Ok(b),
            v => Err(ModelError::Eval(ValueError::new(codes::TYPE, format!("expected a boolean, found {}", v)).at(e.span))),
        }
    }

    /// The level `TLCGet("level")` answers (see [`Spec::set_level`]).
    pub fn set_level(&self, level: u32) {
        self.ev.set_level(level);
    }

    /// `inv_parts` of every invariant. A conjunct an earlier invariant has too (`Inv` including
    /// `TypeOK`) is left out: the earlier invariant is checked first, so it held by then.
    fn split_invariants(&self) -> Vec<Option<Box<[(&'a Expr, u64)]>>> {
        let mut earlier: Vec<*const Expr> = Vec::new();
        let mut out = Vec::with_capacity(self.invariants.len());
        for (_, e, b) in &self.invariants {
            let parts = self.invariant_parts(e, b).map(|p| {
                let own: Box<[(&'a Expr, u64)]> = p.iter().filter(|(c, _)| !earlier.contains(&(*c as *const Expr))).copied().collect();
                earlier.extend(p.iter().map(|(c, _)| *c as *const Expr));
                own
            });
            out.push(parts);
        }
        out
    }

    /// The conjuncts of invariant `e` with their reads (see `inv_parts`).
    fn invariant_parts(&self, e: &'a Expr, b: &Bindings<'a>) -> Option<Box<[(&'a Expr, u64)]>> {
        if !b.is_empty() {
            return None;
        }
        let mut out = Vec::new();
        self.split_invariant(e, &mut out, 0)?;
        Some(out.into())
    }

    fn split_invariant(&self, e: &'a Expr, out: &mut Vec<(&'a Expr, u64)>, depth: u32) -> Option<()> {
        if depth < 60 {
            if let Some(items) = conjuncts(e) {
                for it in items {
                    self.split_invariant(it, out, depth + 1)?;
                }
                return Some(());
            }
            if let Some((body, bb)) = unfold(&self.ev, e, &Bindings::default())
                && bb.is_empty()
            {
                return self.split_invariant(body, out, depth + 1);
            }
        }
        out.push((e, self.ev.state_reads(e)?));
        Some(())
    }

    /// `violated_invariant` for a successor of `parent`, which satisfies every invariant: a
    /// conjunct that reads only variables whose values `state` shares with `parent` (the same
    /// allocation: the step left them unchanged) holds in `state` as it held in `parent`. A
    /// conjunct is read only where TLC would find it TRUE, so the first one that is FALSE, or
    /// fails, is the one TLC finds.
    pub fn violated_invariant_after(&self, parent: &State, state: &State) -> Result<Option<usize>, ModelError> {
        let parts = self.inv_parts.get_or_init(|| self.split_invariants());
        let changed = changed_vars(parent, state);
        for (i, (_, e, b)) in self.invariants.iter().enumerate() {
            let holds = match &parts[i] {
                Some(conj) => {
                    let mut holds = true;
                    for &(c, reads) in conj.iter() {
                        if reads & changed != 0 && !self.eval_bool(c, &Bindings::default(), state, None)? {
                            holds = false;
                            break;
                        }
                    }
                    holds
                }
                None => self.eval_bool(e, b, state, None)?,
            };
            if !holds {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// `in_model` for a successor of `parent`, a state inside the model (only those are
    /// expanded): a constraint that reads only variables whose values `state` shares with
    /// `parent` holds in `state` as it held in `parent`.
    pub fn in_model_after(&self, parent: &State, state: &State) -> Result<bool, ModelError> {
        if self.constraints.is_empty() {
            return Ok(true);
        }
        let reads = self.constraint_reads.get_or_init(|| self.constraints.iter().map(|e| self.ev.state_reads(e)).collect());
        let changed = changed_vars(parent, state);
        for (e, r) in self.constraints.iter().zip(reads) {
            if r.is_some_and(|r| r & changed == 0) {
                continue;
            }
            if !self.eval_bool(e, &Bindings::default(), state, None)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn fp_value(&self, state: &State) -> Result<u64, ValueError> {
        let mut h = tla_eval::fingerprint::FpHasher::new();
        match self.view {
            Some(v) => h.write_value(&self.ev.eval_in_state(v, state)?).map_err(|e| {
                ValueError::new(e.code, format!("the value of VIEW in this state cannot be stored: {}", e.message)).at(v.span)
            })?,
            None => {
                for x in state.iter() {
                    if let Err(e) = h.write_value(x) {
                        return Err(self.unstorable(state, e));
                    }
                }
            }
        }
        Ok(h.finish())
    }

    /// The error for a state one of whose variables holds a value without a fingerprint: which
    /// variable, pointing at its declaration.
    #[cold]
    fn unstorable(&self, state: &State, e: ValueError) -> ValueError {
        let i = state.iter().position(|x| x.fingerprint().is_err()).unwrap_or(0);
        let name = self.ev.variables().get(i).copied().unwrap_or("?");
        let e = ValueError::new(
            e.code,
            format!("the value of {} in this state cannot be stored (as TLC, a state may hold only finite values): {}", name, e.message),
        );
        match self.declared.var_decls.iter().find(|(n, _)| *n == name) {
            Some((_, span)) => e.at(*span),
            None => e,
        }
    }
}

impl<'a> Spec for Model<'a> {
    type State = State;
    type Error = ModelError;

    fn fingerprint(&self, state: &State) -> u64 {
        let base = match self.fp_value(state) {
            Ok(f) => {
                // An error left by an earlier call that nobody took is not this state's.
                if self.fp_error.borrow().is_some() {
                    *self.fp_error.borrow_mut() = None;
                }
                f
            }
            Err(e) => {
                *self.fp_error.borrow_mut() = Some(ModelError::Eval(e));
                0
            }
        };
        if self.symmetry.is_empty() {
            return base;
        }
        // TLC's representative: the permuted state that is smallest in its value order,
        // comparing the variables in order (the set of permutations need not be a group:
        // `Permutations(A) \cup Permutations(B)` is not, so the choice decides the count).
        // Each permutation is compared variable by variable as it is built, and dropped at the
        // first variable that makes it greater than the smallest so far.
        let mut min: Option<State> = None;
        'perms: for m in &self.symmetry {
            let cur: &[Value] = match &min {
                Some(x) => x,
                None => state,
            };
            let mut p: Vec<Value> = Vec::with_capacity(state.len());
            let mut less = false;
            for (i, v) in state.iter().enumerate() {
                let Ok(pv) = permute(v, m) else { continue 'perms };
                if !less {
                    match pv.tlc_cmp(&cur[i]) {
                        Ok(std::cmp::Ordering::Less) => less = true,
                        Ok(std::cmp::Ordering::Equal) => {}
                        _ => continue 'perms,
                    }
                }
                p.push(pv);
            }
            if less {
                min = Some(p.into());
            }
        }
        match min {
            Some(m) => self.fp_value(&m).unwrap_or(base),
            None => base,
        }
    }

    fn initial_states(&self, out: &mut Vec<State>) -> Result<(), ModelError> {
        if self.init.is_empty() {
            return Ok(());
        }
        self.ev.initial_states_with(&self.init, &mut |s| {
            out.push(s);
            Ok(())
        })?;
        Ok(())
    }

    fn successors(&self, state: &State, out: &mut Vec<(ActionId, State)>) -> Result<(), ModelError> {
        for a in &self.actions {
            // On an error, the successors produced before it stay (TLC has counted and
            // processed them by then).
            self.ev.start_unit(a);
            let mut emit = |s| {
                out.push((self.ev.branch() as ActionId, s));
                Ok(())
            };
            match &self.next_bindings {
                Some(b) => self.ev.successors_with(a.expr, b, state, &mut emit)?,
                None => self.ev.successors(a.expr, state, &mut emit)?,
            }
        }
        Ok(())
    }

    fn take_intermediate(&self) -> u64 {
        self.ev.take_composed()
    }

    fn violated_invariant(&self, state: &State) -> Result<Option<usize>, ModelError> {
        for (i, (_, e, b)) in self.invariants.iter().enumerate() {
            if !self.eval_bool(e, b, state, None)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    fn set_level(&self, level: u32) {
        self.ev.set_level(level);
    }

    fn take_fingerprint_error(&self) -> Option<ModelError> {
        self.fp_error.borrow_mut().take()
    }

    fn violated_invariant_after(&self, parent: &State, state: &State) -> Result<Option<usize>, ModelError> {
        Model::violated_invariant_after(self, parent, state)
    }

    fn exit_requested(&self) -> bool {
        self.ev.exit_requested()
    }

    fn reads_behaviour(&self) -> bool {
        self.declared.reads_behaviour
    }

    fn set_behaviour(&self, states: Option<Vec<State>>) {
        self.ev.set_behaviour(states);
    }

    fn warm(&self, state: &State, depth: u32) {
        tla_eval::value::warm(state, depth);
    }

    fn identity_fingerprint(&self, state: &State) -> Option<u64> {
        if self.view.is_some() || !self.symmetry.is_empty() {
            return None;
        }
        self.fp_value(state).ok()
    }

    fn in_model(&self, state: &State) -> Result<bool, ModelError> {
        for e in &self.constraints {
            if !self.eval_bool(e, &Bindings::default(), state, None)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn in_model_after(&self, parent: &State, state: &State) -> Result<bool, ModelError> {
        Model::in_model_after(self, parent, state)
    }

    fn step_in_model(&self, from: &State, to: &State) -> Result<bool, ModelError> {
        for e in &self.action_constraints {
            if !self.eval_bool(e, &Bindings::default(), from, Some(to))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn check_step(&self, from: &State, to: &State) -> Result<(), ModelError> {
        for (name, e, b) in &self.action_props {
            if !self.eval_bool(e, b, from, Some(to))? {
                return Err(ModelError::ActionProperty { name: name.clone() });
            }
        }
        Ok(())
    }

    fn action_count(&self) -> usize {
        self.action_names.len()
    }
}

impl<'a> LiveSpec for Model<'a> {
    fn state_atom(&self, state: &State, atom: AtomId) -> Result<bool, ModelError> {
        let Some(a) = self.atoms.get(atom as usize) else { return Ok(false) };
        match a.kind {
            AtomKind::Expr(e) => self.eval_bool(e, &a.env, state, None),
            AtomKind::Enabled(act, sub) => Ok(self.ev.enabled_with(act, sub, &a.env, state)?),
            AtomKind::Angle(..) | AtomKind::BoxAction(..) => Ok(false),
        }
    }

    fn next_atom(&self, atom: AtomId, _on_steps: bool) -> bool {
        let Some(next) = self.next_unfolded else { return false };
        let Some(a) = self.atoms.get(atom as usize) else { return false };
        let act = match a.kind {
            AtomKind::Enabled(act, Some(_)) | AtomKind::Angle(act, _) => act,
            _ => return false,
        };
        if !a.env.is_empty() {
            return false;
        }
        let (u, ub) = unfold_all(&self.ev, act, &a.env);
        ub.is_empty() && std::ptr::eq(u, next)
    }

    fn changes_subscript(&self, atom: AtomId, from: &State, to: &State) -> Result<bool, ModelError> {
        let Some(a) = self.atoms.get(atom as usize) else { return Ok(true) };
        let sub = match a.kind {
            AtomKind::Enabled(_, Some(sub)) | AtomKind::Angle(_, sub) => sub,
            _ => return Ok(true),
        };
        let before = self.ev.eval_with(sub, &a.env, from, None)?;
        let after = self.ev.eval_with(sub, &a.env, to, None)?;
        Ok(!before.tlc_eq(&after)?)
    }

    fn action_atom(&self, from: &State, to: &State, atom: AtomId) -> Result<bool, ModelError> {
        let Some(a) = self.atoms.get(atom as usize) else { return Ok(false) };
        match a.kind {
            AtomKind::Expr(e) => self.eval_bool(e, &a.env, from, Some(to)),
            AtomKind::Enabled(act, sub) => Ok(self.ev.enabled_with(act, sub, &a.env, from)?),
            AtomKind::Angle(act, sub) => {
                let unchanged = self.ev.eval_with(sub, &a.env, from, None)?.tlc_eq(&self.ev.eval_with(sub, &a.env, to, None)?)?;
                Ok(!unchanged && self.eval_bool(act, &a.env, from, Some(to))?)
            }
            AtomKind::BoxAction(act, sub) => {
                let unchanged = self.ev.eval_with(sub, &a.env, from, None)?.tlc_eq(&self.ev.eval_with(sub, &a.env, to, None)?)?;
                Ok(unchanged || self.eval_bool(act, &a.env, from, Some(to))?)
            }
        }
    }
}

/// Replaying traces: one named action with its parameters bound, variables by name, the
/// evaluator for explanations.
impl<'a> Model<'a> {
    /// The evaluator the model runs on (for evaluating expressions on states and steps).
    pub fn evaluator(&self) -> &ConstEval<'a> {
        &self.ev
    }

    /// Next's top-level disjuncts, as they are enumerated.
    pub fn next_actions(&self) -> &[SplitAction<'a>] {
        &self.actions
    }

    /// The slot of a variable in a [`State`].
    pub fn variable_index(&self, name: &str) -> Option<usize> {
        self.ev.variables().iter().position(|v| *v == name)
    }

    /// A copy of the model's string table (strings and model values built from it compare equal
    /// to the model's own).
    pub fn interner(&mut self) -> tla_eval::Interner {
        self.ev.interner_mut().clone()
    }

    /// The action operator `name` (a definition with or without parameters), if the model has one.
    pub fn action_definition(&self, name: &str) -> Option<&'a OpDef> {
        self.ev.definition(name)
    }

}
