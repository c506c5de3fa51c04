//! The executable automaton: the flat, validated tables that the compiler emits and every engine reads.
//!
//! This is the one contract between `regula-compiler` and `regula-runtime`. Everything here is plain
//! data indexed by small integers; names are kept only for messages, printing and move tags.
//!
//! Invariants (established by the compiler's validator, relied upon by the engines):
//! - every id stored in a table is in range for the table it indexes;
//! - `types[t]` for a map type has a *set* key type (`Type::Set`); arrow types nest only on the
//!   value side, so a value's layout is a tree of finite fan-out;
//! - every `Expr::Access` indexes an expression whose type is a map type;
//! - the left-hand side of an assignment is a variable or an access chain rooted at a variable;
//! - `player`, `goals` and `visible` are ordinary variables whose ids are recorded below;
//! - `edges` are sorted by `source`, and `nodes[n].edges` is the range of `n`'s out-edges.

use std::ops::Range;

pub mod builder;

/// Index into [`Automaton::symbols`].
pub type SymbolId = u32;
/// Index into [`Automaton::types`].
pub type TypeId = u32;
/// Index into [`Automaton::constants`].
pub type ConstId = u32;
/// Index into [`Automaton::variables`].
pub type VarId = u32;
/// Index into [`Automaton::nodes`].
pub type NodeId = u32;
/// Index into [`Automaton::edges`].
pub type EdgeId = u32;

/// A finite type: a set of symbols, or a total map from a set type to another type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A finite set of symbols, in declaration order (no duplicates).
    Set(Vec<SymbolId>),
    /// A total map; `key` is always a `Type::Set`.
    Map { key: TypeId, value: TypeId },
}

/// A value in tree form, as written in the source (initial values of variables, constants).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Symbol(SymbolId),
    /// Explicit entries (unique keys) plus the default for every other key.
    Map {
        entries: Vec<(SymbolId, Value)>,
        default: Box<Value>,
    },
}

/// An automaton expression: a reference or a chain of map accesses. Casts are erased.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A symbol literal.
    Symbol(SymbolId),
    Const(ConstId),
    Var(VarId),
    /// `map[key]`: `map` has a map type; a key outside the key type yields the map's default.
    Access {
        map: Box<Expr>,
        key: Box<Expr>,
    },
}

/// What traversing an edge does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// Always passes, no effect.
    Skip,
    /// `lhs = rhs`; assigning the `player` variable ends the current move.
    Assign { lhs: Expr, rhs: Expr },
    /// `lhs = T(*)`: one branch per member of the set type `ty`.
    AssignAny { lhs: Expr, ty: TypeId },
    /// `lhs == rhs` (or `!=` when `equal` is false): a guard.
    Compare { lhs: Expr, rhs: Expr, equal: bool },
    /// `? from -> to` (or `! from -> to` when `negated`): a guard whose side effects are discarded.
    Reach { from: NodeId, to: NodeId, negated: bool },
    /// `$ symbol`: appends a tag to the current move.
    Tag(SymbolId),
    /// `$$ expr`: appends the current value of a set-typed expression to the current move.
    TagExpr(Expr),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub source: NodeId,
    pub target: NodeId,
    pub label: Label,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub name: String,
    /// The node's out-edges in [`Automaton::edges`].
    pub edges: Range<EdgeId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constant {
    pub name: String,
    pub ty: TypeId,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    pub ty: TypeId,
    pub initial: Value,
}

/// Hints carried from the source; engines may use them, never for semantics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// Nodes whose listed out-edges are mutually exclusive (`@disjoint`, `@disjointExhaustive`).
    pub disjoint: Vec<(NodeId, Vec<NodeId>)>,
    /// Nodes the move search never revisits with the same state (`@unique`).
    pub unique: Vec<NodeId>,
    /// Tags that are technical only and not part of the move users see (`@artificialTag`).
    pub artificial_tags: Vec<SymbolId>,
}

/// A complete game: types, constants, variables and the labelled graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// Every symbol the game mentions; `symbols[id]` is its name.
    pub symbols: Vec<String>,
    /// Named and anonymous types; `type_names[t]` is `Some` for typedefs.
    pub types: Vec<Type>,
    pub type_names: Vec<Option<String>>,
    pub constants: Vec<Constant>,
    pub variables: Vec<Variable>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub begin: NodeId,
    pub end: NodeId,
    /// The built-in variables.
    pub player_var: VarId,
    pub goals_var: VarId,
    pub visible_var: VarId,
    /// Members of the user's `Player` type, in declaration order (index = player number).
    pub players: Vec<SymbolId>,
    /// Members of the user's `Score` type, in declaration order.
    pub scores: Vec<SymbolId>,
    /// The system players.
    pub keeper: SymbolId,
    pub random: SymbolId,
    pub hints: Hints,
}

impl Automaton {
    /// The name of a symbol.
    pub fn symbol_name(&self, id: SymbolId) -> &str {
        &self.symbols[id as usize]
    }

    /// Looks a symbol up by name (linear; for tools and tests, not hot paths).
    pub fn symbol_id(&self, name: &str) -> Option<SymbolId> {
        self.symbols.iter().position(|s| s == name).map(|i| i as SymbolId)
    }

    /// Looks a node up by name (linear; for tools and tests, not hot paths).
    pub fn node_id(&self, name: &str) -> Option<NodeId> {
        self.nodes.iter().position(|n| n.name == name).map(|i| i as NodeId)
    }

    /// Looks a variable up by name (linear; for tools and tests, not hot paths).
    pub fn variable_id(&self, name: &str) -> Option<VarId> {
        self.variables.iter().position(|v| v.name == name).map(|i| i as VarId)
    }

    /// The out-edges of a node.
    pub fn out_edges(&self, node: NodeId) -> &[Edge] {
        let range = &self.nodes[node as usize].edges;
        &self.edges[range.start as usize..range.end as usize]
    }

    /// The player number of a symbol, if it is a member of `Player`.
    pub fn player_index(&self, symbol: SymbolId) -> Option<usize> {
        self.players.iter().position(|&p| p == symbol)
    }

    /// The static type of an expression; `None` for a bare symbol (its type is the singleton set).
    pub fn type_of(&self, expr: &Expr) -> Option<TypeId> {
        match expr {
            Expr::Symbol(_) => None,
            Expr::Const(c) => Some(self.constants[*c as usize].ty),
            Expr::Var(v) => Some(self.variables[*v as usize].ty),
            Expr::Access { map, .. } => match self.type_of(map).map(|t| &self.types[t as usize]) {
                Some(Type::Map { value, .. }) => Some(*value),
                _ => None,
            },
        }
    }
}
