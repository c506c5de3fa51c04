//! Code generation: an automaton to a self-contained Rust module implementing
//! `regula_runtime::compiled::CompiledGame` for that one game (design in spec/codegen.md).
//!
//! The module holds the state as one fixed-size array of the narrowest unsigned integer type
//! that fits every symbol id (the reference engine's slot layout), constants as `static` tables,
//! and one function per node for the move search (`m<N>`) and one per node and target node for
//! reachability checks (`r<N>_<T>`, only for nodes between a check's start and its target).
//! Every edge becomes a block that applies its label in place, calls the target's function and
//! undoes the change, so the search walks the automaton depth-first without interpreting
//! anything; a cycle that is one simple ring of tests and fixed-slot writes runs as a loop
//! instead (`loops`). A member loop `x = T(*)` tests the guards right below it before writing
//! the member ([`Generator::member_filter`]), eight members a word when a guard reads one byte per
//! member and few members pass ([`Generator::byte_scan`]). Visited sets are consulted only at
//! nodes where a search can loop (the same analysis as the fast engine, spec/engines.md). Pure:
//! returns strings, writes no files.

mod affine_cells;
mod affine_offsets;
mod bit_listing;
mod carried_bases;
mod counted;
mod counted_search;
mod deltas;
mod depths;
mod distinct;
mod explore;
mod fused;
mod gathered_rings;
mod graph;
mod guarded_push;
mod guards;
mod known;
mod lane_scans;
mod loops;
mod mask_checks;
mod mask_lanes;
mod member_bits;
mod offset_keys;
mod progress;
mod ray_counts;
mod ray_skips;
mod refine;
mod settled_cells;
mod shift_checks;
mod slot_tests;
mod slot_values;
mod template;
mod values;
mod word_stores;

pub use template::{crate_files, CrateFile};

use crate::diagnostics::Diagnostic;
use crate::optimize::{optimize, PassSet};
use regula_runtime::automaton::{Automaton, Label};
use regula_runtime::compiled::{fingerprint, Plan, PlanOp, PlanOperand, PlanPlace, PlanStep, PlanTransfer};
use regula_runtime::engine::EngineError;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

/// Loads a source, runs every optimisation pass and lowers the result: the automaton compiled
/// models are generated from (and that their adapter must be given).
pub fn optimized_automaton(file_name: &str, source: &str) -> Result<Automaton, Vec<Diagnostic>> {
    let loaded = crate::load(file_name, source)?;
    let (game, _) = optimize(&loaded.rg, &PassSet::all());
    // One start node for both players where the game plays two twins in turn.
    let game = crate::optimize::merge_player_twins(&game, &PassSet::all()).unwrap_or(game);
    Ok(crate::rg::compile_game(game)?.automaton)
}

/// Generates the module of one game. `origin` names the source in the module's header.
pub fn generate(automaton: &Automaton, origin: &str) -> Result<String, EngineError> {
    let plan = Plan::new(automaton)?;
    let mut generator = Generator::new(automaton, &plan);
    generator.prepare_flank_scans();
    let mut body = generator.functions();
    body.push_str(&generator.counted_functions());
    body.push_str(&generator.bit_listing_functions());
    Ok(generator.module(origin, &body))
}

/// The narrowest unsigned type holding every symbol id.
/// Member loops with more members than this run over a range that a replayed move narrows to
/// the member its next tag names; shorter ones keep a plain loop.
const REPLAY_RANGE_MIN_MEMBERS: usize = 16;

fn symbol_type(symbol_count: usize) -> &'static str {
    if symbol_count <= 1 << 8 {
        "u8"
    } else if symbol_count <= 1 << 16 {
        "u16"
    } else {
        "u32"
    }
}

/// The bits of one slot value of [`symbol_type`]'s type.
fn slot_bits(sym: &str) -> u32 {
    match sym {
        "u8" => 8,
        "u16" => 16,
        _ => 32,
    }
}

/// Whether an edge's label ends a move (assigns `player`).
fn completes(op: &PlanOp) -> bool {
    matches!(op, PlanOp::Assign { sets_player: true, .. } | PlanOp::AssignAny { sets_player: true, .. })
}

/// `regula_runtime::compiled::MAX_MOVE_TAGS`: a move search without cycles over fewer nodes than
/// this cannot exceed it.
const MAX_MOVE_TAGS_BOUND: usize = regula_runtime::compiled::MAX_MOVE_TAGS;

/// The largest constant block a composed offset table covers (see `Generator::composed_offsets`).
const COMPOSED_TABLE_LIMIT: usize = 4096;

/// A loop `x = T(*)` over at most this many members whose body reads `x` is unrolled.
const UNROLL_MEMBERS: usize = 16;

/// The most out-edges the specialised function copies of all unrolled loops of one game may
/// hold together (members x edges of the nodes still reading the member), so big games keep
/// their compile time.
const UNROLL_EDGE_BUDGET: usize = 256;

/// The most room a delta listing on a sink has ([`Generator::sink_starts`]): the sink's fixed
/// slots (`regula_runtime::compiled::DELTA_SINK_SLOTS`, 8 bytes a move, 32 KiB). A start that
/// may complete more moves (a larger or no bound: draughts' capture chains, counted as the
/// product of their choices) lists on the context instead when a listing overflows the room
/// (`Search::list_deltas_into` returns `false`). One slot is kept spare: an uncounted
/// `push_delta_if` of a full room stores its word there (`guarded_push`).
const DELTA_SINK_BOUND: u64 = regula_runtime::compiled::DELTA_SINK_SLOTS as u64 - 1;

/// The most specialised functions of one game (nested unrolled loops multiply).
const SPECIALISED_LIMIT: usize = 256;

/// Whether writing into a place can fail: a computed key whose domain is not proved by the
/// value sets, or a literal key outside the map's domain.
fn fallible_place(place: &PlanPlace, values: &values::ValueSets) -> bool {
    place.steps.iter().any(|step| match &step.key {
        PlanOperand::Literal(symbol) => step.offsets[*symbol as usize] == step.default_offset,
        PlanOperand::Place(_) => !values.key_in_domain(step),
    })
}

/// Whether an edge's label can fail (in a reachability check, where tags are ignored).
fn fallible_op(op: &PlanOp, values: &values::ValueSets) -> bool {
    match op {
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => fallible_place(lhs, values),
        _ => false,
    }
}

/// The most entries (nodes x symbols^slots) of the runtime's table of visits keyed by progress slots.
const PROGRESS_TABLE_LIMIT: usize = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Mode {
    /// The move search: stops at edges assigning `player`, collects tags.
    Moves,
    /// A reachability check into `to`: follows the edges of its region, ignores tags, stops when
    /// `to` is entered; `pure` checks are `fn(&mut Values) -> bool`.
    Reach { to: u32, pure: bool },
    /// The keeper's move applied in place (`a<N>`, see [`Generator::apply_starts`]): the move
    /// search of a start that has at most one move, which cannot fail; the completion returns
    /// its target node (`Some`) without undoing anything, a path that fails undoes as in the
    /// move search. Functions are `fn(&mut Values) -> Option<u32>`.
    Apply,
}

/// A specialised function: mode, node, and the `(slot, symbol)` values it is specialised for.
type Specialisation = (Mode, u32, Vec<(u32, u32)>);

struct Generator<'a> {
    automaton: &'a Automaton,
    plan: &'a Plan,
    sym: &'static str,
    off: &'static str,
    /// Length of tables indexed by a symbol (256 for `u8` states, so indexing needs no check).
    table_len: usize,
    /// Static tables by content, in creation order.
    tables: Vec<(String, String, Vec<u64>)>,
    table_names: HashMap<(String, Vec<u64>), String>,
    /// Constant slots read through a computed offset.
    uses_constants: bool,
    analysis: graph::Analysis,
    /// The reachability checks by target node.
    reach: BTreeMap<u32, graph::ReachTarget>,
    /// What each variable can hold (proves keys inside their maps' domains).
    values: values::ValueSets<'a>,
    /// `fallible_moves[n]`: the move-search function of node `n` can return an error (otherwise
    /// it returns `()` and its callers need no `?`).
    fallible_moves: Vec<bool>,
    /// Moves have fewer than `MAX_MOVE_TAGS` tags: the move search has no cycle and fewer nodes.
    tags_bounded: bool,
    /// The slot values the function being generated is specialised for, `(slot, symbol)` by slot.
    known: Vec<(u32, u32)>,
    /// Specialised functions by (mode, node, known values), with their names.
    specialised: BTreeMap<Specialisation, String>,
    /// Specialised functions named but not generated yet, in request order.
    pending: Vec<Specialisation>,
    /// Out-edges each function copy an unrolled loop may still create (see [`UNROLL_EDGE_BUDGET`]).
    unroll_budget: usize,
    /// The same budget for the keeper's applied moves ([`Mode::Apply`]), separate so that they
    /// never change the move search's and checks' code.
    apply_unroll_budget: usize,
    /// Per node, whether the keeper's move from it is applied in place ([`Generator::apply_starts`]).
    apply_starts: Vec<bool>,
    /// Per node, whether some applied keeper move reaches it (it gets a function `a<N>`).
    in_apply: Vec<bool>,
    /// Per mode, the edges its search walks from each node.
    walks: HashMap<Mode, Vec<Vec<known::Step<'a>>>>,
    /// Per (mode, slot), the nodes from which the slot is read before it is written.
    liveness: HashMap<(Mode, u32), Vec<bool>>,
    /// Unspecialised functions called from specialised copies (marked `#[inline(always)]`).
    inlined: BTreeSet<(Mode, u32)>,
    /// The pure checks a function generic over the sink calls, directly or through another
    /// such check ([`Generator::sink_checks`]): all their functions are `#[inline(always)]`.
    sink_checks: BTreeSet<u32>,
    /// What the emitted functions call, recorded as they are emitted (see [`Emitted`]).
    emitted: Emitted,
    /// While a tag edge emits the completion right below it in its own block: the variable
    /// holding the tag, for that completion to push with `Search::complete_unique_valid_tagged`,
    /// and the tag depth of the edge's source when it is fixed (depths.rs: the completion is then
    /// `Search::complete_unique_valid_tagged_at`, which knows the path's length).
    fused_tag: Option<(String, Option<u32>)>,
    /// While a member loop's filter is written: the expressions standing for slots (the loop
    /// variable as its member, the variables the chain below it assigns as their values), which
    /// reads of those slots use instead of `v[slot]`.
    bound: Vec<(u32, String)>,
    /// While a member loop's filter is written: the loop variable's slot and its members in loop
    /// order, so a map read keyed by the member uses an offset per loop index.
    loop_members: Option<(u32, Vec<u32>)>,
    /// Per mode, the ring each node's function walks as a loop (see [`loops`]).
    rings: HashMap<Mode, Vec<Option<loops::Ring>>>,
    /// While a ring's loop is written: the code restoring the slots the ring writes, which an
    /// early return of a reachability check runs after the edge's own undo.
    ring_restore: String,
    /// Some member loop scans its members' slots a word at a time ([`ByteTest`]): the module
    /// needs the word helpers.
    uses_byte_scan: bool,
    /// The completions that push a delta word in a delta listing, and the starts that list so.
    deltas: deltas::Deltas,
    /// Per computed write of [`Generator::deltas`], the slot it writes as `v[...]` of the values
    /// alone (no known member folded), as `apply_delta` recomputes it.
    delta_places: Vec<String>,
    /// Per start node, the room its delta listing makes when it runs on a sink
    /// ([`Generator::sink_starts`]).
    sink_bounds: Vec<Option<u64>>,
    /// Per node, whether a sink start's search reaches it: its move-search function is generic
    /// over the `MoveSink` it runs on.
    sink_nodes: Vec<bool>,
    /// Per pure check (by target node), the slots its functions take as arguments
    /// ([`graph::register_slots`]).
    registers: BTreeMap<u32, Vec<u32>>,
    /// While a pure check's function is written: its register slots (reads of them are the
    /// arguments `r<slot>`).
    in_registers: Vec<u32>,
    /// Per pure check (by target node), its offset register: a register slot held as the board
    /// offset it keys instead of its symbol ([`graph::offset_register_keys`]), with its offsets
    /// per symbol and the table turning the state's symbol into the offset at the check's call.
    offset_registers: BTreeMap<u32, (u32, Vec<u32>, String)>,
    /// While a pure check's function is written: its offset register and offsets, if any.
    in_offset: Option<(u32, Vec<u32>)>,
    /// While an edge (or a member filter's skipped chain) writing register slots continues:
    /// those slots with the variables holding their new values, which its callee gets.
    register_writes: Vec<(u32, String)>,
    /// The starts whose playout ply counts their moves ([`counted`]), as their functions are written.
    counted_starts: Vec<u32>,
    /// The counted starts of more than nine members, whose functions call `marked_total` and
    /// `select_marked` (the others count through `small_counted`'s tables).
    counted_by_masks: Vec<u32>,
    /// The starts whose playout ply is counted bit-parallel ([`bit_listing`]).
    bit_starts: Vec<u32>,
    /// The pure checks tried bit-parallel first, by (from, to), with their functions ([`bit_listing`]).
    flank_scans: BTreeMap<(u32, u32), String>,
    /// Per node, the prefix depth of its counted search ([`counted_search`]; 0: none).
    counted_search_depths: Vec<u32>,
    /// The delta word bases carried down fans of chains into guarded pushes ([`carried_bases`]).
    carried: carried_bases::CarriedBases,
}

/// Where a member loop's body continues behind its filter ([`Generator::member_filter`]):
/// below `edge`, the chain's last guard, after the chain's writes before it (slot, and the value
/// as the filter reads it: an expression of the loop index `i` and unchanged slots).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FilterSkip {
    edge: usize,
    writes: Vec<(u32, String)>,
}

/// A guard of a member loop's filter that reads one byte per member: a map entry keyed by the
/// member (the members' entries in consecutive slots from `first_slot`), possibly through
/// constant tables, compared with a literal. It holds exactly for the members whose entry holds
/// one of `symbols` (`complement`: none of them), given that the entries only ever hold what the
/// map's value set allows (the value sets are sound, [`values`]). So a loop may test eight
/// members at once, on the word of their eight slots ([`Generator::byte_scan`]).
///
/// When every value the entries can hold is below 128, the test compares with `ranges`
/// instead: runs of `symbols` consecutive among those values, each `(low, high)` with a bound
/// left out (`None`) where no held value lies beyond it. A byte below 128 lies in `low..=high`
/// exactly when, with its high bit set, subtracting `low` keeps the bit and subtracting
/// `high + 1` clears it, and with every high bit set no subtraction borrows from the next byte:
/// two or three word operations per bound, where an equality costs five per symbol (draughts'
/// `blackMan | blackKing`, adjacent symbols, is one range).
#[derive(Clone, Debug, PartialEq, Eq)]
struct ByteTest {
    first_slot: u32,
    symbols: Vec<u32>,
    complement: bool,
    ranges: Option<Vec<ByteRange>>,
    /// Compared with a slot's value, not a literal: the test per value (`slot_tests.rs`); the
    /// fields above are the variant of the slot's initial value.
    selector: Option<slot_tests::Selector>,
}

/// One run of a [`ByteTest`]'s symbols: its lowest and highest symbol, each `None` where no
/// value the entries can hold lies beyond it (the bound needs no test).
type ByteRange = (Option<u32>, Option<u32>);

/// The most symbols (or ranges) one [`ByteTest`] compares a byte with (each costs up to five
/// word operations).
const BYTE_TEST_SYMBOLS: usize = 3;

/// The values below which a [`ByteTest`] may compare with ranges (see there).
const BYTE_RANGE_LIMIT: u32 = 128;

/// `held` (every value an entry can hold, ascending) split into the runs of consecutive values
/// that `member` selects, as [`ByteRange`]s.
fn byte_ranges(held: &[u32], member: impl Fn(u32) -> bool) -> Vec<ByteRange> {
    let mut ranges = Vec::new();
    let mut at = 0;
    while at < held.len() {
        if !member(held[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at + 1 < held.len() && member(held[at + 1]) {
            at += 1;
        }
        let low = (start > 0).then_some(held[start]);
        let high = (at + 1 < held.len()).then_some(held[at]);
        ranges.push((low, high));
        at += 1;
    }
    ranges
}

/// The largest share of members (numerator, denominator) passing a loop's byte tests in the
/// initial state for the loop to scan a word at a time. The scan costs a few operations per
/// eight members plus about as much per passing member as the plain loop costs per member, so
/// it saves where few pass; the initial state is the one sample of the game the generator has.
/// Measured (session 16, callgrind): scans of one side's pieces (draughts 12 of 64 squares)
/// gain, scans of empty cells (reversi 60 of 65: +6.4 % instructions per playout, gomoku 225 of
/// 225: +0.4 %) lose.
const BYTE_SCAN_MAX_PASSING: (usize, usize) = (1, 4);

/// What a module with byte scans ([`Generator::byte_scan`]) imports: eight slots as one word,
/// and per byte whether it equals a symbol or lies in a range (exact per byte; the runtime's
/// `compiled::byte_scan` has them and their exhaustive test).
const BYTE_SCAN_IMPORT: &str = "use regula_runtime::compiled::byte_scan::*;\n";

/// A [`ByteTest`]'s mask on the word of eight member slots from `8 * chunk` on: per member byte,
/// its high bit set where the test holds ([`Generator::byte_scan`], counted placements).
fn byte_test_mask(test: &ByteTest) -> String {
    let mask = match &test.selector {
        Some(selector) => selector.mask(literal_byte_test_mask),
        None => literal_byte_test_mask(test),
    };
    format!("{{ let word = slot_word(v, {} + 8 * chunk); {mask} }}", test.first_slot)
}

/// A [`ByteTest`]'s mask on `word` as compared with a literal (its selector aside).
fn literal_byte_test_mask(test: &ByteTest) -> String {
    let equal: Vec<String> = match &test.ranges {
        Some(ranges) => ranges
            .iter()
            .map(|&(low, high)| match (low, high) {
                (Some(low), Some(high)) => {
                    format!("(byte_at_least_mask(word, {low}) & byte_below_mask(word, {}))", high + 1)
                }
                (Some(low), None) => format!("byte_at_least_mask(word, {low})"),
                (None, Some(high)) => format!("byte_below_mask(word, {})", high + 1),
                (None, None) => "BYTE_HIGH_BITS".to_string(),
            })
            .collect(),
        None => test.symbols.iter().map(|symbol| format!("byte_eq_mask(word, {symbol})")).collect(),
    };
    let any = if equal.is_empty() { "0".to_string() } else { equal.join(" | ") };
    if test.complement {
        format!("!({any}) & BYTE_HIGH_BITS")
    } else {
        any
    }
}

/// A member loop's filter ([`Generator::member_filter`]): its guards as conditions on the loop
/// index (each with its byte test, if it has one), and where the body continues behind it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct MemberFilter {
    conditions: Vec<(String, Option<ByteTest>)>,
    skip: Option<FilterSkip>,
}

/// The search-context calls the emitted functions make, recorded where each is written, from
/// which [`Generator::module`] derives the game's `LEAN_READS_NO_TAGS` and `NO_VISITS`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Emitted {
    /// Some move search pushes a tag with `cx.push_tag` (moves are not proved shorter than
    /// `MAX_MOVE_TAGS`, so every push keeps the path and checks its length).
    unbounded_tags: bool,
    /// Some completion compares tags: `cx.complete` or `cx.complete_scoped`.
    compared_tags: bool,
    /// Some search records visits or counts steps: `cx.visit`, `cx.visit_slot`, `cx.count_step`.
    visits: bool,
    /// Some member loop runs a replayed move for the member its next tag names only:
    /// `cx.replayed_next_tag`.
    replay_skips_to_member: bool,
}

impl Emitted {
    /// No lean search reads a tag: every push is bounded (so `push_tag_bounded` may skip it) and
    /// every completion is unique (so none compares tags).
    fn lean_reads_no_tags(&self, tags_bounded: bool) -> bool {
        tags_bounded && !self.unbounded_tags && !self.compared_tags
    }

    /// No search can give up (nothing visits or counts steps).
    fn no_visits(&self) -> bool {
        !self.visits
    }
}

impl<'a> Generator<'a> {
    fn new(automaton: &'a Automaton, plan: &'a Plan) -> Self {
        let mut generator = Self::unanalysed(automaton, plan);
        let node_count = automaton.nodes.len();
        // Only nodes a move search reaches count: a cycle walked by reachability checks alone
        // (hex's chain walks) pushes no tag. A cycle of the move search carrying no tag does not
        // lengthen a move either (amazons' and chess's slides): its nodes' tag depths are fixed.
        let analysis = &generator.analysis;
        let acyclic_and_short = !analysis.cyclic_in_moves && node_count < MAX_MOVE_TAGS_BOUND;
        let fixed_depths_short =
            depths::max_fixed_depth(&analysis.tag_depths).is_some_and(|depth| (depth as usize) < MAX_MOVE_TAGS_BOUND);
        // Tags on cycles that fill a map: at most one per tag edge and pass (graph::filled_tag_bound).
        let filled_short = analysis.filled_tag_bound.is_some_and(|bound| bound < MAX_MOVE_TAGS_BOUND);
        generator.tags_bounded = acyclic_and_short || fixed_depths_short || filled_short;
        // Fallible move-search functions: an error source on an edge, a visit, or a fallible
        // callee, propagated backwards to a fixed point.
        let mut fallible: Vec<bool> = (0..node_count).map(|n| generator.analysis.visit_in_moves[n]).collect();
        for (edge, record) in automaton.edges.iter().enumerate() {
            if generator.edge_fallible_in_moves(edge) {
                fallible[record.source as usize] = true;
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for (edge, record) in automaton.edges.iter().enumerate() {
                if !completes(&plan.ops[edge]) && fallible[record.target as usize] && !fallible[record.source as usize]
                {
                    fallible[record.source as usize] = true;
                    changed = true;
                }
            }
        }
        generator.fallible_moves = fallible;
        // A unique completion may push a delta: no de-duplication reads its successor.
        let completing: Vec<bool> = plan.ops.iter().map(completes).collect();
        let analysis = &generator.analysis;
        generator.deltas = deltas::deltas(
            automaton,
            plan,
            &completing,
            &analysis.is_start,
            &analysis.unique_start,
            |edge| analysis.unique_moves[automaton.edges[edge].source as usize],
            slot_bits(generator.sym),
        );
        let (apply_starts, in_apply) = generator.apply_starts();
        generator.apply_starts = apply_starts;
        generator.in_apply = in_apply;
        let (sink_bounds, sink_nodes) = generator.sink_starts();
        generator.sink_bounds = sink_bounds;
        generator.sink_nodes = sink_nodes;
        // A counted search runs its functions on sinks too.
        generator.counted_search_depths = generator.counted_search_depths();
        for (node, counted) in generator.counted_search_nodes().into_iter().enumerate() {
            generator.sink_nodes[node] |= counted;
        }
        generator.sink_checks = generator.sink_checks();
        generator.carried = generator.carried_bases();
        generator
    }

    /// The pure checks that functions generic over the sink call ([`Generator::sink_starts`]),
    /// and the pure checks their regions call in turn. Such a function is emitted twice (for
    /// the context and for the sink), so each check gets two callers where it had one, and the
    /// compiler stopped inlining it into the listing loop: reversi's flank checks (`r10_11`,
    /// eight direction walks, called once per empty cell) cost 21.6 % more instructions per
    /// playout as calls. Their functions are marked `#[inline(always)]` instead, so both
    /// copies inline them as the one copy did. Cost: one pass over the edges per check.
    fn sink_checks(&self) -> BTreeSet<u32> {
        let (automaton, plan) = (self.automaton, self.plan);
        let mut checks = BTreeSet::new();
        let mut pending: Vec<u32> = Vec::new();
        let calls_from = |within: &dyn Fn(usize) -> bool, checks: &mut BTreeSet<u32>, pending: &mut Vec<u32>| {
            for (edge, record) in automaton.edges.iter().enumerate() {
                if let PlanOp::Reach { from, to, .. } = &plan.ops[edge] {
                    let pure = self.reach.get(to).is_some_and(|check| check.pure);
                    if from != to && pure && within(record.source as usize) && checks.insert(*to) {
                        pending.push(*to);
                    }
                }
            }
        };
        calls_from(&|node| self.sink_nodes[node], &mut checks, &mut pending);
        while let Some(to) = pending.pop() {
            let region = &self.reach[&to].region;
            calls_from(&|node| region[node], &mut checks, &mut pending);
        }
        checks
    }

    /// The delta starts whose listing runs on a `DeltaSink` (`Search::list_deltas_into`), with
    /// the room each makes, and the nodes their searches reach. A start qualifies when its
    /// search cannot fail (`fallible_moves`: no visit, scope, impure check, unproved key or
    /// unbounded tag below it, so its functions call only what `MoveSink` offers) and reaches a
    /// completion; the room it makes is its completion bound (`completion_bounds`, the product
    /// of the choices on its paths) capped at [`DELTA_SINK_BOUND`]. Other searches of the game may
    /// record visits (reversi's flips, hex's win check: the keeper's): the start's own cannot,
    /// as a visit makes its function fallible, and its listing runs on the sink in its out-of-line
    /// entry `e<N>` instead of in `search_in_place`. A mixed start qualifies too: its completions
    /// without a delta word push their successors whole on the sink (`MoveSink::push_whole`).
    /// Every node such a search reaches gets a function generic over the sink: the compiler emits
    /// it once for the context and once for the sink, where every completion is a push with the
    /// move count in a register and tag pushes are no-ops. Cost: one reachability walk per
    /// qualifying start.
    fn sink_starts(&self) -> (Vec<Option<u64>>, Vec<bool>) {
        let count = self.automaton.nodes.len();
        let analysis = &self.analysis;
        let bounds: Vec<Option<u64>> = (0..count)
            .map(|node| {
                let bound = analysis.completion_bounds[node];
                let qualifies = analysis.is_start[node]
                    && analysis.in_moves[node]
                    && self.deltas.starts[node]
                    && !self.fallible_moves[node]
                    && bound >= 1
                    && !self.starts_tags_only(node);
                qualifies.then_some(bound.min(DELTA_SINK_BOUND))
            })
            .collect();
        let roots: Vec<bool> = bounds.iter().map(Option::is_some).collect();
        let nodes = graph::reachable(&analysis.within_move, &roots);
        (bounds, nodes)
    }

    /// Whether a playout lists the moves of `start` as tags only from its first listing on, so
    /// that its delta listing (and a sink for it) would rarely run: its search reaches a
    /// placement loop that lists single tags (`x = T(*)` over more than
    /// [`REPLAY_RANGE_MIN_MEMBERS`] members, the member its next tag, [`Generator::placement`]),
    /// and that loop's members alone take more successor bytes than
    /// `regula_runtime::compiled::TAGS_ONLY_ABOVE_BYTES` (the playout lists tags only after such
    /// a listing, until fewer moves remain: gomoku's 225 cells of 244 bytes, tags only while
    /// more than 67 cells are free). Such a start keeps one plain copy of its functions (gomoku
    /// paid 0.7 % instructions for the unused second copy). Cost: one reachability walk.
    fn starts_tags_only(&self, start: usize) -> bool {
        let (automaton, plan) = (self.automaton, self.plan);
        let sym_bytes = slot_bits(self.sym) as usize / 8;
        // `size_of::<CompiledState<Values>>()`: the node id, then the slots, aligned to 4.
        let state_bytes = (4 + plan.state_len * sym_bytes).next_multiple_of(4);
        let mut roots = vec![false; automaton.nodes.len()];
        roots[start] = true;
        let region = graph::reachable(&self.analysis.within_move, &roots);
        (0..automaton.nodes.len()).filter(|&node| region[node]).any(|node| {
            automaton.nodes[node].edges.clone().any(|edge| {
                let edge = edge as usize;
                let PlanOp::AssignAny { lhs, members, .. } = &plan.ops[edge] else { return false };
                members.len() > REPLAY_RANGE_MIN_MEMBERS
                    && members.len() * state_bytes > regula_runtime::compiled::TAGS_ONLY_ABOVE_BYTES
                    && graph::fixed_slot(lhs)
                        .is_some_and(|slot| self.next_tag_is_member(edge, slot) && self.placement(edge, slot).is_some())
            })
        })
    }

    /// The starts whose keeper move is applied in place ([`Mode::Apply`]), and the nodes their
    /// searches reach. A start qualifies when a completion handing the turn to the literal
    /// `keeper` enters it and its move search (the nodes it reaches without completing) is
    /// acyclic, pushes no tag, records no visit, opens no scope, reaches a completion and cannot
    /// fail (`fallible_moves`: every completion below is then proved unique and assigns a valid
    /// player, every key is proved, every check is pure). Every completion of such a search
    /// carries the same, empty, tags, and the uniqueness proof says no two of its paths give the
    /// same tags: it completes at most one move. So stopping at the first completion, without
    /// undoing, leaves the state the listing's one successor holds, and skips only paths that
    /// can neither complete nor fail; where none completes, every path undid its writes and the
    /// runtime lists the keeper's moves as before (and reports the count the listing finds).
    /// Cost: one walk of each keeper start's region.
    fn apply_starts(&self) -> (Vec<bool>, Vec<bool>) {
        let (automaton, plan) = (self.automaton, self.plan);
        let count = automaton.nodes.len();
        let mut starts = vec![false; count];
        let mut in_apply = vec![false; count];
        let mut keeper_start = vec![false; count];
        for (edge, record) in automaton.edges.iter().enumerate() {
            let hands_to_keeper = matches!(
                &plan.ops[edge],
                op @ PlanOp::Assign { sets_player: true, rhs: PlanOperand::Literal(symbol), .. }
                    if *symbol == automaton.keeper && completes(op)
            );
            if hands_to_keeper {
                keeper_start[record.target as usize] = true;
            }
        }
        for start in 0..count {
            if !keeper_start[start] || !self.analysis.in_moves[start] || self.fallible_moves[start] {
                continue;
            }
            // Depth-first over the edges within a move: 1 on the current path, 2 finished.
            let mut state = vec![0u8; count];
            let mut stack = vec![(start, false)];
            let mut qualifies = true;
            let mut completions = 0usize;
            while let Some((node, expanded)) = stack.pop() {
                if expanded {
                    state[node] = 2;
                    continue;
                }
                match state[node] {
                    1 => {
                        qualifies = false;
                        break;
                    }
                    2 => continue,
                    _ => {}
                }
                if self.analysis.visit_in_moves[node] || self.analysis.opens_scope[node] || self.fallible_moves[node] {
                    qualifies = false;
                    break;
                }
                state[node] = 1;
                stack.push((node, true));
                for edge in automaton.nodes[node].edges.clone() {
                    let edge = edge as usize;
                    let op = &plan.ops[edge];
                    if matches!(op, PlanOp::Tag(_) | PlanOp::TagExpr(_)) {
                        qualifies = false;
                    } else if completes(op) {
                        completions += 1;
                        qualifies &= !self.edge_fallible_in_moves(edge);
                    } else {
                        let target = automaton.edges[edge].target as usize;
                        match state[target] {
                            1 => qualifies = false,
                            2 => {}
                            _ => stack.push((target, false)),
                        }
                    }
                }
                if !qualifies {
                    break;
                }
            }
            if qualifies && completions > 0 {
                starts[start] = true;
                for node in 0..count {
                    in_apply[node] |= state[node] != 0;
                }
            }
        }
        (starts, in_apply)
    }

    /// The delta word completion `edge` pushes in a delta listing (see [`deltas`]): its site's
    /// number, then the values its write set's slots have at the completion. `assigned` is a
    /// slot the completion assigns and the expression it assigns (read instead of the slot, so
    /// the delta is pushed before the write).
    /// A computed write's value is its slot's, the slot computed from the values where the
    /// completion runs (a member the function is specialised for is in the state too).
    fn delta_word(&mut self, edge: usize, assigned: Option<(u32, &str)>) -> Option<String> {
        let site = self.deltas.site_of_edge[edge]?;
        let bits = slot_bits(self.sym);
        let mut word = format!("{site}u64");
        let fixed = self.deltas.sites[site].slots.clone();
        let computed = self.deltas.sites[site].computed.clone();
        let mut values: Vec<String> = fixed
            .iter()
            .map(|&slot| match assigned {
                Some((written, value)) if written == slot => value.to_string(),
                _ => format!("v[{slot}]"),
            })
            .collect();
        for place in computed {
            let place = self.deltas.places[place].clone();
            values.push(self.state_read(&place));
        }
        for (i, value) in values.iter().enumerate() {
            write!(word, " | ({value} as u64) << {}", 16 + bits * i as u32).expect("writing to a String");
        }
        Some(word)
    }

    /// A read of a state place from the values themselves: no member loop's filter expressions
    /// stand for slots (the members known where the function runs still fold).
    fn state_read(&mut self, place: &PlanPlace) -> String {
        let bound = std::mem::take(&mut self.bound);
        let loop_members = self.loop_members.take();
        let read = self.read(place);
        self.bound = bound;
        self.loop_members = loop_members;
        read
    }

    /// A completion assigning one fixed slot (`player = e`), which pushes its delta before the
    /// write (see the `Assign` case of [`Generator::edge`]); others push it where they complete.
    fn completes_one_fixed_slot(&self, mode: Mode, edge: usize) -> Option<u32> {
        match &self.plan.ops[edge] {
            op @ PlanOp::Assign { lhs, transfer: PlanTransfer::Slot, .. } if mode == Mode::Moves && completes(op) => {
                graph::fixed_slot(lhs)
            }
            _ => None,
        }
    }

    /// Whether an edge's own label can fail in the move search (its target aside).
    fn edge_fallible_in_moves(&self, edge: usize) -> bool {
        let source = self.automaton.edges[edge].source as usize;
        match &self.plan.ops[edge] {
            PlanOp::Tag(_) | PlanOp::TagExpr(_) => !self.tags_bounded,
            op @ (PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. }) if completes(op) => {
                !self.analysis.unique_moves[source]
                    || fallible_place(lhs, &self.values)
                    || !self.assigns_valid_player(edge, op)
            }
            op => fallible_op(op, &self.values) || self.reach_fallible(op),
        }
    }

    /// Whether completion `op` (on edge `edge`) assigns a player, keeper or random in every
    /// state: a literal, or a read whose value set (narrowed by dominating comparisons) holds
    /// nothing else (`player = PlayerOrSystem(me)` with `me` only ever a player).
    fn assigns_valid_player(&self, edge: usize, op: &PlanOp) -> bool {
        let automaton = self.automaton;
        let valid = |player: u32| {
            automaton.players.contains(&player) || player == automaton.keeper || player == automaton.random
        };
        match op {
            PlanOp::Assign { rhs, transfer: PlanTransfer::Slot, lhs, .. } if lhs.steps.is_empty() && lhs.in_state => {
                match rhs {
                    PlanOperand::Literal(player) => valid(*player),
                    PlanOperand::Place(_) => {
                        let players = self.values.assigned_members(edge, rhs);
                        !players.is_empty() && players.into_iter().all(valid)
                    }
                }
            }
            _ => false,
        }
    }

    /// A reachability check that needs the search context (and can fail).
    fn reach_fallible(&self, op: &PlanOp) -> bool {
        match op {
            PlanOp::Reach { from, to, .. } if from != to => {
                let target = &self.reach[to];
                target.region[*from as usize] && !target.pure
            }
            _ => false,
        }
    }

    fn unanalysed(automaton: &'a Automaton, plan: &'a Plan) -> Self {
        let symbol_count = automaton.symbols.len();
        let sym = symbol_type(symbol_count);
        let off = if plan.state_len.max(plan.const_values.len()) < 1 << 16 { "u16" } else { "u32" };
        let table_len = if sym == "u8" { 256 } else { symbol_count };
        let completing: Vec<bool> = plan.ops.iter().map(completes).collect();

        let checks: Vec<(u32, u32)> = plan
            .ops
            .iter()
            .filter_map(|op| match op {
                PlanOp::Reach { from, to, .. } if from != to => Some((*from, *to)),
                _ => None,
            })
            .collect();
        let values = values::ValueSets::new(automaton, plan, symbol_count);
        let analysis = graph::Analysis::new(automaton, plan, &completing, &values);
        let fallible: Vec<bool> = plan.ops.iter().map(|op| fallible_op(op, &values)).collect();
        let mut reach = graph::reach_targets(automaton, plan, &values, &checks, &fallible);
        // Visits keyed by (node, progress slots) index a dense table of nodes x symbols^slots.
        for (&to, target) in reach.iter_mut() {
            if target.visits.iter().any(|&v| v) {
                target.progress_slots = graph::progress_slots(automaton, plan, to, &target.region).filter(|slots| {
                    let entries = (symbol_count.max(1) as u128).pow(slots.len() as u32) * automaton.nodes.len() as u128;
                    entries <= PROGRESS_TABLE_LIMIT as u128
                });
            }
        }
        Generator {
            automaton,
            plan,
            sym,
            off,
            table_len,
            tables: Vec::new(),
            table_names: HashMap::new(),
            uses_constants: false,
            analysis,
            reach,
            values,
            fallible_moves: Vec::new(),
            tags_bounded: false,
            known: Vec::new(),
            specialised: BTreeMap::new(),
            pending: Vec::new(),
            unroll_budget: UNROLL_EDGE_BUDGET,
            apply_unroll_budget: UNROLL_EDGE_BUDGET,
            apply_starts: Vec::new(),
            in_apply: Vec::new(),
            walks: HashMap::new(),
            liveness: HashMap::new(),
            inlined: BTreeSet::new(),
            emitted: Emitted::default(),
            fused_tag: None,
            bound: Vec::new(),
            loop_members: None,
            rings: HashMap::new(),
            ring_restore: String::new(),
            uses_byte_scan: false,
            deltas: deltas::Deltas::default(),
            delta_places: Vec::new(),
            sink_bounds: Vec::new(),
            sink_nodes: Vec::new(),
            sink_checks: BTreeSet::new(),
            registers: BTreeMap::new(),
            in_registers: Vec::new(),
            offset_registers: BTreeMap::new(),
            in_offset: None,
            register_writes: Vec::new(),
            counted_starts: Vec::new(),
            counted_by_masks: Vec::new(),
            bit_starts: Vec::new(),
            flank_scans: BTreeMap::new(),
            counted_search_depths: Vec::new(),
            carried: carried_bases::CarriedBases::default(),
        }
    }

    /// A static table (deduplicated by content); returns its name.
    fn table(&mut self, prefix: &str, element: &str, values: Vec<u64>) -> String {
        let key = (element.to_string(), values);
        if let Some(name) = self.table_names.get(&key) {
            return name.clone();
        }
        let name = format!("{prefix}{}", self.tables.len());
        self.tables.push((name.clone(), element.to_string(), key.1.clone()));
        self.table_names.insert(key, name.clone());
        name
    }

    /// A table indexed by symbol id, padded to `table_len` with `pad`.
    fn symbol_table(&mut self, prefix: &str, element: &str, per_symbol: &[u64], pad: u64) -> String {
        let mut values = per_symbol.to_vec();
        values.resize(self.table_len.max(values.len()), pad);
        self.table(prefix, element, values)
    }

    fn edge_text(&self, edge: usize) -> String {
        let edge = &self.automaton.edges[edge];
        let nodes = &self.automaton.nodes;
        format!("`{}` -> `{}`", nodes[edge.source as usize].name, nodes[edge.target as usize].name)
    }

    /// A set-valued read, as an expression of the symbol type.
    fn value(&mut self, operand: &PlanOperand) -> String {
        match operand {
            PlanOperand::Literal(symbol) => format!("{symbol}"),
            PlanOperand::Place(place) => self.read(place),
        }
    }

    /// The value of a key as a table index.
    fn index(&mut self, operand: &PlanOperand) -> String {
        format!("({} as usize)", self.value(operand))
    }

    /// The symbol a key or value is known to hold where the current function runs: a literal, a
    /// variable the function is specialised for, or a constant read with such keys.
    fn known_key(&self, operand: &PlanOperand) -> Option<u32> {
        match operand {
            PlanOperand::Literal(symbol) => Some(*symbol),
            PlanOperand::Place(place) if place.in_state => {
                if !place.steps.is_empty() || self.bound_value(place.base).is_some() {
                    return None;
                }
                self.known.iter().find(|&&(slot, _)| slot == place.base).map(|&(_, symbol)| symbol)
            }
            PlanOperand::Place(place) => {
                let mut base = place.base;
                for step in &place.steps {
                    base += step.offsets[self.known_key(&step.key)? as usize];
                }
                self.plan.const_values.get(base as usize).copied()
            }
        }
    }

    /// The expression a member loop's filter reads for `slot` instead of `v[slot]`, if any.
    fn bound_value(&self, slot: u32) -> Option<&str> {
        self.bound.iter().rev().find(|(bound, _)| *bound == slot).map(|(_, value)| value.as_str())
    }

    fn read(&mut self, place: &PlanPlace) -> String {
        if place.in_state && place.steps.is_empty() {
            if let Some(value) = self.bound_value(place.base) {
                return value.to_string();
            }
            // A known value (a specialised copy's) holds in a register slot too: a constant folds.
            if let Some(symbol) = self.known.iter().find(|&&(slot, _)| slot == place.base).map(|&(_, s)| s) {
                return format!("{symbol}");
            }
            if self.in_registers.contains(&place.base) {
                return format!("r{}", place.base);
            }
        }
        // Known keys fold into the base.
        let mut base = place.base as u64;
        let mut dynamic = Vec::new();
        for step in &place.steps {
            match self.known_key(&step.key) {
                Some(symbol) => base += step.offsets[symbol as usize] as u64,
                None => dynamic.push(step),
            }
        }
        if !place.in_state {
            match dynamic.as_slice() {
                [] => return format!("{}", self.plan.const_values[base as usize]),
                [step] => {
                    let per_symbol: Vec<u64> = step
                        .offsets
                        .iter()
                        .map(|&offset| self.plan.const_values[(base + offset as u64) as usize] as u64)
                        .collect();
                    let sym = self.sym;
                    let table = self.symbol_table("TAB", sym, &per_symbol, 0);
                    let key = self.index(&step.key);
                    return format!("{table}[{key}]");
                }
                _ => {}
            }
        }
        let mut offset = format!("{base}");
        self.offset_terms(&dynamic, &mut offset);
        if place.in_state {
            format!("v[{offset}]")
        } else {
            self.uses_constants = true;
            format!("CONSTANTS[{offset}]")
        }
    }

    /// Appends ` + OFF[key] as usize` for each computed key of a place to an offset expression.
    fn offset_terms(&mut self, dynamic: &[&PlanStep], offset: &mut String) {
        for step in dynamic {
            // The offset register is the offset itself.
            if let Some((slot, _)) = &self.in_offset {
                if graph::is_slot_read(&step.key, *slot) {
                    // In a member loop's filter, a chain's write of it is its offset expression.
                    match self.bound_value(*slot) {
                        Some(value) => write!(offset, " + {value} as usize"),
                        None => write!(offset, " + r{slot} as usize"),
                    }
                    .expect("writing to a String");
                    continue;
                }
            }
            let mut per_symbol: Vec<u64> = step.offsets.iter().map(|&o| o as u64).collect();
            let mut key_operand = &step.key;
            // A key read from a constant map with one computed key, `m[c[k]]`, is one table
            // `OFF[k]` composed at generation time (one dependent load instead of two).
            if let Some((values, inner_key)) = self.constant_table(&step.key) {
                per_symbol = values.iter().map(|&value| step.offsets[value as usize] as u64).collect();
                key_operand = inner_key;
            } else if let Some(composed) = self.composed_offsets(step) {
                // With several computed keys, `m[c[k1][k2]]` reads the offsets of `m` through
                // a table over the constant block: `COFF[OFF1[k1] + OFF2[k2]]`.
                write!(offset, " + {composed} as usize").expect("writing to a String");
                continue;
            }
            // In a member loop's filter a key that is the loop's member is known per loop index
            // `i`: its offsets in loop order, `i` itself plus a constant when they run
            // consecutively (a board scanned in slot order), else one table over the indices.
            if let (PlanOperand::Place(key), Some((slot, members))) = (key_operand, &self.loop_members) {
                if key.in_state && key.steps.is_empty() && key.base == *slot {
                    let per_index: Vec<u64> = members.iter().map(|&member| per_symbol[member as usize]).collect();
                    let first = per_index.first().copied().unwrap_or(0);
                    if per_index.iter().enumerate().all(|(i, &o)| o == first + i as u64) {
                        write!(offset, " + {first} + i").expect("writing to a String");
                    } else {
                        let off = self.off;
                        let table = self.table("MOFF", off, per_index);
                        write!(offset, " + {table}[i] as usize").expect("writing to a String");
                    }
                    continue;
                }
            }
            // Offsets affine in the key's symbols: arithmetic, no lookup (affine_offsets.rs).
            if let Some((stride, shift)) =
                affine_offsets::affine(&per_symbol, &self.values.operand_members(key_operand))
            {
                let key = self.index(key_operand);
                write!(offset, " + {}", affine_offsets::expression(&key, stride, shift)).expect("writing to a String");
                continue;
            }
            let off = self.off;
            let table = self.symbol_table("OFF", off, &per_symbol, step.default_offset as u64);
            let key = self.index(key_operand);
            write!(offset, " + {table}[{key}] as usize").expect("writing to a String");
        }
    }

    /// `COFF[Σ OFF_i[k_i]]` for a step whose key is a constant read with several computed keys
    /// (at most [`COMPOSED_TABLE_LIMIT`] constant slots from its base on), or `None`.
    fn composed_offsets(&mut self, step: &PlanStep) -> Option<String> {
        let PlanOperand::Place(inner) = &step.key else { return None };
        if inner.in_state {
            return None;
        }
        let mut base = inner.base as usize;
        let mut dynamic = Vec::new();
        for inner_step in &inner.steps {
            match self.known_key(&inner_step.key) {
                Some(symbol) => base += inner_step.offsets[symbol as usize] as usize,
                None => dynamic.push(inner_step),
            }
        }
        let span = self.plan.const_values.len().checked_sub(base)?;
        if dynamic.len() < 2 || span > COMPOSED_TABLE_LIMIT {
            return None;
        }
        let values: Vec<u64> =
            self.plan.const_values[base..].iter().map(|&value| step.offsets[value as usize] as u64).collect();
        let off = self.off;
        let table = self.table("COFF", off, values);
        let mut index = String::from("0");
        self.offset_terms(&dynamic, &mut index);
        Some(format!("{table}[{index}]"))
    }

    /// A constant read with exactly one computed key: its value per symbol of that key, and the key.
    fn constant_table<'p>(&self, operand: &'p PlanOperand) -> Option<(Vec<u32>, &'p PlanOperand)> {
        let PlanOperand::Place(place) = operand else { return None };
        if place.in_state {
            return None;
        }
        let mut base = place.base;
        let mut dynamic = None;
        for step in &place.steps {
            match self.known_key(&step.key) {
                Some(symbol) => base += step.offsets[symbol as usize],
                None if dynamic.is_some() => return None,
                None => dynamic = Some(step),
            }
        }
        let step = dynamic?;
        let values = step.offsets.iter().map(|&offset| self.plan.const_values[(base + offset) as usize]).collect();
        Some((values, &step.key))
    }

    /// The first slot of a place as a `usize` expression, for block copies and comparisons.
    fn block_start(&mut self, place: &PlanPlace) -> (String, &'static str) {
        let text = self.read(place);
        // `read` gives `v[...]`, `CONSTANTS[...]`, a literal or a table lookup; blocks are never
        // folded into literals or tables because they have map types, so only the first two occur.
        if let Some(inner) = text.strip_prefix("v[").and_then(|t| t.strip_suffix(']')) {
            return (inner.to_string(), "v");
        }
        if let Some(inner) = text.strip_prefix("CONSTANTS[").and_then(|t| t.strip_suffix(']')) {
            return (inner.to_string(), "CONSTANTS");
        }
        // A constant block without computed keys: address it in the constant buffer.
        self.uses_constants = true;
        let mut base = place.base as u64;
        for step in &place.steps {
            if let Some(symbol) = self.known_key(&step.key) {
                base += step.offsets[symbol as usize] as u64;
            }
        }
        (format!("{base}"), "CONSTANTS")
    }

    /// Code computing the slot an assignment writes into `slot`, with the domain checks.
    fn target(&mut self, place: &PlanPlace, edge: usize) -> String {
        let mut code = String::new();
        let mut base = place.base as u64;
        let mut terms = Vec::new();
        for (i, step) in place.steps.iter().enumerate() {
            let edge_text = format!("{:?}", self.edge_text(edge));
            let map_type = format!("{:?}", step.map_type);
            // A key known in the domain folds like a literal (an unknown or outside one keeps
            // its code: the check, or the error of a literal).
            let known =
                self.known_key(&step.key).filter(|&symbol| step.offsets[symbol as usize] != step.default_offset);
            if let Some(symbol) = known {
                base += step.offsets[symbol as usize] as u64;
                continue;
            }
            match &step.key {
                PlanOperand::Literal(symbol) => {
                    let offset = step.offsets[*symbol as usize];
                    if offset == step.default_offset {
                        writeln!(code, "return Err(cx.key_outside({symbol}, {map_type}, {edge_text}));")
                            .expect("writing to a String");
                    } else {
                        base += offset as u64;
                    }
                }
                key if self.values.key_in_domain(step) => {
                    let per_symbol: Vec<u64> = step.offsets.iter().map(|&o| o as u64).collect();
                    // Offsets affine in the key's symbols: arithmetic (affine_offsets.rs).
                    if let Some((stride, shift)) =
                        affine_offsets::affine(&per_symbol, &self.values.operand_members(key))
                    {
                        let key = format!("(({}) as usize)", self.value(key));
                        let expression = affine_offsets::expression(&key, stride, shift);
                        writeln!(code, "let o{i} = {expression};").expect("writing to a String");
                        terms.push(format!(" + o{i} as usize"));
                        continue;
                    }
                    let off = self.off;
                    let table = self.symbol_table("OFF", off, &per_symbol, step.default_offset as u64);
                    let key = self.value(key);
                    // The value sets prove the key is in the domain: no check.
                    writeln!(code, "let o{i} = {table}[({key}) as usize];").expect("writing to a String");
                    terms.push(format!(" + o{i} as usize"));
                }
                key => {
                    let per_symbol: Vec<u64> = step.offsets.iter().map(|&o| o as u64).collect();
                    let off = self.off;
                    let table = self.symbol_table("OFF", off, &per_symbol, step.default_offset as u64);
                    let key = self.value(key);
                    writeln!(
                        code,
                        "let k{i} = {key}; let o{i} = {table}[k{i} as usize]; \
                         if o{i} == {default} {{ return Err(cx.key_outside(k{i} as u32, {map_type}, {edge_text})); }}",
                        default = step.default_offset
                    )
                    .expect("writing to a String");
                    terms.push(format!(" + o{i} as usize"));
                }
            }
        }
        writeln!(code, "let slot = {base}usize{};", terms.concat()).expect("writing to a String");
        code
    }

    /// The code that continues the search after an edge into `target` (its undo code given for
    /// the early return of a successful reachability check).
    /// `bind` is a value the edge gives a slot (an unrolled loop's member).
    fn continue_to(&mut self, mode: Mode, edge: usize, undo: &str, bind: Option<(u32, u32)>) -> String {
        let target = self.automaton.edges[edge].target;
        let stops = match mode {
            Mode::Moves | Mode::Apply => completes(&self.plan.ops[edge]),
            Mode::Reach { to, .. } => target == to,
        };
        // Only a target the search enters has a function (and specialised copies).
        let callee = if stops { String::new() } else { self.callee(mode, edge, bind) };
        // Inside a ring's loop, an early return also restores what the ring wrote.
        let ring = if self.ring_restore.is_empty() { String::new() } else { format!("{} ", self.ring_restore) };
        match mode {
            // The one move: its writes stay, the caller sets the node.
            Mode::Apply if stops => format!("return Some({target});\n"),
            Mode::Apply => format!("if let Some(node) = {callee}(v) {{ return Some(node); }}\n"),
            Mode::Moves if completes(&self.plan.ops[edge]) => {
                let player = self.plan.player_slot;
                let source = self.automaton.edges[edge].source as usize;
                // In a delta listing a completion with a delta pushes its word instead (one
                // assigning a fixed slot did before its write).
                let delta = match self.completes_one_fixed_slot(mode, edge) {
                    Some(_) => None,
                    None => self.delta_word(edge, None),
                };
                if !self.edge_fallible_in_moves(edge) {
                    let complete = match self.fused_tag.take() {
                        Some((tag, Some(depth))) => {
                            format!("cx.complete_unique_valid_tagged_at::<{depth}>({tag}, {target}, v);")
                        }
                        Some((tag, None)) => format!("cx.complete_unique_valid_tagged({tag}, {target}, v);"),
                        None => format!("cx.complete_unique_valid({target}, v);"),
                    };
                    return match delta {
                        Some(word) => {
                            format!("if cx.lists_deltas() {{ cx.push_delta({word}); }} else {{ {complete} }}\n")
                        }
                        // Below a mixed delta start, a completion without a delta pushes its
                        // successor whole into the delta listing.
                        None if self.deltas.whole_of_edge[edge] => {
                            format!("if cx.lists_deltas() {{ cx.push_whole({target}, v); }} else {{ {complete} }}\n")
                        }
                        None => format!("{complete}\n"),
                    };
                }
                let complete = if self.analysis.unique_moves[source] {
                    "complete_unique"
                } else if self.analysis.scoped_moves[source] {
                    "complete_scoped"
                } else {
                    "complete"
                };
                self.emitted.compared_tags |= complete != "complete_unique";
                match delta {
                    // An invalid player is reported by the completion, as without deltas.
                    Some(word) if complete == "complete_unique" => format!(
                        "let p = v[{player}]; if cx.lists_deltas() && VALID_PLAYER[p as usize] {{ cx.push_delta({word}); }} \
                         else {{ cx.{complete}({target}, v, p as u32, VALID_PLAYER[p as usize])?; }}\n"
                    ),
                    None if complete == "complete_unique" && self.deltas.whole_of_edge[edge] => format!(
                        "let p = v[{player}]; if cx.lists_deltas() && VALID_PLAYER[p as usize] {{ cx.push_whole({target}, v); }} \
                         else {{ cx.{complete}({target}, v, p as u32, VALID_PLAYER[p as usize])?; }}\n"
                    ),
                    _ => format!(
                        "let p = v[{player}]; cx.{complete}({target}, v, p as u32, VALID_PLAYER[p as usize])?;\n"
                    ),
                }
            }
            Mode::Moves if self.fallible_moves[target as usize] => format!("{callee}(v, cx)?;\n"),
            Mode::Moves => format!("{callee}(v, cx{});\n", carried_bases::base_argument(&self.carried, mode, target)),
            Mode::Reach { to, pure: true } if target == to => format!("{{ {undo} {ring}return true; }}\n"),
            Mode::Reach { to, pure: false } if target == to => format!("{{ {undo} {ring}return Ok(true); }}\n"),
            Mode::Reach { pure: true, .. } => {
                let args = self.register_args();
                format!("if {callee}(v{args}) {{ {undo} {ring}return true; }}\n")
            }
            Mode::Reach { pure: false, .. } => {
                format!("if {callee}(v, cx)? {{ {undo} {ring}return Ok(true); }}\n")
            }
        }
    }

    /// The edges the search of `mode` walks from each node.
    fn walk(&mut self, mode: Mode) -> &Vec<Vec<known::Step<'a>>> {
        let (automaton, plan) = (self.automaton, self.plan);
        let region = match mode {
            Mode::Reach { to, .. } => Some((to, self.reach[&to].region.clone())),
            Mode::Moves | Mode::Apply => None,
        };
        self.walks.entry(mode).or_insert_with(|| {
            automaton
                .nodes
                .iter()
                .map(|node| {
                    node.edges
                        .clone()
                        .map(|edge| edge as usize)
                        .filter_map(|edge| {
                            let (op, target) = (&plan.ops[edge], automaton.edges[edge].target);
                            match &region {
                                Some((to, region)) if target == *to => Some(known::Step { op, target, stops: true }),
                                Some((_, region)) if !region[target as usize] => None,
                                Some(_) => Some(known::Step { op, target, stops: false }),
                                None => Some(known::Step { op, target, stops: completes(op) }),
                            }
                        })
                        .collect()
                })
                .collect()
        })
    }

    /// Whether `slot` is read below `node` (in the search of `mode`) before it is written.
    fn live(&mut self, mode: Mode, slot: u32, node: u32) -> bool {
        if !self.liveness.contains_key(&(mode, slot)) {
            let plan = self.plan;
            let live = known::live_reads(plan, self.walk(mode), slot);
            self.liveness.insert((mode, slot), live);
        }
        self.liveness[&(mode, slot)][node as usize]
    }

    /// The function an edge continues into: the target's, specialised for the known values
    /// (those of the current function the edge does not overwrite, and `bind`) still read there.
    fn callee(&mut self, mode: Mode, edge: usize, bind: Option<(u32, u32)>) -> String {
        let target = self.automaton.edges[edge].target;
        let plain = match mode {
            Mode::Moves => format!("m{target}"),
            Mode::Apply => format!("a{target}"),
            Mode::Reach { to, .. } => format!("r{target}_{to}"),
        };
        let op = &self.plan.ops[edge];
        let mut context: Vec<(u32, u32)> =
            self.known.iter().copied().filter(|&(slot, _)| !known::op_writes(self.plan, op, slot)).collect();
        context.extend(bind);
        context.retain(|&(slot, _)| self.live(mode, slot, target));
        context.sort_unstable();
        if context.is_empty() {
            if !self.known.is_empty() {
                // Called from each copy of an unrolled loop: inlined, as in the loop's one body.
                self.inlined.insert((mode, target));
            }
            return plain;
        }
        let key = (mode, target, context);
        if let Some(name) = self.specialised.get(&key) {
            return name.clone();
        }
        if self.specialised.len() >= SPECIALISED_LIMIT {
            return plain;
        }
        let name = key.2.iter().fold(plain, |name, (slot, symbol)| format!("{name}_k{slot}_{symbol}"));
        self.specialised.insert(key.clone(), name.clone());
        self.pending.push(key);
        name
    }

    /// Whether the loop of an `x = T(*)` edge is unrolled, each member continuing into functions
    /// specialised for it (its budget then spent).
    fn unrolls(&mut self, mode: Mode, edge: usize, slot: u32, members: usize) -> bool {
        let target = self.automaton.edges[edge].target;
        let stops = match mode {
            Mode::Moves | Mode::Apply => completes(&self.plan.ops[edge]),
            Mode::Reach { to, .. } => target == to,
        };
        if stops || members > UNROLL_MEMBERS || !self.live(mode, slot, target) {
            return false;
        }
        let plan = self.plan;
        let live = self.liveness[&(mode, slot)].clone();
        let (_, edges) = known::scope(plan, self.walk(mode), &live, slot, target);
        let cost = members * edges.max(1);
        let budget = if mode == Mode::Apply { &mut self.apply_unroll_budget } else { &mut self.unroll_budget };
        if cost > *budget {
            return false;
        }
        *budget -= cost;
        true
    }

    /// Whether every move-search path below an `x = T(*)` edge (`x` in `slot`) pushes `$$ x` as
    /// its next tag, with nothing on the way that can fail, write `x`, visit or complete a move:
    /// then a replayed move (`Search::replayed_next_tag`) can only match the member its next tag
    /// names, and skipping the others changes nothing but the work (their paths would fail at
    /// that tag). Cost: one walk over the nodes below the edge.
    fn next_tag_is_member(&self, edge: usize, slot: u32) -> bool {
        let (automaton, plan) = (self.automaton, self.plan);
        let mut seen = vec![false; automaton.nodes.len()];
        let mut stack = vec![automaton.edges[edge].target];
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut seen[node as usize], true) {
                continue;
            }
            if self.analysis.visit_in_moves[node as usize] {
                return false;
            }
            for below in automaton.nodes[node as usize].edges.clone() {
                let below = below as usize;
                match &plan.ops[below] {
                    PlanOp::TagExpr(PlanOperand::Place(place))
                        if place.in_state && place.steps.is_empty() && place.base == slot =>
                    {
                        continue;
                    }
                    PlanOp::Tag(_) | PlanOp::TagExpr(_) => return false,
                    op if completes(op) || known::op_writes(plan, op, slot) || self.edge_fallible_in_moves(below) => {
                        return false;
                    }
                    _ => stack.push(automaton.edges[below].target),
                }
            }
        }
        true
    }

    /// The one edge of `node` where a placement's chain may pass it: a node with a single edge,
    /// no visit and no scope in move searches (shared by [`Generator::placement`] and the
    /// counted chains).
    fn single_chain_edge(&self, node: u32) -> Option<usize> {
        let node = node as usize;
        let edges = self.automaton.nodes[node].edges.clone();
        (edges.len() == 1 && !self.analysis.visit_in_moves[node] && !self.analysis.opens_scope[node])
            .then_some(edges.start as usize)
    }

    /// A *placement* below an `x = T(*)` edge (`x` in `slot`): a chain of single-edge nodes,
    /// one-slot guards that cannot fail, then `$$ x` into a node whose one edge completes the move
    /// as a fused tag completion ([`Generator::fused_tag_completion`]; gomoku's
    /// `check(board[cell] == empty); $$ cell; player = keeper`). Returns the guard edges and the
    /// tag edge. A listing of tags only then stores one packed key per member whose guards hold
    /// (what the fused completion stores there), so the loop needs no call per member.
    fn placement(&self, edge: usize, slot: u32) -> Option<(Vec<usize>, usize)> {
        if !self.tags_bounded {
            return None;
        }
        let (automaton, plan) = (self.automaton, self.plan);
        let mut guards = Vec::new();
        let mut node = automaton.edges[edge].target;
        // A chain longer than the nodes would be a cycle of guards.
        for _ in 0..automaton.nodes.len() {
            let next = self.single_chain_edge(node)?;
            match &plan.ops[next] {
                PlanOp::Compare { transfer: PlanTransfer::Slot, .. } if !self.edge_fallible_in_moves(next) => {
                    guards.push(next);
                }
                PlanOp::TagExpr(PlanOperand::Place(place))
                    if place.in_state && place.steps.is_empty() && place.base == slot =>
                {
                    let completion = self.single_chain_edge(automaton.edges[next].target)?;
                    let fused = completes(&plan.ops[completion]) && !self.edge_fallible_in_moves(completion);
                    return fused.then_some((guards, next));
                }
                _ => return None,
            }
            node = automaton.edges[next].target;
        }
        None
    }

    /// A tag edge into a node whose one edge completes a move that cannot fail, as one block:
    /// the tag's value, then that completion edge's code ending in
    /// `Search::complete_unique_valid_tagged` (push, completion and pop in one call, so a
    /// listing of tags only stores the move's key directly). `None` when the edge does not fit
    /// (the plain push, call and pop are emitted). The tag is read before the completion edge
    /// writes anything, as the plain order reads it.
    fn fused_tag_completion(&mut self, mode: Mode, edge: usize) -> Option<String> {
        let completion = self.fusable_tag_completion(mode, edge)?;
        let value = match &self.plan.ops[edge] {
            PlanOp::Tag(symbol) => format!("{symbol}"),
            PlanOp::TagExpr(operand) => {
                let operand = operand.clone();
                format!("{} as u32", self.value(&operand))
            }
            _ => return None,
        };
        let tag = format!("tag{edge}");
        let depth = match self.analysis.tag_depths[self.automaton.edges[edge].source as usize] {
            depths::Depth::Fixed(depth) => Some(depth),
            _ => None,
        };
        self.fused_tag = Some((tag.clone(), depth));
        let block = self.edge(mode, completion, &BTreeMap::new(), &HashMap::new());
        // The completion's code consumed the tag unless its form never reaches `continue_to`.
        if self.fused_tag.take().is_some() {
            return None;
        }
        Some(format!("{{\nlet {tag}: u32 = {value};\n{block}}}\n"))
    }

    /// The completion edge a tag edge may be fused with ([`Generator::fused_tag_completion`]):
    /// the one edge of the tag's target, completing a move that cannot fail, with bounded tags
    /// and no visit or scope on the way.
    fn fusable_tag_completion(&self, mode: Mode, edge: usize) -> Option<usize> {
        if mode != Mode::Moves
            || !self.tags_bounded
            || !matches!(self.plan.ops[edge], PlanOp::Tag(_) | PlanOp::TagExpr(_))
        {
            return None;
        }
        let target = self.automaton.edges[edge].target as usize;
        let below = self.automaton.nodes[target].edges.clone();
        if below.len() != 1 || self.analysis.visit_in_moves[target] || self.analysis.opens_scope[target] {
            return None;
        }
        let completion = below.start as usize;
        (completes(&self.plan.ops[completion]) && !self.edge_fallible_in_moves(completion)).then_some(completion)
    }

    /// The *filter* of an `x = T(*)` loop (`x` in `slot`, the loop over `table`): the guards
    /// on the chain of single-edge nodes right below the loop, as one condition on the loop index
    /// `i`, or `None` when the chain has no guard. The chain may assign variables (one slot, no
    /// key, so it cannot fail) and skip; it ends at anything else, at a node that visits, counts
    /// steps or opens a scope, or where the search stops. Every path of a member fails its first
    /// false guard with nothing recorded on the way, so a member whose filter is false is skipped
    /// before its slot is written: only the work changes (draughts' and reversi's scans of every
    /// square for an own piece or an empty square: no store and restore per skipped square). The
    /// filter reads the member and the chain's assigned values as expressions, and a map read
    /// keyed by the member through an offset per loop index. Cost: one walk along the chain.
    ///
    /// Also returns where the loop's body may continue ([`FilterSkip`]): below the chain's last
    /// guard, with the chain's writes before it. A member that passed the filter passes every
    /// guard of the chain (the filter evaluated them on the values the chain would hold there:
    /// the member, the assigned expressions, every other slot unchanged), so the body writes the
    /// member and the chain's assignments (in order, each value the expression the filter read
    /// for it, saved and restored like any write) and continues below that guard instead of
    /// running the chain and testing the guards again (reversi's `board[cell] == empty` filter
    /// and guard; draughts' `piece = board[origin]` then `owns(me, piece) == 1`).
    fn member_filter(
        &mut self,
        mode: Mode,
        edge: usize,
        slot: u32,
        members: &[u32],
        table: &str,
    ) -> Option<MemberFilter> {
        let automaton = self.automaton;
        let start = automaton.edges[edge].target;
        let stops = match mode {
            Mode::Moves | Mode::Apply => completes(&self.plan.ops[edge]),
            Mode::Reach { to, .. } => start == to,
        };
        if stops || members.is_empty() {
            return None;
        }
        let chain: Vec<(u32, &'a PlanOp, bool)> = {
            let walk = self.walk(mode);
            let mut chain = Vec::new();
            let mut node = start;
            for _ in 0..automaton.nodes.len() {
                let steps = &walk[node as usize];
                let [step] = steps.as_slice() else { break };
                chain.push((node, step.op, step.stops));
                if step.stops {
                    break;
                }
                node = step.target;
            }
            chain
                .into_iter()
                .take_while(|&(node, _, _)| {
                    let node = node as usize;
                    match mode {
                        Mode::Moves | Mode::Apply => {
                            !self.analysis.visit_in_moves[node] && !self.analysis.opens_scope[node]
                        }
                        Mode::Reach { to, .. } => !self.reach[&to].visits[node] && !self.reach[&to].counted_steps[node],
                    }
                })
                .collect()
        };
        self.bound = vec![(slot, format!("{table}[i]"))];
        self.loop_members = Some((slot, members.to_vec()));
        let mut conditions = Vec::new();
        // The chain's writes so far (slot, the value the filter reads for it), and the node of
        // its last guard with the number of writes before it.
        let mut writes: Vec<(u32, String)> = Vec::new();
        // The chain's assignments so far, as operands, for the byte tests.
        let mut assigned: Vec<(u32, &'a PlanOperand)> = Vec::new();
        let mut last_guard: Option<(u32, usize)> = None;
        for (node, op, stops) in chain {
            match op {
                PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
                    let (a, b) = (self.value(lhs), self.value(rhs));
                    let test = self
                        .byte_test(lhs, rhs, *equal, slot, members, &assigned)
                        .or_else(|| self.slot_selected_byte_test(lhs, rhs, *equal, slot, members, &assigned));
                    conditions.push((format!("{a} {} {b}", if *equal { "==" } else { "!=" }), test));
                    last_guard = Some((node, writes.len()));
                    if stops {
                        break;
                    }
                }
                _ if stops => break,
                PlanOp::Skip => {}
                PlanOp::Tag(_) | PlanOp::TagExpr(_) if mode != Mode::Moves => {}
                PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } if graph::fixed_slot(lhs).is_some() => {
                    // The offset register's value is its offset (`offset_keys.rs`).
                    let value = format!("({})", self.register_value(lhs.base, rhs));
                    if lhs.base == slot {
                        // The loop variable no longer holds the member: a map read keyed by it
                        // goes through its offsets, not the member's per loop index.
                        self.loop_members = None;
                    }
                    self.bound.push((lhs.base, value.clone()));
                    writes.push((lhs.base, value));
                    assigned.push((lhs.base, rhs));
                }
                _ => break,
            }
        }
        self.bound.clear();
        self.loop_members = None;
        if conditions.is_empty() {
            return None;
        }
        // The chain's nodes have one walked edge each.
        let skip = last_guard.and_then(|(node, count)| {
            let edge = self.walked_edges(mode, node).first().copied()?;
            writes.truncate(count);
            Some(FilterSkip { edge, writes })
        });
        Some(MemberFilter { conditions, skip })
    }

    /// The [`ByteTest`] of a filter guard `lhs == rhs` (or `!=`), if it is one: one side a
    /// literal, the other a function of the member's map entry ([`Generator::member_entry`]).
    /// `assigned` are the chain's assignments before the guard.
    fn byte_test(
        &self,
        lhs: &PlanOperand,
        rhs: &PlanOperand,
        equal: bool,
        loop_slot: u32,
        members: &[u32],
        assigned: &[(u32, &PlanOperand)],
    ) -> Option<ByteTest> {
        if self.sym != "u8" {
            return None;
        }
        let (literal, read) = match (lhs, rhs) {
            (PlanOperand::Literal(symbol), read) | (read, PlanOperand::Literal(symbol)) => (*symbol, read),
            _ => return None,
        };
        let (first_slot, function) = self.member_entry(read, loop_slot, members, assigned)?;
        // What the entries can hold: their variable's value set.
        let mut held = self.values.slot_members(first_slot);
        held.sort_unstable();
        let passes = |symbol: u32| (function.get(symbol as usize) == Some(&literal)) == equal;
        let (passing, failing): (Vec<u32>, Vec<u32>) = held.iter().partition(|&&symbol| passes(symbol));
        if held.iter().all(|&symbol| symbol < BYTE_RANGE_LIMIT) {
            let passing_ranges = byte_ranges(&held, passes);
            let failing_ranges = byte_ranges(&held, |symbol| !passes(symbol));
            let (symbols, complement, ranges) = if passing_ranges.len() <= failing_ranges.len() {
                (passing, false, passing_ranges)
            } else {
                (failing, true, failing_ranges)
            };
            return (ranges.len() <= BYTE_TEST_SYMBOLS).then_some(ByteTest {
                first_slot,
                symbols,
                complement,
                ranges: Some(ranges),
                selector: None,
            });
        }
        let (symbols, complement) = if passing.len() <= failing.len() { (passing, false) } else { (failing, true) };
        (symbols.len() <= BYTE_TEST_SYMBOLS).then_some(ByteTest {
            first_slot,
            symbols,
            complement,
            ranges: None,
            selector: None,
        })
    }

    /// A read that is a function of the member's entry in a state map: `m[x]` (`x` the loop
    /// variable still holding the member, the members' entries in consecutive slots), a constant
    /// read whose keys are literals but one such function (`owns[black][m[x]]`), or a variable the
    /// chain assigned one. Returns the first member's slot and the function, per symbol.
    fn member_entry(
        &self,
        read: &PlanOperand,
        loop_slot: u32,
        members: &[u32],
        assigned: &[(u32, &PlanOperand)],
    ) -> Option<(u32, Vec<u32>)> {
        let PlanOperand::Place(place) = read else { return None };
        let symbols = self.automaton.symbols.len() as u32;
        if let Some(slot) = graph::fixed_slot(place) {
            // A variable the chain assigned: its value as assigned, read before that assignment.
            let at = assigned.iter().rposition(|&(written, _)| written == slot)?;
            return self.member_entry(assigned[at].1, loop_slot, members, &assigned[..at]);
        }
        if place.in_state {
            let [step] = place.steps.as_slice() else { return None };
            let PlanOperand::Place(key) = &step.key else { return None };
            if graph::fixed_slot(key) != Some(loop_slot) || assigned.iter().any(|&(written, _)| written == loop_slot) {
                return None;
            }
            let offsets: Vec<u32> =
                members.iter().map(|&m| step.offsets.get(m as usize).copied()).collect::<Option<_>>()?;
            let first = *offsets.first()?;
            if offsets.iter().enumerate().any(|(i, &offset)| offset != first + i as u32) {
                return None;
            }
            return Some((place.base + first, (0..symbols).collect()));
        }
        let mut base = place.base;
        let mut inner = None;
        for step in &place.steps {
            match &step.key {
                PlanOperand::Literal(symbol) => base += step.offsets.get(*symbol as usize)?,
                key if inner.is_none() => inner = Some((step, self.member_entry(key, loop_slot, members, assigned)?)),
                _ => return None,
            }
        }
        let (step, (first_slot, function)) = inner?;
        let composed = function
            .iter()
            .map(|&value| {
                let offset = step.offsets.get(value as usize)?;
                self.plan.const_values.get((base + offset) as usize).copied()
            })
            .collect::<Option<_>>()?;
        Some((first_slot, composed))
    }

    /// A member loop over `count` members whose filter has byte tests, scanning eight members at
    /// a time: per word of eight members, a mask with each member's byte's high bit set where
    /// every byte test holds, then only those members (lowest first, so in loop order) run the
    /// rest of the filter and the body. Members failing a byte test fail the filter, so only the
    /// work changes. `range` bounds the members (a replayed move's one member). Up to 64
    /// members the words' masks are gathered into one and looped over once ([`member_bits`]).
    /// `None` when no guard has a byte test or a word would read past the state.
    fn byte_scan(
        &mut self,
        filter: &MemberFilter,
        count: usize,
        range: Option<(&str, &str)>,
    ) -> Option<(String, String)> {
        let tests: Vec<&ByteTest> = filter.conditions.iter().filter_map(|(_, test)| test.as_ref()).collect();
        let words = count.div_ceil(8);
        if tests.is_empty() || tests.iter().any(|test| test.first_slot as usize + 8 * words > self.plan.state_len) {
            return None;
        }
        // Only a selective scan pays: see [`BYTE_SCAN_MAX_PASSING`].
        let initial = &self.plan.initial_values;
        let passing = (0..count)
            .filter(|&i| {
                tests.iter().all(|test| {
                    let byte = initial[test.first_slot as usize + i];
                    test.symbols.contains(&byte) != test.complement
                })
            })
            .count();
        if passing * BYTE_SCAN_MAX_PASSING.1 > count * BYTE_SCAN_MAX_PASSING.0 {
            return None;
        }
        // The other guards still run per member that passed the byte tests.
        let rest: Vec<&str> =
            filter.conditions.iter().filter(|(_, test)| test.is_none()).map(|(c, _)| c.as_str()).collect();
        let check =
            if rest.is_empty() { String::new() } else { format!("if !({}) {{ continue; }}\n", rest.join(" && ")) };
        // A scan of more than half a 64-slot window compares sixteen members at once (lane_scans.rs).
        if count > lane_scans::LANE_SCAN_MIN_MEMBERS {
            if let Some((head, tail)) = lane_scans::lane_scan(&tests, count, self.plan.state_len, range) {
                return Some((format!("{head}{check}"), tail));
            }
        }
        self.uses_byte_scan = true;
        let masks: Vec<String> = tests.iter().map(|test| byte_test_mask(test)).collect();
        if let Some((head, tail)) = member_bits::one_word_scan(&masks.join(" & "), count, range) {
            return Some((format!("{head}{check}"), tail));
        }
        let (chunks, bounds) = match range {
            Some((first, last)) => (
                format!("{first} / 8..({last} + 7) / 8"),
                format!("if i < {first} {{ continue; }}\nif i >= {last} {{ break; }}\n"),
            ),
            None => (format!("0..{words}"), format!("if i >= {count} {{ break; }}\n")),
        };
        let head = format!(
            "for chunk in {chunks} {{\nlet mut mask: u64 = {};\nwhile mask != 0 {{\n\
             let i = 8 * chunk + (mask.trailing_zeros() / 8) as usize;\nmask &= mask - 1;\n{bounds}",
            masks.join(" & ")
        );
        Some((format!("{head}{check}"), "}\n}\n".to_string()))
    }

    /// A member loop's body behind its filter (see [`Generator::member_filter`]): the chain's
    /// writes up to its last guard, then the search continues below that guard. `undo` restores
    /// the loop variable (an early return of a reachability check runs it after the chain's).
    fn filtered_body(&mut self, mode: Mode, loop_slot: u32, skip: &FilterSkip, undo: &str) -> String {
        let sym = self.sym;
        let mut write = String::new();
        let mut restores = Vec::new();
        let writes_before = self.register_writes.len();
        for (k, (slot, value)) in skip.writes.iter().enumerate() {
            if self.in_registers.contains(slot) {
                // A register slot: the callee takes the new value; the state is not written.
                writeln!(write, "let new{k}: {sym} = {value};").expect("writing to a String");
                self.register_writes.push((*slot, format!("new{k}")));
                continue;
            }
            writeln!(write, "let kept{k}: {sym} = v[{slot}]; let new{k}: {sym} = {value}; v[{slot}] = new{k};")
                .expect("writing to a String");
            restores.insert(0, format!("v[{slot}] = kept{k};"));
        }
        let restore = restores.join(" ");
        let early = if restore.is_empty() { undo.to_string() } else { format!("{restore} {undo}") };
        // A value the function is specialised for no longer holds once the loop or the chain
        // overwrote its slot: the callee below the chain must not be specialised for it.
        let known = self.known.clone();
        self.known.retain(|&(known_slot, _)| {
            known_slot != loop_slot && !skip.writes.iter().any(|&(slot, _)| slot == known_slot)
        });
        let cont = self.continue_to(mode, skip.edge, &early, None);
        self.register_writes.truncate(writes_before);
        self.known = known;
        if write.is_empty() {
            return cont;
        }
        format!("{write}{cont}{restore}\n")
    }

    /// The register arguments of a pure check's call from the function being written: each
    /// register's value there, or the new value the current edge writes into it.
    fn register_args(&self) -> String {
        let arg = |slot: u32| match self.register_writes.iter().rev().find(|(written, _)| *written == slot) {
            Some((_, value)) => format!(", {value}"),
            None => format!(", r{slot}"),
        };
        self.in_registers.iter().map(|&slot| arg(slot)).collect()
    }

    /// Per pure check, its register slots ([`graph::register_slots`]). A ring of the check that
    /// steps one of them keeps it in a local register too ([`Generator::ring_walk`]).
    fn register_slots(&mut self) -> BTreeMap<u32, Vec<u32>> {
        let mut registers = BTreeMap::new();
        let targets: Vec<u32> = self.reach.iter().filter(|(_, target)| target.pure).map(|(&to, _)| to).collect();
        for to in targets {
            let mode = Mode::Reach { to, pure: true };
            let region = self.reach[&to].region.clone();
            let nodes: Vec<u32> = (0..region.len() as u32).filter(|&node| region[node as usize]).collect();
            let edges: Vec<usize> = nodes.iter().flat_map(|&node| self.walked_edges(mode, node)).collect();
            let slots = graph::register_slots(self.plan, &edges);
            if let Some((slot, offsets)) = slots.iter().find_map(|&slot| self.offset_register(&edges, slot)) {
                let per_symbol: Vec<u64> = offsets.iter().map(|&o| o as u64).collect();
                let sym = self.sym;
                let table = self.symbol_table("TAB", sym, &per_symbol, 0);
                self.offset_registers.insert(to, (slot, offsets, table));
            }
            if !slots.is_empty() {
                registers.insert(to, slots);
            }
        }
        registers
    }

    /// `slot`'s offsets when a pure check walking `edges` can hold it as an offset register
    /// ([`graph::offset_register_keys`]): its offsets fit the symbol type (the register's), and
    /// every cursor step `slot = next[slot]` is a function of the offset
    /// ([`graph::step_on_offsets`]).
    fn offset_register(&self, edges: &[usize], slot: u32) -> Option<(u32, Vec<u32>)> {
        let offsets = graph::offset_register_keys(self.plan, edges, slot)?;
        if offsets.iter().any(|&offset| u64::from(offset) >> slot_bits(self.sym) != 0) {
            return None;
        }
        for &edge in edges {
            if let PlanOp::Assign { lhs, rhs: PlanOperand::Place(place), .. } = &self.plan.ops[edge] {
                let step = graph::constant_map_key(place).map(|(_, step)| step);
                if graph::fixed_slot(lhs) == Some(slot) && step.is_some_and(|step| graph::is_slot_read(&step.key, slot))
                {
                    graph::step_on_offsets(&offsets, 0, &self.constant_map(place))?;
                }
                // A multi-key write's composed table stays small (`offset_keys.rs`).
                if graph::fixed_slot(lhs) == Some(slot)
                    && step.is_none()
                    && offset_keys::composed_span(place) > COMPOSED_TABLE_LIMIT
                {
                    return None;
                }
            }
        }
        Some((slot, offsets))
    }

    /// The values per symbol of a constant map with one key (`c[k]`, an offset register's
    /// write, [`graph::offset_register_keys`]).
    fn constant_map(&self, place: &PlanPlace) -> Vec<u32> {
        let (base, step) = graph::constant_map_key(place).expect("offset_register_keys checked the write");
        step.offsets.iter().map(|&offset| self.plan.const_values[(base + offset) as usize]).collect()
    }

    /// The value a register slot takes from `rhs`: `rhs` itself, or for the offset register the
    /// offset of its symbol, one table composed at generation time (a cursor step `r = next[r]`
    /// becomes `r = NEXT[r]` on offsets, [`graph::step_on_offsets`]).
    fn register_value(&mut self, slot: u32, rhs: &PlanOperand) -> String {
        let Some((offset_slot, offsets)) = self.in_offset.clone() else { return self.value(rhs) };
        if offset_slot != slot {
            return self.value(rhs);
        }
        let sym = self.sym;
        match rhs {
            PlanOperand::Literal(symbol) => format!("{}", offsets[*symbol as usize]),
            PlanOperand::Place(place) => {
                // Keys a specialised copy knows fold first; several computed keys left read one
                // composed table over the constant block (`offset_keys.rs`).
                let place = &offset_keys::fold_known(place, |key| match key {
                    PlanOperand::Place(key) if graph::fixed_slot(key) == Some(slot) => None,
                    _ => self.known_key(key),
                });
                if graph::constant_map_key(place).is_none() {
                    return self.composed_register_write(&offsets, place);
                }
                let next = self.constant_map(place);
                let key = &graph::constant_map_key(place).expect("offset_register_keys checked the write").1.key;
                let per_key: Vec<u64> = if graph::is_slot_read(key, slot) {
                    graph::step_on_offsets(&offsets, 0, &next).expect("offset_register checked the step")
                } else {
                    next.iter().map(|&symbol| offsets.get(symbol as usize).copied().unwrap_or(0) as u64).collect()
                };
                let table = self.symbol_table("TAB", sym, &per_key, 0);
                let index =
                    if graph::is_slot_read(key, slot) { format!("(r{slot} as usize)") } else { self.index(key) };
                format!("{table}[{index}]")
            }
        }
    }

    /// A write of the offset register from a constant map with several computed keys:
    /// `OTAB[Σ offsets of the keys]`, the register key's term the register itself
    /// ([`offset_keys::composed_offsets`]).
    fn composed_register_write(&mut self, offsets: &[u32], place: &PlanPlace) -> String {
        let mut base = place.base as usize;
        let mut dynamic = Vec::new();
        for step in &place.steps {
            match &step.key {
                PlanOperand::Literal(symbol) => base += step.offsets[*symbol as usize] as usize,
                PlanOperand::Place(_) => dynamic.push(step),
            }
        }
        let span = offset_keys::composed_span(place);
        let values = offset_keys::composed_offsets(self.plan, offsets, base, span);
        let sym = self.sym;
        let table = self.table("OTAB", sym, values);
        let mut index = String::from("0");
        self.offset_terms(&dynamic, &mut index);
        format!("{table}[{index}]")
    }

    fn reach_call(&self, from: u32, to: u32) -> String {
        if from == to {
            return "true".into();
        }
        let target = &self.reach[&to];
        if !target.region[from as usize] {
            // `from` has no path into `to`.
            return "false".into();
        }
        if target.pure {
            // The check starts with its register slots' values in the state.
            let offset = self.offset_registers.get(&to);
            let arg = |slot: &u32| match offset {
                Some((offset_slot, _, table)) if offset_slot == slot => format!(", {table}[(v[{slot}] as usize)]"),
                _ => format!(", v[{slot}]"),
            };
            let args: String = self.registers.get(&to).into_iter().flatten().map(arg).collect();
            return self.flank_scan_call(from, to, format!("r{from}_{to}(v{args})"));
        }
        format!("{{ cx.enter_reach({from}, {to})?; let found = r{from}_{to}(v, cx); cx.leave_reach(); found? }}")
    }

    /// One edge as a block of statements.
    fn edge(
        &mut self,
        mode: Mode,
        edge: usize,
        memoised: &BTreeMap<(u32, u32), String>,
        hoisted: &HashMap<usize, String>,
    ) -> String {
        let op = self.plan.ops[edge].clone();
        if matches!(op, PlanOp::Tag(_) | PlanOp::TagExpr(_)) {
            if let Some(block) = self.fused_tag_completion(mode, edge) {
                return block;
            }
        }
        let sym = self.sym;
        let simple = |this: &mut Self, pre: &str, guard: Option<String>, undo: &str| -> String {
            let cont = this.continue_to(mode, edge, undo, None);
            match guard {
                None => format!("{{\n{pre}{cont}{undo}\n}}\n"),
                Some(guard) => format!("{{\n{pre}if {guard} {{\n{cont}}}\n{undo}\n}}\n"),
            }
        };
        match op {
            PlanOp::Skip => simple(self, "", None, ""),
            PlanOp::Tag(_) | PlanOp::TagExpr(_) if mode != Mode::Moves => simple(self, "", None, ""),
            PlanOp::Tag(symbol) => {
                let target = self.automaton.edges[edge].target;
                let push = if self.tags_bounded {
                    format!("cx.push_tag_bounded({symbol})")
                } else {
                    self.emitted.unbounded_tags = true;
                    format!("cx.push_tag({symbol}, {target})?")
                };
                simple(self, "", Some(push), "cx.pop_tag();")
            }
            PlanOp::TagExpr(operand) => {
                let target = self.automaton.edges[edge].target;
                let value = self.value(&operand);
                let push = if self.tags_bounded {
                    format!("cx.push_tag_bounded({value} as u32)")
                } else {
                    self.emitted.unbounded_tags = true;
                    format!("cx.push_tag({value} as u32, {target})?")
                };
                simple(self, "", Some(push), "cx.pop_tag();")
            }
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. }
                if graph::fixed_slot(&lhs).is_some_and(|slot| self.in_registers.contains(&slot)) =>
            {
                // A register slot: the callee takes the new value; the state is not written.
                let value = self.register_value(lhs.base, &rhs);
                self.register_writes.push((lhs.base, "x".to_string()));
                let cont = self.continue_to(mode, edge, "", None);
                self.register_writes.pop();
                format!("{{\nlet x: {sym} = {value};\n{cont}}}\n")
            }
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                let value = self.value(&rhs);
                // A keeper's cell write that mask checks read back as words (word_stores.rs),
                // its slot by subtraction where it can be (affine_cells.rs).
                let word_base =
                    (mode == Mode::Apply && !lhs.steps.is_empty()).then(|| self.word_store_base(lhs.base)).flatten();
                let affine = word_base.and_then(|_| self.affine_cell_target(&lhs));
                let target = match affine {
                    Some(target) => target,
                    None => self.target(&lhs, edge),
                };
                let store = match word_base {
                    Some(base) => {
                        format!("{}::<{base}>(v, slot, x);", word_stores::WORD_STORE)
                    }
                    None => "v[slot] = x;".to_string(),
                };
                let pre = format!("let x: {sym} = {value};\n{target}let old = v[slot]; {store}\n");
                let block = simple(self, &pre, None, "v[slot] = old;");
                // A completion with a delta pushes it in a delta listing, before writing: no
                // write and restore of `player` per listed move. An invalid player is left to
                // the completion below, which reports it as without deltas.
                let delta =
                    self.completes_one_fixed_slot(mode, edge).and_then(|slot| self.delta_word(edge, Some((slot, "x"))));
                match delta {
                    Some(word) => {
                        let valid = if self.edge_fallible_in_moves(edge) { " && VALID_PLAYER[x as usize]" } else { "" };
                        format!(
                            "{{\nlet x: {sym} = {value};\nif cx.lists_deltas(){valid} {{ cx.push_delta({word}); }} else {block}}}\n"
                        )
                    }
                    None => block,
                }
            }
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Block(size), .. } => {
                let PlanOperand::Place(source) = &rhs else {
                    return simple(self, "", None, "");
                };
                let (from, buffer) = self.block_start(source);
                let target = self.target(&lhs, edge);
                let pre = format!(
                    "let src = {from}; let new: [{sym}; {size}] = core::array::from_fn(|i| {buffer}[src + i]);\n\
                     {target}let old: [{sym}; {size}] = core::array::from_fn(|i| v[slot + i]);\n\
                     v[slot..slot + {size}].copy_from_slice(&new);\n"
                );
                simple(self, &pre, None, &format!("v[slot..slot + {size}].copy_from_slice(&old);"))
            }
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Pairs(pairs), .. } => {
                let PlanOperand::Place(source) = &rhs else {
                    return simple(self, "", None, "");
                };
                let count = pairs.len();
                let flat: Vec<u64> = pairs.iter().flat_map(|&(a, b)| [a as u64, b as u64]).collect();
                let table = self.table("PAIRS", "u32", flat);
                let (from, buffer) = self.block_start(source);
                let target = self.target(&lhs, edge);
                let pre = format!(
                    "let src = {from};\n\
                     let new: [{sym}; {count}] = core::array::from_fn(|i| {buffer}[src + {table}[2 * i + 1] as usize]);\n\
                     {target}let old: [{sym}; {count}] = core::array::from_fn(|i| v[slot + {table}[2 * i] as usize]);\n\
                     for i in 0..{count} {{ v[slot + {table}[2 * i] as usize] = new[i]; }}\n"
                );
                let undo = format!("for i in 0..{count} {{ v[slot + {table}[2 * i] as usize] = old[i]; }}");
                simple(self, &pre, None, &undo)
            }
            PlanOp::AssignAny { lhs, members, .. }
                if graph::fixed_slot(&lhs).is_some_and(|slot| self.unrolls(mode, edge, slot, members.len())) =>
            {
                // Unrolled: each member continues into functions specialised for its value.
                let slot = lhs.base;
                if self.in_registers.contains(&slot) {
                    // A register slot: each callee takes its member; the state is not written.
                    let mut code = String::new();
                    for &member in &members {
                        self.register_writes.push((slot, member.to_string()));
                        code.push_str(&self.continue_to(mode, edge, "", Some((slot, member))));
                        self.register_writes.pop();
                    }
                    return format!(
                        "{{
{code}}}
"
                    );
                }
                let mut code = format!("{{\nlet slot = {slot}usize;\nlet old = v[slot];\n");
                for &member in &members {
                    let cont = self.continue_to(mode, edge, "v[slot] = old;", Some((slot, member)));
                    write!(code, "v[slot] = {member};\n{cont}").expect("writing to a String");
                }
                code.push_str("v[slot] = old;\n}\n");
                code
            }
            PlanOp::AssignAny { lhs, members, .. } => {
                let count = members.len();
                let table = self.table("MEMBERS", sym, members.iter().map(|&m| m as u64).collect());
                // Only long loops: a short one with a constant trip count is unrolled by the
                // compiler, and the range's set-up then costs more than replays save (pentago's
                // quadrant and spin loops: +12 % instructions per playout).
                let tagged = mode == Mode::Moves
                    && count > REPLAY_RANGE_MIN_MEMBERS
                    && graph::fixed_slot(&lhs).is_some_and(|slot| self.next_tag_is_member(edge, slot));
                let target = self.target(&lhs, edge);
                let member_filter = graph::fixed_slot(&lhs)
                    .and_then(|slot| self.member_filter(mode, edge, slot, &members, &table))
                    .unwrap_or_default();
                let filter = if member_filter.conditions.is_empty() {
                    String::new()
                } else {
                    let conditions: Vec<&str> = member_filter.conditions.iter().map(|(c, _)| c.as_str()).collect();
                    format!("if !({}) {{ continue; }}\n", conditions.join(" && "))
                };
                if !tagged && self.in_registers.contains(&lhs.base) {
                    // A register slot: the body's callee takes the member; the state is not
                    // written.
                    self.register_writes.push((lhs.base, "member".to_string()));
                    let filtered = match &member_filter.skip {
                        Some(skip) => self.filtered_body(mode, lhs.base, skip, ""),
                        None => self.continue_to(mode, edge, "", None),
                    };
                    self.register_writes.pop();
                    let member = format!("let member: {sym} = {table}[i];\n");
                    if let Some((head, tail)) = self.byte_scan(&member_filter, count, None) {
                        return format!("{{\n{head}{member}{filtered}{tail}}}\n");
                    }
                    return format!("{{\nfor i in 0..{count} {{\n{filter}{member}{filtered}}}\n}}\n");
                }
                let cont = self.continue_to(mode, edge, "v[slot] = old;", None);
                // Behind the filter, the body continues below the guards the filter tested.
                let filtered = match &member_filter.skip {
                    Some(skip) => self.filtered_body(mode, lhs.base, skip, "v[slot] = old;"),
                    None => cont.clone(),
                };
                if !tagged {
                    if let Some((head, tail)) = self.byte_scan(&member_filter, count, None) {
                        return format!(
                            "{{\n{target}let old = v[slot];\n{head}v[slot] = {table}[i];\n{filtered}{tail}v[slot] = old;\n}}\n"
                        );
                    }
                    return format!(
                        "{{\n{target}let old = v[slot];\nfor i in 0..{count} {{\n{filter}v[slot] = {table}[i];\n{filtered}}}\nv[slot] = old;\n}}\n"
                    );
                }
                // A replayed move names the member in its next tag: only that one can match. The
                // loop keeps one body (one call site, so the callee stays inlined) over a range.
                self.emitted.replay_skips_to_member = true;
                let mut index = vec![count as u64; self.automaton.symbols.len()];
                for (i, &member) in members.iter().enumerate() {
                    index[member as usize] = i as u64;
                }
                let element = if count < 1 << 16 { "u16" } else { "u32" };
                let index = self.symbol_table("MEMBER_INDEX", element, &index, count as u64);
                let bounds = format!(
                    "let (first, last) = match cx.replayed_next_tag() {{\n\
                     None => (0, {count}),\n\
                     Some(Some(tag)) => match {index}.get(tag as usize) {{ Some(&i) => (i as usize, (i as usize + 1).min({count})), None => (0, 0) }},\n\
                     Some(None) => (0, 0),\n}};\n"
                );
                let range = |filter: &str, cont: &str| {
                    format!("{bounds}for i in first..last {{\n{filter}v[slot] = {table}[i];\n{cont}}}\n")
                };
                let plain = match self.byte_scan(&member_filter, count, Some(("first", "last"))) {
                    Some((head, tail)) => format!(
                        "{{\n{target}let old = v[slot];\n{bounds}{head}v[slot] = {table}[i];\n{filtered}{tail}v[slot] = old;\n}}\n"
                    ),
                    None => format!("{{\n{target}let old = v[slot];\n{}v[slot] = old;\n}}\n", range(&filter, &filtered)),
                };
                let Some((guards, tag_edge)) = graph::fixed_slot(&lhs).and_then(|slot| self.placement(edge, slot))
                else {
                    return plain;
                };
                let PlanOp::TagExpr(tag) = self.plan.ops[tag_edge].clone() else { return plain };
                // Moves are listed by the tag listing below, so the range loop mostly replays one
                // picked, already legal member: a filter there is a test that never skips (gomoku
                // +0.2 % instructions per playout with it).
                let range = range("", &cont);
                // A listing of tags only: one packed key per member whose guards hold, the moves
                // (and their order) the fused completions below would store. The guards and the
                // tag read the member as its table entry and a map entry keyed by it at its
                // offset per loop index, as a member filter does, so the loop writes nothing.
                let slot = lhs.base;
                self.bound = vec![(slot, format!("{table}[i]"))];
                self.loop_members = Some((slot, members.clone()));
                let mut conditions = Vec::new();
                for guard in guards {
                    let PlanOp::Compare { lhs, rhs, equal, .. } = self.plan.ops[guard].clone() else { continue };
                    let (a, b) = (self.value(&lhs), self.value(&rhs));
                    conditions.push(format!("{a} {} {b}", if equal { "==" } else { "!=" }));
                }
                let condition = if conditions.is_empty() { "true".to_string() } else { conditions.join(" && ") };
                let tag = self.value(&tag);
                self.bound.clear();
                self.loop_members = None;
                format!(
                    "{{\n{target}let old = v[slot];\nif cx.lists_single_tags() {{\n\
                     for i in 0..{count} {{\nif {condition} {{ cx.push_single_tag({tag} as u32); }}\n}}\n\
                     }} else {{\n{range}}}\nv[slot] = old;\n}}\n"
                )
            }
            PlanOp::Compare { lhs, rhs, transfer, equal } => {
                let op = if equal { "==" } else { "!=" };
                let one_slot = matches!(transfer, PlanTransfer::Slot);
                let guard = match transfer {
                    PlanTransfer::Slot if hoisted.contains_key(&edge) => hoisted[&edge].clone(),
                    PlanTransfer::Slot => {
                        let (a, b) = (self.value(&lhs), self.value(&rhs));
                        format!("{a} {op} {b}")
                    }
                    PlanTransfer::Block(size) => {
                        let (PlanOperand::Place(a), PlanOperand::Place(b)) = (&lhs, &rhs) else {
                            return simple(self, "", None, "");
                        };
                        let ((a, a_buffer), (b, b_buffer)) = (self.block_start(a), self.block_start(b));
                        let not = if equal { "" } else { "!" };
                        format!("{not}{{ let (a, b) = ({a}, {b}); (0..{size}).all(|i| {a_buffer}[a + i] == {b_buffer}[b + i]) }}")
                    }
                    PlanTransfer::Pairs(pairs) => {
                        let (PlanOperand::Place(a), PlanOperand::Place(b)) = (&lhs, &rhs) else {
                            return simple(self, "", None, "");
                        };
                        let count = pairs.len();
                        let flat: Vec<u64> = pairs.iter().flat_map(|&(a, b)| [a as u64, b as u64]).collect();
                        let table = self.table("PAIRS", "u32", flat);
                        let ((a, a_buffer), (b, b_buffer)) = (self.block_start(a), self.block_start(b));
                        let not = if equal { "" } else { "!" };
                        format!(
                            "{not}{{ let (a, b) = ({a}, {b}); (0..{count}).all(|i| {a_buffer}[a + {table}[2 * i] as usize] == {b_buffer}[b + {table}[2 * i + 1] as usize]) }}"
                        )
                    }
                };
                if one_slot {
                    if let Some(code) = self.guarded_push(mode, edge, &guard) {
                        return code;
                    }
                }
                simple(self, "", Some(guard), "")
            }
            PlanOp::Reach { from, to, negated } => {
                let result = match memoised.get(&(from, to)) {
                    Some(memo) => format!(
                        "(match {memo} {{ Some(found) => found, None => {{ let found = {}; {memo} = Some(found); found }} }})",
                        self.reach_call(from, to)
                    ),
                    None => self.reach_call(from, to),
                };
                let not = if negated { "!" } else { "" };
                simple(self, "", Some(format!("{not}{result}")), "")
            }
        }
    }

    /// The reachability checks that two or more sibling edges of `node` make, with the name of
    /// the variable holding their one result (every sibling edge starts from the same state).
    fn memoised_checks(&self, node: u32) -> BTreeMap<(u32, u32), String> {
        let mut counts: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        for edge in self.automaton.nodes[node as usize].edges.clone() {
            if let Label::Reach { from, to, .. } = &self.automaton.edges[edge as usize].label {
                if from != to {
                    *counts.entry((*from, *to)).or_insert(0) += 1;
                }
            }
        }
        counts
            .into_iter()
            .filter(|(_, count)| *count > 1)
            .map(|((from, to), _)| ((from, to), format!("reach_{from}_{to}")))
            .collect()
    }

    /// The out-edges of `node` the search of `mode` follows, in declaration order (a check does
    /// not follow edges leaving its region: they cannot lead into its target).
    fn walked_edges(&self, mode: Mode, node: u32) -> Vec<usize> {
        self.automaton.nodes[node as usize]
            .edges
            .clone()
            .map(|edge| edge as usize)
            .filter(|&edge| match mode {
                Mode::Reach { to, .. } => {
                    let target = self.automaton.edges[edge].target;
                    target == to || self.reach[&to].region[target as usize]
                }
                Mode::Moves | Mode::Apply => true,
            })
            .collect()
    }

    /// The ring `node`'s function walks as a loop in `mode` (computed for the mode on first need).
    fn ring(&mut self, mode: Mode, node: u32) -> Option<loops::Ring> {
        // An applied keeper move's search is acyclic (`apply_starts`).
        if mode == Mode::Apply {
            return None;
        }
        if !self.rings.contains_key(&mode) {
            let (automaton, plan) = (self.automaton, self.plan);
            let count = automaton.nodes.len();
            let has_function = |node: usize| match mode {
                Mode::Moves | Mode::Apply => self.analysis.in_moves[node],
                Mode::Reach { to, .. } => self.reach[&to].region[node],
            };
            let walked: Vec<Vec<usize>> = (0..count)
                .map(|node| if has_function(node) { self.walked_edges(mode, node as u32) } else { Vec::new() })
                .collect();
            let (keeps, walker): (Vec<bool>, loops::Walker) = match mode {
                Mode::Moves | Mode::Apply => (
                    (0..count).map(|n| self.analysis.visit_in_moves[n] || self.analysis.opens_scope[n]).collect(),
                    loops::Walker::Moves,
                ),
                Mode::Reach { to, pure } => {
                    let target = &self.reach[&to];
                    let keeps = (0..count).map(|n| target.visits[n] || target.counted_steps[n]).collect();
                    (keeps, if pure { loops::Walker::PureCheck } else { loops::Walker::Check })
                }
            };
            let enters = |edge: usize| match mode {
                Mode::Moves | Mode::Apply => !completes(&plan.ops[edge]),
                Mode::Reach { to, .. } => automaton.edges[edge].target != to,
            };
            let rings = loops::rings(automaton, plan, &walked, &enters, &keeps, walker);
            self.rings.insert(mode, rings);
        }
        self.rings[&mode][node as usize].clone()
    }

    /// The body of a function walking `ring` as a loop (see [`loops`]): the ring's slots saved,
    /// then per node around the ring its exits (their usual blocks) and its ring edge (a guard
    /// that ends the walk, or a write without undo), the slots restored when the walk ends.
    ///
    /// A slot the ring writes that is a register of the pure check (`r<slot>`, an argument) is
    /// stepped in a mutable local of that name instead: nothing is saved, stored or restored
    /// (the state never held the walk's value), and the exits' calls pass the local on. Exact
    /// for the reason register slots are ([`graph::register_slots`]): no read in the check
    /// reaches the slot but through the register.
    fn ring_walk(&mut self, mode: Mode, ring: &loops::Ring) -> String {
        let sym = self.sym;
        let counting = self.counting_ring(mode, ring);
        let mut code = String::new();
        let (in_registers, in_state): (Vec<u32>, Vec<u32>) =
            ring.written.iter().partition(|slot| self.in_registers.contains(slot));
        for slot in &in_registers {
            writeln!(code, "let mut r{slot}: {sym} = r{slot};").expect("writing to a String");
        }
        for slot in &in_state {
            writeln!(code, "let w{slot}: {sym} = v[{slot}];").expect("writing to a String");
        }
        let restore: String = in_state.iter().map(|slot| format!("v[{slot}] = w{slot};")).collect();
        let outer = std::mem::replace(&mut self.ring_restore, restore.clone());
        if let Some(skip) = self.ray_skip(mode, ring) {
            code.push_str(&skip);
        }
        code.push_str("loop {\n");
        for &(node, ring_edge) in &ring.rotation {
            let memoised = self.memoised_checks(node);
            let walked = self.walked_edges(mode, node);
            code.push_str("{\n");
            for memo in memoised.values() {
                writeln!(code, "let mut {memo}: Option<bool> = None;").expect("writing to a String");
            }
            let hoisted = self.hoisted_guards(&walked, &mut code);
            for &edge in walked.iter().filter(|&&edge| edge != ring_edge) {
                let block = self.edge(mode, edge, &memoised, &hoisted);
                code.push_str(&block);
            }
            match self.plan.ops[ring_edge].clone() {
                PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
                    let guard = match hoisted.get(&ring_edge) {
                        Some(guard) => guard.clone(),
                        None => {
                            let (a, b) = (self.value(&lhs), self.value(&rhs));
                            format!("{a} {} {b}", if equal { "==" } else { "!=" })
                        }
                    };
                    writeln!(code, "if !({guard}) {{ break; }}").expect("writing to a String");
                }
                PlanOp::Assign { lhs, rhs, .. } => {
                    let slot = graph::fixed_slot(&lhs).expect("a ring writes fixed slots only");
                    if in_registers.contains(&slot) {
                        let value = self.register_value(slot, &rhs);
                        writeln!(code, "r{slot} = {value};").expect("writing to a String");
                    } else {
                        let value = self.value(&rhs);
                        writeln!(code, "v[{slot}] = {value};").expect("writing to a String");
                    }
                }
                // Skips, and tags a check ignores.
                _ => {}
            }
            code.push_str("}\n");
        }
        code.push_str("}\n");
        code.push_str(&restore);
        code.push('\n');
        self.ring_restore = outer;
        match counting {
            // A counting sink counts the ring's moves a few steps at a time (counted_search.rs).
            Some(count) => format!("if cx.counts_only() {{\n{count}}} else {{\n{code}}}\n"),
            None => code,
        }
    }

    /// Sibling guards evaluated up front, written into `code`, by edge: every sibling starts from
    /// the same state (each edge undoes its changes), and with no call in between the compiler
    /// shares their common reads.
    fn hoisted_guards(&mut self, walked: &[usize], code: &mut String) -> HashMap<usize, String> {
        let mut hoisted = HashMap::new();
        if walked.len() >= 2 {
            for &edge in walked {
                if let PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } = &self.plan.ops[edge] {
                    let (a, b) = (self.value(lhs), self.value(rhs));
                    let op = if *equal { "==" } else { "!=" };
                    writeln!(code, "let g{edge} = {a} {op} {b};").expect("writing to a String");
                    hoisted.insert(edge, format!("g{edge}"));
                }
            }
        }
        hoisted
    }

    /// The function of one node in one mode.
    /// `name` is the function's name (`m<N>`, `r<N>_<T>`, or a specialised copy's).
    fn node_function(&mut self, mode: Mode, node: u32, name: &str) -> String {
        self.in_registers = match mode {
            Mode::Reach { to, pure: true } => self.registers.get(&to).cloned().unwrap_or_default(),
            Mode::Moves | Mode::Apply | Mode::Reach { .. } => Vec::new(),
        };
        self.in_offset = match mode {
            Mode::Reach { to, pure: true } => {
                self.offset_registers.get(&to).map(|(slot, offsets, _)| (*slot, offsets.clone()))
            }
            Mode::Moves | Mode::Apply | Mode::Reach { .. } => None,
        };
        let function = self.node_function_body(mode, node, name);
        self.in_registers.clear();
        self.in_offset = None;
        function
    }

    /// [`Generator::node_function`] with its register slots set.
    fn node_function_body(&mut self, mode: Mode, node: u32, name: &str) -> String {
        let memoised = self.memoised_checks(node);
        let mut body = String::new();
        let (signature, done) = match mode {
            Mode::Moves if self.fallible_moves[node as usize] => {
                (format!("fn {name}(v: &mut Values, cx: &mut Search<Values>) -> Result<(), Fail>"), "Ok(())")
            }
            Mode::Moves if self.sink_nodes[node as usize] => {
                let base = if self.carried.takes(node) { ", base: u64" } else { "" };
                (format!("fn {name}<C: MoveSink<Values>>(v: &mut Values, cx: &mut C{base})"), "")
            }
            Mode::Moves => {
                let base = if self.carried.takes(node) { ", base: u64" } else { "" };
                (format!("fn {name}(v: &mut Values, cx: &mut Search<Values>{base})"), "")
            }
            Mode::Apply => (format!("fn {name}(v: &mut Values) -> Option<u32>"), "None"),
            Mode::Reach { pure: true, .. } => {
                let sym = self.sym;
                let registers: String = self.in_registers.iter().map(|slot| format!(", r{slot}: {sym}")).collect();
                (format!("fn {name}(v: &mut Values{registers}) -> bool"), "false")
            }
            Mode::Reach { pure: false, .. } => {
                (format!("fn {name}(v: &mut Values, cx: &mut Search<Values>) -> Result<bool, Fail>"), "Ok(false)")
            }
        };
        if let Mode::Reach { to, pure: true } = mode {
            if let Some(function) = self.mask_check_function(node, to, &signature) {
                return function;
            }
            if let Some(function) = self.shift_check_function(node, to, &signature) {
                return function;
            }
        }
        let node_name = self.automaton.nodes[node as usize].name.replace('`', "'");
        let known: Vec<String> = self.known.iter().map(|(slot, symbol)| format!("v[{slot}] == {symbol}")).collect();
        if known.is_empty() {
            writeln!(body, "/// Node `{node_name}`.").expect("writing to a String");
        } else {
            writeln!(body, "/// Node `{node_name}` where {}.", known.join(", ")).expect("writing to a String");
        }
        // A node that only completes a move is inlined into its callers (the completion is a
        // few stores; the call would cost as much), and so is one whose only edge is a tag
        // fused with the completion below it (amazons' arrow square, called from eight ray
        // loops). Other nodes are marked for `functions`, which inlines those a specialised
        // copy calls.
        let only_completes = |node: usize| {
            let edges = &self.automaton.nodes[node].edges;
            edges.len() == 1
                && (completes(&self.plan.ops[edges.start as usize])
                    || (!self.analysis.visit_in_moves[node]
                        && self.fusable_tag_completion(mode, edges.start as usize).is_some()))
        };
        // So is a node whose one edge is a guard into such a node (draughts' empty-square test
        // before a step move, called from its four direction nodes: the call cost as much as
        // the comparison and the push).
        let edges = &self.automaton.nodes[node as usize].edges;
        let guards_a_completion = mode == Mode::Moves
            && edges.len() == 1
            && matches!(self.plan.ops[edges.start as usize], PlanOp::Compare { .. })
            && !self.edge_fallible_in_moves(edges.start as usize)
            && !self.analysis.visit_in_moves[node as usize]
            && only_completes(self.automaton.edges[edges.start as usize].target as usize);
        if matches!(mode, Mode::Moves | Mode::Apply) && (only_completes(node as usize) || guards_a_completion) {
            writeln!(body, "#[inline(always)]").expect("writing to a String");
        } else {
            writeln!(body, "#[inline]").expect("writing to a String");
        }
        writeln!(body, "{signature} {{").expect("writing to a String");
        if mode == Mode::Moves {
            if let Some(base) = self.carried.entries.get(&node) {
                body.push_str(base);
            }
        }
        // A check and the listing it falls back to scan once on a sink (fused.rs).
        let shared = if mode == Mode::Moves { self.shared_scan(node) } else { None };
        if let Some((prelude, _)) = &shared {
            body.push_str(prelude);
        }
        // A ring entered here runs as a loop, unless the function is specialised for a value the
        // ring overwrites (its reads there are literals only before the first write).
        if let Some(ring) = self.ring(mode, node) {
            if !self.known.iter().any(|(slot, _)| ring.written.contains(slot)) {
                // A pure check's ray is a few instructions a step, and the compiler left three of
                // chess's eight king-safety rays (all from one node) as calls: always inlined,
                // they run in their caller's frame.
                if matches!(mode, Mode::Reach { pure: true, .. }) {
                    self.inlined.insert((mode, node));
                }
                // With an offset register the exits' functions are a few board compares, and
                // the compiler left three of chess's eight as calls (+7 % instructions in the
                // king-safety check): inlined into the ring too.
                if let Mode::Reach { to, pure: true } = mode {
                    if self.in_offset.is_some() {
                        for &(ring_node, ring_edge) in &ring.rotation {
                            for edge in self.walked_edges(mode, ring_node) {
                                let target = self.automaton.edges[edge].target;
                                if edge != ring_edge && target != to && self.reach[&to].region[target as usize] {
                                    self.inlined.insert((mode, target));
                                }
                            }
                        }
                    }
                }
                let walk = self.ring_walk(mode, &ring);
                body.push_str(&walk);
                writeln!(body, "{done}\n}}\n").expect("writing to a String");
                return body;
            }
        }
        let visits = match mode {
            Mode::Moves => self.analysis.visit_in_moves[node as usize],
            Mode::Apply => false,
            Mode::Reach { to, .. } => self.reach[&to].visits[node as usize],
        };
        if visits {
            self.emitted.visits = true;
            let early = if mode == Mode::Moves { "Ok(())" } else { "Ok(false)" };
            let progress = match mode {
                Mode::Reach { to, .. } => self.reach[&to].progress_slots.clone(),
                Mode::Moves | Mode::Apply => None,
            };
            let visit = match progress {
                Some(slots) => {
                    // (node, slot values) in mixed radix: symbols per slot.
                    let symbols = self.automaton.symbols.len().max(1) as u64;
                    let mut key = format!("{}", node as u64 * symbols.pow(slots.len() as u32));
                    for (i, slot) in slots.iter().enumerate() {
                        let weight = symbols.pow((slots.len() - 1 - i) as u32);
                        write!(key, " + v[{slot}] as u32 * {weight}").expect("writing to a String");
                    }
                    format!("cx.visit_slot({key})")
                }
                None => format!("cx.visit({node}, v)"),
            };
            writeln!(body, "if !{visit}? {{ return {early}; }}").expect("writing to a String");
        } else if matches!(mode, Mode::Reach { to, .. } if self.reach[&to].counted_steps[node as usize]) {
            self.emitted.visits = true;
            writeln!(body, "cx.count_step()?;").expect("writing to a String");
        }
        for memo in memoised.values() {
            writeln!(body, "let mut {memo}: Option<bool> = None;").expect("writing to a String");
        }
        let opens_scope = mode == Mode::Moves && self.analysis.opens_scope[node as usize];
        if opens_scope {
            // An error return leaves the scope open: the search is abandoned, `begin` resets it.
            writeln!(body, "let scope = cx.open_scope();").expect("writing to a String");
        }
        let walked = self.walked_edges(mode, node);
        let hoisted = self.hoisted_guards(&walked, &mut body);
        // A counting sink lists the squares of the ring walks entered here at once (gathered_rings.rs).
        let gathered = if mode == Mode::Moves { self.gathered_rings(node) } else { None };
        if let Some(code) = &gathered {
            write!(body, "if cx.counts_only() {{\n{code}}} else {{\n").expect("writing to a String");
        }
        for edge in walked {
            let block = self.edge(mode, edge, &memoised, &hoisted);
            body.push_str(&block);
        }
        if gathered.is_some() {
            body.push_str("}\n");
        }
        if opens_scope {
            writeln!(body, "cx.close_scope(scope);").expect("writing to a String");
        }
        writeln!(body, "{done}\n}}\n").expect("writing to a String");
        if let Some((_, function)) = shared {
            body.push_str(&function);
        }
        body
    }

    fn functions(&mut self) -> String {
        self.registers = self.register_slots();
        let mut plain = Vec::new();
        for node in 0..self.automaton.nodes.len() as u32 {
            if self.analysis.in_moves[node as usize] {
                let function = self.node_function(Mode::Moves, node, &format!("m{node}"));
                plain.push((Mode::Moves, node, function));
            }
        }
        let targets: Vec<(u32, bool)> = self.reach.iter().map(|(&to, target)| (to, target.pure)).collect();
        for (to, pure) in targets {
            for node in 0..self.automaton.nodes.len() as u32 {
                if self.reach[&to].region[node as usize] {
                    let mode = Mode::Reach { to, pure };
                    let function = self.node_function(mode, node, &format!("r{node}_{to}"));
                    plain.push((mode, node, function));
                }
            }
        }
        let mut specialised = String::new();
        let mut next = 0;
        self.specialise_pending(&mut next, &mut specialised);
        // The keeper's applied moves last (with their own unroll budget), so that the move
        // search's and the checks' functions are the same with or without them.
        for node in 0..self.automaton.nodes.len() as u32 {
            if self.in_apply[node as usize] {
                let function = self.node_function(Mode::Apply, node, &format!("a{node}"));
                plain.push((Mode::Apply, node, function));
            }
        }
        self.specialise_pending(&mut next, &mut specialised);
        // `apply_delta` recomputes the slots of computed writes on the state it builds.
        let places = self.deltas.places.clone();
        self.delta_places = places.iter().map(|place| self.state_read(place)).collect();
        let mut out = String::new();
        for (mode, node, function) in plain {
            let attribute = if self.inlined.contains(&(mode, node))
                || self.sink_check(mode)
                || word_stores::inlined_keeper(mode, &function)
            {
                "#[inline(always)]\n"
            } else {
                ""
            };
            out.push_str(&function.replacen("#[inline]\n", attribute, 1));
        }
        out.push_str(&specialised.replace("#[inline]\n", ""));
        out
    }

    /// Whether functions of `mode` belong to a check a sink function calls ([`Generator::sink_checks`]).
    fn sink_check(&self, mode: Mode) -> bool {
        matches!(mode, Mode::Reach { to, pure: true } if self.sink_checks.contains(&to))
    }

    /// Generates the specialised copies named but not generated yet, from `pending[*next]` on,
    /// in the order they were first called (which may name more), into `out`.
    fn specialise_pending(&mut self, next: &mut usize, out: &mut String) {
        while *next < self.pending.len() {
            let key = self.pending[*next].clone();
            *next += 1;
            let name = self.specialised[&key].clone();
            let (mode, node, known) = key;
            self.known = known;
            let function = self.node_function(mode, node, &name);
            self.known.clear();
            if self.sink_check(mode) {
                out.push_str(&function.replacen("#[inline]\n", "#[inline(always)]\n", 1));
            } else {
                out.push_str(&function);
            }
        }
    }

    /// `apply_keeper` (see [`Generator::apply_starts`]), when some keeper start qualifies (else
    /// the trait's default: never applied, the keeper's moves are listed).
    fn apply_function(&self) -> String {
        let arms: Vec<String> = (0..self.automaton.nodes.len())
            .filter(|&node| self.apply_starts[node])
            .map(|node| format!("            {node} => a{node}(&mut state.values),\n"))
            .collect();
        if arms.is_empty() {
            return String::new();
        }
        format!(
            "
    #[inline(always)]
    fn apply_keeper(state: &mut State) -> bool {{
        let applied = match state.node {{
{}            _ => None,
        }};
        match applied {{
            Some(node) => {{ state.node = node; true }}
            None => false,
        }}
    }}
",
            arms.concat()
        )
    }

    /// `delta_start` and `apply_delta` (see [`deltas`]), when some start node the search
    /// dispatches on lists deltas (else the trait's defaults: no deltas).
    fn delta_functions(&self) -> String {
        let starts: Vec<String> = (0..self.automaton.nodes.len())
            .filter(|&node| self.analysis.is_start[node] && self.analysis.in_moves[node] && self.deltas.starts[node])
            .map(|node| node.to_string())
            .collect();
        if starts.is_empty() {
            return String::new();
        }
        let bits = slot_bits(self.sym);
        let mut arms = String::new();
        for (site, deltas::Site { target, slots, computed }) in self.deltas.sites.iter().enumerate() {
            write!(arms, "            {site} => {{ state.node = {target}; let v = &mut state.values;")
                .expect("writing to a String");
            for (i, slot) in slots.iter().enumerate() {
                write!(arms, " v[{slot}] = (delta >> {}) as Sym;", 16 + bits * i as u32).expect("writing to a String");
            }
            // Computed writes after the fixed slots, whose values their keys read.
            for (i, &place) in computed.iter().enumerate() {
                let shift = 16 + bits * (slots.len() + i) as u32;
                let read = &self.delta_places[place];
                let slot = read.strip_prefix("v[").and_then(|read| read.strip_suffix(']')).unwrap_or(read);
                write!(arms, " let slot = {slot}; v[slot] = (delta >> {shift}) as Sym;").expect("writing to a String");
            }
            arms.push_str(" }\n");
        }
        // A mixed start's listing marks its moves pushed whole, which taking a move tests for.
        let mixed =
            (0..self.automaton.nodes.len()).any(|node| starts.contains(&node.to_string()) && self.deltas.mixed[node]);
        let mixed = if mixed { "\n    const MIXED_DELTAS: bool = true;\n" } else { "" };
        format!(
            "{mixed}
    #[inline(always)]
    fn delta_start(node: u32) -> bool {{
        matches!(node, {starts})
    }}

    #[inline(always)]
    fn apply_delta(delta: u64, state: &mut State) {{
        match delta as u16 {{
{arms}            _ => {{}}
        }}
    }}
",
            starts = starts.join(" | ")
        )
    }

    fn module(&self, origin: &str, functions: &str) -> String {
        let automaton = self.automaton;
        let plan = self.plan;
        let sym = self.sym;
        let mut out = String::new();
        let w = &mut out;
        let list = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(", ");
        writeln!(w, "//! Compiled forward model of `{origin}`: generated by `regula`'s code generator, do not edit.")
            .unwrap();
        writeln!(w, "//!").unwrap();
        writeln!(
            w,
            "//! {} nodes, {} edges, {} state slots of `{sym}`. See spec/codegen.md.",
            automaton.nodes.len(),
            automaton.edges.len(),
            plan.state_len
        )
        .unwrap();
        writeln!(w).unwrap();
        writeln!(w, "#![allow(unused_variables, unused_mut, unused_parens, unused_assignments, unreachable_code, dead_code, clippy::all)]").unwrap();
        writeln!(w).unwrap();
        writeln!(w, "use regula_runtime::compiled::{{CompiledGame, Fail, Names, CompiledState, Search}};").unwrap();
        if self.sink_nodes.iter().any(|&sink| sink) {
            writeln!(w, "use regula_runtime::compiled::MoveSink;").unwrap();
        }
        writeln!(w).unwrap();
        writeln!(w, "/// One symbol id.").unwrap();
        writeln!(w, "pub type Sym = {sym};").unwrap();
        writeln!(w, "/// Slots per state.").unwrap();
        writeln!(w, "pub const SLOTS: usize = {};", plan.state_len).unwrap();
        writeln!(w, "/// The values of every variable (the reference engine's slot layout).").unwrap();
        writeln!(w, "pub type Values = [Sym; SLOTS];").unwrap();
        writeln!(w, "/// A state: node and values.").unwrap();
        writeln!(w, "pub type State = CompiledState<Values>;").unwrap();
        writeln!(w).unwrap();
        writeln!(w, "/// The game.").unwrap();
        writeln!(w, "#[derive(Clone, Copy, Debug, Default)]").unwrap();
        writeln!(w, "pub struct Game;").unwrap();
        writeln!(w).unwrap();
        let symbols = list(&mut automaton.symbols.iter().map(|s| format!("{s:?}")));
        writeln!(w, "static SYMBOLS: [&str; {}] = [{symbols}];", automaton.symbols.len()).unwrap();
        let nodes = list(&mut automaton.nodes.iter().map(|n| format!("{:?}", n.name)));
        writeln!(w, "static NODES: [&str; {}] = [{nodes}];", automaton.nodes.len()).unwrap();
        let initial = list(&mut plan.initial_values.iter().map(|v| v.to_string()));
        writeln!(w, "static INITIAL: Values = [{initial}];").unwrap();
        let scores = list(&mut automaton.scores.iter().map(|v| v.to_string()));
        writeln!(w, "static SCORES: [u32; {}] = [{scores}];", automaton.scores.len()).unwrap();
        let goals = list(&mut plan.goal_slots.iter().map(|v| v.to_string()));
        writeln!(w, "static GOAL_SLOTS: [usize; {}] = [{goals}];", plan.goal_slots.len()).unwrap();
        let visible = list(&mut plan.visible_slots.iter().map(|v| v.to_string()));
        writeln!(w, "static VISIBLE_SLOTS: [usize; {}] = [{visible}];", plan.visible_slots.len()).unwrap();
        let mut valid = vec![false; self.table_len];
        for &p in automaton.players.iter().chain([&automaton.keeper, &automaton.random]) {
            valid[p as usize] = true;
        }
        let valid = list(&mut valid.iter().map(|v| v.to_string()));
        writeln!(w, "static VALID_PLAYER: [bool; {}] = [{valid}];", self.table_len).unwrap();
        let unique = list(&mut self.analysis.unique_start.iter().map(|u| u.to_string()));
        writeln!(w, "static UNIQUE_STARTS: [bool; {}] = [{unique}];", automaton.nodes.len()).unwrap();
        if self.uses_byte_scan {
            w.push_str(BYTE_SCAN_IMPORT);
        }
        if !self.counted_by_masks.is_empty() {
            w.push_str(counted::COUNTED_IMPORT);
        }
        if !self.bit_starts.is_empty() || !self.flank_scans.is_empty() {
            w.push_str(bit_listing::BIT_LISTING_IMPORT);
        }
        if self.uses_constants {
            let constants = list(&mut plan.const_values.iter().map(|v| v.to_string()));
            writeln!(w, "static CONSTANTS: [Sym; {}] = [{constants}];", plan.const_values.len()).unwrap();
        }
        for (name, element, values) in &self.tables {
            let values = list(&mut values.iter().map(|v| v.to_string()));
            let count = values.split(", ").count();
            writeln!(w, "static {name}: [{element}; {count}] = [{values}];").unwrap();
        }
        writeln!(w).unwrap();
        let one = automaton.symbol_id("1").map_or("None".to_string(), |id| format!("Some({id})"));
        // Recorded while `functions` was emitted, so the flags hold for exactly that code.
        let lean_reads_no_tags = self.emitted.lean_reads_no_tags(self.tags_bounded);
        let no_visits = self.emitted.no_visits();
        let replay_skips_to_member = self.emitted.replay_skips_to_member;
        // The dispatch on the start node. Only a game without visits searches in place (the
        // runtime's playout loop and keeper moves, `NO_VISITS`): there `search_in_place` holds the
        // match and is inlined into the runtime, and `search` copies the values first. Any other
        // game keeps the match in `search` (the trait's default `search_in_place` is never
        // called) and calls one out-of-line entry `e<N>` per start node, whose node function is
        // then private to this crate with that one caller, so the compiler inlines it and the
        // nodes below it into the entry. An inlined `search_in_place` made the node functions
        // callable from the runtime's crate, exported, and kept them out of line (connect4.rg
        // +9 % instructions per playout, session 10); inlining them all into `search` instead
        // cost draughts 4 % (two move searches' loops in one function).
        // The nodes `search` dispatches on (see `starts` below) are all proved unique.
        let starts_all_unique = (0..automaton.nodes.len())
            .filter(|&node| self.analysis.is_start[node] && self.analysis.in_moves[node])
            .all(|node| self.analysis.unique_start[node]);
        let dispatch = if no_visits {
            "
    fn search(state: &State, cx: &mut Search<Values>) -> Result<(), Fail> {
        let mut values = state.values;
        Self::search_in_place(state.node, &mut values, cx)
    }

    #[inline(always)]
    fn search_in_place(node: u32, v: &mut Values, cx: &mut Search<Values>) -> Result<(), Fail> {
        match node {"
        } else {
            "
    fn search(state: &State, cx: &mut Search<Values>) -> Result<(), Fail> {
        let mut values = state.values;
        let v = &mut values;
        match state.node {"
        };
        writeln!(
            w,
            "impl CompiledGame for Game {{
    type Values = Values;
    const FINGERPRINT: u64 = {fingerprint};
    const NAMES: Names = Names {{ symbols: &SYMBOLS, nodes: &NODES }};
    const BEGIN: u32 = {begin};
    const END: u32 = {end};
    const KEEPER: u32 = {keeper};
    const RANDOM: u32 = {random};
    const PLAYERS: &'static [u32] = &[{players}];
    const SCORES: &'static [u32] = &SCORES;
    const ONE: Option<u32> = {one};
    const UNIQUE_STARTS: &'static [bool] = &UNIQUE_STARTS;
    const STARTS_ALL_UNIQUE: bool = {starts_all_unique};
    const LEAN_READS_NO_TAGS: bool = {lean_reads_no_tags};
    const NO_VISITS: bool = {no_visits};
    const REPLAY_SKIPS_TO_MEMBER: bool = {replay_skips_to_member};

    fn initial_values() -> Values {{
        INITIAL
    }}

    fn player(values: &Values) -> u32 {{
        values[{player}] as u32
    }}

    fn goal(values: &Values, player: usize) -> u32 {{
        values[GOAL_SLOTS[player]] as u32
    }}

    fn visible(values: &Values, player: usize) -> u32 {{
        values[VISIBLE_SLOTS[player]] as u32
    }}
{delta_functions}{counted}{counted_search}{apply_function}{dispatch}",
            delta_functions = self.delta_functions(),
            counted = self.pick_dispatch(),
            counted_search = self.counted_search_dispatch(),
            apply_function = self.apply_function(),
            fingerprint = fingerprint(automaton),
            begin = automaton.begin,
            end = automaton.end,
            keeper = automaton.keeper,
            random = automaton.random,
            player = plan.player_slot,
            // A literal, not a `static`: the runtime's playout loop asks whether the keeper or the
            // new `player` is a player two or three times a ply, and a static in the game's crate
            // is loaded through the global offset table each time, where a literal folds into
            // the comparisons (session 14: 2.7 % of tic-tac-toe's and connect four's instructions).
            players = list(&mut automaton.players.iter().map(|v| v.to_string())),
        )
        .unwrap();
        let starts = (0..automaton.nodes.len())
            .filter(|&node| self.analysis.is_start[node] && self.analysis.in_moves[node])
            .collect::<Vec<_>>();
        let call = |node: usize| {
            if self.fallible_moves[node] {
                format!("m{node}(v, cx)")
            } else if let Some(bound) = self.sink_bounds[node] {
                // A delta listing runs the search on a sink (see `Generator::sink_starts`). Only
                // a start whose bound is larger than the room can overflow it, and lists on the
                // context then; any other asserts that it did not (breakthrough paid 0.6 % for
                // the second call of the generic copy's context version).
                // A mixed start's sink holds the successor slots too (`MixedSink`).
                let into = if self.deltas.mixed[node] { "list_mixed_into" } else { "list_deltas_into" };
                let sunk = format!("cx.{into}({bound}, |mut sink| {{ m{node}(v, &mut sink); sink }})");
                if self.analysis.completion_bounds[node] > DELTA_SINK_BOUND {
                    format!("{{ if !(cx.lists_deltas() && {sunk}) {{ m{node}(v, cx); }} Ok(()) }}")
                } else {
                    format!(
                        "{{ if cx.lists_deltas() {{ let fitted = {sunk}; assert!(fitted, \"a delta listing completed more moves than its bound\"); }} \
                         else {{ m{node}(v, cx); }} Ok(()) }}"
                    )
                }
            } else {
                format!("{{ m{node}(v, cx); Ok(()) }}")
            }
        };
        for &node in &starts {
            if no_visits && self.fallible_moves[node] {
                writeln!(w, "            {node} => {},", call(node)).unwrap();
            } else if no_visits {
                writeln!(w, "            {node} => {}", call(node)).unwrap();
            } else {
                writeln!(w, "            {node} => e{node}(v, cx),").unwrap();
            }
        }
        writeln!(w, "            _ => Ok(()),\n        }}\n    }}\n}}\n").unwrap();
        if !no_visits {
            for &node in &starts {
                writeln!(
                    w,
                    "/// The search from node {name:?}, out of line (see `search`).
#[inline(never)]
fn e{node}(v: &mut Values, cx: &mut Search<Values>) -> Result<(), Fail> {{
    {call}
}}
",
                    name = automaton.nodes[node].name,
                    call = call(node),
                )
                .unwrap();
            }
        }
        out.push_str(functions);
        out
    }
}

/// One corpus source for [`corpus_crate_sources`]: its corpus name (`folder/file`) and text.
pub struct CorpusSource {
    pub name: String,
    pub text: String,
}

/// A Rust module name for a corpus source: `connect4/connect4.rg` is `connect4_rg`, and a file
/// whose stem differs from its folder keeps the folder (`games/x/y.hrg` is `x_y_hrg`).
pub fn module_name(corpus_name: &str) -> String {
    let (folder, file) = corpus_name.split_once('/').unwrap_or(("", corpus_name));
    let stem = file.split('.').next().unwrap_or(file);
    let joined = if folder.is_empty() || folder == stem { file.to_string() } else { format!("{folder}_{file}") };
    let mut name: String =
        joined.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        name.insert_str(0, "game_");
    }
    name
}

/// The largest generated module the `regula-compiled` crate takes, in bytes. Every corpus game fits:
/// Dou Dizhu's 4.6 MB module is the biggest and costs the debug test build about 2.5 CPU-minutes.
pub const CORPUS_MODULE_LIMIT: usize = 8 << 20;

/// The generated sources of the `regula-compiled` crate for a list of corpus sources (in the
/// order given): `src/games/<module>.rs` for each, and `src/games/mod.rs` with the registry.
/// A source that does not compile is an error naming it. A module longer than
/// [`CORPUS_MODULE_LIMIT`] bytes is left out of the crate (it stays buildable with `regula build`).
pub fn corpus_crate_sources(sources: &[CorpusSource]) -> Result<Vec<CrateFile>, String> {
    let mut files = Vec::new();
    let mut registry = String::new();
    let mut modules = String::new();
    let mut arms = String::new();
    for source in sources {
        let file_name = source.name.rsplit('/').next().unwrap_or(&source.name);
        let automaton = optimized_automaton(file_name, &source.text).map_err(|diagnostics| {
            let first = diagnostics.first().map_or_else(String::new, |d| d.message.clone());
            format!("`{}` does not compile: {first}", source.name)
        })?;
        let module = generate(&automaton, &source.name).map_err(|e| format!("`{}`: {e}", source.name))?;
        if module.len() > CORPUS_MODULE_LIMIT {
            continue;
        }
        let name = module_name(&source.name);
        files.push(CrateFile { path: format!("src/games/{name}.rs"), contents: module });
        writeln!(modules, "#[rustfmt::skip]\npub mod {name};").expect("writing to a String");
        writeln!(registry, "    ({:?}, {}),", source.name, fingerprint(&automaton)).expect("writing to a String");
        writeln!(arms, "        {:?} => Some(visitor.visit::<{name}::Game>({:?})),", source.name, source.name)
            .expect("writing to a String");
    }
    let mut index = String::new();
    writeln!(index, "//! The compiled corpus games: generated by `cargo xtask codegen`, do not edit.").unwrap();
    writeln!(index).unwrap();
    index.push_str(&modules);
    writeln!(index).unwrap();
    writeln!(index, "/// Every compiled game: its corpus name (`folder/file`) and the fingerprint of the optimised")
        .unwrap();
    writeln!(index, "/// automaton it was generated from.").unwrap();
    writeln!(index, "pub const GAMES: &[(&str, u64)] = &[").unwrap();
    index.push_str(&registry);
    writeln!(index, "];").unwrap();
    writeln!(index).unwrap();
    writeln!(index, "/// Runs `visitor` on the compiled game of a corpus name; `None` for an unknown name.").unwrap();
    writeln!(index, "#[rustfmt::skip]").unwrap();
    writeln!(index, "pub fn visit<V: crate::Visitor>(name: &str, visitor: &mut V) -> Option<V::Output> {{").unwrap();
    writeln!(index, "    match name {{").unwrap();
    index.push_str(&arms);
    writeln!(index, "        _ => None,\n    }}\n}}").unwrap();
    files.push(CrateFile { path: "src/games/mod.rs".into(), contents: index });
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// The module of a one-player game that picks `at` from `choices` and writes `board[at]`.
    fn module(choices: &str) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b}");
        builder.typedef("CellOrNull", "{a, b, null}").typedef("Board", "Cell -> Cell");
        builder.variable("board", "Board", "{:a}").variable("at", "CellOrNull", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", &format!("at = {choices}(*)"));
        builder.edge("picked", "tagged", "$$ at");
        builder.edge("tagged", "written", "board[at] = b");
        builder.edge("written", "end", "player = keeper");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_move_search_that_cannot_fail_has_no_result_and_no_checks() {
        let proved = module("Cell");
        assert!(!proved.contains("key_outside"), "`at` only ever holds cells");
        assert!(proved.contains("cx.complete_unique_valid("));
        assert!(proved.contains("cx.push_tag_bounded("));
        let fallible = |module: &str| module.lines().filter(|l| l.starts_with("fn m") && l.contains("Result")).count();
        assert_eq!(fallible(&proved), 0, "every move-search function returns ()");
        let unproved = module("CellOrNull");
        assert!(unproved.contains("key_outside"), "`at` may be null");
        // `tagged` writes through the unproved key; `picked` and `choose` call it; the loop over
        // three members is unrolled into copies of `picked` and `tagged` per member, which keep
        // their node's signature.
        assert_eq!(fallible(&unproved), 3 + 2 * 3);
    }

    #[test]
    fn a_player_read_from_a_variable_that_only_holds_players_needs_no_validity_check() {
        let module = |extra: Option<(&str, &str, &str)>| {
            let mut builder = AutomatonBuilder::new();
            builder.typedef("Player", "{x, y}").typedef("Score", "{0, 100}").typedef("Side", "{x, y, z}");
            builder.variable("me", "Side", "x");
            builder.edge("begin", "turn", "player = me");
            builder.edge("turn", "moved", "$ x");
            builder.edge("moved", "flip", "player = keeper");
            builder.edge("flip", "begin", "me = y");
            if let Some((from, to, label)) = extra {
                builder.edge(from, to, label);
            }
            let automaton = builder.build().expect("the test automaton builds");
            generate(&automaton, "test").expect("the test automaton generates")
        };
        let proved = module(None);
        assert!(!proved.contains("VALID_PLAYER[p as usize])?"), "`me` only holds players: {proved}");
        let unproved = module(Some(("flip", "begin", "me = z")));
        assert!(unproved.contains("VALID_PLAYER[p as usize])?"), "`me` may hold `z`: {unproved}");
    }

    #[test]
    fn a_tag_right_before_a_unique_completion_is_pushed_by_the_completion() {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b}");
        builder.typedef("Board", "Cell -> Cell");
        builder.variable("board", "Board", "{:a}").variable("at", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "written", "board[at] = b");
        builder.edge("written", "tagged", "$$ at");
        builder.edge("tagged", "end", "player = keeper");
        let automaton = builder.build().expect("the test automaton builds");
        let fused = generate(&automaton, "test").expect("the test automaton generates");
        // Every path reaching the tag pushed no tag before it: the completion knows the depth.
        assert!(fused.contains("cx.complete_unique_valid_tagged_at::<0>("), "{fused}");
        // The tag is read into a variable before the completion's write.
        assert!(fused.contains("as u32;\n{\nlet x: "), "{fused}");
        // A tag followed by a write keeps the plain push, completion and pop.
        assert!(!module("Cell").contains("complete_unique_valid_tagged("));
        // The tag is reached after one tag (`at == b`) or none (`at == a`): the depth varies, so
        // the completion reads the path's length.
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b}");
        builder.variable("at", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "merged", "at == a");
        builder.edge("picked", "marked", "at == b");
        builder.edge("marked", "merged", "$$ b");
        builder.edge("merged", "tagged", "$$ at");
        builder.edge("tagged", "end", "player = keeper");
        let varying = generate(&builder.build().expect("the test automaton builds"), "test").expect("it generates");
        assert!(varying.contains("cx.complete_unique_valid_tagged(") && !varying.contains("_at::<"), "{varying}");
    }

    /// The text of every function whose name contains `part`.
    fn functions_named<'m>(module: &'m str, part: &str) -> Vec<&'m str> {
        module
            .split("/// Node")
            .filter(|function| {
                function.lines().any(|line| line.starts_with("fn ") && line.split('(').next().unwrap().contains(part))
            })
            .collect()
    }

    #[test]
    fn a_small_member_loop_is_unrolled_into_copies_that_know_the_member() {
        let module = module("Cell");
        assert!(!module.contains("for i in"), "the loop over two cells is unrolled");
        // `picked` (tags `at`) and `tagged` (writes `board[at]`) read the member, `written` does
        // not: one copy of each of the two for each of the two cells.
        let copies = functions_named(&module, "_k");
        assert_eq!(copies.len(), 4, "{module}");
        for copy in &copies {
            assert!(!copy.contains("OFF"), "reads and writes through the member fold into fixed slots: {copy}");
            assert!(!copy.contains("push_tag_bounded(v["), "the tag is a literal: {copy}");
        }
        // The plain functions still read the variable (a search may start below the loop).
        assert!(module.contains("push_tag_bounded(v["));
    }

    /// A one-player game over 20 cells (too many to unroll) whose move is `at = Cell(*)`, then
    /// `between`, then `$$ at`.
    fn loop_module(between: &str) -> String {
        let cells: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}");
        builder.typedef("Cell", &format!("{{{}}}", cells.join(", "))).typedef("Board", "Cell -> Cell");
        builder.variable("board", "Board", "{:c0}").variable("at", "Cell", "c0").variable("other", "Cell", "c0");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "checked", between);
        builder.edge("checked", "tagged", "$$ at");
        builder.edge("tagged", "written", "board[at] = c1");
        builder.edge("written", "end", "player = keeper");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_replayed_move_runs_only_the_member_its_next_tag_names() {
        let tagged = loop_module("board[at] == c0");
        assert!(tagged.contains("cx.replayed_next_tag()"), "a guard on the way to `$$ at` changes nothing: {tagged}");
        assert!(flag(&tagged, "REPLAY_SKIPS_TO_MEMBER"), "{tagged}");
        // Writing `at` before its tag: the tag no longer names the member.
        let overwritten = loop_module("at = c3");
        assert!(overwritten.contains("for i in 0..20"), "{overwritten}");
        assert!(!overwritten.contains("replayed_next_tag"), "{overwritten}");
        assert!(!flag(&overwritten, "REPLAY_SKIPS_TO_MEMBER"), "{overwritten}");
        // Another tag first: the member is not the next tag.
        let other_tag = loop_module("$$ other");
        assert!(!other_tag.contains("replayed_next_tag"), "{other_tag}");
    }

    /// A one-player game over 20 cells whose move is `at = Cell(*)` into `picked`, then `edges`.
    fn placement_module(edges: &[(&str, &str, &str)]) -> String {
        let cells: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}");
        builder.typedef("Cell", &format!("{{{}}}", cells.join(", "))).typedef("Board", "Cell -> Cell");
        builder.variable("board", "Board", "{:c0}").variable("at", "Cell", "c0").variable("other", "Cell", "c0");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        for (from, to, label) in edges {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_placement_loop_lists_single_tags_without_a_call_per_member() {
        let placement = placement_module(&[
            ("picked", "checked", "board[at] == c0"),
            ("checked", "unequal", "board[at] != c2"),
            ("unequal", "tagged", "$$ at"),
            ("tagged", "end", "player = keeper"),
        ]);
        assert!(placement.contains("if cx.lists_single_tags() {\nfor i in 0..20 {"), "{placement}");
        let listing = placement.lines().find(|l| l.contains("cx.push_single_tag(")).expect("a listing loop");
        assert!(
            listing.contains("] == ") && listing.contains(" && ") && listing.contains("] != "),
            "both guards: {listing}"
        );
        // The listing writes nothing: it reads the cell at its slot per loop index and tags the
        // member's table entry.
        assert!(placement.contains("for i in 0..20 {\nif v[") && listing.contains(" + i] == "), "{placement}");
        assert!(listing.contains("cx.push_single_tag(MEMBERS"), "{listing}");
        assert!(placement.contains("cx.complete_unique_valid_tagged_at::<0>("), "the other searches: {placement}");
        // The tag is followed by a write, not by the completion.
        assert!(!loop_module("board[at] == c0").contains("lists_single_tags"));
        // A write between the loop and the tag.
        let written = placement_module(&[
            ("picked", "checked", "board[at] = c1"),
            ("checked", "tagged", "$$ at"),
            ("tagged", "end", "player = keeper"),
        ]);
        assert!(written.contains("cx.replayed_next_tag()") && !written.contains("lists_single_tags"), "{written}");
        // Two edges below the guard.
        let branching = placement_module(&[
            ("picked", "tagged", "$$ at"),
            ("picked", "end", "player = keeper"),
            ("tagged", "end", "player = keeper"),
        ]);
        assert!(!branching.contains("lists_single_tags"), "{branching}");
    }

    /// A placement of one of `cells` cells, `edges` from `picked` to `tagged` (`$$ at` when
    /// empty), then the turn to the keeper.
    fn placement_of(cells: usize, edges: &[(&str, &str, &str)]) -> String {
        let names: Vec<String> = (0..cells).map(|i| format!("c{i}")).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}");
        builder.typedef("Cell", &format!("{{{}}}", names.join(", "))).typedef("Board", "Cell -> Cell");
        builder.variable("board", "Board", "{:c0}").variable("at", "Cell", "c0");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        for (from, to, label) in if edges.is_empty() { &[("picked", "tagged", "$$ at")][..] } else { edges } {
            builder.edge(from, to, label);
        }
        builder.edge("tagged", "end", "player = keeper");
        generate(&builder.build().expect("the test automaton builds"), "test").expect("generates")
    }

    #[test]
    fn a_placement_listed_as_tags_only_from_its_first_listing_keeps_its_search_off_the_sink() {
        // 20 cells, states of under 40 bytes (under 800 < 16 KiB): the playout lists deltas, on
        // the sink.
        let small = placement_of(20, &[]);
        assert!(small.contains("if cx.lists_single_tags() {\nfor i in 0..20 {"), "{small}");
        assert_eq!(sink_listings(&small), [(2, 20)], "{small}");
        // 200 cells: states of over 200 bytes (the board alone), over 40,000 bytes a first
        // listing, so playouts list tags only until fewer than ~80 cells remain: no sink, no
        // generic function, but still a delta start with its single-tag listing.
        let big = placement_of(200, &[]);
        assert!(big.contains("if cx.lists_single_tags() {\nfor i in 0..200 {"), "{big}");
        assert!(big.contains("cx.push_delta("), "{big}");
        assert!(sink_listings(&big).is_empty() && !big.contains("MoveSink"), "{big}");
        // The same 200 cells with a write between the loop and the tag (no single-tag listing):
        // on the sink.
        let written = placement_of(200, &[("picked", "written", "board[at] = c1"), ("written", "tagged", "$$ at")]);
        assert!(!written.contains("lists_single_tags") && written.contains("cx.push_delta("), "{written}");
        assert_eq!(sink_listings(&written), [(2, 200)], "{written}");
    }

    /// The line of a module's member loop over `Cell` that skips members, if any.
    fn member_filter_line(module: &str) -> Option<&str> {
        let lines: Vec<&str> = module.lines().collect();
        lines
            .windows(2)
            .find(|pair| pair[1].starts_with("v[slot] = MEMBERS") && pair[0].ends_with("{ continue; }"))
            .map(|pair| pair[0])
    }

    #[test]
    fn a_member_loop_skips_members_its_first_guards_reject_before_writing_them() {
        // A guard on the member's cell: read straight at the loop index's slot (compared with
        // the member, so no byte test takes it).
        let guarded = placement_module(&[
            ("picked", "checked", "board[at] != at"),
            ("checked", "written", "board[at] = c1"),
            ("written", "end", "player = keeper"),
        ]);
        let filter = member_filter_line(&guarded).unwrap_or_else(|| panic!("{guarded}"));
        assert!(filter.contains(" + i] != "), "{filter}");
        // Behind the filter the body continues below the guard it tested.
        assert_eq!(member_loop_call(&guarded), Some(function_of(&guarded, "checked")), "{guarded}");
        // A variable assigned on the way is read as its value, the member as its table entry
        // (`other` holds any cell, too many values for a slot-selected byte test).
        let assigned = placement_module(&[
            ("picked", "copied", "at = board[at]"),
            ("copied", "checked", "at != other"),
            ("checked", "widened", "other = Cell(*)"),
            ("widened", "end", "player = keeper"),
        ]);
        let filter = member_filter_line(&assigned).unwrap_or_else(|| panic!("{assigned}"));
        assert!(filter.contains(" + i]) != "), "{filter}");
        // The guard comes after a write: the body makes the write, with the value the filter
        // read, and continues below the guard.
        assert_eq!(member_loop_call(&assigned), Some(function_of(&assigned, "checked")), "{assigned}");
        let write = member_loop_writes(&assigned);
        assert!(write.len() == 1 && write[0].contains(" + i]);") && write[0].contains("let kept0"), "{assigned}");
        // Once the chain overwrites the member, a map read keyed by it goes through the map's
        // offsets (affine in the key here: `- 3`, affine_offsets.rs), not the member's slot per
        // loop index.
        let reassigned = placement_module(&[
            ("picked", "copied", "at = board[at]"),
            ("copied", "checked", "board[at] == c0"),
            ("checked", "end", "player = keeper"),
        ]);
        let filter = member_filter_line(&reassigned).unwrap_or_else(|| panic!("{reassigned}"));
        assert!(filter.contains(" + i]) as usize) - 3)]"), "{filter}");
        // A write after the last guard is not the filter's: the body runs it as the chain does.
        let written_after = placement_module(&[
            ("picked", "checked", "board[at] == c0"),
            ("checked", "copied", "at = board[at]"),
            ("copied", "end", "player = keeper"),
        ]);
        assert!(member_loop_writes(&written_after).is_empty(), "{written_after}");
        assert_eq!(member_loop_call(&written_after), Some(function_of(&written_after, "checked")), "{written_after}");
        // A write through a key before the guard ends the chain: nothing to filter on.
        let written = placement_module(&[
            ("picked", "written", "board[at] = c1"),
            ("written", "checked", "board[at] == c0"),
            ("checked", "end", "player = keeper"),
        ]);
        assert!(member_filter_line(&written).is_none(), "{written}");
        // Two edges below the loop: no chain.
        let branching = placement_module(&[
            ("picked", "checked", "board[at] == c0"),
            ("picked", "end", "player = keeper"),
            ("checked", "end", "player = keeper"),
        ]);
        assert!(member_filter_line(&branching).is_none(), "{branching}");
    }

    #[test]
    fn a_member_loop_tests_eight_members_at_once_where_its_guard_reads_one_byte_each() {
        // `board[at] == c1`: the board only ever holds c0 and c1, so one equality per byte.
        let guarded = placement_module(&[
            ("picked", "checked", "board[at] == c1"),
            ("checked", "written", "board[at] = c1"),
            ("written", "end", "player = keeper"),
        ]);
        assert!(guarded.contains(BYTE_SCAN_IMPORT) && guarded.contains("slot_word(v, "), "{guarded}");
        let mask = mask_line(&guarded);
        // c1 is the highest value the board holds: one lower bound, no upper one.
        assert!(
            mask.contains("byte_at_least_mask(word, ") && !mask.contains("below") && !mask.contains(" | "),
            "{mask}"
        );
        // Twenty members, one mask (member_bits.rs): the bits past them cleared, one loop.
        assert!(guarded.contains("for chunk in 0..3 {") && guarded.contains("mask &= (1u64 << 20) - 1;"), "{guarded}");
        // The byte test is the whole filter: nothing is tested again per member.
        assert!(member_filter_line(&guarded).is_none(), "{guarded}");
        assert_eq!(member_loop_call(&guarded), Some(function_of(&guarded, "checked")), "{guarded}");
        // A replayed move's range.
        let replayed = loop_module("board[at] == c1");
        assert!(replayed.contains("for chunk in first / 8..(last + 7) / 8 {"), "{replayed}");
        assert!(replayed.contains("if i < first { continue; }\nif i >= last { break; }"), "{replayed}");
        // A guard comparing with a variable: no byte test, the member loop tests one by one.
        let compared = loop_module("board[at] == other");
        assert!(!compared.contains("byte_eq_mask") && !compared.contains("for chunk"), "{compared}");
        // A guard on the member itself, not on a map entry keyed by it.
        let member = loop_module("at != c3");
        assert!(!member.contains("for chunk"), "{member}");
        // Every member passes in the initial state (the board starts full of c0): the scan would
        // not be selective, the loop tests one by one (the start's counted function, counted.rs,
        // has masks of its own).
        let dense = loop_module("board[at] == c0");
        assert!(!dense.contains("let mut mask: u64") && member_filter_line(&dense).is_some(), "{dense}");
    }

    /// The line of a module computing a byte scan's mask.
    fn mask_line(module: &str) -> &str {
        module.lines().find(|l| l.starts_with("mask |= byte_high_bits(")).unwrap_or_else(|| panic!("{module}"))
    }

    /// A placement-like loop whose board holds `values` (`Value` has `count` symbols `b0`, ...;
    /// the board starts at `b0`, and each further value is written by an edge of the keeper's
    /// turn) with `guard` on the member's entry.
    fn valued_board_module(count: usize, written: &[&str], guard: &str) -> String {
        let cells: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
        let values: Vec<String> = (0..count).map(|i| format!("b{i}")).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}");
        builder.typedef("Cell", &format!("{{{}}}", cells.join(", ")));
        builder.typedef("Value", &format!("{{{}}}", values.join(", "))).typedef("Board", "Cell -> Value");
        builder.variable("board", "Board", "{:b0}").variable("at", "Cell", "c0");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "checked", guard);
        builder.edge("checked", "tagged", "$$ at");
        // A write after the tag, so the loop is no placement (which lists without a filter).
        builder.edge("tagged", "marked", "board[at] = b0");
        builder.edge("marked", "keeper", "player = keeper");
        for (i, value) in written.iter().enumerate() {
            builder.edge("keeper", &format!("w{i}"), &format!("board[at] = {value}"));
            builder.edge(&format!("w{i}"), "choose", "player = x");
        }
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_byte_test_compares_runs_of_held_values_as_ranges_only_below_128() {
        // The board holds b0..=b3: `== b2` needs both bounds, `!= b0` is one lower bound.
        let middle = valued_board_module(4, &["b1", "b2", "b3"], "board[at] == b2");
        let mask = mask_line(&middle);
        assert!(mask.contains("byte_at_least_mask(word, ") && mask.contains("byte_below_mask(word, "), "{mask}");
        assert!(!mask.contains("byte_eq_mask"), "{mask}");
        let not_lowest = valued_board_module(4, &["b1", "b2", "b3"], "board[at] != b0");
        let mask = mask_line(&not_lowest);
        assert!(mask.contains("byte_at_least_mask(word, ") && !mask.contains("below"), "{mask}");
        // The board never holds b3 or b5: b4 is the highest value it holds, one lower bound.
        let gap = valued_board_module(6, &["b1", "b2", "b4"], "board[at] == b4");
        let mask = mask_line(&gap);
        assert!(mask.contains("byte_at_least_mask(word, ") && !mask.contains("below"), "{mask}");
        // A board that may hold a symbol of 128 or more: the bytes are compared for equality.
        let high = valued_board_module(200, &["b1", "b199"], "board[at] == b1");
        let mask = mask_line(&high);
        assert!(mask.contains("byte_eq_mask(word, ") && !mask.contains("least"), "{mask}");
    }

    #[test]
    fn byte_ranges_are_the_runs_of_selected_held_values() {
        let held = [2, 3, 5, 7, 8, 9];
        // Interior runs have both bounds; a run at either end of the held values leaves that
        // bound out.
        assert_eq!(byte_ranges(&held, |v| v == 5), vec![(Some(5), Some(5))]);
        assert_eq!(byte_ranges(&held, |v| v >= 7), vec![(Some(7), None)]);
        assert_eq!(byte_ranges(&held, |v| v <= 3 || v == 8), vec![(None, Some(3)), (Some(8), Some(8))]);
        // 5 and 7 are adjacent among the held values (6 is never held): one run.
        assert_eq!(byte_ranges(&held, |v| v == 5 || v == 7), vec![(Some(5), Some(7))]);
        assert_eq!(byte_ranges(&held, |_| true), vec![(None, None)]);
        assert!(byte_ranges(&held, |_| false).is_empty());
    }

    /// The name of the move-search function of the node named `node`.
    fn function_of(module: &str, node: &str) -> String {
        let lines: Vec<&str> = module.lines().collect();
        let at = lines.iter().position(|l| *l == format!("/// Node `{node}`.")).expect("the node has a function");
        let signature = lines[at + 1..].iter().find(|l| l.starts_with("fn ")).expect("a signature follows");
        signature["fn ".len()..].split(['(', '<']).next().unwrap().to_string()
    }

    /// The function a member loop's body calls after writing the member (and the writes of the
    /// chain its filter skips), if any.
    fn member_loop_call(module: &str) -> Option<String> {
        let lines: Vec<&str> = module.lines().collect();
        let at = lines.iter().position(|l| l.starts_with("v[slot] = MEMBERS"))?;
        let call = lines[at + 1..].iter().find(|l| !l.starts_with("let kept"))?;
        Some(call.split('(').next()?.to_string())
    }

    /// The writes a member loop's body makes right after writing the member.
    fn member_loop_writes(module: &str) -> Vec<&str> {
        let lines: Vec<&str> = module.lines().collect();
        let Some(at) = lines.iter().position(|l| l.starts_with("v[slot] = MEMBERS")) else { return Vec::new() };
        lines[at + 1..].iter().copied().take_while(|l| l.starts_with("let kept")).collect()
    }

    /// The module of [`progress::tests::ray_automaton`]'s game.
    fn ray_module(board: &str) -> String {
        let automaton = progress::tests::ray_automaton(board, &[]);
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_ray_without_visits_is_walked_as_a_loop() {
        let closed = ray_module("{off: wall, :empty}");
        assert!(closed.contains("loop {"), "{closed}");
        // `board[off]` may be empty: the ring keeps its visits and its recursion.
        let open = ray_module("{:empty}");
        assert!(!open.contains("loop {") && open.contains("cx.visit"), "{open}");
    }

    /// The text of the pure check function whose signature starts with `fn {name}(`, through
    /// its closing `false` and brace.
    fn check_text(module: &str, name: &str) -> String {
        let start = module.find(&format!("\nfn {name}(")).expect("the function is emitted") + 1;
        let end = module[start..].find("\nfalse\n}\n").expect("the function ends") + start + 9;
        module[start..end].to_string()
    }

    #[test]
    fn a_pure_check_steps_a_ray_in_a_register() {
        // `pos` (slot 0) is the check's register: the ring at `walk` steps a local copy of the
        // argument, and the exit into `goal` returns without restoring anything.
        let closed = ray_module("{off: wall, :empty}");
        let expected = "fn r6_5(v: &mut Values, r0: u8) -> bool {
let mut r0: u8 = r0;
loop {
{
let g4 = v[1 + r0 as usize] == 7;
let g5 = v[1 + r0 as usize] == 9;
{
if g5 {
{  return true; }
}

}
if !(g4) { break; }
}
{
r0 = TAB1[(r0 as usize)];
}
}

false
}
";
        assert_eq!(check_text(&closed, "r6_5"), expected, "{closed}");
        assert!(!closed.contains("let w0") && !closed.contains("v[0] = "), "{closed}");
        // `pos` is only a board key: the register holds its board offset (`TAB0`, per symbol;
        // s1..off are symbols 3..6 at offsets 0..3, the others at the default 4), the check
        // starts from the offset of `pos` in the state, and the step is `up` on offsets.
        assert!(closed.contains("r4_5(v, TAB0[(v[0] as usize)])"), "{closed}");
        let table = |name: &str| closed.lines().find(|l| l.starts_with(&format!("static {name}: "))).expect(name);
        assert!(table("TAB0").starts_with("static TAB0: [u8; 256] = [4, 4, 4, 0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 0,"));
        assert!(table("TAB1").starts_with("static TAB1: [u8; 256] = [1, 2, 3, 3, 3, 0,"));
    }

    #[test]
    fn a_pure_check_s_ray_is_inlined_into_its_caller_and_a_move_search_s_slide_is_not() {
        // The check's ring at `walk` (and at `free`, entered there) is always inlined.
        let closed = ray_module("{off: wall, :empty}");
        assert_eq!(attribute_of(&closed, "walk"), "#[inline(always)]", "{closed}");
        assert_eq!(attribute_of(&closed, "free"), "#[inline(always)]", "{closed}");
        // The check's first step is no ring, but the player's listing that calls it runs on a
        // delta sink, and a check a sink function calls is always inlined too (sink rule).
        assert!(closed.contains("cx.list_deltas_into("), "{closed}");
        assert_eq!(attribute_of(&closed, "start"), "#[inline(always)]", "{closed}");
        // The same slide in the move search runs as a loop, without the attribute.
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, wall}").typedef("Board", "Sq -> Content");
        builder.typedef("Step", "Sq -> Sq").constant("up", "Step", "{s1: s2, s2: s3, :off}");
        builder.variable("pos", "Sq", "s1").variable("board", "Board", "{off: wall, :empty}");
        builder.edge("begin", "walk", "player = x");
        builder.edge("walk", "stepped", "pos = up[pos]");
        builder.edge("stepped", "free", "board[pos] == empty");
        builder.edge("free", "stop", "$$ pos");
        builder.edge("free", "walk", "pos != off");
        builder.edge("stop", "end", "player = keeper");
        let automaton = builder.build().expect("the test automaton builds");
        let slide = generate(&automaton, "test").expect("the test automaton generates");
        assert!(slide.contains("loop {"), "{slide}");
        assert!(attribute_of(&slide, "walk").starts_with("fn m"), "{slide}");
    }

    #[test]
    fn a_cursor_read_other_than_as_a_board_key_stays_a_symbol() {
        // `pos == s3` reads the register itself: it keeps its symbol, the board read goes
        // through the offsets (affine in the key: `- 3`, affine_offsets.rs) and the check starts
        // from `pos` as it is in the state.
        let automaton = progress::tests::ray_automaton("{off: wall, :empty}", &[("walk", "goal", "pos == s3")]);
        let module = generate(&automaton, "test").expect("the test automaton generates");
        assert!(module.contains("r4_5(v, v[0])"), "{module}");
        assert!(module.contains("v[1 + ((r0 as usize) - 3)]"), "{module}");
        assert!(!module.contains("r0 as usize]"), "{module}");
    }

    #[test]
    fn a_ray_of_a_check_that_nests_a_check_keeps_its_cursor_in_the_state() {
        // The nested check reads `pos` from the state: no register, the ring saves, writes and
        // restores slot 0.
        let automaton = progress::tests::ray_automaton(
            "{off: wall, :empty}",
            &[("walk", "goal", "? inner -> inner_goal"), ("inner", "inner_goal", "board[pos] == wall")],
        );
        let nested = generate(&automaton, "test").expect("the test automaton generates");
        assert!(check_signatures(&nested).iter().all(|s| !s.contains(", r")), "{nested}");
        assert!(nested.contains("let w0: u8 = v[0];") && nested.contains("v[0] = TAB0[(v[0] as usize)];"), "{nested}");
        assert!(!nested.contains("let mut r0"), "{nested}");
    }

    /// The value of a `const NAME: bool` of a module's `impl CompiledGame`.
    fn flag(module: &str, name: &str) -> bool {
        let line = module.lines().find(|l| l.trim_start().starts_with(&format!("const {name}: bool"))).expect(name);
        line.contains("= true;")
    }

    /// A one-player game with edges `edges` (from, to, label) between `begin -> choose` (which
    /// sets `player = x`) and `end`.
    fn edges_module(edges: &[(&str, &str, &str)]) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b}");
        builder.variable("at", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        for (from, to, label) in edges {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    /// A one-player game whose move picks `at` from `Cell` and writes `board[at]`, a map over
    /// `cells` (so `|cells| + 1` slots) before handing the turn to the keeper.
    fn board_module(cells: &str) -> String {
        board_module_then(cells, &[("written", "end", "player = keeper")])
    }

    /// [`board_module`] with the edges `then` after the board write (from `written`).
    fn board_module_then(cells: &str, then: &[(&str, &str, &str)]) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", &format!("{{{cells}}}"));
        builder.typedef("Board", "Cell -> Player");
        builder.variable("board", "Board", "{:x}").variable("at", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "tagged", "$$ at");
        builder.edge("tagged", "written", "board[at] = x");
        for (from, to, label) in then {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    /// A one-player game whose move clears stones off `board` (initially `board`) in a loop:
    /// pick a cell, `guard`, clear it, tag it, then pick again or end the move.
    fn clearing_module(board: &str, guard: &str, extra: &[(&str, &str, &str)]) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b, c}");
        builder.typedef("Content", "{empty, stone}").typedef("Board", "Cell -> Content");
        builder.variable("board", "Board", board).variable("at", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "pick", "at = Cell(*)");
        builder.edge("pick", "full", guard);
        builder.edge("full", "cleared", "board[at] = empty");
        builder.edge("cleared", "tagged", "$$ at");
        builder.edge("tagged", "pick", "at = Cell(*)");
        builder.edge("tagged", "end", "player = keeper");
        for (from, to, label) in extra {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_cycle_that_fills_a_map_needs_no_visited_set() {
        // Every pass clears a stone the guard saw: at most three passes.
        let filling = clearing_module("{:stone}", "board[at] == stone", &[]);
        assert!(!filling.contains("cx.visit(") && filling.contains("NO_VISITS: bool = true"), "{filling}");
        // Its tag on the cycle is pushed at most once per pass: tags are bounded.
        assert!(filling.contains("cx.push_tag_bounded(") && !filling.contains("cx.push_tag("), "{filling}");
        // A guard that does not read the entry: a pass may clear an empty cell again.
        let unguarded = clearing_module("{:stone}", "at != c", &[]);
        assert!(unguarded.contains("cx.visit(") && unguarded.contains("cx.push_tag("), "{unguarded}");
        // Another write into the map on the cycle puts stones back.
        let refilled = clearing_module("{:stone}", "board[at] == stone", &[("cleared", "tagged", "board[at] = stone")]);
        assert!(refilled.contains("cx.visit("), "{refilled}");
        // The key changes between the guard and the write.
        let moved = clearing_module("{:stone}", "board[at] == stone", &[("pick", "full", "at = Cell(*)")]);
        assert!(moved.contains("cx.visit("), "{moved}");
    }

    #[test]
    fn a_move_writing_few_slots_is_listed_as_a_delta() {
        // `at`, the board's 3 slots and `player`: 5 one-byte slots fit a delta word.
        let small = board_module("a, b");
        assert!(small.contains("cx.push_delta("), "{small}");
        assert!(small.contains("fn delta_start(node: u32) -> bool"), "{small}");
        assert!(small.contains("fn apply_delta(delta: u64, state: &mut State)"), "{small}");
        // Without the board write the delta is `at` and `player`, pushed before `player` is
        // written: the word reads the assigned value `x`.
        let placed = edges_module(&[
            ("choose", "picked", "at = Cell(*)"),
            ("picked", "tagged", "$$ at"),
            ("tagged", "end", "player = keeper"),
        ]);
        assert!(placed.contains("if cx.lists_deltas() { cx.push_delta(0u64 | ("), "{placed}");
        assert!(placed.contains("(x as u64) << "), "{placed}");
        // Eight cells: the board's 9 slots do not fit, but `board[at]` is one computed write:
        // the word holds `at`, `player` and the cell's value, whose slot the completion reads
        // and `apply_delta` computes again from `at` (the move from `choose`, node 2). `begin`
        // (searched at most once a playout) lists no deltas.
        let delta_starts = |module: &str| -> Vec<u32> {
            let line = module.lines().find(|l| l.contains("matches!(node, ")).expect("delta starts");
            let list = line.trim().trim_start_matches("matches!(node, ").trim_end_matches(')');
            list.split(" | ").map(|n| n.parse().expect("a node")).collect()
        };
        assert_eq!(delta_starts(&small), [2]);
        let big = board_module("a, b, c, d, e, f, g, h");
        assert_eq!(delta_starts(&big), [2], "{big}");
        assert_eq!(big.matches("cx.push_delta(").count(), 1, "{big}");
        assert!(
            big.contains("(v[0 + ((v[9] as usize) - 3)] as u64) << 32); }"),
            "the word reads the written cell: {big}"
        );
        assert!(big.contains("let slot = 0 + ((v[9] as usize) - 3);"), "`apply_delta` computes the slot: {big}");
        // `at` written after the board: the write's slot is no longer `board[at]`, so the whole
        // board counts and the move copies its successor.
        let moved = board_module_then(
            "a, b, c, d, e, f, g, h",
            &[("written", "moved", "at = a"), ("moved", "end", "player = keeper")],
        );
        assert!(!moved.contains("cx.push_delta(") && !moved.contains("fn delta_start"), "{moved}");
    }

    /// The room the delta listing of each start that runs on a sink makes, by start node (the
    /// `list_deltas_into` and `list_mixed_into` calls of `search_in_place`).
    fn sink_listings(module: &str) -> Vec<(u32, u64)> {
        module
            .lines()
            .filter_map(|line| {
                let (node, rest) = line.trim().split_once(" => ")?;
                let bound = rest.split_once("cx.list_")?.1.split_once("_into(")?.1.split(',').next()?;
                Some((node.parse().expect("a node"), bound.parse().expect("a bound")))
            })
            .collect()
    }

    #[test]
    fn a_delta_listing_that_cannot_fail_runs_on_a_sink_with_room_for_its_moves() {
        // `choose` (node 2) picks one of the cells: one move each, so the room is the cell count;
        // its functions are generic over the sink, `begin`'s (no delta start) are not.
        let small = board_module("a, b");
        assert_eq!(sink_listings(&small), [(2, 2)], "{small}");
        assert!(small.contains("use regula_runtime::compiled::MoveSink;"), "{small}");
        assert!(small.contains("fn m2<C: MoveSink<Values>>(v: &mut Values, cx: &mut C)"), "{small}");
        assert!(small.contains("fn m0(v: &mut Values, cx: &mut Search<Values>)"), "{small}");
        let big = board_module("a, b, c, d, e, f, g, h");
        assert_eq!(sink_listings(&big), [(2, 8)], "{big}");
        // Two choices in a row multiply: 2 cells, then 3 marks.
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b}");
        builder.typedef("Mark", "{p, q, r}").variable("at", "Cell", "a").variable("mark", "Mark", "p");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "tagged", "$$ at");
        builder.edge("tagged", "marked", "mark = Mark(*)");
        builder.edge("marked", "retagged", "$$ mark");
        builder.edge("retagged", "end", "player = keeper");
        let marks = generate(&builder.build().expect("builds"), "test").expect("generates");
        assert_eq!(sink_listings(&marks), [(2, 6)], "{marks}");
        // No delta listing (the whole board moves: `at` written after it): no sink, no generic.
        let moved = board_module_then(
            "a, b, c, d, e, f, g, h",
            &[("written", "moved", "at = a"), ("moved", "end", "player = keeper")],
        );
        assert!(sink_listings(&moved).is_empty() && !moved.contains("MoveSink"), "{moved}");
        // A delta start whose search can fail (a write through a key outside the board, `at`
        // holding `c`) lists its deltas with the context: its functions return errors.
        let fallible = keyed_board_module("a, b");
        assert!(fallible.contains("cx.push_delta("), "still a delta start: {fallible}");
        assert!(sink_listings(&fallible).is_empty() && !fallible.contains("MoveSink"), "{fallible}");
    }

    /// The room the delta listing of each start that runs on a sink makes, by start node, in a
    /// game with visits (the `list_deltas_into` calls of the out-of-line entries `e<N>`).
    fn entry_sink_listings(module: &str) -> Vec<(u32, u64)> {
        let lines: Vec<&str> = module.lines().collect();
        lines
            .windows(2)
            .filter_map(|pair| {
                let node = pair[0].strip_prefix("fn e")?.split('(').next()?.parse().ok()?;
                let bound = pair[1].split_once("cx.list_deltas_into(")?.1.split(',').next()?;
                Some((node, bound.parse().expect("a bound")))
            })
            .collect()
    }

    #[test]
    fn a_delta_start_runs_on_a_sink_in_a_game_whose_other_searches_visit() {
        // The keeper's search after the placement walks a cycle (`kept` -> `looped` -> `kept`):
        // it records visits, so the game searches with a copy of the values (`e<N>` entries),
        // but the placement's own search cannot fail: its delta listing runs on the sink.
        let keeper_visits = board_module_then(
            "a, b, c",
            &[
                ("written", "kept", "player = keeper"),
                ("kept", "looped", "at = b"),
                ("looped", "kept", "at == b"),
                ("kept", "end", "player = x"),
            ],
        );
        assert!(keeper_visits.contains("NO_VISITS: bool = false") && keeper_visits.contains("cx.visit("));
        assert_eq!(entry_sink_listings(&keeper_visits), [(2, 3)], "{keeper_visits}");
        assert!(keeper_visits.contains("fn m2<C: MoveSink<Values>>(v: &mut Values, cx: &mut C)"), "{keeper_visits}");
        // A cycle in the player's own search: it visits, so it can fail, and gets no sink.
        let player_visits = board_module_then(
            "a, b, c",
            &[("written", "looped", "at = b"), ("looped", "written", "at == b"), ("written", "end", "player = keeper")],
        );
        assert!(player_visits.contains("cx.visit("), "{player_visits}");
        assert!(
            entry_sink_listings(&player_visits).is_empty() && !player_visits.contains("MoveSink"),
            "{player_visits}"
        );
    }

    /// The attribute line under the doc line of node `name`'s (unspecialised) function.
    fn attribute_of(module: &str, name: &str) -> String {
        let mut lines = module.lines().skip_while(|line| *line != format!("/// Node `{name}`."));
        lines.nth(1).unwrap_or_default().to_string()
    }

    #[test]
    fn a_guard_into_a_completion_is_inlined_into_its_callers() {
        // `tagged`'s one edge is a guard into `checked`, which only completes: both inlined.
        let guarded = edges_module(&[
            ("choose", "picked", "at = Cell(*)"),
            ("picked", "tagged", "$$ at"),
            ("tagged", "checked", "at == a"),
            ("checked", "end", "player = keeper"),
        ]);
        assert_eq!(attribute_of(&guarded, "checked"), "#[inline(always)]", "{guarded}");
        assert_eq!(attribute_of(&guarded, "tagged"), "#[inline(always)]", "{guarded}");
        // A second edge below the guard: `checked` does more than complete, so the guard is
        // not inlined by this rule (`checked` is, as a specialised copy calls it).
        let branching = edges_module(&[
            ("choose", "picked", "at = Cell(*)"),
            ("picked", "tagged", "$$ at"),
            ("tagged", "checked", "at == a"),
            ("checked", "end", "player = keeper"),
            ("checked", "other", "$$ at"),
            ("other", "end", "player = keeper"),
        ]);
        assert_ne!(attribute_of(&branching, "tagged"), "#[inline(always)]", "{branching}");
        // An assignment, not a guard, into the completion: not inlined by this rule.
        let assigned = edges_module(&[
            ("choose", "picked", "at = Cell(*)"),
            ("picked", "tagged", "$$ at"),
            ("tagged", "checked", "at = a"),
            ("checked", "end", "player = keeper"),
        ]);
        assert_ne!(attribute_of(&assigned, "tagged"), "#[inline(always)]", "{assigned}");
    }

    #[test]
    fn a_start_with_completions_without_a_delta_lists_them_whole_among_its_deltas() {
        // From `tagged`, a move either ends at once (`at` and `player`: a delta) or writes the
        // board, tags `at` again (so the two moves' tags differ: both unique) and then writes
        // `at` (the whole board moves: no delta). `choose` is a mixed start: the
        // first completion pushes its word, the second its successor whole, both only in a
        // delta listing, and taking a move tests for the mark. It runs on the sink, with room
        // for both completions of each of the 8 cells.
        let mixed = board_module_then(
            "a, b, c, d, e, f, g, h",
            &[
                ("written", "retagged", "$$ at"),
                ("retagged", "moved", "at = a"),
                ("moved", "end", "player = keeper"),
                ("tagged", "end", "player = keeper"),
            ],
        );
        assert!(mixed.contains("const MIXED_DELTAS: bool = true;"), "{mixed}");
        assert!(mixed.contains("matches!(node, 2)"), "{mixed}");
        // (The delta completion appears once per copy of its function specialised for a member.)
        assert!(mixed.contains("if cx.lists_deltas() { cx.push_delta(0u64 | "), "{mixed}");
        let whole = "if cx.lists_deltas() { cx.push_whole(1, v); } else { cx.complete_unique_valid(1, v); }";
        assert!(mixed.contains(whole), "{mixed}");
        assert_eq!(mixed.matches("cx.push_whole(").count(), 1, "only the completion without a delta: {mixed}");
        assert_eq!(sink_listings(&mixed), [(2, 16)], "{mixed}");
        assert!(mixed.contains("cx.list_mixed_into(16,"), "{mixed}");
        // Every completion with a delta: no mark, no whole push.
        for plain in [board_module("a, b"), board_module("a, b, c, d, e, f, g, h")] {
            assert!(!plain.contains("MIXED_DELTAS") && !plain.contains("push_whole"), "{plain}");
        }
        // No completion with a delta: no delta start at all.
        let moved = board_module_then(
            "a, b, c, d, e, f, g, h",
            &[("written", "moved", "at = a"), ("moved", "end", "player = keeper")],
        );
        assert!(!moved.contains("push_whole") && !moved.contains("fn delta_start"), "{moved}");
    }

    /// [`board_module`] where `at` ranges over `a, b, c` but the board only over `cells`.
    fn keyed_board_module(cells: &str) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", &format!("{{{cells}}}"));
        builder.typedef("Wide", "{a, b, c}").typedef("Board", "Cell -> Player");
        builder.variable("board", "Board", "{:x}").variable("at", "Wide", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Wide(*)");
        builder.edge("picked", "tagged", "$$ at");
        builder.edge("tagged", "written", "board[at] = x");
        builder.edge("written", "end", "player = keeper");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    /// The arms of a module's `apply_keeper` (`node => a<node>(..)`), as node numbers.
    fn applied_keeper_starts(module: &str) -> Vec<u32> {
        let Some(at) = module.find("fn apply_keeper(") else { return Vec::new() };
        let body = &module[at..module[at..].find("_ => None").map_or(module.len(), |end| at + end)];
        body.lines()
            .filter_map(|line| line.trim().split_once(" => a").map(|(node, _)| node.parse().expect("a node")))
            .collect()
    }

    /// A one-player game whose move tags a cell and hands the turn to the keeper at `kept`;
    /// the keeper's edges follow (from `kept`).
    fn keeper_module(keeper: &[(&str, &str, &str)]) -> String {
        let mut edges = vec![
            ("choose", "picked", "at = Cell(*)"),
            ("picked", "tagged", "$$ at"),
            ("tagged", "kept", "player = keeper"),
        ];
        edges.extend_from_slice(keeper);
        edges_module(&edges)
    }

    #[test]
    fn a_keeper_move_with_one_untagged_infallible_path_is_applied_in_place() {
        // Two exclusive guards, each path completing once, no tag: at most one move.
        let applied = keeper_module(&[
            ("kept", "won", "at == a"),
            ("won", "end", "player = keeper"),
            ("kept", "again", "at != a"),
            ("again", "choose", "player = x"),
        ]);
        let starts = applied_keeper_starts(&applied);
        assert_eq!(starts.len(), 1, "only the keeper's start: {applied}");
        let start = starts[0];
        assert!(applied.contains(&format!("fn a{start}(v: &mut Values) -> Option<u32>")), "{applied}");
        assert!(applied.contains("return Some("), "a completion returns its target: {applied}");
        // The move search is generated as without the applied moves.
        assert!(applied.contains(&format!("fn m{start}(v: &mut Values, cx: &mut Search<Values>)")), "{applied}");
        // A tag on one path: two moves with different tags may both complete.
        let tagged = keeper_module(&[
            ("kept", "won", "at == a"),
            ("won", "end", "player = keeper"),
            ("kept", "flagged", "at != a"),
            ("flagged", "again", "$$ a"),
            ("again", "choose", "player = x"),
        ]);
        assert!(applied_keeper_starts(&tagged).is_empty() && !tagged.contains("fn apply_keeper("), "{tagged}");
        // Two paths give the same (no) tags: the listing reports the ambiguity.
        let ambiguous =
            keeper_module(&[("kept", "left", "at = a"), ("kept", "left", "at = b"), ("left", "choose", "player = x")]);
        assert!(!ambiguous.contains("fn apply_keeper("), "{ambiguous}");
        // A cycle within the keeper's move (back into its start): not applied.
        let cyclic = keeper_module(&[
            ("kept", "won", "at == a"),
            ("won", "end", "player = keeper"),
            ("kept", "spin", "at = b"),
            ("spin", "kept", "at == a"),
        ]);
        assert!(applied_keeper_starts(&cyclic).is_empty() && !cyclic.contains("fn apply_keeper("), "{cyclic}");
        // A player's move is never applied: only starts the keeper's completions enter.
        let players_only = edges_module(&[("choose", "end", "player = keeper")]);
        assert!(!players_only.contains("fn apply_keeper("), "{players_only}");
    }

    #[test]
    fn the_lean_constants_follow_the_calls_the_searches_make() {
        // Bounded tags, unique completions, no visits: both proved.
        let proved = module("Cell");
        assert!(flag(&proved, "LEAN_READS_NO_TAGS") && flag(&proved, "NO_VISITS"), "{proved}");
        // A cycle in the move search: tags are unbounded and the search records visits.
        let cyclic = edges_module(&[
            ("choose", "looped", "$$ a"),
            ("looped", "choose", "at = b"),
            ("choose", "end", "player = keeper"),
        ]);
        assert!(cyclic.contains("cx.push_tag(") && cyclic.contains("cx.visit"), "{cyclic}");
        assert!(!flag(&cyclic, "LEAN_READS_NO_TAGS") && !flag(&cyclic, "NO_VISITS"), "{cyclic}");
        // Two paths complete with the same (no) tags: the completion compares them, while the
        // tags are bounded and nothing visits.
        let ambiguous = edges_module(&[
            ("choose", "left", "at = a"),
            ("choose", "left", "at = b"),
            ("left", "end", "player = keeper"),
        ]);
        assert!(ambiguous.contains("cx.complete(") || ambiguous.contains("cx.complete_scoped("), "{ambiguous}");
        assert!(!flag(&ambiguous, "LEAN_READS_NO_TAGS") && flag(&ambiguous, "NO_VISITS"), "{ambiguous}");
    }

    /// A one-player game whose move needs a pure check: `pos` walks two steps up a line of
    /// squares, each onto a stone of `board`, with the edges `extra` added.
    fn cursor_module(extra: &[(&str, &str, &str)]) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, stone}").typedef("Board", "Sq -> Content");
        builder.typedef("Step", "Sq -> Sq").constant("up", "Step", "{s1: s2, s2: s3, :off}");
        builder.variable("pos", "Sq", "s1").variable("board", "Board", "{:stone}");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "done", "? start -> goal");
        builder.edge("done", "end", "player = keeper");
        let walk = [
            ("start", "first", "pos = up[pos]"),
            ("first", "second", "board[pos] == stone"),
            ("second", "third", "pos = up[pos]"),
            ("third", "goal", "board[pos] == stone"),
        ];
        for (from, to, label) in walk.iter().chain(extra) {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    /// [`cursor_module`]'s check made by the keeper instead: the player's move hands it the turn
    /// at once, and the keeper's move checks the walk before it ends the game.
    fn keeper_cursor_module() -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, stone}").typedef("Board", "Sq -> Content");
        builder.typedef("Step", "Sq -> Sq").constant("up", "Step", "{s1: s2, s2: s3, :off}");
        builder.variable("pos", "Sq", "s1").variable("board", "Board", "{:stone}");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "kept", "player = keeper");
        builder.edge("kept", "done", "? start -> goal");
        builder.edge("done", "end", "player = x");
        builder.edge("start", "first", "pos = up[pos]");
        builder.edge("first", "goal", "board[pos] == stone");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    /// The attribute lines right above a module's check functions (`fn r<N>_<T>`), `""` where
    /// there is none.
    fn check_attributes(module: &str) -> Vec<&str> {
        let lines: Vec<&str> = module.lines().collect();
        lines
            .windows(2)
            .filter(|pair| pair[1].starts_with("fn r"))
            .map(|pair| if pair[0].starts_with("#[") { pair[0] } else { "" })
            .collect()
    }

    #[test]
    fn the_checks_a_sink_function_calls_are_inlined_into_both_copies() {
        // `choose` lists its one move on the sink (a delta: `player`) after the walk's check:
        // every function of the check is `#[inline(always)]`.
        let sunk = cursor_module(&[]);
        assert_eq!(sink_listings(&sunk), [(2, 1)], "{sunk}");
        let attributes = check_attributes(&sunk);
        assert_eq!(attributes.len(), 4, "{sunk}");
        assert!(attributes.iter().all(|&a| a == "#[inline(always)]"), "{sunk}");
        // The keeper makes the same kind of check: the player's move (`choose`) still lists on
        // the sink, but the keeper's search (no delta start) calls the check with the context
        // only, so its functions are left to the compiler.
        let kept = keeper_cursor_module();
        assert_eq!(sink_listings(&kept), [(2, 1)], "{kept}");
        assert!(kept.contains("fn m3(v: &mut Values, cx: &mut Search<Values>)"), "{kept}");
        let attributes = check_attributes(&kept);
        assert!(!attributes.is_empty() && attributes.iter().all(|&a| a.is_empty()), "{kept}");
    }

    #[test]
    fn a_start_completing_more_moves_than_the_room_still_runs_on_a_sink() {
        // Two choices in a row, 70 cells then 70 marks: up to 4,900 moves, more than the room
        // (`DELTA_SINK_BOUND`), which a listing past it makes larger.
        let cells: Vec<String> = (0..70).map(|i| format!("c{i}")).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}");
        builder.typedef("Cell", &format!("{{{}}}", cells.join(", ")));
        builder.variable("at", "Cell", "c0").variable("mark", "Cell", "c0");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "tagged", "$$ at");
        builder.edge("tagged", "marked", "mark = Cell(*)");
        builder.edge("marked", "retagged", "$$ mark");
        builder.edge("retagged", "end", "player = keeper");
        let many = generate(&builder.build().expect("builds"), "test").expect("generates");
        assert_eq!(sink_listings(&many), [(2, DELTA_SINK_BOUND)], "{many}");
    }

    /// The signatures of a module's check functions (`fn r<N>_<T>`).
    fn check_signatures(module: &str) -> Vec<&str> {
        module.lines().filter(|l| l.starts_with("fn r")).collect()
    }

    #[test]
    fn a_pure_check_keeps_a_slot_it_writes_in_a_register() {
        let walked = cursor_module(&[]);
        // `pos` is slot 0: the check starts from its value in the state (as its board offset,
        // an offset register) and never writes it.
        assert!(walked.contains("r4_5(v, TAB0[(v[0] as usize)])"), "{walked}");
        let signatures = check_signatures(&walked);
        assert_eq!(signatures.len(), 4, "{walked}");
        assert!(signatures.iter().all(|s| s.ends_with("(v: &mut Values, r0: u8) -> bool {")), "{walked}");
        assert!(!walked.contains("let slot = 0usize"), "{walked}");
        // Each step passes the new value on; the reads use the argument.
        assert!(walked.contains("let x: u8 = TAB") && walked.contains("(v, x) {  return true; }"), "{walked}");
        // The board reads use the offset itself, the steps `up` on offsets (`TAB1`).
        assert!(
            walked.contains("v[1 + r0 as usize]") && walked.contains("let x: u8 = TAB1[(r0 as usize)];"),
            "{walked}"
        );
    }

    #[test]
    fn a_pure_check_keeps_a_member_loop_slot_in_a_register() {
        // A member loop over `pos` (slot 0) next to the plain steps: every callee takes the
        // member as its argument and the state is never written.
        let any = cursor_module(&[("second", "third", "pos = Sq(*)")]);
        let signatures = check_signatures(&any);
        assert!(signatures.iter().all(|s| s.contains("(v: &mut Values, r0: u8) -> bool {")), "{any}");
        assert!(!any.contains("let slot = 0usize") && !any.contains("v[0] = "), "{any}");
        // Each member (symbols s1..off) is passed on to the function specialised for it.
        let passed = (0..16).filter(|member| any.contains(&format!("_k0_{member}(v, {member})"))).count();
        assert_eq!(passed, 4, "{any}");
    }

    #[test]
    fn a_check_keeps_no_register_for_a_slot_it_writes_into_a_nested_check() {
        let registered = |module: &str| check_signatures(module).iter().any(|s| s.contains(", r"));
        // A nested check reads the state, where a register's value is not.
        let nested = cursor_module(&[
            ("second", "third", "? inner -> inner_goal"),
            ("inner", "inner_goal", "board[pos] == stone"),
        ]);
        assert!(!registered(&nested) && nested.contains("let slot = 0usize"), "{nested}");
        // The same with a member loop over `pos`: it keeps writing the state.
        let nested_any = cursor_module(&[
            ("second", "third", "pos = Sq(*)"),
            ("second", "third", "? inner -> inner_goal"),
            ("inner", "inner_goal", "board[pos] == stone"),
        ]);
        assert!(!registered(&nested_any) && nested_any.contains("let slot = 0usize"), "{nested_any}");
    }
}
