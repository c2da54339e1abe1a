//! Unnamed instances with substitutions: `INSTANCE M WITH c <- e, v <- x` imports M's
//! definitions, each reading `e` for `c` and `x` for `v`. The analysis gives it that form with
//! what the evaluator already has for named instances: a named instance, and one definition per
//! exported one that applies it. Nothing after the analysis needs to know the form.

use tla_syntax::ast::{self, Expr, ExprKind, OpDef, OpParam};

use crate::check::Deps;
use crate::levels::{Level, LevelParam, Levels, Through};

/// A definition a module exports, as the checker summarised it.
pub(crate) struct Export {
    pub name: String,
    pub arities: Vec<usize>,
    /// Its level when every argument is a constant.
    pub level: u8,
    /// For each parameter, how its argument's level passes through (`Sym::param_deps`).
    pub param_deps: Vec<u8>,
}

/// Give every unnamed `INSTANCE M WITH s <- e, ...` of `modules` its meaning: a named instance
/// of M with those substitutions, and for each definition M exports (its own and those of the
/// user modules it extends) a definition of the same name and parameters that applies the
/// instance's: `Op(a, b) == I!Op(a, b)`. An unnamed instance whose substitutions all keep a
/// name's meaning (none, or `x <- x`) means the same as importing M's definitions, and is left
/// as it is.
pub(crate) fn name_instances(modules: &mut [ast::Module], levels: &mut Levels, exports: &dyn Fn(&str) -> Vec<Export>) {
    for m in modules.iter_mut() {
        let mut units = Vec::with_capacity(m.units.len());
        for u in std::mem::take(&mut m.units) {
            let ast::Unit::Instance(i) = &u else {
                units.push(u);
                continue;
            };
            // `WITH x <- x` substitutes a name by the same name, as no substitution would.
            let identity = |s: &ast::Subst| {
                matches!(&*s.expr.kind, ExprKind::OpApp { op, args } if args.is_empty() && op.path.is_empty() && op.sel.is_empty() && op.name == s.name.name)
            };
            if i.substs.iter().all(identity) {
                units.push(u);
                continue;
            }
            let span = i.span;
            // Named after both modules: two modules a spec extends may instantiate M with
            // different substitutions, and each one's definitions must read its own.
            let inst = format!("INSTANCE {} in {}", i.module.name, m.name.name);
            let ident = |name: &str| ast::Ident { name: name.to_string(), span };
            let instance = i.clone();
            for (original, copy) in i.substs.iter().zip(&instance.substs) {
                levels.copy(&original.expr, &copy.expr);
            }
            units.push(ast::Unit::ModuleDef(ast::ModuleDef { name: ident(&inst), params: vec![], instance, local: true, span }));
            for Export { name, arities, level, param_deps } in exports(&i.module.name) {
                let params: Vec<OpParam> =
                    arities.iter().enumerate().map(|(k, a)| OpParam { name: ident(&format!("p{}", k + 1)), arity: *a }).collect();
                let args: Vec<Expr> = params
                    .iter()
                    .map(|p| {
                        let op = ast::OpName { path: vec![], name: p.name.name.clone(), span, sel: vec![] };
                        Expr::new(ExprKind::OpApp { op, args: vec![] }, span)
                    })
                    .collect();
                let op = ast::OpName { path: vec![ast::PathStep { name: ident(&inst), args: vec![] }], name: name.clone(), span, sel: vec![] };
                // The levels: each argument is its parameter; the application's is the
                // exported definition's, raised as its parameters pass their arguments through.
                let mut through = Vec::new();
                for (p, flags) in params.iter().zip(&param_deps) {
                    for (flag, t) in [(Deps::PLAIN, Through::Plain), (Deps::PRIMED, Through::Primed), (Deps::ENABLED, Through::Enabled)] {
                        if flags & flag != 0 {
                            through.push(LevelParam { name: p.name.name.clone(), binder: None, through: t });
                        }
                    }
                }
                for (a, p) in args.iter().zip(&params) {
                    levels.record(a, Level::Constant, vec![LevelParam { name: p.name.name.clone(), binder: None, through: Through::Plain }]);
                }
                let body = Expr::new(ExprKind::OpApp { op, args }, span);
                levels.record(&body, Level::from_u8(level), through);
                units.push(ast::Unit::OpDef(OpDef { name: ident(&name), params, body, local: i.local, span }));
            }
        }
        m.units = units;
    }
}
