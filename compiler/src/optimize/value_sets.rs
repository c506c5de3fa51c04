//! A flow-insensitive value-set analysis: for each variable assigned only whole (never through a
//! key), the set of values it can ever hold, from its initial value and every assignment to it.
//! Sound over-approximation: `None` means "could be anything".

use super::env::{strip_casts, Env, NameKind, Value};
use super::graph::Automaton;
use crate::rg::ast::{Expr, Label, TypeExpr};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

/// Possible values per variable (`None`: unknown).
pub struct ValueSets<'a> {
    env: &'a Env,
    sets: HashMap<String, Option<BTreeSet<Value>>>,
    /// An empty variable environment for constant folding.
    no_variables: HashMap<String, Value>,
}

/// Value sets larger than this are treated as unknown (keeps the analysis cheap).
const MAX_VALUES: usize = 4096;

/// Bound on evaluations per assignment (on average) before giving up; every evaluation that
/// changes something adds a value or makes a set unknown, so this only guards against sets that
/// keep growing (each set is finite, but there may be many).
const MAX_ROUNDS: usize = 256;

impl<'a> ValueSets<'a> {
    pub fn new(automaton: &Automaton, env: &'a Env) -> ValueSets<'a> {
        // Only symbol-valued variables are tracked; map-valued ones are unknown from the start.
        let sets = env
            .variables()
            .map(|(name, _)| {
                let initial = env.variable_initial_value(name).filter(|v| v.as_symbol().is_some());
                (name.clone(), initial.map(|v| BTreeSet::from([v.clone()])))
            })
            .collect();
        let mut analysis = ValueSets { env, sets, no_variables: HashMap::new() };
        // One entry per assignment: the variable it sets whole (`None`: written through a key, so
        // its root becomes unknown) and where its values come from.
        enum Source<'e> {
            Expr(&'e Expr),
            Members(Option<BTreeSet<Value>>),
        }
        let mut assignments: Vec<(Option<&str>, &str, Source)> = Vec::new();
        for edge in automaton.graph.edge_weights() {
            let (lhs, source) = match &edge.label {
                Label::Assign { lhs, rhs } => (lhs, Source::Expr(rhs)),
                Label::AssignAny { lhs, ty } => (
                    lhs,
                    Source::Members(
                        env.set_members(&TypeExpr::Name(ty.clone()))
                            .map(|members| members.into_iter().map(Value::Symbol).collect()),
                    ),
                ),
                _ => continue,
            };
            match strip_casts(lhs) {
                Expr::Ident(ident) => assignments.push((Some(&ident.name), &ident.name, source)),
                other => {
                    if let Some(root) = super::graph::assigned_root(other) {
                        assignments.push((None, root, source));
                    }
                }
            }
        }
        // A worklist to the least fixed point: an assignment is evaluated again only when a
        // variable its right-hand side reads has changed. Sets only grow (or become unknown), so
        // the order of evaluation does not change the result; each variable changes a bounded
        // number of times, so it ends. (Re-evaluating every assignment every round was most of
        // the optimiser's time on Dou Dizhu.)
        let mut readers: HashMap<&str, Vec<usize>> = HashMap::new();
        for (index, (_, _, source)) in assignments.iter().enumerate() {
            if let Source::Expr(rhs) = source {
                let mut idents = Vec::new();
                super::graph::expr_idents(rhs, &mut idents);
                idents.sort_unstable();
                idents.dedup();
                for ident in idents.into_iter().filter(|ident| env.is_variable(ident)) {
                    readers.entry(ident).or_default().push(index);
                }
            }
        }
        let mut queued = vec![true; assignments.len()];
        let mut work: Vec<usize> = (0..assignments.len()).rev().collect();
        let mut updates = 0usize;
        let update_limit = MAX_ROUNDS.saturating_mul(assignments.len().max(1));
        while let Some(index) = work.pop() {
            queued[index] = false;
            updates += 1;
            if updates > update_limit {
                // Did not settle: claim nothing.
                for set in analysis.sets.values_mut() {
                    *set = None;
                }
                return analysis;
            }
            let (whole, root, source) = &assignments[index];
            let values = match (whole, source) {
                (None, _) => None,
                (Some(_), Source::Expr(rhs)) => analysis.values(rhs),
                (Some(_), Source::Members(members)) => members.clone(),
            };
            let slot = analysis.sets.entry((*root).to_string()).or_insert(None);
            let changed = match (slot.as_mut(), values) {
                (Some(set), Some(values)) => {
                    let before = set.len();
                    set.extend(values);
                    set.len() != before
                }
                (Some(_), None) => {
                    *slot = None;
                    true
                }
                (None, _) => false,
            };
            if changed {
                for &reader in readers.get(root).map(Vec::as_slice).unwrap_or_default() {
                    if !queued[reader] {
                        queued[reader] = true;
                        work.push(reader);
                    }
                }
            }
        }
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
        Some(self.values_ref(expr)?.into_iter().map(Cow::into_owned).collect())
    }

    /// [`ValueSets::values`] without copying the tables looked into (they can be large).
    fn values_ref<'s>(&'s self, expr: &Expr) -> Option<Vec<Cow<'s, Value>>> {
        if let Some(value) = self.env.fold_ref(expr, &self.no_variables) {
            return Some(vec![value]);
        }
        match expr {
            Expr::Ident(ident) => match self.env.kind(&ident.name) {
                NameKind::Variable => Some(self.sets.get(&ident.name)?.as_ref()?.iter().map(Cow::Borrowed).collect()),
                NameKind::Constant | NameKind::Symbol => None,
            },
            Expr::Cast { expr, .. } => self.values_ref(expr),
            Expr::Access { map, key, .. } => {
                let maps = self.values_ref(map)?;
                let keys = self.values_ref(key);
                let mut out: Vec<Cow<'s, Value>> = Vec::new();
                for map in maps {
                    match map {
                        Cow::Borrowed(table) => {
                            out.extend(pick(table, keys.as_deref())?.into_iter().map(Cow::Borrowed))
                        }
                        Cow::Owned(table) => {
                            out.extend(pick(&table, keys.as_deref())?.into_iter().map(|v| Cow::Owned(v.clone())))
                        }
                    }
                    if out.len() > MAX_VALUES {
                        return None;
                    }
                }
                Some(out)
            }
        }
    }
}

/// The entries of `map` at `keys`, or all its entries and its default when the keys are unknown.
fn pick<'v>(map: &'v Value, keys: Option<&[Cow<'_, Value>]>) -> Option<Vec<&'v Value>> {
    let Value::Map { entries, default } = map else {
        return None;
    };
    match keys {
        Some(keys) => keys.iter().map(|key| Some(entries.get(key.as_symbol()?).unwrap_or(default))).collect(),
        None => Some(entries.values().chain(std::iter::once(&**default)).collect()),
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
