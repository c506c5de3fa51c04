//! Checks the morris oracle against the independent entries of games/morris/perft.toml and hand-worked first plies.

use regula_oracles::{morris, perft_file};

/// Every `independent: oracles/src/morris.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("morris").join("perft.toml")).expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/morris.rs" || (counts.is_slow() && !perft_file::slow_enabled()) {
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
    assert_eq!(morris::perft(4), vec![1, 24, 24 * 23, 24 * 23 * 22, 24 * 23 * 22 * 21]);
}

/// The step-by-step positions (used to replay random games of the HRG program move by move) span the same
/// tree as perft, terminal positions included.
#[test]
fn positions_span_the_perft_tree() {
    fn walk(position: &morris::Position, level: usize, counts: &mut [u64]) {
        counts[level] += 1;
        if level + 1 < counts.len() {
            for (_, next) in position.moves() {
                walk(&next, level + 1, counts);
            }
        }
    }
    let mut counts = vec![0; 4 + 1];
    walk(&morris::Position::start(), 0, &mut counts);
    assert_eq!(counts, morris::perft(4));
}
