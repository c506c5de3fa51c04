//! The checked meaning of a blocks file: board, initial pieces, stages with their actions,
//! limits, captures/flips and end conditions, win rules, and presentation metadata. Built by
//! `check.rs`, read by `translate.rs`.

use crate::rg::ast::Span;

/// One of the two colours (RED moves first in every seed example, but `play_turn` decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Red,
    Green,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Red, Side::Green];

    /// The name used for the colour in the generated program.
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Green => "green",
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Green,
            Side::Green => Side::Red,
        }
    }
}

/// Whom a rule applies to: `RED`, `GREEN` or `BOTH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applies {
    pub red: bool,
    pub green: bool,
}

impl Applies {
    pub fn to(self, side: Side) -> bool {
        match side {
            Side::Red => self.red,
            Side::Green => self.green,
        }
    }
}

/// A colour selector of an end condition: `RED`, `GREEN`, `BOTH` (each of them) or `ANY` (one of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selector {
    Red,
    Green,
    Both,
    Any,
}

impl Selector {
    pub fn sides(self) -> Vec<Side> {
        match self {
            Selector::Red => vec![Side::Red],
            Selector::Green => vec![Side::Green],
            Selector::Both | Selector::Any => Side::BOTH.to_vec(),
        }
    }
}

/// Which pieces a jump may pass over: `OPPO`, `SELF` or `BOTH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victim {
    Opponent,
    Own,
    Any,
}

/// A set of line directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dirs {
    /// Horizontal and vertical.
    Hv,
    /// Plus both diagonals everywhere.
    Hvd,
    /// Plus both diagonals at points whose column + row is even (a1, c1, b2, ...): Alquerque.
    Hvd1,
    /// Plus both diagonals at points whose column + row is odd.
    Hvd2,
    /// Plus the `/` diagonal (south-west to north-east) only.
    Hvd3,
    /// Plus the `\` diagonal (north-west to south-east) only.
    Hvd4,
}

impl Dirs {
    pub fn block_name(self) -> &'static str {
        match self {
            Dirs::Hv => "DIRS_HV",
            Dirs::Hvd => "DIRS_HVD",
            Dirs::Hvd1 => "DIRS_HVD1",
            Dirs::Hvd2 => "DIRS_HVD2",
            Dirs::Hvd3 => "DIRS_HVD3",
            Dirs::Hvd4 => "DIRS_HVD4",
        }
    }

    /// The suffix of the generated step function for this set.
    pub fn suffix(self) -> &'static str {
        match self {
            Dirs::Hv => "HV",
            Dirs::Hvd => "HVD",
            Dirs::Hvd1 => "HVD1",
            Dirs::Hvd2 => "HVD2",
            Dirs::Hvd3 => "HVD3",
            Dirs::Hvd4 => "HVD4",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// `SQURE` / `SQUARE`: pieces inside the cells.
    Square,
    /// `CROSS`: pieces on the line intersections.
    Cross,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    PutToEmpty,
    PutToEmptyWithFlip,
    NeighbourMove,
    MultiStepMove(usize),
    FlyMove,
    SingleJump(Victim),
    MultiJump(Victim),
}

impl ActionKind {
    /// Placements add a piece; every other action moves one.
    pub fn is_placement(self) -> bool {
        matches!(self, ActionKind::PutToEmpty | ActionKind::PutToEmptyWithFlip)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    pub kind: ActionKind,
    pub applies: Applies,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    Directions(Dirs),
    EatFirst,
    NoBackoff,
    NoRepeat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub kind: LimitKind,
    pub applies: Applies,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectKind {
    FlipEmbrace(Dirs),
    FlipNeighbours(Dirs),
    FlipSide(Dirs),
    EatJump,
    EatOneTakesTwo,
    EatTwoTakeOne,
    EatTwoNeighboursOne,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    pub kind: EffectKind,
    pub applies: Applies,
}

/// A number in a comparison block: a literal or one of the built-in variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Number {
    Literal(usize),
    EatCount(Side),
    ChessCount(Side),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    NoPlace(Selector),
    LineShape(Dirs, usize),
    ChessCountEq(Selector, usize),
    EatCountGe(Selector, usize),
    Compare(Comparison, Number, Number),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinRule {
    LineShape(Dirs, usize),
    MorePieces,
    EatCountGe(usize),
    OpponentCannotPlay,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageKind {
    Layout,
    Move,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    pub kind: StageKind,
    pub span: Span,
    /// `play_turn`: the order in which the sides move (one side when there is one player).
    pub turn_order: Vec<Side>,
    /// `pre_play_times`: this side first makes this many moves.
    pub pre_play: Option<(Side, usize)>,
    pub actions: Vec<Action>,
    pub limits: Vec<Limit>,
    pub effects: Vec<Effect>,
    /// `stage_end`: the stage ends before a turn when any of these holds.
    pub end: Vec<Condition>,
}

impl Stage {
    /// A stage in which pieces move can go on for ever, so it gets the move cap.
    pub fn has_movement(&self) -> bool {
        self.actions.iter().any(|action| !action.kind.is_placement())
    }
}

/// A presentation block kept as metadata: `(anim_tone_win ANIM_FIREWORK TONE_WIN)` and the like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presentation {
    pub block: String,
    pub args: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub name: String,
    pub version: String,
    pub players: usize,
    pub board: BoardKind,
    pub size: usize,
    /// Initial pieces: side, column (0 = `a`), row (0 = `1`).
    pub initial: Vec<(Side, usize, usize)>,
    pub stages: Vec<Stage>,
    pub red_wins: Vec<WinRule>,
    pub green_wins: Vec<WinRule>,
    pub presentation: Vec<Presentation>,
}

impl Game {
    pub fn wins(&self, side: Side) -> &[WinRule] {
        match side {
            Side::Red => &self.red_wins,
            Side::Green => &self.green_wins,
        }
    }

    /// The sides that take turns.
    pub fn sides(&self) -> Vec<Side> {
        if self.players == 1 {
            vec![Side::Red]
        } else {
            Side::BOTH.to_vec()
        }
    }
}
