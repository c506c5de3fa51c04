//! The Rule Game syntax tree: a parsed `.rules` file (orders, rule lines, atoms, bucket
//! expressions and Regula's `@` directives). Every node keeps its [`Span`] into the source.

pub use crate::rg::ast::Span;

/// A whole rule file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleFile {
    pub orders: Vec<OrderDef>,
    pub lines: Vec<RuleLine>,
    pub board: Board,
    pub mode: Mode,
    /// The attempts mode's cap on refused attempts (the game ends when it is reached).
    pub max_errors: u32,
    pub equality: Equality,
}

/// `Order Name=[c, [c, c], ...]`: a weak order on cells, ties inside inner brackets.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderDef {
    pub name: String,
    pub name_span: Span,
    /// Tiers in order, each a set of cells 1..=36.
    pub tiers: Vec<Vec<u8>>,
    pub span: Span,
}

/// `[count] atom atom ...`
#[derive(Clone, Debug, PartialEq)]
pub struct RuleLine {
    /// `None` for `*` or no count: unmetered.
    pub count: Option<u32>,
    pub atoms: Vec<Atom>,
    pub span: Span,
}

/// One atom, from either the positional or the property form.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    /// `None` for `*`: unmetered.
    pub count: Option<u32>,
    /// `None` for `*`; names lowercased.
    pub shapes: Option<Vec<String>>,
    pub colors: Option<Vec<String>>,
    /// `None` for `*`.
    pub positions: Option<Vec<Position>>,
    /// `None` for `*`.
    pub buckets: Option<Expr>,
    pub span: Span,
}

impl Atom {
    /// The atom `()`: unmetered, every field `*` (its span empty).
    pub fn default_any() -> Atom {
        Atom { count: None, shapes: None, colors: None, positions: None, buckets: None, span: Span::default() }
    }
}

/// One entry of an atom's position field.
#[derive(Clone, Debug, PartialEq)]
pub enum Position {
    Cell(u8),
    /// A built-in or user-defined order: the piece must be in its first occupied tier.
    Order {
        name: String,
        span: Span,
    },
}

/// How a move is offered to the player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Only accepted moves are legal.
    #[default]
    Legal,
    /// Every (piece, bucket) is a move; the keeper answers accept, deny or immovable.
    Attempts,
}

/// How `==` treats an empty operand (spec/rules.md §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Equality {
    /// Rule Game's engine: an empty side makes the result the left operand.
    #[default]
    Engine,
    /// The documentation: `[1]` if the sets share an element, else `[]`.
    Documented,
}

/// The initial board.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Board {
    #[default]
    Missing,
    /// `@piece cell shape color` lines.
    Fixed(Vec<Piece>),
    /// `@random count ...`: `random` places `count` pieces, one chance move each.
    Random { count: u32, cells: Vec<u8>, shapes: Vec<String>, colors: Vec<String>, span: Span },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub cell: u8,
    pub shape: String,
    pub color: String,
    pub span: Span,
}

/// The bucket expression variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// Bucket of the last accepted move.
    P,
    /// Bucket of the last accepted move of a piece of the same colour.
    Pc,
    /// ... of the same shape.
    Ps,
    /// The bucket nearest the piece's cell.
    Nearby,
    /// The bucket farthest from the piece's cell.
    Remotest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A bucket expression; every value is a set of integers.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(i64, Span),
    Var(Var, Span),
    /// `[e, e, ...]`: the union.
    List(Vec<Expr>, Span),
    /// `!e`
    Not(Box<Expr>, Span),
    Arith(ArithOp, Box<Expr>, Box<Expr>, Span),
    Cmp(CmpOp, Box<Expr>, Box<Expr>, Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Num(_, s) | Expr::Var(_, s) | Expr::List(_, s) | Expr::Not(_, s) => *s,
            Expr::Arith(_, _, _, s) | Expr::Cmp(_, _, _, s) => *s,
        }
    }

    /// Whether the expression reads `var` anywhere.
    pub fn uses(&self, var: Var) -> bool {
        match self {
            Expr::Num(..) => false,
            Expr::Var(v, _) => *v == var,
            Expr::List(items, _) => items.iter().any(|e| e.uses(var)),
            Expr::Not(e, _) => e.uses(var),
            Expr::Arith(_, a, b, _) | Expr::Cmp(_, a, b, _) => a.uses(var) || b.uses(var),
        }
    }
}
