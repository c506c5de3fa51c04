//! Two playouts interleaved on one worker: the compiled playout loop for games whose plies are short.
//!
//! A ply of a small game (tic-tac-toe ~230 instructions, connect four ~600) is one chain of
//! dependent steps through memory: the listing reads the board the last ply wrote, the pick
//! reads the listed move, the successor and the keeper's move write the board again, and the
//! next listing reads it. The core runs the chain mostly one step at a time, with room to spare.
//! Two playouts in flight on the same worker (*lanes*), each with its own state, generator and
//! search context, give it two independent chains: the worker advances lane A one ply, then
//! lane B one ply, and so on; a lane whose playout ends records it and starts the next index.
//!
//! Exact: each playout draws from its own generator ([`PlayoutWorker::next_playout`]), in its
//! own context, and runs the plies [`super::random_playout_into`] runs ([`super::playout_ply`],
//! the same function), so it makes the same choices and reaches the same outcome; the worker's
//! totals are sums and counts, which do not depend on the order playouts finish in. Errors: a
//! lane that fails stops the worker, after the other lane's playout is run to its end if its
//! index is lower (it may fail too, and the lowest failing index is the one reported); every
//! other playout with a lower index has finished already, as indices are handed out in order.
//!
//! Taken where [`two_lanes`] holds: games whose every search runs lean and in place and that
//! list most plies as deltas ([`super::lean_kept`], no replay skipping to a member), with states
//! of at most two cache lines, i.e. the games whose plies are short (tic-tac-toe and connect
//! four). Others keep one playout at a time ([`crate::playout::each_playout`]).

use super::{begin_playout, finish_playout, lean_kept, playout_ply, CompiledGame, CompiledState, PlyCursor, Search};
use crate::engine::EngineError;
use crate::playout::{PlayoutOutcome, PlayoutWorker, Xoshiro256};

/// The largest state (node and values, in bytes) whose game runs two lanes: two cache lines.
/// Measured (wall clock): tic-tac-toe (24-byte states) +30 to +35 % playouts a second with two
/// lanes (session 27); connect four (68 bytes) +5 to +9 % in both forms (session 28, medians of
/// 9 interleaved runs; session 27 had found none in `.rg` and -11 % in `.hrg`, when the one-lane
/// loop kept its generator in memory: see [`super::playout_ply`]).
const TWO_LANES_MAX_STATE_BYTES: usize = 128;

/// Whether [`run_two_lanes`] runs `G`'s playouts: every search lean and in place, no replay
/// skipping to a member, and a state of at most [`TWO_LANES_MAX_STATE_BYTES`].
#[inline(always)]
pub(super) const fn two_lanes<G: CompiledGame>() -> bool {
    lean_kept::<G>()
        && !G::REPLAY_SKIPS_TO_MEMBER
        && std::mem::size_of::<CompiledState<G::Values>>() <= TWO_LANES_MAX_STATE_BYTES
}

/// One playout in flight: its index, generator, state and cursor, and the outcome it counts into.
struct Lane<V> {
    index: u64,
    rng: Xoshiro256,
    state: CompiledState<V>,
    cursor: PlyCursor,
    outcome: PlayoutOutcome,
}

impl<V: Copy> Lane<V> {
    /// Starts the worker's next playout in this lane, returning whether one is in flight (`false`
    /// once every playout is handed out). A playout whose start state is terminal is recorded at
    /// once and the next one started.
    #[inline(always)]
    fn start<G: CompiledGame<Values = V>>(
        &mut self,
        worker: &mut PlayoutWorker<'_>,
        search: &mut Search<V>,
        max_moves: u64,
    ) -> Result<bool, (u64, EngineError)> {
        loop {
            let Some((index, rng)) = worker.next_playout() else { return Ok(false) };
            self.index = index;
            self.rng = rng;
            self.state = begin_playout::<G>(search, &mut self.outcome).map_err(|e| (index, e))?;
            self.cursor = PlyCursor::new(max_moves);
            if self.state.node != G::END {
                return Ok(true);
            }
            record_finished::<G>(worker, &self.state, &mut self.outcome);
        }
    }

    /// One ply of the lane's playout; at its end, records it and starts the next. Returns whether
    /// a playout is in flight. The error comes boxed: a result holding the error itself is
    /// returned through memory, and every ply then stored its `Ok(true)` there and read it back.
    #[inline(always)]
    fn advance<G: CompiledGame<Values = V>>(
        &mut self,
        worker: &mut PlayoutWorker<'_>,
        search: &mut Search<V>,
        max_moves: u64,
    ) -> Result<bool, Box<(u64, EngineError)>> {
        let goes_on = playout_ply::<G>(
            &mut self.state,
            &mut self.cursor,
            &mut self.rng,
            max_moves,
            self.index,
            search,
            &mut self.outcome,
        )
        .map_err(|e| Box::new((self.index, e)))?;
        if goes_on {
            return Ok(true);
        }
        self.finish::<G>(worker, search, max_moves)
    }

    /// The end of the lane's playout: recorded, and the next one started. Out of line: once a
    /// playout, and the start's generator seeding would crowd the ply's registers.
    #[inline(never)]
    fn finish<G: CompiledGame<Values = V>>(
        &mut self,
        worker: &mut PlayoutWorker<'_>,
        search: &mut Search<V>,
        max_moves: u64,
    ) -> Result<bool, Box<(u64, EngineError)>> {
        record_finished::<G>(worker, &self.state, &mut self.outcome);
        self.start::<G>(worker, search, max_moves).map_err(Box::new)
    }

    /// The error a worker reports when another lane failed with `error`: this lane's own, if its
    /// playout (in flight where `live`) has a lower index and fails when run to its end.
    #[cold]
    #[inline(never)]
    fn lowest_error<G: CompiledGame<Values = V>>(
        &mut self,
        live: bool,
        error: (u64, EngineError),
        search: &mut Search<V>,
        max_moves: u64,
    ) -> (u64, EngineError) {
        if live && self.index < error.0 {
            loop {
                let ply = playout_ply::<G>(
                    &mut self.state,
                    &mut self.cursor,
                    &mut self.rng,
                    max_moves,
                    self.index,
                    search,
                    &mut self.outcome,
                );
                match ply {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(own) => return (self.index, own),
                }
            }
        }
        error
    }
}

/// The most players whose goals [`record_finished`] passes in a fixed array.
const FIXED_GOALS: usize = 3;

/// Records a finished playout (terminal `state`, counts in `outcome`) on `worker`: with at most
/// [`FIXED_GOALS`] players their goals go straight from the state to the tally in a fixed array
/// (the outcome's goal vector is not filled: a lane's outcome is its own), else through
/// [`finish_playout`]. The same counts and outcome either way.
#[inline(always)]
fn record_finished<G: CompiledGame>(
    worker: &mut PlayoutWorker<'_>,
    state: &CompiledState<G::Values>,
    outcome: &mut PlayoutOutcome,
) {
    let players = G::PLAYERS.len();
    if players <= FIXED_GOALS {
        let mut goals = [0; FIXED_GOALS];
        for (player, goal) in goals.iter_mut().enumerate().take(players) {
            *goal = G::goal(&state.values, player);
        }
        worker.record_counts(outcome, &goals[..players]);
    } else {
        finish_playout::<G>(state, outcome);
        worker.record(outcome);
    }
}

/// A worker's playouts of `G`, two at a time (see the module documentation); `searches` are its
/// two lanes' contexts.
pub(super) fn run_two_lanes<G: CompiledGame>(
    worker: &mut PlayoutWorker<'_>,
    searches: &mut [Search<G::Values>; 2],
    max_moves: u64,
) -> Result<(), (u64, EngineError)> {
    let [search_a, search_b] = searches;
    let empty = || Lane {
        index: 0,
        rng: Xoshiro256::from_seed(0),
        state: G::initial(),
        cursor: PlyCursor::new(max_moves),
        outcome: PlayoutOutcome::default(),
    };
    let (mut a, mut b) = (empty(), empty());
    // Nothing is in flight before lane A's first playout, and only it before lane B's.
    let mut live_a = a.start::<G>(worker, search_a, max_moves)?;
    let mut live_b = match b.start::<G>(worker, search_b, max_moves) {
        Ok(live) => live,
        Err(error) => return Err(a.lowest_error::<G>(live_a, error, search_a, max_moves)),
    };
    while live_a && live_b {
        live_a = match a.advance::<G>(worker, search_a, max_moves) {
            Ok(live) => live,
            Err(error) => return Err(b.lowest_error::<G>(live_b, *error, search_b, max_moves)),
        };
        live_b = match b.advance::<G>(worker, search_b, max_moves) {
            Ok(live) => live,
            Err(error) => return Err(a.lowest_error::<G>(live_a, *error, search_a, max_moves)),
        };
    }
    // Every playout is handed out: the lane still in flight finishes alone.
    let (lane, search) = if live_a { (&mut a, search_a) } else { (&mut b, search_b) };
    let mut live = live_a || live_b;
    while live {
        live = lane.advance::<G>(worker, search, max_moves).map_err(|error| *error)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{random_playout, run_playouts, search_context, Fail, Names, NodeId, SymbolId};
    use super::*;
    use crate::playout::PlayoutConfig;
    use std::collections::BTreeMap;

    /// A hand-written game whose playouts have different lengths: values `[player, sum, ..]`;
    /// at node `turn` (2) `x` has `1 + sum % 3` moves, move `i` adding `i + 1` to the sum, and
    /// the keeper (node `begin`) ends the game once the sum reaches 10 (4 to 10 plies). Every
    /// search runs lean and in place and its replay skips nothing, so its playouts run in two
    /// lanes, which fall out of step at once. A sum of `STUCK` leaves `x` no move (the playout
    /// fails at once, whatever its length so far); 255 never.
    struct Walk<const STUCK: u8>;

    impl<const STUCK: u8> CompiledGame for Walk<STUCK> {
        type Values = [u8; 4];
        const FINGERPRINT: u64 = 0;
        const NAMES: Names = Names { symbols: &["x", "keeper", "random"], nodes: &["begin", "end", "turn"] };
        const BEGIN: NodeId = 0;
        const END: NodeId = 1;
        const KEEPER: SymbolId = 1;
        const RANDOM: SymbolId = 2;
        const PLAYERS: &'static [SymbolId] = &[0];
        const SCORES: &'static [SymbolId] = &[];
        const ONE: Option<SymbolId> = None;
        const STARTS_ALL_UNIQUE: bool = true;
        const NO_VISITS: bool = true;

        fn initial_values() -> [u8; 4] {
            [1, 0, 0, 0]
        }
        fn player(values: &[u8; 4]) -> SymbolId {
            values[0] as SymbolId
        }
        fn goal(values: &[u8; 4], _: usize) -> SymbolId {
            values[1] as SymbolId
        }
        fn visible(_: &[u8; 4], _: usize) -> SymbolId {
            0
        }
        fn search(state: &CompiledState<[u8; 4]>, cx: &mut Search<[u8; 4]>) -> Result<(), Fail> {
            let mut values = state.values;
            Self::search_in_place(state.node, &mut values, cx)
        }
        fn search_in_place(node: NodeId, v: &mut [u8; 4], cx: &mut Search<[u8; 4]>) -> Result<(), Fail> {
            let old = *v;
            if node != 2 {
                v[0] = if v[1] >= 10 { 1 } else { 0 };
                cx.complete_unique_valid(if v[1] >= 10 { 1 } else { 2 }, v);
                *v = old;
                return Ok(());
            }
            let count = if v[1] == STUCK { 0 } else { 1 + v[1] % 3 };
            for index in 0..count {
                v[0] = 1;
                v[1] += index + 1;
                cx.complete_unique_valid_tagged(3 + index as SymbolId, 0, v);
                *v = old;
            }
            Ok(())
        }
    }

    /// What `count` playouts seeded with `seed` give one at a time: (plies, legal moves, sums by
    /// goal), or the error of the lowest-numbered failing one.
    fn one_at_a_time<const STUCK: u8>(
        count: u64,
        seed: u64,
        max_moves: u64,
    ) -> Result<(u64, u64, BTreeMap<u32, u64>), EngineError> {
        let mut search = search_context::<Walk<STUCK>>();
        let (mut plies, mut legal, mut goals) = (0, 0, BTreeMap::new());
        for index in 0..count {
            let mut rng = Xoshiro256::for_playout(seed, index);
            let outcome = random_playout::<Walk<STUCK>>(&mut rng, max_moves, index, &mut search)?;
            plies += outcome.plies;
            legal += outcome.legal_moves;
            *goals.entry(outcome.goals[0]).or_insert(0) += 1;
        }
        Ok((plies, legal, goals))
    }

    #[test]
    fn two_lanes_play_the_playouts_one_lane_plays() {
        assert!(two_lanes::<Walk<255>>());
        for (count, threads) in [(0, 1), (1, 1), (2, 1), (3, 1), (41, 1), (41, 2), (500, 2)] {
            let config = PlayoutConfig { count, seed: 5, threads, max_moves: 100 };
            let report = run_playouts::<Walk<255>>(&config).expect("no playout is too long");
            let (plies, legal, goals) = one_at_a_time::<255>(count, 5, 100).expect("no playout is too long");
            let counted: BTreeMap<u32, u64> =
                report.score_distribution.iter().map(|entry| (entry.scores[0].symbol, entry.count)).collect();
            assert_eq!(report.total_plies, plies, "{count} playouts on {threads} threads");
            assert_eq!(report.mean_legal_moves, if plies == 0 { 0.0 } else { legal as f64 / plies as f64 });
            assert_eq!(counted, goals);
        }
        // The lengths differ (so the lanes fall out of step): 4 to 10 plies.
        let lengths: Vec<u64> = (0..40)
            .map(|index| {
                let mut rng = Xoshiro256::for_playout(5, index);
                random_playout::<Walk<255>>(&mut rng, 100, index, &mut search_context::<Walk<255>>()).unwrap().plies
            })
            .collect();
        assert!(lengths.iter().any(|&n| n <= 5) && lengths.iter().any(|&n| n >= 7), "{lengths:?}");
    }

    /// Runs `Walk<STUCK>`'s playouts with move limits of 6 to 9 and 30 seeds, 20 playouts each,
    /// on one and two threads: the report is the error of the lowest-numbered failing playout, or
    /// the totals of all. Returns the number of runs where a lane must run its playout to the end
    /// after the other lane failed to find the error reported: the lowest failing playout is too
    /// long, and the next one, which the other lane starts before it ends, gets stuck sooner.
    fn check_errors<const STUCK: u8>() -> usize {
        let mut other_lane_first = 0;
        for max_moves in 6..10 {
            for seed in 0..30 {
                let expected = one_at_a_time::<STUCK>(20, seed, max_moves);
                for threads in [1, 2] {
                    let config = PlayoutConfig { count: 20, seed, threads, max_moves };
                    let report = run_playouts::<Walk<STUCK>>(&config);
                    match (&report, &expected) {
                        (Err(got), Err(want)) => assert_eq!(got, want, "seed {seed}, {threads} threads"),
                        (Ok(got), Ok((plies, _, _))) => assert_eq!(got.total_plies, *plies),
                        _ => panic!("seed {seed}, {threads} threads: {report:?} against {expected:?}"),
                    }
                }
                if let Err(EngineError::PlayoutTooLong { playout, .. }) = expected {
                    let mut rng = Xoshiro256::for_playout(seed, playout + 1);
                    let mut search = search_context::<Walk<STUCK>>();
                    let next = random_playout::<Walk<STUCK>>(&mut rng, max_moves, playout + 1, &mut search);
                    other_lane_first += matches!(next, Err(EngineError::UnexpectedEnd { .. })) as usize;
                }
            }
        }
        other_lane_first
    }

    #[test]
    fn two_lanes_report_the_error_of_the_lowest_failing_playout() {
        // Too long only: the lane whose playout started first meets its limit first.
        check_errors::<255>();
        // A sum of 5, 7 or 8 leaves no move: a later playout, in the other lane, may fail first.
        let other_lane_first: Vec<usize> = vec![check_errors::<5>(), check_errors::<7>(), check_errors::<8>()];
        assert!(other_lane_first.iter().sum::<usize>() > 5, "{other_lane_first:?}");
    }
}
