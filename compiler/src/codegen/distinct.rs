//! The code generator's proof that a node's choices give different next tags even on cycles:
//! the first tags of the paths from each (node, value of one slot), computed exactly over the
//! finite tables, with guards on map entries pruned by what each state slot can ever hold.
//!
//! [`super::graph::unique_tags`] separates the choices of a node by the first tags of the paths
//! below them, but reads a cycle as "any tag". A sliding move (amazons' `dest = step(d, dest)`,
//! `check(board[dest] == empty)`, then stop with `$$ dest` or slide on) is a cycle whose tags are
//! still distinct: from one square, different directions and different distances reach
//! different squares, as long as no step can stay in place on a square that passes the guard
//! (`step(d, off) = off`, but `board[off]` is never `empty`). This module checks that fact by
//! brute force: for one tracked slot `x`, `first[node][s]` is the set of first tags of the paths
//! from `node` entered with `x == s` (a least fixed point over nodes × symbols, so cycles are
//! exact), where `x` follows literal and table assignments and a guard comparing a map entry
//! keyed by `x` with a literal is pruned when that entry can never hold the literal
//! ([`SlotFacts`]). Two choices at a node are separated when, for every value `x` can hold
//! there, their first-tag sets are disjoint and not both contain the untagged end.
//!
//! Cost: per tracked slot, (walked nodes × symbols) bitsets of `symbols` bits, iterated to a fixed
//! point; skipped above [`WALK_LIMIT`] cells (big card games).

use super::graph::{fixed_slot, written_range};
use super::refine::Refinement;
use super::values::ValueSets;
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanTransfer};

/// The most (node, symbol) cells one tracked slot's walk may hold.
const WALK_LIMIT: usize = 1 << 18;

/// The most slot combinations a computed write enumerates before it counts as writing its whole
/// variable.
const WRITE_COMBINATIONS_LIMIT: usize = 1 << 12;

/// What each state slot can ever hold: its initial value plus every value any edge may write
/// into it (flow-insensitive; a write through computed keys reaches every slot its keys' value
/// sets address).
pub(crate) struct SlotFacts {
    words: usize,
    slots: Vec<Vec<u64>>,
}

impl SlotFacts {
    pub fn new(plan: &Plan, values: &ValueSets, symbol_count: usize) -> SlotFacts {
        let words = symbol_count.div_ceil(64).max(1);
        let mut slots: Vec<Vec<u64>> = vec![vec![0; words]; plan.state_len];
        for (slot, &value) in plan.initial_values.iter().enumerate() {
            set_bit(&mut slots[slot], value);
        }
        let all: Vec<u32> = (0..symbol_count as u32).collect();
        for (edge, op) in plan.ops.iter().enumerate() {
            let (lhs, assigned, width): (&PlanPlace, Vec<u32>, u32) = match op {
                PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                    (lhs, values.assigned_members(edge, rhs), 1)
                }
                PlanOp::Assign { lhs, transfer: PlanTransfer::Block(len), .. } => (lhs, all.clone(), *len),
                PlanOp::Assign { lhs, .. } => (lhs, all.clone(), u32::MAX),
                PlanOp::AssignAny { lhs, members, .. } => (lhs, members.clone(), 1),
                _ => continue,
            };
            if !lhs.in_state {
                continue;
            }
            let written: Vec<u32> = match written_slots(lhs, values) {
                Some(starts) if width != u32::MAX => {
                    starts.iter().flat_map(|&start| start..start.saturating_add(width)).collect()
                }
                _ => {
                    let (start, end) = written_range(plan, lhs);
                    (start..end.min(plan.state_len as u32)).collect()
                }
            };
            for slot in written {
                if let Some(set) = slots.get_mut(slot as usize) {
                    for &value in &assigned {
                        set_bit(set, value);
                    }
                } else {
                    // A write outside the state: nothing is known about any slot.
                    return SlotFacts { words, slots: vec![vec![u64::MAX; words]; plan.state_len] };
                }
            }
        }
        SlotFacts { words, slots }
    }

    /// Facts from per-slot sets.
    pub(crate) fn from_sets(words: usize, slots: Vec<Vec<u64>>) -> SlotFacts {
        SlotFacts { words, slots }
    }

    /// The facts refined by the guards that dominate each write (see the module docs of
    /// [`SlotFacts::refined`]); the flow-insensitive facts when the analysis exceeds its budget.
    pub fn refined(automaton: &Automaton, plan: &Plan, values: &ValueSets, symbol_count: usize) -> SlotFacts {
        let flat = SlotFacts::new(plan, values, symbol_count);
        Refinement::new(automaton, plan, values, symbol_count).and_then(|refinement| refinement.run()).unwrap_or(flat)
    }

    /// Per state slot, the symbols it can ever hold.
    pub(crate) fn sets(&self) -> &[Vec<u64>] {
        &self.slots
    }

    /// Bitset words per set.
    pub(crate) fn words(&self) -> usize {
        self.words
    }

    /// Whether state slot `slot` can ever hold `symbol`.
    pub(crate) fn may_hold(&self, slot: u32, symbol: u32) -> bool {
        self.slots.get(slot as usize).is_none_or(|set| has_bit(set, symbol))
    }
}

/// The first slots a write into `place` may address, or `None` when there are too many.
fn written_slots(place: &PlanPlace, values: &ValueSets) -> Option<Vec<u32>> {
    let mut offsets = vec![place.base];
    for step in &place.steps {
        let keys = match &step.key {
            PlanOperand::Literal(symbol) => vec![*symbol],
            key => values.operand_members(key),
        };
        let mut choices: Vec<u32> =
            keys.iter().map(|&k| step.offsets.get(k as usize).copied()).collect::<Option<_>>()?;
        choices.sort_unstable();
        choices.dedup();
        if offsets.len() * choices.len() > WRITE_COMBINATIONS_LIMIT {
            return None;
        }
        offsets = offsets.iter().flat_map(|&o| choices.iter().map(move |&c| o + c)).collect();
    }
    Some(offsets)
}

pub(crate) fn set_bit(set: &mut [u64], bit: u32) {
    if let Some(word) = set.get_mut(bit as usize / 64) {
        *word |= 1 << (bit % 64);
    }
}

pub(crate) fn has_bit(set: &[u64], bit: u32) -> bool {
    set.get(bit as usize / 64).is_some_and(|word| word & (1 << (bit % 64)) != 0)
}

/// The first tags of the paths from one (node, tracked value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct First {
    /// Some path ends the move without another tag.
    pub untagged: bool,
    /// Some path's first tag cannot be computed: nothing is proved.
    pub unknown: bool,
    pub tags: Vec<u64>,
}

impl First {
    pub(crate) fn none(words: usize) -> First {
        First { untagged: false, unknown: false, tags: vec![0; words] }
    }

    pub(crate) fn unknown(words: usize) -> First {
        First { untagged: false, unknown: true, tags: vec![0; words] }
    }

    /// Adds `other`; whether anything was new.
    pub(crate) fn union(&mut self, other: &First) -> bool {
        let mut changed = (other.untagged && !self.untagged) || (other.unknown && !self.unknown);
        self.untagged |= other.untagged;
        self.unknown |= other.unknown;
        for (mine, theirs) in self.tags.iter_mut().zip(&other.tags) {
            changed |= *theirs & !*mine != 0;
            *mine |= theirs;
        }
        changed
    }

    /// No tag sequence can start both ways.
    pub(crate) fn disjoint(&self, other: &First) -> bool {
        let both_untagged = self.untagged && other.untagged;
        let shared_tag = self.tags.iter().zip(&other.tags).any(|(a, b)| a & b != 0);
        !(self.unknown || other.unknown || both_untagged || shared_tag)
    }
}

/// What one edge does to the tracked slot `x`, given its value `s` before the edge.
enum Effect {
    /// The path cannot go on (a guard that fails for every state with `x == s`).
    Blocked,
    /// Continue at the target with `x` holding this value.
    Continue(u32),
    /// Continue at the target with `x` holding any of these values.
    Choose(Vec<u32>),
    /// The path's first tag (or untagged end) is decided here.
    Ends(First),
}

/// The first-tag walk of one tracked slot over the nodes of the move search.
pub(crate) struct Walk<'a> {
    automaton: &'a Automaton,
    plan: &'a Plan,
    facts: &'a SlotFacts,
    completes: &'a [bool],
    slot: u32,
    symbols: usize,
    words: usize,
    /// `first[row[node] * symbols + s]`, for walked nodes.
    first: Vec<First>,
    /// Per node, its row in `first` (`u32::MAX` for nodes not walked).
    row: Vec<u32>,
}

impl<'a> Walk<'a> {
    /// The walk of `slot` over the `walked` nodes (edges leaving them towards other nodes count as
    /// unknown); `None` when it would exceed [`WALK_LIMIT`] cells.
    pub fn new(
        automaton: &'a Automaton,
        plan: &'a Plan,
        facts: &'a SlotFacts,
        completes: &'a [bool],
        slot: u32,
        walked: Vec<bool>,
    ) -> Option<Walk<'a>> {
        let symbols = automaton.symbols.len().max(1);
        let count = automaton.nodes.len();
        let rows = walked.iter().filter(|&&w| w).count();
        if rows.saturating_mul(symbols) > WALK_LIMIT {
            return None;
        }
        let mut row = vec![u32::MAX; count];
        for (index, node) in (0..count).filter(|&n| walked[n]).enumerate() {
            row[node] = index as u32;
        }
        let words = facts.words;
        let mut walk = Walk {
            automaton,
            plan,
            facts,
            completes,
            slot,
            symbols,
            words,
            first: vec![First::none(words); rows * symbols],
            row,
        };
        loop {
            let mut changed = false;
            for node in (0..count).rev() {
                let Some(base) = walk.cell(node, 0) else { continue };
                for s in 0..symbols as u32 {
                    let mut merged = walk.first[base + s as usize].clone();
                    for edge in automaton.nodes[node].edges.clone() {
                        merged.union(&walk.edge_first(edge as usize, s));
                    }
                    if merged != walk.first[base + s as usize] {
                        walk.first[base + s as usize] = merged;
                        changed = true;
                    }
                }
            }
            if !changed {
                return Some(walk);
            }
        }
    }

    /// The index in `first` of (`node`, `s`), for a walked node.
    fn cell(&self, node: usize, s: u32) -> Option<usize> {
        let row = *self.row.get(node)?;
        (row != u32::MAX).then(|| row as usize * self.symbols + s as usize)
    }

    /// The tracked slot.
    pub fn slot(&self) -> u32 {
        self.slot
    }

    /// The first tags of the paths taking `edge` with `x == s` before it.
    fn edge_first(&self, edge: usize, s: u32) -> First {
        let target = self.automaton.edges[edge].target as usize;
        let at = |value: u32| -> First {
            match self.cell(target, value) {
                Some(cell) if (value as usize) < self.symbols => self.first[cell].clone(),
                _ => First::unknown(self.words),
            }
        };
        match self.effect(edge, s) {
            Effect::Blocked => First::none(self.words),
            Effect::Continue(value) => at(value),
            Effect::Choose(values) => {
                let mut merged = First::none(self.words);
                for value in values {
                    merged.union(&at(value));
                }
                merged
            }
            Effect::Ends(first) => first,
        }
    }

    /// Whether the paths of `first` and `second` (both leaving one node) start with different
    /// tags for every value `x` may hold there.
    pub fn separates(&self, first: usize, second: usize, values: &[u32]) -> bool {
        values.iter().all(|&s| self.edge_first(first, s).disjoint(&self.edge_first(second, s)))
    }

    /// Whether the choices of `x = T(*)` on `edge` (assigning the tracked slot) lead to paths
    /// with different first tags.
    pub fn separates_members(&self, edge: usize, members: &[u32]) -> bool {
        let target = self.automaton.edges[edge].target as usize;
        let Some(firsts) = members
            .iter()
            .map(|&m| self.cell(target, m).filter(|_| (m as usize) < self.symbols).map(|cell| &self.first[cell]))
            .collect::<Option<Vec<&First>>>()
        else {
            return false;
        };
        (0..firsts.len()).all(|i| (i + 1..firsts.len()).all(|j| firsts[i].disjoint(firsts[j])))
    }

    fn effect(&self, edge: usize, s: u32) -> Effect {
        let words = self.words;
        let single = |symbol: u32| {
            let mut first = First::none(words);
            set_bit(&mut first.tags, symbol);
            Effect::Ends(first)
        };
        if self.completes[edge] {
            return Effect::Ends(First { untagged: true, unknown: false, tags: vec![0; words] });
        }
        let writes_slot = |place: &PlanPlace| {
            let (start, end) = written_range(self.plan, place);
            self.slot >= start && self.slot < end
        };
        match &self.plan.ops[edge] {
            PlanOp::Tag(symbol) | PlanOp::TagExpr(PlanOperand::Literal(symbol)) => single(*symbol),
            PlanOp::TagExpr(PlanOperand::Place(place)) => match fixed_slot(place) {
                Some(slot) if slot == self.slot => single(s),
                _ => Effect::Ends(First::unknown(words)),
            },
            PlanOp::Assign { lhs, rhs, transfer, .. } if writes_slot(lhs) => {
                if fixed_slot(lhs) != Some(self.slot) || *transfer != PlanTransfer::Slot {
                    return Effect::Ends(First::unknown(words));
                }
                match self.value(rhs, s) {
                    Some(value) => Effect::Continue(value),
                    None => Effect::Ends(First::unknown(words)),
                }
            }
            PlanOp::AssignAny { lhs, members, .. } if writes_slot(lhs) => {
                if fixed_slot(lhs) != Some(self.slot) {
                    return Effect::Ends(First::unknown(words));
                }
                Effect::Choose(members.clone())
            }
            PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
                if self.possible(lhs, rhs, s, *equal) {
                    Effect::Continue(s)
                } else {
                    Effect::Blocked
                }
            }
            _ => Effect::Continue(s),
        }
    }

    /// The value of a read when `x == s`: a literal, `x` itself, or a constant read keyed by `x`
    /// or literals only.
    fn value(&self, operand: &PlanOperand, s: u32) -> Option<u32> {
        match operand {
            PlanOperand::Literal(symbol) => Some(*symbol),
            PlanOperand::Place(place) if place.in_state => (fixed_slot(place) == Some(self.slot)).then_some(s),
            PlanOperand::Place(place) => {
                let slot = self.slot_of(place, s)?;
                self.plan.const_values.get(slot as usize).copied()
            }
        }
    }

    /// The slot `place` addresses when its keys are literals or `x == s`.
    fn slot_of(&self, place: &PlanPlace, s: u32) -> Option<u32> {
        let mut slot = place.base;
        for step in &place.steps {
            let key = match &step.key {
                PlanOperand::Literal(symbol) => *symbol,
                PlanOperand::Place(key) if key.in_state && fixed_slot(key) == Some(self.slot) => s,
                _ => return None,
            };
            slot += *step.offsets.get(key as usize)?;
        }
        Some(slot)
    }

    /// Whether a one-slot comparison can hold in some state with `x == s`: pruned only when one
    /// side is a literal (or `x`) and the other a state entry addressed by literals and `x` that
    /// can never hold it, or both sides are known and differ.
    fn possible(&self, lhs: &PlanOperand, rhs: &PlanOperand, s: u32, equal: bool) -> bool {
        let known = |operand: &PlanOperand| -> Option<u32> {
            match operand {
                PlanOperand::Place(place) if place.in_state && fixed_slot(place) != Some(self.slot) => None,
                _ => self.value(operand, s),
            }
        };
        let entry = |operand: &PlanOperand| -> Option<u32> {
            match operand {
                PlanOperand::Place(place) if place.in_state && fixed_slot(place) != Some(self.slot) => {
                    self.slot_of(place, s)
                }
                _ => None,
            }
        };
        match (known(lhs), known(rhs)) {
            (Some(a), Some(b)) => (a == b) == equal,
            (Some(value), None) | (None, Some(value)) if equal => {
                let slot = entry(lhs).or(entry(rhs));
                slot.is_none_or(|slot| self.facts.may_hold(slot, value))
            }
            _ => true,
        }
    }
}
