//! `defer_move_tails`: the unconditional tail of a player's move — a chain of assignments after
//! its last tag and before its `player = keeper` — moves into the keeper's move that follows, so
//! the move search stops after the last tag instead of running the tail once per legal move.
//! Preserves the legal moves (tags, order, errors), keeper behaviour, visibility, scores and every
//! state after the keeper's moves; only the raw state between a move and the keeper's move differs.
//!
//! A tail qualifies when its edges are skips and assignments that cannot fail (every key inside
//! its map's domain), write no runtime variable (`player`, `goals`, `visible`) and read no
//! `player`; its inner nodes have one in-edge and one out-edge; it ends with `player = keeper` into
//! a node nothing else enters (not `end`). The edge into its first node becomes `player = keeper`
//! into a fresh state node, from which the keeper runs the tail; the old `player = keeper` becomes
//! a skip, so the keeper still makes one move.
//!
//! Moves stay distinct: two paths of one search with the same tags reach the tail's head with
//! states that differ only in variables written between the state node and the head (`M`). The
//! tail writes variables `W`; where a variable is in both, the tail must first copy it whole
//! (`u = v`, `u` outside `M` and not written again by the tail), or write it only at entries every
//! path to the head has seen hold one constant, so the successor still tells the two apart and no
//! new "ambiguous move" error appears. Tails in `random`'s or the keeper's own moves stay.

use super::env::{strip_casts, Env, Value};
use super::graph::{assigned_root, assigns_player, derived_key, expr_idents, Automaton, END, RESERVED_VARIABLES};
use super::value_sets::ValueSets;
use crate::rg::ast::{Expr, Ident, Label, TypeExpr};
use petgraph::stable_graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use std::collections::{BTreeSet, HashMap, HashSet};

pub fn run(automaton: &mut Automaton) -> usize {
    let ends: Vec<EdgeIndex> =
        automaton.edges_in_order().into_iter().filter(|&edge| assigns_player(automaton.label(edge))).collect();
    if ends.is_empty() {
        return 0;
    }
    let env = Env::new(automaton);
    let value_sets = ValueSets::new(automaton, &env);
    let keeper = Value::Symbol("keeper".to_string());
    let players: HashSet<Value> = env
        .set_members(&TypeExpr::Name(Ident::synthetic("Player")))
        .unwrap_or_default()
        .into_iter()
        .map(Value::Symbol)
        .collect();
    // Computed once per run (per tail it made the pass quadratic on big games): deferring moves
    // assignments and copies nodes under fresh names, so no protected node goes or comes.
    let protected = automaton.protected_nodes();
    let mut changes = 0;
    for end in ends {
        let Some(tail) = find_tail(automaton, &env, &value_sets, &keeper, &protected, end) else {
            continue;
        };
        if !moves_stay_distinct(automaton, &env, &value_sets, &players, &tail) {
            continue;
        }
        defer(automaton, end, &tail);
        changes += 1;
    }
    changes + defer_branching_tails(automaton, &players)
}

/// A deferrable tail: its head (the node before its first edge) and its edges in path order.
struct Tail {
    head: NodeIndex,
    edges: Vec<EdgeIndex>,
}

/// The tail ending with `end` (a `player = keeper` edge), if there is one worth deferring.
fn find_tail(
    automaton: &Automaton,
    env: &Env,
    value_sets: &ValueSets,
    keeper: &Value,
    protected: &HashSet<NodeIndex>,
    end: EdgeIndex,
) -> Option<Tail> {
    let Label::Assign { rhs, .. } = automaton.label(end) else {
        return None;
    };
    if env.fold(rhs, &HashMap::new()).as_ref() != Some(keeper) {
        return None;
    }
    let (last, target) = automaton.endpoints(end);
    let single_in = |node: NodeIndex| automaton.graph.edges_directed(node, Direction::Incoming).count() == 1;
    let single_out = |node: NodeIndex| automaton.graph.edges_directed(node, Direction::Outgoing).count() == 1;
    if automaton.name(target) == END || protected.contains(&target) || !single_in(target) {
        return None;
    }
    let mut edges = Vec::new();
    let mut seen = HashSet::new();
    let mut node = last;
    while seen.insert(node) && !protected.contains(&node) && single_in(node) && single_out(node) {
        let edge = automaton.graph.edges_directed(node, Direction::Incoming).next().map(|e| e.id())?;
        if !deferrable(automaton.label(edge), env, value_sets) {
            break;
        }
        edges.push(edge);
        node = automaton.endpoints(edge).0;
    }
    edges.reverse();
    let assigns = edges.iter().filter(|&&edge| matches!(automaton.label(edge), Label::Assign { .. })).count();
    // The walk cannot come back to a tail node: the only way round passes `end`, which ends it.
    if assigns == 0 || automaton.is_named_by_pragma(node) {
        return None;
    }
    Some(Tail { head: node, edges })
}

/// Skips, and assignments that cannot fail, write no runtime variable and read no `player`.
fn deferrable(label: &Label, env: &Env, value_sets: &ValueSets) -> bool {
    match label {
        Label::Skip => true,
        Label::Assign { lhs, rhs } => {
            let Some(root) = assigned_root(lhs) else {
                return false;
            };
            let mut read = Vec::new();
            expr_idents(rhs, &mut read);
            key_idents(lhs, &mut read);
            !RESERVED_VARIABLES.contains(&root)
                && env.is_variable(root)
                && value_sets.assignment_target_always_in_domain(lhs)
                && !read.contains(&"player")
        }
        _ => false,
    }
}

/// The identifiers an assignment target reads (its keys), not its root variable.
fn key_idents<'a>(lhs: &'a Expr, out: &mut Vec<&'a str>) {
    match lhs {
        Expr::Ident(_) => {}
        Expr::Cast { expr, .. } => key_idents(expr, out),
        Expr::Access { map, key, .. } => {
            key_idents(map, out);
            expr_idents(key, out);
        }
    }
}

/// Whether the tail sits in a real player's move and maps the distinct states one search can
/// bring to its head to distinct states (see the module comment).
fn moves_stay_distinct(
    automaton: &Automaton,
    env: &Env,
    value_sets: &ValueSets,
    players: &HashSet<Value>,
    tail: &Tail,
) -> bool {
    let Some(move_writes) = writes_before(automaton, value_sets, players, tail.head) else {
        return false;
    };
    let labels: Vec<&Label> = tail.edges.iter().map(|&edge| automaton.label(edge)).collect();
    let written_at = |variable: &str| -> Vec<usize> {
        labels
            .iter()
            .enumerate()
            .filter(|(_, label)| matches!(label, Label::Assign { lhs, .. } if assigned_root(lhs) == Some(variable)))
            .map(|(index, _)| index)
            .collect()
    };
    let tail_writes: BTreeSet<&str> = labels
        .iter()
        .filter_map(|label| match label {
            Label::Assign { lhs, .. } => assigned_root(lhs),
            _ => None,
        })
        .collect();
    tail_writes.iter().filter(|variable| move_writes.contains(**variable)).all(|&variable| {
        let first_write = written_at(variable).into_iter().min().unwrap_or(usize::MAX);
        // A whole copy `copy = variable` before any write to `variable` keeps its old value.
        let copied = labels.iter().enumerate().take(first_write).any(|(index, label)| match label {
            Label::Assign { lhs: Expr::Ident(copy), rhs } => {
                matches!(strip_casts(rhs), Expr::Ident(source) if source.name == variable)
                    && !move_writes.contains(copy.name.as_str())
                    && written_at(&copy.name).into_iter().all(|at| at == index)
            }
            _ => false,
        });
        // Or every write is `variable[k] = e` at an entry every path to the head has seen hold
        // one known value (amazons' `board[shot] == empty` before `board[shot] = arrow`), with
        // keys the tail does not change: the overwritten entry was the same in every state.
        copied
            || written_at(variable).into_iter().all(|index| match labels[index] {
                Label::Assign { lhs, .. } => {
                    let mut keys = Vec::new();
                    key_idents(lhs, &mut keys);
                    matches!(strip_casts(lhs), Expr::Access { .. })
                        && keys.iter().all(|key| !tail_writes.contains(key))
                        && entry_known_at(automaton, env, strip_casts(lhs), variable, &keys, tail.head)
                }
                _ => false,
            })
    })
}

/// What a backward walk does at an in-edge: stop there (do not walk past it), walk on to its
/// source, or give up.
enum Back {
    Stop,
    Continue,
    Abort,
}

/// Walks the in-edges backwards from `head`, each source once, asking `at` what to do with each
/// edge; false when `at` aborts or the walk reaches a node without in-edges (`begin`, or a node
/// only checks start from) before stopping on every path.
fn walk_back(automaton: &Automaton, head: NodeIndex, mut at: impl FnMut(&Label) -> Back) -> bool {
    let mut seen = HashSet::from([head]);
    let mut stack = vec![head];
    while let Some(node) = stack.pop() {
        let mut entered = false;
        for edge in automaton.graph.edges_directed(node, Direction::Incoming) {
            entered = true;
            match at(&edge.weight().label) {
                Back::Stop => continue,
                Back::Abort => return false,
                Back::Continue => {}
            }
            if seen.insert(edge.source()) {
                stack.push(edge.source());
            }
        }
        if !entered {
            return false;
        }
    }
    true
}

/// Whether every path from a state node to `head` passes a comparison `entry == c` (one constant
/// `c` for all paths) after which neither the map nor a variable in the entry's keys is written.
fn entry_known_at(automaton: &Automaton, env: &Env, entry: &Expr, map: &str, keys: &[&str], head: NodeIndex) -> bool {
    let mut known: Option<Value> = None;
    let complete = walk_back(automaton, head, |label| match label {
        Label::Compare { lhs, rhs, negated: false } => {
            let constant = if strip_casts(lhs) == entry {
                env.fold(rhs, &HashMap::new())
            } else if strip_casts(rhs) == entry {
                env.fold(lhs, &HashMap::new())
            } else {
                None
            };
            match constant {
                Some(constant) if known.get_or_insert_with(|| constant.clone()) != &constant => Back::Abort,
                Some(_) => Back::Stop,
                None => Back::Continue,
            }
        }
        Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => {
            let root = assigned_root(lhs).unwrap_or_default();
            if root == "player" || root == map || keys.contains(&root) {
                Back::Abort
            } else {
                Back::Continue
            }
        }
        _ => Back::Continue,
    });
    complete && known.is_some()
}

/// The variables written on paths from a state node to `head` that end no move, when every such
/// state node is entered by a real player's turn (not the keeper's, not `random`'s); `None` when
/// some is not, or when `head` can be reached other than from a state node (inside a check).
fn writes_before(
    automaton: &Automaton,
    value_sets: &ValueSets,
    players: &HashSet<Value>,
    head: NodeIndex,
) -> Option<HashSet<String>> {
    let mut writes = HashSet::new();
    let complete = walk_back(automaton, head, |label| match label {
        Label::Assign { lhs, rhs } if assigned_root(lhs) == Some("player") => match value_sets.values(rhs) {
            Some(movers) if movers.iter().all(|mover| players.contains(mover)) => Back::Stop,
            _ => Back::Abort,
        },
        Label::AssignAny { lhs, .. } if assigned_root(lhs) == Some("player") => Back::Abort,
        Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => {
            writes.extend(assigned_root(lhs).map(str::to_string));
            Back::Continue
        }
        _ => Back::Continue,
    });
    complete.then_some(writes)
}

/// The most nodes a branching tail may have (it is copied where other paths share it).
const MAX_REGION_NODES: usize = 64;

/// A tail that branches or joins other paths: every node reachable from `head` (a tag edge's
/// target) up to `player = keeper` edges, in discovery order (`head` first).
struct Region {
    head: NodeIndex,
    nodes: Vec<NodeIndex>,
}

/// Defers the tails the chain walk of [`find_tail`] cannot take: after a tag, a DAG of skips,
/// safe assignments and complementary guard pairs (`e == f` / `e != f`: exactly one holds, so the
/// keeper still makes exactly one move), whose nodes other paths may share (draughts' man and
/// king steps and its captures meet at `quiet = Q__0` before `player = keeper`). Shared nodes are
/// copied for the deferred path; the other paths keep the originals.
fn defer_branching_tails(automaton: &mut Automaton, players: &HashSet<Value>) -> usize {
    let env = Env::new(automaton);
    let value_sets = ValueSets::new(automaton, &env);
    let keeper = Value::Symbol("keeper".to_string());
    let protected = automaton.protected_nodes();
    let mut heads: Vec<NodeIndex> = Vec::new();
    let mut seen = HashSet::new();
    for edge in automaton.edges_in_order() {
        if matches!(automaton.label(edge), Label::Tag(_) | Label::TagVar(_)) {
            let head = automaton.endpoints(edge).1;
            if seen.insert(head) {
                heads.push(head);
            }
        }
    }
    let mut changes = 0;
    for head in heads {
        let Some(region) = find_region(automaton, &env, &value_sets, &keeper, &protected, head) else {
            continue;
        };
        if !region_moves_stay_distinct(automaton, &env, &value_sets, players, &region) {
            continue;
        }
        defer_region(automaton, &env, &keeper, &region);
        changes += 1;
    }
    changes
}

/// Whether `label` is `player = keeper`.
fn is_keeper_end(label: &Label, env: &Env, keeper: &Value) -> bool {
    matches!(label, Label::Assign { lhs: Expr::Ident(target), rhs }
        if target.name == "player" && env.fold(rhs, &HashMap::new()).as_ref() == Some(keeper))
}

/// `e == f` and `e != f` on the same operands (either order) reading no `player`: exactly one holds.
fn complementary(first: &Label, second: &Label) -> bool {
    let (Label::Compare { lhs: l1, rhs: r1, negated: n1 }, Label::Compare { lhs: l2, rhs: r2, negated: n2 }) =
        (first, second)
    else {
        return false;
    };
    let mut read = Vec::new();
    expr_idents(l1, &mut read);
    expr_idents(r1, &mut read);
    n1 != n2 && ((l1 == l2 && r1 == r2) || (l1 == r2 && r1 == l2)) && !read.contains(&"player")
}

/// The region after `head` when it is a deferrable branching tail holding an assignment.
fn find_region(
    automaton: &Automaton,
    env: &Env,
    value_sets: &ValueSets,
    keeper: &Value,
    protected: &HashSet<NodeIndex>,
    head: NodeIndex,
) -> Option<Region> {
    let entered_by_player = |node: NodeIndex| {
        automaton.graph.edges_directed(node, Direction::Incoming).any(|edge| assigns_player(&edge.weight().label))
    };
    let mut nodes = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![head];
    let mut assigns = 0;
    while let Some(node) = stack.pop() {
        if !seen.insert(node) {
            continue;
        }
        if nodes.len() >= MAX_REGION_NODES
            || protected.contains(&node)
            || automaton.is_named_by_pragma(node)
            || entered_by_player(node)
        {
            return None;
        }
        nodes.push(node);
        let out = automaton.out_edges(node);
        match out.as_slice() {
            [edge] if is_keeper_end(automaton.label(*edge), env, keeper) => {
                let target = automaton.endpoints(*edge).1;
                let only_keeper_enters = automaton
                    .graph
                    .edges_directed(target, Direction::Incoming)
                    .all(|edge| is_keeper_end(&edge.weight().label, env, keeper));
                if automaton.name(target) == END || protected.contains(&target) || !only_keeper_enters {
                    return None;
                }
            }
            [edge] if deferrable(automaton.label(*edge), env, value_sets) => {
                assigns += usize::from(matches!(automaton.label(*edge), Label::Assign { .. }));
                stack.push(automaton.endpoints(*edge).1);
            }
            [first, second] if complementary(automaton.label(*first), automaton.label(*second)) => {
                // Pushed in reverse so discovery follows the search order.
                stack.push(automaton.endpoints(*second).1);
                stack.push(automaton.endpoints(*first).1);
            }
            _ => return None,
        }
    }
    if assigns == 0 || !acyclic(automaton, &nodes) {
        return None;
    }
    Some(Region { head, nodes })
}

/// Whether the edges between `nodes` form no cycle (Kahn's algorithm).
fn acyclic(automaton: &Automaton, nodes: &[NodeIndex]) -> bool {
    let inside: HashSet<NodeIndex> = nodes.iter().copied().collect();
    let mut in_degree: HashMap<NodeIndex, usize> = nodes.iter().map(|&node| (node, 0)).collect();
    for &node in nodes {
        for edge in automaton.graph.edges_directed(node, Direction::Outgoing) {
            if inside.contains(&edge.target()) {
                *in_degree.get_mut(&edge.target()).expect("inside") += 1;
            }
        }
    }
    let mut ready: Vec<NodeIndex> = nodes.iter().copied().filter(|node| in_degree[node] == 0).collect();
    let mut done = 0;
    while let Some(node) = ready.pop() {
        done += 1;
        for edge in automaton.graph.edges_directed(node, Direction::Outgoing) {
            if let Some(degree) = in_degree.get_mut(&edge.target()) {
                *degree -= 1;
                if *degree == 0 {
                    ready.push(edge.target());
                }
            }
        }
    }
    done == nodes.len()
}

/// [`moves_stay_distinct`] for a region: every variable both the move (before `head`) and the
/// region write is written in the region only at entries every path to `head` has seen hold one
/// constant, through keys the region does not write. Branches may write different entries, but
/// never one where two states reaching `head` differ, so those differences survive.
fn region_moves_stay_distinct(
    automaton: &Automaton,
    env: &Env,
    value_sets: &ValueSets,
    players: &HashSet<Value>,
    region: &Region,
) -> bool {
    let Some(move_writes) = writes_before(automaton, value_sets, players, region.head) else {
        return false;
    };
    let assignments: Vec<&Expr> = region
        .nodes
        .iter()
        .flat_map(|&node| automaton.graph.edges_directed(node, Direction::Outgoing))
        .filter_map(|edge| match &edge.weight().label {
            Label::Assign { lhs, .. } if assigned_root(lhs) != Some("player") => Some(lhs),
            _ => None,
        })
        .collect();
    let region_writes: HashSet<&str> = assignments.iter().filter_map(|lhs| assigned_root(lhs)).collect();
    assignments.iter().all(|lhs| {
        let Some(variable) = assigned_root(lhs) else {
            return false;
        };
        if !move_writes.contains(variable) {
            return true;
        }
        let mut keys = Vec::new();
        key_idents(lhs, &mut keys);
        matches!(strip_casts(lhs), Expr::Access { .. })
            && keys.iter().all(|key| !region_writes.contains(key))
            && entry_known_at(automaton, env, strip_casts(lhs), variable, &keys, region.head)
    })
}

/// Rewrites a region: `head`'s out-edges move to a fresh state node that `head` enters with
/// `player = keeper`; region nodes other paths also enter (and what follows them) are copied for
/// this path; the region's `player = keeper` edges become skips (the originals stay where the
/// other paths still use them).
fn defer_region(automaton: &mut Automaton, env: &Env, keeper: &Value, region: &Region) {
    let inside: HashSet<NodeIndex> = region.nodes.iter().copied().collect();
    let shared: Vec<NodeIndex> = region
        .nodes
        .iter()
        .copied()
        .filter(|&node| {
            node != region.head
                && automaton
                    .graph
                    .edges_directed(node, Direction::Incoming)
                    .any(|edge| !inside.contains(&edge.source()))
        })
        .collect();
    // Everything a shared node reaches inside the region is reachable from outside too.
    let mut copied: HashSet<NodeIndex> = HashSet::new();
    let mut stack = shared;
    while let Some(node) = stack.pop() {
        if copied.insert(node) {
            stack.extend(
                automaton
                    .graph
                    .edges_directed(node, Direction::Outgoing)
                    .map(|e| e.target())
                    .filter(|t| inside.contains(t)),
            );
        }
    }
    let head_edges = automaton.out_edges(region.head);
    let keeper_label = region
        .nodes
        .iter()
        .flat_map(|&node| automaton.out_edges(node))
        .map(|edge| automaton.label(edge).clone())
        .find(|label| is_keeper_end(label, env, keeper))
        .expect("a region ends with `player = keeper`");
    let fresh_name = automaton.fresh_name(&format!("{}__tail", automaton.name(region.head)));
    let fresh = automaton.node_or_insert(&fresh_name);
    let mut copies: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    for &node in &region.nodes {
        if copied.contains(&node) {
            let name = automaton.fresh_name(&format!("{}__tail", automaton.name(node)));
            copies.insert(node, automaton.node_or_insert(&name));
        }
    }
    let to_copy = |node: NodeIndex| copies.get(&node).copied().unwrap_or(node);
    let first_key = automaton.graph[head_edges[0]].key.clone();
    let first_span = automaton.graph[head_edges[0]].span;
    let skip_if_end = |automaton: &mut Automaton, edge: EdgeIndex| {
        if is_keeper_end(automaton.label(edge), env, keeper) {
            automaton.graph[edge].label = Label::Skip;
        }
    };
    for edge in head_edges {
        let target = automaton.endpoints(edge).1;
        let moved = automaton.reconnect(edge, fresh, to_copy(target));
        skip_if_end(automaton, moved);
    }
    automaton.add_edge(region.head, fresh, keeper_label, derived_key(&first_key, u32::MAX), first_span);
    let base = automaton.key_at_end();
    let mut rank = 0;
    for &node in &region.nodes {
        if node == region.head {
            continue;
        }
        for edge in automaton.out_edges(node) {
            let target = automaton.endpoints(edge).1;
            if let Some(&copy) = copies.get(&node) {
                let data = automaton.graph[edge].clone();
                let mut key = base.clone();
                key.push(rank);
                rank += 1;
                let added = automaton.add_edge(copy, to_copy(target), data.label, key, data.span);
                skip_if_end(automaton, added);
            } else {
                let kept = automaton.reconnect(edge, node, to_copy(target));
                skip_if_end(automaton, kept);
            }
        }
    }
}

/// Rewrites `head -a1-> n1 ... -> last -[player = keeper]-> target` into
/// `head -[player = keeper]-> fresh -a1-> n1 ... -> last -[skip]-> target`.
fn defer(automaton: &mut Automaton, end: EdgeIndex, tail: &Tail) {
    let first = tail.edges[0];
    let (head, next) = automaton.endpoints(first);
    let data = automaton.graph[first].clone();
    let keeper_label = automaton.label(end).clone();
    let fresh = automaton.fresh_name(&format!("{}__tail", automaton.name(head)));
    let state = automaton.node_or_insert(&fresh);
    automaton.graph.remove_edge(first);
    let end_span = automaton.graph[end].span;
    automaton.add_edge(head, state, keeper_label, data.key.clone(), end_span);
    automaton.add_edge(state, next, data.label, derived_key(&data.key, 0), data.span);
    automaton.graph[end].label = Label::Skip;
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{run_pass, Pass};

    #[test]
    fn assignments_after_the_last_tag_move_to_the_keeper() {
        let game = parse(
            "type Player = {x, o}; type Score = {0}; type Cell = {a, b};
             var board: Cell -> Cell = {:a}; var cell: Cell = a; var last: Cell = a;
             begin, start: ;
             start, turn: player = x;
             turn, t1: cell = Cell(*);
             t1, t2: board[cell] == a;
             t2, t3: $$ cell;
             t3, t4: board[cell] = b;
             t4, t5: last = cell;
             t5, t6: player = keeper;
             t6, start: board[a] == a;
             t6, end: board[a] == b;",
        );
        let (game, changes) = run_pass(&game, Pass::DeferMoveTails);
        assert_eq!(changes, 1);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn branching_tails_that_join_other_paths_are_copied() {
        // After `$$ to` the tail writes the board, then branches on a complementary guard pair
        // into `reset`, which the `jump` move also enters: the step's tail moves to the keeper
        // through copies of `reset` and `done`; the jump keeps the originals (and its own tail:
        // `judge` is now also entered by the copy's skip, which the region rules turn down).
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b}; type Mark = {empty, man, king};
             type Count = {c0, c1}; const tick: Count -> Count = {c0: c1, :c1};
             const crowned: Cell -> Mark = {b: king, :man};
             var board: Cell -> Mark = {a: man, :empty}; var to: Cell = a; var quiet: Count = c0;
             begin, start: ;
             start, turn: player = x;
             turn, s1: to = Cell(*);
             s1, s2: board[to] == empty;
             s2, s3: $$ to;
             s3, s4: board[to] = crowned[to];
             s4, reset: crowned[to] == king;
             s4, s5: crowned[to] != king;
             s5, done: quiet = tick[quiet];
             turn, j1: $ jump;
             j1, reset: board[a] = empty;
             reset, done: quiet = c0;
             done, judge: player = keeper;
             judge, start: quiet == c0;
             judge, end: quiet == c1;",
        );
        let (game, changes) = run_pass(&game, Pass::DeferMoveTails);
        assert_eq!(changes, 1);
        insta::assert_snapshot!(print(&game));
    }

    #[test]
    fn branching_tails_that_could_strand_the_keeper_stay() {
        // `board[to] == king` alone may fail: deferring it would leave the keeper without a move.
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b}; type Mark = {empty, king};
             var board: Cell -> Mark = {:empty}; var to: Cell = a;
             begin, start: ;
             start, turn: player = x;
             turn, s1: to = Cell(*);
             s1, s2: $$ to;
             s2, s3: board[b] = king;
             s3, s4: board[to] == king;
             s3, s5: board[to] == empty;
             s4, s5: board[a] = king;
             s5, judge: player = keeper;
             judge, start: ;",
        );
        let (_, changes) = run_pass(&game, Pass::DeferMoveTails);
        assert_eq!(changes, 0);
    }

    #[test]
    fn tails_that_would_merge_moves_or_may_fail_stay() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b}; type Wide = {a, b, c};
             var board: Cell -> Cell = {:a}; var cell: Cell = a; var wide: Wide = a; var kept: Cell = a;
             begin, start: ;
             start, turn: player = x;
             turn, m1: cell = Cell(*);
             m1, m2: $ one;
             m2, m3: cell = a;
             m3, m4: player = keeper;
             m4, start: ;
             turn, w1: wide = Wide(*);
             w1, w2: $ two;
             w2, w3: board[Cell(wide)] = b;
             w3, w4: player = keeper;
             w4, start: ;
             turn, c1: $ three;
             c1, c2: board[a] = b;
             c2, c3: player = keeper;
             c3, end: player = keeper;
             turn, k1: $ four;
             k1, k2: player = keeper;
             k2, k3: kept = b;
             k3, k4: player = keeper;
             k4, start: ;",
        );
        let (game, changes) = run_pass(&game, Pass::DeferMoveTails);
        // `cell = a` would leave the two `one` paths (cell a, cell b) distinct states before the
        // keeper, an ambiguous move; `board[Cell(wide)]` may fail for `c`; `kept = b` is already
        // the keeper's. Only `three`'s tail moves (its keeper then goes on to `end`).
        assert_eq!(changes, 1);
        let printed = print(&game);
        assert!(printed.contains("m2, m3: cell = a;") && printed.contains("w2, w3: board[Cell(wide)] = b;"));
        assert!(printed.contains("k2, k3: kept = b;"), "{printed}");
        assert!(printed.contains("c1, c1__tail: player = keeper;"), "{printed}");
    }

    #[test]
    fn overwritten_entries_need_a_guard_on_every_path() {
        let game = parse(
            "type Player = {x}; type Score = {0}; type Cell = {a, b}; type Mark = {empty, x};
             var board: Cell -> Mark = {:empty}; var from: Cell = a; var shot: Cell = a;
             begin, start: ;
             start, turn: player = x;
             turn, t1: from = Cell(*);
             t1, t2: board[from] == empty;
             t2, t3: board[from] = x;
             t3, t4: shot = Cell(*);
             t4, t5: board[shot] == empty;
             t5, t6: $$ shot;
             t6, t7: board[shot] = x;
             t7, t8: player = keeper;
             t8, start: ;
             turn, v1: from = Cell(*);
             v1, v2: board[from] == empty;
             v2, v3: board[b] = x;
             v3, v4: $$ from;
             v4, v5: board[from] = x;
             v5, v6: player = keeper;
             v6, start: ;",
        );
        let (game, changes) = run_pass(&game, Pass::DeferMoveTails);
        // The move writes `board` before both tails. `board[shot]` was seen empty on the way, so
        // the overwritten entry is the same in every state; `board[from]` was not (`board[b] = x`
        // came after its guard, and `from` may be `b`).
        assert_eq!(changes, 1);
        let printed = print(&game);
        assert!(
            printed.contains("t6, t6__tail: player = keeper;") && printed.contains("t6__tail, t7: board[shot] = x;")
        );
        assert!(
            printed.contains("v4, v5: board[from] = x;") && printed.contains("v5, v6: player = keeper;"),
            "{printed}"
        );
    }
}
