//! One module per command; [`run`] dispatches a parsed command line to it.

mod check;
mod compile;
mod fmt;
mod moves;
mod perft;
mod run;

use crate::cli::Command;
use crate::failure::Failure;

/// Runs one command.
pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Check { file } => check::check(&file),
        Command::Fmt { file, check, output } => fmt::fmt(&file, check, output.as_deref()),
        Command::Compile { file, output } => compile::compile(&file, output.as_deref()),
        Command::Moves { file, after, player, observe } => {
            moves::moves(&file, &after, player.as_deref(), observe.as_deref())
        }
        Command::Perft { file, depth, json, threads } => perft::perft(&file, depth, json, threads),
        Command::Run { file, playouts, seed, threads, json, no_timing } => {
            run::run(&file, run::RunOptions { playouts, seed, threads, json, timing: !no_timing })
        }
    }
}
