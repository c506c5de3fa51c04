//! Board cells compared with one value as one bit each, sixteen cells per load, for generated mask
//! checks whose board is at least sixteen cells wide (spec/codegen.md, "Mask checks"; the
//! generator's `codegen/mask_lanes.rs`).
//!
//! [`equal_lanes`] gives, for the sixteen one-byte slots from `at`, bit `i` set where slot
//! `at + i` equals the value. On x86-64 that is one unaligned 16-byte load, a byte compare and a
//! `pmovmskb` (SSE2, the baseline; the intrinsics live in `bit_listing.rs`, the one file with `unsafe`); a check ORs two to four of them, shifted to the board offsets
//! of their first slots, where [`super::mask_checks::differing`] needs five operations per eight
//! cells, a shift and an `or` each. The bits come out in board order (bit `i` is board offset
//! `i`), so the generated term masks are the terms' cell sets themselves. Elsewhere a byte loop
//! computes the same mask.

/// Bit `i` set where `v[at + i]` equals `value`, for `i` in `0..16`; no other bit.
#[inline(always)]
pub fn equal_lanes(v: &[u8], at: usize, value: u8) -> u64 {
    let lanes: &[u8; 16] = v[at..at + 16].try_into().expect("sixteen slots");
    super::bit_listing::equal_bytes16(lanes, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_i_is_set_exactly_where_slot_at_plus_i_equals_the_value() {
        let slots: Vec<u8> = (0..40u32).map(|i| (i * 7 % 5) as u8 * 60).collect();
        for at in [0usize, 3, 24] {
            for value in [0u8, 60, 120, 180, 240, 255] {
                let expected = (0..16).filter(|&i| slots[at + i] == value).fold(0u64, |mask, i| mask | 1 << i);
                assert_eq!(equal_lanes(&slots, at, value), expected, "at {at}, value {value}");
            }
        }
        // Slots 0..16 hold 0, 120, 240, 60, 180, 0, ...: value 0 at 0, 5, 10 and 15.
        assert_eq!(equal_lanes(&slots, 0, 0), 1 | 1 << 5 | 1 << 10 | 1 << 15);
    }
}
