//! Value sets: for every state slot, a superset of the symbols it can ever hold on a run from the
//! initial state, computed once at construction so a chain of edges can be proved unable to write
//! through a key outside a map's domain (connect four's `board[cell] = me` after
//! `top[column] != null; cell = top[column]`: see [`super::LinearMoves::immediate`]).
//!
//! Typing in RG is loose (a slot holds any symbol of a compatible type and casts do nothing at run
//! time), so the declared types say nothing: the sets come from a fixpoint over every edge's
//! writes, starting from the initial values. A write whose value is not followed precisely (a map
//! path, a block copy) makes its slots hold any symbol. Cost: O(rounds x edges x set work), run
//! only for engines that have a chain to prove; at most [`MAX_ROUNDS`] rounds, after which every
//! slot may hold anything (always sound).
//!
//! Invariant: every state reached from the initial values by running edges (moves, keeper moves,
//! reachability checks, chance) has `values[slot]` in `sets[slot]`.

use super::program::{Ins, Target, Val};
use super::FastEdge;

/// Rounds of the fixpoint before giving up (every slot then holds any symbol).
const MAX_ROUNDS: usize = 64;

/// One symbol set per state slot, as bit sets of `words` 64-bit words each.
pub(crate) struct SlotValues {
    words: usize,
    symbols: usize,
    sets: Vec<u64>,
}

/// A set of symbols, as bits.
pub(crate) type Symbols = Vec<u64>;

impl SlotValues {
    /// The value sets of every slot of `initial` under the writes of `edges`.
    pub fn compute(edges: &[FastEdge], initial: &[u32], symbols: usize, write_ranges: &[Vec<(u32, u32)>]) -> Self {
        let words = symbols.div_ceil(64).max(1);
        let mut values = SlotValues { words, symbols, sets: vec![0; initial.len() * words] };
        for (slot, &value) in initial.iter().enumerate() {
            values.insert(slot, value);
        }
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            for (edge, ranges) in edges.iter().zip(write_ranges) {
                changed |= values.apply(&edge.ins, ranges);
            }
            if !changed {
                return values;
            }
        }
        values.sets.fill(u64::MAX);
        values
    }

    fn insert(&mut self, slot: usize, value: u32) {
        let value = value as usize;
        if value < self.symbols {
            self.sets[slot * self.words + value / 64] |= 1 << (value % 64);
        }
    }

    /// The set of `slot`.
    pub fn of_slot(&self, slot: u32) -> Symbols {
        let start = slot as usize * self.words;
        self.sets.get(start..start + self.words).map_or_else(|| self.all(), <[u64]>::to_vec)
    }

    /// Every symbol.
    pub fn all(&self) -> Symbols {
        vec![u64::MAX; self.words]
    }

    /// The members of `set`, in order.
    pub fn members(&self, set: &Symbols) -> Vec<u32> {
        (0..self.symbols as u32).filter(|&s| set[s as usize / 64] & (1 << (s % 64)) != 0).collect()
    }

    /// Whether `set` holds symbols outside the symbol table (an unknown set).
    fn is_all(&self, set: &Symbols) -> bool {
        set.iter().all(|&w| w == u64::MAX)
    }

    /// The set of `members`.
    pub fn set_of(&self, members: &[u32]) -> Symbols {
        self.set_from(members.iter().copied())
    }

    /// `set` without `symbol`.
    pub fn without(&self, mut set: Symbols, symbol: u32) -> Symbols {
        let symbol = symbol as usize;
        if symbol < self.symbols {
            set[symbol / 64] &= !(1 << (symbol % 64));
        }
        set
    }

    fn set_from(&self, members: impl IntoIterator<Item = u32>) -> Symbols {
        let mut set = vec![0; self.words];
        for member in members {
            let member = member as usize;
            if member >= self.symbols {
                return self.all();
            }
            set[member / 64] |= 1 << (member % 64);
        }
        set
    }

    /// A superset of what `value` reads, with `local` overriding the sets of some slots.
    pub fn of_val(&self, value: &Val, local: &dyn Fn(u32) -> Option<Symbols>) -> Symbols {
        let slot = |s: u32| local(s).unwrap_or_else(|| self.of_slot(s));
        let through = |table: &[u32], keys: &[u32]| -> Option<Symbols> {
            keys.iter().map(|&k| table.get(k as usize).copied()).collect::<Option<Vec<_>>>().map(|v| self.set_from(v))
        };
        let read_map = |base: u32, offsets: &[u32], keys: &[u32]| -> Option<Symbols> {
            let mut set = vec![0; self.words];
            for &key in keys {
                let entry = slot(base + *offsets.get(key as usize)?);
                set.iter_mut().zip(&entry).for_each(|(a, b)| *a |= b);
            }
            Some(set)
        };
        let pairs = |first: &Symbols, second: &Symbols, width: u32| -> Vec<u32> {
            let seconds = self.members(second);
            self.members(first).iter().flat_map(|&a| seconds.iter().map(move |&b| a * width + b)).collect()
        };
        let known = |set: &Symbols| !self.is_all(set);
        let result = match value {
            Val::Lit(symbol) => Some(self.set_from([*symbol])),
            Val::Slot(s) => Some(slot(*s)),
            Val::Lookup { key, table } => through(table, &self.members(&slot(*key))),
            Val::LookupOf { key, table } => {
                let keys = self.of_val(key, local);
                known(&keys).then(|| through(table, &self.members(&keys))).flatten()
            }
            Val::Indexed { base, key, offsets } => read_map(*base, offsets, &self.members(&slot(*key))),
            Val::IndexedBy { base, key, offsets } => {
                let keys = self.of_val(key, local);
                known(&keys).then(|| read_map(*base, offsets, &self.members(&keys))).flatten()
            }
            Val::Lookup2Slots { first, second, width, table } => {
                through(table, &pairs(&slot(*first), &slot(*second), *width))
            }
            Val::Indexed2 { base, first, second, width, offsets } => {
                read_map(*base, offsets, &pairs(&slot(*first), &slot(*second), *width))
            }
            Val::Lookup2 { first, second, width, table } => {
                let (a, b) = (self.of_val(first, local), self.of_val(second, local));
                (known(&a) && known(&b)).then(|| through(table, &pairs(&a, &b, *width))).flatten()
            }
            Val::Path(_) => None,
        };
        result.unwrap_or_else(|| self.all())
    }

    /// Adds `set` to `slot`; whether it grew.
    fn widen(&mut self, slot: u32, set: &Symbols) -> bool {
        let start = slot as usize * self.words;
        let Some(target) = self.sets.get_mut(start..start + self.words) else { return false };
        let mut changed = false;
        for (a, b) in target.iter_mut().zip(set) {
            changed |= *a | b != *a;
            *a |= b;
        }
        changed
    }

    /// Adds what `ins` may write to the slots it may write (`ranges`: [`super::program::writes`]);
    /// whether any set grew.
    fn apply(&mut self, ins: &Ins, ranges: &[(u32, u32)]) -> bool {
        let none = |_: u32| None;
        let whole = |values: &mut Self, value: &Symbols| {
            let mut changed = false;
            for &(start, end) in ranges {
                (start..end).for_each(|s| changed |= values.widen(s, value));
            }
            changed
        };
        let (written, value) = match ins {
            Ins::Set { target, value } => (target, self.of_val(value, &none)),
            Ins::SetAny { target, members } => (target, self.set_from(members.iter().copied())),
            // A block copy: its slots may hold anything.
            Ins::SetBlock { .. } => return whole(self, &self.all()),
            _ => return false,
        };
        let mut changed = false;
        match written {
            Target::Fixed(slot) => changed |= self.widen(*slot, &value),
            Target::Indexed { base, key, offsets, default_offset, .. } => {
                for key in self.members(&self.of_slot(*key)) {
                    match offsets.get(key as usize) {
                        Some(block) if block != default_offset => changed |= self.widen(base + block, &value),
                        Some(_) => {}
                        None => changed |= whole(self, &value),
                    }
                }
            }
            Target::Path(_) => changed |= whole(self, &value),
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use crate::automaton::builder::AutomatonBuilder;
    use crate::engine::ForwardModel;
    use crate::fast::FastEngine;
    use crate::playout::PlayoutConfig;
    use crate::reference::ReferenceEngine;

    /// A column drop: `cell = top[column]` then `board[cell] = x`; `top` holds `null` once the
    /// column is full, and `guard` is the filter after `column = Column(*)`.
    fn drop_game(guard: &str, top_after: &str) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Column", "{p, q}")
            .typedef("Cell", "{p1, p2, q1, q2}")
            .typedef("CellOrNull", "{p1, p2, q1, q2, null, gone}")
            .typedef("Disc", "{empty, full}")
            .constant("up", "Cell -> CellOrNull", "{p1: p2, q1: q2, :null}")
            .constant("upOrGone", "Cell -> CellOrNull", "{p1: p2, q1: q2, :gone}")
            .variable("board", "Cell -> Disc", "{:empty}")
            .variable("top", "Column -> CellOrNull", "{p: p1, q: q1, :null}")
            .variable("column", "Column", "p")
            .variable("cell", "Cell", "p1");
        for (source, target, label) in [
            ("begin", "turn", "player = x"),
            ("turn", "chosen", "column = Column(*)"),
            ("chosen", "free", guard),
            ("free", "tagged", "$$ column"),
            ("tagged", "placed", "cell = Cell(top[column])"),
            ("placed", "dropped", "board[cell] = full"),
            ("dropped", "raise", "player = keeper"),
            ("raise", "judge", top_after),
            ("judge", "again", "? room -> roomFound"),
            ("again", "turn", "player = x"),
            ("judge", "over", "! room -> roomFound"),
            ("over", "end", "player = keeper"),
            ("room", "roomColumn", "column = Column(*)"),
            ("roomColumn", "roomFound", "top[column] != null"),
        ] {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    /// (linear, detached, immediate) move searches.
    fn linear_counts(engine: &FastEngine) -> (usize, usize, usize) {
        engine.linear_move_counts()
    }

    #[test]
    fn a_filter_that_excludes_null_proves_the_drop_immediate() {
        assert_eq!(linear_counts(&drop_game("top[column] != null", "top[column] = up[cell]")), (1, 1, 1));
    }

    #[test]
    fn without_the_proof_the_drop_keeps_its_checked_listing() {
        // No filter on `null`: the write may go through a key outside `board`'s domain.
        assert_eq!(linear_counts(&drop_game("column != q", "top[column] = up[cell]")), (1, 1, 0));
        // `top` may hold a symbol outside `Cell` other than `null`.
        assert_eq!(linear_counts(&drop_game("top[column] != null", "top[column] = upOrGone[cell]")), (1, 1, 0));
    }

    #[test]
    fn an_immediate_drop_plays_as_the_reference_engine() {
        let engine = drop_game("top[column] != null", "top[column] = up[cell]");
        let reference = ReferenceEngine::new(engine.automaton().clone()).expect("reference engine");
        let config = PlayoutConfig { count: 50, seed: 5, threads: 1, ..Default::default() };
        let fast = engine.run_playouts(&config).expect("fast playouts");
        let slow = crate::playout::run_playouts(&reference, &config).expect("reference playouts");
        assert_eq!(fast.score_distribution, slow.score_distribution);
        assert_eq!((fast.total_plies, fast.mean_legal_moves), (slow.total_plies, slow.mean_legal_moves));
        assert_eq!(fast.total_plies, 50 * 4, "every playout fills the four cells");
    }

    /// Cells marked until none is empty: `cell = Cell(*)` then `filter` lists the moves (an
    /// immediate linear search), and the keeper's check `room` (a lone filter of one comparison)
    /// runs `room_test` on `probe`. `blank` holds `empty` in a slot.
    fn marking_game(filter: &str, room_test: &str) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Cell", "{a, b, c, d}")
            .typedef("Disc", "{empty, full}")
            .variable("board", "Cell -> Disc", "{b: full, :empty}")
            .variable("blank", "Disc", "empty")
            .variable("cell", "Cell", "a")
            .variable("probe", "Cell", "a");
        for (source, target, label) in [
            ("begin", "turn", "player = x"),
            ("turn", "chosen", "cell = Cell(*)"),
            ("chosen", "free", filter),
            ("free", "tagged", "$$ cell"),
            ("tagged", "marked", "player = keeper"),
            ("marked", "judge", "board[cell] = full"),
            ("judge", "again", "? room -> roomFound"),
            ("again", "turn", "player = x"),
            ("judge", "over", "! room -> roomFound"),
            ("over", "end", "player = keeper"),
            ("room", "roomCell", "probe = Cell(*)"),
            ("roomCell", "roomFound", room_test),
        ] {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    #[test]
    fn filters_reading_the_map_at_the_member_skip_the_member_write_and_agree_with_the_reference() {
        // The first two read `board` at the member against a constant (the member is not written:
        // `Scratch::linear_choices`, `Scratch::run_lone_filter`); the last compares with a slot,
        // which keeps the general loops.
        for (filter, room_test, at_member) in [
            ("board[cell] == empty", "board[probe] == empty", true),
            ("board[cell] != full", "board[probe] != full", true),
            ("board[cell] == blank", "board[probe] == blank", false),
        ] {
            let engine = marking_game(filter, room_test);
            assert_eq!(linear_counts(&engine), (1, 1, 1), "{filter}");
            let linear = engine.linear.iter().flatten().next().expect("a linear search");
            let filter_edge = &engine.edges[linear.filter as usize];
            assert_eq!(matches!(filter_edge.hot, crate::fast::program::Hot::CompareIndexedLit { .. }), at_member);
            let plan = engine.plans.iter().flatten().next().expect("the room check's plan");
            assert!(plan.lone_filter, "{room_test}");
            let reference = ReferenceEngine::new(engine.automaton().clone()).expect("reference engine");
            let config = PlayoutConfig { count: 40, seed: 7, threads: 1, ..Default::default() };
            let fast = engine.run_playouts(&config).expect("fast playouts");
            let slow = crate::playout::run_playouts(&reference, &config).expect("reference playouts");
            assert_eq!(fast.score_distribution, slow.score_distribution, "{filter}");
            assert_eq!((fast.total_plies, fast.mean_legal_moves), (slow.total_plies, slow.mean_legal_moves));
            // Three empty cells at the start (`b` is full), one marked a ply.
            assert_eq!(fast.total_plies, 40 * 3, "{filter}");
            let start = engine.start().expect("a start");
            assert_eq!(engine.perft(3).expect("perft"), vec![1, 3, 6, 6], "{filter}");
            assert_eq!(engine.moves(&start).expect("moves").len(), 3);
        }
    }
}
