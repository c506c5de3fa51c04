//! The blocks parser (chumsky 0.12 over the logos tokens): the file as a list of s-expressions,
//! `(name argument ...)`, where an argument is an atom, a string or a nested block. What each
//! block means is checked afterwards (`check.rs`). Unbalanced brackets are syntax errors (E0602).

use super::lexer::{lex, Token};
use crate::diagnostics::Diagnostic;
use crate::rg::ast::{Ident, Span};
use chumsky::input::{Input as _, ValueInput};
use chumsky::prelude::*;

/// The deepest bracket nesting accepted (the seed never nests more than two levels).
const MAX_NESTING: usize = 64;

type Extra<'src> = extra::Err<Rich<'src, Token<'src>, SimpleSpan>>;

/// One parsed s-expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Sexp {
    /// A name, constant, number or cell.
    Atom(Ident),
    /// A quoted string, without its quotes; the span covers the quotes.
    Str(Ident),
    /// `(name argument ...)`. `name` is `None` for `()` or a block starting with a non-atom.
    Block(Block),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub name: Option<Ident>,
    pub args: Vec<Sexp>,
    pub span: Span,
}

impl Sexp {
    pub fn span(&self) -> Span {
        match self {
            Sexp::Atom(ident) | Sexp::Str(ident) => ident.span,
            Sexp::Block(block) => block.span,
        }
    }
}

fn span_of(span: SimpleSpan) -> Span {
    Span::new(span.start, span.end)
}

/// Parses a blocks source into its top-level blocks, or every lexical and syntax error.
pub fn parse(source: &str) -> Result<Vec<Sexp>, Vec<Diagnostic>> {
    let (tokens, mut diagnostics) = lex(source);
    // Open brackets, so that a block never closed is reported at its `(` rather than at the end.
    let mut open: Vec<Span> = Vec::new();
    let mut unmatched_close = false;
    for (token, span) in &tokens {
        match token {
            Token::LParen => open.push(*span),
            Token::RParen => unmatched_close |= open.pop().is_none(),
            _ => {}
        }
        if open.len() > MAX_NESTING {
            diagnostics.push(
                Diagnostic::error("E0602", format!("blocks nested more than {MAX_NESTING} deep"), *span)
                    .label("too deep")
                    .with_help("blocks nest at most two levels, as in `(actions (act_nbrmove BOTH))`"),
            );
            return Err(diagnostics);
        }
    }
    if let (Some(first_unclosed), false) = (open.first(), unmatched_close) {
        diagnostics.push(
            Diagnostic::error("E0602", "a block that is never closed", *first_unclosed)
                .label("this `(` has no matching `)`")
                .with_help("close the block with `)`"),
        );
        return Err(diagnostics);
    }
    let tokens: Vec<(Token<'_>, SimpleSpan)> =
        tokens.into_iter().map(|(token, span)| (token, SimpleSpan::from(span.start..span.end))).collect();
    let eoi = SimpleSpan::from(source.len()..source.len());
    let (sexps, errors) = file_parser().parse(tokens.as_slice().split_token_span(eoi)).into_output_errors();
    diagnostics.extend(errors.into_iter().map(|error| syntax_diagnostic(&error, source.len())));
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    diagnostics.dedup_by(|a, b| a.primary.span.start == b.primary.span.start && a.code == b.code);
    match sexps {
        Some(sexps) if diagnostics.is_empty() => Ok(sexps),
        _ => Err(diagnostics),
    }
}

fn syntax_diagnostic(error: &Rich<'_, Token<'_>, SimpleSpan>, source_len: usize) -> Diagnostic {
    let span = span_of(*error.span());
    let found = match error.reason() {
        chumsky::error::RichReason::ExpectedFound { found, .. } => found.as_ref().map(|t| t.to_string()),
        chumsky::error::RichReason::Custom(message) => Some(message.clone()),
    };
    match found {
        Some(token) if token == "`)`" => Diagnostic::error("E0602", "unbalanced `)`", span)
            .label("this `)` closes no block")
            .with_help("remove it, or add the `(` it closes"),
        Some(token) => Diagnostic::error("E0602", format!("unexpected {token}"), span)
            .label("outside any block")
            .with_help("every block is written `(name argument ...)`"),
        None if span.start >= source_len => Diagnostic::error("E0602", "unexpected end of file", span)
            .label("the file ends inside a block")
            .with_help("close every `(` with a `)`"),
        None => Diagnostic::error("E0602", "unexpected input", span)
            .label("cannot be read here")
            .with_help("every block is written `(name argument ...)`"),
    }
}

fn file_parser<'src, I>() -> impl Parser<'src, I, Vec<Sexp>, Extra<'src>>
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    let sexp = recursive(|sexp| {
        let atom = select! {
            Token::Atom(name) = e => Sexp::Atom(Ident::new(name, span_of(e.span()))),
            Token::Str(text) = e => Sexp::Str(Ident::new(&text[1..text.len() - 1], span_of(e.span()))),
        };
        let block =
            sexp.repeated().collect::<Vec<Sexp>>().delimited_by(just(Token::LParen), just(Token::RParen)).map_with(
                |mut items: Vec<Sexp>, e| {
                    let name = match items.first() {
                        Some(Sexp::Atom(name)) => Some(name.clone()),
                        _ => None,
                    };
                    if name.is_some() {
                        items.remove(0);
                    }
                    Sexp::Block(Block { name, args: items, span: span_of(e.span()) })
                },
            );
        atom.or(block)
    });
    sexp.repeated().collect::<Vec<_>>().then_ignore(end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_blocks_keep_their_names_arguments_and_spans() {
        let sexps = parse("(actions (act_nbrmove BOTH) (act_mjump BOTH OPPO))").unwrap();
        let Sexp::Block(actions) = &sexps[0] else { panic!("not a block") };
        assert_eq!(actions.name.as_ref().unwrap().name, "actions");
        assert_eq!(actions.args.len(), 2);
        let Sexp::Block(jump) = &actions.args[1] else { panic!("not a block") };
        assert_eq!(jump.name.as_ref().unwrap().name, "act_mjump");
        assert_eq!(jump.span.range(), 28..49);
    }

    #[test]
    fn a_missing_close_bracket_is_a_located_error() {
        let errors = parse("(players 2)\n(board SQURE 3").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].code, "E0602");
    }
}
