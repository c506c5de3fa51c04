//! `propagate_copies`: where every path into an edge leaves a set-typed variable equal to another
//! variable (`x = y`, neither written since) or to a known symbol (`x = c`, or a passed guard
//! `x == c`), reads of it on that edge are replaced by that variable or symbol. Preserves every
//! state and move exactly: a replaced read has the same value in every state that reaches it.
//!
//! The point is what follows: a copy read nowhere any more (`arg = probe` feeding
//! `cursor = step[dir][arg]`) is removed by `prune_unused_variables` or `prune_dead_assignments`,
//! and comparisons with a known side fold in `propagate_constants`.
//!
//! The facts come from a forward "must" data-flow analysis over the whole graph. States enter the
//! graph at `begin` and at the start of every reachability check (from wherever the check is
//! made), so those nodes start with no facts.

use super::env::{strip_casts, symbol_expr, Env, Value};
use super::graph::{assigned_root, Automaton, BEGIN, RESERVED_VARIABLES};
use crate::rg::ast::{Expr, Ident, Label, TypeExpr};
use petgraph::stable_graph::NodeIndex;
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What is known about one variable at a node.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fact {
    /// Holds the same value as this other variable.
    Copy(String),
    /// Holds this symbol.
    Symbol(String),
}

/// Facts holding on every path into a node.
type Facts = BTreeMap<String, Fact>;

pub fn run(automaton: &mut Automaton) -> usize {
    let env = Env::new(automaton);
    let analysis = Analysis::new(automaton, &env);
    let facts = analysis.solve(automaton);
    let mut changes = 0;
    for edge in automaton.edges_in_order() {
        let (source, _) = automaton.endpoints(edge);
        let Some(known) = facts.get(&source) else { continue };
        if known.is_empty() {
            continue;
        }
        let label = automaton.label(edge);
        match analysis.rewrite(label, known) {
            // A comparison that can never pass stays as written: removing its edge can make tags
            // (and so symbols) vanish from the game, which renumbers the symbols of compiled models.
            None => {}
            Some(rewritten) if &rewritten != label => {
                automaton.graph[edge].label = rewritten;
                changes += 1;
            }
            Some(_) => {}
        }
    }
    changes
}

struct Analysis<'a> {
    env: &'a Env,
    /// Members of every tracked variable's type (set-typed, not reserved).
    members: HashMap<String, Vec<String>>,
}

impl<'a> Analysis<'a> {
    fn new(_automaton: &Automaton, env: &'a Env) -> Analysis<'a> {
        let members = env
            .variables()
            .filter(|(name, _)| !RESERVED_VARIABLES.contains(&name.as_str()))
            .filter_map(|(name, ty)| Some((name.clone(), env.set_members(ty)?)))
            .collect();
        Analysis { env, members }
    }

    /// The facts at every node reachable from an entry (`begin` or a check's start).
    fn solve(&self, automaton: &Automaton) -> HashMap<NodeIndex, Facts> {
        let mut entries: HashSet<NodeIndex> = automaton.node(BEGIN).into_iter().collect();
        for edge in automaton.graph.edge_weights() {
            if let Label::Reach { from, .. } = &edge.label {
                entries.extend(automaton.node(&from.name));
            }
        }
        let mut facts: HashMap<NodeIndex, Facts> = entries.iter().map(|&node| (node, Facts::new())).collect();
        let mut work: Vec<NodeIndex> = entries.iter().copied().collect();
        let mut queued: HashSet<NodeIndex> = entries.clone();
        while let Some(node) = work.pop() {
            queued.remove(&node);
            let here = facts[&node].clone();
            for edge in automaton.graph.edges_directed(node, Direction::Outgoing) {
                let Some(after) = self.transfer(&here, &edge.weight().label) else { continue };
                let target = edge.target();
                let changed = match facts.get_mut(&target) {
                    None => {
                        facts.insert(target, after);
                        true
                    }
                    Some(existing) => {
                        let before = existing.len();
                        existing.retain(|name, fact| after.get(name) == Some(fact));
                        existing.len() != before
                    }
                };
                if changed && queued.insert(target) {
                    work.push(target);
                }
            }
        }
        facts
    }

    /// The facts after following an edge with this label (`None`: the edge can never be taken).
    fn transfer(&self, before: &Facts, label: &Label) -> Option<Facts> {
        let mut after = before.clone();
        match label {
            Label::Assign { lhs, rhs } => {
                let learned = match strip_casts(lhs) {
                    Expr::Ident(target) => self.fact_of(&target.name, rhs, before),
                    _ => None,
                };
                if let Some(root) = assigned_root(lhs) {
                    kill(&mut after, root);
                    if let Some(fact) = learned {
                        after.insert(root.to_string(), fact);
                    }
                }
            }
            Label::AssignAny { lhs, .. } => {
                if let Some(root) = assigned_root(lhs) {
                    kill(&mut after, root);
                }
            }
            Label::Compare { lhs, rhs, negated: false } => {
                for (side, other) in [(lhs, rhs), (rhs, lhs)] {
                    if let Expr::Ident(variable) = strip_casts(side) {
                        if !self.members.contains_key(&variable.name) {
                            continue;
                        }
                        if let Some(Fact::Symbol(symbol)) = self.symbol_of(&variable.name, other, before) {
                            match resolve(before, &variable.name) {
                                // The guard cannot pass: nothing flows along the edge.
                                Some(Fact::Symbol(known)) if known != symbol => return None,
                                _ => {
                                    after.insert(variable.name.clone(), Fact::Symbol(symbol));
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        Some(after)
    }

    /// What `target = rhs` makes known about `target`, read in the state before the assignment.
    /// A copy is recorded as such even when its source's value is known too (the chain is
    /// followed when reads are replaced): the result must only grow with what is known before,
    /// or the data-flow iteration would not settle on facts that hold on every path.
    fn fact_of(&self, target: &str, rhs: &Expr, before: &Facts) -> Option<Fact> {
        let target_members = self.members.get(target)?;
        if let Expr::Ident(source) = strip_casts(rhs) {
            if source.name == target {
                return None;
            }
            // Only between variables of the same type, so the replaced read type-checks.
            if self.members.get(&source.name) == Some(target_members) {
                return Some(Fact::Copy(source.name.clone()));
            }
        }
        self.symbol_of(target, rhs, before)
    }

    /// `expr`'s value when it is one known symbol that `target`'s type holds.
    fn symbol_of(&self, target: &str, expr: &Expr, before: &Facts) -> Option<Fact> {
        let known: HashMap<String, Value> = before
            .keys()
            .filter_map(|name| match resolve(before, name)? {
                Fact::Symbol(symbol) => Some((name.clone(), Value::Symbol(symbol))),
                Fact::Copy(_) => None,
            })
            .collect();
        let value = self.env.fold_ref(expr, &known)?;
        let symbol = value.as_symbol()?;
        let fits = self.members.get(target)?.iter().any(|member| member == symbol);
        (fits && self.env.writable_as_symbol(symbol)).then(|| Fact::Symbol(symbol.to_string()))
    }

    /// The label with its reads replaced by what the facts say (`None`: a comparison whose sides
    /// became two known symbols that differ, so its edge can never be taken).
    fn rewrite(&self, label: &Label, known: &Facts) -> Option<Label> {
        Some(match label {
            Label::Assign { lhs, rhs } => {
                let expected = self.type_of(lhs);
                Label::Assign {
                    lhs: self.rewrite_target(lhs, known),
                    rhs: self.rewrite_read(rhs, known, expected.as_ref()),
                }
            }
            Label::AssignAny { lhs, ty } => Label::AssignAny { lhs: self.rewrite_target(lhs, known), ty: ty.clone() },
            Label::Compare { lhs, rhs, negated } => {
                // A side is replaced by a symbol the other side's type holds; against a constant,
                // by any symbol (the comparison is then decided below).
                let no_variables = HashMap::new();
                let expected = |side: &Expr, other: &Expr| match self.env.fold(other, &no_variables) {
                    Some(_) => self.type_of(side),
                    None => self.type_of(other),
                };
                let lhs_new = self.rewrite_read(lhs, known, expected(lhs, rhs).as_ref());
                let rhs_new = self.rewrite_read(rhs, known, expected(rhs, lhs).as_ref());
                // Two literals of different types do not type-check as a comparison: decide it here.
                if let (Some(left), Some(right)) =
                    (self.env.fold(&lhs_new, &no_variables), self.env.fold(&rhs_new, &no_variables))
                {
                    if (left == right) == *negated {
                        return None;
                    }
                    return Some(Label::Skip);
                }
                Label::Compare { lhs: lhs_new, rhs: rhs_new, negated: *negated }
            }
            Label::TagVar(expr) => Label::TagVar(self.rewrite_read(expr, known, None)),
            Label::Skip | Label::Reach { .. } | Label::Tag(_) => label.clone(),
        })
    }

    /// The declared type of an expression, where the declarations give one.
    fn type_of(&self, expr: &Expr) -> Option<TypeExpr> {
        match expr {
            Expr::Ident(ident) => {
                self.env.variable_type(&ident.name).or_else(|| self.env.constant_type(&ident.name)).cloned()
            }
            Expr::Cast { ty, .. } => Some(TypeExpr::Name(ty.clone())),
            Expr::Access { map, .. } => {
                let map_type = self.type_of(map)?;
                self.env.arrow(&map_type).map(|(_, value)| value.clone())
            }
        }
    }

    /// `expr` with its variables replaced. A known symbol replaces a variable only where the
    /// surrounding expression expects a type holding it (`expected`), so the result type-checks.
    fn rewrite_read(&self, expr: &Expr, known: &Facts, expected: Option<&TypeExpr>) -> Expr {
        match expr {
            Expr::Ident(ident) if self.env.is_variable(&ident.name) => match resolve(known, &ident.name) {
                Some(Fact::Copy(source)) => Expr::Ident(Ident { name: source, span: ident.span }),
                Some(Fact::Symbol(symbol)) if self.holds(expected, &symbol) => symbol_expr(&symbol),
                _ => expr.clone(),
            },
            Expr::Ident(_) => expr.clone(),
            Expr::Cast { ty, expr: inner, span } => Expr::Cast {
                ty: ty.clone(),
                expr: Box::new(self.rewrite_read(inner, known, Some(&TypeExpr::Name(ty.clone())))),
                span: *span,
            },
            Expr::Access { map, key, span } => {
                let key_type = self.type_of(map).and_then(|ty| self.env.arrow(&ty).map(|(key, _)| key.clone()));
                Expr::Access {
                    map: Box::new(self.rewrite_read(map, known, None)),
                    key: Box::new(self.rewrite_read(key, known, key_type.as_ref())),
                    span: *span,
                }
            }
        }
    }

    fn holds(&self, expected: Option<&TypeExpr>, symbol: &str) -> bool {
        expected.and_then(|ty| self.env.set_members(ty)).is_some_and(|members| members.iter().any(|m| m == symbol))
    }

    /// An assignment target keeps its root variable; only its keys are reads.
    fn rewrite_target(&self, lhs: &Expr, known: &Facts) -> Expr {
        match lhs {
            Expr::Ident(_) => lhs.clone(),
            Expr::Cast { ty, expr, span } => {
                Expr::Cast { ty: ty.clone(), expr: Box::new(self.rewrite_target(expr, known)), span: *span }
            }
            Expr::Access { map, key, span } => {
                let key_type = self.type_of(map).and_then(|ty| self.env.arrow(&ty).map(|(key, _)| key.clone()));
                Expr::Access {
                    map: Box::new(self.rewrite_target(map, known)),
                    key: Box::new(self.rewrite_read(key, known, key_type.as_ref())),
                    span: *span,
                }
            }
        }
    }
}

/// What is known about `variable`, following copies to the end of the chain (a copy of a
/// variable with a known symbol holds that symbol).
fn resolve(facts: &Facts, variable: &str) -> Option<Fact> {
    let mut fact = facts.get(variable)?.clone();
    // Chains are acyclic (a copy's source is never itself a copy of the target: assigning the
    // target forgets every copy of it), and at most as long as the facts.
    for _ in 0..facts.len() {
        match &fact {
            Fact::Copy(source) => match facts.get(source) {
                Some(next) => fact = next.clone(),
                None => break,
            },
            Fact::Symbol(_) => break,
        }
    }
    Some(fact)
}

/// Forgets what was known about `variable` and every copy of it.
fn kill(facts: &mut Facts, variable: &str) {
    facts.remove(variable);
    facts.retain(|_, fact| !matches!(fact, Fact::Copy(source) if source == variable));
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn copies_and_known_symbols_replace_reads_until_overwritten() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b, c}; type Other = {a, b};
             const step: Cell -> Cell = {a: b, b: c, :a};
             var origin: Cell = a; var arg: Cell = a; var cursor: Cell = a; var narrow: Other = a;
             var who: Cell = a;
             begin, n1: origin = Cell(*);
             n1, n2: arg = origin;
             n2, n3: cursor = step[arg];
             n3, n4: narrow = Other(origin);
             n4, n5: who = b;
             n5, n6: cursor == step[who];
             n6, n7: origin = c;
             n7, n8: cursor = arg;
             n8, n9: origin == cursor;
             n9, end: player = keeper;",
        );
        let (game, changes) = run_pass(&game, Pass::PropagateCopies);
        // `step[arg]` reads `origin`; `step[who]` reads `b`; after `origin = c` the copy in `arg`
        // is forgotten, so `cursor = arg` stays, and `origin == cursor` reads `c == arg`.
        // `narrow` has another type: `Other(origin)` is not a copy, and nothing reads `narrow`.
        assert_eq!(changes, 3);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn facts_meet_at_merges_and_checks_start_with_none() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b};
             var v: Cell = a; var w: Cell = a;
             begin, l: v = a;
             begin, r: v = a;
             begin, q: v = b;
             l, m: w = v;
             r, m: w = v;
             m, n: w == v;
             q, n: ;
             n, check: v == a;
             check, sub: w == v;
             sub, done: ;
             n, k: ? check -> done;
             k, end: player = keeper;",
        );
        let (game, _) = run_pass(&game, Pass::PropagateCopies);
        let printed = print(&game);
        // Both ways into `m` set `v = a`: `w = v` reads `a` there, and `w == v` is `a == a`, a skip.
        assert!(printed.contains("l, m: w = a;") && printed.contains("r, m: w = a;"), "{printed}");
        assert!(printed.contains("m, n: ;"), "{printed}");
        // `n` is also reached from `q` (v = b): nothing is known there; `check` is a check's start.
        assert!(printed.contains("n, check: v == a;"), "{printed}");
        assert!(printed.contains("check, sub: w == v;"), "{printed}");
    }
}
