//! The malformed blocks files in `test_data/blocks/err/`: each file's first line names the codes
//! it must produce (`# expect: E0603`); every diagnostic must be located and carry a help line;
//! the source and its rendered diagnostics are snapshotted side by side (insta).

use regula_compiler::blocks;
use regula_compiler::diagnostics::{line_column, render, Diagnostic};
use std::path::PathBuf;

fn diagnose(source: &str) -> Vec<Diagnostic> {
    match blocks::translate(source) {
        Ok(translated) => translated.warnings,
        Err(diagnostics) => diagnostics,
    }
}

fn expected_codes(name: &str, source: &str) -> Vec<String> {
    let first = source.lines().next().unwrap_or_default();
    let codes =
        first.strip_prefix("# expect:").unwrap_or_else(|| panic!("{name}: first line must be `# expect: CODES`"));
    let mut codes: Vec<String> = codes.split_whitespace().map(str::to_string).collect();
    codes.sort();
    codes
}

#[test]
fn every_err_file_reports_exactly_its_mistakes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/blocks/err");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "blocks"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 30, "only {} malformed inputs", paths.len());
    let mut failures = Vec::new();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&path).unwrap();
        let diagnostics = diagnose(&source);
        let rendered = render(&diagnostics, &name, &source);
        let mut codes: Vec<String> = diagnostics.iter().map(|d| d.code.to_string()).collect();
        codes.sort();
        let expected = expected_codes(&name, &source);
        if codes != expected {
            failures.push(format!("{name}: expected {expected:?}, got {codes:?}\n{rendered}"));
        }
        for diagnostic in &diagnostics {
            let (line, column) = line_column(&source, diagnostic.primary.span.start);
            assert!(rendered.contains(&format!("{name}:{line}:{column}: ")), "{name}: no location in\n{rendered}");
            assert!(rendered.contains(&format!("[{}]", diagnostic.code)), "{name}: code missing in\n{rendered}");
            assert!(diagnostic.primary.span.end <= source.len(), "{name}: span past the end");
            if diagnostic.help.is_none() {
                failures.push(format!("{name}: {} has no help line", diagnostic.code));
            }
        }
        let snapshot = format!("--- {name} ---\n{source}\n--- diagnostics ---\n{rendered}");
        let stem = name.trim_end_matches(".blocks").to_string();
        insta::with_settings!({ snapshot_path => "snapshots/blocks_errors", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(stem, snapshot);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn three_unrelated_mistakes_are_each_located() {
    let source = include_str!("../test_data/blocks/err/three_mistakes.blocks");
    let mut located: Vec<(usize, usize, &str)> = diagnose(source)
        .iter()
        .map(|d| {
            let (line, column) = line_column(source, d.primary.span.start);
            (line, column, d.code)
        })
        .collect();
    located.sort();
    assert_eq!(located, [(3, 2, "E0603"), (6, 8, "E0608"), (10, 25, "E0605")]);
}

#[test]
fn unknown_blocks_get_a_suggestion() {
    let source = include_str!("../test_data/blocks/err/unknown_block.blocks");
    let diagnostics = diagnose(source);
    assert_eq!(diagnostics[0].help.as_deref(), Some("did you mean `act_put2empty`?"));
}

#[test]
fn every_blocks_code_is_documented() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let index = std::fs::read_to_string(root.join("../spec/errors.md")).unwrap();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root.join("src/blocks")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for (at, _) in text.match_indices("\"E06").chain(text.match_indices("\"W06")) {
            found.push(text[at + 1..at + 6].to_string());
        }
    }
    found.sort();
    found.dedup();
    assert!(found.len() >= 14, "{found:?}");
    let missing: Vec<&String> = found.iter().filter(|code| !index.contains(&format!("| {code} |"))).collect();
    assert!(missing.is_empty(), "codes missing from spec/errors.md: {missing:?}");
}
