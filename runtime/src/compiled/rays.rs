//! Ray skips for generated reachability checks: one mask of the 64 one-byte slots of a board
//! window holding a given symbol, so that a walk along a ray finds the first square that stops it
//! with one bit scan instead of a loop (spec/codegen.md, "Ray skips").
//!
//! The code generator emits, before a check's ray loop, `stops & RAY[r]` (the ray's squares that
//! stop the walk), then the lowest or highest set bit of it (rays run in increasing or in
//! decreasing slot order) or, when no square stops it, where the walk ends past the ray. The loop
//! then starts there. Cost: 64 slots compared at once ([`super::bit_listing::match_mask`]: ~15
//! instructions on x86-64, SSE2 being part of its baseline; a word at a time elsewhere); a check
//! walking several rays computes the mask once where the compiler sees no write between them.

/// Bit `i` set where `v[at + i] == value`, for `i` in `0..64`.
///
/// Panics when `v` holds fewer than `at + 64` slots (generated code passes constant windows
/// inside its state, so the bounds test folds away).
#[inline(always)]
pub fn equal_bytes(v: &[u8], at: usize, value: u8) -> u64 {
    let window: &[u8; 64] = v[at..at + 64].try_into().expect("a 64-slot window");
    super::bit_listing::match_mask(window, value)
}

/// `if_true` where `condition` holds, else `if_false`, as a conditional move rather than a
/// branch: whether a ray is blocked is data a branch predictor cannot learn, and with a plain
/// `if` the compiler turned the choice into a branch (chess: 23 % of its mispredictions stayed).
#[inline(always)]
pub fn select_unpredictable<T>(condition: bool, if_true: T, if_false: T) -> T {
    core::hint::select_unpredictable(condition, if_true, if_false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_select_picks_by_its_condition() {
        assert_eq!(select_unpredictable(true, 3u8, 9), 3);
        assert_eq!(select_unpredictable(false, 3u8, 9), 9);
    }

    #[test]
    fn every_slot_of_the_window_gets_its_own_bit() {
        let mut slots = vec![7u8; 80];
        for (i, slot) in slots.iter_mut().enumerate() {
            if i % 3 == 0 || i == 70 {
                *slot = 15;
            }
        }
        for at in [0usize, 5, 16] {
            let expected: u64 = (0..64).filter(|&i| slots[at + i] == 15).map(|i| 1u64 << i).sum();
            assert_eq!(equal_bytes(&slots, at, 15), expected, "window at {at}");
            assert_eq!(equal_bytes(&slots, at, 7), !expected, "window at {at}");
            assert_eq!(equal_bytes(&slots, at, 200), 0, "window at {at}");
        }
        // Bytes with the high bit set compare like any other.
        slots[63] = 200;
        assert_eq!(equal_bytes(&slots, 0, 200), 1 << 63);
    }
}
