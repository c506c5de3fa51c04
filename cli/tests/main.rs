//! The `regula` crate's integration tests, linked into one test binary (`cargo test -p regula
//! --test integration`; a file's tests alone: add its module name as a filter, e.g. `corpus_perft`).
//!
//! One binary instead of one per file: every file used to be a separate crate that linked the
//! compiler, the runtime and the test dependencies again, and the harness ran the binaries one
//! after another, each leaving a core idle while its one long test ran. The files stay where they
//! were; each runs the `regula` binary or the libraries as before.

mod blocks_cli;
mod build;
mod cli;
mod corpus_perft;
mod play;
mod replay_games_b;

/// A file added to a crate's tests/ folder that no test binary declares would never be compiled nor
/// run: in every member with `autotests = false`, each file must be a `mod` of the crate's
/// `tests/main.rs` or a `[[test]]` of its own, and a folder module (a shared helper) must be declared
/// by `main.rs` or by one of the files. One check for the workspace, so a new member is covered too.
#[test]
fn every_test_file_is_compiled_into_a_test_binary() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace.lines().find(|line| line.starts_with("members")).expect("a members line");
    let declares = |text: &str, stem: &str| text.lines().any(|line| line.trim() == format!("mod {stem};"));
    let mut checked = 0;
    let mut missing = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        let manifest = std::fs::read_to_string(root.join(member).join("Cargo.toml")).unwrap();
        if !manifest.lines().any(|line| line.trim() == "autotests = false") {
            continue;
        }
        checked += 1;
        let dir = root.join(member).join("tests");
        let main = std::fs::read_to_string(dir.join("main.rs")).unwrap_or_default();
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
        for (stem, is_folder) in modules {
            let own_binary = manifest.contains(&format!("path = \"tests/{stem}.rs\""));
            let in_a_file = is_folder && sources.iter().any(|text| declares(text, &stem));
            if !(own_binary || declares(&main, &stem) || in_a_file) {
                missing.push(format!("{member}/tests/{stem}"));
            }
        }
    }
    assert!(checked >= 5, "fewer members with one integration test binary than expected: {members}");
    assert!(missing.is_empty(), "files in tests/ that no test binary declares: {missing:?}");
}

/// Library and binary targets whose `Cargo.toml` entry says `test = false` (no unit-test harness,
/// which would compile the target a second time to run nothing) must indeed have no unit tests, and
/// with `doctest = false` no code examples in their docs: either added would never run.
#[test]
fn targets_without_a_test_harness_have_no_unit_tests() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace.lines().find(|line| line.starts_with("members")).expect("a members line");
    let mut checked = 0;
    let mut offenders = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        let manifest = std::fs::read_to_string(root.join(member).join("Cargo.toml")).unwrap();
        if !manifest.lines().any(|line| line.trim() == "test = false") {
            continue;
        }
        let no_doctests = manifest.lines().any(|line| line.trim() == "doctest = false");
        checked += 1;
        let mut folders = vec![root.join(member).join("src")];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let examples = text.lines().any(|line| {
                        let line = line.trim_start();
                        (line.starts_with("/// ```") || line.starts_with("//! ```")) && no_doctests
                    });
                    if text.contains("#[test]") || text.contains("#[cfg(test)]") || examples {
                        offenders.push(path.display().to_string());
                    }
                }
            }
        }
    }
    assert!(checked >= 1, "no member has a target with `test = false`: {members}");
    assert!(offenders.is_empty(), "unit tests or doc examples in targets built without them: {offenders:?}");
}
