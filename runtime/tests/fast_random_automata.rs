//! The fast engine against the reference engine on thousands of random small automata: equal
//! perft results (errors included), equal successors (tags and slots), equal `apply`, and the fast
//! playout path equal to the generic playout runner on the reference engine.

use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::engine::ForwardModel;
use regula_runtime::fast::FastEngine;
use regula_runtime::perft::perft_sequential;
use regula_runtime::playout::{run_playouts, PlayoutConfig, Xoshiro256};
use regula_runtime::reference::ReferenceEngine;

const NODES: [&str; 9] = ["begin", "end", "p", "q", "r", "s", "t", "u", "w"];
/// Labels over a set `Digit`, a map keyed by `Key` and one keyed by `Yek` (the same keys in the
/// other order, so map copies and comparisons convert key by key), with keys outside the domain.
const LABELS: [&str; 27] = [
    "",
    "d = one",
    "d = two",
    "d = e",
    "e = d",
    "d = Digit(*)",
    "e = Key(*)",
    "d = table[e]",
    "d = grid[d]",
    "grid[d] = e",
    "grid[e] = zero",
    "grid = flip",
    "flip = grid",
    "grid = fixed",
    "d == e",
    "d != zero",
    "grid == flip",
    "grid[e] == d",
    "flip[d] != two",
    "$ left",
    "$ right",
    "$$ d",
    "player = x",
    "player = o",
    "player = random",
    "player = keeper",
    "REACH",
];

fn pick<'a>(rng: &mut Xoshiro256, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn random_automaton(rng: &mut Xoshiro256) -> regula_runtime::automaton::Automaton {
    let mut b = AutomatonBuilder::new();
    b.typedef("Player", "{x, o}")
        .typedef("Score", "{0, 1}")
        .typedef("Digit", "{zero, one, two}")
        .typedef("Key", "{zero, one}")
        .typedef("Yek", "{one, zero}")
        .constant("table", "Key -> Digit", "{zero: two, :one}")
        .constant("fixed", "Key -> Digit", "{one: two, :zero}")
        .variable("d", "Digit", "zero")
        .variable("e", "Digit", "one")
        .variable("grid", "Key -> Digit", "{:zero}")
        .variable("flip", "Yek -> Digit", "{one: one, :two}");
    b.edge("begin", "p", if rng.below(3) == 0 { "" } else { "player = x" });
    for _ in 0..5 + rng.below(12) {
        let label = match pick(rng, &LABELS) {
            "REACH" => {
                let sign = if rng.below(2) == 0 { "?" } else { "!" };
                format!("{sign} {} -> {}", pick(rng, &NODES[2..]), pick(rng, &NODES[2..]))
            }
            label => label.to_string(),
        };
        b.edge(pick(rng, &NODES[2..]), pick(rng, &NODES[1..]), &label);
    }
    if rng.below(5) != 0 {
        b.edge(pick(rng, &NODES[2..]), "end", "player = keeper");
    }
    b.build().expect("the label pool is valid")
}

/// Random automata compared, all drawn from one seeded generator in a fixed order.
const ROUNDS: u64 = 2_000;

/// The rounds in interleaved parts, one `#[test]` each, so the harness runs them on every core: part
/// `k` of `n` checks the rounds whose number is `k` modulo `n` (the part count is the length of the
/// list, so every round is in exactly one part).
macro_rules! parts {
    ($($part:ident = $index:literal),+) => {
        mod fast_engine_equals_reference_on_random_automata {
            const PARTS: usize = [$($index),+].len();
            $(#[test]
            fn $part() {
                super::check_rounds($index, PARTS as u64);
            })+
        }
    };
}
parts!(part_0 = 0, part_1 = 1, part_2 = 2, part_3 = 3);

fn check_rounds(part: u64, parts: u64) {
    let mut rng = Xoshiro256::from_seed(2024);
    let (mut agreed_ok, mut agreed_err) = (0, 0);
    for round in 0..ROUNDS {
        // Every round draws its automaton, so each part sees the same automata as a single run would.
        let automaton = random_automaton(&mut rng);
        if round % parts != part {
            continue;
        }
        let reference = ReferenceEngine::new(automaton.clone()).expect("well formed");
        let fast = FastEngine::new(automaton).expect("well formed");

        let expected = perft_sequential(&reference, 3);
        assert_eq!(perft_sequential(&fast, 3), expected, "round {round}: generic perft");
        assert_eq!(fast.perft(3), expected, "round {round}: own perft");
        match expected {
            Ok(_) => agreed_ok += 1,
            Err(_) => agreed_err += 1,
        }

        let (r_start, f_start) = (reference.start(), fast.start());
        assert_eq!(r_start.as_ref().map(|s| s.values()), f_start.as_ref().map(|s| s.values()), "round {round}");
        let (Ok(r_start), Ok(f_start)) = (r_start, f_start) else { continue };
        let r_next = reference.successors(&r_start);
        let f_next = fast.successors(&f_start);
        match (&r_next, &f_next) {
            (Ok(r), Ok(f)) => {
                assert_eq!(r.len(), f.len(), "round {round}");
                for ((r_tags, r_state), (f_tags, f_state)) in r.iter().zip(f) {
                    assert_eq!(r_tags, f_tags, "round {round}");
                    assert_eq!(r_state.values(), f_state.values(), "round {round}");
                    assert_eq!(fast.apply(&f_start, f_tags).as_ref().map(|s| s.values()), Ok(f_state.values()));
                }
            }
            (r, f) => assert_eq!(r.as_ref().err(), f.as_ref().err(), "round {round}"),
        }

        let config = PlayoutConfig { count: 6, seed: round, threads: 1, max_moves: 30 };
        let generic = run_playouts(&reference, &config).map(|r| (r.score_distribution, r.total_plies));
        let own = fast.run_playouts(&config).map(|r| (r.score_distribution, r.total_plies));
        assert_eq!(generic, own, "round {round}: playouts");
        // The same with playouts listing tags only and re-searching the picked move.
        let fast = fast.with_tags_only_above(0);
        let own = fast.run_playouts(&config).map(|r| (r.score_distribution, r.total_plies));
        assert_eq!(generic, own, "round {round}: tags-only playouts");
    }
    eprintln!("part {part} of {parts}: {agreed_ok} automata agreed on counts, {agreed_err} on the error");
    // Both outcomes are common: a tenth of the rounds each, in every part.
    let enough = ROUNDS / parts / 10;
    assert!(agreed_ok > enough && agreed_err > enough, "{agreed_ok} {agreed_err}");
}
