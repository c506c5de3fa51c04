//! The well-formed rule files of `test_data/rules/ok/` and the corpus's `games/rules-*`: every one
//! compiles; the parser reads each syntactic form as spec/rules.md says; and uniform random play
//! of shape-sort scores as the exact distribution worked out from its rules.

use regula_compiler::rules::{self, ast::*};
use regula_runtime::engine::ForwardModel;
use regula_runtime::playout::{run_playouts, PlayoutConfig};
use regula_runtime::reference::ReferenceEngine;
use std::path::PathBuf;

fn rule_files(dir: PathBuf) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flat_map(|e| {
            let path = e.unwrap().path();
            if path.is_dir() {
                rule_files(path)
            } else {
                vec![path]
            }
        })
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_ok_file_and_every_rules_game_compiles() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = rule_files(root.join("test_data/rules/ok"));
    files.extend(rule_files(root.join("../games")));
    assert!(files.len() >= 12, "{files:?}");
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let loaded = regula_compiler::load(&path.to_string_lossy(), &source).unwrap_or_else(|d| {
            panic!("{}:\n{}", path.display(), regula_compiler::diagnostics::render(&d, "f", &source))
        });
        assert!(loaded.warnings.is_empty(), "{}: {:?}", path.display(), loaded.warnings);
    }
}

#[test]
fn the_syntax_forms_file_reads_as_written() {
    let file = rules::parse(include_str!("../test_data/rules/ok/syntax_forms.rules")).unwrap();
    assert_eq!(file.orders.len(), 1);
    assert_eq!(file.orders[0].tiers, [vec![1, 6, 31, 36], vec![2], vec![5, 7]]);
    let Board::Fixed(pieces) = &file.board else { panic!("a fixed board") };
    // Shapes and colours are case-insensitive and kept lowercased.
    assert_eq!((pieces[1].shape.as_str(), pieces[1].color.as_str()), ("square", "blue"));
    assert_eq!(pieces[2].shape, "star");
    assert_eq!(file.lines.iter().map(|l| l.count).collect::<Vec<_>>(), [None, Some(2), None]);
    let first = &file.lines[0].atoms[1];
    assert_eq!(first.shapes.as_deref(), Some(&["circle".to_string(), "star".to_string()][..]));
    assert_eq!(first.positions.as_ref().map(Vec::len), Some(3));
    assert!(first.buckets.is_none());
    // Property form: any order, `*` components left out, `()` accepts anything.
    let counted = &file.lines[1].atoms[0];
    assert_eq!((counted.count, counted.shapes.as_deref()), (Some(1), Some(&["triangle".to_string()][..])));
    assert_eq!(file.lines[1].atoms[1], Atom { span: file.lines[1].atoms[1].span, ..Atom::default_any() });
    let negative = &file.lines[2].atoms[0];
    assert!(matches!(negative.buckets, Some(Expr::Num(-1, _))));
    assert!(negative.shapes.is_none());
}

#[test]
fn attempts_on_a_random_board_start_with_random() {
    let loaded = rules::compile(include_str!("../test_data/rules/ok/attempts_random.rules")).unwrap();
    let engine = ReferenceEngine::new(loaded.automaton).unwrap();
    let start = engine.start().unwrap();
    // 36 cells x 1 shape x 2 colours.
    assert_eq!(engine.chance_outcomes(&start).unwrap().len(), 72);
}

/// Exact shape-sort probabilities under uniform play (oracles/src/rules, `score_distribution`):
/// 0 with 0.896484375, 50 with 0.052734375, 73 with 0.03515625, 88 with 0.015625.
#[test]
fn shape_sort_playouts_match_the_exact_score_distribution() {
    let loaded = rules::compile(include_str!("../../games/rules-shape-sort/shape-sort.rules")).unwrap();
    let engine = ReferenceEngine::new(loaded.automaton).unwrap();
    let report = run_playouts(&engine, &PlayoutConfig { count: 4000, seed: 7, threads: 1, max_moves: 1000 }).unwrap();
    let share = |score: i64| {
        let count: u64 = report.score_distribution.iter().filter(|c| c.scores[0].value == score).map(|c| c.count).sum();
        count as f64 / report.playouts as f64
    };
    // Four standard deviations of a 4000-playout frequency at these probabilities.
    for (score, exact) in [(0, 0.896484375), (50, 0.052734375), (73, 0.03515625), (88, 0.015625)] {
        let sigma = (exact * (1.0 - exact) / 4000.0_f64).sqrt();
        assert!((share(score) - exact).abs() < 4.0 * sigma, "score {score}: {} vs {exact}", share(score));
    }
}
