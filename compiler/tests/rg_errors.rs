//! The malformed RG inputs in `test_data/rg/err/`: each file's first line names the codes it must
//! produce (`// expect: E0201 E0210`); the rendered diagnostics are snapshotted next to the source.

use regula_compiler::diagnostics::{line_column, render, Diagnostic};
use regula_compiler::rg;
use std::path::PathBuf;

fn diagnose(source: &str) -> Vec<Diagnostic> {
    match rg::parse(source) {
        Err(diagnostics) => diagnostics,
        Ok(game) => rg::check(&game),
    }
}

fn expected_codes(name: &str, source: &str) -> Vec<String> {
    let first = source.lines().next().unwrap_or_default();
    let codes =
        first.strip_prefix("// expect:").unwrap_or_else(|| panic!("{name}: first line must be `// expect: CODES`"));
    let mut codes: Vec<String> = codes.split_whitespace().map(str::to_string).collect();
    codes.sort();
    codes
}

#[test]
fn every_err_file_reports_exactly_its_mistakes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/rg/err");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rg"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 25, "only {} malformed inputs", paths.len());
    let mut failures = Vec::new();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&path).unwrap();
        let diagnostics = diagnose(&source);
        let rendered = render(&diagnostics, &name, &source);
        let mut codes: Vec<String> = diagnostics.iter().map(|d| d.code.to_string()).collect();
        codes.sort();
        if codes != expected_codes(&name, &source) {
            failures.push(format!("{name}: expected {:?}, got {codes:?}\n{rendered}", expected_codes(&name, &source)));
        }
        for diagnostic in &diagnostics {
            let (line, column) = line_column(&source, diagnostic.primary.span.start);
            let header = format!("{name}:{line}:{column}: ");
            assert!(rendered.contains(&header), "{name}: no `{header}` header in\n{rendered}");
            assert!(rendered.contains(&format!("[{}]", diagnostic.code)), "{name}: code missing in\n{rendered}");
            assert!(diagnostic.code.len() == 5 && diagnostic.code[1..].chars().all(|c| c.is_ascii_digit()));
            assert!(diagnostic.help.is_some(), "{name}: {} has no help line", diagnostic.code);
        }
        let snapshot = format!("--- {name} ---\n{source}\n--- diagnostics ---\n{rendered}");
        insta::with_settings!({ snapshot_path => "snapshots/rg_errors", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name.trim_end_matches(".rg"), snapshot);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
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
