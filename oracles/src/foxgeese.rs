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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A move: the points it names (as the HRG program's tags) and the resulting state.
type Named = (Vec<(i32, i32)>, State);

fn goose_moves(state: &State) -> Vec<Named> {
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
                    out.push((vec![(row, col), (row + dr, col + dc)], next));
                }
            }
        }
    }
    out
}

/// Jump chains continuing from `state` (the fox has just landed), each chain end being a successor.
fn fox_jumps(state: &State, path: &mut Vec<(i32, i32)>, out: &mut Vec<Named>) {
    let (row, col) = state.fox;
    for (dr, dc) in STEPS {
        let (over_r, over_c, land_r, land_c) = (row + dr, col + dc, row + 2 * dr, col + 2 * dc);
        if exists(over_r, over_c) && state.geese[index(over_r, over_c)] && state.empty(land_r, land_c) {
            let mut next = *state;
            next.geese[index(over_r, over_c)] = false;
            next.geese_left -= 1;
            next.fox = (land_r, land_c);
            path.push(next.fox);
            out.push((path.clone(), next));
            fox_jumps(&next, path, out);
            path.pop();
        }
    }
}

fn fox_moves(state: &State) -> Vec<Named> {
    let mut out = Vec::new();
    let (row, col) = state.fox;
    for (dr, dc) in STEPS {
        if state.empty(row + dr, col + dc) {
            let mut next = *state;
            next.fox = (row + dr, col + dc);
            out.push((vec![next.fox], next));
        }
    }
    fox_jumps(state, &mut Vec::new(), &mut out);
    out
}

fn count(state: &State, geese_to_move: bool, ply: usize, depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth || ply >= PLY_CAP || state.geese_left < GEESE_NEEDED {
        return;
    }
    let moves = if geese_to_move { goose_moves(state) } else { fox_moves(state) };
    for (_, next) in moves {
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
        assert!(moves.iter().any(|(path, s)| s.fox == (4, 6) && s.geese_left == 0 && path == &[(4, 4), (4, 6)]));
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

/// A position for step-by-step play, so that another implementation can be replayed against this one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    state: State,
    geese_to_move: bool,
    ply: usize,
    /// Scores (geese, fox) once the game is over.
    scores: Option<[i64; 2]>,
}

impl Position {
    /// The start, geese to move.
    pub fn start() -> Position {
        Position { state: start(), geese_to_move: true, ply: 0, scores: None }
    }

    /// (geese, fox) scores when the game is over.
    pub fn scores(&self) -> Option<[i64; 2]> {
        self.scores
    }

    /// Every legal move, named like the HRG program's tags (`P__row_col`: a goose's origin and destination;
    /// the fox's destination or every landing point of its jumps), with its result.
    pub fn moves(&self) -> Vec<(String, Position)> {
        if self.scores.is_some() {
            return Vec::new();
        }
        let moves = if self.geese_to_move { goose_moves(&self.state) } else { fox_moves(&self.state) };
        moves
            .into_iter()
            .map(|(points, state)| {
                let names: Vec<String> = points.iter().map(|(r, c)| format!("P__{r}_{c}")).collect();
                let ply = self.ply + 1;
                let scores = if self.geese_to_move && fox_moves(&state).is_empty() {
                    Some([100, 0])
                } else if !self.geese_to_move && (state.geese_left < GEESE_NEEDED || goose_moves(&state).is_empty()) {
                    Some([0, 100])
                } else if ply >= PLY_CAP {
                    Some([50, 50])
                } else {
                    None
                };
                (names.join(" "), Position { state, geese_to_move: !self.geese_to_move, ply, scores })
            })
            .collect()
    }
}
