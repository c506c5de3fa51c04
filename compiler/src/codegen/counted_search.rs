//! Counted searches: the starts whose playout ply counts their moves on a counting sink and
//! builds only the picked one (`regula_runtime::compiled::counted_search`, spec/codegen.md
//! "Counted searches").
//!
//! A start qualifies when its search is unique (`unique_start`), cannot fail (so its functions
//! call only what `MoveSink` offers and can be made generic over it), is no delta start (a delta
//! listing copies no successor already), and every node it reaches has a fixed tag depth
//! (depths.rs) with every completion at least `D + 1` tags deep, `1 <= D <= MAX_COUNTED_PREFIX`:
//! so at every completion the path holds at least `D` pushed tags, and the moves completed
//! between two pushes that make the path `D` tags long share those `D` tags (the *prefix*).
//! The counting run records the move count at each such push (runtime `CountSink`); the
//! playout draws its pick from the total, finds the prefix whose range holds it, and runs the
//! search once more on a selecting sink that follows only paths with that prefix (every other
//! push fails, as in a replay) and keeps the successor of the wanted completion. Same moves,
//! same order, same draw: the seeded playouts are those of the listing.
//!
//! Taken only where moves are many per prefix: some cycle of the search lies at depth `D` or
//! below (a slide or ray walked after the prefix: amazons' arrow shots, up to ~2,000 moves a
//! ply from ~100 prefixes). Nothing is recognised by name.
//!
//! Cost: one reachability walk and one cycle search per start; every function the start's search
//! reaches becomes generic over the sink (emitted for the context and the two sinks).

use super::{completes, depths::Depth, graph, loops, Generator, Mode};
use regula_runtime::compiled::{PlanOp, PlanTransfer};
use std::fmt::Write;

/// The most prefix tags a counted search keeps (the runtime's `MAX_COUNTED_PREFIX`).
const MAX_COUNTED_PREFIX: u32 = regula_runtime::compiled::counted_search::MAX_COUNTED_PREFIX as u32;

/// The steps a counting run reads ahead per round of a counted ray ([`Generator::counting_ring`]).
const RAY_COUNT_STEPS: usize = 4;

impl Generator<'_> {
    /// Per node, the prefix depth `D` of a counted search from it (0: not counted), see the
    /// module doc.
    pub(super) fn counted_search_depths(&self) -> Vec<u32> {
        (0..self.automaton.nodes.len()).map(|node| self.counted_search_depth(node).unwrap_or(0)).collect()
    }

    fn counted_search_depth(&self, start: usize) -> Option<u32> {
        let (automaton, plan, analysis) = (self.automaton, self.plan, &self.analysis);
        let qualifies = analysis.is_start[start]
            && analysis.in_moves[start]
            && analysis.unique_start[start]
            && !self.fallible_moves[start]
            && !self.deltas.starts[start];
        if !qualifies {
            return None;
        }
        let mut roots = vec![false; automaton.nodes.len()];
        roots[start] = true;
        let region = graph::reachable(&analysis.within_move, &roots);
        let mut prefix: Option<u32> = None;
        for node in (0..automaton.nodes.len()).filter(|&node| region[node]) {
            let Depth::Fixed(depth) = analysis.tag_depths[node] else { return None };
            if analysis.visit_in_moves[node] || analysis.opens_scope[node] {
                return None;
            }
            for edge in automaton.nodes[node].edges.clone() {
                if completes(&plan.ops[edge as usize]) {
                    // A fused tag completion holds `depth - 1` pushed tags, a plain one `depth`.
                    let held = depth.checked_sub(1)?;
                    prefix = Some(prefix.map_or(held, |p| p.min(held)));
                }
            }
        }
        let prefix = prefix?;
        if prefix == 0 || prefix > MAX_COUNTED_PREFIX {
            return None;
        }
        // Many moves per prefix: a cycle among the nodes at depth `prefix` or deeper.
        let deep: Vec<Vec<u32>> = (0..automaton.nodes.len())
            .map(|node| {
                let at_depth = |n: usize| region[n] && matches!(analysis.tag_depths[n], Depth::Fixed(d) if d >= prefix);
                if at_depth(node) {
                    analysis.within_move[node].iter().copied().filter(|&next| at_depth(next as usize)).collect()
                } else {
                    Vec::new()
                }
            })
            .collect();
        graph::cyclic_components(&deep).iter().any(Option::is_some).then_some(prefix)
    }

    /// A counting run's code for `ring` (walked as a loop, [`loops`]), where every round of the
    /// ring completes one move: the ring writes one slot `x` with its first edge (`x = step(x)`),
    /// tests a guard on the new value with its second, and its third node's one exit is a skip
    /// into a node whose one edge is a tag fused with a completion that cannot fail (amazons'
    /// arrow rays: `shot = step[d][shot]`, `board[shot] == empty`, `$$ shot; player = keeper`).
    /// The walk completes one move per value passing the guard until the first failing one, so
    /// on a counting sink (`MoveSink::counts_only`) the code steps [`RAY_COUNT_STEPS`] values
    /// ahead per round with no branch between them, adds how many lead the run of passing
    /// values (`MoveSink::count_moves`), and goes on only when all passed: a ray's length is one
    /// unpredictable branch per four squares instead of one per square, and no completion.
    /// Exact: the guard reads nothing the exit changes (every exit leaves the state as it found
    /// it), the values read past the end are the step's images of values the walk reaches, which
    /// its tables and offsets cover (the value sets are closed under the ring's step), and the
    /// exit's tag lies at or below every counted prefix depth, so the plain walk would record no
    /// checkpoint there. `None` where the ring has another shape (the plain loop alone).
    pub(super) fn counting_ring(&mut self, mode: Mode, ring: &loops::Ring) -> Option<String> {
        if mode != Mode::Moves || ring.rotation.len() != 3 || ring.written.len() != 1 {
            return None;
        }
        let (step_node, step_edge) = ring.rotation[0];
        let (guard_node, guard_edge) = ring.rotation[1];
        let (exit_node, back_edge) = ring.rotation[2];
        if !self.counted_search_nodes()[step_node as usize] {
            return None;
        }
        let x = ring.written[0];
        let PlanOp::Assign { lhs, rhs: step, .. } = self.plan.ops[step_edge].clone() else { return None };
        let PlanOp::Compare { lhs: a, rhs: b, transfer: PlanTransfer::Slot, equal } = self.plan.ops[guard_edge].clone()
        else {
            return None;
        };
        let single = |generator: &Self, node: u32, edge: usize| generator.walked_edges(mode, node) == [edge];
        if graph::fixed_slot(&lhs) != Some(x)
            || !matches!(self.plan.ops[back_edge], PlanOp::Skip)
            || !single(self, step_node, step_edge)
            || !single(self, guard_node, guard_edge)
        {
            return None;
        }
        let exits: Vec<usize> = self.walked_edges(mode, exit_node).into_iter().filter(|&e| e != back_edge).collect();
        let [exit] = exits[..] else { return None };
        if !matches!(self.plan.ops[exit], PlanOp::Skip) {
            return None;
        }
        let tagged = self.automaton.edges[exit].target;
        let [tag_edge] = self.walked_edges(mode, tagged)[..] else { return None };
        self.fusable_tag_completion(mode, tag_edge)?;
        let deepest = self.counted_search_depths.iter().copied().max().unwrap_or(0);
        if !matches!(self.analysis.tag_depths[tagged as usize], Depth::Fixed(depth) if depth >= deepest) {
            return None;
        }
        let sym = self.sym;
        let op = if equal { "==" } else { "!=" };
        let mut code = format!(
            "let mut at: {sym} = v[{x}];
loop {{
"
        );
        let mut previous = "at".to_string();
        let mut counts = Vec::new();
        for i in 1..=RAY_COUNT_STEPS {
            self.bound = vec![(x, previous.clone())];
            let next = self.value(&step);
            self.bound = vec![(x, format!("s{i}"))];
            let (left, right) = (self.value(&a), self.value(&b));
            self.bound.clear();
            let before = if i == 1 { String::new() } else { format!("p{} & ", i - 1) };
            writeln!(
                code,
                "let s{i}: {sym} = {next};
let p{i} = {before}({left} {op} {right});"
            )
            .expect("writing to a String");
            counts.push(format!("p{i} as usize"));
            previous = format!("s{i}");
        }
        let last = RAY_COUNT_STEPS;
        writeln!(
            code,
            "cx.count_moves({});
if !p{last} {{ break; }}
at = s{last};
}}",
            counts.join(" + ")
        )
        .expect("writing to a String");
        // Where the rays fit a window, one mask and a bit scan per ray (ray_counts.rs).
        Some(self.ray_count(x, &step, (&a, &b, equal), &code).unwrap_or(code))
    }

    /// The nodes the counted searches reach: their functions are generic over the sink.
    pub(super) fn counted_search_nodes(&self) -> Vec<bool> {
        let roots: Vec<bool> = self.counted_search_depths.iter().map(|&depth| depth > 0).collect();
        graph::reachable(&self.analysis.within_move, &roots)
    }

    /// `counted_search_depth` and `counted_search` of the game's `impl`, when some start is
    /// counted (else the trait's defaults: none).
    pub(super) fn counted_search_dispatch(&self) -> String {
        let starts: Vec<(usize, u32)> =
            self.counted_search_depths.iter().enumerate().filter(|(_, &d)| d > 0).map(|(n, &d)| (n, d)).collect();
        if starts.is_empty() {
            return String::new();
        }
        let depths: String = starts.iter().map(|(node, depth)| format!("            {node} => {depth},\n")).collect();
        let searches: String =
            starts.iter().map(|(node, _)| format!("            {node} => m{node}(v, sink),\n")).collect();
        format!(
            "
    #[inline(always)]
    fn counted_search_depth(node: u32) -> usize {{
        match node {{
{depths}            _ => 0,
        }}
    }}

    #[inline(always)]
    fn counted_search<C: MoveSink<Values>>(node: u32, v: &mut Values, sink: &mut C) {{
        match node {{
{searches}            _ => {{}}
        }}
    }}
"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::generate;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// A one-player amazons on a line of `cells` cells: pick a piece's cell `from` (tagged when
    /// `tag_from`), slide `to` along `next` over empty cells, tag the landing (when `tag_to`),
    /// then shoot `shot`
    /// along `next` from there, tagging each free cell, and hand the turn to the keeper, who
    /// walls the shot's cell.
    fn line_amazons(cells: usize, tag_from: bool, tag_to: bool) -> String {
        let names: Vec<String> = (0..cells).map(|i| format!("c{i}")).collect();
        let next: Vec<String> = (0..cells.saturating_sub(1)).map(|i| format!("c{i}: c{}", i + 1)).collect();
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Stone", "{empty, stone, wall}");
        builder.typedef("Sq", &format!("{{{}, off}}", names.join(", ")));
        builder.typedef("Board", "Sq -> Stone").typedef("Next", "Sq -> Sq");
        builder.constant("next", "Next", &format!("{{{}, :off}}", next.join(", ")));
        builder.variable("board", "Board", "{off: wall, c0: stone, c3: stone, :empty}");
        builder.variable("from", "Sq", "c0").variable("to", "Sq", "c0").variable("shot", "Sq", "c0");
        builder.edge("begin", "choose", "player = x");
        builder.edge("choose", "picked", "from = Sq(*)");
        builder.edge("picked", "own", "board[from] == stone");
        builder.edge("own", "tagged_from", if tag_from { "$$ from" } else { "" });
        builder.edge("tagged_from", "lifted", "board[from] = empty");
        builder.edge("lifted", "slide", "to = from");
        builder.edge("slide", "stepped", "to = next[to]");
        builder.edge("stepped", "landed", "board[to] == empty");
        builder.edge("landed", "land", "");
        builder.edge("landed", "slide", "");
        builder.edge("land", "tagged_to", if tag_to { "$$ to" } else { "" });
        builder.edge("tagged_to", "placed", "board[to] = stone");
        builder.edge("placed", "shoot", "shot = to");
        builder.edge("shoot", "flown", "shot = next[shot]");
        builder.edge("flown", "free", "board[shot] == empty");
        builder.edge("free", "hit", "");
        builder.edge("free", "shoot", "");
        builder.edge("hit", "tagged", "$$ shot");
        builder.edge("tagged", "walled", "player = keeper");
        builder.edge("walled", "done", "board[shot] = wall");
        builder.edge("done", "choose", "player = x");
        let automaton = builder.build().expect("the test automaton builds");
        generate(&automaton, "test").expect("generates")
    }

    #[test]
    fn a_unique_search_with_a_cycle_below_its_prefix_is_counted() {
        let module = line_amazons(20, true, true);
        // Node 2 (`choose`): prefixes of two tags (piece and landing), the shots counted.
        assert!(
            module.contains("fn counted_search_depth(node: u32) -> usize {\n        match node {\n            2 => 2,"),
            "{module}"
        );
        assert!(module.contains("            2 => m2(v, sink),"), "{module}");
        assert!(module.contains("fn m2<C: MoveSink<Values>>(v: &mut Values, cx: &mut C)"), "{module}");
        // The shot's ray on a counting sink: four cells a round, no branch between them.
        let counting = module.split("if cx.counts_only() {\n").nth(1).expect("a counted ray");
        let round = counting.split("} else {").next().expect("the counting loop");
        assert!(round.starts_with("let mut at: u8 = v["), "{round}");
        assert!(round.contains("let p4 = p3 & ("), "{round}");
        assert!(
            round.contains(
                "cx.count_moves(p1 as usize + p2 as usize + p3 as usize + p4 as usize);\nif !p4 { break; }\nat = s4;"
            ),
            "{round}"
        );
    }

    #[test]
    fn a_counted_ray_over_a_board_of_64_slots_or_more_is_one_mask_and_a_bit_scan() {
        let module = line_amazons(70, true, true);
        let counting = module.split("if cx.counts_only() {\n").nth(1).expect("a counted ray");
        // The shot's cells rise along the state: the passing cells below the first stop. The
        // off-board end always holds `wall` (never `empty`) and bit 127 is on no ray, so the
        // count is the open scan alone: no end test, no select, no four-cell loop.
        assert!(counting.starts_with("let at = v["), "{counting}");
        assert!(counting.contains("let stops: u128 = !regula_runtime::compiled::ray_counts::equal_bytes_wide(&v[..], "));
        let ray = counting.split("} else {").next().expect("the counting code");
        assert!(ray.contains("cx.count_moves(regula_runtime::compiled::ray_counts::ahead_rising_open(blocked, RAYLEN"));
        assert!(!ray.contains("ENDSLOT") && !ray.contains("let p4 = p3 & ("), "{ray}");
        // Twenty cells make a state shorter than one window: the four-cell loop alone.
        assert!(!line_amazons(20, true, true).contains("ray_counts::"));
    }

    #[test]
    fn a_search_is_not_counted_without_moves_many_per_prefix() {
        // The landing tagged, the piece not: two pieces may reach one landing, so tags repeat
        // (the search is not unique) and the listing de-duplicates.
        let landing = line_amazons(20, false, true);
        assert!(!landing.contains("fn counted_search_depth") && !landing.contains("counts_only"), "{landing}");
        // Neither: a move is its shot's one tag, no prefix to count under.
        let shots = line_amazons(20, false, false);
        assert!(!shots.contains("fn counted_search_depth") && !shots.contains("counts_only"), "{shots}");
    }
}
