//! The Rule Game parser: tokens to a [`RuleFile`], line by line (a rule line is one text line).
//! Hand-written recursive descent, so that every mistake is reported at its token with a code
//! and a help line, and parsing resumes at the next line.

use super::ast::*;
use super::lexer::{lex, Token};
use super::orders;
use crate::diagnostics::Diagnostic;

/// The number of cells on the board (6 x 6).
pub const CELLS: u8 = 36;

/// Names a shape or colour may not take: symbols the translation generates.
fn reserved_name(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "none",
        "solver",
        "keeper",
        "random",
        "accept",
        "deny",
        "immovable",
        "type",
        "const",
        "var",
        "begin",
        "end",
        "player",
        "goals",
        "visible",
    ];
    if WORDS.contains(&name) {
        return true;
    }
    let mut chars = name.chars();
    matches!(chars.next(), Some('c' | 'b' | 'l' | 'n')) && {
        let rest = chars.as_str();
        !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit())
    }
}

/// Parses and checks a rule file; every problem found is reported.
pub fn parse(source: &str) -> Result<RuleFile, Vec<Diagnostic>> {
    let (tokens, mut diagnostics) = lex(source);
    let mut parser = Parser { tokens, pos: 0, depth: 0, diagnostics: Vec::new(), end: source.len() };
    let mut file = RuleFile { max_errors: 8, ..RuleFile::default() };
    let mut pieces: Vec<Piece> = Vec::new();
    let mut random_board: Option<Board> = None;
    // A line that failed to parse still counts, so that one mistake gives one diagnostic.
    let mut saw_rule_line = false;
    let mut saw_board = false;
    while parser.pos < parser.tokens.len() {
        saw_rule_line |= matches!(parser.peek(), Some(Token::LParen | Token::Star | Token::Number(_)));
        saw_board |= matches!(parser.peek(), Some(Token::Directive("@piece" | "@random")));
        let result = parser.line(&mut file, &mut pieces, &mut random_board);
        if result.is_err() {
            parser.skip_line();
        } else if !parser.at_line_end() {
            let span = parser.span();
            let found = parser.peek().map_or("end of file".to_string(), |t| t.to_string());
            parser.error(
                Diagnostic::error("E0702", format!("unexpected {found} after the end of this line's content"), span)
                    .label("expected the end of the line")
                    .with_help("put each rule line, order or directive on its own line"),
            );
            parser.skip_line();
        }
        parser.eat(Token::Newline);
    }
    diagnostics.append(&mut parser.diagnostics);
    file.board = match (pieces.is_empty(), random_board) {
        (true, None) if saw_board => Board::Missing,
        (true, None) => {
            diagnostics.push(
                Diagnostic::error("E0712", "the file gives no initial board", Span::new(0, 0))
                    .label("no `@piece` or `@random` line in this file")
                    .with_help("add `@piece CELL SHAPE COLOR` lines (a fixed board) or one `@random COUNT shapes [..] colors [..]` line"),
            );
            Board::Missing
        }
        (false, Some(Board::Random { span, .. })) => {
            diagnostics.push(
                Diagnostic::error("E0712", "a file gives both a fixed and a random board", span)
                    .label("random board here")
                    .with_secondary(pieces[0].span, "fixed board here")
                    .with_help("keep either the `@piece` lines or the `@random` line"),
            );
            Board::Missing
        }
        (true, Some(board)) => board,
        (false, _) => Board::Fixed(pieces),
    };
    if file.lines.is_empty() && !saw_rule_line {
        diagnostics.push(
            Diagnostic::error("E0713", "the file has no rule line", Span::new(0, 0))
                .label("no rule line in this file")
                .with_help("add at least one rule line such as `(*,*,*,*,*)`"),
        );
    }
    check_order_names(&file, &mut diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        Err(diagnostics)
    } else {
        Ok(file)
    }
}

/// Every order named in a position field must be built in or defined in the file.
fn check_order_names(file: &RuleFile, diagnostics: &mut Vec<Diagnostic>) {
    for line in &file.lines {
        for atom in &line.atoms {
            for position in atom.positions.iter().flatten() {
                if let Position::Order { name, span } = position {
                    if orders::builtin(name).is_none() && !file.orders.iter().any(|o| &o.name == name) {
                        let mut known: Vec<String> = orders::BUILTIN.iter().map(|s| s.to_string()).collect();
                        known.extend(file.orders.iter().map(|o| o.name.clone()));
                        diagnostics.push(
                            Diagnostic::error("E0705", format!("unknown order `{name}`"), *span)
                                .label("not a built-in order nor one defined by an `Order` line")
                                .with_help(format!("known orders: {}", known.join(", "))),
                        );
                    }
                }
            }
        }
    }
}

/// How deeply bucket expressions may nest (parentheses, brackets, `!`), so that hostile input
/// cannot overflow the stack.
const MAX_NESTING: usize = 128;

struct Parser<'src> {
    tokens: Vec<(Token<'src>, Span)>,
    pos: usize,
    /// Current expression nesting.
    depth: usize,
    diagnostics: Vec<Diagnostic>,
    end: usize,
}

/// A parse failure already reported; the caller skips to the next line.
struct Reported;

type PResult<T> = Result<T, Reported>;

impl<'src> Parser<'src> {
    fn peek(&self) -> Option<Token<'src>> {
        self.tokens.get(self.pos).map(|(t, _)| *t)
    }

    fn peek_at(&self, ahead: usize) -> Option<Token<'src>> {
        self.tokens.get(self.pos + ahead).map(|(t, _)| *t)
    }

    fn span(&self) -> Span {
        match self.tokens.get(self.pos) {
            Some((_, span)) => *span,
            None => Span::new(self.end, self.end),
        }
    }

    fn previous_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1].1.end
        }
    }

    fn at_line_end(&self) -> bool {
        matches!(self.peek(), None | Some(Token::Newline))
    }

    fn bump(&mut self) -> (Token<'src>, Span) {
        let token = self.tokens[self.pos];
        self.pos += 1;
        token
    }

    fn eat(&mut self, token: Token) -> bool {
        if self.peek() == Some(token) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn skip_line(&mut self) {
        while !self.at_line_end() {
            self.pos += 1;
        }
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Reports E0702 at the current token.
    fn expected(&mut self, what: &str, help: &str) -> Reported {
        let span = self.span();
        let found = match self.peek() {
            Some(token) => token.to_string(),
            None => "end of file".to_string(),
        };
        self.error(
            Diagnostic::error("E0702", format!("expected {what}, found {found}"), span)
                .label(format!("expected {what}"))
                .with_help(help.to_string()),
        );
        Reported
    }

    fn expect(&mut self, token: Token, help: &str) -> PResult<Span> {
        if self.peek() == Some(token) {
            Ok(self.bump().1)
        } else {
            Err(self.expected(&token.to_string(), help))
        }
    }

    fn line(&mut self, file: &mut RuleFile, pieces: &mut Vec<Piece>, random: &mut Option<Board>) -> PResult<()> {
        match self.peek() {
            None | Some(Token::Newline) => Ok(()),
            Some(Token::Ident("Order")) if matches!(self.peek_at(1), Some(Token::Ident(_))) => {
                let order = self.order_def(file)?;
                file.orders.push(order);
                Ok(())
            }
            Some(Token::Directive(_)) => self.directive(file, pieces, random),
            _ => {
                let line = self.rule_line()?;
                file.lines.push(line);
                Ok(())
            }
        }
    }

    fn positive(&mut self, what: &str) -> PResult<(u32, Span)> {
        match self.peek() {
            Some(Token::Number(text)) => {
                let span = self.bump().1;
                match text.parse::<u32>() {
                    Ok(n) if n > 0 && n <= 1000 => Ok((n, span)),
                    _ => {
                        self.error(
                            Diagnostic::error("E0707", format!("{what} must be a whole number from 1 to 1000"), span)
                                .label(format!("`{text}` is not allowed here"))
                                .with_help("write `*` for no limit, or a positive count"),
                        );
                        Err(Reported)
                    }
                }
            }
            _ => Err(self.expected(what, "a count is `*` or a positive number")),
        }
    }

    /// `*` (None) or a positive count.
    fn count(&mut self) -> PResult<Option<u32>> {
        if self.eat(Token::Star) {
            Ok(None)
        } else {
            Ok(Some(self.positive("a count")?.0))
        }
    }

    fn cell(&mut self) -> PResult<(u8, Span)> {
        match self.peek() {
            Some(Token::Number(text)) => {
                let span = self.bump().1;
                match text.parse::<u8>() {
                    Ok(n) if (1..=CELLS).contains(&n) => Ok((n, span)),
                    _ => {
                        self.error(
                            Diagnostic::error("E0706", format!("cell `{text}` is not on the board"), span)
                                .label("cells are numbered 1 to 36")
                                .with_help("cell = (row - 1) * 6 + column, rows counted from the bottom"),
                        );
                        Err(Reported)
                    }
                }
            }
            _ => Err(self.expected("a cell number", "cells are numbered 1 to 36, bottom row first")),
        }
    }

    fn order_def(&mut self, file: &RuleFile) -> PResult<OrderDef> {
        let start = self.bump().1;
        let (name, name_span) = match self.bump() {
            (Token::Ident(name), span) => (name.to_string(), span),
            _ => unreachable!("checked by the caller"),
        };
        if orders::builtin(&name).is_some() || file.orders.iter().any(|o| o.name == name) {
            let mut diagnostic = Diagnostic::error("E0710", format!("order `{name}` is already defined"), name_span)
                .label("defined again here")
                .with_help("give the order a name of its own");
            if let Some(first) = file.orders.iter().find(|o| o.name == name) {
                diagnostic = diagnostic.with_secondary(first.name_span, "first defined here");
            }
            self.error(diagnostic);
        }
        self.expect(Token::Assign, "an order is written `Order Name=[1, 2, [3, 4], ...]`")?;
        self.expect(Token::LBracket, "an order is written `Order Name=[1, 2, [3, 4], ...]`")?;
        let mut tiers: Vec<Vec<u8>> = Vec::new();
        let mut seen: Vec<(u8, Span)> = Vec::new();
        let mut note = |parser: &mut Self, cell: u8, span: Span| {
            if let Some((_, first)) = seen.iter().find(|(c, _)| *c == cell) {
                parser.error(
                    Diagnostic::error("E0711", format!("cell {cell} appears twice in order `{name}`"), span)
                        .label("listed again here")
                        .with_secondary(*first, "first listed here")
                        .with_help("an order ranks each cell once; put tied cells in one inner bracket"),
                );
            }
            seen.push((cell, span));
        };
        if !self.eat(Token::RBracket) {
            loop {
                if self.eat(Token::LBracket) {
                    let mut tier = Vec::new();
                    loop {
                        let (cell, span) = self.cell()?;
                        note(self, cell, span);
                        tier.push(cell);
                        if !self.eat(Token::Comma) {
                            break;
                        }
                    }
                    self.expect(Token::RBracket, "close the tie group with `]`")?;
                    tiers.push(tier);
                } else {
                    let (cell, span) = self.cell()?;
                    note(self, cell, span);
                    tiers.push(vec![cell]);
                }
                if !self.eat(Token::Comma) {
                    break;
                }
            }
            self.expect(Token::RBracket, "close the order with `]`")?;
        }
        Ok(OrderDef { name, name_span, tiers, span: start.join(Span::new(start.start, self.previous_end())) })
    }

    fn directive(&mut self, file: &mut RuleFile, pieces: &mut Vec<Piece>, random: &mut Option<Board>) -> PResult<()> {
        let (token, span) = self.bump();
        let Token::Directive(name) = token else { unreachable!("checked by the caller") };
        match name {
            "@mode" => {
                let word = self.word("`legal` or `attempts`", "write `@mode legal` or `@mode attempts`")?;
                file.mode = match word.0.as_str() {
                    "legal" => Mode::Legal,
                    "attempts" => Mode::Attempts,
                    _ => return Err(self.bad_value(word.1, "`@mode` is `legal` or `attempts`")),
                };
            }
            "@equality" => {
                let word =
                    self.word("`engine` or `documented`", "write `@equality engine` or `@equality documented`")?;
                file.equality = match word.0.as_str() {
                    "engine" => Equality::Engine,
                    "documented" => Equality::Documented,
                    _ => return Err(self.bad_value(word.1, "`@equality` is `engine` or `documented`")),
                };
            }
            "@errors" => {
                let (n, span) = self.positive("the number of refused attempts that ends the game")?;
                if n > 30 {
                    return Err(self.bad_value(span, "`@errors` is at most 30"));
                }
                file.max_errors = n;
            }
            "@piece" => {
                let (cell, cell_span) = self.cell()?;
                let shape = self.name("a shape")?;
                let color = self.name("a colour")?;
                if let Some(first) = pieces.iter().find(|p| p.cell == cell) {
                    self.error(
                        Diagnostic::error("E0712", format!("cell {cell} holds two pieces"), cell_span)
                            .label("second piece here")
                            .with_secondary(first.span, "first piece here")
                            .with_help("a cell holds at most one piece"),
                    );
                }
                let span = span.join(Span::new(span.start, self.previous_end()));
                pieces.push(Piece { cell, shape: shape.0, color: color.0, span });
            }
            "@random" => {
                let (count, count_span) = self.positive("the number of pieces")?;
                let mut cells: Vec<u8> = (1..=CELLS).collect();
                let mut shapes = Vec::new();
                let mut colors = Vec::new();
                while !self.at_line_end() {
                    let key =
                        self.word("`cells`, `shapes` or `colors`", "write `@random 3 shapes [circle] colors [red]`")?;
                    match key.0.as_str() {
                        "cells" => {
                            self.expect(Token::LBracket, "write `cells [1, 2, 3]`")?;
                            cells.clear();
                            loop {
                                cells.push(self.cell()?.0);
                                if !self.eat(Token::Comma) {
                                    break;
                                }
                            }
                            self.expect(Token::RBracket, "close the list with `]`")?;
                            cells.sort_unstable();
                            cells.dedup();
                        }
                        "shapes" => shapes = self.names("shapes")?.unwrap_or_default(),
                        "colors" => colors = self.names("colours")?.unwrap_or_default(),
                        _ => {
                            return Err(
                                self.bad_value(key.1, "`@random` takes `cells [..]`, `shapes [..]` and `colors [..]`")
                            )
                        }
                    }
                }
                let span = span.join(Span::new(span.start, self.previous_end()));
                if shapes.is_empty() || colors.is_empty() {
                    self.error(
                        Diagnostic::error("E0712", "a random board needs its shapes and colours", span)
                            .label("no `shapes [..]` or no `colors [..]` here")
                            .with_help("write `@random 3 shapes [circle, star] colors [red, blue]`"),
                    );
                } else if count as usize > cells.len() {
                    self.error(
                        Diagnostic::error(
                            "E0712",
                            format!("{count} pieces do not fit in {} cells", cells.len()),
                            count_span,
                        )
                        .label("too many pieces")
                        .with_help("lower the count or list more cells"),
                    );
                }
                if random.is_some() {
                    self.error(
                        Diagnostic::error("E0712", "a second `@random` line", span)
                            .label("the board is already random")
                            .with_help("keep one `@random` line"),
                    );
                }
                *random = Some(Board::Random { count, cells, shapes, colors, span });
            }
            _ => {
                self.error(
                    Diagnostic::error("E0714", format!("unknown directive `{name}`"), span)
                        .label("not a Regula directive")
                        .with_help("directives: @piece, @random, @mode, @errors, @equality (spec/rules.md)"),
                );
                return Err(Reported);
            }
        }
        Ok(())
    }

    fn bad_value(&mut self, span: Span, help: &str) -> Reported {
        self.error(
            Diagnostic::error("E0714", "a directive has a value it does not take", span)
                .label("not allowed here")
                .with_help(help.to_string()),
        );
        Reported
    }

    /// An identifier (as written).
    fn word(&mut self, what: &str, help: &str) -> PResult<(String, Span)> {
        match self.peek() {
            Some(Token::Ident(word)) => {
                let span = self.bump().1;
                Ok((word.to_string(), span))
            }
            _ => Err(self.expected(what, help)),
        }
    }

    /// A shape or colour name, lowercased.
    fn name(&mut self, what: &str) -> PResult<(String, Span)> {
        match self.peek() {
            Some(Token::Ident(word)) => {
                let span = self.bump().1;
                let lower = word.to_ascii_lowercase();
                if reserved_name(&lower) {
                    self.error(
                        Diagnostic::error("E0715", format!("`{word}` cannot name a shape or colour"), span)
                            .label("this name is taken by the translation")
                            .with_help("rename it: `none`, `solver`, `accept`, `deny`, `immovable` and names like c1, b0, l0, n0 are reserved"),
                    );
                    return Err(Reported);
                }
                Ok((lower, span))
            }
            Some(Token::Quoted(text)) => {
                let span = self.bump().1;
                self.error(
                    Diagnostic::error("E0708", format!("quoted names such as {text} are not supported"), span)
                        .label("an image-based (GS3) object")
                        .with_help("name shapes and colours with plain identifiers"),
                );
                Err(Reported)
            }
            _ => Err(self.expected(what, "names are identifiers such as `circle` or `RED`")),
        }
    }

    /// `*` (None), a name, or `[name, ...]`.
    fn names(&mut self, what: &str) -> PResult<Option<Vec<String>>> {
        if self.eat(Token::Star) {
            return Ok(None);
        }
        if self.eat(Token::LBracket) {
            let mut names = Vec::new();
            loop {
                names.push(self.name(what)?.0);
                if !self.eat(Token::Comma) {
                    break;
                }
            }
            self.expect(Token::RBracket, "close the list with `]`")?;
            return Ok(Some(names));
        }
        Ok(Some(vec![self.name(what)?.0]))
    }

    fn position(&mut self) -> PResult<Position> {
        match self.peek() {
            Some(Token::Number(_)) => Ok(Position::Cell(self.cell()?.0)),
            Some(Token::Ident(name)) => {
                let span = self.bump().1;
                Ok(Position::Order { name: name.to_string(), span })
            }
            _ => Err(self.expected(
                "a cell number or an order name",
                "a position is `*`, a cell 1..36, an order such as L1, or a list of these",
            )),
        }
    }

    fn positions(&mut self) -> PResult<Option<Vec<Position>>> {
        if self.eat(Token::Star) {
            return Ok(None);
        }
        if self.eat(Token::LBracket) {
            let mut positions = Vec::new();
            loop {
                positions.push(self.position()?);
                if !self.eat(Token::Comma) {
                    break;
                }
            }
            self.expect(Token::RBracket, "close the list with `]`")?;
            return Ok(Some(positions));
        }
        Ok(Some(vec![self.position()?]))
    }

    /// `*` (None) or a bucket expression.
    fn buckets(&mut self) -> PResult<Option<Expr>> {
        if self.peek() == Some(Token::Star) && matches!(self.peek_at(1), Some(Token::RParen | Token::Comma)) {
            self.bump();
            return Ok(None);
        }
        Ok(Some(self.expr()?))
    }

    fn rule_line(&mut self) -> PResult<RuleLine> {
        let start = self.span();
        let count = match self.peek() {
            Some(Token::Star) => {
                self.bump();
                None
            }
            Some(Token::Number(_)) => Some(self.positive("a rule line's count")?.0),
            _ => None,
        };
        let mut atoms = Vec::new();
        while !self.at_line_end() {
            if self.peek() != Some(Token::LParen) {
                return Err(self.expected("an atom `( ... )`", "a rule line is `[count] (atom) (atom) ...`"));
            }
            atoms.push(self.atom()?);
        }
        if atoms.is_empty() {
            return Err(self.expected("an atom `( ... )`", "a rule line is `[count] (atom) (atom) ...`"));
        }
        Ok(RuleLine { count, atoms, span: start.join(Span::new(start.start, self.previous_end())) })
    }

    fn atom(&mut self) -> PResult<Atom> {
        let start = self.bump().1;
        let property_form = matches!(self.peek(), Some(Token::RParen))
            || (matches!(self.peek(), Some(Token::Ident(_))) && self.peek_at(1) == Some(Token::Colon));
        let mut atom = Atom { span: start, ..Atom::default_any() };
        if property_form {
            let mut seen: Vec<(String, Span)> = Vec::new();
            while self.peek() != Some(Token::RParen) {
                let (key, key_span) = self.word("a property name", "properties: count, shape, color, pos, bucket")?;
                self.expect(Token::Colon, "a property is written `name:value`")?;
                if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                    self.error(
                        Diagnostic::error("E0704", format!("property `{key}` is given twice"), key_span)
                            .label("given again here")
                            .with_secondary(*first, "first given here")
                            .with_help("give each property once"),
                    );
                }
                seen.push((key.clone(), key_span));
                match key.as_str() {
                    "count" => atom.count = self.count()?,
                    "shape" => atom.shapes = self.names("a shape")?,
                    "color" => atom.colors = self.names("a colour")?,
                    "pos" => atom.positions = self.positions()?,
                    "bucket" => atom.buckets = self.buckets()?,
                    "code" | "postpos" => {
                        self.error(
                            Diagnostic::error(
                                "E0708",
                                format!("property `{key}` (a GS5/GS6 extension) is not supported"),
                                key_span,
                            )
                            .label("not part of the GS4 core Regula translates")
                            .with_help(
                                "use count, shape, color, pos and bucket (spec/rules.md lists what is supported)",
                            ),
                        );
                        return Err(Reported);
                    }
                    _ => {
                        self.error(
                            Diagnostic::error("E0704", format!("unknown property `{key}`"), key_span)
                                .label("not an atom property")
                                .with_help("properties: count, shape, color, pos, bucket"),
                        );
                        return Err(Reported);
                    }
                }
                if !self.eat(Token::Comma) {
                    break;
                }
            }
        } else {
            atom.count = self.count()?;
            self.field_separator(1)?;
            atom.shapes = self.names("a shape")?;
            self.field_separator(2)?;
            atom.colors = self.names("a colour")?;
            self.field_separator(3)?;
            atom.positions = self.positions()?;
            self.field_separator(4)?;
            atom.buckets = self.buckets()?;
            if self.peek() == Some(Token::Comma) {
                let span = self.span();
                self.error(
                    Diagnostic::error("E0703", "an atom has more than five fields", span)
                        .label("a sixth field starts here")
                        .with_help("a positional atom is (count, shapes, colors, positions, buckets)"),
                );
                return Err(Reported);
            }
        }
        let end = self.expect(Token::RParen, "close the atom with `)`")?;
        atom.span = start.join(end);
        Ok(atom)
    }

    /// The comma before field `index` (0-based) of a positional atom.
    fn field_separator(&mut self, index: usize) -> PResult<()> {
        if self.eat(Token::Comma) {
            return Ok(());
        }
        if self.peek() == Some(Token::RParen) {
            let span = self.span();
            self.error(
                Diagnostic::error("E0703", format!("an atom has {index} field(s) instead of five"), span)
                    .label("the atom ends here")
                    .with_help("a positional atom is (count, shapes, colors, positions, buckets)"),
            );
            return Err(Reported);
        }
        Err(self.expected("`,`", "a positional atom is (count, shapes, colors, positions, buckets)"))
    }

    // Bucket expressions: E5 (one comparison) > E4 (+ -) > E3 (* / %) > E2 (!) > E1.

    fn expr(&mut self) -> PResult<Expr> {
        if self.depth >= MAX_NESTING {
            let span = self.span();
            self.error(
                Diagnostic::error("E0702", format!("a bucket expression nests more than {MAX_NESTING} deep"), span)
                    .label("too deep here")
                    .with_help("simplify the expression"),
            );
            return Err(Reported);
        }
        self.depth += 1;
        let result = self.comparison();
        self.depth -= 1;
        result
    }

    fn comparison(&mut self) -> PResult<Expr> {
        let lhs = self.additive()?;
        let op = match self.peek() {
            Some(Token::EqEq) => CmpOp::Eq,
            Some(Token::NotEq) => CmpOp::Ne,
            Some(Token::Less) => CmpOp::Lt,
            Some(Token::LessEq) => CmpOp::Le,
            Some(Token::Greater) => CmpOp::Gt,
            Some(Token::GreaterEq) => CmpOp::Ge,
            _ => return Ok(lhs),
        };
        self.bump();
        let rhs = self.additive()?;
        if matches!(
            self.peek(),
            Some(Token::EqEq | Token::NotEq | Token::Less | Token::LessEq | Token::Greater | Token::GreaterEq)
        ) {
            let span = self.span();
            self.error(
                Diagnostic::error("E0702", "comparisons do not chain", span)
                    .label("a second comparison")
                    .with_help("parenthesise: `(a == b) == c`"),
            );
            return Err(Reported);
        }
        let span = lhs.span().join(rhs.span());
        Ok(Expr::Cmp(op, Box::new(lhs), Box::new(rhs), span))
    }

    fn additive(&mut self) -> PResult<Expr> {
        let mut lhs = self.multiplicative()?;
        loop {
            let op = match self.peek() {
                Some(Token::Plus) => ArithOp::Add,
                Some(Token::Minus) => ArithOp::Sub,
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.multiplicative()?;
            let span = lhs.span().join(rhs.span());
            lhs = Expr::Arith(op, Box::new(lhs), Box::new(rhs), span);
        }
    }

    fn multiplicative(&mut self) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Token::Star) => ArithOp::Mul,
                Some(Token::Slash) => ArithOp::Div,
                Some(Token::Percent) => ArithOp::Rem,
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.unary()?;
            let span = lhs.span().join(rhs.span());
            lhs = Expr::Arith(op, Box::new(lhs), Box::new(rhs), span);
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.peek() == Some(Token::Bang) {
            let start = self.bump().1;
            // `!` recurses without `expr`; count it against the nesting limit too.
            self.depth += 1;
            let inner = if self.depth > MAX_NESTING {
                Err(self.expected("less nesting", "simplify the expression"))
            } else {
                self.unary()
            };
            self.depth -= 1;
            let inner = inner?;
            let span = start.join(inner.span());
            return Ok(Expr::Not(Box::new(inner), span));
        }
        self.primary()
    }

    fn primary(&mut self) -> PResult<Expr> {
        const HELP: &str =
            "a bucket expression uses numbers, p, pc, ps, Nearby, Remotest, [ , ], ( ), ! and + - * / % ==";
        match self.peek() {
            Some(Token::Number(_)) => self.number(false),
            Some(Token::Minus) if matches!(self.peek_at(1), Some(Token::Number(_))) => {
                self.bump();
                self.number(true)
            }
            Some(Token::LParen) => {
                self.bump();
                let inner = self.expr()?;
                self.expect(Token::RParen, "close the parenthesis")?;
                Ok(inner)
            }
            Some(Token::LBracket) => {
                let start = self.bump().1;
                let mut items = Vec::new();
                if self.peek() != Some(Token::RBracket) {
                    loop {
                        items.push(self.expr()?);
                        if !self.eat(Token::Comma) {
                            break;
                        }
                    }
                }
                let end = self.expect(Token::RBracket, "close the list with `]`")?;
                Ok(Expr::List(items, start.join(end)))
            }
            Some(Token::Ident(name)) => {
                let mut span = self.bump().1;
                let mut path = vec![name];
                while self.peek() == Some(Token::Dot) && matches!(self.peek_at(1), Some(Token::Ident(_))) {
                    self.bump();
                    let (Token::Ident(part), part_span) = self.bump() else { unreachable!() };
                    path.push(part);
                    span = span.join(part_span);
                }
                let var = match path.as_slice() {
                    ["p"] => Var::P,
                    ["pc"] | ["p", "color"] => Var::Pc,
                    ["ps"] | ["p", "shape"] => Var::Ps,
                    ["Nearby"] => Var::Nearby,
                    ["Remotest"] => Var::Remotest,
                    [first, ..] if matches!(*first, "this" | "last" | "q" | "p") || path.len() > 1 => {
                        self.error(
                            Diagnostic::error(
                                "E0708",
                                format!("`{}` (a GS5 variable) is not supported", path.join(".")),
                                span,
                            )
                            .label("outside the GS4 core Regula translates")
                            .with_help(
                                "the variables are p, pc, ps, Nearby and Remotest (p.color and p.shape also work)",
                            ),
                        );
                        return Err(Reported);
                    }
                    _ => {
                        let lower = name.to_ascii_lowercase();
                        let suggestion = ["p", "pc", "ps", "Nearby", "Remotest"]
                            .into_iter()
                            .find(|v| v.to_ascii_lowercase() == lower)
                            .map_or(String::new(), |v| format!(" (did you mean `{v}`? names are case-sensitive)"));
                        self.error(
                            Diagnostic::error(
                                "E0709",
                                format!("unknown variable `{name}` in a bucket expression"),
                                span,
                            )
                            .label("not a bucket-expression variable")
                            .with_help(format!("the variables are p, pc, ps, Nearby and Remotest{suggestion}")),
                        );
                        return Err(Reported);
                    }
                };
                Ok(Expr::Var(var, span))
            }
            _ => Err(self.expected("a bucket expression", HELP)),
        }
    }

    fn number(&mut self, negative: bool) -> PResult<Expr> {
        let start = if negative { self.tokens[self.pos - 1].1 } else { self.span() };
        let (Token::Number(text), span) = self.bump() else { unreachable!("checked by the caller") };
        match text.parse::<i64>() {
            Ok(n) if n <= 1_000_000 => Ok(Expr::Num(if negative { -n } else { n }, start.join(span))),
            _ => {
                self.error(
                    Diagnostic::error("E0707", format!("number `{text}` is too large"), span)
                        .label("more than 1000000")
                        .with_help("bucket numbers are taken modulo 4; use a small number"),
                );
                Err(Reported)
            }
        }
    }
}
