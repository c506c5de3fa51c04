//! Bit-parallel flank listings: a placement start whose guards are byte tests of one board and
//! flank checks along a direction loop (reversi's `cell = Spot(*); board[cell] == empty;
//! ? legalAt`) is counted with one word per board mask instead of listed cell by cell
//! (`regula_runtime::compiled::bit_listing`, spec/codegen.md "Bit-parallel flank listings").
//!
//! A *flank check* is a reachability check whose region is exactly, from its `from` node:
//! `d = D(*)`, `c = step[d][o]`, `board[c] == theirs`, then the ring `c = step[d][c]` with
//! `board[c] == theirs` back to the step and `board[c] != theirs` on to `board[c] == mine`, the
//! target (one edge per node but the ring's test). It holds when, along some direction `d`, the
//! cells after `o` are one or more of `theirs` and then one of `mine`.
//!
//! *Shift directions*: the board's slots hold 64 cells in a window `[lo, lo + 64)` of its
//! offsets. For each direction, every window cell's step (on board offsets, one target offset
//! for all symbols at that offset) must either be the cell plus one constant `k` (inside the
//! window) or leave the window (to a *sink* offset); both step edges, from the origin and from
//! the cursor, must be that same function. This is checked exhaustively over the window here,
//! so the step is exactly "shift by `k`, masked to the cells whose step stays on the window".
//! A ray that reaches a sink stops there unless the sink's entry is `theirs` or `mine`, which
//! the generated function tests at run time (then it returns `None` and the plain listing runs).
//!
//! The listing then lists, in member order, the members whose byte tests hold and whose flank
//! checks hold, nothing else (nothing can fail, no other choice, no write before the tag). The
//! members inside the window must sit at increasing offsets, so bit order is listing order; a
//! member outside it must fail a byte test, tested at run time like the sinks. So the count is
//! the listing's count and the `k`-th set bit is the listing's move `k`, whose delta word the
//! function builds as the counted placements do (`counted.rs`).
//!
//! Cost: generation only (an exhaustive walk of 64 cells per direction); a ply costs the three
//! masks, `3 × iterations + 4` word operations per direction, a popcount and a selection.

use super::{graph, slot_bits, Generator, PlanOp, PlanOperand, PlanTransfer};
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanPlace};
use std::fmt::Write;

/// Cells of a window: the bits of one mask.
const WINDOW: u32 = 64;

/// The imports of a module with bit-parallel listings.
pub(super) const BIT_LISTING_IMPORT: &str =
    "use regula_runtime::compiled::bit_listing::{flank_origins, select_bit, WindowBytes};\n";

/// A recognised flank check (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FlankCheck {
    /// The slot the rays start from.
    pub origin: u32,
    /// The board map's first state slot and its offsets per symbol.
    pub board: u32,
    pub board_offsets: Vec<u32>,
    pub theirs: u32,
    pub mine: u32,
    /// Per direction member, per board offset: the offset the first step (keyed by the origin)
    /// and a ring step (keyed by the cursor) go to; `None` where no symbol has the offset or its
    /// symbols step to different offsets.
    pub first_steps: Vec<Vec<Option<u32>>>,
    pub ring_steps: Vec<Vec<Option<u32>>>,
}

/// One direction as a masked shift over a window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shift {
    /// Window cell `i` steps to `i + amount` where `edge` has bit `i`.
    pub amount: i32,
    pub edge: u64,
    /// Rounds after the first that grow a run to its longest (the longest ray on the window, in
    /// cells, less three: the origin, the first of theirs and the closing one of mine).
    pub iterations: u32,
}

/// A single-edge node's edge.
fn single_edge(automaton: &Automaton, node: u32) -> Option<usize> {
    let edges = automaton.nodes[node as usize].edges.clone();
    (edges.len() == 1).then_some(edges.start as usize)
}

/// `board[slot] <equal> literal` with `board` a state map of one step keyed by `slot`:
/// (board base, offsets, literal).
fn board_test(op: &PlanOp, slot: u32, equal: bool) -> Option<(u32, &[u32], u32)> {
    let PlanOp::Compare {
        lhs: PlanOperand::Place(place),
        rhs: PlanOperand::Literal(literal),
        transfer: PlanTransfer::Slot,
        equal: eq,
    } = op
    else {
        return None;
    };
    (*eq == equal && place.in_state && place.steps.len() == 1 && graph::is_slot_read(&place.steps[0].key, slot))
        .then(|| (place.base, place.steps[0].offsets.as_slice(), *literal))
}

/// `slot = c[..]`: a constant place whose keys are literals, the direction slot and `keyed`.
fn step_write(op: &PlanOp, slot: u32, direction: u32, keyed: u32) -> Option<&PlanPlace> {
    let PlanOp::Assign { lhs, rhs: PlanOperand::Place(place), transfer: PlanTransfer::Slot, sets_player: false } = op
    else {
        return None;
    };
    if graph::fixed_slot(lhs)? != slot || place.in_state {
        return None;
    }
    let keys_ok = place.steps.iter().all(|step| match &step.key {
        PlanOperand::Literal(_) => true,
        key => graph::is_slot_read(key, direction) || graph::is_slot_read(key, keyed),
    });
    let reads = |wanted: u32| place.steps.iter().filter(|step| graph::is_slot_read(&step.key, wanted)).count();
    (keys_ok && reads(direction) == 1 && reads(keyed) == 1).then_some(place)
}

/// Per board offset, the offset `place` (keyed by `direction` = `dir` and its other computed key,
/// the ray's slot, = each symbol at that offset) stores: `None` where no symbol has the offset or two disagree.
fn steps_on_offsets(
    plan: &Plan,
    place: &PlanPlace,
    direction: u32,
    dir: u32,
    board_offsets: &[u32],
) -> Vec<Option<u32>> {
    let span = board_offsets.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut steps: Vec<Option<Option<u32>>> = vec![None; span];
    for (symbol, &offset) in board_offsets.iter().enumerate() {
        let mut index = place.base as usize;
        for step in &place.steps {
            let key = match &step.key {
                PlanOperand::Literal(literal) => *literal,
                key if graph::is_slot_read(key, direction) => dir,
                _ => symbol as u32,
            };
            index += step.offsets.get(key as usize).copied().unwrap_or(step.default_offset) as usize;
        }
        let target = plan.const_values.get(index).and_then(|&next| board_offsets.get(next as usize).copied());
        let entry = &mut steps[offset as usize];
        *entry = match *entry {
            None => Some(target),
            Some(seen) if seen == target => Some(seen),
            Some(_) => Some(None),
        };
    }
    steps.into_iter().map(Option::flatten).collect()
}

/// The flank check from `from` into `to`, if its region has that shape (see the module doc).
pub(crate) fn flank_check(automaton: &Automaton, plan: &Plan, from: u32, to: u32) -> Option<FlankCheck> {
    let ops = &plan.ops;
    let edges = &automaton.edges;
    let choose = single_edge(automaton, from)?;
    let PlanOp::AssignAny { lhs, members: directions, sets_player: false } = &ops[choose] else { return None };
    let direction = graph::fixed_slot(lhs)?;
    let aim = single_edge(automaton, edges[choose].target)?;
    let PlanOp::Assign { lhs: cursor, .. } = &ops[aim] else { return None };
    let cursor = graph::fixed_slot(cursor)?;
    // The origin: the step's other computed key.
    let PlanOp::Assign { rhs: PlanOperand::Place(first), .. } = &ops[aim] else { return None };
    let origin = first.steps.iter().find_map(|step| match &step.key {
        PlanOperand::Place(key) if !graph::is_slot_read(&step.key, direction) => graph::fixed_slot(key),
        _ => None,
    })?;
    if origin == cursor || origin == direction || cursor == direction {
        return None;
    }
    let first = step_write(&ops[aim], cursor, direction, origin)?;
    let opened = single_edge(automaton, edges[aim].target)?;
    let (board, board_offsets, theirs) = board_test(&ops[opened], cursor, true)?;
    let ring = edges[opened].target;
    let step = single_edge(automaton, ring)?;
    let next = step_write(&ops[step], cursor, direction, cursor)?;
    let test = edges[step].target;
    let test_edges = automaton.nodes[test as usize].edges.clone();
    if test_edges.len() != 2 {
        return None;
    }
    let mut closing = None;
    let mut looping = false;
    for edge in test_edges.map(|e| e as usize) {
        let same_board = |found: Option<(u32, &[u32], u32)>| {
            found.filter(|&(b, o, l)| b == board && o == board_offsets && l == theirs).is_some()
        };
        if same_board(board_test(&ops[edge], cursor, true)) && edges[edge].target == ring {
            looping = true;
        } else if same_board(board_test(&ops[edge], cursor, false)) {
            closing = Some(edges[edge].target);
        }
    }
    let closing = closing.filter(|_| looping)?;
    let close = single_edge(automaton, closing)?;
    let (closed_board, closed_offsets, mine) = board_test(&ops[close], cursor, true)?;
    if closed_board != board || closed_offsets != board_offsets || edges[close].target != to || mine == theirs {
        return None;
    }
    // No node of the region is the target (the check would stop there).
    let region = [from, edges[choose].target, edges[aim].target, ring, test, closing];
    if region.contains(&to) {
        return None;
    }
    let first_steps = directions.iter().map(|&d| steps_on_offsets(plan, first, direction, d, board_offsets)).collect();
    let ring_steps = directions.iter().map(|&d| steps_on_offsets(plan, next, direction, d, board_offsets)).collect();
    Some(FlankCheck { origin, board, board_offsets: board_offsets.to_vec(), theirs, mine, first_steps, ring_steps })
}

/// Each direction of `check` as a masked shift over the window `[lo, lo + 64)` of board offsets,
/// with the sink offsets its steps leave the window for; `None` unless every direction is one.
pub(crate) fn shifts(check: &FlankCheck, lo: u32) -> Option<(Vec<Shift>, Vec<u32>)> {
    let mut sinks = Vec::new();
    let mut shifts = Vec::new();
    for (first, ring) in check.first_steps.iter().zip(&check.ring_steps) {
        let mut amount = None;
        let mut edge = 0u64;
        let mut targets = vec![None; WINDOW as usize];
        for cell in 0..WINDOW {
            let offset = (lo + cell) as usize;
            let target = (*first.get(offset)?)?;
            if ring.get(offset).copied().flatten() != Some(target) {
                return None;
            }
            if (lo..lo + WINDOW).contains(&target) {
                let k = target as i64 - offset as i64;
                if k == 0 || *amount.get_or_insert(k) != k {
                    return None;
                }
                edge |= 1 << cell;
                targets[cell as usize] = Some(target - lo);
            } else if !sinks.contains(&target) {
                sinks.push(target);
            }
        }
        // The longest ray in cells (a shift by a nonzero amount has no cycle).
        let mut longest = vec![1u32; WINDOW as usize];
        for _ in 0..WINDOW {
            for cell in 0..WINDOW as usize {
                if let Some(next) = targets[cell] {
                    longest[cell] = longest[cell].max(1 + longest[next as usize]);
                }
            }
        }
        let cells = longest.iter().copied().max().unwrap_or(1);
        shifts.push(Shift { amount: amount.unwrap_or(0) as i32, edge, iterations: cells.saturating_sub(3) });
    }
    sinks.sort_unstable();
    Some((shifts, sinks))
}

/// A guard of a bit-listed placement or scan.
enum Guard {
    /// `board[x] == literal` (or `!=`).
    Byte { literal: u32, equal: bool },
    /// A flank check from `x`.
    Flank(FlankCheck),
}

/// Members and their guards as masks over one board window.
struct BitGuards {
    /// The board's first slot and the window's first offset.
    board: u32,
    lo: u32,
    /// Per window cell, its member (0 where none), and the cells that hold one.
    table: Vec<u64>,
    member_mask: u64,
    /// The board offsets of the members outside the window.
    outside: Vec<u32>,
    bytes: Vec<(u32, bool)>,
    /// The flank checks with their directions and sinks.
    flanks: Vec<(FlankCheck, Vec<Shift>, Vec<u32>)>,
}

/// The masks of `members` (in loop order) under `guards` (all on one board, at least one flank
/// check), if every flank check's directions are shifts over one window and the members inside
/// it sit at increasing offsets (see the module doc).
fn bit_guards(
    plan: &Plan,
    members: &[u32],
    guards: Vec<Guard>,
    board: u32,
    board_offsets: &[u32],
) -> Option<BitGuards> {
    let mut bytes = Vec::new();
    let mut checks = Vec::new();
    for guard in guards {
        match guard {
            Guard::Byte { literal, equal } => bytes.push((literal, equal)),
            Guard::Flank(check) => checks.push(check),
        }
    }
    if checks.is_empty() {
        return None;
    }
    // The window: the members' least offset or the next one, the first whose every flank check's
    // directions are shifts.
    let member_offsets: Vec<u32> =
        members.iter().map(|&m| board_offsets.get(m as usize).copied()).collect::<Option<_>>()?;
    let least = member_offsets.iter().copied().min()?;
    let (lo, directions) = [least, least + 1].into_iter().find_map(|lo| {
        let found: Option<Vec<_>> = checks.iter().map(|check| shifts(check, lo)).collect();
        found.map(|found| (lo, found))
    })?;
    if (board + lo + WINDOW) as usize > plan.state_len {
        return None;
    }
    let mut table = vec![0u64; WINDOW as usize + 1];
    let mut member_mask = 0u64;
    let mut previous = None;
    let mut outside = Vec::new();
    for (&member, &offset) in members.iter().zip(&member_offsets) {
        if (lo..lo + WINDOW).contains(&offset) {
            let cell = offset - lo;
            if previous.is_some_and(|p| p >= cell) {
                return None;
            }
            previous = Some(cell);
            table[cell as usize] = member as u64;
            member_mask |= 1 << cell;
        } else {
            outside.push(offset);
        }
    }
    // A member outside the window is tested at run time by the byte tests alone.
    if !outside.is_empty() && bytes.is_empty() {
        return None;
    }
    let flanks = checks.into_iter().zip(directions).map(|(check, (shifts, sinks))| (check, shifts, sinks)).collect();
    Some(BitGuards { board, lo, table, member_mask, outside, bytes, flanks })
}

impl BitGuards {
    /// The statements computing the masks (returning `None` first where a run-time test sends
    /// the caller to the plain code) and the expression of the marked members' mask.
    fn masks(&self) -> (String, String) {
        let board = self.board;
        let mut declines = Vec::new();
        for offset in &self.outside {
            let passes: Vec<String> = self
                .bytes
                .iter()
                .map(|&(literal, equal)| format!("v[{}] {} {literal}", board + offset, if equal { "==" } else { "!=" }))
                .collect();
            declines.push(format!("({})", passes.join(" && ")));
        }
        for (check, _, sinks) in &self.flanks {
            for sink in sinks {
                let at = board + sink;
                declines.push(format!("v[{at}] == {} || v[{at}] == {}", check.theirs, check.mine));
            }
        }
        let mut body = String::new();
        if !declines.is_empty() {
            writeln!(body, "if {} {{ return None; }}", declines.join(" || ")).expect("writing to a String");
        }
        let start = board + self.lo;
        writeln!(
            body,
            "let cells = WindowBytes::new(v[{start}..{}].try_into().expect(\"a board window\"));",
            start + WINDOW
        )
        .expect("writing to a String");
        let mut marked = vec![format!("{:#x}", self.member_mask)];
        for &(literal, equal) in &self.bytes {
            marked.push(format!("{}cells.matches({literal})", if equal { "" } else { "!" }));
        }
        for (i, (check, shifts, _)) in self.flanks.iter().enumerate() {
            writeln!(body, "let mine{i} = cells.matches({});", check.mine).expect("writing to a String");
            writeln!(body, "let theirs{i} = cells.matches({});", check.theirs).expect("writing to a String");
            let rays: Vec<String> = shifts
                .iter()
                .filter(|shift| shift.edge != 0)
                .map(|shift| {
                    format!(
                        "flank_origins(mine{i}, theirs{i}, {}, {:#x}, {})",
                        shift.amount, shift.edge, shift.iterations
                    )
                })
                .collect();
            let rays = if rays.is_empty() { "0".to_string() } else { rays.join("\n    | ") };
            writeln!(body, "let flanked{i} = {rays};").expect("writing to a String");
            marked.push(format!("flanked{i}"));
        }
        (body, marked.join(" & "))
    }
}

/// Byte tests of `board[slot]` along the chain of single-edge nodes from `node`, up to the first
/// node whose edge is none: the guards (on the board every test reads) and that node. `None`
/// where the chain meets `to` (a check into `to` would stop there).
fn byte_chain(
    automaton: &Automaton,
    plan: &Plan,
    mut node: u32,
    to: u32,
    slot: u32,
    board: &mut Option<(u32, Vec<u32>)>,
) -> Option<(Vec<Guard>, u32)> {
    let mut guards = Vec::new();
    for _ in 0..automaton.nodes.len() {
        if node == to {
            return None;
        }
        let Some(edge) = single_edge(automaton, node) else { return Some((guards, node)) };
        let op = &plan.ops[edge];
        let (base, offsets, literal, equal) = match (board_test(op, slot, true), board_test(op, slot, false)) {
            (Some((b, o, l)), _) => (b, o, l, true),
            (_, Some((b, o, l))) => (b, o, l, false),
            _ => return Some((guards, node)),
        };
        if !same_board(board, base, offsets) {
            return None;
        }
        guards.push(Guard::Byte { literal, equal });
        node = automaton.edges[edge].target;
    }
    None
}

/// Whether `base` and `offsets` are the board seen so far (the first one seen becomes it).
fn same_board(board: &mut Option<(u32, Vec<u32>)>, base: u32, offsets: &[u32]) -> bool {
    match board {
        Some((b, o)) => *b == base && o == offsets,
        None => {
            *board = Some((base, offsets.to_vec()));
            true
        }
    }
}

/// A *flank scan*: a check whose region is `x = T(*)`, byte tests of `board[x]`, then a flank
/// check from `x` into the same target (reversi's `canPlace`: some empty cell flanks). It holds
/// when some member passes them all.
fn flank_scan(automaton: &Automaton, plan: &Plan, from: u32, to: u32) -> Option<BitGuards> {
    let choose = single_edge(automaton, from)?;
    let PlanOp::AssignAny { lhs, members, sets_player: false } = &plan.ops[choose] else { return None };
    let slot = graph::fixed_slot(lhs)?;
    let mut board = None;
    let (mut guards, flank_from) = byte_chain(automaton, plan, automaton.edges[choose].target, to, slot, &mut board)?;
    let check = flank_check(automaton, plan, flank_from, to)?;
    if check.origin != slot || !same_board(&mut board, check.board, &check.board_offsets) {
        return None;
    }
    if from == to {
        return None;
    }
    let (board, offsets) = board?;
    guards.push(Guard::Flank(check));
    bit_guards(plan, members, guards, board, &offsets)
}

impl Generator<'_> {
    /// The flank scans among the pure checks, by (from, to), with their functions `q<from>_<to>`
    /// ([`flank_scan`]): their calls try the masks first ([`Generator::flank_scan_call`]).
    pub(super) fn prepare_flank_scans(&mut self) {
        if self.sym != "u8" {
            return;
        }
        let mut scans = Vec::new();
        for op in &self.plan.ops {
            let PlanOp::Reach { from, to, .. } = *op else { continue };
            let pure = self.reach.get(&to).is_some_and(|target| target.pure && target.region[from as usize]);
            if !pure || scans.iter().any(|(pair, _)| *pair == (from, to)) {
                continue;
            }
            if let Some(guards) = flank_scan(self.automaton, self.plan, from, to) {
                scans.push(((from, to), guards));
            }
        }
        for ((from, to), guards) in scans {
            let (body, marked) = guards.masks();
            let function = format!(
                "/// The check from `{}` into `{}` bit-parallel (spec/codegen.md, \"Bit-parallel flank listings\"); `None`: the plain check decides.\n\
                 #[inline(always)]\n\
                 fn q{from}_{to}(v: &Values) -> Option<bool> {{\n\
                 {body}\
                 Some(({marked}) != 0)\n\
                 }}\n\n",
                self.automaton.nodes[from as usize].name,
                self.automaton.nodes[to as usize].name,
            );
            self.flank_scans.insert((from, to), function);
        }
    }

    /// The call of the pure check `r<from>_<to>` (`plain`) with a flank scan's masks first.
    pub(super) fn flank_scan_call(&self, from: u32, to: u32, plain: String) -> String {
        if self.flank_scans.contains_key(&(from, to)) {
            format!("(match q{from}_{to}(v) {{ Some(found) => found, None => {plain} }})")
        } else {
            plain
        }
    }

    /// The functions `q<from>_<to>` of the flank scans.
    pub(super) fn flank_scan_functions(&self) -> String {
        self.flank_scans.values().cloned().collect()
    }

    /// The functions `b<N>` of the bit-listed starts, recording the starts in `bit_starts`.
    pub(super) fn bit_listing_functions(&mut self) -> String {
        let mut out = String::new();
        for node in 0..self.automaton.nodes.len() {
            if self.counted_starts.contains(&(node as u32)) {
                continue;
            }
            if let Some(function) = self.bit_listing_function(node) {
                self.bit_starts.push(node as u32);
                out.push_str(&function);
            }
        }
        out.push_str(&self.flank_scan_functions());
        out
    }

    /// `pick_counted` of the game's `impl`, when some start is counted ([`super::counted`]) or
    /// bit-listed (else the trait's default: no counted start): the counted starts' arms and the
    /// bit-listed starts', which may decline (`None`: the plain listing runs).
    pub(super) fn pick_dispatch(&self) -> String {
        if self.counted_starts.is_empty() && self.bit_starts.is_empty() {
            return String::new();
        }
        let counted =
            self.counted_starts.iter().map(|node| format!("            {node} => Some(c{node}(values, pick)),\n"));
        let bits = self.bit_starts.iter().map(|node| format!("            {node} => b{node}(values, pick),\n"));
        let arms: String = counted.chain(bits).collect();
        format!(
            "
    #[inline(always)]
    fn pick_counted<P: FnOnce(usize) -> Option<usize>>(node: u32, values: &Values, pick: P) -> Option<(usize, Option<u64>)> {{
        match node {{
{arms}            _ => None,
        }}
    }}
"
        )
    }

    /// The bit-listed function of start `node`, if it qualifies (see the module doc).
    fn bit_listing_function(&mut self, node: usize) -> Option<String> {
        let (automaton, plan, analysis) = (self.automaton, self.plan, &self.analysis);
        let qualifies = self.sym == "u8"
            && analysis.is_start[node]
            && analysis.in_moves[node]
            && analysis.unique_start[node]
            && self.deltas.starts[node]
            && !self.deltas.mixed[node]
            && !analysis.visit_in_moves[node]
            && !analysis.opens_scope[node]
            && automaton.nodes[node].edges.len() == 1;
        if !qualifies {
            return None;
        }
        let edge = automaton.nodes[node].edges.start as usize;
        let PlanOp::AssignAny { lhs, members, sets_player: false } = &plan.ops[edge] else { return None };
        let slot = graph::fixed_slot(lhs)?;
        // The chain: guards, then `$$ x`, then a completion assigning one fixed slot.
        let mut guards = Vec::new();
        let mut board: Option<(u32, Vec<u32>)> = None;
        let mut at = automaton.edges[edge].target;
        let tag_edge = loop {
            let next = single_edge(automaton, at)?;
            if analysis.visit_in_moves[at as usize]
                || analysis.opens_scope[at as usize]
                || self.edge_fallible_in_moves(next)
            {
                return None;
            }
            match &plan.ops[next] {
                PlanOp::TagExpr(PlanOperand::Place(place)) if graph::fixed_slot(place) == Some(slot) => break next,
                PlanOp::Reach { from, to, negated: false } => {
                    let check = flank_check(automaton, plan, *from, *to)?;
                    if check.origin != slot || !same_board(&mut board, check.board, &check.board_offsets) {
                        return None;
                    }
                    guards.push(Guard::Flank(check));
                }
                op => {
                    let (base, offsets, literal, equal) =
                        match (board_test(op, slot, true), board_test(op, slot, false)) {
                            (Some((b, o, l)), _) => (b, o, l, true),
                            (_, Some((b, o, l))) => (b, o, l, false),
                            _ => return None,
                        };
                    if !same_board(&mut board, base, offsets) {
                        return None;
                    }
                    guards.push(Guard::Byte { literal, equal });
                }
            }
            at = automaton.edges[next].target;
            if guards.len() > automaton.nodes.len() {
                return None;
            }
        };
        let (board, board_offsets) = board?;
        let target = automaton.edges[tag_edge].target;
        let completion = single_edge(automaton, target)?;
        if !super::completes(&plan.ops[completion]) {
            return None;
        }
        let PlanOp::Assign { lhs: assigned, rhs, transfer: PlanTransfer::Slot, .. } = &plan.ops[completion] else {
            return None;
        };
        let assigned = graph::fixed_slot(assigned)?;
        let site = self.deltas.site_of_edge[completion]?;
        if !self.deltas.sites[site].computed.is_empty() || assigned == slot || self.edge_fallible_in_moves(completion) {
            return None;
        }
        let guards = bit_guards(plan, members, guards, board, &board_offsets)?;
        let (body, marked) = guards.masks();
        let members_table = self.table("BITMEMBERS", self.sym, guards.table.clone());
        // The completion's value, read with the loop variable holding the member.
        self.bound = vec![(slot, "member".to_string())];
        let value = self.value(rhs);
        self.bound.clear();
        let bits = slot_bits(self.sym);
        let mut word = format!("{site}u64");
        for (i, &written) in self.deltas.sites[site].slots.iter().enumerate() {
            let read = match written {
                s if s == slot => "member".to_string(),
                s if s == assigned => "x".to_string(),
                s => format!("v[{s}]"),
            };
            write!(word, " | ({read} as u64) << {}", 16 + bits * i as u32).expect("writing to a String");
        }
        let sym = self.sym;
        let name = &automaton.nodes[node].name;
        Some(format!(
            "/// Node `{name}`'s moves counted bit-parallel (spec/codegen.md, \"Bit-parallel flank listings\").\n\
             #[inline(always)]\n\
             fn b{node}<P: FnOnce(usize) -> Option<usize>>(v: &Values, pick: P) -> Option<(usize, Option<u64>)> {{\n\
             {body}\
             let marked = {marked};\n\
             let count = marked.count_ones() as usize;\n\
             let Some(k) = pick(count) else {{ return Some((count, None)) }};\n\
             let member: {sym} = {members_table}[select_bit(marked, k)];\n\
             let x: {sym} = {value};\n\
             Some((count, Some({word})))\n\
             }}\n\n",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::generate;
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// An 8x8 board's offsets: `null` at 0, then `P(c, r)` at `1 + 8c + r`, the default at 65.
    fn cell(column: u32, row: u32) -> u32 {
        1 + 8 * column + row
    }

    /// A flank check whose one direction steps `P(c, r)` to `next(c, r)` (`None`: to `null`), the
    /// same from the origin and from the cursor.
    fn one_direction(next: impl Fn(u32, u32) -> Option<(u32, u32)>) -> FlankCheck {
        let mut steps = vec![Some(0); 66];
        for column in 0..8 {
            for row in 0..8 {
                steps[cell(column, row) as usize] = Some(next(column, row).map_or(0, |(c, r)| cell(c, r)));
            }
        }
        FlankCheck {
            origin: 0,
            board: 0,
            board_offsets: Vec::new(),
            theirs: 1,
            mine: 2,
            first_steps: vec![steps.clone()],
            ring_steps: vec![steps],
        }
    }

    #[test]
    fn a_step_table_that_adds_one_constant_is_a_masked_shift() {
        let north = one_direction(|c, r| (r < 7).then_some((c, r + 1)));
        let expected = Shift { amount: 1, edge: 0x7f7f_7f7f_7f7f_7f7f, iterations: 5 };
        assert_eq!(shifts(&north, 1), Some((vec![expected], vec![0])));
        let south_west = one_direction(|c, r| (c > 0 && r > 0).then(|| (c - 1, r - 1)));
        let expected = Shift { amount: -9, edge: 0xfefe_fefe_fefe_fe00, iterations: 5 };
        assert_eq!(shifts(&south_west, 1), Some((vec![expected], vec![0])));
        // A window holding `null` (offset 0, stepping to itself) and not P(7, 7): no shift.
        assert_eq!(shifts(&north, 0), None);
    }

    #[test]
    fn a_step_table_that_wraps_or_differs_between_its_steps_is_no_shift() {
        // The top row steps back to the column's bottom: 1 elsewhere, -7 there.
        let wrapping = one_direction(|c, r| Some((c, (r + 1) % 8)));
        assert_eq!(shifts(&wrapping, 1), None);
        // Off the top row into the next column's bottom: `+1` on every cell but the last, which
        // is a shift (the table's geometry is not a board's, but the bits follow it exactly).
        let snake = one_direction(|c, r| (c < 7 || r < 7).then(|| if r < 7 { (c, r + 1) } else { (c + 1, 0) }));
        let expected = Shift { amount: 1, edge: 0x7fff_ffff_ffff_ffff, iterations: 61 };
        assert_eq!(shifts(&snake, 1), Some((vec![expected], vec![0])));
        // The first step north, the ring's east.
        let mut mixed = one_direction(|c, r| (r < 7).then_some((c, r + 1)));
        mixed.ring_steps = one_direction(|c, r| (c < 7).then_some((c + 1, r))).ring_steps;
        assert_eq!(shifts(&mixed, 1), None);
        // A symbol-dependent step (`None`: two symbols at one offset disagree).
        let mut split = one_direction(|c, r| (r < 7).then_some((c, r + 1)));
        split.ring_steps[0][cell(3, 3) as usize] = None;
        assert_eq!(shifts(&split, 1), None);
    }

    /// A one-player game on a line of 64 cells `c0..c63` and `off`: place on an empty cell that
    /// flanks (`? flank -> flanked`, the shape of the module doc) along `up` or `down`, whose
    /// steps are `step` (`c_i` to `c_{i±1}`, `off` past the ends, unless `wrap`: `up` from
    /// `c63` to `c0`).
    fn line_game(wrap: bool) -> (regula_runtime::automaton::Automaton, String) {
        let cells: Vec<String> = (0..64).map(|i| format!("c{i}")).collect();
        let up: Vec<String> =
            (0..63).map(|i| format!("c{i}: c{}", i + 1)).chain(wrap.then(|| "c63: c0".to_string())).collect();
        let down: Vec<String> = (1..64).map(|i| format!("c{i}: c{}", i - 1)).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Dir", "{up, down}");
        builder
            .typedef("Cell", &format!("{{{}, off}}", cells.join(", ")))
            .typedef("Disc", "{empty, mine, theirs, wall}");
        builder.typedef("Board", "Cell -> Disc").typedef("Step", "Dir -> Cell -> Cell");
        builder.constant(
            "step",
            "Step",
            &format!("{{up: {{{}, :off}}, down: {{{}, :off}}, :{{:off}}}}", up.join(", "), down.join(", ")),
        );
        builder.variable("board", "Board", "{off: wall, c1: theirs, c2: mine, :empty}");
        builder.variable("at", "Cell", "c0").variable("dir", "Dir", "up").variable("cursor", "Cell", "c0");
        for (from, to, label) in [
            ("begin", "choose", "player = x"),
            ("choose", "picked", "at = Cell(*)"),
            ("picked", "empty", "board[at] == empty"),
            ("empty", "legal", "? flank -> flanked"),
            ("legal", "tagged", "$$ at"),
            ("tagged", "placed", "player = keeper"),
            ("placed", "stoned", "board[at] = mine"),
            ("stoned", "choose", "player = x"),
            ("flank", "aimed", "dir = Dir(*)"),
            ("aimed", "first", "cursor = step[dir][at]"),
            ("first", "ring", "board[cursor] == theirs"),
            ("ring", "test", "cursor = step[dir][cursor]"),
            ("test", "close", "board[cursor] != theirs"),
            ("test", "ring", "board[cursor] == theirs"),
            ("close", "flanked", "board[cursor] == mine"),
        ] {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let module = generate(&automaton, "test").expect("generates");
        (automaton, module)
    }

    #[test]
    fn a_placement_guarded_by_a_flank_check_over_shifts_is_counted_bit_parallel() {
        let (automaton, module) = line_game(false);
        let node = automaton.nodes.iter().position(|n| n.name == "choose").expect("the start");
        let id = |name: &str| automaton.symbol_id(name).expect("a symbol");
        let (empty, mine, theirs) = (id("empty"), id("mine"), id("theirs"));
        let start = module.find(&format!("fn b{node}<")).unwrap_or_else(|| panic!("a bit listing: {module}"));
        let function = &module[start..start + module[start..].find("\n}\n").expect("its end")];
        // The board is slots 0..=64, `off` (slot 64) a member outside the window and the sink of
        // both directions: a disc there, or `empty` (it would pass the byte test), sends the ply
        // to the listing.
        let expected = format!(
            "if (v[64] == {empty}) || v[64] == {theirs} || v[64] == {mine} {{ return None; }}
let cells = WindowBytes::new(v[0..64].try_into().expect(\"a board window\"));
let mine0 = cells.matches({mine});
let theirs0 = cells.matches({theirs});
let flanked0 = flank_origins(mine0, theirs0, 1, 0x7fffffffffffffff, 61)
    | flank_origins(mine0, theirs0, -1, 0xfffffffffffffffe, 61);
let marked = 0xffffffffffffffff & cells.matches({empty}) & flanked0;"
        );
        assert!(function.contains(&expected), "{function}");
        assert!(module.contains(&format!("            {node} => b{node}(values, pick),\n")), "{module}");
        // With `up` wrapping from the last cell to the first, no shift: the plain listing only.
        let (_, wrapped) = line_game(true);
        assert!(!wrapped.contains("fn pick_counted") && !wrapped.contains("flank_origins"), "{wrapped}");
    }
}
