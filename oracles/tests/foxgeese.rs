//! Checks the foxgeese oracle against the independent entries of games/foxgeese/perft.toml and hand-worked first plies.

use regula_oracles::{foxgeese, perft_file};

/// Every `independent: oracles/src/foxgeese.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("foxgeese").join("perft.toml"))
        .expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/foxgeese.rs"
            || (counts.is_slow() && !perft_file::slow_enabled())
        {
            continue;
        }
        assert_eq!(foxgeese::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0);
}

/// Hand count: six geese of row 3 can step forward (column 4 faces the fox); after any of them the fox has three
/// moves (two free steps and either a third step or a jump over the goose that came beside it).
#[test]
fn oracle_matches_hand_counted_first_plies() {
    assert_eq!(foxgeese::perft(2), vec![1, 6, 18]);
}
