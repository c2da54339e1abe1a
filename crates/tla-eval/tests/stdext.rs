//! TLC's `SortSeq` and the community modules' operators (Folds, Functions, FiniteSetsExt,
//! SequencesExt) on specs of our own, tests/data/stdext/*.tla.
//!
//! In those specs the comment `\* TLC: value` above a definition is what TLC 2.15 printed for
//! it (`ASSUME PrintT(<<"Name", Name>>)` in a module extending the spec, with the community
//! modules' own .tla files next to it, so TLC evaluated their TLA+ definitions), and
//! `\* TLC error: message` is the error TLC stopped with; the error codes we give for those
//! cases are listed below.

use tla_eval::error::codes;
use tla_eval::ConstEval;
use tla_syntax::{parse_file, FileId};

/// A definition of a data spec and what TLC said of it.
enum Expect {
    Value(String),
    Error,
}

/// The cases of `text`: each definition with a `\* TLC...` comment on the line above it.
fn cases(text: &str) -> Vec<(String, Expect)> {
    let mut out = Vec::new();
    let mut pending = None;
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("\\* TLC: ") {
            // TLC prints an empty function that is not a tuple as `<< >>`; every function
            // with an empty domain is the empty sequence to us.
            pending = Some(Expect::Value(v.replace("<< >>", "<<>>")));
        } else if line.starts_with("\\* TLC error: ") {
            pending = Some(Expect::Error);
        } else if let Some((name, _)) = line.split_once(" ==")
            && let Some(e) = pending.take()
        {
            out.push((name.to_string(), e));
        }
    }
    out
}

/// The error code we give for each case that fails on purpose.
const ERRORS: &[(&str, &str)] = &[
    // SortSeq
    ("ErrSortSet", codes::TYPE),
    ("ErrSortNotBool", codes::TYPE),
    ("ErrSortIncomparable", codes::TYPE),
    // FiniteSetsExt
    ("ErrMaxEmpty", codes::CHOOSE_NONE),
    ("ErrMinEmpty", codes::CHOOSE_NONE),
    ("ErrMaxNotInt", codes::TYPE),
    ("ErrChooseUniqueTwo", codes::CHOOSE_NONE),
    ("ErrChooseUniqueNone", codes::CHOOSE_NONE),
    ("ErrSumSetNotInt", codes::INCOMPARABLE),
    ("ErrSumSetOverflow", codes::OVERFLOW),
    ("ErrQuantifyNotBool", codes::TYPE),
    // Functions
    ("ErrRestrictOutside", codes::NOT_IN_DOMAIN),
    ("ErrInverseNoSource", codes::CHOOSE_NONE),
    ("ErrSumFunctionNotInt", codes::TYPE),
    ("ErrPointwiseShorter", codes::NOT_IN_DOMAIN),
    ("ErrRangeNotFcn", codes::TYPE),
    // SequencesExt
    ("ErrLastEmpty", codes::NOT_IN_DOMAIN),
    ("ErrIndexFirstSubSeqAbsent", codes::CHOOSE_NONE),
    ("ErrInterleaveLengths", codes::CASE_NONE),
    ("ErrRemoveAtOutside", codes::NOT_IN_DOMAIN),
    ("ErrReverseSet", codes::TYPE),
    ("ErrSeqModZero", codes::ARITH),
    ("ErrFoldLeftRecord", codes::TYPE),
];

/// Evaluates every case of the data spec `file` (compiled and interpreted) against TLC's answer.
fn check(file: &str) {
    let path = format!("{}/tests/data/stdext/{}", env!("CARGO_MANIFEST_DIR"), file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let out = parse_file(FileId(0), &text);
    assert!(out.diagnostics.iter().all(|d| !d.is_error()), "{:?}", out.diagnostics);
    let all = cases(&text);
    assert!(all.len() >= 20, "{file}: only {} cases found", all.len());
    let mut wrong = Vec::new();
    for compiling in [true, false] {
        let mut ev = ConstEval::new(&out.modules);
        ev.set_compiling(compiling);
        for (name, want) in &all {
            let got = ev.eval_def(name);
            match (want, got) {
                (Expect::Value(w), Ok(v)) if v.to_string() == *w => {}
                (Expect::Value(w), Ok(v)) => wrong.push(format!("{name}: got {v}, TLC {w}")),
                (Expect::Value(w), Err(e)) => wrong.push(format!("{name}: error {e}, TLC {w}")),
                (Expect::Error, Ok(v)) => wrong.push(format!("{name}: got {v}, TLC stops with an error")),
                (Expect::Error, Err(e)) => match ERRORS.iter().find(|(n, _)| n == name) {
                    Some((_, code)) if e.code == *code => {}
                    Some((_, code)) => wrong.push(format!("{name}: error {} ({e}), expected {code}", e.code)),
                    None => wrong.push(format!("{name}: no expected error code listed ({e})")),
                },
            }
        }
    }
    assert!(wrong.is_empty(), "{file}:\n{}", wrong.join("\n"));
}

#[test]
fn sort_seq_as_in_tlc() {
    check("SortSeqCases.tla");
}

#[test]
fn finite_sets_ext_and_folds_as_in_tlc() {
    check("FiniteSetsExtCases.tla");
}

#[test]
fn functions_as_in_tlc() {
    check("FunctionsCases.tla");
}

#[test]
fn sequences_ext_as_in_tlc() {
    check("SequencesExtCases.tla");
}

/// `X` of a module extending the community modules, with `defs` before it.
fn eval_x(defs: &str) -> Result<String, tla_eval::ValueError> {
    let text = format!("---- MODULE M ----\nEXTENDS Integers, Sequences, SequencesExt, FiniteSetsExt, Functions, Folds, TLC\n{defs}\n====\n");
    let out = parse_file(FileId(0), &text);
    assert!(out.diagnostics.iter().all(|d| !d.is_error()), "{:?}", out.diagnostics);
    let ev = ConstEval::new(&out.modules);
    ev.eval_def("X").map(|v| v.to_string())
}

#[test]
fn operator_arguments_of_the_wrong_arity_are_errors() {
    // TLC's front end rejects these before evaluation ("Lambda expression with arity 1 used as
    // argument 2 of operator `SortSeq', but an operator of arity 2 is required.").
    for x in [
        "X == SortSeq(<<1, 2>>, LAMBDA a : TRUE)",
        "X == FoldSet(LAMBDA a : a, 0, {1})",
        "X == RestrictDomain(<<1>>, LAMBDA a, b : TRUE)",
        "X == IsSorted(<<1, 2>>, LAMBDA a : TRUE)",
        "Lt(a) == TRUE\nX == SortSeq(<<1, 2>>, Lt)",
        "X == Quantify({1}, <)",
    ] {
        assert_eq!(eval_x(x).unwrap_err().code, codes::ARITY, "{x}");
    }
}

#[test]
fn a_module_s_own_definition_wins_over_the_community_operator() {
    assert_eq!(eval_x("Max(S) == 42\nX == Max({1, 2})").unwrap(), "42");
    assert_eq!(eval_x("Range(a, b) == a..b\nX == Range(1, 3)").unwrap(), "1..3");
    assert_eq!(eval_x("SortSeq(s, Op(_, _)) == s\nX == SortSeq(<<2, 1>>, LAMBDA a, b : a < b)").unwrap(), "<<2, 1>>");
}

#[test]
fn operators_passed_on_by_parameters_and_let() {
    // An operator parameter handed on to a community operator, and a LET operator. (A
    // built-in operator such as `>` is accepted by the community operators themselves, but
    // not yet as the argument of a module's own operator: see `op_arg`.)
    let defs = "Sorted(s, Op(_, _)) == SortSeq(s, Op)\nX == <<Sorted(<<2, 3, 1>>, LAMBDA a, b : a > b), LET Big(n) == n > 1 IN Quantify(1..5, Big)>>";
    assert_eq!(eval_x(defs).unwrap(), "<<<<3, 2, 1>>, 4>>");
}
