//! `<card>` priority lists and `<mode>` hand classes, read from their raw lines, and the
//! compile-time tables built from them: every playable multiset, its class and its signature
//! (what the class comparator looks at), and the comparator evaluated on signature pairs.

use super::deck::Deck;
use super::pattern::{self, Atom, CharTest, Context, Pattern};
use super::syntax::{self, Expr, Stmt};
use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;
use std::collections::{BTreeSet, HashMap};

/// One `name: pair-pattern entries...` line; lines with the same name chain as tie-breaks.
#[derive(Clone, Debug)]
pub struct ListSection {
    pub pair: (Atom, Atom),
    pub entries: Vec<Atom>,
}

#[derive(Clone, Debug)]
pub struct CardList {
    pub name: String,
    pub span: Span,
    pub sections: Vec<ListSection>,
}

#[derive(Clone, Debug)]
pub struct Class {
    pub name: String,
    pub span: Span,
    /// `!name`: a shape that is never playable (it only shadows later classes).
    pub forbidden: bool,
    pub pattern: Pattern,
    pub pattern_span: Span,
    pub list: Option<(String, Span)>,
    pub superclass: Option<(String, Span)>,
    pub comparator: Vec<Stmt>,
}

fn err(code: &'static str, message: impl Into<String>, span: Span, label: &str, help: &str) -> Diagnostic {
    Diagnostic::error(code, message, span).label(label).with_help(help)
}

/// Reads `<card>`: one list line per non-blank line.
pub fn parse_lists(source: &str, start: usize, end: usize, errors: &mut Vec<Diagnostic>) -> Vec<CardList> {
    let mut lists: Vec<CardList> = Vec::new();
    let mut offset = start;
    for line in source[start..end].split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let text = line.split("//").next().unwrap_or("");
        let mut words: Vec<(usize, &str)> = Vec::new();
        let mut i = 0;
        for word in text.split_whitespace() {
            let at = text[i..].find(word).map_or(i, |k| i + k);
            words.push((line_start + at, word));
            i = at + word.len();
        }
        if words.is_empty() {
            continue;
        }
        // `name:` or `name :` opens the line.
        let (name_at, first) = words[0];
        let (name, mut rest) = if let Some(name) = first.strip_suffix(':') {
            (name, 1)
        } else if let Some((name, tail)) = first.split_once(':') {
            if !tail.is_empty() {
                words[0] = (name_at + name.len() + 1, tail);
                (name, 0)
            } else {
                (name, 1)
            }
        } else if words.get(1).map(|w| w.1) == Some(":") {
            (first, 2)
        } else {
            errors.push(err(
                "E0804",
                "a list line must start with `name:`",
                Span::new(name_at, name_at + first.len()),
                "no list name",
                "write `list: ..|.. JB JS .2 .A ...`",
            ));
            continue;
        };
        let name_span = Span::new(name_at, name_at + name.len());
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            errors.push(err(
                "E0804",
                format!("`{name}` is not a list name"),
                name_span,
                "bad name",
                "use letters, digits and `_`",
            ));
            continue;
        }
        let Some(&(pair_at, pair_text)) = words.get(rest) else {
            errors.push(err(
                "E0804",
                "a list needs a pair pattern and entries",
                name_span,
                "nothing follows",
                "write `..|..` (any two cards) then the entries, biggest first",
            ));
            continue;
        };
        rest += 1;
        let pair = pair_text
            .split_once('|')
            .and_then(|(a, b)| Some((pattern::parse_atom(a).ok()?, pattern::parse_atom(b).ok()?)));
        let Some(pair) = pair else {
            errors.push(err(
                "E0805",
                format!("`{pair_text}` is not a pair pattern"),
                Span::new(pair_at, pair_at + pair_text.len()),
                "expected two cards joined by `|`",
                "write `..|..` (any two cards) or `a.|a.` (two cards of one suit)",
            ));
            continue;
        };
        let mut entries = Vec::new();
        for &(at, word) in &words[rest..] {
            match pattern::parse_atom(word) {
                Ok(atom)
                    if !matches!(atom.suit, CharTest::Var { .. }) && !matches!(atom.rank, CharTest::Var { .. }) =>
                {
                    entries.push(atom)
                }
                Ok(_) => errors.push(err(
                    "E0805",
                    format!("list entry `{word}` uses a variable"),
                    Span::new(at, at + word.len()),
                    "variables belong in patterns",
                    "use `.`, a letter, a digit or `%global%`",
                )),
                Err(e) => errors.push(err(
                    "E0805",
                    format!("bad list entry `{word}`: {}", e.message),
                    Span::new(at + e.offset.min(word.len()), at + word.len()),
                    "not a card pattern",
                    "an entry is one card: `JB`, `.2`, `%trump%A`",
                )),
            }
        }
        match lists.iter_mut().find(|l| l.name == name) {
            Some(list) => list.sections.push(ListSection { pair, entries }),
            None => lists.push(CardList {
                name: name.to_string(),
                span: name_span,
                sections: vec![ListSection { pair, entries }],
            }),
        }
    }
    lists
}

/// Reads `<mode>`: `name : pattern : list : superclass : { comparator }` entries.
pub fn parse_classes(source: &str, start: usize, end: usize, errors: &mut Vec<Diagnostic>) -> Vec<Class> {
    let mut classes = Vec::new();
    let bytes = source.as_bytes();
    let mut i = start;
    let skip_blank = |mut i: usize| loop {
        while i < end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if source[i..end].starts_with("//") {
            while i < end && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        return i;
    };
    loop {
        i = skip_blank(i);
        if i >= end {
            break;
        }
        // Four fields separated by `:` outside brackets, then a braced comparator.
        let entry_start = i;
        let mut fields: Vec<(usize, usize)> = Vec::new();
        let mut field_start = i;
        let mut depth = 0i32;
        let mut brace_at = None;
        while i < end {
            let c = bytes[i];
            match c {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'{' if depth == 0 && fields.len() == 4 => {
                    brace_at = Some(i);
                    break;
                }
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b':' if depth == 0 && fields.len() < 4 => {
                    fields.push((field_start, i));
                    field_start = i + 1;
                }
                b'\n' if fields.is_empty() && source[field_start..i].trim().is_empty() => {}
                _ => {}
            }
            i += 1;
        }
        let Some(brace) = brace_at else {
            errors.push(err(
                "E0806",
                "a class needs `name : pattern : list : superclass : { comparator }`",
                Span::new(entry_start, (entry_start + 1).min(end)),
                "incomplete class",
                "give all five parts; leave the superclass empty (`::`) when there is none",
            ));
            break;
        };
        // The comparator: a balanced `{ ... }`.
        let mut depth = 0;
        let mut j = brace;
        while j < end {
            match bytes[j] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        if j >= end {
            errors.push(err(
                "E0806",
                "the comparator's `{` is not closed",
                Span::new(brace, brace + 1),
                "opened here",
                "close the comparator with `}`",
            ));
            break;
        }
        let trimmed = |(s, e): (usize, usize)| {
            let text = &source[s..e];
            let lead = text.len() - text.trim_start().len();
            (s + lead, text.trim(), Span::new(s + lead, s + lead + text.trim().len()))
        };
        let (_, name_text, name_span) = trimmed(fields[0]);
        let (forbidden, name) = match name_text.strip_prefix('!') {
            Some(n) => (true, n.trim()),
            None => (false, name_text),
        };
        let (pattern_at, pattern_text, pattern_span) = trimmed(fields[1]);
        let (_, list_text, list_span) = trimmed(fields[2]);
        let (_, super_text, super_span) = trimmed(fields[3]);
        let mut ok = true;
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            errors.push(err(
                "E0806",
                format!("`{name_text}` is not a class name"),
                name_span,
                "bad name",
                "use letters, digits and `_` (`!name` for a forbidden shape)",
            ));
            ok = false;
        }
        let pattern = match pattern::parse(pattern_text) {
            Ok(p) => Some(p),
            Err(e) => {
                let at = pattern_at + e.offset;
                errors.push(err("E0807", format!("bad card pattern: {}", e.message), Span::new(at, (at + 1).min(pattern_span.end.max(at + 1))), "here", "patterns are cards (`.a`, `JB`, `[^J].`) in groups `( )` with counts `{2}`, `{5+}`, `{2+:c}`, `{c}`"));
                None
            }
        };
        let mut tokens_errors = Vec::new();
        let tokens = syntax::lex(source, brace + 1, j, &mut tokens_errors);
        errors.append(&mut tokens_errors);
        let mut parser = syntax::Parser::new(&tokens, j);
        let comparator = parser.statements_to_end();
        errors.append(&mut parser.errors);
        if let (true, Some(pattern)) = (ok, pattern) {
            classes.push(Class {
                name: name.to_string(),
                span: name_span,
                forbidden,
                pattern,
                pattern_span,
                list: (!list_text.is_empty()).then(|| (list_text.to_string(), list_span)),
                superclass: (!super_text.is_empty()).then(|| (super_text.to_string(), super_span)),
                comparator,
            });
        }
        i = j + 1;
    }
    classes
}

/// Compares two cards with a list: 1 when `a` is bigger, -1 when smaller, 0 when no section
/// tells them apart. A card matching no entry of a section ranks below all its entries.
pub fn compare_cards(list: &CardList, deck: &Deck, a: usize, b: usize, globals: &HashMap<String, char>) -> i32 {
    let (ka, kb) = (&deck.kinds[a], &deck.kinds[b]);
    for section in &list.sections {
        if !pair_matches(&section.pair, (ka.suit, ka.rank), (kb.suit, kb.rank), globals) {
            continue;
        }
        let index = |suit: char, rank: char| {
            section
                .entries
                .iter()
                .position(|e| {
                    e.suit.accepts_fixed(suit, globals).unwrap_or(false)
                        && e.rank.accepts_fixed(rank, globals).unwrap_or(false)
                })
                .unwrap_or(section.entries.len())
        };
        let (ia, ib) = (index(ka.suit, ka.rank), index(kb.suit, kb.rank));
        if ia != ib {
            return if ia < ib { 1 } else { -1 };
        }
    }
    0
}

fn pair_matches(pair: &(Atom, Atom), a: (char, char), b: (char, char), globals: &HashMap<String, char>) -> bool {
    let mut vars: HashMap<char, char> = HashMap::new();
    let mut test = |t: &CharTest, c: char| match t {
        CharTest::Var { name, .. } => *vars.entry(*name).or_insert(c) == c,
        other => other.accepts_fixed(c, globals).unwrap_or(false),
    };
    test(&pair.0.suit, a.0) && test(&pair.0.rank, a.1) && test(&pair.1.suit, b.0) && test(&pair.1.rank, b.1)
}

/// A class's playable multisets that share what its comparator reads.
#[derive(Clone, Debug)]
pub struct Signature {
    pub class: usize,
    pub size: usize,
    /// The kinds at the card positions the comparator reads (`$1(k)`), in `positions` order.
    pub cards: Vec<usize>,
    /// The kind at position 1 of a representative arrangement (for `compare(a, b, "list")`).
    pub first: usize,
    /// Each multiset as (kind, count) steps, biggest groups first.
    pub multisets: Vec<Vec<(usize, u8)>>,
    pub name: String,
}

/// Everything the lowering needs about plays.
pub struct PlayTables {
    pub signatures: Vec<Signature>,
    /// `legal[new][old]`; `old == signatures.len()` stands for NONE (always legal).
    pub legal: Vec<Vec<bool>>,
    /// `compare(a, b)` by the mode rules: 1, -1, 0 or 2 (not comparable).
    pub compare: Vec<Vec<i32>>,
    pub class_of_multiset: HashMap<Vec<u8>, usize>,
}

/// Positions `$1(k)` / `$2(k)` read by a comparator.
fn positions(stmts: &[Stmt]) -> BTreeSet<i64> {
    let mut out = BTreeSet::new();
    fn expr(e: &Expr, out: &mut BTreeSet<i64>) {
        match e {
            Expr::CardAt(_, k, _) => {
                out.insert(*k);
            }
            Expr::Index(a, b, _) | Expr::Binary(_, a, b, _) => {
                expr(a, out);
                expr(b, out);
            }
            Expr::Unary(_, a, _) => expr(a, out),
            Expr::Call(_, args, _) | Expr::Array(args, _) => args.iter().for_each(|a| expr(a, out)),
            _ => {}
        }
    }
    fn stmt(s: &Stmt, out: &mut BTreeSet<i64>) {
        match s {
            Stmt::Decl { init: Some(e), .. } | Stmt::Return { value: Some(e), .. } | Stmt::Expr(e) => expr(e, out),
            Stmt::Assign { value, .. } => expr(value, out),
            Stmt::If { cond, then, otherwise, .. } => {
                expr(cond, out);
                then.iter().chain(otherwise).for_each(|s| stmt(s, out));
            }
            Stmt::While { cond, body, .. } => {
                expr(cond, out);
                body.iter().for_each(|s| stmt(s, out));
            }
            Stmt::For { init, cond, step, body, .. } => {
                cond.iter().for_each(|c| expr(c, out));
                init.iter().chain(step).chain(body).for_each(|s| stmt(s, out));
            }
            Stmt::Switch { cases, .. } => cases.iter().for_each(|(c, b)| {
                c.iter().for_each(|c| expr(c, out));
                b.iter().for_each(|s| stmt(s, out));
            }),
            _ => {}
        }
    }
    stmts.iter().for_each(|s| stmt(s, &mut out));
    out
}

/// A comparator's view of one series.
struct View<'a> {
    size: usize,
    cards: &'a [usize],
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Int(i64),
    Bool(bool),
    Card(usize),
}

struct Eval<'a> {
    deck: &'a Deck,
    list: Option<&'a CardList>,
    positions: &'a [i64],
    globals: &'a HashMap<String, char>,
}

impl Eval<'_> {
    fn run(&self, stmts: &[Stmt], a: &View, b: &View) -> Result<Option<i64>, (Span, String)> {
        for s in stmts {
            match s {
                Stmt::Return { value: Some(e), .. } => match self.expr(e, a, b)? {
                    Val::Int(n) => return Ok(Some(n)),
                    _ => return Err((e_span(e), "a comparator returns 1, -1, 0 or 2".into())),
                },
                Stmt::If { cond, then, otherwise, .. } => {
                    let taken = match self.expr(cond, a, b)? {
                        Val::Bool(t) => t,
                        _ => return Err((e_span(cond), "a condition must be true or false".into())),
                    };
                    if let Some(r) = self.run(if taken { then } else { otherwise }, a, b)? {
                        return Ok(Some(r));
                    }
                }
                Stmt::Switch { cases, .. } => {
                    for (cond, body) in cases {
                        let taken = match cond {
                            None => true,
                            Some(c) => self.expr(c, a, b)? == Val::Bool(true),
                        };
                        if taken {
                            if let Some(r) = self.run(body, a, b)? {
                                return Ok(Some(r));
                            }
                            break;
                        }
                    }
                }
                other => return Err((stmt_span(other), "comparators use only `if`, `switch` and `return`".into())),
            }
        }
        Ok(None)
    }

    fn expr(&self, e: &Expr, a: &View, b: &View) -> Result<Val, (Span, String)> {
        let side = |n: u8| if n == 1 { a } else { b };
        Ok(match e {
            Expr::Int(n, _) => Val::Int(*n),
            Expr::Bool(t, _) => Val::Bool(*t),
            Expr::Size(n, _) => Val::Int(side(*n).size as i64),
            Expr::CardAt(n, k, span) => {
                let index = self.positions.iter().position(|p| p == k).unwrap_or(0);
                match side(*n).cards.get(index) {
                    Some(&kind) if *k >= 1 => Val::Card(kind),
                    _ => return Err((*span, format!("the series has no card {k}"))),
                }
            }
            Expr::Unary("-", x, _) => match self.expr(x, a, b)? {
                Val::Int(n) => Val::Int(-n),
                _ => return Err((e_span(e), "`-` needs a number".into())),
            },
            Expr::Unary(_, x, _) => match self.expr(x, a, b)? {
                Val::Bool(t) => Val::Bool(!t),
                _ => return Err((e_span(e), "`!` needs a condition".into())),
            },
            Expr::Binary(op, l, r, span) => {
                let (l, r) = (self.expr(l, a, b)?, self.expr(r, a, b)?);
                let ordering = match (l, r) {
                    (Val::Int(x), Val::Int(y)) => x.cmp(&y),
                    (Val::Card(x), Val::Card(y)) => {
                        let Some(list) = self.list else {
                            return Err((*span, "comparing cards needs the class's compare list".into()));
                        };
                        compare_cards(list, self.deck, x, y, self.globals).cmp(&0)
                    }
                    (Val::Bool(x), Val::Bool(y)) => match *op {
                        "&&" => return Ok(Val::Bool(x && y)),
                        "||" => return Ok(Val::Bool(x || y)),
                        _ => x.cmp(&y),
                    },
                    _ => return Err((*span, format!("`{op}` between values of different kinds"))),
                };
                use std::cmp::Ordering::*;
                match (*op, l) {
                    ("==", _) => Val::Bool(ordering == Equal),
                    ("!=", _) => Val::Bool(ordering != Equal),
                    ("<", _) => Val::Bool(ordering == Less),
                    ("<=", _) => Val::Bool(ordering != Greater),
                    (">", _) => Val::Bool(ordering == Greater),
                    (">=", _) => Val::Bool(ordering != Less),
                    ("+", Val::Int(x)) => Val::Int(x + as_int(r)),
                    ("-", Val::Int(x)) => Val::Int(x - as_int(r)),
                    ("*", Val::Int(x)) => Val::Int(x * as_int(r)),
                    _ => return Err((*span, format!("`{op}` is not available in comparators"))),
                }
            }
            other => return Err((e_span(other), "comparators read `$1.size`, `$1(k)`, numbers and conditions".into())),
        })
    }
}

fn as_int(v: Val) -> i64 {
    match v {
        Val::Int(n) => n,
        _ => 0,
    }
}

fn e_span(e: &Expr) -> Span {
    e.span()
}

pub fn stmt_span(s: &Stmt) -> Span {
    match s {
        Stmt::Decl { span, .. }
        | Stmt::Assign { span, .. }
        | Stmt::If { span, .. }
        | Stmt::While { span, .. }
        | Stmt::For { span, .. }
        | Stmt::Switch { span, .. }
        | Stmt::Return { span, .. } => *span,
        Stmt::Break(span) => *span,
        Stmt::Expr(e) => e.span(),
    }
}

/// Builds every table of plays: multisets per class (first class in file order wins),
/// signatures, and the comparator on signature pairs.
pub fn build(
    classes: &[Class],
    lists: &[CardList],
    deck: &Deck,
    rank_order: &[char],
    max_cards: usize,
    errors: &mut Vec<Diagnostic>,
) -> PlayTables {
    let no_globals = HashMap::new();
    let copies = deck.copies();
    let mut class_of_multiset: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut signatures: Vec<Signature> = Vec::new();
    let mut class_positions: Vec<Vec<i64>> = Vec::new();
    let mut class_lists: Vec<Option<&CardList>> = Vec::new();
    for (c, class) in classes.iter().enumerate() {
        let list = class.list.as_ref().and_then(|(name, span)| {
            let found = lists.iter().find(|l| &l.name == name);
            if found.is_none() {
                errors.push(err(
                    "E0808",
                    format!("no list named `{name}` in <card>"),
                    *span,
                    "unknown list",
                    "declare it in <card> (`name: ..|.. entries`) or fix the name",
                ));
            }
            found
        });
        if let Some(list) = list {
            if list.sections.iter().any(|s| {
                s.entries.iter().any(|e| matches!(e.suit, CharTest::Global(_)) || matches!(e.rank, CharTest::Global(_)))
            }) {
                errors.push(err(
                    "E0809",
                    format!("list `{}` reads a `%global%`, which a class comparator cannot", list.name),
                    class.list.as_ref().map_or(class.span, |l| l.1),
                    "compared at compile time",
                    "use such lists with `compare(a, b, \"list\")` in the procedure",
                ));
            }
        }
        // `#` steps along the class's list, smallest first: its single-rank entries `.X`.
        let order: Vec<char> = match list {
            Some(list) => {
                let mut order: Vec<char> = list.sections[0]
                    .entries
                    .iter()
                    .filter_map(|e| match (&e.suit, &e.rank) {
                        (CharTest::Any, CharTest::Literal(r)) => Some(*r),
                        _ => None,
                    })
                    .collect();
                order.reverse();
                order
            }
            None => rank_order.to_vec(),
        };
        let context = Context { deck, successor_order: &order, max_cards, available: &copies, globals: &no_globals };
        let generated = pattern::generate(&class.pattern, &context);
        let positions: Vec<i64> = positions(&class.comparator).into_iter().collect();
        let eval = Eval { deck, list, positions: &positions, globals: &no_globals };
        let mut reported_position = false;
        let mut entries: Vec<(Vec<u8>, Vec<pattern::Arrangement>)> = generated.into_iter().collect();
        entries.sort();
        for (multiset, arrangements) in entries {
            if class_of_multiset.contains_key(&multiset) {
                continue;
            }
            class_of_multiset.insert(multiset.clone(), c);
            if class.forbidden {
                continue;
            }
            if let Some(&k) = positions.iter().find(|&&k| k < 1 || k as usize > arrangements[0].len()) {
                if !reported_position {
                    reported_position = true;
                    errors.push(err(
                        "E0810",
                        format!(
                            "a series of this class has {} card(s); `$1({k})` does not exist",
                            arrangements[0].len()
                        ),
                        class.span,
                        "in this class's comparator",
                        "read a position between 1 and the series' size",
                    ));
                }
            }
            // The strongest reading of an ambiguous multiset is the one played.
            let views: Vec<Vec<usize>> = arrangements
                .iter()
                .map(|arr| {
                    positions.iter().map(|&k| arr.get((k.max(1) - 1) as usize).copied().unwrap_or(arr[0])).collect()
                })
                .collect();
            let size = arrangements[0].len();
            let mut best = 0;
            for i in 1..views.len() {
                let r =
                    eval.run(&class.comparator, &View { size, cards: &views[i] }, &View { size, cards: &views[best] });
                if let Ok(Some(1)) = r {
                    best = i;
                }
            }
            let cards = views[best].clone();
            let steps = steps_of(&multiset);
            match signatures.iter_mut().find(|s| s.class == c && s.size == size && s.cards == cards) {
                Some(sig) => sig.multisets.push(steps),
                None => signatures.push(Signature {
                    class: c,
                    size,
                    cards,
                    first: arrangements[best][0],
                    multisets: vec![steps],
                    name: String::new(),
                }),
            }
        }
        class_positions.push(positions);
        class_lists.push(list);
    }
    let mut per_class = vec![0usize; classes.len()];
    for sig in &mut signatures {
        sig.name = format!("{}_{}", classes[sig.class].name, per_class[sig.class]);
        per_class[sig.class] += 1;
    }
    // Superclass chains.
    let index_of = |name: &str| classes.iter().position(|c| c.name == name);
    let mut parent: Vec<Option<usize>> = vec![None; classes.len()];
    for (c, class) in classes.iter().enumerate() {
        if let Some((name, span)) = &class.superclass {
            match index_of(name) {
                Some(p) => parent[c] = Some(p),
                None => errors.push(err(
                    "E0808",
                    format!("no class named `{name}`"),
                    *span,
                    "unknown superclass",
                    "name a class of <mode>, or leave the field empty",
                )),
            }
        }
    }
    let ancestor = |a: usize, mut b: usize| {
        let mut steps = 0;
        while let Some(p) = parent[b] {
            if p == a {
                return true;
            }
            b = p;
            steps += 1;
            if steps > classes.len() {
                return false;
            }
        }
        false
    };
    let n = signatures.len();
    let mut compare = vec![vec![2; n]; n];
    let mut reported = vec![false; classes.len()];
    for i in 0..n {
        for j in 0..n {
            let (si, sj) = (&signatures[i], &signatures[j]);
            compare[i][j] = if si.class == sj.class {
                let c = si.class;
                let eval = Eval { deck, list: class_lists[c], positions: &class_positions[c], globals: &no_globals };
                match eval.run(
                    &classes[c].comparator,
                    &View { size: si.size, cards: &si.cards },
                    &View { size: sj.size, cards: &sj.cards },
                ) {
                    Ok(Some(r)) if [-1, 0, 1, 2].contains(&r) => r as i32,
                    Ok(Some(_)) | Ok(None) => 0,
                    Err((span, message)) => {
                        if !reported[c] {
                            reported[c] = true;
                            errors.push(err(
                                "E0810",
                                message,
                                span,
                                "in this comparator",
                                "a comparator reads `$1.size`, `$1(k)` and returns 1, -1, 0 or 2",
                            ));
                        }
                        2
                    }
                }
            } else if ancestor(si.class, sj.class) {
                1
            } else if ancestor(sj.class, si.class) {
                -1
            } else {
                2
            };
        }
    }
    let mut legal = vec![vec![false; n + 1]; n];
    for i in 0..n {
        for j in 0..n {
            legal[i][j] = compare[i][j] == 1;
        }
        legal[i][n] = true;
    }
    PlayTables { signatures, legal, compare, class_of_multiset }
}

/// A multiset as (kind, count) steps: biggest groups first, then by kind. Putting the big groups
/// (a bomb's four, an airplane's trios) first lets a play search fail on them before it tries kickers.
pub fn steps_of(multiset: &[u8]) -> Vec<(usize, u8)> {
    let mut steps: Vec<(usize, u8)> =
        multiset.iter().enumerate().filter(|(_, &c)| c > 0).map(|(k, &c)| (k, c)).collect();
    steps.sort_by_key(|&(k, c)| (std::cmp::Reverse(c), k));
    steps
}
