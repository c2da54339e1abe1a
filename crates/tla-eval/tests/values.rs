//! Value semantics checked against TLC 2.15. Each expectation below was first observed with
//! TLC on a tiny spec (`ASSUME PrintT(expr)`, or a two-line Init/Next for state counts); the
//! TLC output is quoted next to the assertion.

use std::sync::Arc;

use tla_eval::error::codes;
use tla_eval::{arith, Interner, SetPredicate, Str, VResult, Value};

fn i(n: i32) -> Value {
    Value::Int(n)
}
fn set(v: Vec<Value>) -> Value {
    Value::set(v).unwrap()
}
fn tup(v: Vec<Value>) -> Value {
    Value::tuple(v).unwrap()
}
fn ints(v: &[i32]) -> Value {
    set(v.iter().map(|n| i(*n)).collect())
}
fn s(t: &mut Interner, x: &str) -> Value {
    Value::Str(t.intern(x))
}
fn elements(v: &Value) -> Vec<String> {
    v.elements().unwrap().map(|e| e.unwrap().to_string()).collect()
}
/// CHOOSE x \in S : P, the way TLC does it: first element in normalized order.
fn choose(set: &Value, p: impl Fn(&Value) -> bool) -> Option<Value> {
    set.to_set().unwrap().elems().iter().find(|e| p(e)).cloned()
}

#[test]
fn equality_across_forms() {
    let mut t = Interner::new();
    // TLC: <<1, 2>> = [i \in 1..2 |-> i]  is TRUE
    let t12 = tup(vec![i(1), i(2)]);
    let f12 = Value::fcn(vec![(i(2), i(2)), (i(1), i(1))]).unwrap();
    assert!(t12.tlc_eq(&f12).unwrap());
    assert_eq!(t12.fingerprint().unwrap(), f12.fingerprint().unwrap());
    assert!(matches!(f12, Value::Seq(_)), "a function over 1..n is stored as a sequence");
    // TLC: [a |-> 1] = [x \in {"a"} |-> 1]  is TRUE
    let a = t.intern("a");
    let r = Value::record(vec![(a.clone(), i(1))]).unwrap();
    let f = Value::fcn(vec![(Value::Str(a.clone()), i(1))]).unwrap();
    assert!(r.tlc_eq(&f).unwrap());
    assert_eq!(r.fingerprint().unwrap(), f.fingerprint().unwrap());
    // TLC: [x \in {} |-> 1] = <<>>  is TRUE (and prints as << >>)
    let empty_fn = Value::fcn(vec![]).unwrap();
    assert!(empty_fn.tlc_eq(&tup(vec![])).unwrap());
    // TLC: <<>> = {}  "Attempted to check equality of the function << >> with the value: {}"
    assert_eq!(tup(vec![]).tlc_eq(&Value::empty_set()).unwrap_err().code, codes::INCOMPARABLE);
    assert_eq!(Value::empty_set().tlc_eq(&tup(vec![])).unwrap_err().code, codes::INCOMPARABLE);
    // TLC: [x \in {0, 1} |-> x] = <<0, 1>>  is FALSE (no error: domains differ)
    let f01 = Value::fcn(vec![(i(0), i(0)), (i(1), i(1))]).unwrap();
    assert!(!f01.tlc_eq(&tup(vec![i(0), i(1)])).unwrap());
    // TLC: <<1>> = [a |-> 1]  "Attempted to compare an integer with non-integer"
    assert!(tup(vec![i(1)]).tlc_eq(&r).is_err());
    // TLC: {1, 2} \in {1..2}  is TRUE (an interval equals the enumerated set)
    let ss = set(vec![Value::interval(1, 2)]);
    assert!(ss.member(&ints(&[1, 2])).unwrap());
    assert_eq!(Value::interval(1, 2).fingerprint().unwrap(), ints(&[2, 1]).fingerprint().unwrap());
    // TLC: 10..1 = {}  is TRUE
    assert!(Value::interval(10, 1).tlc_eq(&Value::empty_set()).unwrap());
}

#[test]
fn canonical_nested_sets() {
    // A set of sets built in two orders: same elements, same text, same fingerprint.
    let a = set(vec![ints(&[3, 1]), ints(&[2]), ints(&[]), ints(&[1, 3])]);
    let b = set(vec![ints(&[]), ints(&[1, 3]), ints(&[2]), ints(&[3, 1]), ints(&[2])]);
    assert_eq!(format!("{:?}", a), format!("{:?}", b));
    assert_eq!(a.to_string(), "{{}, {2}, {1, 3}}");
    assert_eq!(a.fingerprint().unwrap(), b.fingerprint().unwrap());
    // TLC: {{3}, {1,2}, {2}, {1,3}} prints {{2}, {3}, {1, 2}, {1, 3}} (cardinality first)
    assert_eq!(set(vec![ints(&[3]), ints(&[1, 2]), ints(&[2]), ints(&[1, 3])]).to_string(), "{{2}, {3}, {1, 2}, {1, 3}}");
    // TLC: {<<2,1>>, <<1,2,3>>, <<1,3>>, <<>>} prints {<<>>, <<1, 3>>, <<2, 1>>, <<1, 2, 3>>}
    let tuples = set(vec![tup(vec![i(2), i(1)]), tup(vec![i(1), i(2), i(3)]), tup(vec![i(1), i(3)]), tup(vec![])]);
    assert_eq!(tuples.to_string(), "{<<>>, <<1, 3>>, <<2, 1>>, <<1, 2, 3>>}");
    // TLC: {[x \in {1,2} |-> 1], <<5>>, <<1, 1>>} prints {<<5>>, <<1, 1>>}
    let f11 = Value::fcn(vec![(i(1), i(1)), (i(2), i(1))]).unwrap();
    assert_eq!(set(vec![f11, tup(vec![i(5)]), tup(vec![i(1), i(1)])]).to_string(), "{<<5>>, <<1, 1>>}");
    // Distinct values, distinct fingerprints.
    assert_ne!(ints(&[1, 2]).fingerprint().unwrap(), ints(&[1, 3]).fingerprint().unwrap());
    assert_ne!(ints(&[]).fingerprint().unwrap(), tup(vec![]).fingerprint().unwrap());
}

#[test]
fn strings_sort_by_intern_order() {
    let mut t = Interner::new();
    // TLC: {"zeta", "alpha", "mid"} prints in that order; CHOOSE x \in {"zeta","alpha"}: TRUE = "zeta"
    let v = set(vec![s(&mut t, "zeta"), s(&mut t, "alpha"), s(&mut t, "mid")]);
    assert_eq!(v.to_string(), r#"{"zeta", "alpha", "mid"}"#);
    assert_eq!(choose(&v, |_| true).unwrap().to_string(), r#""zeta""#);
    // TLC: [b |-> 1, a |-> 2] prints [a |-> 2, b |-> 1] (a, b interned earlier by the standard modules)
    let mut t2 = Interner::new();
    let (a, b) = (t2.intern("a"), t2.intern("b"));
    let r = Value::record(vec![(b.clone(), i(1)), (a.clone(), i(2))]).unwrap();
    assert_eq!(r.to_string(), "[a |-> 2, b |-> 1]");
    // A string built at run time finds its rank when the table holds its text.
    assert_eq!(t2.get("b"), b);
    assert!(t2.get("zz").rank() > b.rank());
}

#[test]
fn model_values() {
    let mut t = Interner::new();
    // cfg: P = {zb, za, zc}. TLC: P prints {zb, za, zc}; CHOOSE p \in P : TRUE = zb
    let p = set(["zb", "za", "zc"].iter().map(|n| Value::model(t.intern(n))).collect());
    assert_eq!(p.to_string(), "{zb, za, zc}");
    assert_eq!(choose(&p, |_| true).unwrap().to_string(), "zb");
    // TLC: {q1, 1, 2} prints {q1, 1, 2}; {"s", q1} prints {q1, "s"}; q1 = 1 is FALSE; {q1} = {{1}} FALSE
    let q1 = Value::model(t.intern("q1"));
    assert_eq!(set(vec![i(2), q1.clone(), i(1)]).to_string(), "{q1, 1, 2}");
    assert_eq!(set(vec![s(&mut t, "s"), q1.clone()]).to_string(), r#"{q1, "s"}"#);
    assert!(!q1.tlc_eq(&i(1)).unwrap());
    assert!(!set(vec![q1.clone()]).tlc_eq(&set(vec![ints(&[1])])).unwrap());
    // Typed model values compare only with their type or untyped ones.
    let x1 = Value::model(t.intern("x_1"));
    let x2 = Value::model(t.intern("x_2"));
    let a1 = Value::model(t.intern("a_1"));
    assert!(!x1.tlc_eq(&x2).unwrap());
    assert!(!x1.tlc_eq(&q1).unwrap());
    assert_eq!(x1.tlc_eq(&a1).unwrap_err().code, codes::INCOMPARABLE);
    assert_eq!(x1.tlc_eq(&i(1)).unwrap_err().code, codes::INCOMPARABLE);
    assert!(Value::set(vec![x1, i(1)]).is_err());
}

#[test]
fn incomparable_values_are_errors() {
    let mut t = Interner::new();
    // TLC: {1, "a"} fails ("Attempted to compare integer 1 with non-integer"); 1 = "a" fails;
    // 1 \in {"a"} fails; {<<1>>, <<"a">>} fails; {[a |-> 1], <<1>>} fails; {{1}, <<1>>} fails.
    let a = s(&mut t, "a");
    assert_eq!(Value::set(vec![i(1), a.clone()]).unwrap_err().code, codes::INCOMPARABLE);
    assert_eq!(i(1).tlc_eq(&a).unwrap_err().code, codes::INCOMPARABLE);
    assert!(set(vec![a.clone()]).member(&i(1)).is_err());
    assert!(Value::set(vec![tup(vec![i(1)]), tup(vec![a.clone()])]).is_err());
    let ra = Value::record(vec![(t.intern("a"), i(1))]).unwrap();
    assert!(Value::set(vec![ra, tup(vec![i(1)])]).is_err());
    assert!(Value::set(vec![ints(&[1]), tup(vec![i(1)])]).is_err());
    // Many mixed elements: still an error, never a panic.
    let mut mixed: Vec<Value> = (0..100).map(i).collect();
    mixed.insert(37, a);
    assert!(Value::set(mixed).is_err());
}

#[test]
fn integer_arithmetic_like_tlc() {
    // TLC: (-7) \div 2, (-7) % 2, 7 \div (-2), (-7) \div (-2), 7 \div 2, 7 % 2, (-8) \div 2, (-8) % 2
    //    = -4, 1, -4, 3, 3, 1, -4, 0
    let got = [
        arith::div(-7, 2),
        arith::modulo(-7, 2),
        arith::div(7, -2),
        arith::div(-7, -2),
        arith::div(7, 2),
        arith::modulo(7, 2),
        arith::div(-8, 2),
        arith::modulo(-8, 2),
    ]
    .map(|r| r.unwrap());
    assert_eq!(got, [-4, 1, -4, 3, 3, 1, -4, 0]);
    // TLC: 7 % (-2), 5 % 0 -> "The second argument of % should be a positive number"
    assert_eq!(arith::modulo(7, -2).unwrap_err().code, codes::ARITH);
    assert_eq!(arith::modulo(5, 0).unwrap_err().code, codes::ARITH);
    // TLC: 5 \div 0 -> "The second argument of \div is 0."
    assert_eq!(arith::div(5, 0).unwrap_err().code, codes::ARITH);
    // TLC: "Overflow when computing 2147483647+1" and friends
    assert_eq!(arith::add(i32::MAX, 1).unwrap_err().message, "Overflow when computing 2147483647+1");
    assert_eq!(arith::pow(2, 31).unwrap_err().message, "Overflow when computing 2^31");
    assert_eq!(arith::mul(1 << 30, 2).unwrap_err().code, codes::OVERFLOW);
    assert_eq!(arith::sub(-2147483647, 2).unwrap_err().code, codes::OVERFLOW);
    assert_eq!(arith::div(i32::MIN, -1).unwrap_err().code, codes::OVERFLOW);
    assert_eq!(arith::neg(i32::MIN).unwrap_err().code, codes::OVERFLOW);
    assert_eq!(arith::mul(100000, 100000).unwrap_err().code, codes::OVERFLOW);
    // TLC: 2147483647 and -2147483647 - 1 are fine; the literal 2147483648 is refused.
    assert_eq!(arith::sub(-2147483647, 1).unwrap(), i32::MIN);
    assert_eq!(arith::literal(2147483648).unwrap_err().code, codes::OVERFLOW);
    // TLC: 2^0 = 1, (-2)^3 = -8, 0^0 undefined, 2^(-1) an error; (-2)^31 fits.
    assert_eq!(arith::pow(2, 0).unwrap(), 1);
    assert_eq!(arith::pow(-2, 3).unwrap(), -8);
    assert_eq!(arith::pow(-2, 31).unwrap(), i32::MIN);
    assert_eq!(arith::pow(-1, i32::MAX).unwrap(), -1);
    assert!(arith::pow(0, 0).is_err());
    assert!(arith::pow(2, -1).is_err());
}

#[test]
fn subset_order_and_cardinality() {
    // TLC: SUBSET {1,2,3} prints {{}, {1}, {2}, {3}, {1, 2}, {1, 3}, {2, 3}, {1, 2, 3}}
    let p = Value::subset(ints(&[3, 2, 1])).unwrap();
    assert_eq!(elements(&p).join(", "), "{}, {1}, {2}, {3}, {1, 2}, {1, 3}, {2, 3}, {1, 2, 3}");
    assert_eq!(p.cardinality().unwrap(), 8);
    assert_eq!(Value::subset(Value::interval(1, 20)).unwrap().cardinality().unwrap(), 1 << 20);
    // Enumeration order is the normalized order (what CHOOSE uses).
    let normalized: Vec<String> = p.to_set().unwrap().elems().iter().map(|e| e.to_string()).collect();
    assert_eq!(normalized, elements(&p));
    // TLC: CHOOSE s \in SUBSET {1,2,3} : Cardinality(s) = 2  is {1, 2}
    assert_eq!(choose(&p, |e| e.cardinality().unwrap() == 2).unwrap().to_string(), "{1, 2}");
    // TLC: CHOOSE x \in {{1,2},{3}} : TRUE  is {3}
    assert_eq!(choose(&set(vec![ints(&[1, 2]), ints(&[3])]), |_| true).unwrap().to_string(), "{3}");
    // SUBSET {} = {{}}
    assert_eq!(elements(&Value::subset(Value::empty_set()).unwrap()), vec!["{}"]);
}

#[test]
fn function_set_and_record_set_order() {
    let mut t = Interner::new();
    t.intern("v"); // the standard modules intern an identifier v before a spec's "u"
    let (u, v) = (s(&mut t, "u"), s(&mut t, "v"));
    // TLC: [{1,2} -> {"u","v"}] prints {<<"v", "v">>, <<"v", "u">>, <<"u", "v">>, <<"u", "u">>}
    let fs = Value::fcn_set(ints(&[1, 2]), set(vec![u.clone(), v.clone()])).unwrap();
    assert_eq!(elements(&fs).join(", "), r#"<<"v", "v">>, <<"v", "u">>, <<"u", "v">>, <<"u", "u">>"#);
    assert_eq!(fs.cardinality().unwrap(), 4);
    assert_eq!(fs.to_set().unwrap().len(), 4);
    // Odometer: the last domain element turns fastest.
    let f3 = Value::fcn_set(ints(&[0, 5]), Value::interval(1, 2)).unwrap();
    assert_eq!(elements(&f3).join(" "), "(0 :> 1 @@ 5 :> 1) (0 :> 1 @@ 5 :> 2) (0 :> 2 @@ 5 :> 1) (0 :> 2 @@ 5 :> 2)");
    assert_eq!(Value::fcn_set(Value::empty_set(), ints(&[1])).unwrap().to_set().unwrap().len(), 1);
    assert_eq!(Value::fcn_set(ints(&[1]), Value::empty_set()).unwrap().cardinality().unwrap(), 0);
    // TLC (a, b interned first): [b : {1,2}, a : {3}] prints {[a |-> 3, b |-> 1], [a |-> 3, b |-> 2]}
    let mut t2 = Interner::new();
    let (a, b) = (t2.intern("a"), t2.intern("b"));
    let rs = Value::record_set(vec![(b, ints(&[1, 2])), (a, ints(&[3]))]).unwrap();
    assert_eq!(elements(&rs).join(", "), "[a |-> 3, b |-> 1], [a |-> 3, b |-> 2]");
    // \X: odometer over positions
    let prod = Value::product(vec![ints(&[1, 2]), ints(&[3, 4])]).unwrap();
    assert_eq!(elements(&prod).join(" "), "<<1, 3>> <<1, 4>> <<2, 3>> <<2, 4>>");
    assert_eq!(prod.cardinality().unwrap(), 4);
    // Too large to count in TLC's integers: an error, not a wrap.
    let big = Value::fcn_set(Value::interval(1, 40), ints(&[0, 1])).unwrap();
    assert_eq!(big.cardinality().unwrap_err().code, codes::TOO_LARGE);
}

#[test]
fn lazy_membership_never_enumerates() {
    let mut t = Interner::new();
    // TLC: <<1,2>> \in Seq(Nat), [i \in 1..2 |-> i] \in Seq(Nat), {1} \in SUBSET Nat,
    //      [x \in {1,2} |-> 3] \in [{1,2} -> Nat]: all TRUE. Nat cannot be enumerated, so these
    //      can only pass if membership does not enumerate.
    let seq_nat = Value::seq_set(Value::nat()).unwrap();
    assert!(seq_nat.member(&tup(vec![i(1), i(2)])).unwrap());
    assert!(seq_nat.member(&tup(vec![])).unwrap());
    assert!(!seq_nat.member(&tup(vec![i(-1)])).unwrap());
    assert!(Value::subset(Value::nat()).unwrap().member(&ints(&[1])).unwrap());
    assert!(!Value::subset(Value::nat()).unwrap().member(&ints(&[-1])).unwrap());
    let f = Value::fcn(vec![(i(1), i(3)), (i(2), i(3))]).unwrap();
    assert!(Value::fcn_set(ints(&[1, 2]), Value::nat()).unwrap().member(&f).unwrap());
    assert!(!Value::fcn_set(ints(&[1, 2, 3]), Value::nat()).unwrap().member(&f).unwrap());
    // TLC: <<1,2>> \in [1..2 -> Nat] is TRUE
    assert!(Value::fcn_set(Value::interval(1, 2), Value::nat()).unwrap().member(&tup(vec![i(1), i(2)])).unwrap());
    // A big SUBSET: membership is by elements, not by enumerating 2^200 subsets.
    assert!(Value::subset(Value::interval(1, 200)).unwrap().member(&ints(&[5, 100])).unwrap());
    // TLC: [a |-> 1] \in [a : Nat] TRUE; [a |-> 1, b |-> 2] \in [a : Nat] FALSE
    let a = t.intern("a");
    let b = t.intern("b");
    let rs = Value::record_set(vec![(a.clone(), Value::nat())]).unwrap();
    assert!(rs.member(&Value::record(vec![(a.clone(), i(1))]).unwrap()).unwrap());
    assert!(!rs.member(&Value::record(vec![(a.clone(), i(1)), (b, i(2))]).unwrap()).unwrap());
    // TLC: "a" \in Nat, "a" \in 1..3, 1 \in Seq(Nat), <<1, "a">> \in Seq(Nat): errors
    let sa = Value::Str(a);
    assert!(Value::nat().member(&sa).is_err());
    assert!(Value::interval(1, 3).member(&sa).is_err());
    assert!(seq_nat.member(&i(1)).is_err());
    assert!(seq_nat.member(&tup(vec![i(1), sa.clone()])).is_err());
    // Untyped model values are simply not members.
    assert!(!Value::nat().member(&Value::model(t.intern("m"))).unwrap());
    // Enumerating an infinite set is an error.
    assert_eq!(Value::nat().elements().err().unwrap().code, codes::NOT_ENUMERABLE);
    assert_eq!(seq_nat.fingerprint().unwrap_err().code, codes::NOT_ENUMERABLE);
    // TLC: Nat = Nat is TRUE
    assert!(Value::nat().tlc_eq(&Value::nat()).unwrap());
}

#[test]
fn union_intersection_difference() {
    // TLC: (1..3) \cup {7, 0} prints {0, 1, 2, 3, 7}; UNION {{1,2},{2,3}} = {1, 2, 3}
    assert_eq!(Value::cup(Value::interval(1, 3), ints(&[7, 0])).unwrap().to_string(), "{0, 1, 2, 3, 7}");
    assert_eq!(Value::union_of(set(vec![ints(&[1, 2]), ints(&[2, 3])])).unwrap().to_string(), "{1, 2, 3}");
    // Finite sets are combined at once: \E v \in {1,2} \cup {2,3} fans out 3 ways
    // (TLC: 13 states generated, 4 distinct, from x = 0).
    assert_eq!(elements(&Value::cup(ints(&[1, 2]), ints(&[2, 3])).unwrap()).len(), 3);
    // The union of two finite sets is canonical, whatever their overlap: the same bytes and
    // fingerprint as the set of all elements built at once.
    let mut tt = Interner::new();
    let (a, b) = (s(&mut tt, "a"), s(&mut tt, "b"));
    let pair = |x: i32, y: &Value| tup(vec![i(x), y.clone()]);
    let cases: Vec<(Vec<Value>, Vec<Value>)> = vec![
        (vec![i(5), i(1), i(3)], vec![i(4), i(3), i(0), i(9)]),
        (vec![], vec![i(2)]),
        (vec![i(2), i(1)], vec![]),
        (vec![pair(2, &a), pair(1, &b)], vec![pair(1, &b), pair(1, &a), pair(3, &a)]),
        (vec![ints(&[1, 2]), ints(&[])], vec![ints(&[2]), ints(&[1, 2])]),
    ];
    for (x, y) in cases {
        let whole = set(x.iter().chain(y.iter()).cloned().collect());
        let u = Value::cup(set(x.clone()), set(y.clone())).unwrap();
        assert_eq!(u.to_string(), whole.to_string(), "{x:?} with {y:?}");
        assert!(u.tlc_eq(&whole).unwrap());
        assert_eq!(u.fingerprint().unwrap(), whole.fingerprint().unwrap());
    }
    // Symbolic operands stay symbolic, and TLC enumerates S then T without removing duplicates:
    // \E v \in (SUBSET {1, 2}) \cup (SUBSET {2, 3}) : x' = v  gives 49 states generated,
    // 6 distinct (1 initial + 6 × 8 successors).
    let lazy_cup = Value::cup(Value::subset(ints(&[1, 2])).unwrap(), Value::subset(ints(&[2, 3])).unwrap()).unwrap();
    assert!(lazy_cup.is_lazy());
    assert_eq!(elements(&lazy_cup).len(), 8);
    assert_eq!(lazy_cup.cardinality().unwrap(), 6);
    assert!(matches!(&lazy_cup, Value::Lazy(l) if matches!(**l, tla_eval::LazySet::Cup(..))));
    // TLC prints the normalized set: {{}, {1}, {2}, {3}, {1, 2}, {2, 3}}
    assert_eq!(lazy_cup.canonical().unwrap().to_string(), "{{}, {1}, {2}, {3}, {1, 2}, {2, 3}}");
    // Membership in lazy combinations, with an infinite operand.
    let nat_minus = Value::diff(Value::nat(), ints(&[0, 1])).unwrap();
    assert!(nat_minus.member(&i(2)).unwrap() && !nat_minus.member(&i(1)).unwrap());
    assert!(!nat_minus.is_finite_set());
    let capped = Value::cap(Value::nat(), ints(&[-1, 0, 5])).unwrap();
    assert_eq!(capped.to_string(), "{0, 5}");
    assert_eq!(Value::diff(Value::interval(1, 5), ints(&[2, 4])).unwrap().to_string(), "{1, 3, 5}");
}

struct Even;
impl SetPredicate for Even {
    fn test(&self, v: &Value) -> VResult<bool> {
        Ok(v.as_int()? % 2 == 0)
    }
    fn describe(&self) -> String {
        "x % 2 = 0".into()
    }
}

#[test]
fn filter_hook() {
    let evens = Value::filter(Value::interval(1, 10), Arc::new(Even)).unwrap();
    assert_eq!(elements(&evens).join(" "), "2 4 6 8 10");
    assert!(evens.member(&i(4)).unwrap() && !evens.member(&i(5)).unwrap() && !evens.member(&i(12)).unwrap());
    let nat_evens = Value::filter(Value::nat(), Arc::new(Even)).unwrap();
    assert!(nat_evens.member(&i(1000)).unwrap());
    assert!(nat_evens.elements().is_err());
    // The predicate's errors come through.
    let mut t = Interner::new();
    let bad = Value::filter(set(vec![s(&mut t, "a")]), Arc::new(Even)).unwrap();
    assert_eq!(bad.cardinality().unwrap_err().code, codes::TYPE);
}

#[test]
fn functions_records_sequences() {
    let mut t = Interner::new();
    let a = t.intern("a");
    let b = t.intern("b");
    let r = Value::record(vec![(a.clone(), i(1)), (b.clone(), i(2))]).unwrap();
    assert_eq!(r.field(&a).unwrap(), i(1));
    assert_eq!(r.field(&t.intern("c")).unwrap_err().code, codes::NOT_IN_DOMAIN);
    let r2 = r.except(&Value::Str(b.clone()), i(5)).unwrap();
    assert_eq!(r2.to_string(), "[a |-> 1, b |-> 5]");
    assert_eq!(r.to_string(), "[a |-> 1, b |-> 2]", "EXCEPT copies");
    // TLC: [<<1,2>> EXCEPT ![3] = 7] is <<1, 2>> (with a warning)
    let t12 = tup(vec![i(1), i(2)]);
    assert_eq!(t12.except(&i(3), i(7)).unwrap(), t12);
    assert_eq!(t12.apply(&i(3)).unwrap_err().code, codes::NOT_IN_DOMAIN);
    // TLC: DOMAIN <<4,5>> prints 1..2
    assert_eq!(tup(vec![i(4), i(5)]).domain().unwrap().to_string(), "1..2");
    assert_eq!(r.domain().unwrap().to_string(), r#"{"a", "b"}"#);
    // Sequences
    let sq = tup(vec![i(1), i(2), i(3)]);
    assert_eq!(sq.append(i(4)).unwrap().to_string(), "<<1, 2, 3, 4>>");
    assert_eq!(sq.head().unwrap(), i(1));
    assert_eq!(sq.tail().unwrap().to_string(), "<<2, 3>>");
    assert_eq!(sq.subseq(2, 3).unwrap().to_string(), "<<2, 3>>");
    assert_eq!(sq.subseq(3, 2).unwrap().to_string(), "<<>>");
    assert!(tup(vec![]).head().is_err());
    assert_eq!(sq.concat(&tup(vec![i(9)])).unwrap().to_string(), "<<1, 2, 3, 9>>");
    // TLC: "ab" \o "c" = "abc"; Len("abc") = 3
    let ab = s(&mut t, "ab");
    let abc = ab.concat(&s(&mut t, "c")).unwrap();
    assert!(abc.tlc_eq(&Value::Str(Str::unranked("abc"))).unwrap());
    assert_eq!(abc.seq_len().unwrap(), 3);
    // Duplicate arguments in a function built from pairs: an error.
    assert_eq!(Value::fcn(vec![(i(0), i(1)), (i(0), i(2))]).unwrap_err().code, codes::DUPLICATE_DOMAIN);
}

#[test]
fn fingerprint_snapshot() {
    // The same list runs under wasm-bindgen-test (web/tests/wasm.rs) against the same file:
    // the numbers must not change across targets.
    let got: String = tla_eval::testing::fingerprint_fixture()
        .iter()
        .map(|(text, fp)| format!("{fp:016x} {text}\n"))
        .collect();
    expect_test::expect_file!["data/fingerprints.txt"].assert_eq(&got);
}

#[test]
fn small_values_and_bounded_materialization() {
    // A value is two words (a tag and an integer or one pointer): 16 bytes on x86_64, 8 on
    // wasm32; a result of one is two words as well (an error is one boxed pointer).
    assert_eq!(std::mem::size_of::<Value>(), 2 * std::mem::size_of::<usize>());
    assert_eq!(std::mem::size_of::<tla_eval::VResult<Value>>(), 2 * std::mem::size_of::<usize>());
    // Huge sets are an error when they would be built in memory, not an abort...
    let huge = Value::interval(1, i32::MAX);
    assert_eq!(huge.to_set().unwrap_err().code, codes::TOO_LARGE);
    assert_eq!(Value::subset(Value::interval(1, 30)).unwrap().to_set().unwrap_err().code, codes::TOO_LARGE);
    // ...while counting, membership and one-by-one enumeration still work.
    assert_eq!(huge.cardinality().unwrap(), i32::MAX);
    assert!(huge.member(&i(123_456_789)).unwrap());
    assert_eq!(huge.elements().unwrap().nth(9).unwrap().unwrap(), i(10));
}

#[test]
fn no_fingerprint_collisions_among_many_small_values() {
    // Distinct values of similar shapes must not collide: all subsets of 1..14, all functions
    // [1..4 -> 0..5] (as tuples) and the same maps over {0, 1, 2, 3} (general functions), pairs
    // <<a, b>> over -40..40, and sets of pairs.
    let mut fps = std::collections::HashSet::new();
    let mut count = 0usize;
    let mut add = |v: Value| {
        count += 1;
        assert!(fps.insert(v.fingerprint().unwrap()), "collision at {v}");
    };
    for s in Value::subset(Value::interval(1, 14)).unwrap().elements().unwrap() {
        add(s.unwrap());
    }
    for f in Value::fcn_set(Value::interval(1, 4), Value::interval(0, 5)).unwrap().elements().unwrap() {
        add(f.unwrap());
    }
    for f in Value::fcn_set(Value::interval(0, 3), Value::interval(0, 5)).unwrap().elements().unwrap() {
        add(f.unwrap());
    }
    for a in -40..=40 {
        for b in -40..=40 {
            add(tup(vec![i(a), i(b)]));
        }
    }
    for a in 0..30 {
        for b in 0..30 {
            if a < b {
                add(set(vec![tup(vec![i(a), i(b)]), tup(vec![i(b), i(a)])]));
            }
        }
    }
    assert_eq!(count, (1 << 14) + 1296 + 1296 + 81 * 81 + 435);
}

#[test]
fn fingerprints_kept_with_values_agree_with_fresh_ones() {
    // A compound value keeps its fingerprint once computed; a container takes its parts' kept
    // fingerprints. Whatever was fingerprinted first, equal values agree and unequal differ.
    let mut t = Interner::new();
    let (a, b) = (s(&mut t, "a"), s(&mut t, "b"));
    let build = |x: i32| {
        let rec = Value::fcn(vec![(a.clone(), ints(&[x])), (b.clone(), tup(vec![i(x), i(1)]))]).unwrap();
        tup(vec![ints(&[1, 2]), rec, set(vec![ints(&[x]), ints(&[])])])
    };
    let first = build(3);
    // The parts first, then the whole (kept fingerprints), against a fresh whole.
    let parts: Vec<u64> = (1..=3).map(|k| first.apply(&i(k)).unwrap().fingerprint().unwrap()).collect();
    let whole = first.fingerprint().unwrap();
    assert_eq!(whole, build(3).fingerprint().unwrap());
    assert_eq!(whole, first.fingerprint().unwrap(), "kept fingerprint read back");
    assert_ne!(whole, build(4).fingerprint().unwrap());
    assert_eq!(parts[1], build(3).apply(&i(2)).unwrap().fingerprint().unwrap());
    // EXCEPT shares the domain (its kept fingerprint) and builds new values: it agrees with
    // the function built at once, and differs from the one it came from.
    let rec = first.apply(&i(2)).unwrap();
    let changed = rec.except(&a, ints(&[4])).unwrap();
    let fresh = Value::fcn(vec![(b.clone(), tup(vec![i(3), i(1)])), (a.clone(), ints(&[4]))]).unwrap();
    assert_eq!(changed.fingerprint().unwrap(), fresh.fingerprint().unwrap());
    assert_ne!(changed.fingerprint().unwrap(), rec.fingerprint().unwrap());
    // DOMAIN f shares the function's domain: as a set it agrees with the set built at once.
    let dom = rec.domain().unwrap();
    assert_eq!(dom.fingerprint().unwrap(), set(vec![b.clone(), a.clone()]).fingerprint().unwrap());
    // A set, and a sequence of the same elements, differ.
    assert_ne!(ints(&[1, 2]).fingerprint().unwrap(), tup(vec![i(1), i(2)]).fingerprint().unwrap());
}

/// Application finds an argument by identity first (the very model value, string or integer
/// in the domain), then by value; an interval domain by offset. Each answer must be the one a
/// value comparison gives, for an argument that is a copy made apart from the domain's.
#[test]
fn application_by_identity_agrees_with_application_by_value() {
    let mut t = Interner::new();
    let names = ["q1", "q2", "l1", "l2"];
    let mut dom: Vec<Value> = names.iter().map(|n| Value::model(t.intern(n))).collect();
    dom.push(s(&mut t, "ClientRequest"));
    let f = Value::fcn(dom.iter().enumerate().map(|(k, d)| (d.clone(), i(k as i32 * 10))).collect()).unwrap();
    for (k, d) in dom.iter().enumerate() {
        // The domain's own element, and one built anew from the same name (a string of the
        // interner is one allocation: the same).
        let fresh = match d {
            Value::Model(m) => Value::model(t.intern(m.name().as_str())),
            Value::Str(x) => Value::Str(t.get(x.as_str())),
            _ => unreachable!(),
        };
        assert_eq!(f.apply(d).unwrap(), i(k as i32 * 10), "{d}");
        assert_eq!(f.apply(&fresh).unwrap(), i(k as i32 * 10), "{fresh} (a copy)");
    }
    let other = Value::model(t.intern("q3"));
    assert_eq!(f.apply(&other).unwrap_err().code, codes::NOT_IN_DOMAIN);
    // EXCEPT at an element found by identity: the same function as one built at once.
    let g = f.except(&dom[2], i(7)).unwrap();
    let built = Value::fcn(dom.iter().enumerate().map(|(k, d)| (d.clone(), i(if k == 2 { 7 } else { k as i32 * 10 }))).collect()).unwrap();
    assert!(g.tlc_eq(&built).unwrap());
    assert_eq!(g.fingerprint().unwrap(), built.fingerprint().unwrap());
    // An interval domain 0..2 (not a sequence): offsets inside, an error outside.
    let h = Value::fcn((0..3).map(|k| (i(k), i(100 + k))).collect()).unwrap();
    assert_eq!(h.apply(&i(0)).unwrap(), i(100));
    assert_eq!(h.apply(&i(2)).unwrap(), i(102));
    assert_eq!(h.apply(&i(3)).unwrap_err().code, codes::NOT_IN_DOMAIN);
    assert_eq!(h.apply(&i(-1)).unwrap_err().code, codes::NOT_IN_DOMAIN);
    let h2 = h.except(&i(1), i(5)).unwrap();
    assert_eq!(h2.apply(&i(1)).unwrap(), i(5));
    assert!(h2.tlc_eq(&Value::fcn(vec![(i(0), i(100)), (i(1), i(5)), (i(2), i(102))]).unwrap()).unwrap());
}

/// Differences from an interval and equality of a built set with an interval, computed without
/// building the interval, agree with the sets built first. TLC 2.15 (`ASSUME PrintT(...)`):
/// (1..3) \ {2} is {1, 3}; (5..4) \ {1} is {}; {1, 2, 3} = 1..3 TRUE; {1, 3} = 1..2 FALSE;
/// {} = 1..0 TRUE; {q1} = 1..1 FALSE.
#[test]
fn intervals_against_built_sets() {
    let mut t = Interner::new();
    let built = |lo: i32, hi: i32| set((lo..=hi).map(i).collect());
    for (lo, hi) in [(1, 3), (5, 4), (-2, 2), (0, 0)] {
        for b in [ints(&[2]), ints(&[]), ints(&[lo, hi]), ints(&[9])] {
            let fast = Value::diff(Value::interval(lo, hi), b.clone()).unwrap();
            let slow = Value::diff(built(lo, hi), b.clone()).unwrap();
            assert_eq!(fast.to_string(), slow.to_string(), "{lo}..{hi} \\ {b}");
            assert_eq!(fast.fingerprint().unwrap(), slow.fingerprint().unwrap());
        }
        for other in [built(lo, hi), built(lo, hi + 1), ints(&[lo, hi + 2]), ints(&[])] {
            let iv = Value::interval(lo, hi);
            let want = other.to_string() == built(lo, hi).to_string();
            assert_eq!(other.tlc_eq(&iv).unwrap(), want, "{other} = {lo}..{hi}");
            assert_eq!(iv.tlc_eq(&other).unwrap(), want, "{lo}..{hi} = {other}");
        }
    }
    assert_eq!(Value::diff(Value::interval(1, 3), ints(&[2])).unwrap().to_string(), "{1, 3}");
    let q1 = Value::model(t.intern("q1"));
    assert!(!set(vec![q1]).tlc_eq(&Value::interval(1, 1)).unwrap());
    // A difference that takes nothing out is the set itself.
    let s12 = ints(&[1, 2]);
    assert!(Value::diff(s12.clone(), ints(&[3])).unwrap().tlc_eq(&s12).unwrap());
}

/// A function over integers is applied at the right place whether its domain is an interval
/// (applied by offset) or not (searched), and outside its domain it is TLC's error.
#[test]
fn application_over_integer_domains() {
    let f = |dom: &[i32]| Value::fcn(dom.iter().map(|&d| (i(d), i(d.wrapping_mul(10)))).collect()).unwrap();
    let interval = f(&[-2, -1, 0, 1, 2]);
    for k in -2..=2 {
        assert_eq!(interval.apply(&i(k)).unwrap(), i(k * 10));
    }
    for k in [-3, 3, i32::MIN, i32::MAX] {
        assert_eq!(interval.apply(&i(k)).unwrap_err().code, codes::NOT_IN_DOMAIN);
    }
    let gaps = f(&[0, 2, 3]);
    assert_eq!(gaps.apply(&i(2)).unwrap(), i(20));
    assert_eq!(gaps.apply(&i(3)).unwrap(), i(30));
    assert_eq!(gaps.apply(&i(1)).unwrap_err().code, codes::NOT_IN_DOMAIN);
    let extremes = f(&[i32::MIN, i32::MAX]);
    assert_eq!(extremes.apply(&i(i32::MAX)).unwrap(), i(i32::MAX.wrapping_mul(10)));
}
