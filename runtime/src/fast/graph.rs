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

/// See [`CYCLIC`].
pub(crate) const MERGE: u8 = 4;
/// The search records its visits of the node (subject to the node's progress slot).
pub(crate) const RECORD: u8 = 8;
/// The node lies in a cyclic component whose every node is deterministic (at most one out-edge
/// can be followed): a search entering it walks a single path there, and a single path that
/// repeats a state repeats it again within one period, so the search may defer recording (see
/// [`Context::may_defer`]) and still stops every endless walk, with the same moves found.
pub(crate) const ONE_PATH: u8 = 16;

/// `cyclic[n]`: `n` lies on a cycle of the graph given by `successors`.
fn cyclic_nodes(successors: &[Vec<u32>]) -> Vec<bool> {
    let component = components(successors);
    let mut sizes = vec![0u32; successors.len()];
    for &c in &component {
        sizes[c as usize] += 1;
    }
    (0..successors.len())
        .map(|node| sizes[component[node] as usize] > 1 || successors[node].contains(&(node as u32)))
        .collect()
}

/// The strongly connected component of every node (numbered from 0).
fn components(successors: &[Vec<u32>]) -> Vec<u32> {
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
    let mut next_id = 0;
    for &root in order.iter().rev() {
        if component[root] != u32::MAX {
            continue;
        }
        let id = next_id;
        next_id += 1;
        component[root] = id;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            for &pred in &predecessors[node] {
                if component[pred as usize] == u32::MAX {
                    component[pred as usize] = id;
                    stack.push(pred as usize);
                }
            }
        }
    }
    component
}

/// Per node: [`CYCLIC`] when it lies on a cycle of one search's graph, [`MERGE`] when it has
/// two or more in-edges there.
pub(crate) const CYCLIC: u8 = 1;

/// What one kind of search needs to know about each node: the move search walks every edge but
/// stops at those assigning `player`; a reachability check `? a -> b` walks every edge but stops
/// at `b`. Each has its own graph, so its own cycles, merge points and progress slots.
#[derive(Debug)]
pub(crate) struct Context {
    /// Bits [`CYCLIC`] and [`MERGE`] per node.
    pub flags: Box<[u8]>,
    pub progress: Box<[Option<std::sync::Arc<Progress>>]>,
}

impl Context {
    /// The analysis of the graph of the edges `include` keeps.
    /// `deterministic[n]`: at most one out-edge of `n` can be followed from any state.
    pub fn new(
        node_count: usize,
        edges: &[EdgeEffect],
        deterministic: &[bool],
        include: impl Fn(&EdgeEffect) -> bool,
    ) -> Context {
        let effects: Vec<EdgeEffect> = edges.iter().map(|e| EdgeEffect { in_graph: include(e), ..e.clone() }).collect();
        let mut successors = vec![Vec::new(); node_count];
        let mut in_degree = vec![0u32; node_count];
        for edge in effects.iter().filter(|e| e.in_graph) {
            successors[edge.source as usize].push(edge.target);
            in_degree[edge.target as usize] += 1;
        }
        let cyclic = cyclic_nodes(&successors);
        let component = components(&successors);
        let mut component_one_path = vec![true; node_count];
        for node in 0..node_count {
            if !deterministic.get(node).copied().unwrap_or(false) {
                component_one_path[component[node] as usize] = false;
            }
        }
        let (progress, record_at) = progress_of_components(node_count, &effects, deterministic);
        let flags = (0..node_count)
            .map(|n| {
                let merge = in_degree[n] >= 2;
                let record = cyclic[n] && record_at[n].unwrap_or(merge);
                let one_path = cyclic[n] && component_one_path[component[n] as usize];
                (if cyclic[n] { CYCLIC } else { 0 })
                    | (if merge { MERGE } else { 0 })
                    | (if record { RECORD } else { 0 })
                    | (if one_path { ONE_PATH } else { 0 })
            })
            .collect();
        Context { flags, progress: progress.into() }
    }

    /// Whether a search must record its visit of `node` (the search started at `start`).
    #[inline]
    pub fn must_record(&self, node: u32, start: u32, values: &[u32]) -> bool {
        let flags = self.flags[node as usize];
        (flags & RECORD != 0 || (node == start && flags & CYCLIC != 0))
            && self.progress[node as usize].as_ref().is_none_or(|p| p.may_repeat(values))
    }

    /// Whether a search may skip recording its visit of `node` (when `must_record` says it must)
    /// while it has deferrals left: the node is [`ONE_PATH`], so skipping only lets an endless
    /// walk run on until the search's deferrals are used up, after which it records as usual and
    /// the walk, being periodic, comes back to a recorded state. The walk completes no move and
    /// raises no error on the way that the recorded walk would not have met before its repeat.
    #[inline]
    pub fn may_defer(&self, node: u32) -> bool {
        self.flags[node as usize] & ONE_PATH != 0
    }
}

/// A slot every cycle of a strongly connected component moves forward: the component's edges
/// write the slot only through `slot = T[slot]` (or `slot = T[other][slot]` with `other` written
/// nowhere in the component), and every cycle of the component passes such an edge. Coming back
/// to a node with the same state then needs `slot = T^k(slot)` for some `k >= 1`, i.e. a value
/// on a cycle of `T`: while the slot holds any other value, the state cannot repeat on the
/// search's current path, so the search need not record it (rediscovering a finished subtree
/// only finds moves already listed, as at acyclic merge points).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Progress {
    pub slot: u32,
    /// The first key of a two-level table (`T[other][slot]`), read from this slot.
    pub other: Option<u32>,
    pub width: u32,
    /// `periodic[other * width + value]` (or `periodic[value]`): the value lies on a cycle of `T`.
    pub periodic: Box<[bool]>,
}

impl Progress {
    /// Whether a state with these values could repeat one already on the search path.
    #[inline]
    pub fn may_repeat(&self, values: &[u32]) -> bool {
        let value = values[self.slot as usize] as usize;
        let index = match self.other {
            Some(other) => values[other as usize] as usize * self.width as usize + value,
            None => value,
        };
        self.periodic.get(index).copied().unwrap_or(true)
    }
}

/// What one edge does to slots, for [`progress_of_components`].
#[derive(Clone, Debug)]
pub(crate) struct EdgeEffect<'a> {
    pub source: u32,
    pub target: u32,
    /// The edge belongs to the searched graph (the move search drops edges assigning `player`).
    pub in_graph: bool,
    /// Half-open slot ranges the edge may write.
    pub writes: Vec<(u32, u32)>,
    /// `slot = T[slot]` or `slot = T[other][slot]`.
    pub advance: Option<Advance<'a>>,
}

/// An assignment `slot = table[slot]` (`other: None`) or `slot = table[other * width + slot]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Advance<'a> {
    pub slot: u32,
    pub other: Option<u32>,
    pub width: u32,
    pub table: &'a [u32],
}

impl Advance<'_> {
    fn same(&self, other: &Advance) -> bool {
        self.slot == other.slot
            && self.other == other.other
            && self.width == other.width
            && std::ptr::eq(self.table, other.table)
    }
}

/// The values of `0..n` that lie on a cycle of `f` (a function on `0..n`; values out of range end
/// a walk).
fn periodic_points(n: usize, f: impl Fn(usize) -> usize) -> Vec<bool> {
    // 0: unvisited, 1: on the current walk, 2: done.
    let mut state = vec![0u8; n];
    let mut periodic = vec![false; n];
    let mut walk = Vec::new();
    for root in 0..n {
        let mut x = root;
        walk.clear();
        while x < n && state[x] == 0 {
            state[x] = 1;
            walk.push(x);
            x = f(x);
        }
        if x < n && state[x] == 1 {
            // The walk closed a new cycle at `x`.
            let from = walk.iter().position(|&y| y == x).expect("x is on the walk");
            for &y in &walk[from..] {
                periodic[y] = true;
            }
        }
        for &y in &walk {
            state[y] = 2;
        }
    }
    periodic
}

/// Per node: the [`Progress`] of its component in the graph of the `in_graph` edges, if any.
/// Also returns, per node, `Some(record)` for the nodes of components where every node is
/// deterministic (at most one out-edge can be followed): there the search walks one path, so
/// recording at the sources of the advancing edges (which every cycle passes) is enough, and
/// there the slot has not advanced yet (a ray's cursor is checked before it steps off the board).
#[allow(clippy::type_complexity)]
pub(crate) fn progress_of_components(
    node_count: usize,
    edges: &[EdgeEffect],
    deterministic: &[bool],
) -> (Vec<Option<std::sync::Arc<Progress>>>, Vec<Option<bool>>) {
    let mut successors = vec![Vec::new(); node_count];
    for edge in edges.iter().filter(|e| e.in_graph) {
        successors[edge.source as usize].push(edge.target);
    }
    let component = components(&successors);
    let component_count = component.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    let mut internal: Vec<Vec<usize>> = vec![Vec::new(); component_count];
    for (index, edge) in edges.iter().enumerate() {
        if edge.in_graph && component[edge.source as usize] == component[edge.target as usize] {
            internal[component[edge.source as usize] as usize].push(index);
        }
    }
    let mut result = vec![None; node_count];
    let mut record_at = vec![None; node_count];
    for (id, members) in internal.iter().enumerate() {
        let Some((progress, sources)) = component_progress(members, edges) else {
            continue;
        };
        let progress = std::sync::Arc::new(progress);
        let nodes: Vec<usize> = (0..node_count).filter(|&node| component[node] as usize == id).collect();
        let walks_one_path = nodes.iter().all(|&node| deterministic.get(node).copied().unwrap_or(false));
        for &node in &nodes {
            result[node] = Some(progress.clone());
            if walks_one_path {
                record_at[node] = Some(sources.contains(&(node as u32)));
            }
        }
    }
    (result, record_at)
}

/// The component's progress slot and the sources of its advancing edges.
fn component_progress(members: &[usize], edges: &[EdgeEffect]) -> Option<(Progress, Vec<u32>)> {
    let candidates: Vec<_> = members.iter().filter_map(|&e| edges[e].advance).collect();
    let writes_slot = |edge: &EdgeEffect, slot: u32| edge.writes.iter().any(|&(from, to)| from <= slot && slot < to);
    'candidate: for candidate in &candidates {
        let Advance { slot, other, width, table } = *candidate;
        let is_advance = |edge: &EdgeEffect| edge.advance.is_some_and(|a| a.same(candidate));
        for &e in members {
            let edge = &edges[e];
            if is_advance(edge) {
                continue;
            }
            if writes_slot(edge, slot) || other.is_some_and(|o| writes_slot(edge, o)) {
                continue 'candidate;
            }
        }
        if other.is_some_and(|o| members.iter().any(|&e| writes_slot(&edges[e], o))) {
            continue;
        }
        // Every cycle must pass an advancing edge: without them the component is acyclic.
        let rest: Vec<(u32, u32)> =
            members.iter().map(|&e| &edges[e]).filter(|e| !is_advance(e)).map(|e| (e.source, e.target)).collect();
        if has_cycle(&rest) {
            continue;
        }
        let periodic = match other {
            None => periodic_points(table.len(), |x| table[x] as usize),
            Some(_) => {
                let width = width as usize;
                let mut all = vec![false; table.len()];
                for row in 0..table.len() / width.max(1) {
                    let points = periodic_points(width, |x| table[row * width + x] as usize);
                    all[row * width..(row + 1) * width].copy_from_slice(&points);
                }
                all
            }
        };
        let sources = members.iter().map(|&e| &edges[e]).filter(|e| is_advance(e)).map(|e| e.source).collect();
        return Some((Progress { slot, other, width, periodic: periodic.into() }, sources));
    }
    None
}

fn has_cycle(edges: &[(u32, u32)]) -> bool {
    let mut nodes: Vec<u32> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let index = |n: u32| nodes.binary_search(&n).expect("listed");
    let mut in_degree = vec![0usize; nodes.len()];
    let mut out = vec![Vec::new(); nodes.len()];
    for &(a, b) in edges {
        out[index(a)].push(index(b));
        in_degree[index(b)] += 1;
    }
    let mut ready: Vec<usize> = (0..nodes.len()).filter(|&n| in_degree[n] == 0).collect();
    let mut removed = 0;
    while let Some(n) = ready.pop() {
        removed += 1;
        for &m in &out[n] {
            in_degree[m] -= 1;
            if in_degree[m] == 0 {
                ready.push(m);
            }
        }
    }
    removed < nodes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(source: u32, target: u32, in_graph: bool) -> EdgeEffect<'static> {
        EdgeEffect { source, target, in_graph, writes: Vec::new(), advance: None }
    }

    #[test]
    fn finds_cycles_and_ignores_player_edges_for_moves() {
        // 0 -> 1 -> 2 -> 1 (a cycle), 2 -> 3 -player-> 0 (closes a cycle only for reachability), 3 -> 4.
        // `in_graph` marks the edge assigning `player` here.
        let edges = [
            effect(0, 1, false),
            effect(1, 2, false),
            effect(2, 1, false),
            effect(2, 3, false),
            effect(3, 0, true),
            effect(3, 4, false),
        ];
        let moves = Context::new(5, &edges, &[], |e| !e.in_graph);
        let recorded = CYCLIC | MERGE | RECORD;
        assert_eq!(*moves.flags, [0, recorded, CYCLIC, 0, 0]);
        let all = Context::new(5, &edges, &[], |_| true);
        assert_eq!(*all.flags, [CYCLIC, recorded, CYCLIC, CYCLIC, 0]);
        // A check `? 0 -> 3` stops at 3, which breaks the outer cycle.
        let to_three = Context::new(5, &edges, &[], |e| e.source != 3);
        assert_eq!(*to_three.flags, [0, recorded, CYCLIC, 0, 0]);
        let self_loop = Context::new(2, &[effect(0, 1, false), effect(1, 1, false)], &[], |_| true);
        assert_eq!(*self_loop.flags, [0, recorded]);
    }

    #[test]
    fn a_cycle_advancing_a_slot_through_an_acyclic_table_needs_no_record_until_a_fixed_point() {
        // Node 1 loops through 2 with `slot 0 = T[slot 0]`, T = 1 -> 2 -> 3 -> 0 -> 0 (0 is fixed).
        let table = [0u32, 2, 3, 0];
        let advance = Advance { slot: 0, other: None, width: 0, table: &table };
        let edges = [
            effect(0, 1, true),
            effect(1, 2, true),
            EdgeEffect { advance: Some(advance), writes: vec![(0, 1)], ..effect(2, 1, true) },
            effect(1, 3, true),
        ];
        let context = Context::new(4, &edges, &[], |_| true);
        let progress = context.progress[1].as_ref().expect("the loop advances slot 0");
        assert_eq!(*progress.periodic, [true, false, false, false]);
        assert!(context.must_record(1, 0, &[0]));
        assert!(!context.must_record(1, 0, &[2]));
        // When the loop walks one path, it is recorded at the advancing edge's source instead.
        let one_path = Context::new(4, &edges, &[true; 4], |_| true);
        assert_eq!(one_path.flags[1] & RECORD, 0);
        assert!(one_path.must_record(2, 0, &[0]));
        assert!(!one_path.must_record(2, 0, &[3]));
        // There the loop's nodes may defer recording; node 0 is on no cycle, and when a node may
        // branch the loop is no single path.
        assert!(one_path.may_defer(1) && one_path.may_defer(2) && !one_path.may_defer(0));
        assert!(!context.may_defer(1) && !context.may_defer(2));
        assert!(!Context::new(4, &edges, &[true, false, true, true], |_| true).may_defer(2));
        // Another write of the slot inside the loop spoils it.
        let spoiled = [edges[0].clone(), EdgeEffect { writes: vec![(0, 1)], ..edges[1].clone() }, edges[2].clone()];
        assert!(Context::new(4, &spoiled, &[], |_| true).progress[1].is_none());
        // So does a second way round the loop that does not advance.
        let bypass = [edges[0].clone(), edges[1].clone(), edges[2].clone(), effect(2, 1, true)];
        assert!(Context::new(4, &bypass, &[], |_| true).progress[1].is_none());
    }
}
