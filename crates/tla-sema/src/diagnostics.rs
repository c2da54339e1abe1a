//! Every diagnostic the semantic checker emits, one constructor each: a stable code, a message
//! that says why, a hint that says how to fix it, and labels pointing at related places.
//! The codes are listed in docs/diagnostics.md.

use tla_syntax::{Diagnostic, Span};

use crate::check::Sym;

/// Codes of unknown-name errors: a definition that has only these still counts as "parsing on
/// its own" for the syntax score (unknown names are stubbed).
pub const UNKNOWN_NAME_CODES: &[&str] = &[UNKNOWN_NAME, USED_BEFORE_DEFINITION];

pub const MODULE_NOT_FOUND: &str = "E0200";
pub const UNKNOWN_NAME: &str = "E0201";
pub const USED_BEFORE_DEFINITION: &str = "E0202";
pub const MULTIPLY_DEFINED: &str = "E0203";
pub const SHADOWS: &str = "E0204";
pub const WRONG_ARITY: &str = "E0205";
pub const OPERATOR_ARGUMENT: &str = "E0206";
pub const CIRCULAR_MODULES: &str = "E0207";
pub const INSTANCE_SUBSTITUTION: &str = "E0208";
pub const DOUBLE_PRIME: &str = "E0209";
pub const BOX_OF_ACTION: &str = "E0210";
pub const TEMPORAL_IN_ACTION: &str = "E0211";
pub const ASSUME_LEVEL: &str = "E0212";
pub const NOT_IN_MODULE: &str = "E0213";
pub const RECURSIVE_DECL: &str = "E0214";
pub const MODULE_NAME_MISMATCH: &str = "E0215";
pub const UNCHANGED_ACTION: &str = "E0216";
pub const MIXED_LEVELS: &str = "E0217";
pub const NOT_AN_INSTANCE: &str = "E0218";
pub const CFG_UNDEFINED: &str = "E0220";
pub const CFG_LEVEL: &str = "E0221";
pub const CFG_ARITY: &str = "E0222";
pub const CFG_CONSTANT_UNASSIGNED: &str = "E0223";
pub const CFG_NO_BEHAVIOUR: &str = "E0224";
pub const INIT_PRIMED: &str = "W0201";
pub const RECORD_SET_FIELD: &str = "W0202";
pub const RECORD_EQ_RECORD_SET: &str = "W0203";
pub const FILE_NAME_MISMATCH: &str = "E0225";
pub const SUBEXPRESSION: &str = "E0226";
pub const SUBSTITUTION_LEVEL: &str = "E0227";
pub const NON_LEIBNIZ: &str = "E0228";

fn level_word(l: u8) -> &'static str {
    match l {
        0 => "constant",
        1 => "state",
        2 => "action",
        _ => "temporal",
    }
}

pub fn level_name(l: u8) -> &'static str {
    level_word(l)
}

fn where_defined(s: &Sym) -> String {
    if s.module.is_empty() {
        "TLA+ itself".to_string()
    } else {
        format!("module {}", s.module)
    }
}

pub fn module_not_found(at: Span, name: &str, suggestion: Option<String>) -> Diagnostic {
    let mut d = Diagnostic::error(MODULE_NOT_FOUND, at, format!("cannot find module `{name}`"))
        .with_hint(format!(
            "`{name}` is neither a module of this file, nor a file `{name}.tla` beside it, nor a standard module"
        ));
    if let Some(s) = suggestion {
        d = d.with_hint(format!("did you mean `{s}`?"));
    }
    d
}

pub fn circular_modules(at: Span, cycle: &[String]) -> Diagnostic {
    Diagnostic::error(CIRCULAR_MODULES, at, format!("circular module dependency: {}", cycle.join(" -> ")))
        .with_hint("modules may not extend or instantiate themselves, directly or through others")
}

pub fn module_name_mismatch(at: Span, wanted: &str, file: &str) -> Diagnostic {
    Diagnostic::error(MODULE_NAME_MISMATCH, at, format!("file `{file}` does not contain a module named `{wanted}`"))
        .with_hint(format!("a module `{wanted}` must be in a file named `{wanted}.tla` whose module is `{wanted}`"))
}

pub fn unknown_name(at: Span, name: &str, suggestion: Option<String>, std_modules: &[&str]) -> Diagnostic {
    let mut d = Diagnostic::error(UNKNOWN_NAME, at, format!("unknown name `{name}`"));
    if let Some(f) = crate::suggest::foreign_operator(name) {
        d = d.with_hint(format!("`{name}` is not a TLA+ operator; write `{f}`"));
    } else if let Some(m) = std_modules.first() {
        d = d.with_hint(format!("`{name}` is defined in the standard module {m}: add `EXTENDS {m}`"));
    } else if let Some(s) = suggestion {
        d = d.with_hint(format!("did you mean `{s}`?"));
    } else {
        d = d.with_hint("define or declare it (CONSTANT, VARIABLE or a definition) before this use");
    }
    d
}

pub fn used_before_definition(at: Span, name: &str, def: Span, self_ref: bool) -> Diagnostic {
    if self_ref {
        Diagnostic::error(USED_BEFORE_DEFINITION, at, format!("`{name}` refers to itself without a RECURSIVE declaration"))
            .with_label(def, "defined here")
            .with_hint(format!("declare `RECURSIVE {name}(...)` before the definition, or define a recursive function `{name}[x \\in S] == ...`"))
    } else {
        Diagnostic::error(USED_BEFORE_DEFINITION, at, format!("`{name}` is used before its definition"))
            .with_label(def, "defined later here")
            .with_hint("in TLA+ a name must be defined above its first use: move the definition up (or declare it RECURSIVE)")
    }
}

pub(crate) fn multiply_defined(at: Span, name: &str, prev: &Sym) -> Diagnostic {
    let mut d = Diagnostic::error(MULTIPLY_DEFINED, at, format!("multiply-defined symbol `{name}`"));
    if let Some(sp) = prev.span.filter(|_| !prev.module.is_empty()) {
        d = d.with_label(sp, format!("first defined here (in {})", where_defined(prev)));
    }
    d.with_hint(format!("`{name}` is already defined as {} in {}; choose another name", prev.kind_word(), where_defined(prev)))
}

pub(crate) fn multiply_defined_import(at: Span, name: &str, prev: &Sym, from: &str, how: &str) -> Diagnostic {
    let mut d = Diagnostic::error(
        MULTIPLY_DEFINED,
        at,
        format!("multiply-defined symbol `{name}`: {how} brings in `{name}` from module {from}, which clashes with an earlier one"),
    );
    if let Some(sp) = prev.span {
        d = d.with_label(sp, "the other definition");
    }
    d.with_hint(format!("`{name}` is already {} from {}; rename one of them", prev.kind_word(), where_defined(prev)))
}

/// The same diagnostic as a warning (what SANY accepts with a warning).
pub(crate) fn as_warning(mut d: Diagnostic) -> Diagnostic {
    d.severity = tla_syntax::Severity::Warning;
    d
}

pub(crate) fn shadows(at: Span, name: &str, prev: &Sym) -> Diagnostic {
    let mut d = Diagnostic::error(SHADOWS, at, format!("`{name}` is already defined: TLA+ does not allow redeclaring it here"));
    if let Some(sp) = prev.span {
        d = d.with_label(sp, format!("`{name}` is {} here", prev.kind_word()));
    }
    d.with_hint(format!("`{name}` is {} from {}; use a fresh name for this parameter or bound variable", prev.kind_word(), where_defined(prev)))
}

pub fn wrong_arity(at: Span, name: &str, want: usize, got: usize, def: Option<Span>) -> Diagnostic {
    let mut d = Diagnostic::error(
        WRONG_ARITY,
        at,
        format!("`{name}` takes {want} argument{} but is given {got}", if want == 1 { "" } else { "s" }),
    );
    if let Some(sp) = def {
        d = d.with_label(sp, "defined here");
    }
    if want == 0 {
        d.with_hint(format!("`{name}` has no parameters: write `{name}` without parentheses (use `f[x]` to apply a function)"))
    } else {
        d.with_hint(format!("call it with exactly {want} argument{}", if want == 1 { "" } else { "s" }))
    }
}

pub fn operator_without_arguments(at: Span, name: &str, want: usize, def: Option<Span>) -> Diagnostic {
    let mut d = Diagnostic::error(WRONG_ARITY, at, format!("operator `{name}` needs {want} argument{} here", if want == 1 { "" } else { "s" }));
    if let Some(sp) = def {
        d = d.with_label(sp, "defined here");
    }
    d.with_hint(format!("apply it: `{name}(...)`; an operator can be passed without arguments only to a parameter like `F(_)`"))
}

pub fn operator_argument_arity(at: Span, of: &str, index: usize, want: usize, got: usize) -> Diagnostic {
    Diagnostic::error(
        OPERATOR_ARGUMENT,
        at,
        format!("argument {index} of `{of}` must be an operator of arity {want}, but this has arity {got}"),
    )
    .with_hint(format!("pass the name of an operator with {want} parameter(s), or `LAMBDA x{} : ...`", if want > 1 { ", y" } else { "" }))
}

pub fn instance_as_value(at: Span, name: &str) -> Diagnostic {
    Diagnostic::error(NOT_AN_INSTANCE, at, format!("`{name}` is a module instance, not a value"))
        .with_hint(format!("refer to one of its definitions: `{name}!Op`"))
}

pub fn not_an_instance(at: Span, name: &str, kind: &str) -> Diagnostic {
    Diagnostic::error(NOT_AN_INSTANCE, at, format!("`{name}` is {kind}, not a module instance, so `{name}!...` is meaningless"))
        .with_hint(format!("define it with `{name} == INSTANCE M` first"))
}

pub fn subexpression(at: Span, why: &str) -> Diagnostic {
    Diagnostic::error(SUBEXPRESSION, at, format!("this subexpression name selects nothing: {why}"))
        .with_hint("a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)")
}

pub fn not_in_module(at: Span, name: &str, module: &str) -> Diagnostic {
    Diagnostic::error(NOT_IN_MODULE, at, format!("module {module} has no definition `{name}`"))
        .with_hint("check the spelling, and that the definition is not LOCAL in that module")
}

pub fn no_such_parameter(at: Span, name: &str, module: &str) -> Diagnostic {
    Diagnostic::error(INSTANCE_SUBSTITUTION, at, format!("module {module} has no CONSTANT or VARIABLE named `{name}` to substitute"))
        .with_hint("only the module's declared constants and variables can appear left of `<-`")
}

pub fn substitution_level(at: Span, name: &str, kind: &str, module: &str, level: u8, allowed: u8) -> Diagnostic {
    Diagnostic::error(
        SUBSTITUTION_LEVEL,
        at,
        format!(
            "level error in instantiating module {module}: what is substituted for {kind} `{name}` must be at most {}-level, and this is {}-level",
            level_word(allowed),
            level_word(level)
        ),
    )
    .with_hint(format!(
        "{module} has variables, so (as SANY requires) what replaces a CONSTANT must be a constant and what replaces a VARIABLE a state function; an operator that primes its argument cannot stand for a constant operator"
    ))
}

pub fn non_leibniz(at: Span, what: &str, name: &str, module: &str) -> Diagnostic {
    Diagnostic::error(
        NON_LEIBNIZ,
        at,
        format!("{what} reads a parameter under a prime, UNCHANGED or ENABLED, so it cannot be substituted for the constant operator `{name}` of module {module}"),
    )
    .with_hint(format!(
        "SANY requires what replaces a CONSTANT operator to be Leibniz (equal arguments give equal results), which an operator that primes its argument is not; define the action in {module} instead, or substitute a constant operator"
    ))
}

pub fn missing_substitution(at: Span, name: &str, kind: &str, module: &str, decl: Option<Span>) -> Diagnostic {
    let mut d = Diagnostic::error(
        INSTANCE_SUBSTITUTION,
        at,
        format!("no substitution for {kind} `{name}` of module {module}"),
    );
    if let Some(sp) = decl {
        d = d.with_label(sp, "declared here");
    }
    d.with_hint(format!("add `WITH {name} <- ...`, or declare `{name}` in this module so it is substituted implicitly"))
}

pub fn recursive_undefined(at: Span, name: &str) -> Diagnostic {
    Diagnostic::error(RECURSIVE_DECL, at, format!("`{name}` is declared RECURSIVE but never defined"))
        .with_hint(format!("define `{name}` after the RECURSIVE declaration, or remove it from the declaration"))
}

pub fn recursive_arity(at: Span, name: &str, declared: usize, defined: usize, decl: Option<Span>) -> Diagnostic {
    let mut d = Diagnostic::error(
        RECURSIVE_DECL,
        at,
        format!("`{name}` is declared RECURSIVE with {declared} parameter(s) but defined with {defined}"),
    );
    if let Some(sp) = decl {
        d = d.with_label(sp, "declared here");
    }
    d.with_hint("make the RECURSIVE declaration's `_` count match the definition's parameters")
}

pub fn double_prime(at: Span) -> Diagnostic {
    Diagnostic::error(DOUBLE_PRIME, at, "priming an expression that is already primed (action level)")
        .with_hint("a prime applies to state-level expressions only: `x''` and `(x')'` are not TLA+; write `x'`")
}

pub fn box_of_action(at: Span, op: &str) -> Diagnostic {
    let (form, example) = if op == "[]" { ("[A]_v", "[][Next]_vars") } else { ("<<A>>_v", "<><<A>>_vars") };
    Diagnostic::error(BOX_OF_ACTION, at, format!("`{op}` applied to an action that is not of the form {form}"))
        .with_hint(format!("an action under `{op}` must be written `{example}` (with a subscript of the variables)"))
}

pub fn temporal_in_action(at: Span, place: &str) -> Diagnostic {
    Diagnostic::error(TEMPORAL_IN_ACTION, at, format!("temporal formula inside {place}"))
        .with_hint("formulas with [], <>, ~> or WF/SF cannot appear inside actions, primes, ENABLED or UNCHANGED")
}

pub fn unchanged_action(at: Span) -> Diagnostic {
    Diagnostic::error(UNCHANGED_ACTION, at, "the argument of UNCHANGED contains a prime")
        .with_hint("UNCHANGED takes state expressions: `UNCHANGED <<x, y>>`, not `UNCHANGED x'`")
}

pub fn mixed_action_temporal(at: Span, op: &str, action: Span, temporal: Span) -> Diagnostic {
    Diagnostic::error(MIXED_LEVELS, at, format!("`{op}` has both a temporal formula and an action as operands"))
        .with_label(action, "action-level operand")
        .with_label(temporal, "temporal operand")
        .with_hint("put the action under [][...]_vars, e.g. `Init /\\ [][Next]_vars`")
}

pub fn assume_level(at: Span, level: u8) -> Diagnostic {
    Diagnostic::error(ASSUME_LEVEL, at, format!("ASSUME must be a constant formula, but this one is {}-level", level_word(level)))
        .with_hint("an assumption can mention only constants: move conditions on variables into Init or an invariant")
}

pub fn init_primed(at: Span) -> Diagnostic {
    Diagnostic::warning(INIT_PRIMED, at, "`Init` contains a primed variable (it is an action, not a state predicate)")
        .with_hint("TLC rejects an INIT with primes: write `x = e` instead of `x' = e` in Init")
}

pub fn record_set_field_not_set(at: Span, field: &str, whole: Span) -> Diagnostic {
    Diagnostic::warning(RECORD_SET_FIELD, at, format!("field `{field}` of a record set is given a single value, not a set"))
        .with_label(whole, "this is a set of records `[f : S]`")
        .with_hint(format!("to build one record write `[{field} |-> ...]`; a set of records needs a set: `[{field} : {{...}}]`"))
}

pub fn record_equals_record_set(at: Span) -> Diagnostic {
    Diagnostic::warning(RECORD_EQ_RECORD_SET, at, "a record is compared with `=` to a set of records; this is always FALSE")
        .with_hint("use `\\in` to test membership in `[f : S]`, or write the record as `[f |-> e]`")
}

pub fn cfg_undefined(at: Span, what: &str, name: &str, suggestion: Option<String>) -> Diagnostic {
    let mut d = Diagnostic::error(CFG_UNDEFINED, at, format!("{what} `{name}` is not defined in the module"));
    if let Some(s) = suggestion {
        d = d.with_hint(format!("did you mean `{s}`?"));
    } else {
        d = d.with_hint("define it in the module, or fix the name in the .cfg file");
    }
    d
}

pub fn cfg_level(at: Span, what: &str, name: &str, level: u8, max: u8) -> Diagnostic {
    Diagnostic::error(
        CFG_LEVEL,
        at,
        format!("{what} `{name}` is {}-level but must be at most {}-level", level_word(level), level_word(max)),
    )
    .with_hint(match what {
        "INIT" => "the initial predicate must not contain primes: write `x = e`, not `x' = e`",
        "INVARIANT" => "an invariant is a state predicate; check actions with PROPERTY [][A]_vars",
        "NEXT" => "the next-state relation is an action; temporal formulas go in SPECIFICATION or PROPERTY",
        _ => "use a formula of the right level",
    })
}

pub fn cfg_arity(at: Span, what: &str, name: &str, arity: usize) -> Diagnostic {
    Diagnostic::error(CFG_ARITY, at, format!("{what} `{name}` takes {arity} argument(s); TLC needs a name without parameters here"))
        .with_hint("define a 0-ary operator that applies it, and name that in the .cfg")
}

pub fn cfg_not_constant(at: Span, name: &str, kind: &str) -> Diagnostic {
    Diagnostic::error(CFG_ARITY, at, format!("`{name}` is a {kind}; only constants and definitions can be given values in CONSTANTS"))
        .with_hint("remove it from CONSTANTS")
}

pub fn cfg_subst_arity(at: Span, name: &str, want: usize, def: &str, got: usize) -> Diagnostic {
    Diagnostic::error(CFG_ARITY, at, format!("`{name}` has {want} parameter(s) but `{def}` has {got}"))
        .with_hint("substitute an operator with the same number of parameters")
}

pub fn cfg_constant_unassigned(at: Span, name: &str) -> Diagnostic {
    Diagnostic::error(CFG_CONSTANT_UNASSIGNED, at, format!("constant `{name}` is not given a value in the .cfg file"))
        .with_hint(format!("add `CONSTANT {name} = ...` (or `{name} <- Def`) to the .cfg file"))
}

pub fn cfg_no_behaviour(at: Span) -> Diagnostic {
    Diagnostic::error(CFG_NO_BEHAVIOUR, at, "the .cfg file names neither SPECIFICATION nor INIT/NEXT")
        .with_hint("add `SPECIFICATION Spec` or `INIT Init` and `NEXT Next`")
}

pub fn file_name_mismatch(at: Span, module: &str, file: &str) -> Diagnostic {
    Diagnostic::error(FILE_NAME_MISMATCH, at, format!("module `{module}` is in a file named `{file}`; SANY and TLC require `{module}.tla`"))
        .with_hint(format!("rename the file to `{module}.tla` (or the module to match the file) before running SANY or TLC"))
}
