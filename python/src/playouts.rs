//! `Game.playouts`: bulk uniform random playouts with the GIL released.
//!
//! The summary comes from the fast engine's own playout loop (`FastEngine::run_playouts`, the one
//! `regula run` uses), so Python pays nothing per playout. Per-playout arrays come from the same
//! engine's `random_playout` with the same per-index generators, so they describe exactly the
//! playouts the summary counts.

use crate::errors::engine_error;
use crate::game::GameData;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use regula_runtime::automaton::{Automaton, SymbolId};
use regula_runtime::engine::EngineError;
use regula_runtime::playout::{PlayoutConfig, PlayoutReport, ScoreCount, Xoshiro256};
use std::time::Instant;

pub struct Request {
    pub count: u64,
    pub threads: usize,
    pub seed: u64,
    pub max_moves: u64,
    pub arrays: bool,
}

/// One playout's figures, for the arrays.
struct Row {
    goals: Vec<SymbolId>,
    plies: u64,
    chance_moves: u64,
    legal_moves: u64,
}

/// A score symbol read as a number: the integer it spells, else its index in `Score` (as the
/// runtime's `ForwardModel::scores` reads it).
pub fn score_value(automaton: &Automaton, symbol: SymbolId) -> i64 {
    automaton
        .symbol_name(symbol)
        .parse::<i64>()
        .ok()
        .unwrap_or_else(|| automaton.scores.iter().position(|&s| s == symbol).map_or(-1, |i| i as i64))
}

pub fn run<'py>(py: Python<'py>, data: &GameData, request: Request) -> PyResult<Bound<'py, PyDict>> {
    let config = PlayoutConfig {
        count: request.count,
        seed: request.seed,
        threads: request.threads,
        max_moves: request.max_moves,
    };
    let (report, rows) = if request.arrays {
        let (report, rows) = py.detach(|| playout_rows(data, &config)).map_err(engine_error)?;
        (report, Some(rows))
    } else {
        (py.detach(|| data.engine().run_playouts(&config)).map_err(engine_error)?, None)
    };
    let summary = summary_dict(py, data, &config, &report)?;
    if let Some(rows) = rows {
        let players = data.automaton().players.len();
        let automaton = data.automaton();
        let scores: Vec<i64> = rows.iter().flat_map(|r| r.goals.iter().map(|&g| score_value(automaton, g))).collect();
        let scores = numpy::ndarray::Array2::from_shape_vec((rows.len(), players), scores)
            .expect("one score per player per playout");
        summary.set_item("scores", PyArray2::from_owned_array(py, scores))?;
        summary.set_item("plies", PyArray1::from_iter(py, rows.iter().map(|r| r.plies as i64)))?;
        summary.set_item("chance_moves", PyArray1::from_iter(py, rows.iter().map(|r| r.chance_moves as i64)))?;
    }
    Ok(summary)
}

/// Every playout's row, in index order, with the report they add up to.
fn playout_rows(data: &GameData, config: &PlayoutConfig) -> Result<(PlayoutReport, Vec<Row>), EngineError> {
    let engine = data.engine();
    let threads =
        if config.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { config.threads }
            .max(1) as u64;
    let started = Instant::now();
    // Thread t plays the indices t, t + threads, ...: the same split as the engine's own loop.
    let run_share = |first: u64| -> Result<Vec<(u64, Row)>, (u64, EngineError)> {
        let mut scratch = engine.scratch();
        let mut rows = Vec::new();
        let mut index = first;
        while index < config.count {
            let mut rng = Xoshiro256::for_playout(config.seed, index);
            let outcome =
                engine.random_playout(&mut rng, config.max_moves, index, &mut scratch).map_err(|e| (index, e))?;
            rows.push((
                index,
                Row {
                    goals: outcome.goals,
                    plies: outcome.plies,
                    chance_moves: outcome.chance_moves,
                    legal_moves: outcome.legal_moves,
                },
            ));
            index += threads;
        }
        Ok(rows)
    };
    let shares: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || run_share(t))).collect();
        handles.into_iter().map(|h| h.join().expect("playout worker panicked")).collect()
    });
    let elapsed_seconds = started.elapsed().as_secs_f64();
    let mut indexed = Vec::with_capacity(config.count as usize);
    let mut first_error: Option<(u64, EngineError)> = None;
    for share in shares {
        match share {
            Ok(rows) => indexed.extend(rows),
            Err(e) => {
                if first_error.as_ref().is_none_or(|f| e.0 < f.0) {
                    first_error = Some(e);
                }
            }
        }
    }
    if let Some((_, error)) = first_error {
        return Err(error);
    }
    indexed.sort_by_key(|(index, _)| *index);
    let rows: Vec<Row> = indexed.into_iter().map(|(_, row)| row).collect();

    let automaton = data.automaton();
    let mut tally = std::collections::BTreeMap::<Vec<SymbolId>, u64>::new();
    let (mut plies, mut chance, mut legal) = (0, 0, 0);
    for row in &rows {
        plies += row.plies;
        chance += row.chance_moves;
        legal += row.legal_moves;
        *tally.entry(row.goals.clone()).or_insert(0) += 1;
    }
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let score_distribution = tally
        .into_iter()
        .map(|(goals, count)| ScoreCount {
            scores: goals
                .iter()
                .map(|&symbol| regula_runtime::engine::Score { symbol, value: score_value(automaton, symbol) })
                .collect(),
            count,
        })
        .collect();
    let report = PlayoutReport {
        playouts: config.count,
        elapsed_seconds,
        playouts_per_second: if elapsed_seconds > 0.0 { config.count as f64 / elapsed_seconds } else { 0.0 },
        mean_plies: ratio(plies, config.count),
        mean_legal_moves: ratio(legal, plies),
        total_plies: plies,
        total_chance_moves: chance,
        score_distribution,
    };
    Ok((report, rows))
}

fn summary_dict<'py>(
    py: Python<'py>,
    data: &GameData,
    config: &PlayoutConfig,
    report: &PlayoutReport,
) -> PyResult<Bound<'py, PyDict>> {
    let automaton = data.automaton();
    let names = data.player_names();
    let dict = PyDict::new(py);
    dict.set_item("playouts", report.playouts)?;
    dict.set_item("seed", config.seed)?;
    dict.set_item("mean_plies", report.mean_plies)?;
    dict.set_item("mean_legal_moves", report.mean_legal_moves)?;
    let per_playout = |total: u64| if report.playouts == 0 { 0.0 } else { total as f64 / report.playouts as f64 };
    dict.set_item("mean_chance_moves", per_playout(report.total_chance_moves))?;
    dict.set_item("total_plies", report.total_plies)?;
    dict.set_item("total_chance_moves", report.total_chance_moves)?;
    let mut entries: Vec<&ScoreCount> = report.score_distribution.iter().collect();
    // Most frequent first; the runtime's order (by symbols) breaks ties, as `regula run` prints.
    entries.sort_by_key(|e| std::cmp::Reverse(e.count));
    let outcomes = PyList::empty(py);
    for entry in entries {
        let scores = PyDict::new(py);
        for (name, score) in names.iter().zip(&entry.scores) {
            scores.set_item(name, automaton.symbol_name(score.symbol))?;
        }
        let outcome = PyDict::new(py);
        outcome.set_item("scores", scores)?;
        outcome.set_item("count", entry.count)?;
        outcomes.append(outcome)?;
    }
    dict.set_item("outcomes", outcomes)?;
    let numeric = automaton.scores.iter().all(|&s| automaton.symbol_name(s).parse::<i64>().is_ok());
    if numeric && report.playouts > 0 {
        let mean_scores = PyDict::new(py);
        for (p, name) in names.iter().enumerate() {
            let sum: i128 = report.score_distribution.iter().map(|e| e.scores[p].value as i128 * e.count as i128).sum();
            mean_scores.set_item(name, sum as f64 / report.playouts as f64)?;
        }
        dict.set_item("mean_scores", mean_scores)?;
    }
    dict.set_item("elapsed_seconds", report.elapsed_seconds)?;
    dict.set_item("playouts_per_second", report.playouts_per_second)?;
    Ok(dict)
}
