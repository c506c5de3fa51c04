//! `merge_player_twins`: two copies of one subgraph that differ only by swapping the two players'
//! symbols (what a front end makes of `turn(red); turn(yellow)`) become one copy that reads the
//! player from a new variable. Not in [`super::Pass::ALL`]: the code generator runs it on the
//! optimised automaton (`codegen::optimized_automaton`), because a compiled model's playout loop
//! dispatches on the node, and two start nodes taken in turn make every dispatch alternate.
//!
//! Shape: `Player` has exactly two members `p0`, `p1`; σ swaps them in every identifier of a label.
//! A pairing φ (an involution on nodes) is grown from a seed pair `(a, b)`: the i-th out-edge of
//! `a` (by order key) and the i-th of `b` have labels equal up to σ (reachability checks' nodes
//! paired by φ too), and their targets are paired in turn; a target both copies share is a fixed
//! point ("shared", left alone). Every node reachable from `begin` is then oriented: the first of
//! a pair met breadth-first is the A side, its twin the B side.
//!
//! Rewrite: a new variable `me: Player = p0` and constant `other = {p0: p1, :p0}`. Each A node
//! stands for itself with `me == p0` and for its twin with `me == p1`: its out-edge labels get
//! `p0 -> me`, `p1 -> other[me]`, so with `me == p1` they read exactly σ of the label, which is
//! the twin's label. An A-to-B edge runs its label so rewritten, then flips `me = other[me]`
//! (a node's tests stay side by side, so `@disjoint` and the keeper's single path survive); after
//! a `player` write the flip comes first instead (the node reached is a start) and the label is
//! rewritten for the target side (`p1 -> me`, `p0 -> other[me]`). An edge from a shared node into
//! a copy also sets `me` to that side's player. B nodes and their out-edges go. Exact (a bisimulation):
//! an original state at an A node maps to the same state plus `me = p0`, at a B node to its twin
//! plus `me = p1`; every original edge maps to a path with the same effect on the old variables,
//! the same tags in the same order, and each merged node's out-edges are exactly the
//! represented node's, in the same order (so moves are listed in the same order too).
//!
//! Not taken: a pairing without a move listing's start (a node entered by `player = p0`), a `$ p0`
//! tag (a tag must be a symbol), a player looked up in a constant map while moves are listed (see
//! [`keys_constant_by_player`]), a cast to a differing type, a reachability
//! check whose start lies on the other side than the `me` it would run with, a pair including
//! `begin` or a node a pragma other than `@disjoint`/`@unique` names (those two are recomputed:
//! they are dropped here), or games without exactly two players. Cost: labels are hashed once; at
//! most [`MAX_SEEDS`] seeds are grown, each in time linear in the copy it covers.

use super::graph::{assigns_player, derived_key, Automaton, OrderKey, BEGIN};
use crate::rg::ast::{Constant, Decl, Expr, Ident, Label, Span, TypeExpr, ValueExpr, Variable};
use petgraph::stable_graph::NodeIndex;
use std::collections::{HashMap, HashSet, VecDeque};

/// Seeds tried before giving up; the largest pairing found is taken.
const MAX_SEEDS: usize = 64;

/// Runs the merge once; returns 1 when two twins were merged, 0 otherwise.
pub fn run(automaton: &mut Automaton) -> usize {
    let Some(players) = two_players(automaton) else { return 0 };
    let Some(pairing) = best_pairing(automaton, &players) else { return 0 };
    let Some(sides) = orient(automaton, &pairing) else { return 0 };
    if rewrite(automaton, &players, &pairing, &sides) {
        1
    } else {
        0
    }
}

/// The two members of `type Player`, if it has exactly two.
fn two_players(automaton: &Automaton) -> Option<[String; 2]> {
    let members = automaton.decls.iter().find_map(|(_, decl)| match decl {
        Decl::Type(typedef) if typedef.name.name == "Player" => match &typedef.ty {
            TypeExpr::Set { members, .. } => Some(members),
            _ => None,
        },
        _ => None,
    })?;
    match members.as_slice() {
        [p0, p1] => Some([p0.name.clone(), p1.name.clone()]),
        _ => None,
    }
}

/// σ: the players swapped, any other name kept.
fn swapped<'a>(name: &'a str, players: &'a [String; 2]) -> &'a str {
    if name == players[0] {
        &players[1]
    } else if name == players[1] {
        &players[0]
    } else {
        name
    }
}

/// A node's out-labels with reachability nodes blanked and σ applied or not: the key seeds are
/// looked up by.
fn label_key(label: &Label, players: &[String; 2], swap: bool) -> String {
    let mut label = label.clone();
    if let Label::Reach { from, to, .. } = &mut label {
        *from = Ident::synthetic("");
        *to = Ident::synthetic("");
    }
    // Spans show in `Debug` (not in equality): the rewrite drops them.
    label = map_label_idents(&label, &|name| if swap { swapped(name, players) } else { name }.to_string());
    if let Label::Tag(symbol) = &mut label {
        symbol.span = Span::default();
    }
    format!("{label:?}")
}

/// The expression with `map` applied to every identifier, spans dropped.
fn map_expr_idents(expr: &Expr, map: &dyn Fn(&str) -> String) -> Expr {
    match expr {
        Expr::Ident(ident) => Expr::Ident(Ident::synthetic(map(&ident.name))),
        Expr::Cast { ty, expr, .. } => Expr::Cast {
            ty: Ident::synthetic(ty.name.clone()),
            expr: Box::new(map_expr_idents(expr, map)),
            span: Span::default(),
        },
        Expr::Access { map: target, key, .. } => Expr::Access {
            map: Box::new(map_expr_idents(target, map)),
            key: Box::new(map_expr_idents(key, map)),
            span: Span::default(),
        },
    }
}

fn map_label_idents(label: &Label, map: &dyn Fn(&str) -> String) -> Label {
    match label {
        Label::Assign { lhs, rhs } => Label::Assign { lhs: map_expr_idents(lhs, map), rhs: map_expr_idents(rhs, map) },
        Label::AssignAny { lhs, ty } => {
            Label::AssignAny { lhs: map_expr_idents(lhs, map), ty: Ident::synthetic(ty.name.clone()) }
        }
        Label::Compare { lhs, rhs, negated } => {
            Label::Compare { lhs: map_expr_idents(lhs, map), rhs: map_expr_idents(rhs, map), negated: *negated }
        }
        Label::TagVar(expr) => Label::TagVar(map_expr_idents(expr, map)),
        Label::Skip | Label::Reach { .. } | Label::Tag(_) => label.clone(),
    }
}

/// Whether the label may take part in a twin at all (see the module doc).
fn mergeable(label: &Label, players: &[String; 2], constants: &HashSet<String>) -> bool {
    match label {
        Label::Tag(symbol) => !players.contains(&symbol.name),
        Label::AssignAny { ty, .. } => {
            !players.contains(&ty.name) && !keys_constant_by_player(label, players, constants)
        }
        _ => !keys_constant_by_player(label, players, constants),
    }
}

/// Whether the label looks a player symbol up in a constant map (`advance[white][course][from]`):
/// merged, that lookup would run with `me` as a key, where each twin had it folded to a table of
/// its own (breakthrough: +15 % instructions per playout with it merged).
fn keys_constant_by_player(label: &Label, players: &[String; 2], constants: &HashSet<String>) -> bool {
    fn root(expr: &Expr) -> &str {
        match expr {
            Expr::Ident(ident) => &ident.name,
            Expr::Cast { expr, .. } => root(expr),
            Expr::Access { map, .. } => root(map),
        }
    }
    fn walk(expr: &Expr, players: &[String; 2], constants: &HashSet<String>) -> bool {
        match expr {
            Expr::Ident(_) => false,
            Expr::Cast { expr, .. } => walk(expr, players, constants),
            Expr::Access { map, key, .. } => {
                let player_key = matches!(key.as_ref(), Expr::Ident(ident) if players.contains(&ident.name));
                (player_key && constants.contains(root(map)))
                    || walk(map, players, constants)
                    || walk(key, players, constants)
            }
        }
    }
    super::graph::label_exprs(label).into_iter().any(|expr| walk(expr, players, constants))
}

/// φ as a map holding both directions, and the shared targets met while growing it.
struct Pairing {
    twin: HashMap<NodeIndex, NodeIndex>,
}

/// Grows the pairing from each seed (nodes whose out-labels σ-map onto another node's and are not
/// σ-invariant) and keeps the largest.
fn best_pairing(automaton: &Automaton, players: &[String; 2]) -> Option<Pairing> {
    let mut nodes: Vec<NodeIndex> = automaton.graph.node_indices().collect();
    nodes.sort();
    let plain_key = |node: NodeIndex, swap: bool| -> String {
        automaton
            .out_edges(node)
            .iter()
            .map(|&edge| label_key(automaton.label(edge), players, swap))
            .collect::<Vec<_>>()
            .join("|")
    };
    let mut by_key: HashMap<String, Vec<NodeIndex>> = HashMap::new();
    for &node in &nodes {
        if !automaton.out_edges(node).is_empty() {
            by_key.entry(plain_key(node, false)).or_default().push(node);
        }
    }
    let mut best: Option<Pairing> = None;
    let mut tried = 0;
    for &node in &nodes {
        let plain = plain_key(node, false);
        let swapped_key = plain_key(node, true);
        if plain == swapped_key {
            continue;
        }
        for &twin in by_key.get(&swapped_key).into_iter().flatten() {
            if twin <= node {
                continue;
            }
            if tried == MAX_SEEDS {
                return best;
            }
            tried += 1;
            if let Some(pairing) = grow(automaton, players, node, twin) {
                if best.as_ref().is_none_or(|b| pairing.twin.len() > b.twin.len()) {
                    best = Some(pairing);
                }
            }
        }
    }
    best
}

/// The pairing closed under out-edges from `(a, b)`, or `None` where some pair does not match.
fn grow(automaton: &Automaton, players: &[String; 2], a: NodeIndex, b: NodeIndex) -> Option<Pairing> {
    let begin = automaton.node(BEGIN);
    let pinned: HashSet<NodeIndex> = pinned_nodes(automaton);
    let listing = listing_nodes(automaton, players);
    let constants: HashSet<String> = automaton
        .decls
        .iter()
        .filter_map(|(_, decl)| match decl {
            Decl::Const(constant) => Some(constant.name.name.clone()),
            _ => None,
        })
        .collect();
    let no_constants = HashSet::new();
    let mut twin: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    let mut shared: HashSet<NodeIndex> = HashSet::new();
    let mut work = vec![(a, b)];
    while let Some((x, y)) = work.pop() {
        if x == y {
            shared.insert(x);
            continue;
        }
        match (twin.get(&x), twin.get(&y)) {
            (Some(&tx), _) if tx == y => continue,
            (None, None) => {}
            _ => return None,
        }
        if Some(x) == begin || Some(y) == begin || pinned.contains(&x) || pinned.contains(&y) {
            return None;
        }
        twin.insert(x, y);
        twin.insert(y, x);
        let (xs, ys) = (automaton.out_edges(x), automaton.out_edges(y));
        if xs.len() != ys.len() {
            return None;
        }
        for (&ex, &ey) in xs.iter().zip(&ys) {
            let (lx, ly) = (automaton.label(ex), automaton.label(ey));
            let hot_constants = if listing.contains(&x) { &constants } else { &no_constants };
            if !mergeable(lx, players, hot_constants) {
                return None;
            }
            match (lx, ly) {
                (Label::Reach { from: fx, to: tx, negated: nx }, Label::Reach { from: fy, to: ty, negated: ny }) => {
                    if nx != ny {
                        return None;
                    }
                    for (p, q) in [(fx, fy), (tx, ty)] {
                        work.push((automaton.node(&p.name)?, automaton.node(&q.name)?));
                    }
                }
                _ => {
                    if map_label_idents(lx, &|name| swapped(name, players).to_string()) != *ly {
                        return None;
                    }
                }
            }
            work.push((automaton.endpoints(ex).1, automaton.endpoints(ey).1));
        }
    }
    if shared.iter().any(|node| twin.contains_key(node)) {
        return None;
    }
    // Worth it only where the players' move listings become one.
    if !twin.keys().any(|node| listing.contains(node) && is_start(automaton, *node, players)) {
        return None;
    }
    Some(Pairing { twin })
}

/// Whether an edge `player = p` with `p` a player enters the node: a start, where moves are listed.
fn is_start(automaton: &Automaton, node: NodeIndex, players: &[String; 2]) -> bool {
    automaton.in_edges(node).into_iter().any(|edge| match automaton.label(edge) {
        Label::Assign { lhs, rhs: Expr::Ident(value) } => {
            matches!(lhs, Expr::Ident(target) if target.name == "player") && players.contains(&value.name)
        }
        _ => false,
    })
}

/// The nodes of the players' move listings: reached from a start without writing `player`.
fn listing_nodes(automaton: &Automaton, players: &[String; 2]) -> HashSet<NodeIndex> {
    let mut listing: HashSet<NodeIndex> =
        automaton.graph.node_indices().filter(|&node| is_start(automaton, node, players)).collect();
    let mut work: Vec<NodeIndex> = listing.iter().copied().collect();
    while let Some(node) = work.pop() {
        for edge in automaton.out_edges(node) {
            let target = automaton.endpoints(edge).1;
            if !assigns_player(automaton.label(edge)) && listing.insert(target) {
                work.push(target);
            }
        }
    }
    listing
}

/// Nodes named by a pragma this pass cannot recompute.
fn pinned_nodes(automaton: &Automaton) -> HashSet<NodeIndex> {
    let mut pinned = HashSet::new();
    for (_, decl) in &automaton.decls {
        if let Decl::Pragma(pragma) = decl {
            if !recomputed_pragma(&pragma.name.name) {
                pinned.extend(pragma.tokens.iter().filter_map(|token| automaton.node(token)));
            }
        }
    }
    pinned
}

fn recomputed_pragma(name: &str) -> bool {
    matches!(name, "disjoint" | "unique")
}

/// Which side each paired node is on (`true`: A), breadth-first from `begin` over edges and
/// reachability starts; `None` when a paired node is never met.
fn orient(automaton: &Automaton, pairing: &Pairing) -> Option<HashMap<NodeIndex, bool>> {
    let begin = automaton.node(BEGIN)?;
    let mut sides: HashMap<NodeIndex, bool> = HashMap::new();
    let mut seen: HashSet<NodeIndex> = HashSet::from([begin]);
    let mut queue = VecDeque::from([begin]);
    while let Some(node) = queue.pop_front() {
        if let Some(&twin) = pairing.twin.get(&node) {
            if !sides.contains_key(&node) {
                sides.insert(node, true);
                sides.insert(twin, false);
            }
        }
        for edge in automaton.out_edges(node) {
            let mut next = vec![automaton.endpoints(edge).1];
            if let Label::Reach { from, .. } = automaton.label(edge) {
                next.extend(automaton.node(&from.name));
            }
            for target in next {
                if seen.insert(target) {
                    queue.push_back(target);
                }
            }
        }
    }
    (sides.len() == pairing.twin.len()).then_some(sides)
}

/// Where a node's state lives after the merge: a B node's twin, any other node itself.
fn representative(node: NodeIndex, pairing: &Pairing, sides: &HashMap<NodeIndex, bool>) -> NodeIndex {
    match sides.get(&node) {
        Some(false) => pairing.twin[&node],
        _ => node,
    }
}

/// The side (`Some(true)`: A) a reachability check in `label` starts on, `None` for shared.
fn reach_side(automaton: &Automaton, label: &Label, sides: &HashMap<NodeIndex, bool>) -> Option<Option<bool>> {
    match label {
        Label::Reach { from, .. } => Some(automaton.node(&from.name).and_then(|node| sides.get(&node).copied())),
        _ => None,
    }
}

/// Applies the merge; `false` (nothing changed) when a reachability check would run on the
/// wrong side.
fn rewrite(
    automaton: &mut Automaton,
    players: &[String; 2],
    pairing: &Pairing,
    sides: &HashMap<NodeIndex, bool>,
) -> bool {
    struct Plan {
        edge: petgraph::stable_graph::EdgeIndex,
        from: NodeIndex,
        /// The `me` write the edge adds (`None`: none), and whether it comes before the label.
        set_me: Option<Expr>,
        me_first: bool,
        label: Label,
        to: NodeIndex,
        key: OrderKey,
        span: Span,
    }
    let me_name = automaton.fresh_name("twin_player");
    let other_name = automaton.fresh_name("twin_other");
    let me = || Expr::Ident(Ident::synthetic(me_name.clone()));
    let other_of_me = || Expr::Access {
        map: Box::new(Expr::Ident(Ident::synthetic(other_name.clone()))),
        key: Box::new(me()),
        span: Span::default(),
    };
    // `p0 -> me, p1 -> other[me]` (A side) or the reverse (B side).
    let rewritten = |label: &Label, a_side: bool| -> Label {
        let (own, rival) = if a_side { (&players[0], &players[1]) } else { (&players[1], &players[0]) };
        let mut label = map_label_idents(label, &|name| {
            if name == own {
                "\u{1}own".to_string()
            } else if name == rival {
                "\u{1}rival".to_string()
            } else {
                name.to_string()
            }
        });
        fn place(expr: &Expr, me: &dyn Fn() -> Expr, other: &dyn Fn() -> Expr) -> Expr {
            match expr {
                Expr::Ident(ident) if ident.name == "\u{1}own" => me(),
                Expr::Ident(ident) if ident.name == "\u{1}rival" => other(),
                Expr::Ident(_) => expr.clone(),
                Expr::Cast { ty, expr, span } => {
                    Expr::Cast { ty: ty.clone(), expr: Box::new(place(expr, me, other)), span: *span }
                }
                Expr::Access { map, key, span } => Expr::Access {
                    map: Box::new(place(map, me, other)),
                    key: Box::new(place(key, me, other)),
                    span: *span,
                },
            }
        }
        let put = |expr: &Expr| place(expr, &me, &other_of_me);
        label = match &label {
            Label::Assign { lhs, rhs } => Label::Assign { lhs: put(lhs), rhs: put(rhs) },
            Label::AssignAny { lhs, ty } => Label::AssignAny { lhs: put(lhs), ty: ty.clone() },
            Label::Compare { lhs, rhs, negated } => Label::Compare { lhs: put(lhs), rhs: put(rhs), negated: *negated },
            Label::TagVar(expr) => Label::TagVar(put(expr)),
            other => other.clone(),
        };
        label
    };
    let reach_mapped = |label: Label| -> Label {
        match label {
            Label::Reach { from, to, negated } => {
                let map = |ident: Ident| {
                    let node = automaton.node(&ident.name).expect("reachability nodes exist");
                    Ident::new(automaton.name(representative(node, pairing, sides)).to_string(), ident.span)
                };
                Label::Reach { from: map(from), to: map(to), negated }
            }
            other => other,
        }
    };
    let mut plans = Vec::new();
    for edge in automaton.edges_in_order() {
        let (from, to) = automaton.endpoints(edge);
        let data = &automaton.graph[edge];
        let (from_side, to_side) = (sides.get(&from).copied(), sides.get(&to).copied());
        if let Label::Reach { from: start, to: stop, .. } = &data.label {
            let side_of = |ident: &Ident| automaton.node(&ident.name).and_then(|node| sides.get(&node).copied());
            if side_of(start) != side_of(stop) || (from_side.is_none() && to_side.is_none() && side_of(start).is_some())
            {
                return false;
            }
        }
        // The `me` write goes after the label, so that a node's tests stay side by side (its
        // `@disjoint` and the keeper's single path survive), except after a `player` write: the
        // node that write reaches is a start, whose out-edges are the moves.
        let me_first = assigns_player(&data.label);
        let (set_me, label_side) = match (from_side, to_side) {
            (Some(false), _) => continue,
            (Some(true), Some(false)) => (Some(other_of_me()), Some(!me_first)),
            (Some(true), _) => (None, Some(true)),
            (None, Some(side)) => (Some(Expr::Ident(Ident::synthetic(players[usize::from(!side)].clone()))), None),
            (None, None) => continue,
        };
        let running_side = match (from_side, to_side) {
            (None, Some(_)) => None,
            _ => label_side,
        };
        if let Some(start) = reach_side(automaton, &data.label, sides) {
            if start.is_some() && start != running_side {
                return false;
            }
        }
        let label = match label_side {
            Some(side) => rewritten(&data.label, side),
            None => data.label.clone(),
        };
        let label = reach_mapped(label);
        plans.push(Plan {
            edge,
            from,
            set_me,
            me_first,
            label,
            to: representative(to, pairing, sides),
            key: data.key.clone(),
            span: data.span,
        });
    }
    // Declarations: `other` after the constants, `me` after the last variable (earlier slots
    // keep their places, so a board's words stay aligned).
    let player_type = || TypeExpr::Name(Ident::synthetic("Player"));
    let const_key = automaton.key_after_constants();
    let mut var_key = automaton
        .decls
        .iter()
        .filter(|(_, decl)| matches!(decl, Decl::Var(_)))
        .map(|(key, _)| key.clone())
        .max()
        .unwrap_or_else(|| const_key.clone());
    var_key.push(u32::MAX);
    automaton.decls.push((
        const_key,
        Decl::Const(Constant {
            name: Ident::synthetic(other_name.clone()),
            ty: TypeExpr::Arrow { from: Box::new(player_type()), to: Box::new(player_type()), span: Span::default() },
            value: ValueExpr::Map {
                entries: vec![(
                    Ident::synthetic(players[0].clone()),
                    ValueExpr::Ident(Ident::synthetic(players[1].clone())),
                )],
                default: Some(Box::new(ValueExpr::Ident(Ident::synthetic(players[0].clone())))),
                span: Span::default(),
            },
            span: Span::default(),
        }),
    ));
    automaton.decls.push((
        var_key,
        Decl::Var(Variable {
            name: Ident::synthetic(me_name.clone()),
            ty: player_type(),
            value: ValueExpr::Ident(Ident::synthetic(players[0].clone())),
            span: Span::default(),
        }),
    ));
    automaton.decls.retain(|(_, decl)| !matches!(decl, Decl::Pragma(p) if recomputed_pragma(&p.name.name)));
    // Edges: every A or shared edge touching a copy is replaced as planned; B nodes go.
    for plan in plans {
        automaton.graph.remove_edge(plan.edge);
        match plan.set_me {
            None => {
                automaton.add_edge(plan.from, plan.to, plan.label, plan.key, plan.span);
            }
            Some(value) => {
                let middle_name = automaton.fresh_name(&format!("{}__twin", automaton.name(plan.from)));
                let middle = automaton.node_or_insert(&middle_name);
                let write = Label::Assign { lhs: me(), rhs: value };
                let (first, second) = if plan.me_first { (write, plan.label) } else { (plan.label, write) };
                automaton.add_edge(plan.from, middle, first, derived_key(&plan.key, 0), plan.span);
                automaton.add_edge(middle, plan.to, second, derived_key(&plan.key, 1), plan.span);
            }
        }
    }
    let removed: Vec<NodeIndex> = sides.iter().filter(|(_, &a_side)| !a_side).map(|(&node, _)| node).collect();
    for node in removed {
        automaton.remove_node(node);
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::optimize::testing::{parse, print};
    use crate::optimize::{merge_player_twins, optimize, PassSet};
    use regula_runtime::perft::perft;
    use regula_runtime::reference::ReferenceEngine;

    /// Three cells filled in turn; whoever fills the last one scores. `x`'s turn and `o`'s turn
    /// are twins (`x` <-> `o`), sharing the `free` check and the ending.
    const TWINS: &str = "
        type Player = {x, o}; type Score = {0, 1};
        type Cell = {c1, c2, c3}; type Mark = {e, x, o};
        var board: Cell -> Mark = {:e};
        var cell: Cell = c1;
        begin, round: ;
        round, tx: player = x;
        tx, tx1: cell = Cell(*);
        tx1, tx2: board[cell] == e;
        tx2, tx3: $$ cell;
        tx3, tx4: player = keeper;
        tx4, tx5: board[cell] = x;
        tx5, xf1: board[c1] != e;
        xf1, xf2: board[c2] != e;
        xf2, xw: board[c3] != e;
        xw, fin: goals[x] = 1;
        tx5, xn: ? free -> free_end;
        xn, to: player = o;
        to, to1: cell = Cell(*);
        to1, to2: board[cell] == e;
        to2, to3: $$ cell;
        to3, to4: player = keeper;
        to4, to5: board[cell] = o;
        to5, of1: board[c1] != e;
        of1, of2: board[c2] != e;
        of2, ow: board[c3] != e;
        ow, fin: goals[o] = 1;
        to5, round: ? free -> free_end;
        free, free1: cell = Cell(*);
        free1, free_end: board[cell] == e;
        fin, end: player = keeper;
    ";

    fn perft_of(game: &crate::rg::ast::Game, depth: usize) -> Vec<u64> {
        let loaded = crate::rg::compile_game(game.clone()).expect("the game validates");
        perft(&ReferenceEngine::new(loaded.automaton).unwrap(), depth).unwrap()
    }

    #[test]
    fn twin_turns_become_one_turn_reading_the_player_from_a_variable() {
        let (optimized, _) = optimize(&parse(TWINS), &PassSet::all());
        let merged = merge_player_twins(&optimized, &PassSet::all())
            .unwrap_or_else(|| panic!("the turns are twins:\n{}", print(&optimized)));
        let text = print(&merged);
        // One listing: a single `cell = Cell(*)` edge outside `free`, the player read from `me`.
        assert_eq!(text.matches("= Cell(*)").count(), 2, "{text}");
        assert!(text.contains("player = twin_player"), "{text}");
        assert!(text.contains("board[cell] = twin_player"), "{text}");
        assert!(text.contains("twin_player = twin_other[twin_player]"), "{text}");
        // Exact: 3, 3 * 2, 3 * 2 * 1 states, then the terminal ones.
        assert_eq!(perft_of(&merged, 4), perft_of(&parse(TWINS), 4));
        assert_eq!(perft_of(&merged, 3), [1, 3, 6, 6]);
        assert!(crate::rg::check(&merged).is_empty(), "{:?}", crate::rg::check(&merged));
    }

    #[test]
    fn a_game_without_twins_is_left_alone() {
        let single = "
            type Player = {x, o}; type Score = {0};
            var cell: Player = x;
            begin, a: player = x;
            a, b: cell = Player(*);
            b, c: $$ cell;
            c, end: player = keeper;
        ";
        let (optimized, _) = optimize(&parse(single), &PassSet::all());
        assert!(merge_player_twins(&optimized, &PassSet::all()).is_none());
    }
}
