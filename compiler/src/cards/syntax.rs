//! The `.cards` syntax: sections, the C-like procedure language (lexer, parser, tree) and the
//! raw `<card>` / `<mode>` lines. Every node keeps a byte span into the source.

use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Int(i64),
    Str(String),
    /// `$1` or `$2` in comparators.
    Arg(u8),
    Punct(&'static str),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

const PUNCTS: &[&str] = &[
    "==", "!=", "<=", ">=", "&&", "||", "=>", "++", "(", ")", "{", "}", "[", "]", ";", ",", ":", "=", "<", ">", "+",
    "-", "*", "/", "%", "!", ".",
];

/// Splits `source[range]` into tokens; `//` comments and whitespace are skipped.
pub fn lex(source: &str, start: usize, end: usize, errors: &mut Vec<Diagnostic>) -> Vec<Token> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = start;
    while i < end {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if source[i..end].starts_with("//") {
            while i < end && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < end && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push(Token { tok: Tok::Ident(source[s..i].to_string()), span: Span::new(s, i) });
        } else if c.is_ascii_digit() {
            let s = i;
            while i < end && bytes[i].is_ascii_digit() {
                i += 1;
            }
            match source[s..i].parse() {
                Ok(n) => tokens.push(Token { tok: Tok::Int(n), span: Span::new(s, i) }),
                Err(_) => errors.push(
                    Diagnostic::error("E0801", "number too large", Span::new(s, i))
                        .label("does not fit")
                        .with_help("use a number below 2^63"),
                ),
            }
        } else if c == b'"' {
            let s = i;
            i += 1;
            while i < end && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += 1;
            }
            if i >= end || bytes[i] != b'"' {
                errors.push(
                    Diagnostic::error("E0801", "unterminated string", Span::new(s, i))
                        .label("no closing `\"`")
                        .with_help("end the string with `\"` on the same line"),
                );
            } else {
                i += 1;
                tokens.push(Token { tok: Tok::Str(source[s + 1..i - 1].to_string()), span: Span::new(s, i) });
            }
        } else if c == b'$' && i + 1 < end && (bytes[i + 1] == b'1' || bytes[i + 1] == b'2') {
            tokens.push(Token { tok: Tok::Arg(bytes[i + 1] - b'0'), span: Span::new(i, i + 2) });
            i += 2;
        } else if let Some(p) = PUNCTS.iter().find(|p| source[i..end].starts_with(**p)) {
            tokens.push(Token { tok: Tok::Punct(p), span: Span::new(i, i + p.len()) });
            i += p.len();
        } else {
            let len = source[i..].chars().next().map_or(1, char::len_utf8);
            errors.push(
                Diagnostic::error("E0801", "a character that is not part of the language", Span::new(i, i + len))
                    .label("unexpected")
                    .with_help("remove it; strings go in double quotes"),
            );
            i += len;
        }
    }
    tokens
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    Int,
    Bool,
    Str,
    Series,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub base: BaseType,
    pub array: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64, Span),
    Bool(bool, Span),
    None(Span),
    Str(String, Span),
    Name(String, Span),
    Index(Box<Expr>, Box<Expr>, Span),
    Call(String, Vec<Expr>, Span),
    Unary(&'static str, Box<Expr>, Span),
    Binary(&'static str, Box<Expr>, Box<Expr>, Span),
    Array(Vec<Expr>, Span),
    /// `$1.size`
    Size(u8, Span),
    /// `$1(k)`
    CardAt(u8, i64, Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(_, s)
            | Expr::Bool(_, s)
            | Expr::None(s)
            | Expr::Str(_, s)
            | Expr::Name(_, s)
            | Expr::Index(_, _, s)
            | Expr::Call(_, _, s)
            | Expr::Unary(_, _, s)
            | Expr::Binary(_, _, _, s)
            | Expr::Array(_, s)
            | Expr::Size(_, s)
            | Expr::CardAt(_, _, s) => *s,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Decl {
        ty: TypeName,
        name: String,
        size: Option<i64>,
        init: Option<Expr>,
        span: Span,
    },
    Assign {
        target: Expr,
        value: Expr,
        span: Span,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
        span: Span,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
        span: Span,
    },
    For {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        step: Vec<Stmt>,
        body: Vec<Stmt>,
        span: Span,
    },
    /// `switch { case (c): ...; default: ...; }`: the first case whose condition holds runs.
    Switch {
        cases: Vec<(Option<Expr>, Vec<Stmt>)>,
        span: Span,
    },
    Return {
        value: Option<Expr>,
        span: Span,
    },
    Break(Span),
    Expr(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub ret: Option<TypeName>,
    pub name: String,
    pub params: Vec<(TypeName, String, Span)>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

pub struct Parser<'t> {
    tokens: &'t [Token],
    at: usize,
    end: usize,
    pub errors: Vec<Diagnostic>,
}

/// A parse failure already recorded in the parser's diagnostics; the caller recovers at the next
/// statement.
#[derive(Debug)]
pub struct Reported;

type PResult<T> = Result<T, Reported>;

impl<'t> Parser<'t> {
    pub fn new(tokens: &'t [Token], end: usize) -> Self {
        Parser { tokens, at: 0, end, errors: Vec::new() }
    }

    pub fn done(&self) -> bool {
        self.at >= self.tokens.len()
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.tokens.get(self.at + k).map(|t| &t.tok)
    }

    fn span(&self) -> Span {
        self.tokens.get(self.at).map_or(Span::new(self.end, self.end), |t| t.span)
    }

    fn prev_span(&self) -> Span {
        self.at.checked_sub(1).and_then(|i| self.tokens.get(i)).map_or(self.span(), |t| t.span)
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(q)) if q == w)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn fail<T>(&mut self, what: &str) -> PResult<T> {
        let span = self.span();
        let found = match self.peek() {
            None => "the end of the section".to_string(),
            Some(Tok::Ident(s)) => format!("`{s}`"),
            Some(Tok::Int(n)) => format!("`{n}`"),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::Arg(n)) => format!("`${n}`"),
            Some(Tok::Punct(p)) => format!("`{p}`"),
        };
        self.errors.push(
            Diagnostic::error("E0802", format!("expected {what}, found {found}"), span)
                .label(format!("expected {what}"))
                .with_help("see spec/cards.md for the statement and expression grammar"),
        );
        Err(Reported)
    }

    fn expect(&mut self, p: &'static str) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.fail(&format!("`{p}`"))
        }
    }

    fn ident(&mut self) -> PResult<(String, Span)> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.at += 1;
                Ok((s, self.prev_span()))
            }
            _ => self.fail("a name"),
        }
    }

    /// Skips to just after the next `;` or `}` (error recovery).
    fn recover(&mut self) {
        while let Some(tok) = self.peek().cloned() {
            self.at += 1;
            if matches!(tok, Tok::Punct(";") | Tok::Punct("}")) {
                break;
            }
        }
    }

    fn type_name(&mut self) -> Option<TypeName> {
        let base = match self.peek() {
            Some(Tok::Ident(s)) => match s.as_str() {
                "int" => BaseType::Int,
                "bool" => BaseType::Bool,
                "string" => BaseType::Str,
                "series" | "card" => BaseType::Series,
                _ => return None,
            },
            _ => return None,
        };
        // `int x` or `int[] x`, but not `int(`: types are never called.
        let start = self.span();
        self.at += 1;
        let mut array = false;
        if self.is("[") && matches!(self.peek_at(1), Some(Tok::Punct("]"))) {
            self.at += 2;
            array = true;
        }
        Some(TypeName { base, array, span: start.join(self.prev_span()) })
    }

    /// Statements until the end of the token list.
    pub fn statements_to_end(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        while !self.done() {
            match self.statement() {
                Ok(s) => out.push(s),
                Err(Reported) => self.recover(),
            }
        }
        out
    }

    /// Global functions until the end of the token list.
    pub fn functions_to_end(&mut self) -> Vec<Function> {
        let mut out = Vec::new();
        while !self.done() {
            match self.function() {
                Ok(f) => out.push(f),
                Err(Reported) => {
                    // Skip to the next top-level item: past a balanced `{ ... }`.
                    let mut depth = 0;
                    while let Some(tok) = self.peek().cloned() {
                        self.at += 1;
                        match tok {
                            Tok::Punct("{") => depth += 1,
                            Tok::Punct("}") => {
                                depth -= 1;
                                if depth <= 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        out
    }

    fn function(&mut self) -> PResult<Function> {
        let start = self.span();
        let ret = if self.is_word("void") {
            self.at += 1;
            None
        } else {
            match self.type_name() {
                Some(t) => Some(t),
                None => return self.fail("a function's return type (`int`, `bool`, `string`, `series` or `void`)"),
            }
        };
        let (name, _) = self.ident()?;
        self.expect("(")?;
        let mut params = Vec::new();
        if !self.eat(")") {
            loop {
                let Some(ty) = self.type_name() else { return self.fail("a parameter type") };
                let (pname, pspan) = self.ident()?;
                params.push((ty, pname, pspan));
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let body = self.block()?;
        Ok(Function { ret, name, params, body, span: start.join(self.prev_span()) })
    }

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect("{")?;
        let mut out = Vec::new();
        while !self.eat("}") {
            if self.done() {
                return self.fail("`}`");
            }
            match self.statement() {
                Ok(s) => out.push(s),
                Err(Reported) => self.recover(),
            }
        }
        Ok(out)
    }

    /// A statement or a braced block, as the body of `if`/`while`/`for`.
    fn body(&mut self) -> PResult<Vec<Stmt>> {
        if self.is("{") {
            self.block()
        } else {
            Ok(vec![self.statement()?])
        }
    }

    pub fn statement(&mut self) -> PResult<Stmt> {
        let start = self.span();
        if self.is("{") {
            let body = self.block()?;
            return Ok(Stmt::If { cond: Expr::Bool(true, start), then: body, otherwise: Vec::new(), span: start });
        }
        if let Some(Tok::Ident(word)) = self.peek() {
            match word.as_str() {
                "if" => {
                    self.at += 1;
                    self.expect("(")?;
                    let cond = self.expr()?;
                    self.expect(")")?;
                    let then = self.body()?;
                    let otherwise = if self.is_word("else") {
                        self.at += 1;
                        self.body()?
                    } else {
                        Vec::new()
                    };
                    return Ok(Stmt::If { cond, then, otherwise, span: start.join(self.prev_span()) });
                }
                "while" => {
                    self.at += 1;
                    self.expect("(")?;
                    let cond = self.expr()?;
                    self.expect(")")?;
                    let body = self.body()?;
                    return Ok(Stmt::While { cond, body, span: start.join(self.prev_span()) });
                }
                "for" => {
                    self.at += 1;
                    self.expect("(")?;
                    let init = if self.is(";") { Vec::new() } else { vec![self.simple(true)?] };
                    self.expect(";")?;
                    let cond = if self.is(";") { None } else { Some(self.expr()?) };
                    self.expect(";")?;
                    let step = if self.is(")") { Vec::new() } else { vec![self.simple(false)?] };
                    self.expect(")")?;
                    let body = self.body()?;
                    return Ok(Stmt::For { init, cond, step, body, span: start.join(self.prev_span()) });
                }
                "switch" => {
                    self.at += 1;
                    self.expect("{")?;
                    let mut cases = Vec::new();
                    while !self.eat("}") {
                        let cond = if self.is_word("case") {
                            self.at += 1;
                            Some(self.expr()?)
                        } else if self.is_word("default") {
                            self.at += 1;
                            None
                        } else {
                            return self.fail("`case` or `default`");
                        };
                        self.expect(":")?;
                        let mut body = Vec::new();
                        while !self.is_word("case") && !self.is_word("default") && !self.is("}") {
                            if self.done() {
                                return self.fail("`}`");
                            }
                            body.push(self.statement()?);
                        }
                        cases.push((cond, body));
                    }
                    return Ok(Stmt::Switch { cases, span: start.join(self.prev_span()) });
                }
                "return" => {
                    self.at += 1;
                    let value = if self.is(";") { None } else { Some(self.expr()?) };
                    self.expect(";")?;
                    return Ok(Stmt::Return { value, span: start.join(self.prev_span()) });
                }
                "break" => {
                    self.at += 1;
                    self.expect(";")?;
                    return Ok(Stmt::Break(start));
                }
                _ => {}
            }
        }
        let s = self.simple(true)?;
        self.expect(";")?;
        Ok(s)
    }

    /// A declaration (when `decl` is set), assignment or call, without its `;`.
    fn simple(&mut self, decl: bool) -> PResult<Stmt> {
        let start = self.span();
        if decl {
            if let Some(ty) = self.type_name() {
                let mut names = Vec::new();
                loop {
                    let (name, _) = self.ident()?;
                    let mut size = None;
                    if self.eat("[") {
                        match self.peek() {
                            Some(Tok::Int(n)) => {
                                size = Some(*n);
                                self.at += 1;
                            }
                            _ => return self.fail("an array size"),
                        }
                        self.expect("]")?;
                    }
                    let init = if self.eat("=") { Some(self.expr()?) } else { None };
                    names.push((name, size, init));
                    if !self.eat(",") {
                        break;
                    }
                }
                let span = start.join(self.prev_span());
                // `int a, b;` declares each name; a block keeps them in order.
                let mut decls: Vec<Stmt> = names
                    .into_iter()
                    .map(|(name, size, init)| Stmt::Decl { ty: ty.clone(), name, size, init, span })
                    .collect();
                if decls.len() == 1 {
                    return Ok(decls.pop().unwrap_or(Stmt::Break(span)));
                }
                // Several declarations: an always-taken block (names are program-wide anyway).
                return Ok(Stmt::If { cond: Expr::Bool(true, span), then: decls, otherwise: Vec::new(), span });
            }
        }
        let target = self.expr()?;
        if self.eat("=") {
            let value = self.expr()?;
            return Ok(Stmt::Assign { target, value, span: start.join(self.prev_span()) });
        }
        if self.eat("++") {
            let span = start.join(self.prev_span());
            let value = Expr::Binary("+", Box::new(target.clone()), Box::new(Expr::Int(1, span)), span);
            return Ok(Stmt::Assign { target, value, span });
        }
        Ok(Stmt::Expr(target))
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        self.binary(0)
    }

    fn binary(&mut self, level: usize) -> PResult<Expr> {
        const LEVELS: &[&[&str]] =
            &[&["||"], &["&&"], &["==", "!="], &["<", "<=", ">", ">="], &["+", "-"], &["*", "/", "%"]];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = LEVELS[level].iter().find(|op| self.is(op)) {
            self.at += 1;
            let rhs = self.binary(level + 1)?;
            let span = lhs.span().join(rhs.span());
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), span);
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.span();
        for op in ["!", "-"] {
            if self.eat(op) {
                let inner = self.unary()?;
                let span = start.join(inner.span());
                return Ok(Expr::Unary(op, Box::new(inner), span));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        while self.eat("[") {
            let key = self.expr()?;
            self.expect("]")?;
            let span = e.span().join(self.prev_span());
            e = Expr::Index(Box::new(e), Box::new(key), span);
        }
        Ok(e)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let Some(tok) = self.peek().cloned() else { return self.fail("an expression") };
        self.at += 1;
        match tok {
            Tok::Int(n) => Ok(Expr::Int(n, span)),
            Tok::Str(s) => Ok(Expr::Str(s, span)),
            Tok::Arg(n) => {
                if self.eat(".") {
                    let (word, wspan) = self.ident()?;
                    if word != "size" {
                        self.errors.push(
                            Diagnostic::error("E0802", format!("`${n}` has no field `{word}`"), wspan)
                                .label("unknown field")
                                .with_help("a series has `.size`; its k-th card is `$1(k)`"),
                        );
                        return Err(Reported);
                    }
                    return Ok(Expr::Size(n, span.join(wspan)));
                }
                self.expect("(")?;
                let k = match self.peek() {
                    Some(Tok::Int(k)) => *k,
                    _ => return self.fail("a card position"),
                };
                self.at += 1;
                self.expect(")")?;
                Ok(Expr::CardAt(n, k, span.join(self.prev_span())))
            }
            Tok::Punct("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Punct("{") => {
                let mut items = Vec::new();
                if !self.eat("}") {
                    loop {
                        items.push(self.expr()?);
                        if self.eat("}") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(Expr::Array(items, span.join(self.prev_span())))
            }
            Tok::Ident(name) => match name.as_str() {
                "true" => Ok(Expr::Bool(true, span)),
                "false" => Ok(Expr::Bool(false, span)),
                "NONE" => Ok(Expr::None(span)),
                _ => {
                    if self.eat("(") {
                        let mut args = Vec::new();
                        if !self.eat(")") {
                            loop {
                                args.push(self.expr()?);
                                if self.eat(")") {
                                    break;
                                }
                                self.expect(",")?;
                            }
                        }
                        Ok(Expr::Call(name, args, span.join(self.prev_span())))
                    } else {
                        Ok(Expr::Name(name, span))
                    }
                }
            },
            _ => {
                self.at -= 1;
                self.fail("an expression")
            }
        }
    }

    /// `key = value;` pairs of `<config>`.
    pub fn config(&mut self) -> Vec<(String, Span, Expr)> {
        let mut out = Vec::new();
        while !self.done() {
            let item = (|| {
                let (key, span) = self.ident()?;
                self.expect("=")?;
                let value = self.expr()?;
                self.expect(";")?;
                Ok((key, span, value))
            })();
            match item {
                Ok(item) => out.push(item),
                Err(Reported) => self.recover(),
            }
        }
        out
    }
}

/// One `<name> ... </name>` section: its name and content range.
#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub name_span: Span,
    pub start: usize,
    pub end: usize,
}

/// Finds the sections; text outside them must be blank or comments.
pub fn sections(source: &str, errors: &mut Vec<Diagnostic>) -> Vec<Section> {
    const NAMES: &[&str] = &["config", "var", "func", "card", "mode", "body", "end"];
    let mut out: Vec<Section> = Vec::new();
    let mut i = 0;
    let bytes = source.as_bytes();
    while i < source.len() {
        if source[i..].starts_with("//") {
            while i < source.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let open = NAMES.iter().find(|n| source[i..].starts_with(&format!("<{n}>")));
        let Some(name) = open else {
            let end = source[i..].find(['\n', '<']).map_or(source.len(), |k| (i + k).max(i + 1));
            errors.push(
                Diagnostic::error("E0803", "text outside a section", Span::new(i, end))
                    .label("not inside <config>, <var>, <func>, <card>, <mode>, <body> or <end>")
                    .with_help("put it in a section such as `<body> ... </body>`, or make it a `//` comment"),
            );
            i = end;
            continue;
        };
        let tag_span = Span::new(i, i + name.len() + 2);
        let start = tag_span.end;
        let close = format!("</{name}>");
        let (end, next) = match source[start..].find(&close) {
            Some(k) => (start + k, start + k + close.len()),
            None => {
                errors.push(
                    Diagnostic::error("E0803", format!("section <{name}> is not closed"), tag_span)
                        .label("opened here")
                        .with_help(format!("end it with `{close}`")),
                );
                (source.len(), source.len())
            }
        };
        if let Some(previous) = out.iter().find(|s| s.name == *name) {
            errors.push(
                Diagnostic::error("E0803", format!("section <{name}> appears twice"), tag_span)
                    .label("second one")
                    .with_secondary(previous.name_span, "first one")
                    .with_help("merge the two sections"),
            );
        }
        out.push(Section { name: name.to_string(), name_span: tag_span, start, end });
        i = next;
    }
    out
}
