//! Checks the independent Connect Four (connect4) against every `independent:` entry of its perft.toml.

use regula_oracles::{connect4, perft_file};

#[test]
fn reproduces_the_independent_perft_entries() {
    let path = perft_file::games_dir().join("connect4").join("perft.toml");
    let file = perft_file::read(&path).expect("perft.toml reads");
    let mut checked = 0;
    for counts in file
        .counts
        .iter()
        .filter(|c| c.source == "independent: oracles/src/connect4.rs")
    {
        if counts.is_slow() && !perft_file::slow_enabled() {
            continue;
        }
        assert_eq!(
            connect4::perft(counts.expected.len() - 1),
            counts.expected,
            "{}",
            counts.source
        );
        checked += 1;
    }
    assert!(checked > 0, "no independent entry of connect4 was checked");
}

#[test]
fn no_game_ends_before_ply_seven() {
    let counts = connect4::perft(6);
    let powers: Vec<u64> = (0..=6).map(|d| 7u64.pow(d)).collect();
    assert_eq!(counts, powers);
}

#[test]
fn a_vertical_four_ends_the_game() {
    // red d, yellow a, red d, yellow a, red d, yellow a, red d: four in column d.
    let mut position = connect4::Position::start();
    for column in [3, 0, 3, 0, 3, 0] {
        position = position.play(column);
        assert!(!position.is_terminal());
    }
    position = position.play(3);
    assert!(position.is_terminal());
    assert!(position.moves().is_empty());
}
