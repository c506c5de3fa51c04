//! The malformed HRG programs in `test_data/hrg/err/`: each file's first line names the codes it
//! must produce (`// expect: E0401 E0409`); the source and its rendered diagnostics are
//! snapshotted side by side.

use regula_compiler::diagnostics::{line_column, render, Diagnostic};
use regula_compiler::{hrg, rg};
use std::path::PathBuf;

/// Every diagnostic of a program: syntax errors, else HRG checks, else the RG validator's.
fn diagnose(source: &str) -> Vec<Diagnostic> {
    match hrg::parse(source) {
        Err(diagnostics) => diagnostics,
        Ok(program) => match hrg::lower(&program) {
            Err(diagnostics) => diagnostics,
            Ok((game, mut warnings)) => {
                warnings.extend(rg::check(&game));
                warnings
            }
        },
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
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/hrg/err");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hrg"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 40, "only {} malformed programs", paths.len());
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
            assert!(diagnostic.primary.span.end <= source.len(), "{name}: span past the end");
            if diagnostic.help.is_none() {
                failures.push(format!("{name}: {} has no help line", diagnostic.code));
            }
        }
        let snapshot = format!("--- {name} ---\n{source}\n--- diagnostics ---\n{rendered}");
        insta::with_settings!({ snapshot_path => "snapshots/hrg_errors", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name.trim_end_matches(".hrg"), snapshot);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn three_unrelated_mistakes_give_three_located_diagnostics() {
    let source = include_str!("../test_data/hrg/err/three_mistakes.hrg");
    let diagnostics = diagnose(source);
    let mut located: Vec<(usize, &str)> =
        diagnostics.iter().map(|d| (line_column(source, d.primary.span.start).0, d.code)).collect();
    located.sort();
    assert_eq!(located, [(8, "E0409"), (9, "E0401"), (10, "E0414")]);
}

#[test]
fn syntax_errors_in_separate_declarations_are_all_reported() {
    let source = "domain Player = x | o\ndomain Score = 0 |\ngraph g() { x = = o }\nf : Player -> Player\nf(x) = )\ngraph rules() { end() }";
    let lines: Vec<usize> = diagnose(source).iter().map(|d| line_column(source, d.primary.span.start).0).collect();
    assert_eq!(lines, [3, 3, 5]);
}
