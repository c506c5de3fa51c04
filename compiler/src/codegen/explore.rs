//! The code generator's proof that a node's choices give different next tags when the tag is
//! computed from several slots: the first tags of the paths from each choice, explored state by
//! state for every combination of the values of the slots read below the node.
//!
//! [`super::distinct::Walk`] tracks one slot over every value it can hold. Chess computes its tag
//! from others: `$$ to` after `to = forward(me, from)`, `to = leap(jump, from)` or `to = from`
//! and a slide of `to = step(dir, to)`, with the branches told apart by `kindOf(piece)`;
//! draughts lands on `at = step(d, over)` after `over = step(d, at)`. Here a node's *context* is
//! the fixed state slots some path below it reads before writing them (`from`, `me`, `piece`),
//! as many as fit [`CONTEXT_LIMIT`] combinations, smallest value sets first; the others stay
//! unknown. For every context, each choice's paths are followed with an *environment*: the slots
//! whose values are known exactly (the context, then whatever literal, constant-table or
//! known-slot value an edge assigns), trimmed at each node to the slots still read below it, so
//! states of different contexts merge. A guard is pruned when no pair of the values its sides may
//! give satisfies it (known slots exactly, state entries through [`SlotFacts`]: `board[null]`
//! never holds a piece that may be landed on), a path stops at its first tag (known only when its
//! value is) or at a completion (untagged), and a cycle's states get their first tags as a least
//! fixed point. Two choices are separated when, in every context, their first-tag sets are
//! disjoint and not both untagged: two paths parting there in one state have one context.
//!
//! Why a proof is sound (a wrong "unique" would drop the de-duplication and list one move twice):
//! - Two different paths of one search with equal tags part at some node `n` in one concrete
//!   state `σ` (their prefixes are the same edges and choices, and edges are deterministic). `σ`
//!   is reachable, so every slot holds a value of its [`SlotFacts`] (refine.rs: facts hold in
//!   every reachable state), and `σ` agrees with exactly one enumerated context.
//! - The explored states over-approximate the concrete paths from `σ`: an environment holds only
//!   values that are exact in `σ` (context values, literals, constant-table reads with exact keys,
//!   copies of exact slots); a write with an inexact value or a computed address forgets the
//!   slot (or its whole variable); a guard blocks only when no pair of values its sides may give
//!   (exact values, else the facts of every slot addressed) satisfies it; slots dropped by the
//!   trim are not read before written on any path below (liveness stops only where the
//!   exploration stops). So each concrete path maps to an explored path, and its first tag after
//!   `n` (or its untagged end) is in the least fixed point of its first explored state.
//! - The obligation holds for that context: the two paths' first tags after `n` differ, or one
//!   ends untagged and the other does not, so their tag sequences differ. A budget overrun, an
//!   unknown tag or a target outside the walked nodes proves nothing.
//!
//! Cost: per explored state, one evaluation of each out-edge; the states are shared by every node
//! and context of one analysis, at most [`STATE_LIMIT`] (the proof fails beyond).

use super::distinct::{First, SlotFacts};
use super::graph::{fixed_slot, written_range};
use super::refine::{fixed_reads, members, Evaluator};
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanTransfer};
use std::collections::HashMap;

/// The most value combinations of a node's context slots.
const CONTEXT_LIMIT: usize = 1 << 12;

/// The most explored (node, environment) states of one analysis.
const STATE_LIMIT: usize = 1 << 18;

/// Known slot values, sorted by slot.
type Env = Vec<(u32, u32)>;

/// What taking one edge does.
enum Outcome {
    /// The edge's guard fails in every state of the environment.
    Blocked,
    /// The path's first tag (or untagged end) is decided here.
    Ends(First),
    /// The path goes on at the edge's target with one of these environments.
    Next(Vec<Env>),
}

/// One obligation a choice node leaves to the exploration.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Obligation {
    /// Two out-edges (indices into the automaton's edges) must start with different tags.
    Pair(usize, usize),
    /// The members of one `x = T(*)` edge must lead to different tags.
    Members(usize),
}

/// The explored states of one analysis.
pub(crate) struct Explorer<'a> {
    automaton: &'a Automaton,
    plan: &'a Plan,
    facts: &'a SlotFacts,
    completes: &'a [bool],
    symbols: usize,
    walked: Vec<bool>,
    /// Per node, the fixed slots some path below reads before writing (sorted).
    live: Vec<Vec<u32>>,
    index: HashMap<(u32, Env), u32>,
    first: Vec<First>,
    /// The fixed slots some walked edge reads in an assigned value, a key or a tag (sorted).
    feeds: Vec<u32>,
    /// Set once the state budget is spent: nothing more is proved.
    exhausted: bool,
}

impl<'a> Explorer<'a> {
    pub fn new(
        automaton: &'a Automaton,
        plan: &'a Plan,
        facts: &'a SlotFacts,
        completes: &'a [bool],
        walked: Vec<bool>,
    ) -> Explorer<'a> {
        let symbols = automaton.symbols.len().max(1);
        let mut explorer = Explorer {
            automaton,
            plan,
            facts,
            completes,
            symbols,
            walked,
            live: Vec::new(),
            index: HashMap::new(),
            first: Vec::new(),
            feeds: Vec::new(),
            exhausted: false,
        };
        explorer.live = explorer.liveness();
        explorer.feeds = explorer.feeding_slots();
        explorer
    }

    /// Whether the exploration stops after `edge` (its first tag or end is decided there).
    fn terminal(&self, edge: usize) -> bool {
        let target = self.automaton.edges[edge].target as usize;
        self.completes[edge]
            || matches!(self.plan.ops[edge], PlanOp::Tag(_) | PlanOp::TagExpr(_))
            || !self.walked[target]
    }

    /// The fixed slots `edge` reads, and the one it overwrites.
    fn reads_and_kill(&self, edge: usize) -> (Vec<u32>, Option<u32>) {
        let mut reads = Vec::new();
        let mut kill = None;
        match &self.plan.ops[edge] {
            PlanOp::Assign { lhs, rhs, transfer, .. } => {
                fixed_reads(rhs, &mut reads);
                for step in &lhs.steps {
                    fixed_reads(&step.key, &mut reads);
                }
                if *transfer == PlanTransfer::Slot {
                    kill = fixed_slot(lhs);
                }
            }
            PlanOp::AssignAny { lhs, .. } => {
                for step in &lhs.steps {
                    fixed_reads(&step.key, &mut reads);
                }
                kill = fixed_slot(lhs);
            }
            PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                fixed_reads(lhs, &mut reads);
                fixed_reads(rhs, &mut reads);
            }
            PlanOp::TagExpr(operand) => fixed_reads(operand, &mut reads),
            _ => {}
        }
        (reads, kill)
    }

    fn feeding_slots(&self) -> Vec<u32> {
        let mut feeds = Vec::new();
        for (edge, op) in self.plan.ops.iter().enumerate() {
            if !self.walked[self.automaton.edges[edge].source as usize] {
                continue;
            }
            let place_keys = |place: &regula_runtime::compiled::PlanPlace, feeds: &mut Vec<u32>| {
                for step in &place.steps {
                    fixed_reads(&step.key, feeds);
                }
            };
            match op {
                PlanOp::Assign { lhs, rhs, .. } => {
                    fixed_reads(rhs, &mut feeds);
                    place_keys(lhs, &mut feeds);
                }
                PlanOp::AssignAny { lhs, .. } => place_keys(lhs, &mut feeds),
                PlanOp::TagExpr(operand) => fixed_reads(operand, &mut feeds),
                PlanOp::Compare { lhs, rhs, .. } => {
                    // Keys of the compared reads (`board[forward(me, from)]`), not the sides.
                    for side in [lhs, rhs] {
                        if let PlanOperand::Place(place) = side {
                            place_keys(place, &mut feeds);
                        }
                    }
                }
                _ => {}
            }
        }
        feeds.sort_unstable();
        feeds.dedup();
        feeds
    }

    /// Per walked node, the fixed slots read before written on some path below it (backward
    /// fixed point; paths stop where [`Self::terminal`] says).
    fn liveness(&self) -> Vec<Vec<u32>> {
        let count = self.automaton.nodes.len();
        let effects: Vec<(Vec<u32>, Option<u32>)> =
            (0..self.automaton.edges.len()).map(|edge| self.reads_and_kill(edge)).collect();
        let mut live: Vec<Vec<u32>> = vec![Vec::new(); count];
        loop {
            let mut changed = false;
            for node in (0..count).rev().filter(|&n| self.walked[n]) {
                let mut slots = live[node].clone();
                for edge in self.automaton.nodes[node].edges.clone() {
                    let edge = edge as usize;
                    let (reads, kill) = &effects[edge];
                    slots.extend(reads);
                    if !self.terminal(edge) {
                        let target = self.automaton.edges[edge].target as usize;
                        slots.extend(live[target].iter().filter(|&&s| Some(s) != *kill));
                    }
                }
                slots.sort_unstable();
                slots.dedup();
                if slots != live[node] {
                    live[node] = slots;
                    changed = true;
                }
            }
            if !changed {
                return live;
            }
        }
    }

    fn evaluator(&self) -> Evaluator<'_> {
        Evaluator { plan: self.plan, words: self.facts.words(), symbols: self.symbols, facts: self.facts.sets() }
    }

    /// The exact value of a read in `env`: a literal, a known slot, or a constant read whose keys
    /// are exact.
    fn exact(&self, operand: &PlanOperand, env: &Env) -> Option<u32> {
        match operand {
            PlanOperand::Literal(symbol) => Some(*symbol),
            PlanOperand::Place(place) if place.in_state => {
                let slot = fixed_slot(place)?;
                env.binary_search_by_key(&slot, |&(s, _)| s).ok().map(|at| env[at].1)
            }
            PlanOperand::Place(place) => {
                let mut slot = place.base;
                for step in &place.steps {
                    slot += *step.offsets.get(self.exact(&step.key, env)? as usize)?;
                }
                self.plan.const_values.get(slot as usize).copied()
            }
        }
    }

    /// `env` with `slot` set to `value` (or forgotten), trimmed to the slots live at `node`.
    fn next_env(&self, env: &Env, slot: Option<(u32, Option<u32>)>, node: usize) -> Env {
        let live = &self.live[node];
        let mut next: Env = env
            .iter()
            .copied()
            .filter(|&(s, _)| slot.is_none_or(|(written, _)| written != s) && live.binary_search(&s).is_ok())
            .collect();
        if let Some((written, Some(value))) = slot {
            if live.binary_search(&written).is_ok() {
                let at = next.partition_point(|&(s, _)| s < written);
                next.insert(at, (written, value));
            }
        }
        next
    }

    fn outcome(&self, edge: usize, env: &Env) -> Outcome {
        let words = self.facts.words();
        if self.completes[edge] {
            return Outcome::Ends(First { untagged: true, unknown: false, tags: vec![0; words] });
        }
        let single = |symbol: Option<u32>| match symbol {
            Some(symbol) => {
                let mut first = First::none(words);
                super::distinct::set_bit(&mut first.tags, symbol);
                Outcome::Ends(first)
            }
            None => Outcome::Ends(First::unknown(words)),
        };
        let target = self.automaton.edges[edge].target as usize;
        let forget_range = |lhs: &regula_runtime::compiled::PlanPlace| {
            let (start, end) = written_range(self.plan, lhs);
            let kept: Env = env.iter().copied().filter(|&(s, _)| s < start || s >= end).collect();
            self.next_env(&kept, None, target)
        };
        let next = match &self.plan.ops[edge] {
            PlanOp::Tag(symbol) => return single(Some(*symbol)),
            PlanOp::TagExpr(operand) => return single(self.exact(operand, env)),
            PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } if fixed_slot(lhs).is_some() => {
                vec![self.next_env(env, fixed_slot(lhs).map(|slot| (slot, self.exact(rhs, env))), target)]
            }
            PlanOp::Assign { lhs, .. } => vec![forget_range(lhs)],
            PlanOp::AssignAny { lhs, members: chosen, .. } => match fixed_slot(lhs) {
                Some(slot) => chosen.iter().map(|&m| self.next_env(env, Some((slot, Some(m))), target)).collect(),
                None => vec![forget_range(lhs)],
            },
            PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } => {
                let evaluator = self.evaluator();
                let known = |slot: u32| -> Option<Vec<u64>> {
                    let at = env.binary_search_by_key(&slot, |&(s, _)| s).ok()?;
                    Some(super::refine::single_set(words, env[at].1))
                };
                let left = evaluator.operand(lhs, &known);
                let right = evaluator.operand(rhs, &known);
                if !evaluator.satisfiable(&left, &right, *equal) {
                    return Outcome::Blocked;
                }
                vec![self.next_env(env, None, target)]
            }
            _ => vec![self.next_env(env, None, target)],
        };
        if !self.walked[target] {
            return Outcome::Ends(First::unknown(words));
        }
        Outcome::Next(next)
    }

    /// The state id of (`node`, `env`), exploring everything below it first; `None` past the
    /// budget.
    fn state(&mut self, node: usize, env: Env) -> Option<u32> {
        // Past the budget, registered states may hold partial first tags: trust none of them.
        if self.exhausted {
            return None;
        }
        if let Some(&id) = self.index.get(&(node as u32, env.clone())) {
            return Some(id);
        }
        let words = self.facts.words();
        // Breadth-first over the new states; `succ` and `direct` for them only.
        let start = self.first.len();
        let mut pending: Vec<(u32, Env)> = Vec::new();
        let mut succ: Vec<Vec<u32>> = Vec::new();
        let mut direct: Vec<First> = Vec::new();
        let mut cursor = 0;
        let register = |explorer: &mut Explorer, pending: &mut Vec<(u32, Env)>, key: (u32, Env)| -> u32 {
            if let Some(&id) = explorer.index.get(&key) {
                return id;
            }
            let id = explorer.first.len() as u32;
            explorer.index.insert(key.clone(), id);
            explorer.first.push(First::none(words));
            pending.push(key);
            id
        };
        register(self, &mut pending, (node as u32, env));
        while cursor < pending.len() {
            if self.first.len() > STATE_LIMIT {
                self.exhausted = true;
                return None;
            }
            let (at, env) = pending[cursor].clone();
            cursor += 1;
            let mut own = First::none(words);
            let mut next_ids = Vec::new();
            for edge in self.automaton.nodes[at as usize].edges.clone() {
                let edge = edge as usize;
                match self.outcome(edge, &env) {
                    Outcome::Blocked => {}
                    Outcome::Ends(first) => {
                        own.union(&first);
                    }
                    Outcome::Next(envs) => {
                        let target = self.automaton.edges[edge].target;
                        for next in envs {
                            next_ids.push(register(self, &mut pending, (target, next)));
                        }
                    }
                }
            }
            succ.push(next_ids);
            direct.push(own);
        }
        // Least fixed point over the new states (older ones are final).
        for (offset, own) in direct.iter().enumerate() {
            self.first[start + offset] = own.clone();
        }
        loop {
            let mut changed = false;
            for offset in (0..succ.len()).rev() {
                let mut merged = self.first[start + offset].clone();
                for &next in &succ[offset] {
                    merged.union(&self.first[next as usize]);
                }
                if merged != self.first[start + offset] {
                    self.first[start + offset] = merged;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Some(start as u32)
    }

    /// The first tags of the paths taking `edge` in `env`, per choice (one per member of an
    /// `x = T(*)`, else one); `None` past the budget.
    fn edge_firsts(&mut self, edge: usize, env: &Env) -> Option<Vec<First>> {
        let words = self.facts.words();
        match self.outcome(edge, env) {
            Outcome::Blocked => Some(vec![First::none(words)]),
            Outcome::Ends(first) => Some(vec![first]),
            Outcome::Next(envs) => {
                let target = self.automaton.edges[edge].target as usize;
                envs.into_iter()
                    .map(|next| self.state(target, next).map(|id| self.first[id as usize].clone()))
                    .collect()
            }
        }
    }

    /// Whether every obligation of `node` holds in every context.
    pub fn discharges(&mut self, node: usize, obligations: &[Obligation]) -> bool {
        if obligations.is_empty() {
            return true;
        }
        if !self.walked[node] {
            return false;
        }
        // The context: live slots, smallest value sets first, within the combination budget.
        let mut candidates: Vec<(u32, Vec<u32>)> = self.live[node]
            .iter()
            .map(|&slot| {
                let held = self
                    .facts
                    .sets()
                    .get(slot as usize)
                    .map_or_else(Vec::new, |set| members(set, self.symbols).collect());
                (slot, held)
            })
            .filter(|(_, held)| !held.is_empty())
            .collect();
        // Slots that feed computed values (assignments, keys, tags) first: a comparison with an
        // unknown slot (`to == ep`) only keeps both ways open, a tag computed from one is unknown.
        candidates.sort_by_key(|(slot, held)| (!self.feeds.contains(slot), held.len(), *slot));
        let mut context: Vec<(u32, Vec<u32>)> = Vec::new();
        let mut combinations = 1usize;
        for (slot, held) in candidates {
            if combinations * held.len() <= CONTEXT_LIMIT {
                combinations *= held.len();
                context.push((slot, held));
            }
        }
        context.sort_by_key(|(slot, _)| *slot);
        let edges: Vec<usize> = self.automaton.nodes[node].edges.clone().map(|e| e as usize).collect();
        for combination in 0..combinations {
            let mut rest = combination;
            let env: Env = context
                .iter()
                .map(|(slot, held)| {
                    let value = held[rest % held.len()];
                    rest /= held.len();
                    (*slot, value)
                })
                .collect();
            let mut firsts: HashMap<usize, Vec<First>> = HashMap::new();
            for obligation in obligations {
                let needed: &[usize] = match obligation {
                    Obligation::Pair(a, b) => &[*a, *b],
                    Obligation::Members(a) => &[*a],
                };
                for &edge in needed {
                    if !edges.contains(&edge) {
                        return false;
                    }
                    if let std::collections::hash_map::Entry::Vacant(slot) = firsts.entry(edge) {
                        let Some(list) = self.edge_firsts(edge, &env) else { return false };
                        slot.insert(list);
                    }
                }
                let merged = |list: &[First]| {
                    let mut all = First::none(self.facts.words());
                    for first in list {
                        all.union(first);
                    }
                    all
                };
                let holds = match obligation {
                    Obligation::Pair(a, b) => merged(&firsts[a]).disjoint(&merged(&firsts[b])),
                    Obligation::Members(a) => {
                        // One first-tag set per member, or nothing is proved (a completion, an
                        // untracked variable, a target outside the walk).
                        let list = &firsts[a];
                        let choices = match &self.plan.ops[*a] {
                            PlanOp::AssignAny { lhs, members: chosen, .. }
                                if fixed_slot(lhs).is_some() && !self.completes[*a] =>
                            {
                                chosen.len()
                            }
                            _ => 0,
                        };
                        list.len() == choices
                            && (0..list.len()).all(|i| (i + 1..list.len()).all(|j| list[i].disjoint(&list[j])))
                    }
                };
                if !holds {
                    return false;
                }
            }
        }
        true
    }
}
