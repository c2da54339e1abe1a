//! Functions, records and sequences: application, EXCEPT, and the Sequences operators.

use std::cmp::Ordering;

use crate::error::{codes, VResult, ValueError};
use crate::intern::Str;
use crate::value::{kind_name, Elems, Value};

fn not_fcn(v: &Value, what: &str) -> ValueError {
    ValueError::new(codes::TYPE, format!("Attempted to {} the {} {}, which is not a function", what, kind_name(v), v))
}

fn not_seq(op: &str, v: &Value) -> ValueError {
    ValueError::new(codes::TYPE, format!("The argument of {} should be a sequence, but instead it is the {} {}", op, kind_name(v), v))
}

impl Value {
    /// Position of `arg` in the function's domain. An integer is placed inline in a sequence
    /// and in an interval domain (the usual `[i \in 0..N-1 |-> ...]`: its offset from the first
    /// element); the rest is `index_in`.
    #[inline]
    pub(crate) fn index_of(&self, arg: &Value) -> VResult<Option<usize>> {
        match (self, arg) {
            (Value::Seq(s), Value::Int(i)) => {
                return Ok(if *i >= 1 && (*i as usize) <= s.len() { Some(*i as usize - 1) } else { None });
            }
            (Value::Fcn(f), Value::Int(i)) => {
                let d = f.domain();
                if let (Some(Value::Int(first)), Some(Value::Int(last))) = (d.first(), d.last())
                    && (*last as i64 - *first as i64) as usize + 1 == d.len()
                {
                    return Ok(if first <= i && i <= last { Some((*i as i64 - *first as i64) as usize) } else { None });
                }
            }
            _ => {}
        }
        self.index_in(arg)
    }

    fn index_in(&self, arg: &Value) -> VResult<Option<usize>> {
        match self {
            Value::Seq(s) => match arg {
                Value::Int(i) if *i >= 1 && (*i as usize) <= s.len() => Ok(Some(*i as usize - 1)),
                Value::Int(_) => Ok(None),
                Value::Model(m) if m.typ().is_none() => Ok(None),
                _ => Err(ValueError::new(
                    codes::INCOMPARABLE,
                    format!("Attempted to apply the tuple {} to the {} {}, which is not an integer", self, kind_name(arg), arg),
                )),
            },
            Value::Fcn(f) => {
                let owned;
                let arg = if arg.is_lazy() {
                    owned = arg.canonical()?;
                    &owned
                } else {
                    arg
                };
                let d = f.domain();
                // A small domain (processes, nodes, record fields): the very element, found by
                // its identity, before comparing values.
                if d.len() <= 16
                    && let Some(j) = d.iter().position(|x| crate::value::identical(x, arg))
                {
                    return Ok(Some(j));
                }
                let (mut lo, mut hi) = (0usize, d.len());
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    let c = match crate::value::quick_cmp(&d[mid], arg) {
                        Some(c) => c,
                        None => d[mid].tlc_cmp(arg)?,
                    };
                    match c {
                        Ordering::Less => lo = mid + 1,
                        Ordering::Greater => hi = mid,
                        Ordering::Equal => return Ok(Some(mid)),
                    }
                }
                Ok(None)
            }
            _ => Err(not_fcn(self, "apply")),
        }
    }

    /// `f[arg]`
    pub fn apply(&self, arg: &Value) -> VResult<Value> {
        self.apply_ref(arg).cloned()
    }

    /// `f[arg]`, borrowed from `f`: a sequence at an index within it, and a function whose
    /// domain is an integer interval (`[i \in 0..N-1 |-> ...]`) at an integer in it, inline;
    /// the rest in `apply_ref_slow`.
    #[inline]
    pub fn apply_ref(&self, arg: &Value) -> VResult<&Value> {
        match (self, arg) {
            (Value::Seq(s), Value::Int(i)) if *i >= 1 && (*i as usize) <= s.len() => return Ok(&s[*i as usize - 1]),
            (Value::Fcn(f), Value::Int(i)) => {
                // A domain is sorted, and integers cannot share one with other kinds of values
                // (TLC cannot compare them; untyped model values would come first): first and
                // last integers that are len - 1 apart mean the interval first..last.
                let d = f.domain();
                if let (Some(Value::Int(lo)), Some(Value::Int(hi))) = (d.first(), d.last())
                    && *lo <= *i
                    && *i <= *hi
                    && (*hi as i64 - *lo as i64) as usize == d.len() - 1
                {
                    return Ok(&f.values()[(*i as i64 - *lo as i64) as usize]);
                }
            }
            _ => {}
        }
        self.apply_ref_slow(arg)
    }

    #[inline(never)]
    fn apply_ref_slow(&self, arg: &Value) -> VResult<&Value> {
        match self.index_of(arg)? {
            Some(i) => Ok(crate::value::fcn_val_at(self, i)),
            None => Err(ValueError::new(
                codes::NOT_IN_DOMAIN,
                format!("Attempted to apply function {} to argument {}, which is not in the domain of the function", self, arg),
            )),
        }
    }

    /// `r.field`
    pub fn field(&self, name: &Str) -> VResult<Value> {
        self.field_ref(name).cloned()
    }

    /// `r.field`, borrowed from `r`.
    pub fn field_ref(&self, name: &Str) -> VResult<&Value> {
        // A record's fields by binary search on the names, in the order of `tlc_cmp` (the
        // name is not made into a value).
        if let Value::Fcn(f) = self {
            let d = f.domain();
            let (mut lo, mut hi) = (0usize, d.len());
            while lo < hi {
                let mid = (lo + hi) / 2;
                let Value::Str(k) = &d[mid] else { break };
                match k.cmp(name) {
                    Ordering::Less => lo = mid + 1,
                    Ordering::Greater => hi = mid,
                    Ordering::Equal => return Ok(&f.values()[mid]),
                }
            }
        }
        match self {
            Value::Fcn(_) | Value::Seq(_) => match self.index_of(&Value::Str(name.clone())) {
                Ok(Some(i)) => Ok(crate::value::fcn_val_at(self, i)),
                _ => Err(ValueError::new(
                    codes::NOT_IN_DOMAIN,
                    format!("Attempted to access the field \"{}\" of the record {}, which has no such field", name.as_str(), self),
                )),
            },
            _ => Err(ValueError::new(
                codes::TYPE,
                format!("Attempted to access the field \"{}\" of the {} {}, which is not a record", name.as_str(), kind_name(self), self),
            )),
        }
    }

    /// `[f EXCEPT ![arg] = new]` (an argument outside the domain leaves f unchanged, as in TLA+).
    pub fn except(&self, arg: &Value, new: Value) -> VResult<Value> {
        match self.index_of(arg)? {
            None => Ok(self.clone()),
            Some(i) => self.except_at(i, new),
        }
    }

    /// `[f EXCEPT ![d] = new]` for the `i`-th element `d` of the domain (`index_of`).
    pub(crate) fn except_at(&self, i: usize, new: Value) -> VResult<Value> {
        let new = if new.is_lazy() { new.canonical()? } else { new };
        match self {
            // One allocation: the elements copied, the one at i replaced.
            Value::Seq(s) => {
                let fp = s.get(i).and_then(|old| crate::fingerprint::after_replace(s.fp(), i, old, &new));
                let mut new = Some(new);
                let out = Elems::from_iter_exact((0..s.len()).map(|j| match new.take_if(|_| j == i) {
                    Some(v) => v,
                    None => s[j].clone(),
                }));
                if let Some(fp) = fp {
                    out.fp().set(fp);
                }
                Ok(Value::Seq(out))
            }
            Value::Fcn(f) => Ok(f.with_value_at(i, new)),
            _ => Err(not_fcn(self, "EXCEPT")),
        }
    }

    /// The elements of a sequence (a function with domain `1..n`).
    pub fn as_seq(&self, op: &str) -> VResult<&[Value]> {
        match self {
            Value::Seq(s) => Ok(s),
            _ => Err(not_seq(op, self)),
        }
    }
    /// `Len(s)`
    pub fn seq_len(&self) -> VResult<i32> {
        match self {
            Value::Str(s) => Ok(s.as_str().chars().count() as i32),
            _ => Ok(self.as_seq("Len")?.len() as i32),
        }
    }
    /// `Append(s, e)`
    pub fn append(&self, e: Value) -> VResult<Value> {
        let s = self.as_seq("Append")?;
        let e = if e.is_lazy() { e.canonical()? } else { e };
        let fp = match self {
            Value::Seq(elems) => crate::fingerprint::after_append(elems.fp(), s.len(), &e),
            _ => None,
        };
        let mut e = Some(e);
        // One allocation: the elements copied, then e.
        let out = Elems::from_iter_exact((0..s.len() + 1).map(|j| match s.get(j) {
            Some(x) => x.clone(),
            None => e.take().unwrap_or(Value::Bool(false)),
        }));
        if let Some(fp) = fp {
            out.fp().set(fp);
        }
        Ok(Value::Seq(out))
    }
    /// `Head(s)`
    pub fn head(&self) -> VResult<Value> {
        let s = self.as_seq("Head")?;
        s.first().cloned().ok_or_else(|| ValueError::new(codes::NOT_IN_DOMAIN, "Attempted to apply Head to the empty sequence"))
    }
    /// `Tail(s)`
    pub fn tail(&self) -> VResult<Value> {
        // TLC's Tail of a string is the string without its first character.
        if let Value::Str(t) = self {
            let mut chars = t.as_str().chars();
            if chars.next().is_none() {
                return Err(ValueError::new(codes::NOT_IN_DOMAIN, "Attempted to apply Tail to the empty string"));
            }
            return Ok(Value::Str(Str::unranked(chars.as_str())));
        }
        let s = self.as_seq("Tail")?;
        if s.is_empty() {
            return Err(ValueError::new(codes::NOT_IN_DOMAIN, "Attempted to apply Tail to the empty sequence"));
        }
        Ok(Value::Seq(Elems::from(&s[1..])))
    }
    /// `s \o t` (sequences, or strings)
    pub fn concat(&self, other: &Value) -> VResult<Value> {
        if let (Value::Str(a), Value::Str(b)) = (self, other) {
            return Ok(Value::Str(Str::unranked(&format!("{}{}", a.as_str(), b.as_str()))));
        }
        let mut v = self.as_seq("\\o")?.to_vec();
        v.extend_from_slice(other.as_seq("\\o")?);
        Ok(Value::Seq(Elems::from(v)))
    }
    /// `SubSeq(s, m, n)`: `<<s[m], ..., s[n]>>` (empty when n < m).
    pub fn subseq(&self, m: i32, n: i32) -> VResult<Value> {
        // TLC's SubSeq of a string is its substring, with the bounds of a sequence's.
        if let Value::Str(t) = self {
            let chars: Vec<char> = t.as_str().chars().collect();
            if n < m {
                return Ok(Value::Str(Str::unranked("")));
            }
            if m < 1 || n as i64 > chars.len() as i64 {
                return Err(ValueError::new(
                    codes::NOT_IN_DOMAIN,
                    format!("The second and third arguments of SubSeq ({}, {}) are out of the domain of {}", m, n, self),
                ));
            }
            return Ok(Value::Str(Str::unranked(&chars[m as usize - 1..n as usize].iter().collect::<String>())));
        }
        let s = self.as_seq("SubSeq")?;
        if n < m {
            return Ok(Value::Seq(Elems::from(Vec::new())));
        }
        if m < 1 || n as i64 > s.len() as i64 {
            return Err(ValueError::new(
                codes::NOT_IN_DOMAIN,
                format!("The second and third arguments of SubSeq ({}, {}) are out of the domain of {}", m, n, self),
            ));
        }
        Ok(Value::Seq(Elems::from(&s[m as usize - 1..n as usize])))
    }
}
