//! `join_fork_prefixes`: when two consecutive out-edges of a node carry the same label into two
//! nodes that nothing else enters, the second target is merged into the first. Preserves every
//! move, successor state and the order moves are found in (the merged node's out-edges follow the
//! first node's). Does not apply to `player =` edges (their targets are states' nodes) nor to
//! protected nodes (`begin`, `end`, reachability endpoints, pragma-named nodes), nor to `x = T(*)`
//! edges: joining two of those would interleave their subtrees value by value and so reorder moves.

use super::graph::{assigns_player, derived_key, Automaton};
use crate::rg::ast::Label;
use petgraph::stable_graph::NodeIndex;
use std::collections::HashSet;

pub fn run(automaton: &mut Automaton) -> usize {
    let mut changes = 0;
    let nodes: Vec<NodeIndex> = automaton.graph.node_indices().collect();
    // Computed once per run, not per node (quadratic on big games): joining never removes a
    // protected node nor names a new one.
    let protected = automaton.protected_nodes();
    for node in nodes {
        while automaton.graph.contains_node(node) && join_one_pair(automaton, node, &protected) {
            changes += 1;
        }
    }
    changes
}

fn join_one_pair(automaton: &mut Automaton, node: NodeIndex, protected: &HashSet<NodeIndex>) -> bool {
    let out = automaton.out_edges(node);
    for pair in out.windows(2) {
        let (first, second) = (pair[0], pair[1]);
        let label = automaton.label(first);
        if label != automaton.label(second) || assigns_player(label) || matches!(label, Label::AssignAny { .. }) {
            continue;
        }
        let (_, kept) = automaton.endpoints(first);
        let (_, merged) = automaton.endpoints(second);
        let eligible = |n: NodeIndex| n != node && !protected.contains(&n) && automaton.in_edges(n).len() == 1;
        if kept == merged || !eligible(kept) || !eligible(merged) {
            continue;
        }
        let merged_out = automaton.out_edges(merged);
        if merged_out.iter().any(|&edge| automaton.endpoints(edge).1 == kept) {
            continue;
        }
        // The merged node's edges go after the kept node's, in their own order.
        let last_kept_key = automaton.out_edges(kept).last().map(|&edge| automaton.graph[edge].key.clone());
        for (index, edge) in merged_out.into_iter().enumerate() {
            let (_, target) = automaton.endpoints(edge);
            let new_edge = automaton.reconnect(edge, kept, target);
            if let Some(last) = &last_kept_key {
                automaton.graph[new_edge].key = derived_key(last, index as u32);
            }
        }
        automaton.graph.remove_edge(second);
        automaton.remove_node(merged);
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn equal_first_steps_share_a_node() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b}; var v: C = a;
             begin, m: player = x;
             m, p1: v = b;
             m, p2: v = b;
             m, p3: v = b;
             p1, q1: $ one;
             p2, q2: $ two;
             p3, q3: $ three;
             q1, end: player = keeper;
             q2, end: player = keeper;
             q3, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::JoinForkPrefixes);
        assert_eq!(changes, 2);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn any_value_assignments_are_not_joined() {
        // Joined, the two subtrees would run value by value (`a` one, `a` two, `b` one, ...) and
        // the moves would come out in another order.
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b}; var v: C = a;
             begin, m: player = x;
             m, p1: v = C(*);
             m, p2: v = C(*);
             p1, q1: $ one;
             p2, q2: $ two;
             q1, r1: $$ v;
             q2, r2: $$ v;
             r1, end: player = keeper;
             r2, end: player = keeper;",
        );
        assert_eq!(run_pass(&game, Pass::JoinForkPrefixes).1, 0);
    }

    #[test]
    fn move_boundaries_are_not_joined() {
        let game = parse(
            "type Player = {x}; type Score = {0};
             begin, p1: player = x;
             begin, p2: player = x;
             p1, end: $ one;
             p2, end: $ two;",
        );
        assert_eq!(run_pass(&game, Pass::JoinForkPrefixes).1, 0);
    }
}
