//! Independent oracle for the corpus's dice game, "two-token race" (games/dicerace).
//!
//! Rules as implemented: a shared track of spots 0 (start) .. 16 (home); each player (red first, then blue)
//! has two tokens on spot 0. A turn is a die roll (a chance move, 1..6 uniform) followed by the player's move:
//! one token not yet home advances by the roll, stopping at home if it would pass it. The move is named by
//! the spot the token leaves, so two tokens on one spot give one move. A token may not land on a spot 1..15
//! holding both opponent tokens (a block); landing on a spot 1..15 holding exactly one opponent token sends
//! that token back to spot 0 (a hit). When no token can move, the player's move is the explicit `pass`.
//! The first player with both tokens home wins (100-0). Cap: after 100 player moves the game is drawn 50-50.
//! Perft conventions: the roll and the player's move each cost one depth; distinct rolls leading to equal
//! states would count once (they never do here, as the state remembers the roll).

/// Spot index of home.
pub const HOME: u8 = 16;
/// Player moves after which the game is drawn.
pub const MOVE_CAP: u32 = 100;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct State {
    /// tokens[player][k]: spots of the two tokens, kept sorted.
    tokens: [[u8; 2]; 2],
    /// The player to move (0 red, 1 blue).
    mover: usize,
    /// The last roll (0 before the first).
    roll: u8,
    /// Player moves made so far.
    moves: u32,
    /// Whether the next move is the roll (true) or the player's move (false).
    rolling: bool,
}

fn won(tokens: &[u8; 2]) -> bool {
    tokens.iter().all(|&spot| spot == HOME)
}

fn player_moves(state: &State) -> Vec<State> {
    let (me, other) = (state.mover, 1 - state.mover);
    let mut out = Vec::new();
    for k in 0..2 {
        let origin = state.tokens[me][k];
        if origin == HOME || (k == 1 && state.tokens[me][0] == origin) {
            continue; // home tokens do not move; a shared spot gives one move
        }
        let dest = (origin + state.roll).min(HOME);
        let opponents_there = state.tokens[other].iter().filter(|&&spot| spot == dest).count();
        if dest != HOME && opponents_there == 2 {
            continue;
        }
        let mut next = *state;
        next.tokens[me][k] = dest;
        if dest != HOME && opponents_there == 1 {
            for spot in next.tokens[other].iter_mut() {
                if *spot == dest {
                    *spot = 0;
                }
            }
        }
        next.tokens[me].sort_unstable();
        next.tokens[other].sort_unstable();
        out.push(next);
    }
    if out.is_empty() {
        out.push(*state); // the forced `pass`
    }
    for next in &mut out {
        next.moves += 1;
        next.rolling = true;
        next.mover = other;
    }
    out
}

fn children(state: &State) -> Vec<State> {
    if state.rolling {
        let mut outcomes: Vec<State> = Vec::new();
        for roll in 1..=6 {
            let next = State { roll, rolling: false, ..*state };
            if !outcomes.contains(&next) {
                outcomes.push(next); // equal chance outcomes count once
            }
        }
        outcomes
    } else {
        player_moves(state)
    }
}

fn terminal(state: &State) -> bool {
    won(&state.tokens[0]) || won(&state.tokens[1]) || state.moves >= MOVE_CAP
}

fn count(state: &State, depth: usize, level: usize, counts: &mut [u64]) {
    counts[level] += 1;
    if level == depth || terminal(state) {
        return;
    }
    for next in children(state) {
        count(&next, depth, level + 1, counts);
    }
}

/// Perft counts at depths 0..=depth from the start (red about to roll).
pub fn perft(depth: usize) -> Vec<u64> {
    let start = State { tokens: [[0, 0], [0, 0]], mover: 0, roll: 0, moves: 0, rolling: true };
    let mut counts = vec![0; depth + 1];
    count(&start, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(red: [u8; 2], blue: [u8; 2], roll: u8) -> State {
        State { tokens: [red, blue], mover: 0, roll, moves: 0, rolling: false }
    }

    #[test]
    fn a_single_opponent_token_is_hit_and_a_pair_blocks() {
        let hit = player_moves(&position([0, 3], [5, 9], 2));
        assert!(hit.iter().any(|s| s.tokens == [[0, 5], [0, 9]]));
        let blocked = player_moves(&position([0, 16], [4, 4], 4));
        assert_eq!(blocked.len(), 1, "the only move is the pass");
        assert_eq!(blocked[0].tokens, [[0, 16], [4, 4]]);
    }

    #[test]
    fn tokens_stop_at_home_and_home_tokens_stay() {
        let moves = player_moves(&position([14, 16], [0, 0], 6));
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].tokens[0], [16, 16]);
    }
}
