//! `prune_unused_constants`: removes constants that no expression, value, pragma or other
//! constant mentions. Preserves everything: nothing can observe an unmentioned constant.

use super::graph::{expr_idents, label_exprs, Automaton};
use crate::rg::ast::{Decl, ValueExpr};
use std::collections::HashSet;

pub fn run(automaton: &mut Automaton) -> usize {
    let mut mentioned: HashSet<String> = HashSet::new();
    for edge in automaton.graph.edge_weights() {
        let mut names = Vec::new();
        for expr in label_exprs(&edge.label) {
            expr_idents(expr, &mut names);
        }
        mentioned.extend(names.into_iter().map(str::to_string));
    }
    for (_, decl) in &automaton.decls {
        match decl {
            Decl::Const(constant) => value_idents(&constant.value, &mut mentioned),
            Decl::Var(variable) => value_idents(&variable.value, &mut mentioned),
            Decl::Pragma(pragma) => mentioned.extend(pragma.tokens.iter().cloned()),
            Decl::Type(_) | Decl::Edge(_) => {}
        }
    }
    let before = automaton.decls.len();
    automaton.decls.retain(|(_, decl)| !matches!(decl, Decl::Const(c) if !mentioned.contains(&c.name.name)));
    before - automaton.decls.len()
}

fn value_idents(value: &ValueExpr, out: &mut HashSet<String>) {
    match value {
        ValueExpr::Ident(ident) => {
            out.insert(ident.name.clone());
        }
        ValueExpr::Map { entries, default, .. } => {
            for (_, value) in entries {
                value_idents(value, out);
            }
            if let Some(default) = default {
                value_idents(default, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn only_unmentioned_constants_go() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type C = {a, b};
             const base: C = a; const table: C -> C = {a: base, :b}; const unused: C = b;
             const in_var: C = b; var v: C = in_var;
             begin, n1: v == table[a];
             n1, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::PruneUnusedConstants);
        assert_eq!(changes, 1);
        insta::assert_snapshot!(print(&game));
    }
}
