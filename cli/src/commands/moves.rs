//! `regula moves FILE [--after PATH] [--player P] [--observe P]`: the legal moves after a history.
//!
//! Output (standard output): a `#` header line naming who is to move, then one move a line, tags
//! separated by spaces; a move without tags is printed as `(empty)`. With `--observe P`, `#` lines
//! first show P's view of the history.

use crate::engine::{load_engine, player_number, runtime_failure};
use crate::failure::Failure;
use crate::source::write_output;
use regula_runtime::engine::{parse_history, ForwardModel, Mover, Observed};
use std::fmt::Write as _;
use std::path::Path;

/// How a move without tags is printed.
pub const EMPTY_MOVE: &str = "(empty)";

pub fn moves(path: &Path, after: &str, player: Option<&str>, observe: Option<&str>) -> Result<(), Failure> {
    let engine = load_engine(path)?;
    let automaton = engine.automaton();
    let history = parse_history(automaton, after).map_err(|e| Failure::new(format!("--after `{after}`: {e}")))?;
    let mut state = engine.start().map_err(runtime_failure)?;
    for (index, tags) in history.iter().enumerate() {
        state = engine.apply(&state, tags).map_err(|e| {
            Failure::new(format!("--after `{after}`: move {} (`{}`): {e}", index + 1, engine.format_move(tags)))
        })?;
    }
    let mover = engine.to_move(&state);
    if let Some(expected) = player {
        let number = player_number(automaton, expected)?;
        if mover != Mover::Player(number) {
            return Err(Failure::new(format!(
                "--player {expected}: it is not {expected}'s turn ({} is to move)",
                engine.mover_name(mover)
            )));
        }
    }

    let mut out = String::new();
    if let Some(observer) = observe {
        let number = player_number(automaton, observer)?;
        let observed = engine.observation(&history, number).map_err(runtime_failure)?;
        let _ = writeln!(out, "# observed by {observer}:");
        for step in observed {
            match step {
                Observed::Seen { mover: Mover::Keeper, tags } if tags.is_empty() => {}
                Observed::Seen { mover, tags } => {
                    let _ =
                        writeln!(out, "#   {}: {}", engine.mover_name(mover), move_text(&engine.format_move(&tags)));
                }
                Observed::Hidden { mover } => {
                    let _ = writeln!(out, "#   {}: (hidden)", engine.mover_name(mover));
                }
            }
        }
    }
    let legal = engine.moves(&state).map_err(runtime_failure)?;
    match mover {
        Mover::Terminal => {
            let scores: Vec<String> = engine
                .scores(&state)
                .iter()
                .zip(&automaton.players)
                .map(|(score, &p)| format!("{}={}", automaton.symbol_name(p), automaton.symbol_name(score.symbol)))
                .collect();
            let _ = writeln!(out, "# game over: {}", scores.join(" "));
        }
        Mover::Random => {
            let _ =
                writeln!(out, "# random to move: {} outcomes, each with probability 1/{}", legal.len(), legal.len());
        }
        _ => {
            let plural = if legal.len() == 1 { "" } else { "s" };
            let _ = writeln!(out, "# {} to move: {} legal move{plural}", engine.mover_name(mover), legal.len());
        }
    }
    for tags in &legal {
        let _ = writeln!(out, "{}", move_text(&engine.format_move(tags)));
    }
    write_output(None, &out)
}

fn move_text(text: &str) -> &str {
    if text.is_empty() {
        EMPTY_MOVE
    } else {
        text
    }
}
