//! The dealing sampler: consistent states for games whose hidden moves are all chance draws from a
//! shared pool (cards dealt one by one, each seen by its receiver only), by re-dealing the unseen
//! cards among the hidden draws and replaying the public history; and [`ConsistentWorlds`], a
//! stream of such states that walks from one consistent deal to the next (spec/agents.md,
//! "Sampling consistent states").

use super::{AgentError, AgentModel, State};
use crate::engine::{Move, Mover};
use crate::playout::Xoshiro256;

/// Fresh deals tried before repairing the best one: each is an exact uniform draw, so most
/// samples stay exactly uniform when later public moves rarely contradict a deal.
const FRESH_DEALS: usize = 3;

/// Swaps proposed between two worlds of a [`ConsistentWorlds`] stream, by default.
pub const DEFAULT_CHAIN_STEPS: usize = 4;

/// One replay of the history with a given deal, and what it recorded.
struct Replay<M: AgentModel> {
    /// `checkpoints[d]`: the state before move `d` (for `d <= reached`).
    checkpoints: Vec<State<M>>,
    /// How many moves of the history fit.
    reached: usize,
    /// Per move: the card drawn at a hidden draw (`None` elsewhere; stale past `reached`).
    choices: Vec<Option<Move>>,
    /// Per hidden draw before `reached`: who saw it in the replay (its receiver).
    observers: Vec<u64>,
}

impl<M: AgentModel> Clone for Replay<M> {
    fn clone(&self) -> Self {
        Replay {
            checkpoints: self.checkpoints.clone(),
            reached: self.reached,
            choices: self.choices.clone(),
            observers: self.observers.clone(),
        }
    }
}

impl<M: AgentModel> Replay<M> {
    /// Forgets what follows move `start` (the hidden draws before it keep their records).
    fn truncate(&mut self, start: usize, draws_before: usize) {
        self.checkpoints.truncate(start + 1);
        self.observers.truncate(draws_before);
        self.reached = self.reached.min(start);
    }
}

/// States consistent with what one player observed of a state, one after another: the first from
/// a dealing search (or the general search when the game is not deal-shaped), each next one
/// [`ConsistentWorlds::chain_steps`] Metropolis steps later (a swap of two hidden cards, kept when
/// the whole history still replays). Made by [`State::consistent_worlds`].
pub struct ConsistentWorlds<M: AgentModel> {
    truth: State<M>,
    player: usize,
    /// The moves hidden from `player`, in order (all chance draws when `deal_shaped`).
    hidden: Vec<usize>,
    /// The chance moves `player` saw: (move number, card). A card seen drawn later cannot have
    /// gone to an earlier hidden draw of the same pool.
    seen_draws: Vec<(usize, Move)>,
    /// Every hidden move is a chance move (and no replay has shown draws with replacement).
    deal_shaped: bool,
    /// The last consistent deal.
    current: Option<Replay<M>>,
    /// Cards to try first at the hidden draws (from an earlier world), by move number.
    hint: Vec<Option<Move>>,
    /// Moves a first world may try.
    pub budget: usize,
    /// Swaps proposed between two worlds.
    pub chain_steps: usize,
}

impl<M: AgentModel> State<M> {
    /// A stream of states consistent with what `player` observed of this one (see
    /// [`ConsistentWorlds`]), for determinised search that needs many worlds.
    pub fn consistent_worlds(&self, player: usize) -> Result<ConsistentWorlds<M>, AgentError> {
        self.game.check_player(player)?;
        let frames = self.frames();
        let hidden: Vec<usize> = (0..frames.len()).filter(|&d| !frames[d].steps[0].seen_by(player)).collect();
        let deal_shaped = hidden.iter().all(|&d| frames[d].steps[0].mover == Mover::Random);
        let seen_draws = (0..frames.len())
            .filter(|&d| frames[d].steps[0].mover == Mover::Random && frames[d].steps[0].seen_by(player))
            .map(|d| (d, frames[d].steps[0].tags.clone()))
            .collect();
        Ok(ConsistentWorlds {
            truth: self.clone(),
            player,
            hidden,
            seen_draws,
            deal_shaped,
            current: None,
            hint: vec![None; frames.len()],
            budget: super::DEFAULT_SAMPLE_BUDGET,
            chain_steps: DEFAULT_CHAIN_STEPS,
        })
    }

    /// The dealing sampler alone: `Ok(None)` when some move hidden from `player` is not a chance
    /// draw from a pool (the game is not deal-shaped) or no consistent deal was found within
    /// `budget` moves tried. [`State::sample_consistent_state`] tries it first, then falls back
    /// to the general search.
    pub fn sample_consistent_state_by_dealing(
        &self,
        player: usize,
        rng: &mut Xoshiro256,
        budget: usize,
    ) -> Result<Option<State<M>>, AgentError> {
        let mut tried = 0;
        self.consistent_worlds(player)?.deal(rng, budget, &mut tried)
    }
}

impl<M: AgentModel> ConsistentWorlds<M> {
    /// Starts the search from the hidden cards of `world` (an earlier sample, say, for a shorter
    /// history of the same game): where they still fit, the first deal keeps them.
    pub fn with_hint(mut self, world: &State<M>) -> Self {
        for (depth, tags) in world.history_moves().into_iter().enumerate() {
            if depth < self.hint.len() && self.hidden.binary_search(&depth).is_ok() {
                self.hint[depth] = Some(tags);
            }
        }
        self
    }

    /// The next consistent state.
    pub fn sample(&mut self, rng: &mut Xoshiro256) -> Result<State<M>, AgentError> {
        if self.current.is_some() {
            for _ in 0..self.chain_steps {
                self.chain_step(rng)?;
            }
        } else {
            let mut tried = 0;
            if let Some(world) = self.deal(rng, self.budget * 3 / 8, &mut tried)? {
                return Ok(world);
            }
            // A hint that led nowhere: deal afresh with the next share of the budget.
            if self.hint.iter().any(Option::is_some) {
                self.hint.iter_mut().for_each(|choice| *choice = None);
                if let Some(world) = self.deal(rng, self.budget * 3 / 4, &mut tried)? {
                    return Ok(world);
                }
            }
            return self.truth.sample_consistent_state_with_budget(
                self.player,
                rng,
                self.budget.saturating_sub(tried).max(1),
            );
        }
        let current = self.current.as_ref().expect("a consistent deal");
        Ok(current.checkpoints.last().expect("a replay has its start").clone())
    }

    /// A first consistent deal (kept as the chain's start): fresh deals, then repair.
    pub(super) fn deal(
        &mut self,
        rng: &mut Xoshiro256,
        limit: usize,
        tried: &mut usize,
    ) -> Result<Option<State<M>>, AgentError> {
        if !self.deal_shaped {
            return Ok(None);
        }
        let moves = self.hint.len();
        let start = Replay {
            checkpoints: vec![self.truth.game.new_initial_state()],
            reached: 0,
            choices: self.hint.clone(),
            observers: Vec::new(),
        };
        // Fresh deals (without a hint): exactly uniform over the assignments of unseen cards to
        // hidden draws, so a fresh deal that fits is a uniform sample among the consistent ones.
        let fresh = if self.hint.iter().any(Option::is_some) { 1 } else { FRESH_DEALS };
        let mut best: Option<Replay<M>> = None;
        for _ in 0..fresh {
            let Some(replay) = self.replay(start.clone(), 0, rng, tried, limit)? else { return Ok(None) };
            if best.as_ref().is_none_or(|b| replay.reached > b.reached) {
                best = Some(replay);
            }
            if best.as_ref().is_some_and(|b| b.reached == moves) || *tried >= limit {
                break;
            }
        }
        // Repair: move one card between a hidden draw and another (or the undealt rest), and keep
        // the change unless the replay then fails earlier.
        let mut current = best.expect("at least one deal");
        while current.reached < moves {
            if *tried >= limit {
                return Ok(None);
            }
            if self.hidden.first().is_none_or(|&first| first >= current.reached) {
                // Nothing hidden comes before the move that fails: no deal can fix it.
                return Ok(None);
            }
            let Some((start, choices)) = self.propose(&current, rng, true) else {
                // The picked draw had no other card to take; pick again.
                *tried += 1;
                continue;
            };
            let mut candidate = current.clone();
            candidate.choices = choices;
            candidate.truncate(start, self.hidden.partition_point(|&d| d < start));
            let Some(candidate) = self.replay(candidate, start, rng, tried, limit)? else { return Ok(None) };
            if candidate.reached >= current.reached {
                current = candidate;
            }
        }
        let world = current.checkpoints.last().cloned();
        self.current = Some(current);
        Ok(world)
    }

    /// One Metropolis step from the current deal: propose a swap and keep it when the whole
    /// history replays. Proposals are symmetric, so the walk's stationary distribution is uniform
    /// over the consistent deals it can reach.
    fn chain_step(&mut self, rng: &mut Xoshiro256) -> Result<(), AgentError> {
        let current = self.current.as_ref().expect("a consistent deal");
        let Some((start, choices)) = self.propose(current, rng, false) else { return Ok(()) };
        let mut candidate = current.clone();
        candidate.choices = choices.clone();
        candidate.truncate(start, self.hidden.partition_point(|&d| d < start));
        let mut tried = 0;
        let Some(candidate) = self.replay(candidate, start, rng, &mut tried, usize::MAX)? else { return Ok(()) };
        // A proposed card that does not fit is redrawn by the replay; that is not the swap
        // proposed (nor a symmetric proposal), so only exact swaps are accepted.
        let exact = self.hidden.iter().all(|&d| candidate.choices[d] == choices[d]);
        if candidate.reached == self.hint.len() && exact {
            self.current = Some(candidate);
        }
        Ok(())
    }

    /// Replays the history from move `start` (whose checkpoint `replay` holds), drawing the hidden
    /// cards: the recorded choice when it is still among the options, else a uniformly random
    /// option. Stops at the first move that does not fit, or when `limit` moves have been tried.
    /// `None` when the chance moves turn out not to be draws from a pool: a drawn outcome is still
    /// legal at the next chance move, which offers no more outcomes than before (dice, say).
    fn replay(
        &mut self,
        mut replay: Replay<M>,
        start: usize,
        rng: &mut Xoshiro256,
        tried: &mut usize,
        limit: usize,
    ) -> Result<Option<Replay<M>>, AgentError> {
        let frames = self.truth.frames();
        let mut state = replay.checkpoints[start].clone();
        let mut hidden_index = self.hidden.partition_point(|&d| d < start);
        // The number of outcomes of the last chance move replayed, and the one drawn (checked
        // on fresh deals, where every draw's outcomes are listed anyway).
        let check_pool = start == 0 && replay.choices.iter().all(Option::is_none);
        let mut last_draw: Option<(usize, Move)> = None;
        replay.reached = start;
        for (depth, frame) in frames.iter().enumerate().skip(start) {
            let original = &frame.steps;
            if check_pool && original[0].mover == Mover::Random {
                let legal = state.legal_moves()?;
                if let Some((outcomes, drawn)) = &last_draw {
                    if legal.len() <= *outcomes && legal.iter().any(|(_, tags)| tags == drawn) {
                        self.deal_shaped = false;
                        return Ok(None);
                    }
                }
                // A hidden draw's card is filled in below, once chosen.
                let seen = original[0].seen_by(self.player);
                last_draw = Some((legal.len(), if seen { original[0].tags.clone() } else { Vec::new() }));
            }
            let fitted = if self.hidden.get(hidden_index) == Some(&depth) {
                hidden_index += 1;
                // The kept card first (no need to list the options when it fits), then the
                // options in a random order.
                let mut fitted = None;
                let kept = replay.choices[depth].take();
                if let Some(tags) = kept.as_ref().filter(|_| *tried < limit) {
                    *tried += 1;
                    fitted = self.truth.try_move(&state, tags, original, self.player)?.map(|next| (next, tags.clone()));
                }
                if fitted.is_none() {
                    let mut order = self.options(&state, depth)?;
                    order.retain(|tags| Some(tags) != kept.as_ref());
                    shuffle(&mut order, rng);
                    while let Some(tags) = order.pop() {
                        if *tried >= limit {
                            break;
                        }
                        *tried += 1;
                        if let Some(next) = self.truth.try_move(&state, &tags, original, self.player)? {
                            fitted = Some((next, tags));
                            break;
                        }
                    }
                }
                fitted.map(|(next, tags)| {
                    replay.observers.push(next.last.as_ref().map_or(0, |frame| frame.steps[0].observers));
                    if let Some((_, drawn)) = &mut last_draw {
                        drawn.clone_from(&tags);
                    }
                    replay.choices[depth] = Some(tags);
                    next
                })
            } else {
                if *tried >= limit {
                    return Ok(Some(replay));
                }
                *tried += 1;
                self.truth.try_move(&state, &original[0].tags, original, self.player)?
            };
            let Some(next) = fitted else { return Ok(Some(replay)) };
            replay.checkpoints.push(next.clone());
            replay.reached = depth + 1;
            state = next;
        }
        Ok(Some(replay))
    }

    /// The cards a hidden draw at move `depth` may take in `state`: its legal outcomes less the
    /// cards `player` sees drawn later (all of them if that leaves none: a pool refilled in
    /// between, as after a redeal).
    fn options(&self, state: &State<M>, depth: usize) -> Result<Vec<Move>, AgentError> {
        let legal: Vec<Move> = state.legal_moves()?.iter().map(|(_, tags)| tags.clone()).collect();
        let later = &self.seen_draws[self.seen_draws.partition_point(|(d, _)| *d <= depth)..];
        let unreserved: Vec<Move> =
            legal.iter().filter(|tags| !later.iter().any(|(_, seen)| seen == *tags)).cloned().collect();
        Ok(if unreserved.is_empty() { legal } else { unreserved })
    }

    /// A change of deal: the move number to replay from and the new choices. One hidden draw
    /// before `replay.reached` takes another of its options, and the hidden draw holding that
    /// card, if any, takes the old one (a swap, so the cards stay a deal). When `targeted` (a
    /// repair), half the time the draw is one the failing move's player received, and half the
    /// time the new card is one the failing move names.
    fn propose(&self, replay: &Replay<M>, rng: &mut Xoshiro256, targeted: bool) -> Option<(usize, Vec<Option<Move>>)> {
        let before = self.hidden.partition_point(|&d| d < replay.reached);
        if before == 0 {
            return None;
        }
        let failed = self.truth.frames().get(replay.reached).map(|frame| frame.steps[0].clone());
        let receivers: Vec<usize> = match failed.as_ref().map(|step| step.mover) {
            Some(Mover::Player(q)) if targeted => {
                (0..before).filter(|&i| replay.observers[i] & (1 << q) != 0).collect()
            }
            _ => Vec::new(),
        };
        let pick = if !receivers.is_empty() && rng.below(2) == 0 {
            receivers[rng.below(receivers.len() as u64) as usize]
        } else {
            rng.below(before as u64) as usize
        };
        let slot = self.hidden[pick];
        let old = replay.choices[slot].clone()?;
        let options = self.options(&replay.checkpoints[slot], slot).ok()?;
        let mut others: Vec<&Move> = options.iter().filter(|o| **o != old).collect();
        if targeted {
            // A card from another receiver's hand (or the undealt rest): swapping within one hand
            // changes nothing a later move could notice.
            let own: Vec<&Move> = (0..before)
                .filter(|&i| replay.observers[i] == replay.observers[pick])
                .filter_map(|i| replay.choices[self.hidden[i]].as_ref())
                .collect();
            let elsewhere: Vec<&Move> = others.iter().copied().filter(|o| !own.contains(o)).collect();
            if !elsewhere.is_empty() {
                others = elsewhere;
            }
        }
        if others.is_empty() {
            return None;
        }
        // Cards the failing move names: the same symbol (a trick game's `single HA` and the card
        // `HA`) or, failing that, a symbol whose name shares a digit or capital with one of the
        // move's (Dou Dizhu's `trio 777` and the cards `H7`, `S7`...).
        let named: Vec<&Move> = match &failed {
            Some(step) if targeted && step.seen_by(self.player) => {
                let same: Vec<&Move> =
                    others.iter().copied().filter(|o| o.iter().any(|t| step.tags.contains(t))).collect();
                if same.is_empty() {
                    let automaton = self.truth.game.automaton();
                    let marks = |tags: &[u32]| -> Vec<char> {
                        tags.iter()
                            .flat_map(|&t| automaton.symbol_name(t).chars())
                            .filter(|c| c.is_ascii_digit() || c.is_uppercase())
                            .collect()
                    };
                    let wanted = marks(&step.tags);
                    others.iter().copied().filter(|o| marks(o).iter().any(|c| wanted.contains(c))).collect()
                } else {
                    same
                }
            }
            _ => Vec::new(),
        };
        let pool = if !named.is_empty() && rng.below(2) == 0 { &named } else { &others };
        let new = pool[rng.below(pool.len() as u64) as usize].clone();
        let mut choices = replay.choices.clone();
        let mut start = slot;
        if let Some(&holder) = self.hidden[..before].iter().find(|&&d| choices[d].as_ref() == Some(&new)) {
            choices[holder] = Some(old);
            start = start.min(holder);
        }
        choices[slot] = Some(new);
        Some((start, choices))
    }
}

/// Fisher–Yates.
fn shuffle<T>(items: &mut [T], rng: &mut Xoshiro256) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}
