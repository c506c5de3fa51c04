//! The agents on corpus games: hand-made tactical positions in tic-tac-toe and connect four, UCT
//! against random play, IS-MCTS and consistent worlds on the hidden-move game, and match
//! reproducibility across thread counts.

use regula_agents::arena::{run_match, MatchConfig};
use regula_agents::ismcts::IsMcts;
use regula_agents::{Agent, AgentSpec, SearchConfig, Turn};
use regula_runtime::agent::Game;
use regula_runtime::engine::{parse_history, ForwardModel, Mover};
use regula_runtime::fast::FastEngine;
use regula_runtime::playout::Xoshiro256;
use std::collections::BTreeSet;
use std::path::Path;

fn engine(relative: &str) -> FastEngine {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative);
    let text = std::fs::read_to_string(&path).unwrap();
    let loaded = regula_compiler::load(relative, &text).unwrap_or_else(|d| panic!("{relative}: {d:?}"));
    FastEngine::new(loaded.automaton).unwrap()
}

/// The move `agent` picks after `history`, for each of `seeds`.
fn choices(engine: &FastEngine, agent: &str, history: &str, seeds: std::ops::Range<u64>) -> BTreeSet<String> {
    let history = parse_history(engine.automaton(), history).unwrap();
    let state = engine.play(&history).unwrap();
    let Mover::Player(player) = engine.to_move(&state) else { panic!("no player to move") };
    seeds
        .map(|seed| {
            let mut agent = AgentSpec::parse(agent).unwrap().build::<FastEngine>();
            let turn = Turn { state: &state, history: &history, player };
            let chosen = agent.choose(engine, &turn, &mut Xoshiro256::from_seed(seed)).unwrap();
            engine.format_move(&chosen)
        })
        .collect()
}

fn only(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

#[test]
fn tictactoe_search_agents_take_the_win_and_block_the_loss() {
    let engine = engine("games/tictactoe/tictactoe.hrg");
    // x holds C(0,0) and C(0,1): C(0,2) wins at once (o also threatens row 1).
    let win = "/C__0_0/C__1_0/C__0_1/C__1_1/";
    // o holds C(1,0) and C(1,1); x has no win, so it must take C(1,2).
    let block = "/C__0_0/C__1_0/C__2_2/C__1_1/";
    for agent in ["uct:300", "flat:300"] {
        assert_eq!(choices(&engine, agent, win, 0..5), only(&["C__0_2"]), "{agent}");
        assert_eq!(choices(&engine, agent, block, 0..5), only(&["C__1_2"]), "{agent}");
    }
    // The random agent does not know better.
    assert!(choices(&engine, "random", block, 0..40).len() > 1);
}

#[test]
fn connect4_uct_takes_the_win_and_blocks_the_loss() {
    let engine = engine("games/connect4/connect4.hrg");
    // Red has three in column 0 (yellow three in column 1): K(0) wins.
    let win = "/K__0/K__1/K__0/K__1/K__0/K__1/";
    // Yellow has three in column 1 and red has no win: red must play K(1).
    let block = "/K__0/K__1/K__0/K__1/K__2/K__1/";
    assert_eq!(choices(&engine, "uct:1000", win, 0..3), only(&["K__0"]));
    assert_eq!(choices(&engine, "uct:1000", block, 0..3), only(&["K__1"]));
}

#[test]
fn uct_never_loses_tictactoe_to_random_play() {
    let engine = engine("games/tictactoe/tictactoe.hrg");
    let specs = [AgentSpec::parse("uct:500").unwrap(), AgentSpec::Random];
    let config = MatchConfig { games: 20, seed: 11, threads: 2, ..MatchConfig::default() };
    let report = run_match(&engine, &specs, &config, &|_, _| {}).unwrap();
    let uct = &report.agents[0];
    assert_eq!(uct.games, 20);
    assert_eq!(uct.losses, 0, "{uct:?}");
    // Random play rarely holds a draw against search; most games are won.
    assert!(uct.wins >= 14, "{uct:?}");
    // UCT played x in the even games and o in the odd ones.
    assert!(report.games.iter().all(|g| g.seats == if g.game % 2 == 0 { [0, 1] } else { [1, 0] }));
}

#[test]
fn a_match_is_the_same_on_one_thread_and_on_three() {
    let engine = engine("games/tictactoe/tictactoe.hrg");
    let specs = [AgentSpec::parse("uct:40").unwrap(), AgentSpec::parse("flat:20").unwrap()];
    let config = MatchConfig { games: 7, seed: 3, threads: 1, ..MatchConfig::default() };
    let one = run_match(&engine, &specs, &config, &|_, _| {}).unwrap();
    let three = run_match(&engine, &specs, &MatchConfig { threads: 3, ..config.clone() }, &|_, _| {}).unwrap();
    assert_eq!(one.games, three.games);
    assert_eq!(one.agents, three.agents);
    // Another seed plays other games.
    let other = run_match(&engine, &specs, &MatchConfig { seed: 4, ..config }, &|_, _| {}).unwrap();
    assert_ne!(
        one.games.iter().map(|g| &g.history).collect::<Vec<_>>(),
        other.games.iter().map(|g| &g.history).collect::<Vec<_>>()
    );
}

#[test]
fn ismcts_plays_the_hidden_game_and_beats_random_play() {
    let engine = engine("games/hidden/hidden.rg");
    let config = SearchConfig { simulations: 300, ..SearchConfig::default() };
    let specs = [AgentSpec::parse_with("ismcts", config).unwrap(), AgentSpec::Random];
    let match_config = MatchConfig { games: 20, seed: 5, threads: 2, ..MatchConfig::default() };
    let report = run_match(&engine, &specs, &match_config, &|_, _| {}).unwrap();
    let (ismcts, random) = (&report.agents[0], &report.agents[1]);
    assert_eq!(ismcts.wins + ismcts.draws + ismcts.losses, 20);
    assert!(ismcts.wins > random.wins, "{ismcts:?} against {random:?}");
}

#[test]
fn worlds_keep_the_seen_moves_and_cover_every_hidden_pair_of_bids() {
    let engine = engine("games/hidden/hidden.rg");
    // Two rounds; first's two bids (3, then 1) are hidden from second, who is to move.
    let game = Game::fast(engine.automaton().clone()).unwrap();
    let state = game.deserialize_state("/2/3/4/1/1/").unwrap();
    let mut rng = Xoshiro256::from_seed(21);
    let mut worlds = BTreeSet::new();
    for _ in 0..400 {
        let world = state.sample_consistent_state(1, &mut rng).unwrap();
        assert_eq!(world.information_state_key(1).unwrap(), state.information_state_key(1).unwrap());
        let moves: Vec<String> = world.history_moves().iter().map(|m| engine.format_move(m)).collect();
        assert_eq!([&moves[0], &moves[2], &moves[3]], ["2", "4", "1"], "moves second saw are kept");
        worlds.insert((moves[1].clone(), moves[4].clone()));
    }
    // First's two bids: any two different cards, 12 ordered pairs.
    assert_eq!(worlds.len(), 12, "{worlds:?}");
    assert!(worlds.iter().all(|(a, b)| a != b));
}

#[test]
fn ismcts_bids_its_highest_card_for_the_highest_prize() {
    let engine = engine("games/hidden/hidden.rg");
    // Prize 4 (of 10 points in all) is up and second bids after a hidden bid: bidding 4 can never
    // lose the prize (at worst it ties).
    let history = parse_history(engine.automaton(), "/4/2/").unwrap();
    let state = engine.play(&history).unwrap();
    let config = SearchConfig { simulations: 400, ..SearchConfig::default() };
    let mut agent = IsMcts::new(config);
    let turn = Turn { state: &state, history: &history, player: 1 };
    for seed in 0..3 {
        let chosen = agent.choose(&engine, &turn, &mut Xoshiro256::from_seed(seed)).unwrap();
        assert_eq!(engine.format_move(&chosen), "4", "seed {seed}");
    }
}
