//! RG's low-level text format: syntax tree, lexer, parser, printer, validator and lowering.

pub mod ast;

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
    Ok(Loaded {
        rg: game,
        automaton,
        warnings: diagnostics,
    })
}

/// Parses an RG text into its syntax tree, reporting every syntax error found.
pub fn parse(source: &str) -> Result<ast::Game, Vec<Diagnostic>> {
    let _ = source;
    Err(vec![Diagnostic::error(
        "E0002",
        "the RG parser is not built yet",
        ast::Span::default(),
    )])
}

/// Validates a syntax tree: names, types, maps, built-ins, reachability of `end`. Returns errors
/// and warnings.
pub fn check(game: &ast::Game) -> Vec<Diagnostic> {
    let _ = game;
    vec![Diagnostic::error(
        "E0002",
        "the RG validator is not built yet",
        ast::Span::default(),
    )]
}

/// Lowers a validated syntax tree to runtime tables. Precondition: `check(game)` has no errors.
pub fn lower(game: &ast::Game) -> Automaton {
    let _ = game;
    unimplemented!("RG lowering is not built yet")
}

/// Prints a syntax tree as canonical RG text; `parse(&print(g)) == Ok(g)`.
pub fn print(game: &ast::Game) -> String {
    let _ = game;
    String::new()
}
