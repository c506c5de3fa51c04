//! Reachability plans compiled into one array of steps: the depth-first walk of a plan whose
//! branching nodes try fixed alternatives or the members of one any-assignment, with every frame
//! resolved at construction (chess's `attacked`: eighteen guards, then eight ray walks; reversi's
//! `canPlace`: a cell, a direction, the run of enemy discs).
//!
//! `Scratch::walk_plan` pays, per edge, a node look-up, a dispatch on the node's kind, an edge
//! look-up, a dispatch on the instruction and one per operand, and per branching node a frame
//! push, a backtracking loop and a restore test. When no node below the start is a ray or a
//! straight walk, and no branching node lies on a cycle, the frames a
//! walk can push are known statically: a branching node's alternative `k` fails over to
//! alternative `k + 1`, and its last to whatever the node itself fails over to. So every node is
//! compiled, once per *fail continuation* (the step a failing path goes on at), into steps that
//! each run one operand-resolved instruction (`ProgramOp`) and jump to `pass` or `fail`. A
//! branching node whose alternatives may write slots copies them at its entry (`Save`) and puts
//! them back before an alternative that follows one which may have written them (`Restore`),
//! into a save area of its own (a node is compiled at most once per continuation and lies on no
//! cycle, so two uses of one area never overlap). A node whose only edge is an any-assignment is
//! a [`MemberLoop`]: its members in order, each after the node's restore list is put back, the
//! first passing the filter chain taken; a resumed copy of the loop is the fail continuation of
//! everything below it and goes on from the next member. Nodes on cycles (deterministic, since a
//! branching cyclic node is refused) keep one step per continuation, so a loop is a backward
//! jump.
//!
//! Same edges in the same order on the same states as the walk: the same answer and the same
//! first error (only `ProgramOp::Edge`, a general plan edge such as a nested check, can raise
//! one). A walk that takes more than [`super::reach::CYCLE_STEPS`] steps on cyclic nodes gives up
//! as the walk does, and the general search decides. Cost per step: one dispatch, the operand
//! loads and a jump; per check, one save per branching node entered that has slots to save.
//!
//! A program that is one straight chain over a single cursor slot, run once or per member of a
//! leading member loop (reversi's flank checks), also gets a [`CursorChain`]: the same steps run
//! with the member and the cursor in registers, nothing written to the state, no save area and
//! no dispatch for the first step and comparison, which most members end at. `run_plan` runs it
//! instead of the steps, before saving any plan slot.

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
    /// The whole program as one cursor chain, when it has that shape (see [`CursorChain`]).
    pub cursor: Option<CursorChain>,
    /// The whole program as a fan of probes and rays, when it has that shape (see [`ProbeFan`]).
    pub fan: Option<Box<ProbeFan>>,
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
#[derive(Clone, Debug)]
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
    /// `values[slot] == lit` (or `!=`).
    SlotLit { slot: u32, lit: SymbolId, equal: bool },
    /// `table[values[key]] == lit` (or `!=`): draughts's `owns[me][piece] == 1`.
    LookupLit { key: u32, table: Box<[u32]>, lit: SymbolId, equal: bool },
    /// Plan edge `.0` run as the walk runs it (any other shape, a nested check, a cyclic skip).
    Edge(u32),
    /// Copies the slots `slot_lists[first..end]` to the save area from `at` on.
    Save { at: u32, first: u32, end: u32 },
    /// Puts back what the matching `Save` copied.
    Restore { at: u32, first: u32, end: u32 },
    /// A branching node whose only edge is an any-assignment (see [`MemberLoop`]).
    Member(Box<MemberLoop>),
    /// A two-node loop, a test and a step back to it (see [`PlanWalk`]).
    Walk(Box<PlanWalk>),
}

/// A loop of two cyclic nodes, a complement testing the map at one slot (`board[cursor] !=
/// empty`) whose one edge leaves and whose other leads to a step of that slot back to the test
/// (`cursor = step[dir][cursor]`): chess's ray walks in `attacked`, reversi's run of enemy discs.
/// Run as one step entered at the test: test, step, test, ... until the test leaves, counting
/// both nodes of every round against the walk's step bound as their own steps would. The loop
/// writes only `slot`, which neither the right-hand side nor the map reads, so the right-hand
/// side is read once. One dispatch per walk instead of two per round, and no jumps.
#[derive(Clone, Debug)]
pub(crate) struct PlanWalk {
    pub slot: u32,
    pub step: WalkStep,
    pub test: MemberTest,
    /// The test's outcome that goes round again.
    pub again: bool,
}

/// The step of a [`PlanWalk`]: `values[slot] = table[values[key]]` or `table[values[first] *
/// width + values[second]]`.
#[derive(Clone, Debug)]
pub(crate) enum WalkStep {
    Lookup { key: u32, table: Box<[u32]> },
    Lookup2 { first: u32, second: u32, width: u32, table: Box<[u32]> },
}

impl PlanWalk {
    /// Runs the loop from its test until the test leaves (true) or the step bound
    /// `cycle_steps` runs out (false: the walk gives up).
    #[inline(always)]
    pub(crate) fn run(&self, values: &mut [SymbolId], cycle_steps: &mut u32) -> bool {
        // A step keyed by the walked slot alone (chess's `cursor = north[cursor]`) keeps the
        // position in a register: one copy of the loop for it, the step's shape tested once per
        // walk, not per round. Reversi's `cursor = step[dir][cursor]` walks (a round or two each)
        // ran 0.6 % more instructions per playout that way, reading the row once per walk.
        match &self.step {
            WalkStep::Lookup { key, table } if *key == self.slot => {
                self.run_with(values, cycle_steps, |at| table[at as usize])
            }
            _ => self.run_general(values, cycle_steps),
        }
    }

    /// [`PlanWalk::run`] with the step `next` of the position; `values[slot]` is written when
    /// the loop ends (neither the test nor `next` reads it).
    #[inline(always)]
    fn run_with(&self, values: &mut [SymbolId], cycle_steps: &mut u32, next: impl Fn(SymbolId) -> SymbolId) -> bool {
        let rhs = self.test.rhs.read(values);
        let slot = self.slot as usize;
        let mut at = values[slot];
        let mut budget = *cycle_steps;
        let left = loop {
            budget -= 1;
            if budget == 0 {
                break false;
            }
            if self.test.holds(values, at, rhs) != self.again {
                break true;
            }
            budget -= 1;
            if budget == 0 {
                break false;
            }
            at = next(at);
        };
        values[slot] = at;
        *cycle_steps = budget;
        left
    }

    /// [`PlanWalk::run`] for any other step, through the state.
    #[inline(always)]
    fn run_general(&self, values: &mut [SymbolId], cycle_steps: &mut u32) -> bool {
        let rhs = self.test.rhs.read(values);
        let slot = self.slot as usize;
        loop {
            *cycle_steps -= 1;
            if *cycle_steps == 0 {
                return false;
            }
            if self.test.holds(values, values[slot], rhs) != self.again {
                return true;
            }
            *cycle_steps -= 1;
            if *cycle_steps == 0 {
                return false;
            }
            values[slot] = match &self.step {
                WalkStep::Lookup { key, table } => table[values[*key as usize] as usize],
                WalkStep::Lookup2 { first, second, width, table } => {
                    table[(values[*first as usize] * *width + values[*second as usize]) as usize]
                }
            };
        }
    }
}

/// A program that is one straight chain of steps over a single *cursor* slot, run once or once
/// per member of a leading member loop: reversi's `legalAt`, `dir = Dir(*); cursor =
/// step[dir][cell]; board[cursor] == other; cursor = step[dir][cursor]`, a walk over the enemy
/// discs, `board[cursor] == me`, and its `flanksAlongDir`, the same without the member loop.
///
/// Every step writes the cursor alone (the member loop the member), and the first step writes
/// it before any reads it, so what a member sees does not depend on what earlier members wrote:
/// nothing is saved, put back or counted in the save area. The member and the cursor live in
/// registers and are never written to the state; the operands that are neither (`cell`, the
/// maps, the right-hand sides) are slots no step writes, read from the state. The caller puts
/// every plan slot back after a check, so the state after a check is the same as the steps
/// leave it. A comparison failing goes on with the next member (or fails the check), the last
/// step passing accepts: the steps' answer, with the same step bound (each step of a cyclic node
/// and each round of a walk count as there). Cost per member: the steps' loads and compares and
/// one dispatch per step; per check, no set-up at all (the steps' entry, save area and member
/// counter cost reversi about 200 instructions a check).
#[derive(Debug)]
pub(crate) struct CursorChain {
    /// The leading member loop's members (`None`: the chain runs once).
    pub members: Option<Box<[SymbolId]>>,
    /// The first step, `cursor = table[first * width + second]` (neither operand the cursor),
    /// and the comparison after it, run per member without dispatch: most members end here.
    pub head: (Operand, Operand, u32, Box<[u32]>),
    pub head_test: MemberTest,
    /// The steps after the head's comparison.
    pub ops: Box<[CursorOp]>,
    /// The head resolved per value of its fixed operand, when the other is the member (see
    /// [`HeadRows`]).
    pub rows: Option<HeadRows>,
    /// The member loop the chain runs in, if any (see [`OuterLoop`]).
    pub outer: Option<Box<OuterLoop>>,
    /// The slots of the member and the cursor (never written by the chain).
    pub member_slot: Option<u32>,
    pub cursor_slot: u32,
}

/// A [`CursorChain`]'s head over the members worked out at construction for every value of
/// the head's one fixed operand (reversi's `cursor = step[dir][cell]`: per `cell`, the eight
/// neighbours): row `v` holds, per member, the member, the cursor the head step gives and the
/// absolute cell its comparison reads (`head_test.offsets[cursor]`). A member then costs a
/// load of its row entry, one of the cell and a comparison, where the head paid the key's
/// multiply, the table read and the offset read. Same entries as the head reads (each computed
/// with the head's own wrapping key), so the same cursors, cells and answers; a value with no
/// row (none is built past the table) runs the head as before.
#[derive(Debug)]
pub(crate) struct HeadRows {
    /// The fixed operand: a slot, or the outer member.
    pub key: Operand,
    /// `rows[v * members + i]`: member `i`'s (member, cursor, cell) for the value `v`.
    pub rows: Box<[[u32; 3]]>,
}

/// At most this many row entries are built (one per member and value of the fixed operand).
const MAX_HEAD_ROWS: usize = 1 << 16;

/// Where a [`CursorChain`] step reads a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// The member being tried.
    Member,
    /// The cursor.
    Cursor,
    /// A slot no step writes.
    Fixed(u32),
    /// The member of the enclosing loop being tried (see [`OuterLoop`]).
    Outer,
}

impl Operand {
    #[inline(always)]
    fn get(self, values: &[SymbolId], member: SymbolId, cursor: SymbolId, outer: SymbolId) -> SymbolId {
        match self {
            Operand::Member => member,
            Operand::Cursor => cursor,
            Operand::Fixed(slot) => values[slot as usize],
            Operand::Outer => outer,
        }
    }
}

/// A member loop enclosing a [`CursorChain`] whose filter reads the map at the member itself
/// (reversi's `canPlace`: `probe = Spot(*); board[probe] == empty`, then the direction loop and
/// the flank chain from `probe`). Per member passing the filter the chain runs with the member
/// as [`Operand::Outer`], in a register: nothing is written to the state, as in the chain.
///
/// Exact for the same reasons as the chain, one level up: the steps write the outer slot, then
/// run the chain (which writes only its own member and cursor slots), and on running out of
/// inner members go on at the resumed outer loop, which puts the slots written below back before
/// the next member's filter; so every member's filter and chain see the state the check started
/// from with the outer slot set to the member, which is what the registers give. The filter's
/// map holds neither the outer slot nor a slot the chain writes, and no right-hand side reads
/// them (checked at construction); one step bound counts across every member, as the steps'.
#[derive(Debug)]
pub(crate) struct OuterLoop {
    pub members: Box<[SymbolId]>,
    pub test: MemberTest,
}

/// A step of a [`CursorChain`]: `cyclic` as [`PlanStep::cyclic`].
#[derive(Debug)]
pub(crate) enum CursorOp {
    /// `cursor = table[first * width + second]` (`width` 0: `table[second]`).
    Step { first: Operand, second: Operand, width: u32, table: Box<[u32]>, cyclic: bool },
    /// The map at the cursor compared; failing ends the member.
    Test { test: MemberTest, cyclic: bool },
    /// A [`PlanWalk`] of the cursor: test, step, test, ... until the test leaves.
    Walk { first: Operand, second: Operand, width: u32, table: Box<[u32]>, test: MemberTest, again: bool },
    /// `Step` keyed by the member and then the cursor (`cursor = step[dir][cursor]`), the
    /// operands known at construction: no dispatch on them per step.
    StepAlong { width: u32, table: Box<[u32]>, cyclic: bool },
    /// `Walk` whose step is keyed by the member and then the cursor.
    WalkAlong { width: u32, table: Box<[u32]>, test: MemberTest, again: bool },
}

impl CursorChain {
    /// The answer of the check (`None`: the step bound ran out, the general search decides).
    pub(crate) fn run(&self, values: &[SymbolId]) -> Option<bool> {
        let mut budget = super::reach::CYCLE_STEPS;
        match &self.outer {
            None => self.run_with(values, 0, &mut budget),
            Some(outer) => self.run_outer(values, outer, &mut budget),
        }
    }

    /// [`CursorChain::run`] in its [`OuterLoop`]: the chain per member passing the filter.
    fn run_outer(&self, values: &[SymbolId], outer: &OuterLoop, budget: &mut u32) -> Option<bool> {
        let rhs = outer.test.rhs.read(values);
        for &member in outer.members.iter() {
            if outer.test.holds(values, member, rhs) && self.run_with(values, member, budget)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The chain with `outer` as the outer member (unused without an [`OuterLoop`]).
    #[inline(always)]
    fn run_with(&self, values: &[SymbolId], outer: SymbolId, budget: &mut u32) -> Option<bool> {
        // The head's key as `member * scale + offset` (the operands not the member read once):
        // wrapping, as the steps' `first * width + second` wraps, so the same entry is read.
        let (first, second, width, table) = &self.head;
        let part = |operand: Operand, scale: u32| match operand {
            Operand::Fixed(slot) => (0, values[slot as usize].wrapping_mul(scale)),
            Operand::Outer => (0, outer.wrapping_mul(scale)),
            _ => (scale, 0),
        };
        let ((a, b), (c, d)) = (part(*first, *width), part(*second, 1));
        let (scale, offset) = (a.wrapping_add(c), b.wrapping_add(d));
        let test = &self.head_test;
        let rhs = test.rhs.read(values);
        let Some(members) = &self.members else {
            let cursor = table[offset as usize];
            return if test.holds(values, cursor, rhs) {
                self.pass(values, 0, cursor, outer, budget)
            } else {
                Some(false)
            };
        };
        if let Some(rows) = &self.rows {
            let count = members.len();
            let at = rows.key.get(values, 0, 0, outer) as usize * count;
            if let Some(row) = rows.rows.get(at..at + count) {
                for &[member, cursor, cell] in row {
                    if (values[cell as usize] == rhs) == test.equal
                        && self.pass(values, member, cursor, outer, budget)?
                    {
                        return Some(true);
                    }
                }
                return Some(false);
            }
        }
        for &member in members.iter() {
            let cursor = table[member.wrapping_mul(scale).wrapping_add(offset) as usize];
            if test.holds(values, cursor, rhs) && self.pass(values, member, cursor, outer, budget)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The [`HeadRows`] of a chain with members whose head has one fixed operand and the member
    /// as the other, if every entry lies inside the head's tables.
    fn rows_of(
        members: &[SymbolId],
        head: &(Operand, Operand, u32, Box<[u32]>),
        test: &MemberTest,
    ) -> Option<HeadRows> {
        let (first, second, width, table) = head;
        let fixed = |operand: Operand| matches!(operand, Operand::Fixed(_) | Operand::Outer);
        let (key, fixed_first) = match (*first, *second) {
            (key, Operand::Member) if fixed(key) => (key, true),
            (Operand::Member, key) if fixed(key) => (key, false),
            _ => return None,
        };
        // The values of the fixed operand with every key inside the table (the head's key is
        // `first * width + second`; a larger value has no row and runs the head).
        let width = *width as usize;
        let values = if fixed_first { table.len() / width.max(1) } else { width };
        if values * members.len() > MAX_HEAD_ROWS {
            return None;
        }
        let mut rows = Vec::with_capacity(values * members.len());
        for value in 0..values as u32 {
            for &member in members {
                let key = match fixed_first {
                    true => value.wrapping_mul(width as u32).wrapping_add(member),
                    false => member.wrapping_mul(width as u32).wrapping_add(value),
                };
                let cursor = *table.get(key as usize)?;
                let cell = *test.offsets.get(cursor as usize)?;
                rows.push([member, cursor, cell]);
            }
        }
        Some(HeadRows { key, rows: rows.into() })
    }

    /// The rest of the chain with `member`, from `cursor`: whether every comparison held.
    #[inline(always)]
    fn pass(
        &self,
        values: &[SymbolId],
        member: SymbolId,
        mut cursor: SymbolId,
        outer: SymbolId,
        budget: &mut u32,
    ) -> Option<bool> {
        for op in self.ops.iter() {
            match op {
                CursorOp::Step { first, second, width, table, cyclic } => {
                    if *cyclic {
                        *budget -= 1;
                        if *budget == 0 {
                            return None;
                        }
                    }
                    let key =
                        first.get(values, member, cursor, outer) * *width + second.get(values, member, cursor, outer);
                    cursor = table[key as usize];
                }
                CursorOp::Test { test, cyclic } => {
                    if *cyclic {
                        *budget -= 1;
                        if *budget == 0 {
                            return None;
                        }
                    }
                    if !test.holds(values, cursor, test.rhs.read(values)) {
                        return Some(false);
                    }
                }
                CursorOp::Walk { first, second, width, table, test, again } => {
                    let rhs = test.rhs.read(values);
                    loop {
                        *budget -= 1;
                        if *budget == 0 {
                            return None;
                        }
                        if test.holds(values, cursor, rhs) != *again {
                            break;
                        }
                        *budget -= 1;
                        if *budget == 0 {
                            return None;
                        }
                        let key = first.get(values, member, cursor, outer) * *width
                            + second.get(values, member, cursor, outer);
                        cursor = table[key as usize];
                    }
                }
                CursorOp::StepAlong { width, table, cyclic } => {
                    if *cyclic {
                        *budget -= 1;
                        if *budget == 0 {
                            return None;
                        }
                    }
                    cursor = table[(member * *width + cursor) as usize];
                }
                CursorOp::WalkAlong { width, table, test, again } => {
                    let rhs = test.rhs.read(values);
                    let row = member * *width;
                    loop {
                        *budget -= 1;
                        if *budget == 0 {
                            return None;
                        }
                        if test.holds(values, cursor, rhs) != *again {
                            break;
                        }
                        *budget -= 1;
                        if *budget == 0 {
                            return None;
                        }
                        cursor = table[(row + cursor) as usize];
                    }
                }
            }
        }
        Some(true)
    }

    /// The chain of the program entered at `entry`, if it has that shape (see the type), or
    /// one in an [`OuterLoop`].
    pub(crate) fn of(entry: u32, steps: &[PlanStep]) -> Option<CursorChain> {
        Self::within(entry, steps, STEPS_FAIL, None).or_else(|| Self::nested_of(entry, steps))
    }

    /// The chain in an [`OuterLoop`] entered at `entry`, if the program has that shape.
    fn nested_of(entry: u32, steps: &[PlanStep]) -> Option<CursorChain> {
        let mut at = entry;
        if let ProgramOp::Save { .. } = steps.get(at as usize)?.op {
            at = steps[at as usize].pass;
        }
        let head = steps.get(at as usize)?;
        let ProgramOp::Member(outer) = &head.op else { return None };
        let MemberFilter::At(test) = &outer.filter else { return None };
        if outer.resume || head.fail != STEPS_FAIL {
            return None;
        }
        // The resumed copy of the loop, where the chain goes when it runs out of members.
        let resumed = steps.iter().position(|step| {
            matches!(&step.op, ProgramOp::Member(m) if m.resume && m.counter == outer.counter)
                && step.pass == head.pass
                && step.fail == STEPS_FAIL
        })?;
        let mut chain = Self::within(head.pass, steps, resumed as u32, Some(outer.slot))?;
        let written = [Some(outer.slot), chain.member_slot, Some(chain.cursor_slot)];
        if written.into_iter().flatten().any(|w| test.offsets.contains(&w) || test.rhs.reads(w)) {
            return None;
        }
        chain.outer = Some(Box::new(OuterLoop { members: outer.members.clone(), test: test.clone() }));
        Some(chain)
    }

    /// The chain entered at `entry` whose comparisons fail over to `exhausted` once no member
    /// is left (or at once, without members); `outer`, the slot of an enclosing [`OuterLoop`],
    /// is read as [`Operand::Outer`] and must not be read by any right-hand side.
    fn within(entry: u32, steps: &[PlanStep], exhausted: u32, outer: Option<u32>) -> Option<CursorChain> {
        /// Longer chains keep their steps (a bound on the shape's walk, not a cost limit).
        const MAX_OPS: usize = 64;
        let mut at = entry;
        if let ProgramOp::Save { .. } = steps.get(at as usize)?.op {
            // Copies for the member loop's restore list, which the chain never needs.
            at = steps[at as usize].pass;
        }
        let head = steps.get(at as usize)?;
        let (members, member_slot, cursor, mut ops) = match &head.op {
            ProgramOp::Member(choice) if !choice.resume && head.fail == exhausted && Some(choice.slot) != outer => {
                let MemberFilter::Step { step, first, second, width, table, test } = &choice.filter else {
                    return None;
                };
                if test.offsets.contains(&choice.slot) || test.rhs.reads(choice.slot) {
                    return None;
                }
                if outer.is_some_and(|o| test.offsets.contains(&o) || test.rhs.reads(o) || *step == o) {
                    return None;
                }
                let operand = |slot: u32| match slot {
                    _ if slot == choice.slot => Operand::Member,
                    _ if Some(slot) == outer => Operand::Outer,
                    _ => Operand::Fixed(slot),
                };
                let ops = vec![
                    CursorOp::Step {
                        first: operand(*first),
                        second: operand(*second),
                        width: *width,
                        table: table.clone(),
                        cyclic: false,
                    },
                    CursorOp::Test { test: test.clone(), cyclic: false },
                ];
                (Some(choice.members.clone()), Some(choice.slot), *step, ops)
            }
            // No member loop: the first step writes the cursor from slots it never writes.
            ProgramOp::SetLookup { slot, .. } | ProgramOp::SetLookup2 { slot, .. } if Some(*slot) != outer => {
                (None, None, *slot, Vec::new())
            }
            _ => return None,
        };
        // The outer slot counts as written: no right-hand side or map may read it.
        let written: Vec<u32> = member_slot.into_iter().chain([cursor]).chain(outer).collect();
        let operand = |slot: u32| match slot {
            _ if Some(slot) == member_slot => Operand::Member,
            _ if slot == cursor => Operand::Cursor,
            _ if Some(slot) == outer => Operand::Outer,
            _ => Operand::Fixed(slot),
        };
        let test_of = |op: &ProgramOp| {
            MemberTest::of(op, cursor, &written).filter(|t| !written.iter().any(|w| t.offsets.contains(w)))
        };
        if members.is_some() {
            at = head.pass;
        }
        // Where a failing comparison goes: the resumed member loop, or the check's failure.
        let mut resume = None;
        while at != ACCEPT {
            if ops.len() > MAX_OPS {
                return None;
            }
            let step = steps.get(at as usize)?;
            match &step.op {
                ProgramOp::SetLookup { slot, key, table } if *slot == cursor => ops.push(CursorOp::Step {
                    first: operand(*key),
                    second: operand(*key),
                    width: 0,
                    table: table.clone(),
                    cyclic: step.cyclic,
                }),
                ProgramOp::SetLookup2 { slot, first, second, width, table } if *slot == cursor => {
                    ops.push(CursorOp::Step {
                        first: operand(*first),
                        second: operand(*second),
                        width: *width,
                        table: table.clone(),
                        cyclic: step.cyclic,
                    })
                }
                ProgramOp::Walk(walk) if walk.slot == cursor && step.pass == step.fail && !step.cyclic => {
                    let (first, second, width, table) = match &walk.step {
                        WalkStep::Lookup { key, table } => (operand(*key), operand(*key), 0, table.clone()),
                        WalkStep::Lookup2 { first, second, width, table } => {
                            (operand(*first), operand(*second), *width, table.clone())
                        }
                    };
                    let test = &walk.test;
                    if written.iter().any(|&w| test.rhs.reads(w) || test.offsets.contains(&w)) {
                        return None;
                    }
                    let test = test.clone();
                    ops.push(CursorOp::Walk { first, second, width, table, test, again: walk.again });
                }
                op => {
                    let test = test_of(op)?;
                    if *resume.get_or_insert(step.fail) != step.fail {
                        return None;
                    }
                    ops.push(CursorOp::Test { test, cyclic: step.cyclic });
                }
            }
            at = step.pass;
        }
        // The first step writes the cursor before anything reads it; a comparison follows.
        let mut ops = ops.into_iter();
        let (lead, lead_test) = match (ops.next(), ops.next()) {
            (
                Some(CursorOp::Step { first, second, width, table, cyclic: false }),
                Some(CursorOp::Test { test, cyclic: false }),
            ) if first != Operand::Cursor && second != Operand::Cursor => ((first, second, width, table), test),
            _ => return None,
        };
        match (members.is_some(), resume) {
            (_, None) => {}
            (false, Some(fail)) if fail == exhausted => {}
            (true, Some(fail)) => {
                // The resumed copy of the entry's loop, going on at the same chain.
                let step = steps.get(fail as usize)?;
                let (ProgramOp::Member(resumed), ProgramOp::Member(first)) = (&step.op, &head.op) else {
                    return None;
                };
                if !resumed.resume
                    || resumed.counter != first.counter
                    || step.pass != head.pass
                    || step.fail != exhausted
                {
                    return None;
                }
            }
            _ => return None,
        }
        // Steps keyed by the member and then the cursor lose their operand dispatch.
        let along = |first: Operand, second: Operand, width: u32| {
            first == Operand::Member && second == Operand::Cursor && width > 0
        };
        let ops = ops
            .map(|op| match op {
                CursorOp::Step { first, second, width, table, cyclic } if along(first, second, width) => {
                    CursorOp::StepAlong { width, table, cyclic }
                }
                CursorOp::Walk { first, second, width, table, test, again } if along(first, second, width) => {
                    CursorOp::WalkAlong { width, table, test, again }
                }
                op => op,
            })
            .collect();
        let rows = members.as_deref().and_then(|members| Self::rows_of(members, &lead, &lead_test));
        Some(CursorChain {
            members,
            head: lead,
            head_test: lead_test,
            ops,
            rows,
            outer: None,
            member_slot,
            cursor_slot: cursor,
        })
    }
}

/// A program that runs a few flat assignments (the *head*, chess's `target = kingAt[me]`) and
/// then tries *alternatives* in order until one accepts: *probes*, a map read at fixed slots
/// against a right-hand side (`board[leap[nne][target]] == make_opp[me][knight]`), and *rays*,
/// a cursor set from fixed slots, optionally walked while a test of the map at it holds
/// (`cursor = step[n][target]`, then `cursor = step[n][cursor]` while `board[cursor] ==
/// empty`), then one or more comparisons of the map at the cursor (`== queen`, `== rook`):
/// chess's `attacked`. Run by [`ProbeFan::run`] with every right-hand side read once per check,
/// consecutive probes with one key as one row of cells (`cells[key * count + i]`), the cursor in
/// a register and the value under it read once for the walk's last test and the comparisons.
///
/// Exact because it follows the steps' own chain: a probe or a ray's comparison that holds
/// passes to [`ACCEPT`], one that fails goes on at the step it fails to, which is the next
/// comparison or alternative; `Save` and `Restore` are skipped, which is exact since after the
/// head nothing is written to the state (the cursors stay in registers, and no step reads a
/// cursor slot but its own ray after writing it, checked at construction), so the state always
/// equals what a `Restore` would put back. The head's slots are put back after the check and the
/// cursor slots are never written, so the state afterwards is the one the steps' caller leaves.
/// The step bound is the steps': only the walks count (the other steps lie on no cycle), each
/// round's test and step as [`PlanWalk::run`] counts them.
#[derive(Debug)]
pub(crate) struct ProbeFan {
    /// The flat assignments run first, and the slots they write (put back after the check).
    pub head: Box<[ProgramOp]>,
    pub head_slots: Box<[u32]>,
    /// The distinct right-hand sides, read once per check after the head; a [`FanTest`]'s `rhs`
    /// indexes this list.
    pub rhs: Box<[TestRhs]>,
    /// When every right-hand side is a literal or a table read at one slot `key` (chess's
    /// `make_opp[me][..]`), all of them per value of `key`: one row per check, no reads.
    pub rhs_rows: Option<(u32, Box<[[SymbolId; MAX_FAN_RHS]]>)>,
    pub alternatives: Box<[FanAlternative]>,
}

/// A comparison of a [`ProbeFan`]: the value read (== or !=) the right-hand side `rhs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FanTest {
    pub rhs: u8,
    pub equal: bool,
}

/// One or more alternatives of a [`ProbeFan`].
#[derive(Debug)]
pub(crate) enum FanAlternative {
    /// Consecutive probes with one test, keyed by `values[first] * width + values[second]`
    /// (`width` 0: the key is `values[second]`): probe `i` reads `values[cells[key * count + i]]`.
    Probes { first: u32, second: u32, width: u32, count: usize, cells: Box<[u32]>, test: FanTest },
    /// `cursor = table[values[first] * width + values[second]]`; with `walk`, `cursor =
    /// walk.cells[cursor].1` while the walk's test of `values[walk.cells[cursor].0]` comes out
    /// `again` (each round counted twice against the bound); then `values[map[cursor]]` against
    /// each test.
    Ray {
        first: u32,
        second: u32,
        width: u32,
        table: Box<[u32]>,
        walk: Option<FanWalk>,
        map: Box<[u32]>,
        tests: Box<[FanTest]>,
    },
}

/// The walk of a [`FanAlternative::Ray`]: per cursor the map's cell and the next cursor (the
/// walk's map and step tables side by side, one bounds check a round), and the right-hand side
/// whose equality with the cell's value goes round again (`go_on`: the test's sense is folded in).
#[derive(Debug)]
pub(crate) struct FanWalk {
    pub cells: Box<[(u32, u32)]>,
    pub rhs: u8,
    pub go_on: bool,
}

/// Heads writing more slots than this keep their steps.
const MAX_FAN_HEAD: usize = 4;
/// Fans with more distinct right-hand sides than this keep their steps.
const MAX_FAN_RHS: usize = 16;
/// Right-hand sides keyed by a slot with more values than this are read per check.
const MAX_FAN_ROWS: usize = 4096;
/// A probe row table larger than this is split (a bound on memory, not a cost limit).
const MAX_FAN_CELLS: usize = 1 << 16;

/// A probe's shape: `values[offsets[values[first] * width + values[second]]] == rhs` (or `!=`).
type RawProbe = (u32, u32, u32, Box<[u32]>, TestRhs, bool);

/// An alternative of a [`ProbeFan`] as parsed from the steps, before its checks.
enum RawFan {
    Probe(RawProbe),
    Ray {
        slot: u32,
        lead: (u32, u32, u32, Box<[u32]>),
        walk: Option<(Box<[u32]>, MemberTest, bool)>,
        tests: Vec<MemberTest>,
    },
}

/// `op` as a probe, if it is a comparison of a map read at fixed slots.
fn probe_of(op: &ProgramOp) -> Option<RawProbe> {
    Some(match op {
        ProgramOp::IndexedLit { key, offsets, lit, equal } => {
            (*key, *key, 0, offsets.clone(), TestRhs::Lit(*lit), *equal)
        }
        ProgramOp::IndexedSlot { key, offsets, slot, equal } => {
            (*key, *key, 0, offsets.clone(), TestRhs::Slot(*slot), *equal)
        }
        ProgramOp::IndexedLookup { key, offsets, rhs_key, table, equal } => {
            (*key, *key, 0, offsets.clone(), TestRhs::Lookup { key: *rhs_key, table: table.clone() }, *equal)
        }
        ProgramOp::Indexed2Lit { first, second, width, offsets, lit, equal } => {
            (*first, *second, *width, offsets.clone(), TestRhs::Lit(*lit), *equal)
        }
        ProgramOp::Indexed2Lookup { first, second, width, offsets, rhs_key, table, equal } => {
            (*first, *second, *width, offsets.clone(), TestRhs::Lookup { key: *rhs_key, table: table.clone() }, *equal)
        }
        _ => return None,
    })
}

impl ProbeFan {
    /// The answer of the check (`None`: a walk ran out of steps, the general search decides).
    /// The state is the same afterwards.
    #[inline(never)]
    pub(crate) fn run(&self, values: &mut [SymbolId]) -> Option<bool> {
        let mut kept = [0; MAX_FAN_HEAD];
        for (copy, &slot) in kept.iter_mut().zip(self.head_slots.iter()) {
            *copy = values[slot as usize];
        }
        for op in self.head.iter() {
            op.run_flat(values);
        }
        let answer = self.search(values);
        for (&copy, &slot) in kept.iter().zip(self.head_slots.iter()) {
            values[slot as usize] = copy;
        }
        answer
    }

    /// The alternatives in order, after the head.
    #[inline(always)]
    fn search(&self, values: &[SymbolId]) -> Option<bool> {
        let mut filled = [0; MAX_FAN_RHS];
        let rhs = match &self.rhs_rows {
            Some((key, rows)) => &rows[values[*key as usize] as usize],
            None => {
                for (value, side) in filled.iter_mut().zip(self.rhs.iter()) {
                    *value = side.read(values);
                }
                &filled
            }
        };
        // `rhs` indices are below MAX_FAN_RHS (checked at construction): the mask only spares
        // the bounds check.
        let holds =
            |value: SymbolId, test: &FanTest| (value == rhs[test.rhs as usize & (MAX_FAN_RHS - 1)]) == test.equal;
        let key_of = |first: u32, second: u32, width: u32| {
            values[first as usize].wrapping_mul(width).wrapping_add(values[second as usize]) as usize
        };
        let mut budget = super::reach::CYCLE_STEPS;
        for alternative in self.alternatives.iter() {
            match alternative {
                FanAlternative::Probes { first, second, width, count, cells, test } => {
                    let key = key_of(*first, *second, *width);
                    let row = &cells[key * count..][..*count];
                    let side = rhs[test.rhs as usize & (MAX_FAN_RHS - 1)];
                    // One loop per sense, the sense tested once per run.
                    let found = if test.equal {
                        row.iter().any(|&cell| values[cell as usize] == side)
                    } else {
                        row.iter().any(|&cell| values[cell as usize] != side)
                    };
                    if found {
                        return Some(true);
                    }
                }
                FanAlternative::Ray { first, second, width, table, walk, map, tests } => {
                    let mut cursor = table[key_of(*first, *second, *width)];
                    let value = match walk {
                        None => values[map[cursor as usize] as usize],
                        Some(walk) => {
                            let (cells, go_on) = (&walk.cells[..], walk.go_on);
                            let rhs = rhs[walk.rhs as usize & (MAX_FAN_RHS - 1)];
                            loop {
                                if budget <= 2 {
                                    // The steps' two checks a round, near the bound: the round's
                                    // test takes the last step but one, its step the last.
                                    if budget == 1 {
                                        return None;
                                    }
                                    budget = 1;
                                    let value = values[cells[cursor as usize].0 as usize];
                                    if (value == rhs) == go_on {
                                        return None;
                                    }
                                    break value;
                                }
                                let (cell, next) = cells[cursor as usize];
                                let value = values[cell as usize];
                                if (value == rhs) != go_on {
                                    budget -= 1;
                                    break value;
                                }
                                budget -= 2;
                                cursor = next;
                            }
                        }
                    };
                    if tests.iter().any(|test| holds(value, test)) {
                        return Some(true);
                    }
                }
            }
        }
        Some(false)
    }

    /// The fan of the program entered at `entry`, if it has that shape (see the type).
    fn of(entry: u32, steps: &[PlanStep]) -> Option<ProbeFan> {
        let step_at = |at: u32| steps.get(at as usize).filter(|step| !step.cyclic);
        let mut at = entry;
        let mut head = Vec::new();
        while let Some(step) = step_at(at) {
            if step.op.written().is_none() {
                break;
            }
            head.push(step.op.clone());
            at = step.pass;
        }
        if let Some(PlanStep { op: ProgramOp::Save { .. }, pass, .. }) = step_at(at) {
            at = *pass;
        }
        let mut head_slots: Vec<u32> = head.iter().filter_map(ProgramOp::written).collect();
        head_slots.sort_unstable();
        head_slots.dedup();
        if head_slots.len() > MAX_FAN_HEAD {
            return None;
        }
        // The alternatives as the steps chain them.
        let mut raw = Vec::new();
        let mut visited = 0;
        while at != STEPS_FAIL {
            visited += 1;
            if visited > steps.len() {
                return None;
            }
            let step = step_at(at)?;
            match &step.op {
                ProgramOp::Restore { .. } => {
                    at = step.pass;
                    continue;
                }
                ProgramOp::SetLookup { slot, key, table } => {
                    let lead = (*key, *key, 0, table.clone());
                    let (ray, next) = Self::ray_of(*slot, lead, step.pass, steps)?;
                    raw.push(ray);
                    at = next;
                }
                ProgramOp::SetLookup2 { slot, first, second, width, table } => {
                    let lead = (*first, *second, *width, table.clone());
                    let (ray, next) = Self::ray_of(*slot, lead, step.pass, steps)?;
                    raw.push(ray);
                    at = next;
                }
                op => {
                    if step.pass != ACCEPT {
                        return None;
                    }
                    raw.push(RawFan::Probe(probe_of(op)?));
                    at = step.fail;
                }
            }
        }
        // Nothing after the head may read a cursor slot but its own ray after writing it.
        let cursors: Vec<u32> =
            raw.iter().filter_map(|r| if let RawFan::Ray { slot, .. } = r { Some(*slot) } else { None }).collect();
        let fixed = |slot: u32| !cursors.contains(&slot);
        let fixed_map = |offsets: &[u32]| !offsets.iter().any(|o| cursors.contains(o));
        let fixed_rhs = |rhs: &TestRhs| cursors.iter().all(|&c| !rhs.reads(c));
        if head_slots.iter().any(|&s| !fixed(s)) {
            return None;
        }
        let mut rhs: Vec<TestRhs> = Vec::new();
        let mut index_of = |side: &TestRhs, equal: bool| -> Option<FanTest> {
            let at = rhs.iter().position(|r| r == side).unwrap_or_else(|| {
                rhs.push(side.clone());
                rhs.len() - 1
            });
            (at < MAX_FAN_RHS).then_some(FanTest { rhs: at as u8, equal })
        };
        let mut alternatives: Vec<FanAlternative> = Vec::new();
        for alternative in raw {
            match alternative {
                RawFan::Probe((first, second, width, offsets, side, equal)) => {
                    if !fixed(first) || !fixed(second) || !fixed_map(&offsets) || !fixed_rhs(&side) {
                        return None;
                    }
                    let test = index_of(&side, equal)?;
                    // Joins the run before it when keyed the same over a table as long, with the
                    // same test.
                    if let Some(FanAlternative::Probes { first: f, second: s, width: w, count, cells, test: t }) =
                        alternatives.last_mut()
                    {
                        let rows = cells.len() / *count;
                        if (*f, *s, *w, *t) == (first, second, width, test)
                            && rows == offsets.len()
                            && cells.len() + rows <= MAX_FAN_CELLS
                        {
                            let mut joined = Vec::with_capacity(cells.len() + rows);
                            for (row, &cell) in cells.chunks(*count).zip(offsets.iter()) {
                                joined.extend_from_slice(row);
                                joined.push(cell);
                            }
                            *cells = joined.into();
                            *count += 1;
                            continue;
                        }
                    }
                    alternatives.push(FanAlternative::Probes { first, second, width, count: 1, cells: offsets, test });
                }
                RawFan::Ray { slot: _, lead: (first, second, width, table), walk, tests } => {
                    if !fixed(first) || !fixed(second) {
                        return None;
                    }
                    let map = tests.first()?.offsets.clone();
                    if !fixed_map(&map) || tests.iter().any(|t| t.offsets != map || !fixed_rhs(&t.rhs)) {
                        return None;
                    }
                    let walk = match walk {
                        None => None,
                        Some((step, test, again)) => {
                            if test.offsets != map || step.len() != map.len() || !fixed_rhs(&test.rhs) {
                                return None;
                            }
                            let FanTest { rhs, equal } = index_of(&test.rhs, test.equal)?;
                            let cells: Box<[(u32, u32)]> = map.iter().copied().zip(step.iter().copied()).collect();
                            Some(FanWalk { cells, rhs, go_on: equal == again })
                        }
                    };
                    let tests = tests.iter().map(|t| index_of(&t.rhs, t.equal)).collect::<Option<_>>()?;
                    alternatives.push(FanAlternative::Ray { first, second, width, table, walk, map, tests });
                }
            }
        }
        if alternatives.is_empty() {
            return None;
        }
        let rhs_rows = Self::rows_of(&rhs);
        Some(ProbeFan {
            head: head.into(),
            head_slots: head_slots.into(),
            rhs: rhs.into(),
            rhs_rows,
            alternatives: alternatives.into(),
        })
    }

    /// [`ProbeFan::rhs_rows`], if the right-hand sides have that shape (at least one table read,
    /// every table as long, so a key past them fails as the reads would).
    fn rows_of(rhs: &[TestRhs]) -> Option<(u32, Box<[[SymbolId; MAX_FAN_RHS]]>)> {
        let mut shape = None;
        for side in rhs {
            match side {
                TestRhs::Lit(_) => {}
                TestRhs::Slot(_) => return None,
                TestRhs::Lookup { key, table } => {
                    if *shape.get_or_insert((*key, table.len())) != (*key, table.len()) {
                        return None;
                    }
                }
            }
        }
        let (key, rows) = shape?;
        if rows > MAX_FAN_ROWS {
            return None;
        }
        let row = |value: usize| {
            let mut row = [0; MAX_FAN_RHS];
            for (entry, side) in row.iter_mut().zip(rhs) {
                *entry = match side {
                    TestRhs::Lookup { table, .. } => table[value],
                    TestRhs::Lit(lit) => *lit,
                    TestRhs::Slot(_) => unreachable!("no slot right-hand side"),
                };
            }
            row
        };
        Some((key, (0..rows).map(row).collect()))
    }

    /// The ray whose lead writes `slot` from the operands `lead` and goes on at `pass`: an
    /// optional walk of `slot`, then comparisons of a map at `slot` passing to [`ACCEPT`], each
    /// failing to the next. Returns it and where its last comparison fails to.
    fn ray_of(slot: u32, lead: (u32, u32, u32, Box<[u32]>), pass: u32, steps: &[PlanStep]) -> Option<(RawFan, u32)> {
        let step_at = |at: u32| steps.get(at as usize).filter(|step| !step.cyclic);
        let mut at = pass;
        let mut walk = None;
        if let Some(PlanStep { op: ProgramOp::Walk(w), pass, fail, .. }) = step_at(at) {
            let WalkStep::Lookup { key, table } = &w.step else { return None };
            if w.slot != slot || *key != slot || pass != fail {
                return None;
            }
            walk = Some((table.clone(), w.test.clone(), w.again));
            at = *pass;
        }
        let mut tests = Vec::new();
        while let Some(step) = step_at(at) {
            let Some(test) = MemberTest::of(&step.op, slot, &[slot]) else { break };
            if step.pass != ACCEPT {
                return None;
            }
            tests.push(test);
            at = step.fail;
        }
        (!tests.is_empty()).then_some((RawFan::Ray { slot, lead, walk, tests }, at))
    }
}

/// The member loop of an any-assignment node (reversi's `dir = Dir(*)`): the first entry tries
/// members from the first, a resumed one (the fail continuation of everything below) from the one
/// after the member last taken, kept in the save area at `counter`. Before every member but the
/// first it puts back the node's restore list (`slot_lists[first..end]` from the save area at
/// `at`, copied by the node's `Save`), as the walk's frame does; then it writes the member and
/// runs `filter`, the flat chain after the assignment up to its first comparison, taking the
/// first member that passes it (the step's `pass` follows the filter). None passing: `fail`.
#[derive(Clone, Debug)]
pub(crate) struct MemberLoop {
    pub slot: u32,
    pub members: Box<[SymbolId]>,
    pub counter: u32,
    pub resume: bool,
    pub filter: MemberFilter,
    pub at: u32,
    pub first: u32,
    pub end: u32,
}

/// A [`MemberLoop`]'s filter, resolved by shape at construction. The resolved shapes write only
/// the member's slot and `step`, each before anything reads it, so a member sees the same state
/// whether or not the restore list is put back after the previous one: they put it back once, on
/// a resumed entry, and read their right-hand side once after that.
#[derive(Clone, Debug)]
pub(crate) enum MemberFilter {
    /// No filter: the first member tried is taken.
    Empty,
    /// A map read at the member itself (reversi's `board[probe] == empty`).
    At(MemberTest),
    /// `values[step] = table[values[first] * width + values[second]]`, then the map read at
    /// `values[step]` (reversi's `cursor = step[dir][origin]; board[cursor] == other[who]`).
    Step { step: u32, first: u32, second: u32, width: u32, table: Box<[u32]>, test: MemberTest },
    /// Any other chain of flat steps, each run in turn; the restore list is put back before every
    /// member but the first when some step writes a slot (`writes`).
    Ops { ops: Box<[ProgramOp]>, writes: bool },
}

/// `values[offsets[key]] == rhs` (or `!=`), `rhs` reading neither slot the filter writes.
#[derive(Clone, Debug)]
pub(crate) struct MemberTest {
    pub offsets: Box<[u32]>,
    pub rhs: TestRhs,
    pub equal: bool,
}

/// The right-hand side of a [`MemberTest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TestRhs {
    Lit(SymbolId),
    Slot(u32),
    Lookup { key: u32, table: Box<[u32]> },
}

impl TestRhs {
    #[inline(always)]
    fn read(&self, values: &[SymbolId]) -> SymbolId {
        match self {
            TestRhs::Lit(lit) => *lit,
            TestRhs::Slot(slot) => values[*slot as usize],
            TestRhs::Lookup { key, table } => table[values[*key as usize] as usize],
        }
    }

    fn reads(&self, slot: u32) -> bool {
        match self {
            TestRhs::Lit(_) => false,
            TestRhs::Slot(s) | TestRhs::Lookup { key: s, .. } => *s == slot,
        }
    }
}

impl MemberTest {
    /// `op` as a test of the map at `values[key]`, if it is such a comparison whose right-hand
    /// side reads none of `written`.
    fn of(op: &ProgramOp, key: u32, written: &[u32]) -> Option<MemberTest> {
        let (offsets, rhs, equal) = match op {
            ProgramOp::IndexedLit { key: k, offsets, lit, equal } if *k == key => (offsets, TestRhs::Lit(*lit), *equal),
            ProgramOp::IndexedSlot { key: k, offsets, slot, equal } if *k == key => {
                (offsets, TestRhs::Slot(*slot), *equal)
            }
            ProgramOp::IndexedLookup { key: k, offsets, rhs_key, table, equal } if *k == key => {
                (offsets, TestRhs::Lookup { key: *rhs_key, table: table.clone() }, *equal)
            }
            _ => return None,
        };
        if written.iter().any(|&w| rhs.reads(w)) {
            return None;
        }
        Some(MemberTest { offsets: offsets.clone(), rhs, equal })
    }

    #[inline(always)]
    fn holds(&self, values: &[SymbolId], key: SymbolId, rhs: SymbolId) -> bool {
        (values[self.offsets[key as usize] as usize] == rhs) == self.equal
    }
}

impl MemberFilter {
    /// The filter running `ops` after each member is written to `slot`.
    fn of(slot: u32, ops: Vec<ProgramOp>) -> MemberFilter {
        match &ops[..] {
            [] => return MemberFilter::Empty,
            [test] => {
                if let Some(test) = MemberTest::of(test, slot, &[slot]) {
                    return MemberFilter::At(test);
                }
            }
            [ProgramOp::SetLookup2 { slot: step, first, second, width, table }, test]
                if *step != slot && *first != *step && *second != *step =>
            {
                let test = MemberTest::of(test, *step, &[slot, *step]);
                // A map holding `step` itself would read the member's own write: not resolved.
                if let Some(test) = test.filter(|t| !t.offsets.contains(step)) {
                    let (step, first, second, width, table) = (*step, *first, *second, *width, table.clone());
                    return MemberFilter::Step { step, first, second, width, table, test };
                }
            }
            _ => {}
        }
        // Every member runs every step (only the last is a comparison), so each writes the same
        // slots; a member can only see an earlier member's write through a step reading a slot
        // that it or a later step writes.
        let writes =
            ops.iter().enumerate().any(|(i, op)| ops[i..].iter().filter_map(ProgramOp::written).any(|w| op.reads(w)));
        MemberFilter::Ops { ops: ops.into(), writes }
    }
}

impl MemberLoop {
    /// The first member from `start` on that passes the filter, written with the filter's slots
    /// (`members.len()` when none does). `saved` holds the copies of `restore`'s slots.
    #[inline(always)]
    pub(crate) fn find(&self, values: &mut [SymbolId], start: usize, saved: &[SymbolId], restore: &[u32]) -> usize {
        let put_back = |values: &mut [SymbolId]| {
            for (&copy, &slot) in saved.iter().zip(restore) {
                values[slot as usize] = copy;
            }
        };
        if self.resume {
            put_back(values);
        }
        let slot = self.slot as usize;
        let members = self.members.get(start..).unwrap_or_default();
        let passing = match &self.filter {
            MemberFilter::Empty => members.first().map(|&member| values[slot] = member).map(|()| 0),
            MemberFilter::At(test) => {
                let rhs = test.rhs.read(values);
                members.iter().position(|&member| {
                    values[slot] = member;
                    test.holds(values, member, rhs)
                })
            }
            MemberFilter::Step { step, first, second, width, table, test } => {
                let rhs = test.rhs.read(values);
                let (step, first, second) = (*step as usize, *first as usize, *second as usize);
                members.iter().position(|&member| {
                    values[slot] = member;
                    let cell = table[(values[first] * *width + values[second]) as usize];
                    values[step] = cell;
                    test.holds(values, cell, rhs)
                })
            }
            MemberFilter::Ops { ops, writes } => members.iter().enumerate().position(|(index, &member)| {
                if *writes && index > 0 {
                    put_back(values);
                }
                values[slot] = member;
                ops.iter().all(|op| op.run_flat(values))
            }),
        };
        passing.map_or(self.members.len(), |index| start + index)
    }
}

/// `offsets` with `base` added to each entry (`None` on overflow).
fn based(base: u32, offsets: &[u32]) -> Option<Box<[u32]>> {
    offsets.iter().map(|&o| base.checked_add(o)).collect()
}

impl ProgramOp {
    /// Runs a flat step (an assignment or a comparison with its operands resolved): whether it
    /// holds. Only such steps appear in a [`MemberLoop::filter`].
    #[inline(always)]
    pub(crate) fn run_flat(&self, values: &mut [SymbolId]) -> bool {
        match self {
            ProgramOp::SetSlot { slot, from } => {
                values[*slot as usize] = values[*from as usize];
                true
            }
            ProgramOp::SetLookup { slot, key, table } => {
                values[*slot as usize] = table[values[*key as usize] as usize];
                true
            }
            ProgramOp::SetLookup2 { slot, first, second, width, table } => {
                values[*slot as usize] = table[(values[*first as usize] * *width + values[*second as usize]) as usize];
                true
            }
            ProgramOp::SetIndexed { slot, key, offsets } => {
                values[*slot as usize] = values[offsets[values[*key as usize] as usize] as usize];
                true
            }
            ProgramOp::IndexedLit { key, offsets, lit, equal } => {
                (values[offsets[values[*key as usize] as usize] as usize] == *lit) == *equal
            }
            ProgramOp::IndexedSlot { key, offsets, slot, equal } => {
                (values[offsets[values[*key as usize] as usize] as usize] == values[*slot as usize]) == *equal
            }
            ProgramOp::IndexedLookup { key, offsets, rhs_key, table, equal } => {
                let lhs = values[offsets[values[*key as usize] as usize] as usize];
                (lhs == table[values[*rhs_key as usize] as usize]) == *equal
            }
            ProgramOp::Indexed2Lit { first, second, width, offsets, lit, equal } => {
                let key = values[*first as usize] * *width + values[*second as usize];
                (values[offsets[key as usize] as usize] == *lit) == *equal
            }
            ProgramOp::Indexed2Lookup { first, second, width, offsets, rhs_key, table, equal } => {
                let key = values[*first as usize] * *width + values[*second as usize];
                (values[offsets[key as usize] as usize] == table[values[*rhs_key as usize] as usize]) == *equal
            }
            ProgramOp::SlotLit { slot, lit, equal } => (values[*slot as usize] == *lit) == *equal,
            ProgramOp::LookupLit { key, table, lit, equal } => {
                (table[values[*key as usize] as usize] == *lit) == *equal
            }
            ProgramOp::Edge(_)
            | ProgramOp::Save { .. }
            | ProgramOp::Restore { .. }
            | ProgramOp::Member(_)
            | ProgramOp::Walk(_) => {
                unreachable!("not a flat step")
            }
        }
    }

    /// The slot a flat assignment writes.
    fn written(&self) -> Option<u32> {
        match self {
            ProgramOp::SetSlot { slot, .. }
            | ProgramOp::SetLookup { slot, .. }
            | ProgramOp::SetLookup2 { slot, .. }
            | ProgramOp::SetIndexed { slot, .. } => Some(*slot),
            _ => None,
        }
    }

    /// Whether a flat step may read `slot` (any step that is not flat: yes).
    fn reads(&self, slot: u32) -> bool {
        match self {
            ProgramOp::SetSlot { from, .. } => *from == slot,
            ProgramOp::SetLookup { key, .. } | ProgramOp::LookupLit { key, .. } => *key == slot,
            ProgramOp::SetLookup2 { first, second, .. } => *first == slot || *second == slot,
            ProgramOp::SetIndexed { key, offsets, .. } | ProgramOp::IndexedLit { key, offsets, .. } => {
                *key == slot || offsets.contains(&slot)
            }
            ProgramOp::IndexedSlot { key, offsets, slot: rhs, .. } => {
                *key == slot || *rhs == slot || offsets.contains(&slot)
            }
            ProgramOp::IndexedLookup { key, offsets, rhs_key, .. } => {
                *key == slot || *rhs_key == slot || offsets.contains(&slot)
            }
            ProgramOp::Indexed2Lit { first, second, offsets, .. } => {
                *first == slot || *second == slot || offsets.contains(&slot)
            }
            ProgramOp::Indexed2Lookup { first, second, offsets, rhs_key, .. } => {
                *first == slot || *second == slot || *rhs_key == slot || offsets.contains(&slot)
            }
            ProgramOp::SlotLit { slot: s, .. } => *s == slot,
            _ => true,
        }
    }

    /// Whether [`ProgramOp::run_flat`] runs this step.
    fn is_flat(&self) -> bool {
        !matches!(
            self,
            ProgramOp::Edge(_)
                | ProgramOp::Save { .. }
                | ProgramOp::Restore { .. }
                | ProgramOp::Member(_)
                | ProgramOp::Walk(_)
        )
    }

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
            PlanOp::Compare { lhs, rhs, equal } => match (lhs, rhs) {
                (Val::Slot(slot), Val::Lit(lit)) | (Val::Lit(lit), Val::Slot(slot)) => {
                    Some(ProgramOp::SlotLit { slot: *slot, lit: *lit, equal: *equal })
                }
                (Val::Lookup { key, table }, Val::Lit(lit)) | (Val::Lit(lit), Val::Lookup { key, table }) => {
                    Some(ProgramOp::LookupLit { key: *key, table: table.clone(), lit: *lit, equal: *equal })
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
    let cursor = CursorChain::of(entry, &builder.steps);
    let fan = if cursor.is_none() { ProbeFan::of(entry, &builder.steps).map(Box::new) } else { None };
    Some(PlanSteps {
        entry,
        steps: builder.steps.into(),
        saved: builder.saved,
        slot_lists: builder.slot_lists.into(),
        cursor,
        fan,
    })
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
            NodeKind::Complement if current.cyclic && self.walk_of(node, current).is_some() => {
                let (walk, exit) = self.walk_of(node, current)?;
                let at = self.push(ProgramOp::Walk(Box::new(walk)), STEPS_FAIL);
                self.memo.insert((node, fail), at);
                let next = self.node(exit, fail)?;
                let step = &mut self.steps[at as usize];
                (step.pass, step.fail) = (next, next);
                Some(at)
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
            NodeKind::Branch if !current.cyclic && end == first + 1 => self.choice(current, fail),
            NodeKind::Branch if !current.cyclic => self.branch(current, fail),
            NodeKind::Branch | NodeKind::Straight | NodeKind::Ray => None,
        }
    }

    /// The [`PlanWalk`] of cyclic complement `node` and the node its leaving edge leads to, if
    /// the loop has that shape.
    fn walk_of(&self, node: u32, current: PlanNode) -> Option<(PlanWalk, u32)> {
        let (holds, fails) = (self.edges[current.first as usize].target, self.edges[current.first as usize + 1].target);
        let steps_back = |target: u32| {
            let stepper = self.nodes.get(target as usize)?;
            let edge = &self.edges[stepper.first as usize];
            (stepper.kind == NodeKind::Chain && stepper.cyclic && edge.target == node)
                .then(|| ProgramOp::of(edge, stepper.first))
        };
        let (step, exit, again) = match (steps_back(holds), steps_back(fails)) {
            (Some(step), None) => (step, fails, true),
            (None, Some(step)) => (step, holds, false),
            _ => return None,
        };
        let (slot, step) = match step {
            ProgramOp::SetLookup { slot, key, table } => (slot, WalkStep::Lookup { key, table }),
            ProgramOp::SetLookup2 { slot, first, second, width, table } => {
                (slot, WalkStep::Lookup2 { first, second, width, table })
            }
            _ => return None,
        };
        let test = ProgramOp::of(&self.edges[current.first as usize], current.first);
        let test = MemberTest::of(&test, slot, &[slot]).filter(|t| !t.offsets.contains(&slot))?;
        Some((PlanWalk { slot, step, test, again }, exit))
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

    /// A non-cyclic branching node whose only edge is an any-assignment: `Save` (when something
    /// below writes a slot), then the first entry of its [`MemberLoop`], whose resumed form is
    /// the fail continuation of the nodes after its filter.
    fn choice(&mut self, current: PlanNode, fail: u32) -> Option<u32> {
        let edge = &self.edges[current.first as usize];
        let PlanOp::SetAny { slot, members } = &edge.op else { return None };
        let (slot, members) = (*slot, members.clone());
        // The flat chain after the assignment up to its first comparison, run per member.
        let mut filter = Vec::new();
        let mut after = edge.target;
        while after != ACCEPT {
            let next = self.nodes[after as usize];
            if next.kind != NodeKind::Chain || next.cyclic {
                break;
            }
            if matches!(self.edges[next.first as usize].op, PlanOp::Skip) {
                after = self.edges[next.first as usize].target;
                continue;
            }
            let op = ProgramOp::of(&self.edges[next.first as usize], next.first);
            if !op.is_flat() {
                break;
            }
            filter.push(op);
            after = self.edges[next.first as usize].target;
            if self.edges[next.first as usize].op.is_comparison() {
                break;
            }
        }
        let counter = self.saved;
        self.saved += 1;
        let (at, start) = (self.saved, self.slot_lists.len() as u32);
        let slots = &self.restore[current.restore.0 as usize..current.restore.1 as usize];
        self.saved += slots.len() as u32;
        self.slot_lists.extend_from_slice(slots);
        let stop = self.slot_lists.len() as u32;
        let filter = MemberFilter::of(slot, filter);
        let member_loop = |resume: bool| {
            ProgramOp::Member(Box::new(MemberLoop {
                slot,
                members: members.clone(),
                counter,
                resume,
                filter: filter.clone(),
                at,
                first: start,
                end: stop,
            }))
        };
        let resume = self.push(member_loop(true), STEPS_FAIL);
        let pass = self.node(after, resume)?;
        self.steps[resume as usize].pass = pass;
        self.steps[resume as usize].fail = fail;
        let entry = self.push(member_loop(false), pass);
        self.steps[entry as usize].fail = fail;
        Some(if start == stop { entry } else { self.push(ProgramOp::Save { at, first: start, end: stop }, entry) })
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
