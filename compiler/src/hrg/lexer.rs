//! The HRG lexer (logos): source text to tokens with byte spans; bad characters become diagnostics.

use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;
use logos::Logos;
use std::fmt;

/// One HRG token. Names and numerals are both [`Token::Ident`], as in RG, where `0` and `P__1_2`
/// are ordinary identifiers.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub enum Token<'src> {
    #[token("domain")]
    Domain,
    #[token("graph")]
    Graph,
    #[token("reusable")]
    Reusable,
    #[token("where")]
    Where,
    #[token("in")]
    In,
    #[token("branch")]
    Branch,
    #[token("or")]
    Or,
    #[token("loop")]
    Loop,
    #[token("repeat")]
    Repeat,
    #[token("while")]
    While,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[regex(r"[\p{L}\p{N}_]+")]
    Ident(&'src str),
    #[token("..")]
    DotDot,
    #[token("->")]
    Arrow,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<=")]
    LessEq,
    #[token(">=")]
    GreaterEq,
    #[token("<")]
    Less,
    #[token(">")]
    Greater,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("%")]
    Percent,
    #[token("=")]
    Eq,
    #[token(":")]
    Colon,
    #[token(";")]
    Semicolon,
    #[token(",")]
    Comma,
    #[token("|")]
    Bar,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("*")]
    Star,
    #[token("$$")]
    DollarDollar,
    #[token("$_")]
    DollarUnderscore,
    #[token("$")]
    Dollar,
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Token::Domain => "domain",
            Token::Graph => "graph",
            Token::Reusable => "reusable",
            Token::Where => "where",
            Token::In => "in",
            Token::Branch => "branch",
            Token::Or => "or",
            Token::Loop => "loop",
            Token::Repeat => "repeat",
            Token::While => "while",
            Token::If => "if",
            Token::Then => "then",
            Token::Else => "else",
            Token::Ident(name) => return write!(f, "`{name}`"),
            Token::DotDot => "..",
            Token::Arrow => "->",
            Token::EqEq => "==",
            Token::NotEq => "!=",
            Token::LessEq => "<=",
            Token::GreaterEq => ">=",
            Token::Less => "<",
            Token::Greater => ">",
            Token::AndAnd => "&&",
            Token::OrOr => "||",
            Token::Plus => "+",
            Token::Minus => "-",
            Token::Percent => "%",
            Token::Eq => "=",
            Token::Colon => ":",
            Token::Semicolon => ";",
            Token::Comma => ",",
            Token::Bar => "|",
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::LBrace => "{",
            Token::RBrace => "}",
            Token::Star => "*",
            Token::DollarDollar => "$$",
            Token::DollarUnderscore => "$_",
            Token::Dollar => "$",
        };
        write!(f, "`{text}`")
    }
}

/// Splits a source into tokens. Characters that start no token are reported (E0301), one
/// diagnostic per run of bad characters, and skipped so that parsing can go on.
pub fn lex(source: &str) -> (Vec<(Token<'_>, Span)>, Vec<Diagnostic>) {
    let (tokens, bad_runs) = crate::lexing::tokens_and_bad_runs(source);
    let diagnostics = bad_runs
        .into_iter()
        .map(|span| {
            let help = if source[span.range()].starts_with("/*") {
                "close the comment with `*/`"
            } else {
                "names use only letters, digits and `_`; see spec/hrg.md for the operators"
            };
            let found = crate::lexing::first_char(source, span);
            Diagnostic::error("E0301", format!("unexpected character `{found}`"), span)
                .label("not part of any HRG token")
                .with_help(help)
        })
        .collect();
    (tokens, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_ranges_split_as_hrg_expects() {
        let (tokens, errors) = lex("$_EL $$ pos $ x 0..2 // c\n /* b */ a->b");
        assert!(errors.is_empty());
        let kinds: Vec<Token> = tokens.into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            kinds,
            vec![
                Token::DollarUnderscore,
                Token::Ident("EL"),
                Token::DollarDollar,
                Token::Ident("pos"),
                Token::Dollar,
                Token::Ident("x"),
                Token::Ident("0"),
                Token::DotDot,
                Token::Ident("2"),
                Token::Ident("a"),
                Token::Arrow,
                Token::Ident("b"),
            ]
        );
    }

    #[test]
    fn bad_characters_are_reported_once_per_run() {
        let (tokens, errors) = lex("a ## b ? c");
        assert_eq!(tokens.len(), 3);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].primary.span.range(), 2..4);
    }
}
