//! The compiler's integration tests, linked into one test binary (`cargo test -p regula-compiler
//! --test integration`; a file's tests alone: add its module name as a filter, e.g. `rg_fuzz`).
//!
//! One binary instead of one per file: every file used to be a separate crate that linked the
//! compiler, the runtime and the test dependencies again, which cost CI more than running the tests.
//! The files stay where they were, so paths in them (`include_str!`, insta's `snapshot_path`)
//! keep their meaning; shared helpers are the `common` and `fuzzing` modules below.

mod common;
mod fuzzing;

mod blocks_errors;
mod blocks_fuzz;
mod blocks_games;
mod blocks_hrg_print;
mod blocks_ok;
mod cards_doudizhu;
mod cards_errors;
mod cards_fuzz;
mod cards_patterns;
mod cards_trumps;
mod hrg_errors;
mod hrg_fuzz;
mod hrg_lowering;
mod hrg_ok;
mod optimize_equivalence;
mod rg_errors;
mod rg_fuzz;
mod rg_negative;
mod rg_ok;
mod rg_perft;
mod rules_buckets;
mod rules_errors;
mod rules_moves;
mod rules_ok;

/// A file added to tests/ without a `mod` line above would never be compiled nor run.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let declared = include_str!("main.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let is_module = (path.is_file() && path.extension().is_some_and(|e| e == "rs") && stem != "main")
            || (path.is_dir() && path.join("mod.rs").is_file());
        if is_module && !declared.contains(&format!("\nmod {stem};\n")) {
            missing.push(stem);
        }
    }
    assert!(missing.is_empty(), "files in tests/ that main.rs does not declare: {missing:?}");
}
