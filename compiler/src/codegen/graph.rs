//! The code generator's graph analysis: which nodes get a move-search or reachability function,
//! where a search can start, and where it must consult a visited set.
//!
//! A depth-first search over (node, state) terminates as long as every cycle it can walk holds a
//! node where it checks what it has seen. A search enters a cycle at its start node or through a
//! node with two or more in-edges, so only nodes on a cycle that are merge points or starts record
//! visits (the fast engine's rule, spec/engines.md). The move search stops at edges assigning
//! `player`, so its cycles are computed without those edges; reachability follows every edge.

use regula_runtime::automaton::Automaton;

/// Per-node facts, indexed by node id.
pub(crate) struct Analysis {
    /// A move search may start here (`begin`, or the target of an edge assigning `player`).
    pub is_start: Vec<bool>,
    /// The move search can reach the node (it gets a function `m<N>`).
    pub in_moves: Vec<bool>,
    /// A reachability check can reach the node (it gets a function `r<N>`).
    pub in_reach: Vec<bool>,
    pub visit_in_moves: Vec<bool>,
    pub visit_in_reach: Vec<bool>,
}

impl Analysis {
    /// `completes[e]`: edge `e` assigns `player`; `reach_sources`: the `from` of every check.
    pub fn new(automaton: &Automaton, completes: &[bool], reach_sources: &[u32]) -> Analysis {
        let count = automaton.nodes.len();
        let mut all = vec![Vec::new(); count];
        let mut within_move = vec![Vec::new(); count];
        let mut in_degree = vec![0u32; count];
        let mut is_start = vec![false; count];
        is_start[automaton.begin as usize] = true;
        for (edge, &completing) in automaton.edges.iter().zip(completes) {
            all[edge.source as usize].push(edge.target);
            if completing {
                is_start[edge.target as usize] = true;
            } else {
                within_move[edge.source as usize].push(edge.target);
            }
            in_degree[edge.target as usize] += 1;
        }
        let mut is_reach_source = vec![false; count];
        for &from in reach_sources {
            is_reach_source[from as usize] = true;
        }
        let in_moves = reachable(&within_move, &is_start);
        let in_reach = reachable(&all, &is_reach_source);
        let move_cyclic = cyclic_nodes(&within_move);
        let reach_cyclic = cyclic_nodes(&all);
        let visit_in_moves = (0..count).map(|n| move_cyclic[n] && (in_degree[n] >= 2 || is_start[n])).collect();
        let visit_in_reach = (0..count).map(|n| reach_cyclic[n] && (in_degree[n] >= 2 || is_reach_source[n])).collect();
        Analysis { is_start, in_moves, in_reach, visit_in_moves, visit_in_reach }
    }
}

/// The nodes reachable from the marked roots.
fn reachable(successors: &[Vec<u32>], roots: &[bool]) -> Vec<bool> {
    let mut seen = roots.to_vec();
    let mut stack: Vec<usize> = (0..roots.len()).filter(|&n| roots[n]).collect();
    while let Some(node) = stack.pop() {
        for &next in &successors[node] {
            if !seen[next as usize] {
                seen[next as usize] = true;
                stack.push(next as usize);
            }
        }
    }
    seen
}

/// `cyclic[n]`: `n` lies on a cycle (Tarjan's strongly connected components, iteratively).
fn cyclic_nodes(successors: &[Vec<u32>]) -> Vec<bool> {
    let count = successors.len();
    let mut index = vec![u32::MAX; count];
    let mut low = vec![0u32; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut cyclic = vec![false; count];
    let mut next_index = 0u32;
    for root in 0..count {
        if index[root] != u32::MAX {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut position)) = calls.last_mut() {
            if let Some(&next) = successors[node].get(*position) {
                *position += 1;
                let next = next as usize;
                if index[next] == u32::MAX {
                    index[next] = next_index;
                    low[next] = next_index;
                    next_index += 1;
                    stack.push(next);
                    on_stack[next] = true;
                    calls.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut members = Vec::new();
                loop {
                    let member = stack.pop().expect("the component's root is on the stack");
                    on_stack[member] = false;
                    members.push(member);
                    if member == node {
                        break;
                    }
                }
                let self_loop = successors[node].contains(&(node as u32));
                if members.len() > 1 || self_loop {
                    for member in members {
                        cyclic[member] = true;
                    }
                }
            }
        }
    }
    cyclic
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_and_reachability() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3, 4 -> 4 (a self-loop), 5 isolated.
        let successors = vec![vec![1], vec![2], vec![1, 3], vec![], vec![4], vec![]];
        assert_eq!(cyclic_nodes(&successors), [false, true, true, false, true, false]);
        let roots = [true, false, false, false, false, false];
        assert_eq!(reachable(&successors, &roots), [true, true, true, true, false, false]);
    }
}
