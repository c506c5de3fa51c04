//! The visited set of a search: exact (node, tags, state) keys stored in one arena, found through
//! an open-addressing table keyed by a hash the searcher maintains incrementally.
//!
//! Why not a `HashSet<Box<[u32]>>`: a search may record thousands of keys, each a copy of the
//! whole state; one arena avoids an allocation per key, and an incremental state hash (see
//! [`slot_hash`]) avoids rehashing the state on every lookup. Membership stays exact: a hash match
//! is confirmed by comparing the stored key with the current one.

use crate::keyset::KeySet;

/// The hash contribution of `value` stored in `slot`. The state hash is the XOR of these over all
/// slots, so a write updates it with two calls (remove the old value, add the new one).
#[inline]
pub(crate) fn slot_hash(slot: u32, value: u32) -> u64 {
    // SplitMix64's finaliser: every input bit affects every output bit.
    let mut z = ((slot as u64) << 32 | value as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The full-state hash, computed from scratch.
pub(crate) fn state_hash(values: &[u32]) -> u64 {
    values.iter().enumerate().fold(0, |hash, (slot, &value)| hash ^ slot_hash(slot as u32, value))
}

/// The hash of a visited key from its parts.
#[inline]
pub(crate) fn key_hash(node: u32, tags: &[u32], state: u64) -> u64 {
    let mut hash = state ^ (node as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    for &tag in tags {
        hash = (hash.rotate_left(5) ^ tag as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    hash ^ (tags.len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// A set of (node, tags, values) keys. Values all have the same length within one search.
#[derive(Default)]
pub(crate) struct VisitedSet(KeySet);

impl VisitedSet {
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Records the key; `false` when it was already present. `hash` must be
    /// `key_hash(node, tags, state_hash(values))`.
    #[inline]
    pub fn insert(&mut self, hash: u64, node: u32, tags: &[u32], values: &[u32]) -> bool {
        let is_key = |key: &[u32]| {
            key[0] == node
                && key[1] as usize == tags.len()
                && key[2..2 + tags.len()] == *tags
                && key[2 + tags.len()..] == *values
        };
        let write = |arena: &mut Vec<u32>| {
            arena.extend_from_slice(&[node, tags.len() as u32]);
            arena.extend_from_slice(tags);
            arena.extend_from_slice(values);
        };
        self.0.insert(hash, 2 + tags.len() + values.len(), is_key, write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_hash_equals_recomputed_hash() {
        let mut values = vec![3, 1, 4, 1, 5];
        let mut hash = state_hash(&values);
        for (slot, new) in [(0u32, 9u32), (4, 2), (0, 3)] {
            hash ^= slot_hash(slot, values[slot as usize]) ^ slot_hash(slot, new);
            values[slot as usize] = new;
        }
        assert_eq!(hash, state_hash(&values));
        assert_eq!(values, [3, 1, 4, 1, 2]);
    }

    #[test]
    fn set_is_exact_even_when_hashes_collide() {
        let mut set = VisitedSet::default();
        // Force every key into one hash to exercise the exact comparison.
        assert!(set.insert(7, 1, &[], &[1, 2]));
        assert!(set.insert(7, 1, &[], &[2, 1]));
        assert!(set.insert(7, 1, &[5], &[1, 2]));
        assert!(set.insert(7, 2, &[], &[1, 2]));
        assert!(!set.insert(7, 1, &[], &[2, 1]));
        assert!(!set.insert(7, 1, &[5], &[1, 2]));
        for i in 0..1000u32 {
            assert!(set.insert(key_hash(i, &[], i as u64), i, &[], &[i, i]));
        }
        for i in 0..1000u32 {
            assert!(!set.insert(key_hash(i, &[], i as u64), i, &[], &[i, i]));
        }
        set.clear();
        assert!(set.insert(7, 1, &[], &[1, 2]));
        assert!(!set.insert(7, 1, &[], &[1, 2]));
        // Many clears in a row keep the set exact.
        for round in 0..100u32 {
            set.clear();
            assert!(set.insert(key_hash(round, &[], 1), round, &[], &[1, 2]));
            assert!(!set.insert(key_hash(round, &[], 1), round, &[], &[1, 2]));
            assert!(set.insert(key_hash(round, &[], 2), round, &[], &[2, 1]));
        }
    }
}
