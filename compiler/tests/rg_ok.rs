//! The valid RG games in `test_data/rg/ok/`: each checks clean, round-trips through the printer,
//! and lowers to the tables its text describes.

use regula_compiler::diagnostics::render;
use regula_compiler::rg::{self, ast};
use regula_runtime::automaton::{Automaton, Expr, Label, Type, Value};
use std::path::PathBuf;

fn ok_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/rg/ok")
}

fn ok_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(ok_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "rg"))
        .map(|path| (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&path).unwrap()))
        .collect();
    files.sort();
    files
}

fn load(name: &str) -> (ast::Game, Automaton) {
    let source = std::fs::read_to_string(ok_dir().join(name)).unwrap();
    let loaded = rg::compile(&source).unwrap_or_else(|d| panic!("{}", render(&d, name, &source)));
    (loaded.rg, loaded.automaton)
}

#[test]
fn every_ok_game_checks_clean_and_round_trips() {
    let files = ok_files();
    assert!(files.len() >= 5, "expected the five ok games, found {}", files.len());
    for (name, source) in files {
        let game = rg::parse(&source).unwrap_or_else(|d| panic!("{}", render(&d, &name, &source)));
        let diagnostics = rg::check(&game);
        assert!(diagnostics.is_empty(), "{}", render(&diagnostics, &name, &source));
        let printed = rg::print(&game);
        let reparsed = rg::parse(&printed).unwrap_or_else(|d| panic!("{}", render(&d, &name, &printed)));
        assert_eq!(reparsed, game, "{name}: parse(print(g)) != g");
        assert_eq!(rg::print(&reparsed), printed, "{name}: printing is not a fixed point");
        assert_eq!(rg::lower(&reparsed), rg::lower(&game), "{name}: lowering depends on the layout");
    }
}

fn symbols(automaton: &Automaton, ids: &[u32]) -> Vec<String> {
    ids.iter().map(|&id| automaton.symbol_name(id).to_string()).collect()
}

#[test]
fn minimal_game_gets_the_builtins() {
    let (game, automaton) = load("minimal.rg");
    assert_eq!(game.decls.len(), 3, "built-ins are not added to the syntax tree");
    assert_eq!(symbols(&automaton, &automaton.players), ["x"]);
    assert_eq!(symbols(&automaton, &automaton.scores), ["0"]);
    assert_eq!(automaton.symbol_name(automaton.keeper), "keeper");
    assert_eq!(automaton.symbol_name(automaton.random), "random");
    let names: Vec<_> = automaton.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["goals", "player", "visible"]);
    let goals = &automaton.variables[automaton.goals_var as usize];
    assert_eq!(
        goals.initial,
        Value::Map { entries: vec![], default: Box::new(Value::Symbol(automaton.symbol_id("0").unwrap())) }
    );
    let player = &automaton.variables[automaton.player_var as usize];
    assert_eq!(player.initial, Value::Symbol(automaton.keeper));
    let player_or_system = &automaton.types[player.ty as usize];
    assert_eq!(automaton.type_names[player.ty as usize].as_deref(), Some("PlayerOrSystem"));
    let Type::Set(members) = player_or_system else { panic!("PlayerOrSystem is a set") };
    assert_eq!(symbols(&automaton, members), ["x", "keeper", "random"]);
    let visible = &automaton.variables[automaton.visible_var as usize];
    assert_eq!(
        visible.initial,
        Value::Map { entries: vec![], default: Box::new(Value::Symbol(automaton.symbol_id("1").unwrap())) }
    );
    assert_eq!(automaton.nodes.len(), 2);
    assert_eq!(automaton.node_id("begin"), Some(automaton.begin));
    assert_eq!(automaton.node_id("end"), Some(automaton.end));
    assert_eq!(
        automaton.out_edges(automaton.begin),
        [regula_runtime::automaton::Edge {
            source: automaton.begin,
            target: automaton.end,
            label: Label::Assign { lhs: Expr::Var(automaton.player_var), rhs: Expr::Symbol(automaton.keeper) },
        }]
    );
    assert!(automaton.out_edges(automaton.end).is_empty());
}

#[test]
fn tictactoe_lowers_edges_grouped_by_node_in_declaration_order() {
    let (_, automaton) = load("tictactoe.rg");
    assert_eq!(symbols(&automaton, &automaton.players), ["x", "o"]);
    assert_eq!(symbols(&automaton, &automaton.scores), ["0", "50", "100"]);
    // Edges are sorted by source, and every node's range covers exactly its edges.
    assert!(automaton.edges.windows(2).all(|w| w[0].source <= w[1].source));
    let mut covered = 0;
    for (id, node) in automaton.nodes.iter().enumerate() {
        assert!(automaton.out_edges(id as u32).iter().all(|e| e.source == id as u32), "{}", node.name);
        covered += node.edges.len();
    }
    assert_eq!(covered, automaton.edges.len());
    assert_eq!(automaton.edges.len(), 33);
    let turn = automaton.node_id("turn").unwrap();
    let targets: Vec<_> =
        automaton.out_edges(turn).iter().map(|e| automaton.nodes[e.target as usize].name.as_str()).collect();
    assert_eq!(targets, ["move", "draw"]);
    let find_line = automaton.node_id("findLine").unwrap();
    let targets: Vec<_> =
        automaton.out_edges(find_line).iter().map(|e| automaton.nodes[e.target as usize].name.as_str()).collect();
    assert_eq!(targets, ["c1", "r1", "d1", "a1"]);
    // `board[col][row] = Piece(me)`: the cast is erased, the access chain is rooted at `board`.
    let mark = automaton.node_id("mark").unwrap();
    let board = automaton.variable_id("board").unwrap();
    let (col, row, me) = (
        automaton.variable_id("col").unwrap(),
        automaton.variable_id("row").unwrap(),
        automaton.variable_id("me").unwrap(),
    );
    let access = |map: Expr, key: Expr| Expr::Access { map: Box::new(map), key: Box::new(key) };
    assert_eq!(
        automaton.out_edges(mark)[0].label,
        Label::Assign { lhs: access(access(Expr::Var(board), Expr::Var(col)), Expr::Var(row)), rhs: Expr::Var(me) }
    );
    // `opponent` is a constant map; `me = opponent[me]` reads it.
    let opponent = &automaton.constants[0];
    assert_eq!(opponent.name, "opponent");
    let x = automaton.symbol_id("x").unwrap();
    let o = automaton.symbol_id("o").unwrap();
    assert_eq!(
        opponent.value,
        Value::Map { entries: vec![(x, Value::Symbol(o)), (o, Value::Symbol(x))], default: Box::new(Value::Symbol(x)) }
    );
    // The board type is Coord -> Coord -> Piece, with the named Coord as its key type.
    let board_ty = &automaton.types[automaton.variables[board as usize].ty as usize];
    let Type::Map { key, value } = board_ty else { panic!("board is a map") };
    assert_eq!(automaton.type_names[*key as usize].as_deref(), Some("Coord"));
    assert!(matches!(automaton.types[*value as usize], Type::Map { .. }));
}

#[test]
fn every_label_game_lowers_labels_hints_and_constants() {
    let (game, automaton) = load("every_label.rg");
    assert_eq!(game.pragmas().count(), 9, "unknown pragmas are kept");
    let node = |name: &str| automaton.node_id(name).unwrap();
    assert_eq!(
        automaton.hints.disjoint,
        vec![(node("moveIt"), vec![node("stop"), node("walk")]), (node("score"), vec![node("won"), node("lost")]),]
    );
    assert_eq!(automaton.hints.unique, vec![node("canStep"), node("stepOk")]);
    assert_eq!(symbols(&automaton, &automaton.hints.artificial_tags), ["moved"]);
    // `grid = {go: marks, :empty}` stores the referenced constants' values.
    let grid = automaton.constants.iter().find(|c| c.name == "grid").unwrap();
    let c0 = automaton.symbol_id("c0").unwrap();
    let (zero, one) = (automaton.symbol_id("0").unwrap(), automaton.symbol_id("1").unwrap());
    let marks = Value::Map { entries: vec![(c0, Value::Symbol(one))], default: Box::new(Value::Symbol(zero)) };
    let empty = Value::Map { entries: vec![], default: Box::new(Value::Symbol(zero)) };
    assert_eq!(
        grid.value,
        Value::Map { entries: vec![(automaton.symbol_id("go").unwrap(), marks.clone())], default: Box::new(empty) }
    );
    let seen = automaton.variable_id("seen").unwrap();
    assert_eq!(automaton.variables[seen as usize].initial, marks);
    // The user's `player` declaration is used, not a second built-in one.
    assert_eq!(automaton.variables.iter().filter(|v| v.name == "player").count(), 1);
    let turn = node("turn");
    assert_eq!(
        automaton.out_edges(turn)[1].label,
        Label::Reach { from: node("canStep"), to: node("stepOk"), negated: true }
    );
    let kinds: Vec<&str> = automaton
        .edges
        .iter()
        .map(|e| match e.label {
            Label::Skip => "skip",
            Label::Assign { .. } => "assign",
            Label::AssignAny { .. } => "any",
            Label::Compare { equal: true, .. } => "==",
            Label::Compare { equal: false, .. } => "!=",
            Label::Reach { negated: false, .. } => "?",
            Label::Reach { negated: true, .. } => "!",
            Label::Tag(_) => "$",
            Label::TagExpr(_) => "$$",
        })
        .collect();
    for kind in ["skip", "assign", "any", "==", "!=", "?", "!", "$", "$$"] {
        assert!(kinds.contains(&kind), "no {kind} label");
    }
}
