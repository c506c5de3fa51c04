//! Independent amazons oracle: 10x10, white first, four amazons each in the standard setup.
//!
//! A move is a queen-like move of one's own amazon followed by a queen-like arrow shot from its new square
//! (the vacated square is free for the arrow). A player who cannot move loses.
//! [`perft_on`] plays the same rules on a smaller board with other starting squares.

const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// Square contents, row-major: 0 empty, 1 white amazon, 2 black amazon, 3 arrow.
#[derive(Clone, Debug)]
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

/// A position for step-by-step play on the standard board, so that another implementation can be replayed
/// against this one.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    /// 1 white, 2 black.
    mover: u8,
    /// Scores (white, black) once the game is over.
    scores: Option<[i64; 2]>,
}

impl Board {
    /// Whether `mover` has a move: an amazon with an empty neighbour can step there and shoot back.
    fn can_move(&self, mover: u8) -> bool {
        let mut targets = Vec::new();
        (0..self.squares.len()).any(|from| {
            self.squares[from] == mover && {
                self.queen_targets(from, &mut targets);
                !targets.is_empty()
            }
        })
    }

    /// Every (from, to, arrow) move of `mover`.
    fn moves(&mut self, mover: u8) -> Vec<[usize; 3]> {
        let (mut targets, mut shots, mut out) = (Vec::new(), Vec::new(), Vec::new());
        for from in 0..self.squares.len() {
            if self.squares[from] != mover {
                continue;
            }
            self.queen_targets(from, &mut targets);
            for &to in &targets.clone() {
                self.squares[from] = 0;
                self.squares[to] = mover;
                self.queen_targets(to, &mut shots);
                out.extend(shots.iter().map(|&arrow| [from, to, arrow]));
                self.squares[to] = 0;
                self.squares[from] = mover;
            }
        }
        out
    }
}

impl Position {
    /// The standard start, white to move.
    pub fn start() -> Position {
        let mut board = Board { size: 10, squares: vec![0; 100] };
        for (colour, squares) in [(1, [(3, 0), (0, 3), (0, 6), (3, 9)]), (2, [(6, 0), (9, 3), (9, 6), (6, 9)])] {
            for (row, col) in squares {
                let square = board.square(row, col);
                board.squares[square] = colour;
            }
        }
        Position { board, mover: 1, scores: None }
    }

    /// (white, black) scores when the game is over.
    pub fn scores(&self) -> Option<[i64; 2]> {
        self.scores
    }

    /// Every legal move, named like the HRG program's tags (`S__rank_file` of the amazon, its destination
    /// and the arrow, 1-based), with its result; the game ends when the next player cannot move.
    pub fn moves(&self) -> Vec<(String, Position)> {
        if self.scores.is_some() {
            return Vec::new();
        }
        let size = self.board.size as usize;
        let name = |square: usize| format!("S__{}_{}", square / size + 1, square % size + 1);
        let mut board = self.board.clone();
        board
            .moves(self.mover)
            .into_iter()
            .map(|[from, to, arrow]| {
                let mut next = self.board.clone();
                next.squares[from] = 0;
                next.squares[to] = self.mover;
                next.squares[arrow] = 3;
                let other = 3 - self.mover;
                let scores = (!next.can_move(other)).then_some(if self.mover == 1 { [100, 0] } else { [0, 100] });
                let names = format!("{} {} {}", name(from), name(to), name(arrow));
                (names, Position { board: next, mover: other, scores })
            })
            .collect()
    }
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
