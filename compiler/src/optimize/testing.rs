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
