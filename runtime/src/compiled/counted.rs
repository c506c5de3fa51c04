//! Counted placements: a playout ply that counts a placement's moves eight members a word and
//! builds only the picked move, instead of listing every move (spec/codegen.md, "Counted
//! placements").
//!
//! A start whose whole listing is one placement loop (`cell = Cell(*)`, guards that read one byte
//! per member, `$$ cell`, a completion with a delta word: gomoku's and hex's turns) lists exactly
//! the members whose bytes pass, in member order, one move each. The code generator then emits
//! [`CompiledGame::pick_counted`] for it: one mask word per eight members (the byte-scan masks of
//! [`super::byte_scan`], each member's byte's high bit set where it passes), the count as the
//! sum of the masks' bits, the pick drawn from that count ([`super::pick_and_count`], the draw
//! every other listing makes), and the picked member found again in the masks
//! ([`select_marked`]): its delta word is the one the delta listing would push for it. So the
//! playout makes the same draws and reaches the same successors; only the work changes (no
//! push per move, no replay of the picked move). Cost per ply: a few word operations per eight
//! members (gomoku's 225 cells: ~200 instructions, where its listing and replay took ~2,900).
//!
//! A *counted product* (pentago: a cell, then one of four quadrants and one of two spins, no
//! check after the cell) is the same ply: the generated `pick_counted` counts `P` moves per
//! marked member, decodes the draw into the member and each choice's member, and returns the
//! picked move's delta word, so nothing here changes (spec/codegen.md, "Counted products").

use super::{pick_and_count, CompiledGame, CompiledState, PlayoutOutcome, Search, Xoshiro256};
use crate::engine::EngineError;

/// Eight bytes of one each.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;

/// The number of members a byte mask marks: its bytes whose high bit is set (a byte-scan mask
/// has no other bit set). Three word operations: each byte's bit moved to its low bit, then one
/// multiplication adds all eight bytes into the top one.
#[inline(always)]
pub fn marked_count(mask: u64) -> usize {
    ((mask >> 7 & BYTE_ONES).wrapping_mul(BYTE_ONES) >> 56) as usize
}

/// The number of members all `masks` mark together ([`marked_count`] summed), for at most
/// [`MAX_MARKED_WORDS`] masks. Each mask's bytes are added into one word of byte sums first (a
/// byte sum stays below 256), then the eight sums are added: two word operations per mask in a
/// loop the compiler vectorizes, where a count per mask took five and a multiplication.
#[inline(always)]
pub fn marked_total(masks: &[u64]) -> usize {
    debug_assert!(masks.len() <= MAX_MARKED_WORDS);
    let mut sums = 0u64;
    for &mask in masks {
        sums += mask >> 7 & BYTE_ONES;
    }
    // Pairs of byte sums into 16-bit sums (each at most 510), then all four into the top one.
    const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    let pairs = (sums & LOW_BYTES) + (sums >> 8 & LOW_BYTES);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
}

/// The most masks [`marked_total`] adds: a byte of its sums holds one mark per mask.
pub const MAX_MARKED_WORDS: usize = 255;

/// The member index (eight per mask, lowest byte first) of the `k`-th member (from 0, in index
/// order) the masks mark. `k` must be below their total count ([`marked_count`] summed), which
/// the caller's pick guarantees; past it the answer is `8 × masks.len()`, outside every member
/// table, so a wrong count cannot pick a member silently.
#[inline(always)]
pub fn select_marked(masks: &[u64], mut k: usize) -> usize {
    // Four masks at a time while the member lies past them (a sum of four costs about what two
    // counts do), then one at a time.
    let mut first = 0;
    while first + 4 <= masks.len() {
        let group = marked_total(&masks[first..first + 4]);
        if k < group {
            break;
        }
        k -= group;
        first += 4;
    }
    if masks.len() <= 2 {
        // A board of at most sixteen members (tic-tac-toe): the word holding the member chosen
        // by a select, not a branch on the pick (it would mispredict on random picks).
        let low = masks.first().copied().unwrap_or(0);
        let high = masks.get(1).copied().unwrap_or(0);
        let in_low = marked_count(low);
        let (mask, base, k) = if k < in_low { (low, 0, k) } else { (high, 8, k - in_low) };
        return (base + select_in_mask(mask, k)).min(8 * masks.len());
    }
    for (chunk, &mask) in masks.iter().enumerate().skip(first) {
        let count = marked_count(mask);
        if k < count {
            return 8 * chunk + select_in_mask(mask, k);
        }
        k -= count;
    }
    8 * masks.len()
}

/// The byte index (0 to 7) of the `k`-th byte (from 0) a byte mask marks, 8 when it marks `k`
/// or fewer. No branch: each byte of `prefix` counts the marked bytes up to it (at most 8, so no
/// byte carries into the next), and the answer is the number of bytes whose count is at most
/// `k` (the `k`-th marked byte is the first whose count passes `k`), each byte compared by one
/// subtraction that cannot borrow (`0x80 + k - count` lies in 0x78..=0x88).
#[inline(always)]
pub fn select_in_mask(mask: u64, k: usize) -> usize {
    let prefix = (mask >> 7 & BYTE_ONES).wrapping_mul(BYTE_ONES);
    let k = k.min(8) as u64;
    let at_most_k = (BYTE_ONES * (0x80 + k)).wrapping_sub(prefix) & 0x8080_8080_8080_8080;
    marked_count(at_most_k)
}

/// The first `BYTES` slots from `at` (1 to 8) as a little-endian word, its other bytes zero:
/// one narrow load where a word's marked members sit in its first bytes (the last word of a
/// small board), so a recent one-byte store to a slot past them (the keeper's player slot) is
/// not one the load waits for (see `mask_checks::differing_low`).
#[inline(always)]
pub fn first_slots_word<const BYTES: usize>(v: &[u8], at: usize) -> u64 {
    let mut bytes = [0u8; 8];
    bytes[..BYTES].copy_from_slice(&v[at..at + BYTES]);
    u64::from_le_bytes(bytes)
}

/// The playout loop's ply from a counted start ([`CompiledGame::pick_counted`]): picks a move as
/// every other listing would and makes `state` its successor (keeper moves not applied),
/// returning the number of moves; `None` when `state`'s node is no counted start.
#[inline(always)]
pub(super) fn counted_ply<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    rng: &mut Xoshiro256,
    random: bool,
    search: &Search<G::Values>,
    outcome: &mut PlayoutOutcome,
) -> Result<Option<usize>, EngineError> {
    let Some((count, delta)) =
        G::pick_counted(state.node, &state.values, |count| pick_and_count(rng, count, random, outcome))
    else {
        return Ok(None);
    };
    let delta = delta.ok_or_else(|| EngineError::UnexpectedEnd { node: search.node_name(state.node) })?;
    G::apply_delta(delta, state);
    Ok(Some(count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_counts_its_marked_bytes() {
        assert_eq!(marked_count(0), 0);
        assert_eq!(marked_count(0x8080_8080_8080_8080), 8);
        assert_eq!(marked_count(0x8000_0000_0000_0080), 2);
        assert_eq!(marked_count(0x0080_0080_8000_0000), 3);
    }

    #[test]
    fn the_masks_total_their_marks_up_to_the_most_masks() {
        assert_eq!(marked_total(&[]), 0);
        assert_eq!(marked_total(&[0x8000_0000_0000_0080, 0x0080_0080_8000_0000]), 5);
        // Every byte of every mask marked: 8 × 255 = 2,040, past a byte and a 16-bit pair's
        // byte-sized half.
        let full = [0x8080_8080_8080_8080; MAX_MARKED_WORDS];
        assert_eq!(marked_total(&full), 2040);
        let one_byte = [0x0000_0000_8000_0000; MAX_MARKED_WORDS];
        assert_eq!(marked_total(&one_byte), 255);
    }

    #[test]
    fn the_first_slots_word_holds_those_slots_and_zeros() {
        let slots = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(first_slots_word::<1>(&slots, 2), 3);
        assert_eq!(first_slots_word::<2>(&slots, 2), 0x0403);
        assert_eq!(first_slots_word::<4>(&slots, 1), 0x0504_0302);
        assert_eq!(first_slots_word::<8>(&slots, 2), 0x0a09_0807_0605_0403);
    }

    #[test]
    fn a_select_in_one_mask_finds_every_marked_byte_and_8_past_them() {
        for marks in 0..=255u64 {
            let mask = (0..8).filter(|b| marks >> b & 1 == 1).fold(0u64, |m, b| m | 0x80 << (8 * b));
            let marked: Vec<usize> = (0..8).filter(|b| marks >> b & 1 == 1).collect();
            for k in 0..12 {
                assert_eq!(select_in_mask(mask, k), marked.get(k).copied().unwrap_or(8), "{marks:#b} {k}");
            }
        }
    }

    #[test]
    fn two_masks_select_across_their_words_without_a_branch() {
        // Tic-tac-toe's nine cells: members 0, 3, 6 in the first word, 8 in the second.
        let masks = [0x0080_0000_8000_0080, 0x80];
        let found: Vec<usize> = (0..5).map(|k| select_marked(&masks, k)).collect();
        assert_eq!(found, [0, 3, 6, 8, 16]);
        assert_eq!(select_marked(&[0x8000], 0), 1);
        assert_eq!(select_marked(&[0x8000], 1), 8);
        assert_eq!(select_marked(&[0, 0x8000_0000_0000_0000], 0), 15);
        assert_eq!(select_marked(&[0, 0], 3), 16);
    }

    #[test]
    fn the_kth_marked_member_is_found_in_index_order() {
        // Member 0 in the first word, 8, 9 and 15 in the second, 17 and 23 in the third.
        let masks = [0x0000_0000_0000_0080, 0x8000_0000_0000_8080, 0x8000_0000_0000_8000];
        let found: Vec<usize> = (0..6).map(|k| select_marked(&masks, k)).collect();
        assert_eq!(found, [0, 8, 9, 15, 17, 23]);
        // Groups of four masks skipped, then one mask at a time: members 0..=7 (a full first
        // mask), then 9 in each of masks 1 to 9.
        let mut many = [0x0000_0000_0000_8000u64; 10];
        many[0] = 0x8080_8080_8080_8080;
        let found: Vec<usize> = (0..17).map(|k| select_marked(&many, k)).collect();
        let expected: Vec<usize> = (0..8).chain((1..10).map(|chunk| 8 * chunk + 1)).collect();
        assert_eq!(found, expected);
        assert_eq!(select_marked(&many, 17), 80);
        // Past the count: outside every member table.
        assert_eq!(select_marked(&masks, 6), 24);
        assert_eq!(select_marked(&[], 0), 0);
    }
}
