//! Independent fox and geese oracle.
//!
//! Rules as implemented: the 33-point cross board (rows and columns 1..7; a point exists when its row or its
//! column is in 3..5), lines orthogonal only (no diagonals). 13 geese start on rows 1-2 (columns 3-5) and all
//! of row 3; the fox starts on the centre (4, 4). Geese move first. A goose steps to an adjacent empty point
//! forwards (row + 1) or sideways, never backwards. The fox steps to an adjacent empty point in any of the four
//! directions, or jumps over an adjacent goose to the empty point just beyond it, removing the goose; after a
//! jump it may jump again (each further jump is optional) and the whole chain is one move. Captures are never
//! compulsory. The fox wins when fewer than 4 geese remain or when the geese cannot move; the geese win when the
//! fox cannot move. Move cap: the game is drawn after 200 plies.

/// Plies after which the game is drawn.
pub const PLY_CAP: usize = 200;
/// The fox wins as soon as fewer geese than this remain.
pub const GEESE_NEEDED: u32 = 4;

const STEPS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn exists(row: i32, col: i32) -> bool {
    (1..=7).contains(&row) && (1..=7).contains(&col) && ((3..=5).contains(&row) || (3..=5).contains(&col))
}

fn index(row: i32, col: i32) -> usize {
    (row * 8 + col) as usize
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    /// Geese by index(row, col).
    geese: [bool; 64],
    fox: (i32, i32),
    geese_left: u32,
}

impl State {
    fn empty(&self, row: i32, col: i32) -> bool {
        exists(row, col) && !self.geese[index(row, col)] && self.fox != (row, col)
    }
}

fn goose_moves(state: &State) -> Vec<State> {
    let mut out = Vec::new();
    for row in 1..=7 {
        for col in 1..=7 {
            if !exists(row, col) || !state.geese[index(row, col)] {
                continue;
            }
            // Forward is row + 1; sideways is col +- 1.
            for (dr, dc) in [(1, 0), (0, 1), (0, -1)] {
                if state.empty(row + dr, col + dc) {
                    let mut next = *state;
                    next.geese[index(row, col)] = false;
                    next.geese[index(row + dr, col + dc)] = true;
                    out.push(next);
                }
            }
        }
    }
    out
}

/// Jump chains continuing from `state` (the fox has just landed), each chain end being a successor.
fn fox_jumps(state: &State, out: &mut Vec<State>) {
    let (row, col) = state.fox;
    for (dr, dc) in STEPS {
        let (over_r, over_c, land_r, land_c) = (row + dr, col + dc, row + 2 * dr, col + 2 * dc);
        if exists(over_r, over_c) && state.geese[index(over_r, over_c)] && state.empty(land_r, land_c) {
            let mut next = *state;
            next.geese[index(over_r, over_c)] = false;
            next.geese_left -= 1;
            next.fox = (land_r, land_c);
            out.push(next);
            fox_jumps(&next, out);
        }
    }
}

fn fox_moves(state: &State) -> Vec<State> {
    let mut out = Vec::new();
    let (row, col) = state.fox;
    for (dr, dc) in STEPS {
        if state.empty(row + dr, col + dc) {
            let mut next = *state;
            next.fox = (row + dr, col + dc);
            out.push(next);
        }
    }
    fox_jumps(state, &mut out);
    out
}

fn count(state: &State, geese_to_move: bool, ply: usize, depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth || ply >= PLY_CAP || state.geese_left < GEESE_NEEDED {
        return;
    }
    let moves = if geese_to_move { goose_moves(state) } else { fox_moves(state) };
    for next in moves {
        count(&next, !geese_to_move, ply + 1, depth, level + 1, counts);
    }
}

fn start() -> State {
    let mut geese = [false; 64];
    for row in 1..=3 {
        for col in 1..=7 {
            if exists(row, col) {
                geese[index(row, col)] = true;
            }
        }
    }
    State { geese, fox: (4, 4), geese_left: 13 }
}

/// Perft counts at depths 0..=depth from the start (geese to move).
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&start(), true, 0, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_33_points_and_13_geese() {
        let points = (1..=7).flat_map(|r| (1..=7).map(move |c| (r, c))).filter(|&(r, c)| exists(r, c)).count();
        assert_eq!(points, 33);
        assert_eq!(start().geese.iter().filter(|&&g| g).count(), 13);
    }

    #[test]
    fn the_fox_may_stop_after_any_jump_of_a_chain() {
        // Fox on (4, 2) with geese on (4, 3) and (4, 5): steps to (3, 2), (5, 2), (4, 1); a jump to (4, 4)
        // that may stop there or go on over (4, 5) to (4, 6).
        let mut geese = [false; 64];
        geese[index(4, 3)] = true;
        geese[index(4, 5)] = true;
        let state = State { geese, fox: (4, 2), geese_left: 2 };
        let moves = fox_moves(&state);
        assert_eq!(moves.len(), 5);
        assert!(moves.iter().any(|s| s.fox == (4, 6) && s.geese_left == 0));
    }

    #[test]
    fn geese_never_step_backwards() {
        let mut geese = [false; 64];
        geese[index(4, 1)] = true;
        let state = State { geese, fox: (7, 4), geese_left: 1 };
        // (5, 1) forward and (4, 2) sideways; (3, 1) is backwards, (4, 0) is off the board.
        assert_eq!(goose_moves(&state).len(), 2);
    }
}
