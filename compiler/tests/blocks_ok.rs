//! The readings spec/blocks.md chooses, each on a small hand-worked game: direction sets, turn
//! order, no-backoff, no-repeat, jump chains, the side-effect captures and flips, the move cap,
//! one-player games, comparison blocks and the two spellings of `SQURE`.

use regula_compiler::{blocks, load};
use regula_runtime::engine::{ForwardModel, Mover};
use regula_runtime::perft::perft_sequential;
use regula_runtime::reference::ReferenceEngine;

fn engine(source: &str) -> ReferenceEngine {
    let loaded = load("game.blocks", source).unwrap_or_else(|e| panic!("{e:#?}"));
    ReferenceEngine::new(loaded.automaton).unwrap()
}

fn ok_file(name: &str) -> String {
    std::fs::read_to_string(format!("{}/test_data/blocks/ok/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn game_file(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../games/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The legal moves after playing `history` (moves written as tag names), sorted.
fn moves_after(engine: &ReferenceEngine, history: &[&str]) -> Vec<String> {
    let mut state = engine.start().unwrap();
    for text in history {
        state = engine.apply(&state, &engine.parse_move(text).unwrap()).unwrap();
    }
    let mut names = engine.format_moves(&engine.moves(&state).unwrap());
    names.sort();
    names
}

fn scores_after(engine: &ReferenceEngine, history: &[&str]) -> Option<Vec<i64>> {
    let mut state = engine.start().unwrap();
    for text in history {
        state = engine.apply(&state, &engine.parse_move(text).unwrap()).unwrap();
    }
    engine.is_terminal(&state).then(|| engine.scores(&state).iter().map(|s| s.value).collect())
}

/// Red alone at b2 (or `red`), green at a3, on 3 x 3, stepping along `dirs`.
fn stepping_game(dirs: &str, extra_limits: &str) -> String {
    let limit = if dirs.is_empty() { String::new() } else { format!("(limit_dir BOTH {dirs})") };
    let limits = format!("{limit} {extra_limits}");
    let limits = if limits.trim().is_empty() { String::new() } else { format!("(action_limits {})", limits.trim()) };
    format!(
        "(game \"steps\" \"v0.1\") (players 2) (stage_init) (board SQURE 3) (initplace RED b2) (initplace GREEN a3)
         (stage_move) (play_turn RED GREEN) (actions (act_nbrmove BOTH)) {limits}
         (stage_end (cond_noplace ANY)) (game_end) (win_rules (win_comp_chess_count))"
    )
}

#[test]
fn direction_sets_give_the_steps_worked_by_hand() {
    // b2 is column 1 + row 1 = even: HVD1 gives it diagonals, HVD2 does not; a3 is occupied.
    for (dirs, count) in [
        ("DIRS_HV", 4),
        ("DIRS_HVD", 7),
        ("DIRS_HVD1", 7),
        ("DIRS_HVD2", 4),
        ("DIRS_HVD3", 6),
        ("DIRS_HVD4", 5),
        ("", 7),
    ] {
        let moves = moves_after(&engine(&stepping_game(dirs, "")), &[]);
        assert_eq!(moves.len(), count, "{dirs}: {moves:?}");
    }
    let slash = moves_after(&engine(&stepping_game("DIRS_HVD3", "")), &[]);
    assert!(slash.contains(&"P__1_1 P__2_2".to_string()) && slash.contains(&"P__1_1 P__0_0".to_string()));
}

#[test]
fn no_repeat_forbids_stepping_straight_back_and_limit_repeat_means_the_same() {
    for limit in ["(limit_norepeat BOTH)", "(limit_repeat BOTH)"] {
        let engine = engine(&stepping_game("DIRS_HV", limit));
        let after = moves_after(&engine, &["P__1_1 P__1_0", "P__0_2 P__0_1"]);
        assert_eq!(after, ["P__1_0 P__0_0", "P__1_0 P__2_0"], "{limit}");
    }
    let free = moves_after(&engine(&stepping_game("DIRS_HV", "")), &["P__1_1 P__1_0", "P__0_2 P__0_1"]);
    assert_eq!(free, ["P__1_0 P__0_0", "P__1_0 P__1_1", "P__1_0 P__2_0"]);
    let warnings = blocks::translate(&stepping_game("DIRS_HV", "(limit_repeat BOTH)")).unwrap().warnings;
    assert_eq!(warnings.iter().map(|w| w.code).collect::<Vec<_>>(), ["W0601"]);
}

#[test]
fn no_backoff_blocks_backward_steps_but_not_backward_jumps() {
    // Red c3 with green c2 just south and a5 far north: red's forward is north.
    let game = |limits: &str| {
        format!(
            "(game \"back\" \"v0.1\") (players 2) (stage_init) (board CROSS 5) (initplace RED c3)
             (initplace GREEN c2 a5) (stage_move) (play_turn RED GREEN)
             (actions (act_nbrmove BOTH) (act_sjump BOTH OPPO)) (action_limits {limits})
             (eatorflip (eat_jump BOTH)) (stage_end (cond_noplace ANY)) (game_end) (win_rules (win_comp_chess_count))"
        )
    };
    let forward_only = moves_after(&engine(&game("(limit_dir BOTH DIRS_HVD) (limit_nobackoff BOTH)")), &[]);
    assert_eq!(
        forward_only,
        ["P__2_2 P__1_2", "P__2_2 P__1_3", "P__2_2 P__2_0", "P__2_2 P__2_3", "P__2_2 P__3_2", "P__2_2 P__3_3"]
    );
    assert_eq!(moves_after(&engine(&game("(limit_dir BOTH DIRS_HVD)")), &[]).len(), 8);
}

#[test]
fn pre_play_hands_the_turn_to_the_side_after_the_one_that_moved_first() {
    let source =
        stepping_game("DIRS_HV", "").replace("(play_turn RED GREEN)", "(play_turn RED GREEN) (pre_play_times GREEN 2)");
    let engine = engine(&source);
    let mut state = engine.start().unwrap();
    let mut movers = Vec::new();
    for _ in 0..5 {
        movers.push(engine.to_move(&state));
        let first = engine.moves(&state).unwrap().remove(0);
        state = engine.apply(&state, &first).unwrap();
    }
    assert_eq!(movers, [Mover::Player(1), Mover::Player(1), Mover::Player(0), Mover::Player(1), Mover::Player(0)]);
}

#[test]
fn a_movement_stage_ends_at_the_move_cap_and_the_win_rules_decide() {
    // Red a1 and green c3 on an empty 3 x 3 board can shuffle for ever; equal counts: a draw.
    let source = stepping_game("DIRS_HV", "").replace("(initplace RED b2)", "(initplace RED a1)").replace("a3)", "c3)");
    let engine = engine(&source);
    let mut state = engine.start().unwrap();
    let mut plies = 0;
    while !engine.is_terminal(&state) {
        let first = engine.moves(&state).unwrap().remove(0);
        state = engine.apply(&state, &first).unwrap();
        plies += 1;
    }
    assert_eq!(plies, blocks::translate::MOVE_CAP);
    assert_eq!(engine.scores(&state).iter().map(|s| s.value).collect::<Vec<_>>(), [50, 50]);
}

#[test]
fn capturing_chains_must_go_on_and_capture_is_compulsory() {
    let engine = engine(&ok_file("chain_capture.blocks"));
    assert_eq!(moves_after(&engine, &[]), ["P__0_0 P__0_2 P__0_4", "P__0_0 P__0_2 P__2_2"]);
    assert_eq!(scores_after(&engine, &["P__0_0 P__0_2 P__0_4"]), Some(vec![100, 0]));
    // When both sides' rules hold the game is drawn: green has more pieces, red has taken two.
    let both = ok_file("chain_capture.blocks").replace(
        "(win_rules (win_eat_count_ge 2))",
        "(red_win_rules (win_eat_count_ge 2)) (green_win_rules (win_comp_chess_count))",
    );
    assert_eq!(scores_after(&self::engine(&both), &["P__0_0 P__0_2 P__0_4"]), Some(vec![50, 50]));
    let optional = ok_file("chain_capture.blocks").replace(" (limit_eatfirst BOTH)", "");
    assert_eq!(moves_after(&self::engine(&optional), &[]).len(), 3);
}

#[test]
fn a_chain_that_takes_nothing_never_lands_twice_on_a_point() {
    assert_eq!(moves_after(&engine(&ok_file("free_chain.blocks")), &[]), ["P__0_0 P__2_0"]);
}

#[test]
fn side_effect_captures_and_flips_worked_by_hand() {
    for (file, history, scores) in [
        ("custodian.blocks", "P__0_1 P__0_0", [100, 0]),
        ("flip_side.blocks", "P__0_1 P__0_0", [100, 0]),
        ("one_takes_two.blocks", "P__1_1 P__1_0", [100, 0]),
        ("two_take_one.blocks", "P__0_1 P__0_0", [100, 0]),
    ] {
        let engine = engine(&ok_file(file));
        assert_eq!(scores_after(&engine, &[history]), Some(scores.to_vec()), "{file}");
    }
    // With a piece beyond the enemy the 六子冲 pattern does not hold: nothing is taken.
    let blocked = ok_file("two_take_one.blocks").replace("(initplace GREEN c1 d4)", "(initplace GREEN c1 d1 d4)");
    assert_eq!(scores_after(&engine(&blocked), &["P__0_1 P__0_0"]), None);
}

#[test]
fn fly_and_multi_step_moves_worked_by_hand() {
    let fly = "(game \"fly\" \"v0.1\") (players 2) (stage_init) (board CROSS 5) (initplace RED a1) (initplace GREEN e5)
               (stage_move) (play_turn RED GREEN) (actions (act_flymove BOTH)) (action_limits (limit_dir BOTH DIRS_HV))
               (stage_end (cond_noplace ANY)) (game_end) (win_rules (win_comp_chess_count))";
    assert_eq!(moves_after(&engine(fly), &[]).len(), 8);
    assert_eq!(moves_after(&engine(&fly.replace("DIRS_HV)", "DIRS_HVD)")), &[]).len(), 11);
    let steps = stepping_game("DIRS_HV", "").replace("(act_nbrmove BOTH)", "(act_xstepmove BOTH 2)");
    let moves = moves_after(&engine(&steps), &[]);
    assert_eq!(moves.len(), 7, "{moves:?}");
}

#[test]
fn one_player_games_and_comparison_blocks() {
    let engine = engine(&ok_file("solo.blocks"));
    let counts = perft_sequential(&engine, 6).unwrap();
    assert_eq!(counts[..5], [1, 9, 72, 504, 2808]);
    assert_eq!(counts[6], 0, "five placements end the game");
    assert_eq!(scores_after(&engine, &["P__0_0", "P__1_0", "P__2_0"]), Some(vec![100]));
    assert_eq!(scores_after(&engine, &["P__0_0", "P__1_1", "P__2_2", "P__0_1", "P__2_0"]), Some(vec![0]));
}

#[test]
fn both_spellings_of_square_and_both_board_kinds_give_one_game() {
    let source = game_file("blocks-tictactoe/tictactoe.blocks");
    for board in ["(board SQUARE 3)", "(board CROSS 3)", "(board SQURE 3)"] {
        let variant = source.replace("(board SQURE 3)", board);
        assert_eq!(perft_sequential(&engine(&variant), 4).unwrap(), [1, 9, 72, 504, 3024], "{board}");
    }
}

#[test]
fn presentation_blocks_are_kept_as_metadata() {
    let translated = blocks::translate(&game_file("blocks-tictactoe/tictactoe.blocks")).unwrap();
    let kept: Vec<String> =
        translated.game.presentation.iter().map(|p| format!("{} {}", p.block, p.args.join(" "))).collect();
    assert_eq!(
        kept[1..],
        [
            "anim_tone_win ANIM_FIREWORK TONE_WIN",
            "anim_tone_lose ANIM_RAIN TONE_LOSE",
            "anim_tone_draw ANIM_DRAW TONE_DRAW"
        ]
    );
    assert!(translated.hrg_text().contains("// presentation: (anim_tone_win ANIM_FIREWORK TONE_WIN)"));
}
