//! Walks emitted as loops: a cycle of a search's graph that is one simple ring of nodes, whose
//! edges around the ring only test or write fixed slots, runs as a `loop` in the function of the
//! node it is entered at, instead of one recursive call per step that saves and restores what
//! its edge wrote (chess's and amazons' slides, reversi's flank walks, chess's attack rays).
//!
//! Take a strongly connected component `C` of the graph a search walks (for the move search its
//! non-completing edges, for a reachability check the edges inside its region) in which every
//! node has exactly one walked edge into `C` (its *ring edge*, so `C` is one simple cycle), no
//! node records a visit, counts a step or opens a de-duplication scope, and every ring edge is a
//! skip, a one-slot comparison, a tag the search ignores (reachability checks), or an assignment
//! `x = e` into a fixed slot (no computed key, so it cannot fail). Every other walked edge of a
//! node of `C` is an *exit*. The recursive code entered at node `n0` runs, at `n0`, the exits and
//! the ring edge in declaration order, the ring edge's block calling the function of the next
//! node and undoing its write when that returns. The loop runs the same steps in one frame: per
//! node around the ring from `n0`, the exits (each its usual block, calling out and undoing
//! itself), then the ring edge: a failed guard ends the walk, a write stores its value without
//! saving the old one. The slots the ring writes are saved once on entry and restored when the
//! walk ends or a reachability check returns early (in a pure check, a slot it keeps in a
//! register, graph.rs's `register_slots`, is stepped in a local instead: no save, no store, no
//! restore). Both forms run the same edges on the same
//! states in the same order when every ring edge is its node's last walked edge: after a ring
//! edge's call returns, the recursive form has nothing left to do but undo, all the way up. So
//! the move search (whose order is the order of the moves) and checks that can fail (where the
//! first error wins) take the loop only then. A pure check (`fn(&mut Values) -> bool`: no error,
//! no visit) only answers whether some path reaches its target, and every exit's block leaves
//! the state as it found it, so the order of its steps cannot change the answer: it takes the
//! loop with the exits of each node first, whatever their order.
//!
//! Termination does not change either: a ring without visits is one the graph analysis proved
//! to progress (progress.rs), and the loop takes as many rounds as the recursion took calls.
//!
//! Cost: one pass over the edges of the search and one strongly connected components pass.

use super::graph::{cyclic_components, fixed_slot};
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanTransfer};

/// The ring a node's function walks as a loop: the nodes from it around the ring, each with its
/// ring edge, and the fixed slots the ring writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ring {
    pub rotation: Vec<(u32, usize)>,
    pub written: Vec<u32>,
}

/// How a search treats the order of its steps and its tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walker {
    /// The move search: order matters, tags are pushed.
    Moves,
    /// A reachability check that can fail: order matters (the first error wins), tags are ignored.
    Check,
    /// A pure reachability check: only the answer matters, tags are ignored.
    PureCheck,
}

/// Per node, the ring its function walks as a loop, if any (see the module docs).
/// `walked[n]` lists the edges the search follows from node `n`, in declaration order;
/// `enters[e]` says whether the search continues into edge `e`'s target (not a completion or
/// the check's target); `keeps[n]` whether node `n` records a visit, counts a step or opens a
/// scope.
pub(crate) fn rings(
    automaton: &Automaton,
    plan: &Plan,
    walked: &[Vec<usize>],
    enters: &dyn Fn(usize) -> bool,
    keeps: &[bool],
    walker: Walker,
) -> Vec<Option<Ring>> {
    let count = automaton.nodes.len();
    let successors: Vec<Vec<u32>> = walked
        .iter()
        .map(|edges| edges.iter().filter(|&&e| enters(e)).map(|&e| automaton.edges[e].target).collect())
        .collect();
    let component = cyclic_components(&successors);
    // Each node's one edge into its own component, when it has exactly one.
    let ring_edge: Vec<Option<usize>> = (0..count)
        .map(|node| {
            let c = component[node]?;
            let mut inner = walked[node]
                .iter()
                .copied()
                .filter(|&e| enters(e) && component[automaton.edges[e].target as usize] == Some(c));
            let edge = inner.next()?;
            inner.next().is_none().then_some(edge)
        })
        .collect();
    let fits = |node: usize| -> bool {
        let Some(edge) = ring_edge[node] else { return false };
        let last = walked[node].last() == Some(&edge);
        let ordered = walker != Walker::PureCheck;
        !keeps[node] && (last || !ordered) && ring_op(&plan.ops[edge], walker).is_some()
    };
    let mut rings = vec![None; count];
    for start in 0..count {
        let Some(c) = component[start] else { continue };
        let members: Vec<usize> = (0..count).filter(|&n| component[n] == Some(c)).collect();
        if !members.iter().all(|&n| fits(n)) {
            continue;
        }
        let mut rotation = Vec::new();
        let mut written = Vec::new();
        let mut node = start;
        loop {
            let edge = ring_edge[node].expect("every member has a ring edge");
            if let Some(Some(slot)) = ring_op(&plan.ops[edge], walker) {
                if !written.contains(&slot) {
                    written.push(slot);
                }
            }
            rotation.push((node as u32, edge));
            node = automaton.edges[edge].target as usize;
            if node == start {
                break;
            }
        }
        // One node per member: the ring edges form one cycle through all of them, and some edge
        // writes (a ring without a write never ends, and a ring without visits always has one).
        if rotation.len() == members.len() && !written.is_empty() {
            written.sort_unstable();
            rings[start] = Some(Ring { rotation, written });
        }
    }
    rings
}

/// Whether an edge may lie on a ring: `Some(None)` for an edge that writes nothing (a skip, a
/// one-slot comparison, a tag the walker ignores), `Some(Some(slot))` for a write into a fixed
/// slot, `None` otherwise.
fn ring_op(op: &PlanOp, walker: Walker) -> Option<Option<u32>> {
    match op {
        PlanOp::Skip | PlanOp::Compare { transfer: PlanTransfer::Slot, .. } => Some(None),
        PlanOp::Tag(_) | PlanOp::TagExpr(_) if walker != Walker::Moves => Some(None),
        PlanOp::Assign { lhs, transfer: PlanTransfer::Slot, sets_player: false, .. } => fixed_slot(lhs).map(Some),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// The rings of the move search of a one-player game with the edges `edges` (from, to,
    /// label) between `begin -> walk` (which sets `player = x`) and `end`, over a line of squares
    /// `up` with `board`. `keeps` names nodes that record visits.
    /// Returns each ring's entry node and its nodes' names in walking order.
    fn move_rings(edges: &[(&str, &str, &str)], keeps: &[&str], walker: Walker) -> Vec<(String, Vec<String>)> {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, wall}").typedef("Board", "Sq -> Content");
        builder.typedef("Step", "Sq -> Sq").constant("up", "Step", "{s1: s2, s2: s3, :off}");
        builder.variable("pos", "Sq", "s1").variable("other", "Sq", "s1");
        builder.variable("board", "Board", "{off: wall, :empty}");
        builder.edge("begin", "walk", "player = x");
        for (from, to, label) in edges {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let completes = |e: usize| matches!(plan.ops[e], PlanOp::Assign { sets_player: true, .. });
        let walked: Vec<Vec<usize>> =
            automaton.nodes.iter().map(|node| node.edges.clone().map(|e| e as usize).collect()).collect();
        let keeps: Vec<bool> = automaton.nodes.iter().map(|node| keeps.contains(&node.name.as_str())).collect();
        let found = rings(&automaton, &plan, &walked, &|e| !completes(e), &keeps, walker);
        let name = |node: u32| automaton.nodes[node as usize].name.clone();
        let pos = automaton.variables.iter().position(|v| v.name == "pos").expect("`pos` is declared");
        found
            .into_iter()
            .enumerate()
            .filter_map(|(node, ring)| {
                let ring = ring?;
                assert_eq!(ring.written, [plan.var_slots[pos].0], "the ring writes `pos` only");
                Some((name(node as u32), ring.rotation.iter().map(|&(node, _)| name(node)).collect()))
            })
            .collect()
    }

    /// A slide: step, test the square, then either stop (tag, end the move) or go on.
    const SLIDE: [(&str, &str, &str); 5] = [
        ("walk", "stepped", "pos = up[pos]"),
        ("stepped", "free", "board[pos] == empty"),
        ("free", "stop", "$$ pos"),
        ("free", "walk", "pos != off"),
        ("stop", "end", "player = keeper"),
    ];

    #[test]
    fn a_slide_is_one_ring_entered_at_each_of_its_nodes() {
        let found = move_rings(&SLIDE, &[], Walker::Moves);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0], ("walk".into(), vec!["walk".into(), "stepped".into(), "free".into()]));
        assert_eq!(found[2], ("free".into(), vec!["free".into(), "walk".into(), "stepped".into()]));
    }

    #[test]
    fn a_ring_whose_edge_is_not_its_node_s_last_is_a_loop_only_in_a_pure_check() {
        // The exit after the ring edge: the recursion runs it on the way back up.
        let mut late_exit = SLIDE;
        late_exit.swap(2, 3);
        assert!(move_rings(&late_exit, &[], Walker::Moves).is_empty());
        assert!(move_rings(&late_exit, &[], Walker::Check).is_empty());
        assert_eq!(move_rings(&late_exit, &[], Walker::PureCheck).len(), 3);
    }

    #[test]
    fn rings_that_branch_visit_tag_or_write_through_a_key_stay_recursive() {
        // Two ways round: not one simple cycle.
        let mut branching = SLIDE.to_vec();
        branching.push(("free", "walk", "other = pos"));
        assert!(move_rings(&branching, &[], Walker::Moves).is_empty());
        // A node that records visits.
        assert!(move_rings(&SLIDE, &["stepped"], Walker::Moves).is_empty());
        // A tag on the ring: pushed by the move search, ignored by checks.
        let mut tagged = SLIDE;
        tagged[1] = ("stepped", "free", "$$ pos");
        assert!(move_rings(&tagged, &[], Walker::Moves).is_empty());
        assert_eq!(move_rings(&tagged, &[], Walker::Check).len(), 3);
        // A write through a computed key (it can fail, and its undo needs the key).
        let mut keyed = SLIDE;
        keyed[1] = ("stepped", "free", "board[pos] = wall");
        assert!(move_rings(&keyed, &[], Walker::Moves).is_empty());
    }
}
