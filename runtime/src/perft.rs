//! Perft: the number of states at each depth of the game tree, the standard cross-check of a
//! forward model (conventions in spec/perft.md).
//!
//! Depth 0 is the start state (keeper moves applied). A move of a real player or of `random`
//! costs one depth; keeper moves are applied in place and cost none. A terminal state contributes
//! to its own depth and nothing below it. After a `random` move, children whose states are equal
//! (ignoring the tags that led to them) count once; a real player's moves always count
//! separately, even when they reach equal states.
//!
//! ```
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//! use regula_runtime::perft::perft;
//! use regula_runtime::reference::ReferenceEngine;
//!
//! // x picks one of two cells, then the game ends.
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}").typedef("Score", "{0}").typedef("Cell", "{c1, c2}")
//!     .variable("cell", "Cell", "c1")
//!     .edge("begin", "pick", "player = x")
//!     .edge("pick", "picked", "cell = Cell(*)")
//!     .edge("picked", "done", "$$ cell")
//!     .edge("done", "end", "player = keeper")
//!     .build().unwrap();
//! let engine = ReferenceEngine::new(automaton).unwrap();
//! assert_eq!(perft(&engine, 3).unwrap(), [1, 2, 0, 0]);
//! ```

use crate::engine::{EngineError, ForwardModel, Mover};
use rayon::prelude::*;
use std::collections::HashSet;

/// The children of a state that count in perft: every successor, except that a `random` node's
/// successors are de-duplicated by state (first occurrence kept, order preserved).
pub fn perft_children<M: ForwardModel + ?Sized>(
    model: &M,
    state: &M::State,
) -> Result<Vec<(crate::engine::Move, M::State)>, EngineError> {
    let successors = model.successors(state)?;
    if model.to_move(state) != Mover::Random {
        return Ok(successors);
    }
    let mut seen = HashSet::new();
    Ok(successors.into_iter().filter(|(_, s)| seen.insert(s.clone())).collect())
}

fn count_below<M: ForwardModel + ?Sized>(
    model: &M,
    state: &M::State,
    depth: usize,
    remaining: usize,
    counts: &mut [u64],
) -> Result<(), EngineError> {
    counts[depth] += 1;
    if remaining == 0 || model.is_terminal(state) {
        return Ok(());
    }
    for (_, child) in perft_children(model, state)? {
        count_below(model, &child, depth + 1, remaining - 1, counts)?;
    }
    Ok(())
}

/// Perft counts at depths `0..=depth`, computed on one thread.
pub fn perft_sequential<M: ForwardModel + ?Sized>(model: &M, depth: usize) -> Result<Vec<u64>, EngineError> {
    let mut counts = vec![0; depth + 1];
    count_below(model, &model.start()?, 0, depth, &mut counts)?;
    Ok(counts)
}

/// Perft counts at depths `0..=depth`, the first ply's subtrees counted in parallel on the current
/// rayon pool (use `ThreadPool::install` to choose the threads). Equal to [`perft_sequential`];
/// when several subtrees fail, the error of the earliest move is returned.
///
/// ```
/// use regula_runtime::automaton::builder::AutomatonBuilder;
/// use regula_runtime::perft::{perft, perft_sequential};
/// use regula_runtime::reference::ReferenceEngine;
///
/// // Two players alternately pick one of three colours, twice each, then the game ends.
/// let automaton = AutomatonBuilder::new()
///     .typedef("Player", "{x, o}").typedef("Score", "{0}").typedef("Colour", "{red, green, blue}")
///     .typedef("Round", "{r0, r1, r2}")
///     .constant("nextRound", "Round -> Round", "{r0: r1, :r2}")
///     .constant("other", "Player -> Player", "{x: o, :x}")
///     .variable("colour", "Colour", "red").variable("round", "Round", "r0").variable("me", "Player", "x")
///     .edge("begin", "turn", "")
///     .edge("turn", "pick", "player = me")
///     .edge("pick", "picked", "colour = Colour(*)").edge("picked", "said", "$$ colour")
///     .edge("said", "count", "player = keeper")
///     .edge("count", "counted", "me == o").edge("counted", "check", "round = nextRound[round]")
///     .edge("count", "check", "me == x")
///     .edge("check", "over", "round == r2").edge("over", "end", "player = keeper")
///     .edge("check", "swap", "round != r2").edge("swap", "turn", "me = other[me]")
///     .build().unwrap();
/// let engine = ReferenceEngine::new(automaton).unwrap();
/// assert_eq!(perft(&engine, 5).unwrap(), [1, 3, 9, 27, 81, 0]);
/// assert_eq!(perft(&engine, 5).unwrap(), perft_sequential(&engine, 5).unwrap());
/// ```
pub fn perft<M: ForwardModel + ?Sized>(model: &M, depth: usize) -> Result<Vec<u64>, EngineError> {
    let start = model.start()?;
    let mut counts = vec![0; depth + 1];
    counts[0] = 1;
    if depth == 0 || model.is_terminal(&start) {
        return Ok(counts);
    }
    let children = perft_children(model, &start)?;
    let subtrees: Vec<Result<Vec<u64>, EngineError>> = children
        .par_iter()
        .map(|(_, child)| {
            let mut sub = vec![0; depth + 1];
            count_below(model, child, 1, depth - 1, &mut sub)?;
            Ok(sub)
        })
        .collect();
    for subtree in subtrees {
        for (total, count) in counts.iter_mut().zip(subtree?) {
            *total += count;
        }
    }
    Ok(counts)
}

/// [`perft`] on a dedicated pool of `threads` worker threads (0: one per core).
pub fn perft_with_threads<M: ForwardModel + ?Sized>(
    model: &M,
    depth: usize,
    threads: usize,
) -> Result<Vec<u64>, EngineError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| EngineError::Threads { message: e.to_string() })?;
    pool.install(|| perft(model, depth))
}

/// Perft split by first move: for each move counted at depth 1, the counts of its subtree at
/// depths `1..=depth` (index 0 is depth 1). For locating where two engines disagree.
pub fn perft_divide<M: ForwardModel + ?Sized>(
    model: &M,
    depth: usize,
) -> Result<Vec<(crate::engine::Move, Vec<u64>)>, EngineError> {
    let start = model.start()?;
    if depth == 0 || model.is_terminal(&start) {
        return Ok(Vec::new());
    }
    perft_children(model, &start)?
        .par_iter()
        .map(|(tags, child)| {
            let mut sub = vec![0; depth + 1];
            count_below(model, child, 1, depth - 1, &mut sub)?;
            Ok((tags.clone(), sub[1..].to_vec()))
        })
        .collect()
}
