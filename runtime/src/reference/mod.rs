//! The reference engine: a direct, checked implementation of the automaton semantics that every
//! faster engine is tested against.
//!
//! **State.** A [`ReferenceState`] is the current node plus a flat buffer of symbol ids, one run
//! of slots per variable (module `layout`: a set value is one slot, a map `K -> V` is
//! `(|K| + 1) × size(V)` slots, the last block being the default). Constants live in one shared
//! buffer with the same layout. Expressions are compiled once, at construction, into a base offset
//! plus one `index(key) × stride` term per access, so evaluating `board[x][y]` is two table
//! lookups; map equality compares a block and map assignment copies one.
//!
//! **Search.** Legal moves come from a depth-first search from the current node (module
//! `search`): out-edges in declaration order, assignments applied in place with an undo log,
//! comparisons and reachability checks as guards, a path completed by the first edge assigning
//! `player`. Cost: one search visits each (node, state, tags) at most once at merge points, and
//! each completed move copies the state once (O(state length)); reachability checks run a nested
//! search with its own visited set.
//!
//! **Invariants.** Construction checks the automaton against the contract (types resolvable,
//! accesses into maps, assignment targets rooted at variables, `player`, `goals` and `visible` of
//! the expected shapes) and reports violations as [`EngineError::Malformed`], so evaluation never
//! indexes out of range. Every state the engine returns has a valid `player` value.
//!
//! ```
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//! use regula_runtime::engine::ForwardModel;
//! use regula_runtime::reference::ReferenceEngine;
//!
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}")
//!     .typedef("Score", "{0}")
//!     .typedef("Coin", "{heads, tails}")
//!     .variable("coin", "Coin", "heads")
//!     .edge("begin", "toss", "player = random")
//!     .edge("toss", "tossed", "coin = Coin(*)")
//!     .edge("tossed", "done", "$$ coin")
//!     .edge("done", "end", "player = keeper")
//!     .build()
//!     .unwrap();
//! let engine = ReferenceEngine::new(automaton).unwrap();
//! let start = engine.start().unwrap();
//! let outcomes = engine.chance_outcomes(&start).unwrap();
//! assert_eq!(outcomes.len(), 2);
//! assert_eq!(outcomes[0].1, 0.5);
//! ```

pub(crate) mod layout;
mod search;
mod visited;

use crate::automaton::{Automaton, NodeId, SymbolId, Type, TypeId, VarId};
use crate::engine::{EngineError, ForwardModel, Move};
use layout::{Compiler, Layout, Op};
use search::Searcher;

/// A game state of the reference engine: the current node and every variable's slots.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReferenceState {
    node: NodeId,
    values: Box<[SymbolId]>,
}

impl ReferenceState {
    /// The current node.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The flat slot buffer (layout described in the module docs).
    pub fn values(&self) -> &[SymbolId] {
        &self.values
    }
}

/// The reference engine. Cheap to share between threads (`&ReferenceEngine` is all a search needs).
#[derive(Debug)]
pub struct ReferenceEngine {
    automaton: Automaton,
    layout: Layout,
    /// The compiled label of every edge, indexed like `automaton.edges`.
    ops: Vec<Op>,
    /// Nodes where the search records visited states: two or more in-edges.
    merge_node: Vec<bool>,
    /// Nodes with at least one in-edge (a search starting there may come back).
    has_in_edge: Vec<bool>,
    player_slot: u32,
    /// Indexed by symbol: may this symbol be the value of `player`?
    valid_player: Vec<bool>,
    goal_slots: Vec<u32>,
    visible_slots: Vec<u32>,
}

impl ReferenceEngine {
    /// Prepares an automaton for running; an automaton that breaks the compiler->runtime contract
    /// is an [`EngineError::Malformed`].
    ///
    /// ```
    /// use regula_runtime::automaton::builder::AutomatonBuilder;
    /// use regula_runtime::engine::{EngineError, ForwardModel};
    /// use regula_runtime::reference::ReferenceEngine;
    ///
    /// let mut automaton = AutomatonBuilder::new()
    ///     .typedef("Player", "{x}").typedef("Score", "{0}")
    ///     .edge("begin", "end", "player = keeper")
    ///     .build().unwrap();
    /// let engine = ReferenceEngine::new(automaton.clone()).unwrap();
    /// assert!(engine.is_terminal(&engine.start().unwrap()));
    /// automaton.edges[0].target = 42; // no such node
    /// assert!(matches!(ReferenceEngine::new(automaton), Err(EngineError::Malformed { .. })));
    /// ```
    pub fn new(automaton: Automaton) -> Result<Self, EngineError> {
        let malformed = |message: String| EngineError::Malformed { message };
        check_graph(&automaton).map_err(malformed)?;
        let layout = Layout::new(&automaton)?;
        let compiler = Compiler { automaton: &automaton, layout: &layout };
        let ops = automaton.edges.iter().map(|e| compiler.label(&e.label)).collect::<Result<Vec<_>, _>>()?;
        let mut in_degree = vec![0u32; automaton.nodes.len()];
        for edge in &automaton.edges {
            in_degree[edge.target as usize] += 1;
        }
        let merge_node = in_degree.iter().map(|&d| d >= 2).collect();
        let has_in_edge = in_degree.iter().map(|&d| d >= 1).collect();

        let symbol_ok = |s: SymbolId| (s as usize) < automaton.symbols.len();
        if !symbol_ok(automaton.keeper)
            || !symbol_ok(automaton.random)
            || !automaton.players.iter().all(|&p| symbol_ok(p))
        {
            return Err(malformed("a system or player symbol does not exist".into()));
        }
        let player_slot = set_variable_slot(&automaton, &layout, automaton.player_var, "player").map_err(malformed)?;
        let mut valid_player = vec![false; automaton.symbols.len()];
        for &p in automaton.players.iter().chain([&automaton.keeper, &automaton.random]) {
            valid_player[p as usize] = true;
        }
        let goal_slots = player_map_slots(&automaton, &layout, automaton.goals_var, "goals").map_err(malformed)?;
        let visible_slots =
            player_map_slots(&automaton, &layout, automaton.visible_var, "visible").map_err(malformed)?;
        Ok(ReferenceEngine {
            automaton,
            layout,
            ops,
            merge_node,
            has_in_edge,
            player_slot,
            valid_player,
            goal_slots,
            visible_slots,
        })
    }

    /// The slots of a variable in a state (one slot for a set-typed variable).
    pub fn variable_slots<'s>(&self, state: &'s ReferenceState, variable: VarId) -> &'s [SymbolId] {
        let start = self.layout.var_offsets[variable as usize] as usize;
        let size = self.layout.size(self.automaton.variables[variable as usize].ty) as usize;
        &state.values[start..start + size]
    }

    /// The value of a set-typed variable, looked up by name (for tests and tools).
    pub fn variable_symbol(&self, state: &ReferenceState, name: &str) -> Option<SymbolId> {
        let variable = self.automaton.variable_id(name)?;
        match self.variable_slots(state, variable) {
            [single] => Some(*single),
            _ => None,
        }
    }

    /// A state at `node` with the given slot values (which must follow this engine's layout).
    pub fn state_from_parts(&self, node: NodeId, values: Vec<SymbolId>) -> Option<ReferenceState> {
        let fits = values.len() == self.layout.state_len
            && (node as usize) < self.automaton.nodes.len()
            && values.iter().all(|&v| (v as usize) < self.automaton.symbols.len());
        fits.then(|| ReferenceState { node, values: values.into_boxed_slice() })
    }

    /// The value stored at `offset` as RG text; map entries equal to the default are left out,
    /// so an empty board prints as `{:{:e}}`.
    fn value_text(&self, values: &[SymbolId], offset: usize, ty: TypeId) -> String {
        match &self.automaton.types[ty as usize] {
            Type::Set(_) => self.automaton.symbol_name(values[offset]).to_string(),
            Type::Map { key, value } => {
                let size = self.layout.size(*value) as usize;
                let members = self.set_members(*key);
                let default_at = offset + members.len() * size;
                let default = &values[default_at..default_at + size];
                let mut parts: Vec<String> = members
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| values[offset + i * size..offset + (i + 1) * size] != *default)
                    .map(|(i, &k)| {
                        format!(
                            "{}: {}",
                            self.automaton.symbol_name(k),
                            self.value_text(values, offset + i * size, *value)
                        )
                    })
                    .collect();
                parts.push(format!(":{}", self.value_text(values, default_at, *value)));
                format!("{{{}}}", parts.join(", "))
            }
        }
    }

    /// The value of a variable in a state as RG text (`{c0: {r0: x, :e}, :{:e}}`).
    pub fn variable_text(&self, state: &ReferenceState, variable: VarId) -> String {
        let ty = self.automaton.variables[variable as usize].ty;
        self.value_text(&state.values, self.layout.var_offsets[variable as usize] as usize, ty)
    }

    fn type_name(&self, ty: TypeId) -> String {
        if let Some(Some(name)) = self.automaton.type_names.get(ty as usize) {
            return name.clone();
        }
        match &self.automaton.types[ty as usize] {
            Type::Set(members) => {
                let names: Vec<&str> = members.iter().map(|&s| self.automaton.symbol_name(s)).collect();
                format!("{{{}}}", names.join(", "))
            }
            Type::Map { key, value } => {
                format!("{} -> {}", self.type_name(*key), self.type_name(*value))
            }
        }
    }

    fn set_members(&self, ty: TypeId) -> &[SymbolId] {
        match &self.automaton.types[ty as usize] {
            Type::Set(members) => members,
            Type::Map { .. } => &[],
        }
    }

    fn set_len(&self, ty: TypeId) -> u32 {
        self.set_members(ty).len() as u32
    }

    fn automaton_move_name(&self, tags: &[SymbolId]) -> String {
        crate::engine::format_move(&self.automaton, tags)
    }
}

/// Node and edge tables are consistent.
fn check_graph(automaton: &Automaton) -> Result<(), String> {
    let node_count = automaton.nodes.len();
    if (automaton.begin as usize) >= node_count || (automaton.end as usize) >= node_count {
        return Err("`begin` or `end` is not a node".into());
    }
    for (id, edge) in automaton.edges.iter().enumerate() {
        if edge.source as usize >= node_count || edge.target as usize >= node_count {
            return Err(format!("edge {id} names a node that does not exist"));
        }
    }
    for (id, node) in automaton.nodes.iter().enumerate() {
        let range = &node.edges;
        if range.start > range.end || range.end as usize > automaton.edges.len() {
            return Err(format!("node `{}` has an edge range outside the edge table", node.name));
        }
        if automaton.edges[range.start as usize..range.end as usize].iter().any(|e| e.source as usize != id) {
            return Err(format!("node `{}` lists edges that leave another node", node.name));
        }
    }
    Ok(())
}

fn set_variable_slot(automaton: &Automaton, layout: &Layout, variable: VarId, what: &str) -> Result<u32, String> {
    let Some(v) = automaton.variables.get(variable as usize) else {
        return Err(format!("the `{what}` variable does not exist"));
    };
    match automaton.types[v.ty as usize] {
        Type::Set(_) => Ok(layout.var_offsets[variable as usize]),
        Type::Map { .. } => Err(format!("`{what}` must have a set type")),
    }
}

/// The slot of `variable[p]` for every player `p` (`variable` a map from players to a set).
fn player_map_slots(automaton: &Automaton, layout: &Layout, variable: VarId, what: &str) -> Result<Vec<u32>, String> {
    let Some(v) = automaton.variables.get(variable as usize) else {
        return Err(format!("the `{what}` variable does not exist"));
    };
    let Type::Map { key, value } = automaton.types[v.ty as usize] else {
        return Err(format!("`{what}` must be a map from players"));
    };
    if layout.size(value) != 1 {
        return Err(format!("`{what}` must map players to symbols"));
    }
    let key_count = match &automaton.types[key as usize] {
        Type::Set(members) => members.len() as u32,
        Type::Map { .. } => return Err(format!("`{what}` has a key type that is not a set")),
    };
    let base = layout.var_offsets[variable as usize];
    Ok(automaton.players.iter().map(|&p| base + layout.block_of(key, p, key_count)).collect())
}

impl ForwardModel for ReferenceEngine {
    type State = ReferenceState;

    fn automaton(&self) -> &Automaton {
        &self.automaton
    }

    fn initial(&self) -> ReferenceState {
        ReferenceState { node: self.automaton.begin, values: self.layout.initial_values.clone().into_boxed_slice() }
    }

    fn node(&self, state: &ReferenceState) -> NodeId {
        state.node
    }

    fn player_symbol(&self, state: &ReferenceState) -> SymbolId {
        state.values[self.player_slot as usize]
    }

    fn visible_symbol(&self, state: &ReferenceState, player: usize) -> SymbolId {
        state.values[self.visible_slots[player] as usize]
    }

    fn goal_symbol(&self, state: &ReferenceState, player: usize) -> SymbolId {
        state.values[self.goal_slots[player] as usize]
    }

    /// The node, then every variable as `name = value` in declaration order, one per line.
    fn describe_state(&self, state: &ReferenceState) -> String {
        let mut text = format!("node: {}\n", self.automaton.nodes[state.node as usize].name);
        for (id, variable) in self.automaton.variables.iter().enumerate() {
            text.push_str(&format!("{} = {}\n", variable.name, self.variable_text(state, id as VarId)));
        }
        text
    }

    fn raw_successors(&self, state: &ReferenceState) -> Result<Vec<(Move, ReferenceState)>, EngineError> {
        Searcher::new(self, state).moves(state.node, None)
    }

    fn raw_apply(&self, state: &ReferenceState, tags: &[SymbolId]) -> Result<Option<ReferenceState>, EngineError> {
        let found = Searcher::new(self, state).moves(state.node, Some(tags))?;
        Ok(found.into_iter().next().map(|(_, s)| s))
    }
}
