//! The RG parser (chumsky 0.12 over the logos token stream).
//!
//! A game is a list of declarations, each ended by `;`. A declaration that does not parse is
//! reported and skipped up to (and including) its `;`, so one run reports every broken
//! declaration. Every syntax-tree node keeps its byte span.

use crate::diagnostics::Diagnostic;
use crate::rg::ast::*;
use crate::rg::lexer::{lex, Token};
use chumsky::error::{RichPattern, RichReason};
use chumsky::input::ValueInput;
use chumsky::prelude::*;

type Extra<'tokens, 'src> = extra::Err<Rich<'tokens, Token<'src>, SimpleSpan>>;

fn span_of(span: SimpleSpan) -> Span {
    Span::new(span.start, span.end)
}

/// The span of an expression, from its first to its last token.
pub fn expr_span(expr: &Expr) -> Span {
    match expr {
        Expr::Ident(ident) => ident.span,
        Expr::Cast { span, .. } | Expr::Access { span, .. } => *span,
    }
}

/// The span of a value.
pub fn value_span(value: &ValueExpr) -> Span {
    match value {
        ValueExpr::Ident(ident) => ident.span,
        ValueExpr::Map { span, .. } => *span,
    }
}

/// The span of a type expression.
pub fn type_span(ty: &TypeExpr) -> Span {
    match ty {
        TypeExpr::Name(ident) => ident.span,
        TypeExpr::Set { span, .. } | TypeExpr::Arrow { span, .. } => *span,
    }
}

/// What follows the left-hand expression of a label.
#[derive(Clone)]
enum Operation {
    AssignAny(Ident),
    Assign(Expr),
    Compare(Expr, bool),
}

/// One entry of a map literal as written: `key: value` or the default `: value`.
#[derive(Clone)]
enum MapEntry {
    Keyed(Ident, ValueExpr),
    Default(ValueExpr, Span),
}

fn ident<'tokens, 'src: 'tokens, I>() -> impl Parser<'tokens, I, Ident, Extra<'tokens, 'src>> + Clone
where
    I: ValueInput<'tokens, Token = Token<'src>, Span = SimpleSpan>,
{
    select! { Token::Ident(name) => name }
        .map_with(|name: &str, extra| Ident::new(name, span_of(extra.span())))
        .labelled("identifier")
}

fn type_expr<'tokens, 'src: 'tokens, I>() -> impl Parser<'tokens, I, TypeExpr, Extra<'tokens, 'src>> + Clone
where
    I: ValueInput<'tokens, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|type_expr| {
        let set = ident()
            .separated_by(just(Token::Comma))
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map_with(|members, extra| TypeExpr::Set { members, span: span_of(extra.span()) });
        let atom = set.or(ident().map(TypeExpr::Name));
        atom.then(just(Token::Arrow).ignore_then(type_expr).or_not()).map_with(|(from, to), extra| match to {
            Some(to) => TypeExpr::Arrow { from: Box::new(from), to: Box::new(to), span: span_of(extra.span()) },
            None => from,
        })
    })
    .labelled("type")
}

fn value_expr<'tokens, 'src: 'tokens, I>() -> impl Parser<'tokens, I, ValueExpr, Extra<'tokens, 'src>> + Clone
where
    I: ValueInput<'tokens, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|value| {
        let default = just(Token::Colon)
            .ignore_then(value.clone())
            .map_with(|v, extra| MapEntry::Default(v, span_of(extra.span())));
        let keyed = ident().then_ignore(just(Token::Colon)).then(value).map(|(k, v)| MapEntry::Keyed(k, v));
        let map = default
            .or(keyed)
            .separated_by(just(Token::Comma))
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .validate(|written: Vec<MapEntry>, extra, emitter| {
                let mut entries = Vec::new();
                let mut default: Option<Box<ValueExpr>> = None;
                for entry in written {
                    match entry {
                        MapEntry::Keyed(key, v) => entries.push((key, v)),
                        MapEntry::Default(v, span) => {
                            if default.is_some() {
                                emitter.emit(Rich::custom(
                                    SimpleSpan::from(span.start..span.end),
                                    "E0104|a map literal has a second default entry",
                                ));
                            } else {
                                default = Some(Box::new(v));
                            }
                        }
                    }
                }
                ValueExpr::Map { entries, default, span: span_of(extra.span()) }
            });
        ident().map(ValueExpr::Ident).or(map)
    })
    .labelled("value")
}

fn expr<'tokens, 'src: 'tokens, I>() -> impl Parser<'tokens, I, Expr, Extra<'tokens, 'src>> + Clone
where
    I: ValueInput<'tokens, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|expr| {
        let atom = ident().then(expr.clone().delimited_by(just(Token::LParen), just(Token::RParen)).or_not()).map_with(
            |(name, inner), extra| match inner {
                Some(inner) => Expr::Cast { ty: name, expr: Box::new(inner), span: span_of(extra.span()) },
                None => Expr::Ident(name),
            },
        );
        let key = expr
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .map_with(|key, extra| (key, span_of(extra.span())));
        atom.foldl(key.repeated(), |map, (key, key_span)| {
            let span = expr_span(&map).join(key_span);
            Expr::Access { map: Box::new(map), key: Box::new(key), span }
        })
    })
    .labelled("expression")
}

fn label<'tokens, 'src: 'tokens, I>() -> impl Parser<'tokens, I, Label, Extra<'tokens, 'src>> + Clone
where
    I: ValueInput<'tokens, Token = Token<'src>, Span = SimpleSpan>,
{
    let reach = just(Token::Question)
        .to(false)
        .or(just(Token::Bang).to(true))
        .then(ident())
        .then_ignore(just(Token::Arrow))
        .then(ident())
        .map(|((negated, from), to)| Label::Reach { from, to, negated });
    let tag_expr = just(Token::DoubleDollar).ignore_then(expr()).map(Label::TagVar);
    let tag = just(Token::Dollar).ignore_then(ident()).map(Label::Tag);
    let any_value =
        ident().then_ignore(just(Token::LParen)).then_ignore(just(Token::Star)).then_ignore(just(Token::RParen));
    let operation = choice((
        just(Token::Assign).ignore_then(any_value).map(Operation::AssignAny),
        just(Token::Assign).ignore_then(expr()).map(Operation::Assign),
        just(Token::Eq).ignore_then(expr()).map(|rhs| Operation::Compare(rhs, false)),
        just(Token::NotEq).ignore_then(expr()).map(|rhs| Operation::Compare(rhs, true)),
    ));
    let statement = expr().then(operation).map(|(lhs, operation)| match operation {
        Operation::AssignAny(ty) => Label::AssignAny { lhs, ty },
        Operation::Assign(rhs) => Label::Assign { lhs, rhs },
        Operation::Compare(rhs, negated) => Label::Compare { lhs, rhs, negated },
    });
    choice((reach, tag_expr, tag, statement, empty().to(Label::Skip))).labelled("edge label")
}

fn decl<'tokens, 'src: 'tokens, I>() -> impl Parser<'tokens, I, Decl, Extra<'tokens, 'src>> + Clone
where
    I: ValueInput<'tokens, Token = Token<'src>, Span = SimpleSpan>,
{
    let semi = just(Token::Semi).labelled("`;`");
    let typedef = just(Token::Type)
        .ignore_then(ident())
        .then_ignore(just(Token::Assign))
        .then(type_expr())
        .then_ignore(semi.clone())
        .map_with(|(name, ty), extra| Decl::Type(Typedef { name, ty, span: span_of(extra.span()) }));
    let typed_value = ident()
        .then_ignore(just(Token::Colon))
        .then(type_expr())
        .then_ignore(just(Token::Assign))
        .then(value_expr())
        .then_ignore(semi.clone());
    let constant = just(Token::Const)
        .ignore_then(typed_value.clone())
        .map_with(|((name, ty), value), extra| Decl::Const(Constant { name, ty, value, span: span_of(extra.span()) }));
    let variable = just(Token::Var)
        .ignore_then(typed_value)
        .map_with(|((name, ty), value), extra| Decl::Var(Variable { name, ty, value, span: span_of(extra.span()) }));
    let pragma_token = any().filter(|token: &Token| *token != Token::Semi).map(|token: Token| token.text().to_string());
    let pragma = just(Token::At)
        .ignore_then(ident())
        .then(pragma_token.repeated().collect::<Vec<_>>())
        .then_ignore(semi.clone())
        .map_with(|(name, tokens), extra| Decl::Pragma(Pragma { name, tokens, span: span_of(extra.span()) }));
    let edge = ident()
        .then_ignore(just(Token::Comma))
        .then(ident())
        .then_ignore(just(Token::Colon))
        .then(label())
        .then_ignore(semi)
        .map_with(|((from, to), label), extra| Decl::Edge(Edge { from, to, label, span: span_of(extra.span()) }));
    choice((typedef, constant, variable, pragma, edge)).labelled("declaration")
}

fn game<'tokens, 'src: 'tokens, I>() -> impl Parser<'tokens, I, Vec<Option<Decl>>, Extra<'tokens, 'src>>
where
    I: ValueInput<'tokens, Token = Token<'src>, Span = SimpleSpan>,
{
    // A broken declaration is skipped up to its `;` (or to the end of the text).
    // It always consumes a token, so the repetition around it makes progress.
    let skip_declaration = any()
        .filter(|token: &Token| *token != Token::Semi)
        .repeated()
        .at_least(1)
        .then(just(Token::Semi).ignored().or(end()))
        .ignored()
        .or(just(Token::Semi).ignored())
        .to(None);
    decl().map(Some).recover_with(via_parser(skip_declaration)).repeated().collect::<Vec<_>>().then_ignore(end())
}

/// Parses an RG text; every lexical and syntax error is reported.
pub fn parse(source: &str) -> Result<Game, Vec<Diagnostic>> {
    let (tokens, mut diagnostics) = lex(source);
    if let Some(too_deep) = nesting_limit_exceeded(&tokens) {
        diagnostics.push(too_deep);
        return Err(diagnostics);
    }
    let tokens: Vec<(Token, SimpleSpan)> =
        tokens.into_iter().map(|(token, span)| (token, SimpleSpan::from(span.start..span.end))).collect();
    // Errors at the end of the text point just after its last token, not at trailing blank lines.
    let last_end = tokens.last().map_or(0, |(_, span)| span.end);
    let end_of_input = SimpleSpan::from(last_end..last_end);
    let input = tokens.as_slice().split_token_span(end_of_input);
    let (output, errors) = game().parse(input).into_output_errors();
    diagnostics.extend(errors.iter().map(syntax_diagnostic));
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    match output {
        Some(decls) if diagnostics.is_empty() => Ok(Game { decls: decls.into_iter().flatten().collect() }),
        _ => {
            if diagnostics.is_empty() {
                diagnostics.push(Diagnostic::error("E0102", "the text is not an RG game", Span::new(0, source.len())));
            }
            Err(diagnostics)
        }
    }
}

/// How deeply one declaration may nest brackets, arrows and map accesses. The parser, the
/// validator and the printer recurse on these; the limit keeps hostile input from exhausting the
/// stack, and is far above anything a game needs.
pub const MAX_NESTING: usize = 256;

fn nesting_limit_exceeded(tokens: &[(Token, Span)]) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut arrows = 0usize;
    let mut accesses = 0usize;
    for (token, span) in tokens {
        match token {
            Token::LBrace | Token::LParen | Token::LBracket => {
                depth += 1;
                accesses += usize::from(*token == Token::LBracket);
            }
            Token::RBrace | Token::RParen | Token::RBracket => depth = depth.saturating_sub(1),
            Token::Arrow => arrows += 1,
            Token::Semi => (depth, arrows, accesses) = (0, 0, 0),
            _ => {}
        }
        if depth > MAX_NESTING || arrows > MAX_NESTING || accesses > MAX_NESTING {
            return Some(
                Diagnostic::error("E0105", "this declaration nests too deeply", *span)
                    .label(format!("more than {MAX_NESTING} levels of brackets, arrows or accesses"))
                    .with_help("split the declaration; no game needs this much nesting"),
            );
        }
    }
    None
}

fn describe_pattern(pattern: &RichPattern<'_, Token<'_>>) -> String {
    match pattern {
        RichPattern::Token(token) => token.to_string(),
        RichPattern::Label(label) => label.to_string(),
        RichPattern::Identifier(name) => format!("`{name}`"),
        RichPattern::Any => "any token".to_string(),
        RichPattern::SomethingElse => "something else".to_string(),
        RichPattern::EndOfInput => "end of input".to_string(),
        _ => "something else".to_string(),
    }
}

fn syntax_diagnostic(error: &Rich<'_, Token<'_>, SimpleSpan>) -> Diagnostic {
    let span = span_of(*error.span());
    match error.reason() {
        RichReason::Custom(message) => {
            let (code, message) = message.split_once('|').unwrap_or(("E0102", message.as_str()));
            let code = if code == "E0104" { "E0104" } else { "E0102" };
            Diagnostic::error(code, message, span)
                .label("only one `:default` entry is allowed")
                .with_help("keep one `:value` entry; it answers every key not listed")
        }
        RichReason::ExpectedFound { expected, found } => {
            let mut wanted: Vec<String> = expected.iter().map(describe_pattern).collect();
            wanted.sort();
            wanted.dedup();
            let wanted = match wanted.len() {
                0 => "something else".to_string(),
                1 => wanted[0].clone(),
                n => format!("{} or {}", wanted[..n - 1].join(", "), wanted[n - 1]),
            };
            match found {
                Some(token) => Diagnostic::error("E0102", format!("unexpected {}", **token), span)
                    .label(format!("expected {wanted}"))
                    .with_help(syntax_help(expected)),
                None => Diagnostic::error("E0103", "unexpected end of input", span)
                    .label(format!("expected {wanted}"))
                    .with_help("the last declaration is unfinished: complete it and end it with `;`"),
            }
        }
    }
}

fn syntax_help(expected: &[RichPattern<'_, Token<'_>>]) -> String {
    let described: Vec<String> = expected.iter().map(describe_pattern).collect();
    let wants = |text: &str| described.iter().any(|d| d == text);
    if wants("`;`") {
        "every declaration ends with `;`: is one missing before this?".to_string()
    } else if wants("`}`") {
        "close the `{` with `}`".to_string()
    } else if wants("`]`") {
        "close the `[` with `]`".to_string()
    } else if wants("`)`") {
        "close the `(` with `)`".to_string()
    } else {
        "declarations are `type X = T;`, `const X : T = V;`, `var X : T = V;`, `a, b : label;` or `@pragma ...;`"
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> Ident {
        Ident::synthetic(name)
    }

    #[test]
    fn parses_each_declaration_kind() {
        let game = parse(
            "type Player = {x, o};\nconst next : Player -> Player = {x: o, o: x, :x};\nvar turn : Player = x;\n\
             begin, end : player = keeper;\n@disjoint a : b c;",
        )
        .unwrap();
        assert_eq!(game.decls.len(), 5);
        assert_eq!(
            game.decls[0],
            Decl::Type(Typedef {
                name: id("Player"),
                ty: TypeExpr::Set { members: vec![id("x"), id("o")], span: Span::default() },
                span: Span::default()
            })
        );
        match &game.decls[1] {
            Decl::Const(c) => match &c.value {
                ValueExpr::Map { entries, default, .. } => {
                    assert_eq!(entries.len(), 2);
                    assert_eq!(**default.as_ref().unwrap(), ValueExpr::Ident(id("x")));
                }
                other => panic!("not a map: {other:?}"),
            },
            other => panic!("not a constant: {other:?}"),
        }
        match &game.decls[4] {
            Decl::Pragma(p) => assert_eq!(p.tokens, vec!["a", ":", "b", "c"]),
            other => panic!("not a pragma: {other:?}"),
        }
    }

    #[test]
    fn arrows_associate_to_the_right() {
        let game = parse("type M = A -> B -> C;").unwrap();
        let Decl::Type(t) = &game.decls[0] else { panic!() };
        let TypeExpr::Arrow { from, to, .. } = &t.ty else { panic!() };
        assert_eq!(**from, TypeExpr::Name(id("A")));
        assert!(matches!(**to, TypeExpr::Arrow { .. }));
    }

    #[test]
    fn labels_of_every_kind() {
        let game = parse(
            "a, b: ; a, b: x = T(*); a, b: m[k][j] = P(y); a, b: x == y; a, b: x != y; \
             a, b: ? c -> d; a, b: ! c -> d; a, b: $ t; a, b: $$ m[k];",
        )
        .unwrap();
        let labels: Vec<_> = game.edges().map(|e| e.label.clone()).collect();
        assert_eq!(labels[0], Label::Skip);
        assert_eq!(labels[1], Label::AssignAny { lhs: Expr::Ident(id("x")), ty: id("T") });
        let Label::Assign { lhs, rhs } = &labels[2] else { panic!() };
        let Expr::Access { map, key, .. } = lhs else { panic!() };
        assert_eq!(**key, Expr::Ident(id("j")));
        assert!(matches!(**map, Expr::Access { .. }));
        assert!(matches!(rhs, Expr::Cast { .. }));
        assert!(matches!(labels[3], Label::Compare { negated: false, .. }));
        assert!(matches!(labels[4], Label::Compare { negated: true, .. }));
        assert!(matches!(labels[5], Label::Reach { negated: false, .. }));
        assert!(matches!(labels[6], Label::Reach { negated: true, .. }));
        assert_eq!(labels[7], Label::Tag(id("t")));
        assert!(matches!(labels[8], Label::TagVar(Expr::Access { .. })));
    }

    #[test]
    fn spans_point_into_the_source() {
        let source = "a, b: board[x] == e;";
        let game = parse(source).unwrap();
        let Some(Decl::Edge(edge)) = game.decls.first() else { panic!() };
        let Label::Compare { lhs, .. } = &edge.label else { panic!() };
        assert_eq!(&source[expr_span(lhs).range()], "board[x]");
        assert_eq!(&source[edge.span.range()], source);
    }

    #[test]
    fn reports_one_error_per_broken_declaration() {
        let errors = parse("type A = {a, b;\nvar x A = a;\nbegin, end: ;\nbegin end: ;").unwrap_err();
        assert_eq!(errors.len(), 3, "{errors:#?}");
        assert!(errors.iter().all(|e| e.code == "E0102"));
    }

    #[test]
    fn second_default_is_reported() {
        let errors = parse("var m : A -> B = {:a, :b};").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].code, "E0104");
    }

    #[test]
    fn unfinished_text_reports_end_of_input() {
        let errors = parse("type A = {a").unwrap_err();
        assert_eq!(errors[0].code, "E0103");
    }
}
