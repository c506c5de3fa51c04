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
mod support;

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
/// with `doctest = false` no code examples in their docs: either added would never run. Each such
/// target is checked on its own module tree (its root file and the `mod` files it declares), so a
/// binary with a harness may keep unit tests next to a library without one.
#[test]
fn targets_without_a_test_harness_have_no_unit_tests() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace.lines().find(|line| line.starts_with("members")).expect("a members line");
    let mut checked = 0;
    let mut offenders = Vec::new();
    for member in members.split('"').skip(1).step_by(2) {
        let folder = root.join(member);
        let manifest = std::fs::read_to_string(folder.join("Cargo.toml")).unwrap();
        for (root_file, no_doctests) in targets_without_a_harness(&manifest) {
            checked += 1;
            for path in module_tree(&folder.join(root_file)) {
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
    assert!(checked >= 2, "fewer targets with `test = false` than expected: {members}");
    assert!(offenders.is_empty(), "unit tests or doc examples in targets built without them: {offenders:?}");
}

/// The root file (relative to the member) of each `[lib]` or `[[bin]]` section that says
/// `test = false`, with whether it also says `doctest = false`.
fn targets_without_a_harness(manifest: &str) -> Vec<(String, bool)> {
    let mut targets = Vec::new();
    let mut section = String::new();
    let (mut path, mut no_test, mut no_doctest) = (None::<String>, false, false);
    let mut finish = |section: &str, path: Option<String>, no_test: bool, no_doctest: bool| {
        let default = match section {
            "[lib]" => "src/lib.rs",
            "[[bin]]" => "src/main.rs",
            _ => return,
        };
        if no_test {
            targets.push((path.unwrap_or_else(|| default.to_string()), no_doctest));
        }
    };
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            finish(&section, path.take(), no_test, no_doctest);
            section = line.to_string();
            (no_test, no_doctest) = (false, false);
        } else if let Some(value) = line.strip_prefix("path = ") {
            path = Some(value.trim_matches('"').to_string());
        } else if line == "test = false" {
            no_test = true;
        } else if line == "doctest = false" {
            no_doctest = true;
        }
    }
    finish(&section, path, no_test, no_doctest);
    targets
}

/// The files of a crate target: its root file and every file reached through `mod name;` lines
/// (`name.rs` or `name/mod.rs` beside a root or `mod.rs` file, under `stem/` beside any other).
fn module_tree(root_file: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![root_file.to_path_buf()];
    while let Some(file) = pending.pop() {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
        let parent = file.parent().unwrap();
        let folder = if ["lib", "main", "mod"].contains(&stem.as_str()) || file == root_file {
            parent.to_path_buf()
        } else {
            parent.join(&stem)
        };
        for line in text.lines().map(str::trim) {
            let declaration = line.strip_prefix("pub ").or_else(|| line.strip_prefix("pub(crate) ")).unwrap_or(line);
            let Some(name) = declaration.strip_prefix("mod ").and_then(|rest| rest.strip_suffix(';')) else {
                continue;
            };
            let flat = folder.join(format!("{name}.rs"));
            pending.push(if flat.exists() { flat } else { folder.join(name).join("mod.rs") });
        }
        files.push(file);
    }
    files
}
