//! `compact_skip_edges`: removes skip edges by bypassing or merging their nodes. Preserves every
//! move (tag sequence), successor state (node and values) and the order moves are found in: a
//! removed node is never a state's node (`begin`, a `player =` target), never a reachability
//! endpoint, never named by a pragma, and no self-loop is created.
//!
//! Two rewrites, each applied to one node at a time:
//! - bypass: a node `y` whose only out-edge is the skip `y -> z` disappears; every `w -> y` edge
//!   becomes `w -> z` with the same label (allowed only when no such edge assigns `player`, since
//!   that would move a state from `y` to `z`).
//! - splice: when a skip `x -> y` is `y`'s only in-edge, `y`'s out-edges replace that skip among
//!   `x`'s out-edges (in the skip's place, keeping the search order), and `y` disappears.

use super::graph::{assigns_player, derived_key, Automaton};
use crate::rg::ast::Label;
use petgraph::stable_graph::NodeIndex;
use std::collections::HashSet;

pub fn run(automaton: &mut Automaton) -> usize {
    let mut changes = 0;
    let nodes: Vec<NodeIndex> = automaton.graph.node_indices().collect();
    // Computed once: a rewrite never removes a protected node nor names a new one (it moves and
    // merges edges whose reachability labels keep their endpoints). Recomputing it per node made
    // the pass quadratic (Dou Dizhu: 9,000 nodes x 20,000 edges).
    let protected = automaton.protected_nodes();
    for node in nodes {
        if !automaton.graph.contains_node(node) {
            continue;
        }
        if try_bypass(automaton, node, &protected) || try_merge_successor(automaton, node, &protected) {
            changes += 1;
        }
    }
    changes
}

/// The single skip out-edge target of `node`, if that is all `node` has.
fn only_skip_successor(automaton: &Automaton, node: NodeIndex) -> Option<NodeIndex> {
    let out = automaton.out_edges(node);
    let [edge] = out.as_slice() else {
        return None;
    };
    let (_, target) = automaton.endpoints(*edge);
    (matches!(automaton.label(*edge), Label::Skip) && target != node).then_some(target)
}

fn try_bypass(automaton: &mut Automaton, node: NodeIndex, protected: &HashSet<NodeIndex>) -> bool {
    if protected.contains(&node) {
        return false;
    }
    let Some(target) = only_skip_successor(automaton, node) else {
        return false;
    };
    let in_edges = automaton.in_edges(node);
    let blocked = in_edges.iter().any(|&edge| {
        let (source, _) = automaton.endpoints(edge);
        source == target || assigns_player(automaton.label(edge))
    });
    if in_edges.is_empty() || blocked {
        return false;
    }
    for edge in in_edges {
        let (source, _) = automaton.endpoints(edge);
        automaton.reconnect(edge, source, target);
    }
    automaton.remove_node(node);
    true
}

/// Splices into `node`, in place of a skip edge `node -> y`, the out-edges of `y` when that skip
/// is `y`'s only in-edge; `y` disappears. The search at `node` then tries exactly the edges it
/// tried before, in the same order.
fn try_merge_successor(automaton: &mut Automaton, node: NodeIndex, protected: &HashSet<NodeIndex>) -> bool {
    if automaton.is_named_by_pragma(node) {
        return false;
    }
    for skip in automaton.out_edges(node) {
        let (_, successor) = automaton.endpoints(skip);
        if !matches!(automaton.label(skip), Label::Skip) || successor == node || protected.contains(&successor) {
            continue;
        }
        if automaton.in_edges(successor).len() != 1 {
            continue;
        }
        let successor_out = automaton.out_edges(successor);
        if successor_out.iter().any(|&edge| automaton.endpoints(edge).1 == node) {
            continue;
        }
        let skip_key = automaton.graph[skip].key.clone();
        let only_edge = automaton.out_edges(node).len() == 1;
        for (index, edge) in successor_out.into_iter().enumerate() {
            let (_, target) = automaton.endpoints(edge);
            let moved = automaton.reconnect(edge, node, target);
            // With other out-edges around, the spliced edges take the skip's place in the order.
            if !only_edge {
                automaton.graph[moved].key = derived_key(&skip_key, index as u32);
            }
        }
        automaton.remove_node(successor);
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{optimize, run_pass, Pass, PassSet};

    #[test]
    fn chains_of_skips_collapse() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b}; var v: C = a;
             begin, s1: ;
             s1, s2: ;
             s2, t: player = x;
             t, u: v = b;
             u, w: ;
             w, t2: $ a;
             t2, end: player = keeper;",
        );
        let (game, stats) = optimize(&game, &PassSet::parse("compact_skip_edges").unwrap());
        assert_eq!(stats[0].changes, 3);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn move_targets_reach_endpoints_and_pragma_nodes_stay() {
        let game = parse(
            "type Player = {x}; type Score = {0};
             begin, m: player = x;
             m, m2: ;
             m2, r: $ a;
             r, q: ? c1 -> c2;
             q, p: ;
             p, end: player = keeper;
             c1, c2: ;
             @unique p;",
        );
        let (game, changes) = run_pass(&game, Pass::CompactSkipEdges);
        assert_eq!(changes, 2, "m2 merges into m, q is bypassed");
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn a_skip_among_other_edges_is_spliced_in_place() {
        let game = parse(
            "type Player = {x}; type Score = {0};
             begin, m: player = x;
             m, a: $ first;
             m, y: ;
             m, b: $ last;
             y, c: $ second;
             y, d: $ third;
             a, end: player = keeper;
             b, end: player = keeper;
             c, end: player = keeper;
             d, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::CompactSkipEdges);
        assert_eq!(changes, 1);
        // m's edges in search order: first, second, third, last.
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn no_self_loop_is_created() {
        let game = parse(
            "type Player = {x}; type Score = {0};
             begin, a: player = x;
             a, b: $ t;
             b, a: ;
             a, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::CompactSkipEdges);
        assert_eq!(changes, 0);
        assert_eq!(
            print(&game),
            print(&parse(
                "type Player = {x}; type Score = {0};
             begin, a: player = x;
             a, b: $ t;
             b, a: ;
             a, end: player = keeper;",
            ))
        );
    }
}
