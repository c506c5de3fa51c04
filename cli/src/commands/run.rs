//! `regula run FILE --playouts N [--seed S] [--threads T] [--json] [--no-timing] [--no-opt]`:
//! random playouts (the fast engine runs the optimised automaton unless `--no-opt`).
//!
//! Reports speed, mean plies (real-player moves per playout), mean legal moves per real-player
//! decision, the distribution of final score vectors and, when every `Score` symbol is an integer,
//! each player's wins, draws and losses (by `regula play`'s rule, `arena::outcome`: a win is a top
//! score that someone else does not share, a draw is everyone tied) with the mean score. Everything but the timing fields depends only on the game, the seed and the count.

use crate::engine::{load_engine, load_fast_engine_with, runtime_failure, EngineChoice};
use crate::failure::Failure;
use crate::source::write_output;
use indicatif::{ProgressBar, ProgressStyle};
use regula_agents::arena::{self, outcome};
use regula_runtime::automaton::Automaton;
use regula_runtime::engine::ForwardModel;
use regula_runtime::playout::{run_playouts_with_progress, PlayoutConfig, PlayoutReport};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;

pub struct RunOptions {
    pub playouts: u64,
    pub seed: u64,
    pub threads: usize,
    pub json: bool,
    pub timing: bool,
    pub engine: EngineChoice,
    /// The fast engine runs the optimised automaton (`--no-opt` turns it off).
    pub optimise: bool,
}

/// The report as printed, in a stable field order.
#[derive(Serialize)]
struct RunSummary {
    file: String,
    playouts: u64,
    seed: u64,
    threads: usize,
    mean_plies: f64,
    mean_legal_moves: f64,
    mean_chance_moves: f64,
    /// One entry per distinct final score vector, most frequent first.
    outcomes: Vec<Outcome>,
    /// Per-player summaries; empty when some `Score` symbol is not an integer.
    players: Vec<PlayerSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timing: Option<Timing>,
}

#[derive(Serialize)]
struct Outcome {
    /// One entry per player, in `Player` order.
    scores: Vec<PlayerScore>,
    count: u64,
    percent: f64,
}

#[derive(Serialize)]
struct PlayerScore {
    player: String,
    score: String,
}

#[derive(Serialize)]
struct PlayerSummary {
    player: String,
    win_percent: f64,
    draw_percent: f64,
    loss_percent: f64,
    mean_score: f64,
}

#[derive(Serialize)]
struct Timing {
    elapsed_seconds: f64,
    playouts_per_second: f64,
}

pub fn run(path: &Path, options: RunOptions) -> Result<(), Failure> {
    if options.playouts == 0 {
        return Err(Failure::new("--playouts must be at least 1"));
    }
    let config =
        PlayoutConfig { count: options.playouts, seed: options.seed, threads: options.threads, ..Default::default() };
    let bar = (!options.json && std::io::stdout().is_terminal()).then(|| progress_bar(options.playouts));
    match options.engine {
        // Without a bar to draw, the fast engine's own playout loop (same choices, no callbacks).
        EngineChoice::Fast if bar.is_none() => {
            let engine = load_fast_engine_with(path, options.optimise)?;
            let report = engine.run_playouts(&config).map_err(runtime_failure)?;
            print_report(engine.automaton(), path, &options, &report)
        }
        EngineChoice::Fast => play(&load_fast_engine_with(path, options.optimise)?, path, &options, &config, bar),
        EngineChoice::Reference => play(&load_engine(path)?, path, &options, &config, bar),
    }
}

fn play<M: ForwardModel>(
    engine: &M,
    path: &Path,
    options: &RunOptions,
    config: &PlayoutConfig,
    bar: Option<ProgressBar>,
) -> Result<(), Failure> {
    // Redrawing on every playout would cost more than fast playouts themselves: about 200 steps.
    let step = (options.playouts / 200).max(1);
    let report = match &bar {
        Some(bar) => run_playouts_with_progress(engine, config, &|done, total| {
            if done % step == 0 || done == total {
                bar.set_position(done);
            }
        }),
        None => run_playouts_with_progress(engine, config, &|_, _| {}),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = report.map_err(runtime_failure)?;
    print_report(engine.automaton(), path, options, &report)
}

fn print_report(
    automaton: &Automaton,
    path: &Path,
    options: &RunOptions,
    report: &PlayoutReport,
) -> Result<(), Failure> {
    let summary = summarize(automaton, path, options, report);
    let text = if options.json {
        let mut text = serde_json::to_string_pretty(&summary).map_err(Failure::new)?;
        text.push('\n');
        text
    } else {
        render_text(&summary)
    };
    write_output(None, &text)
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} playouts ({per_sec}, {eta} left)") {
        bar.set_style(style);
    }
    bar
}

fn percent(count: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * count as f64 / total as f64
    }
}

fn summarize(automaton: &Automaton, path: &Path, options: &RunOptions, report: &PlayoutReport) -> RunSummary {
    let names: Vec<String> = automaton.players.iter().map(|&p| automaton.symbol_name(p).to_string()).collect();
    let total = report.playouts;
    let mut outcomes: Vec<Outcome> = report
        .score_distribution
        .iter()
        .map(|entry| Outcome {
            scores: names
                .iter()
                .zip(&entry.scores)
                .map(|(name, score)| PlayerScore {
                    player: name.clone(),
                    score: automaton.symbol_name(score.symbol).to_string(),
                })
                .collect(),
            count: entry.count,
            percent: percent(entry.count, total),
        })
        .collect();
    // Most frequent first; the runtime's order (by symbols) breaks ties, so this is deterministic.
    outcomes.sort_by_key(|o| std::cmp::Reverse(o.count));

    let numeric = automaton.scores.iter().all(|&s| automaton.symbol_name(s).parse::<i64>().is_ok());
    let players = if numeric { player_summaries(&names, report) } else { Vec::new() };
    RunSummary {
        file: path.display().to_string(),
        playouts: total,
        seed: options.seed,
        threads: options.threads,
        mean_plies: report.mean_plies,
        mean_legal_moves: report.mean_legal_moves,
        mean_chance_moves: if total == 0 { 0.0 } else { report.total_chance_moves as f64 / total as f64 },
        outcomes,
        players,
        timing: options.timing.then_some(Timing {
            elapsed_seconds: report.elapsed_seconds,
            playouts_per_second: report.playouts_per_second,
        }),
    }
}

fn player_summaries(names: &[String], report: &PlayoutReport) -> Vec<PlayerSummary> {
    let total = report.playouts;
    names
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let (mut wins, mut draws, mut losses, mut score_sum) = (0u64, 0u64, 0u64, 0i128);
            for entry in &report.score_distribution {
                let mine = entry.scores[p].value;
                match outcome(&entry.scores, p) {
                    arena::Outcome::Win => wins += entry.count,
                    arena::Outcome::Draw => draws += entry.count,
                    arena::Outcome::Loss => losses += entry.count,
                }
                score_sum += mine as i128 * entry.count as i128;
            }
            PlayerSummary {
                player: name.clone(),
                win_percent: percent(wins, total),
                draw_percent: percent(draws, total),
                loss_percent: percent(losses, total),
                mean_score: if total == 0 { 0.0 } else { score_sum as f64 / total as f64 },
            }
        })
        .collect()
}

fn render_text(summary: &RunSummary) -> String {
    let mut out = String::new();
    let threads = if summary.threads == 0 { "one per core".to_string() } else { summary.threads.to_string() };
    let _ = writeln!(out, "game: {}", summary.file);
    let _ = writeln!(out, "playouts: {} (seed {}, threads {threads})", summary.playouts, summary.seed);
    if let Some(timing) = &summary.timing {
        let _ = writeln!(out, "time: {:.3} s, {:.0} playouts/s", timing.elapsed_seconds, timing.playouts_per_second);
    }
    let _ = writeln!(out, "mean plies per playout: {:.3}", summary.mean_plies);
    let _ = writeln!(out, "mean legal moves per decision: {:.3}", summary.mean_legal_moves);
    if summary.mean_chance_moves > 0.0 {
        let _ = writeln!(out, "mean chance moves per playout: {:.3}", summary.mean_chance_moves);
    }
    let _ = writeln!(out, "final scores:");
    for outcome in &summary.outcomes {
        let scores: Vec<String> = outcome.scores.iter().map(|s| format!("{}={}", s.player, s.score)).collect();
        let _ = writeln!(out, "  {:<30} {:>10} {:>7.2} %", scores.join(" "), outcome.count, outcome.percent);
    }
    if !summary.players.is_empty() {
        let _ = writeln!(out, "per player:");
        for player in &summary.players {
            let _ = writeln!(
                out,
                "  {:<12} win {:>6.2} %  draw {:>6.2} %  loss {:>6.2} %  mean score {:.3}",
                player.player, player.win_percent, player.draw_percent, player.loss_percent, player.mean_score
            );
        }
    }
    out
}
