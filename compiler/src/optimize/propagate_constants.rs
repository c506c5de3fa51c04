//! `propagate_constants`: folds expressions whose value is known (symbols, constants, accesses of
//! constant maps with known keys, and variables no edge ever assigns, which keep their initial
//! value), turns comparisons with a known outcome into skips or removes their edges, and turns
//! `$$ e` with a known symbol into `$ symbol`. Preserves every state and move exactly.

use super::env::{strip_casts, Env, Value};
use super::graph::{assigned_root, Automaton};
use crate::rg::ast::{Expr, Ident, Label};
use std::collections::{HashMap, HashSet};

pub fn run(automaton: &mut Automaton) -> usize {
    let env = Env::new(automaton);
    let known = never_assigned_variables(automaton, &env);
    let folder = Folder { env: &env, known: &known };
    let mut changes = 0;
    for edge in automaton.edges_in_order() {
        let label = automaton.label(edge);
        match folder.fold_label(label) {
            Folded::Keep => {}
            Folded::Remove => {
                automaton.graph.remove_edge(edge);
                changes += 1;
            }
            Folded::Replace(label) => {
                automaton.graph[edge].label = label;
                changes += 1;
            }
        }
    }
    changes
}

/// Variables that no assignment targets, with their initial values.
fn never_assigned_variables(automaton: &Automaton, env: &Env) -> HashMap<String, Value> {
    let assigned: HashSet<&str> = automaton
        .graph
        .edge_weights()
        .filter_map(|edge| match &edge.label {
            Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => assigned_root(lhs),
            _ => None,
        })
        .collect();
    env.variables()
        .filter(|(name, _)| !assigned.contains(name.as_str()))
        .filter_map(|(name, _)| Some((name.clone(), env.variable_initial_value(name)?.clone())))
        .collect()
}

enum Folded {
    Keep,
    Remove,
    Replace(Label),
}

struct Folder<'a> {
    env: &'a Env,
    known: &'a HashMap<String, Value>,
}

impl Folder<'_> {
    fn fold_label(&self, label: &Label) -> Folded {
        let new_label = match label {
            Label::Compare { lhs, rhs, negated } => {
                let no_copy = |e| self.env.fold_ref(e, self.known);
                if let (Some(left), Some(right)) = (no_copy(lhs), no_copy(rhs)) {
                    return if (left == right) != *negated { Folded::Replace(Label::Skip) } else { Folded::Remove };
                }
                Label::Compare { lhs: self.simplify(lhs), rhs: self.simplify(rhs), negated: *negated }
            }
            Label::Assign { lhs, rhs } => Label::Assign { lhs: self.simplify_target(lhs), rhs: self.simplify(rhs) },
            Label::AssignAny { lhs, ty } => Label::AssignAny { lhs: self.simplify_target(lhs), ty: ty.clone() },
            Label::TagVar(expr) => match self.symbol(expr) {
                Some(symbol) => Label::Tag(Ident::synthetic(symbol)),
                None => Label::TagVar(self.simplify(expr)),
            },
            Label::Skip | Label::Reach { .. } | Label::Tag(_) => return Folded::Keep,
        };
        if new_label == *label {
            Folded::Keep
        } else {
            Folded::Replace(new_label)
        }
    }

    /// The symbol an expression always has, if it has a known symbol value.
    fn symbol(&self, expr: &Expr) -> Option<String> {
        self.env.fold_ref(expr, self.known)?.as_symbol().map(str::to_string)
    }

    /// The expression with every foldable symbol-valued part written as that symbol. A bare
    /// symbol that would read as a variable or constant name is left unfolded.
    fn simplify(&self, expr: &Expr) -> Expr {
        if let Some(symbol) = self.symbol(expr) {
            if self.env.writable_as_symbol(&symbol) {
                let literal = Expr::Ident(Ident::synthetic(symbol));
                // Keep an outer cast: it documents the type for readers and the validator.
                return match expr {
                    Expr::Cast { ty, span, expr: inner } if strip_casts(inner) != &literal => {
                        Expr::Cast { ty: ty.clone(), expr: Box::new(literal), span: *span }
                    }
                    Expr::Cast { .. } => expr.clone(),
                    _ => literal,
                };
            }
        }
        match expr {
            Expr::Ident(_) => expr.clone(),
            Expr::Cast { ty, expr, span } => {
                Expr::Cast { ty: ty.clone(), expr: Box::new(self.simplify(expr)), span: *span }
            }
            Expr::Access { map, key, span } => {
                Expr::Access { map: Box::new(self.simplify(map)), key: Box::new(self.simplify(key)), span: *span }
            }
        }
    }

    /// An assignment target: its root variable stays, its keys are simplified.
    fn simplify_target(&self, lhs: &Expr) -> Expr {
        match lhs {
            Expr::Ident(_) => lhs.clone(),
            Expr::Cast { ty, expr, span } => {
                Expr::Cast { ty: ty.clone(), expr: Box::new(self.simplify_target(expr)), span: *span }
            }
            Expr::Access { map, key, span } => Expr::Access {
                map: Box::new(self.simplify_target(map)),
                key: Box::new(self.simplify(key)),
                span: *span,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    const GAME: &str = "
        type Player = {x}; type Score = {0, 100}; type Cell = {a, b, c, null};
        const next: Cell -> Cell = {a: b, b: c, :null};
        const two: Cell = b;
        var pos: Cell = a;
        var fixed: Cell -> Cell = {a: c, :a};
        begin, n1: next[a] == b;
        begin, n2: next[next[b]] != null;
        n1, n3: pos = next[next[a]];
        n3, n4: $$ fixed[a];
        n4, n5: pos == next[two];
        n5, n6: fixed[pos] == Cell(next[a]);
        n6, n7: goals[x] = Score(100);
        n7, end: player = keeper;
    ";

    #[test]
    fn known_guards_and_values_fold() {
        let (game, changes) = run_pass(&parse(GAME), Pass::PropagateConstants);
        assert_eq!(changes, 6);
        insta::assert_snapshot!(print(&game));
    }
}
