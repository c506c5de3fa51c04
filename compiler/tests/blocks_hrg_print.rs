//! The HRG printer (`hrg::print`) on every corpus `.hrg` game and every blocks game: the printed
//! program parses again, prints identically, lowers to the same RG text, and gives the same perft
//! counts as the original.

use regula_compiler::{blocks, hrg, load, rg};
use regula_runtime::perft::perft_sequential;
use regula_runtime::reference::ReferenceEngine;
use std::path::{Path, PathBuf};

/// Every `.hrg` and `.blocks` file under games/ (variants included).
fn corpus() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "hrg" || e == "blocks") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games"), &mut paths);
    paths.sort();
    paths
}

/// perft to the deepest depth (at most 4) whose count stays small, so the test stays fast.
fn small_perft(engine: &ReferenceEngine) -> Vec<u64> {
    let mut counts = perft_sequential(engine, 1).unwrap();
    for depth in 2..=4 {
        if counts.last().copied().unwrap_or(0) > 60 {
            break;
        }
        counts = perft_sequential(engine, depth).unwrap();
    }
    counts
}

#[test]
fn printed_programs_compile_to_the_same_games() {
    let paths = corpus();
    assert!(paths.len() >= 20, "{paths:?}");
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&path).unwrap();
        let program = if name.ends_with(".blocks") {
            blocks::translate(&source).unwrap().program
        } else {
            hrg::parse(&source).unwrap()
        };
        let printed = hrg::print::print(&program);
        let reparsed =
            hrg::parse(&printed).unwrap_or_else(|e| panic!("{name}: the printed program does not parse: {e:?}"));
        assert_eq!(hrg::print::print(&reparsed), printed, "{name}: printing is not stable");
        let original = load(&name, &source).unwrap();
        let again = load("printed.hrg", &printed).unwrap();
        assert_eq!(rg::print(&again.rg), rg::print(&original.rg), "{name}: the RG differs");
        let original_counts = small_perft(&ReferenceEngine::new(original.automaton).unwrap());
        let again_counts = small_perft(&ReferenceEngine::new(again.automaton).unwrap());
        assert_eq!(again_counts, original_counts, "{name}");
    }
}
