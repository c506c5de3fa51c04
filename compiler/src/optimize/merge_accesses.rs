//! `merge_accesses`: fuses a lookup chain of two constant maps, `c1[c2[e]]`, into one lookup of a
//! generated constant, `__gen_c1_c2[e]`, whose entry at every key `k` is `c1[c2[k]]` and whose
//! default is `c1[default of c2]` (what the chain gives for keys outside `c2`'s key type).
//! The same for lookups that share a first key: `c1[k][c2[k][e]]` becomes `__gen_c1_c2_by_key[k][e]`.
//! Preserves every state and move exactly.

use super::env::{strip_casts, Env, Value};
use super::graph::Automaton;
use crate::rg::ast::{Constant, Decl, Expr, Ident, Label, Span, TypeExpr};
use std::collections::HashMap;

pub fn run(automaton: &mut Automaton) -> usize {
    let env = Env::new(automaton);
    let mut merger = Merger { env: &env, generated: HashMap::new(), new_constants: Vec::new(), changes: 0 };
    for edge in automaton.edges_in_order() {
        let label = automaton.label(edge).clone();
        let rewritten = match &label {
            Label::Assign { lhs, rhs } => {
                Label::Assign { lhs: merger.rewrite(lhs, automaton), rhs: merger.rewrite(rhs, automaton) }
            }
            Label::AssignAny { lhs, ty } => Label::AssignAny { lhs: merger.rewrite(lhs, automaton), ty: ty.clone() },
            Label::Compare { lhs, rhs, negated } => Label::Compare {
                lhs: merger.rewrite(lhs, automaton),
                rhs: merger.rewrite(rhs, automaton),
                negated: *negated,
            },
            Label::TagVar(expr) => Label::TagVar(merger.rewrite(expr, automaton)),
            Label::Skip | Label::Reach { .. } | Label::Tag(_) => continue,
        };
        if rewritten != label {
            automaton.graph[edge].label = rewritten;
        }
    }
    let changes = merger.changes;
    for constant in std::mem::take(&mut merger.new_constants) {
        let key = automaton.key_after_constants();
        automaton.decls.push((key, Decl::Const(constant)));
    }
    changes
}

/// Generated constants' names start with this; a fused name drops it from its parts.
const GENERATED_PREFIX: &str = "__gen_";

fn without_prefix(name: &str) -> &str {
    name.strip_prefix(GENERATED_PREFIX).unwrap_or(name)
}

struct Merger<'a> {
    env: &'a Env,
    /// Constants generated in this run, by the constants they fuse and their shape.
    generated: HashMap<(String, String, Shape), String>,
    new_constants: Vec<Constant>,
    changes: usize,
}

/// The two lookup chains this pass fuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
    /// `c1[c2[x]]` becomes `g[x]`.
    Plain,
    /// `c1[k][c2[k][x]]` (the same key expression `k` twice) becomes `g[k][x]`.
    SharedKey,
}

/// `outer[inner[x]]` for every key `x` of `keys`, with the default `outer[default of inner]`
/// (what the chain gives for keys outside the type). `None` when `inner` gives a non-symbol.
fn fuse(outer: &Value, inner: &Value, keys: &[String]) -> Option<Value> {
    let through = |value: &Value| -> Option<Value> { outer.lookup(value.as_symbol()?).cloned() };
    let mut entries = Vec::with_capacity(keys.len());
    for key in keys {
        entries.push((key.clone(), through(inner.lookup(key)?)?));
    }
    let Value::Map { default, .. } = inner else {
        return None;
    };
    Some(Value::map(entries, through(default)?))
}

impl Merger<'_> {
    /// Rewrites outermost-first; an access fused here is not fused again in the same run (its
    /// generated constant is unknown to the environment until the next run).
    fn rewrite(&mut self, expr: &Expr, automaton: &Automaton) -> Expr {
        match expr {
            Expr::Ident(_) => expr.clone(),
            Expr::Cast { ty, expr, span } => {
                Expr::Cast { ty: ty.clone(), expr: Box::new(self.rewrite(expr, automaton)), span: *span }
            }
            Expr::Access { map, key, span } => {
                if let Some(fused) = self.fuse_access(map, key, *span, automaton) {
                    return fused;
                }
                Expr::Access {
                    map: Box::new(self.rewrite(map, automaton)),
                    key: Box::new(self.rewrite(key, automaton)),
                    span: *span,
                }
            }
        }
    }

    /// `map[key]` as one lookup of a generated constant, when it has a fusable shape.
    fn fuse_access(&mut self, map: &Expr, key: &Expr, span: Span, automaton: &Automaton) -> Option<Expr> {
        let Expr::Access { map: inner_map, key: inner_key, .. } = strip_casts(key) else {
            return None;
        };
        let access = |map: Expr, key: Expr| Expr::Access { map: Box::new(map), key: Box::new(key), span };
        match (strip_casts(map), strip_casts(inner_map)) {
            (Expr::Ident(outer), Expr::Ident(inner)) => {
                let name = self.fused_constant(&outer.name, &inner.name, Shape::Plain, automaton)?;
                self.changes += 1;
                let inner_key = self.rewrite(inner_key, automaton);
                Some(access(Expr::Ident(Ident::synthetic(name)), inner_key))
            }
            (
                Expr::Access { map: outer_table, key: outer_first, .. },
                Expr::Access { map: inner_table, key: inner_first, .. },
            ) if strip_casts(outer_first) == strip_casts(inner_first) => {
                let (Expr::Ident(outer), Expr::Ident(inner)) = (strip_casts(outer_table), strip_casts(inner_table))
                else {
                    return None;
                };
                let name = self.fused_constant(&outer.name, &inner.name, Shape::SharedKey, automaton)?;
                self.changes += 1;
                let first = self.rewrite(outer_first, automaton);
                let inner_key = self.rewrite(inner_key, automaton);
                Some(access(access(Expr::Ident(Ident::synthetic(name)), first), inner_key))
            }
            _ => None,
        }
    }

    /// The name of the constant equal to the fused chain, generating it if needed.
    fn fused_constant(&mut self, outer: &str, inner: &str, shape: Shape, automaton: &Automaton) -> Option<String> {
        let env = self.env;
        if !env.is_constant(outer) || !env.is_constant(inner) {
            return None;
        }
        let cache_key = (outer.to_string(), inner.to_string(), shape);
        if let Some(name) = self.generated.get(&cache_key) {
            return Some(name.clone());
        }
        let outer_type = env.constant_type(outer)?;
        let inner_type = env.constant_type(inner)?;
        let outer_value = env.constant_value(outer)?;
        let inner_value = env.constant_value(inner)?;
        let (ty, fused, base) = match shape {
            Shape::Plain => {
                let (key_type, _) = env.arrow(inner_type)?;
                let (_, value_type) = env.arrow(outer_type)?;
                let fused = fuse(outer_value, inner_value, &env.set_members(key_type)?)?;
                let ty = TypeExpr::Arrow {
                    from: Box::new(key_type.clone()),
                    to: Box::new(value_type.clone()),
                    span: Span::default(),
                };
                (ty, fused, format!("{GENERATED_PREFIX}{}_{}", without_prefix(outer), without_prefix(inner)))
            }
            Shape::SharedKey => {
                // Both tables must be indexed first by the same set, so that one generated row
                // per first key (and one default row) covers every case.
                let (first_type, inner_rows) = env.arrow(inner_type)?;
                let (outer_first_type, outer_rows) = env.arrow(outer_type)?;
                let first_keys = env.set_members(first_type)?;
                if env.set_members(outer_first_type)? != first_keys {
                    return None;
                }
                let (second_type, _) = env.arrow(inner_rows)?;
                let (_, value_type) = env.arrow(outer_rows)?;
                let second_keys = env.set_members(second_type)?;
                let row = |first: Option<&str>| -> Option<Value> {
                    let pick = |table: &Value| match (table, first) {
                        (_, Some(key)) => table.lookup(key).cloned(),
                        (Value::Map { default, .. }, None) => Some((**default).clone()),
                        (Value::Symbol(_), None) => None,
                    };
                    fuse(&pick(outer_value)?, &pick(inner_value)?, &second_keys)
                };
                let mut rows = Vec::with_capacity(first_keys.len());
                for key in &first_keys {
                    rows.push((key.clone(), row(Some(key))?));
                }
                let fused = Value::map(rows, row(None)?);
                let ty = TypeExpr::Arrow {
                    from: Box::new(first_type.clone()),
                    to: Box::new(TypeExpr::Arrow {
                        from: Box::new(second_type.clone()),
                        to: Box::new(value_type.clone()),
                        span: Span::default(),
                    }),
                    span: Span::default(),
                };
                (ty, fused, format!("{GENERATED_PREFIX}{}_{}_by_key", without_prefix(outer), without_prefix(inner)))
            }
        };
        let mut symbols = Vec::new();
        fused.symbols(&mut symbols);
        if !symbols.iter().all(|symbol| env.writable_as_symbol(symbol)) {
            return None;
        }
        let name = if env.constant_value(&base) == Some(&fused) {
            base
        } else {
            let mut name = automaton.fresh_name(&base);
            // Names generated earlier in this run are not declared yet.
            let mut suffix = 1;
            while self.generated.values().any(|taken| *taken == name) {
                name = automaton.fresh_name(&format!("{base}_x{suffix}"));
                suffix += 1;
            }
            self.new_constants.push(Constant {
                name: Ident::synthetic(name.clone()),
                ty,
                value: fused.to_value_expr(),
                span: Span::default(),
            });
            name
        };
        self.generated.insert(cache_key, name.clone());
        Some(name)
    }
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{optimize, run_pass, Pass, PassSet};

    const GAME: &str = "
        type Player = {x}; type Score = {0}; type Cell = {a, b, c, null};
        type Next = Cell -> Cell;
        const next: Next = {a: b, b: c, :null};
        const back: Next = {b: a, c: b, null: c, :null};
        var pos: Cell = a;
        begin, n1: pos = next[next[pos]];
        n1, n2: back[Cell(next[pos])] != null;
        n2, n3: pos = next[next[next[pos]]];
        n3, end: player = keeper;
    ";

    #[test]
    fn constant_chains_fuse_into_generated_tables() {
        let (game, changes) = run_pass(&parse(GAME), Pass::MergeAccesses);
        assert_eq!(changes, 3);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn lookups_sharing_a_first_key_fuse_into_a_table_of_tables() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b, c, null}; type Dir = {up, down};
             const step: Dir -> Cell -> Cell = {up: {a: b, b: c, :null}, :{b: a, c: b, :null}};
             var pos: Cell = a; var dir: Dir = up;
             begin, n1: pos = step[dir][step[dir][pos]];
             n1, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::MergeAccesses);
        assert_eq!(changes, 1);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn repeated_runs_fuse_longer_chains() {
        let passes = PassSet::parse("merge_accesses").unwrap();
        let (game, _) = optimize(&parse(GAME), &passes);
        insta::assert_snapshot!(print(&game));
    }
}
