//! Chess built with the automaton builder, checked against the published perft counts of the
//! initial position. Castling, en passant and promotion are left out: none of them can happen in
//! the first four plies, which is as deep as these counts go. Mate is not detected either (a mated
//! side at depth 4 is a leaf). This is also the benchmark for "chess perft(4) in seconds".

use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::automaton::Automaton;
use regula_runtime::engine::ForwardModel;
use regula_runtime::perft::perft;
use regula_runtime::reference::ReferenceEngine;

const FILES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

fn square(file: i32, rank: i32) -> Option<String> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| format!("{}{}", FILES[file as usize], rank + 1))
}

/// `{a1: b2, ..., :null}`: every square shifted by (df, dr), off-board squares left to the default.
fn shift(df: i32, dr: i32) -> String {
    let mut entries = Vec::new();
    for rank in 0..8 {
        for file in 0..8 {
            if let (Some(from), Some(to)) = (square(file, rank), square(file + df, rank + dr)) {
                entries.push(format!("{from}: {to}"));
            }
        }
    }
    format!("{{{}, :null}}", entries.join(", "))
}

fn chess() -> Automaton {
    let squares: Vec<String> = (0..8).flat_map(|r| (0..8).map(move |f| square(f, r).unwrap())).collect();
    let directions = [("up", 0, 1), ("down", 0, -1), ("left", -1, 0), ("right", 1, 0)];
    let diagonals = [("ul", -1, 1), ("ur", 1, 1), ("dl", -1, -1), ("dr", 1, -1)];
    let steps: Vec<String> =
        directions.iter().chain(&diagonals).map(|(name, df, dr)| format!("{name}: {}", shift(*df, *dr))).collect();
    let jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let knight_steps: Vec<String> =
        jumps.iter().enumerate().map(|(i, (df, dr))| format!("k{i}: {}", shift(*df, *dr))).collect();
    let back_rank = ["R", "N", "B", "Q", "K", "B", "N", "R"];
    let mut initial = Vec::new();
    for (file, piece) in back_rank.iter().enumerate() {
        let f = file as i32;
        initial.push(format!("{}: w{piece}", square(f, 0).unwrap()));
        initial.push(format!("{}: wP", square(f, 1).unwrap()));
        initial.push(format!("{}: bP", square(f, 6).unwrap()));
        initial.push(format!("{}: b{piece}", square(f, 7).unwrap()));
    }
    let rank_of = |rank: i32| {
        let entries: Vec<String> = (0..8).map(|f| format!("{}: 1", square(f, rank).unwrap())).collect();
        format!("{{{}, :0}}", entries.join(", "))
    };

    let mut b = AutomatonBuilder::new();
    b.typedef("Player", "{white, black}")
        .typedef("Score", "{0, 50, 100}")
        .typedef("Pos", &format!("{{{}}}", squares.join(", ")))
        .typedef("PosOrNull", &format!("{{{}, null}}", squares.join(", ")))
        .typedef("Piece", "{e, wP, wN, wB, wR, wQ, wK, bP, bN, bB, bR, bQ, bK}")
        .typedef("Color", "{white, black, none}")
        .typedef("Kind", "{pawn, knight, bishop, rook, queen, king, none}")
        .typedef("Dir", "{up, down, left, right, ul, ur, dl, dr}")
        .typedef("KnightDir", "{k0, k1, k2, k3, k4, k5, k6, k7}")
        .constant("opponent", "Player -> Player", "{white: black, :white}")
        .constant(
            "colorOf",
            "Piece -> Color",
            "{wP: white, wN: white, wB: white, wR: white, wQ: white, wK: white, \
             bP: black, bN: black, bB: black, bR: black, bQ: black, bK: black, :none}",
        )
        .constant(
            "kindOf",
            "Piece -> Kind",
            "{wP: pawn, bP: pawn, wN: knight, bN: knight, wB: bishop, bB: bishop, wR: rook, bR: rook, \
             wQ: queen, bQ: queen, wK: king, bK: king, :none}",
        )
        .constant("step", "Dir -> PosOrNull -> PosOrNull", &format!("{{{}, :{{:null}}}}", steps.join(", ")))
        .constant(
            "knightStep",
            "KnightDir -> PosOrNull -> PosOrNull",
            &format!("{{{}, :{{:null}}}}", knight_steps.join(", ")),
        )
        .constant("isSlider", "Kind -> Bool", "{bishop: 1, rook: 1, queen: 1, :0}")
        .constant(
            "slides",
            "Kind -> Dir -> Bool",
            "{bishop: {ul: 1, ur: 1, dl: 1, dr: 1, :0}, rook: {up: 1, down: 1, left: 1, right: 1, :0}, \
             queen: {:1}, :{:0}}",
        )
        .constant("forward", "Player -> Dir", "{white: up, :down}")
        .constant("pawnCaptures", "Player -> Dir -> Bool", "{white: {ul: 1, ur: 1, :0}, :{dl: 1, dr: 1, :0}}")
        .constant("startRank", "Player -> Pos -> Bool", &format!("{{white: {}, :{}}}", rank_of(1), rank_of(6)))
        .constant("pawnOf", "Player -> Piece", "{white: wP, :bP}")
        .constant("knightOf", "Player -> Piece", "{white: wN, :bN}")
        .constant("kingOf", "Player -> Piece", "{white: wK, :bK}")
        .variable("board", "Pos -> Piece", &format!("{{{}, :e}}", initial.join(", ")))
        .variable("me", "Player", "white")
        .variable("kingPos", "Player -> Pos", "{white: e1, :e8}")
        .variable("from", "Pos", "a1")
        .variable("to", "PosOrNull", "null")
        .variable("cur", "PosOrNull", "null")
        .variable("nxt", "PosOrNull", "null")
        .variable("dir", "Dir", "up")
        .variable("jump", "KnightDir", "k0")
        .variable("moved", "Piece", "e");
    // A move: `$$ from $$ to`, generated per kind of piece.
    b.edge("begin", "turn", "")
        .edge("turn", "pick", "player = me")
        .edge("pick", "picked", "from = Pos(*)")
        .edge("picked", "mine", "colorOf[board[from]] == me")
        .edge("mine", "gen", "$$ from");
    b.edge("gen", "kn1", "kindOf[board[from]] == knight")
        .edge("kn1", "kn2", "jump = KnightDir(*)")
        .edge("kn2", "kn3", "to = knightStep[jump][from]")
        .edge("kn3", "kn4", "to != null")
        .edge("kn4", "land", "colorOf[board[to]] != me");
    b.edge("gen", "kg1", "kindOf[board[from]] == king")
        .edge("kg1", "kg2", "dir = Dir(*)")
        .edge("kg2", "kg3", "to = step[dir][from]")
        .edge("kg3", "kg4", "to != null")
        .edge("kg4", "land", "colorOf[board[to]] != me");
    b.edge("gen", "sl1", "isSlider[kindOf[board[from]]] == 1")
        .edge("sl1", "sl2", "dir = Dir(*)")
        .edge("sl2", "sl3", "slides[kindOf[board[from]]][dir] == 1")
        .edge("sl3", "sl4", "cur = from")
        .edge("sl4", "sl5", "to = step[dir][cur]")
        .edge("sl5", "sl6", "to != null")
        .edge("sl6", "land", "board[to] == e")
        .edge("sl6", "sl7", "board[to] == e")
        .edge("sl7", "sl4", "cur = to")
        .edge("sl6", "land", "colorOf[board[to]] == opponent[me]");
    b.edge("gen", "pw1", "kindOf[board[from]] == pawn")
        .edge("pw1", "pw2", "to = step[forward[me]][from]")
        .edge("pw2", "pw3", "to != null")
        .edge("pw3", "pw4", "board[to] == e")
        .edge("pw4", "land", "")
        .edge("pw4", "pw5", "startRank[me][from] == 1")
        .edge("pw5", "pw6", "to = step[forward[me]][to]")
        .edge("pw6", "land", "board[to] == e")
        .edge("pw1", "pc1", "dir = Dir(*)")
        .edge("pc1", "pc2", "pawnCaptures[me][dir] == 1")
        .edge("pc2", "pc3", "to = step[dir][from]")
        .edge("pc3", "land", "colorOf[board[to]] == opponent[me]");
    // Make the move, then reject it if it leaves the mover's king attacked.
    b.edge("land", "l1", "$$ to")
        .edge("l1", "l2", "moved = board[from]")
        .edge("l2", "l3", "board[to] = moved")
        .edge("l3", "l4", "board[from] = e")
        .edge("l4", "l5", "kindOf[moved] == king")
        .edge("l5", "check", "kingPos[me] = to")
        .edge("l4", "check", "kindOf[moved] != king")
        .edge("check", "safe", "! attackStart -> attacked")
        .edge("safe", "next", "player = keeper")
        .edge("next", "turn", "me = opponent[me]");
    // Is the king of `me` attacked? Sliders along each direction, then adjacent kings and pawns,
    // then knights.
    b.edge("attackStart", "at1", "dir = Dir(*)")
        .edge("at1", "at2", "cur = kingPos[me]")
        .edge("at2", "at3", "nxt = step[dir][cur]")
        .edge("at3", "at4", "nxt != null")
        .edge("at4", "at5", "board[nxt] == e")
        .edge("at5", "at2", "cur = nxt")
        .edge("at4", "at6", "colorOf[board[nxt]] == opponent[me]")
        .edge("at6", "attacked", "slides[kindOf[board[nxt]]][dir] == 1")
        .edge("at1", "ak1", "nxt = step[dir][kingPos[me]]")
        .edge("ak1", "attacked", "board[nxt] == kingOf[opponent[me]]")
        .edge("ak1", "ap1", "board[nxt] == pawnOf[opponent[me]]")
        .edge("ap1", "attacked", "pawnCaptures[me][dir] == 1")
        .edge("attackStart", "kj1", "jump = KnightDir(*)")
        .edge("kj1", "kj2", "nxt = knightStep[jump][kingPos[me]]")
        .edge("kj2", "attacked", "board[nxt] == knightOf[opponent[me]]");
    b.build().unwrap()
}

const PUBLISHED: [u64; 5] = [1, 20, 400, 8902, 197281];

#[test]
fn chess_move_names_and_a_check() {
    let engine = ReferenceEngine::new(chess()).unwrap();
    let start = engine.start().unwrap();
    let names = engine.format_moves(&engine.moves(&start).unwrap());
    assert_eq!(names.len(), 20);
    assert!(names.contains(&"e2 e4".to_string()) && names.contains(&"g1 f3".to_string()), "{names:?}");
    // 1. e4 f6 2. Qh5+: black may only block with g6 (g7 g6).
    let history = regula_runtime::engine::parse_history(engine.automaton(), "/e2 e4/f7 f6/d1 h5/").unwrap();
    let checked = engine.play(&history).unwrap();
    assert_eq!(engine.format_moves(&engine.moves(&checked).unwrap()), ["g7 g6"]);
}

/// The published counts to depth 4 (197,281 leaves): about one second of CPU time even in the
/// test profile.
#[test]
fn chess_perft_matches_the_published_counts() {
    let engine = ReferenceEngine::new(chess()).unwrap();
    let started = std::time::Instant::now();
    assert_eq!(perft(&engine, 4).unwrap(), PUBLISHED);
    eprintln!("chess perft(4) in {:.2?}", started.elapsed());
}
