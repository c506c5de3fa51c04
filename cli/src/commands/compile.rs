//! `regula compile FILE [-o OUT] [--no-opt | --passes a,b]`: any source format to canonical RG text.

use crate::failure::Failure;
use crate::source::{write_output, SourceFile};
use regula_compiler::optimize::{optimize, PassSet};
use regula_compiler::rg::ast::Game;
use std::path::Path;

/// The passes a command line asks for: all by default, none with `--no-opt`, or a list.
pub fn pass_set(no_opt: bool, passes: Option<&str>) -> Result<PassSet, Failure> {
    match (no_opt, passes) {
        (true, _) => Ok(PassSet::none()),
        (false, Some(list)) => PassSet::parse(list).map_err(Failure::new),
        (false, None) => Ok(PassSet::all()),
    }
}

/// The whole pipeline runs (parse, validate, lower, optimise), so only valid games are written.
pub fn compile(path: &Path, output: Option<&Path>, passes: PassSet) -> Result<(), Failure> {
    let source = SourceFile::read(path)?;
    let loaded = source.load()?;
    let game = optimized(&source, loaded.rg, &passes)?;
    write_output(output, &regula_compiler::rg::print(&game))
}

/// Runs the passes and re-validates the result: an optimiser that broke a game is a compiler
/// bug, reported as such rather than written out.
pub fn optimized(source: &SourceFile, game: Game, passes: &PassSet) -> Result<Game, Failure> {
    if passes.passes().next().is_none() {
        return Ok(game);
    }
    let (optimized, _) = optimize(&game, passes);
    let problems = regula_compiler::rg::check(&optimized);
    if problems.iter().any(|d| d.is_error()) {
        let text = regula_compiler::rg::print(&optimized);
        return Err(Failure::rendered(format!(
            "{}error: internal compiler error: optimising `{}` produced an invalid game (run with --no-opt to avoid it)",
            regula_compiler::diagnostics::render(&problems, "<optimised>", &text),
            source.name
        )));
    }
    Ok(optimized)
}
