//! `specialize_checks`: gives a reachability check `? a -> b` its own copy of the sub-automaton it
//! searches when that sub-automaton is shared with other checks (a reusable graph called from
//! several places: each call site sets its arguments and a return marker, then enters the same
//! nodes). Preserves every move, successor and move order exactly: the copy holds the same edges
//! between fresh nodes, so the check passes in exactly the same states.
//!
//! The copy holds only the edges on paths from `a` to `b` (other paths cannot reach `b`, and the
//! check stops at `b`). Its payoff comes from the passes that follow: in a copy entered from one
//! call site only, the arguments and the return marker are known symbols, so `propagate_copies`
//! and `propagate_constants` fold them away and `prune_unused_variables` removes them.

use super::graph::Automaton;
use super::inline_reachability::edges_on_paths;
use crate::rg::ast::{Ident, Label};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Sub-automata with more edges than this are not copied (the copies would bloat the automaton).
pub const MAX_COPIED_EDGES: usize = 64;

pub fn run(automaton: &mut Automaton) -> usize {
    let pairs: BTreeSet<(String, String)> = automaton
        .edges_in_order()
        .into_iter()
        .filter_map(|edge| match automaton.label(edge) {
            Label::Reach { from, to, .. } if from.name != to.name => Some((from.name.clone(), to.name.clone())),
            _ => None,
        })
        .collect();
    let mut changes = 0;
    for (from, to) in pairs {
        let (Some(start), Some(target)) = (automaton.node(&from), automaton.node(&to)) else { continue };
        let region = edges_on_paths(automaton, start, target);
        if region.is_empty() || region.len() > MAX_COPIED_EDGES || !is_shared(automaton, start, &region) {
            continue;
        }
        copy_for_pair(automaton, &from, &to, start, target, &region);
        changes += 1;
    }
    changes
}

/// Whether some node of the region other than `start` is entered from outside it: another check
/// (or the game itself) walks the same nodes, so nothing is known there about this check's entry.
fn is_shared(automaton: &Automaton, start: NodeIndex, region: &[EdgeIndex]) -> bool {
    let region_edges: HashSet<EdgeIndex> = region.iter().copied().collect();
    let nodes: HashSet<NodeIndex> = region.iter().map(|&edge| automaton.endpoints(edge).1).collect();
    nodes.iter().filter(|&&node| node != start).any(|&node| {
        automaton.graph.edges_directed(node, Direction::Incoming).any(|edge| !region_edges.contains(&edge.id()))
    })
}

/// Copies the region between fresh nodes and points every check on (`from`, `to`) at the copy.
fn copy_for_pair(
    automaton: &mut Automaton,
    from: &str,
    to: &str,
    start: NodeIndex,
    target: NodeIndex,
    region: &[EdgeIndex],
) {
    let mut copies: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    let mut copy_of = |automaton: &mut Automaton, node: NodeIndex| -> NodeIndex {
        if let Some(&copy) = copies.get(&node) {
            return copy;
        }
        let name = automaton.fresh_name(&format!("{from}__{}", automaton.name(node)));
        let copy = automaton.node_or_insert(&name);
        copies.insert(node, copy);
        copy
    };
    let start_copy = copy_of(automaton, start);
    let target_copy = copy_of(automaton, target);
    // New keys after every existing one, in the region's order, so each copied node tries its
    // out-edges in the original order.
    let base = automaton.key_at_end();
    for (rank, &edge) in region.iter().enumerate() {
        let (source, end) = automaton.endpoints(edge);
        let label = automaton.label(edge).clone();
        let span = automaton.graph[edge].span;
        let (source, end) = (copy_of(automaton, source), copy_of(automaton, end));
        let mut key = base.clone();
        key.push(rank as u32);
        automaton.add_edge(source, end, label, key, span);
    }
    let (start_name, target_name) = (automaton.name(start_copy).to_string(), automaton.name(target_copy).to_string());
    for edge in automaton.edges_in_order() {
        if let Label::Reach { from: check_from, to: check_to, negated } = automaton.label(edge) {
            if check_from.name == from && check_to.name == to {
                let negated = *negated;
                let (from_span, to_span) = (check_from.span, check_to.span);
                automaton.graph[edge].label = Label::Reach {
                    from: Ident { name: start_name.clone(), span: from_span },
                    to: Ident { name: target_name.clone(), span: to_span },
                    negated,
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{optimize, run_pass, Pass, PassSet};

    const TWO_CALLS: &str = "type Player = {x, y}; type Score = {0}; type Ret = {c1, c2};
             type Cell = {p, q};
             var who: Player = x; var ret: Ret = c1; var board: Cell -> Player = {:x}; var probe: Cell = p;
             begin, t1: ? r1 -> r1end;
             t1, t2: ! r2 -> r2end;
             t2, end: player = keeper;
             r1, r1a: who = x;
             r1a, body: ret = c1;
             r2, r2a: who = y;
             r2a, body: ret = c2;
             body, b1: probe = Cell(*);
             b1, bend: board[probe] == who;
             b1, dead: board[probe] != who;
             bend, r1end: ret == c1;
             bend, r2end: ret == c2;";

    #[test]
    fn shared_sub_automata_are_copied_per_check() {
        let (game, changes) = run_pass(&parse(TWO_CALLS), Pass::SpecializeChecks);
        assert_eq!(changes, 2, "both checks enter `body`");
        insta::assert_snapshot!(print(&game));
        let (again, changes) = run_pass(&game, Pass::SpecializeChecks);
        assert_eq!(changes, 0, "the copies are not shared");
        assert_eq!(print(&again), print(&game));
    }

    #[test]
    fn copies_fold_their_arguments_and_return_markers() {
        let (game, _) = optimize(&parse(TWO_CALLS), &PassSet::all());
        let printed = print(&game);
        // Each copy compares with its own player; the return marker and `who` are gone.
        assert!(printed.contains("board[probe] == x;") && printed.contains("board[probe] == y;"), "{printed}");
        assert!(!printed.contains("var ret") && !printed.contains("var who"), "{printed}");
    }
}
