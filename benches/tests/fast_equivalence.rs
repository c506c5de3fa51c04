//! The fast engine against the reference engine on every corpus game: equal perft counts (and equal
//! to the published or independent counts in `perft.toml`), equal legal moves (tags) and successor
//! states along seeded random playouts, equal playout reports and equal observations.

use regula_benches::corpus::{load_corpus, CorpusGame};
use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::fast::FastEngine;
use regula_runtime::perft::perft_sequential;
use regula_runtime::playout::{run_playouts, PlayoutConfig, Xoshiro256};
use regula_runtime::reference::ReferenceEngine;
use std::sync::OnceLock;
use std::time::Instant;

/// Perft goes one depth deeper while the next depth is expected to have fewer nodes than this.
const PERFT_NODE_BUDGET: u64 = 20_000;
/// Random playouts compared move by move per game, stopping early (after at least
/// [`MIN_PLAYOUTS`]) once this many successors have been compared.
const PLAYOUTS_PER_GAME: u64 = 60;
const MIN_PLAYOUTS: u64 = 3;
const SUCCESSOR_BUDGET: u64 = 40_000;

/// The corpus in interleaved parts, one `#[test]` each, so the harness spreads the games over every
/// core: part `k` of `n` checks the games whose place in the loaded corpus is `k` modulo `n` (the
/// part count is the length of the list, so every game is in exactly one part).
macro_rules! parts {
    ($($part:ident = $index:literal),+) => {
        mod fast_engine_agrees_with_reference_on_the_corpus {
            const PARTS: usize = [$($index),+].len();
            $(#[test]
            fn $part() {
                super::check_part($index, PARTS);
            })+
        }
    };
}
parts!(part_0 = 0, part_1 = 1, part_2 = 2, part_3 = 3, part_4 = 4, part_5 = 5);

/// The corpus, loaded once by whichever part asks first (`REGULA_GAME=name` loads only that game).
fn corpus() -> &'static [CorpusGame] {
    static CORPUS: OnceLock<Vec<CorpusGame>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let (games, skipped) = load_corpus(std::env::var("REGULA_GAME").ok().as_deref());
        for skip in &skipped {
            eprintln!("skipped {}: {}", skip.name, skip.reason);
        }
        games
    })
}

fn check_part(part: usize, parts: usize) {
    let corpus = corpus();
    assert!(!corpus.is_empty(), "no corpus game loaded");
    let games: Vec<&CorpusGame> = corpus.iter().skip(part).step_by(parts).collect();
    let mut total_playouts = 0;
    for game in &games {
        let started = Instant::now();
        let reference = ReferenceEngine::new(game.automaton.clone()).expect("reference engine");
        let fast = FastEngine::new(game.automaton.clone()).expect("fast engine");

        // Perft, deepening while cheap: the reference, the fast engine through the generic
        // perft, and the fast engine's own perft must agree with each other and with perft.toml.
        let mut depth = 0;
        loop {
            let expected = perft_sequential(&reference, depth).expect("reference perft");
            assert_eq!(perft_sequential(&fast, depth).expect("fast perft"), expected, "{} generic perft", game.name);
            assert_eq!(fast.perft(depth).expect("fast own perft"), expected, "{} fast perft", game.name);
            let known = game.expected.len().min(depth + 1);
            assert_eq!(expected[..known], game.expected[..known], "{} perft.toml", game.name);
            let branching = if depth == 0 { expected[0] } else { expected[depth] / expected[depth - 1].max(1) + 1 };
            if expected[depth] == 0 || expected[depth] * branching >= PERFT_NODE_BUDGET || depth >= 12 {
                break;
            }
            depth += 1;
        }

        // Move-by-move playouts.
        let mut positions = 0u64;
        let mut compared = 0u64;
        let mut scratch = fast.scratch();
        let mut playouts = 0;
        let mut history_for_observation = Vec::new();
        while playouts < PLAYOUTS_PER_GAME && (playouts < MIN_PLAYOUTS || compared < SUCCESSOR_BUDGET) {
            let mut rng = Xoshiro256::for_playout(17, playouts);
            let mut r_state = reference.start().expect("reference start");
            let mut f_state = fast.start().expect("fast start");
            let mut history = Vec::new();
            loop {
                assert_eq!(r_state.values(), f_state.values(), "{}: states differ after {history:?}", game.name);
                assert_eq!(r_state.node(), f_state.node(), "{}: nodes differ", game.name);
                let mover = reference.to_move(&r_state);
                assert_eq!(mover, fast.to_move(&f_state));
                positions += 1;
                if mover == Mover::Terminal || history.len() > 2_000 {
                    assert_eq!(reference.scores(&r_state), fast.scores(&f_state));
                    break;
                }
                let r_moves = reference.successors(&r_state).expect("reference successors");
                let f_moves = fast.successors(&f_state).expect("fast successors");
                let r_tags: Vec<_> = r_moves.iter().map(|(m, _)| m.clone()).collect();
                let f_tags: Vec<_> = f_moves.iter().map(|(m, _)| m.clone()).collect();
                assert_eq!(r_tags, f_tags, "{}: moves differ after {history:?}", game.name);
                for ((_, r), (_, f)) in r_moves.iter().zip(&f_moves) {
                    assert_eq!(r.values(), f.values(), "{}: successors differ", game.name);
                }
                compared += r_moves.len() as u64;
                let pick = rng.below(r_moves.len() as u64) as usize;
                let tags = r_moves[pick].0.clone();
                // The index-based API lists the same moves and successors.
                fast.generate(&f_state, &mut scratch).expect("fast generate");
                assert_eq!(scratch.moves.len(), r_moves.len());
                assert_eq!(scratch.moves.tags(pick), &tags[..]);
                let by_index = fast.successor(&mut scratch, pick).expect("fast successor").expect("in range");
                assert_eq!(by_index.values(), r_moves[pick].1.values());
                // `apply` (a restricted search) must agree with the listed successor.
                f_state = fast.apply(&f_state, &tags).expect("fast apply");
                assert_eq!(f_state.values(), f_moves[pick].1.values());
                r_state = r_moves.into_iter().nth(pick).expect("picked").1;
                history.push(tags);
            }
            if history.len() > history_for_observation.len() {
                history_for_observation = history;
            }
            playouts += 1;
        }
        total_playouts += playouts;

        // Observations of the longest playout, for every player.
        for player in 0..game.automaton.players.len() {
            assert_eq!(
                reference.observation(&history_for_observation, player).expect("reference observation"),
                fast.observation(&history_for_observation, player).expect("fast observation"),
                "{}: observations of player {player}",
                game.name
            );
        }

        // The fast playout path makes the same choices as the generic runner.
        let config = PlayoutConfig { count: 20, seed: 5, threads: 1, ..Default::default() };
        let generic = run_playouts(&reference, &config).expect("reference playouts");
        let own = fast.run_playouts(&PlayoutConfig { threads: 2, ..config.clone() }).expect("fast playouts");
        assert_eq!(generic.score_distribution, own.score_distribution, "{}", game.name);
        // Playouts that list tags only and re-search the picked move make the same choices.
        let tags_only = FastEngine::new(game.automaton.clone()).expect("fast engine").with_tags_only_above(0);
        let short = PlayoutConfig { count: 5, ..config.clone() };
        assert_eq!(
            run_playouts(&reference, &short).expect("reference playouts").score_distribution,
            tags_only.run_playouts(&short).expect("tags-only playouts").score_distribution,
            "{}: tags-only playouts",
            game.name
        );
        assert_eq!(
            (generic.total_plies, generic.total_chance_moves),
            (own.total_plies, own.total_chance_moves),
            "{}",
            game.name
        );
        eprintln!(
            "{}: perft to depth {depth}, {playouts} playouts ({positions} positions) agree, {:.1} s",
            game.name,
            started.elapsed().as_secs_f64()
        );
    }
    assert!(total_playouts >= 3 * games.len() as u64, "too few playouts compared: {total_playouts}");
}
