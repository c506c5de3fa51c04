//! Property tests: no input makes the blocks front end panic. Random text, block-shaped token soup
//! and mutations of every bundled blocks game go through `load`; every rejection carries located
//! diagnostics that render, and whatever is accepted compiles to an automaton.

use crate::fuzzing;

use proptest::prelude::*;
use regula_compiler::diagnostics::render;

const GAMES: [&str; 6] = [
    include_str!("../../games/blocks-tictactoe/tictactoe.blocks"),
    include_str!("../../games/blocks-alquerque/alquerque.blocks"),
    include_str!("../../games/blocks-fantian/fantian.blocks"),
    include_str!("../../games/blocks-fourchess/fourchess.blocks"),
    include_str!("../../games/blocks-gun-cannon/gun_cannon.blocks"),
    include_str!("../../games/blocks-othello5/othello5.blocks"),
];

const VOCABULARY: &[&str] = &[
    "(",
    ")",
    "(",
    ")",
    "game",
    "board",
    "SQUARE",
    "SQURE",
    "3",
    "8",
    "0",
    "-1",
    "player",
    "piece",
    "turn",
    "movement",
    "place",
    "move",
    "jump",
    "capture",
    "win",
    "lose",
    "draw",
    "\"x\"",
    "\"",
    "#",
    "\n",
    "é",
    "*",
    "red",
    "green",
    "empty",
    "line",
    "count",
    "99999999999999999999",
];

/// Loads `source` as a blocks file; panics only if a phase panics or a diagnostic is unlocated.
fn exercise(source: &str) {
    match regula_compiler::load("fuzz.blocks", source) {
        Ok(loaded) => assert!(!loaded.automaton.edges.is_empty() || source.trim().is_empty()),
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "a rejection without a diagnostic");
            for diagnostic in &diagnostics {
                assert!(diagnostic.primary.span.end <= source.len(), "span past the end: {diagnostic:?}");
                assert!(diagnostic.code.starts_with('E') || diagnostic.code.starts_with('W'), "{diagnostic:?}");
            }
            let _ = render(&diagnostics, "fuzz.blocks", source);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: fuzzing::fuzz_cases(150), ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,120}") {
        exercise(&text);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(VOCABULARY), 0..80)) {
        exercise(&tokens.join(" "));
    }

    #[test]
    fn mutated_games_never_panic(
        game in prop::sample::select(&GAMES[..]),
        mutations in prop::collection::vec(fuzzing::mutation(VOCABULARY), 1..5),
    ) {
        exercise(&fuzzing::apply(game, &mutations));
    }
}

#[test]
fn every_truncation_of_a_game_is_handled() {
    fuzzing::every_prefix(&GAMES[..1], 5, exercise);
}

#[test]
fn hostile_nesting_is_an_error_not_a_stack_overflow() {
    let source = format!("{}game{}", "(".repeat(100_000), ")".repeat(100_000));
    let diagnostics = regula_compiler::load("deep.blocks", &source).expect_err("nesting must be rejected");
    assert!(!diagnostics.is_empty());
}
