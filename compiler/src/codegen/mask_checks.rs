//! Mask checks: a pure reachability check whose only reads of the state are one board's cells
//! compared with one value, evaluated at generation time into terms over the cells' match bits
//! (spec/codegen.md, "Mask checks").
//!
//! The shape, recognised from the automaton: a pure check (`? from -> to`) whose region
//! compares cells of one state map (the *board*, at most 64 slots) with `==` / `!=` against one
//! *compared value* (a literal, or a slot the check never writes: the player), and whose other
//! reads are literals, constants, slots the check wrote before, and at most one *start slot*
//! read before it is written (connect four's last cell). It writes no board cell and nests no
//! check; every symbol of the game is below 128 (a one-byte state).
//!
//! Generation explores the check's sub-automaton for every symbol the start slot can hold, with
//! every other slot it reads concrete and the board symbolic: a comparison of two known values
//! prunes or passes, a cell comparison adds a literal "cell equals / differs from the compared
//! value" to the path, a path whose literals contradict is dropped, and a path entering `to`
//! yields its literals as a *term*. A path that comes back to a node with the same known values
//! is cut: every continuation from there is open to the earlier visit with no more literals. The
//! check holds exactly when some term's literals all hold: the exploration is exhaustive, so the
//! terms are exact, not a heuristic. A cell's literal is decided at generation time where the
//! values the cell can ever hold ([`super::slot_values`]: its initial value and what the writes
//! whose keys can reach it store) share none with the compared value's, or are just the compared
//! literal: a term needing connect four's off-board cell `board[null]` (never written: `last` is
//! never `null` where `board[last] = me` runs) to hold the mover's disc is dropped. A write
//! through a key outside a map's domain is an error, never a store: a map's default block keeps
//! its value.
//! Duplicate terms and terms implied by another term (a superset of its literals) are dropped.
//!
//! Emitted: the check's start function computes `d`, one bit per board cell set where the cell
//! differs from the compared value (`regula_runtime::compiled::mask_checks`, five operations per
//! eight cells; a word whose used cells are its first 1, 2 or 4 bytes is read by one narrow
//! load, `differing_low`, so it does not cover slots a delta just wrote as bytes; where the used
//! cells span sixteen slots or more, sixteen cells a load in board order, `mask_lanes.rs`), and the
//! check is `d & (cells of the term) == (cells that must differ)` or-ed over the terms of the
//! start slot's row, with no branch. A row of single-cell terms is two mask
//! tests. Not taken where a row has more than [`MAX_TERMS`] terms, where the exploration takes
//! more than [`STEP_BUDGET`] steps, where the start slot is the check's offset register, or in
//! functions specialised for known values.

use super::values::ValueSets;
use super::Generator;
use regula_runtime::automaton::{Automaton, Label};
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanTransfer};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The most terms one start value's row may hold.
pub(crate) const MAX_TERMS: usize = 64;
/// The most edges the exploration of one check may follow, over all start values.
const STEP_BUDGET: usize = 1 << 18;
/// The most slots of the board: one bit each.
const MAX_BOARD_SLOTS: u32 = 64;
/// Every symbol is below this: `regula_runtime::compiled::mask_checks::differing` is exact.
const MAX_SYMBOLS: usize = 128;

/// What the board's cells are compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compared {
    Literal(u32),
    Slot(u32),
}

/// A conjunction of cell literals: bit `i` stands for board slot `board.0 + i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Term {
    /// Cells that must equal the compared value.
    pub equal: u64,
    /// Cells that must differ from it.
    pub differ: u64,
}

impl Term {
    fn implies(&self, other: &Term) -> bool {
        // `self` has every literal of `other` (and maybe more): `other` holds wherever `self` does.
        self.equal & other.equal == other.equal && self.differ & other.differ == other.differ
    }
}

/// A check in the shape of the module doc, with its terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MaskCheck {
    /// The board's slots `start..end`.
    pub board: (u32, u32),
    pub compared: Compared,
    /// The slot choosing the row, if any.
    pub start: Option<u32>,
    /// The distinct rows of terms.
    pub rows: Vec<Vec<Term>>,
    /// Per symbol (when `start` is set), its row.
    pub row_of_symbol: Vec<u32>,
    /// Per start symbol, the board offset of the cell known to equal the compared value at every
    /// call (settled_cells.rs): the rows hold only there.
    pub settled: Option<Vec<Option<u32>>>,
}

/// Why an exploration stopped.
enum Stop {
    /// A slot read before it was written (a start slot candidate).
    Unknown(u32),
    /// Not the shape.
    Shape,
}

/// One side of a comparison.
enum Side {
    Value(u32),
    /// A board cell, by offset.
    Cell(u32),
    /// A plain state slot not known here.
    Free(u32),
}

struct Explorer<'a> {
    automaton: &'a Automaton,
    plan: &'a Plan,
    to: u32,
    region: &'a [bool],
    board: (u32, u32),
    /// Per board offset, the values the cell can ever hold (slot_values.rs).
    cell_values: Vec<Vec<u32>>,
    /// The values the compared slot can hold (for cells of constant value).
    compared_members: Option<Vec<u32>>,
    compared: Option<Compared>,
    start: Option<(u32, u32)>,
    /// The board offset of a cell known to equal the compared value at every call
    /// (settled_cells.rs).
    settled: Option<u32>,
    steps: usize,
    terms: Vec<Term>,
}

impl Explorer<'_> {
    fn in_board(&self, slot: u32) -> bool {
        slot >= self.board.0 && slot < self.board.1
    }

    fn known(&self, env: &[(u32, u32)], slot: u32) -> Option<u32> {
        if let Some(&(_, value)) = env.iter().rev().find(|(s, _)| *s == slot) {
            return Some(value);
        }
        self.start.filter(|(s, _)| *s == slot).map(|(_, value)| value)
    }

    fn side(&self, operand: &PlanOperand, env: &[(u32, u32)]) -> Result<Side, Stop> {
        match operand {
            PlanOperand::Literal(symbol) => Ok(Side::Value(*symbol)),
            PlanOperand::Place(place) => {
                let slot = self.slot(place, env)?;
                if !place.in_state {
                    return self.plan.const_values.get(slot as usize).map(|&v| Side::Value(v)).ok_or(Stop::Shape);
                }
                if self.in_board(slot) {
                    return Ok(Side::Cell(slot - self.board.0));
                }
                match self.known(env, slot) {
                    Some(value) => Ok(Side::Value(value)),
                    None if place.steps.is_empty() => Ok(Side::Free(slot)),
                    None => Err(Stop::Shape),
                }
            }
        }
    }

    fn value(&self, operand: &PlanOperand, env: &[(u32, u32)]) -> Result<u32, Stop> {
        match self.side(operand, env)? {
            Side::Value(value) => Ok(value),
            Side::Free(slot) => Err(Stop::Unknown(slot)),
            Side::Cell(_) => Err(Stop::Shape),
        }
    }

    fn slot(&self, place: &PlanPlace, env: &[(u32, u32)]) -> Result<u32, Stop> {
        let mut slot = place.base;
        for step in &place.steps {
            let key = self.value(&step.key, env)?;
            slot += *step.offsets.get(key as usize).ok_or(Stop::Shape)?;
        }
        Ok(slot)
    }

    /// A slot a label writes: not a board cell, not the compared slot.
    fn written(&self, place: &PlanPlace, env: &[(u32, u32)]) -> Result<u32, Stop> {
        let slot = self.slot(place, env)?;
        if !place.in_state || self.in_board(slot) || self.compared == Some(Compared::Slot(slot)) {
            return Err(Stop::Shape);
        }
        Ok(slot)
    }

    /// The term with the literal "cell `cell` equals (or differs from) the compared value",
    /// `None` when that contradicts it.
    fn literal(&self, term: Term, cell: u32, equal: bool) -> Option<Term> {
        if self.settled == Some(cell) {
            return equal.then_some(term);
        }
        // Decided where the cell's values and the compared value's share none (never equal),
        // or are both one and the same value (always equal).
        let held = &self.cell_values[cell as usize];
        let equals = match (self.compared, &self.compared_members) {
            (Some(Compared::Literal(symbol)), _) => match held.as_slice() {
                [only] => Some(*only == symbol),
                _ => (!held.contains(&symbol)).then_some(false),
            },
            (Some(Compared::Slot(_)), Some(members)) => match (held.as_slice(), members.as_slice()) {
                ([only], [compared]) if only == compared => Some(true),
                _ => (!held.iter().any(|value| members.contains(value))).then_some(false),
            },
            _ => None,
        };
        if let Some(equals) = equals {
            return (equals == equal).then_some(term);
        }
        let bit = 1u64 << cell;
        let mut term = term;
        if equal {
            term.equal |= bit;
        } else {
            term.differ |= bit;
        }
        (term.equal & term.differ == 0).then_some(term)
    }

    fn compared_is(&mut self, compared: Compared) -> Result<(), Stop> {
        match self.compared {
            None => {
                self.compared = Some(compared);
                Ok(())
            }
            Some(known) if known == compared => Ok(()),
            Some(_) => Err(Stop::Shape),
        }
    }

    fn explore(
        &mut self,
        node: u32,
        env: &mut Vec<(u32, u32)>,
        term: Term,
        path: &mut Vec<(u32, Vec<(u32, u32)>)>,
    ) -> Result<(), Stop> {
        if node == self.to {
            self.terms.push(term);
            return Ok(());
        }
        if !enter_path(path, node, env) {
            return Ok(());
        }
        for edge in self.automaton.nodes[node as usize].edges.clone() {
            let edge = edge as usize;
            let target = self.automaton.edges[edge].target;
            if target != self.to && !self.region[target as usize] {
                continue;
            }
            self.steps += 1;
            if self.steps > STEP_BUDGET {
                return Err(Stop::Shape);
            }
            match &self.plan.ops[edge] {
                PlanOp::Skip | PlanOp::Tag(_) | PlanOp::TagExpr(_) => self.explore(target, env, term, path)?,
                PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                    let slot = self.written(lhs, env)?;
                    let value = self.value(rhs, env)?;
                    env.push((slot, value));
                    let result = self.explore(target, env, term, path);
                    env.pop();
                    result?;
                }
                PlanOp::AssignAny { lhs, members, .. } => {
                    let slot = self.written(lhs, env)?;
                    for &member in members {
                        env.push((slot, member));
                        let result = self.explore(target, env, term, path);
                        env.pop();
                        result?;
                    }
                }
                PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
                    let (lhs, rhs) = (self.side(lhs, env)?, self.side(rhs, env)?);
                    let next = match (lhs, rhs) {
                        (Side::Value(a), Side::Value(b)) => ((a == b) == *equal).then_some(term),
                        (Side::Cell(cell), Side::Value(symbol)) | (Side::Value(symbol), Side::Cell(cell)) => {
                            self.compared_is(Compared::Literal(symbol))?;
                            self.literal(term, cell, *equal)
                        }
                        (Side::Cell(cell), Side::Free(slot)) | (Side::Free(slot), Side::Cell(cell)) => {
                            self.compared_is(Compared::Slot(slot))?;
                            self.literal(term, cell, *equal)
                        }
                        (Side::Free(slot), _) | (_, Side::Free(slot)) => return Err(Stop::Unknown(slot)),
                        (Side::Cell(_), Side::Cell(_)) => return Err(Stop::Shape),
                    };
                    if let Some(next) = next {
                        self.explore(target, env, next, path)?;
                    }
                }
                PlanOp::Assign { .. } | PlanOp::Compare { .. } | PlanOp::Reach { .. } => return Err(Stop::Shape),
            }
        }
        path.pop();
        Ok(())
    }
}

/// The board a check's region compares: the one state map whose cells its comparisons read
/// through computed keys, with its slots `start..end`.
/// Pushes `node` onto an exploration's `path` with the latest value of each slot `env` binds,
/// unless the path already holds that node with those values (a cycle that fixed nothing new),
/// in which case it returns `false` and the caller stops this branch. Shared by the mask and
/// shift checks' explorations.
pub(super) fn enter_path(path: &mut Vec<(u32, Vec<(u32, u32)>)>, node: u32, env: &[(u32, u32)]) -> bool {
    let mut current: Vec<(u32, u32)> = Vec::new();
    for &(slot, value) in env {
        match current.iter_mut().find(|(s, _)| *s == slot) {
            Some(entry) => entry.1 = value,
            None => current.push((slot, value)),
        }
    }
    current.sort_unstable();
    if path.iter().any(|(n, seen)| *n == node && *seen == current) {
        return false;
    }
    path.push((node, current));
    true
}

fn board_of(automaton: &Automaton, plan: &Plan, to: u32, region: &[bool]) -> Option<(u32, u32)> {
    let mut boards = BTreeSet::new();
    for (edge, op) in plan.ops.iter().enumerate() {
        let source = automaton.edges[edge].source;
        let target = automaton.edges[edge].target;
        if !region[source as usize] || (target != to && !region[target as usize]) {
            continue;
        }
        if let PlanOp::Compare { lhs, rhs, .. } = op {
            for operand in [lhs, rhs] {
                if let PlanOperand::Place(place) = operand {
                    if place.in_state && !place.steps.is_empty() {
                        let (start, len) =
                            *plan.var_slots.iter().find(|&&(s, l)| place.base >= s && place.base < s + l)?;
                        boards.insert((start, start + len));
                    }
                }
            }
        }
    }
    match boards.into_iter().collect::<Vec<_>>().as_slice() {
        [(start, end)] if end - start <= MAX_BOARD_SLOTS => Some((*start, *end)),
        _ => None,
    }
}

/// Per board offset, the one value a cell can ever hold, if it has one (its initial value, never
/// changed: [`super::slot_values`]), for shift checks' literals.
pub(crate) fn constant_cells(
    automaton: &Automaton,
    plan: &Plan,
    values: &ValueSets,
    board: (u32, u32),
) -> Vec<Option<u32>> {
    super::slot_values::slot_values(automaton, plan, values, board)
        .into_iter()
        .map(|held| match held.as_slice() {
            [only] => Some(*only),
            _ => None,
        })
        .collect()
}

/// Duplicate terms and terms implied by another term dropped, in a fixed order.
fn without_implied(mut terms: Vec<Term>) -> Vec<Term> {
    terms.sort_unstable_by_key(|t| ((t.equal | t.differ).count_ones(), *t));
    terms.dedup();
    let mut kept: Vec<Term> = Vec::new();
    for term in terms {
        if !kept.iter().any(|k| term.implies(k)) {
            kept.push(term);
        }
    }
    kept
}

/// The most cases [`covered`] splits into, per row, before it gives up (answers `false`).
const COVER_BUDGET: usize = 1 << 12;

/// Whether every board on which all of `cube`'s literals hold satisfies some term of `terms`
/// (Shannon expansion on the terms' cells). `false` when the budget runs out, which only keeps
/// a literal [`simplified`] could have dropped.
fn covered(cube: Term, terms: &[Term], budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let consistent: Vec<&Term> =
        terms.iter().filter(|t| t.equal & cube.differ == 0 && t.differ & cube.equal == 0).collect();
    if consistent.iter().any(|t| cube.implies(t)) {
        return true;
    }
    let Some(open) = consistent.first().map(|t| (t.equal | t.differ) & !(cube.equal | cube.differ)) else {
        return false;
    };
    let bit = open & open.wrapping_neg();
    covered(Term { equal: cube.equal | bit, ..cube }, terms, budget)
        && covered(Term { differ: cube.differ | bit, ..cube }, terms, budget)
}

/// The terms with duplicates and implied terms dropped, and every "differs" literal dropped
/// that the others make redundant: the term without it still implies the disjunction (the term
/// with that cell equal instead is covered by the terms). Exact: the disjunction holds on the
/// same boards. Connect four's guarded walk back (`if board[behind] == who`) gives "the cell
/// behind differs" literals that the windows further back make redundant.
fn simplified(terms: Vec<Term>) -> Vec<Term> {
    let mut terms = without_implied(terms);
    let mut budget = COVER_BUDGET;
    for index in 0..terms.len() {
        let mut differ = terms[index].differ;
        while differ != 0 {
            let bit = differ & differ.wrapping_neg();
            differ &= differ - 1;
            let term = terms[index];
            let flipped = Term { equal: term.equal | bit, differ: term.differ & !bit };
            if covered(flipped, &terms, &mut budget) {
                terms[index].differ &= !bit;
            }
        }
    }
    without_implied(terms)
}

/// The mask check `? from -> to` (module doc), if it has the shape.
pub(crate) fn mask_check(
    automaton: &Automaton,
    plan: &Plan,
    values: &ValueSets,
    from: u32,
    to: u32,
    region: &[bool],
) -> Option<MaskCheck> {
    if automaton.symbols.len() > MAX_SYMBOLS || plan.state_len < 8 {
        return None;
    }
    let board = board_of(automaton, plan, to, region)?;
    let mut explorer = Explorer {
        automaton,
        plan,
        to,
        region,
        board,
        cell_values: super::slot_values::slot_values(automaton, plan, values, board),
        compared_members: None,
        compared: None,
        start: None,
        settled: None,
        steps: 0,
        terms: Vec::new(),
    };
    // First without a start slot; a slot read before it is written becomes the start slot.
    let start = match explorer.explore(from, &mut Vec::new(), Term { equal: 0, differ: 0 }, &mut Vec::new()) {
        Ok(()) => None,
        Err(Stop::Unknown(slot)) if !(board.0..board.1).contains(&slot) => Some(slot),
        Err(_) => return None,
    };
    // Every row, twice: the first run learns the compared value, whose members then decide
    // the literals of cells of constant value in the second.
    let mut row_terms = Vec::new();
    let mut settled_cells = None;
    for run in 0..2 {
        if run == 1 {
            if let Some(Compared::Slot(slot)) = explorer.compared {
                if Some(slot) == start {
                    return None;
                }
                explorer.compared_members = Some(values.slot_members(slot));
            }
            settled_cells = start.zip(explorer.compared).and_then(|(start, compared)| {
                super::settled_cells::settled_start_cells(automaton, plan, board, start, compared, (from, to), region)
            });
        }
        row_terms.clear();
        let symbols: Vec<Option<u32>> = match start {
            None => vec![None],
            Some(_) => (0..automaton.symbols.len() as u32).map(Some).collect(),
        };
        for symbol in symbols {
            explorer.start = start.zip(symbol);
            explorer.settled = settled_cells.as_ref().zip(symbol).and_then(|(cells, s)| cells[s as usize]);
            explorer.terms.clear();
            explorer.explore(from, &mut Vec::new(), Term { equal: 0, differ: 0 }, &mut Vec::new()).ok()?;
            row_terms.push(simplified(std::mem::take(&mut explorer.terms)));
        }
    }
    let compared = explorer.compared?;
    if row_terms.iter().any(|row| row.len() > MAX_TERMS) {
        return None;
    }
    let mut rows: Vec<Vec<Term>> = Vec::new();
    let mut row_of_symbol = Vec::new();
    for terms in row_terms {
        let row = match rows.iter().position(|r| *r == terms) {
            Some(row) => row,
            None => {
                rows.push(terms);
                rows.len() - 1
            }
        };
        row_of_symbol.push(row as u32);
    }
    if start.is_none() {
        row_of_symbol.clear();
    }
    Some(MaskCheck { board, compared, start, rows, row_of_symbol, settled: settled_cells })
}

/// Where each board offset's bit sits in `d`: the words read (their first slots) and, per board
/// offset used by some term, its bit (`8 * byte + 7 - word`, see the runtime's module).
pub(crate) fn bit_layout(check: &MaskCheck, state_len: u32) -> (Vec<u32>, Vec<Option<u32>>) {
    let used = check.rows.iter().flatten().fold(0u64, |used, t| used | t.equal | t.differ);
    let size = check.board.1 - check.board.0;
    let mut bits = vec![None; size as usize];
    if used == 0 {
        return (Vec::new(), bits);
    }
    let low = used.trailing_zeros();
    let high = 64 - used.leading_zeros(); // one past the last used offset
    let mut words = Vec::new();
    let mut next = low;
    while next < high {
        let at = (check.board.0 + next).min(state_len - 8);
        let word = words.len() as u32;
        for offset in next..high {
            let slot = check.board.0 + offset;
            if slot >= at && slot < at + 8 {
                bits[offset as usize] = Some(8 * (slot - at) + 7 - word);
            }
        }
        words.push(at);
        next = at + 8 - check.board.0;
    }
    (words, bits)
}

/// A term's cells and differing cells as masks over `d`'s bits.
fn term_masks(term: &Term, bits: &[Option<u32>]) -> (u64, u64) {
    let mut cells = 0u64;
    let mut differ = 0u64;
    for (offset, bit) in bits.iter().enumerate() {
        if let Some(bit) = bit {
            if (term.equal | term.differ) >> offset & 1 == 1 {
                cells |= 1 << bit;
            }
            if term.differ >> offset & 1 == 1 {
                differ |= 1 << bit;
            }
        }
    }
    (cells, differ)
}

impl Generator<'_> {
    /// Whether `node` starts a check into `to` that a word-at-a-time check shape (mask checks,
    /// shift checks) may take: one-byte symbols, and no member loop fixing slots around it.
    pub(super) fn starts_byte_check(&self, node: u32, to: u32) -> bool {
        self.known.is_empty()
            && self.sym == "u8"
            && self
                .automaton
                .edges
                .iter()
                .any(|e| matches!(e.label, Label::Reach { from, to: t, .. } if from == node && t == to))
    }

    /// The start function of a mask check (module doc) for node `node` into `to`, with the
    /// check's plain signature, if `node` starts a check of the shape.
    pub(super) fn mask_check_function(&mut self, node: u32, to: u32, signature: &str) -> Option<String> {
        if !self.starts_byte_check(node, to) {
            return None;
        }
        let check = mask_check(self.automaton, self.plan, &self.values, node, to, &self.reach[&to].region)?;
        let read = |generator: &Self, slot: u32| -> Option<String> {
            if generator.in_offset.as_ref().is_some_and(|(offset_slot, _)| *offset_slot == slot) {
                return None;
            }
            Some(if generator.in_registers.contains(&slot) { format!("r{slot}") } else { format!("v[{slot}]") })
        };
        let row_index = match check.start {
            Some(slot) => Some(read(self, slot)?),
            None => None,
        };
        let compared = match check.compared {
            Compared::Literal(symbol) => format!("{symbol}"),
            Compared::Slot(slot) => read(self, slot)?,
        };
        // Sixteen cells a load where the used cells span that many (mask_lanes.rs).
        let lanes = super::mask_lanes::lane_loads(&check);
        let (words, bits) = match &lanes {
            Some(loads) => (loads.clone(), super::mask_lanes::lane_bits(&check)),
            None => bit_layout(&check, self.plan.state_len as u32),
        };
        let mut body = String::new();
        let node_name = self.automaton.nodes[node as usize].name.replace('`', "'");
        let term_count: usize = check.rows.iter().map(Vec::len).max().unwrap_or(0);
        writeln!(
            body,
            "/// Node `{node_name}`: a mask check, {} rows of at most {term_count} terms (mask_checks.rs).",
            check.rows.len()
        )
        .unwrap();
        // A check read by lanes stays a call (mask_lanes.rs, "Not inlined").
        let inline = if lanes.is_some() { "#[inline(never)]" } else { "#[inline]" };
        writeln!(body, "{inline}\n{signature} {{").unwrap();
        if words.is_empty() {
            // No term reads a cell: the check holds exactly where some term (the empty one) is.
            let holds: Vec<u64> = check.rows.iter().map(|row| !row.is_empty() as u64).collect();
            match row_index {
                None => writeln!(body, "{}", holds[0] == 1).unwrap(),
                Some(index) => {
                    let per_symbol: Vec<u64> = check.row_of_symbol.iter().map(|&r| holds[r as usize]).collect();
                    let table = self.symbol_table("MHOLDS", "u8", &per_symbol, 0);
                    writeln!(body, "{table}[({index} as usize)] != 0").unwrap();
                }
            }
            writeln!(body, "}}\n").unwrap();
            return Some(body);
        }
        match &lanes {
            Some(_) => writeln!(body, "let x: u8 = {compared};").unwrap(),
            None => writeln!(body, "let x = regula_runtime::compiled::mask_checks::repeated({compared});").unwrap(),
        }
        // The word layout's reads (lanes read theirs below).
        let word_reads: &[u32] = if lanes.is_some() { &[] } else { &words };
        let parts: Vec<String> = word_reads
            .iter()
            .enumerate()
            .map(|(w, at)| {
                // A word whose used cells are its first bytes reads only those (module doc).
                let bytes = (0..bits.len())
                    .filter(|&offset| bits[offset].is_some_and(|bit| bit % 8 == 7 - w as u32))
                    .map(|offset| check.board.0 + offset as u32 - at + 1)
                    .max()
                    .map_or(8, |end| end.next_power_of_two());
                let word = match bytes {
                    1 | 2 | 4 => {
                        format!("regula_runtime::compiled::mask_checks::differing_low::<{bytes}>(v, {at}, x)")
                    }
                    _ => format!("regula_runtime::compiled::mask_checks::differing(v, {at}, x)"),
                };
                if w == 0 {
                    word
                } else {
                    format!("(({word}) >> {w})")
                }
            })
            .collect();
        let masks: Vec<Vec<(u64, u64)>> =
            check.rows.iter().map(|row| row.iter().map(|t| term_masks(t, &bits)).collect()).collect();
        let single = masks.iter().flatten().all(|(cells, _)| cells.count_ones() == 1);
        // Rows of terms without differing cells, of fewer than eight words: `d & cells == 0`
        // per term, padded with bit 0 (always set in `d`).
        // (Lanes pad with bit 63, set in their `d`.)
        let positive = !single
            && check.start.is_some()
            && (lanes.is_some() || words.len() < 8)
            && masks.iter().flatten().all(|(_, differ)| *differ == 0);
        let padding = if lanes.is_some() { super::mask_lanes::LANE_PADDING } else { 1 };
        match &lanes {
            Some(loads) => writeln!(body, "let d = {};", super::mask_lanes::lanes_differing(loads, check.board.0)),
            None => writeln!(body, "let d = {}{};", parts.join(" | "), if positive { " | 1" } else { "" }),
        }
        .unwrap();
        // Rows of one-cell terms: some listed cell equals (a `cells` bit with no `differ` bit is
        // clear in `d`) or differs.
        if single {
            let per_row: Vec<(u64, u64)> = masks
                .iter()
                .map(|row| {
                    let equal = row.iter().filter(|(c, d)| d == &0 && *c != 0).fold(0, |m, (c, _)| m | c);
                    let differ = row.iter().fold(0, |m, (_, d)| m | d);
                    (equal, differ)
                })
                .collect();
            match row_index {
                None => {
                    let (equal, differ) = per_row[0];
                    writeln!(body, "(!d & {equal:#x}) != 0 || (d & {differ:#x}) != 0").unwrap();
                }
                Some(index) => {
                    let rows = self.symbol_table(
                        "MROW",
                        "u8",
                        &check.row_of_symbol.iter().map(|&r| r as u64).collect::<Vec<_>>(),
                        0,
                    );
                    let equal = self.table("MEQUAL", "u64", per_row.iter().map(|p| p.0).collect());
                    let differ = self.table("MDIFFER", "u64", per_row.iter().map(|p| p.1).collect());
                    writeln!(body, "let row = {rows}[({index} as usize)] as usize;").unwrap();
                    writeln!(body, "(!d & {equal}[row]) != 0 || (d & {differ}[row]) != 0").unwrap();
                }
            }
        } else {
            match row_index {
                None => {
                    let terms: Vec<String> = masks[0].iter().map(|(c, d)| format!("(d & {c:#x} == {d:#x})")).collect();
                    writeln!(body, "{}", if terms.is_empty() { "false".to_string() } else { terms.join(" | ") })
                        .unwrap();
                }
                Some(index) if positive => {
                    // Rows padded with a term that never holds: bit 0 of `d`, set above and
                    // no cell's (it would be the eighth word's); bit 63 for lanes.
                    let mut flat = Vec::new();
                    for row in &masks {
                        for k in 0..term_count {
                            flat.push(row.get(k).map_or(padding, |(c, _)| *c));
                        }
                    }
                    let rows = self.symbol_table(
                        "MROW",
                        "u8",
                        &check.row_of_symbol.iter().map(|&r| r as u64).collect::<Vec<_>>(),
                        0,
                    );
                    let terms = self.table("MTERMS", "u64", flat);
                    writeln!(body, "let at = {rows}[({index} as usize)] as usize * {term_count};").unwrap();
                    writeln!(
                        body,
                        "let row: &[u64; {term_count}] = {terms}[at..at + {term_count}].try_into().unwrap();"
                    )
                    .unwrap();
                    writeln!(body, "let mut found = false;").unwrap();
                    writeln!(body, "for cells in row {{ found |= d & cells == 0; }}").unwrap();
                    writeln!(body, "found").unwrap();
                }
                Some(index) => {
                    // Rows padded with a term that never holds (no cell, one differing bit).
                    let mut flat = Vec::new();
                    for row in &masks {
                        for k in 0..term_count {
                            let (c, d) = row.get(k).copied().unwrap_or((0, 1));
                            flat.push(c);
                            flat.push(d);
                        }
                    }
                    let rows = self.symbol_table(
                        "MROW",
                        "u8",
                        &check.row_of_symbol.iter().map(|&r| r as u64).collect::<Vec<_>>(),
                        0,
                    );
                    let terms = self.table("MTERMS", "u64", flat);
                    let width = 2 * term_count;
                    writeln!(body, "let at = {rows}[({index} as usize)] as usize * {width};").unwrap();
                    writeln!(body, "let row: &[u64; {width}] = {terms}[at..at + {width}].try_into().unwrap();")
                        .unwrap();
                    writeln!(body, "let mut found = false;").unwrap();
                    writeln!(body, "for term in row.chunks_exact(2) {{ found |= d & term[0] == term[1]; }}").unwrap();
                    writeln!(body, "found").unwrap();
                }
            }
        }
        writeln!(body, "}}\n").unwrap();
        Some(body)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::codegen::optimized_automaton;
    use regula_runtime::compiled::mask_checks::{differing, repeated};
    use std::collections::HashSet;

    /// A game's optimised automaton and plan.
    fn load(file_name: &str, source: &str) -> (Automaton, Plan) {
        let automaton = optimized_automaton(file_name, source).expect("the corpus game compiles");
        let plan = Plan::new(&automaton).expect("the corpus game lowers");
        (automaton, plan)
    }

    /// The check `? from -> to` whose `from` node is named `from_name`, and its mask check.
    fn check_named(automaton: &Automaton, plan: &Plan, from_name: &str) -> (u32, u32, Vec<bool>, Option<MaskCheck>) {
        check_shape_named(automaton, plan, from_name, |generator, from, to, region| {
            mask_check(automaton, plan, &generator.values, from, to, region)
        })
    }

    /// The check `? from -> to` whose `from` node is named `from_name`, its region, and the shape
    /// `recognise` finds in it (mask checks' and shift checks' tests).
    pub(crate) fn check_shape_named<S>(
        automaton: &Automaton,
        plan: &Plan,
        from_name: &str,
        recognise: impl FnOnce(&Generator, u32, u32, &[bool]) -> Option<S>,
    ) -> (u32, u32, Vec<bool>, Option<S>) {
        let generator = Generator::new(automaton, plan);
        let (from, to) = automaton
            .edges
            .iter()
            .find_map(|e| match e.label {
                Label::Reach { from, to, .. } if automaton.nodes[from as usize].name == from_name => Some((from, to)),
                _ => None,
            })
            .expect("the check exists");
        let region = generator.reach[&to].region.clone();
        let shape = recognise(&generator, from, to, &region);
        (from, to, region, shape)
    }

    /// Whether the check holds on `values`, evaluated as the emitted code does.
    fn mask_holds(check: &MaskCheck, state_len: u32, values: &[u8]) -> bool {
        let compared = match check.compared {
            Compared::Literal(symbol) => symbol as u8,
            Compared::Slot(slot) => values[slot as usize],
        };
        let (d, bits) = match crate::codegen::mask_lanes::lane_loads(check) {
            Some(loads) => (
                crate::codegen::mask_lanes::lanes_d(&loads, check.board.0, values, compared),
                crate::codegen::mask_lanes::lane_bits(check),
            ),
            None => {
                let (words, bits) = bit_layout(check, state_len);
                let x = repeated(compared);
                (words.iter().enumerate().fold(0u64, |d, (w, &at)| d | differing(values, at as usize, x) >> w), bits)
            }
        };
        let row = match check.start {
            Some(slot) => check.row_of_symbol[values[slot as usize] as usize] as usize,
            None => 0,
        };
        check.rows[row].iter().map(|t| term_masks(t, &bits)).any(|(cells, differ)| d & cells == differ)
    }

    /// Whether the check holds on `values`, by walking the sub-automaton on concrete values
    /// (a plain search with a visited set, independent of the exploration).
    pub(crate) fn walk_holds(
        automaton: &Automaton,
        plan: &Plan,
        from: u32,
        to: u32,
        region: &[bool],
        values: &[u8],
    ) -> bool {
        fn slot(plan: &Plan, place: &PlanPlace, values: &[u8]) -> usize {
            let mut slot = place.base;
            for step in &place.steps {
                slot += step.offsets[read(plan, &step.key, values) as usize];
            }
            slot as usize
        }
        fn read(plan: &Plan, operand: &PlanOperand, values: &[u8]) -> u32 {
            match operand {
                PlanOperand::Literal(symbol) => *symbol,
                PlanOperand::Place(place) if place.in_state => values[slot(plan, place, values)] as u32,
                PlanOperand::Place(place) => plan.const_values[slot(plan, place, values)],
            }
        }
        let mut seen = HashSet::new();
        let mut stack = vec![(from, values.to_vec())];
        while let Some((node, values)) = stack.pop() {
            if node == to {
                return true;
            }
            if !seen.insert((node, values.clone())) {
                continue;
            }
            for edge in automaton.nodes[node as usize].edges.clone() {
                let target = automaton.edges[edge as usize].target;
                if target != to && !region[target as usize] {
                    continue;
                }
                let mut next = values.clone();
                match &plan.ops[edge as usize] {
                    PlanOp::Assign { lhs, rhs, .. } => next[slot(plan, lhs, &values)] = read(plan, rhs, &values) as u8,
                    PlanOp::AssignAny { lhs, members, .. } => {
                        for &member in members {
                            let mut next = values.clone();
                            next[slot(plan, lhs, &values)] = member as u8;
                            stack.push((target, next));
                        }
                        continue;
                    }
                    PlanOp::Compare { lhs, rhs, equal, .. }
                        if (read(plan, lhs, &values) == read(plan, rhs, &values)) != *equal =>
                    {
                        continue;
                    }
                    // A nested check walks on a copy, everything it reaches from its start
                    // (shift checks explore it in place).
                    PlanOp::Reach { from, to, negated } => {
                        let everywhere = vec![true; automaton.nodes.len()];
                        if walk_holds(automaton, plan, *from, *to, &everywhere, &values) == *negated {
                            continue;
                        }
                    }
                    _ => {}
                }
                stack.push((target, next));
            }
        }
        false
    }

    /// A small deterministic generator (xorshift).
    pub(crate) fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn tic_tac_toe_s_line_check_is_eight_three_cell_terms_exact_on_every_board() {
        let (automaton, plan) = load("tictactoe.rg", include_str!("../../../games/tictactoe/tictactoe.rg"));
        let (from, to, region, check) = check_named(&automaton, &plan, "lineSearch");
        let check = check.expect("the line check has the shape");
        assert_eq!(check.start, None);
        assert_eq!(check.rows.len(), 1);
        assert_eq!(check.rows[0].len(), 8);
        assert!(check.rows[0].iter().all(|t| t.equal.count_ones() == 3 && t.differ == 0), "{:?}", check.rows);
        let Compared::Slot(me) = check.compared else { panic!("compared with the mover: {:?}", check.compared) };
        let cells = &plan.var_slots[automaton.variables.iter().position(|v| v.name == "board").unwrap()];
        let marks: Vec<u8> =
            ["empty", "x", "o"].iter().map(|m| automaton.symbols.iter().position(|s| s == m).unwrap() as u8).collect();
        let mut holding = 0;
        for board in 0..3usize.pow(9) {
            for mover in [marks[1], marks[2]] {
                let mut values: Vec<u8> = plan.initial_values.iter().map(|&v| v as u8).collect();
                let mut rest = board;
                for cell in 0..9 {
                    values[cells.0 as usize + cell] = marks[rest % 3];
                    rest /= 3;
                }
                values[me as usize] = mover;
                let holds = mask_holds(&check, plan.state_len as u32, &values);
                assert_eq!(holds, walk_holds(&automaton, &plan, from, to, &region, &values), "board {board}");
                holding += holds as u32;
            }
        }
        // (board, mover) pairs where the mover has a line, counted independently.
        assert_eq!(holding, 8_870);
    }

    #[test]
    fn a_check_for_any_empty_cell_is_one_mask_test() {
        let (automaton, plan) = load("tictactoe.rg", include_str!("../../../games/tictactoe/tictactoe.rg"));
        let (_, _, _, check) = check_named(&automaton, &plan, "emptySearch");
        let check = check.expect("the empty-cell check has the shape");
        let empty = automaton.symbols.iter().position(|s| s == "empty").unwrap() as u32;
        assert_eq!(check.compared, Compared::Literal(empty));
        assert_eq!(check.rows, vec![(0..9).map(|cell| Term { equal: 1 << cell, differ: 0 }).collect::<Vec<_>>()]);
    }

    /// Random connect four boards (each cell empty, red or yellow), the check from `from_name`
    /// by the masks and by the walk, for every last cell and mover.
    fn agree_on_random_boards(file_name: &str, source: &str, from_name: &str) -> (MaskCheck, u32) {
        let (automaton, plan) = load(file_name, source);
        let (from, to, region, check) = check_named(&automaton, &plan, from_name);
        let check = check.expect("the four-in-a-row check has the shape");
        let board = automaton.variables.iter().position(|v| v.name == "board").unwrap();
        let (first, len) = plan.var_slots[board];
        let start = check.start.expect("the check starts at the last cell");
        let discs: Vec<u8> = ["empty", "red", "yellow"]
            .iter()
            .map(|m| automaton.symbols.iter().position(|s| s == m).unwrap() as u8)
            .collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut holding = 0;
        for _ in 0..300 {
            let mut values: Vec<u8> = plan.initial_values.iter().map(|&v| v as u8).collect();
            // The cells only (a null cell and the default block keep their values).
            let cells = len - 1 - (file_name.ends_with(".hrg") as u32);
            for cell in 0..cells {
                let cell = if file_name.ends_with(".hrg") { cell + 1 } else { cell };
                values[(first + cell) as usize] = discs[(next(&mut seed) % 3) as usize];
            }
            for last in 0..automaton.symbols.len() as u8 {
                let mut values = values.clone();
                values[start as usize] = last;
                if let Compared::Slot(me) = check.compared {
                    values[me as usize] = discs[1 + (next(&mut seed) % 2) as usize];
                }
                // Every call of the check follows the drop of the mover's disc on `last`.
                if let Some(offset) = check.settled.as_ref().and_then(|cells| cells[last as usize]) {
                    values[(first + offset) as usize] = match check.compared {
                        Compared::Slot(me) => values[me as usize],
                        Compared::Literal(symbol) => symbol as u8,
                    };
                }
                let holds = mask_holds(&check, plan.state_len as u32, &values);
                assert_eq!(holds, walk_holds(&automaton, &plan, from, to, &region, &values), "last {last}");
                holding += holds as u32;
            }
        }
        (check, holding)
    }

    #[test]
    fn connect_four_s_walk_back_then_ahead_agrees_with_the_walk() {
        let (check, holding) =
            agree_on_random_boards("connect4.rg", include_str!("../../../games/connect4/connect4.rg"), "fourSearch");
        // 42 cells, the other symbols one row of no term. A cell's terms: the windows of four
        // holding it, without the cell itself, settled by the drop (4 x 69 over all cells). The
        // window right behind it in each direction (the walk back may pass four discs and look
        // ahead from the fourth) is implied by the window ending at the last cell.
        assert_eq!(check.rows.len(), 43);
        assert_eq!(check.rows.iter().map(Vec::len).max(), Some(13));
        assert_eq!(check.rows.iter().map(Vec::len).sum::<usize>(), 4 * 69);
        assert!(check.rows.iter().flatten().all(|t| t.equal.count_ones() == 3 && t.differ == 0));
        assert_eq!(holding, 2_343);
    }

    #[test]
    fn connect_four_s_guarded_walk_with_the_last_cell_settled_has_no_differing_cells_and_agrees_with_the_walk() {
        let (check, holding) = agree_on_random_boards(
            "connect4.hrg",
            include_str!("../../../games/connect4/connect4.hrg"),
            "fourThroughLast_reach_1__fourThroughLast_reach_1",
        );
        // 42 cells, `null` (settled on the off-board cell) and the other symbols: 44 rows.
        assert_eq!(check.rows.len(), 44);
        assert_eq!(check.rows.iter().map(Vec::len).max(), Some(13));
        // The windows of four holding the last cell, without it (4 x 69), as in connect4.rg,
        // and `null`'s row: the empty term. No term goes through the off-board cell (a walk
        // back off the board stays on `null`, and so does the walk ahead): that cell only ever
        // holds `offboard` (slot_values.rs: `last` is never `null` where `board[last] = me`
        // runs), never a disc, so those terms (115, 16 a row at most) can never hold.
        assert_eq!(check.rows.iter().map(Vec::len).sum::<usize>(), 4 * 69 + 1);
        let off_board = check.rows.iter().flatten().filter(|t| (t.equal | t.differ) & 1 == 1).count();
        assert_eq!(off_board, 0);
        let null = automaton_symbol("connect4.hrg", include_str!("../../../games/connect4/connect4.hrg"), "null");
        assert_eq!(check.rows[check.row_of_symbol[null] as usize], vec![Term { equal: 0, differ: 0 }]);
        // The guarded walk back gives "the cell behind differs" literals; with the last cell
        // settled the windows further back make every one of them redundant.
        assert_eq!(check.rows.iter().flatten().filter(|t| t.differ != 0).count(), 0);
        // The player twins are merged (`optimize/merge_player_twins.rs`): the walk compares with
        // the `twin_player` slot, which the random boards fill too (2,710 when it compared with
        // the literal `red`).
        assert_eq!(holding, 2_733);
    }

    /// The id of symbol `name` in a game's optimised automaton.
    fn automaton_symbol(file_name: &str, source: &str, name: &str) -> usize {
        let (automaton, _) = load(file_name, source);
        automaton.symbols.iter().position(|s| s == name).expect("the symbol exists")
    }

    #[test]
    fn the_last_cell_is_settled_where_every_path_drops_the_mover_s_disc_there_and_not_where_one_wipes_the_board() {
        let source = include_str!("../../../games/connect4/connect4.rg");
        let (automaton, plan) = load("connect4.rg", source);
        let check = check_named(&automaton, &plan, "fourSearch").3.expect("the check has the shape");
        let settled = check.settled.expect("the drop settles the last cell");
        // Cells a1..g6 are symbols 14..55 and board offsets 0..41; no other symbol keys a cell.
        let cells: Vec<(usize, u32)> =
            settled.iter().enumerate().filter_map(|(symbol, cell)| cell.map(|c| (symbol, c))).collect();
        assert_eq!(cells, (0..42).map(|c| (14 + c as usize, c)).collect::<Vec<_>>());
        // A write of the board between the drop and the check: nothing is settled.
        let wiped = source.replace(
            "raised, judge: player = keeper;",
            "raised, wiped: player = keeper;\nwiped, judge: board[a1] = empty;",
        );
        assert_ne!(wiped, source);
        let (automaton, plan) = load("connect4.rg", &wiped);
        let check = check_named(&automaton, &plan, "fourSearch").3.expect("the check has the shape");
        assert_eq!(check.settled, None);
    }
}
