//! The RG lexer (logos): identifiers, the three keywords, punctuation and `//` comments.
//!
//! Every character the format does not know becomes a located `E0101` diagnostic; lexing goes on
//! after it so that one run reports every bad character together with the syntax errors.

use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;
use logos::Logos;
use std::fmt;

/// One RG token. Identifiers borrow from the source text.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f\u{feff}]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
pub enum Token<'src> {
    #[token("type")]
    Type,
    #[token("const")]
    Const,
    #[token("var")]
    Var,
    /// One or more Unicode alphanumerics or `_` (so `0` and `100` are identifiers too), or a
    /// negative numeral `-48` (a Regula extension, spec/rg-format.md: scores below zero).
    #[regex(r"[\p{Alphabetic}\p{N}_]+")]
    #[regex(r"-[0-9]+")]
    Ident(&'src str),
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token(",")]
    Comma,
    #[token("=")]
    Assign,
    #[token("==")]
    Eq,
    #[token("!=")]
    NotEq,
    #[token("->")]
    Arrow,
    #[token("?")]
    Question,
    #[token("!")]
    Bang,
    #[token("$")]
    Dollar,
    #[token("$$")]
    DoubleDollar,
    #[token("@")]
    At,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("*")]
    Star,
}

impl Token<'_> {
    /// The token as it is written in RG text.
    pub fn text(&self) -> &str {
        match self {
            Token::Type => "type",
            Token::Const => "const",
            Token::Var => "var",
            Token::Ident(name) => name,
            Token::Semi => ";",
            Token::Colon => ":",
            Token::Comma => ",",
            Token::Assign => "=",
            Token::Eq => "==",
            Token::NotEq => "!=",
            Token::Arrow => "->",
            Token::Question => "?",
            Token::Bang => "!",
            Token::Dollar => "$",
            Token::DoubleDollar => "$$",
            Token::At => "@",
            Token::LBrace => "{",
            Token::RBrace => "}",
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::Star => "*",
        }
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Ident(name) => write!(f, "identifier `{name}`"),
            other => write!(f, "`{}`", other.text()),
        }
    }
}

/// Whether `name` lexes as exactly one identifier token (and is not a keyword).
pub fn is_identifier(name: &str) -> bool {
    let mut lexer = Token::lexer(name);
    matches!(lexer.next(), Some(Ok(Token::Ident(_)))) && lexer.next().is_none() && lexer.span().end == name.len()
}

/// Splits a source text into tokens with their spans. Unknown characters are reported (runs of
/// them merged into one diagnostic) and skipped.
pub fn lex(source: &str) -> (Vec<(Token<'_>, Span)>, Vec<Diagnostic>) {
    let (tokens, bad_spans) = crate::lexing::tokens_and_bad_runs::<Token>(source);
    let diagnostics = bad_spans
        .into_iter()
        .map(|span| {
            let text = &source[span.range()];
            Diagnostic::error("E0101", format!("unexpected character{} `{}`", plural(text), text.escape_debug()), span)
                .label("not part of RG's syntax")
                .with_help(
                    "identifiers are made of letters, digits and `_`; punctuation is one of \
                     `; : , = == != -> ? ! $ $$ @ { } ( ) [ ] *`; comments start with `//`",
                )
        })
        .collect();
    (tokens, diagnostics)
}

fn plural(text: &str) -> &'static str {
    if text.chars().count() > 1 {
        "s"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<String> {
        lex(source).0.iter().map(|(t, _)| t.text().to_string()).collect()
    }

    #[test]
    fn numerals_and_underscored_names_are_identifiers() {
        let (tokens, errors) = lex("0 100 P__1_2 żółw types");
        assert!(errors.is_empty());
        let names: Vec<_> = tokens.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            names,
            vec![
                Token::Ident("0"),
                Token::Ident("100"),
                Token::Ident("P__1_2"),
                Token::Ident("żółw"),
                Token::Ident("types")
            ]
        );
    }

    #[test]
    fn longest_punctuation_wins_and_comments_are_skipped() {
        assert_eq!(
            kinds("a==b!=c->d $$ $ ! = // trailing == comment\n;"),
            vec!["a", "==", "b", "!=", "c", "->", "d", "$$", "$", "!", "=", ";"]
        );
    }

    #[test]
    fn unknown_characters_are_located_and_merged() {
        let (tokens, errors) = lex("a, b: x == #%y;");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].code, "E0101");
        assert_eq!(errors[0].primary.span.range(), 11..13);
        assert_eq!(tokens.len(), 8);
    }

    #[test]
    fn identifier_test_rejects_keywords_and_punctuation() {
        assert!(is_identifier("P__1_2"));
        assert!(is_identifier("0"));
        assert!(!is_identifier("type"));
        assert!(!is_identifier("a b"));
        assert!(!is_identifier(""));
        assert!(!is_identifier("a-b"));
        assert!(is_identifier("-48"));
        assert!(!is_identifier("-"));
        assert!(!is_identifier("-x"));
        assert!(!is_identifier("-4x"));
    }

    #[test]
    fn negative_numerals_are_identifiers_and_arrows_stay_arrows() {
        assert_eq!(
            kinds("x = -48; Int->-1 -> a:-0"),
            vec!["x", "=", "-48", ";", "Int", "->", "-1", "->", "a", ":", "-0"]
        );
        let (_, errors) = lex("a - b");
        assert_eq!(errors.len(), 1, "a lone minus is no numeral");
        assert_eq!(errors[0].primary.span.range(), 2..3);
    }
}
