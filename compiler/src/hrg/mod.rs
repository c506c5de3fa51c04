//! The high-level language front end (HRG-compatible): lexer, parser, compile-time evaluation,
//! checks, and lowering to the RG syntax tree, which then goes through
//! [`crate::rg::compile_game`]. The language is described in `spec/hrg.md`.

pub mod ast;
pub mod eval;
pub mod lexer;
pub mod lower;
pub mod parser;
pub mod print;

use crate::diagnostics::Diagnostic;
use crate::Loaded;

pub use parser::parse;

/// Lowers a parsed program to an RG syntax tree: the game plus its warnings, or every error.
pub fn lower(program: &ast::Program) -> Result<(crate::rg::ast::Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    lower::lower(program)
}

/// Parses, checks and lowers an HRG source to RG, then validates and lowers it to runtime tables.
pub fn compile(source: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let program = parse(source)?;
    let (game, warnings) = lower(&program)?;
    match crate::rg::compile_game(game) {
        Ok(mut loaded) => {
            let mut all = warnings;
            all.append(&mut loaded.warnings);
            loaded.warnings = all;
            Ok(loaded)
        }
        Err(mut errors) => {
            errors.extend(warnings);
            Err(errors)
        }
    }
}

/// Parses and lowers an HRG source to an RG syntax tree without the RG validation.
pub fn to_rg(source: &str) -> Result<(crate::rg::ast::Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    lower(&parse(source)?)
}
