//! The Rule Game ("Game of Hidden Rules") front end: `.rules` files with rule lines, atoms,
//! orders and bucket expressions, translated to RG text and compiled like any RG program. The
//! language, the translation and every reading we chose are in `spec/rules.md`.

pub mod ast;
pub mod eval;
pub mod lexer;
pub mod orders;
pub mod parser;
pub mod translate;

use crate::diagnostics::Diagnostic;
use crate::Loaded;

pub use parser::parse;
pub use translate::to_rg_text;

/// Parses and checks a rule file, then translates it to an RG syntax tree.
pub fn to_rg(source: &str) -> Result<crate::rg::ast::Game, Vec<Diagnostic>> {
    let file = parse(source)?;
    let text = to_rg_text(&file);
    crate::rg::parse(&text).map_err(|errors| internal(&errors))
}

/// Parses, checks and translates a rule file, then validates and lowers the RG to runtime tables.
pub fn compile(source: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let game = to_rg(source)?;
    crate::rg::compile_game(game).map_err(|errors| internal(&errors))
}

/// The generated RG is wrong: a translator bug, reported at the start of the file.
fn internal(errors: &[Diagnostic]) -> Vec<Diagnostic> {
    let first = errors.first().map_or(String::new(), |d| format!("{}: {}", d.code, d.message));
    vec![Diagnostic::error("E0799", format!("the translation produced invalid RG ({first})"), Default::default())
        .label("while translating this file")
        .with_help("this is a Regula bug; please report it with the file")]
}
