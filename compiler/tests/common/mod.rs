//! Test support shared by the diagnostics tests of every front end: the `err/` corpus runner.
//!
//! Each file of an `err/` folder starts with `// expect: CODES`; the runner checks the codes, that
//! every diagnostic is located (`file:line:column`), carries its code and a help line, and
//! snapshots the source and the rendered diagnostics side by side (insta).

use regula_compiler::diagnostics::{line_column, render, Diagnostic};
use std::path::PathBuf;

/// The codes a file's first line promises, sorted.
pub fn expected_codes(name: &str, source: &str) -> Vec<String> {
    let first = source.lines().next().unwrap_or_default();
    let codes =
        first.strip_prefix("// expect:").unwrap_or_else(|| panic!("{name}: first line must be `// expect: CODES`"));
    let mut codes: Vec<String> = codes.split_whitespace().map(str::to_string).collect();
    codes.sort();
    codes
}

/// Runs every `*.extension` file of `test_data/<folder>` through `diagnose` and checks it as the
/// module docs say; snapshots go to `tests/snapshots/<snapshots>`.
pub fn check_err_corpus(
    folder: &str,
    extension: &str,
    at_least: usize,
    snapshots: &str,
    diagnose: fn(&str) -> Vec<Diagnostic>,
) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data").join(folder);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    paths.sort();
    assert!(paths.len() >= at_least, "only {} malformed inputs in {}", paths.len(), dir.display());
    let snapshot_path = format!("../snapshots/{snapshots}");
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
            let header = format!("{name}:{line}:{column}: ");
            assert!(rendered.contains(&header), "{name}: no `{header}` header in\n{rendered}");
            assert!(rendered.contains(&format!("[{}]", diagnostic.code)), "{name}: code missing in\n{rendered}");
            assert!(diagnostic.code.len() == 5 && diagnostic.code[1..].chars().all(|c| c.is_ascii_digit()));
            assert!(diagnostic.primary.span.end <= source.len(), "{name}: span past the end");
            if diagnostic.help.is_none() {
                failures.push(format!("{name}: {} has no help line", diagnostic.code));
            }
        }
        let snapshot = format!("--- {name} ---\n{source}\n--- diagnostics ---\n{rendered}");
        let stem = name.trim_end_matches(&format!(".{extension}")).to_string();
        insta::with_settings!({ snapshot_path => snapshot_path.clone(), prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(stem, snapshot);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
