//! Word stores: a keeper's write of one cell of a small board made as a store of the board's
//! first word and of the byte after it (spec/codegen.md, "Word stores"; the generator's
//! `codegen/word_stores.rs`).
//!
//! Why: a one-byte store followed soon by an eight-byte load that covers it cannot forward its
//! value from the store buffer; the load waits until the store reaches the cache. The keeper of
//! a placement game writes the played cell, then its mask checks load the board a word at a time
//! (`mask_checks::differing`), and the next ply's listing loads the same word again: both waited
//! for that byte store. Written as the whole word (loaded, the byte replaced in a register,
//! stored) and the one byte past it, every later load of either takes its value from the store
//! buffer. Both are stored whatever the cell, at the same two places, so a later load's address
//! never waits for the cell's to be known.
//!
//! Exact: for a slot among the nine from `BASE`, the word holds the slots from `BASE` as they
//! were but the written one, and the byte past it is the written value if that is the slot,
//! else its own value again; every other slot is untouched; any other slot is written as a byte.
//! So the values are the ones `v[slot] = value` makes, for any slot of `v`.
//! Cost: a load, three word operations and a second store more than the byte store.

/// Writes `value` into `v[slot]` as `v[slot] = value` does: for a slot among the nine from
/// `BASE`, through a store of the eight slots from `BASE` and one of slot `BASE + 8` (see the
/// module documentation), both at fixed places whatever the slot; any other slot as a byte (a
/// branch the generator's slots never take). `v` must hold at least `BASE + 9` slots.
#[inline(always)]
pub fn store_word_and_next<const BASE: usize>(v: &mut [u8], slot: usize, value: u8) {
    let offset = slot.wrapping_sub(BASE);
    if offset > 8 {
        v[slot] = value;
        return;
    }
    let word = super::byte_scan::slot_word(v, BASE);
    let next = v[BASE + 8];
    let shift = 8 * (offset as u32 & 7);
    let mask = if offset < 8 { 0xff << shift } else { 0 };
    let word = (word & !mask) | ((value as u64) << shift & mask);
    let next = if offset == 8 { value } else { next };
    v[BASE..BASE + 8].copy_from_slice(&word.to_le_bytes());
    v[BASE + 8] = next;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_and_next_store_writes_the_one_slot_a_byte_store_writes() {
        for slot in 0..20 {
            for value in [0u8, 7, 127, 255] {
                let mut by_word: [u8; 20] = core::array::from_fn(|i| 3 * i as u8 + 1);
                let mut by_byte = by_word;
                store_word_and_next::<2>(&mut by_word, slot, value);
                by_byte[slot] = value;
                assert_eq!(by_word, by_byte, "slot {slot}, value {value}");
                let mut by_word: [u8; 11] = core::array::from_fn(|i| i as u8 + 40);
                let mut by_byte = by_word;
                if slot < 11 {
                    store_word_and_next::<0>(&mut by_word, slot, value);
                    by_byte[slot] = value;
                    assert_eq!(by_word, by_byte, "slot {slot}, value {value}, base 0");
                }
            }
        }
    }
}
