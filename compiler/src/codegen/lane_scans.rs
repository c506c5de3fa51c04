//! Lane member scans: a one-word member scan ([`super::member_bits`]) whose members' bytes lie
//! in a 64-slot window of the state builds its mask sixteen members a compare, with
//! `bit_listing::WindowBytes` (the shift checks' board masks), instead of word by word.
//!
//! Shape: a byte scan of at most 64 members whose byte tests each compare the members' entries
//! with a set of symbols ([`ByteTest`]: at most three, or the complement of such a set), with
//! 64 slots of state from each test's first slot. Draughts' scans for an own piece
//! (`blackMan | blackKing`): per ply, the capture or step listing scans the 64 squares.
//!
//! Why: the word scan costs about eleven operations per eight members (a load, the range's
//! subtractions and masks, a move to a vector register, `pmovmskb`, a shift and an or): about
//! 90 a scan of 64 squares. `WindowBytes` loads the window in four 16-byte lanes once and
//! `matches(symbol)` is a compare and a `pmovmskb` per lane (SSE2, the x86-64 baseline; a word
//! form elsewhere): about 16 operations a symbol.
//!
//! Exact: `matches(s)` has bit `i` set exactly where slot `first + i` holds `s`
//! (`bit_listing`'s tests), so the or over a test's symbols (complemented for a complement
//! test) is the test's outcome per member, the mask the word scan's gathered mask bit for
//! bit; bits at or past the member count (other variables' slots) are cleared, as there.
//!
//! [`ByteTest`]: super::ByteTest

use super::member_bits::ONE_WORD_MEMBERS;
use super::ByteTest;

/// The fewest members above which a scan builds its mask from lanes: four lanes and a compare
/// per lane and symbol cost about what four words of the word scan cost, so shorter scans
/// (tic-tac-toe's nine cells, sixteen-cell quadrants) keep their words.
pub(super) const LANE_SCAN_MIN_MEMBERS: usize = 32;

/// The code of a byte scan over `count` members as one mask built from lanes (module doc),
/// `(head, tail)` as [`super::member_bits::one_word_scan`]'s: `range` bounds the members (a
/// replayed move's one member). `None` above 64 members, where a test's window would read
/// past the `state_len` slots, or for a slot-selected test.
pub(super) fn lane_scan(
    tests: &[&ByteTest],
    count: usize,
    state_len: usize,
    range: Option<(&str, &str)>,
) -> Option<(String, String)> {
    // A slot-selected test (`slot_tests.rs`) holds only its initial value's symbols here: its
    // other variants need the selecting match, which the lanes do not emit.
    if count > ONE_WORD_MEMBERS || tests.is_empty() || tests.iter().any(|test| test.selector.is_some()) {
        return None;
    }
    let mut firsts: Vec<u32> = tests.iter().map(|test| test.first_slot).collect();
    firsts.sort_unstable();
    firsts.dedup();
    if firsts.iter().any(|&first| first as usize + ONE_WORD_MEMBERS > state_len) {
        return None;
    }
    let mut head = String::new();
    for first in &firsts {
        head.push_str(&format!(
            "let lanes{first} = regula_runtime::compiled::bit_listing::WindowBytes::new(v[{first}..{}].try_into().expect(\"64 member slots\"));\n",
            first + ONE_WORD_MEMBERS as u32
        ));
    }
    let masks: Vec<String> = tests
        .iter()
        .map(|test| {
            let any = if test.symbols.is_empty() {
                "0u64".to_string()
            } else {
                test.symbols
                    .iter()
                    .map(|symbol| format!("lanes{}.matches({symbol})", test.first_slot))
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            if test.complement {
                format!("!({any})")
            } else {
                format!("({any})")
            }
        })
        .collect();
    let past_members = if count == ONE_WORD_MEMBERS { String::new() } else { format!(" & ((1u64 << {count}) - 1)") };
    let bounds = match range {
        Some((first, last)) => format!("if i < {first} {{ continue; }}\nif i >= {last} {{ break; }}\n"),
        None => String::new(),
    };
    head.push_str(&format!(
        "let mut mask: u64 = {}{past_members};\nwhile mask != 0 {{\nlet i = mask.trailing_zeros() as usize;\n\
         mask &= mask - 1;\n{bounds}",
        masks.join(" & ")
    ));
    Some((head, "}\n".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(first_slot: u32, symbols: &[u32], complement: bool) -> ByteTest {
        ByteTest { first_slot, symbols: symbols.to_vec(), complement, ranges: None, selector: None }
    }

    #[test]
    fn a_scan_of_a_64_slot_window_builds_its_mask_from_lanes() {
        let own = test(1, &[9, 10], false);
        let (head, tail) = lane_scan(&[&own], 64, 79, Some(("first", "last"))).expect("the window fits");
        assert_eq!(
            head,
            "let lanes1 = regula_runtime::compiled::bit_listing::WindowBytes::new(v[1..65].try_into().expect(\"64 member slots\"));\n\
             let mut mask: u64 = (lanes1.matches(9) | lanes1.matches(10));\nwhile mask != 0 {\n\
             let i = mask.trailing_zeros() as usize;\nmask &= mask - 1;\nif i < first { continue; }\nif i >= last { break; }\n"
        );
        assert_eq!(tail, "}\n");
        // A complement test, fewer members (the bits past them cleared), two tests on one window.
        let other = test(1, &[8], true);
        let (head, _) = lane_scan(&[&own, &other], 20, 79, None).expect("the window fits");
        assert_eq!(head.matches("WindowBytes::new").count(), 1, "{head}");
        assert!(
            head.contains("let mut mask: u64 = (lanes1.matches(9) | lanes1.matches(10)) & !(lanes1.matches(8)) & ((1u64 << 20) - 1);\n"),
            "{head}"
        );
        // A window past the state, or too many members: the word scan.
        assert_eq!(lane_scan(&[&own], 64, 64, None), None);
        assert_eq!(lane_scan(&[&own], 65, 200, None), None);
        // A test compared with a slot's value (one variant per value): the word scan, which selects.
        let selected = ByteTest { selector: Some(super::super::slot_tests::Selector::for_test(&own)), ..own.clone() };
        assert_eq!(lane_scan(&[&selected], 64, 79, None), None);
    }

    #[test]
    fn lane_masks_agree_with_the_word_scan_on_every_byte() {
        // The runtime functions both forms call, on a window holding every symbol below 16 at
        // every position: `matches` or-ed over a test's symbols is the gathered word mask.
        use regula_runtime::compiled::bit_listing::WindowBytes;
        use regula_runtime::compiled::byte_scan::{byte_at_least_mask, byte_below_mask, byte_high_bits, slot_word};
        for shift in 0..16u8 {
            let cells: [u8; 64] = std::array::from_fn(|i| ((i * 7 + shift as usize) % 16) as u8);
            let lanes = WindowBytes::new(&cells);
            let from_lanes = lanes.matches(9) | lanes.matches(10);
            let mut from_words = 0u64;
            for chunk in 0..8 {
                let word = slot_word(&cells, 8 * chunk);
                from_words |= byte_high_bits(byte_at_least_mask(word, 9) & byte_below_mask(word, 11)) << (8 * chunk);
            }
            assert_eq!(from_lanes, from_words, "shift {shift}");
            let expected = (0..64).filter(|&i| matches!(cells[i], 9 | 10)).fold(0u64, |mask, i| mask | 1 << i);
            assert_eq!(from_lanes, expected, "shift {shift}");
        }
    }
}
