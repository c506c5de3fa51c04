//! Independent nine men's morris oracle.
//!
//! Rules as implemented: 24 points on three concentric rings (ring 0 outer .. ring 2 inner), each ring's points
//! numbered 0..7 clockwise from its top-left corner (even = corner, odd = side midpoint). A point touches its
//! ring neighbours and, at midpoints, the matching midpoint of the adjacent ring(s). Mills: the three points of
//! each ring side and the three midpoints of each spoke (16 mills). White moves first. While a player has pieces
//! in hand (9 each at the start) their move places one on an empty point; afterwards a move slides a piece to an
//! adjacent empty point, or flies to any empty point when the player has exactly 3 pieces left. A move that
//! forms a mill through the moved/placed piece also removes one opponent piece that is not in a mill, or any
//! opponent piece when all of them are in mills; the removal is part of the same move. A player whose pieces
//! (in hand plus on the board) drop below 3 loses, and so does a player who cannot move on their turn.
//! Move cap: the game is drawn after 200 plies.

/// Plies after which the game is drawn.
pub const PLY_CAP: usize = 200;

fn point(ring: usize, index: usize) -> usize {
    ring * 8 + index % 8
}

/// Neighbours of every point.
fn neighbours() -> Vec<Vec<usize>> {
    (0..24)
        .map(|p| {
            let (ring, index) = (p / 8, p % 8);
            let mut list = vec![point(ring, index + 1), point(ring, index + 7)];
            if index % 2 == 1 {
                if ring > 0 {
                    list.push(point(ring - 1, index));
                }
                if ring < 2 {
                    list.push(point(ring + 1, index));
                }
            }
            list
        })
        .collect()
}

fn mills() -> Vec<[usize; 3]> {
    let mut mills = Vec::new();
    for ring in 0..3 {
        for corner in [0, 2, 4, 6] {
            mills.push([point(ring, corner), point(ring, corner + 1), point(ring, corner + 2)]);
        }
    }
    for side in [1, 3, 5, 7] {
        mills.push([point(0, side), point(1, side), point(2, side)]);
    }
    mills
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    /// 0 empty, 1 white, 2 black.
    board: [u8; 24],
    in_hand: [u8; 3],
    total: [u8; 3],
}

struct Rules {
    neighbours: Vec<Vec<usize>>,
    mills: Vec<[usize; 3]>,
}

impl Rules {
    fn in_mill(&self, board: &[u8; 24], p: usize) -> bool {
        let colour = board[p];
        colour != 0 && self.mills.iter().any(|m| m.contains(&p) && m.iter().all(|&q| board[q] == colour))
    }

    /// Successors after the mover's piece arrived on `arrived` (already on `state.board`).
    fn finish(&self, state: State, mover: u8, arrived: usize, out: &mut Vec<State>) {
        if !self.in_mill(&state.board, arrived) {
            out.push(state);
            return;
        }
        let other = 3 - mover;
        let victims: Vec<usize> = (0..24).filter(|&p| state.board[p] == other).collect();
        let all_in_mills = victims.iter().all(|&p| self.in_mill(&state.board, p));
        for &victim in &victims {
            if all_in_mills || !self.in_mill(&state.board, victim) {
                let mut next = state;
                next.board[victim] = 0;
                next.total[other as usize] -= 1;
                out.push(next);
            }
        }
    }

    fn successors(&self, state: &State, mover: u8) -> Vec<State> {
        let mut out = Vec::new();
        let m = mover as usize;
        if state.in_hand[m] > 0 {
            for p in 0..24 {
                if state.board[p] == 0 {
                    let mut next = *state;
                    next.board[p] = mover;
                    next.in_hand[m] -= 1;
                    self.finish(next, mover, p, &mut out);
                }
            }
            return out;
        }
        let flying = state.total[m] == 3;
        for from in 0..24 {
            if state.board[from] != mover {
                continue;
            }
            let targets: Vec<usize> = if flying { (0..24).collect() } else { self.neighbours[from].clone() };
            for to in targets {
                if state.board[to] == 0 {
                    let mut next = *state;
                    next.board[from] = 0;
                    next.board[to] = mover;
                    self.finish(next, mover, to, &mut out);
                }
            }
        }
        out
    }

    fn count(&self, state: &State, mover: u8, ply: usize, depth: usize, level: usize, counts: &mut [u64]) {
        counts[level] += 1;
        if level == depth || ply >= PLY_CAP {
            return;
        }
        for next in self.successors(state, mover) {
            if next.total[(3 - mover) as usize] < 3 {
                counts[level + 1] += 1;
            } else {
                self.count(&next, 3 - mover, ply + 1, depth, level + 1, counts);
            }
        }
    }
}

/// Perft counts at depths 0..=depth from the empty board with 9 pieces in each hand.
pub fn perft(depth: usize) -> Vec<u64> {
    let rules = Rules { neighbours: neighbours(), mills: mills() };
    let start = State { board: [0; 24], in_hand: [0, 9, 9], total: [0, 9, 9] };
    let mut counts = vec![0; depth + 1];
    rules.count(&start, 1, 0, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_32_lines_and_16_mills() {
        let edges: usize = neighbours().iter().map(Vec::len).sum();
        assert_eq!(edges, 2 * 32);
        assert_eq!(mills().len(), 16);
    }

    #[test]
    fn a_mill_removes_only_pieces_outside_mills() {
        let rules = Rules { neighbours: neighbours(), mills: mills() };
        let mut board = [0u8; 24];
        board[0] = 1;
        board[1] = 1;
        // Black: a mill on the inner ring's top side plus one loose piece.
        for p in [16, 17, 18, 12] {
            board[p] = 2;
        }
        let state = State { board, in_hand: [0, 5, 5], total: [0, 7, 9] };
        let next = rules.successors(&state, 1);
        // 18 empty points; placing on 2 makes a mill and leaves one removable piece, the rest are plain.
        assert_eq!(next.len(), 18);
        assert!(next.iter().any(|s| s.board[12] == 0 && s.total[2] == 8));
    }
}
