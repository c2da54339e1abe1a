//! Snapshot tests on small modules written for these checks. Where a case is borderline, the
//! comment says what SANY reports for the same module.

use super::*;
use expect_test::{expect, Expect};


fn run(text: &str, files: Vec<(&'static str, &'static str)>) -> (SourceMap, Analysis) {
    let mut sources = SourceMap::new();
    let root = sources.add("M.tla", text);
    let library = files.into_iter().fold(Library::new(), |l, (n, t)| l.with(n, format!("{n}.tla"), t));
    let a = analyze(&mut sources, root, &library);
    (sources, a)
}

fn render(sources: &SourceMap, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let f = sources.get(d.span.file);
        let (l, c) = f.line_col(d.span.start);
        out.push_str(&format!("{} {:?} {}:{}:{} {}\n", d.code, d.severity, f.name, l, c, d.message));
        for lb in &d.labels {
            let lf = sources.get(lb.span.file);
            let (l, c) = lf.line_col(lb.span.start);
            out.push_str(&format!("  label {}:{}:{} {}\n", lf.name, l, c, lb.message));
        }
        for h in &d.hints {
            out.push_str(&format!("  hint {h}\n"));
        }
    }
    out
}

fn check(text: &str, expect: Expect) {
    let (sources, a) = run(text, vec![]);
    expect.assert_eq(&render(&sources, &a.diagnostics));
}

fn check_with(text: &str, files: Vec<(&'static str, &'static str)>, expect: Expect) {
    let (sources, a) = run(text, files);
    expect.assert_eq(&render(&sources, &a.diagnostics));
}

#[test]
fn clean_module_has_no_diagnostics_and_scores_one() {
    let (sources, a) = run(
        "---- MODULE M ----
EXTENDS Naturals, Sequences
CONSTANT N
VARIABLES x, q
vars == <<x, q>>
Init == x = 0 /\\ q = <<>>
Inc == x' = x + 1 /\\ q' = Append(q, x)
Next == Inc \\/ UNCHANGED vars
Spec == Init /\\ [][Next]_vars /\\ WF_vars(Inc)
TypeOK == x \\in Nat /\\ Len(q) <= N
====
",
        vec![],
    );
    assert_eq!(render(&sources, &a.diagnostics), "");
    assert_eq!(a.score, SyntaxScore { clean: true, total: 6, parsed: 6, score: 1.0 });
    assert_eq!(a.symbol("Next").map(|s| s.level), Some(2));
    assert_eq!(a.symbol("Spec").map(|s| s.level), Some(3));
    assert_eq!(a.symbol("TypeOK").map(|s| s.level), Some(1));
    assert_eq!(a.symbol("N").map(|s| s.level), Some(0));
}

#[test]
fn unknown_names_with_suggestions() {
    check(
        "---- MODULE M ----
EXTENDS Naturals
VARIABLE vars
Init == Vars = 0 /\\ len(vars) = 1 /\\ Cardinality({}) = 0 /\\ vars && TRUE
====
",
        expect![[r#"
            E0201 Error M.tla:4:9 unknown name `Vars`
              hint did you mean `vars`?
            E0201 Error M.tla:4:21 unknown name `len`
              hint did you mean `Len`?
              hint `Len` is defined in the standard module Sequences: add `EXTENDS Sequences`
            E0201 Error M.tla:4:38 unknown name `Cardinality`
              hint `Cardinality` is defined in the standard module FiniteSets: add `EXTENDS FiniteSets`
            E0201 Error M.tla:4:66 unknown name `&&`
              hint `&&` is not a TLA+ operator; write `/\`
        "#]],
    );
}

#[test]
fn missing_module_and_cycle() {
    check_with(
        "---- MODULE M ----
EXTENDS Temporal, A
====
",
        vec![("A", "---- MODULE A ----\nEXTENDS B\n====\n"), ("B", "---- MODULE B ----\nEXTENDS A\n====\n")],
        expect![[r#"
            E0200 Error M.tla:2:9 cannot find module `Temporal`
              hint `Temporal` is neither a module of this file, nor a file `Temporal.tla` beside it, nor a standard module
            E0207 Error B.tla:2:9 circular module dependency: A -> B -> A
              hint modules may not extend or instantiate themselves, directly or through others
        "#]],
    );
}

#[test]
fn duplicates_and_shadowing() {
    // SANY: "Multiply-defined symbol 'x'" for a bound variable named like a VARIABLE, for a
    // parameter named like a definition, for nested bound variables with one name; and
    // "Operator Len already defined or declared" for redefining Len with Sequences extended.
    check(
        "---- MODULE M ----
EXTENDS Sequences
VARIABLE x
A == 1
A == 2
B(A) == A
C == \\E x \\in {1} : x = 1
D == \\E y \\in {1} : \\E y \\in {2} : y = 1
Len(s) == 0
E == LET A == 1 IN 2
====
",
        expect![[r#"
            E0203 Error M.tla:5:1 multiply-defined symbol `A`
              label M.tla:4:1 first defined here (in module M)
              hint `A` is already defined as an operator in module M; choose another name
            E0204 Error M.tla:6:3 `A` is already defined: TLA+ does not allow redeclaring it here
              label M.tla:4:1 `A` is an operator here
              hint `A` is an operator from module M; use a fresh name for this parameter or bound variable
            E0204 Error M.tla:7:9 `x` is already defined: TLA+ does not allow redeclaring it here
              label M.tla:3:10 `x` is a variable here
              hint `x` is a variable from module M; use a fresh name for this parameter or bound variable
            E0204 Error M.tla:8:24 `y` is already defined: TLA+ does not allow redeclaring it here
              label M.tla:8:9 `y` is a bound variable here
              hint `y` is a bound variable from module M; use a fresh name for this parameter or bound variable
            E0203 Error M.tla:9:1 multiply-defined symbol `Len`
              hint `Len` is already defined as an operator in module Sequences; choose another name
            E0204 Error M.tla:10:10 `A` is already defined: TLA+ does not allow redeclaring it here
              label M.tla:4:1 `A` is an operator here
              hint `A` is an operator from module M; use a fresh name for this parameter or bound variable
        "#]],
    );
}

#[test]
fn arity_errors() {
    // SANY: "The operator A requires 1 arguments." and, for B == A(C) with A(F(_)) and C of
    // arity 2, "Argument number 1 to operator 'A' should be a 1-parameter operator."
    check(
        "---- MODULE M ----
A(x) == x
B == A(1, 2)
H(F(_)) == F(1)
C(a, b) == a
D == H(C)
E == H(LAMBDA y : y)
G == A
====
",
        expect![[r#"
            E0205 Error M.tla:3:6 `A` takes 1 argument but is given 2
              label M.tla:2:1 defined here
              hint call it with exactly 1 argument
            E0206 Error M.tla:6:8 argument 1 of `H` must be an operator of arity 1, but this has arity 2
              hint pass the name of an operator with 1 parameter(s), or `LAMBDA x : ...`
            E0205 Error M.tla:8:6 operator `A` needs 1 argument here
              label M.tla:2:1 defined here
              hint apply it: `A(...)`; an operator can be passed without arguments only to a parameter like `F(_)`
        "#]],
    );
}

#[test]
fn use_before_definition_and_recursion() {
    // SANY: "Unknown operator: `B'" for A == B defined before B, and likewise for a
    // self-reference without RECURSIVE; recursive functions are fine.
    check(
        "---- MODULE M ----
EXTENDS Naturals
A == B
B == 1
Fact(n) == IF n = 0 THEN 1 ELSE n * Fact(n - 1)
f[n \\in Nat] == IF n = 0 THEN 1 ELSE n * f[n - 1]
RECURSIVE Sum(_)
Sum(S) == IF S = {} THEN 0 ELSE LET x == CHOOSE y \\in S : TRUE IN x + Sum(S \\ {x})
RECURSIVE Never(_)
====
",
        expect![[r#"
            E0202 Error M.tla:3:6 `B` is used before its definition
              label M.tla:4:1 defined later here
              hint in TLA+ a name must be defined above its first use: move the definition up (or declare it RECURSIVE)
            E0202 Error M.tla:5:37 `Fact` refers to itself without a RECURSIVE declaration
              label M.tla:5:1 defined here
              hint declare `RECURSIVE Fact(...)` before the definition, or define a recursive function `Fact[x \in S] == ...`
            E0214 Error M.tla:9:11 `Never` is declared RECURSIVE but never defined
              hint define `Never` after the RECURSIVE declaration, or remove it from the declaration
        "#]],
    );
}

#[test]
fn level_errors() {
    // SANY: "Level error in applying operator '" for x'' and for priming a temporal formula;
    // "[] followed by action not of form [A]_v"; "Level error: assumptions must be level 0";
    // "Level error in applying operator UNCHANGED"; "\land has both temporal formula and
    // action as arguments" (inside ENABLED).
    check(
        "---- MODULE M ----
EXTENDS Naturals
VARIABLE x
A == x''
B == [](x' = x)
C == (x = 1 /\\ []( x = 2))'
ASSUME x = 1
D == UNCHANGED (x')
E == ENABLED (x' = 1 /\\ []TRUE)
Spec == x = 0 /\\ [][x' = x + 1]_x /\\ WF_x(x' = 1) /\\ <>[](x = 2) /\\ <><<x' = 3>>_x
====
",
        expect![[r#"
            E0209 Error M.tla:4:6 priming an expression that is already primed (action level)
              hint a prime applies to state-level expressions only: `x''` and `(x')'` are not TLA+; write `x'`
            E0210 Error M.tla:5:6 `[]` applied to an action that is not of the form [A]_v
              hint an action under `[]` must be written `[][Next]_vars` (with a subscript of the variables)
            E0211 Error M.tla:6:6 temporal formula inside a primed expression
              hint formulas with [], <>, ~> or WF/SF cannot appear inside actions, primes, ENABLED or UNCHANGED
            E0212 Error M.tla:7:8 ASSUME must be a constant formula, but this one is state-level
              hint an assumption can mention only constants: move conditions on variables into Init or an invariant
            E0216 Error M.tla:8:16 the argument of UNCHANGED contains a prime
              hint UNCHANGED takes state expressions: `UNCHANGED <<x, y>>`, not `UNCHANGED x'`
            E0217 Error M.tla:9:14 `/\` has both a temporal formula and an action as operands
              label M.tla:9:15 action-level operand
              label M.tla:9:25 temporal operand
              hint put the action under [][...]_vars, e.g. `Init /\ [][Next]_vars`
            E0211 Error M.tla:9:14 temporal formula inside ENABLED
              hint formulas with [], <>, ~> or WF/SF cannot appear inside actions, primes, ENABLED or UNCHANGED
        "#]],
    );
}

#[test]
fn instances() {
    // SANY: "Substitution missing for symbol d declared at ... of module Inst".
    check_with(
        "---- MODULE M ----
EXTENDS Naturals
CONSTANT c
VARIABLE v
I == INSTANCE Inst WITH d <- 2
J(p) == INSTANCE Inst WITH c <- p, d <- p
K == INSTANCE Inst
L == INSTANCE Inst WITH d <- 1, e <- 2
A == I!Double(3) + J(1)!Double(2) + I!Triple(1) + J!Double(1)
INSTANCE Inst WITH d <- 5
B == Double(c)
====
",
        vec![("Inst", "---- MODULE Inst ----\nEXTENDS Naturals\nCONSTANT c, d\nVARIABLE v\nDouble(n) == 2 * n + c + d\n====\n")],
        expect![[r#"
            E0208 Error M.tla:7:6 no substitution for a constant `d` of module Inst
              label Inst.tla:3:13 declared here
              hint add `WITH d <- ...`, or declare `d` in this module so it is substituted implicitly
            E0208 Error M.tla:8:33 module Inst has no CONSTANT or VARIABLE named `e` to substitute
              hint only the module's declared constants and variables can appear left of `<-`
            E0213 Error M.tla:9:37 module Inst has no definition `Triple`
              hint check the spelling, and that the definition is not LOCAL in that module
            E0205 Error M.tla:9:51 `J` takes 1 argument but is given 0
              label M.tla:6:1 defined here
              hint call it with exactly 1 argument
        "#]],
    );
}

#[test]
fn substitution_levels() {
    // SANY 2.1 rejects I (an action for a constant operator) and J (a variable for a constant,
    // in a module with variables): "Level error in instantiating module 'Inner'"; it accepts
    // K (a constant operator for the operator, a state function for the variable) and the
    // constant module C with a variable. It rejects P and Q ("A non-Leibniz operator
    // substituted for 'Op'": they prime or take ENABLED of their parameter), not R.
    check_with(
        "---- MODULE M ----
EXTENDS Naturals
VARIABLE x
Inc(v) == v' = v + 1
Twice(v) == 2 * v
I == INSTANCE Inner WITH Step <- Inc, N <- 1, y <- x
J == INSTANCE Inner WITH Step <- Twice, N <- x, y <- x
K == INSTANCE Inner WITH Step <- Twice, N <- 3, y <- x + 1
L == INSTANCE C WITH k <- x
P == INSTANCE CInner WITH Op <- Inc
Q == INSTANCE CInner WITH Op <- LAMBDA v : ENABLED (v' = 1)
R == INSTANCE CInner WITH Op <- LAMBDA v : v + 1
====
",
        vec![
            ("Inner", "---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT Step(_), N\nVARIABLE y\nNext == y' = Step(y) + N\n====\n"),
            ("C", "---- MODULE C ----\nEXTENDS Naturals\nCONSTANT k\nTwoK == k + k\n====\n"),
            ("CInner", "---- MODULE CInner ----\nCONSTANT Op(_)\nDef(v) == Op(v)\n====\n"),
        ],
        expect![[r#"
            E0227 Error M.tla:6:34 level error in instantiating module Inner: what is substituted for a constant `Step` must be at most constant-level, and this is action-level
              hint Inner has variables, so (as SANY requires) what replaces a CONSTANT must be a constant and what replaces a VARIABLE a state function; an operator that primes its argument cannot stand for a constant operator
            E0228 Error M.tla:6:34 `Inc` reads a parameter under a prime, UNCHANGED or ENABLED, so it cannot be substituted for the constant operator `Step` of module Inner
              hint SANY requires what replaces a CONSTANT operator to be Leibniz (equal arguments give equal results), which an operator that primes its argument is not; define the action in Inner instead, or substitute a constant operator
            E0227 Error M.tla:7:46 level error in instantiating module Inner: what is substituted for a constant `N` must be at most constant-level, and this is state-level
              hint Inner has variables, so (as SANY requires) what replaces a CONSTANT must be a constant and what replaces a VARIABLE a state function; an operator that primes its argument cannot stand for a constant operator
            E0228 Error M.tla:10:33 `Inc` reads a parameter under a prime, UNCHANGED or ENABLED, so it cannot be substituted for the constant operator `Op` of module CInner
              hint SANY requires what replaces a CONSTANT operator to be Leibniz (equal arguments give equal results), which an operator that primes its argument is not; define the action in CInner instead, or substitute a constant operator
            E0228 Error M.tla:11:33 the LAMBDA reads a parameter under a prime, UNCHANGED or ENABLED, so it cannot be substituted for the constant operator `Op` of module CInner
              hint SANY requires what replaces a CONSTANT operator to be Leibniz (equal arguments give equal results), which an operator that primes its argument is not; define the action in CInner instead, or substitute a constant operator
        "#]],
    );
}

#[test]
fn warnings_sany_accepts_but_tlc_fails() {
    // SANY accepts all three (checked); TLC fails at run time.
    check(
        "---- MODULE M ----
VARIABLE x
Init == x' = 0
TypeOK == x \\in [a : \"x\"]
R == [a |-> 1] = [a : {1}]
====
",
        expect![[r#"
            W0201 Warning M.tla:3:1 `Init` contains a primed variable (it is an action, not a state predicate)
              hint TLC rejects an INIT with primes: write `x = e` instead of `x' = e` in Init
            W0202 Warning M.tla:4:22 field `a` of a record set is given a single value, not a set
              label M.tla:4:17 this is a set of records `[f : S]`
              hint to build one record write `[a |-> ...]`; a set of records needs a set: `[a : {...}]`
            W0203 Warning M.tla:5:6 a record is compared with `=` to a set of records; this is always FALSE
              hint use `\in` to test membership in `[f : S]`, or write the record as `[f |-> e]`
        "#]],
    );
}

#[test]
fn syntax_score_counts_definitions_that_check_on_their_own() {
    // Four definitions: A is fine, B only has an unknown name (stubbed: counts), C has an arity
    // error, D does not parse. Score 0.5 * 2/4.
    let (sources, a) = run(
        "---- MODULE M ----
A(x) == x
B == Undefined + 1
C == A(1, 2)
D == (1 +
====
",
        vec![],
    );
    let _ = sources;
    assert_eq!(a.score.total, 4);
    assert_eq!(a.score.parsed, 2);
    assert!(!a.score.clean);
    assert!((a.score.score - 0.25).abs() < 1e-9);
}

#[test]
fn config_is_checked_against_the_module() {
    let (sources, a) = run(
        "---- MODULE M ----
CONSTANT N, Op(_)
VARIABLE x
Init == x' = 0
Next == x' = x + 1
Inv == x' > 0
Two(a, b) == a
Spec == Init /\\ [][Next]_x
====
",
        vec![],
    );
    let mut sources = sources;
    let cfg_text = "INIT Init\nNEXT Nxt\nINVARIANT Inv\nCONSTANTS\n  N = 3\n  Op <- Two\n  x = 1\n";
    let cfg_file = sources.add("M.cfg", cfg_text);
    let cfg = tla_syntax::cfg::parse_cfg(cfg_file, cfg_text);
    let diags = check_against_config(&a, &cfg.config);
    expect![[r#"
        E0221 Error M.cfg:1:6 INIT `Init` is action-level but must be at most state-level
          hint the initial predicate must not contain primes: write `x = e`, not `x' = e`
        E0220 Error M.cfg:2:6 NEXT `Nxt` is not defined in the module
          hint did you mean `Next`?
        E0221 Error M.cfg:3:11 INVARIANT `Inv` is action-level but must be at most state-level
          hint an invariant is a state predicate; check actions with PROPERTY [][A]_vars
        E0222 Error M.cfg:6:9 `Op` has 1 parameter(s) but `Two` has 2
          hint substitute an operator with the same number of parameters
        E0222 Error M.cfg:7:3 `x` is a variable; only constants and definitions can be given values in CONSTANTS
          hint remove it from CONSTANTS
    "#]].assert_eq(&render(&sources, &diags));
}

#[test]
fn modules_sany_accepts_are_clean() {
    // Each of these is accepted by SANY (checked on the same text).
    let cases: &[&str] = &[
        "---- MODULE M ----
EXTENDS Naturals
VARIABLE x
Spec == x = 0 /\\ [][x' = x + 1]_x /\\ WF_x(x' = 1) /\\ <>[](x = 2) /\\ <><<x' = 3>>_x
====
",
        "---- MODULE M ----
EXTENDS Naturals
RECURSIVE Sum(_)
Sum(S) == IF S = {} THEN 0 ELSE LET x == CHOOSE y \\in S : TRUE IN x + Sum(S \\ {x})
f[n \\in Nat] == IF n = 0 THEN 1 ELSE n * f[n - 1]
H(F(_)) == F(1)
E == H(LAMBDA y : y)
G == \\A y \\in {1} : \\A z \\in {y} : z = y
P(a) == a
Q == \\E a \\in {1} : P(a) = 1
====
",
        "---- MODULE M ----
EXTENDS Naturals, Sequences, FiniteSets, TLC
CONSTANT N
VARIABLE q
Proc == 1..N
Init == q = <<>>
Send(m) == q' = Append(q, m) /\\ Cardinality({m}) = 1
Next == \\E m \\in Proc : Send(m)
Sorted == SortSeq(q, LAMBDA a, b : a < b)
Live == \\A m \\in Proc : [](Len(q) > 0 ~> m \\in {q[i] : i \\in DOMAIN q})
Fair == WF_q(Next) /\\ SF_q(Next)
====
",
    ];
    for c in cases {
        let (sources, a) = run(c, vec![]);
        assert_eq!(render(&sources, &a.diagnostics), "", "{c}");
        assert_eq!(a.score.score, 1.0);
    }
}

#[test]
fn sany_scoping_and_level_corner_cases() {
    // SANY: "Unknown operator: `y'" (bounds' sets are checked outside all the bound names);
    // "\lor has both temporal formula and action as arguments"; the same for => and \equiv;
    // "[] followed by action not of form [A]_v" for [](A) with A an action.
    check(
        "---- MODULE M ----
VARIABLE x
G == \\A y \\in {1}, z \\in {y} : z = y
A == x' = 1
B == [](A)
C == A \\/ []TRUE
D == (x' = 1) <=> []TRUE
E == (x' = 1) => []TRUE
====
",
        expect![[r#"
            E0201 Error M.tla:3:27 unknown name `y`
              hint define or declare it (CONSTANT, VARIABLE or a definition) before this use
            E0210 Error M.tla:5:6 `[]` applied to an action that is not of the form [A]_v
              hint an action under `[]` must be written `[][Next]_vars` (with a subscript of the variables)
            E0217 Error M.tla:6:6 `\/` has both a temporal formula and an action as operands
              label M.tla:6:6 action-level operand
              label M.tla:6:11 temporal operand
              hint put the action under [][...]_vars, e.g. `Init /\ [][Next]_vars`
            E0217 Error M.tla:7:6 `<=>` has both a temporal formula and an action as operands
              label M.tla:7:6 action-level operand
              label M.tla:7:19 temporal operand
              hint put the action under [][...]_vars, e.g. `Init /\ [][Next]_vars`
            E0217 Error M.tla:8:6 `=>` has both a temporal formula and an action as operands
              label M.tla:8:6 action-level operand
              label M.tla:8:18 temporal operand
              hint put the action under [][...]_vars, e.g. `Init /\ [][Next]_vars`
        "#]],
    );
}

#[test]
fn instance_misuse_module_mismatch_and_recursive_arity() {
    check_with(
        "---- MODULE M ----
EXTENDS Naturals
I == INSTANCE Other
A == 1
B == I + A!Op
RECURSIVE R(_, _)
R(n) == IF n = 0 THEN 0 ELSE R(n - 1, 0)
====
",
        vec![("Other", "---- MODULE NotOther ----\n====\n")],
        expect![[r#"
            E0215 Error M.tla:3:15 file `Other.tla` does not contain a module named `Other`
              hint a module `Other` must be in a file named `Other.tla` whose module is `Other`
            E0218 Error M.tla:5:6 `I` is a module instance, not a value
              hint refer to one of its definitions: `I!Op`
            E0226 Error M.tla:5:10 this subexpression name selects nothing: `A` has no label `Op`
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
              hint `A` is a definition, not a module instance: for a module's definitions write `A == INSTANCE M` first
            E0214 Error M.tla:7:1 `R` is declared RECURSIVE with 2 parameter(s) but defined with 1
              label M.tla:6:11 declared here
              hint make the RECURSIVE declaration's `_` count match the definition's parameters
        "#]],
    );
}

#[test]
fn config_without_behaviour_and_unassigned_constants() {
    let (mut sources, a) = run(
        "---- MODULE M ----
CONSTANT N, M
VARIABLE x
Inv == x = N
====
",
        vec![],
    );
    let cfg_text = "CONSTANT N = 1\nINVARIANT Inv\n";
    let cfg_file = sources.add("M.cfg", cfg_text);
    let cfg = tla_syntax::cfg::parse_cfg(cfg_file, cfg_text);
    let diags = check_against_config(&a, &cfg.config);
    expect![[r#"
        E0223 Error M.cfg:1:10 constant `M` is not given a value in the .cfg file
          label M.tla:2:13 declared here
          hint add `CONSTANT M = ...` (or `M <- Def`) to the .cfg file
        E0224 Error M.cfg:1:10 the .cfg file names neither SPECIFICATION nor INIT/NEXT
          hint add `SPECIFICATION Spec` or `INIT Init` and `NEXT Next`
    "#]].assert_eq(&render(&sources, &diags));
}

#[test]
fn nested_submodules_and_local_definitions() {
    // LOCAL definitions are not exported; a nested module sees the enclosing definitions.
    check_with(
        "---- MODULE M ----
EXTENDS Lib
CONSTANT c
---- MODULE Inner ----
Twice == c + c
====
J == INSTANCE Inner
A == Public + J!Twice
B == Hidden
====
",
        vec![("Lib", "---- MODULE Lib ----\nEXTENDS Naturals\nLOCAL Hidden == 1\nPublic == Hidden + 1\n====\n")],
        expect![[r#"
            E0201 Error M.tla:9:6 unknown name `Hidden`
              hint define or declare it (CONSTANT, VARIABLE or a definition) before this use
        "#]],
    );
}

#[test]
fn file_named_unlike_its_module() {
    // SANY rejects this ("module name differs from file name"), and so do we.
    let mut sources = SourceMap::new();
    let root = sources.add("specs/Other.tla", "---- MODULE M ----\n====\n");
    let a = analyze(&mut sources, root, &Library::new());
    expect![[r#"
        E0225 Error specs/Other.tla:1:13 module `M` is in a file named `Other.tla`; SANY and TLC require `M.tla`
          hint rename the file to `M.tla` (or the module to match the file) before running SANY or TLC
    "#]].assert_eq(&render(&sources, &a.diagnostics));
    assert!(!a.score.clean);
    // Every definition still checks on its own: only the file name is wrong.
    let root = sources.add("Other.tla", "---- MODULE M ----\nA == 1\nB == 2\n====\n");
    let a = analyze(&mut sources, root, &Library::new());
    assert_eq!((a.score.parsed, a.score.total, a.score.score), (2, 2, 0.5));
}

#[test]
fn a_definition_brought_in_twice_is_a_warning_and_a_declaration_clash_an_error() {
    // SANY 2.1: a warning ("Multiple declarations or definitions for symbol F") where EXTENDS
    // or INSTANCE brings in a second definition of F (TLC then uses the first), an error
    // ("Multiply-defined symbol 'F'") where the clash is with a VARIABLE.
    let files = vec![("A", "---- MODULE A ----\nF == 1\n====\n"), ("B", "---- MODULE B ----\nF == 2\n====\n")];
    check_with(
        "---- MODULE M ----\nEXTENDS A, B\nG == 3\nINSTANCE A\n====\n",
        files.clone(),
        expect![[r#"
            E0203 Warning M.tla:2:12 multiply-defined symbol `F`: EXTENDS B brings in `F` from module B, which clashes with an earlier one
              label A.tla:2:1 the other definition
              hint `F` is already an operator from module A; rename one of them
        "#]],
    );
    check_with(
        "---- MODULE M ----\nVARIABLE F\nINSTANCE A\n====\n",
        files,
        expect![[r#"
            E0203 Error M.tla:3:10 multiply-defined symbol `F`: INSTANCE A brings in `F` from module A, which clashes with an earlier one
              label M.tla:2:10 the other definition
              hint `F` is already a variable from module M; rename one of them
        "#]],
    );
}

#[test]
fn subexpression_names_that_select_nothing() {
    check(
        "---- MODULE M ----
EXTENDS Naturals
VARIABLE x
Inv == /\\ x > 0
       /\\ P:: x < 9
Q == \\E v \\in 1..2 : L(v):: v = x
THEOREM T == ASSUME NEW n PROVE n = n
A == Inv!3
B == Inv!R
C == Q!@
D == Q!(1, 2)
E == Q!L
F == T!1
G == Inv!P!<<
H == x!1
====
",
        expect![[r#"
            E0226 Error M.tla:8:10 this subexpression name selects nothing: `!3` names no operand: the selected expression has 2
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
            E0226 Error M.tla:9:6 this subexpression name selects nothing: `Inv` has no label `R`
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
              hint `Inv` is a definition, not a module instance: for a module's definitions write `Inv == INSTANCE M` first
            E0226 Error M.tla:10:8 this subexpression name selects nothing: `!@` names a body under its own bound names, which only its definition can use: write `!(e, ...)` with the values
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
            E0226 Error M.tla:11:8 this subexpression name selects nothing: the expression binds 1 name(s), and `!(...)` gives 2 value(s)
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
            E0226 Error M.tla:12:6 this subexpression name selects nothing: the label `L` takes 1 argument(s), not 0
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
            E0226 Error M.tla:13:6 this subexpression name selects nothing: `T` has no expression to select in (an ASSUME ... PROVE statement?)
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
            E0226 Error M.tla:15:6 this subexpression name selects nothing: only a definition, a named ASSUME or a theorem has subexpressions
              hint a subexpression name is a definition's name followed by selectors: `Inv!2` (the second conjunct), `Inv!lbl` (a label), `Op!(e)` (a body under its bound name)
        "#]],
    );
}
