//! `skip_self_comparisons`: `e == e` becomes a skip and an edge guarded by `e != e` is removed.
//! Preserves every state and move exactly (evaluating an expression has no effect and cannot fail).

use super::env::strip_casts;
use super::graph::Automaton;
use crate::rg::ast::Label;

pub fn run(automaton: &mut Automaton) -> usize {
    let mut changes = 0;
    for edge in automaton.edges_in_order() {
        if let Label::Compare { lhs, rhs, negated } = automaton.label(edge) {
            if strip_casts(lhs) == strip_casts(rhs) {
                if *negated {
                    automaton.graph.remove_edge(edge);
                } else {
                    automaton.graph[edge].label = Label::Skip;
                }
                changes += 1;
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn equal_operands_pass_or_block() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b}; var v: Cell = a;
             begin, n1: v == Cell(v);
             n1, n2: v != v;
             n1, n3: v != a;
             n3, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::SkipSelfComparisons);
        assert_eq!(changes, 2);
        insta::assert_snapshot!(print(&game));
    }
}
