//! Checks the morris oracle against the independent entries of games/morris/perft.toml and hand-worked first plies.

use regula_oracles::{morris, perft_file};

/// Every `independent: oracles/src/morris.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("morris").join("perft.toml"))
        .expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/morris.rs"
            || (counts.is_slow() && !perft_file::slow_enabled())
        {
            continue;
        }
        assert_eq!(morris::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0);
}

/// No mill is possible before white's third piece, so the first plies are 24 * 23 * ...
#[test]
fn oracle_matches_the_product_of_free_points() {
    assert_eq!(
        morris::perft(4),
        vec![1, 24, 24 * 23, 24 * 23 * 22, 24 * 23 * 22 * 21]
    );
}
