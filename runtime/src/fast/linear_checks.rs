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
//! (`Scratch::take_checked_linear_choice`): no frame, no undo log, no move list and no successor
//! copy per move. Outside playouts (perft, `moves`) such a search runs as any linear search
//! (`Scratch::explore_linear`, the checks through `run_edge`). The general search runs the same filter and the same checks on the same states (the
//! member written, nothing else), member after member, so the same members pass and the first
//! error (a check's, the only edges here that can raise one) is the same.
//!
//! A check whose plan is a cursor chain (module `plan_steps`) runs it straight, without
//! `Scratch::reach`'s dispatch (the chain writes nothing; `None`, past the step bound, hands the
//! check to the general search, as `reach` does); with plans off or checked, and for any other
//! check, `reach` runs it. Cost per member passing the filter: the member's write and the checks.

use super::plan_steps::CursorChain;
use super::program::{Hot, Ins};
use super::search::{detached_holds, Scratch};
use super::{FastEngine, LinearMoves, PlayoutOutcome, ReachPlans, NO_EDGE};
use crate::automaton::SymbolId;
use crate::engine::{EngineError, Mover};
use crate::playout::Xoshiro256;

impl FastEngine {
    /// A playout's ply at a [`LinearMoves::checked_immediate`] node: lists the members passing
    /// the filter and the checks, draws one as [`FastEngine::draw_move`] does, runs the chain
    /// after the checks for it and settles; the number of moves. Out of line, so that the playout
    /// loop of the other games keeps its code as it was (inlined, the listing cost tic-tac-toe
    /// and connect four about 1 % per playout).
    #[inline(never)]
    pub(super) fn play_checked_linear_move(
        &self,
        linear: &LinearMoves,
        scratch: &mut Scratch,
        mover: Mover,
        rng: &mut Xoshiro256,
        outcome: &mut PlayoutOutcome,
    ) -> Result<usize, EngineError> {
        let count = scratch.checked_linear_choices(self, linear)?;
        let pick = self.draw_move(scratch.node, count, mover, rng, outcome)?;
        scratch.take_checked_linear_choice(self, linear, pick)?;
        self.settle_scratch(scratch)?;
        Ok(count)
    }
}

impl Scratch {
    /// The members of an [`LinearMoves::immediate`] search with checks that pass its filter and
    /// its checks, which are its moves in order (kept for `Scratch::take_linear_choice`); their
    /// number, or the first error a check raised. The working state is unchanged afterwards.
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

    /// Makes move `pick` of the last [`Scratch::checked_linear_choices`] the working state: the
    /// member written, then the chain after the checks run on the working state itself (the
    /// checks held for it when it was listed, and write nothing).
    fn take_checked_linear_choice(
        &mut self,
        engine: &FastEngine,
        linear: &LinearMoves,
        pick: usize,
    ) -> Result<(), EngineError> {
        self.take_linear_choice_from(engine, linear, pick, linear.checks as usize)
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
        if let [edge] = checks {
            let Ins::Reach { from, to, negated, context } = engine.edges[*edge as usize].ins else {
                unreachable!("`LinearMoves::checks` counts reachability checks")
            };
            if let Some(chain) = cursor_chain(engine, from, to, context) {
                // The commonest case, with the chain found once per listing, not per member.
                for &member in members.iter() {
                    self.values[slot] = member;
                    if filter.is_some_and(|filter| !detached_holds(filter, &self.values, &engine.constants)) {
                        continue;
                    }
                    let reachable = match chain.run(&self.values) {
                        Some(reachable) => reachable,
                        None => self.reach_general(engine, from, to, context, 1)?,
                    };
                    if reachable != negated {
                        self.choices.push(member);
                    }
                }
                return Ok(());
            }
        }
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
        if let Some(chain) = cursor_chain(engine, from, to, context) {
            if let Some(reachable) = chain.run(&self.values) {
                return Ok(reachable);
            }
            return self.reach_general(engine, from, to, context, 1);
        }
        self.reach(engine, from, to, context, 1)
    }
}

/// The cursor chain that runs check `context` (`? from -> to`), when `reach` would run it (plans
/// on, `from != to`, which `reach` answers at once).
fn cursor_chain(engine: &FastEngine, from: u32, to: u32, context: u32) -> Option<&CursorChain> {
    engine.plans[context as usize]
        .as_ref()
        .and_then(|plan| plan.steps.as_ref())
        .and_then(|steps| steps.cursor.as_ref())
        .filter(|_| engine.plan_mode == ReachPlans::On && from != to)
}

#[cfg(test)]
mod tests {
    use crate::automaton::builder::AutomatonBuilder;
    use crate::fast::{FastEngine, ReachPlans};
    use crate::playout::PlayoutConfig;
    use crate::reference::ReferenceEngine;

    /// A reversi on a line of five cells: `me` places on an empty cell that outflanks a run of
    /// the other player's discs to the left or right (`? lfrom -> lto`, a direction member loop
    /// and a walk), the keeper puts the disc down, flips the runs of the other's discs on both
    /// sides (closed or not) and passes the turn; a player who cannot place (`? pfrom -> pto`)
    /// passes, and the game ends when neither can.
    fn line_reversi() -> crate::automaton::Automaton {
        line_of(&["a", "b", "c", "d", "e"], "{b: y, c: x, d: y, :empty}")
    }

    /// The game on a line of `cells` with the board `initial`.
    fn line_of(cells: &[&str], initial: &str) -> crate::automaton::Automaton {
        let pairs = |from: &[&str], to: &[&str]| {
            from.iter().zip(to).map(|(a, b)| format!("{a}: {b}, ")).collect::<String>() + ":null"
        };
        let step = format!("{{l: {{{}}}, :{{{}}}}}", pairs(&cells[1..], cells), pairs(cells, &cells[1..]));
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x, y}")
            .typedef("Score", "{0}")
            .typedef("Cell", &format!("{{{}, null}}", cells.join(", ")))
            .typedef("Dir", "{l, r}")
            .typedef("Disc", "{empty, x, y}")
            .constant("opp", "Player -> Player", "{x: y, :x}")
            .constant("step", "Dir -> Cell -> Cell", &step)
            .variable("board", "Cell -> Disc", initial)
            .variable("me", "Player", "x")
            .variable("cell", "Cell", "a")
            .variable("dir", "Dir", "l")
            .variable("cursor", "Cell", "a")
            .variable("probe", "Cell", "a")
            .variable("pdir", "Dir", "l")
            .variable("pcursor", "Cell", "a");
        let edges = [
            ("begin", "judge", ""),
            ("judge", "can", "? pfrom -> pto"),
            ("judge", "swap", "! pfrom -> pto"),
            ("swap", "judge2", "me = opp[me]"),
            ("judge2", "can", "? pfrom -> pto"),
            ("judge2", "over", "! pfrom -> pto"),
            ("can", "cx", "me == x"),
            ("can", "cy", "me != x"),
            ("cx", "pick", "player = x"),
            ("cy", "pick", "player = y"),
            ("pick", "chosen", "cell = Cell(*)"),
            ("chosen", "free", "board[cell] == empty"),
            ("free", "legal", "? lfrom -> lto"),
            ("legal", "tagged", "$$ cell"),
            ("tagged", "placed", "player = keeper"),
            ("placed", "f1", "board[cell] = me"),
            ("f1", "f0", "cursor = step[r][cell]"),
            ("f0", "f2", "board[cursor] == opp[me]"),
            ("f0", "f3", "board[cursor] != opp[me]"),
            ("f2", "f4", "board[cursor] = me"),
            ("f4", "f0", "cursor = step[r][cursor]"),
            ("f3", "g0", "cursor = step[l][cell]"),
            ("g0", "g2", "board[cursor] == opp[me]"),
            ("g0", "g3", "board[cursor] != opp[me]"),
            ("g2", "g4", "board[cursor] = me"),
            ("g4", "g0", "cursor = step[l][cursor]"),
            ("g3", "judge", "me = opp[me]"),
            ("over", "end", "player = keeper"),
            // `legalAt`: a direction, a run of the other's discs, one of `me`'s.
            ("lfrom", "l1", "dir = Dir(*)"),
            ("l1", "l2", "cursor = step[dir][cell]"),
            ("l2", "l3", "board[cursor] == opp[me]"),
            ("l3", "l4", "cursor = step[dir][cursor]"),
            ("l4", "l5", "board[cursor] != opp[me]"),
            ("l4", "l3", "board[cursor] == opp[me]"),
            ("l5", "lto", "board[cursor] == me"),
            // `canPlace`: the same from some empty cell.
            ("pfrom", "q1", "probe = Cell(*)"),
            ("q1", "q2", "board[probe] == empty"),
            ("q2", "q3", "pdir = Dir(*)"),
            ("q3", "q4", "pcursor = step[pdir][probe]"),
            ("q4", "q5", "board[pcursor] == opp[me]"),
            ("q5", "q6", "pcursor = step[pdir][pcursor]"),
            ("q6", "q7", "board[pcursor] != opp[me]"),
            ("q6", "q5", "board[pcursor] == opp[me]"),
            ("q7", "pto", "board[pcursor] == me"),
        ];
        for (source, target, label) in edges {
            builder.edge(source, target, label);
        }
        builder.build().expect("a valid automaton")
    }

    #[test]
    fn a_check_before_the_tag_makes_a_checked_immediate_search_with_a_rowed_chain() {
        let engine = FastEngine::new(line_reversi()).expect("an engine");
        let pick = engine.automaton.node_id("pick").expect("pick");
        let linear = engine.linear[pick as usize].as_ref().expect("a linear search");
        assert_eq!((linear.checks, linear.checked_immediate, linear.immediate), (1, true, false));
        assert_eq!(engine.linear.iter().flatten().count(), 1);
        // Both checks are cursor chains with a member loop; `canPlace`'s runs in the loop over
        // `probe` (an outer loop, whose member keys the head rows).
        let chains: Vec<_> =
            engine.plans.iter().flatten().filter_map(|plan| plan.steps.as_ref()?.cursor.as_ref()).collect();
        assert_eq!(chains.len(), 2, "{chains:?}");
        let (nested, chain) = match chains[0].outer.is_some() {
            true => (chains[0], chains[1]),
            false => (chains[1], chains[0]),
        };
        assert!(chain.outer.is_none());
        assert_eq!(nested.outer.as_ref().map(|outer| outer.members.len()), Some(6));
        assert_eq!(nested.rows.as_ref().map(|rows| rows.key), Some(crate::fast::plan_steps::Operand::Outer));
        assert_eq!(chain.members.as_ref().map(|m| m.len()), Some(2));
        let ops: Vec<String> =
            chain.ops.iter().map(|op| format!("{op:?}").split([' ', '(']).next().unwrap_or("").to_owned()).collect();
        assert_eq!(ops, ["StepAlong", "WalkAlong", "Test"]);
        // One row of two members per value of `cell` (every symbol).
        let rows = chain.rows.as_ref().expect("head rows");
        assert_eq!(rows.rows.len(), 2 * engine.automaton.symbols.len());
        // Without plans the checks run by the general search: no chain, the same listing path.
        let off = FastEngine::new(line_reversi()).expect("an engine").with_reach_plans(ReachPlans::Off);
        assert!(off.linear[pick as usize].as_ref().is_some_and(|l| l.checked_immediate));
    }

    /// Every board of the line (3^5) with either player to move, at `pick`: the members the
    /// checked listing gives are the general search's moves (tags), in order, and the flank
    /// check's chain answers with and without its head rows as the general search does.
    #[test]
    fn the_checked_listing_and_the_rowed_chain_agree_with_the_general_search_on_every_board() {
        let engine = FastEngine::new(line_reversi()).expect("an engine");
        let general = FastEngine::new(line_reversi()).expect("an engine").with_linear_moves(false);
        let mut unrowed = FastEngine::new(line_reversi()).expect("an engine");
        let automaton = &engine.automaton;
        let node = |name: &str| automaton.node_id(name).expect(name);
        let symbol = |name: &str| automaton.symbol_id(name).expect(name);
        let pick = node("pick");
        let linear = engine.linear[pick as usize].as_ref().expect("a linear search");
        let has_chain = |plan: &Option<crate::fast::reach::ReachPlan>| {
            plan.as_ref().and_then(|p| p.steps.as_ref()).is_some_and(|s| s.cursor.is_some())
        };
        let outer_of = |plan: &Option<crate::fast::reach::ReachPlan>| {
            plan.as_ref().and_then(|p| p.steps.as_ref()?.cursor.as_ref()).is_some_and(|c| c.outer.is_some())
        };
        let context = (0..engine.plans.len())
            .find(|&i| has_chain(&engine.plans[i]) && !outer_of(&engine.plans[i]))
            .expect("the flank check's plan");
        let can_place = engine.plans.iter().position(outer_of).expect("the placement check's plan");
        let mut stepped = FastEngine::new(line_reversi()).expect("an engine");
        stepped.plans[can_place].as_mut().and_then(|p| p.steps.as_mut()).expect("steps").cursor = None;
        unrowed.plans[context]
            .as_mut()
            .and_then(|p| p.steps.as_mut())
            .and_then(|s| s.cursor.as_mut())
            .expect("a chain")
            .rows = None;
        let chain = engine.plans[context].as_ref().and_then(|p| p.steps.as_ref()?.cursor.as_ref()).expect("a chain");
        let plain = unrowed.plans[context].as_ref().and_then(|p| p.steps.as_ref()?.cursor.as_ref()).expect("a chain");
        let layout = crate::reference::layout::Layout::new(automaton).expect("a layout");
        let slot_of = |name: &str| {
            let variable = automaton.variables.iter().position(|v| v.name == name).expect(name);
            layout.var_offsets[variable] as usize
        };
        let cells = ["a", "b", "c", "d", "e"].map(symbol);
        let discs = ["empty", "x", "y"].map(symbol);
        let board: Vec<usize> = cells.iter().map(|&cell| chain.head_test.offsets[cell as usize] as usize).collect();
        let (me, cell) = (slot_of("me"), slot_of("cell"));
        let (mut scratch, mut general_scratch) = (engine.scratch(), general.scratch());
        let (mut moves, mut held, mut boards_with_moves) = (0, 0, 0);
        let (mut placeable, mut stepped_scratch) = (0, stepped.scratch());
        for fill in 0..243usize {
            for player in ["x", "y"].map(symbol) {
                let mut values = engine.initial_values.to_vec();
                let mut rest = fill;
                for &slot in &board {
                    values[slot] = discs[rest % 3];
                    rest /= 3;
                }
                values[me] = player;
                values[engine.player_slot as usize] = player;
                // `canPlace` by the nested chain, by its steps and by the general search.
                scratch.load(pick, &values);
                stepped_scratch.load(pick, &values);
                let plan = engine.plans[can_place].as_ref().expect("a plan");
                let by_chain = scratch.run_plan(&engine, plan, 1).expect("chain");
                let steps_plan = stepped.plans[can_place].as_ref().expect("a plan");
                let by_steps = stepped_scratch.run_plan(&stepped, steps_plan, 1).expect("steps");
                let by_search =
                    scratch.reach_general(&engine, node("pfrom"), node("pto"), can_place as u32, 1).expect("search");
                assert_eq!((by_chain, by_steps), (Some(by_search), Some(by_search)), "board {fill}, player {player}");
                assert_eq!((&scratch.values, &stepped_scratch.values), (&values, &values), "unchanged");
                placeable += usize::from(by_search);
                scratch.load(pick, &values);
                let count = scratch.checked_linear_choices(&engine, linear).expect("listed");
                assert_eq!(scratch.values, values, "the state is unchanged");
                general_scratch.load(pick, &values);
                general_scratch.search(&general, None).expect("searched");
                let found: Vec<u32> =
                    (0..general_scratch.moves.len()).map(|i| general_scratch.moves.tags(i)[0]).collect();
                assert_eq!(scratch.choices, found, "board {fill}, player {player}");
                assert_eq!(count, found.len());
                moves += count;
                boards_with_moves += usize::from(count > 0);
                // The flank check from every cell, by the rows, the plain head and the search.
                for &at in &cells {
                    values[cell] = at;
                    scratch.load(pick, &values);
                    let (rowed, unrowed) = (chain.run(&scratch.values), plain.run(&scratch.values));
                    let searched = scratch
                        .reach_general(&engine, node("lfrom"), node("lto"), context as u32, 1)
                        .expect("searched");
                    assert_eq!((rowed, unrowed), (Some(searched), Some(searched)), "board {fill}, cell {at}");
                    held += usize::from(searched);
                }
            }
        }
        assert_eq!((moves, boards_with_moves, held), (134, 132, 402));
        // A placement exists exactly where the listing finds a move.
        assert_eq!(placeable, 132);
    }

    /// Playouts: the checked listing, the general search, plans checked against the general
    /// search, and the reference engine make the same games.
    #[test]
    fn checked_listing_playouts_agree_with_the_general_search_and_the_reference_engine() {
        let config = PlayoutConfig { count: 200, seed: 11, threads: 1, ..Default::default() };
        let cells = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
        let line = || line_of(&cells, "{c: x, d: y, h: x, i: y, :empty}");
        let fast = FastEngine::new(line()).expect("an engine");
        let report = |engine: FastEngine| {
            let r = engine.run_playouts(&config).expect("playouts");
            (r.total_plies, r.mean_legal_moves, r.score_distribution)
        };
        assert_eq!(fast.linear.iter().flatten().filter(|l| l.checked_immediate).count(), 1);
        let expected = report(fast);
        assert_eq!(report(FastEngine::new(line()).expect("an engine").with_linear_moves(false)), expected);
        let checked = FastEngine::new(line()).expect("an engine").with_reach_plans(ReachPlans::Checked);
        assert_eq!(report(checked), expected);
        let reference = ReferenceEngine::new(line()).expect("a reference engine");
        let r = crate::playout::run_playouts(&reference, &config).expect("playouts");
        assert_eq!((r.total_plies, r.mean_legal_moves, r.score_distribution), expected);
        // Two plies a game: `e` or `j` for `x`, then the flank that is left for `y`.
        assert_eq!(expected.0, 400);
    }
}
