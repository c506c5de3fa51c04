//! `regula play FILE --agents uct,random --games N [...]`: matches between search agents, and
//! `regula play FILE --human P --agents uct`: a person plays against agents in the terminal.
//!
//! Matches use `regula_agents::arena` (seats rotated, seeded per game, parallel over games) and
//! report each agent's win/draw/loss rates with Wilson 95% intervals and its mean score. In human
//! mode the person's seat is fixed; before each of their moves the program prints what they know
//! (the state, or only their observation of the history when some move was hidden from them) and
//! the numbered legal moves, and reads a number or a move's text; end of input quits cleanly.

use crate::engine::{load_engine, load_fast_engine, player_number, runtime_failure, EngineChoice};
use crate::failure::Failure;
use crate::source::write_output;
use indicatif::{ProgressBar, ProgressStyle};
use regula_agents::arena::{game_generators, outcome, play_game, run_match, MatchConfig, MatchReport, Outcome};
use regula_agents::stats::Rate;
use regula_agents::{Agent, AgentError, AgentSpec, SearchConfig, SearchModel, Turn};
use regula_runtime::engine::{ForwardModel, Move, Mover, Observed};
use regula_runtime::playout::Xoshiro256;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

pub struct PlayOptions {
    pub agents: String,
    /// `None`: 100 for a match, 1 with a person playing.
    pub games: Option<u64>,
    pub threads: usize,
    pub seed: u64,
    pub simulations: u32,
    pub exploration: f64,
    pub json: bool,
    pub timing: bool,
    /// The person's player (name or number), if one plays.
    pub human: Option<String>,
    pub engine: EngineChoice,
}

pub fn play(path: &Path, options: PlayOptions) -> Result<(), Failure> {
    if options.simulations == 0 {
        return Err(Failure::new("--simulations must be at least 1"));
    }
    if !(options.exploration.is_finite() && options.exploration >= 0.0) {
        return Err(Failure::new("--exploration must be a finite number, at least 0"));
    }
    let config =
        SearchConfig { simulations: options.simulations, exploration: options.exploration, ..SearchConfig::default() };
    let specs = AgentSpec::parse_list(&options.agents, config).map_err(Failure::new)?;
    match options.engine {
        EngineChoice::Fast => play_with(&load_fast_engine(path)?, path, &options, &specs),
        EngineChoice::Reference => play_with(&load_engine(path)?, path, &options, &specs),
    }
}

fn play_with<M: SearchModel>(
    model: &M,
    path: &Path,
    options: &PlayOptions,
    specs: &[AgentSpec],
) -> Result<(), Failure> {
    match &options.human {
        Some(human) => play_human(model, human, options, specs),
        None => play_match(model, path, options, specs),
    }
}

// ------------------------------------------------------------------------------------------------
// Matches.

#[derive(Serialize)]
struct MatchSummary {
    file: String,
    games: u64,
    seed: u64,
    threads: usize,
    agents: Vec<AgentSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timing: Option<Timing>,
}

#[derive(Serialize)]
struct AgentSummary {
    agent: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    win_rate: RateSummary,
    draw_rate: RateSummary,
    loss_rate: RateSummary,
    mean_score: f64,
    /// The mean score normalised to [0, 1] over the game's `Score` type.
    mean_return: f64,
}

/// A proportion with its Wilson 95% interval.
#[derive(Serialize)]
struct RateSummary {
    rate: f64,
    low: f64,
    high: f64,
}

impl From<Rate> for RateSummary {
    fn from(rate: Rate) -> Self {
        RateSummary { rate: rate.value, low: rate.low, high: rate.high }
    }
}

#[derive(Serialize)]
struct Timing {
    elapsed_seconds: f64,
    games_per_second: f64,
}

fn play_match<M: SearchModel>(
    model: &M,
    path: &Path,
    options: &PlayOptions,
    specs: &[AgentSpec],
) -> Result<(), Failure> {
    let games = options.games.unwrap_or(100);
    if games == 0 {
        return Err(Failure::new("--games must be at least 1"));
    }
    let players = model.automaton().players.len();
    if specs.len() != players {
        return Err(Failure::new(format!(
            "--agents names {} agent{} but the game has {players} player{}: name one agent per player (e.g. `--agents {}`)",
            specs.len(),
            if specs.len() == 1 { "" } else { "s" },
            if players == 1 { "" } else { "s" },
            vec!["uct"; players].join(",")
        )));
    }
    let config = MatchConfig { games, seed: options.seed, threads: options.threads, ..MatchConfig::default() };
    let bar = (!options.json && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(games);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games ({eta} left)") {
            bar.set_style(style);
        }
        bar
    });
    let report = run_match(model, specs, &config, &|done, _| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report.map_err(|e| Failure::new(format!("runtime error in {e}")))?;
    let summary = summarize(path, options, &config, &report);
    let text = if options.json {
        let mut text = serde_json::to_string_pretty(&summary).map_err(Failure::new)?;
        text.push('\n');
        text
    } else {
        render_match(&summary)
    };
    write_output(None, &text)
}

fn summarize(path: &Path, options: &PlayOptions, config: &MatchConfig, report: &MatchReport) -> MatchSummary {
    MatchSummary {
        file: path.display().to_string(),
        games: config.games,
        seed: config.seed,
        threads: config.threads,
        agents: report
            .agents
            .iter()
            .map(|a| AgentSummary {
                agent: a.name.clone(),
                games: a.games,
                wins: a.wins,
                draws: a.draws,
                losses: a.losses,
                win_rate: a.win_rate.into(),
                draw_rate: a.draw_rate.into(),
                loss_rate: a.loss_rate.into(),
                mean_score: a.mean_score,
                mean_return: a.mean_return,
            })
            .collect(),
        timing: options.timing.then(|| Timing {
            elapsed_seconds: report.elapsed_seconds,
            games_per_second: if report.elapsed_seconds > 0.0 {
                config.games as f64 / report.elapsed_seconds
            } else {
                0.0
            },
        }),
    }
}

fn render_match(summary: &MatchSummary) -> String {
    let mut out = String::new();
    let threads = if summary.threads == 0 { "one per core".to_string() } else { summary.threads.to_string() };
    let _ = writeln!(out, "game: {}", summary.file);
    let _ = writeln!(out, "games: {} (seed {}, threads {threads}, seats rotated)", summary.games, summary.seed);
    if let Some(timing) = &summary.timing {
        let _ = writeln!(out, "time: {:.3} s, {:.2} games/s", timing.elapsed_seconds, timing.games_per_second);
    }
    let _ = writeln!(out, "agents (rates with 95% Wilson intervals):");
    let percent = |rate: &RateSummary| {
        format!("{:5.1} % [{:5.1}, {:5.1}]", 100.0 * rate.rate, 100.0 * rate.low, 100.0 * rate.high)
    };
    for (index, agent) in summary.agents.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}. {:<14} win {}  draw {}  loss {}  mean score {:.3}",
            index + 1,
            agent.agent,
            percent(&agent.win_rate),
            percent(&agent.draw_rate),
            percent(&agent.loss_rate),
            agent.mean_score
        );
        let _ = writeln!(
            out,
            "     {:<14} {} wins, {} draws, {} losses in {} games",
            "", agent.wins, agent.draws, agent.losses, agent.games
        );
    }
    out
}

// ------------------------------------------------------------------------------------------------
// A person at the terminal.

/// The person's seat: reads moves from standard input, prints to standard output.
struct Human {
    /// The lock shares standard input's one buffer, so a lock per game loses no typed-ahead input.
    input: std::io::StdinLock<'static>,
    output: std::io::Stdout,
    /// Standard input is not a terminal, so typed answers are not echoed.
    echo: bool,
}

impl<M: ForwardModel> Agent<M> for Human {
    fn name(&self) -> String {
        "human".to_string()
    }

    fn choose(&mut self, model: &M, turn: &Turn<'_, M::State>, _rng: &mut Xoshiro256) -> Result<Move, AgentError> {
        let moves = model.moves(turn.state)?;
        let names = model.format_moves(&moves);
        let mut text = String::new();
        let me = model.mover_name(Mover::Player(turn.player));
        let _ = writeln!(text, "\n--- your move: you play {me} ---");
        text.push_str(&what_player_knows(model, turn)?);
        let _ = writeln!(text, "legal moves:");
        for (index, name) in names.iter().enumerate() {
            let shown = if name.is_empty() { "(the empty move)" } else { name };
            let _ = writeln!(text, "  {:>3}. {shown}", index + 1);
        }
        self.say(&text)?;
        loop {
            self.say(&format!("your move (1-{}, or a move's text; `quit` to stop): ", names.len()))?;
            let mut line = String::new();
            let read = self.input.read_line(&mut line).map_err(|e| AgentError::Unsupported(format!("input: {e}")))?;
            if read == 0 {
                return Err(AgentError::Quit);
            }
            let answer = line.trim();
            if self.echo {
                // Piped input is not echoed by a terminal: show it, so a transcript reads well.
                self.say(&format!("{answer}\n"))?;
            }
            if answer.is_empty() {
                continue;
            }
            if answer == "quit" || answer == "q" {
                return Err(AgentError::Quit);
            }
            if let Ok(number) = answer.parse::<usize>() {
                if (1..=moves.len()).contains(&number) {
                    return Ok(moves[number - 1].clone());
                }
                self.say(&format!("there is no move {number}: enter a number from 1 to {}\n", moves.len()))?;
                continue;
            }
            let wanted = answer.split_whitespace().collect::<Vec<_>>().join(" ");
            match names.iter().position(|name| *name == wanted) {
                Some(index) => return Ok(moves[index].clone()),
                None => self.say(&format!(
                    "`{answer}` is not a legal move here: enter a number from 1 to {} or a listed move\n",
                    moves.len()
                ))?,
            }
        }
    }
}

impl Human {
    fn say(&mut self, text: &str) -> Result<(), AgentError> {
        self.output
            .write_all(text.as_bytes())
            .and_then(|()| self.output.flush())
            .map_err(|e| AgentError::Unsupported(format!("output: {e}")))
    }
}

/// The state's description when the player has seen every move; otherwise their observation.
fn what_player_knows<M: ForwardModel>(model: &M, turn: &Turn<'_, M::State>) -> Result<String, AgentError> {
    let observation = model.observation(turn.history, turn.player)?;
    if observation.iter().all(|o| matches!(o, Observed::Seen { .. })) {
        return Ok(model.describe_state(turn.state));
    }
    let mut text = String::from("what you have observed (moves hidden from you have no tags):\n");
    for observed in observation {
        match observed {
            Observed::Seen { mover: Mover::Keeper, tags } if tags.is_empty() => {}
            Observed::Hidden { mover: Mover::Keeper } => {}
            Observed::Seen { mover, tags } => {
                let _ = writeln!(text, "  {}: {}", model.mover_name(mover), model.format_move(&tags));
            }
            Observed::Hidden { mover } => {
                let _ = writeln!(text, "  {}: (hidden)", model.mover_name(mover));
            }
        }
    }
    Ok(text)
}

fn play_human<M: SearchModel>(
    model: &M,
    human: &str,
    options: &PlayOptions,
    specs: &[AgentSpec],
) -> Result<(), Failure> {
    let automaton = model.automaton();
    let players = automaton.players.len();
    let seat = match human.parse::<usize>() {
        Ok(number) if number < players => number,
        Ok(number) => {
            return Err(Failure::new(format!(
                "--human {number}: players are numbered 0 to {} in this game",
                players - 1
            )))
        }
        Err(_) => player_number(automaton, human)?,
    };
    // The agents fill the other seats in order; a single agent fills them all.
    let others = players - 1;
    let fill: Vec<AgentSpec> = match specs.len() {
        n if n == others => specs.to_vec(),
        1 => vec![specs[0]; others],
        n => {
            return Err(Failure::new(format!(
                "--agents names {n} agents, but with --human there are {others} other seat{} to fill",
                if others == 1 { "" } else { "s" }
            )))
        }
    };
    let games = options.games.unwrap_or(1);
    for game in 0..games {
        let mut agent_names = Vec::new();
        let mut agents: Vec<Box<dyn Agent<M> + '_>> = Vec::new();
        let mut next_agent = fill.iter();
        for player in 0..players {
            if player == seat {
                agent_names.push("you".to_string());
                let echo = !std::io::stdin().is_terminal();
                agents.push(Box::new(Human { input: std::io::stdin().lock(), output: std::io::stdout(), echo }));
            } else {
                let spec = next_agent.next().expect("one agent per other seat");
                agent_names.push(spec.name());
                agents.push(spec.build::<M>());
            }
        }
        let mut banner = format!("\n=== game {} of {games}:", game + 1);
        for (player, name) in agent_names.iter().enumerate() {
            let _ = write!(banner, " {} = {name};", model.mover_name(Mover::Player(player)));
        }
        println!("{}", banner.trim_end_matches(';'));
        let (mut chance, mut seat_rngs) = game_generators(options.seed, game, players);
        let mut announce = |state: &M::State, mover: Mover, tags: &Move| {
            if mover == Mover::Player(seat) {
                return;
            }
            let name = model.mover_name(mover);
            if model.observers(state, mover).contains(&seat) {
                println!("{name} plays {}", model.format_move(tags));
            } else {
                println!("{name} moves (hidden from you)");
            }
        };
        let result =
            play_game(model, &mut agents, &mut chance, &mut seat_rngs, MatchConfig::default().max_moves, &mut announce);
        drop(agents);
        match result {
            Ok((end, _)) => {
                println!("\n--- game over ---");
                print!("{}", model.describe_state(&end));
                let scores = model.scores(&end);
                let line: Vec<String> = scores
                    .iter()
                    .enumerate()
                    .map(|(p, s)| format!("{} {}", model.mover_name(Mover::Player(p)), automaton.symbol_name(s.symbol)))
                    .collect();
                let verdict = match outcome(&scores, seat) {
                    Outcome::Win => "you win",
                    Outcome::Draw => "a draw",
                    Outcome::Loss => "you lose",
                };
                println!("scores: {} ({verdict})", line.join(", "));
            }
            Err(AgentError::Quit) => {
                println!("\nquit: the game was left unfinished");
                return Ok(());
            }
            Err(AgentError::Engine(error)) => return Err(runtime_failure(error)),
            Err(error) => return Err(Failure::new(error)),
        }
    }
    Ok(())
}
