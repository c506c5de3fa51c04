//! Tic-tac-toe built with the automaton builder, checked against the published perft counts and
//! against an independent plain-Rust tic-tac-toe; also playout determinism across thread counts.

use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::automaton::Automaton;
use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::perft::{perft, perft_divide, perft_sequential, perft_with_threads};
use regula_runtime::playout::{run_playouts, PlayoutConfig};
use regula_runtime::reference::ReferenceEngine;

const LINES: [[(usize, usize); 3]; 8] = [
    [(0, 0), (0, 1), (0, 2)],
    [(1, 0), (1, 1), (1, 2)],
    [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 1), (1, 1), (2, 1)],
    [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)],
    [(0, 2), (1, 1), (2, 0)],
];

/// The automaton: a move is `$$ px $$ py`; the keeper checks for a line through reachability,
/// then for an empty cell, then hands the turn over.
fn tictactoe() -> Automaton {
    let mut b = AutomatonBuilder::new();
    b.typedef("Player", "{x, o}")
        .typedef("Score", "{0, 50, 100}")
        .typedef("Coord", "{0, 1, 2}")
        .typedef("Piece", "{e, x, o}")
        .typedef("Board", "Coord -> Coord -> Piece")
        .constant("opponent", "Player -> Player", "{x: o, o: x, :x}")
        .variable("board", "Board", "{:{:e}}")
        .variable("me", "Player", "x")
        .variable("px", "Coord", "0")
        .variable("py", "Coord", "0")
        .variable("ex", "Coord", "0")
        .variable("ey", "Coord", "0")
        .edge("begin", "turn", "")
        .edge("turn", "pick", "player = PlayerOrSystem(me)")
        .edge("pick", "pickedX", "px = Coord(*)")
        .edge("pickedX", "pickY", "$$ px")
        .edge("pickY", "pickedY", "py = Coord(*)")
        .edge("pickedY", "check", "$$ py")
        .edge("check", "place", "board[px][py] == e")
        .edge("place", "placed", "board[px][py] = Piece(me)")
        .edge("placed", "judge", "player = keeper")
        .edge("judge", "won", "? lineStart -> lineDone")
        .edge("judge", "notWon", "! lineStart -> lineDone")
        .edge("won", "wonScored", "goals[me] = 100")
        .edge("wonScored", "end", "player = keeper")
        .edge("notWon", "full", "! emptyStart -> emptyFound")
        .edge("notWon", "next", "? emptyStart -> emptyFound")
        .edge("full", "drawX", "goals[x] = 50")
        .edge("drawX", "drawO", "goals[o] = 50")
        .edge("drawO", "end", "player = keeper")
        .edge("next", "turn", "me = opponent[me]")
        .edge("emptyStart", "emptyX", "ex = Coord(*)")
        .edge("emptyX", "emptyY", "ey = Coord(*)")
        .edge("emptyY", "emptyFound", "board[ex][ey] == e");
    for (line, cells) in LINES.iter().enumerate() {
        let mut from = "lineStart".to_string();
        for (i, (r, c)) in cells.iter().enumerate() {
            let to = if i == 2 { "lineDone".to_string() } else { format!("line{line}_{i}") };
            b.edge(&from, &to, &format!("board[{r}][{c}] == me"));
            from = to;
        }
    }
    b.build().unwrap()
}

/// An independent tic-tac-toe on a plain array (0 empty, 1 x, 2 o).
#[derive(Clone, Copy)]
struct Plain {
    cells: [u8; 9],
    to_move: u8,
}

impl Plain {
    fn winner(&self) -> Option<u8> {
        LINES.iter().find_map(|line| {
            let [a, b, c] = line.map(|(r, c)| self.cells[r * 3 + c]);
            (a != 0 && a == b && b == c).then_some(a)
        })
    }

    fn terminal(&self) -> bool {
        self.winner().is_some() || self.cells.iter().all(|&c| c != 0)
    }

    /// Moves as (row, column) in row-major order.
    fn moves(&self) -> Vec<(usize, usize)> {
        (0..9).filter(|&i| self.cells[i] == 0).map(|i| (i / 3, i % 3)).collect()
    }

    fn play(&self, (r, c): (usize, usize)) -> Plain {
        let mut next = *self;
        next.cells[r * 3 + c] = self.to_move;
        next.to_move = 3 - self.to_move;
        next
    }

    fn perft(&self, depth: usize, level: usize, counts: &mut [u64]) {
        counts[level] += 1;
        if level == depth || self.terminal() {
            return;
        }
        for m in self.moves() {
            self.play(m).perft(depth, level + 1, counts);
        }
    }
}

const PUBLISHED: [u64; 10] = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];

#[test]
fn independent_implementation_gives_the_published_counts() {
    let mut counts = vec![0; 10];
    Plain { cells: [0; 9], to_move: 1 }.perft(9, 0, &mut counts);
    assert_eq!(counts, PUBLISHED);
}

#[test]
fn reference_engine_gives_the_published_perft() {
    let engine = ReferenceEngine::new(tictactoe()).unwrap();
    let started = std::time::Instant::now();
    assert_eq!(perft(&engine, 9).unwrap(), PUBLISHED);
    eprintln!("tic-tac-toe perft(9) in {:.2?}", started.elapsed());
}

#[test]
fn parallel_and_sequential_perft_agree_and_divide_sums_up() {
    let engine = ReferenceEngine::new(tictactoe()).unwrap();
    let parallel = perft(&engine, 4).unwrap();
    assert_eq!(parallel, perft_sequential(&engine, 4).unwrap());
    assert_eq!(parallel, perft_with_threads(&engine, 4, 3).unwrap());
    let divided = perft_divide(&engine, 4).unwrap();
    assert_eq!(divided.len(), 9);
    let total: u64 = divided.iter().map(|(_, counts)| counts[3]).sum();
    assert_eq!(total, parallel[4]);
    // By symmetry, the centre has 8 * 7 * 6 = 336 continuations, like every other cell.
    let centre = engine.parse_move("1 1").unwrap();
    assert_eq!(divided.iter().find(|(m, _)| *m == centre).unwrap().1, [1, 8, 56, 336]);
}

/// Walks both games in lockstep along pseudo-random lines, comparing moves, terminal flags and scores.
#[test]
fn engine_agrees_with_the_independent_game_move_by_move() {
    let engine = ReferenceEngine::new(tictactoe()).unwrap();
    let mut rng = regula_runtime::playout::Xoshiro256::from_seed(42);
    for _ in 0..300 {
        let mut state = engine.start().unwrap();
        let mut plain = Plain { cells: [0; 9], to_move: 1 };
        loop {
            assert_eq!(engine.is_terminal(&state), plain.terminal());
            if plain.terminal() {
                let scores: Vec<i64> = engine.scores(&state).iter().map(|s| s.value).collect();
                let expected = match plain.winner() {
                    Some(1) => [100, 0],
                    Some(_) => [0, 100],
                    None => [50, 50],
                };
                assert_eq!(scores, expected);
                break;
            }
            assert_eq!(engine.to_move(&state), Mover::Player(plain.to_move as usize - 1));
            let names = engine.format_moves(&engine.moves(&state).unwrap());
            let expected: Vec<String> = plain.moves().iter().map(|(r, c)| format!("{r} {c}")).collect();
            assert_eq!(names, expected);
            let pick = plain.moves()[rng.below(expected.len() as u64) as usize];
            state = engine.apply(&state, &engine.parse_move(&format!("{} {}", pick.0, pick.1)).unwrap()).unwrap();
            plain = plain.play(pick);
        }
    }
}

#[test]
fn playouts_are_identical_for_any_thread_count() {
    let engine = ReferenceEngine::new(tictactoe()).unwrap();
    let config = |threads| PlayoutConfig { count: 400, seed: 2024, threads, ..Default::default() };
    let one = run_playouts(&engine, &config(1)).unwrap();
    let three = run_playouts(&engine, &config(3)).unwrap();
    assert_eq!(one.score_distribution, three.score_distribution);
    assert_eq!((one.total_plies, one.mean_legal_moves), (three.total_plies, three.mean_legal_moves));
    assert_eq!(one.score_distribution.iter().map(|e| e.count).sum::<u64>(), 400);
    // Every game lasts 5 to 9 plies, and decisions offer between 1 and 9 moves.
    assert!((5.0..=9.0).contains(&one.mean_plies), "{}", one.mean_plies);
    assert!((1.0..=9.0).contains(&one.mean_legal_moves));
    // A different seed gives a different sample (with overwhelming probability).
    let other = run_playouts(&engine, &PlayoutConfig { seed: 7, ..config(2) }).unwrap();
    assert_ne!(one.total_plies, other.total_plies);
}

impl Plain {
    /// Exact probabilities of (x wins, o wins, draw) when both sides play uniformly at random.
    fn outcome_probabilities(&self) -> [f64; 3] {
        match self.winner() {
            Some(1) => return [1.0, 0.0, 0.0],
            Some(_) => return [0.0, 1.0, 0.0],
            None if self.terminal() => return [0.0, 0.0, 1.0],
            None => {}
        }
        let moves = self.moves();
        let mut total = [0.0; 3];
        for m in &moves {
            let sub = self.play(*m).outcome_probabilities();
            for (t, s) in total.iter_mut().zip(sub) {
                *t += s / moves.len() as f64;
            }
        }
        total
    }
}

#[test]
fn playout_outcomes_match_the_exact_random_play_probabilities() {
    let exact = Plain { cells: [0; 9], to_move: 1 }.outcome_probabilities();
    // The well-known figures for random tic-tac-toe: x wins 58.5%, o 28.8%, draws 12.7%.
    assert!((exact[0] - 0.585).abs() < 0.001 && (exact[1] - 0.288).abs() < 0.001, "{exact:?}");
    let engine = ReferenceEngine::new(tictactoe()).unwrap();
    let count = 4000;
    let report = run_playouts(&engine, &PlayoutConfig { count, seed: 11, threads: 2, ..Default::default() }).unwrap();
    let frequency = |values: [i64; 2]| {
        let hits = report.score_distribution.iter().find(|e| e.scores.iter().map(|s| s.value).eq(values));
        hits.map_or(0, |e| e.count) as f64 / count as f64
    };
    let observed = [frequency([100, 0]), frequency([0, 100]), frequency([50, 50])];
    for (p, f) in exact.iter().zip(observed) {
        // Four standard deviations of a binomial proportion.
        let tolerance = 4.0 * (p * (1.0 - p) / count as f64).sqrt();
        assert!((p - f).abs() < tolerance, "exact {exact:?}, observed {observed:?}");
    }
}
