//! The `regula` command-line program: check, format, compile, list moves, perft and playouts.
//!
//! `main` only parses the command line and turns a command's outcome into an exit code:
//! 0 success, 1 any failure (diagnostics, runtime error, I/O, `fmt --check` differences),
//! 2 a command line clap rejects. Nothing here panics on bad input.

mod cli;
mod commands;
mod engine;
mod failure;
mod source;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            failure.report();
            ExitCode::FAILURE
        }
    }
}
