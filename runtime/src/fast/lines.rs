//! Line checks: a reachability plan that, for each member of its start's any-assignment, walks
//! one position back along a row of tables and then tests cells ahead of it (connect four's
//! four-in-a-row test), resolved when the engine is built to per-member tables of absolute
//! cells and run by a forced keeper walk in place of `Scratch::reach` (`Scratch::keeper_reach`).
//!
//! The shape is a [`NodeKind::Straight`] start (`dir = Dir(*)`) whose straight steps are either
//! a copy and a [`FlatRay`] (connect4.rg: `pos = cell`, step back while `board[behind[dir][pos]]
//! == me`, then `board[ahead[dir][pos]] == me` and two more ahead, from any position of the run)
//! or a [`RegisterWalk`] of repeated guarded moves and tested steps (connect4.hrg: at most three
//! moves back, then three steps ahead, each tested). In both the table row is the member's own
//! (`behind[dir]`), so it is known when the engine is built: per member and position the check
//! keeps one [`LineCell`] (the cell the guard reads, the position its move leads to, and the
//! cells the forward tests read from there, a chain of table steps composed into one look-up).
//!
//! Cost: per member, the guard's cell and a comparison, and while they pass the forward tests'
//! cells (every member's cell at the start lies in one run of records); no plan, node or edge
//! dispatch, no slot saved, written or put back: about 184 instructions a connect4.rg check,
//! where `reach` (through `run_plan`, `walk_plan` and `walk_straight`) took about 890, and
//! about 730 on connect4.hrg.
//!
//! Exact: the walk the plan would run writes only plan slots (the member, the walked position),
//! which `run_plan` puts back after the check, and each member's path reads none of them before
//! writing it (checked here: the start slot, the right-hand side and every cell are none of
//! them), so each member sees the state the check started from and the answer is "some member's
//! path reaches the checked node". A ray's forward tests at every position of its run give the
//! same "any" whatever their order; the step bound is the ray's ([`CYCLE_STEPS`] guard passes
//! give up, `None`, before any forward test, as [`FlatRay::walk`] does), and `None` hands the
//! check to `reach`, which decides as before. A start position outside the tables (not a
//! symbol) hands over too.

use super::reach::{FlatRay, NodeKind, PlanOp, ReachPlan, RegisterWalk, CYCLE_STEPS, NO_STRAIGHT};
use crate::automaton::SymbolId;

/// At most this many forward tests (connect four has three).
const MAX_FORWARD: usize = 6;

/// One position of one member's row: the absolute cell the guard reads there, the position its
/// move leads to, and the absolute cells the forward tests read from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LineCell {
    guard: u32,
    step: u32,
    forward: [u32; MAX_FORWARD],
}

/// How far back a member's walk goes before its forward tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Back {
    /// A ray: step while the guard holds; the forward tests may pass at any position of the run
    /// (the walk backtracks through every one).
    Run,
    /// A register walk's guarded moves: at most this many steps while the guard holds, then the
    /// forward tests at the position reached.
    Bounded(u32),
}

/// A straight check of one position per member along the member's own table row (see the
/// module comment).
#[derive(Clone, Debug)]
pub(crate) struct LineCheck {
    /// The slot the position starts from (`cell`, `last`).
    from: u32,
    /// The right-hand side every test compares with: the literal, or the slot when `.0`.
    rhs: (bool, u32),
    /// Positions per member (the symbol count): a start at or past it hands over.
    positions: usize,
    /// Members of the any-assignment.
    members: usize,
    /// Position-major: the cell of member `m` (in the any-assignment's order) at position `at`
    /// is `cells[at * members + m]`, so every member's cell at the start lies in one run.
    cells: Box<[LineCell]>,
    guard_equal: bool,
    /// Forward tests (each `==`, the only sense taken) per position.
    forward_len: usize,
    back: Back,
}

impl LineCheck {
    /// The line check of `plan`, when its start is a straight node of that shape.
    pub(crate) fn of(plan: &ReachPlan) -> Option<LineCheck> {
        let start = plan.nodes.first()?;
        if start.kind != NodeKind::Straight || start.straight == NO_STRAIGHT {
            return None;
        }
        let PlanOp::SetAny { slot: member_slot, members } = &plan.edges[start.first as usize].op else {
            return None;
        };
        let program = plan.straights.get(start.straight as usize)?;
        let check = match (&program.register, program.copy_then_ray, &program.rays[..]) {
            (Some(walk), _, _) => Self::of_register(walk, *member_slot, members)?,
            (None, Some((to, from)), [(ray_slot, ray)]) if to == *ray_slot => {
                Self::of_ray(ray, from, *ray_slot, *member_slot, members)?
            }
            _ => return None,
        };
        // Nothing the path reads before writing it may be a slot the plan writes.
        let written = |slot: u32| plan.slots.contains(&slot) || slot == *member_slot;
        let guarded = check.back != Back::Bounded(0);
        let reads_written = written(check.from)
            || (check.rhs.0 && written(check.rhs.1))
            || check.cells.iter().any(|cell| {
                (guarded && written(cell.guard))
                    || cell.forward[..check.forward_len].iter().any(|&forward| written(forward))
            });
        (!reads_written).then_some(check)
    }

    /// connect4.rg's shape: `pos = from`, then the ray from `pos` over the member's row.
    fn of_ray(ray: &FlatRay, from: u32, ray_slot: u32, member_slot: u32, members: &[SymbolId]) -> Option<LineCheck> {
        if ray.first != member_slot || ray.forward.len() > MAX_FORWARD {
            return None;
        }
        let rhs = (ray.guard.rhs_is_slot, ray.guard.value);
        if ray.forward.iter().any(|test| (test.rhs_is_slot, test.value) != rhs) || (rhs.0 && rhs.1 == ray_slot) {
            return None;
        }
        let positions = ray.width as usize;
        let mut cells = Vec::with_capacity(members.len() * positions);
        for &member in members {
            for at in 0..positions {
                let key = member as usize * positions + at;
                let step = *ray.table.get(key)?;
                if step as usize >= positions {
                    return None;
                }
                let mut forward = [0; MAX_FORWARD];
                for (cell, test) in forward.iter_mut().zip(ray.forward.iter()) {
                    *cell = *test.offsets.get(key)?;
                }
                cells.push(LineCell { guard: *ray.guard.offsets.get(key)?, step, forward });
            }
        }
        if !ray.forward.iter().all(|test| test.equal) {
            return None;
        }
        let line = LineCheck {
            from,
            rhs,
            positions,
            members: members.len(),
            cells: cells.into(),
            guard_equal: ray.guard.equal,
            forward_len: ray.forward.len(),
            back: Back::Run,
        };
        Some(line.position_major())
    }

    /// connect4.hrg's shape: a register walk whose row is the member's slot and whose guarded
    /// moves, if several, are all the same (each stops the walk once it does not move).
    fn of_register(walk: &RegisterWalk, member_slot: u32, members: &[SymbolId]) -> Option<LineCheck> {
        if walk.row != member_slot || walk.tested.len() > MAX_FORWARD || walk.guarded.len() > 1 && !walk.guarded_repeat
        {
            return None;
        }
        let positions = walk.width as usize;
        let mut cells = Vec::with_capacity(members.len() * positions);
        for &member in members {
            let row = member as usize * positions;
            for at in 0..positions {
                let (guard, step) = match walk.guarded.first() {
                    Some(moved) => (*moved.offsets.get(row + at)?, *moved.table.get(row + at)?),
                    None => (0, at as u32),
                };
                if step as usize >= positions {
                    return None;
                }
                // Each tested step moves the position on; its test reads the cell keyed by the
                // new position (through the row, or the position itself).
                let mut forward = [0; MAX_FORWARD];
                let mut position = at;
                for (cell, tested) in forward.iter_mut().zip(walk.tested.iter()) {
                    position = *tested.table.get(row + position)? as usize;
                    if position >= positions {
                        return None;
                    }
                    let key = if tested.keyed { row + position } else { position };
                    *cell = *tested.offsets.get(key)?;
                }
                cells.push(LineCell { guard, step, forward });
            }
        }
        if !walk.tested.iter().all(|tested| tested.equal) {
            return None;
        }
        let line = LineCheck {
            from: walk.from,
            rhs: walk.rhs,
            positions,
            members: members.len(),
            cells: cells.into(),
            guard_equal: walk.guarded.first().is_none_or(|moved| moved.move_if_equal),
            forward_len: walk.tested.len(),
            back: Back::Bounded(walk.guarded.len() as u32),
        };
        Some(line.position_major())
    }

    /// The check with its cells (built member by member) laid out position by position.
    fn position_major(mut self) -> LineCheck {
        let by_member = std::mem::take(&mut self.cells);
        self.cells = (0..self.positions)
            .flat_map(|at| (0..self.members).map(move |member| (at, member)))
            .map(|(at, member)| by_member[member * self.positions + at])
            .collect();
        self
    }

    /// Whether some member's path reaches the checked node on `values`; `None` when the check
    /// must be left to `reach` (a ray past its step bound, a start outside the tables). Out of
    /// line, so that the keeper walk's code stays as it was for the games without one.
    #[inline(never)]
    pub(crate) fn run(&self, values: &[SymbolId]) -> Option<bool> {
        let start = values[self.from as usize] as usize;
        if start >= self.positions {
            return None;
        }
        let rhs = if self.rhs.0 { values[self.rhs.1 as usize] } else { self.rhs.1 };
        let guard = |cell: &LineCell| (values[cell.guard as usize] == rhs) == self.guard_equal;
        let ahead = self.forward_len.min(MAX_FORWARD);
        let forward = |cell: &LineCell| cell.forward[..ahead].iter().all(|&at| values[at as usize] == rhs);
        let members = self.members;
        // Member `m`'s cell at position `at`.
        let cell_at = |at: u32, member: usize| &self.cells[at as usize * members + member];
        let firsts = &self.cells[start * members..][..members];
        match self.back {
            Back::Bounded(moves) => {
                for (member, first) in firsts.iter().enumerate() {
                    let mut cell = first;
                    for _ in 0..moves {
                        if !guard(cell) {
                            break;
                        }
                        cell = cell_at(cell.step, member);
                    }
                    if forward(cell) {
                        return Some(true);
                    }
                }
            }
            Back::Run => {
                for (member, first) in firsts.iter().enumerate() {
                    if !guard(first) {
                        // No step back (the common case): the forward tests at the start alone.
                        if forward(first) {
                            return Some(true);
                        }
                        continue;
                    }
                    // The run's length first, so that the bound gives up before any forward test.
                    let mut passes = 1u32;
                    let mut cell = cell_at(first.step, member);
                    while guard(cell) {
                        passes += 1;
                        if passes > CYCLE_STEPS {
                            return None;
                        }
                        cell = cell_at(cell.step, member);
                    }
                    let mut cell = first;
                    for _ in 0..=passes {
                        if forward(cell) {
                            return Some(true);
                        }
                        cell = cell_at(cell.step, member);
                    }
                }
            }
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::builder::AutomatonBuilder;
    use crate::fast::program::Ins;
    use crate::fast::{FastEngine, ReachPlans};
    use crate::playout::PlayoutConfig;

    /// A row of five cells filled one a turn (the keeper then checks `? from -> to`, which ends
    /// the game with 1 for `x`, or goes on while a cell is empty), with `check`'s edges. `behind`
    /// and `far{k}` step one and `k` cells along a direction (`far{k}` two-level tables, as the
    /// optimiser composes connect4.rg's `ahead[dir][ahead[dir][pos]]`); `jump` steps one cell
    /// too, on another symbol layout (`Spot`'s `null` first).
    fn row_game(check: &[(&str, &str, &str)]) -> FastEngine {
        let mut builder = AutomatonBuilder::new();
        builder
            .typedef("Player", "{x}")
            .typedef("Score", "{0, 1}")
            .typedef("Cell", "{a, b, c, d, e}")
            .typedef("Spot", "{null, a, b, c, d, e}")
            .typedef("Disc", "{empty, full}")
            .typedef("Dir", "{east, west}")
            .variable("board", "Cell -> Disc", "{:empty}")
            .variable("mark", "Disc", "full")
            .variable("cell", "Cell", "a")
            .variable("probe", "Cell", "a")
            .variable("dir", "Dir", "east")
            .variable("pos", "Spot", "a");
        let cells = ["a", "b", "c", "d", "e"];
        for (name, k) in [("behind", -1), ("far1", 1), ("far2", 2), ("far3", 3)] {
            let row = |sign: i32| {
                let pairs: Vec<String> = (0..cells.len() as i32)
                    .filter_map(|i| {
                        let j = usize::try_from(i + sign * k).ok()?;
                        cells.get(j).map(|target| format!("{}: {target}", cells[i as usize]))
                    })
                    .collect();
                format!("{{{}, :null}}", pairs.join(", "))
            };
            let table = format!("{{east: {}, west: {}, :{{:null}}}}", row(1), row(-1));
            builder.constant(name, "Dir -> Spot -> Spot", &table);
        }
        let turn = [
            ("begin", "turn", "player = x"),
            ("turn", "fill", "cell = Cell(*)"),
            ("fill", "filled", "board[cell] == empty"),
            ("filled", "tagged", "$$ cell"),
            ("tagged", "placing", "player = keeper"),
            ("placing", "judge", "board[cell] = full"),
            ("judge", "found", "? from -> to"),
            ("judge", "notFound", "! from -> to"),
            ("found", "over", "goals[x] = 1"),
            ("notFound", "next", "? free -> freeFound"),
            ("next", "turn", "player = x"),
            ("notFound", "over", "! free -> freeFound"),
            ("over", "end", "player = keeper"),
            ("free", "freeChosen", "probe = Cell(*)"),
            ("freeChosen", "freeFound", "board[probe] == empty"),
        ];
        for (source, target, label) in turn.iter().chain(check) {
            builder.edge(source, target, label);
        }
        FastEngine::new(builder.build().expect("a valid automaton")).expect("an engine")
    }

    /// connect4.rg's check on the row: from `cell`, step back over `mark`s, then `mark` in each
    /// of the cells `far` names ahead (from some position of the run).
    fn ray_check(guard_rhs: &'static str, forward: &[(&'static str, &'static str)]) -> Vec<(String, String, String)> {
        let mut edges = vec![
            ("from".to_string(), "axis".to_string(), "dir = Dir(*)".to_string()),
            ("axis".into(), "walk".into(), "pos = cell".into()),
            ("walk".into(), "stepped".into(), format!("board[behind[dir][pos]] == {guard_rhs}")),
            ("stepped".into(), "walk".into(), "pos = behind[dir][pos]".into()),
        ];
        for (step, (table, rhs)) in forward.iter().enumerate() {
            let source = if step == 0 { "walk".to_string() } else { format!("forward{step}") };
            let target = if step + 1 == forward.len() { "to".to_string() } else { format!("forward{}", step + 1) };
            edges.push((source, target, format!("board[{table}[dir][pos]] == {rhs}")));
        }
        edges
    }

    /// connect4.hrg's check on the row: from `cell`, at most `moves` steps back while the cell
    /// behind holds `mark` (each move written as the hrg compiler unrolls it), then `ahead`
    /// steps forward, each testing `mark` at the new position.
    fn register_check(moves: usize, ahead: usize) -> Vec<(String, String, String)> {
        let mut edges = vec![
            ("from".to_string(), "axis".to_string(), "dir = Dir(*)".to_string()),
            ("axis".into(), "m0".into(), "pos = cell".into()),
        ];
        for k in 0..moves {
            let (here, moved, next) = (format!("m{k}"), format!("moved{k}"), format!("m{}", k + 1));
            edges.push((here.clone(), moved.clone(), "board[behind[dir][pos]] == mark".into()));
            edges.push((here, next.clone(), "board[behind[dir][pos]] != mark".into()));
            edges.push((moved, next, "pos = behind[dir][pos]".into()));
        }
        for k in 0..ahead {
            let (here, stepped) = (format!("m{}", moves + 2 * k), format!("m{}", moves + 2 * k + 1));
            let next = if k + 1 == ahead { "to".to_string() } else { format!("m{}", moves + 2 * k + 2) };
            edges.push((here, stepped.clone(), "pos = far1[dir][pos]".into()));
            edges.push((stepped, next, "board[pos] == mark".into()));
        }
        edges
    }

    fn build(check: &[(String, String, String)]) -> FastEngine {
        let edges: Vec<(&str, &str, &str)> =
            check.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect();
        row_game(&edges)
    }

    /// The context of the check `? from -> to`.
    fn line_context(engine: &FastEngine) -> u32 {
        let from = engine.automaton.node_id("from").expect("from");
        engine
            .edges
            .iter()
            .find_map(|edge| match edge.ins {
                Ins::Reach { from: f, context, .. } if f == from => Some(context),
                _ => None,
            })
            .expect("the check")
    }

    fn line_of(engine: &FastEngine) -> Option<&LineCheck> {
        engine.line_checks[line_context(engine) as usize].as_ref()
    }

    /// The check's answer on every board of the row (32), every start `cell` (5) and both
    /// `mark`s, by the line check, the plan and the general search: all three must agree and
    /// leave the state as it was (where the line check and the plan give up, both at the same
    /// states, the general search decides); returns how many states the check held in and how
    /// many it gave up on.
    fn assert_line_agrees(engine: &FastEngine) -> (usize, usize) {
        let line = line_of(engine).expect("a line check");
        let context = line_context(engine);
        let plan = engine.plans[context as usize].as_ref().expect("a plan");
        let automaton = &engine.automaton;
        let (from, to) = (automaton.node_id("from").expect("from"), automaton.node_id("to").expect("to"));
        let symbol = |name: &str| automaton.symbol_id(name).expect("a symbol");
        let discs = [symbol("empty"), symbol("full")];
        let layout = crate::reference::layout::Layout::new(automaton).expect("a layout");
        let slot_of = |name: &str| {
            let variable = automaton.variables.iter().position(|v| v.name == name).expect("a variable");
            layout.var_offsets[variable] as usize
        };
        let (board, cell, mark) = (slot_of("board"), slot_of("cell"), slot_of("mark"));
        let mut scratch = engine.scratch();
        let (mut held, mut undecided) = (0, 0);
        for fill in 0..32usize {
            for start in ["a", "b", "c", "d", "e"] {
                for wanted in discs {
                    scratch.load(automaton.begin, &engine.initial_values);
                    for bit in 0..5 {
                        scratch.values[board + bit] = discs[(fill >> bit) & 1];
                    }
                    scratch.values[cell] = symbol(start);
                    scratch.values[mark] = wanted;
                    let before = scratch.values.clone();
                    let by_line = line.run(&scratch.values);
                    let by_plan = scratch.run_plan(engine, plan, 1).expect("no error");
                    let by_search = scratch.reach_general(engine, from, to, context, 1).expect("no error");
                    let case = format!("board {fill:05b}, cell {start}, mark {wanted}");
                    assert_eq!(by_line, by_plan, "{case}");
                    assert_eq!(scratch.values, before, "the state is unchanged");
                    match by_line {
                        Some(found) => {
                            assert_eq!(found, by_search, "{case}");
                            held += usize::from(found);
                        }
                        None => undecided += 1,
                    }
                }
            }
        }
        (held, undecided)
    }

    /// Playouts with the line check (the keeper walk runs it) give the report of the general
    /// search (plans off): each game ends at the first fill the check accepts.
    fn assert_playouts_agree(check: &[(String, String, String)]) {
        let config = PlayoutConfig { count: 200, seed: 5, threads: 1, ..Default::default() };
        let engine = build(check);
        // The keeper's move is forced, so the keeper walk (and with it the line check) runs it.
        assert!(engine.single_path[engine.automaton.node_id("placing").expect("placing") as usize]);
        let with_line = engine.run_playouts(&config).expect("playouts");
        let general = build(check).with_reach_plans(ReachPlans::Off).run_playouts(&config).expect("playouts");
        assert_eq!(
            (with_line.total_plies, &with_line.score_distribution),
            (general.total_plies, &general.score_distribution)
        );
    }

    // The counts below (states the check holds in, states it gives up on, of 320) come from a
    // separate model of the two walks (a short script over the same boards, written for these
    // tests), not from the engine. A ray of `empty`s reaches `null`, whose `board` cell (the
    // default block) is `empty` and whose step is `null` again: the run never ends, and the
    // first direction with such a run gives up (the plan too), as `FlatRay::walk` does.
    #[test]
    fn a_ray_check_of_the_members_rows_agrees_with_the_plan_and_the_general_search() {
        let four = ray_check("mark", &[("far1", "mark"), ("far2", "mark"), ("far3", "mark")]);
        let engine = build(&four);
        let line = line_of(&engine).expect("a line check");
        assert_eq!((line.back, line.forward_len, line.rhs.0), (Back::Run, 3, true));
        assert_eq!(assert_line_agrees(&engine), (73, 62));
        assert_playouts_agree(&four);
        // Two ahead, so runs of three; a literal right-hand side shared by every test.
        assert_eq!(assert_line_agrees(&build(&ray_check("mark", &[("far1", "mark"), ("far2", "mark")]))), (108, 62));
        let literal = ray_check("full", &[("far1", "full"), ("far2", "full")]);
        let engine = build(&literal);
        assert_eq!(
            line_of(&engine).expect("a line check").rhs,
            (false, engine.automaton.symbol_id("full").expect("full"))
        );
        assert_eq!(assert_line_agrees(&engine), (102, 0));
        assert_playouts_agree(&literal);
    }

    #[test]
    fn a_register_check_of_repeated_moves_agrees_with_the_plan_and_the_general_search() {
        for (moves, ahead, held) in [(3, 3, 133), (1, 2, 152), (0, 1, 240), (2, 3, 130)] {
            let check = register_check(moves, ahead);
            let engine = build(&check);
            let line = line_of(&engine).expect("a line check");
            assert_eq!((line.back, line.forward_len), (Back::Bounded(moves as u32), ahead));
            assert_eq!(assert_line_agrees(&engine), (held, 0), "{moves} moves, {ahead} ahead");
            assert_playouts_agree(&check);
        }
    }

    #[test]
    fn no_line_check_where_the_shape_differs_or_plans_are_not_on() {
        // A right-hand side the forward tests do not share with the guard.
        assert!(line_of(&build(&ray_check("mark", &[("far1", "full")]))).is_none());
        // Two guarded moves that differ (the second moves when the cell behind is not `mark`):
        // not one bounded walk.
        let mut differ = register_check(2, 1);
        for edge in differ.iter_mut().filter(|edge| edge.0 == "m1") {
            edge.2 =
                if edge.1 == "moved1" { "board[behind[dir][pos]] != mark" } else { "board[behind[dir][pos]] == mark" }
                    .into();
        }
        let engine = build(&differ);
        let plan = engine.plans[line_context(&engine) as usize].as_ref().expect("a plan");
        assert!(plan.straights[plan.nodes[0].straight as usize]
            .register
            .as_ref()
            .is_some_and(|walk| !walk.guarded_repeat));
        assert!(line_of(&engine).is_none());
        assert_playouts_agree(&differ);
        // A forward test of the other sense (`!=`).
        let mut unequal = ray_check("mark", &[("far1", "mark"), ("far2", "mark")]);
        let last = unequal.last_mut().expect("a forward test");
        last.2 = last.2.replace("==", "!=");
        assert!(line_of(&build(&unequal)).is_none());
        // Plans off or checked: every check takes its usual path.
        let four = ray_check("mark", &[("far1", "mark"), ("far2", "mark"), ("far3", "mark")]);
        assert!(line_of(&build(&four).with_reach_plans(ReachPlans::Off)).is_none());
        assert!(line_of(&build(&four).with_reach_plans(ReachPlans::Checked)).is_none());
        // A start outside the tables hands over to `reach`.
        let engine = build(&four);
        let line = line_of(&engine).expect("a line check");
        let mut values = engine.initial_values.to_vec();
        values[line.from as usize] = line.positions as SymbolId;
        assert_eq!(line.run(&values), None);
    }
}
