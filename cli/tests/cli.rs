//! End-to-end tests of the `regula` binary: exit codes, output formats and determinism.

use crate::support::{regula, stderr, stdout, Scratch};

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
    let dir = Scratch::new("check");
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

    let dir = Scratch::new("format");
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
    let dir = Scratch::new("fmt");
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

    // `fmt -o` and `compile --no-opt -o` write the same canonical text.
    let via_fmt = dir.join("via-fmt.rg");
    let via_compile = dir.join("via-compile.rg");
    assert_eq!(regula(&["fmt", TICTACTOE, "-o", via_fmt.to_str().unwrap()]).status.code(), Some(0));
    assert_eq!(regula(&["compile", TICTACTOE, "--no-opt", "-o", via_compile.to_str().unwrap()]).status.code(), Some(0));
    let written = std::fs::read_to_string(&via_fmt).unwrap();
    assert_eq!(written, stdout(&first));
    assert_eq!(std::fs::read_to_string(&via_compile).unwrap(), written);
}

#[test]
fn fmt_check_flags_a_file_that_is_not_canonical() {
    let dir = Scratch::new("fmtcheck");
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

/// Checks `run`'s per-player figures against exact probabilities computed by an oracle.
fn assert_outcomes_close(game: &str, exact: (f64, f64, f64)) {
    // 20,000 playouts: one standard error is at most 0.36 points; allow four.
    let report = run_json(&["run", game, "--playouts", "20000", "--seed", "99", "--json", "--threads", "2"]);
    let players = report["players"].as_array().unwrap();
    let figure = |p: usize, key: &str| players[p][key].as_f64().unwrap();
    let (first, second, draw) = exact;
    for (actual, expected) in
        [(figure(0, "win_percent"), first), (figure(1, "win_percent"), second), (figure(0, "draw_percent"), draw)]
    {
        assert!((actual - 100.0 * expected).abs() < 1.45, "{game}: {actual} vs {expected}\n{report}");
    }
}

#[test]
fn dice_and_hidden_random_play_agree_with_the_oracles() {
    assert_outcomes_close(DICE, regula_oracles::dice::random_play_outcomes());
    assert_outcomes_close(HIDDEN, regula_oracles::hidden::random_play_outcomes());
}

#[test]
fn warnings_are_shown_but_do_not_fail() {
    let dir = Scratch::new("warning");
    let game = dir.join("warned.rg");
    std::fs::write(
        &game,
        "type Player = {x};\ntype Score = {0};\ntype Twice = {a, a};\nbegin, end: player = keeper;\n",
    )
    .unwrap();
    let output = regula(&["check", game.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("W0203"), "{}", stderr(&output));
    assert!(stdout(&output).ends_with("warned.rg: ok (1 warning)\n"), "{}", stdout(&output));
    // The game ends at once: perft counts only the start state.
    let perft = regula(&["perft", game.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(stdout(&perft), "0 1\n1 0\n2 0\n");
    let over = regula(&["moves", game.to_str().unwrap()]);
    assert_eq!(stdout(&over), "# game over: x=0\n");
}

#[test]
fn runtime_errors_exit_one_with_the_node_named() {
    // The keeper has two moves (`left`, `right`) at `begin`: an error naming the node, not a panic.
    let dir = Scratch::new("keeper");
    let game = dir.join("keeper.rg");
    std::fs::write(
        &game,
        "type Player = {x};\ntype Score = {0};\nbegin, a: $ left;\nbegin, b: $ right;\na, end: player = keeper;\nb, end: player = keeper;\n",
    )
    .unwrap();
    for args in [vec!["moves"], vec!["perft", "--depth", "1"], vec!["run", "--playouts", "3"]] {
        let mut full = args.clone();
        full.insert(1, game.to_str().unwrap());
        let output = regula(&full);
        assert_eq!(output.status.code(), Some(1), "{full:?}");
        let text = stderr(&output);
        assert!(text.starts_with("error: runtime error:"), "{text}");
        assert!(text.contains("`begin`"), "{text}");
    }
}

#[test]
fn perft_divide_splits_the_count_by_first_move() {
    let output = regula(&["perft", TICTACTOE, "--depth", "2", "--divide"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let divide: Vec<&str> = text.lines().take(9).collect();
    assert_eq!(divide, ["a1: 8", "b1: 8", "c1: 8", "a2: 8", "b2: 8", "c2: 8", "a3: 8", "b3: 8", "c3: 8"]);
    assert!(text.ends_with("0 1\n1 9\n2 72\n"), "{text}");

    // In Pig the first roll's subtree at depth 3: after a 1 the second player chooses (2), after
    // 2..6 the first player chooses again (5 x 2); the first hold leads to 6 + 2.
    let json = regula(&["perft", DICE, "--depth", "3", "--divide", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["divide"], serde_json::json!([{"move": "roll", "count": 12}, {"move": "hold", "count": 8}]));
    assert_eq!(value["counts"], serde_json::json!([1, 2, 8, 20]));
}

/// perft lines `depth count` as numbers.
fn perft_counts(text: &str) -> Vec<u64> {
    text.lines().filter_map(|line| line.split_whitespace().nth(1)?.parse().ok()).collect()
}

#[test]
fn compile_optimises_by_default_and_every_pass_choice_keeps_perft() {
    let dir = Scratch::new("compile-passes");
    let game = "games/connect4/connect4.hrg";
    let mut sizes = Vec::new();
    for (name, flags) in [
        ("all", vec![]),
        ("none", vec!["--no-opt"]),
        ("some", vec!["--passes", "compact_skip_edges,prune_unreachable_nodes"]),
    ] {
        let out = dir.join(format!("{name}.rg"));
        let mut args = vec!["compile", game, "-o", out.to_str().unwrap()];
        args.extend(flags);
        let output = regula(&args);
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        sizes.push(std::fs::read_to_string(&out).unwrap().lines().count());
        let perft = regula(&["perft", out.to_str().unwrap(), "--depth", "4"]);
        assert_eq!(perft_counts(&stdout(&perft)), [1, 7, 49, 343, 2401], "{name}");
    }
    assert!(sizes[0] < sizes[1], "optimised text ({}) is not smaller than unoptimised ({})", sizes[0], sizes[1]);
}

#[test]
fn compile_rejects_an_unknown_pass_with_the_list_of_known_ones() {
    let output = regula(&["compile", TICTACTOE, "--passes", "compact_skip_edgez"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("compact_skip_edges"), "{}", stderr(&output));
}

#[test]
fn stats_shows_sizes_before_and_after_optimisation() {
    let output = regula(&["stats", "games/chess/chess.hrg"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let row = |name: &str| -> Vec<u64> {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no `{name}` row in:\n{text}"));
        line[name.len()..].split_whitespace().map(|n| n.parse().unwrap()).collect()
    };
    let nodes = row("nodes");
    assert!(nodes[1] < nodes[0], "optimisation did not shrink chess: {nodes:?}");
    assert!(row("state bytes (reference)")[0] > 0);
}

#[test]
fn the_fast_and_reference_engines_report_the_same_games() {
    for game in [TICTACTOE, DICE, HIDDEN, "games/breakthrough/breakthrough.hrg"] {
        let run = |engine: &str| {
            let output =
                regula(&["run", game, "-n", "300", "--seed", "5", "--json", "--no-timing", "--engine", engine]);
            assert_eq!(output.status.code(), Some(0), "{game} {engine}: {}", stderr(&output));
            stdout(&output)
        };
        assert_eq!(run("fast"), run("reference"), "{game}: playout reports differ");
        let perft = |engine: &str, threads: &str| {
            let output = regula(&["perft", game, "--depth", "3", "--engine", engine, "--threads", threads]);
            assert_eq!(output.status.code(), Some(0), "{game} {engine}: {}", stderr(&output));
            perft_counts(&stdout(&output))
        };
        let reference = perft("reference", "1");
        assert_eq!(perft("fast", "1"), reference, "{game}");
        assert_eq!(perft("fast", "2"), reference, "{game}");
    }
}
