//! From parsed s-expressions to the checked [`Game`]: every block's name, place, argument count
//! and argument kinds are verified, with located diagnostics (E0603..E0612, W0601). The meaning
//! chosen for each block is described in `spec/blocks.md`.

use super::model::*;
use super::parser::{Block, Sexp};
use crate::diagnostics::Diagnostic;
use crate::rg::ast::{Ident, Span};

/// Every block name the language defines, for "unknown block" suggestions.
const BLOCK_NAMES: &[&str] = &[
    "game",
    "players",
    "stage_init",
    "stage_layout",
    "stage_move",
    "stage_end",
    "game_end",
    "board",
    "initplace",
    "play_turn",
    "pre_play_times",
    "actions",
    "act_put2empty",
    "act_put2empty_withflip",
    "act_nbrmove",
    "act_xstepmove",
    "act_flymove",
    "act_mjump",
    "act_sjump",
    "action_limits",
    "limit_dir",
    "limit_eatfirst",
    "limit_nobackoff",
    "limit_norepeat",
    "limit_repeat",
    "eatorflip",
    "flip_embrace",
    "flip_nbr",
    "flip_side",
    "eat_jump",
    "eat_1tiao2",
    "eat_2jia1",
    "eat_2nbr1",
    "cond_noplace",
    "cond_line_shape",
    "cond_chess_count_eq",
    "cond_eat_count_ge",
    "ge",
    "gt",
    "le",
    "lt",
    "eq",
    "win_line_shape",
    "win_comp_chess_count",
    "win_eat_count_ge",
    "win_oppo_noplace",
    "red_win_rules",
    "green_win_rules",
    "win_rules",
    "anim_tone",
    "anim_tone_win",
    "anim_tone_lose",
    "anim_tone_draw",
];

/// Where in the file a block appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Header,
    Init,
    Stage,
    GameEnd,
    AnimTone,
}

struct Checker {
    diagnostics: Vec<Diagnostic>,
    size: usize,
}

/// Checks a parsed file. Returns the game and its warnings, or every error found.
pub fn check(sexps: &[Sexp], source_len: usize) -> Result<(Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut checker = Checker { diagnostics: Vec::new(), size: 0 };
    let game = checker.file(sexps, source_len);
    if checker.diagnostics.iter().any(Diagnostic::is_error) {
        Err(checker.diagnostics)
    } else {
        Ok((game, checker.diagnostics))
    }
}

fn name_of(block: &Block) -> &str {
    block.name.as_ref().map_or("", |n| n.name.as_str())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            current.push((previous[j] + cost).min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

fn closest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (edit_distance(name, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 4))
        .min()
        .map(|(_, c)| c)
}

impl Checker {
    fn error(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn file(&mut self, sexps: &[Sexp], source_len: usize) -> Game {
        let mut game = Game {
            name: String::new(),
            version: String::new(),
            players: 2,
            board: BoardKind::Square,
            size: 0,
            initial: Vec::new(),
            stages: Vec::new(),
            red_wins: Vec::new(),
            green_wins: Vec::new(),
            presentation: Vec::new(),
        };
        let mut section = Section::Header;
        let mut board_seen: Option<Span> = None;
        let mut win_spans: Vec<(&str, Span)> = Vec::new();
        let mut game_end_seen = false;
        let mut stage_blocks: Vec<(&str, Span)> = Vec::new();
        // Stages (by index) that have an `actions` / `play_turn` block, even a wrong one, so that
        // an error inside it is not followed by a "missing" one.
        let mut stages_with_actions: Vec<usize> = Vec::new();
        let mut stages_with_turns: Vec<usize> = Vec::new();
        let mut previous_was_block = true;
        for sexp in sexps {
            let block = match sexp {
                Sexp::Block(block) if block.name.is_some() => {
                    previous_was_block = true;
                    block
                }
                _ if !previous_was_block => continue,
                other => {
                    previous_was_block = false;
                    self.error(
                        Diagnostic::error("E0605", "expected a block", other.span())
                            .label("not a `(name ...)` block")
                            .with_help("every top-level item is a block such as `(players 2)`"),
                    );
                    continue;
                }
            };
            let name = name_of(block);
            match name {
                "game" => {
                    if self.arity(block, 1, 2) {
                        game.name = self.string(&block.args[0]).unwrap_or_default();
                        if game.name.chars().count() > 15 {
                            self.error(
                                Diagnostic::warning(
                                    "W0602",
                                    "game name longer than 15 characters",
                                    block.args[0].span(),
                                )
                                .label("the blocks language allows at most 15")
                                .with_help("shorten the name"),
                            );
                        }
                        if let Some(version) = block.args.get(1) {
                            game.version = self.string(version).unwrap_or_default();
                        }
                    }
                }
                "players" => {
                    if self.arity(block, 1, 1) {
                        if let Some(n) = self.number(&block.args[0], 1, 2, "the number of players") {
                            game.players = n;
                        }
                    }
                }
                "stage_init" => {
                    self.arity(block, 0, 0);
                    section = Section::Init;
                }
                "stage_layout" | "stage_move" => {
                    self.arity(block, 0, 0);
                    if game_end_seen {
                        self.misplaced(block, "stages come before `(game_end)`");
                    }
                    section = Section::Stage;
                    stage_blocks.clear();
                    game.stages.push(Stage {
                        kind: if name == "stage_move" { StageKind::Move } else { StageKind::Layout },
                        span: block.span,
                        turn_order: Vec::new(),
                        pre_play: None,
                        actions: Vec::new(),
                        limits: Vec::new(),
                        effects: Vec::new(),
                        end: Vec::new(),
                    });
                }
                "game_end" => {
                    self.arity(block, 0, 0);
                    section = Section::GameEnd;
                    game_end_seen = true;
                }
                "anim_tone" => {
                    self.arity(block, 0, 0);
                    section = Section::AnimTone;
                    game.presentation.push(Presentation { block: name.to_string(), args: Vec::new() });
                }
                "board" => {
                    if section != Section::Init {
                        self.misplaced(block, "`board` belongs after `(stage_init)`");
                    } else if let Some(first) = board_seen {
                        self.error(
                            Diagnostic::error("E0611", "a second `board` block", block.span)
                                .label("the board is set again here")
                                .with_secondary(first, "first set here")
                                .with_help("keep one `board` block"),
                        );
                    } else if self.board_arity(block, &mut board_seen) {
                        match &block.args[0] {
                            Sexp::Atom(kind) if kind.name == "SQURE" || kind.name == "SQUARE" => {
                                game.board = BoardKind::Square
                            }
                            Sexp::Atom(kind) if kind.name == "CROSS" => game.board = BoardKind::Cross,
                            other => self.error(
                                Diagnostic::error("E0608", "unknown board kind", other.span())
                                    .label("expected `SQURE`, `SQUARE` or `CROSS`")
                                    .with_help("`SQURE` (or `SQUARE`) puts pieces in cells, `CROSS` on intersections"),
                            ),
                        }
                        if let Some(size) = self.number(&block.args[1], 3, 5, "the board side") {
                            game.size = size;
                            self.size = size;
                        }
                    }
                }
                "initplace" => {
                    if section != Section::Init {
                        self.misplaced(block, "`initplace` belongs after `(stage_init)` and `board`");
                    } else if board_seen.is_none() {
                        self.misplaced(block, "`initplace` needs the `board` block before it");
                    } else if self.arity(block, 2, usize::MAX) {
                        if let Some(side) = self.side(&block.args[0]) {
                            for cell in &block.args[1..] {
                                if let Some((column, row)) = self.cell(cell) {
                                    if game.initial.iter().any(|&(_, c, r)| (c, r) == (column, row)) {
                                        self.error(
                                            Diagnostic::error("E0609", "a point placed twice", cell.span())
                                                .label("already holds a piece")
                                                .with_help("list each point in one `initplace` only"),
                                        );
                                    } else {
                                        game.initial.push((side, column, row));
                                    }
                                }
                            }
                        }
                    }
                }
                "play_turn" | "pre_play_times" | "actions" | "action_limits" | "eatorflip" | "stage_end" => {
                    if section != Section::Stage {
                        self.misplaced(
                            block,
                            "this block belongs to a stage, after `(stage_layout)` or `(stage_move)`",
                        );
                        continue;
                    }
                    if let Some(&(_, first)) = stage_blocks.iter().find(|(n, _)| *n == name) {
                        self.error(
                            Diagnostic::error("E0611", format!("a second `{name}` block in this stage"), block.span)
                                .label("repeated here")
                                .with_secondary(first, "first given here")
                                .with_help("put all the items in one block"),
                        );
                        continue;
                    }
                    stage_blocks.push((name, block.span));
                    match name {
                        "actions" => stages_with_actions.push(game.stages.len() - 1),
                        "play_turn" => stages_with_turns.push(game.stages.len() - 1),
                        _ => {}
                    }
                    let players = game.players;
                    let stage = game.stages.last_mut().expect("a stage section has a stage");
                    self.stage_block(block, stage, players);
                }
                "red_win_rules" | "green_win_rules" | "win_rules" => {
                    if section != Section::GameEnd {
                        self.misplaced(block, "win rules belong after `(game_end)`");
                        continue;
                    }
                    let clash =
                        win_spans.iter().find(|(n, _)| *n == name || (*n == "win_rules") != (name == "win_rules"));
                    if let Some(&(first_name, first)) = clash {
                        self.error(
                            Diagnostic::error("E0611", format!("`{name}` after `{first_name}`"), block.span)
                                .label("the win rules are given again here")
                                .with_secondary(first, "first given here")
                                .with_help("use either `win_rules` or both `red_win_rules` and `green_win_rules`"),
                        );
                        continue;
                    }
                    win_spans.push((name, block.span));
                    if self.arity(block, 1, usize::MAX) {
                        let rules: Vec<WinRule> = block.args.iter().filter_map(|a| self.win_rule(a)).collect();
                        if name != "green_win_rules" {
                            game.red_wins = rules.clone();
                        }
                        if name != "red_win_rules" {
                            game.green_wins = rules;
                        }
                    }
                }
                "anim_tone_win" | "anim_tone_lose" | "anim_tone_draw" => {
                    if section != Section::AnimTone {
                        self.misplaced(block, "presentation blocks belong after `(anim_tone)`");
                    } else if self.arity(block, 2, 2) {
                        let animation = self.constant(&block.args[0], &["ANIM_FIREWORK", "ANIM_RAIN", "ANIM_DRAW"]);
                        let tone = self.constant(&block.args[1], &["TONE_WIN", "TONE_LOSE", "TONE_DRAW"]);
                        if let (Some(animation), Some(tone)) = (animation, tone) {
                            game.presentation
                                .push(Presentation { block: name.to_string(), args: vec![animation, tone] });
                        }
                    }
                }
                _ => self.unknown_or_misplaced(block),
            }
        }
        let end = Span::new(source_len, source_len);
        if board_seen.is_none() {
            self.error(
                Diagnostic::error("E0610", "the file has no `board` block", end)
                    .label("missing `(board SQURE|CROSS size)`")
                    .with_help("add `(stage_init)` and `(board SQURE 3)` before the stages"),
            );
        }
        if game.stages.is_empty() {
            self.error(
                Diagnostic::error("E0610", "the file has no stage", end)
                    .label("missing `(stage_layout)` or `(stage_move)`")
                    .with_help("add a stage with `play_turn`, `actions` and `stage_end`"),
            );
        }
        if win_spans.is_empty() {
            self.error(
                Diagnostic::error("E0610", "the file has no win rules", end)
                    .label("missing `(game_end)` and its win rules")
                    .with_help("add `(game_end)` and `(win_rules ...)` or `red_win_rules` and `green_win_rules`"),
            );
        } else if win_spans.len() == 1 && win_spans[0].0 != "win_rules" && game.players == 2 {
            let (given, span) = win_spans[0];
            self.error(
                Diagnostic::error("E0610", format!("`{given}` without the other side's rules"), span)
                    .label("only one side's win rules")
                    .with_help("give both `red_win_rules` and `green_win_rules`, or one `win_rules` for both"),
            );
        }
        for (index, stage) in game.stages.iter().enumerate() {
            if stages_with_actions.contains(&index) && stage.actions.is_empty() {
                continue;
            }
            if stage.actions.is_empty() {
                self.error(
                    Diagnostic::error("E0607", "a stage without actions", stage.span)
                        .label("this stage has no `actions` block")
                        .with_help("add `(actions (act_put2empty BOTH))` or another action"),
                );
            }
            if stage.turn_order.is_empty() && !stages_with_turns.contains(&index) {
                self.error(
                    Diagnostic::error("E0610", "a stage without `play_turn`", stage.span)
                        .label("nobody is said to move in this stage")
                        .with_help("add `(play_turn RED GREEN)` after the stage block"),
                );
            }
            for side in game.sides() {
                if !stage.actions.is_empty() && !stage.actions.iter().any(|a| a.applies.to(side)) {
                    self.error(
                        Diagnostic::error(
                            "E0607",
                            format!("{} has no action in this stage", side.name().to_uppercase()),
                            stage.span,
                        )
                        .label("one side cannot act at all")
                        .with_help(
                            "use `BOTH` as the first argument of an action, or add an action for the other side",
                        ),
                    );
                }
            }
        }
        game
    }

    /// Records the board block (even a wrong one, so no "missing board" follows) and checks its
    /// argument count.
    fn board_arity(&mut self, block: &Block, board_seen: &mut Option<Span>) -> bool {
        *board_seen = Some(block.span);
        self.arity(block, 2, 2)
    }

    fn misplaced(&mut self, block: &Block, why: &str) {
        self.error(
            Diagnostic::error("E0606", format!("`{}` in the wrong place", name_of(block)), block.span)
                .label("not allowed here")
                .with_help(why.to_string()),
        );
    }

    fn unknown_or_misplaced(&mut self, block: &Block) {
        let name = block.name.as_ref().expect("named block");
        if BLOCK_NAMES.contains(&name.name.as_str()) {
            self.misplaced(block, "see spec/blocks.md for where each block goes");
        } else {
            let help = match closest(&name.name, BLOCK_NAMES) {
                Some(suggestion) => format!("did you mean `{suggestion}`?"),
                None => "see spec/blocks.md for the blocks the language defines".to_string(),
            };
            self.error(
                Diagnostic::error("E0603", format!("unknown block `{}`", name.name), name.span)
                    .label("no block has this name")
                    .with_help(help),
            );
        }
    }

    /// Checks the argument count; reports E0604 and returns false when it is wrong.
    fn arity(&mut self, block: &Block, low: usize, high: usize) -> bool {
        let count = block.args.len();
        if count >= low && count <= high {
            return true;
        }
        let wanted = if low == high {
            format!("{low} argument{}", if low == 1 { "" } else { "s" })
        } else if high == usize::MAX {
            format!("at least {low} argument{}", if low == 1 { "" } else { "s" })
        } else {
            format!("{low} to {high} arguments")
        };
        self.error(
            Diagnostic::error("E0604", format!("`{}` takes {wanted}, found {count}", name_of(block)), block.span)
                .label(format!("{count} argument{}", if count == 1 { "" } else { "s" }))
                .with_help(format!("write `{}` with {wanted} (spec/blocks.md)", name_of(block))),
        );
        false
    }

    fn kind_error(&mut self, arg: &Sexp, expected: &str) {
        let found = match arg {
            Sexp::Atom(a) => format!("`{}`", a.name),
            Sexp::Str(_) => "a string".to_string(),
            Sexp::Block(_) => "a block".to_string(),
        };
        self.error(
            Diagnostic::error("E0605", format!("expected {expected}, found {found}"), arg.span())
                .label(format!("should be {expected}"))
                .with_help(format!("write {expected} here (spec/blocks.md)")),
        );
    }

    fn atom<'a>(&mut self, arg: &'a Sexp, expected: &str) -> Option<&'a Ident> {
        match arg {
            Sexp::Atom(atom) => Some(atom),
            other => {
                self.kind_error(other, expected);
                None
            }
        }
    }

    fn string(&mut self, arg: &Sexp) -> Option<String> {
        match arg {
            Sexp::Str(text) => Some(text.name.clone()),
            other => {
                self.kind_error(other, "a quoted string");
                None
            }
        }
    }

    fn constant(&mut self, arg: &Sexp, allowed: &[&str]) -> Option<String> {
        let expected = format!("one of {}", allowed.join(", "));
        let atom = self.atom(arg, &expected)?;
        if allowed.contains(&atom.name.as_str()) {
            Some(atom.name.clone())
        } else {
            self.kind_error(arg, &expected);
            None
        }
    }

    fn number(&mut self, arg: &Sexp, low: usize, high: usize, what: &str) -> Option<usize> {
        let atom = self.atom(arg, "a number")?;
        match atom.name.parse::<usize>() {
            Ok(n) if n >= low && n <= high => Some(n),
            Ok(n) => {
                self.error(
                    Diagnostic::error(
                        "E0612",
                        format!("{what} must be between {low} and {high}, found {n}"),
                        atom.span,
                    )
                    .label("out of range")
                    .with_help(format!("use a number from {low} to {high}")),
                );
                None
            }
            Err(_) => {
                self.kind_error(arg, "a number");
                None
            }
        }
    }

    fn side(&mut self, arg: &Sexp) -> Option<Side> {
        match self.constant(arg, &["RED", "GREEN"])?.as_str() {
            "RED" => Some(Side::Red),
            _ => Some(Side::Green),
        }
    }

    fn applies(&mut self, arg: &Sexp) -> Option<Applies> {
        Some(match self.constant(arg, &["RED", "GREEN", "BOTH"])?.as_str() {
            "RED" => Applies { red: true, green: false },
            "GREEN" => Applies { red: false, green: true },
            _ => Applies { red: true, green: true },
        })
    }

    fn selector(&mut self, arg: &Sexp) -> Option<Selector> {
        Some(match self.constant(arg, &["RED", "GREEN", "BOTH", "ANY"])?.as_str() {
            "RED" => Selector::Red,
            "GREEN" => Selector::Green,
            "BOTH" => Selector::Both,
            _ => Selector::Any,
        })
    }

    fn victim(&mut self, arg: &Sexp) -> Option<Victim> {
        Some(match self.constant(arg, &["OPPO", "SELF", "BOTH"])?.as_str() {
            "OPPO" => Victim::Opponent,
            "SELF" => Victim::Own,
            _ => Victim::Any,
        })
    }

    fn dirs(&mut self, arg: &Sexp) -> Option<Dirs> {
        let all = ["DIRS_HV", "DIRS_HVD", "DIRS_HVD1", "DIRS_HVD2", "DIRS_HVD3", "DIRS_HVD4"];
        Some(match self.constant(arg, &all)?.as_str() {
            "DIRS_HV" => Dirs::Hv,
            "DIRS_HVD" => Dirs::Hvd,
            "DIRS_HVD1" => Dirs::Hvd1,
            "DIRS_HVD2" => Dirs::Hvd2,
            "DIRS_HVD3" => Dirs::Hvd3,
            _ => Dirs::Hvd4,
        })
    }

    /// A point such as `c3`: column letter from `a`, row number from 1, inside the board.
    fn cell(&mut self, arg: &Sexp) -> Option<(usize, usize)> {
        let atom = self.atom(arg, "a point such as `a1`")?;
        let mut chars = atom.name.chars();
        let column = chars.next().filter(char::is_ascii_lowercase).map(|c| c as usize - 'a' as usize);
        let row = chars.as_str().parse::<usize>().ok().filter(|r| *r >= 1).map(|r| r - 1);
        match (column, row) {
            (Some(column), Some(row)) if column < self.size && row < self.size => Some((column, row)),
            (Some(_), Some(_)) => {
                let last = (b'a' + self.size as u8 - 1) as char;
                self.error(
                    Diagnostic::error("E0609", format!("point `{}` is off the board", atom.name), atom.span)
                        .label(format!("the board is {0} x {0}", self.size))
                        .with_help(format!("columns run from `a` to `{last}`, rows from 1 to {}", self.size)),
                );
                None
            }
            _ => {
                self.kind_error(arg, "a point such as `a1`");
                None
            }
        }
    }

    /// The items of a list block: each must be a block whose name is one of `allowed`.
    fn items<'a>(&mut self, block: &'a Block, allowed: &[&str]) -> Vec<&'a Block> {
        let mut items = Vec::new();
        for arg in &block.args {
            match arg {
                Sexp::Block(item) if item.name.is_some() => {
                    let name = name_of(item);
                    if allowed.contains(&name) {
                        items.push(item);
                    } else if BLOCK_NAMES.contains(&name) {
                        self.error(
                            Diagnostic::error(
                                "E0606",
                                format!("`{name}` cannot go in `{}`", name_of(block)),
                                item.span,
                            )
                            .label("not allowed in this list")
                            .with_help(format!(
                                "`{}` holds: {}",
                                name_of(block),
                                allowed.join(", ")
                            )),
                        );
                    } else {
                        self.unknown_or_misplaced(item);
                    }
                }
                other => self.kind_error(other, &format!("a block such as `({} ...)`", allowed[0])),
            }
        }
        items
    }

    fn stage_block(&mut self, block: &Block, stage: &mut Stage, players: usize) {
        match name_of(block) {
            "play_turn" => {
                if self.arity(block, players, players) {
                    let order: Vec<Side> = block.args.iter().filter_map(|a| self.side(a)).collect();
                    if order.len() == 2 && order[0] == order[1] {
                        self.error(
                            Diagnostic::error("E0612", "both turns go to the same side", block.span)
                                .label("the two sides must alternate")
                                .with_help("write `(play_turn RED GREEN)` or `(play_turn GREEN RED)`"),
                        );
                    } else if order.len() == players {
                        stage.turn_order = order;
                    }
                }
            }
            "pre_play_times" => {
                if self.arity(block, 2, 2) {
                    let side = self.side(&block.args[0]);
                    let times = self.number(&block.args[1], 1, 9, "the number of moves made first");
                    if let (Some(side), Some(times)) = (side, times) {
                        stage.pre_play = Some((side, times));
                    }
                }
            }
            "actions" => {
                self.arity(block, 1, usize::MAX);
                let allowed = [
                    "act_put2empty",
                    "act_put2empty_withflip",
                    "act_nbrmove",
                    "act_xstepmove",
                    "act_flymove",
                    "act_mjump",
                    "act_sjump",
                ];
                for item in self.items(block, &allowed) {
                    let name = name_of(item);
                    let (low, high) = match name {
                        "act_xstepmove" | "act_mjump" | "act_sjump" => (2, 2),
                        _ => (1, 1),
                    };
                    if !self.arity(item, low, high) {
                        continue;
                    }
                    let Some(applies) = self.applies(&item.args[0]) else { continue };
                    let kind = match name {
                        "act_put2empty" => Some(ActionKind::PutToEmpty),
                        "act_put2empty_withflip" => Some(ActionKind::PutToEmptyWithFlip),
                        "act_nbrmove" => Some(ActionKind::NeighbourMove),
                        "act_flymove" => Some(ActionKind::FlyMove),
                        "act_xstepmove" => {
                            self.number(&item.args[1], 1, 9, "the number of steps").map(ActionKind::MultiStepMove)
                        }
                        "act_sjump" => self.victim(&item.args[1]).map(ActionKind::SingleJump),
                        _ => self.victim(&item.args[1]).map(ActionKind::MultiJump),
                    };
                    if let Some(kind) = kind {
                        stage.actions.push(Action { kind, applies, span: item.span });
                    }
                }
            }
            "action_limits" => {
                self.arity(block, 1, usize::MAX);
                let allowed = ["limit_dir", "limit_eatfirst", "limit_nobackoff", "limit_norepeat", "limit_repeat"];
                for item in self.items(block, &allowed) {
                    let name = name_of(item);
                    let (low, high) = if name == "limit_dir" { (2, 2) } else { (1, 1) };
                    if !self.arity(item, low, high) {
                        continue;
                    }
                    let Some(applies) = self.applies(&item.args[0]) else { continue };
                    let kind = match name {
                        "limit_dir" => self.dirs(&item.args[1]).map(LimitKind::Directions),
                        "limit_eatfirst" => Some(LimitKind::EatFirst),
                        "limit_nobackoff" => Some(LimitKind::NoBackoff),
                        "limit_repeat" => {
                            self.error(
                                Diagnostic::warning("W0601", "`limit_repeat` is read as `limit_norepeat`", item.span)
                                    .label("the seed defines only `limit_norepeat`")
                                    .with_help("write `limit_norepeat` (spec/blocks.md explains the reading)"),
                            );
                            Some(LimitKind::NoRepeat)
                        }
                        _ => Some(LimitKind::NoRepeat),
                    };
                    if let Some(kind) = kind {
                        stage.limits.push(Limit { kind, applies });
                    }
                }
            }
            "eatorflip" => {
                self.arity(block, 1, usize::MAX);
                let allowed =
                    ["flip_embrace", "flip_nbr", "flip_side", "eat_jump", "eat_1tiao2", "eat_2jia1", "eat_2nbr1"];
                for item in self.items(block, &allowed) {
                    let name = name_of(item);
                    let (low, high) = if name.starts_with("flip_") { (2, 2) } else { (1, 1) };
                    if !self.arity(item, low, high) {
                        continue;
                    }
                    let Some(applies) = self.applies(&item.args[0]) else { continue };
                    let kind = match name {
                        "flip_embrace" => self.dirs(&item.args[1]).map(EffectKind::FlipEmbrace),
                        "flip_nbr" => self.dirs(&item.args[1]).map(EffectKind::FlipNeighbours),
                        "flip_side" => self.dirs(&item.args[1]).map(EffectKind::FlipSide),
                        "eat_jump" => Some(EffectKind::EatJump),
                        "eat_1tiao2" => Some(EffectKind::EatOneTakesTwo),
                        "eat_2jia1" => Some(EffectKind::EatTwoTakeOne),
                        _ => Some(EffectKind::EatTwoNeighboursOne),
                    };
                    if let Some(kind) = kind {
                        stage.effects.push(Effect { kind, applies });
                    }
                }
            }
            _ => {
                // stage_end
                let allowed = [
                    "cond_noplace",
                    "cond_line_shape",
                    "cond_chess_count_eq",
                    "cond_eat_count_ge",
                    "ge",
                    "gt",
                    "le",
                    "lt",
                    "eq",
                ];
                for item in self.items(block, &allowed) {
                    if let Some(condition) = self.condition(item) {
                        stage.end.push(condition);
                    }
                }
            }
        }
    }

    fn line_length(&mut self, arg: &Sexp) -> Option<usize> {
        let size = self.size.max(3);
        self.number(arg, 2, size, "the line length")
    }

    fn condition(&mut self, item: &Block) -> Option<Condition> {
        let name = name_of(item);
        match name {
            "cond_noplace" => {
                self.arity(item, 1, 1).then_some(())?;
                self.selector(&item.args[0]).map(Condition::NoPlace)
            }
            "cond_line_shape" => {
                self.arity(item, 3, 3).then_some(())?;
                self.constant(&item.args[0], &["ANY"])?;
                let dirs = self.dirs(&item.args[1])?;
                self.line_length(&item.args[2]).map(|n| Condition::LineShape(dirs, n))
            }
            "cond_chess_count_eq" | "cond_eat_count_ge" => {
                self.arity(item, 2, 2).then_some(())?;
                let selector = self.selector(&item.args[0])?;
                let n = self.number(&item.args[1], 0, 25, "the count")?;
                Some(if name == "cond_chess_count_eq" {
                    Condition::ChessCountEq(selector, n)
                } else {
                    Condition::EatCountGe(selector, n)
                })
            }
            _ => {
                self.arity(item, 2, 2).then_some(())?;
                let comparison = match name {
                    "ge" => Comparison::Ge,
                    "gt" => Comparison::Gt,
                    "le" => Comparison::Le,
                    "lt" => Comparison::Lt,
                    _ => Comparison::Eq,
                };
                let left = self.operand(&item.args[0]);
                let right = self.operand(&item.args[1]);
                Some(Condition::Compare(comparison, left?, right?))
            }
        }
    }

    fn operand(&mut self, arg: &Sexp) -> Option<Number> {
        let expected = "a number or a built-in variable such as `red_eat_count`";
        let atom = self.atom(arg, expected)?;
        Some(match atom.name.as_str() {
            "red_eat_count" => Number::EatCount(Side::Red),
            "green_eat_count" => Number::EatCount(Side::Green),
            "red_chess_count" => Number::ChessCount(Side::Red),
            "green_chess_count" => Number::ChessCount(Side::Green),
            _ => return self.number(arg, 0, 25, "a count").map(Number::Literal),
        })
    }

    fn win_rule(&mut self, arg: &Sexp) -> Option<WinRule> {
        let allowed = ["win_line_shape", "win_comp_chess_count", "win_eat_count_ge", "win_oppo_noplace"];
        let item = match arg {
            Sexp::Block(item) if item.name.is_some() => item,
            other => {
                self.kind_error(other, "a win rule such as `(win_line_shape DIRS_HVD 3)`");
                return None;
            }
        };
        let name = name_of(item);
        if !allowed.contains(&name) {
            if BLOCK_NAMES.contains(&name) {
                self.error(
                    Diagnostic::error("E0606", format!("`{name}` is not a win rule"), item.span)
                        .label("not allowed in win rules")
                        .with_help(format!("win rules are: {}", allowed.join(", "))),
                );
            } else {
                self.unknown_or_misplaced(item);
            }
            return None;
        }
        match name {
            "win_line_shape" => {
                self.arity(item, 2, 2).then_some(())?;
                let dirs = self.dirs(&item.args[0])?;
                self.line_length(&item.args[1]).map(|n| WinRule::LineShape(dirs, n))
            }
            "win_eat_count_ge" => {
                self.arity(item, 1, 1).then_some(())?;
                self.number(&item.args[0], 0, 25, "the count").map(WinRule::EatCountGe)
            }
            "win_comp_chess_count" => self.arity(item, 0, 0).then_some(WinRule::MorePieces),
            _ => self.arity(item, 0, 0).then_some(WinRule::OpponentCannotPlay),
        }
    }
}
