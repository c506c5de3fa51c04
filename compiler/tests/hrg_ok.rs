//! The valid HRG programs under test_data/hrg/ok: each lowers to RG and compiles with no
//! diagnostics, prints as RG text that parses back to the same tree, and (for the games with
//! known counts) gives the expected perft on the reference engine.

use regula_compiler::{diagnostics, hrg, rg};
use regula_runtime::perft::perft;
use regula_runtime::reference::ReferenceEngine;
use std::path::Path;

fn ok_sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/hrg/ok");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "hrg"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

fn compile(name: &str, source: &str) -> regula_compiler::Loaded {
    hrg::compile(source).unwrap_or_else(|d| panic!("{name}:\n{}", diagnostics::render(&d, name, source)))
}

#[test]
fn every_ok_program_compiles_without_diagnostics() {
    let sources = ok_sources();
    assert!(sources.len() >= 4, "expected at least four ok programs");
    for (name, source) in sources {
        let loaded = compile(&name, &source);
        assert!(loaded.warnings.is_empty(), "{name}:\n{}", diagnostics::render(&loaded.warnings, &name, &source));
    }
}

#[test]
fn every_ok_program_round_trips_through_rg_text() {
    for (name, source) in ok_sources() {
        let loaded = compile(&name, &source);
        let text = rg::print(&loaded.rg);
        let reparsed =
            rg::parse(&text).unwrap_or_else(|d| panic!("{name}:\n{}", diagnostics::render(&d, "printed.rg", &text)));
        assert_eq!(reparsed, loaded.rg, "{name}: printing and parsing changed the tree");
    }
}

fn engine(source: &str) -> ReferenceEngine {
    ReferenceEngine::new(compile("game.hrg", source).automaton).unwrap()
}

#[test]
fn tictactoe_matches_the_published_perft() {
    let source = include_str!("../test_data/hrg/ok/tictactoe.hrg");
    let engine = engine(source);
    assert_eq!(perft(&engine, 6).unwrap(), [1, 9, 72, 504, 3024, 15120, 54720]);
    // The same game printed as RG text and compiled from that text.
    let text = rg::print(&compile("tictactoe.hrg", source).rg);
    let reloaded = ReferenceEngine::new(rg::compile(&text).unwrap().automaton).unwrap();
    assert_eq!(perft(&reloaded, 6).unwrap(), [1, 9, 72, 504, 3024, 15120, 54720]);
}
