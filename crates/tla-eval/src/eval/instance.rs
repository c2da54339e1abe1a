//! Instances: the frames of the instances being evaluated, and what a module-level name means
//! inside them.
//!
//! Evaluating `I!Op` enters a frame for the site `I == INSTANCE M WITH ...` (`resolve_path`).
//! Inside it a name of M may be substituted (`x <- e`: `e` is read one module out, where it was
//! written), may be a definition of M, or may be left to the same name one module out (a
//! declared name the site does not substitute). What a module-level name at a node means there
//! depends on nothing but the node and the sites entered, from the root module in: their
//! [`Context`]. It never depends on values. So it is worked out once per node and context, by
//! walking the frames with the name's text ([`ConstEval::in_instances`]), and kept as an
//! [`InstName`]: where the substitution is (which frame, which `WITH`), the definition, the
//! variable. Evaluation then finds it by the node's address and the context's hash, and takes
//! the substituted expression and its environment from the frame it names.
//!
//! The same holds for what `I` names at a step of `I!J!Op` (`scoped_global`), and for what
//! entering a site takes from the program (the module's scope and declarations:
//! `site_statics`).
//!
//! A context is a chain of site addresses, the same in every evaluator of one program, so a
//! frame made by one evaluator (in [`super::Bindings`]) means the same in another's caches.
//! The caches are checked against the context itself, never its hash alone.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use tla_syntax::ast::*;

use super::action::{Cont, VarRef};
use super::{err, Binding, ConstEval, Env, FxHashSet, Global, Scope};
use crate::error::{codes, VResult};
use crate::value::Value;

/// The module an instance call evaluates in: its definitions and its substitutions.
#[derive(Clone)]
pub(super) struct InstFrame<'a> {
    pub(super) scope: Arc<Scope<'a>>,
    pub(super) substs: &'a [Subst],
    /// The variables the instantiated module declares (its own and those it extends).
    pub(super) vars: Arc<FxHashSet<&'a str>>,
    /// Its declared names: variables and constants (an instance that does not substitute one
    /// explicitly substitutes it by the same name one module out).
    pub(super) decls: Arc<FxHashSet<&'a str>>,
    /// The instance's parameters, bound at the call.
    pub(super) env: Env<'a>,
    /// The arguments of the instance's parameters that stand for a constant or variable of the
    /// same name (`P(K) == INSTANCE M` substitutes M's `K` by P's argument): the argument and
    /// the environment of the call.
    pub(super) param_args: Rc<Vec<(&'a str, &'a Expr, Env<'a>)>>,
    /// Values of substituted names read unprimed while this frame is the innermost one, with the
    /// current state they were read in: a refinement mapping's `token` is computed once per
    /// evaluation of `I!Next`, not at every mention, as TLC's lazy substitutions.
    memo: Rc<RefCell<SubstMemo<'a>>>,
    /// The sites entered up to and with this one.
    pub(super) context: Context,
}

/// The values of substituted names an instance frame keeps (see `InstFrame::memo`): for one
/// current state, dropped when another becomes current. Keyed by the name's declaration in the
/// frame's module (`InstName::memo_key`), compared by address.
#[derive(Default)]
struct SubstMemo<'a> {
    state: Option<std::sync::Arc<[Value]>>,
    values: Vec<(&'a str, Value)>,
}

/// The instance sites entered, from the root module in (each by the address of its
/// `ModuleDef`): what a module-level name means inside instances depends on these alone.
#[derive(Clone)]
pub(super) struct Context(Rc<ContextLink>);

struct ContextLink {
    site: usize,
    parent: Option<Context>,
    hash: u64,
}

impl Context {
    fn child(parent: Option<&Context>, site: usize) -> Context {
        let h = parent.map_or(0, |p| p.0.hash);
        let hash = (h.rotate_left(5) ^ site as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        Context(Rc::new(ContextLink { site, parent: parent.cloned(), hash }))
    }

    fn hash(&self) -> u64 {
        self.0.hash
    }

    /// The same sites in the same order.
    fn same(&self, other: &Context) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
            || (self.0.site == other.0.site && self.0.hash == other.0.hash && same_context(self.0.parent.as_ref(), other.0.parent.as_ref()))
    }
}

fn same_context(a: Option<&Context>, b: Option<&Context>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.same(b),
        _ => false,
    }
}

/// What a name means one or more modules out (see `ConstEval::outer_meaning`).
pub(super) enum OuterMeaning<'a> {
    /// The expression an instance substitutes for it, read under the frames below the index.
    Subst(&'a Expr, Env<'a>, usize),
    /// A definition of the module reached, read under the frames below the index.
    Def(Global<'a>, usize),
}

/// Where an [`OuterMeaning`] is, in any frames of one context.
#[derive(Clone)]
enum Outer<'a> {
    /// Frame `frame`'s substitution number `with` (`WITH x <- e`).
    With { frame: u32, with: u32 },
    /// Frame `frame`'s parameter argument number `arg` (see `InstFrame::param_args`).
    Param { frame: u32, arg: u32 },
    /// A definition, read under the frames below the index.
    Def(Global<'a>, u32),
}

/// What a module-level name at one node means in one context (see the module docs). Made by
/// [`ConstEval::in_instances`].
pub(super) struct InstName<'a> {
    context: Context,
    /// What the instances' substitutions make of it (`outer_meaning`).
    outer: Option<Outer<'a>>,
    /// The innermost explicit substitution of it, unless a definition of an instance entered
    /// since hides it (`substitution_of`): the frame and the substitution's number.
    with: Option<(u32, u32)>,
    /// The root module's variable of that name.
    pub(super) var: Option<usize>,
    /// The definition it names in the innermost module (`global`).
    pub(super) global: Option<Global<'a>>,
    /// The key its value is kept under in the innermost frame's memo: its definition's or
    /// declaration's text in that module (`None`: not kept).
    memo_key: Option<&'a str>,
    /// For ENABLED's cut (`cut_var`): the innermost frame whose module does not declare it a
    /// variable, and the innermost frame that substitutes it explicitly.
    not_var: Option<u32>,
    substituted: Option<u32>,
}

impl InstName<'_> {
    /// Whether the instances substitute it or leave it to a definition further out
    /// (`outer_meaning` answers): for any use, or, when a definition further out gives it,
    /// only `unapplied` (no arguments).
    pub(super) fn substituted_here(&self, unapplied: bool) -> bool {
        match self.outer {
            Some(Outer::With { .. } | Outer::Param { .. }) => true,
            Some(Outer::Def(..)) => unapplied,
            None => false,
        }
    }
}

/// What entering an instance site takes from the program, the same at every entry (see
/// `ConstEval::site_statics`).
pub(super) struct SiteStatics<'a> {
    scope: Arc<Scope<'a>>,
    vars: Arc<FxHashSet<&'a str>>,
    decls: Arc<FxHashSet<&'a str>>,
    /// The positions of the site's parameters that stand for a declared name of the module
    /// (see `InstFrame::param_args`).
    param_decls: Box<[usize]>,
}

/// The caches of this module (cleared with the evaluator's other caches when the program
/// changes; see `ConstEval::forget_constants`).
#[derive(Default)]
pub(super) struct InstanceCaches<'a> {
    /// What a module-level name means at a node in a context: by the node's address and the
    /// context's hash.
    names: RefCell<super::HashMap<(usize, u64), Rc<InstName<'a>>>>,
    /// What a name means at a node when read in a module's scope (`scoped_global`): by the
    /// node's address and the scope's (0: the root module's).
    scoped: RefCell<super::HashMap<(usize, usize), Option<Global<'a>>>>,
    /// Contexts made so far: by the parent's hash and the site's address.
    contexts: RefCell<super::HashMap<(u64, usize), Context>>,
    /// What entering a site takes from the program, by the site's address (`None`: its module
    /// is not loaded).
    sites: RefCell<super::HashMap<usize, Option<Rc<SiteStatics<'a>>>>>,
}

impl InstanceCaches<'_> {
    pub(super) fn clear(&mut self) {
        self.names.get_mut().clear();
        self.scoped.get_mut().clear();
        self.contexts.get_mut().clear();
        self.sites.get_mut().clear();
    }
}

impl<'a> ConstEval<'a> {
    /// A definition visible in the module being evaluated (an instance's, else the root's), by
    /// its text: for nodes evaluated outside instances and for checks made when code is
    /// compiled (inside instances, see `in_instances`).
    pub(super) fn global(&self, name: &str) -> Option<Global<'a>> {
        let ctx = self.frame.ctx.borrow();
        self.global_in(ctx.last().map(|f| &*f.scope), name)
    }

    /// A definition visible in the module whose scope is `scope` (`None`: the root module).
    fn global_in(&self, scope: Option<&Scope<'a>>, name: &str) -> Option<Global<'a>> {
        if !self.program.overrides.is_empty()
            && let Some(g) = self.program.overrides.get(name) {
                return Some(g.clone());
            }
        if let Some(g) = scope.and_then(|s| s.get(name)) {
            return Some(g.clone());
        }
        self.program.globals.get(name).cloned()
    }

    /// What `name` at the node `key` means in the module whose scope is `scope` (`global_in`),
    /// found once per node and scope.
    fn scoped_global(&self, key: usize, name: &str, scope: Option<&Arc<Scope<'a>>>) -> Option<Global<'a>> {
        let k = (key, scope.map_or(0, |s| Arc::as_ptr(s) as usize));
        if let Some(g) = self.caches.instances.scoped.borrow().get(&k) {
            return g.clone();
        }
        let g = self.global_in(scope.map(|s| &**s), name);
        self.caches.instances.scoped.borrow_mut().insert(k, g.clone());
        g
    }

    /// What the module-level name `name` at the node `key` (its `OpName`) means in the
    /// instances entered: worked out from the frames once per node and context, then kept. A
    /// name the analysis did not see may be passed too when no local binds it here: what such
    /// a name means depends on its text and the context alone as well.
    pub(super) fn in_instances(&self, key: usize, name: &'a str) -> Rc<InstName<'a>> {
        let ctx = self.frame.ctx.borrow();
        let Some(top) = ctx.last() else {
            // Outside instances (callers check first): nothing to keep.
            return Rc::new(self.meaning_in(&ctx, name, Context::child(None, 0)));
        };
        let k = (key, top.context.hash());
        if let Some(n) = self.caches.instances.names.borrow().get(&k)
            && n.context.same(&top.context)
        {
            return n.clone();
        }
        let n = Rc::new(self.meaning_in(&ctx, name, top.context.clone()));
        let mut names = self.caches.instances.names.borrow_mut();
        // Two contexts of one hash: the first keeps the slot, the other is worked out each time.
        if names.get(&k).is_none() {
            names.insert(k, n.clone());
        }
        n
    }

    /// What `name` means in the frames `ctx` (see `InstName`), by walking them with its text.
    fn meaning_in(&self, ctx: &[InstFrame<'a>], name: &'a str, context: Context) -> InstName<'a> {
        let top = ctx.last();
        let mut with = None;
        for (i, f) in ctx.iter().enumerate().rev() {
            if let Some(j) = f.substs.iter().position(|s| s.name.name == name) {
                with = Some((i as u32, j as u32));
                break;
            }
            if f.scope.contains_key(name) {
                break;
            }
        }
        let rindex = |p: &dyn Fn(&InstFrame<'a>) -> bool| ctx.iter().rposition(p).map(|i| i as u32);
        InstName {
            context,
            outer: self.outer_place(ctx, name),
            with,
            var: self.program.vars.get(name).copied(),
            global: self.global_in(top.map(|f| &*f.scope), name),
            memo_key: top.and_then(|f| f.scope.get_key_value(name).map(|(k, _)| *k).or_else(|| f.decls.get(name).copied())),
            not_var: rindex(&|f| !f.vars.contains(name)),
            substituted: rindex(&|f| f.substs.iter().any(|s| s.name.name == name)),
        }
    }

    /// What a name of the module being evaluated means when an instance substitutes it: an
    /// explicit substitution `name <- e` (read one module out, where `e` was written), or, for a
    /// declared name the instance leaves to the same name one module out, what that name means
    /// there — perhaps a definition of an outer module or of the root module (read in that
    /// module: `terminationDetected` declared a VARIABLE of an instance and defined by the module
    /// that instantiates it reads that module's definition, in that module's context). None when
    /// the innermost instance defines the name, or does not declare it (a bound name, a
    /// standard operator), or when nothing outer defines it (a root variable or constant).
    pub(super) fn outer_meaning(&self, frames: &[InstFrame<'a>], name: &str) -> Option<OuterMeaning<'a>> {
        self.outer_place(frames, name).and_then(|o| outer_in(frames, &o))
    }

    /// Where `outer_meaning` finds its answer.
    fn outer_place(&self, frames: &[InstFrame<'a>], name: &str) -> Option<Outer<'a>> {
        let n = frames.len();
        for (i, f) in frames.iter().enumerate().rev() {
            if let Some(j) = f.substs.iter().position(|s| s.name.name == name) {
                return Some(Outer::With { frame: i as u32, with: j as u32 });
            }
            if let Some(j) = f.param_args.iter().position(|(p, _, _)| *p == name) {
                return Some(Outer::Param { frame: i as u32, arg: j as u32 });
            }
            if let Some(g) = f.scope.get(name) {
                if i + 1 == n {
                    return None;
                }
                let g = self.program.overrides.get(name).cloned().unwrap_or_else(|| g.clone());
                return Some(Outer::Def(g, (i + 1) as u32));
            }
            if !f.decls.contains(name) {
                return None;
            }
        }
        if n == 0 {
            return None;
        }
        match self.program.globals.get(name) {
            Some(g @ (Global::Op(_) | Global::Fun(_))) => Some(Outer::Def(g.clone(), 0)),
            _ => None,
        }
    }

    /// `name` as the instances being evaluated substitute it (`n`, see `outer_meaning`): its
    /// value, evaluated in the module that gives it its meaning.
    pub(super) fn try_subst(&self, n: &InstName<'a>, name: &str) -> Option<VResult<Value>> {
        let place = n.outer.as_ref()?;
        let (meaning, memo) = {
            let ctx = self.frame.ctx.borrow();
            let meaning = outer_in(&ctx, place)?;
            // Kept only where the value depends on the current state alone.
            let keep = n.memo_key.is_some() && !self.frame.primed.get() && !self.frame.init_mode.get() && self.frame.cutoff.get() == 0;
            (meaning, if keep { ctx.last().map(|f| f.memo.clone()) } else { None })
        };
        let same_key = |k: &str| n.memo_key.is_some_and(|m| std::ptr::eq(m, k));
        if let Some(m) = &memo {
            let mut m = m.borrow_mut();
            let cur = self.frame.cur.borrow();
            if m.state.as_ref().is_some_and(|s| Arc::ptr_eq(s, &cur)) {
                if let Some((_, v)) = m.values.iter().find(|(k, _)| same_key(k)) {
                    return Some(Ok(v.clone()));
                }
            } else {
                // Another state is current: what was kept was the other state's.
                m.state = Some(cur.clone());
                m.values.clear();
            }
        }
        let r = self.subst_value(meaning, name);
        if let (Some(m), Ok(v), Some(key)) = (&memo, &r, n.memo_key) {
            let mut m = m.borrow_mut();
            // Kept only if the state the value was read in is still current.
            if m.state.as_ref().is_some_and(|s| Arc::ptr_eq(s, &self.frame.cur.borrow())) {
                m.values.push((key, v.clone()));
            }
        }
        Some(r)
    }

    /// `name(args)` where the instances being evaluated substitute an operator for `name`
    /// (`CONSTANT Op(_, _)` instantiated with `Op <- LAMBDA a, b : ...` or `Op <- Other`): the
    /// arguments evaluated here, the operator applied in the module that gives it.
    pub(super) fn apply_subst(&self, n: &InstName<'a>, name: &str, args: &'a [Expr], env: &Env<'a>) -> Option<VResult<Value>> {
        let meaning = {
            let ctx = self.frame.ctx.borrow();
            outer_in(&ctx, n.outer.as_ref()?)?
        };
        let OuterMeaning::Subst(x, senv, level) = meaning else { return None };
        Some((|| {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(self.ev(a, env)?);
            }
            let popped: Vec<InstFrame<'a>> = self.frame.ctx.borrow_mut().split_off(level);
            let r = self.apply_operator(x, &senv, vals, name);
            self.frame.ctx.borrow_mut().extend(popped);
            r
        })())
    }

    /// The operator `x` (a LAMBDA or an operator's name, read in `senv`) applied to `vals`.
    fn apply_operator(&self, x: &'a Expr, senv: &Env<'a>, vals: Vec<Value>, name: &str) -> VResult<Value> {
        match self.op_arg(vals.len(), x, senv)? {
            Binding::Op(cl) => {
                if cl.params.len() != vals.len() {
                    return Err(err(codes::ARITY, format!("{name} takes {} arguments, not {}", cl.params.len(), vals.len())));
                }
                let mut callee = match cl.own {
                    Some(own) => cl.env.bind(own, Binding::Op(cl.clone())),
                    None => cl.env.clone(),
                };
                for ((p, _), v) in cl.params.iter().zip(vals) {
                    callee = callee.bind_value(p, v);
                }
                self.enter()?;
                let r = self.in_closure_frames(cl.depth, || self.ev(cl.body, &callee));
                self.leave();
                r
            }
            Binding::Builtin(op) => self.apply_builtin(op, vals),
            _ => Err(err(codes::TYPE, format!("{name} is substituted by something that is not an operator"))),
        }
    }

    /// What `try_subst` computes for a meaning found.
    fn subst_value(&self, meaning: OuterMeaning<'a>, name: &str) -> VResult<Value> {
        let level = match &meaning {
            OuterMeaning::Subst(_, _, level) | OuterMeaning::Def(_, level) => *level,
        };
        // Read in the module that gives the meaning: under the frames outside it.
        let popped: Vec<InstFrame<'a>> = self.frame.ctx.borrow_mut().split_off(level);
        let r = match meaning {
            OuterMeaning::Subst(expr, env, _) => self.ev(expr, &env),
            OuterMeaning::Def(Global::Op(d), _) if d.params.is_empty() => self.enter().and_then(|_| {
                let r = self.ev(&d.body, &Env::default());
                self.leave();
                r
            }),
            OuterMeaning::Def(Global::Fun(d), _) => self.fun_value(d, &Env::default()),
            OuterMeaning::Def(Global::Value(v), _) => Ok(v),
            OuterMeaning::Def(..) => Err(err(codes::ARITY, format!("{} takes arguments", name))),
        };
        self.frame.ctx.borrow_mut().extend(popped);
        r
    }

    /// The expression the innermost instance that substitutes the name `n` puts in its place,
    /// with that instance's parameters and the number of frames outside it (where the
    /// expression is read); `None` when no instance substitutes it or a definition of an
    /// instance entered since hides it.
    pub(super) fn substitution_of(&self, n: &InstName<'a>) -> Option<(&'a Expr, Env<'a>, usize)> {
        let (i, j) = n.with?;
        let ctx = self.frame.ctx.borrow();
        let f = ctx.get(i as usize)?;
        let s = f.substs.get(j as usize)?;
        Some((&s.expr, f.env.clone(), i as usize))
    }

    /// Inside ENABLED, a variable of an instance that was entered before ENABLED stands for
    /// itself, not for the expression the instance substitutes: `ENABLED A` read in the
    /// instantiated module is a predicate over that module's variables, and only then are the
    /// substitutions applied (TLC cuts its context off at ENABLED the same way, and keeps the
    /// next values of such variables by name). So `x' = 1` inside `INSTANCE M WITH x <- f(y)`
    /// gives `x'` the value 1 instead of asking which `y'` makes `f(y')` equal 1. None outside
    /// ENABLED, for names that are not variables of the instance, and for variables that a
    /// frame entered inside ENABLED substitutes (those follow the substitution).
    ///
    /// Walking the frames inwards-out, the answer is the first of: not a variable of the
    /// frame's module (None), a frame entered before ENABLED (the variable), a frame that
    /// substitutes it (None). So it is the variable exactly when every frame from the
    /// innermost one entered before ENABLED in declares it, and none inside that one
    /// substitutes it.
    pub(super) fn cut_var(&self, n: &InstName<'a>, name: &'a str) -> Option<VarRef<'a>> {
        let cut = self.frame.cutoff.get();
        let len = self.frames_entered();
        if cut == 0 || len == 0 {
            return None;
        }
        let inner = (len - 1).min(cut - 1) as u32;
        if n.not_var.is_some_and(|i| i >= inner) || n.substituted.is_some_and(|i| i > inner) {
            return None;
        }
        // Kept by name, as TLC does: a root variable of the same name is the same one.
        Some(match n.var {
            Some(slot) => VarRef::Slot(slot),
            None => VarRef::Free(name),
        })
    }

    /// What entering the site `md` takes from the program (`None`: its module is not loaded),
    /// found once per site.
    fn site_statics(&self, md: &'a ModuleDef) -> Option<Rc<SiteStatics<'a>>> {
        let key = md as *const ModuleDef as usize;
        if let Some(s) = self.caches.instances.sites.borrow().get(&key) {
            return s.clone();
        }
        let module = md.instance.module.name.as_str();
        let s = self.program.scopes.get(module).map(|scope| {
            let (vars, decls) = self.program.module_vars.get(module).cloned().unwrap_or_default();
            let param_decls = md.params.iter().enumerate().filter(|(_, p)| p.arity == 0 && decls.contains(p.name.name.as_str())).map(|(k, _)| k).collect();
            Rc::new(SiteStatics { scope: scope.clone(), vars, decls, param_decls })
        });
        self.caches.instances.sites.borrow_mut().insert(key, s.clone());
        s
    }

    /// The context of the site `md` entered inside `parent` (`None`: the root module).
    fn context_of(&self, parent: Option<&Context>, md: &'a ModuleDef) -> Context {
        let site = md as *const ModuleDef as usize;
        let key = (parent.map_or(0, Context::hash), site);
        if let Some(c) = self.caches.instances.contexts.borrow().get(&key)
            && same_context(c.0.parent.as_ref(), parent)
        {
            return c.clone();
        }
        let c = Context::child(parent, site);
        self.caches.instances.contexts.borrow_mut().entry(key).or_insert_with(|| c.clone());
        c
    }

    /// The instance frames of `I!J!Op` and what `Op` names in the innermost one.
    pub(super) fn resolve_path(&self, op: &'a OpName, env: &Env<'a>) -> VResult<(Vec<InstFrame<'a>>, Option<Global<'a>>)> {
        let mut frames: Vec<InstFrame<'a>> = Vec::with_capacity(op.path.len());
        // The frames entered already: the first step is read in the innermost of them.
        let outer = self.frame.ctx.borrow().last().map(|f| (f.scope.clone(), f.context.clone()));
        for (i, step) in op.path.iter().enumerate() {
            // The first step may be an instance defined in a LET around the use.
            let local = match self.path_start(op, env) {
                Some(Binding::Inst(md)) if i == 0 => Some(Global::Inst(md)),
                _ => None,
            };
            let g = match local {
                Some(g) => Some(g),
                None => {
                    let scope = frames.last().map(|f| &f.scope).or(outer.as_ref().map(|(s, _)| s));
                    self.scoped_global(&step.name as *const Ident as usize, &step.name.name, scope)
                }
            };
            let Some(Global::Inst(md)) = g else {
                return Err(err(codes::UNKNOWN, format!("{} is not a named instance", step.name.name)));
            };
            let mut senv = Env::default();
            for (p, a) in md.params.iter().zip(step.args.iter()) {
                // An argument that reads the state is passed by name: a substitution of the
                // instance may stand for a variable through the parameter (`D(w) == INSTANCE
                // M WITH z <- w`, then `D(y)!Bump` primes z), and its prime (or UNCHANGED, or
                // ENABLED) reads the variable's next value, not the value at the call.
                let b = self.in_frames(frames.clone(), || {
                    if p.arity == 0 && self.mentions_var(a, env) {
                        Ok(Binding::Op(Rc::new(super::Closure { own: None, params: Vec::new(), body: a, env: env.clone(), memo: None, depth: self.frames_entered() })))
                    } else {
                        self.op_arg(p.arity, a, env)
                    }
                })?;
                senv = senv.bind(&p.name.name, b);
            }
            let Some(site) = self.site_statics(md) else {
                // A standard module the evaluator builds in has no definitions to enter: its
                // operators are the built-ins (SANY has checked that it defines the name).
                if i + 1 == op.path.len() && tla_sema::stdlib::standard_module(&md.instance.module.name).is_some() {
                    return Ok((frames, Some(Global::Standard)));
                }
                return Err(err(codes::UNKNOWN, format!("the module {} is not loaded", md.instance.module.name)));
            };
            let param_args: Vec<(&'a str, &'a Expr, Env<'a>)> =
                site.param_decls.iter().filter_map(|&k| Some((md.params[k].name.name.as_str(), step.args.get(k)?, env.clone()))).collect();
            let parent = frames.last().map(|f| &f.context).or(outer.as_ref().map(|(_, c)| c));
            let context = self.context_of(parent, md);
            frames.push(InstFrame {
                scope: site.scope.clone(),
                substs: &md.instance.substs,
                vars: site.vars.clone(),
                decls: site.decls.clone(),
                env: senv,
                param_args: Rc::new(param_args),
                memo: Default::default(),
                context,
            });
        }
        let target = self.scoped_global(op as *const OpName as usize, &op.name, frames.last().map(|f| &f.scope));
        Ok((frames, target))
    }

    /// How many instance frames are entered (what a closure made now records as its depth).
    pub(super) fn frames_entered(&self) -> usize {
        self.frame.ctx.borrow().len()
    }

    /// Run `f` with only the first `depth` instance frames entered: a closure's body is read
    /// where the closure was made (see `Closure::depth`). The frames left out come back after.
    pub(super) fn in_closure_frames<T>(&self, depth: usize, f: impl FnOnce() -> T) -> T {
        if self.frames_entered() <= depth {
            return f();
        }
        let inner = self.frame.ctx.borrow_mut().split_off(depth);
        let r = f();
        let mut ctx = self.frame.ctx.borrow_mut();
        ctx.truncate(depth);
        ctx.extend(inner);
        r
    }

    /// `in_closure_frames` for an action enumerated in continuation-passing style: the
    /// continuation (the rest of the action) runs with the frames of the caller again.
    pub(super) fn act_in_closure_frames(&self, depth: usize, f: &mut dyn FnMut(&mut Cont<'_>) -> VResult<bool>, k: &mut Cont<'_>) -> VResult<bool> {
        if self.frames_entered() <= depth {
            return f(k);
        }
        let inner = self.frame.ctx.borrow_mut().split_off(depth);
        let mut back = || {
            self.frame.ctx.borrow_mut().extend(inner.iter().cloned());
            let r = k();
            self.frame.ctx.borrow_mut().truncate(depth);
            r
        };
        let r = f(&mut back);
        let mut ctx = self.frame.ctx.borrow_mut();
        ctx.truncate(depth);
        ctx.extend(inner);
        r
    }

    /// Run `f` with `frames` entered inside the current ones (they were made there: see
    /// `resolve_path`).
    pub(super) fn in_frames<T>(&self, frames: Vec<InstFrame<'a>>, f: impl FnOnce() -> VResult<T>) -> VResult<T> {
        let n = frames.len();
        {
            let mut ctx = self.frame.ctx.borrow_mut();
            debug_assert!(
                frames.first().is_none_or(|f| same_context(f.context.0.parent.as_ref(), ctx.last().map(|t| &t.context))),
                "instance frames entered outside the frames they were made in"
            );
            ctx.extend(frames);
        }
        let r = f();
        let mut ctx = self.frame.ctx.borrow_mut();
        let len = ctx.len();
        ctx.truncate(len.saturating_sub(n));
        r
    }
}

/// The meaning at `o` in the frames `ctx` (of the context `o` was found in).
fn outer_in<'a>(ctx: &[InstFrame<'a>], o: &Outer<'a>) -> Option<OuterMeaning<'a>> {
    Some(match o {
        Outer::With { frame, with } => {
            let f = ctx.get(*frame as usize)?;
            OuterMeaning::Subst(&f.substs.get(*with as usize)?.expr, f.env.clone(), *frame as usize)
        }
        Outer::Param { frame, arg } => {
            let (_, a, env) = ctx.get(*frame as usize)?.param_args.get(*arg as usize)?;
            OuterMeaning::Subst(a, env.clone(), *frame as usize)
        }
        Outer::Def(g, level) => OuterMeaning::Def(g.clone(), *level as usize),
    })
}
