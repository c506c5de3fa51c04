//! The blocks (积木) language front end: `.blocks` files, the s-expression configuration
//! language of seed 001 for small two-player board games. Lexer and parser read the blocks,
//! `check` gives them meaning, `translate` writes a program of the high-level language, which the
//! HRG front end compiles. The language and every reading we chose: `spec/blocks.md`.

pub mod check;
pub mod lexer;
pub mod model;
pub mod parser;
pub mod translate;

use crate::diagnostics::Diagnostic;
use crate::hrg;
use crate::rg::ast::Span;
use crate::Loaded;

/// A blocks file read and translated: the game as understood, the generated HRG source and its
/// syntax tree, and the warnings of the blocks checks.
#[derive(Clone, Debug)]
pub struct Translated {
    pub game: model::Game,
    pub hrg_source: String,
    pub program: hrg::ast::Program,
    pub warnings: Vec<Diagnostic>,
}

impl Translated {
    /// The generated program as HRG text for people: the translator's header comments (the
    /// game's name, the board, what a move's tags are, the presentation blocks kept as metadata)
    /// followed by the program printed from its syntax tree.
    pub fn hrg_text(&self) -> String {
        let header: String = self
            .hrg_source
            .lines()
            .take_while(|line| line.starts_with("//") || line.is_empty())
            .map(|line| format!("{line}\n"))
            .collect();
        header + &hrg::print::print(&self.program)
    }
}

/// Parses, checks and translates a blocks source to a high-level program.
pub fn translate(source: &str) -> Result<Translated, Vec<Diagnostic>> {
    let sexps = parser::parse(source)?;
    let (game, warnings) = check::check(&sexps, source.len())?;
    let hrg_source = translate::translate(&game);
    let program = hrg::parse(&hrg_source).map_err(|errors| internal_errors(&errors, &hrg_source))?;
    Ok(Translated { game, hrg_source, program, warnings })
}

/// A generated program that the HRG front end rejects is a translator bug; it is reported at the
/// start of the blocks file with the generated program's own message.
fn internal_errors(errors: &[Diagnostic], hrg_source: &str) -> Vec<Diagnostic> {
    errors
        .iter()
        .map(|error| {
            let (line, column) = crate::diagnostics::line_column(hrg_source, error.primary.span.start);
            Diagnostic::error(
                "E0613",
                format!(
                    "the translated program is invalid: {} [{}] at line {line}, column {column}",
                    error.message, error.code
                ),
                Span::new(0, 0),
            )
            .label("translating this file")
            .with_help("this is a translator bug; `regula compile FILE --emit hrg` shows the generated program")
        })
        .collect()
}

/// Compiles a blocks source all the way to runtime tables.
pub fn compile(source: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let translated = translate(source)?;
    let (game, hrg_warnings) =
        hrg::lower(&translated.program).map_err(|errors| internal_errors(&errors, &translated.hrg_source))?;
    let mut loaded =
        crate::rg::compile_game(game).map_err(|errors| internal_errors(&errors, &translated.hrg_source))?;
    // Warnings about the generated program (an unused helper case and the like) say nothing about
    // the blocks file, so only the blocks checks' own warnings are kept.
    drop(hrg_warnings);
    loaded.warnings = translated.warnings;
    Ok(loaded)
}
