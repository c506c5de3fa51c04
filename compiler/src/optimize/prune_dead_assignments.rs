//! `prune_dead_assignments`: an assignment `x = e` to a whole variable becomes a skip when no path
//! from its target reads `x` before assigning it again (a cursor reset at the end of a turn, a
//! temporary overwritten on every path). Preserves every move, keeper behaviour, visibility and
//! score; a successor state may differ only in such a variable, whose value nothing ever reads.
//!
//! Liveness is a backward "may" analysis over the whole graph: a check `? a -> b` reads whatever is
//! live at `a`; `player`, `goals`, `visible` and variables named by pragmas are always live (the
//! runtime reads them). It leaves alone variables assigned in a `random` move or in the keeper moves
//! completing it (perft counts random's distinct outcomes, the states after those keeper moves, so
//! a stored value can tell two apart even if nothing reads it), and any-assignments `x = T(*)`,
//! which branch.

use super::env::{strip_casts, Env};
use super::graph::{expr_idents, target_keys, Automaton, RESERVED_VARIABLES};
use super::prune_unused_variables::assigned_after_random;
use super::value_sets::ValueSets;
use crate::rg::ast::{Decl, Expr, Label};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use std::collections::{HashMap, HashSet};

pub fn run(automaton: &mut Automaton) -> usize {
    let env = Env::new(automaton);
    let candidates: Vec<_> = automaton
        .edges_in_order()
        .into_iter()
        .filter(|&edge| whole_assignment(automaton.label(edge)).is_some())
        .collect();
    if candidates.is_empty() {
        return 0;
    }
    let live = live_variables(automaton, &env);
    let mut always_live: HashSet<String> = RESERVED_VARIABLES.iter().map(|name| name.to_string()).collect();
    for (_, decl) in &automaton.decls {
        if let Decl::Pragma(pragma) = decl {
            always_live.extend(pragma.tokens.iter().cloned());
        }
    }
    let dead: Vec<_> = candidates
        .into_iter()
        .filter(|&edge| {
            let variable = whole_assignment(automaton.label(edge)).unwrap_or_default();
            let (_, target) = automaton.endpoints(edge);
            !always_live.contains(variable) && !live.get(&target).is_some_and(|names| names.contains(variable))
        })
        .collect();
    if dead.is_empty() {
        return 0;
    }
    let value_sets = ValueSets::new(automaton, &env);
    let random = assigned_after_random(automaton, &value_sets);
    let mut changes = 0;
    for edge in dead {
        let variable = whole_assignment(automaton.label(edge)).unwrap_or_default();
        if !random.contains(variable) {
            automaton.graph[edge].label = Label::Skip;
            changes += 1;
        }
    }
    changes
}

/// `x` for `x = e` (casts aside); not for writes through a key or any-assignments.
fn whole_assignment(label: &Label) -> Option<&str> {
    match label {
        Label::Assign { lhs, .. } => match strip_casts(lhs) {
            Expr::Ident(ident) => Some(&ident.name),
            _ => None,
        },
        _ => None,
    }
}

/// The variables live at each node: read on some path from it before being assigned whole.
fn live_variables(automaton: &Automaton, env: &Env) -> HashMap<NodeIndex, HashSet<String>> {
    let reads = |expr: &Expr, out: &mut HashSet<String>| {
        let mut names = Vec::new();
        expr_idents(expr, &mut names);
        out.extend(names.into_iter().filter(|name| env.is_variable(name)).map(str::to_string));
    };
    // For each check start, the edges whose checks start there (their sources read what is live there).
    let mut checks_from: HashMap<NodeIndex, Vec<NodeIndex>> = HashMap::new();
    for edge in automaton.graph.edge_indices() {
        if let Label::Reach { from, .. } = automaton.label(edge) {
            if let Some(start) = automaton.node(&from.name) {
                checks_from.entry(start).or_default().push(automaton.endpoints(edge).0);
            }
        }
    }
    let mut live: HashMap<NodeIndex, HashSet<String>> =
        automaton.graph.node_indices().map(|node| (node, HashSet::new())).collect();
    let mut work: Vec<NodeIndex> = automaton.graph.node_indices().collect();
    let mut queued: HashSet<NodeIndex> = work.iter().copied().collect();
    while let Some(node) = work.pop() {
        queued.remove(&node);
        let mut here: HashSet<String> = HashSet::new();
        for edge in automaton.graph.edges_directed(node, Direction::Outgoing) {
            let label = &edge.weight().label;
            let mut after = live[&edge.target()].clone();
            match label {
                Label::Assign { lhs, rhs } => {
                    if let Some(variable) = whole_assignment(label) {
                        after.remove(variable);
                    }
                    target_keys(lhs, &mut |key| reads(key, &mut after));
                    reads(rhs, &mut after);
                }
                Label::AssignAny { lhs, .. } => {
                    if let Expr::Ident(ident) = strip_casts(lhs) {
                        after.remove(&ident.name);
                    }
                    target_keys(lhs, &mut |key| reads(key, &mut after));
                }
                Label::Compare { lhs, rhs, .. } => {
                    reads(lhs, &mut after);
                    reads(rhs, &mut after);
                }
                Label::TagVar(expr) => reads(expr, &mut after),
                Label::Reach { from, .. } => {
                    if let Some(start) = automaton.node(&from.name) {
                        after.extend(live[&start].iter().cloned());
                    }
                }
                Label::Skip | Label::Tag(_) => {}
            }
            here.extend(after);
        }
        if here.len() > live[&node].len() {
            live.insert(node, here);
            let predecessors = automaton.graph.edges_directed(node, Direction::Incoming).map(|edge| edge.source());
            let checkers = checks_from.get(&node).into_iter().flatten().copied();
            for predecessor in predecessors.chain(checkers).collect::<Vec<_>>() {
                if queued.insert(predecessor) {
                    work.push(predecessor);
                }
            }
        }
    }
    live
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn stores_overwritten_before_any_read_become_skips() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b};
             var cursor: Cell = a; var temp: Cell = a; var seen: Cell = a; var board: Cell -> Cell = {:a};
             begin, turn: player = x;
             turn, t1: cursor = b;
             t1, t2: temp = a;
             t2, t3: board[cursor] = temp;
             t3, t4: temp = b;
             t4, t5: seen = b;
             t5, t6: ? probe -> probed;
             probe, probed: seen == b;
             t6, t7: cursor = a;
             t7, t8: $ go;
             t8, turn: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::PruneDeadAssignments);
        // `temp = b` is overwritten (by `temp = a`) before `board[cursor] = temp` reads it again;
        // `cursor = a` too (by `cursor = b`). `seen = b` is read by the check; `temp = a` and
        // `cursor = b` are read by `board[cursor] = temp`.
        assert_eq!(changes, 2);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn random_outcomes_and_runtime_variables_keep_their_stores() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b};
             var roll: Cell = a; var kept: Cell = a; var note: Cell = a;
             begin, r: player = random;
             r, r1: roll = b;
             r1, r2: $ rolled;
             r2, k: player = keeper;
             k, k1: kept = b;
             k1, m: player = x;
             m, m1: note = b;
             m1, m2: $ moved;
             m2, k2: player = keeper;
             k2, k3: goals[x] = 0;
             k3, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::PruneDeadAssignments);
        // All three stores are dead, but `roll` (the random move) and `kept` (the keeper move that
        // completes the chance outcome) can tell outcomes apart; `note`, in x's move, goes.
        assert_eq!(changes, 1);
        let printed = print(&game);
        assert!(printed.contains("r, r1: roll = b;") && printed.contains("k, k1: kept = b;"), "{printed}");
        assert!(printed.contains("m, m1: ;") && printed.contains("k2, k3: goals[x] = 0;"), "{printed}");
    }
}
