//! The valid HRG programs under test_data/hrg/ok: each lowers to RG and compiles with no
//! diagnostics, prints as RG text that parses back to the same tree, and (for the games with
//! known counts) gives the expected perft on the reference engine.

use regula_compiler::{diagnostics, hrg, rg};
use regula_runtime::perft::perft;
use regula_runtime::reference::ReferenceEngine;
use std::path::Path;

fn ok_sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/hrg/ok");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "hrg"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

fn compile(name: &str, source: &str) -> regula_compiler::Loaded {
    hrg::compile(source).unwrap_or_else(|d| panic!("{name}:\n{}", diagnostics::render(&d, name, source)))
}

#[test]
fn every_ok_program_compiles_without_diagnostics() {
    let sources = ok_sources();
    assert!(sources.len() >= 4, "expected at least four ok programs");
    for (name, source) in sources {
        let loaded = compile(&name, &source);
        assert!(loaded.warnings.is_empty(), "{name}:\n{}", diagnostics::render(&loaded.warnings, &name, &source));
    }
}

#[test]
fn every_ok_program_round_trips_through_rg_text() {
    for (name, source) in ok_sources() {
        let loaded = compile(&name, &source);
        let text = rg::print(&loaded.rg);
        let reparsed =
            rg::parse(&text).unwrap_or_else(|d| panic!("{name}:\n{}", diagnostics::render(&d, "printed.rg", &text)));
        assert_eq!(reparsed, loaded.rg, "{name}: printing and parsing changed the tree");
    }
}

fn engine(source: &str) -> ReferenceEngine {
    ReferenceEngine::new(compile("game.hrg", source).automaton).unwrap()
}

#[test]
fn tictactoe_matches_the_published_perft() {
    let source = include_str!("../test_data/hrg/ok/tictactoe.hrg");
    let engine = engine(source);
    assert_eq!(perft(&engine, 6).unwrap(), [1, 9, 72, 504, 3024, 15120, 54720]);
    // The same game printed as RG text and compiled from that text.
    let text = rg::print(&compile("tictactoe.hrg", source).rg);
    let reloaded = ReferenceEngine::new(rg::compile(&text).unwrap().automaton).unwrap();
    assert_eq!(perft(&reloaded, 6).unwrap(), [1, 9, 72, 504, 3024, 15120, 54720]);
}

fn scores_after(engine: &ReferenceEngine, history: &str) -> Vec<i64> {
    use regula_runtime::engine::{parse_history, ForwardModel};
    let history = parse_history(engine.automaton(), history).unwrap();
    let state = engine.play(&history).unwrap();
    assert!(engine.is_terminal(&state), "{history:?} does not end the game");
    engine.scores(&state).iter().map(|s| s.value).collect()
}

/// Nim counted directly: sequences of `depth` takes of 1-3 stones that never empty the pile
/// before the last take.
fn nim_sequences(stones: u32, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    (1..=3u32.min(stones))
        .map(|take| if take == stones { u64::from(depth == 1) } else { nim_sequences(stones - take, depth - 1) })
        .sum()
}

#[test]
fn nim_with_a_reusable_turn_agrees_with_direct_counting() {
    let engine = engine(include_str!("../test_data/hrg/ok/nim.hrg"));
    let expected: Vec<u64> = (0..=8).map(|d| nim_sequences(7, d)).collect();
    // By hand: of the 27 three-take sequences, 3+3+2 (three orders) and 3+3+3 overshoot.
    assert_eq!(expected[..4], [1, 3, 9, 23]);
    assert_eq!(perft(&engine, 8).unwrap(), expected);
    // first takes 3, second 3, first the last stone.
    assert_eq!(scores_after(&engine, "/3/3/1/"), [100, 0]);
    assert_eq!(scores_after(&engine, "/3/2/1/1/"), [0, 100]);
}

#[test]
fn dice_throws_are_chance_moves() {
    let engine = engine(include_str!("../test_data/hrg/ok/dice.hrg"));
    assert_eq!(perft(&engine, 3).unwrap(), [1, 6, 36, 0]);
    assert_eq!(scores_after(&engine, "/D__6/D__1/"), [100, 0]);
    assert_eq!(scores_after(&engine, "/D__3/D__3/"), [50, 50]);
    assert_eq!(scores_after(&engine, "/D__2/D__5/"), [0, 100]);
}

#[test]
fn every_statement_kind_runs_as_worked_by_hand() {
    let engine = engine(include_str!("../test_data/hrg/ok/statements.hrg"));
    // Each player has four moves (three colours or keep); then the keeper finishes the game.
    assert_eq!(perft(&engine, 3).unwrap(), [1, 4, 16, 0]);
    // A warm (red) last colour scores 2 for left; anything else 1 for right.
    assert_eq!(scores_after(&engine, "/keep__colour/red/"), [2, 0]);
    assert_eq!(scores_after(&engine, "/red/blue/"), [0, 1]);
    assert_eq!(scores_after(&engine, "/keep__colour/keep__colour/"), [0, 1]);
}

#[test]
fn regular_games_idioms_play_as_worked_by_hand() {
    let engine = engine(include_str!("../test_data/hrg/ok/strip.hrg"));
    // White slides 1 or 2; after 2, black is stuck (white wins); after 1, black has one move, and so on.
    assert_eq!(perft(&engine, 5).unwrap(), [1, 2, 1, 1, 2, 0]);
    assert_eq!(scores_after(&engine, "/right S S V__2/"), [100, 0]);
    assert_eq!(scores_after(&engine, "/right S V__1/left S V__2/left S V__0/right S V__3/"), [50, 50]);
}
