//! TLA+ values as TLC sees them: canonical, cheaply cloned, totally ordered the TLC way.
//!
//! # Representation
//! - `Bool`, `Int` (TLC's 32-bit range, see [`crate::arith`]), `Str`, `Model` (model values).
//! - `Set`: a finite set held *canonically*: elements sorted in TLC's order, no duplicates,
//!   every element canonical. Equal sets have equal bytes and equal fingerprints whatever order
//!   they were built in.
//! - Functions have one meaning but two layouts, chosen by the constructor, never by the user:
//!   `Seq` when the domain is `1..n` (tuples, sequences, the empty function `<<>>`, and every
//!   `[i \in 1..n |-> e]`), `Fcn` otherwise (a domain sorted in TLC's order, shared by reference count
//!   with the set `DOMAIN f`). A record is a `Fcn` whose domain is a set of strings, so
//!   `[a |-> 1] = [x \in {"a"} |-> 1]` holds by construction.
//! - `Lazy`: sets kept symbolic until they must be enumerated ([`crate::set::LazySet`]):
//!   intervals, `SUBSET`, `[S -> T]`, `[a : S]`, `\X`, `Seq(S)`, `Nat`, `Int`, `STRING`, lazy
//!   `\cup`/`\cap`/`\`, `UNION`, and `{x \in S : P}` through an evaluator hook. Finite lazy sets
//!   are enumerated into `Set` when they are stored inside another value ([`Value::canonical`]);
//!   infinite ones stay symbolic and cannot be fingerprinted (TLC cannot either).
//!
//! A `Value` is two words: a tag and an `i32`, or a tag and one pointer. Sets and sequences
//! hold their elements in an [`Elems`], a shared slice behind a single pointer (its length is
//! stored with the elements, as is their fingerprint once computed), so elements are one
//! indirection away and a `Value` is 16 bytes on x86_64.
//!
//! # TLC's order (what CHOOSE and enumeration rely on)
//! Read from TLC's `compareTo` methods (tlc2.value.impl) and checked with TLC 2.15:
//! - `FALSE < TRUE`; integers numerically.
//! - strings and model values by intern rank ([`crate::intern`]), not by text.
//! - an untyped model value is below every non-model value; a typed model value (`x_1`: a letter,
//!   then `_`) compares only with model values of its type or untyped ones, else it is an error.
//! - sets: first by cardinality, then element by element in their own sorted order
//!   (`{{2}, {3}, {1, 2}, {1, 3}}`).
//! - functions (tuples, records): first by the size of the domain, then the sorted domains
//!   element by element, then the values in domain order (`{<<>>, <<1, 3>>, <<2, 1>>, <<1, 2, 3>>}`).
//! - anything else (an integer and a string, a set and a function, `<<1>>` and `[a |-> 1]`, the
//!   empty set and `<<>>`) is an error, as in TLC ("Attempted to compare ...").
//!
//! CHOOSE takes the first element satisfying the predicate in this order; `\E` and `x' \in S`
//! enumerate in the order of [`Value::elements`] (the same order for canonical sets).
//!
//! Where we differ from TLC on purpose: TLC builds a set literal unsorted and only sorts it when
//! it must, so `"a" \in {"a", 1}` is TRUE in TLC and an error here (sets are sorted when built).

use std::cmp::Ordering;

use crate::shared::Counted;

use crate::error::{codes, VResult, ValueError};
use crate::intern::Str;
use crate::set::LazySet;

/// A model value (a constant of the `.cfg` that equals only itself).
#[derive(Clone, Debug)]
pub struct ModelValue(Counted<ModelData>);

#[derive(Debug)]
struct ModelData {
    name: Str,
    typ: Option<char>,
}

impl ModelValue {
    /// A model value named by an interned string; `x_1` (letter, underscore, more) is typed `x`.
    pub fn new(name: Str) -> ModelValue {
        let text = name.as_str();
        let mut cs = text.chars();
        let first = cs.next();
        let typ = match (first, cs.next()) {
            (Some(c), Some('_')) if text.chars().count() > 2 => Some(c),
            _ => None,
        };
        ModelValue(Counted::new(ModelData { name, typ }))
    }
    pub fn name(&self) -> &Str {
        &self.0.name
    }
    pub fn typ(&self) -> Option<char> {
        self.0.typ
    }
}

impl PartialEq for ModelValue {
    fn eq(&self, other: &ModelValue) -> bool {
        self.0.name == other.0.name
    }
}
impl Eq for ModelValue {}

/// A fingerprint computed once and kept with the value it belongs to (0: not yet computed).
/// Values are immutable, so it never goes stale; two threads racing compute the same number.
#[derive(Default)]
pub(crate) struct FpCell(std::sync::atomic::AtomicU64);

impl FpCell {
    pub(crate) fn get(&self) -> Option<u64> {
        match self.0.load(std::sync::atomic::Ordering::Relaxed) {
            0 => None,
            fp => Some(fp),
        }
    }
    pub(crate) fn set(&self, fp: u64) {
        self.0.store(fp, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Clone for FpCell {
    fn clone(&self) -> FpCell {
        FpCell(std::sync::atomic::AtomicU64::new(self.0.load(std::sync::atomic::Ordering::Relaxed)))
    }
}

impl std::fmt::Debug for FpCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.get())
    }
}

/// One answer of a membership test kept with the value tested (see `set::member_kept`): the
/// number of the set it was tested in (never 0, never given to two sets) and the answer, as
/// `number << 1 | answer`; 0: none. A value is tested in one set at a time in most models
/// (`TypeOK`), so one answer is enough; a test in another set replaces it. Values are
/// immutable and a set's number is given once, so an answer never goes stale; two threads
/// racing write answers for sets of their own, which the other never reads as its own.
#[derive(Default)]
pub(crate) struct MemoCell(std::sync::atomic::AtomicU32);

impl MemoCell {
    /// The answer kept for the set numbered `number`.
    #[inline]
    pub(crate) fn get(&self, number: u32) -> Option<bool> {
        let m = self.0.load(std::sync::atomic::Ordering::Relaxed);
        (m != 0 && m >> 1 == number).then_some(m & 1 == 1)
    }
    #[inline]
    pub(crate) fn set(&self, number: u32, answer: bool) {
        self.0.store(number << 1 | answer as u32, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Clone for MemoCell {
    fn clone(&self) -> MemoCell {
        MemoCell(std::sync::atomic::AtomicU32::new(self.0.load(std::sync::atomic::Ordering::Relaxed)))
    }
}

impl std::fmt::Debug for MemoCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.0.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// The elements of a set or a sequence, or the domain of a function: an immutable slice shared
/// by reference count, behind one pointer (the length lives in the allocation, with the
/// elements' fingerprint once computed: as a set for the elements of a set or a domain, as a
/// sequence for those of a sequence; a sequence's elements are never shared with a set).
#[derive(Clone)]
pub struct Elems(pub(crate) crate::shared::Shared);

impl Elems {
    pub fn ptr_eq(a: &Elems, b: &Elems) -> bool {
        crate::shared::Shared::ptr_eq(&a.0, &b.0)
    }
    pub(crate) fn fp(&self) -> &FpCell {
        self.0.fp()
    }
    pub(crate) fn memo(&self) -> &MemoCell {
        self.0.memo()
    }
}

impl std::ops::Deref for Elems {
    type Target = [Value];
    #[inline]
    fn deref(&self) -> &[Value] {
        &self.0
    }
}

impl From<Vec<Value>> for Elems {
    fn from(v: Vec<Value>) -> Elems {
        Elems(crate::shared::Shared::from_iter_exact(v.into_iter()))
    }
}

impl Elems {
    /// The elements of an iterator that knows its length, in one allocation.
    pub(crate) fn from_iter_exact(it: impl ExactSizeIterator<Item = Value>) -> Elems {
        Elems(crate::shared::Shared::from_iter_exact(it))
    }
}

impl From<&[Value]> for Elems {
    fn from(v: &[Value]) -> Elems {
        Elems(crate::shared::Shared::from_iter_exact(v.iter().cloned()))
    }
}

impl FromIterator<Value> for Elems {
    fn from_iter<I: IntoIterator<Item = Value>>(it: I) -> Elems {
        Elems::from(it.into_iter().collect::<Vec<Value>>())
    }
}

impl std::fmt::Debug for Elems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Bring level `depth` of the values `values` into the cache: the slice itself at depth 0,
/// the allocations it points to at depth 1, theirs at depth 2, and so on (at most 48 slices
/// are followed per level; of each allocation, the first two lines: its header and its first
/// values). The levels above are read, so they should be in the cache already:
/// an explorer warms the state it expands in k steps at depth 3 - k, so that each level has
/// been asked of memory a whole expansion before it is read (the states of a breadth-first
/// queue were built long before and are out of the caches). A hint only: nothing changes,
/// whatever is or is not brought in.
pub fn warm(values: &[Value], depth: u32) {
    use crate::shared::prefetch;
    const MAX: usize = 48;
    if depth == 0 {
        prefetch(values.as_ptr());
        return;
    }
    let mut level: [&[Value]; MAX] = [&[]; MAX];
    let mut n = 1;
    level[0] = values;
    for _ in 1..depth {
        let mut next: [&[Value]; MAX] = [&[]; MAX];
        let mut m = 0;
        for vs in &level[..n] {
            for v in vs.iter() {
                let children: &[Value] = match v {
                    Value::Seq(e) => e,
                    Value::Set(s) => s.elems(),
                    Value::Fcn(f) => f.values(),
                    _ => continue,
                };
                if !children.is_empty() && m < MAX {
                    next[m] = children;
                    m += 1;
                }
            }
        }
        if m == 0 {
            return;
        }
        level = next;
        n = m;
    }
    for vs in &level[..n] {
        for v in vs.iter() {
            // The header and the first values, the rest of which are on the next line.
            let at = match v {
                Value::Seq(e) => e.0.addr(),
                Value::Set(s) => s.0.0.addr(),
                Value::Fcn(f) => f.addr(),
                _ => continue,
            };
            prefetch(at);
            prefetch(at.wrapping_add(64));
        }
    }
}

/// A canonical finite set: sorted in TLC's order, without duplicates.
#[derive(Clone, Debug)]
pub struct SetVal(Elems);

impl SetVal {
    pub fn empty() -> SetVal {
        SetVal(Elems::from(Vec::new()))
    }
    /// Sort and deduplicate (each element made canonical first).
    pub fn from_vec(mut elems: Vec<Value>) -> VResult<SetVal> {
        for e in elems.iter_mut() {
            if matches!(e, Value::Lazy(_)) {
                *e = e.canonical()?;
            }
        }
        sort_dedup(&mut elems)?;
        Ok(SetVal(Elems::from(elems)))
    }
    /// Elements already canonical, sorted and unique (callers inside the crate only).
    pub(crate) fn from_sorted(elems: Vec<Value>) -> SetVal {
        SetVal(Elems::from(elems))
    }
    pub(crate) fn from_arc(elems: Elems) -> SetVal {
        SetVal(elems)
    }
    pub fn elems(&self) -> &[Value] {
        &self.0
    }
    pub(crate) fn arc(&self) -> &Elems {
        &self.0
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Membership by binary search in TLC's order (an incomparable element is an error, as in TLC).
    pub fn contains(&self, v: &Value) -> VResult<bool> {
        if v.is_lazy() {
            let c = v.canonical()?;
            return self.contains(&c);
        }
        let (mut lo, mut hi) = (0usize, self.0.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let x = &self.0[mid];
            let c = match quick_cmp(x, v) {
                Some(c) => c,
                None => x.tlc_cmp(v)?,
            };
            match c {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Ok(true),
            }
        }
        Ok(false)
    }
}

/// Whether `a` and `b` are the very same scalar: equal integers, or the same allocation of an
/// interned string or a model value (so equal). False says nothing.
#[inline]
pub(crate) fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x.same(y),
        (Value::Model(x), Value::Model(y)) => Counted::ptr_eq(&x.0, &y.0),
        _ => false,
    }
}

impl Value {
    /// Whether `a` and `b` are one value by construction: equal booleans or integers, or the
    /// same allocation (a variable a step left unchanged holds its old value's allocation).
    /// False says nothing: equal values may have been built apart.
    pub fn same_allocation(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Set(x), Value::Set(y)) => Elems::ptr_eq(&x.0, &y.0),
            (Value::Seq(x), Value::Seq(y)) => Elems::ptr_eq(x, y),
            (Value::Fcn(x), Value::Fcn(y)) => FcnVal::ptr_eq(x, y),
            (Value::Lazy(x), Value::Lazy(y)) => Counted::ptr_eq(x, y),
            _ => identical(a, b),
        }
    }
}

/// `x.tlc_cmp(v)` for the scalars compared most (integers, interned strings, model values of
/// one type or none), inline; None for the rest.
#[inline]
pub(crate) fn quick_cmp(x: &Value, v: &Value) -> Option<Ordering> {
    match (x, v) {
        (Value::Int(a), Value::Int(b)) => Some(a.cmp(b)),
        (Value::Str(a), Value::Str(b)) => Some(a.cmp(b)),
        (Value::Model(a), Value::Model(b)) if a.typ() == b.typ() => Some(a.name().cmp(b.name())),
        _ => None,
    }
}

/// A function whose domain is not `1..n`: domain sorted in TLC's order, values alongside. One
/// allocation: the values, with the domain, the fingerprint and a membership answer in its
/// header (see `shared`).
#[derive(Clone)]
pub struct FcnVal(crate::shared::Shared);

impl FcnVal {
    fn new(domain: Elems, values: impl ExactSizeIterator<Item = Value>) -> FcnVal {
        FcnVal(crate::shared::Shared::from_iter_with(Some(domain), values))
    }
    /// The function with its value at position `i` of the domain replaced by `new` (canonical),
    /// sharing the domain: one copy of the values, no check of what is unchanged.
    pub(crate) fn with_value_at(&self, i: usize, new: Value) -> Value {
        let fp = self.values().get(i).and_then(|old| crate::fingerprint::after_replace(self.fp(), i, old, &new));
        let mut new = Some(new);
        let values = self.values().iter().enumerate().map(|(j, v)| if j == i { new.take().unwrap_or_else(|| v.clone()) } else { v.clone() });
        let f = FcnVal::new(self.domain_elems().clone(), values);
        if let Some(fp) = fp {
            f.fp().set(fp);
        }
        Value::Fcn(f)
    }
    pub fn domain(&self) -> &[Value] {
        self.domain_elems()
    }
    pub fn values(&self) -> &[Value] {
        &self.0
    }
    /// The function's fingerprint, once computed.
    pub(crate) fn fp(&self) -> &FpCell {
        self.0.fp()
    }
    /// A membership answer (see `set::member_kept`).
    pub(crate) fn memo(&self) -> &MemoCell {
        self.0.memo()
    }
    /// The domain as shared elements (for `DOMAIN f` and EXCEPT, which keep it).
    pub(crate) fn domain_elems(&self) -> &Elems {
        // Every function is made by `new`, with its domain.
        self.0.ext().expect("a function's allocation holds its domain")
    }
    /// True when every domain element is a string (the function is a record).
    pub fn is_record(&self) -> bool {
        self.domain().iter().all(|d| matches!(d, Value::Str(_)))
    }
    /// The same allocation.
    pub fn ptr_eq(a: &FcnVal, b: &FcnVal) -> bool {
        crate::shared::Shared::ptr_eq(&a.0, &b.0)
    }
    /// The allocation's address.
    pub(crate) fn addr(&self) -> *const u8 {
        self.0.addr()
    }
}

impl std::fmt::Debug for FcnVal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FcnVal").field("domain", &self.domain()).field("values", &self.values()).finish()
    }
}

/// A value is two words: a tag word, then the payload (a boolean, an integer or one pointer).
/// The tag is a whole word (`repr(C, usize)`) so that a value, and a result holding one, is
/// moved as two words: with a one-byte tag the compiler packs an `Int` at offset 4 and a `Bool`
/// at offset 1 and moves values in overlapping pieces, which stalls the processor's store
/// forwarding at every return of the evaluator.
#[derive(Clone, Debug)]
#[repr(C, usize)]
pub enum Value {
    Bool(bool),
    Int(i32),
    Str(Str),
    Model(ModelValue),
    Set(SetVal),
    /// A function with domain `1..n` (n ≥ 0).
    Seq(Elems),
    Fcn(FcnVal),
    Lazy(Counted<LazySet>),
}

/// What kind of value, in words, for messages.
pub fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "boolean",
        Value::Int(_) => "integer",
        Value::Str(_) => "string",
        Value::Model(_) => "model value",
        Value::Set(_) | Value::Lazy(_) => "set",
        Value::Seq(_) => "tuple",
        Value::Fcn(f) if f.is_record() => "record",
        Value::Fcn(_) => "function",
    }
}

fn incomparable(a: &Value, b: &Value) -> ValueError {
    ValueError::new(
        codes::INCOMPARABLE,
        format!("Attempted to compare the {} {} with the {} {}", kind_name(a), a, kind_name(b), b),
    )
}

impl Value {
    pub fn empty_set() -> Value {
        Value::Set(SetVal::empty())
    }
    pub fn set(elems: Vec<Value>) -> VResult<Value> {
        Ok(Value::Set(SetVal::from_vec(elems)?))
    }
    pub fn tuple(elems: Vec<Value>) -> VResult<Value> {
        let mut elems = elems;
        for e in elems.iter_mut() {
            if e.is_lazy() {
                *e = e.canonical()?;
            }
        }
        Ok(Value::Seq(Elems::from(elems)))
    }
    pub fn model(name: Str) -> Value {
        Value::Model(ModelValue::new(name))
    }
    /// A function from (argument, value) pairs; the layout is chosen here (see module docs).
    pub fn fcn(pairs: Vec<(Value, Value)>) -> VResult<Value> {
        let mut pairs = pairs;
        for (d, v) in pairs.iter_mut() {
            if d.is_lazy() {
                *d = d.canonical()?;
            }
            if v.is_lazy() {
                *v = v.canonical()?;
            }
        }
        merge_sort_by(&mut pairs, &|a: &(Value, Value), b: &(Value, Value)| a.0.tlc_cmp(&b.0))?;
        for w in pairs.windows(2) {
            if w[0].0.tlc_cmp(&w[1].0)? == Ordering::Equal {
                return Err(ValueError::new(
                    codes::DUPLICATE_DOMAIN,
                    format!("The value {} occurs multiple times in the function domain", w[1].0),
                ));
            }
        }
        let is_seq = pairs.iter().enumerate().all(|(i, (d, _))| matches!(d, Value::Int(k) if *k as i64 == i as i64 + 1));
        if is_seq {
            return Ok(Value::Seq(pairs.into_iter().map(|(_, v)| v).collect()));
        }
        let (domain, values): (Vec<Value>, Vec<Value>) = pairs.into_iter().unzip();
        Ok(Value::Fcn(FcnVal::new(Elems::from(domain), values.into_iter())))
    }
    /// A function over a canonical domain set, values given in the domain's order.
    pub fn fcn_over(domain: &SetVal, values: Vec<Value>) -> VResult<Value> {
        if domain.len() != values.len() {
            return Err(ValueError::new(codes::TYPE, "function values do not match its domain"));
        }
        let mut values = values;
        for v in values.iter_mut() {
            if v.is_lazy() {
                *v = v.canonical()?;
            }
        }
        let is_seq = domain.elems().iter().enumerate().all(|(i, d)| matches!(d, Value::Int(k) if *k as i64 == i as i64 + 1));
        if is_seq {
            return Ok(Value::Seq(Elems::from(values)));
        }
        Ok(Value::Fcn(FcnVal::new(domain.arc().clone(), values.into_iter())))
    }
    /// `[f1 |-> v1, ...]`
    pub fn record(fields: Vec<(Str, Value)>) -> VResult<Value> {
        Value::fcn(fields.into_iter().map(|(n, v)| (Value::Str(n), v)).collect())
    }

    pub fn is_lazy(&self) -> bool {
        matches!(self, Value::Lazy(_))
    }
    pub fn as_bool(&self) -> VResult<bool> {
        match self {
            Value::Bool(b) => Ok(*b),
            _ => Err(ValueError::new(codes::TYPE, format!("expected a boolean, found the {} {}", kind_name(self), self))),
        }
    }
    pub fn as_int(&self) -> VResult<i32> {
        match self {
            Value::Int(i) => Ok(*i),
            _ => Err(ValueError::new(codes::TYPE, format!("expected an integer, found the {} {}", kind_name(self), self))),
        }
    }
    pub fn is_set(&self) -> bool {
        matches!(self, Value::Set(_) | Value::Lazy(_))
    }
    pub fn is_fcn(&self) -> bool {
        matches!(self, Value::Seq(_) | Value::Fcn(_))
    }

    /// The canonical form: a finite lazy set becomes a `Set`; infinite ones stay symbolic.
    pub fn canonical(&self) -> VResult<Value> {
        match self {
            Value::Lazy(l) if l.is_finite() => Ok(Value::Set(l.to_set()?)),
            _ => Ok(self.clone()),
        }
    }

    /// The finite set this value denotes, sorted (an error for non-sets and infinite sets).
    pub fn to_set(&self) -> VResult<SetVal> {
        match self {
            Value::Set(s) => Ok(s.clone()),
            Value::Lazy(l) => l.to_set(),
            _ => Err(ValueError::new(codes::TYPE, format!("expected a set, found the {} {}", kind_name(self), self))),
        }
    }

    /// TLC's `compareTo`: a total order on comparable values, an error otherwise.
    pub fn tlc_cmp(&self, other: &Value) -> VResult<Ordering> {
        use Value::*;
        match (self, other) {
            (Model(a), Model(b)) => {
                if let (Some(x), Some(y)) = (a.typ(), b.typ())
                    && x != y {
                        return Err(ValueError::new(
                            codes::INCOMPARABLE,
                            format!("Attempted to compare the differently-typed model values {} and {}", self, other),
                        ));
                    }
                Ok(a.name().cmp(b.name()))
            }
            (Model(a), _) => match a.typ() {
                None => Ok(Ordering::Less),
                Some(_) => Err(typed_mv_error(self, other)),
            },
            (_, Model(b)) => match b.typ() {
                None => Ok(Ordering::Greater),
                Some(_) => Err(typed_mv_error(other, self)),
            },
            (Bool(a), Bool(b)) => Ok(a.cmp(b)),
            (Int(a), Int(b)) => Ok(a.cmp(b)),
            (Str(a), Str(b)) => Ok(a.cmp(b)),
            (Set(a), Set(b)) if Elems::ptr_eq(&a.0, &b.0) => Ok(Ordering::Equal),
            (Set(a), Set(b)) => cmp_sets(a.elems(), b.elems()),
            (Seq(a), Seq(b)) if Elems::ptr_eq(a, b) => Ok(Ordering::Equal),
            (Fcn(a), Fcn(b)) if FcnVal::ptr_eq(a, b) => Ok(Ordering::Equal),
            (Lazy(a), Lazy(b)) => {
                if let (Some(x), Some(y)) = (a.as_interval(), b.as_interval()) {
                    return Ok(cmp_intervals(x, y));
                }
                if a.same_symbolic(b) {
                    return Ok(Ordering::Equal);
                }
                cmp_sets(self.to_set()?.elems(), other.to_set()?.elems())
            }
            // Sets of different sizes are ordered by size: a lazy set whose size is known
            // without building it (and which could be built) is not built.
            (Lazy(l), Set(b)) => match buildable_size(l) {
                Some(n) if n != b.len() as u64 => Ok(n.cmp(&(b.len() as u64))),
                _ => cmp_sets(self.to_set()?.elems(), b.elems()),
            },
            (Set(a), Lazy(l)) => match buildable_size(l) {
                Some(n) if n != a.len() as u64 => Ok((a.len() as u64).cmp(&n)),
                _ => cmp_sets(a.elems(), other.to_set()?.elems()),
            },
            (Seq(a), Seq(b)) => {
                let c = a.len().cmp(&b.len());
                if c != Ordering::Equal {
                    return Ok(c);
                }
                cmp_slices(a, b)
            }
            (Seq(_) | Fcn(_), Seq(_) | Fcn(_)) => cmp_fcns(self, other),
            _ => Err(incomparable(self, other)),
        }
    }

    /// TLC's `equals`: `=` in TLA+. Values of kinds TLC cannot compare are an error; a model
    /// value is unequal to any other kind of value (typed model values: an error).
    #[inline]
    pub fn tlc_eq(&self, other: &Value) -> VResult<bool> {
        // The frequent scalar cases first, without a call.
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => return Ok(a == b),
            (Value::Str(a), Value::Str(b)) => return Ok(a == b),
            (Value::Bool(a), Value::Bool(b)) => return Ok(a == b),
            _ => {}
        }
        self.tlc_eq_slow(other)
    }

    fn tlc_eq_slow(&self, other: &Value) -> VResult<bool> {
        match (self, other) {
            (Value::Model(a), Value::Model(b)) => {
                if let (Some(x), Some(y)) = (a.typ(), b.typ())
                    && x != y {
                        return Err(ValueError::new(
                            codes::INCOMPARABLE,
                            format!("Attempted to check equality of the differently-typed model values {} and {}", self, other),
                        ));
                    }
                Ok(a == b)
            }
            (Value::Model(a), _) | (_, Value::Model(a)) => match a.typ() {
                None => Ok(false),
                Some(_) => Err(ValueError::new(
                    codes::INCOMPARABLE,
                    format!("Attempted to check equality of the typed model value {} and the non-model value {}",
                        if self.is_model() { self } else { other }, if self.is_model() { other } else { self }),
                )),
            },
            (Value::Set(a), Value::Set(b)) if a.len() != b.len() => Ok(false),
            (Value::Seq(a), Value::Seq(b)) if a.len() != b.len() => Ok(false),
            // A built set of integers and an interval (`ack[p] = 1..N`): the same integers in
            // order, read without building the interval.
            (Value::Set(s), Value::Lazy(l)) | (Value::Lazy(l), Value::Set(s))
                if l.as_interval().is_some() && s.elems().iter().all(|e| matches!(e, Value::Int(_))) =>
            {
                let (lo, hi) = l.as_interval().unwrap_or((1, 0));
                let n = (hi as i64 - lo as i64 + 1).max(0) as usize;
                Ok(s.len() == n && s.elems().iter().enumerate().all(|(j, e)| matches!(e, Value::Int(i) if *i as i64 == lo as i64 + j as i64)))
            }
            _ => Ok(self.tlc_cmp(other)? == Ordering::Equal),
        }
    }

    fn is_model(&self) -> bool {
        matches!(self, Value::Model(_))
    }
}

fn typed_mv_error(mv: &Value, other: &Value) -> ValueError {
    ValueError::new(
        codes::INCOMPARABLE,
        format!("Attempted to compare the typed model value {} and the non-model value {}", mv, other),
    )
}

/// The size of a lazy set when it is cheap to know (intervals, `SUBSET`, `[S -> T]`,
/// `[a : S]`, `\X` over built sets) and the set is small enough to be built, as `to_set` would.
fn buildable_size(l: &LazySet) -> Option<u64> {
    let cheap = l.as_interval().is_some() || l.has_cheap_size();
    if !cheap {
        return None;
    }
    l.size().ok().filter(|n| *n <= crate::set::MAX_MATERIALIZED)
}

fn cmp_intervals(a: (i32, i32), b: (i32, i32)) -> Ordering {
    let size = |(lo, hi): (i32, i32)| if hi < lo { 0i64 } else { hi as i64 - lo as i64 + 1 };
    let (sa, sb) = (size(a), size(b));
    if sa != sb {
        return sa.cmp(&sb);
    }
    if sa == 0 {
        return Ordering::Equal;
    }
    a.0.cmp(&b.0)
}

fn cmp_slices(a: &[Value], b: &[Value]) -> VResult<Ordering> {
    for (x, y) in a.iter().zip(b.iter()) {
        let c = x.tlc_cmp(y)?;
        if c != Ordering::Equal {
            return Ok(c);
        }
    }
    Ok(a.len().cmp(&b.len()))
}

fn cmp_sets(a: &[Value], b: &[Value]) -> VResult<Ordering> {
    let c = a.len().cmp(&b.len());
    if c != Ordering::Equal {
        return Ok(c);
    }
    cmp_slices(a, b)
}

/// Functions: domain size, then domains element by element, then values (TLC's FcnRcdValue).
fn cmp_fcns(a: &Value, b: &Value) -> VResult<Ordering> {
    let (la, lb) = (fcn_len(a), fcn_len(b));
    if la != lb {
        return Ok(la.cmp(&lb));
    }
    if let (Value::Fcn(x), Value::Fcn(y)) = (a, b) {
        // Records built by the same constructor often share their domain.
        if !Elems::ptr_eq(x.domain_elems(), y.domain_elems()) {
            let c = cmp_slices(x.domain(), y.domain())?;
            if c != Ordering::Equal {
                return Ok(c);
            }
        }
        return cmp_slices(x.values(), y.values());
    }
    for i in 0..la {
        let c = fcn_dom_at(a, i).tlc_cmp(&fcn_dom_at(b, i))?;
        if c != Ordering::Equal {
            return Ok(c);
        }
    }
    for i in 0..la {
        let c = fcn_val_at(a, i).tlc_cmp(fcn_val_at(b, i))?;
        if c != Ordering::Equal {
            return Ok(c);
        }
    }
    Ok(Ordering::Equal)
}

pub(crate) fn fcn_len(v: &Value) -> usize {
    match v {
        Value::Seq(s) => s.len(),
        Value::Fcn(f) => f.values().len(),
        _ => 0,
    }
}
pub(crate) fn fcn_dom_at(v: &Value, i: usize) -> Value {
    match v {
        Value::Seq(_) => Value::Int(i as i32 + 1),
        Value::Fcn(f) => f.domain()[i].clone(),
        _ => Value::Bool(false),
    }
}
pub(crate) fn fcn_val_at(v: &Value, i: usize) -> &Value {
    match v {
        Value::Seq(s) => &s[i],
        Value::Fcn(f) => &f.values()[i],
        _ => unreachable_value(),
    }
}
fn unreachable_value() -> &'static Value {
    static FALSE: Value = Value::Bool(false);
    &FALSE
}

/// Sort in TLC's order and drop duplicates; an incomparable pair is an error (no panic: the
/// merge sort stops at the first error).
pub(crate) fn sort_dedup(v: &mut Vec<Value>) -> VResult<()> {
    // Fast path: already strictly increasing (sets built from sorted sources).
    let mut sorted = true;
    for w in v.windows(2) {
        if w[0].tlc_cmp(&w[1])? != Ordering::Less {
            sorted = false;
            break;
        }
    }
    if sorted {
        return Ok(());
    }
    merge_sort_by(v, &|a: &Value, b: &Value| a.tlc_cmp(b))?;
    let mut out: Vec<Value> = Vec::with_capacity(v.len());
    for x in v.drain(..) {
        if let Some(last) = out.last()
            && last.tlc_cmp(&x)? == Ordering::Equal {
                continue;
            }
        out.push(x);
    }
    *v = out;
    Ok(())
}

/// A stable merge sort with a fallible comparison.
pub(crate) fn merge_sort_by<T: Clone>(v: &mut Vec<T>, cmp: &dyn Fn(&T, &T) -> VResult<Ordering>) -> VResult<()> {
    let n = v.len();
    if n < 2 {
        return Ok(());
    }
    // Insertion sort for short runs, then bottom-up merges.
    const RUN: usize = 16;
    let mut start = 0;
    while start < n {
        let end = (start + RUN).min(n);
        for i in start + 1..end {
            let mut j = i;
            while j > start && cmp(&v[j - 1], &v[j])? == Ordering::Greater {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        start = end;
    }
    let mut width = RUN;
    let mut buf: Vec<T> = Vec::with_capacity(n);
    while width < n {
        buf.clear();
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j) = (lo, mid);
            while i < mid && j < hi {
                if cmp(&v[j], &v[i])? == Ordering::Less {
                    buf.push(v[j].clone());
                    j += 1;
                } else {
                    buf.push(v[i].clone());
                    i += 1;
                }
            }
            buf.extend_from_slice(&v[i..mid]);
            buf.extend_from_slice(&v[j..hi]);
            lo = hi;
        }
        std::mem::swap(v, &mut buf);
        width *= 2;
    }
    Ok(())
}

/// Structural equality of canonical values (for tests and hash maps of canonical values).
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        matches!(self.tlc_eq(other), Ok(true))
    }
}
