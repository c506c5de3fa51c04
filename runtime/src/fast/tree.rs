//! Move trees: move searches made of nested choices over straight steps, compiled at
//! construction into one array of steps that the search runs without frames.
//!
//! Breakthrough's move search is the shape: `from = Spot(*)` (filtered by `board[from] == me`),
//! `$$ from`, `course = Course(*)`, `to = advance[me][course][from]`, exclusive guards on `course`
//! and `board[to]`, `$$ to`, `player = keeper`. The general search walks it with a frame per
//! choice and, per edge, tests of the edge's flags (completes, on a cycle, chains, selects). Here
//! every node reachable from the search's start is one of
//!
//! - a *choice*: a lone any-assignment to a fixed slot (with the comparison after it as a member
//!   filter, as [`super::FastEdge::filter`]);
//! - a *run* of steps: a lone edge, or pairwise exclusive guards tried in order (at most one
//!   holds and a failing one writes nothing), each an assignment to a fixed slot, a comparison, a
//!   tag or a skip;
//! - a dead end;
//!
//! and no node lies on a cycle of the move search's graph. Each edge becomes a [`TreeStep`] whose
//! `pass` and `fail` are step indices ([`TREE_FAIL`]: backtrack to the innermost choice;
//! [`TREE_DONE`]: the edge completed a move), so the walk is one loop over steps plus a stack of
//! choices. It runs the general search's depth-first walk in the same order (members in order,
//! out-edges in order), on the same states, so it finds the same moves with the same successors.
//! Writes go through the undo log as in the general search; no reachability check, block copy or
//! keyed write appears, so the only runtime faults are a move completed with an invalid player
//! and two paths with the same tags but different successors, and the walk hands both to the
//! general search, which reports them.
//!
//! *Grouped moves*: when the root is a choice with distinct members and every path below it tags
//! the choice's slot first, before anything writes it (breakthrough's `$$ from`), moves of
//! different members differ in their first tag; a duplicate can only be a move of the same member,
//! so the de-duplication compares a new move's tags with the moves of the current member only
//! (a short scan) instead of hashing them.
//!
//! *Member paths*: a comparison of a choice's slot with a literal (`course == straight`) reached
//! from the choice before anything writes the slot has the same outcome for every visit with the
//! same member. Each member goes on at its own copy of the steps down to such comparisons, with
//! the comparisons decided ([`TreeStep::member_pass`]): the walk never dispatches them. The copy
//! runs the same edges in the same order on the same states, minus comparisons that write
//! nothing, so it finds the same moves. A two-key look-up whose first key is the slot
//! (`to = advance[course][from]`) becomes a look-up in the member's row. Copies stop at choices and at writes of the slot (shared
//! from there on), and are made only while the tree stays within [`MAX_TREE_STEPS`].
//!
//! *Folded player writes*: a playout's listing (tags only) records no successor, so a move's
//! last step `player = keeper` only says which player moves next; in the steps it walks
//! ([`MoveTree::path_steps`]) the step before (`$$ to`) completes the move with that player, one
//! step fewer per move, and replaying the picked move makes the write. Only a literal that is a
//! valid player is folded, so the listing does not check the player of a folded move.
//!
//! *Leaf choices*: a choice with no choice below it ([`TreeStep::leaf`], breakthrough's
//! `course = Course(*)`) never needs the walk's stack: the walk runs its members in an inner
//! loop (member, filter, straight steps, undo) with the choice's slot, members, filter and
//! undo mark held in locals, instead of pushing a level and re-reading it at every backtrack.
//! Same members in the same order on the same
//! states, so the same moves.
//!
//! Cost at construction: one visit per node reachable from each candidate start, at most
//! [`MAX_TREE_STEPS`] steps per tree.

use super::graph::{Context, CYCLIC};
use super::program::{Hot, Ins, Target, Val};
use super::{FastEdge, NO_EDGE};
use crate::automaton::NodeId;
use std::collections::HashMap;

/// A [`TreeStep`] target: the path fails (backtrack to the innermost choice).
pub(crate) const TREE_FAIL: u32 = u32::MAX;
/// A [`TreeStep::pass`] target: the step's edge completed a move (into its target node).
pub(crate) const TREE_DONE: u32 = u32::MAX - 1;
/// Trees have at most this many steps (so a path has far fewer tags than a tag cycle needs).
const MAX_TREE_STEPS: usize = 256;

/// A move search compiled into steps (see the module documentation).
#[derive(Debug)]
pub(crate) struct MoveTree {
    /// The step the search starts at.
    pub entry: u32,
    pub steps: Box<[TreeStep]>,
    /// The steps a playout's listing walks (tags only, see *Folded player writes*): `steps`, the
    /// same indices, with a move's last write of the player folded into the step before it.
    pub path_steps: Box<[TreeStep]>,
    /// The entry is a choice whose members' moves all differ in their first tag (see *Grouped
    /// moves* above): duplicates are looked for among the current member's moves only.
    pub grouped: bool,
    /// A move's *path*, the member index taken at each choice on it, which a playout records
    /// instead of the move's successor and replays for the move it picks ([`super::Scratch`],
    /// `take_tree_path`), is one number: the member at the k-th choice times `radix^k`, summed.
    /// `radix` is the most members of a choice (at least 2), and `radix^k` for the most choices
    /// k on one path fits in a `u64` (no tree is built otherwise): one word per move instead of
    /// one per choice.
    pub radix: u64,
}

/// One step: the edge to run (its flat form inline), and where the walk goes on.
#[derive(Clone, Debug)]
pub(crate) struct TreeStep {
    /// The edge's flat form ([`FastEdge::hot`]); [`Hot::SetAnySlot`] makes the step a choice,
    /// whose members the walk tries in turn, each going on at `pass`. [`Hot::General`] runs the
    /// edge's [`Ins`].
    pub hot: Hot,
    pub edge: u32,
    /// For a choice: the comparison right after it, run on each member before the walk goes on
    /// (at `pass`, after the comparison); [`NO_EDGE`] if none.
    pub filter: u32,
    /// After the edge held: a step, [`TREE_FAIL`] (a dead end) or [`TREE_DONE`].
    pub pass: u32,
    /// After the edge failed (a comparison): the next exclusive alternative (or, when that is
    /// this comparison's complement, which then holds, straight where it goes), or [`TREE_FAIL`].
    pub fail: u32,
    /// For a choice: where member `m` goes on, `pass` with the comparisons of the choice's own
    /// slot against literals already decided for `m` (see *Member paths* in the module
    /// documentation); empty for other steps.
    pub member_pass: Box<[u32]>,
    /// For a choice whose filter reads a state map at the member itself (`board[from] == me`):
    /// the map's cell of each member (`base + offsets[member]`), worked out here, so the walk
    /// tests a member with one read; empty otherwise.
    pub member_cells: Box<[u32]>,
    /// When `pass` is [`TREE_DONE`]: the edge whose target the move ends at (the step's own, or
    /// in [`MoveTree::path_steps`] the folded write's).
    pub done_edge: u32,
    /// In [`MoveTree::path_steps`], when `pass` is [`TREE_DONE`] and the move's last step writes
    /// a literal player (`player = keeper`) that is a valid player: that player, which the
    /// listing neither checks (proved here) nor writes.
    pub done_player: Option<u32>,
    /// For a choice: no choice lies below it (on any path from `pass`, and so from any
    /// `member_pass`, whose copies walk a subset of those paths), so the walk runs its members
    /// in one inner loop (see *Leaf choices* in the module documentation).
    pub leaf: bool,
}

impl TreeStep {
    fn is_choice(&self) -> bool {
        matches!(self.hot, Hot::SetAnySlot { .. })
    }
}

/// Whether `second` holds exactly when `first` fails: the same comparison with the other sign.
fn complement(first: &Ins, second: &Ins) -> bool {
    match (first, second) {
        (Ins::Compare { lhs: a, rhs: b, equal: e1 }, Ins::Compare { lhs: c, rhs: d, equal: e2 }) => {
            e1 != e2 && ((a == c && b == d) || (a == d && b == c))
        }
        _ => false,
    }
}

/// Whether the edge is a step a tree can run: an assignment to a fixed slot, a comparison, a tag
/// or a skip (any form that needs no undo of anything but fixed slots and raises no error).
fn runnable(edge: &FastEdge) -> bool {
    match &edge.hot {
        Hot::SetAnySlot { .. } | Hot::SetCellLit { .. } | Hot::SetCellSlot { .. } => false,
        Hot::General => matches!(
            &edge.ins,
            Ins::Skip | Ins::Compare { .. } | Ins::Tag(_) | Ins::TagVal(_) | Ins::Set { target: Target::Fixed(_), .. }
        ),
        _ => true,
    }
}

/// An edge's flat form as a tree step runs it: the tabulated comparisons (`Hot::CompareSlotIn`,
/// ...) run their general instruction, as before they existed (the tree walk's code and
/// instruction counts were tuned without them; see spec/engines.md, session 24).
fn tree_hot(hot: &Hot) -> Hot {
    match hot {
        Hot::CompareSlotIn { .. } | Hot::CompareSlotPair { .. } | Hot::CompareSlotCell { .. } => Hot::General,
        other => other.clone(),
    }
}

/// The slot an edge writes, if it writes one fixed slot.
fn written_slot(edge: &FastEdge) -> Option<u32> {
    match &edge.ins {
        Ins::Set { target: Target::Fixed(slot), .. } | Ins::SetAny { target: Target::Fixed(slot), .. } => Some(*slot),
        _ => None,
    }
}

/// Whether the edge tags the value of `slot`.
fn tags_slot(edge: &FastEdge, slot: u32) -> bool {
    matches!(&edge.ins, Ins::TagVal(Val::Slot(tagged)) if *tagged == slot)
}

/// `slot = table[values[first] * width + values[second]]` with `values[first] == value` known:
/// a look-up in the table's row for `value` (`to = advance[course][from]` for one course). Exact:
/// `width` is the number of symbols, so `values[second]` stays within the row.
fn row_lookup(hot: &Hot, known: u32, value: u32) -> Option<Hot> {
    let Hot::SetSlotLookup2 { slot, first, second, width, table } = hot else { return None };
    if *first != known || first == second {
        return None;
    }
    let start = value as usize * *width as usize;
    let row = table.get(start..start + *width as usize)?;
    Some(Hot::SetSlotLookup { slot: *slot, key: *second, table: row.into() })
}

/// The cells a choice's filter `board[slot] == lit` reads, one per member, when it reads a state
/// map at the choice's own slot (and every member has a cell).
fn member_cells(slot: u32, members: &[u32], filter: &Hot) -> Option<Box<[u32]>> {
    let Hot::CompareIndexedLit { base, key, offsets, .. } = filter else { return None };
    if *key != slot {
        return None;
    }
    members.iter().map(|&member| offsets.get(member as usize).map(|&offset| base + offset)).collect()
}

struct Builder<'a> {
    edges: &'a [FastEdge],
    node_edges: &'a [(u32, u32)],
    selects: &'a [bool],
    moves: &'a Context,
    steps: Vec<TreeStep>,
    entries: HashMap<NodeId, u32>,
}

impl Builder<'_> {
    /// The first step of `node`'s edges, building them (and everything below) on first use;
    /// `None` when some node below does not fit a tree.
    fn entry(&mut self, node: NodeId) -> Option<u32> {
        if let Some(&entry) = self.entries.get(&node) {
            return Some(entry);
        }
        if self.moves.flags[node as usize] & CYCLIC != 0 {
            return None;
        }
        let edges = self.edges;
        let (first, end) = self.node_edges[node as usize];
        if first == end {
            self.entries.insert(node, TREE_FAIL);
            return Some(TREE_FAIL);
        }
        let lone = end == first + 1;
        let edge = &edges[first as usize];
        if lone && matches!(edge.hot, Hot::SetAnySlot { .. }) {
            if edge.completes {
                return None;
            }
            let at = self.reserve(node, 1)?;
            let (filter, pass) = if edge.filter != NO_EDGE {
                let filter = &edges[edge.filter as usize];
                if self.moves.flags[edge.target as usize] & CYCLIC != 0 || !runnable(filter) {
                    return None;
                }
                (edge.filter, self.entry(filter.target)?)
            } else {
                (NO_EDGE, self.entry(edge.target)?)
            };
            let member_cells = match (&edge.hot, filter) {
                (Hot::SetAnySlot { slot, members }, filter) if filter != NO_EDGE => {
                    member_cells(*slot, members, &edges[filter as usize].hot).unwrap_or_default()
                }
                _ => Box::new([]),
            };
            self.steps[at as usize] = TreeStep {
                hot: tree_hot(&edge.hot),
                edge: first,
                member_cells,
                filter,
                pass,
                fail: TREE_FAIL,
                member_pass: Box::new([]),
                done_edge: first,
                done_player: None,
                leaf: false,
            };
            return Some(at);
        }
        if !lone && !self.selects[node as usize] {
            return None;
        }
        if !(first..end).all(|e| runnable(&edges[e as usize])) {
            return None;
        }
        let at = self.reserve(node, end - first)?;
        for (index, e) in (first..end).enumerate() {
            let edge = &edges[e as usize];
            let pass = if edge.completes { TREE_DONE } else { self.entry(edge.target)? };
            let step = &mut self.steps[(at as usize) + index];
            (step.hot, step.edge, step.pass, step.done_edge) = (tree_hot(&edge.hot), e, pass, e);
        }
        // Failing guards go on with the next alternative; when that is the guard's complement
        // (`course == straight`, then `course != straight`), which holds, straight where it goes.
        for e in first..end.saturating_sub(1) {
            let index = (at + e - first) as usize;
            self.steps[index].fail = if complement(&edges[e as usize].ins, &edges[e as usize + 1].ins) {
                self.steps[index + 1].pass
            } else {
                at + e - first + 1
            };
        }
        Some(at)
    }

    /// Reserves `count` consecutive steps for `node`'s edges (filled in by the caller).
    fn reserve(&mut self, node: NodeId, count: u32) -> Option<u32> {
        let at = self.steps.len() as u32;
        if self.steps.len() + count as usize > MAX_TREE_STEPS {
            return None;
        }
        for _ in 0..count {
            self.steps.push(TreeStep {
                hot: Hot::General,
                edge: 0,
                filter: NO_EDGE,
                pass: TREE_FAIL,
                fail: TREE_FAIL,
                member_pass: Box::new([]),
                member_cells: Box::new([]),
                done_edge: 0,
                done_player: None,
                leaf: false,
            });
        }
        self.entries.insert(node, at);
        Some(at)
    }

    /// Fills every choice's [`TreeStep::member_pass`] (see *Member paths* in the module
    /// documentation); members whose copy would take the tree past [`MAX_TREE_STEPS`] go on at
    /// the choice's `pass`.
    fn member_paths(&mut self) {
        let mut copies = HashMap::new();
        for at in 0..self.steps.len() {
            let Hot::SetAnySlot { slot, members } = &self.steps[at].hot else { continue };
            let (slot, members, pass) = (*slot, members.clone(), self.steps[at].pass);
            let member_pass =
                members.iter().map(|&member| self.decided(pass, slot, member, &mut copies).unwrap_or(pass)).collect();
            self.steps[at].member_pass = member_pass;
        }
    }

    /// Step `at` for a walk on which `values[slot] == value` (nothing wrote `slot` since): the
    /// same step, or a copy whose comparisons of `slot` with a literal are decided (memoised in
    /// `copies`); `None` when the copy would not fit in [`MAX_TREE_STEPS`].
    fn decided(&mut self, at: u32, slot: u32, value: u32, copies: &mut HashMap<(u32, u32, u32), u32>) -> Option<u32> {
        let Some(step) = self.steps.get(at as usize) else { return Some(at) };
        if let Some(&copy) = copies.get(&(at, slot, value)) {
            return Some(copy);
        }
        let result = match &step.hot {
            Hot::CompareSlotLit { slot: compared, lit, equal } if *compared == slot => {
                let next = if (value == *lit) == *equal { step.pass } else { step.fail };
                self.decided(next, slot, value, copies)?
            }
            // Below a choice or a write of the slot, the member no longer decides anything.
            Hot::SetAnySlot { .. } => at,
            _ if written_slot(&self.edges[step.edge as usize]) == Some(slot) => at,
            _ => {
                let (pass, fail) = (step.pass, step.fail);
                let row = row_lookup(&step.hot, slot, value);
                let decided_pass = self.decided(pass, slot, value, copies)?;
                let decided_fail = self.decided(fail, slot, value, copies)?;
                if (decided_pass, decided_fail) == (pass, fail) && row.is_none() {
                    at
                } else if self.steps.len() >= MAX_TREE_STEPS {
                    return None;
                } else {
                    let step = &self.steps[at as usize];
                    let copy = TreeStep {
                        hot: row.unwrap_or_else(|| step.hot.clone()),
                        edge: step.edge,
                        filter: step.filter,
                        pass: decided_pass,
                        fail: decided_fail,
                        member_pass: Box::new([]),
                        member_cells: Box::new([]),
                        done_edge: step.done_edge,
                        done_player: None,
                        leaf: false,
                    };
                    self.steps.push(copy);
                    (self.steps.len() - 1) as u32
                }
            }
        };
        copies.insert((at, slot, value), result);
        Some(result)
    }

    /// Whether every path from step `at` tags `slot` before any other tag, before anything writes
    /// `slot`, and before a move completes.
    fn tags_first(&self, at: u32, slot: u32, seen: &mut Vec<bool>) -> bool {
        let Some(step) = self.steps.get(at as usize) else { return at == TREE_FAIL };
        if std::mem::replace(&mut seen[at as usize], true) {
            return true;
        }
        let edge = &self.edges[step.edge as usize];
        if tags_slot(edge, slot) {
            // This path is settled; an alternative after a failed guard is another path.
            return step.fail == TREE_FAIL || self.tags_first(step.fail, slot, seen);
        }
        let tags_other = matches!(edge.ins, Ins::Tag(_) | Ins::TagVal(_));
        if tags_other || written_slot(edge) == Some(slot) || step.pass == TREE_DONE {
            return false;
        }
        if step.is_choice() {
            // The filter only compares; every member goes on at `pass`.
            return self.tags_first(step.pass, slot, seen);
        }
        self.tags_first(step.pass, slot, seen) && (step.fail == TREE_FAIL || self.tags_first(step.fail, slot, seen))
    }
}

/// The move tree of the search from `start`, if its shape fits (see the module documentation).
/// `selects[n]`: `n`'s out-edges are pairwise exclusive guards; `moves`: the move search's graph
/// analysis.
pub(crate) fn move_tree(
    start: NodeId,
    edges: &[FastEdge],
    node_edges: &[(u32, u32)],
    selects: &[bool],
    moves: &Context,
    player_slot: u32,
    valid_player: &[bool],
) -> Option<MoveTree> {
    let mut builder = Builder { edges, node_edges, selects, moves, steps: Vec::new(), entries: HashMap::new() };
    let entry = builder.entry(start)?;
    let root = builder.steps.get(entry as usize)?;
    // A tree without a choice is a single path, which the general search walks as cheaply.
    if !builder.steps.iter().any(TreeStep::is_choice) {
        return None;
    }
    let grouped = if let Hot::SetAnySlot { slot, members } = &root.hot {
        let mut distinct = members.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let mut seen = vec![false; builder.steps.len()];
        distinct.len() == members.len() && builder.tags_first(root.pass, *slot, &mut seen)
    } else {
        false
    };
    // After the analyses above: a member's copy walks a subset of the paths from `pass`.
    builder.member_paths();
    let mut depths = vec![None; builder.steps.len()];
    let depth = choice_depth(&builder.steps, entry, &mut depths);
    for at in 0..builder.steps.len() {
        if builder.steps[at].is_choice() {
            // Depth 1: the choice itself is the only one on any path from it.
            builder.steps[at].leaf = choice_depth(&builder.steps, at as u32, &mut depths) == 1;
        }
    }
    let most_members = builder
        .steps
        .iter()
        .map(|step| match &step.hot {
            Hot::SetAnySlot { members, .. } => members.len(),
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    let radix = (most_members as u64).max(2);
    radix.checked_pow(u32::try_from(depth).ok()?)?;
    let path_steps = fold_player_writes(&builder.steps, player_slot, valid_player);
    Some(MoveTree { entry, steps: builder.steps.into(), path_steps, grouped, radix })
}

/// [`MoveTree::path_steps`]: a step that completes a move by writing a literal player
/// (`player = keeper`) records the player; a step before it that runs no comparison (whose
/// `pass` the walk takes whenever it runs: `$$ to`) completes the move itself, with that player
/// and edge (see *Folded player writes* in the module documentation).
fn fold_player_writes(steps: &[TreeStep], player_slot: u32, valid_player: &[bool]) -> Box<[TreeStep]> {
    // Only a valid player is folded (the listing then skips the check); an invalid one is
    // written and checked as any other, so the walk hands the move to the general search,
    // which reports it.
    let valid = |lit: u32| valid_player.get(lit as usize).copied().unwrap_or(false);
    let player_write = |step: &TreeStep| match step.hot {
        Hot::SetSlotLit { slot, lit } if slot == player_slot && step.pass == TREE_DONE && valid(lit) => Some(lit),
        _ => None,
    };
    let mut folded = steps.to_vec();
    for (at, step) in steps.iter().enumerate() {
        if let Some(player) = player_write(step) {
            folded[at].done_player = Some(player);
            continue;
        }
        let always_passes = matches!(
            step.hot,
            Hot::TagLit { .. }
                | Hot::TagSlot { .. }
                | Hot::SetSlotLit { .. }
                | Hot::SetSlotSlot { .. }
                | Hot::SetSlotLookup { .. }
                | Hot::SetSlotIndexed { .. }
                | Hot::SetSlotLookup2 { .. }
        );
        let Some(next) = steps.get(step.pass as usize) else { continue };
        if let (true, Some(player)) = (always_passes, player_write(next)) {
            let step = &mut folded[at];
            (step.pass, step.done_edge, step.done_player) = (TREE_DONE, next.done_edge, Some(player));
        }
    }
    folded.into()
}

/// The most choices on a path from step `at` (memoised in `depths`; the steps form a DAG).
fn choice_depth(steps: &[TreeStep], at: u32, depths: &mut [Option<usize>]) -> usize {
    let Some(step) = steps.get(at as usize) else { return 0 };
    if let Some(depth) = depths[at as usize] {
        return depth;
    }
    let depth = if step.is_choice() {
        1 + choice_depth(steps, step.pass, depths)
    } else {
        choice_depth(steps, step.pass, depths).max(choice_depth(steps, step.fail, depths))
    };
    depths[at as usize] = Some(depth);
    depth
}

#[cfg(test)]
mod tests {
    use super::Hot;
    use crate::automaton::builder::AutomatonBuilder;
    use crate::engine::ForwardModel;
    use crate::fast::FastEngine;

    /// A game of marking cells (`null` is full from the start): pick an empty cell (`$$ cell` first, or after the second tag
    /// when `cell_first` is false), then a direction: `l` looks at the next cell, `r` and `s` at
    /// the cell itself and end on the same tags; with `reset`, the right-hand path sets `dir = r`,
    /// so `r` and `s` give one move, and otherwise two paths with the same tags and different
    /// successors (an ambiguous move). The keeper marks the cell and ends the game when no cell
    /// is empty. `filter` is the comparison after `cell = Cell(*)`.
    fn game(cell_first: bool, reset: bool, filter: &str) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Cell", "{a, b, c, null}")
            .typedef("Disc", "{empty, full}")
            .typedef("Dir", "{l, r, s}")
            .constant("next", "Cell -> Cell", "{a: b, b: c, :null}")
            .variable("board", "Cell -> Disc", "{null: full, :empty}")
            .variable("cell", "Cell", "a")
            .variable("cursor", "Cell", "a")
            .variable("probe", "Cell", "a")
            .variable("dir", "Dir", "l");
        let (first, second) = if cell_first { ("$$ cell", "$$ cursor") } else { ("$$ cursor", "$$ cell") };
        let edges = [
            ("begin", "turn", "player = x"),
            ("turn", "picked", "cell = Cell(*)"),
            ("picked", "own", filter),
            ("own", "chose", "dir = Dir(*)"),
            ("chose", "left", "dir == l"),
            ("chose", "right", "dir != l"),
            ("left", "merged", "cursor = next[cell]"),
            ("right", "reset", "cursor = cell"),
            ("reset", "merged", if reset { "dir = r" } else { "" }),
            ("merged", "ok", "board[cursor] != full"),
            ("ok", "tagged", first),
            ("tagged", "tagged2", second),
        ];
        for (source, target, label) in edges.into_iter().chain(AFTER_THE_TAGS) {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    /// The successors (or the error) of every state reachable from the start, in order (each
    /// state once: with some filters a cell can be marked again, and the game never ends).
    fn every_successor(engine: &FastEngine) -> Vec<String> {
        let mut seen = Vec::new();
        let mut states = std::collections::HashSet::new();
        let mut frontier = vec![engine.start().expect("a start")];
        while let Some(state) = frontier.pop() {
            if !states.insert(format!("{state:?}")) {
                continue;
            }
            match engine.successors(&state) {
                Ok(successors) => {
                    seen.push(format!("{successors:?}"));
                    frontier.extend(successors.into_iter().map(|(_, next)| next));
                }
                Err(error) => seen.push(format!("{error:?}")),
            }
        }
        seen
    }

    #[test]
    fn nested_choices_run_as_a_tree_and_agree_with_the_general_search() {
        for (cell_first, reset, grouped) in [(true, true, 1), (false, true, 0), (true, false, 1)] {
            let filter = "board[cell] == empty";
            let tree = game(cell_first, reset, filter);
            assert_eq!(tree.move_tree_counts(), (1, grouped), "cell first: {cell_first}, reset: {reset}");
            let general = game(cell_first, reset, filter).with_move_trees(false);
            assert_eq!(general.move_tree_counts(), (0, 0));
            let (with, without) = (every_successor(&tree), every_successor(&general));
            assert_eq!(with, without, "cell first: {cell_first}, reset: {reset}");
            if reset {
                // `r` and `s` give one move: two per empty cell, but `l` from `c` looks at
                // `null`, which is full.
                assert_eq!(tree.perft(3).expect("perft"), general.perft(3).expect("perft"));
                let start = tree.start().expect("a start");
                assert_eq!(tree.moves(&start).expect("moves").len(), 5);
            } else {
                assert!(with[0].contains("AmbiguousMove"), "{}", with[0]);
            }
        }
    }

    /// The choice's filter, tested at the member without writing it when it reads a state map
    /// at the choice's slot (`board[cell] == empty`, or through a constant map, `board[next[cell]]
    /// != full`), and written then compared otherwise (`next[cell] != null`, no state map;
    /// `board[cursor] == empty`, another slot's key).
    #[test]
    fn choice_filters_at_the_member_and_elsewhere_agree_with_the_general_search() {
        for (filter, moves_at_start, at_member) in [
            ("board[cell] == empty", 5, true),
            ("board[next[cell]] != full", 4, true),
            ("next[cell] != null", 4, false),
            ("board[cursor] == empty", 5, false),
            ("board[cell] != empty", 0, true),
        ] {
            let tree = game(true, true, filter);
            assert_eq!(tree.move_tree_counts(), (1, 1), "{filter}");
            // The member's cell is worked out at construction exactly when the filter reads a
            // state map at the choice's slot: one per member (`a`, `b`, `c`, `null`; through
            // `next`, `c` and `null` read `board[null]`).
            let (cell_choice, _) = &choices(&tree)[0];
            let cells = &cell_choice.member_cells;
            assert_eq!(cells.len(), if at_member { 4 } else { 0 }, "{filter}: {cell_choice:?}");
            if at_member {
                let through_next = filter.contains("next");
                assert_eq!(cells[2] == cells[3], through_next, "{filter}: {cells:?}");
                assert_ne!(cells[0], cells[1], "{filter}: {cells:?}");
            }
            let general = game(true, true, filter).with_move_trees(false);
            assert_eq!(every_successor(&tree), every_successor(&general), "{filter}");
            // Counts, or the same error (a turn without moves where cells are left is one).
            assert_eq!(format!("{:?}", tree.perft(3)), format!("{:?}", general.perft(3)), "{filter}");
            let start = tree.start().expect("a start");
            // No move at the start is an error (an unexpected end), counted as 0 here.
            assert_eq!(tree.moves(&start).map_or(0, |moves| moves.len()), moves_at_start, "{filter}");
        }
    }

    /// Playouts list a tree's moves with tags only, their paths recorded (a choice leaves the
    /// walk's stack at its last member) and the move's last write of the player skipped, and
    /// replay the path of the move picked: the same reports as the general search, or the same
    /// error (without `reset`, two paths give the same tags and different successors).
    #[test]
    fn playouts_through_trees_agree_with_the_general_search() {
        let config = crate::playout::PlayoutConfig { count: 40, seed: 11, threads: 1, ..Default::default() };
        for reset in [true, false] {
            let filter = "board[cell] == empty";
            let tree = game(true, reset, filter);
            let general = game(true, reset, filter).with_move_trees(false);
            let summary = |engine: &FastEngine| match engine.run_playouts(&config) {
                Ok(report) => format!("{:?} {}", report.score_distribution, report.total_plies),
                Err(error) => format!("{error:?}"),
            };
            assert_eq!(summary(&tree), summary(&general), "reset: {reset}, {filter}");
        }
    }

    /// The choice steps of the engine's one move tree, with the step each member goes on at.
    fn choices(engine: &FastEngine) -> Vec<(&super::TreeStep, Vec<&super::TreeStep>)> {
        let tree = engine.trees.iter().flatten().next().expect("a move tree");
        tree.steps
            .iter()
            .filter(|step| step.is_choice())
            .map(|step| (step, step.member_pass.iter().map(|&at| &tree.steps[at as usize]).collect()))
            .collect()
    }

    /// *Member paths*: after `dir = Dir(*)` the guards `dir == l` / `dir != l` are decided per
    /// member, so `l` goes straight on at `cursor = next[cell]` and `r`, `s` at `cursor = cell`,
    /// while `cell = Cell(*)` (no comparison of `cell` on the way) keeps its `pass`; the moves
    /// are the general search's.
    #[test]
    fn member_paths_decide_the_comparisons_of_the_choice_slot() {
        let filter = "board[cell] == empty";
        let engine = game(true, true, filter);
        let choices = choices(&engine);
        assert_eq!(choices.len(), 2);
        let (cell, cell_members) = &choices[0];
        assert_eq!(cell_members.len(), 4);
        assert!(cell.member_pass.iter().all(|&at| at == cell.pass), "no comparison of `cell` to decide");
        let (_, dir_members) = &choices[1];
        let labels: Vec<String> =
            dir_members.iter().map(|step| format!("{:?}", engine.edges[step.edge as usize].ins)).collect();
        assert_eq!(labels.len(), 3);
        assert_ne!(labels[0], labels[1], "l and r go different ways: {labels:?}");
        assert_eq!(labels[1], labels[2], "r and s go the same way: {labels:?}");
        for step in dir_members {
            assert!(!matches!(step.hot, Hot::CompareSlotLit { .. }), "a decided guard is not run: {step:?}");
        }
        let general = game(true, true, filter).with_move_trees(false);
        assert_eq!(every_successor(&engine), every_successor(&general));
    }

    /// A write of the choice's slot before the comparison (`d = turn[d]`, then `d == l`) leaves
    /// the comparison to the walk: no member path is made, and the moves are those of the slot's
    /// new value (`l` and `r` turn to `r` and `s` and go on; `s` turns to `l`, a dead end).
    #[test]
    fn member_paths_stop_at_a_write_of_the_choice_slot() {
        let build = || {
            let mut builder = AutomatonBuilder::new();
            builder
                .typedef("Player", "{x}")
                .typedef("Score", "{0}")
                .typedef("Dir", "{l, r, s}")
                .constant("turn", "Dir -> Dir", "{l: r, r: s, :l}")
                .variable("d", "Dir", "l");
            let edges = [
                ("begin", "pick", "player = x"),
                ("pick", "chose", "d = Dir(*)"),
                ("chose", "turned", "d = turn[d]"),
                ("turned", "left", "d == l"),
                ("turned", "other", "d != l"),
                ("left", "stuck", "d == s"),
                ("other", "tagged", "$$ d"),
                ("tagged", "done", "player = keeper"),
                ("done", "end", "player = keeper"),
            ];
            for (source, target, label) in edges {
                builder.edge(source, target, label);
            }
            FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
        };
        let engine = build();
        assert_eq!(engine.move_tree_counts().0, 1);
        for (choice, _) in choices(&engine) {
            assert!(choice.member_pass.iter().all(|&at| at == choice.pass), "{choice:?}");
        }
        let start = engine.start().expect("a start");
        let moves = engine.moves(&start).expect("moves");
        let tags: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
        assert_eq!(tags.len(), 2, "{tags:?}");
        let general = build().with_move_trees(false);
        assert_eq!(format!("{:?}", general.moves(&start).expect("moves")), format!("{moves:?}"));
        assert_eq!(every_successor(&engine), every_successor(&general));
        let config = crate::playout::PlayoutConfig { count: 20, seed: 5, threads: 1, ..Default::default() };
        let (with, without) = (engine.run_playouts(&config), general.run_playouts(&config));
        let summary = |report: &crate::playout::PlayoutReport| (report.score_distribution.clone(), report.total_plies);
        assert_eq!(summary(&with.expect("playouts")), summary(&without.expect("playouts")));
    }

    /// The steps of the engine's one move tree that [`super::fold_player_writes`] changed: their
    /// form in `path_steps` and the edge they complete at.
    fn folded(engine: &FastEngine) -> Vec<(super::TreeStep, u32)> {
        let tree = engine.trees.iter().flatten().next().expect("a move tree");
        assert_eq!(tree.steps.len(), tree.path_steps.len());
        tree.steps
            .iter()
            .zip(tree.path_steps.iter())
            .filter(|(step, path_step)| step.pass != path_step.pass)
            .map(|(_, path_step)| (path_step.clone(), path_step.done_edge))
            .collect()
    }

    /// *Folded player writes*: `$$ cursor; player = keeper` completes at the tag in the steps a
    /// playout walks (the keeper checked, the write's edge recorded), and only there.
    #[test]
    fn a_moves_last_player_write_folds_into_the_tag_before_it() {
        let engine = game(true, true, "board[cell] == empty");
        let folded = folded(&engine);
        assert_eq!(folded.len(), 1, "{folded:?}");
        let (step, done_edge) = &folded[0];
        assert!(matches!(step.hot, Hot::TagSlot { .. }), "{step:?}");
        assert_eq!(step.pass, super::TREE_DONE);
        assert_eq!(step.done_player, Some(engine.automaton.keeper));
        let write = &engine.edges[*done_edge as usize];
        assert!(
            matches!(write.hot, Hot::SetSlotLit { slot, lit } if slot == engine.player_slot && lit == engine.automaton.keeper)
        );
        let tree = engine.trees.iter().flatten().next().expect("a move tree");
        assert!(tree.steps.iter().all(|step| step.done_player.is_none()), "the full listing writes the player");
    }

    /// A comparison before `player = keeper` is not folded (the walk does not complete a move
    /// at a comparison), and playouts agree with the general search either way.
    #[test]
    fn a_player_write_after_a_comparison_is_not_folded() {
        let build = |guarded: bool| {
            let mut builder = AutomatonBuilder::new();
            builder.typedef("Player", "{x}").typedef("Score", "{0}").typedef("Dir", "{l, r, s}");
            builder.variable("d", "Dir", "l").variable("e", "Dir", "l");
            // Two choices (one would be a linear search, not a tree).
            builder.edge("begin", "pick", "player = x").edge("pick", "chose", "d = Dir(*)");
            builder
                .edge("chose", "chose2", "e = Dir(*)")
                .edge("chose2", "tagged0", "$$ d")
                .edge("tagged0", "tagged", "$$ e");
            if guarded {
                builder.edge("tagged", "checked", "d != s").edge("checked", "done", "player = keeper");
            } else {
                builder.edge("tagged", "done", "player = keeper");
            }
            builder.edge("done", "end", "player = keeper");
            FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
        };
        for (guarded, folds, moves) in [(false, 1, 9), (true, 0, 6)] {
            let engine = build(guarded);
            assert_eq!(engine.move_tree_counts().0, 1);
            assert_eq!(folded(&engine).len(), folds, "guarded: {guarded}");
            let start = engine.start().expect("a start");
            assert_eq!(engine.moves(&start).expect("moves").len(), moves);
            let general = build(guarded).with_move_trees(false);
            let config = crate::playout::PlayoutConfig { count: 30, seed: 9, threads: 1, ..Default::default() };
            let summary = |engine: &FastEngine| {
                let report = engine.run_playouts(&config).expect("playouts");
                (report.score_distribution, report.total_plies)
            };
            assert_eq!(summary(&engine), summary(&general), "guarded: {guarded}");
        }
    }

    /// Only a valid player folds: `player = nobody` (no player) after the move's last tag stays
    /// a write in the steps a playout walks, so the listing checks it, and the playouts fail
    /// with the general search's error; `player = x` folds, carrying `x`.
    #[test]
    fn only_a_valid_player_write_folds() {
        let build = |next: &str| {
            let mut builder = AutomatonBuilder::new();
            builder.typedef("Player", "{x}").typedef("Score", "{0}").typedef("Dir", "{l, r, s}");
            builder.variable("d", "Dir", "l").variable("e", "Dir", "l");
            builder.edge("begin", "pick", "player = x").edge("pick", "chose", "d = Dir(*)");
            builder
                .edge("chose", "chose2", "e = Dir(*)")
                .edge("chose2", "tagged0", "$$ d")
                .edge("tagged0", "tagged", "$$ e")
                .edge("tagged", "done", &format!("player = {next}"))
                .edge("done", "end", "player = keeper");
            FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
        };
        let config = crate::playout::PlayoutConfig { count: 10, seed: 4, threads: 1, ..Default::default() };
        let summary = |engine: &FastEngine| match engine.run_playouts(&config) {
            Ok(report) => format!("{:?} {}", report.score_distribution, report.total_plies),
            Err(error) => format!("{error:?}"),
        };
        for (next, folds) in [("x", true), ("nobody", false)] {
            let engine = build(next);
            assert_eq!(engine.move_tree_counts().0, 1, "{next}");
            let folded = folded(&engine);
            if folds {
                assert_eq!(folded.len(), 1, "the tag before the write: {folded:?}");
                let x = engine.automaton.players[0];
                assert!(folded.iter().all(|(step, _)| step.done_player == Some(x)), "{folded:?}");
            } else {
                assert!(folded.is_empty(), "{folded:?}");
            }
            let general = build(next).with_move_trees(false);
            let (with, without) = (summary(&engine), summary(&general));
            assert_eq!(with, without, "{next}");
            assert_eq!(with.contains("InvalidPlayer"), !folds, "{next}: {with}");
        }
    }

    /// A path's number must fit in a word: 63 nested two-member choices make a tree (`2^63`
    /// paths), 64 do not, and their search is left to the general walk.
    #[test]
    fn trees_whose_paths_do_not_fit_in_a_word_are_not_built() {
        for (choices, trees) in [(63, 1), (64, 0)] {
            let mut builder = AutomatonBuilder::new();
            builder.typedef("Player", "{x}").typedef("Score", "{0}").typedef("Bit", "{o, i}");
            for k in 0..choices {
                builder.variable(&format!("b{k}"), "Bit", "o");
            }
            builder.edge("begin", "c0", "player = x");
            for k in 0..choices {
                builder.edge(&format!("c{k}"), &format!("c{}", k + 1), &format!("b{k} = Bit(*)"));
            }
            builder.edge(&format!("c{choices}"), "tagged", "$$ b0");
            builder.edge("tagged", "done", "player = keeper");
            builder.edge("done", "end", "player = keeper");
            let engine = FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine");
            assert_eq!(engine.move_tree_counts().0, trees, "{choices} choices");
        }
    }

    /// The test games' edges after a move's tags: the keeper fills `cell`, then the turn passes
    /// back while some cell is empty (`? probeFrom -> probeTo`) and the game ends otherwise.
    const AFTER_THE_TAGS: [(&str, &str, &str); 8] = [
        ("tagged2", "done", "player = keeper"),
        ("done", "filled", "board[cell] = full"),
        ("filled", "more", "? probeFrom -> probeTo"),
        ("filled", "over", "! probeFrom -> probeTo"),
        ("more", "turn", "player = x"),
        ("over", "end", "player = keeper"),
        ("probeFrom", "probed", "probe = Cell(*)"),
        ("probed", "probeTo", "board[probe] == empty"),
    ];

    /// A game whose move search picks `cell` (filtered `board[cell] == empty`), then `target`
    /// with `filter` after it (none when empty), and tags both.
    fn two_choices(filter: &str) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Cell", "{a, b, c, null}")
            .typedef("Disc", "{empty, full}")
            .variable("board", "Cell -> Disc", "{null: full, :empty}")
            .variable("cell", "Cell", "a")
            .variable("target", "Cell", "a")
            .variable("probe", "Cell", "a");
        builder
            .edge("begin", "turn", "player = x")
            .edge("turn", "picked", "cell = Cell(*)")
            .edge("picked", "own", "board[cell] == empty")
            .edge("own", "aimed", "target = Cell(*)");
        if filter.is_empty() {
            builder.edge("aimed", "kept", "");
        } else {
            builder.edge("aimed", "kept", filter);
        }
        let edges = [("kept", "tagged", "$$ cell"), ("tagged", "tagged2", "$$ target")];
        for (source, target, label) in edges.into_iter().chain(AFTER_THE_TAGS) {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    /// *Leaf choices*: the inner choice (`target = Cell(*)`, nothing chosen below it) is walked
    /// in one loop, the outer one (`cell`, a choice below) keeps its level; with its filter
    /// tested at the member's cell (`board[target] == empty`), written then tested (`target !=
    /// cell`) or none, the moves, successors and playouts are the general search's.
    #[test]
    fn leaf_choices_run_their_members_in_one_loop_and_agree_with_the_general_search() {
        for (filter, moves_at_start, cells) in [("board[target] == empty", 9, 4), ("target != cell", 9, 0), ("", 12, 0)]
        {
            let engine = two_choices(filter);
            assert_eq!(engine.move_tree_counts(), (1, 1), "{filter}");
            let choices = choices(&engine);
            let leaves: Vec<bool> = choices.iter().map(|(choice, _)| choice.leaf).collect();
            assert_eq!(leaves, [false, true], "{filter}");
            assert_eq!(choices[1].0.member_cells.len(), cells, "{filter}");
            let general = two_choices(filter).with_move_trees(false);
            let start = engine.start().expect("a start");
            assert_eq!(engine.moves(&start).expect("moves").len(), moves_at_start, "{filter}");
            assert_eq!(every_successor(&engine), every_successor(&general), "{filter}");
            assert_eq!(format!("{:?}", engine.perft(3)), format!("{:?}", general.perft(3)), "{filter}");
            let config = crate::playout::PlayoutConfig { count: 40, seed: 3, threads: 1, ..Default::default() };
            let summary = |engine: &FastEngine| {
                let report = engine.run_playouts(&config).expect("playouts");
                (report.score_distribution, report.total_plies)
            };
            assert_eq!(summary(&engine), summary(&general), "{filter}");
        }
    }
}
