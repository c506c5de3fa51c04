//! A flow-insensitive value-set analysis: for each variable assigned only whole (never through a
//! key), the set of values it can ever hold, from its initial value and every assignment to it.
//! Sound over-approximation: `None` means "could be anything". A map variable `K -> V` with
//! symbol values has one set for all its entries (initial entries, default, and every value an
//! assignment `m[k] = e` writes), so a read `m[k]` gives that set whatever the key; a whole or
//! deeper write makes it unknown.
//!
//! One flow-sensitive sharpening: an assignment `x = e` whose source node is reached only through
//! a chain of single in-edges holding a comparison `e == l` or `e != l` (`l` constant, `e` the same
//! expression up to casts), with no edge after it writing a variable `e` reads, assigns only `l`
//! (or anything but `l`): after `top[column] != null`, `cell = Cell(top[column])` is never `null`.
//! The chain stops at protected nodes (`begin`, reachability checks' ends, pragmas), where a
//! search may start without taking the in-edge. The walk is `optimize::dominating`'s, shared with
//! the code generator. Cost: at most `dominating::WALK_LIMIT` (64) edges walked back per
//! assignment.

use super::dominating::{facts_before, EdgeEffect};
use super::env::{strip_casts, Env, NameKind, Value};
use super::graph::Automaton;
use crate::rg::ast::{Expr, Label, TypeExpr};
use petgraph::stable_graph::NodeIndex;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Possible values per variable (`None`: unknown).
pub struct ValueSets<'a> {
    env: &'a Env,
    sets: HashMap<String, Option<BTreeSet<Value>>>,
    /// Per map variable with symbol entries, the values any of its entries can hold.
    entries: HashMap<String, Option<BTreeSet<Value>>>,
    /// An empty variable environment for constant folding.
    no_variables: HashMap<String, Value>,
}

/// Value sets larger than this are treated as unknown (keeps the analysis cheap).
const MAX_VALUES: usize = 4096;

/// Bound on evaluations per assignment (on average) before giving up; every evaluation that
/// changes something adds a value or makes a set unknown, so this only guards against sets that
/// keep growing (each set is finite, but there may be many).
const MAX_ROUNDS: usize = 256;

/// A comparison known to hold for an assignment's right-hand side: it equals (`equal`) or
/// differs from the value.
type Guard = (bool, Value);

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
        let entries = env
            .variables()
            .filter_map(|(name, _)| match env.variable_initial_value(name)? {
                Value::Map { entries, default } => {
                    let values: BTreeSet<Value> = entries.values().chain([&**default]).cloned().collect();
                    Some((name.clone(), values.iter().all(|v| v.as_symbol().is_some()).then_some(values)))
                }
                Value::Symbol(_) => None,
            })
            .collect();
        let mut analysis = ValueSets { env, sets, entries, no_variables: HashMap::new() };
        // One entry per assignment: what it writes (a variable whole, one entry of a map
        // variable, or deeper, which makes its root unknown), the root variable and where its
        // values come from.
        enum Source<'e> {
            Expr(&'e Expr),
            Members(Option<BTreeSet<Value>>),
        }
        let protected = automaton.protected_nodes();
        let mut assignments: Vec<(Written, &str, Source)> = Vec::new();
        let mut guards: Vec<Vec<Guard>> = Vec::new();
        for index in automaton.graph.edge_indices() {
            let edge = &automaton.graph[index];
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
            let (written, root) = match strip_casts(lhs) {
                Expr::Ident(ident) => (Written::Whole, ident.name.as_str()),
                Expr::Access { map, .. } => match strip_casts(map) {
                    Expr::Ident(ident) => (Written::Entry, ident.name.as_str()),
                    other => match super::graph::assigned_root(other) {
                        Some(root) => (Written::Deeper, root),
                        None => continue,
                    },
                },
                Expr::Cast { .. } => continue,
            };
            guards.push(match &source {
                Source::Expr(rhs) => guards_before(automaton, env, &protected, automaton.endpoints(index).0, rhs),
                Source::Members(_) => Vec::new(),
            });
            assignments.push((written, root, source));
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
                for set in analysis.sets.values_mut().chain(analysis.entries.values_mut()) {
                    *set = None;
                }
                return analysis;
            }
            let (written, root, source) = &assignments[index];
            let values = match (written, source) {
                (Written::Deeper, _) => None,
                (_, Source::Expr(rhs)) => analysis.values(rhs).map(|mut values| {
                    for (equal, value) in &guards[index] {
                        values.retain(|v| (v == value) == *equal);
                    }
                    values
                }),
                (_, Source::Members(members)) => members.clone(),
            };
            // A whole or deeper write into a map variable makes its entries unknown.
            let is_map = analysis.entries.contains_key(*root);
            let values = if matches!(written, Written::Entry) || !is_map { values } else { None };
            let slot = if is_map {
                analysis.entries.get_mut(*root).expect("a tracked map variable")
            } else {
                analysis.sets.entry((*root).to_string()).or_insert(None)
            };
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
                if let Expr::Ident(ident) = strip_casts(map) {
                    if let Some(entries) = self.entries.get(&ident.name) {
                        return Some(entries.as_ref()?.iter().map(Cow::Borrowed).collect());
                    }
                }
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

/// What an assignment writes.
enum Written {
    /// A variable as a whole.
    Whole,
    /// One entry `m[k]` of a map variable `m`.
    Entry,
    /// Through more than one key.
    Deeper,
}

/// The comparisons of `rhs` with a constant on the chain of single in-edges ending at `node`,
/// up to the first edge writing a variable `rhs` reads (see the module docs; the walk is
/// `dominating::facts_before`).
fn guards_before(
    automaton: &Automaton,
    env: &Env,
    protected: &HashSet<NodeIndex>,
    node: NodeIndex,
    rhs: &Expr,
) -> Vec<Guard> {
    let rhs = strip_casts(rhs);
    let mut reads = Vec::new();
    super::graph::expr_idents(rhs, &mut reads);
    let single_entry = |node: NodeIndex| {
        if protected.contains(&node) {
            return None;
        }
        match automaton.in_edges(node)[..] {
            [edge] => Some((edge, automaton.endpoints(edge).0)),
            _ => None,
        }
    };
    let effect = |edge| match automaton.label(edge) {
        Label::Compare { lhs, rhs: other, negated } => {
            let (lhs, other) = (strip_casts(lhs), strip_casts(other));
            let constant = if lhs == rhs {
                env.fold(other, &HashMap::new())
            } else if other == rhs {
                env.fold(lhs, &HashMap::new())
            } else {
                None
            };
            match constant {
                Some(value) => EdgeEffect::Narrows((!*negated, value)),
                None => EdgeEffect::Neutral,
            }
        }
        Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => match super::graph::assigned_root(strip_casts(lhs))
        {
            Some(root) if !reads.contains(&root) => EdgeEffect::Neutral,
            _ => EdgeEffect::Writes,
        },
        Label::Skip | Label::Reach { .. } | Label::Tag(_) | Label::TagVar(_) => EdgeEffect::Neutral,
    };
    facts_before(node, single_entry, effect)
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

    #[test]
    fn a_comparison_dominating_an_assignment_narrows_what_it_assigns() {
        let cell_values = |between: &str| {
            let game = parse(&format!(
                "type Player = {{x}}; type Score = {{0}}; type CellOrNull = {{c1, c2, null}};
                 var next: CellOrNull = c1; var cell: CellOrNull = c1;
                 begin, chosen: next = CellOrNull(*);
                 chosen, free: next != null;
                 free, tagged: $$ next;
                 {between}
                 placed, end: player = keeper;"
            ));
            let automaton = Automaton::from_game(&game);
            let env = Env::new(&automaton);
            let sets = ValueSets::new(&automaton, &env);
            sets.values(&crate::optimize::env::symbol_expr("cell"))
        };
        let symbols = |names: &[&str]| Some(names.iter().map(|n| Value::Symbol(n.to_string())).collect());
        assert_eq!(cell_values("tagged, placed: cell = CellOrNull(next);"), symbols(&["c1", "c2"]));
        assert_eq!(
            cell_values("tagged, moved: next = CellOrNull(*); moved, placed: cell = next;"),
            symbols(&["c1", "c2", "null"]),
            "the variable is chosen again after the guard"
        );
        assert_eq!(
            cell_values("tagged, placed: cell = next; begin, tagged: ;"),
            symbols(&["c1", "c2", "null"]),
            "another path skips the guard"
        );
    }

    #[test]
    fn a_map_entry_read_gives_the_values_its_entries_can_hold() {
        let cell_values = |between: &str| {
            let game = parse(&format!(
                "type Player = {{x}}; type Score = {{0}}; type Col = {{a, b}}; type CellOrNull = {{c1, c2, null}};
                 const up: CellOrNull -> CellOrNull = {{c1: c2, :null}};
                 const filled: Col -> CellOrNull = {{:c1}};
                 var top: Col -> CellOrNull = {{a: c1, :null}}; var col: Col = a; var cell: CellOrNull = c1;
                 begin, chosen: col = Col(*);
                 chosen, free: top[col] != null;
                 free, tagged: $$ col;
                 {between}
                 placed, raised: top[col] = up[cell];
                 raised, end: player = keeper;"
            ));
            let automaton = Automaton::from_game(&game);
            let env = Env::new(&automaton);
            let sets = ValueSets::new(&automaton, &env);
            sets.values(&crate::optimize::env::symbol_expr("cell"))
        };
        let symbols = |names: &[&str]| Some(names.iter().map(|n| Value::Symbol(n.to_string())).collect());
        assert_eq!(cell_values("tagged, placed: cell = CellOrNull(top[col]);"), symbols(&["c1", "c2"]));
        assert_eq!(
            cell_values("tagged, placed: cell = CellOrNull(top[col]); begin, tagged: ;"),
            symbols(&["c1", "c2", "null"]),
            "another path skips the guard"
        );
        assert_eq!(
            cell_values("tagged, placed: cell = CellOrNull(top[col]); begin, end: top = filled;"),
            None,
            "a whole write into the map makes its entries unknown"
        );
    }
}
