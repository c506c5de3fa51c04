//! Checks the draughts oracle against published perft values and against the independent entries of games/draughts/perft.toml.

use regula_oracles::{draughts, perft_file};

/// Every `independent: oracles/src/draughts.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("draughts").join("perft.toml"))
        .expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/draughts.rs"
            || (counts.is_slow() && !perft_file::slow_enabled())
        {
            continue;
        }
        assert_eq!(draughts::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0 || perft_file::slow_enabled() || file.counts.iter().all(|c| c.is_slow()));
}

/// Published: Aart Bik, checkers perft from the initial position (a multi-jump is one move).
#[test]
fn oracle_matches_published_checkers_perft() {
    assert_eq!(
        draughts::perft(7),
        vec![1, 7, 49, 302, 1469, 7361, 36768, 179740]
    );
}
