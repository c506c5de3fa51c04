//! One-word member scans: a byte scan ([`Generator::byte_scan`]) over at most 64 members
//! gathers its words' masks into one mask of one bit per member, and loops once over it.
//!
//! Shape: a byte scan's words (eight members each, per member byte its high bit set where the
//! byte tests hold) for a loop of at most [`ONE_WORD_MEMBERS`] members: draughts' scans for an
//! own piece over its 64 squares, the other 64-square boards' scans; up to
//! [`TWO_WORD_MEMBERS`] members two masks of 64 (chess's 65 squares with `null`, amazons' 100,
//! session 29). Not a longer loop (gomoku's 225 cells): its words keep a loop each.
//!
//! Why: with a loop per word, each word's loop exit is a branch whose trip count (how many of
//! the word's members pass) is data the branch predictor cannot learn on a random position;
//! callgrind's branch simulation charged draughts' scans about 5 mispredictions each, 27 % of
//! a playout's. One mask has one loop exit. Cost: per word the gather of its eight high bits
//! (`byte_high_bits`, on x86-64 a move and a `pmovmskb`) and a shift and an or.
//!
//! Exact: the mask's bit `i` is member `i`'s byte's high bit in word `i / 8`, so the loop visits
//! the same members in the same order (lowest first); bits at or past the member count (slots
//! of other variables read with the last word) are cleared first, as the per-word loop's
//! `i >= count` stopped it.
//!
//! [`Generator::byte_scan`]: super::Generator

/// The most members a one-word scan covers: one bit each in a `u64`.
pub(super) const ONE_WORD_MEMBERS: usize = 64;

/// The code of a byte scan over `count` members as one mask (module doc), `(head, tail)`: the
/// head builds the mask from `word_mask` (the members' byte tests on the word `chunk`, an
/// expression of `chunk`) over the words `range` bounds (a replayed move's one member: its
/// bounds `first` and `last`) or all of them, then opens the loop over its bits with `i` the
/// member; the tail closes it. Above [`ONE_WORD_MEMBERS`] members, [`two_word_scan`].
pub(super) fn one_word_scan(word_mask: &str, count: usize, range: Option<(&str, &str)>) -> Option<(String, String)> {
    if count > ONE_WORD_MEMBERS {
        return two_word_scan(word_mask, count, range);
    }
    let (chunks, bounds) = chunks_and_bounds(count, range);
    let past_members =
        if count == ONE_WORD_MEMBERS { String::new() } else { format!("mask &= (1u64 << {count}) - 1;\n") };
    let head = format!(
        "let mut mask: u64 = 0;\nfor chunk in {chunks} {{\nmask |= byte_high_bits({word_mask}) << (8 * chunk);\n}}\n\
         {past_members}while mask != 0 {{\nlet i = mask.trailing_zeros() as usize;\nmask &= mask - 1;\n{bounds}"
    );
    Some((head, "}\n".to_string()))
}

/// The words a scan gathers (`chunks`, a range of word indices) and the member bounds its loop
/// body tests first (`bounds`: empty without a replayed range).
fn chunks_and_bounds(count: usize, range: Option<(&str, &str)>) -> (String, String) {
    match range {
        Some((first, last)) => (
            format!("{first} / 8..({last} + 7) / 8"),
            format!("if i < {first} {{ continue; }}\nif i >= {last} {{ break; }}\n"),
        ),
        None => (format!("0..{}", count.div_ceil(8)), String::new()),
    }
}

/// The most members a two-word scan covers: one bit each in two `u64` halves
/// ([`one_word_scan`] above 64 members: chess's 65 squares with `null`, amazons' 100).
pub(super) const TWO_WORD_MEMBERS: usize = 128;

/// [`one_word_scan`] for 65 to [`TWO_WORD_MEMBERS`] members: the words' masks gathered into two
/// halves of 64 members, then one loop over each half's bits (the same body, `i` offset by 64 in
/// the second), so two loop exits where a loop per word of eight had one per word. Exact as the
/// one-word scan: the same bits, members in the same order. A `u128` mask would be one loop, but
/// its bit scan and clear cost about twice a `u64`'s (measured on chess: +1 % instructions).
/// `None` above [`TWO_WORD_MEMBERS`].
fn two_word_scan(word_mask: &str, count: usize, range: Option<(&str, &str)>) -> Option<(String, String)> {
    if count > TWO_WORD_MEMBERS {
        return None;
    }
    let (chunks, bounds) = chunks_and_bounds(count, range);
    let past_members =
        if count == TWO_WORD_MEMBERS { String::new() } else { format!("halves[1] &= (1u64 << {}) - 1;\n", count - 64) };
    let head = format!(
        "let mut halves: [u64; 2] = [0; 2];\nfor chunk in {chunks} {{\n\
         halves[chunk / 8] |= byte_high_bits({word_mask}) << (8 * (chunk % 8));\n}}\n\
         {past_members}for half in 0..2 {{\nlet mut mask: u64 = halves[half];\nwhile mask != 0 {{\n\
         let i = 64 * half + mask.trailing_zeros() as usize;\nmask &= mask - 1;\n{bounds}"
    );
    Some((head, "}\n}\n".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_of_up_to_64_members_loops_once_over_one_mask() {
        let (head, tail) = one_word_scan("W", 20, None).expect("20 members fit one word");
        assert_eq!(
            head,
            "let mut mask: u64 = 0;\nfor chunk in 0..3 {\nmask |= byte_high_bits(W) << (8 * chunk);\n}\n\
             mask &= (1u64 << 20) - 1;\nwhile mask != 0 {\nlet i = mask.trailing_zeros() as usize;\nmask &= mask - 1;\n"
        );
        assert_eq!(tail, "}\n");
        let (full, _) = one_word_scan("W", 64, Some(("first", "last"))).expect("64 members fit one word");
        assert!(full.contains("for chunk in first / 8..(last + 7) / 8 {"), "{full}");
        assert!(!full.contains("mask &= (1u64 <<"), "{full}");
        assert!(full.ends_with("if i < first { continue; }\nif i >= last { break; }\n"), "{full}");
        let (wide, wide_tail) = one_word_scan("W", 65, None).expect("65 members fit two words");
        assert_eq!(
            wide,
            "let mut halves: [u64; 2] = [0; 2];\nfor chunk in 0..9 {\nhalves[chunk / 8] |= byte_high_bits(W) << (8 * (chunk % 8));\n}\n\
             halves[1] &= (1u64 << 1) - 1;\nfor half in 0..2 {\nlet mut mask: u64 = halves[half];\nwhile mask != 0 {\n\
             let i = 64 * half + mask.trailing_zeros() as usize;\nmask &= mask - 1;\n"
        );
        assert_eq!(wide_tail, "}\n}\n");
        let (full, _) = one_word_scan("W", 128, Some(("first", "last"))).expect("128 members fit two words");
        assert!(!full.contains("halves[1] &="), "{full}");
        assert!(full.ends_with("if i < first { continue; }\nif i >= last { break; }\n"), "{full}");
        assert_eq!(one_word_scan("W", 129, None), None);
    }
}
