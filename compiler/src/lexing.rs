//! The token loop every logos lexer of the compiler shares: tokens with byte spans, and the runs of
//! characters that start no token merged into one span each (each format words its own diagnostic).

use crate::rg::ast::Span;
use logos::Logos;

/// Lexes `source` with the logos token type `T`. Bad characters do not stop lexing: each maximal
/// run of them becomes one span in the second list, so one typo is reported once.
pub fn tokens_and_bad_runs<'s, T>(source: &'s str) -> (Vec<(T, Span)>, Vec<Span>)
where
    T: Logos<'s, Source = str>,
    T::Extras: Default,
{
    let mut tokens = Vec::new();
    let mut bad_runs: Vec<Span> = Vec::new();
    for (token, range) in T::lexer(source).spanned() {
        match token {
            Ok(token) => tokens.push((token, Span::new(range.start, range.end))),
            Err(_) => match bad_runs.last_mut() {
                Some(last) if last.end == range.start => last.end = range.end,
                _ => bad_runs.push(Span::new(range.start, range.end)),
            },
        }
    }
    (tokens, bad_runs)
}

/// The first character of a bad run, for "unexpected character `x`" messages.
pub fn first_char(source: &str, span: Span) -> char {
    source[span.range()].chars().next().unwrap_or('?')
}
