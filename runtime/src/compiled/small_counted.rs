//! Small counted placements: the count and the picked member of a counted placement over at most
//! nine members by two table lookups (spec/codegen.md, "Counted placements"; the generator's
//! `codegen/counted.rs`).
//!
//! A counted placement's masks ([`super::counted`]) mark each passing member by the high bit of
//! its byte, eight members a word. Over at most nine members (tic-tac-toe's cells) they fit one
//! nine-bit index, member `i` at bit `i` ([`marked_bits`]: each word's high bits gathered into
//! one byte by one multiplication). Then the count is one load ([`bits_count`]) and so is the
//! `k`-th marked member ([`select_bit`]), from tables of all 512 indices built at compile time:
//! where [`super::counted::select_marked`] takes a chain of about a dozen dependent word
//! operations (three multiplications among them), and the listing it replaces a prefix sum per
//! member and a store and load of the picked delta word, the ply's pick waits for two loads.
//! Exact: the tables are the counts and the ascending set bits of every index (unit tests below
//! compare them with `count_ones` and a scan), so the count and the member are the ones
//! `marked_total` and `select_marked` give. Cost: 512 bytes and 8 KiB of tables, once per
//! program.

/// The most members a small counted placement has: one bit each in a table index.
pub const SMALL_MAX_MEMBERS: usize = 9;

/// The indices of the tables: every set of at most [`SMALL_MAX_MEMBERS`] members.
const INDICES: usize = 1 << SMALL_MAX_MEMBERS;

/// A [`select_bit`] past the marked members: no member table has an entry there.
const NO_MEMBER: u8 = u8::MAX;

/// Per index, the number of its set bits.
static COUNTS: [u8; INDICES] = counts();

/// Per index, its set bits in ascending order, then [`NO_MEMBER`].
static SELECTS: [[u8; 16]; INDICES] = selects();

const fn counts() -> [u8; INDICES] {
    let mut table = [0u8; INDICES];
    let mut index = 0;
    while index < INDICES {
        table[index] = (index as u32).count_ones() as u8;
        index += 1;
    }
    table
}

const fn selects() -> [[u8; 16]; INDICES] {
    let mut table = [[NO_MEMBER; 16]; INDICES];
    let mut index = 0;
    while index < INDICES {
        let (mut bit, mut found) = (0, 0);
        while bit < SMALL_MAX_MEMBERS {
            if index >> bit & 1 == 1 {
                table[index][found] = bit as u8;
                found += 1;
            }
            bit += 1;
        }
        index += 1;
    }
    table
}

/// The members the masks mark (at most two masks, the second's marks in its first byte only) as
/// one index, member `8 × word + byte` at that bit. Each word's high bits are gathered by one
/// multiplication: byte `i`'s bit (moved to its low bit) times `2^(56 - 7i)` lands at bit
/// `56 + i`, and every other product at a distinct bit outside 56..64, so nothing carries in.
/// (Not [`super::bit_listing::gather_high_bits`]'s `pmovmskb`: the round trip through a vector
/// register lengthens the pick's chain; tic-tac-toe and connect four measured 1-4 % slower.)
#[inline(always)]
pub fn marked_bits(masks: &[u64]) -> usize {
    debug_assert!(masks.len() <= 2 && masks.get(1).is_none_or(|&high| high & !0x80 == 0));
    let gather = |mask: u64| ((mask >> 7 & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let low = masks.first().map_or(0, |&mask| gather(mask));
    let high = masks.get(1).map_or(0, |&mask| gather(mask));
    (low | high << 8) & (INDICES - 1)
}

/// The number of members `bits` marks.
#[inline(always)]
pub fn bits_count(bits: usize) -> usize {
    COUNTS[bits & (INDICES - 1)] as usize
}

/// The member (bit) index of the `k`-th member `bits` marks, from 0 in member order; `k` must be
/// below [`bits_count`] (the pick guarantees it), past it the answer is 255, outside every member
/// table, so a wrong count cannot pick a member silently.
#[inline(always)]
pub fn select_bit(bits: usize, k: usize) -> usize {
    SELECTS[bits & (INDICES - 1)][k.min(15)] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_count_and_select_every_index() {
        for bits in 0..INDICES {
            assert_eq!(bits_count(bits), bits.count_ones() as usize);
            let set: Vec<usize> = (0..SMALL_MAX_MEMBERS).filter(|b| bits >> b & 1 == 1).collect();
            for k in 0..16 {
                assert_eq!(select_bit(bits, k), set.get(k).copied().unwrap_or(255), "{bits:#b} {k}");
            }
        }
        assert_eq!(select_bit(0b1_0100_1001, 3), 8);
        assert_eq!(select_bit(0b1_0100_1001, 4), 255);
    }

    #[test]
    fn masks_become_one_bit_per_member() {
        // Members 0, 3 and 6 in the first word, 8 in the second (tic-tac-toe's nine cells).
        assert_eq!(marked_bits(&[0x0080_0000_8000_0080, 0x80]), 0b1_0100_1001);
        assert_eq!(marked_bits(&[0x8080_8080_8080_8080]), 0xff);
        assert_eq!(marked_bits(&[0x8000_0000_0000_0000, 0]), 0x80);
        assert_eq!(marked_bits(&[0, 0x80]), 0x100);
        assert_eq!(marked_bits(&[]), 0);
        // Every subset of one word's bytes.
        for marks in 0..256usize {
            let mask = (0..8).filter(|b| marks >> b & 1 == 1).fold(0u64, |m, b| m | 0x80 << (8 * b));
            assert_eq!(marked_bits(&[mask]), marks);
            assert_eq!(marked_bits(&[mask, 0x80]), marks | 0x100);
        }
    }
}
