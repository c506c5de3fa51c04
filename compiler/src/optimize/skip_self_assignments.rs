//! `skip_self_assignments`: an assignment `x = x` becomes a skip. Preserves every state and move
//! exactly; never touches `player` (assigning it ends a move) nor a target whose keys might fall
//! outside their map's domain (that assignment is a runtime error, which must stay one).

use super::env::{strip_casts, Env};
use super::graph::{assigns_player, Automaton};
use super::value_sets::ValueSets;
use crate::rg::ast::Label;

pub fn run(automaton: &mut Automaton) -> usize {
    let candidates: Vec<_> = automaton
        .edges_in_order()
        .into_iter()
        .filter(|&edge| {
            let label = automaton.label(edge);
            matches!(label, Label::Assign { lhs, rhs } if strip_casts(lhs) == strip_casts(rhs) && !assigns_player(label))
        })
        .collect();
    if candidates.is_empty() {
        // Building the value sets is the expensive part; most runs stop here.
        return 0;
    }
    let env = Env::new(automaton);
    let value_sets = ValueSets::new(automaton, &env);
    let safe: Vec<_> = candidates
        .into_iter()
        .filter(|&edge| match automaton.label(edge) {
            Label::Assign { lhs, .. } => value_sets.assignment_target_always_in_domain(lhs),
            _ => false,
        })
        .collect();
    for &edge in &safe {
        automaton.graph[edge].label = Label::Skip;
    }
    safe.len()
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    const GAME: &str = "
        type Player = {x}; type Score = {0}; type Cell = {a, b}; type Board = Cell -> Cell;
        var v: Cell = a; var board: Board = {:a}; var w: Wide = a; type Wide = {a, b, z};
        begin, n1: v = v;
        n1, n2: board[a] = board[a];
        n2, n3: board[v] = board[v];
        n3, n3b: board[w] = board[w];
        n3b, n3: w = z;
        n3, n4: Cell(v) = v;
        n4, n5: player = player;
        n5, end: player = keeper;
    ";

    #[test]
    fn self_assignments_become_skips_except_player_and_keys_outside_domains() {
        let (game, changes) = run_pass(&parse(GAME), Pass::SkipSelfAssignments);
        // `v` only ever holds `a`, inside `Cell`; `w` may be `z`, outside it.
        assert_eq!(changes, 4);
        insta::assert_snapshot!(print(&game));
    }
}
