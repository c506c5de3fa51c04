//! Affine cell offsets: a keeper's word-store write (`word_stores.rs`) whose key reaches its
//! slot by subtraction instead of through an offset table (spec/codegen.md, "Word stores").
//!
//! Why: the keeper's write is on the chain from one ply to the next (the move's cell comes from
//! the pick, the write's slot from the cell, the next listing reads the board the write stored),
//! and the table read `OFF[cell]` is one dependent load on it. Where every symbol the key can
//! hold (its value set, `values.rs`) lies at offset `key - lo + first` (consecutive symbols in
//! consecutive cells, tic-tac-toe's `a1`..`c3`, connect four's columns), the slot is
//! `base + first + ((key - lo) & mask)`: `mask` (all ones, at least the members' span) changes no
//! member and bounds the slot for the optimiser as the table's values did.
//!
//! Exact: the value sets over-approximate what the key holds, and for each member the expression
//! and the table give the same offset. Not taken: a place of more than one step, a key whose
//! value set is one symbol (folded already) or leaves the map's domain, or offsets that are not
//! `key` plus one constant over the members. Other map accesses compute affine offsets too
//! (`affine_offsets.rs`, whose detection this shares), as `stride * key + shift` with no mask:
//! here the mask also lets the optimiser drop the word store's bounds checks.

use super::Generator;
use regula_runtime::compiled::{PlanOperand, PlanPlace};
use std::fmt::Write;

/// A key's offsets as `first + ((key - lo) & mask)`.
#[derive(Debug, PartialEq, Eq)]
struct UnitStride {
    lo: u32,
    mask: u32,
    first: u32,
}

/// The unit stride of `offsets` over `members` (at least two, none at the map's default block
/// `default`: a key outside the domain is an error, not a cell), or `None`.
fn unit_stride(members: &[u32], offsets: &[u32], default: u32) -> Option<UnitStride> {
    let (&lo, &hi) = (members.iter().min()?, members.iter().max()?);
    if members.iter().any(|&m| offsets.get(m as usize) == Some(&default)) {
        return None;
    }
    let wide: Vec<u64> = offsets.iter().map(|&o| o as u64).collect();
    let (1, _) = super::affine_offsets::affine(&wide, members)? else { return None };
    Some(UnitStride { lo, mask: (hi - lo + 1).next_power_of_two() - 1, first: offsets[lo as usize] })
}

impl Generator<'_> {
    /// The `let slot = ...;` line of a keeper's word-store write into `place` (module doc), or
    /// `None` where the offsets are not a unit stride (the caller emits the table read).
    pub(super) fn affine_cell_target(&mut self, place: &PlanPlace) -> Option<String> {
        let [step] = place.steps.as_slice() else { return None };
        if matches!(step.key, PlanOperand::Literal(_)) || !self.values.key_in_domain(step) {
            return None;
        }
        let members = self.values.operand_members(&step.key);
        let UnitStride { lo, mask, first } = unit_stride(&members, &step.offsets, step.default_offset)?;
        let key = self.value(&step.key);
        let mut code = String::new();
        writeln!(code, "let slot = {}usize + ((({key}).wrapping_sub({lo}) & {mask}) as usize);", place.base + first)
            .expect("writing to a String");
        Some(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_cells_are_a_unit_stride() {
        // Symbols 7..=15 at offsets 0..=8, every other symbol at the default block (9).
        let mut offsets = vec![9u32; 256];
        for (i, symbol) in (7..=15).enumerate() {
            offsets[symbol] = i as u32;
        }
        let members: Vec<u32> = (7..=15).collect();
        assert_eq!(unit_stride(&members, &offsets, 9), Some(UnitStride { lo: 7, mask: 15, first: 0 }));
        // A subset keeps its line (offset 2 for symbol 9), the mask covers its span only.
        assert_eq!(unit_stride(&[9, 10, 12], &offsets, 9), Some(UnitStride { lo: 9, mask: 3, first: 2 }));
        // A symbol in the default block breaks the line, though its offset (9) would be next.
        assert_eq!(unit_stride(&[14, 15, 16], &offsets, 9), None);
    }

    #[test]
    fn strides_gaps_single_members_and_descents_are_not_unit_strides() {
        let offsets = [0u32, 2, 4, 3, 1];
        assert_eq!(unit_stride(&[0, 1, 2], &offsets, 9), None);
        assert_eq!(unit_stride(&[3, 4], &offsets, 9), None);
        assert_eq!(unit_stride(&[2], &offsets, 9), None);
        assert_eq!(unit_stride(&[], &offsets, 9), None);
        assert_eq!(unit_stride(&[2, 3], &[0, 0, 4, 5], 9), Some(UnitStride { lo: 2, mask: 1, first: 4 }));
    }
}
