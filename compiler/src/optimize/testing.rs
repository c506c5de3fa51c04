//! Test support for the optimiser: a small reader and writer of RG text, so that pass tests can be
//! written as before/after RG programs. Test-only; the real parser and printer live in `rg`.

use crate::rg::ast::*;

/// Writes a game as RG text, one declaration a line.
pub fn print(game: &Game) -> String {
    let mut out = String::new();
    for decl in &game.decls {
        match decl {
            Decl::Type(t) => out.push_str(&format!("type {} = {};\n", t.name.name, print_type(&t.ty))),
            Decl::Const(c) => {
                out.push_str(&format!("const {}: {} = {};\n", c.name.name, print_type(&c.ty), print_value(&c.value)))
            }
            Decl::Var(v) => {
                out.push_str(&format!("var {}: {} = {};\n", v.name.name, print_type(&v.ty), print_value(&v.value)))
            }
            Decl::Edge(e) => out.push_str(&format!("{}, {}: {};\n", e.from.name, e.to.name, print_label(&e.label))),
            Decl::Pragma(p) => out.push_str(&format!("@{} {};\n", p.name.name, p.tokens.join(" "))),
        }
    }
    out
}

fn print_type(ty: &TypeExpr) -> String {
    match ty {
        TypeExpr::Set { members, .. } => {
            format!("{{{}}}", members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", "))
        }
        TypeExpr::Arrow { from, to, .. } => format!("{} -> {}", print_type(from), print_type(to)),
        TypeExpr::Name(name) => name.name.clone(),
    }
}

fn print_value(value: &ValueExpr) -> String {
    match value {
        ValueExpr::Ident(ident) => ident.name.clone(),
        ValueExpr::Map { entries, default, .. } => {
            let mut parts: Vec<String> =
                entries.iter().map(|(k, v)| format!("{}: {}", k.name, print_value(v))).collect();
            if let Some(default) = default {
                parts.push(format!(":{}", print_value(default)));
            }
            format!("{{{}}}", parts.join(", "))
        }
    }
}

fn print_expr(expr: &Expr) -> String {
    match expr {
        Expr::Ident(ident) => ident.name.clone(),
        Expr::Cast { ty, expr, .. } => format!("{}({})", ty.name, print_expr(expr)),
        Expr::Access { map, key, .. } => format!("{}[{}]", print_expr(map), print_expr(key)),
    }
}

fn print_label(label: &Label) -> String {
    match label {
        Label::Skip => String::new(),
        Label::Assign { lhs, rhs } => format!("{} = {}", print_expr(lhs), print_expr(rhs)),
        Label::AssignAny { lhs, ty } => format!("{} = {}(*)", print_expr(lhs), ty.name),
        Label::Compare { lhs, rhs, negated } => {
            format!("{} {} {}", print_expr(lhs), if *negated { "!=" } else { "==" }, print_expr(rhs))
        }
        Label::Reach { from, to, negated } => {
            format!("{} {} -> {}", if *negated { "!" } else { "?" }, from.name, to.name)
        }
        Label::Tag(symbol) => format!("$ {}", symbol.name),
        Label::TagVar(expr) => format!("$$ {}", print_expr(expr)),
    }
}

/// Reads RG text (the subset the tests use: every declaration form, no error recovery).
/// Panics on malformed input, which in a test is a bug in the test.
pub fn parse(source: &str) -> Game {
    let tokens = tokenize(source);
    let mut parser = Parser { tokens, at: 0 };
    let mut decls = Vec::new();
    while parser.at < parser.tokens.len() {
        decls.push(parser.decl());
    }
    Game { decls }
}

fn tokenize(source: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = source.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if ["==", "!=", "->", "$$"].contains(&two.as_str()) {
                tokens.push(two);
                i += 2;
            } else {
                tokens.push(c.to_string());
                i += 1;
            }
        }
    }
    tokens
}

struct Parser {
    tokens: Vec<String>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &str {
        self.tokens.get(self.at).map_or("", |t| t.as_str())
    }

    fn peek_at(&self, offset: usize) -> &str {
        self.tokens.get(self.at + offset).map_or("", |t| t.as_str())
    }

    fn next(&mut self) -> String {
        let token = self.peek().to_string();
        self.at += 1;
        token
    }

    fn expect(&mut self, token: &str) {
        let found = self.next();
        assert_eq!(found, token, "test RG: expected `{token}` at token {}", self.at - 1);
    }

    fn ident(&mut self) -> Ident {
        Ident::synthetic(self.next())
    }

    fn decl(&mut self) -> Decl {
        match self.peek() {
            "type" => {
                self.next();
                let name = self.ident();
                self.expect("=");
                let ty = self.ty();
                self.expect(";");
                Decl::Type(Typedef { name, ty, span: Span::default() })
            }
            "const" | "var" => {
                let is_const = self.next() == "const";
                let name = self.ident();
                self.expect(":");
                let ty = self.ty();
                self.expect("=");
                let value = self.value();
                self.expect(";");
                if is_const {
                    Decl::Const(Constant { name, ty, value, span: Span::default() })
                } else {
                    Decl::Var(Variable { name, ty, value, span: Span::default() })
                }
            }
            "@" => {
                self.next();
                let name = self.ident();
                let mut tokens = Vec::new();
                while self.peek() != ";" {
                    tokens.push(self.next());
                }
                self.expect(";");
                Decl::Pragma(Pragma { name, tokens, span: Span::default() })
            }
            _ => {
                let from = self.ident();
                self.expect(",");
                let to = self.ident();
                self.expect(":");
                let label = self.label();
                self.expect(";");
                Decl::Edge(Edge { from, to, label, span: Span::default() })
            }
        }
    }

    fn ty(&mut self) -> TypeExpr {
        let first = if self.peek() == "{" {
            self.next();
            let mut members = Vec::new();
            while self.peek() != "}" {
                members.push(self.ident());
                if self.peek() == "," {
                    self.next();
                }
            }
            self.expect("}");
            TypeExpr::Set { members, span: Span::default() }
        } else {
            TypeExpr::Name(self.ident())
        };
        if self.peek() == "->" {
            self.next();
            let to = self.ty();
            TypeExpr::Arrow { from: Box::new(first), to: Box::new(to), span: Span::default() }
        } else {
            first
        }
    }

    fn value(&mut self) -> ValueExpr {
        if self.peek() != "{" {
            return ValueExpr::Ident(self.ident());
        }
        self.next();
        let mut entries = Vec::new();
        let mut default = None;
        while self.peek() != "}" {
            if self.peek() == ":" {
                self.next();
                default = Some(Box::new(self.value()));
            } else {
                let key = self.ident();
                self.expect(":");
                entries.push((key, self.value()));
            }
            if self.peek() == "," {
                self.next();
            }
        }
        self.expect("}");
        ValueExpr::Map { entries, default, span: Span::default() }
    }

    fn expr(&mut self) -> Expr {
        let name = self.ident();
        let mut expr = if self.peek() == "(" {
            self.next();
            let inner = self.expr();
            self.expect(")");
            Expr::Cast { ty: name, expr: Box::new(inner), span: Span::default() }
        } else {
            Expr::Ident(name)
        };
        while self.peek() == "[" {
            self.next();
            let key = self.expr();
            self.expect("]");
            expr = Expr::Access { map: Box::new(expr), key: Box::new(key), span: Span::default() };
        }
        expr
    }

    fn label(&mut self) -> Label {
        match self.peek() {
            ";" => Label::Skip,
            "?" | "!" => {
                let negated = self.next() == "!";
                let from = self.ident();
                self.expect("->");
                let to = self.ident();
                Label::Reach { from, to, negated }
            }
            "$$" => {
                self.next();
                Label::TagVar(self.expr())
            }
            "$" => {
                self.next();
                Label::Tag(self.ident())
            }
            _ => {
                let lhs = self.expr();
                match self.next().as_str() {
                    "=" if self.peek_at(1) == "(" && self.peek_at(2) == "*" => {
                        let ty = self.ident();
                        self.expect("(");
                        self.expect("*");
                        self.expect(")");
                        Label::AssignAny { lhs, ty }
                    }
                    "=" => Label::Assign { lhs, rhs: self.expr() },
                    "==" => Label::Compare { lhs, rhs: self.expr(), negated: false },
                    "!=" => Label::Compare { lhs, rhs: self.expr(), negated: true },
                    other => panic!("test RG: unexpected `{other}` in a label"),
                }
            }
        }
    }
}

/// A deliberately plain interpreter of RG semantics (the shared contract in
/// `/work/prompts/semantics.md`), used to check that passes keep perft counts. Slow and simple;
/// errors (`Err`) stand for the runtime errors the contract names.
pub mod interpreter {
    use crate::optimize::env::{Env, NameKind, Value};
    use crate::optimize::graph::Automaton;
    use crate::rg::ast::{Expr, Game, Label};
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

    type Vars = BTreeMap<String, Value>;

    #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub struct State {
        pub node: String,
        pub vars: Vars,
    }

    struct Edge {
        to: String,
        label: Label,
    }

    pub struct Interpreter {
        env: Env,
        out: HashMap<String, Vec<Edge>>,
        initial: State,
    }

    impl Interpreter {
        pub fn new(game: &Game) -> Interpreter {
            let automaton = Automaton::from_game(game);
            let env = Env::new(&automaton);
            let mut out: HashMap<String, Vec<Edge>> = HashMap::new();
            for edge in game.edges() {
                out.entry(edge.from.name.clone())
                    .or_default()
                    .push(Edge { to: edge.to.name.clone(), label: edge.label.clone() });
            }
            let vars = env
                .variables()
                .map(|(name, _)| (name.clone(), env.variable_initial_value(name).expect("initial value").clone()))
                .collect();
            Interpreter { env, out, initial: State { node: "begin".into(), vars } }
        }

        fn eval(&self, expr: &Expr, vars: &Vars) -> Value {
            match expr {
                Expr::Ident(ident) => match self.env.kind(&ident.name) {
                    NameKind::Variable => vars[&ident.name].clone(),
                    NameKind::Constant => self.env.constant_value(&ident.name).expect("constant").clone(),
                    NameKind::Symbol => Value::Symbol(ident.name.clone()),
                },
                Expr::Cast { expr, .. } => self.eval(expr, vars),
                Expr::Access { map, key, .. } => {
                    let key = self.eval(key, vars);
                    self.eval(map, vars).lookup(key.as_symbol().expect("symbol key")).expect("map").clone()
                }
            }
        }

        fn assign(&self, lhs: &Expr, value: Value, vars: &mut Vars) {
            fn set(target: &mut Value, keys: &[String], value: Value) {
                let Some((first, rest)) = keys.split_first() else {
                    *target = value;
                    return;
                };
                let Value::Map { entries, default } = target else { panic!("assignment into a symbol") };
                let mut inner = entries.get(first).unwrap_or(default).clone();
                set(&mut inner, rest, value);
                if inner == **default {
                    entries.remove(first);
                } else {
                    entries.insert(first.clone(), inner);
                }
            }
            let mut keys = Vec::new();
            let mut root = lhs;
            loop {
                match root {
                    Expr::Ident(_) => break,
                    Expr::Cast { expr, .. } => root = expr,
                    Expr::Access { map, key, .. } => {
                        keys.push(self.eval(key, vars).as_symbol().expect("symbol key").to_string());
                        root = map;
                    }
                }
            }
            keys.reverse();
            let Expr::Ident(name) = root else { unreachable!() };
            set(vars.get_mut(&name.name).expect("variable"), &keys, value);
        }

        /// Every way one edge can be taken: the new variable values (empty if the guard fails).
        fn step(&self, label: &Label, vars: &Vars) -> Vec<Vars> {
            match label {
                Label::Skip | Label::Tag(_) | Label::TagVar(_) => vec![vars.clone()],
                Label::Assign { lhs, rhs } => {
                    let mut next = vars.clone();
                    self.assign(lhs, self.eval(rhs, vars), &mut next);
                    vec![next]
                }
                Label::AssignAny { lhs, ty } => {
                    let members = self.env.set_members(&crate::rg::ast::TypeExpr::Name(ty.clone())).expect("set type");
                    members
                        .into_iter()
                        .map(|member| {
                            let mut next = vars.clone();
                            self.assign(lhs, Value::Symbol(member), &mut next);
                            next
                        })
                        .collect()
                }
                Label::Compare { lhs, rhs, negated } => {
                    if (self.eval(lhs, vars) == self.eval(rhs, vars)) != *negated {
                        vec![vars.clone()]
                    } else {
                        vec![]
                    }
                }
                Label::Reach { from, to, negated } => {
                    if self.reachable(&from.name, &to.name, vars) != *negated {
                        vec![vars.clone()]
                    } else {
                        vec![]
                    }
                }
            }
        }

        fn reachable(&self, from: &str, to: &str, vars: &Vars) -> bool {
            let mut seen = HashSet::new();
            let mut stack = vec![(from.to_string(), vars.clone())];
            while let Some((node, vars)) = stack.pop() {
                if node == to {
                    return true;
                }
                if !seen.insert((node.clone(), vars.clone())) {
                    continue;
                }
                for edge in self.out.get(&node).into_iter().flatten() {
                    for next in self.step(&edge.label, &vars) {
                        stack.push((edge.to.clone(), next));
                    }
                }
            }
            false
        }

        /// The legal moves from a state: tag sequences with their successors, in discovery order.
        pub fn moves(&self, state: &State) -> Result<Vec<(Vec<String>, State)>, String> {
            let mut found: Vec<(Vec<String>, State)> = Vec::new();
            let mut seen = HashSet::new();
            self.search(&state.node, &state.vars, Vec::new(), &mut seen, &mut found)?;
            Ok(found)
        }

        fn search(
            &self,
            node: &str,
            vars: &Vars,
            tags: Vec<String>,
            seen: &mut HashSet<(String, Vars, Vec<String>)>,
            found: &mut Vec<(Vec<String>, State)>,
        ) -> Result<(), String> {
            if !seen.insert((node.to_string(), vars.clone(), tags.clone())) {
                return Ok(());
            }
            for edge in self.out.get(node).into_iter().flatten() {
                let mut tags = tags.clone();
                match &edge.label {
                    Label::Tag(symbol) => tags.push(symbol.name.clone()),
                    Label::TagVar(expr) => tags.push(self.eval(expr, vars).as_symbol().expect("symbol").to_string()),
                    _ => {}
                }
                for next in self.step(&edge.label, vars) {
                    if crate::optimize::graph::assigns_player(&edge.label) {
                        let successor = State { node: edge.to.clone(), vars: next };
                        match found.iter().find(|(t, _)| *t == tags) {
                            Some((_, existing)) if *existing != successor => {
                                return Err(format!("ambiguous move {tags:?}"));
                            }
                            Some(_) => {}
                            None => found.push((tags.clone(), successor)),
                        }
                    } else {
                        self.search(&edge.to, &next, tags.clone(), seen, found)?;
                    }
                }
            }
            Ok(())
        }

        /// Applies keeper moves until a player, `random` or the end is to move.
        fn settle(&self, mut state: State) -> Result<State, String> {
            while state.node != "end" && state.vars["player"] == Value::Symbol("keeper".into()) {
                let mut moves = self.moves(&state)?;
                if moves.len() != 1 {
                    return Err(format!("keeper has {} moves at {}", moves.len(), state.node));
                }
                state = moves.pop().unwrap().1;
            }
            Ok(state)
        }

        pub fn perft(&self, depth: usize) -> Result<u64, String> {
            let start = self.settle(self.initial.clone())?;
            self.perft_from(&start, depth)
        }

        fn perft_from(&self, state: &State, depth: usize) -> Result<u64, String> {
            if state.node == "end" {
                return Ok(u64::from(depth == 0));
            }
            if depth == 0 {
                return Ok(1);
            }
            let moves = self.moves(state)?;
            if moves.is_empty() {
                return Err(format!("game unexpectedly ended at node {}", state.node));
            }
            let is_random = state.vars["player"] == Value::Symbol("random".into());
            let mut children: Vec<State> = Vec::new();
            let mut distinct = BTreeSet::new();
            for (_, successor) in moves {
                if !is_random || distinct.insert(successor.clone()) {
                    children.push(successor);
                }
            }
            let mut total = 0;
            for child in children {
                total += self.perft_from(&self.settle(child)?, depth - 1)?;
            }
            Ok(total)
        }
    }
}
