//! End-to-end tests of `regula play`: matches (reproducible, JSON and text) and a person playing
//! through piped standard input (illegal input rejected, end of input quits cleanly).

use crate::support::{regula, regula_with_input, stderr, stdout};

const TICTACTOE: &str = "games/tictactoe/tictactoe.hrg";
const HIDDEN: &str = "games/hidden/hidden.rg";

#[test]
fn a_match_reports_rates_and_is_the_same_on_any_thread_count() {
    let args = |threads: &'static str| {
        ["play", TICTACTOE, "--agents", "uct:200,random", "--games", "6", "--threads", threads, "--json", "--no-timing"]
    };
    let one = regula(&args("1"));
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let two = regula(&args("2"));
    let mut report: serde_json::Value = serde_json::from_str(&stdout(&one)).unwrap();
    let mut again: serde_json::Value = serde_json::from_str(&stdout(&two)).unwrap();
    assert_eq!((report["threads"].take(), again["threads"].take()), (1.into(), 2.into()));
    assert_eq!(report, again, "only the thread count differs");
    assert_eq!(report["games"], 6);
    let agents = report["agents"].as_array().unwrap();
    assert_eq!(agents[0]["agent"], "uct:200");
    assert_eq!(agents[1]["agent"], "random");
    for agent in agents {
        let count = |field: &str| agent[field].as_u64().unwrap();
        assert_eq!(count("wins") + count("draws") + count("losses"), 6);
        let rate = &agent["win_rate"];
        let (low, value, high) =
            (rate["low"].as_f64().unwrap(), rate["rate"].as_f64().unwrap(), rate["high"].as_f64().unwrap());
        assert!(low <= value && value <= high);
        assert_eq!(value, count("wins") as f64 / 6.0);
    }
    // Search does not lose tic-tac-toe to random play; the two agents' wins and losses mirror.
    assert_eq!(agents[0]["losses"], 0);
    assert_eq!(agents[0]["wins"], agents[1]["losses"]);
    assert!(report.get("timing").is_none());
}

#[test]
fn the_text_report_names_each_agent_with_its_interval() {
    let output = regula(&["play", TICTACTOE, "--agents", "flat:30,random", "-n", "4", "--no-timing"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("games: 4 (seed 0, threads 1, seats rotated)"), "{text}");
    assert!(text.contains("1. flat:30"), "{text}");
    assert!(text.contains("2. random"), "{text}");
    assert!(text.contains("95% Wilson intervals"), "{text}");
}

#[test]
fn bad_agent_lists_are_reported_without_panicking() {
    let output = regula(&["play", TICTACTOE, "--agents", "uct"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("the game has 2 players"), "{}", stderr(&output));
    let output = regula(&["play", TICTACTOE, "--agents", "uct,deepblue"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("unknown agent `deepblue`"), "{}", stderr(&output));
    let output = regula(&["play", TICTACTOE, "--human", "z", "--agents", "random"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("`z` is not a player"), "{}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"));
}

#[test]
fn a_person_is_asked_again_after_illegal_input_and_end_of_input_quits() {
    // 5 is the centre; 99 and `foo` are rejected; then x plays by text, then input ends.
    let output = regula_with_input(&["play", TICTACTOE, "--human", "0", "--agents", "random"], "5\n99\nfoo\nC__0_0\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("=== game 1 of 1: x = you; o = random"), "{text}");
    assert!(text.contains("    5. C__1_1"), "the numbered moves are listed:\n{text}");
    assert!(text.contains("there is no move 99: enter a number from 1 to 7"), "{text}");
    assert!(text.contains("`foo` is not a legal move here"), "{text}");
    assert!(text.contains("C__1_1: x"), "the board shows the person's first move:\n{text}");
    assert!(text.contains("C__0_0: x"), "the move given as text was played:\n{text}");
    assert_eq!(text.matches("o plays ").count(), 2, "{text}");
    assert!(text.trim_end().ends_with("quit: the game was left unfinished"), "{text}");
}

#[test]
fn a_person_can_play_a_whole_game_as_the_second_player() {
    // Always the first listed move: o fills cells in order until the game ends.
    let output = regula_with_input(&["play", TICTACTOE, "--human", "o", "--agents", "uct:50"], &"1\n".repeat(9));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("x = uct:50; o = you"), "{text}");
    assert!(text.contains("--- game over ---"), "{text}");
    // Such naive play loses to search.
    assert!(text.contains("scores: x 100, o 0 (you lose)"), "{text}");
}

#[test]
fn moves_hidden_from_the_person_are_not_shown() {
    // As `second` in the hidden-bid game: the prize card is seen, first's bid is not.
    let output = regula_with_input(&["play", HIDDEN, "--human", "second", "--agents", "random"], "4\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("random plays "), "{text}");
    assert!(text.contains("first moves (hidden from you)"), "{text}");
    assert!(text.contains("first: (hidden)"), "the observation replaces the state:\n{text}");
    assert!(!text.contains("bid = "), "the state (with first's bid) must not be printed:\n{text}");
}

#[test]
fn ismcts_plays_whole_card_games_with_dealt_hands() {
    // Dou Dizhu: 51 hidden deals, then plays that constrain them (the dealing sampler's case),
    // and the trump duel. Every game ends and every seat's result is counted.
    for (game, agents, games) in [
        ("games/doudizhu/doudizhu.cards", "ismcts:8,random,random", 2),
        ("games/trumps/trumps.cards", "ismcts:30,random", 6),
    ] {
        let output =
            regula(&["play", game, "--agents", agents, "--games", &games.to_string(), "--json", "--no-timing"]);
        assert_eq!(output.status.code(), Some(0), "{game}: {}", stderr(&output));
        let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let agents = report["agents"].as_array().unwrap();
        assert!(agents[0]["agent"].as_str().unwrap().starts_with("ismcts:"));
        let seats: u64 = agents
            .iter()
            .map(|a| a["wins"].as_u64().unwrap() + a["draws"].as_u64().unwrap() + a["losses"].as_u64().unwrap())
            .sum();
        assert_eq!(seats, games * agents.len() as u64, "{game}: one result per seat and game");
    }
}
