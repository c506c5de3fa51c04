//! Offset registers written through constant maps with several computed keys (session 25):
//! `cursor = step[dir][cursor]` and `cursor = step[dir][cell]`, where the direction is a member
//! loop's variable (reversi's flank checks), become one table over the constant block's offsets.
//!
//! A pure check's offset register (`graph::offset_register_keys`) holds the board offset of its
//! slot's symbol instead of the symbol. Before this, every write into it had to read a constant
//! map with one computed key, and the check could hold no member loop; a ray over a direction
//! loop (`dir = Dir(*)`, then `cursor = step[dir][...]`) kept its cursor as a symbol and paid a
//! symbol-to-offset load at every board read. Here:
//!
//! - a write `slot = c[k1]..[kn]` with two or more computed keys is accepted when every key is a
//!   literal or a plain slot, and each key that is the register itself reads `c` through exactly
//!   the register's offsets (the same key type: `c`'s offset of a symbol is the board's). The
//!   generator then reads `OTAB[Σ offsets of the keys]`, with `OTAB[j] = OFF[c's value at j]`
//!   composed at generation time over `c`'s block, and the register key's term the register
//!   itself (it *is* that offset). Exact: the index is the constant slot the symbols' keys would
//!   have addressed, and the table holds the offset of the symbol stored there.
//! - In a function specialised for a key (an unrolled member loop's copy, `known`), the known
//!   keys fold first ([`fold_known`]), so a copy for one direction reads a one-key table as
//!   before (`TAB[r]`, the step on offsets).
//! - A member loop in the check is accepted when it does not write the register. Its filter
//!   (`Generator::member_filter`) reads a chain's write of the register as the offset the write
//!   stores (`register_value`), and a board read keyed by the register there as that offset.
//!
//! Cost: generation only; a ray step reads one table and the board (no symbol-to-offset table).

use regula_runtime::compiled::{Plan, PlanOperand, PlanPlace};

use super::graph::{fixed_slot, is_slot_read};

/// For a write `slot = place` with a constant `place` read through two or more computed keys,
/// each a literal or a plain slot: the offsets of the steps keyed by `slot` itself (each must
/// equal the register's offsets). `None` when the place has another shape.
pub(crate) fn multi_key_register_write(place: &PlanPlace, slot: u32) -> Option<Vec<Vec<u32>>> {
    if place.in_state {
        return None;
    }
    let mut computed = 0;
    let mut own = Vec::new();
    for step in &place.steps {
        match &step.key {
            PlanOperand::Literal(_) => {}
            PlanOperand::Place(key) => {
                fixed_slot(key)?;
                computed += 1;
                if is_slot_read(&step.key, slot) {
                    own.push(step.offsets.clone());
                }
            }
        }
    }
    (computed >= 2).then_some(own)
}

/// `place` with each key `known` gives a symbol for replaced by that literal.
pub(crate) fn fold_known(place: &PlanPlace, known: impl Fn(&PlanOperand) -> Option<u32>) -> PlanPlace {
    let mut folded = place.clone();
    for step in &mut folded.steps {
        if let Some(symbol) = known(&step.key) {
            step.key = PlanOperand::Literal(symbol);
        }
    }
    folded
}

/// The composed table of a multi-key write: per slot `j` of the constant block from `base`
/// (`span` slots), the register offset of the symbol stored there (0 for a symbol without one).
pub(crate) fn composed_offsets(plan: &Plan, offsets: &[u32], base: usize, span: usize) -> Vec<u64> {
    (0..span)
        .map(|j| {
            let symbol = plan.const_values.get(base + j).copied().unwrap_or(0);
            offsets.get(symbol as usize).copied().unwrap_or(0) as u64
        })
        .collect()
}

/// The slots of a multi-key write's composed table: one past the greatest sum of its computed
/// keys' offsets.
pub(crate) fn composed_span(place: &PlanPlace) -> usize {
    1 + place
        .steps
        .iter()
        .filter(|step| matches!(step.key, PlanOperand::Place(_)))
        .map(|step| step.offsets.iter().copied().max().unwrap_or(0) as usize)
        .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// A one-player game checking `? start -> goal`: for each direction of `Dir` (a member loop,
    /// or the variable `dir` as it is when `loop_over_dir` is false), a ray from `pos` over a line
    /// of three squares, `step[dir]` up or down, stepping while the square is `empty`, succeeding
    /// on a `stone`.
    fn direction_module(loop_over_dir: bool) -> String {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Dir", "{up, down}").typedef("Content", "{empty, wall, stone}");
        builder.typedef("Board", "Sq -> Content").typedef("Step", "Dir -> Sq -> Sq");
        builder.constant("step", "Step", "{up: {s1: s2, s2: s3, :off}, down: {s2: s1, s3: s2, :off}, :{:off}}");
        builder.variable("pos", "Sq", "s1").variable("dir", "Dir", "up");
        builder.variable("board", "Board", "{off: wall, s3: stone, :empty}");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "done", "? start -> goal");
        builder.edge("done", "end", "player = keeper");
        if loop_over_dir {
            builder.edge("start", "aimed", "dir = Dir(*)");
        } else {
            builder.edge("start", "aimed", "dir == dir");
        }
        for (from, to, label) in [
            ("aimed", "walk", "pos = step[dir][pos]"),
            ("walk", "free", "board[pos] == empty"),
            ("free", "walk", "pos = step[dir][pos]"),
            ("walk", "goal", "board[pos] == stone"),
        ] {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        crate::codegen::generate(&automaton, "test").expect("the test automaton generates")
    }

    fn table<'m>(module: &'m str, name: &str) -> &'m str {
        module.lines().find(|l| l.starts_with(&format!("static {name}: "))).unwrap_or_else(|| panic!("{module}"))
    }

    #[test]
    fn a_ray_over_a_direction_loop_holds_its_cursor_as_a_board_offset() {
        let module = direction_module(true);
        // The board reads use the register itself, never a symbol-to-offset table.
        assert!(module.contains("v[2 + r0 as usize] == "), "{module}");
        assert!(!module.contains("r0 as usize)] as usize]"), "{module}");
        // Each direction's copy steps on offsets (s1..off at offsets 0..3, other symbols at the
        // default 4): up is 0 -> 1 -> 2 -> 3 -> 3, down 0 -> 3, 1 -> 0, 2 -> 1, 3 -> 3, and the
        // default steps to `off` (3) both ways.
        let steps: Vec<&str> =
            module.lines().filter(|l| l.starts_with("r0 = TAB")).map(|l| l.trim_end_matches(';')).collect();
        assert_eq!(steps.len(), 2, "{module}");
        let up = steps[0].split(['[', ' ']).nth(2).expect("a table name");
        let down = steps[1].split(['[', ' ']).nth(2).expect("a table name");
        assert!(table(&module, up).contains("= [1, 2, 3, 3, 3, 0,"), "{module}");
        assert!(table(&module, down).contains("= [3, 0, 1, 3, 3, 0,"), "{module}");
        // The first step from `pos` reads the same table as the ring's steps.
        assert!(module.contains(&format!("let x: u8 = {up}[(r0 as usize)];")), "{module}");
        // The check is entered with the state's `pos` turned into its offset (`TAB0`).
        assert!(module.contains("r4_5(v, TAB0[(v[0] as usize)], v[1])"), "{module}");
        // The register lives in the functions' arguments: the state's slot is never written.
        assert!(!module.contains("v[0] = "), "{module}");
    }

    #[test]
    fn a_direction_read_from_the_state_steps_through_one_composed_table() {
        let module = direction_module(false);
        // `step[dir][pos]` with `dir` unknown: one table over `step`'s block holding offsets,
        // keyed by the direction's block offset plus the register.
        let write = module.lines().find(|l| l.contains("r0 = OTAB")).unwrap_or_else(|| panic!("{module}"));
        assert!(write.contains(" + r0 as usize]"), "{write}");
        let name = write.split(['=', '[']).nth(1).expect("a table name").trim();
        // `step`'s blocks: up (s1..off, default) then down then the default direction, each
        // 5 slots; entries are the offsets of the stepped squares.
        assert!(table(&module, name).contains("= [1, 2, 3, 3, 3, 3, 0, 1, 3, 3, 3, 3, 3, 3, 3"), "{module}");
    }

    #[test]
    fn a_member_loop_over_the_cursor_itself_keeps_its_symbol() {
        // `pos = Sq(*)` writes the register: no offset register (the member is a symbol).
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, stone}").typedef("Board", "Sq -> Content");
        builder.variable("pos", "Sq", "s1").variable("board", "Board", "{:stone}");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "done", "? start -> goal");
        builder.edge("done", "end", "player = keeper");
        builder.edge("start", "picked", "pos = Sq(*)");
        builder.edge("picked", "goal", "board[pos] == stone");
        let automaton = builder.build().expect("the test automaton builds");
        let module = crate::codegen::generate(&automaton, "test").expect("the test automaton generates");
        assert!(!module.contains("OTAB") && !module.contains("TAB0[(v[0] as usize)]"), "{module}");
    }
}
