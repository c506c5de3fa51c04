//! The compiled column of the benchmarks: the `regula-compiled` model of a corpus game (generated
//! Rust, spec/codegen.md) measured like the interpreters, its perft checked against `perft.toml`.

use regula_compiled::{games, Visitor};
use regula_runtime::compiled::{self, CompiledGame};
use regula_runtime::engine::EngineError;
use regula_runtime::playout::{PlayoutConfig, PlayoutReport};
use std::time::Instant;

/// The compiled model's figures on one game.
#[derive(Clone, Debug, Default)]
pub struct CompiledFigures {
    pub playouts_single: f64,
    pub playouts_all: f64,
    pub perft_nodes_per_second: f64,
}

/// Playouts per second, measured over about `seconds` (the count calibrated from short runs).
pub fn playout_rate(
    seconds: f64,
    threads: usize,
    seed: u64,
    run: &dyn Fn(&PlayoutConfig) -> Result<PlayoutReport, EngineError>,
) -> Result<f64, EngineError> {
    let mut count = threads as u64;
    loop {
        let report = run(&PlayoutConfig { count, seed, threads, ..Default::default() })?;
        if report.elapsed_seconds >= seconds / 10.0 || count >= 1 << 30 {
            let rate = count as f64 / report.elapsed_seconds.max(1e-9);
            let count = ((rate * seconds) as u64).max(threads as u64);
            return Ok(
                run(&PlayoutConfig { count, seed: seed + 1, threads, ..Default::default() })?.playouts_per_second
            );
        }
        count *= 2;
    }
}

struct Measure<'a> {
    seconds: f64,
    threads: usize,
    seed: u64,
    expected: &'a [u64],
}

impl Visitor for Measure<'_> {
    type Output = Result<CompiledFigures, String>;

    fn visit<G: CompiledGame>(&mut self, name: &str) -> Self::Output {
        let depth = self.expected.len().saturating_sub(1);
        let started = Instant::now();
        let counts = compiled::perft::<G>(depth).map_err(|e| format!("{name}: compiled perft: {e}"))?;
        let perft_seconds = started.elapsed().as_secs_f64();
        if counts != self.expected {
            return Err(format!("{name}: compiled perft({depth}) = {counts:?}, expected {:?}", self.expected));
        }
        let run = |config: &PlayoutConfig| compiled::run_playouts::<G>(config);
        let error = |e: EngineError| format!("{name}: {e}");
        Ok(CompiledFigures {
            playouts_single: playout_rate(self.seconds, 1, self.seed, &run).map_err(error)?,
            playouts_all: playout_rate(self.seconds, self.threads, self.seed, &run).map_err(error)?,
            perft_nodes_per_second: counts.iter().sum::<u64>() as f64 / perft_seconds.max(1e-9),
        })
    }
}

/// Measures the compiled model of corpus game `name` (`folder/file`); `expected` are the perft
/// counts to check (depth 0 first). `None` when the game has no compiled model.
pub fn measure(
    name: &str,
    seconds: f64,
    threads: usize,
    seed: u64,
    expected: &[u64],
) -> Option<Result<CompiledFigures, String>> {
    games::visit(name, &mut Measure { seconds, threads, seed, expected })
}

struct Fixed(u64);

impl Visitor for Fixed {
    type Output = Result<PlayoutReport, EngineError>;

    fn visit<G: CompiledGame>(&mut self, _name: &str) -> Self::Output {
        compiled::run_playouts::<G>(&PlayoutConfig { count: self.0, seed: 3, threads: 1, ..Default::default() })
    }
}

/// Exactly `count` single-thread playouts of the compiled model (for instruction counts).
pub fn fixed_playouts(name: &str, count: u64) -> Option<Result<PlayoutReport, EngineError>> {
    games::visit(name, &mut Fixed(count))
}
