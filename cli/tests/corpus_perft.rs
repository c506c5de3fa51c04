//! The corpus perft runner: every `games/*/perft.toml`, every listed source, every count.
//!
//! Each source is compiled with `regula_compiler::load` and run on the reference engine; its
//! perft counts must equal every `default` entry (and every `slow` entry when `REGULA_SLOW=1`).
//! A source whose format the compiler does not know yet is reported as skipped, never as passed.
//! Run with `--nocapture` to see the table of results.

use regula_compiler::SourceFormat;
use regula_oracles::perft_file;
use regula_runtime::reference::ReferenceEngine;
use std::path::Path;
use std::time::Instant;

enum Outcome {
    Passed { checks: usize, seconds: f64 },
    Skipped(String),
    Failed(String),
}

#[test]
fn every_game_gives_its_expected_perft_counts() {
    let games = perft_file::games_dir();
    let mut files: Vec<_> = std::fs::read_dir(&games)
        .expect("games/ is readable")
        .filter_map(|entry| entry.ok().map(|e| e.path().join("perft.toml")))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no games/*/perft.toml found under {}", games.display());

    let slow = perft_file::slow_enabled();
    let (mut passed, mut skipped, mut failed) = (0, 0, Vec::new());
    for file in &files {
        let folder = file.parent().expect("perft.toml has a folder");
        let game = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let expectations = match perft_file::read(file) {
            Ok(expectations) => expectations,
            Err(message) => {
                eprintln!("FAIL  {game}: {message}");
                failed.push(format!("{game}: {message}"));
                continue;
            }
        };
        for source in &expectations.sources {
            let label = format!("{game}/{source}");
            match check_source(&folder.join(source), &expectations, slow) {
                Outcome::Passed { checks, seconds } => {
                    eprintln!("ok    {label}: {checks} count list(s) in {seconds:.2} s");
                    passed += 1;
                }
                Outcome::Skipped(why) => {
                    eprintln!("SKIP  {label}: {why}");
                    skipped += 1;
                }
                Outcome::Failed(why) => {
                    eprintln!("FAIL  {label}: {why}");
                    failed.push(format!("{label}: {why}"));
                }
            }
        }
    }
    eprintln!(
        "corpus perft: {passed} passed, {skipped} skipped, {} failed (slow entries {})",
        failed.len(),
        if slow { "included" } else { "left out; REGULA_SLOW=1 runs them" }
    );
    assert!(failed.is_empty(), "corpus perft failures:\n{}", failed.join("\n"));
    assert!(passed > 0, "no game source was checked");
}

fn check_source(path: &Path, expectations: &perft_file::PerftFile, slow: bool) -> Outcome {
    let name = path.display().to_string();
    if SourceFormat::from_file_name(&name).is_none() {
        return Outcome::Skipped(format!(
            "the compiler does not read this format yet (it reads: {})",
            SourceFormat::EXTENSIONS.join(", ")
        ));
    }
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return Outcome::Failed(format!("cannot read: {e}")),
    };
    let loaded = match regula_compiler::load(&name, &text) {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            return Outcome::Failed(format!(
                "does not compile:\n{}",
                regula_compiler::diagnostics::render(&diagnostics, &name, &text)
            ))
        }
    };
    let engine = match ReferenceEngine::new(loaded.automaton) {
        Ok(engine) => engine,
        Err(e) => return Outcome::Failed(format!("the engine rejects it: {e}")),
    };
    let started = Instant::now();
    let mut checks = 0;
    for counts in &expectations.counts {
        if counts.is_slow() && !slow {
            continue;
        }
        let depth = counts.expected.len().saturating_sub(1);
        match regula_runtime::perft::perft(&engine, depth) {
            Ok(actual) if actual == counts.expected => checks += 1,
            Ok(actual) => {
                return Outcome::Failed(format!("perft {actual:?}, expected {:?} ({})", counts.expected, counts.source))
            }
            Err(e) => return Outcome::Failed(format!("runtime error at depth {depth}: {e}")),
        }
    }
    if checks == 0 {
        return Outcome::Skipped("only slow entries (REGULA_SLOW=1 runs them)".to_string());
    }
    Outcome::Passed { checks, seconds: started.elapsed().as_secs_f64() }
}
