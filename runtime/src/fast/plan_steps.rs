//! Reachability plans compiled into one array of steps: the depth-first walk of a plan whose
//! branching nodes try fixed alternatives (no any-assignment), with every frame resolved at
//! construction (chess's `attacked`: eighteen guards, then eight ray walks).
//!
//! `Scratch::walk_plan` pays, per edge, a node look-up, a dispatch on the node's kind, an edge
//! look-up, a dispatch on the instruction and one per operand, and per branching node a frame
//! push, a backtracking loop and a restore test. When no node below the start is an
//! any-assignment, a ray or a straight walk, and no branching node lies on a cycle, the frames a
//! walk can push are known statically: a branching node's alternative `k` fails over to
//! alternative `k + 1`, and its last to whatever the node itself fails over to. So every node is
//! compiled, once per *fail continuation* (the step a failing path goes on at), into steps that
//! each run one operand-resolved instruction (`ProgramOp`) and jump to `pass` or `fail`. A
//! branching node whose alternatives may write slots copies them at its entry (`Save`) and puts
//! them back before an alternative that follows one which may have written them (`Restore`),
//! into a save area of its own (a node is compiled at most once per continuation and lies on no
//! cycle, so two uses of one area never overlap). Nodes on cycles (deterministic, since a
//! branching cyclic node is refused) keep one step per continuation, so a loop is a backward
//! jump.
//!
//! Same edges in the same order on the same states as the walk: the same answer and the same
//! first error (only `ProgramOp::Edge`, a general plan edge such as a nested check, can raise
//! one). A walk that takes more than [`super::reach::CYCLE_STEPS`] steps on cyclic nodes gives up
//! as the walk does, and the general search decides. Cost per step: one dispatch, the operand
//! loads and a jump; per check, one save per branching node entered that has slots to save.

use super::program::Val;
use super::reach::{NodeKind, PlanEdge, PlanNode, PlanOp, ACCEPT};
use crate::automaton::SymbolId;
use std::collections::HashMap;

/// A [`PlanSteps`] target: the walk found nothing (every alternative failed).
pub(crate) const STEPS_FAIL: u32 = ACCEPT - 1;
/// Plans needing more steps than this keep their node walk.
const MAX_STEPS: usize = 2048;
/// Nesting of the compilation (nodes compiled inside others) beyond which a plan keeps its walk.
const MAX_NESTING: u32 = 512;

/// A plan compiled into steps (see the module comment).
#[derive(Debug)]
pub(crate) struct PlanSteps {
    /// The first step (or [`ACCEPT`] / [`STEPS_FAIL`]).
    pub entry: u32,
    pub steps: Box<[PlanStep]>,
    /// The size of the save area the `Save` steps write (after the plan's own copy of its slots).
    pub saved: u32,
    /// The slot lists of the `Save` and `Restore` steps.
    pub slot_lists: Box<[u32]>,
}

/// One step: run `op`, then go on at `pass` (an assignment, or a comparison that holds) or at
/// `fail` (a comparison that fails): a step index, [`ACCEPT`] or [`STEPS_FAIL`].
#[derive(Debug)]
pub(crate) struct PlanStep {
    pub op: ProgramOp,
    pub pass: u32,
    pub fail: u32,
    /// The step belongs to a node on a cycle: it counts against the walk's step bound.
    pub cyclic: bool,
}

/// A step's instruction with its operands resolved (the map's base folded into `offsets`).
#[derive(Debug)]
pub(crate) enum ProgramOp {
    /// `values[slot] = values[from]`.
    SetSlot { slot: u32, from: u32 },
    /// `values[slot] = table[values[key]]`.
    SetLookup { slot: u32, key: u32, table: Box<[u32]> },
    /// `values[slot] = table[values[first] * width + values[second]]`.
    SetLookup2 { slot: u32, first: u32, second: u32, width: u32, table: Box<[u32]> },
    /// `values[slot] = values[offsets[values[key]]]` (`target = kingAt[me]`).
    SetIndexed { slot: u32, key: u32, offsets: Box<[u32]> },
    /// `values[offsets[values[key]]] == lit` (or `!=`).
    IndexedLit { key: u32, offsets: Box<[u32]>, lit: SymbolId, equal: bool },
    /// `values[offsets[values[key]]] == values[slot]` (or `!=`).
    IndexedSlot { key: u32, offsets: Box<[u32]>, slot: u32, equal: bool },
    /// `values[offsets[values[key]]] == table[values[rhs_key]]` (or `!=`): chess's
    /// `board[leap[nne][target]] == make_opp[me][knight]`.
    IndexedLookup { key: u32, offsets: Box<[u32]>, rhs_key: u32, table: Box<[u32]>, equal: bool },
    /// `values[offsets[values[first] * width + values[second]]] == lit` (or `!=`).
    Indexed2Lit { first: u32, second: u32, width: u32, offsets: Box<[u32]>, lit: SymbolId, equal: bool },
    /// `values[offsets[values[first] * width + values[second]]] == table[values[rhs_key]]`
    /// (or `!=`): chess's `board[pawnCapture[me][left][target]] == make_opp[me][pawn]`.
    Indexed2Lookup {
        first: u32,
        second: u32,
        width: u32,
        offsets: Box<[u32]>,
        rhs_key: u32,
        table: Box<[u32]>,
        equal: bool,
    },
    /// Plan edge `.0` run as the walk runs it (any other shape, a nested check, a cyclic skip).
    Edge(u32),
    /// Copies the slots `slot_lists[first..end]` to the save area from `at` on.
    Save { at: u32, first: u32, end: u32 },
    /// Puts back what the matching `Save` copied.
    Restore { at: u32, first: u32, end: u32 },
}

/// `offsets` with `base` added to each entry (`None` on overflow).
fn based(base: u32, offsets: &[u32]) -> Option<Box<[u32]>> {
    offsets.iter().map(|&o| base.checked_add(o)).collect()
}

impl ProgramOp {
    /// The operand-resolved form of plan edge `index`, or [`ProgramOp::Edge`].
    fn of(edge: &PlanEdge, index: u32) -> ProgramOp {
        let resolved = match &edge.op {
            PlanOp::Set { slot, value } => match value {
                Val::Slot(from) => Some(ProgramOp::SetSlot { slot: *slot, from: *from }),
                Val::Lookup { key, table } => {
                    Some(ProgramOp::SetLookup { slot: *slot, key: *key, table: table.clone() })
                }
                Val::Lookup2Slots { first, second, width, table } => Some(ProgramOp::SetLookup2 {
                    slot: *slot,
                    first: *first,
                    second: *second,
                    width: *width,
                    table: table.clone(),
                }),
                Val::Indexed { base, key, offsets } => {
                    based(*base, offsets).map(|offsets| ProgramOp::SetIndexed { slot: *slot, key: *key, offsets })
                }
                _ => None,
            },
            PlanOp::CompareIndexedLit { base, key, offsets, lit, equal } => based(*base, offsets)
                .map(|offsets| ProgramOp::IndexedLit { key: *key, offsets, lit: *lit, equal: *equal }),
            PlanOp::CompareIndexedSlot { base, key, offsets, slot, equal } => based(*base, offsets)
                .map(|offsets| ProgramOp::IndexedSlot { key: *key, offsets, slot: *slot, equal: *equal }),
            PlanOp::CompareIndexedLookup { base, key, offsets, rhs_key, table, equal } => {
                based(*base, offsets).map(|offsets| ProgramOp::IndexedLookup {
                    key: *key,
                    offsets,
                    rhs_key: *rhs_key,
                    table: table.clone(),
                    equal: *equal,
                })
            }
            PlanOp::CompareIndexed2 { base, first, second, width, offsets, rhs, equal } => based(*base, offsets)
                .and_then(|offsets| match rhs {
                    Val::Lit(lit) => Some(ProgramOp::Indexed2Lit {
                        first: *first,
                        second: *second,
                        width: *width,
                        offsets,
                        lit: *lit,
                        equal: *equal,
                    }),
                    Val::Lookup { key, table } => Some(ProgramOp::Indexed2Lookup {
                        first: *first,
                        second: *second,
                        width: *width,
                        offsets,
                        rhs_key: *key,
                        table: table.clone(),
                        equal: *equal,
                    }),
                    _ => None,
                }),
            _ => None,
        };
        resolved.unwrap_or(ProgramOp::Edge(index))
    }
}

/// The steps of a plan (nodes, edges, per node the mask of plan slots some path below it may
/// write, and the branching nodes' restore lists), or `None` when some node reachable from the
/// start cannot be compiled (see the module comment) or the program grows too large.
pub(crate) fn plan_steps(nodes: &[PlanNode], edges: &[PlanEdge], below: &[u32], restore: &[u32]) -> Option<PlanSteps> {
    let mut builder = Builder {
        nodes,
        edges,
        below,
        restore,
        steps: Vec::new(),
        memo: HashMap::new(),
        saved: 0,
        slot_lists: Vec::new(),
        nesting: 0,
    };
    let entry = builder.node(0, STEPS_FAIL)?;
    Some(PlanSteps { entry, steps: builder.steps.into(), saved: builder.saved, slot_lists: builder.slot_lists.into() })
}

struct Builder<'p> {
    nodes: &'p [PlanNode],
    edges: &'p [PlanEdge],
    below: &'p [u32],
    restore: &'p [u32],
    steps: Vec<PlanStep>,
    /// (plan node, fail continuation) -> its first step.
    memo: HashMap<(u32, u32), u32>,
    saved: u32,
    slot_lists: Vec<u32>,
    nesting: u32,
}

impl Builder<'_> {
    /// The first step of node `node` when its failing paths go on at `fail`.
    fn node(&mut self, node: u32, fail: u32) -> Option<u32> {
        if node == ACCEPT {
            return Some(ACCEPT);
        }
        if let Some(&step) = self.memo.get(&(node, fail)) {
            return Some(step);
        }
        if self.steps.len() > MAX_STEPS || self.nesting > MAX_NESTING {
            return None;
        }
        self.nesting += 1;
        let step = self.compile(node, fail);
        self.nesting -= 1;
        let step = step?;
        self.memo.insert((node, fail), step);
        Some(step)
    }

    /// A new step running plan edge `edge`'s instruction, its jumps filled in later.
    fn reserve(&mut self, edge: u32, cyclic: bool) -> u32 {
        let index = self.steps.len() as u32;
        let op = ProgramOp::of(&self.edges[edge as usize], edge);
        self.steps.push(PlanStep { op, pass: STEPS_FAIL, fail: STEPS_FAIL, cyclic });
        index
    }

    fn compile(&mut self, node: u32, fail: u32) -> Option<u32> {
        let current = self.nodes[node as usize];
        let (first, end) = (current.first, current.end);
        match current.kind {
            NodeKind::Dead => Some(fail),
            NodeKind::Chain => {
                let edge = &self.edges[first as usize];
                match edge.op {
                    PlanOp::SetAny { .. } => None,
                    // A skip is only a jump, except on a cycle, where it may be the only node.
                    PlanOp::Skip if !current.cyclic => self.node(edge.target, fail),
                    _ => {
                        let target = edge.target;
                        let at = self.reserve(first, current.cyclic);
                        // Registered before the nodes below, so a cycle back here closes on it.
                        self.memo.insert((node, fail), at);
                        let pass = self.node(target, fail)?;
                        let step = &mut self.steps[at as usize];
                        (step.pass, step.fail) = (pass, fail);
                        Some(at)
                    }
                }
            }
            NodeKind::Complement => {
                let (holds, fails) = (self.edges[first as usize].target, self.edges[first as usize + 1].target);
                let at = self.reserve(first, current.cyclic);
                self.memo.insert((node, fail), at);
                let pass = self.node(holds, fail)?;
                let other = self.node(fails, fail)?;
                let step = &mut self.steps[at as usize];
                (step.pass, step.fail) = (pass, other);
                Some(at)
            }
            NodeKind::Select => {
                // The walk memoises a `? a -> b` / `! a -> b` pair between the guards: not here.
                if !self.edges[first as usize..end as usize].iter().all(|e| e.op.is_comparison()) {
                    return None;
                }
                let at = self.steps.len() as u32;
                for edge in first..end {
                    self.reserve(edge, current.cyclic && edge == first);
                }
                self.memo.insert((node, fail), at);
                for (i, edge) in (first..end).enumerate() {
                    let pass = self.node(self.edges[edge as usize].target, fail)?;
                    let next = if edge + 1 < end { at + i as u32 + 1 } else { fail };
                    let step = &mut self.steps[at as usize + i];
                    (step.pass, step.fail) = (pass, next);
                }
                Some(at)
            }
            NodeKind::Branch if !current.cyclic => self.branch(current, fail),
            NodeKind::Branch | NodeKind::Straight | NodeKind::Ray => None,
        }
    }

    /// A non-cyclic branching node: its alternatives in order, each failing over to the next
    /// (after putting back the slots the previous one may have written), the last to `fail`.
    fn branch(&mut self, current: PlanNode, fail: u32) -> Option<u32> {
        let (first, end) = (current.first, current.end);
        let slots = (current.restore.0, current.restore.1);
        let save = (slots.0 != slots.1).then(|| {
            let at = self.saved;
            self.saved += slots.1 - slots.0;
            let start = self.slot_lists.len() as u32;
            self.slot_lists.extend_from_slice(&self.restore[slots.0 as usize..slots.1 as usize]);
            (at, start, self.slot_lists.len() as u32)
        });
        let writes = |builder: &Self, edge: u32| {
            let edge = &builder.edges[edge as usize];
            let own = matches!(edge.op, PlanOp::Set { .. });
            own || (edge.target != ACCEPT && builder.below[edge.target as usize] != 0)
        };
        let mut next = fail;
        for edge in (first..end).rev() {
            let mut entry = self.alternative(edge, next)?;
            if let Some((at, start, stop)) = save.filter(|_| edge > first && writes(self, edge - 1)) {
                entry = self.push(ProgramOp::Restore { at, first: start, end: stop }, entry);
            }
            next = entry;
        }
        if let Some((at, start, stop)) = save {
            next = self.push(ProgramOp::Save { at, first: start, end: stop }, next);
        }
        Some(next)
    }

    /// Alternative `edge` of a branching node, failing over to `fail`.
    fn alternative(&mut self, edge: u32, fail: u32) -> Option<u32> {
        let target = self.edges[edge as usize].target;
        match self.edges[edge as usize].op {
            PlanOp::SetAny { .. } => None,
            PlanOp::Skip => self.node(target, fail),
            _ => {
                let pass = self.node(target, fail)?;
                let at = self.reserve(edge, false);
                let step = &mut self.steps[at as usize];
                (step.pass, step.fail) = (pass, fail);
                Some(at)
            }
        }
    }

    /// A step running `op` that always goes on at `pass`.
    fn push(&mut self, op: ProgramOp, pass: u32) -> u32 {
        self.steps.push(PlanStep { op, pass, fail: pass, cyclic: false });
        self.steps.len() as u32 - 1
    }
}
