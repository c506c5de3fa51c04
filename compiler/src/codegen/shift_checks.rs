//! Shift checks: a pure reachability check over one board whose cells it compares with several
//! values (draughts' "can the next player step at all?"), evaluated at generation time into
//! groups of translated terms and emitted as a few shifted cell masks (spec/codegen.md, "Shift
//! checks").
//!
//! The shape, recognised from the automaton: a pure check (`? from -> to`) whose nested checks
//! are positive (`? a -> b`, explored in place, below), that
//! writes no cell of its *board* (the one state map whose cells it reads through computed keys),
//! reads every other state slot only after writing it (no start slot), and moves single slots
//! only; every symbol of the game fits one byte. Cells it reads may be compared
//! with a value, copied into a variable, or used as a key (a function of the piece).
//!
//! Generation explores the check's sub-automaton with every slot but the cells concrete: a cell
//! compared with a value adds the literal "cell equals / differs from the value" to the path; a
//! cell whose value the path needs (a copy, a key, a comparison with another cell) branches on
//! every symbol its slot can hold, adding "cell equals that symbol". Cells that only ever hold one
//! value (their initial one: [`super::slot_values`], through mask_checks.rs' `constant_cells`)
//! decide their literals at generation time. A path whose literals contradict is dropped; a path entering `to` yields a
//! *term*; a path that returns to a node with the same known values is cut (its continuations
//! are open to the earlier visit with no more literals). The exploration is exhaustive: the check
//! holds exactly when some term's literals all hold.
//!
//! A nested positive check (draughts' `anyCapture`: per own piece, `reachable(jumpFromAt(me))`)
//! is explored in place, from the state the path has reached, over its own region (the nodes
//! between its `from` and `to`); each of its terms (the path's literals and the nested walk's)
//! continues the outer path past the check, whose writes do not outlive it. Exact: the nested
//! check holds exactly when one of its terms does, so the outer paths through it are the outer
//! paths under each of them. Negated nested checks (a term's negation is no term) and nesting
//! deeper than [`MAX_NESTING`] are not the shape.
//!
//! Terms are grouped by translation: a term's *anchor* is its lowest cell and its *shape* the
//! literals' values and offsets from the anchor; the terms of one shape become one *group*, the
//! mask `anchors` of their anchors. With `m_X` the cells holding `X` (bit per cell of a 64-cell
//! window, `bit_listing::WindowBytes`), bit `a` of `m_X >> d` says whether cell `a + d` holds `X`,
//! so `anchors & (m_X1 >> d1) & …` is the set of anchors where the group's term holds, exact
//! because `anchors` holds only anchors of real terms (whose cells all lie in the window: no
//! shifted-in or wrapped bit is ever read). Groups that differ only in the value of one "equals"
//! literal and have the same anchors merge into one literal "cell holds one of these values"
//! (one mask of the values' union). The check is the `or` of the groups, non-zero: no branch.
//!
//! Cost: the window's four 16-byte loads, a compare and a movemask per lane per value, and four
//! word operations per literal; draughts' step check is six values in two masks and four groups,
//! about 40 instructions where the plain scan took about 90 and two mispredicted branches.
//! Draughts' capture check is eight groups over four masks: one shift check per ply instead of
//! a `jumpFromAt` walk per own piece (the shared scan, fused.rs, then leaves it alone).
//! Not taken where the groups exceed [`MAX_GROUPS`] or the value sets [`MAX_VALUE_SETS`] (the
//! plain scan's early exit is then likely cheaper), where the used cells do not fit one 64-cell
//! window, where the exploration exceeds [`STEP_BUDGET`], in functions specialised for known
//! values, and where [`super::mask_checks`] takes the check.

use super::mask_checks::{constant_cells, enter_path};
use super::values::ValueSets;
use super::Generator;
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanTransfer};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The most groups one check may have.
pub(crate) const MAX_GROUPS: usize = 8;
/// The most distinct value sets (masks) one check may compare with.
pub(crate) const MAX_VALUE_SETS: usize = 4;
/// The most edges the exploration may follow.
const STEP_BUDGET: usize = 1 << 18;
/// Every symbol fits one byte (the window compares bytes, exactly for every byte value).
const MAX_SYMBOLS: usize = 256;
/// The most cells below the window a check may test one by one.
const MAX_SCALAR_CELLS: usize = 2;
/// Cells per window.
const WINDOW: u32 = 64;
/// The deepest nesting of checks one exploration follows (a check's own check, ...).
const MAX_NESTING: usize = 2;

/// "Board cell `cell` equals (or differs from) `value`"; cells are offsets from the board's
/// first slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Literal {
    pub cell: u32,
    pub value: u32,
    pub equal: bool,
}

/// One literal of a group: the cell at `offset` from the anchor holds one of `values` (or, when
/// not `equal`, differs from the one value).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct GroupLiteral {
    pub offset: u32,
    pub values: BTreeSet<u32>,
    pub equal: bool,
}

/// Terms of one shape: bit `a` of `anchors` set where a term anchored at window bit `a` exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    /// Literals on cells outside the window, by state slot: the group holds only where they do.
    pub scalars: Vec<(u32, u32, bool)>,
    pub anchors: u64,
    pub literals: Vec<GroupLiteral>,
}

/// A check in the shape of the module doc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShiftCheck {
    /// The first slot of the 64-cell window.
    pub window: u32,
    /// Whether some term has no literal (the check always holds).
    pub always: bool,
    pub groups: Vec<Group>,
}

enum Stop {
    /// The path needs the value of this cell (an offset): branch on its symbols.
    Branch(u32),
    /// Not the shape.
    Shape,
}

enum Side {
    Value(u32),
    Cell(u32),
}

struct Explorer<'a> {
    automaton: &'a Automaton,
    plan: &'a Plan,
    values: &'a ValueSets<'a>,
    to: u32,
    region: &'a [bool],
    board: (u32, u32),
    constant_cells: Vec<Option<u32>>,
    steps: usize,
    terms: BTreeSet<Vec<Literal>>,
    /// How many checks this exploration is nested in (a nested check is explored in place).
    nesting: usize,
}

impl Explorer<'_> {
    fn in_board(&self, slot: u32) -> bool {
        slot >= self.board.0 && slot < self.board.1
    }

    fn slot(&self, place: &PlanPlace, env: &[(u32, u32)], term: &[Literal]) -> Result<u32, Stop> {
        let mut slot = place.base;
        for step in &place.steps {
            let key = self.value(&step.key, env, term)?;
            slot += *step.offsets.get(key as usize).ok_or(Stop::Shape)?;
        }
        Ok(slot)
    }

    fn side(&self, operand: &PlanOperand, env: &[(u32, u32)], term: &[Literal]) -> Result<Side, Stop> {
        match operand {
            PlanOperand::Literal(symbol) => Ok(Side::Value(*symbol)),
            PlanOperand::Place(place) => {
                let slot = self.slot(place, env, term)?;
                if !place.in_state {
                    return self.plan.const_values.get(slot as usize).map(|&v| Side::Value(v)).ok_or(Stop::Shape);
                }
                if self.in_board(slot) {
                    let cell = slot - self.board.0;
                    return Ok(match self.cell_value(cell, term) {
                        Some(value) => Side::Value(value),
                        None => Side::Cell(cell),
                    });
                }
                // A slot read before the check writes it: not the shape (no start slot).
                env.iter().rev().find(|(s, _)| *s == slot).map(|&(_, value)| Side::Value(value)).ok_or(Stop::Shape)
            }
        }
    }

    fn value(&self, operand: &PlanOperand, env: &[(u32, u32)], term: &[Literal]) -> Result<u32, Stop> {
        match self.side(operand, env, term)? {
            Side::Value(value) => Ok(value),
            Side::Cell(cell) => Err(Stop::Branch(cell)),
        }
    }

    /// A cell's value when it is constant or the term says which symbol it holds.
    fn cell_value(&self, cell: u32, term: &[Literal]) -> Option<u32> {
        self.constant_cells[cell as usize].or_else(|| term.iter().find(|l| l.cell == cell && l.equal).map(|l| l.value))
    }

    /// The term with `literal` added (its cell not constant, its value not known), `None` when
    /// it contradicts a literal already there.
    fn with(term: &[Literal], literal: Literal) -> Option<Vec<Literal>> {
        let same_cell = term.iter().filter(|l| l.cell == literal.cell);
        let mut next: Vec<Literal> = Vec::with_capacity(term.len() + 1);
        for l in same_cell {
            if l.value == literal.value && l.equal != literal.equal {
                return None;
            }
            if l.equal && literal.equal && l.value != literal.value {
                return None;
            }
        }
        next.extend(term.iter().copied().filter(|l| !(literal.equal && l.cell == literal.cell)));
        // An "equals" literal makes the cell's "differs" literals redundant (none contradicts).
        if !next.contains(&literal) {
            next.push(literal);
        }
        next.sort_unstable();
        Some(next)
    }

    /// A slot an edge writes: a plain state slot, not a cell.
    fn written(&self, place: &PlanPlace, env: &[(u32, u32)], term: &[Literal]) -> Result<u32, Stop> {
        let slot = self.slot(place, env, term)?;
        if !place.in_state || self.in_board(slot) {
            return Err(Stop::Shape);
        }
        Ok(slot)
    }

    fn explore(
        &mut self,
        node: u32,
        env: &mut Vec<(u32, u32)>,
        term: &[Literal],
        path: &mut Vec<(u32, Vec<(u32, u32)>)>,
    ) -> Result<(), Stop> {
        if node == self.to {
            self.terms.insert(term.to_vec());
            return Ok(());
        }
        if !enter_path(path, node, env) {
            return Ok(());
        }
        for edge in self.automaton.nodes[node as usize].edges.clone() {
            let target = self.automaton.edges[edge as usize].target;
            if target != self.to && !self.region[target as usize] {
                continue;
            }
            self.follow(edge as usize, env, term, path)?;
        }
        path.pop();
        Ok(())
    }

    /// Edge `edge` under `term`, branching on every symbol of a cell whose value it needs.
    fn follow(
        &mut self,
        edge: usize,
        env: &mut Vec<(u32, u32)>,
        term: &[Literal],
        path: &mut Vec<(u32, Vec<(u32, u32)>)>,
    ) -> Result<(), Stop> {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return Err(Stop::Shape);
        }
        match self.follow_once(edge, env, term, path) {
            Err(Stop::Branch(cell)) => {
                for symbol in self.values.slot_members(self.board.0 + cell) {
                    if let Some(next) = Self::with(term, Literal { cell, value: symbol, equal: true }) {
                        self.follow(edge, env, &next, path)?;
                    }
                }
                Ok(())
            }
            result => result,
        }
    }

    fn follow_once(
        &mut self,
        edge: usize,
        env: &mut Vec<(u32, u32)>,
        term: &[Literal],
        path: &mut Vec<(u32, Vec<(u32, u32)>)>,
    ) -> Result<(), Stop> {
        let target = self.automaton.edges[edge].target;
        match &self.plan.ops[edge] {
            PlanOp::Skip | PlanOp::Tag(_) | PlanOp::TagExpr(_) => self.explore(target, env, term, path),
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                let slot = self.written(lhs, env, term)?;
                let value = self.value(rhs, env, term)?;
                env.push((slot, value));
                let result = self.explore(target, env, term, path);
                env.pop();
                result
            }
            PlanOp::AssignAny { lhs, members, .. } => {
                let slot = self.written(lhs, env, term)?;
                for &member in members {
                    env.push((slot, member));
                    let result = self.explore(target, env, term, path);
                    env.pop();
                    result?;
                }
                Ok(())
            }
            PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
                let (lhs, rhs) = (self.side(lhs, env, term)?, self.side(rhs, env, term)?);
                let next = match (lhs, rhs) {
                    (Side::Value(a), Side::Value(b)) => ((a == b) == *equal).then(|| term.to_vec()),
                    (Side::Cell(cell), Side::Value(value)) | (Side::Value(value), Side::Cell(cell)) => {
                        Self::with(term, Literal { cell, value, equal: *equal })
                    }
                    (Side::Cell(cell), Side::Cell(_)) => return Err(Stop::Branch(cell)),
                };
                match next {
                    Some(next) => self.explore(target, env, &next, path),
                    None => Ok(()),
                }
            }
            PlanOp::Reach { from, to, negated: false } if self.nesting < MAX_NESTING => {
                let (from, to) = (*from, *to);
                let region = check_region(self.automaton, from, to);
                let mut inner = Explorer {
                    automaton: self.automaton,
                    plan: self.plan,
                    values: self.values,
                    to,
                    region: &region,
                    board: self.board,
                    constant_cells: self.constant_cells.clone(),
                    steps: self.steps,
                    terms: BTreeSet::new(),
                    nesting: self.nesting + 1,
                };
                let walked = inner.explore(from, env, term, &mut Vec::new());
                self.steps = inner.steps;
                walked?;
                for holding in inner.terms {
                    self.explore(target, env, &holding, path)?;
                }
                Ok(())
            }
            PlanOp::Assign { .. } | PlanOp::Compare { .. } | PlanOp::Reach { .. } => Err(Stop::Shape),
        }
    }
}

/// The nodes a nested check `? from -> to` walks: reachable from `from` without entering `to`,
/// and able to reach `to` (the walk leaves no other node towards `to`).
fn check_region(automaton: &Automaton, from: u32, to: u32) -> Vec<bool> {
    let count = automaton.nodes.len();
    let mut forward = vec![false; count];
    let mut stack = vec![from];
    forward[from as usize] = true;
    while let Some(node) = stack.pop() {
        if node == to {
            continue;
        }
        for edge in automaton.nodes[node as usize].edges.clone() {
            let target = automaton.edges[edge as usize].target;
            if !forward[target as usize] {
                forward[target as usize] = true;
                stack.push(target);
            }
        }
    }
    let mut backward = vec![false; count];
    backward[to as usize] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for edge in &automaton.edges {
            let (source, target) = (edge.source as usize, edge.target as usize);
            if forward[source] && source != to as usize && backward[target] && !backward[source] {
                backward[source] = true;
                changed = true;
            }
        }
    }
    (0..count).map(|n| forward[n] && backward[n] && n != to as usize).collect()
}

/// The board a check's region reads: the one state map whose cells it reads through computed
/// keys (in comparisons, copies or keys), with its slots `start..end`.
fn board_of(automaton: &Automaton, plan: &Plan, to: u32, region: &[bool]) -> Option<(u32, u32)> {
    fn places<'p>(operand: &'p PlanOperand, out: &mut Vec<&'p PlanPlace>) {
        if let PlanOperand::Place(place) = operand {
            out.push(place);
            for step in &place.steps {
                places(&step.key, out);
            }
        }
    }
    let mut boards = BTreeSet::new();
    for (edge, op) in plan.ops.iter().enumerate() {
        let source = automaton.edges[edge].source;
        let target = automaton.edges[edge].target;
        if !region[source as usize] || (target != to && !region[target as usize]) {
            continue;
        }
        let mut read = Vec::new();
        match op {
            PlanOp::Compare { lhs, rhs, .. } => {
                places(lhs, &mut read);
                places(rhs, &mut read);
            }
            PlanOp::Assign { lhs, rhs, .. } => {
                places(rhs, &mut read);
                for step in &lhs.steps {
                    places(&step.key, &mut read);
                }
            }
            _ => {}
        }
        for place in read {
            if place.in_state && !place.steps.is_empty() {
                let (start, len) = *plan.var_slots.iter().find(|&&(s, l)| place.base >= s && place.base < s + l)?;
                boards.insert((start, start + len));
            }
        }
    }
    match boards.into_iter().collect::<Vec<_>>().as_slice() {
        [board] => Some(*board),
        _ => None,
    }
}

/// The terms grouped by shape (module doc), merged where one "equals" literal's values differ,
/// against the window from slot `window` of the board from slot `board`; literals on cells
/// outside the window stay scalar tests, part of the group's key.
fn groups(terms: &BTreeSet<Vec<Literal>>, board: u32, window: u32) -> Vec<Group> {
    let inside = |l: &Literal| board + l.cell >= window && board + l.cell < window + WINDOW;
    // Per shape (the literals' offsets and values, and the group's literal sets), its anchors.
    type Shape = (Vec<(u32, u32, bool)>, Vec<GroupLiteral>);
    let mut by_shape: BTreeMap<Shape, u64> = BTreeMap::new();
    for term in terms {
        let scalars: Vec<(u32, u32, bool)> =
            term.iter().filter(|l| !inside(l)).map(|l| (board + l.cell, l.value, l.equal)).collect();
        // A term of scalar literals only: anchored at bit 0 with no window literal.
        let anchor = term.iter().filter(|l| inside(l)).map(|l| board + l.cell - window).min().unwrap_or(0);
        let shape: Vec<GroupLiteral> = term
            .iter()
            .filter(|l| inside(l))
            .map(|l| GroupLiteral {
                offset: board + l.cell - window - anchor,
                values: BTreeSet::from([l.value]),
                equal: l.equal,
            })
            .collect();
        *by_shape.entry((scalars, shape)).or_default() |= 1 << anchor;
    }
    let mut groups: Vec<Group> =
        by_shape.into_iter().map(|((scalars, literals), anchors)| Group { scalars, anchors, literals }).collect();
    // Merge pairs with the same anchors whose literals differ only in one "equals" literal's
    // values: on every anchor both terms exist, so their disjunction is the union literal.
    'merging: loop {
        for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                if let Some(merged) = merged(&groups[i], &groups[j]) {
                    groups[i] = merged;
                    groups.remove(j);
                    continue 'merging;
                }
            }
        }
        break;
    }
    groups
}

/// The union of two groups that differ only in the values of one "equals" literal.
fn merged(a: &Group, b: &Group) -> Option<Group> {
    if a.anchors != b.anchors || a.scalars != b.scalars || a.literals.len() != b.literals.len() {
        return None;
    }
    let differing: Vec<usize> = (0..a.literals.len()).filter(|&k| a.literals[k] != b.literals[k]).collect();
    let [k] = differing.as_slice() else { return None };
    let (x, y) = (&a.literals[*k], &b.literals[*k]);
    if x.offset != y.offset || !x.equal || !y.equal {
        return None;
    }
    let mut literals = a.literals.clone();
    literals[*k].values = x.values.union(&y.values).copied().collect();
    Some(Group { scalars: a.scalars.clone(), anchors: a.anchors, literals })
}

/// The shift check `? from -> to` (module doc), if it has the shape.
pub(crate) fn shift_check(
    automaton: &Automaton,
    plan: &Plan,
    values: &ValueSets,
    from: u32,
    to: u32,
    region: &[bool],
) -> Option<ShiftCheck> {
    if automaton.symbols.len() > MAX_SYMBOLS || plan.state_len < WINDOW as usize {
        return None;
    }
    let board = board_of(automaton, plan, to, region)?;
    let mut explorer = Explorer {
        automaton,
        plan,
        values,
        to,
        region,
        board,
        constant_cells: constant_cells(automaton, plan, values, board),
        steps: 0,
        terms: BTreeSet::new(),
        nesting: 0,
    };
    explorer.explore(from, &mut Vec::new(), &[], &mut Vec::new()).ok()?;
    let terms = explorer.terms;
    let always = terms.iter().any(Vec::is_empty);
    let cells: Vec<u32> = terms.iter().flatten().map(|l| l.cell).collect();
    let (low, high) = match (cells.iter().min(), cells.iter().max()) {
        (Some(&low), Some(&high)) => (low, high),
        _ => (0, 0),
    };
    // The window up to the highest used cell (from the lowest where the state allows); the
    // cells below it stay scalar tests, at most [`MAX_SCALAR_CELLS`] of them.
    let window = (board.0 + low).max((board.0 + high + 1).saturating_sub(WINDOW)).min(plan.state_len as u32 - WINDOW);
    if board.0 + high >= window + WINDOW {
        return None;
    }
    let scalar_cells: BTreeSet<u32> = cells.iter().filter(|&&c| board.0 + c < window).copied().collect();
    if scalar_cells.len() > MAX_SCALAR_CELLS {
        return None;
    }
    Some(ShiftCheck { window, always, groups: groups(&terms, board.0, window) })
}

/// The value sets a check's literals compare with, in a fixed order.
fn value_sets(check: &ShiftCheck) -> Vec<BTreeSet<u32>> {
    let sets: BTreeSet<BTreeSet<u32>> =
        check.groups.iter().flat_map(|g| g.literals.iter().map(|l| l.values.clone())).collect();
    sets.into_iter().collect()
}

impl Generator<'_> {
    /// The start function of a shift check (module doc) for node `node` into `to`, with the
    /// check's plain signature, if `node` starts a check of the shape.
    pub(super) fn shift_check_function(&mut self, node: u32, to: u32, signature: &str) -> Option<String> {
        if !self.starts_byte_check(node, to) {
            return None;
        }
        let check = shift_check(self.automaton, self.plan, &self.values, node, to, &self.reach[&to].region)?;
        let sets = value_sets(&check);
        if check.groups.len() > MAX_GROUPS || sets.len() > MAX_VALUE_SETS {
            return None;
        }
        let node_name = self.automaton.nodes[node as usize].name.replace('`', "'");
        let mut body = String::new();
        writeln!(
            body,
            "/// Node `{node_name}`: a shift check, {} groups over {} value sets (shift_checks.rs).",
            check.groups.len(),
            sets.len()
        )
        .unwrap();
        writeln!(body, "#[inline]\n{signature} {{").unwrap();
        if check.always || check.groups.is_empty() {
            writeln!(body, "{}\n}}\n", check.always).unwrap();
            return Some(body);
        }
        let window = check.window;
        writeln!(
            body,
            "let cells = regula_runtime::compiled::bit_listing::WindowBytes::new(v[{window}..{}].try_into().expect(\"a board window\"));",
            window + WINDOW
        )
        .unwrap();
        for (k, set) in sets.iter().enumerate() {
            let parts: Vec<String> = set.iter().map(|value| format!("cells.matches({value})")).collect();
            writeln!(body, "let m{k} = {};", parts.join(" | ")).unwrap();
        }
        let terms: Vec<String> = check
            .groups
            .iter()
            .map(|group| {
                let mut factors = vec![format!("{:#x}u64", group.anchors)];
                if !group.scalars.is_empty() {
                    let tests: Vec<String> = group
                        .scalars
                        .iter()
                        .map(|&(slot, value, equal)| format!("v[{slot}] {} {value}", if equal { "==" } else { "!=" }))
                        .collect();
                    factors.push(format!("0u64.wrapping_sub(({}) as u64)", tests.join(" && ")));
                }
                for literal in &group.literals {
                    let k = sets.iter().position(|s| *s == literal.values).expect("every set is listed");
                    let mask = if literal.equal { format!("m{k}") } else { format!("!m{k}") };
                    factors.push(if literal.offset == 0 { mask } else { format!("({mask} >> {})", literal.offset) });
                }
                format!("({})", factors.join(" & "))
            })
            .collect();
        writeln!(body, "({}) != 0\n}}\n", terms.join(" | ")).unwrap();
        Some(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    // The concrete walk and the generator the mask checks' tests use: the same oracle for both.
    use crate::codegen::mask_checks::tests::{check_shape_named, next, walk_holds};
    use crate::codegen::optimized_automaton;

    /// Draughts' optimised automaton, plan and value sets.
    fn draughts() -> (Automaton, Plan) {
        let source = include_str!("../../../games/draughts/draughts.hrg");
        let automaton = optimized_automaton("draughts.hrg", source).expect("draughts compiles");
        let plan = Plan::new(&automaton).expect("draughts lowers");
        (automaton, plan)
    }

    /// The check `? from -> to` whose `from` node is named `from_name`, its region and its shift
    /// check.
    fn check_named(automaton: &Automaton, plan: &Plan, from_name: &str) -> (u32, u32, Vec<bool>, Option<ShiftCheck>) {
        check_shape_named(automaton, plan, from_name, |generator, from, to, region| {
            shift_check(automaton, plan, &generator.values, from, to, region)
        })
    }

    /// The check evaluated as the emitted code does, with the masks built cell by cell.
    fn shift_holds(check: &ShiftCheck, values: &[u8]) -> bool {
        let window = &values[check.window as usize..(check.window + WINDOW) as usize];
        let mask = |set: &BTreeSet<u32>| {
            window.iter().enumerate().fold(0u64, |m, (i, &b)| m | ((set.contains(&(b as u32)) as u64) << i))
        };
        check.always
            || check.groups.iter().any(|group| {
                let scalars =
                    group.scalars.iter().all(|&(slot, value, equal)| (values[slot as usize] as u32 == value) == equal);
                scalars
                    && group.literals.iter().fold(group.anchors, |found, literal| {
                        let cells = if literal.equal { mask(&literal.values) } else { !mask(&literal.values) };
                        found & (cells >> literal.offset)
                    }) != 0
            })
    }

    fn symbol(automaton: &Automaton, name: &str) -> u32 {
        automaton.symbols.iter().position(|s| s == name).expect("the symbol exists") as u32
    }

    #[test]
    fn draughts_step_checks_are_four_groups_over_three_masks() {
        let (automaton, plan) = draughts();
        let piece = |name| symbol(&automaton, name);
        // After black's move: can white step? White men step down (-7, -9 on the window of
        // S(1,1)..S(8,8)), white kings every way.
        let (_, _, _, check) = check_named(&automaton, &plan, "anyStep_reach_1");
        let check = check.expect("white's step check has the shape");
        assert!(!check.always);
        // The window is the 64 squares after the off-board cell.
        let board = plan.var_slots[automaton.variables.iter().position(|v| v.name == "board").unwrap()];
        assert_eq!(check.window, board.0 + 1);
        let empty = BTreeSet::from([piece("empty")]);
        let white = BTreeSet::from([piece("whiteMan"), piece("whiteKing")]);
        let king = BTreeSet::from([piece("whiteKing")]);
        // Anchors: for a step down-left (-9) the empty target is the anchor, the white piece 9
        // cells up; its anchors are the squares not on rank 8 nor on file 8.
        let not_top_nor_right: u64 = (0..64).filter(|i| i / 8 < 7 && i % 8 < 7).fold(0, |m, i| m | 1 << i);
        let not_top_nor_left: u64 = (0..64).filter(|i| i / 8 < 7 && i % 8 > 0).fold(0, |m, i| m | 1 << i);
        let literal = |offset, values: &BTreeSet<u32>| GroupLiteral { offset, values: values.clone(), equal: true };
        let mut expected = vec![
            Group {
                scalars: vec![],
                anchors: not_top_nor_right,
                literals: vec![literal(0, &empty), literal(9, &white)],
            },
            Group {
                scalars: vec![],
                anchors: not_top_nor_left,
                literals: vec![literal(0, &empty), literal(7, &white)],
            },
            Group {
                scalars: vec![],
                anchors: not_top_nor_right,
                literals: vec![literal(0, &king), literal(9, &empty)],
            },
            Group { scalars: vec![], anchors: not_top_nor_left, literals: vec![literal(0, &king), literal(7, &empty)] },
        ];
        // The off-board cell (the board's first slot, below the window) is written by the
        // capture's `board[over] = empty` as far as the automaton shows, so a piece on an edge
        // stepping off the board onto an empty off-board cell is a term: one scalar test each.
        let (scalar, plain): (Vec<Group>, Vec<Group>) =
            check.groups.iter().cloned().partition(|g| !g.scalars.is_empty());
        assert!(
            scalar.iter().all(|g| g.scalars == [(board.0, piece("empty"), true)] && g.literals.len() == 1),
            "{scalar:?}"
        );
        let edges = scalar.iter().fold(0u64, |m, g| m | g.anchors);
        assert_eq!(
            edges,
            (0..64).filter(|i| i / 8 == 0 || i / 8 == 7 || i % 8 == 0 || i % 8 == 7).fold(0, |m, i| m | 1 << i)
        );
        let mut groups = plain;
        let plain_sets: BTreeSet<BTreeSet<u32>> =
            groups.iter().flat_map(|g| g.literals.iter().map(|l| l.values.clone())).collect();
        assert_eq!(plain_sets, BTreeSet::from([empty.clone(), white.clone(), king.clone()]));
        assert!(check.groups.len() <= MAX_GROUPS && value_sets(&check).len() <= MAX_VALUE_SETS, "{:?}", check.groups);
        groups.sort_by(|a, b| a.literals.cmp(&b.literals).then(a.anchors.cmp(&b.anchors)));
        expected.sort_by(|a, b| a.literals.cmp(&b.literals).then(a.anchors.cmp(&b.anchors)));
        assert_eq!(groups, expected);
    }

    #[test]
    fn draughts_capture_checks_explore_their_nested_jump_check() {
        let (automaton, plan) = draughts();
        let piece = |name| symbol(&automaton, name);
        // After white's move: can black capture? A black piece, a white one diagonally beyond
        // (up for men and kings, down for kings only), an empty square beyond that.
        let (_, _, _, check) = check_named(&automaton, &plan, "anyCapture_reach_1");
        let check = check.expect("black's capture check has the shape");
        assert!(!check.always);
        let empty = BTreeSet::from([piece("empty")]);
        let black = BTreeSet::from([piece("blackMan"), piece("blackKing")]);
        let king = BTreeSet::from([piece("blackKing")]);
        let white = BTreeSet::from([piece("whiteMan"), piece("whiteKing")]);
        assert_eq!(value_sets(&check), vec![empty.clone(), black.clone(), king.clone(), white.clone()]);
        // Four jumps over the window (anchored on the lowest square), and four whose landing
        // square is the off-board cell (one scalar test each): eight groups.
        let (scalar, plain): (Vec<Group>, Vec<Group>) =
            check.groups.iter().cloned().partition(|g| !g.scalars.is_empty());
        assert_eq!((scalar.len(), plain.len()), (4, 4), "{:?}", check.groups);
        let literal = |offset, values: &BTreeSet<u32>| GroupLiteral { offset, values: values.clone(), equal: true };
        // An up-right jump (+9, +18) by any black piece: anchored on the jumping piece, on files
        // 1..6 and ranks 1..6.
        let up_right: u64 = (0..64).filter(|i| i / 8 < 6 && i % 8 < 6).fold(0, |m, i| m | 1 << i);
        assert!(plain.contains(&Group {
            scalars: vec![],
            anchors: up_right,
            literals: vec![literal(0, &black), literal(9, &white), literal(18, &empty)],
        }));
        // A down-left jump (-9, -18) by a king: anchored on the landing square.
        assert!(plain.contains(&Group {
            scalars: vec![],
            anchors: up_right,
            literals: vec![literal(0, &empty), literal(9, &white), literal(18, &king)],
        }));
    }

    #[test]
    fn draughts_step_checks_agree_with_the_walk_on_random_boards() {
        let (automaton, plan) = draughts();
        let board = plan.var_slots[automaton.variables.iter().position(|v| v.name == "board").unwrap()];
        let pieces: Vec<u8> = ["blackMan", "blackKing", "whiteMan", "whiteKing"]
            .iter()
            .map(|name| symbol(&automaton, name) as u8)
            .collect();
        let empty = symbol(&automaton, "empty") as u8;
        // The capture checks nest `jumpFromAt` (explored in place): the walk evaluates it.
        for from_name in ["anyStep_reach_1", "anyStep_reach_2", "anyCapture_reach_1", "anyCapture_reach_2"] {
            let (from, to, region, check) = check_named(&automaton, &plan, from_name);
            let check = check.expect("the check has the shape");
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let mut holding = 0;
            for round in 0..3_000 {
                let mut values: Vec<u8> = plan.initial_values.iter().map(|&v| v as u8).collect();
                // From crowded to nearly empty boards (few pieces: the check often fails).
                let density = round % 8;
                for square in 0..64 {
                    let roll = next(&mut seed);
                    let slot = (board.0 + 1 + square) as usize;
                    values[slot] = if roll % 64 < density * 4 { pieces[(roll >> 8) as usize % 4] } else { empty };
                }
                // The off-board cell: its initial value, and now and then empty.
                if round % 7 == 0 {
                    values[board.0 as usize] = empty;
                }
                let holds = shift_holds(&check, &values);
                assert_eq!(holds, walk_holds(&automaton, &plan, from, to, &region, &values), "{from_name} {round}");
                holding += holds as u32;
            }
            // Both outcomes are exercised.
            assert!(holding > 300 && holding < 2_700, "{from_name}: {holding} of 3000 hold");
        }
    }
}
