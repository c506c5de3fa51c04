//! The blocks lexer (logos): `(`, `)`, quoted strings and atoms (names, numbers, cells), with `#`
//! comments; characters that start no token become diagnostics (E0601).

use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;
use logos::Logos;
use std::fmt;

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f\u{3000}]+")]
#[logos(skip(r"#[^\n]*", allow_greedy = true))]
pub enum Token<'src> {
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    /// A double-quoted string, quotes included (no escapes: the seed has none).
    #[regex(r#""[^"\n]*""#)]
    Str(&'src str),
    /// A block name, constant, number or cell such as `a1`.
    #[regex(r"[\p{L}\p{N}_]+")]
    Atom(&'src str),
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::LParen => write!(f, "`(`"),
            Token::RParen => write!(f, "`)`"),
            Token::Str(text) => write!(f, "the string {text}"),
            Token::Atom(text) => write!(f, "`{text}`"),
        }
    }
}

/// Splits a source into tokens; each run of bad characters is reported once and skipped.
pub fn lex(source: &str) -> (Vec<(Token<'_>, Span)>, Vec<Diagnostic>) {
    let (tokens, bad_runs) = crate::lexing::tokens_and_bad_runs(source);
    let diagnostics = bad_runs
        .into_iter()
        .map(|span| {
            let help = if source[span.range()].starts_with('"') {
                "close the string with `\"` on the same line"
            } else {
                "a blocks file holds only `(name argument ...)` blocks and `#` comments"
            };
            let found = crate::lexing::first_char(source, span);
            Diagnostic::error("E0601", format!("unexpected character `{found}`"), span)
                .label("not part of any blocks token")
                .with_help(help)
        })
        .collect();
    (tokens, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_strings_and_comments_split_as_expected() {
        let (tokens, errors) = lex("(game \"tictactoe\" \"v0.1\")  # a comment\n(board SQURE 3)");
        assert!(errors.is_empty());
        let kinds: Vec<Token> = tokens.into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            kinds,
            vec![
                Token::LParen,
                Token::Atom("game"),
                Token::Str("\"tictactoe\""),
                Token::Str("\"v0.1\""),
                Token::RParen,
                Token::LParen,
                Token::Atom("board"),
                Token::Atom("SQURE"),
                Token::Atom("3"),
                Token::RParen,
            ]
        );
    }

    #[test]
    fn a_run_of_bad_characters_is_one_diagnostic() {
        let (tokens, errors) = lex("(a %% b) ; c");
        assert_eq!(tokens.len(), 5);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].primary.span.range(), 3..5);
        assert_eq!(errors[0].code, "E0601");
    }
}
