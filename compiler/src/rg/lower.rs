//! Lowering of a validated RG syntax tree to the runtime's tables ([`Automaton`]).
//!
//! The game is first completed with its built-ins (the same completion the validator checks).
//! Symbols are interned with `Player`'s members first, then `Score`'s, then `keeper` and
//! `random`, then every other name in order of appearance. Typedefs keep their names; inline
//! types become anonymous types, shared when structurally equal. Nodes are numbered in order of
//! first mention; edges are grouped by source node, keeping declaration order within a node.
//!
//! Lowering never panics, even on a tree that did not pass the validator: whatever cannot be
//! resolved falls back to an empty set type or a symbol, and the validator is what reports it.

use crate::rg::ast::{self, Decl, Game, Label, TypeExpr, ValueExpr};
use crate::rg::builtins::{self, Completed};
use crate::rg::check::{disjoint_parts, listed_names};
use regula_runtime::automaton::{self as rt, Automaton, ConstId, Hints, NodeId, SymbolId, Type, TypeId, Value, VarId};
use std::collections::{HashMap, HashSet};

struct Lowering<'g> {
    symbols: Vec<String>,
    symbol_ids: HashMap<String, SymbolId>,
    types: Vec<Type>,
    type_names: Vec<Option<String>>,
    typedefs: HashMap<&'g str, &'g TypeExpr>,
    typedef_ids: HashMap<&'g str, TypeId>,
    typedefs_in_progress: HashSet<&'g str>,
    constant_ids: HashMap<&'g str, ConstId>,
    constants: Vec<rt::Constant>,
    variable_ids: HashMap<&'g str, VarId>,
    variables: Vec<rt::Variable>,
    node_ids: HashMap<&'g str, NodeId>,
    node_names: Vec<String>,
}

/// Lowers a game to runtime tables. Precondition for a meaningful result: `check(game)` reports
/// no error.
pub fn lower(game: &Game) -> Automaton {
    let Completed { game: completed, .. } = builtins::complete(game);
    let game = &completed;
    let mut lowering = Lowering {
        symbols: Vec::new(),
        symbol_ids: HashMap::new(),
        types: Vec::new(),
        type_names: Vec::new(),
        typedefs: HashMap::new(),
        typedef_ids: HashMap::new(),
        typedefs_in_progress: HashSet::new(),
        constant_ids: HashMap::new(),
        constants: Vec::new(),
        variable_ids: HashMap::new(),
        variables: Vec::new(),
        node_ids: HashMap::new(),
        node_names: Vec::new(),
    };
    for typedef in game.typedefs() {
        lowering.typedefs.entry(&typedef.name.name).or_insert(&typedef.ty);
    }

    for type_name in [builtins::PLAYER_TYPE, builtins::SCORE_TYPE] {
        for member in builtins::set_members(game, type_name).unwrap_or_default() {
            lowering.intern(member);
        }
    }
    let keeper = lowering.intern(builtins::KEEPER);
    let random = lowering.intern(builtins::RANDOM);

    for typedef in game.typedefs() {
        lowering.typedef(&typedef.name.name);
    }
    let players = lowering.set_symbols(builtins::PLAYER_TYPE);
    let scores = lowering.set_symbols(builtins::SCORE_TYPE);

    for decl in &game.decls {
        match decl {
            Decl::Const(c) if !lowering.constant_ids.contains_key(c.name.name.as_str()) => {
                let ty = lowering.type_expr(&c.ty);
                let value = lowering.value(&c.value);
                lowering.constant_ids.insert(&c.name.name, lowering.constants.len() as ConstId);
                lowering.constants.push(rt::Constant { name: c.name.name.clone(), ty, value });
            }
            _ => {}
        }
    }
    for variable in game.variables() {
        if lowering.variable_ids.contains_key(variable.name.name.as_str())
            || lowering.constant_ids.contains_key(variable.name.name.as_str())
        {
            continue;
        }
        let ty = lowering.type_expr(&variable.ty);
        let initial = lowering.value(&variable.value);
        lowering.variable_ids.insert(&variable.name.name, lowering.variables.len() as VarId);
        lowering.variables.push(rt::Variable { name: variable.name.name.clone(), ty, initial });
    }

    for edge in game.edges() {
        lowering.node(&edge.from.name);
        lowering.node(&edge.to.name);
        if let Label::Reach { from, to, .. } = &edge.label {
            lowering.node(&from.name);
            lowering.node(&to.name);
        }
    }
    let begin = lowering.node("begin");
    let end = lowering.node("end");

    let mut edges: Vec<rt::Edge> = game
        .edges()
        .map(|edge| rt::Edge {
            source: lowering.node_ids[edge.from.name.as_str()],
            target: lowering.node_ids[edge.to.name.as_str()],
            label: lowering.label(&edge.label),
        })
        .collect();
    // A stable sort keeps declaration order among one node's out-edges.
    edges.sort_by_key(|edge| edge.source);
    let mut nodes: Vec<rt::Node> =
        lowering.node_names.iter().map(|name| rt::Node { name: name.clone(), edges: 0..0 }).collect();
    let mut start = 0;
    while start < edges.len() {
        let source = edges[start].source;
        let stop = start + edges[start..].iter().take_while(|e| e.source == source).count();
        nodes[source as usize].edges = start as u32..stop as u32;
        start = stop;
    }
    for (index, node) in nodes.iter_mut().enumerate() {
        if node.edges.is_empty() {
            // Empty ranges point at where the node's edges would be, keeping ranges ordered.
            let at = edges.partition_point(|e| (e.source as usize) < index) as u32;
            node.edges = at..at;
        }
    }

    let hints = lowering.hints(game);
    let variable = |lowering: &Lowering, name: &str| lowering.variable_ids.get(name).copied().unwrap_or(0);
    let player_var = variable(&lowering, builtins::PLAYER_VAR);
    let goals_var = variable(&lowering, builtins::GOALS_VAR);
    let visible_var = variable(&lowering, builtins::VISIBLE_VAR);
    Automaton {
        symbols: lowering.symbols,
        types: lowering.types,
        type_names: lowering.type_names,
        constants: lowering.constants,
        variables: lowering.variables,
        nodes,
        edges,
        begin,
        end,
        player_var,
        goals_var,
        visible_var,
        players,
        scores,
        keeper,
        random,
        hints,
    }
}

impl<'g> Lowering<'g> {
    fn intern(&mut self, name: &str) -> SymbolId {
        if let Some(&id) = self.symbol_ids.get(name) {
            return id;
        }
        let id = self.symbols.len() as SymbolId;
        self.symbols.push(name.to_string());
        self.symbol_ids.insert(name.to_string(), id);
        id
    }

    fn node(&mut self, name: &'g str) -> NodeId {
        if let Some(&id) = self.node_ids.get(name) {
            return id;
        }
        let id = self.node_names.len() as NodeId;
        self.node_names.push(name.to_string());
        self.node_ids.insert(name, id);
        id
    }

    /// An anonymous type, shared with any existing type of the same structure.
    fn anonymous(&mut self, ty: Type) -> TypeId {
        if let Some(existing) = self.types.iter().position(|t| *t == ty) {
            return existing as TypeId;
        }
        self.named(ty, None)
    }

    fn named(&mut self, ty: Type, name: Option<String>) -> TypeId {
        self.types.push(ty);
        self.type_names.push(name);
        (self.types.len() - 1) as TypeId
    }

    fn empty_set(&mut self) -> TypeId {
        self.anonymous(Type::Set(Vec::new()))
    }

    fn typedef(&mut self, name: &str) -> TypeId {
        if let Some(&id) = self.typedef_ids.get(name) {
            return id;
        }
        let Some((&key, &body)) = self.typedefs.get_key_value(name) else {
            return self.empty_set();
        };
        if !self.typedefs_in_progress.insert(key) {
            return self.empty_set();
        }
        let ty = match body {
            TypeExpr::Name(other) => {
                let other = self.typedef(&other.name);
                self.types[other as usize].clone()
            }
            structural => self.structure(structural),
        };
        let id = self.named(ty, Some(key.to_string()));
        self.typedef_ids.insert(key, id);
        id
    }

    /// The type a set or arrow expression denotes (a name denotes its typedef's type).
    fn structure(&mut self, ty: &TypeExpr) -> Type {
        match ty {
            TypeExpr::Name(name) => {
                let id = self.typedef(&name.name);
                self.types[id as usize].clone()
            }
            TypeExpr::Set { members, .. } => {
                let mut ids = Vec::with_capacity(members.len());
                for member in members {
                    let id = self.intern(&member.name);
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                Type::Set(ids)
            }
            TypeExpr::Arrow { from, to, .. } => {
                let mut key = self.type_expr(from);
                if !matches!(self.types[key as usize], Type::Set(_)) {
                    key = self.empty_set();
                }
                let value = self.type_expr(to);
                Type::Map { key, value }
            }
        }
    }

    fn type_expr(&mut self, ty: &TypeExpr) -> TypeId {
        match ty {
            TypeExpr::Name(name) => self.typedef(&name.name),
            structural => {
                let ty = self.structure(structural);
                self.anonymous(ty)
            }
        }
    }

    fn set_symbols(&mut self, type_name: &str) -> Vec<SymbolId> {
        let id = self.typedef(type_name);
        match &self.types[id as usize] {
            Type::Set(members) => members.clone(),
            Type::Map { .. } => Vec::new(),
        }
    }

    fn value(&mut self, value: &ValueExpr) -> Value {
        match value {
            ValueExpr::Ident(name) => match self.constant_ids.get(name.name.as_str()) {
                Some(&id) => self.constants[id as usize].value.clone(),
                None => Value::Symbol(self.intern(&name.name)),
            },
            ValueExpr::Map { entries, default, .. } => {
                let mut lowered: Vec<(SymbolId, Value)> = Vec::with_capacity(entries.len());
                for (key, entry) in entries {
                    let key = self.intern(&key.name);
                    let entry = self.value(entry);
                    if !lowered.iter().any(|(k, _)| *k == key) {
                        lowered.push((key, entry));
                    }
                }
                let default = match default {
                    Some(default) => self.value(default),
                    // Unreachable after validation (E0210); a symbol keeps lowering total.
                    None => Value::Symbol(self.intern("0")),
                };
                Value::Map { entries: lowered, default: Box::new(default) }
            }
        }
    }

    fn expr(&mut self, expr: &ast::Expr) -> rt::Expr {
        match expr {
            ast::Expr::Ident(name) => {
                if let Some(&id) = self.variable_ids.get(name.name.as_str()) {
                    rt::Expr::Var(id)
                } else if let Some(&id) = self.constant_ids.get(name.name.as_str()) {
                    rt::Expr::Const(id)
                } else {
                    rt::Expr::Symbol(self.intern(&name.name))
                }
            }
            ast::Expr::Cast { expr, .. } => self.expr(expr),
            ast::Expr::Access { map, key, .. } => {
                rt::Expr::Access { map: Box::new(self.expr(map)), key: Box::new(self.expr(key)) }
            }
        }
    }

    fn label(&mut self, label: &Label) -> rt::Label {
        match label {
            Label::Skip => rt::Label::Skip,
            Label::Assign { lhs, rhs } => rt::Label::Assign { lhs: self.expr(lhs), rhs: self.expr(rhs) },
            Label::AssignAny { lhs, ty } => {
                let lhs = self.expr(lhs);
                let mut ty = self.typedef(&ty.name);
                if !matches!(self.types[ty as usize], Type::Set(_)) {
                    ty = self.empty_set();
                }
                rt::Label::AssignAny { lhs, ty }
            }
            Label::Compare { lhs, rhs, negated } => {
                rt::Label::Compare { lhs: self.expr(lhs), rhs: self.expr(rhs), equal: !negated }
            }
            Label::Reach { from, to, negated } => rt::Label::Reach {
                from: self.node_ids[from.name.as_str()],
                to: self.node_ids[to.name.as_str()],
                negated: *negated,
            },
            Label::Tag(symbol) => rt::Label::Tag(self.intern(&symbol.name)),
            Label::TagVar(expr) => rt::Label::TagExpr(self.expr(expr)),
        }
    }

    fn hints(&mut self, game: &Game) -> Hints {
        let mut hints = Hints::default();
        for pragma in game.pragmas() {
            match pragma.name.name.as_str() {
                "disjoint" | "disjointExhaustive" => {
                    if let Some((node, targets)) = disjoint_parts(pragma) {
                        if let Some(&node) = self.node_ids.get(node) {
                            let targets = targets.iter().filter_map(|t| self.node_ids.get(t).copied()).collect();
                            hints.disjoint.push((node, targets));
                        }
                    }
                }
                "unique" => {
                    for node in listed_names(pragma).unwrap_or_default() {
                        if let Some(&node) = self.node_ids.get(node) {
                            if !hints.unique.contains(&node) {
                                hints.unique.push(node);
                            }
                        }
                    }
                }
                "artificialTag" => {
                    for tag in listed_names(pragma).unwrap_or_default() {
                        let tag = self.intern(tag);
                        if !hints.artificial_tags.contains(&tag) {
                            hints.artificial_tags.push(tag);
                        }
                    }
                }
                _ => {}
            }
        }
        hints
    }
}
