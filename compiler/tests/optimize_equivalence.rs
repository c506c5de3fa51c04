//! Every optimisation pass, alone and all together, over every game the repository has (`games/`,
//! `compiler/test_data/**/ok`, `compiler/test_data/optimize`): the optimised game must validate
//! without new diagnostics, print and re-parse to itself, and have the same perft counts on the
//! reference engine as the unoptimised one. The code generator's extra step,
//! `merge_player_twins` after every pass, is checked the same way (set `all+twins`).

use regula_compiler::optimize::{merge_player_twins, optimize, Pass, PassSet};
use regula_compiler::{load, rg, SourceFormat};
use regula_runtime::engine::ForwardModel;
use regula_runtime::perft::perft;
use regula_runtime::reference::ReferenceEngine;
use std::path::{Path, PathBuf};

/// Depth grows until a level holds more states than this, or the next level is estimated (from
/// the growth so far) to hold more than `NEXT_LEVEL_LIMIT`, or `MAX_DEPTH` is reached.
const STATE_BUDGET: u64 = 2_000;
const NEXT_LEVEL_LIMIT: u64 = 8_000;
const MAX_DEPTH: usize = 7;
/// Seeded playouts per game and pass set, and their length limit in moves.
const PLAYOUTS: u64 = 4;
const PLAYOUT_STEPS: usize = 150;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn collect_games(dir: &Path, only_ok: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_games(&path, only_ok, out);
        } else if SourceFormat::from_file_name(&path.to_string_lossy()).is_some()
            && (!only_ok || path.parent().is_some_and(|p| p.ends_with("ok")))
        {
            out.push(path);
        }
    }
}

fn all_games() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut games = Vec::new();
    collect_games(&root.join("games"), false, &mut games);
    collect_games(&root.join("compiler/test_data"), true, &mut games);
    collect_games(&root.join("compiler/test_data/optimize"), false, &mut games);
    games
}

fn engine_for(game: &rg::ast::Game) -> Result<ReferenceEngine, String> {
    let loaded = rg::compile_game(game.clone()).map_err(|d| format!("does not validate: {d:#?}"))?;
    ReferenceEngine::new(loaded.automaton).map_err(|e| format!("engine refuses it: {e:?}"))
}

/// The perft counts of the unoptimised game, as deep as the budget allows.
fn reference_counts(engine: &ReferenceEngine) -> Vec<u64> {
    let mut counts = perft(engine, 1).unwrap();
    for depth in 2..=MAX_DEPTH {
        let (previous, last) = (counts[counts.len() - 2].max(1), counts[counts.len() - 1]);
        if last > STATE_BUDGET || last == 0 || last.saturating_mul(last) / previous > NEXT_LEVEL_LIMIT {
            break;
        }
        counts = perft(engine, depth).unwrap();
    }
    counts
}

/// The pass set name for every pass followed by the code generator's `merge_player_twins`.
const ALL_AND_TWINS: &str = "all+twins";

/// The game optimised by a named pass set (see [`ALL_AND_TWINS`]).
fn optimized_by(game: &rg::ast::Game, set_name: &str, passes: &PassSet) -> rg::ast::Game {
    let (optimized, _) = optimize(game, passes);
    if set_name == ALL_AND_TWINS {
        return merge_player_twins(&optimized, passes).unwrap_or(optimized);
    }
    optimized
}

/// A long check over every game in interleaved parts, one `#[test]` each, so the harness spreads the
/// games over every core: part `k` of `n` checks the games whose place in [`all_games`] is `k`
/// modulo `n` (the part count is the length of the list, so every game is in exactly one part).
macro_rules! parts {
    ($test:ident, $check:ident: $($part:ident = $index:literal),+) => {
        mod $test {
            const PARTS: usize = [$($index),+].len();
            $(#[test]
            fn $part() {
                super::$check($index, PARTS);
            })+
        }
    };
}

parts!(every_pass_keeps_every_game_valid_and_its_perft, check_validity_and_perft:
    part_0 = 0, part_1 = 1, part_2 = 2, part_3 = 3, part_4 = 4, part_5 = 5, part_6 = 6, part_7 = 7);

fn check_validity_and_perft(part: usize, parts: usize) {
    let games = all_games();
    assert!(games.len() >= 2, "found only {games:?}");
    let mut sets: Vec<(String, PassSet)> =
        Pass::ALL.iter().map(|pass| (pass.name().to_string(), PassSet::parse(pass.name()).unwrap())).collect();
    sets.push(("all".into(), PassSet::all()));
    sets.push((ALL_AND_TWINS.into(), PassSet::all()));
    let mut failures = Vec::new();
    for path in games.iter().skip(part).step_by(parts) {
        let name = path.strip_prefix(workspace_root()).unwrap().display().to_string();
        let source = std::fs::read_to_string(path).unwrap();
        let loaded = match load(&name, &source) {
            Ok(loaded) => loaded,
            Err(diagnostics) => {
                failures.push(format!("{name}: does not load: {diagnostics:#?}"));
                continue;
            }
        };
        let engine = match engine_for(&loaded.rg) {
            Ok(engine) => engine,
            Err(error) => {
                failures.push(format!("{name}: {error}"));
                continue;
            }
        };
        let expected = reference_counts(&engine);
        for (set_name, passes) in &sets {
            let optimized = optimized_by(&loaded.rg, set_name, passes);
            let printed = rg::print(&optimized);
            let before: std::collections::BTreeSet<&str> = rg::check(&loaded.rg).iter().map(|d| d.code).collect();
            let new_codes: Vec<&str> =
                rg::check(&optimized).iter().map(|d| d.code).filter(|code| !before.contains(code)).collect();
            if !new_codes.is_empty() {
                failures.push(format!("{name} / {set_name}: new diagnostics {new_codes:?}"));
            }
            match rg::parse(&printed) {
                Ok(reparsed) if reparsed == optimized => {}
                Ok(_) => failures.push(format!("{name} / {set_name}: print-parse round trip differs")),
                Err(d) => failures.push(format!("{name} / {set_name}: printed text does not parse: {d:#?}")),
            }
            let counts = engine_for(&optimized)
                .and_then(|engine| perft(&engine, expected.len() - 1).map_err(|e| format!("{e:?}")));
            match counts {
                Ok(counts) if counts == expected => {}
                Ok(counts) => failures.push(format!("{name} / {set_name}: perft {counts:?}, expected {expected:?}")),
                Err(error) => failures.push(format!("{name} / {set_name}: {error}\n{printed}")),
            }
        }
        eprintln!("{name}: perft {expected:?} kept by {} pass sets", sets.len());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_passes_do_not_grow_any_game() {
    for path in all_games() {
        let name = path.display().to_string();
        let Ok(loaded) = load(&name, &std::fs::read_to_string(&path).unwrap()) else { continue };
        let (optimized, _) = optimize(&loaded.rg, &PassSet::all());
        let (before, after) =
            (regula_compiler::optimize::stats(&loaded.rg), regula_compiler::optimize::stats(&optimized));
        assert!(after.nodes <= before.nodes && after.edges <= before.edges, "{name}:\n{before}\n---\n{after}");
        assert!(after.state_slots <= before.state_slots, "{name}");
        eprintln!(
            "{name}: nodes {} -> {}, edges {} -> {}, state slots {:?} -> {:?}",
            before.nodes, after.nodes, before.edges, after.edges, before.state_slots, after.state_slots
        );
    }
}

/// What one step of a playout shows: the mover, the legal moves in order, the players who would
/// see the chosen move, and the scores once the game is over.
fn playout_log(engine: &ReferenceEngine, seed: u64, max_steps: usize) -> Result<Vec<String>, String> {
    let mut log = Vec::new();
    let mut state = engine.start().map_err(|e| e.to_string())?;
    let mut random = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    for _ in 0..max_steps {
        if engine.is_terminal(&state) {
            let scores: Vec<i64> = engine.scores(&state).iter().map(|s| s.value).collect();
            log.push(format!("scores {scores:?}"));
            return Ok(log);
        }
        let mover = engine.to_move(&state);
        let moves = engine.moves(&state).map_err(|e| e.to_string())?;
        random = random.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let chosen = &moves[(random >> 33) as usize % moves.len()];
        let observers = engine.observers(&state, mover);
        log.push(format!(
            "{mover:?} {:?} -> {} seen by {observers:?}",
            engine.format_moves(&moves),
            engine.format_move(chosen)
        ));
        state = engine.apply(&state, chosen).map_err(|e| e.to_string())?;
    }
    Ok(log)
}

parts!(every_pass_keeps_moves_visibility_and_scores_along_playouts, check_playouts:
    part_0 = 0, part_1 = 1, part_2 = 2, part_3 = 3, part_4 = 4, part_5 = 5, part_6 = 6, part_7 = 7);

fn check_playouts(part: usize, parts: usize) {
    let mut sets: Vec<(String, PassSet)> =
        Pass::ALL.iter().map(|pass| (pass.name().to_string(), PassSet::parse(pass.name()).unwrap())).collect();
    sets.push(("all".into(), PassSet::all()));
    sets.push((ALL_AND_TWINS.into(), PassSet::all()));
    let mut failures = Vec::new();
    for path in all_games().into_iter().skip(part).step_by(parts) {
        let name = path.display().to_string();
        let Ok(loaded) = load(&name, &std::fs::read_to_string(&path).unwrap()) else { continue };
        let Ok(engine) = engine_for(&loaded.rg) else { continue };
        let optimized_engines: Vec<(&String, ReferenceEngine)> = sets
            .iter()
            .filter_map(|(set_name, passes)| {
                Some((set_name, engine_for(&optimized_by(&loaded.rg, set_name, passes)).ok()?))
            })
            .collect();
        for seed in 0..PLAYOUTS {
            let expected = playout_log(&engine, seed, PLAYOUT_STEPS);
            for (set_name, optimized) in &optimized_engines {
                let actual = playout_log(optimized, seed, PLAYOUT_STEPS);
                if actual != expected {
                    failures.push(format!("{name} / {set_name} / seed {seed}:\n{expected:#?}\n{actual:#?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The optimiser's precondition is a validated game, but a caller's mistake must not crash it:
/// every program in the error corpus that parses goes through every pass and `stats` unharmed.
#[test]
fn invalid_games_do_not_crash_the_passes() {
    let dir = workspace_root().join("compiler/test_data/rg/err");
    let mut parsed = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let Ok(game) = rg::parse(&std::fs::read_to_string(&path).unwrap()) else { continue };
        parsed += 1;
        let (optimized, _) = optimize(&game, &PassSet::all());
        let _ = regula_compiler::optimize::stats(&optimized);
        let _ = rg::print(&optimized);
    }
    assert!(parsed > 10, "only {parsed} error-corpus programs parse");
}
