//! The malformed RG inputs in `test_data/rg/err/`: each file's first line names the codes it must
//! produce (`// expect: E0201 E0210`); the rendered diagnostics are snapshotted next to the source.

use regula_compiler::diagnostics::{line_column, Diagnostic};
use regula_compiler::rg;
use std::path::PathBuf;

use crate::common;

fn diagnose(source: &str) -> Vec<Diagnostic> {
    match rg::parse(source) {
        Err(diagnostics) => diagnostics,
        Ok(game) => rg::check(&game),
    }
}

#[test]
fn every_err_file_reports_exactly_its_mistakes() {
    common::check_err_corpus("rg/err", "rg", 25, "rg_errors", diagnose);
}

#[test]
fn three_unrelated_mistakes_give_three_diagnostics() {
    let source = include_str!("../test_data/rg/err/three_mistakes.rg");
    let diagnostics = diagnose(source);
    assert_eq!(diagnostics.len(), 3);
    let lines: Vec<usize> = diagnostics.iter().map(|d| line_column(source, d.primary.span.start).0).collect();
    assert_eq!(lines, [6, 7, 8]);
}

#[test]
fn several_syntax_errors_are_reported_in_one_run() {
    let source = "type Player = {x;\ntype Score = {0};\nvar a Score = 0;\nbegin, end player = keeper;\nbegin, end: player = keeper;";
    let diagnostics = diagnose(source);
    let lines: Vec<usize> = diagnostics.iter().map(|d| line_column(source, d.primary.span.start).0).collect();
    assert_eq!(lines, [1, 3, 4], "{diagnostics:#?}");
}

#[test]
fn every_code_the_compiler_emits_is_documented() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let index = std::fs::read_to_string(root.join("../spec/errors.md")).unwrap();
    let mut missing = Vec::new();
    let mut found = 0;
    let mut sources = Vec::new();
    for folder in ["src", "src/rg", "src/hrg", "src/optimize"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "rs") {
                sources.push(path);
            }
        }
    }
    for path in sources {
        let text = std::fs::read_to_string(path).unwrap();
        for (at, _) in text.match_indices('"') {
            let code = text.get(at + 1..at + 6).unwrap_or_default();
            let is_code = code.len() == 5
                && (code.starts_with("E0") || code.starts_with("W0"))
                && code[1..].chars().all(|c| c.is_ascii_digit())
                && text.get(at + 6..at + 7) == Some("\"");
            if is_code {
                found += 1;
                if !index.contains(&format!("| {code} |")) {
                    missing.push(code.to_string());
                }
            }
        }
    }
    assert!(found > 60, "only {found} codes found in compiler/src");
    assert!(missing.is_empty(), "codes missing from spec/errors.md: {missing:?}");
}
