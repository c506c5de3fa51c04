//! `regula.Game`: a compiled game on the fast engine, loaded from a file or a string, pickled as
//! its source text (compiling is deterministic, so the copy is the same game).

use crate::errors::{agent_error, CompileError, RegulaError};
use crate::playouts;
use crate::state::State;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use regula_compiler::diagnostics::render;
use regula_runtime::agent::{self, ActionSpace};
use regula_runtime::automaton::Automaton;
use regula_runtime::fast::FastEngine;
use std::sync::Arc;

/// Everything a game and its states share.
pub struct GameData {
    /// The name the source was loaded under (its extension chose the format).
    pub file_name: String,
    pub source: String,
    /// Compiler warnings, rendered.
    pub warnings: Vec<String>,
    /// The runtime's agent-facing game over the fast engine.
    pub agent: agent::Game<FastEngine>,
}

impl GameData {
    pub fn automaton(&self) -> &Automaton {
        self.agent.automaton()
    }

    pub fn engine(&self) -> &FastEngine {
        self.agent.model()
    }

    pub fn player_names(&self) -> Vec<String> {
        let automaton = self.automaton();
        automaton.players.iter().map(|&p| automaton.symbol_name(p).to_string()).collect()
    }
}

/// Compiles a source text into the shared game data; compile errors become [`CompileError`].
pub fn compile(file_name: &str, source: &str) -> PyResult<Arc<GameData>> {
    let loaded = regula_compiler::load(file_name, source)
        .map_err(|diagnostics| CompileError::new_err(render(&diagnostics, file_name, source)))?;
    let warnings = loaded.warnings.iter().map(|w| render(std::slice::from_ref(w), file_name, source)).collect();
    let agent = agent::Game::fast(loaded.automaton).map_err(agent_error)?;
    Ok(Arc::new(GameData { file_name: file_name.to_string(), source: source.to_string(), warnings, agent }))
}

/// A game compiled to an automaton and run by the fast engine. Immutable and thread-safe; pickles
/// as its source text.
#[pyclass(module = "regula", name = "Game", frozen)]
pub struct Game {
    pub data: Arc<GameData>,
}

/// Reads and compiles a game file in any format the compiler reads (`.rg`, `.hrg`, `.blocks`,
/// `.rules`, chosen by the extension).
///
/// Raises `CompileError` with the rendered diagnostics when the game does not compile, and
/// `OSError` when the file cannot be read.
#[pyfunction]
pub fn load_game(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Game> {
    let source = std::fs::read_to_string(&path)
        .map_err(|e| PyOSError::new_err(format!("cannot read `{}`: {e}", path.display())))?;
    let file_name = path.display().to_string();
    let data = py.detach(|| compile(&file_name, &source))?;
    Ok(Game { data })
}

/// Compiles a game from source text; `file_name`'s extension (`.rg`, `.hrg`, `.blocks`, `.rules`)
/// chooses the format, and the name heads diagnostics.
#[pyfunction]
#[pyo3(signature = (source, file_name = "game.hrg"))]
pub fn load_game_from_string(py: Python<'_>, source: &str, file_name: &str) -> PyResult<Game> {
    let data = py.detach(|| compile(file_name, source))?;
    Ok(Game { data })
}

#[pymethods]
impl Game {
    /// The number of players (the `Player` type's members, `keeper` and `random` excluded).
    fn num_players(&self) -> usize {
        self.data.automaton().players.len()
    }

    /// The players' names, in player-number order.
    fn player_names(&self) -> Vec<String> {
        self.data.player_names()
    }

    /// The size of the game-wide action space: every action id is below it. Raises `RegulaError`
    /// when the game has none (its moves are unbounded or too many; ids are then per state).
    fn num_distinct_actions(&self) -> PyResult<usize> {
        match self.data.agent.action_space() {
            ActionSpace::GameWide { size } => Ok(*size),
            ActionSpace::PerState { reason } => Err(RegulaError::new_err(format!(
                "the game has no game-wide action space ({reason}); action ids index each state's sorted legal moves"
            ))),
        }
    }

    /// Whether action ids are game-wide (else they index each state's sorted legal moves).
    fn has_game_wide_actions(&self) -> bool {
        self.data.agent.num_distinct_actions().is_some()
    }

    /// Whether some move can be hidden from some player.
    fn has_hidden_information(&self) -> bool {
        self.data.agent.has_hidden_information()
    }

    /// The smallest return a player can get (at most 0).
    fn min_utility(&self) -> f64 {
        self.data.agent.min_utility()
    }

    /// The largest return a player can get (at least 0).
    fn max_utility(&self) -> f64 {
        self.data.agent.max_utility()
    }

    /// The shape of an observation tensor (one dimension).
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.data.agent.observation_tensor_shape()
    }

    /// The number of entries of an observation tensor.
    fn observation_tensor_size(&self) -> usize {
        self.data.agent.observation_tensor_size()
    }

    /// A game-wide action's text (its tags separated by spaces).
    fn action_to_string(&self, action: usize) -> PyResult<String> {
        self.data.agent.action_to_string(action).map_err(agent_error)
    }

    /// The game-wide id of a move written as tag names separated by spaces.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.data.agent.string_to_action(text).map_err(agent_error)
    }

    /// The start of the game (keeper moves applied).
    fn new_initial_state(&self) -> State {
        State { data: Arc::clone(&self.data), inner: self.data.agent.new_initial_state() }
    }

    /// Replays a history written by `State.serialize()` (`/m1/m2/.../`, moves as tag names).
    fn deserialize_state(&self, py: Python<'_>, text: &str) -> PyResult<State> {
        let inner = py.detach(|| self.data.agent.deserialize_state(text)).map_err(agent_error)?;
        Ok(State { data: Arc::clone(&self.data), inner })
    }

    /// The name the game was loaded under.
    #[getter]
    fn file_name(&self) -> &str {
        &self.data.file_name
    }

    /// The game's source text.
    #[getter]
    fn source(&self) -> &str {
        &self.data.source
    }

    /// Compiler warnings, each rendered with file:line:column.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.data.warnings.clone()
    }

    /// Runs `n` uniform random playouts from the start on `threads` threads (0 = one per core)
    /// with the GIL released. Playout `i` uses its own generator seeded from `(seed, i)`, so the
    /// result is the same for every thread count and equals `regula run FILE -n N --seed S`.
    ///
    /// Returns a dict: `playouts`, `seed`, `mean_plies`, `mean_legal_moves`, `mean_chance_moves`,
    /// `total_plies`, `total_chance_moves`, `outcomes` (a list of `{"scores": {player: score},
    /// "count": c}`, most frequent first), `mean_scores` (per player, when every score is an
    /// integer), `elapsed_seconds` and `playouts_per_second`. With `arrays=True` it adds numpy
    /// arrays `scores` (n x players, int64), `plies` and `chance_moves` (n, int64), one row per
    /// playout in index order.
    #[pyo3(signature = (n, threads = 1, seed = 0, max_moves = 1_000_000, arrays = false))]
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        n: u64,
        threads: usize,
        seed: u64,
        max_moves: u64,
        arrays: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        playouts::run(py, &self.data, playouts::Request { count: n, threads, seed, max_moves, arrays })
    }

    fn __repr__(&self) -> String {
        format!("<regula.Game {} ({} players)>", self.data.file_name, self.data.automaton().players.len())
    }

    /// Pickles as `(load_game_from_string, (source, file_name))`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let constructor = py.import("regula._regula")?.getattr("load_game_from_string")?;
        let args = PyTuple::new(py, [self.data.source.as_str(), self.data.file_name.as_str()])?;
        Ok((constructor, args))
    }
}
