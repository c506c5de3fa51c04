//! Why a command failed, carrying the text to show on standard error.

use std::fmt::Display;
use std::path::Path;

/// A failed command. The message is complete (rendered diagnostics, or one `error:` line).
#[derive(Debug)]
pub struct Failure {
    message: String,
}

impl Failure {
    /// A one-line error, printed as `error: <message>`.
    pub fn new(message: impl Display) -> Failure {
        Failure { message: format!("error: {message}") }
    }

    /// A failure whose text is already formatted (e.g. rendered diagnostics).
    pub fn rendered(text: String) -> Failure {
        Failure { message: text }
    }

    /// A failure about a file, with the path in front.
    pub fn io(path: &Path, error: impl Display) -> Failure {
        Failure::new(format!("{}: {error}", path.display()))
    }

    /// Prints the failure on standard error.
    pub fn report(&self) {
        let text = self.message.trim_end();
        if !text.is_empty() {
            eprintln!("{text}");
        }
    }
}
