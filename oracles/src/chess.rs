//! Independent chess move generator (mailbox, copy-make) used to cross-check the chess corpus game.
//!
//! Rules: full FIDE movement including castling (king and rook unmoved, squares between empty,
//! the king not in check and not passing through or landing on an attacked square), en passant,
//! promotion to queen, rook, bishop or knight, and the legality filter "own king not attacked
//! after the move". A position is terminal when the side to move has no legal move (checkmate or
//! stalemate) or when the halfmove clock reaches 100 (fifty-move rule). Threefold repetition is
//! not modelled (it cannot occur within the depths anyone perfts).

/// Piece codes: positive for white, negative for black.
const PAWN: i8 = 1;
const KNIGHT: i8 = 2;
const BISHOP: i8 = 3;
const ROOK: i8 = 4;
const QUEEN: i8 = 5;
const KING: i8 = 6;

const CASTLE_WHITE_KINGSIDE: u8 = 1;
const CASTLE_WHITE_QUEENSIDE: u8 = 2;
const CASTLE_BLACK_KINGSIDE: u8 = 4;
const CASTLE_BLACK_QUEENSIDE: u8 = 8;

const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// A chess position. Square index = rank * 8 + file, rank 0 is white's back rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub board: [i8; 64],
    pub white_to_move: bool,
    /// Bit set of the `CASTLE_*` rights still available.
    pub castling: u8,
    /// The square a pawn skipped over on the previous double step, if any.
    pub en_passant: Option<u8>,
    /// Halfmoves since the last capture or pawn move.
    pub halfmove_clock: u32,
}

/// A move: origin, destination, and the promotion piece (absolute value) when promoting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub promotion: i8,
}

fn square(file: i8, rank: i8) -> Option<u8> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as u8)
    } else {
        None
    }
}

fn file_rank(sq: u8) -> (i8, i8) {
    ((sq % 8) as i8, (sq / 8) as i8)
}

impl Position {
    /// The standard initial position.
    pub fn initial() -> Position {
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("the initial FEN is well formed")
    }

    /// Parses the first four or six fields of a FEN string.
    pub fn from_fen(fen: &str) -> Result<Position, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(format!("FEN needs at least 4 fields: {fen}"));
        }
        let mut board = [0i8; 64];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("FEN board needs 8 ranks: {fen}"));
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 7 - row as i8;
            let mut file = 0i8;
            for c in text.chars() {
                if let Some(skip) = c.to_digit(10) {
                    file += skip as i8;
                    continue;
                }
                let kind = match c.to_ascii_lowercase() {
                    'p' => PAWN,
                    'n' => KNIGHT,
                    'b' => BISHOP,
                    'r' => ROOK,
                    'q' => QUEEN,
                    'k' => KING,
                    _ => return Err(format!("bad FEN piece `{c}`")),
                };
                let sq = square(file, rank).ok_or_else(|| format!("FEN rank too long: {text}"))?;
                board[sq as usize] = if c.is_ascii_uppercase() { kind } else { -kind };
                file += 1;
            }
        }
        let white_to_move = fields[1] == "w";
        let mut castling = 0;
        for c in fields[2].chars() {
            castling |= match c {
                'K' => CASTLE_WHITE_KINGSIDE,
                'Q' => CASTLE_WHITE_QUEENSIDE,
                'k' => CASTLE_BLACK_KINGSIDE,
                'q' => CASTLE_BLACK_QUEENSIDE,
                _ => 0,
            };
        }
        let en_passant = if fields[3] == "-" {
            None
        } else {
            let bytes = fields[3].as_bytes();
            square(bytes[0] as i8 - b'a' as i8, bytes[1] as i8 - b'1' as i8)
        };
        let halfmove_clock = fields.get(4).and_then(|f| f.parse().ok()).unwrap_or(0);
        Ok(Position { board, white_to_move, castling, en_passant, halfmove_clock })
    }

    fn side_sign(&self) -> i8 {
        if self.white_to_move {
            1
        } else {
            -1
        }
    }

    /// Whether `sq` is attacked by the side whose pieces have sign `by`.
    pub fn attacked(&self, sq: u8, by: i8) -> bool {
        let (f, r) = file_rank(sq);
        // A pawn of side `by` attacks diagonally forward, so look one rank behind (from its view).
        for df in [-1, 1] {
            if let Some(s) = square(f + df, r - by) {
                if self.board[s as usize] == by * PAWN {
                    return true;
                }
            }
        }
        for (df, dr) in KNIGHT_STEPS {
            if let Some(s) = square(f + df, r + dr) {
                if self.board[s as usize] == by * KNIGHT {
                    return true;
                }
            }
        }
        for (df, dr) in KING_STEPS {
            if let Some(s) = square(f + df, r + dr) {
                if self.board[s as usize] == by * KING {
                    return true;
                }
            }
        }
        for (dirs, slider) in [(ROOK_DIRS, ROOK), (BISHOP_DIRS, BISHOP)] {
            for (df, dr) in dirs {
                let (mut cf, mut cr) = (f + df, r + dr);
                while let Some(s) = square(cf, cr) {
                    let piece = self.board[s as usize];
                    if piece != 0 {
                        if piece == by * slider || piece == by * QUEEN {
                            return true;
                        }
                        break;
                    }
                    cf += df;
                    cr += dr;
                }
            }
        }
        false
    }

    fn king_square(&self, sign: i8) -> Option<u8> {
        self.board.iter().position(|&p| p == sign * KING).map(|s| s as u8)
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let me = self.side_sign();
        self.king_square(me).is_some_and(|k| self.attacked(k, -me))
    }

    fn pseudo_legal(&self) -> Vec<Move> {
        let me = self.side_sign();
        let mut moves = Vec::with_capacity(48);
        for from in 0..64u8 {
            let piece = self.board[from as usize];
            if piece * me <= 0 {
                continue;
            }
            let (f, r) = file_rank(from);
            let kind = piece.abs();
            let push_target = |to: u8, moves: &mut Vec<Move>| {
                let target = self.board[to as usize];
                if target * me <= 0 {
                    moves.push(Move { from, to, promotion: 0 });
                }
            };
            match kind {
                PAWN => {
                    let last_rank = if me > 0 { 7 } else { 0 };
                    let start_rank = if me > 0 { 1 } else { 6 };
                    let add_pawn = |to: u8, moves: &mut Vec<Move>| {
                        if file_rank(to).1 == last_rank {
                            for promotion in [QUEEN, ROOK, BISHOP, KNIGHT] {
                                moves.push(Move { from, to, promotion });
                            }
                        } else {
                            moves.push(Move { from, to, promotion: 0 });
                        }
                    };
                    if let Some(one) = square(f, r + me) {
                        if self.board[one as usize] == 0 {
                            add_pawn(one, &mut moves);
                            if r == start_rank {
                                if let Some(two) = square(f, r + 2 * me) {
                                    if self.board[two as usize] == 0 {
                                        moves.push(Move { from, to: two, promotion: 0 });
                                    }
                                }
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(to) = square(f + df, r + me) {
                            if self.board[to as usize] * me < 0 || self.en_passant == Some(to) {
                                add_pawn(to, &mut moves);
                            }
                        }
                    }
                }
                KNIGHT | KING => {
                    let steps = if kind == KNIGHT { KNIGHT_STEPS } else { KING_STEPS };
                    for (df, dr) in steps {
                        if let Some(to) = square(f + df, r + dr) {
                            push_target(to, &mut moves);
                        }
                    }
                }
                _ => {
                    let dirs: &[(i8, i8)] = match kind {
                        BISHOP => &BISHOP_DIRS,
                        ROOK => &ROOK_DIRS,
                        _ => &[(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)],
                    };
                    for &(df, dr) in dirs {
                        let (mut cf, mut cr) = (f + df, r + dr);
                        while let Some(to) = square(cf, cr) {
                            let target = self.board[to as usize];
                            if target * me > 0 {
                                break;
                            }
                            moves.push(Move { from, to, promotion: 0 });
                            if target != 0 {
                                break;
                            }
                            cf += df;
                            cr += dr;
                        }
                    }
                }
            }
        }
        self.castling_moves(&mut moves);
        moves
    }

    fn castling_moves(&self, moves: &mut Vec<Move>) {
        let me = self.side_sign();
        let (rank, kingside, queenside) = if me > 0 {
            (0, CASTLE_WHITE_KINGSIDE, CASTLE_WHITE_QUEENSIDE)
        } else {
            (7, CASTLE_BLACK_KINGSIDE, CASTLE_BLACK_QUEENSIDE)
        };
        let at = |file: i8| square(file, rank).expect("back-rank square");
        let king_from = at(4);
        if self.board[king_from as usize] != me * KING || self.attacked(king_from, -me) {
            return;
        }
        if self.castling & kingside != 0
            && self.board[at(7) as usize] == me * ROOK
            && self.board[at(5) as usize] == 0
            && self.board[at(6) as usize] == 0
            && !self.attacked(at(5), -me)
            && !self.attacked(at(6), -me)
        {
            moves.push(Move { from: king_from, to: at(6), promotion: 0 });
        }
        if self.castling & queenside != 0
            && self.board[at(0) as usize] == me * ROOK
            && self.board[at(1) as usize] == 0
            && self.board[at(2) as usize] == 0
            && self.board[at(3) as usize] == 0
            && !self.attacked(at(3), -me)
            && !self.attacked(at(2), -me)
        {
            moves.push(Move { from: king_from, to: at(2), promotion: 0 });
        }
    }

    /// The position after `mv` (which must come from this position's pseudo-legal list).
    pub fn apply(&self, mv: Move) -> Position {
        let me = self.side_sign();
        let mut next = self.clone();
        let piece = self.board[mv.from as usize];
        let captured = self.board[mv.to as usize];
        next.board[mv.from as usize] = 0;
        next.board[mv.to as usize] = if mv.promotion != 0 { me * mv.promotion } else { piece };
        next.en_passant = None;
        let (from_file, from_rank) = file_rank(mv.from);
        let (to_file, to_rank) = file_rank(mv.to);
        if piece.abs() == PAWN {
            if self.en_passant == Some(mv.to) && captured == 0 {
                let victim = square(to_file, from_rank).expect("en-passant victim square");
                next.board[victim as usize] = 0;
            }
            if (to_rank - from_rank).abs() == 2 {
                next.en_passant = square(from_file, (from_rank + to_rank) / 2);
            }
        }
        if piece.abs() == KING && (to_file - from_file).abs() == 2 {
            let (rook_from, rook_to) = if to_file == 6 { (7, 5) } else { (0, 3) };
            let rook_from = square(rook_from, from_rank).expect("rook square");
            let rook_to = square(rook_to, from_rank).expect("rook square");
            next.board[rook_to as usize] = next.board[rook_from as usize];
            next.board[rook_from as usize] = 0;
        }
        // Any move from or to a corner or king square removes the matching rights.
        for (sq, right) in [
            (4u8, CASTLE_WHITE_KINGSIDE | CASTLE_WHITE_QUEENSIDE),
            (7, CASTLE_WHITE_KINGSIDE),
            (0, CASTLE_WHITE_QUEENSIDE),
            (60, CASTLE_BLACK_KINGSIDE | CASTLE_BLACK_QUEENSIDE),
            (63, CASTLE_BLACK_KINGSIDE),
            (56, CASTLE_BLACK_QUEENSIDE),
        ] {
            if mv.from == sq || mv.to == sq {
                next.castling &= !right;
            }
        }
        next.halfmove_clock = if piece.abs() == PAWN || captured != 0 { 0 } else { self.halfmove_clock + 1 };
        next.white_to_move = !self.white_to_move;
        next
    }

    /// Legal moves of the side to move (empty when the game is over by the fifty-move rule).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.halfmove_clock >= 100 {
            return Vec::new();
        }
        let me = self.side_sign();
        self.pseudo_legal()
            .into_iter()
            .filter(|&mv| {
                let next = self.apply(mv);
                next.king_square(me).is_some_and(|k| !next.attacked(k, -me))
            })
            .collect()
    }
}

/// perft counts at depths 0..=depth from `position`.
pub fn perft_from(position: &Position, depth: usize) -> Vec<u64> {
    crate::tree::perft(position, depth, &|p: &Position| p.legal_moves().into_iter().map(|mv| p.apply(mv)).collect())
}

/// perft counts at depths 0..=depth from the initial position.
pub fn perft(depth: usize) -> Vec<u64> {
    perft_from(&Position::initial(), depth)
}
