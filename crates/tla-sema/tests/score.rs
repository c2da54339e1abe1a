//! SysMoBench's syntax score: 1.0 for a clean module, else
//! 0.5 × (top-level definitions that parse and check on their own, unknown names stubbed)
//! / (all top-level definitions).

use tla_sema::{analyze, Library, SyntaxScore};
use tla_syntax::SourceMap;

fn score_of(text: &str) -> SyntaxScore {
    let mut sources = SourceMap::new();
    let root = sources.add("Model.tla", text);
    analyze(&mut sources, root, &Library::new()).score
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A ring of processes passing a token: 23 top-level definitions when complete (SANY accepts
/// the complete module, and reports only the intended errors in the variants below).
/// `broken` replaces the definitions named in it by the given text.
fn ring_module(broken: &[(&str, &str)]) -> String {
    let defs: Vec<(&str, &str)> = vec![
        ("Procs", "Procs == 1..N"),
        ("Succ", "Succ(p) == IF p = N THEN 1 ELSE p + 1"),
        ("Pred", "Pred(p) == IF p = 1 THEN N ELSE p - 1"),
        ("States", "States == {\"idle\", \"waiting\", \"critical\"}"),
        ("vars", "vars == <<token, pc, served>>"),
        ("TypeOK", "TypeOK == /\\ token \\in Procs\n          /\\ pc \\in [Procs -> States]\n          /\\ served \\in Nat"),
        ("Init", "Init == /\\ token = 1\n        /\\ pc = [p \\in Procs |-> \"idle\"]\n        /\\ served = 0"),
        ("HasToken", "HasToken(p) == token = p"),
        ("Waiting", "Waiting == {p \\in Procs : pc[p] = \"waiting\"}"),
        ("Critical", "Critical == {p \\in Procs : pc[p] = \"critical\"}"),
        ("Request", "Request(p) == /\\ pc[p] = \"idle\"\n              /\\ pc' = [pc EXCEPT ![p] = \"waiting\"]\n              /\\ UNCHANGED <<token, served>>"),
        ("Enter", "Enter(p) == /\\ pc[p] = \"waiting\"\n            /\\ HasToken(p)\n            /\\ pc' = [pc EXCEPT ![p] = \"critical\"]\n            /\\ UNCHANGED <<token, served>>"),
        ("Leave", "Leave(p) == /\\ pc[p] = \"critical\"\n            /\\ pc' = [pc EXCEPT ![p] = \"idle\"]\n            /\\ served' = served + 1\n            /\\ UNCHANGED token"),
        ("Pass", "Pass(p) == /\\ HasToken(p)\n           /\\ pc[p] /= \"critical\"\n           /\\ token' = Succ(p)\n           /\\ UNCHANGED <<pc, served>>"),
        ("Next", "Next == \\E p \\in Procs : Request(p) \\/ Enter(p) \\/ Leave(p) \\/ Pass(p)"),
        ("Fairness", "Fairness == \\A p \\in Procs : WF_vars(Pass(p)) /\\ WF_vars(Enter(p))"),
        ("Spec", "Spec == Init /\\ [][Next]_vars /\\ Fairness"),
        ("Mutex", "Mutex == \\A p, q \\in Procs : (pc[p] = \"critical\" /\\ pc[q] = \"critical\") => p = q"),
        ("OnlyHolder", "OnlyHolder == \\A p \\in Critical : HasToken(p)"),
        ("Progress", "Progress == \\A p \\in Procs : pc[p] = \"waiting\" ~> pc[p] = \"critical\""),
        ("TokenMoves", "TokenMoves == [][token' \\in {token, Succ(token)}]_vars"),
        ("Bounded", "Bounded == served <= 100"),
        ("Depth", "Depth[k \\in Nat] == IF k = 0 THEN 0 ELSE 1 + Depth[k - 1]"),
    ];
    assert_eq!(defs.len(), 23);
    let mut text = String::from("---- MODULE Model ----\nEXTENDS Naturals\nCONSTANT N\nVARIABLES token, pc, served\n\n");
    for (name, def) in defs {
        let body = broken.iter().find(|(n, _)| *n == name).map(|(_, b)| *b).unwrap_or(def);
        text.push_str(body);
        text.push_str("\n\n");
    }
    text.push_str("====\n");
    text
}

#[test]
fn clean_module_scores_one() {
    let s = score_of(&ring_module(&[]));
    assert!(s.clean, "{s:?}");
    assert_eq!(s.total, 23, "{s:?}");
    assert_eq!(s.parsed, 23, "{s:?}");
    assert_eq!(s.score, 1.0);
}

#[test]
fn two_broken_definitions_of_23_score_0_4565() {
    // One definition does not parse (`!=` is not TLA+); another parses but applies an operator
    // of one parameter to two arguments: neither checks on its own.
    let s = score_of(&ring_module(&[
        ("Bounded", "Bounded == served != 100"),
        ("OnlyHolder", "OnlyHolder == \\A p \\in Critical : HasToken(p, token)"),
    ]));
    assert!(!s.clean, "{s:?}");
    assert_eq!((s.parsed, s.total), (21, 23), "{s:?}");
    assert_eq!(round4(s.score), 0.4565, "{s:?}");
}

#[test]
fn unknown_names_are_stubbed() {
    // `Len` and `Cardinality` are unknown here (no Sequences, no FiniteSets): the module is not
    // clean, but both definitions still count as parsing.
    let s = score_of(&ring_module(&[
        ("Bounded", "Bounded == served <= Len(pc)"),
        ("Waiting", "Waiting == {p \\in Procs : pc[p] = \"waiting\" /\\ Cardinality(Procs) > 1}"),
    ]));
    assert!(!s.clean, "{s:?}");
    assert_eq!((s.parsed, s.total), (23, 23), "{s:?}");
    assert_eq!(s.score, 0.5);
}

#[test]
fn one_parse_error_of_23() {
    let s = score_of(&ring_module(&[("Pred", "Pred(p) == IF p = 1 THEN N ELSE p - 1)")]));
    assert!(!s.clean, "{s:?}");
    assert_eq!((s.parsed, s.total), (22, 23), "{s:?}");
    assert_eq!(round4(s.score), round4(0.5 * 22.0 / 23.0));
}

#[test]
fn module_that_fails_entirely_scores_zero() {
    // No module at all.
    let s = score_of("EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = x + 1\n");
    assert!(!s.clean, "{s:?}");
    assert_eq!(s.score, 0.0, "{s:?}");
    // A module whose every definition fails to parse (SANY: parse error).
    let s = score_of(
        "---- MODULE Model ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = (0\nNext == x' = x + + 1\nInv == x >= 0 /\\\n====\n",
    );
    assert!(!s.clean, "{s:?}");
    assert_eq!(s.parsed, 0, "{s:?}");
    assert_eq!(s.score, 0.0, "{s:?}");
}

/// An IF without ELSE at the end of a definition is reported at the token that ends it, the first
/// token of the next definition: the error is the broken definition's alone, and a definition
/// that uses the broken one still counts (its name is stubbed).
#[test]
fn an_error_reported_at_the_next_definition_counts_against_the_broken_one_only() {
    let s = score_of(&ring_module(&[("Pred", "Pred(p) == IF p = 1 THEN N")]));
    assert!(!s.clean, "{s:?}");
    assert_eq!((s.parsed, s.total), (22, 23), "{s:?}");
}
