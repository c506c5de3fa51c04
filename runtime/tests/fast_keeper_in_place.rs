//! Keeper moves applied in place (the fast engine's walk of forced keeper paths, without a move
//! list or successor copy) against the general move search on every corpus game: along seeded
//! random walks, every state's settled successors are the same with the walk on and off, and the
//! playout reports (scores and move totals, or the same error) are equal; on the automaton as
//! compiled and as optimised for the fast engine.

use regula_runtime::engine::ForwardModel;
use regula_runtime::fast::FastEngine;
use regula_runtime::playout::{PlayoutConfig, Xoshiro256};
use std::path::Path;

/// Playouts per game and automaton in the report comparison.
const PLAYOUTS: u64 = 10;
/// Random walks per game and automaton compared state by state, and their length bound.
const WALKS: u64 = 3;
const WALK_PLIES: usize = 200;
const SOURCE_EXTENSIONS: [&str; 5] = ["rg", "hrg", "blocks", "rules", "cards"];

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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("runtime lives one level below the root");
    let mut folders: Vec<_> =
        std::fs::read_dir(root.join("games")).expect("games/").flatten().map(|e| e.path()).collect();
    folders.sort();
    let (mut games, mut forced_nodes, mut states) = (0, 0, 0);
    for folder in folders.iter().filter(|f| f.is_dir()) {
        let mut files: Vec<_> = std::fs::read_dir(folder).expect("a game folder").flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !SOURCE_EXTENSIONS.contains(&extension) {
                continue;
            }
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("game");
            let text = std::fs::read_to_string(&path).expect("readable source");
            let Ok(loaded) = regula_compiler::load(name, &text) else {
                eprintln!("skipped {} (does not compile)", path.display());
                continue;
            };
            let passes = regula_compiler::optimize::PassSet::for_fast_engine();
            let (optimised, _) = regula_compiler::optimize::optimize(&loaded.rg, &passes);
            let optimised =
                regula_compiler::rg::compile_game(optimised).expect("the optimised game compiles").automaton;
            games += 1;
            for (kind, automaton) in [("as compiled", loaded.automaton), ("optimised", optimised)] {
                let label = format!("{} {kind}", path.display());
                let on = FastEngine::new(automaton.clone()).expect("fast engine");
                let off = FastEngine::new(automaton).expect("fast engine").with_keeper_in_place(false);
                forced_nodes += on.forced_node_count();
                states += compare_walks(&on, &off, &label);
                let config = PlayoutConfig { count: PLAYOUTS, seed: 11, threads: 1, ..Default::default() };
                match (&on.run_playouts(&config), &off.run_playouts(&config)) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.score_distribution, b.score_distribution, "{label}");
                        assert_eq!(a.total_plies, b.total_plies, "{label}");
                        assert_eq!(a.total_chance_moves, b.total_chance_moves, "{label}");
                    }
                    (Err(a), Err(b)) => assert_eq!(a, b, "{label}"),
                    (a, b) => panic!("{label}: in place {a:?}, general search {b:?}"),
                }
            }
        }
    }
    eprintln!("{games} sources, {forced_nodes} forced nodes over both automata, {states} states compared");
    assert!(games >= 20, "only {games} corpus games loaded");
    // Tic-tac-toe's and connect four's keepers (judge, then pass the turn) are forced, at least.
    assert!(forced_nodes >= 8, "only {forced_nodes} nodes are forced");
    assert!(states >= 1000, "only {states} states compared");
}
