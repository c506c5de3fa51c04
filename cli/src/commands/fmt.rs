//! `regula fmt FILE [--check] [-o OUT]`: canonical RG text.
//!
//! RG files are only parsed (a file with type errors can still be formatted); other formats are
//! compiled to RG first, as by `regula compile`.

use crate::failure::Failure;
use crate::source::{write_output, SourceFile};
use regula_compiler::SourceFormat;
use std::path::Path;

pub fn fmt(path: &Path, check: bool, output: Option<&Path>) -> Result<(), Failure> {
    let source = SourceFile::read(path)?;
    let canonical = canonical_text(&source)?;
    if check {
        return if canonical == source.text {
            Ok(())
        } else {
            Err(Failure::new(format!("{} is not in canonical form (run `regula fmt` on it)", source.name)))
        };
    }
    write_output(output, &canonical)
}

fn canonical_text(source: &SourceFile) -> Result<String, Failure> {
    if SourceFormat::from_file_name(&source.name) == Some(SourceFormat::Rg) {
        let game = regula_compiler::rg::parse(&source.text).map_err(|d| source.diagnostics_failure(&d))?;
        Ok(regula_compiler::rg::print(&game))
    } else {
        Ok(regula_compiler::rg::print(&source.load()?.rg))
    }
}
