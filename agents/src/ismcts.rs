//! Determinized information-set MCTS (single observer, after Cowling, Powley and Whitehouse 2012).
//!
//! The agent reads only its own observation of the history. Each simulation samples a world
//! consistent with it — from the runtime's `State::consistent_worlds` stream (spec/agents.md), the
//! one sampler of the workspace, started from the deal of the previous decision's last world —
//! and walks down one shared tree whose nodes are information sets: a
//! node is keyed by the player to move and that player's information-state key in the sampled
//! world (`State::information_state_key`), so worlds the mover cannot tell apart share the node.
//! At a node only the moves legal in the current world compete; UCB uses each move's
//! *availability* (how often it was legal when the node was visited) in place of the parent's
//! visit count. One new move is added per simulation, followed by a random rollout; the return of
//! the node's mover is credited to every (node, move) on the path. Chance moves are sampled by
//! their probability and are not tree nodes. The move played is the most visited at the root.
//!
//! Worlds, tree walks and rollouts run on the agent API over a fast engine built from the searched
//! model's automaton (the same game whatever engine the match uses; moves are tags either way).

use crate::uct::best_move;
use crate::{options, sample_weighted, Agent, AgentError, Options, Returns, SearchConfig, SearchModel, Turn};
use regula_runtime::agent::{AgentError as ApiError, CurrentPlayer, Game, State};
use regula_runtime::engine::{ForwardModel, Move};
use regula_runtime::fast::FastEngine;
use regula_runtime::playout::Xoshiro256;
use std::collections::HashMap;

/// Moves the sampler may try for a decision's first world (later worlds come from the stream).
pub const FIRST_WORLD_BUDGET: usize = 1_000_000;

/// The IS-MCTS agent.
#[derive(Clone, Debug)]
pub struct IsMcts {
    config: SearchConfig,
    /// The agent API's game over a fast engine, built on first use.
    game: Option<Game<FastEngine>>,
    /// The last world searched: the next decision's first world starts from its deal.
    last_world: Option<State<FastEngine>>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Arm {
    visits: u32,
    /// Simulations in which this move was legal at its node.
    available: u32,
    /// Sum of the node's mover's returns.
    total: f64,
}

/// Information-set nodes: (player to move, that player's key) -> statistics per move.
type Tree = HashMap<(usize, u64), HashMap<Move, Arm>>;

/// An agent API error as an agent error.
fn api_error(error: ApiError) -> AgentError {
    match error {
        ApiError::Engine(error) => AgentError::Engine(error),
        other => AgentError::Unsupported(other.to_string()),
    }
}

impl IsMcts {
    pub fn new(config: SearchConfig) -> Self {
        IsMcts { config, game: None, last_world: None }
    }

    /// The agent API's state after `history` (the truth; only sampled from).
    fn api_state<M: ForwardModel>(&mut self, model: &M, history: &[Move]) -> Result<State<FastEngine>, AgentError> {
        if self.game.is_none() {
            self.game = Some(Game::fast(model.automaton().clone()).map_err(api_error)?);
        }
        let game = self.game.as_ref().expect("built above");
        let mut state = game.new_initial_state();
        for tags in history {
            state.apply_tags(tags).map_err(api_error)?;
        }
        Ok(state)
    }

    /// One simulation in one world; returns the (node, move) pairs to credit and the returns.
    #[allow(clippy::type_complexity)]
    fn simulate(
        &self,
        tree: &mut Tree,
        returns: &Returns,
        mut state: State<FastEngine>,
        rng: &mut Xoshiro256,
    ) -> Result<(Vec<((usize, u64), Move)>, Vec<f64>), AgentError> {
        let game = state.game().clone();
        let model = game.model();
        let mut path = Vec::new();
        loop {
            let player = match state.current_player() {
                CurrentPlayer::Terminal => return Ok((path, returns.of_state(model, state.engine_state()))),
                CurrentPlayer::Chance => {
                    let outcomes = state.chance_outcomes().map_err(api_error)?;
                    let weights: Vec<f64> = outcomes.iter().map(|(_, p)| *p).collect();
                    let (action, _) = outcomes[sample_weighted(&weights, rng)];
                    state.apply_action(action).map_err(api_error)?;
                    continue;
                }
                CurrentPlayer::Player(player) => player,
            };
            let legal = state.legal_moves().map_err(api_error)?;
            let key = (player, state.information_state_key(player).map_err(api_error)?);
            let arms = tree.entry(key).or_default();
            let mut untried = Vec::new();
            for (index, (_, tags)) in legal.iter().enumerate() {
                match arms.get_mut(tags) {
                    Some(arm) if arm.visits > 0 => arm.available += 1,
                    _ => untried.push(index),
                }
            }
            if !untried.is_empty() {
                // Expand one move and score it by a rollout.
                let (action, tags) = &legal[untried[rng.below(untried.len() as u64) as usize]];
                arms.entry(tags.clone()).or_default().available += 1;
                path.push((key, tags.clone()));
                state.apply_action(*action).map_err(api_error)?;
                let end = model.random_rollout(state.engine_state(), rng, self.config.max_rollout_moves)?;
                return Ok((path, returns.of_state(model, &end)));
            }
            let (best, _) = legal
                .iter()
                .map(|(action, tags)| {
                    let arm = arms[tags];
                    let visits = arm.visits as f64;
                    let score = arm.total / visits
                        + self.config.exploration * ((arm.available.max(1) as f64).ln() / visits).sqrt();
                    (*action, score)
                })
                .fold((legal[0].0, f64::NEG_INFINITY), |best, c| if c.1 > best.1 { c } else { best });
            path.push((key, state.action_tags(best).map_err(api_error)?));
            state.apply_action(best).map_err(api_error)?;
        }
    }
}

impl<M: SearchModel> Agent<M> for IsMcts {
    fn name(&self) -> String {
        format!("ismcts:{}", self.config.simulations)
    }

    fn choose(&mut self, model: &M, turn: &Turn<'_, M::State>, rng: &mut Xoshiro256) -> Result<Move, AgentError> {
        let moves = match options(model.moves(turn.state)?)? {
            Options::Forced(only) => return Ok(only),
            Options::Several(moves) => moves,
        };
        let returns = Returns::new(model.automaton());
        let truth = self.api_state(model, turn.history)?;
        let root_key = (turn.player, truth.information_state_key(turn.player).map_err(api_error)?);
        let mut worlds = truth.consistent_worlds(turn.player).map_err(api_error)?;
        // Late in a card game a first world may need a long repair; the later ones are cheap.
        worlds.budget = FIRST_WORLD_BUDGET;
        if let Some(previous) = self.last_world.take() {
            worlds = worlds.with_hint(&previous);
        }
        let mut tree = Tree::new();
        for _ in 0..self.config.simulations {
            let world = worlds.sample(rng).map_err(api_error)?;
            self.last_world = Some(world.clone());
            let (path, result) = self.simulate(&mut tree, &returns, world, rng)?;
            for (key, tags) in path {
                let arm = tree.entry(key).or_default().entry(tags).or_default();
                arm.visits += 1;
                arm.total += result[key.0];
            }
        }
        let root = tree.get(&root_key);
        let statistics = moves
            .iter()
            .map(|tags| {
                let arm = root.and_then(|arms| arms.get(tags)).copied().unwrap_or_default();
                let mean = if arm.visits == 0 { 0.0 } else { arm.total / arm.visits as f64 };
                (tags.clone(), arm.visits, mean)
            })
            .collect();
        best_move(statistics).ok_or_else(|| AgentError::Unsupported("the search generated no move".into()))
    }
}
