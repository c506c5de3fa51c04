//! Robustness: random bytes, token soup and mutated valid programs never make the HRG front end
//! panic; whatever it reports renders, and every span lies inside the source.

use crate::fuzzing;

use proptest::prelude::*;
use regula_compiler::{diagnostics, hrg};

const OK_PROGRAMS: &[&str] = &[
    include_str!("../test_data/hrg/ok/tictactoe.hrg"),
    include_str!("../test_data/hrg/ok/nim.hrg"),
    include_str!("../test_data/hrg/ok/dice.hrg"),
    include_str!("../test_data/hrg/ok/statements.hrg"),
];

const WORDS: &[&str] = &[
    "domain",
    "graph",
    "reusable",
    "where",
    "in",
    "branch",
    "or",
    "loop",
    "repeat",
    "while",
    "if",
    "then",
    "else",
    "Player",
    "Score",
    "x",
    "o",
    "0",
    "100",
    "P",
    "I",
    "_",
    "..",
    "->",
    "==",
    "!=",
    "<",
    "&&",
    "||",
    "+",
    "-",
    "%",
    "=",
    ":",
    ";",
    ",",
    "|",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "*",
    "$",
    "$$",
    "$_",
    "check",
    "end",
    "return",
    "break",
    "continue",
    "reachable",
    "not",
    "player",
    "goals",
    "keeper",
    "random",
    "\n",
];

/// Runs the whole front end; checks spans and rendering of whatever comes out.
fn exercise(source: &str) {
    let diagnostics = match hrg::compile(source) {
        Ok(loaded) => loaded.warnings,
        Err(diagnostics) => diagnostics,
    };
    for diagnostic in &diagnostics {
        assert!(diagnostic.primary.span.start <= diagnostic.primary.span.end);
        assert!(diagnostic.primary.span.end <= source.len(), "span past the end: {diagnostic:?}");
    }
    let _ = diagnostics::render(&diagnostics, "fuzz.hrg", source);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let source = format!(
        "domain Player = x\ndomain Score = 0\nf : Player -> Player\nf(X) = {}X{}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let diagnostics = hrg::compile(&source).unwrap_err();
    assert_eq!(diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0303"]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: fuzzing::fuzz_cases(300), ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup_never_panics(words in proptest::collection::vec(0..WORDS.len(), 0..80)) {
        let source: Vec<&str> = words.into_iter().map(|i| WORDS[i]).collect();
        exercise(&source.join(" "));
    }

    #[test]
    fn mutated_programs_never_panic(
        program in 0..OK_PROGRAMS.len(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0..3u8, 0..WORDS.len()), 1..6),
    ) {
        let mut source = OK_PROGRAMS[program].to_string();
        for (at, kind, word) in edits {
            let mut position = at.index(source.len().max(1)).min(source.len());
            while !source.is_char_boundary(position) {
                position -= 1;
            }
            let end = source[position..].char_indices().nth(3).map_or(source.len(), |(i, _)| position + i);
            match kind {
                0 => source.replace_range(position..end, ""),
                1 => source.insert_str(position, WORDS[word]),
                _ => source.replace_range(position..end, WORDS[word]),
            }
        }
        exercise(&source);
    }
}
