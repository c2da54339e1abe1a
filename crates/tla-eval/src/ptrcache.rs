//! A small direct-mapped cache keyed by the address of an AST node, in front of the
//! evaluator's hash-table memos.
//!
//! The evaluator looks up one or two memos (is this node constant? what does this name mean
//! here?) at almost every node it evaluates. A hash table costs a hash, a probe over control
//! bytes and a `RefCell` borrow per look; this cache costs one multiply, one load and one
//! compare. A slot holds the address it was filled for, so a collision is a miss, never a wrong
//! answer: the caller then asks the memo behind it, which is the source of truth. The cache
//! only repeats what that memo says.

use std::cell::Cell;

/// Slots are `(address, value)`; address 0 marks an empty slot (no node lives at address 0).
pub(crate) struct PtrCache<T: Copy> {
    slots: Box<[Cell<(usize, T)>]>,
    shift: u32,
}

impl<T: Copy> PtrCache<T> {
    /// A cache of `2^bits` slots, each filled with `(0, empty)`.
    pub(crate) fn new(bits: u32, empty: T) -> PtrCache<T> {
        PtrCache { slots: (0..1usize << bits).map(|_| Cell::new((0, empty))).collect(), shift: 64 - bits }
    }

    #[inline(always)]
    fn slot(&self, key: usize) -> &Cell<(usize, T)> {
        // Fibonacci hashing of the address: the high bits of the product index the slot.
        let i = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        &self.slots[i]
    }

    #[inline(always)]
    pub(crate) fn get(&self, key: usize) -> Option<T> {
        let (k, v) = self.slot(key).get();
        (k == key).then_some(v)
    }

    #[inline(always)]
    pub(crate) fn put(&self, key: usize, v: T) {
        self.slot(key).set((key, v));
    }

    pub(crate) fn clear(&mut self, empty: T) {
        for s in self.slots.iter() {
            s.set((0, empty));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PtrCache;

    #[test]
    fn a_slot_answers_only_for_the_key_it_was_filled_for() {
        let c = PtrCache::new(4, 0u8);
        let keys: Vec<usize> = (1..200).map(|i| i * 24).collect();
        for (i, &k) in keys.iter().enumerate() {
            c.put(k, (i % 250) as u8 + 1);
        }
        let mut hits = 0;
        for (i, &k) in keys.iter().enumerate() {
            if let Some(v) = c.get(k) {
                assert_eq!(v, (i % 250) as u8 + 1, "key {k}");
                hits += 1;
            }
        }
        // 16 slots: at most 16 keys still answer, and each answers with its own value.
        assert!(hits > 0 && hits <= 16, "{hits}");
        assert_eq!(c.get(5), None);
    }

    #[test]
    fn clearing_forgets_every_key() {
        let mut c = PtrCache::new(3, false);
        c.put(64, true);
        assert_eq!(c.get(64), Some(true));
        c.clear(false);
        assert_eq!(c.get(64), None);
    }
}
