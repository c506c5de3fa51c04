//! Conformance of the agent API (spec/agents.md) over every corpus game: random playouts drive a
//! reference-engine game and a fast-engine game in lockstep and check, at every state, the rules
//! OpenSpiel-style agents rely on (legal actions, chance probabilities, returns, masks, ids,
//! clone independence, undo, serialisation, observations of indistinguishable states).
//!
//! Every source file under `games/` in a format the compiler reads is a corpus game. Each game
//! gets up to [`PLAYOUTS`] playouts or [`STEPS`] moves, whichever comes first (fewer moves for
//! very large automata, see [`LARGE_GAME_NODES`]); set
//! `REGULA_AGENT_PLAYOUTS=N` to run N playouts per game without the move cap, and
//! `REGULA_AGENT_GAMES=chess,hidden` to run only the games whose file names contain one of these.

use regula_runtime::agent::{ActionSpace, AgentError, AgentModel, CurrentPlayer, Game, State};
use regula_runtime::fast::FastEngine;
use regula_runtime::playout::Xoshiro256;
use regula_runtime::reference::ReferenceEngine;
use std::path::{Path, PathBuf};

const PLAYOUTS: u64 = 300;
const STEPS: u64 = 1_500;
/// One state in this many also gets the expensive checks (clone, undo, serialisation, sampling).
const DEEP_CHECK_EVERY: u64 = 16;
/// Legal actions per state whose text is converted back and forth.
const ROUND_TRIPS: usize = 16;
/// Moves a consistent-state sample may try. Running out is tolerated in games with hidden
/// information (a card game late in a deal may need more) as long as some samples succeed.
const SAMPLE_BUDGET: usize = 5_000;
/// Games with more automaton nodes than this get proportionally fewer states (Dou Dizhu's
/// 136,000 nodes: about 110).
const LARGE_GAME_NODES: u64 = 10_000;

/// Consistent-state samples that succeeded and that ran out of budget.
#[derive(Default)]
struct Samples {
    found: u64,
    out_of_budget: u64,
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .file_name()
                .is_some_and(|n| regula_compiler::SourceFormat::from_file_name(&n.to_string_lossy()).is_some())
            {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 15, "the corpus has at least 15 games, found {}", files.len());
    if let Ok(only) = std::env::var("REGULA_AGENT_GAMES") {
        let wanted: Vec<&str> = only.split(',').map(str::trim).filter(|w| !w.is_empty()).collect();
        files.retain(|f| wanted.iter().any(|w| f.file_name().unwrap().to_string_lossy().contains(w)));
    }
    files
}

fn load(path: &Path) -> (Game<ReferenceEngine>, Game<FastEngine>) {
    let source = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    let loaded = regula_compiler::load(&name, &source).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    (Game::reference(loaded.automaton.clone()).unwrap(), Game::fast(loaded.automaton).unwrap())
}

/// Checks one state on its own; returns its legal actions.
fn check_state<M: AgentModel>(game: &Game<M>, state: &State<M>, label: &str) -> Vec<usize> {
    let legal = state.legal_actions().unwrap();
    let players = game.num_players();
    assert!(legal.windows(2).all(|w| w[0] < w[1]), "{label}: legal actions sorted and distinct");
    match state.current_player() {
        CurrentPlayer::Terminal => {
            assert!(state.is_terminal(), "{label}");
            assert!(legal.is_empty(), "{label}: no legal actions at a terminal state");
            let scores: Vec<f64> = game.model().scores(state.engine_state()).iter().map(|s| s.value as f64).collect();
            assert_eq!(state.returns(), scores, "{label}: returns are the scores at the end");
            assert_eq!(state.rewards(), scores, "{label}");
        }
        player => {
            assert!(!state.is_terminal(), "{label}");
            assert!(!legal.is_empty(), "{label}: legal actions at a non-terminal state");
            assert_eq!(state.returns(), vec![0.0; players], "{label}: returns only at the end");
            assert_eq!(state.rewards(), vec![0.0; players], "{label}");
            assert_eq!(CurrentPlayer::from_id(player.id()), Some(player));
            let outcomes = state.chance_outcomes().unwrap();
            if player == CurrentPlayer::Chance {
                assert!(state.is_chance_node());
                let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9, "{label}: chance probabilities sum to {total}");
                assert_eq!(outcomes.iter().map(|(a, _)| *a).collect::<Vec<_>>(), legal, "{label}");
            } else {
                assert!(outcomes.is_empty(), "{label}: no chance outcomes for a player");
            }
        }
    }
    match game.action_space() {
        ActionSpace::GameWide { size } => {
            assert!(legal.iter().all(|&a| a < *size), "{label}: action ids within the game-wide space");
            for &action in legal.iter().step_by(legal.len().div_ceil(ROUND_TRIPS).max(1)) {
                let text = state.action_to_string(action).unwrap();
                assert_eq!(game.action_to_string(action).unwrap(), text);
                assert_eq!(game.string_to_action(&text).unwrap(), action, "{label}: `{text}`");
                assert_eq!(state.string_to_action(&text).unwrap(), action, "{label}: `{text}`");
            }
        }
        ActionSpace::PerState { .. } => {
            assert_eq!(legal, (0..legal.len()).collect::<Vec<_>>(), "{label}: per-state ids are indices");
            assert!(matches!(state.legal_actions_mask(), Err(AgentError::NoGameWideActionSpace { .. })));
            for &action in legal.iter().step_by(legal.len().div_ceil(ROUND_TRIPS).max(1)) {
                let text = state.action_to_string(action).unwrap();
                assert_eq!(state.string_to_action(&text).unwrap(), action, "{label}: `{text}`");
            }
        }
    }
    let size = game.observation_tensor_size();
    assert_eq!(game.observation_tensor_shape(), vec![size]);
    for p in 0..players {
        let tensor = state.observation_tensor(p).unwrap();
        assert_eq!(tensor.len(), size);
        assert!(tensor.iter().all(|&x| x == 0.0 || x == 1.0), "{label}: one-hot entries");
    }
    assert!(state.information_state_string(players).is_err(), "{label}: no such player");
    legal
}

/// The expensive checks: an illegal action, clone independence, undo, serialisation, and
/// observations of states consistent with each player's view.
fn deep_check<M: AgentModel>(
    game: &Game<M>,
    state: &State<M>,
    legal: &[usize],
    rng: &mut Xoshiro256,
    samples: &mut Samples,
    label: &str,
) {
    let before = state.serialize();
    if let Some(size) = game.num_distinct_actions() {
        let mask = state.legal_actions_mask().unwrap();
        assert_eq!(mask.len(), size);
        assert_eq!(mask.iter().filter(|&&m| m).count(), legal.len(), "{label}: mask");
        assert!(legal.iter().all(|&a| mask[a]), "{label}: mask");
    }
    // An illegal id fails and changes nothing.
    let illegal = match game.num_distinct_actions() {
        Some(size) => (0..=size).find(|a| !legal.contains(a)).unwrap(),
        None => legal.len(),
    };
    let mut copy = state.clone();
    assert!(matches!(copy.apply_action(illegal), Err(AgentError::IllegalAction { .. })), "{label}: illegal id");
    assert_eq!(copy.serialize(), before);
    assert_eq!(copy.engine_state(), state.engine_state());

    // Serialisation round trip.
    let restored = game.deserialize_state(&before).unwrap();
    assert_eq!(restored.engine_state(), state.engine_state(), "{label}: deserialised state");
    assert_eq!(restored.history(), state.history(), "{label}");
    for p in 0..game.num_players() {
        assert_eq!(restored.information_state_string(p).unwrap(), state.information_state_string(p).unwrap());
        assert_eq!(restored.information_state_key(p).unwrap(), state.information_state_key(p).unwrap());
    }

    if let Some(&action) = legal.get(rng.below(legal.len().max(1) as u64) as usize) {
        // Clone independence: moving the clone leaves the original alone.
        let mut clone = state.clone();
        clone.apply_action(action).unwrap();
        assert_eq!(state.serialize(), before, "{label}: clone independence");
        assert_eq!(state.legal_actions().unwrap(), legal, "{label}: clone independence");
        assert_eq!(clone.history().len(), state.history().len() + 1);
        assert_eq!(*clone.history().last().unwrap(), action);
        // Undo round trip.
        assert_eq!(clone.undo().unwrap(), action);
        assert_eq!(clone.engine_state(), state.engine_state(), "{label}: undo");
        assert_eq!(clone.serialize(), before, "{label}: undo");
        assert_eq!(clone.legal_actions().unwrap(), legal, "{label}: undo");
        for p in 0..game.num_players() {
            assert_eq!(clone.information_state_key(p).unwrap(), state.information_state_key(p).unwrap());
        }
    }

    // States a player cannot tell apart look the same to that player.
    for p in 0..game.num_players() {
        let sampled = match state.sample_consistent_state_with_budget(p, rng, SAMPLE_BUDGET) {
            Ok(sampled) => sampled,
            Err(AgentError::NoConsistentState { exhausted: false, .. }) if game.has_hidden_information() => {
                samples.out_of_budget += 1;
                continue;
            }
            Err(error) => panic!("{label}: sampling for player {p}: {error}"),
        };
        samples.found += 1;
        let info = state.information_state_string(p).unwrap();
        assert_eq!(sampled.information_state_string(p).unwrap(), info, "{label}: sampled for player {p}");
        assert_eq!(sampled.information_state_key(p).unwrap(), state.information_state_key(p).unwrap());
        assert_eq!(
            sampled.observation_string(p).unwrap(),
            state.observation_string(p).unwrap(),
            "{label}: player {p} tells apart {} and {}",
            state.serialize(),
            sampled.serialize()
        );
        assert_eq!(sampled.observation_tensor(p).unwrap(), state.observation_tensor(p).unwrap(), "{label}");
        if !game.has_hidden_information() {
            assert_eq!(sampled.engine_state(), state.engine_state(), "{label}: nothing to resample");
        }
    }
}

fn run_game(path: &Path) {
    let started = std::time::Instant::now();
    let (reference, fast) = load(path);
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assert_eq!(reference.action_space(), fast.action_space());
    assert_eq!(reference.observation_tensor_size(), fast.observation_tensor_size());
    let (playouts, steps_cap) = match std::env::var("REGULA_AGENT_PLAYOUTS").ok().and_then(|v| v.parse().ok()) {
        Some(n) => (n, u64::MAX),
        None => {
            let nodes = fast.automaton().nodes.len() as u64;
            (PLAYOUTS, STEPS.min(STEPS * LARGE_GAME_NODES / nodes.max(1)))
        }
    };
    let mut steps = 0u64;
    let mut samples = Samples::default();
    for playout in 0..playouts {
        if steps >= steps_cap {
            break;
        }
        let mut rng = Xoshiro256::for_playout(7, playout);
        let mut slow = reference.new_initial_state();
        let mut quick = fast.new_initial_state();
        loop {
            let label = format!("{name} playout {playout} at {}", quick.serialize());
            let legal = check_state(&reference, &slow, &label);
            assert_eq!(check_state(&fast, &quick, &label), legal, "{label}: engines agree on the actions");
            assert_eq!(slow.current_player(), quick.current_player(), "{label}");
            for p in 0..fast.num_players() {
                assert_eq!(slow.information_state_string(p).unwrap(), quick.information_state_string(p).unwrap());
                assert_eq!(slow.observation_tensor(p).unwrap(), quick.observation_tensor(p).unwrap(), "{label}");
            }
            steps += 1;
            if rng.below(DEEP_CHECK_EVERY) == 0 || legal.is_empty() {
                deep_check(&fast, &quick, &legal, &mut rng, &mut samples, &label);
            }
            if legal.is_empty() {
                break;
            }
            let action = if quick.is_chance_node() {
                // Sample by probability, as an agent would.
                let outcomes = quick.chance_outcomes().unwrap();
                let mut u = rng.below(1 << 30) as f64 / (1u64 << 30) as f64;
                let mut chosen = outcomes.last().unwrap().0;
                for (action, probability) in outcomes {
                    if u < probability {
                        chosen = action;
                        break;
                    }
                    u -= probability;
                }
                chosen
            } else {
                legal[rng.below(legal.len() as u64) as usize]
            };
            slow.apply_action(action).unwrap();
            quick.apply_action(action).unwrap();
        }
    }
    assert!(samples.found > 0, "{name}: no consistent-state sample succeeded");
    eprintln!(
        "{name}: {steps} states, {} samples ({} out of budget) in {:.1?}",
        samples.found + samples.out_of_budget,
        samples.out_of_budget,
        started.elapsed()
    );
}

/// The corpus in interleaved parts, one `#[test]` each, so the harness spreads the games over every
/// core: part `k` of `n` runs the games whose place in the sorted corpus is `k` modulo `n` (the part
/// count is the length of the list, so every game is in exactly one part).
macro_rules! parts {
    ($($part:ident = $index:literal),+) => {
        mod every_corpus_game_conforms {
            const PARTS: usize = [$($index),+].len();
            $(#[test]
            fn $part() {
                super::run_part($index, PARTS);
            })+
        }
    };
}
parts!(part_0 = 0, part_1 = 1, part_2 = 2, part_3 = 3, part_4 = 4, part_5 = 5);

fn run_part(part: usize, parts: usize) {
    corpus().iter().skip(part).step_by(parts).for_each(|path| run_game(path));
}
