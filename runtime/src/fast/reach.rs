//! Reachability plans: a lean evaluator for the `? a -> b` checks whose sub-automaton is simple
//! enough to walk without the general search's machinery (ray walks, attack tests).
//!
//! A pair gets a plan when, in the part of the graph reachable from `a` without passing `b`,
//! every edge writes only fixed slots (few of them) and every node on a cycle is deterministic
//! (at most one out-edge can be followed). The walk is then the general search's depth-first walk
//! in the same order, minus what a check does not need: no tags, no move bookkeeping, no visited
//! set, and no undo log — each branching frame keeps a copy of the handful of slots the plan can
//! write, and the whole check restores them at its end.
//!
//! Without a visited set a deterministic cycle that repeats a state would loop forever, so a walk
//! that takes more than [`CYCLE_STEPS`] steps on cyclic nodes gives up and the check is run again
//! by the general search from the restored state. Up to that point the two walks are the same (the
//! general search prunes only states it has fully explored, which found nothing, or states on its
//! current path, where the plan would go round again), so a plan's answer — found, not found, or
//! the first error on the way — is the general search's answer.

use super::graph::{Context, CYCLIC};
use super::plan_steps::{plan_steps, PlanSteps};
use super::program::{exclusive, Ins, Target, Val};
use super::FastEdge;
use crate::automaton::{NodeId, SymbolId};

/// A plan's local target meaning "the checked node `b` is reached".
pub(crate) const ACCEPT: u32 = u32::MAX;
/// Steps on cyclic nodes after which a plan gives up (the general search then decides).
pub(crate) const CYCLE_STEPS: u32 = 1 << 16;
/// Plans write at most this many distinct slots (each branching frame copies them).
const MAX_SLOTS: usize = 16;
/// Plans have at most this many nodes.
const MAX_NODES: usize = 4096;

/// One edge of a plan: its instruction and its target (a local node or [`ACCEPT`]).
#[derive(Debug)]
pub(crate) struct PlanEdge {
    pub op: PlanOp,
    pub target: u32,
    /// The same instruction with its operands inline, for the steps of `walk_straight` (see
    /// [`PlanFlat`]); `General` when `op` has no such form.
    pub flat: PlanFlat,
}

/// A plan edge's commonest shapes with every operand resolved (`cursor = last`, `cursor =
/// behind[dir][cursor]`, `board[cursor] == me`, `board[behind[dir][cursor]] == who`): a step of
/// a straight walk (connect4.hrg's unrolled walks) then costs one dispatch, where `op` costs one
/// for the edge, one for the comparison and one per operand. (Used in `walk_plan`'s chain loop
/// too, it cost reversi 0.5 %: that loop's code grew more than its dispatches shrank.) Derived from `op` alone, so the two forms cannot disagree; the analyses read
/// `op` only.
#[derive(Debug)]
pub(crate) enum PlanFlat {
    /// Run through `op`.
    General,
    /// `values[slot] = values[from]`.
    SetSlot { slot: u32, from: u32 },
    /// `values[slot] = table[values[key]]`.
    SetLookup { slot: u32, key: u32, table: Box<[u32]> },
    /// `values[slot] = table[values[first] * width + values[second]]`.
    SetLookup2 { slot: u32, first: u32, second: u32, width: u32, table: Box<[u32]> },
    /// `values[base + offsets[values[key]]] == lit` (or `!=`).
    IndexedLit { base: u32, key: u32, offsets: Box<[u32]>, lit: SymbolId, equal: bool },
    /// `values[base + offsets[values[key]]] == values[slot]` (or `!=`).
    IndexedSlot { base: u32, key: u32, offsets: Box<[u32]>, slot: u32, equal: bool },
    /// `values[base + offsets[values[first] * width + values[second]]] == lit` (or `!=`).
    Indexed2Lit { base: u32, first: u32, second: u32, width: u32, offsets: Box<[u32]>, lit: SymbolId, equal: bool },
    /// `values[base + offsets[values[first] * width + values[second]]] == values[slot]` (or `!=`).
    Indexed2Slot { base: u32, first: u32, second: u32, width: u32, offsets: Box<[u32]>, slot: u32, equal: bool },
}

impl PlanFlat {
    /// Whether a flat comparison holds (`None` for an assignment or `General`, which compare
    /// nothing). One definition for the plan walk (`search.rs`) and the straight steps below.
    #[inline(always)]
    pub(crate) fn holds(&self, values: &[SymbolId]) -> Option<bool> {
        Some(match self {
            PlanFlat::IndexedLit { base, key, offsets, lit, equal } => {
                (values[(*base + offsets[values[*key as usize] as usize]) as usize] == *lit) == *equal
            }
            PlanFlat::IndexedSlot { base, key, offsets, slot, equal } => {
                (values[(*base + offsets[values[*key as usize] as usize]) as usize] == values[*slot as usize]) == *equal
            }
            PlanFlat::Indexed2Lit { base, first, second, width, offsets, lit, equal } => {
                let key = values[*first as usize] * *width + values[*second as usize];
                (values[(*base + offsets[key as usize]) as usize] == *lit) == *equal
            }
            PlanFlat::Indexed2Slot { base, first, second, width, offsets, slot, equal } => {
                let key = values[*first as usize] * *width + values[*second as usize];
                (values[(*base + offsets[key as usize]) as usize] == values[*slot as usize]) == *equal
            }
            PlanFlat::General | PlanFlat::SetSlot { .. } | PlanFlat::SetLookup { .. } | PlanFlat::SetLookup2 { .. } => {
                return None
            }
        })
    }

    /// The flat form of `op`, if it has one.
    pub(crate) fn of(op: &PlanOp) -> PlanFlat {
        match op {
            PlanOp::Set { slot, value: Val::Slot(from) } => PlanFlat::SetSlot { slot: *slot, from: *from },
            PlanOp::Set { slot, value: Val::Lookup { key, table } } => {
                PlanFlat::SetLookup { slot: *slot, key: *key, table: table.clone() }
            }
            PlanOp::Set { slot, value: Val::Lookup2Slots { first, second, width, table } } => PlanFlat::SetLookup2 {
                slot: *slot,
                first: *first,
                second: *second,
                width: *width,
                table: table.clone(),
            },
            PlanOp::CompareIndexedLit { base, key, offsets, lit, equal } => {
                PlanFlat::IndexedLit { base: *base, key: *key, offsets: offsets.clone(), lit: *lit, equal: *equal }
            }
            PlanOp::CompareIndexedSlot { base, key, offsets, slot, equal } => {
                PlanFlat::IndexedSlot { base: *base, key: *key, offsets: offsets.clone(), slot: *slot, equal: *equal }
            }
            PlanOp::CompareIndexed2 { base, first, second, width, offsets, rhs: Val::Lit(lit), equal } => {
                PlanFlat::Indexed2Lit {
                    base: *base,
                    first: *first,
                    second: *second,
                    width: *width,
                    offsets: offsets.clone(),
                    lit: *lit,
                    equal: *equal,
                }
            }
            PlanOp::CompareIndexed2 { base, first, second, width, offsets, rhs: Val::Slot(slot), equal } => {
                PlanFlat::Indexed2Slot {
                    base: *base,
                    first: *first,
                    second: *second,
                    width: *width,
                    offsets: offsets.clone(),
                    slot: *slot,
                    equal: *equal,
                }
            }
            _ => PlanFlat::General,
        }
    }
}

/// The instructions a plan can run (every write goes to a fixed slot).
#[derive(Debug)]
pub(crate) enum PlanOp {
    /// `skip` and tags (a check ignores tags).
    Skip,
    Set {
        slot: u32,
        value: Val,
    },
    Compare {
        lhs: Val,
        rhs: Val,
        equal: bool,
    },
    /// `values[base + offsets[values[key]]] == rhs` (or `!=`): the common `board[x] == ...`
    /// with one dispatch fewer than [`PlanOp::Compare`].
    CompareIndexed {
        base: u32,
        key: u32,
        offsets: Box<[u32]>,
        rhs: Val,
        equal: bool,
    },
    /// [`PlanOp::CompareIndexed`] with a constant right-hand side (`board[cell] == empty`): one
    /// dispatch for the whole comparison, as are the next two.
    CompareIndexedLit {
        base: u32,
        key: u32,
        offsets: Box<[u32]>,
        lit: SymbolId,
        equal: bool,
    },
    /// [`PlanOp::CompareIndexed`] with a slot on the right (`board[cell] == me`).
    CompareIndexedSlot {
        base: u32,
        key: u32,
        offsets: Box<[u32]>,
        slot: u32,
        equal: bool,
    },
    /// [`PlanOp::CompareIndexed`] with `table[values[rhs_key]]` on the right (`board[cursor] ==
    /// other[who]`).
    CompareIndexedLookup {
        base: u32,
        key: u32,
        offsets: Box<[u32]>,
        rhs_key: u32,
        table: Box<[u32]>,
        equal: bool,
    },
    /// `values[base + offsets[values[first] * width + values[second]]] == rhs` (or `!=`): a
    /// state map read through a two-level constant map (`board[behind[dir][pos]] == Disc(me)`),
    /// without the left-hand side's operand dispatch.
    CompareIndexed2 {
        base: u32,
        first: u32,
        second: u32,
        width: u32,
        offsets: Box<[u32]>,
        rhs: Val,
        equal: bool,
    },
    SetAny {
        slot: u32,
        members: Box<[SymbolId]>,
    },
    /// A nested check, run through [`super::search::Scratch`]'s general entry point.
    Reach {
        from: NodeId,
        to: NodeId,
        negated: bool,
        context: u32,
    },
}

/// How a plan node is walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    /// No out-edge: the path fails.
    Dead,
    /// One out-edge that is not an any-assignment: run it and go on.
    Chain,
    /// Two comparisons of the same operands, one `==` and one `!=`: one comparison picks the edge.
    Complement,
    /// Pairwise exclusive guards: the first that holds is followed.
    Select,
    /// Anything else: a frame tries every edge (and every member of an any-assignment).
    Branch,
    /// A branching node whose only edge is an any-assignment without a filter, below which every
    /// path is deterministic and acyclic up to the checked node or a dead end: chains and
    /// complements (connect four's `dir = Dir(*)` and the unrolled walk along that direction in
    /// connect4.hrg). Each member is run to its end in an inner loop, without frames
    /// (`Scratch::walk_straight`): the frame would try the members in the same order, restore
    /// the same slots before each and follow the same single path.
    Straight,
    /// A ray walk ([`Ray`], `PlanNode::ray`): a branching node that runs its guard first, whose
    /// guard leads to one step `p = f(p)` back to the node and whose second edge starts a chain
    /// of comparisons ending at the checked node (connect4.rg's `walk`: step back while the disc
    /// is ours; from the furthest cell back, look for three ahead). Run without frames.
    Ray,
}

/// A ray walk at a [`NodeKind::Ray`] node. The depth-first walk there pushes a frame and steps
/// while the guard holds, then tries the comparisons at the last position and, backtracking, at
/// every earlier one (its frames put back `slot`, the only slot written below the node). The ray
/// form does the same without frames (`Scratch::walk_ray`): it records the positions while the
/// guard holds, then runs the comparisons at each, last first; when none passes, `slot` holds
/// its first position again, as the outermost frame would leave it. Nothing in a ray can raise
/// an error, and every slot it reads but `slot` keeps its value throughout.
#[derive(Debug)]
pub(crate) struct Ray {
    /// The guard's plan edge.
    pub guard: u32,
    /// The stepped slot and the step's value (`pos = behind[dir][pos]`).
    pub slot: u32,
    pub step: Val,
    /// The plan edges of the comparisons from the node's second edge to the checked node.
    pub forward: Box<[u32]>,
    /// The same walk with every operand resolved, when all of it reads the state through one
    /// two-level table key `(first, slot)` (see [`FlatRay`]).
    pub flat: Option<FlatRay>,
}

/// A [`Ray`] whose guard and comparisons are all `values[base + offsets[values[first] * width +
/// values[slot]]] == rhs` (or `!=`) with `rhs` a literal or a slot other than `slot`, and whose
/// step is `slot = table[values[first] * width + values[slot]]` (connect4.rg: `board[behind[dir][
/// pos]] == me`, `pos = behind[dir][pos]`, `board[ahead[dir][pos]] == me`, ...). Only `slot`
/// changes during the walk, so the row `values[first] * width` and every right-hand side are read
/// once, and each test is two loads and a comparison, with no dispatch.
#[derive(Clone, Debug)]
pub(crate) struct FlatRay {
    pub first: u32,
    pub width: u32,
    pub table: Box<[u32]>,
    pub guard: FlatCompare,
    pub forward: Box<[FlatCompare]>,
    /// The right-hand side every forward comparison shares (connect4.rg's `== me`): the literal,
    /// or the slot when `.0`; read once per walk instead of once per comparison.
    pub shared_rhs: Option<(bool, u32)>,
}

impl FlatRay {
    /// The ray walk from `values[slot]`: the guard's run of positions, then the forward
    /// comparisons at the last position and at every earlier one, last first (as the walk's
    /// frames would backtrack); whether they all hold at one, which is then written to `slot`
    /// (nothing is written otherwise). `None` past [`CYCLE_STEPS`] positions. Only `slot`
    /// changes during the walk, so the row and the right-hand sides are read once.
    #[inline(always)]
    pub(crate) fn walk(&self, values: &mut [SymbolId], slot: usize, positions: &mut Vec<SymbolId>) -> Option<bool> {
        // One copy of the walk per case, so that neither tests which case it is per comparison.
        match self.shared_rhs {
            Some((is_slot, value)) => {
                let rhs = if is_slot { values[value as usize] } else { value };
                self.walk_with(values, slot, positions, |_, _| rhs)
            }
            None => self.walk_with(values, slot, positions, |test, values| test.rhs(values)),
        }
    }

    /// [`FlatRay::walk`] with the forward comparisons' right-hand sides read by `rhs`.
    #[inline(always)]
    fn walk_with(
        &self,
        values: &mut [SymbolId],
        slot: usize,
        positions: &mut Vec<SymbolId>,
        rhs: impl Fn(&FlatCompare, &[SymbolId]) -> SymbolId,
    ) -> Option<bool> {
        let row = values[self.first as usize] * self.width;
        // No right-hand side reads `slot`, the only slot the walk writes.
        let guard_rhs = self.guard.rhs(values);
        let guard = |values: &[u32], at: u32| {
            (values[self.guard.offsets[(row + at) as usize] as usize] == guard_rhs) == self.guard.equal
        };
        let forward = |values: &[u32], at: u32| {
            self.forward
                .iter()
                .all(|test| (values[test.offsets[(row + at) as usize] as usize] == rhs(test, values)) == test.equal)
        };
        let start = values[slot];
        if !guard(values, start) {
            // No step (the common case): the comparisons at the start alone.
            if forward(values, start) {
                return Some(true);
            }
            return Some(false);
        }
        positions.clear();
        let mut at = start;
        loop {
            positions.push(at);
            if positions.len() > CYCLE_STEPS as usize {
                return None;
            }
            at = self.table[(row + at) as usize];
            if !guard(values, at) {
                break;
            }
        }
        if forward(values, at) {
            values[slot] = at;
            return Some(true);
        }
        for &position in positions.iter().rev() {
            if forward(values, position) {
                values[slot] = position;
                return Some(true);
            }
        }
        Some(false)
    }
}

/// One test of a [`FlatRay`]: `values[offsets[key]] == rhs` (`base` folded into `offsets`), with
/// `rhs` the literal `value`, or the slot `value` when `rhs_is_slot`.
#[derive(Clone, Debug)]
pub(crate) struct FlatCompare {
    pub offsets: Box<[u32]>,
    pub rhs_is_slot: bool,
    pub value: u32,
    pub equal: bool,
}

impl FlatCompare {
    /// Whether the test holds at table key `key`.
    #[inline(always)]
    fn holds_at(&self, values: &[SymbolId], key: usize) -> bool {
        (values[self.offsets[key] as usize] == self.rhs(values)) == self.equal
    }

    /// The right-hand side in state `values`.
    #[inline(always)]
    fn rhs(&self, values: &[SymbolId]) -> SymbolId {
        if self.rhs_is_slot {
            values[self.value as usize]
        } else {
            self.value
        }
    }
}

/// `op` as a [`FlatCompare`] keyed by `(first, slot)` with row width `width`, if it has that shape.
fn flat_compare(op: &PlanOp, first: u32, slot: u32, width: u32) -> Option<FlatCompare> {
    let PlanOp::CompareIndexed2 { base, first: f, second, width: w, offsets, rhs, equal } = op else { return None };
    if (*f, *second, *w) != (first, slot, width) {
        return None;
    }
    let (rhs_is_slot, value) = match rhs {
        Val::Lit(symbol) => (false, *symbol),
        Val::Slot(s) if *s != slot => (true, *s),
        _ => return None,
    };
    let offsets = offsets.iter().map(|&o| base.checked_add(o)).collect::<Option<Box<[u32]>>>()?;
    Some(FlatCompare { offsets, rhs_is_slot, value, equal: *equal })
}

/// The [`FlatRay`] form of a ray, if it has that shape.
fn flat_ray(guard: &PlanOp, slot: u32, step: &Val, forward: &[u32], edges: &[PlanEdge]) -> Option<FlatRay> {
    let Val::Lookup2Slots { first, second, width, table } = step else { return None };
    if *second != slot || *first == slot {
        return None;
    }
    let guard = flat_compare(guard, *first, slot, *width)?;
    let forward = forward
        .iter()
        .map(|&e| flat_compare(&edges[e as usize].op, *first, slot, *width))
        .collect::<Option<Box<[FlatCompare]>>>()?;
    let shared_rhs = forward
        .first()
        .map(|test| (test.rhs_is_slot, test.value))
        .filter(|&shared| forward.iter().all(|test| (test.rhs_is_slot, test.value) == shared));
    Some(FlatRay { first: *first, width: *width, table: table.clone(), guard, forward, shared_rhs })
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct PlanNode {
    pub first: u32,
    pub end: u32,
    pub kind: NodeKind,
    /// The node lies on a cycle: steps from it count against [`CYCLE_STEPS`].
    pub cyclic: bool,
    /// For a node whose only edge is an any-assignment: the range of `ReachPlan::filters` holding
    /// the edges of the chain after it up to its first comparison (empty if none), which the walk
    /// runs for each member in a tight loop (see [`filter_chain`]). The edges before `hoisted`
    /// are assignments whose value does not depend on the member: they run once, before the loop.
    pub filter: (u32, u32),
    pub hoisted: u32,
    /// The filter chain ends at the checked node, at its first comparison or past it (`line = Line(*);
    /// board[first[line]] == me; board[second[line]] == me; ...; -> b`, or `cell = Cell(*);
    /// board[cell] == empty; -> b`): a member passing the whole chain ends the check.
    pub filter_accepts: bool,
    /// Every per-member edge of the filter chain is a comparison: the member loop runs them with
    /// no other dispatch.
    pub filter_compares: bool,
    /// For a branching node: the range of `ReachPlan::restore` holding the slots its frame copies
    /// and puts back before each alternative (those some path below it may write, but not the
    /// slot of a lone any-assignment, which every alternative writes first).
    pub restore: (u32, u32),
    /// A branching node with two out-edges, a comparison and then anything but an
    /// any-assignment (connect four's `walk`: step back while the disc is ours, or stop here):
    /// the comparison runs before any frame is pushed, and when it fails the second edge is run
    /// as a chain step, since no alternative is left to come back for.
    pub guard_first: bool,
    /// For a [`NodeKind::Ray`] node: its index in `ReachPlan::rays`.
    pub ray: u32,
    /// For a [`NodeKind::Straight`] node whose paths have only flat steps: its index in
    /// `ReachPlan::straights` ([`NO_STRAIGHT`] otherwise).
    pub straight: u32,
}

/// No [`StraightSteps`] (see [`PlanNode::straight`]).
pub(crate) const NO_STRAIGHT: u32 = u32::MAX;
/// A [`StraightStep`] target: the member's path fails (a comparison failed or a dead end).
pub(crate) const STRAIGHT_FAIL: u32 = ACCEPT - 1;

/// A [`NodeKind::Straight`] node's per-member path compiled into one array of flat steps, when
/// every node below its any-assignment is a chain, a complement or a dead end whose edge has a
/// [`PlanFlat`] form. A step is one dispatch on its form and a jump to `pass` or `fail`; chains
/// of skips and tags are followed here, once. The walk over plan nodes costs a node look-up, a
/// dispatch on the node's kind, an edge look-up and a dispatch on the edge's flat form per step.
/// Same nodes, same order, same comparisons: the same member ends the check, and no flat step
/// can raise an error.
///
/// Two shapes of two nodes each run as one step (session 22, [`StraightOp`]): a guarded move, a
/// complement one of whose sides is a table step of a slot that rejoins the other side
/// (connect4.hrg's `if board[behind(dir, cursor)] == who { cursor = behind(dir, cursor) }`),
/// and a table step followed by a comparison (its `cursor = ahead(dir, cursor); check(board[
/// cursor] == who)`). Each runs the two edges' instructions in the walk's order, so it is exact;
/// it saves a dispatch, a jump, and for a guarded move keyed as its comparison one key read.
///
/// A path may end in a ray walk with a [`FlatRay`] form (connect4.rg's `dir = Dir(*); pos =
/// cell; walk`): a [`StraightOp::Ray`] step runs ray `rays[pass]` and ends the member,
/// accepting or failing (session 20: before, a ray kept the whole straight walk on plan nodes, a
/// node look-up, a kind dispatch and an edge dispatch per step and a call per ray).
#[derive(Debug)]
pub(crate) struct StraightSteps {
    /// The first step of every member's path (or [`ACCEPT`] / [`STRAIGHT_FAIL`]).
    pub entry: u32,
    pub steps: Box<[StraightStep]>,
    /// The ray walks ending paths: the stepped slot and the ray's flat form.
    pub rays: Box<[(u32, FlatRay)]>,
    /// The same path as a walk of one position in a register, when it has that shape.
    pub register: Option<RegisterWalk>,
    /// The path is `values[.0] = values[.1]` and then the one ray (connect4.rg's `pos = cell;
    /// walk`): run without the step loop's two dispatches and jumps per member.
    pub copy_then_ray: Option<(u32, u32)>,
}

/// A straight path that moves one position along one row of tables (connect4.hrg's
/// `fourThroughLast`): `walked = values[from]`, then guarded moves, then tested steps, in one
/// line, each keyed `values[row] * width + walked` (the first guarded move may read `from`, which
/// still equals `walked` there), each writing `walked` only, every test comparing with one
/// right-hand side (a literal or a slot the path does not write) and none reading `walked`'s own
/// slot through its map. Only the position changes along the path, so it lives in a register:
/// the row and the right-hand side are read once per member, a guarded move is a load of its
/// key's cell, a comparison and a conditional table load, a tested step a table load, a cell
/// load and a comparison, and `walked` is written once at the member's end (the value the steps
/// would leave there). Cost per member: two loops over two arrays, no dispatch. The same
/// comparisons on the same values as the steps: the same member ends the check, and the state
/// after it is the same.
#[derive(Debug)]
pub(crate) struct RegisterWalk {
    pub walked: u32,
    pub from: u32,
    pub row: u32,
    pub width: u32,
    /// The shared right-hand side: the literal, or the slot when `.0`.
    pub rhs: (bool, u32),
    /// The guarded moves, all before the tested steps: two loops with no dispatch.
    pub guarded: Box<[GuardedMove]>,
    /// Every guarded move is the same (connect4.hrg's `repeat 3 { if ... }`): once one does not
    /// move, the rest, reading the same cell, would not either, and are skipped.
    pub guarded_repeat: bool,
    pub tested: Box<[TestedStep]>,
}

/// A guarded move of a [`RegisterWalk`] at position `at`, key `row + at`: `at = table[key]` when
/// `(values[offsets[key]] == rhs) == move_if_equal`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct GuardedMove {
    pub offsets: Box<[u32]>,
    pub table: Box<[u32]>,
    pub move_if_equal: bool,
}

/// A tested step of a [`RegisterWalk`]: `at = table[row + at]`, then the path fails unless
/// `(values[offsets[k]] == rhs) == equal`, `k` the new key `row + at` (`keyed`) or `at` itself.
#[derive(Debug)]
pub(crate) struct TestedStep {
    pub table: Box<[u32]>,
    pub offsets: Box<[u32]>,
    pub keyed: bool,
    pub equal: bool,
}

impl RegisterWalk {
    /// [`StraightSteps::run`] for this shape. The frame's restore list is not put back between
    /// members: it holds at most `walked` (the path writes nothing else; see `plan`), which
    /// every member writes from `from` before anything reads it. Not inlined: inlined into
    /// `walk_straight`, its loops cost connect4.rg's straight steps (a ray) 1.9 % per playout.
    #[inline(never)]
    fn run(&self, values: &mut [SymbolId], slot: usize, members: &[SymbolId]) -> bool {
        for &member in members {
            values[slot] = member;
            // After the member's write: the right-hand side may be the member's slot.
            let rhs = if self.rhs.0 { values[self.rhs.1 as usize] } else { self.rhs.1 };
            let row = values[self.row as usize] * self.width;
            let mut at = values[self.from as usize];
            for step in self.guarded.iter() {
                let key = (row + at) as usize;
                if (values[step.offsets[key] as usize] == rhs) == step.move_if_equal {
                    at = step.table[key];
                } else if self.guarded_repeat {
                    break;
                }
            }
            let mut passed = true;
            for step in self.tested.iter() {
                at = step.table[(row + at) as usize];
                let key = if step.keyed { row + at } else { at };
                if (values[step.offsets[key as usize] as usize] == rhs) != step.equal {
                    passed = false;
                    break;
                }
            }
            values[self.walked as usize] = at;
            if passed {
                return true;
            }
        }
        false
    }

    /// The register form of `steps`, if they have that shape (see the type's comment).
    fn of(entry: u32, steps: &[StraightStep]) -> Option<RegisterWalk> {
        let [first, rest @ ..] = steps else { return None };
        let StraightOp::SetSlot { slot: walked, from } = first.op else { return None };
        if entry != 0 || first.pass != 1 || rest.is_empty() || walked == from {
            return None;
        }
        let mut row = None;
        let mut rhs = None;
        let (mut guarded, mut tested) = (Vec::new(), Vec::new());
        for (index, step) in rest.iter().enumerate() {
            let next = if index + 1 == rest.len() { ACCEPT } else { index as u32 + 2 };
            // One row slot, neither walked nor (through the map) read at `walked`.
            let mut keyed = |key: FlatKey, allow_from: bool| {
                let on_walk = key.second == walked || (allow_from && key.second == from);
                let same_row = *row.get_or_insert((key.first, key.width)) == (key.first, key.width);
                on_walk && same_row && key.first != walked && key.width != 0
            };
            let mut shared = |test: &FlatCompare| {
                let own = (test.rhs_is_slot, test.value);
                let reads_walked = (test.rhs_is_slot && test.value == walked) || test.offsets.contains(&walked);
                !reads_walked && *rhs.get_or_insert(own) == own
            };
            match &step.op {
                StraightOp::GuardedMove { key, test, when, slot, step: None, table }
                    if *slot == walked && (step.pass, step.fail) == (next, next) && tested.is_empty() =>
                {
                    if !(keyed(*key, index == 0) && shared(test)) {
                        return None;
                    }
                    let move_if_equal = test.equal == *when;
                    guarded.push(GuardedMove { offsets: test.offsets.clone(), table: table.clone(), move_if_equal });
                }
                StraightOp::StepTest { slot, step: key, table, key: test_key, test }
                    if *slot == walked && (step.pass, step.fail) == (next, STRAIGHT_FAIL) =>
                {
                    let keyed_test = *test_key == *key;
                    let own_test = *test_key == FlatKey::one(walked);
                    if !(keyed(*key, false) && (keyed_test || own_test) && shared(test)) {
                        return None;
                    }
                    let (offsets, equal) = (test.offsets.clone(), test.equal);
                    tested.push(TestedStep { table: table.clone(), offsets, keyed: keyed_test, equal });
                }
                _ => return None,
            }
        }
        let (row, width) = row?;
        let guarded_repeat = guarded.windows(2).all(|pair| pair[0] == pair[1]);
        let (guarded, tested) = (guarded.into(), tested.into());
        Some(RegisterWalk { walked, from, row, width, rhs: rhs?, guarded, guarded_repeat, tested })
    }
}

/// One step of [`StraightSteps`]: an assignment or a guarded move, after which the path goes on
/// at `pass`, or a comparison (alone or after a table step), after which it goes on at `pass`
/// when it holds and at `fail` otherwise (a step index, [`ACCEPT`] or [`STRAIGHT_FAIL`]); or
/// the ray `StraightSteps::rays[pass]`.
#[derive(Debug)]
pub(crate) struct StraightStep {
    pub op: StraightOp,
    pub pass: u32,
    pub fail: u32,
}

/// What a [`StraightStep`] runs.
#[derive(Debug)]
pub(crate) enum StraightOp {
    /// `values[slot] = values[from]`.
    SetSlot { slot: u32, from: u32 },
    /// `values[slot] = table[values[key]]`.
    SetLookup { slot: u32, key: u32, table: Box<[u32]> },
    /// `values[slot] = table[values[first] * width + values[second]]`.
    SetLookup2 { slot: u32, first: u32, second: u32, width: u32, table: Box<[u32]> },
    /// One plan edge's flat comparison. (The assignments are variants of their own: nested in
    /// here they cost connect4.rg's `pos = cell` a second dispatch, 1.8 % per playout.)
    Compare(PlanFlat),
    /// The ray `StraightSteps::rays[pass]`, which ends the member.
    Ray,
    /// A complement whose side `when` (the comparison holding or failing) leads to
    /// `values[slot] = table[step]`, which then rejoins the other side: the comparison, then the
    /// step if the comparison came out `when`. `step` is `None` when it is the comparison's own
    /// key (`board[behind[dir][cursor]] == who`, `cursor = behind[dir][cursor]`): read once.
    GuardedMove { key: FlatKey, test: FlatCompare, when: bool, slot: u32, step: Option<FlatKey>, table: Box<[u32]> },
    /// `values[slot] = table[step]`, then the comparison of the node after it (reading the state
    /// as written).
    StepTest { slot: u32, step: FlatKey, table: Box<[u32]>, key: FlatKey, test: FlatCompare },
}

/// A table key read from the state: `values[first] * width + values[second]`; a one-level key
/// `values[slot]` is `first = second = slot` with `width` 0 (one multiply more, no dispatch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FlatKey {
    pub first: u32,
    pub second: u32,
    pub width: u32,
}

impl FlatKey {
    #[inline(always)]
    fn read(self, values: &[SymbolId]) -> usize {
        (values[self.first as usize] * self.width + values[self.second as usize]) as usize
    }

    fn one(slot: u32) -> FlatKey {
        FlatKey { first: slot, second: slot, width: 0 }
    }
}

impl PlanFlat {
    /// A flat comparison as its key and its test (the map's base folded into the offsets).
    fn keyed_compare(&self) -> Option<(FlatKey, FlatCompare)> {
        let fold =
            |base: u32, offsets: &[u32]| offsets.iter().map(|&o| base.checked_add(o)).collect::<Option<Box<_>>>();
        let (key, base, offsets, rhs_is_slot, value, equal) = match self {
            PlanFlat::IndexedLit { base, key, offsets, lit, equal } => {
                (FlatKey::one(*key), base, offsets, false, lit, equal)
            }
            PlanFlat::IndexedSlot { base, key, offsets, slot, equal } => {
                (FlatKey::one(*key), base, offsets, true, slot, equal)
            }
            PlanFlat::Indexed2Lit { base, first, second, width, offsets, lit, equal } => {
                (FlatKey { first: *first, second: *second, width: *width }, base, offsets, false, lit, equal)
            }
            PlanFlat::Indexed2Slot { base, first, second, width, offsets, slot, equal } => {
                (FlatKey { first: *first, second: *second, width: *width }, base, offsets, true, slot, equal)
            }
            _ => return None,
        };
        let offsets = fold(*base, offsets)?;
        Some((key, FlatCompare { offsets, rhs_is_slot, value: *value, equal: *equal }))
    }

    /// A flat table step `values[slot] = table[key]` as its slot, key and table.
    fn keyed_step(&self) -> Option<(u32, FlatKey, &[u32])> {
        match self {
            PlanFlat::SetLookup { slot, key, table } => Some((*slot, FlatKey::one(*key), table)),
            PlanFlat::SetLookup2 { slot, first, second, width, table } => {
                Some((*slot, FlatKey { first: *first, second: *second, width: *width }, table))
            }
            _ => None,
        }
    }
}

impl StraightSteps {
    /// The walk of a straight node whose any-assignment writes `members` to `slot`: each member
    /// in turn, `restore`'s slots put back from `saved` before every member but the first, runs
    /// its path's steps; whether some member reaches the checked node, `None` when a ray gave up.
    /// `positions` is the rays' buffer.
    #[inline(always)]
    pub(crate) fn run(
        &self,
        values: &mut [SymbolId],
        slot: usize,
        members: &[SymbolId],
        restore: &[u32],
        saved: &[SymbolId],
        positions: &mut Vec<SymbolId>,
    ) -> Option<bool> {
        if let Some(walk) = &self.register {
            return Some(walk.run(values, slot, members));
        }
        if let (Some((to, from)), [(ray_slot, ray)]) = (self.copy_then_ray, &self.rays[..]) {
            for (index, &member) in members.iter().enumerate() {
                if index > 0 {
                    for (&copy, &s) in saved.iter().zip(restore) {
                        values[s as usize] = copy;
                    }
                }
                values[slot] = member;
                values[to as usize] = values[from as usize];
                if ray.walk(values, *ray_slot as usize, positions)? {
                    return Some(true);
                }
            }
            return Some(false);
        }
        for (index, &member) in members.iter().enumerate() {
            if index > 0 {
                for (&copy, &s) in saved.iter().zip(restore) {
                    values[s as usize] = copy;
                }
            }
            values[slot] = member;
            let mut at = self.entry;
            while let Some(step) = self.steps.get(at as usize) {
                let holds = match &step.op {
                    StraightOp::GuardedMove { key, test, when, slot, step, table } => {
                        let key = key.read(values);
                        if test.holds_at(values, key) == *when {
                            let to = step.map_or(key, |step| step.read(values));
                            values[*slot as usize] = table[to];
                        }
                        true
                    }
                    StraightOp::StepTest { slot, step, table, key, test } => {
                        values[*slot as usize] = table[step.read(values)];
                        test.holds_at(values, key.read(values))
                    }
                    StraightOp::SetSlot { slot, from } => {
                        values[*slot as usize] = values[*from as usize];
                        true
                    }
                    StraightOp::SetLookup { slot, key, table } => {
                        values[*slot as usize] = table[values[*key as usize] as usize];
                        true
                    }
                    StraightOp::SetLookup2 { slot, first, second, width, table } => {
                        values[*slot as usize] =
                            table[(values[*first as usize] * *width + values[*second as usize]) as usize];
                        true
                    }
                    StraightOp::Ray => {
                        let (ray_slot, ray) = &self.rays[step.pass as usize];
                        if ray.walk(values, *ray_slot as usize, positions)? {
                            return Some(true);
                        }
                        break;
                    }
                    StraightOp::Compare(comparison) => comparison.holds(values) == Some(true),
                };
                at = if holds { step.pass } else { step.fail };
            }
            if at == ACCEPT {
                return Some(true);
            }
        }
        Some(false)
    }
}

/// The [`StraightSteps`] of the straight walk from plan node `entry` (the any-assignment's
/// target), or `None` when some node on the way has no flat form (a ray, a general operand).
fn straight_steps(entry: u32, nodes: &[PlanNode], edges: &[PlanEdge], rays: &[Ray]) -> Option<StraightSteps> {
    let mut step_of = vec![u32::MAX; nodes.len()];
    let mut order: Vec<u32> = Vec::new();
    // Where a path reaching `target` goes: skips followed, every dead end one place.
    let landing = |mut target: u32| loop {
        if target == ACCEPT {
            return ACCEPT;
        }
        let node = &nodes[target as usize];
        match node.kind {
            NodeKind::Dead => return STRAIGHT_FAIL,
            NodeKind::Chain if !node.cyclic && matches!(edges[node.first as usize].op, PlanOp::Skip) => {
                target = edges[node.first as usize].target;
            }
            _ => return target,
        }
    };
    // A plan node that runs as its own step (not cyclic, not a ray), if `target` is one.
    let plain = |target: u32| {
        nodes
            .get(target as usize)
            .filter(|node| matches!(node.kind, NodeKind::Chain | NodeKind::Complement) && !node.cyclic)
    };
    // The step a path reaching `target` runs next: skips followed, dead ends failing.
    let mut resolve = |mut target: u32, order: &mut Vec<u32>| -> Option<u32> {
        loop {
            if target == ACCEPT {
                return Some(ACCEPT);
            }
            let node = &nodes[target as usize];
            match node.kind {
                NodeKind::Dead => return Some(STRAIGHT_FAIL),
                NodeKind::Chain if matches!(edges[node.first as usize].op, PlanOp::Skip) => {
                    target = edges[node.first as usize].target;
                }
                // A flat ray ends the path; it is cyclic, but its loop is its own.
                NodeKind::Chain | NodeKind::Complement | NodeKind::Ray
                    if match node.kind {
                        NodeKind::Ray => rays[node.ray as usize].flat.is_some(),
                        _ => !node.cyclic,
                    } =>
                {
                    if step_of[target as usize] == u32::MAX {
                        step_of[target as usize] = order.len() as u32;
                        order.push(target);
                    }
                    return Some(step_of[target as usize]);
                }
                _ => return None,
            }
        }
    };
    let entry = resolve(entry, &mut order)?;
    let mut steps = Vec::new();
    let mut straight_rays = Vec::new();
    while steps.len() < order.len() {
        let node = &nodes[order[steps.len()] as usize];
        if node.kind == NodeKind::Ray {
            let ray = &rays[node.ray as usize];
            let flat = ray.flat.clone().expect("resolved above");
            steps.push(StraightStep { op: StraightOp::Ray, pass: straight_rays.len() as u32, fail: STRAIGHT_FAIL });
            straight_rays.push((ray.slot, flat));
            continue;
        }
        let edge = &edges[node.first as usize];
        if node.kind == NodeKind::Complement {
            // A guarded move: one side a table step that lands where the other side lands.
            let (holds, fails) = (edge.target, edges[node.first as usize + 1].target);
            let moving = [(holds, fails, true), (fails, holds, false)].into_iter().find_map(|(side, other, when)| {
                let mover = plain(landing(side)).filter(|m| m.kind == NodeKind::Chain)?;
                let move_edge = &edges[mover.first as usize];
                let (slot, step, table) = move_edge.flat.keyed_step()?;
                (landing(move_edge.target) == landing(other)).then_some((slot, step, table, other, when))
            });
            if let (Some((slot, step, table, after, when)), Some((key, test))) = (moving, edge.flat.keyed_compare()) {
                let pass = resolve(after, &mut order)?;
                let step = (step != key).then_some(step);
                let op = StraightOp::GuardedMove { key, test, when, slot, step, table: table.into() };
                steps.push(StraightStep { op, pass, fail: pass });
                continue;
            }
        }
        if node.kind == NodeKind::Chain {
            // A table step and the comparison right after it.
            let tested = plain(landing(edge.target)).map(|t| (t, &edges[t.first as usize]));
            if let (Some((slot, step, table)), Some((tested, test_edge))) = (edge.flat.keyed_step(), tested) {
                if let Some((key, test)) = test_edge.flat.keyed_compare() {
                    let pass = resolve(test_edge.target, &mut order)?;
                    let fail = match tested.kind {
                        NodeKind::Complement => resolve(edges[tested.first as usize + 1].target, &mut order)?,
                        _ => STRAIGHT_FAIL,
                    };
                    let op = StraightOp::StepTest { slot, step, table: table.into(), key, test };
                    steps.push(StraightStep { op, pass, fail });
                    continue;
                }
            }
        }
        let (op, comparison) = match PlanFlat::of(&edge.op) {
            PlanFlat::General => return None,
            PlanFlat::SetSlot { slot, from } => (StraightOp::SetSlot { slot, from }, false),
            PlanFlat::SetLookup { slot, key, table } => (StraightOp::SetLookup { slot, key, table }, false),
            PlanFlat::SetLookup2 { slot, first, second, width, table } => {
                (StraightOp::SetLookup2 { slot, first, second, width, table }, false)
            }
            comparison => (StraightOp::Compare(comparison), true),
        };
        let pass = resolve(edge.target, &mut order)?;
        let fail = match node.kind {
            NodeKind::Complement => resolve(edges[node.first as usize + 1].target, &mut order)?,
            _ => STRAIGHT_FAIL,
        };
        if node.kind == NodeKind::Complement && !comparison {
            return None;
        }
        steps.push(StraightStep { op, pass, fail });
    }
    let register = RegisterWalk::of(entry, &steps);
    let copy_then_ray = match &steps[..] {
        [StraightStep { op: StraightOp::SetSlot { slot, from }, pass: 1, .. }, StraightStep { op: StraightOp::Ray, .. }]
            if entry == 0 =>
        {
            Some((*slot, *from))
        }
        _ => None,
    };
    Some(StraightSteps { entry, steps: steps.into(), rays: straight_rays.into(), register, copy_then_ray })
}

/// The plan of one reachability pair; local node 0 is the check's start.
#[derive(Debug)]
pub(crate) struct ReachPlan {
    pub nodes: Box<[PlanNode]>,
    pub edges: Box<[PlanEdge]>,
    /// Every slot the plan may write.
    pub slots: Box<[u32]>,
    /// The slots branching frames restore (see [`PlanNode::restore`]).
    pub restore: Box<[u32]>,
    /// Plan edge indices of the filter chains (see [`PlanNode::filter`]).
    pub filters: Box<[u32]>,
    /// The whole check is one filter: the start node's only edge is an any-assignment whose
    /// filter chain is comparisons only and ends at the checked node ([`PlanNode::filter_accepts`],
    /// [`PlanNode::filter_compares`]; tic-tac-toe's `line = Line(*)` and three comparisons,
    /// `cell = Cell(*); board[cell] == empty`). The check is then "some member passes the
    /// chain", run as one loop without frames (the walk's frame would try the members in the
    /// same order, skip those failing a comparison and accept the first passing one).
    pub lone_filter: bool,
    /// The ray walks of [`NodeKind::Ray`] nodes.
    pub rays: Box<[Ray]>,
    /// The flat paths of [`NodeKind::Straight`] nodes (see [`PlanNode::straight`]).
    pub straights: Box<[StraightSteps]>,
    /// A [`ReachPlan::lone_filter`]'s comparisons resolved for its member loop, when there are
    /// two to [`MEMBER_TESTS`] of them and each is `map[member] == constant` or `map[member] ==
    /// other slot` (tic-tac-toe's `board[lineFirst[line]] == me`); empty otherwise. Resolved here
    /// once instead of at every check (tic-tac-toe's line test ran about 120 instructions a
    /// check to build them).
    pub member_tests: Box<[MemberTest]>,
    /// The whole walk compiled into steps with static frames, when it has that shape (module
    /// `plan_steps`; chess's `attacked`).
    pub steps: Option<PlanSteps>,
}

/// At most this many comparisons get [`MemberTest`]s (tic-tac-toe's line test has three). A
/// single comparison keeps its own loop: building the tests at every check cost connect4.rg's
/// `freeSearch` more than the dispatch they save (session 15).
pub(crate) const MEMBER_TESTS: usize = 4;

/// One comparison of a lone filter keyed by the member itself: `values[base + offsets[member]]
/// == rhs` (or `!=`), the right-hand side a literal or a slot the chain does not write (read
/// once per check, before the member loop).
#[derive(Debug)]
pub(crate) struct MemberTest {
    pub base: u32,
    pub offsets: Box<[u32]>,
    pub rhs: MemberRhs,
    pub equal: bool,
}

/// The right-hand side of a [`MemberTest`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum MemberRhs {
    Lit(SymbolId),
    Slot(u32),
}

impl MemberRhs {
    /// The value compared against on `values`: the literal, or the slot's value.
    #[inline(always)]
    pub(crate) fn read(self, values: &[SymbolId]) -> SymbolId {
        match self {
            MemberRhs::Lit(lit) => lit,
            MemberRhs::Slot(from) => values[from as usize],
        }
    }
}

/// The [`MemberTest`]s of a lone filter whose per-member chain is `chain` over the member slot
/// `slot`, or none (see [`ReachPlan::member_tests`]).
fn member_tests(plan_edges: &[PlanEdge], chain: &[u32], slot: u32) -> Box<[MemberTest]> {
    if !(2..=MEMBER_TESTS).contains(&chain.len()) {
        return Box::new([]);
    }
    let tests: Option<Vec<MemberTest>> = chain
        .iter()
        .map(|&edge| match &plan_edges[edge as usize].op {
            PlanOp::CompareIndexedLit { base, key, offsets, lit, equal } if *key == slot => {
                Some(MemberTest { base: *base, offsets: offsets.clone(), rhs: MemberRhs::Lit(*lit), equal: *equal })
            }
            PlanOp::CompareIndexedSlot { base, key, offsets, slot: rhs, equal } if *key == slot && *rhs != slot => {
                Some(MemberTest { base: *base, offsets: offsets.clone(), rhs: MemberRhs::Slot(*rhs), equal: *equal })
            }
            _ => None,
        })
        .collect();
    tests.map_or_else(|| Box::new([]) as Box<[MemberTest]>, Vec::into_boxed_slice)
}

/// The plan of `? from -> to`, or `None` when the sub-automaton is not simple (see the module
/// comment). `node_edges` are the automaton's out-edge ranges, `selects` marks nodes whose
/// out-edges are pairwise exclusive guards, `context` is the pair's graph analysis.
pub(crate) fn plan(
    from: NodeId,
    to: NodeId,
    edges: &[FastEdge],
    node_edges: &[(u32, u32)],
    selects: &[bool],
    context: &Context,
) -> Option<ReachPlan> {
    if from == to {
        return None;
    }
    let mut local = vec![u32::MAX; node_edges.len()];
    let mut order = vec![from];
    local[from as usize] = 0;
    let mut next = 0;
    while next < order.len() {
        let node = order[next];
        next += 1;
        let (first, end) = node_edges[node as usize];
        for edge in &edges[first as usize..end as usize] {
            let target = edge.target;
            if target != to && local[target as usize] == u32::MAX {
                if order.len() >= MAX_NODES {
                    return None;
                }
                local[target as usize] = order.len() as u32;
                order.push(target);
            }
        }
    }
    let mut slots: Vec<u32> = Vec::new();
    let mut plan_nodes = Vec::with_capacity(order.len());
    let mut plan_edges = Vec::new();
    for &node in &order {
        let flags = context.flags[node as usize];
        let (first, end) = node_edges[node as usize];
        let out = &edges[first as usize..end as usize];
        let kind = match out {
            [] => NodeKind::Dead,
            [only] if !matches!(only.ins, Ins::SetAny { .. }) => NodeKind::Chain,
            [a, b] if selects[node as usize] && complementary(&a.ins, &b.ins) => NodeKind::Complement,
            _ if selects[node as usize] => NodeKind::Select,
            _ => NodeKind::Branch,
        };
        let cyclic = flags & CYCLIC != 0;
        if cyclic && kind == NodeKind::Branch && context.progress[node as usize].is_none() {
            // A branching node on a cycle needs the general search's visited set, unless a
            // progress slot shows that states cannot repeat there (see `graph::Progress`).
            return None;
        }
        let start = plan_edges.len() as u32;
        for edge in out {
            let op = match &edge.ins {
                Ins::Skip | Ins::Tag(_) | Ins::TagVal(_) => PlanOp::Skip,
                Ins::Set { target: Target::Fixed(slot), value } => {
                    slots.push(*slot);
                    PlanOp::Set { slot: *slot, value: value.clone() }
                }
                Ins::Compare { lhs, rhs, equal } => compare_op(lhs, rhs, *equal),
                Ins::SetAny { target: Target::Fixed(slot), members } => {
                    slots.push(*slot);
                    PlanOp::SetAny { slot: *slot, members: members.clone() }
                }
                Ins::Reach { from, to, negated, context } => {
                    PlanOp::Reach { from: *from, to: *to, negated: *negated, context: *context }
                }
                // Writes through computed keys or whole blocks: the general search runs them.
                Ins::Set { .. } | Ins::SetAny { .. } | Ins::SetBlock { .. } | Ins::CompareBlock { .. } => return None,
            };
            let target = if edge.target == to { ACCEPT } else { local[edge.target as usize] };
            let flat = PlanFlat::of(&op);
            plan_edges.push(PlanEdge { op, target, flat });
        }
        plan_nodes.push(PlanNode {
            first: start,
            end: plan_edges.len() as u32,
            kind,
            cyclic,
            filter: (0, 0),
            hoisted: 0,
            filter_accepts: false,
            filter_compares: false,
            restore: (0, 0),
            guard_first: kind == NodeKind::Branch
                && matches!(out, [a, b] if matches!(a.ins, Ins::Compare { .. }) && !matches!(b.ins, Ins::SetAny { .. })),
            ray: 0,
            straight: NO_STRAIGHT,
        });
    }
    slots.sort_unstable();
    slots.dedup();
    if slots.len() > MAX_SLOTS {
        return None;
    }
    // Per node, the slots (as a bit mask over `slots`) some path from it may write: a fixpoint.
    let bit = |slot: u32| 1u32 << slots.binary_search(&slot).expect("collected above");
    let written = |op: &PlanOp| match op {
        PlanOp::Set { slot, .. } | PlanOp::SetAny { slot, .. } => bit(*slot),
        _ => 0,
    };
    let mut below = vec![0u32; plan_nodes.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (index, node) in plan_nodes.iter().enumerate() {
            let mut mask = below[index];
            for edge in &plan_edges[node.first as usize..node.end as usize] {
                mask |= written(&edge.op);
                if edge.target != ACCEPT {
                    mask |= below[edge.target as usize];
                }
            }
            if mask != below[index] {
                below[index] = mask;
                changed = true;
            }
        }
    }
    let mut restore = Vec::new();
    for (index, node) in plan_nodes.iter_mut().enumerate() {
        if node.kind != NodeKind::Branch {
            continue;
        }
        let mut mask = below[index];
        if let [PlanEdge { op: PlanOp::SetAny { slot, .. }, .. }] = &plan_edges[node.first as usize..node.end as usize]
        {
            // Every alternative writes the slot before anything reads it; the enclosing frame
            // (or the check's end) puts it back with everything else the alternatives wrote.
            mask &= !bit(*slot);
        }
        let start = restore.len() as u32;
        restore.extend(slots.iter().enumerate().filter(|&(i, _)| mask & (1 << i) != 0).map(|(_, &slot)| slot));
        node.restore = (start, restore.len() as u32);
    }
    let mut filters = Vec::new();
    for index in 0..plan_nodes.len() {
        let node = plan_nodes[index];
        if let [PlanEdge { op: PlanOp::SetAny { slot, .. }, target, .. }] =
            &plan_edges[node.first as usize..node.end as usize]
        {
            let (chain, accepts) = filter_chain(*slot, *target, &plan_nodes, &plan_edges);
            let (hoisted, per_member) = hoist(*slot, &chain, &plan_edges);
            let start = filters.len() as u32;
            filters.extend(hoisted);
            plan_nodes[index].hoisted = filters.len() as u32;
            plan_nodes[index].filter_compares =
                !per_member.is_empty() && per_member.iter().all(|&e| plan_edges[e as usize].op.is_comparison());
            filters.extend(per_member);
            plan_nodes[index].filter = (start, filters.len() as u32);
            plan_nodes[index].filter_accepts = accepts;
        }
    }
    let mut rays = Vec::new();
    for index in 0..plan_nodes.len() {
        if let Some(ray) = ray_at(index as u32, &plan_nodes, &plan_edges, &restore) {
            plan_nodes[index].kind = NodeKind::Ray;
            plan_nodes[index].ray = rays.len() as u32;
            rays.push(ray);
        }
    }
    let mut straights = Vec::new();
    for index in 0..plan_nodes.len() {
        if runs_straight(index, &plan_nodes, &plan_edges) {
            plan_nodes[index].kind = NodeKind::Straight;
        }
    }
    for index in 0..plan_nodes.len() {
        if plan_nodes[index].kind == NodeKind::Straight {
            let choice = &plan_edges[plan_nodes[index].first as usize];
            if let Some(mut steps) = straight_steps(choice.target, &plan_nodes, &plan_edges, &rays) {
                // The register walk skips the restore list, which must hold nothing but `walked`.
                let (first, end) = plan_nodes[index].restore;
                if let Some(walk) = &steps.register {
                    if restore[first as usize..end as usize].iter().any(|&s| s != walk.walked) {
                        steps.register = None;
                    }
                }
                plan_nodes[index].straight = straights.len() as u32;
                straights.push(steps);
            }
        }
    }
    let start = plan_nodes[0];
    let lone_filter = start.end == start.first + 1
        && matches!(plan_edges[start.first as usize].op, PlanOp::SetAny { .. })
        && start.kind == NodeKind::Branch
        && !start.cyclic
        && start.filter_accepts
        && start.filter_compares;
    let member_tests = match lone_filter.then(|| &plan_edges[start.first as usize].op) {
        Some(PlanOp::SetAny { slot, .. }) => {
            member_tests(&plan_edges, &filters[start.hoisted as usize..start.filter.1 as usize], *slot)
        }
        _ => Box::new([]),
    };
    let steps = if lone_filter { None } else { plan_steps(&plan_nodes, &plan_edges, &below, &restore) };
    Some(ReachPlan {
        steps,
        member_tests,
        lone_filter,
        nodes: plan_nodes.into(),
        edges: plan_edges.into(),
        slots: slots.into(),
        restore: restore.into(),
        filters: filters.into(),
        rays: rays.into(),
        straights: straights.into(),
    })
}

/// The ray walk at plan node `node`, if it has that shape (see [`Ray`]): a branching node that
/// runs its guard first, whose guard leads to a chain node stepping one slot back to `node`,
/// whose frame restores only that slot (nothing else is written below), whose second edge and
/// the chain after it are comparisons ending at the checked node, and which has a [`FlatRay`]
/// form.
fn ray_at(node: u32, nodes: &[PlanNode], edges: &[PlanEdge], restore: &[u32]) -> Option<Ray> {
    let current = &nodes[node as usize];
    if current.kind != NodeKind::Branch || !current.guard_first || current.end != current.first + 2 {
        return None;
    }
    let guard = &edges[current.first as usize];
    if !guard.op.is_comparison() || guard.target == ACCEPT {
        return None;
    }
    let stepper = &nodes[guard.target as usize];
    if stepper.kind != NodeKind::Chain {
        return None;
    }
    let step_edge = &edges[stepper.first as usize];
    let PlanOp::Set { slot, value } = &step_edge.op else { return None };
    if stepper.kind != NodeKind::Chain || step_edge.target != node {
        return None;
    }
    if restore[current.restore.0 as usize..current.restore.1 as usize] != [*slot] {
        return None;
    }
    let mut forward = vec![current.first + 1];
    let mut edge = &edges[current.first as usize + 1];
    loop {
        if !edge.op.is_comparison() || forward.len() > 16 {
            return None;
        }
        if edge.target == ACCEPT {
            break;
        }
        let next = &nodes[edge.target as usize];
        if next.kind != NodeKind::Chain || next.cyclic {
            return None;
        }
        forward.push(next.first);
        edge = &edges[next.first as usize];
    }
    // Only flat rays pay: a ray with general operands (reversi's `board[cursor] == other[who]`)
    // runs the same tests as the frames, one dispatch each, and cost reversi 4.3 %.
    let flat = Some(flat_ray(&guard.op, *slot, value, &forward, edges)?);
    Some(Ray { guard: current.first, slot: *slot, step: value.clone(), forward: forward.into(), flat })
}

/// Whether plan node `node` is a [`NodeKind::Straight`] node: a non-cyclic branching node whose
/// only edge is an any-assignment with no filter chain, from whose target every node reached
/// before the checked node is a non-cyclic chain or complement, a dead end or a ray walk.
fn runs_straight(node: usize, nodes: &[PlanNode], edges: &[PlanEdge]) -> bool {
    let current = &nodes[node];
    if current.kind != NodeKind::Branch || current.cyclic || current.end != current.first + 1 {
        return false;
    }
    let edge = &edges[current.first as usize];
    if !matches!(edge.op, PlanOp::SetAny { .. }) || current.filter.0 != current.filter.1 {
        return false;
    }
    let mut seen = vec![false; nodes.len()];
    let mut pending = vec![edge.target];
    while let Some(at) = pending.pop() {
        if at == ACCEPT || std::mem::replace(&mut seen[at as usize], true) {
            continue;
        }
        let next = &nodes[at as usize];
        match next.kind {
            // A ray's steps and comparisons are its own; it ends the member either way.
            NodeKind::Dead | NodeKind::Ray => {}
            NodeKind::Chain | NodeKind::Complement if !next.cyclic => {
                pending.extend(edges[next.first as usize..next.end as usize].iter().map(|e| e.target));
            }
            _ => return false,
        }
    }
    true
}

impl PlanOp {
    /// Whether the operation is a comparison (writes nothing, cannot fail with an error).
    pub(crate) fn is_comparison(&self) -> bool {
        matches!(
            self,
            PlanOp::Compare { .. }
                | PlanOp::CompareIndexed { .. }
                | PlanOp::CompareIndexedLit { .. }
                | PlanOp::CompareIndexedSlot { .. }
                | PlanOp::CompareIndexedLookup { .. }
                | PlanOp::CompareIndexed2 { .. }
        )
    }

    /// A comparison's two operands as general values (for the analyses at construction).
    fn operands(&self) -> Option<(Val, Val)> {
        let indexed =
            |base: &u32, key: &u32, offsets: &[u32]| Val::Indexed { base: *base, key: *key, offsets: offsets.into() };
        Some(match self {
            PlanOp::Compare { lhs, rhs, .. } => (lhs.clone(), rhs.clone()),
            PlanOp::CompareIndexed { base, key, offsets, rhs, .. } => (indexed(base, key, offsets), rhs.clone()),
            PlanOp::CompareIndexedLit { base, key, offsets, lit, .. } => (indexed(base, key, offsets), Val::Lit(*lit)),
            PlanOp::CompareIndexedSlot { base, key, offsets, slot, .. } => {
                (indexed(base, key, offsets), Val::Slot(*slot))
            }
            PlanOp::CompareIndexedLookup { base, key, offsets, rhs_key, table, .. } => {
                (indexed(base, key, offsets), Val::Lookup { key: *rhs_key, table: table.clone() })
            }
            PlanOp::CompareIndexed2 { base, first, second, width, offsets, rhs, .. } => (
                Val::Indexed2 { base: *base, first: *first, second: *second, width: *width, offsets: offsets.clone() },
                rhs.clone(),
            ),
            _ => return None,
        })
    }
}

/// The chain of edges after an any-assignment to `slot` (from its target `node`) up to and
/// including its first comparison, when members failing it can be skipped in a tight loop: every
/// node on the way is a non-cyclic chain, every edge before the comparison writes a fixed slot,
/// and no edge reads a slot that it or a later edge of the chain writes (so a member never sees a
/// value the previous member's run left behind). Empty when there is no such chain.
///
/// When the nodes after that comparison are non-cyclic chains of the same kinds of edges that
/// end at the checked node, the chain takes them all and the flag is set: a member that fails
/// any comparison of it then fails as it would in the walk (which would backtrack to the next
/// member from there), and one that passes them all ends the check.
fn filter_chain(slot: u32, mut node: u32, nodes: &[PlanNode], edges: &[PlanEdge]) -> (Vec<u32>, bool) {
    let mut chain: Vec<u32> = Vec::new();
    loop {
        if node == ACCEPT || chain.len() >= 16 {
            return (Vec::new(), false);
        }
        let current = &nodes[node as usize];
        if current.kind != NodeKind::Chain || current.cyclic {
            return (Vec::new(), false);
        }
        let edge = &edges[current.first as usize];
        chain.push(current.first);
        match &edge.op {
            PlanOp::Set { .. } | PlanOp::Skip => node = edge.target,
            op if op.is_comparison() => {
                node = edge.target;
                break;
            }
            _ => return (Vec::new(), false),
        }
    }
    // Past the first comparison: only a chain that reaches the checked node is taken.
    let mut rest: Vec<u32> = Vec::new();
    let accepts = loop {
        if node == ACCEPT {
            break true;
        }
        let current = &nodes[node as usize];
        if current.kind != NodeKind::Chain || current.cyclic || chain.len() + rest.len() >= 16 {
            break false;
        }
        let edge = &edges[current.first as usize];
        match &edge.op {
            op if matches!(op, PlanOp::Set { .. } | PlanOp::Skip) || op.is_comparison() => {
                rest.push(current.first);
                node = edge.target;
            }
            _ => break false,
        }
    };
    if accepts {
        let full: Vec<u32> = chain.iter().chain(&rest).copied().collect();
        if chain_is_fresh(slot, &full, edges) {
            return (full, true);
        }
    }
    if chain_is_fresh(slot, &chain, edges) {
        (chain, false)
    } else {
        (Vec::new(), false)
    }
}

/// No edge of `chain` reads a slot that it or a later edge writes, and none writes `slot`.
fn chain_is_fresh(slot: u32, chain: &[u32], edges: &[PlanEdge]) -> bool {
    // `written[i]`: the slot edge `chain[i]` writes, if any.
    let written: Vec<Option<u32>> = chain
        .iter()
        .map(|&e| match &edges[e as usize].op {
            PlanOp::Set { slot, .. } => Some(*slot),
            _ => None,
        })
        .collect();
    if written.contains(&Some(slot)) {
        return false;
    }
    for (position, &e) in chain.iter().enumerate() {
        let reads_later_write = |value: &Val| written[position..].iter().flatten().any(|&w| may_read(value, w));
        let stale = match &edges[e as usize].op {
            PlanOp::Set { value, .. } => reads_later_write(value),
            op => match op.operands() {
                Some((lhs, rhs)) => reads_later_write(&lhs) || reads_later_write(&rhs),
                None => true,
            },
        };
        if stale {
            return false;
        }
    }
    true
}

/// Splits a filter chain after an any-assignment to `slot` into the assignments whose value is
/// the same for every member (they read neither `slot` nor a slot written by an earlier
/// member-dependent edge) and the rest, in chain order. Running the first group once before the
/// member loop is the same as running it in place: by [`filter_chain`]'s condition no edge reads
/// a slot written later in the chain.
///
/// Only assignments before the chain's first comparison are hoisted: one after it runs in the
/// walk only for members passing that comparison.
fn hoist(slot: u32, chain: &[u32], edges: &[PlanEdge]) -> (Vec<u32>, Vec<u32>) {
    let mut varying = vec![slot];
    let (mut hoisted, mut per_member) = (Vec::new(), Vec::new());
    let mut compared = false;
    for &e in chain {
        match &edges[e as usize].op {
            PlanOp::Set { value, .. } if !compared && !varying.iter().any(|&v| may_read(value, v)) => hoisted.push(e),
            PlanOp::Set { slot: written, .. } => {
                varying.push(*written);
                per_member.push(e);
            }
            op => {
                compared |= op.is_comparison();
                per_member.push(e);
            }
        }
    }
    (hoisted, per_member)
}

/// Whether reading `value` may read state slot `slot`.
pub(crate) fn may_read(value: &Val, slot: u32) -> bool {
    let in_map = |base: u32, offsets: &[u32]| slot >= base && offsets.contains(&(slot - base));
    match value {
        Val::Lit(_) => false,
        Val::Slot(s) => *s == slot,
        Val::Lookup { key, .. } => *key == slot,
        Val::LookupOf { key, .. } => may_read(key, slot),
        Val::Indexed { base, key, offsets } => *key == slot || in_map(*base, offsets),
        Val::IndexedBy { base, key, offsets } => may_read(key, slot) || in_map(*base, offsets),
        Val::Lookup2Slots { first, second, .. } => *first == slot || *second == slot,
        Val::Indexed2 { base, first, second, offsets, .. } => {
            *first == slot || *second == slot || in_map(*base, offsets)
        }
        Val::Lookup2 { first, second, .. } => may_read(first, slot) || may_read(second, slot),
        Val::Path(_) => true,
    }
}

/// A comparison, specialised when one side is a state map read with a key in a slot.
fn compare_op(lhs: &Val, rhs: &Val, equal: bool) -> PlanOp {
    match (lhs, rhs) {
        (Val::Indexed { base, key, offsets }, other) | (other, Val::Indexed { base, key, offsets }) => {
            let (base, key, offsets) = (*base, *key, offsets.clone());
            match other {
                Val::Lit(lit) => PlanOp::CompareIndexedLit { base, key, offsets, lit: *lit, equal },
                Val::Slot(slot) => PlanOp::CompareIndexedSlot { base, key, offsets, slot: *slot, equal },
                Val::Lookup { key: rhs_key, table } => {
                    PlanOp::CompareIndexedLookup { base, key, offsets, rhs_key: *rhs_key, table: table.clone(), equal }
                }
                _ => PlanOp::CompareIndexed { base, key, offsets, rhs: other.clone(), equal },
            }
        }
        (Val::Indexed2 { base, first, second, width, offsets }, other)
        | (other, Val::Indexed2 { base, first, second, width, offsets }) => PlanOp::CompareIndexed2 {
            base: *base,
            first: *first,
            second: *second,
            width: *width,
            offsets: offsets.clone(),
            rhs: other.clone(),
            equal,
        },
        _ => PlanOp::Compare { lhs: lhs.clone(), rhs: rhs.clone(), equal },
    }
}

/// `a == b` and `a != b` (in either order of operands and edges).
fn complementary(first: &Ins, second: &Ins) -> bool {
    matches!((first, second), (Ins::Compare { equal: e1, .. }, Ins::Compare { equal: e2, .. }) if e1 != e2)
        && exclusive(first, second)
        && match (first, second) {
            (Ins::Compare { lhs: a, rhs: b, .. }, Ins::Compare { lhs: c, rhs: d, .. }) => {
                (a == c && b == d) || (a == d && b == c)
            }
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::builder::AutomatonBuilder;
    use crate::fast::plan_steps::{FanAlternative, MemberFilter, ProgramOp};
    use crate::fast::FastEngine;

    fn engine(edges: &[(&str, &str, &str)]) -> FastEngine {
        engine_with(edges, &[])
    }

    /// The test game's types, `next`, `board` and `cursor`, plus `variables` (name, type, initial
    /// value), with `edges`.
    fn engine_with(edges: &[(&str, &str, &str)], variables: &[(&str, &str, &str)]) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Cell", "{a, b, c, null}")
            .typedef("Disc", "{empty, full}")
            .constant("next", "Cell -> Cell", "{a: b, b: c, :null}")
            .constant(
                "jump",
                "Cell -> Cell -> Cell",
                "{a: {a: b, b: c, c: a, :null}, b: {a: c, b: a, :null}, c: {c: b, :a}, :{:null}}",
            )
            .variable("board", "Cell -> Disc", "{:empty}")
            .variable("cursor", "Cell", "a");
        for (name, type_name, initial) in variables {
            builder.variable(name, type_name, initial);
        }
        for (source, target, label) in edges {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    #[test]
    fn a_ray_walk_gets_a_plan_and_a_branching_cycle_does_not() {
        let ray = engine(&[
            ("begin", "turn", "player = x"),
            ("turn", "walked", "? from -> to"),
            ("turn", "end", "player = keeper"),
            ("walked", "end", "player = keeper"),
            ("from", "loop", "cursor = Cell(*)"),
            ("loop", "step", "board[cursor] == empty"),
            ("loop", "to", "board[cursor] != empty"),
            ("step", "loop", "cursor = next[cursor]"),
        ]);
        let plans: Vec<&ReachPlan> = ray.plans.iter().flatten().collect();
        assert_eq!(plans.len(), 1);
        let kinds: Vec<NodeKind> = plans[0].nodes.iter().map(|n| n.kind).collect();
        assert_eq!(kinds, [NodeKind::Branch, NodeKind::Complement, NodeKind::Chain]);
        assert_eq!(plans[0].slots.len(), 1);
        // The ray's filter: the member loop skips cells failing the first comparison.
        assert_eq!(plans[0].nodes[0].filter.1 - plans[0].nodes[0].filter.0, 0, "the chain reaches a complement");
        // The loop's guard branches (both edges can hold) but the cursor advances along an acyclic
        // table: still a plan. Without the advance the general search (with its visited set) keeps it.
        let loop_edges = |step: &'static str| {
            [
                ("begin", "turn", "player = x"),
                ("turn", "walked", "? from -> to"),
                ("turn", "end", "player = keeper"),
                ("walked", "end", "player = keeper"),
                ("from", "loop", "cursor = a"),
                ("loop", "step", "board[cursor] == empty"),
                ("loop", "to", "cursor == c"),
                ("step", "loop", step),
            ]
        };
        let advancing = engine(&loop_edges("cursor = next[cursor]"));
        let plans: Vec<&ReachPlan> = advancing.plans.iter().flatten().collect();
        assert_eq!(plans.len(), 1);
        assert!(plans[0].nodes[1].cyclic && plans[0].nodes[1].kind == NodeKind::Branch);
        // A guard and one other edge: the guard runs before a frame is pushed.
        assert!(plans[0].nodes[1].guard_first && !plans[0].nodes[0].guard_first);
        let branching = engine(&loop_edges(""));
        assert!(branching.plans.iter().all(|p| p.is_none()));
    }

    /// The first plan's start node, for a check `? from -> to` whose sub-automaton is `check`.
    fn start_of(check: &[(&'static str, &'static str, &'static str)]) -> (PlanNode, usize) {
        let mut edges = vec![
            ("begin", "turn", "player = x"),
            ("turn", "found", "? from -> to"),
            ("turn", "end", "player = keeper"),
            ("found", "end", "player = keeper"),
        ];
        edges.extend_from_slice(check);
        let engine = engine(&edges);
        let plan = engine.plans.iter().flatten().next().expect("a plan");
        (plan.nodes[0], plan.filters.len())
    }

    /// A game that fills one empty cell a turn and ends as soon as the check `? from -> to` holds;
    /// the caller appends the check's own edges.
    fn fill_until_checked() -> Vec<(&'static str, &'static str, &'static str)> {
        vec![
            ("begin", "turn", "player = x"),
            ("turn", "fill", "cursor = Cell(*)"),
            ("fill", "filled", "board[cursor] == empty"),
            ("filled", "tagged", "$$ cursor"),
            ("tagged", "judge", "board[cursor] = full"),
            ("judge", "found", "? from -> to"),
            ("judge", "notFound", "! from -> to"),
            ("found", "end", "player = keeper"),
            ("notFound", "turn", "player = x"),
        ]
    }

    #[test]
    fn an_any_assignment_over_single_paths_walks_straight_and_agrees_with_the_general_search() {
        // Per member: step once if the cell ahead is full (a complement), then compare.
        let check = [
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "stepped", "board[next[cursor]] == full"),
            ("chosen", "kept", "board[next[cursor]] != full"),
            ("stepped", "kept", "cursor = next[cursor]"),
            ("kept", "full", "board[cursor] == full"),
            ("full", "to", "cursor == c"),
        ];
        let (start, _) = start_of(&check);
        assert_eq!(start.kind, NodeKind::Straight);
        // A second any-assignment below the first: frames are needed, not straight.
        let (nested, _) = start_of(&[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "again", "cursor = Cell(*)"),
            ("again", "to", "board[cursor] == full"),
        ]);
        assert_eq!(nested.kind, NodeKind::Branch);
        // Fill cells one by one and compare the check with the general search every turn.
        let mut edges = fill_until_checked();
        edges.extend_from_slice(&check);
        let planned = engine(&edges).with_reach_plans(crate::fast::ReachPlans::Checked);
        let general = engine(&edges).with_reach_plans(crate::fast::ReachPlans::Off);
        let config = crate::playout::PlayoutConfig { count: 40, seed: 9, threads: 1, ..Default::default() };
        let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
        assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
    }

    /// A row of five cells (`Spot` adds `null`, off the row) filled one random cell a turn, with
    /// connect4.rg's line check through the cell just filled: per direction, walk back over
    /// `mark` discs, then look for `ahead` more of them going forward from the furthest cell
    /// back or any nearer one. The walk's `mark` is a literal or, with `slot`, a variable holding
    /// it; the forward tests are `board[far{k}[dir][pos]] == disc` for each `(k, disc)` of
    /// `forward`. With `one_way` the check tries `east` alone (the line must be found from its
    /// western end, however far back that is).
    fn row_with_ray_check(slot: bool, one_way: bool, forward: &[(usize, &str)]) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Cell", "{a, b, c, d, e}")
            .typedef("Spot", "{a, b, c, d, e, null}")
            .typedef("Disc", "{empty, full}")
            .typedef("Dir", "{east, west}")
            .typedef("East", "{east}")
            .constant(
                "behind",
                "Dir -> Spot -> Spot",
                "{east: {b: a, c: b, d: c, e: d, :null}, west: {a: b, b: c, c: d, d: e, :null}, :{:null}}",
            )
            .variable("board", "Cell -> Disc", "{:empty}")
            .variable("mark", "Disc", "full")
            .variable("hits", "Disc", "empty")
            .variable("probe", "Cell", "a")
            .variable("cell", "Cell", "a")
            .variable("dir", "Dir", "east")
            .variable("pos", "Spot", "a");
        // `far{k}[dir][p]`: `k` cells ahead of `p` (a two-level table, as the optimiser composes
        // connect4.rg's `ahead[dir][ahead[dir][pos]]`).
        let cells = ["a", "b", "c", "d", "e"];
        for k in 1..=4usize {
            let row = |forward: bool| {
                let pairs: Vec<String> = (0..cells.len())
                    .filter_map(|i| {
                        let j = if forward { i.checked_add(k) } else { i.checked_sub(k) }?;
                        cells.get(j).map(|target| format!("{}: {target}", cells[i]))
                    })
                    .collect();
                format!("{{{}, :null}}", pairs.join(", "))
            };
            let table = format!("{{east: {}, west: {}, :{{:null}}}}", row(true), row(false));
            builder.constant(&format!("far{k}"), "Dir -> Spot -> Spot", &table);
        }
        let mark = if slot { "mark" } else { "full" };
        let mut edges: Vec<(String, String, String)> = [
            ("begin", "turn", "player = x".to_string()),
            ("turn", "fill", "cell = Cell(*)".into()),
            ("fill", "filled", "board[cell] == empty".into()),
            ("filled", "tagged", "$$ cell".into()),
            ("tagged", "judge", "board[cell] = full".into()),
            // Every check's answer is compared in checked mode; the game goes on either way
            // until the row is full, so each playout checks five fills in a random order.
            ("judge", "found", "? from -> to".into()),
            ("judge", "notFound", "! from -> to".into()),
            ("found", "next", "hits = full".into()),
            ("notFound", "next", "".into()),
            ("next", "more", "? free -> freeFound".into()),
            ("more", "turn", "player = x".into()),
            ("next", "over", "! free -> freeFound".into()),
            ("over", "end", "player = keeper".into()),
            ("free", "freeChosen", "probe = Cell(*)".into()),
            ("freeChosen", "freeFound", "board[probe] == empty".into()),
            ("from", "axis", if one_way { "dir = East(*)" } else { "dir = Dir(*)" }.into()),
            ("axis", "walk", "pos = cell".into()),
            ("walk", "stepped", format!("board[behind[dir][pos]] == {mark}")),
            ("stepped", "walk", "pos = behind[dir][pos]".into()),
        ]
        .into_iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c))
        .collect();
        for (step, (k, disc)) in forward.iter().enumerate() {
            let target = if step + 1 == forward.len() { "to".to_string() } else { format!("forward{}", step + 1) };
            // The walk's second edge is the first forward comparison (a ray has no skip there).
            let source = if step == 0 { "walk".to_string() } else { format!("forward{step}") };
            edges.push((source, target, format!("board[far{k}[dir][pos]] == {disc}")));
        }
        for (source, target, label) in &edges {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    #[test]
    fn a_straight_walk_ending_in_a_ray_runs_as_steps_and_agrees_with_the_general_search() {
        // Lines of two to five (the ray stops at the row's edge or at an empty cell; the forward
        // tests pass only from the furthest cell back), and forward tests that pass only from a
        // nearer start: right after the filled cell (`far1 == empty`), one or two cells back
        // (`far2`, `far3`), or behind a full cell. An off-by-one in the walk, or forward tests
        // skipping a start, changes some check's answer, which checked mode reports against the
        // general search.
        let (full, empty) = ("full", "empty");
        let lines: Vec<Vec<(usize, &str)>> = (1..=4).map(|n| (1..=n).map(|k| (k, full)).collect()).collect();
        let nearer = [vec![(1, empty)], vec![(2, empty)], vec![(3, empty)], vec![(1, full), (3, empty)]];
        let cases = lines.iter().chain(&nearer).flat_map(|f| [(f, false, false), (f, true, false), (f, false, true)]);
        for (forward, slot, one_way) in cases {
            let planned = row_with_ray_check(slot, one_way, forward);
            let plan = planned.plans.iter().flatten().next().expect("a plan");
            assert_eq!(plan.nodes[0].kind, NodeKind::Straight);
            let steps = &plan.straights[plan.nodes[0].straight as usize];
            // `pos = cell`, then the ray: run as a copy and the ray, without the step loop.
            assert_eq!(steps.steps.len(), 2, "{:?}", plan.nodes);
            assert!(steps.copy_then_ray.is_some() && steps.register.is_none());
            assert_eq!(steps.rays.len(), 1);
            assert_eq!(steps.rays[0].1.forward.len(), forward.len());
            let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = row_with_ray_check(slot, one_way, forward).with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 80, seed: 17, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
    }

    #[test]
    fn a_straight_walk_of_flat_steps_runs_as_one_array_and_agrees_with_the_general_search() {
        // Per member: step once if the cell ahead holds `mark` (a complement whose sides meet
        // again after a skip), then a complement whose `!=` side is a dead end, then a slot
        // comparison before the checked node.
        let check = [
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "stepped", "board[next[cursor]] == mark"),
            ("chosen", "kept", "board[next[cursor]] != mark"),
            ("stepped", "skipped", "cursor = next[cursor]"),
            ("skipped", "kept", ""),
            ("kept", "full", "board[cursor] == full"),
            ("kept", "dead", "board[cursor] != full"),
            ("full", "to", "board[next[cursor]] == mark"),
        ];
        let mut edges = fill_until_checked();
        edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
        edges.extend_from_slice(&check);
        let build = |mark: &str| engine_with(&edges, &[("mark", "Disc", mark)]);
        for mark in ["full", "empty"] {
            let planned = build(mark);
            let plan = planned.plans.iter().flatten().next().expect("a plan");
            assert_eq!(plan.nodes[0].kind, NodeKind::Straight);
            let steps = &plan.straights[plan.nodes[0].straight as usize];
            // The guarded step (`board[next[cursor]] == mark`, then `cursor = next[cursor]` after
            // which the sides meet), two comparisons; the skip and the dead end are jumps.
            assert_eq!(steps.steps.len(), 3);
            assert!(matches!(steps.steps[0].op, StraightOp::GuardedMove { step: None, when: true, .. }));
            assert!(steps.copy_then_ray.is_none() && steps.register.is_none());
            assert!(steps.steps.iter().any(|step| step.fail == STRAIGHT_FAIL));
            let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = build(mark).with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 60, seed: 11, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
        // A comparison of a slot with a literal has no flat form: the walk keeps its plan nodes.
        let (start, _) = start_of(&[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "to", "cursor == c"),
            ("chosen", "dead", "cursor != c"),
        ]);
        assert_eq!((start.kind, start.straight), (NodeKind::Straight, NO_STRAIGHT));
    }

    /// The straight steps' ops of the one plan of `engine`, by kind.
    fn straight_ops(engine: &FastEngine) -> Vec<String> {
        let plan = engine.plans.iter().flatten().next().expect("a plan");
        assert_eq!(plan.nodes[0].kind, NodeKind::Straight);
        let steps = plan.straights.get(plan.nodes[0].straight as usize).expect("straight steps");
        steps.steps.iter().map(|step| format!("{:?}", step.op)).collect()
    }

    #[test]
    fn guarded_moves_and_tested_steps_run_as_one_step_each_and_agree_with_the_general_search() {
        // connect4.hrg's `fourThroughLast` over the test board, `other` for the direction and
        // `cursor` for the last disc: a guarded move keyed by its comparison's own key (`jump`
        // both times), one moving on the comparison's failing side and keyed by another table
        // (`next`, after a skip), then table steps each followed by a comparison: a chain (a
        // failing member) and a complement whose other side is a dead end.
        let check = [
            ("from", "chosen", "other = Cell(*)"),
            ("chosen", "back", "board[jump[other][cursor]] == mark"),
            ("chosen", "first", "board[jump[other][cursor]] != mark"),
            ("back", "first", "cursor = jump[other][cursor]"),
            ("first", "second", "board[jump[other][cursor]] == full"),
            ("first", "again", "board[jump[other][cursor]] != full"),
            ("again", "skipped", "cursor = next[cursor]"),
            ("skipped", "second", ""),
            ("second", "ahead", "cursor = next[cursor]"),
            ("ahead", "further", "board[cursor] == mark"),
            ("further", "last", "cursor = jump[other][cursor]"),
            ("last", "to", "board[cursor] == full"),
            ("last", "dead", "board[cursor] != full"),
        ];
        let mut edges = fill_until_checked();
        edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
        edges.extend_from_slice(&check);
        let build = |mark: &str| engine_with(&edges, &[("mark", "Disc", mark), ("other", "Cell", "a")]);
        for mark in ["full", "empty"] {
            let ops = straight_ops(&build(mark));
            assert_eq!(ops.len(), 4, "{ops:?}");
            assert!(
                ops[0].starts_with("GuardedMove") && ops[0].contains("when: true") && ops[0].contains("step: None"),
                "{ops:?}"
            );
            assert!(
                ops[1].starts_with("GuardedMove") && ops[1].contains("when: false") && ops[1].contains("step: Some"),
                "{ops:?}"
            );
            assert!(ops[2].starts_with("StepTest") && ops[3].starts_with("StepTest"), "{ops:?}");
            // No `walked = from` first: not a register walk.
            let engine = build(mark);
            let plan = engine.plans.iter().flatten().next().expect("a plan");
            assert!(plan.straights[plan.nodes[0].straight as usize].register.is_none());
            let planned = build(mark).with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = build(mark).with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 80, seed: 23, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
    }

    /// connect4.hrg's `fourThroughLast` over the test board: `other` for the direction, `cursor`
    /// for the last disc, `probe` walked (the second step back moves when the cell differs unless
    /// `repeat`); the last comparison is `last`.
    fn four_through_last(last: &'static str, repeat: bool) -> Vec<(&'static str, &'static str, &'static str)> {
        let (moves, stays) = ("board[jump[other][probe]] == mark", "board[jump[other][probe]] != mark");
        let mut edges = fill_until_checked();
        edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
        edges.extend_from_slice(&[
            ("from", "chosen", "other = Cell(*)"),
            ("chosen", "start", "probe = cursor"),
            ("start", "back", "board[jump[other][cursor]] == mark"),
            ("start", "once", "board[jump[other][cursor]] != mark"),
            ("back", "once", "probe = jump[other][cursor]"),
            ("once", "again", if repeat { moves } else { stays }),
            ("once", "twice", if repeat { stays } else { moves }),
            ("again", "twice", "probe = jump[other][probe]"),
            ("twice", "ahead", "probe = jump[other][probe]"),
            ("ahead", "further", "board[probe] == mark"),
            ("further", "last", "probe = jump[other][probe]"),
            ("last", "to", last),
        ]);
        edges
    }

    #[test]
    fn a_straight_walk_of_one_position_runs_in_a_register_and_agrees_with_the_general_search() {
        for (mark, repeat) in [("full", false), ("empty", false), ("full", true), ("empty", true)] {
            let edges = four_through_last("board[jump[other][probe]] == mark", repeat);
            let build = |mark: &str| {
                engine_with(&edges, &[("mark", "Disc", mark), ("other", "Cell", "a"), ("probe", "Cell", "a")])
            };
            let planned = build(mark);
            let plan = planned.plans.iter().flatten().next().expect("a plan");
            let steps = plan.straights.get(plan.nodes[0].straight as usize).expect("straight steps");
            let walk = steps.register.as_ref().expect("a register walk");
            let guarded: Vec<bool> = walk.guarded.iter().map(|m| m.move_if_equal).collect();
            let tested: Vec<bool> = walk.tested.iter().map(|t| t.keyed).collect();
            assert_eq!((guarded, tested), (vec![true, repeat], vec![false, true]));
            // Two moves when equal: once the first stays, the second is skipped.
            assert_eq!(walk.guarded_repeat, repeat);
            assert!(walk.rhs.0, "`mark` is a slot");
            let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = build(mark).with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 80, seed: 31, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
        // A last comparison with another right-hand side, or an assignment to another slot
        // instead, keeps the steps.
        for last in ["board[jump[other][probe]] == full", "other = probe"] {
            let edges = four_through_last(last, false);
            let build =
                || engine_with(&edges, &[("mark", "Disc", "full"), ("other", "Cell", "a"), ("probe", "Cell", "a")]);
            let planned = build();
            let plan = planned.plans.iter().flatten().next().expect("a plan");
            let steps = plan.straights.get(plan.nodes[0].straight as usize).expect("straight steps");
            assert!(steps.register.is_none(), "{last}");
            let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = build().with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 40, seed: 37, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
    }

    #[test]
    fn a_register_walk_leaves_the_same_answer_and_state_as_its_steps_on_random_states() {
        // Every slot random in the test game's symbols (`jump`'s rows are 11 wide): the register
        // walk and the step loop it replaces, from the same state, must agree on the answer and
        // on every slot afterwards.
        let mut random = crate::playout::SplitMix64::new(43);
        for (mark, repeat) in [("full", false), ("empty", false), ("full", true), ("empty", true)] {
            let edges = four_through_last("board[jump[other][probe]] == mark", repeat);
            let mut engine =
                engine_with(&edges, &[("mark", "Disc", mark), ("other", "Cell", "a"), ("probe", "Cell", "a")]);
            let size = engine.initial_values.len();
            let plan = engine.plans.iter_mut().flatten().next().expect("a plan");
            let start = plan.nodes[0];
            let PlanOp::SetAny { slot, members } = &plan.edges[start.first as usize].op else { panic!("a choice") };
            let restore = &plan.restore[start.restore.0 as usize..start.restore.1 as usize];
            let steps = &mut plan.straights[start.straight as usize];
            let walk = steps.register.take().expect("a register walk");
            let (mut found, mut positions) = (0, Vec::new());
            for _ in 0..4000 {
                let values: Vec<SymbolId> = (0..size).map(|_| (random.next_u64() % 11) as SymbolId).collect();
                let saved: Vec<SymbolId> = restore.iter().map(|&s| values[s as usize]).collect();
                let (mut by_register, mut by_steps) = (values.clone(), values.clone());
                let register = walk.run(&mut by_register, *slot as usize, members);
                let stepped = steps.run(&mut by_steps, *slot as usize, members, restore, &saved, &mut positions);
                assert_eq!((Some(register), &by_register), (stepped, &by_steps), "from {values:?}");
                found += usize::from(register);
            }
            assert!(found > 0 && found < 4000, "{found} of 4000 found: both answers seen");
        }
    }

    #[test]
    fn a_move_that_does_not_rejoin_and_a_step_before_an_assignment_stay_separate_steps() {
        // The move's side goes on to a comparison the other side skips: not a guarded move. The
        // step before `other = cursor` (an assignment, not a comparison) stays a step of its own,
        // while the table step into the last comparison is fused.
        let check = [
            ("from", "chosen", "other = Cell(*)"),
            ("chosen", "back", "board[jump[other][cursor]] == full"),
            ("chosen", "kept", "board[jump[other][cursor]] != full"),
            ("back", "moved", "cursor = jump[other][cursor]"),
            ("moved", "kept", "board[cursor] == full"),
            ("kept", "copied", "cursor = next[cursor]"),
            ("copied", "stepped", "other = cursor"),
            ("stepped", "tested", "cursor = jump[other][cursor]"),
            ("tested", "to", "board[cursor] != full"),
        ];
        let mut edges = fill_until_checked();
        edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
        edges.extend_from_slice(&check);
        let build = || engine_with(&edges, &[("other", "Cell", "a")]);
        let ops = straight_ops(&build());
        assert!(!ops.iter().any(|op| op.starts_with("GuardedMove")), "{ops:?}");
        // The complement, `cursor = jump[..]` + `board[cursor] == full` fused, `cursor =
        // next[cursor]` and `other = cursor` alone, the last step fused with its comparison.
        let kinds: Vec<&str> = ops.iter().map(|op| op.split([' ', '(']).next().unwrap_or("")).collect();
        assert_eq!(kinds, ["Compare", "StepTest", "SetLookup", "SetSlot", "StepTest"], "{ops:?}");
        let planned = build().with_reach_plans(crate::fast::ReachPlans::Checked);
        let general = build().with_reach_plans(crate::fast::ReachPlans::Off);
        let config = crate::playout::PlayoutConfig { count: 80, seed: 29, threads: 1, ..Default::default() };
        let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
        assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
    }

    #[test]
    fn a_plan_of_fixed_alternatives_runs_as_steps_and_agrees_with_the_general_search() {
        // From `a`: a guard, a ray walk over empty cells, then a guard that reads `cursor` again
        // (the ray moved it: the steps must put it back), a shared node after a complement.
        let check = [
            ("from", "pick", "cursor = a"),
            ("pick", "to", "board[next[cursor]] == mark"),
            ("pick", "ray", "cursor = next[cursor]"),
            ("pick", "last", "board[cursor] == full"),
            ("ray", "stop", "board[cursor] != empty"),
            ("ray", "walk", "board[cursor] == empty"),
            ("walk", "ray", "cursor = next[cursor]"),
            ("stop", "to", "cursor == c"),
            ("stop", "shared", "cursor != c"),
            ("shared", "to", "board[next[cursor]] == full"),
            ("last", "shared", ""),
        ];
        let mut edges = fill_until_checked();
        edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
        edges.extend_from_slice(&check);
        let build = |mark: &str| engine_with(&edges, &[("mark", "Disc", mark)]);
        for mark in ["full", "empty"] {
            let planned = build(mark);
            let plan = planned.plans.iter().flatten().next().expect("a plan");
            let steps = plan.steps.as_ref().expect("fixed alternatives compile to steps");
            let ops: Vec<String> = steps.steps.iter().map(|s| format!("{:?}", s.op)).collect();
            assert_eq!(ops.iter().filter(|op| op.starts_with("Save")).count(), 1, "{ops:?}");
            assert_eq!(ops.iter().filter(|op| op.starts_with("Restore")).count(), 1, "{ops:?}");
            // The ray is a `Walk` step, which counts its rounds against the bound itself.
            assert!(
                steps.steps.iter().any(|s| s.cyclic || matches!(s.op, ProgramOp::Walk(_))),
                "the ray's steps count against the bound"
            );
            let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = build(mark).with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 60, seed: 7, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
        // An any-assignment followed by a branching node: a member loop with no filter, whose
        // members each try both alternatives.
        let any = [
            ("from", "pick", "cursor = Cell(*)"),
            ("pick", "to", "board[cursor] == full"),
            ("pick", "to", "cursor == c"),
        ];
        let mut edges = fill_until_checked();
        edges.extend_from_slice(&any);
        let planned = engine(&edges);
        let plan = planned.plans.iter().flatten().next().expect("a plan");
        let steps = plan.steps.as_ref().expect("a member loop compiles to steps");
        assert!(steps
            .steps
            .iter()
            .any(|s| matches!(&s.op, ProgramOp::Member(m) if matches!(m.filter, MemberFilter::Empty))));
        let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
        let general = engine(&edges).with_reach_plans(crate::fast::ReachPlans::Off);
        let config = crate::playout::PlayoutConfig { count: 60, seed: 7, threads: 1, ..Default::default() };
        let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
        assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
    }

    #[test]
    fn any_assignments_compile_to_member_loops_and_agree_with_the_general_search() {
        // Each check with the filter forms its member loops must have (`At`: a map read at the
        // member; `Ops`: any other chain of flat steps).
        // 1: a member passing the filter writes `other` and then fails unless it is `c`: every
        //    later member must see `other` put back (`other == a`) to be accepted.
        // 2: only the last member (`null`) is accepted, after every other passed the filter (the
        //    assignment keeps the check from being a lone filter, which has no steps).
        // 3: two nested choices (two full cells in a row): each loop keeps its own member.
        // 4: a filter that writes a slot (`other`) before its comparison, then a comparison
        //    after it that sends the walk back to the next member.
        let restored: &[(&str, &str, &str)] = &[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "tested", "board[cursor] != mark"),
            ("tested", "fresh", "other == a"),
            ("fresh", "moved", "other = next[cursor]"),
            ("moved", "to", "cursor == c"),
        ];
        let last: &[(&str, &str, &str)] = &[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "tested", "board[next[cursor]] != mark"),
            ("tested", "copied", "other = cursor"),
            ("copied", "to", "other == null"),
        ];
        let nested: &[(&str, &str, &str)] = &[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "tested", "board[cursor] == full"),
            ("tested", "again", "other = Cell(*)"),
            ("again", "both", "board[other] == full"),
            ("both", "to", "next[cursor] == other"),
        ];
        // 5: a two-level step and a map read at its result (`Step`), then a comparison reading
        //    both the member and the cell.
        let row: &[(&str, &str, &str)] = &[
            ("from", "chosen", "other = Cell(*)"),
            ("chosen", "stepped", "probe = jump[other][cursor]"),
            ("stepped", "tested", "board[probe] == mark"),
            ("tested", "to", "next[probe] == other"),
        ];
        let writing: &[(&str, &str, &str)] = &[
            ("from", "chosen", "cursor = Cell(*)"),
            ("chosen", "ahead", "other = next[cursor]"),
            ("ahead", "tested", "board[other] == mark"),
            ("tested", "to", "board[cursor] == mark"),
        ];
        let cases = [
            (restored, &["At"][..]),
            (last, &["At"][..]),
            (nested, &["At"; 2][..]),
            (writing, &["Ops { ops: [SetLookup"][..]),
            (row, &["Step { step"][..]),
        ];
        for (check, filters) in cases {
            let mut edges = fill_until_checked();
            edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
            edges.extend_from_slice(check);
            let build = |mark: &str| {
                engine_with(&edges, &[("mark", "Disc", mark), ("other", "Cell", "a"), ("probe", "Cell", "a")])
            };
            for mark in ["full", "empty"] {
                let planned = build(mark);
                let plan = planned.plans.iter().flatten().next().expect("a plan");
                let steps =
                    plan.steps.as_ref().unwrap_or_else(|| panic!("no steps for {check:?} {mark}: {:?}", plan.nodes));
                let loops: Vec<String> = steps
                    .steps
                    .iter()
                    .filter_map(|s| match &s.op {
                        ProgramOp::Member(m) if !m.resume => Some(format!("{:?}", m.filter)),
                        _ => None,
                    })
                    .collect();
                assert_eq!(loops.len(), filters.len(), "{loops:?}");
                assert!(filters.iter().any(|f| loops.iter().any(|l| l.starts_with(f))), "{loops:?} for {filters:?}");
                let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
                let general = build(mark).with_reach_plans(crate::fast::ReachPlans::Off);
                let config = crate::playout::PlayoutConfig { count: 60, seed: 13, threads: 1, ..Default::default() };
                let (a, b) =
                    (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
                assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
            }
        }
    }

    #[test]
    fn a_filter_runs_a_chain_of_comparisons_to_the_checked_node() {
        // Two cells in a row are full: both comparisons run in the member loop, which ends the check.
        let (line, filters) = start_of(&[
            ("from", "first", "cursor = Cell(*)"),
            ("first", "second", "board[cursor] == full"),
            ("second", "to", "board[next[cursor]] == full"),
        ]);
        assert!(line.filter_accepts && line.filter_compares);
        assert_eq!(filters, 2);
        // An assignment after the first comparison that writes the member's slot: the full chain
        // would read a stale member, so the filter stops at its first comparison.
        let (stepped, filters) = start_of(&[
            ("from", "first", "cursor = Cell(*)"),
            ("first", "step", "board[cursor] == full"),
            ("step", "second", "cursor = next[cursor]"),
            ("second", "to", "board[cursor] == full"),
        ]);
        assert_eq!((stepped.filter_accepts, filters), (false, 1), "the assignment writes the member's slot");
        // A chain that does not end at the checked node keeps the filter to its first comparison.
        let (open, filters) = start_of(&[
            ("from", "first", "cursor = Cell(*)"),
            ("first", "second", "board[cursor] == full"),
            ("second", "third", "board[next[cursor]] == full"),
            ("third", "to", "cursor == a"),
            ("third", "to", "cursor == b"),
        ]);
        assert!(!open.filter_accepts && open.filter_compares);
        assert_eq!(filters, 1);
    }

    #[test]
    fn a_lone_filter_resolves_its_comparisons_at_construction_and_agrees_with_the_general_search() {
        // Two cells in a row hold `mark` (a slot) and the first is full (a literal): a check that
        // is one member loop, its comparisons resolved into member tests.
        let check = [
            ("from", "first", "cursor = Cell(*)"),
            ("first", "second", "board[cursor] == mark"),
            ("second", "to", "board[next[cursor]] == full"),
        ];
        let mut edges = fill_until_checked();
        edges.extend([
            // A way out for a full board on which the check never holds (`mark = empty`: cells
            // filled front to back).
            ("turn", "quit", "$$ x"),
            ("quit", "end", "player = keeper"),
        ]);
        edges.extend_from_slice(&check);
        let build = |mark: &str| engine_with(&edges, &[("mark", "Disc", mark)]);
        for mark in ["full", "empty"] {
            let planned = build(mark);
            let plan = planned.plans.iter().flatten().next().expect("a plan");
            assert!(plan.lone_filter);
            let rhs: Vec<String> = plan.member_tests.iter().map(|t| format!("{:?}", t.rhs)).collect();
            assert!(rhs.len() == 2 && rhs[0].starts_with("Slot") && rhs[1].starts_with("Lit"), "{rhs:?}");
            // `mark = full`: two full neighbours; `mark = empty`: an empty cell before a full one.
            let planned = planned.with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = build(mark).with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 60, seed: 5, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
    }

    /// A reversi-like flank check over the test game: `other = Cell(*)` (the direction), a step
    /// from `cursor`, a full cell, a walk over full cells, then `board[probe] == empty`; with
    /// `member` false, `other` is fixed and the check starts at the step. `last` replaces the
    /// final comparison.
    fn flank(member: bool, last: &'static str) -> Vec<(&'static str, &'static str, &'static str)> {
        let mut edges = fill_until_checked();
        edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
        if member {
            edges.push(("from", "chosen", "other = Cell(*)"));
        } else {
            edges.push(("from", "chosen", ""));
        }
        edges.extend([
            ("chosen", "stepped", "probe = jump[other][cursor]"),
            ("stepped", "moved", "board[probe] == full"),
            ("moved", "walk", "probe = jump[other][probe]"),
            ("walk", "advance", "board[probe] == full"),
            ("walk", "done", "board[probe] != full"),
            ("advance", "walk", "probe = jump[other][probe]"),
            ("done", "to", last),
        ]);
        edges
    }

    fn flank_engine(edges: &[(&str, &str, &str)]) -> FastEngine {
        engine_with(edges, &[("other", "Cell", "b"), ("probe", "Cell", "a")])
    }

    /// The check's answer by the cursor chain, by its steps and by the general search on every
    /// board (16), `cursor` and `other` (4 each): all must agree (`None` where the walk runs out
    /// of steps round a cycle of full cells, for both plan paths) and leave the state as it was.
    /// Returns how many states the check held in and how many the plans gave up on.
    fn assert_chain_agrees(edges: &[(&str, &str, &str)]) -> (usize, usize) {
        let engine = flank_engine(edges);
        let mut stepped = flank_engine(edges);
        let context = engine.plans.iter().position(Option::is_some).expect("a plan");
        let plan = engine.plans[context].as_ref().expect("a plan");
        assert!(plan.steps.as_ref().is_some_and(|s| s.cursor.is_some()), "a cursor chain");
        let plain = stepped.plans[context].as_mut().expect("a plan");
        plain.steps.as_mut().expect("steps").cursor = None;
        let plain = stepped.plans[context].as_ref().expect("a plan");
        let automaton = &engine.automaton;
        let (from, to) = (automaton.node_id("from").expect("from"), automaton.node_id("to").expect("to"));
        let symbol = |name: &str| automaton.symbol_id(name).expect(name);
        let cells = ["a", "b", "c", "null"].map(symbol);
        let discs = ["empty", "full"].map(symbol);
        let layout = crate::reference::layout::Layout::new(automaton).expect("a layout");
        let slot_of = |name: &str| {
            let variable = automaton.variables.iter().position(|v| v.name == name).expect(name);
            layout.var_offsets[variable] as usize
        };
        let (cursor, other) = (slot_of("cursor"), slot_of("other"));
        // The board's cells, as the chain's head comparison reads them.
        let chain = plan.steps.as_ref().and_then(|s| s.cursor.as_ref()).expect("a cursor chain");
        let board: Vec<usize> = cells.iter().map(|&cell| chain.head_test.offsets[cell as usize] as usize).collect();
        assert_eq!(board.iter().collect::<std::collections::BTreeSet<_>>().len(), 4, "four board cells");
        let (mut scratch, mut plain_scratch) = (engine.scratch(), stepped.scratch());
        let (mut held, mut gave_up) = (0, 0);
        for fill in 0..16usize {
            for (&at, &dir) in cells.iter().flat_map(|at| cells.iter().map(move |dir| (at, dir))) {
                scratch.load(automaton.begin, &engine.initial_values);
                for (bit, &slot) in board.iter().enumerate() {
                    scratch.values[slot] = discs[(fill >> bit) & 1];
                }
                (scratch.values[cursor], scratch.values[other]) = (at, dir);
                plain_scratch.load(automaton.begin, &scratch.values);
                let before = scratch.values.clone();
                let by_chain = scratch.run_plan(&engine, plan, 1).expect("chain");
                let by_steps = plain_scratch.run_plan(&stepped, plain, 1).expect("steps");
                let by_search = scratch.reach_general(&engine, from, to, context as u32, 1).expect("search");
                assert_eq!(by_chain, by_steps, "board {fill:04b}, cursor {at}, other {dir}");
                assert!(by_chain.is_none_or(|held| held == by_search), "board {fill:04b}, cursor {at}, other {dir}");
                assert_eq!((&scratch.values, &plain_scratch.values), (&before, &before), "the state is unchanged");
                held += usize::from(by_chain == Some(true));
                gave_up += usize::from(by_chain.is_none());
            }
        }
        (held, gave_up)
    }

    #[test]
    fn a_flank_check_runs_as_a_cursor_chain_that_agrees_with_its_steps_and_the_general_search() {
        // With the member loop (reversi's `legalAt`) and without it (`flanksAlongDir`).
        for member in [true, false] {
            let edges = flank(member, "board[probe] == empty");
            let engine = flank_engine(&edges);
            let plan = engine.plans.iter().flatten().next().expect("a plan");
            let chain = plan.steps.as_ref().and_then(|s| s.cursor.as_ref()).expect("a cursor chain");
            assert_eq!(chain.members.as_ref().map(|m| m.len()), member.then_some(4));
            let ops: Vec<String> = chain
                .ops
                .iter()
                .map(|op| format!("{op:?}").split([' ', '(']).next().unwrap_or("").to_owned())
                .collect();
            // The head (the step from `cursor` and its comparison) runs apart; then the step
            // into the walk, the walk and the last comparison (keyed by the member and the
            // cursor with the member loop: `StepAlong`, `WalkAlong`).
            let expected = if member { ["StepAlong", "WalkAlong", "Test"] } else { ["Step", "Walk", "Test"] };
            assert_eq!(ops, expected, "{chain:?}");
            let (first, second) = (chain.head.0, chain.head.1);
            assert_eq!(first == crate::fast::plan_steps::Operand::Member, member, "{chain:?}");
            assert!(matches!(second, crate::fast::plan_steps::Operand::Fixed(_)), "{chain:?}");
        }
        assert_eq!(assert_chain_agrees(&flank(true, "board[probe] == empty")), (104, 116));
        assert_eq!(assert_chain_agrees(&flank(false, "board[probe] == empty")), (32, 96));
        // Playouts with every check run by the chain and by the general search.
        for member in [true, false] {
            let edges = flank(member, "board[probe] == empty");
            let planned = flank_engine(&edges).with_reach_plans(crate::fast::ReachPlans::Checked);
            let general = flank_engine(&edges).with_reach_plans(crate::fast::ReachPlans::Off);
            let config = crate::playout::PlayoutConfig { count: 80, seed: 31, threads: 1, ..Default::default() };
            let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
            assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
        }
    }

    #[test]
    fn no_cursor_chain_when_a_step_writes_another_slot_or_a_comparison_leaves_the_cursor() {
        let chain_of = |edges: &[(&str, &str, &str)]| {
            let engine = flank_engine(edges);
            let plan = engine.plans.iter().flatten().next().expect("a plan");
            (plan.steps.is_some(), plan.steps.as_ref().is_some_and(|s| s.cursor.is_some()))
        };
        assert_eq!(chain_of(&flank(true, "board[probe] == empty")), (true, true));
        // A last comparison of a slot, not of the map at the cursor.
        assert_eq!(chain_of(&flank(true, "probe == c")), (true, false));
        // A comparison of the member, which the chain never writes to the state.
        let mut edges = flank(true, "other == c");
        assert_eq!(chain_of(&edges), (true, false));
        // A step writing a slot other than the cursor.
        edges.pop();
        edges.extend([("done", "copied", "cursor = probe"), ("copied", "to", "board[probe] == empty")]);
        assert_eq!(chain_of(&edges), (true, false));
        // Two alternatives after the walk: not one straight chain.
        let mut edges = flank(true, "board[probe] == empty");
        edges.push(("done", "to", "board[probe] == full"));
        assert_eq!(chain_of(&edges), (true, false));
    }

    /// A chess-like `attacked` check over the test game: a head (`other = next[cursor]`), then
    /// probes of the map around `other` and `cursor`, a ray from `other` walked over empty cells
    /// and compared twice, and a last probe. `extra` edges are added to the check.
    fn fan_check(
        extra: &[(&'static str, &'static str, &'static str)],
    ) -> Vec<(&'static str, &'static str, &'static str)> {
        let mut edges = fill_until_checked();
        edges.extend([("turn", "quit", "$$ x"), ("quit", "end", "player = keeper")]);
        edges.extend([
            ("from", "fan", "other = next[cursor]"),
            ("fan", "to", "board[other] == mark"),
            ("fan", "to", "board[next[other]] == mark"),
            ("fan", "to", "board[jump[cursor][other]] == full"),
            ("fan", "ray", "probe = next[other]"),
            ("ray", "onward", "board[probe] == empty"),
            ("ray", "hit", "board[probe] != empty"),
            ("onward", "ray", "probe = next[probe]"),
            ("hit", "to", "board[probe] == mark"),
            ("hit", "miss", "board[probe] != mark"),
            ("miss", "to", "board[probe] == full"),
        ]);
        edges.extend_from_slice(extra);
        edges.push(("fan", "to", "board[cursor] == mark"));
        edges
    }

    fn fan_engine(edges: &[(&str, &str, &str)]) -> FastEngine {
        engine_with(edges, &[("other", "Cell", "b"), ("probe", "Cell", "a"), ("mark", "Disc", "full")])
    }

    /// The check's answer by the fan, by its steps and by the general search on every board
    /// (16), `cursor` (4), `mark` (2) and starting `other` and `probe` (2 each): all must agree
    /// (`None` where the walk runs out of steps on an empty `null`, for both plan paths) and
    /// leave the state as it was. Returns how many states the check held in and how many the
    /// plans gave up on.
    fn assert_fan_agrees(edges: &[(&str, &str, &str)]) -> (usize, usize) {
        let engine = fan_engine(edges);
        let mut stepped = fan_engine(edges);
        let context = engine.plans.iter().position(Option::is_some).expect("a plan");
        let plan = engine.plans[context].as_ref().expect("a plan");
        assert!(plan.steps.as_ref().is_some_and(|s| s.fan.is_some()), "a fan");
        let plain = stepped.plans[context].as_mut().expect("a plan");
        plain.steps.as_mut().expect("steps").fan = None;
        let plain = stepped.plans[context].as_ref().expect("a plan");
        let automaton = &engine.automaton;
        let (from, to) = (automaton.node_id("from").expect("from"), automaton.node_id("to").expect("to"));
        let symbol = |name: &str| automaton.symbol_id(name).expect(name);
        let cells = ["a", "b", "c", "null"].map(symbol);
        let discs = ["empty", "full"].map(symbol);
        let layout = crate::reference::layout::Layout::new(automaton).expect("a layout");
        let slot_of = |name: &str| {
            let variable = automaton.variables.iter().position(|v| v.name == name).expect(name);
            layout.var_offsets[variable] as usize
        };
        let (cursor, other, probe, mark) = (slot_of("cursor"), slot_of("other"), slot_of("probe"), slot_of("mark"));
        // The board's cells, as the ray's comparisons read them.
        let fan = plan.steps.as_ref().and_then(|s| s.fan.as_ref()).expect("a fan");
        let map =
            fan.alternatives
                .iter()
                .find_map(|a| if let FanAlternative::Ray { map, .. } = a { Some(map) } else { None });
        let board: Vec<usize> = cells.iter().map(|&cell| map.expect("a ray")[cell as usize] as usize).collect();
        assert_eq!(board.iter().collect::<std::collections::BTreeSet<_>>().len(), 4, "four board cells");
        let (mut scratch, mut plain_scratch) = (engine.scratch(), stepped.scratch());
        let (mut held, mut gave_up) = (0, 0);
        for fill in 0..16usize {
            for (&at, &disc, start) in
                cells.iter().flat_map(|at| discs.iter().flat_map(move |d| [(at, d, 0), (at, d, 1)]).collect::<Vec<_>>())
            {
                scratch.load(automaton.begin, &engine.initial_values);
                for (bit, &slot) in board.iter().enumerate() {
                    scratch.values[slot] = discs[(fill >> bit) & 1];
                }
                (scratch.values[cursor], scratch.values[mark]) = (at, disc);
                (scratch.values[other], scratch.values[probe]) = (cells[start], cells[3 - start]);
                plain_scratch.load(automaton.begin, &scratch.values);
                let before = scratch.values.clone();
                let by_fan = scratch.run_plan(&engine, plan, 1).expect("fan");
                let by_steps = plain_scratch.run_plan(&stepped, plain, 1).expect("steps");
                let by_search = scratch.reach_general(&engine, from, to, context as u32, 1).expect("search");
                let case = format!("board {fill:04b}, cursor {at}, mark {disc}, start {start}");
                assert_eq!(by_fan, by_steps, "{case}");
                assert!(by_fan.is_none_or(|held| held == by_search), "{case}");
                assert_eq!(
                    (&scratch.values, &plain_scratch.values),
                    (&before, &before),
                    "the state is unchanged: {case}"
                );
                held += usize::from(by_fan == Some(true));
                gave_up += usize::from(by_fan.is_none());
            }
        }
        (held, gave_up)
    }

    #[test]
    fn an_attack_check_runs_as_a_probe_fan_that_agrees_with_its_steps_and_the_general_search() {
        let engine = fan_engine(&fan_check(&[]));
        let plan = engine.plans.iter().flatten().next().expect("a plan");
        let fan = plan.steps.as_ref().and_then(|s| s.fan.as_ref()).expect("a fan");
        assert_eq!(fan.head.len(), 1, "{fan:?}");
        // The two probes keyed by `other` with one test share a row; the two-level one is keyed
        // apart.
        let shapes: Vec<String> = fan
            .alternatives
            .iter()
            .map(|a| match a {
                FanAlternative::Probes { count, width, .. } => format!("probes {count} {}", *width != 0),
                FanAlternative::Ray { walk, tests, .. } => format!("ray {} {}", walk.is_some(), tests.len()),
            })
            .collect();
        assert_eq!(shapes, ["probes 2 false", "probes 1 true", "ray true 2", "probes 1 false"], "{fan:?}");
        // `mark`, `full` and `empty` (the walk's test): three right-hand sides.
        assert_eq!(fan.rhs.len(), 3, "{fan:?}");
        assert_eq!(assert_fan_agrees(&fan_check(&[])), (220, 36));
        // Playouts with every check run by the fan and by the general search.
        let planned = fan_engine(&fan_check(&[])).with_reach_plans(crate::fast::ReachPlans::Checked);
        let general = fan_engine(&fan_check(&[])).with_reach_plans(crate::fast::ReachPlans::Off);
        let config = crate::playout::PlayoutConfig { count: 80, seed: 17, threads: 1, ..Default::default() };
        let (a, b) = (planned.run_playouts(&config).expect("checked"), general.run_playouts(&config).expect("off"));
        assert_eq!((a.total_plies, a.score_distribution), (b.total_plies, b.score_distribution));
    }

    #[test]
    fn no_probe_fan_when_a_step_reads_a_cursor_outside_its_ray() {
        let fan_of = |extra: &[(&'static str, &'static str, &'static str)]| {
            let engine = fan_engine(&fan_check(extra));
            let plan = engine.plans.iter().flatten().next().expect("a plan");
            (plan.steps.is_some(), plan.steps.as_ref().is_some_and(|s| s.fan.is_some()))
        };
        assert_eq!(fan_of(&[]), (true, true));
        // A probe of the map at the ray's cursor after the ray (put back by then).
        assert_eq!(fan_of(&[("fan", "to", "board[probe] == full")]), (true, false));
        // A second ray led from the first one's cursor.
        assert_eq!(
            fan_of(&[("fan", "last", "probe = next[probe]"), ("last", "to", "board[probe] == full")]),
            (true, false)
        );
        // A comparison of a slot, not of a map.
        assert_eq!(fan_of(&[("fan", "to", "cursor == c")]), (true, false));
    }
}
