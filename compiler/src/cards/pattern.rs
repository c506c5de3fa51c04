//! Card patterns: the seed's regular-expression dialect over 2-character cards, parsed and
//! compiled (by exhaustive generation) into compile-time tables of card multisets.
//!
//! Reading used (spec/cards.md §Patterns): a pattern is a sequence of card atoms and groups.
//! A series matches when its cards, kept in groups of equal cards, can be laid out in *some*
//! order of the groups so that the pattern consumes them exactly. Generating instead of matching
//! gives every multiset a class can hold, bounded by the deck and the largest play.

use super::deck::Deck;
use std::collections::HashMap;

/// What one character position of a card atom accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CharTest {
    /// `.`
    Any,
    /// `H`, `0`, `B`
    Literal(char),
    /// `[HD]` or `[^J]`
    Set { chars: Vec<char>, negated: bool },
    /// `a`, `a$`, `a#`
    Var { name: char, mark: Mark },
    /// `%name%`: the current value of a global variable (a one-character string).
    Global(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// First occurrence binds, later ones must be equal.
    Plain,
    /// `$`: takes a new value, different from the one bound before.
    Rebind,
    /// `#`: the successor of the value bound before (binds on first occurrence).
    Successor,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub suit: CharTest,
    pub rank: CharTest,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    Exactly(u32),
    AtLeast { min: u32, capture: Option<char> },
    /// `{c}`: as many as a count variable captured earlier.
    Variable(char),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Atom(Atom),
    /// A parenthesised group: alternatives (`||`) of sequences, repeated `count` times.
    Group { alternatives: Vec<Vec<Node>>, count: Count },
}

/// A parsed pattern: alternatives of sequences (top-level `||` allowed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub alternatives: Vec<Vec<Node>>,
}

/// A parse error at a byte offset within the pattern text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pub offset: usize,
    pub message: String,
}

pub fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut parser = Parser { chars: text.char_indices().collect(), at: 0, len: text.len() };
    let alternatives = parser.alternatives()?;
    if parser.at < parser.chars.len() {
        return Err(parser.error("unexpected character"));
    }
    if alternatives.iter().all(Vec::is_empty) {
        return Err(PatternError { offset: 0, message: "empty pattern".into() });
    }
    Ok(Pattern { alternatives })
}

/// Parses the single-card pattern of a priority-list entry (`JB`, `.2`, `%trump%A`).
pub fn parse_atom(text: &str) -> Result<Atom, PatternError> {
    let mut parser = Parser { chars: text.char_indices().collect(), at: 0, len: text.len() };
    let atom = parser.atom()?;
    if parser.at < parser.chars.len() {
        return Err(parser.error("a list entry is one card: two character positions"));
    }
    Ok(atom)
}

struct Parser {
    chars: Vec<(usize, char)>,
    at: usize,
    len: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|&(_, c)| c)
    }
    fn peek2(&self) -> Option<char> {
        self.chars.get(self.at + 1).map(|&(_, c)| c)
    }
    fn offset(&self) -> usize {
        self.chars.get(self.at).map_or(self.len, |&(o, _)| o)
    }
    fn error(&self, message: &str) -> PatternError {
        PatternError { offset: self.offset(), message: message.into() }
    }

    fn alternatives(&mut self) -> Result<Vec<Vec<Node>>, PatternError> {
        let mut alternatives = vec![self.sequence()?];
        while self.peek() == Some('|') && self.peek2() == Some('|') {
            self.at += 2;
            alternatives.push(self.sequence()?);
        }
        Ok(alternatives)
    }

    fn sequence(&mut self) -> Result<Vec<Node>, PatternError> {
        let mut nodes = Vec::new();
        while let Some(c) = self.peek() {
            if c == ')' || c == '|' {
                break;
            }
            if c.is_whitespace() {
                self.at += 1;
                continue;
            }
            let node = if c == '(' {
                self.at += 1;
                let alternatives = self.alternatives()?;
                if self.peek() != Some(')') {
                    return Err(self.error("`(` is not closed"));
                }
                self.at += 1;
                if alternatives.iter().any(Vec::is_empty) {
                    return Err(self.error("empty group"));
                }
                let count = self.count()?;
                Node::Group { alternatives, count }
            } else {
                let atom = self.atom()?;
                match self.count()? {
                    Count::Exactly(1) => Node::Atom(atom),
                    count => Node::Group { alternatives: vec![vec![Node::Atom(atom)]], count },
                }
            };
            nodes.push(node);
        }
        Ok(nodes)
    }

    fn count(&mut self) -> Result<Count, PatternError> {
        if self.peek() != Some('{') {
            return Ok(Count::Exactly(1));
        }
        self.at += 1;
        let count = if let Some(c) = self.peek().filter(char::is_ascii_lowercase) {
            self.at += 1;
            Count::Variable(c)
        } else {
            let mut digits = String::new();
            while let Some(d) = self.peek().filter(char::is_ascii_digit) {
                digits.push(d);
                self.at += 1;
            }
            let n: u32 = digits.parse().map_err(|_| self.error("expected a count such as `{2}`, `{2+}`, `{2+:c}` or `{c}`"))?;
            if self.peek() == Some('+') {
                self.at += 1;
                let capture = if self.peek() == Some(':') {
                    self.at += 1;
                    let c = self.peek().filter(char::is_ascii_lowercase).ok_or_else(|| self.error("expected a count variable"))?;
                    self.at += 1;
                    Some(c)
                } else {
                    None
                };
                Count::AtLeast { min: n, capture }
            } else {
                Count::Exactly(n)
            }
        };
        if self.peek() != Some('}') {
            return Err(self.error("expected `}` closing the count"));
        }
        self.at += 1;
        Ok(count)
    }

    fn atom(&mut self) -> Result<Atom, PatternError> {
        let suit = self.position()?;
        let rank = self.position()?;
        Ok(Atom { suit, rank })
    }

    fn position(&mut self) -> Result<CharTest, PatternError> {
        let Some(c) = self.peek() else { return Err(self.error("a card needs two character positions")) };
        self.at += 1;
        Ok(match c {
            '.' => CharTest::Any,
            '[' => {
                let negated = self.peek() == Some('^');
                if negated {
                    self.at += 1;
                }
                let mut chars = Vec::new();
                loop {
                    match self.peek() {
                        Some(']') => break,
                        Some(ch) if ch.is_ascii_uppercase() || ch.is_ascii_digit() => chars.push(ch),
                        _ => return Err(self.error("a `[...]` set holds upper-case letters and digits and ends with `]`")),
                    }
                    self.at += 1;
                }
                self.at += 1;
                CharTest::Set { chars, negated }
            }
            '%' => {
                let mut name = String::new();
                while let Some(ch) = self.peek().filter(|&ch| ch != '%') {
                    name.push(ch);
                    self.at += 1;
                }
                if self.peek() != Some('%') || name.is_empty() {
                    return Err(self.error("expected `%name%`"));
                }
                self.at += 1;
                CharTest::Global(name)
            }
            c if c.is_ascii_lowercase() => {
                let mark = match self.peek() {
                    Some('$') => Mark::Rebind,
                    Some('#') => Mark::Successor,
                    _ => Mark::Plain,
                };
                if mark != Mark::Plain {
                    self.at += 1;
                }
                CharTest::Var { name: c, mark }
            }
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => CharTest::Literal(c),
            _ => {
                self.at -= 1;
                return Err(self.error("not a card character: use `.`, `[..]`, a letter, a digit or `%var%`"));
            }
        })
    }
}

impl CharTest {
    /// Whether the test can be decided by the character alone (no variables).
    pub fn accepts_fixed(&self, c: char, globals: &HashMap<String, char>) -> Option<bool> {
        match self {
            CharTest::Any => Some(true),
            CharTest::Literal(l) => Some(*l == c),
            CharTest::Set { chars, negated } => Some(chars.contains(&c) != *negated),
            CharTest::Global(name) => globals.get(name).map(|&g| g == c),
            CharTest::Var { .. } => None,
        }
    }
}

impl Pattern {
    /// Every `%name%` the pattern reads.
    pub fn globals(&self) -> Vec<String> {
        let mut out = Vec::new();
        fn walk(nodes: &[Node], out: &mut Vec<String>) {
            for node in nodes {
                match node {
                    Node::Atom(atom) => {
                        for test in [&atom.suit, &atom.rank] {
                            if let CharTest::Global(g) = test {
                                if !out.contains(g) {
                                    out.push(g.clone());
                                }
                            }
                        }
                    }
                    Node::Group { alternatives, .. } => alternatives.iter().for_each(|a| walk(a, out)),
                }
            }
        }
        self.alternatives.iter().for_each(|a| walk(a, &mut out));
        out
    }

    /// The atoms of the pattern, in order (for deciding whether suits matter).
    pub fn atoms(&self) -> Vec<&Atom> {
        let mut out = Vec::new();
        fn walk<'a>(nodes: &'a [Node], out: &mut Vec<&'a Atom>) {
            for node in nodes {
                match node {
                    Node::Atom(atom) => out.push(atom),
                    Node::Group { alternatives, .. } => alternatives.iter().for_each(|a| walk(a, out)),
                }
            }
        }
        self.alternatives.iter().for_each(|a| walk(a, &mut out));
        out
    }
}

/// What generation may use: the deck's kinds, the order `#` steps along, the largest series, and
/// the values of `%globals%`.
pub struct Context<'a> {
    pub deck: &'a Deck,
    /// Rank (or suit) characters from smallest to biggest: `#` steps to the next one.
    pub successor_order: &'a [char],
    pub max_cards: usize,
    /// Copies of each kind available (usually the deck's counts).
    pub available: &'a [u8],
    pub globals: &'a HashMap<String, char>,
}

/// One way a multiset matched: the kinds in the order the pattern consumed them.
pub type Arrangement = Vec<usize>;

/// Every multiset (as counts per kind) the pattern generates, with every arrangement found.
pub fn generate(pattern: &Pattern, context: &Context) -> HashMap<Vec<u8>, Vec<Arrangement>> {
    let mut state = State {
        sequence: Vec::new(),
        counts: vec![0; context.deck.kinds.len()],
        chars: [None; 26],
        rank_vars: [false; 26],
        numbers: [None; 26],
    };
    let mut out: HashMap<Vec<u8>, Vec<Arrangement>> = HashMap::new();
    for alternative in &pattern.alternatives {
        let mut gen = Generator { context, out: &mut out };
        gen.walk(alternative, &mut state, &mut |state: &mut State, out: &mut HashMap<Vec<u8>, Vec<Arrangement>>| {
            let arrangements = out.entry(state.counts.clone()).or_default();
            if !arrangements.contains(&state.sequence) {
                arrangements.push(state.sequence.clone());
            }
        });
    }
    out
}

/// Whether a series (counts per kind) matches the pattern; `Some(arrangement)` when it does.
pub fn matches(pattern: &Pattern, context: &Context, series: &[u8]) -> Option<Arrangement> {
    let size: usize = series.iter().map(|&c| c as usize).sum();
    let restricted = Context { available: series, max_cards: size, ..*context };
    generate(pattern, &restricted).remove(series).and_then(|mut v| v.drain(..).next())
}

struct State {
    sequence: Vec<usize>,
    counts: Vec<u8>,
    chars: [Option<char>; 26],
    /// Which character variables have been bound in a rank position.
    rank_vars: [bool; 26],
    numbers: [Option<u32>; 26],
}

type Sink<'k> = dyn FnMut(&mut State, &mut HashMap<Vec<u8>, Vec<Arrangement>>) + 'k;

struct Generator<'c, 'o> {
    context: &'c Context<'c>,
    out: &'o mut HashMap<Vec<u8>, Vec<Arrangement>>,
}

impl Generator<'_, '_> {
    fn walk(&mut self, nodes: &[Node], state: &mut State, done: &mut Sink) {
        let Some((first, rest)) = nodes.split_first() else {
            done(state, self.out);
            return;
        };
        match first {
            Node::Atom(atom) => {
                for kind in 0..self.context.deck.kinds.len() {
                    if state.counts[kind] >= self.context.available[kind]
                        || state.sequence.len() >= self.context.max_cards
                    {
                        continue;
                    }
                    // Groups of equal cards stay together: a kind seen before must be the last one.
                    if state.counts[kind] > 0 && state.sequence.last() != Some(&kind) {
                        continue;
                    }
                    let saved = state.chars;
                    if !self.bind(atom, kind, state) {
                        state.chars = saved;
                        continue;
                    }
                    state.sequence.push(kind);
                    state.counts[kind] += 1;
                    self.walk(rest, state, done);
                    state.counts[kind] -= 1;
                    state.sequence.pop();
                    state.chars = saved;
                }
            }
            Node::Group { alternatives, count } => {
                let (min, max, capture) = match count {
                    Count::Exactly(n) => (*n, Some(*n), None),
                    Count::AtLeast { min, capture } => (*min, None, *capture),
                    Count::Variable(v) => match state.numbers[(*v as u8 - b'a') as usize] {
                        Some(n) => (n, Some(n), None),
                        None => return,
                    },
                };
                self.repeat(alternatives, 0, min, max, capture, rest, state, done);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn repeat(
        &mut self,
        alternatives: &[Vec<Node>],
        done_count: u32,
        min: u32,
        max: Option<u32>,
        capture: Option<char>,
        rest: &[Node],
        state: &mut State,
        done: &mut Sink,
    ) {
        if done_count >= min {
            let slot = capture.map(|c| (c as u8 - b'a') as usize);
            let saved = slot.map(|s| state.numbers[s]);
            if let Some(s) = slot {
                state.numbers[s] = Some(done_count);
            }
            self.walk(rest, state, done);
            if let (Some(s), Some(v)) = (slot, saved) {
                state.numbers[s] = v;
            }
        }
        if max.is_some_and(|m| done_count >= m) || state.sequence.len() >= self.context.max_cards {
            return;
        }
        let context = self.context;
        for alternative in alternatives {
            let before = state.sequence.len();
            self.walk(alternative, state, &mut |state: &mut State, out: &mut HashMap<Vec<u8>, Vec<Arrangement>>| {
                // Every repetition consumes at least one card, so the recursion ends.
                if state.sequence.len() > before {
                    let mut inner = Generator { context, out };
                    inner.repeat(alternatives, done_count + 1, min, max, capture, rest, state, done);
                }
            });
        }
    }

    fn bind(&self, atom: &Atom, kind: usize, state: &mut State) -> bool {
        let k = &self.context.deck.kinds[kind];
        // A rank left free (`.`, a set, a literal) stands for a card that no rank variable
        // currently describes: wings and kickers never extend the structure they hang on.
        if !matches!(atom.rank, CharTest::Var { .. })
            && state.rank_vars.iter().zip(&state.chars).any(|(&is_rank, &bound)| is_rank && bound == Some(k.rank))
        {
            return false;
        }
        if let CharTest::Var { name, .. } = atom.rank {
            state.rank_vars[(name as u8 - b'a') as usize] = true;
        }
        self.test(&atom.suit, k.suit, state) && self.test(&atom.rank, k.rank, state)
    }

    fn test(&self, test: &CharTest, c: char, state: &mut State) -> bool {
        match test {
            CharTest::Var { name, mark } => {
                let slot = (*name as u8 - b'a') as usize;
                let order = self.context.successor_order;
                let ok = match (mark, state.chars[slot]) {
                    (Mark::Successor, None) => order.contains(&c),
                    (_, None) => true,
                    (Mark::Plain, Some(bound)) => bound == c,
                    (Mark::Rebind, Some(bound)) => bound != c,
                    (Mark::Successor, Some(bound)) => {
                        order.iter().position(|&o| o == bound).and_then(|i| order.get(i + 1)) == Some(&c)
                    }
                };
                if ok {
                    state.chars[slot] = Some(c);
                }
                ok
            }
            other => other.accepts_fixed(c, self.context.globals).unwrap_or(false),
        }
    }
}
