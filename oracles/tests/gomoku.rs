//! Checks the gomoku oracle against published perft values and against the independent entries of games/gomoku/perft.toml.

use regula_oracles::{gomoku, perft_file};

/// Every `independent: oracles/src/gomoku.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("gomoku").join("perft.toml")).expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/gomoku.rs" || (counts.is_slow() && !perft_file::slow_enabled()) {
            continue;
        }
        assert_eq!(gomoku::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0 || perft_file::slow_enabled() || file.counts.iter().all(|c| c.is_slow()));
}

/// No five can exist before the ninth stone, so the first plies are 225 * 224 * ...
#[test]
fn oracle_matches_the_product_of_free_cells() {
    assert_eq!(gomoku::perft(3), vec![1, 225, 50400, 11239200]);
}

/// With a 3x3 board and three in a row the rules are tic-tac-toe's, whose perft is published (e.g. the
/// tic-tac-toe game-tree counts: 255168 games, 1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872).
#[test]
fn oracle_on_three_by_three_is_tic_tac_toe() {
    assert_eq!(gomoku::perft_with(3, 3, 9), vec![1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
}

/// games/gomoku/variants/perft.toml (the 3x3, three-in-a-row variant of the HRG program) matches the oracle.
#[test]
fn oracle_reproduces_the_tic_tac_toe_variant() {
    let path = perft_file::games_dir().join("gomoku").join("variants").join("perft.toml");
    for counts in &perft_file::read(&path).unwrap().counts {
        assert_eq!(gomoku::perft_with(3, 3, counts.expected.len() - 1), counts.expected);
    }
}
