//! The agent-facing API: OpenSpiel's conventions (integer actions, chance and terminal player ids,
//! returns, information states, observation tensors, undo and serialisation) in Rust names, over
//! any engine. Specified in spec/agents.md.
//!
//! - [`Game`]: shareable (`Arc` inside, `clone` is cheap) description of a game over one engine,
//!   with its game-wide action space ([`ActionSpace`]) and observation layout;
//! - [`State`]: a position plus its history (a persistent list shared between clones, so cloning
//!   copies one engine state and `undo` is O(1));
//! - [`State::sample_consistent_state`]: a full state consistent with what one player observed,
//!   for determinised search.
//!
//! ```
//! use regula_runtime::agent::{CurrentPlayer, Game};
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//!
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}").typedef("Score", "{0, 1}")
//!     .edge("begin", "turn", "player = x")
//!     .edge("turn", "a", "$ left").edge("a", "won", "goals[x] = 1").edge("won", "end", "player = keeper")
//!     .edge("turn", "b", "$ right").edge("b", "end", "player = keeper")
//!     .build().unwrap();
//! let game = Game::fast(automaton).unwrap();
//! let mut state = game.new_initial_state();
//! assert_eq!(state.current_player(), CurrentPlayer::Player(0));
//! let actions = state.legal_actions().unwrap();
//! let left = state.string_to_action("left").unwrap();
//! assert!(actions.contains(&left));
//! state.apply_action(left).unwrap();
//! assert!(state.is_terminal());
//! assert_eq!(state.returns(), [1.0]);
//! assert_eq!(state.serialize(), "/left/");
//! state.undo().unwrap();
//! assert_eq!(state.returns(), [0.0]);
//! ```

mod action_space;
mod deal;
mod flow;
mod model;
mod sample;
mod visibility;

pub use action_space::{TagLanguage, Unbounded, MAX_ACTIONS, MAX_DFA_STATES};
pub use deal::{ConsistentWorlds, DEFAULT_CHAIN_STEPS};
pub use model::AgentModel;
pub use sample::DEFAULT_SAMPLE_BUDGET;
pub use visibility::ObservationLayout;

use crate::automaton::{Automaton, SymbolId};
use crate::engine::{format_history, format_move, mover_name, parse_history, EngineError, Move, Mover, TraceStep};
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// An action id: an index into the game-wide action space, or into the state's sorted legal moves
/// when the game has none (see [`ActionSpace`]).
pub type Action = usize;

/// Players beyond this many cannot be told apart in the observer masks.
pub const MAX_PLAYERS: usize = 64;

/// Who acts in a state, OpenSpiel style. [`CurrentPlayer::id`] gives OpenSpiel's integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CurrentPlayer {
    /// A real player, by index into the game's `Player` type.
    Player(usize),
    /// `random` is to move: a chance node.
    Chance,
    /// The game is over.
    Terminal,
}

impl CurrentPlayer {
    /// OpenSpiel's id of the chance player.
    pub const CHANCE_ID: i64 = -1;
    /// OpenSpiel's id of the terminal "player".
    pub const TERMINAL_ID: i64 = -4;

    /// The player number, or [`CurrentPlayer::CHANCE_ID`] / [`CurrentPlayer::TERMINAL_ID`].
    pub fn id(self) -> i64 {
        match self {
            CurrentPlayer::Player(p) => p as i64,
            CurrentPlayer::Chance => Self::CHANCE_ID,
            CurrentPlayer::Terminal => Self::TERMINAL_ID,
        }
    }

    /// The inverse of [`CurrentPlayer::id`]; `None` for other negative numbers.
    pub fn from_id(id: i64) -> Option<CurrentPlayer> {
        match id {
            Self::CHANCE_ID => Some(CurrentPlayer::Chance),
            Self::TERMINAL_ID => Some(CurrentPlayer::Terminal),
            p if p >= 0 => Some(CurrentPlayer::Player(p as usize)),
            _ => None,
        }
    }
}

/// How actions are numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionSpace {
    /// Every tag sequence the automaton can emit as one move has a fixed id below `size`, in the
    /// order of the sequences (lexicographic by symbol id); legal moves are a subset.
    GameWide { size: usize },
    /// The sequences are unbounded or too many: an action id is the index of the move in the
    /// state's legal moves sorted by tags, so ids mean different moves in different states.
    PerState { reason: Unbounded },
}

/// Everything that can go wrong in the agent API.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentError {
    /// The engine failed (a broken game, not a wrong call).
    Engine(EngineError),
    /// An action id that is not legal in the state.
    IllegalAction { action: Action, mover: String, legal_count: usize },
    /// A move text that is not a legal move (or names an unknown tag).
    UnknownAction { text: String, reason: String },
    /// A player number outside the game's players.
    NoSuchPlayer { player: usize, players: usize },
    /// The operation needs a game-wide action space the game does not have.
    NoGameWideActionSpace { reason: Unbounded },
    /// A legal move whose tags the static action space does not contain (loose typing put a
    /// symbol outside its type into a `$$` tag).
    MoveOutsideActionSpace { tags: String },
    /// `undo` at the initial state.
    NothingToUndo,
    /// More players than [`MAX_PLAYERS`].
    TooManyPlayers { players: usize },
    /// No state consistent with the player's observations was found within the budget.
    NoConsistentState { player: usize, tried: usize, exhausted: bool },
    /// A serialised state that does not parse or replay.
    BadSerialization { message: String },
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Engine(error) => write!(f, "{error}"),
            AgentError::IllegalAction { action, mover, legal_count } => {
                write!(f, "action {action} is not legal for {mover} here ({legal_count} legal actions)")
            }
            AgentError::UnknownAction { text, reason } => write!(f, "`{text}` is not a legal action: {reason}"),
            AgentError::NoSuchPlayer { player, players } => {
                write!(f, "no player {player}: the game has {players} players (numbered from 0)")
            }
            AgentError::NoGameWideActionSpace { reason } => {
                write!(f, "the game has no game-wide action space ({reason}); action ids are per state")
            }
            AgentError::MoveOutsideActionSpace { tags } => {
                write!(f, "legal move `{tags}` is outside the game-wide action space (a tag outside its type)")
            }
            AgentError::NothingToUndo => write!(f, "nothing to undo: the state has no history"),
            AgentError::TooManyPlayers { players } => {
                write!(f, "the agent API supports at most {MAX_PLAYERS} players, the game has {players}")
            }
            AgentError::NoConsistentState { player, tried, exhausted } => {
                if *exhausted {
                    write!(f, "no state is consistent with player {player}'s observations ({tried} moves tried)")
                } else {
                    write!(
                        f,
                        "no state consistent with player {player}'s observations found within the budget \
                         ({tried} moves tried)"
                    )
                }
            }
            AgentError::BadSerialization { message } => write!(f, "cannot deserialise the state: {message}"),
        }
    }
}

impl std::error::Error for AgentError {}

impl From<EngineError> for AgentError {
    fn from(error: EngineError) -> Self {
        AgentError::Engine(error)
    }
}

/// One move as recorded in a state's history: who made it, its tags, and who saw them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub mover: Mover,
    pub tags: Move,
    /// Bit `p` is set when player `p` saw the tags (spec/visibility.md).
    pub observers: u64,
}

impl Step {
    fn from_trace(step: TraceStep) -> Step {
        Step { mover: step.mover, tags: step.tags, observers: observer_mask(&step.observers) }
    }

    /// Whether player `p` saw this move's tags.
    pub fn seen_by(&self, player: usize) -> bool {
        self.observers & (1 << player) != 0
    }
}

fn observer_mask(players: &[usize]) -> u64 {
    players.iter().fold(0, |mask, &p| mask | (1 << p))
}

struct GameInner<M: AgentModel> {
    model: M,
    actions: ActionSpace,
    language: Option<TagLanguage>,
    /// Moves can be hidden from someone (some edge assigns `visible`, or it starts below 1), so
    /// states record keeper moves and observers.
    hidden_information: bool,
    /// The settled initial state and the keeper moves that led to it.
    initial: M::State,
    initial_steps: Vec<Step>,
    /// Per player, the running information-state hash after `initial_steps`.
    initial_keys: Vec<u64>,
    observation: ObservationLayout,
    /// Smallest and largest score values.
    utility_range: (f64, f64),
}

/// A game over one engine: its players, action space and observation layout. Cheap to clone and
/// shareable between threads.
pub struct Game<M: AgentModel = FastEngine> {
    inner: Arc<GameInner<M>>,
}

impl<M: AgentModel> Clone for Game<M> {
    fn clone(&self) -> Self {
        Game { inner: Arc::clone(&self.inner) }
    }
}

impl<M: AgentModel> fmt::Debug for Game<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("players", &self.num_players())
            .field("actions", &self.inner.actions)
            .field("hidden_information", &self.inner.hidden_information)
            .finish()
    }
}

impl Game<FastEngine> {
    /// A game over the fast engine (the default).
    pub fn fast(automaton: Automaton) -> Result<Self, AgentError> {
        Game::new(FastEngine::new(automaton)?)
    }
}

impl Game<ReferenceEngine> {
    /// A game over the reference engine.
    pub fn reference(automaton: Automaton) -> Result<Self, AgentError> {
        Game::new(ReferenceEngine::new(automaton)?)
    }
}

impl<M: AgentModel> Game<M> {
    /// Prepares a game over an engine: finds the action space, the observation layout and the
    /// initial state. Fails when the initial keeper moves fail or there are too many players.
    pub fn new(model: M) -> Result<Self, AgentError> {
        let automaton = model.automaton();
        if automaton.players.len() > MAX_PLAYERS {
            return Err(AgentError::TooManyPlayers { players: automaton.players.len() });
        }
        let (actions, language) = match TagLanguage::new(automaton) {
            Ok(language) => (ActionSpace::GameWide { size: language.len() as usize }, Some(language)),
            Err(reason) => (ActionSpace::PerState { reason }, None),
        };
        let observation = ObservationLayout::new(automaton)?;
        let hidden_information = observation.hidden_information();
        let mut trace = Vec::new();
        let initial = model.settle_traced(model.initial(), Some(&mut trace))?;
        // Without hidden information keeper moves carry nothing, and are not recorded anywhere.
        let initial_steps =
            if hidden_information { trace.into_iter().map(Step::from_trace).collect() } else { Vec::new() };
        let initial_keys = (0..automaton.players.len())
            .map(|p| initial_steps.iter().fold(Fnv::new(), |hash: Fnv, step| hash.step(step, p)).0)
            .collect();
        let values: Vec<f64> = automaton
            .scores
            .iter()
            .map(|&s| {
                automaton
                    .symbol_name(s)
                    .parse::<i64>()
                    .unwrap_or_else(|_| automaton.scores.iter().position(|&t| t == s).unwrap_or(0) as i64)
                    as f64
            })
            .collect();
        let utility_range = (
            values.iter().copied().fold(f64::INFINITY, f64::min).min(0.0),
            values.iter().copied().fold(f64::NEG_INFINITY, f64::max).max(0.0),
        );
        Ok(Game {
            inner: Arc::new(GameInner {
                model,
                actions,
                language,
                hidden_information,
                initial,
                initial_keys,
                initial_steps,
                observation,
                utility_range,
            }),
        })
    }

    /// The engine.
    pub fn model(&self) -> &M {
        &self.inner.model
    }

    /// The game's tables.
    pub fn automaton(&self) -> &Automaton {
        self.inner.model.automaton()
    }

    /// The number of real players.
    pub fn num_players(&self) -> usize {
        self.automaton().players.len()
    }

    /// The name of player `p` (its symbol in `Player`).
    pub fn player_name(&self, player: usize) -> Result<&str, AgentError> {
        self.check_player(player)?;
        Ok(self.automaton().symbol_name(self.automaton().players[player]))
    }

    fn check_player(&self, player: usize) -> Result<(), AgentError> {
        if player < self.num_players() {
            Ok(())
        } else {
            Err(AgentError::NoSuchPlayer { player, players: self.num_players() })
        }
    }

    /// How actions are numbered.
    pub fn action_space(&self) -> &ActionSpace {
        &self.inner.actions
    }

    /// The size of the game-wide action space (chance outcomes included: they are moves too);
    /// `None` when ids are per state.
    pub fn num_distinct_actions(&self) -> Option<usize> {
        match self.inner.actions {
            ActionSpace::GameWide { size } => Some(size),
            ActionSpace::PerState { .. } => None,
        }
    }

    fn language(&self) -> Result<&TagLanguage, AgentError> {
        match (&self.inner.language, &self.inner.actions) {
            (Some(language), _) => Ok(language),
            (None, ActionSpace::PerState { reason }) => {
                Err(AgentError::NoGameWideActionSpace { reason: reason.clone() })
            }
            (None, ActionSpace::GameWide { .. }) => unreachable!("a game-wide space always has its language"),
        }
    }

    /// The tags of a game-wide action id.
    pub fn action_tags(&self, action: Action) -> Result<Move, AgentError> {
        let language = self.language()?;
        language.unrank(action as u64).ok_or(AgentError::IllegalAction {
            action,
            mover: "anyone".into(),
            legal_count: language.len() as usize,
        })
    }

    /// The game-wide id of a tag sequence.
    pub fn tags_action(&self, tags: &[SymbolId]) -> Result<Action, AgentError> {
        self.language()?
            .rank(tags)
            .map(|rank| rank as Action)
            .ok_or_else(|| AgentError::MoveOutsideActionSpace { tags: format_move(self.automaton(), tags) })
    }

    /// A game-wide action as text: its tags separated by spaces.
    pub fn action_to_string(&self, action: Action) -> Result<String, AgentError> {
        Ok(format_move(self.automaton(), &self.action_tags(action)?))
    }

    /// The game-wide action of a move text.
    pub fn string_to_action(&self, text: &str) -> Result<Action, AgentError> {
        let tags = crate::engine::parse_move(self.automaton(), text)
            .map_err(|e| AgentError::UnknownAction { text: text.to_string(), reason: e.to_string() })?;
        self.tags_action(&tags).map_err(|e| AgentError::UnknownAction { text: text.to_string(), reason: e.to_string() })
    }

    /// Whether some move may be hidden from some player (the game assigns `visible` somewhere,
    /// or starts with a player not seeing).
    pub fn has_hidden_information(&self) -> bool {
        self.inner.hidden_information
    }

    /// The smallest score value (at most 0: non-terminal returns are 0).
    pub fn min_utility(&self) -> f64 {
        self.inner.utility_range.0
    }

    /// The largest score value (at least 0).
    pub fn max_utility(&self) -> f64 {
        self.inner.utility_range.1
    }

    /// The observation tensor's layout (which slots each player sees).
    pub fn observation_layout(&self) -> &ObservationLayout {
        &self.inner.observation
    }

    /// The shape of every player's observation tensor (one dimension).
    pub fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.inner.observation.tensor_size()]
    }

    /// The number of entries of an observation tensor.
    pub fn observation_tensor_size(&self) -> usize {
        self.inner.observation.tensor_size()
    }

    /// The settled initial state.
    pub fn new_initial_state(&self) -> State<M> {
        State { game: self.clone(), current: self.inner.initial.clone(), last: None, depth: 0, legal: OnceLock::new() }
    }

    /// Replays a serialised history ([`State::serialize`]: `/m1/m2/.../`, moves as tags).
    pub fn deserialize_state(&self, text: &str) -> Result<State<M>, AgentError> {
        let history = parse_history(self.automaton(), text)
            .map_err(|e| AgentError::BadSerialization { message: e.to_string() })?;
        let mut state = self.new_initial_state();
        for tags in &history {
            state.apply_tags(tags).map_err(|e| AgentError::BadSerialization { message: e.to_string() })?;
        }
        Ok(state)
    }
}

/// One entry of a state's history, shared between the states that have it.
struct Frame<M: AgentModel> {
    parent: Option<Arc<Frame<M>>>,
    /// The state the move was made from.
    previous: M::State,
    action: Action,
    /// The move itself, then the keeper moves after it (only the move when the game has no
    /// hidden information).
    steps: Vec<Step>,
    /// Per player, the running information-state hash after this move.
    keys: Vec<u64>,
}

/// A position and its history. Clones share the history; `undo` pops one move.
pub struct State<M: AgentModel = FastEngine> {
    game: Game<M>,
    current: M::State,
    last: Option<Arc<Frame<M>>>,
    depth: usize,
    /// The legal moves with their ids, sorted by id; computed on first use.
    legal: OnceLock<Arc<Vec<(Action, Move)>>>,
}

impl<M: AgentModel> Clone for State<M> {
    fn clone(&self) -> Self {
        State {
            game: self.game.clone(),
            current: self.current.clone(),
            last: self.last.clone(),
            depth: self.depth,
            legal: self.legal.clone(),
        }
    }
}

impl<M: AgentModel> fmt::Debug for State<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State").field("history", &self.serialize()).field("state", &self.current).finish()
    }
}

impl<M: AgentModel> fmt::Display for State<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.game.model().describe_state(&self.current))
    }
}

impl<M: AgentModel> State<M> {
    /// The game this state belongs to.
    pub fn game(&self) -> &Game<M> {
        &self.game
    }

    /// The engine's state.
    pub fn engine_state(&self) -> &M::State {
        &self.current
    }

    fn model(&self) -> &M {
        self.game.model()
    }

    /// Who acts: a player, chance, or nobody (terminal).
    pub fn current_player(&self) -> CurrentPlayer {
        match self.model().to_move(&self.current) {
            Mover::Player(p) => CurrentPlayer::Player(p),
            Mover::Random => CurrentPlayer::Chance,
            // States here are settled, so the keeper never is to move; treat it as over if it were.
            Mover::Terminal | Mover::Keeper => CurrentPlayer::Terminal,
        }
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.model().is_terminal(&self.current)
    }

    /// Whether `random` is to move.
    pub fn is_chance_node(&self) -> bool {
        self.current_player() == CurrentPlayer::Chance
    }

    /// The number of moves made (real players' and chance moves; keeper moves not counted).
    pub fn move_number(&self) -> usize {
        self.depth
    }

    /// The legal moves with their action ids, sorted by id (empty at a terminal state).
    pub fn legal_moves(&self) -> Result<Arc<Vec<(Action, Move)>>, AgentError> {
        if let Some(legal) = self.legal.get() {
            return Ok(Arc::clone(legal));
        }
        let model = self.model();
        let mut moves: Vec<Move> = if model.is_terminal(&self.current) {
            Vec::new()
        } else {
            let raw = model.raw_successors(&self.current)?;
            if raw.is_empty() {
                return Err(EngineError::UnexpectedEnd { node: model.node_name(&self.current) }.into());
            }
            raw.into_iter().map(|(tags, _)| tags).collect()
        };
        let legal: Vec<(Action, Move)> = match &self.game.inner.language {
            Some(language) => {
                let mut legal = moves
                    .into_iter()
                    .map(|tags| match language.rank(&tags) {
                        Some(rank) => Ok((rank as Action, tags)),
                        None => Err(AgentError::MoveOutsideActionSpace { tags: model.format_move(&tags) }),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                legal.sort_unstable();
                legal
            }
            None => {
                moves.sort_unstable();
                moves.into_iter().enumerate().collect()
            }
        };
        let legal = Arc::new(legal);
        let _ = self.legal.set(Arc::clone(&legal));
        Ok(legal)
    }

    /// The legal action ids, sorted (empty at a terminal state).
    pub fn legal_actions(&self) -> Result<Vec<Action>, AgentError> {
        Ok(self.legal_moves()?.iter().map(|(a, _)| *a).collect())
    }

    /// One flag per game-wide action: is it legal here? Needs a game-wide action space.
    pub fn legal_actions_mask(&self) -> Result<Vec<bool>, AgentError> {
        let size = self.game.language()?.len() as usize;
        let mut mask = vec![false; size];
        for (action, _) in self.legal_moves()?.iter() {
            mask[*action] = true;
        }
        Ok(mask)
    }

    /// The tags of an action id in this state (a game-wide id need not be legal here).
    pub fn action_tags(&self, action: Action) -> Result<Move, AgentError> {
        match &self.game.inner.language {
            Some(_) => self.game.action_tags(action),
            None => self.legal_moves()?.get(action).map(|(_, tags)| tags.clone()).ok_or_else(|| self.illegal(action)),
        }
    }

    fn illegal(&self, action: Action) -> AgentError {
        AgentError::IllegalAction {
            action,
            mover: mover_name(self.game.automaton(), self.model().to_move(&self.current)),
            legal_count: self.legal_moves().map_or(0, |legal| legal.len()),
        }
    }

    /// An action as text (its tags separated by spaces).
    pub fn action_to_string(&self, action: Action) -> Result<String, AgentError> {
        Ok(format_move(self.game.automaton(), &self.action_tags(action)?))
    }

    /// The id of a legal move written as text.
    pub fn string_to_action(&self, text: &str) -> Result<Action, AgentError> {
        let unknown = |reason: String| AgentError::UnknownAction { text: text.to_string(), reason };
        let tags = self.model().parse_move(text).map_err(|e| unknown(e.to_string()))?;
        let legal = self.legal_moves()?;
        let found = match &self.game.inner.language {
            Some(language) => language
                .rank(&tags)
                .map(|rank| rank as Action)
                .filter(|action| legal.binary_search_by_key(action, |(a, _)| *a).is_ok()),
            // Per-state ids are positions in the list sorted by tags.
            None => legal.binary_search_by(|(_, m)| m.as_slice().cmp(&tags)).ok(),
        };
        found.ok_or_else(|| unknown(format!("not legal here ({} legal moves)", legal.len())))
    }

    /// Plays an action; an illegal id is an error and leaves the state unchanged.
    pub fn apply_action(&mut self, action: Action) -> Result<(), AgentError> {
        let tags = match self.action_tags(action) {
            Ok(tags) => tags,
            Err(AgentError::IllegalAction { .. }) => return Err(self.illegal(action)),
            Err(other) => return Err(other),
        };
        match self.apply_move(action, tags) {
            Err(AgentError::Engine(EngineError::IllegalMove { .. })) => Err(self.illegal(action)),
            other => other,
        }
    }

    /// The state after an action (this one unchanged).
    pub fn child(&self, action: Action) -> Result<State<M>, AgentError> {
        let mut child = self.clone();
        child.apply_action(action)?;
        Ok(child)
    }

    /// Plays a move given by its tags.
    pub fn apply_tags(&mut self, tags: &[SymbolId]) -> Result<(), AgentError> {
        let action = match &self.game.inner.language {
            Some(language) => match language.rank(tags) {
                Some(rank) => rank as Action,
                None => return Err(self.model().illegal_move(&self.current, tags).into()),
            },
            None => match self.legal_moves()?.binary_search_by(|(_, m)| m.as_slice().cmp(tags)) {
                Ok(index) => index,
                Err(_) => return Err(self.model().illegal_move(&self.current, tags).into()),
            },
        };
        self.apply_move(action, tags.to_vec())
    }

    fn apply_move(&mut self, action: Action, tags: Move) -> Result<(), AgentError> {
        let model = self.game.model();
        let mover = model.to_move(&self.current);
        let (next, steps) = if self.game.inner.hidden_information {
            let observers = observer_mask(&model.observers(&self.current, mover));
            let raw = match model.is_terminal(&self.current) {
                true => None,
                false => model.raw_apply(&self.current, &tags)?,
            };
            let Some(raw) = raw else {
                return Err(model.illegal_move(&self.current, &tags).into());
            };
            let mut trace = Vec::new();
            let next = model.settle_traced(raw, Some(&mut trace))?;
            let mut steps = vec![Step { mover, tags, observers }];
            steps.extend(trace.into_iter().map(Step::from_trace));
            (next, steps)
        } else {
            let next = model.apply(&self.current, &tags)?;
            let everyone =
                if self.game.num_players() == MAX_PLAYERS { u64::MAX } else { (1 << self.game.num_players()) - 1 };
            (next, vec![Step { mover, tags, observers: everyone }])
        };
        let previous = std::mem::replace(&mut self.current, next);
        let keys = self
            .running_keys()
            .iter()
            .enumerate()
            .map(|(p, &key)| steps.iter().fold(Fnv(key), |hash, step| hash.step(step, p)).0)
            .collect();
        self.last = Some(Arc::new(Frame { parent: self.last.take(), previous, action, steps, keys }));
        self.depth += 1;
        self.legal = OnceLock::new();
        Ok(())
    }

    /// Takes back the last move and returns its action id.
    pub fn undo(&mut self) -> Result<Action, AgentError> {
        let frame = self.last.take().ok_or(AgentError::NothingToUndo)?;
        let frame = Arc::try_unwrap(frame).unwrap_or_else(|shared| Frame {
            parent: shared.parent.clone(),
            previous: shared.previous.clone(),
            action: shared.action,
            steps: Vec::new(),
            keys: Vec::new(),
        });
        self.current = frame.previous;
        self.last = frame.parent;
        self.depth -= 1;
        self.legal = OnceLock::new();
        Ok(frame.action)
    }

    /// The chance outcomes with their probabilities (summing to 1), sorted by action id; empty
    /// unless this is a chance node.
    pub fn chance_outcomes(&self) -> Result<Vec<(Action, f64)>, AgentError> {
        if !self.is_chance_node() {
            return Ok(Vec::new());
        }
        let legal = self.legal_moves()?;
        let probability = 1.0 / legal.len() as f64;
        Ok(legal.iter().map(|(a, _)| (*a, probability)).collect())
    }

    /// Every player's score at a terminal state (the `Score` symbol read as an integer when it
    /// is one, otherwise its index in `Score`); zeros before the end.
    pub fn returns(&self) -> Vec<f64> {
        if !self.is_terminal() {
            return vec![0.0; self.game.num_players()];
        }
        self.model().scores(&self.current).iter().map(|s| s.value as f64).collect()
    }

    /// The rewards of the last move: the change in [`State::returns`] (so the returns at the
    /// move that ends the game, zeros otherwise).
    pub fn rewards(&self) -> Vec<f64> {
        // Returns are zero until the end and nothing follows the end, so the change is the returns.
        self.returns()
    }

    /// The ids of the moves made so far, oldest first (keeper moves not included).
    pub fn history(&self) -> Vec<Action> {
        let mut actions = Vec::with_capacity(self.depth);
        let mut frame = self.last.as_deref();
        while let Some(f) = frame {
            actions.push(f.action);
            frame = f.parent.as_deref();
        }
        actions.reverse();
        actions
    }

    fn frames(&self) -> Vec<&Frame<M>> {
        let mut frames = Vec::with_capacity(self.depth);
        let mut frame = self.last.as_deref();
        while let Some(f) = frame {
            frames.push(f);
            frame = f.parent.as_deref();
        }
        frames.reverse();
        frames
    }

    /// The moves made so far as tags, oldest first (keeper moves not included).
    pub fn history_moves(&self) -> Vec<Move> {
        self.frames().into_iter().map(|f| f.steps[0].tags.clone()).collect()
    }

    /// Every recorded move, keeper moves included when the game has hidden information.
    pub fn steps(&self) -> Vec<Step> {
        let mut steps = self.game.inner.initial_steps.clone();
        for frame in self.frames() {
            steps.extend(frame.steps.iter().cloned());
        }
        steps
    }

    /// The history as text, `/m1/m2/.../` (moves as tags, keeper moves implicit): the format of
    /// `regula moves --after` and [`Game::deserialize_state`].
    pub fn serialize(&self) -> String {
        format_history(self.game.automaton(), &self.history_moves())
    }

    /// What player `p` observed of the history: one `/`-separated entry per move, `mover:tags`
    /// when `p` saw the tags and `mover:?` otherwise (keeper moves listed when the game has
    /// hidden information). Equal for two states `p` cannot tell apart.
    pub fn information_state_string(&self, player: usize) -> Result<String, AgentError> {
        self.game.check_player(player)?;
        let automaton = self.game.automaton();
        let mut text = String::from("/");
        let mut write_step = |step: &Step| {
            text.push_str(&mover_name(automaton, step.mover));
            text.push(':');
            if step.seen_by(player) {
                text.push_str(&format_move(automaton, &step.tags));
            } else {
                text.push('?');
            }
            text.push('/');
        };
        self.game.inner.initial_steps.iter().for_each(&mut write_step);
        for frame in self.frames() {
            frame.steps.iter().for_each(&mut write_step);
        }
        Ok(text)
    }

    /// A 64-bit hash of [`State::information_state_string`] (computed from the steps, stable
    /// across runs and builds).
    pub fn information_state_key(&self, player: usize) -> Result<u64, AgentError> {
        self.game.check_player(player)?;
        Ok(Fnv(self.running_keys()[player]).finish())
    }

    /// Per player, the running hash of everything recorded so far (kept per move, so a key costs
    /// O(1)).
    fn running_keys(&self) -> &[u64] {
        match &self.last {
            Some(frame) => &frame.keys,
            None => &self.game.inner.initial_keys,
        }
    }

    /// The current state as player `p` sees it: every variable, with `?` for the slots hidden
    /// from `p` (spec/agents.md, "Observations").
    pub fn observation_string(&self, player: usize) -> Result<String, AgentError> {
        self.game.check_player(player)?;
        let slots = self.model().state_slots(&self.current);
        let node = self.model().node(&self.current);
        Ok(self.game.inner.observation.render(self.game.automaton(), player, node, &slots))
    }

    /// The observation tensor of player `p`: one-hot blocks per visible slot, zeros for the
    /// hidden ones; its length is [`Game::observation_tensor_size`].
    pub fn observation_tensor(&self, player: usize) -> Result<Vec<f32>, AgentError> {
        let mut tensor = vec![0.0; self.game.observation_tensor_size()];
        self.write_observation_tensor(player, &mut tensor)?;
        Ok(tensor)
    }

    /// [`State::observation_tensor`] into a buffer of [`Game::observation_tensor_size`] entries
    /// (every entry is written).
    pub fn write_observation_tensor(&self, player: usize, tensor: &mut [f32]) -> Result<(), AgentError> {
        self.game.check_player(player)?;
        let slots = self.model().state_slots(&self.current);
        let node = self.model().node(&self.current);
        self.game.inner.observation.write_tensor(player, node, &slots, tensor);
        Ok(())
    }
}

/// FNV-1a over 64-bit words: a fixed, portable hash for information-state keys.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, word: u64) {
        for byte in word.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Adds what `player` perceives of one step: the mover, then the tags or a hidden marker.
    fn step(mut self, step: &Step, player: usize) -> Self {
        self.add(match step.mover {
            Mover::Player(p) => p as u64,
            Mover::Random => u64::MAX - 1,
            Mover::Keeper => u64::MAX - 2,
            Mover::Terminal => u64::MAX - 3,
        });
        if step.seen_by(player) {
            self.add(step.tags.len() as u64);
            step.tags.iter().for_each(|&t| self.add(t as u64));
        } else {
            self.add(u64::MAX);
        }
        self
    }

    fn finish(&self) -> u64 {
        // A final avalanche so that nearby histories spread over all bits.
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
