//! RG's low-level text format: syntax tree, lexer, parser, printer, validator and lowering.

pub mod ast;

use crate::diagnostics::Diagnostic;
use crate::Loaded;

/// Parses, validates and lowers an RG text.
pub fn compile(source: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let _ = source;
    Err(vec![Diagnostic::error("E0002", "the RG front end is not built yet", ast::Span::default())])
}
