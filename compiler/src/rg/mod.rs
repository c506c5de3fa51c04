//! RG's low-level text format: syntax tree, lexer, parser, printer, validator and lowering.

pub mod ast;
pub mod builtins;
pub mod check;
pub mod lexer;
pub mod lower;
pub mod parser;
pub mod printer;

use crate::diagnostics::Diagnostic;
use crate::Loaded;
use regula_runtime::automaton::Automaton;

/// Parses, validates and lowers an RG text.
pub fn compile(source: &str) -> Result<Loaded, Vec<Diagnostic>> {
    compile_game(parse(source)?)
}

/// Validates and lowers an RG syntax tree (from the parser or from another front end).
pub fn compile_game(game: ast::Game) -> Result<Loaded, Vec<Diagnostic>> {
    let diagnostics = check(&game);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    let automaton = lower(&game);
    Ok(Loaded { rg: game, automaton, warnings: diagnostics })
}

/// Parses an RG text into its syntax tree, reporting every syntax error found.
pub fn parse(source: &str) -> Result<ast::Game, Vec<Diagnostic>> {
    parser::parse(source)
}

/// Validates a syntax tree: names, types, maps, built-ins, reachability of `end`. Returns errors
/// and warnings.
pub fn check(game: &ast::Game) -> Vec<Diagnostic> {
    check::check(game)
}

/// Lowers a validated syntax tree to runtime tables. Precondition: `check(game)` has no errors.
pub fn lower(game: &ast::Game) -> Automaton {
    lower::lower(game)
}

/// Prints a syntax tree as canonical RG text; `parse(&print(g)) == Ok(g)`.
pub fn print(game: &ast::Game) -> String {
    printer::print_game(game)
}
