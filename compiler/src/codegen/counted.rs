//! Counted placements: the starts whose whole listing is one placement loop over byte-tested
//! members, for which the playout counts the moves a word at a time and builds only the picked
//! one (`regula_runtime::compiled::counted`, spec/codegen.md "Counted placements").
//!
//! A start qualifies when it is a unique delta start (not mixed) that records no visit and opens
//! no scope, and its one out-edge is a placement ([`Generator::placement`]: `x = T(*)` over more
//! than `REPLAY_RANGE_MIN_MEMBERS` members, then one-slot guards that cannot fail, `$$ x`, and a
//! completion assigning one fixed slot, `player = keeper`, that has a delta word with no computed
//! write) whose every guard is a byte test ([`ByteTest`]: a function of the member's map entry,
//! the entries in consecutive one-byte slots, compared with a literal) and whose words stay
//! inside the state. Then the search from the start lists, in member order, exactly one move per
//! member whose guards hold (nothing can fail, the path has no other choice and no tag before
//! the loop), each move's delta word made of the member, the completion's value and the values
//! of the site's other slots, which no edge on that path writes. The byte tests are exact for
//! every value the entries can hold (the value sets are sound), so the members the masks mark
//! are those moves, lowest first: the count is the listing's and the `k`-th marked member is the
//! listing's move `k`. Nothing is recognised by name: gomoku's and hex's turns qualify.
//!
//! Cost: per start one walk of the placement's chain and one member filter (the one its loop
//! already made, so no new table). The function is emitted after every search function, so the
//! other functions and their tables keep their numbers.

use super::{graph, slot_bits, ByteTest, Generator, Mode, PlanOp, PlanTransfer, REPLAY_RANGE_MIN_MEMBERS};
use std::fmt::Write;

/// The imports of a module with counted starts (the byte-scan helpers come with `uses_byte_scan`).
pub(super) const COUNTED_IMPORT: &str = "use regula_runtime::compiled::counted::{marked_total, select_marked};\n";

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

    /// `pick_counted` of the game's `impl`, when some start is counted (else the trait's default:
    /// no counted start).
    pub(super) fn counted_dispatch(&self) -> String {
        if self.counted_starts.is_empty() {
            return String::new();
        }
        let arms: String = self
            .counted_starts
            .iter()
            .map(|node| format!("            {node} => Some(c{node}(values, pick)),\n"))
            .collect();
        format!(
            "
    #[inline(always)]
    fn pick_counted<P: FnOnce(usize) -> Option<usize>>(node: u32, values: &Values, pick: P) -> Option<(usize, Option<u64>)> {{
        match node {{
{arms}            _ => None,
        }}
    }}
"
        )
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
        if members.len() <= REPLAY_RANGE_MIN_MEMBERS {
            return None;
        }
        let (guards, tag_edge) = self.placement(edge, slot)?;
        let target = automaton.edges[tag_edge].target as usize;
        let completion = automaton.nodes[target].edges.start as usize;
        let PlanOp::Assign { lhs: assigned, rhs, transfer: PlanTransfer::Slot, .. } = &plan.ops[completion] else {
            return None;
        };
        let assigned = graph::fixed_slot(assigned)?;
        let site = self.deltas.site_of_edge[completion]?;
        if !self.deltas.sites[site].computed.is_empty() || assigned == slot {
            return None;
        }
        let members = members.clone();
        let count = members.len();
        let table = self.table("MEMBERS", self.sym, members.iter().map(|&m| m as u64).collect());
        let filter = self.member_filter(Mode::Moves, edge, slot, &members, &table)?;
        let tests: Vec<ByteTest> = filter.conditions.iter().map(|(_, test)| test.clone()).collect::<Option<_>>()?;
        let words = count.div_ceil(8);
        if tests.len() != guards.len()
            || words > regula_runtime::compiled::counted::MAX_MARKED_WORDS
            || tests.iter().any(|test| test.first_slot as usize + 8 * words > plan.state_len)
        {
            return None;
        }
        self.uses_byte_scan = true;
        // The completion's value, read with the loop variable holding the member.
        self.bound = vec![(slot, "member".to_string())];
        let value = self.value(rhs);
        self.bound.clear();
        let bits = slot_bits(self.sym);
        let mut word = format!("{site}u64");
        for (i, &written) in self.deltas.sites[site].slots.iter().enumerate() {
            let read = match written {
                s if s == slot => "member".to_string(),
                s if s == assigned => "x".to_string(),
                s => format!("v[{s}]"),
            };
            write!(word, " | ({read} as u64) << {}", 16 + bits * i as u32).expect("writing to a String");
        }
        let mask: Vec<String> = tests.iter().map(super::byte_test_mask).collect();
        let tail = count - 8 * (words - 1);
        let tail = if tail == 8 {
            String::new()
        } else {
            format!("masks[{}] &= {:#x};\n", words - 1, (1u64 << (8 * tail)) - 1)
        };
        let sym = self.sym;
        let name = &automaton.nodes[node].name;
        Some(format!(
            "/// Node `{name}`'s moves counted (spec/codegen.md, \"Counted placements\").\n\
             #[inline(always)]\n\
             fn c{node}<P: FnOnce(usize) -> Option<usize>>(v: &Values, pick: P) -> (usize, Option<u64>) {{\n\
             let mut masks = [0u64; {words}];\n\
             for chunk in 0..{words} {{\n\
             masks[chunk] = {mask};\n\
             }}\n\
             {tail}let count = marked_total(&masks);\n\
             let Some(k) = pick(count) else {{ return (count, None) }};\n\
             let member: {sym} = {table}[select_marked(&masks, k)];\n\
             let x: {sym} = {value};\n\
             (count, Some({word}))\n\
             }}\n\n",
            mask = mask.join(" & "),
        ))
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
for chunk in 0..3 {{
masks[chunk] = {{ let word = slot_word(v, 0 + 8 * chunk); byte_below_mask(word, {stone}) }};
}}
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
}
