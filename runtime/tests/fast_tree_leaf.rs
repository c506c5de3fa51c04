//! Breakthrough's move search runs as a move tree whose inner choice (`course = Course(*)`) is a
//! leaf choice, walked member by member in one loop (module `fast::tree`, *Leaf choices*): its
//! seeded playouts and perft counts must be those of the general search. (The trees need the
//! optimisation passes: the game as compiled has none.)

use regula_runtime::fast::FastEngine;
use regula_runtime::playout::PlayoutConfig;
use std::path::Path;

fn automaton() -> regula_runtime::automaton::Automaton {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("runtime lives one level below the root");
    let text = std::fs::read_to_string(root.join("games/breakthrough/breakthrough.hrg")).expect("readable game");
    let loaded = regula_compiler::load("breakthrough.hrg", &text).expect("the game compiles");
    let passes = regula_compiler::optimize::PassSet::all();
    let (optimised, _) = regula_compiler::optimize::optimize(&loaded.rg, &passes);
    regula_compiler::rg::compile_game(optimised).expect("the optimised game compiles").automaton
}

#[test]
fn breakthrough_playouts_through_leaf_choices_agree_with_the_general_search() {
    let automaton = automaton();
    let tree = FastEngine::new(automaton.clone()).expect("an engine");
    let general = FastEngine::new(automaton).expect("an engine").with_move_trees(false);
    // One tree per player's turn (each with `from`, then the leaf `course`).
    assert_eq!(tree.move_tree_counts(), (2, 2));
    assert_eq!(general.move_tree_counts(), (0, 0));
    let config = PlayoutConfig { count: 30, seed: 17, threads: 1, ..Default::default() };
    let (with, without) =
        (tree.run_playouts(&config).expect("playouts"), general.run_playouts(&config).expect("playouts"));
    assert_eq!(with.score_distribution, without.score_distribution);
    assert_eq!(with.total_plies, without.total_plies);
    assert!(with.total_plies >= 30 * 10, "a breakthrough game takes at least ten plies");
    // Perft lists moves with successors (the walk that does not record paths).
    assert_eq!(tree.perft(3).expect("perft"), general.perft(3).expect("perft"));
}
