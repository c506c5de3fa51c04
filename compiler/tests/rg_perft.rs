//! The ok games compiled from text and run on the runtime's reference engine: perft counts
//! (published for tic-tac-toe, worked by hand for the others), scores and observations. This
//! checks the lowering end to end against the semantics the engine implements.

use regula_compiler::rg;
use regula_runtime::engine::{parse_history, ForwardModel, Mover, Observed};
use regula_runtime::perft::perft;
use regula_runtime::reference::ReferenceEngine;

fn engine(source: &str) -> ReferenceEngine {
    let loaded = rg::compile(source).unwrap_or_else(|d| panic!("{d:#?}"));
    ReferenceEngine::new(loaded.automaton).unwrap()
}

fn scores_after(engine: &ReferenceEngine, history: &str) -> Vec<i64> {
    let history = parse_history(engine.automaton(), history).unwrap();
    let state = engine.play(&history).unwrap();
    assert!(engine.is_terminal(&state), "{history:?} does not end the game");
    engine.scores(&state).iter().map(|s| s.value).collect()
}

#[test]
fn tictactoe_matches_the_published_perft() {
    let engine = engine(include_str!("../test_data/rg/ok/tictactoe.rg"));
    // The number of tic-tac-toe move sequences of each length (OEIS A008907 up to depth 9).
    assert_eq!(perft(&engine, 9).unwrap(), [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
}

#[test]
fn tictactoe_scores_wins_and_draws() {
    let engine = engine(include_str!("../test_data/rg/ok/tictactoe.rg"));
    // x takes the first column.
    assert_eq!(scores_after(&engine, "/0 0/1 1/0 1/2 2/0 2/"), [100, 0]);
    // o takes the diagonal 0 2, 1 1, 2 0.
    assert_eq!(scores_after(&engine, "/0 0/0 2/0 1/1 1/2 2/2 0/"), [0, 100]);
    // x o x / x o o / o x x: a full board without a line.
    assert_eq!(scores_after(&engine, "/0 0/1 0/2 0/1 1/0 1/2 1/1 2/0 2/2 2/"), [50, 50]);
}

#[test]
fn dice_perft_counts_every_throw() {
    let engine = engine(include_str!("../test_data/rg/ok/dice.rg"));
    assert_eq!(perft(&engine, 4).unwrap(), [1, 2, 6, 18, 0]);
    assert_eq!(scores_after(&engine, "/bold/3/1/"), [100, 0]);
    assert_eq!(scores_after(&engine, "/safe/3/1/"), [50, 50]);
    assert_eq!(scores_after(&engine, "/bold/2/2/"), [50, 50]);
    assert_eq!(scores_after(&engine, "/safe/1/2/"), [0, 100]);
}

#[test]
fn hidden_move_is_observed_only_by_its_mover() {
    let engine = engine(include_str!("../test_data/rg/ok/hidden.rg"));
    assert_eq!(perft(&engine, 3).unwrap(), [1, 3, 9, 0]);
    assert_eq!(scores_after(&engine, "/middle/middle/"), [0, 100]);
    assert_eq!(scores_after(&engine, "/middle/left/"), [100, 0]);
    let history = parse_history(engine.automaton(), "/right/left/").unwrap();
    let alice = engine.observation(&history, 0).unwrap();
    let bob = engine.observation(&history, 1).unwrap();
    assert_eq!(alice.len(), bob.len());
    let right = engine.automaton().symbol_id("right").unwrap();
    assert!(alice.iter().any(|o| matches!(o, Observed::Seen { tags, .. } if tags == &[right])));
    assert!(!bob.iter().any(|o| matches!(o, Observed::Seen { tags, .. } if tags.contains(&right))));
    assert!(bob.iter().any(|o| matches!(o, Observed::Hidden { mover: Mover::Player(0) })), "bob misses alice's move");
    let left = engine.automaton().symbol_id("left").unwrap();
    assert!(alice.iter().any(|o| matches!(o, Observed::Seen { mover: Mover::Player(1), tags } if tags == &[left])));
}

#[test]
fn every_label_game_walks_to_the_end() {
    let engine = engine(include_str!("../test_data/rg/ok/every_label.rg"));
    assert_eq!(perft(&engine, 3).unwrap(), [1, 2, 2, 0]);
    assert_eq!(scores_after(&engine, "/go moved/go moved/"), [100]);
    assert_eq!(scores_after(&engine, "/go moved/stay stopped/"), [0]);
    assert_eq!(scores_after(&engine, "/stay stopped/"), [0]);
}

#[test]
fn minimal_game_ends_at_once() {
    let engine = engine(include_str!("../test_data/rg/ok/minimal.rg"));
    assert_eq!(perft(&engine, 2).unwrap(), [1, 0, 0]);
    assert_eq!(scores_after(&engine, "/"), [0]);
}
