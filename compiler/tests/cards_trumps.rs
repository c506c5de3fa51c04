//! The trump duel (`games/trumps/trumps.cards`), a trick-taking card program with a trump suit read
//! through `%trump%`: a hand-worked game, perft, and zero-sum random games.

use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::perft::perft;
use regula_runtime::reference::ReferenceEngine;

fn engine() -> ReferenceEngine {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/trumps/trumps.cards");
    let source = std::fs::read_to_string(path).unwrap();
    let loaded = regula_compiler::load("trumps.cards", &source).unwrap_or_else(|e| panic!("{e:#?}"));
    ReferenceEngine::new(loaded.automaton).unwrap()
}

fn play(engine: &ReferenceEngine, moves: &[&[&str]]) -> Vec<i64> {
    let automaton = engine.automaton();
    let mut state = engine.start().unwrap();
    for tags in moves {
        let m: Vec<u32> =
            tags.iter().map(|t| automaton.symbol_id(t).unwrap_or_else(|| panic!("no symbol {t}"))).collect();
        state = engine.apply(&state, &m).unwrap_or_else(|e| panic!("{tags:?}: {e:?}"));
    }
    assert_eq!(engine.to_move(&state), Mover::Terminal);
    engine.scores(&state).iter().map(|s| s.value).collect()
}

#[test]
fn trumps_beat_the_suit_led_and_the_trick_winner_leads() {
    let engine = engine();
    // Player 1 gets HA HK HQ, player 2 SJ SA SK; player 1 names spades.
    let deal: [&[&str]; 7] = [&["HA"], &["SJ"], &["HK"], &["SA"], &["HQ"], &["SK"], &["bid2"]];
    let mut moves: Vec<&[&str]> = deal.to_vec();
    // HA led, trumped by SJ: player 2 wins and leads SA (HK cannot beat it), then SK over HQ.
    moves.extend([
        &["single", "HA"][..],
        &["single", "SJ"],
        &["single", "SA"],
        &["single", "HK"],
        &["single", "SK"],
        &["single", "HQ"],
    ]);
    assert_eq!(play(&engine, &moves), [-3, 3]);
    // With hearts trump, player 1's hearts win every trick whatever player 2 plays.
    let mut moves: Vec<&[&str]> = deal[..6].to_vec();
    moves.push(&["bid1"]);
    moves.extend([
        &["single", "HQ"][..],
        &["single", "SA"],
        &["single", "HK"],
        &["single", "SK"],
        &["single", "HA"],
        &["single", "SJ"],
    ]);
    assert_eq!(play(&engine, &moves), [3, -3]);
}

#[test]
fn the_deal_gives_the_hand_worked_perft_counts() {
    assert_eq!(perft(&engine(), 3).unwrap(), [1, 8, 56, 336]);
}
