//! Per-slot value sets of a state map: which values each slot of one map variable can ever hold,
//! from its initial value and the writes `m[k] = v` whose key `k` can address it (spec/codegen.md,
//! "Mask checks", "Cells that never hold a value").
//!
//! [`super::values`] gives one set per variable (every slot of a map shares it), and its key
//! sets are flow-insensitive: connect four's `board[last] = me` may key `null` there because
//! `last` starts as `null`, although the write always follows `last = landing(column,
//! height[column])`, which never gives `null` behind the guard `height[column] != H(6)`. Here a
//! write's key is read where the write runs:
//!
//! - a plain slot key (`last`) is followed back along the single-in-edge chain of
//!   [`crate::optimize::dominating`] to the edge that last assigned it (`last = e`, or
//!   `last = T(*)`): the key is what that edge assigned (`e`'s values read at that edge, the same
//!   way, recursively), narrowed by the comparisons of the key with a literal between the two.
//!   Without such an edge on the chain (a merge, a search start, a write of the slot through a
//!   key) it is the flow-insensitive set, narrowed by the comparisons on the way;
//! - a constant read (`landing(column, height[column])`) gives the constants its keys can
//!   address, each key read the same way; then the comparisons dominating the read itself
//!   ([`super::guards`]) narrow the result;
//! - any other state read (`height[column]`) is its variable's set narrowed by the comparisons
//!   dominating it ([`super::guards`]: `height[column] != H(6)` on the chain, with no write of
//!   `height` or `column` between).
//!
//! Exact as an over-approximation: every edge on a chain ran, in order, right before the edge
//! whose read is asked about, so a value the read can give at run time is in its set. A write
//! through the default block (a key outside the map's domain) is an error, never a store, and
//! adds nothing. Block and deeper writes make every slot of their variable (of every variable
//! when theirs is unknown) hold anything. The written values are [`super::values`]'
//! `assigned_members` (already narrowed by their dominating comparisons).
//!
//! Cost: per write into the map, one backward walk of at most
//! [`WALK_LIMIT`](crate::optimize::dominating::WALK_LIMIT) edges per plain key slot, recursing
//! at most [`DEPTH_LIMIT`] reads deep.

use super::graph::written_range;
use super::guards::{allows, guards_before, Guard};
use super::values::ValueSets;
use crate::optimize::dominating::{facts_before, EdgeEffect};
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanTransfer};
use std::collections::BTreeSet;

/// Reads nested deeper than this (a key of a key of ...) take their flow-insensitive sets.
const DEPTH_LIMIT: usize = 6;
/// Constant reads with more key combinations than this count as their flow-insensitive set.
const COMBINATIONS_LIMIT: usize = 1 << 12;

/// The graph facts every walk needs: in-edges, and nodes a search may start at.
struct Entries<'a> {
    automaton: &'a Automaton,
    plan: &'a Plan,
    values: &'a ValueSets<'a>,
    in_edges: Vec<Vec<usize>>,
    entered_otherwise: Vec<bool>,
}

/// What one edge on the walk back from a read of a plain slot says about it.
enum Fact {
    /// The slot is compared with a literal.
    Guard(Guard),
    /// The slot was assigned here: by the read of `rhs` at this edge, or one of `members`.
    Defined { edge: usize, rhs: Option<PlanOperand>, members: Vec<u32> },
}

impl Entries<'_> {
    /// The one in-edge of `node` and its source, where no search may start at `node`.
    fn single_entry(&self, node: u32) -> Option<(usize, u32)> {
        match self.in_edges[node as usize][..] {
            [edge] if !self.entered_otherwise[node as usize] => Some((edge, self.automaton.edges[edge].source)),
            _ => None,
        }
    }

    /// The values `read` can give when an edge leaving `node` runs.
    fn read_members(&self, node: u32, read: &PlanOperand, depth: usize) -> BTreeSet<u32> {
        let flow_insensitive = || self.values.operand_members(read).into_iter().collect::<BTreeSet<u32>>();
        if depth > DEPTH_LIMIT {
            return flow_insensitive();
        }
        match read {
            PlanOperand::Literal(symbol) => BTreeSet::from([*symbol]),
            PlanOperand::Place(place) if !place.in_state => {
                let mut found = self.constant_members(node, place, depth).unwrap_or_else(flow_insensitive);
                let guards =
                    guards_before(self.automaton, self.plan, &self.in_edges, &self.entered_otherwise, node, read);
                found.retain(|&symbol| allows(&guards, symbol));
                found
            }
            PlanOperand::Place(place) if place.steps.is_empty() => self.slot_members(node, place.base, read, depth),
            PlanOperand::Place(_) => {
                let guards =
                    guards_before(self.automaton, self.plan, &self.in_edges, &self.entered_otherwise, node, read);
                let mut found = flow_insensitive();
                found.retain(|&symbol| allows(&guards, symbol));
                found
            }
        }
    }

    /// The constants `place` can address, its keys read at `node`; `None` past the limit.
    fn constant_members(&self, node: u32, place: &PlanPlace, depth: usize) -> Option<BTreeSet<u32>> {
        let mut offsets = vec![place.base];
        for step in &place.steps {
            let keys = self.read_members(node, &step.key, depth + 1);
            let choices: BTreeSet<u32> =
                keys.iter().map(|&k| step.offsets.get(k as usize).copied()).collect::<Option<_>>()?;
            if offsets.len() * choices.len() > COMBINATIONS_LIMIT {
                return None;
            }
            offsets = offsets.iter().flat_map(|&o| choices.iter().map(move |&c| o + c)).collect();
        }
        offsets.into_iter().map(|offset| self.plan.const_values.get(offset as usize).copied()).collect()
    }

    /// The values the plain slot `slot` (read as `read`) holds when an edge leaving `node` runs.
    fn slot_members(&self, node: u32, slot: u32, read: &PlanOperand, depth: usize) -> BTreeSet<u32> {
        let mut defined = false;
        let facts = facts_before(
            node,
            |node| self.single_entry(node),
            |edge| {
                if defined {
                    return EdgeEffect::Writes;
                }
                match &self.plan.ops[edge] {
                    PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => match (lhs, rhs) {
                        (PlanOperand::Literal(symbol), other) | (other, PlanOperand::Literal(symbol))
                            if other == read =>
                        {
                            EdgeEffect::Narrows(Fact::Guard(Guard { equal: *equal, symbol: *symbol }))
                        }
                        _ => EdgeEffect::Neutral,
                    },
                    PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. }
                        if lhs.in_state && lhs.steps.is_empty() && lhs.base == slot =>
                    {
                        defined = true;
                        EdgeEffect::Narrows(Fact::Defined { edge, rhs: Some(rhs.clone()), members: Vec::new() })
                    }
                    PlanOp::AssignAny { lhs, members, .. }
                        if lhs.in_state && lhs.steps.is_empty() && lhs.base == slot =>
                    {
                        defined = true;
                        EdgeEffect::Narrows(Fact::Defined { edge, rhs: None, members: members.clone() })
                    }
                    PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => {
                        let (start, end) = written_range(self.plan, lhs);
                        if !lhs.in_state || (start..end).contains(&slot) {
                            EdgeEffect::Writes
                        } else {
                            EdgeEffect::Neutral
                        }
                    }
                    PlanOp::Skip
                    | PlanOp::Compare { .. }
                    | PlanOp::Reach { .. }
                    | PlanOp::Tag(_)
                    | PlanOp::TagExpr(_) => EdgeEffect::Neutral,
                }
            },
        );
        let mut guards = Vec::new();
        let mut found = None;
        for fact in facts {
            match fact {
                Fact::Guard(guard) => guards.push(guard),
                Fact::Defined { edge, rhs: Some(rhs), .. } => {
                    // What the edge assigned: its right-hand side read where it ran, less what
                    // the comparisons dominating it exclude.
                    let source = self.automaton.edges[edge].source;
                    let mut assigned = self.read_members(source, &rhs, depth + 1);
                    assigned.retain(|&symbol| allows(self.values.guards(edge), symbol));
                    found = Some(assigned);
                }
                Fact::Defined { members, .. } => found = Some(members.into_iter().collect()),
            }
        }
        let mut found =
            found.unwrap_or_else(|| self.values.operand_members(read).into_iter().collect::<BTreeSet<u32>>());
        found.retain(|&symbol| allows(&guards, symbol));
        found
    }
}

/// Per slot of `board` (the slots `board.0..board.1` of one map variable), the values it can
/// ever hold, ascending (module doc).
pub(crate) fn slot_values(automaton: &Automaton, plan: &Plan, values: &ValueSets, board: (u32, u32)) -> Vec<Vec<u32>> {
    let symbol_count = automaton.symbols.len() as u32;
    let (in_edges, entered_otherwise) = super::guards::in_edges_and_entries(automaton, plan);
    let entries = Entries { automaton, plan, values, in_edges, entered_otherwise };
    let mut sets: Vec<BTreeSet<u32>> =
        (board.0..board.1).map(|slot| BTreeSet::from([plan.initial_values[slot as usize]])).collect();
    let in_board = |slot: u32| (board.0..board.1).contains(&slot);
    for (edge, op) in plan.ops.iter().enumerate() {
        let (lhs, single) = match op {
            PlanOp::Assign { lhs, transfer, .. } => (lhs, *transfer == PlanTransfer::Slot),
            PlanOp::AssignAny { lhs, .. } => (lhs, true),
            _ => continue,
        };
        let (start, end) = written_range(plan, lhs);
        if !lhs.in_state || end <= board.0 || board.1 <= start {
            continue;
        }
        let written: BTreeSet<u32> = match op {
            PlanOp::Assign { rhs, .. } => values.assigned_members(edge, rhs).into_iter().collect(),
            PlanOp::AssignAny { members, .. } => members.iter().copied().collect(),
            _ => unreachable!("only writes get here"),
        };
        let slots: Option<Vec<u32>> = match lhs.steps.as_slice() {
            [] if single => Some(vec![lhs.base]),
            [step] if single && start == lhs.base => {
                let source = automaton.edges[edge].source;
                let keys = entries.read_members(source, &step.key, 0);
                // A write through the default block is an error, never a store.
                keys.iter()
                    .filter_map(|&key| step.offsets.get(key as usize).copied())
                    .filter(|&offset| offset != step.default_offset)
                    .map(|offset| (lhs.base + offset < end).then_some(lhs.base + offset))
                    .collect()
            }
            _ => None,
        };
        match slots {
            Some(slots) => {
                for slot in slots.into_iter().filter(|&slot| in_board(slot)) {
                    sets[(slot - board.0) as usize].extend(&written);
                }
            }
            // A block or deeper write: any value in any slot it may reach.
            None => {
                for slot in start.max(board.0)..end.min(board.1) {
                    sets[(slot - board.0) as usize].extend(0..symbol_count);
                }
            }
        }
    }
    sets.into_iter().map(|set| set.into_iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::optimized_automaton;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// Per slot of variable `board`, the names of the values it can hold.
    fn named_slot_values(automaton: &Automaton, plan: &Plan) -> Vec<Vec<String>> {
        let values = ValueSets::new(automaton, plan, automaton.symbols.len());
        let variable = automaton.variables.iter().position(|v| v.name == "board").expect("a board");
        let (start, len) = plan.var_slots[variable];
        slot_values(automaton, plan, &values, (start, start + len))
            .into_iter()
            .map(|set| {
                let mut names: Vec<String> = set.into_iter().map(|s| automaton.symbols[s as usize].clone()).collect();
                names.sort();
                names
            })
            .collect()
    }

    /// Per slot of `board` in a small automaton, the names of its values, sorted: `board :
    /// CellOrNull -> Mark` over keys `a, b, null` (`null` initially `off`), then its default
    /// block (never written: a write there is an error); `at : CellOrNull`, and `tops : Col ->
    /// CellOrNull`.
    fn built(edges: &[(&str, &str, &str)]) -> Vec<Vec<String>> {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Col", "{c, d}");
        builder.typedef("Mark", "{empty, x, off}").typedef("CellOrNull", "{a, b, null}");
        builder.typedef("Board", "CellOrNull -> Mark").typedef("Tops", "Col -> CellOrNull");
        builder.variable("board", "Board", "{null: off, :empty}").variable("at", "CellOrNull", "null");
        builder.variable("col", "Col", "c").variable("tops", "Tops", "{c: a, :null}");
        builder.edge("begin", "choose", "player = x");
        for (from, target, label) in edges {
            builder.edge(from, target, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        named_slot_values(&automaton, &plan)
    }

    fn names(sets: &[&[&str]]) -> Vec<Vec<String>> {
        sets.iter().copied().chain([&["empty"][..]]).map(|set| set.iter().map(|s| s.to_string()).collect()).collect()
    }

    #[test]
    fn a_key_assigned_just_before_the_write_is_what_that_assignment_gives() {
        // `at` starts as `null`, but the write always follows `at = a` or `at = b`.
        let edges = [
            ("choose", "picked", "at = CellOrNull(*)"),
            ("picked", "valid", "at != null"),
            ("valid", "written", "board[at] = x"),
            ("written", "end", "player = keeper"),
        ];
        assert_eq!(built(&edges), names(&[&["empty", "x"], &["empty", "x"], &["off"]]));
        // Without the comparison `at` may be `null` at the write.
        let edges = [
            ("choose", "picked", "at = CellOrNull(*)"),
            ("picked", "written", "board[at] = x"),
            ("written", "end", "player = keeper"),
        ];
        assert_eq!(built(&edges), names(&[&["empty", "x"], &["empty", "x"], &["off", "x"]]));
        // A literal key writes one slot.
        let edges = [("choose", "written", "board[b] = x"), ("written", "end", "player = keeper")];
        assert_eq!(built(&edges), names(&[&["empty"], &["empty", "x"], &["off"]]));
    }

    #[test]
    fn a_key_read_through_a_guarded_map_read_is_narrowed_by_the_guard() {
        // `at = tops[col]` behind `tops[col] != null`: never `null`.
        let guarded = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "free", "tops[col] != null"),
            ("free", "set", "at = tops[col]"),
            ("set", "written", "board[at] = x"),
            ("written", "end", "player = keeper"),
        ];
        // `tops` only ever holds `a` or `null`.
        assert_eq!(built(&guarded), names(&[&["empty", "x"], &["empty"], &["off"]]));
        // The guard on another key proves nothing.
        let other = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "free", "tops[c] != null"),
            ("free", "set", "at = tops[col]"),
            ("set", "written", "board[at] = x"),
            ("written", "end", "player = keeper"),
        ];
        assert_eq!(built(&other), names(&[&["empty", "x"], &["empty"], &["off", "x"]]));
    }

    #[test]
    fn a_merge_a_search_start_or_a_write_between_falls_back_to_the_variable_s_set() {
        // Two ways into the write: `at` keeps its initial `null` on one.
        let merged = [
            ("choose", "picked", "at = a"),
            ("picked", "written", "board[at] = x"),
            ("choose", "other", "player = x"),
            ("other", "picked", "player = x"),
            ("written", "end", "player = keeper"),
        ];
        assert_eq!(built(&merged), names(&[&["empty", "x"], &["empty"], &["off", "x"]]));
        // `at` written again between the assignment and the write (by a whole-variable
        // assignment of another value it would be that value: here through the map `tops`,
        // which does not touch `at`, so the definition still holds).
        let through_other = [
            ("choose", "picked", "at = a"),
            ("picked", "other", "tops[c] = null"),
            ("other", "written", "board[at] = x"),
            ("written", "end", "player = keeper"),
        ];
        assert_eq!(built(&through_other), names(&[&["empty", "x"], &["empty"], &["off"]]));
        let reassigned = [
            ("choose", "picked", "at = a"),
            ("picked", "again", "at = null"),
            ("again", "written", "board[at] = x"),
            ("written", "end", "player = keeper"),
        ];
        assert_eq!(built(&reassigned), names(&[&["empty"], &["empty"], &["off", "x"]]));
        // A check starting at the write's source may come with any `at`.
        let searched = [
            ("choose", "picked", "at = a"),
            ("picked", "written", "board[at] = x"),
            ("written", "end", "player = keeper"),
            ("choose", "probe", "? picked -> written"),
            ("probe", "end", "player = keeper"),
        ];
        assert_eq!(built(&searched), names(&[&["empty", "x"], &["empty"], &["off", "x"]]));
    }

    #[test]
    fn connect_four_s_off_board_cell_only_ever_holds_offboard() {
        let automaton = optimized_automaton("connect4.hrg", include_str!("../../../games/connect4/connect4.hrg"))
            .expect("the corpus game compiles");
        let plan = Plan::new(&automaton).expect("the corpus game lowers");
        let sets = named_slot_values(&automaton, &plan);
        // `null` first, then the 42 cells P(C, R), then the default block.
        assert_eq!(sets.len(), 44);
        assert_eq!(sets[0], vec!["offboard".to_string()], "the off-board cell is never written");
        for set in &sets[1..43] {
            assert_eq!(set, &vec!["empty".to_string(), "red".to_string(), "yellow".to_string()]);
        }
        assert_eq!(sets[43].len(), 1, "the default block is never written");
    }
}
