//! Random small automata over every label kind: the engine must never panic, and independent
//! paths through it must agree — parallel and sequential perft (errors included), and `apply`
//! (a search restricted to one move's tags) against `successors` (the full search).

use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::perft::{perft, perft_sequential};
use regula_runtime::playout::{run_playouts, PlayoutConfig, Xoshiro256};
use regula_runtime::reference::ReferenceEngine;

const NODES: [&str; 8] = ["begin", "end", "n0", "n1", "n2", "n3", "n4", "n5"];
const LABELS: [&str; 24] = [
    "",
    "v = a",
    "v = b",
    "v = w",
    "w = v",
    "v = m[v]",
    "m[v] = w",
    "m = copy",
    "v = V(*)",
    "w = K(*)",
    "v == w",
    "v != a",
    "m[a] == v",
    "m != copy",
    "$ t1",
    "$ t2",
    "$$ v",
    "$$ m[w]",
    "player = x",
    "player = o",
    "player = random",
    "player = keeper",
    "REACH",
    "NOT_REACH",
];

fn pick<'a>(rng: &mut Xoshiro256, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn random_engine(rng: &mut Xoshiro256) -> ReferenceEngine {
    let mut b = AutomatonBuilder::new();
    b.typedef("Player", "{x, o}")
        .typedef("Score", "{0, 1}")
        .typedef("V", "{a, b, c}")
        .typedef("K", "{a, b}")
        .typedef("M", "K -> V")
        .constant("copy", "M", "{a: c, :b}")
        .variable("v", "V", "a")
        .variable("w", "V", "b")
        .variable("m", "M", "{:a}");
    // Half the games hand the first move to a player at once, so that many have real moves.
    b.edge("begin", "n0", if rng.below(2) == 0 { "player = x" } else { "" });
    let edges = 6 + rng.below(10);
    for _ in 0..edges {
        let from = pick(rng, &NODES[2..]);
        let to = pick(rng, &NODES[1..]);
        let label = match pick(rng, &LABELS) {
            "REACH" => format!("? {} -> {}", pick(rng, &NODES[2..]), pick(rng, &NODES[2..])),
            "NOT_REACH" => format!("! {} -> {}", pick(rng, &NODES[2..]), pick(rng, &NODES[2..])),
            label => label.to_string(),
        };
        b.edge(from, to, &label);
    }
    // Give most games a way out.
    if rng.below(4) != 0 {
        b.edge(pick(rng, &NODES[2..]), "end", "player = keeper");
    }
    ReferenceEngine::new(b.build().expect("the pool only has valid labels")).expect("builder output is well formed")
}

#[test]
fn random_automata_never_panic_and_independent_paths_agree() {
    let mut rng = Xoshiro256::from_seed(99);
    let (mut started, mut with_moves, mut failed) = (0, 0, 0);
    for _ in 0..400 {
        let engine = random_engine(&mut rng);
        assert_eq!(perft(&engine, 3), perft_sequential(&engine, 3));
        let Ok(start) = engine.start() else {
            failed += 1;
            continue;
        };
        started += 1;
        if let Ok(successors) = engine.successors(&start) {
            with_moves += usize::from(!successors.is_empty());
            for (tags, successor) in &successors {
                assert_eq!(engine.apply(&start, tags).as_ref(), Ok(successor));
            }
            if engine.to_move(&start) == Mover::Random {
                let outcomes = engine.chance_outcomes(&start).unwrap();
                let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9);
            }
        }
        let config = PlayoutConfig { count: 4, seed: 1, threads: 1, max_moves: 40 };
        let one = run_playouts(&engine, &config).map(|r| r.score_distribution);
        let two = run_playouts(&engine, &PlayoutConfig { threads: 2, ..config }).map(|r| r.score_distribution);
        assert_eq!(one, two);
    }
    // The generator produces a useful mix: games that start, games with moves, and failures.
    eprintln!("{started} started, {with_moves} with moves, {failed} failed at the start");
    assert!(started > 50 && with_moves > 30 && failed > 20, "{started} {with_moves} {failed}");
}
