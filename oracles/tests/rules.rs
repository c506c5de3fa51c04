//! Checks the Rule Game oracle (oracles/src/rules/) against every `games/rules-*/perft.toml` entry
//! it is named in, and against plies worked out by hand.

use regula_oracles::perft_file;
use regula_oracles::rules::{sets, Outcome, Phase};

/// Every `independent: oracles/src/rules/` entry of each rules game must be reproduced.
#[test]
fn oracle_reproduces_every_rules_perft_file() {
    let mut checked = 0;
    for name in sets::NAMES {
        let set = sets::by_name(name).expect("known set");
        let path = perft_file::games_dir().join(format!("rules-{name}")).join("perft.toml");
        let file = perft_file::read(&path).expect("perft.toml");
        for counts in &file.counts {
            if !counts.source.starts_with("independent: oracles/src/rules/")
                || (counts.is_slow() && !perft_file::slow_enabled())
            {
                continue;
            }
            assert_eq!(set.perft(counts.expected.len() - 1), counts.expected, "{name}");
            checked += 1;
        }
    }
    assert!(checked >= sets::NAMES.len());
}

/// Example 1 of arithmetic.html: 5 pieces x 4 buckets first; after bucket b, line 1 is spent and
/// line 2 takes pieces whose nearest bucket is b, else line 1 again with p-1.
#[test]
fn arithmetic_example_first_plies_by_hand() {
    let set = sets::by_name("arithmetic-example").unwrap();
    let start = set.initial();
    assert_eq!(set.children(&start).len(), 20);
    // Cell 1 (nearest bucket 3) into bucket 3: line 2 has no other piece near bucket 3, so
    // control returns to line 1, which wants bucket 2 for any of the 4 pieces left.
    let (outcome, after) = set.attempt(&start, 1, 3);
    assert_eq!(outcome, Outcome::Accept);
    assert_eq!(after.line, 0);
    assert_eq!(set.children(&after).len(), 4);
    assert!(set.accepts(&after, 6, 2) && !set.accepts(&after, 6, 1));
    // Cell 6 (nearest bucket 2) into bucket 2 first: line 2 is active and only cell 16 (nearest
    // bucket 2) may move, into bucket 2.
    let (_, after) = set.attempt(&start, 6, 2);
    assert_eq!(after.line, 1);
    assert_eq!(set.children(&after).len(), 1);
    assert!(set.accepts(&after, 16, 2) && !set.accepts(&after, 1, 2));
}

/// The refusals of shape-sort: a circle anywhere but bucket 0 is denied; three refusals end the
/// game with 0.
#[test]
fn shape_sort_refusals_by_hand() {
    let set = sets::by_name("shape-sort").unwrap();
    let start = set.initial();
    assert_eq!(set.children(&start).len(), 12);
    assert_eq!(set.attempt(&start, 7, 0).0, Outcome::Accept);
    let (outcome, once) = set.attempt(&start, 7, 1);
    assert_eq!(outcome, Outcome::Deny);
    let (_, twice) = set.attempt(&once, 12, 0);
    let (_, thrice) = set.attempt(&twice, 30, 0);
    assert_eq!(thrice.phase, Phase::Over(0));
    // Clearing with one error scores round(100 / (1 + e^-1)) = 73.
    let (_, a) = set.attempt(&once, 7, 0);
    let (_, b) = set.attempt(&a, 12, 1);
    let (_, c) = set.attempt(&b, 30, 2);
    assert_eq!(c.phase, Phase::Over(73));
}

/// stalemate: the reds go first (any order, buckets 0/1), then the blue square into p once, and
/// the blue circle and star can never move.
#[test]
fn stalemate_always_ends_with_zero() {
    let set = sets::by_name("stalemate").unwrap();
    assert_eq!(set.score_distribution(), vec![(0, 1.0)]);
}

/// Prints each rule set's full perft and exact score distribution (for writing perft.toml):
/// `cargo test -p regula-oracles --test integration rules:: -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_rules_perft() {
    for name in sets::NAMES {
        let set = sets::by_name(name).unwrap();
        println!("{name}: {:?} {:?}", set.perft(8), set.score_distribution());
    }
}
