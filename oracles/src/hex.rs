//! Independent hex oracle: 11x11 rhombus, no swap rule, red (first) joins top to bottom, blue joins left to right.
//!
//! A move places a stone on an empty cell; the game ends as soon as the mover connects its two sides
//! (hex has no draws, so a full board always has a winner and is never reached otherwise).

const SIZE: usize = 11;
const CELLS: usize = SIZE * SIZE;

/// Cell contents: 0 empty, 1 red (first player), 2 blue.
#[derive(Clone)]
struct Board {
    cells: [u8; CELLS],
}

/// The six hex neighbours of (row, col) on a rhombus board: same row ±1, row-1 (col, col+1), row+1 (col-1, col).
fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (row, col) = ((cell / SIZE) as i32, (cell % SIZE) as i32);
    const STEPS: [(i32, i32); 6] = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)];
    STEPS.iter().filter_map(move |&(dr, dc)| {
        let (r, c) = (row + dr, col + dc);
        (0..SIZE as i32).contains(&r).then_some(())?;
        (0..SIZE as i32).contains(&c).then_some(())?;
        Some((r * SIZE as i32 + c) as usize)
    })
}

impl Board {
    /// Whether `colour` joins its two sides (red: row 0 to row 10, blue: column 0 to column 10).
    fn connects(&self, colour: u8) -> bool {
        let mut seen = [false; CELLS];
        let mut stack: Vec<usize> = (0..SIZE)
            .map(|i| if colour == 1 { i } else { i * SIZE })
            .filter(|&cell| self.cells[cell] == colour)
            .collect();
        for &cell in &stack {
            seen[cell] = true;
        }
        while let Some(cell) = stack.pop() {
            let far_side = if colour == 1 {
                cell / SIZE
            } else {
                cell % SIZE
            } == SIZE - 1;
            if far_side {
                return true;
            }
            for next in neighbours(cell) {
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
    for cell in 0..CELLS {
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

/// Perft counts at depths 0..=depth from the empty board.
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    let mut board = Board { cells: [0; CELLS] };
    count(&mut board, 1, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_red_column_connects_and_a_blue_column_does_not() {
        let mut board = Board { cells: [0; CELLS] };
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
        let mut board = Board { cells: [0; CELLS] };
        for col in 0..SIZE {
            board.cells[(SIZE - 1 - col) * SIZE + col] = 2;
        }
        assert!(board.connects(2));
        assert!(board.connects(2) && !board.connects(1));
    }
}
