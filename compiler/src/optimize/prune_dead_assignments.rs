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
use petgraph::visit::{EdgeRef, NodeIndexable};
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
            !always_live.contains(variable) && !live.contains(target, variable)
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

/// The variables live at each node (read on some path from it before being assigned whole), as
/// one bitset over the variables per node.
struct Liveness<'a> {
    index: HashMap<&'a str, usize>,
    words: usize,
    bits: Vec<u64>,
}

impl Liveness<'_> {
    fn contains(&self, node: NodeIndex, variable: &str) -> bool {
        self.index
            .get(variable)
            .is_some_and(|&bit| self.bits[node.index() * self.words + bit / 64] & (1 << (bit % 64)) != 0)
    }
}

/// One out-edge's effect on liveness: what it kills (a whole assignment), what it reads, and the
/// start of the check it makes (which reads whatever is live there).
struct Transfer {
    target: NodeIndex,
    kills: Option<usize>,
    reads: Vec<usize>,
    check_start: Option<NodeIndex>,
}

/// The variables live at each node, by a backward worklist to the least fixed point. Cost: each
/// node's set only grows, so each node is revisited at most once per variable; a visit costs its
/// out-edges times the bitset's words (a handful of `u64`s), not string sets (which made this
/// pass the optimiser's slowest on Dou Dizhu).
fn live_variables<'a>(automaton: &Automaton, env: &'a Env) -> Liveness<'a> {
    let index: HashMap<&str, usize> =
        env.variables().enumerate().map(|(bit, (name, _))| (name.as_str(), bit)).collect();
    let words = index.len().div_ceil(64).max(1);
    let reads = |expr: &Expr, out: &mut Vec<usize>| {
        let mut names = Vec::new();
        expr_idents(expr, &mut names);
        out.extend(names.into_iter().filter_map(|name| index.get(name).copied()));
    };
    let bound = automaton.graph.node_bound();
    let mut transfers: Vec<Vec<Transfer>> = (0..bound).map(|_| Vec::new()).collect();
    // For each check start, the nodes whose out-edges check from there.
    let mut checks_from: HashMap<NodeIndex, Vec<NodeIndex>> = HashMap::new();
    for node in automaton.graph.node_indices() {
        for edge in automaton.graph.edges_directed(node, Direction::Outgoing) {
            let label = &edge.weight().label;
            let mut transfer = Transfer { target: edge.target(), kills: None, reads: Vec::new(), check_start: None };
            match label {
                Label::Assign { lhs, rhs } => {
                    transfer.kills = whole_assignment(label).and_then(|variable| index.get(variable).copied());
                    target_keys(lhs, &mut |key| reads(key, &mut transfer.reads));
                    reads(rhs, &mut transfer.reads);
                }
                Label::AssignAny { lhs, .. } => {
                    if let Expr::Ident(ident) = strip_casts(lhs) {
                        transfer.kills = index.get(ident.name.as_str()).copied();
                    }
                    target_keys(lhs, &mut |key| reads(key, &mut transfer.reads));
                }
                Label::Compare { lhs, rhs, .. } => {
                    reads(lhs, &mut transfer.reads);
                    reads(rhs, &mut transfer.reads);
                }
                Label::TagVar(expr) => reads(expr, &mut transfer.reads),
                Label::Reach { from, .. } => {
                    transfer.check_start = automaton.node(&from.name);
                    if let Some(start) = transfer.check_start {
                        checks_from.entry(start).or_default().push(node);
                    }
                }
                Label::Skip | Label::Tag(_) => {}
            }
            transfers[node.index()].push(transfer);
        }
    }
    let mut bits = vec![0u64; bound * words];
    let mut work: Vec<NodeIndex> = automaton.graph.node_indices().collect();
    let mut queued = vec![false; bound];
    for node in &work {
        queued[node.index()] = true;
    }
    let mut here = vec![0u64; words];
    let mut after = vec![0u64; words];
    while let Some(node) = work.pop() {
        queued[node.index()] = false;
        here.fill(0);
        for transfer in &transfers[node.index()] {
            let target = transfer.target.index() * words;
            after.copy_from_slice(&bits[target..target + words]);
            if let Some(bit) = transfer.kills {
                after[bit / 64] &= !(1 << (bit % 64));
            }
            for &bit in &transfer.reads {
                after[bit / 64] |= 1 << (bit % 64);
            }
            if let Some(start) = transfer.check_start {
                let start = start.index() * words;
                for (word, live) in after.iter_mut().zip(&bits[start..start + words]) {
                    *word |= live;
                }
            }
            for (word, live) in here.iter_mut().zip(&after) {
                *word |= live;
            }
        }
        let at = node.index() * words;
        // Sets only grow, so a change is a new bit.
        if here[..] != bits[at..at + words] {
            bits[at..at + words].copy_from_slice(&here);
            let predecessors = automaton.graph.edges_directed(node, Direction::Incoming).map(|edge| edge.source());
            let checkers = checks_from.get(&node).into_iter().flatten().copied();
            for predecessor in predecessors.chain(checkers).collect::<Vec<_>>() {
                if !queued[predecessor.index()] {
                    queued[predecessor.index()] = true;
                    work.push(predecessor);
                }
            }
        }
    }
    Liveness { index, words, bits }
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
