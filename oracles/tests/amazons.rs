//! Checks the amazons oracle against published perft values and against the independent entries of games/amazons/perft.toml.

use regula_oracles::{amazons, perft_file};

/// Every `independent: oracles/src/amazons.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("amazons").join("perft.toml"))
        .expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/amazons.rs"
            || (counts.is_slow() && !perft_file::slow_enabled())
        {
            continue;
        }
        assert_eq!(amazons::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0 || perft_file::slow_enabled() || file.counts.iter().all(|c| c.is_slow()));
}

/// Published: 2176 first moves from the 10x10 start, the figure commonly cited for Amazons.
#[test]
fn oracle_matches_the_published_first_ply() {
    assert_eq!(amazons::perft(1), vec![1, 2176]);
}
