//! Reachability plans (the fast engine's lean evaluator for simple `? a -> b` checks) against the
//! general sub-search on every corpus game: random playouts with [`ReachPlans::Checked`], where
//! every check that has a plan runs both and a disagreement (result or error) is an error, on the
//! automaton as compiled and as optimised for the fast engine; and the same playout reports with
//! plans on and off.

use regula_runtime::fast::{FastEngine, ReachPlans};
use regula_runtime::playout::PlayoutConfig;

use crate::corpus;

/// Playouts per game and automaton (each check runs twice, in debug builds).
const PLAYOUTS: u64 = 10;

#[test]
fn plans_agree_with_the_general_search_on_the_corpus() {
    let mut planned_pairs = 0;
    let games = corpus::for_each_automaton(|label, automaton| {
        let checked = FastEngine::new(automaton.clone()).expect("fast engine").with_reach_plans(ReachPlans::Checked);
        let general = FastEngine::new(automaton).expect("fast engine").with_reach_plans(ReachPlans::Off);
        planned_pairs += checked.reach_plan_count().0;
        let config = PlayoutConfig { count: PLAYOUTS, seed: 11, threads: 1, ..Default::default() };
        corpus::assert_same_reports(&checked.run_playouts(&config), &general.run_playouts(&config), label);
    });
    eprintln!("{games} sources, {planned_pairs} planned pairs over both automata");
    assert!(games >= 20, "only {games} corpus games loaded");
    // Reversi's, chess's, connect four's and tic-tac-toe's checks have plans, at least.
    assert!(planned_pairs >= 8, "only {planned_pairs} reachability pairs have plans");
}

/// Connect four's four-in-a-row checks (connect4.hrg's walk back over up to three of the mover's
/// discs with guarded moves, then three tested steps ahead, run as a register walk; connect4.rg's
/// ray) over many more playouts than the corpus test: every check run by both the plan and the
/// general search, on the automaton as optimised for the fast engine (the shape the register walk
/// takes), and the reports with plans on and off the same.
#[test]
fn connect_four_checks_agree_with_the_general_search_over_many_playouts() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("runtime lives one level below the root");
    for file in ["games/connect4/connect4.hrg", "games/connect4/connect4.rg"] {
        let text = std::fs::read_to_string(root.join(file)).expect("readable source");
        let name = file.rsplit('/').next().unwrap_or(file);
        let loaded = regula_compiler::load(name, &text).expect("the game compiles");
        let passes = regula_compiler::optimize::PassSet::for_fast_engine();
        let (optimised, _) = regula_compiler::optimize::optimize(&loaded.rg, &passes);
        let automaton = regula_compiler::rg::compile_game(optimised).expect("the optimised game compiles").automaton;
        let checked = FastEngine::new(automaton.clone()).expect("fast engine").with_reach_plans(ReachPlans::Checked);
        let general = FastEngine::new(automaton).expect("fast engine").with_reach_plans(ReachPlans::Off);
        assert!(checked.reach_plan_count().0 >= 2, "{file}: the win checks have plans");
        let config = PlayoutConfig { count: 300, seed: 41, threads: 1, ..Default::default() };
        let (a, b) = (checked.run_playouts(&config), general.run_playouts(&config));
        corpus::assert_same_reports(&a, &b, file);
        let report = a.expect("playouts");
        // Both players win some games: the checks accept as well as refuse.
        let wins = report.score_distribution.iter().filter(|e| e.scores.iter().any(|s| s.value == 100)).count();
        assert!(wins >= 2, "{file}: {:?}", report.score_distribution);
    }
}
