//! The syntax tree of RG's low-level text format: the IR that every front end lowers to.
//!
//! Declarations are kept in source order so that printing preserves the author's layout of the
//! file. Every node carries a [`Span`] into its source text; spans never take part in equality
//! (see [`Span`]), so `parse(print(game)) == game` is a structural comparison.

use std::fmt;

/// A byte range in the source text.
///
/// Equality and hashing ignore the range: two trees parsed from differently formatted texts are
/// equal when their structure is, which is what the print/parse round trip asserts.
#[derive(Clone, Copy, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

impl Eq for Span {}

impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// An identifier with its location. In RG every name, including `0` and `100`, is an identifier.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

impl Ident {
    pub fn new(name: impl Into<String>, span: Span) -> Self {
        Ident { name: name.into(), span }
    }

    /// An identifier made by a generator (a front end or a pass) rather than read from text.
    pub fn synthetic(name: impl Into<String>) -> Self {
        Ident { name: name.into(), span: Span::default() }
    }
}

/// A type: `{a, b}`, `A -> B` (right-associative), or the name of a typedef.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeExpr {
    Set { members: Vec<Ident>, span: Span },
    Arrow { from: Box<TypeExpr>, to: Box<TypeExpr>, span: Span },
    Name(Ident),
}

/// A constant value: a symbol or constant name, or a map literal `{k: v, :default}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueExpr {
    /// A symbol, or the name of a constant declared earlier.
    Ident(Ident),
    /// Entries in source order. `default` is mandatory in valid programs; the parser accepts its
    /// absence so that the validator can report it with a fix.
    Map { entries: Vec<(Ident, ValueExpr)>, default: Option<Box<ValueExpr>>, span: Span },
}

/// An automaton expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A variable, a constant, or a symbol literal.
    Ident(Ident),
    /// `T(e)`: states the type of `e`; no runtime effect.
    Cast { ty: Ident, expr: Box<Expr>, span: Span },
    /// `map[key]`.
    Access { map: Box<Expr>, key: Box<Expr>, span: Span },
}

impl TypeExpr {
    /// Where the type is written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Name(ident) => ident.span,
            TypeExpr::Set { span, .. } | TypeExpr::Arrow { span, .. } => *span,
        }
    }
}

impl ValueExpr {
    /// Where the value is written.
    pub fn span(&self) -> Span {
        match self {
            ValueExpr::Ident(ident) => ident.span,
            ValueExpr::Map { span, .. } => *span,
        }
    }
}

impl Expr {
    /// Where the expression is written, from its first to its last token.
    pub fn span(&self) -> Span {
        match self {
            Expr::Ident(ident) => ident.span,
            Expr::Cast { span, .. } | Expr::Access { span, .. } => *span,
        }
    }
}

/// An edge label.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// `;`
    Skip,
    /// `lhs = rhs;`
    Assign { lhs: Expr, rhs: Expr },
    /// `lhs = T(*);`
    AssignAny { lhs: Expr, ty: Ident },
    /// `lhs == rhs;` or `lhs != rhs;` (`negated`).
    Compare { lhs: Expr, rhs: Expr, negated: bool },
    /// `? from -> to;` or `! from -> to;` (`negated`).
    Reach { from: Ident, to: Ident, negated: bool },
    /// `$ symbol;`
    Tag(Ident),
    /// `$$ expr;`
    TagVar(Expr),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Typedef {
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constant {
    pub name: Ident,
    pub ty: TypeExpr,
    pub value: ValueExpr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    pub name: Ident,
    pub ty: TypeExpr,
    pub value: ValueExpr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub from: Ident,
    pub to: Ident,
    pub label: Label,
    pub span: Span,
}

/// A pragma `@name tokens...;`, kept as its token list so that unknown pragmas survive verbatim.
/// Tokens are identifiers and the punctuation `:` `,` `[` `]` `=` `(` `)` `*` `->` as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pragma {
    pub name: Ident,
    pub tokens: Vec<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decl {
    Type(Typedef),
    Const(Constant),
    Var(Variable),
    Edge(Edge),
    Pragma(Pragma),
}

/// A whole RG game: its declarations in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Game {
    pub decls: Vec<Decl>,
}

impl Game {
    pub fn typedefs(&self) -> impl Iterator<Item = &Typedef> {
        self.decls.iter().filter_map(|d| match d {
            Decl::Type(t) => Some(t),
            _ => None,
        })
    }

    pub fn constants(&self) -> impl Iterator<Item = &Constant> {
        self.decls.iter().filter_map(|d| match d {
            Decl::Const(c) => Some(c),
            _ => None,
        })
    }

    pub fn variables(&self) -> impl Iterator<Item = &Variable> {
        self.decls.iter().filter_map(|d| match d {
            Decl::Var(v) => Some(v),
            _ => None,
        })
    }

    pub fn edges(&self) -> impl Iterator<Item = &Edge> {
        self.decls.iter().filter_map(|d| match d {
            Decl::Edge(e) => Some(e),
            _ => None,
        })
    }

    pub fn pragmas(&self) -> impl Iterator<Item = &Pragma> {
        self.decls.iter().filter_map(|d| match d {
            Decl::Pragma(p) => Some(p),
            _ => None,
        })
    }
}
