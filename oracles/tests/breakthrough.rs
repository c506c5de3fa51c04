//! Breakthrough oracle: hand-worked early counts, end conditions, and the corpus's perft.toml.

use regula_oracles::breakthrough::{perft, perft_from, Move, Position};
use regula_oracles::perft_file;

#[test]
fn first_plies_match_hand_counts() {
    // Front row of 8 pawns: 6 middle pawns have 3 moves, 2 edge pawns have 2: 22 moves, and the
    // armies cannot interact during the first two plies, so depth 2 is 22 * 22.
    assert_eq!(perft(2), vec![1, 22, 484]);
}

#[test]
fn reaching_the_last_row_ends_the_game() {
    let mut cells = [0u8; 64];
    cells[6 * 8 + 2] = 1;
    cells[1 * 8 + 5] = 2;
    let position = Position { cells, to_move: 1, finished: false };
    // The white pawn on row 6, column 2 has three moves, each reaching row 7.
    let moves = position.legal_moves();
    assert_eq!(moves.len(), 3);
    for mv in moves {
        assert!(position.apply(mv).legal_moves().is_empty());
    }
}

#[test]
fn capturing_the_last_enemy_pawn_ends_the_game() {
    let mut cells = [0u8; 64];
    cells[3 * 8 + 3] = 1;
    cells[4 * 8 + 4] = 2;
    let position = Position { cells, to_move: 1, finished: false };
    let capture = Move { from: 3 * 8 + 3, to: 4 * 8 + 4 };
    assert!(position.legal_moves().contains(&capture));
    assert!(position.apply(capture).legal_moves().is_empty());
    // Straight ahead onto an enemy pawn is not allowed.
    cells[4 * 8 + 3] = 2;
    let blocked = Position { cells, to_move: 1, finished: false };
    assert!(!blocked.legal_moves().contains(&Move { from: 27, to: 35 }));
}

#[test]
fn perft_toml_independent_entries_agree() {
    let file = perft_file::read(&perft_file::games_dir().join("breakthrough/perft.toml")).unwrap();
    for counts in file.counts {
        if !counts.is_slow() || perft_file::slow_enabled() {
            assert_eq!(perft(counts.expected.len() - 1), counts.expected, "{}", counts.source);
        }
    }
}

#[test]
fn endgame_position_counts() {
    // A sparse position where wins by promotion and by capture happen within a few plies. The
    // same counts came out of games/breakthrough/breakthrough.hrg started from this position
    // (its board initialiser edited), so the two implementations agree on the end conditions.
    let mut cells = [0u8; 64];
    for (column, row) in [(1, 5), (6, 4), (3, 1)] {
        cells[row * 8 + column] = 1;
    }
    for (column, row) in [(2, 6), (5, 2), (0, 7)] {
        cells[row * 8 + column] = 2;
    }
    let position = Position { cells, to_move: 1, finished: false };
    assert_eq!(perft_from(&position, 5), vec![1, 9, 68, 564, 3932, 25932]);
}
