//! Matches: N games between agents, seats rotated, seeded and reproducible, parallel over games.
//!
//! Game `g` seats agent `(p + g) mod n` as player `p` (n agents for n players), so over a match
//! every agent plays every seat equally often (exactly so when `n` divides the number of games).
//! Each game draws its generators from `(seed, g)` alone: one for chance moves and one per seat,
//! so a game's moves do not depend on which thread plays it, and the report (apart from the
//! timing) is the same for every thread count.
//!
//! Results per agent: a win is a game where the agent's player has the highest score and some
//! player has less, a draw one where every player has the same score, a loss otherwise
//! ([`outcome`]); each rate comes with its Wilson
//! 95% interval ([`crate::stats::wilson`]), along with the mean raw score and mean return.

use crate::stats::{wilson, Rate};
use crate::{sample_weighted, Agent, AgentError, AgentSpec, Returns, SearchModel, Turn};
use rayon::prelude::*;
use regula_runtime::engine::{EngineError, ForwardModel, Move, Mover, Score};
use regula_runtime::playout::Xoshiro256;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub games: u64,
    pub seed: u64,
    /// Worker threads (0 means one per core).
    pub threads: usize,
    /// A game making more moves than this (chance moves included) is an error.
    pub max_moves: u64,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig { games: 100, seed: 0, threads: 1, max_moves: 100_000 }
    }
}

/// A match that stopped: the first game (by index) that failed, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchError {
    pub game: u64,
    pub error: AgentError,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.game, self.error)
    }
}

impl std::error::Error for MatchError {}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub game: u64,
    /// The agent (index into the match's agents) playing each player.
    pub seats: Vec<usize>,
    /// Final scores in `Player` order.
    pub scores: Vec<Score>,
    /// Real-player and `random` moves, in order.
    pub history: Vec<Move>,
}

/// One agent's results over a match.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentResults {
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub win_rate: Rate,
    pub draw_rate: Rate,
    pub loss_rate: Rate,
    /// Mean of the agent's raw score ([`Score::value`]).
    pub mean_score: f64,
    /// Mean of the agent's score normalised to `[0, 1]`.
    pub mean_return: f64,
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub games: Vec<GameRecord>,
    pub agents: Vec<AgentResults>,
    pub elapsed_seconds: f64,
}

/// The agent index playing each of `players` players in game `game`.
pub fn seating(game: u64, players: usize, agents: usize) -> Vec<usize> {
    (0..players).map(|p| ((p as u64 + game) % agents as u64) as usize).collect()
}

/// Generators of one game: chance moves, then one per player.
pub fn game_generators(seed: u64, game: u64, players: usize) -> (Xoshiro256, Vec<Xoshiro256>) {
    let mut source = Xoshiro256::for_playout(seed, game);
    let chance = Xoshiro256::from_seed(source.next_u64());
    let seats = (0..players).map(|_| Xoshiro256::from_seed(source.next_u64())).collect();
    (chance, seats)
}

/// Samples a chance move by its probability.
pub fn chance_move<M: ForwardModel>(model: &M, state: &M::State, rng: &mut Xoshiro256) -> Result<Move, EngineError> {
    let mut outcomes = model.chance_outcomes(state)?;
    if outcomes.is_empty() {
        return Err(EngineError::UnexpectedEnd { node: model.node_name(state) });
    }
    let weights: Vec<f64> = outcomes.iter().map(|(_, p)| *p).collect();
    Ok(outcomes.swap_remove(sample_weighted(&weights, rng)).0)
}

/// Plays one game from the start: `agents[p]` plays player `p` with `seat_rngs[p]`, chance moves
/// come from `chance_rng`. `on_move(state, mover, move)` is called before each move is applied.
/// Returns the terminal state and the history.
pub fn play_game<M: SearchModel>(
    model: &M,
    agents: &mut [Box<dyn Agent<M> + '_>],
    chance_rng: &mut Xoshiro256,
    seat_rngs: &mut [Xoshiro256],
    max_moves: u64,
    on_move: &mut dyn FnMut(&M::State, Mover, &Move),
) -> Result<(M::State, Vec<Move>), AgentError> {
    let mut state = model.start()?;
    let mut history: Vec<Move> = Vec::new();
    loop {
        let mover = model.to_move(&state);
        if mover != Mover::Terminal && history.len() as u64 >= max_moves {
            return Err(EngineError::PlayoutTooLong { playout: 0, limit: max_moves }.into());
        }
        let chosen = match mover {
            Mover::Terminal => return Ok((state, history)),
            Mover::Random => chance_move(model, &state, chance_rng)?,
            Mover::Player(player) => {
                let turn = Turn { state: &state, history: &history, player };
                agents[player].choose(model, &turn, &mut seat_rngs[player])?
            }
            Mover::Keeper => {
                return Err(EngineError::KeeperMoveCount { node: model.node_name(&state), count: 0 }.into())
            }
        };
        on_move(&state, mover, &chosen);
        state = model.apply(&state, &chosen)?;
        history.push(chosen);
    }
}

/// Plays a match between `specs` (one agent per player of the game).
pub fn run_match<M: SearchModel>(
    model: &M,
    specs: &[AgentSpec],
    config: &MatchConfig,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<MatchReport, MatchError> {
    let players = model.automaton().players.len();
    if specs.len() != players {
        return Err(MatchError {
            game: 0,
            error: AgentError::Unsupported(format!(
                "the game has {players} player{}, so the match needs {players} agent{} (got {})",
                if players == 1 { "" } else { "s" },
                if players == 1 { "" } else { "s" },
                specs.len()
            )),
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| MatchError { game: 0, error: EngineError::Threads { message: e.to_string() }.into() })?;
    let started = Instant::now();
    let done = AtomicU64::new(0);
    let play_one = |game: u64| -> Result<GameRecord, MatchError> {
        let seats = seating(game, players, specs.len());
        let mut agents: Vec<Box<dyn Agent<M>>> = seats.iter().map(|&agent| specs[agent].build::<M>()).collect();
        let (mut chance, mut seat_rngs) = game_generators(config.seed, game, players);
        let (end, history) =
            play_game(model, &mut agents, &mut chance, &mut seat_rngs, config.max_moves, &mut |_, _, _| {})
                .map_err(|error| MatchError { game, error })?;
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, config.games);
        Ok(GameRecord { game, seats, scores: model.scores(&end), history })
    };
    let results: Vec<Result<GameRecord, MatchError>> =
        pool.install(|| (0..config.games).into_par_iter().map(play_one).collect());
    let games = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = specs.iter().map(AgentSpec::name).collect();
    let agents = summarise(&names, &games, &Returns::new(model.automaton()));
    Ok(MatchReport { games, agents, elapsed_seconds: started.elapsed().as_secs_f64() })
}

/// How a game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// A player's outcome from the final scores (any integers, negative ones included): a win when it
/// has the highest score and someone scored less (partners sharing a win all win, as Dou Dizhu's
/// peasants do), a draw when every player has the same score (a one-player game is always won), a
/// loss otherwise.
pub fn outcome(scores: &[Score], player: usize) -> Outcome {
    let best = scores.iter().map(|s| s.value).max().unwrap_or(0);
    let everyone_tied = scores.len() > 1 && scores.iter().all(|s| s.value == best);
    match (scores[player].value == best, everyone_tied) {
        (true, false) => Outcome::Win,
        (true, true) => Outcome::Draw,
        (false, _) => Outcome::Loss,
    }
}

/// Per-agent results of finished games.
pub fn summarise(names: &[String], games: &[GameRecord], returns: &Returns) -> Vec<AgentResults> {
    names
        .iter()
        .enumerate()
        .map(|(agent, name)| {
            let (mut played, mut wins, mut draws, mut losses) = (0, 0, 0, 0);
            let (mut score_sum, mut return_sum) = (0.0, 0.0);
            for game in games {
                for (player, _) in game.seats.iter().enumerate().filter(|(_, &a)| a == agent) {
                    let score = game.scores[player];
                    played += 1;
                    score_sum += score.value as f64;
                    return_sum += returns.of(score);
                    match outcome(&game.scores, player) {
                        Outcome::Win => wins += 1,
                        Outcome::Draw => draws += 1,
                        Outcome::Loss => losses += 1,
                    }
                }
            }
            let mean = |sum: f64| if played == 0 { 0.0 } else { sum / played as f64 };
            AgentResults {
                name: name.clone(),
                games: played,
                wins,
                draws,
                losses,
                win_rate: wilson(wins, played),
                draw_rate: wilson(draws, played),
                loss_rate: wilson(losses, played),
                mean_score: mean(score_sum),
                mean_return: mean(return_sum),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate_over_games() {
        assert_eq!(seating(0, 2, 2), [0, 1]);
        assert_eq!(seating(1, 2, 2), [1, 0]);
        assert_eq!(seating(4, 3, 3), [1, 2, 0]);
    }

    #[test]
    fn wins_draws_and_losses_follow_the_highest_score() {
        let score = |value| Score { symbol: 0, value };
        let record = |seats: Vec<usize>, values: [i64; 2]| GameRecord {
            game: 0,
            seats,
            scores: values.iter().map(|&v| score(v)).collect(),
            history: Vec::new(),
        };
        let games = [record(vec![0, 1], [100, 0]), record(vec![1, 0], [100, 0]), record(vec![0, 1], [50, 50])];
        let returns_scale = {
            use regula_runtime::automaton::builder::AutomatonBuilder;
            let automaton = AutomatonBuilder::new()
                .typedef("Player", "{x, o}")
                .typedef("Score", "{0, 50, 100}")
                .edge("begin", "end", "player = keeper")
                .build()
                .unwrap();
            Returns::new(&automaton)
        };
        let results = summarise(&["a".into(), "b".into()], &games, &returns_scale);
        assert_eq!((results[0].wins, results[0].draws, results[0].losses), (1, 1, 1));
        assert_eq!((results[1].wins, results[1].draws, results[1].losses), (1, 1, 1));
        assert_eq!(results[0].mean_score, 50.0);
        assert_eq!(results[0].mean_return, 0.5);
        assert_eq!(results[0].win_rate, wilson(1, 3));
    }

    #[test]
    fn partners_sharing_the_top_score_both_win_and_negative_scores_count() {
        let scores = |values: &[i64]| values.iter().map(|&value| Score { symbol: 0, value }).collect::<Vec<_>>();
        // Dou Dizhu: the landlord loses 2 x stake, each peasant wins the stake.
        let peasants_win = scores(&[-4, 2, 2]);
        assert_eq!(outcome(&peasants_win, 0), Outcome::Loss);
        assert_eq!(outcome(&peasants_win, 1), Outcome::Win);
        assert_eq!(outcome(&peasants_win, 2), Outcome::Win);
        let landlord_wins = scores(&[-1, 2, -1]);
        assert_eq!(outcome(&landlord_wins, 1), Outcome::Win);
        assert_eq!(outcome(&landlord_wins, 0), Outcome::Loss);
        assert_eq!(outcome(&scores(&[-3, -3]), 1), Outcome::Draw);
        assert_eq!(outcome(&scores(&[-3]), 0), Outcome::Win);
        assert_eq!(outcome(&scores(&[-3, -5, -3]), 2), Outcome::Win);
    }
}
