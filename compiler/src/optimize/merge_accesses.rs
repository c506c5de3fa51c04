//! `merge_accesses`: fuses a lookup chain of two constant maps, `c1[c2[e]]`, into one lookup of a
//! generated constant, `__gen_c1_c2[e]`, whose entry at every key `k` is `c1[c2[k]]` and whose
//! default is `c1[default of c2]` (what the chain gives for keys outside `c2`'s key type).
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
    /// Constants generated in this run, by the pair of constants they fuse.
    generated: HashMap<(String, String), String>,
    new_constants: Vec<Constant>,
    changes: usize,
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
                if let (Expr::Ident(outer), Expr::Access { map: inner_map, key: inner_key, .. }) =
                    (strip_casts(map), strip_casts(key))
                {
                    if let Expr::Ident(inner) = strip_casts(inner_map) {
                        if let Some(name) = self.fused_constant(&outer.name, &inner.name, automaton) {
                            self.changes += 1;
                            let inner_key = self.rewrite(inner_key, automaton);
                            return Expr::Access {
                                map: Box::new(Expr::Ident(Ident::synthetic(name))),
                                key: Box::new(inner_key),
                                span: *span,
                            };
                        }
                    }
                }
                Expr::Access {
                    map: Box::new(self.rewrite(map, automaton)),
                    key: Box::new(self.rewrite(key, automaton)),
                    span: *span,
                }
            }
        }
    }

    /// The name of the constant equal to `outer[inner[k]]` for every `k`, generating it if needed.
    fn fused_constant(&mut self, outer: &str, inner: &str, automaton: &Automaton) -> Option<String> {
        let env = self.env;
        if !env.is_constant(outer) || !env.is_constant(inner) {
            return None;
        }
        if let Some(name) = self.generated.get(&(outer.to_string(), inner.to_string())) {
            return Some(name.clone());
        }
        let (key_type, _) = env.arrow(env.constant_type(inner)?)?;
        let (_, value_type) = env.arrow(env.constant_type(outer)?)?;
        let outer_value = env.constant_value(outer)?;
        let inner_value = env.constant_value(inner)?;
        let lookup =
            |key: &str| -> Option<Value> { outer_value.lookup(inner_value.lookup(key)?.as_symbol()?).cloned() };
        let mut entries = Vec::new();
        for key in env.set_members(key_type)? {
            let value = lookup(&key)?;
            entries.push((key, value));
        }
        let Value::Map { default: inner_default, .. } = inner_value else {
            return None;
        };
        let default = outer_value.lookup(inner_default.as_symbol()?)?.clone();
        let fused = Value::map(entries, default);
        let mut symbols = Vec::new();
        fused.symbols(&mut symbols);
        if !symbols.iter().all(|symbol| env.writable_as_symbol(symbol)) {
            return None;
        }
        let base = format!("{GENERATED_PREFIX}{}_{}", without_prefix(outer), without_prefix(inner));
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
                ty: TypeExpr::Arrow {
                    from: Box::new(key_type.clone()),
                    to: Box::new(value_type.clone()),
                    span: Span::default(),
                },
                value: fused.to_value_expr(),
                span: Span::default(),
            });
            name
        };
        self.generated.insert((outer.to_string(), inner.to_string()), name.clone());
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
    fn repeated_runs_fuse_longer_chains() {
        let passes = PassSet::parse("merge_accesses").unwrap();
        let (game, _) = optimize(&parse(GAME), &passes);
        insta::assert_snapshot!(print(&game));
    }
}
