//! The code generator's value sets: which symbols each variable can ever hold, so that a write
//! `m[k] = ...` whose key provably lies in `m`'s domain needs no "key outside the map" check.
//!
//! The analysis is flow-insensitive: a variable's set is its initial values plus everything any
//! edge anywhere may assign to it (a map variable's set covers all of its slots), iterated to a
//! fixed point. RG's type compatibility is loose (sets sharing one member are assignable), so
//! types alone prove nothing; these sets are sound whatever the types say. One flow-sensitive
//! sharpening: an assignment dominated by a comparison of its right-hand side with a literal
//! (`top[column] != null` before `cell = Cell(top[column])`, [`super::guards`]) assigns only
//! the values that comparison lets through.

use super::guards::{allows, dominating_guards, Guard};
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanStep, PlanTransfer};

/// Constant reads with more computed-key combinations than this count as "any symbol".
const CONSTANT_COMBINATIONS_LIMIT: usize = 1 << 16;

/// A set of symbols as a bitset.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Symbols(Vec<u64>);

impl Symbols {
    fn empty(count: usize) -> Self {
        Symbols(vec![0; count.div_ceil(64)])
    }

    fn all(count: usize) -> Self {
        let mut set = Symbols::empty(count);
        for symbol in 0..count {
            set.insert(symbol as u32);
        }
        set
    }

    fn insert(&mut self, symbol: u32) {
        if let Some(word) = self.0.get_mut(symbol as usize / 64) {
            *word |= 1 << (symbol % 64);
        }
    }

    /// Adds `other`; whether anything was new.
    fn union(&mut self, other: &Symbols) -> bool {
        let mut changed = false;
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            changed |= *theirs & !*mine != 0;
            *mine |= theirs;
        }
        changed
    }

    /// Keeps only the symbols `guards` allow.
    fn restrict(&mut self, guards: &[Guard]) {
        if guards.is_empty() {
            return;
        }
        let kept: Vec<u32> = self.members().filter(|&symbol| allows(guards, symbol)).collect();
        self.0.iter_mut().for_each(|word| *word = 0);
        kept.into_iter().for_each(|symbol| self.insert(symbol));
    }

    fn members(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(index, &word)| {
            (0..64).filter(move |bit| word & (1 << bit) != 0).map(move |bit| (index * 64 + bit) as u32)
        })
    }
}

/// Per variable, the symbols it can hold.
pub(crate) struct ValueSets<'a> {
    plan: &'a Plan,
    symbol_count: usize,
    sets: Vec<Symbols>,
    /// Per edge, the comparisons known to hold for its slot assignment's right-hand side.
    guards: Vec<Vec<Guard>>,
}

impl<'a> ValueSets<'a> {
    pub fn new(automaton: &Automaton, plan: &'a Plan, symbol_count: usize) -> Self {
        let mut sets: Vec<Symbols> = plan
            .var_slots
            .iter()
            .map(|&(start, len)| {
                let mut set = Symbols::empty(symbol_count);
                for slot in start..start + len {
                    set.insert(plan.initial_values[slot as usize]);
                }
                set
            })
            .collect();
        let guards = dominating_guards(automaton, plan);
        let mut analysis = ValueSets { plan, symbol_count, sets: Vec::new(), guards };
        loop {
            analysis.sets = sets.clone();
            let mut changed = false;
            for (edge, op) in plan.ops.iter().enumerate() {
                let (lhs, assigned) = match op {
                    PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                        let mut assigned = analysis.operand(rhs);
                        assigned.restrict(&analysis.guards[edge]);
                        (lhs, assigned)
                    }
                    PlanOp::Assign { lhs, rhs, .. } => (lhs, analysis.block(rhs)),
                    PlanOp::AssignAny { lhs, members, .. } => {
                        let mut set = Symbols::empty(symbol_count);
                        members.iter().for_each(|&m| set.insert(m));
                        (lhs, set)
                    }
                    _ => continue,
                };
                match analysis.variable(lhs.base) {
                    Some(variable) => changed |= sets[variable].union(&assigned),
                    // A write outside every variable: give up on every set.
                    None => {
                        for set in &mut sets {
                            changed |= set.union(&Symbols::all(symbol_count));
                        }
                    }
                }
            }
            if !changed {
                analysis.sets = sets;
                return analysis;
            }
        }
    }

    /// The variable holding a state slot.
    fn variable(&self, slot: u32) -> Option<usize> {
        self.plan.var_slots.iter().position(|&(start, len)| slot >= start && slot < start + len)
    }

    /// The symbols a set-valued read can give.
    fn operand(&self, operand: &PlanOperand) -> Symbols {
        match operand {
            PlanOperand::Literal(symbol) => {
                let mut set = Symbols::empty(self.symbol_count);
                set.insert(*symbol);
                set
            }
            PlanOperand::Place(place) if place.in_state => match self.variable(place.base) {
                Some(variable) => self.sets[variable].clone(),
                None => Symbols::all(self.symbol_count),
            },
            PlanOperand::Place(place) => self.constant(place),
        }
    }

    /// The symbols a constant read can give: every slot its computed keys can address.
    fn constant(&self, place: &PlanPlace) -> Symbols {
        let mut offsets = vec![place.base];
        for step in &place.steps {
            let choices: Vec<u32> = match &step.key {
                PlanOperand::Literal(symbol) => vec![step.offsets[*symbol as usize]],
                key => {
                    let keys = self.operand(key);
                    let mut choices: Vec<u32> = keys.members().map(|k| step.offsets[k as usize]).collect();
                    choices.sort_unstable();
                    choices.dedup();
                    choices
                }
            };
            if offsets.len() * choices.len() > CONSTANT_COMBINATIONS_LIMIT {
                return Symbols::all(self.symbol_count);
            }
            offsets = offsets.iter().flat_map(|&o| choices.iter().map(move |&c| o + c)).collect();
        }
        let mut set = Symbols::empty(self.symbol_count);
        for offset in offsets {
            match self.plan.const_values.get(offset as usize) {
                Some(&value) => set.insert(value),
                None => return Symbols::all(self.symbol_count),
            }
        }
        set
    }

    /// The symbols a whole map value (a block copy) can bring.
    fn block(&self, operand: &PlanOperand) -> Symbols {
        match operand {
            PlanOperand::Place(place) if place.in_state => self.operand(operand),
            _ => Symbols::all(self.symbol_count),
        }
    }

    /// The symbols a set-valued read can give, as a list.
    pub fn operand_members(&self, operand: &PlanOperand) -> Vec<u32> {
        self.operand(operand).members().filter(|&m| (m as usize) < self.symbol_count).collect()
    }

    /// The symbols the slot assignment on edge `edge` may assign (its right-hand side `rhs`'s
    /// values, less what a dominating comparison excludes).
    pub fn assigned_members(&self, edge: usize, rhs: &PlanOperand) -> Vec<u32> {
        let mut set = self.operand(rhs);
        set.restrict(self.guards.get(edge).map(Vec::as_slice).unwrap_or_default());
        set.members().filter(|&m| (m as usize) < self.symbol_count).collect()
    }

    /// The guards known to hold for the slot assignment on edge `edge` (see [`super::guards`]).
    pub fn guards(&self, edge: usize) -> &[Guard] {
        self.guards.get(edge).map(Vec::as_slice).unwrap_or_default()
    }

    /// The symbols state slot `slot` can hold (its variable's set).
    pub fn slot_members(&self, slot: u32) -> Vec<u32> {
        self.operand_members(&PlanOperand::Place(PlanPlace { in_state: true, base: slot, steps: Vec::new() }))
    }

    /// Whether the key of `step` always lies in its map's domain.
    pub fn key_in_domain(&self, step: &PlanStep) -> bool {
        self.operand(&step.key)
            .members()
            .all(|k| step.offsets.get(k as usize).is_some_and(|&o| o != step.default_offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// Whether the write on the edge into `to` is proved to stay inside its map's domain.
    fn proved(variables: &[(&str, &str, &str)], edges: &[(&str, &str, &str)], to: &str) -> bool {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b}");
        builder.typedef("CellOrNull", "{a, b, null}").typedef("Board", "Cell -> Cell");
        builder.typedef("Tops", "Cell -> CellOrNull");
        for (name, ty, initial) in variables {
            builder.variable(name, ty, initial);
        }
        builder.edge("begin", "choose", "player = x");
        for (from, target, label) in edges {
            builder.edge(from, target, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let sets = ValueSets::new(&automaton, &plan, automaton.symbols.len());
        let edge = automaton
            .edges
            .iter()
            .position(|e| automaton.nodes[e.target as usize].name == to)
            .expect("the edge exists");
        let PlanOp::Assign { lhs, .. } = &plan.ops[edge] else { panic!("the edge assigns") };
        lhs.steps.iter().all(|step| sets.key_in_domain(step))
    }

    #[test]
    fn a_key_only_ever_assigned_members_of_the_domain_is_proved() {
        let variables = [("board", "Board", "{:a}"), ("at", "CellOrNull", "a")];
        let edges = [
            ("choose", "picked", "at = CellOrNull(*)"),
            ("picked", "written", "board[at] = b"),
            ("written", "end", "player = keeper"),
        ];
        assert!(!proved(&variables, &edges, "written"), "`at` may be null");
        let edges = [
            ("choose", "picked", "at = Cell(*)"),
            ("picked", "written", "board[at] = b"),
            ("written", "end", "player = keeper"),
        ];
        assert!(proved(&variables, &edges, "written"));
        let null_start = [("board", "Board", "{:a}"), ("at", "CellOrNull", "null")];
        assert!(!proved(&null_start, &edges, "written"), "the initial value counts");
    }

    #[test]
    fn a_key_compared_with_null_just_before_is_proved_only_behind_the_comparison() {
        let variables = [
            ("board", "Board", "{:a}"),
            ("at", "CellOrNull", "a"),
            ("k", "Cell", "a"),
            ("tops", "Tops", "{a: a, :null}"),
        ];
        let guarded = [
            ("choose", "picked", "k = Cell(*)"),
            ("picked", "free", "tops[k] != null"),
            ("free", "set", "at = tops[k]"),
            ("set", "written", "board[at] = b"),
            ("written", "end", "player = keeper"),
        ];
        assert!(proved(&variables, &guarded, "written"));
        let unguarded = [
            ("choose", "picked", "k = Cell(*)"),
            ("picked", "set", "at = tops[k]"),
            ("set", "written", "board[at] = b"),
            ("written", "end", "player = keeper"),
        ];
        assert!(!proved(&variables, &unguarded, "written"), "without the comparison `at` may be null");
        let equal_null = [
            ("choose", "picked", "k = Cell(*)"),
            ("picked", "free", "tops[k] == null"),
            ("free", "set", "at = tops[k]"),
            ("set", "written", "board[at] = b"),
            ("written", "end", "player = keeper"),
        ];
        assert!(!proved(&variables, &equal_null, "written"), "`==` keeps only `null`");
    }
}
