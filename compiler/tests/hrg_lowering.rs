//! The shape of lowered HRG, checked on small programs: tabulated functions (wrapping `%`,
//! right-associative arithmetic, partial application), map literals, argument substitution
//! versus hoisting, and reusable graphs emitted once.

use regula_compiler::hrg;
use regula_compiler::rg::ast::{Decl, Game, Label, ValueExpr};

fn lower(source: &str) -> Game {
    let (game, warnings) = hrg::to_rg(source).unwrap_or_else(|d| panic!("{d:#?}"));
    assert!(warnings.is_empty(), "{warnings:#?}");
    game
}

const PRELUDE: &str = "domain Player = x | o\ndomain Score = 0 | 100\ndomain D = N(K) where K in 0..3\n";

/// The value a constant or variable map gives for `key` (its entry or its default).
fn lookup<'a>(game: &'a Game, name: &str, key: &str) -> &'a str {
    let value = game
        .decls
        .iter()
        .find_map(|d| match d {
            Decl::Const(c) if c.name.name == name => Some(&c.value),
            Decl::Var(v) if v.name.name == name => Some(&v.value),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no `{name}`"));
    let ValueExpr::Map { entries, default, .. } = value else { panic!("`{name}` is not a map") };
    let found = entries.iter().find(|(k, _)| k.name == key).map(|(_, v)| v).or(default.as_deref());
    match found {
        Some(ValueExpr::Ident(symbol)) => &symbol.name,
        other => panic!("`{name}[{key}]` is {other:?}"),
    }
}

fn rules(body: &str) -> String {
    format!("graph rules() {{ {body} }}")
}

#[test]
fn remainder_wraps_and_arithmetic_groups_to_the_right() {
    let source = format!("{PRELUDE}prev : D -> D\nprev(N(K)) = N((K - 1) % 4)\n{}", rules("end()"));
    let game = lower(&source);
    assert_eq!(lookup(&game, "prev", "N__0"), "N__3");
    assert_eq!(lookup(&game, "prev", "N__2"), "N__1");
    // `K - 1 + 1` is `K - (1 + 1)` in HRG, so it is guarded to stay in the domain.
    let odd =
        lower(&format!("{PRELUDE}odd : D -> D\nodd(N(K)) = if K >= 2 then N(K - 1 + 1) else N(K)\n{}", rules("end()")));
    assert_eq!(lookup(&odd, "odd", "N__3"), "N__1");
    assert_eq!(lookup(&odd, "odd", "N__1"), "N__1");
}

#[test]
fn partial_application_and_map_literals_tabulate() {
    let source = format!(
        "{PRELUDE}up : D -> D\nup(N(K)) = if K == 3 then N(3) else N(K + 1)\n\
         down : D -> D\ndown(N(K)) = if K == 0 then N(0) else N(K - 1)\n\
         move : Player -> D -> D\nmove(x) = up\nmove(o) = down\n\
         start : Player -> D = {{ :N(0); o = N(3) }}\n\
         grid : D -> Player = {{ N(K) = o where K in 2..3; _ = x }}\n{}",
        rules("end()")
    );
    let game = lower(&source);
    let Some(Decl::Const(moves)) = game.decls.iter().find(|d| matches!(d, Decl::Const(c) if c.name.name == "move"))
    else {
        panic!("no `move`")
    };
    let ValueExpr::Map { entries, default, .. } = &moves.value else { panic!() };
    let for_x = entries.iter().find(|(k, _)| k.name == "x").map(|(_, v)| v).or(default.as_deref()).unwrap();
    let ValueExpr::Map { entries: up_entries, default: up_default, .. } = for_x else { panic!() };
    let up_of_n1 = up_entries.iter().find(|(k, _)| k.name == "N__1").map(|(_, v)| v).or(up_default.as_deref());
    assert_eq!(up_of_n1, Some(&ValueExpr::Ident(regula_compiler::rg::ast::Ident::synthetic("N__2"))));
    assert_eq!(lookup(&game, "start", "x"), "N__0");
    assert_eq!(lookup(&game, "start", "o"), "N__3");
    assert_eq!(lookup(&game, "grid", "N__1"), "x");
    assert_eq!(lookup(&game, "grid", "N__2"), "o");
    assert_eq!(lookup(&game, "grid", "N__3"), "o");
}

fn has_var(game: &Game, name: &str) -> bool {
    game.decls.iter().any(|d| matches!(d, Decl::Var(v) if v.name.name == name))
}

#[test]
fn constant_arguments_are_substituted_and_others_hoisted() {
    let turn = "graph turn(me: Player) { player = me player = keeper }\n";
    let constant = lower(&format!("{PRELUDE}{turn}{}", rules("turn(x) end()")));
    assert!(!has_var(&constant, "turn_arg0_me"));
    assert!(constant
        .edges()
        .any(|e| matches!(&e.label, Label::Assign { rhs, .. } if format!("{rhs:?}").contains("\"x\""))));
    let variable = lower(&format!("{PRELUDE}who : Player\n{turn}{}", rules("turn(who) end()")));
    assert!(has_var(&variable, "turn_arg0_me"));
}

#[test]
fn a_reusable_graph_is_emitted_once_with_a_return_address() {
    let source = format!(
        "{PRELUDE}reusable graph turn(me: Player) {{ player = me $ go player = keeper }}\n{}",
        rules("turn(x) turn(o) turn(x) end()")
    );
    let game = lower(&source);
    let tags = game.edges().filter(|e| matches!(&e.label, Label::Tag(t) if t.name == "go")).count();
    assert_eq!(tags, 1);
    let Some(Decl::Type(ty)) =
        game.decls.iter().find(|d| matches!(d, Decl::Type(t) if t.name.name == "turn_return_type"))
    else {
        panic!("no return type")
    };
    assert_eq!(format!("{:?}", ty.ty).matches("turn_call").count(), 3);
    assert!(has_var(&game, "turn_return"));
    let inlined = lower(&format!(
        "{PRELUDE}graph turn(me: Player) {{ player = me $ go player = keeper }}\n{}",
        rules("turn(x) turn(o) turn(x) end()")
    ));
    assert_eq!(inlined.edges().filter(|e| matches!(&e.label, Label::Tag(t) if t.name == "go")).count(), 3);
}
