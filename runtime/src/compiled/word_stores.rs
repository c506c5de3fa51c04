//! Word stores: a keeper's write of one cell of a small board made as a store of the board's
//! first word, after a store of the cell's own byte (spec/codegen.md, "Word stores"; the
//! generator's `codegen/word_stores.rs`).
//!
//! Why: a one-byte store followed soon by an eight-byte load that covers it cannot forward its
//! value from the store buffer; the load waits until the store reaches the cache. The keeper of
//! a placement game writes the played cell, then its mask checks load the board a word at a time
//! (`mask_checks::differing`), and the next ply's listing loads the same word again: both waited
//! for that byte store. Written as the whole word (loaded, the byte replaced in a register,
//! stored) after the byte, every later load of the word takes its value from the word's store
//! (the youngest, which covers it), and a load of a slot past the word from the byte's or an
//! older one.
//!
//! Exact: the byte store writes the slot; the word holds the eight slots from `BASE` as they
//! were but the written one, if it is among them, which it then holds as written. So the values
//! are the ones `v[slot] = value` makes, for any slot of `v`.
//! Cost: a load, three word operations and the word's store more than the byte store.
//!
//! Session 29: the byte past the word was stored from `if offset == 8 { value } else { next }`
//! (a fixed place whatever the slot); LLVM made that a `cmov` from a four-byte load at that
//! slot, which covers the byte stores the move's delta has just made to the slots after it, so
//! every keeper move waited for them, on the chain to the next ply's listing (tic-tac-toe
//! `.rg` 1.07x playouts a second without it).

/// Writes `value` into `v[slot]` as `v[slot] = value` does: a byte store of the slot, then a store
/// of the eight slots from `BASE` with the slot's byte replaced where it is among them (else
/// stored back unchanged; see the module documentation). `v` must hold at least `BASE + 8`
/// slots.
#[inline(always)]
pub fn store_word_and_next<const BASE: usize>(v: &mut [u8], slot: usize, value: u8) {
    let offset = slot.wrapping_sub(BASE);
    let word = super::byte_scan::slot_word(v, BASE);
    let shift = 8 * (offset as u32 & 7);
    let mask = if offset < 8 { 0xff << shift } else { 0 };
    let word = (word & !mask) | ((value as u64) << shift & mask);
    // The slot's own byte first: a slot past the word keeps it (the word is stored back
    // unchanged), one inside it is covered by the word stored next.
    v[slot] = value;
    v[BASE..BASE + 8].copy_from_slice(&word.to_le_bytes());
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
