//! Negative numerals in RG (a Regula extension, spec/rg-format.md §7): `-48` lexes as one symbol,
//! prints unchanged, round-trips, and the runtime reads it as a negative score.

use regula_compiler::rg;
use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::reference::ReferenceEngine;

const SOURCE: &str = include_str!("../test_data/rg/ok/negative_scores.rg");

#[test]
fn negative_numerals_parse_print_and_round_trip() {
    let game = rg::parse(SOURCE).unwrap_or_else(|d| panic!("{d:#?}"));
    assert!(rg::check(&game).is_empty());
    let printed = rg::print(&game);
    assert!(printed.contains("type Score = {-2, -1, 0, 1, 2};"), "{printed}");
    assert!(printed.contains("goals[o] = -2;"), "{printed}");
    let reparsed = rg::parse(&printed).unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(reparsed, game);
    assert_eq!(rg::print(&reparsed), printed);
}

#[test]
fn a_lone_minus_is_still_an_error() {
    let errors = rg::parse("type Score = {- 1};").unwrap_err();
    assert_eq!(errors[0].code, "E0101");
    assert_eq!(errors[0].primary.span.range(), 14..15);
}

#[test]
fn the_runtime_reads_negative_scores() {
    let loaded = rg::compile(SOURCE).unwrap_or_else(|d| panic!("{d:#?}"));
    let engine = ReferenceEngine::new(loaded.automaton).unwrap();
    let start = engine.start().unwrap();
    let moves = engine.moves(&start).unwrap();
    assert_eq!(moves.len(), 2);
    let mut outcomes = Vec::new();
    for m in &moves {
        let end = engine.apply(&start, m).unwrap();
        assert_eq!(engine.to_move(&end), Mover::Terminal);
        let scores: Vec<i64> = engine.scores(&end).iter().map(|s| s.value).collect();
        outcomes.push(scores);
    }
    outcomes.sort();
    assert_eq!(outcomes, vec![vec![-1, 1], vec![2, -2]]);
}
