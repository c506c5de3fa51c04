//! Checks the amazons oracle against published perft values and against the independent entries of games/amazons/perft.toml.

use regula_oracles::{amazons, perft_file};

/// Every `independent: oracles/src/amazons.rs` entry of perft.toml must be reproduced by the oracle.
#[test]
fn oracle_reproduces_the_perft_file() {
    let file = perft_file::read(&perft_file::games_dir().join("amazons").join("perft.toml")).expect("perft.toml");
    let mut checked = 0;
    for counts in &file.counts {
        if counts.source != "independent: oracles/src/amazons.rs" || (counts.is_slow() && !perft_file::slow_enabled()) {
            continue;
        }
        assert_eq!(amazons::perft(counts.expected.len() - 1), counts.expected);
        checked += 1;
    }
    assert!(checked > 0, "perft.toml has no default independent entry");
}

/// Published: 2176 first moves from the 10x10 start, the figure commonly cited for Amazons.
#[test]
fn oracle_matches_the_published_first_ply() {
    assert_eq!(amazons::perft(1), vec![1, 2176]);
}

/// games/amazons/variants/perft.toml (3x3, white a1, black c3; the HRG variant reproduces it) matches the oracle.
#[test]
fn oracle_reproduces_the_three_by_three_variant() {
    let path = perft_file::games_dir().join("amazons").join("variants").join("perft.toml");
    for counts in &perft_file::read(&path).unwrap().counts {
        if counts.is_slow() && !perft_file::slow_enabled() {
            continue;
        }
        assert_eq!(amazons::perft_on(3, &[(0, 0)], &[(2, 2)], counts.expected.len() - 1), counts.expected);
    }
}

/// The step-by-step positions (used to replay random games of the HRG program move by move) give the first
/// ply's 2176 moves, all distinct and none ending the game.
#[test]
fn positions_give_the_first_ply() {
    let first = amazons::Position::start().moves();
    assert_eq!(first.len() as u64, amazons::perft(1)[1]);
    let mut names: Vec<&String> = first.iter().map(|(name, _)| name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), first.len());
    assert!(first.iter().all(|(_, next)| next.scores().is_none()));
}
