//! Sixteen-cell lanes for mask checks: where the cells a mask check's terms use span at least
//! sixteen board slots, `d` is read sixteen cells per load in board order
//! (`regula_runtime::compiled::mask_lanes`) instead of eight per word in the interleaved layout
//! of `mask_checks::bit_layout` (spec/codegen.md, "Mask checks").
//!
//! Shape: the used cells span board offsets `lo..hi` with `hi - lo >= 16` and `hi < 64`. The
//! loads start at `lo`, `lo + 16`, ... and the last one ends at `hi` (it may overlap the one
//! before), so every used cell is read, no slot outside `lo..hi` is (a store to a slot next to
//! the board just before the check is not one a load must wait for), and bit `i` of
//! `equal_lanes(v, at, x) << (at - board start)` is board offset `i + at - board start`. `d` is
//! the complement of their `or`: a used cell's bit is set exactly where it differs from the
//! compared value, as in the word layout, and every bit outside `lo..hi` is set, bit 63 among
//! them (`hi < 64`), which pads rows of positive terms in place of the word layout's bit 0.
//! Exact: the same literals over the same cells, one bit per cell.
//!
//! Not inlined: the check function is emitted `#[inline(never)]`. Inlined into connect four
//! .rg's keeper step, LLVM turned its 13-term `or` into a chain of 13 early-exit branches and
//! the playouts ran 13 % slower in user time than the word layout's (called, branch-free)
//! check (0.38 -> 0.43 s for 10^6 playouts, interleaved runs) despite 12 % fewer instructions.
//!
//! Cost: per sixteen cells a load, a byte compare, a `pmovmskb`, a shift and an `or`, plus one
//! broadcast and one `not`; connect four's 42 cells take three loads (the word layout: six words
//! of five operations, a shift and an `or` each).

use super::mask_checks::MaskCheck;

/// The fewest cells spanned for lanes: one full load.
const LANE: u32 = 16;

/// The board offsets the terms of `check` use, as a mask.
fn used_cells(check: &MaskCheck) -> u64 {
    check.rows.iter().flatten().fold(0u64, |used, t| used | t.equal | t.differ)
}

/// The first slots (state slots) of the sixteen-slot loads of `check`'s lanes, or `None` where
/// the used cells span fewer than sixteen slots or reach bit 63 (module doc).
pub(crate) fn lane_loads(check: &MaskCheck) -> Option<Vec<u32>> {
    let used = used_cells(check);
    if used == 0 {
        return None;
    }
    let low = used.trailing_zeros();
    let high = 64 - used.leading_zeros(); // one past the last used offset
    if high - low < LANE || high >= 64 {
        return None;
    }
    let mut loads = Vec::new();
    let mut offset = low;
    while offset + LANE < high {
        loads.push(check.board.0 + offset);
        offset += LANE;
    }
    loads.push(check.board.0 + high - LANE);
    Some(loads)
}

/// Per board offset used by some term, its bit in the lanes' `d`: the offset itself.
pub(crate) fn lane_bits(check: &MaskCheck) -> Vec<Option<u32>> {
    let used = used_cells(check);
    (0..check.board.1 - check.board.0).map(|offset| (used >> offset & 1 == 1).then_some(offset)).collect()
}

/// The term padding a row of positive terms: bit 63, set in every lanes' `d` (module doc).
pub(crate) const LANE_PADDING: u64 = 1 << 63;

/// The expression of `d` over `loads`, the compared value in `x` (a `u8`).
pub(crate) fn lanes_differing(loads: &[u32], board_start: u32) -> String {
    let parts: Vec<String> = loads
        .iter()
        .map(|&at| {
            let call = format!("regula_runtime::compiled::mask_lanes::equal_lanes(v, {at}, x)");
            match at - board_start {
                0 => call,
                shift => format!("({call} << {shift})"),
            }
        })
        .collect();
    format!("!({})", parts.join(" | "))
}

/// `d` for `values`, as the emitted code computes it.
#[cfg(test)]
pub(crate) fn lanes_d(loads: &[u32], board_start: u32, values: &[u8], compared: u8) -> u64 {
    use regula_runtime::compiled::mask_lanes::equal_lanes;
    !loads.iter().fold(0u64, |equal, &at| equal | equal_lanes(values, at as usize, compared) << (at - board_start))
}

#[cfg(test)]
mod tests {
    use super::super::mask_checks::{Compared, Term};
    use super::*;

    fn check_over(board: (u32, u32), rows: Vec<Vec<Term>>) -> MaskCheck {
        MaskCheck { board, compared: Compared::Literal(1), start: None, rows, row_of_symbol: Vec::new(), settled: None }
    }

    fn cells(offsets: &[u32]) -> Term {
        Term { equal: offsets.iter().fold(0, |m, &o| m | 1 << o), differ: 0 }
    }

    #[test]
    fn loads_cover_the_used_span_and_end_at_its_last_cell() {
        // Connect four's 42 cells from slot 0: three loads, the last overlapping the second.
        let check = check_over((0, 43), vec![vec![cells(&[0, 20]), cells(&[41])]]);
        assert_eq!(lane_loads(&check), Some(vec![0, 16, 26]));
        // Exactly sixteen cells from slot 5 of a board at 3: one load.
        let check = check_over((3, 40), vec![vec![cells(&[2, 17])]]);
        assert_eq!(lane_loads(&check), Some(vec![5]));
        // Fifteen cells: the word layout.
        let check = check_over((3, 40), vec![vec![cells(&[2, 16])]]);
        assert_eq!(lane_loads(&check), None);
        // A used cell on bit 63 (no padding bit left): the word layout.
        let check = check_over((0, 64), vec![vec![cells(&[0, 63])]]);
        assert_eq!(lane_loads(&check), None);
        assert_eq!(lane_loads(&check_over((0, 64), vec![vec![]])), None);
    }

    #[test]
    fn d_has_a_used_cell_s_bit_exactly_where_it_differs_and_every_bit_outside_the_span() {
        let board = (4u32, 4 + 42);
        let check = check_over(board, vec![vec![cells(&[1, 30]), cells(&[40])]]);
        let loads = lane_loads(&check).unwrap();
        assert_eq!(loads, vec![5, 21, 29]);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let values: Vec<u8> = (0..50)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 3) as u8
                })
                .collect();
            let d = lanes_d(&loads, board.0, &values, 1);
            for bit in 0..64u32 {
                let expected = if (1..41).contains(&bit) { values[(board.0 + bit) as usize] != 1 } else { true };
                assert_eq!(d >> bit & 1 == 1, expected, "bit {bit}");
            }
        }
        let bits = lane_bits(&check);
        assert_eq!(bits.iter().flatten().copied().collect::<Vec<_>>(), vec![1, 30, 40]);
        assert!(d_expression_names_each_load(&loads, board.0));
    }

    fn d_expression_names_each_load(loads: &[u32], start: u32) -> bool {
        lanes_differing(loads, start)
            == "!((regula_runtime::compiled::mask_lanes::equal_lanes(v, 5, x) << 1) \
                | (regula_runtime::compiled::mask_lanes::equal_lanes(v, 21, x) << 17) \
                | (regula_runtime::compiled::mask_lanes::equal_lanes(v, 29, x) << 25))"
    }
}
