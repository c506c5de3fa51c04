//! Name resolution, types and constant values of a game, as the passes need them.
//!
//! Mirrors the shared semantic contract: a bare identifier is a variable if one has that name,
//! else a constant, else a symbol literal; map values are total with a default that answers every
//! key not listed; casts have no effect. Everything here answers `None` when it cannot be sure,
//! and passes treat `None` as "leave this alone".

use super::graph::Automaton;
use crate::rg::ast::{Decl, Expr, Ident, Span, TypeExpr, ValueExpr};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// A constant value: a symbol, or a map with its non-default entries and its default.
/// Entries equal to the default are never stored, so `==` on values is structural equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Symbol(String),
    Map { entries: BTreeMap<String, Value>, default: Box<Value> },
}

impl Value {
    /// The value at `key`: its entry, or the default for any key not listed.
    pub fn lookup(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map { entries, default } => Some(entries.get(key).unwrap_or(default)),
            Value::Symbol(_) => None,
        }
    }

    pub fn as_symbol(&self) -> Option<&str> {
        match self {
            Value::Symbol(symbol) => Some(symbol),
            Value::Map { .. } => None,
        }
    }

    /// Builds a map value, dropping entries equal to the default.
    pub fn map(entries: impl IntoIterator<Item = (String, Value)>, default: Value) -> Value {
        let entries = entries.into_iter().filter(|(_, value)| *value != default).collect();
        Value::Map { entries, default: Box::new(default) }
    }

    /// The value as RG value syntax.
    pub fn to_value_expr(&self) -> ValueExpr {
        match self {
            Value::Symbol(symbol) => ValueExpr::Ident(Ident::synthetic(symbol)),
            Value::Map { entries, default } => ValueExpr::Map {
                entries: entries.iter().map(|(key, value)| (Ident::synthetic(key), value.to_value_expr())).collect(),
                default: Some(Box::new(default.to_value_expr())),
                span: Span::default(),
            },
        }
    }

    /// Every symbol the value mentions, keys included.
    pub fn symbols<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Value::Symbol(symbol) => out.push(symbol),
            Value::Map { entries, default } => {
                for (key, value) in entries {
                    out.push(key);
                    value.symbols(out);
                }
                default.symbols(out);
            }
        }
    }
}

/// What a bare identifier in an automaton expression refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Variable,
    Constant,
    Symbol,
}

/// The declarations of a game, indexed for lookups.
#[derive(Clone, Debug, Default)]
pub struct Env {
    typedefs: HashMap<String, TypeExpr>,
    constant_types: HashMap<String, TypeExpr>,
    constant_values: HashMap<String, Value>,
    variable_types: HashMap<String, TypeExpr>,
    variable_values: HashMap<String, Value>,
}

/// How deep type-name resolution follows typedefs before giving up (guards against cycles).
const TYPEDEF_DEPTH_LIMIT: usize = 64;

impl Env {
    pub fn new(automaton: &Automaton) -> Env {
        let mut env = Env::default();
        for (_, decl) in &automaton.decls {
            if let Decl::Type(typedef) = decl {
                env.typedefs.insert(typedef.name.name.clone(), typedef.ty.clone());
            }
        }
        env.add_builtin_types();
        // Constants may refer only to earlier constants, so one pass in order evaluates them all.
        let mut constants: Vec<_> = automaton.decls.iter().collect();
        constants.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, decl) in constants {
            match decl {
                Decl::Const(constant) => {
                    let name = constant.name.name.clone();
                    env.constant_types.insert(name.clone(), constant.ty.clone());
                    if let Some(value) = env.eval_value(&constant.value) {
                        env.constant_values.insert(name, value);
                    }
                }
                Decl::Var(variable) => {
                    let name = variable.name.name.clone();
                    env.variable_types.insert(name.clone(), variable.ty.clone());
                    if let Some(value) = env.eval_value(&variable.value) {
                        env.variable_values.insert(name, value);
                    }
                }
                _ => {}
            }
        }
        env.add_builtin_variables();
        env
    }

    fn add_builtin_types(&mut self) {
        let name = |n: &str| TypeExpr::Name(Ident::synthetic(n));
        let set = |members: Vec<String>| TypeExpr::Set {
            members: members.into_iter().map(Ident::synthetic).collect(),
            span: Span::default(),
        };
        self.typedefs.entry("Bool".into()).or_insert_with(|| set(vec!["0".into(), "1".into()]));
        let arrow = |from: &str, to: &str| TypeExpr::Arrow {
            from: Box::new(name(from)),
            to: Box::new(name(to)),
            span: Span::default(),
        };
        self.typedefs.entry("Goals".into()).or_insert_with(|| arrow("Player", "Score"));
        self.typedefs.entry("Visibility".into()).or_insert_with(|| arrow("Player", "Bool"));
        if !self.typedefs.contains_key("PlayerOrSystem") {
            let mut members = self.set_members(&name("Player")).unwrap_or_default();
            for system in ["keeper", "random"] {
                if !members.iter().any(|m| m == system) {
                    members.push(system.to_string());
                }
            }
            self.typedefs.insert("PlayerOrSystem".into(), set(members));
        }
    }

    fn add_builtin_variables(&mut self) {
        let name = |n: &str| TypeExpr::Name(Ident::synthetic(n));
        let symbol = |s: &str| Value::Symbol(s.to_string());
        if !self.variable_types.contains_key("player") {
            self.variable_types.insert("player".into(), name("PlayerOrSystem"));
            self.variable_values.insert("player".into(), symbol("keeper"));
        }
        if !self.variable_types.contains_key("visible") {
            self.variable_types.insert("visible".into(), name("Visibility"));
            self.variable_values.insert("visible".into(), Value::map([], symbol("1")));
        }
        if !self.variable_types.contains_key("goals") {
            self.variable_types.insert("goals".into(), name("Goals"));
            if let Some(first) = self.set_members(&name("Score")).and_then(|m| m.into_iter().next()) {
                self.variable_values.insert("goals".into(), Value::map([], Value::Symbol(first)));
            }
        }
    }

    /// Evaluates a constant value expression (symbols and earlier constants).
    pub fn eval_value(&self, value: &ValueExpr) -> Option<Value> {
        match value {
            ValueExpr::Ident(ident) => match self.constant_values.get(&ident.name) {
                Some(value) => Some(value.clone()),
                None if self.constant_types.contains_key(&ident.name) => None,
                None => Some(Value::Symbol(ident.name.clone())),
            },
            ValueExpr::Map { entries, default, .. } => {
                let default = self.eval_value(default.as_deref()?)?;
                let mut evaluated = Vec::with_capacity(entries.len());
                for (key, value) in entries {
                    evaluated.push((key.name.clone(), self.eval_value(value)?));
                }
                Some(Value::map(evaluated, default))
            }
        }
    }

    pub fn kind(&self, name: &str) -> NameKind {
        if self.variable_types.contains_key(name) {
            NameKind::Variable
        } else if self.constant_types.contains_key(name) {
            NameKind::Constant
        } else {
            NameKind::Symbol
        }
    }

    pub fn is_variable(&self, name: &str) -> bool {
        self.kind(name) == NameKind::Variable
    }

    pub fn is_constant(&self, name: &str) -> bool {
        self.kind(name) == NameKind::Constant
    }

    /// Whether `symbol`, written as a bare identifier, would be read as that symbol.
    pub fn writable_as_symbol(&self, symbol: &str) -> bool {
        self.kind(symbol) == NameKind::Symbol
    }

    pub fn constant_value(&self, name: &str) -> Option<&Value> {
        self.constant_values.get(name)
    }

    pub fn constant_type(&self, name: &str) -> Option<&TypeExpr> {
        self.constant_types.get(name)
    }

    pub fn variable_type(&self, name: &str) -> Option<&TypeExpr> {
        self.variable_types.get(name)
    }

    pub fn variable_initial_value(&self, name: &str) -> Option<&Value> {
        self.variable_values.get(name)
    }

    /// The value of an expression that reads no variable, or that reads only variables in
    /// `known` (with the values given there).
    pub fn fold(&self, expr: &Expr, known: &HashMap<String, Value>) -> Option<Value> {
        self.fold_ref(expr, known).map(Cow::into_owned)
    }

    /// [`Env::fold`] without copying the tables it looks into (constants can be large maps).
    pub fn fold_ref<'s>(&'s self, expr: &Expr, known: &'s HashMap<String, Value>) -> Option<Cow<'s, Value>> {
        match expr {
            Expr::Ident(ident) => match self.kind(&ident.name) {
                NameKind::Variable => known.get(&ident.name).map(Cow::Borrowed),
                NameKind::Constant => self.constant_values.get(&ident.name).map(Cow::Borrowed),
                NameKind::Symbol => Some(Cow::Owned(Value::Symbol(ident.name.clone()))),
            },
            Expr::Cast { expr, .. } => self.fold_ref(expr, known),
            Expr::Access { map, key, .. } => {
                let key = self.fold_ref(key, known)?;
                let key = key.as_symbol()?;
                match self.fold_ref(map, known)? {
                    Cow::Borrowed(map) => map.lookup(key).map(Cow::Borrowed),
                    Cow::Owned(map) => map.lookup(key).cloned().map(Cow::Owned),
                }
            }
        }
    }

    /// Follows typedef names to a set or arrow type.
    pub fn resolve<'a>(&'a self, mut ty: &'a TypeExpr) -> Option<&'a TypeExpr> {
        for _ in 0..TYPEDEF_DEPTH_LIMIT {
            match ty {
                TypeExpr::Name(name) => ty = self.typedefs.get(&name.name)?,
                other => return Some(other),
            }
        }
        None
    }

    /// The members of a set type, in order.
    pub fn set_members(&self, ty: &TypeExpr) -> Option<Vec<String>> {
        match self.resolve(ty)? {
            TypeExpr::Set { members, .. } => Some(members.iter().map(|m| m.name.clone()).collect()),
            _ => None,
        }
    }

    /// The key and value types of a map type.
    pub fn arrow<'a>(&'a self, ty: &'a TypeExpr) -> Option<(&'a TypeExpr, &'a TypeExpr)> {
        match self.resolve(ty)? {
            TypeExpr::Arrow { from, to, .. } => Some((from, to)),
            _ => None,
        }
    }

    /// How many symbols a value of this type stores: 1 for a set, |keys| × value size for a map.
    pub fn slots(&self, ty: &TypeExpr) -> Option<u64> {
        match self.resolve(ty)? {
            TypeExpr::Set { .. } => Some(1),
            TypeExpr::Arrow { from, to, .. } => {
                let keys = self.set_members(from)?.len() as u64;
                keys.checked_mul(self.slots(to)?)
            }
            TypeExpr::Name(_) => None,
        }
    }

    /// Every variable name known, including the built-ins.
    pub fn variables(&self) -> impl Iterator<Item = (&String, &TypeExpr)> {
        self.variable_types.iter()
    }
}

/// The expression `symbol` as a bare identifier.
pub fn symbol_expr(symbol: &str) -> Expr {
    Expr::Ident(Ident::synthetic(symbol))
}

/// The expression without casts at its top.
pub fn strip_casts(expr: &Expr) -> &Expr {
    match expr {
        Expr::Cast { expr, .. } => strip_casts(expr),
        other => other,
    }
}
