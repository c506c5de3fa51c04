//! Independent pentago oracle: 6x6 board of four 3x3 quadrants, white first.
//!
//! A move places a marble on an empty cell and then rotates one quadrant a quarter turn clockwise or
//! anticlockwise (every (cell, quadrant, direction) is a distinct move, even when two give
//! the same board). Only after the rotation is the board checked: five or more in a row of one colour wins; both
//! colours at once is a draw; a full board without a five is a draw.

type Board = [u8; 36];

/// Every line of five cells (row, column, diagonal) as a list of cell indices.
fn lines_of_five() -> Vec<[usize; 5]> {
    let mut lines = Vec::new();
    for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
        for row in 0..6i32 {
            for col in 0..6i32 {
                let (end_r, end_c) = (row + 4 * dr, col + 4 * dc);
                if (0..6).contains(&end_r) && (0..6).contains(&end_c) {
                    lines.push(std::array::from_fn(|i| ((row + i as i32 * dr) * 6 + col + i as i32 * dc) as usize));
                }
            }
        }
    }
    lines
}

/// The board after turning quadrant `quadrant` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) a quarter
/// turn, clockwise when `clockwise`.
fn rotate(board: &Board, quadrant: usize, clockwise: bool) -> Board {
    let (top, left) = ((quadrant / 2) * 3, (quadrant % 2) * 3);
    let mut next = *board;
    for r in 0..3 {
        for c in 0..3 {
            // Clockwise: the cell at (r, c) moves to (c, 2 - r).
            let (to_r, to_c) = if clockwise { (c, 2 - r) } else { (2 - c, r) };
            next[(top + to_r) * 6 + left + to_c] = board[(top + r) * 6 + left + c];
        }
    }
    next
}

fn has_five(board: &Board, lines: &[[usize; 5]], colour: u8) -> bool {
    lines.iter().any(|line| line.iter().all(|&cell| board[cell] == colour))
}

fn count(board: &Board, mover: u8, lines: &[[usize; 5]], depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth {
        return;
    }
    for cell in 0..36 {
        if board[cell] != 0 {
            continue;
        }
        let mut placed = *board;
        placed[cell] = mover;
        for quadrant in 0..4 {
            for clockwise in [true, false] {
                let next = rotate(&placed, quadrant, clockwise);
                let finished = has_five(&next, lines, 1) || has_five(&next, lines, 2) || next.iter().all(|&v| v != 0);
                if finished {
                    counts[level + 1] += 1;
                } else {
                    count(&next, 3 - mover, lines, depth, level + 1, counts);
                }
            }
        }
    }
}

/// Perft counts at depths 0..=depth from the empty board.
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&[0; 36], 1, &lines_of_five(), depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_32_lines_of_five() {
        assert_eq!(lines_of_five().len(), 6 * 2 + 6 * 2 + 4 * 2);
    }

    #[test]
    fn rotating_clockwise_four_times_is_the_identity_and_moves_a_corner() {
        let mut board = [0u8; 36];
        board[0] = 1; // top-left corner of quadrant 0
        let once = rotate(&board, 0, true);
        assert_eq!(once[2], 1, "clockwise takes the top-left corner to the top-right corner");
        assert_eq!(rotate(&once, 0, false), board);
        let four = (0..4).fold(board, |b, _| rotate(&b, 0, true));
        assert_eq!(four, board);
    }
}
