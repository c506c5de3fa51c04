//! `prune_unreachable_nodes`: removes nodes that no play can visit, and settles reachability checks
//! whose target the graph cannot reach at all (`?` edges removed, `!` edges become skips).
//! Preserves every state and move exactly: a node unreachable in the graph is unreachable in
//! every state, from `begin` and from every reachability check's start node. Nodes named by a
//! pragma, and what they reach, are kept.

use super::graph::{Automaton, BEGIN};
use crate::rg::ast::{Decl, Label};
use petgraph::stable_graph::NodeIndex;
use std::collections::HashSet;

pub fn run(automaton: &mut Automaton) -> usize {
    let mut changes = settle_impossible_reachability(automaton);
    let Some(begin) = automaton.node(BEGIN) else {
        return changes;
    };
    // Searches start at `begin` and at every reachability check met on the way. Nodes a pragma
    // names are kept too (with what they reach), so that no pragma is left naming a missing node.
    let mut stack: Vec<NodeIndex> = vec![begin];
    for (_, decl) in &automaton.decls {
        if let Decl::Pragma(pragma) = decl {
            stack.extend(pragma.tokens.iter().filter_map(|token| automaton.node(token)));
        }
    }
    let mut seen: HashSet<NodeIndex> = stack.iter().copied().collect();
    while let Some(node) = stack.pop() {
        for edge in automaton.out_edges(node) {
            let (_, target) = automaton.endpoints(edge);
            let mut next = vec![target];
            if let Label::Reach { from, .. } = automaton.label(edge) {
                next.extend(automaton.node(&from.name));
            }
            for node in next {
                if seen.insert(node) {
                    stack.push(node);
                }
            }
        }
    }
    let unreachable: Vec<NodeIndex> = automaton.graph.node_indices().filter(|node| !seen.contains(node)).collect();
    changes += unreachable.len();
    for node in unreachable {
        automaton.remove_node(node);
    }
    changes
}

/// Decides `? a -> b` / `! a -> b` where the graph has no path from `a` to `b` (and `a != b`).
fn settle_impossible_reachability(automaton: &mut Automaton) -> usize {
    let mut changes = 0;
    for edge in automaton.edges_in_order() {
        let Label::Reach { from, to, negated } = automaton.label(edge).clone() else {
            continue;
        };
        if from.name == to.name || graph_path_exists(automaton, &from.name, &to.name) {
            continue;
        }
        if negated {
            automaton.graph[edge].label = Label::Skip;
        } else {
            automaton.graph.remove_edge(edge);
        }
        changes += 1;
    }
    changes
}

fn graph_path_exists(automaton: &Automaton, from: &str, to: &str) -> bool {
    let (Some(from), Some(to)) = (automaton.node(from), automaton.node(to)) else {
        return false;
    };
    petgraph::algo::has_path_connecting(&automaton.graph, from, to, None)
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn keeps_reachability_sub_automata_and_drops_islands() {
        let game = parse(
            "type Player = {x}; type Score = {0};
             begin, a: ? c1 -> c2;
             begin, b: ! c1 -> island2;
             a, end: player = keeper;
             b, end: player = keeper;
             c1, c2: ;
             island1, island2: ;
             island2, end: ;
             kept, end: ;
             @unique kept;",
        );
        let (game, changes) = run_pass(&game, Pass::PruneUnreachableNodes);
        // `! c1 -> island2` is settled to a skip, then both island nodes go.
        assert_eq!(changes, 3);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn impossible_positive_check_removes_its_edge() {
        let game = parse(
            "type Player = {x}; type Score = {0};
             begin, a: ? c2 -> c1;
             begin, end: player = keeper;
             a, end: player = keeper;
             c1, c2: ;",
        );
        let (game, _) = run_pass(&game, Pass::PruneUnreachableNodes);
        insta::assert_snapshot!(print(&game));
    }
}
