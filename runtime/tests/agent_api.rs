//! The agent API on hand-worked cases: action spaces of corpus games, chance outcomes of Pig,
//! Goofspiel's hidden bids (observations and consistent-state sampling), and a hand-built game
//! whose secret reaches a public-looking variable only through a branch (implicit flow).

use regula_runtime::agent::{ActionSpace, AgentError, CurrentPlayer, Game};
use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::playout::Xoshiro256;
use std::collections::BTreeSet;

fn corpus_game(path: &str) -> Game {
    let full = format!("{}/../games/{path}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&full).unwrap();
    let name = path.rsplit('/').next().unwrap();
    Game::fast(regula_compiler::load(name, &source).unwrap().automaton).unwrap()
}

#[test]
fn tictactoe_actions_are_the_empty_move_and_the_nine_cells() {
    let game = corpus_game("tictactoe/tictactoe.rg");
    assert_eq!(game.num_distinct_actions(), Some(10));
    let names: Vec<String> = (0..10).map(|a| game.action_to_string(a).unwrap()).collect();
    // The keeper's empty move sorts first; the cells follow in symbol order (declaration order).
    assert_eq!(names, ["", "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]);
    let mut state = game.new_initial_state();
    assert_eq!(state.legal_actions().unwrap(), (1..10).collect::<Vec<_>>());
    let mask = state.legal_actions_mask().unwrap();
    assert_eq!(mask, [false, true, true, true, true, true, true, true, true, true]);
    state.apply_action(game.string_to_action("b2").unwrap()).unwrap();
    assert_eq!(state.current_player(), CurrentPlayer::Player(1));
    assert_eq!(state.legal_actions().unwrap(), [1, 2, 3, 4, 6, 7, 8, 9]);
    assert!(matches!(state.apply_action(5), Err(AgentError::IllegalAction { action: 5, .. })));
    assert!(matches!(state.apply_action(10), Err(AgentError::IllegalAction { action: 10, .. })));
    assert!(matches!(state.apply_action(0), Err(AgentError::IllegalAction { action: 0, .. })));
    assert_eq!(state.serialize(), "/b2/");
    // x plays the first column while o plays b1 and c1... x wins with a1 a2 a3.
    for cell in ["b1", "a1", "c1", "a2", "c2", "a3"] {
        state.apply_action(state.string_to_action(cell).unwrap()).unwrap();
    }
    assert!(state.is_terminal());
    assert_eq!(state.current_player().id(), -4);
    assert_eq!(state.returns(), [100.0, 0.0]);
    assert_eq!(state.rewards(), [100.0, 0.0]);
    assert_eq!((game.min_utility(), game.max_utility()), (0.0, 100.0));
    assert_eq!(state.history(), [5, 2, 1, 3, 4, 6, 7]);
    let restored = game.deserialize_state(&state.serialize()).unwrap();
    assert_eq!(restored.engine_state(), state.engine_state());
    assert!(matches!(game.deserialize_state("/b2/b2/"), Err(AgentError::BadSerialization { .. })));
}

#[test]
fn pig_has_six_equally_likely_faces() {
    let game = corpus_game("dice/dice.rg");
    // The empty move, roll, hold and the seven members of `FaceOrNone` (`none` never occurs: the
    // space ignores guards and values, it lists what the tags' types allow).
    assert_eq!(game.num_distinct_actions(), Some(10));
    let mut state = game.new_initial_state();
    state.apply_action(state.string_to_action("roll").unwrap()).unwrap();
    assert!(state.is_chance_node());
    assert_eq!(state.current_player().id(), -1);
    let outcomes = state.chance_outcomes().unwrap();
    let faces: Vec<String> = outcomes.iter().map(|(a, _)| state.action_to_string(*a).unwrap()).collect();
    assert_eq!(faces, ["1", "2", "3", "4", "5", "6"]);
    assert!(outcomes.iter().all(|(_, p)| (*p - 1.0 / 6.0).abs() < 1e-12));
    assert!(state.legal_actions().unwrap().iter().all(|a| outcomes.iter().any(|(b, _)| a == b)));
}

#[test]
fn draughts_falls_back_to_per_state_ids() {
    let game = corpus_game("draughts/draughts.hrg");
    assert_eq!(game.action_space(), &ActionSpace::PerState { reason: regula_runtime::agent::Unbounded::TagCycle });
    assert_eq!(game.num_distinct_actions(), None);
    let state = game.new_initial_state();
    let legal = state.legal_actions().unwrap();
    assert_eq!(legal, (0..legal.len()).collect::<Vec<_>>());
    let names: Vec<String> = legal.iter().map(|&a| state.action_to_string(a).unwrap()).collect();
    let mut sorted_by_tags = state.legal_moves().unwrap().iter().map(|(_, m)| m.clone()).collect::<Vec<_>>();
    sorted_by_tags.sort();
    assert_eq!(state.legal_moves().unwrap().iter().map(|(_, m)| m.clone()).collect::<Vec<_>>(), sorted_by_tags);
    assert_eq!(names.len(), legal.len());
    assert!(matches!(state.legal_actions_mask(), Err(AgentError::NoGameWideActionSpace { .. })));
}

#[test]
fn goofspiel_hides_the_first_players_bids_from_the_second() {
    let game = corpus_game("hidden/hidden.rg");
    assert!(game.has_hidden_information());
    let mut state = game.new_initial_state();
    assert!(state.is_chance_node());
    assert_eq!(state.chance_outcomes().unwrap().len(), 4);
    for card in ["3", "2", "4", "1"] {
        state.apply_action(state.string_to_action(card).unwrap()).unwrap();
    }
    // Prize 3, first bids 2, second bids 4 (second wins 3 points), prize 1; first to bid.
    assert_eq!(state.information_state_string(0).unwrap(), "/keeper:/random:3/first:2/second:4/keeper:/random:1/");
    assert_eq!(state.information_state_string(1).unwrap(), "/keeper:/random:3/first:?/second:4/keeper:/random:1/");
    let second_sees = state.observation_string(1).unwrap();
    for line in ["hand = {first: ?, second: {4: 0, :1}, :{:1}}", "points = {first: ?, second: ?, :0}", "prize = 1"] {
        assert!(second_sees.lines().any(|l| l == line), "{line} in\n{second_sees}");
    }
    // Reset by the keeper after the round, so public again.
    assert!(second_sees.lines().any(|l| l == "bid = none"), "{second_sees}");
    let first_sees = state.observation_string(0).unwrap();
    assert!(first_sees.lines().any(|l| l == "points = {second: 3, :0}"), "{first_sees}");
    assert!(!first_sees.contains('?'), "the first player sees everything:\n{first_sees}");

    // Resampling for the second player changes the first player's hidden bid, nothing else.
    let mut rng = Xoshiro256::from_seed(11);
    let mut first_bids = BTreeSet::new();
    for _ in 0..40 {
        let sampled = state.sample_consistent_state(1, &mut rng).unwrap();
        let history = sampled.serialize();
        let moves: Vec<&str> = history.trim_matches('/').split('/').collect();
        assert_eq!((moves[0], moves[2], moves[3]), ("3", "4", "1"), "{history}");
        first_bids.insert(moves[1].to_string());
        assert_eq!(sampled.information_state_string(1).unwrap(), state.information_state_string(1).unwrap());
        assert_eq!(sampled.observation_tensor(1).unwrap(), state.observation_tensor(1).unwrap());
        assert_eq!(sampled.observation_string(1).unwrap(), second_sees);
        assert_eq!(sampled.information_state_key(1).unwrap(), state.information_state_key(1).unwrap());
        // The first player saw its own bid, so a different bid is a different information state.
        let first_key_equal = sampled.information_state_key(0).unwrap() == state.information_state_key(0).unwrap();
        assert_eq!(first_key_equal, moves[1] == "2", "{history}");
    }
    // Any of the four cards could have been bid: all of them come up in 40 samples.
    assert_eq!(first_bids.into_iter().collect::<Vec<_>>(), ["1", "2", "3", "4"]);
    // The first player saw everything: the only consistent state is the state itself.
    let own = state.sample_consistent_state(0, &mut rng).unwrap();
    assert_eq!(own.engine_state(), state.engine_state());
}

/// `random` deals x a secret card that o does not see; the keeper then records in `high` whether
/// the card is `c3` (a branch on the secret, no data flow), and o guesses the card.
fn secret_card_game() -> Game {
    let automaton = AutomatonBuilder::new()
        .typedef("Player", "{x, o}")
        .typedef("Score", "{0, 1}")
        .typedef("Card", "{c1, c2, c3}")
        .variable("secret", "Card", "c1")
        .variable("guess", "Card", "c1")
        .variable("high", "Bool", "0")
        .edge("begin", "hide", "visible[o] = 0")
        .edge("hide", "deal", "player = random")
        .edge("deal", "dealt", "secret = Card(*)")
        .edge("dealt", "tagged", "$$ secret")
        .edge("tagged", "shown", "visible[o] = 1")
        .edge("shown", "judge", "player = keeper")
        .edge("judge", "isHigh", "secret == c3")
        .edge("isHigh", "judged", "high = 1")
        .edge("judge", "judged", "secret != c3")
        .edge("judged", "guessing", "player = o")
        .edge("guessing", "guessed", "guess = Card(*)")
        .edge("guessed", "said", "$$ guess")
        .edge("said", "check", "player = keeper")
        .edge("check", "right", "guess == secret")
        .edge("right", "over", "goals[o] = 1")
        .edge("check", "over", "guess != secret")
        .edge("over", "end", "player = keeper")
        .build()
        .unwrap();
    Game::fast(automaton).unwrap()
}

#[test]
fn a_branch_on_a_secret_hides_what_it_assigns() {
    let game = secret_card_game();
    let mut state = game.new_initial_state();
    assert!(state.is_chance_node());
    state.apply_action(state.string_to_action("c3").unwrap()).unwrap();
    assert_eq!(state.current_player(), CurrentPlayer::Player(1));
    let o_sees = state.observation_string(1).unwrap();
    assert!(o_sees.lines().any(|l| l == "secret = ?"), "{o_sees}");
    assert!(o_sees.lines().any(|l| l == "high = ?"), "{o_sees}");
    assert!(o_sees.lines().any(|l| l == "guess = c1"), "{o_sees}");
    let x_sees = state.observation_string(0).unwrap();
    assert!(x_sees.lines().any(|l| l == "secret = c3") && x_sees.lines().any(|l| l == "high = 1"), "{x_sees}");
    assert_eq!(state.information_state_string(1).unwrap(), "/keeper:/random:?/keeper:/");
    assert_eq!(state.information_state_string(0).unwrap(), "/keeper:/random:c3/keeper:/");

    let mut rng = Xoshiro256::from_seed(3);
    let mut secrets = BTreeSet::new();
    for _ in 0..30 {
        let sampled = state.sample_consistent_state(1, &mut rng).unwrap();
        secrets.insert(sampled.serialize());
        assert_eq!(sampled.observation_tensor(1).unwrap(), state.observation_tensor(1).unwrap());
    }
    assert_eq!(secrets.into_iter().collect::<Vec<_>>(), ["/c1/", "/c2/", "/c3/"]);

    // o guesses right; the tensors of x and o differ only where o is blind.
    state.apply_action(state.string_to_action("c3").unwrap()).unwrap();
    assert!(state.is_terminal());
    assert_eq!(state.returns(), [0.0, 1.0]);
    assert!(matches!(state.sample_consistent_state(2, &mut rng), Err(AgentError::NoSuchPlayer { player: 2, .. })));
}

#[test]
fn sampling_reports_an_exhausted_budget() {
    let game = secret_card_game();
    let mut state = game.new_initial_state();
    state.apply_action(state.string_to_action("c2").unwrap()).unwrap();
    let mut rng = Xoshiro256::from_seed(5);
    match state.sample_consistent_state_with_budget(1, &mut rng, 0) {
        Err(AgentError::NoConsistentState { player: 1, tried: 0, exhausted: false }) => {}
        other => panic!("expected a budget error, got {other:?}"),
    }
}

#[test]
fn negative_scores_are_returned_as_they_are() {
    // x picks `lose` (-2 for x, 2 for o) or `win`: a zero-sum game with negative numerals, as the
    // card translator writes them (the builder's names `m2` are renamed to `-2` afterwards).
    let mut automaton = AutomatonBuilder::new()
        .typedef("Player", "{x, o}")
        .typedef("Score", "{m2, 0, 2}")
        .edge("begin", "turn", "player = x")
        .edge("turn", "a", "$ lose")
        .edge("a", "a1", "goals[x] = m2")
        .edge("a1", "a2", "goals[o] = 2")
        .edge("a2", "end", "player = keeper")
        .edge("turn", "b", "$ win")
        .edge("b", "b1", "goals[x] = 2")
        .edge("b1", "b2", "goals[o] = m2")
        .edge("b2", "end", "player = keeper")
        .build()
        .unwrap();
    let minus_two = automaton.symbol_id("m2").unwrap();
    automaton.symbols[minus_two as usize] = "-2".to_string();
    let game = Game::fast(automaton).unwrap();
    assert_eq!((game.min_utility(), game.max_utility()), (-2.0, 2.0));
    let mut state = game.new_initial_state();
    state.apply_action(state.string_to_action("lose").unwrap()).unwrap();
    assert_eq!(state.returns(), [-2.0, 2.0]);
    assert_eq!(state.rewards(), [-2.0, 2.0]);
}
