//! Counted searches: a playout ply that counts a search's moves on a sink that records nothing
//! per move, and builds only the picked one (spec/codegen.md, "Counted searches").
//!
//! The code generator marks a start *counted* ([`CompiledGame::counted_search_depth`], the
//! prefix depth `D`) when its search is unique and cannot fail, every node it reaches has a
//! fixed tag depth, every completion holds at least `D` pushed tags, and moves are many per
//! prefix (amazons: an amazon's square and its landing, then the arrow's ray). Its functions are
//! generic over [`MoveSink`], so the same search runs on:
//!
//! - [`CountSink`]: every completion adds one to a count; a push that makes the path `D` tags
//!   long records a *checkpoint* (the count so far and the path's `D` tags). The moves completed
//!   between one checkpoint and the next share its tags (the path keeps them until a pop below
//!   `D`, after which only a new checkpoint brings it back to `D`), and checkpoint counts never
//!   decrease, so move `k` lies in the range of the last checkpoint whose count is at most `k`.
//!   A checkpoint that saw no move is overwritten, so the counts increase strictly.
//! - [`SelectSink`]: the search again, following only paths whose first `D` tags are the
//!   picked checkpoint's (any other push fails and member loops skip to the prefix's member, as
//!   in a replay); the `j`-th completion it meets is the move wanted, `j` being `k` less the
//!   checkpoint's count plus the moves of earlier checkpoints with the same tags (a unique
//!   search may reach one prefix on two paths). It keeps that completion's successor, the state
//!   the listing would have pushed.
//!
//! So the playout draws from the listing's count ([`super::pick_and_count`]) and reaches the
//! listing's successor of the `k`-th move; only the work changes. Cost per ply: the walk of the
//! search with one increment per move (no key, no push, no mode test) and one store per prefix,
//! then the walk of the picked prefix's subtree.

use super::{pick_and_count, CompiledGame, CompiledState, MoveSink, PlayoutOutcome, Search, Xoshiro256};
use crate::automaton::{NodeId, SymbolId};
use crate::engine::EngineError;

/// The most prefix tags a counted search keeps (the code generator counts no deeper prefix).
pub const MAX_COUNTED_PREFIX: usize = 4;

/// The count of moves completed before a prefix was entered, and the prefix's tags (`D` of them,
/// the rest 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checkpoint {
    count: usize,
    prefix: [SymbolId; MAX_COUNTED_PREFIX],
}

/// The counting run of a counted search (see the module doc): the move count, and the
/// checkpoints into the caller's buffer.
pub struct CountSink<'a> {
    depth: usize,
    len: usize,
    path: [SymbolId; MAX_COUNTED_PREFIX],
    count: usize,
    checkpoints: &'a mut Vec<Checkpoint>,
}

impl<'a> CountSink<'a> {
    /// A counting run for prefixes of `depth` tags (1 to [`MAX_COUNTED_PREFIX`]), recording into
    /// `checkpoints` (cleared).
    pub fn new(depth: usize, checkpoints: &'a mut Vec<Checkpoint>) -> Self {
        assert!((1..=MAX_COUNTED_PREFIX).contains(&depth), "a counted prefix depth");
        checkpoints.clear();
        CountSink { depth, len: 0, path: [0; MAX_COUNTED_PREFIX], count: 0, checkpoints }
    }

    /// The moves counted.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The path reached `depth` tags: a checkpoint, or the last one overwritten where it saw no
    /// move (so the counts increase strictly).
    #[inline(always)]
    fn checkpoint(&mut self) {
        let checkpoint = Checkpoint { count: self.count, prefix: self.path };
        match self.checkpoints.last_mut() {
            Some(last) if last.count == self.count => *last = checkpoint,
            _ => self.checkpoints.push(checkpoint),
        }
    }
}

/// The methods no counted search calls: it lists no deltas and no single tags (a counted start
/// is no delta start, and `lists_single_tags` is false, so placements take their plain path).
macro_rules! unlisting_sink_methods {
    () => {
        #[inline(always)]
        fn lists_deltas(&self) -> bool {
            false
        }
        fn push_delta(&mut self, _delta: u64) {
            unreachable!("a counted search lists no deltas");
        }
        fn push_whole(&mut self, _target: NodeId, _values: &V) {
            unreachable!("a counted search lists no deltas");
        }
        #[inline(always)]
        fn lists_single_tags(&self) -> bool {
            false
        }
        fn push_single_tag(&mut self, _tag: SymbolId) {
            unreachable!("a counted search lists no single tags");
        }
    };
}

impl<V> MoveSink<V> for CountSink<'_> {
    #[inline(always)]
    fn push_tag_bounded(&mut self, tag: SymbolId) -> bool {
        let position = self.len;
        self.len = position + 1;
        if position < self.depth {
            self.path[position % MAX_COUNTED_PREFIX] = tag;
            if position + 1 == self.depth {
                self.checkpoint();
            }
        }
        true
    }
    #[inline(always)]
    fn pop_tag(&mut self) {
        self.len = self.len.wrapping_sub(1);
    }
    #[inline(always)]
    fn replayed_next_tag(&self) -> Option<Option<SymbolId>> {
        None
    }
    #[inline(always)]
    fn complete_unique_valid(&mut self, _target: NodeId, _values: &V) {
        self.count += 1;
    }
    #[inline(always)]
    fn complete_unique_valid_tagged(&mut self, _tag: SymbolId, _target: NodeId, _values: &V) {
        self.count += 1;
    }
    #[inline(always)]
    fn complete_unique_valid_tagged_at<const DEPTH: usize>(&mut self, _tag: SymbolId, _target: NodeId, _values: &V) {
        self.count += 1;
    }
    #[inline(always)]
    fn counts_only(&self) -> bool {
        true
    }
    #[inline(always)]
    fn count_moves(&mut self, moves: usize) {
        self.count += moves;
    }
    unlisting_sink_methods!();
}

/// The selecting run of a counted search (see the module doc): follows the paths with the
/// prefix's tags and keeps the successor of the `remaining`-th completion among them.
pub struct SelectSink<V> {
    depth: usize,
    len: usize,
    prefix: [SymbolId; MAX_COUNTED_PREFIX],
    remaining: usize,
    found: Option<CompiledState<V>>,
}

impl<V: Copy> SelectSink<V> {
    /// A selecting run for the move `k` (in listing order) of a counting run that recorded
    /// `checkpoints` with prefixes of `depth` tags; `None` when `k` lies before every
    /// checkpoint (a counting run with moves records one first).
    pub fn new(depth: usize, checkpoints: &[Checkpoint], k: usize) -> Option<Self> {
        let at = checkpoints.partition_point(|checkpoint| checkpoint.count <= k).checked_sub(1)?;
        let picked = checkpoints[at];
        // Moves of earlier checkpoints with the same prefix come first on the selecting run.
        let mut remaining = k - picked.count;
        for (i, earlier) in checkpoints[..at].iter().enumerate() {
            if earlier.prefix == picked.prefix {
                remaining += checkpoints[i + 1].count - earlier.count;
            }
        }
        Some(SelectSink { depth, len: 0, prefix: picked.prefix, remaining, found: None })
    }

    /// The successor of the selected move, once the run met it.
    pub fn found(&self) -> Option<CompiledState<V>> {
        self.found
    }

    #[inline(always)]
    fn complete(&mut self, target: NodeId, values: &V) {
        if self.found.is_none() {
            if self.remaining == 0 {
                self.found = Some(CompiledState { node: target, values: *values });
            }
            self.remaining = self.remaining.wrapping_sub(1);
        }
    }
}

impl<V: Copy> MoveSink<V> for SelectSink<V> {
    /// Fails off the prefix, and everywhere once the move is found (nothing else is wanted).
    #[inline(always)]
    fn push_tag_bounded(&mut self, tag: SymbolId) -> bool {
        let position = self.len;
        self.len = position + 1;
        self.found.is_none() && (position >= self.depth || self.prefix[position % MAX_COUNTED_PREFIX] == tag)
    }
    #[inline(always)]
    fn pop_tag(&mut self) {
        self.len = self.len.wrapping_sub(1);
    }
    /// As a replay's: the prefix's next tag, no tag once the move is found (every push fails),
    /// any below the prefix.
    #[inline(always)]
    fn replayed_next_tag(&self) -> Option<Option<SymbolId>> {
        if self.found.is_some() {
            Some(None)
        } else if self.len < self.depth {
            Some(Some(self.prefix[self.len % MAX_COUNTED_PREFIX]))
        } else {
            None
        }
    }
    #[inline(always)]
    fn complete_unique_valid(&mut self, target: NodeId, values: &V) {
        self.complete(target, values);
    }
    #[inline(always)]
    fn complete_unique_valid_tagged(&mut self, _tag: SymbolId, target: NodeId, values: &V) {
        self.complete(target, values);
    }
    #[inline(always)]
    fn complete_unique_valid_tagged_at<const DEPTH: usize>(&mut self, _tag: SymbolId, target: NodeId, values: &V) {
        self.complete(target, values);
    }
    unlisting_sink_methods!();
}

/// The playout loop's ply from a counted start: counts its moves, picks one as every other
/// listing would and makes `state` its successor (keeper moves not applied), returning the
/// number of moves; `None` when `state`'s node is no counted start.
#[inline(always)]
pub(super) fn counted_search_ply<G: CompiledGame>(
    state: &mut CompiledState<G::Values>,
    rng: &mut Xoshiro256,
    random: bool,
    search: &mut Search<G::Values>,
    outcome: &mut PlayoutOutcome,
) -> Result<Option<usize>, EngineError> {
    let depth = G::counted_search_depth(state.node);
    if depth == 0 {
        return Ok(None);
    }
    let mut checkpoints = std::mem::take(&mut search.checkpoints);
    let mut counting = CountSink::new(depth, &mut checkpoints);
    // A search that cannot fail leaves the values as it found them.
    G::counted_search(state.node, &mut state.values, &mut counting);
    let count = counting.count();
    let picked = pick_and_count(rng, count, random, outcome).map(|k| SelectSink::new(depth, &checkpoints, k));
    search.checkpoints = checkpoints;
    let Some(select) = picked else {
        return Err(EngineError::UnexpectedEnd { node: search.node_name(state.node) });
    };
    let mut select = select.ok_or_else(|| malformed("a counted move lies before every prefix"))?;
    G::counted_search(state.node, &mut state.values, &mut select);
    *state = select.found().ok_or_else(|| malformed("a counted move was not found again"))?;
    Ok(Some(count))
}

#[cold]
fn malformed(message: &str) -> EngineError {
    EngineError::Malformed { message: message.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search over three prefixes (tags `[1, 10]`, `[1, 11]` and `[2, 10]`) completing 2, 0
    /// and 3 moves below them, the last tag of each move pushed by the completion, run on `sink`;
    /// the values are the move's index in listing order.
    fn search<S: MoveSink<u32>>(sink: &mut S) {
        let mut index = 0;
        for (first, second, moves) in [(1, 10, 2), (1, 11, 0), (2, 10, 3)] {
            // As generated code pairs them: a push, the path below it where it holds, a pop.
            let mut found = false;
            if sink.push_tag_bounded(first) {
                if sink.push_tag_bounded(second) {
                    found = true;
                    for last in 0..moves {
                        sink.complete_unique_valid_tagged_at::<2>(100 + last, 7, &index);
                        index += 1;
                    }
                }
                sink.pop_tag();
            }
            sink.pop_tag();
            if !found {
                index += moves;
            }
        }
    }

    #[test]
    fn the_counting_run_counts_moves_and_records_one_checkpoint_per_prefix_with_moves() {
        let mut checkpoints = Vec::new();
        let mut counting = CountSink::new(2, &mut checkpoints);
        search(&mut counting);
        assert_eq!(counting.count(), 5);
        // The empty prefix `[1, 11]` was overwritten by `[2, 10]`.
        assert_eq!(
            checkpoints,
            [Checkpoint { count: 0, prefix: [1, 10, 0, 0] }, Checkpoint { count: 2, prefix: [2, 10, 0, 0] }]
        );
    }

    #[test]
    fn the_selecting_run_finds_every_move_in_listing_order() {
        let mut checkpoints = Vec::new();
        search(&mut CountSink::new(2, &mut checkpoints));
        for k in 0..5 {
            let mut select = SelectSink::new(2, &checkpoints, k).expect("a checkpoint holds k");
            search(&mut select);
            assert_eq!(select.found(), Some(CompiledState { node: 7, values: k as u32 }), "move {k}");
        }
    }

    #[test]
    fn a_prefix_reached_twice_selects_past_its_first_moves() {
        // Prefix [1, 10] twice, with 2 and 1 moves, around [2, 10] with 3.
        fn twice<S: MoveSink<u32>>(sink: &mut S) {
            let mut index = 0;
            for (first, moves) in [(1, 2), (2, 3), (1, 1)] {
                let mut found = false;
                if sink.push_tag_bounded(first) {
                    if sink.push_tag_bounded(10) {
                        found = true;
                        for _ in 0..moves {
                            sink.complete_unique_valid_tagged_at::<2>(100 + index, 7, &index);
                            index += 1;
                        }
                    }
                    sink.pop_tag();
                }
                sink.pop_tag();
                if !found {
                    index += moves;
                }
            }
        }
        let mut checkpoints = Vec::new();
        let mut counting = CountSink::new(2, &mut checkpoints);
        twice(&mut counting);
        assert_eq!(counting.count(), 6);
        let found: Vec<u32> = (0..6)
            .map(|k| {
                let mut select = SelectSink::new(2, &checkpoints, k).expect("a checkpoint holds k");
                twice(&mut select);
                select.found().expect("found").values
            })
            .collect();
        assert_eq!(found, [0, 1, 2, 3, 4, 5]);
    }
}
