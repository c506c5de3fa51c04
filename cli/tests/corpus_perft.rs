//! The corpus perft runner: every `games/*/perft.toml`, every listed source, every count.
//!
//! Each source is compiled with `regula_compiler::load` and run on the reference engine; its
//! perft counts must equal every `default` entry (and every `slow` entry when `REGULA_SLOW=1`).
//! A source whose format the compiler does not know yet is reported as skipped, never as passed.
//! Every source also makes the round trip source -> automaton -> RG text -> automaton, and the
//! reloaded game must give the same counts (so `regula compile` output is as good as its input).
//! Run with `--nocapture` to see the table of results (one table per part of the corpus).

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

/// The corpus in interleaved parts, one `#[test]` each, so the harness spreads the folders over
/// every core: part `k` of `n` checks the folders whose place in the sorted list is `k` modulo `n`
/// (the part count is the length of the list, so every folder is in exactly one part).
macro_rules! parts {
    ($($part:ident = $index:literal),+) => {
        mod every_game_gives_its_expected_perft_counts {
            const PARTS: usize = [$($index),+].len();
            $(#[test]
            fn $part() {
                super::check_part($index, PARTS);
            })+
        }
    };
}
parts!(part_0 = 0, part_1 = 1, part_2 = 2, part_3 = 3, part_4 = 4, part_5 = 5);

fn check_part(part: usize, parts: usize) {
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
    for file in files.iter().skip(part).step_by(parts) {
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
        for unlisted in unlisted_sources(folder, &expectations.sources) {
            eprintln!("SKIP  {game}/{unlisted}: not listed in perft.toml `sources`, so its counts are not checked");
            skipped += 1;
        }
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
        "corpus perft, part {part} of {parts}: {passed} passed, {skipped} skipped, {} failed (slow entries {})",
        failed.len(),
        if slow { "included" } else { "left out; REGULA_SLOW=1 runs them" }
    );
    assert!(failed.is_empty(), "corpus perft failures:\n{}", failed.join("\n"));
    assert!(passed > 0, "no game source of part {part} was checked");
}

/// Game files in a folder that its perft.toml does not list (reported, so none is silently ignored).
fn unlisted_sources(folder: &Path, listed: &[String]) -> Vec<String> {
    let mut extensions: Vec<&str> = SourceFormat::EXTENSIONS.to_vec();
    // Formats whose front end may not have landed yet still count as game files.
    extensions.extend(["rg", "hrg"]);
    let mut unlisted: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok().and_then(|e| e.file_name().into_string().ok()))
        .filter(|name| name.rsplit_once('.').is_some_and(|(_, ext)| extensions.contains(&ext)))
        .filter(|name| !listed.contains(name))
        .collect();
    unlisted.sort();
    unlisted
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
    let rg_text = regula_compiler::rg::print(&loaded.rg);
    let engine = match ReferenceEngine::new(loaded.automaton) {
        Ok(engine) => engine,
        Err(e) => return Outcome::Failed(format!("the engine rejects it: {e}")),
    };
    let started = Instant::now();
    let applicable: Vec<&perft_file::Counts> =
        expectations.counts.iter().filter(|counts| slow || !counts.is_slow()).collect();
    if applicable.is_empty() {
        return Outcome::Skipped("only slow entries (REGULA_SLOW=1 runs them)".to_string());
    }
    // One perft to the deepest depth asked for; every entry is compared with its prefix.
    let depth = applicable.iter().map(|counts| counts.expected.len().saturating_sub(1)).max().unwrap_or(0);
    let actual = match regula_runtime::perft::perft(&engine, depth) {
        Ok(actual) => actual,
        Err(e) => return Outcome::Failed(format!("runtime error within depth {depth}: {e}")),
    };
    for counts in &applicable {
        if actual.get(..counts.expected.len()) != Some(&counts.expected[..]) {
            let shown = &actual[..counts.expected.len().min(actual.len())];
            return Outcome::Failed(format!("perft {shown:?}, expected {:?} ({})", counts.expected, counts.source));
        }
    }
    if let Err(why) = round_trip_agrees(&name, &rg_text, depth, &actual) {
        return Outcome::Failed(why);
    }
    let checks = applicable.len();
    Outcome::Passed { checks, seconds: started.elapsed().as_secs_f64() }
}

/// Reloads the game from its printed RG text and checks it gives the same perft counts.
fn round_trip_agrees(name: &str, rg_text: &str, depth: usize, expected: &[u64]) -> Result<(), String> {
    let printed_name = format!("{name}.printed.rg");
    let reloaded = regula_compiler::load(&printed_name, rg_text).map_err(|diagnostics| {
        format!(
            "its printed RG text does not compile:\n{}",
            regula_compiler::diagnostics::render(&diagnostics, &printed_name, rg_text)
        )
    })?;
    let engine =
        ReferenceEngine::new(reloaded.automaton).map_err(|e| format!("the engine rejects its printed RG text: {e}"))?;
    let actual = regula_runtime::perft::perft(&engine, depth)
        .map_err(|e| format!("its printed RG text fails within depth {depth}: {e}"))?;
    if actual != expected {
        return Err(format!("its printed RG text gives perft {actual:?}, the source gives {expected:?}"));
    }
    Ok(())
}
