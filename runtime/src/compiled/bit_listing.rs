//! Bit-parallel flank listings: the word operations a generated module uses to list a placement
//! guarded by a flank check (reversi's "one or more of theirs, then one of mine" along each
//! direction) for all cells of a 64-cell board at once (spec/codegen.md, "Bit-parallel flank
//! listings").
//!
//! A board is read as 64 consecutive one-byte slots; cell `i` of the window is bit `i` of a mask.
//! The code generator proved, for each direction, that its step table on the window is one
//! constant index shift `k` restricted to an edge mask (the cells whose step stays on the
//! window), so "the cells whose step lands in `x`" is `shift_back(x, k, edge)`. Cost per ply:
//! a few dozen instructions for the masks, about `3 × iterations + 4` word operations per
//! direction, a popcount and a selection, where the plain listing walks every cell's eight rays.

/// The 64 bytes of a board window, loaded once for several [`WindowBytes::matches`].
#[derive(Clone, Copy)]
pub struct WindowBytes {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    lanes: [std::arch::x86_64::__m128i; 4],
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    words: [u64; 8],
}

impl WindowBytes {
    #[inline(always)]
    pub fn new(cells: &[u8; 64]) -> WindowBytes {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use std::arch::x86_64::{__m128i, _mm_loadu_si128};
            // SAFETY: SSE2 is enabled (the cfg above; it is the x86-64 baseline), and each
            // unaligned load reads the 16 bytes `cells[16 * i..16 * i + 16]`, inside the array.
            let lane = |i: usize| unsafe { _mm_loadu_si128(cells.as_ptr().add(16 * i).cast::<__m128i>()) };
            WindowBytes { lanes: [lane(0), lane(1), lane(2), lane(3)] }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let word = |i: usize| u64::from_le_bytes(cells[8 * i..8 * i + 8].try_into().expect("eight bytes"));
            WindowBytes { words: std::array::from_fn(word) }
        }
    }

    /// Bit `i` set where byte `i` of the window is `value`: per 16 bytes a byte compare and a
    /// movemask (SSE2), elsewhere per 8 bytes an exact zero-byte test and a gather by
    /// multiplication.
    #[inline(always)]
    pub fn matches(&self, value: u8) -> u64 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
            let mut mask = 0u64;
            for (i, &lane) in self.lanes.iter().enumerate() {
                // SAFETY: SSE2 is enabled (the cfg above; it is the x86-64 baseline).
                let bits = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(lane, _mm_set1_epi8(value as i8))) };
                mask |= (bits as u16 as u64) << (16 * i);
            }
            mask
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let mut mask = 0u64;
            for (i, &word) in self.words.iter().enumerate() {
                mask |= word_matches(word, value) << (8 * i);
            }
            mask
        }
    }
}

/// Bit `i` set where byte `i` of `mask` has its high bit set ([`super::byte_scan::byte_high_bits`],
/// which holds the exhaustive test): on x86-64 a move to a vector register and `pmovmskb`;
/// elsewhere a multiplication that moves bit `8i + 7` to bit `56 + i`, every partial product on
/// its own bit.
#[inline(always)]
pub fn gather_high_bits(mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::{_mm_cvtsi64_si128, _mm_movemask_epi8};
        // SAFETY: SSE2 is enabled (the cfg above; it is the x86-64 baseline).
        unsafe { _mm_movemask_epi8(_mm_cvtsi64_si128(mask as i64)) as u32 as u64 }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        ((mask & super::byte_scan::BYTE_HIGH_BITS) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
    }
}

/// Bit `i` set where `lanes[i] == value`, for sixteen bytes (the sixteen-cell mask checks,
/// [`super::mask_lanes::equal_lanes`]): on x86-64 one unaligned load, `pcmpeqb` and `pmovmskb`;
/// elsewhere a byte loop.
#[inline(always)]
pub fn equal_bytes16(lanes: &[u8; 16], value: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is enabled (the cfg above; it is the x86-64 baseline), and the unaligned
        // load reads exactly the sixteen bytes of `lanes`.
        unsafe {
            let bytes = _mm_loadu_si128(lanes.as_ptr().cast::<__m128i>());
            _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(value as i8))) as u32 as u64
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        lanes.iter().enumerate().fold(0u64, |mask, (i, &byte)| mask | ((byte == value) as u64) << i)
    }
}

/// Bit `i` set where byte `i` of `word` (little-endian) is `value`: the byte scans' exact
/// per-byte equality ([`super::byte_scan::byte_eq_mask`], a high bit per byte), then a
/// multiplication that moves bit `8i` to bit `56 + i` with every partial product on its own bit.
#[inline(always)]
pub fn word_matches(word: u64, value: u8) -> u64 {
    (super::byte_scan::byte_eq_mask(word, value) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Bit `i` set where `cells[i] == value`, for the 64 bytes of a board window.
#[inline(always)]
pub fn match_mask(cells: &[u8; 64], value: u8) -> u64 {
    WindowBytes::new(cells).matches(value)
}

/// The cells whose step along a direction lands in `x`: the direction's step is `i -> i + shift`
/// on the cells of `edge` (and leaves the window elsewhere).
#[inline(always)]
pub fn shift_back(x: u64, shift: i32, edge: u64) -> u64 {
    let moved = if shift >= 0 { x >> shift } else { x << -shift };
    moved & edge
}

/// The cells from which a direction's ray meets one or more of `theirs` and then one of `mine`
/// (whatever the cells themselves hold):
/// the runs of `theirs` that end next to one of `mine` are grown backwards from it, one cell per
/// round (`iterations` rounds after the first cover runs of up to `iterations + 1` cells), and
/// the cells stepping onto such a run are the origins.
#[inline(always)]
pub fn flank_origins(mine: u64, theirs: u64, shift: i32, edge: u64, iterations: u32) -> u64 {
    let mut run = shift_back(mine, shift, edge) & theirs;
    for _ in 0..iterations {
        run |= shift_back(run, shift, edge) & theirs;
    }
    shift_back(run, shift, edge)
}

/// The index of the `k`-th set bit of `mask` (from 0, lowest first); 64 when `mask` has `k` or
/// fewer bits, outside every 64-entry member table.
#[inline(always)]
pub fn select_bit(mask: u64, k: usize) -> usize {
    let mut mask = mask;
    for _ in 0..k {
        mask &= mask.wrapping_sub(1);
    }
    mask.trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_mask_marks_the_bytes_equal_to_the_value() {
        let mut cells = [7u8; 64];
        cells[0] = 1;
        cells[9] = 1;
        cells[63] = 1;
        cells[10] = 0;
        assert_eq!(match_mask(&cells, 1), 1 | 1 << 9 | 1 << 63);
        assert_eq!(match_mask(&cells, 0), 1 << 10);
        assert_eq!(match_mask(&cells, 7), !(1 | 1 << 9 | 1 << 63 | 1 << 10));
        assert_eq!(match_mask(&cells, 200), 0);
        // The word test alone, on every byte value against its neighbours.
        for value in 0..=255u8 {
            for other in [0u8, 1, 0x7f, 0x80, 0xff, value ^ 1, value.wrapping_add(1)] {
                let word = u64::from_le_bytes([value, other, value, value, other, other, value, other]);
                let expected = if value == other { 0xff } else { 0b0100_1101 };
                assert_eq!(word_matches(word, value), expected, "{value} {other}");
            }
        }
    }

    /// An 8x8 board, cell `8 × column + row`, the step north (`row + 1`): shift 1 off the top row.
    const NORTH_EDGE: u64 = !0x8080_8080_8080_8080;

    #[test]
    fn flank_origins_follow_runs_of_theirs_closed_by_mine() {
        // Column 0: row 0 empty, rows 1..=3 theirs, row 4 mine: rows 0, 1 and 2 are origins
        // (whatever they hold: the caller masks the empty cells).
        let theirs = 0b0000_1110;
        let mine = 0b0001_0000;
        assert_eq!(flank_origins(mine, theirs, 1, NORTH_EDGE, 5), 0b0000_0111);
        // With one round after the first, runs of up to two: row 0's three-long run is not found.
        assert_eq!(flank_origins(mine, theirs, 1, NORTH_EDGE, 1), 0b0000_0110);
        assert_eq!(flank_origins(mine, theirs, 1, NORTH_EDGE, 2), 0b0000_0111);
        // No run at all: mine next to the origin is no flank.
        assert_eq!(flank_origins(0b10, 0, 1, NORTH_EDGE, 5), 0);
        // A run across the top edge into the next column does not count: column 0 rows 6, 7
        // theirs, column 1 row 0 mine.
        assert_eq!(flank_origins(1 << 8, 0b1100_0000, 1, NORTH_EDGE, 5), 0);
        // South (shift -1, edge off the bottom row): column 1 row 7 empty, rows 6..=5 theirs,
        // row 4 mine: origins rows 7 and 6.
        let south_edge = !0x0101_0101_0101_0101;
        assert_eq!(flank_origins(1 << 12, 1 << 13 | 1 << 14, -1, south_edge, 5), 1 << 15 | 1 << 14);
    }

    #[test]
    fn the_kth_set_bit_is_found_lowest_first() {
        let mask = 1 << 3 | 1 << 17 | 1 << 63;
        assert_eq!((0..4).map(|k| select_bit(mask, k)).collect::<Vec<_>>(), [3, 17, 63, 64]);
        assert_eq!(select_bit(0, 0), 64);
    }
}
