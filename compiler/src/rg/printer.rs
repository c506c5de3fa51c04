//! The canonical RG printer: one declaration per line, in stored order, with fixed spacing.
//!
//! Style (also in `spec/rg-format.md`): `type X = {a, b};`, `const X : T = V;`,
//! `var X : T = V;`, `a, b: label;` (skip is `a, b: ;`), `@name tokens;`. Map literals list
//! their entries in stored order and the default last: `{a: 1, b: 2, :0}`. Comments are not part
//! of the syntax tree and are not printed.

use crate::rg::ast::*;
use std::fmt::Write;

/// Prints a whole game, one declaration per line, each line ending in `\n`.
pub fn print_game(game: &Game) -> String {
    let mut out = String::new();
    for decl in &game.decls {
        out.push_str(&print_decl(decl));
        out.push('\n');
    }
    out
}

/// Prints one declaration, including its final `;`.
pub fn print_decl(decl: &Decl) -> String {
    match decl {
        Decl::Type(t) => format!("type {} = {};", t.name.name, print_type(&t.ty)),
        Decl::Const(c) => format!("const {} : {} = {};", c.name.name, print_type(&c.ty), print_value(&c.value)),
        Decl::Var(v) => format!("var {} : {} = {};", v.name.name, print_type(&v.ty), print_value(&v.value)),
        Decl::Edge(e) => match &e.label {
            Label::Skip => format!("{}, {}: ;", e.from.name, e.to.name),
            label => format!("{}, {}: {};", e.from.name, e.to.name, print_label(label)),
        },
        Decl::Pragma(p) => print_pragma(p),
    }
}

/// Prints a type expression.
pub fn print_type(ty: &TypeExpr) -> String {
    match ty {
        TypeExpr::Name(name) => name.name.clone(),
        TypeExpr::Set { members, .. } => {
            let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
            format!("{{{}}}", names.join(", "))
        }
        TypeExpr::Arrow { from, to, .. } => format!("{} -> {}", print_type(from), print_type(to)),
    }
}

/// Prints a value: a symbol or a map literal (default last).
pub fn print_value(value: &ValueExpr) -> String {
    match value {
        ValueExpr::Ident(name) => name.name.clone(),
        ValueExpr::Map { entries, default, .. } => {
            let mut parts: Vec<String> =
                entries.iter().map(|(key, v)| format!("{}: {}", key.name, print_value(v))).collect();
            if let Some(default) = default {
                parts.push(format!(":{}", print_value(default)));
            }
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Prints an expression.
pub fn print_expr(expr: &Expr) -> String {
    match expr {
        Expr::Ident(name) => name.name.clone(),
        Expr::Cast { ty, expr, .. } => format!("{}({})", ty.name, print_expr(expr)),
        Expr::Access { map, key, .. } => format!("{}[{}]", print_expr(map), print_expr(key)),
    }
}

/// Prints an edge label without its `;` (skip prints as the empty string).
pub fn print_label(label: &Label) -> String {
    match label {
        Label::Skip => String::new(),
        Label::Assign { lhs, rhs } => format!("{} = {}", print_expr(lhs), print_expr(rhs)),
        Label::AssignAny { lhs, ty } => format!("{} = {}(*)", print_expr(lhs), ty.name),
        Label::Compare { lhs, rhs, negated } => {
            format!("{} {} {}", print_expr(lhs), if *negated { "!=" } else { "==" }, print_expr(rhs))
        }
        Label::Reach { from, to, negated } => {
            format!("{} {} -> {}", if *negated { "!" } else { "?" }, from.name, to.name)
        }
        Label::Tag(symbol) => format!("$ {}", symbol.name),
        Label::TagVar(expr) => format!("$$ {}", print_expr(expr)),
    }
}

/// Prints a pragma: tokens separated by one space, except none before `,` `:` `]` `)` and none
/// after `[` `(`. Adjacent tokens never fuse (`$` `$` prints as `$ $`), so re-lexing gives back
/// the same tokens.
pub fn print_pragma(pragma: &Pragma) -> String {
    let mut out = format!("@{}", pragma.name.name);
    let mut previous: Option<&str> = None;
    for token in &pragma.tokens {
        let tight = matches!(token.as_str(), "," | ":" | "]" | ")") || matches!(previous, Some("[") | Some("("));
        if !tight {
            out.push(' ');
        }
        let _ = write!(out, "{token}");
        previous = Some(token);
    }
    out.push(';');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rg::parser::parse;

    #[test]
    fn prints_the_canonical_style() {
        let source = "type   Coord={0,1 ,2};var board:Coord->Piece={ : e };a,b:x==y;a ,b : ;\
                      c,d:m[ k ][j]=P( y );c,d:x=T( * );e,f:!g->h;e,f:$$x;e,f:$ t;\
                      @simpleApply a b [ t , x : T ] m = n ;@translatedFromRbg;";
        let printed = print_game(&parse(source).unwrap());
        assert_eq!(
            printed,
            "type Coord = {0, 1, 2};\nvar board : Coord -> Piece = {:e};\na, b: x == y;\na, b: ;\n\
             c, d: m[k][j] = P(y);\nc, d: x = T(*);\ne, f: ! g -> h;\ne, f: $$ x;\ne, f: $ t;\n\
             @simpleApply a b [t, x: T] m = n;\n@translatedFromRbg;\n"
        );
    }

    #[test]
    fn map_default_prints_last_whatever_its_position() {
        let game = parse("const c : A -> B = {:z, a: {:q, r: s}, b: y};").unwrap();
        assert_eq!(print_game(&game), "const c : A -> B = {a: {r: s, :q}, b: y, :z};\n");
    }

    #[test]
    fn pragma_tokens_that_could_fuse_stay_apart() {
        let game = parse("@odd $ $ = = ;").unwrap();
        let printed = print_game(&game);
        assert_eq!(printed, "@odd $ $ = =;\n");
        assert_eq!(parse(&printed).unwrap(), game);
    }
}
