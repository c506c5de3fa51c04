//! Word stores: a keeper's write of one cell of a small board that mask checks read, emitted as
//! a store of the cell's byte and then of the board's first word (spec/codegen.md, "Word stores";
//! runtime `compiled::word_stores::store_word_and_next`).
//!
//! Why: a one-byte store cannot forward to a later eight-byte load covering it; the load waits
//! for the store to reach the cache. A placement game's keeper writes the played cell, its mask
//! checks then load the board a word at a time, and the next ply's listing loads that word
//! again. Written as the word (after the byte, which the word covers unless the cell is past
//! it), those loads take the stored values from the store buffer. The slot of such a write is
//! computed by subtraction where the cells are consecutive (`affine_cells.rs`).
//!
//! The shape: the write goes through computed keys (`board[cell] = x`) into a map whose slots
//! `start..end` are the board of some mask check of the module (`? from -> to` with the shape of
//! `mask_checks.rs`), at most [`MAX_BOARD_SLOTS`] of them (one word and one byte, plus a default
//! entry), and the state holds the nine slots from `start`. Only in keeper (`a<N>`) functions,
//! which write once and keep the write; a search's writes are undone right after and stay byte
//! stores. Exact for any slot the keys give (the runtime helper's documentation), so nothing
//! else is proved. A keeper function making such a store is inlined into its callers (the
//! playout loop's `apply_keeper` for a keeper start): its cell then stays in a register from
//! the delta just applied (tic-tac-toe .rg a few per cent of wall clock more). Cost: one walk
//! over the module's check edges per computed keeper write, at generation time.

use super::mask_checks::mask_check;
use super::{Generator, Mode};
use regula_runtime::automaton::Label;

/// The most slots of a board written through a word store: nine cells (a word and the byte past
/// it) and the map's default entry.
const MAX_BOARD_SLOTS: u32 = 10;

impl Generator<'_> {
    /// The first slot of the map holding `slot` when a keeper's computed write into it is made as
    /// a word store (module doc), else `None`.
    pub(super) fn word_store_base(&self, slot: u32) -> Option<u32> {
        if self.sym != "u8" {
            return None;
        }
        let (start, len) = *self.plan.var_slots.iter().find(|&&(s, l)| slot >= s && slot < s + l)?;
        if len > MAX_BOARD_SLOTS || start as usize + 9 > self.plan.state_len {
            return None;
        }
        let read_by_a_check = self.automaton.edges.iter().any(|edge| match edge.label {
            Label::Reach { from, to, .. } => self.reach.get(&to).is_some_and(|target| {
                mask_check(self.automaton, self.plan, &self.values, from, to, &target.region)
                    .is_some_and(|check| check.board == (start, start + len))
            }),
            _ => false,
        });
        read_by_a_check.then_some(start)
    }
}

/// Whether the generated function `function` of `mode` is a keeper function making a word store
/// (inlined into its callers, module doc).
pub(super) fn inlined_keeper(mode: Mode, function: &str) -> bool {
    mode == Mode::Apply && function.contains(WORD_STORE)
}

/// The runtime helper a word store calls.
pub(super) const WORD_STORE: &str = "regula_runtime::compiled::word_stores::store_word_and_next";
