//! Connect four built with the automaton builder — loops, map defaults standing in for off-board
//! cells, and reachability for the win test — checked against an independent plain-Rust
//! connect four and the published perft counts.

use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::automaton::Automaton;
use regula_runtime::engine::ForwardModel;
use regula_runtime::perft::perft;
use regula_runtime::playout::Xoshiro256;
use regula_runtime::reference::ReferenceEngine;

const COLUMNS: usize = 7;
const ROWS: usize = 6;

fn shift_map(names: &[String], offset: isize) -> String {
    let entries: Vec<String> = (0..names.len())
        .map(|i| {
            let target = i as isize + offset;
            let value =
                if (0..names.len() as isize).contains(&target) { names[target as usize].as_str() } else { "null" };
            format!("{}: {value}", names[i])
        })
        .collect();
    format!("{{{}, :null}}", entries.join(", "))
}

/// Pieces drop to the lowest empty row; after each move the keeper looks for four in a row
/// through the new piece (walk back along a direction while the cells are the mover's, then
/// require four forward), then for a free column.
fn connect4() -> Automaton {
    let columns: Vec<String> = (0..COLUMNS).map(|c| format!("c{c}")).collect();
    let rows: Vec<String> = (0..ROWS).map(|r| format!("r{r}")).collect();
    let (next_col, prev_col) = (shift_map(&columns, 1), shift_map(&columns, -1));
    let (up, down) = (shift_map(&rows, 1), shift_map(&rows, -1));
    let same_col = shift_map(&columns, 0);
    let same_row = shift_map(&rows, 0);
    let mut b = AutomatonBuilder::new();
    b.typedef("Player", "{x, o}")
        .typedef("Score", "{0, 50, 100}")
        .typedef("Col", &format!("{{{}}}", columns.join(", ")))
        .typedef("Row", &format!("{{{}}}", rows.join(", ")))
        .typedef("ColOrNull", &format!("{{{}, null}}", columns.join(", ")))
        .typedef("RowOrNull", &format!("{{{}, null}}", rows.join(", ")))
        .typedef("Piece", "{e, x, o}")
        .typedef("Dir", "{h, v, d1, d2}")
        .constant("opponent", "Player -> Player", "{x: o, o: x, :x}")
        .constant("up", "RowOrNull -> RowOrNull", &up)
        .constant("forwardCol", "Dir -> ColOrNull -> ColOrNull", &format!("{{v: {same_col}, :{next_col}}}"))
        .constant("backCol", "Dir -> ColOrNull -> ColOrNull", &format!("{{v: {same_col}, :{prev_col}}}"))
        .constant(
            "forwardRow",
            "Dir -> RowOrNull -> RowOrNull",
            &format!("{{h: {same_row}, d2: {down}, :{up}}}", up = up.clone()),
        )
        .constant("backRow", "Dir -> RowOrNull -> RowOrNull", &format!("{{h: {same_row}, d2: {up}, :{down}}}"))
        .variable("board", "Col -> Row -> Piece", "{:{:e}}")
        .variable("me", "Player", "x")
        .variable("col", "Col", "c0")
        .variable("row", "RowOrNull", "r0")
        .variable("dir", "Dir", "h")
        .variable("cc", "ColOrNull", "c0")
        .variable("cr", "RowOrNull", "r0")
        .variable("free", "Col", "c0");
    b.edge("begin", "turn", "")
        .edge("turn", "pick", "player = me")
        .edge("pick", "picked", "col = Col(*)")
        .edge("picked", "open", "$$ col")
        .edge("open", "fall", &format!("board[col][{}] == e", rows[ROWS - 1]))
        .edge("fall", "find", "row = r0")
        .edge("find", "place", "board[col][row] == e")
        .edge("find", "higher", "board[col][row] != e")
        .edge("higher", "find", "row = up[row]")
        .edge("place", "placed", "board[col][row] = me")
        .edge("placed", "judge", "player = keeper")
        .edge("judge", "won", "? winStart -> winFound")
        .edge("judge", "notWon", "! winStart -> winFound")
        .edge("won", "scored", "goals[me] = 100")
        .edge("scored", "end", "player = keeper")
        .edge("notWon", "next", "? freeStart -> freeFound")
        .edge("notWon", "full", "! freeStart -> freeFound")
        .edge("full", "drawX", "goals[x] = 50")
        .edge("drawX", "drawO", "goals[o] = 50")
        .edge("drawO", "end", "player = keeper")
        .edge("next", "turn", "me = opponent[me]")
        .edge("freeStart", "freeChosen", "free = Col(*)")
        .edge("freeChosen", "freeFound", &format!("board[free][{}] == e", rows[ROWS - 1]))
        .edge("winStart", "w1", "dir = Dir(*)")
        .edge("w1", "w2", "cc = col")
        .edge("w2", "back", "cr = row")
        .edge("back", "count0", "")
        .edge("back", "b1", "board[backCol[dir][cc]][backRow[dir][cr]] == me")
        .edge("b1", "b2", "cc = backCol[dir][cc]")
        .edge("b2", "back", "cr = backRow[dir][cr]");
    for i in 0..4 {
        let (here, checked) = (format!("count{i}"), format!("checked{i}"));
        b.edge(&here, &checked, "board[cc][cr] == me");
        if i == 3 {
            b.edge(&checked, "winFound", "");
        } else {
            let stepped = format!("stepped{i}");
            b.edge(&checked, &stepped, "cc = forwardCol[dir][cc]");
            b.edge(&stepped, &format!("count{}", i + 1), "cr = forwardRow[dir][cr]");
        }
    }
    b.build().unwrap()
}

/// An independent connect four: `cells[c][r]`, 0 empty, 1 x, 2 o.
#[derive(Clone, Copy)]
struct Plain {
    cells: [[u8; ROWS]; COLUMNS],
    to_move: u8,
    winner: Option<u8>,
}

impl Plain {
    fn new() -> Plain {
        Plain { cells: [[0; ROWS]; COLUMNS], to_move: 1, winner: None }
    }

    fn moves(&self) -> Vec<usize> {
        if self.terminal() {
            return Vec::new();
        }
        (0..COLUMNS).filter(|&c| self.cells[c][ROWS - 1] == 0).collect()
    }

    fn terminal(&self) -> bool {
        self.winner.is_some() || (0..COLUMNS).all(|c| self.cells[c][ROWS - 1] != 0)
    }

    fn play(&self, column: usize) -> Plain {
        let mut next = *self;
        let row = (0..ROWS).find(|&r| self.cells[column][r] == 0).expect("column not full");
        next.cells[column][row] = self.to_move;
        let owner = |c: isize, r: isize| {
            (0..COLUMNS as isize).contains(&c)
                && (0..ROWS as isize).contains(&r)
                && next.cells[c as usize][r as usize] == self.to_move
        };
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let run = |sign: isize| {
                (1..4).take_while(|k| owner(column as isize + sign * k * dc, row as isize + sign * k * dr)).count()
            };
            if 1 + run(1) + run(-1) >= 4 {
                next.winner = Some(self.to_move);
            }
        }
        next.to_move = 3 - self.to_move;
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
fn perft_matches_the_published_and_independent_counts() {
    let engine = ReferenceEngine::new(connect4()).unwrap();
    let mut independent = vec![0; 7];
    Plain::new().perft(6, 0, &mut independent);
    // 7^d until a column can fill up or a game can end (both first possible at depth 7).
    assert_eq!(independent, [1, 7, 49, 343, 2401, 16807, 117649]);
    let started = std::time::Instant::now();
    assert_eq!(perft(&engine, 6).unwrap(), independent);
    eprintln!("connect four perft(6) in {:.2?}", started.elapsed());
}

/// Long random games, compared move by move (wins, draws, full columns).
#[test]
fn engine_agrees_with_the_independent_game_move_by_move() {
    let engine = ReferenceEngine::new(connect4()).unwrap();
    let mut rng = Xoshiro256::from_seed(4);
    let (mut wins, mut draws) = (0, 0);
    for _ in 0..60 {
        let mut state = engine.start().unwrap();
        let mut plain = Plain::new();
        loop {
            assert_eq!(engine.is_terminal(&state), plain.terminal());
            if plain.terminal() {
                let scores: Vec<i64> = engine.scores(&state).iter().map(|s| s.value).collect();
                let expected = match plain.winner {
                    Some(1) => [100, 0],
                    Some(_) => [0, 100],
                    None => [50, 50],
                };
                assert_eq!(scores, expected);
                if plain.winner.is_some() {
                    wins += 1;
                } else {
                    draws += 1;
                }
                break;
            }
            let names = engine.format_moves(&engine.moves(&state).unwrap());
            let expected: Vec<String> = plain.moves().iter().map(|c| format!("c{c}")).collect();
            assert_eq!(names, expected);
            let column = plain.moves()[rng.below(expected.len() as u64) as usize];
            state = engine.apply(&state, &engine.parse_move(&format!("c{column}")).unwrap()).unwrap();
            plain = plain.play(column);
        }
    }
    assert!(wins > 0, "random games should include wins");
    let _ = draws;
}

/// A vertical win for x: the fourth piece in column 0 ends the game at depth 7.
#[test]
fn a_vertical_four_ends_the_game() {
    let engine = ReferenceEngine::new(connect4()).unwrap();
    let history = regula_runtime::engine::parse_history(engine.automaton(), "/c0/c1/c0/c1/c0/c1/c0/").unwrap();
    let last = engine.play(&history).unwrap();
    assert!(engine.is_terminal(&last));
    assert_eq!(engine.scores(&last).iter().map(|s| s.value).collect::<Vec<_>>(), [100, 0]);
    let description = engine.describe_state(&last);
    assert!(description.starts_with("node: end\n"), "{description}");
    assert!(
        description
            .contains("\nboard = {c0: {r0: x, r1: x, r2: x, r3: x, :e}, c1: {r0: o, r1: o, r2: o, :e}, :{:e}}\n"),
        "{description}"
    );
    assert!(description.contains("\ngoals = {x: 100, :0}\n"), "{description}");
    // One move earlier the game is still on.
    let before = engine.play(&history[..6]).unwrap();
    assert!(!engine.is_terminal(&before));
}
