//! Values the evaluator keeps between evaluations (constant subexpressions, LET definitions,
//! what a name means at a node) must never change an answer: models where keeping a value too
//! eagerly would lose or invent states.

mod common;

use tla_check::{Explorer, Options, Outcome};

/// (distinct, generated, invariant violated?) of a model written here.
fn check(text: &str, cfg: &str) -> (u64, u64, bool) {
    common::with_model(text, cfg, |m| {
        let mut ex = Explorer::new(&*m, Options::default());
        let outcome = ex.run_to_end();
        let st = ex.stats();
        match outcome {
            Outcome::Success => (st.distinct, st.generated, false),
            Outcome::InvariantViolated { .. } => (st.distinct, st.generated, true),
            Outcome::Error { error, .. } => panic!("evaluation error: {error:?}"),
            other => panic!("unexpected outcome {:?}", matches!(other, Outcome::Deadlock { .. })),
        }
    })
}

#[test]
fn a_let_definition_that_reads_the_next_state_is_not_kept_across_branches() {
    // `d` is defined once, before x' is chosen; each branch of `x' \in {1, 2}` must see its own
    // x'. Keeping d's first value would lose the successor x = 2.
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n\
                Next == LET d == x' IN (x' \\in {1, 2} /\\ d + 0 = x')\n====\n";
    // States 0, 1, 2; generated: 1 initial + 2 successors of each of the 3 states.
    assert_eq!(check(text, "INIT Init\nNEXT Next\n"), (3, 7, false));
}

#[test]
fn a_let_definition_of_the_current_state_is_recomputed_in_each_state() {
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n\
                Next == LET n == (x + 1) % 4 IN x' = n\nInv == LET y == x * 2 IN y < 8\n====\n";
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv\n"), (4, 5, false));
    // The invariant is violated at x = 3 only: y must follow x.
    let bad = text.replace("y < 8", "y < 6");
    assert_eq!(check(&bad, "INIT Init\nNEXT Next\nINVARIANT Inv\n").2, true);
}

#[test]
fn constant_and_state_dependent_calls_of_one_operator() {
    // Add(1, 1) is constant and may be kept; Add(x, 1) must not be.
    let text = "---- MODULE M ----\nEXTENDS Naturals\nCONSTANT K\nVARIABLE x\nAdd(a, b) == a + b\n\
                Init == x = 0\nNext == x' = (Add(x, 1) + Add(1, 1)) % K\n\
                Inv == x \\in {i \\in 0..(K - 1) : Add(i, 0) = i} /\\ x \\in [k \\in 0..K |-> k][x] .. K\n====\n";
    // x + 3 mod 7 visits all 7 residues.
    assert_eq!(check(text, "CONSTANT K = 7\nINIT Init\nNEXT Next\nINVARIANT Inv\n"), (7, 8, false));
    assert_eq!(check(text, "CONSTANT K = 9\nINIT Init\nNEXT Next\nINVARIANT Inv\n"), (3, 4, false));
}

#[test]
fn a_bound_name_is_never_a_constant_even_where_the_same_operator_is_constant() {
    // The same function constructor over a constant set, once per state: its body depends on
    // the bound name only, so the whole is constant, while `[p \in P |-> p + x]` is not.
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES x, f\nP == 1..3\nN(p) == {q \\in P : q /= p}\n\
                Init == x = 0 /\\ f = [p \\in P |-> N(p)]\n\
                Next == (x < 3 /\\ x' = x + 1 /\\ f' = [p \\in P |-> IF p = x' THEN {} ELSE N(p)]) \\/ (x = 3 /\\ UNCHANGED <<x, f>>)\n\
                Inv == \\A p \\in P : f[p] \\subseteq N(p) /\\ (p > x => f[p] = N(p))\n====\n";
    // x = 0..3, each with its own f; 4 distinct states, 1 + 4 generated (x = 3 stutters).
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv\n"), (4, 5, false));
}

#[test]
fn a_function_definition_is_kept_per_argument_only_when_its_body_reads_no_state() {
    // Host and Fact read no state: each argument's result may be kept. Shift reads x: kept,
    // Shift[0] would stay 0 and the invariant would fail at x = 1.
    let text = "---- MODULE M ----\nEXTENDS Naturals\nCONSTANT K\nVARIABLE x\n\
                Host[p \\in 0..K] == CHOOSE n \\in 0..K : n = (p + 1) % (K + 1)\n\
                Shift[p \\in 0..K] == (p + x) % (K + 1)\n\
                Fact[n \\in Nat] == IF n = 0 THEN 1 ELSE n * Fact[n - 1]\n\
                Init == x = 0\nNext == x' = Host[x]\n\
                Inv == Shift[0] = x /\\ Host[Shift[1]] = (x + 2) % (K + 1) /\\ Fact[x + 2] = Fact[x + 1] * (x + 2)\n====\n";
    // x goes 0, 1, 2, 3 and back to 0.
    assert_eq!(check(text, "CONSTANT K = 3\nINIT Init\nNEXT Next\nINVARIANT Inv\n"), (4, 5, false));
    // The same answers with a wrong invariant: it fails (at x = 2), as it must.
    let bad = text.replace("Fact[x + 2] = Fact[x + 1] * (x + 2)", "Fact[x] < 2");
    assert_eq!(check(&bad, "CONSTANT K = 3\nINIT Init\nNEXT Next\nINVARIANT Inv\n").2, true);
}

#[test]
fn a_definition_without_parameters_is_kept_for_one_state_only() {
    // Low is an invariant of its own, part of Inv and of Next's guard: its value is kept within
    // a state and must follow x from state to state (TLC: 8 distinct, 9 generated; with Low
    // as an invariant, violated at x = 5 after 6 states).
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\nLow == x < 5\n\
                Next == x' = (x + 1) % 8 /\\ (Low \\/ x >= 5)\nInv == Low \\/ x \\in 5..7\n====\n";
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv\n"), (8, 9, false));
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv\nINVARIANT Low\n"), (6, 6, true));
}

#[test]
fn membership_answers_are_kept_per_set_and_element() {
    // The same functions are tested against constant sets and against sets built from y in
    // each state: a kept answer must belong to its set. TLC 2.15: 641 distinct, 5129 generated;
    // with Small also an invariant, violated after 8 states generated (8 distinct).
    let text = "---- MODULE M ----\nEXTENDS Naturals, FiniteSets\nVARIABLES f, y\nD == {1, 2}\n\
                Init == f = [d \\in D |-> {}] /\\ y = {}\n\
                Next == \\E d \\in D, v \\in 0..3 :\n\
                \x20         /\\ f' = [f EXCEPT ![d] = (f[d] \\cup {v}) \\ {3 - v}]\n\
                \x20         /\\ y' = IF Cardinality(y) < 3 THEN y \\cup {v} ELSE {}\n\
                Inv == /\\ f \\in [D -> SUBSET (0..3)]\n\
                \x20      /\\ (f \\in [D -> SUBSET y]) = (\\A d \\in D : f[d] \\subseteq y)\n\
                \x20      /\\ (f \\in [D -> SUBSET (y \\cup {0})]) = (\\A d \\in D : f[d] \\subseteq y \\cup {0})\n\
                Small == f \\in [D -> SUBSET {0, 1, 2}]\n====\n";
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv\n"), (641, 5129, false));
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv\nINVARIANT Small\n"), (8, 8, true));
}

#[test]
fn a_stored_successor_stands_for_its_constraint_only_when_its_fingerprint_is_the_state() {
    // Without VIEW a successor already stored is in the model: its constraint is not evaluated
    // again. The states with x = 4 or 5 are never stored, so they are tested every time.
    let text = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n\
                Next == \\/ x' = (x + 1) % 6 /\\ y' = y\n        \\/ x' = 0 /\\ y' = 1 - y\n\
                Small == x < 4\nView == x\n====\n";
    // TLC 2.15: 8 distinct, 17 generated.
    assert_eq!(check(text, "INIT Init\nNEXT Next\nCONSTRAINT Small\n"), (8, 17, false));
    // With VIEW, a successor outside the model may share its fingerprint with a stored state:
    // (0, 1) is outside `y < 1` and has the view of (0, 0). TLC checks it against the
    // invariants as any successor outside the model, and it violates `y < 1` (TLC 2.15:
    // 1 distinct, 2 generated). Taking the stored state's word for it would miss that.
    let view = "---- MODULE M ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n\
                Next == x' = x /\\ y' = y + 1\nInv == y < 1\nView == x\n====\n";
    assert_eq!(check(view, "INIT Init\nNEXT Next\nINVARIANT Inv\nCONSTRAINT Inv\nVIEW View\n"), (1, 2, true));
}

#[test]
fn an_invariant_conjunct_is_read_again_only_when_a_variable_it_reads_may_have_changed() {
    // `Lim(3)` reads x through a definition with a parameter; `y < 5` reads y. Each step
    // leaves one of them unchanged, whose conjunct is not read again; the conjunct on the one
    // that changed is. TLC 2.15: `Inv` violated at x = 3 after 7 distinct, 8 generated.
    let text = "---- MODULE M ----\nEXTENDS Naturals, TLC\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n\
                Next == \\/ x < 4 /\\ x' = x + 1 /\\ UNCHANGED y\n        \\/ y < 4 /\\ y' = y + 1 /\\ UNCHANGED x\n\
                Lim(n) == x < n\nInv == Lim(3) /\\ y < 5\nBoth == Inv /\\ TLCEval(y) >= 0\n\
                Shallow == TLCGet(\"level\") < 6\n====\n";
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv\n"), (7, 8, true));
    // An invariant that includes another shares its conjuncts (read once per state).
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Inv Both\n"), (7, 8, true));
    // `TLCGet("level")` reads no variable but is not a function of the state: it is read in
    // every state. TLC 2.15: violated in a successor of a state at level 6, after 20 distinct,
    // 30 generated.
    assert_eq!(check(text, "INIT Init\nNEXT Next\nINVARIANT Shallow\n"), (20, 30, true));
}

#[test]
fn a_constraint_is_read_again_only_when_a_variable_it_reads_may_have_changed() {
    // `Small` reads y only: after a step that leaves y unchanged it holds as in the state
    // expanded. `Shallow` reads no variable but the level, which every step changes.
    let text = "---- MODULE M ----\nEXTENDS Naturals, TLC\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n\
                Next == \\/ x' = (x + 1) % 5 /\\ UNCHANGED y\n        \\/ y' = y + 1 /\\ UNCHANGED x\n\
                Small == y < 3\nShallow == TLCGet(\"level\") < 6\n====\n";
    // TLC 2.15: 14 distinct, 29 generated; 15 distinct, 31 generated; 20 distinct, 41 generated.
    assert_eq!(check(text, "INIT Init\nNEXT Next\nCONSTRAINT Small Shallow\n"), (14, 29, false));
    assert_eq!(check(text, "INIT Init\nNEXT Next\nCONSTRAINT Small\n"), (15, 31, false));
    assert_eq!(check(text, "INIT Init\nNEXT Next\nCONSTRAINT Shallow\n"), (20, 41, false));
}

#[test]
fn tlcget_level_is_the_level_of_the_state_being_expanded_also_when_a_trace_is_rebuilt() {
    // As TLC 2.15 prints with PrintT: 0 while the initial states are computed and checked,
    // then the level of the state whose successors are computed (an initial state is at 1).
    // The counterexample is rebuilt by computing successors again: with the wrong level the
    // states would not be found again.
    let text = "---- MODULE M ----\nEXTENDS Naturals, TLC\nVARIABLES x, lv, seen\n\
                Init == x = 0 /\\ lv = TLCGet(\"level\") /\\ seen = 0\n\
                Next == x' = x + 1 /\\ lv' = TLCGet(\"level\") /\\ seen' = lv\n\
                Inv == x < 3 /\\ TLCGet(\"level\") = x\n====\n";
    common::with_model(text, "INIT Init\nNEXT Next\nINVARIANT Inv\n", |m| {
        let mut ex = Explorer::new(&*m, Options::default());
        match ex.run_to_end() {
            Outcome::InvariantViolated { trace, .. } => {
                let states: Vec<String> = trace.iter().map(|s| format!("{:?}", s.state.iter().map(|v| v.to_string()).collect::<Vec<_>>())).collect();
                assert_eq!(
                    states,
                    ["[\"0\", \"0\", \"0\"]", "[\"1\", \"1\", \"0\"]", "[\"2\", \"2\", \"1\"]", "[\"3\", \"3\", \"2\"]"]
                );
            }
            _ => panic!("expected a violation of Inv"),
        }
    });
}

#[test]
fn a_standard_operator_of_values_is_kept_only_on_constant_arguments() {
    // `Max(S)`, `Min(S)` and `BagCardinality(SetToBag(S))` read only the constant S and may be
    // kept; `Max({x + 1, 0})` reads x and must not be (kept, x' would stay 1). TLC 2.15, with
    // the community modules' TLA+ definitions: 4 distinct, 5 generated.
    let text = "---- MODULE M ----\nEXTENDS Naturals, FiniteSetsExt, Bags\nCONSTANT S\nVARIABLE x\nInit == x = 0\n\
                Next == x' = Max({x + 1, 0}) % 4 /\\ Max(S) = 5 /\\ BagCardinality(SetToBag(S)) = 2\n\
                Inv == Max({x, 1}) >= x /\\ Min(S) = 1\n====\n";
    assert_eq!(check(text, "CONSTANT S = {1, 5}\nINIT Init\nNEXT Next\nINVARIANT Inv\n"), (4, 5, false));
}
