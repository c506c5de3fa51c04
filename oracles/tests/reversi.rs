//! Reversi oracle against Aart Bik's published perft table and the corpus's perft.toml.

use regula_oracles::perft_file;
use regula_oracles::reversi::{perft, perft_from, Move, Position};

#[test]
fn matches_published_counts_to_depth_eight() {
    assert_eq!(perft(8), vec![1, 4, 12, 56, 244, 1396, 8200, 55092, 390216]);
}

#[test]
fn matches_published_counts_at_depths_nine_and_ten() {
    // Depth 10 is the first depth where the two-pass rule changes the count (9-ply wipeouts).
    if !perft_file::slow_enabled() {
        return;
    }
    let counts = perft(10);
    assert_eq!(counts[9], 3005288);
    assert_eq!(counts[10], 24571284);
}

#[test]
fn a_wiped_out_side_passes_then_the_game_ends() {
    // Black to move on a board with only black discs: black cannot place, passes; white cannot
    // place either, passes; then nothing is legal.
    let mut cells = [0u8; 64];
    cells[27] = 1;
    let position = Position { cells, to_move: 1, consecutive_passes: 0 };
    assert_eq!(position.legal_moves(), vec![Move::Pass]);
    let after_one = position.apply(Move::Pass);
    assert_eq!(after_one.legal_moves(), vec![Move::Pass]);
    assert!(after_one.apply(Move::Pass).legal_moves().is_empty());
}

#[test]
fn perft_toml_independent_and_published_entries_agree() {
    let file = perft_file::read(&perft_file::games_dir().join("reversi/perft.toml")).unwrap();
    for counts in file.counts {
        if !counts.is_slow() || perft_file::slow_enabled() {
            assert_eq!(perft(counts.expected.len() - 1), counts.expected, "{}", counts.source);
        }
    }
}

#[test]
fn sparse_position_with_passes() {
    // A sparse position where sides run out of placements and pass. The same counts came out
    // of games/reversi/reversi.hrg started from this position (its initial discs edited), so the
    // two implementations agree on flipping and on the pass rule.
    let mut cells = [0u8; 64];
    for (column, row) in [(0, 0), (7, 7), (3, 3), (0, 5)] {
        cells[row * 8 + column] = 1;
    }
    for (column, row) in [(1, 0), (2, 0), (1, 1), (6, 6), (6, 7), (4, 4), (1, 5)] {
        cells[row * 8 + column] = 2;
    }
    let position = Position { cells, to_move: 1, consecutive_passes: 0 };
    assert_eq!(perft_from(&position, 8), vec![1, 5, 6, 27, 37, 153, 237, 1039, 2218]);
}
