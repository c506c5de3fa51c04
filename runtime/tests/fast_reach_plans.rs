//! Reachability plans (the fast engine's lean evaluator for simple `? a -> b` checks) against the
//! general sub-search on every corpus game: random playouts with [`ReachPlans::Checked`], where
//! every check that has a plan runs both and a disagreement (result or error) is an error, on the
//! automaton as compiled and as optimised for the fast engine; and the same playout reports with
//! plans on and off.

use regula_runtime::fast::{FastEngine, ReachPlans};
use regula_runtime::playout::PlayoutConfig;
use std::path::Path;

/// Playouts per game and automaton (each check runs twice, in debug builds).
const PLAYOUTS: u64 = 10;
const SOURCE_EXTENSIONS: [&str; 5] = ["rg", "hrg", "blocks", "rules", "cards"];

#[test]
fn plans_agree_with_the_general_search_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("runtime lives one level below the root");
    let mut folders: Vec<_> =
        std::fs::read_dir(root.join("games")).expect("games/").flatten().map(|e| e.path()).collect();
    folders.sort();
    let (mut games, mut planned_pairs) = (0, 0);
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
            for (label, automaton) in [("as compiled", loaded.automaton), ("optimised", optimised)] {
                let checked =
                    FastEngine::new(automaton.clone()).expect("fast engine").with_reach_plans(ReachPlans::Checked);
                let general = FastEngine::new(automaton).expect("fast engine").with_reach_plans(ReachPlans::Off);
                planned_pairs += checked.reach_plan_count().0;
                let config = PlayoutConfig { count: PLAYOUTS, seed: 11, threads: 1, ..Default::default() };
                let with_plans = checked.run_playouts(&config);
                let without = general.run_playouts(&config);
                match (&with_plans, &without) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.score_distribution, b.score_distribution, "{} {label}", path.display());
                        assert_eq!(a.total_plies, b.total_plies, "{} {label}", path.display());
                    }
                    (Err(a), Err(b)) => assert_eq!(a, b, "{} {label}", path.display()),
                    _ => panic!("{} {label}: with plans {with_plans:?}, without {without:?}", path.display()),
                }
            }
        }
    }
    eprintln!("{games} sources, {planned_pairs} planned pairs over both automata");
    assert!(games >= 20, "only {games} corpus games loaded");
    // Reversi's, chess's, connect four's and tic-tac-toe's checks have plans, at least.
    assert!(planned_pairs >= 8, "only {planned_pairs} reachability pairs have plans");
}
