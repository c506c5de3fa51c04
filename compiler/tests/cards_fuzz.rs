//! Property tests: no input makes the card language front end panic. Random text, token soup and
//! mutations of the example programs go through parsing and, when the result is small enough to
//! translate quickly, through translation, RG validation and rendering of the diagnostics.
//! `REGULA_FUZZ_CASES=5000 cargo test -p regula-compiler --test integration cards_fuzz` runs a longer campaign.

use crate::fuzzing;

use proptest::prelude::*;
use regula_compiler::cards;
use regula_compiler::diagnostics::render;

const PROGRAMS: [&str; 3] = [
    include_str!("../test_data/cards/ok/high_card.cards"),
    include_str!("../../games/trumps/trumps.cards"),
    include_str!("../../games/doudizhu/doudizhu.cards"),
];

const VOCABULARY: &[&str] = &[
    "<config>",
    "</config>",
    "<var>",
    "</var>",
    "<func>",
    "</func>",
    "<card>",
    "</card>",
    "<mode>",
    "</mode>",
    "<body>",
    "</body>",
    "<end>",
    "</end>",
    "int",
    "bool",
    "string",
    "series",
    "card[]",
    "if",
    "else",
    "while",
    "for",
    "switch",
    "case",
    "default",
    "break",
    "return",
    "NONE",
    "true",
    "false",
    "play_card",
    "deliver",
    "top_card",
    "get_cardsnum",
    "state_point",
    "match",
    "compare",
    "add_score",
    "begin",
    "find",
    "get_cards",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ":",
    ",",
    "=",
    "==",
    "!=",
    "<",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "&&",
    "||",
    "$1",
    "$2",
    "$1.size",
    "$1(1)",
    ".",
    "..",
    "..|..",
    "(.a)",
    "(.a#)",
    "(.b$)",
    "{2}",
    "{2+}",
    "{c}",
    "{1+:c}",
    "[^J]",
    "[HD]",
    "%trump%",
    "JS",
    "JB",
    "H3",
    "x",
    "p",
    "0",
    "1",
    "-1",
    "99999999999999999999",
    "\"",
    "\"H\"",
    "//",
    "\n",
    "é",
];

/// Parses, and translates when the deck and the class sizes keep the class tables small.
fn exercise(source: &str) {
    match cards::parse(source) {
        Err(diagnostics) => {
            let _ = render(&diagnostics, "fuzz.cards", source);
        }
        Ok(program) => {
            let c = &program.config;
            let deck = (c.suits.len() * c.ranks.len() + if c.jokers { 2 } else { 0 }) * c.packs as usize;
            if deck <= 12 && c.max_cards <= 3 {
                if let Err(diagnostics) = cards::compile(source) {
                    let _ = render(&diagnostics, "fuzz.cards", source);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: fuzzing::fuzz_cases(200), ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,160}") {
        exercise(&text);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(VOCABULARY), 0..80)) {
        exercise(&tokens.join(" "));
    }

    #[test]
    fn mutated_programs_never_panic(
        program in prop::sample::select(&PROGRAMS[..]),
        mutations in prop::collection::vec(fuzzing::mutation(VOCABULARY), 1..6),
    ) {
        exercise(&fuzzing::apply(program, &mutations));
    }
}

#[test]
fn every_truncation_of_every_program_is_handled() {
    fuzzing::every_prefix(&PROGRAMS, 11, exercise);
}

#[test]
fn the_example_programs_parse_and_the_small_ones_translate() {
    for program in PROGRAMS {
        assert!(cards::parse(program).is_ok());
    }
    // The two small programs pass the size gate of `exercise`, so it does translate something.
    assert!(cards::compile(PROGRAMS[0]).is_ok());
    assert!(cards::compile(PROGRAMS[1]).is_ok());
}
