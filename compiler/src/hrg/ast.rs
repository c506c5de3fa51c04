//! The HRG syntax tree: what the parser produces and the checker/lowering read. Every node has a
//! [`Span`] into the .hrg source.

pub use crate::rg::ast::{Ident, Span};

/// A whole HRG program: its top-level items in source order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Domain(DomainDecl),
    /// `name : Type` or `name : Type = init`: a variable, or the signature of a function when
    /// case lines for `name` follow.
    Typed(TypedDecl),
    /// `name(patterns) = body`: one case of a function.
    Case(FunctionCase),
    Graph(GraphDecl),
}

/// `domain Name = element | element | ...`
#[derive(Clone, Debug, PartialEq)]
pub struct DomainDecl {
    pub name: Ident,
    pub elements: Vec<DomainElement>,
    pub span: Span,
}

/// One alternative of a domain: a symbol, another domain's name, or a generator
/// `C(I, J) where I in 0..2, J in {a, b}`.
#[derive(Clone, Debug, PartialEq)]
pub struct DomainElement {
    pub name: Ident,
    /// `Some` for a generator (its parameters, each a pattern variable or a literal).
    pub params: Option<Vec<Ident>>,
    pub bindings: Vec<Binding>,
    pub span: Span,
}

/// `X in 0..7`, `X in {a, b}` or `X in Domain`.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub var: Ident,
    pub range: Range,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Range {
    /// `low..high`, both inclusive numerals.
    Interval { low: Ident, high: Ident },
    /// `{a, b, c}`
    Set(Vec<Ident>),
    /// The members of a domain.
    Domain(Ident),
}

/// A type: a domain name, an inline set `{a, b}` (only after `in`), or `A -> B` (right-assoc).
#[derive(Clone, Debug, PartialEq)]
pub enum TypeRef {
    Name(Ident),
    Set { members: Vec<Ident>, span: Span },
    Arrow { from: Box<TypeRef>, to: Box<TypeRef>, span: Span },
}

impl TypeRef {
    pub fn span(&self) -> Span {
        match self {
            TypeRef::Name(name) => name.span,
            TypeRef::Set { span, .. } | TypeRef::Arrow { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypedDecl {
    pub name: Ident,
    pub ty: TypeRef,
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionCase {
    pub name: Ident,
    pub patterns: Vec<Pattern>,
    pub body: Expr,
    pub span: Span,
}

/// A pattern in a function case or a map-literal entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    /// `_`
    Wildcard(Span),
    /// An identifier starting with an uppercase letter.
    Var(Ident),
    /// Any other identifier: a symbol or numeral.
    Literal(Ident),
    /// `C(p1, p2)`
    Ctor { name: Ident, args: Vec<Pattern>, span: Span },
}

impl Pattern {
    pub fn span(&self) -> Span {
        match self {
            Pattern::Wildcard(span) | Pattern::Ctor { span, .. } => *span,
            Pattern::Var(name) | Pattern::Literal(name) => name.span,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mod,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mod => "%",
        }
    }
}

/// An expression. The same syntax serves compile-time expressions (functions, initialisers),
/// automaton expressions (statements) and conditions; which forms are allowed where is checked
/// after parsing.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A name: variable, function, symbol, numeral, parameter or pattern variable.
    Name(Ident),
    /// `f(a, b)`: a function call, a constructor (uppercase head), a built-in condition such
    /// as `not(c)`, or `T(*)` (whose only argument is [`Expr::Star`]).
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
        span: Span,
    },
    /// `m[k]`
    Access {
        map: Box<Expr>,
        key: Box<Expr>,
        span: Span,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        span: Span,
    },
    /// `e in Domain` (compile time only).
    In {
        expr: Box<Expr>,
        domain: Ident,
        span: Span,
    },
    /// `if c then a else b` (compile time only).
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
        span: Span,
    },
    /// `{ :default; pattern = value where ...; ... }`
    Map {
        default: Option<Box<Expr>>,
        parts: Vec<MapPart>,
        span: Span,
    },
    /// The `*` of `T(*)`.
    Star(Span),
    /// Stands for an expression the parser could not read (an error was reported).
    Error(Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Name(name) => name.span,
            Expr::Call { span, .. }
            | Expr::Access { span, .. }
            | Expr::Binary { span, .. }
            | Expr::In { span, .. }
            | Expr::If { span, .. }
            | Expr::Map { span, .. }
            | Expr::Star(span)
            | Expr::Error(span) => *span,
        }
    }
}

/// `pattern = value where X in ...` inside a map literal.
#[derive(Clone, Debug, PartialEq)]
pub struct MapPart {
    pub pattern: Pattern,
    pub value: Expr,
    pub bindings: Vec<Binding>,
    pub span: Span,
}

/// `graph name(params) { body }` or `reusable graph ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphDecl {
    pub reusable: bool,
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeRef,
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `lhs = rhs`, including `x = T(*)`.
    Assign {
        lhs: Expr,
        rhs: Expr,
    },
    /// `$ a`, `$_ a`, `$ (a b)` (symbols joined with `__`).
    Tag {
        artificial: bool,
        symbols: Vec<Ident>,
    },
    /// `$$ e`
    TagVar(Expr),
    /// `name(args)`: a graph call or a built-in (`check`, `end`, `return`, `break`, `continue`).
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    /// `branch { } or { } ...`
    Branch(Vec<Block>),
    /// `branch v in T { }`
    BranchIn {
        var: Ident,
        ty: TypeRef,
        body: Block,
    },
    /// `repeat N { }`
    Repeat {
        count: Ident,
        body: Block,
    },
    /// `repeat v in T { }`
    RepeatIn {
        var: Ident,
        ty: TypeRef,
        body: Block,
    },
    Loop(Block),
    While {
        cond: Expr,
        body: Block,
    },
    /// `if c { } else ...`; an `else if` is an `If` alone in the else block.
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    /// Stands for a statement the parser could not read (an error was reported).
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}
