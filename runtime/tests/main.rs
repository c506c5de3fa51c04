//! The runtime's integration tests, linked into one test binary (`cargo test -p regula-runtime
//! --test integration`; a file's tests alone: add its module name as a filter, e.g. `semantics`).
//!
//! One binary instead of one per file: every file used to be a separate crate that linked the
//! runtime, the compiler and the test dependencies again, and the harness ran the binaries one
//! after another, each leaving a core idle while its one long test ran; in one binary the long
//! tests of every file share the harness's threads. The files stay where they were. `fast_profile`
//! stays a binary of its own (`--test fast_profile`): it is a profiling driver that callgrind runs
//! by its file name, not part of the test run.

mod agent_api;
mod agent_conformance;
mod agent_deal;
mod breakthrough;
mod chess;
mod connect4;
mod fast_random_automata;
mod random_automata;
mod semantics;
mod tictactoe;

// These two declare the shared `corpus` module themselves (`mod corpus;`); a `#[path]` file counts
// as a `mod.rs`, so that declaration finds tests/corpus/ as it did when each file was a crate root.
#[path = "fast_keeper_in_place.rs"]
mod fast_keeper_in_place;
#[path = "fast_reach_plans.rs"]
mod fast_reach_plans;

/// A file added to tests/ that no `mod` line declares would never be compiled nor run: each file
/// must be declared here, and a folder module (a shared helper) here or by one of the files.
#[test]
fn every_test_file_is_a_module_of_the_test_binaries() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = include_str!("main.rs");
    let manifest = include_str!("../Cargo.toml");
    let mut sources = Vec::new();
    let mut modules = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
            sources.push(std::fs::read_to_string(&path).unwrap());
            if stem != "main" {
                modules.push((stem, false));
            }
        } else if path.is_dir() && path.join("mod.rs").is_file() {
            modules.push((stem, true));
        }
    }
    let declares = |text: &str, stem: &str| text.lines().any(|line| line.trim() == format!("mod {stem};"));
    let missing: Vec<&str> = modules
        .iter()
        .filter(|(stem, is_folder)| {
            let own_binary = manifest.contains(&format!("path = \"tests/{stem}.rs\""));
            let in_main = declares(main, stem);
            let in_a_file = *is_folder && sources.iter().any(|text| declares(text, stem));
            !(own_binary || in_main || in_a_file)
        })
        .map(|(stem, _)| stem.as_str())
        .collect();
    assert!(missing.is_empty(), "files in tests/ that no test binary declares: {missing:?}");
}
