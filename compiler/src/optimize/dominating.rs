//! The one backward walk behind "a comparison dominating an assignment narrows what it assigns",
//! shared by the optimiser's value sets ([`super::value_sets`], on expressions) and the code
//! generator's ([`crate::codegen`]'s `guards`, on lowered slot plans).
//!
//! From an assignment's source node, the walk follows the node's in-edge back while the node has
//! exactly one in-edge and no search can start there otherwise (`begin`, a reachability check's
//! start: the only ways into a node other than its in-edges). Every edge on the way ran, in that
//! order, before the assignment. A comparison of the assignment's read with a literal there
//! holds when the assignment runs, unless an edge between may write something the read depends
//! on; the walk stops at the first such edge. The callers say what an edge is
//! ([`EdgeEffect`]) and which nodes are entered only through their in-edge; this module owns
//! the walk and its bound.
//!
//! Cost: at most [`WALK_LIMIT`] edges a walk.

/// The most edges one backward walk inspects.
pub(crate) const WALK_LIMIT: usize = 64;

/// What one edge on the walk back means for the assignment's read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EdgeEffect<G> {
    /// Compares the read with a literal: `G` holds for the read after this edge.
    Narrows(G),
    /// Neither compares the read with a literal nor may change it.
    Neutral,
    /// May write something the read depends on: nothing before it says anything about the read.
    Writes,
}

/// The facts the edges before `node` prove about one read, nearest first: walking back from
/// `node` while `single_entry(node)` gives its one in-edge and that edge's source (`None` when
/// the node has another number of in-edges or a search may start there), collecting every
/// [`EdgeEffect::Narrows`] up to the first [`EdgeEffect::Writes`].
pub(crate) fn facts_before<N: Copy, E: Copy, G>(
    mut node: N,
    mut single_entry: impl FnMut(N) -> Option<(E, N)>,
    mut effect: impl FnMut(E) -> EdgeEffect<G>,
) -> Vec<G> {
    let mut facts = Vec::new();
    for _ in 0..WALK_LIMIT {
        let Some((edge, source)) = single_entry(node) else { break };
        match effect(edge) {
            EdgeEffect::Narrows(fact) => facts.push(fact),
            EdgeEffect::Neutral => {}
            EdgeEffect::Writes => break,
        }
        node = source;
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain `0 <- 1 <- 2 <- ...` over nodes `0..len`: edge `i` enters node `i + 1` from `i`;
    /// node 0 has no in-edge.
    fn walk(effects: &[EdgeEffect<u32>], entered_otherwise: &[usize], from: usize) -> Vec<u32> {
        facts_before(
            from,
            |node| (node > 0 && !entered_otherwise.contains(&node)).then(|| (node - 1, node - 1)),
            |edge| effects[edge].clone(),
        )
    }

    #[test]
    fn facts_are_collected_nearest_first_up_to_a_write() {
        use EdgeEffect::*;
        let effects = [Narrows(1), Writes, Narrows(2), Neutral, Narrows(3)];
        assert_eq!(walk(&effects, &[], 5), vec![3, 2], "the write on edge 1 hides the fact of edge 0");
        assert_eq!(walk(&effects, &[], 1), vec![1]);
        assert_eq!(walk(&effects, &[4], 5), vec![3], "a search may start at node 4");
        assert_eq!(walk(&effects, &[5], 5), Vec::<u32>::new(), "a search may start at the assignment's source");
    }

    #[test]
    fn the_walk_is_bounded() {
        let effects: Vec<EdgeEffect<u32>> = (0..WALK_LIMIT as u32 + 8).map(EdgeEffect::Narrows).collect();
        let found = walk(&effects, &[], effects.len());
        assert_eq!(found.len(), WALK_LIMIT);
        assert_eq!(found[0], WALK_LIMIT as u32 + 7);
    }
}
