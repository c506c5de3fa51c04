//! Independent reversi (Othello, 8x8) implementation used to cross-check the corpus game.
//!
//! Rules: black moves first from the standard four-disc centre (white on d4 and e5, black on e4
//! and d5). A placement must flip at least one line of opponent discs. A player with no legal
//! placement must pass, and the pass is a move (it costs one perft depth); two consecutive passes
//! end the game (so when neither side can place, both pass and then the game is over). This is
//! the convention of the published perft table (Aart Bik, "Perft for Reversi", 2009), whose
//! depth-10 and depth-11 counts include those passes. Scores compare disc counts: the larger
//! count wins (100/0), equal counts draw (50/50).

const SIZE: i32 = 8;
const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// A position: cells hold 0 (empty), 1 (black) or 2 (white); `to_move` is 1 or 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub cells: [u8; 64],
    pub to_move: u8,
    /// Passes made in a row just before this position (2 means the game is over).
    pub consecutive_passes: u8,
}

/// A move: a placement on a cell index (row * 8 + column) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Place(usize),
    Pass,
}

impl Position {
    pub fn initial() -> Position {
        let mut cells = [0u8; 64];
        cells[3 * 8 + 3] = 2;
        cells[4 * 8 + 4] = 2;
        cells[3 * 8 + 4] = 1;
        cells[4 * 8 + 3] = 1;
        Position { cells, to_move: 1, consecutive_passes: 0 }
    }

    fn flips(&self, cell: usize, player: u8) -> Vec<usize> {
        let mut flipped = Vec::new();
        if self.cells[cell] != 0 {
            return flipped;
        }
        let opponent = 3 - player;
        let (row, col) = ((cell / 8) as i32, (cell % 8) as i32);
        for (dr, dc) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut c) = (row + dr, col + dc);
            while (0..SIZE).contains(&r) && (0..SIZE).contains(&c) {
                let here = self.cells[(r * SIZE + c) as usize];
                if here == opponent {
                    line.push((r * SIZE + c) as usize);
                } else {
                    if here == player && !line.is_empty() {
                        flipped.extend_from_slice(&line);
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        flipped
    }

    fn placements(&self, player: u8) -> Vec<usize> {
        (0..64).filter(|&cell| !self.flips(cell, player).is_empty()).collect()
    }

    /// Legal moves of the player to move; empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.consecutive_passes >= 2 {
            return Vec::new();
        }
        let mine = self.placements(self.to_move);
        if mine.is_empty() {
            vec![Move::Pass]
        } else {
            mine.into_iter().map(Move::Place).collect()
        }
    }

    pub fn apply(&self, mv: Move) -> Position {
        let mut next = self.clone();
        match mv {
            Move::Place(cell) => {
                for flipped in self.flips(cell, self.to_move) {
                    next.cells[flipped] = self.to_move;
                }
                next.cells[cell] = self.to_move;
                next.consecutive_passes = 0;
            }
            Move::Pass => next.consecutive_passes += 1,
        }
        next.to_move = 3 - self.to_move;
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
