//! Sets that stay symbolic until they must be enumerated, membership without enumeration, and
//! enumeration in TLC's order.
//!
//! Enumeration order ([`Value::elements`]) follows TLC's `Enumerable.elements()`, read from
//! tlc2.value.impl and checked with TLC 2.15 where noted:
//! - a finite set: its sorted order (TLC's `SetEnumValue` sorts before enumerating);
//! - `a..b`: ascending;
//! - `SUBSET S`: TLC's normalized order — by cardinality, then lexicographically on the sorted
//!   elements (`SUBSET {1,2,3}` prints `{{}, {1}, {2}, {3}, {1, 2}, {1, 3}, {2, 3}, {1, 2, 3}}`);
//! - `[D -> R]`, `[a : S, b : T]`, `S \X T`: an odometer over the sorted domain (record fields in
//!   field order, tuple positions left to right) whose *last* position turns fastest, each
//!   position running through its set's own enumeration order;
//! - lazy `S \cup T`: S's elements, then T's (TLC does not remove the duplicates); lazy
//!   `S \cap T` and `S \ T`: S's elements that are (not) in T; `UNION S`: each member in turn;
//!   `{x \in S : P}`: S's elements that satisfy P.
//!   `\cup`, `\cap`, `\` of finite sets and intervals are computed at once, as TLC does for its
//!   "reducible" values (TLC 2.15: `\E v \in {1, 2} \cup {2, 3}` yields 3 successors, not 4).
//! - `Nat`, `Int`, `STRING`, `Seq(S)`: membership only; enumerating them is an error.

use std::fmt;
use std::sync::Arc;

use crate::error::{codes, VResult, ValueError};
use crate::intern::Str;
use crate::value::{fcn_len, fcn_val_at, kind_name, SetVal, Value};

/// The predicate of `{x \in S : P}`, supplied by the evaluator.
pub trait SetPredicate: Send + Sync {
    fn test(&self, elem: &Value) -> VResult<bool>;
    /// A short text for messages (the predicate's source text).
    fn describe(&self) -> String;
}

pub enum LazySet {
    /// `lo..hi` (empty when hi < lo).
    Interval(i32, i32),
    /// `SUBSET S`
    Subset(Value),
    /// `[D -> R]`
    FcnSet(Value, Value),
    /// `[a : S, b : T]`, fields sorted in TLC's order.
    RecordSet(Vec<(Str, Value)>),
    /// `S1 \X S2 \X ...`
    Product(Vec<Value>),
    /// `Seq(S)`
    SeqSet(Value),
    Nat,
    Int,
    /// `STRING`
    Strings,
    Cup(Value, Value),
    Cap(Value, Value),
    Diff(Value, Value),
    /// `UNION S`
    Union(Value),
    /// `{x \in S : P}`
    Filter(Value, Arc<dyn SetPredicate>),
}

impl fmt::Debug for LazySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

fn lazy(l: LazySet) -> Value {
    Value::Lazy(crate::shared::Counted::new(l))
}

fn not_set(v: &Value) -> ValueError {
    ValueError::new(codes::TYPE, format!("expected a set, found the {} {}", kind_name(v), v))
}

fn not_enumerable(v: &dyn fmt::Display) -> ValueError {
    ValueError::new(codes::NOT_ENUMERABLE, format!("Attempted to enumerate the infinite set {}", v))
}

fn too_large(what: &str) -> ValueError {
    ValueError::new(codes::TOO_LARGE, format!("the set {what} has more than 2^31 - 1 elements"))
}

/// The largest set built in memory at once (about 16 million elements); enumerating one by one
/// (`\E`, CHOOSE's scan of an interval) has no such limit.
pub const MAX_MATERIALIZED: u64 = 1 << 24;

/// An element stream in TLC's enumeration order.
pub type Elements = Box<dyn Iterator<Item = VResult<Value>>>;

impl Value {
    /// `lo..hi`
    pub fn interval(lo: i32, hi: i32) -> Value {
        lazy(LazySet::Interval(lo, hi))
    }
    pub fn subset(s: Value) -> VResult<Value> {
        check_set(&s)?;
        Ok(lazy(LazySet::Subset(s)))
    }
    pub fn fcn_set(domain: Value, range: Value) -> VResult<Value> {
        check_set(&domain)?;
        check_set(&range)?;
        Ok(lazy(LazySet::FcnSet(domain, range)))
    }
    pub fn record_set(mut fields: Vec<(Str, Value)>) -> VResult<Value> {
        for (_, s) in &fields {
            check_set(s)?;
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(lazy(LazySet::RecordSet(fields)))
    }
    pub fn product(sets: Vec<Value>) -> VResult<Value> {
        for s in &sets {
            check_set(s)?;
        }
        Ok(lazy(LazySet::Product(sets)))
    }
    pub fn seq_set(s: Value) -> VResult<Value> {
        check_set(&s)?;
        Ok(lazy(LazySet::SeqSet(s)))
    }
    pub fn nat() -> Value {
        lazy(LazySet::Nat)
    }
    pub fn int_set() -> Value {
        lazy(LazySet::Int)
    }
    pub fn strings() -> Value {
        lazy(LazySet::Strings)
    }
    pub fn filter(base: Value, pred: Arc<dyn SetPredicate>) -> VResult<Value> {
        check_set(&base)?;
        Ok(lazy(LazySet::Filter(base, pred)))
    }
    pub fn union_of(s: Value) -> VResult<Value> {
        check_set(&s)?;
        if let Value::Set(ss) = &s {
            let mut all = Vec::new();
            for e in ss.elems() {
                if !e.is_set() {
                    return Err(not_set(e));
                }
                if !e.is_finite_set() {
                    return Ok(lazy(LazySet::Union(s)));
                }
                all.extend(e.to_set()?.elems().iter().cloned());
            }
            return Value::set(all);
        }
        Ok(lazy(LazySet::Union(s)))
    }
    /// `S \cup T`: computed now when both are finite sets or intervals, else symbolic.
    pub fn cup(a: Value, b: Value) -> VResult<Value> {
        check_set(&a)?;
        check_set(&b)?;
        if let (Value::Set(x), Value::Set(y)) = (&a, &b) {
            return Ok(Value::Set(SetVal::from_sorted(merge_union(x.elems(), y.elems())?)));
        }
        if a.is_reducible() && b.is_reducible() {
            let mut all: Vec<Value> = a.to_set()?.elems().to_vec();
            all.extend(b.to_set()?.elems().iter().cloned());
            return Value::set(all);
        }
        Ok(lazy(LazySet::Cup(a, b)))
    }
    /// `S \cap T`: computed now when either is a finite set or interval.
    pub fn cap(a: Value, b: Value) -> VResult<Value> {
        check_set(&a)?;
        check_set(&b)?;
        let (small, other) = if a.is_reducible() {
            (&a, &b)
        } else if b.is_reducible() {
            (&b, &a)
        } else {
            return Ok(lazy(LazySet::Cap(a, b)));
        };
        let mut out = Vec::new();
        for e in small.to_set()?.elems() {
            if other.member(e)? {
                out.push(e.clone());
            }
        }
        Ok(Value::Set(SetVal::from_sorted(out)))
    }
    /// `S \ T`: computed now when S is a finite set or interval.
    pub fn diff(a: Value, b: Value) -> VResult<Value> {
        check_set(&a)?;
        check_set(&b)?;
        if !a.is_reducible() {
            return Ok(lazy(LazySet::Diff(a, b)));
        }
        // An interval's integers are taken in order without building the interval first.
        if let Value::Lazy(l) = &a
            && let Some((lo, hi)) = l.as_interval()
        {
            let mut out = Vec::with_capacity((hi as i64 - lo as i64 + 1).clamp(0, 64) as usize);
            for i in lo..=hi {
                let e = Value::Int(i);
                if !b.member(&e)? {
                    out.push(e);
                }
            }
            return Ok(Value::Set(SetVal::from_sorted(out)));
        }
        let a = a.to_set()?;
        let mut out = Vec::new();
        for e in a.elems() {
            if !b.member(e)? {
                out.push(e.clone());
            }
        }
        // Nothing taken out: the same set.
        if out.len() == a.len() {
            return Ok(Value::Set(a));
        }
        Ok(Value::Set(SetVal::from_sorted(out)))
    }

    fn is_reducible(&self) -> bool {
        matches!(self, Value::Set(_)) || matches!(self, Value::Lazy(l) if matches!(**l, LazySet::Interval(..)))
    }

    /// Whether a set is finite (false for non-sets).
    pub fn is_finite_set(&self) -> bool {
        match self {
            Value::Set(_) => true,
            Value::Lazy(l) => l.is_finite(),
            _ => false,
        }
    }

    /// `elem \in self`, without enumerating symbolic sets where TLC does not.
    pub fn member(&self, elem: &Value) -> VResult<bool> {
        match self {
            Value::Set(s) => s.contains(elem),
            Value::Lazy(l) if kept_membership(l) && matches!(elem, Value::Set(_) | Value::Seq(_) | Value::Fcn(_)) => {
                member_kept(self, l, elem)
            }
            Value::Lazy(l) => l.member(elem),
            _ => Err(ValueError::new(
                codes::TYPE,
                format!("Attempted to check if {} is in the {} {}, which is not a set", elem, kind_name(self), self),
            )),
        }
    }

    /// The elements in TLC's enumeration order (see the module docs).
    pub fn elements(&self) -> VResult<Elements> {
        match self {
            Value::Set(s) => {
                let s = s.clone();
                Ok(Box::new((0..s.len()).map(move |i| Ok(s.elems()[i].clone()))))
            }
            Value::Lazy(l) => l.elements(),
            _ => Err(not_set(self)),
        }
    }

    /// Number of elements (`Cardinality`), computed without enumerating where possible.
    pub fn cardinality(&self) -> VResult<i32> {
        let n = match self {
            Value::Set(s) => s.len() as u64,
            Value::Lazy(l) => l.size()?,
            _ => return Err(not_set(self)),
        };
        i32::try_from(n).map_err(|_| too_large(&self.to_string()))
    }

    /// `DOMAIN f`
    pub fn domain(&self) -> VResult<Value> {
        match self {
            Value::Seq(s) => Ok(Value::interval(1, s.len() as i32)),
            Value::Fcn(f) => Ok(Value::Set(SetVal::from_arc(f.domain_elems().clone()))),
            _ => Err(ValueError::new(codes::TYPE, format!("Attempted to compute the domain of the {} {}", kind_name(self), self))),
        }
    }
}

/// Sets whose membership test walks the structure of a function, sequence or set (`TypeOK`'s
/// `[D -> R]`, `Seq(S)`, `SUBSET S`, record sets, products): their answers are kept.
fn kept_membership(l: &LazySet) -> bool {
    matches!(l, LazySet::FcnSet(..) | LazySet::SeqSet(_) | LazySet::Subset(_) | LazySet::RecordSet(_) | LazySet::Product(_))
}

/// Whether the answer of `v`'s membership test is a function of the values alone: no
/// `{x \in S : P}` inside, whose predicate comes from outside.
fn membership_is_pure(v: &Value) -> bool {
    let Value::Lazy(l) = v else { return true };
    use LazySet::*;
    match &**l {
        Interval(..) | Nat | Int | Strings => true,
        Subset(s) | SeqSet(s) | Union(s) => membership_is_pure(s),
        FcnSet(a, b) | Cup(a, b) | Cap(a, b) | Diff(a, b) => membership_is_pure(a) && membership_is_pure(b),
        RecordSet(fs) => fs.iter().all(|(_, s)| membership_is_pure(s)),
        Product(ss) => ss.iter().all(membership_is_pure),
        Filter(..) => false,
    }
}

/// Answers of `elem \in set` for functions, sequences and sets, kept per thread by the set's
/// allocation (the set is held, so that no other set takes its address) and the element's
/// fingerprint word (kept in the element's allocation: a state's values are fingerprinted
/// before its invariants are checked). `TypeOK` then tests each distinct function, queue or set
/// once in a run, not once per state (`network \in [P -> [P -> Seq(M)]]` looks up three rows
/// and tests the one that changed). As with the seen set, two different elements are taken
/// for the same only if their 64-bit fingerprints collide.
///
/// Each set kept gets a number of its own, never given again (`NEXT_SET`), and the last answer
/// for an element is also written into the element's allocation (`MemoCell`): an element met
/// again, as the rows a step left unchanged are, is answered from memory it has just been
/// read from, without looking the table up.
struct KeptMembers {
    sets: crate::fxhash::FxHashMap<u64, (Value, u32)>,
    answers: crate::fxhash::FxHashMap<(u64, u64), bool>,
}

/// At most this many answers and sets are kept: past either, all are forgotten and keeping
/// starts again (sets built per state, such as `SUBSET y` for a variable `y`, come and go).
const KEPT_ANSWERS: usize = 1 << 18;
const KEPT_SETS: usize = 256;

/// The number the next set kept gets (0 is no number). Past `u32::MAX >> 1` no set gets one
/// (the answers are then kept in the table only).
static NEXT_SET: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

fn new_set_number() -> Option<u32> {
    let n = NEXT_SET.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if n == 0 || n > u32::MAX >> 1 {
        // Keep the counter past the limit (it only wraps after 2^32 more).
        NEXT_SET.store(u32::MAX, std::sync::atomic::Ordering::Relaxed);
        return None;
    }
    Some(n)
}

/// Forget the kept answers (a new model: its sets are new values).
pub(crate) fn forget_kept_memberships() {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        k.sets.clear();
        k.answers.clear();
    });
}

thread_local! {
    // Initialised at compile time: each access is a plain thread-local read, with no check that
    // the table was made.
    static KEPT: std::cell::RefCell<KeptMembers> = const {
        std::cell::RefCell::new(KeptMembers {
            sets: std::collections::HashMap::with_hasher(std::hash::BuildHasherDefault::new()),
            answers: std::collections::HashMap::with_hasher(std::hash::BuildHasherDefault::new()),
        })
    };
}

/// The answer cell of a function, sequence or set.
fn memo_of(v: &Value) -> Option<&crate::value::MemoCell> {
    match v {
        Value::Set(s) => Some(s.arc().memo()),
        Value::Seq(e) => Some(e.memo()),
        Value::Fcn(f) => Some(f.memo()),
        _ => None,
    }
}

fn member_kept(set: &Value, l: &crate::shared::Counted<LazySet>, elem: &Value) -> VResult<bool> {
    let id = crate::shared::Counted::as_ptr(l) as usize as u64;
    let memo = memo_of(elem);
    // The set's number (0: the set is not kept, or has no number).
    let number = KEPT.with(|k| k.borrow().sets.get(&id).map_or(0, |(_, n)| *n));
    if number != 0
        && let Some(answer) = memo.and_then(|m| m.get(number))
    {
        return Ok(answer);
    }
    let Ok(w) = crate::fingerprint::word(elem) else { return l.member(elem) };
    if let Some(answer) = KEPT.with(|k| k.borrow().answers.get(&(id, w)).copied()) {
        if let Some(m) = memo
            && number != 0
        {
            m.set(number, answer);
        }
        return Ok(answer);
    }
    let answer = l.member(elem)?;
    if membership_is_pure(set) {
        let number = KEPT.with(|k| {
            let mut k = k.borrow_mut();
            if k.answers.len() >= KEPT_ANSWERS || (k.sets.len() >= KEPT_SETS && !k.sets.contains_key(&id)) {
                k.sets.clear();
                k.answers.clear();
            }
            let number = k.sets.entry(id).or_insert_with(|| (set.clone(), new_set_number().unwrap_or(0))).1;
            k.answers.insert((id, w), answer);
            number
        });
        if let Some(m) = memo
            && number != 0
        {
            m.set(number, answer);
        }
    }
    Ok(answer)
}

/// `DOMAIN v = d` for a function `v`, without building `DOMAIN v` when `d` is an integer
/// interval or an explicit set (a function's domain is kept sorted in TLC's order).
fn domain_equals(v: &Value, d: &Value) -> VResult<bool> {
    if let Value::Fcn(f) = v {
        let dom = f.domain();
        match d {
            Value::Lazy(l) => {
                if let LazySet::Interval(lo, hi) = &**l {
                    let n = if hi < lo { 0 } else { (*hi as i64 - *lo as i64 + 1) as usize };
                    if dom.len() != n {
                        return Ok(false);
                    }
                    if n == 0 {
                        return Ok(true);
                    }
                    // Sorted, distinct, and as many as the interval: equal when both ends are.
                    if let (Some(Value::Int(a)), Some(Value::Int(b))) = (dom.first(), dom.last())
                        && dom.iter().all(|x| matches!(x, Value::Int(_)))
                    {
                        return Ok(a == lo && b == hi);
                    }
                }
            }
            Value::Set(s) => {
                if s.len() != dom.len() {
                    return Ok(false);
                }
                for (a, b) in dom.iter().zip(s.elems()) {
                    if !a.tlc_eq(b)? {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            _ => {}
        }
    }
    v.domain()?.tlc_eq(d)
}

/// Membership of a value of the wrong kind: FALSE for an untyped model value (TLC's
/// `modelValueMember`), an error otherwise (TLC 2.15: `1 \in Seq(Nat)` is an error).
fn wrong_kind_member(elem: &Value, set: &LazySet, expected: &str) -> VResult<bool> {
    match elem {
        Value::Model(m) if m.typ().is_none() => Ok(false),
        _ => Err(ValueError::new(
            codes::TYPE,
            format!("Attempted to check if the {} {}, which is not {}, is an element of {}", kind_name(elem), elem, expected, set),
        )),
    }
}

impl Value {
    fn cardinality_hint(&self) -> VResult<u64> {
        match self {
            Value::Set(s) => Ok(s.len() as u64),
            Value::Lazy(l) => l.size_hint(),
            _ => Err(not_set(self)),
        }
    }
}

/// The union of two canonical element lists (sorted, unique), by one merge.
fn merge_union(x: &[Value], y: &[Value]) -> VResult<Vec<Value>> {
    let mut out = Vec::with_capacity(x.len() + y.len());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        let c = match crate::value::quick_cmp(&x[i], &y[j]) {
            Some(c) => c,
            None => x[i].tlc_cmp(&y[j])?,
        };
        match c {
            std::cmp::Ordering::Less => {
                out.push(x[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(y[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(x[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend(x[i..].iter().cloned());
    out.extend(y[j..].iter().cloned());
    Ok(out)
}

fn check_set(v: &Value) -> VResult<()> {
    if v.is_set() { Ok(()) } else { Err(not_set(v)) }
}

fn checked_pow(base: u64, exp: u64, what: &dyn fmt::Display) -> VResult<u64> {
    let mut r: u64 = 1;
    for _ in 0..exp {
        r = r.checked_mul(base).filter(|r| *r <= i32::MAX as u64).ok_or_else(|| too_large(&what.to_string()))?;
        if r == 0 {
            break;
        }
    }
    Ok(r)
}

impl LazySet {
    pub fn as_interval(&self) -> Option<(i32, i32)> {
        match self {
            LazySet::Interval(a, b) => Some((*a, *b)),
            _ => None,
        }
    }

    /// Same symbolic form with equal arguments (how two infinite sets can still be equal).
    pub fn same_symbolic(&self, other: &LazySet) -> bool {
        use LazySet::*;
        let eq = |a: &Value, b: &Value| matches!(a.tlc_eq(b), Ok(true));
        match (self, other) {
            (Nat, Nat) | (Int, Int) | (Strings, Strings) => true,
            (SeqSet(a), SeqSet(b)) | (Subset(a), Subset(b)) | (Union(a), Union(b)) => eq(a, b),
            (FcnSet(a, b), FcnSet(c, d)) => eq(a, c) && eq(b, d),
            _ => false,
        }
    }

    pub fn is_finite(&self) -> bool {
        use LazySet::*;
        match self {
            Interval(..) => true,
            Subset(s) => s.is_finite_set(),
            Union(s) => {
                s.is_finite_set()
                    && match s {
                        Value::Set(ss) => ss.elems().iter().all(|e| e.is_finite_set()),
                        _ => true,
                    }
            }
            FcnSet(d, r) => d.is_finite_set() && r.is_finite_set(),
            RecordSet(fs) => fs.iter().all(|(_, s)| s.is_finite_set()),
            Product(ss) => ss.iter().all(|s| s.is_finite_set()),
            SeqSet(_) | Nat | Int | Strings => false,
            Cup(a, b) => a.is_finite_set() && b.is_finite_set(),
            Cap(a, b) => a.is_finite_set() || b.is_finite_set(),
            Diff(a, _) => a.is_finite_set(),
            Filter(s, _) => s.is_finite_set(),
        }
    }

    pub fn member(&self, v: &Value) -> VResult<bool> {
        use LazySet::*;
        match self {
            Interval(lo, hi) => match v {
                Value::Int(i) => Ok(lo <= i && i <= hi),
                Value::Model(m) if m.typ().is_none() => Ok(false),
                // As TLC: nothing is in an empty interval, whatever its kind (`k \in DOMAIN f`
                // for an empty function `f`, whose domain is 1..0).
                _ if lo > hi => Ok(false),
                _ => Err(ValueError::new(
                    codes::TYPE,
                    format!("Attempted to check if the value {} is in the integer interval {}..{}", v, lo, hi),
                )),
            },
            Nat | Int => match v {
                Value::Int(i) => Ok(matches!(self, Int) || *i >= 0),
                Value::Model(m) if m.typ().is_none() => Ok(false),
                _ => Err(ValueError::new(
                    codes::TYPE,
                    format!("Attempted to check if the {} {} is in {}", kind_name(v), v, self),
                )),
            },
            Strings => Ok(matches!(v, Value::Str(_))),
            Subset(s) => {
                if !v.is_set() {
                    return wrong_kind_member(v, self, "a set");
                }
                if let Value::Set(elems) = v {
                    for e in elems.elems() {
                        if !s.member(e)? {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
                let mut it = v.elements()?;
                it.try_fold(true, |acc, e| Ok(acc && s.member(&e?)?))
            }
            FcnSet(d, r) => {
                if !v.is_fcn() {
                    return wrong_kind_member(v, self, "a function");
                }
                if !domain_equals(v, d)? {
                    return Ok(false);
                }
                for i in 0..fcn_len(v) {
                    if !r.member(fcn_val_at(v, i))? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            RecordSet(fs) => {
                let f = match v {
                    Value::Fcn(f) if f.is_record() => f,
                    Value::Seq(t) if t.is_empty() => return Ok(fs.is_empty()),
                    _ => return wrong_kind_member(v, self, "a record"),
                };
                if f.domain().len() != fs.len() {
                    return Ok(false);
                }
                // Both sorted in TLC's order.
                for (i, (name, set)) in fs.iter().enumerate() {
                    match &f.domain()[i] {
                        Value::Str(s) if s == name => {}
                        _ => return Ok(false),
                    }
                    if !set.member(&f.values()[i])? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Product(ss) => {
                let t = match v {
                    Value::Seq(t) => t,
                    Value::Fcn(f) if f.domain().iter().all(|d| matches!(d, Value::Int(_))) => return Ok(false),
                    _ => return wrong_kind_member(v, self, "a tuple"),
                };
                if t.len() != ss.len() {
                    return Ok(false);
                }
                for (e, s) in t.iter().zip(ss.iter()) {
                    if !s.member(e)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            SeqSet(s) => {
                let Value::Seq(t) = v else { return wrong_kind_member(v, self, "a sequence") };
                for e in t.iter() {
                    if !s.member(e)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Cup(a, b) => Ok(a.member(v)? || b.member(v)?),
            Cap(a, b) => Ok(a.member(v)? && b.member(v)?),
            Diff(a, b) => Ok(a.member(v)? && !b.member(v)?),
            Union(s) => {
                for e in s.elements()? {
                    if e?.member(v)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Filter(s, p) => Ok(s.member(v)? && p.test(v)?),
        }
    }

    /// The number of elements when it can be computed without enumerating (an upper bound for
    /// lazy `\cup`), else an error.
    fn size_hint(&self) -> VResult<u64> {
        use LazySet::*;
        match self {
            Interval(..) | Subset(_) | FcnSet(..) | RecordSet(_) | Product(_) => self.size(),
            Cup(a, b) => Ok(a.cardinality_hint()?.saturating_add(b.cardinality_hint()?)),
            _ => Err(ValueError::new(codes::NOT_ENUMERABLE, "no size without enumerating")),
        }
    }

    /// Exact number of elements.
    /// Whether [`LazySet::size`] computes the size without enumerating the set.
    pub(crate) fn has_cheap_size(&self) -> bool {
        matches!(self, LazySet::Interval(..) | LazySet::Subset(_) | LazySet::FcnSet(..) | LazySet::RecordSet(_) | LazySet::Product(_))
    }

    pub fn size(&self) -> VResult<u64> {
        use LazySet::*;
        let card = |v: &Value| -> VResult<u64> { Ok(v.cardinality()? as u64) };
        match self {
            Interval(lo, hi) => Ok(if hi < lo { 0 } else { (*hi as i64 - *lo as i64 + 1) as u64 }),
            Subset(s) => checked_pow(2, card(s)?, self),
            FcnSet(d, r) => checked_pow(card(r)?, card(d)?, self),
            RecordSet(fs) => fs.iter().try_fold(1u64, |acc, (_, s)| {
                acc.checked_mul(card(s)?).filter(|r| *r <= i32::MAX as u64).ok_or_else(|| too_large(&self.to_string()))
            }),
            Product(ss) => ss.iter().try_fold(1u64, |acc, s| {
                acc.checked_mul(card(s)?).filter(|r| *r <= i32::MAX as u64).ok_or_else(|| too_large(&self.to_string()))
            }),
            _ => Ok(self.to_set()?.len() as u64),
        }
    }

    /// The set, enumerated and sorted (an error beyond [`MAX_MATERIALIZED`] elements).
    pub fn to_set(&self) -> VResult<SetVal> {
        if let Ok(n) = self.size_hint()
            && n > MAX_MATERIALIZED
        {
            return Err(ValueError::new(
                codes::TOO_LARGE,
                format!("the set {} has {} elements, more than the {} this checker builds in memory", self, n, MAX_MATERIALIZED),
            ));
        }
        if let LazySet::Interval(lo, hi) = self {
            return Ok(SetVal::from_sorted((*lo..=*hi).map(Value::Int).collect()));
        }
        let mut v = Vec::new();
        for e in self.elements()? {
            v.push(e?);
        }
        // from_vec checks sortedness in one pass first, so already-sorted streams are cheap.
        SetVal::from_vec(v)
    }

    pub fn elements(&self) -> VResult<Elements> {
        use LazySet::*;
        match self {
            Interval(lo, hi) => {
                let (lo, hi) = (*lo, *hi);
                Ok(Box::new((lo..=hi).map(|i| Ok(Value::Int(i)))))
            }
            Nat | Int | Strings | SeqSet(_) => Err(not_enumerable(self)),
            Subset(s) => {
                let base = s.to_set()?;
                if base.len() > 31 {
                    return Err(too_large(&self.to_string()));
                }
                Ok(Box::new(SubsetIter::new(base)))
            }
            FcnSet(d, r) => {
                let dom = d.to_set()?;
                let range = collect(r)?;
                let slots = vec![range; dom.len()];
                Ok(Box::new(Odometer::new(slots).map(move |vals| Value::fcn_over(&dom, vals))))
            }
            RecordSet(fs) => {
                let mut slots = Vec::new();
                for (_, s) in fs {
                    slots.push(collect(s)?);
                }
                let names: Vec<Str> = fs.iter().map(|(n, _)| n.clone()).collect();
                Ok(Box::new(Odometer::new(slots).map(move |vals| {
                    Value::record(names.iter().cloned().zip(vals).collect())
                })))
            }
            Product(ss) => {
                let mut slots = Vec::new();
                for s in ss {
                    slots.push(collect(s)?);
                }
                Ok(Box::new(Odometer::new(slots).map(Value::tuple)))
            }
            Cup(a, b) => Ok(Box::new(a.elements()?.chain(b.elements()?))),
            Cap(a, b) | Diff(a, b) => {
                let keep = matches!(self, Cap(..));
                let (src, other) = if keep && !a.is_finite_set() { (b.clone(), a.clone()) } else { (a.clone(), b.clone()) };
                Ok(Box::new(src.elements()?.filter_map(move |e| match e {
                    Err(err) => Some(Err(err)),
                    Ok(e) => match other.member(&e) {
                        Err(err) => Some(Err(err)),
                        Ok(m) if m == keep => Some(Ok(e)),
                        Ok(_) => None,
                    },
                })))
            }
            Union(s) => {
                let mut parts: Vec<Elements> = Vec::new();
                for e in s.elements()? {
                    parts.push(e?.elements()?);
                }
                Ok(Box::new(parts.into_iter().flatten()))
            }
            Filter(s, p) => {
                let p = p.clone();
                Ok(Box::new(s.elements()?.filter_map(move |e| match e {
                    Err(err) => Some(Err(err)),
                    Ok(e) => match p.test(&e) {
                        Err(err) => Some(Err(err)),
                        Ok(true) => Some(Ok(e)),
                        Ok(false) => None,
                    },
                })))
            }
        }
    }
}

/// A set's elements in enumeration order, as a vector.
fn collect(s: &Value) -> VResult<Vec<Value>> {
    let mut v = Vec::new();
    for e in s.elements()? {
        v.push(e?);
    }
    Ok(v)
}

/// Every choice of one element per slot, the last slot turning fastest.
struct Odometer {
    slots: Vec<Vec<Value>>,
    idx: Vec<usize>,
    done: bool,
}

impl Odometer {
    fn new(slots: Vec<Vec<Value>>) -> Odometer {
        let done = slots.iter().any(|s| s.is_empty());
        Odometer { idx: vec![0; slots.len()], slots, done }
    }
}

impl Iterator for Odometer {
    type Item = Vec<Value>;
    fn next(&mut self) -> Option<Vec<Value>> {
        if self.done {
            return None;
        }
        let out: Vec<Value> = self.idx.iter().zip(self.slots.iter()).map(|(i, s)| s[*i].clone()).collect();
        let mut k = self.slots.len();
        loop {
            if k == 0 {
                self.done = true;
                break;
            }
            k -= 1;
            self.idx[k] += 1;
            if self.idx[k] < self.slots[k].len() {
                break;
            }
            self.idx[k] = 0;
        }
        Some(out)
    }
}

/// Subsets by cardinality, then lexicographically on element positions (TLC's normalized order).
struct SubsetIter {
    base: SetVal,
    k: usize,
    comb: Vec<usize>,
    done: bool,
}

impl SubsetIter {
    fn new(base: SetVal) -> SubsetIter {
        SubsetIter { base, k: 0, comb: Vec::new(), done: false }
    }
}

impl Iterator for SubsetIter {
    type Item = VResult<Value>;
    fn next(&mut self) -> Option<VResult<Value>> {
        if self.done {
            return None;
        }
        let elems = self.base.elems();
        let out: Vec<Value> = self.comb.iter().map(|&i| elems[i].clone()).collect();
        // Advance to the next combination of size k, or the first of size k + 1.
        let n = elems.len();
        let k = self.k;
        let mut i = k;
        let mut advanced = false;
        while i > 0 {
            i -= 1;
            if self.comb[i] < n - k + i {
                self.comb[i] += 1;
                for j in i + 1..k {
                    self.comb[j] = self.comb[j - 1] + 1;
                }
                advanced = true;
                break;
            }
        }
        if !advanced {
            if k == n {
                self.done = true;
            } else {
                self.k += 1;
                self.comb = (0..self.k).collect();
            }
        }
        Some(Ok(Value::Set(SetVal::from_sorted(out))))
    }
}

impl fmt::Display for LazySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LazySet::*;
        match self {
            Interval(a, b) => write!(f, "{}..{}", a, b),
            Subset(s) => write!(f, "SUBSET {}", s),
            FcnSet(d, r) => write!(f, "[{} -> {}]", d, r),
            RecordSet(fs) => {
                write!(f, "[")?;
                for (i, (n, s)) in fs.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{} : {}", n.as_str(), s)?;
                }
                write!(f, "]")
            }
            Product(ss) => {
                for (i, s) in ss.iter().enumerate() {
                    if i > 0 {
                        write!(f, " \\X ")?;
                    }
                    write!(f, "{}", s)?;
                }
                Ok(())
            }
            SeqSet(s) => write!(f, "Seq({})", s),
            Nat => write!(f, "Nat"),
            Int => write!(f, "Int"),
            Strings => write!(f, "STRING"),
            Cup(a, b) => write!(f, "({} \\cup {})", a, b),
            Cap(a, b) => write!(f, "({} \\cap {})", a, b),
            Diff(a, b) => write!(f, "({} \\ {})", a, b),
            Union(s) => write!(f, "UNION {}", s),
            Filter(s, p) => write!(f, "{{x \\in {} : {}}}", s, p.describe()),
        }
    }
}
