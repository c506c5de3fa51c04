//! Slot-selected byte tests: a member filter's guard comparing a function of the member's map
//! entry with a value that depends on one slot (the player: `ownerOf(board[x]) == me`) becomes a
//! byte test per value of that slot, the one to apply picked by the slot's value (spec/codegen.md,
//! "Slot-selected byte tests").
//!
//! Shape: a filter guard `read == selected` (or `!=`, either side) where `read` is a function of
//! the member's entry that [`Generator::byte_test`] takes when compared with a literal, and
//! `selected` is a slot `s` or a constant read whose keys are literals and `s`, with `s` neither
//! the loop variable nor written by the filter's chain before the guard, and holding at most
//! [`MAX_SELECTED_VALUES`] values (its value set, [`super::values`]). Per value `x` of `s` the
//! guard is `read == selected(x)`, a literal comparison: its byte test. The scan's mask is
//! `match s { x1 => mask1, ..., _ => mask_last }`.
//!
//! Exact: the value sets are sound, so `s` holds one of the listed values wherever the loop
//! runs, and the filter's chain does not write it, so each member's guard reads the value the
//! match read; the last arm stands for the last value. Cost: one compare of the slot per word of
//! eight members (the compiler hoists it out of the scan), where the plain loop compared every
//! member with the slot and branched on it. Not taken where some value's guard has no byte test,
//! or for counted placements (`counted.rs`, whose function sees no registers).

use super::{graph, ByteTest, Generator};
use regula_runtime::compiled::{PlanOperand, PlanPlace};
use std::fmt::Write;

/// The most values a selecting slot may hold (one mask expression each).
const MAX_SELECTED_VALUES: usize = 4;

/// The per-value tests of a [`ByteTest`] compared with a slot's value (module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Selector {
    /// The selecting slot's value where the scan runs, as an expression (the slot, not the
    /// compared value: the arms are the slot's values).
    value: String,
    /// Per value the slot can hold (ascending), the guard's byte test with that value.
    variants: Vec<(u32, ByteTest)>,
}

impl Selector {
    /// A selector on a fixed slot with `test` as its one variant (other modules' tests).
    #[cfg(test)]
    pub(super) fn for_test(test: &ByteTest) -> Selector {
        Selector { value: "v[0]".to_string(), variants: vec![(0, test.clone())] }
    }

    /// The mask expression on `word`: the variant of the slot's value, each variant's mask made
    /// by `literal_mask`.
    pub(super) fn mask(&self, literal_mask: impl Fn(&ByteTest) -> String) -> String {
        let mut arms = String::new();
        let last = self.variants.len() - 1;
        for (k, (value, test)) in self.variants.iter().enumerate() {
            let pattern = if k == last { "_".to_string() } else { value.to_string() };
            write!(arms, "{pattern} => {}, ", literal_mask(test)).expect("writing to a String");
        }
        format!("match {} {{ {arms}}}", self.value)
    }
}

impl Generator<'_> {
    /// The slot-selected [`ByteTest`] of a filter guard `lhs == rhs` (or `!=`), if it is one
    /// (module doc). `assigned` are the chain's assignments before the guard.
    pub(super) fn slot_selected_byte_test(
        &mut self,
        lhs: &PlanOperand,
        rhs: &PlanOperand,
        equal: bool,
        loop_slot: u32,
        members: &[u32],
        assigned: &[(u32, &PlanOperand)],
    ) -> Option<ByteTest> {
        for (selected, read) in [(lhs, rhs), (rhs, lhs)] {
            let Some(slot) = self.selecting_slot(selected) else { continue };
            if slot == loop_slot || assigned.iter().any(|&(written, _)| written == slot) {
                continue;
            }
            let mut values = self.values.slot_members(slot);
            values.sort_unstable();
            if values.is_empty() || values.len() > MAX_SELECTED_VALUES {
                continue;
            }
            let variants: Option<Vec<(u32, ByteTest)>> = values
                .iter()
                .map(|&value| {
                    let literal = PlanOperand::Literal(self.selected_value(selected, value)?);
                    Some((value, self.byte_test(read, &literal, equal, loop_slot, members, assigned)?))
                })
                .collect();
            let Some(variants) = variants else { continue };
            let first_slot = variants[0].1.first_slot;
            if variants.iter().any(|(_, test)| test.first_slot != first_slot) {
                continue;
            }
            let initial = self.plan.initial_values.get(slot as usize).copied();
            let shown = variants.iter().find(|&&(value, _)| Some(value) == initial).unwrap_or(&variants[0]).1.clone();
            let value = self.value(&PlanOperand::Place(PlanPlace { in_state: true, base: slot, steps: Vec::new() }));
            return Some(ByteTest { selector: Some(Selector { value, variants }), ..shown });
        }
        None
    }

    /// The one slot `operand`'s value depends on: a slot itself, or the key of a constant read
    /// whose other keys are literals.
    fn selecting_slot(&self, operand: &PlanOperand) -> Option<u32> {
        let PlanOperand::Place(place) = operand else { return None };
        if let Some(slot) = graph::fixed_slot(place) {
            return Some(slot);
        }
        if place.in_state {
            return None;
        }
        let mut slot = None;
        for step in &place.steps {
            match &step.key {
                PlanOperand::Literal(_) => {}
                PlanOperand::Place(key) => {
                    let key = graph::fixed_slot(key)?;
                    if slot.is_some_and(|s| s != key) {
                        return None;
                    }
                    slot = Some(key);
                }
            }
        }
        slot
    }

    /// The value of `operand` (shaped as [`Generator::selecting_slot`] takes) where its slot
    /// holds `value`.
    fn selected_value(&self, operand: &PlanOperand, value: u32) -> Option<u32> {
        let PlanOperand::Place(place) = operand else { return None };
        if graph::fixed_slot(place).is_some() {
            return Some(value);
        }
        let mut base = place.base;
        for step in &place.steps {
            let key = match &step.key {
                PlanOperand::Literal(symbol) => *symbol,
                PlanOperand::Place(_) => value,
            };
            base += step.offsets.get(key as usize)?;
        }
        self.plan.const_values.get(base as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::{generate, optimized_automaton};
    use regula_runtime::compiled::Plan;

    #[test]
    fn chess_lists_the_movers_pieces_by_a_mask_per_player() {
        let source = include_str!("../../../games/chess/chess.hrg");
        let automaton = optimized_automaton("chess.hrg", source).expect("chess compiles");
        let plan = Plan::new(&automaton).expect("chess lowers");
        let symbol = |name: &str| automaton.symbols.iter().position(|s| s == name).expect("a symbol");
        let variable = |name: &str| automaton.variables.iter().position(|v| v.name == name).expect("a variable");
        let (board, _) = plan.var_slots[variable("board")];
        let (me, _) = plan.var_slots[variable("me")];
        // `ownerOf(board[from]) == me`: white (the first player value) owns wpawn..wking, the
        // six symbols below bpawn; black owns bpawn..bking, the highest values a cell holds.
        assert_eq!(symbol("white"), 0);
        assert_eq!((symbol("wpawn"), symbol("wking"), symbol("bpawn"), symbol("bking")), (17, 22, 23, 28));
        let code = generate(&automaton, "chess.hrg").expect("chess generates");
        let mask = format!(
            "{{ let word = slot_word(v, {board} + 8 * chunk); match v[{me}] {{ 0 => (byte_at_least_mask(word, 17) & \
             byte_below_mask(word, 23)), _ => byte_at_least_mask(word, 23), }} }}"
        );
        // The player's listing and the keeper's "has a move" check, both over 65 squares (two
        // halves of the one-word scan).
        assert_eq!(code.matches(&mask).count(), 2, "{mask}");
        assert_eq!(code.matches("halves[1] &= (1u64 << 1) - 1;").count(), 2);
    }

    fn test(symbols: Vec<u32>) -> ByteTest {
        ByteTest { first_slot: 0, symbols, complement: false, ranges: None, selector: None }
    }

    #[test]
    fn a_selector_matches_its_slot_with_the_last_value_as_the_default() {
        let selector =
            Selector { value: "v[66]".to_string(), variants: vec![(0, test(vec![17])), (1, test(vec![23]))] };
        let mask = selector.mask(|test| format!("M{}", test.symbols[0]));
        assert_eq!(mask, "match v[66] { 0 => M17, _ => M23, }");
    }
}
