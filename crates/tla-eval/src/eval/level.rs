//! Levels of expressions as the evaluator binds them: the analysis's level of each expression
//! ([`tla_sema::Levels`]), raised by what the parameters it depends on are bound to. The model
//! loader asks whether a formula is temporal, an action or a state predicate; the interpreter
//! whether an argument may be an action (then it is passed by name).

use tla_sema::{Level, Levels, Through};

use super::*;

impl<'a> ConstEval<'a> {
    /// Read levels from the analysis of the modules being evaluated.
    pub fn use_levels(&mut self, levels: &'a Levels) {
        self.program_mut().levels = Some(levels);
    }

    /// Read what each name denotes from the analysis of the modules being evaluated.
    pub fn use_names(&mut self, names: &'a tla_sema::Names) {
        self.program_mut().names = Some(names);
    }

    /// The level of `e` read under `b`: each parameter it depends on counts at the level of
    /// what `b` binds it to. `None` when the analysis recorded no level for `e` or for one of
    /// those arguments.
    pub fn level_under(&self, e: &'a Expr, b: &Bindings<'a>) -> Option<Level> {
        self.level_in(e, &b.env)
    }

    pub(super) fn level_in(&self, e: &'a Expr, env: &Env<'a>) -> Option<Level> {
        let lv = self.program.levels?.of(e)?;
        let mut known = true;
        let level = lv.under(|p| {
            // By the parameter's binder; a copy of an expression made after the analysis has
            // none, and its parameters are found by their text.
            let bound = match p.binder {
                Some(b) => env.get_or_find(b, &p.name),
                None => env.find_name(&p.name),
            };
            let arg = match bound? {
                // An argument passed by name, a LAMBDA, a LET operator: its body, where it was
                // written (its own parameters, unbound there, count as constants).
                Binding::Op(cl) => self.level_in(cl.body, &cl.env),
                Binding::Fun(def, fenv) => self.level_in(&def.body, fenv),
                Binding::Value(_) | Binding::Inst(_) | Binding::Builtin(_) => return None,
            };
            known &= arg.is_some();
            arg
        });
        known.then_some(level)
    }

    /// The level of `e` when every parameter it depends on is a constant (what it is wherever
    /// it is evaluated: nothing here depends on the bindings of the moment).
    pub(super) fn level_alone(&self, e: &'a Expr) -> Option<Level> {
        Some(self.program.levels?.of(e)?.base)
    }

    /// Whether `e` may be an action: it primes or UNCHANGEs something, directly or through
    /// the definitions it calls, at the analysis's level (true without an analysis: passing
    /// an argument by name is always correct, by value only an optimisation).
    pub(super) fn may_be_action(&self, e: &'a Expr) -> bool {
        self.level_alone(e).is_none_or(|l| l >= Level::Action)
    }

    /// Whether `body` reads its parameter `param` under a prime, UNCHANGED or ENABLED, at the
    /// analysis's level (`SetTo(v, e) == v' = e`, `Can(A) == ENABLED A`, or a definition that
    /// passes the parameter on to one of those). True without an analysis.
    pub(super) fn acts_on_param(&self, body: &'a Expr, param: &str) -> bool {
        match self.program.levels.and_then(|l| l.of(body)) {
            Some(l) => l.params.iter().any(|p| p.name == param && p.through != Through::Plain),
            None => true,
        }
    }

    /// Whether `e` reads the state: a variable of the module it is written in, a definition
    /// that reads one, or a parameter whose argument (passed by name) does, at the analysis's
    /// level (true without an analysis). An argument that does is passed by name where the
    /// operator primes its parameter (the operator assigns that variable), and in Init.
    pub(super) fn mentions_var(&self, e: &'a Expr, env: &Env<'a>) -> bool {
        self.level_in(e, env).is_none_or(|l| l >= Level::State)
    }
}
