//! Keeper moves applied in place (the fast engine's walk of forced keeper paths, without a move
//! list or successor copy) against the general move search on every corpus game: along seeded
//! random walks, every state's settled successors are the same with the walk on and off, and the
//! playout reports (scores and move totals, or the same error) are equal; on the automaton as
//! compiled and as optimised for the fast engine. The same comparison for linear move searches
//! (one loop over a choice's members, successors built in the move list, immediate picks in
//! playouts) and for move trees (nested choices over straight steps) against the general search.

use regula_runtime::engine::ForwardModel;
use regula_runtime::fast::FastEngine;
use regula_runtime::playout::{PlayoutConfig, Xoshiro256};

use crate::corpus;

/// Playouts per game and automaton in the report comparison.
const PLAYOUTS: u64 = 10;
/// Random walks per game and automaton compared state by state, and their length bound.
const WALKS: u64 = 3;
const WALK_PLIES: usize = 200;

/// Compares the successors of every state along `WALKS` random walks; the number of states compared.
fn compare_walks(on: &FastEngine, off: &FastEngine, label: &str) -> usize {
    let mut compared = 0;
    for walk in 0..WALKS {
        let mut rng = Xoshiro256::for_playout(5, walk);
        let (start_on, start_off) = (on.start(), off.start());
        assert_eq!(start_on, start_off, "{label}: start states");
        let Ok(mut state) = start_on else { return compared };
        for _ in 0..WALK_PLIES {
            let (with, without) = (on.successors(&state), off.successors(&state));
            assert_eq!(with, without, "{label}: successors of {state:?}");
            compared += 1;
            let Ok(successors) = with else { break };
            if successors.is_empty() {
                break;
            }
            let pick = rng.below(successors.len() as u64) as usize;
            state = successors[pick].1.clone();
        }
    }
    compared
}

#[test]
fn keeper_moves_in_place_agree_with_the_general_search_on_the_corpus() {
    let (mut forced_nodes, mut states) = (0, 0);
    let games = corpus::for_each_automaton(|label, automaton| {
        let on = FastEngine::new(automaton.clone()).expect("fast engine");
        let off = FastEngine::new(automaton).expect("fast engine").with_keeper_in_place(false);
        forced_nodes += on.forced_node_count();
        states += compare_walks(&on, &off, label);
        let config = PlayoutConfig { count: PLAYOUTS, seed: 11, threads: 1, ..Default::default() };
        corpus::assert_same_reports(&on.run_playouts(&config), &off.run_playouts(&config), label);
    });
    eprintln!("{games} sources, {forced_nodes} forced nodes over both automata, {states} states compared");
    assert!(games >= 20, "only {games} corpus games loaded");
    // Tic-tac-toe's and connect four's keepers (judge, then pass the turn) are forced, at least.
    assert!(forced_nodes >= 8, "only {forced_nodes} nodes are forced");
    assert!(states >= 1000, "only {states} states compared");
}

#[test]
fn linear_move_searches_agree_with_the_general_search_on_the_corpus() {
    let (mut counts, mut states) = ((0, 0, 0), 0);
    let games = corpus::for_each_automaton(|label, automaton| {
        let on = FastEngine::new(automaton.clone()).expect("fast engine");
        let off = FastEngine::new(automaton).expect("fast engine").with_linear_moves(false);
        let (linear, detached, immediate) = on.linear_move_counts();
        counts = (counts.0 + linear, counts.1 + detached, counts.2 + immediate);
        assert_eq!(off.linear_move_counts(), (0, 0, 0), "{label}: linear searches turned off");
        states += compare_walks(&on, &off, label);
        let config = PlayoutConfig { count: PLAYOUTS, seed: 11, threads: 1, ..Default::default() };
        corpus::assert_same_reports(&on.run_playouts(&config), &off.run_playouts(&config), label);
    });
    eprintln!("{games} sources, (linear, detached, immediate) searches {counts:?}, {states} states compared");
    assert!(games >= 20, "only {games} corpus games loaded");
    // Tic-tac-toe's marks and connect four's drops (immediate: value sets prove `board[cell]`
    // inside the domain), as compiled and optimised, at least.
    assert!(counts.1 >= 4 && counts.2 >= 4, "too few linear searches: {counts:?}");
    assert!(states >= 1000, "only {states} states compared");
}

#[test]
fn move_trees_agree_with_the_general_search_on_the_corpus() {
    let (mut counts, mut states) = ((0, 0), 0);
    let games = corpus::for_each_automaton(|label, automaton| {
        let on = FastEngine::new(automaton.clone()).expect("fast engine");
        let off = FastEngine::new(automaton).expect("fast engine").with_move_trees(false);
        let (trees, grouped) = on.move_tree_counts();
        counts = (counts.0 + trees, counts.1 + grouped);
        assert_eq!(off.move_tree_counts(), (0, 0), "{label}: move trees turned off");
        states += compare_walks(&on, &off, label);
        let config = PlayoutConfig { count: PLAYOUTS, seed: 11, threads: 1, ..Default::default() };
        corpus::assert_same_reports(&on.run_playouts(&config), &off.run_playouts(&config), label);
    });
    eprintln!("{games} sources, (trees, grouped) {counts:?}, {states} states compared");
    assert!(games >= 20, "only {games} corpus games loaded");
    // Breakthrough's two move searches (pick a pawn, then a course), optimised at least.
    assert!(counts.0 >= 2 && counts.1 >= 2, "too few move trees: {counts:?}");
    assert!(states >= 1000, "only {states} states compared");
}
