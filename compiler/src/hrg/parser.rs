//! The HRG parser (chumsky 0.12 over the logos tokens), with error recovery so that one run
//! reports every syntax error it can find (E0302).

use super::ast::*;
use super::lexer::{lex, Token};
use crate::diagnostics::Diagnostic;
use chumsky::input::{Input as _, ValueInput};
use chumsky::prelude::*;

type Extra<'src> = extra::Err<Rich<'src, Token<'src>, SimpleSpan>>;

fn span_of(span: SimpleSpan) -> Span {
    Span::new(span.start, span.end)
}

/// Parses an HRG source into its syntax tree. Lexical and syntax errors are all reported; the
/// tree is returned only when there are none.
pub fn parse(source: &str) -> Result<Program, Vec<Diagnostic>> {
    let (program, diagnostics) = parse_with_recovery(source);
    match program {
        Some(program) if diagnostics.is_empty() => Ok(program),
        _ => Err(diagnostics),
    }
}

/// Parses as much as possible: the (partial) tree plus every diagnostic.
pub fn parse_with_recovery(source: &str) -> (Option<Program>, Vec<Diagnostic>) {
    let (tokens, mut diagnostics) = lex(source);
    let tokens: Vec<(Token<'_>, SimpleSpan)> =
        tokens.into_iter().map(|(token, span)| (token, SimpleSpan::from(span.start..span.end))).collect();
    let eoi = SimpleSpan::from(source.len()..source.len());
    let (program, errors) = program_parser().parse(tokens.as_slice().split_token_span(eoi)).into_output_errors();
    diagnostics.extend(errors.into_iter().map(|error| syntax_diagnostic(&error)));
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    diagnostics.dedup_by(|a, b| a.primary.span.start == b.primary.span.start && a.code == b.code);
    (program, diagnostics)
}

fn syntax_diagnostic(error: &Rich<'_, Token<'_>, SimpleSpan>) -> Diagnostic {
    let span = span_of(*error.span());
    match error.reason() {
        chumsky::error::RichReason::Custom(message) => Diagnostic::error("E0302", message.clone(), span).label("here"),
        chumsky::error::RichReason::ExpectedFound { expected, found } => {
            let found_text = match found {
                Some(token) => format!("{}", **token),
                None => "the end of the file".to_string(),
            };
            let mut expected_texts: Vec<String> = expected
                .iter()
                .map(|pattern| match pattern {
                    chumsky::error::RichPattern::Token(token) => format!("{}", **token),
                    chumsky::error::RichPattern::Label(label) => label.to_string(),
                    chumsky::error::RichPattern::Identifier(name) => format!("`{name}`"),
                    chumsky::error::RichPattern::Any => "something".to_string(),
                    chumsky::error::RichPattern::EndOfInput => "the end of the file".to_string(),
                    _ => "something else".to_string(),
                })
                .collect();
            expected_texts.sort();
            expected_texts.dedup();
            let help = match expected_texts.len() {
                0 => "remove or fix this".to_string(),
                1 => format!("expected {}", expected_texts[0]),
                _ => format!("expected one of {}", expected_texts.join(", ")),
            };
            let mut diagnostic = Diagnostic::error("E0302", format!("unexpected {found_text}"), span)
                .label(format!("unexpected {found_text}"))
                .with_help(help);
            if matches!(found.as_deref(), Some(Token::Ident(name)) if is_reserved_looking(name)) {
                diagnostic = diagnostic.with_help("this word is reserved in HRG; rename it");
            }
            diagnostic
        }
    }
}

fn is_reserved_looking(_name: &str) -> bool {
    false
}

fn is_pattern_variable(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_uppercase())
}

fn ident<'src, I>() -> impl Parser<'src, I, Ident, Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    select! { Token::Ident(name) = e => Ident::new(name, span_of(e.span())) }.labelled("a name")
}

fn type_ref<'src, I>() -> impl Parser<'src, I, TypeRef, Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|ty| {
        let set = ident()
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map_with(|members, e| TypeRef::Set { members, span: span_of(e.span()) });
        let atom = ident().map(TypeRef::Name).or(set);
        atom.then(just(Token::Arrow).ignore_then(ty).or_not())
            .map_with(|(from, to), e| match to {
                Some(to) => TypeRef::Arrow { from: Box::new(from), to: Box::new(to), span: span_of(e.span()) },
                None => from,
            })
            .labelled("a type")
    })
}

fn bindings<'src, I>() -> impl Parser<'src, I, Vec<Binding>, Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    let interval =
        ident().then_ignore(just(Token::DotDot)).then(ident()).map(|(low, high)| Range::Interval { low, high });
    let set = ident()
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBrace), just(Token::RBrace))
        .map(Range::Set);
    let range = interval.or(set).or(ident().map(Range::Domain)).labelled("a range `a..b`, a set `{a, b}` or a domain");
    let binding = ident().then_ignore(just(Token::In)).then(range).map_with(|(var, range), e| Binding {
        var,
        range,
        span: span_of(e.span()),
    });
    binding.separated_by(just(Token::Comma)).at_least(1).collect::<Vec<_>>()
}

fn pattern<'src, I>() -> impl Parser<'src, I, Pattern, Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|pattern| {
        ident()
            .then(
                pattern
                    .separated_by(just(Token::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>()
                    .delimited_by(just(Token::LParen), just(Token::RParen))
                    .or_not(),
            )
            .map_with(|(name, args), e| match args {
                Some(args) => Pattern::Ctor { name, args, span: span_of(e.span()) },
                None if name.name == "_" => Pattern::Wildcard(name.span),
                None if is_pattern_variable(&name.name) => Pattern::Var(name),
                None => Pattern::Literal(name),
            })
            .labelled("a pattern")
    })
}

fn expr<'src, I>() -> impl Parser<'src, I, Expr, Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|expr| {
        let args = expr
            .clone()
            .or(just(Token::Star).map_with(|_, e| Expr::Star(span_of(e.span()))))
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .recover_with(via_parser(nested_delimiters(
                Token::LParen,
                Token::RParen,
                [(Token::LBracket, Token::RBracket), (Token::LBrace, Token::RBrace)],
                |span: SimpleSpan| vec![Expr::Error(span_of(span))],
            )));
        let primary = ident()
            .map(Expr::Name)
            .or(expr.clone().delimited_by(just(Token::LParen), just(Token::RParen)))
            .labelled("an expression");
        enum Suffix {
            Call(Vec<Expr>),
            Access(Expr),
        }
        let suffix = args
            .map(Suffix::Call)
            .or(expr.clone().delimited_by(just(Token::LBracket), just(Token::RBracket)).map(Suffix::Access));
        let postfix = primary.foldl_with(suffix.repeated(), |lhs, suffix, e| match suffix {
            Suffix::Call(args) => Expr::Call { callee: Box::new(lhs), args, span: span_of(e.span()) },
            Suffix::Access(key) => Expr::Access { map: Box::new(lhs), key: Box::new(key), span: span_of(e.span()) },
        });
        // `+ - %` share one level and associate to the right, as in Regular Games' HRG.
        let additive = recursive(|additive| {
            let op = just(Token::Plus)
                .to(BinOp::Add)
                .or(just(Token::Minus).to(BinOp::Sub))
                .or(just(Token::Percent).to(BinOp::Mod));
            postfix.clone().then(op.then(additive).or_not()).map_with(|(lhs, rest), e| match rest {
                Some((op, rhs)) => Expr::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs), span: span_of(e.span()) },
                None => lhs,
            })
        });
        let membership =
            additive.then(just(Token::In).ignore_then(ident()).or_not()).map_with(|(lhs, domain), e| match domain {
                Some(domain) => Expr::In { expr: Box::new(lhs), domain, span: span_of(e.span()) },
                None => lhs,
            });
        let comparison = recursive(|comparison| {
            let op = just(Token::EqEq)
                .to(BinOp::Eq)
                .or(just(Token::NotEq).to(BinOp::Ne))
                .or(just(Token::LessEq).to(BinOp::Le))
                .or(just(Token::GreaterEq).to(BinOp::Ge))
                .or(just(Token::Less).to(BinOp::Lt))
                .or(just(Token::Greater).to(BinOp::Gt));
            membership.clone().then(op.then(comparison).or_not()).map_with(|(lhs, rest), e| match rest {
                Some((op, rhs)) => Expr::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs), span: span_of(e.span()) },
                None => lhs,
            })
        });
        let conjunction = recursive(|conjunction| {
            comparison.clone().then(just(Token::AndAnd).ignore_then(conjunction).or_not()).map_with(|(lhs, rhs), e| {
                match rhs {
                    Some(rhs) => {
                        Expr::Binary { op: BinOp::And, lhs: Box::new(lhs), rhs: Box::new(rhs), span: span_of(e.span()) }
                    }
                    None => lhs,
                }
            })
        });
        let disjunction = recursive(|disjunction| {
            conjunction.clone().then(just(Token::OrOr).ignore_then(disjunction).or_not()).map_with(|(lhs, rhs), e| {
                match rhs {
                    Some(rhs) => {
                        Expr::Binary { op: BinOp::Or, lhs: Box::new(lhs), rhs: Box::new(rhs), span: span_of(e.span()) }
                    }
                    None => lhs,
                }
            })
        });
        let conditional = just(Token::If)
            .ignore_then(expr.clone())
            .then_ignore(just(Token::Then))
            .then(expr.clone())
            .then_ignore(just(Token::Else))
            .then(expr.clone())
            .map_with(|((cond, then), otherwise), e| Expr::If {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
                span: span_of(e.span()),
            });
        let part = pattern()
            .then_ignore(just(Token::Eq))
            .then(expr.clone())
            .then(just(Token::Where).ignore_then(bindings()).or_not())
            .map_with(|((pattern, value), bindings), e| MapPart {
                pattern,
                value,
                bindings: bindings.unwrap_or_default(),
                span: span_of(e.span()),
            });
        let parts = part.separated_by(just(Token::Semicolon)).allow_trailing().collect::<Vec<_>>();
        let with_default = just(Token::Colon)
            .ignore_then(expr.clone())
            .then(just(Token::Semicolon).ignore_then(parts.clone()).or_not())
            .map(|(default, parts)| (Some(Box::new(default)), parts.unwrap_or_default()));
        let map = with_default
            .or(parts.map(|parts| (None, parts)))
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map_with(|(default, parts), e| Expr::Map { default, parts, span: span_of(e.span()) });
        conditional.or(map).or(disjunction).labelled("an expression")
    })
}

/// One token to skip during error recovery, or a whole balanced `(..)`, `[..]`, `{..}` group, so
/// that recovery never resynchronises inside a nested construct.
fn skip_unit<'src, I>() -> impl Parser<'src, I, (), Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|unit| {
        let group = |open: Token<'src>, close: Token<'src>| {
            just(open).ignore_then(unit.clone().repeated()).then_ignore(just(close)).ignored()
        };
        group(Token::LParen, Token::RParen)
            .or(group(Token::LBracket, Token::RBracket))
            .or(group(Token::LBrace, Token::RBrace))
            .or(any()
                .and_is(
                    one_of([
                        Token::LParen,
                        Token::RParen,
                        Token::LBracket,
                        Token::RBracket,
                        Token::LBrace,
                        Token::RBrace,
                    ])
                    .not(),
                )
                .ignored())
    })
}

/// Tokens where a statement plausibly starts: a keyword, a tag, or a name followed by `=`, `[`
/// or `(`.
fn statement_start<'src, I>() -> impl Parser<'src, I, (), Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    one_of([
        Token::Dollar,
        Token::DollarDollar,
        Token::DollarUnderscore,
        Token::Branch,
        Token::Repeat,
        Token::Loop,
        Token::While,
        Token::If,
    ])
    .ignored()
    .or(ident().then(one_of([Token::Eq, Token::LBracket, Token::LParen])).ignored())
    .rewind()
}

/// Tokens where a top-level declaration plausibly starts.
fn item_start<'src, I>() -> impl Parser<'src, I, (), Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    one_of([Token::Domain, Token::Graph, Token::Reusable])
        .ignored()
        .or(ident().then(just(Token::Colon)).ignored())
        .rewind()
}

fn block_of<'src, I, S>(stmt: S) -> impl Parser<'src, I, Block, Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
    S: Parser<'src, I, Stmt, Extra<'src>> + Clone,
{
    let resync = skip_unit()
        .then(skip_unit().and_is(statement_start().not()).repeated())
        .map_with(|_, e| Stmt { kind: StmtKind::Error, span: span_of(e.span()) });
    stmt.recover_with(via_parser(resync))
        .repeated()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBrace), just(Token::RBrace))
        .map_with(|stmts, e| Block { stmts, span: span_of(e.span()) })
        .recover_with(via_parser(nested_delimiters(
            Token::LBrace,
            Token::RBrace,
            [(Token::LParen, Token::RParen), (Token::LBracket, Token::RBracket)],
            |span: SimpleSpan| Block { stmts: Vec::new(), span: span_of(span) },
        )))
}

fn stmt<'src, I>() -> impl Parser<'src, I, Stmt, Extra<'src>> + Clone
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    recursive(|stmt| {
        let block = block_of(stmt.clone());
        let expr = expr();
        // A postfix expression, then `= rhs` for an assignment; alone it must be a call.
        let simple =
            expr.clone().then(just(Token::Eq).ignore_then(expr.clone()).or_not()).try_map(|(lhs, rhs), span| {
                match (lhs, rhs) {
                    (lhs, Some(rhs)) => Ok(StmtKind::Assign { lhs, rhs }),
                    (Expr::Call { callee, args, .. }, None) if matches!(*callee, Expr::Name(_)) => {
                        let Expr::Name(name) = *callee else { unreachable!("checked by the guard") };
                        Ok(StmtKind::Call { name, args })
                    }
                    (_, None) => Err(Rich::custom(
                        span,
                        "expected a statement: an assignment `x = e`, a call `g(...)`, or a control statement",
                    )),
                }
            });
        let tag_symbols = ident().map(|symbol| vec![symbol]).or(ident()
            .repeated()
            .at_least(1)
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LParen), just(Token::RParen)));
        let tag = just(Token::Dollar)
            .to(false)
            .or(just(Token::DollarUnderscore).to(true))
            .then(tag_symbols)
            .map(|(artificial, symbols)| StmtKind::Tag { artificial, symbols });
        let tag_var = just(Token::DollarDollar).ignore_then(expr.clone()).map(StmtKind::TagVar);
        let in_type = ident().map(TypeRef::Name).or(ident()
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map_with(|members, e| TypeRef::Set { members, span: span_of(e.span()) }));
        let branch_in = ident()
            .then_ignore(just(Token::In))
            .then(in_type.clone())
            .then(block.clone())
            .map(|((var, ty), body)| StmtKind::BranchIn { var, ty, body });
        let branch_arms =
            block.clone().separated_by(just(Token::Or)).at_least(1).collect::<Vec<_>>().map(StmtKind::Branch);
        let branch = just(Token::Branch).ignore_then(branch_in.or(branch_arms));
        let repeat_in = ident()
            .then_ignore(just(Token::In))
            .then(in_type)
            .then(block.clone())
            .map(|((var, ty), body)| StmtKind::RepeatIn { var, ty, body });
        let repeat_count = ident().then(block.clone()).map(|(count, body)| StmtKind::Repeat { count, body });
        let repeat = just(Token::Repeat).ignore_then(repeat_in.or(repeat_count));
        let loop_ = just(Token::Loop).ignore_then(block.clone()).map(StmtKind::Loop);
        let while_ = just(Token::While)
            .ignore_then(expr.clone())
            .then(block.clone())
            .map(|(cond, body)| StmtKind::While { cond, body });
        let if_ = recursive(|if_| {
            let else_if = if_.map_with(|kind, e| {
                let span = span_of(e.span());
                Block { stmts: vec![Stmt { kind, span }], span }
            });
            just(Token::If)
                .ignore_then(expr.clone())
                .then(block.clone())
                .then(just(Token::Else).ignore_then(else_if.or(block.clone())).or_not())
                .map(|((cond, then), otherwise)| StmtKind::If { cond, then, otherwise })
        });
        tag.or(tag_var)
            .or(branch)
            .or(repeat)
            .or(loop_)
            .or(while_)
            .or(if_)
            .or(simple)
            .map_with(|kind, e| Stmt { kind, span: span_of(e.span()) })
            .labelled("a statement")
    })
}

fn program_parser<'src, I>() -> impl Parser<'src, I, Program, Extra<'src>>
where
    I: ValueInput<'src, Token = Token<'src>, Span = SimpleSpan>,
{
    let element = ident()
        .then(
            ident()
                .separated_by(just(Token::Comma))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(just(Token::LParen), just(Token::RParen))
                .then(just(Token::Where).ignore_then(bindings()).or_not())
                .or_not(),
        )
        .map_with(|(name, generator), e| {
            let (params, bindings) = match generator {
                Some((params, bindings)) => (Some(params), bindings.unwrap_or_default()),
                None => (None, Vec::new()),
            };
            DomainElement { name, params, bindings, span: span_of(e.span()) }
        });
    let domain = just(Token::Domain)
        .ignore_then(ident())
        .then_ignore(just(Token::Eq))
        .then(element.separated_by(just(Token::Bar)).at_least(1).collect::<Vec<_>>())
        .map_with(|(name, elements), e| Item::Domain(DomainDecl { name, elements, span: span_of(e.span()) }));
    let typed = ident()
        .then_ignore(just(Token::Colon))
        .then(type_ref())
        .then(just(Token::Eq).ignore_then(expr()).or_not())
        .map_with(|((name, ty), init), e| Item::Typed(TypedDecl { name, ty, init, span: span_of(e.span()) }));
    let case = ident()
        .then(
            pattern()
                .separated_by(just(Token::Comma))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(just(Token::LParen), just(Token::RParen)),
        )
        .then_ignore(just(Token::Eq))
        .then(expr())
        .map_with(|((name, patterns), body), e| {
            Item::Case(FunctionCase { name, patterns, body, span: span_of(e.span()) })
        });
    let param = ident().then_ignore(just(Token::Colon)).then(type_ref()).map_with(|(name, ty), e| Param {
        name,
        ty,
        span: span_of(e.span()),
    });
    let graph = just(Token::Reusable)
        .or_not()
        .then_ignore(just(Token::Graph))
        .then(ident())
        .then(
            param
                .separated_by(just(Token::Comma))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(just(Token::LParen), just(Token::RParen)),
        )
        .then(block_of(stmt()))
        .map_with(|(((reusable, name), params), body), e| {
            Item::Graph(GraphDecl { reusable: reusable.is_some(), name, params, body, span: span_of(e.span()) })
        });
    let item = domain.or(graph).or(typed).or(case).labelled("a declaration");
    let resync = skip_unit().then(skip_unit().and_is(item_start().not()).repeated()).to(None);
    item.map(Some)
        .recover_with(via_parser(resync))
        .repeated()
        .collect::<Vec<_>>()
        .then_ignore(end())
        .map(|items| Program { items: items.into_iter().flatten().collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn juxtaposed_statements_parse() {
        let program = parse("graph g(me: Player) { goals[me] = 100 goals[op[me]] = 0 end() }").unwrap();
        let Item::Graph(graph) = &program.items[0] else { panic!("expected a graph") };
        assert_eq!(graph.body.stmts.len(), 3);
        assert!(
            matches!(&graph.body.stmts[2].kind, StmtKind::Call { name, args } if name.name == "end" && args.is_empty())
        );
    }

    #[test]
    fn arithmetic_is_right_associative_like_hrg() {
        let program = parse("f : A -> A\nf(X) = X - 1 + 2").unwrap();
        let Item::Case(case) = &program.items[1] else { panic!("expected a case") };
        let Expr::Binary { op: BinOp::Sub, rhs, .. } = &case.body else { panic!("expected `-` at the top") };
        assert!(matches!(**rhs, Expr::Binary { op: BinOp::Add, .. }));
    }

    #[test]
    fn three_separate_errors_are_all_reported() {
        let source = "domain A = x | \ngraph g() { x = = y }\nf : A -> A\nf(x) = ) \ngraph rules() { }";
        let (_, diagnostics) = parse_with_recovery(source);
        assert!(diagnostics.len() >= 3, "{diagnostics:#?}");
    }
}
