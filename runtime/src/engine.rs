//! The forward-model API every engine implements, with the conventions shared by all of them:
//! keeper moves applied automatically, move and history names, scores, chance and observations.
//!
//! An engine implements a handful of *raw* primitives ([`ForwardModel::initial`],
//! [`ForwardModel::raw_successors`], and state accessors); the provided methods build the
//! user-facing model on top of them so that every engine follows spec/forward-model.md in exactly
//! the same way. An engine may override provided methods for speed, never to change results.
//!
//! ```
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//! use regula_runtime::engine::{ForwardModel, Mover};
//! use regula_runtime::reference::ReferenceEngine;
//!
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}")
//!     .typedef("Score", "{0, 1}")
//!     .edge("begin", "turn", "player = x")
//!     .edge("turn", "a", "$ left")
//!     .edge("turn", "b", "$ right")
//!     .edge("a", "won", "goals[x] = 1")
//!     .edge("won", "end", "player = keeper")
//!     .edge("b", "end", "player = keeper")
//!     .build()
//!     .unwrap();
//! let engine = ReferenceEngine::new(automaton).unwrap();
//! let start = engine.start().unwrap();
//! assert_eq!(engine.to_move(&start), Mover::Player(0));
//! let moves = engine.moves(&start).unwrap();
//! assert_eq!(engine.format_moves(&moves), ["left", "right"]);
//! let after = engine.apply(&start, &engine.parse_move("left").unwrap()).unwrap();
//! assert!(engine.is_terminal(&after));
//! assert_eq!(engine.scores(&after)[0].value, 1);
//! ```

use crate::automaton::{Automaton, NodeId, SymbolId};
use std::fmt;

/// A move: the tags emitted along its path, in order (possibly none).
pub type Move = Vec<SymbolId>;

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mover {
    /// A real player, by index into [`Automaton::players`].
    Player(usize),
    /// The chance player `random`.
    Random,
    /// The system player `keeper` (only in raw, unsettled states).
    Keeper,
    /// The state's node is `end`.
    Terminal,
}

/// A player's score in a terminal state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Score {
    /// The `Score` symbol in `goals[p]`.
    pub symbol: SymbolId,
    /// The symbol read as an integer if it is one (`"100"` is 100), otherwise its index in `Score`
    /// (-1 for a symbol outside `Score`, which loose typing allows).
    pub value: i64,
}

/// One move of a replayed history, keeper moves included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    pub mover: Mover,
    pub tags: Move,
    /// Players who see this move's tags (semantics: `visible[p] == 1` before the move, plus the
    /// mover itself when it is a real player).
    pub observers: Vec<usize>,
}

/// What one player perceives of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observed {
    /// The player saw the move's tags.
    Seen { mover: Mover, tags: Move },
    /// The player only learnt that `mover` made a move.
    Hidden { mover: Mover },
}

/// Everything that can go wrong while running a game. Names are resolved, so messages stand alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The keeper must have exactly one legal move whenever it is to move.
    KeeperMoveCount { node: String, count: usize },
    /// A non-terminal state without legal moves.
    UnexpectedEnd { node: String },
    /// Two paths with the same tags lead to different states.
    AmbiguousMove { node: String, tags: String },
    /// `m[k] = v` with `k` outside `m`'s key type.
    KeyOutsideDomain { key: String, map_type: String, edge: String },
    /// A move that is not legal in the state; `nearby` lists some legal moves sharing its prefix.
    IllegalMove { node: String, mover: String, requested: String, nearby: Vec<String>, legal_count: usize },
    /// A move or history names a symbol the game does not have.
    UnknownTag { name: String },
    /// `player` was given a value that is neither a player nor `keeper` or `random`.
    InvalidPlayer { node: String, value: String },
    /// A move search kept emitting tags around a cycle (the set of moves would be infinite).
    TagCycle { node: String },
    /// Keeper moves returned to an earlier state (the game would never continue).
    KeeperCycle { node: String },
    /// Reachability checks nested deeper than the engine allows.
    ReachDepth { from: String, to: String },
    /// A playout made more moves than its limit.
    PlayoutTooLong { playout: u64, limit: u64 },
    /// The automaton breaks the compiler->runtime contract (a compiler bug or a hand-made table).
    Malformed { message: String },
    /// Worker threads could not be started.
    Threads { message: String },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::KeeperMoveCount { node, count } => {
                write!(f, "the keeper must have exactly one legal move, but has {count} at node `{node}`")
            }
            EngineError::UnexpectedEnd { node } => {
                write!(f, "game unexpectedly ended at node `{node}`: no legal moves and the node is not `end`")
            }
            EngineError::AmbiguousMove { node, tags } => write!(
                f,
                "ambiguous move `{tags}` from node `{node}`: two paths with these tags reach different states"
            ),
            EngineError::KeyOutsideDomain { key, map_type, edge } => write!(
                f,
                "key outside the map's domain: `{key}` is not a key of `{map_type}` (assignment on edge {edge})"
            ),
            EngineError::IllegalMove { node, mover, requested, nearby, legal_count } => {
                write!(f, "illegal move `{requested}` for {mover} at node `{node}` ({legal_count} legal moves")?;
                if nearby.is_empty() {
                    write!(f, ")")
                } else {
                    write!(f, "; closest: {})", nearby.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "))
                }
            }
            EngineError::UnknownTag { name } => write!(f, "unknown tag `{name}`: the game has no such symbol"),
            EngineError::InvalidPlayer { node, value } => write!(
                f,
                "`player` set to `{value}` on the way to node `{node}`, which is not a player, `keeper` or `random`"
            ),
            EngineError::TagCycle { node } => {
                write!(
                    f,
                    "move search emits tags around a cycle through node `{node}`: the game has infinitely many moves"
                )
            }
            EngineError::KeeperCycle { node } => {
                write!(f, "keeper moves loop forever: node `{node}` was reached twice with the same state")
            }
            EngineError::ReachDepth { from, to } => {
                write!(f, "reachability checks nested too deeply at `? {from} -> {to}`")
            }
            EngineError::PlayoutTooLong { playout, limit } => {
                write!(f, "playout {playout} made more than {limit} moves without ending")
            }
            EngineError::Malformed { message } => write!(f, "malformed automaton: {message}"),
            EngineError::Threads { message } => write!(f, "cannot start worker threads: {message}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Keeper moves in a row after which a settle starts looking for cycles (real chains are short).
const KEEPER_CYCLE_CHECK_AFTER: usize = 64;
/// How many legal moves an illegal-move error lists.
const NEARBY_MOVES: usize = 8;

/// A game as a forward model. See the module docs and spec/forward-model.md for the conventions.
pub trait ForwardModel: Send + Sync {
    type State: Clone + Send + Sync + Eq + std::hash::Hash + fmt::Debug;

    /// The tables this model runs.
    fn automaton(&self) -> &Automaton;

    /// The raw initial state: node `begin`, every variable at its initial value (`player` is
    /// normally `keeper`, so [`ForwardModel::start`] applies keeper moves to it).
    fn initial(&self) -> Self::State;

    /// The state's current node.
    fn node(&self, state: &Self::State) -> NodeId;

    /// The current value of the `player` variable.
    fn player_symbol(&self, state: &Self::State) -> SymbolId;

    /// `visible[p]` for player number `p`, as a symbol.
    fn visible_symbol(&self, state: &Self::State, player: usize) -> SymbolId;

    /// `goals[p]` for player number `p`, as a symbol.
    fn goal_symbol(&self, state: &Self::State, player: usize) -> SymbolId;

    /// Every legal move of whoever is to move (keeper included) with its successor, keeper moves
    /// *not* applied, in the order the search finds them. Empty when no path completes a move.
    fn raw_successors(&self, state: &Self::State) -> Result<Vec<(Move, Self::State)>, EngineError>;

    /// The successor of one move, keeper moves not applied; `Ok(None)` when the move is not legal.
    /// Engines may override this with a search restricted to the move's tags.
    fn raw_apply(&self, state: &Self::State, tags: &[SymbolId]) -> Result<Option<Self::State>, EngineError> {
        Ok(self.raw_successors(state)?.into_iter().find(|(m, _)| m == tags).map(|(_, s)| s))
    }

    // ----------------------------------------------------------------------------------------
    // Provided: the user-facing model.

    /// Who acts in a state.
    fn to_move(&self, state: &Self::State) -> Mover {
        let automaton = self.automaton();
        if self.node(state) == automaton.end {
            return Mover::Terminal;
        }
        let player = self.player_symbol(state);
        if player == automaton.random {
            Mover::Random
        } else if let Some(index) = automaton.player_index(player) {
            Mover::Player(index)
        } else {
            Mover::Keeper
        }
    }

    /// Whether the state's node is `end`.
    fn is_terminal(&self, state: &Self::State) -> bool {
        self.node(state) == self.automaton().end
    }

    /// Applies keeper moves until a real player or `random` is to move, or the game ends.
    fn settle(&self, state: Self::State) -> Result<Self::State, EngineError> {
        self.settle_traced(state, None)
    }

    /// [`ForwardModel::settle`], recording each keeper move in `trace` when given.
    fn settle_traced(
        &self,
        mut state: Self::State,
        mut trace: Option<&mut Vec<TraceStep>>,
    ) -> Result<Self::State, EngineError> {
        let mut steps = 0;
        let mut seen = std::collections::HashSet::new();
        while self.to_move(&state) == Mover::Keeper {
            let mut successors = self.raw_successors(&state)?;
            if successors.len() != 1 {
                return Err(EngineError::KeeperMoveCount { node: self.node_name(&state), count: successors.len() });
            }
            let (tags, next) = successors.pop().expect("length checked above");
            if let Some(trace) = trace.as_deref_mut() {
                trace.push(TraceStep { mover: Mover::Keeper, observers: self.observers(&state, Mover::Keeper), tags });
            }
            steps += 1;
            if steps > KEEPER_CYCLE_CHECK_AFTER && !seen.insert(state.clone()) {
                return Err(EngineError::KeeperCycle { node: self.node_name(&state) });
            }
            state = next;
        }
        Ok(state)
    }

    /// The initial state with keeper moves applied.
    fn start(&self) -> Result<Self::State, EngineError> {
        self.settle(self.initial())
    }

    /// The legal moves of the player (or `random`) to move; empty in a terminal state.
    fn moves(&self, state: &Self::State) -> Result<Vec<Move>, EngineError> {
        Ok(self.successors(state)?.into_iter().map(|(m, _)| m).collect())
    }

    /// Every legal move with its successor, keeper moves applied; empty in a terminal state and an
    /// [`EngineError::UnexpectedEnd`] when a non-terminal state has no legal move.
    fn successors(&self, state: &Self::State) -> Result<Vec<(Move, Self::State)>, EngineError> {
        if self.is_terminal(state) {
            return Ok(Vec::new());
        }
        let raw = self.raw_successors(state)?;
        if raw.is_empty() {
            return Err(EngineError::UnexpectedEnd { node: self.node_name(state) });
        }
        raw.into_iter().map(|(m, s)| Ok((m, self.settle(s)?))).collect()
    }

    /// Plays one move (keeper moves applied after it); an illegal move is an error.
    ///
    /// Whenever [`ForwardModel::successors`] succeeds, `apply` returns exactly the successor it
    /// lists for these tags. An engine may search only the paths whose tags fit the move, so an
    /// error on an unrelated path (an ambiguity between other moves, say) need not stop `apply`.
    fn apply(&self, state: &Self::State, tags: &[SymbolId]) -> Result<Self::State, EngineError> {
        if !self.is_terminal(state) {
            if let Some(next) = self.raw_apply(state, tags)? {
                return self.settle(next);
            }
        }
        Err(self.illegal_move(state, tags))
    }

    /// Chance outcomes when `random` is to move: each distinct legal move with probability
    /// 1/count. Empty when a real player is to move or the game is over.
    fn chance_outcomes(&self, state: &Self::State) -> Result<Vec<(Move, f64)>, EngineError> {
        if self.to_move(state) != Mover::Random {
            return Ok(Vec::new());
        }
        let moves = self.moves(state)?;
        let probability = 1.0 / moves.len() as f64;
        Ok(moves.into_iter().map(|m| (m, probability)).collect())
    }

    /// `goals[p]` for every player in `Player` order, read as [`Score`]s. Meaningful in terminal
    /// states; in other states it reports the current (provisional) goals.
    fn scores(&self, state: &Self::State) -> Vec<Score> {
        let automaton = self.automaton();
        (0..automaton.players.len())
            .map(|p| {
                let symbol = self.goal_symbol(state, p);
                let value = automaton
                    .symbol_name(symbol)
                    .parse::<i64>()
                    .ok()
                    .unwrap_or_else(|| automaton.scores.iter().position(|&s| s == symbol).map_or(-1, |i| i as i64));
                Score { symbol, value }
            })
            .collect()
    }

    /// The players who see the tags of a move made from `state` by `mover`.
    fn observers(&self, state: &Self::State, mover: Mover) -> Vec<usize> {
        let automaton = self.automaton();
        let one = automaton.symbol_id("1");
        (0..automaton.players.len())
            .filter(|&p| Some(self.visible_symbol(state, p)) == one || mover == Mover::Player(p))
            .collect()
    }

    /// Plays a history of real-player and `random` moves from the start, recording every move
    /// including the keeper's, and returns the trace with the final state.
    fn trace(&self, history: &[Move]) -> Result<(Vec<TraceStep>, Self::State), EngineError> {
        let mut trace = Vec::new();
        let mut state = self.settle_traced(self.initial(), Some(&mut trace))?;
        for tags in history {
            let mover = self.to_move(&state);
            let next = if mover == Mover::Terminal { None } else { self.raw_apply(&state, tags)? };
            let Some(next) = next else {
                return Err(self.illegal_move(&state, tags));
            };
            trace.push(TraceStep { mover, tags: tags.clone(), observers: self.observers(&state, mover) });
            state = self.settle_traced(next, Some(&mut trace))?;
        }
        Ok((trace, state))
    }

    /// Plays a history from the start and returns the final state.
    fn play(&self, history: &[Move]) -> Result<Self::State, EngineError> {
        let mut state = self.start()?;
        for tags in history {
            state = self.apply(&state, tags)?;
        }
        Ok(state)
    }

    /// What player number `player` perceives of a history: one entry per move (keeper moves
    /// included), with tags only for the moves it observes (spec/visibility.md).
    ///
    /// ```
    /// use regula_runtime::automaton::builder::AutomatonBuilder;
    /// use regula_runtime::engine::{parse_history, ForwardModel, Mover, Observed};
    /// use regula_runtime::reference::ReferenceEngine;
    ///
    /// // x picks a card in secret (o cannot see x's move), then the game ends.
    /// let automaton = AutomatonBuilder::new()
    ///     .typedef("Player", "{x, o}").typedef("Score", "{0}").typedef("Card", "{ace, king}")
    ///     .variable("card", "Card", "ace")
    ///     .edge("begin", "hide", "visible[o] = 0").edge("hide", "pick", "player = x")
    ///     .edge("pick", "picked", "card = Card(*)").edge("picked", "done", "$$ card")
    ///     .edge("done", "end", "player = keeper")
    ///     .build().unwrap();
    /// let engine = ReferenceEngine::new(automaton).unwrap();
    /// let history = parse_history(engine.automaton(), "/king/").unwrap();
    /// let king = engine.automaton().symbol_id("king").unwrap();
    /// let x_sees = engine.observation(&history, 0).unwrap();
    /// assert_eq!(x_sees[1], Observed::Seen { mover: Mover::Player(0), tags: vec![king] });
    /// let o_sees = engine.observation(&history, 1).unwrap();
    /// assert_eq!(o_sees[1], Observed::Hidden { mover: Mover::Player(0) });
    /// ```
    fn observation(&self, history: &[Move], player: usize) -> Result<Vec<Observed>, EngineError> {
        let (trace, _) = self.trace(history)?;
        Ok(trace
            .into_iter()
            .map(|step| {
                if step.observers.contains(&player) {
                    Observed::Seen { mover: step.mover, tags: step.tags }
                } else {
                    Observed::Hidden { mover: step.mover }
                }
            })
            .collect())
    }

    // ----------------------------------------------------------------------------------------
    // Provided: names.

    /// A human-readable description of a state, for tools and debugging. Engines that know the
    /// variables' values list them; the default gives the node and the mover.
    fn describe_state(&self, state: &Self::State) -> String {
        let automaton = self.automaton();
        format!("node: {}\nplayer = {}\n", self.node_name(state), automaton.symbol_name(self.player_symbol(state)))
    }

    /// The name of the state's node.
    fn node_name(&self, state: &Self::State) -> String {
        self.automaton().nodes[self.node(state) as usize].name.clone()
    }

    /// A move's tags separated by spaces (`"P__1_1"`, `"a b"`; the empty move is `""`).
    fn format_move(&self, tags: &[SymbolId]) -> String {
        format_move(self.automaton(), tags)
    }

    /// Every move's name.
    fn format_moves(&self, moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| self.format_move(m)).collect()
    }

    /// Parses a move written as tag names separated by whitespace.
    fn parse_move(&self, text: &str) -> Result<Move, EngineError> {
        parse_move(self.automaton(), text)
    }

    /// The name of a mover (`x`, `random`, `keeper`, `nobody`).
    fn mover_name(&self, mover: Mover) -> String {
        mover_name(self.automaton(), mover)
    }

    /// The error for a move that is not legal in `state`, listing the legal moves closest to it.
    fn illegal_move(&self, state: &Self::State, tags: &[SymbolId]) -> EngineError {
        let legal = if self.is_terminal(state) { Vec::new() } else { self.raw_successors(state).unwrap_or_default() };
        let mut ranked: Vec<(usize, String)> = legal
            .iter()
            .map(|(m, _)| (m.iter().zip(tags).take_while(|(a, b)| a == b).count(), self.format_move(m)))
            .collect();
        // Longest shared prefix first; the search order breaks ties.
        ranked.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        EngineError::IllegalMove {
            node: self.node_name(state),
            mover: self.mover_name(self.to_move(state)),
            requested: self.format_move(tags),
            nearby: ranked.into_iter().take(NEARBY_MOVES).map(|(_, m)| m).collect(),
            legal_count: legal.len(),
        }
    }
}

/// A move's tags separated by spaces.
pub fn format_move(automaton: &Automaton, tags: &[SymbolId]) -> String {
    tags.iter().map(|&t| automaton.symbol_name(t)).collect::<Vec<_>>().join(" ")
}

/// Parses tag names separated by whitespace into a move.
pub fn parse_move(automaton: &Automaton, text: &str) -> Result<Move, EngineError> {
    text.split_whitespace()
        .map(|name| automaton.symbol_id(name).ok_or_else(|| EngineError::UnknownTag { name: name.to_string() }))
        .collect()
}

/// Parses a history path `/m1/m2/.../` of real-player and `random` moves (keeper moves are
/// implicit). The outer slashes are optional; `""` and `"/"` are the empty history, and an empty
/// segment (`/a//b/`) is a move with no tags.
///
/// ```
/// use regula_runtime::automaton::builder::AutomatonBuilder;
/// use regula_runtime::engine::{format_history, parse_history};
///
/// let automaton = AutomatonBuilder::new()
///     .typedef("Player", "{x}").typedef("Score", "{0}")
///     .edge("begin", "a", "$ P__1_1").edge("a", "end", "$ pass")
///     .build().unwrap();
/// let history = parse_history(&automaton, "/P__1_1/P__1_1 pass/").unwrap();
/// assert_eq!(history.len(), 2);
/// assert_eq!(format_history(&automaton, &history), "/P__1_1/P__1_1 pass/");
/// assert!(parse_history(&automaton, "/nonsense/").is_err());
/// ```
pub fn parse_history(automaton: &Automaton, text: &str) -> Result<Vec<Move>, EngineError> {
    let text = text.trim();
    let inner = text.strip_prefix('/').unwrap_or(text);
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    if text.is_empty() || text == "/" {
        return Ok(Vec::new());
    }
    inner.split('/').map(|segment| parse_move(automaton, segment)).collect()
}

/// Writes a history as `/m1/m2/.../` (`/` for the empty history).
pub fn format_history(automaton: &Automaton, history: &[Move]) -> String {
    let mut text = String::from("/");
    for tags in history {
        text.push_str(&format_move(automaton, tags));
        text.push('/');
    }
    text
}

/// The name of a mover (`x`, `random`, `keeper`, `nobody`).
pub fn mover_name(automaton: &Automaton, mover: Mover) -> String {
    match mover {
        Mover::Player(p) => automaton.symbol_name(automaton.players[p]).to_string(),
        Mover::Random => automaton.symbol_name(automaton.random).to_string(),
        Mover::Keeper => automaton.symbol_name(automaton.keeper).to_string(),
        Mover::Terminal => "nobody (the game is over)".to_string(),
    }
}
