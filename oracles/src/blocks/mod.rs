//! Independent plain-Rust rules of the six blocks-language example games (seed 001), for
//! cross-checking `games/blocks-*`. Written from the rules as `spec/blocks.md` reads them, not
//! from the translator: each game is a hand-written [`Rules`] value (`games.rs`) interpreted by
//! the small engine below.
//!
//! What a position is: the board, the stage, whose turn it is in the stage's turn schedule, the
//! plies played in the stage, captures per side and each side's last move. Before every turn the
//! stage may end (an end condition, nobody able to act, or the move cap); the win rules then pick
//! a winner, or the next stage begins, or (after the last stage) the game is drawn. A side that
//! cannot act while the other can passes, and the pass is a move.

pub mod games;

/// Plies after which a stage where pieces move ends.
pub const MOVE_CAP: u32 = 100;

pub const RED: u8 = 1;
pub const GREEN: u8 = 2;

/// Directions as (column, row) offsets; north is +row.
pub const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Which lines a piece may follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    /// Orthogonal only.
    Orthogonal,
    /// All eight directions.
    All,
    /// Orthogonal, plus diagonals at points with an even column + row (Alquerque's board).
    EvenDiagonals,
}

impl Lines {
    fn allows(self, column: i32, row: i32, (dc, dr): (i32, i32)) -> bool {
        let diagonal = dc != 0 && dr != 0;
        match self {
            Lines::Orthogonal => !diagonal,
            Lines::All => true,
            Lines::EvenDiagonals => !diagonal || (column + row) % 2 == 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Place,
    /// Place only where an Othello-style bracket flips something.
    PlaceFlipping,
    Step,
    /// One jump over a piece of the listed kind (true = may jump own pieces, second = enemy).
    Jump {
        own: bool,
        enemy: bool,
    },
    /// Jumps over enemies, chained while another is possible.
    ChainJump,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// This side (RED or GREEN) has no action.
    Stuck(u8),
    /// One of the sides has no action.
    EitherStuck,
    BothStuck,
    /// Some side has `n` in a row along all eight directions.
    Line(usize),
    /// Each side has this many pieces.
    EachHas(usize),
    /// This side has captured at least this many.
    Captured(u8, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Win {
    Line(usize),
    MorePieces,
    Captured(u32),
    OpponentStuck,
}

#[derive(Clone, Debug)]
pub struct Stage {
    /// Turn order; with `first_moves`, that side first moves that many times, then the order
    /// continues from the side after it.
    pub order: [u8; 2],
    pub first_moves: Option<(u8, u32)>,
    /// Actions per side (index 0 = RED).
    pub actions: [Vec<Action>; 2],
    pub lines: Lines,
    pub capture_compulsory: bool,
    pub no_backward: bool,
    pub no_return: bool,
    /// Jumped enemy pieces are taken (per side).
    pub jump_takes: [bool; 2],
    pub flip_bracketed: bool,
    pub flip_orthogonal_neighbours: bool,
    pub end: Vec<Condition>,
}

impl Stage {
    fn moves_pieces(&self) -> bool {
        self.actions.iter().flatten().any(|a| !matches!(a, Action::Place | Action::PlaceFlipping))
    }
}

#[derive(Clone, Debug)]
pub struct Rules {
    pub size: usize,
    /// (side, column, row)
    pub initial: Vec<(u8, usize, usize)>,
    pub stages: Vec<Stage>,
    pub wins: [Vec<Win>; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Vec<u8>,
    pub stage: usize,
    pub turn: u32,
    pub plies: u32,
    pub captured: [u32; 2],
    /// Each side's last move as (from, to); `from` is None for a placement.
    pub last: [Option<(Option<usize>, usize)>; 2],
    /// Scores (red, green) once the game is over.
    pub result: Option<(u32, u32)>,
}

/// A move: the points it names (placed on; or from, then every landing), or a pass.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Points(Vec<usize>),
}

impl Rules {
    fn at(&self, column: i32, row: i32) -> Option<usize> {
        let size = self.size as i32;
        (column >= 0 && row >= 0 && column < size && row < size).then(|| (row * size + column) as usize)
    }

    fn neighbour(&self, point: usize, direction: (i32, i32), lines: Lines) -> Option<usize> {
        let (column, row) = ((point % self.size) as i32, (point / self.size) as i32);
        if !lines.allows(column, row, direction) {
            return None;
        }
        self.at(column + direction.0, row + direction.1)
    }

    /// The start of the game, after any stage that is over at once.
    pub fn start(&self) -> Position {
        let mut board = vec![0; self.size * self.size];
        for &(side, column, row) in &self.initial {
            board[row * self.size + column] = side;
        }
        let position =
            Position { board, stage: 0, turn: 0, plies: 0, captured: [0, 0], last: [None, None], result: None };
        self.settle(position)
    }

    /// The side whose turn it is (meaningless once the game is over).
    pub fn side_to_move(&self, position: &Position) -> u8 {
        let stage = &self.stages[position.stage];
        match stage.first_moves {
            Some((side, times)) if position.turn < times => side,
            Some((side, times)) => {
                let next = if stage.order[0] == side { 1 } else { 0 };
                stage.order[(next + (position.turn - times) as usize) % 2]
            }
            None => stage.order[(position.turn % 2) as usize],
        }
    }

    fn line(&self, board: &[u8], side: u8, length: usize) -> bool {
        (0..board.len()).any(|start| {
            board[start] == side
                && DIRECTIONS[..4].iter().any(|&direction| {
                    let mut point = start;
                    (1..length).all(|_| match self.neighbour(point, direction, Lines::All) {
                        Some(next) if board[next] == side => {
                            point = next;
                            true
                        }
                        _ => false,
                    })
                })
        })
    }

    fn pieces(board: &[u8], side: u8) -> usize {
        board.iter().filter(|&&p| p == side).count()
    }

    fn holds(&self, position: &Position, condition: Condition) -> bool {
        let stuck = |side: u8| self.moves(position, side).is_empty();
        match condition {
            Condition::Stuck(side) => stuck(side),
            Condition::EitherStuck => stuck(RED) || stuck(GREEN),
            Condition::BothStuck => stuck(RED) && stuck(GREEN),
            Condition::Line(length) => {
                self.line(&position.board, RED, length) || self.line(&position.board, GREEN, length)
            }
            Condition::EachHas(n) => {
                Self::pieces(&position.board, RED) == n && Self::pieces(&position.board, GREEN) == n
            }
            Condition::Captured(side, n) => position.captured[side as usize - 1] >= n,
        }
    }

    fn wins(&self, position: &Position, side: u8) -> bool {
        let other = 3 - side;
        self.wins[side as usize - 1].iter().any(|&win| match win {
            Win::Line(length) => self.line(&position.board, side, length),
            Win::MorePieces => Self::pieces(&position.board, side) > Self::pieces(&position.board, other),
            Win::Captured(n) => position.captured[side as usize - 1] >= n,
            Win::OpponentStuck => self.moves(position, other).is_empty(),
        })
    }

    /// Ends stages (and maybe the game) until someone has to move.
    fn settle(&self, mut position: Position) -> Position {
        loop {
            let stage = &self.stages[position.stage];
            let over = stage.end.iter().any(|&c| self.holds(&position, c))
                || (self.moves(&position, RED).is_empty() && self.moves(&position, GREEN).is_empty())
                || (stage.moves_pieces() && position.plies == MOVE_CAP);
            if !over {
                return position;
            }
            let (red, green) = (self.wins(&position, RED), self.wins(&position, GREEN));
            let last = position.stage + 1 == self.stages.len();
            position.result = match (red, green) {
                (true, true) => Some((50, 50)),
                (true, false) => Some((100, 0)),
                (false, true) => Some((0, 100)),
                (false, false) if last => Some((50, 50)),
                (false, false) => None,
            };
            if position.result.is_some() {
                return position;
            }
            position.stage += 1;
            position.turn = 0;
            position.plies = 0;
        }
    }

    fn enemy_run_closed(&self, board: &[u8], point: usize, direction: (i32, i32), side: u8) -> bool {
        let mut cursor = match self.neighbour(point, direction, Lines::All) {
            Some(next) if board[next] == 3 - side => next,
            _ => return false,
        };
        loop {
            match self.neighbour(cursor, direction, Lines::All) {
                Some(next) if board[next] == 3 - side => cursor = next,
                Some(next) => return board[next] == side,
                None => return false,
            }
        }
    }

    /// Every jump of `side`'s piece from `point` (which the piece has left) over a piece it may jump.
    fn jumps_from(
        &self,
        board: &[u8],
        point: usize,
        side: u8,
        own: bool,
        enemy: bool,
        lines: Lines,
    ) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for direction in DIRECTIONS {
            let Some(over) = self.neighbour(point, direction, lines) else { continue };
            let jumpable = (own && board[over] == side) || (enemy && board[over] == 3 - side);
            if !jumpable {
                continue;
            }
            if let Some(land) = self.neighbour(over, direction, lines) {
                if board[land] == 0 {
                    found.push((over, land));
                }
            }
        }
        found
    }

    /// The legal moves of `side` and the positions they lead to (before the stage checks).
    pub fn moves(&self, position: &Position, side: u8) -> Vec<(Move, Position)> {
        let stage = &self.stages[position.stage];
        let me = side as usize - 1;
        let lines = stage.lines;
        let board = &position.board;
        let can_capture = stage.capture_compulsory
            && stage.jump_takes[me]
            && stage.actions[me].iter().any(|a| matches!(a, Action::ChainJump | Action::Jump { enemy: true, .. }))
            && (0..board.len())
                .filter(|&p| board[p] == side)
                .any(|p| !self.jumps_from(board, p, side, false, true, lines).is_empty());
        let mut found: Vec<(Move, Position)> = Vec::new();
        let add = |points: Vec<usize>, next: Position, found: &mut Vec<(Move, Position)>| {
            let label = Move::Points(points);
            if !found.iter().any(|(m, _)| *m == label) {
                found.push((label, next));
            }
        };
        for action in &stage.actions[me] {
            match *action {
                Action::Place | Action::PlaceFlipping => {
                    if can_capture {
                        continue;
                    }
                    for point in (0..board.len()).filter(|&p| board[p] == 0) {
                        let flips = DIRECTIONS.iter().any(|&d| self.enemy_run_closed(board, point, d, side));
                        if *action == Action::PlaceFlipping && !flips {
                            continue;
                        }
                        let mut next = position.clone();
                        next.board[point] = side;
                        next.last[me] = Some((None, point));
                        add(vec![point], next, &mut found);
                    }
                }
                Action::Step => {
                    if can_capture {
                        continue;
                    }
                    for from in (0..board.len()).filter(|&p| board[p] == side) {
                        for direction in DIRECTIONS {
                            let backward = stage.no_backward && direction.1 == if side == RED { -1 } else { 1 };
                            if backward {
                                continue;
                            }
                            let Some(to) = self.neighbour(from, direction, lines) else { continue };
                            if board[to] != 0 {
                                continue;
                            }
                            if stage.no_return && position.last[me] == Some((Some(to), from)) {
                                continue;
                            }
                            let mut next = position.clone();
                            next.board[from] = 0;
                            next.board[to] = side;
                            next.last[me] = Some((Some(from), to));
                            add(vec![from, to], next, &mut found);
                        }
                    }
                }
                Action::Jump { own, enemy } => {
                    for from in (0..board.len()).filter(|&p| board[p] == side) {
                        let mut lifted = board.clone();
                        lifted[from] = 0;
                        for (over, land) in self.jumps_from(&lifted, from, side, own, enemy, lines) {
                            let takes = stage.jump_takes[me] && lifted[over] == 3 - side;
                            if can_capture && !takes {
                                continue;
                            }
                            let mut next = position.clone();
                            next.board = lifted.clone();
                            if takes {
                                next.board[over] = 0;
                                next.captured[me] += 1;
                            }
                            next.board[land] = side;
                            next.last[me] = Some((Some(from), land));
                            add(vec![from, land], next, &mut found);
                        }
                    }
                }
                Action::ChainJump => {
                    for from in (0..board.len()).filter(|&p| board[p] == side) {
                        let mut lifted = position.clone();
                        lifted.board[from] = 0;
                        let mut chains = Vec::new();
                        self.chain(&lifted, from, side, vec![from], &mut chains);
                        for (points, mut next) in chains {
                            let land = *points.last().expect("a chain lands");
                            next.board[land] = side;
                            next.last[me] = Some((Some(from), land));
                            add(points, next, &mut found);
                        }
                    }
                }
            }
        }
        found
    }

    /// Extends a capturing chain at `at` while it can; each finished chain is pushed.
    fn chain(
        &self,
        position: &Position,
        at: usize,
        side: u8,
        points: Vec<usize>,
        out: &mut Vec<(Vec<usize>, Position)>,
    ) {
        let stage = &self.stages[position.stage];
        let me = side as usize - 1;
        let jumps = self.jumps_from(&position.board, at, side, false, true, stage.lines);
        if jumps.is_empty() {
            if points.len() > 1 {
                out.push((points, position.clone()));
            }
            return;
        }
        for (over, land) in jumps {
            let mut next = position.clone();
            if stage.jump_takes[me] {
                next.board[over] = 0;
                next.captured[me] += 1;
            }
            let mut longer = points.clone();
            longer.push(land);
            self.chain(&next, land, side, longer, out);
        }
    }

    fn after_move(&self, side: u8, mut next: Position, to: Option<usize>) -> Position {
        let stage = &self.stages[next.stage];
        if let Some(to) = to {
            if stage.flip_bracketed {
                for direction in DIRECTIONS {
                    if self.enemy_run_closed(&next.board, to, direction, side) {
                        let mut cursor = self.neighbour(to, direction, Lines::All).expect("a run");
                        while next.board[cursor] == 3 - side {
                            next.board[cursor] = side;
                            cursor = self.neighbour(cursor, direction, Lines::All).expect("closed run");
                        }
                    }
                }
            }
            if stage.flip_orthogonal_neighbours {
                for direction in DIRECTIONS {
                    if let Some(point) = self.neighbour(to, direction, Lines::Orthogonal) {
                        if next.board[point] == 3 - side {
                            next.board[point] = side;
                        }
                    }
                }
            }
        }
        next.turn += 1;
        if stage.moves_pieces() {
            next.plies += 1;
        }
        self.settle(next)
    }

    /// The positions after each move of the side to move (empty once the game is over).
    pub fn children(&self, position: &Position) -> Vec<(Move, Position)> {
        if position.result.is_some() {
            return Vec::new();
        }
        let side = self.side_to_move(position);
        let moves = self.moves(position, side);
        if moves.is_empty() {
            return vec![(Move::Pass, self.after_move(side, position.clone(), None))];
        }
        moves
            .into_iter()
            .map(|(label, next)| {
                let to = match &label {
                    Move::Points(points) => points.last().copied(),
                    Move::Pass => None,
                };
                let after = self.after_move(side, next, to);
                (label, after)
            })
            .collect()
    }

    pub fn perft(&self, depth: usize) -> Vec<u64> {
        crate::tree::perft(&self.start(), depth, &|p: &Position| {
            self.children(p).into_iter().map(|(_, next)| next).collect()
        })
    }
}
