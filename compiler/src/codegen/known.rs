//! Generation-time slot values: which edges read or overwrite a variable's slot, and where a
//! value fixed by an unrolled `x = T(*)` loop is still read (so specialised copies of the
//! functions below it fold the reads into literals and fixed slot indices).
//!
//! A function specialised for `(slot, symbol)` is only correct while the state really holds
//! `symbol` in `slot`: the context is dropped at every edge that may write the slot (a write
//! into any slot of the variable holding it), and is not passed into nested reachability
//! checks (they read the state itself). Cost: one backward fixed point per (search, slot).

use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace};

/// Whether reading `operand` reads the plain variable at `slot` (as the value or any key).
pub(crate) fn operand_reads(operand: &PlanOperand, slot: u32) -> bool {
    match operand {
        PlanOperand::Literal(_) => false,
        PlanOperand::Place(place) => place_reads(place, slot),
    }
}

fn place_reads(place: &PlanPlace, slot: u32) -> bool {
    (place.in_state && place.steps.is_empty() && place.base == slot) || keys_read(place, slot)
}

fn keys_read(place: &PlanPlace, slot: u32) -> bool {
    place.steps.iter().any(|step| operand_reads(&step.key, slot))
}

/// Whether `operand` reads the plain variable at `slot` as a key (a read a known value folds).
fn operand_keys_read(operand: &PlanOperand, slot: u32) -> bool {
    match operand {
        PlanOperand::Literal(_) => false,
        PlanOperand::Place(place) => keys_read(place, slot),
    }
}

/// Whether an edge's label reads the plain variable at `slot` in a way a known value folds
/// (nested checks aside): as a key, or as a side of a comparison. A plain copy (`y = x`) or a
/// plain tag (`$ x`) saves nothing when specialised, so it does not count: unrolling a loop
/// whose member is only pushed as a tag copies the code below it for nothing (pentago's
/// quadrant and spin loops: +27 % instructions when they were counted).
pub(crate) fn op_reads(op: &PlanOp, slot: u32) -> bool {
    match op {
        PlanOp::Assign { lhs, rhs, .. } => keys_read(lhs, slot) || operand_keys_read(rhs, slot),
        PlanOp::AssignAny { lhs, .. } => keys_read(lhs, slot),
        PlanOp::Compare { lhs, rhs, .. } => operand_reads(lhs, slot) || operand_reads(rhs, slot),
        PlanOp::TagExpr(operand) => operand_keys_read(operand, slot),
        PlanOp::Skip | PlanOp::Reach { .. } | PlanOp::Tag(_) => false,
    }
}

/// Whether an edge's label may write `slot`: any write into the variable holding it.
pub(crate) fn op_writes(plan: &Plan, op: &PlanOp, slot: u32) -> bool {
    match op {
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => {
            let (start, end) = super::graph::written_range(plan, lhs);
            (start..end).contains(&slot)
        }
        _ => false,
    }
}

/// One edge as a search walks it: its label, its target, and whether the search stops there
/// (a completion, or the target of a reachability check).
pub(crate) struct Step<'o> {
    pub op: &'o PlanOp,
    pub target: u32,
    pub stops: bool,
}

/// `live[n]`: from node `n`, some path of the search reads `slot` before any edge may write it.
pub(crate) fn live_reads(plan: &Plan, walked: &[Vec<Step>], slot: u32) -> Vec<bool> {
    let mut live = vec![false; walked.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for node in 0..walked.len() {
            if live[node] {
                continue;
            }
            let reads = walked[node].iter().any(|step| {
                op_reads(step.op, slot)
                    || (!step.stops && !op_writes(plan, step.op, slot) && live[step.target as usize])
            });
            if reads {
                live[node] = true;
                changed = true;
            }
        }
    }
    live
}

/// The nodes a value of `slot` fixed on entering `start` reaches while it is still read: how
/// many functions each unrolled member specialises, and their out-edges.
pub(crate) fn scope(plan: &Plan, walked: &[Vec<Step>], live: &[bool], slot: u32, start: u32) -> (usize, usize) {
    let mut seen = vec![false; walked.len()];
    let mut stack = Vec::new();
    if live[start as usize] {
        seen[start as usize] = true;
        stack.push(start);
    }
    let (mut nodes, mut edges) = (0, 0);
    while let Some(node) = stack.pop() {
        nodes += 1;
        edges += walked[node as usize].len();
        for step in &walked[node as usize] {
            let target = step.target as usize;
            if !step.stops && !op_writes(plan, step.op, slot) && live[target] && !seen[target] {
                seen[target] = true;
                stack.push(step.target);
            }
        }
    }
    (nodes, edges)
}
