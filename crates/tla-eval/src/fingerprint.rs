//! Stable 64-bit fingerprints of values, identical on every target.
//!
//! Architecture invariant: a fingerprint depends only on the value, never on the layout or the
//! pointer width: it hashes fixed-width words with our own mixing function, never
//! `#[derive(Hash)]` (which hashes `usize` lengths: 4 bytes on wasm32, 8 on x86_64).
//!
//! Each scalar is one word: its kind's tag in the top byte and its payload below (a boolean, an
//! integer as 32 bits, a string or model value as 56 bits of the fingerprint of its text,
//! computed once per string, not its intern rank). A set, a sequence or another function is
//! hashed on its own — a word holding its tag and its size, then its parts — and enters its
//! container as one word, its fingerprint, kept with the value once computed. A state shares
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
        Value::Set(s) => elems_fp(s.arc(), TAG_SET)?,
        Value::Lazy(l) => elems_fp(l.to_set()?.arc(), TAG_SET)?,
        Value::Seq(s) => elems_fp(s, TAG_SEQ)?,
        Value::Fcn(f) => kept(f.fp(), || {
            let mut h = FpHasher::new();
            h.write_u64(TAG_FCN | f.values().len() as u64);
            h.write_u64(elems_fp(f.domain_elems(), TAG_SET)?);
            for x in f.values() {
                h.write_value(x)?;
            }
            Ok(h.finish())
        })?,
    })
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

/// The fingerprint of elements as a set (canonical elements) or as a sequence, by `tag`: an
/// `Elems` is only ever one of the two (see `value::Elems`), so one kept number is enough.
#[inline]
fn elems_fp(elems: &Elems, tag: u64) -> VResult<u64> {
    kept(elems.fp(), || {
        let mut h = FpHasher::new();
        h.write_u64(tag | elems.len() as u64);
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
