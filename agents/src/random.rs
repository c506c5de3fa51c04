//! The uniform random agent: every legal move equally likely.

use crate::{Agent, AgentError, SearchModel, Turn};
use regula_runtime::engine::Move;
use regula_runtime::playout::Xoshiro256;

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<M: SearchModel> Agent<M> for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, model: &M, turn: &Turn<'_, M::State>, rng: &mut Xoshiro256) -> Result<Move, AgentError> {
        let mut moves = model.moves(turn.state)?;
        if moves.is_empty() {
            return Err(AgentError::Unsupported("no legal move to choose from".into()));
        }
        let pick = rng.below(moves.len() as u64) as usize;
        Ok(moves.swap_remove(pick))
    }
}
