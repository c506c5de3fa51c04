//! `regula compile FILE [-o OUT] [--no-opt | --passes a,b] [--emit rg|hrg]`: any source format to
//! canonical RG text, or `.hrg` / `.blocks` input to the high-level program it is.

use crate::cli::Emit;
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
pub fn compile(path: &Path, output: Option<&Path>, passes: PassSet, emit: Emit) -> Result<(), Failure> {
    let source = SourceFile::read(path)?;
    let loaded = source.load()?;
    if emit == Emit::Hrg {
        return write_output(output, &high_level(&source)?);
    }
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

/// The high-level program of a file that compiled: `.hrg` printed back, `.blocks` translated.
fn high_level(source: &SourceFile) -> Result<String, Failure> {
    use regula_compiler::SourceFormat;
    let program = match SourceFormat::from_file_name(&source.name) {
        Some(SourceFormat::Hrg) => regula_compiler::hrg::parse(&source.text),
        Some(SourceFormat::Blocks) => {
            let translated = regula_compiler::blocks::translate(&source.text);
            return translated.map(|t| t.hrg_text()).map_err(|diagnostics| source.diagnostics_failure(&diagnostics));
        }
        _ => {
            return Err(Failure::new(format!(
                "`{}` has no high-level form; `--emit hrg` reads .hrg and .blocks files",
                source.name
            )))
        }
    };
    let program = program.map_err(|diagnostics| source.diagnostics_failure(&diagnostics))?;
    Ok(regula_compiler::hrg::print::print(&program))
}
