//! `calculate_uniques`: adds `@unique n1 n2 ...;` listing the nodes that lie on no cycle of the
//! graph one search walks (move searches stop at `player =` edges; reachability sub-searches,
//! which do not stop there, keep those edges), so no search can enter them twice with the same
//! state. Adds a hint only; changes nothing the game means. Nodes already listed stay as they are.

use super::graph::{assigns_player, Automaton};
use crate::rg::ast::{Decl, Ident, Label, Pragma, Span};
use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::{EdgeRef, IntoEdgeReferences};
use std::collections::{HashMap, HashSet};

pub fn run(automaton: &mut Automaton) -> usize {
    let listed: HashSet<String> = automaton
        .decls
        .iter()
        .filter_map(|(_, decl)| match decl {
            Decl::Pragma(p) if p.name.name == "unique" => Some(p.tokens.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let unique: Vec<String> = unique_nodes(automaton)
        .into_iter()
        .map(|n| automaton.name(n).to_string())
        .filter(|n| !listed.contains(n))
        .collect();
    if unique.is_empty() {
        return 0;
    }
    let changes = unique.len();
    let key = automaton.key_at_end();
    let pragma = Pragma { name: Ident::synthetic("unique"), tokens: unique, span: Span::default() };
    automaton.decls.push((key, Decl::Pragma(pragma)));
    changes
}

/// Nodes on no cycle of the search graph, in order of first mention.
pub fn unique_nodes(automaton: &Automaton) -> Vec<NodeIndex> {
    let in_sub_searches = reachable_from_reachability_starts(automaton);
    let mut search_graph: DiGraph<NodeIndex, ()> = DiGraph::new();
    let mut index = HashMap::new();
    let mut nodes: Vec<NodeIndex> = automaton.graph.node_indices().collect();
    nodes.sort();
    for &node in &nodes {
        index.insert(node, search_graph.add_node(node));
    }
    let mut self_loops = HashSet::new();
    for edge in automaton.graph.edge_references() {
        let (source, target) = (edge.source(), edge.target());
        if assigns_player(&edge.weight().label) && !in_sub_searches.contains(&source) {
            continue;
        }
        if source == target {
            self_loops.insert(source);
        }
        search_graph.add_edge(index[&source], index[&target], ());
    }
    let mut on_cycle = self_loops;
    for component in tarjan_scc(&search_graph) {
        if component.len() > 1 {
            on_cycle.extend(component.iter().map(|&i| search_graph[i]));
        }
    }
    nodes.into_iter().filter(|node| !on_cycle.contains(node)).collect()
}

fn reachable_from_reachability_starts(automaton: &Automaton) -> HashSet<NodeIndex> {
    let mut seen = HashSet::new();
    let mut stack: Vec<NodeIndex> = automaton
        .graph
        .edge_weights()
        .filter_map(|edge| match &edge.label {
            Label::Reach { from, .. } => automaton.node(&from.name),
            _ => None,
        })
        .collect();
    while let Some(node) = stack.pop() {
        if seen.insert(node) {
            stack.extend(automaton.graph.neighbors(node));
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn nodes_off_cycles_are_unique() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b}; var v: C = a;
             begin, turn: player = x;
             turn, loop1: v = b;
             loop1, loop2: v = a;
             loop2, loop1: ;
             loop1, chosen: $ t;
             chosen, begin: player = keeper;
             begin, end: ? c1 -> c2;
             c1, c2: player = x;
             c2, c1: ;",
        );
        let (game, changes) = run_pass(&game, Pass::CalculateUniques);
        // begin, turn and chosen are only on cycles through `player =` edges; c1 and c2 form a
        // cycle inside a reachability check; loop1 and loop2 form one inside the move.
        assert_eq!(changes, 4);
        insta::assert_snapshot!(print(&game));
    }
}
