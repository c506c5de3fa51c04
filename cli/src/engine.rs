//! Building the runtime's engines from a game file, and helpers shared by the commands
//! that play games.

use crate::failure::Failure;
use crate::source::SourceFile;
use regula_compiler::optimize::{optimize, PassSet};
use regula_compiler::rg::compile_game;
use regula_runtime::automaton::Automaton;
use regula_runtime::engine::EngineError;
use regula_runtime::fast::FastEngine;
use regula_runtime::reference::ReferenceEngine;
use std::path::Path;

/// Which engine runs a command's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineChoice {
    /// The fast interpreter (`regula_runtime::fast`), checked against the reference on the corpus.
    #[default]
    Fast,
    /// The reference engine, the yardstick every other engine is tested against.
    Reference,
}

/// Reads and compiles a game file to runtime tables.
pub fn load_automaton(path: &Path) -> Result<Automaton, Failure> {
    Ok(SourceFile::read(path)?.load()?.automaton)
}

/// Reads, compiles and loads a game into the reference engine.
pub fn load_engine(path: &Path) -> Result<ReferenceEngine, Failure> {
    ReferenceEngine::new(load_automaton(path)?).map_err(runtime_failure)
}

/// Reads, compiles and loads a game into the fast engine.
pub fn load_fast_engine(path: &Path) -> Result<FastEngine, Failure> {
    FastEngine::new(load_automaton(path)?).map_err(runtime_failure)
}

/// Reads and compiles a game, runs the optimisation passes of [`PassSet::for_fast_engine`] on it when
/// `optimise` is set (the default of `regula run` and `regula perft`: the same moves, successors,
/// scores and perft counts, found with fewer instructions), and loads it into the fast engine.
pub fn load_fast_engine_with(path: &Path, optimise: bool) -> Result<FastEngine, Failure> {
    if !optimise {
        return load_fast_engine(path);
    }
    let source = SourceFile::read(path)?;
    let loaded = source.load()?;
    let (optimised, _) = optimize(&loaded.rg, &PassSet::for_fast_engine());
    let automaton = match compile_game(optimised) {
        Ok(recompiled) => recompiled.automaton,
        // The passes keep a valid game valid; should one not, say so and run the game as written.
        Err(diagnostics) => {
            eprintln!(
                "warning: the optimised game did not compile ({} diagnostics); running it unoptimised",
                diagnostics.len()
            );
            loaded.automaton
        }
    };
    FastEngine::new(automaton).map_err(runtime_failure)
}

/// A runtime error as a failure.
pub fn runtime_failure(error: EngineError) -> Failure {
    Failure::new(format!("runtime error: {error}"))
}

/// The number of a player named on the command line.
pub fn player_number(automaton: &Automaton, name: &str) -> Result<usize, Failure> {
    automaton.players.iter().position(|&p| automaton.symbol_name(p) == name).ok_or_else(|| {
        let names: Vec<&str> = automaton.players.iter().map(|&p| automaton.symbol_name(p)).collect();
        Failure::new(format!("`{name}` is not a player of this game (players: {})", names.join(", ")))
    })
}

/// A rayon pool with `threads` workers (0 = one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::new(format!("cannot start {threads} threads: {e}")))
}
