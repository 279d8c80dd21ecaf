//! The `plylab` command line: parses arguments, calls into the library, maps errors to exit
//! codes (2 for bad input: experiment files, positions, flags; 1 for failures while running).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use plylab::game::{Evaluator, Game, Score, score};
use plylab::games::random_tree::OracleOrder;
use plylab::lab::runner::{GameTask, RunOptions, with_game};
use plylab::lab::settings::{ChessEval, EvalChoice, NullMoveSetting, QuiescenceSetting};
use plylab::lab::spec::{GameKind, GamePosition, SearcherVariant};
use plylab::lab::{bench, machine, perft, runner, spec, suite, test_set};
use plylab::plot::{self, Format};
use plylab::search::{
    Algorithm, Extensions, Iteration, Limits, Ordering, Quiescence, SearchConfig, search_observed,
};

/// plylab: what each game-tree search technique buys, measured.
///
/// Start with `plylab experiment experiments/ordering.toml`: it runs the experiment file and
/// writes results/ordering/searches.csv, run.json, charts and summary.md.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run an experiment file (see EXPERIMENTS.md for every key).
    Experiment(ExperimentArgs),
    /// Search one position, printing a line per completed iteration.
    Search(SearchArgs),
    /// Run a test set with known answers and report how many are answered exactly.
    Suite(SuiteArgs),
    /// Count the move sequences of exactly DEPTH plies (a move-generator check).
    Perft(PerftArgs),
    /// Run the fixed benchmark suite: total nodes (a behaviour signature) and nodes/s.
    Bench,
    /// Redraw the charts and summary.md of a results directory (or one searches.csv) from
    /// its CSV, without searching anything.
    Plot(PlotArgs),
    /// A UCI chess engine on stdin/stdout for one configuration: the searcher NAME of an
    /// experiment file, or the technique flags (their defaults when none are given; the
    /// --depth/--nodes/--time-ms flags cap every `go`).
    Uci(UciArgs),
}

#[derive(Args)]
struct UciArgs {
    /// Play with the searcher of this label in --config (its first variant if swept).
    #[arg(long, value_name = "NAME", requires = "config")]
    searcher: Option<String>,
    /// The experiment file (TOML) holding --searcher; technique flags other than
    /// --depth/--nodes/--time-ms are then ignored.
    #[arg(long, value_name = "FILE", requires = "searcher")]
    config: Option<PathBuf>,
    #[command(flatten)]
    techniques: Techniques,
}

#[derive(Args)]
struct PlotArgs {
    /// A results directory (holding searches.csv and run.json) or a CSV file.
    path: PathBuf,
    /// Image format(s) [default: both].
    #[arg(long, value_enum)]
    format: Vec<FormatName>,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatName {
    Png,
    Svg,
}

impl From<FormatName> for Format {
    fn from(f: FormatName) -> Self {
        match f {
            FormatName::Png => Self::Png,
            FormatName::Svg => Self::Svg,
        }
    }
}

#[derive(Args)]
struct ExperimentArgs {
    /// The experiment file (TOML).
    file: PathBuf,
    /// Worker threads for jobs [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Write results here instead of results/<name>.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Validate the file and list the jobs without running them.
    #[arg(long)]
    dry_run: bool,
    /// Keep the finished jobs of an interrupted run of the same file; run the rest.
    #[arg(long)]
    resume: bool,
    /// Do not draw charts and summary.md at the end.
    #[arg(long)]
    no_plot: bool,
    /// A reduced run to check the file end to end: two positions per game, at most 200,000
    /// nodes per job, written to target/quick/<name> unless --out is given.
    #[arg(long)]
    quick: bool,
}

/// A game named on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Tictactoe,
    Connect4,
    #[value(name = "random_tree")]
    RandomTree,
    Chess,
}

impl From<GameName> for GameKind {
    fn from(g: GameName) -> Self {
        match g {
            GameName::Tictactoe => Self::Tictactoe,
            GameName::Connect4 => Self::Connect4,
            GameName::RandomTree => Self::RandomTree,
            GameName::Chess => Self::Chess,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum AlgorithmName {
    Minimax,
    Alphabeta,
    #[value(name = "lazy_smp")]
    LazySmp,
}

/// A chess evaluation named on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum EvalName {
    Material,
    Shannon,
    Pst,
}

#[derive(Clone, Copy, ValueEnum)]
enum OracleName {
    Perfect,
    Worst,
    Random,
}

/// Technique switches and limits shared by `search` and `suite`.
#[derive(Args)]
struct Techniques {
    /// The node function.
    #[arg(long, value_enum, default_value = "alphabeta")]
    algorithm: AlgorithmName,
    /// Transposition table size in MiB (0: none; at most 65536 and the memory available).
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = plylab::lab::diagnose::table_mb_flag)]
    tt_mb: u32,
    /// Order moves by the evaluator's hint (centre first in connect four).
    #[arg(long)]
    hint: bool,
    /// Try the table's move first.
    #[arg(long)]
    tt_move: bool,
    /// Killer moves.
    #[arg(long)]
    killers: bool,
    /// History heuristic.
    #[arg(long)]
    history: bool,
    /// Shuffle moves with the seed.
    #[arg(long)]
    shuffle: bool,
    /// All of --hint --tt-move --killers --history.
    #[arg(long)]
    ordered: bool,
    /// Random trees: order by true values (perfect, worst or random).
    #[arg(long, value_enum)]
    oracle: Option<OracleName>,
    /// Chess evaluation.
    #[arg(long, value_enum, default_value = "pst")]
    eval: EvalName,
    /// Search only the final depth instead of iterative deepening.
    #[arg(long)]
    no_iterative: bool,
    /// Seed of the search's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Deepest iteration in plies [default: to the end of the game].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Most nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Most milliseconds.
    #[arg(long, alias = "movetime", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    time_ms: Option<u64>,
    /// Quiescence search: off, unlimited, or its deepest ply.
    #[arg(long, value_name = "off|unlimited|N", default_value = "off")]
    quiescence: QuiescenceSetting,
    /// Also search checking moves in the first quiescence ply.
    #[arg(long)]
    quiescence_checks: bool,
    /// Delta pruning in quiescence with this margin (evaluator units).
    #[arg(long, value_name = "N")]
    delta_margin: Option<i32>,
    /// Null-move pruning: off, adaptive, or a reduction R of 1-6 plies.
    #[arg(long, value_name = "off|adaptive|R", default_value = "off")]
    null_move: NullMoveSetting,
    /// Verify null-move fail-highs with a reduced search.
    #[arg(long)]
    null_verify: bool,
    /// Check extension in 1/24 ply (0-23).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=23))]
    check_extension: i32,
    /// Principal variation search.
    #[arg(long)]
    pvs: bool,
    /// Search threads for --algorithm lazy_smp.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Aspiration windows with this half-width (evaluator units).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(1..))]
    aspiration: Option<i32>,
    /// Store table scores without re-basing mate distances by ply (to see why it is needed).
    #[arg(long)]
    no_tt_mate_adjust: bool,
}

impl Techniques {
    fn searcher(&self) -> SearcherVariant {
        let ordering = Ordering {
            hint: self.hint || self.ordered,
            tt_move: self.tt_move || self.ordered,
            killers: self.killers || self.ordered,
            history: self.history || self.ordered,
            shuffle: self.shuffle,
        };
        let config = SearchConfig {
            algorithm: match self.algorithm {
                AlgorithmName::Minimax => Algorithm::Minimax,
                AlgorithmName::Alphabeta => Algorithm::Alphabeta,
                AlgorithmName::LazySmp => Algorithm::LazySmp,
            },
            ordering,
            tt_mb: self.tt_mb as usize,
            iterative: !self.no_iterative,
            seed: self.seed,
            quiescence: self.quiescence.config().map(|q| Quiescence {
                checks: self.quiescence_checks,
                delta: self.delta_margin,
                ..q
            }),
            null_move: self.null_move.config(self.null_verify),
            extensions: Extensions {
                check: self.check_extension,
            },
            pvs: self.pvs,
            aspiration: self.aspiration,
            tt_mate_adjust: !self.no_tt_mate_adjust,
            threads: self.threads as usize,
        };
        SearcherVariant {
            oracle: self.oracle.map(|o| match o {
                OracleName::Perfect => OracleOrder::Perfect,
                OracleName::Worst => OracleOrder::Worst,
                OracleName::Random => OracleOrder::Random,
            }),
            eval: match self.eval {
                EvalName::Material => ChessEval::Material,
                EvalName::Shannon => ChessEval::Shannon,
                EvalName::Pst => ChessEval::Pst,
            },
            ..SearcherVariant::new("cli", config)
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.time_ms.map(Duration::from_millis),
        }
    }
}

#[derive(Args)]
struct SearchArgs {
    /// The game.
    #[arg(value_enum)]
    game: GameName,
    /// The position: `start`, moves (connect four `4453`, tic-tac-toe `519`), or for random
    /// trees `b=4,d=8,seed=1[,model=iid|incremental][,path=0.2]`.
    position: String,
    #[command(flatten)]
    techniques: Techniques,
}

#[derive(Args)]
struct SuiteArgs {
    /// The game.
    #[arg(value_enum)]
    game: GameName,
    /// The test set: `<position> <known score>` per line (Pons's connect-four format).
    file: PathBuf,
    /// Only the first N positions.
    #[arg(long, value_name = "N")]
    take: Option<usize>,
    /// Worker threads [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Also write one CSV row per position here: its final iteration, with `solved` and the
    /// depth, nodes and time at which the final answer first appeared.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    techniques: Techniques,
}

#[derive(Args)]
struct PerftArgs {
    /// The game.
    #[arg(value_enum)]
    game: GameName,
    /// The position (as for `search`).
    position: String,
    /// Plies.
    depth: u32,
}

/// A failure, with the exit code it maps to.
struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn bad_input(message: impl ToString) -> Self {
        Self {
            code: 2,
            message: message.to_string(),
        }
    }

    fn failed(message: impl ToString) -> Self {
        Self {
            code: 1,
            message: message.to_string(),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Experiment(args) => experiment(&args),
        Command::Search(args) => search(&args),
        Command::Suite(args) => run_suite(&args),
        Command::Perft(args) => run_perft(&args),
        Command::Bench => {
            run_bench();
            Ok(())
        }
        Command::Plot(args) => run_plot(&args),
        Command::Uci(args) => match (&args.config, &args.searcher) {
            (Some(file), Some(name)) => plylab::uci::searcher_from_file(file, name),
            _ => Ok(args.techniques.searcher()),
        }
        .map_err(Failure::bad_input)
        .and_then(|s| {
            plylab::uci::run_stdio(&s, args.techniques.limits()).map_err(Failure::failed)
        }),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn experiment(args: &ExperimentArgs) -> Result<(), Failure> {
    let text = std::fs::read_to_string(&args.file).unwrap_or_default();
    if plylab::arena::spec::is_arena(&text) {
        return arena(args);
    }
    let mut plan = spec::load(&args.file).map_err(Failure::bad_input)?;
    let mut out = args.out.clone();
    if args.quick {
        plan = plan.quick();
        out = out.or_else(|| Some(std::path::Path::new("target/quick").join(&plan.name)));
    }
    if args.dry_run {
        return print_stdout(|out| runner::describe_jobs(&plan, out));
    }
    let options = run_options(args, out);
    eprintln!(
        "{}: {} jobs on {} threads -> {}",
        plan.name,
        plan.jobs.len(),
        options.jobs.unwrap_or_else(machine::cores),
        runner::output_dir(&plan, &options).display()
    );
    let report = runner::run(&plan, &options).map_err(|e| match e {
        runner::RunError::Resume(m) => Failure::bad_input(m),
        other => Failure::failed(other),
    })?;
    println!(
        "{} jobs run ({} kept from an earlier run), {} rows in {:.1} s -> {}",
        report.jobs_run,
        report.jobs_kept,
        report.rows,
        report.elapsed_s,
        report.out.join("searches.csv").display()
    );
    if args.no_plot {
        return Ok(());
    }
    let drawn = plot::plot_dir(&report.out, &Format::ALL).map_err(Failure::failed)?;
    println!(
        "{} charts and summary.md in {}",
        drawn.files.len().saturating_sub(1),
        report.out.display()
    );
    Ok(())
}

/// Writes to stdout with `write`; a reader such as `head` that has seen enough is not a
/// failure.
fn print_stdout(
    write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>,
) -> Result<(), Failure> {
    match write(&mut std::io::stdout().lock()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(Failure::failed),
    }
}

/// The run options the flags give, writing to `out`.
fn run_options(args: &ExperimentArgs, out: Option<PathBuf>) -> RunOptions {
    RunOptions {
        jobs: args.jobs.map(|j| j as usize),
        out,
        resume: args.resume,
        progress: true,
    }
}

/// An arena file (one with a `[match]` table): plays the match.
fn arena(args: &ExperimentArgs) -> Result<(), Failure> {
    use plylab::arena::run::{self as arena_run, ArenaError};
    let mut plan = plylab::arena::spec::load(&args.file).map_err(Failure::bad_input)?;
    let mut out = args.out.clone();
    if args.quick {
        plan = plan.quick();
        out = out.or_else(|| Some(std::path::Path::new("target/quick").join(&plan.name)));
    }
    if args.dry_run {
        return print_stdout(|out| plylab::arena::describe(&plan, out));
    }
    let options = run_options(args, out);
    eprintln!(
        "{}: {} games, {} at once -> {}",
        plan.name,
        plan.schedule().len(),
        options.jobs.unwrap_or(plan.concurrency),
        arena_run::output_dir(&plan, &options).display()
    );
    let report = arena_run::run(&plan, &options).map_err(|e| match e {
        ArenaError::Run(runner::RunError::Resume(m)) => Failure::bad_input(m),
        other => Failure::failed(other),
    })?;
    println!(
        "{} games played ({} kept from an earlier run, {} skipped after an SPRT verdict) in {:.1} s -> {}",
        report.played,
        report.kept,
        report.skipped,
        report.elapsed_s,
        report.out.join("games.csv").display()
    );
    for s in report.standings.iter().filter(|s| s.kind == "pairing") {
        let t = &s.games;
        println!(
            "{} vs {}: +{} ={} -{}, score {:.3}, Elo {}",
            s.player,
            s.opponent,
            t.wins,
            t.draws,
            t.losses,
            t.score().unwrap_or(0.5),
            t.elo().filter(|e| e.is_finite()).map_or_else(
                || "undefined (a one-sided score)".into(),
                |e| format!("{:+.1}", e + 0.0)
            )
        );
    }
    if !args.no_plot {
        let drawn = plot::plot_dir(&report.out, &Format::ALL).map_err(Failure::failed)?;
        println!("{} charts in {}", drawn.files.len(), report.out.display());
    }
    Ok(())
}

fn run_plot(args: &PlotArgs) -> Result<(), Failure> {
    let formats: Vec<Format> = if args.format.is_empty() {
        Format::ALL.to_vec()
    } else {
        args.format.iter().map(|&f| f.into()).collect()
    };
    let start = std::time::Instant::now();
    let report = if args.path.is_dir() {
        plot::plot_dir(&args.path, &formats)
    } else {
        let dir = args.path.parent().unwrap_or(std::path::Path::new("."));
        plot::plot_csv(&args.path, dir, &formats)
    }
    .map_err(Failure::bad_input)?;
    println!(
        "{} files written in {:.2} s",
        report.files.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn parse_position(game: GameName, text: &str) -> Result<GamePosition, Failure> {
    let kind = GameKind::from(game);
    GamePosition::parse(kind, text)
        .map_err(|e| Failure::bad_input(format!("bad {kind} position `{text}`: {e}")))
}

/// Prints engine-style info lines as iterations complete.
struct InfoLines {
    config: SearchConfig,
    limits: Limits,
}

impl GameTask for InfoLines {
    type Output = ();
    fn run<G: Game, E: Evaluator<G>>(
        self,
        root: &G,
        eval: &E,
        to_set_score: &dyn Fn(Score) -> i32,
    ) {
        let print = |it: &Iteration<G::Move>| println!("{}", info_line(it));
        let result = search_observed(root, eval, &self.config, &self.limits, print);
        match result.last() {
            Some(last) => {
                let best = last.best_move.map_or("(none)".into(), |m| m.to_string());
                // Only a search that saw the end of the game has an exact game result.
                let exact = score::is_decisive(last.score)
                    || root.remaining_plies().is_some_and(|r| last.depth >= r);
                let in_set = to_set_score(last.score);
                let solved = if exact && in_set != last.score {
                    format!(" (exact; test-set convention: {in_set})")
                } else {
                    String::new()
                };
                println!("bestmove {best} score {}{solved}", score_text(last.score));
            }
            None => println!("no iteration completed"),
        }
        eprintln!(
            "total nodes {} in {:.3} s{}",
            result.total.nodes,
            result.elapsed.as_secs_f64(),
            if result.stopped {
                " (stopped by a limit)"
            } else {
                ""
            }
        );
    }
}

fn info_line<M: std::fmt::Display>(it: &Iteration<M>) -> String {
    let secs = it.elapsed.as_secs_f64();
    let nps = if secs > 0.0 {
        (it.stats.nodes as f64 / secs) as u64
    } else {
        0
    };
    let pv: Vec<String> = it.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        it.depth,
        it.stats.max_ply,
        score_text(it.score),
        it.stats.nodes,
        nps,
        it.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// `win N` / `loss N` (plies to the end) for decisive scores, the number otherwise.
fn score_text(s: Score) -> String {
    match score::plies_to_end(s) {
        Some(p) if s > 0 => format!("win {p}"),
        Some(p) => format!("loss {p}"),
        None => s.to_string(),
    }
}

fn search(args: &SearchArgs) -> Result<(), Failure> {
    let position = parse_position(args.game, &args.position)?;
    require_limit(&position, &args.techniques.limits())?;
    let searcher = args.techniques.searcher();
    let task = InfoLines {
        config: searcher.config_for(&position),
        limits: args.techniques.limits(),
    };
    with_game(&position, searcher.eval_choice(searcher.config.seed), task);
    Ok(())
}

/// Chess has no bound on its length: a search there needs a depth, node or time limit.
fn require_limit(position: &GamePosition, limits: &Limits) -> Result<(), Failure> {
    let unbounded = matches!(position, GamePosition::Chess(_));
    if unbounded && limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
        return Err(Failure::bad_input(format!(
            "a {} search needs a limit: --depth, --nodes or --time-ms (--movetime)",
            position.kind()
        )));
    }
    Ok(())
}

fn run_suite(args: &SuiteArgs) -> Result<(), Failure> {
    let positions =
        test_set::read(args.game.into(), &args.file, args.take).map_err(Failure::bad_input)?;
    if let Some(first) = positions.first() {
        require_limit(&first.position, &args.techniques.limits())?;
    }
    let threads = args.jobs.map_or_else(machine::cores, |j| j as usize);
    let report = suite::run(
        positions,
        &args.techniques.searcher(),
        args.techniques.limits(),
        threads,
    )
    .map_err(Failure::failed)?;
    if let Some(path) = &args.csv {
        write_rows(path, &report.rows).map_err(Failure::failed)?;
    }
    for (position, expected) in report.misses.iter().take(10) {
        let expected = expected.as_ref().map_or("?".into(), ToString::to_string);
        println!("miss: {position} (expected {expected})");
    }
    println!(
        "{}: exact {}/{}, mean nodes {:.1}, mean time {:.6} s",
        args.file.display(),
        report.exact,
        report.total,
        report.mean_nodes,
        report.mean_seconds
    );
    Ok(())
}

/// Writes the last row of each job (one per position) to `path`.
fn write_rows(path: &std::path::Path, rows: &[plylab::lab::record::Row]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut w = csv::Writer::from_path(path).map_err(|e| fail(&e))?;
    let last_of_job = rows
        .iter()
        .enumerate()
        .filter(|(i, r)| rows.get(i + 1).is_none_or(|next| next.job != r.job));
    for (_, row) in last_of_job {
        w.serialize(row).map_err(|e| fail(&e))?;
    }
    w.flush().map_err(|e| fail(&e))
}

struct Perft(u32);

impl GameTask for Perft {
    type Output = u64;
    fn run<G: Game, E: Evaluator<G>>(self, root: &G, _: &E, _: &dyn Fn(Score) -> i32) -> u64 {
        perft::perft(root, self.0)
    }
}

fn run_perft(args: &PerftArgs) -> Result<(), Failure> {
    let position = parse_position(args.game, &args.position)?;
    let start = std::time::Instant::now();
    // Perft counts moves: chess's fifty-move and insufficient-material draws do not stop it.
    let position = match position {
        GamePosition::Chess(c) => GamePosition::Chess(c.with_rule_draws(false)),
        other => other,
    };
    let count = with_game(&position, EvalChoice::default(), Perft(args.depth));
    println!(
        "perft {} = {count} ({:.3} s)",
        args.depth,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_bench() {
    let total = bench::run(|name, line| {
        println!(
            "{name:<36} {:>12} nodes {:>8.3} s {:>12.0} nodes/s",
            line.nodes,
            line.seconds,
            line.nodes as f64 / line.seconds.max(1e-9)
        );
    });
    println!(
        "bench: {} nodes {:.0} nodes/s",
        total.nodes,
        total.nodes as f64 / total.seconds.max(1e-9)
    );
}
