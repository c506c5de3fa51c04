//! `cargo xtask codegen`: regenerates the compiled corpus models in `compiled/src/games/` from
//! every source listed in `games/*/perft.toml` (spec/codegen.md). `--check` only reports whether
//! the checked-in files are up to date.

use regula_compiler::codegen::{corpus_crate_sources, CorpusSource};
use std::path::Path;

/// Every source named in a `games/*/perft.toml`, folders in name order.
pub fn corpus_sources(root: &Path) -> Result<Vec<CorpusSource>, String> {
    let games = root.join("games");
    let mut folders: Vec<_> = std::fs::read_dir(&games)
        .map_err(|e| format!("{}: {e}", games.display()))?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("perft.toml").is_file())
        .collect();
    folders.sort();
    let mut sources = Vec::new();
    for folder in folders {
        let manifest_path = folder.join("perft.toml");
        let text = std::fs::read_to_string(&manifest_path).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
        let manifest: toml::Table = toml::from_str(&text).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
        let folder_name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let listed = manifest.get("sources").and_then(|s| s.as_array()).cloned().unwrap_or_default();
        for file in listed.iter().filter_map(|s| s.as_str()) {
            let path = folder.join(file);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            sources.push(CorpusSource { name: format!("{folder_name}/{file}"), text });
        }
    }
    Ok(sources)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let check = args.iter().any(|a| a == "--check");
    let root = super::workspace_root();
    let files = corpus_crate_sources(&corpus_sources(&root)?)?;
    let crate_dir = root.join("compiled");
    let games_dir = crate_dir.join("src").join("games");
    let mut stale = Vec::new();
    for file in &files {
        let path = crate_dir.join(&file.path);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(file.contents.as_str()) {
            stale.push(file.path.clone());
            if !check {
                std::fs::write(&path, &file.contents).map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
    }
    // Modules of sources no longer in the corpus.
    for entry in std::fs::read_dir(&games_dir).map_err(|e| format!("{}: {e}", games_dir.display()))?.flatten() {
        let relative = format!("src/games/{}", entry.file_name().to_string_lossy());
        if !files.iter().any(|f| f.path == relative) {
            stale.push(relative);
            if !check {
                std::fs::remove_file(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
            }
        }
    }
    match (check, stale.is_empty()) {
        (_, true) => println!("codegen: {} files up to date", files.len()),
        (true, false) => {
            return Err(format!("stale generated files (run `cargo xtask codegen`): {}", stale.join(", ")))
        }
        (false, false) => println!("codegen: wrote {}", stale.join(", ")),
    }
    Ok(())
}
