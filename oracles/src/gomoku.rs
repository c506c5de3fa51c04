//! Independent gomoku oracle: freestyle gomoku on 15x15, black first, five or more in a row wins, full board draws.
//!
//! [`perft_with`] plays the same rules with another board side and row length (3x3 with three in a row is
//! tic-tac-toe, whose published perft then checks the win and draw logic over whole game trees).

/// The standard board side.
pub const SIZE: usize = 15;
/// Stones in a row needed to win.
pub const ROW: usize = 5;

struct Rules {
    size: i32,
    row: usize,
}

impl Rules {
    /// Whether the stone just placed at `cell` makes a line of `row` or more of its colour.
    fn makes_row(&self, cells: &[u8], cell: usize) -> bool {
        let size = self.size;
        let colour = cells[cell];
        let (row, col) = (cell as i32 / size, cell as i32 % size);
        let same = |r: i32, c: i32| {
            (0..size).contains(&r) && (0..size).contains(&c) && cells[(r * size + c) as usize] == colour
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let mut length = 1;
            for sign in [1, -1] {
                let mut step = 1;
                while same(row + sign * step * dr, col + sign * step * dc) {
                    length += 1;
                    step += 1;
                }
            }
            length >= self.row
        })
    }

    fn count(&self, cells: &mut [u8], mover: u8, placed: usize, depth: usize, level: usize, counts: &mut [u64]) {
        counts[level] += 1;
        if level == depth || placed == cells.len() {
            return;
        }
        for cell in 0..cells.len() {
            if cells[cell] != 0 {
                continue;
            }
            cells[cell] = mover;
            if self.makes_row(cells, cell) {
                counts[level + 1] += 1;
            } else {
                self.count(cells, 3 - mover, placed + 1, depth, level + 1, counts);
            }
            cells[cell] = 0;
        }
    }
}

/// Perft counts at depths 0..=depth from the empty 15x15 board.
pub fn perft(depth: usize) -> Vec<u64> {
    perft_with(SIZE, ROW, depth)
}

/// Perft counts at depths 0..=depth on an empty `size` x `size` board where `row` in a row wins.
pub fn perft_with(size: usize, row: usize, depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    let rules = Rules { size: size as i32, row };
    rules.count(&mut vec![0; size * size], 1, 0, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: Rules = Rules { size: SIZE as i32, row: ROW };

    #[test]
    fn five_in_a_diagonal_wins_and_four_does_not() {
        let mut cells = [0u8; SIZE * SIZE];
        for i in 0..4 {
            cells[(i * SIZE) + i + 3] = 1;
        }
        assert!(!STANDARD.makes_row(&cells, 3));
        cells[4 * SIZE + 7] = 1;
        assert!(STANDARD.makes_row(&cells, 3));
        assert!(STANDARD.makes_row(&cells, 4 * SIZE + 7));
    }

    #[test]
    fn a_line_does_not_wrap_around_the_edge() {
        let mut cells = [0u8; SIZE * SIZE];
        // Columns 12, 13, 14 of row 0 and columns 0, 1 of row 1.
        cells[12..17].fill(2);
        assert!(!STANDARD.makes_row(&cells, 14));
        assert!(!STANDARD.makes_row(&cells, 15));
    }
}
