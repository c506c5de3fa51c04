//! Independent amazons oracle: 10x10, white first, four amazons each in the standard setup.
//!
//! A move is a queen-like move of one's own amazon followed by a queen-like arrow shot from its new square
//! (the vacated square is free for the arrow). A player who cannot move loses.
//! [`perft_on`] plays the same rules on a smaller board with other starting squares.

const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// Square contents, row-major: 0 empty, 1 white amazon, 2 black amazon, 3 arrow.
struct Board {
    size: i32,
    squares: Vec<u8>,
}

impl Board {
    fn square(&self, row: i32, col: i32) -> usize {
        (row * self.size + col) as usize
    }

    /// Empty squares reachable from `from` along queen lines without passing an occupied square.
    fn queen_targets(&self, from: usize, out: &mut Vec<usize>) {
        out.clear();
        let size = self.size;
        let (row, col) = (from as i32 / size, from as i32 % size);
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (row + dr, col + dc);
            while (0..size).contains(&r) && (0..size).contains(&c) && self.squares[self.square(r, c)] == 0 {
                out.push(self.square(r, c));
                r += dr;
                c += dc;
            }
        }
    }
}

fn count(board: &mut Board, mover: u8, depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth {
        return;
    }
    let (mut moves, mut shots) = (Vec::new(), Vec::new());
    for from in 0..board.squares.len() {
        if board.squares[from] != mover {
            continue;
        }
        board.queen_targets(from, &mut moves);
        for &to in &moves.clone() {
            board.squares[from] = 0;
            board.squares[to] = mover;
            board.queen_targets(to, &mut shots);
            for &arrow in &shots.clone() {
                board.squares[arrow] = 3;
                if level + 1 == depth {
                    counts[level + 1] += 1;
                } else {
                    count(board, 3 - mover, depth, level + 1, counts);
                }
                board.squares[arrow] = 0;
            }
            board.squares[to] = 0;
            board.squares[from] = mover;
        }
    }
}

/// Perft counts at depths 0..=depth from the standard start. A player with no move is a terminal state
/// (it loses); such a state is counted at its depth and has no children.
pub fn perft(depth: usize) -> Vec<u64> {
    // White on a4, d1, g1, j4; black on a7, d10, g10, j7 (row 0 = rank 1, col 0 = file a).
    perft_on(10, &[(3, 0), (0, 3), (0, 6), (3, 9)], &[(6, 0), (9, 3), (9, 6), (6, 9)], depth)
}

/// Perft counts on a `size` x `size` board with white's and black's amazons on the given (row, col) squares.
pub fn perft_on(size: usize, white: &[(i32, i32)], black: &[(i32, i32)], depth: usize) -> Vec<u64> {
    let mut board = Board { size: size as i32, squares: vec![0; size * size] };
    for (colour, squares) in [(1, white), (2, black)] {
        for &(row, col) in squares {
            let square = board.square(row, col);
            board.squares[square] = colour;
        }
    }
    let mut counts = vec![0; depth + 1];
    count(&mut board, 1, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_two_by_two_each_player_moves_once_then_white_is_walled_in() {
        // White a1, black b2: white goes to a2 or b1 and shoots at a1 (just left) or at the other free square:
        // 4 moves. Black then has exactly one empty neighbour and shoots back at b2 or at the one square left:
        // whichever white move was made, exactly one black move exists. The board is then full.
        assert_eq!(perft_on(2, &[(0, 0)], &[(1, 1)], 3), vec![1, 4, 4, 0]);
    }
}
