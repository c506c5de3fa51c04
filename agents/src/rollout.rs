//! [`SearchModel`]: a forward model that can play uniformly random moves from any state to the end.
//!
//! The provided method works on every engine through [`ForwardModel::raw_successors`]; the fast
//! engine overrides it with its index-based path (list moves into reusable buffers, build only the
//! picked successor), which copies one state per move instead of every successor.

use regula_runtime::engine::{EngineError, ForwardModel, Mover};
use regula_runtime::fast::{FastEngine, FastState, Scratch};
use regula_runtime::playout::Xoshiro256;
use regula_runtime::reference::ReferenceEngine;
use std::cell::Cell;

/// A forward model the search agents can run: rollouts on top of [`ForwardModel`].
pub trait SearchModel: ForwardModel {
    /// Plays uniformly random moves (chance moves included, each legal move equally likely) from
    /// `state` until the game ends, and returns the terminal state. More than `max_moves` moves is
    /// a [`EngineError::PlayoutTooLong`].
    fn random_rollout(
        &self,
        state: &Self::State,
        rng: &mut Xoshiro256,
        max_moves: u64,
    ) -> Result<Self::State, EngineError> {
        let mut state = state.clone();
        let mut moves_made = 0;
        while self.to_move(&state) != Mover::Terminal {
            if moves_made >= max_moves {
                return Err(EngineError::PlayoutTooLong { playout: 0, limit: max_moves });
            }
            // Keeper moves are applied to the picked successor only.
            let mut successors = self.raw_successors(&state)?;
            if successors.is_empty() {
                return Err(EngineError::UnexpectedEnd { node: self.node_name(&state) });
            }
            let pick = rng.below(successors.len() as u64) as usize;
            state = self.settle(successors.swap_remove(pick).1)?;
            moves_made += 1;
        }
        Ok(state)
    }
}

impl SearchModel for ReferenceEngine {}

thread_local! {
    static SPARE_SCRATCH: Cell<Option<Scratch>> = const { Cell::new(None) };
}

impl SearchModel for FastEngine {
    fn random_rollout(
        &self,
        state: &FastState,
        rng: &mut Xoshiro256,
        max_moves: u64,
    ) -> Result<FastState, EngineError> {
        // One scratch per thread, reused across rollouts (a fresh one if a caller up the stack holds it).
        let mut scratch = SPARE_SCRATCH.with(|spare| spare.take()).unwrap_or_else(|| self.scratch());
        let result = fast_rollout(self, state, rng, max_moves, &mut scratch);
        SPARE_SCRATCH.with(|spare| spare.set(Some(scratch)));
        result
    }
}

fn fast_rollout(
    engine: &FastEngine,
    state: &FastState,
    rng: &mut Xoshiro256,
    max_moves: u64,
    scratch: &mut Scratch,
) -> Result<FastState, EngineError> {
    let mut state = engine.settle(state.clone())?;
    let mut moves_made = 0;
    while !engine.is_terminal(&state) {
        if moves_made >= max_moves {
            return Err(EngineError::PlayoutTooLong { playout: 0, limit: max_moves });
        }
        engine.generate(&state, scratch)?;
        let count = scratch.moves.len();
        if count == 0 {
            return Err(EngineError::UnexpectedEnd { node: engine.node_name(&state) });
        }
        let pick = rng.below(count as u64) as usize;
        state = engine
            .successor(scratch, pick)?
            .ok_or_else(|| EngineError::Malformed { message: "a generated move has no successor".into() })?;
        moves_made += 1;
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;
    use regula_runtime::automaton::Automaton;

    /// x picks one of three moves; only `c` scores.
    fn three_way() -> Automaton {
        AutomatonBuilder::new()
            .typedef("Player", "{x}")
            .typedef("Score", "{0, 1}")
            .edge("begin", "turn", "player = x")
            .edge("turn", "a", "$ a")
            .edge("turn", "b", "$ b")
            .edge("turn", "c", "$ c")
            .edge("c", "won", "goals[x] = 1")
            .edge("a", "end", "player = keeper")
            .edge("b", "end", "player = keeper")
            .edge("won", "end", "player = keeper")
            .build()
            .unwrap()
    }

    #[test]
    fn fast_and_generic_rollouts_make_the_same_choices() {
        let fast = FastEngine::new(three_way()).unwrap();
        let reference = ReferenceEngine::new(three_way()).unwrap();
        let (fast_start, reference_start) = (fast.start().unwrap(), reference.start().unwrap());
        let mut wins = 0;
        for seed in 0..300 {
            let fast_end = fast.random_rollout(&fast_start, &mut Xoshiro256::from_seed(seed), 10).unwrap();
            let reference_end =
                reference.random_rollout(&reference_start, &mut Xoshiro256::from_seed(seed), 10).unwrap();
            assert_eq!(fast.scores(&fast_end), reference.scores(&reference_end));
            wins += fast.scores(&fast_end)[0].value;
        }
        // Binomial(300, 1/3): mean 100, standard deviation about 8.
        assert!((70..130).contains(&wins), "{wins} wins");
    }

    #[test]
    fn a_rollout_longer_than_its_limit_is_an_error() {
        let fast = FastEngine::new(three_way()).unwrap();
        let start = fast.start().unwrap();
        let error = fast.random_rollout(&start, &mut Xoshiro256::from_seed(0), 0).unwrap_err();
        assert_eq!(error, EngineError::PlayoutTooLong { playout: 0, limit: 0 });
    }
}
