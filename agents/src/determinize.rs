//! Determinization: a full history consistent with what one player has observed, and
//! information-state keys.
//!
//! A player's observation ([`ForwardModel::observation`]) lists every move of the game, keeper
//! moves included, with the tags of the moves the player saw and only the mover of the others.
//! [`sample`] replays it from the raw initial state: a seen move must be legal and seen by the
//! player in the replay too; a hidden move is tried among the legal moves of its mover in a random
//! order, and the replay backtracks when a later step contradicts the observation (wrong mover,
//! seen/hidden status, or an illegal seen move). The result is a uniformly random choice at each
//! hidden move among those that keep the replay going: a plausible world, not the exact
//! posterior (opponents' strategies are unknown anyway).
//!
//! Information-state keys: every player's key is a 64-bit hash folded over what that player
//! observed of each move (seen: mover and tags; hidden: mover only), so two histories a player
//! cannot tell apart give that player equal keys.

use crate::AgentError;
use regula_runtime::agent::{AgentError as ApiError, State};
use regula_runtime::engine::{EngineError, ForwardModel, Move, Mover, Observed};
use regula_runtime::fast::FastEngine;
use regula_runtime::playout::{SplitMix64, Xoshiro256};

/// The key of an empty observation.
pub const EMPTY_KEY: u64 = 0x5e9a_11ce_0b5e_77ed;

/// How many replay steps [`sample`] may take before giving up.
pub const DEFAULT_SAMPLE_BUDGET: u64 = 200_000;

/// A key for the sequence of mover codes and tags fed to it.
fn fold(key: u64, value: u64) -> u64 {
    SplitMix64::new(key ^ value.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

fn mover_code(mover: Mover) -> u64 {
    match mover {
        Mover::Player(p) => p as u64,
        Mover::Random => u64::MAX - 1,
        Mover::Keeper => u64::MAX - 2,
        Mover::Terminal => u64::MAX - 3,
    }
}

/// Extends a key with one observed move.
pub fn observe(key: u64, observed: &Observed) -> u64 {
    match observed {
        Observed::Seen { mover, tags } => {
            let mut key = fold(fold(fold(key, 1), mover_code(*mover)), tags.len() as u64);
            for &tag in tags {
                key = fold(key, tag as u64);
            }
            key
        }
        Observed::Hidden { mover } => fold(fold(key, 2), mover_code(*mover)),
    }
}

/// The key of a whole observation.
pub fn information_key(observation: &[Observed]) -> u64 {
    observation.iter().fold(EMPTY_KEY, observe)
}

/// Extends every player's key with one move made by `mover` and seen by `observers`.
pub fn observe_all(keys: &mut [u64], mover: Mover, tags: &[u32], observers: &[usize]) {
    for (player, key) in keys.iter_mut().enumerate() {
        let observed = if observers.contains(&player) {
            Observed::Seen { mover, tags: tags.to_vec() }
        } else {
            Observed::Hidden { mover }
        };
        *key = observe(*key, &observed);
    }
}

/// A state consistent with one player's observation.
#[derive(Clone, Debug)]
pub struct Determinization<S> {
    /// The state after the replayed history (keeper moves applied).
    pub state: S,
    /// Its real-player and `random` moves.
    pub history: Vec<Move>,
    /// Every player's information-state key in this world.
    pub keys: Vec<u64>,
}

/// Samples a world consistent with `observation`, the view of player `player`; `Ok(None)` when
/// none is found within `budget` replay steps (or none exists).
pub fn sample<M: ForwardModel + ?Sized>(
    model: &M,
    observation: &[Observed],
    player: usize,
    rng: &mut Xoshiro256,
    budget: u64,
) -> Result<Option<Determinization<M::State>>, EngineError> {
    let players = model.automaton().players.len();
    let mut search = Sampler { model, observation, player, rng, budget, history: Vec::new() };
    let found = search.replay(model.initial(), 0, vec![EMPTY_KEY; players])?;
    Ok(found.map(|(state, keys)| Determinization { state, history: search.history, keys }))
}

/// A world from the agent API's sampler (`State::sample_consistent_state` of `api_state`, the
/// true game as the agent API sees it), replayed on `model` to give its state and every player's
/// key.
pub fn sample_through_agent_api<M: ForwardModel + ?Sized>(
    model: &M,
    api_state: &State<FastEngine>,
    player: usize,
    rng: &mut Xoshiro256,
) -> Result<Determinization<M::State>, AgentError> {
    let history = api_state.sample_consistent_state(player, rng).map_err(api_error)?.history_moves();
    let (trace, state) = model.trace(&history)?;
    let mut keys = vec![EMPTY_KEY; model.automaton().players.len()];
    for step in &trace {
        observe_all(&mut keys, step.mover, &step.tags, &step.observers);
    }
    Ok(Determinization { state, history, keys })
}

/// An agent API error as an agent error.
pub fn api_error(error: ApiError) -> AgentError {
    match error {
        ApiError::Engine(error) => AgentError::Engine(error),
        other => AgentError::Unsupported(other.to_string()),
    }
}

struct Sampler<'a, M: ForwardModel + ?Sized> {
    model: &'a M,
    observation: &'a [Observed],
    player: usize,
    rng: &'a mut Xoshiro256,
    budget: u64,
    /// The real-player and `random` moves of the replay so far.
    history: Vec<Move>,
}

/// A replay's final state and every player's key.
type Found<S> = Option<(S, Vec<u64>)>;

impl<M: ForwardModel + ?Sized> Sampler<'_, M> {
    /// Replays observation steps `step..` from the raw state `state`.
    fn replay(&mut self, state: M::State, step: usize, keys: Vec<u64>) -> Result<Found<M::State>, EngineError> {
        let model = self.model;
        let mover = model.to_move(&state);
        let Some(observed) = self.observation.get(step) else {
            return Ok((mover == Mover::Player(self.player)).then_some((state, keys)));
        };
        if self.budget == 0 {
            return Ok(None);
        }
        self.budget -= 1;
        let observers = model.observers(&state, mover);
        let sees = observers.contains(&self.player);
        let candidates: Vec<(Move, M::State)> = match observed {
            Observed::Seen { mover: seen_mover, tags } if *seen_mover == mover && sees => {
                match model.raw_apply(&state, tags)? {
                    Some(next) => vec![(tags.clone(), next)],
                    None => return Ok(None),
                }
            }
            Observed::Hidden { mover: hidden_mover } if *hidden_mover == mover && !sees => {
                let mut successors = model.raw_successors(&state)?;
                // A random order: Fisher-Yates from the back.
                for i in (1..successors.len()).rev() {
                    let j = self.rng.below(i as u64 + 1) as usize;
                    successors.swap(i, j);
                }
                successors
            }
            _ => return Ok(None),
        };
        for (tags, next) in candidates {
            let mut next_keys = keys.clone();
            observe_all(&mut next_keys, mover, &tags, &observers);
            let real = mover != Mover::Keeper;
            if real {
                self.history.push(tags);
            }
            if let Some(found) = self.replay(next, step + 1, next_keys)? {
                return Ok(Some(found));
            }
            if real {
                self.history.pop();
            }
            if self.budget == 0 {
                break;
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;
    use regula_runtime::engine::parse_history;
    use regula_runtime::reference::ReferenceEngine;

    /// x picks a card in secret; o then guesses it and wins on a right guess.
    fn guessing_game() -> ReferenceEngine {
        let automaton = AutomatonBuilder::new()
            .typedef("Player", "{x, o}")
            .typedef("Score", "{0, 1}")
            .typedef("Card", "{ace, king, queen}")
            .variable("card", "Card", "ace")
            .variable("guess", "Card", "ace")
            .edge("begin", "hide", "visible[o] = 0")
            .edge("hide", "pick", "player = x")
            .edge("pick", "picked", "card = Card(*)")
            .edge("picked", "shown", "$$ card")
            .edge("shown", "reveal", "visible[o] = 1")
            .edge("reveal", "guessing", "player = o")
            .edge("guessing", "guessed", "guess = Card(*)")
            .edge("guessed", "tagged", "$$ guess")
            .edge("tagged", "judge", "player = keeper")
            .edge("judge", "right", "guess == card")
            .edge("right", "scored", "goals[o] = 1")
            .edge("scored", "end", "player = keeper")
            .edge("judge", "end", "guess != card")
            .build()
            .unwrap();
        ReferenceEngine::new(automaton).unwrap()
    }

    #[test]
    fn hidden_moves_are_resampled_and_seen_ones_kept() {
        let engine = guessing_game();
        let history = parse_history(engine.automaton(), "/queen/").unwrap();
        let observation = engine.observation(&history, 1).unwrap();
        let true_key = information_key(&observation);
        let mut picked = std::collections::BTreeMap::new();
        let mut rng = Xoshiro256::from_seed(5);
        for _ in 0..300 {
            let world = sample(&engine, &observation, 1, &mut rng, DEFAULT_SAMPLE_BUDGET).unwrap().unwrap();
            assert_eq!(world.keys[1], true_key, "o cannot tell the worlds apart");
            assert_eq!(engine.to_move(&world.state), Mover::Player(1));
            *picked.entry(engine.format_move(&world.history[0])).or_insert(0) += 1;
        }
        // Every card x could hold appears (each about 100 times of 300).
        assert_eq!(picked.len(), 3, "{picked:?}");
        assert!(picked.values().all(|&n| n > 60), "{picked:?}");
        // x saw its own move: its only world is the true one.
        let x_view = engine.observation(&history, 0).unwrap();
        let world = sample(&engine, &x_view, 0, &mut rng, DEFAULT_SAMPLE_BUDGET).unwrap();
        assert!(world.is_none(), "x is not to move after /queen/");
        let x_view = engine.observation(&[], 0).unwrap();
        let world = sample(&engine, &x_view, 0, &mut rng, DEFAULT_SAMPLE_BUDGET).unwrap().unwrap();
        assert_eq!(world.keys[0], information_key(&x_view));
    }

    #[test]
    fn different_seen_moves_give_different_keys() {
        let engine = guessing_game();
        let key_after = |text: &str, player: usize| {
            let history = parse_history(engine.automaton(), text).unwrap();
            information_key(&engine.observation(&history, player).unwrap())
        };
        assert_eq!(key_after("/ace/", 1), key_after("/king/", 1));
        assert_ne!(key_after("/ace/", 0), key_after("/king/", 0));
    }
}
