//! The six blocks games (games/blocks-*) against the independent oracle of oracles/src/blocks/:
//! random games played in lockstep on both, comparing at every step the side to move, the set of
//! legal moves, the end of the game and its scores. This covers what short perft depths do not
//! reach: stage changes, passes, captures late in the game, the move cap and the win rules.

use regula_compiler::load;
use regula_oracles::blocks::{games, Move as OracleMove, Rules, RED};
use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::reference::ReferenceEngine;
use std::path::PathBuf;

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games")
}

fn engine(folder: &str, file: &str) -> ReferenceEngine {
    let path = games_dir().join(folder).join(file);
    let source = std::fs::read_to_string(&path).unwrap();
    let loaded = load(file, &source).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    ReferenceEngine::new(loaded.automaton).unwrap()
}

/// A small deterministic generator (xorshift64*), so the games are the same on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn oracle_move_name(rules: &Rules, oracle_move: &OracleMove) -> String {
    match oracle_move {
        OracleMove::Pass => "pass".to_string(),
        OracleMove::Points(points) => {
            points.iter().map(|p| format!("P__{}_{}", p % rules.size, p / rules.size)).collect::<Vec<_>>().join(" ")
        }
    }
}

/// Plays `games` random games on both implementations; returns how many plies were played and
/// the final scores seen, for the caller's sanity checks.
fn lockstep(folder: &str, file: &str, rules: Rules, games: usize, seed: u64) -> Vec<(u32, u32)> {
    let engine = engine(folder, file);
    let mut random = Random(seed);
    let mut results = Vec::new();
    for game in 0..games {
        let mut state = engine.start().unwrap();
        let mut position = rules.start();
        let mut history: Vec<String> = Vec::new();
        loop {
            let children = rules.children(&position);
            let context = || format!("{file}, game {game}, after [{}]", history.join(", "));
            if children.is_empty() {
                assert!(engine.is_terminal(&state), "{}: the oracle's game is over, the engine's is not", context());
                let scores: Vec<i64> = engine.scores(&state).iter().map(|s| s.value).collect();
                let expected = position.result.expect("a finished position has a result");
                assert_eq!(scores, vec![expected.0 as i64, expected.1 as i64], "{}", context());
                results.push(expected);
                break;
            }
            let mover = engine.to_move(&state);
            let side = children_side(&rules, &position);
            assert_eq!(mover, Mover::Player(if side == RED { 0 } else { 1 }), "{}", context());
            let moves = engine.moves(&state).unwrap();
            let mut engine_names: Vec<String> = engine.format_moves(&moves);
            let mut oracle_names: Vec<String> = children.iter().map(|(m, _)| oracle_move_name(&rules, m)).collect();
            engine_names.sort();
            oracle_names.sort();
            assert_eq!(engine_names, oracle_names, "{}", context());
            let pick = random.below(children.len());
            let (chosen, next) = children.into_iter().nth(pick).unwrap();
            let name = oracle_move_name(&rules, &chosen);
            state = engine.apply(&state, &engine.parse_move(&name).unwrap()).unwrap();
            position = next;
            history.push(name);
        }
    }
    results
}

fn children_side(rules: &Rules, position: &regula_oracles::blocks::Position) -> u8 {
    rules.side_to_move(position)
}

#[test]
fn tictactoe_games_agree_with_the_oracle() {
    let results = lockstep("blocks-tictactoe", "tictactoe.blocks", games::tictactoe(), 200, 1);
    assert!(results.contains(&(100, 0)) && results.contains(&(0, 100)) && results.contains(&(50, 50)));
}

#[test]
fn alquerque_games_agree_with_the_oracle() {
    let results = lockstep("blocks-alquerque", "alquerque.blocks", games::alquerque(), 40, 2);
    assert!(results.iter().any(|&(red, green)| red != green), "{results:?}");
}

#[test]
fn gun_cannon_games_agree_with_the_oracle() {
    lockstep("blocks-gun-cannon", "gun_cannon.blocks", games::gun_cannon(), 20, 3);
}

#[test]
fn othello5_games_agree_with_the_oracle() {
    let results = lockstep("blocks-othello5", "othello5.blocks", games::othello5(), 60, 4);
    assert!(results.iter().any(|&(red, green)| red != green), "{results:?}");
}

#[test]
fn fantian_games_agree_with_the_oracle() {
    lockstep("blocks-fantian", "fantian.blocks", games::fantian(), 60, 5);
}

#[test]
fn fourchess_games_agree_with_the_oracle() {
    lockstep("blocks-fourchess", "fourchess.blocks", games::fourchess(), 20, 6);
}
