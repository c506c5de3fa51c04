//! What each state slot can ever hold, refined by the guards that dominate each write: a write
//! `board[over] = empty` after `check(opposes(me, board[over]) == 1)` never addresses the
//! off-board square when that square never holds an opposing piece.
//!
//! [`super::distinct::SlotFacts::new`] is flow-insensitive: a write through a computed key counts
//! for every slot its key's value set addresses. Here the keys' fixed state slots (`over`, `to`,
//! `from`, `me`: the *key slots*) get a forward data flow over every node of the automaton: the
//! symbols each key slot may hold on entering each node, from `begin` (its initial value) and
//! from every reachability check's start (any value it can hold), through assignments (exactly,
//! value by value) and guards (a value survives a comparison when some pair of possible sides
//! satisfies it, reading state entries through the facts; an assignment dominated by a comparison
//! of its right-hand side with a literal keeps only what the comparison lets through,
//! [`super::guards`]). Writes then address only the slots
//! their keys' flowing values give. The facts are the least fixed point of "initial values plus
//! every write's values into every slot it may address, evaluated in states satisfying the
//! facts", iterated from the initial values upwards: every reachable state (inside a move, a
//! check or the keeper's turn alike) satisfies it, by induction over the steps of any run.
//!
//! Cost: per round, one data flow per key slot (nodes × symbols bits, each guard reading the key
//! slot evaluated once per flowing value); rounds until nothing new is written. Abandoned (the
//! flow-insensitive facts stand) above [`WORK_LIMIT`] evaluations or [`ROUNDS_LIMIT`] rounds.

use super::distinct::{has_bit, set_bit};
use super::graph::{fixed_slot, written_range};
use super::guards::allows;
use super::values::ValueSets;
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanTransfer};

/// The most operand evaluations one refinement may spend.
const WORK_LIMIT: usize = 1 << 24;

/// The most rounds (each adding written values) before the refinement gives up.
const ROUNDS_LIMIT: usize = 64;

/// The most slot combinations one place may address before it counts as "any slot".
const ADDRESS_LIMIT: usize = 1 << 12;

/// Symbol sets as bitsets of a fixed number of words.
pub(crate) fn empty_set(words: usize) -> Vec<u64> {
    vec![0; words]
}

pub(crate) fn full_set(words: usize) -> Vec<u64> {
    vec![u64::MAX; words]
}

pub(crate) fn single_set(words: usize, symbol: u32) -> Vec<u64> {
    let mut set = empty_set(words);
    set_bit(&mut set, symbol);
    set
}

/// Adds `other` to `set`; whether anything was new.
pub(crate) fn union_into(set: &mut [u64], other: &[u64]) -> bool {
    let mut changed = false;
    for (mine, theirs) in set.iter_mut().zip(other) {
        changed |= *theirs & !*mine != 0;
        *mine |= theirs;
    }
    changed
}

/// The members of a set below `symbols`.
pub(crate) fn members(set: &[u64], symbols: usize) -> impl Iterator<Item = u32> + '_ {
    (0..symbols as u32).filter(move |&symbol| has_bit(set, symbol))
}

/// Removes `symbol` from `set`.
fn clear_bit(set: &mut [u64], symbol: u32) {
    if let Some(word) = set.get_mut(symbol as usize / 64) {
        *word &= !(1 << (symbol % 64));
    }
}

/// Evaluates reads to the sets of symbols they may give: fixed state slots through `fixed`
/// (the tracked slots' known or flowing values) or else the facts, state map entries through the
/// facts of every slot their keys may address, constants exactly.
pub(crate) struct Evaluator<'a> {
    pub plan: &'a Plan,
    pub words: usize,
    pub symbols: usize,
    /// Per state slot, the symbols it can ever hold.
    pub facts: &'a [Vec<u64>],
}

impl Evaluator<'_> {
    /// The symbols `operand` may give.
    pub fn operand(&self, operand: &PlanOperand, fixed: &dyn Fn(u32) -> Option<Vec<u64>>) -> Vec<u64> {
        match operand {
            PlanOperand::Literal(symbol) => single_set(self.words, *symbol),
            PlanOperand::Place(place) => {
                if let Some(slot) = fixed_slot(place) {
                    if let Some(set) = fixed(slot) {
                        return set;
                    }
                }
                let Some(slots) = self.addresses(place, fixed) else { return full_set(self.words) };
                let mut set = empty_set(self.words);
                for slot in slots {
                    if place.in_state {
                        match self.facts.get(slot as usize) {
                            Some(held) => {
                                union_into(&mut set, held);
                            }
                            None => return full_set(self.words),
                        }
                    } else {
                        match self.plan.const_values.get(slot as usize) {
                            Some(&value) => set_bit(&mut set, value),
                            None => return full_set(self.words),
                        }
                    }
                }
                set
            }
        }
    }

    /// The first slots `place` may address, or `None` when unknown or too many.
    pub fn addresses(&self, place: &PlanPlace, fixed: &dyn Fn(u32) -> Option<Vec<u64>>) -> Option<Vec<u32>> {
        let mut offsets = vec![place.base];
        for step in &place.steps {
            let keys = self.operand(&step.key, fixed);
            let mut choices: Vec<u32> =
                members(&keys, self.symbols).map(|k| step.offsets.get(k as usize).copied()).collect::<Option<_>>()?;
            choices.sort_unstable();
            choices.dedup();
            if offsets.len() * choices.len() > ADDRESS_LIMIT {
                return None;
            }
            offsets = offsets.iter().flat_map(|&o| choices.iter().map(move |&c| o + c)).collect();
        }
        Some(offsets)
    }

    /// Whether some pair of values the two sides may give satisfies the comparison.
    pub fn satisfiable(&self, lhs: &[u64], rhs: &[u64], equal: bool) -> bool {
        if equal {
            lhs.iter().zip(rhs).any(|(a, b)| a & b != 0)
        } else {
            let mut left = members(lhs, self.symbols);
            let mut right = members(rhs, self.symbols);
            match (left.next(), right.next()) {
                (Some(a), Some(b)) => a != b || left.next().is_some() || right.next().is_some(),
                _ => false,
            }
        }
    }
}

/// Whether `operand` reads fixed state slot `slot` (directly or in a key).
pub(crate) fn reads_slot(operand: &PlanOperand, slot: u32) -> bool {
    match operand {
        PlanOperand::Literal(_) => false,
        PlanOperand::Place(place) => {
            fixed_slot(place) == Some(slot) || place.steps.iter().any(|step| reads_slot(&step.key, slot))
        }
    }
}

/// Collects the fixed state slots `operand` reads, directly or in keys.
pub(crate) fn fixed_reads(operand: &PlanOperand, out: &mut Vec<u32>) {
    if let PlanOperand::Place(place) = operand {
        if let Some(slot) = fixed_slot(place) {
            out.push(slot);
        }
        for step in &place.steps {
            fixed_reads(&step.key, out);
        }
    }
}

/// One refinement: the automaton, its plan and the key slots.
pub(crate) struct Refinement<'a> {
    automaton: &'a Automaton,
    plan: &'a Plan,
    values: &'a ValueSets<'a>,
    words: usize,
    symbols: usize,
    key_slots: Vec<u32>,
    work: usize,
}

impl<'a> Refinement<'a> {
    /// `None` when the automaton writes through no computed key (nothing to refine) or the data
    /// flows would be too big.
    pub fn new(
        automaton: &'a Automaton,
        plan: &'a Plan,
        values: &'a ValueSets<'a>,
        symbol_count: usize,
    ) -> Option<Refinement<'a>> {
        let mut key_slots = Vec::new();
        for op in &plan.ops {
            let lhs = match op {
                PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } => lhs,
                _ => continue,
            };
            for step in &lhs.steps {
                fixed_reads(&step.key, &mut key_slots);
            }
        }
        key_slots.sort_unstable();
        key_slots.dedup();
        let words = symbol_count.div_ceil(64).max(1);
        let cells = key_slots.len().saturating_mul(automaton.nodes.len()).saturating_mul(words);
        if key_slots.is_empty() || cells > WORK_LIMIT / 16 {
            return None;
        }
        Some(Refinement { automaton, plan, values, words, symbols: symbol_count, key_slots, work: 0 })
    }

    /// The least fixed point, or `None` past the budget.
    pub fn run(mut self) -> Option<super::distinct::SlotFacts> {
        let mut facts: Vec<Vec<u64>> =
            self.plan.initial_values.iter().map(|&value| single_set(self.words, value)).collect();
        for _ in 0..ROUNDS_LIMIT {
            let flows = self.flows(&facts)?;
            // The writes to a fixed point under these flows (a counter's `tick` adds one value a
            // pass), then the flows again: a round that adds nothing ends the refinement.
            let mut rounds_changed = false;
            loop {
                let mut next = facts.clone();
                for (edge, op) in self.plan.ops.iter().enumerate() {
                    self.add_writes(edge, op, &facts, &flows, &mut next)?;
                }
                self.check_budget()?;
                if next == facts {
                    break;
                }
                facts = next;
                rounds_changed = true;
            }
            if !rounds_changed {
                return Some(super::distinct::SlotFacts::from_sets(self.words, facts));
            }
        }
        None
    }

    /// Adds the values edge `edge` may write into `next`; `None` when it writes outside the state.
    fn add_writes(
        &mut self,
        edge: usize,
        op: &PlanOp,
        facts: &[Vec<u64>],
        flows: &[Vec<Vec<u64>>],
        next: &mut [Vec<u64>],
    ) -> Option<()> {
        let source = self.automaton.edges[edge].source as usize;
        let flowing = |slot: u32| -> Option<Vec<u64>> {
            let index = self.key_slots.binary_search(&slot).ok()?;
            Some(flows[index][source].clone())
        };
        // A node no key slot's flow enters is never reached.
        if flows.first().is_some_and(|flow| flow[source].iter().all(|&w| w == 0)) {
            return Some(());
        }
        let evaluator = Evaluator { plan: self.plan, words: self.words, symbols: self.symbols, facts };
        let (lhs, assigned, width): (&PlanPlace, Vec<u64>, u32) = match op {
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                self.work += 1;
                (lhs, self.guarded(edge, evaluator.operand(rhs, &flowing)), 1)
            }
            PlanOp::Assign { lhs, transfer: PlanTransfer::Block(len), .. } => (lhs, full_set(self.words), *len),
            PlanOp::Assign { lhs, .. } => (lhs, full_set(self.words), u32::MAX),
            PlanOp::AssignAny { lhs, members: chosen, .. } => {
                let mut set = empty_set(self.words);
                for &member in chosen {
                    set_bit(&mut set, member);
                }
                (lhs, set, 1)
            }
            _ => return Some(()),
        };
        if !lhs.in_state {
            return Some(());
        }
        let written: Vec<u32> = match evaluator.addresses(lhs, &flowing) {
            Some(starts) if width != u32::MAX => {
                starts.iter().flat_map(|&start| start..start.saturating_add(width)).collect()
            }
            _ => {
                let (start, end) = written_range(self.plan, lhs);
                (start..end.min(self.plan.state_len as u32)).collect()
            }
        };
        for slot in written {
            union_into(next.get_mut(slot as usize)?, &assigned);
        }
        Some(())
    }

    /// Per key slot (in `key_slots` order) and node, the symbols it may hold on entering the
    /// node, in states satisfying `facts`; `None` past the budget. One data flow for all key
    /// slots: an edge's effect on one slot reads the others' sets at its source (`to = step(e,
    /// step(e, from))` after guards on `from`), a sound product of per-slot abstractions.
    fn flows(&mut self, facts: &[Vec<u64>]) -> Option<Vec<Vec<Vec<u64>>>> {
        let count = self.automaton.nodes.len();
        let words = self.words;
        let keys = self.key_slots.clone();
        let held: Vec<Vec<u64>> = keys.iter().map(|&slot| facts.get(slot as usize).cloned()).collect::<Option<_>>()?;
        let mut entering = vec![vec![empty_set(words); keys.len()]; count];
        let begin = self.automaton.begin as usize;
        for (index, &slot) in keys.iter().enumerate() {
            union_into(&mut entering[begin][index], &single_set(words, *self.plan.initial_values.get(slot as usize)?));
        }
        let mut queue = vec![begin];
        for op in &self.plan.ops {
            if let PlanOp::Reach { from, .. } = op {
                for (index, set) in held.iter().enumerate() {
                    union_into(&mut entering[*from as usize][index], set);
                }
                queue.push(*from as usize);
            }
        }
        let evaluator = Evaluator { plan: self.plan, words, symbols: self.symbols, facts };
        // A node is queued again whenever a set grows, so its edges see every value.
        while let Some(node) = queue.pop() {
            let before = entering[node].clone();
            if before[0].iter().all(|&w| w == 0) {
                continue;
            }
            for edge in self.automaton.nodes[node].edges.clone() {
                let edge = edge as usize;
                let target = self.automaton.edges[edge].target as usize;
                let mut grew = false;
                for (index, &slot) in keys.iter().enumerate() {
                    let out = self.transfer(&evaluator, edge, slot, &before, index, &held[index])?;
                    grew |= union_into(&mut entering[target][index], &out);
                }
                if grew {
                    queue.push(target);
                }
            }
        }
        Some((0..keys.len()).map(|index| entering.iter().map(|sets| sets[index].clone()).collect()).collect())
    }

    /// The symbols key slot `slot` (index `index`) may hold after `edge`, given every key slot's
    /// symbols `before` it.
    fn transfer(
        &mut self,
        evaluator: &Evaluator,
        edge: usize,
        slot: u32,
        before: &[Vec<u64>],
        index: usize,
        held: &[u64],
    ) -> Option<Vec<u64>> {
        let words = self.words;
        let mine = &before[index];
        let writes = |place: &PlanPlace| {
            let (start, end) = written_range(self.plan, place);
            slot >= start && slot < end
        };
        let keys = &self.key_slots;
        let others = |s: u32| -> Option<Vec<u64>> { keys.binary_search(&s).ok().map(|at| before[at].clone()) };
        match &self.plan.ops[edge] {
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } if fixed_slot(lhs) == Some(slot) => {
                if !reads_slot(rhs, slot) {
                    self.work += 1;
                    return Some(self.guarded(edge, evaluator.operand(rhs, &others)));
                }
                let mut out = empty_set(words);
                for value in members(mine, self.symbols) {
                    self.work += 1;
                    let fixed = |s: u32| if s == slot { Some(single_set(words, value)) } else { others(s) };
                    union_into(&mut out, &evaluator.operand(rhs, &fixed));
                }
                self.check_budget()?;
                Some(self.guarded(edge, out))
            }
            PlanOp::AssignAny { lhs, members: chosen, .. } if fixed_slot(lhs) == Some(slot) => {
                let mut out = empty_set(words);
                for &member in chosen {
                    set_bit(&mut out, member);
                }
                Some(out)
            }
            PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } if writes(lhs) => Some(held.to_vec()),
            PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal }
                if reads_slot(lhs, slot) || reads_slot(rhs, slot) =>
            {
                let mut out = empty_set(words);
                for value in members(mine, self.symbols) {
                    self.work += 2;
                    let fixed = |s: u32| if s == slot { Some(single_set(words, value)) } else { others(s) };
                    let left = evaluator.operand(lhs, &fixed);
                    let right = evaluator.operand(rhs, &fixed);
                    if evaluator.satisfiable(&left, &right, *equal) {
                        set_bit(&mut out, value);
                    }
                }
                self.check_budget()?;
                Some(out)
            }
            _ => Some(mine.clone()),
        }
    }

    /// `assigned` less what the comparisons dominating edge `edge` exclude.
    fn guarded(&self, edge: usize, mut assigned: Vec<u64>) -> Vec<u64> {
        let guards = self.values.guards(edge);
        if !guards.is_empty() {
            for symbol in 0..self.symbols as u32 {
                if !allows(guards, symbol) {
                    clear_bit(&mut assigned, symbol);
                }
            }
        }
        assigned
    }

    fn check_budget(&self) -> Option<()> {
        (self.work <= WORK_LIMIT).then_some(())
    }
}
