//! Stable 64-bit fingerprints of values, identical on every target.
//!
//! Architecture invariant: a fingerprint depends only on the value, never on the layout or the
//! pointer width: it hashes fixed-width words (a tag byte per kind, lengths as u64, integers as
//! i64, string bytes packed eight to a little-endian word) with our own mixing function, never
//! `#[derive(Hash)]` (which hashes `usize` lengths: 4 bytes on wasm32, 8 on x86_64).
//!
//! Every function hashes through one view — tag, size, then (argument, value) pairs in domain
//! order — so a tuple and the equal function built by `[i \in 1..n |-> ...]` agree, as do a
//! record and the equal function over strings (the constructors make them one layout anyway).
//! Sets hash their canonical (sorted) elements, so equal sets agree whatever order built them.
//! Strings hash the fingerprint of their text (not their intern rank), computed once per string.

use crate::error::VResult;
use crate::value::{fcn_dom_at, fcn_len, fcn_val_at, Value};

const TAG_BOOL: u64 = 1;
const TAG_INT: u64 = 2;
const TAG_STR: u64 = 3;
const TAG_MODEL: u64 = 4;
const TAG_SET: u64 = 5;
const TAG_FCN: u64 = 6;

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
        match v {
            Value::Bool(b) => {
                self.write_u64(TAG_BOOL);
                self.write_u64(*b as u64);
            }
            Value::Int(i) => {
                self.write_u64(TAG_INT);
                self.write_u64(*i as i64 as u64);
            }
            // A string's text is hashed once, when it is made (`Str::text_fingerprint`).
            Value::Str(s) => {
                self.write_u64(TAG_STR);
                self.write_u64(s.text_fingerprint());
            }
            Value::Model(m) => {
                self.write_u64(TAG_MODEL);
                self.write_u64(m.name().text_fingerprint());
            }
            Value::Set(s) => {
                self.write_u64(TAG_SET);
                self.write_u64(s.len() as u64);
                for e in s.elems() {
                    self.write_value(e)?;
                }
            }
            Value::Lazy(l) => {
                let s = l.to_set()?;
                self.write_value(&Value::Set(s))?;
            }
            Value::Seq(_) | Value::Fcn(_) => {
                self.write_u64(TAG_FCN);
                let n = fcn_len(v);
                self.write_u64(n as u64);
                match v {
                    // The domain 1..n, hashed exactly as `Value::Int(i)` would be, without
                    // building the values.
                    Value::Seq(s) => {
                        for (i, x) in s.iter().enumerate() {
                            self.write_u64(TAG_INT);
                            self.write_u64(i as u64 + 1);
                            self.write_value(x)?;
                        }
                    }
                    Value::Fcn(f) => {
                        for (d, x) in f.domain().iter().zip(f.values().iter()) {
                            self.write_value(d)?;
                            self.write_value(x)?;
                        }
                    }
                    _ => {
                        for i in 0..n {
                            self.write_value(&fcn_dom_at(v, i))?;
                            self.write_value(fcn_val_at(v, i))?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl Value {
    /// The value's stable 64-bit fingerprint.
    pub fn fingerprint(&self) -> VResult<u64> {
        let mut h = FpHasher::new();
        h.write_value(self)?;
        Ok(h.finish())
    }
}
