//! Independent breakthrough (8x8) implementation used to cross-check the corpus game.
//!
//! Rules: white starts on rows 0 and 1 and moves first towards row 7; black starts on rows 6
//! and 7 and moves towards row 0. A pawn moves one step straight forward to an empty cell, or one
//! step diagonally forward to a cell that is empty or holds an enemy pawn (a capture). The game
//! ends when a pawn reaches the opponent's home row or a player captures every enemy pawn; the
//! mover wins (100, loser 0). On 8 columns the side to move always has a move, so there is no pass.

/// A position: cells hold 0 (empty), 1 (white) or 2 (black); `to_move` is 1 or 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub cells: [u8; 64],
    pub to_move: u8,
    pub finished: bool,
}

/// A move from one cell index (row * 8 + column) to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: usize,
    pub to: usize,
}

impl Position {
    pub fn initial() -> Position {
        let mut cells = [0u8; 64];
        for cell in 0..16 {
            cells[cell] = 1;
            cells[63 - cell] = 2;
        }
        Position { cells, to_move: 1, finished: false }
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        if self.finished {
            return Vec::new();
        }
        let forward: i32 = if self.to_move == 1 { 1 } else { -1 };
        let mut moves = Vec::new();
        for from in 0..64 {
            if self.cells[from] != self.to_move {
                continue;
            }
            let (row, col) = ((from / 8) as i32, (from % 8) as i32);
            let target_row = row + forward;
            if !(0..8).contains(&target_row) {
                continue;
            }
            for dc in [-1, 0, 1] {
                let target_col = col + dc;
                if !(0..8).contains(&target_col) {
                    continue;
                }
                let to = (target_row * 8 + target_col) as usize;
                let occupant = self.cells[to];
                let allowed = occupant == 0 || (dc != 0 && occupant != self.to_move);
                if allowed {
                    moves.push(Move { from, to });
                }
            }
        }
        moves
    }

    pub fn apply(&self, mv: Move) -> Position {
        let mut next = self.clone();
        next.cells[mv.from] = 0;
        next.cells[mv.to] = self.to_move;
        let goal_row = if self.to_move == 1 { 7 } else { 0 };
        let opponent = 3 - self.to_move;
        next.finished = mv.to / 8 == goal_row || !next.cells.contains(&opponent);
        next.to_move = opponent;
        next
    }
}

/// perft counts at depths 0..=depth from `position`.
pub fn perft_from(position: &Position, depth: usize) -> Vec<u64> {
    crate::tree::perft(position, depth, &|p: &Position| p.legal_moves().into_iter().map(|mv| p.apply(mv)).collect())
}

/// perft counts at depths 0..=depth from the initial position.
pub fn perft(depth: usize) -> Vec<u64> {
    perft_from(&Position::initial(), depth)
}
