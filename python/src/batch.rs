//! `regula.VectorEnv`: N states stepped together, one action per state per call, with the results
//! (legal-action masks, rewards, terminal flags, observations, players to move) as numpy arrays.
//!
//! Chance moves are sampled inside the environment (each state has its own generator, seeded from
//! `(seed, index)`), so every state handed back is at a player's decision or, without auto-reset,
//! over. Stepping runs with the GIL released, split over `threads` threads; the results do not
//! depend on the thread count.

use crate::errors::{agent_error, GameError, IllegalActionError, RegulaError};
use crate::game::{Game, GameData};
use crate::state::State;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use regula_runtime::agent::{self, AgentError, CurrentPlayer};
use regula_runtime::playout::Xoshiro256;
use std::sync::Arc;

/// One environment: its state, its chance generator and its episode bookkeeping.
struct Slot {
    state: agent::State,
    rng: Xoshiro256,
    /// Player and chance moves made in the current episode.
    length: u64,
}

/// What one step produced for one environment.
#[derive(Default)]
struct Outcome {
    terminal: bool,
    /// Length of the episode that just ended (0 when none ended).
    finished_length: u64,
}

/// N games stepped in lockstep. `step(actions)` applies one action per environment and returns a
/// dict of numpy arrays; see `regula/__init__.pyi` for the exact shapes.
#[pyclass(module = "regula", name = "VectorEnv")]
pub struct VectorEnv {
    data: Arc<GameData>,
    slots: Vec<Slot>,
    auto_reset: bool,
    /// Observations are for this player; `None`: for the player to move (player 0 when no one is).
    observer: Option<usize>,
    observations: bool,
    threads: usize,
    num_envs: usize,
    num_actions: usize,
}

impl VectorEnv {
    /// Plays chance moves until a player is to move or the game is over.
    fn resolve_chance(slot: &mut Slot) -> Result<(), AgentError> {
        while slot.state.is_chance_node() {
            let outcomes = slot.state.chance_outcomes()?;
            // Probabilities sum to 1; the last outcome absorbs rounding.
            let draw = (slot.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let mut cumulative = 0.0;
            let mut pick = outcomes.last().map(|o| o.0).unwrap_or_default();
            for &(action, probability) in &outcomes {
                cumulative += probability;
                if draw < cumulative {
                    pick = action;
                    break;
                }
            }
            slot.state.apply_action(pick)?;
            slot.length += 1;
        }
        Ok(())
    }

    fn reset_slot(data: &GameData, slot: &mut Slot) -> Result<(), AgentError> {
        slot.state = data.agent.new_initial_state();
        slot.length = 0;
        Self::resolve_chance(slot)
    }

    /// Applies `actions` (one per slot, `None` for a finished slot left alone) and writes rewards.
    fn step_slots(
        data: &GameData,
        slots: &mut [Slot],
        actions: &[Option<usize>],
        auto_reset: bool,
        rewards: &mut [f64],
        outcomes: &mut [Outcome],
    ) -> Result<(), (usize, AgentError)> {
        let players = data.agent.num_players();
        for (index, slot) in slots.iter_mut().enumerate() {
            let Some(action) = actions[index] else { continue };
            let fail = |e| (index, e);
            slot.state.apply_action(action).map_err(fail)?;
            slot.length += 1;
            Self::resolve_chance(slot).map_err(fail)?;
            if slot.state.is_terminal() {
                rewards[index * players..(index + 1) * players].copy_from_slice(&slot.state.returns());
                outcomes[index] = Outcome { terminal: true, finished_length: slot.length };
                if auto_reset {
                    Self::reset_slot(data, slot).map_err(fail)?;
                }
            }
        }
        Ok(())
    }

    /// The arrays describing the current states, plus the step's rewards and flags.
    fn report<'py>(&self, py: Python<'py>, rewards: Vec<f64>, outcomes: Vec<Outcome>) -> PyResult<Bound<'py, PyDict>> {
        let count = self.slots.len();
        let players = self.data.agent.num_players();
        let mut masks = vec![false; count * self.num_actions];
        for (index, slot) in self.slots.iter().enumerate() {
            for action in slot.state.legal_actions().map_err(agent_error)? {
                masks[index * self.num_actions + action] = true;
            }
        }
        let dict = PyDict::new(py);
        dict.set_item("mask", PyArray1::from_vec(py, masks).reshape([count, self.num_actions])?)?;
        dict.set_item("reward", PyArray1::from_vec(py, rewards).reshape([count, players])?)?;
        dict.set_item("terminal", PyArray1::from_iter(py, outcomes.iter().map(|o| o.terminal)))?;
        dict.set_item("episode_length", PyArray1::from_iter(py, outcomes.iter().map(|o| o.finished_length as i64)))?;
        dict.set_item(
            "current_player",
            PyArray1::from_iter(py, self.slots.iter().map(|s| s.state.current_player().id())),
        )?;
        if self.observations {
            dict.set_item("observation", self.observation_array(py)?)?;
        }
        Ok(dict)
    }

    fn observation_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let size = self.data.agent.observation_tensor_size();
        let mut tensor = vec![0.0f32; self.slots.len() * size];
        for (slot, row) in self.slots.iter().zip(tensor.chunks_mut(size.max(1))) {
            let player = self.observer.unwrap_or(match slot.state.current_player() {
                CurrentPlayer::Player(p) => p,
                _ => 0,
            });
            slot.state.write_observation_tensor(player, &mut row[..size]).map_err(agent_error)?;
        }
        PyArray1::from_vec(py, tensor).reshape([self.slots.len(), size])
    }

    /// Steps every slot with its planned action, the slots split into `threads` contiguous
    /// chunks with the GIL released (each slot's result depends on that slot alone).
    fn step_all(
        &mut self,
        py: Python<'_>,
        planned: &[Option<usize>],
        rewards: &mut [f64],
        outcomes: &mut [Outcome],
    ) -> Result<(), (usize, AgentError)> {
        let data = &*self.data;
        let auto_reset = self.auto_reset;
        let players = data.agent.num_players();
        let slots = &mut self.slots;
        let threads = self.threads.max(1).min(slots.len().max(1));
        py.detach(|| {
            if threads == 1 {
                return Self::step_slots(data, slots, planned, auto_reset, rewards, outcomes);
            }
            let chunk = slots.len().div_ceil(threads);
            let results: Vec<_> = std::thread::scope(|scope| {
                let handles: Vec<_> = slots
                    .chunks_mut(chunk)
                    .zip(rewards.chunks_mut(chunk * players))
                    .zip(outcomes.chunks_mut(chunk))
                    .zip(planned.chunks(chunk))
                    .enumerate()
                    .map(|(i, (((slots, rewards), outcomes), planned))| {
                        scope.spawn(move || {
                            Self::step_slots(data, slots, planned, auto_reset, rewards, outcomes)
                                .map_err(|(index, e)| (i * chunk + index, e))
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a stepping thread panicked")).collect()
            });
            results.into_iter().collect::<Result<Vec<()>, _>>().map(|_| ())
        })
    }
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` copies of `game`, each at its start (chance moves already sampled).
    /// `observer`: whose observation tensors to return (default: the player to move in each
    /// state); `observations=False` leaves them out; `threads` splits the states between threads.
    #[new]
    // Python keyword arguments, not a Rust call site: each is one constructor option.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (game, num_envs, seed = 0, auto_reset = true, observer = None, observations = true, threads = 1))]
    fn new(
        py: Python<'_>,
        game: &Game,
        num_envs: usize,
        seed: u64,
        auto_reset: bool,
        observer: Option<usize>,
        observations: bool,
        threads: usize,
    ) -> PyResult<Self> {
        let data = Arc::clone(&game.data);
        let num_actions = data.agent.num_distinct_actions().ok_or_else(|| {
            RegulaError::new_err("VectorEnv needs a game-wide action space, and this game's action ids are per state")
        })?;
        if let Some(player) = observer {
            if player >= data.agent.num_players() {
                return Err(agent_error(AgentError::NoSuchPlayer { player, players: data.agent.num_players() }));
            }
        }
        let mut env =
            VectorEnv { data, slots: Vec::new(), auto_reset, observer, observations, threads, num_envs, num_actions };
        env.reset_all(py, Some(seed))?;
        Ok(env)
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The size of the action space (the masks' second dimension).
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// The length of an observation tensor.
    #[getter]
    fn observation_size(&self) -> usize {
        self.data.agent.observation_tensor_size()
    }

    /// The number of players (the rewards' second dimension).
    #[getter]
    fn num_players(&self) -> usize {
        self.data.agent.num_players()
    }

    /// Restarts every environment and returns the arrays of `step` (rewards zero, no terminal
    /// flags). With a `seed`, the chance generators restart from it (as at construction);
    /// without, they go on, so successive resets sample new chance moves.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyDict>> {
        self.reset_all(py, seed)?;
        let count = self.slots.len();
        let players = self.data.agent.num_players();
        self.report(py, vec![0.0; count * players], (0..count).map(|_| Outcome::default()).collect())
    }

    /// Applies `actions[i]` to environment `i` and returns a dict of numpy arrays:
    /// `reward` (n x players, float64: the returns of the games that just ended, else 0),
    /// `terminal` (n, bool: the game ended on this step), `episode_length` (n, int64: moves of
    /// the episode that just ended, else 0), then the current states' `mask` (n x num_actions,
    /// bool), `current_player` (n, int64) and `observation` (n x observation_size, float32).
    /// With auto-reset an ended game restarts at once, so mask and observation describe the new
    /// game; without it, finished environments ignore their action until `reset`.
    /// Illegal actions raise `IllegalActionError` before any environment moves.
    fn step<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        // An int64 array is read in place; anything else (a list, other integer dtypes) converted.
        let owned: Vec<i64>;
        let readonly = actions.extract::<PyReadonlyArray1<'py, i64>>().ok();
        let actions: &[i64] = match readonly.as_ref().and_then(|a| a.as_slice().ok()) {
            Some(slice) => slice,
            None => {
                owned = actions.extract()?;
                &owned
            }
        };
        let count = self.slots.len();
        if actions.len() != count {
            return Err(RegulaError::new_err(format!("step needs {count} actions, got {}", actions.len())));
        }
        let mut planned = Vec::with_capacity(count);
        for (index, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            if slot.state.is_terminal() {
                planned.push(None);
                continue;
            }
            let legal = slot.state.legal_actions().map_err(agent_error)?;
            match usize::try_from(action) {
                Ok(action) if legal.binary_search(&action).is_ok() => planned.push(Some(action)),
                _ => {
                    return Err(IllegalActionError::new_err(format!(
                        "environment {index}: action {action} is not legal ({} legal actions)",
                        legal.len()
                    )))
                }
            }
        }
        let players = self.data.agent.num_players();
        let mut rewards = vec![0.0; count * players];
        let mut outcomes: Vec<Outcome> = (0..count).map(|_| Outcome::default()).collect();
        self.step_all(py, &planned, &mut rewards, &mut outcomes)
            .map_err(|(index, error)| GameError::new_err(format!("environment {index}: {error}")))?;
        self.report(py, rewards, outcomes)
    }

    /// The current legal-action masks (n x num_actions, bool).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let count = self.slots.len();
        let mut masks = vec![false; count * self.num_actions];
        for (index, slot) in self.slots.iter().enumerate() {
            for action in slot.state.legal_actions().map_err(agent_error)? {
                masks[index * self.num_actions + action] = true;
            }
        }
        PyArray1::from_vec(py, masks).reshape([count, self.num_actions])
    }

    /// The current observation tensors (n x observation_size, float32).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        self.observation_array(py)
    }

    /// The players to move (n, int64; -4 for a finished game without auto-reset).
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.slots.iter().map(|s| s.state.current_player().id()))
    }

    /// A copy of environment `index`'s state.
    fn state(&self, index: usize) -> PyResult<State> {
        let slot = self
            .slots
            .get(index)
            .ok_or_else(|| RegulaError::new_err(format!("no environment {index}: there are {}", self.slots.len())))?;
        Ok(State { data: Arc::clone(&self.data), inner: slot.state.clone() })
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }
}

impl VectorEnv {
    /// Puts every environment at the start of a game. With a seed, environment `i` samples
    /// chance moves from a new generator seeded from `(seed, i)`; without, from its own.
    fn reset_all(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        let data = &*self.data;
        let count = self.num_envs;
        let mut generators: Vec<Xoshiro256> = match seed {
            Some(seed) => (0..count).map(|i| Xoshiro256::for_playout(seed, i as u64)).collect(),
            None => self.slots.drain(..).map(|slot| slot.rng).collect(),
        };
        let slots = py
            .detach(|| {
                generators
                    .drain(..)
                    .enumerate()
                    .map(|(index, rng)| {
                        let mut slot = Slot { state: data.agent.new_initial_state(), rng, length: 0 };
                        Self::resolve_chance(&mut slot).map(|()| slot).map_err(|e| (index, e))
                    })
                    .collect::<Result<Vec<Slot>, _>>()
            })
            .map_err(|(index, error)| GameError::new_err(format!("environment {index}: {error}")))?;
        self.slots = slots;
        Ok(())
    }
}
