//! Checks the independent Pig to 10 (dice) against every `independent:` entry of its perft.toml.

use regula_oracles::{dice, perft_file};

#[test]
fn reproduces_the_independent_perft_entries() {
    let path = perft_file::games_dir().join("dice").join("perft.toml");
    let file = perft_file::read(&path).expect("perft.toml reads");
    let mut checked = 0;
    for counts in file
        .counts
        .iter()
        .filter(|c| c.source == "independent: oracles/src/dice.rs")
    {
        if counts.is_slow() && !perft_file::slow_enabled() {
            continue;
        }
        assert_eq!(
            dice::perft(counts.expected.len() - 1),
            counts.expected,
            "{}",
            counts.source
        );
        checked += 1;
    }
    assert!(checked > 0, "no independent entry of dice was checked");
}

#[test]
fn first_plies_by_hand() {
    // Depth 1: roll or hold. Depth 2: six faces after a roll; after a hold, the second player's
    // two choices. Depth 3: after a bust the second player chooses (2); after faces 2..6 the
    // first player chooses again (5 x 2); after hold-roll six faces, after hold-hold two choices.
    assert_eq!(dice::perft(3), vec![1, 2, 8, 20]);
}

#[test]
fn winning_faces_merge_into_one_state() {
    use dice::{Move, State};
    // Bank 8 first (roll 6, roll 2, hold), then the second player holds at 0: first to move at 8.
    let mut state = State::start();
    for mv in [
        Move::Roll,
        Move::Face(6),
        Move::Roll,
        Move::Face(2),
        Move::Hold,
        Move::Hold,
    ] {
        state = state.play(mv);
    }
    assert_eq!(state.banked, [8, 0]);
    let thrown = state.play(Move::Roll);
    // A bust, and every other face wins: two distinct states.
    assert_eq!(thrown.moves().len(), 6);
    assert_eq!(thrown.children().len(), 2);
}
