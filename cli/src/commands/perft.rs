//! `regula perft FILE --depth D [--json] [--threads T]`: state counts at depths 0..=D.
//!
//! Text output: one `depth count` line per depth on standard output, the time on standard error.
//! JSON output: `{"file", "depth", "counts", "elapsed_seconds"}`.

use crate::engine::{load_engine, runtime_failure, thread_pool};
use crate::failure::Failure;
use crate::source::write_output;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

#[derive(Serialize)]
struct PerftJson<'a> {
    file: &'a str,
    depth: usize,
    counts: &'a [u64],
    elapsed_seconds: f64,
}

pub fn perft(path: &Path, depth: usize, json: bool, threads: usize) -> Result<(), Failure> {
    let engine = load_engine(path)?;
    let pool = thread_pool(threads)?;
    let started = Instant::now();
    let counts = pool.install(|| regula_runtime::perft::perft(&engine, depth)).map_err(runtime_failure)?;
    let elapsed_seconds = started.elapsed().as_secs_f64();
    if json {
        let file = path.display().to_string();
        let value = PerftJson { file: &file, depth, counts: &counts, elapsed_seconds };
        let text = serde_json::to_string_pretty(&value).map_err(Failure::new)?;
        write_output(None, &format!("{text}\n"))
    } else {
        let mut out = String::new();
        for (d, count) in counts.iter().enumerate() {
            let _ = writeln!(out, "{d} {count}");
        }
        write_output(None, &out)?;
        eprintln!("perft {depth}: {elapsed_seconds:.3} s");
        Ok(())
    }
}
