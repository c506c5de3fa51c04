//! End-to-end tests of the `regula` binary: exit codes, output formats and determinism.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn regula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(repository())
        .output()
        .expect("the regula binary runs")
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A scratch directory for this test binary, unique per test name.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("regula-cli-tests-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

const TICTACTOE: &str = "games/tictactoe/tictactoe.rg";
const DICE: &str = "games/dice/dice.rg";
const HIDDEN: &str = "games/hidden/hidden.rg";

#[test]
fn check_accepts_the_games_and_exits_zero() {
    for game in [TICTACTOE, "games/connect4/connect4.rg", DICE, HIDDEN] {
        let output = regula(&["check", game]);
        assert_eq!(output.status.code(), Some(0), "{game}: {}", stderr(&output));
        assert_eq!(stdout(&output), format!("{game}: ok (0 warnings)\n"));
    }
}

#[test]
fn check_reports_errors_with_a_location_and_exits_one() {
    let dir = scratch("check");
    let broken = dir.join("broken.rg");
    std::fs::write(&broken, "type Player = {x};\ntype Score = {0};\nbegin, end: player = nobody_declared[x];\n")
        .unwrap();
    let output = regula(&["check", broken.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("broken.rg:3:"), "no file:line:column in:\n{text}");
    assert!(text.contains("error"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}

#[test]
fn missing_files_and_unknown_formats_fail_cleanly() {
    let output = regula(&["check", "games/no/such/file.rg"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with("error: games/no/such/file.rg:"), "{}", stderr(&output));

    let dir = scratch("format");
    let unknown = dir.join("game.unknownformat");
    std::fs::write(&unknown, "whatever").unwrap();
    let output = regula(&["perft", unknown.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("unknown source format"), "{}", stderr(&output));
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(regula(&["perft", TICTACTOE]).status.code(), Some(2));
    assert_eq!(regula(&["no-such-command"]).status.code(), Some(2));
}

#[test]
fn fmt_is_a_fixed_point_and_keeps_the_game() {
    let dir = scratch("fmt");
    let first = regula(&["fmt", TICTACTOE]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let formatted = dir.join("tictactoe.rg");
    std::fs::write(&formatted, stdout(&first)).unwrap();
    let formatted = formatted.to_str().unwrap();

    // Formatting the canonical text changes nothing, and --check agrees.
    let second = regula(&["fmt", formatted]);
    assert_eq!(stdout(&second), stdout(&first));
    assert_eq!(regula(&["fmt", "--check", formatted]).status.code(), Some(0));

    // The reformatted game plays the same.
    let perft = regula(&["perft", formatted, "--depth", "4"]);
    assert_eq!(stdout(&perft), "0 1\n1 9\n2 72\n3 504\n4 3024\n");

    // `fmt -o` and `compile -o` write the same canonical text.
    let via_fmt = dir.join("via-fmt.rg");
    let via_compile = dir.join("via-compile.rg");
    assert_eq!(regula(&["fmt", TICTACTOE, "-o", via_fmt.to_str().unwrap()]).status.code(), Some(0));
    assert_eq!(regula(&["compile", TICTACTOE, "-o", via_compile.to_str().unwrap()]).status.code(), Some(0));
    let written = std::fs::read_to_string(&via_fmt).unwrap();
    assert_eq!(written, stdout(&first));
    assert_eq!(std::fs::read_to_string(&via_compile).unwrap(), written);
}

#[test]
fn fmt_check_flags_a_file_that_is_not_canonical() {
    let dir = scratch("fmtcheck");
    let messy = dir.join("messy.rg");
    std::fs::write(&messy, "type Player={x};type Score={0};\n\n\nbegin,end:player=keeper;").unwrap();
    let output = regula(&["fmt", "--check", messy.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).is_empty());
    assert!(stderr(&output).contains("not in canonical form"), "{}", stderr(&output));
}

#[test]
fn moves_after_a_history_lists_the_free_cells() {
    let output = regula(&["moves", TICTACTOE, "--after", "/b2/a1/"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "# x to move: 7 legal moves\nb1\nc1\na2\nc2\na3\nb3\nc3\n");
    // The same history without the outer slashes.
    assert_eq!(stdout(&regula(&["moves", TICTACTOE, "--after", "b2/a1"])), stdout(&output));
    // --player accepts the player to move and rejects the other one.
    assert_eq!(regula(&["moves", TICTACTOE, "--after", "/b2/a1/", "--player", "x"]).status.code(), Some(0));
    let wrong = regula(&["moves", TICTACTOE, "--after", "/b2/a1/", "--player", "o"]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(stderr(&wrong).contains("not o's turn"), "{}", stderr(&wrong));
    let unknown = regula(&["moves", TICTACTOE, "--player", "z"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(stderr(&unknown).contains("players: x, o"), "{}", stderr(&unknown));
}

#[test]
fn an_illegal_move_in_the_history_is_a_clear_error() {
    let output = regula(&["moves", TICTACTOE, "--after", "/b2/b2/"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("move 2 (`b2`)"), "{text}");
    assert!(text.contains("illegal move `b2` for o"), "{text}");
    assert!(stdout(&output).is_empty());

    let unknown = regula(&["moves", TICTACTOE, "--after", "/d4/"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(stderr(&unknown).contains("unknown tag `d4`"), "{}", stderr(&unknown));
}

#[test]
fn moves_show_game_over_chance_and_hidden_information() {
    // x takes the top row.
    let over = regula(&["moves", TICTACTOE, "--after", "/a1/a2/b1/b2/c1/"]);
    assert_eq!(stdout(&over), "# game over: x=100 o=0\n");
    // Moving on after the end is illegal.
    assert_eq!(regula(&["moves", TICTACTOE, "--after", "/a1/a2/b1/b2/c1/c3/"]).status.code(), Some(1));

    let dice = regula(&["moves", DICE, "--after", "/roll/"]);
    assert_eq!(stdout(&dice), "# random to move: 6 outcomes, each with probability 1/6\n1\n2\n3\n4\n5\n6\n");

    // Goofspiel: prize 3, first bids 2 (hidden from second), second to bid.
    let second = regula(&["moves", HIDDEN, "--after", "/3/2/", "--observe", "second"]);
    assert_eq!(
        stdout(&second),
        "# observed by second:\n#   random: 3\n#   first: (hidden)\n# second to move: 4 legal moves\n1\n2\n3\n4\n"
    );
    // Second bids 4 (seen by first); the next prize is drawn.
    let first = regula(&["moves", HIDDEN, "--after", "/3/2/4/", "--observe", "first"]);
    assert_eq!(
        stdout(&first),
        "# observed by first:\n#   random: 3\n#   first: 2\n#   second: 4\n# random to move: 3 outcomes, each with probability 1/3\n1\n2\n4\n"
    );
}

#[test]
fn perft_prints_counts_as_text_and_json() {
    let text = regula(&["perft", TICTACTOE, "--depth", "3"]);
    assert_eq!(text.status.code(), Some(0));
    assert_eq!(stdout(&text), "0 1\n1 9\n2 72\n3 504\n");

    let json = regula(&["perft", DICE, "--depth", "4", "--json", "--threads", "2"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("perft --json is JSON");
    assert_eq!(value["counts"], serde_json::json!([1, 2, 8, 20, 65]));
    assert_eq!(value["depth"], 4);
    assert!(value["elapsed_seconds"].as_f64().is_some());
}

/// `run --json` output without its timing object.
fn run_json(args: &[&str]) -> serde_json::Value {
    let output = regula(args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut value: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("run --json is JSON");
    value.as_object_mut().expect("an object").remove("timing");
    value
}

#[test]
fn run_is_deterministic_for_a_seed() {
    let args = ["run", DICE, "--playouts", "300", "--seed", "7", "--json"];
    let first = run_json(&args);
    assert_eq!(first, run_json(&args));
    assert_eq!(first["playouts"], 300);
    let total: u64 = first["outcomes"].as_array().unwrap().iter().map(|o| o["count"].as_u64().unwrap()).sum();
    assert_eq!(total, 300);

    // The thread count changes nothing but the `threads` field.
    let mut threaded = run_json(&["run", DICE, "--playouts", "300", "--seed", "7", "--json", "--threads", "3"]);
    threaded["threads"] = first["threads"].clone();
    assert_eq!(first, threaded);

    // Without timing the whole output is reproducible byte for byte.
    let plain = ["run", HIDDEN, "--playouts", "200", "--seed", "7", "--no-timing"];
    let a = regula(&plain);
    assert_eq!(stdout(&a), stdout(&regula(&plain)));
    assert!(!stdout(&a).contains("playouts/s"));

    // Another seed gives another sample.
    assert_ne!(first, run_json(&["run", DICE, "--playouts", "300", "--seed", "8", "--json"]));
}

#[test]
fn tictactoe_random_play_matches_the_known_outcome_figures() {
    // Exact values under uniformly random play: x 58.49 %, o 28.81 %, draw 12.70 %. With 20,000
    // playouts one standard error is at most 0.35 points; allow four.
    let report = run_json(&["run", TICTACTOE, "--playouts", "20000", "--seed", "2026", "--json", "--threads", "2"]);
    let players = report["players"].as_array().unwrap();
    let x = &players[0];
    let o = &players[1];
    assert_eq!(x["player"], "x");
    let close = |value: &serde_json::Value, expected: f64| (value.as_f64().unwrap() - expected).abs() < 1.4;
    assert!(close(&x["win_percent"], 58.49), "{report}");
    assert!(close(&o["win_percent"], 28.81), "{report}");
    assert!(close(&x["draw_percent"], 12.70), "{report}");
    assert_eq!(x["loss_percent"], o["win_percent"]);
    let plies = report["mean_plies"].as_f64().unwrap();
    assert!((5.0..=9.0).contains(&plies), "{plies}");
}
