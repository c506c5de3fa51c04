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
    /// moves by their probabilities, other players' hidden moves uniformly. Tries at most
    /// [`DEFAULT_SAMPLE_BUDGET`] moves; see spec/agents.md for the search.
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
        let mut tried = 0;
        // Deal-shaped games (every hidden move a chance draw): re-deal the unseen cards. Other
        // games, or a deal not found, go on to the general search with the budget left.
        if let Some(state) = self.consistent_worlds(player)?.deal(rng, budget * 3 / 4, &mut tried)? {
            return Ok(state);
        }
        // Repair is quick when few later moves constrain the hidden ones, and copes with many
        // constraints (dealt cards later played) where backtracking drowns; backtracking is
        // complete, so it gets the rest of the budget and can prove that nothing fits.
        if let Some(state) =
            self.sample_by_repair(&frames, player, rng, tried + budget.saturating_sub(tried) / 2, &mut tried)?
        {
            return Ok(state);
        }
        self.sample_by_backtracking(&frames, player, rng, budget, &mut tried)
    }

    /// Local search: replay the history choosing each hidden move at random (keeping the
    /// previous choice when it still fits); when a move no longer fits, redraw one random hidden
    /// move before that point and keep the change unless the replay then fails earlier.
    /// `Ok(None)` when the budget runs out or no hidden move precedes the failure.
    fn sample_by_repair(
        &self,
        frames: &[&super::Frame<M>],
        player: usize,
        rng: &mut Xoshiro256,
        limit: usize,
        tried: &mut usize,
    ) -> Result<Option<State<M>>, AgentError> {
        let mut choices: Vec<Option<Move>> = vec![None; frames.len()];
        let (mut state, mut reached) = self.replay(frames, &mut choices, player, rng, tried, limit)?;
        while reached < frames.len() {
            let redrawable: Vec<usize> = (0..reached).filter(|&i| !frames[i].steps[0].seen_by(player)).collect();
            if redrawable.is_empty() || *tried >= limit {
                return Ok(None);
            }
            // Half the time, redraw a hidden move sharing a tag with the move that failed (a card
            // dealt to someone else and later seen elsewhere, say): most conflicts are there.
            let failed = &frames[reached].steps[0];
            let sharing: Vec<usize> = if failed.seen_by(player) {
                redrawable
                    .iter()
                    .copied()
                    .filter(|&i| choices[i].as_ref().is_some_and(|c| c.iter().any(|t| failed.tags.contains(t))))
                    .collect()
            } else {
                Vec::new()
            };
            let pool = if !sharing.is_empty() && rng.below(2) == 0 { &sharing } else { &redrawable };
            let mut candidate = choices.clone();
            candidate[pool[rng.below(pool.len() as u64) as usize]] = None;
            let (next, next_reached) = self.replay(frames, &mut candidate, player, rng, tried, limit)?;
            if next_reached >= reached {
                (choices, state, reached) = (candidate, next, next_reached);
            }
        }
        Ok(Some(state))
    }

    /// Replays the history with the given hidden choices (drawing the missing or unfitting ones
    /// and recording what was played); returns the state reached and how many moves fit. Stops
    /// (as if nothing fitted) once `limit` moves have been tried in all.
    fn replay(
        &self,
        frames: &[&super::Frame<M>],
        choices: &mut [Option<Move>],
        player: usize,
        rng: &mut Xoshiro256,
        tried: &mut usize,
        limit: usize,
    ) -> Result<(State<M>, usize), AgentError> {
        let mut state = self.game.new_initial_state();
        for (depth, frame) in frames.iter().enumerate() {
            let mut candidates = self.candidates(&state, Some(frame), player, rng)?;
            if let Some(previous) = choices[depth].take() {
                if let Some(position) = candidates.iter().position(|c| *c == previous) {
                    let kept = candidates.remove(position);
                    candidates.push(kept);
                }
            }
            let mut fitted = None;
            while let Some(tags) = candidates.pop() {
                if *tried >= limit {
                    break;
                }
                *tried += 1;
                if let Some(next) = self.try_move(&state, &tags, &frame.steps, player)? {
                    fitted = Some((next, tags));
                    break;
                }
            }
            let Some((next, tags)) = fitted else { return Ok((state, depth)) };
            choices[depth] = Some(tags);
            state = next;
        }
        Ok((state, frames.len()))
    }

    /// `state` after `tags` when the move is legal and `player` sees of it (and of the keeper
    /// moves after it) exactly what `original` shows.
    pub(super) fn try_move(
        &self,
        state: &State<M>,
        tags: &[u32],
        original: &[Step],
        player: usize,
    ) -> Result<Option<State<M>>, AgentError> {
        let mut next = state.clone();
        match next.apply_tags(tags) {
            Ok(()) => {}
            Err(AgentError::Engine(crate::engine::EngineError::IllegalMove { .. })) => return Ok(None),
            Err(other) => return Err(other),
        }
        let made = &next.last.as_ref().expect("a move was just made").steps;
        Ok(same_view(made, original, player).then_some(next))
    }

    /// Chronological backtracking over the hidden moves (complete: reports when nothing fits).
    fn sample_by_backtracking(
        &self,
        frames: &[&super::Frame<M>],
        player: usize,
        rng: &mut Xoshiro256,
        budget: usize,
        tried: &mut usize,
    ) -> Result<State<M>, AgentError> {
        // One level per move of the history: the state before it and the candidates left to try.
        let mut levels: Vec<(State<M>, Vec<Move>)> = Vec::with_capacity(frames.len());
        let mut state = self.game.new_initial_state();
        let mut candidates = self.candidates(&state, frames.first().copied(), player, rng)?;
        loop {
            let depth = levels.len();
            if depth == frames.len() {
                return Ok(state);
            }
            let original = frames[depth];
            let mut advanced = false;
            while let Some(tags) = candidates.pop() {
                if *tried >= budget {
                    return Err(AgentError::NoConsistentState { player, tried: *tried, exhausted: false });
                }
                *tried += 1;
                let Some(next) = self.try_move(&state, &tags, &original.steps, player)? else { continue };
                let following = frames.get(depth + 1).copied();
                let next_candidates = self.candidates(&next, following, player, rng)?;
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
                    None => return Err(AgentError::NoConsistentState { player, tried: *tried, exhausted: true }),
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
