//! Sampling a full state consistent with what one player observed, for determinised search
//! (spec/agents.md, "Sampling consistent states").

use super::{AgentError, AgentModel, CurrentPlayer, State, Step};
use crate::engine::{Move, Mover};
use crate::playout::Xoshiro256;

/// Moves [`State::sample_consistent_state`] may try before giving up.
pub const DEFAULT_SAMPLE_BUDGET: usize = 100_000;

/// What player `p` perceives of one step.
fn view(step: &Step, player: usize) -> (Mover, Option<&[u32]>) {
    (step.mover, step.seen_by(player).then_some(step.tags.as_slice()))
}

fn same_view(a: &[Step], b: &[Step], player: usize) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| view(x, player) == view(y, player))
}

impl<M: AgentModel> State<M> {
    /// A state with the same history as this one as far as player `p` can tell (the same
    /// [`State::information_state_string`]), with the moves `p` did not see resampled: chance
    /// moves by their probabilities, other players' hidden moves uniformly, backtracking when a
    /// later observation no longer matches. Tries at most [`DEFAULT_SAMPLE_BUDGET`] moves.
    pub fn sample_consistent_state(&self, player: usize, rng: &mut Xoshiro256) -> Result<State<M>, AgentError> {
        self.sample_consistent_state_with_budget(player, rng, DEFAULT_SAMPLE_BUDGET)
    }

    /// [`State::sample_consistent_state`] with a budget of moves tried.
    pub fn sample_consistent_state_with_budget(
        &self,
        player: usize,
        rng: &mut Xoshiro256,
        budget: usize,
    ) -> Result<State<M>, AgentError> {
        self.game.check_player(player)?;
        let frames = self.frames();
        // One level per move of the history: the state before it and the candidates left to try.
        let mut levels: Vec<(State<M>, Vec<Move>)> = Vec::with_capacity(frames.len());
        let mut state = self.game.new_initial_state();
        let mut tried = 0;
        let mut candidates = self.candidates(&state, frames.first().copied(), player, rng)?;
        loop {
            let depth = levels.len();
            if depth == frames.len() {
                return Ok(state);
            }
            let original = frames[depth];
            let mut advanced = false;
            while let Some(tags) = candidates.pop() {
                tried += 1;
                if tried > budget {
                    return Err(AgentError::NoConsistentState { player, tried: tried - 1, exhausted: false });
                }
                let mut next = state.clone();
                match next.apply_tags(&tags) {
                    Ok(()) => {}
                    Err(AgentError::Engine(crate::engine::EngineError::IllegalMove { .. })) => continue,
                    Err(other) => return Err(other),
                }
                let made = &next.last.as_ref().expect("a move was just made").steps;
                if !same_view(made, &original.steps, player) {
                    continue;
                }
                let following = frames.get(depth + 1).copied();
                let next_candidates = match following {
                    Some(_) => self.candidates(&next, following, player, rng)?,
                    None => Vec::new(),
                };
                levels.push((std::mem::replace(&mut state, next), std::mem::replace(&mut candidates, next_candidates)));
                advanced = true;
                break;
            }
            if !advanced {
                // Nothing fits here: go back one move and try its next candidate.
                match levels.pop() {
                    Some((previous, rest)) => {
                        state = previous;
                        candidates = rest;
                    }
                    None => return Err(AgentError::NoConsistentState { player, tried, exhausted: true }),
                }
            }
        }
    }

    /// The moves to try in `state` for the original `frame`, the first to try last (popped).
    fn candidates(
        &self,
        state: &State<M>,
        frame: Option<&super::Frame<M>>,
        player: usize,
        rng: &mut Xoshiro256,
    ) -> Result<Vec<Move>, AgentError> {
        let Some(frame) = frame else { return Ok(Vec::new()) };
        let original = &frame.steps[0];
        if original.seen_by(player) {
            return Ok(vec![original.tags.clone()]);
        }
        // The mover is seen even when the move is not.
        let expected = match original.mover {
            Mover::Player(p) => CurrentPlayer::Player(p),
            Mover::Random => CurrentPlayer::Chance,
            Mover::Keeper | Mover::Terminal => return Ok(Vec::new()),
        };
        if state.current_player() != expected {
            return Ok(Vec::new());
        }
        let mut keyed: Vec<(f64, Move)> = if state.is_chance_node() {
            let legal = state.legal_moves()?;
            let outcomes = state.chance_outcomes()?;
            // Weighted order without replacement (Efraimidis–Spirakis): key u^(1/w), largest first.
            legal
                .iter()
                .zip(outcomes)
                .map(|((_, tags), (_, probability))| (uniform(rng).powf(1.0 / probability), tags.clone()))
                .collect()
        } else {
            state.legal_moves()?.iter().map(|(_, tags)| (uniform(rng), tags.clone())).collect()
        };
        // Popped from the end: smallest key first would invert the order, so sort ascending.
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        Ok(keyed.into_iter().map(|(_, tags)| tags).collect())
    }
}

/// A uniform number in (0, 1].
fn uniform(rng: &mut Xoshiro256) -> f64 {
    ((rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
}
