//! One module per command; [`run`] dispatches a parsed command line to it.

mod build;
mod check;
mod compile;
mod fmt;
mod moves;
mod perft;
mod play;
mod run;
mod stats;

use crate::cli::Command;
use crate::failure::Failure;

/// Runs one command.
pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Build { file, out, runtime } => build::build(&file, &out, runtime.as_deref()),
        Command::Check { file } => check::check(&file),
        Command::Fmt { file, check, output } => fmt::fmt(&file, check, output.as_deref()),
        Command::Compile { file, output, no_opt, passes, emit } => {
            compile::compile(&file, output.as_deref(), compile::pass_set(no_opt, passes.as_deref())?, emit)
        }
        Command::Stats { file, passes, list_passes } => {
            stats::stats(file.as_deref(), compile::pass_set(false, passes.as_deref())?, list_passes)
        }
        Command::Moves { file, after, player, observe } => {
            moves::moves(&file, &after, player.as_deref(), observe.as_deref())
        }
        Command::Perft { file, depth, json, threads, divide, engine, no_opt } => {
            perft::perft(&file, perft::PerftOptions { depth, json, threads, divide, engine, optimise: !no_opt })
        }
        Command::Run { file, playouts, seed, threads, json, no_timing, engine, no_opt } => {
            let timing = !no_timing;
            run::run(&file, run::RunOptions { playouts, seed, threads, json, timing, engine, optimise: !no_opt })
        }
        Command::Play {
            file,
            agents,
            games,
            threads,
            seed,
            simulations,
            exploration,
            json,
            no_timing,
            human,
            engine,
        } => play::play(
            &file,
            play::PlayOptions {
                agents,
                games,
                threads,
                seed,
                simulations,
                exploration,
                json,
                timing: !no_timing,
                human,
                engine,
            },
        ),
    }
}
