//! Translation of a checked blocks [`Game`] into a program of the high-level language (HRG). The
//! program is produced as HRG text, which the HRG parser turns into the `hrg::ast` tree that the
//! usual lowering compiles; `regula compile FILE --emit hrg` prints it. Every reading of the seed
//! that this file makes is listed in `spec/blocks.md`.

use super::model::*;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The most plies a stage in which pieces move may last; reaching it ends the stage (the win
/// rules then decide, so a capped game with no winner is a draw). Blocks games can cycle, and an
/// automaton must be finite.
pub const MOVE_CAP: usize = 100;

/// The eight directions in the order moves are generated; north is towards higher rows.
const DIRECTIONS: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

fn opposite(direction: &str) -> &'static str {
    match direction {
        "n" => "s",
        "ne" => "sw",
        "e" => "w",
        "se" => "nw",
        "s" => "n",
        "sw" => "ne",
        "w" => "e",
        _ => "se",
    }
}

/// Writes HRG source line by line with indentation.
struct Writer {
    text: String,
    indent: usize,
}

impl Writer {
    fn line(&mut self, line: impl AsRef<str>) {
        let line = line.as_ref();
        if line.starts_with('}') {
            self.indent = self.indent.saturating_sub(1);
        }
        if !line.is_empty() {
            for _ in 0..self.indent {
                self.text.push_str("  ");
            }
        }
        self.text.push_str(line);
        self.text.push('\n');
        if line.ends_with('{') {
            self.indent += 1;
        }
    }
}

/// What the translation of one stage needs to know about one side.
struct SideRules<'a> {
    stage: &'a Stage,
    index: usize,
    side: Side,
}

impl SideRules<'_> {
    fn me(&self) -> &'static str {
        self.side.name()
    }

    fn them(&self) -> &'static str {
        self.side.other().name()
    }

    fn limit(&self, wanted: fn(LimitKind) -> bool) -> bool {
        self.stage.limits.iter().any(|limit| limit.applies.to(self.side) && wanted(limit.kind))
    }

    /// The directions this side moves along: its `limit_dir`, or all eight.
    fn dirs(&self) -> Dirs {
        self.stage
            .limits
            .iter()
            .rev()
            .find_map(|limit| match limit.kind {
                LimitKind::Directions(dirs) if limit.applies.to(self.side) => Some(dirs),
                _ => None,
            })
            .unwrap_or(Dirs::Hvd)
    }

    fn eat_first(&self) -> bool {
        self.limit(|kind| kind == LimitKind::EatFirst)
    }

    fn no_backoff(&self) -> bool {
        self.limit(|kind| kind == LimitKind::NoBackoff)
    }

    fn no_repeat(&self) -> bool {
        self.limit(|kind| kind == LimitKind::NoRepeat)
    }

    fn effect(&self, wanted: fn(EffectKind) -> bool) -> bool {
        self.stage.effects.iter().any(|effect| effect.applies.to(self.side) && wanted(effect.kind))
    }

    fn eats_by_jumping(&self) -> bool {
        self.effect(|kind| kind == EffectKind::EatJump)
    }

    fn actions(&self) -> Vec<ActionKind> {
        self.stage.actions.iter().filter(|a| a.applies.to(self.side)).map(|a| a.kind).collect()
    }

    /// Jumps that capture: over an opponent, with `eat_jump` for this side.
    fn has_capturing_jump(&self) -> bool {
        self.eats_by_jumping()
            && self
                .actions()
                .iter()
                .any(|kind| matches!(kind, ActionKind::SingleJump(v) | ActionKind::MultiJump(v) if *v != Victim::Own))
    }

    fn walk(&self) -> String {
        format!("walk{}", self.index)
    }

    fn leap(&self) -> String {
        format!("leap{}", self.index)
    }

    fn graph(&self, what: &str) -> String {
        format!("{what}{}{}", self.index, capitalised(self.me()))
    }

    /// The condition a jumped-over piece must meet.
    fn victim_check(&self, victim: Victim, at: &str) -> String {
        match victim {
            Victim::Opponent => format!("board[{at}] == {}", self.them()),
            Victim::Own => format!("board[{at}] == {}", self.me()),
            Victim::Any => format!("board[{at}] == red || board[{at}] == green"),
        }
    }
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_uppercase().collect::<String>() + chars.as_str()).unwrap_or_default()
}

/// The whole translation: HRG source text for `game`.
pub fn translate(game: &Game) -> String {
    let mut translator = Translator {
        game,
        w: Writer { text: String::new(), indent: 0 },
        dirs_used: BTreeSet::new(),
        thresholds: BTreeSet::new(),
        comparisons: BTreeSet::new(),
        lines: BTreeSet::new(),
    };
    translator.program()
}

struct Translator<'a> {
    game: &'a Game,
    w: Writer,
    dirs_used: BTreeSet<Dirs>,
    thresholds: BTreeSet<usize>,
    comparisons: BTreeSet<&'static str>,
    /// Line shapes used: directions, length, side.
    lines: BTreeSet<(Dirs, usize, &'static str)>,
}

impl Translator<'_> {
    fn sides_of<'b>(&self, stage: &'b Stage, index: usize) -> Vec<SideRules<'b>> {
        self.game.sides().into_iter().map(|side| SideRules { stage, index, side }).collect()
    }

    fn any_movement(&self) -> bool {
        self.game.stages.iter().any(Stage::has_movement)
    }

    fn program(&mut self) -> String {
        // Graphs first (they discover which helper functions are needed), declarations after;
        // the two are joined with the declarations on top.
        let mut graphs = Writer { text: String::new(), indent: 0 };
        std::mem::swap(&mut graphs, &mut self.w);
        self.graphs();
        std::mem::swap(&mut graphs, &mut self.w);
        self.header();
        self.declarations();
        self.w.text.push_str(&graphs.text);
        std::mem::take(&mut self.w.text)
    }

    fn header(&mut self) {
        let game = self.game;
        let movement = self.any_movement();
        let w = &mut self.w;
        w.line(format!("// \"{}\" {}: translated from the blocks language (spec/blocks.md).", game.name, game.version));
        w.line(format!(
            "// Board {} {} x {}; points P(column, row), column 0 = a, row 0 = 1; north is towards higher rows.",
            match game.board {
                BoardKind::Square => "SQUARE",
                BoardKind::Cross => "CROSS",
            },
            game.size,
            game.size
        ));
        w.line(
            "// A move's tags: the point placed on; or the point moved from, then every point landed on; or `pass`.",
        );
        if movement {
            w.line(format!("// A stage in which pieces move ends after {MOVE_CAP} plies (the move cap)."));
        }
        for item in &game.presentation {
            if !item.args.is_empty() {
                w.line(format!("// presentation: ({} {})", item.block, item.args.join(" ")));
            }
        }
        w.line("");
    }

    fn declarations(&mut self) {
        let size = self.game.size;
        let last = size - 1;
        let cells = size * size;
        let players = if self.game.players == 1 { "red" } else { "red | green" };
        let mut d = String::new();
        let _ = writeln!(d, "domain Player = {players}");
        d.push_str("domain Score = 0 | 50 | 100\n");
        d.push_str("domain Piece = empty | red | green | offboard\n");
        let _ = writeln!(d, "domain Point = P(C, R) where C in 0..{last}, R in 0..{last}");
        d.push_str("domain Pos = null | Point\n");
        d.push_str("domain Dir = n | ne | e | se | s | sw | w | nw\n");
        d.push_str("domain Axis = n | ne | e | se\n");
        let _ = writeln!(d, "domain Count = N(K) where K in 0..{cells}");
        d.push_str("domain Flag = no | yes\n");
        if self.any_movement() {
            let _ = writeln!(d, "domain Ply = T(K) where K in 0..{MOVE_CAP}");
        }
        d.push('\n');
        if self.game.players == 2 {
            d.push_str("other : Player -> Player\nother(red) = green\nother(_) = red\n\n");
        }
        d.push_str("// One point further in a direction, or null off the board.\nstep : Dir -> Pos -> Pos\n");
        for (direction, dc, dr) in [
            ("n", 0, 1),
            ("ne", 1, 1),
            ("e", 1, 0),
            ("se", 1, -1),
            ("s", 0, -1),
            ("sw", -1, -1),
            ("w", -1, 0),
            ("nw", -1, 1),
        ] {
            let mut edges = Vec::new();
            let mut column = "C".to_string();
            let mut row = "R".to_string();
            match dc {
                1 => {
                    edges.push(format!("C == {last}"));
                    column = "C + 1".into();
                }
                -1 => {
                    edges.push("C == 0".to_string());
                    column = "C - 1".into();
                }
                _ => {}
            }
            match dr {
                1 => {
                    edges.push(format!("R == {last}"));
                    row = "R + 1".into();
                }
                -1 => {
                    edges.push("R == 0".to_string());
                    row = "R - 1".into();
                }
                _ => {}
            }
            let _ =
                writeln!(d, "step({direction}, P(C, R)) = if {} then null else P({column}, {row})", edges.join(" || "));
        }
        d.push_str("step(_, _) = null\n\n");
        for (index, stage) in self.game.stages.iter().enumerate() {
            if stage.has_movement() {
                for side in self.sides_of(stage, index + 1) {
                    self.dirs_used.insert(side.dirs());
                }
            }
        }
        for dirs in self.dirs_used.clone() {
            let name = format!("step{}", dirs.suffix());
            let _ = writeln!(d, "// A step along the lines of {}.\n{name} : Dir -> Pos -> Pos", dirs.block_name());
            for diagonal in ["ne", "se", "sw", "nw"] {
                let rule = match dirs {
                    Dirs::Hv => "null".to_string(),
                    Dirs::Hvd => continue,
                    Dirs::Hvd1 => format!("if (C + R) % 2 == 0 then step({diagonal}, P(C, R)) else null"),
                    Dirs::Hvd2 => format!("if (C + R) % 2 == 1 then step({diagonal}, P(C, R)) else null"),
                    Dirs::Hvd3 if diagonal == "ne" || diagonal == "sw" => continue,
                    Dirs::Hvd4 if diagonal == "se" || diagonal == "nw" => continue,
                    Dirs::Hvd3 | Dirs::Hvd4 => "null".to_string(),
                };
                let _ = writeln!(d, "{name}({diagonal}, P(C, R)) = {rule}");
            }
            let _ = writeln!(d, "{name}(D, X) = step(D, X)\n");
        }
        // Movement per stage and side: `walk` for steps (limit_dir and limit_nobackoff),
        // `leap` for jumps (limit_dir only).
        for (index, stage) in self.game.stages.iter().enumerate() {
            if !stage.has_movement() {
                continue;
            }
            let index = index + 1;
            let rules = self.sides_of(stage, index);
            let _ = writeln!(d, "walk{index} : Player -> Dir -> Pos -> Pos");
            for side in &rules {
                if side.no_backoff() {
                    for direction in self.backward(side.side) {
                        let _ = writeln!(d, "walk{index}({}, {direction}, _) = null", side.me());
                    }
                }
                let _ = writeln!(d, "walk{index}({}, D, X) = step{}(D, X)", side.me(), side.dirs().suffix());
            }
            let _ = writeln!(d, "leap{index} : Player -> Dir -> Pos -> Pos");
            for side in &rules {
                let _ = writeln!(d, "leap{index}({}, D, X) = step{}(D, X)", side.me(), side.dirs().suffix());
            }
            d.push('\n');
        }
        let _ = writeln!(d, "up : Count -> Count\nup(N(K)) = if K == {cells} then N({cells}) else N(K + 1)\n");
        d.push_str("down : Count -> Count\ndown(N(K)) = if K == 0 then N(0) else N(K - 1)\n\n");
        d.push_str("more : Count -> Count -> Flag\nmore(N(A), N(B)) = if A > B then yes else no\n\n");
        for threshold in &self.thresholds {
            let _ = writeln!(
                d,
                "atLeast{threshold} : Count -> Flag\natLeast{threshold}(N(K)) = if K >= {threshold} then yes else no\n"
            );
        }
        for comparison in &self.comparisons {
            let op = match *comparison {
                "ge" => ">=",
                "gt" => ">",
                "le" => "<=",
                "lt" => "<",
                _ => "==",
            };
            let _ = writeln!(
                d,
                "{comparison} : Count -> Count -> Flag\n{comparison}(N(A), N(B)) = if A {op} B then yes else no\n"
            );
        }
        if self.any_movement() {
            let _ =
                writeln!(d, "tick : Ply -> Ply\ntick(T(K)) = if K == {MOVE_CAP} then T({MOVE_CAP}) else T(K + 1)\n");
        }
        d.push_str("start : Pos -> Piece\n");
        for &(side, column, row) in &self.game.initial {
            let _ = writeln!(d, "start(P({column}, {row})) = {}", side.name());
        }
        d.push_str("start(null) = offboard\nstart(_) = empty\n\n");
        d.push_str("board : Pos -> Piece = start\n");
        let count = |side: Side| self.game.initial.iter().filter(|(s, _, _)| *s == side).count();
        if self.game.players == 2 {
            let _ = writeln!(
                d,
                "pieces : Player -> Count = {{ red = N({}); green = N({}) }}",
                count(Side::Red),
                count(Side::Green)
            );
        } else {
            let _ = writeln!(d, "pieces : Player -> Count = {{ red = N({}) }}", count(Side::Red));
        }
        let _ = writeln!(d, "enemies : Count = N({})", if self.game.players == 1 { count(Side::Green) } else { 0 });
        d.push_str("eaten : Player -> Count = { _ = N(0) }\n");
        d.push_str("from : Pos\nto : Pos\nover : Pos\ncursor : Pos\ndir : Dir\n");
        if self.any_movement() {
            d.push_str("plies : Ply\n");
        }
        if self.uses_no_repeat() {
            d.push_str("lastFrom : Player -> Pos = { _ = null }\nlastTo : Player -> Pos = { _ = null }\n");
        }
        if self.uses_free_chain() {
            d.push_str("fresh : Pos -> Flag\nfresh(_) = no\nseen : Pos -> Flag = fresh\n");
        }
        d.push('\n');
        self.w.text.push_str(&d);
    }

    fn uses_no_repeat(&self) -> bool {
        self.game.stages.iter().enumerate().any(|(i, stage)| self.sides_of(stage, i + 1).iter().any(|s| s.no_repeat()))
    }

    /// A chain of jumps that captures nothing could go round for ever; it may not land twice on a point.
    fn uses_free_chain(&self) -> bool {
        self.game.stages.iter().enumerate().any(|(i, stage)| {
            self.sides_of(stage, i + 1).iter().any(|s| {
                s.actions()
                    .iter()
                    .any(|kind| matches!(kind, ActionKind::MultiJump(v) if *v == Victim::Own || !s.eats_by_jumping()))
                    || s.actions().iter().any(|kind| matches!(kind, ActionKind::MultiJump(Victim::Any)))
            })
        })
    }

    /// Backward directions for `limit_nobackoff`: away from the opponent's starting rows.
    fn backward(&self, side: Side) -> [&'static str; 3] {
        let mean_row = |who: Side| {
            let rows: Vec<usize> = self.game.initial.iter().filter(|(s, _, _)| *s == who).map(|(_, _, r)| *r).collect();
            if rows.is_empty() {
                None
            } else {
                Some(rows.iter().sum::<usize>() as f64 / rows.len() as f64)
            }
        };
        let red_moves_north = match (mean_row(Side::Red), mean_row(Side::Green)) {
            (Some(red), Some(green)) => red <= green,
            _ => true,
        };
        let moves_north = red_moves_north == (side == Side::Red);
        if moves_north {
            ["s", "se", "sw"]
        } else {
            ["n", "ne", "nw"]
        }
    }

    fn graphs(&mut self) {
        let stages = self.game.stages.clone();
        for (position, stage) in stages.iter().enumerate() {
            let index = position + 1;
            for side in self.sides_of(stage, index) {
                self.move_graph(&side);
                self.turn_graph(&side);
            }
            self.stage_graph(stage, index);
            self.decide_graph(index, position + 1 == stages.len());
        }
        for (dirs, length, side) in self.lines.clone() {
            self.line_graph(dirs, length, side);
        }
        let w = &mut self.w;
        w.line("graph rules() {");
        for index in 1..=stages.len() {
            w.line(format!("stage{index}()"));
            w.line(format!("decide{index}()"));
        }
        w.line("}");
    }

    /// `move<k><Side>`: one action of the side, tags included; also used in `reachable` to ask
    /// whether the side can act at all.
    fn move_graph(&mut self, side: &SideRules) {
        let me = side.me();
        let mut arms: Vec<Vec<String>> = Vec::new();
        let forced = if side.eat_first() && side.has_capturing_jump() {
            Some(format!("check(not(reachable({}())))", side.graph("capture")))
        } else {
            None
        };
        for kind in side.actions() {
            let mut arm = Vec::new();
            match kind {
                ActionKind::PutToEmpty | ActionKind::PutToEmptyWithFlip => {
                    arm.extend(forced.clone());
                    arm.push("to = Point(*)".into());
                    arm.push("check(board[to] == empty)".into());
                    if kind == ActionKind::PutToEmptyWithFlip {
                        arm.push(format!("check(reachable({}()))", side.graph("flips")));
                    }
                    arm.push("$$ to".into());
                    arm.push(format!("board[to] = {me}"));
                    arm.push(format!("pieces[{me}] = up(pieces[{me}])"));
                }
                ActionKind::NeighbourMove | ActionKind::FlyMove | ActionKind::MultiStepMove(_) => {
                    arm.extend(forced.clone());
                    arm.push("from = Point(*)".into());
                    arm.push(format!("check(board[from] == {me})"));
                    arm.push("$$ from".into());
                    match kind {
                        ActionKind::NeighbourMove => {
                            arm.push("dir = Dir(*)".into());
                            arm.push(format!("to = {}({me}, dir, from)", side.walk()));
                            arm.push("check(board[to] == empty)".into());
                        }
                        ActionKind::FlyMove => {
                            arm.push("dir = Dir(*)".into());
                            arm.push("to = from".into());
                            arm.push("loop {".into());
                            arm.push(format!("to = {}({me}, dir, to)", side.walk()));
                            arm.push("check(board[to] == empty)".into());
                            arm.push("branch {".into());
                            arm.push("break()".into());
                            arm.push("} or {".into());
                            arm.push("}".into());
                            arm.push("}".into());
                        }
                        _ => {
                            let ActionKind::MultiStepMove(steps) = kind else { unreachable!() };
                            arm.push("to = from".into());
                            arm.push(format!("repeat {steps} {{"));
                            arm.push("dir = Dir(*)".into());
                            arm.push(format!("to = {}({me}, dir, to)", side.walk()));
                            arm.push("check(board[to] == empty)".into());
                            arm.push("branch {".into());
                            arm.push("break()".into());
                            arm.push("} or {".into());
                            arm.push("}".into());
                            arm.push("}".into());
                        }
                    }
                    if side.no_repeat() {
                        arm.push(format!("check(not(from == lastTo[{me}] && to == lastFrom[{me}]))"));
                    }
                    arm.push("$$ to".into());
                    arm.push("board[from] = empty".into());
                    arm.push(format!("board[to] = {me}"));
                }
                ActionKind::SingleJump(victim) | ActionKind::MultiJump(victim) => {
                    let eats = side.eats_by_jumping() && victim != Victim::Own;
                    if let Some(forced) = &forced {
                        match victim {
                            Victim::Opponent => {}
                            Victim::Own => arm.push(forced.clone()),
                            Victim::Any => {
                                // Checked after `over` is known: only a capture is allowed then.
                            }
                        }
                    }
                    let free_chain = matches!(kind, ActionKind::MultiJump(_)) && (!eats || victim == Victim::Any);
                    arm.push("from = Point(*)".into());
                    arm.push(format!("check(board[from] == {me})"));
                    arm.push("$$ from".into());
                    arm.push("board[from] = empty".into());
                    self.jump_lines(side, victim, eats, "from", "to", free_chain, &forced, &mut arm);
                    if let ActionKind::MultiJump(_) = kind {
                        arm.push("loop {".into());
                        arm.push(format!(
                            "if reachable({}()) {{",
                            side.graph(&format!("chain{}", jump_variant(victim)))
                        ));
                        self.jump_lines(side, victim, eats, "to", "cursor", free_chain, &forced, &mut arm);
                        arm.push("to = cursor".into());
                        arm.push("} else {".into());
                        arm.push("break()".into());
                        arm.push("}".into());
                        arm.push("}".into());
                        if free_chain {
                            arm.push("seen = fresh".into());
                        }
                    }
                    arm.push(format!("board[to] = {me}"));
                }
            }
            arms.push(arm);
        }
        let w = &mut self.w;
        w.line(format!("graph {}() {{", side.graph("move")));
        if arms.len() == 1 {
            for line in &arms[0] {
                w.line(line);
            }
        } else {
            for (i, arm) in arms.iter().enumerate() {
                w.line(if i == 0 { "branch {" } else { "} or {" });
                for line in arm {
                    w.line(line);
                }
            }
            w.line("}");
        }
        w.line("}");
        w.line("");
        // Helpers the arms named.
        if forced.is_some() {
            self.capture_graph(side);
        }
        let kinds = side.actions();
        if kinds.contains(&ActionKind::PutToEmptyWithFlip) {
            self.flips_graph(side);
        }
        let mut chains = BTreeSet::new();
        for kind in kinds {
            if let ActionKind::MultiJump(victim) = kind {
                let eats = side.eats_by_jumping() && victim != Victim::Own;
                let free_chain = !eats || victim == Victim::Any;
                if chains.insert(jump_variant(victim)) {
                    self.chain_graph(side, victim, free_chain);
                }
            }
        }
    }

    /// One jump from `at` over a piece to `land`, with its tag, its capture and, in a free chain,
    /// the no-second-landing rule.
    #[allow(clippy::too_many_arguments)]
    fn jump_lines(
        &self,
        side: &SideRules,
        victim: Victim,
        eats: bool,
        at: &str,
        land: &str,
        free_chain: bool,
        forced: &Option<String>,
        arm: &mut Vec<String>,
    ) {
        let me = side.me();
        let them = side.them();
        arm.push("dir = Dir(*)".into());
        arm.push(format!("over = {}({me}, dir, {at})", side.leap()));
        arm.push(format!("check({})", side.victim_check(victim, "over")));
        if victim == Victim::Any {
            if let Some(forced) = forced {
                let inner = forced.trim_start_matches("check(").trim_end_matches(')');
                arm.push(format!("check(board[over] == {them} || {inner})"));
            }
        }
        arm.push(format!("{land} = {}({me}, dir, over)", side.leap()));
        arm.push(format!("check(board[{land}] == empty)"));
        if free_chain {
            arm.push(format!("check(seen[{land}] == no)"));
            if at == "from" {
                arm.push("seen[from] = yes".into());
            }
            arm.push(format!("seen[{land}] = yes"));
        }
        arm.push(format!("$$ {land}"));
        if eats {
            arm.push(format!("if board[over] == {them} {{"));
            arm.push("board[over] = empty".into());
            arm.push(format!("pieces[{them}] = down(pieces[{them}])"));
            arm.push(format!("eaten[{me}] = up(eaten[{me}])"));
            arm.push("}".into());
        }
    }

    fn capture_graph(&mut self, side: &SideRules) {
        let me = side.me();
        let them = side.them();
        let w = &mut self.w;
        w.line(format!("// Whether {me} has a capturing jump (limit_eatfirst)."));
        w.line(format!("graph {}() {{", side.graph("capture")));
        w.line("from = Point(*)");
        w.line(format!("check(board[from] == {me})"));
        w.line("dir = Dir(*)");
        w.line(format!("over = {}({me}, dir, from)", side.leap()));
        w.line(format!("check(board[over] == {them})"));
        w.line(format!("check(board[{}({me}, dir, over)] == empty)", side.leap()));
        w.line("}");
        w.line("");
    }

    fn chain_graph(&mut self, side: &SideRules, victim: Victim, free_chain: bool) {
        let me = side.me();
        let w = &mut self.w;
        w.line("// Whether the jumping piece, now at `to`, can jump again (chains go on while they can).");
        w.line(format!("graph {}() {{", side.graph(&format!("chain{}", jump_variant(victim)))));
        w.line("dir = Dir(*)");
        w.line(format!("over = {}({me}, dir, to)", side.leap()));
        w.line(format!("check({})", side.victim_check(victim, "over")));
        w.line(format!("cursor = {}({me}, dir, over)", side.leap()));
        w.line("check(board[cursor] == empty)");
        if free_chain {
            w.line("check(seen[cursor] == no)");
        }
        w.line("}");
        w.line("");
    }

    /// Whether placing on `to` flips something (act_put2empty_withflip).
    fn flips_graph(&mut self, side: &SideRules) {
        let me = side.me();
        let them = side.them();
        let mut arms: Vec<Vec<String>> = Vec::new();
        for effect in side.stage.effects.iter().filter(|e| e.applies.to(side.side)) {
            match effect.kind {
                EffectKind::FlipEmbrace(dirs) => {
                    self.dirs_used.insert(dirs);
                    arms.push(vec!["dir = Dir(*)".into(), format!("{}()", self.embrace_graph_name(dirs, side.side))]);
                }
                EffectKind::FlipNeighbours(dirs) => {
                    self.dirs_used.insert(dirs);
                    arms.push(vec![
                        "dir = Dir(*)".into(),
                        format!("check(board[step{}(dir, to)] == {them})", dirs.suffix()),
                    ]);
                }
                EffectKind::FlipSide(dirs) => {
                    self.dirs_used.insert(dirs);
                    let s = dirs.suffix();
                    arms.push(vec![
                        "dir = Dir(*)".into(),
                        format!("check(board[step{s}(dir, to)] == {them})"),
                        format!("check(board[step{s}(dir, step{s}(dir, to))] == {me})"),
                    ]);
                }
                _ => {}
            }
        }
        let w = &mut self.w;
        w.line(format!("// Whether a {me} piece placed on `to` flips something."));
        w.line(format!("graph {}() {{", side.graph("flips")));
        if arms.is_empty() {
            w.line("check(false())");
        }
        for (i, arm) in arms.iter().enumerate() {
            if arms.len() > 1 {
                w.line(if i == 0 { "branch {" } else { "} or {" });
            }
            for line in arm {
                w.line(line);
            }
        }
        if arms.len() > 1 {
            w.line("}");
        }
        w.line("}");
        w.line("");
        for effect in side.stage.effects.iter().filter(|e| e.applies.to(side.side)) {
            if let EffectKind::FlipEmbrace(dirs) = effect.kind {
                self.embrace_graph(dirs, side.side);
            }
        }
    }

    fn embrace_graph_name(&self, dirs: Dirs, side: Side) -> String {
        format!("embrace{}{}", dirs.suffix(), capitalised(side.name()))
    }

    fn embrace_graph(&mut self, dirs: Dirs, side: Side) {
        let name = self.embrace_graph_name(dirs, side);
        if self.w.text.contains(&format!("graph {name}()")) {
            return;
        }
        let s = dirs.suffix();
        let me = side.name();
        let them = side.other().name();
        let w = &mut self.w;
        w.line(format!("// Along `dir` from `to`: one or more {them} pieces, then a {me} piece."));
        w.line(format!("graph {name}() {{"));
        w.line(format!("cursor = step{s}(dir, to)"));
        w.line(format!("check(board[cursor] == {them})"));
        w.line("loop {");
        w.line(format!("cursor = step{s}(dir, cursor)"));
        w.line(format!("if board[cursor] != {them} {{"));
        w.line("break()");
        w.line("}");
        w.line("}");
        w.line(format!("check(board[cursor] == {me})"));
        w.line("}");
        w.line("");
    }

    /// `turn<k><Side>`: the side's move, then (by the keeper) its flips and captures.
    fn turn_graph(&mut self, side: &SideRules) {
        let me = side.me();
        let them = side.them();
        let mut effects: Vec<String> = Vec::new();
        let capture = |me: &str, them: &str, at: &str, lines: &mut Vec<String>| {
            lines.push(format!("board[{at}] = empty"));
            lines.push(format!("pieces[{them}] = down(pieces[{them}])"));
            lines.push(format!("eaten[{me}] = up(eaten[{me}])"));
        };
        let flip = |me: &str, them: &str, at: &str, lines: &mut Vec<String>| {
            lines.push(format!("board[{at}] = {me}"));
            lines.push(format!("pieces[{me}] = up(pieces[{me}])"));
            lines.push(format!("pieces[{them}] = down(pieces[{them}])"));
        };
        let line_dirs = side.dirs();
        for effect in side.stage.effects.iter().filter(|e| e.applies.to(side.side)) {
            match effect.kind {
                EffectKind::EatJump => {}
                EffectKind::FlipEmbrace(dirs) => {
                    self.dirs_used.insert(dirs);
                    self.embrace_graph(dirs, side.side);
                    let s = dirs.suffix();
                    effects.push("repeat d in Dir {".into());
                    effects.push("dir = d".into());
                    effects.push(format!("if reachable({}()) {{", self.embrace_graph_name(dirs, side.side)));
                    effects.push(format!("cursor = step{s}(d, to)"));
                    effects.push(format!("while board[cursor] == {them} {{"));
                    flip(me, them, "cursor", &mut effects);
                    effects.push(format!("cursor = step{s}(d, cursor)"));
                    effects.push("}".into());
                    effects.push("}".into());
                    effects.push("}".into());
                }
                EffectKind::FlipNeighbours(dirs) => {
                    self.dirs_used.insert(dirs);
                    let s = dirs.suffix();
                    effects.push("repeat d in Dir {".into());
                    effects.push(format!("if board[step{s}(d, to)] == {them} {{"));
                    flip(me, them, &format!("step{s}(d, to)"), &mut effects);
                    effects.push("}".into());
                    effects.push("}".into());
                }
                EffectKind::FlipSide(_) | EffectKind::EatTwoTakeOne => {
                    let dirs = if let EffectKind::FlipSide(dirs) = effect.kind { dirs } else { line_dirs };
                    self.dirs_used.insert(dirs);
                    let s = dirs.suffix();
                    effects.push("repeat d in Dir {".into());
                    effects.push(format!("if board[step{s}(d, to)] == {them} {{"));
                    effects.push(format!("if board[step{s}(d, step{s}(d, to))] == {me} {{"));
                    if matches!(effect.kind, EffectKind::FlipSide(_)) {
                        flip(me, them, &format!("step{s}(d, to)"), &mut effects);
                    } else {
                        capture(me, them, &format!("step{s}(d, to)"), &mut effects);
                    }
                    effects.push("}".into());
                    effects.push("}".into());
                    effects.push("}".into());
                }
                EffectKind::EatOneTakesTwo => {
                    self.dirs_used.insert(line_dirs);
                    let s = line_dirs.suffix();
                    for axis in ["n", "ne", "e", "se"] {
                        let back = opposite(axis);
                        effects.push(format!(
                            "if board[step{s}({axis}, to)] == {them} && board[step{s}({back}, to)] == {them} {{"
                        ));
                        capture(me, them, &format!("step{s}({axis}, to)"), &mut effects);
                        capture(me, them, &format!("step{s}({back}, to)"), &mut effects);
                        effects.push("}".into());
                    }
                }
                EffectKind::EatTwoNeighboursOne => {
                    self.dirs_used.insert(line_dirs);
                    let s = line_dirs.suffix();
                    let no_piece = |at: &str| format!("board[{at}] != red && board[{at}] != green");
                    for direction in DIRECTIONS {
                        let back = opposite(direction);
                        let ahead1 = format!("step{s}({direction}, to)");
                        let ahead2 = format!("step{s}({direction}, {ahead1})");
                        let ahead3 = format!("step{s}({direction}, {ahead2})");
                        let behind1 = format!("step{s}({back}, to)");
                        let behind2 = format!("step{s}({back}, {behind1})");
                        // The moved piece leads the pair: own, own, enemy, then no piece.
                        effects.push(format!(
                            "if board[{ahead1}] == {me} && board[{ahead2}] == {them} && {} && {} {{",
                            no_piece(&ahead3),
                            no_piece(&behind1)
                        ));
                        capture(me, them, &ahead2, &mut effects);
                        effects.push("}".into());
                        // The moved piece trails the pair: own, own (moved), enemy, then no piece.
                        effects.push(format!(
                            "if board[{behind1}] == {me} && board[{ahead1}] == {them} && {} && {} {{",
                            no_piece(&ahead2),
                            no_piece(&behind2)
                        ));
                        capture(me, them, &ahead1, &mut effects);
                        effects.push("}".into());
                    }
                }
            }
        }
        let movement = side.stage.has_movement();
        let w = &mut self.w;
        w.line(format!("graph {}() {{", side.graph("turn")));
        w.line(format!("if reachable({}()) {{", side.graph("move")));
        w.line(format!("player = {me}"));
        w.line(format!("{}()", side.graph("move")));
        w.line("dir = n");
        w.line("over = null");
        w.line("cursor = null");
        w.line("player = keeper");
        for line in &effects {
            w.line(line);
        }
        w.line("dir = n");
        w.line("cursor = null");
        if side.no_repeat() {
            w.line(format!("lastFrom[{me}] = from"));
            w.line(format!("lastTo[{me}] = to"));
        }
        w.line("from = null");
        w.line("to = null");
        w.line("} else {");
        w.line(format!("player = {me}"));
        w.line("$ pass");
        w.line("player = keeper");
        w.line("}");
        if movement {
            w.line("plies = tick(plies)");
        }
        w.line("}");
        w.line("");
    }

    /// `over<k>`: whether stage k ends now (any `stage_end` condition, nobody able to act, or the cap).
    fn stage_graph(&mut self, stage: &Stage, index: usize) {
        let mut arms: Vec<Vec<String>> = Vec::new();
        for condition in &stage.end {
            arms.push(self.condition_lines(condition, index));
        }
        let sides = self.game.sides();
        arms.push(
            sides
                .iter()
                .map(|side| format!("check(not(reachable(move{index}{}())))", capitalised(side.name())))
                .collect(),
        );
        if stage.has_movement() {
            arms.push(vec![format!("check(plies == T({MOVE_CAP}))")]);
        }
        self.w.line(format!("// Whether stage {index} is over."));
        self.w.line(format!("graph over{index}() {{"));
        self.branch(&arms);
        self.w.line("}");
        self.w.line("");
        let order = stage.turn_order.clone();
        let w = &mut self.w;
        w.line(format!("graph stage{index}() {{"));
        if stage.has_movement() {
            w.line("plies = T(0)");
        }
        let mut loop_order = order.clone();
        if let Some((side, times)) = stage.pre_play {
            w.line(format!("repeat {times} {{"));
            w.line(format!("if reachable(over{index}()) {{"));
            w.line("break()");
            w.line("}");
            w.line(format!("turn{index}{}()", capitalised(side.name())));
            w.line("}");
            if let Some(at) = order.iter().position(|s| *s == side) {
                loop_order.rotate_left((at + 1) % order.len());
            }
        }
        w.line("loop {");
        for side in loop_order {
            w.line(format!("if reachable(over{index}()) {{"));
            w.line("break()");
            w.line("}");
            w.line(format!("turn{index}{}()", capitalised(side.name())));
        }
        w.line("}");
        w.line("}");
        w.line("");
    }

    fn branch(&mut self, arms: &[Vec<String>]) {
        if arms.len() == 1 {
            for line in &arms[0] {
                self.w.line(line);
            }
            return;
        }
        for (i, arm) in arms.iter().enumerate() {
            self.w.line(if i == 0 { "branch {" } else { "} or {" });
            for line in arm {
                self.w.line(line);
            }
        }
        self.w.line("}");
    }

    fn selector_lines(&self, selector: Selector, each: impl Fn(&str) -> String) -> Vec<String> {
        let sides: Vec<Side> = selector.sides().into_iter().filter(|s| self.game.sides().contains(s)).collect();
        match selector {
            Selector::Any if sides.len() == 2 => {
                vec!["branch {".into(), each("red"), "} or {".into(), each("green"), "}".into()]
            }
            _ => sides.iter().map(|s| each(s.name())).collect(),
        }
    }

    fn count_of(&self, side: &str) -> String {
        if side == "green" && self.game.players == 1 {
            "enemies".to_string()
        } else {
            format!("pieces[{side}]")
        }
    }

    fn condition_lines(&mut self, condition: &Condition, index: usize) -> Vec<String> {
        match *condition {
            Condition::NoPlace(selector) => self
                .selector_lines(selector, |side| format!("check(not(reachable(move{index}{}())))", capitalised(side))),
            Condition::LineShape(dirs, length) => {
                self.dirs_used.insert(dirs);
                let sides = self.game.sides();
                for side in &sides {
                    self.lines.insert((dirs, length, side.name()));
                }
                let names: Vec<String> = sides.iter().map(|s| line_graph_name(dirs, length, s.name())).collect();
                if names.len() == 1 {
                    vec![format!("{}()", names[0])]
                } else {
                    vec![
                        "branch {".into(),
                        format!("{}()", names[0]),
                        "} or {".into(),
                        format!("{}()", names[1]),
                        "}".into(),
                    ]
                }
            }
            Condition::ChessCountEq(selector, n) => {
                let lines = self.selector_lines(selector, |side| format!("check({} == N({n}))", self.count_of(side)));
                lines
            }
            Condition::EatCountGe(selector, n) => {
                self.thresholds.insert(n);
                self.selector_lines(selector, |side| format!("check(atLeast{n}(eaten[{side}]) == yes)"))
            }
            Condition::Compare(comparison, left, right) => {
                let name = match comparison {
                    Comparison::Ge => "ge",
                    Comparison::Gt => "gt",
                    Comparison::Le => "le",
                    Comparison::Lt => "lt",
                    Comparison::Eq => "eq",
                };
                self.comparisons.insert(name);
                let operand = |number: Number| match number {
                    Number::Literal(n) => format!("N({n})"),
                    Number::EatCount(side) => format!("eaten[{}]", side.name()),
                    Number::ChessCount(side) => self.count_of(side.name()),
                };
                vec![format!("check({name}({}, {}) == yes)", operand(left), operand(right))]
            }
        }
    }

    fn line_graph(&mut self, dirs: Dirs, length: usize, side: &str) {
        let s = dirs.suffix();
        let w = &mut self.w;
        w.line(format!("// A line of {length} {side} pieces along {}.", dirs.block_name()));
        w.line(format!("graph {}() {{", line_graph_name(dirs, length, side)));
        w.line("cursor = Point(*)");
        w.line(format!("check(board[cursor] == {side})"));
        w.line("dir = Axis(*)");
        w.line(format!("repeat {} {{", length - 1));
        w.line(format!("cursor = step{s}(dir, cursor)"));
        w.line(format!("check(board[cursor] == {side})"));
        w.line("}");
        w.line("}");
        w.line("");
    }

    /// `wins<k><Side>` and `decide<k>`: after stage k, the win rules; a winner ends the game, and
    /// after the last stage a game without a winner is a draw.
    fn decide_graph(&mut self, index: usize, last: bool) {
        let sides = self.game.sides();
        for side in &sides {
            let me = side.name();
            let mut arms: Vec<Vec<String>> = Vec::new();
            for rule in self.game.wins(*side).to_vec() {
                arms.push(match rule {
                    WinRule::LineShape(dirs, length) => {
                        self.dirs_used.insert(dirs);
                        self.lines.insert((dirs, length, me));
                        vec![format!("{}()", line_graph_name(dirs, length, me))]
                    }
                    WinRule::MorePieces => {
                        vec![format!(
                            "check(more({}, {}) == yes)",
                            self.count_of(me),
                            self.count_of(side.other().name())
                        )]
                    }
                    WinRule::EatCountGe(n) => {
                        self.thresholds.insert(n);
                        vec![format!("check(atLeast{n}(eaten[{me}]) == yes)")]
                    }
                    WinRule::OpponentCannotPlay => {
                        if self.game.players == 1 {
                            vec!["check(false())".into()]
                        } else {
                            vec![format!("check(not(reachable(move{index}{}())))", capitalised(side.other().name()))]
                        }
                    }
                });
            }
            if arms.is_empty() {
                arms.push(vec!["check(false())".into()]);
            }
            self.w.line(format!("graph wins{index}{}() {{", capitalised(me)));
            self.branch(&arms);
            self.w.line("}");
            self.w.line("");
        }
        let w = &mut self.w;
        w.line(format!("graph decide{index}() {{"));
        if sides.len() == 1 {
            w.line(format!("if reachable(wins{index}Red()) {{"));
            w.line("goals[red] = 100");
            w.line("end()");
            w.line("}");
            if last {
                w.line("goals[red] = 0");
                w.line("end()");
            }
        } else {
            w.line(format!("if reachable(wins{index}Red()) {{"));
            w.line(format!("if reachable(wins{index}Green()) {{"));
            w.line("goals[red] = 50");
            w.line("goals[green] = 50");
            w.line("} else {");
            w.line("goals[red] = 100");
            w.line("goals[green] = 0");
            w.line("}");
            w.line("end()");
            w.line(format!("}} else if reachable(wins{index}Green()) {{"));
            w.line("goals[red] = 0");
            w.line("goals[green] = 100");
            w.line("end()");
            w.line("}");
            if last {
                w.line("goals[red] = 50");
                w.line("goals[green] = 50");
                w.line("end()");
            }
        }
        w.line("}");
        w.line("");
    }
}

fn line_graph_name(dirs: Dirs, length: usize, side: &str) -> String {
    format!("line{}{length}{}", dirs.suffix(), capitalised(side))
}

fn jump_variant(victim: Victim) -> &'static str {
    match victim {
        Victim::Opponent => "Oppo",
        Victim::Own => "Own",
        Victim::Any => "Any",
    }
}
