//! Fixtures shared by the native tests and the wasm32 tests: the same values must give the
//! same fingerprints on every target.

use crate::intern::Interner;
use crate::value::Value;

/// A fixed list of values, each with its TLC-style text and fingerprint.
pub fn fingerprint_fixture() -> Vec<(String, u64)> {
    let mut t = Interner::new();
    let (a, b, c) = (t.intern("a"), t.intern("b"), t.intern("c"));
    let s = |x: &crate::intern::Str| Value::Str(x.clone());
    let i = Value::Int;
    let set = |v: Vec<Value>| Value::set(v).expect("fixture set");
    let tup = |v: Vec<Value>| Value::tuple(v).expect("fixture tuple");
    let values: Vec<Value> = vec![
        Value::Bool(false),
        Value::Bool(true),
        i(0),
        i(1),
        i(-1),
        i(i32::MAX),
        i(i32::MIN),
        s(&a),
        s(&t.intern("")),
        s(&t.intern("a longer string, more than eight bytes")),
        Value::model(t.intern("p1")),
        Value::empty_set(),
        set(vec![i(3), i(1), i(2)]),
        set(vec![set(vec![i(1)]), Value::empty_set()]),
        tup(vec![]),
        tup(vec![i(1), i(2)]),
        Value::record(vec![(a.clone(), i(1)), (b.clone(), s(&c))]).expect("fixture record"),
        Value::fcn(vec![(i(0), Value::Bool(true)), (i(5), Value::Bool(false))]).expect("fixture fcn"),
        Value::interval(1, 3),
        Value::subset(set(vec![i(1), i(2)])).expect("fixture subset"),
        tup(vec![tup(vec![s(&b)]), set(vec![s(&a), s(&b)])]),
    ];
    values
        .into_iter()
        .map(|v| {
            let fp = v.fingerprint().expect("fixture values are finite");
            (v.to_string(), fp)
        })
        .collect()
}
