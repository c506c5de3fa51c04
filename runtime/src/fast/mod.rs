//! The fast engine: the default forward model, a general interpreter of the automaton tuned for
//! playouts and perft (design and cost model in spec/engines.md).
//!
//! - **State**: the reference engine's slot layout (one flat `u32` buffer, maps as dense arrays
//!   over their key types plus a default block), so states of the two engines compare slot by slot.
//! - **Instructions** (module `program`): each label lowered once to a table-driven instruction;
//!   constants folded, constant-map lookups by a slot key become one table index, state-map
//!   lookups by a slot key one offset-table index.
//! - **Search** (module `search`): explicit-stack DFS with an undo log over one working buffer;
//!   visited states recorded only at merge points of cycles (module `graph`); reachability
//!   memoised between sibling edges; moves kept in a reusable [`MoveList`] (tags and successor
//!   slots in flat arenas), so a search allocates nothing once its buffers have grown.
//! - **Playouts**: [`FastEngine::random_playout`] picks a move by index and continues from the
//!   successor the search already built, applying keeper moves in the same buffer.
//!
//! ```
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//! use regula_runtime::engine::ForwardModel;
//! use regula_runtime::fast::FastEngine;
//!
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}").typedef("Score", "{0, 1}")
//!     .edge("begin", "turn", "player = x")
//!     .edge("turn", "a", "$ left").edge("turn", "b", "$ right")
//!     .edge("a", "won", "goals[x] = 1").edge("won", "end", "player = keeper")
//!     .edge("b", "end", "player = keeper")
//!     .build().unwrap();
//! let engine = FastEngine::new(automaton).unwrap();
//! let start = engine.start().unwrap();
//! assert_eq!(engine.format_moves(&engine.moves(&start).unwrap()), ["left", "right"]);
//! let after = engine.apply(&start, &engine.parse_move("left").unwrap()).unwrap();
//! assert_eq!(engine.scores(&after)[0].value, 1);
//! ```

mod graph;
mod linear_checks;
mod lines;
mod plan_steps;
mod program;
mod reach;
mod search;
mod tree;
mod values;

use search::SinglePath;
pub use search::{MoveList, Scratch};

use crate::automaton::{Automaton, NodeId, SymbolId, Type, VarId};
use crate::engine::{EngineError, ForwardModel, Move, Mover};
pub use crate::playout::PlayoutOutcome;
use crate::playout::{PlayoutConfig, PlayoutReport, Xoshiro256};
use crate::reference::layout::{Compiler, Layout};
use crate::reference::ReferenceEngine;
use program::{Ins, Lowering};
use std::cell::Cell;
use std::collections::HashSet;

/// Keeper moves applied in a row before the engine starts watching for a repeated state (as the
/// provided `settle` does).
const KEEPER_CYCLE_CHECK_AFTER: usize = 64;

/// A state of the fast engine: the current node and every variable's slots (reference layout).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FastState {
    node: NodeId,
    values: Box<[SymbolId]>,
}

impl FastState {
    /// The current node.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The flat slot buffer, laid out as the reference engine lays it out.
    pub fn values(&self) -> &[SymbolId] {
        &self.values
    }
}

/// One edge, ready to run.
#[derive(Debug)]
pub(crate) struct FastEdge {
    pub ins: Ins,
    pub target: NodeId,
    /// The edge assigns `player`, so a move ends on it.
    pub completes: bool,
    /// The out-edges of `target` (copied here so the search reads one record per step).
    pub target_edges: (u32, u32),
    /// Which searches may record their visits of `target`: bit [`CYCLE_IN_MOVES`] when it lies
    /// on a cycle of the move search's graph (context 0), bit [`CYCLE_IN_CHECKS`] when it lies
    /// on a cycle of some reachability check's graph. A search tests the bit of its kind, so the
    /// move search skips the per-visit test at nodes that only a check's graph puts on a cycle.
    pub target_on_cycle: u8,
    /// `target` has a single out-edge that the search may run without a frame.
    pub target_chains: bool,
    /// `target`'s out-edges are pairwise exclusive guards: the search tries them in order and
    /// follows the first that holds, without a frame ([`SELECTS`]; [`SELECTS_BY_SWITCH`] when
    /// `target` has a [`program::Switch`], which names that edge at once); 0 otherwise.
    pub target_selects: u8,
    /// For an any-assignment to a fixed slot whose target node's only out-edge is a comparison:
    /// that comparison's edge, so members failing it are skipped without entering the search
    /// loop ([`NO_EDGE`] otherwise).
    pub filter: u32,
    /// `ins` again in a flat form when it has one of the commonest shapes (module `program`,
    /// [`program::Hot`]), which the search runs with one dispatch instead of one per operand.
    pub hot: program::Hot,
}

/// See [`FastEdge::target_selects`].
pub(crate) const SELECTS: u8 = 1;
/// See [`FastEdge::target_selects`].
pub(crate) const SELECTS_BY_SWITCH: u8 = 2;

/// See [`FastEdge::target_on_cycle`].
pub(crate) const CYCLE_IN_MOVES: u8 = 1;
/// See [`FastEdge::target_on_cycle`].
pub(crate) const CYCLE_IN_CHECKS: u8 = 2;

/// No edge (see [`FastEdge::filter`]).
pub(crate) const NO_EDGE: u32 = u32::MAX;

/// The fast engine. Immutable once built; share `&FastEngine` between threads and give each thread
/// its own [`Scratch`].
#[derive(Debug)]
pub struct FastEngine {
    pub(crate) automaton: Automaton,
    pub(crate) constants: Vec<SymbolId>,
    pub(crate) edges: Vec<FastEdge>,
    pub(crate) node_edges: Vec<(u32, u32)>,
    /// Per search kind (0: the move search, then one per reachability check): where it records
    /// visited states.
    pub(crate) contexts: Vec<graph::Context>,
    pub(crate) player_slot: u32,
    pub(crate) valid_player: Vec<bool>,
    initial_values: Box<[SymbolId]>,
    goal_slots: Vec<u32>,
    visible_slots: Vec<u32>,
    /// Indexed by symbol: the player number, `usize::MAX` for non-players.
    player_number: Vec<usize>,
    /// The reference engine on the same automaton, for state descriptions.
    describer: ReferenceEngine,
    /// Playouts list tags only (and re-search the picked move) after a position with more moves.
    tags_only_above: usize,
    /// Per context (as `contexts`): the reachability pair's lean plan, when it has one.
    pub(crate) plans: Vec<Option<reach::ReachPlan>>,
    pub(crate) plan_mode: ReachPlans,
    /// Per context (as `plans`): the plan resolved to a [`search::MemberGrid`], when it is a lone
    /// filter of that shape and plans are [`ReachPlans::On`] (with plans off or checked, every
    /// check takes its usual path).
    pub(crate) member_grids: Vec<Option<search::MemberGrid>>,
    /// Per context (as `plans`): the plan resolved to a [`lines::LineCheck`], which a forced
    /// keeper walk runs in place of `reach`, when it has that shape and plans are
    /// [`ReachPlans::On`].
    pub(crate) line_checks: Vec<Option<lines::LineCheck>>,
    /// Per node: every path the move search can walk from it is forced (every node reached
    /// before a move completes has a single followable out-edge), so a keeper move from it is
    /// applied in place ([`Scratch::apply_single_path`]).
    single_path: Vec<bool>,
    /// Whether keeper moves from [`FastEngine::single_path`] nodes are applied in place.
    keeper_in_place: bool,
    /// Per node: its move search as one choice and a straight chain ([`LinearMoves`]), if it is.
    pub(crate) linear: Vec<Option<LinearMoves>>,
    /// Per node without a linear search: its move search as nested choices over straight steps
    /// (module `tree`), if it is.
    pub(crate) trees: Vec<Option<Box<tree::MoveTree>>>,
    /// Per node: its out-edges as a [`program::Switch`], when they are comparisons of one slot.
    pub(crate) switches: Vec<Option<Box<program::Switch>>>,
}

/// A move search that is one choice followed by a straight path: the start node's only out-edge
/// is an any-assignment `x = T(*)` to a fixed slot, and from its target every node has a single
/// out-edge, none an any-assignment, up to an edge completing the move; no node of it lies on a
/// cycle of the move search's graph (so no visit is recorded). Tic-tac-toe's `cell = Cell(*);
/// board[cell] == empty; $$ cell; player = keeper`, connect four's column drop.
///
/// [`Scratch::search`] then runs one loop over the members (the chain's edges one after another
/// for each, the filter comparison first when the any-assignment has one) instead of the general
/// frame machinery. It is the general search's walk: the same members in the same order, the same
/// edges on the same states, so the same moves and the same first error. Only searches where
/// every move has its own tags qualify, so moves are appended without the look-up by tags: the
/// chain tags the chosen slot (`$$ cell`) before anything may write that slot, the members are
/// distinct, and every member that completes runs the same edges, so the tag at that position
/// tells the members apart.
#[derive(Debug)]
pub(crate) struct LinearMoves {
    /// The any-assignment's edge.
    pub choice: u32,
    /// The comparison at the choice's target when it is the choice's filter
    /// ([`FastEdge::filter`]), run on each member before anything is written; [`NO_EDGE`] if none.
    pub filter: u32,
    /// The edges after the choice and the filter, in order; the last one completes the move.
    pub chain: Box<[u32]>,
    /// The node the completing edge enters.
    pub completed: NodeId,
    /// Every edge of `chain` runs on any slot buffer without the search's machinery (module
    /// `search`, `run_detached`): assignments to fixed or slot-keyed targets, comparisons, tags.
    /// The search then builds each move's successor in the move list itself (copy, then run the
    /// chain on the copy) instead of running the chain on the working state and undoing it.
    pub detached: bool,
    /// No edge of `chain` can fail or raise an error (assignments to fixed slots, `player` only
    /// to a player literal, tags): the moves are exactly the members passing the filter, in
    /// order. A playout then counts those, picks one and runs the chain for it alone
    /// ([`Scratch::linear_choices`]), with no move list at all.
    pub immediate: bool,
    /// How many edges at the start of `chain` are reachability checks (reversi's `? legalAt`).
    /// `immediate` is false when there are any (its playout path runs no check).
    pub checks: u32,
    /// There are checks, and no edge of `chain` after them can fail or raise an error: the
    /// moves are the members passing the filter and the checks, in order, and a playout lists
    /// them so, with no move list (module `linear_checks`).
    pub checked_immediate: bool,
}

/// Chains longer than this are left to the general search (they may be anything but common).
const LINEAR_CHAIN_LIMIT: usize = 64;

/// [`LinearMoves`] per node, where the move search has that shape.
fn linear_move_searches(
    node_edges: &[(u32, u32)],
    edges: &[FastEdge],
    moves: &graph::Context,
) -> Vec<Option<LinearMoves>> {
    let on_cycle = |edge: &FastEdge| edge.target_on_cycle & CYCLE_IN_MOVES != 0;
    (0..node_edges.len())
        .map(|node| {
            let (first, end) = node_edges[node];
            if end != first + 1 || moves.flags[node] & graph::CYCLIC != 0 {
                return None;
            }
            let choice = &edges[first as usize];
            let program::Hot::SetAnySlot { slot, members } = &choice.hot else { return None };
            if choice.completes || on_cycle(choice) {
                return None;
            }
            let mut chain = Vec::new();
            let mut at = choice.target;
            loop {
                let (first, end) = node_edges[at as usize];
                if end != first + 1 || chain.len() >= LINEAR_CHAIN_LIMIT {
                    return None;
                }
                let edge = &edges[first as usize];
                if matches!(edge.ins, Ins::SetAny { .. }) || on_cycle(edge) {
                    return None;
                }
                chain.push(first);
                if edge.completes {
                    break;
                }
                at = edge.target;
            }
            // Up to the tag of the chosen slot, the edges must not write it: only comparisons,
            // other tags and assignments to other fixed slots.
            let mut tags_choice = false;
            for &edge in &chain {
                match &edges[edge as usize].ins {
                    Ins::TagVal(program::Val::Slot(tagged)) if tagged == slot => {
                        tags_choice = true;
                        break;
                    }
                    // A check leaves the state as it found it.
                    Ins::Compare { .. } | Ins::Reach { .. } | Ins::Skip | Ins::Tag(_) | Ins::TagVal(_) => {}
                    Ins::Set { target: program::Target::Fixed(written), .. } if written != slot => {}
                    _ => break,
                }
            }
            let mut distinct = members.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            // Without that proof the general search (with its look-up by tags) runs.
            if !tags_choice || distinct.len() != members.len() {
                return None;
            }
            let completed = edges[*chain.last().expect("a chain ends with its move") as usize].target;
            let filter = if choice.filter == chain[0] { chain.remove(0) } else { NO_EDGE };
            let detached = chain.iter().all(|&edge| search::runs_detached(&edges[edge as usize]));
            let checks =
                chain.iter().take_while(|&&edge| matches!(edges[edge as usize].ins, Ins::Reach { .. })).count() as u32;
            // Whether a chain is immediate is decided once value sets are known (`FastEngine::new`).
            Some(LinearMoves {
                choice: first,
                filter,
                chain: chain.into(),
                completed,
                detached,
                immediate: false,
                checks,
                checked_immediate: false,
            })
        })
        .collect()
}

/// Whether the chain of a detached linear move search can neither fail nor raise an error, given
/// the value sets of the state's slots: every edge is [`search::never_fails`] or a write
/// `m[k] = v` whose key `k` provably lies in `m`'s domain. The proof follows the chain with the
/// sets of the slots it writes (the choice slot holds its members) and with the fact the filter
/// established (`top[column] != null` narrows a later `cell = top[column]` while nothing the read
/// depends on has been written), so connect four's `board[cell] = me` qualifies.
fn proves_immediate(
    linear: &LinearMoves,
    edges: &[FastEdge],
    values: &values::SlotValues,
    write_ranges: &[Vec<(u32, u32)>],
    player_slot: u32,
    valid_player: &[bool],
) -> bool {
    use program::{Target, Val};
    let program::Hot::SetAnySlot { slot: choice_slot, members } = &edges[linear.choice as usize].hot else {
        return false;
    };
    let mut local: Vec<(u32, values::Symbols)> = vec![(*choice_slot, values.set_of(members))];
    // The filter held on the state the chain starts from: `read == lit` (or `!=`).
    let mut fact: Option<(&Val, SymbolId, bool)> = match edges.get(linear.filter as usize).map(|e| &e.ins) {
        Some(Ins::Compare { lhs, rhs: Val::Lit(lit), equal })
        | Some(Ins::Compare { lhs: Val::Lit(lit), rhs: lhs, equal }) => Some((lhs, *lit, *equal)),
        _ => None,
    };
    for &edge in linear.chain.iter() {
        let fast_edge = &edges[edge as usize];
        let lookup = |slot: u32| local.iter().rev().find(|(s, _)| *s == slot).map(|(_, set)| set.clone());
        match &fast_edge.ins {
            Ins::Set { target: Target::Indexed { key, offsets, default_offset, .. }, .. } => {
                let keys = lookup(*key).unwrap_or_else(|| values.of_slot(*key));
                let outside = |k: &u32| offsets.get(*k as usize).is_none_or(|block| block == default_offset);
                if values.members(&keys).iter().any(outside) {
                    return false;
                }
            }
            _ if search::never_fails(fast_edge, player_slot, valid_player) => {}
            _ => return false,
        }
        let written = match &fast_edge.ins {
            Ins::Set { target: Target::Fixed(slot), value } => {
                let mut set = values.of_val(value, &lookup);
                if let Some((_, lit, equal)) = fact.filter(|(read, ..)| *read == value) {
                    set = if equal { values.set_of(&[lit]) } else { values.without(set, lit) };
                }
                Some((*slot, set))
            }
            _ => None,
        };
        let ranges = &write_ranges[edge as usize];
        let hit = |slot: u32| ranges.iter().any(|&(start, end)| (start..end).contains(&slot));
        local.retain(|(slot, _)| !hit(*slot));
        if fact
            .is_some_and(|(read, ..)| ranges.iter().any(|&(start, end)| (start..end).any(|s| reach::may_read(read, s))))
        {
            fact = None;
        }
        local.extend(written);
    }
    true
}

/// Whether reachability checks with a plan (module `reach`) run it or the general search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReachPlans {
    /// Every check runs the general search.
    Off,
    /// Checks with a plan run it (the default).
    On,
    /// Checks with a plan run both the plan and the general search and report any disagreement
    /// as [`EngineError::Malformed`] (for tests).
    Checked,
}

/// The default of [`FastEngine::with_tags_only_above`].
const TAGS_ONLY_ABOVE: usize = 64;

/// Reachability checks with a graph analysis of their own (one per `(from, to)` pair); further
/// pairs share one analysis of the whole graph.
const MAX_REACH_CONTEXTS: usize = 1024;

thread_local! {
    static SPARE_SCRATCH: Cell<Option<Scratch>> = const { Cell::new(None) };
}

/// Runs `f` with this thread's spare scratch (a fresh one if it is in use further up the stack).
fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    let mut scratch = SPARE_SCRATCH.with(|spare| spare.take()).unwrap_or_default();
    let result = f(&mut scratch);
    SPARE_SCRATCH.with(|spare| spare.set(Some(scratch)));
    result
}

/// The [`search::MemberGrid`] of each plan of `plans` that has one, under plan mode `mode`.
fn member_grids(plans: &[Option<reach::ReachPlan>], mode: ReachPlans) -> Vec<Option<search::MemberGrid>> {
    plans.iter().map(|plan| plan.as_ref().filter(|_| mode == ReachPlans::On).and_then(search::MemberGrid::of)).collect()
}

/// The [`lines::LineCheck`] of each plan of `plans` that has one, under plan mode `mode`.
fn line_checks(plans: &[Option<reach::ReachPlan>], mode: ReachPlans) -> Vec<Option<lines::LineCheck>> {
    plans.iter().map(|plan| plan.as_ref().filter(|_| mode == ReachPlans::On).and_then(lines::LineCheck::of)).collect()
}

impl FastEngine {
    /// Prepares an automaton; one that breaks the compiler->runtime contract is an
    /// [`EngineError::Malformed`] (the same checks as [`ReferenceEngine::new`]).
    pub fn new(automaton: Automaton) -> Result<Self, EngineError> {
        // The reference engine validates the tables; the fast engine reuses its layout and checks.
        let describer = ReferenceEngine::new(automaton.clone())?;
        let layout = Layout::new(&automaton)?;
        let compiler = Compiler { automaton: &automaton, layout: &layout };
        let lowering = Lowering { automaton: &automaton, layout: &layout };
        let mut edges = Vec::with_capacity(automaton.edges.len());
        for edge in &automaton.edges {
            let op = compiler.label(&edge.label)?;
            let completes = matches!(&edge.label, crate::automaton::Label::Assign { lhs, .. } | crate::automaton::Label::AssignAny { lhs, .. } if *lhs == crate::automaton::Expr::Var(automaton.player_var));
            let ins = lowering.ins(&op);
            edges.push(FastEdge {
                hot: program::Hot::of(&ins, automaton.symbols.len()),
                ins,
                target: edge.target,
                completes,
                target_edges: (0, 0),
                target_on_cycle: 0,
                target_chains: false,
                target_selects: 0,
                filter: NO_EDGE,
            });
        }
        let node_edges: Vec<(u32, u32)> = automaton.nodes.iter().map(|n| (n.edges.start, n.edges.end)).collect();
        let switches: Vec<Option<Box<program::Switch>>> = node_edges
            .iter()
            .map(|&(first, end)| {
                let out = edges[first as usize..end as usize].iter().map(|edge| &edge.hot);
                program::Switch::of(out, automaton.symbols.len()).map(Box::new)
            })
            .collect();
        let chainable: Vec<bool> = edges.iter().map(|e| !matches!(e.ins, Ins::SetAny { .. })).collect();
        let selects: Vec<bool> = node_edges
            .iter()
            .map(|&(first, end)| {
                let out = &edges[first as usize..end as usize];
                out.len() >= 2
                    && out
                        .iter()
                        .enumerate()
                        .all(|(i, a)| out[i + 1..].iter().all(|b| program::exclusive(&a.ins, &b.ins)))
            })
            .collect();
        let deterministic: Vec<bool> = node_edges
            .iter()
            .zip(&selects)
            .map(|(&(first, end), &select)| select || end <= first || (end == first + 1 && chainable[first as usize]))
            .collect();
        let single_path = single_path_nodes(&node_edges, &edges, &deterministic);
        let (contexts, plans) = {
            let effects: Vec<graph::EdgeEffect> = automaton
                .edges
                .iter()
                .zip(&edges)
                .map(|(e, f)| graph::EdgeEffect {
                    source: e.source,
                    target: e.target,
                    in_graph: f.completes,
                    writes: program::writes(&f.ins, &layout),
                    advance: program::advance(&f.ins),
                })
                .collect();
            let node_count = automaton.nodes.len();
            // Context 0: the move search (`in_graph` holds `completes` until here).
            let mut contexts = vec![graph::Context::new(node_count, &effects, &deterministic, |e| !e.in_graph)];
            let mut pairs: Vec<(u32, u32)> = edges
                .iter()
                .filter_map(|e| match e.ins {
                    Ins::Reach { from, to, .. } => Some((from, to)),
                    _ => None,
                })
                .collect();
            pairs.sort_unstable();
            pairs.dedup();
            // One analysis per checked pair; past a bound, the rest share one over every edge.
            pairs.truncate(MAX_REACH_CONTEXTS);
            for &(_, to) in &pairs {
                contexts.push(graph::Context::new(node_count, &effects, &deterministic, |e| e.source != to));
            }
            contexts.push(graph::Context::new(node_count, &effects, &deterministic, |_| true));
            for edge in &mut edges {
                if let Ins::Reach { from, to, context, .. } = &mut edge.ins {
                    *context = match pairs.binary_search(&(*from, *to)) {
                        Ok(index) => index as u32 + 1,
                        Err(_) => pairs.len() as u32 + 1,
                    };
                }
            }
            let mut plans: Vec<Option<reach::ReachPlan>> = (0..contexts.len()).map(|_| None).collect();
            for (index, &(from, to)) in pairs.iter().enumerate() {
                plans[index + 1] = reach::plan(from, to, &edges, &node_edges, &selects, &contexts[index + 1]);
            }
            (contexts, plans)
        };
        for index in 0..edges.len() {
            let target = edges[index].target as usize;
            let (first, end) = node_edges[target];
            let single = end == first + 1;
            let filter = match (&edges[index].ins, single.then(|| &edges[first as usize])) {
                (Ins::SetAny { target: program::Target::Fixed(_), .. }, Some(guard))
                    if matches!(guard.ins, Ins::Compare { .. }) =>
                {
                    first
                }
                _ => NO_EDGE,
            };
            let edge = &mut edges[index];
            edge.target_edges = (first, end);
            edge.target_chains = single && chainable[first as usize];
            edge.target_selects = match (selects[target], switches[target].is_some()) {
                (false, _) => 0,
                (true, false) => SELECTS,
                (true, true) => SELECTS_BY_SWITCH,
            };
            let cyclic_in = |c: &graph::Context| c.flags[target] & graph::CYCLIC != 0;
            edge.target_on_cycle = if cyclic_in(&contexts[0]) { CYCLE_IN_MOVES } else { 0 }
                | if contexts[1..].iter().any(cyclic_in) { CYCLE_IN_CHECKS } else { 0 };
            edge.filter = filter;
        }
        let player_slot = layout.var_offsets[automaton.player_var as usize];
        let mut linear = linear_move_searches(&node_edges, &edges, &contexts[0]);
        let mut valid_player = vec![false; automaton.symbols.len()];
        for &p in automaton.players.iter().chain([&automaton.keeper, &automaton.random]) {
            valid_player[p as usize] = true;
        }
        // Move searches start where a move ended (and at `begin`); the linear ones are taken.
        let mut trees: Vec<Option<Box<tree::MoveTree>>> = (0..node_edges.len()).map(|_| None).collect();
        let starts = edges.iter().filter(|e| e.completes).map(|e| e.target).chain([automaton.begin]);
        for start in starts {
            let start = start as usize;
            if trees[start].is_none() && linear[start].is_none() {
                trees[start] = tree::move_tree(
                    start as NodeId,
                    &edges,
                    &node_edges,
                    &selects,
                    &contexts[0],
                    player_slot,
                    &valid_player,
                )
                .map(Box::new);
            }
        }

        let player_map_slots = |variable: VarId| -> Vec<u32> {
            let base = layout.var_offsets[variable as usize];
            let ty = automaton.variables[variable as usize].ty;
            let Type::Map { key, .. } = automaton.types[ty as usize] else {
                unreachable!("the reference engine checked that `{variable}` is a map from players")
            };
            let key_count = program::set_members(&automaton, key).len() as u32;
            automaton.players.iter().map(|&p| base + layout.block_of(key, p, key_count)).collect()
        };
        let write_ranges: Vec<Vec<(u32, u32)>> = edges.iter().map(|e| program::writes(&e.ins, &layout)).collect();
        let mut slot_values: Option<values::SlotValues> = None;
        for moves in linear.iter_mut().flatten() {
            let never_fails = |edge: &u32| search::never_fails(&edges[*edge as usize], player_slot, &valid_player);
            moves.immediate = moves.chain[moves.checks as usize..].iter().all(never_fails);
            if moves.checks > 0 {
                (moves.checked_immediate, moves.immediate) = (moves.immediate, false);
            }
            // A chain whose only possible failures are writes through a key outside a map's
            // domain may still be immediate when value sets prove every such key inside.
            let keyed_write = |edge: &u32| {
                matches!(edges[*edge as usize].ins, Ins::Set { target: program::Target::Indexed { .. }, .. })
            };
            if !moves.immediate && moves.detached && moves.chain.iter().all(|e| never_fails(e) || keyed_write(e)) {
                let values = slot_values.get_or_insert_with(|| {
                    values::SlotValues::compute(&edges, &layout.initial_values, automaton.symbols.len(), &write_ranges)
                });
                moves.immediate = proves_immediate(moves, &edges, values, &write_ranges, player_slot, &valid_player);
            }
        }
        let goal_slots = player_map_slots(automaton.goals_var);
        let visible_slots = player_map_slots(automaton.visible_var);
        let mut player_number = vec![usize::MAX; automaton.symbols.len()];
        for (index, &p) in automaton.players.iter().enumerate() {
            if player_number[p as usize] == usize::MAX {
                player_number[p as usize] = index;
            }
        }
        Ok(FastEngine {
            constants: layout.const_values.clone(),
            initial_values: layout.initial_values.clone().into_boxed_slice(),
            automaton,
            edges,
            node_edges,
            contexts,
            player_slot,
            valid_player,
            goal_slots,
            visible_slots,
            player_number,
            describer,
            tags_only_above: TAGS_ONLY_ABOVE,
            member_grids: member_grids(&plans, ReachPlans::On),
            line_checks: line_checks(&plans, ReachPlans::On),
            plans,
            plan_mode: ReachPlans::On,
            single_path,
            keeper_in_place: true,
            linear,
            trees,
            switches,
        })
    }

    /// Sets how many moves a playout position must have had before the next search lists tags
    /// only (and the picked move is searched again for its successor); results never depend on it.
    pub fn with_tags_only_above(mut self, moves: usize) -> Self {
        self.tags_only_above = moves;
        self
    }

    /// Sets whether reachability checks run their lean plans (module `reach`); results never
    /// depend on it, except that [`ReachPlans::Checked`] turns a disagreement into an error.
    pub fn with_reach_plans(mut self, mode: ReachPlans) -> Self {
        self.plan_mode = mode;
        self.member_grids = member_grids(&self.plans, mode);
        self.line_checks = line_checks(&self.plans, mode);
        self
    }

    /// Sets whether keeper moves whose every path is forced are applied in place (the default)
    /// or found by the general search; results never depend on it.
    pub fn with_keeper_in_place(mut self, enabled: bool) -> Self {
        self.keeper_in_place = enabled;
        self
    }

    /// Sets whether move searches of the [`LinearMoves`] shape run their one-loop forms (the
    /// default: the member loop, the detached successors, the immediate picks of playouts) or the
    /// general search; results never depend on it.
    pub fn with_linear_moves(mut self, enabled: bool) -> Self {
        if !enabled {
            self.linear.iter_mut().for_each(|linear| *linear = None);
        }
        self
    }

    /// Sets whether move searches of the move-tree shape (module `tree`: nested choices over
    /// straight steps) run as one walk over their steps (the default) or by the general search;
    /// results never depend on it.
    pub fn with_move_trees(mut self, enabled: bool) -> Self {
        if !enabled {
            self.trees.iter_mut().for_each(|tree| *tree = None);
        }
        self
    }

    /// How many nodes have a move tree, and how many of those are grouped (module `tree`).
    pub fn move_tree_counts(&self) -> (usize, usize) {
        let trees = self.trees.iter().flatten();
        (trees.clone().count(), trees.filter(|tree| tree.grouped).count())
    }

    /// How many nodes have a linear move search, how many of those are detached, and how many
    /// immediate (see [`LinearMoves`]).
    pub fn linear_move_counts(&self) -> (usize, usize, usize) {
        let linear = self.linear.iter().flatten();
        let detached = linear.clone().filter(|l| l.detached).count();
        (linear.clone().count(), detached, linear.filter(|l| l.immediate).count())
    }

    /// How many nodes have only forced move-search paths (keeper moves from them are applied in
    /// place).
    pub fn forced_node_count(&self) -> usize {
        self.single_path.iter().filter(|&&forced| forced).count()
    }

    /// How many reachability pairs have a lean plan, and how many pairs there are.
    pub fn reach_plan_count(&self) -> (usize, usize) {
        let pairs = self.plans.len().saturating_sub(2);
        (self.plans.iter().filter(|p| p.is_some()).count(), pairs)
    }

    /// A one-line summary of the compiled program: sizes and how many nodes record visited
    /// states (for benchmarks and tuning).
    pub fn summary(&self) -> String {
        let recorded = |context: &graph::Context| context.flags.iter().filter(|&&f| f & graph::RECORD != 0).count();
        let progress = |context: &graph::Context| context.progress.iter().filter(|p| p.is_some()).count();
        let reach = &self.contexts[1..];
        format!(
            "{} nodes, {} edges, {} state slots; the move search records visits at {} nodes ({} nodes lie on \
             cycles that advance a slot), {} reachability analyses record at {} nodes in all, {} checks have a \
             lean plan, {} move searches are move trees",
            self.node_edges.len(),
            self.edges.len(),
            self.initial_values.len(),
            recorded(&self.contexts[0]),
            progress(&self.contexts[0]),
            reach.len(),
            reach.iter().map(recorded).sum::<usize>(),
            self.reach_plan_count().0,
            self.move_tree_counts().0
        )
    }

    /// A fresh set of search buffers (one per thread).
    pub fn scratch(&self) -> Scratch {
        Scratch::default()
    }

    fn mover_of(&self, node: NodeId, values: &[SymbolId]) -> Mover {
        if node == self.automaton.end {
            return Mover::Terminal;
        }
        let player = values[self.player_slot as usize];
        if player == self.automaton.random {
            Mover::Random
        } else {
            match self.player_number.get(player as usize) {
                Some(&p) if p != usize::MAX => Mover::Player(p),
                _ => Mover::Keeper,
            }
        }
    }

    /// Lists the legal moves of `state` (keeper moves not applied to the successors) into
    /// `scratch.moves`; the move list is empty in a terminal state.
    pub fn generate(&self, state: &FastState, scratch: &mut Scratch) -> Result<(), EngineError> {
        scratch.load(state.node, &state.values);
        if state.node == self.automaton.end {
            scratch.moves.clear(state.values.len());
            return Ok(());
        }
        scratch.search(self, None)
    }

    /// The state after move `index` of the list [`FastEngine::generate`] left in `scratch`, keeper
    /// moves applied; `Ok(None)` when there is no such move. The working state and the move list
    /// of `scratch` are used up (generate again before the next call).
    pub fn successor(&self, scratch: &mut Scratch, index: usize) -> Result<Option<FastState>, EngineError> {
        if index >= scratch.moves.len() {
            return Ok(None);
        }
        scratch.take_move(index);
        self.settle_scratch(scratch)?;
        Ok(Some(FastState { node: scratch.node, values: scratch.values.clone().into_boxed_slice() }))
    }

    /// Applies keeper moves to the working state of `scratch` until someone else is to move.
    fn settle_scratch(&self, scratch: &mut Scratch) -> Result<(), EngineError> {
        let mut steps = 0;
        let mut seen: Option<HashSet<(NodeId, Vec<SymbolId>)>> = None;
        while self.mover_of(scratch.node, &scratch.values) == Mover::Keeper {
            // A forced keeper move is applied in place while no cycle check is due (the check
            // looks at the state before the move, which the in-place walk does not keep).
            if steps < KEEPER_CYCLE_CHECK_AFTER && self.keeper_in_place && self.single_path[scratch.node as usize] {
                match scratch.apply_single_path(self)? {
                    SinglePath::Moved => {
                        steps += 1;
                        continue;
                    }
                    SinglePath::NoMove => {
                        return Err(EngineError::KeeperMoveCount {
                            node: self.automaton.nodes[scratch.node as usize].name.clone(),
                            count: 0,
                        })
                    }
                    SinglePath::GaveUp => {}
                }
            }
            scratch.search(self, None)?;
            if scratch.moves.len() != 1 {
                return Err(EngineError::KeeperMoveCount {
                    node: self.automaton.nodes[scratch.node as usize].name.clone(),
                    count: scratch.moves.len(),
                });
            }
            steps += 1;
            if steps > KEEPER_CYCLE_CHECK_AFTER
                && !seen.get_or_insert_with(HashSet::new).insert((scratch.node, scratch.values.clone()))
            {
                return Err(EngineError::KeeperCycle {
                    node: self.automaton.nodes[scratch.node as usize].name.clone(),
                });
            }
            scratch.take_move(0);
        }
        Ok(())
    }

    /// Draws one of the `count` moves at `node` uniformly and counts the draw in `outcome` (a ply
    /// with its number of choices, or a chance move); no move at all is an unexpected end.
    #[inline(always)]
    fn draw_move(
        &self,
        node: NodeId,
        count: usize,
        mover: Mover,
        rng: &mut Xoshiro256,
        outcome: &mut PlayoutOutcome,
    ) -> Result<usize, EngineError> {
        if count == 0 {
            return Err(EngineError::UnexpectedEnd { node: self.automaton.nodes[node as usize].name.clone() });
        }
        let pick = rng.below(count as u64) as usize;
        if mover == Mover::Random {
            outcome.chance_moves += 1;
        } else {
            outcome.plies += 1;
            outcome.legal_moves += count as u64;
        }
        Ok(pick)
    }

    /// One uniform random playout from the start, with the same choices as
    /// [`crate::playout::run_playouts`] makes for the same generator.
    pub fn random_playout(
        &self,
        rng: &mut Xoshiro256,
        max_moves: u64,
        playout: u64,
        scratch: &mut Scratch,
    ) -> Result<PlayoutOutcome, EngineError> {
        let mut outcome = PlayoutOutcome::default();
        self.random_playout_into(rng, max_moves, playout, scratch, &mut outcome)?;
        Ok(outcome)
    }

    /// [`FastEngine::random_playout`] into an outcome the caller reuses (every field is
    /// overwritten; the goals buffer keeps its capacity, so the playout allocates nothing).
    pub fn random_playout_into(
        &self,
        rng: &mut Xoshiro256,
        max_moves: u64,
        playout: u64,
        scratch: &mut Scratch,
        outcome: &mut PlayoutOutcome,
    ) -> Result<(), EngineError> {
        scratch.load(self.automaton.begin, &self.initial_values);
        self.settle_scratch(scratch)?;
        outcome.plies = 0;
        outcome.chance_moves = 0;
        outcome.legal_moves = 0;
        let mut moves_made = 0u64;
        let mut last_count = 0;
        loop {
            let mover = self.mover_of(scratch.node, &scratch.values);
            if mover == Mover::Terminal {
                break;
            }
            if moves_made >= max_moves {
                return Err(EngineError::PlayoutTooLong { playout, limit: max_moves });
            }
            if let Some(linear) = self.linear[scratch.node as usize].as_ref().filter(|linear| linear.immediate) {
                // Every member passing the filter is a move and nothing can go wrong on the way:
                // pick among them and build the one successor.
                let count = scratch.linear_choices(self, linear);
                let pick = self.draw_move(scratch.node, count, mover, rng, outcome)?;
                last_count = count;
                moves_made += 1;
                scratch.take_linear_choice(self, linear, pick)?;
                self.settle_scratch(scratch)?;
                continue;
            }
            if let Some(tree) = self.trees[scratch.node as usize].as_deref() {
                if let Some(count) = self.play_tree_move(tree, scratch, mover, rng, outcome)? {
                    last_count = count;
                    moves_made += 1;
                    continue;
                }
                // Otherwise (an error to report, or equal tags whose successors need comparing)
                // the listing below decides.
            }
            if let Some(linear) = self.linear[scratch.node as usize].as_ref().filter(|linear| linear.checked_immediate)
            {
                last_count = self.play_checked_linear_move(linear, scratch, mover, rng, outcome)?;
                moves_made += 1;
                continue;
            }
            // With many moves, list tags only and re-search the picked move alone (its tags prune
            // every other path): one successor is copied instead of all of them. With few moves
            // the copies are cheaper than the second search.
            if last_count > self.tags_only_above {
                scratch.search_tags(self)?;
                if scratch.moves.saw_duplicate {
                    // Equal tags on two paths: compare their successors as the full search does.
                    scratch.search(self, None)?;
                }
            } else {
                scratch.search(self, None)?;
            }
            let count = scratch.moves.len();
            let pick = self.draw_move(scratch.node, count, mover, rng, outcome)?;
            last_count = count;
            moves_made += 1;
            if scratch.moves.tags_only() {
                scratch.picked.clear();
                scratch.picked.extend_from_slice(scratch.moves.tags(pick));
                let picked = std::mem::take(&mut scratch.picked);
                let found = scratch.search(self, Some(&picked));
                scratch.picked = picked;
                found?;
                if scratch.moves.is_empty() {
                    // The restricted search walks a subset of the paths that found this move.
                    return Err(EngineError::Malformed { message: "a listed move was not found again".into() });
                }
                scratch.take_move(0);
            } else {
                scratch.take_move(pick);
            }
            self.settle_scratch(scratch)?;
        }
        outcome.goals.clear();
        outcome.goals.extend(self.goal_slots.iter().map(|&slot| scratch.values[slot as usize]));
        Ok(())
    }

    /// A playout's ply at a move tree (module `tree`): lists the moves' tags and paths (no
    /// successors), draws one as [`FastEngine::draw_move`] does and replays its path, then
    /// settles; the number of moves, or `None` (nothing drawn, the state unchanged) when the
    /// listing needs the general search (an error to report, or equal tags on two paths).
    /// Out of line, so that the playout loop of the other games keeps its code as it was.
    #[inline(never)]
    fn play_tree_move(
        &self,
        tree: &tree::MoveTree,
        scratch: &mut Scratch,
        mover: Mover,
        rng: &mut Xoshiro256,
        outcome: &mut PlayoutOutcome,
    ) -> Result<Option<usize>, EngineError> {
        if !scratch.search_tree_paths(self, tree) {
            return Ok(None);
        }
        let count = scratch.moves.len();
        let pick = self.draw_move(scratch.node, count, mover, rng, outcome)?;
        scratch.take_tree_path(self, tree, pick);
        self.settle_scratch(scratch)?;
        Ok(Some(count))
    }

    /// [`crate::playout::run_playouts`] on the fast path: the same playouts (playout `i` seeded
    /// from `(seed, i)`), so the report equals the generic one except for the timings.
    pub fn run_playouts(&self, config: &PlayoutConfig) -> Result<PlayoutReport, EngineError> {
        crate::playout::run_indexed_playouts_into(
            config,
            || self.scratch(),
            crate::playout::each_playout(|rng, index, scratch, outcome| {
                self.random_playout_into(rng, config.max_moves, index, scratch, outcome)
            }),
            |goals| self.scores_of(goals),
        )
    }

    fn scores_of(&self, goals: &[SymbolId]) -> Vec<crate::engine::Score> {
        let automaton = &self.automaton;
        goals
            .iter()
            .map(|&symbol| {
                let value = automaton
                    .symbol_name(symbol)
                    .parse::<i64>()
                    .ok()
                    .unwrap_or_else(|| automaton.scores.iter().position(|&s| s == symbol).map_or(-1, |i| i as i64));
                crate::engine::Score { symbol, value }
            })
            .collect()
    }

    /// Perft counts at depths `0..=depth` on one thread, searching into reusable buffers (the
    /// same counts as [`crate::perft::perft`]).
    pub fn perft(&self, depth: usize) -> Result<Vec<u64>, EngineError> {
        let mut counts = vec![0; depth + 1];
        let start = self.start()?;
        let mut scratches: Vec<Scratch> = (0..=depth).map(|_| Scratch::default()).collect();
        self.perft_below(&start.node, &start.values, 0, depth, &mut counts, &mut scratches)?;
        Ok(counts)
    }

    fn perft_below(
        &self,
        node: &NodeId,
        values: &[SymbolId],
        level: usize,
        depth: usize,
        counts: &mut [u64],
        scratches: &mut [Scratch],
    ) -> Result<(), EngineError> {
        counts[level] += 1;
        if level == depth || *node == self.automaton.end {
            return Ok(());
        }
        let (scratch, deeper) = scratches.split_first_mut().expect("one scratch per remaining level");
        scratch.load(*node, values);
        let random = self.mover_of(*node, values) == Mover::Random;
        scratch.search(self, None)?;
        if scratch.moves.is_empty() {
            return Err(EngineError::UnexpectedEnd { node: self.automaton.nodes[*node as usize].name.clone() });
        }
        // Settle every child first (in the deeper scratch), then recurse; `random` children that
        // reach equal states count once.
        let mut children: Vec<(NodeId, Box<[SymbolId]>)> = Vec::with_capacity(scratch.moves.len());
        let mut seen = HashSet::new();
        for index in 0..scratch.moves.len() {
            let child = &mut deeper[0];
            child.load(scratch.moves.successor_node(index), scratch.moves.successor_values(index));
            self.settle_scratch(child)?;
            let settled = (child.node, child.values.clone().into_boxed_slice());
            if random && !seen.insert(settled.clone()) {
                continue;
            }
            children.push(settled);
        }
        for (child_node, child_values) in children {
            self.perft_below(&child_node, &child_values, level + 1, depth, counts, deeper)?;
        }
        Ok(())
    }

    /// The value of a set-typed variable, looked up by name (for tests and tools).
    pub fn variable_symbol(&self, state: &FastState, name: &str) -> Option<SymbolId> {
        let reference = self.describer.state_from_parts(state.node, state.values.to_vec())?;
        self.describer.variable_symbol(&reference, name)
    }
}

/// Per node: whether every path of the move search from it is forced. The greatest set of
/// deterministic nodes closed under following the edges that do not complete a move.
fn single_path_nodes(node_edges: &[(u32, u32)], edges: &[FastEdge], deterministic: &[bool]) -> Vec<bool> {
    let mut single = deterministic.to_vec();
    let mut changed = true;
    while changed {
        changed = false;
        for node in 0..node_edges.len() {
            if !single[node] {
                continue;
            }
            let (first, end) = node_edges[node];
            let forced = edges[first as usize..end as usize].iter().all(|e| e.completes || single[e.target as usize]);
            if !forced {
                single[node] = false;
                changed = true;
            }
        }
    }
    single
}

impl ForwardModel for FastEngine {
    type State = FastState;

    fn automaton(&self) -> &Automaton {
        &self.automaton
    }

    fn initial(&self) -> FastState {
        FastState { node: self.automaton.begin, values: self.initial_values.clone() }
    }

    fn node(&self, state: &FastState) -> NodeId {
        state.node
    }

    fn player_symbol(&self, state: &FastState) -> SymbolId {
        state.values[self.player_slot as usize]
    }

    fn visible_symbol(&self, state: &FastState, player: usize) -> SymbolId {
        state.values[self.visible_slots[player] as usize]
    }

    fn goal_symbol(&self, state: &FastState, player: usize) -> SymbolId {
        state.values[self.goal_slots[player] as usize]
    }

    fn describe_state(&self, state: &FastState) -> String {
        match self.describer.state_from_parts(state.node, state.values.to_vec()) {
            Some(reference) => self.describer.describe_state(&reference),
            None => format!("node: {}\n", self.node_name(state)),
        }
    }

    fn raw_successors(&self, state: &FastState) -> Result<Vec<(Move, FastState)>, EngineError> {
        with_scratch(|scratch| {
            scratch.load(state.node, &state.values);
            scratch.search(self, None)?;
            let moves = &scratch.moves;
            Ok((0..moves.len())
                .map(|i| {
                    let successor =
                        FastState { node: moves.successor_node(i), values: moves.successor_values(i).into() };
                    (moves.tags(i).to_vec(), successor)
                })
                .collect())
        })
    }

    fn raw_apply(&self, state: &FastState, tags: &[SymbolId]) -> Result<Option<FastState>, EngineError> {
        with_scratch(|scratch| {
            scratch.load(state.node, &state.values);
            scratch.search(self, Some(tags))?;
            let moves = &scratch.moves;
            Ok((!moves.is_empty())
                .then(|| FastState { node: moves.successor_node(0), values: moves.successor_values(0).into() }))
        })
    }

    fn settle(&self, state: FastState) -> Result<FastState, EngineError> {
        if self.mover_of(state.node, &state.values) != Mover::Keeper {
            return Ok(state);
        }
        with_scratch(|scratch| {
            scratch.load(state.node, &state.values);
            self.settle_scratch(scratch)?;
            Ok(FastState { node: scratch.node, values: scratch.values.clone().into_boxed_slice() })
        })
    }
}
