//! Determinized information-set MCTS (single observer, after Cowling, Powley and Whitehouse 2012).
//!
//! The agent reads only its own observation of the history. Each simulation samples a world
//! consistent with it ([`crate::determinize::sample`]) and walks down one shared tree whose nodes
//! are information sets: a node is keyed by the player to move and that player's
//! information-state key in the sampled world, so worlds the mover cannot tell apart share the
//! node. At a node only the moves legal in the current world compete; UCB uses each move's
//! *availability* (how often it was legal when the node was visited) in place of the parent's
//! visit count. One new move is added per simulation, followed by a random rollout; the return of
//! the node's mover is credited to every (node, move) on the path. Chance moves are sampled by
//! their probability and are not tree nodes. The move played is the most visited at the root.
//!
//! Worlds come from one of two samplers ([`Determinizer`]): the agent API's
//! `State::sample_consistent_state` (the default; it runs on a fast engine built from the same
//! automaton, and the sampled history is replayed on the searched model), or this crate's own
//! replay sampler [`crate::determinize::sample`]. Both backtrack over the hidden moves; the two are
//! independent implementations, checked against each other in `agents/tests/games.rs`.

use crate::determinize::api_error;
use crate::determinize::{observe_all, sample, sample_through_agent_api, Determinization, DEFAULT_SAMPLE_BUDGET};
use crate::uct::best_move;
use crate::{sample_weighted, Agent, AgentError, Returns, SearchConfig, SearchModel, Turn};
use regula_runtime::agent::{Game, State};
use regula_runtime::engine::{EngineError, ForwardModel, Move, Mover, Observed};
use regula_runtime::fast::FastEngine;
use regula_runtime::playout::Xoshiro256;
use std::collections::HashMap;

/// Keeper moves in a row after which a world is considered stuck.
const KEEPER_STEP_LIMIT: usize = 100_000;

/// Where the worlds of a search come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Determinizer {
    /// `regula_runtime::agent::State::sample_consistent_state`.
    #[default]
    AgentApi,
    /// [`crate::determinize::sample`].
    Replay,
}

/// The IS-MCTS agent.
#[derive(Clone, Debug)]
pub struct IsMcts {
    config: SearchConfig,
    determinizer: Determinizer,
    /// The agent API's game, built on first use (for [`Determinizer::AgentApi`]).
    game: Option<Game<FastEngine>>,
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

impl IsMcts {
    pub fn new(config: SearchConfig) -> Self {
        Self::with_determinizer(config, Determinizer::default())
    }

    pub fn with_determinizer(config: SearchConfig, determinizer: Determinizer) -> Self {
        IsMcts { config, determinizer, game: None }
    }

    /// The agent API's state after `history` (for its sampler).
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

    /// One world consistent with `observation` (the view of `player`, whose true history is
    /// `api_state`'s when the agent API samples).
    fn world<M: ForwardModel>(
        &self,
        model: &M,
        observation: &[Observed],
        api_state: Option<&State<FastEngine>>,
        player: usize,
        rng: &mut Xoshiro256,
    ) -> Result<Determinization<M::State>, AgentError> {
        let Some(api_state) = api_state else {
            return sample(model, observation, player, rng, DEFAULT_SAMPLE_BUDGET)?.ok_or_else(|| {
                AgentError::Unsupported("no world consistent with the player's observation was found".into())
            });
        };
        sample_through_agent_api(model, api_state, player, rng)
    }

    /// Plays the move at `index` of the raw successors of a world's state, then the keeper moves
    /// after it, extending every player's key.
    fn advance<M: ForwardModel>(
        model: &M,
        state: &M::State,
        mut successors: Vec<(Move, M::State)>,
        index: usize,
        keys: &mut [u64],
    ) -> Result<M::State, EngineError> {
        let mover = model.to_move(state);
        observe_all(keys, mover, &successors[index].0, &model.observers(state, mover));
        let mut state = successors.swap_remove(index).1;
        let mut keeper_steps = 0;
        while model.to_move(&state) == Mover::Keeper {
            let mut only = model.raw_successors(&state)?;
            if only.len() != 1 {
                return Err(EngineError::KeeperMoveCount { node: model.node_name(&state), count: only.len() });
            }
            keeper_steps += 1;
            if keeper_steps > KEEPER_STEP_LIMIT {
                return Err(EngineError::KeeperCycle { node: model.node_name(&state) });
            }
            observe_all(keys, Mover::Keeper, &only[0].0, &model.observers(&state, Mover::Keeper));
            state = only.swap_remove(0).1;
        }
        Ok(state)
    }

    /// One simulation in one world; returns the (node, move) pairs to credit and the returns.
    #[allow(clippy::type_complexity)]
    fn simulate<M: SearchModel>(
        &self,
        model: &M,
        tree: &mut Tree,
        returns: &Returns,
        mut state: M::State,
        mut keys: Vec<u64>,
        rng: &mut Xoshiro256,
    ) -> Result<(Vec<((usize, u64), Move)>, Vec<f64>), AgentError> {
        let mut path = Vec::new();
        loop {
            let mover = model.to_move(&state);
            let player = match mover {
                Mover::Terminal => return Ok((path, returns.of_state(model, &state))),
                Mover::Player(player) => player,
                Mover::Random => {
                    let successors = model.raw_successors(&state)?;
                    let outcomes = model.chance_outcomes(&state)?;
                    let weights: Vec<f64> = successors
                        .iter()
                        .map(|(tags, _)| outcomes.iter().find(|(m, _)| m == tags).map_or(0.0, |(_, p)| *p))
                        .collect();
                    if weights.is_empty() {
                        return Err(EngineError::UnexpectedEnd { node: model.node_name(&state) }.into());
                    }
                    let pick = sample_weighted(&weights, rng);
                    state = Self::advance(model, &state, successors, pick, &mut keys)?;
                    continue;
                }
                Mover::Keeper => return Err(AgentError::Unsupported("a world stopped on a keeper move".into())),
            };
            let successors = model.raw_successors(&state)?;
            if successors.is_empty() {
                return Err(EngineError::UnexpectedEnd { node: model.node_name(&state) }.into());
            }
            let key = (player, keys[player]);
            let arms = tree.entry(key).or_default();
            let mut untried = Vec::new();
            for (index, (tags, _)) in successors.iter().enumerate() {
                match arms.get_mut(tags) {
                    Some(arm) if arm.visits > 0 => arm.available += 1,
                    _ => untried.push(index),
                }
            }
            if !untried.is_empty() {
                // Expand one move and score it by a rollout.
                let pick = untried[rng.below(untried.len() as u64) as usize];
                let tags = successors[pick].0.clone();
                arms.entry(tags.clone()).or_default().available += 1;
                path.push((key, tags));
                let next = Self::advance(model, &state, successors, pick, &mut keys)?;
                let end = model.random_rollout(&next, rng, self.config.max_rollout_moves)?;
                return Ok((path, returns.of_state(model, &end)));
            }
            let best = successors
                .iter()
                .enumerate()
                .map(|(index, (tags, _))| {
                    let arm = arms[tags];
                    let visits = arm.visits as f64;
                    let score = arm.total / visits
                        + self.config.exploration * ((arm.available.max(1) as f64).ln() / visits).sqrt();
                    (index, score)
                })
                .fold((0, f64::NEG_INFINITY), |best, c| if c.1 > best.1 { c } else { best })
                .0;
            path.push((key, successors[best].0.clone()));
            state = Self::advance(model, &state, successors, best, &mut keys)?;
        }
    }
}

impl<M: SearchModel> Agent<M> for IsMcts {
    fn name(&self) -> String {
        format!("ismcts:{}", self.config.simulations)
    }

    fn choose(&mut self, model: &M, turn: &Turn<'_, M::State>, rng: &mut Xoshiro256) -> Result<Move, AgentError> {
        let mut moves = model.moves(turn.state)?;
        match moves.len() {
            0 => return Err(AgentError::Unsupported("no legal move to choose from".into())),
            1 => return Ok(moves.swap_remove(0)),
            _ => {}
        }
        let returns = Returns::new(model.automaton());
        let observation = model.observation(turn.history, turn.player)?;
        let api_state = match self.determinizer {
            Determinizer::AgentApi => Some(self.api_state(model, turn.history)?),
            Determinizer::Replay => None,
        };
        let mut tree = Tree::new();
        let mut root_key = None;
        for _ in 0..self.config.simulations {
            let world = self.world(model, &observation, api_state.as_ref(), turn.player, rng)?;
            root_key = Some((turn.player, world.keys[turn.player]));
            let (path, result) = self.simulate(model, &mut tree, &returns, world.state, world.keys, rng)?;
            for (key, tags) in path {
                let arm = tree.entry(key).or_default().entry(tags).or_default();
                arm.visits += 1;
                arm.total += result[key.0];
            }
        }
        let root = root_key.and_then(|key| tree.get(&key));
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
