//! Ray skips: a pure check's walk along a ray of empty squares (`loop { if board[cursor] !=
//! empty { break } cursor = step[cursor] }`) jumps to the first square that stops it with one
//! mask and one bit scan, before its loop runs (chess's king-safety rays).
//!
//! Shape (recognised on the automaton, in a pure reachability check whose cursor is its offset
//! register, [`Generator::offset_register`]): a ring ([`loops`](super::loops)) entered at a node
//! `A` whose ring edge is a *pass* guard `board[r] == x` (or `!=`), `x` a value the ring cannot
//! change (a literal, or a read of no slot the ring writes), and whose other edges are all the
//! complementary guard; one ring edge steps the cursor through a constant table `r = next[r]`;
//! every other ring edge is a skip or a tag, and no other node of the ring has an exit. The
//! board read's address is `base + r` (the register is the offset).
//!
//! The walk from `r` tests `r, next[r], next[next[r]], ...`: at a square that passes, no exit is
//! taken and the cursor steps; at the first that does not, the exits run and the ring guard ends
//! the loop. Before the walk ends in a value on a cycle of `next` (chess's null square, whose
//! step is itself), the squares are pairwise distinct: per register value the generator lists
//! this *ray* (its squares before the first periodic value) and the value ending it
//! ([`rays`]). When every square of a ray lies in one window of 64 slots and the slots rise (or
//! fall) along it, the ray is one mask `RAY[r]`, the squares that stop the walk are
//! `stops = equal_bytes(v, window, x)` (or its complement), and the walk's first stop is the
//! lowest (highest) set bit of `stops & RAY[r]`, or, with none set, `END[r]`. The cursor is set
//! there and the unchanged loop runs from it.
//!
//! Exact: the skip only passes squares whose pass guard holds, where the loop would only have
//! stepped; wherever it lands, the loop does what it would have done there (a ray that ends in a
//! passing periodic value keeps looping as before). A register value without a ray that fits
//! (none in the window, or slots not monotone in the table's direction, or a value no symbol
//! has) has `RAY = 0` and `END` itself: no skip.
//!
//! Cost: the 64-slot mask (~15 instructions, shared by the rays of one check where the compiler
//! sees no write between them), then per ray one table read, an and, a bit scan and a select, in
//! place of one branch per square whose exit the branch predictor misses once per ray. Not taken
//! where symbols are wider than a byte, the state has fewer than 64 slots, the ring is entered
//! elsewhere than at its pass guard, or the shape above does not hold.

use super::{graph, loops, offset_keys, refine, Generator, Mode, PlanOp, PlanOperand, PlanPlace, PlanTransfer};
use std::fmt::Write;

/// Per register value, the mask of the ray a walk from it covers and where the walk stands once
/// every square of it passed (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rays {
    /// First slot of the 64-slot window the masks' bits stand for (bit `i` is slot `window + i`).
    pub window: u32,
    /// Whether slots rise along every ray (the first stop is the lowest bit), else they fall.
    pub ascending: bool,
    /// Per register value, its ray's squares as window bits (0: no skip).
    pub masks: Vec<u64>,
    /// Per register value, the register value past its ray (itself where there is no skip).
    pub ends: Vec<u64>,
}

/// The rays of cursor step `next` (per register value, the next value) whose squares are read at
/// slots `base + value`, for walks starting at `starts`, in a state of `slots` slots; `None` when
/// no ray fits a window (see the module docs).
pub(crate) fn rays(next: &[u64], base: u32, slots: u32, starts: &[u32]) -> Option<Rays> {
    let count = next.len();
    if slots < 64 {
        return None;
    }
    let step = |value: usize| next.get(value).map(|&n| n as usize).filter(|&n| n < count);
    let periodic = periodic_values(count, step);
    // Per start, its ray (the values before the first periodic one) and that value.
    let mut walks: Vec<(usize, Vec<u32>, usize)> = Vec::new();
    for &start in starts {
        let start = start as usize;
        if start >= count || walks.iter().any(|(known, _, _)| *known == start) {
            continue;
        }
        let mut ray = Vec::new();
        let mut at = start;
        let end = loop {
            if periodic[at] {
                break Some(at);
            }
            ray.push(base + at as u32);
            match step(at) {
                Some(n) => at = n,
                None => break None,
            }
        };
        if let Some(end) = end {
            if !ray.is_empty() {
                walks.push((start, ray, end));
            }
        }
    }
    let rising = |ray: &[u32]| ray.windows(2).all(|pair| pair[0] < pair[1]);
    let falling = |ray: &[u32]| ray.windows(2).all(|pair| pair[0] > pair[1]);
    let long = walks.iter().filter(|(_, ray, _)| ray.len() >= 2);
    let (up, down) =
        long.fold((0, 0), |(up, down), (_, ray, _)| (up + rising(ray) as usize, down + falling(ray) as usize));
    let ascending = up >= down;
    let monotone = |ray: &[u32]| if ascending { rising(ray) } else { falling(ray) };
    let lowest = walks.iter().filter(|(_, ray, _)| monotone(ray)).flat_map(|(_, ray, _)| ray.iter().copied()).min()?;
    let window = lowest.min(slots - 64);
    let mut masks = vec![0u64; count];
    let mut ends: Vec<u64> = (0..count as u64).collect();
    for (start, ray, end) in &walks {
        if monotone(ray) && ray.iter().all(|&slot| slot >= window && slot < window + 64) {
            masks[*start] = ray.iter().fold(0, |mask, &slot| mask | 1 << (slot - window));
            ends[*start] = *end as u64;
        }
    }
    masks.iter().any(|&mask| mask != 0).then_some(Rays { window, ascending, masks, ends })
}

impl Generator<'_> {
    /// The code that moves the register of `ring`'s loop past the squares that pass its guard,
    /// written before the loop, or `None` where the ring is not of the shape (module docs).
    pub(super) fn ray_skip(&mut self, mode: Mode, ring: &loops::Ring) -> Option<String> {
        if !matches!(mode, Mode::Reach { pure: true, .. }) || self.sym != "u8" {
            return None;
        }
        let (register, offsets) = self.in_offset.clone()?;
        if ring.written != [register] || !self.in_registers.contains(&register) {
            return None;
        }
        let &(_, pass) = ring.rotation.first()?;
        let PlanOp::Compare { lhs, rhs, transfer: PlanTransfer::Slot, equal } = self.plan.ops[pass].clone() else {
            return None;
        };
        // One side reads the board at the register, the other is fixed while the ring runs.
        let (read, value) = match (self.read_base(&lhs, register), self.read_base(&rhs, register)) {
            (Some(base), None) => (base, rhs.clone()),
            (None, Some(base)) => (base, lhs.clone()),
            _ => return None,
        };
        if refine::reads_slot(&value, register) {
            return None;
        }
        // Every exit is the complementary guard, at the entry node only.
        let complementary = |op: &PlanOp| match op {
            PlanOp::Compare { lhs: l, rhs: r, transfer: PlanTransfer::Slot, equal: e } => {
                *e != equal && ((*l == lhs && *r == rhs) || (*l == rhs && *r == lhs))
            }
            _ => false,
        };
        for (index, &(node, ring_edge)) in ring.rotation.iter().enumerate() {
            for edge in self.walked_edges(mode, node) {
                let fits = edge == ring_edge || (index == 0 && complementary(&self.plan.ops[edge]));
                if !fits {
                    return None;
                }
            }
        }
        // The other ring edges: one cursor step through a constant table, the rest no-ops.
        let mut next = None;
        for &(_, edge) in &ring.rotation[1..] {
            match self.plan.ops[edge].clone() {
                PlanOp::Skip | PlanOp::Tag(_) | PlanOp::TagExpr(_) => {}
                PlanOp::Assign { lhs, rhs: PlanOperand::Place(place), .. }
                    if graph::fixed_slot(&lhs) == Some(register) && next.is_none() =>
                {
                    next = Some(self.step_on_register(register, &offsets, &place)?);
                }
                _ => return None,
            }
        }
        let next = next?;
        let rays = rays(&next, read, self.plan.state_len as u32, &offsets)?;
        let sym = self.sym;
        let masks = self.table("RAY", "u64", rays.masks.clone());
        let ends = self.table("END", sym, rays.ends.clone());
        let compared = self.value(&value);
        let bytes = format!("regula_runtime::compiled::rays::equal_bytes(&v[..], {}, {compared})", rays.window);
        // The walk stops where the pass guard fails.
        let stops = if equal { format!("!{bytes}") } else { bytes };
        // The scan's input is never zero (the last bit in scan order is set, which changes no
        // nonzero `m`'s first bit), so the compiler needs no zero case; where `m` is zero the
        // select takes `END`.
        let bit = if rays.ascending {
            "(m | 1 << 63).trailing_zeros() as u8"
        } else {
            "((m | 1).leading_zeros() as u8 ^ 63)"
        };
        let shift = (rays.window.wrapping_sub(read) & 0xff) as u8;
        let mut code = String::new();
        writeln!(code, "{{\nlet stops: u64 = {stops};\nlet m = stops & {masks}[(r{register} as usize)];")
            .expect("writing to a String");
        // A select, not a branch: whether a ray is blocked is data the predictor cannot learn.
        writeln!(
            code,
            "r{register} = regula_runtime::compiled::rays::select_unpredictable(m == 0, {ends}[(r{register} as usize)], ({bit}).wrapping_add({shift}));\n}}"
        )
        .expect("writing to a String");
        Some(code)
    }

    /// The base slot of a read `m[r]` of a state map at the offset register `register` (its
    /// other keys known here), whose slot is then `base + r`; `None` for any other operand.
    fn read_base(&self, operand: &PlanOperand, register: u32) -> Option<u32> {
        let PlanOperand::Place(place) = operand else { return None };
        if !place.in_state {
            return None;
        }
        let mut base = place.base;
        let mut at_register = false;
        for step in &place.steps {
            if graph::is_slot_read(&step.key, register) && !at_register {
                at_register = true;
            } else {
                base += step.offsets.get(self.known_key(&step.key)? as usize)?;
            }
        }
        at_register.then_some(base)
    }

    /// The cursor step `r = c[.., r, ..]` on register values, as the ring's loop reads it (the
    /// table [`Generator::register_value`] writes), or `None` for any other write.
    fn step_on_register(&self, register: u32, offsets: &[u32], place: &PlanPlace) -> Option<Vec<u64>> {
        let place = offset_keys::fold_known(place, |key| match key {
            PlanOperand::Place(key) if graph::fixed_slot(key) == Some(register) => None,
            _ => self.known_key(key),
        });
        let (_, step) = graph::constant_map_key(&place)?;
        if !graph::is_slot_read(&step.key, register) {
            return None;
        }
        let mut next = graph::step_on_offsets(offsets, 0, &self.constant_map(&place))?;
        next.resize(self.table_len.max(next.len()), 0);
        Some(next)
    }
}

/// Per value below `count`, whether `step` brings it back to itself: a value on a cycle of the
/// step comes back within `count` steps (a ray ends at its first periodic value, in ray skips and
/// ray counts alike).
pub(crate) fn periodic_values(count: usize, step: impl Fn(usize) -> Option<usize>) -> Vec<bool> {
    (0..count)
        .map(|value| {
            let mut at = value;
            for _ in 0..count {
                match step(at) {
                    Some(n) if n == value => return true,
                    Some(n) => at = n,
                    None => return false,
                }
            }
            false
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::generate;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// A game whose move checks a ray of `squares` squares up a line from `s0`: skip empty
    /// squares, then `exit` at the first other one (`board[pos] != empty` into `stop`, then
    /// `board[pos] == stone`, in chess's shape). A second map of `padding` entries makes the
    /// state long enough for a 64-slot window.
    fn ray_module(squares: usize, padding: usize, exit: &[(&str, &str, &str)]) -> String {
        let names: Vec<String> = (0..squares).map(|i| format!("s{i}")).collect();
        let pads: Vec<String> = (0..padding).map(|i| format!("p{i}")).collect();
        let steps: Vec<String> = names.windows(2).map(|pair| format!("{}: {}", pair[0], pair[1])).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}");
        builder.typedef("Sq", &format!("{{{}, off}}", names.join(", ")));
        builder.typedef("Pad", &format!("{{{}}}", pads.join(", ")));
        builder.typedef("Content", "{empty, wall, stone}").typedef("Board", "Sq -> Content");
        builder.typedef("Pads", "Pad -> Content").variable("pads", "Pads", "{:empty}");
        builder.typedef("Step", "Sq -> Sq").constant("up", "Step", &format!("{{{}, :off}}", steps.join(", ")));
        builder.variable("pos", "Sq", "s0").variable("board", "Board", "{off: wall, :empty}");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "done", "? start -> goal");
        builder.edge("done", "end", "player = keeper");
        builder.edge("start", "walk", "pos = up[pos]");
        builder.edge("walk", "free", "board[pos] == empty");
        builder.edge("free", "walk", "pos = up[pos]");
        for (from, to, label) in exit {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    const CHESS_EXIT: [(&str, &str, &str); 2] =
        [("walk", "stop", "board[pos] != empty"), ("stop", "goal", "board[pos] == stone")];

    /// The values of the static table `name` of a generated module.
    fn table(module: &str, name: &str) -> Vec<u64> {
        let line = module.lines().find(|l| l.starts_with(&format!("static {name}: "))).expect("the table exists");
        let list = &line[line.find("= [").expect("a list") + 3..line.rfind(']').expect("a list")];
        list.split(", ").map(|value| value.parse().expect("a number")).collect()
    }

    #[test]
    fn a_check_s_ray_walk_is_skipped_with_one_mask_per_square() {
        let module = ray_module(40, 40, &CHESS_EXIT);
        let skip = module
            .lines()
            .find(|l| l.contains("rays::equal_bytes("))
            .unwrap_or_else(|| panic!("no ray skip: {module}"));
        // The squares that stop the walk are those not empty (symbol `empty` compared, negated).
        assert!(skip.starts_with("let stops: u64 = !regula_runtime::compiled::rays::equal_bytes(&v[..], "), "{skip}");
        // The tables' names, from the lines reading them.
        let after = |prefix: &str| {
            let line = module.lines().find_map(|l| l.split_once(prefix)).expect("the skip's line").1;
            line.split('[').next().expect("a table name").to_string()
        };
        let masks = table(&module, &after("let m = stops & "));
        // One ray per square s0..s39, rising: the ray from the square `k` from the top holds
        // `k` consecutive slots, all ending at the top square's slot (the last of s0's ray).
        let longest = masks.iter().copied().max_by_key(|mask| mask.count_ones()).expect("rays");
        let top = 63 - longest.leading_zeros();
        let (squares, others): (Vec<u64>, Vec<u64>) =
            masks.iter().copied().filter(|&mask| mask != 0).partition(|&mask| mask >> top & 1 == 1);
        assert_eq!(squares.len(), 40, "{masks:?}");
        let mut lengths: Vec<u32> = squares.iter().map(|mask| mask.count_ones()).collect();
        lengths.sort_unstable();
        assert_eq!(lengths, (1..=40).collect::<Vec<u32>>());
        for mask in squares {
            let low = mask.trailing_zeros();
            assert_eq!(mask, ((1u64 << mask.count_ones()) - 1) << low, "consecutive slots");
        }
        // And the map's default block, past `off`: the offset of every symbol that is no square
        // steps to `off` too.
        assert_eq!(others, [1u64 << (top + 2)], "{masks:?}");
        // Past its ray, the walk stands on `off`: one value for every square's ray.
        let ends = table(&module, &after("select_unpredictable(m == 0, "));
        let off: Vec<u64> = masks.iter().zip(&ends).filter(|(&mask, _)| mask != 0).map(|(_, &end)| end).collect();
        assert!(off.windows(2).all(|pair| pair[0] == pair[1]), "{off:?}");
        assert!(module.contains("rays::select_unpredictable(m == 0, END"), "{module}");
    }

    #[test]
    fn rays_are_not_skipped_outside_the_shape() {
        // An exit that is not the pass guard's complement (whether it holds on a square the walk
        // passes depends on the symbols, which the skip does not compare).
        let direct = ray_module(40, 40, &[("walk", "goal", "board[pos] == stone")]);
        assert!(!direct.contains("equal_bytes"), "{direct}");
        // A state shorter than one window.
        let short = ray_module(20, 1, &CHESS_EXIT);
        assert!(short.contains("loop {") && !short.contains("equal_bytes"), "{short}");
        // The chess shape itself is taken.
        assert!(ray_module(40, 40, &CHESS_EXIT).contains("equal_bytes"));
    }

    /// A line of `n` squares at offsets `0..n`, stepping up (`up`) or down, the last (first)
    /// square stepping to the off-board value `n`, which steps to itself.
    fn line(n: usize, up: bool) -> Vec<u64> {
        (0..=n as u64)
            .map(|value| match value {
                v if v == n as u64 => v,
                v if up => {
                    if v + 1 == n as u64 {
                        n as u64
                    } else {
                        v + 1
                    }
                }
                0 => n as u64,
                v => v - 1,
            })
            .collect()
    }

    #[test]
    fn a_rising_line_has_one_ray_per_square_ending_off_board() {
        let found = rays(&line(5, true), 10, 80, &[0, 1, 2, 3, 4, 5]).expect("the line fits");
        assert!(found.ascending);
        assert_eq!(found.window, 10);
        assert_eq!(found.masks, [0b11111, 0b11110, 0b11100, 0b11000, 0b10000, 0]);
        assert_eq!(found.ends, [5, 5, 5, 5, 5, 5]);
    }

    #[test]
    fn a_falling_line_scans_from_the_top_and_a_late_window_is_clamped() {
        // Slots 100..105 in a state of 120 slots: the window starts at 56, bits 44..48.
        let found = rays(&line(5, false), 100, 120, &[0, 1, 2, 3, 4, 5]).expect("the line fits");
        assert!(!found.ascending);
        assert_eq!(found.window, 56);
        assert_eq!(found.masks[0], 1 << 44);
        assert_eq!(found.masks[3], 0b1111 << 44);
        assert_eq!(found.ends[3], 5);
        // A value no start names keeps itself: no skip.
        let some = rays(&line(5, false), 0, 64, &[2]).expect("one ray fits");
        assert_eq!(some.masks, [0, 0, 0b111, 0, 0, 0]);
        assert_eq!(some.ends, [0, 1, 5, 3, 4, 5]);
    }

    #[test]
    fn rays_out_of_order_or_out_of_the_window_are_not_skipped() {
        // 0 -> 2 -> 1 -> 3 (3 steps to itself): not monotone, no skip; 4 -> 5 -> 3 rises.
        let next = vec![2, 3, 1, 3, 5, 3];
        let found = rays(&next, 0, 64, &[0, 4]).expect("the rising ray fits");
        assert!(found.ascending);
        assert_eq!((found.masks[0], found.ends[0]), (0, 0));
        assert_eq!((found.masks[4], found.ends[4]), (0b110000, 3));
        // Every ray of a line of 70 squares holds square 69, outside the window at the lowest
        // square: none fits (the window is not searched for the most rays).
        assert_eq!(rays(&line(70, true), 0, 100, &(0..=70).collect::<Vec<u32>>()), None);
        // A state too small for a window.
        assert_eq!(rays(&line(5, true), 0, 63, &[0]), None);
    }

    #[test]
    fn a_cycle_without_a_tail_has_no_ray() {
        // 0 -> 1 -> 0: every value periodic, the loop's own business.
        assert_eq!(rays(&[1, 0], 0, 64, &[0, 1]), None);
    }
}
