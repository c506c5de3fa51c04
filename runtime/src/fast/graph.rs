//! Static analysis of the edge graph: the nodes where a search must record visited states.
//!
//! A depth-first search over (node, state) terminates as long as every cycle it can walk holds a
//! node where it records and checks what it has seen. Cycles live inside strongly connected
//! components, and a search enters a cycle either at its start node or through a node with an
//! in-edge from outside the cycle, i.e. a node with two or more in-edges. So recording only at
//! nodes that lie in a cyclic component *and* are merge points (or the start) is enough; every
//! other node is visited without hashing or copying the state. Repeated visits of acyclic merge
//! points can only rediscover moves already found, which the move list de-duplicates by tags.
//!
//! The move search never follows an edge that assigns `player` (the move ends there), so its cycles
//! are computed without those edges; reachability sub-searches follow every edge.

/// Per node: bit [`MOVES`] when the move search must check it, bit [`REACH`] for sub-searches;
/// bit [`MERGE`] for nodes with two or more in-edges.
pub(crate) const MOVES: u8 = 1;
pub(crate) const REACH: u8 = 2;
pub(crate) const MERGE: u8 = 4;

/// `cyclic[n]`: `n` lies on a cycle of the graph given by `successors`.
fn cyclic_nodes(successors: &[Vec<u32>]) -> Vec<bool> {
    let count = successors.len();
    // Kosaraju with explicit stacks: finishing order on the graph, then components on its reverse.
    let mut order = Vec::with_capacity(count);
    let mut seen = vec![false; count];
    for root in 0..count {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((node, next)) = stack.last_mut() {
            if let Some(&succ) = successors[*node].get(*next) {
                *next += 1;
                if !seen[succ as usize] {
                    seen[succ as usize] = true;
                    stack.push((succ as usize, 0));
                }
            } else {
                order.push(*node);
                stack.pop();
            }
        }
    }
    let mut predecessors = vec![Vec::new(); count];
    for (node, succs) in successors.iter().enumerate() {
        for &succ in succs {
            predecessors[succ as usize].push(node as u32);
        }
    }
    let mut component = vec![u32::MAX; count];
    let mut sizes = Vec::new();
    for &root in order.iter().rev() {
        if component[root] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0u32;
        component[root] = id;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            size += 1;
            for &pred in &predecessors[node] {
                if component[pred as usize] == u32::MAX {
                    component[pred as usize] = id;
                    stack.push(pred as usize);
                }
            }
        }
        sizes.push(size);
    }
    (0..count).map(|node| sizes[component[node] as usize] > 1 || successors[node].contains(&(node as u32))).collect()
}

/// The flags of every node. `edges` lists `(source, target, assigns_player)`.
pub(crate) fn node_flags(node_count: usize, edges: &[(u32, u32, bool)]) -> Vec<u8> {
    let mut all = vec![Vec::new(); node_count];
    let mut within_move = vec![Vec::new(); node_count];
    let mut in_degree = vec![0u32; node_count];
    for &(source, target, assigns_player) in edges {
        all[source as usize].push(target);
        if !assigns_player {
            within_move[source as usize].push(target);
        }
        in_degree[target as usize] += 1;
    }
    let reach_cyclic = cyclic_nodes(&all);
    let move_cyclic = cyclic_nodes(&within_move);
    (0..node_count)
        .map(|n| {
            let mut flags = 0;
            if move_cyclic[n] {
                flags |= MOVES;
            }
            if reach_cyclic[n] {
                flags |= REACH;
            }
            if in_degree[n] >= 2 {
                flags |= MERGE;
            }
            flags
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cycles_and_ignores_player_edges_for_moves() {
        // 0 -> 1 -> 2 -> 1 (a cycle), 2 -> 3 -player-> 0 (closes a cycle only for reachability), 3 -> 4.
        let edges = [(0, 1, false), (1, 2, false), (2, 1, false), (2, 3, false), (3, 0, true), (3, 4, false)];
        let flags = node_flags(5, &edges);
        assert_eq!(flags[1], MOVES | REACH | MERGE);
        assert_eq!(flags[2], MOVES | REACH);
        assert_eq!(flags[0], REACH);
        assert_eq!(flags[3], REACH);
        assert_eq!(flags[4], 0);
        let self_loop = node_flags(2, &[(0, 1, false), (1, 1, false)]);
        assert_eq!(self_loop, [0, MOVES | REACH | MERGE]);
    }
}
