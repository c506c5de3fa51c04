//! Guarded pushes: a one-slot guard right before a completion with a delta word, emitted so that
//! a delta listing pushes the word without a branch (`MoveSink::push_delta_if`).
//!
//! Shape (recognised on the automaton, in the move search): an edge comparing one slot that
//! cannot fail, into a node that records no visit and opens no scope, whose one edge is the
//! completion (`player = e`, a fixed slot, unique and valid) or a tag fused with it
//! ([`Generator::fusable_tag_completion`]), the completion a delta site whose word holds fixed
//! slots only (no computed write), and the guard a comparison with a literal that the branch
//! predictor is likely to miss ([`Generator::unpredictable_guard`]). Tic-tac-toe's
//! `board[cell] == empty` then `$$ cell` then `player = keeper`, one per unrolled member;
//! breakthrough's empty or not-own destination before a step. Not connect four's "column not
//! full" (its guard almost always passes).
//!
//! Why: the guard's outcome on a random position is data the branch predictor cannot learn (a
//! cell is empty or not); callgrind's branch simulation charged tic-tac-toe's listing 3 of its
//! 9 guards a ply as mispredicted. In a delta listing the push is one store of the word and one
//! add of the guard's outcome to the count, so the listing is straight-line code.
//!
//! Exact: the word is what the target's completion pushes (the guard and the tag write
//! nothing, so the values are the same there), it reads only fixed slots (every read in bounds,
//! whatever the guard), and a word that is not counted sits at or past the count, which no one
//! reads as a move (the room keeps one spare slot, so it never wraps onto a move). Outside a
//! delta listing the guard is a branch into the target's function as before. Cost: where the
//! guard fails, a store and an add instead of a predicted branch.

use super::{completes, slot_bits, Generator, Mode, PlanOp, PlanOperand};

impl Generator<'_> {
    /// The code of guard `edge` (its condition `guard`, already written) as a guarded push, or
    /// `None` where the edge is not of the shape (the plain `if` is emitted).
    pub(super) fn guarded_push(&mut self, mode: Mode, edge: usize, guard: &str) -> Option<String> {
        if mode != Mode::Moves {
            return None;
        }
        let (completion, slot, site) = self.guarded_push_shape(edge)?;
        let PlanOp::Assign { rhs, .. } = self.plan.ops[completion].clone() else {
            return None;
        };
        let value = self.value(&rhs);
        // Below a carried base (carried_bases.rs) the push ors its other fields into it.
        let word = match self.carried.rest.get(&edge) {
            Some(rest) => {
                let bits = slot_bits(self.sym);
                let slots = &self.deltas.sites[site].slots;
                rest.iter().fold("base".to_string(), |word, &i| {
                    let value = if slots[i] == slot { "x".to_string() } else { format!("v[{}]", slots[i]) };
                    format!("{word} | ({value} as u64) << {}", 16 + bits * i as u32)
                })
            }
            None => self.delta_word(completion, Some((slot, "x")))?,
        };
        let cont = self.continue_to(mode, edge, "", None);
        let sym = self.sym;
        Some(format!(
            "{{\nlet keep = {guard};\nif cx.lists_deltas() {{ let x: {sym} = {value}; cx.push_delta_if(keep, {word}); }} \
             else if keep {{\n{cont}}}\n}}\n"
        ))
    }

    /// Whether guard `edge` of the move search is emitted as a guarded push (see the module
    /// documentation): its completion edge, the fixed slot the completion assigns and the
    /// completion's delta site.
    pub(super) fn guarded_push_shape(&self, edge: usize) -> Option<(usize, u32, usize)> {
        let mode = Mode::Moves;
        if self.edge_fallible_in_moves(edge) || !self.unpredictable_guard(edge) {
            return None;
        }
        let target = self.automaton.edges[edge].target as usize;
        let below = self.automaton.nodes[target].edges.clone();
        if below.len() != 1 || self.analysis.visit_in_moves[target] || self.analysis.opens_scope[target] {
            return None;
        }
        let first = below.start as usize;
        let completion =
            if completes(&self.plan.ops[first]) { first } else { self.fusable_tag_completion(mode, first)? };
        if self.edge_fallible_in_moves(completion) {
            return None;
        }
        let slot = self.completes_one_fixed_slot(mode, completion)?;
        let site = self.deltas.site_of_edge[completion]?;
        if !self.deltas.sites[site].computed.is_empty() || !matches!(self.plan.ops[completion], PlanOp::Assign { .. }) {
            return None;
        }
        Some((completion, slot, site))
    }

    /// Whether guard `edge` (a one-slot comparison with a literal) is one a branch predictor
    /// is likely to miss: taking the compared entry as uniform over its value set, each outcome
    /// has a chance of at least [`UNPREDICTABLE_SHARE`]. A miss costs ~15 cycles where the
    /// branchless push costs a few instructions more per guard, so a guard that almost always
    /// passes (connect four's "column not full": +5 % instructions and ~5 % slower wall clock
    /// with the guarded push) keeps its branch.
    fn unpredictable_guard(&self, edge: usize) -> bool {
        let PlanOp::Compare { lhs, rhs, equal, .. } = &self.plan.ops[edge] else {
            return false;
        };
        let (literal, read) = match (lhs, rhs) {
            (PlanOperand::Literal(symbol), read) | (read, PlanOperand::Literal(symbol)) => (*symbol, read),
            _ => return false,
        };
        let held = self.values.operand_members(read);
        let passing = held.iter().filter(|&&symbol| (symbol == literal) == *equal).count();
        let failing = held.len() - passing;
        balanced(passing, failing) || self.splits_initial_state(read, literal, *equal)
    }

    /// Whether the one-step map read `read` (`board[at]`, its key one slot's value) compared
    /// with `literal` splits the entries it may hit in the initial state, each outcome holding
    /// for at least [`UNPREDICTABLE_SHARE`] of them. The second way a guard is unpredictable:
    /// a board with many piece kinds whose comparison with `empty` holds for one value in six
    /// (draughts' step destination) yet for 40 of the 65 squares its key may name at the start.
    /// The initial state is the one sample of the game the generator has; a board that starts
    /// full or empty (connect four's "column not full": every height starts at the bottom)
    /// gives one outcome everywhere and keeps its branch.
    fn splits_initial_state(&self, read: &PlanOperand, literal: u32, equal: bool) -> bool {
        let PlanOperand::Place(place) = read else {
            return false;
        };
        let [step] = place.steps.as_slice() else {
            return false;
        };
        if !place.in_state || !matches!(&step.key, PlanOperand::Place(key) if key.steps.is_empty()) {
            return false;
        }
        let initial = &self.plan.initial_values;
        let (mut passing, mut failing) = (0, 0);
        for key in self.values.operand_members(&step.key) {
            let offset = step.offsets.get(key as usize).copied().unwrap_or(step.default_offset);
            let Some(&value) = initial.get((place.base + offset) as usize) else {
                return false;
            };
            if (value == literal) == equal {
                passing += 1;
            } else {
                failing += 1;
            }
        }
        passing + failing > 0 && balanced(passing, failing)
    }
}

/// Whether each of two outcome counts is at least [`UNPREDICTABLE_SHARE`] of their sum.
fn balanced(passing: usize, failing: usize) -> bool {
    passing.min(failing) * UNPREDICTABLE_SHARE.1 >= (passing + failing) * UNPREDICTABLE_SHARE.0
}

/// The least chance of each outcome of a guard that gets a guarded push, as a fraction
/// (numerator, denominator): a quarter (see [`Generator::unpredictable_guard`]). Tic-tac-toe's
/// and breakthrough's guards pass for 1 or 2 of their board's 3 values; connect4.hrg's "column
/// not full" fails for 1 of its 7 heights, connect4.rg's for 1 of 43 cells, and both keep their
/// branches.
const UNPREDICTABLE_SHARE: (usize, usize) = (1, 4);

#[cfg(test)]
mod tests {
    use super::super::generate;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// A one-player placement on `a, b, c`: a free cell (`board[at] == empty`, or the `guard`
    /// given), its tag, the keeper's turn; the keeper marks the cell with one of `marks` (so
    /// the board's value set is `empty` and those).
    fn placement(marks: &[&str], guard: &str) -> String {
        placement_from(marks, guard, "{:empty}")
    }

    /// [`placement`] from the initial board `board`.
    fn placement_from(marks: &[&str], guard: &str, board: &str) -> String {
        let mut builder = AutomatonBuilder::new();
        let symbols = std::iter::once("empty").chain(marks.iter().copied()).collect::<Vec<_>>().join(", ");
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b, c}");
        builder.typedef("Mark", &format!("{{{symbols}}}")).typedef("Board", "Cell -> Mark");
        builder.variable("board", "Board", board).variable("at", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "free", guard);
        builder.edge("free", "tagged", "$$ at");
        builder.edge("tagged", "kept", "player = keeper");
        for mark in marks {
            builder.edge("kept", "marked", &format!("board[at] = {mark}"));
        }
        builder.edge("marked", "choose", "player = x");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_guard_that_fails_often_pushes_its_delta_without_a_branch() {
        // `empty` is one of the board's three values: a guarded push per member (the loop is
        // unrolled over `a, b, c`), the word pushed being the completion's (site 0, `at`, then
        // `player` as the completion assigns it), the plain branch outside a delta listing.
        let placed = placement(&["x", "o"], "board[at] == empty");
        assert_eq!(
            placed.matches("cx.push_delta_if(keep, 0u64 | (v[4] as u64) << 16 | (x as u64) << 24);").count(),
            4,
            "{placed}"
        );
        assert!(placed.contains("let keep = v[0] == "), "{placed}");
        assert!(placed.contains("} else if keep {"), "{placed}");
        // One value in four passes: still a guarded push (the share is at least a quarter).
        let quarter = placement(&["x", "o", "p"], "board[at] == empty");
        assert!(quarter.contains("cx.push_delta_if(keep, "), "{quarter}");
        // One value in five fails: a branch, as before.
        let rare = placement(&["x", "o", "p", "q"], "board[at] != empty");
        assert!(!rare.contains("push_delta_if"), "{rare}");
        assert!(rare.contains("cx.push_delta(0u64 | "), "{rare}");
    }

    #[test]
    fn a_guard_that_splits_the_initial_board_pushes_its_delta_without_a_branch() {
        // `empty` is one of the board's six values, but two of the three cells start empty:
        // each outcome holds for at least a quarter of the initial entries, a guarded push.
        let marks = ["x", "o", "p", "q", "r"];
        let split = placement_from(&marks, "board[at] == empty", "{a: x, :empty}");
        assert!(split.contains("cx.push_delta_if(keep, "), "{split}");
        assert!(split.contains("} else if keep {"), "{split}");
        // A board that starts empty everywhere gives one outcome: the branch, as before.
        let uniform = placement_from(&marks, "board[at] == empty", "{:empty}");
        assert!(!uniform.contains("push_delta_if"), "{uniform}");
        assert!(uniform.contains("cx.push_delta(0u64 | "), "{uniform}");
    }
}
