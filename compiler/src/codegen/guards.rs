//! What a comparison proves about the assignments it dominates: after `top[column] != null`,
//! `cell = Cell(top[column])` never assigns `null`, however often `top[column]` holds it elsewhere.
//!
//! The value sets ([`super::values`]) and slot facts ([`super::refine`], [`super::distinct`]) are
//! flow-insensitive about what a state *entry* holds, so without this a guard two edges before an
//! assignment is lost. Here, for every edge assigning one slot from a read `e`, the edges before
//! it are walked back while each node on the way has exactly one in-edge and is neither `begin`
//! nor the start of a reachability check (the only ways into a node other than its in-edges: a
//! search that starts after a `player` assignment starts at that edge's target, with the state the
//! edge left). A comparison `e == l` or `e != l` (either side order, `l` a literal, `e` the same
//! read) found on the way holds when the assignment runs, provided no edge between writes a slot
//! `e` may read (any slot of a variable it reads, keys included); the walk stops at the first such
//! write. So the assigned value is `l` (after `==`) or anything but `l` (after `!=`). Nested
//! checks (`? a -> b`) undo their writes and change nothing.
//!
//! The walk itself is [`crate::optimize::dominating`]'s, shared with the optimiser's value sets;
//! this module says what a lowered edge means for a slot read.
//!
//! Cost: per assigning edge, a walk of at most
//! [`WALK_LIMIT`](crate::optimize::dominating::WALK_LIMIT) edges; in-edge counts once.

use super::graph::written_range;
use crate::optimize::dominating::{facts_before, EdgeEffect};
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanTransfer};

/// A fact about an assignment's right-hand side: it equals (`equal`) or differs from `symbol`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Guard {
    pub equal: bool,
    pub symbol: u32,
}

/// Per edge (indexed like `plan.ops`), the guards known to hold for its slot assignment's
/// right-hand side when it runs (empty for other edges).
pub(crate) fn dominating_guards(automaton: &Automaton, plan: &Plan) -> Vec<Vec<Guard>> {
    let (in_edges, entered_otherwise) = in_edges_and_entries(automaton, plan);
    plan.ops
        .iter()
        .enumerate()
        .map(|(index, op)| match op {
            PlanOp::Assign { rhs: rhs @ PlanOperand::Place(_), transfer: PlanTransfer::Slot, .. } => {
                guards_before(automaton, plan, &in_edges, &entered_otherwise, automaton.edges[index].source, rhs)
            }
            _ => Vec::new(),
        })
        .collect()
}

/// Per node, the edges into it, and whether it is also entered otherwise (the automaton's
/// begin, or a reachability check's start): what a walk back along single-in-edge chains needs.
pub(crate) fn in_edges_and_entries(automaton: &Automaton, plan: &Plan) -> (Vec<Vec<usize>>, Vec<bool>) {
    let mut in_edges: Vec<Vec<usize>> = vec![Vec::new(); automaton.nodes.len()];
    for (index, edge) in automaton.edges.iter().enumerate() {
        in_edges[edge.target as usize].push(index);
    }
    let mut entered_otherwise = vec![false; automaton.nodes.len()];
    entered_otherwise[automaton.begin as usize] = true;
    for op in &plan.ops {
        if let PlanOp::Reach { from, .. } = op {
            entered_otherwise[*from as usize] = true;
        }
    }
    (in_edges, entered_otherwise)
}

/// The guards on `read` along the single-in-edge chain ending at `node`
/// ([`crate::optimize::dominating::facts_before`]).
pub(super) fn guards_before(
    automaton: &Automaton,
    plan: &Plan,
    in_edges: &[Vec<usize>],
    entered_otherwise: &[bool],
    node: u32,
    read: &PlanOperand,
) -> Vec<Guard> {
    let mut read_ranges = Vec::new();
    read_ranges_of(plan, read, &mut read_ranges);
    let single_entry = |node: u32| match in_edges[node as usize][..] {
        [edge] if !entered_otherwise[node as usize] => Some((edge, automaton.edges[edge].source)),
        _ => None,
    };
    let effect = |edge: usize| match &plan.ops[edge] {
        PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => match (lhs, rhs) {
            (PlanOperand::Literal(symbol), other) | (other, PlanOperand::Literal(symbol)) if other == read => {
                EdgeEffect::Narrows(Guard { equal: *equal, symbol: *symbol })
            }
            _ => EdgeEffect::Neutral,
        },
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => {
            let (start, end) = written_range(plan, lhs);
            if !lhs.in_state || read_ranges.iter().any(|&(s, e)| start < e && s < end) {
                EdgeEffect::Writes
            } else {
                EdgeEffect::Neutral
            }
        }
        PlanOp::Skip | PlanOp::Compare { .. } | PlanOp::Reach { .. } | PlanOp::Tag(_) | PlanOp::TagExpr(_) => {
            EdgeEffect::Neutral
        }
    };
    facts_before(node, single_entry, effect)
}

/// The slot ranges (whole variables) `operand` may read, keys included.
fn read_ranges_of(plan: &Plan, operand: &PlanOperand, out: &mut Vec<(u32, u32)>) {
    if let PlanOperand::Place(place) = operand {
        if place.in_state {
            out.push(written_range(plan, place));
        }
        for step in &place.steps {
            read_ranges_of(plan, &step.key, out);
        }
    }
}

/// Whether `symbol` may be assigned under `guards`.
pub(crate) fn allows(guards: &[Guard], symbol: u32) -> bool {
    guards.iter().all(|guard| (guard.symbol == symbol) == guard.equal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// The guards found for the assignment on the edge into `to`, and the symbol id of `null`.
    fn guards(edges: &[(&str, &str, &str)], to: &str) -> (Vec<Guard>, u32) {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Col", "{a, b}");
        builder.typedef("CellOrNull", "{c1, c2, null}").typedef("Tops", "Col -> CellOrNull");
        builder.variable("top", "Tops", "{a: c1, :null}").variable("col", "Col", "a");
        builder.variable("cell", "CellOrNull", "c1").variable("other", "Col", "a");
        builder.edge("begin", "choose", "player = x");
        for (from, target, label) in edges {
            builder.edge(from, target, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let edge = automaton
            .edges
            .iter()
            .position(|e| automaton.nodes[e.target as usize].name == to)
            .expect("the edge exists");
        let null = automaton.symbols.iter().position(|s| s == "null").expect("null is a symbol") as u32;
        (dominating_guards(&automaton, &plan).swap_remove(edge), null)
    }

    #[test]
    fn a_guard_on_the_same_read_holds_through_unrelated_edges() {
        let edges = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "free", "top[col] != null"),
            ("free", "tagged", "$$ col"),
            ("tagged", "unrelated", "other = b"),
            ("unrelated", "placed", "cell = top[col]"),
            ("placed", "end", "player = keeper"),
        ];
        let (found, null) = guards(&edges, "placed");
        assert_eq!(found, vec![Guard { equal: false, symbol: null }]);
        assert!(!allows(&found, null));
        assert!(allows(&found, null + 1));
    }

    #[test]
    fn a_missing_guard_or_a_write_in_between_proves_nothing() {
        let unguarded = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "placed", "cell = top[col]"),
            ("placed", "end", "player = keeper"),
        ];
        assert!(guards(&unguarded, "placed").0.is_empty(), "no guard at all");
        let rechosen = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "free", "top[col] != null"),
            ("free", "again", "col = Col(*)"),
            ("again", "placed", "cell = top[col]"),
            ("placed", "end", "player = keeper"),
        ];
        assert!(guards(&rechosen, "placed").0.is_empty(), "the key is chosen again after the guard");
        let refilled = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "free", "top[col] != null"),
            ("free", "filled", "top[b] = null"),
            ("filled", "placed", "cell = top[col]"),
            ("placed", "end", "player = keeper"),
        ];
        assert!(guards(&refilled, "placed").0.is_empty(), "the map is written after the guard");
        let merged = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "free", "top[col] != null"),
            ("choose", "free", "col = b"),
            ("free", "placed", "cell = top[col]"),
            ("placed", "end", "player = keeper"),
        ];
        assert!(guards(&merged, "placed").0.is_empty(), "another path skips the guard");
        let checked = [
            ("choose", "chosen", "col = Col(*)"),
            ("chosen", "free", "top[col] != null"),
            ("free", "placed", "cell = top[col]"),
            ("placed", "end", "player = keeper"),
            ("choose", "probe", "? free -> end"),
            ("probe", "end", "player = keeper"),
        ];
        assert!(guards(&checked, "placed").0.is_empty(), "a check starts below the guard");
    }
}
