//! Checks the independent Goofspiel (hidden) against every `independent:` entry of its perft.toml.

use regula_oracles::{hidden, perft_file};

#[test]
fn reproduces_the_independent_perft_entries() {
    let path = perft_file::games_dir().join("hidden").join("perft.toml");
    let file = perft_file::read(&path).expect("perft.toml reads");
    let mut checked = 0;
    for counts in file
        .counts
        .iter()
        .filter(|c| c.source == "independent: oracles/src/hidden.rs")
    {
        if counts.is_slow() && !perft_file::slow_enabled() {
            continue;
        }
        assert_eq!(
            hidden::perft(counts.expected.len() - 1),
            counts.expected,
            "{}",
            counts.source
        );
        checked += 1;
    }
    assert!(checked > 0, "no independent entry of hidden was checked");
}

#[test]
fn every_game_lasts_twelve_moves() {
    let counts = hidden::perft(13);
    // (4 * 4 * 4) * (3 * 3 * 3) * (2 * 2 * 2) * 1 paths of 12 moves, and none longer.
    assert_eq!(counts[12], 13824);
    assert_eq!(counts[13], 0);
}

#[test]
fn higher_bid_takes_the_prize() {
    use hidden::State;
    // Prize 4; first bids 2, second bids 3: second takes 4 points.
    let state = State::start().play(4).play(2).play(3);
    assert_eq!(state.points, [0, 4]);
    // Equal bids take nothing.
    let state = state.play(1).play(3).play(3);
    assert_eq!(state.points, [0, 4]);
}
