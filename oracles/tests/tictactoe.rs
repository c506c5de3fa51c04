//! Checks the independent Tic-tac-toe (tictactoe) against every `independent:` entry of its perft.toml.

use regula_oracles::{perft_file, tictactoe};

#[test]
fn reproduces_the_independent_perft_entries() {
    let path = perft_file::games_dir().join("tictactoe").join("perft.toml");
    let file = perft_file::read(&path).expect("perft.toml reads");
    let mut checked = 0;
    for counts in file
        .counts
        .iter()
        .filter(|c| c.source == "independent: oracles/src/tictactoe.rs")
    {
        if counts.is_slow() && !perft_file::slow_enabled() {
            continue;
        }
        assert_eq!(
            tictactoe::perft(counts.expected.len() - 1),
            counts.expected,
            "{}",
            counts.source
        );
        checked += 1;
    }
    assert!(checked > 0, "no independent entry of tictactoe was checked");
}

#[test]
fn random_play_outcomes_match_the_published_figures() {
    // First player ~58.5 %, second ~28.8 %, draw ~12.7 % under uniformly random play.
    let (x, o, draw) = tictactoe::random_play_outcomes();
    assert!((x - 0.585).abs() < 0.001, "x wins {x}");
    assert!((o - 0.288).abs() < 0.001, "o wins {o}");
    assert!((draw - 0.127).abs() < 0.001, "draws {draw}");
    assert!((x + o + draw - 1.0).abs() < 1e-9);
}

#[test]
fn shallow_counts_are_falling_factorials() {
    // No line can be complete before ply 5, so perft(d) = 9!/(9-d)! up to there.
    assert_eq!(tictactoe::perft(5), vec![1, 9, 72, 504, 3024, 15120]);
}
