//! The optimiser's working form of a game: the RG declarations plus the automaton as a petgraph graph.
//!
//! Converting a [`Game`] to an [`Automaton`] and back preserves every declaration and the order of
//! edges. Every declaration carries an [`OrderKey`]: the original declaration index, extended when a
//! pass replaces one edge by others, so that sorting by key reproduces the author's layout and —
//! what matters semantically — each node's out-edges stay in the order the move search tries them.

use crate::rg::ast::{Decl, Edge, Expr, Game, Ident, Label, Span};
use petgraph::stable_graph::{EdgeIndex, NodeIndex, StableDiGraph};
use petgraph::visit::{EdgeRef, IntoEdgeReferences};
use petgraph::Direction;
use std::collections::{HashMap, HashSet};

/// Position of a declaration in the printed game: compared lexicographically.
/// An edge derived from edge `k` gets `k` extended by one component, which sorts it right after
/// `k`'s own position and before `k`'s next sibling.
pub type OrderKey = Vec<u32>;

/// A node of the automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeData {
    pub name: String,
}

/// An edge of the automaton: its label, where it sorts among declarations, and its source span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeData {
    pub label: Label,
    pub key: OrderKey,
    pub span: Span,
}

/// A game as the optimiser sees it: the graph of nodes and labelled edges, and every other
/// declaration (types, constants, variables, pragmas) with its order key.
#[derive(Clone, Debug)]
pub struct Automaton {
    pub graph: StableDiGraph<NodeData, EdgeData>,
    /// Non-edge declarations with their order keys.
    pub decls: Vec<(OrderKey, Decl)>,
    nodes_by_name: HashMap<String, NodeIndex>,
}

/// The name of the node where play starts.
pub const BEGIN: &str = "begin";
/// The name of the terminal node.
pub const END: &str = "end";
/// The variables the runtime gives a meaning of its own; passes never remove them.
pub const RESERVED_VARIABLES: [&str; 3] = ["player", "goals", "visible"];

impl Automaton {
    /// Builds the graph of a game. Nodes are created in order of first mention.
    pub fn from_game(game: &Game) -> Automaton {
        let mut automaton =
            Automaton { graph: StableDiGraph::default(), decls: Vec::new(), nodes_by_name: HashMap::new() };
        for (index, decl) in game.decls.iter().enumerate() {
            let key = vec![index as u32];
            match decl {
                Decl::Edge(edge) => {
                    let from = automaton.node_or_insert(&edge.from.name);
                    let to = automaton.node_or_insert(&edge.to.name);
                    automaton.graph.add_edge(from, to, EdgeData { label: edge.label.clone(), key, span: edge.span });
                }
                other => automaton.decls.push((key, other.clone())),
            }
        }
        automaton
    }

    /// Converts back to a syntax tree: all declarations sorted by order key.
    pub fn to_game(&self) -> Game {
        let mut keyed: Vec<(&OrderKey, Decl)> = self.decls.iter().map(|(key, decl)| (key, decl.clone())).collect();
        for edge in self.graph.edge_references() {
            let data = edge.weight();
            let decl = Decl::Edge(Edge {
                from: Ident::synthetic(self.name(edge.source())),
                to: Ident::synthetic(self.name(edge.target())),
                label: data.label.clone(),
                span: data.span,
            });
            keyed.push((&data.key, decl));
        }
        keyed.sort_by(|a, b| a.0.cmp(b.0));
        Game { decls: keyed.into_iter().map(|(_, decl)| decl).collect() }
    }

    /// The node with this name, if some edge mentions it.
    pub fn node(&self, name: &str) -> Option<NodeIndex> {
        self.nodes_by_name.get(name).copied()
    }

    pub fn name(&self, node: NodeIndex) -> &str {
        &self.graph[node].name
    }

    pub fn node_or_insert(&mut self, name: &str) -> NodeIndex {
        if let Some(&node) = self.nodes_by_name.get(name) {
            return node;
        }
        let node = self.graph.add_node(NodeData { name: name.to_string() });
        self.nodes_by_name.insert(name.to_string(), node);
        node
    }

    /// Removes a node with all its edges.
    pub fn remove_node(&mut self, node: NodeIndex) {
        if let Some(data) = self.graph.remove_node(node) {
            self.nodes_by_name.remove(&data.name);
        }
    }

    /// Out-edges in the order the move search tries them.
    pub fn out_edges(&self, node: NodeIndex) -> Vec<EdgeIndex> {
        self.sorted_edges(node, Direction::Outgoing)
    }

    /// In-edges, by order key.
    pub fn in_edges(&self, node: NodeIndex) -> Vec<EdgeIndex> {
        self.sorted_edges(node, Direction::Incoming)
    }

    fn sorted_edges(&self, node: NodeIndex, direction: Direction) -> Vec<EdgeIndex> {
        let mut edges: Vec<EdgeIndex> = self.graph.edges_directed(node, direction).map(|e| e.id()).collect();
        edges.sort_by(|a, b| self.graph[*a].key.cmp(&self.graph[*b].key));
        edges
    }

    /// Every edge, in declaration order.
    pub fn edges_in_order(&self) -> Vec<EdgeIndex> {
        let mut edges: Vec<EdgeIndex> = self.graph.edge_indices().collect();
        edges.sort_by(|a, b| self.graph[*a].key.cmp(&self.graph[*b].key));
        edges
    }

    pub fn endpoints(&self, edge: EdgeIndex) -> (NodeIndex, NodeIndex) {
        self.graph.edge_endpoints(edge).expect("edge indices handed out by this graph are live")
    }

    pub fn label(&self, edge: EdgeIndex) -> &Label {
        &self.graph[edge].label
    }

    /// Adds an edge that takes the place of the edge with order key `key` (copied as is).
    pub fn add_edge(&mut self, from: NodeIndex, to: NodeIndex, label: Label, key: OrderKey, span: Span) -> EdgeIndex {
        self.graph.add_edge(from, to, EdgeData { label, key, span })
    }

    /// Moves an edge to new endpoints, keeping its label and position.
    pub fn reconnect(&mut self, edge: EdgeIndex, from: NodeIndex, to: NodeIndex) -> EdgeIndex {
        let data = self.graph.remove_edge(edge).expect("edge indices handed out by this graph are live");
        self.graph.add_edge(from, to, data)
    }

    /// Nodes whose identity a pass must keep: `begin`, `end`, the endpoints of reachability checks
    /// and every node named by a pragma.
    pub fn protected_nodes(&self) -> HashSet<NodeIndex> {
        let mut protected = HashSet::new();
        for name in [BEGIN, END] {
            protected.extend(self.node(name));
        }
        for edge in self.graph.edge_weights() {
            if let Label::Reach { from, to, .. } = &edge.label {
                protected.extend(self.node(&from.name));
                protected.extend(self.node(&to.name));
            }
        }
        for (_, decl) in &self.decls {
            if let Decl::Pragma(pragma) = decl {
                protected.extend(pragma.tokens.iter().filter_map(|token| self.node(token)));
            }
        }
        protected
    }

    /// A variable or constant name, or a generated one, not used by any declaration yet.
    pub fn fresh_name(&self, base: &str) -> String {
        let taken: HashSet<&str> = self.decls.iter().filter_map(|(_, decl)| declared_name(decl)).collect();
        if !taken.contains(base) && self.node(base).is_none() {
            return base.to_string();
        }
        (1..)
            .map(|n| format!("{base}_{n}"))
            .find(|name| !taken.contains(name.as_str()) && self.node(name).is_none())
            .unwrap()
    }

    /// The order key that places a new constant after every existing constant (constants may
    /// refer only to earlier ones) and before anything that follows them.
    pub fn key_after_constants(&self) -> OrderKey {
        let mut last = self
            .decls
            .iter()
            .filter(|(_, decl)| matches!(decl, Decl::Const(_)))
            .map(|(key, _)| key.clone())
            .max()
            .or_else(|| self.decls.iter().filter(|(_, d)| matches!(d, Decl::Type(_))).map(|(k, _)| k.clone()).max())
            .unwrap_or_default();
        // Sorts after `last` and after any key already derived from it.
        last.push(u32::MAX);
        last.push(self.decls.len() as u32);
        last
    }

    /// The order key for a pragma appended after every declaration.
    pub fn key_at_end(&self) -> OrderKey {
        let decl_max = self.decls.iter().map(|(key, _)| key.clone()).max();
        let edge_max = self.graph.edge_weights().map(|edge| edge.key.clone()).max();
        let mut last = decl_max.max(edge_max).unwrap_or_default();
        last.push(u32::MAX);
        last
    }
}

/// The name a type, constant or variable declaration introduces.
pub fn declared_name(decl: &Decl) -> Option<&str> {
    match decl {
        Decl::Type(t) => Some(&t.name.name),
        Decl::Const(c) => Some(&c.name.name),
        Decl::Var(v) => Some(&v.name.name),
        Decl::Edge(_) | Decl::Pragma(_) => None,
    }
}

/// The variable at the root of an assignment's left side (`x` in `x[a][b] = ...`).
pub fn assigned_root(lhs: &Expr) -> Option<&str> {
    match lhs {
        Expr::Ident(ident) => Some(&ident.name),
        Expr::Cast { expr, .. } => assigned_root(expr),
        Expr::Access { map, .. } => assigned_root(map),
    }
}

/// Calls `visit` on every key an assignment target reads (`k1`, `k2` in `m[k1][k2] = ...`): a
/// target reads its keys, not its root variable, and not the map it writes into.
pub fn target_keys<'a>(lhs: &'a Expr, visit: &mut impl FnMut(&'a Expr)) {
    match lhs {
        Expr::Ident(_) => {}
        Expr::Cast { expr, .. } => target_keys(expr, visit),
        Expr::Access { map, key, .. } => {
            target_keys(map, visit);
            visit(key);
        }
    }
}

/// Whether the label ends a move: an assignment to `player`.
pub fn assigns_player(label: &Label) -> bool {
    match label {
        Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => assigned_root(lhs) == Some("player"),
        _ => false,
    }
}

/// Calls `visit` on every expression a label contains (left sides included).
pub fn label_exprs(label: &Label) -> Vec<&Expr> {
    match label {
        Label::Assign { lhs, rhs } | Label::Compare { lhs, rhs, .. } => vec![lhs, rhs],
        Label::AssignAny { lhs, .. } => vec![lhs],
        Label::TagVar(expr) => vec![expr],
        Label::Skip | Label::Reach { .. } | Label::Tag(_) => Vec::new(),
    }
}

/// Every identifier occurring in an expression (variables, constants, symbols and cast types).
pub fn expr_idents<'a>(expr: &'a Expr, out: &mut Vec<&'a str>) {
    match expr {
        Expr::Ident(ident) => out.push(&ident.name),
        Expr::Cast { ty, expr, .. } => {
            out.push(&ty.name);
            expr_idents(expr, out);
        }
        Expr::Access { map, key, .. } => {
            expr_idents(map, out);
            expr_idents(key, out);
        }
    }
}

/// Extends an order key by one component, for the `index`-th edge replacing the edge with `key`.
pub fn derived_key(key: &OrderKey, index: u32) -> OrderKey {
    let mut derived = key.clone();
    derived.push(index);
    derived
}

impl Automaton {
    /// Whether some pragma names this node (its out-edges are then part of a hint).
    pub fn is_named_by_pragma(&self, node: NodeIndex) -> bool {
        let name = self.name(node);
        self.decls.iter().any(|(_, decl)| matches!(decl, Decl::Pragma(p) if p.tokens.iter().any(|t| t == name)))
    }
}
