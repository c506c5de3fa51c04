//! The move search and reachability search of the reference engine.
//!
//! Both are one iterative depth-first search over (node, state) with the state mutated in place
//! and restored from an undo log on backtracking, so no state is copied except when a move is
//! completed or a visited-set key is recorded. An explicit frame stack (not recursion) keeps deep
//! automata from overflowing the thread stack; only nested reachability checks recurse, bounded
//! by [`MAX_REACH_DEPTH`].
//!
//! Visited sets: a search records (node, state, tags) — (node, state) for reachability — only at
//! the nodes where two paths can meet: nodes with two or more in-edges, and the start node when it
//! has any in-edge. Every cycle passes through such a node, so the search terminates; a node with
//! one in-edge is reached again with the same key only through its single predecessor, so skipping
//! the check there can repeat work inside a tree of such nodes but never changes the result (moves
//! are de-duplicated by tags and successor anyway). Keys live in an arena and are found through a
//! state hash that writes and undos keep up to date (module `visited`).
//!
//! Reachability results are memoised between sibling edges: every out-edge of a node is tried
//! from the same restored state, so `? a -> b` followed by `! a -> b` runs one sub-search.

use super::layout::{Op, Operand, Place, Transfer};
use super::visited::{key_hash, slot_hash, state_hash, VisitedSet};
use super::{ReferenceEngine, ReferenceState};
use crate::automaton::{NodeId, SymbolId, Type, TypeId};
use crate::engine::{EngineError, Move};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Nested reachability checks deeper than this are an error (a check that recurses into itself).
pub(crate) const MAX_REACH_DEPTH: usize = 64;
/// A move longer than this many tags means the search is going around a tag-emitting cycle.
pub(crate) const MAX_MOVE_TAGS: usize = 1024;

/// A small, fast, non-cryptographic hasher for visited-set keys (multiply-rotate, as in FxHash).
#[derive(Default, Clone, Copy)]
pub(crate) struct SlotHasher(u64);

impl Hasher for SlotHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("chunk of 8")));
        }
        for &byte in chunks.remainder() {
            self.write_u64(byte as u64);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(word as u64);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<SlotHasher>>;

#[derive(Clone, Copy, Debug)]
struct Frame {
    next_edge: u32,
    end_edge: u32,
    /// The next member to try when the current edge is an any-assignment.
    member: u32,
    undo_mark: usize,
    tags_len: usize,
}

/// Reusable buffers of one search level (level 0: the move search; level k: nested reach k).
#[derive(Default)]
struct Level {
    frames: Vec<Frame>,
    visited: VisitedSet,
}

/// What a search is for.
enum Goal<'a> {
    /// Collect moves; when `only` is set, follow only paths whose tags are a prefix of it.
    Moves { only: Option<&'a [SymbolId]>, found: Vec<(Move, ReferenceState)>, index: FastMap<Move, usize> },
    /// Decide whether `to` can be reached.
    Reach { to: NodeId },
}

/// Buffers a search needs, kept per thread between searches so that their capacity is reused.
#[derive(Default)]
struct Buffers {
    values: Vec<SymbolId>,
    undo: Vec<(u32, SymbolId)>,
    levels: Vec<Level>,
    tags: Vec<SymbolId>,
}

thread_local! {
    static SPARE_BUFFERS: std::cell::Cell<Option<Buffers>> = const { std::cell::Cell::new(None) };
}

/// The mutable side of a search: the working state and its undo log.
pub(crate) struct Searcher<'e> {
    engine: &'e ReferenceEngine,
    values: Vec<SymbolId>,
    /// `state_hash(values)` when `hash_valid`, then kept up to date by every write and undo. It is
    /// computed on first use because many searches (short keeper moves) never record a key.
    hash: u64,
    hash_valid: bool,
    undo: Vec<(u32, SymbolId)>,
    levels: Vec<Level>,
    tags: Vec<SymbolId>,
}

impl Drop for Searcher<'_> {
    fn drop(&mut self) {
        let buffers = Buffers {
            values: std::mem::take(&mut self.values),
            undo: std::mem::take(&mut self.undo),
            levels: std::mem::take(&mut self.levels),
            tags: std::mem::take(&mut self.tags),
        };
        SPARE_BUFFERS.with(|spare| spare.set(Some(buffers)));
    }
}

impl<'e> Searcher<'e> {
    pub fn new(engine: &'e ReferenceEngine, state: &ReferenceState) -> Self {
        let mut buffers = SPARE_BUFFERS.with(|spare| spare.take()).unwrap_or_default();
        buffers.values.clear();
        buffers.values.extend_from_slice(&state.values);
        buffers.undo.clear();
        buffers.tags.clear();
        Searcher {
            engine,
            hash: 0,
            hash_valid: false,
            values: buffers.values,
            undo: buffers.undo,
            levels: buffers.levels,
            tags: buffers.tags,
        }
    }

    /// Every move from `node` (restricted to `only` when given) with its raw successor.
    pub fn moves(
        &mut self,
        node: NodeId,
        only: Option<&[SymbolId]>,
    ) -> Result<Vec<(Move, ReferenceState)>, EngineError> {
        let mut goal = Goal::Moves { only, found: Vec::new(), index: FastMap::default() };
        self.explore(node, 0, &mut goal)?;
        match goal {
            Goal::Moves { found, .. } => Ok(found),
            Goal::Reach { .. } => unreachable!("the goal was created as Moves above"),
        }
    }

    #[inline]
    fn read(&self, in_state: bool, slot: u32) -> SymbolId {
        if in_state {
            self.values[slot as usize]
        } else {
            self.engine.layout.const_values[slot as usize]
        }
    }

    #[inline]
    fn write(&mut self, slot: u32, value: SymbolId) {
        let old = self.values[slot as usize];
        if old != value {
            self.undo.push((slot, old));
            self.values[slot as usize] = value;
            if self.hash_valid {
                self.hash ^= slot_hash(slot, old) ^ slot_hash(slot, value);
            }
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (slot, old) = self.undo.pop().expect("length checked");
            if self.hash_valid {
                self.hash ^= slot_hash(slot, self.values[slot as usize]) ^ slot_hash(slot, old);
            }
            self.values[slot as usize] = old;
        }
    }

    /// The first slot of a place when read (keys outside a map's domain select its default).
    #[inline]
    fn offset(&self, place: &Place) -> u32 {
        let layout = &self.engine.layout;
        let mut offset = place.base;
        for step in place.steps.iter() {
            let key = self.symbol(&step.key);
            offset += layout.block_of(step.key_type, key, step.key_count) * step.stride;
        }
        offset
    }

    /// The first slot of an assignment target; a key outside a map's domain is an error.
    fn target_offset(&self, place: &Place, edge: usize) -> Result<u32, EngineError> {
        let layout = &self.engine.layout;
        let mut offset = place.base;
        for step in place.steps.iter() {
            let key = self.symbol(&step.key);
            let block = layout.block_of(step.key_type, key, step.key_count);
            if block == step.key_count {
                let automaton = &self.engine.automaton;
                let edge = &automaton.edges[edge];
                return Err(EngineError::KeyOutsideDomain {
                    key: automaton.symbol_name(key).to_string(),
                    map_type: self.engine.type_name(step.map_type),
                    edge: format!(
                        "`{}` -> `{}`",
                        automaton.nodes[edge.source as usize].name, automaton.nodes[edge.target as usize].name
                    ),
                });
            }
            offset += block * step.stride;
        }
        Ok(offset)
    }

    /// The value of a set-valued operand.
    #[inline]
    fn symbol(&self, operand: &Operand) -> SymbolId {
        match operand {
            Operand::Literal(s) => *s,
            Operand::Place(place) => self.read(place.in_state, self.offset(place)),
        }
    }

    fn assign(&mut self, lhs: &Place, rhs: &Operand, transfer: Transfer, edge: usize) -> Result<(), EngineError> {
        let target = self.target_offset(lhs, edge)?;
        match (transfer, rhs) {
            (Transfer::Slot, _) => {
                let value = self.symbol(rhs);
                self.write(target, value);
            }
            (Transfer::Block(size), Operand::Place(source)) => {
                let from = self.offset(source);
                for i in 0..size {
                    let value = self.read(source.in_state, from + i);
                    self.write(target + i, value);
                }
            }
            (Transfer::Convert, Operand::Place(source)) => {
                let from = self.offset(source);
                let mut writes = Vec::new();
                self.convert(source.in_state, from, source.ty, target, lhs.ty, &mut writes);
                for (slot, value) in writes {
                    self.write(slot, value);
                }
            }
            (_, Operand::Literal(_)) => {
                unreachable!("literals are set-valued, so their transfer is Slot")
            }
        }
        Ok(())
    }

    /// The writes that store the map at `from` (type `from_ty`) into `to` (type `to_ty`), key by key.
    fn convert(
        &self,
        in_state: bool,
        from: u32,
        from_ty: TypeId,
        to: u32,
        to_ty: TypeId,
        writes: &mut Vec<(u32, u32)>,
    ) {
        let engine = self.engine;
        let types = &engine.automaton.types;
        match (&types[from_ty as usize], &types[to_ty as usize]) {
            (Type::Map { key: fk, value: fv }, Type::Map { key: tk, value: tv }) => {
                let (fsize, tsize) = (engine.layout.size(*fv), engine.layout.size(*tv));
                let from_count = engine.set_len(*fk);
                let to_members = engine.set_members(*tk);
                for (i, &key) in to_members.iter().enumerate() {
                    let block = engine.layout.block_of(*fk, key, from_count);
                    self.convert(in_state, from + block * fsize, *fv, to + i as u32 * tsize, *tv, writes);
                }
                let default_to = to + to_members.len() as u32 * tsize;
                self.convert(in_state, from + from_count * fsize, *fv, default_to, *tv, writes);
            }
            _ => writes.push((to, self.read(in_state, from))),
        }
    }

    /// Structural equality of two maps of different key orders, key by key of `a`'s key type.
    fn equal_converted(&self, a_in: bool, a: u32, a_ty: TypeId, b_in: bool, b: u32, b_ty: TypeId) -> bool {
        let engine = self.engine;
        let types = &engine.automaton.types;
        match (&types[a_ty as usize], &types[b_ty as usize]) {
            (Type::Map { key: ak, value: av }, Type::Map { key: bk, value: bv }) => {
                let (asize, bsize) = (engine.layout.size(*av), engine.layout.size(*bv));
                let b_count = engine.set_len(*bk);
                let a_members = engine.set_members(*ak);
                a_members.iter().enumerate().all(|(i, &key)| {
                    let block = engine.layout.block_of(*bk, key, b_count);
                    self.equal_converted(a_in, a + i as u32 * asize, *av, b_in, b + block * bsize, *bv)
                }) && self.equal_converted(
                    a_in,
                    a + a_members.len() as u32 * asize,
                    *av,
                    b_in,
                    b + b_count * bsize,
                    *bv,
                )
            }
            _ => self.read(a_in, a) == self.read(b_in, b),
        }
    }

    fn compare(&self, lhs: &Operand, rhs: &Operand, transfer: Transfer) -> bool {
        match (transfer, lhs, rhs) {
            (Transfer::Slot, _, _) => self.symbol(lhs) == self.symbol(rhs),
            (Transfer::Block(size), Operand::Place(a), Operand::Place(b)) => {
                let (a_off, b_off) = (self.offset(a), self.offset(b));
                (0..size).all(|i| self.read(a.in_state, a_off + i) == self.read(b.in_state, b_off + i))
            }
            (Transfer::Convert, Operand::Place(a), Operand::Place(b)) => {
                self.equal_converted(a.in_state, self.offset(a), a.ty, b.in_state, self.offset(b), b.ty)
            }
            _ => unreachable!("map transfers are compiled only between places"),
        }
    }

    /// Whether `to` can be reached from `from` in the current state; the state is unchanged after.
    fn reach(&mut self, from: NodeId, to: NodeId, depth: usize) -> Result<bool, EngineError> {
        if from == to {
            return Ok(true);
        }
        if depth > MAX_REACH_DEPTH {
            let names = &self.engine.automaton.nodes;
            return Err(EngineError::ReachDepth {
                from: names[from as usize].name.clone(),
                to: names[to as usize].name.clone(),
            });
        }
        let mark = self.undo.len();
        let tags_len = self.tags.len();
        let result = self.explore(from, depth, &mut Goal::Reach { to });
        self.undo_to(mark);
        self.tags.truncate(tags_len);
        result
    }

    /// Records (node, tags since `tags_base`, state) in the level's visited set; `false` when it
    /// was already there.
    fn mark_visited(&mut self, level: usize, node: NodeId, tags_base: usize) -> bool {
        if !self.hash_valid {
            self.hash = state_hash(&self.values);
            self.hash_valid = true;
        }
        let tags = &self.tags[tags_base..];
        let hash = key_hash(node, tags, self.hash);
        self.levels[level].visited.insert(hash, node, tags, &self.values)
    }

    fn push_frame(&mut self, level: usize, node: NodeId, tags_len: usize) {
        let range = &self.engine.automaton.nodes[node as usize].edges;
        let frame =
            Frame { next_edge: range.start, end_edge: range.end, member: 0, undo_mark: self.undo.len(), tags_len };
        self.levels[level].frames.push(frame);
    }

    /// The search proper. For `Goal::Reach` it returns whether the target was found; for
    /// `Goal::Moves` it fills the goal and returns `false`.
    fn explore(&mut self, start: NodeId, level: usize, goal: &mut Goal) -> Result<bool, EngineError> {
        let engine = self.engine;
        if self.levels.len() <= level {
            self.levels.resize_with(level + 1, Level::default);
        }
        self.levels[level].frames.clear();
        self.levels[level].visited.clear();
        let tags_base = self.tags.len();
        let is_moves = matches!(goal, Goal::Moves { .. });
        // The start node needs a visited entry only if a path can come back to it.
        if engine.has_in_edge[start as usize] {
            self.mark_visited(level, start, tags_base);
        }
        self.push_frame(level, start, tags_base);
        // The last reachability result, valid while the frame it was computed in is on top: every
        // out-edge of a frame starts from the same restored state, and `? a -> b` / `! a -> b`
        // pairs on sibling edges are the common pattern. Cleared on every push and pop.
        let mut reach_memo: Option<(NodeId, NodeId, bool)> = None;

        while let Some(frame) = self.levels[level].frames.last_mut() {
            let (undo_mark, tags_len) = (frame.undo_mark, frame.tags_len);
            if frame.next_edge == frame.end_edge {
                self.levels[level].frames.pop();
                reach_memo = None;
                continue;
            }
            let edge_id = frame.next_edge as usize;
            let op = &engine.ops[edge_id];
            // Pick the branch to run now and advance the frame past it.
            let mut member = 0;
            if let Op::AssignAny { members, .. } = op {
                member = frame.member as usize;
                if member + 1 >= members.len() {
                    frame.next_edge += 1;
                    frame.member = 0;
                } else {
                    frame.member += 1;
                }
                if members.is_empty() {
                    continue;
                }
            } else {
                frame.next_edge += 1;
            }
            self.undo_to(undo_mark);
            self.tags.truncate(tags_len);

            let target = engine.automaton.edges[edge_id].target;
            let mut completes_move = false;
            let passes = match op {
                Op::Skip => true,
                Op::Assign { lhs, rhs, transfer, sets_player } => {
                    self.assign(lhs, rhs, *transfer, edge_id)?;
                    completes_move = *sets_player;
                    true
                }
                Op::AssignAny { lhs, members, sets_player } => {
                    let offset = self.target_offset(lhs, edge_id)?;
                    self.write(offset, members[member]);
                    completes_move = *sets_player;
                    true
                }
                Op::Compare { lhs, rhs, transfer, equal } => self.compare(lhs, rhs, *transfer) == *equal,
                Op::Reach { from, to, negated } => {
                    let reachable = match reach_memo {
                        Some((f, t, result)) if (f, t) == (*from, *to) => result,
                        _ => {
                            let result = self.reach(*from, *to, level + 1)?;
                            reach_memo = Some((*from, *to, result));
                            result
                        }
                    };
                    reachable != *negated
                }
                Op::Tag(_) | Op::TagExpr(_) if !is_moves => true,
                Op::Tag(_) | Op::TagExpr(_) => {
                    let tag = match op {
                        Op::TagExpr(operand) => self.symbol(operand),
                        Op::Tag(symbol) => *symbol,
                        _ => unreachable!("matched Tag or TagExpr above"),
                    };
                    let position = self.tags.len() - tags_base;
                    let allowed = match goal {
                        Goal::Moves { only: Some(only), .. } => only.get(position) == Some(&tag),
                        _ => true,
                    };
                    if position >= MAX_MOVE_TAGS {
                        return Err(EngineError::TagCycle {
                            node: engine.automaton.nodes[target as usize].name.clone(),
                        });
                    }
                    self.tags.push(tag);
                    allowed
                }
            };
            if !passes {
                continue;
            }
            match goal {
                Goal::Reach { to } => {
                    if target == *to {
                        return Ok(true);
                    }
                }
                Goal::Moves { only, found, index } if completes_move => {
                    let tags = &self.tags[tags_base..];
                    if only.is_some_and(|only| only.len() != tags.len()) {
                        continue;
                    }
                    let player = self.values[engine.player_slot as usize];
                    if !engine.valid_player[player as usize] {
                        return Err(EngineError::InvalidPlayer {
                            node: engine.automaton.nodes[target as usize].name.clone(),
                            value: engine.automaton.symbol_name(player).to_string(),
                        });
                    }
                    let successor = ReferenceState { node: target, values: self.values.clone().into_boxed_slice() };
                    match index.get(tags) {
                        Some(&i) if found[i].1 == successor => {}
                        Some(_) => {
                            return Err(EngineError::AmbiguousMove {
                                node: engine.automaton.nodes[start as usize].name.clone(),
                                tags: engine.automaton_move_name(tags),
                            })
                        }
                        None => {
                            index.insert(tags.to_vec(), found.len());
                            found.push((tags.to_vec(), successor));
                        }
                    }
                    continue;
                }
                Goal::Moves { .. } => {}
            }
            let meeting_point = engine.merge_node[target as usize] || target == start;
            if meeting_point && !self.mark_visited(level, target, tags_base) {
                continue;
            }
            let tags_len = self.tags.len();
            self.push_frame(level, target, tags_len);
            reach_memo = None;
        }
        self.tags.truncate(tags_base);
        Ok(false)
    }
}
