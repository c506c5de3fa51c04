//! A flow-insensitive value-set analysis: for each variable assigned only whole (never through a
//! key), the set of values it can ever hold, from its initial value and every assignment to it.
//! Sound over-approximation: `None` means "could be anything".

use super::env::{strip_casts, Env, NameKind, Value};
use super::graph::Automaton;
use crate::rg::ast::{Expr, Label, TypeExpr};
use std::collections::{BTreeSet, HashMap};

/// Possible values per variable (`None`: unknown).
pub struct ValueSets<'a> {
    env: &'a Env,
    sets: HashMap<String, Option<BTreeSet<Value>>>,
}

/// Bound on fixed-point rounds; every round adds a value or makes a set unknown, so this is only a
/// guard against sets that keep growing (each set is finite, but there may be many).
const MAX_ROUNDS: usize = 256;

impl<'a> ValueSets<'a> {
    pub fn new(automaton: &Automaton, env: &'a Env) -> ValueSets<'a> {
        let mut sets: HashMap<String, Option<BTreeSet<Value>>> = env
            .variables()
            .map(|(name, _)| (name.clone(), env.variable_initial_value(name).map(|v| BTreeSet::from([v.clone()]))))
            .collect();
        let mut analysis = ValueSets { env, sets: HashMap::new() };
        for _ in 0..MAX_ROUNDS {
            analysis.sets = sets.clone();
            let mut changed = false;
            for edge in automaton.graph.edge_weights() {
                let (lhs, values) = match &edge.label {
                    Label::Assign { lhs, rhs } => (lhs, analysis.values(rhs)),
                    Label::AssignAny { lhs, ty } => (
                        lhs,
                        env.set_members(&TypeExpr::Name(ty.clone()))
                            .map(|members| members.into_iter().map(Value::Symbol).collect()),
                    ),
                    _ => continue,
                };
                let (name, values) = match strip_casts(lhs) {
                    Expr::Ident(ident) => (&ident.name, values),
                    // Written through a key: the whole value is no longer tracked.
                    other => match super::graph::assigned_root(other) {
                        Some(root) => (&root.to_string(), None),
                        None => continue,
                    },
                };
                let slot = sets.entry(name.clone()).or_insert(None);
                match (slot.as_mut(), values) {
                    (Some(set), Some(values)) => {
                        let before = set.len();
                        set.extend(values);
                        changed |= set.len() != before;
                    }
                    (Some(_), None) => {
                        *slot = None;
                        changed = true;
                    }
                    (None, _) => {}
                }
            }
            if !changed {
                analysis.sets = sets;
                return analysis;
            }
        }
        // Did not settle: claim nothing.
        analysis.sets = sets.into_keys().map(|name| (name, None)).collect();
        analysis
    }

    /// Whether writing to `lhs` can never be a "key outside the map's domain" error: every key's
    /// possible values lie inside its map's key type.
    pub fn assignment_target_always_in_domain(&self, lhs: &Expr) -> bool {
        self.target_type(lhs).is_some()
    }

    fn target_type(&self, lhs: &Expr) -> Option<&'a TypeExpr> {
        match lhs {
            Expr::Ident(ident) => self.env.variable_type(&ident.name),
            Expr::Cast { expr, .. } => self.target_type(expr),
            Expr::Access { map, key, .. } => {
                let (from, to) = self.env.arrow(self.target_type(map)?)?;
                let members = self.env.set_members(from)?;
                let keys = self.values(key)?;
                keys.iter().all(|k| k.as_symbol().is_some_and(|k| members.iter().any(|m| m == k))).then_some(to)
            }
        }
    }

    /// The values an expression may have in any state.
    pub fn values(&self, expr: &Expr) -> Option<BTreeSet<Value>> {
        if let Some(value) = self.env.fold(expr, &HashMap::new()) {
            return Some(BTreeSet::from([value]));
        }
        match expr {
            Expr::Ident(ident) => match self.env.kind(&ident.name) {
                NameKind::Variable => self.sets.get(&ident.name).cloned().flatten(),
                NameKind::Constant | NameKind::Symbol => None,
            },
            Expr::Cast { expr, .. } => self.values(expr),
            Expr::Access { map, key, .. } => {
                let maps = self.values(map)?;
                let keys = self.values(key);
                let mut out = BTreeSet::new();
                for map in maps {
                    let Value::Map { entries, default } = map else {
                        return None;
                    };
                    match &keys {
                        Some(keys) => {
                            for key in keys {
                                out.insert(entries.get(key.as_symbol()?).unwrap_or(&default).clone());
                            }
                        }
                        None => {
                            out.extend(entries.into_values());
                            out.insert(*default);
                        }
                    }
                }
                Some(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimize::testing::parse;

    #[test]
    fn values_flow_through_variables_and_constant_tables() {
        let game = parse(
            "type Player = {x, o}; type Score = {0}; type C = {a, b, c};
             const other: Player -> Player = {x: o, :x};
             var me: Player = x; var copy: Player = x; var any: C = a; var board: C -> C = {:a};
             begin, n1: me = other[me];
             n1, n2: copy = me;
             n2, n3: any = C(*);
             n3, n4: board[a] = b;
             n4, end: player = PlayerOrSystem(copy);",
        );
        let automaton = Automaton::from_game(&game);
        let env = Env::new(&automaton);
        let sets = ValueSets::new(&automaton, &env);
        let symbols = |names: &[&str]| Some(names.iter().map(|n| Value::Symbol(n.to_string())).collect());
        let var = |name: &str| crate::optimize::env::symbol_expr(name);
        assert_eq!(sets.values(&var("me")), symbols(&["o", "x"]));
        assert_eq!(sets.values(&var("copy")), symbols(&["o", "x"]));
        assert_eq!(sets.values(&var("any")), symbols(&["a", "b", "c"]));
        assert_eq!(sets.values(&var("player")), symbols(&["keeper", "o", "x"]));
        assert_eq!(sets.values(&var("board")), None);
    }
}
