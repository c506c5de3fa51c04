//! Property tests: no input makes the RG front end panic. Random bytes, random token soup and
//! mutations of the valid games go through parse, check, lower, print and rendering; whatever
//! parses must also survive the print/parse round trip.

use proptest::prelude::*;
use regula_compiler::diagnostics::render;
use regula_compiler::rg;

const OK_GAMES: [&str; 5] = [
    include_str!("../test_data/rg/ok/minimal.rg"),
    include_str!("../test_data/rg/ok/tictactoe.rg"),
    include_str!("../test_data/rg/ok/dice.rg"),
    include_str!("../test_data/rg/ok/hidden.rg"),
    include_str!("../test_data/rg/ok/every_label.rg"),
];

const VOCABULARY: &[&str] = &[
    "type",
    "const",
    "var",
    "begin",
    "end",
    "player",
    "keeper",
    "random",
    "goals",
    "visible",
    "Player",
    "Score",
    "PlayerOrSystem",
    "Bool",
    "x",
    "o",
    "0",
    "1",
    "100",
    "a",
    "b",
    "m",
    ";",
    ":",
    ",",
    "=",
    "==",
    "!=",
    "->",
    "?",
    "!",
    "$",
    "$$",
    "@",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "*",
    "@disjoint",
    "//",
    "\n",
    "é",
    "#",
];

/// Runs every phase; panics only if one of them does (or the round trip breaks).
fn exercise(source: &str) {
    let parsed = rg::parse(source);
    match parsed {
        Err(diagnostics) => {
            let _ = render(&diagnostics, "fuzz.rg", source);
        }
        Ok(game) => {
            let diagnostics = rg::check(&game);
            let _ = render(&diagnostics, "fuzz.rg", source);
            // Lowering is total, even on games the validator rejects.
            let _ = rg::lower(&game);
            let printed = rg::print(&game);
            assert_eq!(rg::parse(&printed).as_ref(), Ok(&game), "round trip broke for:\n{printed}");
        }
    }
    let _ = rg::compile(source);
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    Swap(usize, usize),
    Truncate(usize),
}

fn apply(source: &str, mutations: &[Mutation]) -> String {
    let mut bytes = source.as_bytes().to_vec();
    for mutation in mutations {
        let len = bytes.len().max(1);
        match mutation {
            Mutation::Delete(at, count) => {
                let at = at % len;
                let stop = (at + count).min(bytes.len());
                if at < stop {
                    bytes.drain(at..stop);
                }
            }
            Mutation::Insert(at, text) => {
                let at = (at % len).min(bytes.len());
                bytes.splice(at..at, text.bytes());
            }
            Mutation::Swap(i, j) => {
                if !bytes.is_empty() {
                    let (i, j) = (i % bytes.len(), j % bytes.len());
                    bytes.swap(i, j);
                }
            }
            Mutation::Truncate(at) => bytes.truncate(at % len),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(at, n)| Mutation::Delete(at, n)),
        (any::<usize>(), prop::sample::select(VOCABULARY)).prop_map(|(at, t)| Mutation::Insert(at, format!(" {t} "))),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::Swap(i, j)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,120}") {
        exercise(&text);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(VOCABULARY), 0..60)) {
        exercise(&tokens.join(" "));
    }

    #[test]
    fn mutated_games_never_panic(
        game in prop::sample::select(&OK_GAMES[..]),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        exercise(&apply(game, &mutations));
    }
}

#[test]
fn every_truncation_of_every_game_is_handled() {
    for game in OK_GAMES {
        let mut cut = 0;
        while cut <= game.len() {
            if game.is_char_boundary(cut) {
                exercise(&game[..cut]);
            }
            cut += 7;
        }
    }
}

#[test]
fn hostile_nesting_is_an_error_not_a_stack_overflow() {
    for source in [
        "{".repeat(100_000),
        format!("var m : {} = a;", "A -> ".repeat(50_000) + "B"),
        format!("a, b: m{} == x;", "[k]".repeat(50_000)),
        format!("a, b: {}x{} == y;", "T(".repeat(50_000), ")".repeat(50_000)),
    ] {
        let errors = rg::parse(&source).unwrap_err();
        assert!(errors.iter().any(|e| e.code == "E0105"), "{errors:?}");
    }
}

#[test]
fn nesting_just_under_the_limit_is_fine() {
    let depth = rg::parser::MAX_NESTING;
    let deep_map = format!("{}a{}", "{:".repeat(depth), "}".repeat(depth));
    let source = format!(
        "type Player = {{x}}; type Score = {{0}}; type A = {{a}};\nvar m : {}A = {deep_map};\n\
         begin, end: m{} == a;",
        "A -> ".repeat(depth),
        "[a]".repeat(depth)
    );
    let game = rg::parse(&source).unwrap();
    assert!(rg::check(&game).is_empty());
    assert_eq!(rg::parse(&rg::print(&game)).unwrap(), game);
    let automaton = rg::lower(&game);
    assert_eq!(automaton.edges.len(), 1);
}
