//! Independent tic-tac-toe: a 3x3 board in plain Rust, for cross-checking `games/tictactoe`.
//!
//! Rules: `x` moves first; players alternately mark an empty cell; three in a row, column or
//! diagonal wins at once; a full board without a line is a draw. Scores: winner 100, loser 0,
//! draw 50 each.

/// The eight lines of three, as cell indices (row-major, 0..9).
const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A position: cell marks (0 empty, 1 = x, 2 = o) and the mark of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub cells: [u8; 9],
    pub to_move: u8,
}

impl Board {
    pub fn start() -> Board {
        Board { cells: [0; 9], to_move: 1 }
    }

    /// The mark that completed a line, if any.
    pub fn winner(&self) -> Option<u8> {
        LINES.iter().find_map(|line| {
            let mark = self.cells[line[0]];
            (mark != 0 && line.iter().all(|&c| self.cells[c] == mark)).then_some(mark)
        })
    }

    pub fn is_terminal(&self) -> bool {
        self.winner().is_some() || self.cells.iter().all(|&c| c != 0)
    }

    /// Empty cells in index order; none once the game is over.
    pub fn moves(&self) -> Vec<usize> {
        if self.is_terminal() {
            return Vec::new();
        }
        (0..9).filter(|&c| self.cells[c] == 0).collect()
    }

    pub fn play(&self, cell: usize) -> Board {
        let mut next = *self;
        next.cells[cell] = self.to_move;
        next.to_move = 3 - self.to_move;
        next
    }

    /// Scores (x, o) of a terminal position.
    pub fn scores(&self) -> (u32, u32) {
        match self.winner() {
            Some(1) => (100, 0),
            Some(_) => (0, 100),
            None => (50, 50),
        }
    }
}

/// Number of positions at each depth 0..=depth (terminal positions end their line).
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&Board::start(), 0, &mut counts);
    counts
}

fn count(board: &Board, ply: usize, counts: &mut [u64]) {
    counts[ply] += 1;
    if ply + 1 < counts.len() {
        for cell in board.moves() {
            count(&board.play(cell), ply + 1, counts);
        }
    }
}

/// Exact outcome probabilities (x wins, o wins, draw) under uniformly random play.
pub fn random_play_outcomes() -> (f64, f64, f64) {
    fn walk(board: &Board, weight: f64, totals: &mut (f64, f64, f64)) {
        if board.is_terminal() {
            match board.winner() {
                Some(1) => totals.0 += weight,
                Some(_) => totals.1 += weight,
                None => totals.2 += weight,
            }
            return;
        }
        let moves = board.moves();
        let share = weight / moves.len() as f64;
        for cell in moves {
            walk(&board.play(cell), share, totals);
        }
    }
    let mut totals = (0.0, 0.0, 0.0);
    walk(&Board::start(), 1.0, &mut totals);
    totals
}
