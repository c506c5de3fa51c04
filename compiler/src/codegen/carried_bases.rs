//! Carried word bases: the part of a guarded push's delta word that a fan of chains shares,
//! computed once where the fan starts and passed down the chains as an argument `base: u64`.
//!
//! Shape (recognised on the automaton, in the move search): a guarded push node `P`
//! ([`Generator::guarded_push_shape`]); its *region*, grown backwards from `P` through
//! *chain nodes* (one out-edge, a guard or a one-slot write of a fixed slot or a skip, not a
//! start, no visit, no scope, nothing fallible); and the region's one *entry* `N`, the only node
//! outside the region with an edge into it, with at least two edges into it. The base holds the
//! site's number and the word's fields that no edge from `N` into the region and no edge inside
//! it may write (and the completion's assigned slot where it assigns a literal); at least one of
//! them must be a slot. Draughts' step listing: `N` is the node branching on the four
//! directions (`goes(piece, d)`), the chains write the destination `at = step(d, origin)`, and
//! `P` tests `board[at] == empty` and pushes `site | origin | at | piece | player`; the base is
//! `site | origin | piece | player`, and each direction's push ors in `at` alone.
//!
//! Why: the chains' functions are inlined into `N`'s as sibling blocks (`if goes(piece, d)
//! {...}`), in which the compiler rebuilds the shared fields' shifts and ors per block (no
//! block dominates another, so nothing is shared): seven instructions of each candidate step's
//! word, against one `or` with the base in a register.
//!
//! Exact: the region's functions are called only from `N` and from each other (every edge into
//! the region comes from `N` or from inside it), so every call passes the base `N` computed on
//! entry; no edge on the way writes a slot the base reads, so those slots hold at `P`'s push what
//! they held at `N`: the word is the one [`Generator::delta_word`] builds there, bit for bit.

use std::collections::BTreeMap;

use super::{graph, known, slot_bits, Generator, Mode, PlanOp, PlanOperand, PlanTransfer};

/// The carried bases of a module: which move-search functions take `base`, where it is
/// computed, and what each push ors into it.
#[derive(Clone, Debug, Default)]
pub(super) struct CarriedBases {
    /// Per node: its move-search function takes the base as an argument `base: u64`.
    pub(super) takes: Vec<bool>,
    /// Per entry node: the statement computing `base` at the top of its move-search function.
    pub(super) entries: BTreeMap<u32, String>,
    /// Per guarded push edge (the guard of a region's `P`): the indices of its site's fixed
    /// slots left out of the base, which the push ors in.
    pub(super) rest: BTreeMap<usize, Vec<usize>>,
}

impl CarriedBases {
    /// Whether the move-search function of `node` takes the base.
    pub(super) fn takes(&self, node: u32) -> bool {
        self.takes.get(node as usize).copied().unwrap_or(false)
    }
}

impl Generator<'_> {
    /// The module's carried bases (see the module documentation).
    pub(super) fn carried_bases(&self) -> CarriedBases {
        let count = self.automaton.nodes.len();
        let mut bases = CarriedBases { takes: vec![false; count], ..CarriedBases::default() };
        let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (edge, record) in self.automaton.edges.iter().enumerate() {
            incoming[record.target as usize].push(edge);
        }
        for push in 0..count {
            let edges = self.automaton.nodes[push].edges.clone();
            if !self.analysis.in_moves[push] || edges.len() != 1 || bases.takes[push] {
                continue;
            }
            let guard = edges.start as usize;
            let Some((completion, assigned, site)) = self.guarded_push_shape(guard) else {
                continue;
            };
            if !self.chain_node(push) {
                continue;
            }
            // The region, grown backwards through chain nodes; every other source of an edge
            // into it must be the one entry.
            let mut inside = vec![false; count];
            inside[push] = true;
            let mut region = vec![push];
            let mut entry: Option<usize> = None;
            let mut shaped = true;
            let mut next = 0;
            while next < region.len() && shaped {
                let node = region[next];
                next += 1;
                for &edge in &incoming[node] {
                    let source = self.automaton.edges[edge].source as usize;
                    if inside[source] || entry == Some(source) {
                        continue;
                    }
                    if self.automaton.nodes[source].edges.len() == 1 && self.chain_node(source) {
                        inside[source] = true;
                        region.push(source);
                    } else if entry.is_none() {
                        entry = Some(source);
                    } else {
                        shaped = false;
                        break;
                    }
                }
            }
            let Some(entry) = entry else {
                continue;
            };
            if !shaped
                || inside[entry]
                || !self.analysis.in_moves[entry]
                || bases.entries.contains_key(&(entry as u32))
                || self.sink_nodes.get(entry) != self.sink_nodes.get(push)
            {
                continue;
            }
            // The entry's edges into the region: simple labels (no member loop, whose filter
            // could continue into the region from another function), at least two.
            let into: Vec<usize> = self.automaton.nodes[entry]
                .edges
                .clone()
                .map(|edge| edge as usize)
                .filter(|&edge| inside[self.automaton.edges[edge].target as usize])
                .collect();
            if into.len() < 2 || into.iter().any(|&edge| !simple_label(&self.plan.ops[edge])) {
                continue;
            }
            // The slots written on the way, from the entry's edges into the region and the
            // region's own edges.
            let walked: Vec<usize> = into
                .iter()
                .copied()
                .chain(
                    region.iter().flat_map(|&node| self.automaton.nodes[node].edges.clone().map(|edge| edge as usize)),
                )
                .collect();
            let slots = self.deltas.sites[site].slots.clone();
            let literal = match &self.plan.ops[completion] {
                PlanOp::Assign { rhs: PlanOperand::Literal(symbol), .. } => Some(*symbol),
                _ => None,
            };
            let bits = slot_bits(self.sym);
            let mut base = format!("{site}u64");
            let mut rest = Vec::new();
            let mut reads = 0;
            for (i, &slot) in slots.iter().enumerate() {
                let shift = 16 + bits * i as u32;
                if slot == assigned {
                    match literal {
                        Some(symbol) => base.push_str(&format!(" | ({symbol} as u64) << {shift}")),
                        None => rest.push(i),
                    }
                } else if walked.iter().any(|&edge| known::op_writes(self.plan, &self.plan.ops[edge], slot)) {
                    rest.push(i);
                } else {
                    reads += 1;
                    base.push_str(&format!(" | (v[{slot}] as u64) << {shift}"));
                }
            }
            if reads == 0 {
                continue;
            }
            for &node in &region {
                bases.takes[node] = true;
            }
            bases.entries.insert(entry as u32, format!("let base: u64 = {base};\n"));
            bases.rest.insert(guard, rest);
        }
        bases
    }

    /// Whether `node` may lie inside a carried base's region: a move-search node that is no
    /// start, records no visit, opens no scope, cannot fail and whose one edge is a guard, a
    /// one-slot write of a fixed slot or a skip (a guarded push's own node included).
    fn chain_node(&self, node: usize) -> bool {
        let edges = self.automaton.nodes[node].edges.clone();
        if edges.len() != 1
            || !self.analysis.in_moves[node]
            || self.analysis.is_start[node]
            || self.analysis.visit_in_moves[node]
            || self.analysis.opens_scope[node]
            || self.fallible_moves.get(node).copied().unwrap_or(true)
        {
            return false;
        }
        simple_label(&self.plan.ops[edges.start as usize])
    }
}

/// A label a chain may carry: a one-slot comparison, a one-slot write of a fixed slot (not a
/// completion) or a skip.
fn simple_label(op: &PlanOp) -> bool {
    match op {
        PlanOp::Skip => true,
        PlanOp::Compare { transfer: PlanTransfer::Slot, .. } => true,
        op @ PlanOp::Assign { lhs, transfer: PlanTransfer::Slot, .. } => {
            !super::completes(op) && graph::fixed_slot(lhs).is_some()
        }
        _ => false,
    }
}

/// How a move-search function of `node` is called with the base where it takes one.
pub(super) fn base_argument(bases: &CarriedBases, mode: Mode, node: u32) -> &'static str {
    if mode == Mode::Moves && bases.takes(node) {
        ", base"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::super::generate;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// A one-player game on `a, b, c` that picks and tags a cell `at`, then one of `targets` as
    /// `to` (one chain per target, each `to = t` then a skip), tests `board[to] == empty` and
    /// tags `to`; the keeper marks `to`. The step's word holds `at`, `to` and `player`.
    fn fan(targets: &[&str]) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Cell", "{a, b, c}");
        builder.typedef("Mark", "{empty, x, o}").typedef("Board", "Cell -> Mark");
        builder.variable("board", "Board", "{:empty}").variable("at", "Cell", "a").variable("to", "Cell", "a");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "chosen", "at = Cell(*)");
        builder.edge("chosen", "picked", "$$ at");
        for target in targets {
            builder.edge("picked", &format!("to_{target}"), &format!("to = {target}"));
            builder.edge(&format!("to_{target}"), "near", "");
        }
        builder.edge("near", "free", "board[to] == empty");
        builder.edge("free", "tagged", "$$ to");
        builder.edge("tagged", "kept", "player = keeper");
        builder.edge("kept", "marked", "board[to] = x");
        builder.edge("marked", "choose", "player = x");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    #[test]
    fn a_fan_of_chains_into_a_guarded_push_carries_the_shared_part_of_its_word() {
        let fanned = fan(&["b", "c"]);
        // The fan node computes the base once: the site, `at` and the literal `keeper`, but not
        // `to`, which each chain writes.
        let base_line = fanned.lines().find(|line| line.starts_with("let base: u64 = ")).expect(&fanned);
        assert!(base_line.starts_with("let base: u64 = 0u64 | (v["), "{fanned}");
        assert_eq!(base_line.matches("(v[").count(), 1, "{fanned}");
        assert_eq!(base_line.matches(" as u64) << ").count(), 2, "{fanned}");
        // Each chain function and the push's node take it; the push ors in `to` alone.
        assert_eq!(fanned.matches(", base: u64)").count(), 3, "{fanned}");
        assert_eq!(fanned.matches(", base);").count(), 4, "{fanned}");
        let push = fanned.lines().find(|line| line.contains("cx.push_delta_if(keep, ")).expect(&fanned);
        assert!(push.contains("cx.push_delta_if(keep, base | (v["), "{push}");
        assert_eq!(push.matches("(v[").count(), 1, "{push}");
        // The base is the word's other fields: the plain word of the same site, with `to`'s
        // field taken out, is the base's expression.
        let plain = fan(&["b"]);
        let line = plain.lines().find(|line| line.contains("cx.push_delta_if(keep, ")).expect(&plain);
        let keeper = line.split("let x: u8 = ").nth(1).and_then(|rest| rest.split(';').next()).expect(line);
        let word = &line[line.find("cx.push_delta_if(keep, ").expect(line) + "cx.push_delta_if(keep, ".len()..];
        let word = &word[..word.find(");").expect(word)];
        let to_field = push[push.find("base | ").expect(push) + "base | ".len()..].split(");").next().expect(push);
        let without_to =
            word.replace(&format!(" | {to_field}"), "").replace("(x as u64)", &format!("({keeper} as u64)"));
        assert_eq!(base_line, format!("let base: u64 = {without_to};"), "{plain}");
    }

    #[test]
    fn a_single_chain_keeps_its_whole_word() {
        // One edge into the chain: nothing to share, the word is built at the push as before.
        let single = fan(&["b"]);
        assert!(!single.contains("let base: u64"), "{single}");
        assert!(!single.contains("base: u64)"), "{single}");
        assert!(single.contains("cx.push_delta_if(keep, 0u64 | "), "{single}");
    }
}
