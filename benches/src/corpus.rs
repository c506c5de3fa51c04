//! The game corpus as the benchmarks and equivalence tests see it: every `games/*/perft.toml`, its
//! sources compiled with `regula_compiler::load`, and its expected perft counts.

use regula_compiler::optimize::{optimize, PassSet};
use regula_runtime::automaton::Automaton;
use std::path::{Path, PathBuf};

/// One compiled source of a corpus game.
pub struct CorpusGame {
    /// `folder/file`, e.g. `connect4/connect4.rg`.
    pub name: String,
    pub automaton: Automaton,
    /// The longest `run = "default"` list of expected counts (depth 0 first).
    pub expected: Vec<u64>,
    /// The automaton after every optimisation pass ([`load_corpus_optimised`] only).
    pub optimised: Option<Automaton>,
}

/// A source that did not compile, with the compiler's first message.
pub struct Skipped {
    pub name: String,
    pub reason: String,
}

/// The workspace root (this crate lives one level below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("benches lives one level below the root").to_path_buf()
}

fn expected_counts(manifest: &toml::Value) -> Vec<u64> {
    let mut best: Vec<u64> = Vec::new();
    for entry in manifest.get("counts").and_then(|c| c.as_array()).into_iter().flatten() {
        if entry.get("run").and_then(|r| r.as_str()).unwrap_or("default") != "default" {
            continue;
        }
        let counts: Vec<u64> = entry
            .get("expected")
            .and_then(|e| e.as_array())
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_integer().and_then(|i| u64::try_from(i).ok()))
            .collect();
        if counts.len() > best.len() {
            best = counts;
        }
    }
    best
}

/// Every corpus source, compiled, in folder order; sources that fail to load are listed apart.
/// `filter` keeps only games whose name contains it.
pub fn load_corpus(filter: Option<&str>) -> (Vec<CorpusGame>, Vec<Skipped>) {
    load_corpus_with(filter, false)
}

/// [`load_corpus`], each game also optimised into [`CorpusGame::optimised`] with the passes
/// `regula run` gives the fast engine ([`PassSet::for_fast_engine`]); a game whose optimised form does
/// not compile is listed as skipped.
pub fn load_corpus_optimised(filter: Option<&str>) -> (Vec<CorpusGame>, Vec<Skipped>) {
    load(filter, Mode::Both)
}

/// [`load_corpus`], with every optimisation pass run on each game first when `optimise` is set.
pub fn load_corpus_with(filter: Option<&str>, optimise: bool) -> (Vec<CorpusGame>, Vec<Skipped>) {
    load(filter, if optimise { Mode::Optimised } else { Mode::AsWritten })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    AsWritten,
    Optimised,
    Both,
}

fn load(filter: Option<&str>, mode: Mode) -> (Vec<CorpusGame>, Vec<Skipped>) {
    let games_dir = workspace_root().join("games");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&games_dir)
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.join("perft.toml").is_file()).collect())
        .unwrap_or_default();
    folders.sort();
    let (mut games, mut skipped) = (Vec::new(), Vec::new());
    for folder in folders {
        let folder_name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(folder.join("perft.toml")).unwrap_or_default();
        let manifest = match toml::from_str::<toml::Table>(&text) {
            Ok(table) => toml::Value::Table(table),
            Err(e) => {
                skipped.push(Skipped { name: folder_name, reason: format!("perft.toml: {e}") });
                continue;
            }
        };
        let expected = expected_counts(&manifest);
        let sources = manifest.get("sources").and_then(|s| s.as_array()).cloned().unwrap_or_default();
        for source in sources.iter().filter_map(|s| s.as_str()) {
            let name = format!("{folder_name}/{source}");
            if filter.is_some_and(|f| !name.contains(f)) {
                continue;
            }
            let text = match std::fs::read_to_string(folder.join(source)) {
                Ok(text) => text,
                Err(e) => {
                    skipped.push(Skipped { name, reason: e.to_string() });
                    continue;
                }
            };
            let optimise = |loaded: &regula_compiler::Loaded, passes: &PassSet| {
                let (game, _) = optimize(&loaded.rg, passes);
                regula_compiler::rg::compile_game(game)
            };
            let loaded = regula_compiler::load(source, &text).and_then(|loaded| match mode {
                Mode::AsWritten => Ok((loaded, None)),
                Mode::Optimised => Ok((optimise(&loaded, &PassSet::all())?, None)),
                Mode::Both => {
                    let optimised = optimise(&loaded, &PassSet::for_fast_engine())?;
                    Ok((loaded, Some(optimised.automaton)))
                }
            });
            match loaded {
                Ok((loaded, optimised)) => {
                    games.push(CorpusGame { name, automaton: loaded.automaton, expected: expected.clone(), optimised })
                }
                Err(diagnostics) => {
                    let reason = diagnostics.first().map_or_else(|| "no diagnostics".into(), |d| format!("{d:?}"));
                    skipped.push(Skipped { name, reason: reason.chars().take(200).collect() });
                }
            }
        }
    }
    (games, skipped)
}
