//! Property tests: no input makes the RG front end panic. Random bytes, random token soup and
//! mutations of the valid games go through parse, check, lower, print and rendering; whatever
//! parses must also survive the print/parse round trip.

use crate::fuzzing;

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

proptest! {
    #![proptest_config(ProptestConfig { cases: fuzzing::fuzz_cases(300), ..ProptestConfig::default() })]

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
        mutations in prop::collection::vec(fuzzing::mutation(VOCABULARY), 1..6),
    ) {
        exercise(&fuzzing::apply(game, &mutations));
    }
}

#[test]
fn every_truncation_of_every_game_is_handled() {
    fuzzing::every_prefix(&OK_GAMES, 7, exercise);
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

#[test]
fn hostile_typedef_chains_are_an_error_not_a_stack_overflow() {
    let mut source = String::from("type Player = {x}; type Score = {0};\nbegin, end: player = keeper;\n");
    for i in 0..20_000 {
        source.push_str(&format!("type T{i} = T{};\n", i + 1));
    }
    source.push_str("type T20000 = {a};\nvar v : T0 = a;\n");
    let game = rg::parse(&source).unwrap();
    let diagnostics = rg::check(&game);
    assert!(diagnostics.iter().any(|d| d.code == "E0229"), "{:?}", &diagnostics[..diagnostics.len().min(3)]);
    let _ = rg::lower(&game);
}

#[test]
fn many_typedefs_side_by_side_are_fine() {
    let mut source = String::from("type Player = {x}; type Score = {0};\nbegin, end: player = keeper;\n");
    for i in 0..1_000 {
        source.push_str(&format!("type T{i} = {{a{i}}};\ntype U{i} = T{i} -> T{i};\n"));
    }
    let game = rg::parse(&source).unwrap();
    assert!(rg::check(&game).is_empty());
    let automaton = rg::lower(&game);
    let named = automaton.type_names.iter().filter(|n| n.is_some()).count();
    assert_eq!(named, 2 + 2_000 + 4, "Player, Score, T*, U* and the four built-in types");
    let u999 = automaton.type_names.iter().position(|n| n.as_deref() == Some("U999")).unwrap();
    let regula_runtime::automaton::Type::Map { key, .. } = automaton.types[u999] else { panic!("U999 is a map") };
    assert_eq!(automaton.type_names[key as usize].as_deref(), Some("T999"));
}
