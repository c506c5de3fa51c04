//! Every compiled corpus model against the reference engine: perft counts (small depths, against
//! `perft.toml` and the reference engine), the set of legal moves (tag sequences) at every state
//! along seeded random playouts, terminal states and scores; and the compiled fast paths
//! (`run_playouts`, `perft`) against the generic ones on the adapter.

use regula_compiled::{games, Visitor};
use regula_runtime::compiled::{self, CompiledGame, CompiledModel};
use regula_runtime::engine::{ForwardModel, Move, Mover};
use regula_runtime::perft::perft_sequential;
use regula_runtime::playout::{run_playouts, PlayoutConfig, Xoshiro256};
use regula_runtime::reference::ReferenceEngine;
use std::path::Path;

/// States compared move by move per game.
const STATES_PER_GAME: usize = 1500;
/// Perft stops at the deepest depth whose expected count is at most this.
const PERFT_NODE_BUDGET: u64 = 60_000;

fn source(name: &str) -> (String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("compiled/ lives below the root");
    let text = std::fs::read_to_string(root.join("games").join(name)).expect("corpus source readable");
    (name.rsplit('/').next().expect("a file name").to_string(), text)
}

fn expected_counts(name: &str) -> Vec<u64> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("compiled/ lives below the root");
    let folder = name.split('/').next().expect("a folder");
    let text = std::fs::read_to_string(root.join("games").join(folder).join("perft.toml")).expect("perft.toml");
    let manifest: toml::Table = toml::from_str(&text).expect("perft.toml parses");
    let mut best: Vec<u64> = Vec::new();
    for entry in manifest.get("counts").and_then(|c| c.as_array()).into_iter().flatten() {
        if entry.get("run").and_then(|r| r.as_str()).unwrap_or("default") != "default" {
            continue;
        }
        let counts: Vec<u64> = entry
            .get("expected")
            .and_then(|e| e.as_array())
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_integer().and_then(|i| u64::try_from(i).ok()))
            .collect();
        if counts.len() > best.len() {
            best = counts;
        }
    }
    best
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort();
    moves
}

struct Check;

impl Visitor for Check {
    type Output = (usize, usize);

    fn visit<G: CompiledGame>(&mut self, name: &str) -> (usize, usize) {
        let (file_name, text) = source(name);
        let optimized = regula_compiler::codegen::optimized_automaton(&file_name, &text).expect("compiles");
        let unoptimized = regula_compiler::load(&file_name, &text).expect("compiles").automaton;
        // Symbol ids are numbered in order of first use, so a pass that drops the last use of a
        // symbol renumbers the later ones: moves are compared by their tags' names.
        let in_model: std::collections::HashMap<&str, u32> =
            optimized.symbols.iter().enumerate().map(|(id, name)| (name.as_str(), id as u32)).collect();
        let to_model: Vec<u32> =
            unoptimized.symbols.iter().map(|name| in_model.get(name.as_str()).copied().unwrap_or(u32::MAX)).collect();
        let translate = |tags: &Move| -> Move { tags.iter().map(|&tag| to_model[tag as usize]).collect() };
        let model = CompiledModel::<G>::new(optimized).expect("the checked-in model matches the generator");
        let reference = ReferenceEngine::new(unoptimized).unwrap();

        // Perft: the compiled counts equal perft.toml's and the reference engine's.
        let expected = expected_counts(name);
        let depth = expected.iter().take_while(|&&count| count <= PERFT_NODE_BUDGET).count().saturating_sub(1);
        let counts = compiled::perft::<G>(depth).unwrap_or_else(|e| panic!("{name}: perft: {e}"));
        assert_eq!(counts[..], expected[..=depth], "{name}: compiled perft against perft.toml");
        let small = expected.iter().take_while(|&&count| count <= 3_000).count().saturating_sub(1).min(depth);
        assert_eq!(perft_sequential(&reference, small).unwrap()[..], counts[..=small], "{name}: against reference");
        assert_eq!(perft_sequential(&model, small).unwrap()[..], counts[..=small], "{name}: adapter perft");

        // Random playouts: the same legal moves (as sets of tag sequences) at every state.
        let mut states = 0;
        let mut playout = 0;
        while states < STATES_PER_GAME {
            let mut rng = Xoshiro256::for_playout(7, playout);
            playout += 1;
            let mut expected_state = reference.start().unwrap();
            let mut state = model.start().unwrap();
            let mut search = compiled::search_context::<G>();
            loop {
                states += 1;
                let mover = reference.to_move(&expected_state);
                assert_eq!(model.to_move(&state), mover, "{name}: mover");
                assert_eq!(model.scores(&state), reference.scores(&expected_state), "{name}: scores");
                if mover == Mover::Terminal {
                    break;
                }
                let expected_moves = reference.moves(&expected_state).unwrap();
                let moves = model.moves(&state).unwrap();
                let expected_in_model: Vec<Move> = expected_moves.iter().map(&translate).collect();
                assert_eq!(sorted(moves.clone()), sorted(expected_in_model), "{name}: legal moves");
                // The index API lists the same moves in the same order as the adapter.
                compiled::generate::<G>(&state, &mut search).unwrap();
                let listed: Vec<Move> = (0..search.moves.len()).map(|i| search.moves.tags(i).to_vec()).collect();
                assert_eq!(listed, moves, "{name}: index API");
                check_counted::<G>(name, &state, &search);
                check_counted_search::<G>(name, &state, &search);
                let pick = &expected_moves[rng.below(expected_moves.len() as u64) as usize];
                expected_state = reference.apply(&expected_state, pick).unwrap();
                state = model.apply(&state, &translate(pick)).unwrap();
                if states >= 50 * STATES_PER_GAME {
                    break;
                }
            }
        }

        // The compiled playout loop makes the same choices as the generic one on the adapter.
        let config = PlayoutConfig { count: 12, seed: 3, threads: 2, max_moves: 100_000 };
        let fast = compiled::run_playouts::<G>(&config).unwrap();
        let generic = run_playouts(&model, &config).unwrap();
        assert_eq!(fast.score_distribution, generic.score_distribution, "{name}: playout scores");
        assert_eq!((fast.total_plies, fast.total_chance_moves), (generic.total_plies, generic.total_chance_moves));
        (depth, states)
    }
}

/// Where `state`'s node is a counted start (`CompiledGame::pick_counted`): its count is the
/// listing's (`search` holds `generate`'s listing of `state`) and the delta word it builds for
/// each pick gives that move's successor, so a playout's pick reaches the successor it reaches
/// through the listing.
fn check_counted<G: CompiledGame>(
    name: &str,
    state: &compiled::CompiledState<G::Values>,
    search: &compiled::Search<G::Values>,
) {
    let Some((count, none)) = G::pick_counted(state.node, &state.values, |_| None) else { return };
    assert_eq!((count, none), (search.moves.len(), None), "{name}: counted moves");
    for k in 0..count {
        let (again, delta) = G::pick_counted(state.node, &state.values, |c| (c == count).then_some(k)).unwrap();
        assert_eq!(again, count, "{name}: counted moves");
        let mut successor = *state;
        G::apply_delta(delta.expect("a picked move"), &mut successor);
        assert!(successor == *search.moves.successor(k), "{name}: counted move {k} of {count}");
    }
}

/// Where `state`'s node is a counted search start (`CompiledGame::counted_search_depth`): the
/// counting run's count is the listing's (`search` holds `generate`'s listing of `state`), and
/// the selecting run for pick `k` finds the listing's successor of move `k` (every `k` of a
/// short listing, about 40 spread over a long one, the first and last among them), leaving the
/// values as it found them.
fn check_counted_search<G: CompiledGame>(
    name: &str,
    state: &compiled::CompiledState<G::Values>,
    search: &compiled::Search<G::Values>,
) {
    use compiled::counted_search::{CountSink, SelectSink};
    let depth = G::counted_search_depth(state.node);
    if depth == 0 {
        return;
    }
    let mut values = state.values;
    let mut checkpoints = Vec::new();
    let mut counting = CountSink::new(depth, &mut checkpoints);
    G::counted_search(state.node, &mut values, &mut counting);
    let count = counting.count();
    assert_eq!(count, search.moves.len(), "{name}: counted search's moves");
    assert!(values == state.values, "{name}: the counting run restores the values");
    let step = (count / 40).max(1);
    for k in (0..count).step_by(step).chain(count.checked_sub(1)) {
        let mut select = SelectSink::new(depth, &checkpoints, k).expect("a checkpoint before every move");
        G::counted_search(state.node, &mut values, &mut select);
        assert!(values == state.values, "{name}: the selecting run restores the values");
        assert!(select.found() == Some(*search.moves.successor(k)), "{name}: counted search's move {k} of {count}");
    }
}

/// The corpus in interleaved parts, one `#[test]` each, so the harness spreads the games over every
/// core: part `k` of `n` checks the games whose place in `GAMES` is `k` modulo `n` (the part count
/// is the length of the list, so every game is in exactly one part).
macro_rules! parts {
    ($($part:ident = $index:literal),+) => {
        mod every_compiled_game_matches_the_reference_engine {
            const PARTS: usize = [$($index),+].len();
            $(#[test]
            fn $part() {
                super::check_part($index, PARTS);
            })+
        }
    };
}
parts!(part_0 = 0, part_1 = 1, part_2 = 2, part_3 = 3, part_4 = 4, part_5 = 5);

fn check_part(part: usize, parts: usize) {
    assert!(games::GAMES.len() >= 15);
    for (name, _) in games::GAMES.iter().skip(part).step_by(parts) {
        let started = std::time::Instant::now();
        let (depth, states) = games::visit(name, &mut Check).expect("a registered game");
        eprintln!("{name}: perft to depth {depth}, {states} states compared, {:.1} s", started.elapsed().as_secs_f64());
    }
}

#[test]
fn the_adapter_refuses_another_automaton() {
    let (file_name, text) = source("tictactoe/tictactoe.rg");
    let unoptimized = regula_compiler::load(&file_name, &text).unwrap().automaton;
    let error = CompiledModel::<games::tictactoe_rg::Game>::new(unoptimized).unwrap_err();
    assert!(error.to_string().contains("different automaton"), "{error}");
}

#[test]
fn gomoku_counts_its_placements_from_the_start() {
    use games::gomoku_hrg::Game;
    let mut search = compiled::search_context::<Game>();
    let state = compiled::start::<Game>(&mut search).unwrap();
    let (count, delta) = Game::pick_counted(state.node, &state.values, |c| c.checked_sub(1)).expect("a counted start");
    assert_eq!(count, 225);
    compiled::generate::<Game>(&state, &mut search).unwrap();
    assert_eq!(search.moves.len(), 225);
    let last = Game::NAMES.symbols.iter().position(|&s| s == "C__15_15").unwrap() as u32;
    assert_eq!(search.moves.tags(224), [last]);
    let mut successor = state;
    Game::apply_delta(delta.expect("the last cell"), &mut successor);
    assert!(successor == *search.moves.successor(224));
}

#[test]
fn pentago_counts_cells_quadrants_and_spins_as_a_product() {
    use games::pentago_hrg::Game;
    let (file_name, text) = source("pentago/pentago.hrg");
    let automaton = regula_compiler::codegen::optimized_automaton(&file_name, &text).unwrap();
    let model = CompiledModel::<Game>::new(automaton).unwrap();
    let symbol = |name: &str| Game::NAMES.symbols.iter().position(|&s| s == name).unwrap() as u32;
    let mut search = compiled::search_context::<Game>();
    // Per pick: the counted move's tags (the listing's move `k`) and its successor equal to the
    // listing's.
    let mut check = |state: &compiled::CompiledState<_>, count: usize, picks: &[(usize, [&str; 3])]| {
        let (counted, none) = Game::pick_counted(state.node, &state.values, |_| None).expect("a counted start");
        assert_eq!((counted, none), (count, None));
        compiled::generate::<Game>(state, &mut search).unwrap();
        assert_eq!(search.moves.len(), count);
        for &(k, tags) in picks {
            let names: Vec<u32> = tags.iter().map(|name| symbol(name)).collect();
            assert_eq!(search.moves.tags(k), names, "move {k}");
            let (_, delta) = Game::pick_counted(state.node, &state.values, |_| Some(k)).unwrap();
            let mut successor = *state;
            Game::apply_delta(delta.expect("a picked move"), &mut successor);
            assert!(successor == *search.moves.successor(k), "move {k}");
        }
    };
    // White on the empty board: 36 cells × 4 quadrants × 2 spins, the cell outermost, then the
    // quadrant: move 13 is the second cell's third quadrant turned anticlockwise.
    let start = model.start().unwrap();
    check(
        &start,
        288,
        &[
            (0, ["C__1_1", "topLeft", "clockwise"]),
            (13, ["C__1_2", "bottomLeft", "anticlockwise"]),
            (287, ["C__6_6", "bottomRight", "anticlockwise"]),
        ],
    );
    // Black after that move (the turned quadrant was empty): 35 cells, `C__1_2` taken, so move
    // 8 is on `C__1_3`.
    let second = model.apply(&start, &[symbol("C__1_2"), symbol("bottomLeft"), symbol("anticlockwise")]).unwrap();
    assert_ne!(second.node, start.node, "black's turn starts elsewhere");
    check(
        &second,
        280,
        &[
            (5, ["C__1_1", "bottomLeft", "anticlockwise"]),
            (8, ["C__1_3", "topLeft", "clockwise"]),
            (279, ["C__6_6", "bottomRight", "anticlockwise"]),
        ],
    );
}

#[test]
fn amazons_counts_its_moves_from_the_start() {
    use compiled::counted_search::{CountSink, SelectSink};
    use games::amazons_hrg::Game;
    let mut search = compiled::search_context::<Game>();
    let mut state = compiled::start::<Game>(&mut search).unwrap();
    assert_eq!(Game::counted_search_depth(state.node), 2, "amazon and landing");
    let mut checkpoints = Vec::new();
    let mut counting = CountSink::new(2, &mut checkpoints);
    Game::counted_search(state.node, &mut state.values, &mut counting);
    // perft.toml's first count: 2,176 moves from the start, under one prefix per landing (every
    // landing can shoot: 4 amazons, 80 landings in all).
    assert_eq!(counting.count(), 2176);
    assert_eq!(checkpoints.len(), 80);
    compiled::generate::<Game>(&state, &mut search).unwrap();
    assert_eq!(search.moves.len(), 2176);
    let mut prefixes: Vec<&[u32]> = (0..2176).map(|i| &search.moves.tags(i)[..2]).collect();
    prefixes.dedup();
    assert_eq!(prefixes.len(), 80, "the listing's landings");
    let mut select = SelectSink::new(2, &checkpoints, 2175).expect("the last move");
    Game::counted_search(state.node, &mut state.values, &mut select);
    assert!(select.found() == Some(*search.moves.successor(2175)));
}
