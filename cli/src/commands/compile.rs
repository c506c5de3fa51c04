//! `regula compile FILE [-o OUT]`: any source format to canonical RG text.

use crate::failure::Failure;
use crate::source::{write_output, SourceFile};
use std::path::Path;

/// The whole pipeline runs (parse, validate, lower), so only valid games are written.
pub fn compile(path: &Path, output: Option<&Path>) -> Result<(), Failure> {
    let source = SourceFile::read(path)?;
    let loaded = source.load()?;
    write_output(output, &regula_compiler::rg::print(&loaded.rg))
}
