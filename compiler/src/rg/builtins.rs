//! RG's built-in declarations (`Bool`, `Goals`, `Visibility`, `PlayerOrSystem`, `goals`,
//! `player`, `visible`), added to a game that does not declare them itself.
//!
//! The validator and the lowering both work on the completed game, so they agree on what the
//! built-ins are; the printed source never shows the additions.

use crate::rg::ast::*;

pub const BOOL: &str = "Bool";
pub const GOALS_TYPE: &str = "Goals";
pub const VISIBILITY: &str = "Visibility";
pub const PLAYER_OR_SYSTEM: &str = "PlayerOrSystem";
pub const PLAYER_TYPE: &str = "Player";
pub const SCORE_TYPE: &str = "Score";
pub const GOALS_VAR: &str = "goals";
pub const PLAYER_VAR: &str = "player";
pub const VISIBLE_VAR: &str = "visible";
pub const KEEPER: &str = "keeper";
pub const RANDOM: &str = "random";

/// A game with its missing built-ins appended. `decls[user_decls..]` are the additions.
pub struct Completed {
    pub game: Game,
    pub user_decls: usize,
}

/// The members of a set typedef, following `type A = B;` aliases (`None` when `name` is not,
/// through aliases, a set type).
pub fn set_members<'g>(game: &'g Game, name: &str) -> Option<Vec<&'g str>> {
    let mut current = name;
    // An alias chain longer than the number of typedefs is a cycle.
    for _ in 0..=game.decls.len() {
        let typedef = game.typedefs().find(|t| t.name.name == current)?;
        match &typedef.ty {
            TypeExpr::Set { members, .. } => return Some(members.iter().map(|m| m.name.as_str()).collect()),
            TypeExpr::Name(next) => current = &next.name,
            TypeExpr::Arrow { .. } => return None,
        }
    }
    None
}

fn set_of(names: &[&str]) -> TypeExpr {
    TypeExpr::Set { members: names.iter().map(|n| Ident::synthetic(*n)).collect(), span: Span::default() }
}

fn named(name: &str) -> TypeExpr {
    TypeExpr::Name(Ident::synthetic(name))
}

fn arrow(from: &str, to: &str) -> TypeExpr {
    TypeExpr::Arrow { from: Box::new(named(from)), to: Box::new(named(to)), span: Span::default() }
}

fn all_to(value: &str) -> ValueExpr {
    ValueExpr::Map {
        entries: Vec::new(),
        default: Some(Box::new(ValueExpr::Ident(Ident::synthetic(value)))),
        span: Span::default(),
    }
}

/// The members `PlayerOrSystem` must have: `Player`'s, then `keeper` and `random` if absent.
pub fn player_or_system_members<'g>(player_members: &[&'g str]) -> Vec<&'g str> {
    let mut members = player_members.to_vec();
    for system in [KEEPER, RANDOM] {
        if !members.contains(&system) {
            members.push(system);
        }
    }
    members
}

/// The type every built-in typedef must have, as a type expression.
pub fn expected_typedef(game: &Game, name: &str) -> Option<TypeExpr> {
    match name {
        BOOL => Some(set_of(&["0", "1"])),
        GOALS_TYPE => Some(arrow(PLAYER_TYPE, SCORE_TYPE)),
        VISIBILITY => Some(arrow(PLAYER_TYPE, BOOL)),
        PLAYER_OR_SYSTEM => {
            let players = set_members(game, PLAYER_TYPE).unwrap_or_default();
            Some(set_of(&player_or_system_members(&players)))
        }
        _ => None,
    }
}

/// The type name each built-in variable must have.
pub fn expected_variable_type(name: &str) -> Option<&'static str> {
    match name {
        GOALS_VAR => Some(GOALS_TYPE),
        PLAYER_VAR => Some(PLAYER_OR_SYSTEM),
        VISIBLE_VAR => Some(VISIBILITY),
        _ => None,
    }
}

/// Appends every built-in the game does not declare.
pub fn complete(game: &Game) -> Completed {
    let mut completed = game.clone();
    let user_decls = game.decls.len();
    for name in [BOOL, GOALS_TYPE, VISIBILITY, PLAYER_OR_SYSTEM] {
        if game.typedefs().all(|t| t.name.name != name) {
            if let Some(ty) = expected_typedef(game, name) {
                completed.decls.push(Decl::Type(Typedef { name: Ident::synthetic(name), ty, span: Span::default() }));
            }
        }
    }
    let first_score = set_members(game, SCORE_TYPE).and_then(|m| m.first().map(|s| s.to_string()));
    let initial_values = [
        (GOALS_VAR, GOALS_TYPE, all_to(first_score.as_deref().unwrap_or("0"))),
        (PLAYER_VAR, PLAYER_OR_SYSTEM, ValueExpr::Ident(Ident::synthetic(KEEPER))),
        (VISIBLE_VAR, VISIBILITY, all_to("1")),
    ];
    for (name, ty, value) in initial_values {
        if game.variables().all(|v| v.name.name != name) && game.constants().all(|c| c.name.name != name) {
            completed.decls.push(Decl::Var(Variable {
                name: Ident::synthetic(name),
                ty: named(ty),
                value,
                span: Span::default(),
            }));
        }
    }
    Completed { game: completed, user_decls }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rg::parser::parse;
    use crate::rg::printer::print_game;

    #[test]
    fn adds_exactly_the_missing_builtins() {
        let game = parse(
            "type Player = {x, keeper}; type Score = {50, 0}; type Bool = {0, 1}; var visible : Visibility = {:0};",
        )
        .unwrap();
        let completed = complete(&game);
        assert_eq!(completed.user_decls, 4);
        let added: String =
            completed.game.decls[4..].iter().map(|d| crate::rg::printer::print_decl(d) + "\n").collect();
        assert_eq!(
            added,
            "type Goals = Player -> Score;\ntype Visibility = Player -> Bool;\n\
             type PlayerOrSystem = {x, keeper, random};\nvar goals : Goals = {:50};\n\
             var player : PlayerOrSystem = keeper;\n"
        );
        assert_eq!(print_game(&game).lines().count(), 4);
    }

    #[test]
    fn set_members_follow_aliases_and_stop_on_cycles() {
        let game = parse("type Player = P; type P = {a, b}; type A = B; type B = A;").unwrap();
        assert_eq!(set_members(&game, "Player"), Some(vec!["a", "b"]));
        assert_eq!(set_members(&game, "A"), None);
        assert_eq!(set_members(&game, "Missing"), None);
    }
}
