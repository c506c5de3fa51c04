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
