//! Moves listed as *deltas*: which completions can hand the playout loop a packed word instead of
//! a copy of the whole successor state, and from which start nodes every completion can.
//!
//! A move search starts from a state's values and changes them only by the writes of the edges
//! on its path (every edge undoes its write when the search backs up, and nested checks undo
//! theirs), so at a completion the values differ from the start state's at most in the slots
//! some edge from a start node to the completion may write: its *write set*, a may-write forward
//! data flow over the move search's edges. When the write set has at most [`DELTA_WORD_BITS`]
//! bits of slot values, the completion's successor is the searched state with those slots set to
//! the values they have at the completion and the node set to the completion's target: one `u64`
//! (the site's number in the low 16 bits, then each slot's value) that the generated
//! `apply_delta` turns back into the successor. Tic-tac-toe's and connect four's player moves
//! write the chosen cell or column and `player`: two bytes, where the search copied 24 and 72
//! bytes per listed move and the playout loop the picked one again.
//!
//! A write set holds *fixed* slots (`x = e` into a fixed slot, a block, or the whole variable of
//! a write through a computed key it cannot follow) and *computed* writes: `m[k] = e` of one slot
//! whose keys read only constants and scalar variables (no state map). A computed write costs
//! one value in the word, not its variable's slots: `apply_delta` sets the fixed slots first,
//! then recomputes the slot from the keys on the state it builds. That is the slot the write
//! wrote while no edge after it on the path writes a slot its keys read: such a slot is then
//! either written on the path (so fixed, and set to its value at the completion) or never
//! written (so it holds the start state's value, the completion's too). An edge writing a key
//! slot of a computed write turns that write into its whole variable. A computed write in the
//! set that a given path never made records the value its slot has anyway (the recomputed slot
//! is a real slot: keys outside the map name its default block), so the set only needs to cover
//! every path. Amazons' moves write the board through their origin and destination: two values
//! instead of the board.
//!
//! Only a lean search (a unique start whose caller reads successors only) lists deltas, and
//! only if every completion it can reach has a delta (a *delta start*). The keeper's searches
//! (from nodes only completions handing the turn to the keeper enter) and `begin`'s (searched
//! at most once a playout) list none: a single move's copy costs less than its delta, and a
//! search that rarely runs only adds a test to the completions it shares. Cost: the flow
//! visits each move-search edge once per change of its source's set; sets are capped at the
//! word's capacity (a larger one is "too many" and stays so), so a set changes at most that
//! many times.

use super::graph::written_range;
use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp, PlanOperand, PlanPlace, PlanTransfer};
use std::collections::BTreeSet;

/// The bits of a delta word holding slot values (the low 16 bits number the site).
pub(crate) const DELTA_WORD_BITS: u32 = 48;

/// The most computed writes one write set holds. Each costs its slot's computation twice (at
/// the completion and in `apply_delta`) besides its value: amazons' moves (two, `board[from]`
/// and `board[to]`) cost 5.0 % more instructions per playout as deltas than as copies of its
/// 110-byte state, pentago's (one) 2.2 % less (session 17, callgrind, `regula build` crates).
const MAX_COMPUTED_WRITES: usize = 1;

/// The most completion sites a game may number (the site field's range, less `u16::MAX`, the
/// mark of a move pushed whole: `regula_runtime::compiled::WHOLE_MOVE`).
const MAX_SITES: usize = (1 << 16) - 1;

/// One completion site: what its delta word holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Site {
    /// The completion's target node.
    pub target: u32,
    /// The fixed slots of its write set, in slot order (the word's first values).
    pub slots: Vec<u32>,
    /// Its computed writes, indices into [`Deltas::places`] (the word's values after the fixed
    /// slots', in this order).
    pub computed: Vec<usize>,
}

/// The deltas of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Deltas {
    /// Per completion site, numbered from 0.
    pub sites: Vec<Site>,
    /// The places computed writes write (`m[k]`), indexed by [`Site::computed`].
    pub places: Vec<PlanPlace>,
    /// Per edge, the site of a completion that has a delta.
    pub site_of_edge: Vec<Option<usize>>,
    /// Per node, a lean search from it lists deltas.
    pub starts: Vec<bool>,
    /// Per node, a delta start that also reaches completions without a site (a *mixed* start).
    pub mixed: Vec<bool>,
    /// Per edge, a completion without a site that a mixed start reaches: in a delta listing it
    /// pushes its successor whole (`cx.push_whole`).
    pub whole_of_edge: Vec<bool>,
}

/// What an edge may write.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Written {
    /// These slots (none for guards, tags and checks).
    Fixed(Vec<u32>),
    /// One slot of a map through computed keys: its place's index (see [`PlaceFacts`]).
    Computed(usize),
    /// Something no set describes.
    Unknown,
}

/// The scalar state slots a key reads (through constant tables), `None` when it reads a state
/// map (its slot would depend on writes through computed keys). Counted products use it too: a
/// computed write keeps naming the same slot only while none of these slots is written.
pub(super) fn key_reads(operand: &PlanOperand, into: &mut Vec<u32>) -> Option<()> {
    match operand {
        PlanOperand::Literal(_) => Some(()),
        PlanOperand::Place(place) if place.in_state => {
            if !place.steps.is_empty() {
                return None;
            }
            into.push(place.base);
            Some(())
        }
        PlanOperand::Place(place) => place.steps.iter().try_for_each(|step| key_reads(&step.key, into)),
    }
}

/// What an edge may write; a computed write's place is added to `facts` (once per place).
fn written(plan: &Plan, op: &PlanOp, facts: &mut PlaceFacts) -> Written {
    let range = |place: &PlanPlace| -> Option<Vec<u32>> {
        let (start, end) = written_range(plan, place);
        (end != u32::MAX).then(|| (start..end).collect())
    };
    let computed = |place: &PlanPlace, facts: &mut PlaceFacts| -> Written {
        let Some(range) = range(place) else { return Written::Unknown };
        let mut keys = Vec::new();
        if place.steps.iter().try_for_each(|step| key_reads(&step.key, &mut keys)).is_none() {
            return Written::Fixed(range);
        }
        let index = facts.places.iter().position(|known| known == place).unwrap_or_else(|| {
            facts.places.push(place.clone());
            facts.keys.push(keys);
            facts.ranges.push(range);
            facts.places.len() - 1
        });
        Written::Computed(index)
    };
    match op {
        PlanOp::Assign { lhs, .. } | PlanOp::AssignAny { lhs, .. } if !lhs.in_state => Written::Unknown,
        PlanOp::AssignAny { lhs, .. } | PlanOp::Assign { lhs, transfer: PlanTransfer::Slot, .. }
            if !lhs.steps.is_empty() =>
        {
            computed(lhs, facts)
        }
        PlanOp::Assign { lhs, .. } if !lhs.steps.is_empty() => range(lhs).map_or(Written::Unknown, Written::Fixed),
        PlanOp::AssignAny { lhs, .. } => Written::Fixed(vec![lhs.base]),
        PlanOp::Assign { lhs, transfer, .. } => Written::Fixed(match transfer {
            PlanTransfer::Slot => vec![lhs.base],
            PlanTransfer::Block(size) => (lhs.base..lhs.base + size).collect(),
            PlanTransfer::Pairs(pairs) => pairs.iter().map(|&(slot, _)| lhs.base + slot).collect(),
        }),
        PlanOp::Skip | PlanOp::Compare { .. } | PlanOp::Reach { .. } | PlanOp::Tag(_) | PlanOp::TagExpr(_) => {
            Written::Fixed(Vec::new())
        }
    }
}

/// A write set: fixed slots and computed writes (indices into the places).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct WriteSet {
    fixed: BTreeSet<u32>,
    computed: BTreeSet<usize>,
}

/// The places computed writes write, with per place the scalar slots its keys read and its
/// variable's slots.
#[derive(Default)]
struct PlaceFacts {
    places: Vec<PlanPlace>,
    keys: Vec<Vec<u32>>,
    ranges: Vec<Vec<u32>>,
}

impl WriteSet {
    /// The set after an edge writing `write`, `None` when it takes more than `capacity` values.
    fn after(&self, write: &Written, capacity: usize, facts: &PlaceFacts) -> Option<WriteSet> {
        let mut set = self.clone();
        match write {
            Written::Unknown => return None,
            Written::Fixed(slots) => {
                set.keys_written(slots, facts);
                set.fixed.extend(slots);
            }
            Written::Computed(place) => {
                set.keys_written(&facts.ranges[*place], facts);
                set.computed.insert(*place);
            }
        }
        set.normalized(capacity, facts)
    }

    /// A computed write whose keys read one of `slots` no longer names the slot it wrote once
    /// they are written: it counts as its whole variable from there on.
    fn keys_written(&mut self, slots: &[u32], facts: &PlaceFacts) {
        let stale: Vec<usize> = self
            .computed
            .iter()
            .copied()
            .filter(|&place| facts.keys[place].iter().any(|key| slots.contains(key)))
            .collect();
        for place in stale {
            self.computed.remove(&place);
            self.fixed.extend(&facts.ranges[place]);
        }
    }

    /// The union of two sets, `None` when it takes more than `capacity` values.
    fn join(&self, other: &WriteSet, capacity: usize, facts: &PlaceFacts) -> Option<WriteSet> {
        let set = WriteSet {
            fixed: self.fixed.union(&other.fixed).copied().collect(),
            computed: self.computed.union(&other.computed).copied().collect(),
        };
        set.normalized(capacity, facts)
    }

    /// Drops computed writes whose variable is among the fixed slots; `None` when the rest takes
    /// more than `capacity` values or more than [`MAX_COMPUTED_WRITES`] are left.
    fn normalized(mut self, capacity: usize, facts: &PlaceFacts) -> Option<WriteSet> {
        let fixed = &self.fixed;
        self.computed.retain(|&place| !facts.ranges[place].iter().all(|slot| fixed.contains(slot)));
        let fits = self.fixed.len() + self.computed.len() <= capacity && self.computed.len() <= MAX_COMPUTED_WRITES;
        fits.then_some(self)
    }
}

/// The deltas of `automaton`: `completes[e]` says edge `e` assigns `player`, `is_start[n]` that a
/// move search may start at `n`, `lean[n]` that a search from `n` may be lean (proved unique),
/// `capable[e]` that completion `e` may push a delta (its move is unique: no de-duplication reads
/// the successor), `slot_bits` the width of one slot value (8, 16 or 32).
pub(crate) fn deltas(
    automaton: &Automaton,
    plan: &Plan,
    completes: &[bool],
    is_start: &[bool],
    lean: &[bool],
    capable: impl Fn(usize) -> bool,
    slot_bits: u32,
) -> Deltas {
    let node_count = automaton.nodes.len();
    let capacity = (DELTA_WORD_BITS / slot_bits) as usize;
    let mut facts = PlaceFacts::default();
    let written: Vec<Written> = plan.ops.iter().map(|op| written(plan, op, &mut facts)).collect();
    // `reached[n]`: some move search reaches `n`; `sets[n]`: its write set, `None` when too big.
    let mut reached = is_start.to_vec();
    let mut sets: Vec<Option<WriteSet>> = vec![Some(WriteSet::default()); node_count];
    let mut work: Vec<usize> = (0..node_count).filter(|&n| is_start[n]).collect();
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); node_count];
    for (edge, record) in automaton.edges.iter().enumerate() {
        if !completes[edge] {
            out_edges[record.source as usize].push(edge);
        }
    }
    let after = |set: &Option<WriteSet>, edge: usize| set.as_ref()?.after(&written[edge], capacity, &facts);
    while let Some(node) = work.pop() {
        for &edge in &out_edges[node] {
            let target = automaton.edges[edge].target as usize;
            let new = after(&sets[node], edge);
            let merged = if reached[target] {
                match (&sets[target], new) {
                    (Some(old), Some(new)) => old.join(&new, capacity, &facts),
                    _ => None,
                }
            } else {
                new
            };
            if !reached[target] || merged != sets[target] {
                reached[target] = true;
                sets[target] = merged;
                work.push(target);
            }
        }
    }
    // Per completion, its site where it has one.
    let site_of: Vec<Option<Site>> = automaton
        .edges
        .iter()
        .enumerate()
        .map(|(edge, record)| {
            let source = record.source as usize;
            if !completes[edge] || !reached[source] || !capable(edge) {
                return None;
            }
            let set = after(&sets[source], edge)?;
            Some(Site {
                target: record.target,
                slots: set.fixed.into_iter().collect(),
                computed: set.computed.into_iter().collect(),
            })
        })
        .collect();
    // A start lists deltas when its search completes some move and every completion it
    // reaches has a delta; only those completions get a site number.
    let mut result = Deltas {
        sites: Vec::new(),
        places: Vec::new(),
        site_of_edge: vec![None; automaton.edges.len()],
        starts: vec![false; node_count],
        mixed: vec![false; node_count],
        whole_of_edge: vec![false; automaton.edges.len()],
    };
    // A node that only completions handing the turn to the keeper enter starts the keeper's
    // search: one move, whose copy costs less than a delta (the word, the site's dispatch and
    // recomputed slots: tic-tac-toe +9 %, connect4.hrg +7 % instructions per playout). `begin`,
    // unless a completion enters it, is searched at most once a playout (its settled state is
    // cached per search context): as a delta start it mostly adds a test to the completions it
    // shares with other starts (tic-tac-toe's `player = me`: +1.6 % instructions per playout).
    let mut keeper_start = vec![false; node_count];
    let mut other_start = vec![false; node_count];
    for (edge, record) in automaton.edges.iter().enumerate() {
        let hands_to_keeper = matches!(
            &plan.ops[edge],
            PlanOp::Assign { sets_player: true, rhs: PlanOperand::Literal(symbol), .. } if *symbol == automaton.keeper
        );
        if completes[edge] {
            let starts = if hands_to_keeper { &mut keeper_start } else { &mut other_start };
            starts[record.target as usize] = true;
        }
    }
    let mut used = vec![false; automaton.edges.len()];
    for start in 0..node_count {
        let keepers_only = keeper_start[start] && !other_start[start];
        let once = start == automaton.begin as usize && !other_start[start] && !keeper_start[start];
        if !is_start[start] || !lean[start] || keepers_only || once {
            continue;
        }
        let reached = completions_from(automaton, completes, start);
        // Some completion has a delta, and every other one is unique, so it can be pushed whole
        // into the same listing (draughts' steps write 4 slots, its captures the board).
        let with_site = reached.iter().filter(|&&edge| site_of[edge].is_some()).count();
        if with_site > 0 && reached.iter().all(|&edge| capable(edge)) {
            result.starts[start] = true;
            result.mixed[start] = with_site < reached.len();
            for edge in reached {
                used[edge] = true;
                result.whole_of_edge[edge] = site_of[edge].is_none();
            }
        }
    }
    // The places of the sites' computed writes, renumbered in order of first use.
    let mut place_index: Vec<Option<usize>> = vec![None; facts.places.len()];
    for (edge, site) in site_of.into_iter().enumerate() {
        let Some(mut site) = site.filter(|_| used[edge]) else { continue };
        for place in &mut site.computed {
            *place = *place_index[*place].get_or_insert_with(|| {
                result.places.push(facts.places[*place].clone());
                result.places.len() - 1
            });
        }
        let index = match result.sites.iter().position(|known| *known == site) {
            Some(index) => index,
            None => {
                result.sites.push(site);
                result.sites.len() - 1
            }
        };
        result.site_of_edge[edge] = Some(index);
    }
    if result.sites.len() > MAX_SITES {
        // More sites than the word numbers: no deltas at all.
        return Deltas {
            sites: Vec::new(),
            places: Vec::new(),
            site_of_edge: vec![None; automaton.edges.len()],
            starts: vec![false; node_count],
            mixed: vec![false; node_count],
            whole_of_edge: vec![false; automaton.edges.len()],
        };
    }
    result
}

/// The completions a move search from `start` can reach (every edge assigning `player` whose
/// source it reaches without assigning `player` on the way).
fn completions_from(automaton: &Automaton, completes: &[bool], start: usize) -> Vec<usize> {
    let mut seen = vec![false; automaton.nodes.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut found = Vec::new();
    while let Some(node) = stack.pop() {
        for edge in automaton.nodes[node].edges.clone() {
            let edge = edge as usize;
            if completes[edge] {
                found.push(edge);
                continue;
            }
            let target = automaton.edges[edge].target as usize;
            if !seen[target] {
                seen[target] = true;
                stack.push(target);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// The second move of [`game`] by default: it writes the board through the column the first
    /// chose (a computed key) and hands the turn back.
    const KEEPER: [(&str, &str, &str); 2] = [("drop", "dropped", "board[col] = x"), ("dropped", "turn", "player = x")];

    /// A small game: `x` picks a column (a fixed slot), then moves again from `drop` along
    /// `keeper` (a keeper's work, done by `x`: the keeper's own searches list no deltas); `extra`
    /// edges are added.
    fn game(keeper: &[(&str, &str, &str)], extra: &[(&str, &str, &str)]) -> (Automaton, Plan, Vec<bool>, Vec<bool>) {
        game_handing(&[("tagged", "drop", "player = x")], keeper, extra)
    }

    /// [`game`] with `handoff`, the edge into `drop`, given.
    fn game_handing(
        handoff: &[(&str, &str, &str)],
        keeper: &[(&str, &str, &str)],
        extra: &[(&str, &str, &str)],
    ) -> (Automaton, Plan, Vec<bool>, Vec<bool>) {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Col", "{a, b, c}");
        builder.typedef("Board", "Col -> Player").typedef("Link", "Col -> Col");
        builder.constant("next", "Link", "{a: b, b: c, :a}");
        builder.variable("col", "Col", "a").variable("board", "Board", "{:x}").variable("link", "Link", "{:a}");
        builder.edge("begin", "turn", "player = x");
        builder.edge("turn", "chosen", "col = Col(*)");
        builder.edge("chosen", "tagged", "$$ col");
        for (from, to, label) in handoff.iter().chain(keeper).chain(extra) {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let completes: Vec<bool> = plan
            .ops
            .iter()
            .map(|op| {
                matches!(op, PlanOp::Assign { sets_player: true, .. } | PlanOp::AssignAny { sets_player: true, .. })
            })
            .collect();
        let mut is_start = vec![false; automaton.nodes.len()];
        is_start[automaton.begin as usize] = true;
        for (edge, record) in automaton.edges.iter().enumerate() {
            if completes[edge] {
                is_start[record.target as usize] = true;
            }
        }
        (automaton, plan, completes, is_start)
    }

    /// The deltas of `game(keeper, extra)` with every start lean and every completion capable.
    fn deltas_of(
        keeper: &[(&str, &str, &str)],
        extra: &[(&str, &str, &str)],
        slot_bits: u32,
    ) -> (Automaton, Plan, Deltas) {
        let (automaton, plan, completes, is_start) = game(keeper, extra);
        let lean = vec![true; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &lean, |_| true, slot_bits);
        (automaton, plan, found)
    }

    fn node(automaton: &Automaton, name: &str) -> usize {
        automaton.nodes.iter().position(|n| n.name == name).expect("the node exists")
    }

    fn edge(automaton: &Automaton, from: &str, to: &str) -> usize {
        let (from, to) = (node(automaton, from) as u32, node(automaton, to) as u32);
        automaton.edges.iter().position(|e| e.source == from && e.target == to).expect("the edge exists")
    }

    /// The site of the completion `from -> to`, if it has one.
    fn site_of(automaton: &Automaton, found: &Deltas, from: &str, to: &str) -> Option<Site> {
        found.site_of_edge[edge(automaton, from, to)].map(|site| found.sites[site].clone())
    }

    /// The slots of a variable.
    fn slots_of(automaton: &Automaton, plan: &Plan, variable: &str) -> Vec<u32> {
        let index = automaton.variables.iter().position(|v| v.name == variable).expect("the variable exists");
        let (start, len) = plan.var_slots[index];
        (start..start + len).collect()
    }

    /// Sorted slots.
    fn sorted(mut slots: Vec<u32>) -> Vec<u32> {
        slots.sort_unstable();
        slots
    }

    #[test]
    fn a_move_writing_fixed_slots_is_a_delta_of_those_slots() {
        let (automaton, plan, found) = deltas_of(&KEEPER, &[], 16);
        assert!(found.starts[node(&automaton, "turn")], "the player's move writes `col` and `player`");
        // `begin`'s search runs once per context: no delta start, though its move has one.
        assert!(!found.starts[automaton.begin as usize]);
        let site = site_of(&automaton, &found, "tagged", "drop").expect("a site");
        let written = sorted(vec![slots_of(&automaton, &plan, "col")[0], plan.player_slot]);
        assert_eq!(site, Site { target: node(&automaton, "drop") as u32, slots: written, computed: vec![] });
    }

    #[test]
    fn a_write_through_a_computed_key_is_one_value_while_its_keys_stay() {
        // The move at `drop` writes `board[col]`: one value (its slot recomputed from `col`), not
        // the board's four slots, so it and `player` fit three two-byte slots.
        let (automaton, plan, found) = deltas_of(&KEEPER, &[], 16);
        assert!(found.starts[node(&automaton, "drop")]);
        let site = site_of(&automaton, &found, "dropped", "turn").expect("the keeper's move has a delta");
        assert_eq!((site.target, &site.slots), (node(&automaton, "turn") as u32, &vec![plan.player_slot]));
        let [place] = site.computed[..] else { panic!("one computed write: {site:?}") };
        let board = slots_of(&automaton, &plan, "board");
        assert_eq!((found.places[place].base, found.places[place].steps.len()), (board[0], 1));
        // A second computed write (`link[col]`) is one more than a set holds, though the two
        // values and `player` would fit the word.
        let twice = [
            ("drop", "dropped", "board[col] = x"),
            ("dropped", "linked", "link[col] = b"),
            ("linked", "turn", "player = x"),
        ];
        let (automaton, _, found) = deltas_of(&twice, &[], 16);
        assert!(!found.starts[node(&automaton, "drop")]);
        assert!(site_of(&automaton, &found, "linked", "turn").is_none());
    }

    #[test]
    fn a_computed_write_whose_keys_change_or_read_the_state_counts_its_whole_variable() {
        // `col` written after `board[col]`: the write no longer names its slot, so the board
        // counts whole (4 slots with its default block; with `col` and `player`, 6 one-byte
        // slots, more than 3 two-byte ones).
        let moved = [
            ("drop", "dropped", "board[col] = x"),
            ("dropped", "moved", "col = next[col]"),
            ("moved", "turn", "player = x"),
        ];
        let (automaton, _, found) = deltas_of(&moved, &[], 16);
        assert!(!found.starts[node(&automaton, "drop")]);
        let (automaton, plan, found) = deltas_of(&moved, &[], 8);
        let site = site_of(&automaton, &found, "moved", "turn").expect("6 one-byte slots fit");
        let mut expected = slots_of(&automaton, &plan, "board");
        expected.extend([slots_of(&automaton, &plan, "col")[0], plan.player_slot]);
        assert_eq!((site.slots, site.computed), (sorted(expected), vec![]));
        // A key read from a state map (`board[link[col]]`): the board counts whole.
        let linked = [("drop", "dropped", "board[link[col]] = x"), ("dropped", "turn", "player = x")];
        let (automaton, plan, found) = deltas_of(&linked, &[], 8);
        let site = site_of(&automaton, &found, "dropped", "turn").expect("5 one-byte slots fit");
        let mut expected = slots_of(&automaton, &plan, "board");
        expected.push(plan.player_slot);
        assert_eq!((site.slots, site.computed), (sorted(expected), vec![]));
        assert!(found.places.is_empty(), "no computed write qualifies");
    }

    #[test]
    fn a_start_reaching_completions_with_and_without_a_delta_is_mixed() {
        // A second way from `drop` rewrites `col` after the board: no delta in 3 two-byte
        // slots. `drop` still lists deltas, its other completion one: a mixed start, whose
        // completion without a site pushes its successor whole.
        let looping =
            [("drop", "last", "board[col] = x"), ("last", "moved", "col = next[col]"), ("moved", "turn", "player = x")];
        let (automaton, _, found) = deltas_of(&KEEPER, &looping, 16);
        let drop = node(&automaton, "drop");
        assert!(found.starts[drop] && found.mixed[drop]);
        let turn = node(&automaton, "turn");
        assert!(found.starts[turn] && !found.mixed[turn], "every completion `turn` reaches has a delta");
        let site = site_of(&automaton, &found, "dropped", "turn").expect("the delta of the first way");
        assert_eq!(site.computed.len(), 1, "`board[col]`");
        assert!(site_of(&automaton, &found, "moved", "turn").is_none());
        let whole: Vec<usize> = (0..automaton.edges.len()).filter(|&e| found.whole_of_edge[e]).collect();
        assert_eq!(whole, [edge(&automaton, "moved", "turn")], "only the completion without a site is pushed whole");
        // A completion without a site that may not be pushed (its move is de-duplicated) keeps
        // the start listing successors: a delta listing has no de-duplication.
        let (automaton, plan, completes, is_start) = game(&KEEPER, &looping);
        let lean = vec![true; automaton.nodes.len()];
        let moved = edge(&automaton, "moved", "turn");
        let found = deltas(&automaton, &plan, &completes, &is_start, &lean, |e| e != moved, 16);
        let drop = node(&automaton, "drop");
        assert!(!found.starts[drop] && !found.mixed[drop]);
        assert!(found.whole_of_edge.iter().all(|&whole| !whole));
        // Without any completion with a delta, no start (the `linked` game above).
        let twice = [
            ("drop", "dropped", "board[col] = x"),
            ("dropped", "linked", "link[col] = b"),
            ("linked", "turn", "player = x"),
        ];
        let (automaton, _, found) = deltas_of(&twice, &[], 16);
        assert!(!found.starts[node(&automaton, "drop")] && found.whole_of_edge.iter().all(|&whole| !whole));
        // A search that is not lean (moves not proved unique) or a completion that may not push
        // one (its move is de-duplicated) lists no deltas.
        let (automaton, plan, completes, is_start) = game(&KEEPER, &[]);
        let not_lean = vec![false; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &not_lean, |_| true, 16);
        assert!(found.starts.iter().all(|&start| !start));
        let lean = vec![true; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &lean, |_| false, 16);
        assert!(found.sites.is_empty() && found.starts.iter().all(|&start| !start));
    }

    #[test]
    fn the_keepers_search_lists_no_deltas() {
        // Handed to the keeper, the move at `drop` is the keeper's one move: its copy costs less
        // than a delta, so `drop` is no delta start (the first move still is one).
        let (automaton, plan, completes, is_start) =
            game_handing(&[("tagged", "drop", "player = keeper")], &KEEPER, &[]);
        let lean = vec![true; automaton.nodes.len()];
        let found = deltas(&automaton, &plan, &completes, &is_start, &lean, |_| true, 16);
        assert!(!found.starts[node(&automaton, "drop")]);
        assert!(found.starts[node(&automaton, "turn")]);
        assert!(site_of(&automaton, &found, "dropped", "turn").is_none());
    }
}
