//! `join_fork_suffixes`: when two nodes each have one out-edge, both with the same label into the
//! same node, the second is merged into the first (its in-edges are redirected). Preserves every
//! move, successor state and move order. Does not apply when the merged node is a state's node
//! (entered by a `player =` edge) or is protected (`begin`, `end`, reachability endpoints,
//! pragma-named nodes).

use super::graph::{assigns_player, Automaton};
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

fn join_one_pair(automaton: &mut Automaton, join: NodeIndex, protected: &HashSet<NodeIndex>) -> bool {
    let sources: Vec<NodeIndex> = automaton
        .in_edges(join)
        .into_iter()
        .map(|edge| automaton.endpoints(edge).0)
        .filter(|&source| source != join && !protected.contains(&source) && automaton.out_edges(source).len() == 1)
        .collect();
    for (i, &kept) in sources.iter().enumerate() {
        for &merged in &sources[i + 1..] {
            let kept_edge = automaton.out_edges(kept)[0];
            let merged_edge = automaton.out_edges(merged)[0];
            if kept == merged || automaton.label(kept_edge) != automaton.label(merged_edge) {
                continue;
            }
            let merged_in = automaton.in_edges(merged);
            if merged_in.iter().any(|&edge| assigns_player(automaton.label(edge))) {
                continue;
            }
            for edge in merged_in {
                let (source, _) = automaton.endpoints(edge);
                automaton.reconnect(edge, source, kept);
            }
            automaton.remove_node(merged);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn equal_last_steps_share_a_node() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b}; var v: C = a;
             begin, m: player = x;
             m, p1: $ one;
             m, p2: $ two;
             p1, q1: v = b;
             p2, q2: v = a;
             q1, r: $ done;
             q2, r: $ done;
             r, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::JoinForkSuffixes);
        assert_eq!(changes, 1);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn states_nodes_are_not_joined() {
        let game = parse(
            "type Player = {x}; type Score = {0};
             begin, a: player = x;
             begin, b: player = x;
             a, end: player = keeper;
             b, end: player = keeper;",
        );
        assert_eq!(run_pass(&game, Pass::JoinForkSuffixes).1, 0);
    }
}
