//! Board cells compared with one value as one bit each, for generated mask checks
//! (spec/codegen.md, "Mask checks"; the generator's `codegen/mask_checks.rs`).
//!
//! A generated mask check reads up to eight words of eight one-byte slots and keeps, per word,
//! the high bit of every byte that differs from the compared value. Every symbol of such a game
//! is below 128, so `(byte ^ value) + 0x7f` sets a byte's high bit exactly when the byte differs
//! from the value, and never carries into the next byte whatever that byte holds. Word `w` is
//! shifted right by `w` before the words are or-ed, so a byte's bit lands at `8 * byte + 7 - w`:
//! one distinct bit per (word, byte). Cost: five operations a word (load, xor, add, and, shift)
//! and one `or`.

/// The low seven bits of every byte.
const BYTE_LOW_BITS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The high bit of every byte.
const BYTE_HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// `symbol` in every byte of a word.
#[inline(always)]
pub fn repeated(symbol: u8) -> u64 {
    0x0101_0101_0101_0101 * symbol as u64
}

/// Per byte of the eight slots from `at`, its high bit set where the slot differs from the value
/// `repeated` holds in every byte, clear where it equals it. Exact when every slot and the value
/// are below 128.
#[inline(always)]
pub fn differing(v: &[u8], at: usize, repeated: u64) -> u64 {
    ((super::byte_scan::slot_word(v, at) ^ repeated) + BYTE_LOW_BITS) & BYTE_HIGH_BITS
}

/// [`differing`] over the first `BYTES` slots from `at` only (1 to 8), every other byte's bit
/// clear: for a word whose used cells sit in its first bytes (tic-tac-toe's ninth cell). The
/// narrower load leaves the slots past them alone, so a one-byte store there just before (the
/// move's delta writes the cell slot next to the board) is not one the load must wait for: a load
/// that covers part of a recent narrower store cannot take its value from the store buffer and
/// waits for the store to reach the cache. The generator uses 1, 2 and 4 (one load each).
#[inline(always)]
pub fn differing_low<const BYTES: usize>(v: &[u8], at: usize, repeated: u64) -> u64 {
    let kept = BYTE_HIGH_BITS >> (8 * (8 - BYTES));
    ((super::counted::first_slots_word::<BYTES>(v, at) ^ repeated) + BYTE_LOW_BITS) & kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_narrow_word_marks_its_first_bytes_as_the_full_word_does_and_no_other() {
        let slots: [u8; 12] = [3, 5, 3, 3, 9, 3, 0, 3, 3, 127, 3, 1];
        for value in [0u8, 3, 5, 127] {
            let full = differing(&slots, 2, repeated(value));
            assert_eq!(differing_low::<1>(&slots, 2, repeated(value)), full & 0x80);
            assert_eq!(differing_low::<2>(&slots, 2, repeated(value)), full & 0x8080);
            assert_eq!(differing_low::<4>(&slots, 2, repeated(value)), full & 0x8080_8080);
            assert_eq!(differing_low::<8>(&slots, 2, repeated(value)), full);
        }
        // Slots 2..4 are 3, 3: equal to 3, so no bit; slot 4 (9) differs.
        assert_eq!(differing_low::<3>(&slots, 2, repeated(3)), 0x80_0000);
    }

    #[test]
    fn a_byte_s_high_bit_says_whether_it_differs_whatever_its_neighbours_hold() {
        for byte in 0..128u8 {
            for neighbour in [0u8, 1, 63, 126, 127] {
                let mut slots = [neighbour; 10];
                slots[4] = byte;
                for value in 0..128u8 {
                    let bits = differing(&slots, 1, repeated(value));
                    assert_eq!(bits >> 31 & 1 == 1, byte != value, "{byte} against {value}");
                    assert_eq!(bits & !BYTE_HIGH_BITS, 0);
                }
            }
        }
    }
}
