//! The malformed HRG programs in `test_data/hrg/err/`: each file's first line names the codes it
//! must produce (`// expect: E0401 E0409`); the source and its rendered diagnostics are
//! snapshotted side by side.

use regula_compiler::diagnostics::{line_column, Diagnostic};
use regula_compiler::{hrg, rg};

use crate::common;

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

#[test]
fn every_err_file_reports_exactly_its_mistakes() {
    common::check_err_corpus("hrg/err", "hrg", 40, "hrg_errors", diagnose);
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
