//! Independent hex oracle: 11x11 rhombus, no swap rule, red (first) joins top to bottom, blue joins left to right.
//!
//! A move places a stone on an empty cell; the game ends as soon as the mover connects its two sides
//! (hex has no draws, so a full board always has a winner and is never reached otherwise).
//! [`perft_sized`] plays the same rules on a smaller board, so that whole game trees with wins can be counted.

/// The standard board side.
pub const SIZE: usize = 11;

/// Cell contents: 0 empty, 1 red (first player), 2 blue.
#[derive(Clone)]
struct Board {
    size: usize,
    cells: Vec<u8>,
}

impl Board {
    fn empty(size: usize) -> Board {
        Board { size, cells: vec![0; size * size] }
    }

    /// The six hex neighbours of (row, col) on a rhombus board: same row ±1, row-1 (col, col+1),
    /// row+1 (col-1, col).
    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        let size = self.size as i32;
        let (row, col) = (cell as i32 / size, cell as i32 % size);
        const STEPS: [(i32, i32); 6] = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)];
        STEPS.iter().filter_map(move |&(dr, dc)| {
            let (r, c) = (row + dr, col + dc);
            ((0..size).contains(&r) && (0..size).contains(&c)).then_some((r * size + c) as usize)
        })
    }

    /// Whether `colour` joins its two sides (red: first row to last row, blue: first column to last column).
    fn connects(&self, colour: u8) -> bool {
        let size = self.size;
        let mut seen = vec![false; size * size];
        let mut stack: Vec<usize> = (0..size)
            .map(|i| if colour == 1 { i } else { i * size })
            .filter(|&cell| self.cells[cell] == colour)
            .collect();
        for &cell in &stack {
            seen[cell] = true;
        }
        while let Some(cell) = stack.pop() {
            let far_side = if colour == 1 { cell / size } else { cell % size } == size - 1;
            if far_side {
                return true;
            }
            for next in self.neighbours(cell) {
                if !seen[next] && self.cells[next] == colour {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        false
    }
}

fn count(board: &mut Board, mover: u8, depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth {
        return;
    }
    for cell in 0..board.cells.len() {
        if board.cells[cell] != 0 {
            continue;
        }
        board.cells[cell] = mover;
        if board.connects(mover) {
            counts[level + 1] += 1;
        } else {
            count(board, 3 - mover, depth, level + 1, counts);
        }
        board.cells[cell] = 0;
    }
}

/// Perft counts at depths 0..=depth from the empty 11x11 board.
pub fn perft(depth: usize) -> Vec<u64> {
    perft_sized(SIZE, depth)
}

/// Perft counts at depths 0..=depth from the empty `size` x `size` board.
pub fn perft_sized(size: usize, depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&mut Board::empty(size), 1, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_red_column_connects_and_a_blue_column_does_not() {
        let mut board = Board::empty(SIZE);
        for row in 0..SIZE {
            board.cells[row * SIZE + 4] = 1;
        }
        assert!(board.connects(1));
        assert!(!board.connects(2));
        board.cells[5 * SIZE + 4] = 2;
        assert!(!board.connects(1));
    }

    #[test]
    fn a_zigzag_through_the_short_diagonal_connects_blue() {
        // (r, c) -> (r-1, c+1) is adjacent, so the anti-diagonal from (10,0) to (0,10) is a chain.
        let mut board = Board::empty(SIZE);
        for col in 0..SIZE {
            board.cells[(SIZE - 1 - col) * SIZE + col] = 2;
        }
        assert!(board.connects(2) && !board.connects(1));
    }

    #[test]
    fn on_two_by_two_red_wins_with_its_second_stone_unless_blocked() {
        // Red needs two stones: of the 4 * 3 * 2 ply-3 sequences, red wins in 12 (3 winning pairs
        // (0,0)-(1,0), (0,1)-(1,0), (0,1)-(1,1), in 2 orders, with 2 choices for blue), so 12 go on to ply 4.
        assert_eq!(perft_sized(2, 4), vec![1, 4, 12, 24, 12]);
        // A 1x1 board: red's only stone touches both sides.
        assert_eq!(perft_sized(1, 3), vec![1, 1, 0, 0]);
    }
}
