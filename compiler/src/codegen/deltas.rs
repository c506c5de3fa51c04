//! Moves listed as *deltas*: which completions can hand the playout loop a packed word instead of
//! a copy of the whole successor state, and from which start nodes every completion can.
//!
//! A move search starts from a state's values and changes them only by the writes of the edges
//! on its path (every edge undoes its write when the search backs up, and nested checks undo
//! theirs), so at a completion the values differ from the start state's at most in the slots
//! some edge from a start node to the completion may write: its *write set*, a may-write forward
//! data flow over the move search's edges (`x = e` into a fixed slot writes that slot, a write
//! through a computed key the whole variable). When the write set has at most
//! [`DELTA_WORD_BITS`] bits of slots, the completion's successor is the searched state with
//! those slots set to the values they have at the completion and the node set to the
//! completion's target: one `u64` (the site's number in the low 16 bits, then each slot's value)
//! that the generated `apply_delta` turns back into the successor. Tic-tac-toe's and connect
//! four's player moves write the chosen cell or column and `player`: two bytes, where the search
//! copied 24 and 72 bytes per listed move and the playout loop the picked one again.
//!
//! Only a lean search (a unique start whose caller reads successors only) lists deltas, and
//! only if every completion it can reach has a delta (a *delta start*); other completions keep
//! their successor. Cost: the flow visits each move-search edge once per change of its source's
//! set; sets are capped at the word's capacity (a larger one is "too many" and stays so).

use super::graph::written_range;
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanPlace, PlanTransfer};
use std::collections::BTreeSet;

/// The bits of a delta word holding slot values (the low 16 bits number the site).
pub(crate) const DELTA_WORD_BITS: u32 = 48;

/// The most completion sites a game may number (the site field's range).
const MAX_SITES: usize = 1 << 16;

/// The deltas of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Deltas {
    /// Per completion site, numbered from 0: its target node and its write set, in slot order.
    pub sites: Vec<(u32, Vec<u32>)>,
    /// Per edge, the site of a completion that has a delta.
    pub site_of_edge: Vec<Option<usize>>,
    /// Per node, a lean search from it lists deltas (every completion it reaches has one).
    pub starts: Vec<bool>,
}

/// The slots an edge may write, `None` when they are not one variable's or a fixed set.
fn written_slots(plan: &Plan, op: &PlanOp) -> Option<Vec<u32>> {
    let range = |place: &PlanPlace| -> Option<Vec<u32>> {
        let (start, end) = written_range(plan, place);
        (end != u32::MAX).then(|| (start..end).collect())
    };
    match op {
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } if !lhs.in_state => None,
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } if !lhs.steps.is_empty() => range(lhs),
        PlanOp::AssignAny { lhs, .. } => Some(vec![lhs.base]),
        PlanOp::Assign { lhs, transfer, .. } => Some(match transfer {
            PlanTransfer::Slot => vec![lhs.base],
            PlanTransfer::Block(size) => (lhs.base..lhs.base + size).collect(),
            PlanTransfer::Pairs(pairs) => pairs.iter().map(|&(slot, _)| lhs.base + slot).collect(),
        }),
        PlanOp::Skip | PlanOp::Compare { .. } | PlanOp::Reach { .. } | PlanOp::Tag(_) | PlanOp::TagExpr(_) => {
            Some(Vec::new())
        }
    }
}

/// The deltas of `automaton`: `completes[e]` says edge `e` assigns `player`, `is_start[n]` that a
/// move search may start at `n`, `lean[n]` that a search from `n` may be lean (proved unique),
/// `capable[e]` that completion `e` may push a delta (its move is unique: no de-duplication reads
/// the successor), `slot_bits` the width of one slot value (8, 16 or 32).
pub(crate) fn deltas(
    automaton: &Automaton,
    plan: &Plan,
    completes: &[bool],
    is_start: &[bool],
    lean: &[bool],
    capable: impl Fn(usize) -> bool,
    slot_bits: u32,
) -> Deltas {
    let node_count = automaton.nodes.len();
    let capacity = (DELTA_WORD_BITS / slot_bits) as usize;
    // `reached[n]`: some move search reaches `n`; `sets[n]`: its write set, `None` when too big.
    let mut reached = is_start.to_vec();
    let mut sets: Vec<Option<BTreeSet<u32>>> = vec![Some(BTreeSet::new()); node_count];
    let mut work: Vec<usize> = (0..node_count).filter(|&n| is_start[n]).collect();
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); node_count];
    for (edge, record) in automaton.edges.iter().enumerate() {
        if !completes[edge] {
            out_edges[record.source as usize].push(edge);
        }
    }
    let written: Vec<Option<Vec<u32>>> = plan.ops.iter().map(|op| written_slots(plan, op)).collect();
    let join = |set: &Option<BTreeSet<u32>>, edge: usize| -> Option<BTreeSet<u32>> {
        let mut set = set.clone()?;
        set.extend(written[edge].as_ref()?);
        (set.len() <= capacity).then_some(set)
    };
    while let Some(node) = work.pop() {
        for &edge in &out_edges[node] {
            let target = automaton.edges[edge].target as usize;
            let new = join(&sets[node], edge);
            let merged = if reached[target] {
                match (&sets[target], new) {
                    (Some(old), Some(new)) => {
                        let union: BTreeSet<u32> = old.union(&new).copied().collect();
                        (union.len() <= capacity).then_some(union)
                    }
                    _ => None,
                }
            } else {
                new
            };
            if !reached[target] || merged != sets[target] {
                reached[target] = true;
                sets[target] = merged;
                work.push(target);
            }
        }
    }
    // Per completion, its site (target and write set) where it has one.
    let site_of: Vec<Option<(u32, Vec<u32>)>> = automaton
        .edges
        .iter()
        .enumerate()
        .map(|(edge, record)| {
            let source = record.source as usize;
            if !completes[edge] || !reached[source] || !capable(edge) {
                return None;
            }
            Some((record.target, join(&sets[source], edge)?.into_iter().collect()))
        })
        .collect();
    // A start lists deltas when its search completes some move and every completion it
    // reaches has a delta; only those completions get a site number.
    let mut result =
        Deltas { sites: Vec::new(), site_of_edge: vec![None; automaton.edges.len()], starts: vec![false; node_count] };
    let mut used = vec![false; automaton.edges.len()];
    for start in 0..node_count {
        if !is_start[start] || !lean[start] {
            continue;
        }
        let reached = completions_from(automaton, completes, start);
        if !reached.is_empty() && reached.iter().all(|&edge| site_of[edge].is_some()) {
            result.starts[start] = true;
            for edge in reached {
                used[edge] = true;
            }
        }
    }
    for (edge, site) in site_of.into_iter().enumerate() {
        let Some(site) = site.filter(|_| used[edge]) else { continue };
        let index = match result.sites.iter().position(|known| *known == site) {
            Some(index) => index,
            None => {
                result.sites.push(site);
                result.sites.len() - 1
            }
        };
        result.site_of_edge[edge] = Some(index);
    }
    if result.sites.len() > MAX_SITES {
        // More sites than the word numbers: no deltas at all.
        return Deltas {
            sites: Vec::new(),
            site_of_edge: vec![None; automaton.edges.len()],
            starts: vec![false; node_count],
        };
    }
    result
}

/// The completions a move search from `start` can reach (every edge assigning `player` whose
/// source it reaches without assigning `player` on the way).
fn completions_from(automaton: &Automaton, completes: &[bool], start: usize) -> Vec<usize> {
    let mut seen = vec![false; automaton.nodes.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut found = Vec::new();
    while let Some(node) = stack.pop() {
        for edge in automaton.nodes[node].edges.clone() {
            let edge = edge as usize;
            if completes[edge] {
                found.push(edge);
                continue;
            }
            let target = automaton.edges[edge].target as usize;
            if !seen[target] {
                seen[target] = true;
                stack.push(target);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// A small game: `x` picks a column (a fixed slot) and hands the turn to the keeper, who
    /// writes the board through the column (a computed key); `extra` edges are added.
    fn game(extra: &[(&str, &str, &str)]) -> (Automaton, Plan, Vec<bool>, Vec<bool>) {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Col", "{a, b, c}");
        builder.typedef("Board", "Col -> Player");
        builder.variable("col", "Col", "a").variable("board", "Board", "{:x}");
        builder.edge("begin", "turn", "player = x");
        builder.edge("turn", "chosen", "col = Col(*)");
        builder.edge("chosen", "tagged", "$$ col");
        builder.edge("tagged", "drop", "player = keeper");
        builder.edge("drop", "dropped", "board[col] = x");
        builder.edge("dropped", "turn", "player = x");
        for (from, to, label) in extra {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let completes: Vec<bool> = plan
            .ops
            .iter()
            .map(|op| {
                matches!(op, PlanOp::Assign { sets_player: true, .. } | PlanOp::AssignAny { sets_player: true, .. })
            })
            .collect();
        let mut is_start = vec![false; automaton.nodes.len()];
        is_start[automaton.begin as usize] = true;
        for (edge, record) in automaton.edges.iter().enumerate() {
            if completes[edge] {
                is_start[record.target as usize] = true;
            }
        }
        (automaton, plan, completes, is_start)
    }

    fn node(automaton: &Automaton, name: &str) -> usize {
        automaton.nodes.iter().position(|n| n.name == name).expect("the node exists")
    }

    fn slot_of(automaton: &Automaton, plan: &Plan, variable: &str) -> u32 {
        plan.var_slots[automaton.variables.iter().position(|v| v.name == variable).expect("the variable exists")].0
    }

    #[test]
    fn a_move_writing_fixed_slots_is_a_delta_of_those_slots() {
        let (automaton, plan, completes, is_start) = game(&[]);
        let lean = vec![true; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &lean, |_| true, 16);
        let (turn, drop) = (node(&automaton, "turn"), node(&automaton, "drop"));
        let mut written = vec![slot_of(&automaton, &plan, "col"), plan.player_slot];
        written.sort_unstable();
        assert!(found.starts[turn], "the player's move writes `col` and `player`");
        assert!(found.sites.contains(&(drop as u32, written)));
        // The keeper writes the board through a computed key: all 4 of its slots (with the
        // default block) and `player` are more than 3 two-byte slots, and fit 6 one-byte ones.
        assert!(!found.starts[drop], "the keeper's write set is 5 slots");
        let narrow = deltas(&automaton, &plan, &completes, &is_start, &lean, |_| true, 8);
        assert!(narrow.starts[drop]);
    }

    #[test]
    fn a_start_reaching_a_completion_without_a_delta_lists_successors() {
        // A second way through `turn` writes the board: its completion has no delta (too many
        // slots), so neither has the start, though its other completion has one.
        let extra = [("turn", "wide", "board[col] = x"), ("wide", "drop", "player = keeper")];
        let (automaton, plan, completes, is_start) = game(&extra);
        let lean = vec![true; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &lean, |_| true, 16);
        let turn = node(&automaton, "turn");
        assert!(!found.starts[turn], "the player's move may write the whole board");
        let tagged = automaton.edges.iter().position(|e| automaton.nodes[e.source as usize].name == "tagged").unwrap();
        assert!(found.site_of_edge[tagged].is_none(), "no delta start reaches the other completion");
        assert_eq!(found.sites, vec![(turn as u32, vec![plan.player_slot])], "only `begin`'s completion has one");
        // A search that is not lean (moves not proved unique) or a completion that may not push
        // one (its move is de-duplicated) lists no deltas.
        let (automaton, plan, completes, is_start) = game(&[]);
        let not_lean = vec![false; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &not_lean, |_| true, 16);
        assert!(found.starts.iter().all(|&start| !start));
        let lean = vec![true; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &lean, |_| false, 16);
        assert!(found.sites.is_empty() && !found.starts[turn]);
    }
}
