//! Test support for the optimiser: RG text in and out through the real parser and printer, so
//! pass tests read as before/after RG programs.

use crate::rg::ast::Game;

/// Parses RG text; a syntax error is a bug in the test.
pub fn parse(source: &str) -> Game {
    crate::rg::parse(source).unwrap_or_else(|diagnostics| panic!("test RG does not parse: {diagnostics:#?}"))
}

/// Prints a game as canonical RG text.
pub fn print(game: &Game) -> String {
    crate::rg::print(game)
}
