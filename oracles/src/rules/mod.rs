//! Independent Rule Game ("Game of Hidden Rules") engine for cross-checking `games/rules-*`:
//! plain Rust written from the rule description (spec/rules.md §2-3), with each rule set coded
//! by hand in [`sets`] (bucket expressions as Rust closures, orders as rank functions), so it
//! shares nothing with the compiler's parser, evaluator or translation.

pub mod sets;

use std::collections::HashSet;

/// A bucket function: the buckets (any integers; taken modulo 4) an atom allows.
pub type Buckets = fn(Ctx) -> Vec<i32>;

/// What a bucket expression can read.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    pub p: Option<i32>,
    pub pc: Option<i32>,
    pub ps: Option<i32>,
    pub cell: u8,
}

impl Ctx {
    /// The bucket nearest the cell: the corner of its quadrant (0 top-left, 1 top-right, 2
    /// bottom-right, 3 bottom-left; rows counted from the bottom).
    pub fn nearby(&self) -> i32 {
        let (row, col) = ((self.cell - 1) / 6 + 1, (self.cell - 1) % 6 + 1);
        match (row > 3, col > 3) {
            (true, false) => 0,
            (true, true) => 1,
            (false, true) => 2,
            (false, false) => 3,
        }
    }

    /// The bucket diagonally opposite the nearest one.
    pub fn remotest(&self) -> i32 {
        (self.nearby() + 2) % 4
    }
}

/// Where an atom lets a piece be taken from.
#[derive(Clone, Debug)]
pub enum Place {
    Cell(u8),
    /// An order as a rank per cell (lower first, equal = tied): the piece must have no occupied
    /// cell ranked strictly before it.
    Ranked(fn(u8) -> u32),
}

#[derive(Clone, Debug)]
pub struct Atom {
    pub count: Option<u32>,
    pub shapes: Option<Vec<&'static str>>,
    pub colors: Option<Vec<&'static str>>,
    pub places: Option<Vec<Place>>,
    pub buckets: Option<Buckets>,
}

#[derive(Clone, Debug)]
pub struct Line {
    pub count: Option<u32>,
    pub atoms: Vec<Atom>,
}

#[derive(Clone, Debug)]
pub enum Start {
    Fixed(Vec<(u8, &'static str, &'static str)>),
    /// `random` places `count` pieces one at a time on free listed cells, any shape and colour.
    Random {
        count: u32,
        cells: Vec<u8>,
        shapes: Vec<&'static str>,
        colors: Vec<&'static str>,
    },
}

#[derive(Clone, Debug)]
pub struct RuleSet {
    pub lines: Vec<Line>,
    pub start: Start,
    /// `Some(cap)`: every (piece, bucket) may be attempted and `cap` refusals end the game.
    pub attempts: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Placing(u32),
    Playing,
    Over(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Piece on each cell 1..=36 (index 0 unused).
    pub board: Vec<Option<(&'static str, &'static str)>>,
    pub p: Option<i32>,
    pub by_color: Vec<(&'static str, i32)>,
    pub by_shape: Vec<(&'static str, i32)>,
    pub line: usize,
    pub line_left: Vec<Option<u32>>,
    pub atom_left: Vec<Vec<Option<u32>>>,
    pub errors: u32,
    pub phase: Phase,
}

/// What happened to one attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Accept,
    Deny,
    Immovable,
}

/// The reward for clearing the board after `errors` refusals: 100 / (1 + e^(errors - 2)), rounded.
pub fn reward(errors: u32) -> u32 {
    (100.0 / (1.0 + (errors as f64 - 2.0).exp())).round() as u32
}

fn lookup(list: &[(&'static str, i32)], key: &str) -> Option<i32> {
    list.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

fn remember(list: &mut Vec<(&'static str, i32)>, key: &'static str, value: i32) {
    list.retain(|(k, _)| *k != key);
    list.push((key, value));
    list.sort_unstable();
}

impl RuleSet {
    pub fn initial(&self) -> State {
        let mut state = State {
            board: vec![None; 37],
            p: None,
            by_color: Vec::new(),
            by_shape: Vec::new(),
            line: 0,
            line_left: self.lines.iter().map(|l| l.count).collect(),
            atom_left: self.lines.iter().map(|l| l.atoms.iter().map(|a| a.count).collect()).collect(),
            errors: 0,
            phase: Phase::Playing,
        };
        match &self.start {
            Start::Fixed(pieces) => {
                for &(cell, shape, color) in pieces {
                    state.board[cell as usize] = Some((shape, color));
                }
                self.settle(&mut state);
            }
            Start::Random { .. } => state.phase = Phase::Placing(0),
        }
        state
    }

    fn atom_accepts(&self, state: &State, line: usize, index: usize, cell: u8, bucket: i32) -> bool {
        let atom = &self.lines[line].atoms[index];
        let Some((shape, color)) = state.board[cell as usize] else { return false };
        if state.atom_left[line][index] == Some(0) {
            return false;
        }
        if atom.shapes.as_ref().is_some_and(|s| !s.contains(&shape)) {
            return false;
        }
        if atom.colors.as_ref().is_some_and(|c| !c.contains(&color)) {
            return false;
        }
        if let Some(places) = &atom.places {
            let placed = places.iter().any(|place| match place {
                Place::Cell(c) => *c == cell,
                Place::Ranked(rank) => (1..=36u8).all(|o| state.board[o as usize].is_none() || rank(o) >= rank(cell)),
            });
            if !placed {
                return false;
            }
        }
        match atom.buckets {
            None => true,
            Some(f) => {
                let ctx =
                    Ctx { p: state.p, pc: lookup(&state.by_color, color), ps: lookup(&state.by_shape, shape), cell };
                f(ctx).iter().any(|b| b.rem_euclid(4) == bucket)
            }
        }
    }

    /// Whether the active line accepts moving the piece on `cell` to `bucket`.
    pub fn accepts(&self, state: &State, cell: u8, bucket: i32) -> bool {
        let line = state.line;
        state.line_left[line] != Some(0)
            && (0..self.lines[line].atoms.len()).any(|i| self.atom_accepts(state, line, i, cell, bucket))
    }

    fn any_move(&self, state: &State) -> bool {
        (1..=36u8).any(|cell| (0..4).any(|bucket| self.accepts(state, cell, bucket)))
    }

    /// After a change: the game ends on an empty board; control passes from a line under which no
    /// piece can move to the next one (its counters reset), and a full round without one is a
    /// stalemate.
    fn settle(&self, state: &mut State) {
        if state.board.iter().all(Option::is_none) {
            state.phase = Phase::Over(if self.attempts.is_some() { reward(state.errors) } else { 100 });
            return;
        }
        if self.any_move(state) {
            state.phase = Phase::Playing;
            return;
        }
        for _ in 0..self.lines.len() {
            state.line = (state.line + 1) % self.lines.len();
            let line = &self.lines[state.line];
            state.line_left[state.line] = line.count;
            state.atom_left[state.line] = line.atoms.iter().map(|a| a.count).collect();
            if self.any_move(state) {
                state.phase = Phase::Playing;
                return;
            }
        }
        state.phase = Phase::Over(0);
    }

    /// The outcome of an attempt and the state after it.
    pub fn attempt(&self, state: &State, cell: u8, bucket: i32) -> (Outcome, State) {
        let mut next = state.clone();
        if !self.accepts(state, cell, bucket) {
            let movable = (0..4).any(|b| self.accepts(state, cell, b));
            next.errors += 1;
            if Some(next.errors) == self.attempts {
                next.phase = Phase::Over(0);
            }
            return (if movable { Outcome::Deny } else { Outcome::Immovable }, next);
        }
        let line = state.line;
        if let Some(n) = next.line_left[line] {
            next.line_left[line] = Some(n - 1);
        }
        for index in 0..self.lines[line].atoms.len() {
            if let Some(n) = state.atom_left[line][index] {
                if self.atom_accepts(state, line, index, cell, bucket) {
                    next.atom_left[line][index] = Some(n - 1);
                }
            }
        }
        let (shape, color) = state.board[cell as usize].expect("accepted pieces exist");
        next.p = Some(bucket);
        remember(&mut next.by_color, color, bucket);
        remember(&mut next.by_shape, shape, bucket);
        next.board[cell as usize] = None;
        self.settle(&mut next);
        (Outcome::Accept, next)
    }

    /// The states one move (or one chance outcome, equal outcomes once) after `state`.
    pub fn children(&self, state: &State) -> Vec<State> {
        match state.phase {
            Phase::Over(_) => Vec::new(),
            Phase::Placing(placed) => {
                let Start::Random { count, cells, shapes, colors } = &self.start else { return Vec::new() };
                let mut seen = HashSet::new();
                let mut out = Vec::new();
                for &cell in cells.iter().filter(|&&c| state.board[c as usize].is_none()) {
                    for &shape in shapes {
                        for &color in colors {
                            let mut next = state.clone();
                            next.board[cell as usize] = Some((shape, color));
                            next.phase = Phase::Placing(placed + 1);
                            if placed + 1 == *count {
                                self.settle(&mut next);
                            }
                            if seen.insert(next.clone()) {
                                out.push(next);
                            }
                        }
                    }
                }
                out
            }
            Phase::Playing => {
                let mut out = Vec::new();
                for cell in (1..=36u8).filter(|&c| state.board[c as usize].is_some()) {
                    for bucket in 0..4 {
                        if self.attempts.is_some() || self.accepts(state, cell, bucket) {
                            out.push(self.attempt(state, cell, bucket).1);
                        }
                    }
                }
                out
            }
        }
    }

    pub fn perft(&self, depth: usize) -> Vec<u64> {
        crate::tree::perft(&self.initial(), depth, &|s| self.children(s))
    }

    /// Exact probabilities of each final score under uniform random play (chance included),
    /// for games small enough to enumerate.
    pub fn score_distribution(&self) -> Vec<(u32, f64)> {
        let mut totals: Vec<(u32, f64)> = Vec::new();
        self.spread(&self.initial(), 1.0, &mut totals);
        totals.sort_by_key(|t| t.0);
        totals
    }

    fn spread(&self, state: &State, weight: f64, totals: &mut Vec<(u32, f64)>) {
        if let Phase::Over(score) = state.phase {
            match totals.iter_mut().find(|t| t.0 == score) {
                Some(t) => t.1 += weight,
                None => totals.push((score, weight)),
            }
            return;
        }
        // Chance outcomes are uniform over (cell, shape, colour), before de-duplication.
        let children = if let Phase::Placing(placed) = state.phase {
            let Start::Random { count, cells, shapes, colors } = &self.start else { return };
            let mut all = Vec::new();
            for &cell in cells.iter().filter(|&&c| state.board[c as usize].is_none()) {
                for &shape in shapes {
                    for &color in colors {
                        let mut next = state.clone();
                        next.board[cell as usize] = Some((shape, color));
                        next.phase = Phase::Placing(placed + 1);
                        if placed + 1 == *count {
                            self.settle(&mut next);
                        }
                        all.push(next);
                    }
                }
            }
            all
        } else {
            self.children(state)
        };
        let share = weight / children.len() as f64;
        for child in &children {
            self.spread(child, share, totals);
        }
    }
}
