//! `regula-bench`: random playouts per second (one thread and all threads) and perft nodes per
//! second of the reference and fast engines on every corpus game, median of several runs, each
//! perft run checked against `perft.toml`. Writes `target/bench/results.{md,json}`.
//!
//! The reference engine runs each game as compiled (the yardstick); the fast engine runs it after
//! every optimisation pass, as `regula run` does by default, and its single-thread playouts are
//! also measured on the unoptimised automaton (`fast no-opt`). Issue #4's single-thread targets
//! are listed beside the games they name.
//!
//! Usage: `regula-bench [--quick] [--runs N] [--seconds S] [--game FILTER] [--no-opt]
//! [--fixed ENGINE N [--opt]]` (`--help` lists them)
//! (`cargo xtask bench` builds it in release mode and passes its arguments on).
//! Defaults: 3 runs, about 0.5 s per measurement (the whole corpus in well under 15 minutes).
//! `REGULA_BENCH_QUICK=1` is the same as `--quick` (one run of ~0.2 s per measurement).

use regula_benches::corpus::{load_corpus_optimised, load_corpus_with, workspace_root, CorpusGame};
use regula_runtime::engine::EngineError;
use regula_runtime::fast::FastEngine;
use regula_runtime::perft::perft_sequential;
use regula_runtime::playout::{run_playouts, PlayoutConfig, PlayoutReport};
use regula_runtime::reference::ReferenceEngine;
use std::process::ExitCode;
use std::time::Instant;

struct Options {
    runs: usize,
    seconds: f64,
    filter: Option<String>,
    /// `--fixed ENGINE N`: only run N single-thread playouts of one engine (for `perf stat`).
    fixed: Option<(String, u64)>,
    /// `--opt` (with `--fixed`): run every optimisation pass on each game before measuring.
    optimise: bool,
    /// `--no-opt`: the fast engine runs the games as compiled too (no optimised column).
    no_opt: bool,
}

/// The text `--help` prints: every option [`parse_options`] takes.
const USAGE: &str = "\
usage: regula-bench [OPTIONS]

Random playouts per second (one thread and all threads) and perft nodes per second of the
reference, fast and compiled engines on every corpus game; writes target/bench/results.{md,json}.

options:
  --quick             one run of about 0.2 s per measurement (also REGULA_BENCH_QUICK=1)
  --runs N            runs per measurement, the median is reported (default 3)
  --seconds S         seconds per measurement (default 0.5)
  --game FILTER       only the corpus games whose name contains FILTER
  --no-opt            the fast engine runs the games as compiled (no optimised column)
  --fixed ENGINE N    only run N single-thread playouts of one engine (for `perf stat`)
  --opt               with --fixed: run every optimisation pass on each game first
  -h, --help          print this text and exit
";

/// What the command line asks for.
enum Command {
    Run(Options),
    Help,
}

/// Reads the options from `args` (the arguments after the program name); `quick` is the
/// `REGULA_BENCH_QUICK` setting, which `--runs` and `--seconds` override.
fn parse_options(args: impl IntoIterator<Item = String>, quick: bool) -> Result<Command, String> {
    let mut options = Options { runs: 3, seconds: 0.5, filter: None, fixed: None, optimise: false, no_opt: false };
    if quick {
        (options.runs, options.seconds) = (1, 0.2);
    }
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--quick" => (options.runs, options.seconds) = (1, 0.2),
            "--no-opt" => options.no_opt = true,
            "--runs" => options.runs = value("--runs")?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--seconds" => options.seconds = value("--seconds")?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--opt" => options.optimise = true,
            "--game" => options.filter = Some(value("--game")?),
            "--fixed" => {
                let engine = value("--fixed")?;
                let count = value("--fixed")?.parse().map_err(|e| format!("--fixed: {e}"))?;
                options.fixed = Some((engine, count));
            }
            other => return Err(format!("unknown argument `{other}` (--help lists the options)")),
        }
    }
    options.runs = options.runs.max(1);
    Ok(Command::Run(options))
}

/// One engine's figures on one game (medians).
#[derive(Default, Clone)]
struct Figures {
    playouts_single: f64,
    playouts_all: f64,
    perft_nodes_per_second: f64,
}

struct Row {
    game: String,
    perft_depth: usize,
    perft_nodes: u64,
    threads: usize,
    reference: Figures,
    fast: Figures,
    /// Single-thread playouts/s of the fast engine on the unoptimised automaton (when `fast`
    /// ran the optimised one).
    fast_unoptimised: Option<f64>,
    /// The generated model of `regula-compiled` (`None`: the game has none).
    compiled: Option<Figures>,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// Playouts per second, measured over about `seconds` (the count is calibrated from a short run).
fn playout_rate(
    seconds: f64,
    threads: usize,
    run: &dyn Fn(&PlayoutConfig) -> Result<PlayoutReport, EngineError>,
    seed: u64,
) -> Result<f64, EngineError> {
    let mut count = threads as u64;
    // Calibrate: double the count until a batch takes a tenth of the budget.
    loop {
        let report = run(&PlayoutConfig { count, seed, threads, ..Default::default() })?;
        if report.elapsed_seconds >= seconds / 10.0 || count >= 1 << 30 {
            let rate = count as f64 / report.elapsed_seconds.max(1e-9);
            let count = ((rate * seconds) as u64).max(threads as u64);
            let report = run(&PlayoutConfig { count, seed: seed + 1, threads, ..Default::default() })?;
            return Ok(report.playouts_per_second);
        }
        count *= 2;
    }
}

/// Issue #4's single-thread playout targets for the fast engine (a quarter of the compiled C++
/// of Regular Boardgames on the project's 2-core VM).
fn target(game: &str) -> Option<f64> {
    let folder = game.split('/').next().unwrap_or(game);
    match folder {
        "tictactoe" => Some(500_000.0),
        "connect4" => Some(160_000.0),
        "breakthrough" => Some(5_700.0),
        "reversi" => Some(2_750.0),
        "chess" => Some(170.0),
        _ => None,
    }
}

/// Issue #5's single-thread playout targets for compiled models: twice the compiled C++ of Regular
/// Boardgames on the project's 2-core VM (the issue's own rounded figures where it names them).
fn compiled_target(game: &str) -> Option<f64> {
    let folder = game.split('/').next().unwrap_or(game);
    let boardgames = match folder {
        "tictactoe" => 1_950_000.0,
        "connect4" => return Some(1_300_000.0),
        "breakthrough" => return Some(45_000.0),
        "reversi" => 11_000.0,
        "draughts" => 38_200.0,
        "chess" => return Some(1_400.0),
        "amazons" => 2_070.0,
        "hex" => 6_360.0,
        "pentago" => 12_600.0,
        "gomoku" => 8_700.0,
        _ => return None,
    };
    Some(2.0 * boardgames)
}

/// `goal (share %)`, or `-` for a game without a target.
fn against_target(measured: f64, goal: Option<f64>) -> String {
    match goal {
        Some(goal) => format!("{goal:.0} ({:.0} %)", 100.0 * measured / goal),
        None => "-".to_string(),
    }
}

fn measure_game(game: &CorpusGame, options: &Options, threads: usize) -> Result<Row, String> {
    let reference = ReferenceEngine::new(game.automaton.clone()).map_err(|e| e.to_string())?;
    let fast_automaton = game.optimised.as_ref().unwrap_or(&game.automaton);
    let fast = FastEngine::new(fast_automaton.clone()).map_err(|e| e.to_string())?;
    let unoptimised = match &game.optimised {
        Some(_) => Some(FastEngine::new(game.automaton.clone()).map_err(|e| e.to_string())?),
        None => None,
    };
    eprintln!("  fast engine: {}", fast.summary());
    // The deepest listed depth whose reference perft takes about a fifth of the budget, never
    // one predicted (from the time per node so far) to take more than the whole budget.
    let mut depth = 0;
    let mut seconds_per_node: Option<f64> = None;
    while depth + 1 < game.expected.len() {
        let nodes: u64 = game.expected[..depth + 2].iter().sum();
        if seconds_per_node.is_some_and(|per_node| per_node * nodes as f64 > options.seconds) {
            break;
        }
        let started = Instant::now();
        perft_sequential(&reference, depth + 1).map_err(|e| format!("{}: {e}", game.name))?;
        depth += 1;
        let elapsed = started.elapsed().as_secs_f64();
        seconds_per_node = Some(elapsed / nodes.max(1) as f64);
        if elapsed > options.seconds / 5.0 {
            break;
        }
    }
    let expected: Vec<u64> = game.expected.iter().take(depth + 1).copied().collect();
    let nodes: u64 = expected.iter().sum();
    let error = |e: EngineError| format!("{}: {e}", game.name);

    let mut reference_runs: Vec<Figures> = Vec::new();
    let mut fast_runs: Vec<Figures> = Vec::new();
    let mut compiled_runs: Vec<Figures> = Vec::new();
    let mut unoptimised_runs: Vec<f64> = Vec::new();
    for run in 0..options.runs {
        let seed = run as u64 * 1_000_003;
        for is_fast in [false, true] {
            let started = Instant::now();
            let counts =
                if is_fast { fast.perft(depth) } else { perft_sequential(&reference, depth) }.map_err(error)?;
            let perft_seconds = started.elapsed().as_secs_f64();
            if counts != expected {
                return Err(format!(
                    "{}: {} engine perft({depth}) = {counts:?}, expected {expected:?}",
                    game.name,
                    if is_fast { "fast" } else { "reference" }
                ));
            }
            let figures = if is_fast {
                let runner = |config: &PlayoutConfig| fast.run_playouts(config);
                Figures {
                    playouts_single: playout_rate(options.seconds, 1, &runner, seed).map_err(error)?,
                    playouts_all: playout_rate(options.seconds, threads, &runner, seed).map_err(error)?,
                    perft_nodes_per_second: nodes as f64 / perft_seconds.max(1e-9),
                }
            } else {
                let runner = |config: &PlayoutConfig| run_playouts(&reference, config);
                Figures {
                    playouts_single: playout_rate(options.seconds, 1, &runner, seed).map_err(error)?,
                    playouts_all: playout_rate(options.seconds, threads, &runner, seed).map_err(error)?,
                    perft_nodes_per_second: nodes as f64 / perft_seconds.max(1e-9),
                }
            };
            if is_fast { &mut fast_runs } else { &mut reference_runs }.push(figures);
        }
        if let Some(engine) = &unoptimised {
            let runner = |config: &PlayoutConfig| engine.run_playouts(config);
            unoptimised_runs.push(playout_rate(options.seconds, 1, &runner, seed).map_err(error)?);
        }
        if let Some(result) = regula_benches::compiled::measure(&game.name, options.seconds, threads, seed, &expected) {
            let c = result?;
            compiled_runs.push(Figures {
                playouts_single: c.playouts_single,
                playouts_all: c.playouts_all,
                perft_nodes_per_second: c.perft_nodes_per_second,
            });
        }
    }
    let summarise = |runs: &[Figures]| Figures {
        playouts_single: median(runs.iter().map(|f| f.playouts_single).collect()),
        playouts_all: median(runs.iter().map(|f| f.playouts_all).collect()),
        perft_nodes_per_second: median(runs.iter().map(|f| f.perft_nodes_per_second).collect()),
    };
    Ok(Row {
        game: game.name.clone(),
        perft_depth: depth,
        perft_nodes: nodes,
        threads,
        reference: summarise(&reference_runs),
        fast: summarise(&fast_runs),
        fast_unoptimised: (!unoptimised_runs.is_empty()).then(|| median(unoptimised_runs)),
        compiled: (!compiled_runs.is_empty()).then(|| summarise(&compiled_runs)),
    })
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// When and under what load the figures were taken.
struct Conditions {
    /// Seconds since the Unix epoch at the start.
    started_unix: u64,
    /// `/proc/loadavg`'s 1-minute load average at the start and at the end (when readable).
    load_before: Option<f64>,
    load_after: Option<f64>,
}

fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

fn optional(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
}

fn markdown(rows: &[Row], options: &Options, conditions: &Conditions) -> String {
    let load = |l: Option<f64>| optional(l, 2);
    let mut text = format!(
        "# Regula engine benchmarks\n\nMedian of {} run(s), about {:.1} s per playout measurement; \
         perft counts checked against perft.toml on every run. Playouts/s: uniform random playouts \
         from the start; `all` uses every core ({} threads). The reference engine runs each game as \
         compiled; the fast engine runs it {}; `fast no-opt` is the fast engine on the unoptimised \
         automaton. `target`: issue #4's single-thread target for the fast engine; `compiled target`: \
         issue #5's (twice Regular Boardgames' compiled C++); both with the share reached. Started at \
         Unix time {}; load average {} before, {} after.\n\n",
        options.runs,
        options.seconds,
        rows.first().map_or(1, |r| r.threads),
        if options.no_opt { "as compiled too (`--no-opt`)" } else { "after every optimisation pass" },
        conditions.started_unix,
        load(conditions.load_before),
        load(conditions.load_after),
    );
    text.push_str(
        "| game | ref playouts/s | fast playouts/s | fast/ref | fast no-opt | target | ref all | fast all | \
         fast all/1t | perft depth (nodes) | ref perft nodes/s | fast perft nodes/s | fast/ref | \
         compiled playouts/s | compiled target | compiled/fast | compiled all | compiled perft nodes/s |\n",
    );
    text.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for row in rows {
        let (r, f) = (&row.reference, &row.fast);
        let target = against_target(f.playouts_single, target(&row.game));
        text.push_str(&format!(
            "| {} | {:.0} | {:.0} | {:.2} | {} | {} | {:.0} | {:.0} | {:.2} | {} ({}) | {:.0} | {:.0} | {:.2} | {} |\n",
            row.game,
            r.playouts_single,
            f.playouts_single,
            ratio(f.playouts_single, r.playouts_single),
            optional(row.fast_unoptimised, 0),
            target,
            r.playouts_all,
            f.playouts_all,
            ratio(f.playouts_all, f.playouts_single),
            row.perft_depth,
            row.perft_nodes,
            r.perft_nodes_per_second,
            f.perft_nodes_per_second,
            ratio(f.perft_nodes_per_second, r.perft_nodes_per_second),
            match &row.compiled {
                Some(c) => format!(
                    "{:.0} | {} | {:.2} | {:.0} | {:.0}",
                    c.playouts_single,
                    against_target(c.playouts_single, compiled_target(&row.game)),
                    ratio(c.playouts_single, f.playouts_single),
                    c.playouts_all,
                    c.perft_nodes_per_second
                ),
                None => "- | - | - | - | -".to_string(),
            },
        ));
    }
    text
}

fn json(rows: &[Row], options: &Options, conditions: &Conditions) -> serde_json::Value {
    let figures = |f: &Figures| {
        serde_json::json!({
            "playouts_per_second_single_thread": f.playouts_single,
            "playouts_per_second_all_threads": f.playouts_all,
            "perft_nodes_per_second": f.perft_nodes_per_second,
        })
    };
    serde_json::json!({
        "runs": options.runs,
        "seconds_per_measurement": options.seconds,
        "fast_engine_optimised": !options.no_opt,
        "started_unix": conditions.started_unix,
        "load_average_before": conditions.load_before,
        "load_average_after": conditions.load_after,
        "games": rows.iter().map(|row| serde_json::json!({
            "game": row.game,
            "threads": row.threads,
            "perft_depth": row.perft_depth,
            "perft_nodes": row.perft_nodes,
            "reference": figures(&row.reference),
            "fast": figures(&row.fast),
            "fast_unoptimised_playouts_per_second_single_thread": row.fast_unoptimised,
            "compiled": row.compiled.as_ref().map(figures),
            "fast_over_reference_playouts": ratio(row.fast.playouts_single, row.reference.playouts_single),
            "fast_over_reference_perft": ratio(row.fast.perft_nodes_per_second, row.reference.perft_nodes_per_second),
            "fast_thread_scaling": ratio(row.fast.playouts_all, row.fast.playouts_single),
            "target_playouts_per_second_single_thread": target(&row.game),
            "meets_target": target(&row.game).map(|goal| row.fast.playouts_single >= goal),
            "compiled_target_playouts_per_second_single_thread": compiled_target(&row.game),
            "compiled_meets_target": compiled_target(&row.game)
                .zip(row.compiled.as_ref())
                .map(|(goal, c)| c.playouts_single >= goal),
        })).collect::<Vec<_>>(),
    })
}

/// Exactly `count` single-thread playouts per game with one engine, for instruction counts.
fn fixed_run(games: &[CorpusGame], engine: &str, count: u64) -> ExitCode {
    for game in games {
        let config = PlayoutConfig { count, seed: 3, threads: 1, ..Default::default() };
        let report = match engine {
            "compiled" => match regula_benches::compiled::fixed_playouts(&game.name, count) {
                Some(report) => report,
                None => continue,
            },
            "fast" => FastEngine::new(game.automaton.clone()).and_then(|e| {
                eprintln!("  fast engine: {}", e.summary());
                e.run_playouts(&config)
            }),
            _ => ReferenceEngine::new(game.automaton.clone()).and_then(|e| run_playouts(&e, &config)),
        };
        match report {
            Ok(report) => println!("{} {engine}: {:.0} playouts/s", game.name, report.playouts_per_second),
            Err(e) => {
                eprintln!("{}: {e}", game.name);
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let quick = std::env::var("REGULA_BENCH_QUICK").is_ok_and(|v| v != "0" && !v.is_empty());
    let options = match parse_options(std::env::args().skip(1), quick) {
        Ok(Command::Run(options)) => options,
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("regula-bench: {message}");
            return ExitCode::FAILURE;
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let conditions = Conditions {
        started_unix: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        load_before: load_average(),
        load_after: None,
    };
    let (games, skipped) = if options.fixed.is_some() || options.no_opt {
        load_corpus_with(options.filter.as_deref(), options.optimise)
    } else {
        load_corpus_optimised(options.filter.as_deref())
    };
    for skip in &skipped {
        eprintln!("skipped {}: {}", skip.name, skip.reason);
    }
    if let Some((engine, count)) = &options.fixed {
        return fixed_run(&games, engine, *count);
    }
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for game in &games {
        eprintln!("benchmarking {} ...", game.name);
        match measure_game(game, &options, threads) {
            Ok(row) => rows.push(row),
            Err(message) => {
                eprintln!("FAILED: {message}");
                failures.push(message);
            }
        }
    }
    let conditions = Conditions { load_after: load_average(), ..conditions };
    let table = markdown(&rows, &options, &conditions);
    println!("{table}");
    let out_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
        .join("bench");
    let written = std::fs::create_dir_all(&out_dir)
        .and_then(|_| std::fs::write(out_dir.join("results.md"), &table))
        .and_then(|_| {
            let text = serde_json::to_string_pretty(&json(&rows, &options, &conditions)).unwrap_or_default();
            std::fs::write(out_dir.join("results.json"), text)
        });
    match written {
        Ok(()) => eprintln!("wrote {}", out_dir.join("results.{md,json}").display()),
        Err(e) => failures.push(format!("writing {}: {e}", out_dir.display())),
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("regula-bench: {} failure(s)", failures.len());
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, String> {
        parse_options(args.iter().map(|a| a.to_string()), false)
    }

    fn row(game: &str, compiled: Option<f64>) -> Row {
        let figures =
            |single: f64| Figures { playouts_single: single, playouts_all: 1.9 * single, perft_nodes_per_second: 1e6 };
        Row {
            game: game.to_string(),
            perft_depth: 3,
            perft_nodes: 100,
            threads: 2,
            reference: figures(1_000.0),
            fast: figures(40_000.0),
            fast_unoptimised: None,
            compiled: compiled.map(figures),
        }
    }

    #[test]
    fn every_table_row_has_the_header_s_columns_and_the_shares_of_both_targets() {
        let rows = [row("connect4/connect4.hrg", Some(325_000.0)), row("rules-stalemate/x.rg", None)];
        let options = Options { runs: 1, seconds: 0.1, filter: None, fixed: None, optimise: false, no_opt: false };
        let conditions = Conditions { started_unix: 0, load_before: None, load_after: None };
        let text = markdown(&rows, &options, &conditions);
        let table: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
        let cells = |line: &str| line.matches('|').count();
        assert_eq!(table.len(), 4, "{text}");
        assert!(table.iter().all(|line| cells(line) == cells(table[0])), "{text}");
        // Fast: 40,000 of 160,000; compiled: 325,000 of 1,300,000.
        assert!(table[2].contains("| 160000 (25 %) |") && table[2].contains("| 1300000 (25 %) |"), "{text}");
        let value = json(&rows, &options, &conditions);
        assert_eq!(value["games"][0]["compiled_meets_target"], serde_json::json!(false));
        assert_eq!(value["games"][1]["compiled_target_playouts_per_second_single_thread"], serde_json::Value::Null);
    }

    #[test]
    fn help_is_a_command_not_an_error() {
        assert!(matches!(parse(&["--help"]), Ok(Command::Help)));
        assert!(matches!(parse(&["--quick", "-h"]), Ok(Command::Help)));
        assert!(matches!(parse(&["--frobnicate"]), Err(e) if e.contains("--frobnicate")));
    }

    #[test]
    fn every_option_the_usage_lists_is_taken_with_its_values() {
        let mut listed = 0;
        for line in USAGE.lines().filter(|l| l.trim_start().starts_with("--")) {
            let words: Vec<&str> = line
                .split_whitespace()
                .take_while(|w| w.starts_with("--") || w.chars().all(|c| c.is_ascii_uppercase()))
                .collect();
            // Placeholders (`N`, `S`, `ENGINE`) become values each option parses.
            let args: Vec<&str> = words
                .iter()
                .map(|&w| match w {
                    "N" => "7",
                    "S" => "0.25",
                    w if w.starts_with("--") => w,
                    _ => "fast",
                })
                .collect();
            match parse(&args) {
                Ok(Command::Run(_)) => listed += 1,
                Ok(Command::Help) => panic!("`{line}` asked for help"),
                Err(e) => panic!("`{line}`: {e}"),
            }
        }
        assert_eq!(listed, 7, "{USAGE}");
        let Ok(Command::Run(options)) =
            parse(&["--runs", "0", "--seconds", "2", "--game", "ttt", "--fixed", "fast", "9"])
        else {
            panic!("the options parse");
        };
        assert_eq!((options.runs, options.seconds, options.filter.as_deref()), (1, 2.0, Some("ttt")));
        assert_eq!(options.fixed, Some(("fast".to_string(), 9)));
    }
}
