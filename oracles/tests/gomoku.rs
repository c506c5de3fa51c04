//! Checks the gomoku oracle against published perft values and against the independent entries of games/gomoku/perft.toml.

use regula_oracles::{gomoku, perft_file};

/// Every `independent: oracles/src/gomoku.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("gomoku").join("perft.toml"))
        .expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/gomoku.rs"
            || (counts.is_slow() && !perft_file::slow_enabled())
        {
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
