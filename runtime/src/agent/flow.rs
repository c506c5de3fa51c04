//! The information-flow analysis behind observations: which slots of a state resting at a node may
//! depend on choices hidden from a player (spec/agents.md, "Observations").
//!
//! 1. *Who may not see a move.* A forward data-flow over the graph finds, per node, the players
//!    whose `visible` entry may be other than `1` there. A move starting at node `s` may be hidden
//!    from `p` when `p` may not see at `s` and `p` is not certainly the mover (the `player = ...`
//!    edges into `s` all naming `p`). `hid[n]` marks the nodes of such moves (from `s` up to the
//!    edges assigning `player`).
//! 2. *Taint.* A forward data-flow computes, per node and slot, the players from whom the slot's
//!    value may be secret. Inside a hidden move every assignment and choice is secret; elsewhere
//!    an assignment's target is secret when something it reads is (explicit flow) or when the edge
//!    runs only because of a secret branch (implicit flow, below). A precise target (constant
//!    keys) is overwritten (strong update), so a public re-assignment makes a slot public again;
//!    `$$ e` in a move a player sees reveals `e` to that player.
//! 3. *Implicit flow.* A node with several out-edges whose guards read a secret (or which lies in
//!    a hidden move) is a secret branch; the nodes on paths from it up to its immediate
//!    post-dominator run because of it, and so do their assignments. Which node a state rests at
//!    is secret when the node lies in such a region.
//!
//! Steps 2 and 3 repeat until nothing changes (taints only grow). The result is sound for the
//! explicit and implicit flows above; it can be coarse (a map assigned by a computed key is
//! tainted as a whole).

use crate::automaton::{Automaton, Expr, Label, NodeId, SymbolId, Type, TypeId};
use crate::reference::layout::Layout;
use std::collections::VecDeque;

/// Past this many (node, slot) pairs the analysis gives up and hides everything that may be
/// hidden (memory: 8 bytes each).
const MAX_CELLS: usize = 1 << 25;

/// Whether some move may be hidden from some player: an edge assigns `visible` (or part of it), or
/// a player starts without seeing.
pub(crate) fn may_hide_moves(automaton: &Automaton, layout: &Layout) -> bool {
    let one = automaton.symbol_id("1");
    let start = layout.var_offsets[automaton.visible_var as usize] as usize;
    let size = layout.sizes[automaton.variables[automaton.visible_var as usize].ty as usize] as usize;
    let starts_hidden = layout.initial_values[start..start + size].iter().any(|&v| Some(v) != one);
    starts_hidden
        || automaton.edges.iter().any(|edge| match &edge.label {
            Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => {
                root_variable(lhs) == Some(automaton.visible_var)
            }
            _ => false,
        })
}

/// The variable an assignment target is rooted at.
pub(crate) fn root_variable(expr: &Expr) -> Option<u32> {
    match expr {
        Expr::Var(v) => Some(*v),
        Expr::Access { map, .. } => root_variable(map),
        _ => None,
    }
}

/// A run of state slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    start: u32,
    len: u32,
    /// Exactly these slots (every key constant), not "somewhere in here".
    precise: bool,
}

/// Expressions resolved against the slot layout.
struct Places<'a> {
    automaton: &'a Automaton,
    layout: &'a Layout,
}

impl Places<'_> {
    fn key_count(&self, ty: TypeId) -> u32 {
        match &self.automaton.types[ty as usize] {
            Type::Set(members) => members.len() as u32,
            Type::Map { .. } => 0,
        }
    }

    /// The value of a constant expression of set type.
    fn constant_symbol(&self, expr: &Expr) -> Option<SymbolId> {
        match expr {
            Expr::Symbol(s) => Some(*s),
            _ => {
                let (offset, ty) = self.constant_place(expr)?;
                matches!(self.automaton.types[ty as usize], Type::Set(_))
                    .then(|| self.layout.const_values[offset as usize])
            }
        }
    }

    /// Where a constant expression's value sits in the constant buffer.
    fn constant_place(&self, expr: &Expr) -> Option<(u32, TypeId)> {
        match expr {
            Expr::Const(c) => Some((self.layout.const_offsets[*c as usize], self.automaton.constants[*c as usize].ty)),
            Expr::Access { map, key } => {
                let (offset, ty) = self.constant_place(map)?;
                let Type::Map { key: key_ty, value } = self.automaton.types[ty as usize] else { return None };
                let symbol = self.constant_symbol(key)?;
                let block = self.layout.block_of(key_ty, symbol, self.key_count(key_ty));
                Some((offset + block * self.layout.size(value), value))
            }
            _ => None,
        }
    }

    /// The slots a state expression (rooted at a variable) denotes, with its value type.
    fn state_range(&self, expr: &Expr) -> Option<(Range, TypeId)> {
        match expr {
            Expr::Var(v) => {
                let ty = self.automaton.variables[*v as usize].ty;
                let range =
                    Range { start: self.layout.var_offsets[*v as usize], len: self.layout.size(ty), precise: true };
                Some((range, ty))
            }
            Expr::Access { map, key } => {
                let (range, ty) = self.state_range(map)?;
                let Type::Map { key: key_ty, value } = self.automaton.types[ty as usize] else { return None };
                match (range.precise, self.constant_symbol(key)) {
                    (true, Some(symbol)) => {
                        let block = self.layout.block_of(key_ty, symbol, self.key_count(key_ty));
                        let size = self.layout.size(value);
                        Some((Range { start: range.start + block * size, len: size, precise: true }, value))
                    }
                    _ => Some((Range { precise: false, ..range }, value)),
                }
            }
            _ => None,
        }
    }

    /// Every state slot range an expression's value depends on.
    fn reads(&self, expr: &Expr, out: &mut Vec<Range>) {
        if let Some((range, _)) = self.state_range(expr) {
            out.push(range);
        }
        self.key_reads(expr, out);
    }

    /// The ranges read by the keys of an access chain.
    fn key_reads(&self, expr: &Expr, out: &mut Vec<Range>) {
        if let Expr::Access { map, key } = expr {
            if self.constant_symbol(key).is_none() {
                self.reads(key, out);
            }
            self.key_reads(map, out);
        }
    }
}

/// Per player, the slots hidden at each resting node.
#[derive(Clone, Debug)]
pub(crate) struct Hidden {
    /// Per node: per slot, bit `p` set when the slot may be secret to player `p` in a state at
    /// that node. Empty when nothing is ever hidden.
    slots: Vec<Vec<u64>>,
    /// Per node: bit `p` set when being at this node may be secret to `p`.
    nodes: Vec<u64>,
}

impl Hidden {
    pub(crate) fn slot_hidden(&self, player: usize, node: NodeId, slot: usize) -> bool {
        match self.slots.get(node as usize) {
            Some(masks) if !masks.is_empty() => masks[slot] & (1 << player) != 0,
            _ => false,
        }
    }

    pub(crate) fn node_hidden(&self, player: usize, node: NodeId) -> bool {
        self.nodes.get(node as usize).is_some_and(|&mask| mask & (1 << player) != 0)
    }

    pub(crate) fn analyse(automaton: &Automaton, layout: &Layout, hidden_information: bool) -> Hidden {
        if !hidden_information {
            return Hidden { slots: Vec::new(), nodes: Vec::new() };
        }
        let players = automaton.players.len();
        let everyone = if players >= 64 { u64::MAX } else { (1u64 << players) - 1 };
        let node_count = automaton.nodes.len();
        let resting = resting_nodes(automaton);
        if node_count.saturating_mul(layout.state_len) > MAX_CELLS {
            // Too big to analyse: whoever may miss a move sees nothing but whose turn it is.
            let player_slot = layout.var_offsets[automaton.player_var as usize] as usize;
            let masks: Vec<u64> = (0..layout.state_len).map(|s| if s == player_slot { 0 } else { everyone }).collect();
            let slots = (0..node_count).map(|n| if resting[n] { masks.clone() } else { Vec::new() }).collect();
            return Hidden { slots, nodes: vec![0; node_count] };
        }
        Analysis::new(automaton, layout, everyone).run(&resting)
    }
}

/// Nodes where a settled state can rest: move starts and `end`.
fn resting_nodes(automaton: &Automaton) -> Vec<bool> {
    let mut resting = vec![false; automaton.nodes.len()];
    for node in super::action_space::move_starts(automaton) {
        resting[node as usize] = true;
    }
    resting[automaton.end as usize] = true;
    resting
}

struct Analysis<'a> {
    automaton: &'a Automaton,
    places: Places<'a>,
    everyone: u64,
    player_slot: u32,
    /// Per node: players from whom the move running through it may be hidden.
    hid: Vec<u64>,
    /// Per node: players for whom the node runs only because of a secret branch.
    implicit: Vec<u64>,
    /// Per node: taint of the state arriving there (`None`: not reached).
    taint: Vec<Option<Vec<u64>>>,
    /// Per node: its immediate post-dominator (`node_count` for the virtual exit).
    post_dominator: Vec<u32>,
    /// Per reachability source node: the ranges read below it (memoised).
    reach_reads: Vec<Option<Vec<Range>>>,
}

impl<'a> Analysis<'a> {
    fn new(automaton: &'a Automaton, layout: &'a Layout, everyone: u64) -> Self {
        let node_count = automaton.nodes.len();
        let mut analysis = Analysis {
            automaton,
            places: Places { automaton, layout },
            everyone,
            player_slot: layout.var_offsets[automaton.player_var as usize],
            hid: vec![0; node_count],
            implicit: vec![0; node_count],
            taint: vec![None; node_count],
            post_dominator: post_dominators(automaton),
            reach_reads: vec![None; node_count],
        };
        analysis.hid = analysis.hidden_moves(layout);
        analysis
    }

    fn assigns_player(&self, label: &Label) -> bool {
        super::action_space::assigns_player(self.automaton, label)
    }

    /// Step 1: per node, the players from whom the move running through it may be hidden.
    fn hidden_moves(&self, layout: &Layout) -> Vec<u64> {
        let automaton = self.automaton;
        let node_count = automaton.nodes.len();
        let one = automaton.symbol_id("1");
        let visible_ty = automaton.variables[automaton.visible_var as usize].ty;
        let Type::Map { key: key_ty, .. } = automaton.types[visible_ty as usize] else { return vec![0; node_count] };
        let key_count = self.places.key_count(key_ty);
        let visible_base = layout.var_offsets[automaton.visible_var as usize];
        let mut initial = 0u64;
        for (p, &symbol) in automaton.players.iter().enumerate() {
            let slot = visible_base + layout.block_of(key_ty, symbol, key_count);
            if Some(layout.initial_values[slot as usize]) != one {
                initial |= 1 << p;
            }
        }
        // Players whose `visible` may not be 1, per node.
        let mut unseeing: Vec<Option<u64>> = vec![None; node_count];
        unseeing[automaton.begin as usize] = Some(initial);
        let mut queue: VecDeque<NodeId> = VecDeque::from([automaton.begin]);
        while let Some(node) = queue.pop_front() {
            let mask = unseeing[node as usize].expect("queued nodes are reached");
            for edge in automaton.out_edges(node) {
                let out = self.visible_transfer(mask, &edge.label, layout, one);
                let slot = &mut unseeing[edge.target as usize];
                let merged = slot.unwrap_or(0) | out;
                if *slot != Some(merged) {
                    *slot = Some(merged);
                    queue.push_back(edge.target);
                }
            }
        }
        // Who may move from each move start.
        let mut sole_mover: Vec<Option<Option<usize>>> = vec![None; node_count];
        sole_mover[automaton.begin as usize] = Some(None);
        for edge in &automaton.edges {
            if !self.assigns_player(&edge.label) {
                continue;
            }
            let mover = match &edge.label {
                Label::Assign { rhs, .. } => self.places.constant_symbol(rhs).and_then(|s| automaton.player_index(s)),
                _ => None,
            };
            let entry = &mut sole_mover[edge.target as usize];
            *entry = match *entry {
                None => Some(mover),
                Some(previous) if previous == mover => Some(previous),
                Some(_) => Some(None),
            };
        }
        // Spread each hidden move start over its move.
        let mut hid = vec![0u64; node_count];
        let mut queue = VecDeque::new();
        for node in 0..node_count {
            if let Some(mover) = sole_mover[node] {
                let mut mask = unseeing[node].unwrap_or(0);
                if let Some(p) = mover {
                    mask &= !(1u64 << p);
                }
                if mask != 0 {
                    hid[node] |= mask;
                    queue.push_back(node as NodeId);
                }
            }
        }
        while let Some(node) = queue.pop_front() {
            let mask = hid[node as usize];
            for edge in automaton.out_edges(node) {
                if self.assigns_player(&edge.label) {
                    continue;
                }
                let target = &mut hid[edge.target as usize];
                if *target | mask != *target {
                    *target |= mask;
                    queue.push_back(edge.target);
                }
            }
        }
        hid
    }

    /// How an edge changes the set of players whose `visible` may not be 1.
    fn visible_transfer(&self, mask: u64, label: &Label, layout: &Layout, one: Option<SymbolId>) -> u64 {
        let automaton = self.automaton;
        let (lhs, rhs) = match label {
            Label::Assign { lhs, rhs } => (lhs, Some(rhs)),
            Label::AssignAny { lhs, .. } => (lhs, None),
            _ => return mask,
        };
        if root_variable(lhs) != Some(automaton.visible_var) {
            return mask;
        }
        let rhs_is_one = rhs.and_then(|r| self.places.constant_symbol(r)).is_some_and(|s| Some(s) == one);
        match lhs {
            Expr::Var(_) => {
                // The whole map: read it from a constant when possible.
                let Some((offset, ty)) = rhs.and_then(|r| self.places.constant_place(r)) else { return self.everyone };
                let Type::Map { key: key_ty, .. } = automaton.types[ty as usize] else { return self.everyone };
                let key_count = self.places.key_count(key_ty);
                let mut out = 0;
                for (p, &symbol) in automaton.players.iter().enumerate() {
                    let slot = offset + layout.block_of(key_ty, symbol, key_count);
                    if Some(layout.const_values[slot as usize]) != one {
                        out |= 1 << p;
                    }
                }
                out
            }
            Expr::Access { key, .. } => {
                match self.places.constant_symbol(key).and_then(|s| automaton.player_index(s)) {
                    Some(p) if rhs_is_one => mask & !(1u64 << p),
                    Some(p) => mask | (1u64 << p),
                    // An unknown entry set to 1 clears nobody for certain.
                    None if rhs_is_one => mask,
                    None => self.everyone,
                }
            }
            _ => self.everyone,
        }
    }

    fn taint_of(&self, state: &[u64], ranges: &[Range]) -> u64 {
        ranges
            .iter()
            .fold(0, |acc, r| acc | state[r.start as usize..(r.start + r.len) as usize].iter().fold(0, |a, &m| a | m))
    }

    /// The ranges read anywhere below a reachability check's source node.
    fn reach_reads(&mut self, from: NodeId) -> Vec<Range> {
        if let Some(reads) = &self.reach_reads[from as usize] {
            return reads.clone();
        }
        let automaton = self.automaton;
        let mut seen = vec![false; automaton.nodes.len()];
        let mut stack = vec![from];
        seen[from as usize] = true;
        let mut reads = Vec::new();
        while let Some(node) = stack.pop() {
            for edge in automaton.out_edges(node) {
                self.label_reads(&edge.label, &mut reads, &mut Vec::new());
                if let Label::Reach { from: inner, .. } = edge.label {
                    if !seen[inner as usize] {
                        seen[inner as usize] = true;
                        stack.push(inner);
                    }
                }
                if !seen[edge.target as usize] {
                    seen[edge.target as usize] = true;
                    stack.push(edge.target);
                }
            }
        }
        reads.sort_unstable_by_key(|r| (r.start, r.len));
        reads.dedup_by_key(|r| (r.start, r.len));
        self.reach_reads[from as usize] = Some(reads.clone());
        reads
    }

    /// The ranges a label reads directly, plus the reachability sources it consults.
    fn label_reads(&self, label: &Label, out: &mut Vec<Range>, reach_sources: &mut Vec<NodeId>) {
        match label {
            Label::Assign { lhs, rhs } => {
                self.places.reads(rhs, out);
                self.places.key_reads(lhs, out);
            }
            Label::AssignAny { lhs, .. } => self.places.key_reads(lhs, out),
            Label::Compare { lhs, rhs, .. } => {
                self.places.reads(lhs, out);
                self.places.reads(rhs, out);
            }
            Label::TagExpr(expr) => self.places.reads(expr, out),
            Label::Reach { from, .. } => reach_sources.push(*from),
            Label::Skip | Label::Tag(_) => {}
        }
    }

    /// Step 2 for one edge: the taint after it.
    fn transfer(&mut self, state: &[u64], source: NodeId, label: &Label) -> Option<Vec<u64>> {
        let pc = self.hid[source as usize] | self.implicit[source as usize];
        let (lhs, explicit) = match label {
            Label::Assign { lhs, rhs } => {
                if *lhs == Expr::Var(self.automaton.player_var) {
                    return None;
                }
                let mut reads = Vec::new();
                self.places.reads(rhs, &mut reads);
                self.places.key_reads(lhs, &mut reads);
                (lhs, self.taint_of(state, &reads))
            }
            Label::AssignAny { lhs, .. } => {
                if *lhs == Expr::Var(self.automaton.player_var) {
                    return None;
                }
                let mut reads = Vec::new();
                self.places.key_reads(lhs, &mut reads);
                (lhs, self.taint_of(state, &reads))
            }
            Label::TagExpr(expr) => {
                // Whoever sees this move learns the tag's value.
                let (range, _) = self.places.state_range(expr)?;
                let seers = self.everyone & !self.hid[source as usize];
                if !range.precise || seers == 0 {
                    return None;
                }
                let mut out = state.to_vec();
                for mask in &mut out[range.start as usize..(range.start + range.len) as usize] {
                    *mask &= !seers;
                }
                return Some(out);
            }
            _ => return None,
        };
        let (range, _) = self.places.state_range(lhs)?;
        let taint = explicit | pc;
        let mut out = state.to_vec();
        for mask in &mut out[range.start as usize..(range.start + range.len) as usize] {
            if range.precise {
                *mask = taint;
            } else {
                *mask |= taint;
            }
        }
        Some(out)
    }

    /// Step 2 to a fixed point from the queued nodes.
    fn propagate(&mut self, mut queue: VecDeque<NodeId>, queued: &mut [bool]) {
        let automaton = self.automaton;
        while let Some(node) = queue.pop_front() {
            queued[node as usize] = false;
            let Some(state) = self.taint[node as usize].clone() else { continue };
            for edge in automaton.out_edges(node) {
                let changed = self.transfer(&state, node, &edge.label);
                let out = changed.as_deref().unwrap_or(&state);
                let target = edge.target as usize;
                let grew = match &mut self.taint[target] {
                    slot @ None => {
                        *slot = Some(out.to_vec());
                        true
                    }
                    Some(existing) => {
                        let mut grew = false;
                        for (e, &o) in existing.iter_mut().zip(out) {
                            if *e | o != *e {
                                *e |= o;
                                grew = true;
                            }
                        }
                        grew
                    }
                };
                if grew && !queued[target] {
                    queued[target] = true;
                    queue.push_back(edge.target);
                }
            }
        }
    }

    /// Step 3: the secret branches under the current taint, spread over their regions.
    fn implicit_flows(&mut self) -> Vec<u64> {
        let automaton = self.automaton;
        let node_count = automaton.nodes.len();
        let mut implicit = vec![0u64; node_count];
        for branch in 0..node_count as NodeId {
            let edges = automaton.out_edges(branch);
            if edges.len() < 2 {
                continue;
            }
            let Some(state) = self.taint[branch as usize].clone() else { continue };
            let mut reads = Vec::new();
            let mut sources = Vec::new();
            for edge in edges {
                match &edge.label {
                    Label::Compare { .. } | Label::Reach { .. } => {
                        self.label_reads(&edge.label, &mut reads, &mut sources)
                    }
                    _ => {}
                }
            }
            for from in sources {
                reads.extend(self.reach_reads(from));
            }
            let secret = (self.taint_of(&state, &reads) | self.hid[branch as usize]) & self.everyone;
            if secret == 0 {
                continue;
            }
            // Every node on a path from the branch to its immediate post-dominator.
            let stop = self.post_dominator[branch as usize];
            let mut seen = vec![false; node_count];
            let mut stack: Vec<NodeId> = edges.iter().map(|e| e.target).collect();
            while let Some(node) = stack.pop() {
                if node == stop || seen[node as usize] {
                    continue;
                }
                seen[node as usize] = true;
                implicit[node as usize] |= secret;
                stack.extend(automaton.out_edges(node).iter().map(|e| e.target));
            }
        }
        implicit
    }

    fn run(mut self, resting: &[bool]) -> Hidden {
        let automaton = self.automaton;
        let node_count = automaton.nodes.len();
        let state_len = self.places.layout.state_len;
        self.taint[automaton.begin as usize] = Some(vec![0; state_len]);
        let mut queued = vec![false; node_count];
        queued[automaton.begin as usize] = true;
        self.propagate(VecDeque::from([automaton.begin]), &mut queued);
        loop {
            let implicit = self.implicit_flows();
            let mut queue = VecDeque::new();
            for node in 0..node_count {
                let merged = self.implicit[node] | implicit[node];
                if merged != self.implicit[node] {
                    self.implicit[node] = merged;
                    // The node's own edges now carry more taint.
                    if self.taint[node].is_some() && !queued[node] {
                        queued[node] = true;
                        queue.push_back(node as NodeId);
                    }
                }
            }
            if queue.is_empty() {
                break;
            }
            self.propagate(queue, &mut queued);
        }
        let player_slot = self.player_slot as usize;
        let everyone = self.everyone;
        let slots = (0..node_count)
            .map(|n| {
                if !resting[n] {
                    return Vec::new();
                }
                let mut masks = self.taint[n].take().unwrap_or_else(|| vec![everyone; state_len]);
                // Whose turn it is is always known (observations name every mover).
                masks[player_slot] = 0;
                masks
            })
            .collect();
        Hidden { slots, nodes: self.implicit }
    }
}

/// Immediate post-dominators, with a virtual exit (index `node_count`) after every node without
/// out-edges; nodes that cannot reach the exit get the exit.
fn post_dominators(automaton: &Automaton) -> Vec<u32> {
    let node_count = automaton.nodes.len();
    let exit = node_count as u32;
    // Predecessors in the reversed graph are the original successors.
    let mut reverse_successors: Vec<Vec<u32>> = vec![Vec::new(); node_count + 1];
    for edge in &automaton.edges {
        reverse_successors[edge.target as usize].push(edge.source);
    }
    for node in 0..node_count {
        if automaton.out_edges(node as NodeId).is_empty() {
            reverse_successors[node_count].push(node as u32);
        }
    }
    // Post-order of the reversed graph from the exit.
    let mut order = vec![u32::MAX; node_count + 1];
    let mut postorder = Vec::with_capacity(node_count + 1);
    let mut visited = vec![false; node_count + 1];
    let mut stack: Vec<(u32, usize)> = vec![(exit, 0)];
    visited[exit as usize] = true;
    while let Some((node, i)) = stack.pop() {
        if let Some(&next) = reverse_successors[node as usize].get(i) {
            stack.push((node, i + 1));
            if !visited[next as usize] {
                visited[next as usize] = true;
                stack.push((next, 0));
            }
        } else {
            order[node as usize] = postorder.len() as u32;
            postorder.push(node);
        }
    }
    let undefined = u32::MAX;
    let mut idom = vec![undefined; node_count + 1];
    idom[exit as usize] = exit;
    let intersect = |idom: &[u32], mut a: u32, mut b: u32| {
        while a != b {
            while order[a as usize] < order[b as usize] {
                a = idom[a as usize];
            }
            while order[b as usize] < order[a as usize] {
                b = idom[b as usize];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &node in postorder.iter().rev() {
            if node == exit {
                continue;
            }
            // Predecessors in the reversed graph: the node's successors (and the exit for sinks).
            let edges = automaton.out_edges(node);
            let mut predecessors: Vec<u32> = edges.iter().map(|e| e.target).collect();
            if edges.is_empty() {
                predecessors.push(exit);
            }
            let mut new = undefined;
            for p in predecessors {
                if idom[p as usize] == undefined {
                    continue;
                }
                new = if new == undefined { p } else { intersect(&idom, p, new) };
            }
            if new != undefined && idom[node as usize] != new {
                idom[node as usize] = new;
                changed = true;
            }
        }
    }
    idom.truncate(node_count);
    idom.into_iter().map(|d| if d == undefined { exit } else { d }).collect()
}
