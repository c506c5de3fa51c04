//! The malformed rule files in `test_data/rules/err/`: each file's first line names the codes it
//! must produce (`// expect: E0705`, read by the shared runner; the parser sees that line as a `#`
//! comment); the source and its rendered diagnostics are snapshotted side by side. Also: every
//! E07xx code of `compiler/src/rules` is listed in spec/errors.md.

use regula_compiler::diagnostics::{line_column, Diagnostic};
use regula_compiler::rules;
use std::path::PathBuf;

use crate::common;

/// The diagnostics of a rule file whose first line is the runner's `// expect:` line, read as a
/// comment (`# ` has the length of `//`, so every span stays where it was).
fn diagnose(source: &str) -> Vec<Diagnostic> {
    let masked = match source.strip_prefix("//") {
        Some(rest) => format!("# {rest}"),
        None => source.to_string(),
    };
    match rules::compile(&masked) {
        Ok(loaded) => loaded.warnings,
        Err(diagnostics) => diagnostics,
    }
}

#[test]
fn every_err_file_reports_exactly_its_mistakes() {
    common::check_err_corpus("rules/err", "rules", 20, "rules_errors", diagnose);
}

#[test]
fn three_unrelated_mistakes_are_located_on_their_lines() {
    let source = include_str!("../test_data/rules/err/three_mistakes.rules");
    let mut located: Vec<(usize, &str)> =
        diagnose(source).iter().map(|d| (line_column(source, d.primary.span.start).0, d.code)).collect();
    located.sort();
    assert_eq!(located, [(3, "E0705"), (4, "E0706"), (5, "E0709")]);
}

#[test]
fn a_case_slip_in_a_variable_suggests_the_right_name() {
    let diagnostics = diagnose("@piece 1 circle red\n(*,*,*,*,nearby)\n");
    assert_eq!(diagnostics.len(), 1);
    assert!(diagnostics[0].help.as_deref().unwrap().contains("did you mean `Nearby`"), "{diagnostics:#?}");
}

#[test]
fn every_rules_code_is_documented() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let index = std::fs::read_to_string(root.join("../spec/errors.md")).unwrap();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root.join("src/rules")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for (at, _) in text.match_indices("\"E07") {
            let code = &text[at + 1..at + 6];
            if text.get(at + 6..at + 7) == Some("\"") {
                found.push(code.to_string());
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(found.len() >= 15, "only {found:?}");
    let missing: Vec<&String> = found.iter().filter(|c| !index.contains(&format!("| {c} |"))).collect();
    assert!(missing.is_empty(), "codes missing from spec/errors.md: {missing:?}");
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    for (open, close) in [("(", ")"), ("[", "]"), ("!", "")] {
        let expr = format!("{}0{}", open.repeat(100_000), close.repeat(100_000));
        let diagnostics = diagnose(&format!("@piece 1 circle red\n(*,*,*,*,{expr})\n"));
        assert_eq!(diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0702"], "{open}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Any text made of rule-file pieces gives a result or located diagnostics, never a panic.
    #[test]
    fn arbitrary_rule_text_never_panics(parts in proptest::collection::vec(proptest::sample::select(vec![
        "(", ")", "[", "]", ",", ":", "*", "=", "==", "!=", "<", "!", "+", "-", "/", "%", ".", "\n", " ", "#c\n",
        "p", "pc", "ps", "Nearby", "Remotest", "0", "1", "3", "36", "99", "L1", "T", "Order", "Zig", "red", "circle",
        "@piece", "@random", "@mode", "attempts", "@errors", "shape", "bucket", "count", "pos", "color", "\"x\"", "é",
    ]), 0..60)) {
        let text = format!("@piece 1 circle red\n{}", parts.concat());
        match rules::compile(&text) {
            Ok(_) => {}
            Err(diagnostics) => {
                proptest::prop_assert!(!diagnostics.is_empty());
                for d in &diagnostics {
                    proptest::prop_assert!(d.primary.span.end <= text.len());
                    proptest::prop_assert!(d.code != "E0799", "translation bug on {text:?}: {}", d.message);
                }
            }
        }
    }
}
