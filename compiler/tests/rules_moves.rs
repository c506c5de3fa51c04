//! Accepted and refused moves of the `games/rules-*` rule sets, compiled and run on the reference
//! engine, against positions worked out by hand from the rules (spec/rules.md §3).

use regula_compiler::rules;
use regula_runtime::engine::{parse_history, ForwardModel, Mover};
use regula_runtime::reference::{ReferenceEngine, ReferenceState};

fn engine(source: &str) -> ReferenceEngine {
    let loaded = rules::compile(source).unwrap_or_else(|d| panic!("{d:#?}"));
    ReferenceEngine::new(loaded.automaton).unwrap()
}

fn after(engine: &ReferenceEngine, history: &str) -> ReferenceState {
    engine.play(&parse_history(engine.automaton(), history).unwrap()).unwrap()
}

fn moves(engine: &ReferenceEngine, history: &str) -> Vec<String> {
    let mut moves = engine.format_moves(&engine.moves(&after(engine, history)).unwrap());
    moves.sort();
    moves
}

/// The keeper's tagged answers (accept / deny / immovable) along a history.
fn answers(engine: &ReferenceEngine, history: &str) -> Vec<String> {
    let (trace, _) = engine.trace(&parse_history(engine.automaton(), history).unwrap()).unwrap();
    trace
        .iter()
        .filter(|s| s.mover == Mover::Keeper && !s.tags.is_empty())
        .map(|s| engine.format_move(&s.tags))
        .collect()
}

fn score(engine: &ReferenceEngine, history: &str) -> i64 {
    let state = after(engine, history);
    assert!(engine.is_terminal(&state), "{history} does not end the game");
    engine.scores(&state)[0].value
}

const ARITHMETIC: &str = include_str!("../../games/rules-arithmetic-example/arithmetic-example.rules");
const COLOR_ROWS: &str = include_str!("../../games/rules-color-rows/color-rows.rules");
const SHAPE_SORT: &str = include_str!("../../games/rules-shape-sort/shape-sort.rules");
const NEAREST: &str = include_str!("../../games/rules-nearest-farthest/nearest-farthest.rules");
const STALEMATE: &str = include_str!("../../games/rules-stalemate/stalemate.rules");
const METERED: &str = include_str!("../../games/rules-metered-order/metered-order.rules");
const RANDOM: &str = include_str!("../../games/rules-random-board/random-board.rules");

#[test]
fn arithmetic_example_follows_p_minus_one_and_nearby() {
    let engine = engine(ARITHMETIC);
    // First move: any of the 5 pieces into any bucket.
    assert_eq!(moves(&engine, "").len(), 20);
    // Cell 1 into 3: line 1's single use is spent; line 2 wants a piece whose nearest bucket is 3
    // (none is left), so line 1 is active again, with p-1 = 2 for every piece.
    assert_eq!(moves(&engine, "/c1 b3/"), ["c16 b2", "c31 b2", "c36 b2", "c6 b2"]);
    // Cell 6 into 2: line 2 accepts cell 16 (nearest bucket 2) into 2, and nothing else.
    assert_eq!(moves(&engine, "/c6 b2/"), ["c16 b2"]);
    assert!(engine.apply(&after(&engine, "/c6 b2/"), &engine.parse_move("c1 b2").unwrap()).is_err());
}

#[test]
fn color_rows_alternate_and_take_the_top_row_first() {
    let engine = engine(COLOR_ROWS);
    assert_eq!(moves(&engine, ""), ["c31 b0", "c33 b1"]);
    // Line 2 has no black or yellow piece in the top row, so control comes back to line 1.
    assert_eq!(moves(&engine, "/c31 b0/"), ["c33 b1"]);
    // Row 6 is empty: line 2 takes row 4's black and yellow pieces.
    assert_eq!(moves(&engine, "/c31 b0/c33 b1/"), ["c20 b2", "c22 b3"]);
}

#[test]
fn shape_sort_answers_every_attempt() {
    let engine = engine(SHAPE_SORT);
    assert_eq!(moves(&engine, "").len(), 12);
    assert_eq!(answers(&engine, "/c7 b1/c7 b0/c30 b0/"), ["deny", "accept", "deny"]);
    // One refusal, then a clean sort: 100 / (1 + e^-1) = 73.
    assert_eq!(score(&engine, "/c7 b1/c7 b0/c12 b1/c30 b2/"), 73);
    assert_eq!(score(&engine, "/c7 b0/c12 b1/c30 b2/"), 88);
    // Three refusals end the game with 0.
    assert_eq!(score(&engine, "/c7 b1/c7 b2/c7 b3/"), 0);
}

#[test]
fn nearest_farthest_tells_deny_from_immovable() {
    let engine = engine(NEAREST);
    // Corners 1 and 36 are the nearest occupied tier; cells 15 and 22 cannot move at all.
    assert_eq!(answers(&engine, "/c15 b0/"), ["immovable"]);
    assert_eq!(answers(&engine, "/c1 b0/"), ["deny"]);
    assert_eq!(answers(&engine, "/c1 b3/"), ["accept"]);
    // Then line 2 (once): among the farthest occupied cells (15 and 22 tie), into the remotest
    // bucket (1 for cell 15); then line 1 again, where only 36 (a corner) may move.
    assert_eq!(answers(&engine, "/c1 b3/c15 b3/c15 b1/c22 b1/"), ["accept", "deny", "accept", "immovable"]);
    assert_eq!(score(&engine, "/c15 b0/c22 b1/"), 0);
}

#[test]
fn stalemate_ends_the_game_with_pieces_left() {
    let engine = engine(STALEMATE);
    assert_eq!(moves(&engine, "/c1 b0/"), ["c8 b0", "c8 b1"]);
    // The reds are gone: line 2 (once) takes the blue square into p = 1.
    assert_eq!(moves(&engine, "/c1 b0/c8 b1/"), ["c15 b1"]);
    assert_eq!(score(&engine, "/c1 b0/c8 b1/c15 b1/"), 0);
}

#[test]
fn metered_order_counts_lines_and_atoms() {
    let engine = engine(METERED);
    // Reds in the corner tier, into their remotest bucket (pc undefined): cell 1 -> 1, cell 6 -> 0.
    assert_eq!(moves(&engine, ""), ["c1 b1", "c6 b0"]);
    // pc = 1 now: the red star at 6 goes to 2; the star atom wants ps, still undefined.
    assert_eq!(moves(&engine, "/c1 b1/"), ["c6 b2"]);
    // Line 1 is spent after two moves: line 2 takes the bottom row first (cell 15 is row 3),
    // into the remotest bucket of cell 15 (nearest 3, remotest 1).
    assert_eq!(moves(&engine, "/c1 b1/c6 b2/"), ["c15 b1"]);
}

#[test]
fn random_board_is_drawn_by_the_random_player() {
    let engine = engine(RANDOM);
    let start = engine.start().unwrap();
    assert_eq!(engine.to_move(&start), Mover::Random);
    let outcomes = engine.chance_outcomes(&start).unwrap();
    assert_eq!(outcomes.len(), 16);
    assert!(outcomes.iter().all(|(_, p)| (p - 1.0 / 16.0).abs() < 1e-12));
    assert_eq!(engine.chance_outcomes(&after(&engine, "/c1 circle red/")).unwrap().len(), 12);
    // A blue square on 2 and a red square on 7: the blue one is in the leftmost occupied column
    // only after 7 (column 1) is empty; the red one goes to its nearest bucket, 3.
    assert_eq!(moves(&engine, "/c2 square blue/c7 square red/"), ["c7 b3"]);
    assert_eq!(moves(&engine, "/c2 square blue/c7 square red/c7 b3/"), ["c2 b1", "c2 b2"]);
}
