//! Dou Dizhu written in the card rule language against the independent plain-Rust rules in
//! `oracles/src/doudizhu.rs`: along seeded random games, every legal move set of the compiled
//! game equals the oracle's (plays as card counts, plus pass); scores are zero-sum (negative
//! numerals) with the landlord's score -2x each peasant's; observations hide other players' deals.

use regula_oracles::doudizhu::{self as oracle, Hand, Play};
use regula_runtime::engine::{ForwardModel, Mover, Observed};
use regula_runtime::reference::ReferenceEngine;

fn engine() -> ReferenceEngine {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/doudizhu/doudizhu.cards");
    let source = std::fs::read_to_string(path).unwrap();
    let loaded = regula_compiler::load("doudizhu.cards", &source).unwrap_or_else(|e| panic!("{e:#?}"));
    ReferenceEngine::new(loaded.automaton).unwrap()
}

/// The rank index (oracle numbering) of a card or kind name: `H3`, `C0`, `JB`, `3`, `0`.
fn rank_of(name: &str) -> usize {
    match name {
        "JS" => 13,
        "JB" => 14,
        _ => {
            let r = name.chars().last().unwrap();
            "34567890JQKA2".find(r).unwrap_or_else(|| panic!("rank of {name}"))
        }
    }
}

/// A play move's cards: tags after the class name, each a kind repeated (`333`, `JB`).
fn cards_of(tags: &[String]) -> Hand {
    let mut hand = [0u8; 15];
    for tag in &tags[1..] {
        if tag == "JS" || tag == "JB" {
            hand[rank_of(tag)] += 1;
        } else {
            hand[rank_of(&tag[..1])] += tag.len() as u8;
        }
    }
    hand
}

/// A small deterministic generator (xorshift), so that the test needs no dependency.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn legal_plays_agree_with_the_independent_rules_along_random_games() {
    let engine = engine();
    let automaton = engine.automaton().clone();
    let name = |m: &[u32]| -> Vec<String> { m.iter().map(|&s| automaton.symbol_name(s).to_string()).collect() };
    let mut checked = 0;
    let mut landlord_results = Vec::new();
    for seed in 1..=6u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut state = engine.start().unwrap();
        let mut hands = [[0u8; 15]; 4];
        let (mut dealt, mut host) = (0usize, 0usize);
        let (mut last, mut owner): (Option<Play>, usize) = (None, 0);
        loop {
            let mover = engine.to_move(&state);
            if mover == Mover::Terminal {
                break;
            }
            let moves = engine.moves(&state).unwrap();
            let named: Vec<Vec<String>> = moves.iter().map(|m| name(m)).collect();
            let chosen = rng.below(moves.len());
            let tags = named[chosen].clone();
            match mover {
                Mover::Random => {
                    // 51 cards round the table from player 1, then the kitty to the landlord.
                    if dealt == 54 || (dealt == 51 && host == 0) {
                        hands = [[0u8; 15]; 4];
                        dealt = 0;
                    }
                    let to = if dealt < 51 { dealt % 3 + 1 } else { host };
                    hands[to][rank_of(&tags[0])] += 1;
                    dealt += 1;
                }
                Mover::Player(p) => {
                    let p = p + 1;
                    if named.iter().any(|m| m[0].starts_with("bid")) {
                        // Bidding: the last player to bid becomes the landlord.
                        if tags[0].starts_with("bid") {
                            host = p;
                        }
                    } else {
                        // Play: compare the legal sets.
                        if owner == p {
                            last = None;
                        }
                        let mut expected: Vec<Hand> = oracle::legal_plays(&hands[p], last.as_ref());
                        expected.sort();
                        let mut got: Vec<Hand> = named.iter().filter(|m| m[0] != "pass").map(|m| cards_of(m)).collect();
                        got.sort();
                        assert_eq!(
                            got.len(),
                            expected.len(),
                            "seed {seed}: player {p} with {:?} on {last:?}",
                            hands[p]
                        );
                        assert_eq!(got, expected, "seed {seed}: player {p}");
                        assert_eq!(named.iter().any(|m| m[0] == "pass"), last.is_some(), "pass only when following");
                        checked += 1;
                        if tags[0] != "pass" {
                            let cards = cards_of(&tags);
                            for r in 0..15 {
                                hands[p][r] -= cards[r];
                            }
                            last = oracle::classify(&cards);
                            owner = p;
                        }
                    }
                }
                _ => {}
            }
            state = engine.apply(&state, &moves[chosen]).unwrap();
        }
        let scores: Vec<i64> = engine.scores(&state).iter().map(|s| s.value).collect();
        assert_eq!(scores.iter().sum::<i64>(), 0, "seed {seed}: scores {scores:?} are not zero-sum");
        if host != 0 {
            // The landlord wins or loses 2 x stake, each peasant the opposite 1 x stake (stake >= 1).
            let landlord = scores[host - 1];
            let peasants: Vec<i64> = (1..=3).filter(|&p| p != host).map(|p| scores[p - 1]).collect();
            assert!(landlord != 0 && peasants.iter().all(|&s| s * -2 == landlord), "seed {seed}: {scores:?}");
            landlord_results.push(landlord);
        }
    }
    assert!(checked > 50, "only {checked} play decisions checked");
    assert!(!landlord_results.is_empty(), "no game had a landlord");
}

#[test]
fn a_player_observes_only_their_own_deals() {
    let engine = engine();
    let mut history = Vec::new();
    let mut state = engine.start().unwrap();
    for _ in 0..6 {
        let moves = engine.moves(&state).unwrap();
        state = engine.apply(&state, &moves[0]).unwrap();
        history.push(moves[0].clone());
    }
    // Deals go to players 1, 2, 3, 1, 2, 3: player 1 (index 0) sees the 1st and 4th cards only.
    let seen: Vec<bool> = engine
        .observation(&history, 0)
        .unwrap()
        .into_iter()
        .filter(|o| {
            !matches!(o, Observed::Seen { mover: Mover::Keeper, .. } | Observed::Hidden { mover: Mover::Keeper })
        })
        .map(|o| matches!(o, Observed::Seen { .. }))
        .collect();
    assert_eq!(seen, [true, false, false, true, false, false]);
}
