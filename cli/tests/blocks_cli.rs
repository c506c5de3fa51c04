//! The `regula` binary on blocks-language files: `compile --emit hrg`, `perft --depth 4` and
//! `run` on the six games, and a malformed file's located diagnostic with exit code 1.

use crate::support::{regula, Scratch};

const GAMES: [&str; 6] = [
    "games/blocks-tictactoe/tictactoe.blocks",
    "games/blocks-alquerque/alquerque.blocks",
    "games/blocks-gun-cannon/gun_cannon.blocks",
    "games/blocks-othello5/othello5.blocks",
    "games/blocks-fantian/fantian.blocks",
    "games/blocks-fourchess/fourchess.blocks",
];

#[test]
fn emit_hrg_shows_the_generated_program() {
    let output = regula(&["compile", GAMES[0], "--emit", "hrg"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("// \"tictactoe\" v0.1: translated from the blocks language"), "{text}");
    assert!(text.contains("graph rules() {\n  stage1()\n  decide1()\n}"), "{text}");
    let rg_input = regula(&["compile", "games/tictactoe/tictactoe.rg", "--emit", "hrg"]);
    assert_eq!(rg_input.status.code(), Some(1));
}

#[test]
fn perft_to_depth_four_and_playouts_work_for_all_six() {
    // Depth 4 of each game, from the independent oracle (games/blocks-*/perft.toml).
    let expected = ["3024", "12", "896", "186", "110", "43680"];
    for (game, count) in GAMES.iter().zip(expected) {
        let output = regula(&["perft", game, "--depth", "4"]);
        assert!(output.status.success(), "{game}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.lines().any(|line| line == format!("4 {count}")), "{game}: {text}");
        let run = regula(&["run", game, "-n", "200", "--seed", "3"]);
        assert!(run.status.success(), "{game}");
        assert!(String::from_utf8_lossy(&run.stdout).contains("final scores:"), "{game}");
    }
}

#[test]
fn a_malformed_file_gets_a_located_diagnostic_and_exit_code_one() {
    let dir = Scratch::new("blocks");
    let path = dir.join("broken.blocks");
    std::fs::write(&path, "(players 2)\n(stage_init)\n(board HEX 3)\n").unwrap();
    let output = regula(&["check", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(errors.contains("broken.blocks:3:8: [E0608] Error: unknown board kind"), "{errors}");
}
