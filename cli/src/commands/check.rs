//! `regula check FILE`: compile the file and report every diagnostic.

use crate::failure::Failure;
use crate::source::{write_output, SourceFile};
use std::path::Path;

/// Errors make the command fail (exit 1); warnings are shown and the command succeeds.
pub fn check(path: &Path) -> Result<(), Failure> {
    let source = SourceFile::read(path)?;
    let loaded = source.load()?;
    let warnings = loaded.warnings.len();
    let plural = if warnings == 1 { "" } else { "s" };
    write_output(None, &format!("{}: ok ({warnings} warning{plural})\n", source.name))
}
