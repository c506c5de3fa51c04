//! The corpus driver shared by the fast engine's on/off comparison tests: every source under
//! `games/`, as compiled and as optimised for the fast engine, and the playout-report comparison.

use regula_runtime::automaton::Automaton;
use regula_runtime::engine::EngineError;
use regula_runtime::playout::PlayoutReport;
use std::path::Path;

const SOURCE_EXTENSIONS: [&str; 5] = ["rg", "hrg", "blocks", "rules", "cards"];

/// Calls `visit(label, automaton)` for every corpus source twice (as compiled, then optimised for
/// the fast engine), in a fixed order; returns the number of sources loaded. A source that does not
/// compile is skipped with a note (the corpus tests elsewhere fail on it).
pub fn for_each_automaton(mut visit: impl FnMut(&str, Automaton)) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("runtime lives one level below the root");
    let mut folders: Vec<_> =
        std::fs::read_dir(root.join("games")).expect("games/").flatten().map(|e| e.path()).collect();
    folders.sort();
    let mut games = 0;
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
            visit(&format!("{} as compiled", path.display()), loaded.automaton);
            visit(&format!("{} optimised", path.display()), optimised);
        }
    }
    games
}

/// Asserts that two playout runs agree: the same scores, plies and chance moves, or the same error.
pub fn assert_same_reports(
    a: &Result<PlayoutReport, EngineError>,
    b: &Result<PlayoutReport, EngineError>,
    label: &str,
) {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.score_distribution, b.score_distribution, "{label}");
            assert_eq!(a.total_plies, b.total_plies, "{label}");
            assert_eq!(a.total_chance_moves, b.total_chance_moves, "{label}");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{label}"),
        (a, b) => panic!("{label}: {a:?} against {b:?}"),
    }
}
