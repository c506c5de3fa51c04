//! `regula build`: the crate it writes (files, generated module, runtime path), its errors, and
//! (ignored, slow: `cargo test -p regula --test integration -- --ignored build::`) that the crate
//! builds and its perft matches the published counts.

use crate::support::{regula, repository, Scratch};
use std::path::Path;
use std::process::Command;

const TICTACTOE: &str = "games/tictactoe/tictactoe.rg";

#[test]
fn build_writes_a_crate_with_the_generated_module() {
    let dir = Scratch::new("build-files");
    let out = dir.join("crate");
    let output = regula(&["build", TICTACTOE, "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cargo run --release --manifest-path"));
    let read = |path: &str| std::fs::read_to_string(out.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));

    let text = std::fs::read_to_string(repository().join(TICTACTOE)).unwrap();
    let automaton = regula_compiler::codegen::optimized_automaton(TICTACTOE, &text).unwrap();
    let module = regula_compiler::codegen::generate(&automaton, TICTACTOE).unwrap();
    assert_eq!(read("src/game.rs"), module);
    assert!(module.contains("impl CompiledGame for Game"));

    let cargo = read("Cargo.toml");
    assert!(cargo.contains("name = \"tictactoe\""), "{cargo}");
    let runtime_line = cargo.lines().find(|l| l.starts_with("regula-runtime")).expect("a runtime dependency");
    let runtime_path = runtime_line.split('"').nth(1).expect("a quoted path");
    assert!(Path::new(runtime_path).join("src/compiled.rs").is_file(), "{runtime_path}");
    assert!(read("src/main.rs").contains("use tictactoe::Game;"));
    assert!(read("src/lib.rs").contains("pub mod game;"));
}

#[test]
fn build_reports_compile_errors() {
    let dir = Scratch::new("build-broken");
    let broken = dir.join("broken.rg");
    std::fs::write(&broken, "type Player = {x};\ntype Score = {0};\nbegin, end: player = nobody_declared[x];\n")
        .unwrap();
    let output = regula(&["build", broken.to_str().unwrap(), "--out", dir.join("out").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("broken.rg:3:"));
    assert!(!dir.join("out").exists(), "nothing is written for a broken game");
}

/// Builds the generated crate for real (a release build of the runtime: minutes on a loaded VM).
#[test]
#[ignore]
fn built_crate_runs_perft_and_playouts() {
    let dir = Scratch::new("build-cargo");
    let out = dir.join("crate");
    let output = regula(&["build", TICTACTOE, "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    let manifest = out.join("Cargo.toml");
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO"))
            .args(["run", "--release", "--quiet", "--manifest-path", manifest.to_str().unwrap(), "--"])
            .args(args)
            .output()
            .expect("cargo runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    // Published tic-tac-toe counts (games/tictactoe/perft.toml).
    let perft = run(&["perft", "4"]);
    for line in ["depth 1: 9", "depth 2: 72", "depth 3: 504", "depth 4: 3024"] {
        assert!(perft.contains(line), "{perft}");
    }
    let playouts = run(&["playouts", "1000", "--seed", "1"]);
    assert!(playouts.starts_with("1000 playouts"), "{playouts}");
}
