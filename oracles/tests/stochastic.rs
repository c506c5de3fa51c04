//! Checks the dice-race oracle (oracles/src/stochastic.rs) against games/dicerace/perft.toml and hand-worked plies.

use regula_oracles::{perft_file, stochastic};

/// Every `independent: oracles/src/stochastic.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("dicerace").join("perft.toml"))
        .expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/stochastic.rs"
            || (counts.is_slow() && !perft_file::slow_enabled())
        {
            continue;
        }
        assert_eq!(
            stochastic::perft(counts.expected.len() - 1),
            counts.expected
        );
        checked += 1;
    }
    assert!(checked > 0);
}

/// Six rolls; red's two tokens share spot 0, so one move after each; the same for blue; then six more rolls.
#[test]
fn first_plies_match_hand_counts() {
    assert_eq!(stochastic::perft(5), vec![1, 6, 6, 36, 36, 216]);
}
