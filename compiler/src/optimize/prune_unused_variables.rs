//! `prune_unused_variables`: removes variables that nothing reads (no expression outside their own
//! assignment targets, no pragma), turning their assignments into skips. Preserves moves, keeper
//! behaviour, visibility and scores; successor states lose only the removed variables. Never
//! touches `player`, `goals` or `visible`, which the runtime reads itself, nor a variable written
//! through a key that may lie outside its domain (a runtime error to keep), nor a variable that a
//! `random` move, or the keeper moves completing it, may assign: perft counts `random`'s distinct
//! outcomes (the states after those keeper moves), and such a variable could tell two apart.

use super::env::{Env, Value};
use super::graph::{assigned_root, assigns_player, expr_idents, target_keys, Automaton, RESERVED_VARIABLES};
use super::value_sets::ValueSets;
use crate::rg::ast::{Decl, Label};
use petgraph::stable_graph::NodeIndex;
use std::collections::HashSet;

pub fn run(automaton: &mut Automaton) -> usize {
    let read = read_names(automaton);
    let mut unused: HashSet<String> = automaton
        .decls
        .iter()
        .filter_map(|(_, decl)| match decl {
            Decl::Var(variable) => Some(variable.name.name.clone()),
            _ => None,
        })
        .filter(|name| !RESERVED_VARIABLES.contains(&name.as_str()) && !read.contains(name))
        .collect();
    if unused.is_empty() {
        // The analyses below are the expensive part; most runs stop here.
        return 0;
    }
    let env = Env::new(automaton);
    let value_sets = ValueSets::new(automaton, &env);
    for name in assigned_after_random(automaton, &value_sets)
        .into_iter()
        .chain(written_with_possibly_bad_keys(automaton, &value_sets))
    {
        unused.remove(&name);
    }
    if unused.is_empty() {
        return 0;
    }
    automaton.decls.retain(|(_, decl)| !matches!(decl, Decl::Var(v) if unused.contains(&v.name.name)));
    for edge in automaton.edges_in_order() {
        if let Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } = automaton.label(edge) {
            if assigned_root(lhs).is_some_and(|root| unused.contains(root)) {
                automaton.graph[edge].label = Label::Skip;
            }
        }
    }
    unused.len()
}

/// Variables assigned in a `random` move or in the keeper moves that follow it before a player
/// moves: a chance outcome is the state after them, and perft counts distinct outcomes, so a value
/// stored there (even one nothing reads later) can tell two outcomes apart.
pub(super) fn assigned_after_random(automaton: &Automaton, value_sets: &ValueSets) -> HashSet<String> {
    let random = Value::Symbol("random".to_string());
    let keeper = Value::Symbol("keeper".to_string());
    let mut stack: Vec<NodeIndex> = automaton
        .graph
        .edge_indices()
        .filter(|&edge| match automaton.label(edge) {
            Label::Assign { lhs, rhs } if assigned_root(lhs) == Some("player") => {
                value_sets.values(rhs).is_none_or(|values| values.contains(&random))
            }
            _ => false,
        })
        .map(|edge| automaton.endpoints(edge).1)
        .collect();
    let mut seen = HashSet::new();
    let mut assigned = HashSet::new();
    while let Some(node) = stack.pop() {
        if !seen.insert(node) {
            continue;
        }
        for edge in automaton.out_edges(node) {
            let label = automaton.label(edge);
            if assigns_player(label) {
                // Only the keeper's moves belong to the same outcome.
                let to_keeper_only = match label {
                    Label::Assign { rhs, .. } => {
                        value_sets.values(rhs).is_some_and(|values| values.iter().all(|value| value == &keeper))
                    }
                    _ => false,
                };
                if !to_keeper_only {
                    continue;
                }
            }
            if let Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } = label {
                assigned.extend(assigned_root(lhs).map(str::to_string));
            }
            stack.push(automaton.endpoints(edge).1);
        }
    }
    assigned
}

/// Variables written through a key that may fall outside its map's domain: that write is a
/// runtime error, which removing the variable would hide.
fn written_with_possibly_bad_keys(automaton: &Automaton, value_sets: &ValueSets) -> Vec<String> {
    automaton
        .graph
        .edge_weights()
        .filter_map(|edge| match &edge.label {
            Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. }
                if !value_sets.assignment_target_always_in_domain(lhs) =>
            {
                assigned_root(lhs).map(str::to_string)
            }
            _ => None,
        })
        .collect()
}

/// Every identifier that is read somewhere: in an expression other than an assignment's root
/// variable, or in a pragma. (Over-approximates: symbols with a variable's name count too.)
fn read_names(automaton: &Automaton) -> HashSet<String> {
    let mut names: Vec<&str> = Vec::new();
    for edge in automaton.graph.edge_weights() {
        match &edge.label {
            Label::Assign { lhs, rhs } => {
                target_keys(lhs, &mut |key| expr_idents(key, &mut names));
                expr_idents(rhs, &mut names);
            }
            Label::AssignAny { lhs, .. } => target_keys(lhs, &mut |key| expr_idents(key, &mut names)),
            Label::Compare { lhs, rhs, .. } => {
                expr_idents(lhs, &mut names);
                expr_idents(rhs, &mut names);
            }
            Label::TagVar(expr) => expr_idents(expr, &mut names),
            Label::Skip | Label::Reach { .. } | Label::Tag(_) => {}
        }
    }
    let mut read: HashSet<String> = names.into_iter().map(str::to_string).collect();
    for (_, decl) in &automaton.decls {
        if let Decl::Pragma(pragma) = decl {
            read.extend(pragma.tokens.iter().cloned());
        }
    }
    read
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn variables_a_random_outcome_assigns_stay() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type D = {d1, d2};
             var log: D = d1; var last: D = d1; var note: D = d1;
             begin, r: player = random;
             r, r1: log = D(*);
             r1, k: player = keeper;
             k, k1: last = d2;
             k1, p: player = x;
             p, p1: $ go;
             p1, q: player = keeper;
             q, q1: note = d2;
             q1, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::PruneUnusedVariables);
        // `log` is assigned by the random move and `last` by the keeper move completing it (the
        // outcome perft counts); `note`, assigned by a keeper move after `x`'s move, goes.
        assert_eq!(changes, 1);
        let printed = print(&game);
        assert!(printed.contains("var log") && printed.contains("var last"), "{printed}");
        assert!(!printed.contains("var note"), "{printed}");
    }

    #[test]
    fn write_only_variables_go_with_their_assignments() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b}; type M = C -> C;
             var written: C = a; var read: C = a; var keyed: M = {:a}; var key: C = b;
             var risky: M = {:a}; var badKey: D = z; type D = {a, z};
             var visible: Visibility = {:1};
             begin, n1: written = b;
             n1, n2: written = C(*);
             n2, n3: keyed[a] = read;
             n2, n3: risky[badKey] = a;
             n2, n3: keyed[key] = a;
             n3, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::PruneUnusedVariables);
        // `written` and `keyed` are never read; `key` is read as a key, `read` on a right side;
        // `risky` is written at a key that may be outside its domain (`badKey` may be `z`).
        assert_eq!(changes, 2);
        insta::assert_snapshot!(print(&game));
    }
}
