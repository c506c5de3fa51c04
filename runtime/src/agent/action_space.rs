//! The game-wide action space: every tag sequence the automaton can emit as one move, numbered
//! densely, found from the automaton graph alone (spec/agents.md, "Action ids").
//!
//! The graph is read as a nondeterministic automaton over tags: a move starts at `begin` or at the
//! target of an edge assigning `player`, `$ s` reads `s`, `$$ e` reads any member of `e`'s set
//! type, every other label reads nothing, and an edge assigning `player` accepts. Guards are
//! ignored, so the language over-approximates the moves that can really occur. The automaton is
//! determinised (subset construction); when the result is acyclic the language is finite and each
//! word gets its rank in the order of [`Move`]'s `Ord` (lexicographic by symbol id, a prefix before
//! its extensions), computed from per-state word counts without listing the words.

use crate::automaton::{Automaton, Expr, Label, NodeId, SymbolId, Type};
use crate::engine::Move;
use std::collections::{BTreeMap, HashMap};

/// Action ids in a game-wide space are below this; a larger (or infinite) language falls back to
/// per-state ids. A legal-action mask of this many entries is already 1 MiB per state.
pub const MAX_ACTIONS: u64 = 1 << 20;
/// Deterministic states the subset construction may create before giving up.
pub const MAX_DFA_STATES: usize = 1 << 16;

/// One state of the determinised tag automaton.
#[derive(Clone, Debug)]
struct DfaState {
    /// A move may end here (some node of the subset has an out-edge assigning `player`).
    accepting: bool,
    /// Out-transitions sorted by symbol: (symbol, target, words from the targets of the earlier
    /// transitions, summed), so ranking is a binary search.
    transitions: Vec<(SymbolId, u32, u64)>,
    /// Words accepted from this state.
    words: u64,
}

/// A finite, numbered set of tag sequences.
#[derive(Clone, Debug)]
pub struct TagLanguage {
    states: Vec<DfaState>,
}

/// Why a game has no game-wide action space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unbounded {
    /// A cycle of the graph emits tags, so moves of any length may exist.
    TagCycle,
    /// More than [`MAX_ACTIONS`] sequences.
    TooManyActions { at_least: u64 },
    /// The determinised automaton passed [`MAX_DFA_STATES`].
    TooManyStates,
}

impl std::fmt::Display for Unbounded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unbounded::TagCycle => write!(f, "unbounded: a cycle of the automaton emits tags"),
            Unbounded::TooManyActions { at_least } => {
                write!(f, "unbounded: at least {at_least} tag sequences, more than the limit of {MAX_ACTIONS}")
            }
            Unbounded::TooManyStates => {
                write!(f, "unbounded: the tag automaton needs more than {MAX_DFA_STATES} deterministic states")
            }
        }
    }
}

/// Whether an edge label assigns the `player` variable (ending a move).
pub(crate) fn assigns_player(automaton: &Automaton, label: &Label) -> bool {
    match label {
        Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => *lhs == Expr::Var(automaton.player_var),
        _ => false,
    }
}

/// The nodes where a move can start: `begin` and the targets of edges assigning `player`.
pub(crate) fn move_starts(automaton: &Automaton) -> Vec<NodeId> {
    let mut starts = vec![automaton.begin];
    starts.extend(automaton.edges.iter().filter(|e| assigns_player(automaton, &e.label)).map(|e| e.target));
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// The symbols a tag label may emit.
fn tag_symbols(automaton: &Automaton, label: &Label) -> Option<Vec<SymbolId>> {
    match label {
        Label::Tag(symbol) => Some(vec![*symbol]),
        Label::TagExpr(Expr::Symbol(symbol)) => Some(vec![*symbol]),
        Label::TagExpr(expr) => match automaton.type_of(expr).map(|t| &automaton.types[t as usize]) {
            Some(Type::Set(members)) => Some(members.clone()),
            // The validator only lets set-typed expressions be tags; be safe anyway.
            _ => Some(Vec::new()),
        },
        _ => None,
    }
}

impl TagLanguage {
    /// Builds the language of `automaton`'s moves, or says why it is not finite and small.
    pub fn new(automaton: &Automaton) -> Result<TagLanguage, Unbounded> {
        let node_count = automaton.nodes.len();
        // Epsilon closure of a set of nodes; also reports whether it accepts.
        let closure = |seeds: &[NodeId]| -> (Vec<NodeId>, bool) {
            let mut seen = vec![false; node_count];
            let mut stack: Vec<NodeId> = Vec::new();
            for &s in seeds {
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
            let mut members = Vec::new();
            let mut accepting = false;
            while let Some(node) = stack.pop() {
                members.push(node);
                for edge in automaton.out_edges(node) {
                    if assigns_player(automaton, &edge.label) {
                        accepting = true;
                    } else if tag_symbols(automaton, &edge.label).is_none() && !seen[edge.target as usize] {
                        seen[edge.target as usize] = true;
                        stack.push(edge.target);
                    }
                }
            }
            members.sort_unstable();
            (members, accepting)
        };

        let mut ids: HashMap<Vec<NodeId>, u32> = HashMap::new();
        let mut sets: Vec<Vec<NodeId>> = Vec::new();
        let mut states: Vec<DfaState> = Vec::new();
        let (start, accepting) = closure(&move_starts(automaton));
        ids.insert(start.clone(), 0);
        sets.push(start);
        states.push(DfaState { accepting, transitions: Vec::new(), words: 0 });
        let mut next = 0;
        while next < sets.len() {
            let mut moves: BTreeMap<SymbolId, Vec<NodeId>> = BTreeMap::new();
            for &node in &sets[next] {
                for edge in automaton.out_edges(node) {
                    if let Some(symbols) = tag_symbols(automaton, &edge.label) {
                        for symbol in symbols {
                            moves.entry(symbol).or_default().push(edge.target);
                        }
                    }
                }
            }
            let mut transitions = Vec::with_capacity(moves.len());
            for (symbol, targets) in moves {
                let (members, accepting) = closure(&targets);
                let id = match ids.get(&members) {
                    Some(&id) => id,
                    None => {
                        if sets.len() >= MAX_DFA_STATES {
                            return Err(Unbounded::TooManyStates);
                        }
                        let id = sets.len() as u32;
                        ids.insert(members.clone(), id);
                        sets.push(members);
                        states.push(DfaState { accepting, transitions: Vec::new(), words: 0 });
                        id
                    }
                };
                transitions.push((symbol, id, 0));
            }
            states[next].transitions = transitions;
            next += 1;
        }
        drop(ids);
        drop(sets);

        // Keep only states from which a move can end; a cycle among them means infinitely many words.
        let live = co_reachable(&states);
        for state in &mut states {
            state.transitions.retain(|&(_, target, _)| live[target as usize]);
        }
        let order = topological_order(&states, &live).ok_or(Unbounded::TagCycle)?;
        // Count words bottom-up (successors first), saturating past the limit.
        for &s in order.iter().rev() {
            let mut total: u64 = states[s].accepting as u64;
            let mut transitions = std::mem::take(&mut states[s].transitions);
            for transition in &mut transitions {
                transition.2 = total - states[s].accepting as u64;
                total = total.saturating_add(states[transition.1 as usize].words).min(MAX_ACTIONS + 1);
            }
            states[s].transitions = transitions;
            states[s].words = total;
        }
        let size = if live[0] { states[0].words } else { 0 };
        if size > MAX_ACTIONS {
            return Err(Unbounded::TooManyActions { at_least: size });
        }
        if !live[0] {
            states[0] = DfaState { accepting: false, transitions: Vec::new(), words: 0 };
        }
        Ok(TagLanguage { states })
    }

    /// The number of tag sequences.
    pub fn len(&self) -> u64 {
        self.states[0].words
    }

    /// Whether there is no sequence at all (an automaton without moves).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rank of a tag sequence, `None` when it is not in the language.
    pub fn rank(&self, tags: &[SymbolId]) -> Option<u64> {
        let mut state = &self.states[0];
        let mut rank = 0u64;
        for &tag in tags {
            let position = state.transitions.binary_search_by_key(&tag, |t| t.0).ok()?;
            let (_, target, before) = state.transitions[position];
            rank += state.accepting as u64 + before;
            state = &self.states[target as usize];
        }
        state.accepting.then_some(rank)
    }

    /// The tag sequence of a rank, `None` past the end.
    pub fn unrank(&self, mut rank: u64) -> Option<Move> {
        if rank >= self.len() {
            return None;
        }
        let mut state = &self.states[0];
        let mut tags = Vec::new();
        loop {
            if state.accepting {
                if rank == 0 {
                    return Some(tags);
                }
                rank -= 1;
            }
            // The last transition whose words start at or before `rank`.
            let position = state.transitions.partition_point(|t| t.2 <= rank).checked_sub(1)?;
            let (symbol, target, before) = state.transitions[position];
            rank -= before;
            tags.push(symbol);
            state = &self.states[target as usize];
        }
    }
}

/// Which states can reach an accepting state.
fn co_reachable(states: &[DfaState]) -> Vec<bool> {
    let mut predecessors: Vec<Vec<u32>> = vec![Vec::new(); states.len()];
    for (s, state) in states.iter().enumerate() {
        for &(_, target, _) in &state.transitions {
            predecessors[target as usize].push(s as u32);
        }
    }
    let mut live: Vec<bool> = states.iter().map(|s| s.accepting).collect();
    let mut stack: Vec<u32> = (0..states.len() as u32).filter(|&s| live[s as usize]).collect();
    while let Some(s) = stack.pop() {
        for &p in &predecessors[s as usize] {
            if !live[p as usize] {
                live[p as usize] = true;
                stack.push(p);
            }
        }
    }
    live
}

/// The live states reachable from state 0 in topological order, `None` if they contain a cycle.
fn topological_order(states: &[DfaState], live: &[bool]) -> Option<Vec<usize>> {
    if !live[0] {
        return Some(Vec::new());
    }
    // Iterative depth-first search: 0 = new, 1 = on the stack, 2 = done.
    let mut mark = vec![0u8; states.len()];
    let mut finished = Vec::new();
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    mark[0] = 1;
    while let Some((s, i)) = stack.pop() {
        if let Some(&(_, target, _)) = states[s].transitions.get(i) {
            stack.push((s, i + 1));
            let t = target as usize;
            match mark[t] {
                0 => {
                    mark[t] = 1;
                    stack.push((t, 0));
                }
                1 => return None,
                _ => {}
            }
        } else {
            mark[s] = 2;
            finished.push(s);
        }
    }
    finished.reverse();
    Some(finished)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::builder::AutomatonBuilder;

    #[test]
    fn ranks_follow_move_order_and_round_trip() {
        // Moves: "a" then any Card, or "b"; the keeper's empty move also ends at `player = ...`.
        let automaton = AutomatonBuilder::new()
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .typedef("Card", "{c1, c2, c3}")
            .variable("card", "Card", "c1")
            .edge("begin", "turn", "player = x")
            .edge("turn", "a", "$ a")
            .edge("a", "pick", "card = Card(*)")
            .edge("pick", "tagged", "$$ card")
            .edge("tagged", "end", "player = keeper")
            .edge("turn", "b", "$ b")
            .edge("b", "end", "player = keeper")
            .build()
            .unwrap();
        let language = TagLanguage::new(&automaton).unwrap();
        let id = |name: &str| automaton.symbol_id(name).unwrap();
        let mut expected: Vec<Move> =
            vec![vec![], vec![id("a"), id("c1")], vec![id("a"), id("c2")], vec![id("a"), id("c3")], vec![id("b")]];
        expected.sort();
        assert_eq!(language.len(), 5);
        for (rank, tags) in expected.iter().enumerate() {
            assert_eq!(language.rank(tags), Some(rank as u64));
            assert_eq!(language.unrank(rank as u64).as_ref(), Some(tags));
        }
        assert_eq!(language.rank(&[id("a")]), None);
        assert_eq!(language.unrank(5), None);
    }

    #[test]
    fn a_tag_cycle_is_unbounded() {
        let automaton = AutomatonBuilder::new()
            .typedef("Player", "{x}")
            .typedef("Score", "{0}")
            .edge("begin", "turn", "player = x")
            .edge("turn", "step", "$ hop")
            .edge("step", "turn", "")
            .edge("step", "end", "player = keeper")
            .build()
            .unwrap();
        assert_eq!(TagLanguage::new(&automaton).unwrap_err(), Unbounded::TagCycle);
    }
}
