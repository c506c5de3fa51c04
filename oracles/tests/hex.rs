//! Checks the hex oracle against published perft values and against the independent entries of games/hex/perft.toml.

use regula_oracles::{hex, perft_file};

/// Every `independent: oracles/src/hex.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("hex").join("perft.toml")).expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/hex.rs" || (counts.is_slow() && !perft_file::slow_enabled()) {
            continue;
        }
        assert_eq!(hex::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0 || perft_file::slow_enabled() || file.counts.iter().all(|c| c.is_slow()));
}

/// No game of 11x11 hex can end before 21 stones, so the first plies are 121 * 120 * ...
#[test]
fn oracle_matches_the_product_of_free_cells() {
    assert_eq!(hex::perft(3), vec![1, 121, 121 * 120, 121 * 120 * 119]);
}

/// The whole 3x3 game tree (wins from ply 5 on) must match games/hex/variants/perft.toml, which the HRG
/// variant games/hex/variants/hex3.hrg (the same program on a 3x3 board) reproduces too.
#[test]
fn oracle_reproduces_the_three_by_three_variant() {
    let file = perft_file::read(&perft_file::games_dir().join("hex").join("variants").join("perft.toml")).unwrap();
    for counts in &file.counts {
        assert_eq!(hex::perft_sized(3, counts.expected.len() - 1), counts.expected);
    }
}
