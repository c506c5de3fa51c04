//! Chess oracle against the published perft tables (Chess Programming Wiki, "Perft Results").

use regula_oracles::chess::{perft, perft_from, Position};
use regula_oracles::perft_file;

#[test]
fn initial_position_matches_published_counts() {
    assert_eq!(perft(4), vec![1, 20, 400, 8902, 197281]);
}

#[test]
fn initial_position_depth_five_matches_published_count() {
    if !perft_file::slow_enabled() {
        return;
    }
    assert_eq!(perft(5)[5], 4865609);
}

#[test]
fn kiwipete_matches_published_counts() {
    let kiwipete = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(perft_from(&kiwipete, 3), vec![1, 48, 2039, 97862]);
}

#[test]
fn position_three_matches_published_counts() {
    // CPW position 3: en passant discovered checks and rook endgames.
    let position = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
    assert_eq!(perft_from(&position, 4), vec![1, 14, 191, 2812, 43238]);
}

#[test]
fn positions_four_and_five_match_published_counts() {
    // CPW position 4 (promotions, castling rights, pins) and position 5.
    let four = Position::from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1").unwrap();
    assert_eq!(perft_from(&four, 3), vec![1, 6, 264, 9467]);
    let five = Position::from_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8").unwrap();
    assert_eq!(perft_from(&five, 3), vec![1, 44, 1486, 62379]);
}

#[test]
fn fifty_move_rule_ends_the_game() {
    let position = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 100 80").unwrap();
    assert!(position.legal_moves().is_empty());
    let position = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 99 80").unwrap();
    assert_eq!(position.legal_moves().len(), 15);
}

#[test]
fn perft_toml_independent_entries_agree() {
    let file = perft_file::read(&perft_file::games_dir().join("chess/perft.toml")).unwrap();
    for counts in file.counts {
        if counts.source.starts_with("independent:") && (!counts.is_slow() || perft_file::slow_enabled()) {
            assert_eq!(perft(counts.expected.len() - 1), counts.expected, "{}", counts.source);
        }
    }
}
