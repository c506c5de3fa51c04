//! Compiled forward models: the trait that generated per-game Rust code implements, the search
//! context it runs in, fast index-based playouts and perft over it, and the adapter that makes a
//! compiled game a [`ForwardModel`]. Also the lowered tables ([`Plan`]) the code generator reads.
//!
//! A code generator (`regula_compiler::codegen`) turns one automaton into a module with a state of
//! fixed-size arrays and one function per node; that module implements [`CompiledGame`]. Its move
//! search writes moves into a [`Search`] (tags in flat arenas, successors as whole states), so the
//! hot loop allocates nothing once the buffers have grown. Semantics are those of
//! spec/forward-model.md, checked against the reference engine (spec/codegen.md).
//!
//! The slot layout of a compiled state is the reference engine's (module `reference::layout`), so
//! a compiled state of an automaton converts to a reference state of the same automaton slot by
//! slot ([`CompiledModel::reference_state`]).

use crate::automaton::{Automaton, NodeId, SymbolId, Type, TypeId};
use crate::engine::{EngineError, ForwardModel, Move, Mover, Score};
pub use crate::playout::PlayoutOutcome;
use crate::playout::{PlayoutConfig, PlayoutReport, Xoshiro256};
use crate::reference::layout::{set_members, type_name, Compiler, Layout, Op, Operand, Place, Transfer};
use crate::reference::{ReferenceEngine, ReferenceState};
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};

/// A move longer than this many tags means the search is going around a tag-emitting cycle.
pub const MAX_MOVE_TAGS: usize = 1024;
/// Nested reachability checks deeper than this are an error (as in the reference engine).
pub const MAX_REACH_DEPTH: usize = 64;
/// Keeper moves applied in a row before the settle loop starts watching for a repeated state.
const KEEPER_CYCLE_CHECK_AFTER: usize = 64;
/// Playouts list tags only (and search the picked move again) after a position whose successors
/// took more bytes than this. Copying fewer costs less than the second search (hex: 15 % fewer
/// instructions than a 32-move threshold); copying more costs fewer instructions still but more
/// time (gomoku at 64 KiB: 19 % fewer instructions, 40 % fewer playouts/s; measured 2026-11-22).
/// The code generator reads it too (a start listed as tags only from its first listing gets no
/// delta sink, spec/codegen.md).
pub const TAGS_ONLY_ABOVE_BYTES: usize = 16 * 1024;
/// [`TAGS_ONLY_ABOVE_BYTES`] for a game whose replayed move skips to its member
/// ([`CompiledGame::REPLAY_SKIPS_TO_MEMBER`], so the second search costs about one path), whose
/// searches record visits (so a listing search copies the values before it copies successors)
/// and whose lean searches read no tags: of the corpus, hex, 775,488 -> 500,120 instructions
/// per playout (-35 %; from 4 KiB: 507,772). A measured rule, not a derived one: every other
/// game that lowers it pays (2026-11-23, callgrind, `regula build` crates, (2N-N)/N): pentago
/// (no visits) at 4 KiB +18 %, breakthrough (no visits) at 2 KiB +41 %, chess (lean searches
/// read tags) +4.7 %, amazons +1 %; gomoku (no visits) is unchanged.
const SKIPPING_REPLAY_TAGS_ONLY_ABOVE_BYTES: usize = 2 * 1024;

/// The successor bytes above which a playout lists tags only (see [`TAGS_ONLY_ABOVE_BYTES`]).
#[inline(always)]
fn tags_only_above_bytes<G: CompiledGame>() -> usize {
    if G::REPLAY_SKIPS_TO_MEMBER && !G::NO_VISITS && G::LEAN_READS_NO_TAGS {
        SKIPPING_REPLAY_TAGS_ONLY_ABOVE_BYTES
    } else {
        TAGS_ONLY_ABOVE_BYTES
    }
}

// ---------------------------------------------------------------------------------------------
// The lowered tables a code generator reads.

/// A value source: a symbol literal or a place in the state or constant buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanOperand {
    Literal(SymbolId),
    Place(PlanPlace),
}

/// A run of slots: `base + Σ offsets_i[key_i]` in the state (`in_state`) or constant buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanPlace {
    pub in_state: bool,
    pub base: u32,
    pub steps: Vec<PlanStep>,
}

/// One map access `[key]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanStep {
    pub key: PlanOperand,
    /// `offsets[symbol]`: the slot offset of `symbol`'s block (the default block for non-keys).
    pub offsets: Vec<u32>,
    /// The default block's offset: a write through it is a key outside the map's domain.
    pub default_offset: u32,
    /// The accessed map type's name, for the error message.
    pub map_type: String,
}

/// How two values move or compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanTransfer {
    /// Both set-valued: one slot.
    Slot,
    /// Maps of the same shape: a block of this many slots.
    Block(u32),
    /// Maps with differently ordered keys: `(lhs slot, rhs slot)` pairs relative to each value.
    Pairs(Vec<(u32, u32)>),
}

/// One edge's label against the layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanOp {
    Skip,
    Assign { lhs: PlanPlace, rhs: PlanOperand, transfer: PlanTransfer, sets_player: bool },
    AssignAny { lhs: PlanPlace, members: Vec<SymbolId>, sets_player: bool },
    Compare { lhs: PlanOperand, rhs: PlanOperand, transfer: PlanTransfer, equal: bool },
    Reach { from: NodeId, to: NodeId, negated: bool },
    Tag(SymbolId),
    TagExpr(PlanOperand),
}

/// The automaton lowered onto the reference slot layout: everything a code generator needs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub state_len: usize,
    pub initial_values: Vec<SymbolId>,
    pub const_values: Vec<SymbolId>,
    /// Per edge, indexed like `automaton.edges`.
    pub ops: Vec<PlanOp>,
    pub player_slot: u32,
    /// Per player number: the slot of `goals[p]` and of `visible[p]`.
    pub goal_slots: Vec<u32>,
    pub visible_slots: Vec<u32>,
    /// Per variable: its first slot and its number of slots (what a write into it may change).
    pub var_slots: Vec<(u32, u32)>,
}

impl Plan {
    /// Lowers an automaton; one that breaks the compiler->runtime contract is `Malformed`.
    pub fn new(automaton: &Automaton) -> Result<Plan, EngineError> {
        ReferenceEngine::new(automaton.clone())?;
        let layout = Layout::new(automaton)?;
        let compiler = Compiler { automaton, layout: &layout };
        let lowering = PlanLowering { automaton, layout: &layout };
        let ops = automaton
            .edges
            .iter()
            .map(|edge| compiler.label(&edge.label).map(|op| lowering.op(&op)))
            .collect::<Result<Vec<_>, _>>()?;
        let player_map_slots = |variable: u32| -> Result<Vec<u32>, EngineError> {
            let base = layout.var_offsets[variable as usize];
            let ty = automaton.variables[variable as usize].ty;
            let Type::Map { key, .. } = automaton.types[ty as usize] else {
                return Err(EngineError::Malformed { message: "`goals`/`visible` is not a map".into() });
            };
            let key_count = set_members(automaton, key).len() as u32;
            Ok(automaton.players.iter().map(|&p| base + layout.block_of(key, p, key_count)).collect())
        };
        Ok(Plan {
            state_len: layout.state_len,
            initial_values: layout.initial_values.clone(),
            const_values: layout.const_values.clone(),
            ops,
            player_slot: layout.var_offsets[automaton.player_var as usize],
            goal_slots: player_map_slots(automaton.goals_var)?,
            visible_slots: player_map_slots(automaton.visible_var)?,
            var_slots: automaton
                .variables
                .iter()
                .zip(&layout.var_offsets)
                .map(|(variable, &offset)| (offset, layout.size(variable.ty)))
                .collect(),
        })
    }
}

struct PlanLowering<'a> {
    automaton: &'a Automaton,
    layout: &'a Layout,
}

impl PlanLowering<'_> {
    fn operand(&self, operand: &Operand) -> PlanOperand {
        match operand {
            Operand::Literal(symbol) => PlanOperand::Literal(*symbol),
            Operand::Place(place) => PlanOperand::Place(self.place(place)),
        }
    }

    fn place(&self, place: &Place) -> PlanPlace {
        let steps = place
            .steps
            .iter()
            .map(|step| PlanStep {
                key: self.operand(&step.key),
                offsets: (0..self.automaton.symbols.len() as u32)
                    .map(|symbol| self.layout.block_of(step.key_type, symbol, step.key_count) * step.stride)
                    .collect(),
                default_offset: step.key_count * step.stride,
                map_type: type_name(self.automaton, step.map_type),
            })
            .collect();
        PlanPlace { in_state: place.in_state, base: place.base, steps }
    }

    fn transfer(&self, transfer: Transfer, lhs: Option<TypeId>, rhs: Option<TypeId>) -> PlanTransfer {
        match (transfer, lhs, rhs) {
            (Transfer::Slot, ..) => PlanTransfer::Slot,
            (Transfer::Block(size), ..) => PlanTransfer::Block(size),
            (Transfer::Convert, Some(a), Some(b)) => {
                let mut pairs = Vec::new();
                self.layout.map_pairs(self.automaton, a, 0, b, 0, &mut pairs);
                PlanTransfer::Pairs(pairs)
            }
            (Transfer::Convert, ..) => PlanTransfer::Slot,
        }
    }

    fn operand_type(operand: &Operand) -> Option<TypeId> {
        match operand {
            Operand::Literal(_) => None,
            Operand::Place(place) => Some(place.ty),
        }
    }

    fn op(&self, op: &Op) -> PlanOp {
        match op {
            Op::Skip => PlanOp::Skip,
            Op::Assign { lhs, rhs, transfer, sets_player } => PlanOp::Assign {
                lhs: self.place(lhs),
                rhs: self.operand(rhs),
                transfer: self.transfer(*transfer, Some(lhs.ty), Self::operand_type(rhs)),
                sets_player: *sets_player,
            },
            Op::AssignAny { lhs, members, sets_player } => {
                PlanOp::AssignAny { lhs: self.place(lhs), members: members.to_vec(), sets_player: *sets_player }
            }
            Op::Compare { lhs, rhs, transfer, equal } => PlanOp::Compare {
                lhs: self.operand(lhs),
                rhs: self.operand(rhs),
                transfer: self.transfer(*transfer, Self::operand_type(lhs), Self::operand_type(rhs)),
                equal: *equal,
            },
            Op::Reach { from, to, negated } => PlanOp::Reach { from: *from, to: *to, negated: *negated },
            Op::Tag(symbol) => PlanOp::Tag(*symbol),
            Op::TagExpr(operand) => PlanOp::TagExpr(self.operand(operand)),
        }
    }
}

/// A fingerprint of an automaton (FNV-1a over its debug text): a compiled model records the
/// fingerprint of the automaton it was generated from, and the adapter checks it.
pub fn fingerprint(automaton: &Automaton) -> u64 {
    let text = format!("{automaton:?}");
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3))
}

// ---------------------------------------------------------------------------------------------
// What generated code implements and calls.

/// The names a compiled game needs for its error messages and for printing moves.
#[derive(Debug)]
pub struct Names {
    pub symbols: &'static [&'static str],
    pub nodes: &'static [&'static str],
}

/// A search error, boxed so that `Result<_, Fail>` stays one word in the generated code.
#[derive(Debug)]
pub struct Fail(pub Box<EngineError>);

impl From<Fail> for EngineError {
    fn from(fail: Fail) -> EngineError {
        *fail.0
    }
}

/// A state of a compiled game: the node and the slot values (in a game-specific array type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CompiledState<V> {
    pub node: NodeId,
    pub values: V,
}

/// The values type of a compiled game: a fixed-size array of the narrowest unsigned integers.
pub trait Values: Copy + Eq + Hash + Ord + Debug + Send + Sync + 'static {
    /// Slot `index` as a symbol id.
    fn slot(&self, index: usize) -> SymbolId;
    /// The number of slots.
    fn len(&self) -> usize;
    /// Whether there are no slots.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

macro_rules! values_for {
    ($($t:ty),*) => {$(
        impl<const N: usize> Values for [$t; N] {
            #[inline]
            fn slot(&self, index: usize) -> SymbolId {
                self[index] as SymbolId
            }
            fn len(&self) -> usize {
                N
            }
        }
    )*};
}
values_for!(u8, u16, u32);

/// One game's generated code. Every function is an associated function: the game is the type.
pub trait CompiledGame: Send + Sync + 'static {
    type Values: Values;
    /// [`fingerprint`] of the automaton the code was generated from.
    const FINGERPRINT: u64;
    const NAMES: Names;
    const BEGIN: NodeId;
    const END: NodeId;
    const KEEPER: SymbolId;
    const RANDOM: SymbolId;
    /// Members of `Player`, by player number.
    const PLAYERS: &'static [SymbolId];
    /// Members of `Score`.
    const SCORES: &'static [SymbolId];
    /// The symbol `1` (for `visible`), if the game has it.
    const ONE: Option<SymbolId>;

    /// Every variable at its initial value.
    fn initial_values() -> Self::Values;
    /// The value of `player`.
    fn player(values: &Self::Values) -> SymbolId;
    /// `goals[p]` and `visible[p]` for player number `p`.
    fn goal(values: &Self::Values, player: usize) -> SymbolId;
    fn visible(values: &Self::Values, player: usize) -> SymbolId;
    /// `UNIQUE_STARTS[node]`: every move a search from `node` completes is proved to have tags no
    /// other move of that search has (spec/codegen.md), so callers reading only successors may
    /// skip recording tags. Shorter than the node count (or empty) means unknown.
    const UNIQUE_STARTS: &'static [bool] = &[];
    /// [`CompiledGame::UNIQUE_STARTS`] holds at every node the search dispatches on, so callers
    /// skip the table lookup. A node the search does not dispatch on lists no moves, lean or not,
    /// so treating it as unique changes nothing.
    const STARTS_ALL_UNIQUE: bool = false;
    /// No lean search (a search from a [`CompiledGame::UNIQUE_STARTS`] node whose caller reads
    /// successors only) ever reads the tags of its path: every tag push is bounded (the move
    /// search has no cycle, so no visited set keys on tags) and every completion is unique (no
    /// scope or table compares tags). Lean searches then push and pop no tags at all.
    const LEAN_READS_NO_TAGS: bool = false;
    /// The generated code records no visit (no `visit`, `visit_slot` or `count_step` call), so
    /// an unchecked search never gives up and never needs running again: its visited-set
    /// bookkeeping is skipped, and a lean search may run on the caller's values in place.
    const NO_VISITS: bool = false;
    /// The move search has a loop that a replayed move ([`raw_apply`]) runs for the member its
    /// next tag names only ([`Search::replayed_next_tag`]), so searching the picked move again
    /// is cheap and playouts list tags only from fewer successor bytes on.
    const REPLAY_SKIPS_TO_MEMBER: bool = false;
    /// Some delta start also reaches completions without a delta word (a *mixed* delta start):
    /// in its delta listing those push their whole successor ([`Search::push_whole`]), marked
    /// by [`WHOLE_MOVE`] in the key slot, and [`MoveBuffer::take_successor`] tests for the mark.
    const MIXED_DELTAS: bool = false;
    /// Whether a lean search from `node` lists its moves as *deltas* when its caller accepts them
    /// (the playout loop, [`Search::lists_deltas`]): every completion such a search can reach
    /// writes only a few slots on the way from any start node (its *write set*: fixed slots, and
    /// slots written through computed keys that [`CompiledGame::apply_delta`] computes again),
    /// so `apply_delta` rebuilds the successor from the searched state and one packed word
    /// instead of the search copying the whole state per listed move.
    #[inline(always)]
    fn delta_start(node: NodeId) -> bool {
        let _ = node;
        false
    }
    /// Turns `state`, the state a delta listing searched, into the successor of the move listed
    /// as `delta` (the word the completion passed to [`Search::push_delta`]: a completion site in
    /// the low 16 bits, the values of its write set above them).
    #[inline(always)]
    fn apply_delta(delta: u64, state: &mut CompiledState<Self::Values>) {
        let _ = (delta, state);
    }
    /// Where `node` is a counted start ([`counted`]): the number of its moves in `values`, and
    /// the delta word ([`CompiledGame::apply_delta`]) of the move `pick` chooses among them by
    /// its index in listing order (`None` where `pick` chooses none). `None` for any other node.
    #[inline(always)]
    fn pick_counted<P: FnOnce(usize) -> Option<usize>>(
        node: NodeId,
        values: &Self::Values,
        pick: P,
    ) -> Option<(usize, Option<u64>)> {
        let _ = (node, values, pick);
        None
    }
    /// Where `node` is a counted search start ([`counted_search`]): the depth of the prefixes
    /// its moves are counted under; 0 for any other node.
    #[inline(always)]
    fn counted_search_depth(node: NodeId) -> usize {
        let _ = node;
        0
    }
    /// The search from a counted search start `node` on `sink`, in place (it cannot fail, so it
    /// leaves `values` as it found them); nothing for any other node.
    #[inline(always)]
    fn counted_search<C: MoveSink<Self::Values>>(node: NodeId, values: &mut Self::Values, sink: &mut C) {
        let _ = (node, values, sink);
    }
    /// Applies the keeper's move in `state` (the keeper moves there) in place, without listing
    /// it, where the generator proved that the search from `state.node` has at most one move
    /// and cannot fail (spec/codegen.md, "Keeper moves applied in place"): returns whether it
    /// did, `state` then being the move's successor. `false` leaves `state` unchanged (no such
    /// proof for the node, or no move completes): the caller lists the keeper's moves instead.
    #[inline(always)]
    fn apply_keeper(state: &mut CompiledState<Self::Values>) -> bool {
        let _ = state;
        false
    }
    /// The move search from `state` (not terminal): every move into `search.moves`.
    fn search(state: &CompiledState<Self::Values>, search: &mut Search<Self::Values>) -> Result<(), Fail>;
    /// [`CompiledGame::search`] on `values` in place: a search that succeeds leaves them as it
    /// found them (every edge undoes its writes on the way back); one that fails may not, so
    /// callers use it only on values they discard after an error.
    fn search_in_place(node: NodeId, values: &mut Self::Values, search: &mut Search<Self::Values>) -> Result<(), Fail> {
        Self::search(&CompiledState { node, values: *values }, search)
    }

    /// The raw initial state.
    fn initial() -> CompiledState<Self::Values> {
        CompiledState { node: Self::BEGIN, values: Self::initial_values() }
    }

    /// Who acts in a state.
    fn mover(state: &CompiledState<Self::Values>) -> Mover {
        if state.node == Self::END {
            return Mover::Terminal;
        }
        let player = Self::player(&state.values);
        if player == Self::RANDOM {
            return Mover::Random;
        }
        match Self::PLAYERS.iter().position(|&p| p == player) {
            Some(index) => Mover::Player(index),
            None => Mover::Keeper,
        }
    }
}

const HASH_MULTIPLIER: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[inline]
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(HASH_MULTIPLIER)
}

/// A fast non-cryptographic hasher for state arrays (8 bytes per step).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let word = |chunk: &[u8]| {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            u64::from_le_bytes(word)
        };
        // Four independent lanes over 32-byte blocks: states are hashed whole at visited nodes,
        // and independent multiplies overlap where one chain would wait on each.
        let mut blocks = bytes.chunks_exact(32);
        let mut lanes = [self.0, self.0 ^ 0x2545_f491_4f6c_dd1d, self.0 ^ 0x9e37_79b9_7f4a_7c15, !self.0];
        for block in &mut blocks {
            for (lane, chunk) in lanes.iter_mut().zip(block.chunks_exact(8)) {
                *lane = (*lane ^ word(chunk)).wrapping_mul(HASH_MULTIPLIER);
            }
        }
        self.0 = lanes.iter().fold(0, |hash, &lane| mix(hash, lane));
        let mut chunks = blocks.remainder().chunks_exact(8);
        for chunk in &mut chunks {
            self.0 = mix(self.0, word(chunk));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.0 = mix(self.0, u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.0 = mix(self.0, n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn hash_values<V: Hash>(seed: u64, values: &V) -> u64 {
    let mut hasher = WordHasher(seed);
    values.hash(&mut hasher);
    hasher.0
}

fn hash_tags(tags: &[SymbolId]) -> u64 {
    tags.iter().fold(0x9e37_79b9, |hash, &tag| mix(hash, tag as u64))
}

/// A move's tags as a de-duplication key: up to three tags below 2^16 packed with their count into
/// one word (most games' moves), compared in one instruction; [`LONG_TAGS`] for any other.
#[inline]
fn tag_key(tags: &[SymbolId]) -> u64 {
    if tags.len() > 3 {
        return LONG_TAGS;
    }
    let mut key = tags.len() as u64;
    for (i, &tag) in tags.iter().enumerate() {
        if tag >= 1 << 16 {
            return LONG_TAGS;
        }
        key |= (tag as u64) << (16 * (i + 1));
    }
    key
}

/// The key of tags [`tag_key`] cannot pack (its count field, 0xffff, is never a packed count).
const LONG_TAGS: u64 = u64::MAX;

/// The count field of a packed key (the low 16 bits); `LONG_COUNT` marks long tags.
const COUNT_MASK: u64 = 0xffff;
const LONG_COUNT: u64 = COUNT_MASK;

/// The tags a packed [`tag_key`] holds (not [`LONG_TAGS`]), appended to `out`.
#[inline]
fn unpack_tags(key: u64, out: &mut Vec<SymbolId>) {
    for i in 0..(key & COUNT_MASK) {
        out.push(((key >> (16 * (i + 1))) & 0xffff) as SymbolId);
    }
}

/// The table position of a key (long tags hash their whole sequence).
#[inline]
fn key_hash(key: u64, tags: &[SymbolId]) -> u64 {
    let word = if key == LONG_TAGS { hash_tags(tags) } else { key };
    // The position is the low bits of the result, so every tag must reach them: a product's bit
    // `i` depends only on its factors' bits `0..=i`, so fold the high half (the third tag) down
    // first and keep the product's high half.
    (word ^ (word >> 32)).wrapping_mul(HASH_MULTIPLIER) >> 32
}

/// The key a mixed delta listing stores for a move pushed whole ([`Search::push_whole`]): the
/// site number `u16::MAX`, which the generator never gives a site, and no values.
pub const WHOLE_MOVE: u64 = u16::MAX as u64;

/// One slot of the de-duplication table: generation, move index, tag key.
type MoveSlot = (u32, u32, u64);

/// The moves of one search: tags in a flat arena, successors as whole states, in the order found.
#[derive(Debug)]
pub struct MoveBuffer<V> {
    tags: Vec<SymbolId>,
    spans: Vec<(u32, u32)>,
    /// Successor slots: `successors[..count]` are this search's (unless `tags_only`); the rest are
    /// left over from earlier searches. Never shrunk, so a push is one store after one comparison.
    successors: Vec<CompiledState<V>>,
    /// In tags-only mode, per move instead of `tags` and `spans`: its packed [`tag_key`], or for
    /// long tags `LONG_COUNT` with the index of their span in `spans` above the count field. One
    /// store a move where the arena took a capacity check per tag and per span (pentago lists
    /// ~3,000 moves a playout this way). Never shrunk, like `successors`.
    keys: Vec<u64>,
    /// De-duplication by tags: open addressing over `(generation, move index, tag key)`.
    table: Vec<MoveSlot>,
    generation: u32,
    /// Successors are not recorded (a playout lists tags, then searches the picked move again).
    tags_only: bool,
    /// In tags-only mode: two paths gave the same tags (their successors were not compared).
    saw_duplicate: bool,
    /// The moves of the last search were listed in tags-only mode, as `keys` (set when a search
    /// clears the buffer, so it outlasts `tags_only`, which `generate_tags` resets on return).
    packed: bool,
    /// Tags are not recorded: the search is proved unique (no de-duplication reads them) and
    /// its caller only reads successors (playouts, perft, keeper moves).
    skip_tags: bool,
    /// The common playout case, set by [`Search::begin`]: tags skipped, successors recorded and no
    /// move looked for (`only` is `None`), so a unique completion is one successor push.
    lean: bool,
    /// A lean search whose caller accepts deltas, from a start whose completions all have one
    /// ([`CompiledGame::delta_start`]): each move is a packed word in `keys`
    /// ([`Search::push_delta`]), no successor is recorded. Only the playout loop sets it.
    deltas: bool,
    /// The number of moves.
    count: u32,
}

impl<V> Default for MoveBuffer<V> {
    fn default() -> Self {
        MoveBuffer {
            tags: Vec::new(),
            spans: Vec::new(),
            successors: Vec::new(),
            keys: Vec::new(),
            table: Vec::new(),
            generation: 1,
            tags_only: false,
            saw_duplicate: false,
            packed: false,
            skip_tags: false,
            lean: false,
            deltas: false,
            count: 0,
        }
    }
}

impl<V: Values> MoveBuffer<V> {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The tags of move `index` (moves are small integers; this recovers their tag sequence).
    pub fn tags(&self, index: usize) -> &[SymbolId] {
        let (start, end) = self.spans[index];
        &self.tags[start as usize..end as usize]
    }

    /// The tags of move `index` appended to `out`, whether the search listed them in the arena
    /// or packed them (tags-only mode).
    fn copy_tags(&self, index: usize, out: &mut Vec<SymbolId>) {
        if !self.packed {
            out.extend_from_slice(self.tags(index));
        } else if self.keys[index] & COUNT_MASK == LONG_COUNT {
            out.extend_from_slice(self.long_tags(index));
        } else {
            unpack_tags(self.keys[index], out);
        }
    }

    /// The tags of move `index`, which [`tag_key`] could not pack.
    fn long_tags(&self, index: usize) -> &[SymbolId] {
        let span = if self.packed { (self.keys[index] >> 16) as usize } else { index };
        let (start, end) = self.spans[span];
        &self.tags[start as usize..end as usize]
    }

    /// The [`tag_key`] of move `index`.
    fn key_of(&self, index: usize) -> u64 {
        if !self.packed {
            return tag_key(self.tags(index));
        }
        let key = self.keys[index];
        if key & COUNT_MASK == LONG_COUNT {
            LONG_TAGS
        } else {
            key
        }
    }

    /// The successor of move `index`, keeper moves not applied.
    pub fn successor(&self, index: usize) -> &CompiledState<V> {
        &self.successors[..self.count as usize][index]
    }

    fn clear(&mut self) {
        self.tags.clear();
        self.spans.clear();
        self.count = 0;
        self.saw_duplicate = false;
        self.packed = self.tags_only;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill((0, 0, 0));
            self.generation = 1;
        }
    }

    /// Doubles the table and enters every move listed so far (also those appended by
    /// [`MoveBuffer::push`], which are known to be unique and so never match).
    #[cold]
    fn grow(&mut self) {
        let size = (self.table.len() * 2).max(16);
        self.generation = 1;
        self.table = vec![(0, 0, 0); size];
        let mask = size - 1;
        let listed = if self.packed { self.count as usize } else { self.spans.len() };
        for index in 0..listed {
            let key = self.key_of(index);
            let tags = if key == LONG_TAGS { self.long_tags(index) } else { &[] };
            let mut position = key_hash(key, tags) as usize & mask;
            while self.table[position].0 == self.generation {
                position = (position + 1) & mask;
            }
            self.table[position] = (self.generation, index as u32, key);
        }
    }

    /// Appends a move known to have tags no other move of this search has.
    #[inline(always)]
    fn push(&mut self, tags: &[SymbolId], node: NodeId, values: &V) {
        if self.lean {
            self.store_successor(node, values);
            self.count += 1;
        } else if self.skip_tags {
            self.push_successor(node, values);
        } else if self.tags_only {
            self.push_key(tags);
        } else {
            self.push_with_tags(tags, node, values);
        }
    }

    /// Appends a move and its tags (de-duplication reads them).
    #[inline]
    fn push_with_tags(&mut self, tags: &[SymbolId], node: NodeId, values: &V) {
        if self.tags_only {
            self.push_key(tags);
            return;
        }
        let start = self.tags.len() as u32;
        // Moves have a few tags: a loop beats the `memcpy` call `extend_from_slice` makes.
        for &tag in tags {
            self.tags.push(tag);
        }
        self.spans.push((start, self.tags.len() as u32));
        self.push_successor(node, values);
    }

    /// Tags-only mode: appends a move as its packed tags (long tags go to the arena), so
    /// [`MoveBuffer::copy_tags`] reads them and [`MoveBuffer::tags`] does not.
    #[inline(always)]
    fn push_key(&mut self, tags: &[SymbolId]) {
        let mut key = tag_key(tags);
        if key == LONG_TAGS {
            key = self.push_long_tags(tags);
        }
        self.push_packed_key(key);
    }

    /// Tags-only mode: appends a move as its packed [`tag_key`] (not [`LONG_TAGS`]).
    #[inline(always)]
    fn push_packed_key(&mut self, key: u64) {
        let index = self.count as usize;
        match self.keys.get_mut(index) {
            Some(slot) => *slot = key,
            None => self.grow_keys(key),
        }
        self.count += 1;
    }

    /// Tags [`tag_key`] cannot pack, into the arena: their marked key.
    #[cold]
    #[inline(never)]
    fn push_long_tags(&mut self, tags: &[SymbolId]) -> u64 {
        let start = self.tags.len() as u32;
        self.tags.extend_from_slice(tags);
        self.spans.push((start, self.tags.len() as u32));
        ((self.spans.len() as u64 - 1) << 16) | LONG_COUNT
    }

    /// Delta mode: appends a move as its delta word (see [`CompiledGame::apply_delta`]).
    #[inline(always)]
    fn push_delta(&mut self, delta: u64) {
        let index = self.count as usize;
        match self.keys.get_mut(index) {
            Some(slot) => *slot = delta,
            None => self.grow_keys(delta),
        }
        self.count += 1;
    }

    /// Makes `state`, the state the last search listed moves from, the successor of move
    /// `index` (keeper moves not applied): its delta applied in delta mode, else its copy.
    #[inline(always)]
    fn take_successor<G: CompiledGame<Values = V>>(&self, index: usize, state: &mut CompiledState<V>) {
        // One bounds check each: the slots past `count` hold stale moves, so `index < count` is
        // the caller's (it picks below `len()`), checked in debug builds.
        debug_assert!(index < self.count as usize);
        if self.deltas {
            let delta = self.keys[index];
            if G::MIXED_DELTAS && delta == WHOLE_MOVE {
                *state = self.successors[index];
            } else {
                G::apply_delta(delta, state);
            }
        } else {
            *state = self.successors[index];
        }
    }

    /// [`MoveBuffer::take_successor`] where the caller knows the listing was of whole successors.
    #[inline(always)]
    fn take_whole(&self, index: usize, state: &mut CompiledState<V>) {
        debug_assert!(!self.deltas && index < self.count as usize);
        *state = self.successors[index];
    }

    /// [`MoveBuffer::take_successor`] where the caller knows the listing was of deltas.
    #[inline(always)]
    fn take_delta<G: CompiledGame<Values = V>>(&self, index: usize, state: &mut CompiledState<V>) {
        debug_assert!(self.deltas && index < self.count as usize);
        let delta = self.keys[index];
        if G::MIXED_DELTAS && delta == WHOLE_MOVE {
            *state = self.successors[index];
        } else {
            G::apply_delta(delta, state);
        }
    }

    /// Delta mode: appends a move without a delta word (below a mixed delta start) as its whole
    /// successor, and [`WHOLE_MOVE`] in its key slot so that [`MoveBuffer::take_successor`]
    /// copies it instead of applying a delta.
    #[inline(always)]
    fn push_whole(&mut self, node: NodeId, values: &V) {
        self.store_successor(node, values);
        self.push_delta(WHOLE_MOVE);
    }

    /// The first [`DELTA_SINK_SLOTS`] key slots, for a [`DeltaSink`]; the first call makes them.
    #[inline(always)]
    fn delta_sink_slots(&mut self) -> &mut [u64; DELTA_SINK_SLOTS] {
        if self.keys.len() < DELTA_SINK_SLOTS {
            self.grow_keys_to(DELTA_SINK_SLOTS);
        }
        self.keys.first_chunk_mut().expect("the sink's slots were made")
    }

    /// Makes at least `len` key slots (a [`DeltaSink`]'s), keeping those there are.
    #[cold]
    #[inline(never)]
    fn grow_keys_to(&mut self, len: usize) {
        // A zeroed allocation and a copy of the slots there are: where the allocator has fresh
        // memory it comes zeroed, where `resize` writes every new slot (a delta sink's 32 KiB
        // took ~37,000 instructions per context; tic-tac-toe .rg's first sinks skip them).
        let mut keys = vec![0; len.max(self.keys.len())];
        keys[..self.keys.len()].copy_from_slice(&self.keys);
        self.keys = keys;
    }

    /// Appends the key of move `count` beyond the slots, doubling them.
    #[cold]
    #[inline(never)]
    fn grow_keys(&mut self, key: u64) {
        let index = self.count as usize;
        self.keys.resize(index, 0);
        self.keys.push(key);
        let doubled = (index + 1).max(64) * 2;
        self.keys.resize(doubled, 0);
    }

    #[inline]
    fn push_successor(&mut self, node: NodeId, values: &V) {
        if !self.tags_only {
            self.store_successor(node, values);
        }
        self.count += 1;
    }

    /// Writes the successor of move `count`.
    #[inline(always)]
    fn store_successor(&mut self, node: NodeId, values: &V) {
        let index = self.count as usize;
        match self.successors.get_mut(index) {
            Some(slot) => *slot = CompiledState { node, values: *values },
            None => self.grow_successors(node, values),
        }
    }

    /// Appends the successor of move `count` beyond the slots, doubling them.
    #[cold]
    #[inline(never)]
    fn grow_successors(&mut self, node: NodeId, values: &V) {
        let state = CompiledState { node, values: *values };
        let index = self.count as usize;
        self.successors.resize(index, state);
        self.successors.push(state);
        let doubled = (index + 1).max(8) * 2;
        self.successors.resize(doubled, state);
    }

    /// Adds a move; the same tags are one move with the same successor, an ambiguity otherwise.
    #[inline(always)]
    fn add(&mut self, tags: &[SymbolId], node: NodeId, values: &V) -> Result<(), ()> {
        if (self.count as usize + 1) * 2 > self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let key = tag_key(tags);
        let mut position = key_hash(key, tags) as usize & mask;
        loop {
            let (generation, index, stored) = self.table[position];
            if generation != self.generation {
                break;
            }
            let index = index as usize;
            if stored == key && (key != LONG_TAGS || self.long_tags(index) == tags) {
                if self.tags_only {
                    self.saw_duplicate = true;
                    return Ok(());
                }
                let same = self.successors[index].node == node && self.successors[index].values == *values;
                return if same { Ok(()) } else { Err(()) };
            }
            position = (position + 1) & mask;
        }
        self.table[position] = (self.generation, self.count, key);
        self.push_with_tags(tags, node, values);
        Ok(())
    }
}

/// Exact (node, tags, values) keys of one search level.
#[derive(Debug)]
struct VisitedSet<V> {
    keys: Vec<(NodeId, u32, u32, V)>,
    tags: Vec<SymbolId>,
    table: Vec<(u32, u32)>,
    generation: u32,
}

impl<V> Default for VisitedSet<V> {
    fn default() -> Self {
        VisitedSet { keys: Vec::new(), tags: Vec::new(), table: Vec::new(), generation: 1 }
    }
}

impl<V: Values> VisitedSet<V> {
    fn clear(&mut self) {
        self.keys.clear();
        self.tags.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill((0, 0));
            self.generation = 1;
        }
    }

    fn hash(node: NodeId, tags: &[SymbolId], values: &V) -> u64 {
        hash_values(mix(hash_tags(tags), node as u64), values)
    }

    fn grow(&mut self) {
        let size = (self.table.len() * 2).max(64);
        self.generation = 1;
        self.table = vec![(0, 0); size];
        let mask = size - 1;
        for (index, (node, start, len, values)) in self.keys.iter().enumerate() {
            let tags = &self.tags[*start as usize..(*start + *len) as usize];
            let mut position = Self::hash(*node, tags, values) as usize & mask;
            while self.table[position].0 == self.generation {
                position = (position + 1) & mask;
            }
            self.table[position] = (self.generation, index as u32);
        }
    }

    /// Records the key; `false` when it was already present.
    fn insert(&mut self, node: NodeId, tags: &[SymbolId], values: &V) -> bool {
        if (self.keys.len() + 1) * 2 > self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut position = Self::hash(node, tags, values) as usize & mask;
        loop {
            let (generation, index) = self.table[position];
            if generation != self.generation {
                break;
            }
            let (n, start, len, v) = &self.keys[index as usize];
            if *n == node && v == values && self.tags[*start as usize..(*start + *len) as usize] == *tags {
                return false;
            }
            position = (position + 1) & mask;
        }
        self.table[position] = (self.generation, self.keys.len() as u32);
        let start = self.tags.len() as u32;
        self.tags.extend_from_slice(tags);
        self.keys.push((node, start, tags.len() as u32, *values));
        true
    }
}

/// Stores `successor` as move `index`'s in `successors`, which has no slot for it yet
/// ([`MixedSink::push_whole`]): the slots grow to twice what is needed, like
/// [`MoveBuffer`]'s, and the ones between stay unread (stale slots).
#[cold]
#[inline(never)]
fn grow_successors_to<V: Copy>(successors: &mut Vec<CompiledState<V>>, index: usize, successor: CompiledState<V>) {
    successors.resize((index + 1).max(8) * 2, successor);
    successors[index] = successor;
}

/// What a generated move-search function that cannot fail calls on its context: the
/// [`Search`] itself, or a [`DeltaSink`] (a delta listing, [`Search::list_deltas_into`]). The
/// generator makes the functions below a delta start generic over it, so the compiler emits
/// each of them twice: once for the context, once for the sink, where [`MoveSink::lists_deltas`]
/// is the constant `true` and every completion is a push of its delta word.
pub trait MoveSink<V> {
    /// [`Search::push_tag_bounded`].
    fn push_tag_bounded(&mut self, tag: SymbolId) -> bool;
    /// [`Search::pop_tag`].
    fn pop_tag(&mut self);
    /// [`Search::replayed_next_tag`].
    fn replayed_next_tag(&self) -> Option<Option<SymbolId>>;
    /// [`Search::complete_unique_valid`].
    fn complete_unique_valid(&mut self, target: NodeId, values: &V);
    /// [`Search::complete_unique_valid_tagged`].
    fn complete_unique_valid_tagged(&mut self, tag: SymbolId, target: NodeId, values: &V);
    /// [`Search::complete_unique_valid_tagged_at`].
    fn complete_unique_valid_tagged_at<const DEPTH: usize>(&mut self, tag: SymbolId, target: NodeId, values: &V);
    /// [`Search::lists_deltas`].
    fn lists_deltas(&self) -> bool;
    /// [`Search::push_delta`].
    fn push_delta(&mut self, delta: u64);
    /// [`Search::push_delta_if`]: the move is pushed only where `keep` holds. A [`DeltaSink`]
    /// stores the word either way and counts it only where `keep` holds, so a guard before a
    /// completion costs no branch (a listing's guards on random positions mispredict).
    #[inline(always)]
    fn push_delta_if(&mut self, keep: bool, delta: u64) {
        if keep {
            self.push_delta(delta);
        }
    }
    /// [`Search::push_whole`] (below a mixed delta start only).
    fn push_whole(&mut self, target: NodeId, values: &V);
    /// [`Search::lists_single_tags`].
    fn lists_single_tags(&self) -> bool;
    /// [`Search::push_single_tag`].
    fn push_single_tag(&mut self, tag: SymbolId);
    /// A point this listing can go back to with [`MoveSink::rewind`]: `Some` on the delta sinks,
    /// whose moves are a count, `None` on the context (generated code then takes its plain path).
    /// A shared scan (spec/codegen.md) lists one listing while its check runs, and drops it when
    /// the check holds.
    #[inline(always)]
    fn rewind_mark(&self) -> Option<usize> {
        None
    }
    /// Drops the moves pushed since `mark` (from [`MoveSink::rewind_mark`]).
    #[inline(always)]
    fn rewind(&mut self, _mark: usize) {}
    /// Whether this sink only counts moves ([`counted_search::CountSink`]): generated code then
    /// counts a ray whose every step completes one move a few steps at a time
    /// ([`MoveSink::count_moves`]) instead of completing each (spec/codegen.md, "Counted
    /// searches"). A constant per sink, so the other sinks' copies drop that code.
    #[inline(always)]
    fn counts_only(&self) -> bool {
        false
    }
    /// Counts `moves` completions, where [`MoveSink::counts_only`] holds.
    #[inline(always)]
    fn count_moves(&mut self, _moves: usize) {}
}

impl<V: Values> MoveSink<V> for Search<V> {
    #[inline(always)]
    fn push_tag_bounded(&mut self, tag: SymbolId) -> bool {
        Search::push_tag_bounded(self, tag)
    }
    #[inline(always)]
    fn pop_tag(&mut self) {
        Search::pop_tag(self)
    }
    #[inline(always)]
    fn replayed_next_tag(&self) -> Option<Option<SymbolId>> {
        Search::replayed_next_tag(self)
    }
    #[inline(always)]
    fn complete_unique_valid(&mut self, target: NodeId, values: &V) {
        Search::complete_unique_valid(self, target, values)
    }
    #[inline(always)]
    fn complete_unique_valid_tagged(&mut self, tag: SymbolId, target: NodeId, values: &V) {
        Search::complete_unique_valid_tagged(self, tag, target, values)
    }
    #[inline(always)]
    fn complete_unique_valid_tagged_at<const DEPTH: usize>(&mut self, tag: SymbolId, target: NodeId, values: &V) {
        Search::complete_unique_valid_tagged_at::<DEPTH>(self, tag, target, values)
    }
    #[inline(always)]
    fn lists_deltas(&self) -> bool {
        Search::lists_deltas(self)
    }
    #[inline(always)]
    fn push_delta(&mut self, delta: u64) {
        Search::push_delta(self, delta)
    }
    #[inline(always)]
    fn push_whole(&mut self, target: NodeId, values: &V) {
        Search::push_whole(self, target, values)
    }
    #[inline(always)]
    fn lists_single_tags(&self) -> bool {
        Search::lists_single_tags(self)
    }
    #[inline(always)]
    fn push_single_tag(&mut self, tag: SymbolId) {
        Search::push_single_tag(self, tag)
    }
}

/// The key slots a delta listing on a [`DeltaSink`] writes: a fixed number, the most moves the
/// generator lets such a listing complete (its `DELTA_SINK_BOUND`). A fixed length lets a push
/// reduce its slot index modulo the length instead of comparing it with a slice's length: where
/// the listing's pushes are straight-line code (a placement unrolled over its cells) the
/// compiler proves the index in range and the push is one store and one increment, where the
/// comparison and its branch made it four (spec/codegen.md, "The playout loop"). 32 KiB, made
/// once per context by its first delta listing.
pub const DELTA_SINK_SLOTS: usize = 4096;

/// The [`MoveSink`] methods a delta listing's sinks share ([`DeltaSink`], [`MixedSink`]): tags are
/// not recorded (a delta listing is lean) and no move completes through the context's methods,
/// only as a delta word (or, on a mixed sink, pushed whole).
macro_rules! lean_delta_sink_methods {
    () => {
        #[inline(always)]
        fn push_tag_bounded(&mut self, _tag: SymbolId) -> bool {
            true
        }
        #[inline(always)]
        fn pop_tag(&mut self) {}
        #[inline(always)]
        fn replayed_next_tag(&self) -> Option<Option<SymbolId>> {
            None
        }
        fn complete_unique_valid(&mut self, _target: NodeId, _values: &V) {
            unreachable!("a delta listing completes every move as a delta word or whole");
        }
        fn complete_unique_valid_tagged(&mut self, _tag: SymbolId, _target: NodeId, _values: &V) {
            unreachable!("a delta listing completes every move as a delta word or whole");
        }
        fn complete_unique_valid_tagged_at<const DEPTH: usize>(
            &mut self,
            _tag: SymbolId,
            _target: NodeId,
            _values: &V,
        ) {
            unreachable!("a delta listing completes every move as a delta word or whole");
        }
        #[inline(always)]
        fn lists_deltas(&self) -> bool {
            true
        }
        #[inline(always)]
        fn lists_single_tags(&self) -> bool {
            false
        }
        fn push_single_tag(&mut self, _tag: SymbolId) {
            unreachable!("a delta listing lists no tags");
        }
        #[inline(always)]
        fn rewind_mark(&self) -> Option<usize> {
            Some(self.count)
        }
        /// The moves past `mark` are forgotten: only slots below the count are ever read.
        #[inline(always)]
        fn rewind(&mut self, mark: usize) {
            self.count = mark;
        }
    };
}

/// The moves of a delta listing while its search runs ([`Search::list_deltas_into`]): the key
/// slots ([`DELTA_SINK_SLOTS`] of them, at least the search's bound) and the move count. Held by
/// the search function as a local, so the count lives in a register (the context's count is a
/// field the compiler reloads and stores at every push, around the completions' other paths).
///
/// Invariant: only the search of a delta start runs on a sink, so every completion it reaches
/// has a delta word and tags are not recorded (a delta listing is lean); the completing methods
/// are never called and the tag methods keep nothing. A mixed start runs on a [`MixedSink`].
pub struct DeltaSink<'a> {
    keys: &'a mut [u64; DELTA_SINK_SLOTS],
    count: usize,
}

impl<V> MoveSink<V> for DeltaSink<'_> {
    lean_delta_sink_methods!();
    /// One store: the slot index is reduced modulo the fixed slot count, which the compiler
    /// drops where it proves the index in range. The listing's room fits the slots, so no
    /// push wraps unless the search completes more moves than its room, and then
    /// [`Search::list_deltas_into`] drops the listing.
    #[inline(always)]
    fn push_delta(&mut self, delta: u64) {
        self.keys[self.count % DELTA_SINK_SLOTS] = delta;
        self.count += 1;
    }
    /// One store and one add, no branch: the word lands in the next free slot and is counted
    /// only where `keep` holds (else the next push or nothing overwrites it, and nothing reads
    /// it: slots at or past the count are not moves). The room is below the slot count
    /// ([`Search::list_deltas_into`]), so in a listing that fits the slot is never a move's
    /// (no wrap round to slot 0).
    #[inline(always)]
    fn push_delta_if(&mut self, keep: bool, delta: u64) {
        self.keys[self.count % DELTA_SINK_SLOTS] = delta;
        self.count += keep as usize;
    }
    fn push_whole(&mut self, _target: NodeId, _values: &V) {
        unreachable!("only a mixed delta listing pushes whole moves");
    }
}

/// [`DeltaSink`] for a mixed delta start ([`Search::list_mixed_into`]): its completions without
/// a delta word push their successors whole ([`MoveSink::push_whole`]), into the successor
/// slots it holds besides the keys. A sink of its own type, so that the plain delta sink
/// carries no successor slots (breakthrough paid 0.6 % for them, unused).
pub struct MixedSink<'a, V> {
    keys: &'a mut [u64],
    successors: &'a mut Vec<CompiledState<V>>,
    count: usize,
}

impl<V: Copy> MoveSink<V> for MixedSink<'_, V> {
    lean_delta_sink_methods!();
    /// As [`DeltaSink`]'s.
    #[inline(always)]
    fn push_delta(&mut self, delta: u64) {
        if let Some(slot) = self.keys.get_mut(self.count) {
            *slot = delta;
        }
        self.count += 1;
    }
    /// As [`DeltaSink`]'s: the word is stored where there is a slot and counted only where
    /// `keep` holds, no branch on `keep` (the slot test always passes in a listing that fits:
    /// the room is made first, [`Search::list_mixed_into`]). Draughts' step listing pushes here.
    #[inline(always)]
    fn push_delta_if(&mut self, keep: bool, delta: u64) {
        if let Some(slot) = self.keys.get_mut(self.count) {
            *slot = delta;
        }
        self.count += keep as usize;
    }
    /// The successor in its slot (made room for first when there is none: moves pushed whole
    /// are the rare ones, chained captures), then [`WHOLE_MOVE`] as its delta word.
    #[inline(always)]
    fn push_whole(&mut self, target: NodeId, values: &V) {
        let successor = CompiledState { node: target, values: *values };
        match self.successors.get_mut(self.count) {
            Some(slot) => *slot = successor,
            None => grow_successors_to(self.successors, self.count, successor),
        }
        MoveSink::<V>::push_delta(self, WHOLE_MOVE);
    }
}

/// The working context of a compiled move search; one per thread, reused between searches.
/// Generated code calls its methods; users read [`Search::moves`].
#[derive(Debug)]
pub struct Search<V> {
    names: &'static Names,
    /// The tags of the current path: `path[..path_len]`. A fixed array, so a push is one store
    /// (no capacity check, no call to grow) and a pop one decrement.
    path: [SymbolId; MAX_MOVE_TAGS],
    path_len: usize,
    /// A lean search of a game whose lean searches read no tags
    /// ([`CompiledGame::LEAN_READS_NO_TAGS`]): [`Search::push_tag_bounded`] does nothing (that
    /// game emits no unbounded [`Search::push_tag`]), so `path_len` is meaningless until the
    /// next [`Search::begin`] or [`Search::begin_lean`] resets it.
    skip_path: bool,
    /// Follow only paths whose tags are a prefix of these.
    only: Option<Vec<SymbolId>>,
    /// `only`'s buffer between searches (so [`raw_apply`] allocates once per context), and the
    /// playout loop's buffer for the picked move's tags.
    spare_only: Vec<SymbolId>,
    picked: Vec<SymbolId>,
    /// The node the search started from (for error messages).
    start: NodeId,
    /// Nesting depth of reachability checks (0: the move search).
    depth: usize,
    /// One visited set per depth.
    visited: Vec<VisitedSet<V>>,
    /// The moves found by the last search.
    pub moves: MoveBuffer<V>,
    seen_keeper_states: HashSet<CompiledState<V>>,
    /// Whether visited sets are consulted; see [`run_search`].
    checked: bool,
    /// Visits left before an unchecked search gives up and is run again checked.
    budget: u32,
    /// The last search gave up (its error is not a real one).
    gave_up: bool,
    /// Per start node: an unchecked search from it gave up once, so searches from it run checked.
    always_checked: Vec<bool>,
    /// A de-duplication scope is open ([`Search::open_scope`]).
    scope_open: bool,
    /// The moves completed in the open scope: tag key, move index, and for tags the key cannot
    /// pack, their span in `scope_tags`.
    scope_moves: Vec<(u64, u32, u32, u32)>,
    scope_tags: Vec<SymbolId>,
    /// Visits keyed by (node, progress slot values) ([`Search::visit_slot`]): the stamp of the
    /// check that recorded each.
    slot_visits: Vec<u32>,
    /// The stamp of the current check (a new one at every checked [`Search::enter_reach`]).
    slot_stamp: u32,
    /// The settled start state of the game with this fingerprint, once computed
    /// ([`start_cached`]): settling is deterministic, so every playout starts from the same state.
    start_state: Option<(u64, CompiledState<V>)>,
    /// The context is as [`Search::begin_lean`] leaves it, with this `skip_path`: set by a full
    /// [`Search::begin_lean`], kept by every lean search that succeeds (each restores what it
    /// changes: tag pushes are popped, checks left, scopes closed), cleared by [`Search::begin`]
    /// and by a lean search that fails (which may leave any of them changed). While it holds, a
    /// lean search resets only the move count and its start node (the playout loop runs two
    /// searches a ply, and the other stores cost ~4 instructions each time).
    lean_ready: Option<bool>,
    /// A counted search's checkpoints ([`counted_search`]), kept for their capacity.
    checkpoints: Vec<counted_search::Checkpoint>,
}

impl<V: Values> Search<V> {
    /// A fresh context for a game's names.
    pub fn new(names: &'static Names) -> Self {
        Search {
            names,
            path: [0; MAX_MOVE_TAGS],
            path_len: 0,
            skip_path: false,
            only: None,
            spare_only: Vec::new(),
            picked: Vec::new(),
            start: 0,
            depth: 0,
            // The top level's set exists from the start (`begin` need not check).
            visited: vec![VisitedSet::default()],
            moves: MoveBuffer::default(),
            seen_keeper_states: HashSet::new(),
            checked: true,
            budget: 0,
            gave_up: false,
            always_checked: vec![false; names.nodes.len()],
            scope_open: false,
            scope_moves: Vec::new(),
            scope_tags: Vec::new(),
            slot_visits: Vec::new(),
            slot_stamp: 1,
            start_state: None,
            lean_ready: None,
            checkpoints: Vec::new(),
        }
    }

    /// Starts a search from `start`, after the callers set `only`, `tags_only` and `skip_tags`.
    #[inline(always)]
    fn begin(&mut self, start: NodeId) {
        self.lean_ready = None;
        self.moves.lean = self.moves.skip_tags && !self.moves.tags_only && self.only.is_none();
        self.moves.deltas = false;
        self.skip_path = false;
        self.start = start;
        self.path_len = 0;
        self.depth = 0;
        self.scope_open = false;
        self.moves.clear();
        // The visited set of the top level is cleared by `run_search` when the search is checked.
    }

    /// [`Search::begin`] for a search proved unique whose caller reads successors only (the
    /// playout loop, perft, keeper moves): the move buffer takes successors only, so its tags,
    /// spans and de-duplication table are left as they are (no search that reads them starts
    /// without [`Search::begin`] clearing them). `only` is set only inside [`raw_apply`] and
    /// `tags_only` only inside `generate_tags`, so neither needs resetting here. `skip_path`:
    /// the game's [`CompiledGame::LEAN_READS_NO_TAGS`]; `deltas`: list moves as deltas (the
    /// caller accepts them and [`CompiledGame::delta_start`] holds at `start`).
    #[inline(always)]
    fn begin_lean(&mut self, start: NodeId, skip_path: bool, deltas: bool) {
        debug_assert!(self.only.is_none() && !self.moves.tags_only);
        self.moves.count = 0;
        self.moves.deltas = deltas;
        self.start = start;
        if self.lean_ready == Some(skip_path) {
            debug_assert!(self.moves.lean && self.depth == 0 && !self.scope_open);
            debug_assert!(skip_path || self.path_len == 0);
            return;
        }
        self.lean_ready = Some(skip_path);
        self.moves.skip_tags = true;
        self.moves.lean = true;
        self.skip_path = skip_path;
        self.path_len = 0;
        self.depth = 0;
        self.scope_open = false;
    }

    /// [`Search::begin_lean`] where the caller keeps the context as a full `begin_lean` with
    /// `skip_path` leaves it, and `checked` false (the playout loop of a game whose every search
    /// runs lean and in place: see [`random_playout_into`]): only the move count, the delta mode
    /// and (for a listing of whole successors, whose errors name it) the start node change.
    #[inline(always)]
    fn begin_lean_kept(&mut self, start: NodeId, skip_path: bool, deltas: bool) {
        debug_assert!(self.lean_ready == Some(skip_path) && !self.checked);
        debug_assert!(self.moves.lean && self.depth == 0 && !self.scope_open);
        self.moves.count = 0;
        self.moves.deltas = deltas;
        // A delta listing runs on a sink, which reports no error naming the start.
        if !deltas {
            self.start = start;
        }
    }

    fn fail(error: EngineError) -> Fail {
        Fail(Box::new(error))
    }

    fn node_name(&self, node: NodeId) -> String {
        self.names.nodes.get(node as usize).map_or_else(|| format!("#{node}"), |n| n.to_string())
    }

    fn symbol_name(&self, symbol: SymbolId) -> String {
        self.names.symbols.get(symbol as usize).map_or_else(|| format!("#{symbol}"), |n| n.to_string())
    }

    /// Generated code: appends a tag on an edge into `target`; `Ok(false)` when the path no longer
    /// fits the move being searched for (the caller skips the path, then calls [`Search::pop_tag`]).
    #[inline(always)]
    pub fn push_tag(&mut self, tag: SymbolId, target: NodeId) -> Result<bool, Fail> {
        let position = self.path_len;
        if position >= MAX_MOVE_TAGS {
            return Err(self.tag_cycle(target));
        }
        self.path[position] = tag;
        self.path_len = position + 1;
        Ok(match &self.only {
            None => true,
            Some(only) => only.get(position) == Some(&tag),
        })
    }

    /// Generated code: [`Search::push_tag`] where the generator proved that a move has fewer than
    /// [`MAX_MOVE_TAGS`] tags (the move search has no cycle and fewer nodes than that).
    #[inline(always)]
    pub fn push_tag_bounded(&mut self, tag: SymbolId) -> bool {
        if self.skip_path {
            return true;
        }
        let position = self.path_len;
        // The generator proved `position < MAX_MOVE_TAGS`; the mask only spares a bounds check.
        self.path[position % MAX_MOVE_TAGS] = tag;
        self.path_len = position + 1;
        match &self.only {
            None => true,
            Some(only) => only.get(position) == Some(&tag),
        }
    }

    /// Generated code: while [`raw_apply`] replays one move, the tag the next push must give
    /// (`Some(None)`: the move has no more tags, so every further push fails); `None` when every
    /// move is searched, or when a further push would fail with a tag cycle (which a loop skipped
    /// by this answer would no longer report).
    #[inline(always)]
    pub fn replayed_next_tag(&self) -> Option<Option<SymbolId>> {
        let position = self.path_len;
        match &self.only {
            Some(only) if position < MAX_MOVE_TAGS => Some(only.get(position).copied()),
            _ => None,
        }
    }

    #[cold]
    fn tag_cycle(&self, target: NodeId) -> Fail {
        Self::fail(EngineError::TagCycle { node: self.node_name(target) })
    }

    /// Generated code: removes the tag [`Search::push_tag`] appended. With `skip_path` the push
    /// appended nothing and nothing reads `path_len` until the next search resets it, so the
    /// decrement (wrapping below zero) is left unconditional: games whose searches never skip
    /// their tags pay no test for it.
    #[inline(always)]
    pub fn pop_tag(&mut self) {
        self.path_len = self.path_len.wrapping_sub(1);
    }

    /// Generated code: a move completed on an edge into `target` with `values` after it;
    /// `player` is the new value of `player` and `valid` whether it is a player, keeper or random.
    #[inline(always)]
    pub fn complete(&mut self, target: NodeId, values: &V, player: SymbolId, valid: bool) -> Result<(), Fail> {
        if self.only.as_ref().is_some_and(|only| only.len() != self.path_len) {
            return Ok(());
        }
        if !valid {
            return Err(self.invalid_player(target, player));
        }
        if self.moves.add(&self.path[..self.path_len], target, values).is_err() {
            return Err(self.ambiguous());
        }
        Ok(())
    }

    /// Generated code: a move completed where the generator proved that no other path of this
    /// search gives the same tags (spec/codegen.md), so it is appended without de-duplication.
    #[inline(always)]
    pub fn complete_unique(&mut self, target: NodeId, values: &V, player: SymbolId, valid: bool) -> Result<(), Fail> {
        if self.moves.lean && valid {
            self.moves.push(&[], target, values);
            return Ok(());
        }
        if self.only.as_ref().is_some_and(|only| only.len() != self.path_len) {
            return Ok(());
        }
        if !valid {
            return Err(self.invalid_player(target, player));
        }
        self.moves.push(&self.path[..self.path_len], target, values);
        Ok(())
    }

    /// Generated code: [`Search::complete_unique`] where the new `player` is a literal the
    /// generator checked (a player, keeper or random): nothing can fail.
    #[inline(always)]
    pub fn complete_unique_valid(&mut self, target: NodeId, values: &V) {
        if self.moves.lean {
            self.moves.push(&[], target, values);
            return;
        }
        if self.only.as_ref().is_some_and(|only| only.len() != self.path_len) {
            return;
        }
        self.moves.push(&self.path[..self.path_len], target, values);
    }

    /// Generated code: `if push_tag_bounded(tag) { complete_unique_valid(target, values) }
    /// pop_tag()` in one call, for a tag pushed right before such a completion. A listing of
    /// tags only whose path is this one tag (a placement: `cell = Cell(*); $$ cell`) stores its
    /// packed key without touching the path (one comparison and one store a move, where the
    /// three calls cost ~30 instructions: gomoku lists ~170 moves a ply this way).
    #[inline(always)]
    pub fn complete_unique_valid_tagged(&mut self, tag: SymbolId, target: NodeId, values: &V) {
        if self.moves.lean {
            self.moves.push(&[], target, values);
            return;
        }
        if self.path_len == 0 && self.moves.tags_only && self.only.is_none() {
            self.moves.push(&[tag], target, values);
            return;
        }
        if self.push_tag_bounded(tag) {
            self.complete_unique_valid(target, values);
        }
        self.pop_tag();
    }

    /// Generated code: [`Search::complete_unique_valid_tagged`] where the generator proved that
    /// every path reaching the tag edge pushed exactly `DEPTH` tags (a fixed *tag depth*,
    /// spec/codegen.md). A listing of tags only, not replaying a move, stores the packed key of
    /// the path's tags and `tag` at once when they fit one (`DEPTH` below 3, tags below 2^16):
    /// no push, pop or length test (amazons lists ~1,000 moves a ply at depth 2).
    #[inline(always)]
    pub fn complete_unique_valid_tagged_at<const DEPTH: usize>(&mut self, tag: SymbolId, target: NodeId, values: &V) {
        if self.moves.lean {
            self.moves.push(&[], target, values);
            return;
        }
        // Only `generate_tags` lists tags only, and it searches every move (`only` is `None`).
        if DEPTH < 3 && self.moves.tags_only {
            debug_assert!(self.only.is_none(), "a listing of tags only searches every move");
            debug_assert_eq!(self.path_len, DEPTH, "the generator's tag depth");
            // `% 4` keeps the shift in range where `DEPTH >= 3` (this branch is not taken then).
            let mut key = (DEPTH as u64 + 1) | (tag as u64) << (16 * ((DEPTH + 1) % 4));
            let mut any = tag;
            for (i, &earlier) in self.path[..DEPTH].iter().enumerate() {
                key |= (earlier as u64) << (16 * (i + 1));
                any |= earlier;
            }
            if any < 1 << 16 {
                self.moves.push_packed_key(key);
                return;
            }
        }
        if self.push_tag_bounded(tag) {
            self.complete_unique_valid(target, values);
        }
        self.pop_tag();
    }

    /// Generated code: whether this search lists its moves as deltas: a completion whose write
    /// set fits a delta word passes it to [`Search::push_delta`] instead of completing. Only
    /// lean searches from a [`CompiledGame::delta_start`] node in the playout loop do.
    #[inline(always)]
    pub fn lists_deltas(&self) -> bool {
        self.moves.deltas
    }

    /// Generated code: appends a move as its delta word, where [`Search::lists_deltas`] holds.
    #[inline(always)]
    pub fn push_delta(&mut self, delta: u64) {
        self.moves.push_delta(delta);
    }

    /// Generated code: [`Search::push_delta`] where `keep` holds (a guard right before a
    /// completion with a delta word, [`MoveSink::push_delta_if`]).
    #[inline(always)]
    pub fn push_delta_if(&mut self, keep: bool, delta: u64) {
        if keep {
            self.moves.push_delta(delta);
        }
    }

    /// Generated code: appends a move whose completion has no delta word, where
    /// [`Search::lists_deltas`] holds (a completion below a mixed delta start,
    /// [`CompiledGame::MIXED_DELTAS`]): its successor is stored whole and its key slot marked.
    #[inline(always)]
    pub fn push_whole(&mut self, target: NodeId, values: &V) {
        debug_assert!(self.moves.deltas && self.moves.lean, "only a lean delta listing pushes whole moves");
        self.moves.push_whole(target, values);
    }

    /// Generated code: runs `search` (the move search of a delta start whose search cannot fail,
    /// generic over its [`MoveSink`]) as a delta listing into a [`DeltaSink`], where
    /// [`Search::lists_deltas`] holds. `bound` is the room: the most moves one search from that
    /// start can complete (the generator's count over its acyclic region), capped at
    /// [`DELTA_SINK_SLOTS`], so the fixed slots hold every move of a listing that fits and each
    /// push is a store, with the move count in a register instead of the context's field. The
    /// count is the context's again afterwards. Returns whether every move fitted: a start whose
    /// bound is larger than the room (draughts' capture chains) may complete more, and then the
    /// listing is dropped (the count as before) for the caller to run on the context.
    /// The search takes the sink by value and hands it back, so that where the search function
    /// is inlined the sink is a local whose fields the compiler keeps in registers.
    #[inline(always)]
    #[must_use = "a listing past the room is dropped: run the search on the context then"]
    pub fn list_deltas_into(&mut self, bound: usize, search: impl FnOnce(DeltaSink<'_>) -> DeltaSink<'_>) -> bool {
        debug_assert!(self.moves.deltas, "only a delta listing fills a delta sink");
        let start = self.moves.count as usize;
        // A delta start's search begins with the sink (no move listed before it) and the room
        // fits the slots with one to spare (an uncounted `push_delta_if` of a full room stores
        // there): both constants where the listing is inlined.
        assert!(start + bound < DELTA_SINK_SLOTS, "a delta listing's room exceeds the sink's slots");
        let sink = search(DeltaSink { keys: self.moves.delta_sink_slots(), count: start });
        // A push past the room wraps round the slots (no panic path per push); such a listing is
        // dropped here, so what it overwrote is never read.
        let fitted = sink.count <= start + bound;
        if fitted {
            self.moves.count = sink.count as u32;
        }
        fitted
    }

    /// Generated code: [`Search::list_deltas_into`] for a mixed delta start, on a [`MixedSink`]
    /// (its moves without a delta word pushed whole).
    #[inline(always)]
    #[must_use = "a listing past the room is dropped: run the search on the context then"]
    pub fn list_mixed_into(&mut self, bound: usize, search: impl FnOnce(MixedSink<'_, V>) -> MixedSink<'_, V>) -> bool {
        debug_assert!(self.moves.deltas, "only a delta listing fills a delta sink");
        let start = self.moves.count as usize;
        if self.moves.keys.len() < start + bound {
            self.moves.grow_keys_to(start + bound);
        }
        let moves = &mut self.moves;
        let sink = search(MixedSink { keys: &mut moves.keys, successors: &mut moves.successors, count: start });
        let fitted = sink.count <= start + bound;
        if fitted {
            self.moves.count = sink.count as u32;
        }
        fitted
    }

    /// Generated code: whether a move completed now with one more tag would be stored by
    /// [`Search::complete_unique_valid_tagged`] as that tag's packed key alone (a listing of tags
    /// only, from an empty path, not replaying a move). A placement loop (`cell = Cell(*)`,
    /// guards, `$$ cell`, completion) then pushes its moves with [`Search::push_single_tag`]
    /// without building the state the completion would see.
    #[inline(always)]
    pub fn lists_single_tags(&self) -> bool {
        !self.moves.lean && self.path_len == 0 && self.moves.tags_only && self.only.is_none()
    }

    /// Generated code: appends a move whose tags are `tag` alone, where
    /// [`Search::lists_single_tags`] holds (what [`Search::complete_unique_valid_tagged`] stores).
    #[inline(always)]
    pub fn push_single_tag(&mut self, tag: SymbolId) {
        self.moves.push_key(&[tag]);
    }

    /// Generated code: opens a de-duplication scope at a node where two paths may part with the
    /// same tags (spec/codegen.md); `true` when it was not open yet (pass it to
    /// [`Search::close_scope`]). Moves completed below are compared with the scope's moves only.
    #[inline(always)]
    pub fn open_scope(&mut self) -> bool {
        if self.scope_open {
            return false;
        }
        self.scope_open = true;
        self.scope_moves.clear();
        self.scope_tags.clear();
        true
    }

    /// Generated code: closes the scope [`Search::open_scope`] opened (if it did).
    #[inline(always)]
    pub fn close_scope(&mut self, opened: bool) {
        if opened {
            self.scope_open = false;
        }
    }

    /// Generated code: a move completed where only moves of the open scope can have the same
    /// tags (none when no scope is open); the same tags are one move with the same successor, an
    /// ambiguity otherwise.
    #[inline(always)]
    pub fn complete_scoped(&mut self, target: NodeId, values: &V, player: SymbolId, valid: bool) -> Result<(), Fail> {
        if self.only.as_ref().is_some_and(|only| only.len() != self.path_len) {
            return Ok(());
        }
        if !valid {
            return Err(self.invalid_player(target, player));
        }
        if self.scope_open {
            return self.add_scoped(target, values);
        }
        self.moves.push(&self.path[..self.path_len], target, values);
        Ok(())
    }

    #[inline(always)]
    fn add_scoped(&mut self, target: NodeId, values: &V) -> Result<(), Fail> {
        let tags = &self.path[..self.path_len];
        let key = tag_key(tags);
        for &(stored, index, start, len) in &self.scope_moves {
            if stored == key && (key != LONG_TAGS || self.scope_tags[start as usize..(start + len) as usize] == *tags) {
                if self.moves.tags_only {
                    self.moves.saw_duplicate = true;
                    return Ok(());
                }
                let previous = &self.moves.successors[index as usize];
                return if previous.node == target && previous.values == *values {
                    Ok(())
                } else {
                    Err(self.ambiguous())
                };
            }
        }
        let (start, len) = if key == LONG_TAGS {
            let start = self.scope_tags.len() as u32;
            self.scope_tags.extend_from_slice(tags);
            (start, tags.len() as u32)
        } else {
            (0, 0)
        };
        self.scope_moves.push((key, self.moves.count, start, len));
        self.moves.push(tags, target, values);
        Ok(())
    }

    #[cold]
    fn invalid_player(&self, target: NodeId, player: SymbolId) -> Fail {
        Self::fail(EngineError::InvalidPlayer { node: self.node_name(target), value: self.symbol_name(player) })
    }

    #[cold]
    fn ambiguous(&self) -> Fail {
        let tags: Vec<String> = self.path[..self.path_len].iter().map(|&t| self.symbol_name(t)).collect();
        Self::fail(EngineError::AmbiguousMove { node: self.node_name(self.start), tags: tags.join(" ") })
    }

    /// Generated code: records (node, tags, values) at a node where the search must check for
    /// repeats; `false` when it was seen before in this search (or this reachability check).
    /// The unchecked case (a budget decrement) is inlined into the generated code; the rest is not.
    #[inline(always)]
    pub fn visit(&mut self, node: NodeId, values: &V) -> Result<bool, Fail> {
        if !self.checked && self.budget != 0 {
            self.budget -= 1;
            return Ok(true);
        }
        self.visit_slow(node, values)
    }

    #[inline(never)]
    fn visit_slow(&mut self, node: NodeId, values: &V) -> Result<bool, Fail> {
        if !self.checked {
            self.gave_up = true;
            return Err(Self::fail(EngineError::Malformed { message: "unchecked search gave up".into() }));
        }
        let depth = self.depth;
        let tags: &[SymbolId] = if depth == 0 { &self.path[..self.path_len] } else { &[] };
        Ok(self.visited[depth].insert(node, tags, values))
    }

    /// Generated code: starts a reachability check `? from -> to` (one level deeper).
    #[inline(always)]
    pub fn enter_reach(&mut self, from: NodeId, to: NodeId) -> Result<(), Fail> {
        let depth = self.depth + 1;
        if depth > MAX_REACH_DEPTH {
            return Err(self.reach_too_deep(from, to));
        }
        self.depth = depth;
        // An unchecked search never reads its visited sets (see `run_search`).
        if self.checked {
            self.fresh_visited_set(depth);
        }
        Ok(())
    }

    #[cold]
    fn reach_too_deep(&self, from: NodeId, to: NodeId) -> Fail {
        Self::fail(EngineError::ReachDepth { from: self.node_name(from), to: self.node_name(to) })
    }

    #[inline(never)]
    fn fresh_visited_set(&mut self, depth: usize) {
        if self.visited.len() <= depth {
            self.visited.resize_with(depth + 1, VisitedSet::default);
        }
        self.visited[depth].clear();
        self.slot_stamp = self.slot_stamp.wrapping_add(1);
        if self.slot_stamp == 0 {
            self.slot_visits.fill(0);
            self.slot_stamp = 1;
        }
    }

    /// Generated code: [`Search::visit`] in a reachability check that writes a few slots only
    /// (and nests no check), so the states it visits differ in those slots only and the node with
    /// their values, packed into `key` by the generator (below 2^20), is the whole key: a stamped
    /// table entry instead of a hashed state.
    #[inline(always)]
    pub fn visit_slot(&mut self, key: u32) -> Result<bool, Fail> {
        if !self.checked && self.budget != 0 {
            self.budget -= 1;
            return Ok(true);
        }
        self.visit_slot_slow(key)
    }

    #[inline(never)]
    fn visit_slot_slow(&mut self, key: u32) -> Result<bool, Fail> {
        if !self.checked {
            self.gave_up = true;
            return Err(Self::fail(EngineError::Malformed { message: "unchecked search gave up".into() }));
        }
        let index = key as usize;
        if self.slot_visits.len() <= index {
            self.slot_visits.resize((index + 1).next_power_of_two(), 0);
        }
        let seen = self.slot_visits[index] == self.slot_stamp;
        self.slot_visits[index] = self.slot_stamp;
        Ok(!seen)
    }

    /// Generated code: a node of a check whose visit the generator dropped (every cycle through
    /// it records one elsewhere) still spends an unchecked search's budget, so an unchecked walk
    /// recurses no deeper per budget unit than with the visit. Nothing in a checked search.
    #[inline(always)]
    pub fn count_step(&mut self) -> Result<(), Fail> {
        if self.checked {
            return Ok(());
        }
        if self.budget != 0 {
            self.budget -= 1;
            return Ok(());
        }
        self.visit_slot_slow(0).map(drop)
    }

    /// Generated code: ends the reachability check [`Search::enter_reach`] started.
    #[inline]
    pub fn leave_reach(&mut self) {
        self.depth -= 1;
    }

    /// Generated code: the error of a write `m[key] = ...` with `key` outside `m`'s key type.
    #[cold]
    pub fn key_outside(&self, key: SymbolId, map_type: &str, edge: &str) -> Fail {
        Self::fail(EngineError::KeyOutsideDomain {
            key: self.symbol_name(key),
            map_type: map_type.to_string(),
            edge: edge.to_string(),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Index-based API over a compiled game.

/// A fresh search context for a game.
pub fn search_context<G: CompiledGame>() -> Search<G::Values> {
    Search::new(&G::NAMES)
}

/// Lists the moves of `state` into `search.moves` (keeper moves not applied to the successors);
/// empty in a terminal state.
pub fn generate<G: CompiledGame>(
    state: &CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) -> Result<(), EngineError> {
    search.moves.skip_tags = false;
    generate_moves::<G>(state, search)
}

/// Whether a search from `node` is proved unique ([`CompiledGame::UNIQUE_STARTS`]).
#[inline(always)]
fn unique_start<G: CompiledGame>(node: NodeId) -> bool {
    G::STARTS_ALL_UNIQUE || G::UNIQUE_STARTS.get(node as usize).copied().unwrap_or(false)
}

/// [`generate`] for callers that read successors only: a search proved unique
/// ([`CompiledGame::UNIQUE_STARTS`]) does not record tags, and starts with [`Search::begin_lean`].
#[inline(always)]
fn generate_successors<G: CompiledGame>(
    state: &CompiledState<G::Values>,
    search: &mut Search<G::Values>,
    accept_deltas: bool,
) -> Result<(), EngineError> {
    if state.node != G::END && unique_start::<G>(state.node) {
        search.begin_lean(state.node, G::LEAN_READS_NO_TAGS, accept_deltas && G::delta_start(state.node));
        let result = run_search::<G>(state, search);
        if result.is_err() {
            search.lean_ready = None;
        }
        return result.map_err(EngineError::from);
    }
    search.moves.skip_tags = false;
    generate_moves::<G>(state, search)
}

/// [`generate_successors`] for the playout loop, which discards `state` after an error: a lean
/// search of a game that records no visits ([`CompiledGame::NO_VISITS`]: it never gives up, so
/// never runs again from the original values) searches `state`'s values in place, without
/// copying them first. `state` is not terminal, and unchanged when this succeeds. The moves may
/// be listed as deltas: take them with [`MoveBuffer::take_successor`].
///
/// `kept`: the caller keeps the context lean-ready ([`Search::begin_lean_kept`]); only where
/// [`lean_kept`] holds.
#[inline(always)]
fn generate_successors_in_place<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    search: &mut Search<G::Values>,
    kept: bool,
) -> Result<(), EngineError> {
    // Callers search non-terminal states only (the playout loop and `settle_in_place` test it).
    debug_assert!(state.node != G::END);
    if G::NO_VISITS && unique_start::<G>(state.node) {
        if kept {
            search.begin_lean_kept(state.node, G::LEAN_READS_NO_TAGS, G::delta_start(state.node));
        } else {
            search.begin_lean(state.node, G::LEAN_READS_NO_TAGS, G::delta_start(state.node));
            // Nothing reads visited sets: a nested check need not clear one (`enter_reach`).
            search.checked = false;
        }
        #[cfg(debug_assertions)]
        let before = *state;
        let result = G::search_in_place(state.node, &mut state.values, search);
        #[cfg(debug_assertions)]
        if result.is_ok() {
            debug_assert!(*state == before, "a successful search left its values as it found them");
        }
        if result.is_err() {
            search.lean_ready = None;
        }
        return result.map_err(EngineError::from);
    }
    generate_successors::<G>(state, search, true)
}

#[inline]
fn generate_moves<G: CompiledGame>(
    state: &CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) -> Result<(), EngineError> {
    if search.only.is_some() {
        search.only = None;
    }
    search.moves.tags_only = false;
    search.begin(state.node);
    if state.node == G::END {
        return Ok(());
    }
    run_search::<G>(state, search).map_err(EngineError::from)
}

/// Visits (at nodes with a visited set) an unchecked search may make before it gives up.
const UNCHECKED_BUDGET: u32 = 1 << 15;

/// Runs the generated search from `state` (not terminal), first *unchecked*: visited sets only
/// make a search terminate and never change what it finds (a pruned revisit would rediscover the
/// same moves, in an order after their first discovery, and the same errors), so a search that
/// stays within [`UNCHECKED_BUDGET`] visits skips them. One that exceeds it (a cycle that does not
/// change the state, or an exponential walk) is run again checked, and so is every later search
/// from the same node.
#[inline(always)]
fn run_search<G: CompiledGame>(state: &CompiledState<G::Values>, search: &mut Search<G::Values>) -> Result<(), Fail> {
    if G::NO_VISITS {
        // Nothing reads visited sets or the budget, and nothing gives up.
        search.checked = false;
        return G::search(state, search);
    }
    let node = state.node as usize;
    search.checked = search.always_checked.get(node).copied().unwrap_or(false);
    if search.checked {
        search.visited[0].clear();
    }
    search.budget = UNCHECKED_BUDGET;
    search.gave_up = false;
    let result = G::search(state, search);
    if result.is_ok() || !search.gave_up {
        return result;
    }
    rerun_checked::<G>(state, search)
}

/// The unchecked search from `state` gave up: runs it again checked, and so every later search
/// from the same node.
#[cold]
#[inline(never)]
fn rerun_checked<G: CompiledGame>(
    state: &CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) -> Result<(), Fail> {
    let node = state.node as usize;
    if search.always_checked.len() <= node {
        search.always_checked.resize(node + 1, false);
    }
    search.always_checked[node] = true;
    search.checked = true;
    search.gave_up = false;
    search.begin(state.node);
    search.visited[0].clear();
    G::search(state, search)
}

/// [`generate`] recording tags only (no successors); `Ok(false)` when two paths gave the same
/// tags, whose successors then still need comparing (the list is then incomplete: run [`generate`]).
fn generate_tags<G: CompiledGame>(
    state: &CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) -> Result<bool, EngineError> {
    search.only = None;
    search.moves.tags_only = true;
    search.moves.skip_tags = false;
    search.begin(state.node);
    let result = if state.node == G::END { Ok(()) } else { run_search::<G>(state, search) };
    search.moves.tags_only = false;
    result.map_err(EngineError::from)?;
    Ok(!search.moves.saw_duplicate)
}

/// The successor of the move with these tags (keeper moves not applied), or `None` when the move
/// is not legal; only paths whose tags fit the move are searched.
pub fn raw_apply<G: CompiledGame>(
    state: &CompiledState<G::Values>,
    tags: &[SymbolId],
    search: &mut Search<G::Values>,
) -> Result<Option<CompiledState<G::Values>>, EngineError> {
    let mut only = std::mem::take(&mut search.spare_only);
    only.clear();
    only.extend_from_slice(tags);
    search.only = Some(only);
    search.moves.tags_only = false;
    search.moves.skip_tags = false;
    search.begin(state.node);
    let result = if state.node == G::END { Ok(()) } else { run_search::<G>(state, search) };
    search.spare_only = search.only.take().unwrap_or_default();
    result.map_err(EngineError::from)?;
    Ok((!search.moves.is_empty()).then(|| *search.moves.successor(0)))
}

/// Applies keeper moves until a real player or `random` is to move, or the game ends.
pub fn settle<G: CompiledGame>(
    mut state: CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) -> Result<CompiledState<G::Values>, EngineError> {
    settle_after::<G>(&mut state, 0, search)?;
    Ok(state)
}

/// Whether the keeper moves in `state`: [`CompiledGame::mover`] is `Keeper` (the game has not
/// ended and `player` is neither a player nor `random`), with the usual case, `player` holding
/// the keeper symbol, decided by one comparison.
#[inline(always)]
fn keeper_moves<G: CompiledGame>(state: &CompiledState<G::Values>) -> bool {
    state.node != G::END && keeper_moves_in_play::<G>(state)
}

/// [`keeper_moves`] in a state known not to be terminal.
#[inline(always)]
fn keeper_moves_in_play<G: CompiledGame>(state: &CompiledState<G::Values>) -> bool {
    debug_assert!(state.node != G::END);
    let player = G::player(&state.values);
    let keeper_is_no_player = G::KEEPER != G::RANDOM && !G::PLAYERS.contains(&G::KEEPER);
    if player == G::KEEPER && keeper_is_no_player {
        return true;
    }
    player != G::RANDOM && !G::PLAYERS.contains(&player)
}

/// Whether every search of `G`'s playout loop runs lean and in place (no visits, every start
/// proved unique), so the loop can keep the context lean-ready ([`Search::begin_lean_kept`])
/// instead of testing it at every search: only a tags-only ply ([`Search::begin`]) and an error
/// (which ends the playout) leave that state, and [`settle_after`]'s full
/// [`Search::begin_lean`] keeps it.
#[inline(always)]
const fn lean_kept<G: CompiledGame>() -> bool {
    G::NO_VISITS && G::STARTS_ALL_UNIQUE
}

/// Makes the context lean-ready for [`Search::begin_lean_kept`] (a full [`Search::begin_lean`],
/// and `checked` false: nothing reads visited sets in a game with no visits). Usually it is
/// already (the previous playout left it so): two tests, inline, and no call.
#[inline(always)]
fn keep_lean<G: CompiledGame>(search: &mut Search<G::Values>) {
    if search.lean_ready != Some(G::LEAN_READS_NO_TAGS) || search.checked {
        make_lean::<G>(search);
    }
}

/// [`keep_lean`] where the context is not lean-ready: out of line (after an error, a tags-only
/// ply, or a context's first playout).
#[cold]
#[inline(never)]
fn make_lean<G: CompiledGame>(search: &mut Search<G::Values>) {
    search.begin_lean(G::BEGIN, G::LEAN_READS_NO_TAGS, false);
    search.checked = false;
}

/// [`settle`] in the playout loop: the usual cases inline (no keeper move, or one keeper move into
/// a state where someone else moves), anything longer in [`settle_after`]. Returns whether the
/// game goes on (`state` is not terminal), so the loop tests the end once a move.
#[inline(always)]
fn settle_in_place<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) -> Result<bool, EngineError> {
    if state.node == G::END {
        return Ok(false);
    }
    if !keeper_moves_in_play::<G>(state) {
        return Ok(true);
    }
    #[cfg(debug_assertions)]
    let before = *state;
    if G::apply_keeper(state) {
        #[cfg(debug_assertions)]
        check_applied_keeper::<G>(&before, state, search);
    } else {
        generate_successors_in_place::<G>(state, search, lean_kept::<G>())?;
        if search.moves.len() != 1 {
            return Err(keeper_move_count(state, search));
        }
        search.moves.take_successor::<G>(0, state);
    }
    if state.node == G::END {
        return Ok(false);
    }
    if keeper_moves_in_play::<G>(state) {
        return match settle_rest::<G>(state, search) {
            None => Ok(state.node != G::END),
            Some(error) => Err(*error),
        };
    }
    Ok(true)
}

/// [`settle_after`] after one keeper move, for [`settle_in_place`]: out of line, with its error
/// boxed, so that the usual ply's result stays in registers (an error written through memory
/// made the loop store and reload every ply's `Ok(true)`).
#[cold]
#[inline(never)]
fn settle_rest<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) -> Option<Box<EngineError>> {
    settle_after::<G>(state, 1, search).err().map(Box::new)
}

/// Debug builds: the keeper move [`CompiledGame::apply_keeper`] applied to `before` is the one
/// move its listing finds (the listing as [`settle_after`] makes it, which keeps a kept-lean
/// context lean-ready).
#[cfg(debug_assertions)]
fn check_applied_keeper<G: CompiledGame>(
    before: &CompiledState<G::Values>,
    applied: &CompiledState<G::Values>,
    search: &mut Search<G::Values>,
) {
    let listed = generate_successors::<G>(before, search, false);
    assert!(listed.is_ok(), "an applied keeper move's search cannot fail");
    assert_eq!(search.moves.len(), 1, "an applied keeper move is the only one");
    assert!(search.moves.successor(0) == applied, "the applied keeper move is the listed one");
}

#[cold]
fn keeper_move_count<V: Values>(state: &CompiledState<V>, search: &Search<V>) -> EngineError {
    EngineError::KeeperMoveCount { node: search.node_name(state.node), count: search.moves.len() }
}

/// Applies keeper moves to `state` until a real player or `random` is to move, or the game ends;
/// `steps` keeper moves led to it already (the cycle check starts after
/// [`KEEPER_CYCLE_CHECK_AFTER`] of them).
#[inline(never)]
fn settle_after<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    mut steps: usize,
    search: &mut Search<G::Values>,
) -> Result<(), EngineError> {
    while keeper_moves::<G>(state) {
        // The cycle check reads the state the keeper moved in; an applied move (which cannot
        // fail) replaces it first.
        let previous = *state;
        let applied = G::apply_keeper(state);
        if applied {
            #[cfg(debug_assertions)]
            check_applied_keeper::<G>(&previous, state, search);
        } else {
            generate_successors::<G>(state, search, false)?;
            if search.moves.len() != 1 {
                return Err(keeper_move_count(state, search));
            }
        }
        steps += 1;
        if steps == KEEPER_CYCLE_CHECK_AFTER + 1 {
            search.seen_keeper_states.clear();
        }
        if steps > KEEPER_CYCLE_CHECK_AFTER && !search.seen_keeper_states.insert(previous) {
            return Err(EngineError::KeeperCycle { node: search.node_name(previous.node) });
        }
        if !applied {
            *state = *search.moves.successor(0);
        }
    }
    Ok(())
}

/// The start state (keeper moves applied).
pub fn start<G: CompiledGame>(search: &mut Search<G::Values>) -> Result<CompiledState<G::Values>, EngineError> {
    settle::<G>(G::initial(), search)
}

/// [`start`] computed once per search context: the start state is a function of the game alone
/// (settling reads no random numbers), so later calls copy it. Keyed by the game's fingerprint, so
/// a context used with another game of the same value type settles again. An error is not cached
/// (the next call settles again and meets the same error).
#[inline]
fn start_cached<G: CompiledGame>(search: &mut Search<G::Values>) -> Result<CompiledState<G::Values>, EngineError> {
    if let Some((fingerprint, state)) = search.start_state {
        if fingerprint == G::FINGERPRINT {
            return Ok(state);
        }
    }
    let state = start::<G>(search)?;
    search.start_state = Some((G::FINGERPRINT, state));
    Ok(state)
}

/// One uniform random playout from the start, making the same choices as
/// [`crate::playout::run_playouts`] makes for the same generator.
pub fn random_playout<G: CompiledGame>(
    rng: &mut Xoshiro256,
    max_moves: u64,
    playout: u64,
    search: &mut Search<G::Values>,
) -> Result<PlayoutOutcome, EngineError> {
    let mut outcome = PlayoutOutcome::default();
    random_playout_into::<G>(rng, max_moves, playout, search, &mut outcome)?;
    Ok(outcome)
}

/// The most moves a playout ply lists with their successors before the next ply from a start
/// that is not a delta start lists tags only: more than [`tags_only_above_bytes`] of successors.
#[inline(always)]
fn tags_only_above_moves<G: CompiledGame>() -> usize {
    tags_only_above_bytes::<G>() / std::mem::size_of::<CompiledState<G::Values>>()
}

/// [`random_playout`] into an outcome the caller reuses (every field is overwritten; the goals
/// buffer keeps its capacity, so the playout allocates nothing).
///
/// Per ply the loop tests the move limit, lists, picks, takes the picked move and settles the
/// successor (one test of the end and one of who moves after the move, and after each keeper
/// move applied in place). The move limit counts down (one decrement and branch a ply); whether
/// a listing is of deltas follows from the start node ([`listed_as_deltas`]), so taking the
/// picked move tests no field of the context; a ply listing tags only runs out of line where
/// such plies are rare ([`tags_only_ply_out_of_line`]).
pub fn random_playout_into<G: CompiledGame>(
    rng: &mut Xoshiro256,
    max_moves: u64,
    playout: u64,
    search: &mut Search<G::Values>,
    outcome: &mut PlayoutOutcome,
) -> Result<(), EngineError> {
    let mut state = begin_playout::<G>(search, outcome)?;
    let mut cursor = PlyCursor::new(max_moves);
    // A settled state is terminal, or `random` or a player moves.
    if state.node != G::END {
        while playout_ply::<G>(&mut state, &mut cursor, rng, max_moves, playout, search, outcome)? {}
    }
    finish_playout::<G>(&state, outcome);
    Ok(())
}

/// What [`playout_ply`] carries from one ply of a playout to the next: the moves left before the
/// limit, and the number of moves the last ply listed.
#[derive(Clone, Copy, Debug)]
struct PlyCursor {
    moves_left: u64,
    last_count: usize,
}

impl PlyCursor {
    #[inline(always)]
    fn new(max_moves: u64) -> Self {
        PlyCursor { moves_left: max_moves, last_count: 0 }
    }
}

/// The start of a playout of [`random_playout_into`]: the settled start state, with the context
/// made lean-ready where [`lean_kept`] holds and `outcome`'s counts zeroed.
#[inline(always)]
fn begin_playout<G: CompiledGame>(
    search: &mut Search<G::Values>,
    outcome: &mut PlayoutOutcome,
) -> Result<CompiledState<G::Values>, EngineError> {
    let state = start_cached::<G>(search)?;
    if lean_kept::<G>() {
        keep_lean::<G>(search);
    }
    outcome.plies = 0;
    outcome.chance_moves = 0;
    outcome.legal_moves = 0;
    Ok(state)
}

/// The end of a playout of [`random_playout_into`]: the goals of its terminal state.
#[inline(always)]
fn finish_playout<G: CompiledGame>(state: &CompiledState<G::Values>, outcome: &mut PlayoutOutcome) {
    outcome.goals.clear();
    outcome.goals.extend((0..G::PLAYERS.len()).map(|p| G::goal(&state.values, p)));
}

/// One ply of [`random_playout_into`] from `state` (settled, not terminal): lists, picks, takes
/// the picked move and settles its successor; returns whether the game goes on.
#[inline(always)]
fn playout_ply<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    cursor: &mut PlyCursor,
    rng: &mut Xoshiro256,
    max_moves: u64,
    playout: u64,
    search: &mut Search<G::Values>,
    outcome: &mut PlayoutOutcome,
) -> Result<bool, EngineError> {
    let random = G::player(&state.values) == G::RANDOM;
    if cursor.moves_left == 0 {
        return Err(EngineError::PlayoutTooLong { playout, limit: max_moves });
    }
    cursor.moves_left -= 1;
    // With many moves, list tags only and search the picked move again alone (its tags
    // prune every other path): one successor is copied instead of all of them. A delta
    // listing copies none, unless the game's replay skips to its member: then a
    // placement's tags-only listing, which writes nothing per member, costs less than
    // its delta listing (gomoku +13 % instructions per playout with deltas instead).
    let mut listed = false;
    // A counted start builds the picked move alone.
    if let Some(count) = counted::counted_ply::<G>(state, rng, random, search, outcome)? {
        cursor.last_count = count;
        listed = true;
    }
    // Not after a counted ply: that ply's successor is settled first (it may stand on
    // another start).
    if !listed {
        if let Some(count) = counted_search::counted_search_ply::<G>(state, rng, random, search, outcome)? {
            cursor.last_count = count;
            listed = true;
        }
    }
    let try_tags = !listed
        && (G::REPLAY_SKIPS_TO_MEMBER || !G::delta_start(state.node))
        && cursor.last_count > tags_only_above_moves::<G>();
    if try_tags {
        let listed_tags = if G::REPLAY_SKIPS_TO_MEMBER {
            tags_only_ply::<G>(state, rng, random, search, outcome)?
        } else {
            // On copies, so that the loop's own generator can stay in registers: a reference
            // passed out of line kept it in memory, four loads and four stores a ply (connect
            // four in one lane: 5,355 -> 5,334 instructions a playout, and faster).
            let mut rng_copy = rng.clone();
            let mut counts = PlayoutOutcome {
                plies: outcome.plies,
                chance_moves: outcome.chance_moves,
                legal_moves: outcome.legal_moves,
                goals: Vec::new(),
            };
            let listed = tags_only_ply_out_of_line::<G>(state, &mut rng_copy, random, search, &mut counts);
            *rng = rng_copy;
            (outcome.plies, outcome.chance_moves, outcome.legal_moves) =
                (counts.plies, counts.chance_moves, counts.legal_moves);
            listed?
        };
        if let Some(count) = listed_tags {
            cursor.last_count = count;
            listed = true;
        } else if lean_kept::<G>() {
            // The tags-only listing began a full search.
            keep_lean::<G>(search);
        }
    }
    if !listed {
        let deltas = listed_as_deltas::<G>(state.node);
        generate_successors_in_place::<G>(state, search, lean_kept::<G>())?;
        let count = search.moves.len();
        cursor.last_count = count;
        let pick = pick_and_count(rng, count, random, outcome)
            .ok_or_else(|| EngineError::UnexpectedEnd { node: search.node_name(state.node) })?;
        if deltas {
            search.moves.take_delta::<G>(pick, state);
        } else {
            search.moves.take_whole(pick, state);
        }
    }
    settle_in_place::<G>(state, search)
}

/// [`tags_only_ply`] out of line, for a game whose replay does not skip to its member: its
/// tags-only plies are rare (only from a start that is no delta start, above
/// [`tags_only_above_moves`]), and inlined they share the usual ply's registers (tic-tac-toe
/// and connect four ~2 % more instructions per playout). A game whose replay skips to its
/// member lists tags only from delta starts too, often every ply for most of a playout
/// (gomoku, hex): there the call costs ~35 instructions a ply (gomoku +1.0 %), so it is inlined.
#[inline(never)]
fn tags_only_ply_out_of_line<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    rng: &mut Xoshiro256,
    random: bool,
    search: &mut Search<G::Values>,
    outcome: &mut PlayoutOutcome,
) -> Result<Option<usize>, EngineError> {
    tags_only_ply::<G>(state, rng, random, search, outcome)
}

/// The playout loop's ply listing tags only (see [`random_playout_into`]): lists the tags of
/// `state`'s moves, picks one and makes `state` its successor (keeper moves not applied),
/// returning the number of moves; `None` when two paths gave the same tags (nothing is picked:
/// the caller lists successors instead).
#[inline(always)]
fn tags_only_ply<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    rng: &mut Xoshiro256,
    random: bool,
    search: &mut Search<G::Values>,
    outcome: &mut PlayoutOutcome,
) -> Result<Option<usize>, EngineError> {
    if !generate_tags::<G>(state, search)? {
        return Ok(None);
    }
    let count = search.moves.len();
    let pick = pick_and_count(rng, count, random, outcome)
        .ok_or_else(|| EngineError::UnexpectedEnd { node: search.node_name(state.node) })?;
    let mut picked = std::mem::take(&mut search.picked);
    picked.clear();
    search.moves.copy_tags(pick, &mut picked);
    let next = raw_apply::<G>(state, &picked, search);
    search.picked = picked;
    *state = next?.ok_or_else(|| EngineError::Malformed { message: "a listed move was not found again".into() })?;
    if lean_kept::<G>() {
        keep_lean::<G>(search);
    }
    Ok(Some(count))
}

/// Whether the playout loop's listing from `node` (not tags only) lists deltas: what
/// [`generate_successors_in_place`] passes to [`Search::begin_lean`] (a unique start lists lean,
/// as deltas where [`CompiledGame::delta_start`] holds; any other start lists whole successors).
#[inline(always)]
fn listed_as_deltas<G: CompiledGame>(node: NodeId) -> bool {
    unique_start::<G>(node) && G::delta_start(node)
}

/// A playout's pick among `count` listed moves (`None` where there are none: the game stops
/// where it should not), counted in `outcome` as a chance move or a ply; shared by the loop's
/// two listings (successors and tags only), so both make the same draws.
#[inline(always)]
fn pick_and_count(rng: &mut Xoshiro256, count: usize, random: bool, outcome: &mut PlayoutOutcome) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let pick = rng.below(count as u64) as usize;
    if random {
        outcome.chance_moves += 1;
    } else {
        outcome.plies += 1;
        outcome.legal_moves += count as u64;
    }
    Some(pick)
}

/// A score symbol read as a [`Score`] (as [`ForwardModel::scores`] reads it).
fn score_of<G: CompiledGame>(symbol: SymbolId) -> Score {
    let value = G::NAMES
        .symbols
        .get(symbol as usize)
        .and_then(|name| name.parse::<i64>().ok())
        .unwrap_or_else(|| G::SCORES.iter().position(|&s| s == symbol).map_or(-1, |i| i as i64));
    Score { symbol, value }
}

/// [`crate::playout::run_playouts`] on a compiled game: the same playouts (playout `i` seeded from
/// `(seed, i)`), so the report equals the generic one except for the timings.
pub fn run_playouts<G: CompiledGame>(config: &PlayoutConfig) -> Result<PlayoutReport, EngineError> {
    let scores_of = |goals: &[SymbolId]| goals.iter().map(|&g| score_of::<G>(g)).collect();
    if lanes::two_lanes::<G>() {
        return crate::playout::run_indexed_playouts_into(
            config,
            || [search_context::<G>(), search_context::<G>()],
            |worker, searches| lanes::run_two_lanes::<G>(worker, searches, config.max_moves),
            scores_of,
        );
    }
    crate::playout::run_indexed_playouts_into(
        config,
        search_context::<G>,
        crate::playout::each_playout(|rng, index, search, outcome| {
            random_playout_into::<G>(rng, config.max_moves, index, search, outcome)
        }),
        scores_of,
    )
}

/// Perft counts at depths `0..=depth` on one thread (conventions of [`crate::perft`]: after a
/// `random` move, children with equal states count once).
pub fn perft<G: CompiledGame>(depth: usize) -> Result<Vec<u64>, EngineError> {
    let mut searches: Vec<Search<G::Values>> = (0..=depth).map(|_| search_context::<G>()).collect();
    let mut counts = vec![0; depth + 1];
    let start = start::<G>(&mut searches[0])?;
    perft_below::<G>(&start, 0, depth, &mut counts, &mut searches)?;
    Ok(counts)
}

fn perft_below<G: CompiledGame>(
    state: &CompiledState<G::Values>,
    depth: usize,
    remaining: usize,
    counts: &mut [u64],
    searches: &mut [Search<G::Values>],
) -> Result<(), EngineError> {
    counts[depth] += 1;
    if remaining == 0 || state.node == G::END {
        return Ok(());
    }
    let (here, below) = searches.split_at_mut(1);
    let search = &mut here[0];
    generate_successors::<G>(state, search, false)?;
    if search.moves.is_empty() {
        return Err(EngineError::UnexpectedEnd { node: search.node_name(state.node) });
    }
    let random = G::mover(state) == Mover::Random;
    let mut seen: Vec<CompiledState<G::Values>> = Vec::new();
    for index in 0..search.moves.len() {
        let child = settle::<G>(*search.moves.successor(index), &mut below[0])?;
        if random {
            if seen.contains(&child) {
                continue;
            }
            seen.push(child);
        }
        perft_below::<G>(&child, depth + 1, remaining - 1, counts, below)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The adapter: a compiled game as a ForwardModel.

/// A compiled game behind the [`ForwardModel`] trait, with the automaton it was generated from
/// (for names, descriptions and the provided methods).
#[derive(Debug)]
pub struct CompiledModel<G: CompiledGame> {
    automaton: Automaton,
    describer: ReferenceEngine,
    _game: std::marker::PhantomData<G>,
}

impl<G: CompiledGame> CompiledModel<G> {
    /// Wraps a compiled game; `automaton` must be the one it was generated from (same
    /// [`fingerprint`]), otherwise `Malformed`.
    pub fn new(automaton: Automaton) -> Result<Self, EngineError> {
        if fingerprint(&automaton) != G::FINGERPRINT {
            return Err(EngineError::Malformed {
                message: "this compiled model was generated from a different automaton (regenerate it)".into(),
            });
        }
        let describer = ReferenceEngine::new(automaton.clone())?;
        Ok(CompiledModel { automaton, describer, _game: std::marker::PhantomData })
    }

    /// The reference engine's state with the same slots (the layouts are the same).
    pub fn reference_state(&self, state: &CompiledState<G::Values>) -> Option<ReferenceState> {
        let values = (0..state.values.len()).map(|i| state.values.slot(i)).collect();
        self.describer.state_from_parts(state.node, values)
    }

    /// [`run_playouts`] for this game.
    pub fn run_playouts(&self, config: &PlayoutConfig) -> Result<PlayoutReport, EngineError> {
        run_playouts::<G>(config)
    }

    /// [`perft`] for this game.
    pub fn perft(&self, depth: usize) -> Result<Vec<u64>, EngineError> {
        perft::<G>(depth)
    }
}

impl<G: CompiledGame> ForwardModel for CompiledModel<G> {
    type State = CompiledState<G::Values>;

    fn automaton(&self) -> &Automaton {
        &self.automaton
    }

    fn initial(&self) -> Self::State {
        G::initial()
    }

    fn node(&self, state: &Self::State) -> NodeId {
        state.node
    }

    fn player_symbol(&self, state: &Self::State) -> SymbolId {
        G::player(&state.values)
    }

    fn visible_symbol(&self, state: &Self::State, player: usize) -> SymbolId {
        G::visible(&state.values, player)
    }

    fn goal_symbol(&self, state: &Self::State, player: usize) -> SymbolId {
        G::goal(&state.values, player)
    }

    fn describe_state(&self, state: &Self::State) -> String {
        match self.reference_state(state) {
            Some(reference) => self.describer.describe_state(&reference),
            None => format!("node: {}\n", self.node_name(state)),
        }
    }

    fn raw_successors(&self, state: &Self::State) -> Result<Vec<(Move, Self::State)>, EngineError> {
        let mut search = search_context::<G>();
        generate::<G>(state, &mut search)?;
        let moves = &search.moves;
        Ok((0..moves.len()).map(|i| (moves.tags(i).to_vec(), *moves.successor(i))).collect())
    }

    fn raw_apply(&self, state: &Self::State, tags: &[SymbolId]) -> Result<Option<Self::State>, EngineError> {
        raw_apply::<G>(state, tags, &mut search_context::<G>())
    }

    fn settle(&self, state: Self::State) -> Result<Self::State, EngineError> {
        if G::mover(&state) != Mover::Keeper {
            return Ok(state);
        }
        settle::<G>(state, &mut search_context::<G>())
    }
}

pub mod counted;
pub mod mask_checks;
pub mod mask_lanes;

pub mod bit_listing;

pub mod rays;

pub mod counted_search;

pub mod ray_counts;

pub mod word_stores;

pub mod small_counted;

mod lanes;

/// Word-at-a-time byte tests for generated member loops (spec/codegen.md, byte scans): eight
/// one-byte slots read as one word, and per byte a mask bit (the byte's high bit) that is exact
/// for every byte whatever its neighbours hold, because no addition or subtraction carries or
/// borrows across bytes. Generated modules with byte scans import these.
pub mod byte_scan {
    /// The high bit of every byte.
    pub const BYTE_HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    const BYTE_ONES: u64 = 0x0101_0101_0101_0101;
    const BYTE_LOW_BITS: u64 = 0x7f7f_7f7f_7f7f_7f7f;

    /// The eight slots from `at` as one little-endian word (slot `at` in the lowest byte).
    #[inline(always)]
    pub fn slot_word(v: &[u8], at: usize) -> u64 {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&v[at..at + 8]);
        u64::from_le_bytes(bytes)
    }

    /// Per byte of `word`, its high bit set where the byte equals `symbol`, clear elsewhere.
    #[inline(always)]
    pub fn byte_eq_mask(word: u64, symbol: u8) -> u64 {
        let differs = word ^ (BYTE_ONES * symbol as u64);
        !(((differs & BYTE_LOW_BITS) + BYTE_LOW_BITS) | differs) & BYTE_HIGH_BITS
    }

    /// Per byte of `word` below 128, its high bit set where the byte is at least `low` (at most
    /// 128); every byte's high bit set first, so no subtraction borrows across bytes.
    #[inline(always)]
    pub fn byte_at_least_mask(word: u64, low: u8) -> u64 {
        ((word | BYTE_HIGH_BITS) - BYTE_ONES * low as u64) & BYTE_HIGH_BITS
    }

    /// Per byte of `word` below 128, its high bit set where the byte is below `bound` (at most
    /// 128).
    #[inline(always)]
    pub fn byte_below_mask(word: u64, bound: u8) -> u64 {
        !((word | BYTE_HIGH_BITS) - BYTE_ONES * bound as u64) & BYTE_HIGH_BITS
    }

    /// Bit `i` set where byte `i` of `mask` has its high bit set: a byte test's mask gathered
    /// to one bit per member, for a scan of up to 64 members that loops once over one mask
    /// (spec/codegen.md, "One-word member scans"). On x86-64 a move to a vector register and
    /// `pmovmskb`; elsewhere a multiplication that moves bit `8i + 7` to bit `56 + i`, every
    /// partial product on its own bit.
    #[inline(always)]
    pub fn byte_high_bits(mask: u64) -> u64 {
        // The x86-64 form needs an intrinsic, and `unsafe` stands only in `bit_listing`.
        super::bit_listing::gather_high_bits(mask)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_high_bits_gather_to_one_bit_per_byte() {
            // Every byte pattern of the high bits, each word's other bits set or clear.
            for pattern in 0u64..256 {
                let spread: u64 = (0..8).filter(|&i| pattern >> i & 1 == 1).map(|i| 0x80u64 << (8 * i)).sum();
                assert_eq!(byte_high_bits(spread), pattern, "{spread:#x}");
                assert_eq!(byte_high_bits(spread | BYTE_LOW_BITS), pattern, "{spread:#x} with the low bits");
            }
            assert_eq!(byte_high_bits(u64::MAX), 0xff);
        }

        #[test]
        fn the_masks_are_exact_per_byte_whatever_the_other_bytes_hold() {
            // Byte 3 tested against every symbol and bound, its neighbours anything (including
            // bytes of 128 or more: slots past a loop's members belong to other variables).
            let high_bit = |mask: u64| mask >> 31 & 1 == 1;
            for byte in 0..256u64 {
                for neighbour in [0u64, 1, 127, 128, 200, 255] {
                    let word = (byte << 24) | (neighbour * 0x0101_0101_0000_0000) | (neighbour * 0x0000_0000_0001_0101);
                    for symbol in 0..256u64 {
                        assert_eq!(high_bit(byte_eq_mask(word, symbol as u8)), byte == symbol, "{byte} == {symbol}");
                    }
                    if byte >= 128 {
                        continue; // the range masks are defined for bytes below 128 only
                    }
                    for bound in 0..=128u64 {
                        assert_eq!(high_bit(byte_at_least_mask(word, bound as u8)), byte >= bound, "{byte} >= {bound}");
                        assert_eq!(high_bit(byte_below_mask(word, bound as u8)), byte < bound, "{byte} < {bound}");
                    }
                }
            }
        }

        #[test]
        fn a_slot_word_puts_the_first_slot_in_the_lowest_byte() {
            let slots: Vec<u8> = (0..12).collect();
            assert_eq!(slot_word(&slots, 3), u64::from_le_bytes([3, 4, 5, 6, 7, 8, 9, 10]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written "generated" game: from `begin`, one scope over three paths whose tags are
    /// `[a]`, `[a]`, `[b]`; the second `[a]` has the successor `values[1] = SECOND`.
    struct Scoped<const SECOND: u8>;

    impl<const SECOND: u8> CompiledGame for Scoped<SECOND> {
        type Values = [u8; 2];
        const FINGERPRINT: u64 = 0;
        const NAMES: Names = Names { symbols: &["x", "keeper", "random", "a", "b"], nodes: &["begin", "end"] };
        const BEGIN: NodeId = 0;
        const END: NodeId = 1;
        const KEEPER: SymbolId = 1;
        const RANDOM: SymbolId = 2;
        const PLAYERS: &'static [SymbolId] = &[0];
        const SCORES: &'static [SymbolId] = &[];
        const ONE: Option<SymbolId> = None;

        fn initial_values() -> [u8; 2] {
            [0, 0]
        }
        fn player(values: &[u8; 2]) -> SymbolId {
            values[0] as SymbolId
        }
        fn goal(_: &[u8; 2], _: usize) -> SymbolId {
            0
        }
        fn visible(_: &[u8; 2], _: usize) -> SymbolId {
            0
        }
        fn search(_: &CompiledState<[u8; 2]>, cx: &mut Search<[u8; 2]>) -> Result<(), Fail> {
            let scope = cx.open_scope();
            for (tag, second) in [(3, 0), (3, SECOND), (4, 0)] {
                cx.push_tag_bounded(tag);
                cx.complete_scoped(1, &[1, second], 1, true)?;
                cx.pop_tag();
            }
            cx.close_scope(scope);
            // Outside the scope the same tags are not compared (the analysis proves none repeat).
            cx.push_tag_bounded(4);
            cx.complete_scoped(1, &[1, 9], 1, true)?;
            cx.pop_tag();
            Ok(())
        }
    }

    /// A hand-written game for the playout loop's keeper handling: values `[player, counter]`.
    /// The player (node `turn`) has one move, counting up, into the keeper's node `begin`. There,
    /// below `counter` 1 (`MODE` 0: 3) the keeper hands the turn back; at it `MODE` decides: 0 one
    /// keeper move into `extra`, whose keeper move ends the game (two keeper moves in a row); 1 two
    /// keeper moves; 2 a keeper move into the same state (a cycle); 3 no keeper move; 4 as 2, with
    /// every keeper move applied in place ([`CompiledGame::apply_keeper`]).
    struct Keepers<const MODE: u8>;

    impl<const MODE: u8> CompiledGame for Keepers<MODE> {
        type Values = [u8; 2];
        const FINGERPRINT: u64 = 0;
        const NAMES: Names =
            Names { symbols: &["x", "keeper", "random", "t"], nodes: &["begin", "end", "turn", "extra"] };
        const BEGIN: NodeId = 0;
        const END: NodeId = 1;
        const KEEPER: SymbolId = 1;
        const RANDOM: SymbolId = 2;
        const PLAYERS: &'static [SymbolId] = &[0];
        const SCORES: &'static [SymbolId] = &[];
        const ONE: Option<SymbolId> = None;
        const UNIQUE_STARTS: &'static [bool] = &[true; 4];

        fn initial_values() -> [u8; 2] {
            [1, 0]
        }
        fn player(values: &[u8; 2]) -> SymbolId {
            values[0] as SymbolId
        }
        fn goal(values: &[u8; 2], _: usize) -> SymbolId {
            values[1] as SymbolId
        }
        fn visible(_: &[u8; 2], _: usize) -> SymbolId {
            0
        }
        fn apply_keeper(state: &mut CompiledState<[u8; 2]>) -> bool {
            match Self::successors(state).as_slice() {
                &[(node, values)] if MODE == 4 && state.node != 2 => {
                    *state = CompiledState { node, values };
                    true
                }
                _ => false,
            }
        }
        fn search(state: &CompiledState<[u8; 2]>, cx: &mut Search<[u8; 2]>) -> Result<(), Fail> {
            for (node, values) in Self::successors(state) {
                if cx.push_tag_bounded(3) {
                    cx.complete_unique_valid(node, &values);
                }
                cx.pop_tag();
            }
            Ok(())
        }
    }

    impl<const MODE: u8> Keepers<MODE> {
        /// The moves from `state`, as (node, values).
        fn successors(state: &CompiledState<[u8; 2]>) -> Vec<(NodeId, [u8; 2])> {
            let [_, counter] = state.values;
            let last = if MODE == 0 { 3 } else { 1 };
            match state.node {
                2 => vec![(0, [1, counter + 1])],
                3 => vec![(1, [1, counter])],
                _ if counter < last => vec![(2, [0, counter])],
                _ => match MODE {
                    0 => vec![(3, [1, counter])],
                    1 => vec![(2, [0, counter]), (2, [0, counter + 1])],
                    2 | 4 => vec![(0, [1, counter])],
                    _ => vec![],
                },
            }
        }
    }

    /// A hand-written game for delta listings: values `[player, chosen, count]`. At node `turn`
    /// (2) the player picks one of three cells other than the last one chosen, a move writing
    /// `chosen` and `player` (with `DELTAS`, a delta start: a delta word of those two slots); the
    /// keeper (node `begin`, never a delta start) counts the turns and ends the game after five.
    struct Deltas<const DELTAS: bool>;

    impl<const DELTAS: bool> CompiledGame for Deltas<DELTAS> {
        type Values = [u8; 3];
        const FINGERPRINT: u64 = 0;
        const NAMES: Names = Names { symbols: &["x", "keeper", "random"], nodes: &["begin", "end", "turn"] };
        const BEGIN: NodeId = 0;
        const END: NodeId = 1;
        const KEEPER: SymbolId = 1;
        const RANDOM: SymbolId = 2;
        const PLAYERS: &'static [SymbolId] = &[0];
        const SCORES: &'static [SymbolId] = &[];
        const ONE: Option<SymbolId> = None;
        const STARTS_ALL_UNIQUE: bool = true;
        const NO_VISITS: bool = true;

        fn delta_start(node: NodeId) -> bool {
            DELTAS && node == 2
        }
        fn apply_delta(delta: u64, state: &mut CompiledState<[u8; 3]>) {
            assert_eq!(delta & 0xffff, 7, "the one site");
            state.node = 0;
            state.values[0] = (delta >> 16) as u8;
            state.values[1] = (delta >> 24) as u8;
        }
        fn initial_values() -> [u8; 3] {
            [1, 9, 0]
        }
        fn player(values: &[u8; 3]) -> SymbolId {
            values[0] as SymbolId
        }
        fn goal(values: &[u8; 3], _: usize) -> SymbolId {
            values[1] as SymbolId
        }
        fn visible(_: &[u8; 3], _: usize) -> SymbolId {
            0
        }
        fn search(state: &CompiledState<[u8; 3]>, cx: &mut Search<[u8; 3]>) -> Result<(), Fail> {
            let mut values = state.values;
            Self::search_in_place(state.node, &mut values, cx)
        }
        fn search_in_place(node: NodeId, v: &mut [u8; 3], cx: &mut Search<[u8; 3]>) -> Result<(), Fail> {
            if node != 2 {
                assert!(!cx.lists_deltas(), "the keeper's node is no delta start");
                let (next, player) = if v[2] + 1 >= 5 { (1, 1) } else { (2, 0) };
                let old = *v;
                v[0] = player;
                v[2] += 1;
                cx.complete_unique_valid(next, v);
                *v = old;
                return Ok(());
            }
            deltas_turn(v, cx);
            Ok(())
        }
    }

    /// [`Deltas`] with its turn written as a generated search generic over its [`MoveSink`]: a
    /// delta listing runs it on a [`DeltaSink`] with room for `BOUND` moves (the turn lists two
    /// or three).
    struct Sunk<const BOUND: usize>;

    /// The turn of [`Deltas`] and [`Sunk`], generic over the sink (as the generator emits a delta
    /// start): on the context for [`Deltas`], on a [`DeltaSink`] too for [`Sunk`].
    fn deltas_turn<C: MoveSink<[u8; 3]>>(v: &mut [u8; 3], cx: &mut C) {
        let last = v[1];
        for cell in (3..6).filter(|&cell| cell != last) {
            let old = *v;
            v[1] = cell;
            v[0] = 1;
            if cx.lists_deltas() {
                cx.push_delta(7 | (v[0] as u64) << 16 | (v[1] as u64) << 24);
            } else {
                cx.complete_unique_valid(0, v);
            }
            *v = old;
        }
    }

    /// The constants [`Sunk`] and [`Mixed`] take from [`Deltas`]: the same game, listed another way.
    macro_rules! deltas_constants {
        () => {
            type Values = [u8; 3];
            const FINGERPRINT: u64 = 0;
            const NAMES: Names = Deltas::<true>::NAMES;
            const BEGIN: NodeId = Deltas::<true>::BEGIN;
            const END: NodeId = Deltas::<true>::END;
            const KEEPER: SymbolId = Deltas::<true>::KEEPER;
            const RANDOM: SymbolId = Deltas::<true>::RANDOM;
            const PLAYERS: &'static [SymbolId] = Deltas::<true>::PLAYERS;
            const SCORES: &'static [SymbolId] = Deltas::<true>::SCORES;
            const ONE: Option<SymbolId> = Deltas::<true>::ONE;
            const STARTS_ALL_UNIQUE: bool = Deltas::<true>::STARTS_ALL_UNIQUE;
            const NO_VISITS: bool = Deltas::<true>::NO_VISITS;
        };
    }

    /// The trait functions [`Sunk`] and [`Mixed`] take from [`Deltas`] unchanged.
    macro_rules! deltas_functions {
        () => {
            fn apply_delta(delta: u64, state: &mut CompiledState<[u8; 3]>) {
                Deltas::<true>::apply_delta(delta, state)
            }
            fn initial_values() -> [u8; 3] {
                Deltas::<true>::initial_values()
            }
            fn player(values: &[u8; 3]) -> SymbolId {
                Deltas::<true>::player(values)
            }
            fn goal(values: &[u8; 3], player: usize) -> SymbolId {
                Deltas::<true>::goal(values, player)
            }
            fn visible(_: &[u8; 3], _: usize) -> SymbolId {
                0
            }
            fn search(state: &CompiledState<[u8; 3]>, cx: &mut Search<[u8; 3]>) -> Result<(), Fail> {
                let mut values = state.values;
                Self::search_in_place(state.node, &mut values, cx)
            }
        };
    }

    impl<const BOUND: usize> CompiledGame for Sunk<BOUND> {
        deltas_constants!();

        fn delta_start(node: NodeId) -> bool {
            node == 2
        }
        deltas_functions!();
        fn search_in_place(node: NodeId, v: &mut [u8; 3], cx: &mut Search<[u8; 3]>) -> Result<(), Fail> {
            if node != 2 {
                return Deltas::<true>::search_in_place(node, v, cx);
            }
            let listed = cx.lists_deltas()
                && cx.list_deltas_into(BOUND, |mut sink| {
                    deltas_turn(v, &mut sink);
                    sink
                });
            if !listed {
                deltas_turn(v, cx);
            }
            Ok(())
        }
    }

    #[test]
    fn a_delta_listing_on_a_sink_plays_the_playouts_the_context_plays() {
        let config = PlayoutConfig { count: 200, seed: 5, threads: 1, ..Default::default() };
        let sunk = run_playouts::<Sunk<3>>(&config).expect("playouts on a sink");
        let deltas = run_playouts::<Deltas<true>>(&config).expect("playouts with deltas");
        let copies = run_playouts::<Deltas<false>>(&config).expect("playouts without deltas");
        for other in [&deltas, &copies] {
            assert_eq!(
                (sunk.total_plies, sunk.mean_legal_moves, &sunk.score_distribution),
                (other.total_plies, other.mean_legal_moves, &other.score_distribution)
            );
        }
        assert_eq!(sunk.score_distribution.len(), 3, "every cell ends some playout");
        // The sink's listing: the moves' words in order, the count the context's again, and the
        // room made for the bound (at least 64 slots, doubled).
        let mut search = search_context::<Sunk<3>>();
        let mut turn = start::<Sunk<3>>(&mut search).expect("the start");
        generate_successors_in_place::<Sunk<3>>(&mut turn, &mut search, false).expect("moves");
        assert!(search.moves.deltas);
        assert_eq!(search.moves.len(), 3, "cells 3, 4 and 5 (the last chosen is 9)");
        assert_eq!(search.moves.keys[..3], [7 | 1 << 16 | 3 << 24, 7 | 1 << 16 | 4 << 24, 7 | 1 << 16 | 5 << 24]);
        assert!(search.moves.keys.len() >= 128);
        let mut taken = turn;
        search.moves.take_successor::<Sunk<3>>(2, &mut taken);
        assert_eq!((taken.node, taken.values), (0, [1, 5, 1]));
        // The same listing with the context (perft, the index API) lists successors.
        let mut copies = search_context::<Sunk<3>>();
        generate_successors::<Sunk<3>>(&turn, &mut copies, false).expect("moves");
        assert!(!copies.moves.deltas && copies.moves.len() == 3);
        assert_eq!(copies.moves.successor(2), &taken);
    }

    /// [`Deltas`] with a mixed delta start (`DELTAS`): choosing cell 5 also counts an extra
    /// turn (`count`, a slot outside the other moves' delta word), so that completion has no
    /// delta and pushes its successor whole ([`Search::push_whole`]).
    struct Mixed<const DELTAS: bool>;

    impl<const DELTAS: bool> CompiledGame for Mixed<DELTAS> {
        deltas_constants!();
        const MIXED_DELTAS: bool = DELTAS;

        fn delta_start(node: NodeId) -> bool {
            DELTAS && node == 2
        }
        deltas_functions!();
        fn search_in_place(node: NodeId, v: &mut [u8; 3], cx: &mut Search<[u8; 3]>) -> Result<(), Fail> {
            if node != 2 {
                return Deltas::<true>::search_in_place(node, v, cx);
            }
            mixed_turn(v, cx);
            Ok(())
        }
    }

    /// The turn of [`Mixed`] and [`MixedSunk`], generic over the sink.
    fn mixed_turn<C: MoveSink<[u8; 3]>>(v: &mut [u8; 3], cx: &mut C) {
        let last = v[1];
        for cell in (3..6).filter(|&cell| cell != last) {
            let old = *v;
            v[1] = cell;
            v[0] = 1;
            if cell == 5 {
                v[2] += 1;
                if cx.lists_deltas() {
                    cx.push_whole(0, v);
                } else {
                    cx.complete_unique_valid(0, v);
                }
            } else if cx.lists_deltas() {
                cx.push_delta(7 | (v[0] as u64) << 16 | (v[1] as u64) << 24);
            } else {
                cx.complete_unique_valid(0, v);
            }
            *v = old;
        }
    }

    /// [`Mixed`] with its turn listed on a [`MixedSink`], which pushes the move to cell 5 whole.
    struct MixedSunk;

    impl CompiledGame for MixedSunk {
        deltas_constants!();
        const MIXED_DELTAS: bool = true;

        fn delta_start(node: NodeId) -> bool {
            node == 2
        }
        deltas_functions!();
        fn search_in_place(node: NodeId, v: &mut [u8; 3], cx: &mut Search<[u8; 3]>) -> Result<(), Fail> {
            if node != 2 {
                return Deltas::<true>::search_in_place(node, v, cx);
            }
            let listed = cx.lists_deltas()
                && cx.list_mixed_into(3, |mut sink| {
                    mixed_turn(v, &mut sink);
                    sink
                });
            if !listed {
                mixed_turn(v, cx);
            }
            Ok(())
        }
    }

    #[test]
    fn a_mixed_delta_listing_on_a_sink_pushes_its_whole_moves_there() {
        let config = PlayoutConfig { count: 300, seed: 7, threads: 1, ..Default::default() };
        let sunk = run_playouts::<MixedSunk>(&config).expect("playouts with a mixed listing on a sink");
        let copies = run_playouts::<Mixed<false>>(&config).expect("playouts without deltas");
        assert_eq!(
            (sunk.total_plies, sunk.mean_legal_moves, &sunk.score_distribution),
            (copies.total_plies, copies.mean_legal_moves, &copies.score_distribution)
        );
        let mut search = search_context::<MixedSunk>();
        let mut turn = start::<MixedSunk>(&mut search).expect("the start");
        generate_successors_in_place::<MixedSunk>(&mut turn, &mut search, false).expect("moves");
        assert!(search.moves.deltas);
        assert_eq!(search.moves.keys[..3], [7 | 1 << 16 | 3 << 24, 7 | 1 << 16 | 4 << 24, WHOLE_MOVE]);
        for index in 0..3 {
            let (mut on_sink, mut on_context) = (turn, turn);
            search.moves.take_successor::<MixedSunk>(index, &mut on_sink);
            let mut context = search_context::<Mixed<true>>();
            generate_successors_in_place::<Mixed<true>>(&mut turn, &mut context, false).expect("moves");
            context.moves.take_successor::<Mixed<true>>(index, &mut on_context);
            assert_eq!(on_sink, on_context, "move {index}");
        }
        let mut whole = turn;
        search.moves.take_successor::<MixedSunk>(2, &mut whole);
        assert_eq!((whole.node, whole.values), (0, [1, 5, 2]), "the count the whole move added");
    }

    #[test]
    fn a_guarded_push_on_a_mixed_sink_counts_only_the_words_it_keeps() {
        // The turn's three moves, then a mixed listing with room for two: four guarded words
        // keep two (the uncounted ones are stored and overwritten, or dropped past the slots);
        // a third kept word past the room drops the listing.
        let mut search = search_context::<MixedSunk>();
        let mut turn = start::<MixedSunk>(&mut search).expect("the start");
        generate_successors_in_place::<MixedSunk>(&mut turn, &mut search, false).expect("moves");
        assert!(search.moves.deltas && search.moves.len() == 3);
        let words = [(false, 10), (true, 11), (false, 12), (true, 13), (false, 14)];
        let fitted = search.list_mixed_into(2, |mut sink| {
            for (keep, word) in words {
                MoveSink::<[u8; 3]>::push_delta_if(&mut sink, keep, word);
            }
            sink
        });
        assert!(fitted);
        assert_eq!((search.moves.len(), &search.moves.keys[3..5]), (5, &[11, 13][..]));
        let fitted = search.list_mixed_into(2, |mut sink| {
            for word in [21, 22, 23] {
                MoveSink::<[u8; 3]>::push_delta_if(&mut sink, true, word);
            }
            sink
        });
        assert!(!fitted && search.moves.len() == 5);
    }

    #[test]
    fn a_mixed_delta_listing_takes_its_whole_moves_as_copies() {
        let config = PlayoutConfig { count: 300, seed: 7, threads: 1, ..Default::default() };
        let mixed = run_playouts::<Mixed<true>>(&config).expect("playouts with a mixed listing");
        let copies = run_playouts::<Mixed<false>>(&config).expect("playouts without deltas");
        assert_eq!(
            (mixed.total_plies, mixed.mean_legal_moves, &mixed.score_distribution),
            (copies.total_plies, copies.mean_legal_moves, &copies.score_distribution)
        );
        // Without cell 5 a playout has 4 plies; cell 5 counts an extra turn, ending some sooner.
        assert!(mixed.total_plies < 4 * 300, "{}", mixed.total_plies);
        // The listing: words for cells 3 and 4, the mark for cell 5, whose successor is whole.
        let mut search = search_context::<Mixed<true>>();
        let mut turn = start::<Mixed<true>>(&mut search).expect("the start");
        generate_successors_in_place::<Mixed<true>>(&mut turn, &mut search, false).expect("moves");
        assert!(search.moves.deltas);
        assert_eq!(search.moves.keys[..3], [7 | 1 << 16 | 3 << 24, 7 | 1 << 16 | 4 << 24, WHOLE_MOVE]);
        let mut copies = search_context::<Mixed<false>>();
        generate_successors::<Mixed<false>>(&turn, &mut copies, false).expect("moves");
        assert!(!copies.moves.deltas && copies.moves.len() == 3);
        for index in 0..3 {
            let mut taken = turn;
            search.moves.take_successor::<Mixed<true>>(index, &mut taken);
            assert_eq!(&taken, copies.moves.successor(index), "move {index}");
        }
        let mut whole = turn;
        search.moves.take_successor::<Mixed<true>>(2, &mut whole);
        assert_eq!((whole.node, whole.values), (0, [1, 5, 2]), "the count the whole move added");
    }

    #[test]
    fn a_rewound_sink_keeps_only_the_moves_pushed_before_its_mark() {
        type V = [u8; 3];
        let mut slots = Box::new([0u64; DELTA_SINK_SLOTS]);
        let mut sink = DeltaSink { keys: &mut slots, count: 0 };
        MoveSink::<V>::push_delta(&mut sink, 11);
        let mark = MoveSink::<V>::rewind_mark(&sink).expect("a delta sink can rewind");
        MoveSink::<V>::push_delta(&mut sink, 12);
        MoveSink::<V>::push_delta(&mut sink, 13);
        MoveSink::<V>::rewind(&mut sink, mark);
        MoveSink::<V>::push_delta(&mut sink, 14);
        assert_eq!(sink.count, 2);
        assert_eq!(slots[..2], [11, 14]);
        let (mut keys, mut successors) = (vec![0u64; 4], Vec::new());
        let mut mixed = MixedSink::<V> { keys: &mut keys, successors: &mut successors, count: 0 };
        let mark = mixed.rewind_mark().expect("a mixed sink can rewind");
        mixed.push_whole(3, &[1, 2, 3]);
        mixed.push_delta(21);
        mixed.rewind(mark);
        mixed.push_delta(22);
        assert_eq!(mixed.count, 1);
        assert_eq!(keys[..1], [22]);
        // The context lists into its move buffer: no mark, generated code takes its plain path.
        let context = search_context::<Mixed<true>>();
        assert_eq!(MoveSink::rewind_mark(&context), None);
    }

    #[test]
    fn a_sink_listing_more_moves_than_its_room_is_listed_on_the_context() {
        // Room for one move, up to three listed: the sink's listing is dropped and the context
        // lists the moves (as deltas), so the playouts are the same.
        let config = PlayoutConfig { count: 200, seed: 5, threads: 1, ..Default::default() };
        let small = run_playouts::<Sunk<1>>(&config).expect("playouts on a small sink");
        let copies = run_playouts::<Deltas<false>>(&config).expect("playouts without deltas");
        assert_eq!(
            (small.total_plies, small.mean_legal_moves, &small.score_distribution),
            (copies.total_plies, copies.mean_legal_moves, &copies.score_distribution)
        );
        // Past the slots made: the listing reports it and leaves the count as it was.
        let mut search = search_context::<Sunk<1>>();
        let mut turn = start::<Sunk<1>>(&mut search).expect("the start");
        generate_successors_in_place::<Sunk<1>>(&mut turn, &mut search, false).expect("moves");
        assert_eq!(search.moves.len(), 3);
        let slots = search.moves.keys.len();
        let fitted = search.list_deltas_into(1, |mut sink| {
            for word in 0..slots as u64 {
                MoveSink::<[u8; 3]>::push_delta(&mut sink, word);
            }
            sink
        });
        assert!(!fitted && search.moves.len() == 3);
        let fitted = search.list_deltas_into(1, |mut sink| {
            MoveSink::<[u8; 3]>::push_delta(&mut sink, 11);
            sink
        });
        assert!(fitted && search.moves.len() == 4 && search.moves.keys[3] == 11);
    }

    #[test]
    fn a_guarded_push_counts_only_the_words_it_keeps() {
        // After the three moves of a delta listing, a sink listing with room for two more pushes
        // four words and keeps two: the count and the kept words are what the branchy pushes give,
        // on the sink and on the context alike.
        let mut search = search_context::<Sunk<1>>();
        let mut turn = start::<Sunk<1>>(&mut search).expect("the start");
        generate_successors_in_place::<Sunk<1>>(&mut turn, &mut search, false).expect("moves");
        assert!(search.moves.deltas && search.moves.len() == 3);
        let words = [(true, 11), (false, 12), (true, 13), (false, 14)];
        let fitted = search.list_deltas_into(2, |mut sink| {
            for (keep, word) in words {
                MoveSink::<[u8; 3]>::push_delta_if(&mut sink, keep, word);
            }
            sink
        });
        assert!(fitted);
        assert_eq!((search.moves.len(), &search.moves.keys[3..5]), (5, &[11, 13][..]));
        for (keep, word) in words {
            search.push_delta_if(keep, word);
        }
        assert_eq!((search.moves.len(), &search.moves.keys[5..7]), (7, &[11, 13][..]));
        // Three kept words in a room of two: the listing is dropped, the count unchanged.
        let fitted = search.list_deltas_into(2, |mut sink| {
            for word in [21, 22, 23] {
                MoveSink::<[u8; 3]>::push_delta_if(&mut sink, true, word);
            }
            sink
        });
        assert!(!fitted && search.moves.len() == 7);
    }

    #[test]
    fn a_delta_listing_plays_the_playouts_a_successor_listing_plays() {
        let config = PlayoutConfig { count: 200, seed: 5, threads: 1, ..Default::default() };
        let with = run_playouts::<Deltas<true>>(&config).expect("playouts with deltas");
        let without = run_playouts::<Deltas<false>>(&config).expect("playouts without deltas");
        assert_eq!(
            (with.total_plies, with.mean_legal_moves, with.score_distribution.clone()),
            (without.total_plies, without.mean_legal_moves, without.score_distribution)
        );
        assert_eq!(with.score_distribution.len(), 3, "every cell ends some playout");
        // The playout loop's search lists deltas; the index API and perft list successors.
        let mut search = search_context::<Deltas<true>>();
        let mut turn = start::<Deltas<true>>(&mut search).expect("the start");
        assert_eq!(turn.node, 2);
        generate_successors_in_place::<Deltas<true>>(&mut turn, &mut search, false).expect("moves");
        assert!(search.moves.deltas && search.moves.len() == 3);
        let mut taken = turn;
        search.moves.take_successor::<Deltas<true>>(1, &mut taken);
        generate::<Deltas<true>>(&turn, &mut search).expect("moves");
        assert!(!search.moves.deltas);
        assert_eq!(*search.moves.successor(1), taken);
        assert_eq!(perft::<Deltas<true>>(3).expect("perft"), perft::<Deltas<false>>(3).expect("perft"));
    }

    /// A hand-written game for tags-only listing: `N` moves completed with de-duplication, each
    /// with one, three or five tags (five do not pack into a key; one tag 70,000 does not
    /// either), every third move found twice (the same tags and successor, so it merges).
    struct Listed<const N: u32>;

    impl<const N: u32> Listed<N> {
        fn tags_of(index: u32) -> Vec<SymbolId> {
            match index % 4 {
                0 => vec![index],
                1 => vec![index, 7, 8],
                2 => vec![index, 1, 2, 3, 4],
                _ => vec![70_000 + index],
            }
        }
    }

    impl<const N: u32> CompiledGame for Listed<N> {
        type Values = [u16; 2];
        const FINGERPRINT: u64 = 0;
        const NAMES: Names = Names { symbols: &["x", "keeper", "random"], nodes: &["begin", "end"] };
        const BEGIN: NodeId = 0;
        const END: NodeId = 1;
        const KEEPER: SymbolId = 1;
        const RANDOM: SymbolId = 2;
        const PLAYERS: &'static [SymbolId] = &[0];
        const SCORES: &'static [SymbolId] = &[];
        const ONE: Option<SymbolId> = None;

        fn initial_values() -> [u16; 2] {
            [0, 0]
        }
        fn player(values: &[u16; 2]) -> SymbolId {
            values[0] as SymbolId
        }
        fn goal(_: &[u16; 2], _: usize) -> SymbolId {
            0
        }
        fn visible(_: &[u16; 2], _: usize) -> SymbolId {
            0
        }
        fn search(_: &CompiledState<[u16; 2]>, cx: &mut Search<[u16; 2]>) -> Result<(), Fail> {
            for index in 0..N {
                let repeats = if index % 3 == 0 { 2 } else { 1 };
                for _ in 0..repeats {
                    let tags = Self::tags_of(index);
                    // Every push, so every pop; complete only where each push fit the move looked for.
                    let pushed: Vec<bool> = tags.iter().map(|&tag| cx.push_tag_bounded(tag)).collect();
                    let fits = pushed.iter().all(|&fit| fit);
                    if fits {
                        cx.complete(1, &[1, index as u16], 1, true)?;
                    }
                    for _ in &tags {
                        cx.pop_tag();
                    }
                }
            }
            Ok(())
        }
    }

    /// Lists `Listed<N>`'s moves in tags-only mode and checks every move's tags against the
    /// arena listing of [`generate`].
    fn check_tags_only_listing<const N: u32>() {
        let state = Listed::<N>::initial();
        let mut search = search_context::<Listed<N>>();
        generate::<Listed<N>>(&state, &mut search).expect("moves");
        let listed: Vec<Vec<SymbolId>> = (0..search.moves.len()).map(|i| search.moves.tags(i).to_vec()).collect();
        let expected: Vec<Vec<SymbolId>> = (0..N).map(Listed::<N>::tags_of).collect();
        assert_eq!(listed, expected);
        // Tags only (a fresh context, whose table grows during this listing): the repeats are
        // seen (their successors were not compared), so the caller would list again; the moves
        // are the same, in the same order.
        let mut search = search_context::<Listed<N>>();
        assert!(!generate_tags::<Listed<N>>(&state, &mut search).expect("tags"));
        assert_eq!(search.moves.len(), N as usize);
        for (index, tags) in expected.iter().enumerate() {
            let mut copied = vec![99];
            search.moves.copy_tags(index, &mut copied);
            assert_eq!(copied[1..], tags[..], "move {index}");
            let next = raw_apply::<Listed<N>>(&state, tags, &mut search_context::<Listed<N>>()).expect("no error");
            assert_eq!(next.map(|s| s.values), Some([1, index as u16]));
        }
    }

    #[test]
    fn a_tags_only_listing_packs_short_tags_and_keeps_long_ones() {
        // 5 moves stay below the de-duplication table's first size; 200 make it grow, re-entering
        // moves listed with packed and with long tags.
        check_tags_only_listing::<5>();
        check_tags_only_listing::<200>();
    }

    /// A hand-written game for the playout loop's kept lean context ([`lean_kept`]): values
    /// `[player, chosen, turn, ..]` (64-byte states, so after a listing of 300 moves the next
    /// ply lists tags only and replays the picked move). Node `turn` (2) lists 4 moves on turns
    /// 2, 5, and 300 on the others, so the loop alternates listings in place, tags-only
    /// listings with their replay, and back. The keeper (node `begin`) counts the turns and ends
    /// the game at eight (the start settles into turn 1). `KEPT` claims no visits and unique
    /// starts (so the loop keeps the context lean-ready) and applies the keeper's moves in place
    /// ([`CompiledGame::apply_keeper`]) except the last, which it leaves to the listing; without
    /// it every search takes the checked path and every keeper move is listed.
    struct Kept<const KEPT: bool>;

    impl<const KEPT: bool> CompiledGame for Kept<KEPT> {
        type Values = [u8; 60];
        const FINGERPRINT: u64 = 0;
        const NAMES: Names = Names { symbols: &["x", "keeper", "random"], nodes: &["begin", "end", "turn"] };
        const BEGIN: NodeId = 0;
        const END: NodeId = 1;
        const KEEPER: SymbolId = 1;
        const RANDOM: SymbolId = 2;
        const PLAYERS: &'static [SymbolId] = &[0];
        const SCORES: &'static [SymbolId] = &[];
        const ONE: Option<SymbolId> = None;
        const STARTS_ALL_UNIQUE: bool = KEPT;
        const NO_VISITS: bool = KEPT;

        fn initial_values() -> [u8; 60] {
            let mut values = [0; 60];
            values[0] = 1;
            values
        }
        fn player(values: &[u8; 60]) -> SymbolId {
            values[0] as SymbolId
        }
        fn goal(values: &[u8; 60], _: usize) -> SymbolId {
            values[1] as SymbolId
        }
        fn visible(_: &[u8; 60], _: usize) -> SymbolId {
            0
        }
        fn apply_keeper(state: &mut CompiledState<[u8; 60]>) -> bool {
            if !KEPT || state.node == 2 || state.values[2] + 1 >= 8 {
                return false;
            }
            state.values[0] = 0;
            state.values[2] += 1;
            state.node = 2;
            true
        }
        fn search(state: &CompiledState<[u8; 60]>, cx: &mut Search<[u8; 60]>) -> Result<(), Fail> {
            let mut values = state.values;
            Self::search_in_place(state.node, &mut values, cx)
        }
        fn search_in_place(node: NodeId, v: &mut [u8; 60], cx: &mut Search<[u8; 60]>) -> Result<(), Fail> {
            let old = *v;
            if node != 2 {
                let (next, player) = if v[2] + 1 >= 8 { (1, 1) } else { (2, 0) };
                v[0] = player;
                v[2] += 1;
                cx.complete_unique_valid(next, v);
                *v = old;
                return Ok(());
            }
            let count = if v[2] % 3 == 2 { 4 } else { 300 };
            for index in 0..count {
                v[0] = 1;
                v[1] = (index % 250) as u8;
                cx.complete_unique_valid_tagged(3 + index, 0, v);
                *v = old;
            }
            Ok(())
        }
    }

    #[test]
    fn a_kept_lean_context_plays_the_playouts_the_checked_path_plays() {
        assert!(lean_kept::<Kept<true>>() && lean_kept::<Deltas<true>>());
        // Visits, or a start not proved unique: every search begins in full.
        assert!(!lean_kept::<Kept<false>>() && !lean_kept::<Keepers<0>>() && !lean_kept::<Listed<5>>());
        let config = PlayoutConfig { count: 40, seed: 3, threads: 1, ..Default::default() };
        let kept = run_playouts::<Kept<true>>(&config).expect("playouts kept lean");
        let checked = run_playouts::<Kept<false>>(&config).expect("playouts checked");
        assert_eq!(kept.total_plies, 7 * 40, "turns 1 to 7");
        assert_eq!(
            (kept.total_plies, kept.mean_legal_moves, kept.score_distribution.clone()),
            (checked.total_plies, checked.mean_legal_moves, checked.score_distribution)
        );
        assert!(kept.score_distribution.len() > 1, "the picks vary");
    }

    /// A hand-written game whose moves are two tags, the second pushed by a fused completion
    /// at tag depth 1 (`AT`: `complete_unique_valid_tagged_at::<1>`, else the plain one): first
    /// tags 3 and 70,000 (too big to pack), second tags 4 and 5; the successor's value 1 numbers
    /// the move from 1.
    struct Depth<const AT: bool>;

    impl<const AT: bool> CompiledGame for Depth<AT> {
        type Values = [u8; 2];
        const FINGERPRINT: u64 = 0;
        const NAMES: Names = Names { symbols: &["x", "keeper", "random"], nodes: &["begin", "end"] };
        const BEGIN: NodeId = 0;
        const END: NodeId = 1;
        const KEEPER: SymbolId = 1;
        const RANDOM: SymbolId = 2;
        const PLAYERS: &'static [SymbolId] = &[0];
        const SCORES: &'static [SymbolId] = &[];
        const ONE: Option<SymbolId> = None;
        const STARTS_ALL_UNIQUE: bool = true;
        const NO_VISITS: bool = true;

        fn initial_values() -> [u8; 2] {
            [0, 0]
        }
        fn player(values: &[u8; 2]) -> SymbolId {
            values[0] as SymbolId
        }
        fn goal(_: &[u8; 2], _: usize) -> SymbolId {
            0
        }
        fn visible(_: &[u8; 2], _: usize) -> SymbolId {
            0
        }
        fn search(_: &CompiledState<[u8; 2]>, cx: &mut Search<[u8; 2]>) -> Result<(), Fail> {
            for (i, first) in [3, 70_000].into_iter().enumerate() {
                if cx.push_tag_bounded(first) {
                    for (j, second) in [4, 5].into_iter().enumerate() {
                        let values = [1, 1 + 2 * i as u8 + j as u8];
                        if AT {
                            cx.complete_unique_valid_tagged_at::<1>(second, 1, &values);
                        } else {
                            cx.complete_unique_valid_tagged(second, 1, &values);
                        }
                    }
                }
                cx.pop_tag();
            }
            Ok(())
        }
    }

    #[test]
    fn a_completion_knowing_its_tag_depth_lists_and_replays_what_the_plain_one_does() {
        let moves = [vec![3, 4], vec![3, 5], vec![70_000, 4], vec![70_000, 5]];
        let listed = |tags_only: bool, at: bool| -> Vec<Vec<SymbolId>> {
            fn list<const AT: bool>(tags_only: bool) -> Vec<Vec<SymbolId>> {
                let state = Depth::<AT>::initial();
                let mut search = search_context::<Depth<AT>>();
                if tags_only {
                    assert!(generate_tags::<Depth<AT>>(&state, &mut search).expect("tags"));
                } else {
                    generate::<Depth<AT>>(&state, &mut search).expect("moves");
                }
                (0..search.moves.len())
                    .map(|i| {
                        let mut tags = Vec::new();
                        search.moves.copy_tags(i, &mut tags);
                        tags
                    })
                    .collect()
            }
            if at {
                list::<true>(tags_only)
            } else {
                list::<false>(tags_only)
            }
        };
        for tags_only in [false, true] {
            assert_eq!(listed(tags_only, true), moves, "tags only: {tags_only}");
            assert_eq!(listed(tags_only, false), moves, "tags only: {tags_only}");
        }
        // A replay follows the picked move's tags only.
        for (index, tags) in moves.iter().enumerate() {
            let state = Depth::<true>::initial();
            let next = raw_apply::<Depth<true>>(&state, tags, &mut search_context::<Depth<true>>()).expect("no error");
            assert_eq!(next.map(|s| s.values), Some([1, index as u8 + 1]));
        }
    }

    fn keepers_playout<const MODE: u8>(max_moves: u64) -> Result<PlayoutOutcome, EngineError> {
        let mut search = search_context::<Keepers<MODE>>();
        random_playout::<Keepers<MODE>>(&mut Xoshiro256::for_playout(1, 0), max_moves, 0, &mut search)
    }

    #[test]
    fn a_playout_applies_keeper_moves_and_reports_their_errors() {
        let outcome = keepers_playout::<0>(100).expect("two keeper moves in a row end the game");
        assert_eq!((outcome.plies, outcome.legal_moves, outcome.goals), (3, 3, vec![3]));
        let mut search = search_context::<Keepers<0>>();
        let start = start::<Keepers<0>>(&mut search).expect("one keeper move");
        assert_eq!((start.node, start.values), (2, [0, 0]));
        assert_eq!(keepers_playout::<0>(2), Err(EngineError::PlayoutTooLong { playout: 0, limit: 2 }));
        let two = EngineError::KeeperMoveCount { node: "begin".into(), count: 2 };
        assert_eq!(keepers_playout::<1>(100), Err(two));
        assert_eq!(keepers_playout::<2>(100), Err(EngineError::KeeperCycle { node: "begin".into() }));
        let none = EngineError::KeeperMoveCount { node: "begin".into(), count: 0 };
        assert_eq!(keepers_playout::<3>(100), Err(none));
        // The generic settle agrees with the playout loop's.
        let after = CompiledState { node: 0, values: [1, 1] };
        let settled = settle::<Keepers<2>>(after, &mut search_context::<Keepers<2>>());
        assert_eq!(settled, Err(EngineError::KeeperCycle { node: "begin".into() }));
        // The same keeper cycle with its moves applied in place (`apply_keeper`), in the playout
        // loop and in the generic settle.
        assert_eq!(keepers_playout::<4>(100), Err(EngineError::KeeperCycle { node: "begin".into() }));
        let settled = settle::<Keepers<4>>(after, &mut search_context::<Keepers<4>>());
        assert_eq!(settled, Err(EngineError::KeeperCycle { node: "begin".into() }));
    }

    #[test]
    fn a_scope_merges_equal_moves_and_rejects_ambiguous_ones() {
        let mut search = search_context::<Scoped<0>>();
        generate::<Scoped<0>>(&Scoped::<0>::initial(), &mut search).expect("equal moves merge");
        let tags: Vec<&[SymbolId]> = (0..search.moves.len()).map(|i| search.moves.tags(i)).collect();
        assert_eq!(tags, [&[3][..], &[4], &[4]]);
        assert_eq!(search.moves.successor(2).values, [1, 9]);
        let mut search = search_context::<Scoped<5>>();
        let error = generate::<Scoped<5>>(&Scoped::<5>::initial(), &mut search).expect_err("ambiguous");
        assert!(matches!(error, EngineError::AmbiguousMove { .. }), "{error:?}");
        // Looking for one move: only paths with its tags complete, and they still merge.
        let next = raw_apply::<Scoped<0>>(&Scoped::<0>::initial(), &[3], &mut search_context::<Scoped<0>>());
        assert_eq!(next.expect("no error").map(|s| s.values), Some([1, 0]));
    }
}
