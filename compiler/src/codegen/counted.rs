//! Counted placements: the starts whose whole listing is one placement loop over byte-tested
//! members, possibly followed by fixed choices (a *counted product*), for which the playout
//! counts the moves a word at a time and builds only the picked one
//! (`regula_runtime::compiled::counted`, spec/codegen.md "Counted placements").
//!
//! A start qualifies when it is a unique delta start (not mixed) that records no visit and opens
//! no scope, and its one out-edge is a placement: `x = T(*)` over more than
//! `REPLAY_RANGE_MIN_MEMBERS` members or at most [`SMALL_MAX_MEMBERS`] (counted through
//! `small_counted`'s tables: the count and the picked member one load each), then one-slot guards that cannot fail, `$$ x`, then a
//! *tail* of single-edge nodes ending in a completion assigning one fixed slot (`player =
//! keeper`) that has a delta word. Every guard is a byte test ([`ByteTest`]: a function of the
//! member's map entry, the entries in consecutive one-byte slots, compared with a literal) whose
//! words stay inside the state. The tail's other edges are tags, skips, one-slot writes and
//! *choices* `y = U(*)` into fixed slots, none of which can fail ([`Generator::counted_chain`]).
//! Gomoku's and hex's tails are the completion alone; pentago's is `board[cell] = me`, `quadrant =
//! Quadrant(*)`, `$$ quadrant`, `spin = Spin(*)`, `$$ spin`, `player = keeper`.
//!
//! Then the search from the start lists, for each member whose guards hold (in member order),
//! every combination of the choices' members, the first choice outermost: nothing on the path can
//! fail, the tail has no check, and a choice's members are its type's, so each passing member
//! has the same number of moves, the product `P` of the choices' sizes, in the same order. The
//! byte tests are exact for every value the entries can hold (the value sets are sound), so the
//! masks mark exactly the passing members, the count is `P` times their number, and the
//! listing's move `k` is the `k / P`-th marked member with choice `j`'s member `k / R_j % n_j`
//! (`R_j` the product of the sizes of the choices after `j`). Its delta word is built from the
//! tail run once symbolically ([`Generator::counted_build`]): each write's value is its
//! expression with every slot the tail wrote before read as what it wrote (the member, a
//! choice, an earlier write), and a read of anything the tail wrote through a computed key
//! refused; the word takes, per slot of the completion's write set, its last value on the
//! tail or, where the tail never writes it, the start state's (`v[s]`), and for the set's
//! computed write the value the tail wrote there (refused unless the tail makes that write
//! and writes none of its keys or its variable after it). That is the word the listing pushes
//! for the move. Nothing is recognised by name.
//!
//! Cost: per start one walk of the placement's chain and one member filter (the one its loop
//! already made, so no new table). The function is emitted after every search function, so the
//! other functions and their tables keep their numbers.

use super::{
    completes, graph, slot_bits, ByteTest, Generator, Mode, PlanOp, PlanOperand, PlanPlace, PlanTransfer,
    REPLAY_RANGE_MIN_MEMBERS,
};
use std::fmt::Write;

/// The runtime module of small counted placements' tables.
const SMALL: &str = "regula_runtime::compiled::small_counted";

/// The most members of a placement counted through tables ([`SMALL`]).
const SMALL_MAX_MEMBERS: usize = regula_runtime::compiled::small_counted::SMALL_MAX_MEMBERS;

/// The imports of a module with counted starts (the byte-scan helpers come with `uses_byte_scan`).
pub(super) const COUNTED_IMPORT: &str = "use regula_runtime::compiled::counted::{marked_total, select_marked};\n";

/// The most moves one marked member may stand for in a counted product (the product of its
/// choices' sizes): the count, `P` times at most `8 × MAX_MARKED_WORDS` members, stays far
/// inside `usize`, and a start with more moves per member is no placement worth counting.
const MAX_PRODUCT: usize = 1 << 16;

/// The built move of a counted start: the statements computing the tail's values after
/// `member`, the delta word, and the choices in tail order (each its member table, its size
/// and the variable holding it).
struct CountedBuild {
    lets: String,
    word: String,
    choices: Vec<(String, usize, String)>,
}

impl Generator<'_> {
    /// The functions `c<N>` of the counted starts, recording the starts in `counted_starts`.
    pub(super) fn counted_functions(&mut self) -> String {
        let mut out = String::new();
        for node in 0..self.automaton.nodes.len() {
            if let Some(function) = self.counted_function(node) {
                self.counted_starts.push(node as u32);
                out.push_str(&function);
            }
        }
        out
    }

    /// The counted function of start `node`, if it qualifies (see the module doc).
    fn counted_function(&mut self, node: usize) -> Option<String> {
        let (automaton, plan, analysis) = (self.automaton, self.plan, &self.analysis);
        let qualifies = analysis.is_start[node]
            && analysis.in_moves[node]
            && analysis.unique_start[node]
            && self.deltas.starts[node]
            && !self.deltas.mixed[node]
            && !analysis.visit_in_moves[node]
            && !analysis.opens_scope[node]
            && automaton.nodes[node].edges.len() == 1;
        if !qualifies {
            return None;
        }
        let edge = automaton.nodes[node].edges.start as usize;
        let PlanOp::AssignAny { lhs, members, .. } = &plan.ops[edge] else { return None };
        let slot = graph::fixed_slot(lhs)?;
        // At most nine members: counted through tables (`small_counted`); up to
        // `REPLAY_RANGE_MIN_MEMBERS` the unrolled delta listing is kept.
        let small = members.len() <= SMALL_MAX_MEMBERS;
        if members.len() <= REPLAY_RANGE_MIN_MEMBERS && !small {
            return None;
        }
        let (guards, tail) = self.counted_chain(edge, slot)?;
        let completion = *tail.last()?;
        let PlanOp::Assign { lhs: assigned, transfer: PlanTransfer::Slot, .. } = &plan.ops[completion] else {
            return None;
        };
        graph::fixed_slot(assigned)?;
        let site = self.deltas.site_of_edge[completion]?;
        let members = members.clone();
        let count = members.len();
        let table = self.table("MEMBERS", self.sym, members.iter().map(|&m| m as u64).collect());
        let filter = self.member_filter(Mode::Moves, edge, slot, &members, &table)?;
        let tests: Vec<ByteTest> = filter.conditions.iter().map(|(_, test)| test.clone()).collect::<Option<_>>()?;
        let words = count.div_ceil(8);
        // A selected test reads its slot where `c<N>` may not see it (a register): not counted.
        if tests.len() != guards.len()
            || tests.iter().any(|test| test.selector.is_some())
            || words > regula_runtime::compiled::counted::MAX_MARKED_WORDS
            || tests.iter().any(|test| test.first_slot as usize + 8 * words > plan.state_len)
        {
            return None;
        }
        let CountedBuild { lets, word, choices } = self.counted_build(slot, &tail, site)?;
        let product: usize = choices.iter().map(|(_, size, _)| size).product();
        if product > MAX_PRODUCT {
            return None;
        }
        self.uses_byte_scan = true;
        let sym = self.sym;
        // The listing's move `k`: the `k / P`-th marked member, each choice's member from the
        // rest, the last choice innermost.
        let counted = if small { format!("{SMALL}::bits_count(bits)") } else { "marked_total(&masks)".to_string() };
        let (total, rank) = match product {
            1 => (counted, "k".to_string()),
            _ => (format!("{counted} * {product}"), format!("k / {product}")),
        };
        if !small {
            self.counted_by_masks.push(node as u32);
        }
        let (bits, selected) = if small {
            (format!("let bits = {SMALL}::marked_bits(&masks);\n"), format!("{SMALL}::select_bit(bits, {rank})"))
        } else {
            (String::new(), format!("select_marked(&masks, {rank})"))
        };
        let mut decode = String::new();
        let mut radix = product;
        for (choice_table, size, name) in &choices {
            radix /= size;
            let index = match radix {
                1 => format!("k % {size}"),
                _ => format!("k / {radix} % {size}"),
            };
            writeln!(decode, "let {name}: {sym} = {choice_table}[{index}];").expect("writing to a String");
        }
        let mask: Vec<String> = tests.iter().map(super::byte_test_mask).collect();
        let tail_members = count - 8 * (words - 1);
        // The last word's members in its first bytes: read only those (one narrow load,
        // `counted::first_slots_word`), where a word would cover slots the keeper just wrote.
        let narrow = tail_members.next_power_of_two();
        let (chunks, last_word) = if narrow < 8 {
            let last = words - 1;
            let narrowed: Vec<String> = mask
                .iter()
                .map(|m| {
                    m.replace(
                        "slot_word(v, ",
                        &format!("regula_runtime::compiled::counted::first_slots_word::<{narrow}>(v, "),
                    )
                    .replace("8 * chunk", &format!("8 * {last}"))
                })
                .collect();
            (last, format!("masks[{last}] = {};\n", narrowed.join(" & ")))
        } else {
            (words, String::new())
        };
        let tail_mask = if tail_members == 8 {
            String::new()
        } else {
            format!("masks[{}] &= {:#x};\n", words - 1, (1u64 << (8 * tail_members)) - 1)
        };
        let name = &automaton.nodes[node].name;
        Some(format!(
            "/// Node `{name}`'s moves counted (spec/codegen.md, \"Counted placements\").\n\
             #[inline(always)]\n\
             fn c{node}<P: FnOnce(usize) -> Option<usize>>(v: &Values, pick: P) -> (usize, Option<u64>) {{\n\
             let mut masks = [0u64; {words}];\n\
             for chunk in 0..{chunks} {{\n\
             masks[chunk] = {mask};\n\
             }}\n\
             {last_word}{tail_mask}{bits}let count = {total};\n\
             let Some(k) = pick(count) else {{ return (count, None) }};\n\
             let member: {sym} = {table}[{selected}];\n\
             {decode}{lets}\
             (count, Some({word}))\n\
             }}\n\n",
            mask = mask.join(" & "),
        ))
    }

    /// The guards and the tail of the placement below `x = T(*)` (`edge`, `x` in `slot`) of a
    /// counted start: a chain of single-edge nodes (no visit, no scope) of one-slot guards, then
    /// `$$ x`, then the tail, tags, skips, one-slot writes and choices `y = U(*)`, ending in a
    /// completion; nothing on the chain can fail. `None` for any other shape (a check after the
    /// tag, a branch, a block write). The tail's edges are checked further where its move is
    /// built ([`Generator::counted_build`]).
    fn counted_chain(&self, edge: usize, slot: u32) -> Option<(Vec<usize>, Vec<usize>)> {
        if !self.tags_bounded {
            return None;
        }
        let (automaton, plan) = (self.automaton, self.plan);
        let mut guards = Vec::new();
        // `None` until the placement's tag.
        let mut tail: Option<Vec<usize>> = None;
        let mut node = automaton.edges[edge].target;
        // A chain longer than the nodes would be a cycle.
        for _ in 0..automaton.nodes.len() {
            let next = self.single_chain_edge(node)?;
            let op = &plan.ops[next];
            if self.edge_fallible_in_moves(next) {
                return None;
            }
            match (&mut tail, op) {
                (_, op) if completes(op) => {
                    let mut tail = tail?;
                    tail.push(next);
                    return Some((guards, tail));
                }
                (None, PlanOp::Compare { transfer: PlanTransfer::Slot, .. }) => guards.push(next),
                (None, PlanOp::TagExpr(PlanOperand::Place(place)))
                    if place.in_state && place.steps.is_empty() && place.base == slot =>
                {
                    tail = Some(Vec::new());
                }
                (
                    Some(tail),
                    PlanOp::Skip
                    | PlanOp::Tag(_)
                    | PlanOp::TagExpr(_)
                    | PlanOp::AssignAny { .. }
                    | PlanOp::Assign { transfer: PlanTransfer::Slot, .. },
                ) => tail.push(next),
                _ => return None,
            }
            node = automaton.edges[next].target;
        }
        None
    }

    /// The picked move of a counted start built from its `tail` (see the module doc): the tail
    /// run once with `slot` holding `member`, each choice's slot its variable `choice<j>`, each
    /// one-slot write a `let` of its value (the completion's `x`, a write through computed keys
    /// `written`), and the delta word of completion site `site` from them. `None` where a value
    /// would read something the tail wrote through a computed key, where the tail writes its
    /// computed write's keys or variable after it, or where the word's computed write is not the
    /// tail's.
    fn counted_build(&mut self, slot: u32, tail: &[usize], site: usize) -> Option<CountedBuild> {
        self.bound = vec![(slot, "member".to_string())];
        let build = self.counted_build_bound(slot, tail, site);
        self.bound.clear();
        build
    }

    /// [`Generator::counted_build`] with the member bound.
    fn counted_build_bound(&mut self, slot: u32, tail: &[usize], site: usize) -> Option<CountedBuild> {
        let (plan, sym) = (self.plan, self.sym);
        let mut lets = String::new();
        let mut choices = Vec::new();
        // The fixed slots the tail wrote so far (each bound to its value's variable).
        let mut written = vec![slot];
        // The tail's write through computed keys: its place, its variable's slots and the
        // scalar slots its keys read.
        let mut computed: Option<(&PlanPlace, (u32, u32), Vec<u32>)> = None;
        // A fixed write after the computed one may touch neither its variable nor its keys.
        let keeps_computed = |computed: &Option<(&PlanPlace, (u32, u32), Vec<u32>)>, target: u32| match computed {
            Some((_, (start, end), keys)) => !(*start..*end).contains(&target) && !keys.contains(&target),
            None => true,
        };
        for (at, &edge) in tail.iter().enumerate() {
            let last = at + 1 == tail.len();
            match &plan.ops[edge] {
                PlanOp::Skip | PlanOp::Tag(_) | PlanOp::TagExpr(_) => {}
                PlanOp::AssignAny { lhs, members, sets_player: false } if !last => {
                    let target = graph::fixed_slot(lhs)?;
                    if !keeps_computed(&computed, target) || members.is_empty() {
                        return None;
                    }
                    let name = format!("choice{}", choices.len());
                    let table = self.table("MEMBERS", sym, members.iter().map(|&m| m as u64).collect());
                    choices.push((table, members.len(), name.clone()));
                    written.push(target);
                    self.bound.push((target, name));
                }
                PlanOp::Assign { lhs, rhs, transfer: PlanTransfer::Slot, .. } => {
                    let stale = computed.as_ref().map(|(_, range, _)| *range);
                    if !self.reads_fresh(rhs, &written, stale) {
                        return None;
                    }
                    match graph::fixed_slot(lhs) {
                        Some(target) => {
                            if !keeps_computed(&computed, target) {
                                return None;
                            }
                            let value = self.value(rhs);
                            let name = if last { "x".to_string() } else { format!("w{at}") };
                            writeln!(lets, "let {name}: {sym} = {value};").expect("writing to a String");
                            written.push(target);
                            self.bound.push((target, name));
                        }
                        None if !last && computed.is_none() && lhs.in_state => {
                            let (start, end) = graph::written_range(plan, lhs);
                            let mut keys = Vec::new();
                            let keyed =
                                lhs.steps.iter().try_for_each(|step| super::deltas::key_reads(&step.key, &mut keys));
                            if end == u32::MAX
                                || keyed.is_none()
                                || written.iter().any(|s| (start..end).contains(s))
                                || !lhs.steps.iter().all(|step| self.reads_fresh(&step.key, &written, None))
                            {
                                return None;
                            }
                            let value = self.value(rhs);
                            writeln!(lets, "let written: {sym} = {value};").expect("writing to a String");
                            computed = Some((lhs, (start, end), keys));
                        }
                        None => return None,
                    }
                }
                _ => return None,
            }
        }
        let bits = slot_bits(sym);
        let mut word = format!("{site}u64");
        let mut values = Vec::new();
        for &written_slot in &self.deltas.sites[site].slots {
            let value = match self.bound_value(written_slot) {
                Some(value) => value.to_string(),
                // Not written on the tail: the start state's value, unless the computed write
                // may have changed it.
                None if keeps_computed(&computed, written_slot) => format!("v[{written_slot}]"),
                None => return None,
            };
            values.push(value);
        }
        match (self.deltas.sites[site].computed.as_slice(), &computed) {
            ([], None) => {}
            ([place], Some((made, _, _))) if self.deltas.places[*place] == **made => values.push("written".to_string()),
            _ => return None,
        }
        for (i, value) in values.iter().enumerate() {
            write!(word, " | ({value} as u64) << {}", 16 + bits * i as u32).expect("writing to a String");
        }
        Some(CountedBuild { lets, word, choices })
    }

    /// Whether `operand`, read after the tail wrote the fixed slots `written` (each read as its
    /// binding) and, through computed keys, somewhere in `stale` (a variable's slots), reads
    /// nothing the tail changed from the values: every map entry it reads lies in a variable
    /// the tail did not write.
    fn reads_fresh(&self, operand: &PlanOperand, written: &[u32], stale: Option<(u32, u32)>) -> bool {
        let PlanOperand::Place(place) = operand else { return true };
        if !place.steps.iter().all(|step| self.reads_fresh(&step.key, written, stale)) {
            return false;
        }
        if !place.in_state {
            return true;
        }
        let overlaps = |start: u32, end: u32| stale.is_some_and(|(s, e)| s < end && start < e);
        if place.steps.is_empty() {
            return written.contains(&place.base) || !overlaps(place.base, place.base + 1);
        }
        let (start, end) = graph::written_range(self.plan, place);
        end != u32::MAX && !written.iter().any(|s| (start..end).contains(s)) && !overlaps(start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::super::generate;
    use regula_runtime::automaton::builder::AutomatonBuilder;
    use regula_runtime::automaton::Automaton;

    /// A one-player placement game over `cells` cells: `at = Cell(*)` into `picked`, `edges`
    /// from `picked` to `tagged`, the turn to the keeper, who places a stone and hands the turn
    /// back. The automaton and its module.
    fn placement_automaton(cells: usize, edges: &[(&str, &str, &str)]) -> (Automaton, String) {
        let names: Vec<String> = (0..cells).map(|i| format!("c{i}")).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Stone", "{empty, stone}");
        builder.typedef("Cell", &format!("{{{}}}", names.join(", "))).typedef("Board", "Cell -> Stone");
        builder.variable("board", "Board", "{:empty}").variable("at", "Cell", "c0").variable("other", "Cell", "c0");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        for (from, to, label) in edges {
            builder.edge(from, to, label);
        }
        builder.edge("tagged", "placed", "player = keeper");
        builder.edge("placed", "stoned", "board[at] = stone");
        builder.edge("stoned", "choose", "player = x");
        let automaton = builder.build().expect("the test automaton builds");
        let module = generate(&automaton, "test").expect("generates");
        (automaton, module)
    }

    fn placement_game(cells: usize, edges: &[(&str, &str, &str)]) -> String {
        placement_automaton(cells, edges).1
    }

    /// The counted function of node `choose` in `module`, from its doc line to its end.
    fn counted_function(module: &str) -> Option<&str> {
        let start = module.find("/// Node `choose`'s moves counted")?;
        let end = start + module[start..].find("\n}\n\n")? + 3;
        Some(&module[start..end])
    }

    #[test]
    fn a_placement_start_over_byte_tested_cells_counts_its_moves() {
        let (automaton, module) =
            placement_automaton(20, &[("picked", "empty", "board[at] == empty"), ("empty", "tagged", "$$ at")]);
        let counted = counted_function(&module).unwrap_or_else(|| panic!("a counted start: {module}"));
        let id = |name: &str| automaton.symbol_id(name).expect("a symbol");
        let node = automaton.nodes.iter().position(|n| n.name == "choose").expect("the start");
        let table = counted.split("let member: u8 = ").nth(1).and_then(|rest| rest.split('[').next()).expect("a table");
        let cells: Vec<String> = (0..20).map(|i| id(&format!("c{i}")).to_string()).collect();
        assert!(module.contains(&format!("static {table}: [u8; 20] = [{}];", cells.join(", "))), "{module}");
        // The board's 20 cells are slots 0..=19: three words of eight cells, the last one's
        // four cells only. An entry only ever holds `empty` or `stone` (its value set), so
        // `== empty` is one range: below `stone` (`empty` is the lower symbol). The delta word is
        // site 0 with `at` (the member) and `player` (the keeper).
        assert!(id("empty") < id("stone"));
        let expected = format!(
            "/// Node `choose`'s moves counted (spec/codegen.md, \"Counted placements\").
#[inline(always)]
fn c{node}<P: FnOnce(usize) -> Option<usize>>(v: &Values, pick: P) -> (usize, Option<u64>) {{
let mut masks = [0u64; 3];
for chunk in 0..2 {{
masks[chunk] = {{ let word = slot_word(v, 0 + 8 * chunk); byte_below_mask(word, {stone}) }};
}}
masks[2] = {{ let word = regula_runtime::compiled::counted::first_slots_word::<4>(v, 0 + 8 * 2); byte_below_mask(word, {stone}) }};
masks[2] &= 0xffffffff;
let count = marked_total(&masks);
let Some(k) = pick(count) else {{ return (count, None) }};
let member: u8 = {table}[select_marked(&masks, k)];
let x: u8 = {keeper};
(count, Some(0u64 | (member as u64) << 16 | (x as u64) << 24))
}}
",
            stone = id("stone"),
            keeper = automaton.keeper,
        );
        assert_eq!(counted, expected, "{module}");
        assert!(module.contains(&format!("            {node} => Some(c{node}(values, pick)),\n            _ => None,")));
        assert!(module.contains("use regula_runtime::compiled::counted::{marked_total, select_marked};"));
    }

    #[test]
    fn a_start_is_not_counted_where_its_listing_is_not_one_byte_tested_placement() {
        let guard = [("picked", "empty", "board[at] == empty"), ("empty", "tagged", "$$ at")];
        // 16 cells: the loop is unrolled, its listing cheap already.
        let short = placement_game(16, &guard);
        assert!(!short.contains("fn pick_counted"), "{short}");
        // A guard that reads no map entry keyed by the cell: no byte test.
        let unkeyed = placement_game(20, &[("picked", "other", "at != other"), ("other", "tagged", "$$ at")]);
        assert!(unkeyed.contains("lists_single_tags") && !unkeyed.contains("fn pick_counted"), "{unkeyed}");
        // One byte-tested guard and one that is not: the count would need the second per cell.
        let mixed = placement_game(
            20,
            &[
                ("picked", "empty", "board[at] == empty"),
                ("empty", "other", "at != other"),
                ("other", "tagged", "$$ at"),
            ],
        );
        assert!(!mixed.contains("fn pick_counted"), "{mixed}");
        // A second edge at the start: the listing is more than the placement.
        let mut second = guard.to_vec();
        second.push(("choose", "tagged", "$$ other"));
        let second = placement_game(20, &second);
        assert!(!second.contains("fn pick_counted"), "{second}");
        // A write between the loop and the tag: no placement.
        let written = placement_game(
            20,
            &[
                ("picked", "empty", "board[at] == empty"),
                ("empty", "written", "other = at"),
                ("written", "tagged", "$$ at"),
            ],
        );
        assert!(!written.contains("fn pick_counted"), "{written}");
    }

    /// A placement over 20 cells followed by `tail` from `tagged0` (after `$$ at`) to `tagged`,
    /// the turn then to the keeper, who hands it back. Besides the placement's `board` and `at`
    /// the game has `dir` (over `n, e, s`), `spin` (over `cw, ccw`), `mark` (a stone) and `last`
    /// (a direction). The automaton and its module.
    fn product_automaton(tail: &[(&str, &str, &str)]) -> (Automaton, String) {
        let names: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Stone", "{empty, stone}");
        builder.typedef("Cell", &format!("{{{}}}", names.join(", "))).typedef("Board", "Cell -> Stone");
        builder.typedef("Dir", "{n, e, s}").typedef("Spin", "{cw, ccw}");
        builder.variable("board", "Board", "{:empty}").variable("at", "Cell", "c0");
        builder.variable("dir", "Dir", "n").variable("spin", "Spin", "cw");
        builder.variable("mark", "Stone", "empty").variable("last", "Dir", "n");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "at = Cell(*)");
        builder.edge("picked", "empty", "board[at] == empty");
        builder.edge("empty", "tagged0", "$$ at");
        for (from, to, label) in tail {
            builder.edge(from, to, label);
        }
        builder.edge("tagged", "placed", "player = keeper");
        builder.edge("placed", "choose", "player = x");
        let automaton = builder.build().expect("the test automaton builds");
        let module = generate(&automaton, "test").expect("generates");
        (automaton, module)
    }

    /// Pentago's tail: the stone placed, then a direction and a spin chosen and tagged.
    const PENTAGO_TAIL: [(&str, &str, &str); 5] = [
        ("tagged0", "marked", "board[at] = stone"),
        ("marked", "turned", "dir = Dir(*)"),
        ("turned", "tagged1", "$$ dir"),
        ("tagged1", "spun", "spin = Spin(*)"),
        ("spun", "tagged", "$$ spin"),
    ];

    #[test]
    fn a_placement_followed_by_fixed_choices_counts_their_product() {
        let mut tail = PENTAGO_TAIL.to_vec();
        // A write reading the first choice: the word takes it as the choice.
        tail[4] = ("spun", "kept", "last = dir");
        tail.push(("kept", "tagged", "$$ spin"));
        let (automaton, module) = product_automaton(&tail);
        let counted = counted_function(&module).unwrap_or_else(|| panic!("a counted product: {module}"));
        let id = |name: &str| automaton.symbol_id(name).expect("a symbol");
        let node = automaton.nodes.iter().position(|n| n.name == "choose").expect("the start");
        let table_of = |prefix: &str| -> String {
            counted.split(prefix).nth(1).and_then(|rest| rest.split('[').next()).expect("a table").to_string()
        };
        let (cells, dirs, spins) =
            (table_of("let member: u8 = "), table_of("let choice0: u8 = "), table_of("let choice1: u8 = "));
        let symbols = |names: &[&str]| names.iter().map(|name| id(name).to_string()).collect::<Vec<_>>().join(", ");
        assert!(module.contains(&format!("static {dirs}: [u8; 3] = [{}];", symbols(&["n", "e", "s"]))), "{module}");
        assert!(module.contains(&format!("static {spins}: [u8; 2] = [{}];", symbols(&["cw", "ccw"]))), "{module}");
        assert!(module.contains(&format!("static {cells}: [u8; 20] = ")), "{module}");
        // Six moves per empty cell, the direction outermost: move `k` is the `k / 6`-th empty
        // cell, direction `k / 2 % 3`, spin `k % 2`. The word (site 0) holds, in slot order,
        // `at`, `dir`, `spin`, `last` and `player` as the tail left them, then `board[at]`, the
        // tail's write through a computed key, as `stone`.
        let expected = format!(
            "/// Node `choose`'s moves counted (spec/codegen.md, \"Counted placements\").
#[inline(always)]
fn c{node}<P: FnOnce(usize) -> Option<usize>>(v: &Values, pick: P) -> (usize, Option<u64>) {{
let mut masks = [0u64; 3];
for chunk in 0..2 {{
masks[chunk] = {{ let word = slot_word(v, 0 + 8 * chunk); byte_below_mask(word, {stone}) }};
}}
masks[2] = {{ let word = regula_runtime::compiled::counted::first_slots_word::<4>(v, 0 + 8 * 2); byte_below_mask(word, {stone}) }};
masks[2] &= 0xffffffff;
let count = marked_total(&masks) * 6;
let Some(k) = pick(count) else {{ return (count, None) }};
let member: u8 = {cells}[select_marked(&masks, k / 6)];
let choice0: u8 = {dirs}[k / 2 % 3];
let choice1: u8 = {spins}[k % 2];
let written: u8 = {stone};
let w4: u8 = choice0;
let x: u8 = {keeper};
(count, Some(0u64 | (member as u64) << 16 | (choice0 as u64) << 24 | (choice1 as u64) << 32 | (w4 as u64) << 40 | (x as u64) << 48 | (written as u64) << 56))
}}
",
            stone = id("stone"),
            keeper = automaton.keeper,
        );
        assert_eq!(counted, expected, "{module}");
    }

    #[test]
    fn a_tail_that_can_fail_or_reads_what_it_wrote_is_not_counted() {
        // The tail as pentago's: counted.
        let (_, plain) = product_automaton(&PENTAGO_TAIL);
        assert!(plain.contains("fn pick_counted"), "{plain}");
        // A check after the placement's tag: the count per cell could vary.
        let mut checked = PENTAGO_TAIL.to_vec();
        checked[2] = ("turned", "checked", "dir != n");
        checked.push(("checked", "tagged1", "$$ dir"));
        let (_, checked) = product_automaton(&checked);
        assert!(!checked.contains("fn pick_counted"), "{checked}");
        // A write reading the board the tail wrote through a computed key: the build would read
        // the start state's entry.
        let mut stale = PENTAGO_TAIL.to_vec();
        stale[4] = ("spun", "read", "mark = board[at]");
        stale.push(("read", "tagged", "$$ spin"));
        let (_, stale) = product_automaton(&stale);
        assert!(!stale.contains("fn pick_counted"), "{stale}");
        // The computed write's key written after it: the word no longer names its slot.
        let mut moved = PENTAGO_TAIL.to_vec();
        moved[4] = ("spun", "moved", "at = c0");
        moved.push(("moved", "tagged", "$$ spin"));
        let (_, moved) = product_automaton(&moved);
        assert!(!moved.contains("fn pick_counted"), "{moved}");
        // A branch in the tail (two ways to the tag): not one chain.
        let mut branched = PENTAGO_TAIL.to_vec();
        branched.push(("tagged1", "spun", "spin = cw"));
        let (_, branched) = product_automaton(&branched);
        assert!(!branched.contains("fn pick_counted"), "{branched}");
    }
}
