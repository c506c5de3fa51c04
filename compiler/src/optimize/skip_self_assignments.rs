//! `skip_self_assignments`: an assignment `x = x` becomes a skip. Preserves every state and move
//! exactly; never touches `player` (assigning it ends a move) nor a target whose keys might fall
//! outside their map's domain (that assignment is a runtime error, which must stay one).

use super::env::{strip_casts, Env};
use super::graph::{assigns_player, Automaton};
use super::value_sets::ValueSets;
use crate::rg::ast::Label;

pub fn run(automaton: &mut Automaton) -> usize {
    let env = Env::new(automaton);
    let value_sets = ValueSets::new(automaton, &env);
    let mut changes = 0;
    for edge in automaton.edges_in_order() {
        let label = automaton.label(edge);
        let is_self_assignment = match label {
            Label::Assign { lhs, rhs } => {
                strip_casts(lhs) == strip_casts(rhs)
                    && !assigns_player(label)
                    && value_sets.assignment_target_always_in_domain(lhs)
            }
            _ => false,
        };
        if is_self_assignment {
            automaton.graph[edge].label = Label::Skip;
            changes += 1;
        }
    }
    changes
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
