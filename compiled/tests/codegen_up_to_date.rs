//! The checked-in generated modules are exactly what the code generator produces now from the
//! corpus sources (reproducible output); regenerate with `cargo xtask codegen`.

use regula_compiler::codegen::{corpus_crate_sources, CorpusSource};
use std::path::Path;

fn corpus_sources(root: &Path) -> Vec<CorpusSource> {
    let mut folders: Vec<_> = std::fs::read_dir(root.join("games"))
        .expect("games/ exists")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("perft.toml").is_file())
        .collect();
    folders.sort();
    let mut sources = Vec::new();
    for folder in folders {
        let text = std::fs::read_to_string(folder.join("perft.toml")).expect("perft.toml readable");
        let manifest: toml::Table = toml::from_str(&text).expect("perft.toml parses");
        let folder_name = folder.file_name().expect("a folder name").to_string_lossy().into_owned();
        let listed = manifest.get("sources").and_then(|s| s.as_array()).cloned().unwrap_or_default();
        for file in listed.iter().filter_map(|s| s.as_str()) {
            let text = std::fs::read_to_string(folder.join(file)).expect("listed source readable");
            sources.push(CorpusSource { name: format!("{folder_name}/{file}"), text });
        }
    }
    sources
}

#[test]
fn generated_modules_are_up_to_date() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = crate_dir.parent().expect("compiled/ lives one level below the root");
    let sources = corpus_sources(root);
    assert!(sources.len() >= 15, "the corpus lists at least 15 sources, found {}", sources.len());
    let files = corpus_crate_sources(&sources).expect("every corpus source compiles");
    let mut stale = Vec::new();
    for file in &files {
        let on_disk = std::fs::read_to_string(crate_dir.join(&file.path)).unwrap_or_default();
        if on_disk != file.contents {
            stale.push(file.path.clone());
        }
    }
    let expected: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    for entry in std::fs::read_dir(crate_dir.join("src/games")).expect("src/games exists").flatten() {
        let path = format!("src/games/{}", entry.file_name().to_string_lossy());
        if !expected.contains(&path) {
            stale.push(path);
        }
    }
    assert!(stale.is_empty(), "stale generated files, run `cargo xtask codegen`: {stale:?}");
    // Generating twice gives the same text.
    assert_eq!(corpus_crate_sources(&sources[..2]).unwrap(), corpus_crate_sources(&sources[..2]).unwrap());
}
