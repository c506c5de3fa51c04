//! Replays random games of corpus B's HRG programs against their independent oracles, move by move.
//!
//! Perft only counts moves, so it cannot see a wrong rotation in pentago or a wrong draw counter in
//! draughts. Here each game is played to its end on the reference engine; at every step the engine's
//! legal moves (by name), terminality and final scores must equal the oracle's (`oracles/src/<game>.rs`,
//! `Position`). The oracle picks the random move, so both sides follow the same game.
//! `REGULA_REPLAY_GAMES=<n>` sets the games per program (default 4).

use regula_oracles::perft_file;
use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::reference::ReferenceEngine;

fn engine_for(game: &str) -> ReferenceEngine {
    let path = perft_file::games_dir().join(game).join(format!("{game}.hrg"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file_name = path.display().to_string();
    let loaded = regula_compiler::load(&file_name, &source)
        .unwrap_or_else(|errors| panic!("{}", regula_compiler::diagnostics::render(&errors, &file_name, &source)));
    ReferenceEngine::new(loaded.automaton).expect("the automaton loads into the reference engine")
}

/// A small xorshift generator: replays must be reproducible.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

fn games_per_program() -> usize {
    std::env::var("REGULA_REPLAY_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(4)
}

/// Plays random games, comparing the engine with the oracle at every step; returns the moves compared.
fn replay<P: Clone>(
    game: &str,
    start: P,
    oracle_moves: impl Fn(&P) -> Vec<(String, P)>,
    oracle_scores: impl Fn(&P) -> Option<[i64; 2]>,
) -> usize {
    let engine = engine_for(game);
    let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
    let mut compared = 0;
    for round in 0..games_per_program() {
        let mut state = engine.start().expect("start state");
        let mut position = start.clone();
        let mut history: Vec<String> = Vec::new();
        loop {
            if engine.is_terminal(&state) {
                let scores: Vec<i64> = engine.scores(&state).iter().map(|s| s.value).collect();
                let expected = oracle_scores(&position).map(|s| s.to_vec());
                assert_eq!(Some(scores), expected, "{game} game {round}: final scores after {history:?}");
                break;
            }
            assert!(oracle_scores(&position).is_none(), "{game} game {round}: only the oracle ended after {history:?}");
            let successors = engine.successors(&state).expect("successors");
            let mut engine_names: Vec<String> = successors.iter().map(|(m, _)| engine.format_move(m)).collect();
            let choices = oracle_moves(&position);
            let mut oracle_names: Vec<String> = choices.iter().map(|(name, _)| name.clone()).collect();
            engine_names.sort();
            oracle_names.sort();
            if engine.to_move(&state) == Mover::Random {
                engine_names.dedup(); // chance outcomes with equal successors are listed once by the oracle
            }
            if engine_names != oracle_names {
                let only_engine: Vec<&String> = engine_names.iter().filter(|n| !oracle_names.contains(n)).collect();
                let only_oracle: Vec<&String> = oracle_names.iter().filter(|n| !engine_names.contains(n)).collect();
                panic!(
                    "{game} game {round}: legal moves differ after {history:?}\n  only the engine: {only_engine:?}\n  \
                     only the oracle: {only_oracle:?}"
                );
            }
            let (name, next_position) = choices[rng.below(choices.len())].clone();
            let (_, next_state) = successors
                .into_iter()
                .find(|(m, _)| engine.format_move(m) == name)
                .expect("the engine has the oracle's move");
            history.push(name);
            state = next_state;
            position = next_position;
            compared += 1;
        }
    }
    compared
}

#[test]
fn hex_games_agree_with_the_oracle() {
    use regula_oracles::hex::Position;
    assert!(replay("hex", Position::start(), Position::moves, Position::scores) > 0);
}

#[test]
fn gomoku_games_agree_with_the_oracle() {
    use regula_oracles::gomoku::Position;
    assert!(replay("gomoku", Position::start(), Position::moves, Position::scores) > 0);
}

#[test]
fn draughts_games_agree_with_the_oracle() {
    use regula_oracles::draughts::Position;
    assert!(replay("draughts", Position::start(), Position::moves, Position::scores) > 0);
}

#[test]
fn pentago_games_agree_with_the_oracle() {
    use regula_oracles::pentago::Position;
    assert!(replay("pentago", Position::start(), Position::moves, Position::scores) > 0);
}

#[test]
fn morris_games_agree_with_the_oracle() {
    use regula_oracles::morris::Position;
    assert!(replay("morris", Position::start(), Position::moves, Position::scores) > 0);
}

#[test]
fn foxgeese_games_agree_with_the_oracle() {
    use regula_oracles::foxgeese::Position;
    assert!(replay("foxgeese", Position::start(), Position::moves, Position::scores) > 0);
}

#[test]
fn dicerace_games_agree_with_the_oracle() {
    use regula_oracles::stochastic::Position;
    assert!(replay("dicerace", Position::start(), Position::moves, Position::scores) > 0);
}

/// The small-board variants under `games/<game>/variants/` (the same programs with a smaller board, so that
/// whole trees with wins can be counted) give their perft.toml counts; the corpus runner only reads
/// `games/*/perft.toml`, so they are checked here.
#[test]
fn small_board_variants_give_their_expected_perft_counts() {
    let mut checked = 0;
    for game in ["hex", "gomoku", "amazons"] {
        let folder = perft_file::games_dir().join(game).join("variants");
        let expectations = perft_file::read(&folder.join("perft.toml")).expect("variants/perft.toml");
        for source in &expectations.sources {
            let path = folder.join(source);
            let file_name = path.display().to_string();
            let text = std::fs::read_to_string(&path).expect("variant source");
            let loaded = regula_compiler::load(&file_name, &text).unwrap_or_else(|errors| {
                panic!("{}", regula_compiler::diagnostics::render(&errors, &file_name, &text))
            });
            let engine = ReferenceEngine::new(loaded.automaton).expect("engine");
            for counts in &expectations.counts {
                if counts.is_slow() && !perft_file::slow_enabled() {
                    continue;
                }
                let got = regula_runtime::perft::perft(&engine, counts.expected.len() - 1).expect("perft");
                assert_eq!(got, counts.expected, "{file_name} ({})", counts.source);
                checked += 1;
            }
        }
    }
    assert!(checked >= 3);
}

#[test]
fn amazons_games_agree_with_the_oracle() {
    use regula_oracles::amazons::Position;
    assert!(replay("amazons", Position::start(), Position::moves, Position::scores) > 0);
}
