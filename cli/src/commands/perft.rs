//! `regula perft FILE --depth D [--json] [--threads T] [--divide] [--no-opt]`: state counts at
//! depths 0..=D (the fast engine counts on the optimised automaton unless `--no-opt`).
//!
//! Text output: with `--divide`, first one `move: count` line per first move (the count of its
//! subtree at depth D); then one `depth count` line per depth on standard output; the time on
//! standard error. JSON output: `{"file", "depth", "counts", "divide"?, "elapsed_seconds"}`.

use crate::engine::{load_engine, load_fast_engine_with, runtime_failure, thread_pool, EngineChoice};
use crate::failure::Failure;
use crate::source::write_output;
use regula_runtime::engine::ForwardModel;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

pub struct PerftOptions {
    pub depth: usize,
    pub json: bool,
    pub threads: usize,
    pub divide: bool,
    pub engine: EngineChoice,
    /// The fast engine counts on the optimised automaton (`--no-opt` turns it off).
    pub optimise: bool,
}

#[derive(Serialize)]
struct PerftJson<'a> {
    file: &'a str,
    depth: usize,
    counts: &'a [u64],
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideEntry>>,
    elapsed_seconds: f64,
}

#[derive(Serialize)]
struct DivideEntry {
    #[serde(rename = "move")]
    name: String,
    count: u64,
}

pub fn perft(path: &Path, options: PerftOptions) -> Result<(), Failure> {
    match options.engine {
        EngineChoice::Fast => {
            let engine = load_fast_engine_with(path, options.optimise)?;
            // One thread and no split: the fast engine's own perft searches into reusable buffers.
            let own = |depth| engine.perft(depth);
            let single = options.threads == 1 && !options.divide;
            count(&engine, path, &options, single.then_some(&own as &dyn Fn(usize) -> _))
        }
        EngineChoice::Reference => count(&load_engine(path)?, path, &options, None),
    }
}

type OwnPerft<'a> = &'a dyn Fn(usize) -> Result<Vec<u64>, regula_runtime::engine::EngineError>;

fn count<M: ForwardModel>(
    engine: &M,
    path: &Path,
    options: &PerftOptions,
    own_perft: Option<OwnPerft<'_>>,
) -> Result<(), Failure> {
    let pool = thread_pool(options.threads)?;
    let depth = options.depth;
    let started = Instant::now();
    let (counts, divide) = if options.divide {
        let split = pool.install(|| regula_runtime::perft::perft_divide(engine, depth)).map_err(runtime_failure)?;
        // The totals are the subtrees' sums (`sub[i]` is depth i + 1), so one search gives both.
        let mut counts = vec![0; depth + 1];
        counts[0] = 1;
        let mut entries = Vec::with_capacity(split.len());
        for (tags, sub) in split {
            for (total, count) in counts[1..].iter_mut().zip(&sub) {
                *total += count;
            }
            let name = engine.format_move(&tags);
            entries.push(DivideEntry {
                name: if name.is_empty() { super::moves::EMPTY_MOVE.to_string() } else { name },
                count: sub.get(depth.saturating_sub(1)).copied().unwrap_or(0),
            });
        }
        (counts, Some(entries))
    } else if let Some(own_perft) = own_perft {
        (own_perft(depth).map_err(runtime_failure)?, None)
    } else {
        (pool.install(|| regula_runtime::perft::perft(engine, depth)).map_err(runtime_failure)?, None)
    };
    let elapsed_seconds = started.elapsed().as_secs_f64();
    if options.json {
        let file = path.display().to_string();
        let value = PerftJson { file: &file, depth, counts: &counts, divide, elapsed_seconds };
        let text = serde_json::to_string_pretty(&value).map_err(Failure::new)?;
        write_output(None, &format!("{text}\n"))
    } else {
        let mut out = String::new();
        for entry in divide.iter().flatten() {
            let _ = writeln!(out, "{}: {}", entry.name, entry.count);
        }
        for (d, count) in counts.iter().enumerate() {
            let _ = writeln!(out, "{d} {count}");
        }
        write_output(None, &out)?;
        eprintln!("perft {depth}: {elapsed_seconds:.3} s");
        Ok(())
    }
}
