//! The RG validator: names, types (loose, as in RG), map literals, assignments, tags, built-ins
//! and the shape of the graph. Every problem becomes a diagnostic; checking never stops at the
//! first one.
//!
//! The checker works on the game completed with its built-ins (see [`builtins`]); problems inside
//! the added declarations are never reported (they can only follow from a user's error that is
//! reported on its own).

use crate::diagnostics::Diagnostic;
use crate::rg::ast::*;
use crate::rg::builtins::{self, Completed};
use crate::rg::parser::{expr_span, type_span};
use crate::rg::printer::print_expr;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;

/// A resolved type, as the validator sees it (member order does not matter to typing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Set(Rc<BTreeSet<String>>),
    /// `key -> value`; `key` is a set whenever the program is valid.
    Map(Rc<Ty>, Rc<Ty>),
    /// The type of something already reported as wrong: compatible with everything, so one
    /// mistake gives one diagnostic.
    Unknown,
}

impl Ty {
    fn singleton(name: &str) -> Ty {
        Ty::Set(Rc::new(BTreeSet::from([name.to_string()])))
    }

    fn is_map(&self) -> bool {
        matches!(self, Ty::Map(..))
    }
}

/// RG's loose compatibility: set types that share a member; map types with the same key set
/// and compatible values. Symmetric.
pub fn assignable(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Unknown, _) | (_, Ty::Unknown) => true,
        (Ty::Set(x), Ty::Set(y)) => {
            let (small, large) = if x.len() <= y.len() { (x, y) } else { (y, x) };
            small.iter().any(|m| large.contains(m))
        }
        (Ty::Map(k1, v1), Ty::Map(k2, v2)) => same_type(k1, k2) && assignable(v1, v2),
        _ => false,
    }
}

/// Exact equality of types (sets compared as sets).
pub fn same_type(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Unknown, _) | (_, Ty::Unknown) => true,
        (Ty::Set(x), Ty::Set(y)) => x == y,
        (Ty::Map(k1, v1), Ty::Map(k2, v2)) => same_type(k1, k2) && same_type(v1, v2),
        _ => false,
    }
}

/// A short rendering of a type for messages.
pub fn show(ty: &Ty) -> String {
    const SHOWN: usize = 6;
    match ty {
        Ty::Set(members) => {
            let mut names: Vec<&str> = members.iter().take(SHOWN).map(String::as_str).collect();
            if members.len() > SHOWN {
                names.push("...");
            }
            format!("{{{}}}", names.join(", "))
        }
        Ty::Map(key, value) => format!("{} -> {}", show(key), show(value)),
        Ty::Unknown => "?".to_string(),
    }
}

/// The `@disjoint n : m1 m2 ...;` shape (also `@disjointExhaustive`): the node and its targets.
pub fn disjoint_parts(pragma: &Pragma) -> Option<(&str, Vec<&str>)> {
    match pragma.tokens.as_slice() {
        [node, colon, targets @ ..] if colon == ":" && targets.iter().all(|t| is_name(t)) && is_name(node) => {
            Some((node.as_str(), targets.iter().map(String::as_str).collect()))
        }
        _ => None,
    }
}

/// The names listed by `@unique n1 n2 ...;` or `@artificialTag t1 t2 ...;`.
pub fn listed_names(pragma: &Pragma) -> Option<Vec<&str>> {
    pragma.tokens.iter().all(|t| is_name(t)).then(|| pragma.tokens.iter().map(String::as_str).collect())
}

fn is_name(token: &str) -> bool {
    crate::rg::lexer::is_identifier(token)
}

#[derive(Clone)]
enum TypeState {
    InProgress,
    Done(Ty),
}

/// Where a value is written: in the constant at this declaration index, or in a variable.
#[derive(Clone, Copy)]
enum ValueContext {
    Constant(usize),
    Variable,
}

struct Checker<'g> {
    game: &'g Game,
    user_decls: usize,
    diagnostics: Vec<Diagnostic>,
    /// Set while checking an added built-in declaration.
    quiet: bool,
    typedefs: HashMap<&'g str, (usize, &'g Typedef)>,
    type_states: HashMap<&'g str, TypeState>,
    constants: HashMap<&'g str, (usize, &'g Constant)>,
    variables: HashMap<&'g str, (usize, &'g Variable)>,
    constant_types: HashMap<&'g str, Ty>,
    variable_types: HashMap<&'g str, Ty>,
}

/// Validates a game; returns every error and warning, in source order.
pub fn check(game: &Game) -> Vec<Diagnostic> {
    let Completed { game: completed, user_decls } = builtins::complete(game);
    let mut checker = Checker {
        game: &completed,
        user_decls,
        diagnostics: Vec::new(),
        quiet: false,
        typedefs: HashMap::new(),
        type_states: HashMap::new(),
        constants: HashMap::new(),
        variables: HashMap::new(),
        constant_types: HashMap::new(),
        variable_types: HashMap::new(),
    };
    checker.collect_names();
    checker.resolve_typedefs();
    checker.check_player_and_score();
    checker.check_builtin_typedefs();
    checker.check_constants_and_variables();
    checker.check_builtin_variables();
    checker.check_edges();
    checker.check_graph();
    checker.check_pragmas();
    let mut diagnostics = checker.diagnostics;
    diagnostics.sort_by_key(|d| d.primary.span.start);
    diagnostics
}

impl<'g> Checker<'g> {
    fn emit(&mut self, diagnostic: Diagnostic) {
        if !self.quiet {
            self.diagnostics.push(diagnostic);
        }
    }

    fn at_decl(&mut self, index: usize) {
        self.quiet = index >= self.user_decls;
    }

    fn collect_names(&mut self) {
        let game = self.game;
        for (index, decl) in game.decls.iter().enumerate() {
            match decl {
                Decl::Type(t) => {
                    if let Some((_, first)) = self.typedefs.get(t.name.name.as_str()) {
                        let first_span = first.name.span;
                        self.emit(
                            Diagnostic::error(
                                "E0202",
                                format!("type `{}` is declared twice", t.name.name),
                                t.name.span,
                            )
                            .label("declared again here")
                            .with_secondary(first_span, "first declared here")
                            .with_help("rename one of the two types or remove one declaration"),
                        );
                    } else {
                        self.typedefs.insert(&t.name.name, (index, t));
                    }
                }
                Decl::Const(c) => self.declare_value(&c.name, index, Some(c), None),
                Decl::Var(v) => self.declare_value(&v.name, index, None, Some(v)),
                Decl::Edge(_) | Decl::Pragma(_) => {}
            }
        }
    }

    fn declare_value(
        &mut self,
        name: &'g Ident,
        index: usize,
        constant: Option<&'g Constant>,
        variable: Option<&'g Variable>,
    ) {
        let first = self
            .constants
            .get(name.name.as_str())
            .map(|(_, c)| (c.name.span, "constant"))
            .or_else(|| self.variables.get(name.name.as_str()).map(|(_, v)| (v.name.span, "variable")));
        if let Some((first_span, kind)) = first {
            self.emit(
                Diagnostic::error("E0203", format!("`{}` is declared twice", name.name), name.span)
                    .label("declared again here")
                    .with_secondary(first_span, format!("first declared here as a {kind}"))
                    .with_help("constants and variables share one namespace: rename one of them"),
            );
            return;
        }
        if let Some(c) = constant {
            self.constants.insert(&name.name, (index, c));
        }
        if let Some(v) = variable {
            self.variables.insert(&name.name, (index, v));
        }
    }

    fn resolve_typedefs(&mut self) {
        let game = self.game;
        for typedef in game.typedefs() {
            self.resolve_typedef(&typedef.name);
        }
        self.quiet = false;
    }

    /// Resolves a typedef by name; an unknown name is reported at `name`'s span.
    fn resolve_typedef(&mut self, name: &Ident) -> Ty {
        let Some(&(index, typedef)) = self.typedefs.get(name.name.as_str()) else {
            self.emit(
                Diagnostic::error("E0201", format!("undefined type `{}`", name.name), name.span)
                    .label("no type has this name")
                    .with_help(format!("declare it, e.g. `type {} = {{a, b}};`, or use a declared type", name.name)),
            );
            return Ty::Unknown;
        };
        match self.type_states.get(typedef.name.name.as_str()) {
            Some(TypeState::Done(ty)) => return ty.clone(),
            Some(TypeState::InProgress) => {
                self.emit(
                    Diagnostic::error(
                        "E0204",
                        format!("type `{}` is defined in terms of itself", name.name),
                        name.span,
                    )
                    .label("this use closes a cycle")
                    .with_secondary(typedef.name.span, "the type is declared here")
                    .with_help("RG types are finite: define the type from set types and other types only"),
                );
                return Ty::Unknown;
            }
            None => {}
        }
        self.type_states.insert(&typedef.name.name, TypeState::InProgress);
        let was_quiet = self.quiet;
        self.quiet = was_quiet || index >= self.user_decls;
        let ty = self.resolve_type(&typedef.ty);
        self.quiet = was_quiet;
        self.type_states.insert(&typedef.name.name, TypeState::Done(ty.clone()));
        ty
    }

    fn resolve_type(&mut self, ty: &TypeExpr) -> Ty {
        match ty {
            TypeExpr::Name(name) => self.resolve_typedef(name),
            TypeExpr::Set { members, .. } => {
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for member in members {
                    if let Some(&first) = seen.get(member.name.as_str()) {
                        self.emit(
                            Diagnostic::warning(
                                "W0203",
                                format!("`{}` is listed twice in a set type", member.name),
                                member.span,
                            )
                            .label("repeated here")
                            .with_secondary(first, "first listed here")
                            .with_help("remove the repetition"),
                        );
                    } else {
                        seen.insert(&member.name, member.span);
                    }
                }
                Ty::Set(Rc::new(members.iter().map(|m| m.name.clone()).collect()))
            }
            TypeExpr::Arrow { from, to, .. } => {
                let key = self.resolve_type(from);
                let value = self.resolve_type(to);
                if key.is_map() {
                    self.emit(
                        Diagnostic::error("E0205", "the key type of a map must be a set type", type_span(from))
                            .label(format!("this is the map type {}", show(&key)))
                            .with_help("index maps by a set type; nest maps on the value side (`A -> B -> C`)"),
                    );
                    return Ty::Unknown;
                }
                Ty::Map(Rc::new(key), Rc::new(value))
            }
        }
    }

    fn check_player_and_score(&mut self) {
        for name in [builtins::PLAYER_TYPE, builtins::SCORE_TYPE] {
            match self.typedefs.get(name).copied() {
                None => self.emit(
                    Diagnostic::error("E0206", format!("the game does not declare the type `{name}`"), Span::default())
                        .label("expected in this file")
                        .with_help(if name == builtins::PLAYER_TYPE {
                            "declare the players, e.g. `type Player = {white, black};`"
                        } else {
                            "declare the scores, e.g. `type Score = {0, 50, 100};`"
                        }),
                ),
                Some((_, typedef)) => {
                    let ty = self.type_states.get(name).and_then(|s| match s {
                        TypeState::Done(ty) => Some(ty.clone()),
                        TypeState::InProgress => None,
                    });
                    let problem = match ty {
                        Some(Ty::Map(..)) => Some("must be a set type"),
                        Some(Ty::Set(members)) if members.is_empty() => Some("must have at least one member"),
                        _ => None,
                    };
                    if let Some(problem) = problem {
                        self.emit(
                            Diagnostic::error("E0206", format!("the type `{name}` {problem}"), type_span(&typedef.ty))
                                .label("declared here")
                                .with_help(format!(
                                    "declare `{name}` as a non-empty set, e.g. `type {name} = {{a, b}};`"
                                )),
                        );
                    }
                }
            }
        }
    }

    fn check_builtin_typedefs(&mut self) {
        let game = self.game;
        for name in [builtins::BOOL, builtins::GOALS_TYPE, builtins::VISIBILITY, builtins::PLAYER_OR_SYSTEM] {
            let Some(&(index, typedef)) = self.typedefs.get(name) else {
                continue;
            };
            if index >= self.user_decls {
                continue;
            }
            let Some(expected_expr) = builtins::expected_typedef(game, name) else {
                continue;
            };
            let declared = self.resolve_typedef(&typedef.name);
            self.quiet = true;
            let expected = self.resolve_type(&expected_expr);
            self.quiet = false;
            if !same_type(&declared, &expected) {
                self.emit(
                    Diagnostic::error(
                        "E0207",
                        format!("built-in type `{name}` is redeclared with another type"),
                        type_span(&typedef.ty),
                    )
                    .label(format!("this is {}, the built-in is {}", show(&declared), show(&expected)))
                    .with_help(format!(
                        "declare it as `type {name} = {};` or remove the declaration (it is built in)",
                        crate::rg::printer::print_type(&expected_expr)
                    )),
                );
            }
        }
    }

    fn check_constants_and_variables(&mut self) {
        let game = self.game;
        for (index, decl) in game.decls.iter().enumerate() {
            self.at_decl(index);
            match decl {
                Decl::Const(c) => {
                    let ty = self.resolve_type(&c.ty);
                    self.check_value(&c.value, &ty, ValueContext::Constant(index));
                    if self.constants.get(c.name.name.as_str()).is_some_and(|(i, _)| *i == index) {
                        self.constant_types.insert(&c.name.name, ty);
                    }
                }
                Decl::Var(v) => {
                    let ty = self.resolve_type(&v.ty);
                    self.check_value(&v.value, &ty, ValueContext::Variable);
                    if self.variables.get(v.name.name.as_str()).is_some_and(|(i, _)| *i == index) {
                        self.variable_types.insert(&v.name.name, ty);
                    }
                }
                _ => {}
            }
        }
        self.quiet = false;
    }

    fn check_value(&mut self, value: &ValueExpr, expected: &Ty, context: ValueContext) {
        match value {
            ValueExpr::Ident(name) => {
                if let Some(&(index, constant)) = self.constants.get(name.name.as_str()) {
                    if let ValueContext::Constant(current) = context {
                        if index >= current {
                            let which = if index == current { "itself" } else { "a constant declared later" };
                            self.emit(
                                Diagnostic::error("E0213", format!("a constant refers to {which}"), name.span)
                                    .label(format!("`{}` is not declared yet here", name.name))
                                    .with_secondary(constant.name.span, "declared here")
                                    .with_help("move the constant this one uses above it"),
                            );
                            return;
                        }
                    }
                    let ty = self.constant_types.get(name.name.as_str()).cloned().unwrap_or(Ty::Unknown);
                    if !assignable(expected, &ty) {
                        self.emit(
                            Diagnostic::error(
                                "E0208",
                                format!("the constant `{}` does not fit the declared type", name.name),
                                name.span,
                            )
                            .label(format!("its type is {}, expected {}", show(&ty), show(expected)))
                            .with_help("use a value of the declared type"),
                        );
                    }
                    return;
                }
                if let Some(&(_, variable)) = self.variables.get(name.name.as_str()) {
                    let whose = match context {
                        ValueContext::Constant(_) => "a constant",
                        ValueContext::Variable => "a variable's initial value",
                    };
                    self.emit(
                        Diagnostic::error(
                            "E0214",
                            format!("{whose} refers to the variable `{}`", name.name),
                            name.span,
                        )
                        .label("variables have no value before the game starts")
                        .with_secondary(variable.name.span, "the variable is declared here")
                        .with_help("write a symbol, a map literal or a constant here"),
                    );
                    return;
                }
                match expected {
                    Ty::Set(members) if !members.contains(&name.name) => self.emit(
                        Diagnostic::error(
                            "E0208",
                            format!("`{}` is not a member of the declared type", name.name),
                            name.span,
                        )
                        .label(format!("expected one of {}", show(expected)))
                        .with_help("use a member of the type, or the name of a constant declared earlier"),
                    ),
                    Ty::Map(..) => self.emit(
                        Diagnostic::error("E0208", format!("a symbol is given where a map is expected"), name.span)
                            .label(format!("expected a map of type {}", show(expected)))
                            .with_help(format!(
                                "a map that answers `{}` everywhere is written `{{:{}}}`",
                                name.name, name.name
                            )),
                    ),
                    _ => {}
                }
            }
            ValueExpr::Map { entries, default, span } => {
                let (key_ty, value_ty) = match expected {
                    Ty::Map(key, value) => ((**key).clone(), (**value).clone()),
                    Ty::Unknown => (Ty::Unknown, Ty::Unknown),
                    Ty::Set(_) => {
                        self.emit(
                            Diagnostic::error("E0208", "a map literal is given where a symbol is expected", *span)
                                .label(format!("expected a member of {}", show(expected)))
                                .with_help("write one symbol of the type here"),
                        );
                        return;
                    }
                };
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for (key, entry) in entries {
                    if let Some(&first) = seen.get(key.name.as_str()) {
                        self.emit(
                            Diagnostic::error(
                                "E0211",
                                format!("the key `{}` appears twice in a map literal", key.name),
                                key.span,
                            )
                            .label("repeated here")
                            .with_secondary(first, "first given here")
                            .with_help("keep one entry per key"),
                        );
                    } else {
                        seen.insert(&key.name, key.span);
                    }
                    if let Ty::Set(keys) = &key_ty {
                        if !keys.contains(&key.name) {
                            self.emit(
                                Diagnostic::error(
                                    "E0212",
                                    format!("the key `{}` is outside the map's key type", key.name),
                                    key.span,
                                )
                                .label(format!("keys are members of {}", show(&key_ty)))
                                .with_help("remove the entry or add the key to the key type"),
                            );
                        }
                    }
                    self.check_value(entry, &value_ty, context);
                }
                match default {
                    Some(default) => self.check_value(default, &value_ty, context),
                    None => {
                        let example = match &value_ty {
                            Ty::Set(members) => members.iter().next().cloned().unwrap_or_else(|| "v".to_string()),
                            _ => "v".to_string(),
                        };
                        self.emit(
                            Diagnostic::error("E0210", "a map literal has no default entry", *span)
                                .label("every map needs a `:default`")
                                .with_help(format!("add a default entry for the keys not listed, e.g. `:{example}`")),
                        );
                    }
                }
            }
        }
    }

    fn check_builtin_variables(&mut self) {
        let game = self.game;
        for variable in game.variables() {
            let Some(type_name) = builtins::expected_variable_type(&variable.name.name) else {
                continue;
            };
            let Some(declared) = self.variable_types.get(variable.name.name.as_str()).cloned() else {
                continue;
            };
            self.quiet = true;
            let expected = self.resolve_typedef(&Ident::synthetic(type_name));
            self.quiet = false;
            if !same_type(&declared, &expected) {
                self.emit(
                    Diagnostic::error(
                        "E0207",
                        format!("built-in variable `{}` is redeclared with another type", variable.name.name),
                        type_span(&variable.ty),
                    )
                    .label(format!("this is {}, the built-in is {}", show(&declared), show(&expected)))
                    .with_help(format!("declare it with the type `{type_name}`")),
                );
            }
        }
    }

    fn name_type(&self, name: &str) -> Ty {
        if let Some(ty) = self.variable_types.get(name) {
            return ty.clone();
        }
        if let Some(ty) = self.constant_types.get(name) {
            return ty.clone();
        }
        if self.variables.contains_key(name) || self.constants.contains_key(name) {
            return Ty::Unknown;
        }
        Ty::singleton(name)
    }

    fn expr_type(&mut self, expr: &Expr) -> Ty {
        match expr {
            Expr::Ident(name) => self.name_type(&name.name),
            Expr::Cast { ty, expr: inner, span } => {
                let inner_ty = self.expr_type(inner);
                let target = if self.typedefs.contains_key(ty.name.as_str()) {
                    self.resolve_typedef(ty)
                } else {
                    self.emit(
                        Diagnostic::error("E0201", format!("undefined type `{}` in a cast", ty.name), ty.span)
                            .label("no type has this name")
                            .with_help("cast to a declared type, e.g. `PlayerOrSystem(x)`"),
                    );
                    Ty::Unknown
                };
                if !assignable(&target, &inner_ty) {
                    self.emit(
                        Diagnostic::error(
                            "E0223",
                            format!("`{}` cannot be cast to `{}`", print_expr(inner), ty.name),
                            *span,
                        )
                        .label(format!("its type is {}, `{}` is {}", show(&inner_ty), ty.name, show(&target)))
                        .with_help("a cast only states the type: the value must already fit it"),
                    );
                }
                target
            }
            Expr::Access { map, key, .. } => {
                let map_ty = self.expr_type(map);
                let key_ty = self.expr_type(key);
                match map_ty {
                    Ty::Map(expected_key, value) => {
                        if !assignable(&expected_key, &key_ty) {
                            self.emit(
                                Diagnostic::error(
                                    "E0222",
                                    format!("`{}` is not a key of `{}`", print_expr(key), print_expr(map)),
                                    expr_span(key),
                                )
                                .label(format!("its type is {}, the keys are {}", show(&key_ty), show(&expected_key)))
                                .with_help("index the map with an expression of its key type"),
                            );
                        }
                        (*value).clone()
                    }
                    Ty::Set(_) => {
                        self.emit(
                            Diagnostic::error("E0221", format!("`{}` is not a map", print_expr(map)), expr_span(map))
                                .label(format!("its type is {}", show(&map_ty)))
                                .with_help("only map-typed expressions can be indexed with `[...]`"),
                        );
                        Ty::Unknown
                    }
                    Ty::Unknown => Ty::Unknown,
                }
            }
        }
    }

    /// Checks that `lhs` is a variable or an access chain rooted at one.
    fn check_assignable_target(&mut self, lhs: &Expr) -> bool {
        match lhs {
            Expr::Ident(name) => {
                if self.variables.contains_key(name.name.as_str()) {
                    true
                } else if let Some(&(_, constant)) = self.constants.get(name.name.as_str()) {
                    self.emit(
                        Diagnostic::error("E0215", format!("cannot assign to the constant `{}`", name.name), name.span)
                            .label("a constant, not a variable")
                            .with_secondary(constant.name.span, "declared as a constant here")
                            .with_help(format!("declare `{}` with `var` to change it during play", name.name)),
                    );
                    false
                } else {
                    self.emit(
                        Diagnostic::error("E0216", format!("undefined variable `{}`", name.name), name.span)
                            .label("assigned here but never declared")
                            .with_help(format!("declare it, e.g. `var {} : T = v;`", name.name)),
                    );
                    false
                }
            }
            Expr::Access { map, .. } => self.check_assignable_target(map),
            Expr::Cast { span, .. } => {
                self.emit(
                    Diagnostic::error("E0215", "cannot assign to a cast", *span).label("not a variable").with_help(
                        "assign to a variable or a map access such as `board[x]`; casts belong on the right",
                    ),
                );
                false
            }
        }
    }

    fn check_edges(&mut self) {
        let game = self.game;
        for (index, decl) in game.decls.iter().enumerate() {
            self.at_decl(index);
            let Decl::Edge(edge) = decl else { continue };
            match &edge.label {
                Label::Skip | Label::Reach { .. } => {}
                Label::Assign { lhs, rhs } => {
                    let target_ok = self.check_assignable_target(lhs);
                    let lhs_ty = if target_ok { self.expr_type(lhs) } else { Ty::Unknown };
                    let rhs_ty = self.expr_type(rhs);
                    if !assignable(&lhs_ty, &rhs_ty) {
                        self.emit(
                            Diagnostic::error(
                                "E0219",
                                format!("`{}` cannot be assigned to `{}`", print_expr(rhs), print_expr(lhs)),
                                expr_span(rhs),
                            )
                            .label(format!("its type is {}", show(&rhs_ty)))
                            .with_secondary(expr_span(lhs), format!("the target's type is {}", show(&lhs_ty)))
                            .with_help("assign a value of the target's type (set types must share a member)"),
                        );
                    }
                }
                Label::AssignAny { lhs, ty } => {
                    if matches!(lhs, Expr::Ident(name) if name.name == builtins::PLAYER_VAR) {
                        self.emit(
                            Diagnostic::error("E0217", "`player` cannot be assigned any value with `T(*)`", edge.span)
                                .label("the next player must be chosen by the automaton")
                                .with_help("assign one player, e.g. `player = PlayerOrSystem(x);`, on separate edges"),
                        );
                        continue;
                    }
                    let target_ok = self.check_assignable_target(lhs);
                    let lhs_ty = if target_ok { self.expr_type(lhs) } else { Ty::Unknown };
                    let any_ty = self.resolve_typedef(ty);
                    if any_ty.is_map() {
                        self.emit(
                            Diagnostic::error("E0218", format!("`{}(*)` needs a set type", ty.name), ty.span)
                                .label(format!("`{}` is the map type {}", ty.name, show(&any_ty)))
                                .with_help("branch over a set type: one branch per member"),
                        );
                    } else if !assignable(&lhs_ty, &any_ty) {
                        self.emit(
                            Diagnostic::error(
                                "E0219",
                                format!("`{}` values cannot be assigned to `{}`", ty.name, print_expr(lhs)),
                                ty.span,
                            )
                            .label(format!("`{}` is {}", ty.name, show(&any_ty)))
                            .with_secondary(expr_span(lhs), format!("the target's type is {}", show(&lhs_ty)))
                            .with_help("branch over a type that fits the target"),
                        );
                    }
                }
                Label::Compare { lhs, rhs, .. } => {
                    let lhs_ty = self.expr_type(lhs);
                    let rhs_ty = self.expr_type(rhs);
                    if !assignable(&lhs_ty, &rhs_ty) {
                        self.emit(
                            Diagnostic::error("E0220", format!("`{}` and `{}` cannot be compared", print_expr(lhs), print_expr(rhs)), expr_span(lhs).join(expr_span(rhs)))
                                .label(format!("{} against {}", show(&lhs_ty), show(&rhs_ty)))
                                .with_help("compare values of compatible types (set types must share a member, maps need the same keys)"),
                        );
                    }
                }
                Label::Tag(_) => {}
                Label::TagVar(expr) => {
                    let ty = self.expr_type(expr);
                    if ty.is_map() {
                        self.emit(
                            Diagnostic::error(
                                "E0225",
                                format!("`$$ {}` needs a set-typed expression", print_expr(expr)),
                                expr_span(expr),
                            )
                            .label(format!("this is the map type {}", show(&ty)))
                            .with_help("tag one element of the map, e.g. `$$ m[k]`"),
                        );
                    }
                }
            }
            if edge.from.name == edge.to.name && matches!(edge.label, Label::Tag(_) | Label::TagVar(_)) {
                self.emit(
                    Diagnostic::error("E0224", format!("tag edge loops on the node `{}`", edge.from.name), edge.span)
                        .label("a move could repeat this tag forever")
                        .with_help("move the tag to an edge between two different nodes"),
                );
            }
        }
        self.quiet = false;
    }

    fn check_graph(&mut self) {
        let game = self.game;
        let graph = Graph::of(game);
        let begin = graph.first_mention.get("begin").copied();
        let end = graph.first_mention.get("end").copied();
        // Without the node there is nowhere precise to point: the first edge is where it belongs.
        let first_edge = game.edges().next().map_or(Span::default(), |e| e.span);
        if begin.is_none() {
            self.emit(
                Diagnostic::error("E0226", "the game has no `begin` node", first_edge)
                    .label("no edge mentions `begin`; play starts there")
                    .with_help("add an edge leaving `begin`, e.g. `begin, turn: ;`"),
            );
        }
        if end.is_none() {
            self.emit(
                Diagnostic::error("E0227", "the game has no `end` node", first_edge)
                    .label("no edge mentions `end`; play stops there")
                    .with_help("add an edge into `end`, e.g. `over, end: player = keeper;`"),
            );
        }
        if let (Some(begin_span), Some(end_span)) = (begin, end) {
            if !graph.reachable("begin", "end", None) {
                self.emit(
                    Diagnostic::error("E0228", "`end` cannot be reached from `begin`", end_span)
                        .label("no path of edges leads here")
                        .with_secondary(begin_span, "play starts here")
                        .with_help("connect the two with edges; every game must be able to finish"),
                );
            }
        }
        for edge in game.edges() {
            let Label::Reach { from, to, .. } = &edge.label else {
                continue;
            };
            let label_span = from.span.join(to.span);
            if !graph.reachable(&from.name, &to.name, None) {
                self.emit(
                    Diagnostic::warning(
                        "W0201",
                        format!("`{}` cannot be reached from `{}`", to.name, from.name),
                        to.span,
                    )
                    .label("no path of edges leads here")
                    .with_secondary(from.span, "the search starts here")
                    .with_help("this check always has the same outcome: fix the edges or remove the check"),
                );
            } else if from.name != to.name && graph.reachable(&from.name, &edge.from.name, Some(&to.name)) {
                self.emit(
                    Diagnostic::warning("W0202", "this reachability check can reach its own edge", label_span)
                        .label(format!("searching from `{}` can come back to `{}`", from.name, edge.from.name))
                        .with_help(
                            "a check that runs inside its own search recurses: move it out of the searched part",
                        ),
                );
            }
        }
    }

    fn check_pragmas(&mut self) {
        let game = self.game;
        let graph = Graph::of(game);
        for pragma in game.pragmas() {
            let nodes: Vec<&str> = match pragma.name.name.as_str() {
                "disjoint" | "disjointExhaustive" => match disjoint_parts(pragma) {
                    Some((node, targets)) => std::iter::once(node).chain(targets).collect(),
                    None => {
                        self.emit(
                            Diagnostic::warning(
                                "W0205",
                                format!("`@{}` is malformed and is ignored", pragma.name.name),
                                pragma.span,
                            )
                            .label("expected `node : target target ...`")
                            .with_help(format!("write `@{} n : m1 m2;`", pragma.name.name)),
                        );
                        continue;
                    }
                },
                "unique" => match listed_names(pragma) {
                    Some(nodes) => nodes,
                    None => {
                        self.emit(
                            Diagnostic::warning("W0205", "`@unique` is malformed and is ignored", pragma.span)
                                .label("expected node names")
                                .with_help("write `@unique n1 n2;`"),
                        );
                        continue;
                    }
                },
                _ => continue,
            };
            for node in nodes {
                if !graph.first_mention.contains_key(node) {
                    self.emit(
                        Diagnostic::warning(
                            "W0204",
                            format!("`@{}` names `{node}`, which is not a node", pragma.name.name),
                            pragma.span,
                        )
                        .label("no edge mentions this node")
                        .with_help("pragmas are hints about existing nodes: fix the name or remove the pragma"),
                    );
                }
            }
        }
    }
}

/// The edge graph, labels ignored; nodes are the names edges and reachability labels mention.
pub struct Graph<'g> {
    pub successors: HashMap<&'g str, Vec<&'g str>>,
    pub first_mention: HashMap<&'g str, Span>,
}

impl<'g> Graph<'g> {
    pub fn of(game: &'g Game) -> Graph<'g> {
        let mut graph = Graph { successors: HashMap::new(), first_mention: HashMap::new() };
        for edge in game.edges() {
            graph.mention(&edge.from);
            graph.mention(&edge.to);
            if let Label::Reach { from, to, .. } = &edge.label {
                graph.mention(from);
                graph.mention(to);
            }
            graph.successors.entry(&edge.from.name).or_default().push(&edge.to.name);
        }
        graph
    }

    fn mention(&mut self, node: &'g Ident) {
        self.first_mention.entry(&node.name).or_insert(node.span);
    }

    /// Whether `to` can be reached from `from` (`from == to` counts), never leaving `stop`.
    pub fn reachable(&self, from: &str, to: &str, stop: Option<&str>) -> bool {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut queue: VecDeque<&str> = VecDeque::new();
        seen.insert(from);
        queue.push_back(from);
        while let Some(node) = queue.pop_front() {
            if node == to {
                return true;
            }
            if Some(node) == stop && node != from {
                continue;
            }
            for &next in self.successors.get(node).into_iter().flatten() {
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        false
    }
}
