//! The code generator's graph analysis: which nodes get a move-search or reachability function,
//! where a search can start, and where it must consult a visited set.
//!
//! A depth-first search over (node, state) terminates as long as every cycle it can walk holds a
//! node where it checks what it has seen. A search enters a cycle at its start node or through a
//! node with two or more in-edges, so only nodes on a cycle that are merge points or starts record
//! visits (the fast engine's rule, spec/engines.md). The move search stops at edges assigning
//! `player`, so its cycles are computed without those edges. A reachability check follows every
//! edge of its region (the nodes between its `from` nodes and its target, [`reach_targets`]), so
//! its cycles are those of the region.

use super::depths::{tag_depths, Depth};
use super::distinct::{SlotFacts, Walk};
use super::explore::{Explorer, Obligation};
use super::progress;
use super::values::ValueSets;
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanStep, PlanTransfer};
use std::collections::{BTreeMap, BTreeSet};

/// Per-node facts, indexed by node id.
pub(crate) struct Analysis {
    /// A move search may start here (`begin`, or the target of an edge assigning `player`).
    pub is_start: Vec<bool>,
    /// The move search can reach the node (it gets a function `m<N>`).
    pub in_moves: Vec<bool>,
    pub visit_in_moves: Vec<bool>,
    /// Some node a move search reaches lies on a cycle of the move search's graph (a visit may
    /// still be dropped there, progress.rs, but its tags are not bounded by the node count).
    pub cyclic_in_moves: bool,
    /// Per node, the tags every move-search path to it has pushed, where that does not depend
    /// on the path (depths.rs): a cycle without tags keeps moves' tags bounded.
    pub tag_depths: Vec<Depth>,
    /// The most tags one move can push when every cycle of the move search that carries a tag
    /// fills a map ([`filled_tag_bound`]); `None` when some other cycle carries one.
    pub filled_tag_bound: Option<usize>,
    /// Every move search reaching the node is proved to give each move's tags once (see
    /// [`unique_tags`]): moves completed here need no de-duplication.
    pub unique_moves: Vec<bool>,
    /// A search starting here completes only moves proved unique or de-duplicated within a scope
    /// (it never consults the global table), so a caller reading only successors need not record
    /// tags in the move buffer.
    pub unique_start: Vec<bool>,
    /// The node's function opens a de-duplication scope (see [`unique_tags`]).
    pub opens_scope: Vec<bool>,
    /// Moves completed here are compared with the moves of the open scope only.
    pub scoped_moves: Vec<bool>,
    /// Per node, the most moves a search passing it can complete below it
    /// ([`completion_bounds`]; `u64::MAX` on a cycle).
    pub completion_bounds: Vec<u64>,
    /// Per node, the targets of its edges that stay within a move (no `player` assignment).
    pub within_move: Vec<Vec<u32>>,
}

impl Analysis {
    /// `completes[e]`: edge `e` assigns `player`.
    pub fn new(automaton: &Automaton, plan: &Plan, completes: &[bool], values: &ValueSets) -> Analysis {
        let count = automaton.nodes.len();
        let mut within_move = vec![Vec::new(); count];
        let mut in_degree = vec![0u32; count];
        let mut is_start = vec![false; count];
        is_start[automaton.begin as usize] = true;
        for (edge, &completing) in automaton.edges.iter().zip(completes) {
            if completing {
                is_start[edge.target as usize] = true;
            } else {
                within_move[edge.source as usize].push(edge.target);
            }
            in_degree[edge.target as usize] += 1;
        }
        let in_moves = reachable(&within_move, &is_start);
        let move_components = cyclic_components(&within_move);
        let move_cyclic: Vec<bool> = move_components.iter().map(Option::is_some).collect();
        // Cycles along which a move search provably progresses need no visit (progress.rs).
        // So do cycles that fill a map (`progress::filling_nodes`).
        let (stepping, filling) = if move_cyclic.iter().zip(&in_moves).any(|(&c, &m)| c && m) {
            let mut facts = None;
            let stepping =
                progress::progressing_nodes(automaton, plan, values, &in_moves, &move_components, &mut facts);
            let filling = progress::filling_nodes(automaton, plan, values, &in_moves, &move_components, &mut facts);
            (stepping, filling)
        } else {
            (vec![false; count], vec![None; count])
        };
        let progressing: Vec<bool> = stepping.iter().zip(&filling).map(|(&s, f)| s || f.is_some()).collect();
        let filled_tag_bound = filled_tag_bound(automaton, plan, &in_moves, &move_components, &filling);
        let visit_in_moves =
            (0..count).map(|n| move_cyclic[n] && !progressing[n] && (in_degree[n] >= 2 || is_start[n])).collect();
        let Uniqueness { unique: unique_moves, opens_scope, scoped, completions: completion_bounds } =
            unique_tags(automaton, plan, completes, &is_start, &within_move, &move_cyclic, values);
        let unique_start = (0..count)
            .map(|start| {
                let mut roots = vec![false; count];
                roots[start] = true;
                let region = reachable(&within_move, &roots);
                is_start[start] && (0..count).all(|n| !region[n] || unique_moves[n] || scoped[n])
            })
            .collect();
        let cyclic_in_moves = (0..count).any(|n| move_cyclic[n] && in_moves[n]);
        let tag_depths = tag_depths(automaton, plan, completes, &is_start);
        Analysis {
            is_start,
            in_moves,
            visit_in_moves,
            cyclic_in_moves,
            tag_depths,
            filled_tag_bound,
            unique_moves,
            unique_start,
            opens_scope,
            scoped_moves: scoped,
            completion_bounds,
            within_move,
        }
    }
}

/// A bound on the tags one move pushes, when every cycle of the move search carrying a tag lies
/// in a component that fills a map (`filling[n]`: its passes, progress.rs). A path through the
/// move search crosses an edge outside every cycle at most once; inside a filling component `C`
/// the path between two filling writes runs in `C` without them, which is acyclic, so it crosses
/// each of `C`'s edges at most once per pass plus once. `None` when a tag lies on another cycle.
fn filled_tag_bound(
    automaton: &Automaton,
    plan: &Plan,
    in_moves: &[bool],
    component: &[Option<usize>],
    filling: &[Option<u32>],
) -> Option<usize> {
    let mut bound = 0usize;
    for (edge, record) in automaton.edges.iter().enumerate() {
        let (source, target) = (record.source as usize, record.target as usize);
        if !in_moves[source] || !matches!(plan.ops[edge], PlanOp::Tag(_) | PlanOp::TagExpr(_)) {
            continue;
        }
        bound += 1;
        if component[source].is_some() && component[source] == component[target] {
            bound = bound.checked_add(filling[source]? as usize)?;
        }
    }
    Some(bound)
}

/// What the tags of the paths from a node (or edge) to the end of the move can start with.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FirstTags {
    /// Some path completes the move without another tag.
    untagged: bool,
    tags: TagSet,
}

/// The first tags of the tagged paths.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TagSet {
    /// No path emits a tag.
    Nothing,
    /// Every first tag is one of these symbols.
    Symbols(BTreeSet<u32>),
    /// Every first tag is the value the state slot has when the path starts.
    Slot(u32),
    /// Anything.
    Unknown,
}

impl FirstTags {
    const NONE: FirstTags = FirstTags { untagged: false, tags: TagSet::Nothing };

    fn merge(&mut self, other: &FirstTags) {
        self.untagged |= other.untagged;
        self.tags = match (std::mem::replace(&mut self.tags, TagSet::Nothing), &other.tags) {
            (TagSet::Nothing, other) => other.clone(),
            (mine, TagSet::Nothing) => mine,
            (TagSet::Symbols(mut a), TagSet::Symbols(b)) => {
                a.extend(b);
                TagSet::Symbols(a)
            }
            (TagSet::Slot(a), TagSet::Slot(b)) if a == *b => TagSet::Slot(a),
            _ => TagSet::Unknown,
        };
    }

    fn completes(&self) -> bool {
        self.untagged || self.tags != TagSet::Nothing
    }

    /// No tag sequence can come from both sides.
    fn disjoint(&self, other: &FirstTags) -> bool {
        if !self.completes() || !other.completes() {
            return true;
        }
        if self.untagged && other.untagged {
            return false;
        }
        match (&self.tags, &other.tags) {
            (TagSet::Nothing, _) | (_, TagSet::Nothing) => true,
            (TagSet::Symbols(a), TagSet::Symbols(b)) => a.is_disjoint(b),
            _ => false,
        }
    }
}

/// The slot a place names when it has no computed key.
pub(crate) fn fixed_slot(place: &PlanPlace) -> Option<u32> {
    (place.in_state && place.steps.is_empty()).then_some(place.base)
}

/// The slots a write into `place` may change: the whole variable holding its base.
pub(crate) fn written_range(plan: &Plan, place: &PlanPlace) -> (u32, u32) {
    plan.var_slots
        .iter()
        .find(|&&(start, len)| place.base >= start && place.base < start + len)
        .map_or((0, u32::MAX), |&(start, len)| (start, start + len))
}

/// Two guards that cannot both hold in one state.
fn exclusive(first: &PlanOp, second: &PlanOp) -> bool {
    let literal_test = |op: &PlanOp| match op {
        PlanOp::Compare { lhs: PlanOperand::Place(place), rhs: PlanOperand::Literal(symbol), equal, .. }
        | PlanOp::Compare { lhs: PlanOperand::Literal(symbol), rhs: PlanOperand::Place(place), equal, .. } => {
            Some((place.clone(), *symbol, *equal))
        }
        _ => None,
    };
    match (first, second) {
        (PlanOp::Reach { from: f1, to: t1, negated: n1 }, PlanOp::Reach { from: f2, to: t2, negated: n2 }) => {
            f1 == f2 && t1 == t2 && n1 != n2
        }
        // `a == b` and `a != b` (either side order): one of the two holds in every state.
        (
            PlanOp::Compare { lhs: l1, rhs: r1, transfer: t1, equal: e1 },
            PlanOp::Compare { lhs: l2, rhs: r2, transfer: t2, equal: e2 },
        ) if e1 != e2
            && t1 == t2
            && ((l1 == l2 && r1 == r2) || (l1 == r2 && r1 == l2 && *t1 == PlanTransfer::Slot)) =>
        {
            true
        }
        _ => match (literal_test(first), literal_test(second)) {
            (Some((p1, s1, e1)), Some((p2, s2, e2))) if p1 == p2 => match (e1, e2) {
                (true, true) => s1 != s2,
                (true, false) | (false, true) => s1 == s2,
                (false, false) => false,
            },
            _ => false,
        },
    }
}

/// A scope de-duplicates the moves completed below one node that opens it; more than this many
/// completions below it and its search keeps the global de-duplication table.
const SCOPE_LIMIT: u64 = 16;

/// What [`unique_tags`] proves, per node.
pub(crate) struct Uniqueness {
    /// Moves completed here need no de-duplication.
    pub unique: Vec<bool>,
    /// The node opens a de-duplication scope.
    pub opens_scope: Vec<bool>,
    /// Moves completed here are compared with the moves of the open scope only.
    pub scoped: Vec<bool>,
    /// Per node, the most moves a search passing it can complete ([`completion_bounds`]).
    pub completions: Vec<u64>,
}

/// `unique[n]`: every move search that reaches node `n` gives each tag sequence at most once, so
/// the moves it completes need no de-duplication by tags (and cannot be ambiguous).
///
/// Two different paths of one search share a prefix up to the node where they part. They give
/// different tags when, at every such node, any two choices (two out-edges, or two values of one
/// `x = T(*)`) are either guards that cannot both hold, or lead to paths whose next tags differ:
/// different literal tags, or `$$ x` right after choosing `x` (with no write into `x` between).
/// A search is proved unique when its region (edges within one move) is acyclic and every node
/// in it passes that test; nodes that some unproved search reaches keep the de-duplication.
///
/// Scopes: two paths with the same tags part at a node that fails the test, and both complete
/// while that node's function runs. So in an acyclic region where every failing node has at most
/// [`SCOPE_LIMIT`] completions below it, each failing node opens a *scope* (unless one is open
/// already) and the moves completed below it are compared with the moves of the open scope only
/// (breakthrough's `course = Course(*)` then `to = advance(me, course, from)`, `$$ to`: at most 3
/// moves share a `from`). Completions that no failing node reaches stay unique.
pub(crate) fn unique_tags(
    automaton: &Automaton,
    plan: &Plan,
    completes: &[bool],
    is_start: &[bool],
    within_move: &[Vec<u32>],
    move_cyclic: &[bool],
    values: &ValueSets,
) -> Uniqueness {
    let count = automaton.nodes.len();
    // First tags per node, in reverse topological order (a cycle reads as `Unknown`, untagged).
    let mut node_tags: Vec<Option<FirstTags>> = vec![None; count];
    let mut on_path = vec![false; count];
    let edge_tags = |edge: usize, node_tags: &[Option<FirstTags>]| -> FirstTags {
        let target = automaton.edges[edge].target as usize;
        if completes[edge] {
            return FirstTags { untagged: true, tags: TagSet::Nothing };
        }
        let after = node_tags[target].clone().unwrap_or(FirstTags { untagged: true, tags: TagSet::Unknown });
        if !after.completes() {
            return FirstTags::NONE;
        }
        match &plan.ops[edge] {
            PlanOp::Tag(symbol) => FirstTags { untagged: false, tags: TagSet::Symbols(BTreeSet::from([*symbol])) },
            PlanOp::TagExpr(PlanOperand::Literal(symbol)) => {
                FirstTags { untagged: false, tags: TagSet::Symbols(BTreeSet::from([*symbol])) }
            }
            PlanOp::TagExpr(PlanOperand::Place(place)) => match fixed_slot(place) {
                Some(slot) => FirstTags { untagged: false, tags: TagSet::Slot(slot) },
                None => FirstTags { untagged: false, tags: TagSet::Unknown },
            },
            PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => {
                let (start, end) = written_range(plan, lhs);
                match after.tags {
                    TagSet::Slot(slot) if slot >= start && slot < end => {
                        FirstTags { untagged: after.untagged, tags: TagSet::Unknown }
                    }
                    _ => after,
                }
            }
            _ => after,
        }
    };
    for root in 0..count {
        if node_tags[root].is_some() {
            continue;
        }
        // Iterative post-order over the within-move graph.
        let mut stack = vec![(root, false)];
        while let Some((node, expanded)) = stack.pop() {
            if expanded {
                on_path[node] = false;
                let mut tags = FirstTags::NONE;
                for edge in automaton.nodes[node].edges.clone() {
                    tags.merge(&edge_tags(edge as usize, &node_tags));
                }
                node_tags[node] = Some(tags);
                continue;
            }
            if node_tags[node].is_some() || on_path[node] {
                continue;
            }
            on_path[node] = true;
            stack.push((node, true));
            for &next in &within_move[node] {
                if node_tags[next as usize].is_none() && !on_path[next as usize] {
                    stack.push((next as usize, false));
                }
            }
        }
    }
    // `walks`: exact first tags per tracked slot (`distinct`), for nodes the first test fails.
    // What the first two proofs leave unproved at a node (nothing: the node passes).
    let obligations = |node: usize, walks: &[(Walk, Vec<u32>)]| -> Vec<Obligation> {
        let mut left = Vec::new();
        let edges: Vec<usize> = automaton.nodes[node].edges.clone().map(|e| e as usize).collect();
        let tags: Vec<FirstTags> = edges.iter().map(|&e| edge_tags(e, &node_tags)).collect();
        for (i, &edge) in edges.iter().enumerate() {
            if let PlanOp::AssignAny { lhs, members, .. } = &plan.ops[edge] {
                if members.len() > 1 {
                    let target = automaton.edges[edge].target as usize;
                    let after =
                        node_tags[target].clone().unwrap_or(FirstTags { untagged: true, tags: TagSet::Unknown });
                    let own_tag = fixed_slot(lhs).is_some_and(|slot| after.tags == TagSet::Slot(slot));
                    let separated = !completes[edge]
                        && (!after.completes() || (!after.untagged && (own_tag || after.tags == TagSet::Nothing)));
                    let walked = || {
                        !completes[edge]
                            && walks.iter().any(|(walk, _)| {
                                fixed_slot(lhs) == Some(walk.slot()) && walk.separates_members(edge, members)
                            })
                    };
                    if !separated && !walked() {
                        left.push(Obligation::Members(edge));
                    }
                }
            }
            for j in i + 1..edges.len() {
                if !exclusive(&plan.ops[edge], &plan.ops[edges[j]])
                    && !tags[i].disjoint(&tags[j])
                    && !walks.iter().any(|(walk, held)| walk.separates(edge, edges[j], held))
                {
                    left.push(Obligation::Pair(edge, edges[j]));
                }
            }
        }
        left
    };
    let separated = |node: usize, walks: &[(Walk, Vec<u32>)]| obligations(node, walks).is_empty();
    let has_choice = |node: usize| {
        let edges = automaton.nodes[node].edges.clone();
        edges.len() >= 2
            || edges
                .into_iter()
                .any(|e| matches!(&plan.ops[e as usize], PlanOp::AssignAny { members, .. } if members.len() > 1))
    };
    let in_moves = reachable(within_move, is_start);
    let first_test: Vec<bool> = (0..count).map(|n| !move_cyclic[n] && separated(n, &[])).collect();
    let needs_walk: Vec<bool> = (0..count).map(|n| in_moves[n] && !first_test[n] && has_choice(n)).collect();
    let mut walked_ok = vec![false; count];
    if needs_walk.iter().any(|&n| n) {
        let walked = reachable(within_move, &needs_walk);
        let facts = SlotFacts::refined(automaton, plan, values, automaton.symbols.len());
        let tracked: BTreeSet<u32> = automaton
            .edges
            .iter()
            .enumerate()
            .filter(|(_, e)| walked[e.source as usize])
            .filter_map(|(index, _)| match &plan.ops[index] {
                PlanOp::TagExpr(PlanOperand::Place(place)) if place.in_state => fixed_slot(place),
                _ => None,
            })
            .collect();
        let walks: Vec<(Walk, Vec<u32>)> = tracked
            .into_iter()
            .filter_map(|slot| {
                let walk = Walk::new(automaton, plan, &facts, completes, slot, walked.clone())?;
                Some((walk, values.slot_members(slot)))
            })
            .collect();
        let mut explorer = Explorer::new(automaton, plan, &facts, completes, walked.clone());
        for node in 0..count {
            walked_ok[node] = needs_walk[node] && explorer.discharges(node, &obligations(node, &walks));
        }
    }
    // A node without a choice parts no paths; one with a choice needs either proof.
    let bad: Vec<bool> = (0..count).map(|n| has_choice(n) && !first_test[n] && !walked_ok[n]).collect();
    let completions = completion_bounds(automaton, plan, completes, move_cyclic);
    // Starts whose region holds a bad node that no small scope covers, then every node such a
    // start reaches; the bad nodes of the other starts open scopes.
    let mut unproved = vec![false; count];
    let mut scoped_starts = Vec::new();
    let regions: Vec<(usize, Vec<bool>)> = (0..count)
        .filter(|&n| is_start[n])
        .map(|start| {
            let mut roots = vec![false; count];
            roots[start] = true;
            (start, reachable(within_move, &roots))
        })
        .collect();
    for (start, region) in &regions {
        let bad_nodes: Vec<usize> = (0..count).filter(|&n| region[n] && bad[n]).collect();
        if bad_nodes.is_empty() {
            continue;
        }
        let acyclic = (0..count).all(|n| !region[n] || !move_cyclic[n]);
        if acyclic && bad_nodes.iter().all(|&n| completions[n] <= SCOPE_LIMIT) {
            scoped_starts.push((*start, region, bad_nodes));
        } else {
            unproved[*start] = true;
        }
    }
    // A scoped search must not meet a completion that uses the global table (its duplicate
    // would be in the scope, not in the table): such a search keeps the table everywhere.
    let tainted = loop {
        let tainted = reachable(within_move, &unproved);
        let mut changed = false;
        for (start, region, _) in &scoped_starts {
            if !unproved[*start] && (0..count).any(|n| region[n] && tainted[n]) {
                unproved[*start] = true;
                changed = true;
            }
        }
        if !changed {
            break tainted;
        }
    };
    let mut opens_scope = vec![false; count];
    for (start, _, bad_nodes) in &scoped_starts {
        if !unproved[*start] {
            for &n in bad_nodes {
                opens_scope[n] = true;
            }
        }
    }
    let below_scope = reachable(within_move, &opens_scope);
    Uniqueness {
        unique: (0..count).map(|n| !tainted[n] && !below_scope[n]).collect(),
        opens_scope: (0..count).map(|n| opens_scope[n] && !tainted[n]).collect(),
        scoped: (0..count).map(|n| !tainted[n] && below_scope[n]).collect(),
        completions,
    }
}

/// Per node: how many moves a search passing it can complete below it (saturating; `u64::MAX`
/// on a cycle). A choice `x = T(*)` multiplies by its member count.
fn completion_bounds(automaton: &Automaton, plan: &Plan, completes: &[bool], move_cyclic: &[bool]) -> Vec<u64> {
    let count = automaton.nodes.len();
    let mut bounds: Vec<Option<u64>> = vec![None; count];
    for root in 0..count {
        let mut stack = vec![(root, false)];
        while let Some((node, expanded)) = stack.pop() {
            if bounds[node].is_some() {
                continue;
            }
            if move_cyclic[node] {
                bounds[node] = Some(u64::MAX);
                continue;
            }
            let edges = automaton.nodes[node].edges.clone();
            if expanded {
                let mut total = 0u64;
                for edge in edges {
                    let edge = edge as usize;
                    let below = if completes[edge] {
                        1
                    } else {
                        bounds[automaton.edges[edge].target as usize].unwrap_or(u64::MAX)
                    };
                    let choices = match &plan.ops[edge] {
                        PlanOp::AssignAny { members, .. } => members.len() as u64,
                        _ => 1,
                    };
                    total = total.saturating_add(below.saturating_mul(choices));
                }
                bounds[node] = Some(total);
                continue;
            }
            stack.push((node, true));
            for edge in edges {
                let edge = edge as usize;
                let target = automaton.edges[edge].target as usize;
                if !completes[edge] && bounds[target].is_none() {
                    stack.push((target, false));
                }
            }
        }
    }
    bounds.into_iter().map(|b| b.unwrap_or(u64::MAX)).collect()
}

/// How the generator emits the reachability checks into one target node (`? from -> to` for
/// every `from`): functions `r<node>_<to>` for the nodes of its region only.
pub(crate) struct ReachTarget {
    /// The nodes a check walks: reachable from one of its `from` nodes without entering `to`,
    /// and able to reach `to`. Edges leaving the region lead nowhere the check can succeed, so
    /// they are not followed (their labels are not evaluated either).
    pub region: Vec<bool>,
    /// Region nodes where the check records visits: on a cycle of the region and a merge point
    /// (two or more in-edges within the region) or a start, except those
    /// [`drop_fan_in_visits`] drops.
    pub visits: Vec<bool>,
    /// Region nodes whose visit [`drop_fan_in_visits`] dropped: they still count a step against
    /// an unchecked search's budget (`Search::count_step`), so an unchecked walk recurses no
    /// deeper per budget unit than with the visit (without it, hex's walks overflowed the stack).
    pub counted_steps: Vec<bool>,
    /// No error can occur in the check and it needs no visited set: its functions are plain
    /// `fn(&mut Values) -> bool` with no bookkeeping (no `enter_reach`/`leave_reach`).
    pub pure: bool,
    /// The check writes these slots only (at most [`MAX_PROGRESS_SLOTS`]) and nests no check,
    /// so the states it visits differ from its entry state in these slots only: a visit is keyed
    /// by (node, their values), set by the generator ([`progress_slots`]).
    pub progress_slots: Option<Vec<u32>>,
}

/// The most slots a visit key ([`ReachTarget::progress_slots`]) holds.
pub(crate) const MAX_PROGRESS_SLOTS: usize = 2;

/// The slots a check's region writes, when every edge it walks writes one fixed set-valued slot
/// (`x = e` or `x = T(*)`) or nothing, there are at most [`MAX_PROGRESS_SLOTS`] of them, and no
/// edge nests a check.
pub(crate) fn progress_slots(automaton: &Automaton, plan: &Plan, to: u32, region: &[bool]) -> Option<Vec<u32>> {
    let mut slots = BTreeSet::new();
    for (index, edge) in automaton.edges.iter().enumerate() {
        let (source, target) = (edge.source as usize, edge.target as usize);
        if !region[source] || !(region[target] || target == to as usize) {
            continue;
        }
        match &plan.ops[index] {
            PlanOp::Skip | PlanOp::Compare { .. } | PlanOp::Tag(_) | PlanOp::TagExpr(_) => {}
            PlanOp::Reach { from, to, .. } if from == to => {}
            PlanOp::Reach { .. } => return None,
            PlanOp::Assign { lhs, transfer: PlanTransfer::Slot, .. } | PlanOp::AssignAny { lhs, .. } => {
                slots.insert(fixed_slot(lhs)?);
            }
            PlanOp::Assign { .. } => return None,
        }
    }
    (slots.len() <= MAX_PROGRESS_SLOTS).then(|| slots.into_iter().collect())
}

/// The slots a pure check keeps in registers: its functions take each one's value as an argument
/// (`r<slot>`) instead of writing it into the state and restoring it, so a cursor walked along
/// a line lives in a register and the compiler need not store it at every step (a board read
/// through a computed index could otherwise read it). `edges` are the edges the check walks.
///
/// A slot qualifies when some edge writes it as `slot = e` or `slot = T(*)` (a fixed set-valued
/// slot, the member loop's variable), every edge that may write its variable is such a write, and no state read or write through a
/// computed key can reach it (each such place's slot range, from its offset tables, excludes
/// it); the check must nest no check (a nested one reads the state) and copy or compare no
/// blocks. Exact: the functions then read the slot nowhere but through the argument, and the
/// state the check leaves is the one it found, as before (it restored every write). A ring of
/// the check that steps the slot (`cursor = next[cursor]`, loops.rs) qualifies the same way: its
/// loop steps a local copy of the argument instead of the state.
/// Cost: one pass over the edges per candidate slot.
pub(crate) fn register_slots(plan: &Plan, edges: &[usize]) -> Vec<u32> {
    let ops: Vec<&PlanOp> = edges.iter().map(|&edge| &plan.ops[edge]).collect();
    let unsupported = ops.iter().any(|op| match op {
        PlanOp::Reach { .. } => true,
        PlanOp::Assign { transfer, .. } | PlanOp::Compare { transfer, .. } => *transfer != PlanTransfer::Slot,
        _ => false,
    });
    if unsupported {
        return Vec::new();
    }
    let candidates: BTreeSet<u32> = ops
        .iter()
        .filter_map(|op| match op {
            PlanOp::Assign { lhs, transfer: PlanTransfer::Slot, .. } | PlanOp::AssignAny { lhs, .. } => fixed_slot(lhs),
            _ => None,
        })
        .collect();
    candidates
        .into_iter()
        .filter(|&slot| {
            ops.iter().all(|op| {
                let plain_write = match op {
                    PlanOp::Assign { lhs, transfer: PlanTransfer::Slot, .. } | PlanOp::AssignAny { lhs, .. } => {
                        fixed_slot(lhs) == Some(slot)
                    }
                    _ => false,
                };
                let writes = super::known::op_writes(plan, op, slot);
                (plain_write || !writes) && !op_may_reach_computed(op, slot)
            })
        })
        .collect()
}

/// Whether some place of `op` read or written through a computed key may be `slot`.
fn op_may_reach_computed(op: &PlanOp, slot: u32) -> bool {
    let operand = |operand: &PlanOperand| match operand {
        PlanOperand::Literal(_) => false,
        PlanOperand::Place(place) => place_may_reach_computed(place, slot),
    };
    match op {
        PlanOp::Assign { lhs, rhs, .. } => place_may_reach_computed(lhs, slot) || operand(rhs),
        PlanOp::AssignAny { lhs, .. } => place_may_reach_computed(lhs, slot),
        PlanOp::Compare { lhs, rhs, .. } => operand(lhs) || operand(rhs),
        PlanOp::TagExpr(value) => operand(value),
        PlanOp::Skip | PlanOp::Reach { .. } | PlanOp::Tag(_) => false,
    }
}

/// Whether `place` (or a place its keys read) is a state place with a computed key whose slot
/// range (its base plus the least to the greatest offset of each step) holds `slot`.
fn place_may_reach_computed(place: &PlanPlace, slot: u32) -> bool {
    let keys = place.steps.iter().any(|step| match &step.key {
        PlanOperand::Literal(_) => false,
        PlanOperand::Place(key) => place_may_reach_computed(key, slot),
    });
    if keys || !place.in_state || place.steps.is_empty() {
        return keys;
    }
    let (mut low, mut high) = (place.base as u64, place.base as u64);
    for step in &place.steps {
        let offsets = step.offsets.iter().chain([&step.default_offset]);
        low += offsets.clone().min().copied().unwrap_or(0) as u64;
        high += offsets.max().copied().unwrap_or(0) as u64;
    }
    (low..=high).contains(&(slot as u64))
}

/// The reachability checks of an automaton by target node. `checks` lists every `(from, to)`
/// with `from != to`; `fallible[e]` says whether edge `e`'s label can fail (a write through a
/// computed key); `plan.ops[e]` is edge `e`'s operation (a nested check, when it is one).
pub(crate) fn reach_targets(
    automaton: &Automaton,
    plan: &Plan,
    values: &ValueSets,
    checks: &[(u32, u32)],
    fallible: &[bool],
) -> BTreeMap<u32, ReachTarget> {
    let nested: Vec<Option<u32>> = plan
        .ops
        .iter()
        .map(|op| match op {
            PlanOp::Reach { from, to, .. } if from != to => Some(*to),
            _ => None,
        })
        .collect();
    let count = automaton.nodes.len();
    let mut successors = vec![Vec::new(); count];
    let mut predecessors = vec![Vec::new(); count];
    for edge in &automaton.edges {
        successors[edge.source as usize].push(edge.target);
        predecessors[edge.target as usize].push(edge.source);
    }
    let mut targets: BTreeMap<u32, ReachTarget> = BTreeMap::new();
    let mut facts = None;
    let mut depends: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let to_nodes: BTreeSet<u32> = checks.iter().map(|&(_, to)| to).collect();
    for &to in &to_nodes {
        let froms: Vec<u32> = checks.iter().filter(|&&(_, t)| t == to).map(|&(from, _)| from).collect();
        let mut roots = vec![false; count];
        roots[to as usize] = true;
        let reaches_to = reachable_avoiding(&predecessors, &roots, to);
        let mut region = vec![false; count];
        for &from in &froms {
            let mut roots = vec![false; count];
            roots[from as usize] = true;
            let walked = reachable_avoiding(&successors, &roots, to);
            for n in 0..count {
                region[n] |= walked[n] && reaches_to[n] && n != to as usize;
            }
        }
        // The region's own graph: its cycles and merge points decide where visits are recorded.
        let mut inner = vec![Vec::new(); count];
        let mut in_degree = vec![0u32; count];
        let mut impure = false;
        let mut needs = BTreeSet::new();
        for (index, edge) in automaton.edges.iter().enumerate() {
            let (source, target) = (edge.source as usize, edge.target as usize);
            if !region[source] || !(region[target] || target == to as usize) {
                continue;
            }
            impure |= fallible[index];
            if let Some(nested_to) = nested[index] {
                needs.insert(nested_to);
            }
            if region[target] {
                inner[source].push(edge.target);
                in_degree[target] += 1;
            }
        }
        let components = cyclic_components(&inner);
        let cyclic: Vec<bool> = components.iter().map(Option::is_some).collect();
        let merge_visits: Vec<bool> =
            (0..count).map(|n| region[n] && cyclic[n] && (in_degree[n] >= 2 || froms.contains(&(n as u32)))).collect();
        // Cycles along which a walk provably progresses need no visit (progress.rs).
        let progressing = if merge_visits.iter().any(|&v| v) {
            progress::progressing_nodes(automaton, plan, values, &region, &components, &mut facts)
        } else {
            vec![false; count]
        };
        let needed: Vec<bool> = (0..count).map(|n| merge_visits[n] && !progressing[n]).collect();
        let mut visits = needed.clone();
        // The fan-in rule checks that visits still cut every cycle: the progressing components'
        // cycles are cut by their progress instead, so their inner edges are left out.
        let unprogressing: Vec<Vec<u32>> = (0..count)
            .map(|n| {
                let same = |t: u32| progressing[n] && components[n] == components[t as usize];
                inner[n].iter().copied().filter(|&t| !same(t)).collect()
            })
            .collect();
        drop_fan_in_visits(&unprogressing, &mut visits, &froms);
        let counted_steps = (0..count).map(|n| needed[n] && !visits[n]).collect();
        impure |= visits.iter().any(|&v| v);
        depends.insert(to, needs);
        targets.insert(to, ReachTarget { region, visits, counted_steps, pure: !impure, progress_slots: None });
    }
    // A check is impure when one it nests is, or when it nests itself (its depth is unbounded).
    let mut changed = true;
    while changed {
        changed = false;
        for (&to, needs) in &depends {
            if !targets[&to].pure {
                continue;
            }
            let mut seen = BTreeSet::new();
            let mut stack: Vec<u32> = needs.iter().copied().collect();
            let mut impure = false;
            while let Some(next) = stack.pop() {
                if !seen.insert(next) {
                    continue;
                }
                if next == to || targets.get(&next).is_none_or(|t| !t.pure) {
                    impure = true;
                    break;
                }
                stack.extend(depends.get(&next).into_iter().flatten().copied());
            }
            if impure {
                targets.get_mut(&to).expect("every target has an entry").pure = false;
                changed = true;
            }
        }
    }
    targets
}

/// Drops the visit of a node whose in-edges all come from one node (a `branch d in Dir` fanning
/// out, each edge stepping its own way, into one guard), when every cycle still passes another
/// visit: such a node multiplies no paths, and the visit it records costs more than the guard
/// behind it, which usually rejects the step (hex's chain walks: one visit per stone instead of
/// one per neighbour). Visited sets only make a check terminate, so any visits that cut every
/// cycle find the same answer.
fn drop_fan_in_visits(inner: &[Vec<u32>], visits: &mut [bool], froms: &[u32]) {
    let count = inner.len();
    let mut sources: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); count];
    for (source, targets) in inner.iter().enumerate() {
        for &target in targets {
            sources[target as usize].insert(source as u32);
        }
    }
    for node in 0..count {
        if !visits[node] || sources[node].len() != 1 || froms.contains(&(node as u32)) {
            continue;
        }
        visits[node] = false;
        // Every cycle must keep a visit: the graph without visiting nodes has no cycle.
        let unvisited: Vec<Vec<u32>> = inner
            .iter()
            .enumerate()
            .map(|(source, targets)| {
                if visits[source] {
                    Vec::new()
                } else {
                    targets.iter().copied().filter(|&t| !visits[t as usize]).collect()
                }
            })
            .collect();
        if cyclic_nodes(&unvisited).iter().any(|&c| c) {
            visits[node] = true;
        }
    }
}

/// The nodes reachable from the marked roots without expanding `stop` (a check ends there).
fn reachable_avoiding(successors: &[Vec<u32>], roots: &[bool], stop: u32) -> Vec<bool> {
    let mut seen = roots.to_vec();
    let mut stack: Vec<usize> = (0..roots.len()).filter(|&n| roots[n]).collect();
    while let Some(node) = stack.pop() {
        if node == stop as usize && !roots[node] {
            continue;
        }
        for &next in &successors[node] {
            if !seen[next as usize] {
                seen[next as usize] = true;
                stack.push(next as usize);
            }
        }
    }
    seen
}

/// The nodes reachable from the marked roots.
pub(crate) fn reachable(successors: &[Vec<u32>], roots: &[bool]) -> Vec<bool> {
    let mut seen = roots.to_vec();
    let mut stack: Vec<usize> = (0..roots.len()).filter(|&n| roots[n]).collect();
    while let Some(node) = stack.pop() {
        for &next in &successors[node] {
            if !seen[next as usize] {
                seen[next as usize] = true;
                stack.push(next as usize);
            }
        }
    }
    seen
}

/// `cyclic[n]`: `n` lies on a cycle.
pub(crate) fn cyclic_nodes(successors: &[Vec<u32>]) -> Vec<bool> {
    cyclic_components(successors).iter().map(Option::is_some).collect()
}

/// `component[n]`: the strongly connected component of `n` when `n` lies on a cycle, numbered
/// from 0 (Tarjan's algorithm, iteratively).
pub(crate) fn cyclic_components(successors: &[Vec<u32>]) -> Vec<Option<usize>> {
    let count = successors.len();
    let mut index = vec![u32::MAX; count];
    let mut low = vec![0u32; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut cyclic = vec![None; count];
    let mut components = 0;
    let mut next_index = 0u32;
    for root in 0..count {
        if index[root] != u32::MAX {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut position)) = calls.last_mut() {
            if let Some(&next) = successors[node].get(*position) {
                *position += 1;
                let next = next as usize;
                if index[next] == u32::MAX {
                    index[next] = next_index;
                    low[next] = next_index;
                    next_index += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    calls.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut members = Vec::new();
                loop {
                    let member = stack.pop().expect("the component's root is on the stack");
                    on_stack[member] = false;
                    members.push(member);
                    if member == node {
                        break;
                    }
                }
                let self_loop = successors[node].contains(&(node as u32));
                if members.len() > 1 || self_loop {
                    for member in members {
                        cyclic[member] = Some(components);
                    }
                    components += 1;
                }
            }
        }
    }
    cyclic
}

/// Whether `operand` is the plain read of state slot `slot` (`v[slot]`, no keys).
pub(crate) fn is_slot_read(operand: &PlanOperand, slot: u32) -> bool {
    matches!(operand, PlanOperand::Place(place) if place.in_state && place.steps.is_empty() && place.base == slot)
}

/// Whether every read of `slot` inside `place` (the place itself or a key at any depth) is the
/// key of a state map step; each such step's offsets are recorded in `offsets`, which must all
/// be the same table.
fn reads_slot_as_key_only(place: &PlanPlace, slot: u32, offsets: &mut Option<Vec<u32>>) -> bool {
    if place.in_state && place.steps.is_empty() && place.base == slot {
        return false;
    }
    place.steps.iter().all(|step| {
        if is_slot_read(&step.key, slot) {
            if !place.in_state {
                return false;
            }
            match offsets {
                Some(known) => *known == step.offsets,
                None => {
                    *offsets = Some(step.offsets.clone());
                    true
                }
            }
        } else {
            match &step.key {
                PlanOperand::Literal(_) => true,
                PlanOperand::Place(key) => reads_slot_as_key_only(key, slot, offsets),
            }
        }
    })
}

/// The per-symbol board offsets a pure check's register slot keys, when the check's functions
/// may hold the register as that offset instead of its symbol (codegen's offset registers):
/// every read of `slot` in `edges` is the key of a state map with one offsets table (`board[r]`,
/// read as `v[base + OFF[r]]`), every write of it is `slot = literal` or `slot = c[k]` (a
/// constant map with one key, a plain slot: `k` may be `slot` itself, a cursor step) or through
/// several keys whose reads of `slot` use its offsets (`offset_keys.rs`), and the edges' member
/// loops write other slots (the caller checks their filters, `offset_keys::filter_chain_writes`).
/// Exact with the composed tables of the writes ([`step_on_offsets`] for a step): every use then
/// reads the offset the symbol would have been turned into. `None` when some use is anything
/// else. Cost: one pass over the edges.
pub(crate) fn offset_register_keys(plan: &Plan, edges: &[usize], slot: u32) -> Option<Vec<u32>> {
    let mut offsets = None;
    // The offsets through which multi-key writes read the register: must be the register's.
    let mut own_key_offsets: Vec<Vec<u32>> = Vec::new();
    for &edge in edges {
        let operand_ok = |operand: &PlanOperand, offsets: &mut Option<Vec<u32>>| match operand {
            PlanOperand::Literal(_) => true,
            PlanOperand::Place(place) => reads_slot_as_key_only(place, slot, offsets),
        };
        let ok = match &plan.ops[edge] {
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } if fixed_slot(lhs) == Some(slot) => match rhs
            {
                PlanOperand::Literal(_) => true,
                PlanOperand::Place(place) => {
                    constant_map_key(place).is_some()
                        || super::offset_keys::multi_key_register_write(place, slot)
                            .map(|own| own_key_offsets.extend(own))
                            .is_some()
                }
            },
            PlanOp::Assign { lhs, rhs, .. } => {
                let mut none = None;
                reads_slot_as_key_only(lhs, slot, &mut none) && none.is_none() && operand_ok(rhs, &mut offsets)
            }
            PlanOp::AssignAny { lhs, .. } => fixed_slot(lhs).is_some_and(|written| written != slot),
            PlanOp::Compare { lhs, rhs, .. } => operand_ok(lhs, &mut offsets) && operand_ok(rhs, &mut offsets),
            PlanOp::TagExpr(value) => operand_ok(value, &mut offsets),
            PlanOp::Skip | PlanOp::Tag(_) | PlanOp::Reach { .. } => true,
        };
        if !ok {
            return None;
        }
    }
    let offsets = offsets?;
    own_key_offsets.iter().all(|own| *own == offsets).then_some(offsets)
}

/// A constant map read with one computed key, a plain slot (`c[k]`, other keys literals): its
/// base with the literal keys folded in, and the computed key's step.
pub(crate) fn constant_map_key(place: &PlanPlace) -> Option<(u32, &PlanStep)> {
    if place.in_state {
        return None;
    }
    let mut base = place.base;
    let mut dynamic = None;
    for step in &place.steps {
        match &step.key {
            PlanOperand::Literal(symbol) => base += *step.offsets.get(*symbol as usize)?,
            PlanOperand::Place(key) if key.in_state && key.steps.is_empty() && dynamic.is_none() => {
                dynamic = Some(step)
            }
            PlanOperand::Place(_) => return None,
        }
    }
    Some((base, dynamic?))
}

/// A cursor step `r = next[r]` on offsets: `result[offsets[s]] = offsets[next[s]]` for every
/// symbol `s` (a symbol outside `offsets` takes `default_offset`), or `None` when two symbols
/// with one offset step to different offsets (the offset then does not determine the step).
/// Offsets no symbol has are 0.
pub(crate) fn step_on_offsets(offsets: &[u32], default_offset: u32, next: &[u32]) -> Option<Vec<u64>> {
    let offset_of = |symbol: u32| offsets.get(symbol as usize).copied().unwrap_or(default_offset);
    let len = offsets.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut stepped: Vec<Option<u32>> = vec![None; len];
    for (symbol, &offset) in offsets.iter().enumerate() {
        let target = offset_of(*next.get(symbol)?);
        match stepped[offset as usize] {
            Some(known) if known != target => return None,
            _ => stepped[offset as usize] = Some(target),
        }
    }
    Some(stepped.into_iter().map(|offset| offset.unwrap_or(0) as u64).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    #[test]
    fn a_cursor_step_on_offsets_is_exact_or_refused() {
        // Symbols 2 and 3 share offset 2 and both step to it: one offset table.
        assert_eq!(step_on_offsets(&[0, 1, 2, 2], 9, &[1, 2, 3, 3]), Some(vec![1, 2, 2]));
        // A symbol outside the offsets steps to the default offset.
        assert_eq!(step_on_offsets(&[0, 1], 9, &[1, 5]), Some(vec![1, 9]));
        // Symbols 0 and 3 share offset 5 but step to offsets 6 and 5: no table on offsets.
        assert_eq!(step_on_offsets(&[5, 6, 7, 5], 0, &[1, 2, 3, 3]), None);
    }

    /// A state place `base[key]` over a map of `offsets` (default block at `default`).
    fn computed_place(base: u32, offsets: Vec<u32>, default: u32, key: PlanOperand) -> PlanPlace {
        let step = regula_runtime::compiled::PlanStep { key, offsets, default_offset: default, map_type: "M".into() };
        PlanPlace { in_state: true, base, steps: vec![step] }
    }

    #[test]
    fn a_computed_place_may_reach_exactly_the_slots_between_its_least_and_greatest_offset() {
        let cursor = PlanOperand::Place(PlanPlace { in_state: true, base: 9, steps: Vec::new() });
        // Slots 2..=5 (offsets 0..=2 and the default block at 3).
        let board = computed_place(2, vec![1, 0, 2, 1], 3, cursor.clone());
        let reached: Vec<u32> = (0..8).filter(|&slot| place_may_reach_computed(&board, slot)).collect();
        assert_eq!(reached, vec![2, 3, 4, 5]);
        // A plain slot is no computed place, even the one it names.
        let PlanOperand::Place(plain) = &cursor else { unreachable!() };
        assert!(!place_may_reach_computed(plain, 9));
        // A key read through a computed place counts: `board[other[cursor]]` with `other` at 7..=8.
        let other = computed_place(7, vec![0, 1], 1, cursor);
        let nested = computed_place(2, vec![0, 1], 1, PlanOperand::Place(other));
        assert!(place_may_reach_computed(&nested, 8) && !place_may_reach_computed(&nested, 6));
        // A constant place never reaches the state.
        let constant = PlanPlace { in_state: false, ..computed_place(2, vec![0, 1], 1, PlanOperand::Literal(0)) };
        assert!(!place_may_reach_computed(&constant, 2));
    }

    /// The analysis of a one-player game whose move search starts at `choose`, and a node's id.
    fn analysis_at(edges: &[(&str, &str, &str)], node: &str) -> (Analysis, usize) {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b, c}");
        builder.variable("cell", "Cell", "a").variable("other", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        for (from, to, label) in edges {
            builder.edge(from, to, label);
        }
        builder.edge("done", "end", "player = keeper");
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let completing: Vec<bool> = plan
            .ops
            .iter()
            .map(|op| {
                matches!(op, PlanOp::Assign { sets_player: true, .. } | PlanOp::AssignAny { sets_player: true, .. })
            })
            .collect();
        let values = ValueSets::new(&automaton, &plan, automaton.symbols.len());
        let analysis = Analysis::new(&automaton, &plan, &completing, &values);
        let id = automaton.nodes.iter().position(|n| n.name == node).expect("the node exists");
        (analysis, id)
    }

    fn unique_at(edges: &[(&str, &str, &str)], node: &str) -> bool {
        let (analysis, id) = analysis_at(edges, node);
        analysis.unique_moves[id]
    }

    #[test]
    fn an_unseparated_choice_with_few_moves_below_opens_a_scope() {
        // `other` is chosen but the tag is `cell`: three paths give the same tags.
        let edges = [
            ("choose", "picked", "other = Cell(*)"),
            ("picked", "tagged", "$$ cell"),
            ("tagged", "done", "player = keeper"),
        ];
        let (analysis, tagged) = analysis_at(&edges, "tagged");
        let (_, choose) = analysis_at(&edges, "choose");
        assert!(!analysis.unique_moves[tagged]);
        assert!(analysis.scoped_moves[tagged]);
        assert!(analysis.opens_scope[choose]);
        assert!(!analysis.opens_scope[tagged]);
        assert!(analysis.unique_start[choose], "a scoped search needs no tags in the move buffer");
    }

    #[test]
    fn a_scope_over_too_many_moves_keeps_the_table() {
        // 27 completions below `choose`, more than `SCOPE_LIMIT`.
        let edges = [
            ("choose", "first", "other = Cell(*)"),
            ("first", "second", "cell = Cell(*)"),
            ("second", "third", "other = Cell(*)"),
            ("third", "tagged", "$$ cell"),
            ("tagged", "done", "player = keeper"),
        ];
        let (analysis, tagged) = analysis_at(&edges, "tagged");
        let (_, choose) = analysis_at(&edges, "choose");
        assert!(!analysis.unique_moves[tagged] && !analysis.scoped_moves[tagged]);
        assert!(!analysis.opens_scope[choose]);
        assert!(!analysis.unique_start[choose]);
    }

    #[test]
    fn a_choice_tagged_with_its_own_value_is_unique() {
        let edges = [
            ("choose", "picked", "cell = Cell(*)"),
            ("picked", "tagged", "$$ cell"),
            ("tagged", "done", "player = keeper"),
        ];
        assert!(unique_at(&edges, "tagged"));
    }

    /// Whether a slide in two directions over a line of three squares, whose off-board square
    /// both steps keep in place (amazons' and chess's sliding moves, in small), is proved to give
    /// each move once, with `board` holding `off_board` initially.
    fn slide_is_unique(board: &str, extra: &[(&str, &str, &str)]) -> bool {
        moves_are_unique_at(slide(board, extra), "done")
    }

    /// The automaton of [`slide_is_unique`], with `extra` edges.
    fn slide(board: &str, extra: &[(&str, &str, &str)]) -> AutomatonBuilder {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, wall}").typedef("Board", "Sq -> Content").typedef("Step", "Sq -> Sq");
        builder.constant("up", "Step", "{s1: s2, s2: s3, :off}").constant("down", "Step", "{s2: s1, s3: s2, :off}");
        builder.variable("pos", "Sq", "s2").variable("board", "Board", board);
        builder.edge("begin", "choose", "player = x");
        let slide = [
            ("choose", "up", "pos = up[pos]"),
            ("up", "up_free", "board[pos] == empty"),
            ("up_free", "up", "pos = up[pos]"),
            ("up_free", "done", "$$ pos"),
            ("choose", "down", "pos = down[pos]"),
            ("down", "down_free", "board[pos] == empty"),
            ("down_free", "down", "pos = down[pos]"),
            ("down_free", "done", "$$ pos"),
            ("done", "end", "player = keeper"),
        ];
        for (from, to, label) in slide.iter().chain(extra) {
            builder.edge(from, to, label);
        }
        builder
    }

    /// The analysis of the automaton `builder` holds.
    fn analysed(builder: AutomatonBuilder) -> Analysis {
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let completing: Vec<bool> =
            plan.ops.iter().map(|op| matches!(op, PlanOp::Assign { sets_player: true, .. })).collect();
        let values = ValueSets::new(&automaton, &plan, automaton.symbols.len());
        Analysis::new(&automaton, &plan, &completing, &values)
    }

    #[test]
    fn a_slide_closed_off_the_board_records_no_visit_but_stays_cyclic() {
        let closed = analysed(slide("{off: wall, :empty}", &[]));
        assert!(closed.visit_in_moves.iter().all(|&v| !v), "`board[off]` is never empty");
        assert!(closed.cyclic_in_moves, "the tags of a cyclic search stay unbounded");
        let open = analysed(slide("{:empty}", &[]));
        assert!(open.visit_in_moves.iter().any(|&v| v), "at `off` the slide would go round forever");
    }

    /// Whether the analysis proves every move completed at `node` (of the automaton `builder`
    /// holds) unique.
    fn moves_are_unique_at(builder: AutomatonBuilder, node: &str) -> bool {
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let completing: Vec<bool> =
            plan.ops.iter().map(|op| matches!(op, PlanOp::Assign { sets_player: true, .. })).collect();
        let values = ValueSets::new(&automaton, &plan, automaton.symbols.len());
        let analysis = Analysis::new(&automaton, &plan, &completing, &values);
        let index = automaton.nodes.iter().position(|n| n.name == node).expect("the node exists");
        analysis.unique_moves[index]
    }

    #[test]
    fn a_slide_is_unique_when_no_step_stays_on_a_free_square() {
        assert!(slide_is_unique("{off: wall, :empty}", &[]), "`board[off]` is never empty");
        // Off the board is free: sliding on from `off` stays there and tags `off` again.
        assert!(!slide_is_unique("{:empty}", &[]));
        // Some edge empties `off` (the keeper's turn: any reachable state counts). A write
        // `board[pos] = empty` there would not do: `pos` passed `board[pos] == empty` before
        // the move ended, so it is never `off` (the refined facts know).
        let clears_off = [("end", "cleared", "board[off] = empty")];
        assert!(!slide_is_unique("{off: wall, :empty}", &clears_off));
        // Both directions may tag the start square when one step goes back to it.
        let back = [("choose", "back", "pos = down[pos]"), ("back", "up", "pos = up[pos]")];
        assert!(!slide_is_unique("{off: wall, :empty}", &back));
    }

    /// Whether two overlapping branches (`kind != k2` and `kind != k3` both hold for `k1`), one
    /// tagging the square above `from`, the other the square below, are proved to give each move
    /// once; the keeper picks `kind` and `from`, and each branch checks `guard` first. The
    /// contexts are enumerated from what slots can ever hold, so a guard before the choice would
    /// not prune them; inside each branch it does. The tag is computed from
    /// another slot, so only the exploration of contexts (explore.rs) can prove it.
    fn two_steps_are_unique(guard: &str) -> bool {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Kind", "{k1, k2, k3}").typedef("Step", "Sq -> Sq");
        builder.constant("up", "Step", "{s1: s2, s2: s3, :off}").constant("down", "Step", "{s2: s1, s3: s2, :off}");
        builder.variable("from", "Sq", "s2").variable("to", "Sq", "s2").variable("kind", "Kind", "k1");
        let edges = [
            ("begin", "choose", "player = x"),
            ("choose", "one", "kind != k2"),
            ("one", "one_on", guard),
            ("one_on", "up", "to = up[from]"),
            ("choose", "two", "kind != k3"),
            ("two", "two_on", guard),
            ("two_on", "down", "to = down[from]"),
            ("up", "tagged", "$$ to"),
            ("down", "tagged", "$$ to"),
            ("tagged", "done", "player = keeper"),
            ("done", "end", "kind = Kind(*)"),
            ("end", "picked", "from = Sq(*)"),
        ];
        for (from, to, label) in edges {
            builder.edge(from, to, label);
        }
        moves_are_unique_at(builder, "tagged")
    }

    #[test]
    fn branches_tagging_computed_squares_are_unique_only_when_the_squares_differ() {
        // On the board, the square above `from` is never the square below it.
        assert!(two_steps_are_unique("from != off"));
        // From `off`, both steps stay on `off`: with `kind == k1` one move is found twice.
        assert!(!two_steps_are_unique("from != s1"));
    }

    #[test]
    fn a_choice_whose_variable_is_overwritten_before_its_tag_is_not() {
        let edges = [
            ("choose", "picked", "cell = Cell(*)"),
            ("picked", "reset", "cell = a"),
            ("reset", "tagged", "$$ cell"),
            ("tagged", "done", "player = keeper"),
        ];
        assert!(!unique_at(&edges, "tagged"));
    }

    #[test]
    fn branches_need_different_tags_or_exclusive_guards() {
        let different = [
            ("choose", "one", "$ a"),
            ("choose", "two", "$ b"),
            ("one", "done", "player = keeper"),
            ("two", "done", "player = keeper"),
        ];
        assert!(unique_at(&different, "one"));
        let same = [
            ("choose", "one", "$ a"),
            ("choose", "two", "$ a"),
            ("one", "done", "player = keeper"),
            ("two", "done", "player = keeper"),
        ];
        assert!(!unique_at(&same, "one"));
        let exclusive = [
            ("choose", "one", "cell == a"),
            ("choose", "two", "cell != a"),
            ("one", "done", "player = keeper"),
            ("two", "done", "player = keeper"),
        ];
        assert!(unique_at(&exclusive, "one"));
        // `cell` varies (the keeper picks it), so both guards hold when it is `c`.
        let overlapping = [
            ("end", "picked", "cell = Cell(*)"),
            ("choose", "one", "cell != a"),
            ("choose", "two", "cell != b"),
            ("one", "done", "player = keeper"),
            ("two", "done", "player = keeper"),
        ];
        assert!(!unique_at(&overlapping, "one"));
    }

    /// The reachability analysis of a one-player game whose move search checks `? start -> goal`.
    fn reach_of(check_edges: &[(&str, &str, &str)]) -> (Automaton, ReachTarget) {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b, c}");
        builder.typedef("Board", "Cell -> Cell").variable("cell", "Cell", "a").variable("board", "Board", "{:a}");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "done", "? start -> goal");
        builder.edge("done", "end", "player = keeper");
        for (from, to, label) in check_edges {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let fallible: Vec<bool> = plan
            .ops
            .iter()
            .map(|op| match op {
                PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => !lhs.steps.is_empty(),
                _ => false,
            })
            .collect();
        let id = |name: &str| automaton.nodes.iter().position(|n| n.name == name).expect("the node exists") as u32;
        let values = ValueSets::new(&automaton, &plan, automaton.symbols.len());
        let mut targets = reach_targets(&automaton, &plan, &values, &[(id("start"), id("goal"))], &fallible);
        let target = targets.remove(&id("goal")).expect("the check's target is analysed");
        (automaton, target)
    }

    fn names(automaton: &Automaton, marked: &[bool]) -> Vec<String> {
        let mut names: Vec<String> =
            (0..marked.len()).filter(|&n| marked[n]).map(|n| automaton.nodes[n].name.clone()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_check_walks_only_nodes_that_lead_to_its_target() {
        let edges = [
            ("start", "middle", "cell == a"),
            ("middle", "goal", "cell = b"),
            ("start", "dead", "cell == b"),
            ("dead", "deader", "cell = c"),
        ];
        let (automaton, target) = reach_of(&edges);
        assert_eq!(names(&automaton, &target.region), ["middle", "start"]);
        assert!(target.pure, "no error and no cycle: a plain boolean function");
        assert!(target.visits.iter().all(|&v| !v));
    }

    #[test]
    fn a_check_with_a_cycle_or_a_computed_write_keeps_its_bookkeeping() {
        let cyclic = [("start", "step", "cell = b"), ("step", "start", "cell == c"), ("step", "goal", "cell == b")];
        let (automaton, target) = reach_of(&cyclic);
        assert_eq!(names(&automaton, &target.region), ["start", "step"]);
        assert_eq!(names(&automaton, &target.visits), ["start"]);
        assert!(!target.pure);
        let computed = [("start", "goal", "board[cell] = b")];
        let (_, target) = reach_of(&computed);
        assert!(!target.pure, "a write through a computed key can fail");
        // A write through a computed key on a path that cannot reach the target is not walked.
        let dead_write = [("start", "goal", "cell == a"), ("start", "dead", "board[cell] = b")];
        let (_, target) = reach_of(&dead_write);
        assert!(target.pure);
    }

    #[test]
    fn a_check_writing_few_fixed_slots_keys_its_visits_by_them() {
        let slots_of = |edges: &[(&str, &str, &str)]| {
            let (automaton, target) = reach_of(edges);
            let plan = Plan::new(&automaton).expect("the test automaton lowers");
            let goal = automaton.nodes.iter().position(|n| n.name == "goal").expect("goal exists") as u32;
            let cell = automaton.variables.iter().position(|v| v.name == "cell").expect("cell exists");
            (progress_slots(&automaton, &plan, goal, &target.region), plan.var_slots[cell].0)
        };
        let cyclic = [("start", "step", "cell = b"), ("step", "start", "cell == c"), ("step", "goal", "cell == b")];
        let (slots, cell) = slots_of(&cyclic);
        assert_eq!(slots, Some(vec![cell]));
        let map_write =
            [("start", "step", "board[cell] = b"), ("step", "start", "cell == c"), ("step", "goal", "cell == b")];
        assert_eq!(slots_of(&map_write).0, None, "a write through a computed key is not one fixed slot");
        let nested =
            [("start", "step", "cell = b"), ("step", "start", "? step -> start"), ("step", "goal", "cell == b")];
        assert_eq!(slots_of(&nested).0, None, "a nested check would share the visit table");
    }

    #[test]
    fn a_fan_into_one_guard_keeps_the_visit_of_the_loop_head_only() {
        // A walk: from `start`, three steps into `probe` (one node's out-edges), whose guard
        // leads back to `start` or into `goal`.
        let edges = [
            ("start", "fan", "cell != c"),
            ("fan", "probe", "cell = a"),
            ("fan", "probe", "cell = b"),
            ("fan", "probe", "cell = c"),
            ("probe", "start", "board[cell] == b"),
            ("probe", "goal", "board[cell] == c"),
        ];
        let (automaton, target) = reach_of(&edges);
        assert_eq!(names(&automaton, &target.visits), ["start"], "`start` alone cuts the cycle");
        // Two nodes fanning into `probe`: it merges paths from both and keeps its visit.
        let mut merged = edges.to_vec();
        merged.push(("start", "probe", "cell = a"));
        let (automaton, target) = reach_of(&merged);
        assert_eq!(names(&automaton, &target.visits), ["probe", "start"]);
    }

    #[test]
    fn cycles_and_reachability() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3, 4 -> 4 (a self-loop), 5 isolated.
        let successors = vec![vec![1], vec![2], vec![1, 3], vec![], vec![4], vec![]];
        assert_eq!(cyclic_nodes(&successors), [false, true, true, false, true, false]);
        let roots = [true, false, false, false, false, false];
        assert_eq!(reachable(&successors, &roots), [true, true, true, true, false, false]);
    }
}
