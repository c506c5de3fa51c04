//! Gathered rings: on a counting sink, a node whose edges all enter ring walks of one cursor
//! (amazons' eight queen slides from an origin, each calling the landing's search per square)
//! lists every square the walks would visit into one buffer, from ray masks, and calls the
//! exit once per buffered square in one loop (spec/codegen.md "Gathered rings").
//!
//! Shape, from the automaton: a node of a counted search whose walked edges are two or more
//! skips, each into a node whose function walks a ring ([`super::loops`]) entered at its first
//! edge: `x = step[x]` (one slot `x`, the same for every ring), a guard comparing a state read
//! keyed by `x` with a literal, then a node whose walked edges are one skip (the *exit*, the same
//! block for every ring) and the skip back. Each ring's rays must fit ([`super::ray_counts`]) and
//! be *open* (every end's guard fails in every reachable state, the forced scan bit on no ray),
//! and every ray at most [`MAX_RAY`] squares long.
//!
//! Exact: a ring walk from `x = s` calls the exit once per leading square of its ray that passes
//! the guard, in ray order, each time with `x` holding that square and the rest of the state as
//! the node found it (every exit leaves the state as it found it, the guard reads nothing else
//! the walk changes), then stops at the first failing square (or the end, which always fails);
//! the rings run one after the other from the same state. So the buffer, each ring's ray squares
//! (a table per ring) cut at its count (the ray count's scan), ring by ring, holds the squares the
//! walks pass in the order they pass them, and the loop makes the same exit calls in the same
//! order. Only counting sinks take it (`MoveSink::counts_only`); listings and the selecting run
//! walk the rings as before.
//!
//! Why: each ring's end is a branch the predictor cannot learn (a slide's length is data); the
//! gathered loop has one such branch per node instead of one per ring.
//!
//! Cost: per ring a mask, a scan and a 16-byte copy; per square a load and a store of `x`.

use super::{Generator, Mode};
use regula_runtime::compiled::{PlanOp, PlanOperand, PlanTransfer};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// The longest ray a gathered ring may have (one 16-byte copy per ring).
const MAX_RAY: usize = 16;

/// One ring of a gathered node: its ray tables' names.
struct GatheredRing {
    low: String,
    high: String,
    lengths: String,
    ranks: String,
    squares: String,
    ahead: &'static str,
}

impl Generator<'_> {
    /// The counting code of a node whose edges all enter gathered rings (module docs), `None`
    /// where the node has another shape.
    pub(super) fn gathered_rings(&mut self, node: u32) -> Option<String> {
        let mode = Mode::Moves;
        if !self.known.is_empty()
            || !self.sink_nodes.get(node as usize).copied().unwrap_or(false)
            || !self.counted_search_nodes()[node as usize]
        {
            return None;
        }
        let walked = self.walked_edges(mode, node);
        if walked.len() < 2 {
            return None;
        }
        let mut cursor: Option<u32> = None;
        let mut exit_block: Option<String> = None;
        let mut compared_value: Option<u32> = None;
        let mut rings = Vec::new();
        for edge in walked {
            if !matches!(self.plan.ops[edge], PlanOp::Skip) {
                return None;
            }
            let entered = self.automaton.edges[edge].target;
            let ring = self.ring(mode, entered)?;
            let [(step_node, step_edge), (guard_node, guard_edge), (exit_node, back_edge)] = ring.rotation[..] else {
                return None;
            };
            let [x] = ring.written[..] else { return None };
            if step_node != entered || *cursor.get_or_insert(x) != x {
                return None;
            }
            if self.walked_edges(mode, step_node) != [step_edge] || self.walked_edges(mode, guard_node) != [guard_edge]
            {
                return None;
            }
            let PlanOp::Assign { lhs, rhs: step, .. } = self.plan.ops[step_edge].clone() else { return None };
            if super::graph::fixed_slot(&lhs) != Some(x) {
                return None;
            }
            let PlanOp::Compare { lhs: a, rhs: b, transfer: PlanTransfer::Slot, equal } =
                self.plan.ops[guard_edge].clone()
            else {
                return None;
            };
            if !matches!(self.plan.ops[back_edge], PlanOp::Skip) {
                return None;
            }
            let exits: Vec<usize> =
                self.walked_edges(mode, exit_node).into_iter().filter(|&e| e != back_edge).collect();
            let [exit] = exits[..] else { return None };
            if !matches!(self.plan.ops[exit], PlanOp::Skip) || !self.memoised_checks(exit_node).is_empty() {
                return None;
            }
            let block = self.edge(mode, exit, &BTreeMap::new(), &HashMap::new());
            if *exit_block.get_or_insert_with(|| block.clone()) != block {
                return None;
            }
            let (rays, next, value) = self.ring_rays(x, &step, (&a, &b))?;
            let PlanOperand::Literal(literal) = value else { return None };
            if !equal || *compared_value.get_or_insert(literal) != literal {
                return None;
            }
            let (ahead, ranks) = self.open_ray_count(&rays, &value, equal)?;
            let squares = ray_squares(&next, MAX_RAY)?;
            let low: Vec<u64> = rays.masks.iter().map(|&mask| mask as u64).collect();
            let high: Vec<u64> = rays.masks.iter().map(|&mask| (mask >> 64) as u64).collect();
            let lengths: Vec<u64> = rays.lengths.iter().map(|&length| length as u64).collect();
            rings.push((rays.window, low, high, lengths, ranks, squares, ahead));
        }
        let window = rings[0].0;
        if rings.iter().any(|ring| ring.0 != window) {
            return None;
        }
        let (x, exit_block, compared) = (cursor?, exit_block?, compared_value?);
        let mut tables = Vec::new();
        for (_, low, high, lengths, ranks, squares, ahead) in rings {
            let low = self.symbol_table("RAYLO", "u64", &low, 0);
            let high = self.symbol_table("RAYHI", "u64", &high, 0);
            let lengths = self.symbol_table("RAYLEN", "u8", &lengths, 0);
            let ranks = self.table("RANK", "u8", ranks);
            let mut padded = squares;
            padded.resize(self.table_len.max(padded.len() / MAX_RAY) * MAX_RAY, 0);
            let squares = self.table("SQUARES", "u8", padded);
            tables.push(GatheredRing { low, high, lengths, ranks, squares, ahead });
        }
        let sym = self.sym;
        let capacity = tables.len() * MAX_RAY;
        let mut code = format!(
            "let at = v[{x}] as usize;
let stops: u128 = !regula_runtime::compiled::ray_counts::equal_bytes_wide(&v[..], {window}, {compared});
let mut squares = [0 as {sym}; {capacity}];
let mut n: usize = 0;
"
        );
        for ring in &tables {
            let GatheredRing { low, high, lengths, ranks, squares, ahead } = ring;
            write!(
                code,
                "{{
let blocked: u128 = stops & (({high}[at] as u128) << 64 | {low}[at] as u128);
squares[n..n + {MAX_RAY}].copy_from_slice(&{squares}[at * {MAX_RAY}..at * {MAX_RAY} + {MAX_RAY}]);
n += regula_runtime::compiled::ray_counts::{ahead}(blocked, {lengths}[at], &{ranks});
}}
"
            )
            .expect("writing to a String");
        }
        write!(
            code,
            "let w{x}: {sym} = v[{x}];
for &square in &squares[..n] {{
v[{x}] = square;
{exit_block}}}
v[{x}] = w{x};
"
        )
        .expect("writing to a String");
        Some(code)
    }
}

/// Per symbol, the values its walk steps to before the first value on a cycle of `next` (its
/// ray, in order), as `width` bytes padded with zeros; `None` where a ray is longer or a value
/// does not fit a byte.
fn ray_squares(next: &[u32], width: usize) -> Option<Vec<u64>> {
    let count = next.len();
    let step = |value: usize| next.get(value).map(|&n| n as usize).filter(|&n| n < count);
    let periodic = super::ray_skips::periodic_values(count, step);
    let mut squares = vec![0u64; count * width];
    for start in 0..count {
        let mut at = step(start)?;
        let mut length = 0;
        while !periodic[at] {
            if length == width || at > u8::MAX as usize {
                return None;
            }
            squares[start * width + length] = at as u64;
            length += 1;
            at = step(at)?;
        }
    }
    Some(squares)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ray_s_squares_are_its_steps_before_the_cycle() {
        // 0 -> 1 -> 2 -> 3 (3 steps to itself): from 0 the walk passes 1 and 2.
        let squares = ray_squares(&[1, 2, 3, 3], 4).expect("rays fit");
        assert_eq!(squares, [1, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        // A ray of three does not fit two bytes.
        assert_eq!(ray_squares(&[1, 2, 3, 4, 4], 2), None);
        // A step out of the symbols.
        assert_eq!(ray_squares(&[1, 7], 4), None);
    }
}
