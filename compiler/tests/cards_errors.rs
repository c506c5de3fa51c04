//! The malformed card programs in `test_data/cards/err/`: each file's first line names the codes it
//! must produce (`// expect: E0807`); the source and its rendered diagnostics are snapshotted.

use regula_compiler::cards;
use regula_compiler::diagnostics::Diagnostic;
use std::path::PathBuf;

use crate::common;

fn diagnose(source: &str) -> Vec<Diagnostic> {
    match cards::parse(source) {
        Err(diagnostics) => diagnostics,
        Ok(program) => match cards::translate(&program) {
            Err(diagnostics) => diagnostics,
            Ok(_) => Vec::new(),
        },
    }
}

#[test]
fn every_err_file_reports_exactly_its_mistakes() {
    common::check_err_corpus("cards/err", "cards", 12, "cards_errors", diagnose);
}

#[test]
fn every_code_the_card_translator_emits_is_documented() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let index = std::fs::read_to_string(root.join("../spec/errors.md")).unwrap();
    let mut found = 0;
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("src/cards")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for (at, _) in text.match_indices("\"E08") {
            let code = &text[at + 1..at + 6];
            found += 1;
            if !index.contains(&format!("| {code} |")) {
                missing.push(code.to_string());
            }
        }
    }
    assert!(found > 20, "only {found} codes found in compiler/src/cards");
    assert!(missing.is_empty(), "codes missing from spec/errors.md: {missing:?}");
}

#[test]
fn every_ok_program_compiles() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/cards/ok");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        if let Err(diagnostics) = cards::compile(&source) {
            panic!("{}: {diagnostics:#?}", path.display());
        }
        count += 1;
    }
    assert!(count >= 1);
}
