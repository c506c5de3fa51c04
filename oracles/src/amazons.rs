//! Independent amazons oracle: 10x10, white first, four amazons each in the standard setup.
//!
//! A move is a queen-like move of one's own amazon followed by a queen-like arrow shot from its new square
//! (the vacated square is free for the arrow). A player who cannot move loses.

const SIZE: i32 = 10;
const CELLS: usize = (SIZE * SIZE) as usize;
const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// Square contents: 0 empty, 1 white amazon, 2 black amazon, 3 arrow.
type Board = [u8; CELLS];

fn square(row: i32, col: i32) -> usize {
    (row * SIZE + col) as usize
}

/// Standard start: white on a4, d1, g1, j4; black on a7, d10, g10, j7 (row 0 = rank 1, col 0 = file a).
fn start() -> Board {
    let mut board = [0; CELLS];
    for (row, col) in [(3, 0), (0, 3), (0, 6), (3, 9)] {
        board[square(row, col)] = 1;
    }
    for (row, col) in [(6, 0), (9, 3), (9, 6), (6, 9)] {
        board[square(row, col)] = 2;
    }
    board
}

/// Empty squares reachable from `from` along queen lines without passing an occupied square.
fn queen_targets(board: &Board, from: usize, out: &mut Vec<usize>) {
    out.clear();
    let (row, col) = (from as i32 / SIZE, from as i32 % SIZE);
    for (dr, dc) in DIRECTIONS {
        let (mut r, mut c) = (row + dr, col + dc);
        while (0..SIZE).contains(&r) && (0..SIZE).contains(&c) && board[square(r, c)] == 0 {
            out.push(square(r, c));
            r += dr;
            c += dc;
        }
    }
}

fn count(board: &mut Board, mover: u8, depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth {
        return;
    }
    let (mut moves, mut shots) = (Vec::new(), Vec::new());
    for from in 0..CELLS {
        if board[from] != mover {
            continue;
        }
        queen_targets(board, from, &mut moves);
        for &to in &moves.clone() {
            board[from] = 0;
            board[to] = mover;
            queen_targets(board, to, &mut shots);
            for &arrow in &shots.clone() {
                board[arrow] = 3;
                if level + 1 == depth {
                    counts[level + 1] += 1;
                } else {
                    count(board, 3 - mover, depth, level + 1, counts);
                }
                board[arrow] = 0;
            }
            board[to] = 0;
            board[from] = mover;
        }
    }
}

/// Perft counts at depths 0..=depth from the standard start. A player with no move is a terminal state
/// (it loses); such a state is counted at its depth and has no children.
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&mut start(), 1, depth, 0, &mut counts);
    counts
}
