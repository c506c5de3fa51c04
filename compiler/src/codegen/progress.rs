//! Ray walks that need no visited set: a cycle of a reachability check whose only write steps
//! one slot along a constant table (`cursor = step[dir][cursor]`) and which a guard closes once
//! that slot can repeat (`board[cursor] == enemy` never holds off the board) cannot revisit a state.
//!
//! Take one strongly connected component `C` of a check's region where every edge is a guard
//! (or a skip or tag) or the same *step* `x = T[k..][x]` into one fixed slot `x`, with `T` a
//! constant table and its other keys `k` literals or slots that no edge of `C` writes. While the
//! walk stays in `C`, everything but `x` keeps its value and `x` follows one function
//! `f = T[k..]`: its values along any path are `s, f(s), f(f(s)), ...`. Call `s` *periodic* when
//! some `f^n(s) = s` (`n ≥ 1`), for any value the other keys may hold. A state repeats on a path
//! only through a cycle of `C` that writes nothing (excluded: every cycle must pass a step) or
//! once `x` is periodic (before that, the values of the orbit are pairwise distinct). And once
//! `x` is periodic it stays so (`f` maps a cycle onto itself), so if every cycle of `C` passes a
//! *closing* guard, one that fails in every reachable state whose `x` is periodic (decided on the
//! slot facts of [`super::distinct::SlotFacts::refined`], which hold in every reachable state),
//! the walk leaves `C` or stops within `|C|` edges. A walk through `C` therefore ends after at
//! most (longest tail of `f` into a periodic value + 1) rounds, without a visited set.
//!
//! Dropping the visits of `C` changes no result: visited sets only make a search terminate; a
//! state explored before (which found nothing, else the check would have returned) is explored
//! again, at some cost, never with another answer. Errors cannot differ either: no edge of `C`
//! writes through a key. A check left with no visit and nothing else impure becomes *pure*
//! (`fn(&mut Values) -> bool`, no search context).
//!
//! *Filling cycles* ([`filling_nodes`], move searches only): a component of the move search
//! every write of which into some state map `m` stores one literal `c`, and every cycle of which
//! passes a *filling* write `m[k] = c` (keys fixed slots) such that on every path from `begin`
//! into it, after the last write into `m` or a key's slot, a guard fails when the entry `m[k]`
//! holds `c` (the guard with that read replaced by `c` is unsatisfiable on the slot facts). Along
//! a walk in the component the number of `m`'s slots holding `c` never falls and rises on every
//! cycle, so the walk passes cycles at most `|m|` times (at most [`TAIL_LIMIT`] slots) and cannot
//! revisit a state. Draughts' capture loop (`check(opposes(me, board[over]) == 1)` ... `board[over]
//! = empty`) and othello5's flips are such cycles. Errors: a dropped visit only re-explores a
//! state whose exploration finished without an error, so the first error is the same.
//!
//! Cost: per component, one pass over its edges, then per combination of the step's other keys
//! (at most [`KEY_COMBINATIONS_LIMIT`]) one walk over every symbol (the periodic values), and one
//! evaluation of each guard of `C` on the slot facts (computed once per game, only when some
//! component passes the structural tests).

use super::distinct::SlotFacts;
use super::graph::{fixed_slot, written_range};
use super::refine::{empty_set, Evaluator};
use super::values::ValueSets;
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanTransfer};

/// The most combinations of a step's other keys whose functions are walked.
const KEY_COMBINATIONS_LIMIT: usize = 1 << 12;

/// The longest tail (steps before a periodic value) a walk without visits may take: each round
/// is a recursive call of the generated code, so this bounds its stack depth.
const TAIL_LIMIT: usize = 256;

/// The step of a component: the slot it writes and the constant table read.
struct Step<'p> {
    slot: u32,
    table: &'p PlanPlace,
}

/// Each cycle component of `region` (ascending) with the edges that join two of its nodes.
fn component_edges<'a>(
    automaton: &'a Automaton,
    region: &'a [bool],
    component: &'a [Option<usize>],
) -> impl Iterator<Item = (usize, Vec<usize>)> + 'a {
    let components: std::collections::BTreeSet<usize> = component.iter().flatten().copied().collect();
    components.into_iter().map(move |c| {
        let inside = |node: u32| region[node as usize] && component[node as usize] == Some(c);
        let edges = (0..automaton.edges.len())
            .filter(|&e| inside(automaton.edges[e].source) && inside(automaton.edges[e].target))
            .collect();
        (c, edges)
    })
}

/// The nodes of `region` whose visits a progressing walk makes unnecessary (see the module
/// docs). `component[n]` is node `n`'s strongly connected component within the region's graph
/// (`None` outside a cycle); `to` the check's target. `facts` is computed on first need.
pub(crate) fn progressing_nodes(
    automaton: &Automaton,
    plan: &Plan,
    values: &ValueSets,
    region: &[bool],
    component: &[Option<usize>],
    facts: &mut Option<SlotFacts>,
) -> Vec<bool> {
    let count = automaton.nodes.len();
    let mut progressing = vec![false; count];
    for (c, edges) in component_edges(automaton, region, component) {
        let inside = |node: u32| region[node as usize] && component[node as usize] == Some(c);
        let Some(step) = component_step(plan, &edges) else { continue };
        let Some(periodic) = periodic_values(plan, values, &step, automaton.symbols.len()) else { continue };
        // Every cycle passes a step.
        let steps: Vec<usize> = edges.iter().copied().filter(|&e| writes(&plan.ops[e])).collect();
        if cyclic_without(automaton, &edges, &steps) {
            continue;
        }
        let facts = facts.get_or_insert_with(|| SlotFacts::refined(automaton, plan, values, automaton.symbols.len()));
        let evaluator = Evaluator { plan, words: facts.words(), symbols: automaton.symbols.len(), facts: facts.sets() };
        let mut periodic_set = empty_set(facts.words());
        for &symbol in &periodic {
            super::distinct::set_bit(&mut periodic_set, symbol);
        }
        let fixed = |slot: u32| (slot == step.slot).then(|| periodic_set.clone());
        let closing: Vec<usize> = edges
            .iter()
            .copied()
            .filter(|&e| match &plan.ops[e] {
                PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
                    let (lhs, rhs) = (evaluator.operand(lhs, &fixed), evaluator.operand(rhs, &fixed));
                    !evaluator.satisfiable(&lhs, &rhs, *equal)
                }
                _ => false,
            })
            .collect();
        // Every cycle passes a guard that fails once the slot is periodic.
        if cyclic_without(automaton, &edges, &closing) {
            continue;
        }
        for (node, marked) in progressing.iter_mut().enumerate() {
            *marked |= inside(node as u32);
        }
    }
    progressing
}

/// Whether an edge of a walked component writes anything (only steps may).
fn writes(op: &PlanOp) -> bool {
    matches!(op, PlanOp::Assign { .. } | PlanOp::AssignAny { .. })
}

/// The one step every writing edge of a component performs, when every other edge is a guard,
/// skip, tag or trivial check and the step's other keys are literals or slots it does not write.
fn component_step<'p>(plan: &'p Plan, edges: &[usize]) -> Option<Step<'p>> {
    let mut step: Option<Step<'p>> = None;
    for &edge in edges {
        match &plan.ops[edge] {
            PlanOp::Skip | PlanOp::Compare { .. } | PlanOp::Tag(_) | PlanOp::TagExpr(_) => {}
            PlanOp::Reach { from, to, .. } if from == to => {}
            PlanOp::Assign { lhs, rhs: PlanOperand::Place(table), transfer: PlanTransfer::Slot, .. } => {
                let slot = fixed_slot(lhs)?;
                if table.in_state {
                    return None;
                }
                let keyed_by_slot = table.steps.iter().filter(|s| is_slot(&s.key, slot)).count();
                let other_keys_fixed = table.steps.iter().all(|s| match &s.key {
                    PlanOperand::Literal(_) => true,
                    PlanOperand::Place(place) => fixed_slot(place).is_some(),
                });
                if keyed_by_slot != 1 || !other_keys_fixed {
                    return None;
                }
                match &step {
                    None => step = Some(Step { slot, table }),
                    Some(known) if known.slot == slot && known.table == table => {}
                    Some(_) => return None,
                }
            }
            _ => return None,
        }
    }
    step
}

/// Whether `operand` is a read of fixed slot `slot`.
fn is_slot(operand: &PlanOperand, slot: u32) -> bool {
    matches!(operand, PlanOperand::Place(place) if fixed_slot(place) == Some(slot))
}

/// The values of the step's slot that are periodic under its function for some values of the
/// other keys, or `None` when there are too many combinations, a read leaves the constant
/// buffer or some tail is longer than [`TAIL_LIMIT`].
fn periodic_values(plan: &Plan, values: &ValueSets, step: &Step, symbols: usize) -> Option<Vec<u32>> {
    let mut bases = vec![step.table.base as usize];
    let mut own = None;
    for map_step in &step.table.steps {
        if is_slot(&map_step.key, step.slot) {
            own = Some(map_step);
            continue;
        }
        let keys = match &map_step.key {
            PlanOperand::Literal(symbol) => vec![*symbol],
            key => values.operand_members(key),
        };
        let offsets: Vec<usize> =
            keys.iter().map(|&k| map_step.offsets.get(k as usize).map(|&o| o as usize)).collect::<Option<_>>()?;
        if bases.len() * offsets.len() > KEY_COMBINATIONS_LIMIT {
            return None;
        }
        bases = bases.iter().flat_map(|&b| offsets.iter().map(move |&o| b + o)).collect();
    }
    let own = own?;
    let mut periodic = vec![false; symbols];
    for base in bases {
        let function: Vec<usize> = (0..symbols)
            .map(|s| {
                let offset = *own.offsets.get(s)? as usize;
                plan.const_values.get(base + offset).map(|&value| value as usize).filter(|&value| value < symbols)
            })
            .collect::<Option<_>>()?;
        let (cyclic, tail) = cycles_and_tails(&function);
        if tail > TAIL_LIMIT {
            return None;
        }
        for (symbol, on_cycle) in cyclic.into_iter().enumerate() {
            periodic[symbol] |= on_cycle;
        }
    }
    Some((0..symbols as u32).filter(|&s| periodic[s as usize]).collect())
}

/// For a function on `0..n`: which values lie on one of its cycles, and the longest number of
/// steps from any value to a value on a cycle. Linear: each value is walked once.
fn cycles_and_tails(function: &[usize]) -> (Vec<bool>, usize) {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let count = function.len();
    let mut state = vec![NEW; count];
    let mut cyclic = vec![false; count];
    let mut tail = vec![0usize; count];
    for start in 0..count {
        let mut path = Vec::new();
        let mut value = start;
        while state[value] == NEW {
            state[value] = ON_PATH;
            path.push(value);
            value = function[value];
        }
        for &member in &path {
            state[member] = DONE;
        }
        if let Some(first) = path.iter().position(|&v| v == value) {
            // `value` closes a new cycle: its members are the path from its first visit on.
            for &member in &path[first..] {
                cyclic[member] = true;
            }
            path.truncate(first);
        }
        // The rest of the path leads into a cycle or a value already done.
        for &member in path.iter().rev() {
            let next = function[member];
            tail[member] = if cyclic[next] { 1 } else { tail[next] + 1 };
        }
    }
    (cyclic, tail.into_iter().max().unwrap_or(0))
}

/// Whether the component's edges without `removed` still hold a cycle.
fn cyclic_without(automaton: &Automaton, edges: &[usize], removed: &[usize]) -> bool {
    let mut successors = vec![Vec::new(); automaton.nodes.len()];
    for &edge in edges {
        if !removed.contains(&edge) {
            let record = &automaton.edges[edge];
            successors[record.source as usize].push(record.target);
        }
    }
    super::graph::cyclic_nodes(&successors).iter().any(|&c| c)
}

/// The nodes of the move search's cycles that *fill* a map (see the module docs, "Filling
/// cycles"): components every write of which into some state map `m` stores one literal `c`
/// (`m[k] = c`), and every cycle of which passes such a write that a guard before it proved to
/// change the entry (on every path into it, `m[k] == c` makes a guard fail, with nothing
/// writing `m` or `k`'s slots in between). Each pass round such a cycle adds an entry holding `c`
/// and none removes one, so a walk passes it at most as many times as `m` has slots: it ends
/// without a visited set. Per node, the number of slots of the map its component fills (a bound
/// on the passes), `None` where it fills none. `component[n]` is node `n`'s strongly connected
/// component within `region` (`None` outside a cycle). Cost: per component a pass over its
/// edges, then per candidate write one backward walk over the automaton's edges.
pub(crate) fn filling_nodes(
    automaton: &Automaton,
    plan: &Plan,
    values: &ValueSets,
    region: &[bool],
    component: &[Option<usize>],
    facts: &mut Option<SlotFacts>,
) -> Vec<Option<u32>> {
    let count = automaton.nodes.len();
    let mut filling = vec![None; count];
    for (c, edges) in component_edges(automaton, region, component) {
        let inside = |node: u32| region[node as usize] && component[node as usize] == Some(c);
        // Candidate maps: the variables a literal write through a key fills.
        let candidates: Vec<(&PlanPlace, u32)> = edges
            .iter()
            .filter_map(|&e| match &plan.ops[e] {
                PlanOp::Assign { lhs, rhs: PlanOperand::Literal(symbol), transfer: PlanTransfer::Slot, .. }
                    if lhs.in_state && !lhs.steps.is_empty() =>
                {
                    Some((lhs, *symbol))
                }
                _ => None,
            })
            .collect();
        for (place, symbol) in candidates {
            let range = written_range(plan, place);
            // Each pass is a recursive call of the generated code (as [`TAIL_LIMIT`] bounds).
            if range.1 - range.0 > TAIL_LIMIT as u32 {
                continue;
            }
            let overlaps = |lhs: &PlanPlace| {
                let (start, end) = written_range(plan, lhs);
                lhs.in_state && start < range.1 && range.0 < end
            };
            // Every write into the map stores `symbol`.
            let only_fills = edges.iter().all(|&e| match &plan.ops[e] {
                PlanOp::Assign { lhs, rhs, transfer, .. } if overlaps(lhs) => {
                    *rhs == PlanOperand::Literal(symbol) && *transfer == PlanTransfer::Slot
                }
                PlanOp::AssignAny { lhs, .. } => !overlaps(lhs),
                _ => true,
            });
            if !only_fills {
                continue;
            }
            let facts =
                facts.get_or_insert_with(|| SlotFacts::refined(automaton, plan, values, automaton.symbols.len()));
            let evaluator =
                Evaluator { plan, words: facts.words(), symbols: automaton.symbols.len(), facts: facts.sets() };
            let fills: Vec<usize> = edges
                .iter()
                .copied()
                .filter(|&e| match &plan.ops[e] {
                    PlanOp::Assign { lhs, .. } if overlaps(lhs) => {
                        guarded_unequal(automaton, plan, &evaluator, e, lhs, symbol, &range)
                    }
                    _ => false,
                })
                .collect();
            if fills.is_empty() || cyclic_without(automaton, &edges, &fills) {
                continue;
            }
            for (node, passes) in filling.iter_mut().enumerate() {
                if inside(node as u32) {
                    *passes = Some(range.1 - range.0);
                }
            }
            break;
        }
    }
    filling
}

/// Whether every path from `begin` into `edge` (a write into `place`, keys read from fixed
/// slots only) passes, after the last write into `range` (the map's variable) or into a key's
/// slot, a guard that cannot hold when the entry `place` holds `symbol`.
fn guarded_unequal(
    automaton: &Automaton,
    plan: &Plan,
    evaluator: &Evaluator,
    edge: usize,
    place: &PlanPlace,
    symbol: u32,
    range: &(u32, u32),
) -> bool {
    let mut keys = Vec::new();
    for step in &place.steps {
        match &step.key {
            PlanOperand::Literal(_) => {}
            PlanOperand::Place(key) => match fixed_slot(key) {
                Some(slot) => keys.push(slot),
                None => return false,
            },
        }
    }
    let kills = |op: &PlanOp| match op {
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => {
            let (start, end) = written_range(plan, lhs);
            (start < range.1 && range.0 < end) || keys.iter().any(|&k| start <= k && k < end)
        }
        _ => false,
    };
    let with_entry = |operand: &PlanOperand| substitute(operand, place, symbol);
    let proves = |op: &PlanOp| match op {
        PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
            let (new_lhs, new_rhs) = (with_entry(lhs), with_entry(rhs));
            (new_lhs != *lhs || new_rhs != *rhs) && {
                let never = &|_: u32| None;
                !evaluator.satisfiable(&evaluator.operand(&new_lhs, never), &evaluator.operand(&new_rhs, never), *equal)
            }
        }
        _ => false,
    };
    let mut incoming = vec![Vec::new(); automaton.nodes.len()];
    for (e, record) in automaton.edges.iter().enumerate() {
        incoming[record.target as usize].push(e);
    }
    let mut seen = vec![false; automaton.nodes.len()];
    let mut stack = vec![automaton.edges[edge].source as usize];
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node], true) {
            continue;
        }
        if node == automaton.begin as usize {
            return false;
        }
        for &e in &incoming[node] {
            let op = &plan.ops[e];
            if proves(op) {
                continue;
            }
            if kills(op) {
                return false;
            }
            stack.push(automaton.edges[e].source as usize);
        }
    }
    true
}

/// `operand` with every read of the state entry `place` replaced by the literal `symbol`.
fn substitute(operand: &PlanOperand, place: &PlanPlace, symbol: u32) -> PlanOperand {
    match operand {
        PlanOperand::Literal(_) => operand.clone(),
        PlanOperand::Place(read) if read == place => PlanOperand::Literal(symbol),
        PlanOperand::Place(read) => {
            let mut read = read.clone();
            for step in &mut read.steps {
                step.key = substitute(&step.key, place, symbol);
            }
            PlanOperand::Place(read)
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    #[test]
    fn a_function_s_cycles_and_tails() {
        // 0 -> 1 -> 2 -> 2 (a fixed point), 3 -> 4 -> 3 (a 2-cycle), 5 -> 0.
        let (cyclic, tail) = cycles_and_tails(&[1, 2, 2, 4, 3, 0]);
        assert_eq!(cyclic, [false, false, true, true, true, false]);
        assert_eq!(tail, 3, "5 -> 0 -> 1 -> 2");
    }

    /// A one-player game checking `? start -> goal`, a ray up a line of three squares (`up[off] =
    /// off`) over `board` (its initial value): step while the square is empty, succeed on a
    /// stone; `extra` edges are added. Shared with the generator's tests of ring loops.
    pub(in crate::codegen) fn ray_automaton(board: &str, extra: &[(&str, &str, &str)]) -> Automaton {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, wall, stone}").typedef("Board", "Sq -> Content");
        builder.typedef("Step", "Sq -> Sq").constant("up", "Step", "{s1: s2, s2: s3, :off}");
        builder.variable("pos", "Sq", "s1").variable("board", "Board", board);
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "done", "? start -> goal");
        builder.edge("done", "end", "player = keeper");
        let walk = [
            ("start", "walk", "pos = up[pos]"),
            ("walk", "free", "board[pos] == empty"),
            ("free", "walk", "pos = up[pos]"),
            ("walk", "goal", "board[pos] == stone"),
        ];
        for (from, to, label) in walk.iter().chain(extra) {
            builder.edge(from, to, label);
        }
        builder.build().expect("the test automaton builds")
    }

    /// The check of [`ray_automaton`]: whether it records visits and whether it is pure.
    fn ray(board: &str, extra: &[(&str, &str, &str)]) -> (bool, bool) {
        let automaton = ray_automaton(board, extra);
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let values = ValueSets::new(&automaton, &plan, automaton.symbols.len());
        let id = |name: &str| automaton.nodes.iter().position(|n| n.name == name).expect("the node exists") as u32;
        let fallible = vec![false; plan.ops.len()];
        let targets =
            super::super::graph::reach_targets(&automaton, &plan, &values, &[(id("start"), id("goal"))], &fallible);
        let target = &targets[&id("goal")];
        (target.visits.iter().any(|&v| v) || target.counted_steps.iter().any(|&v| v), target.pure)
    }

    #[test]
    fn a_ray_closed_off_the_board_needs_no_visited_set() {
        // `board[off]` is always `wall`: the walk stops at the fixed point `off`.
        assert_eq!(ray("{off: wall, :empty}", &[]), (false, true));
        // `board[off]` may be `empty`: at `off` the walk would go round forever.
        assert_eq!(ray("{:empty}", &[]), (true, false));
        // Some edge may write `empty` there (`pos` can be `off`): the same.
        assert_eq!(ray("{off: wall, :empty}", &[("start", "goal", "board[pos] = empty")]), (true, false));
    }

    #[test]
    fn a_cycle_that_writes_anything_but_its_step_keeps_its_visits() {
        // A second table on the same cycle: the values no longer follow one function.
        assert!(ray("{off: wall, :empty}", &[("free", "walk", "pos = s1")]).0);
        // A cycle of guards only, with no step on it.
        assert!(ray("{off: wall, :empty}", &[("free", "walk", "pos != s1")]).0);
    }
}
