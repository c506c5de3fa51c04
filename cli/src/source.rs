//! Reading game files and compiling them with `regula_compiler::load`, rendering diagnostics.

use crate::failure::Failure;
use regula_compiler::diagnostics::{render, Diagnostic};
use regula_compiler::Loaded;
use std::path::Path;

/// A game file's name (as given on the command line) and text.
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

impl SourceFile {
    pub fn read(path: &Path) -> Result<SourceFile, Failure> {
        let text = std::fs::read_to_string(path).map_err(|e| Failure::io(path, e))?;
        Ok(SourceFile { name: path.display().to_string(), text })
    }

    /// Diagnostics as text, headed by `file:line:column`.
    pub fn render(&self, diagnostics: &[Diagnostic]) -> String {
        render(diagnostics, &self.name, &self.text)
    }

    /// Compiles the file (format by extension). Warnings are printed on standard error; errors
    /// become the failure.
    pub fn load(&self) -> Result<Loaded, Failure> {
        match regula_compiler::load(&self.name, &self.text) {
            Ok(loaded) => {
                if !loaded.warnings.is_empty() {
                    eprint!("{}", self.render(&loaded.warnings));
                }
                Ok(loaded)
            }
            Err(diagnostics) => Err(self.diagnostics_failure(&diagnostics)),
        }
    }

    /// The failure for a list of diagnostics containing errors.
    pub fn diagnostics_failure(&self, diagnostics: &[Diagnostic]) -> Failure {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let plural = if errors == 1 { "" } else { "s" };
        Failure::rendered(format!("{}error: `{}` has {errors} error{plural}", self.render(diagnostics), self.name))
    }
}

/// Writes `text` to `output`, or to standard output when there is none.
pub fn write_output(output: Option<&Path>, text: &str) -> Result<(), Failure> {
    match output {
        Some(path) => std::fs::write(path, text).map_err(|e| Failure::io(path, e)),
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| Failure::new(format!("standard output: {e}")))
        }
    }
}
