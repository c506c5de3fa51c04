//! Immediate linear move searches whose chain starts with reachability checks: reversi's `cell =
//! Spot(*); board[cell] == empty; ? legalAt; $$ cell; player = keeper`, listed in a playout as
//! the members passing the filter and every check, with no move list.
//!
//! A [`LinearMoves`] chain may open with `? a -> b` / `! a -> b` edges ([`LinearMoves::checks`]):
//! a check leaves the state as it found it, so when every edge after the checks can neither fail
//! nor raise an error ([`LinearMoves::immediate`]), the moves are exactly the members that pass
//! the filter and then every check, in member order, each with its own tags. A playout collects
//! those members ([`Scratch::checked_linear_choices`]), draws among them as among the listed
//! moves, and runs the chain after the checks for the member drawn alone
//! (`Scratch::take_linear_choice`): no frame, no undo log, no move list and no successor copy per
//! move. The general search runs the same filter and the same checks on the same states (the
//! member written, nothing else), member after member, so the same members pass and the first
//! error (a check's, the only edges here that can raise one) is the same.
//!
//! A check whose plan is a cursor chain (module `plan_steps`) runs it straight, without
//! `Scratch::reach`'s dispatch (the chain writes nothing; `None`, past the step bound, hands the
//! check to the general search, as `reach` does); with plans off or checked, and for any other
//! check, `reach` runs it. Cost per member passing the filter: the member's write and the checks.

use super::program::{Hot, Ins};
use super::search::{detached_holds, Scratch};
use super::{FastEngine, LinearMoves, ReachPlans, NO_EDGE};
use crate::automaton::SymbolId;
use crate::engine::EngineError;

impl Scratch {
    /// The members of an [`LinearMoves::immediate`] search with checks that pass its filter and
    /// its checks, which are its moves in order (kept for `Scratch::take_linear_choice`); their
    /// number, or the first error a check raised. The working state is unchanged afterwards.
    /// Out of line: inlined into the playout loop it cost tic-tac-toe and connect four, which
    /// list without checks, about 1 % per playout.
    #[inline(never)]
    pub(crate) fn checked_linear_choices(
        &mut self,
        engine: &FastEngine,
        linear: &LinearMoves,
    ) -> Result<usize, EngineError> {
        let Hot::SetAnySlot { slot, members } = &engine.edges[linear.choice as usize].hot else {
            unreachable!("linear move searches start with an any-assignment to a slot")
        };
        let slot = *slot as usize;
        self.choices.clear();
        let old = self.values[slot];
        let found = self.collect_checked(engine, linear, slot, members);
        self.values[slot] = old;
        found.map(|()| self.choices.len())
    }

    /// [`Scratch::checked_linear_choices`]'s loop: leaves the member's slot written.
    fn collect_checked(
        &mut self,
        engine: &FastEngine,
        linear: &LinearMoves,
        slot: usize,
        members: &[SymbolId],
    ) -> Result<(), EngineError> {
        let filter = engine.edges.get(linear.filter as usize).filter(|_| linear.filter != NO_EDGE);
        let checks = &linear.chain[..linear.checks as usize];
        for &member in members.iter() {
            self.values[slot] = member;
            if filter.is_some_and(|filter| !detached_holds(filter, &self.values, &engine.constants)) {
                continue;
            }
            let mut passes = true;
            for &edge in checks {
                let Ins::Reach { from, to, negated, context } = engine.edges[edge as usize].ins else {
                    unreachable!("`LinearMoves::checks` counts reachability checks")
                };
                if self.check(engine, from, to, context)? == negated {
                    passes = false;
                    break;
                }
            }
            if passes {
                self.choices.push(member);
            }
        }
        Ok(())
    }

    /// Whether `to` is reachable from `from` in check `context`, at depth 1 (the move search's
    /// checks): a cursor chain straight, anything else through `reach`.
    #[inline(always)]
    fn check(&mut self, engine: &FastEngine, from: u32, to: u32, context: u32) -> Result<bool, EngineError> {
        let chain = engine.plans[context as usize]
            .as_ref()
            .and_then(|plan| plan.steps.as_ref())
            .and_then(|steps| steps.cursor.as_ref())
            .filter(|_| engine.plan_mode == ReachPlans::On && from != to);
        if let Some(chain) = chain {
            if let Some(reachable) = chain.run(&self.values) {
                return Ok(reachable);
            }
            return self.reach_general(engine, from, to, context, 1);
        }
        self.reach(engine, from, to, context, 1)
    }
}
