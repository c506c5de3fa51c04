//! Independent "Pig to 10", the dice game of `games/dice`, in plain Rust.
//!
//! Rules (also in `spec/games.md`): two players, `first` then `second`, each with a banked score
//! (0 at the start) and a shared turn total (0 at the start of every turn). On their turn a player
//! repeatedly chooses `roll` or `hold`:
//! - `roll`: a fair six-sided die is thrown (a chance move). A 1 loses the turn total and ends the
//!   turn. Any other face is added to the turn total; if banked score + turn total reaches 10, the
//!   player banks 10 and wins at once.
//! - `hold`: the turn total is added to the banked score (it cannot reach 10 here, see above) and
//!   the turn ends.
//!
//! The game lasts at most [`TURNS`] turns in all. When the last turn ends, the higher banked score
//! wins. Scores: winner 100, loser 0, equal banked scores 50 each.
//!
//! Perft conventions (`spec/perft.md`): a choice and a die throw each cost one depth; after a
//! throw, faces that lead to the same state count once (e.g. every face that wins).

use std::collections::HashSet;

/// Points needed to win.
pub const TARGET: u8 = 10;
/// Turns in a whole game (both players together).
pub const TURNS: u8 = 6;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player `me` chooses roll or hold.
    Choose,
    /// The die is about to be thrown for `me`.
    Throw,
    /// The game is over with these scores (first, second).
    Over([u32; 2]),
}

/// A complete game state; two states are equal exactly when the automaton's states are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub banked: [u8; 2],
    pub total: u8,
    /// 0 = first, 1 = second.
    pub me: usize,
    pub turns_left: u8,
    pub phase: Phase,
}

/// A move: a player's choice or a die face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Roll,
    Hold,
    Face(u8),
}

impl State {
    pub fn start() -> State {
        State { banked: [0, 0], total: 0, me: 0, turns_left: TURNS, phase: Phase::Choose }
    }

    pub fn moves(&self) -> Vec<Move> {
        match self.phase {
            Phase::Choose => vec![Move::Roll, Move::Hold],
            Phase::Throw => (1..=6).map(Move::Face).collect(),
            Phase::Over(_) => Vec::new(),
        }
    }

    pub fn play(&self, mv: Move) -> State {
        let mut next = *self;
        match mv {
            Move::Roll => next.phase = Phase::Throw,
            Move::Hold => {
                next.banked[self.me] = (self.banked[self.me] + self.total).min(TARGET);
                next.total = 0;
                next.end_turn();
            }
            Move::Face(1) => {
                next.total = 0;
                next.end_turn();
            }
            Move::Face(face) => {
                next.total = (self.total + face).min(TARGET);
                if self.banked[self.me] + next.total >= TARGET {
                    next.banked[self.me] = TARGET;
                    next.total = 0;
                    next.phase = Phase::Over(if self.me == 0 { [100, 0] } else { [0, 100] });
                } else {
                    next.phase = Phase::Choose;
                }
            }
        }
        next
    }

    fn end_turn(&mut self) {
        self.turns_left -= 1;
        if self.turns_left == 0 {
            let [a, b] = self.banked;
            self.phase = Phase::Over(match a.cmp(&b) {
                std::cmp::Ordering::Greater => [100, 0],
                std::cmp::Ordering::Less => [0, 100],
                std::cmp::Ordering::Equal => [50, 50],
            });
        } else {
            self.me = 1 - self.me;
            self.phase = Phase::Choose;
        }
    }

    /// The distinct successors: every move for a choice, distinct states for a throw.
    pub fn children(&self) -> Vec<State> {
        let all = self.moves().into_iter().map(|m| self.play(m));
        if self.phase == Phase::Throw {
            let mut seen = HashSet::new();
            all.filter(|s| seen.insert(*s)).collect()
        } else {
            all.collect()
        }
    }
}

/// Number of states at each depth 0..=depth.
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&State::start(), 0, &mut counts);
    counts
}

fn count(state: &State, ply: usize, counts: &mut [u64]) {
    counts[ply] += 1;
    if ply + 1 < counts.len() {
        for child in state.children() {
            count(&child, ply + 1, counts);
        }
    }
}
