//! Independent English draughts oracle (8x8 checkers).
//!
//! Rules as implemented: black moves first from rows 0-2 towards row 7, white from rows 5-7 towards row 0,
//! on the dark squares ((row + col) odd). Captures are forced; a multi-jump must be completed and is one move;
//! jumped pieces are removed as they are jumped (so no piece is jumped twice); men move and capture forward only,
//! kings both ways; a man reaching the far row is crowned and the move ends there. A player who cannot move loses.
//! Draw: after 80 consecutive plies without a capture or a man move. Moves are identified by their squares
//! (start square then every landing square), so two jump paths with different landings are different moves.

/// Square contents: 0 empty, 1 black man, 2 black king, 3 white man, 4 white king.
type Board = [u8; 64];

/// Plies without a capture or man move after which the game is drawn.
pub const QUIET_PLY_LIMIT: u32 = 80;

fn colour_of(piece: u8) -> u8 {
    match piece {
        1 | 2 => 1,
        3 | 4 => 2,
        _ => 0,
    }
}

fn start() -> Board {
    let mut board = [0; 64];
    for row in 0..8 {
        for col in 0..8 {
            if (row + col) % 2 == 1 {
                board[row * 8 + col] = match row {
                    0..=2 => 1,
                    5..=7 => 3,
                    _ => 0,
                };
            }
        }
    }
    board
}

/// Row steps a piece may move along: forward only for men, both ways for kings.
fn row_steps(piece: u8) -> &'static [i32] {
    match piece {
        1 => &[1],
        3 => &[-1],
        _ => &[1, -1],
    }
}

fn on_board(row: i32, col: i32) -> bool {
    (0..8).contains(&row) && (0..8).contains(&col)
}

fn crowning_row(piece: u8) -> Option<i32> {
    match piece {
        1 => Some(7),
        3 => Some(0),
        _ => None,
    }
}

/// A legal move's result: the board after it, and whether it resets the quiet-ply counter.
struct Successor {
    board: Board,
    resets_quiet: bool,
}

/// Extends a jump sequence of the piece now standing on `at` (`jumped`: whether it has jumped already),
/// pushing every completed sequence of at least one jump.
fn extend_jumps(board: &mut Board, at: usize, jumped: bool, out: &mut Vec<Successor>) {
    let piece = board[at];
    let (row, col) = ((at / 8) as i32, (at % 8) as i32);
    let mut extended = false;
    for &dr in row_steps(piece) {
        for dc in [-1, 1] {
            let (over_r, over_c, land_r, land_c) = (row + dr, col + dc, row + 2 * dr, col + 2 * dc);
            if !on_board(land_r, land_c) {
                continue;
            }
            let (over, land) = ((over_r * 8 + over_c) as usize, (land_r * 8 + land_c) as usize);
            let victim = board[over];
            if colour_of(victim) == 0 || colour_of(victim) == colour_of(piece) || board[land] != 0 {
                continue;
            }
            extended = true;
            board[at] = 0;
            board[over] = 0;
            // A man landing on the far row is crowned and the move ends.
            let crowned = crowning_row(piece) == Some(land_r);
            board[land] = if crowned { piece + 1 } else { piece };
            if crowned {
                out.push(Successor { board: *board, resets_quiet: true });
            } else {
                extend_jumps(board, land, true, out);
            }
            board[land] = 0;
            board[over] = victim;
            board[at] = piece;
        }
    }
    if jumped && !extended {
        out.push(Successor { board: *board, resets_quiet: true });
    }
}

fn successors(board: &Board, mover: u8) -> Vec<Successor> {
    let mut captures = Vec::new();
    let mut scratch = *board;
    for (from, &piece) in board.iter().enumerate() {
        if colour_of(piece) == mover {
            extend_jumps(&mut scratch, from, false, &mut captures);
        }
    }
    if !captures.is_empty() {
        return captures;
    }
    let mut slides = Vec::new();
    for from in 0..64 {
        let piece = board[from];
        if colour_of(piece) != mover {
            continue;
        }
        let (row, col) = ((from / 8) as i32, (from % 8) as i32);
        for &dr in row_steps(piece) {
            for dc in [-1, 1] {
                let (r, c) = (row + dr, col + dc);
                if !on_board(r, c) || board[(r * 8 + c) as usize] != 0 {
                    continue;
                }
                let mut next = *board;
                next[from] = 0;
                next[(r * 8 + c) as usize] = if crowning_row(piece) == Some(r) { piece + 1 } else { piece };
                slides.push(Successor { board: next, resets_quiet: piece == 1 || piece == 3 });
            }
        }
    }
    slides
}

fn count(board: &Board, mover: u8, quiet: u32, depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth || quiet >= QUIET_PLY_LIMIT {
        return;
    }
    for successor in successors(board, mover) {
        let quiet = if successor.resets_quiet { 0 } else { quiet + 1 };
        count(&successor.board, 3 - mover, quiet, depth, level + 1, counts);
    }
}

/// Perft counts at depths 0..=depth from the standard start.
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&start(), 1, 0, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_double_jump_is_one_move_and_capture_is_forced() {
        let mut board = [0u8; 64];
        board[8 + 1] = 1; // black man at (1,1)
        board[2 * 8 + 2] = 3; // white man at (2,2)
        board[4 * 8 + 4] = 3; // white man at (4,4)
        board[6 * 8 + 6] = 3; // white man at (6,6): (7,7) is empty, so a triple jump
        let moves = successors(&board, 1);
        assert_eq!(moves.len(), 1);
        assert!(moves[0].board.iter().filter(|&&p| p == 3).count() == 0);
        assert_eq!(moves[0].board[63], 2, "landing on row 7 crowns the man");
    }

    #[test]
    fn a_man_crowned_by_a_jump_stops_there() {
        let mut board = [0u8; 64];
        board[5 * 8 + 1] = 1; // black man at (5,1)
        board[6 * 8 + 2] = 3; // jump to (7,3) and crown
        board[6 * 8 + 4] = 3; // a king at (7,3) could jump on to (5,5), but the move ends
        let moves = successors(&board, 1);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].board[7 * 8 + 3], 2);
        assert_eq!(moves[0].board[6 * 8 + 4], 3);
    }
}
