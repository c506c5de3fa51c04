//! The Rule Game lexer (logos): `.rules` text to tokens with byte spans. Line ends are tokens,
//! because a rule line is one text line; `#` comments run to the end of the line.

use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;
use logos::Logos;
use std::fmt;

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\f]+")]
#[logos(skip(r"#[^\n]*", allow_greedy = true))]
pub enum Token<'src> {
    #[token("\n")]
    Newline,
    #[regex(r"[0-9]+")]
    Number(&'src str),
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'src str),
    /// `"..."`, with the quotes.
    #[regex(r#""[^"\n]*""#)]
    Quoted(&'src str),
    /// `@name`: a Regula directive.
    #[regex(r"@[A-Za-z][A-Za-z0-9_-]*")]
    Directive(&'src str),
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("*")]
    Star,
    #[token("=")]
    Assign,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Less,
    #[token("<=")]
    LessEq,
    #[token(">")]
    Greater,
    #[token(">=")]
    GreaterEq,
    #[token("!")]
    Bang,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token(".")]
    Dot,
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Token::Newline => return write!(f, "end of line"),
            Token::Number(t) | Token::Ident(t) | Token::Quoted(t) | Token::Directive(t) => t,
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::Comma => ",",
            Token::Colon => ":",
            Token::Star => "*",
            Token::Assign => "=",
            Token::EqEq => "==",
            Token::NotEq => "!=",
            Token::Less => "<",
            Token::LessEq => "<=",
            Token::Greater => ">",
            Token::GreaterEq => ">=",
            Token::Bang => "!",
            Token::Plus => "+",
            Token::Minus => "-",
            Token::Slash => "/",
            Token::Percent => "%",
            Token::Dot => ".",
        };
        write!(f, "`{text}`")
    }
}

/// Splits a source into tokens. A run of characters that start no token is one diagnostic
/// (E0701) and is skipped, so parsing goes on.
pub fn lex(source: &str) -> (Vec<(Token<'_>, Span)>, Vec<Diagnostic>) {
    let (tokens, bad_runs) = crate::lexing::tokens_and_bad_runs(source);
    let diagnostics = bad_runs
        .into_iter()
        .map(|span| {
            let found = crate::lexing::first_char(source, span);
            Diagnostic::error("E0701", format!("unexpected character `{found}`"), span)
                .label("not part of any rule-file token")
                .with_help("rule files use names, numbers, `# comments` and ( ) [ ] , : * = ! + - / % == != < <= > >=")
        })
        .collect();
    (tokens, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_line_splits_into_its_tokens() {
        let (tokens, errors) = lex("1 (*,RED,[p+1]) # c\n(p==Nearby)");
        assert!(errors.is_empty());
        let kinds: Vec<Token> = tokens.into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            kinds,
            vec![
                Token::Number("1"),
                Token::LParen,
                Token::Star,
                Token::Comma,
                Token::Ident("RED"),
                Token::Comma,
                Token::LBracket,
                Token::Ident("p"),
                Token::Plus,
                Token::Number("1"),
                Token::RBracket,
                Token::RParen,
                Token::Newline,
                Token::LParen,
                Token::Ident("p"),
                Token::EqEq,
                Token::Ident("Nearby"),
                Token::RParen,
            ]
        );
    }

    #[test]
    fn bad_characters_are_one_diagnostic_per_run() {
        let (tokens, errors) = lex("a $$ b ; c");
        assert_eq!(tokens.len(), 3);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].primary.span.range(), 2..4);
    }
}
