//! `regula.State`: a position with its history, OpenSpiel-style, wrapping the runtime's agent API
//! (`regula_runtime::agent::State` over the fast engine). Pickles as its serialized history.

use crate::errors::{agent_error, RegulaError};
use crate::game::{Game, GameData};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use regula_runtime::agent::{self, CurrentPlayer};
use regula_runtime::playout::Xoshiro256;
use std::sync::Arc;

/// The chance player's id, as in OpenSpiel.
pub const CHANCE_PLAYER_ID: i64 = CurrentPlayer::CHANCE_ID;
/// The id `current_player()` returns at a terminal state, as in OpenSpiel.
pub const TERMINAL_PLAYER_ID: i64 = CurrentPlayer::TERMINAL_ID;

/// A game position and the moves that led to it. Mutable (`apply_action`, `undo_action`); `clone`
/// is cheap (the history is shared). Pickles as `game.deserialize_state(state.serialize())`.
#[pyclass(module = "regula", name = "State")]
pub struct State {
    pub data: Arc<GameData>,
    pub inner: agent::State,
}

impl State {
    /// The player an observation is for: the one given, else the player to move.
    fn observer(&self, player: Option<usize>) -> PyResult<usize> {
        match (player, self.inner.current_player()) {
            (Some(p), _) => Ok(p),
            (None, CurrentPlayer::Player(p)) => Ok(p),
            (None, other) => Err(RegulaError::new_err(format!(
                "no player is to move ({}): pass the player explicitly",
                if other == CurrentPlayer::Chance { "a chance node" } else { "the game is over" }
            ))),
        }
    }
}

#[pymethods]
impl State {
    /// The player to move: its number, `CHANCE_PLAYER_ID` (-1) at a chance node, or
    /// `TERMINAL_PLAYER_ID` (-4) when the game is over.
    fn current_player(&self) -> i64 {
        self.inner.current_player().id()
    }

    /// The legal action ids, sorted (empty when the game is over). With `player`, empty unless
    /// that player is to move.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<usize>> {
        if player.is_some_and(|p| p != self.inner.current_player().id()) {
            return Ok(Vec::new());
        }
        self.inner.legal_actions().map_err(agent_error)
    }

    /// A boolean numpy array over the game-wide action space, true for the legal actions.
    /// Raises `RegulaError` when the game has no game-wide action space.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut mask = self.inner.legal_actions_mask().map_err(agent_error)?;
        if player.is_some_and(|p| p != self.inner.current_player().id()) {
            mask.iter_mut().for_each(|m| *m = false);
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Plays an action (a player's or a chance outcome); raises `IllegalActionError` when it is not
    /// legal, leaving the state unchanged.
    fn apply_action(&mut self, action: usize) -> PyResult<()> {
        self.inner.apply_action(action).map_err(agent_error)
    }

    /// The state after `action` (this one unchanged).
    fn child(&self, action: usize) -> PyResult<State> {
        let inner = self.inner.child(action).map_err(agent_error)?;
        Ok(State { data: Arc::clone(&self.data), inner })
    }

    /// Takes back the last move and returns its action id. When `action` (and optionally
    /// `player`) are given, as in OpenSpiel's `undo_action(player, action)`, they must name that
    /// move.
    #[pyo3(signature = (player = None, action = None))]
    fn undo_action(&mut self, player: Option<i64>, action: Option<usize>) -> PyResult<usize> {
        let history = self.inner.history();
        let Some(&last) = history.last() else {
            return Err(agent_error(agent::AgentError::NothingToUndo));
        };
        if action.is_some_and(|a| a != last) {
            return Err(RegulaError::new_err(format!("the last move was action {last}, not {}", action.unwrap_or(0))));
        }
        let undone = self.inner.undo().map_err(agent_error)?;
        if let Some(player) = player {
            let mover = self.inner.current_player().id();
            if mover != player {
                // Put the move back: the call named the wrong player, so it must not change the state.
                self.inner.apply_action(undone).map_err(agent_error)?;
                return Err(RegulaError::new_err(format!("the last move was made by player {mover}, not {player}")));
            }
        }
        Ok(undone)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Whether the chance player (`random`) is to move.
    fn is_chance_node(&self) -> bool {
        self.inner.is_chance_node()
    }

    /// Whether a real player is to move.
    fn is_player_node(&self) -> bool {
        matches!(self.inner.current_player(), CurrentPlayer::Player(_))
    }

    /// The chance outcomes as `(action, probability)` pairs summing to 1; empty unless this is a
    /// chance node.
    fn chance_outcomes(&self) -> PyResult<Vec<(usize, f64)>> {
        self.inner.chance_outcomes().map_err(agent_error)
    }

    /// Every player's score at the end (the `Score` symbol as a number); zeros before the end.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// One player's entry of `returns()`.
    fn player_return(&self, player: usize) -> PyResult<f64> {
        let returns = self.inner.returns();
        returns
            .get(player)
            .copied()
            .ok_or_else(|| agent_error(agent::AgentError::NoSuchPlayer { player, players: returns.len() }))
    }

    /// The rewards of the last move (the change in `returns()`).
    fn rewards(&self) -> Vec<f64> {
        self.inner.rewards()
    }

    /// What `player` (default: the player to move) observed of the history, as text; equal for
    /// two states the player cannot tell apart.
    #[pyo3(signature = (player = None))]
    fn information_state_string(&self, player: Option<usize>) -> PyResult<String> {
        self.inner.information_state_string(self.observer(player)?).map_err(agent_error)
    }

    /// The current state as `player` (default: the player to move) sees it, hidden values as `?`.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<usize>) -> PyResult<String> {
        self.inner.observation_string(self.observer(player)?).map_err(agent_error)
    }

    /// `player`'s observation as a float32 numpy array of `game.observation_tensor_size()`
    /// entries (one-hot per visible variable value, zeros for hidden ones).
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<usize>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let tensor = self.inner.observation_tensor(self.observer(player)?).map_err(agent_error)?;
        Ok(PyArray1::from_vec(py, tensor))
    }

    /// A full state consistent with everything `player` observed (hidden moves resampled),
    /// reproducible for a given `seed`; for determinized search.
    #[pyo3(signature = (player, seed = 0))]
    fn sample_consistent_state(&self, py: Python<'_>, player: usize, seed: u64) -> PyResult<State> {
        let mut rng = Xoshiro256::from_seed(seed);
        let inner = py.detach(|| self.inner.sample_consistent_state(player, &mut rng)).map_err(agent_error)?;
        Ok(State { data: Arc::clone(&self.data), inner })
    }

    /// A copy of this state; moves applied to one do not affect the other.
    fn clone(&self) -> State {
        State { data: Arc::clone(&self.data), inner: self.inner.clone() }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The action ids played so far, oldest first (chance outcomes included).
    fn history(&self) -> Vec<usize> {
        self.inner.history()
    }

    /// `history()` as text, comma-separated (OpenSpiel's format).
    fn history_str(&self) -> String {
        self.inner.history().iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
    }

    /// The number of moves made (players' and chance).
    fn move_number(&self) -> usize {
        self.inner.move_number()
    }

    /// The history as text, `/m1/m2/.../` with moves as tag names: the input of
    /// `game.deserialize_state` and of `regula moves --after`.
    fn serialize(&self) -> String {
        self.inner.serialize()
    }

    /// An action's text (its tags separated by spaces). Accepts `(action)` or OpenSpiel's
    /// `(player, action)`.
    #[pyo3(signature = (player_or_action, action = None))]
    fn action_to_string(&self, player_or_action: i64, action: Option<usize>) -> PyResult<String> {
        let action = match action {
            Some(action) => action,
            None => usize::try_from(player_or_action)
                .map_err(|_| RegulaError::new_err(format!("{player_or_action} is not an action id")))?,
        };
        self.inner.action_to_string(action).map_err(agent_error)
    }

    /// The id of the legal move written as `text` (tag names separated by spaces). Accepts
    /// `(text)` or OpenSpiel's `(player, text)`.
    #[pyo3(signature = (player_or_text, text = None))]
    fn string_to_action(&self, player_or_text: &Bound<'_, PyAny>, text: Option<&str>) -> PyResult<usize> {
        let text: String = match text {
            Some(text) => text.to_string(),
            None => player_or_text.extract()?,
        };
        self.inner.string_to_action(&text).map_err(agent_error)
    }

    /// The number of players.
    fn num_players(&self) -> usize {
        self.data.agent.num_players()
    }

    /// The game this state belongs to.
    fn get_game(&self) -> Game {
        Game { data: Arc::clone(&self.data) }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<regula.State {} {}>", self.data.file_name, self.inner.serialize())
    }

    /// Pickles as `(_restore_state, (game, history))`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.import("regula._regula")?.getattr("_restore_state")?;
        let game = Bound::new(py, Game { data: Arc::clone(&self.data) })?;
        let args = PyTuple::new(py, [game.into_any(), self.inner.serialize().into_pyobject(py)?.into_any()])?;
        Ok((restore, args))
    }
}

/// Rebuilds a pickled state: replays its history in its game.
#[pyfunction]
pub fn _restore_state(game: &Game, history: &str) -> PyResult<State> {
    let inner = game.data.agent.deserialize_state(history).map_err(agent_error)?;
    Ok(State { data: Arc::clone(&game.data), inner })
}
