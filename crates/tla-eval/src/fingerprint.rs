//! Stable 64-bit fingerprints of values, identical on every target.
//!
//! Architecture invariant: a fingerprint depends only on the value, never on the layout or the
//! pointer width: it hashes fixed-width words with our own mixing function, never
//! `#[derive(Hash)]` (which hashes `usize` lengths: 4 bytes on wasm32, 8 on x86_64).
//!
//! Each scalar is one word: its kind's tag in the top byte and its payload below (a boolean, an
//! integer as 32 bits, a string or model value as 56 bits of the fingerprint of its text,
//! computed once per string, not its intern rank). A set, a sequence or another function is
//! hashed on its own and enters its container as one word, its fingerprint, kept with the
//! value once computed: a set streams a word holding its tag and size, then its elements; a
//! sequence or another function is a sum over its positions (see `at`), which a step that
//! replaces or appends one value updates without hashing the others again. A state shares
//! most of its values with its parent, so fingerprinting it hashes only what changed. A set
//! hashes its canonical (sorted) elements, so equal sets agree whatever order built them; a
//! sequence its values; another function its domain (as a set) and its values in domain
//! order. Hashing a sequence without its arguments is sound because the layout follows the
//! value: every function whose domain is `1..n` is a `Seq` (the constructors in `value` decide
//! it, never the user), so a tuple and the equal function built by `[i \in 1..n |-> ...]` are
//! one layout and one fingerprint, as are a record and the equal function over strings.

use crate::error::VResult;
use crate::value::{Elems, FpCell, Value};

const TAG_BOOL: u64 = 1 << 56;
const TAG_INT: u64 = 2 << 56;
const TAG_STR: u64 = 3 << 56;
const TAG_MODEL: u64 = 4 << 56;
const TAG_SET: u64 = 5 << 56;
const TAG_FCN: u64 = 6 << 56;
const TAG_SEQ: u64 = 7 << 56;
/// The payload bits below the tag byte.
const LOW: u64 = (1 << 56) - 1;

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

/// A streaming hasher over u64 words (MurmurHash3-style mixing, 64-bit state).
#[derive(Clone, Debug)]
pub struct FpHasher {
    h: u64,
    n: u64,
}

impl Default for FpHasher {
    fn default() -> Self {
        FpHasher::new()
    }
}

impl FpHasher {
    pub fn new() -> FpHasher {
        FpHasher { h: 0x9e37_79b9_7f4a_7c15, n: 0 }
    }
    pub fn write_u64(&mut self, w: u64) {
        let mut k = w.wrapping_mul(C1);
        k = k.rotate_left(31);
        k = k.wrapping_mul(C2);
        self.h ^= k;
        self.h = self.h.rotate_left(27).wrapping_mul(5).wrapping_add(0x52dc_e729);
        self.n = self.n.wrapping_add(1);
    }
    /// Length (as u64), then the bytes packed little-endian into words.
    pub fn write_bytes(&mut self, b: &[u8]) {
        self.write_u64(b.len() as u64);
        let mut chunks = b.chunks_exact(8);
        for chunk in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // The last partial word, zero-padded, byte by byte (no call to memcpy).
            let mut w = 0u64;
            for (i, &c) in rest.iter().enumerate() {
                w |= (c as u64) << (8 * i);
            }
            self.write_u64(w);
        }
    }
    pub fn finish(&self) -> u64 {
        let mut h = self.h ^ self.n;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^= h >> 33;
        h
    }
    /// Feed one value (errors for infinite sets, which have no canonical form).
    pub fn write_value(&mut self, v: &Value) -> VResult<()> {
        let w = word(v)?;
        self.write_u64(w);
        Ok(())
    }
}

/// The one word a value enters its container as: a scalar's tag and bits, or a compound
/// value's own fingerprint (kept in its allocation once computed). Equal values have equal
/// words; unequal values have unequal words but for 64-bit collisions, as for fingerprints.
pub(crate) fn word(v: &Value) -> VResult<u64> {
    Ok(match v {
        Value::Bool(b) => TAG_BOOL | *b as u64,
        Value::Int(i) => TAG_INT | *i as u32 as u64,
        // A string's text is hashed once, when it is made (`Str::text_fingerprint`).
        Value::Str(s) => TAG_STR | (s.text_fingerprint() & LOW),
        Value::Model(m) => TAG_MODEL | (m.name().text_fingerprint() & LOW),
        Value::Set(s) => set_fp(s.arc())?,
        Value::Lazy(l) => set_fp(l.to_set()?.arc())?,
        Value::Seq(s) => kept(s.fp(), || positions(seq_top(s.len()), s))?,
        Value::Fcn(f) => kept(f.fp(), || positions(fcn_top(f.values().len(), set_fp(f.domain_elems())?), f.values()))?,
    })
}

/// `top` plus what each of `values` adds at its position (see [`at`]).
fn positions(top: u64, values: &[Value]) -> VResult<u64> {
    let mut sum = top;
    for (j, x) in values.iter().enumerate() {
        sum = sum.wrapping_add(at(j, word(x)?));
    }
    Ok(sum)
}

/// Murmur3's 64-bit finaliser: a bijection whose every output bit depends on every input bit.
#[inline]
fn fmix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h
}

/// What the value at position `j` (of a sequence, or of a function in domain order) adds to
/// its container's fingerprint. A sequence or function is the sum of these and of its
/// "top" (kind, length, domain), so that replacing one value, or appending one, updates the
/// kept fingerprint in a few operations instead of hashing every value again
/// ([`after_replace`], [`after_append`]): a step changes one place of a function, and its
/// successor state is fingerprinted right after.
#[inline]
fn at(j: usize, w: u64) -> u64 {
    fmix(w.wrapping_add((j as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)) ^ C1)
}

#[inline]
fn seq_top(len: usize) -> u64 {
    fmix(TAG_SEQ | len as u64)
}

#[inline]
fn fcn_top(len: usize, domain: u64) -> u64 {
    fmix(fmix(TAG_FCN | len as u64) ^ domain)
}

/// A value's word when it costs nothing to get: a scalar's, or a compound value's kept one.
#[inline]
fn cheap_word(v: &Value) -> Option<u64> {
    match v {
        Value::Bool(_) | Value::Int(_) | Value::Str(_) | Value::Model(_) => word(v).ok(),
        Value::Set(s) => s.arc().fp().get(),
        Value::Seq(s) => s.fp().get(),
        Value::Fcn(f) => f.fp().get(),
        Value::Lazy(_) => None,
    }
}

/// The fingerprint of a sequence or function whose kept fingerprint is `fp`, once the value
/// `old` at position `j` is replaced by `new`; None when a word is not at hand (the new
/// value's fingerprint is then computed in full when asked for).
#[inline]
pub(crate) fn after_replace(fp: &FpCell, j: usize, old: &Value, new: &Value) -> Option<u64> {
    let fp = fp.get()?;
    let (o, n) = (cheap_word(old)?, cheap_word(new)?);
    Some(fp.wrapping_sub(at(j, o)).wrapping_add(at(j, n)))
}

/// The fingerprint of the sequence of `len` values whose kept fingerprint is `fp`, once `new`
/// is appended (see [`after_replace`]).
#[inline]
pub(crate) fn after_append(fp: &FpCell, len: usize, new: &Value) -> Option<u64> {
    let fp = fp.get()?;
    let n = cheap_word(new)?;
    Some(fp.wrapping_sub(seq_top(len)).wrapping_add(seq_top(len + 1)).wrapping_add(at(len, n)))
}

/// The fingerprint kept in `cell`, or computed by `f` and kept. The look-up is inlined at every
/// use (it is most of the calls); the computation is not.
#[inline(always)]
fn kept(cell: &FpCell, f: impl FnOnce() -> VResult<u64>) -> VResult<u64> {
    if let Some(fp) = cell.get() {
        return Ok(fp);
    }
    let fp = f()?;
    cell.set(fp);
    Ok(fp)
}

/// The fingerprint of elements as a set (canonical elements), hashed in order: a set's
/// `Elems` is never a sequence's (see `value::Elems`), so one kept number is enough.
#[inline]
fn set_fp(elems: &Elems) -> VResult<u64> {
    kept(elems.fp(), || {
        let mut h = FpHasher::new();
        h.write_u64(TAG_SET | elems.len() as u64);
        for e in elems.iter() {
            h.write_value(e)?;
        }
        Ok(h.finish())
    })
}

impl Value {
    /// The value's stable 64-bit fingerprint.
    pub fn fingerprint(&self) -> VResult<u64> {
        let mut h = FpHasher::new();
        h.write_value(self)?;
        Ok(h.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same value built afresh, so that no fingerprint is kept in it.
    fn afresh(v: &Value) -> Value {
        match v {
            Value::Seq(s) => Value::tuple(s.iter().map(afresh).collect()).unwrap(),
            Value::Fcn(f) => Value::fcn(f.domain().iter().cloned().zip(f.values().iter().map(afresh)).collect()).unwrap(),
            other => other.clone(),
        }
    }

    fn kept(v: &Value) -> Option<u64> {
        match v {
            Value::Seq(s) => s.fp().get(),
            Value::Fcn(f) => f.fp().get(),
            _ => None,
        }
    }

    #[test]
    fn a_replaced_or_appended_value_updates_the_kept_fingerprint_to_the_one_computed_afresh() {
        let i = Value::Int;
        let mut t = crate::intern::Interner::new();
        let (a, b, x, y, z) = (t.intern("a"), t.intern("b"), t.intern("x"), t.intern("y"), t.intern("z"));
        let s = |x: &crate::intern::Str| Value::Str(x.clone());
        let rec = Value::record(vec![(a, i(1)), (b, s(&x))]).unwrap();
        let fcn = Value::fcn(vec![(i(0), Value::set(vec![i(1)]).unwrap()), (i(5), i(2)), (i(7), s(&y))]).unwrap();
        let seq = Value::tuple(vec![i(3), rec.clone(), Value::tuple(vec![]).unwrap()]).unwrap();
        let news = [i(9), s(&z), Value::Bool(true), Value::set(vec![i(2), i(3)]).unwrap(), rec.clone(), Value::tuple(vec![i(1)]).unwrap()];
        let mut checked = 0;
        for base in [&rec, &fcn, &seq] {
            // Kept fingerprints in the base and in every new value, as a state's values have.
            base.fingerprint().unwrap();
            let len = match base {
                Value::Seq(x) => x.len(),
                Value::Fcn(f) => f.values().len(),
                _ => unreachable!(),
            };
            for n in &news {
                n.fingerprint().unwrap();
                for j in 0..len {
                    let out = base.except_at(j, n.clone()).unwrap();
                    let incremental = kept(&out).expect("the replaced value's fingerprint is kept at once");
                    assert_eq!(incremental, word(&afresh(&out)).unwrap(), "{base} at {j} := {n}");
                    if out.to_string() != base.to_string() {
                        assert_ne!(incremental, word(base).unwrap(), "{base} at {j} := {n}");
                    }
                    checked += 1;
                }
                if let Value::Seq(_) = base {
                    let out = base.append(n.clone()).unwrap();
                    assert_eq!(kept(&out).expect("kept after Append"), word(&afresh(&out)).unwrap(), "Append({base}, {n})");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 3 * 6 + 2 * 6 + 3 * 6 + 6);
        // Without a kept fingerprint in the base, nothing is kept and the full hash is used.
        let cold = Value::tuple(vec![i(1), i(2)]).unwrap();
        let out = cold.except_at(0, i(5)).unwrap();
        assert_eq!(kept(&out), None);
        assert_eq!(word(&out).unwrap(), word(&Value::tuple(vec![i(5), i(2)]).unwrap()).unwrap());
    }
}
