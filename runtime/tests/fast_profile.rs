//! A profiling driver for the fast engine (ignored by default): runs a fixed number of seeded
//! random playouts of one game, so `valgrind --tool=callgrind --toggle-collect='*random_playout*'`
//! counts instructions per playout without building the benchmark crate.
//!
//! ```text
//! cargo test --release -p regula-runtime --test fast_profile --no-run
//! REGULA_PROFILE_GAME=games/connect4/connect4.rg REGULA_PROFILE_PLAYOUTS=50 [REGULA_PROFILE_OPT=1] \
//!   valgrind --tool=callgrind --toggle-collect='*random_playout*' target/release/deps/fast_profile-* \
//!   --ignored --exact profile_playouts
//! ```
//!
//! `REGULA_PROFILE_PASSES=a,b,c` (with `REGULA_PROFILE_OPT=1`) runs only the named passes;
//! `REGULA_PROFILE_PLANS=off` (or `checked`) runs every reachability check by the general search
//! (or by both the plan and the general search, compared); `REGULA_PROFILE_TAGS_ONLY_ABOVE=N`
//! sets [`FastEngine::with_tags_only_above`].

use regula_runtime::fast::{FastEngine, ReachPlans};
use regula_runtime::playout::{run_playouts, PlayoutConfig};
use regula_runtime::reference::ReferenceEngine;
use std::path::Path;

#[test]
#[ignore = "a profiling driver: run with REGULA_PROFILE_GAME set (see the module comment)"]
fn profile_playouts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("runtime lives one level below the root");
    let game = std::env::var("REGULA_PROFILE_GAME").unwrap_or_else(|_| "games/connect4/connect4.rg".into());
    let count: u64 = std::env::var("REGULA_PROFILE_PLAYOUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let optimise = std::env::var("REGULA_PROFILE_OPT").is_ok_and(|v| v == "1");
    let path = root.join(&game);
    let text = std::fs::read_to_string(&path).expect("readable game file");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("game.rg");
    let loaded = regula_compiler::load(name, &text).expect("the game compiles");
    let automaton = if optimise {
        // `REGULA_PROFILE_PASSES=a,b,c` runs only those passes (to find which one pays).
        let passes = match std::env::var("REGULA_PROFILE_PASSES") {
            Ok(names) => regula_compiler::optimize::PassSet::parse(&names).expect("known pass names"),
            Err(_) => regula_compiler::optimize::PassSet::all(),
        };
        let (optimised, _) = regula_compiler::optimize::optimize(&loaded.rg, &passes);
        regula_compiler::rg::compile_game(optimised).expect("the optimised game compiles").automaton
    } else {
        loaded.automaton
    };
    let config = PlayoutConfig { count, seed: 3, threads: 1, ..Default::default() };
    let plans = match std::env::var("REGULA_PROFILE_PLANS").as_deref() {
        Ok("off") => ReachPlans::Off,
        Ok("checked") => ReachPlans::Checked,
        _ => ReachPlans::On,
    };
    let mut fast = FastEngine::new(automaton.clone()).expect("fast engine").with_reach_plans(plans);
    if let Some(above) = std::env::var("REGULA_PROFILE_TAGS_ONLY_ABOVE").ok().and_then(|v| v.parse().ok()) {
        fast = fast.with_tags_only_above(above);
    }
    eprintln!("{}", fast.summary());
    let report = fast.run_playouts(&config).expect("fast playouts");
    if std::env::var("REGULA_PROFILE_CHECK").is_ok_and(|v| v == "1") {
        let reference = ReferenceEngine::new(automaton).expect("reference engine");
        let expected = run_playouts(&reference, &config).expect("reference playouts");
        assert_eq!(report.score_distribution, expected.score_distribution);
        assert_eq!(report.total_plies, expected.total_plies);
    }
    eprintln!(
        "{game}: {count} playouts, {:.0} playouts/s, {:.1} plies, {:.1} moves",
        report.playouts_per_second, report.mean_plies, report.mean_legal_moves
    );
}
