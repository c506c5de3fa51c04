//! The card rule language (`.cards`, seed 000): sections `<config> <var> <func> <card> <mode>
//! <body> <end>`, card patterns, hand classes and a C-like procedure, translated to RG.
//! The reading of the seed (its typos and open points) is `spec/cards.md`.

pub mod classes;
pub mod deck;
pub mod lower;
pub mod pattern;
pub mod syntax;

use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;
use crate::Loaded;
use classes::{CardList, Class, PlayTables};
use deck::Deck;
use pattern::CharTest;
use syntax::{Expr, Function, Stmt};

/// `<config>` settings, with their defaults (spec/cards.md §Config).
#[derive(Clone, Debug)]
pub struct Config {
    pub players: usize,
    pub packs: u8,
    pub suits: Vec<char>,
    /// Ranks in canonical order (smallest first for `#` when a class has no list).
    pub ranks: Vec<char>,
    pub jokers: bool,
    /// The largest series a class table holds.
    pub max_cards: usize,
    pub int_min: i64,
    /// Scores are the points themselves (`-5` is a negative RG numeral, spec/rg-format.md §7).
    pub int_max: i64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 3,
            packs: 1,
            suits: "HDSC".chars().collect(),
            ranks: "A234567890JQK".chars().collect(),
            jokers: true,
            max_cards: 20,
            int_min: -16,
            int_max: 16,
        }
    }
}

/// A parsed card program.
pub struct Program {
    pub config: Config,
    pub globals: Vec<Stmt>,
    pub functions: Vec<Function>,
    pub lists: Vec<CardList>,
    pub classes: Vec<Class>,
    pub body: Vec<Stmt>,
    pub end: Vec<Stmt>,
    pub body_span: Span,
}

/// The `%globals%` a list reads, in order of first use.
pub fn list_globals(list: &CardList) -> Vec<String> {
    let mut out = Vec::new();
    for section in &list.sections {
        for atom in section.entries.iter().chain([&section.pair.0, &section.pair.1]) {
            for t in [&atom.suit, &atom.rank] {
                if let CharTest::Global(g) = t {
                    if !out.contains(g) {
                        out.push(g.clone());
                    }
                }
            }
        }
    }
    out
}

fn err(code: &'static str, message: impl Into<String>, span: Span, label: &str, help: &str) -> Diagnostic {
    Diagnostic::error(code, message, span).label(label).with_help(help)
}

/// Parses every section of a card program.
pub fn parse(source: &str) -> Result<Program, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let sections = syntax::sections(source, &mut errors);
    let mut program = Program {
        config: Config::default(),
        globals: Vec::new(),
        functions: Vec::new(),
        lists: Vec::new(),
        classes: Vec::new(),
        body: Vec::new(),
        end: Vec::new(),
        body_span: Span::default(),
    };
    for section in &sections {
        let tokens = || {
            let mut lex_errors = Vec::new();
            let tokens = syntax::lex(source, section.start, section.end, &mut lex_errors);
            (tokens, lex_errors)
        };
        match section.name.as_str() {
            "config" => {
                let (tokens, mut e) = tokens();
                errors.append(&mut e);
                let mut parser = syntax::Parser::new(&tokens, section.end);
                let items = parser.config();
                errors.append(&mut parser.errors);
                for (key, span, value) in items {
                    let number = match &value {
                        Expr::Int(n, _) => Some(*n),
                        Expr::Unary("-", inner, _) => match **inner {
                            Expr::Int(n, _) => Some(-n),
                            _ => None,
                        },
                        _ => None,
                    };
                    let text = match &value {
                        Expr::Str(s, _) => Some(s.clone()),
                        _ => None,
                    };
                    let boolean = match &value {
                        Expr::Bool(b, _) => Some(*b),
                        _ => None,
                    };
                    let c = &mut program.config;
                    let ok = match (key.as_str(), number, text, boolean) {
                        ("players" | "player_number", Some(n), _, _) if (1..=8).contains(&n) => {
                            c.players = n as usize;
                            true
                        }
                        ("packs" | "cards", Some(n), _, _) if (1..=4).contains(&n) => {
                            c.packs = n as u8;
                            true
                        }
                        ("suits", _, Some(s), _) if !s.is_empty() && s.chars().all(|c| c.is_ascii_uppercase()) => {
                            c.suits = s.chars().collect();
                            true
                        }
                        ("ranks", _, Some(s), _)
                            if !s.is_empty() && s.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) =>
                        {
                            c.ranks = s.chars().collect();
                            true
                        }
                        ("jokers", _, _, Some(b)) => {
                            c.jokers = b;
                            true
                        }
                        ("max_cards", Some(n), _, _) if (1..=60).contains(&n) => {
                            c.max_cards = n as usize;
                            true
                        }
                        ("int_min", Some(n), _, _) if (-200..=0).contains(&n) => {
                            c.int_min = n;
                            true
                        }
                        ("int_max", Some(n), _, _) if (1..=200).contains(&n) => {
                            c.int_max = n;
                            true
                        }
                        _ => false,
                    };
                    if !ok {
                        errors.push(err("E0822", format!("bad setting `{key}`"), span.join(value.span()), "unknown key or value out of range", "keys: players (1-8), packs (1-4), suits \"HDSC\", ranks \"34567890JQKA2\", jokers true/false, max_cards, int_min, int_max"));
                    }
                }
            }
            "var" => {
                let (tokens, mut e) = tokens();
                errors.append(&mut e);
                let mut parser = syntax::Parser::new(&tokens, section.end);
                program.globals = parser.statements_to_end();
                errors.append(&mut parser.errors);
            }
            "func" => {
                let (tokens, mut e) = tokens();
                errors.append(&mut e);
                let mut parser = syntax::Parser::new(&tokens, section.end);
                program.functions = parser.functions_to_end();
                errors.append(&mut parser.errors);
            }
            "card" => program.lists = classes::parse_lists(source, section.start, section.end, &mut errors),
            "mode" => program.classes = classes::parse_classes(source, section.start, section.end, &mut errors),
            "body" | "end" => {
                let (tokens, mut e) = tokens();
                errors.append(&mut e);
                let mut parser = syntax::Parser::new(&tokens, section.end);
                let stmts = parser.statements_to_end();
                errors.append(&mut parser.errors);
                if section.name == "body" {
                    program.body = stmts;
                    program.body_span = section.name_span;
                } else {
                    program.end = stmts;
                }
            }
            _ => {}
        }
    }
    if !sections.iter().any(|s| s.name == "body") && errors.is_empty() {
        errors.push(err(
            "E0803",
            "a card program needs a <body> section",
            Span::new(0, 0),
            "no <body>",
            "add `<body> ... </body>` with the game's procedure",
        ));
    }
    if errors.is_empty() {
        Ok(program)
    } else {
        Err(errors)
    }
}

/// Whether some pattern or list tells two cards of one rank apart (so hands count cards, not ranks).
fn suits_matter(program: &Program) -> bool {
    let c = &program.config;
    let mut tests: Vec<&CharTest> = Vec::new();
    for class in &program.classes {
        tests.extend(class.pattern.atoms().into_iter().map(|a| &a.suit));
    }
    for list in &program.lists {
        for section in &list.sections {
            tests.extend(section.entries.iter().chain([&section.pair.0, &section.pair.1]).map(|a| &a.suit));
        }
    }
    let no_globals = std::collections::HashMap::new();
    tests.into_iter().any(|t| match t {
        CharTest::Any => false,
        CharTest::Var { .. } | CharTest::Global(_) => true,
        fixed => c.ranks.iter().any(|_| {
            let results: Vec<bool> =
                c.suits.iter().map(|&s| fixed.accepts_fixed(s, &no_globals).unwrap_or(false)).collect();
            results.iter().any(|&r| r != results[0])
        }),
    })
}

/// The deck, the play tables and the RG text of a parsed program.
pub fn translate(program: &Program) -> Result<(Deck, PlayTables, String), Vec<Diagnostic>> {
    let c = &program.config;
    let deck = Deck::new(&c.suits, &c.ranks, c.jokers, c.packs, suits_matter(program));
    let mut errors = Vec::new();
    let tables = classes::build(&program.classes, &program.lists, &deck, &c.ranks, c.max_cards, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut gen = lower::Gen::new(program, &deck, &tables);
    gen.declare_globals(&program.globals);
    let body_end = gen.stmts(&program.body, "begin".to_string());
    let end = body_end.and_then(|at| gen.stmts(&program.end, at));
    if end.is_none() && gen.errors.is_empty() {
        gen.errors.push(err(
            "E0817",
            "the procedure never reaches its end",
            program.body_span,
            "in this body",
            "make sure <body> and <end> can finish",
        ));
    }
    if !gen.errors.is_empty() {
        return Err(gen.errors);
    }
    let text = gen.finish(end);
    Ok((deck, tables, text))
}

/// Translates a card program to RG text (for `--emit rg`-style inspection and tests).
pub fn to_rg_text(source: &str) -> Result<String, Vec<Diagnostic>> {
    let program = parse(source)?;
    translate(&program).map(|(_, _, text)| text)
}

/// Parses, translates and compiles a card program.
pub fn compile(source: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let program = parse(source)?;
    let (_, _, text) = translate(&program)?;
    let game = crate::rg::parse(&text).map_err(|d| internal(&text, d))?;
    crate::rg::compile_game(game).map_err(|d| internal(&text, d))
}

/// A generated RG text that does not validate is a translator bug: say so, with the first cause.
fn internal(text: &str, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let first = diagnostics.iter().find(|d| d.is_error()).or(diagnostics.first());
    let detail = first.map_or(String::new(), |d| {
        let s = d.primary.span;
        let snippet: String = text.get(s.start..s.end.min(s.start + 80)).unwrap_or("").to_string();
        format!("{} [{}] at `{snippet}`", d.message, d.code)
    });
    vec![Diagnostic::error("E0821", format!("the translated game does not validate: {detail}"), Span::new(0, 0))
        .label("translator")
        .with_help("this is a translator bug; please report the program")]
}
