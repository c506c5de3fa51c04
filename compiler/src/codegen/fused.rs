//! Shared scans: a listing chosen by a check that scans the members the other listing scans
//! runs both in one scan on a delta sink (spec/codegen.md, "Shared scans").
//!
//! The shape: a move-search node whose two walked edges are `? from -> to` (into listing `A`)
//! and `! from -> to` (into listing `B`), where the check's start `from` has one edge, a member
//! loop `x = T(*)`, and `B`'s node has one edge, a member loop `y = T(*)` over the same members,
//! both with the same byte-scan filter (the same mask text: the same members pass). Draughts'
//! turn is one: "can some piece of mine capture?" (`anyCapture`: the own pieces, then
//! `jumpFromAt`), else list the steps of the own pieces. Plain, a ply without a capture scans the
//! own pieces twice: once for the check (which fails, so it visits every piece) and once for the
//! listing.
//!
//! On a sink ([`MoveSink::rewind_mark`] is `Some` there) the node runs `s<N>` instead: one scan
//! whose body per member runs the check's body for `x = member` (returning `true` as soon as the
//! check holds) and then `B`'s body for `y = member`, pushing `B`'s moves. When the check holds,
//! the node rewinds the sink to where it stood and lists `A`, else `B`'s moves are listed. Exact:
//! - the check sees the state the node was entered with: each body restores what it writes, and
//!   both loop variables are restored after each member's body, so the check visits the same
//!   members in the same order on the same values as the plain check, and holds exactly when it;
//! - `B`'s body sees the same state as in its plain loop (the check's body restored everything),
//!   its members in the same order, so it pushes the same moves in the same order; a sink search
//!   cannot fail, and a push is all it does to the sink, so rewinding undoes it;
//! - a sink never replays a move (`replayed_next_tag` is `None`), so `B`'s loop covers all
//!   members, as its plain range does there.
//!
//! Cost: where the check fails (most plies), one scan instead of two; where it holds, `B`'s
//! bodies for the members before the first one the check accepts are wasted.
//!
//! Not taken: in functions specialised for known values, where either loop is unrolled (at most
//! [`UNROLL_MEMBERS`] members), has no byte scan, or their masks differ, where the check is not
//! pure or keeps register slots, where either loop's node visits, opens a scope or walks a
//! ring, or where the check is a shift check (shift_checks.rs: all members at once, cheaper
//! than its share of the scan; draughts' capture check since session 28).

use super::{graph, Generator, Mode, PlanOp, UNROLL_MEMBERS};
use std::fmt::Write;

/// The edges of a shared scan at a node (see the module doc).
struct SharedScan {
    /// `? from -> to`: into the listing taken when the check holds.
    found: usize,
    /// The check's target (its functions are `r<N>_<to>`).
    to: u32,
    /// The check's member loop (its start's one edge) and its loop slot.
    check_loop: usize,
    check_slot: u32,
    /// The other listing's member loop (its node's one edge) and its loop slot.
    listing_loop: usize,
    listing_slot: u32,
}

impl Generator<'_> {
    /// The shared scan at move-search node `node`, if it has the shape (module doc); its
    /// members are the loops' common members.
    fn shared_scan_shape(&mut self, node: u32) -> Option<(SharedScan, Vec<u32>)> {
        if !self.known.is_empty() || !self.sink_nodes[node as usize] || !self.plain_node(Mode::Moves, node) {
            return None;
        }
        let walked = self.walked_edges(Mode::Moves, node);
        let [first, second] = walked.as_slice() else { return None };
        let check = |edge: usize| match self.plan.ops[edge] {
            PlanOp::Reach { from, to, negated } => Some((from, to, negated)),
            _ => None,
        };
        let ((from, to, first_negated), (second_from, second_to, second_negated)) = (check(*first)?, check(*second)?);
        if (from, to) != (second_from, second_to) || first_negated == second_negated {
            return None;
        }
        let (found, other) = if first_negated { (*second, *first) } else { (*first, *second) };
        let reach = &self.reach[&to];
        if !reach.pure
            || self.registers.get(&to).is_some_and(|slots| !slots.is_empty())
            || self.offset_registers.contains_key(&to)
        {
            return None;
        }
        // A check emitted as a shift check tests every member at once: cheaper alone.
        if self.shift_check_function(from, to, "fn probe()").is_some() {
            return None;
        }
        let check_mode = Mode::Reach { to, pure: true };
        let (check_loop, check_slot, check_members) = self.member_loop_of(check_mode, from)?;
        let listing = self.automaton.edges[other].target;
        let (listing_loop, listing_slot, listing_members) = self.member_loop_of(Mode::Moves, listing)?;
        if self.automaton.edges[check_loop].target == to
            || super::completes(&self.plan.ops[listing_loop])
            || check_members != listing_members
            || check_members.len() <= UNROLL_MEMBERS
        {
            return None;
        }
        let scan = SharedScan { found, to, check_loop, check_slot, listing_loop, listing_slot };
        Some((scan, check_members))
    }

    /// Whether `node`'s function in `mode` is plain blocks: it records no visit, counts no step,
    /// opens no scope and walks no ring.
    fn plain_node(&mut self, mode: Mode, node: u32) -> bool {
        let index = node as usize;
        let quiet = match mode {
            Mode::Moves => !self.analysis.visit_in_moves[index] && !self.analysis.opens_scope[index],
            Mode::Apply => false,
            Mode::Reach { to, .. } => !self.reach[&to].visits[index] && !self.reach[&to].counted_steps[index],
        };
        quiet && self.ring(mode, node).is_none()
    }

    /// `node`'s one walked edge in `mode` when it is a member loop `x = T(*)` into a fixed slot at
    /// a [plain](Generator::plain_node) node: the edge, the slot and the members.
    fn member_loop_of(&mut self, mode: Mode, node: u32) -> Option<(usize, u32, Vec<u32>)> {
        if !self.plain_node(mode, node) {
            return None;
        }
        let walked = self.walked_edges(mode, node);
        let [edge] = walked.as_slice() else { return None };
        match &self.plan.ops[*edge] {
            PlanOp::AssignAny { lhs, members, .. } => Some((*edge, graph::fixed_slot(lhs)?, members.clone())),
            _ => None,
        }
    }

    /// The shared scan of `node` (module doc) as `(prelude, function)`: the prelude starts the
    /// node's function (the sink's path), the function `s<N>` is emitted after it. `None` where
    /// the shape does not hold.
    pub(super) fn shared_scan(&mut self, node: u32) -> Option<(String, String)> {
        let (scan, members) = self.shared_scan_shape(node)?;
        let sym = self.sym;
        let count = members.len();
        let table = self.table("MEMBERS", sym, members.iter().map(|&m| m as u64).collect());
        let check_mode = Mode::Reach { to: scan.to, pure: true };
        let check_filter = self.member_filter(check_mode, scan.check_loop, scan.check_slot, &members, &table)?;
        let listing_filter = self.member_filter(Mode::Moves, scan.listing_loop, scan.listing_slot, &members, &table)?;
        let (check_head, tail) = self.byte_scan(&check_filter, count, None)?;
        let (listing_head, _) = self.byte_scan(&listing_filter, count, None)?;
        if check_head != listing_head {
            return None;
        }
        let (x, y) = (scan.check_slot, scan.listing_slot);
        // The check's body returns `true` as soon as the check holds, restoring its loop slot.
        let undo_check = format!("v[{x}] = kept_check;");
        let undo_listing = format!("v[{y}] = kept_listing;");
        let bodies = match (&check_filter.skip, &listing_filter.skip) {
            // Both chains write the same slots with the same values (expressions of the member
            // and of slots neither chain writes, so neither loop slot): written once for both
            // bodies, restored after both.
            (Some(check_skip), Some(listing_skip))
                if !check_skip.writes.is_empty() && check_skip.writes == listing_skip.writes =>
            {
                let (write, restore) = chain_writes(self.sym, &check_skip.writes);
                let check_cont =
                    self.continue_to(check_mode, check_skip.edge, &format!("{restore} {undo_check}"), None);
                let listing_cont = self.continue_to(Mode::Moves, listing_skip.edge, "", None);
                format!(
                    "v[{x}] = {table}[i];\n{write}{check_cont}v[{x}] = kept_check;\nv[{y}] = {table}[i];\n\
                     {listing_cont}{restore}\nv[{y}] = kept_listing;\n"
                )
            }
            (check_skip, listing_skip) => {
                let check_body = match check_skip {
                    Some(skip) => self.filtered_body(check_mode, x, skip, &undo_check),
                    None => self.continue_to(check_mode, scan.check_loop, &undo_check, None),
                };
                let listing_body = match listing_skip {
                    Some(skip) => self.filtered_body(Mode::Moves, y, skip, &undo_listing),
                    None => self.continue_to(Mode::Moves, scan.listing_loop, &undo_listing, None),
                };
                format!(
                    "v[{x}] = {table}[i];\n{check_body}v[{x}] = kept_check;\nv[{y}] = {table}[i];\n\
                     {listing_body}v[{y}] = kept_listing;\n"
                )
            }
        };
        let found = self.continue_to(Mode::Moves, scan.found, "", None);
        let prelude = format!(
            "if let Some(mark) = cx.rewind_mark() {{\nif !s{node}(v, cx) {{ return; }}\ncx.rewind(mark);\n{found}return;\n}}\n"
        );
        let node_name = self.automaton.nodes[node as usize].name.replace('`', "'");
        let mut function = String::new();
        writeln!(
            function,
            "/// Node `{node_name}` on a sink: its check and its other listing in one scan (fused.rs); \
             whether the check holds (the listing is then partial)."
        )
        .expect("writing to a String");
        write!(
            function,
            "#[inline(always)]\nfn s{node}<C: MoveSink<Values>>(v: &mut Values, cx: &mut C) -> bool {{\n\
             debug_assert!(cx.replayed_next_tag().is_none(), \"a sink replays no move\");\n\
             let kept_check = v[{x}];\nlet kept_listing = v[{y}];\n{check_head}{bodies}{tail}false\n}}\n\n"
        )
        .expect("writing to a String");
        Some((prelude, function))
    }
}

/// A member filter's chain writes (see `Generator::filtered_body`, no register slots) as the
/// code writing them (`kept<k>` the old values) and the code restoring them.
fn chain_writes(sym: &str, writes: &[(u32, String)]) -> (String, String) {
    let mut write = String::new();
    let mut restores = Vec::new();
    for (k, (slot, value)) in writes.iter().enumerate() {
        writeln!(write, "let kept{k}: {sym} = v[{slot}]; let new{k}: {sym} = {value}; v[{slot}] = new{k};")
            .expect("writing to a String");
        restores.insert(0, format!("v[{slot}] = kept{k};"));
    }
    (write, restores.join(" "))
}

#[cfg(test)]
mod tests {
    use super::super::generate;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// A one-player game on twenty cells whose turn (`turn`) lists captures when some own stone
    /// (`b1`) has an enemy stone (`b2`) next to it (the check `any -> hit`), else steps of own
    /// stones: the check scans for own stones with the chain of edges `check_chain`, the steps
    /// with `step_chain`.
    fn turn_module(check_chain: &[&str], step_chain: &[&str]) -> String {
        let cells: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
        let next: Vec<String> = (0..19).map(|i| format!("c{i}: c{}", i + 1)).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}");
        builder.typedef("Cell", &format!("{{{}}}", cells.join(", ")));
        builder.typedef("Value", "{b0, b1, b2}").typedef("Board", "Cell -> Value");
        builder.typedef("Next", "Cell -> Cell").constant("next", "Next", &format!("{{{}, :c0}}", next.join(", ")));
        builder.variable("board", "Board", "{c0: b1, c1: b2, c7: b1, :b0}");
        builder.variable("at", "Cell", "c0").variable("from", "Cell", "c0").variable("near", "Cell", "c0");
        builder.variable("piece", "Value", "b0");
        builder.edge("begin", "turn", "player = x");
        builder.edge("turn", "capture", "? any -> hit");
        builder.edge("turn", "step", "! any -> hit");
        builder.edge("any", "anyPicked", "at = Cell(*)");
        chain(&mut builder, "anyPicked", check_chain, "anyOwn");
        // A check nested in the check, so `any`'s slots are no registers (draughts' `jumpFromAt`).
        builder.edge("anyOwn", "hit", "? jump -> jumped");
        builder.edge("jump", "jumpNear", "near = next[at]");
        builder.edge("jumpNear", "jumped", "board[near] == b2");
        builder.edge("capture", "capturePicked", "from = Cell(*)");
        builder.edge("capturePicked", "captureOwn", "board[from] == b1");
        builder.edge("captureOwn", "captureNear", "near = next[from]");
        builder.edge("captureNear", "captureTaken", "board[near] == b2");
        builder.edge("captureTaken", "captureTagged", "$$ from");
        builder.edge("captureTagged", "captureCleared", "board[near] = b0");
        builder.edge("captureCleared", "kept", "player = keeper");
        builder.edge("step", "stepPicked", "from = Cell(*)");
        chain(&mut builder, "stepPicked", step_chain, "stepOwn");
        builder.edge("stepOwn", "stepTagged", "$$ from");
        builder.edge("stepTagged", "stepMoved", "board[from] = b0");
        builder.edge("stepMoved", "kept", "player = keeper");
        builder.edge("kept", "placed", "board[from] = b2");
        builder.edge("placed", "turn", "player = x");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("the test automaton generates")
    }

    /// The edges `labels` in a chain from `from` to `to` (through nodes `from_1`, ...).
    fn chain(builder: &mut AutomatonBuilder, from: &str, labels: &[&str], to: &str) {
        let mut at = from.to_string();
        for (k, label) in labels.iter().enumerate() {
            let next = if k + 1 == labels.len() { to.to_string() } else { format!("{from}_{}", k + 1) };
            builder.edge(&at, &next, label);
            at = next;
        }
    }

    #[test]
    fn a_check_scanning_what_its_fallback_listing_scans_shares_the_scan_on_a_sink() {
        let shared = turn_module(&["board[at] == b1"], &["board[from] == b1"]);
        // On a sink the turn runs the shared scan, and lists the captures again after a rewind
        // when the check holds; on the context it runs the check and the listings as before.
        assert!(
            shared.contains(
                "fn m2<C: MoveSink<Values>>(v: &mut Values, cx: &mut C) {\n\
                 if let Some(mark) = cx.rewind_mark() {\nif !s2(v, cx) { return; }\ncx.rewind(mark);\nm3(v, cx);\nreturn;\n}\n\
                 let mut reach_4_5: Option<bool> = None;\n"
            ),
            "{shared}"
        );
        // One scan of the own stones: per stone the check's body (the nested check, `at` the
        // stone), then the steps' (`from` the stone); both loop slots restored per stone.
        let scan = function_text(&shared, "fn s2<");
        assert_eq!(
            scan,
            "fn s2<C: MoveSink<Values>>(v: &mut Values, cx: &mut C) -> bool {
debug_assert!(cx.replayed_next_tag().is_none(), \"a sink replays no move\");
let kept_check = v[21];
let kept_listing = v[22];
let mut mask: u64 = 0;
for chunk in 0..3 {
mask |= byte_high_bits({ let word = slot_word(v, 0 + 8 * chunk); (byte_at_least_mask(word, 24) & byte_below_mask(word, 25)) }) << (8 * chunk);
}
mask &= (1u64 << 20) - 1;
while mask != 0 {
let i = mask.trailing_zeros() as usize;
mask &= mask - 1;
v[21] = MEMBERS1[i];
if r8_5(v) { v[21] = kept_check; return true; }
v[21] = kept_check;
v[22] = MEMBERS1[i];
m20(v, cx);
v[22] = kept_listing;
}
false
}
",
            "{shared}"
        );
        // The steps scan other stones than the check: two scans, as before.
        let apart = turn_module(&["board[at] == b1"], &["board[from] == b2"]);
        assert!(!apart.contains("rewind") && !apart.contains("fn s2<"), "{apart}");
        // The check scans without a byte test (every cell passes its guard in the initial
        // state, so no selective scan): nothing to share.
        let dense = turn_module(&["board[at] != b2"], &["board[from] == b1"]);
        assert!(!dense.contains("rewind") && !dense.contains("fn s2<"), "{dense}");
    }

    #[test]
    fn chains_writing_the_same_values_write_them_once_for_both_bodies() {
        // Both chains assign `piece` the member's stone before testing it (draughts' `piece =
        // board[origin]`): one write before the check's body, one restore after the steps'.
        let piece = turn_module(&["piece = board[at]", "piece == b1"], &["piece = board[from]", "piece == b1"]);
        let scan = function_text(&piece, "fn s2<");
        let body = scan.split("mask &= mask - 1;\n").nth(1).expect("the scan's body");
        assert_eq!(
            body,
            "v[21] = MEMBERS1[i];
let kept0: u8 = v[24]; let new0: u8 = (v[0 + 0 + i]); v[24] = new0;
if r9_5(v) { v[24] = kept0; v[21] = kept_check; return true; }
v[21] = kept_check;
v[22] = MEMBERS1[i];
m22(v, cx);
v[24] = kept0;
v[22] = kept_listing;
}
false
}
",
            "{piece}"
        );
        // Only the check's chain writes: each body writes what its chain writes.
        let apart = turn_module(&["piece = board[at]", "piece == b1"], &["board[from] == b1"]);
        let scan = function_text(&apart, "fn s2<");
        assert_eq!(scan.matches("let kept0: u8 = v[24];").count(), 1, "{apart}");
        assert!(scan.contains("v[24] = kept0;\nv[21] = kept_check;\nv[22] = MEMBERS1[i];"), "{apart}");
    }

    /// The text of the function whose signature line starts with `signature`, through its
    /// closing line (the first `}` line followed by a blank one).
    fn function_text(module: &str, signature: &str) -> String {
        let start = module.find(&format!("\n{signature}")).unwrap_or_else(|| panic!("{module}")) + 1;
        let end = start + module[start..].find("\n}\n\n").expect("the function ends") + 3;
        module[start..end].to_string()
    }
}
