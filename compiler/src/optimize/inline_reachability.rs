//! `inline_reachability`: replaces a reachability check by the checked paths themselves when
//! following them cannot change the state. Preserves every move, successor and move order: the
//! copied paths hold only guards (tags become skips, as the check ignores them), so every way
//! through them reaches the check's target in the state the check started from, and the search's
//! visited set merges those arrivals into one.
//!
//! - `? a -> a` becomes a skip and an edge `! a -> a` is removed (a node reaches itself).
//! - When the only way from `a` to `b` is one comparison edge `a -> b` (and `a` has no other
//!   out-edge into the paths to `b`), `? a -> b` becomes that comparison and `! a -> b` its negation.
//! - Otherwise a positive check whose paths from `a` to `b` are guards only (at most
//!   [`MAX_INLINED_EDGES`] edges), and the only check starting at `a`, is replaced by a fresh copy
//!   of those paths (the original then becomes unreachable, so the game does not grow).
//!
//! Does not apply to checks whose paths assign anything (the assignment would escape into the
//! move) or hold nested checks, nor to other negated checks (a negation of many paths is not a
//! path).

use super::graph::{derived_key, Automaton};
use crate::rg::ast::Label;
use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::{Dfs, Reversed, Walker};
use petgraph::Direction;
use std::collections::{HashMap, HashSet};

/// Checks spanning more edges than this are left alone (copies would bloat the automaton).
pub const MAX_INLINED_EDGES: usize = 32;

pub fn run(automaton: &mut Automaton) -> usize {
    let mut changes = 0;
    for edge in automaton.edges_in_order() {
        if automaton.graph.edge_weight(edge).is_some() && inline_one(automaton, edge) {
            changes += 1;
        }
    }
    changes
}

fn inline_one(automaton: &mut Automaton, edge: EdgeIndex) -> bool {
    let Label::Reach { from, to, negated } = automaton.label(edge).clone() else {
        return false;
    };
    if from.name == to.name {
        if negated {
            automaton.graph.remove_edge(edge);
        } else {
            automaton.graph[edge].label = Label::Skip;
        }
        return true;
    }
    let (Some(start), Some(target)) = (automaton.node(&from.name), automaton.node(&to.name)) else {
        return false;
    };
    let paths = edges_on_paths(automaton, start, target);
    if paths.is_empty() || paths.len() > MAX_INLINED_EDGES {
        return false;
    }
    if let [single] = paths.as_slice() {
        if let Label::Compare { lhs, rhs, negated: compare_negated } = automaton.label(*single).clone() {
            automaton.graph[edge].label = Label::Compare { lhs, rhs, negated: compare_negated != negated };
            return true;
        }
    }
    if negated || !paths.iter().all(|&e| is_guard(automaton.label(e))) {
        return false;
    }
    // Copy only a sub-automaton no other check uses, so the original becomes unreachable and the
    // game does not grow.
    let checks_from_start = automaton
        .graph
        .edge_weights()
        .filter(|e| matches!(&e.label, Label::Reach { from: f, .. } if f.name == from.name))
        .count();
    if checks_from_start > 1 {
        return false;
    }
    copy_paths(automaton, edge, start, target, &paths);
    true
}

/// Labels a copy may hold. Nested checks are excluded: copying a check that (indirectly) checks
/// itself would grow the automaton on every round.
fn is_guard(label: &Label) -> bool {
    matches!(label, Label::Skip | Label::Compare { .. } | Label::Tag(_) | Label::TagVar(_))
}

/// Edges that lie on some path from `start` to `target` that does not pass through `target`
/// before its end, in declaration order.
pub(super) fn edges_on_paths(automaton: &Automaton, start: NodeIndex, target: NodeIndex) -> Vec<EdgeIndex> {
    let forward: HashSet<NodeIndex> = Dfs::new(&automaton.graph, start).iter(&automaton.graph).collect();
    let reversed = Reversed(&automaton.graph);
    let backward: HashSet<NodeIndex> = Dfs::new(reversed, target).iter(reversed).collect();
    automaton
        .edges_in_order()
        .into_iter()
        .filter(|&e| {
            let (source, end) = automaton.endpoints(e);
            source != target && forward.contains(&source) && backward.contains(&end)
        })
        .collect()
}

/// Replaces the check `edge` (u -> v) by `u -> start'`, copies of `paths` with tags as skips, and
/// `target' -> v`, where primed nodes are fresh.
fn copy_paths(automaton: &mut Automaton, edge: EdgeIndex, start: NodeIndex, target: NodeIndex, paths: &[EdgeIndex]) {
    let (source, after) = automaton.endpoints(edge);
    let key = automaton.graph[edge].key.clone();
    let span = automaton.graph[edge].span;
    let mut copies: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    let prefix = format!("{}__", automaton.name(source));
    let mut copy_of = |automaton: &mut Automaton, node: NodeIndex| -> NodeIndex {
        if let Some(&copy) = copies.get(&node) {
            return copy;
        }
        let name = automaton.fresh_name(&format!("{prefix}{}", automaton.name(node)));
        let copy = automaton.node_or_insert(&name);
        copies.insert(node, copy);
        copy
    };
    let start_copy = copy_of(automaton, start);
    let target_copy = copy_of(automaton, target);
    automaton.graph.remove_edge(edge);
    automaton.add_edge(source, start_copy, Label::Skip, key.clone(), span);
    for (index, &path_edge) in paths.iter().enumerate() {
        let (from, to) = automaton.endpoints(path_edge);
        let label = match automaton.label(path_edge) {
            Label::Tag(_) | Label::TagVar(_) => Label::Skip,
            other => other.clone(),
        };
        let path_span = automaton.graph[path_edge].span;
        let (from, to) = (copy_of(automaton, from), copy_of(automaton, to));
        automaton.add_edge(from, to, label, derived_key(&key, index as u32), path_span);
    }
    automaton.add_edge(target_copy, after, Label::Skip, derived_key(&key, paths.len() as u32), span);
    debug_assert!(automaton.graph.edges_directed(target_copy, Direction::Outgoing).count() == 1);
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn single_comparisons_replace_their_checks() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b}; var v: C = a;
             begin, yes: ? probe -> hit;
             begin, no: ! probe -> hit;
             begin, self: ? probe -> probe;
             yes, end: player = keeper;
             no, end: player = keeper;
             self, end: player = keeper;
             probe, hit: v == a;",
        );
        let (game, changes) = run_pass(&game, Pass::InlineReachability);
        assert_eq!(changes, 3);
        insta::assert_snapshot!(print(&game));
    }

    const GUARDED: &str = "type Player = {x}; type Score = {0}; type C = {a, b}; var v: C = a; var w: C = a;
             begin, found: ? line -> lineFound;
             begin, none: ? pick -> picked;
             found, end: player = keeper;
             none, end: player = keeper;
             line, l1: v == a;
             l1, lineFound: $ ignored;
             line, l2: w == a;
             l2, lineFound: v != b;
             lineFound, line: ;
             pick, p1: w = C(*);
             p1, picked: w == v;";

    #[test]
    fn guard_only_paths_are_copied_and_assignments_block() {
        let (game, changes) = run_pass(&parse(GUARDED), Pass::InlineReachability);
        assert_eq!(changes, 1, "the check over `pick` assigns `w`");
        let shared = GUARDED.replace("begin, none: ? pick -> picked;", "begin, none: ! line -> lineFound;");
        assert_eq!(run_pass(&parse(&shared), Pass::InlineReachability).1, 0, "`line` is checked twice");
        insta::assert_snapshot!(print(&game));
    }
}
