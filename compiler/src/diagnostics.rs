//! Diagnostics: the data every phase reports, and their one rendering (ariadne).
//!
//! Phases build [`Diagnostic`] values; only [`render`] turns them into text. Every diagnostic
//! has a stable code (`E0xxx` errors, `W0xxx` warnings) listed in `spec/errors.md`, a primary
//! label at the offending span, and a help line where a fix is known.

use crate::rg::ast::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

/// A span with a short message, shown under the source line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub span: Span,
    pub message: String,
}

/// One problem found in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code, e.g. `"E0101"`.
    pub code: &'static str,
    /// One line: what is wrong.
    pub message: String,
    /// Where it is wrong, and why in a few words.
    pub primary: Note,
    /// Other places that explain it (e.g. the first declaration of a duplicate).
    pub secondary: Vec<Note>,
    /// How to fix it, when known.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: Note { span, message: String::new() },
            secondary: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message, span) }
    }

    /// Sets the text under the primary span.
    pub fn label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Note { span, message: message.into() });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Byte offset to 1-based (line, column), columns counted in characters.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..floor_char_boundary(source, offset)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders diagnostics as plain text (no colours), each headed by `file:line:column`.
pub fn render(diagnostics: &[Diagnostic], file_name: &str, source: &str) -> String {
    use ariadne::{Config, Label as AriadneLabel, Report, ReportKind, Source};
    let mut out = Vec::new();
    let char_offset = |byte: usize| source[..floor_char_boundary(source, byte.min(source.len()))].chars().count();
    let char_span = |span: Span| {
        let start = char_offset(span.start);
        let end = char_offset(span.end).max(start);
        (file_name, start..end)
    };
    for diagnostic in diagnostics {
        let (line, column) = line_column(source, diagnostic.primary.span.start);
        let kind = match diagnostic.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        let header = format!("{file_name}:{line}:{column}: ");
        out.extend_from_slice(header.as_bytes());
        let mut report = Report::build(kind, char_span(diagnostic.primary.span))
            .with_config(Config::default().with_color(false))
            .with_code(diagnostic.code)
            .with_message(&diagnostic.message)
            .with_label(
                AriadneLabel::new(char_span(diagnostic.primary.span)).with_message(&diagnostic.primary.message),
            );
        for note in &diagnostic.secondary {
            report = report.with_label(AriadneLabel::new(char_span(note.span)).with_message(&note.message));
        }
        if let Some(help) = &diagnostic.help {
            report = report.with_help(help);
        }
        let _ = report.finish().write((file_name, Source::from(source)), &mut out);
    }
    String::from_utf8_lossy(&out).into_owned()
}
