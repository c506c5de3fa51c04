//! A small programmatic builder for [`Automaton`]s, for tests, examples and tools that cannot use
//! the compiler (the runtime must not depend on it).
//!
//! Declarations are given by name with short texts in RG's own notation: types (`{a, b}`,
//! `Coord -> Piece`, a type name), values (`e`, `{x: 1, :0}`), expressions (`board[x][y]`,
//! `Piece(e)`), and edge labels (``, `x = y`, `x = Coord(*)`, `a == b`, `a != b`, `? n -> m`,
//! `! n -> m`, `$ tag`, `$$ expr`). Nothing is parsed until [`AutomatonBuilder::build`], which
//! reports the first problem as a [`BuildError`] naming the declaration.
//!
//! Built-ins follow the shared contract (spec/forward-model.md): `Bool`, `Goals`, `Visibility`,
//! `PlayerOrSystem` and the variables `goals`, `player`, `visible` are added unless declared; the
//! user must declare `Player` and `Score`. Nodes are numbered in order of first mention and edges
//! keep their declaration order within each source node.
//!
//! ```
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//!
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}")
//!     .typedef("Score", "{0, 1}")
//!     .edge("begin", "turn", "player = x")
//!     .edge("turn", "win", "$ win")
//!     .edge("win", "done", "goals[x] = 1")
//!     .edge("done", "end", "player = keeper")
//!     .build()
//!     .unwrap();
//! assert_eq!(automaton.players.len(), 1);
//! assert_eq!(automaton.nodes[automaton.begin as usize].name, "begin");
//! ```

use super::{Automaton, Constant, Edge, Expr, Hints, Label, Node, Type, TypeId, Value, Variable};
use std::collections::HashMap;
use std::fmt;

/// Why a builder could not produce an automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    pub message: String,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "automaton builder: {}", self.message)
    }
}

impl std::error::Error for BuildError {}

fn error<T>(message: impl Into<String>) -> Result<T, BuildError> {
    Err(BuildError { message: message.into() })
}

/// Collects declarations; [`AutomatonBuilder::build`] turns them into an [`Automaton`].
#[derive(Clone, Debug, Default)]
pub struct AutomatonBuilder {
    typedefs: Vec<(String, String)>,
    constants: Vec<(String, String, String)>,
    variables: Vec<(String, String, String)>,
    edges: Vec<(String, String, String)>,
    artificial_tags: Vec<String>,
}

impl AutomatonBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// `type name = ty;`
    pub fn typedef(&mut self, name: &str, ty: &str) -> &mut Self {
        self.typedefs.push((name.to_string(), ty.to_string()));
        self
    }

    /// `const name: ty = value;` (the value may name earlier constants).
    pub fn constant(&mut self, name: &str, ty: &str, value: &str) -> &mut Self {
        self.constants.push((name.to_string(), ty.to_string(), value.to_string()));
        self
    }

    /// `var name: ty = value;` (the value may name constants).
    pub fn variable(&mut self, name: &str, ty: &str, value: &str) -> &mut Self {
        self.variables.push((name.to_string(), ty.to_string(), value.to_string()));
        self
    }

    /// `from, to: label;` with the label in RG notation (empty for a skip edge).
    pub fn edge(&mut self, from: &str, to: &str, label: &str) -> &mut Self {
        self.edges.push((from.to_string(), to.to_string(), label.to_string()));
        self
    }

    /// `@artificialTag name;`
    pub fn artificial_tag(&mut self, name: &str) -> &mut Self {
        self.artificial_tags.push(name.to_string());
        self
    }

    /// Resolves every declaration and produces the automaton.
    pub fn build(&self) -> Result<Automaton, BuildError> {
        Resolver::new(self).run()
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens and the small parsers for type, value, expression and label texts.

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    Punct(&'static str),
}

const PUNCTUATION: [&str; 16] = ["$$", "->", "==", "!=", "{", "}", "[", "]", "(", ")", ":", ",", "=", "?", "!", "$"];

fn tokenize(text: &str) -> Result<Vec<Token>, BuildError> {
    let mut tokens = Vec::new();
    let mut rest = text;
    'outer: while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c.is_alphanumeric() || c == '_' {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            tokens.push(Token::Ident(rest[..end].to_string()));
            rest = &rest[end..];
            continue;
        }
        if c == '*' {
            tokens.push(Token::Punct("*"));
            rest = &rest[1..];
            continue;
        }
        for punct in PUNCTUATION {
            if let Some(after) = rest.strip_prefix(punct) {
                tokens.push(Token::Punct(punct));
                rest = after;
                continue 'outer;
            }
        }
        return error(format!("unexpected character `{c}` in `{text}`"));
    }
    Ok(tokens)
}

#[derive(Clone, Debug)]
enum TypeText {
    Set(Vec<String>),
    Arrow(Box<TypeText>, Box<TypeText>),
    Name(String),
}

#[derive(Clone, Debug)]
enum ValueText {
    Ident(String),
    Map(Vec<(String, ValueText)>, Option<Box<ValueText>>),
}

#[derive(Clone, Debug)]
enum ExprText {
    Ident(String),
    Access(Box<ExprText>, Box<ExprText>),
}

#[derive(Clone, Debug)]
enum LabelText {
    Skip,
    Assign(ExprText, ExprText),
    AssignAny(ExprText, String),
    Compare(ExprText, ExprText, bool),
    Reach(String, String, bool),
    Tag(String),
    TagExpr(ExprText),
}

struct Parser<'t> {
    tokens: Vec<Token>,
    position: usize,
    text: &'t str,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Result<Self, BuildError> {
        Ok(Parser { tokens: tokenize(text)?, position: 0, text })
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.position)
    }

    fn peek_punct(&self, punct: &str) -> bool {
        matches!(self.peek(), Some(Token::Punct(p)) if *p == punct)
    }

    fn eat(&mut self, punct: &str) -> bool {
        let found = self.peek_punct(punct);
        if found {
            self.position += 1;
        }
        found
    }

    fn expect(&mut self, punct: &str) -> Result<(), BuildError> {
        if self.eat(punct) {
            Ok(())
        } else {
            error(format!("expected `{punct}` in `{}`", self.text))
        }
    }

    fn ident(&mut self) -> Result<String, BuildError> {
        match self.peek() {
            Some(Token::Ident(name)) => {
                let name = name.clone();
                self.position += 1;
                Ok(name)
            }
            _ => error(format!("expected a name in `{}`", self.text)),
        }
    }

    fn finish(&self) -> Result<(), BuildError> {
        if self.position == self.tokens.len() {
            Ok(())
        } else {
            error(format!("unexpected text after position {} in `{}`", self.position, self.text))
        }
    }

    fn type_text(&mut self) -> Result<TypeText, BuildError> {
        let first = if self.eat("{") {
            let mut members = Vec::new();
            if !self.eat("}") {
                loop {
                    members.push(self.ident()?);
                    if self.eat("}") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            TypeText::Set(members)
        } else {
            TypeText::Name(self.ident()?)
        };
        if self.eat("->") {
            Ok(TypeText::Arrow(Box::new(first), Box::new(self.type_text()?)))
        } else {
            Ok(first)
        }
    }

    fn value_text(&mut self) -> Result<ValueText, BuildError> {
        if !self.eat("{") {
            return Ok(ValueText::Ident(self.ident()?));
        }
        let mut entries = Vec::new();
        let mut default = None;
        if !self.eat("}") {
            loop {
                if self.eat(":") {
                    default = Some(Box::new(self.value_text()?));
                } else {
                    let key = self.ident()?;
                    self.expect(":")?;
                    entries.push((key, self.value_text()?));
                }
                if self.eat("}") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(ValueText::Map(entries, default))
    }

    /// An expression; casts `T(e)` are erased here because they have no runtime effect.
    fn expr_text(&mut self) -> Result<ExprText, BuildError> {
        let name = self.ident()?;
        let mut expr = if self.eat("(") {
            let inner = self.expr_text()?;
            self.expect(")")?;
            inner
        } else {
            ExprText::Ident(name)
        };
        while self.eat("[") {
            let key = self.expr_text()?;
            self.expect("]")?;
            expr = ExprText::Access(Box::new(expr), Box::new(key));
        }
        Ok(expr)
    }

    fn label_text(&mut self) -> Result<LabelText, BuildError> {
        if self.tokens.is_empty() {
            return Ok(LabelText::Skip);
        }
        for (punct, negated) in [("?", false), ("!", true)] {
            if self.eat(punct) {
                let from = self.ident()?;
                self.expect("->")?;
                let to = self.ident()?;
                return Ok(LabelText::Reach(from, to, negated));
            }
        }
        if self.eat("$$") {
            return Ok(LabelText::TagExpr(self.expr_text()?));
        }
        if self.eat("$") {
            return Ok(LabelText::Tag(self.ident()?));
        }
        let lhs = self.expr_text()?;
        if self.eat("==") {
            return Ok(LabelText::Compare(lhs, self.expr_text()?, true));
        }
        if self.eat("!=") {
            return Ok(LabelText::Compare(lhs, self.expr_text()?, false));
        }
        self.expect("=")?;
        // `T(*)` is the any-assignment; anything else is an ordinary right-hand side.
        if let (Some(Token::Ident(ty)), Some(Token::Punct("(")), Some(Token::Punct("*"))) =
            (self.tokens.get(self.position), self.tokens.get(self.position + 1), self.tokens.get(self.position + 2))
        {
            let ty = ty.clone();
            self.position += 3;
            self.expect(")")?;
            return Ok(LabelText::AssignAny(lhs, ty));
        }
        Ok(LabelText::Assign(lhs, self.expr_text()?))
    }
}

fn parse_all<'t, T>(
    text: &'t str,
    parse: impl FnOnce(&mut Parser<'t>) -> Result<T, BuildError>,
) -> Result<T, BuildError> {
    let mut parser = Parser::new(text)?;
    let result = parse(&mut parser)?;
    parser.finish()?;
    Ok(result)
}

// ---------------------------------------------------------------------------------------------
// Resolution of names into the automaton's tables.

struct Resolver<'b> {
    builder: &'b AutomatonBuilder,
    symbols: Vec<String>,
    symbol_ids: HashMap<String, u32>,
    types: Vec<Type>,
    type_names: Vec<Option<String>>,
    named_types: HashMap<String, TypeId>,
    resolving: Vec<String>,
    constants: Vec<Constant>,
    variables: Vec<Variable>,
    nodes: Vec<String>,
    node_ids: HashMap<String, u32>,
}

fn in_context<T>(result: Result<T, BuildError>, context: &str) -> Result<T, BuildError> {
    result.map_err(|e| BuildError { message: format!("{context}: {}", e.message) })
}

impl<'b> Resolver<'b> {
    fn new(builder: &'b AutomatonBuilder) -> Self {
        Resolver {
            builder,
            symbols: Vec::new(),
            symbol_ids: HashMap::new(),
            types: Vec::new(),
            type_names: Vec::new(),
            named_types: HashMap::new(),
            resolving: Vec::new(),
            constants: Vec::new(),
            variables: Vec::new(),
            nodes: Vec::new(),
            node_ids: HashMap::new(),
        }
    }

    fn symbol(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.symbol_ids.get(name) {
            return id;
        }
        let id = self.symbols.len() as u32;
        self.symbols.push(name.to_string());
        self.symbol_ids.insert(name.to_string(), id);
        id
    }

    fn node(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.node_ids.get(name) {
            return id;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(name.to_string());
        self.node_ids.insert(name.to_string(), id);
        id
    }

    fn push_type(&mut self, ty: Type, name: Option<&str>) -> TypeId {
        let id = self.types.len() as TypeId;
        self.types.push(ty);
        self.type_names.push(name.map(str::to_string));
        if let Some(name) = name {
            self.named_types.insert(name.to_string(), id);
        }
        id
    }

    fn set_members(&self, ty: TypeId) -> Option<&[u32]> {
        match &self.types[ty as usize] {
            Type::Set(members) => Some(members),
            Type::Map { .. } => None,
        }
    }

    fn resolve_type_text(&mut self, text: &TypeText, name: Option<&str>) -> Result<TypeId, BuildError> {
        match text {
            TypeText::Set(members) => {
                let mut ids: Vec<u32> = Vec::new();
                for member in members {
                    let id = self.symbol(member);
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                Ok(self.push_type(Type::Set(ids), name))
            }
            TypeText::Arrow(key, value) => {
                let key = self.resolve_type_text(key, None)?;
                if self.set_members(key).is_none() {
                    return error("a map's key type must be a set type");
                }
                let value = self.resolve_type_text(value, None)?;
                Ok(self.push_type(Type::Map { key, value }, name))
            }
            TypeText::Name(referenced) => {
                let id = self.named_type(referenced)?;
                match name {
                    Some(name) => {
                        let copy = self.types[id as usize].clone();
                        Ok(self.push_type(copy, Some(name)))
                    }
                    None => Ok(id),
                }
            }
        }
    }

    /// A named type: user typedefs (resolved on first use, so order is free) or a built-in.
    fn named_type(&mut self, name: &str) -> Result<TypeId, BuildError> {
        if let Some(&id) = self.named_types.get(name) {
            return Ok(id);
        }
        if self.resolving.iter().any(|n| n == name) {
            return error(format!("type `{name}` is defined in terms of itself"));
        }
        let builder = self.builder;
        if let Some((_, text)) = builder.typedefs.iter().find(|(n, _)| n == name) {
            self.resolving.push(name.to_string());
            let parsed = parse_all(text, Parser::type_text);
            let result = parsed.and_then(|t| self.resolve_type_text(&t, Some(name)));
            self.resolving.pop();
            return in_context(result, &format!("type `{name}`"));
        }
        let builtin = match name {
            "Bool" => TypeText::Set(vec!["0".into(), "1".into()]),
            "Goals" => {
                TypeText::Arrow(Box::new(TypeText::Name("Player".into())), Box::new(TypeText::Name("Score".into())))
            }
            "Visibility" => {
                TypeText::Arrow(Box::new(TypeText::Name("Player".into())), Box::new(TypeText::Name("Bool".into())))
            }
            "PlayerOrSystem" => {
                let player = self.named_type("Player")?;
                let mut members: Vec<String> = match self.set_members(player) {
                    Some(m) => m.iter().map(|&s| self.symbols[s as usize].clone()).collect(),
                    None => return error("`Player` must be a set type"),
                };
                for system in ["keeper", "random"] {
                    if !members.iter().any(|m| m == system) {
                        members.push(system.to_string());
                    }
                }
                TypeText::Set(members)
            }
            _ => return error(format!("unknown type `{name}`")),
        };
        self.resolve_type_text(&builtin, Some(name))
    }

    fn resolve_value(&mut self, text: &ValueText, ty: TypeId) -> Result<Value, BuildError> {
        match text {
            ValueText::Ident(name) => {
                if let Some(constant) = self.constants.iter().find(|c| &c.name == name) {
                    return Ok(constant.value.clone());
                }
                if self.set_members(ty).is_none() {
                    return error(format!("`{name}` is a symbol but a map value is expected"));
                }
                Ok(Value::Symbol(self.symbol(name)))
            }
            ValueText::Map(entries, default) => {
                let Type::Map { key, value } = self.types[ty as usize].clone() else {
                    return error("a map literal where a set value is expected");
                };
                let Some(default) = default else {
                    return error("a map literal needs a default entry `:value`");
                };
                let mut resolved = Vec::new();
                for (key_name, entry) in entries {
                    let key_symbol = self.symbol(key_name);
                    if !self.set_members(key).is_some_and(|m| m.contains(&key_symbol)) {
                        return error(format!("map key `{key_name}` is outside the key type"));
                    }
                    if resolved.iter().any(|(k, _)| *k == key_symbol) {
                        return error(format!("map key `{key_name}` appears twice"));
                    }
                    let entry = self.resolve_value(entry, value)?;
                    resolved.push((key_symbol, entry));
                }
                let default = Box::new(self.resolve_value(default, value)?);
                Ok(Value::Map { entries: resolved, default })
            }
        }
    }

    fn resolve_expr(&mut self, text: &ExprText) -> Result<Expr, BuildError> {
        match text {
            ExprText::Ident(name) => {
                if let Some(v) = self.variables.iter().position(|v| &v.name == name) {
                    Ok(Expr::Var(v as u32))
                } else if let Some(c) = self.constants.iter().position(|c| &c.name == name) {
                    Ok(Expr::Const(c as u32))
                } else {
                    Ok(Expr::Symbol(self.symbol(name)))
                }
            }
            ExprText::Access(map, key) => {
                let map = self.resolve_expr(map)?;
                let key = self.resolve_expr(key)?;
                Ok(Expr::Access { map: Box::new(map), key: Box::new(key) })
            }
        }
    }

    fn type_of(&self, expr: &Expr) -> Option<TypeId> {
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

    /// Checks the structural invariants the engines rely on: accesses index maps and keys are sets.
    fn check_expr(&self, expr: &Expr) -> Result<(), BuildError> {
        if let Expr::Access { map, key } = expr {
            self.check_expr(map)?;
            self.check_expr(key)?;
            match self.type_of(map).map(|t| &self.types[t as usize]) {
                Some(Type::Map { .. }) => {}
                _ => return error("an access `m[k]` where `m` is not a map"),
            }
            if let Some(t) = self.type_of(key) {
                if self.set_members(t).is_none() {
                    return error("a map key must be a set value, not a map");
                }
            }
        }
        Ok(())
    }

    fn check_lhs(&self, expr: &Expr) -> Result<(), BuildError> {
        match expr {
            Expr::Var(_) => Ok(()),
            Expr::Access { map, .. } => self.check_lhs(map),
            _ => error("the left side of an assignment must be a variable or an access into one"),
        }
    }

    fn resolve_label(&mut self, text: &LabelText) -> Result<Label, BuildError> {
        Ok(match text {
            LabelText::Skip => Label::Skip,
            LabelText::Assign(lhs, rhs) => {
                let lhs = self.resolve_expr(lhs)?;
                let rhs = self.resolve_expr(rhs)?;
                self.check_lhs(&lhs)?;
                self.check_expr(&lhs)?;
                self.check_expr(&rhs)?;
                Label::Assign { lhs, rhs }
            }
            LabelText::AssignAny(lhs, ty) => {
                let lhs = self.resolve_expr(lhs)?;
                self.check_lhs(&lhs)?;
                self.check_expr(&lhs)?;
                let ty = self.named_type(ty)?;
                if self.set_members(ty).is_none() {
                    return error("`T(*)` needs a set type");
                }
                Label::AssignAny { lhs, ty }
            }
            LabelText::Compare(lhs, rhs, equal) => {
                let lhs = self.resolve_expr(lhs)?;
                let rhs = self.resolve_expr(rhs)?;
                self.check_expr(&lhs)?;
                self.check_expr(&rhs)?;
                Label::Compare { lhs, rhs, equal: *equal }
            }
            LabelText::Reach(from, to, negated) => {
                Label::Reach { from: self.node(from), to: self.node(to), negated: *negated }
            }
            LabelText::Tag(name) => Label::Tag(self.symbol(name)),
            LabelText::TagExpr(expr) => {
                let expr = self.resolve_expr(expr)?;
                self.check_expr(&expr)?;
                if let Some(t) = self.type_of(&expr) {
                    if self.set_members(t).is_none() {
                        return error("`$$` needs a set-typed expression");
                    }
                }
                Label::TagExpr(expr)
            }
        })
    }

    fn declare_value(&mut self, name: &str, ty: &str, value: &str) -> Result<(TypeId, Value), BuildError> {
        let ty_text = parse_all(ty, Parser::type_text)?;
        let ty = self.resolve_type_text(&ty_text, None)?;
        let value_text = parse_all(value, Parser::value_text)?;
        let value = in_context(self.resolve_value(&value_text, ty), &format!("value of `{name}`"))?;
        Ok((ty, value))
    }

    fn run(mut self) -> Result<Automaton, BuildError> {
        let builder = self.builder;
        // Intern begin and end first so that they are nodes 0 and 1 in every built automaton.
        self.node("begin");
        self.node("end");
        for (name, _) in &builder.typedefs {
            self.named_type(name)?;
        }
        for required in ["Player", "Score"] {
            let id = self
                .named_type(required)
                .map_err(|_| BuildError { message: format!("the game must declare the set type `{required}`") })?;
            if self.set_members(id).is_none() {
                return error(format!("`{required}` must be a set type"));
            }
        }
        for builtin in ["Bool", "Goals", "Visibility", "PlayerOrSystem"] {
            self.named_type(builtin)?;
        }
        let players = self.set_members(self.named_types["Player"]).unwrap_or(&[]).to_vec();
        let scores = self.set_members(self.named_types["Score"]).unwrap_or(&[]).to_vec();
        if scores.is_empty() {
            return error("`Score` must have at least one member");
        }
        let keeper = self.symbol("keeper");
        let random = self.symbol("random");
        let system = self.set_members(self.named_types["PlayerOrSystem"]).unwrap_or(&[]).to_vec();
        if !players.iter().chain([&keeper, &random]).all(|s| system.contains(s)) {
            return error("`PlayerOrSystem` must contain every player, `keeper` and `random`");
        }

        for (name, ty, value) in &builder.constants {
            let (ty, value) = in_context(self.declare_value(name, ty, value), &format!("constant `{name}`"))?;
            self.constants.push(Constant { name: name.clone(), ty, value });
        }
        for (name, ty, value) in &builder.variables {
            let (ty, value) = in_context(self.declare_value(name, ty, value), &format!("variable `{name}`"))?;
            self.variables.push(Variable { name: name.clone(), ty, initial: value });
        }
        let first_score = self.symbols[scores[0] as usize].clone();
        let builtin_variables = [
            ("goals", "Goals", format!("{{:{first_score}}}")),
            ("player", "PlayerOrSystem", "keeper".into()),
            ("visible", "Visibility", "{:1}".into()),
        ];
        for (name, ty, value) in &builtin_variables {
            if !self.variables.iter().any(|v| v.name == *name) {
                let (ty, value) = self.declare_value(name, ty, value)?;
                self.variables.push(Variable { name: name.to_string(), ty, initial: value });
            }
        }
        let variable =
            |resolver: &Self, name: &str| resolver.variables.iter().position(|v| v.name == name).unwrap_or(0) as u32;
        let (player_var, goals_var, visible_var) =
            (variable(&self, "player"), variable(&self, "goals"), variable(&self, "visible"));

        let mut edges = Vec::new();
        for (from, to, label) in &builder.edges {
            let context = format!("edge `{from}, {to}: {label}`");
            let label_text = in_context(parse_all(label, Parser::label_text), &context)?;
            let source = self.node(from);
            let target = self.node(to);
            let label = in_context(self.resolve_label(&label_text), &context)?;
            edges.push(Edge { source, target, label });
        }
        // A stable sort keeps declaration order among each node's out-edges.
        edges.sort_by_key(|e| e.source);
        let mut nodes = Vec::new();
        let mut start = 0;
        for (id, name) in self.nodes.iter().enumerate() {
            let count = edges[start..].iter().take_while(|e| e.source == id as u32).count();
            nodes.push(Node { name: name.clone(), edges: start as u32..(start + count) as u32 });
            start += count;
        }
        let artificial_tags = builder.artificial_tags.iter().map(|t| self.symbol(t)).collect();

        Ok(Automaton {
            symbols: self.symbols,
            types: self.types,
            type_names: self.type_names,
            constants: self.constants,
            variables: self.variables,
            nodes,
            edges,
            begin: 0,
            end: 1,
            player_var,
            goals_var,
            visible_var,
            players,
            scores,
            keeper,
            random,
            hints: Hints { artificial_tags, ..Hints::default() },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> AutomatonBuilder {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x, o}").typedef("Score", "{0, 50, 100}");
        builder
    }

    #[test]
    fn adds_builtins_with_the_contract_defaults() {
        let automaton = minimal().edge("begin", "end", "player = keeper").build().unwrap();
        let goals = &automaton.variables[automaton.goals_var as usize];
        let zero = automaton.symbol_id("0").unwrap();
        assert_eq!(goals.initial, Value::Map { entries: vec![], default: Box::new(Value::Symbol(zero)) });
        let player = &automaton.variables[automaton.player_var as usize];
        assert_eq!(player.initial, Value::Symbol(automaton.keeper));
        let system = automaton.type_names.iter().position(|n| n.as_deref() == Some("PlayerOrSystem")).unwrap();
        let names: Vec<&str> = match &automaton.types[system] {
            Type::Set(members) => members.iter().map(|&s| automaton.symbol_name(s)).collect(),
            _ => vec![],
        };
        assert_eq!(names, ["x", "o", "keeper", "random"]);
        let one = automaton.symbol_id("1").unwrap();
        let visible = &automaton.variables[automaton.visible_var as usize];
        assert_eq!(visible.initial, Value::Map { entries: vec![], default: Box::new(Value::Symbol(one)) });
    }

    #[test]
    fn edges_are_grouped_by_source_in_declaration_order() {
        let automaton = minimal()
            .edge("begin", "a", "")
            .edge("a", "b", "$ first")
            .edge("begin", "b", "? a -> b")
            .edge("a", "end", "$ second")
            .build()
            .unwrap();
        let a = automaton.node_id("a").unwrap();
        let labels: Vec<&Label> = automaton.out_edges(a).iter().map(|e| &e.label).collect();
        let first = automaton.symbol_id("first").unwrap();
        let second = automaton.symbol_id("second").unwrap();
        assert_eq!(labels, [&Label::Tag(first), &Label::Tag(second)]);
        assert_eq!(automaton.out_edges(automaton.begin).len(), 2);
    }

    #[test]
    fn parses_casts_accesses_and_any_assignments() {
        let automaton = minimal()
            .typedef("Coord", "{c0, c1}")
            .typedef("Board", "Coord -> Coord -> {e, x, o}")
            .variable("board", "Board", "{c0: {c1: x, :e}, :{:e}}")
            .variable("at", "Coord", "c0")
            .edge("begin", "a", "at = Coord(*)")
            .edge("a", "b", "board[at][Coord(c1)] == e")
            .build()
            .unwrap();
        let a = automaton.node_id("a").unwrap();
        let board = automaton.variable_id("board").unwrap();
        let at = automaton.variable_id("at").unwrap();
        let c1 = automaton.symbol_id("c1").unwrap();
        let e = automaton.symbol_id("e").unwrap();
        let expected_lhs = Expr::Access {
            map: Box::new(Expr::Access { map: Box::new(Expr::Var(board)), key: Box::new(Expr::Var(at)) }),
            key: Box::new(Expr::Symbol(c1)),
        };
        assert_eq!(
            automaton.out_edges(a)[0].label,
            Label::Compare { lhs: expected_lhs, rhs: Expr::Symbol(e), equal: true }
        );
        assert!(matches!(automaton.out_edges(automaton.begin)[0].label, Label::AssignAny { .. }));
    }

    #[test]
    fn reports_bad_declarations() {
        let missing_score = AutomatonBuilder::new().typedef("Player", "{x}").build().unwrap_err();
        assert!(missing_score.message.contains("`Score`"), "{missing_score}");
        let bad_key = minimal().typedef("M", "{a} -> {b}").variable("m", "M", "{z: b, :b}").build().unwrap_err();
        assert!(bad_key.message.contains("outside the key type"), "{bad_key}");
        let no_default = minimal().typedef("M", "{a} -> {b}").variable("m", "M", "{a: b}").build().unwrap_err();
        assert!(no_default.message.contains("default"), "{no_default}");
        let bad_lhs = minimal().edge("begin", "end", "x = o").build().unwrap_err();
        assert!(bad_lhs.message.contains("left side"), "{bad_lhs}");
        let cyclic = minimal().typedef("A", "B").typedef("B", "A").build().unwrap_err();
        assert!(cyclic.message.contains("itself"), "{cyclic}");
        let garbage = minimal().edge("begin", "end", "x == %").build().unwrap_err();
        assert!(garbage.message.contains("unexpected character"), "{garbage}");
    }
}
