//! Regula's game-playing agents and the match runner, over any forward model of the runtime.
//!
//! - [`Agent`]: chooses a move for the player to move, given the game so far and a seeded generator;
//! - agents: [`random::RandomAgent`], [`flat::FlatMonteCarlo`], [`uct::Uct`] (perfect-information
//!   UCT with random rollouts) and [`ismcts::IsMcts`] (single-observer information-set MCTS over
//!   determinizations, for hidden-information games);
//! - [`SearchModel`]: a forward model with a cheap random rollout from any state (the fast engine
//!   overrides it with its index-based move generation);
//! - [`arena`]: matches of N seeded games, seats rotated, parallel over games, with per-agent
//!   win/draw/loss rates and Wilson 95% intervals ([`stats`]).
//!
//! Conventions (spec/play.md): returns are every player's score normalised to `[0, 1]` over the
//! game's `Score` type; each tree node maximises the return of the player who moves there; chance
//! moves are sampled by their probability ([`ForwardModel::chance_outcomes`]).
//!
//! ```
//! use regula_agents::{AgentSpec, Turn};
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//! use regula_runtime::engine::ForwardModel;
//! use regula_runtime::fast::FastEngine;
//! use regula_runtime::playout::Xoshiro256;
//!
//! // One decision: `left` wins, `right` loses. UCT finds the win.
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}").typedef("Score", "{0, 1}")
//!     .edge("begin", "turn", "player = x")
//!     .edge("turn", "a", "$ left").edge("turn", "b", "$ right")
//!     .edge("a", "won", "goals[x] = 1").edge("won", "end", "player = keeper")
//!     .edge("b", "end", "player = keeper")
//!     .build().unwrap();
//! let engine = FastEngine::new(automaton).unwrap();
//! let start = engine.start().unwrap();
//! let mut uct = AgentSpec::parse("uct:50").unwrap().build::<FastEngine>();
//! let turn = Turn { state: &start, history: &[], player: 0 };
//! let chosen = uct.choose(&engine, &turn, &mut Xoshiro256::from_seed(1)).unwrap();
//! assert_eq!(engine.format_move(&chosen), "left");
//! ```

pub mod arena;
pub mod flat;
pub mod ismcts;
pub mod random;
mod returns;
mod rollout;
pub mod stats;
pub mod uct;

pub use returns::Returns;
pub use rollout::SearchModel;

use regula_runtime::engine::{EngineError, ForwardModel, Move};
use regula_runtime::playout::Xoshiro256;
use std::fmt;

/// What an agent is told when it must move.
pub struct Turn<'a, S> {
    /// The true state. Perfect-information agents search from it; [`ismcts::IsMcts`] only reads
    /// what its player has observed of `history`.
    pub state: &'a S,
    /// The real-player and `random` moves played from the start (keeper moves are implicit).
    pub history: &'a [Move],
    /// The player to move (by index into the automaton's players).
    pub player: usize,
}

/// Why an agent gave no move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentError {
    /// The engine failed while the agent searched.
    Engine(EngineError),
    /// The agent (a person at the terminal, say) stopped playing.
    Quit,
    /// The agent cannot play this state (for example, no observation consistent with it).
    Unsupported(String),
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Engine(error) => write!(f, "{error}"),
            AgentError::Quit => write!(f, "the player quit"),
            AgentError::Unsupported(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for AgentError {}

impl From<EngineError> for AgentError {
    fn from(error: EngineError) -> Self {
        AgentError::Engine(error)
    }
}

/// A player: picks one of the legal moves of the player to move.
pub trait Agent<M: ForwardModel> {
    /// A short name for reports (`uct:1000`).
    fn name(&self) -> String;

    /// The move to play in `turn.state`, which must not be terminal and must have a real player to
    /// move. The same generator state gives the same move.
    fn choose(&mut self, model: &M, turn: &Turn<'_, M::State>, rng: &mut Xoshiro256) -> Result<Move, AgentError>;
}

/// The default number of simulations per move of the search agents.
pub const DEFAULT_SIMULATIONS: u32 = 1000;
/// The default UCB exploration constant (returns lie in `[0, 1]`; √2 is the textbook value).
pub const DEFAULT_EXPLORATION: f64 = std::f64::consts::SQRT_2;
/// The default cap on moves per rollout (a rollout making more is an error).
pub const DEFAULT_MAX_ROLLOUT_MOVES: u64 = 100_000;

/// Settings shared by the search agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Simulations (rollouts) per decision.
    pub simulations: u32,
    /// The UCB exploration constant `c` in `mean + c·sqrt(ln N / n)`.
    pub exploration: f64,
    /// Moves a rollout may make before it is an error.
    pub max_rollout_moves: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            simulations: DEFAULT_SIMULATIONS,
            exploration: DEFAULT_EXPLORATION,
            max_rollout_moves: DEFAULT_MAX_ROLLOUT_MOVES,
        }
    }
}

/// Which agent to build, as named on the command line: `random`, `flat`, `uct` or `ismcts`, with an
/// optional simulation count after a colon (`uct:200`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    FlatMonteCarlo(SearchConfig),
    Uct(SearchConfig),
    IsMcts(SearchConfig),
}

/// The agent names [`AgentSpec::parse`] knows.
pub const AGENT_NAMES: [&str; 4] = ["random", "flat", "uct", "ismcts"];

impl AgentSpec {
    /// Parses one agent name with the default settings.
    pub fn parse(text: &str) -> Result<AgentSpec, String> {
        Self::parse_with(text, SearchConfig::default())
    }

    /// Parses one agent name; `config` gives the settings a name does not override.
    pub fn parse_with(text: &str, config: SearchConfig) -> Result<AgentSpec, String> {
        let text = text.trim();
        let (name, simulations) = match text.split_once(':') {
            Some((name, count)) => {
                let count: u32 =
                    count.trim().parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                        format!("`{text}`: the simulation count after `:` must be a positive integer")
                    })?;
                (name.trim(), Some(count))
            }
            None => (text, None),
        };
        let config = SearchConfig { simulations: simulations.unwrap_or(config.simulations), ..config };
        match name {
            "random" if simulations.is_some() => Err(format!("`{text}`: the random agent takes no simulation count")),
            "random" => Ok(AgentSpec::Random),
            "flat" => Ok(AgentSpec::FlatMonteCarlo(config)),
            "uct" => Ok(AgentSpec::Uct(config)),
            "ismcts" => Ok(AgentSpec::IsMcts(config)),
            _ => Err(format!("unknown agent `{name}` (known agents: {})", AGENT_NAMES.join(", "))),
        }
    }

    /// Parses a comma-separated list of agents.
    pub fn parse_list(text: &str, config: SearchConfig) -> Result<Vec<AgentSpec>, String> {
        text.split(',').map(|name| Self::parse_with(name, config)).collect()
    }

    /// A fresh agent.
    pub fn build<'m, M: SearchModel + 'm>(&self) -> Box<dyn Agent<M> + 'm> {
        match *self {
            AgentSpec::Random => Box::new(random::RandomAgent),
            AgentSpec::FlatMonteCarlo(config) => Box::new(flat::FlatMonteCarlo::new(config)),
            AgentSpec::Uct(config) => Box::new(uct::Uct::new(config)),
            AgentSpec::IsMcts(config) => Box::new(ismcts::IsMcts::new(config)),
        }
    }

    /// The agent's name in reports.
    pub fn name(&self) -> String {
        match self {
            AgentSpec::Random => "random".to_string(),
            AgentSpec::FlatMonteCarlo(config) => format!("flat:{}", config.simulations),
            AgentSpec::Uct(config) => format!("uct:{}", config.simulations),
            AgentSpec::IsMcts(config) => format!("ismcts:{}", config.simulations),
        }
    }
}

/// The legal moves (or successors) of a decision: one is forced, several call for a search.
pub(crate) enum Options<T> {
    Forced(T),
    Several(Vec<T>),
}

/// Sorts out a decision's legal moves; none at all is an error (the caller must not ask then).
pub(crate) fn options<T>(mut items: Vec<T>) -> Result<Options<T>, AgentError> {
    match items.len() {
        0 => Err(AgentError::Unsupported("no legal move to choose from".into())),
        1 => Ok(Options::Forced(items.swap_remove(0))),
        _ => Ok(Options::Several(items)),
    }
}

/// Picks an index with probability proportional to `weights` (the last positive weight absorbs
/// rounding). `weights` must not be empty.
pub(crate) fn sample_weighted(weights: &[f64], rng: &mut Xoshiro256) -> usize {
    let total: f64 = weights.iter().sum();
    // 53 random bits: a uniform float in [0, 1).
    let mut target = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut last_positive = 0;
    for (index, &weight) in weights.iter().enumerate() {
        if weight > 0.0 {
            if target < weight {
                return index;
            }
            target -= weight;
            last_positive = index;
        }
    }
    last_positive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_names_parse_with_and_without_counts() {
        assert_eq!(AgentSpec::parse("random").unwrap(), AgentSpec::Random);
        let uct = AgentSpec::parse(" uct:250 ").unwrap();
        assert_eq!(uct.name(), "uct:250");
        let defaults = SearchConfig { simulations: 40, ..SearchConfig::default() };
        let list = AgentSpec::parse_list("ismcts,flat:7", defaults).unwrap();
        assert_eq!(list.iter().map(AgentSpec::name).collect::<Vec<_>>(), ["ismcts:40", "flat:7"]);
        assert!(AgentSpec::parse("uct:0").unwrap_err().contains("positive integer"));
        assert!(AgentSpec::parse("random:5").unwrap_err().contains("no simulation count"));
        assert!(AgentSpec::parse("alphazero").unwrap_err().contains("known agents: random, flat, uct, ismcts"));
    }

    #[test]
    fn weighted_sampling_follows_the_weights() {
        let mut rng = Xoshiro256::from_seed(3);
        let mut counts = [0u32; 3];
        for _ in 0..10_000 {
            counts[sample_weighted(&[0.25, 0.0, 0.75], &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        // Binomial(10000, 0.25): the standard deviation is about 43.
        assert!((2300..2700).contains(&counts[0]), "{counts:?}");
    }
}
