//! Reversi's bit-parallel flank listing (`CompiledGame::pick_counted` of its two turns, spec/codegen.md
//! "Bit-parallel flank listings") against its plain listing (`generate`), on fixed boards and
//! along random games.

use regula_compiled::games::reversi_hrg::Game;
use regula_runtime::compiled::{self, CompiledGame, CompiledState, Search};
use regula_runtime::playout::Xoshiro256;

type State = CompiledState<<Game as CompiledGame>::Values>;

/// The bit-parallel count at `state` equals the plain listing's, and each pick's delta word gives
/// the listing's successor for that move. Returns the count (`None`: the start declined).
fn check_against_listing(state: &State, search: &mut Search<<Game as CompiledGame>::Values>) -> Option<usize> {
    compiled::generate::<Game>(state, search).unwrap();
    let (count, none) = Game::pick_counted(state.node, &state.values, |_| None)?;
    assert_eq!((count, none), (search.moves.len(), None));
    for k in 0..count {
        let (again, delta) = Game::pick_counted(state.node, &state.values, |c| (c == count).then_some(k)).unwrap();
        assert_eq!(again, count);
        let mut successor = *state;
        Game::apply_delta(delta.expect("a picked move"), &mut successor);
        assert!(successor == *search.moves.successor(k), "move {k} of {count}");
    }
    Some(count)
}

fn tag_name(search: &Search<<Game as CompiledGame>::Values>, k: usize) -> &'static str {
    let tags = search.moves.tags(k);
    assert_eq!(tags.len(), 1);
    Game::NAMES.symbols[tags[0] as usize]
}

/// The board slot of `P(column, row)`: the board's offsets put `null` first, then the cells
/// column by column.
fn cell_slot(column: usize, row: usize) -> usize {
    1 + 8 * column + row
}

fn symbol(name: &str) -> u8 {
    Game::NAMES.symbols.iter().position(|&s| s == name).expect("a symbol") as u8
}

#[test]
fn the_opening_lists_the_four_flanking_cells_in_member_order() {
    let mut search = compiled::search_context::<Game>();
    let state = compiled::start::<Game>(&mut search).unwrap();
    assert_eq!(check_against_listing(&state, &mut search), Some(4));
    // Black's d3, c4, f5 and e6, as P(column, row) in member order (column-major).
    let names: Vec<&str> = (0..4).map(|k| tag_name(&search, k)).collect();
    assert_eq!(names, ["P__2_3", "P__3_2", "P__4_5", "P__5_4"]);
}

#[test]
fn a_fixed_board_counts_long_runs_and_stops_at_the_edges() {
    let mut search = compiled::search_context::<Game>();
    let start = compiled::start::<Game>(&mut search).unwrap();
    let (black, white, empty) = (symbol("black"), symbol("white"), symbol("empty"));
    let mut state = start;
    for slot in 1..=64 {
        state.values[slot] = empty;
    }
    // Column 0: black at row 0, white on rows 1..=6, row 7 empty: row 7 flanks six (the longest
    // run). Column 7: white on rows 0..=6, black nowhere: no flank, and none across the wrap
    // into column 6's top either (black at P(6, 7)).
    state.values[cell_slot(0, 0)] = black;
    for row in 1..=6 {
        state.values[cell_slot(0, row)] = white;
        state.values[cell_slot(7, row - 1)] = white;
    }
    state.values[cell_slot(6, 7)] = black;
    assert_eq!(check_against_listing(&state, &mut search), Some(1));
    assert_eq!(tag_name(&search, 0), "P__0_7");
    // P(0, 0) emptied, the diagonal from P(1, 1) to P(6, 6) white, closed by black at P(7, 7):
    // P(0, 0) flanks the diagonal (and no longer closes column 0), and P(6, 5) flanks P(6, 6)
    // against P(6, 7).
    state.values[cell_slot(0, 0)] = empty;
    for i in 1..=6 {
        state.values[cell_slot(i, i)] = white;
    }
    state.values[cell_slot(7, 7)] = black;
    assert_eq!(check_against_listing(&state, &mut search), Some(2));
    assert_eq!([tag_name(&search, 0), tag_name(&search, 1)], ["P__0_0", "P__6_5"]);
}

#[test]
fn a_disc_on_the_null_square_sends_the_ply_to_the_plain_listing() {
    let mut search = compiled::search_context::<Game>();
    let start = compiled::start::<Game>(&mut search).unwrap();
    for name in ["black", "white", "empty"] {
        let mut state = start;
        state.values[0] = symbol(name);
        assert_eq!(Game::pick_counted(state.node, &state.values, |_| None), None, "{name}");
    }
    let mut state = start;
    state.values[0] = symbol("offboard");
    assert_eq!(Game::pick_counted(state.node, &state.values, |_| None), Some((4, None)));
}

#[test]
fn random_games_count_every_turn_as_the_listing_does() {
    let mut search = compiled::search_context::<Game>();
    let mut counted = 0;
    for playout in 0..200 {
        let mut rng = Xoshiro256::for_playout(35, playout);
        let mut state = compiled::start::<Game>(&mut search).unwrap();
        while state.node != Game::END {
            if check_against_listing(&state, &mut search).is_some() {
                counted += 1;
            } else {
                compiled::generate::<Game>(&state, &mut search).unwrap();
            }
            let pick = rng.below(search.moves.len() as u64) as usize;
            let next = *search.moves.successor(pick);
            state = compiled::settle::<Game>(next, &mut search).unwrap();
        }
    }
    // Every placement turn (all but the passes) is counted: about 60 a game.
    assert!(counted > 200 * 50, "{counted}");
}
