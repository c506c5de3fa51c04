//! The fast engine's move search: an explicit-stack depth-first search over one mutable state
//! buffer with an undo log, writing the moves it finds into a reusable [`MoveList`].
//!
//! Nothing is allocated per search once the buffers have grown: frames, undo log, tag stack,
//! visited sets and the move list all keep their capacity in a [`Scratch`]. States are hashed and
//! copied into a visited set only at the nodes the static analysis (module `graph`) marks.

use super::graph::CYCLIC;
use super::plan_steps::{PlanSteps, ProgramOp};
use super::program::{type_name, Hot, Ins, Pairs, Path, Target, Val};
use super::reach::{
    FlatRay, MemberRhs, MemberTest, NodeKind, PlanEdge, PlanFlat, PlanOp, Ray, ReachPlan, ACCEPT, CYCLE_STEPS,
    MEMBER_TESTS,
};
use super::tree::{MoveTree, TREE_DONE};
use super::{FastEngine, LinearMoves, ReachPlans, CYCLE_IN_CHECKS, CYCLE_IN_MOVES, NO_EDGE, SELECTS_BY_SWITCH};
use crate::automaton::{NodeId, SymbolId};
use crate::engine::EngineError;
use crate::keyset::KeySet;

/// Nested reachability checks deeper than this are an error (as in the reference engine).
const MAX_REACH_DEPTH: usize = 64;
/// Per search: how many recordings of visits of [`super::graph::ONE_PATH`] nodes may be skipped
/// (a keeper's loops over directions, a ray walk whose slot can repeat) before recording resumes.
const RECORD_DEFERRALS: u32 = 256;
/// Edges a forced keeper walk ([`Scratch::apply_single_path`]) runs before it hands over to the
/// general search. Real keeper paths are far shorter (reversi's flips: about a hundred); a walk
/// going round a cycle costs this many steps before the general search stops it.
const SINGLE_PATH_STEPS: u32 = 4096;
/// A move longer than this many tags means the search is going around a tag-emitting cycle.
const MAX_MOVE_TAGS: usize = 1024;
/// The target of a move search, which has none.
const NO_NODE: NodeId = NodeId::MAX;

const HASH_MULTIPLIER: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[inline]
fn mix(hash: u64, word: u32) -> u64 {
    (hash.rotate_left(5) ^ word as u64).wrapping_mul(HASH_MULTIPLIER)
}

fn hash_words(seed: u64, words: &[u32]) -> u64 {
    words.iter().fold(seed, |hash, &word| mix(hash, word))
}

/// The moves of one search: tags, successor node and successor slots of each, in the order found.
#[derive(Default, Debug)]
pub struct MoveList {
    state_len: usize,
    pub(super) tags: Vec<SymbolId>,
    spans: Vec<(u32, u32)>,
    nodes: Vec<NodeId>,
    successors: Vec<SymbolId>,
    /// De-duplication by tags: open addressing over `(generation, move index)`.
    table: Vec<(u32, u32)>,
    generation: u32,
    /// Successors are not recorded (a playout lists moves, then re-searches the one it picks).
    tags_only: bool,
    /// In tags-only mode: two paths gave the same tags (their successors were not compared).
    pub(crate) saw_duplicate: bool,
}

impl MoveList {
    /// Whether the last search recorded tags only (no successors).
    pub(crate) fn tags_only(&self) -> bool {
        self.tags_only
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The tags of move `index`.
    pub fn tags(&self, index: usize) -> &[SymbolId] {
        let (start, end) = self.spans[index];
        &self.tags[start as usize..end as usize]
    }

    /// The node the search stopped at for move `index` (keeper moves not applied).
    pub fn successor_node(&self, index: usize) -> NodeId {
        self.nodes[index]
    }

    /// The slots of the successor of move `index` (keeper moves not applied).
    pub fn successor_values(&self, index: usize) -> &[SymbolId] {
        &self.successors[index * self.state_len..(index + 1) * self.state_len]
    }

    pub(crate) fn clear(&mut self, state_len: usize) {
        self.state_len = state_len;
        self.saw_duplicate = false;
        self.tags.clear();
        self.spans.clear();
        self.nodes.clear();
        self.successors.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill((0, 0));
            self.generation = 1;
        }
    }

    fn grow(&mut self) {
        let size = (self.table.len() * 2).max(16);
        self.generation = 1;
        self.table = vec![(0, 0); size];
        let mask = size - 1;
        for index in 0..self.spans.len() {
            let mut position = hash_words(0, self.tags(index)) as usize & mask;
            while self.table[position].0 == self.generation {
                position = (position + 1) & mask;
            }
            self.table[position] = (self.generation, index as u32);
        }
    }

    /// The verdict on a move whose tags equal listed move `index`'s: kept once if it has the
    /// same successor (or the list keeps tags only, noting that a duplicate was seen), an
    /// ambiguity (`Err`) otherwise. Shared by [`MoveList::add`] and [`MoveList::add_in_group`].
    #[inline(always)]
    fn judge_duplicate(&mut self, index: usize, node: NodeId, values: &[SymbolId]) -> Result<(), ()> {
        if self.tags_only {
            self.saw_duplicate = true;
            return Ok(());
        }
        let same = self.nodes[index] == node && self.successor_values(index) == values;
        if same {
            Ok(())
        } else {
            Err(())
        }
    }

    /// Adds a move; a move with the same tags is kept once if it has the same successor, and is
    /// an ambiguity (`Err`) otherwise.
    fn add(&mut self, tags: &[SymbolId], node: NodeId, values: &[SymbolId]) -> Result<(), ()> {
        if (self.spans.len() + 1) * 2 > self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut position = hash_words(0, tags) as usize & mask;
        loop {
            let (generation, index) = self.table[position];
            if generation != self.generation {
                break;
            }
            let index = index as usize;
            if self.tags(index) == tags {
                return self.judge_duplicate(index, node, values);
            }
            position = (position + 1) & mask;
        }
        self.table[position] = (self.generation, self.spans.len() as u32);
        let start = self.tags.len() as u32;
        self.tags.extend_from_slice(tags);
        self.spans.push((start, self.tags.len() as u32));
        if !self.tags_only {
            self.nodes.push(node);
            self.successors.extend_from_slice(values);
        }
        Ok(())
    }

    /// [`MoveList::add`] for a search that proved a duplicate can only be one of the moves from
    /// `group_start` on (a [`super::tree::MoveTree::grouped`] search): those are compared one by
    /// one (a few words each, without a call to `memcmp`), the rest are not looked at. Never fills
    /// the hash table.
    #[inline(always)]
    fn add_in_group(
        &mut self,
        tags: &[SymbolId],
        node: NodeId,
        values: &[SymbolId],
        group_start: usize,
    ) -> Result<(), ()> {
        for index in group_start..self.spans.len() {
            let (start, end) = self.spans[index];
            let listed = &self.tags[start as usize..end as usize];
            if listed.len() == tags.len() && listed.iter().zip(tags).all(|(a, b)| a == b) {
                return self.judge_duplicate(index, node, values);
            }
        }
        // `push`, with the few tags pushed one by one (no call to copy them).
        let start = self.tags.len() as u32;
        for &tag in tags {
            self.tags.push(tag);
        }
        self.spans.push((start, self.tags.len() as u32));
        if !self.tags_only {
            self.nodes.push(node);
            self.successors.extend_from_slice(values);
        }
        Ok(())
    }

    /// Appends a move without looking for one with the same tags: for searches proved to give
    /// every tag sequence once ([`LinearMoves`]), which never fill the table.
    #[inline]
    fn push(&mut self, tags: &[SymbolId], node: NodeId, values: &[SymbolId]) {
        let start = self.tags.len() as u32;
        if let [tag] = tags {
            // The commonest move (one tag), without a call to copy one word.
            self.tags.push(*tag);
        } else {
            self.tags.extend_from_slice(tags);
        }
        self.spans.push((start, self.tags.len() as u32));
        if !self.tags_only {
            self.nodes.push(node);
            self.successors.extend_from_slice(values);
        }
    }
}

/// Exact (node, tags, state) keys. States are stored as their difference from the search's start
/// state, which within one search (and one nested reachability check) identifies them exactly and is
/// usually a handful of slots.
#[derive(Default)]
struct VisitedSet(KeySet);

impl VisitedSet {
    fn clear(&mut self) {
        self.0.clear();
    }

    /// Records the key; `false` when it was already present. A state is keyed by its difference
    /// from the state the search started from: the changed slots with their values, by slot.
    #[inline]
    fn insert(&mut self, node: NodeId, tags: &[SymbolId], diff: &[(u32, u32)]) -> bool {
        let mut hash = hash_words(mix(node as u64, tags.len() as u32), tags);
        for &(slot, value) in diff {
            hash = mix(mix(hash, slot), value);
        }
        let is_key = |key: &[u32]| {
            let rest = &key[2 + tags.len()..];
            key[0] == node
                && key[1] as usize == tags.len()
                && key[2..2 + tags.len()] == *tags
                && rest[0] as usize == diff.len()
                && diff
                    .iter()
                    .enumerate()
                    .all(|(i, &(slot, value))| rest[1 + 2 * i] == slot && rest[2 + 2 * i] == value)
        };
        let write = |arena: &mut Vec<u32>| {
            arena.extend_from_slice(&[node, tags.len() as u32]);
            arena.extend_from_slice(tags);
            arena.push(diff.len() as u32);
            for &(slot, value) in diff {
                arena.extend_from_slice(&[slot, value]);
            }
        };
        self.0.insert(hash, 3 + tags.len() + 2 * diff.len(), is_key, write)
    }
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    next_edge: u32,
    end_edge: u32,
    /// The next member to try when the current edge is an any-assignment.
    member: u32,
    undo_mark: u32,
    tags_len: u32,
}

/// Buffers of one search level (0: the move search; k: the k-th nested reachability check).
#[derive(Default)]
struct Level {
    visited: VisitedSet,
    /// The undo log's length when this level's search started: the entries after it hold the
    /// start value of every slot the search has changed.
    undo_base: usize,
}

/// Reusable search buffers; one per thread. The working state lives here between calls.
#[derive(Default)]
pub struct Scratch {
    pub(crate) values: Vec<SymbolId>,
    pub(crate) node: NodeId,
    undo: Vec<(u32, SymbolId)>,
    pub(super) tags: Vec<SymbolId>,
    /// One frame stack for the move search and the reachability searches nested in it.
    frames: Vec<Frame>,
    levels: Vec<Level>,
    /// The difference from the search's start state, built for a visited-set key.
    diff: Vec<(u32, u32)>,
    /// `slot_stamp[slot] == stamp`: the slot is already in `diff`.
    slot_stamp: Vec<u32>,
    stamp: u32,
    /// The moves found by the last search.
    pub moves: MoveList,
    /// The tags of the move a playout picked, while it is re-searched.
    pub(crate) picked: Vec<SymbolId>,
    /// The frames of reachability plans (nested plans share the stack).
    plan_frames: Vec<PlanFrame>,
    /// Copies of a plan's written slots: one at the check's start, one per branching frame.
    plan_saved: Vec<SymbolId>,
    /// Writes made by plans so far: a frame whose count is unchanged needs no restore.
    plan_writes: u64,
    // Declared last so the fields the move search reads keep their offsets from before these two
    // were added (session 12's breakthrough wall-time regression came with a changed layout).
    /// The members passing the filter of an immediate linear search ([`Scratch::linear_choices`]).
    pub(super) choices: Vec<SymbolId>,
    /// The positions of a ray walk (`Scratch::walk_ray`).
    ray_positions: Vec<SymbolId>,
    /// The choices of a move tree being walked ([`Scratch::explore_tree`]).
    tree_levels: Vec<TreeLevel>,
    /// Per move of the last [`Scratch::search_tree_paths`]: its path, as one number
    /// ([`MoveTree::radix`]).
    tree_paths: Vec<u64>,
}

/// A choice of a move tree being walked: its step, the next member to try, the undo log's and
/// tag stack's lengths once the choice was entered, and where it lies on the path: the path's
/// number so far (`prefix`, the members taken at the choices before it) and `radix^k` for the
/// k choices before it (`stride`; a choice's level leaves the stack when its last member is
/// taken, so the stack's length is not its position).
#[derive(Clone, Copy, Debug)]
struct TreeLevel {
    step: u32,
    next_member: u32,
    undo_mark: u32,
    tags_len: u32,
    prefix: u64,
    stride: u64,
}

/// The buffers a move tree's walk writes, borrowed apart from [`Scratch`]: no write through one
/// can move another, so the walk's loops keep the state's address and length in registers
/// instead of reloading them from the scratch after every push.
struct TreeWalk<'a> {
    values: &'a mut [SymbolId],
    undo: &'a mut Vec<(u32, SymbolId)>,
    tags: &'a mut Vec<SymbolId>,
    moves: &'a mut MoveList,
    tree_paths: &'a mut Vec<u64>,
}

impl TreeWalk<'_> {
    /// The members of a leaf choice (module `tree`, *Leaf choices*) in order, each that passes
    /// the choice's filter walked down its straight steps: what [`Scratch::explore_tree`] does
    /// with a level per choice, with the choice's values held here. The choice's slot is logged
    /// by the caller; its members are written over it without logging, and each member's writes
    /// are undone before the next. `Some` when the walk must stop with that answer (as
    /// [`TreeWalk::add_move`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk_leaf_choice<const PATHS: bool>(
        &mut self,
        engine: &FastEngine,
        tree: &MoveTree,
        choice: &super::tree::TreeStep,
        members: &[SymbolId],
        root: bool,
        group_start: &mut usize,
        prefix: u64,
        stride: u64,
    ) -> Option<bool> {
        let steps = if PATHS { &tree.path_steps } else { &tree.steps };
        let Hot::SetAnySlot { slot, .. } = &choice.hot else { unreachable!("a choice is an any-assignment") };
        let slot = *slot as usize;
        let (undo_mark, tags_len) = (self.undo.len(), self.tags.len());
        // The filter tested at the member's cell (`board[from] == me`), as in the backtrack of
        // `explore_tree`, when the tree worked the cells out.
        let filter = (choice.filter != NO_EDGE).then(|| &engine.edges[choice.filter as usize]);
        let at_cells = match filter.map(|filter| &filter.hot) {
            Some(Hot::CompareIndexedLit { lit, equal, .. }) if choice.member_cells.len() == members.len() => {
                Some((&choice.member_cells[..], *lit, *equal))
            }
            _ => None,
        };
        for (member, &value) in members.iter().enumerate() {
            match (at_cells, filter) {
                (Some((cells, lit, equal)), _) => {
                    if (self.values[cells[member] as usize] == lit) != equal {
                        continue;
                    }
                    self.values[slot] = value;
                }
                (None, Some(filter)) => {
                    self.values[slot] = value;
                    if !detached_holds(filter, self.values, &engine.constants) {
                        continue;
                    }
                }
                (None, None) => self.values[slot] = value,
            }
            if root {
                *group_start = self.moves.len();
            }
            let path = prefix + member as u64 * stride;
            let mut at = choice.member_pass[member];
            while let Some(step) = steps.get(at as usize) {
                if let Some(next) = self.run_step::<PATHS>(engine, step) {
                    at = next;
                    continue;
                }
                if step.pass == TREE_DONE {
                    if let Some(decided) = self.add_move::<PATHS>(engine, tree, step, *group_start, path) {
                        return Some(decided);
                    }
                    break;
                }
                at = step.pass;
            }
            self.undo_to(undo_mark);
            self.tags.truncate(tags_len);
        }
        None
    }

    /// Runs a move tree's step other than a choice: `Some(next)` for a comparison (or an edge
    /// without a flat form that failed), the step the walk goes to; `None` when the step ran and
    /// the walk goes on at its `pass` (or completes a move there).
    #[inline(always)]
    fn run_step<const PATHS: bool>(&mut self, engine: &FastEngine, step: &super::tree::TreeStep) -> Option<u32> {
        let values = &self.values;
        match &step.hot {
            Hot::SetAnySlot { .. } => unreachable!("choices are walked by the caller"),
            Hot::CompareSlotLit { slot, lit, equal } => {
                return Some(if (values[*slot as usize] == *lit) == *equal { step.pass } else { step.fail });
            }
            Hot::CompareIndexedLit { base, key, offsets, lit, equal } => {
                let holds = (values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal;
                return Some(if holds { step.pass } else { step.fail });
            }
            // On to the completion check: in `path_steps` a tag can complete a move (a folded
            // player write, module `tree`).
            Hot::TagLit { lit } => self.tags.push(*lit),
            Hot::TagSlot { slot } => self.tags.push(values[*slot as usize]),
            Hot::SetSlotLit { slot, lit } => {
                // A playout's listing (tags only) skips a move's last write of the player
                // (`player = keeper`): no successor is recorded, so only the player's validity
                // matters (a folded write's literal is a valid player, module `tree`), and
                // `take_tree_path` makes the write for the move picked.
                if !(PATHS && step.done_player.is_some()) {
                    self.write(*slot as usize, *lit);
                }
            }
            Hot::SetSlotSlot { slot, from } => {
                let value = values[*from as usize];
                self.write(*slot as usize, value);
            }
            Hot::SetSlotLookup { slot, key, table } => {
                let value = table[values[*key as usize] as usize];
                self.write(*slot as usize, value);
            }
            Hot::SetSlotIndexed { slot, base, key, offsets } => {
                let value = values[(*base + offsets[values[*key as usize] as usize]) as usize];
                self.write(*slot as usize, value);
            }
            Hot::SetSlotLookup2 { slot, first, second, width, table } => {
                let value = table[(values[*first as usize] * *width + values[*second as usize]) as usize];
                self.write(*slot as usize, value);
            }
            Hot::CompareSlotIn { .. }
            | Hot::CompareSlotPair { .. }
            | Hot::CompareSlotCell { .. }
            | Hot::SetCellLit { .. }
            | Hot::SetCellSlot { .. } => unreachable!("not a tree step's form (module `tree`, `tree_hot`)"),
            Hot::General => {
                if !self.run_edge(engine, &engine.edges[step.edge as usize]) {
                    return Some(step.fail);
                }
            }
        }
        None
    }

    /// Records the move a tree step completed (its `pass` is [`TREE_DONE`]): `None` when the
    /// walk goes on; `Some(false)` for an invalid player or an ambiguous move (the general search
    /// reports them), `Some(true)` for a duplicate's tags (the caller redoes the search with
    /// successors).
    #[inline(always)]
    fn add_move<const PATHS: bool>(
        &mut self,
        engine: &FastEngine,
        tree: &MoveTree,
        step: &super::tree::TreeStep,
        group_start: usize,
        path: u64,
    ) -> Option<bool> {
        // A folded player write (`path_steps` only) is a valid player, proved by the tree.
        if !(PATHS && step.done_player.is_some()) {
            let player = self.values[engine.player_slot as usize];
            if !engine.valid_player.get(player as usize).copied().unwrap_or(false) {
                return Some(false);
            }
        }
        let target = engine.edges[step.done_edge as usize].target;
        let added = if tree.grouped {
            self.moves.add_in_group(self.tags, target, self.values, group_start)
        } else {
            self.moves.add(self.tags, target, self.values)
        };
        if added.is_err() {
            return Some(false);
        }
        if self.moves.saw_duplicate {
            return Some(true);
        }
        if PATHS {
            self.tree_paths.push(path);
        }
        None
    }

    /// Runs a move tree's step without a flat form (module `tree`, `runnable`): an assignment to
    /// a fixed slot (logged), a comparison, a tag or a skip; whether it holds.
    fn run_edge(&mut self, engine: &FastEngine, edge: &super::FastEdge) -> bool {
        match &edge.ins {
            Ins::Skip => {}
            Ins::Set { target: Target::Fixed(slot), value } => {
                let value = read(value, self.values, &engine.constants);
                self.write(*slot as usize, value);
            }
            Ins::Compare { lhs, rhs, equal } => {
                return (read(lhs, self.values, &engine.constants) == read(rhs, self.values, &engine.constants))
                    == *equal
            }
            Ins::Tag(symbol) => self.tags.push(*symbol),
            Ins::TagVal(value) => {
                let tag = read(value, self.values, &engine.constants);
                self.tags.push(tag);
            }
            _ => unreachable!("a move tree runs no other instruction"),
        }
        true
    }

    #[inline(always)]
    fn write(&mut self, slot: usize, value: SymbolId) {
        let old = self.values[slot];
        if old != value {
            self.undo.push((slot as u32, old));
            self.values[slot] = value;
        }
    }

    #[inline(always)]
    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (slot, old) = self.undo.pop().expect("length checked");
            self.values[slot as usize] = old;
        }
    }
}

/// A branching node of a reachability plan being walked.
#[derive(Clone, Copy, Debug)]
struct PlanFrame {
    /// The plan node (its edges, restored slots and filter).
    node: u32,
    next_edge: u32,
    member: u32,
    /// Where the frame's copy of its slots starts in `plan_saved`.
    saved: u32,
    /// `plan_writes` when the state last equalled the frame's copy.
    clean_at: u64,
}

/// How [`Scratch::apply_single_path`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SinglePath {
    /// The move was applied: the working state is its successor (keeper moves not applied).
    Moved,
    /// The path ended without completing a move (the state is unchanged).
    NoMove,
    /// The walk was long enough to be going round a cycle (the state is unchanged).
    GaveUp,
}

/// What a search is for.
#[derive(Clone, Copy)]
enum Goal<'a> {
    /// Collect moves; with `only`, follow only paths whose tags are a prefix of it.
    Moves { only: Option<&'a [SymbolId]> },
    /// Decide whether `to` can be reached.
    Reach { to: NodeId, context: u32 },
}

#[inline(always)]
fn read(value: &Val, values: &[u32], constants: &[u32]) -> u32 {
    match value {
        Val::Lit(symbol) => *symbol,
        Val::Slot(slot) => values[*slot as usize],
        Val::Lookup { key, table } => table[values[*key as usize] as usize],
        Val::Indexed { base, key, offsets } => values[(*base + offsets[values[*key as usize] as usize]) as usize],
        Val::Lookup2Slots { first, second, width, table } => {
            table[(values[*first as usize] * *width + values[*second as usize]) as usize]
        }
        Val::Indexed2 { base, first, second, width, offsets } => {
            values[(*base + offsets[(values[*first as usize] * *width + values[*second as usize]) as usize]) as usize]
        }
        _ => read_general(value, values, constants),
    }
}

#[inline(never)]
fn read_general(value: &Val, values: &[u32], constants: &[u32]) -> u32 {
    match value {
        Val::LookupOf { key, table } => table[read(key, values, constants) as usize],
        Val::IndexedBy { base, key, offsets } => {
            values[(*base + offsets[read(key, values, constants) as usize]) as usize]
        }
        Val::Lookup2 { first, second, width, table } => {
            let (x, y) = (read(first, values, constants), read(second, values, constants));
            table[(x * *width + y) as usize]
        }
        Val::Path(path) => {
            let offset = path_offset(path, values, constants);
            if path.in_state {
                values[offset]
            } else {
                constants[offset]
            }
        }
        _ => read(value, values, constants),
    }
}

fn path_offset(path: &Path, values: &[u32], constants: &[u32]) -> usize {
    let mut offset = path.base;
    for step in path.steps.iter() {
        offset += step.offsets[read(&step.key, values, constants) as usize];
    }
    offset as usize
}

/// Whether a plan comparison holds.
#[inline(always)]
fn compare_holds(op: &PlanOp, values: &[u32], constants: &[u32]) -> bool {
    match op {
        PlanOp::CompareIndexedLit { base, key, offsets, lit, equal } => {
            (values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal
        }
        PlanOp::CompareIndexedSlot { base, key, offsets, slot, equal } => {
            (values[(*base + offsets[values[*key as usize] as usize]) as usize] == values[*slot as usize]) == *equal
        }
        PlanOp::CompareIndexedLookup { base, key, offsets, rhs_key, table, equal } => {
            let lhs = values[(*base + offsets[values[*key as usize] as usize]) as usize];
            (lhs == table[values[*rhs_key as usize] as usize]) == *equal
        }
        PlanOp::CompareIndexed { base, key, offsets, rhs, equal } => {
            (values[(*base + offsets[values[*key as usize] as usize]) as usize] == read(rhs, values, constants))
                == *equal
        }
        PlanOp::CompareIndexed2 { base, first, second, width, offsets, rhs, equal } => {
            let key = values[*first as usize] * *width + values[*second as usize];
            (values[(*base + offsets[key as usize]) as usize] == read(rhs, values, constants)) == *equal
        }
        PlanOp::Compare { lhs, rhs, equal } => (read(lhs, values, constants) == read(rhs, values, constants)) == *equal,
        _ => unreachable!("called for comparisons only"),
    }
}

/// A [`ReachPlan::lone_filter`] check that writes nothing, resolved once when the engine is
/// built to the state cells each member reads: "some member passes every test", where test `t`
/// of member `m` is `(values[cells[m * width + t]] == rhs[t]) == equal[t]`. Tic-tac-toe's line
/// test (three tests of `board[lineFirst[line]] == me`, ...) and free-cell test, connect four's
/// `freeSearch` (one test) have this shape.
///
/// Cost: per member, `width` loads of a cell and of its value, and a comparison each, with no
/// plan, node or edge looked up per check and no slot saved or written (a forced keeper walk
/// runs it in place of [`Scratch::reach`], see [`Scratch::keeper_reach`]). Invariant: it answers exactly as
/// [`Scratch::run_lone_filter`] on the same plan (members in the same order, the same tests),
/// which it replaces only when the plan has no hoisted edge (nothing is written before the
/// member loop, so each right-hand side reads the state as the check starts).
#[derive(Clone, Debug)]
pub(crate) struct MemberGrid {
    /// Per member (in the any-assignment's order), the absolute cell of each test.
    cells: Box<[u32]>,
    /// Tests per member: 1 to [`MEMBER_TESTS`].
    width: usize,
    /// Per test, its right-hand side and whether it asks for equality.
    tests: Box<[(MemberRhs, bool)]>,
}

impl MemberGrid {
    /// The grid of `plan`, when it is a lone filter without hoisted edges whose comparisons all
    /// read the state at the member itself (its [`ReachPlan::member_tests`], or a single
    /// `map[member] == constant`).
    pub(crate) fn of(plan: &ReachPlan) -> Option<MemberGrid> {
        let start = plan.nodes.first()?;
        if !plan.lone_filter || plan.slots.len() != 1 || start.hoisted != start.filter.0 {
            return None;
        }
        let PlanOp::SetAny { slot, members } = &plan.edges[start.first as usize].op else {
            return None;
        };
        let chain = &plan.filters[start.hoisted as usize..start.filter.1 as usize];
        let single;
        let tests: &[MemberTest] = match chain {
            [only] => match &plan.edges[*only as usize].op {
                PlanOp::CompareIndexedLit { base, key, offsets, lit, equal } if key == slot => {
                    single = [MemberTest {
                        base: *base,
                        offsets: offsets.clone(),
                        rhs: MemberRhs::Lit(*lit),
                        equal: *equal,
                    }];
                    &single
                }
                _ => return None,
            },
            _ if !plan.member_tests.is_empty() && plan.member_tests.len() == chain.len() => &plan.member_tests,
            _ => return None,
        };
        let mut cells = Vec::with_capacity(members.len() * tests.len());
        for &member in members.iter() {
            for test in tests {
                cells.push(test.base + *test.offsets.get(member as usize)?);
            }
        }
        Some(MemberGrid {
            cells: cells.into_boxed_slice(),
            width: tests.len(),
            tests: tests.iter().map(|test| (test.rhs, test.equal)).collect(),
        })
    }

    /// Whether some member passes every test on `values`.
    #[inline(always)]
    fn any_passes(&self, values: &[SymbolId]) -> bool {
        let mut rhs = [0; MEMBER_TESTS];
        let mut equal = [true; MEMBER_TESTS];
        for ((value, wanted), &(test, is_equal)) in rhs.iter_mut().zip(equal.iter_mut()).zip(self.tests.iter()) {
            *value = test.read(values);
            *wanted = is_equal;
        }
        let holds = |cell: u32, test: usize| (values[cell as usize] == rhs[test]) == equal[test];
        match self.width {
            1 => self.cells.iter().any(|&cell| holds(cell, 0)),
            3 => self.cells.chunks_exact(3).any(|row| holds(row[0], 0) && holds(row[1], 1) && holds(row[2], 2)),
            width => {
                self.cells.chunks_exact(width).any(|row| row.iter().enumerate().all(|(test, &cell)| holds(cell, test)))
            }
        }
    }
}

impl Scratch {
    /// Loads a state into the working buffer.
    pub(crate) fn load(&mut self, node: NodeId, values: &[SymbolId]) {
        self.node = node;
        self.values.clear();
        self.values.extend_from_slice(values);
    }

    /// Makes move `index` of the last search the working state.
    pub(crate) fn take_move(&mut self, index: usize) {
        self.node = self.moves.successor_node(index);
        let values = self.moves.successor_values(index);
        self.values.copy_from_slice(values);
    }

    /// Fills `self.moves` with the moves from the working state (restricted to `only` when given).
    pub(crate) fn search(&mut self, engine: &FastEngine, only: Option<&[SymbolId]>) -> Result<(), EngineError> {
        self.search_with(engine, only, false)
    }

    /// Lists only the tags of the moves (no successor copies); `moves.saw_duplicate` tells when
    /// two paths gave the same tags, whose successors then still need comparing.
    pub(crate) fn search_tags(&mut self, engine: &FastEngine) -> Result<(), EngineError> {
        self.search_with(engine, None, true)
    }

    /// Applies the move from the working state in place when every path of the move search from
    /// its node is forced (module `super`, [`FastEngine`]'s `single_path`): the edges are run
    /// straight on the working state, with no frame, move list or successor copy. The moves found
    /// are those of [`Scratch::search`]: it walks the same single path (a node with exclusive
    /// guards follows the first that holds, as here) and meets the same errors on the way.
    /// A walk longer than [`SINGLE_PATH_STEPS`] edges gives up with the state restored
    /// ([`SinglePath::GaveUp`]): it may be going round a cycle, which only the general search's
    /// visited set stops.
    pub(crate) fn apply_single_path(&mut self, engine: &FastEngine) -> Result<SinglePath, EngineError> {
        self.undo.clear();
        self.tags.clear();
        let result = self.walk_single_path(engine);
        if !matches!(result, Ok(SinglePath::Moved)) {
            self.undo_to(0);
        }
        self.undo.clear();
        self.tags.clear();
        result
    }

    fn walk_single_path(&mut self, engine: &FastEngine) -> Result<SinglePath, EngineError> {
        let (mut first, mut end) = engine.node_edges[self.node as usize];
        let mut steps = 0u32;
        loop {
            // The out-edges of a forced node in order until one holds (at most one can: a single
            // edge, or pairwise exclusive guards, which write nothing when they fail). The
            // commonest edges run inline here; a `? a -> b` / `! a -> b` pair shares one check.
            let mut memo = None;
            let mut edge_id = first;
            let edge = loop {
                if edge_id == end {
                    return Ok(SinglePath::NoMove);
                }
                let edge = &engine.edges[edge_id as usize];
                let values = &self.values;
                let holds = match &edge.hot {
                    Hot::SetSlotLit { slot, lit } => {
                        self.write(*slot as usize, *lit);
                        true
                    }
                    Hot::SetSlotSlot { slot, from } => {
                        let value = values[*from as usize];
                        self.write(*slot as usize, value);
                        true
                    }
                    Hot::SetSlotLookup { slot, key, table } => {
                        let value = table[values[*key as usize] as usize];
                        self.write(*slot as usize, value);
                        true
                    }
                    Hot::CompareSlotLit { slot, lit, equal } => (values[*slot as usize] == *lit) == *equal,
                    Hot::CompareIndexedLit { base, key, offsets, lit, equal } => {
                        (values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal
                    }
                    Hot::General if matches!(edge.ins, Ins::Reach { .. }) => {
                        let Ins::Reach { from, to, negated, context } = &edge.ins else { unreachable!("matched") };
                        self.keeper_reach(engine, &mut memo, (*from, *to, *context))? != *negated
                    }
                    // One call site, so the general edge runner is inlined here once.
                    _ => self.run_edge::<true>(engine, edge_id as usize, 0, 0, None, 0, Some(&mut memo))?,
                };
                if holds {
                    break edge;
                }
                edge_id += 1;
            };
            if edge.completes {
                let player = self.values[engine.player_slot as usize];
                if !engine.valid_player.get(player as usize).copied().unwrap_or(false) {
                    return Err(EngineError::InvalidPlayer {
                        node: engine.automaton.nodes[edge.target as usize].name.clone(),
                        value: engine.automaton.symbol_name(player).to_string(),
                    });
                }
                self.node = edge.target;
                return Ok(SinglePath::Moved);
            }
            steps += 1;
            if steps > SINGLE_PATH_STEPS {
                return Ok(SinglePath::GaveUp);
            }
            (first, end) = edge.target_edges;
        }
    }

    fn search_with(
        &mut self,
        engine: &FastEngine,
        only: Option<&[SymbolId]>,
        tags_only: bool,
    ) -> Result<(), EngineError> {
        self.moves.tags_only = tags_only;
        self.moves.clear(self.values.len());
        self.undo.clear();
        self.tags.clear();
        self.frames.clear();
        let result = match (&engine.linear[self.node as usize], only) {
            (Some(linear), None) => self.explore_linear(engine, linear),
            (None, None) if engine.trees[self.node as usize].is_some() => {
                let tree = engine.trees[self.node as usize].as_deref().expect("checked");
                if self.explore_tree::<false>(engine, tree) {
                    Ok(())
                } else {
                    // An invalid player or an ambiguous move: the general search meets it in
                    // the same place and reports it.
                    self.undo_to(0);
                    self.tags.clear();
                    self.moves.clear(self.values.len());
                    self.explore::<true>(engine, self.node, 0, Goal::Moves { only }).map(|_| ())
                }
            }
            _ => self.explore::<true>(engine, self.node, 0, Goal::Moves { only }).map(|_| ()),
        };
        self.undo_to(0);
        result
    }

    /// The move search of a [`LinearMoves`] node: for each member of the choice (that passes the
    /// filter comparison after it, when it has one, as in [`Scratch::explore`]), the chain's
    /// edges in order, then the move. Leaves the state to [`Scratch::search_with`] to restore.
    fn explore_linear(&mut self, engine: &FastEngine, linear: &LinearMoves) -> Result<(), EngineError> {
        let Hot::SetAnySlot { slot, members } = &engine.edges[linear.choice as usize].hot else {
            unreachable!("linear move searches start with an any-assignment to a slot")
        };
        let slot = *slot as usize;
        if linear.detached && !self.moves.tags_only {
            if self.explore_linear_detached(engine, linear, slot, members) {
                return Ok(());
            }
            // Something the detached run does not decide (an error, most likely): the walk
            // below meets it in the same place and reports it.
            self.moves.clear(self.values.len());
        }
        if self.levels.is_empty() {
            self.levels.push(Level::default());
        }
        self.levels[0].undo_base = 0;
        for &member in members.iter() {
            if linear.filter != NO_EDGE {
                // The comparison writes nothing: run it on the member without logging the write.
                let old = self.values[slot];
                self.values[slot] = member;
                let holds = self.run_edge::<true>(engine, linear.filter as usize, 0, 0, None, 0, None);
                self.values[slot] = old;
                if !holds? {
                    continue;
                }
            }
            self.write(slot, member);
            let mut followed = true;
            for &edge in linear.chain.iter() {
                if !self.run_edge::<true>(engine, edge as usize, 0, 0, None, 0, None)? {
                    followed = false;
                    break;
                }
            }
            if followed {
                // `complete_move` without the look-up by tags (every move's tags differ) and
                // without `only`. (`complete_move` keeps its one call site, in `explore`, where
                // it is inlined.)
                let player = self.values[engine.player_slot as usize];
                if !engine.valid_player.get(player as usize).copied().unwrap_or(false) {
                    return Err(invalid_player(engine, linear.completed, player));
                }
                self.moves.push(&self.tags, linear.completed, &self.values);
            }
            self.undo_to(0);
            self.tags.clear();
        }
        Ok(())
    }

    /// [`Scratch::explore_linear`] for a chain of [`LinearMoves::detached`] edges: each member
    /// passing the filter is written into the working state (without logging; put back at the
    /// end), the state is copied into the move list as the move's successor, and the chain runs
    /// on that copy, its tags going straight into the move list. No undo log, no tag stack, no
    /// second copy. The same edges run on the same states as in the walk, so the moves are the
    /// same; `false` (with the working state unchanged and a partial move list) when an edge
    /// would raise an error or the mover is no player, which the caller leaves to the walk.
    fn explore_linear_detached(
        &mut self,
        engine: &FastEngine,
        linear: &LinearMoves,
        slot: usize,
        members: &[SymbolId],
    ) -> bool {
        let state_len = self.values.len();
        let old = self.values[slot];
        let player_slot = engine.player_slot as usize;
        let mut decided = true;
        for &member in members.iter() {
            self.values[slot] = member;
            if linear.filter != NO_EDGE
                && !detached_holds(&engine.edges[linear.filter as usize], &self.values, &engine.constants)
            {
                continue;
            }
            let moves = &mut self.moves;
            let start = moves.successors.len();
            let tags_start = moves.tags.len();
            moves.successors.extend_from_slice(&self.values);
            let successor = &mut moves.successors[start..start + state_len];
            let mut followed = true;
            for &edge in linear.chain.iter() {
                match run_detached(&engine.edges[edge as usize], successor, &engine.constants, &mut moves.tags) {
                    Some(true) => {}
                    Some(false) => {
                        followed = false;
                        break;
                    }
                    None => {
                        decided = false;
                        break;
                    }
                }
            }
            if !decided {
                break;
            }
            if !followed {
                moves.successors.truncate(start);
                moves.tags.truncate(tags_start);
                continue;
            }
            let player = successor[player_slot];
            if !engine.valid_player.get(player as usize).copied().unwrap_or(false) {
                decided = false;
                break;
            }
            moves.spans.push((tags_start as u32, moves.tags.len() as u32));
            moves.nodes.push(linear.completed);
        }
        self.values[slot] = old;
        decided
    }

    /// The members of an [`LinearMoves::immediate`] search that pass its filter, which are its
    /// moves in order (kept in the scratch for [`Scratch::take_linear_choice`]); their number.
    pub(crate) fn linear_choices(&mut self, engine: &FastEngine, linear: &LinearMoves) -> usize {
        let Hot::SetAnySlot { slot, members } = &engine.edges[linear.choice as usize].hot else {
            unreachable!("linear move searches start with an any-assignment to a slot")
        };
        let slot = *slot as usize;
        self.choices.clear();
        if linear.filter == NO_EDGE {
            self.choices.extend_from_slice(members);
            return members.len();
        }
        let filter = &engine.edges[linear.filter as usize];
        if let Hot::CompareIndexedLit { base, key, offsets, lit, equal } = &filter.hot {
            if *key as usize == slot {
                // The filter reads the map at the member itself (`board[cell] == empty`): the
                // member need not be written, and the comparison is resolved outside the loop.
                let (base, lit, equal) = (*base as usize, *lit, *equal);
                let values = &self.values;
                self.choices.extend(
                    members
                        .iter()
                        .filter(|&&member| (values[base + offsets[member as usize] as usize] == lit) == equal),
                );
                return self.choices.len();
            }
        }
        let old = self.values[slot];
        for &member in members.iter() {
            self.values[slot] = member;
            if detached_holds(filter, &self.values, &engine.constants) {
                self.choices.push(member);
            }
        }
        self.values[slot] = old;
        self.choices.len()
    }

    /// Makes move `pick` of the last [`Scratch::linear_choices`] the working state: the choice's
    /// member written, then the chain run on the working state itself.
    pub(crate) fn take_linear_choice(
        &mut self,
        engine: &FastEngine,
        linear: &LinearMoves,
        pick: usize,
    ) -> Result<(), EngineError> {
        self.take_linear_choice_from(engine, linear, pick, 0)
    }

    /// [`Scratch::take_linear_choice`] with the chain run from its edge `first` on (a listing
    /// whose leading checks held, and write nothing, skips them).
    #[inline(always)]
    pub(crate) fn take_linear_choice_from(
        &mut self,
        engine: &FastEngine,
        linear: &LinearMoves,
        pick: usize,
        first: usize,
    ) -> Result<(), EngineError> {
        let Hot::SetAnySlot { slot, .. } = &engine.edges[linear.choice as usize].hot else {
            unreachable!("linear move searches start with an any-assignment to a slot")
        };
        self.values[*slot as usize] = self.choices[pick];
        self.tags.clear();
        for &edge in linear.chain[first..].iter() {
            if run_detached(&engine.edges[edge as usize], &mut self.values, &engine.constants, &mut self.tags)
                != Some(true)
            {
                return Err(EngineError::Malformed { message: "an immediate move chain stopped".into() });
            }
        }
        self.tags.clear();
        self.node = linear.completed;
        Ok(())
    }

    /// A playout's move listing at a [`MoveTree`] node: the moves' tags and, instead of their
    /// successors, their paths (the member taken at each choice), for
    /// [`Scratch::take_tree_path`]. `false` when the walk hands over to the general search (see
    /// [`Scratch::explore_tree`]) or two moves had the same tags (`moves.saw_duplicate`): the
    /// caller then lists the moves with successors.
    pub(crate) fn search_tree_paths(&mut self, engine: &FastEngine, tree: &MoveTree) -> bool {
        self.moves.tags_only = true;
        self.moves.clear(self.values.len());
        self.undo.clear();
        self.tags.clear();
        self.tree_paths.clear();
        let decided = self.explore_tree::<true>(engine, tree);
        self.undo_to(0);
        self.tags.clear();
        decided && !self.moves.saw_duplicate
    }

    /// Makes move `pick` of the last [`Scratch::search_tree_paths`] the working state: the walk
    /// follows the move's path (its member at each choice; comparisons pick the way as they did,
    /// on the same states) and stops where the move completed, so the state is the successor the
    /// listing with successors records for that move.
    pub(crate) fn take_tree_path(&mut self, engine: &FastEngine, tree: &MoveTree, pick: usize) {
        // The member taken at the k-th choice on the path is digit k of the path's number, in
        // base `radix`, lowest first.
        let mut path = self.tree_paths[pick];
        let values = &mut self.values;
        let mut at = tree.entry;
        while let Some(step) = tree.path_steps.get(at as usize) {
            let holds = match &step.hot {
                Hot::SetAnySlot { slot, members } => {
                    let member = path % tree.radix;
                    path /= tree.radix;
                    values[*slot as usize] = members[member as usize];
                    // The filter held for this member when the move was found.
                    at = step.member_pass[member as usize];
                    continue;
                }
                Hot::CompareSlotLit { slot, lit, equal } => (values[*slot as usize] == *lit) == *equal,
                Hot::CompareIndexedLit { base, key, offsets, lit, equal } => {
                    (values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal
                }
                Hot::TagLit { .. } | Hot::TagSlot { .. } => true,
                Hot::SetSlotLit { slot, lit } => {
                    values[*slot as usize] = *lit;
                    true
                }
                Hot::SetSlotSlot { slot, from } => {
                    values[*slot as usize] = values[*from as usize];
                    true
                }
                Hot::SetSlotLookup { slot, key, table } => {
                    values[*slot as usize] = table[values[*key as usize] as usize];
                    true
                }
                Hot::SetSlotIndexed { slot, base, key, offsets } => {
                    values[*slot as usize] = values[(*base + offsets[values[*key as usize] as usize]) as usize];
                    true
                }
                Hot::SetSlotLookup2 { slot, first, second, width, table } => {
                    values[*slot as usize] =
                        table[(values[*first as usize] * *width + values[*second as usize]) as usize];
                    true
                }
                Hot::CompareSlotIn { .. }
                | Hot::CompareSlotPair { .. }
                | Hot::CompareSlotCell { .. }
                | Hot::SetCellLit { .. }
                | Hot::SetCellSlot { .. } => unreachable!("not a tree step's form (module `tree`, `tree_hot`)"),
                Hot::General => match &engine.edges[step.edge as usize].ins {
                    Ins::Set { target: Target::Fixed(slot), value } => {
                        values[*slot as usize] = read(value, values, &engine.constants);
                        true
                    }
                    Ins::Compare { lhs, rhs, equal } => {
                        (read(lhs, values, &engine.constants) == read(rhs, values, &engine.constants)) == *equal
                    }
                    _ => true,
                },
            };
            if !holds {
                at = step.fail;
                continue;
            }
            if step.pass == TREE_DONE {
                if let Some(player) = step.done_player {
                    // The folded (or skipped) `player = keeper` of the listing.
                    values[engine.player_slot as usize] = player;
                }
                self.node = engine.edges[step.done_edge as usize].target;
                return;
            }
            at = step.pass;
        }
        unreachable!("a recorded path completes its move");
    }

    /// The move search of a [`MoveTree`] node (module `tree`): the general search's depth-first
    /// walk over the tree's steps, with a stack of choices instead of frames. Leaves the state
    /// to [`Scratch::search_with`] to restore; `false` when a move completes with an invalid
    /// player or two moves have the same tags and different successors, which the general
    /// search then reports (the move list is left to the caller to clear).
    // Kept out of line: inlined into its callers it cost the other games' searches and playout
    // loop about 0.5 % (register pressure), for a call per search here.
    #[inline(never)]
    fn explore_tree<const PATHS: bool>(&mut self, engine: &FastEngine, tree: &MoveTree) -> bool {
        // A playout's listing walks the steps with the player writes folded (module `tree`).
        let steps = if PATHS { &tree.path_steps } else { &tree.steps };
        debug_assert!(!PATHS || self.moves.tags_only, "paths are recorded by tags-only listings");
        self.tree_levels.clear();
        // Every buffer borrowed apart once for the whole walk (see `TreeWalk`).
        let levels = &mut self.tree_levels;
        let mut walk = TreeWalk {
            values: &mut self.values,
            undo: &mut self.undo,
            tags: &mut self.tags,
            moves: &mut self.moves,
            tree_paths: &mut self.tree_paths,
        };
        // Where the moves of the root choice's current member start (see `MoveTree::grouped`).
        let mut group_start = 0;
        // The path's number so far, and `radix^k` for the k choices taken on it (see `TreeLevel`).
        let (mut path, mut stride) = (0u64, 1u64);
        let mut at = tree.entry;
        'walk: loop {
            // Forward along the path from `at` until it fails, completes a move or enters a choice.
            while let Some(step) = steps.get(at as usize) {
                if let Hot::SetAnySlot { slot, members } = &step.hot {
                    // Logged once: the members are written over it without logging.
                    walk.undo.push((*slot, walk.values[*slot as usize]));
                    if step.leaf {
                        // No choice below (module `tree`, *Leaf choices*): every member here.
                        let root = stride == 1;
                        if let Some(decided) = walk.walk_leaf_choice::<PATHS>(
                            engine,
                            tree,
                            step,
                            members,
                            root,
                            &mut group_start,
                            path,
                            stride,
                        ) {
                            return decided;
                        }
                        break;
                    }
                    levels.push(TreeLevel {
                        step: at,
                        next_member: 0,
                        undo_mark: walk.undo.len() as u32,
                        tags_len: walk.tags.len() as u32,
                        prefix: path,
                        stride,
                    });
                    break;
                }
                if let Some(next) = walk.run_step::<PATHS>(engine, step) {
                    at = next;
                    continue;
                }
                if step.pass == TREE_DONE {
                    if let Some(decided) = walk.add_move::<PATHS>(engine, tree, step, group_start, path) {
                        return decided;
                    }
                    break;
                }
                at = step.pass;
            }
            // Back to the innermost choice with a member left (that passes its filter).
            loop {
                let Some(level) = levels.last_mut() else { return true };
                let (undo_mark, tags_len) = (level.undo_mark as usize, level.tags_len as usize);
                let mut member = level.next_member as usize;
                let step = level.step as usize;
                // Undone first: a step below may have written the choice's slot too.
                walk.undo_to(undo_mark);
                walk.tags.truncate(tags_len);
                let level = levels.last_mut().expect("just read");
                let step = &steps[step];
                let Hot::SetAnySlot { slot, members } = &step.hot else {
                    unreachable!("a choice is an any-assignment to a fixed slot")
                };
                let slot = *slot as usize;
                if step.filter == NO_EDGE {
                    if member < members.len() {
                        walk.values[slot] = members[member];
                    }
                } else {
                    let filter = &engine.edges[step.filter as usize];
                    match &filter.hot {
                        Hot::CompareIndexedLit { lit, equal, .. } if step.member_cells.len() == members.len() => {
                            // The filter reads the map at the member itself (`board[from] ==
                            // me`): members are tested at their cells (worked out when the tree
                            // was built) without being written.
                            let (cells, lit, equal) = (&step.member_cells[..], *lit, *equal);
                            let values = &*walk.values;
                            while member < cells.len() && (values[cells[member] as usize] == lit) != equal {
                                member += 1;
                            }
                            if member < members.len() {
                                walk.values[slot] = members[member];
                            }
                        }
                        _ => {
                            while member < members.len() {
                                walk.values[slot] = members[member];
                                if detached_holds(filter, walk.values, &engine.constants) {
                                    break;
                                }
                                member += 1;
                            }
                        }
                    }
                }
                if member < members.len() {
                    if level.stride == 1 {
                        // The root choice (only it has no choice before it; `radix` is at
                        // least 2).
                        group_start = walk.moves.len();
                    }
                    // (Kept up without `PATHS` too: `stride` tells the root choice.)
                    path = level.prefix + member as u64 * level.stride;
                    stride = level.stride * tree.radix;
                    if member + 1 == members.len() {
                        // The last member: nothing is left to try here, so a backtrack from
                        // below goes straight to the choice above, whose undo mark and tag
                        // length lie below this one's (its logged slot is put back there).
                        levels.pop();
                    } else {
                        level.next_member = member as u32 + 1;
                    }
                    at = step.member_pass[member];
                    continue 'walk;
                }
                levels.pop();
            }
        }
    }

    #[inline]
    fn write(&mut self, slot: usize, value: SymbolId) {
        let old = self.values[slot];
        if old != value {
            self.undo.push((slot as u32, old));
            self.values[slot] = value;
        }
    }

    #[inline]
    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let (slot, old) = self.undo.pop().expect("length checked");
            self.values[slot as usize] = old;
        }
    }

    #[inline]
    fn target_offset(&self, engine: &FastEngine, target: &Target, edge: usize) -> Result<usize, EngineError> {
        match target {
            Target::Fixed(slot) => Ok(*slot as usize),
            Target::Indexed { base, key, offsets, default_offset, .. } => {
                let block = offsets[self.values[*key as usize] as usize];
                if block == *default_offset {
                    // Rare: let the general path build the error.
                    return self.target_offset_slow(engine, target, edge);
                }
                Ok((*base + block) as usize)
            }
            Target::Path(_) => self.target_offset_slow(engine, target, edge),
        }
    }

    fn target_offset_slow(&self, engine: &FastEngine, target: &Target, edge: usize) -> Result<usize, EngineError> {
        let automaton = &engine.automaton;
        let outside = |key: u32, map_type| {
            let edge = &automaton.edges[edge];
            EngineError::KeyOutsideDomain {
                key: automaton.symbol_name(key).to_string(),
                map_type: type_name(automaton, map_type),
                edge: format!(
                    "`{}` -> `{}`",
                    automaton.nodes[edge.source as usize].name, automaton.nodes[edge.target as usize].name
                ),
            }
        };
        match target {
            Target::Fixed(slot) => Ok(*slot as usize),
            Target::Indexed { key, map_type, .. } => {
                // Only reached when the key is outside the domain.
                Err(outside(self.values[*key as usize], *map_type))
            }
            Target::Path(path) => {
                let mut offset = path.base;
                for step in path.steps.iter() {
                    let key = read(&step.key, &self.values, &engine.constants);
                    let block = step.offsets[key as usize];
                    if block == step.default_offset {
                        return Err(outside(key, step.map_type));
                    }
                    offset += block;
                }
                Ok(offset as usize)
            }
        }
    }

    fn block_read(&self, engine: &FastEngine, path: &Path) -> (usize, bool) {
        (path_offset(path, &self.values, &engine.constants), path.in_state)
    }

    fn slot_at(&self, engine: &FastEngine, in_state: bool, slot: usize) -> u32 {
        if in_state {
            self.values[slot]
        } else {
            engine.constants[slot]
        }
    }

    fn set_block(&mut self, engine: &FastEngine, target: usize, source: &Path, pairs: &Pairs) {
        let (from, in_state) = self.block_read(engine, source);
        match pairs {
            Pairs::Same(size) => {
                for i in 0..*size as usize {
                    let value = self.slot_at(engine, in_state, from + i);
                    self.write(target + i, value);
                }
            }
            Pairs::Mapped(pairs) => {
                // Read everything first: source and target may overlap.
                let read: Vec<u32> =
                    pairs.iter().map(|&(_, src)| self.slot_at(engine, in_state, from + src as usize)).collect();
                for (&(dst, _), value) in pairs.iter().zip(read) {
                    self.write(target + dst as usize, value);
                }
            }
        }
    }

    fn blocks_equal(&self, engine: &FastEngine, lhs: &Path, rhs: &Path, pairs: &Pairs) -> bool {
        let (a, a_in) = self.block_read(engine, lhs);
        let (b, b_in) = self.block_read(engine, rhs);
        match pairs {
            Pairs::Same(size) => {
                (0..*size as usize).all(|i| self.slot_at(engine, a_in, a + i) == self.slot_at(engine, b_in, b + i))
            }
            Pairs::Mapped(pairs) => pairs.iter().all(|&(x, y)| {
                self.slot_at(engine, a_in, a + x as usize) == self.slot_at(engine, b_in, b + y as usize)
            }),
        }
    }

    /// [`Scratch::reach`] through `memo`, the last pair checked among one node's out-edges: a
    /// `? a -> b` / `! a -> b` pair runs the check once.
    #[inline(always)]
    fn reach_memoised(
        &mut self,
        engine: &FastEngine,
        memo: &mut Option<(NodeId, NodeId, bool)>,
        (from, to, context): (NodeId, NodeId, u32),
        depth: usize,
    ) -> Result<bool, EngineError> {
        match *memo {
            Some((f, t, result)) if (f, t) == (from, to) => Ok(result),
            _ => {
                let result = self.reach(engine, from, to, context, depth)?;
                *memo = Some((from, to, result));
                Ok(result)
            }
        }
    }

    /// [`Scratch::reach_memoised`] for a forced keeper walk ([`Scratch::walk_single_path`], at
    /// depth 1): a check with a [`MemberGrid`] runs it straight here (tic-tac-toe's line and
    /// free-cell tests), without `reach`'s call and plan dispatch, which cost about as much as
    /// the check. Only the keeper walk takes this path: in `reach` itself the grid lookup cost
    /// reversi, draughts and chess 2 to 3 % per playout (code layout), for no gain there.
    #[inline(always)]
    fn keeper_reach(
        &mut self,
        engine: &FastEngine,
        memo: &mut Option<(NodeId, NodeId, bool)>,
        (from, to, context): (NodeId, NodeId, u32),
    ) -> Result<bool, EngineError> {
        match (&engine.member_grids[context as usize], *memo) {
            (_, Some((f, t, result))) if (f, t) == (from, to) => Ok(result),
            // `from == to` holds at once, as in `reach`; depth 1 is never too deep.
            (Some(grid), _) if from != to => {
                self.plan_writes += 1;
                let result = grid.any_passes(&self.values);
                *memo = Some((from, to, result));
                Ok(result)
            }
            _ => {
                // A line check (module `lines`) decides here unless it gives up (past a ray's
                // bound, a start outside its tables); then `reach` decides, as before.
                if let (Some(line), true) = (&engine.line_checks[context as usize], from != to) {
                    if let Some(result) = line.run(&self.values) {
                        self.plan_writes += 1;
                        *memo = Some((from, to, result));
                        return Ok(result);
                    }
                }
                self.reach_memoised(engine, memo, (from, to, context), 1)
            }
        }
    }

    pub(super) fn reach(
        &mut self,
        engine: &FastEngine,
        from: NodeId,
        to: NodeId,
        context: u32,
        depth: usize,
    ) -> Result<bool, EngineError> {
        if from == to {
            return Ok(true);
        }
        if depth > MAX_REACH_DEPTH {
            let nodes = &engine.automaton.nodes;
            return Err(EngineError::ReachDepth {
                from: nodes[from as usize].name.clone(),
                to: nodes[to as usize].name.clone(),
            });
        }
        if engine.plan_mode != ReachPlans::Off {
            if let Some(plan) = &engine.plans[context as usize] {
                if let (ReachPlans::On, true, [slot]) = (engine.plan_mode, plan.lone_filter, &plan.slots[..]) {
                    // The commonest plan (tic-tac-toe's lines and free cells, connect four's
                    // `freeSearch`) always decides: straight here, without `run_plan`'s
                    // `Option` around the answer.
                    return self.run_lone_filter_restoring(engine, plan, *slot as usize, depth);
                }
                let planned = self.run_plan(engine, plan, depth);
                if engine.plan_mode == ReachPlans::Checked {
                    let general = self.reach_general(engine, from, to, context, depth);
                    let agree = match (&planned, &general) {
                        (Ok(None), _) => true,
                        (Ok(Some(a)), Ok(b)) => a == b,
                        (Err(a), Err(b)) => a == b,
                        _ => false,
                    };
                    if !agree {
                        let nodes = &engine.automaton.nodes;
                        return Err(EngineError::Malformed {
                            message: format!(
                                "the plan of `? {} -> {}` gave {planned:?}, the general search {general:?}",
                                nodes[from as usize].name, nodes[to as usize].name
                            ),
                        });
                    }
                    return general;
                }
                if let Some(result) = planned? {
                    return Ok(result);
                }
            }
        }
        self.reach_general(engine, from, to, context, depth)
    }

    pub(super) fn reach_general(
        &mut self,
        engine: &FastEngine,
        from: NodeId,
        to: NodeId,
        context: u32,
        depth: usize,
    ) -> Result<bool, EngineError> {
        let mark = self.undo.len();
        let result = self.explore::<false>(engine, from, depth, Goal::Reach { to, context });
        self.undo_to(mark);
        result
    }

    /// A lone filter that writes only its member's `slot` (tic-tac-toe's line test, connect
    /// four's `freeSearch`): [`Scratch::run_lone_filter`] with that one value kept here, not in
    /// `plan_saved`, and put back.
    #[inline(always)]
    fn run_lone_filter_restoring(
        &mut self,
        engine: &FastEngine,
        plan: &ReachPlan,
        slot: usize,
        depth: usize,
    ) -> Result<bool, EngineError> {
        let saved = self.values[slot];
        let result = self.run_lone_filter(engine, plan, depth);
        self.values[slot] = saved;
        result
    }

    /// Walks a reachability plan (module `reach`) from its start; `Ok(None)` when it gave up on a
    /// cycle. The working state is the same afterwards, whatever the outcome.
    // Inlined into `reach` (its one caller but `reach`'s checked mode), as before the lone
    // filter's shortcut there: out of line it took `run_plan_steps` in with it and cost reversi
    // and draughts about 0.8 % per playout.
    #[inline(always)]
    pub(super) fn run_plan(
        &mut self,
        engine: &FastEngine,
        plan: &ReachPlan,
        depth: usize,
    ) -> Result<Option<bool>, EngineError> {
        if let (true, [slot]) = (plan.lone_filter, &plan.slots[..]) {
            return self.run_lone_filter_restoring(engine, plan, *slot as usize, depth).map(Some);
        }
        if let Some(steps) = &plan.steps {
            if let Some(chain) = &steps.cursor {
                // Writes nothing to the state: no slot to save or put back.
                return Ok(chain.run(&self.values));
            }
            if let Some(fan) = &steps.fan {
                // Puts back the few slots it writes itself.
                return Ok(fan.run(&mut self.values));
            }
        }
        let frames_base = self.plan_frames.len();
        let saved_base = self.plan_saved.len();
        for &slot in plan.slots.iter() {
            self.plan_saved.push(self.values[slot as usize]);
        }
        let result = if plan.lone_filter {
            self.run_lone_filter(engine, plan, depth).map(Some)
        } else if let Some(steps) = &plan.steps {
            self.run_plan_steps(engine, plan, steps, depth)
        } else {
            self.walk_plan(engine, plan, depth, frames_base)
        };
        for (i, &slot) in plan.slots.iter().enumerate() {
            self.values[slot as usize] = self.plan_saved[saved_base + i];
        }
        self.plan_saved.truncate(saved_base);
        self.plan_frames.truncate(frames_base);
        result
    }

    /// A plan compiled into [`PlanSteps`]: runs the steps from the entry until the checked node
    /// is reached or every alternative failed; `Ok(None)` past [`CYCLE_STEPS`] steps on cyclic
    /// nodes, as [`Scratch::walk_plan`]. The caller puts the plan's slots back and truncates
    /// `plan_saved` (the save area is pushed after its copy).
    fn run_plan_steps(
        &mut self,
        engine: &FastEngine,
        plan: &ReachPlan,
        program: &PlanSteps,
        depth: usize,
    ) -> Result<Option<bool>, EngineError> {
        let area = self.plan_saved.len();
        self.plan_saved.resize(area + program.saved as usize, 0);
        let mut cycle_steps = CYCLE_STEPS;
        let mut at = program.entry;
        while let Some(step) = program.steps.get(at as usize) {
            if step.cyclic {
                cycle_steps -= 1;
                if cycle_steps == 0 {
                    return Ok(None);
                }
            }
            let values = &mut self.values;
            // The flat arms repeat `ProgramOp::run_flat` on purpose: a catch-all arm calling it
            // (one definition) made the dispatch match twice, +4.8 % chess and +2.0 % reversi
            // instructions per playout (fast_profile callgrind, session 19).
            let holds = match &step.op {
                ProgramOp::SetSlot { slot, from } => {
                    values[*slot as usize] = values[*from as usize];
                    true
                }
                ProgramOp::SetLookup { slot, key, table } => {
                    values[*slot as usize] = table[values[*key as usize] as usize];
                    true
                }
                ProgramOp::SetLookup2 { slot, first, second, width, table } => {
                    values[*slot as usize] =
                        table[(values[*first as usize] * *width + values[*second as usize]) as usize];
                    true
                }
                ProgramOp::SetIndexed { slot, key, offsets } => {
                    values[*slot as usize] = values[offsets[values[*key as usize] as usize] as usize];
                    true
                }
                ProgramOp::IndexedLit { key, offsets, lit, equal } => {
                    (values[offsets[values[*key as usize] as usize] as usize] == *lit) == *equal
                }
                ProgramOp::IndexedSlot { key, offsets, slot, equal } => {
                    (values[offsets[values[*key as usize] as usize] as usize] == values[*slot as usize]) == *equal
                }
                ProgramOp::IndexedLookup { key, offsets, rhs_key, table, equal } => {
                    let lhs = values[offsets[values[*key as usize] as usize] as usize];
                    (lhs == table[values[*rhs_key as usize] as usize]) == *equal
                }
                ProgramOp::Indexed2Lit { first, second, width, offsets, lit, equal } => {
                    let key = values[*first as usize] * *width + values[*second as usize];
                    (values[offsets[key as usize] as usize] == *lit) == *equal
                }
                ProgramOp::Indexed2Lookup { first, second, width, offsets, rhs_key, table, equal } => {
                    let key = values[*first as usize] * *width + values[*second as usize];
                    (values[offsets[key as usize] as usize] == table[values[*rhs_key as usize] as usize]) == *equal
                }
                ProgramOp::SlotLit { slot, lit, equal } => (values[*slot as usize] == *lit) == *equal,
                ProgramOp::LookupLit { key, table, lit, equal } => {
                    (table[values[*key as usize] as usize] == *lit) == *equal
                }
                ProgramOp::Save { at: offset, first, end } => {
                    let saved = &mut self.plan_saved[area + *offset as usize..];
                    for (copy, &slot) in saved.iter_mut().zip(&program.slot_lists[*first as usize..*end as usize]) {
                        *copy = values[slot as usize];
                    }
                    true
                }
                ProgramOp::Restore { at: offset, first, end } => {
                    let saved = &self.plan_saved[area + *offset as usize..];
                    for (&copy, &slot) in saved.iter().zip(&program.slot_lists[*first as usize..*end as usize]) {
                        values[slot as usize] = copy;
                    }
                    true
                }
                ProgramOp::Member(choice) => {
                    let counter = area + choice.counter as usize;
                    let start = if choice.resume { self.plan_saved[counter] as usize + 1 } else { 0 };
                    let saved = &self.plan_saved[area + choice.at as usize..];
                    let restore = &program.slot_lists[choice.first as usize..choice.end as usize];
                    let member = choice.find(values, start, saved, restore);
                    self.plan_saved[counter] = member as SymbolId;
                    member < choice.members.len()
                }
                ProgramOp::Walk(walk) => {
                    if !walk.run(values, &mut cycle_steps) {
                        return Ok(None);
                    }
                    true
                }
                ProgramOp::Edge(edge) => self.plan_edge(engine, &plan.edges[*edge as usize], 0, depth)?,
            };
            at = if holds { step.pass } else { step.fail };
        }
        Ok(Some(at == ACCEPT))
    }

    /// A [`ReachPlan::lone_filter`] check: the assignments that do not depend on the member,
    /// then whether some member passes every comparison of the chain (members in order, as the
    /// walk's frame tries them). The caller puts the plan's slots back.
    fn run_lone_filter(&mut self, engine: &FastEngine, plan: &ReachPlan, depth: usize) -> Result<bool, EngineError> {
        let start = &plan.nodes[0];
        let PlanOp::SetAny { slot, members } = &plan.edges[start.first as usize].op else {
            unreachable!("a lone filter starts with an any-assignment")
        };
        let (first, last) = start.filter;
        let hoisted = start.hoisted as usize;
        for &edge in &plan.filters[first as usize..hoisted] {
            self.plan_edge(engine, &plan.edges[edge as usize], 0, depth)?;
        }
        self.plan_writes += 1;
        let chain = &plan.filters[hoisted..last as usize];
        let slot = *slot as usize;
        if let [only] = chain {
            let op = &plan.edges[*only as usize].op;
            // The map read at the member itself against a constant (`board[cell] == empty`,
            // `top[column] != null`): the member need not be written (the caller puts the slot
            // back either way), so each member is two loads and a comparison.
            if let PlanOp::CompareIndexedLit { base, key, offsets, lit, equal } = op {
                if *key as usize == slot {
                    let (base, lit, equal) = (*base as usize, *lit, *equal);
                    let values = &self.values;
                    return Ok(members
                        .iter()
                        .any(|&member| (values[base + offsets[member as usize] as usize] == lit) == equal));
                }
            }
            for &member in members.iter() {
                self.values[slot] = member;
                if compare_holds(op, &self.values, &engine.constants) {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        if !plan.member_tests.is_empty() {
            // Every comparison reads the state at the member alone (`board[first[line]] == me`):
            // resolved at construction, each is two loads and a comparison per member, the
            // right-hand sides read once here. The member is not written: no test reads its
            // slot, and the caller puts the slot back either way.
            let tests = &plan.member_tests[..];
            let mut rhs = [0; MEMBER_TESTS];
            for (value, test) in rhs.iter_mut().zip(tests) {
                *value = test.rhs.read(&self.values);
            }
            let values = &self.values;
            let holds = |test: &MemberTest, rhs: u32, member: usize| {
                (values[(test.base + test.offsets[member]) as usize] == rhs) == test.equal
            };
            if let [first, second, third] = tests {
                // Three tests (tic-tac-toe's lines) unrolled: no iterator per member.
                let (a, b, c) = (rhs[0], rhs[1], rhs[2]);
                return Ok(members.iter().any(|&member| {
                    let member = member as usize;
                    holds(first, a, member) && holds(second, b, member) && holds(third, c, member)
                }));
            }
            for &member in members.iter() {
                if tests
                    .iter()
                    .zip(&rhs)
                    .all(|(t, &rhs)| (values[(t.base + t.offsets[member as usize]) as usize] == rhs) == t.equal)
                {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        for &member in members.iter() {
            self.values[slot] = member;
            if chain.iter().all(|&edge| compare_holds(&plan.edges[edge as usize].op, &self.values, &engine.constants)) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Runs one plan edge (member `member` of an any-assignment); whether it can be followed.
    #[inline(always)]
    fn plan_edge(
        &mut self,
        engine: &FastEngine,
        edge: &PlanEdge,
        member: usize,
        depth: usize,
    ) -> Result<bool, EngineError> {
        Ok(match &edge.op {
            PlanOp::Set { slot, value } => {
                self.values[*slot as usize] = read(value, &self.values, &engine.constants);
                self.plan_writes += 1;
                true
            }
            // Every comparison form listed (not `op if op.is_comparison()`): a guard would turn
            // this hot match's jump table into a chain of tests.
            PlanOp::Compare { .. }
            | PlanOp::CompareIndexed { .. }
            | PlanOp::CompareIndexedLit { .. }
            | PlanOp::CompareIndexedSlot { .. }
            | PlanOp::CompareIndexedLookup { .. }
            | PlanOp::CompareIndexed2 { .. } => self.plan_compare(engine, &edge.op),
            PlanOp::SetAny { slot, members } => {
                self.values[*slot as usize] = members[member];
                self.plan_writes += 1;
                true
            }
            PlanOp::Skip => true,
            PlanOp::Reach { from, to, negated, context } => {
                self.reach(engine, *from, *to, *context, depth + 1)? != *negated
            }
        })
    }

    /// [`Scratch::plan_edge`] for a chain step (no any-assignment member): through the edge's
    /// flat form when it has one (one dispatch), else through its instruction.
    #[inline(always)]
    fn plan_step(&mut self, engine: &FastEngine, edge: &PlanEdge, depth: usize) -> Result<bool, EngineError> {
        let values = &mut self.values;
        Ok(match &edge.flat {
            PlanFlat::General => return self.plan_edge(engine, edge, 0, depth),
            PlanFlat::SetSlot { slot, from } => {
                values[*slot as usize] = values[*from as usize];
                self.plan_writes += 1;
                true
            }
            PlanFlat::SetLookup { slot, key, table } => {
                values[*slot as usize] = table[values[*key as usize] as usize];
                self.plan_writes += 1;
                true
            }
            PlanFlat::SetLookup2 { slot, first, second, width, table } => {
                values[*slot as usize] = table[(values[*first as usize] * *width + values[*second as usize]) as usize];
                self.plan_writes += 1;
                true
            }
            _ => edge.flat.holds(values).expect("a comparison's flat form"),
        })
    }

    /// Whether the comparison on `edge` holds, through its flat form when it has one.
    #[inline(always)]
    fn plan_test(&self, engine: &FastEngine, edge: &PlanEdge) -> bool {
        match edge.flat.holds(&self.values) {
            Some(holds) => holds,
            None => self.plan_compare(engine, &edge.op),
        }
    }

    /// Whether a plan comparison holds.
    #[inline(always)]
    fn plan_compare(&self, engine: &FastEngine, op: &PlanOp) -> bool {
        compare_holds(op, &self.values, &engine.constants)
    }

    /// Pushes a frame for branching plan node `node`, to try its edges from `next_edge` on.
    #[inline(always)]
    fn push_plan_frame(&mut self, plan: &ReachPlan, node: usize, next_edge: u32) {
        let saved = self.plan_saved.len() as u32;
        let (start, end) = plan.nodes[node].restore;
        for &slot in &plan.restore[start as usize..end as usize] {
            self.plan_saved.push(self.values[slot as usize]);
        }
        self.plan_frames.push(PlanFrame { node: node as u32, next_edge, member: 0, saved, clean_at: self.plan_writes });
    }

    /// A [`NodeKind::Ray`] node's walk (see [`Ray`]): whether the checked node is reached from
    /// it, or `None` (give up, the general search decides) past [`CYCLE_STEPS`] steps. When it is
    /// not reached the stepped slot holds its value from before, as after the walk's frames.
    // Not inlined: in `walk_straight` and `walk_plan` its body cost connect4.hrg, which has no
    // ray, 5 % instructions per playout.
    #[inline(never)]
    fn walk_ray(&mut self, engine: &FastEngine, plan: &ReachPlan, ray: &Ray) -> Option<bool> {
        if let Some(flat) = &ray.flat {
            return self.walk_flat_ray(flat, ray.slot as usize);
        }
        let slot = ray.slot as usize;
        let guard = &plan.edges[ray.guard as usize].op;
        let forward = |values: &[u32]| {
            ray.forward.iter().all(|&edge| compare_holds(&plan.edges[edge as usize].op, values, &engine.constants))
        };
        if !compare_holds(guard, &self.values, &engine.constants) {
            // No step (the common case): the comparisons at the start alone.
            return Some(forward(&self.values));
        }
        self.plan_writes += 1;
        let start = self.values[slot];
        self.ray_positions.clear();
        loop {
            self.ray_positions.push(self.values[slot]);
            if self.ray_positions.len() > CYCLE_STEPS as usize {
                self.values[slot] = start;
                return None;
            }
            self.values[slot] = read(&ray.step, &self.values, &engine.constants);
            if !compare_holds(guard, &self.values, &engine.constants) {
                break;
            }
        }
        if forward(&self.values) {
            return Some(true);
        }
        for index in (0..self.ray_positions.len()).rev() {
            self.values[slot] = self.ray_positions[index];
            if forward(&self.values) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// [`Scratch::walk_ray`] for a [`FlatRay`] ([`FlatRay::walk`]).
    fn walk_flat_ray(&mut self, flat: &FlatRay, slot: usize) -> Option<bool> {
        flat.walk(&mut self.values, slot, &mut self.ray_positions)
    }

    /// A [`NodeKind::Straight`] node's walk: each member in turn, the slots written below put
    /// back before it, followed along its single path; whether the checked node is reached, or
    /// `None` when a ray walk gave up.
    fn walk_straight(
        &mut self,
        engine: &FastEngine,
        plan: &ReachPlan,
        node: usize,
        depth: usize,
    ) -> Result<Option<bool>, EngineError> {
        let branch = &plan.nodes[node];
        let choice = &plan.edges[branch.first as usize];
        let PlanOp::SetAny { slot, members } = &choice.op else {
            unreachable!("a straight node's only edge is an any-assignment")
        };
        let restore = &plan.restore[branch.restore.0 as usize..branch.restore.1 as usize];
        let saved = self.plan_saved.len();
        let program = plan.straights.get(branch.straight as usize);
        // A register walk puts nothing back between members (it writes only the walked slot,
        // which every member sets before reading it), so it needs no copies of `restore`.
        if program.is_none_or(|program| program.register.is_none()) {
            for &s in restore {
                self.plan_saved.push(self.values[s as usize]);
            }
        }
        let mut found = false;
        if let Some(program) = program {
            let copies = &self.plan_saved[saved..];
            let found =
                program.run(&mut self.values, *slot as usize, members, restore, copies, &mut self.ray_positions);
            self.plan_writes += 1;
            self.plan_saved.truncate(saved);
            return Ok(found);
        }
        'members: for (index, &member) in members.iter().enumerate() {
            if index > 0 {
                for (i, &s) in restore.iter().enumerate() {
                    self.values[s as usize] = self.plan_saved[saved + i];
                }
            }
            self.values[*slot as usize] = member;
            self.plan_writes += 1;
            let mut at = choice.target;
            loop {
                if at == ACCEPT {
                    found = true;
                    break 'members;
                }
                let current = &plan.nodes[at as usize];
                match current.kind {
                    NodeKind::Chain => {
                        let edge = &plan.edges[current.first as usize];
                        if !self.plan_step(engine, edge, depth)? {
                            continue 'members;
                        }
                        at = edge.target;
                    }
                    NodeKind::Complement => {
                        let edge = &plan.edges[current.first as usize];
                        at = if self.plan_test(engine, edge) {
                            edge.target
                        } else {
                            plan.edges[current.first as usize + 1].target
                        };
                    }
                    NodeKind::Ray => match self.walk_ray(engine, plan, &plan.rays[current.ray as usize]) {
                        Some(true) => {
                            found = true;
                            break 'members;
                        }
                        Some(false) => continue 'members,
                        None => {
                            self.plan_saved.truncate(saved);
                            return Ok(None);
                        }
                    },
                    _ => continue 'members,
                }
            }
        }
        self.plan_saved.truncate(saved);
        Ok(Some(found))
    }

    fn walk_plan(
        &mut self,
        engine: &FastEngine,
        plan: &ReachPlan,
        depth: usize,
        frames_base: usize,
    ) -> Result<Option<bool>, EngineError> {
        let mut cycle_steps = CYCLE_STEPS;
        let mut node = 0usize;
        loop {
            // Go forward from `node`: `next` is the target of the edge followed, if any.
            let mut current = &plan.nodes[node];
            let mut next = ACCEPT - 1;
            loop {
                if current.cyclic {
                    cycle_steps -= 1;
                    if cycle_steps == 0 {
                        return Ok(None);
                    }
                }
                if current.kind != NodeKind::Chain {
                    break;
                }
                // Chains run without going round the outer loop.
                let edge = &plan.edges[current.first as usize];
                if !self.plan_edge(engine, edge, 0, depth)? {
                    break;
                }
                if edge.target == ACCEPT {
                    return Ok(Some(true));
                }
                node = edge.target as usize;
                current = &plan.nodes[node];
            }
            match current.kind {
                NodeKind::Chain | NodeKind::Dead => {}
                NodeKind::Complement => {
                    let edge = &plan.edges[current.first as usize];
                    let holds = self.plan_compare(engine, &edge.op);
                    next = if holds { edge.target } else { plan.edges[current.first as usize + 1].target };
                }
                NodeKind::Select => {
                    let mut memo: Option<(NodeId, NodeId, bool)> = None;
                    for edge in &plan.edges[current.first as usize..current.end as usize] {
                        let holds = match &edge.op {
                            PlanOp::Reach { from, to, negated, context } => {
                                self.reach_memoised(engine, &mut memo, (*from, *to, *context), depth + 1)? != *negated
                            }
                            _ => self.plan_edge(engine, edge, 0, depth)?,
                        };
                        if holds {
                            next = edge.target;
                            break;
                        }
                    }
                }
                NodeKind::Straight => match self.walk_straight(engine, plan, node, depth)? {
                    Some(true) => return Ok(Some(true)),
                    Some(false) => {}
                    None => return Ok(None),
                },
                NodeKind::Ray => match self.walk_ray(engine, plan, &plan.rays[current.ray as usize]) {
                    Some(true) => return Ok(Some(true)),
                    Some(false) => {}
                    None => return Ok(None),
                },
                NodeKind::Branch if current.guard_first => {
                    // The comparison first, as the frame would run it: only when it holds is
                    // there an alternative (the second edge) to come back for.
                    let guard = &plan.edges[current.first as usize];
                    if self.plan_compare(engine, &guard.op) {
                        self.push_plan_frame(plan, node, current.first + 1);
                        next = guard.target;
                    } else {
                        let other = &plan.edges[current.first as usize + 1];
                        if self.plan_edge(engine, other, 0, depth)? {
                            next = other.target;
                        }
                    }
                }
                NodeKind::Branch => self.push_plan_frame(plan, node, current.first),
            }
            if next == ACCEPT {
                return Ok(Some(true));
            }
            if next != ACCEPT - 1 {
                node = next as usize;
                continue;
            }
            // Backtrack: the next edge (or member) of the innermost frame that has one.
            loop {
                if self.plan_frames.len() == frames_base {
                    return Ok(Some(false));
                }
                let frame = self.plan_frames.last_mut().expect("length checked");
                let branch = &plan.nodes[frame.node as usize];
                if frame.next_edge == branch.end {
                    self.plan_saved.truncate(frame.saved as usize);
                    self.plan_frames.pop();
                    continue;
                }
                if frame.clean_at != self.plan_writes {
                    frame.clean_at = self.plan_writes;
                    let saved = frame.saved as usize;
                    let (start, end) = branch.restore;
                    for (i, &slot) in plan.restore[start as usize..end as usize].iter().enumerate() {
                        self.values[slot as usize] = self.plan_saved[saved + i];
                    }
                }
                // Guards only lead somewhere when they hold: run a row of them here, without
                // going round the loop for each.
                let mut guard_held = None;
                while frame.next_edge < branch.end {
                    let edge = &plan.edges[frame.next_edge as usize];
                    if !edge.op.is_comparison() {
                        break;
                    }
                    frame.next_edge += 1;
                    if compare_holds(&edge.op, &self.values, &engine.constants) {
                        guard_held = Some(edge.target);
                        break;
                    }
                }
                match guard_held {
                    Some(ACCEPT) => return Ok(Some(true)),
                    Some(target) => {
                        node = target as usize;
                        break;
                    }
                    None if frame.next_edge == branch.end => continue,
                    None => {}
                }
                let edge = &plan.edges[frame.next_edge as usize];
                let mut member = frame.member as usize;
                if let PlanOp::SetAny { members, slot } = &edge.op {
                    let (first, last) = branch.filter;
                    if first != last {
                        // Skip the members failing the chain up to its first comparison; the
                        // edges that do not depend on the member run once.
                        let hoisted = branch.hoisted as usize;
                        for &e in &plan.filters[first as usize..hoisted] {
                            self.plan_edge(engine, &plan.edges[e as usize], 0, depth)?;
                        }
                        let chain = &plan.filters[hoisted..last as usize];
                        self.plan_writes += 1;
                        if let [only] = chain {
                            // Just the comparison (`cell = Cell(*); board[cell] == empty`).
                            let op = &plan.edges[*only as usize].op;
                            while member < members.len() {
                                self.values[*slot as usize] = members[member];
                                if compare_holds(op, &self.values, &engine.constants) {
                                    break;
                                }
                                member += 1;
                            }
                        } else if let Some((step_slot, step, op)) = assign_then_compare(plan, chain) {
                            // One assignment, then the comparison (`cursor = step[dir][origin];
                            // board[cursor] == ...`): both run inline, without a dispatch per edge.
                            if let Some(ray) = FlatStep::of(*slot as usize, step_slot, step, op, &self.values) {
                                // Resolved once: `table2[..][..]` then `map[cell] == rhs`, with
                                // the right-hand side read before the loop (no member changes it).
                                while member < members.len() {
                                    if ray.holds(&mut self.values, members[member]) {
                                        break;
                                    }
                                    member += 1;
                                }
                            } else {
                                while member < members.len() {
                                    self.values[*slot as usize] = members[member];
                                    self.values[step_slot] = read(step, &self.values, &engine.constants);
                                    if compare_holds(op, &self.values, &engine.constants) {
                                        break;
                                    }
                                    member += 1;
                                }
                            }
                        } else if branch.filter_compares {
                            // Comparisons only (`board[first[line]] == me; board[second[line]]
                            // == me; ...`): each member runs them in a row, without a dispatch
                            // per edge.
                            'members: while member < members.len() {
                                self.values[*slot as usize] = members[member];
                                for &e in chain {
                                    if !compare_holds(&plan.edges[e as usize].op, &self.values, &engine.constants) {
                                        member += 1;
                                        continue 'members;
                                    }
                                }
                                break;
                            }
                        } else {
                            while member < members.len() {
                                self.values[*slot as usize] = members[member];
                                let mut passed = true;
                                for &e in chain {
                                    if !self.plan_edge(engine, &plan.edges[e as usize], 0, depth)? {
                                        passed = false;
                                        break;
                                    }
                                }
                                if passed {
                                    break;
                                }
                                member += 1;
                            }
                        }
                        let frame = self.plan_frames.last_mut().expect("length checked");
                        if !step_member(&mut frame.next_edge, &mut frame.member, member, members.len()) {
                            continue;
                        }
                        let target = plan.edges[*chain.last().expect("non-empty") as usize].target;
                        if target == ACCEPT {
                            return Ok(Some(true));
                        }
                        node = target as usize;
                        break;
                    }
                    if !step_member(&mut frame.next_edge, &mut frame.member, member, members.len()) {
                        continue;
                    }
                } else {
                    frame.next_edge += 1;
                    member = 0;
                }
                if self.plan_edge(engine, edge, member, depth)? {
                    if edge.target == ACCEPT {
                        return Ok(Some(true));
                    }
                    node = edge.target as usize;
                    break;
                }
            }
        }
    }

    fn mark_visited(&mut self, level: usize, node: NodeId, tags_base: usize) -> bool {
        // The slots changed since the level's search started, with their values now, by slot:
        // the first undo entry of a slot after the base holds its start value.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.slot_stamp.len() != self.values.len() {
            self.slot_stamp.clear();
            self.slot_stamp.resize(self.values.len(), 0);
            self.stamp = 1;
        }
        self.diff.clear();
        for &(slot, start_value) in &self.undo[self.levels[level].undo_base..] {
            let seen = &mut self.slot_stamp[slot as usize];
            if *seen != self.stamp {
                *seen = self.stamp;
                let now = self.values[slot as usize];
                if now != start_value {
                    self.diff.push((slot, now));
                }
            }
        }
        self.diff.sort_unstable();
        let tags = &self.tags[tags_base..];
        self.levels[level].visited.insert(node, tags, &self.diff)
    }

    // Always inlined: out of line (as `#[inline]` left it once the switch was added) the call
    // cost amazons 4 % and pentago 2 % more instructions per playout.
    #[inline(always)]
    fn push_frame(&mut self, engine: &FastEngine, node: NodeId, tags_len: usize) {
        let (mut start, mut end) = engine.node_edges[node as usize];
        if let Some(switch) = &engine.switches[node as usize] {
            // Only the out-edges from the first that holds to the last that does (the others
            // fail on this state, which every out-edge of the frame starts from); none: a dead
            // end. The loop runs the guards in between as usual, so it needs no test of its own.
            let mask = switch.masks[self.values[switch.slot as usize] as usize];
            if mask == 0 {
                return;
            }
            end = start + (u32::BITS - mask.leading_zeros());
            start += mask.trailing_zeros();
        }
        let frame = Frame {
            next_edge: start,
            end_edge: end,
            member: 0,
            undo_mark: self.undo.len() as u32,
            tags_len: tags_len as u32,
        };
        self.frames.push(frame);
    }

    /// Records the move completed on an edge into `target` (when it fits `only`).
    fn complete_move(
        &mut self,
        engine: &FastEngine,
        start: NodeId,
        target: NodeId,
        tags_base: usize,
        only: Option<&[SymbolId]>,
    ) -> Result<(), EngineError> {
        let tags = &self.tags[tags_base..];
        if only.is_some_and(|only| only.len() != tags.len()) {
            return Ok(());
        }
        let player = self.values[engine.player_slot as usize];
        if !engine.valid_player.get(player as usize).copied().unwrap_or(false) {
            return Err(EngineError::InvalidPlayer {
                node: engine.automaton.nodes[target as usize].name.clone(),
                value: engine.automaton.symbol_name(player).to_string(),
            });
        }
        if self.moves.add(tags, target, &self.values).is_err() {
            return Err(EngineError::AmbiguousMove {
                node: engine.automaton.nodes[start as usize].name.clone(),
                tags: crate::engine::format_move(&engine.automaton, tags),
            });
        }
        Ok(())
    }

    /// Runs one edge's instruction (branch `member` of an any-assignment) on the working state;
    /// `false` when a guard fails. `reach_memo` is given for the edges of the frame on top, whose
    /// siblings all start from the same state.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run_edge<const MOVES: bool>(
        &mut self,
        engine: &FastEngine,
        edge_id: usize,
        member: usize,
        level: usize,
        only: Option<&[SymbolId]>,
        tags_base: usize,
        reach_memo: Option<&mut Option<(NodeId, NodeId, bool)>>,
    ) -> Result<bool, EngineError> {
        let edge = &engine.edges[edge_id];
        match &edge.hot {
            Hot::General => {}
            Hot::SetSlotLit { slot, lit } => {
                self.write(*slot as usize, *lit);
                return Ok(true);
            }
            Hot::SetSlotSlot { slot, from } => {
                self.write(*slot as usize, self.values[*from as usize]);
                return Ok(true);
            }
            Hot::SetSlotLookup { slot, key, table } => {
                self.write(*slot as usize, table[self.values[*key as usize] as usize]);
                return Ok(true);
            }
            Hot::SetSlotIndexed { slot, base, key, offsets } => {
                let values = &self.values;
                let value = values[(*base + offsets[values[*key as usize] as usize]) as usize];
                self.write(*slot as usize, value);
                return Ok(true);
            }
            Hot::SetSlotLookup2 { slot, first, second, width, table } => {
                let values = &self.values;
                let value = table[(values[*first as usize] * *width + values[*second as usize]) as usize];
                self.write(*slot as usize, value);
                return Ok(true);
            }
            Hot::SetAnySlot { slot, members } => {
                self.write(*slot as usize, members[member]);
                return Ok(true);
            }
            Hot::TagLit { lit } => return self.push_tag::<MOVES>(engine, edge.target, *lit, only, tags_base),
            Hot::TagSlot { slot } => {
                let tag = self.values[*slot as usize];
                return self.push_tag::<MOVES>(engine, edge.target, tag, only, tags_base);
            }
            Hot::CompareSlotLit { slot, lit, equal } => return Ok((self.values[*slot as usize] == *lit) == *equal),
            Hot::CompareIndexedLit { base, key, offsets, lit, equal } => {
                let values = &self.values;
                return Ok((values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal);
            }
            Hot::CompareSlotIn { slot, pass } => return Ok(pass[self.values[*slot as usize] as usize]),
            Hot::CompareSlotPair { first, second, width, pass } => {
                let values = &self.values;
                return Ok(pass[(values[*first as usize] * *width + values[*second as usize]) as usize]);
            }
            Hot::CompareSlotCell { slot, key, width, cells, pass } => {
                let values = &self.values;
                let cell = values[cells[values[*key as usize] as usize] as usize];
                return Ok(pass[(values[*slot as usize] * *width + cell) as usize]);
            }
            Hot::SetCellLit { key, lit, outside, cells } => {
                let cell = cells[self.values[*key as usize] as usize];
                if cell != *outside {
                    self.write(cell as usize, *lit);
                    return Ok(true);
                }
            }
            Hot::SetCellSlot { key, from, outside, cells } => {
                let cell = cells[self.values[*key as usize] as usize];
                if cell != *outside {
                    self.write(cell as usize, self.values[*from as usize]);
                    return Ok(true);
                }
            }
        }
        Ok(match &edge.ins {
            Ins::Skip => true,
            Ins::Set { target: place, value } => {
                let value = read(value, &self.values, &engine.constants);
                let slot = self.target_offset(engine, place, edge_id)?;
                self.write(slot, value);
                true
            }
            Ins::Compare { lhs, rhs, equal } => {
                (read(lhs, &self.values, &engine.constants) == read(rhs, &self.values, &engine.constants)) == *equal
            }
            Ins::SetAny { target: place, members } => {
                let slot = self.target_offset(engine, place, edge_id)?;
                self.write(slot, members[member]);
                true
            }
            Ins::SetBlock { target: place, source, pairs } => {
                let slot = self.target_offset(engine, place, edge_id)?;
                self.set_block(engine, slot, source, pairs);
                true
            }
            Ins::CompareBlock { lhs, rhs, pairs, equal } => self.blocks_equal(engine, lhs, rhs, pairs) == *equal,
            Ins::Reach { from, to, negated, context } => {
                let reachable = match reach_memo {
                    Some(memo) => self.reach_memoised(engine, memo, (*from, *to, *context), level + 1)?,
                    None => self.reach(engine, *from, *to, *context, level + 1)?,
                };
                reachable != *negated
            }
            Ins::Tag(symbol) => self.push_tag::<MOVES>(engine, edge.target, *symbol, only, tags_base)?,
            Ins::TagVal(value) => {
                let tag = read(value, &self.values, &engine.constants);
                self.push_tag::<MOVES>(engine, edge.target, tag, only, tags_base)?
            }
        })
    }

    /// Appends a tag to the move being built (move searches only); `false` when it leaves the
    /// tags `only` asks for.
    #[inline(always)]
    fn push_tag<const MOVES: bool>(
        &mut self,
        engine: &FastEngine,
        target: NodeId,
        tag: SymbolId,
        only: Option<&[SymbolId]>,
        tags_base: usize,
    ) -> Result<bool, EngineError> {
        if !MOVES {
            return Ok(true);
        }
        let position = self.tags.len() - tags_base;
        if position >= MAX_MOVE_TAGS {
            return Err(EngineError::TagCycle { node: engine.automaton.nodes[target as usize].name.clone() });
        }
        self.tags.push(tag);
        Ok(only.is_none_or(|only| only.get(position) == Some(&tag)))
    }

    /// The search proper: for `Goal::Reach`, whether the target is reachable; for `Goal::Moves`
    /// it fills `self.moves` and returns `false`.
    /// `MOVES` tells the goal's kind, so that the loop tests no enum.
    fn explore<const MOVES: bool>(
        &mut self,
        engine: &FastEngine,
        start: NodeId,
        level: usize,
        goal: Goal,
    ) -> Result<bool, EngineError> {
        debug_assert_eq!(MOVES, matches!(goal, Goal::Moves { .. }));
        let (only, to) = match goal {
            Goal::Moves { only } => (only, NO_NODE),
            Goal::Reach { to, .. } => (None, to),
        };
        if self.levels.len() <= level {
            self.levels.resize_with(level + 1, Level::default);
        }
        let frame_base = self.frames.len();
        let tags_base = self.tags.len();
        self.levels[level].undo_base = self.undo.len();
        let (context, cycle_bit) = match goal {
            Goal::Moves { .. } => (&engine.contexts[0], CYCLE_IN_MOVES),
            Goal::Reach { context, .. } => (&engine.contexts[context as usize], CYCLE_IN_CHECKS),
        };
        let mut visited_used = false;
        let mut deferrals_left = RECORD_DEFERRALS;
        if context.flags[start as usize] & CYCLIC != 0 {
            self.levels[level].visited.clear();
            visited_used = true;
            self.mark_visited(level, start, tags_base);
        }
        self.push_frame(engine, start, tags_base);
        // The last reachability result, valid while the frame it was computed in is on top: every
        // out-edge of a frame starts from the same restored state.
        let mut reach_memo: Option<(NodeId, NodeId, bool)> = None;

        while self.frames.len() > frame_base {
            let frame = self.frames.last_mut().expect("length checked");
            if frame.next_edge == frame.end_edge {
                self.frames.pop();
                reach_memo = None;
                continue;
            }
            let (undo_mark, tags_len) = (frame.undo_mark as usize, frame.tags_len as usize);
            let edge_id = frame.next_edge as usize;
            let edge = &engine.edges[edge_id];
            let mut member = 0;
            if let Ins::SetAny { members, target } = &edge.ins {
                member = frame.member as usize;
                if member >= members.len() {
                    frame.next_edge += 1;
                    frame.member = 0;
                    continue;
                }
                if edge.filter != NO_EDGE {
                    // Skip the members that fail the comparison right after the assignment
                    // without running the search loop for each (most members fail it).
                    let filter = &engine.edges[edge.filter as usize];
                    let (Target::Fixed(slot), Ins::Compare { lhs, rhs, equal }) = (target, &filter.ins) else {
                        unreachable!("filters are set only for this shape")
                    };
                    self.undo_to(undo_mark);
                    let slot = *slot as usize;
                    let old = self.values[slot];
                    if let Hot::CompareIndexedLit { base, key, offsets, lit, equal } = &filter.hot {
                        // The commonest filter (`board[cell] == empty`), without operand dispatch.
                        while member < members.len() {
                            self.values[slot] = members[member];
                            let values = &self.values;
                            if (values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal {
                                break;
                            }
                            member += 1;
                        }
                    } else if let Hot::CompareSlotCell { slot: other, key, width, cells, pass } = &filter.hot {
                        // A cell against another slot (`ownerOf[board[from]] == me`).
                        if *key as usize == slot && *other as usize != slot {
                            // The cell is the member's own and the row is fixed: one read each.
                            let row = &pass[(self.values[*other as usize] * *width) as usize..];
                            while member < members.len() {
                                if row[self.values[cells[members[member] as usize] as usize] as usize] {
                                    break;
                                }
                                member += 1;
                            }
                        } else {
                            while member < members.len() {
                                self.values[slot] = members[member];
                                let values = &self.values;
                                let cell = values[cells[values[*key as usize] as usize] as usize];
                                if pass[(values[*other as usize] * *width + cell) as usize] {
                                    break;
                                }
                                member += 1;
                            }
                        }
                    } else {
                        while member < members.len() {
                            self.values[slot] = members[member];
                            if (read(lhs, &self.values, &engine.constants)
                                == read(rhs, &self.values, &engine.constants))
                                == *equal
                            {
                                break;
                            }
                            member += 1;
                        }
                    }
                    self.values[slot] = old;
                }
                let frame = self.frames.last_mut().expect("length checked");
                if !step_member(&mut frame.next_edge, &mut frame.member, member, members.len()) {
                    continue;
                }
            } else {
                frame.next_edge += 1;
            }
            self.undo_to(undo_mark);
            self.tags.truncate(tags_len);

            if !self.run_edge::<MOVES>(engine, edge_id, member, level, only, tags_base, Some(&mut reach_memo))? {
                continue;
            }
            // Follow the path from the edge's target: through nodes with a single out-edge the
            // search runs on without a frame (a failure backtracks to the frame on top, which
            // restores the state from its undo mark); a frame is pushed at branching nodes.
            let mut edge = &engine.edges[edge_id];
            if edge.filter != NO_EDGE
                && !edge.completes
                && edge.target_on_cycle & cycle_bit == 0
                && (MOVES || to != edge.target)
            {
                // The filter has just seen the comparison hold on this very state (the member
                // written after the frame's undo mark): go on from the comparison's target,
                // since nothing happens at the node in between.
                edge = &engine.edges[edge.filter as usize];
            }
            loop {
                let target = edge.target;
                if !MOVES {
                    if target == to {
                        self.frames.truncate(frame_base);
                        self.tags.truncate(tags_base);
                        return Ok(true);
                    }
                } else if edge.completes {
                    self.complete_move(engine, start, target, tags_base, only)?;
                    if self.moves.saw_duplicate {
                        // Tags-only listing cannot tell a repeated move from an ambiguous
                        // one: stop here, the caller redoes the search with successors.
                        self.frames.truncate(frame_base);
                        self.tags.truncate(tags_base);
                        return Ok(false);
                    }
                    break;
                }
                if edge.target_on_cycle & cycle_bit != 0 && context.must_record(target, start, &self.values) {
                    if deferrals_left > 0 && context.may_defer(target) {
                        deferrals_left -= 1;
                    } else {
                        if !visited_used {
                            self.levels[level].visited.clear();
                            visited_used = true;
                        }
                        if !self.mark_visited(level, target, tags_base) {
                            break;
                        }
                    }
                }
                if edge.target_chains {
                    let first = edge.target_edges.0;
                    if !self.run_edge::<MOVES>(engine, first as usize, 0, level, only, tags_base, None)? {
                        break;
                    }
                    edge = &engine.edges[first as usize];
                    continue;
                }
                if edge.target_selects != 0 {
                    // At most one out-edge holds: follow it without a frame.
                    let (first, end) = edge.target_edges;
                    if edge.target_selects == SELECTS_BY_SWITCH {
                        // The switch names it (its guards are pure: nothing to run).
                        let switch = engine.switches[target as usize].as_deref().expect("a switch");
                        match switch.masks[self.values[switch.slot as usize] as usize] {
                            0 => break,
                            mask => {
                                edge = &engine.edges[(first + mask.trailing_zeros()) as usize];
                                continue;
                            }
                        }
                    }
                    let mut memo = None;
                    let mut chosen = None;
                    for next in first..end {
                        if self.run_edge::<MOVES>(engine, next as usize, 0, level, only, tags_base, Some(&mut memo))? {
                            chosen = Some(next as usize);
                            break;
                        }
                    }
                    match chosen {
                        Some(next) => {
                            edge = &engine.edges[next];
                            continue;
                        }
                        None => break,
                    }
                }
                let tags_len = self.tags.len();
                self.push_frame(engine, target, tags_len);
                reach_memo = None;
                break;
            }
        }
        self.tags.truncate(tags_base);
        Ok(false)
    }
}

/// Whether `edge` can run detached from the search (see [`LinearMoves::detached`]): on a bare
/// slot buffer, its tags appended to a list, with no undo log, reachability check or block copy.
pub(crate) fn runs_detached(edge: &super::FastEdge) -> bool {
    match (&edge.hot, &edge.ins) {
        (Hot::SetAnySlot { .. }, _) => false,
        (Hot::General, Ins::Set { target, .. }) => matches!(target, Target::Fixed(_) | Target::Indexed { .. }),
        (Hot::General, ins) => matches!(ins, Ins::Skip | Ins::Compare { .. } | Ins::Tag(_) | Ins::TagVal(_)),
        _ => true,
    }
}

/// Whether `edge` can neither fail nor raise an error (see [`LinearMoves::immediate`]): an
/// assignment to a fixed slot (to `player` only of a valid player literal), a tag or a skip.
pub(crate) fn never_fails(edge: &super::FastEdge, player_slot: u32, valid_player: &[bool]) -> bool {
    match &edge.hot {
        Hot::SetSlotLit { slot, lit } => {
            *slot != player_slot || valid_player.get(*lit as usize).copied().unwrap_or(false)
        }
        Hot::SetSlotSlot { slot, .. }
        | Hot::SetSlotLookup { slot, .. }
        | Hot::SetSlotIndexed { slot, .. }
        | Hot::SetSlotLookup2 { slot, .. } => *slot != player_slot,
        Hot::TagLit { .. } | Hot::TagSlot { .. } => true,
        Hot::SetAnySlot { .. }
        | Hot::CompareSlotLit { .. }
        | Hot::CompareIndexedLit { .. }
        | Hot::CompareSlotIn { .. }
        | Hot::CompareSlotPair { .. }
        | Hot::CompareSlotCell { .. }
        | Hot::SetCellLit { .. }
        | Hot::SetCellSlot { .. } => false,
        Hot::General => match &edge.ins {
            Ins::Skip | Ins::Tag(_) | Ins::TagVal(_) => true,
            Ins::Set { target: Target::Fixed(slot), .. } => *slot != player_slot,
            _ => false,
        },
    }
}

/// Whether the comparison of a filter edge holds on `values` (a [`runs_detached`] edge).
#[inline(always)]
pub(super) fn detached_holds(edge: &super::FastEdge, values: &[u32], constants: &[u32]) -> bool {
    match &edge.hot {
        Hot::CompareSlotLit { slot, lit, equal } => (values[*slot as usize] == *lit) == *equal,
        Hot::CompareIndexedLit { base, key, offsets, lit, equal } => {
            (values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal
        }
        _ => match &edge.ins {
            Ins::Compare { lhs, rhs, equal } => {
                (read(lhs, values, constants) == read(rhs, values, constants)) == *equal
            }
            _ => unreachable!("a filter is a comparison (`FastEdge::filter`)"),
        },
    }
}

/// Runs a [`runs_detached`] edge on `values`, appending its tag to `tags`: whether it can be
/// followed, or `None` when it would raise an error (a key outside a map's domain), which the
/// caller leaves to the general search to report.
#[inline(always)]
pub(super) fn run_detached(
    edge: &super::FastEdge,
    values: &mut [u32],
    constants: &[u32],
    tags: &mut Vec<SymbolId>,
) -> Option<bool> {
    match &edge.hot {
        // The tabulated comparisons and cell writes run as their general instruction below
        // (these searches' code and instruction counts were tuned with it).
        Hot::General
        | Hot::CompareSlotIn { .. }
        | Hot::CompareSlotPair { .. }
        | Hot::CompareSlotCell { .. }
        | Hot::SetCellLit { .. }
        | Hot::SetCellSlot { .. } => {}
        Hot::SetSlotLit { slot, lit } => {
            values[*slot as usize] = *lit;
            return Some(true);
        }
        Hot::SetSlotSlot { slot, from } => {
            values[*slot as usize] = values[*from as usize];
            return Some(true);
        }
        Hot::SetSlotLookup { slot, key, table } => {
            values[*slot as usize] = table[values[*key as usize] as usize];
            return Some(true);
        }
        Hot::SetSlotIndexed { slot, base, key, offsets } => {
            values[*slot as usize] = values[(*base + offsets[values[*key as usize] as usize]) as usize];
            return Some(true);
        }
        Hot::SetSlotLookup2 { slot, first, second, width, table } => {
            values[*slot as usize] = table[(values[*first as usize] * *width + values[*second as usize]) as usize];
            return Some(true);
        }
        Hot::SetAnySlot { .. } => return None,
        Hot::TagLit { lit } => {
            tags.push(*lit);
            return Some(true);
        }
        Hot::TagSlot { slot } => {
            tags.push(values[*slot as usize]);
            return Some(true);
        }
        Hot::CompareSlotLit { slot, lit, equal } => return Some((values[*slot as usize] == *lit) == *equal),
        Hot::CompareIndexedLit { base, key, offsets, lit, equal } => {
            return Some((values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal);
        }
    }
    Some(match &edge.ins {
        Ins::Skip => true,
        Ins::Set { target, value } => {
            let value = read(value, values, constants);
            let offset = match target {
                Target::Fixed(slot) => *slot,
                Target::Indexed { base, key, offsets, default_offset, .. } => {
                    let block = offsets[values[*key as usize] as usize];
                    if block == *default_offset {
                        return None;
                    }
                    *base + block
                }
                Target::Path(_) => return None,
            };
            values[offset as usize] = value;
            true
        }
        Ins::Compare { lhs, rhs, equal } => (read(lhs, values, constants) == read(rhs, values, constants)) == *equal,
        Ins::Tag(symbol) => {
            tags.push(*symbol);
            true
        }
        Ins::TagVal(value) => {
            tags.push(read(value, values, constants));
            true
        }
        _ => return None,
    })
}

/// The error for a move completed into `target` with `player` holding no player.
#[cold]
fn invalid_player(engine: &FastEngine, target: NodeId, player: SymbolId) -> EngineError {
    EngineError::InvalidPlayer {
        node: engine.automaton.nodes[target as usize].name.clone(),
        value: engine.automaton.symbol_name(player).to_string(),
    }
}

/// A filter chain that is one assignment to a fixed slot followed by one comparison: the slot,
/// the assigned value and the comparison.
#[inline(always)]
fn assign_then_compare<'p>(plan: &'p ReachPlan, chain: &[u32]) -> Option<(usize, &'p Val, &'p PlanOp)> {
    let [assign, compare] = chain else { return None };
    let PlanOp::Set { slot, value } = &plan.edges[*assign as usize].op else { return None };
    let op = &plan.edges[*compare as usize].op;
    op.is_comparison().then_some((*slot as usize, value, op))
}

/// A filter chain `slot = member; step_slot = table[values[first] * width + values[second]];
/// values[base + offsets[values[step_slot]]] == rhs` (reversi's `dir = Dir(*); cursor =
/// step[dir][origin]; board[cursor] == other[who]`) with its operands resolved before the member
/// loop: one row of loads and a comparison per member, no dispatch. `rhs` reads neither written
/// slot, so it is read once. Each member writes both slots, as the edges would.
struct FlatStep<'p> {
    slot: usize,
    step_slot: usize,
    first: usize,
    second: usize,
    width: u32,
    table: &'p [u32],
    base: u32,
    offsets: &'p [u32],
    rhs: u32,
    equal: bool,
}

impl<'p> FlatStep<'p> {
    #[inline(always)]
    fn of(slot: usize, step_slot: usize, step: &'p Val, op: &'p PlanOp, values: &[u32]) -> Option<Self> {
        let Val::Lookup2Slots { first, second, width, table } = step else { return None };
        let (base, key, offsets, rhs, equal) = match op {
            PlanOp::CompareIndexedLit { base, key, offsets, lit, equal } => (base, key, offsets, *lit, equal),
            PlanOp::CompareIndexedSlot { base, key, offsets, slot: rhs, equal }
                if *rhs as usize != slot && *rhs as usize != step_slot =>
            {
                (base, key, offsets, values[*rhs as usize], equal)
            }
            PlanOp::CompareIndexedLookup { base, key, offsets, rhs_key, table, equal }
                if *rhs_key as usize != slot && *rhs_key as usize != step_slot =>
            {
                (base, key, offsets, table[values[*rhs_key as usize] as usize], equal)
            }
            _ => return None,
        };
        let (first, second) = (*first as usize, *second as usize);
        if *key as usize != step_slot || step_slot == slot || first == step_slot || second == step_slot {
            return None;
        }
        Some(FlatStep {
            slot,
            step_slot,
            first,
            second,
            width: *width,
            table,
            base: *base,
            offsets,
            rhs,
            equal: *equal,
        })
    }

    /// Runs the chain for `member`: whether the comparison holds.
    #[inline(always)]
    fn holds(&self, values: &mut [u32], member: u32) -> bool {
        values[self.slot] = member;
        let cell = self.table[(values[self.first] * self.width + values[self.second]) as usize];
        values[self.step_slot] = cell;
        (values[(self.base + self.offsets[cell as usize]) as usize] == self.rhs) == self.equal
    }
}

/// Moves an any-assignment frame past `member`, the member about to be followed: to the next
/// member, or to the frame's next edge after the last one. False when no member was left.
#[inline(always)]
fn step_member(next_edge: &mut u32, next_member: &mut u32, member: usize, members: usize) -> bool {
    if member + 1 >= members {
        *next_edge += 1;
        *next_member = 0;
        member < members
    } else {
        *next_member = member as u32 + 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::builder::AutomatonBuilder;

    /// A game whose one turn checks `? from -> to` over `check`'s edges, on a board of four
    /// cells (`Cell`), each `empty` or `full`.
    fn engine(check: &[(&str, &str, &str)]) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Cell", "{a, b, c, d}")
            .typedef("Disc", "{empty, full}")
            .constant("next", "Cell -> Cell", "{a: b, b: c, c: d, :a}")
            .variable("board", "Cell -> Disc", "{:empty}")
            .variable("cursor", "Cell", "a")
            .variable("wanted", "Disc", "full");
        let turn = [
            ("begin", "turn", "player = x"),
            ("turn", "found", "? from -> to"),
            ("turn", "end", "player = keeper"),
            ("found", "end", "player = keeper"),
        ];
        for (source, target, label) in turn.iter().chain(check) {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    /// The context of the game's one reachability check.
    fn check_context(engine: &FastEngine) -> u32 {
        let contexts: Vec<u32> = engine
            .edges
            .iter()
            .filter_map(|edge| match edge.ins {
                Ins::Reach { context, .. } => Some(context),
                _ => None,
            })
            .collect();
        assert_eq!(contexts.len(), 1, "one check");
        contexts[0]
    }

    /// The check's answer on every board (16 of them) and every `wanted` disc by the grid, by
    /// the plan's lone-filter run and by the general search: all three must agree; returns how
    /// many states the check held in.
    fn assert_grid_agrees(engine: &FastEngine) -> usize {
        let context = check_context(engine);
        let grid = engine.member_grids[context as usize].as_ref().expect("a member grid");
        let plan = engine.plans[context as usize].as_ref().expect("a plan");
        let automaton = &engine.automaton;
        let (from, to) = (automaton.node_id("from").expect("from"), automaton.node_id("to").expect("to"));
        let discs = [automaton.symbol_id("empty").expect("empty"), automaton.symbol_id("full").expect("full")];
        // `wanted` is the one slot holding `full` at the start; every test reads the board.
        let wanted_slot = engine.initial_values.iter().position(|&v| v == discs[1]).expect("wanted");
        let mut board: Vec<usize> = grid.cells.iter().map(|&cell| cell as usize).collect();
        board.sort_unstable();
        board.dedup();
        assert_eq!(board.len(), 4, "the grid reads the four board cells");
        let mut scratch = engine.scratch();
        let mut held = 0;
        for (fill, wanted) in (0..16usize).flat_map(|fill| discs.map(|wanted| (fill, wanted))) {
            scratch.load(engine.automaton.begin, &engine.initial_values);
            for (bit, &slot) in board.iter().enumerate() {
                scratch.values[slot] = discs[(fill >> bit) & 1];
            }
            scratch.values[wanted_slot] = wanted;
            let before = scratch.values.clone();
            let by_grid = grid.any_passes(&scratch.values);
            let by_plan = scratch.run_lone_filter_restoring(engine, plan, plan.slots[0] as usize, 1).expect("plan");
            let by_search = scratch.reach_general(engine, from, to, context, 1).expect("search");
            assert_eq!((by_grid, by_grid), (by_plan, by_search), "board {fill:04b}, wanted {wanted}");
            assert_eq!(scratch.values, before, "the state is unchanged");
            held += usize::from(by_grid);
        }
        held
    }

    #[test]
    fn a_lone_filter_keyed_by_its_member_gets_a_grid_that_agrees_with_the_plan() {
        // One test (`board[cursor] == empty`, connect four's `freeSearch`): every board but the
        // full one has an empty cell, whatever `wanted` is.
        let free = engine(&[("from", "chosen", "cursor = Cell(*)"), ("chosen", "to", "board[cursor] == empty")]);
        assert_eq!(assert_grid_agrees(&free), 2 * 15);
        // Two tests, one against a slot (tic-tac-toe's line test): some cell holds `wanted` and
        // its next cell does not. Boards of one disc throughout fail either way (4 of 32).
        let pair = engine(&[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "same", "board[cursor] == wanted"),
            ("same", "to", "board[next[cursor]] != wanted"),
        ]);
        assert_eq!(assert_grid_agrees(&pair), 32 - 4);
        // Three tests: three full cells in a row (round the board), so 1111 and the four boards
        // with one empty cell, for each `wanted`.
        let run = engine(&[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "one", "board[cursor] == full"),
            ("one", "two", "board[next[cursor]] == full"),
            ("two", "to", "board[next[next[cursor]]] == full"),
        ]);
        assert_eq!(assert_grid_agrees(&run), 2 * 5);
    }

    #[test]
    fn no_grid_without_a_member_keyed_lone_filter_or_with_plans_not_on() {
        let no_grid = |engine: &FastEngine| engine.member_grids[check_context(engine) as usize].is_none();
        // A comparison of the member itself, not of the state at it.
        assert!(no_grid(&engine(&[("from", "chosen", "cursor = Cell(*)"), ("chosen", "to", "cursor == c")])));
        // An assignment between the choice and the test (hoisted, or written per member).
        assert!(no_grid(&engine(&[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "set", "wanted = full"),
            ("set", "to", "board[cursor] == wanted"),
        ])));
        // Two choices: not a lone filter.
        assert!(no_grid(&engine(&[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "again", "cursor = Cell(*)"),
            ("again", "to", "board[cursor] == full"),
        ])));
        // The grid's shape, with plans off or checked: every check takes its usual path.
        let free = [("from", "chosen", "cursor = Cell(*)"), ("chosen", "to", "board[cursor] == empty")];
        assert!(!no_grid(&engine(&free)));
        assert!(no_grid(&engine(&free).with_reach_plans(ReachPlans::Off)));
        assert!(no_grid(&engine(&free).with_reach_plans(ReachPlans::Checked)));
        assert!(!no_grid(&engine(&free).with_reach_plans(ReachPlans::Checked).with_reach_plans(ReachPlans::On)));
    }

    /// A two-player game on four cells whose move search has every tabulated form: a choice
    /// filtered by a cell against a slot (`owner[board[from]] == me`), a switch over the piece's
    /// kind, a cell against two-level table (`land[me][board[to]] == yes`), cell writes and a
    /// comparison of two slots (`from == to`).
    fn tabulated_game() -> crate::automaton::Automaton {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x, y}")
            .typedef("Score", "{0}")
            .typedef("Side", "{nobody, x, y}")
            .typedef("Cell", "{a, b, c, d}")
            .typedef("Piece", "{none, xp, xk, yp}")
            .typedef("Kind", "{nil, pawn, king}")
            .typedef("Flag", "{no, yes}")
            .constant("kind", "Piece -> Kind", "{xp: pawn, yp: pawn, xk: king, :nil}")
            .constant("owner", "Piece -> Side", "{xp: x, xk: x, yp: y, :nobody}")
            .constant("next", "Cell -> Cell", "{a: b, b: c, c: d, :a}")
            .constant("opp", "Player -> Player", "{x: y, :x}")
            .constant(
                "land",
                "Player -> Piece -> Flag",
                "{x: {none: yes, yp: yes, xk: yes, :no}, :{none: yes, xp: yes, xk: yes, :no}}",
            )
            .variable("board", "Cell -> Piece", "{a: xp, b: xk, c: yp, :none}")
            .variable("me", "Player", "x")
            .variable("from", "Cell", "a")
            .variable("to", "Cell", "a")
            .variable("piece", "Piece", "none");
        let edges = [
            ("begin", "turn", "player = me"),
            ("turn", "p1", "from = Cell(*)"),
            ("turn", "fin", "$ pass"),
            ("p1", "p2", "owner[board[from]] == me"),
            ("p2", "p3", "$$ from"),
            ("p3", "p4", "piece = board[from]"),
            ("p4", "pawn", "kind[piece] == pawn"),
            ("p4", "king", "kind[piece] == king"),
            ("p4", "any", "piece != none"),
            ("pawn", "m1", "to = next[from]"),
            ("king", "m1", "to = next[next[next[next[from]]]]"),
            ("any", "m1", "to = next[next[next[from]]]"),
            ("m1", "m2", "land[me][board[to]] == yes"),
            ("m2", "m3", "$$ to"),
            ("m3", "s1", "kind[piece] == king"),
            ("m3", "s2", "kind[piece] != king"),
            ("s1", "m4", "board[to] = piece"),
            ("s2", "m4", "board[to] = piece"),
            ("m4", "m5", "board[from] = none"),
            ("m5", "m6", "from == to"),
            ("m5", "fin", "from != to"),
            ("m6", "fin", "$ stay"),
            ("fin", "k", "player = keeper"),
            ("k", "back", "me = opp[me]"),
            ("back", "turn", "player = me"),
        ];
        for (source, target, label) in edges {
            builder.edge(source, target, label);
        }
        builder.build().expect("a valid automaton")
    }

    /// The engine with every tabulated form run as its general instruction and no switch.
    fn untabulated(automaton: crate::automaton::Automaton) -> FastEngine {
        let mut engine = FastEngine::new(automaton).expect("an engine");
        for edge in &mut engine.edges {
            if matches!(
                edge.hot,
                Hot::CompareSlotIn { .. }
                    | Hot::CompareSlotPair { .. }
                    | Hot::CompareSlotCell { .. }
                    | Hot::SetCellLit { .. }
                    | Hot::SetCellSlot { .. }
            ) {
                edge.hot = Hot::General;
            }
        }
        engine.switches.iter_mut().for_each(|switch| *switch = None);
        for edge in &mut engine.edges {
            edge.target_selects = edge.target_selects.min(crate::fast::SELECTS);
        }
        engine
    }

    /// The edge from `source` to `target` (the first, when there are several).
    fn edge_between(engine: &FastEngine, source: &str, target: &str) -> usize {
        let automaton = &engine.automaton;
        let node = |name: &str| automaton.nodes.iter().position(|n| n.name == name).expect("a node") as u32;
        let (source, target) = (node(source), node(target));
        automaton.edges.iter().position(|e| e.source == source && e.target == target).expect("an edge")
    }

    #[test]
    fn tabulated_forms_are_chosen_for_their_shapes() {
        let engine = FastEngine::new(tabulated_game()).expect("an engine");
        let symbols = engine.automaton.symbols.len() as u32;
        let hot = |source: &str, target: &str| &engine.edges[edge_between(&engine, source, target)].hot;
        assert!(matches!(hot("p1", "p2"), Hot::CompareSlotCell { width, .. } if *width == symbols));
        assert!(matches!(hot("p4", "pawn"), Hot::CompareSlotIn { .. }));
        assert!(matches!(hot("p4", "king"), Hot::CompareSlotIn { .. }));
        assert!(matches!(hot("p4", "any"), Hot::CompareSlotLit { .. }));
        assert!(matches!(hot("m1", "m2"), Hot::CompareSlotCell { width, .. } if *width == symbols));
        assert!(matches!(hot("s1", "m4"), Hot::SetCellSlot { .. }));
        assert!(matches!(hot("m4", "m5"), Hot::SetCellLit { .. }));
        assert!(matches!(hot("m5", "m6"), Hot::CompareSlotPair { width, .. } if *width == symbols));
        // The switch at `p4`: a pawn takes its own edge and `piece != none`, a king likewise,
        // `none` nothing.
        let node = engine.automaton.edges[edge_between(&engine, "p4", "pawn")].source as usize;
        let switch = engine.switches[node].as_deref().expect("a switch at p4");
        let symbol = |name: &str| engine.automaton.symbols.iter().position(|s| s == name).expect("a symbol");
        assert_eq!(switch.masks[symbol("xp")], 0b101);
        assert_eq!(switch.masks[symbol("yp")], 0b101);
        assert_eq!(switch.masks[symbol("xk")], 0b110);
        assert_eq!(switch.masks[symbol("none")], 0b000);
        // And at `m3`, whose two exclusive guards make the search follow the one that holds
        // without a frame: the switch names it.
        assert_eq!(engine.switches.iter().flatten().count(), 2, "only p4's and m3's out-edges all compare one slot");
        assert_eq!(engine.edges[edge_between(&engine, "m2", "m3")].target_selects, SELECTS_BY_SWITCH);
        let node = engine.automaton.edges[edge_between(&engine, "m3", "s1")].source as usize;
        let switch = engine.switches[node].as_deref().expect("a switch at m3");
        assert_eq!(
            (switch.masks[symbol("xk")], switch.masks[symbol("xp")], switch.masks[symbol("none")]),
            (0b01, 0b10, 0b10)
        );
    }

    #[test]
    fn tabulated_forms_agree_with_their_general_instructions_on_random_states() {
        let engine = FastEngine::new(tabulated_game()).expect("an engine");
        let general = untabulated(tabulated_game());
        let symbols = engine.automaton.symbols.len() as u64;
        let mut rng = crate::playout::Xoshiro256::from_seed(7);
        let (mut fast, mut plain) = (engine.scratch(), general.scratch());
        let tabulated: Vec<usize> = (0..engine.edges.len())
            .filter(|&e| {
                matches!(
                    engine.edges[e].hot,
                    Hot::CompareSlotIn { .. }
                        | Hot::CompareSlotPair { .. }
                        | Hot::CompareSlotCell { .. }
                        | Hot::SetCellLit { .. }
                        | Hot::SetCellSlot { .. }
                )
            })
            .collect();
        assert_eq!(tabulated.len(), 11, "the game's eleven tabulated edges");
        let (mut held, mut failed, mut errors) = (0, 0, 0);
        for _ in 0..4000 {
            // Any symbol in any slot (the tables cover every symbol), and often keys in range.
            let values: Vec<u32> = (0..engine.initial_values.len())
                .map(|slot| {
                    if rng.next_u64().is_multiple_of(2) {
                        (rng.next_u64() % symbols) as u32
                    } else {
                        engine.initial_values[(slot + (rng.next_u64() % 3) as usize) % engine.initial_values.len()]
                    }
                })
                .collect();
            for &edge in &tabulated {
                fast.values.clone_from(&values);
                plain.values.clone_from(&values);
                let a = fast.run_edge::<true>(&engine, edge, 0, 0, None, 0, None).map_err(|e| e.to_string());
                let b = plain.run_edge::<true>(&general, edge, 0, 0, None, 0, None).map_err(|e| e.to_string());
                assert_eq!(a, b, "edge {edge} on {values:?}");
                assert_eq!(fast.values, plain.values, "edge {edge} on {values:?}");
                match a {
                    Ok(true) => held += 1,
                    Ok(false) => failed += 1,
                    Err(_) => errors += 1,
                }
            }
        }
        // Every outcome was met (so the agreement covers each).
        assert!(held > 0 && failed > 0 && errors > 0, "{held} {failed} {errors}");
    }

    #[test]
    fn tabulated_forms_and_switches_keep_perft_and_moves() {
        let automaton = tabulated_game();
        let engine = FastEngine::new(automaton.clone()).expect("an engine");
        let general = untabulated(automaton.clone());
        let reference = crate::reference::ReferenceEngine::new(automaton).expect("a reference engine");
        let expected = crate::perft::perft(&reference, 6).expect("reference perft");
        // By hand at depth 1: the pass, the pawn's step (onto its own king, which `land`
        // allows), its `any` move to `d`, the king's stay (`next^4`); not its `any` move to `a`.
        assert_eq!(expected, vec![1, 4, 12, 38, 102, 282, 716]);
        assert_eq!(engine.perft(6).expect("fast perft"), expected);
        assert_eq!(general.perft(6).expect("general perft"), expected);
    }
}
