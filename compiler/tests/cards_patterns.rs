//! Card patterns (seed 000's dialect) on hand-worked series, and the Dou Dizhu class tables
//! against the published action space (DouZero/RLCard: 27,472 actions including pass).

use regula_compiler::cards::deck::Deck;
use regula_compiler::cards::pattern::{self, Context};
use std::collections::HashMap;

/// The Dou Dizhu deck counted by rank (suits never matter to these patterns).
fn ddz_deck() -> Deck {
    let suits: Vec<char> = "HDSC".chars().collect();
    let ranks: Vec<char> = "34567890JQKA2".chars().collect();
    Deck::new(&suits, &ranks, true, 1, false)
}

/// Counts per kind of a series written as rank characters (`JS`/`JB` for the jokers).
fn series(deck: &Deck, text: &str) -> Vec<u8> {
    let mut counts = vec![0u8; deck.kinds.len()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let name = if c == 'J' && matches!(chars.peek(), Some('S') | Some('B')) {
            format!("J{}", chars.next().unwrap())
        } else {
            c.to_string()
        };
        let kind = deck.kinds.iter().position(|k| k.name == name).unwrap_or_else(|| panic!("no kind {name}"));
        counts[kind] += 1;
    }
    counts
}

fn matches(pattern_text: &str, text: &str) -> bool {
    let deck = ddz_deck();
    let pattern = pattern::parse(pattern_text).unwrap();
    let chain: Vec<char> = "34567890JQKA".chars().collect();
    let copies = deck.copies();
    let globals = HashMap::new();
    let context = Context { deck: &deck, successor_order: &chain, max_cards: 20, available: &copies, globals: &globals };
    pattern::matches(&pattern, &context, &series(&deck, text)).is_some()
}

#[test]
fn the_seeds_example_patterns_recognise_hand_worked_series() {
    // pair: (.a){2}
    assert!(matches("(.a){2}", "33"));
    assert!(!matches("(.a){2}", "34"));
    assert!(!matches("(.a){2}", "JSJB"), "the two jokers are not a pair");
    // two (or more) pairs: ((.a$)(.a)){2+}
    assert!(matches("((.a$)(.a)){2+}", "3344"));
    assert!(matches("((.a$)(.a)){2+}", "334499"));
    assert!(!matches("((.a$)(.a)){2+}", "3345"));
    assert!(!matches("((.a$)(.a)){2+}", "33"));
    // straight of at least 5: (.a#){5+}, `#` stepping along 3..A
    assert!(matches("(.a#){5+}", "34567"));
    assert!(matches("(.a#){5+}", "0JQKA"));
    assert!(matches("(.a#){5+}", "34567890JQKA"));
    assert!(!matches("(.a#){5+}", "3456"));
    assert!(!matches("(.a#){5+}", "JQKA2"), "2 is not in the chain order");
    assert!(!matches("(.a#){5+}", "34568"));
    // airplane: ((.a#)(.a){2}){2+}
    assert!(matches("((.a#)(.a){2}){2+}", "333444"));
    assert!(matches("((.a#)(.a){2}){2+}", "999000JJJ"));
    assert!(!matches("((.a#)(.a){2}){2+}", "333555"));
    assert!(!matches("((.a#)(.a){2}){2+}", "333"));
    // airplane with single wings: ((.a#)(.a){2}){2+:c}(.b$){c}; `$` takes a new value each time
    assert!(matches("((.a#)(.a){2}){2+:c}(.b$){c}", "33344459"));
    assert!(matches("((.a#)(.a){2}){2+:c}(.b$){c}", "333444555JS79"));
    assert!(!matches("((.a#)(.a){2}){2+:c}(.b$){c}", "3334449"), "one wing for two trios");
    assert!(!matches("((.a#)(.a){2}){2+:c}(.b$){c}", "33344499"), "the wings must differ");
    // airplane with pair wings: ((.a#)(.a){2}){2+:c}((.b$)(.b)){c}
    assert!(matches("((.a#)(.a){2}){2+:c}((.b$)(.b)){c}", "3334445599"));
    assert!(!matches("((.a#)(.a){2}){2+:c}((.b$)(.b)){c}", "3334445555"), "two equal pairs are a bomb, not wings");
    assert!(!matches("((.a#)(.a){2}){2+:c}((.b$)(.b)){c}", "333444559"));
    // bomb: (.a){4}, and the seed's (.a){4+}
    assert!(matches("(.a){4}", "7777"));
    assert!(matches("(.a){4+}", "7777"));
    assert!(!matches("(.a){4}", "777"));
    // joker and suit tests, alternation between cards
    assert!(matches("(JS)(JB)", "JSJB"));
    assert!(matches("(.a){3}([^J].)", "3335"));
    assert!(!matches("(.a){3}([^J].)", "333JB"));
    assert!(matches("(JB||JS)", "JS"));
    assert!(matches("(.a){3}(JB||.2)", "3332"));
}

#[test]
fn malformed_patterns_are_errors_with_positions() {
    for (text, offset) in [("(.a", 3), ("(.a){2", 6), ("(.a){x+}", 6), (".", 1), ("(.a)(?)", 5), ("", 0)] {
        let error = pattern::parse(text).expect_err(text);
        assert_eq!(error.offset, offset, "{text}: {error:?}");
    }
}

fn doudizhu() -> (regula_compiler::cards::Program, Deck, regula_compiler::cards::classes::PlayTables) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/doudizhu/doudizhu.cards");
    let source = std::fs::read_to_string(path).unwrap();
    let program = regula_compiler::cards::parse(&source).unwrap_or_else(|e| panic!("{e:#?}"));
    let (deck, tables, _) = regula_compiler::cards::translate(&program).unwrap_or_else(|e| panic!("{e:#?}"));
    (program, deck, tables)
}

#[test]
fn doudizhu_classes_give_the_published_action_space() {
    let (program, _, tables) = doudizhu();
    let mut per_class: HashMap<String, usize> = HashMap::new();
    for sig in &tables.signatures {
        *per_class.entry(program.classes[sig.class].name.clone()).or_default() += sig.multisets.len();
    }
    // RLCard's type_card.json / DouZero's move generator, category by category.
    let expected = [
        ("single", 15),
        ("pair", 13),
        ("trio", 13),
        ("trio_single", 182),
        ("trio_pair", 156),
        ("straight", 36),
        ("pair_chain", 52),
        ("airplane", 45),
        ("airplane_solo", 21_822),
        ("airplane_pair", 2_939),
        ("four_two", 1_326),
        ("four_pairs", 858),
        ("bomb", 13),
        ("rocket", 1),
    ];
    for (class, count) in expected {
        assert_eq!(per_class.get(class).copied().unwrap_or(0), count, "{class}");
    }
    let plays: usize = per_class.values().sum();
    assert_eq!(plays + 1, 27_472, "distinct plays plus pass");
}
