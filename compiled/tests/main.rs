//! The corpus crate's integration tests, linked into one test binary (`cargo test -p
//! regula-compiled --test integration`; a file's tests alone: add its module name as a filter, e.g.
//! `equivalence`).
//!
//! One binary instead of one per file: each file used to be a separate crate that linked the
//! generated models, the compiler and the runtime again.

mod codegen_up_to_date;
mod equivalence;

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
