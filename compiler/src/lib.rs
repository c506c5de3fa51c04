//! Regula's compiler: source formats to the RG syntax tree (the IR), validation, and emission as
//! runtime tables or as RG text. Pure: no file I/O, no process exits.

pub mod blocks;
pub mod cards;
pub mod codegen;
pub mod diagnostics;
pub mod hrg;
mod lexing;
pub mod optimize;
pub mod rg;
pub mod rules;

use diagnostics::Diagnostic;
use regula_runtime::automaton::Automaton;

/// A program compiled from any source format the compiler knows.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The program as RG syntax (for `.rg` input, the file itself).
    pub rg: rg::ast::Game,
    /// The validated runtime tables.
    pub automaton: Automaton,
    /// Warnings (errors are returned as `Err`).
    pub warnings: Vec<Diagnostic>,
}

/// The source formats, chosen by file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    /// RG's low-level automaton text (`.rg`).
    Rg,
    /// The high-level language, compatible with Regular Games' HRG (`.hrg`).
    Hrg,
    /// The blocks (积木) configuration language of small board games (`.blocks`).
    Blocks,
    /// Rule Game (Game of Hidden Rules) rule sets (`.rules`).
    Rules,
    /// The card rule language of seed 000 (`.cards`).
    Cards,
}

impl SourceFormat {
    /// The format of a file, from its name's extension.
    pub fn from_file_name(file_name: &str) -> Option<SourceFormat> {
        match file_name.rsplit_once('.').map(|(_, ext)| ext) {
            Some("rg") => Some(SourceFormat::Rg),
            Some("hrg") => Some(SourceFormat::Hrg),
            Some("blocks") => Some(SourceFormat::Blocks),
            Some("rules") => Some(SourceFormat::Rules),
            Some("cards") => Some(SourceFormat::Cards),
            _ => None,
        }
    }

    /// Every extension the compiler accepts, for messages.
    pub const EXTENSIONS: &'static [&'static str] = &["rg", "hrg", "blocks", "rules", "cards"];
}

/// Compiles a source text of the format its file name says. Errors come back as diagnostics
/// (rendered with [`diagnostics::render`]); warnings are in the result.
pub fn load(file_name: &str, source: &str) -> Result<Loaded, Vec<Diagnostic>> {
    match SourceFormat::from_file_name(file_name) {
        Some(SourceFormat::Rg) => rg::compile(source),
        Some(SourceFormat::Hrg) => hrg::compile(source),
        Some(SourceFormat::Blocks) => blocks::compile(source),
        Some(SourceFormat::Rules) => rules::compile(source),
        Some(SourceFormat::Cards) => cards::compile(source),
        None => Err(vec![Diagnostic::error(
            "E0001",
            format!("unknown source format for `{file_name}`"),
            rg::ast::Span::default(),
        )
        .with_help(format!("use one of the extensions: {}", SourceFormat::EXTENSIONS.join(", ")))]),
    }
}
