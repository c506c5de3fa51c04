//! Uniform random playouts over any forward model, reproducible for any number of threads.
//!
//! Playout `i` draws from its own generator seeded from `(seed, i)`, so its result does not depend
//! on which thread runs it; totals are integers merged by addition and the score distribution is
//! an ordered map, so the whole report (except timings) is identical for every thread count.
//! At each state every legal move of the player to move is listed (for `random` too) and one is
//! picked uniformly; keeper moves are applied as they come (to the picked successor only, the
//! only one the playout reaches) and are not counted.
//!
//! ```
//! use regula_runtime::automaton::builder::AutomatonBuilder;
//! use regula_runtime::playout::{run_playouts, PlayoutConfig};
//! use regula_runtime::reference::ReferenceEngine;
//!
//! let automaton = AutomatonBuilder::new()
//!     .typedef("Player", "{x}").typedef("Score", "{0, 1}").typedef("Coin", "{heads, tails}")
//!     .variable("coin", "Coin", "heads")
//!     .edge("begin", "toss", "player = random")
//!     .edge("toss", "tossed", "coin = Coin(*)")
//!     .edge("tossed", "judge", "$$ coin")
//!     .edge("judge", "win", "coin == heads")
//!     .edge("judge", "done", "coin == tails")
//!     .edge("win", "done", "goals[x] = 1")
//!     .edge("done", "end", "player = keeper")
//!     .build().unwrap();
//! let engine = ReferenceEngine::new(automaton).unwrap();
//! let report = run_playouts(&engine, &PlayoutConfig { count: 1000, seed: 7, threads: 2, ..Default::default() }).unwrap();
//! assert_eq!(report.playouts, 1000);
//! assert_eq!(report.mean_plies, 0.0); // only chance moved
//! let wins = report.score_distribution.iter().find(|e| e.scores[0].value == 1).unwrap().count;
//! assert!((400..600).contains(&wins));
//! ```

use crate::automaton::SymbolId;
use crate::engine::{EngineError, ForwardModel, Mover, Score};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Most playout indices a worker of [`run_indexed_playouts_into`] takes at a time: large enough
/// that handing them out costs nothing next to the playouts (tic-tac-toe plays 64 playouts in
/// about 0.2 ms). A run of few playouts uses smaller blocks: see [`playout_block`].
pub const PLAYOUT_BLOCK: u64 = 64;

/// The block size for `count` playouts on `threads` workers: [`PLAYOUT_BLOCK`], or less so that
/// every worker can take about 16 blocks. Slow games are benchmarked with few playouts (chess
/// plays about 40 in 0.4 s), and one block of 64 would leave every worker but one idle. Results
/// do not depend on it: playout `i` always gets the same random stream.
pub fn playout_block(count: u64, threads: usize) -> u64 {
    (count / (threads.max(1) as u64 * 16)).clamp(1, PLAYOUT_BLOCK)
}

/// SplitMix64: used to derive seeds (one step mixes 64 bits thoroughly).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// xoshiro256**: the playouts' generator (fast, 256-bit state, passes standard test batteries).
#[derive(Clone, Debug)]
pub struct Xoshiro256 {
    state: [u64; 4],
}

impl Xoshiro256 {
    /// A generator whose state is filled from SplitMix64 (never all zero).
    pub fn from_seed(seed: u64) -> Self {
        let mut mixer = SplitMix64::new(seed);
        Xoshiro256 { state: [mixer.next_u64(), mixer.next_u64(), mixer.next_u64(), mixer.next_u64()] }
    }

    /// The generator of playout `index` in a run seeded with `seed`.
    pub fn for_playout(seed: u64, index: u64) -> Self {
        PlayoutSeeds::new(seed).rng(index)
    }

    pub fn next_u64(&mut self) -> u64 {
        let [s0, s1, s2, s3] = &mut self.state;
        let result = s1.wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = *s1 << 17;
        *s2 ^= *s0;
        *s3 ^= *s1;
        *s1 ^= *s2;
        *s0 ^= *s3;
        *s2 ^= t;
        *s3 = s3.rotate_left(45);
        result
    }

    /// A uniform integer in `0..bound` (`bound > 0`), without modulo bias (Lemire's method).
    ///
    /// A sample is rejected when the product's low half is below `2^64 mod bound`. That threshold is
    /// below `bound`, so it needs its division only when the low half is below `bound`, which is
    /// rare: the accepted and rejected samples, hence every random choice, are the same as with the
    /// threshold computed up front.
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0, "Xoshiro256::below needs a positive bound");
        let mut product = (self.next_u64() as u128) * (bound as u128);
        if (product as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u64) < threshold {
                product = (self.next_u64() as u128) * (bound as u128);
            }
        }
        (product >> 64) as u64
    }
}

/// The generators of one run's playouts: [`Xoshiro256::for_playout`] with the part that depends
/// on the run's seed alone computed once (a playout of tic-tac-toe costs ~3,500 instructions, and
/// seeding its generator from scratch ~90 of them).
#[derive(Clone, Copy, Debug)]
pub struct PlayoutSeeds {
    base: u64,
}

impl PlayoutSeeds {
    pub fn new(seed: u64) -> Self {
        PlayoutSeeds { base: SplitMix64::new(seed).next_u64() }
    }

    /// The generator of playout `index`: `Xoshiro256::for_playout(seed, index)`.
    #[inline]
    pub fn rng(&self, index: u64) -> Xoshiro256 {
        Xoshiro256::from_seed(self.base ^ SplitMix64::new(index).next_u64())
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct PlayoutConfig {
    /// Number of playouts.
    pub count: u64,
    pub seed: u64,
    /// Worker threads (0 means rayon's default, the number of cores).
    pub threads: usize,
    /// A playout making more moves than this (keeper moves included) is an error.
    pub max_moves: u64,
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig { count: 1000, seed: 0, threads: 1, max_moves: 1_000_000 }
    }
}

/// How often a final score vector occurred.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreCount {
    /// One score per player, in `Player` order.
    pub scores: Vec<Score>,
    pub count: u64,
}

/// The results of a run. Everything except the timings is independent of `threads`.
#[derive(Clone, Debug)]
pub struct PlayoutReport {
    pub playouts: u64,
    pub elapsed_seconds: f64,
    pub playouts_per_second: f64,
    /// Real-player moves per playout, on average.
    pub mean_plies: f64,
    /// Legal moves per real-player decision, on average.
    pub mean_legal_moves: f64,
    /// Total real-player moves and `random` moves over all playouts.
    pub total_plies: u64,
    pub total_chance_moves: u64,
    /// Final score vectors, ordered by their symbols.
    pub score_distribution: Vec<ScoreCount>,
}

#[derive(Default)]
struct Totals {
    plies: u64,
    legal_moves: u64,
    chance_moves: u64,
    scores: BTreeMap<Vec<SymbolId>, (Vec<Score>, u64)>,
}

impl Totals {
    fn merge(mut self, other: Totals) -> Totals {
        self.plies += other.plies;
        self.legal_moves += other.legal_moves;
        self.chance_moves += other.chance_moves;
        for (key, (scores, count)) in other.scores {
            self.scores.entry(key).or_insert((scores, 0)).1 += count;
        }
        self
    }
}

/// One playout's contribution, or the error it hit (with its index, so the earliest is reported).
fn one_playout<M: ForwardModel + ?Sized>(
    model: &M,
    config: &PlayoutConfig,
    index: u64,
) -> Result<Totals, (u64, EngineError)> {
    let fail = |e| (index, e);
    let mut rng = Xoshiro256::for_playout(config.seed, index);
    let mut totals = Totals::default();
    let mut state = model.start().map_err(fail)?;
    let mut moves_made = 0u64;
    loop {
        let mover = model.to_move(&state);
        if mover == Mover::Terminal {
            break;
        }
        if moves_made >= config.max_moves {
            return Err(fail(EngineError::PlayoutTooLong { playout: index, limit: config.max_moves }));
        }
        // Keeper moves are applied to the chosen successor only: the others are never reached.
        let mut successors = model.raw_successors(&state).map_err(fail)?;
        if successors.is_empty() {
            return Err(fail(EngineError::UnexpectedEnd { node: model.node_name(&state) }));
        }
        let pick = rng.below(successors.len() as u64) as usize;
        match mover {
            Mover::Random => totals.chance_moves += 1,
            _ => {
                totals.plies += 1;
                totals.legal_moves += successors.len() as u64;
            }
        }
        moves_made += 1;
        state = model.settle(successors.swap_remove(pick).1).map_err(fail)?;
    }
    let scores = model.scores(&state);
    totals.scores.insert(scores.iter().map(|s| s.symbol).collect(), (scores, 1));
    Ok(totals)
}

/// Runs `config.count` uniform random playouts.
///
/// ```
/// use regula_runtime::automaton::builder::AutomatonBuilder;
/// use regula_runtime::playout::{run_playouts, PlayoutConfig};
/// use regula_runtime::reference::ReferenceEngine;
///
/// // x chooses between a win and a loss; random play wins about half the time.
/// let automaton = AutomatonBuilder::new()
///     .typedef("Player", "{x}").typedef("Score", "{0, 100}")
///     .edge("begin", "choose", "player = x")
///     .edge("choose", "good", "$ win").edge("good", "scored", "goals[x] = 100")
///     .edge("scored", "end", "player = keeper")
///     .edge("choose", "bad", "$ lose").edge("bad", "end", "player = keeper")
///     .build().unwrap();
/// let engine = ReferenceEngine::new(automaton).unwrap();
/// let config = PlayoutConfig { count: 200, seed: 1, threads: 2, ..Default::default() };
/// let report = run_playouts(&engine, &config).unwrap();
/// assert_eq!(report.mean_plies, 1.0);
/// assert_eq!(report.mean_legal_moves, 2.0);
/// let total: u64 = report.score_distribution.iter().map(|e| e.count).sum();
/// assert_eq!(total, 200);
/// // Identical whatever the thread count.
/// let again = run_playouts(&engine, &PlayoutConfig { threads: 1, ..config }).unwrap();
/// assert_eq!(report.score_distribution, again.score_distribution);
/// ```
pub fn run_playouts<M: ForwardModel + ?Sized>(model: &M, config: &PlayoutConfig) -> Result<PlayoutReport, EngineError> {
    run_playouts_with_progress(model, config, &|_, _| {})
}

/// [`run_playouts`], calling `progress(done, total)` after each playout (from worker threads; the
/// runtime never prints, the caller draws whatever it likes).
pub fn run_playouts_with_progress<M: ForwardModel + ?Sized>(
    model: &M,
    config: &PlayoutConfig,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<PlayoutReport, EngineError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| EngineError::Threads { message: e.to_string() })?;
    let done = AtomicU64::new(0);
    let started = Instant::now();
    let result = pool.install(|| {
        (0..config.count)
            .into_par_iter()
            .map(|i| {
                let totals = one_playout(model, config, i);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, config.count);
                totals
            })
            .reduce(
                || Ok(Totals::default()),
                |a, b| match (a, b) {
                    (Ok(a), Ok(b)) => Ok(a.merge(b)),
                    (Err(a), Err(b)) => Err(if a.0 <= b.0 { a } else { b }),
                    (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
                },
            )
    });
    let elapsed_seconds = started.elapsed().as_secs_f64();
    let totals = result.map_err(|(_, e)| e)?;
    let playouts = config.count;
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    Ok(PlayoutReport {
        playouts,
        elapsed_seconds,
        playouts_per_second: if elapsed_seconds > 0.0 { playouts as f64 / elapsed_seconds } else { 0.0 },
        mean_plies: ratio(totals.plies, playouts),
        mean_legal_moves: ratio(totals.legal_moves, totals.plies),
        total_plies: totals.plies,
        total_chance_moves: totals.chance_moves,
        score_distribution: totals.scores.into_values().map(|(scores, count)| ScoreCount { scores, count }).collect(),
    })
}

/// What one random playout did, as the index-based fast paths (the fast engine, compiled models)
/// report it: raw goal symbols, turned into [`Score`]s once per distinct outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutOutcome {
    /// Real-player moves.
    pub plies: u64,
    /// `random` moves.
    pub chance_moves: u64,
    /// Sum over real-player decisions of the number of legal moves.
    pub legal_moves: u64,
    /// `goals[p]` at the end, per player.
    pub goals: Vec<SymbolId>,
}

/// Distinct outcomes a worker counts in its short table, scanned in order, before it uses a map.
const FEW_OUTCOMES: usize = 8;

/// One worker's count per distinct outcome (goal symbols). Most games end in a handful of
/// outcomes with a few small goal symbols, so the first [`FEW_OUTCOMES`] such outcomes are kept
/// as packed keys (up to three symbols below 2^16 and their count in one word) in a short table:
/// one comparison per outcome seen, where an ordered map's lookup compares slices through
/// `memcmp` calls (~150 instructions a playout, 4 % of a tic-tac-toe playout). The scan visits
/// every outcome seen so far and adds the comparison's result to each count, so it takes the
/// same path whichever outcome the playout had: a scan stopping at the match took a branch that
/// depends on a random outcome (~0.5 mispredictions a playout in tic-tac-toe and connect four,
/// a third of tic-tac-toe's). Other outcomes go to the map.
struct OutcomeTally {
    /// `keys[..few]`: the packed outcomes seen, in order, and `counts[..few]` their counts (the
    /// slots past `few` are never read).
    keys: [u64; FEW_OUTCOMES],
    counts: [u64; FEW_OUTCOMES],
    few: usize,
    many: BTreeMap<Vec<SymbolId>, u64>,
}

impl Default for OutcomeTally {
    fn default() -> Self {
        OutcomeTally { keys: [0; FEW_OUTCOMES], counts: [0; FEW_OUTCOMES], few: 0, many: BTreeMap::new() }
    }
}

impl OutcomeTally {
    /// `goals` as one word: the count in the low 16 bits, symbol `i` in bits `16 (i + 1)..`.
    #[inline]
    fn packed(goals: &[SymbolId]) -> Option<u64> {
        if goals.len() > 3 {
            return None;
        }
        let mut key = goals.len() as u64;
        for (i, &goal) in goals.iter().enumerate() {
            if goal >= 1 << 16 {
                return None;
            }
            key |= (goal as u64) << (16 * (i + 1));
        }
        Some(key)
    }

    #[inline]
    fn add(&mut self, goals: &[SymbolId]) {
        if let Some(key) = Self::packed(goals) {
            // As many rounds as outcomes seen (the same number every playout once all are),
            // none of them a branch on this playout's outcome.
            let mut found = 0;
            for (seen, count) in self.keys.iter().zip(&mut self.counts).take(self.few) {
                let hit = (*seen == key) as u64;
                *count += hit;
                found |= hit;
            }
            if found != 0 {
                return;
            }
        }
        self.add_new(goals);
    }

    /// [`OutcomeTally::add`] of an outcome not in the short table: a new entry there while it
    /// has room, else the map. Out of line, so the usual case saves no registers.
    #[cold]
    #[inline(never)]
    fn add_new(&mut self, goals: &[SymbolId]) {
        if let Some(key) = Self::packed(goals) {
            if self.few < FEW_OUTCOMES {
                self.keys[self.few] = key;
                self.counts[self.few] = 1;
                self.few += 1;
                return;
            }
        }
        match self.many.get_mut(goals) {
            Some(count) => *count += 1,
            None => {
                self.many.insert(goals.to_vec(), 1);
            }
        }
    }

    /// Every outcome with its count (an outcome is in the short table or in `many`, never both:
    /// once the table is full it stays full).
    fn into_counts(self) -> impl Iterator<Item = (Vec<SymbolId>, u64)> {
        let unpack = |key: u64| (0..key & 0xffff).map(|i| ((key >> (16 * (i + 1))) & 0xffff) as SymbolId).collect();
        let few = self.keys.into_iter().zip(self.counts).take(self.few);
        few.map(move |(key, count)| (unpack(key), count)).chain(self.many)
    }
}

/// [`run_playouts`] for the index-based fast paths: `threads` scoped workers (0 = all cores), each
/// with its own `scratch()`, take blocks of [`playout_block`] consecutive playout indices from a
/// shared counter (a worker slowed down by other load takes fewer blocks, and handing out costs
/// one atomic add per block, not per playout); playout `i` gets
/// [`Xoshiro256::for_playout`]`(seed, i)`, so the report equals the generic one except for the
/// timings. The error of the lowest-numbered failing playout wins, whatever the thread count.
pub fn run_indexed_playouts<S>(
    config: &PlayoutConfig,
    scratch: impl Fn() -> S + Sync,
    playout: impl Fn(&mut Xoshiro256, u64, &mut S) -> Result<PlayoutOutcome, EngineError> + Sync,
    scores_of: impl Fn(&[SymbolId]) -> Vec<Score>,
) -> Result<PlayoutReport, EngineError> {
    run_indexed_playouts_into(
        config,
        scratch,
        each_playout(|rng, index, scratch, outcome| {
            *outcome = playout(rng, index, scratch)?;
            Ok(())
        }),
        scores_of,
    )
}

/// A worker of [`run_indexed_playouts_into`] that runs its playouts one after the other: each
/// writes its outcome into one reused per worker (overwriting every field), so a playout
/// allocates nothing (the goals buffer keeps its capacity). A worker stops at its first error.
#[inline(always)]
pub fn each_playout<S>(
    playout: impl Fn(&mut Xoshiro256, u64, &mut S, &mut PlayoutOutcome) -> Result<(), EngineError> + Sync,
) -> impl Fn(&mut PlayoutWorker<'_>, &mut S) -> Result<(), (u64, EngineError)> + Sync {
    move |worker, scratch| {
        let mut outcome = PlayoutOutcome::default();
        while let Some((index, mut rng)) = worker.next_playout() {
            playout(&mut rng, index, scratch, &mut outcome).map_err(|e| (index, e))?;
            worker.record(&outcome);
        }
        Ok(())
    }
}

/// One worker's share of [`run_indexed_playouts_into`]: hands out its playout indices, with
/// their generators, in increasing order (blocks from the shared counter), and sums the outcomes
/// it is given.
pub struct PlayoutWorker<'a> {
    next_block: &'a AtomicU64,
    block: u64,
    count: u64,
    seeds: PlayoutSeeds,
    /// The next index to hand out, and the end of its block.
    index: u64,
    block_end: u64,
    /// Every index is handed out (set once [`PlayoutWorker::next_playout`] returned `None`).
    exhausted: bool,
    plies: u64,
    chance: u64,
    legal: u64,
    tally: OutcomeTally,
}

impl PlayoutWorker<'_> {
    /// The next playout to run, as its index and generator ([`Xoshiro256::for_playout`]);
    /// `None` once every playout is handed out (and at every later call).
    #[inline(always)]
    pub fn next_playout(&mut self) -> Option<(u64, Xoshiro256)> {
        if self.index == self.block_end {
            if self.exhausted {
                return None;
            }
            self.index = self.next_block.fetch_add(self.block, Ordering::Relaxed);
            self.block_end = self.index.saturating_add(self.block).min(self.count);
            if self.index >= self.count {
                self.exhausted = true;
                self.index = self.block_end;
                return None;
            }
        }
        let index = self.index;
        self.index += 1;
        Some((index, self.seeds.rng(index)))
    }

    /// Counts a finished playout's outcome.
    #[inline(always)]
    pub fn record(&mut self, outcome: &PlayoutOutcome) {
        self.record_counts(outcome, &outcome.goals);
    }

    /// [`PlayoutWorker::record`] of a playout whose goals are `goals` (those of `outcome` are not
    /// read): a caller that knows the number of players passes them in a fixed array, so neither
    /// the outcome's vector nor a loop over its length is touched.
    #[inline(always)]
    pub fn record_counts(&mut self, outcome: &PlayoutOutcome, goals: &[SymbolId]) {
        self.plies += outcome.plies;
        self.chance += outcome.chance_moves;
        self.legal += outcome.legal_moves;
        self.tally.add(goals);
    }
}

/// [`run_indexed_playouts`] with the workers' loop given: `work(worker, scratch)` runs playouts
/// as [`PlayoutWorker::next_playout`] hands them out and [`PlayoutWorker::record`]s each outcome
/// ([`each_playout`] runs them one after the other; a worker may interleave several), returning
/// at the first error with the failing playout's index. A worker that fails must first finish
/// every playout it was handed with a lower index (the lowest failing index wins: every playout
/// below it runs, on this worker or another).
// Never inlined: the per-playout instruction counts (`pinstr.sh`) collect inside this function.
#[inline(never)]
pub fn run_indexed_playouts_into<S>(
    config: &PlayoutConfig,
    scratch: impl Fn() -> S + Sync,
    work: impl Fn(&mut PlayoutWorker<'_>, &mut S) -> Result<(), (u64, EngineError)> + Sync,
    scores_of: impl Fn(&[SymbolId]) -> Vec<Score>,
) -> Result<PlayoutReport, EngineError> {
    let threads =
        if config.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { config.threads };
    let started = Instant::now();
    // The next block of playout indices to hand out. A worker stops at its first error; the
    // others go on taking blocks, so every playout numbered below the lowest failing one runs and
    // that error is reported, whatever the thread count.
    let next_block = AtomicU64::new(0);
    let block = playout_block(config.count, threads);
    let seeds = PlayoutSeeds::new(config.seed);
    let run_range = || -> Result<(u64, u64, u64, OutcomeTally), (u64, EngineError)> {
        let mut scratch = scratch();
        let mut worker = PlayoutWorker {
            next_block: &next_block,
            block,
            count: config.count,
            seeds,
            index: 0,
            block_end: 0,
            exhausted: false,
            plies: 0,
            chance: 0,
            legal: 0,
            tally: OutcomeTally::default(),
        };
        work(&mut worker, &mut scratch)?;
        Ok((worker.plies, worker.chance, worker.legal, worker.tally))
    };
    let results: Vec<_> = if threads <= 1 {
        vec![run_range()]
    } else {
        std::thread::scope(|scope| {
            let run_range = &run_range;
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(run_range)).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err((u64::MAX, EngineError::Threads { message: "a playout worker panicked".into() }))
                    })
                })
                .collect()
        })
    };
    let elapsed_seconds = started.elapsed().as_secs_f64();
    let (mut plies, mut chance, mut legal) = (0, 0, 0);
    let mut tally = BTreeMap::<Vec<SymbolId>, u64>::new();
    let mut first_error: Option<(u64, EngineError)> = None;
    for result in results {
        match result {
            Ok((p, c, l, t)) => {
                plies += p;
                chance += c;
                legal += l;
                for (goals, count) in t.into_counts() {
                    *tally.entry(goals).or_insert(0) += count;
                }
            }
            Err(e) => {
                if first_error.as_ref().is_none_or(|f| e.0 < f.0) {
                    first_error = Some(e);
                }
            }
        }
    }
    if let Some((_, error)) = first_error {
        return Err(error);
    }
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let score_distribution =
        tally.into_iter().map(|(goals, count)| ScoreCount { scores: scores_of(&goals), count }).collect();
    Ok(PlayoutReport {
        playouts: config.count,
        elapsed_seconds,
        playouts_per_second: if elapsed_seconds > 0.0 { config.count as f64 / elapsed_seconds } else { 0.0 },
        mean_plies: ratio(plies, config.count),
        mean_legal_moves: ratio(legal, plies),
        total_plies: plies,
        total_chance_moves: chance,
        score_distribution,
    })
}

#[cfg(test)]
mod tests {
    use super::{playout_block, OutcomeTally, PlayoutSeeds, SplitMix64, SymbolId, Xoshiro256, PLAYOUT_BLOCK};
    use std::collections::BTreeMap;

    #[test]
    fn short_runs_use_blocks_small_enough_to_keep_every_worker_busy() {
        // Chess in a 0.4 s benchmark: ~40 playouts; one block of 64 would idle the second core.
        assert_eq!(playout_block(40, 2), 1);
        assert_eq!(playout_block(94, 2), 2);
        assert_eq!(playout_block(1_000_000, 2), PLAYOUT_BLOCK);
        assert_eq!(playout_block(0, 0), 1);
        for (count, threads) in [(40u64, 2usize), (94, 2), (500, 4), (3000, 2)] {
            let blocks = count.div_ceil(playout_block(count, threads));
            assert!(blocks >= 8 * threads as u64, "{count} playouts, {threads} workers: {blocks} blocks");
        }
    }

    /// Lemire's method as first written: the rejection threshold computed before every draw.
    fn below_eager(rng: &mut Xoshiro256, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = (rng.next_u64() as u128) * (bound as u128);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    #[test]
    fn below_draws_what_the_eager_threshold_draws() {
        // Small bounds (moves lists), and bounds near 2^63 and 2^64 where about half or almost
        // all of the low halves fall below the bound, so the lazy threshold is taken often.
        let bounds = [1, 2, 3, 7, 9, 10, 100, 1 << 20, (1 << 63) + 1, u64::MAX - 1, u64::MAX, 3 << 62];
        for &bound in &bounds {
            let (mut lazy, mut eager) = (Xoshiro256::for_playout(11, bound), Xoshiro256::for_playout(11, bound));
            for _ in 0..2000 {
                let value = lazy.below(bound);
                assert!(value < bound);
                assert_eq!(value, below_eager(&mut eager, bound), "bound {bound}");
            }
            assert_eq!(lazy.next_u64(), eager.next_u64(), "both consumed the same draws for bound {bound}");
        }
    }

    #[test]
    fn playout_seeds_give_each_playout_the_generator_seeded_from_scratch() {
        for seed in [0, 1, 7, u64::MAX] {
            let seeds = PlayoutSeeds::new(seed);
            for index in [0, 1, 2, 1000, u64::MAX] {
                let base = SplitMix64::new(seed).next_u64();
                let mut scratch = Xoshiro256::from_seed(base ^ SplitMix64::new(index).next_u64());
                let mut cached = seeds.rng(index);
                for _ in 0..4 {
                    assert_eq!(cached.next_u64(), scratch.next_u64(), "seed {seed}, playout {index}");
                }
            }
        }
    }

    #[test]
    fn the_outcome_tally_counts_each_outcome_in_its_own_slot() {
        // Three outcomes, the first repeated after the others: each count lands on its own key
        // (the scan adds to every slot, a miss adds zero).
        let mut tally = OutcomeTally::default();
        for goals in [[3, 2], [2, 3], [3, 2], [4, 4], [3, 2], [2, 3]] {
            tally.add(&goals);
        }
        assert_eq!(tally.few, 3);
        assert!(tally.many.is_empty());
        let counted: Vec<(Vec<SymbolId>, u64)> = tally.into_counts().collect();
        assert_eq!(counted, vec![(vec![3, 2], 3), (vec![2, 3], 2), (vec![4, 4], 1)]);
        // A full table: the ninth outcome goes to the map, the first still counts in the table.
        let mut full = OutcomeTally::default();
        for i in 0..9 {
            full.add(&[i]);
        }
        full.add(&[0]);
        full.add(&[8]);
        assert_eq!(full.few, 8);
        assert_eq!(full.counts[0], 2);
        assert_eq!(full.many.get(&vec![8]), Some(&2));
    }

    #[test]
    fn the_outcome_tally_counts_what_an_ordered_map_counts() {
        // Packed outcomes beyond the vector's capacity, and outcomes that do not pack (four goals,
        // a symbol of 2^16), interleaved and repeated.
        let mut outcomes: Vec<Vec<SymbolId>> = (0..12).map(|i| vec![i % 5, i]).collect();
        outcomes.push(vec![1, 2, 3, 4]);
        outcomes.push(vec![1 << 16]);
        outcomes.push(vec![]);
        let mut tally = OutcomeTally::default();
        let mut expected = BTreeMap::<Vec<SymbolId>, u64>::new();
        for round in 0..40 {
            let goals = &outcomes[(round * 7) % outcomes.len()];
            tally.add(goals);
            *expected.entry(goals.clone()).or_insert(0) += 1;
        }
        let mut counted = BTreeMap::<Vec<SymbolId>, u64>::new();
        for (goals, count) in tally.into_counts() {
            assert!(counted.insert(goals, count).is_none(), "every outcome is counted in one place");
        }
        assert_eq!(counted, expected);
    }
}
