//! The command line, declared with clap's derive API (`regula --help` is generated from it).

use crate::engine::EngineChoice;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Regula: compile games to automata and run them as fast forward models.
#[derive(Debug, Parser)]
#[command(name = "regula", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a game file and report its errors and warnings (exit 1 on any error).
    Check {
        /// The game file (any source format Regula reads, chosen by extension).
        file: PathBuf,
    },
    /// Print a game file as canonical RG text.
    Fmt {
        file: PathBuf,
        /// Print nothing; exit 1 if the file is not already in canonical form.
        #[arg(long)]
        check: bool,
        /// Write the text to this file instead of standard output.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Compile a game file of any source format to RG text, optimised unless told otherwise.
    Compile {
        file: PathBuf,
        /// Write the RG text to this file instead of standard output.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Print the game as lowered, with no optimisation pass.
        #[arg(long, conflicts_with = "passes")]
        no_opt: bool,
        /// Run only these passes (comma-separated names; `regula stats --list-passes` lists them).
        #[arg(long, value_name = "PASSES")]
        passes: Option<String>,
        /// What to print: the RG automaton, or the high-level program (`.hrg` and `.blocks` input).
        #[arg(long, value_enum, default_value = "rg")]
        emit: Emit,
    },
    /// Generate a compiled forward model: a Rust crate for this one game (see spec/codegen.md).
    ///
    /// Then `cargo run --release --manifest-path OUT/Cargo.toml -- playouts 100000` (or `perft 5`).
    Build {
        file: PathBuf,
        /// The directory to write the crate into (created if needed).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Where the generated crate finds regula-runtime (default: this checkout's `runtime/`).
        #[arg(long, value_name = "PATH")]
        runtime: Option<PathBuf>,
    },
    /// Print a game's size (nodes, edges by kind, variables, state size) before and after optimisation.
    Stats {
        /// The game file (required unless --list-passes).
        #[arg(required_unless_present = "list_passes")]
        file: Option<PathBuf>,
        /// Measure after these passes instead of all of them.
        #[arg(long, value_name = "PASSES")]
        passes: Option<String>,
        /// List the optimisation passes and exit.
        #[arg(long)]
        list_passes: bool,
    },
    /// List the legal moves of the player to move, one a line.
    Moves {
        file: PathBuf,
        /// Play this history first: real-player and random moves as `/m1/m2/`, tags separated by
        /// spaces (keeper moves are implicit).
        #[arg(long, value_name = "PATH", default_value = "/")]
        after: String,
        /// Fail unless this player is the one to move.
        #[arg(long, value_name = "PLAYER")]
        player: Option<String>,
        /// Also print what this player has observed of the history (hidden moves without tags).
        #[arg(long, value_name = "PLAYER")]
        observe: Option<String>,
    },
    /// Count the states at each depth from the start (perft).
    Perft {
        file: PathBuf,
        /// The deepest depth counted.
        #[arg(long, short)]
        depth: usize,
        /// Print a JSON object instead of `depth count` lines.
        #[arg(long)]
        json: bool,
        /// Worker threads (the first ply is split among them); 0 = one per core.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Also count each first move's subtree at the deepest depth (`move: count` lines).
        #[arg(long)]
        divide: bool,
        /// The engine that counts.
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
        /// Give the fast engine the automaton as compiled, without the optimisation passes.
        #[arg(long)]
        no_opt: bool,
    },
    /// Play uniform random playouts and report speed, lengths and final scores.
    Run {
        file: PathBuf,
        /// How many playouts.
        #[arg(long, short = 'n', default_value_t = 1000)]
        playouts: u64,
        /// The random seed; the same seed gives the same results with any thread count.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads; 0 = one per core.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Print a JSON object.
        #[arg(long)]
        json: bool,
        /// Leave out the timing figures, so the output depends only on the game and the seed.
        #[arg(long)]
        no_timing: bool,
        /// The engine that plays (both make exactly the same random choices).
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
        /// Give the fast engine the automaton as compiled, without the optimisation passes.
        #[arg(long)]
        no_opt: bool,
    },
    /// Play matches between agents (win/draw/loss rates with 95% intervals), or play against them.
    Play {
        file: PathBuf,
        /// Agents, comma-separated, one per player (seats rotate between games): random, flat,
        /// uct, ismcts, each optionally with its own simulation count (`uct:200`). With --human,
        /// the agents for the other seats (one name fills them all).
        #[arg(long, default_value = "uct,random")]
        agents: String,
        /// How many games (default: 100, or 1 with --human).
        #[arg(long, short = 'n')]
        games: Option<u64>,
        /// Worker threads, games played in parallel; 0 = one per core.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The random seed; the same seed gives the same games with any thread count.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Simulations per move of the search agents (unless an agent names its own).
        #[arg(long, default_value_t = regula_agents::DEFAULT_SIMULATIONS)]
        simulations: u32,
        /// The UCB exploration constant of uct and ismcts (returns are in [0, 1]).
        #[arg(long, default_value_t = regula_agents::DEFAULT_EXPLORATION)]
        exploration: f64,
        /// Print a JSON object.
        #[arg(long)]
        json: bool,
        /// Leave out the timing figures, so the output depends only on the game and the seed.
        #[arg(long)]
        no_timing: bool,
        /// Play yourself, as this player (name or number from 0), reading moves from standard input.
        #[arg(long, value_name = "PLAYER", conflicts_with = "json")]
        human: Option<String>,
        /// The engine the agents search with.
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
    },
}

/// The output of `regula compile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// RG text (optimised unless told otherwise).
    Rg,
    /// The high-level program: an `.hrg` file as read, or what a `.blocks` file translates to.
    Hrg,
}
