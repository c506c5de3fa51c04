//! Checks that every pass, alone and all together, keeps the perft counts of hand-written games,
//! using the plain interpreter in `testing` (independent of the runtime's engines).

use super::testing::interpreter::Interpreter;
use super::testing::{parse, print};
use super::{optimize, Pass, PassSet};
use crate::rg::ast::Game;

const TICTACTOE: &str = include_str!("../../test_data/optimize/tictactoe.rg");
const DICE: &str = include_str!("../../test_data/optimize/dice.rg");

fn perfts(game: &Game, depth: usize) -> Vec<u64> {
    let interpreter = Interpreter::new(game);
    (0..=depth).map(|d| interpreter.perft(d).unwrap_or_else(|error| panic!("{error}\n{}", print(game)))).collect()
}

fn assert_every_pass_keeps_perft(source: &str, depth: usize, expected: &[u64]) {
    let game = parse(source);
    assert_eq!(perfts(&game, depth), expected, "the unoptimised game");
    let mut sets: Vec<(String, PassSet)> =
        Pass::ALL.iter().map(|pass| (pass.name().to_string(), PassSet::parse(pass.name()).unwrap())).collect();
    sets.push(("all".into(), PassSet::all()));
    for (name, passes) in sets {
        let (optimized, _) = optimize(&game, &passes);
        assert_eq!(perfts(&optimized, depth), expected, "after {name}:\n{}", print(&optimized));
    }
}

#[test]
fn tictactoe_perft_survives_every_pass() {
    // Published tic-tac-toe perft: 1, 9, 72, 504, 3024.
    assert_every_pass_keeps_perft(TICTACTOE, 4, &[1, 9, 72, 504, 3024]);
}

#[test]
fn dice_perft_survives_every_pass() {
    // Worked by hand: the throw has 2 distinct outcomes (1 and 2 leave equal states), then the
    // player goes on or stops; stopping ends the game.
    assert_every_pass_keeps_perft(DICE, 5, &[1, 2, 4, 4, 8, 8]);
}

#[test]
fn all_passes_shrink_tictactoe() {
    let game = parse(TICTACTOE);
    let (optimized, _) = optimize(&game, &PassSet::all());
    let (before, after) = (super::stats(&game), super::stats(&optimized));
    assert!(after.nodes < before.nodes && after.edges < before.edges, "{before}\n---\n{after}");
    assert_eq!(after.constants, before.constants - 1, "unusedTable goes");
    insta::assert_snapshot!(print(&optimized));
}
