//! Ray counts: a counted ray ([`Generator::counting_ring`], amazons' arrow shots) counted on a
//! counting sink with one 128-slot mask and a bit scan instead of a walk (runtime
//! `compiled::ray_counts`, spec/codegen.md "Counted rays").
//!
//! Shape: the counting ring's step `x = c[x]` reads a constant map keyed by `x` alone (other
//! keys known), and its guard compares a state read `m[x]` (other keys known) with a value that
//! does not read `x`. Per value `s` of `x` the walk tests `c[s], c[c[s]], ...`: its *ray* is the
//! slots those values read before the first value on a cycle of `c` (its *end*). When every
//! symbol's ray has pairwise distinct slots that all rise (or all fall) along the state, inside
//! one window of 128 slots, the ray is a mask `RAY[s]`; at run time `stops` are the window's
//! slots that fail the guard (`ray_counts::equal_bytes_wide`, once per landing where the
//! compiler sees no write between rays), and the walk counts the ray's bits before its first
//! stop (`leading_rising` / `leading_falling`).
//!
//! Exact: the walk passes exactly the leading squares of its ray that pass the guard, each one
//! move, and stops at the first that fails. Where none fails, the walk goes on to the end value,
//! which the code tests at run time: where it fails the count is the ray's length; where it
//! passes (a walk that would go on round the cycle) the four-step loop runs instead. Not taken
//! (the four-step loop alone) where symbols are wider than a byte, the state has fewer than 64
//! slots, or some symbol's ray does not fit.

use super::distinct::SlotFacts;
use super::{graph, offset_keys, refine, Generator};
use regula_runtime::compiled::{PlanOperand, PlanPlace};

/// The slots of a window mask.
const WINDOW: u32 = 128;

/// Per symbol value of a cursor, the mask of the slots its walk tests and the slot of the value
/// ending it (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RayCounts {
    /// First slot of the window (bit `i` is slot `window + i`).
    pub window: u32,
    /// Whether slots rise along every ray.
    pub ascending: bool,
    /// Per value, its ray's slots as window bits.
    pub masks: Vec<u128>,
    /// Per value, the slot its walk's end value reads.
    pub end_slots: Vec<u32>,
    /// Per value, its ray's length.
    pub lengths: Vec<u32>,
    /// Per window bit, the length of the ray of the value read there (0 where none is): the
    /// walk from `s` passes `lengths[s] - ranks[b] - 1` squares before a stop at bit `b` of its
    /// ray, since a ray is its first square and then that square's ray.
    pub ranks: Vec<u32>,
}

/// The rays of a walk whose step is `next` (per symbol, the next symbol) and whose guard reads
/// slot `slot_of[s]` for value `s`, in a state of `slots` slots; `None` where some ray does not
/// fit (module docs).
pub(crate) fn ray_counts(next: &[u32], slot_of: &[u32], slots: u32) -> Option<RayCounts> {
    let count = next.len();
    if slots < 64 || slot_of.len() < count {
        return None;
    }
    let step = |value: usize| next.get(value).map(|&n| n as usize).filter(|&n| n < count);
    let periodic = super::ray_skips::periodic_values(count, step);
    // Per value, the slots of its ray and the value ending it.
    let mut walks: Vec<(Vec<u32>, usize)> = Vec::with_capacity(count);
    for start in 0..count {
        let mut ray = Vec::new();
        let mut at = step(start)?;
        while !periodic[at] {
            ray.push(slot_of[at]);
            at = step(at)?;
            if ray.len() > count {
                return None;
            }
        }
        walks.push((ray, at));
    }
    let rising = |ray: &[u32]| ray.windows(2).all(|pair| pair[0] < pair[1]);
    let falling = |ray: &[u32]| ray.windows(2).all(|pair| pair[0] > pair[1]);
    let ascending = walks.iter().all(|(ray, _)| rising(ray));
    if !ascending && !walks.iter().all(|(ray, _)| falling(ray)) {
        return None;
    }
    // The window starts at the lowest slot the guard can read, so that every ray over one board
    // shares one window (and one mask per landing).
    let lowest = slot_of.iter().copied().min().unwrap_or(0);
    let window = lowest.min(slots - 64);
    let mut masks = Vec::with_capacity(count);
    for (ray, _) in &walks {
        let mut mask = 0u128;
        for &slot in ray {
            if slot < window || slot >= window + WINDOW || slot >= slots {
                return None;
            }
            mask |= 1 << (slot - window);
        }
        masks.push(mask);
    }
    let end_slots = walks.iter().map(|&(_, end)| slot_of[end]).collect();
    let lengths: Vec<u32> = walks.iter().map(|(ray, _)| ray.len() as u32).collect();
    // Every square on some ray: the length of its own ray, which must be one per slot.
    let mut ranks: Vec<Option<u32>> = vec![None; WINDOW as usize];
    for start in 0..count {
        let Some(at) = step(start).filter(|&at| !periodic[at]) else { continue };
        let bit = (slot_of[at] - window) as usize;
        match ranks[bit] {
            Some(known) if known != lengths[at] => return None,
            _ => ranks[bit] = Some(lengths[at]),
        }
    }
    let ranks = ranks.into_iter().map(|rank| rank.unwrap_or(0)).collect();
    Some(RayCounts { window, ascending, masks, end_slots, lengths, ranks })
}

impl Generator<'_> {
    /// The counting code of a counted ray whose ring writes `x` with `step` and passes where
    /// `a == b` (`equal`, else `a != b`), with `walk` (the four-step loop) for a walk that passes
    /// its ray's end; `None` where the ray does not fit (module docs).
    pub(super) fn ray_count(
        &mut self,
        x: u32,
        step: &PlanOperand,
        (a, b, equal): (&PlanOperand, &PlanOperand, bool),
        walk: &str,
    ) -> Option<String> {
        let (rays, _, value) = self.ring_rays(x, step, (a, b))?;
        let value = &value;
        let open = self.open_ray_count(&rays, value, equal);
        let low: Vec<u64> = rays.masks.iter().map(|&mask| mask as u64).collect();
        let high: Vec<u64> = rays.masks.iter().map(|&mask| (mask >> 64) as u64).collect();
        let low = self.symbol_table("RAYLO", "u64", &low, 0);
        let high = self.symbol_table("RAYHI", "u64", &high, 0);
        let lengths: Vec<u64> = rays.lengths.iter().map(|&length| length as u64).collect();
        let lengths = self.symbol_table("RAYLEN", "u8", &lengths, 0);
        let compared = self.value(value);
        let bytes =
            format!("regula_runtime::compiled::ray_counts::equal_bytes_wide(&v[..], {}, {compared})", rays.window);
        let (stops, op) = if equal { (format!("!{bytes}"), "==") } else { (bytes, "!=") };
        let scan = format!(
            "let at = v[{x}] as usize;
let stops: u128 = {stops};
let blocked: u128 = stops & (({high}[at] as u128) << 64 | {low}[at] as u128);
"
        );
        if let Some((ahead, ranks)) = open {
            let ranks = self.table("RANK", "u8", ranks);
            return Some(format!(
                "{scan}cx.count_moves(regula_runtime::compiled::ray_counts::{ahead}(blocked, {lengths}[at], &{ranks}));
"
            ));
        }
        let off = self.off;
        let ends: Vec<u64> = rays.end_slots.iter().map(|&slot| slot as u64).collect();
        let ends = self.symbol_table("ENDSLOT", off, &ends, 0);
        let ranks = self.table("RANK", "u8", rays.ranks.iter().map(|&rank| rank as u64).collect());
        let ahead = if rays.ascending { "ahead_rising" } else { "ahead_falling" };
        // One test, taken only by a walk that passes its whole ray and its end (an integer or,
        // so that the compiler keeps one predictable branch rather than two).
        Some(format!(
            "{scan}if (blocked | !(v[{ends}[at] as usize] {op} {compared}) as u128) != 0 {{
cx.count_moves(regula_runtime::compiled::ray_counts::{ahead}(blocked, {lengths}[at], &{ranks}));
}} else {{
{walk}}}
"
        ))
    }

    /// The rays of a ring walk whose step `step` writes `x` and whose guard compares `a` with
    /// `b` (module docs), the step per symbol, and the guard's side that does not read `x`;
    /// `None` where the walk is not of that shape or some ray does not fit.
    pub(super) fn ring_rays(
        &self,
        x: u32,
        step: &PlanOperand,
        (a, b): (&PlanOperand, &PlanOperand),
    ) -> Option<(RayCounts, Vec<u32>, PlanOperand)> {
        if self.sym != "u8" {
            return None;
        }
        let PlanOperand::Place(step) = step else { return None };
        let (step_base, step_offsets) = self.keyed_by(step, x)?;
        if step.in_state {
            return None;
        }
        let (board, value) = match (a, b) {
            (PlanOperand::Place(place), other) | (other, PlanOperand::Place(place))
                if place.in_state && !refine::reads_slot(other, x) =>
            {
                (place, other)
            }
            _ => return None,
        };
        let (board_base, board_offsets) = self.keyed_by(board, x)?;
        let symbols = self.automaton.symbols.len().min(step_offsets.len()).min(board_offsets.len());
        let next: Vec<u32> = (0..symbols)
            .map(|s| self.plan.const_values.get((step_base + step_offsets[s]) as usize).copied())
            .collect::<Option<_>>()?;
        let slot_of: Vec<u32> = (0..symbols).map(|s| board_base + board_offsets[s]).collect();
        let rays = ray_counts(&next, &slot_of, self.plan.state_len as u32)?;
        Some((rays, next, value.clone()))
    }

    /// The scan and rank table of a counted ray that needs neither the end test nor the select
    /// (module docs, "Open rays"), or `None` where either is needed: every end value's guard
    /// fails in every reachable state, so a walk that passes its whole ray stops at its end and
    /// counts the ray's length, which the open scan gives where the forced bit lies on no ray.
    pub(super) fn open_ray_count(
        &self,
        rays: &RayCounts,
        value: &PlanOperand,
        equal: bool,
    ) -> Option<(&'static str, Vec<u64>)> {
        let PlanOperand::Literal(compared) = *value else { return None };
        let facts = SlotFacts::refined(self.automaton, self.plan, &self.values, self.automaton.symbols.len());
        if !rays.end_slots.iter().all(|&slot| end_always_fails(&facts, slot, compared, equal)) {
            return None;
        }
        let (forced, ahead) = if rays.ascending { (127, "ahead_rising_open") } else { (0, "ahead_falling_open") };
        Some((ahead, open_ranks(rays, forced)?))
    }

    /// The base and per-symbol offsets of a place read `m[x]` (its other keys known here): the
    /// slot (state) or constant index of value `s` of `x` is `base + offsets[s]`.
    fn keyed_by(&self, place: &PlanPlace, x: u32) -> Option<(u32, Vec<u32>)> {
        let place = offset_keys::fold_known(place, |key| match key {
            PlanOperand::Place(key) if graph::fixed_slot(key) == Some(x) => None,
            _ => self.known_key(key),
        });
        let mut base = place.base;
        let mut keyed = None;
        for step in &place.steps {
            match &step.key {
                PlanOperand::Literal(symbol) => base += *step.offsets.get(*symbol as usize)?,
                key if graph::is_slot_read(key, x) && keyed.is_none() => keyed = Some(step.offsets.clone()),
                _ => return None,
            }
        }
        Some((base, keyed?))
    }
}

/// Whether a walk's guard fails at an end reading `slot` in every reachable state: the slot can
/// never hold `compared` (guard `==`), or can only hold it (guard `!=`).
fn end_always_fails(facts: &SlotFacts, slot: u32, compared: u32, equal: bool) -> bool {
    if equal {
        return !facts.may_hold(slot, compared);
    }
    let Some(set) = facts.sets().get(slot as usize) else { return false };
    set.iter().enumerate().all(|(word, &bits)| {
        let own = if compared as usize / 64 == word { 1u64 << (compared % 64) } else { 0 };
        bits & !own == 0
    }) && facts.may_hold(slot, compared)
}

/// The rank table of [`RayCounts::ranks`] with the scan's forced bit (`forced`: 127 for rising
/// rays, 0 for falling) given rank 255, so that an unblocked ray, whose scan finds that bit,
/// counts `length - 255 - 1 = length` (wrapping in `u8`); `None` where the bit lies on a ray.
fn open_ranks(rays: &RayCounts, forced: u32) -> Option<Vec<u64>> {
    if rays.masks.iter().any(|&mask| mask >> forced & 1 == 1) {
        return None;
    }
    let mut ranks: Vec<u64> = rays.ranks.iter().map(|&rank| rank as u64).collect();
    ranks[forced as usize] = 255;
    Some(ranks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of `n` squares (symbols `0..n`, slots `base + s`) stepping up or down, the last
    /// (first) stepping to the off-board symbol `n`, which steps to itself and reads slot `off`.
    fn line(n: u32, up: bool) -> Vec<u32> {
        (0..=n)
            .map(|s| match s {
                s if s == n => n,
                s if up => s + 1,
                0 => n,
                s => s - 1,
            })
            .collect()
    }

    #[test]
    fn a_rising_line_counts_the_squares_past_each_start() {
        let slot_of: Vec<u32> = (0..5).map(|s| 10 + s).chain([0]).collect();
        let found = ray_counts(&line(5, true), &slot_of, 80).expect("the line fits");
        assert!(found.ascending);
        // The window starts at the off-board slot 0, the lowest the guard reads.
        assert_eq!(found.window, 0);
        // From square s the walk tests s + 1 .. 4 (slots 11 + s ..= 14); off-board ends every walk.
        assert_eq!(found.masks, [0b1111 << 11, 0b1110 << 11, 0b1100 << 11, 0b1000 << 11, 0, 0]);
        assert_eq!(found.end_slots, [0; 6]);
        assert_eq!(found.lengths, [4, 3, 2, 1, 0, 0]);
        // The square at slot 11 (symbol 1) has a ray of three, ..., at slot 14 none.
        assert_eq!(found.ranks[10..16], [0, 3, 2, 1, 0, 0]);
    }

    #[test]
    fn a_falling_line_is_scanned_from_its_top() {
        // Squares at slots 100..105, off-board at 90: the window starts at 90.
        let slot_of: Vec<u32> = (0..5).map(|s| 100 + s).chain([90]).collect();
        let found = ray_counts(&line(5, false), &slot_of, 220).expect("the line fits");
        assert!(!found.ascending);
        assert_eq!(found.window, 90);
        assert_eq!(found.masks[0], 0);
        assert_eq!(found.masks[3], 0b111 << 10);
        assert_eq!(found.end_slots, [90; 6]);
        // In a state of 120 slots the window is clamped to its last 64 slots.
        assert_eq!(ray_counts(&line(5, false), &slot_of, 120).expect("the line fits").window, 56);
    }

    #[test]
    fn an_open_scan_needs_its_forced_bit_off_every_ray_and_an_end_that_always_fails() {
        let slot_of: Vec<u32> = (0..5).map(|s| 10 + s).chain([0]).collect();
        let rising = ray_counts(&line(5, true), &slot_of, 80).expect("the line fits");
        // Bit 127 is on no ray: its rank becomes 255, the others stay.
        let open = open_ranks(&rising, 127).expect("bit 127 is free");
        assert_eq!(open[127], 255);
        assert_eq!(open[10..16], [0, 3, 2, 1, 0, 0]);
        // Bit 11 is the first square of the ray from symbol 0.
        assert_eq!(open_ranks(&rising, 11), None);
        // Slot 0 holds 1 or 2, slot 1 only 3, slot 2 anything of symbols 0..4.
        let set = |bits: u64| vec![bits];
        let facts = SlotFacts::from_sets(1, vec![set(0b110), set(0b1000), set(0b1111)]);
        assert!(end_always_fails(&facts, 0, 3, true));
        assert!(!end_always_fails(&facts, 0, 2, true));
        assert!(end_always_fails(&facts, 1, 3, false));
        assert!(!end_always_fails(&facts, 0, 2, false));
        assert!(!end_always_fails(&facts, 2, 3, false));
        assert!(!end_always_fails(&facts, 1, 2, false));
    }

    #[test]
    fn rays_out_of_order_or_too_long_do_not_fit() {
        // 0 -> 1 -> 3 -> 2 -> 4 (4 steps to itself): the walk from 0 reads slots 1, 3, 2.
        assert_eq!(ray_counts(&[1, 3, 4, 2, 4], &[0, 1, 2, 3, 4], 64), None);
        // A line of 200 squares spans more than one window.
        let slot_of: Vec<u32> = (0..=200).collect();
        assert_eq!(ray_counts(&line(200, true), &slot_of, 300), None);
        // A state shorter than 64 slots.
        assert_eq!(ray_counts(&line(5, true), &[0, 1, 2, 3, 4, 5], 63), None);
    }
}
