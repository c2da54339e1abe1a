//! The standard module Bags on definitions of our own. The expected texts are what TLC 2.15
//! printed for the same definitions (`ASSUME PrintT(B01) /\ ... /\ PrintT(B12)`).

use tla_eval::ConstEval;
use tla_syntax::{parse_file, FileId};

const SPEC: &str = r#"---- MODULE BG ----
EXTENDS Naturals, Bags, TLC
B01 == SetToBag({"a", "b"})
B02 == BagToSet(SetToBag({3, 1}))
B03 == SetToBag({1, 2}) (+) SetToBag({2, 3})
B04 == (SetToBag({1, 2}) (+) SetToBag({2, 3})) (-) SetToBag({2, 5})
B05 == SetToBag({1}) (-) (SetToBag({1}) (+) SetToBag({1}))
B06 == BagUnion({SetToBag({1}), SetToBag({1, 2}), EmptyBag})
B07 == <<SetToBag({1}) \sqsubseteq SetToBag({1, 2}), (SetToBag({1}) (+) SetToBag({1})) \sqsubseteq SetToBag({1, 2})>>
B08 == SubBag(SetToBag({"x"}) (+) SetToBag({"x", "y"}))
B09 == BagOfAll(LAMBDA e : e % 2, SetToBag({1, 2, 3}))
B10 == <<BagCardinality(EmptyBag), BagCardinality(SetToBag({1, 2}) (+) SetToBag({2})), CopiesIn(2, SetToBag({1, 2}) (+) SetToBag({2})), CopiesIn(7, EmptyBag)>>
B11 == <<IsABag(SetToBag({1})), IsABag([x \in {1} |-> 0]), IsABag(<<>>), BagIn("a", SetToBag({"a"})), BagIn("b", EmptyBag)>>
B12 == BagOfAll(LAMBDA e : e * 0, SetToBag({1, 2}) (+) SetToBag({2}))
====
"#;

#[test]
fn bag_operators_evaluate_as_in_tlc() {
    let out = parse_file(FileId(0), SPEC);
    assert!(out.diagnostics.iter().all(|d| !d.is_error()), "{:?}", out.diagnostics);
    let ev = ConstEval::new(&out.modules);
    let expected = [
        ("B01", r#"[a |-> 1, b |-> 1]"#),
        ("B02", r#"{1, 3}"#),
        ("B03", r#"<<1, 2, 1>>"#),
        ("B04", r#"<<1, 1, 1>>"#),
        ("B05", r#"<<>>"#),
        ("B06", r#"<<2, 1>>"#),
        ("B07", r#"<<TRUE, FALSE>>"#),
        ("B08", r#"{<<>>, [x |-> 1], [x |-> 2], [y |-> 1], [x |-> 1, y |-> 1], [x |-> 2, y |-> 1]}"#),
        ("B09", r#"(0 :> 1 @@ 1 :> 2)"#),
        ("B10", r#"<<0, 3, 2, 0>>"#),
        ("B11", r#"<<TRUE, FALSE, TRUE, TRUE, FALSE>>"#),
        ("B12", r#"(0 :> 3)"#),
    ];
    let mut wrong = Vec::new();
    for (name, want) in expected {
        match ev.eval_def(name) {
            Ok(v) if v.to_string() == want => {}
            Ok(v) => wrong.push(format!("{name}: got {v}, TLC {want}")),
            Err(e) => wrong.push(format!("{name}: error {e}, TLC {want}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn bag_operators_on_values_that_are_not_bags_are_errors() {
    for body in ["BagToSet(3)", "CopiesIn(1, {1})", "SetToBag({1}) (+) 2"] {
        let text = format!("---- MODULE Err ----\nEXTENDS Naturals, Bags\nX == {body}\n====\n");
        let out = parse_file(FileId(0), &text);
        let ev = ConstEval::new(&out.modules);
        let e = ev.eval_def("X").expect_err(body);
        assert_eq!(e.code, tla_eval::error::codes::TYPE, "{body}: {e}");
    }
}
