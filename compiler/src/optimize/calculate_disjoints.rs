//! `calculate_disjoints`: adds `@disjoint n : t1 t2 ...;` for each node whose out-edges are
//! pairwise mutually exclusive guards (`e == a` / `e == b` with different constants, `e == f` /
//! `e != f`, `? a -> b` / `! a -> b`) into distinct targets. Adds a hint only; changes nothing
//! the game means. Skips nodes that already have a `@disjoint` or `@disjointExhaustive` pragma.

use super::env::{strip_casts, Env, Value};
use super::graph::Automaton;
use crate::rg::ast::{Decl, Expr, Ident, Label, Pragma, Span};
use petgraph::stable_graph::NodeIndex;
use std::collections::{HashMap, HashSet};

pub fn run(automaton: &mut Automaton) -> usize {
    let env = Env::new(automaton);
    let already: HashSet<String> = automaton
        .decls
        .iter()
        .filter_map(|(_, decl)| match decl {
            Decl::Pragma(p) if p.name.name == "disjoint" || p.name.name == "disjointExhaustive" => {
                p.tokens.first().cloned()
            }
            _ => None,
        })
        .collect();
    let mut nodes: Vec<NodeIndex> = automaton.graph.node_indices().collect();
    nodes.sort_by_key(|&node| automaton.out_edges(node).first().map(|&edge| automaton.graph[edge].key.clone()));
    let mut pragmas = Vec::new();
    for node in nodes {
        let name = automaton.name(node);
        if already.contains(name) {
            continue;
        }
        let out = automaton.out_edges(node);
        if out.len() < 2 {
            continue;
        }
        let targets: Vec<&str> = out.iter().map(|&edge| automaton.name(automaton.endpoints(edge).1)).collect();
        if targets.iter().collect::<HashSet<_>>().len() != targets.len() {
            continue;
        }
        let pairwise_exclusive = out.iter().enumerate().all(|(i, &first)| {
            out[i + 1..].iter().all(|&second| exclusive(&env, automaton.label(first), automaton.label(second)))
        });
        if pairwise_exclusive {
            let mut tokens = vec![name.to_string(), ":".to_string()];
            tokens.extend(targets.iter().map(|t| t.to_string()));
            pragmas.push(Pragma { name: Ident::synthetic("disjoint"), tokens, span: Span::default() });
        }
    }
    let changes = pragmas.len();
    for (index, pragma) in pragmas.into_iter().enumerate() {
        let mut key = automaton.key_at_end();
        key.push(index as u32);
        automaton.decls.push((key, Decl::Pragma(pragma)));
    }
    changes
}

/// Whether no state lets both labels pass.
fn exclusive(env: &Env, first: &Label, second: &Label) -> bool {
    match (first, second) {
        (Label::Reach { from: f1, to: t1, negated: n1 }, Label::Reach { from: f2, to: t2, negated: n2 }) => {
            f1.name == f2.name && t1.name == t2.name && n1 != n2
        }
        (Label::Compare { lhs: l1, rhs: r1, negated: n1 }, Label::Compare { lhs: l2, rhs: r2, negated: n2 }) => {
            let (l1, r1, l2, r2) = (strip_casts(l1), strip_casts(r1), strip_casts(l2), strip_casts(r2));
            let same_operands = (l1 == l2 && r1 == r2) || (l1 == r2 && r1 == l2);
            if same_operands {
                return n1 != n2;
            }
            // `e == a` and `e == b` with known, different values a and b.
            if *n1 || *n2 {
                return false;
            }
            let (Some((subject1, value1)), Some((subject2, value2))) =
                (subject_and_constant(env, l1, r1), subject_and_constant(env, l2, r2))
            else {
                return false;
            };
            subject1 == subject2 && value1 != value2
        }
        _ => false,
    }
}

/// Splits `e == c` into the non-constant side and the constant's value.
fn subject_and_constant<'a>(env: &Env, lhs: &'a Expr, rhs: &'a Expr) -> Option<(&'a Expr, Value)> {
    let no_variables = HashMap::new();
    match (env.fold_ref(lhs, &no_variables), env.fold_ref(rhs, &no_variables)) {
        (None, Some(value)) => Some((lhs, value.into_owned())),
        (Some(value), None) => Some((rhs, value.into_owned())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn exclusive_guards_get_a_pragma() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b, c}; var v: C = a; var w: C = a;
             const first: C = a;
             begin, n1: v == first;
             begin, n2: v == b;
             begin, n3: c == v;
             n1, n4: v == w;
             n1, n5: w != v;
             n2, n6: ? n1 -> n4;
             n2, n7: ! n1 -> n4;
             n3, n8: v == a;
             n3, n9: w == b;
             n4, end: player = keeper;
             n5, end: player = keeper;
             n6, end: player = keeper;
             n7, end: player = keeper;
             n8, end: player = keeper;
             n9, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::CalculateDisjoints);
        // begin, n1 and n2; n3's guards test different variables.
        assert_eq!(changes, 3);
        insta::assert_snapshot!(print(&game));
    }
}
