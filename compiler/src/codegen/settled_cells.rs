//! Settled start cells: the board cell a mask check's start slot names, proved from the
//! automaton to hold the compared value wherever the check is called (spec/codegen.md, "Mask
//! checks").
//!
//! The shape: every path into every `? from -> to` edge passes an assignment
//! `board[start] = compared` (the compared literal, or the compared slot itself), and no edge after
//! it on that path writes the start slot, the compared slot or any cell of the board. Then, at
//! every call, the cell `board[start]` equals the compared value, so the check's exploration may
//! take its "equals" literals as true and its "differs" literals as false (connect four: the disc
//! just dropped on `last` is the mover's). The proof walks the edges backwards from each call;
//! it fails (no settled cell) where a walk reaches a node without incoming edges, a node of the
//! check's own region, or a write of those slots, and where `from` itself has incoming edges (its
//! function would then be called from inside the automaton, not only by the check).
//! Cost: one backward walk per call edge, each node once, at generation time only.

use super::mask_checks::Compared;
use regula_runtime::automaton::{Automaton, Label};
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanStep, PlanTransfer};

/// Per start symbol, the board offset of the settled cell (`None`: a key outside the board's
/// domain, no settled cell), when the check `? from -> to` has the module doc's shape.
pub(crate) fn settled_start_cells(
    automaton: &Automaton,
    plan: &Plan,
    board: (u32, u32),
    start: u32,
    compared: Compared,
    (from, to): (u32, u32),
    region: &[bool],
) -> Option<Vec<Option<u32>>> {
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); automaton.nodes.len()];
    for (index, edge) in automaton.edges.iter().enumerate() {
        incoming[edge.target as usize].push(index);
    }
    if !incoming[from as usize].is_empty() {
        return None;
    }
    let compared_slot = match compared {
        Compared::Slot(slot) => Some(slot),
        Compared::Literal(_) => None,
    };
    let spoils = |op: &PlanOp| match op {
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => {
            let (first, end) = super::graph::written_range(plan, lhs);
            let writes = |slot: u32| (first..end).contains(&slot);
            writes(start) || compared_slot.is_some_and(writes) || (first < board.1 && board.0 < end)
        }
        _ => false,
    };
    let mut settling: Option<&PlanStep> = None;
    let mut seen = vec![false; automaton.nodes.len()];
    let mut stack: Vec<u32> = automaton
        .edges
        .iter()
        .filter(|e| matches!(e.label, Label::Reach { from: f, to: t, .. } if f == from && t == to))
        .map(|e| e.source)
        .collect();
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node as usize], true) {
            continue;
        }
        if region[node as usize] || incoming[node as usize].is_empty() {
            return None;
        }
        for &edge in &incoming[node as usize] {
            let op = &plan.ops[edge];
            if let Some(step) = settles(op, board, start, compared) {
                match settling {
                    Some(known) if known.offsets != step.offsets => return None,
                    _ => settling = Some(step),
                }
                continue;
            }
            if spoils(op) {
                return None;
            }
            stack.push(automaton.edges[edge].source);
        }
    }
    let step = settling?;
    let symbols = automaton.symbols.len();
    Some(
        (0..symbols)
            .map(|symbol| {
                let offset = *step.offsets.get(symbol)?;
                // A write through the default block is an error, never a store.
                (offset != step.default_offset && offset < board.1 - board.0).then_some(offset)
            })
            .collect(),
    )
}

/// The key step of `op` when it is `board[start] = compared` on the board's first slot.
fn settles(op: &PlanOp, board: (u32, u32), start: u32, compared: Compared) -> Option<&PlanStep> {
    let PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } = op else { return None };
    if !lhs.in_state || lhs.base != board.0 {
        return None;
    }
    let [step] = lhs.steps.as_slice() else { return None };
    let plain_slot = |operand: &PlanOperand, slot: u32| matches!(operand, PlanOperand::Place(PlanPlace { in_state: true, base, steps }) if *base == slot && steps.is_empty());
    if !plain_slot(&step.key, start) {
        return None;
    }
    let value_matches = match (compared, rhs) {
        (Compared::Literal(symbol), PlanOperand::Literal(value)) => symbol == *value,
        (Compared::Slot(slot), rhs) => plain_slot(rhs, slot),
        _ => false,
    };
    value_matches.then_some(step)
}
