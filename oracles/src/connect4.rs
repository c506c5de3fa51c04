//! Independent Connect Four (7 columns x 6 rows) with bitboards, for cross-checking `games/connect4`.
//!
//! Rules: the first player moves first; a move drops a disc into a column that is not full; four
//! in a row (horizontal, vertical or diagonal) wins at once; a full board is a draw.

const COLUMNS: usize = 7;
const ROWS: usize = 6;
/// Each column uses ROWS + 1 bits so that shifts never wrap a line across columns.
const STRIDE: usize = ROWS + 1;

/// A position: the discs of the player to move and of both players, as bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub mover: u64,
    pub both: u64,
    pub plies: usize,
    /// Whether the previous move made four in a row.
    pub won: bool,
}

fn bottom_bit(column: usize) -> u64 {
    1 << (column * STRIDE)
}

fn top_bit(column: usize) -> u64 {
    1 << (column * STRIDE + ROWS - 1)
}

fn has_four(discs: u64) -> bool {
    [1, STRIDE, STRIDE - 1, STRIDE + 1].iter().any(|&shift| {
        let pairs = discs & (discs >> shift);
        pairs & (pairs >> (2 * shift)) != 0
    })
}

impl Position {
    pub fn start() -> Position {
        Position { mover: 0, both: 0, plies: 0, won: false }
    }

    pub fn is_terminal(&self) -> bool {
        self.won || self.plies == COLUMNS * ROWS
    }

    /// Playable columns, left to right; none once the game is over.
    pub fn moves(&self) -> Vec<usize> {
        if self.is_terminal() {
            return Vec::new();
        }
        (0..COLUMNS).filter(|&c| self.both & top_bit(c) == 0).collect()
    }

    pub fn play(&self, column: usize) -> Position {
        let landing = (self.both + bottom_bit(column)) & !self.both & column_mask(column);
        let mine = self.mover | landing;
        Position {
            mover: mine ^ (self.both | landing),
            both: self.both | landing,
            plies: self.plies + 1,
            won: has_four(mine),
        }
    }
}

fn column_mask(column: usize) -> u64 {
    ((1u64 << ROWS) - 1) << (column * STRIDE)
}

/// Number of positions at each depth 0..=depth (terminal positions end their line).
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&Position::start(), 0, &mut counts);
    counts
}

fn count(position: &Position, ply: usize, counts: &mut [u64]) {
    counts[ply] += 1;
    if ply + 1 < counts.len() {
        for column in position.moves() {
            count(&position.play(column), ply + 1, counts);
        }
    }
}
