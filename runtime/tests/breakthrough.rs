//! Breakthrough (8x8) built with the automaton builder: a 64-cell board with constant step tables,
//! checked against an independent plain-Rust breakthrough and its perft counts; it also measures
//! the reference engine on a board of chess's size.

use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::automaton::Automaton;
use regula_runtime::engine::ForwardModel;
use regula_runtime::perft::perft;
use regula_runtime::playout::Xoshiro256;
use regula_runtime::reference::ReferenceEngine;

/// Cells are `p<row*8+col>`; white starts on rows 0-1 and moves towards row 7.
fn breakthrough() -> Automaton {
    let cells: Vec<String> = (0..64).map(|i| format!("p{i}")).collect();
    let step = |forward: i32, dc: i32| {
        let entries: Vec<String> = (0..64)
            .filter_map(|i: i32| {
                let (row, col) = (i / 8 + forward, i % 8 + dc);
                ((0..8).contains(&row) && (0..8).contains(&col)).then(|| format!("p{i}: p{}", row * 8 + col))
            })
            .collect();
        format!("{{{}, :null}}", entries.join(", "))
    };
    let steps = |forward| {
        format!(
            "{{left: {}, straight: {}, right: {}, :{{:null}}}}",
            step(forward, -1),
            step(forward, 0),
            step(forward, 1)
        )
    };
    let home = |row: usize| {
        let entries: Vec<String> = (0..8).map(|c| format!("p{}: 1", row * 8 + c)).collect();
        format!("{{{}, :0}}", entries.join(", "))
    };
    let initial: Vec<String> = (0..16).map(|i| format!("p{i}: white, p{}: black", 63 - i)).collect();
    let mut b = AutomatonBuilder::new();
    b.typedef("Player", "{white, black}")
        .typedef("Score", "{0, 100}")
        .typedef("Pos", &format!("{{{}}}", cells.join(", ")))
        .typedef("PosOrNull", &format!("{{{}, null}}", cells.join(", ")))
        .typedef("Piece", "{e, white, black}")
        .typedef("Dir", "{left, straight, right}")
        .constant("opponent", "Player -> Player", "{white: black, :white}")
        .constant(
            "step",
            "Player -> Dir -> PosOrNull -> PosOrNull",
            &format!("{{white: {}, :{}}}", steps(1), steps(-1)),
        )
        .constant("goalRow", "Player -> Pos -> Bool", &format!("{{white: {}, :{}}}", home(7), home(0)))
        .variable("board", "Pos -> Piece", &format!("{{{}, :e}}", initial.join(", ")))
        .variable("me", "Player", "white")
        .variable("from", "Pos", "p0")
        .variable("to", "PosOrNull", "null")
        .variable("dir", "Dir", "straight")
        .variable("probe", "Pos", "p0");
    b.edge("begin", "turn", "")
        .edge("turn", "pick", "player = me")
        .edge("pick", "picked", "from = Pos(*)")
        .edge("picked", "own", "board[from] == me")
        .edge("own", "aim", "$$ from")
        .edge("aim", "aimed", "dir = Dir(*)")
        .edge("aimed", "target", "to = step[me][dir][from]")
        .edge("target", "onBoard", "to != null")
        .edge("onBoard", "straight", "dir == straight")
        .edge("straight", "go", "board[to] == e")
        .edge("onBoard", "diagonal", "dir != straight")
        .edge("diagonal", "go", "board[to] != me")
        .edge("go", "tagged", "$$ to")
        .edge("tagged", "landed", "board[to] = me")
        .edge("landed", "left", "board[from] = e")
        .edge("left", "judge", "player = keeper")
        .edge("judge", "won", "goalRow[me][to] == 1")
        .edge("judge", "notHome", "goalRow[me][to] == 0")
        .edge("notHome", "won", "! enemyStart -> enemyFound")
        .edge("notHome", "next", "? enemyStart -> enemyFound")
        .edge("won", "scored", "goals[me] = 100")
        .edge("scored", "end", "player = keeper")
        .edge("next", "turn", "me = opponent[me]")
        .edge("enemyStart", "probed", "probe = Pos(*)")
        .edge("probed", "enemyFound", "board[probe] == opponent[me]");
    b.build().unwrap()
}

/// An independent breakthrough: 0 empty, 1 white, 2 black; `cells[row * 8 + col]`.
#[derive(Clone, Copy)]
struct Plain {
    cells: [u8; 64],
    to_move: u8,
    over: bool,
}

impl Plain {
    fn new() -> Plain {
        let mut cells = [0; 64];
        for i in 0..16 {
            cells[i] = 1;
            cells[63 - i] = 2;
        }
        Plain { cells, to_move: 1, over: false }
    }

    /// Moves as (from, to) in the engine's search order: by origin cell, then left, straight, right.
    fn moves(&self) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        if self.over {
            return moves;
        }
        let forward = if self.to_move == 1 { 1 } else { -1 };
        for from in (0..64).filter(|&i| self.cells[i] == self.to_move) {
            let row = from as i32 / 8 + forward;
            for dc in [-1, 0, 1] {
                let col = from as i32 % 8 + dc;
                if !(0..8).contains(&row) || !(0..8).contains(&col) {
                    continue;
                }
                let to = (row * 8 + col) as usize;
                let free = if dc == 0 { self.cells[to] == 0 } else { self.cells[to] != self.to_move };
                if free {
                    moves.push((from, to));
                }
            }
        }
        moves
    }

    fn play(&self, (from, to): (usize, usize)) -> Plain {
        let mut next = *self;
        next.cells[to] = self.to_move;
        next.cells[from] = 0;
        let goal_row = if self.to_move == 1 { 7 } else { 0 };
        let enemy = 3 - self.to_move;
        next.over = to / 8 == goal_row || !next.cells.contains(&enemy);
        next.to_move = enemy;
        next
    }

    fn perft(&self, depth: usize, level: usize, counts: &mut [u64]) {
        counts[level] += 1;
        if level < depth {
            for m in self.moves() {
                self.play(m).perft(depth, level + 1, counts);
            }
        }
    }
}

#[test]
fn independent_implementation_gives_the_oracle_counts() {
    let mut counts = vec![0; 5];
    Plain::new().perft(4, 0, &mut counts);
    // The same figures as the corpus oracle (games/breakthrough/perft.toml on hrg-games-a).
    assert_eq!(counts, [1, 22, 484, 11132, 256036]);
}

/// Depth 4 (256,036 leaves) is the corpus's default-run figure for breakthrough.
#[test]
fn reference_engine_perft_matches() {
    let engine = ReferenceEngine::new(breakthrough()).unwrap();
    let started = std::time::Instant::now();
    assert_eq!(perft(&engine, 4).unwrap(), [1, 22, 484, 11132, 256036]);
    eprintln!("breakthrough perft(4) in {:.2?}", started.elapsed());
}

#[test]
fn engine_agrees_with_the_independent_game_move_by_move() {
    let engine = ReferenceEngine::new(breakthrough()).unwrap();
    let mut rng = Xoshiro256::from_seed(8);
    for _ in 0..12 {
        let mut state = engine.start().unwrap();
        let mut plain = Plain::new();
        loop {
            assert_eq!(engine.is_terminal(&state), plain.over);
            if plain.over {
                // The player who just moved (no longer to move) won.
                let winner = 3 - plain.to_move;
                let expected = if winner == 1 { [100, 0] } else { [0, 100] };
                let scores: Vec<i64> = engine.scores(&state).iter().map(|s| s.value).collect();
                assert_eq!(scores, expected);
                break;
            }
            let names = engine.format_moves(&engine.moves(&state).unwrap());
            let expected: Vec<String> = plain.moves().iter().map(|(f, t)| format!("p{f} p{t}")).collect();
            assert_eq!(names, expected);
            let pick = plain.moves()[rng.below(expected.len() as u64) as usize];
            state = engine.apply(&state, &engine.parse_move(&format!("p{} p{}", pick.0, pick.1)).unwrap()).unwrap();
            plain = plain.play(pick);
        }
    }
}
