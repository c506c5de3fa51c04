//! The blocks-language games' oracle (oracles/src/blocks/) against the published tic-tac-toe
//! counts, hand-worked opening moves, and every `independent` entry of the games' perft.toml files.

use regula_oracles::blocks::{games, Move, Rules};
use regula_oracles::perft_file;

/// The first moves as point names such as `b5-a5` (from, then landings) or `e2` (a placement).
fn first_moves(rules: &Rules) -> Vec<String> {
    let name = |p: &usize| format!("{}{}", (b'a' + (p % rules.size) as u8) as char, p / rules.size + 1);
    let mut names: Vec<String> = rules
        .children(&rules.start())
        .iter()
        .map(|(m, _)| match m {
            Move::Pass => "pass".to_string(),
            Move::Points(points) => points.iter().map(name).collect::<Vec<_>>().join("-"),
        })
        .collect();
    names.sort();
    names
}

#[test]
fn tictactoe_matches_the_published_counts() {
    assert_eq!(games::tictactoe().perft(9), vec![1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
}

#[test]
fn opening_moves_worked_by_hand() {
    // Cannons on b5 c5 d5 over empty row 4, orthogonal steps only.
    assert_eq!(first_moves(&games::gun_cannon()), ["b5-a5", "b5-b4", "c5-c4", "d5-d4", "d5-e5"]);
    // Red c2 d3, green d2 c3: each placement must close a green run.
    assert_eq!(first_moves(&games::othello5()), ["b3", "c4", "d1", "e2"]);
    // Red a1 b1 c1 step north (the middle row is empty, nothing to jump).
    assert_eq!(first_moves(&games::fantian()), ["a1-a2", "b1-b2", "c1-c2"]);
    // Only c3 is empty; b2 and d2 reach it by a diagonal (even points), c2 and b3 orthogonally.
    assert_eq!(first_moves(&games::alquerque()), ["b2-c3", "b3-c3", "c2-c3", "d2-c3"]);
}

#[test]
fn gun_cannon_red_moves_three_times_first() {
    let rules = games::gun_cannon();
    let mut position = rules.start();
    for _ in 0..3 {
        assert_eq!(rules.side_to_move(&position), regula_oracles::blocks::RED);
        position = rules.children(&position).remove(0).1;
    }
    assert_eq!(rules.side_to_move(&position), regula_oracles::blocks::GREEN);
}

#[test]
fn perft_toml_independent_entries_agree() {
    let mut checked = 0;
    for folder in [
        "blocks-tictactoe",
        "blocks-alquerque",
        "blocks-gun-cannon",
        "blocks-othello5",
        "blocks-fantian",
        "blocks-fourchess",
    ] {
        let file = perft_file::read(&perft_file::games_dir().join(folder).join("perft.toml")).unwrap();
        let rules = games::by_folder(folder).unwrap();
        for counts in file.counts.iter().filter(|c| c.source.starts_with("independent: oracles/src/blocks/")) {
            if !counts.is_slow() || perft_file::slow_enabled() {
                assert_eq!(rules.perft(counts.expected.len() - 1), counts.expected, "{folder}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 6);
}
