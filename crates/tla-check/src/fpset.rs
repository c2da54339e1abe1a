//! The seen set: fingerprint → state index, open addressing with linear probing.
//!
//! One array of (fingerprint, index) pairs (16 bytes a slot: a lookup that finds its key reads
//! one cache line, where two parallel arrays cost two misses in a table larger than the
//! caches), load factor at most 3/4. Fingerprint 0 marks an empty slot, so a state whose
//! fingerprint is 0 is stored under [`ZERO_SUBSTITUTE`] (64-bit
//! fingerprints collide with probability ~n²/2⁶⁵ anyway; TLC accepts the same risk).

const ZERO_SUBSTITUTE: u64 = 0x9E37_79B9_7F4A_7C15;

pub struct FpSet {
    slots: Vec<(u64, u32)>,
    len: usize,
    mask: usize,
}

/// Result of [`FpSet::insert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// The fingerprint was new and now maps to the given index.
    New,
    /// The fingerprint was already there, mapped to this index.
    Seen(u32),
}

impl Default for FpSet {
    fn default() -> Self {
        FpSet::with_capacity(1024)
    }
}

impl FpSet {
    pub fn with_capacity(n: usize) -> FpSet {
        let slots = (n * 4 / 3 + 1).next_power_of_two().max(16);
        FpSet { slots: vec![(0, 0); slots], len: 0, mask: slots - 1 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes used by the table (for memory reports).
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<(u64, u32)>()
    }

    #[inline]
    fn slot(&self, fp: u64) -> usize {
        // Fingerprints are well mixed already; fold the high half in to be safe.
        ((fp ^ (fp >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 20) as usize & self.mask
    }

    /// Ask the processor to bring the slot where `fp` is looked up into the cache (a hint: it
    /// reads nothing and changes nothing).
    #[inline]
    pub fn prefetch(&self, fp: u64) {
        let fp = if fp == 0 { ZERO_SUBSTITUTE } else { fp };
        tla_eval::shared::prefetch(self.slots.as_ptr().wrapping_add(self.slot(fp)));
    }

    pub fn get(&self, fp: u64) -> Option<u32> {
        let fp = if fp == 0 { ZERO_SUBSTITUTE } else { fp };
        let mut i = self.slot(fp);
        loop {
            let (k, v) = self.slots[i];
            if k == 0 {
                return None;
            }
            if k == fp {
                return Some(v);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The slot of `fp` (stored under its substitute if 0), growing the table first if one more
    /// key would pass the load factor: `(slot, true)` when `fp` is there, `(slot, false)` for
    /// the empty slot where it goes.
    #[inline(always)]
    fn probe_for_insert(&mut self, fp: u64) -> (u64, usize, bool) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let fp = if fp == 0 { ZERO_SUBSTITUTE } else { fp };
        let mut i = self.slot(fp);
        loop {
            let k = self.slots[i].0;
            if k == 0 || k == fp {
                return (fp, i, k != 0);
            }
            i = (i + 1) & self.mask;
        }
    }

    #[inline(always)]
    fn fill(&mut self, i: usize, fp: u64, index: u32) {
        self.slots[i] = (fp, index);
        self.len += 1;
    }

    /// Insert `fp ↦ index` unless `fp` is present.
    pub fn insert(&mut self, fp: u64, index: u32) -> Insert {
        match self.probe_for_insert(fp) {
            (_, i, true) => Insert::Seen(self.slots[i].1),
            (fp, i, false) => {
                self.fill(i, fp, index);
                Insert::New
            }
        }
    }

    /// Map `fp` to `index` unless it maps to a smaller index already. Returns what `fp` mapped
    /// to before, if anything.
    pub fn insert_min(&mut self, fp: u64, index: u32) -> Option<u32> {
        match self.probe_for_insert(fp) {
            (_, i, true) => {
                let old = self.slots[i].1;
                self.slots[i].1 = old.min(index);
                Some(old)
            }
            (fp, i, false) => {
                self.fill(i, fp, index);
                None
            }
        }
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); n]);
        self.mask = n - 1;
        for (k, v) in old {
            if k != 0 {
                let mut i = self.slot(k);
                while self.slots[i].0 != 0 {
                    i = (i + 1) & self.mask;
                }
                self.slots[i] = (k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_grow() {
        let mut s = FpSet::with_capacity(4);
        for i in 0..10_000u64 {
            let fp = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 7);
            assert_eq!(s.insert(fp, i as u32), Insert::New);
        }
        assert_eq!(s.len(), 10_000);
        for i in 0..10_000u64 {
            let fp = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 7);
            assert_eq!(s.get(fp), Some(i as u32));
            assert_eq!(s.insert(fp, 0), Insert::Seen(i as u32));
        }
        assert_eq!(s.get(12345), None);
    }

    #[test]
    fn insert_min_keeps_the_smallest() {
        let mut s = FpSet::default();
        assert_eq!(s.insert_min(42, 7), None);
        assert_eq!(s.insert_min(42, 9), Some(7));
        assert_eq!(s.insert_min(42, 3), Some(7));
        assert_eq!(s.get(42), Some(3));
    }

    #[test]
    fn zero_fingerprint_is_a_key_like_any_other() {
        let mut s = FpSet::default();
        assert_eq!(s.insert(0, 7), Insert::New);
        assert_eq!(s.get(0), Some(7));
        assert_eq!(s.insert(0, 8), Insert::Seen(7));
    }
}
