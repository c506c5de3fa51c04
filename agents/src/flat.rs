//! Flat Monte Carlo: the simulations are shared evenly among the legal moves, each followed by a
//! uniformly random rollout; the move with the best mean return for the mover wins.
//!
//! A perfect-information agent: it searches from the true state.

use crate::{options, Agent, AgentError, Options, Returns, SearchConfig, SearchModel, Turn};
use regula_runtime::engine::Move;
use regula_runtime::playout::Xoshiro256;

/// Flat Monte Carlo search.
#[derive(Clone, Debug)]
pub struct FlatMonteCarlo {
    config: SearchConfig,
}

impl FlatMonteCarlo {
    pub fn new(config: SearchConfig) -> Self {
        FlatMonteCarlo { config }
    }
}

impl<M: SearchModel> Agent<M> for FlatMonteCarlo {
    fn name(&self) -> String {
        format!("flat:{}", self.config.simulations)
    }

    fn choose(&mut self, model: &M, turn: &Turn<'_, M::State>, rng: &mut Xoshiro256) -> Result<Move, AgentError> {
        let mut successors = match options(model.successors(turn.state)?)? {
            Options::Forced((only, _)) => return Ok(only),
            Options::Several(successors) => successors,
        };
        let returns = Returns::new(model.automaton());
        let mut totals = vec![0.0; successors.len()];
        let mut counts = vec![0u32; successors.len()];
        // Round robin, so every move gets a rollout before any gets two.
        for simulation in 0..self.config.simulations.max(successors.len() as u32) {
            let index = simulation as usize % successors.len();
            let end = model.random_rollout(&successors[index].1, rng, self.config.max_rollout_moves)?;
            totals[index] += returns.of_state(model, &end)[turn.player];
            counts[index] += 1;
        }
        // Ties go to the first move in the engine's order.
        let best = (0..successors.len())
            .map(|i| (i, totals[i] / counts[i] as f64))
            .fold((0, f64::NEG_INFINITY), |best, candidate| if candidate.1 > best.1 { candidate } else { best })
            .0;
        Ok(successors.swap_remove(best).0)
    }
}
