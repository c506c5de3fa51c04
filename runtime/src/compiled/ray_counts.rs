//! Ray counts for counted searches: a counting run's ray walk (how many squares along a ray pass
//! a guard before the first that fails, amazons' arrow shots) as one 128-slot mask, an and, a
//! bit scan and a popcount, with no branch per square (spec/codegen.md, "Counted rays").
//!
//! The code generator lists, per cursor value, the slots of the squares the walk tests (its
//! *ray*, rising or falling along the state) as a mask of a 128-slot window, and computes the
//! window's *stops* (the slots that fail the guard) once per landing: with no write between
//! a landing's rays the compiler shares the mask among them. The passing squares that lead
//! the ray are then those before its lowest (highest) stop: the ray's length less the length
//! of the stop's own ray and one, from two tables (no popcount: without the `popcnt` feature
//! it is a ~17-instruction bit trick per word).
//!
//! Cost: the window mask (two 64-slot masks, ~35 instructions on x86-64), then ~15 word
//! operations per ray, where the loop read four squares a round and ended on a branch the
//! predictor could not learn.

/// Bit `i` set where slot `at + i` of `v` holds `value`, for `i` in `0..128`; slots past the
/// end of `v` read as no match.
///
/// Panics when `v` holds fewer than 64 slots from `at` (generated code passes a constant window
/// inside its state, so the bounds tests fold away).
#[inline(always)]
pub fn equal_bytes_wide(v: &[u8], at: usize, value: u8) -> u128 {
    let low = super::rays::equal_bytes(v, at, value);
    // The high half from the last 64 slots that start no later than `at + 64`, shifted down so
    // that bit 0 is slot `at + 64`; slots past the end shift in as zeros.
    let high_at = (at + 64).min(v.len() - 64);
    let high = super::rays::equal_bytes(v, high_at, value).checked_shr((at + 64 - high_at) as u32).unwrap_or(0);
    low as u128 | (high as u128) << 64
}

/// The squares a walk along a ray of rising slots passes before its first stop: `length` (the
/// ray's) where `blocked` (the ray's stops) is empty, else `length - ranks[b] - 1` for its lowest
/// bit `b`, `ranks[b]` being the length of the ray from the square at `b` (a ray is its first
/// square, then that square's ray). A select, not a branch: whether a ray is blocked is data.
#[inline(always)]
pub fn ahead_rising(blocked: u128, length: u8, ranks: &[u8; 128]) -> usize {
    // Bit 127 forced: the scan needs no zero case, and where it is taken the select drops it.
    let first = (blocked | 1 << 127).trailing_zeros() as usize;
    let before = length.wrapping_sub(ranks[first]).wrapping_sub(1);
    super::rays::select_unpredictable(blocked == 0, length, before) as usize
}

/// As [`ahead_rising`] for a ray of falling slots: the stop is the highest bit of `blocked`.
#[inline(always)]
pub fn ahead_falling(blocked: u128, length: u8, ranks: &[u8; 128]) -> usize {
    let first = ((blocked | 1).leading_zeros() ^ 127) as usize;
    let before = length.wrapping_sub(ranks[first]).wrapping_sub(1);
    super::rays::select_unpredictable(blocked == 0, length, before) as usize
}

/// As [`ahead_rising`] where bit 127 lies on no ray and `ranks[127]` is 255: an unblocked ray's
/// scan finds the forced bit and counts `length - 255 - 1`, which wraps to `length`, so no
/// select is needed (two instructions fewer a ray).
#[inline(always)]
pub fn ahead_rising_open(blocked: u128, length: u8, ranks: &[u8; 128]) -> usize {
    let first = (blocked | 1 << 127).trailing_zeros() as usize;
    length.wrapping_sub(ranks[first]).wrapping_sub(1) as usize
}

/// As [`ahead_falling`] where bit 0 lies on no ray and `ranks[0]` is 255 (see
/// [`ahead_rising_open`]).
#[inline(always)]
pub fn ahead_falling_open(blocked: u128, length: u8, ranks: &[u8; 128]) -> usize {
    let first = ((blocked | 1).leading_zeros() ^ 127) as usize;
    length.wrapping_sub(ranks[first]).wrapping_sub(1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_mask_covers_128_slots_and_reads_no_match_past_the_state() {
        let mut slots = vec![3u8; 113];
        for i in [0, 5, 63, 64, 65, 100, 112] {
            slots[i] = 9;
        }
        let expected: u128 = [0u32, 5, 63, 64, 65, 100, 112].iter().map(|&i| 1u128 << i).sum();
        assert_eq!(equal_bytes_wide(&slots, 0, 9), expected);
        // Every slot of 3 in the state, none past its end (slots 113..128).
        assert_eq!(equal_bytes_wide(&slots, 0, 3), !expected & ((1u128 << 113) - 1));
        // A window from slot 5: bit `i` is slot `5 + i`.
        assert_eq!(equal_bytes_wide(&slots, 5, 9), expected >> 5);
        // A state of 200 slots: the high half is its own 64 slots.
        let mut long = vec![0u8; 200];
        long[10] = 1;
        long[10 + 127] = 1;
        long[10 + 128] = 1;
        assert_eq!(equal_bytes_wide(&long, 10, 1), 1 | 1 << 127);
    }

    #[test]
    fn a_walk_ahead_of_its_stop_is_its_length_less_the_stop_s_own_ray() {
        // A line of slots 3, 5, 9, 20 (rising): the ray from before slot 3 is all four, and
        // the ray from the square at slot `s` is the squares after it.
        let mut ranks = [0u8; 128];
        for (slot, rank) in [(3, 3), (5, 2), (9, 1), (20, 0)] {
            ranks[slot] = rank;
        }
        assert_eq!(ahead_rising(0, 4, &ranks), 4);
        assert_eq!(ahead_rising(1 << 3, 4, &ranks), 0);
        assert_eq!(ahead_rising(1 << 9 | 1 << 20, 4, &ranks), 2);
        assert_eq!(ahead_rising(1 << 20, 4, &ranks), 3);
        // The ray from slot 5's square: 9, 20.
        assert_eq!(ahead_rising(1 << 20, 2, &ranks), 1);
        // Falling: slots 120, 64, 2 from the start; ranks are the rays after each.
        let mut falling = [0u8; 128];
        for (slot, rank) in [(120, 2), (64, 1), (2, 0), (127, 3)] {
            falling[slot] = rank;
        }
        assert_eq!(ahead_falling(0, 3, &falling), 3);
        assert_eq!(ahead_falling(1 << 120, 3, &falling), 0);
        assert_eq!(ahead_falling(1 << 64 | 1 << 2, 3, &falling), 1);
        assert_eq!(ahead_falling(1 << 2, 3, &falling), 2);
        assert_eq!(ahead_falling(1 << 127, 4, &falling), 0);
    }

    #[test]
    fn an_open_scan_counts_what_the_select_counts_where_the_forced_bit_is_on_no_ray() {
        // The rising line of slots 3, 5, 9, 20 with bit 127 on no ray: its rank 255.
        let mut ranks = [0u8; 128];
        for (slot, rank) in [(3, 3), (5, 2), (9, 1), (20, 0), (127, 255)] {
            ranks[slot] = rank;
        }
        assert_eq!(ahead_rising_open(0, 4, &ranks), 4);
        assert_eq!(ahead_rising_open(0, 0, &ranks), 0);
        assert_eq!(ahead_rising_open(1 << 3, 4, &ranks), 0);
        assert_eq!(ahead_rising_open(1 << 9 | 1 << 20, 4, &ranks), 2);
        assert_eq!(ahead_rising_open(1 << 20, 2, &ranks), 1);
        // Falling: slots 120, 64, 2 with bit 0 on no ray: its rank 255.
        let mut falling = [0u8; 128];
        for (slot, rank) in [(120, 2), (64, 1), (2, 0), (0, 255)] {
            falling[slot] = rank;
        }
        assert_eq!(ahead_falling_open(0, 3, &falling), 3);
        assert_eq!(ahead_falling_open(0, 9, &falling), 9);
        assert_eq!(ahead_falling_open(1 << 120, 3, &falling), 0);
        assert_eq!(ahead_falling_open(1 << 64 | 1 << 2, 3, &falling), 1);
        assert_eq!(ahead_falling_open(1 << 2, 3, &falling), 2);
        // Every blocked pattern of a nine-square line agrees with the select's form.
        let slots: Vec<usize> = (0..9).map(|i| 10 + 11 * i).collect();
        let mut line = [0u8; 128];
        for (i, &slot) in slots.iter().enumerate() {
            line[slot] = (8 - i) as u8;
        }
        let mut open = line;
        open[127] = 255;
        for pattern in 0u32..1 << 9 {
            let blocked: u128 =
                slots.iter().enumerate().filter(|&(i, _)| pattern >> i & 1 == 1).map(|(_, &s)| 1u128 << s).sum();
            let expected = (0..9).take_while(|&i| pattern >> i & 1 == 0).count();
            assert_eq!(ahead_rising(blocked, 9, &line), expected);
            assert_eq!(ahead_rising_open(blocked, 9, &open), expected);
        }
    }
}
