//! Checks the pentago oracle against published perft values and against the independent entries of games/pentago/perft.toml.

use regula_oracles::{pentago, perft_file};

/// Every `independent: oracles/src/pentago.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("pentago").join("perft.toml"))
        .expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/pentago.rs"
            || (counts.is_slow() && !perft_file::slow_enabled())
        {
            continue;
        }
        assert_eq!(pentago::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0 || perft_file::slow_enabled() || file.counts.iter().all(|c| c.is_slow()));
}

/// Nobody can have five before the ninth marble, so the first plies are (free cells) * 8 each.
#[test]
fn oracle_matches_the_product_of_free_cells_and_rotations() {
    assert_eq!(pentago::perft(2), vec![1, 288, 288 * 35 * 8]);
}
