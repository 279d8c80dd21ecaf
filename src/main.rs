//! The `plylab` command line: parses arguments, calls into the library, maps errors to exit
//! codes (2 for bad input: experiment files, positions, flags; 1 for failures while running).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use plylab::game::{Evaluator, Game, Score, Status, score};
use plylab::games::random_tree::OracleOrder;
use plylab::lab::error::RunError;
use plylab::lab::runner::{GameTask, RunOptions, with_game};
use plylab::lab::settings::{EvalChoice, EvalSetting, NullMoveSetting, QuiescenceSetting};
use plylab::lab::shards::{Shard, ShardRecord};
use plylab::lab::spec::{GameKind, GamePosition, SearcherVariant};
use plylab::lab::suite_csv::{SuiteCsv, SuiteCsvError};
use plylab::lab::{bench, machine, perft, runner, spec, suite, test_set};
use plylab::plot::{self, Format};
use plylab::search::mcts::{MctsAlgorithm, MctsBudget, MctsConfig};
use plylab::search::{
    Algorithm, Extensions, Iteration, Limits, MAX_DEPTH, Ordering, Quiescence, SearchConfig,
    config, search_observed,
};
use plylab::{say, tell};

/// plylab: what each game-tree search technique buys, measured.
///
/// Start with `plylab experiment experiments/ordering.toml`: it runs the experiment file and
/// writes runs/ordering/searches.csv, run.json, charts and summary.md (beside the committed
/// results/ordering to compare with).
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

impl Command {
    /// The technique flags of the subcommands that take them.
    fn techniques(&mut self) -> Option<&mut Techniques> {
        match self {
            Command::Search(a) => Some(&mut a.techniques),
            Command::Suite(a) => Some(&mut a.techniques),
            Command::Uci(a) => Some(&mut a.techniques),
            _ => None,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Run an experiment file (see EXPERIMENTS.md for every key).
    Experiment(ExperimentArgs),
    /// Search one position, printing a line per completed iteration.
    Search(SearchArgs),
    /// Run a test set with known answers and report how many are answered exactly.
    Suite(SuiteArgs),
    /// Count the move sequences of exactly DEPTH plies (a move-generator check; in games of
    /// chance a roll is not a ply: each chance node branches over its outcomes; in othello
    /// a pass is a ply and, as in Bik's published table, a game over sooner counts as one
    /// leaf, the exact-length count printed beside it).
    Perft(PerftArgs),
    /// Run the fixed benchmark suite: total nodes (a behaviour signature) and nodes/s.
    Bench,
    /// Redraw the charts and summary.md of a results directory (or one searches.csv) from
    /// its CSV, without searching anything (a match's directory: standings.csv, summary.md
    /// and the charts from games.csv, without playing).
    Plot(PlotArgs),
    /// Merge the results directories of an experiment's shards (--shard I/N) into one, then
    /// draw its charts and summary.md.
    Merge(MergeArgs),
    /// Write to stdout an sbatch script running an experiment as a Slurm job array of
    /// shards, then their merge.
    Slurm(SlurmArgs),
    /// A UCI chess engine on stdin/stdout for one configuration of the alpha-beta family
    /// (minimax, alphabeta, lazy_smp, ybw): the searcher NAME of an experiment file, or the
    /// technique flags (their defaults when none are given; the --depth/--nodes/--time-ms
    /// flags cap every `go`). The flags are `search`'s: those of other algorithms and games
    /// (Monte Carlo, chance searches, backgammon evaluations) and the weak solver (`--weak`,
    /// which proves only a result's sign) are refused here.
    Uci(UciArgs),
    /// Endgame databases by retrograde analysis: build one, or probe one for a position.
    Tablebase {
        #[command(subcommand)]
        action: TablebaseAction,
    },
    /// Opening books: build one (chess: Polyglot .bin from PGN games), or list a
    /// position's book moves.
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// Learn the weights of a linear evaluation from self-play (Texel regression, TD(λ),
    /// TDLeaf(λ)): writes weights/<name>.toml and results/<name>/ (curve, summary).
    Learn(LearnArgs),
}

#[derive(Args)]
struct LearnArgs {
    /// The learning file (see EXPERIMENTS.md, "Learned evaluations").
    file: PathBuf,
    /// Results directory [default: results/<name>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Directory of the weights file written.
    #[arg(long, value_name = "DIR", default_value = "weights")]
    weights_dir: PathBuf,
    /// Start afresh, discarding a checkpoint of an interrupted run.
    #[arg(long)]
    restart: bool,
    /// Replace the weights file and results of a finished run of the same name (refused
    /// without it: arenas and searches read the committed weights).
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Do not draw the learning-curve charts.
    #[arg(long)]
    no_plot: bool,
    /// Stop after N epochs or batches, leaving the checkpoint (tests resumption).
    #[arg(long, allow_negative_numbers = true, hide = true, value_name = "N")]
    stop_after: Option<u32>,
}

/// `book build`'s flags: chess's `--pgn`, `--max-ply`; connect four's the others.
#[derive(Args)]
struct BookBuildArgs {
    /// The game (`chess` or `connect4`).
    game: String,
    /// Chess: the PGN games.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Connect four: positions to expand, 1 to 10,000,000 (transpositions merge: the book
    /// may hold fewer) [default: 200].
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    positions: Option<usize>,
    /// Connect four: the depth of each leaf's alpha-beta search (0: to the end)
    /// [default: 8].
    #[arg(long, allow_negative_numbers = true, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_DEPTH)))]
    depth: Option<u32>,
    /// Connect four: drop-out expansion's cost of a ply, in evaluation units, at least 0
    /// [default: 4].
    #[arg(long, value_name = "W", allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(0..))]
    omega: Option<i32>,
    /// Connect four: the position the book starts from, as moves (`start`: the empty
    /// board) [default: start].
    #[arg(long, value_name = "POS")]
    from: Option<String>,
    /// Where to write the book.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Replace the file at --out (refused without it).
    #[arg(long)]
    force: bool,
    /// Chess: plies of each game that enter the book (at least 1) [default: 1024].
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    max_ply: Option<usize>,
}

#[derive(Subcommand)]
enum BookAction {
    /// Build a book: `chess --pgn FILE` (Polyglot, weights as PolyGlot's `make-book
    /// -min-game 1`), or `connect4 --positions N` (by search, drop-out expansion).
    Build(BookBuildArgs),
    /// Print a position's book moves with their weights (a Polyglot book) or values (a
    /// connect-four book).
    Probe {
        /// The book.
        file: PathBuf,
        /// The position: FEN (or `startpos`) for a Polyglot book, moves (`start`, `4453`)
        /// for a connect-four book.
        #[arg(value_name = "POSITION")]
        fen: String,
    },
}

#[derive(Subcommand)]
enum TablebaseAction {
    /// Build the database of an ending (chess: KQK, KRK, KPK or KBNK; checkers: every
    /// position of 1 to N pieces, N at most 4) and print its statistics.
    Build {
        /// The game (`chess` or `checkers`).
        game: String,
        /// The ending: KQK, KRK, KPK or KBNK for chess, the number of pieces for checkers.
        ending: String,
        /// Where to write it [default: ENDING.plytb for chess, checkersN.plytb for checkers].
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace the file at --out (refused without it).
        #[arg(long)]
        force: bool,
    },
    /// Print the value of a position (chess FEN or checkers PDN FEN) from a database file.
    Probe {
        /// The database.
        file: PathBuf,
        /// The position (FEN for a chess database, PDN FEN for a checkers one).
        fen: String,
    },
}

#[derive(Args)]
struct UciArgs {
    /// Play with the searcher of this label in --config (its first variant if swept).
    #[arg(long, value_name = "NAME", requires = "config")]
    searcher: Option<String>,
    /// The experiment or arena file (TOML) holding --searcher, which must search chess there;
    /// technique flags other than --depth/--nodes/--time-ms are then refused.
    #[arg(long, value_name = "FILE", requires = "searcher")]
    config: Option<PathBuf>,
    #[command(flatten)]
    techniques: Techniques,
}

#[derive(Args)]
struct PlotArgs {
    /// A results directory (holding searches.csv, or a match's games.csv, and run.json) or
    /// a CSV file.
    path: PathBuf,
    /// An image format to draw; repeat for both [default: png and svg].
    #[arg(long, value_enum)]
    format: Vec<FormatName>,
}

/// [`plylab::search::HelperDepths`] on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum HelperDepthsName {
    /// Odd depths for odd helpers, even ones for even helpers (the default).
    Alternate,
    /// Every helper at the main thread's depths.
    Same,
}

/// [`plylab::search::MainDepths`] on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum MainDepthsName {
    /// Every depth (the default).
    Every,
    /// Every other depth, ending at the depth limit, when there are helpers.
    Alternate,
}

impl From<MainDepthsName> for plylab::search::MainDepths {
    fn from(d: MainDepthsName) -> Self {
        match d {
            MainDepthsName::Every => Self::Every,
            MainDepthsName::Alternate => Self::Alternate,
        }
    }
}

impl From<HelperDepthsName> for plylab::search::HelperDepths {
    fn from(d: HelperDepthsName) -> Self {
        match d {
            HelperDepthsName::Alternate => Self::Alternate,
            HelperDepthsName::Same => Self::Same,
        }
    }
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
    /// Worker threads for jobs, 1-256 (arena files: games at once, overriding
    /// `concurrency`) [default: the number of cores].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Write results here instead of runs/<name> (a directory git ignores: a run never
    /// overwrites the committed results/<name> unless sent there with --force).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Validate the file and list the jobs without running them, with an estimate of the
    /// time they take: scaled from an earlier run of the file, else from the jobs' limits
    /// (at most that where every job has a time limit, a guess where some have only nodes).
    #[arg(long)]
    dry_run: bool,
    /// Keep the finished jobs of an earlier run in the directory whose own configuration is
    /// unchanged (however the file was edited); run the rest.
    #[arg(long, conflicts_with = "force")]
    resume: bool,
    /// Write into a directory that holds another run's results, replacing them (without it,
    /// or --resume, such a directory is refused).
    #[arg(long)]
    force: bool,
    /// Do not draw charts and summary.md at the end.
    #[arg(long)]
    no_plot: bool,
    /// A reduced run to check the file end to end: two positions per game, at most 200,000
    /// nodes per job (arena files: one round per pairing, at most 200,000 nodes per
    /// move), written to target/quick/<name> unless --out is given.
    #[arg(long)]
    quick: bool,
    /// Run only part I of N of the jobs (arena files: of the game pairs), dealt out by
    /// estimated cost; `plylab merge` joins the parts (see EXPERIMENTS.md).
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    shard: Option<Shard>,
}

#[derive(Args)]
struct MergeArgs {
    /// The shards' results directories (each written with --shard I/N).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// The merged results directory.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace the results --out holds already.
    #[arg(long)]
    force: bool,
    /// Do not draw charts and summary.md.
    #[arg(long)]
    no_plot: bool,
}

#[derive(Args)]
struct SlurmArgs {
    /// The experiment or arena file (TOML), as the tasks will open it.
    file: PathBuf,
    /// Array tasks, one shard each (at most the file's jobs, or game pairs).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    tasks: u32,
    /// Partition (sbatch --partition).
    #[arg(long, value_name = "P")]
    partition: Option<String>,
    /// Time limit per task (sbatch --time: minutes, MM:SS, HH:MM:SS or D-HH[:MM[:SS]]).
    #[arg(long, value_name = "HH:MM:SS")]
    time: Option<String>,
    /// Account to charge (sbatch --account).
    #[arg(long, value_name = "A")]
    account: Option<String>,
    /// Most tasks running at once (the array's %K).
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    throttle: Option<u32>,
    /// Merged results directory [default: runs/<name>, as `experiment`'s: the merge job
    /// replaces what it holds, so never the committed results/<name> unless named];
    /// shards go to OUT/shards/I. OUT/logs is made now, for the tasks' logs (Slurm opens
    /// them but does not make their directory).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The plylab binary the tasks run [default: this one].
    #[arg(long, value_name = "PATH")]
    binary: Option<PathBuf>,
}

/// A game named on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Tictactoe,
    Connect4,
    #[value(name = "random_tree")]
    RandomTree,
    Chess,
    Checkers,
    Othello,
    #[value(name = "chance_tree")]
    ChanceTree,
    Backgammon,
}

impl From<GameName> for GameKind {
    fn from(g: GameName) -> Self {
        match g {
            GameName::Tictactoe => Self::Tictactoe,
            GameName::Connect4 => Self::Connect4,
            GameName::RandomTree => Self::RandomTree,
            GameName::Chess => Self::Chess,
            GameName::Checkers => Self::Checkers,
            GameName::Othello => Self::Othello,
            GameName::ChanceTree => Self::ChanceTree,
            GameName::Backgammon => Self::Backgammon,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum AlgorithmName {
    /// Negamax over every move to the horizon.
    Minimax,
    /// Fail-soft alpha-beta (the default).
    Alphabeta,
    /// Alpha-beta on --threads threads sharing the table.
    #[value(name = "lazy_smp")]
    LazySmp,
    /// Young Brothers Wait on --threads threads (at most 64).
    Ybw,
    /// Expectiminimax without pruning (games with chance nodes).
    Expectiminimax,
    /// Ballard's Star1 (games with chance nodes).
    Star1,
    /// Ballard's Star2: Star1 with probing (games with chance nodes).
    Star2,
    /// Monte Carlo tree search with UCB1 (a --nodes playout or --time-ms budget).
    Uct,
    /// Flat Monte Carlo: playouts from each root move in turn, no tree (as in experiment
    /// files; `flat` also).
    #[value(name = "flat_monte_carlo", alias = "flat")]
    Flat,
    /// Root-parallel MCTS on --threads threads.
    #[value(name = "root_parallel")]
    RootParallel,
    /// Tree-parallel MCTS (virtual loss) on --threads threads, lock-free.
    #[value(name = "tree_parallel")]
    TreeParallel,
    /// Tree-parallel MCTS (virtual loss) on --threads threads behind one lock (baseline).
    #[value(name = "tree_parallel_locked")]
    TreeParallelLocked,
}

/// A chess evaluation named on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum EvalName {
    Material,
    Shannon,
    Pst,
    Pubeval,
    Race,
}

#[derive(Clone, Copy, ValueEnum)]
enum OracleName {
    Perfect,
    Worst,
    Random,
}

/// Technique switches and limits shared by `search`, `suite` and `uci`.
#[derive(Args)]
struct Techniques {
    /// The node function.
    #[arg(long, value_enum, default_value = "alphabeta")]
    algorithm: AlgorithmName,
    /// Transposition table size in MiB (0: none; at most 65536 and the memory available).
    #[arg(long, allow_negative_numbers = true, value_name = "MB", default_value_t = 16, value_parser = plylab::lab::diagnose::table_mb_flag)]
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
    /// Fastest-first: moves leaving the opponent the fewest replies first.
    #[arg(long)]
    fastest_first: bool,
    /// Refined mobility: fastest-first by Edax's finer measure, corner replies counted
    /// twice, ties broken by corner stability and potential mobility (othello).
    #[arg(long)]
    refined_mobility: bool,
    /// Parity: moves into regions with an odd number of empties first (othello).
    #[arg(long)]
    parity: bool,
    /// Solve positions with at most N empties, 1-20, by the game's dedicated solver
    /// (othello; the other games have none and refuse it).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(config::MAX_ENDGAME_SOLVER)))]
    endgame_solver: Option<u32>,
    /// All of --hint --tt-move --killers --history.
    #[arg(long)]
    ordered: bool,
    /// Random trees: order by true values (perfect, worst or random).
    #[arg(long, value_enum)]
    oracle: Option<OracleName>,
    /// The evaluation: material, shannon or pst for chess [default: pst], pubeval or race
    /// for backgammon [default: pubeval]; the other games have their own.
    #[arg(long, value_enum, default_value = "pst", hide_default_value = true)]
    eval: EvalName,
    /// Search only the final depth instead of iterative deepening.
    #[arg(long)]
    no_iterative: bool,
    /// Seed of the search's random choices.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1)]
    seed: u64,
    /// Deepest iteration in plies, at most 5000 [default: to the end of the game].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    depth: Option<u32>,
    /// Most nodes (Monte Carlo: playouts).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Most milliseconds (also --movetime, UCI's name).
    #[arg(long, allow_negative_numbers = true, alias = "movetime", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    time_ms: Option<u64>,
    /// Quiescence search: off, unlimited, or its deepest ply (0-100).
    #[arg(long, value_name = "off|unlimited|N", default_value = "off")]
    quiescence: QuiescenceSetting,
    /// Also search checking moves in the first quiescence ply.
    #[arg(long)]
    quiescence_checks: bool,
    /// Delta pruning in quiescence with this margin (evaluator units, ≥ 0).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(i32).range(0..))]
    delta_margin: Option<i32>,
    /// Quiescence nodes look their positions up in the transposition table and store their
    /// values there.
    #[arg(long)]
    quiescence_tt: bool,
    /// Null-move pruning: off, adaptive, or a reduction R of 1-6 plies.
    #[arg(long, value_name = "off|adaptive|R", default_value = "off")]
    null_move: NullMoveSetting,
    /// Verify null-move fail-highs with a reduced search.
    #[arg(long)]
    null_verify: bool,
    /// Check extension in 1/24 ply (0-23).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=i64::from(config::MAX_CHECK_EXTENSION)))]
    check_extension: i32,
    /// Principal variation search.
    #[arg(long)]
    pvs: bool,
    /// Enhanced transposition cutoff: children looked up in the table before the search.
    #[arg(long)]
    etc: bool,
    /// Search threads, 1-256 (ybw: at most 64), for --algorithm lazy_smp, ybw,
    /// root_parallel, tree_parallel or tree_parallel_locked.
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=config::MAX_SEARCH_THREADS as i64))]
    threads: u32,
    /// Young Brothers Wait: nodes at least this many plies (1-64) from the horizon may hand
    /// their younger brothers to idle threads.
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = plylab::search::ybw::SPLIT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=i64::from(config::MAX_SPLIT_PLIES)))]
    split_plies: u32,
    /// Lazy SMP: the depths the helper threads search (EXPERIMENTS.md, `helper_depths`).
    #[arg(long, value_enum, default_value_t = HelperDepthsName::Alternate)]
    helper_depths: HelperDepthsName,
    /// Lazy SMP: the depths the main thread searches when it has helpers (EXPERIMENTS.md,
    /// `main_depths`).
    #[arg(long, value_enum, default_value_t = MainDepthsName::Every)]
    main_depths: MainDepthsName,
    /// Aspiration windows with this half-width (evaluator units).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(i32).range(1..))]
    aspiration: Option<i32>,
    /// Store table scores without re-basing mate distances by ply (to see why it is needed).
    #[arg(long)]
    no_tt_mate_adjust: bool,
    /// Keep fractional depths (check extensions') in the table to half a ply.
    #[arg(long)]
    tt_fractional: bool,
    /// Monte Carlo tree searches (not flat): the UCB1 exploration constant c, from 0 to 1e6
    /// [default: √2].
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    exploration: Option<f64>,
    /// --algorithm tree_parallel: each thread holds back the statistics of the nodes this
    /// many plies below the root (EXPERIMENTS.md, `hold_depth`) [default: 0, none].
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    hold_depth: Option<u32>,
    /// --algorithm tree_parallel: playouts between two publications of the held-back
    /// statistics [default: 512].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    hold_playouts: Option<u32>,
    /// Monte Carlo tree searches: playouts through a node before it expands (EXPERIMENTS.md,
    /// `expand_visits`) [default: 1, UCT's rule].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    expand_visits: Option<u32>,
    /// Monte Carlo tree searches: the most MiB the tree may take (EXPERIMENTS.md, `tree_mb`);
    /// the search stops early where it would outgrow them [default: no cap but the memory
    /// the machine can spare].
    #[arg(long, allow_negative_numbers = true, value_name = "MIB", value_parser = clap::value_parser!(u32).range(1..))]
    tree_mb: Option<u32>,
    /// Monte Carlo algorithms: end each playout after this many plies and score it with the
    /// evaluator (EXPERIMENTS.md, `playout_cutoff`) [default: play to the end].
    #[arg(long, allow_negative_numbers = true, value_name = "PLIES")]
    playout_cutoff: Option<u32>,
    /// Threats: moves creating the most winning cells first (Pons, part 10; connect four
    /// and tic-tac-toe).
    #[arg(long)]
    threats: bool,
    /// Score a node whose side to move wins at once without expanding it (Pons, part 3).
    #[arg(long)]
    win_check: bool,
    /// Narrow the window to the scores still possible and by the table's bounds (Pons,
    /// part 4); in othello also by the opponent's stable discs (Edax's stability cutoff).
    #[arg(long)]
    score_window: bool,
    /// Count decisive scores in units of this many plies of the game, 1-16 (2: Pons's
    /// stones).
    #[arg(long, value_name = "PLIES", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=i64::from(config::MAX_SCORE_GRAIN)))]
    score_grain: u8,
    /// Find the root value by null-window searches on the score (Pons, part 8).
    #[arg(long)]
    mtd: bool,
    /// Generate only moves that do not lose at once (Pons, part 9).
    #[arg(long)]
    anticipate: bool,
    /// The weak solver: root window (-1, 1), only the sign of the result is exact.
    #[arg(long)]
    weak: bool,
    /// Keep only upper bounds in the table (Pons's table before part 12).
    #[arg(long)]
    tt_upper_only: bool,
    /// The compact table: 8-byte slots, a prime number of them, partial keys (Pons, part 11).
    #[arg(long)]
    tt_compact: bool,
    /// Every solver switch of Pons's ladder at once: win check, score window, grain 2, mtd,
    /// anticipation, threats and hint ordering, the compact table (his step 12).
    #[arg(long)]
    pons: bool,
    /// The flags given on the command line, by id (filled from the parse: a flag left at its
    /// default is not refused where it means nothing).
    #[arg(skip)]
    given: Vec<String>,
}

/// The flags only the alpha-beta family reads (an experiment file refuses the same keys for
/// a Monte Carlo searcher), `depth` among them: a Monte Carlo search has none.
const ALPHA_BETA_FLAGS: &[&str] = &[
    "tt_mb",
    "hint",
    "tt_move",
    "killers",
    "history",
    "shuffle",
    "fastest_first",
    "refined_mobility",
    "parity",
    "endgame_solver",
    "ordered",
    "oracle",
    "no_iterative",
    "depth",
    "quiescence",
    "quiescence_checks",
    "delta_margin",
    "quiescence_tt",
    "null_move",
    "null_verify",
    "check_extension",
    "pvs",
    "etc",
    "aspiration",
    "no_tt_mate_adjust",
    "tt_fractional",
    "threats",
    "win_check",
    "score_window",
    "score_grain",
    "mtd",
    "anticipate",
    "weak",
    "tt_upper_only",
    "tt_compact",
    "pons",
];

/// The experiment-file key a technique flag of [`ALPHA_BETA_FLAGS`] sets: the ordering
/// switches set `ordering`, `--pons` the solver's grain (among others), the `no_` and
/// `_only` flags the key they turn off.
fn technique_key(id: &str) -> &str {
    match id {
        "hint" | "tt_move" | "killers" | "history" | "shuffle" | "fastest_first"
        | "refined_mobility" | "parity" | "threats" | "ordered" => "ordering",
        "pons" => "score_grain",
        "no_iterative" => "iterative",
        "no_tt_mate_adjust" => "tt_mate_adjust",
        "tt_upper_only" => "tt_lower_bounds",
        other => other,
    }
}

/// The ids of the arguments of `command` that `matches` had given on the command line
/// rather than left at their defaults (not the ids of argument groups, such as the
/// flattened `Techniques`, which `matches` lists too).
fn given_flags(command: &clap::Command, matches: &ArgMatches) -> Vec<String> {
    let is_argument = |id: &clap::Id| command.get_arguments().any(|a| a.get_id() == id);
    matches
        .ids()
        .filter(|id| is_argument(id))
        .filter(|id| matches.value_source(id.as_str()) == Some(ValueSource::CommandLine))
        .map(ToString::to_string)
        .collect()
}

/// A flag id as the user typed it (`tt_mb` -> `--tt-mb`).
fn flag(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

impl Techniques {
    fn searcher(&self) -> SearcherVariant {
        let ordering = Ordering {
            hint: self.hint || self.ordered || self.pons,
            tt_move: self.tt_move || self.ordered,
            killers: self.killers || self.ordered,
            history: self.history || self.ordered,
            shuffle: self.shuffle,
            fastest_first: self.fastest_first,
            refined_mobility: self.refined_mobility,
            parity: self.parity,
            threats: self.threats || self.pons,
        };
        let config = SearchConfig {
            algorithm: match self.algorithm {
                AlgorithmName::Minimax => Algorithm::Minimax,
                AlgorithmName::Alphabeta => Algorithm::Alphabeta,
                AlgorithmName::LazySmp => Algorithm::LazySmp,
                AlgorithmName::Ybw => Algorithm::Ybw,
                AlgorithmName::Expectiminimax => Algorithm::Expectiminimax,
                AlgorithmName::Star1 => Algorithm::Star1,
                AlgorithmName::Star2 => Algorithm::Star2,
                // Monte Carlo runs instead of the alpha-beta family (`mcts` below).
                AlgorithmName::Uct
                | AlgorithmName::Flat
                | AlgorithmName::RootParallel
                | AlgorithmName::TreeParallel
                | AlgorithmName::TreeParallelLocked => Algorithm::Alphabeta,
            },
            ordering,
            tt_mb: self.tt_mb as usize,
            iterative: !self.no_iterative,
            seed: self.seed,
            quiescence: self.quiescence.config().map(|q| Quiescence {
                checks: self.quiescence_checks,
                delta: self.delta_margin,
                tt: self.quiescence_tt,
                ..q
            }),
            null_move: self.null_move.config(self.null_verify),
            extensions: Extensions {
                check: self.check_extension,
            },
            pvs: self.pvs,
            etc: self.etc,
            aspiration: self.aspiration,
            tt_mate_adjust: !self.no_tt_mate_adjust,
            tt_fractional: self.tt_fractional,
            threads: self.threads as usize,
            split_plies: self.split_plies,
            helper_depths: self.helper_depths.into(),
            main_depths: self.main_depths.into(),
            endgame_solver: self.endgame_solver,
            secondary: None,
            solve: plylab::search::SolveSwitches {
                win_check: self.win_check || self.pons,
                score_window: self.score_window || self.pons,
                score_grain: if self.pons { 2 } else { self.score_grain },
                mtd: self.mtd || self.pons,
                anticipate: self.anticipate || self.pons,
                weak: self.weak,
                tt_lower_bounds: !self.tt_upper_only,
                tt_compact: self.tt_compact || self.pons,
            },
        };
        SearcherVariant {
            oracle: self.oracle.map(|o| match o {
                OracleName::Perfect => OracleOrder::Perfect,
                OracleName::Worst => OracleOrder::Worst,
                OracleName::Random => OracleOrder::Random,
            }),
            eval: match self.eval {
                EvalName::Material => EvalSetting::Material,
                EvalName::Shannon => EvalSetting::Shannon,
                EvalName::Pst => EvalSetting::Pst,
                EvalName::Pubeval => EvalSetting::Pubeval,
                EvalName::Race => EvalSetting::Race,
            },
            mcts: match self.algorithm {
                AlgorithmName::Uct => Some(MctsAlgorithm::Uct),
                AlgorithmName::Flat => Some(MctsAlgorithm::FlatMonteCarlo),
                AlgorithmName::RootParallel => Some(MctsAlgorithm::RootParallel),
                AlgorithmName::TreeParallel => Some(MctsAlgorithm::TreeParallel),
                AlgorithmName::TreeParallelLocked => Some(MctsAlgorithm::TreeParallelLocked),
                _ => None,
            },
            mcts_config: MctsConfig {
                exploration: self
                    .exploration
                    .unwrap_or(MctsConfig::default().exploration),
                seed: self.seed,
                hold_depth: self.hold_depth.unwrap_or(MctsConfig::default().hold_depth),
                hold_playouts: self
                    .hold_playouts
                    .unwrap_or(MctsConfig::default().hold_playouts),
                expand_visits: self
                    .expand_visits
                    .unwrap_or(MctsConfig::default().expand_visits),
                playout_cutoff: self.playout_cutoff,
                tree_mb: self.tree_mb,
            },
            ..SearcherVariant::new("cli", config)
        }
    }

    /// Refuses what the flags cannot mean (see the helpers).
    fn check(&self) -> Result<(), Failure> {
        self.check_monte_carlo()?;
        self.check_algorithm_flags()?;
        self.check_tuning_flags()?;
        self.check_table_flags()?;
        self.check_ybw_threads()
    }

    /// Refuses a flag that tunes a technique left off (`--null-verify` without
    /// `--null-move`), as an experiment file refuses its key: it would change nothing.
    fn check_tuning_flags(&self) -> Result<(), Failure> {
        let config = self.searcher().config;
        let off = |technique: &str| match technique {
            "quiescence" => config.quiescence.is_none(),
            _ => config.null_move.is_none(),
        };
        let tuning = plylab::lab::spec::TUNING_KEYS;
        match tuning
            .iter()
            .find(|(id, technique)| self.given(id) && off(technique))
        {
            Some((id, technique)) => Err(Failure::bad_input(format!(
                "{} tunes {}, which is off",
                flag(id),
                flag(technique)
            ))),
            None => Ok(()),
        }
    }

    /// Refuses a flag that changes only how the table is used (`--tt-move`, `--etc`,
    /// `--tt-compact`, ...) with `--tt-mb 0`, as an experiment file refuses its key.
    fn check_table_flags(&self) -> Result<(), Failure> {
        let searcher = self.searcher();
        if searcher.mcts.is_some() || !plylab::lab::spec::has_no_table(&searcher.config) {
            return Ok(());
        }
        // `--tt-move` is an ordering flag, but it is the ordering's one table key.
        let table_key = |id: &&String| {
            let key = if id.as_str() == "tt_move" {
                "tt_move"
            } else {
                technique_key(id)
            };
            plylab::lab::spec::TABLE_KEYS.contains(&key)
        };
        match self.given.iter().find(table_key) {
            Some(id) => Err(Failure::bad_input(format!(
                "{} changes how the transposition table is used, and --tt-mb 0 turns it off",
                flag(id)
            ))),
            None => Ok(()),
        }
    }

    /// Whether the flag of this id was given on the command line.
    fn given(&self, id: &str) -> bool {
        self.given.iter().any(|g| g == id)
    }

    /// Refuses flags the chosen algorithm does not read, as an experiment file refuses their
    /// keys, rather than quietly ignoring them: the alpha-beta family's for a Monte Carlo
    /// search, several threads for a one-thread algorithm, `--split-plies` but for ybw, the
    /// lazy SMP schedules but for lazy_smp.
    fn check_algorithm_flags(&self) -> Result<(), Failure> {
        let algorithm = self
            .algorithm
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned());
        let searcher = self.searcher();
        if searcher.mcts.is_some()
            && let Some(id) = ALPHA_BETA_FLAGS.iter().find(|id| self.given(id))
        {
            return Err(Failure::bad_input(format!(
                "{} is for the alpha-beta family; a Monte Carlo search (--algorithm {algorithm}) does not use it",
                flag(id)
            )));
        }
        let reads = |id: &str| plylab::lab::spec::reads_key(searcher.config.algorithm, id);
        if searcher.mcts.is_none()
            && let Some(id) = ALPHA_BETA_FLAGS
                .iter()
                .filter(|&&id| id != "tt_mb" || self.tt_mb > 0)
                .find(|id| self.given(id) && !reads(technique_key(id)))
        {
            return Err(Failure::bad_input(format!(
                "{} does nothing in --algorithm {algorithm}",
                flag(id)
            )));
        }
        let parallel = searcher.searches_in_parallel();
        let scoped = [
            (
                "threads",
                self.threads > 1 && !parallel,
                "lazy_smp, ybw, root_parallel, tree_parallel or tree_parallel_locked",
            ),
            (
                "split_plies",
                !matches!(self.algorithm, AlgorithmName::Ybw),
                "ybw",
            ),
            (
                "helper_depths",
                !matches!(self.algorithm, AlgorithmName::LazySmp),
                "lazy_smp",
            ),
            (
                "main_depths",
                !matches!(self.algorithm, AlgorithmName::LazySmp),
                "lazy_smp",
            ),
        ];
        if let Some((id, _, which)) = scoped
            .iter()
            .find(|(id, wrong, _)| *wrong && self.given(id))
        {
            return Err(Failure::bad_input(format!(
                "{} is for --algorithm {which}, not {algorithm}",
                flag(id)
            )));
        }
        Ok(())
    }

    /// Refuses `--eval` and `--oracle` on a game that has no such choice (chess's
    /// evaluations are chess's, pubeval and the race evaluation backgammon's; the oracle
    /// orders random trees), rather than quietly searching with the game's own, and a
    /// technique the game gives nothing to work on (`GameKind::idle_technique`).
    fn check_game_flags(&self, game: GameName) -> Result<(), Failure> {
        let kind = GameKind::from(game);
        let eval_fits = match self.eval {
            EvalName::Material | EvalName::Shannon | EvalName::Pst => kind == GameKind::Chess,
            EvalName::Pubeval | EvalName::Race => kind == GameKind::Backgammon,
        };
        if self.given("eval") && !eval_fits {
            let name = self
                .eval
                .to_possible_value()
                .map_or_else(String::new, |v| v.get_name().to_owned());
            return Err(Failure::bad_input(format!(
                "--eval {name} is not an evaluation of {kind} (chess: material, shannon, pst; backgammon: pubeval, race; the other games have their own)"
            )));
        }
        if self.given("oracle") && kind != GameKind::RandomTree {
            return Err(Failure::bad_input(format!(
                "--oracle orders random trees by their true values; {kind} has none"
            )));
        }
        if let Some((key, why)) = kind.idle_technique(&self.searcher().config) {
            // `--pons` turns on the threats ordering among its switches.
            let by = if self.given(key) {
                ""
            } else {
                " (set by --pons)"
            };
            return Err(Failure::bad_input(format!(
                "{}{by} does nothing here: {why}",
                flag(key)
            )));
        }
        Ok(())
    }

    /// Refuses more threads than Young Brothers Wait has split points for, as an experiment
    /// file's `threads` is refused, rather than quietly searching with fewer.
    fn check_ybw_threads(&self) -> Result<(), Failure> {
        let most = plylab::search::ybw::MAX_THREADS;
        if matches!(self.algorithm, AlgorithmName::Ybw) && self.threads as usize > most {
            return Err(Failure::bad_input(format!(
                "--threads {}: --algorithm ybw searches on at most {most} threads",
                self.threads
            )));
        }
        Ok(())
    }

    /// Refuses a Monte Carlo search without a playout or time budget, and an exploration
    /// constant that is negative or for no Monte Carlo search.
    fn check_monte_carlo(&self) -> Result<(), Failure> {
        let mc = self.searcher().mcts.is_some();
        for (flag, given) in [
            ("--exploration", self.exploration.is_some()),
            ("--playout-cutoff", self.playout_cutoff.is_some()),
        ] {
            if given && !mc {
                return Err(Failure::bad_input(format!(
                    "{flag} is for --algorithm uct, flat, root_parallel, tree_parallel or tree_parallel_locked"
                )));
            }
        }
        if let Some(c) = self.exploration {
            if matches!(self.algorithm, AlgorithmName::Flat) {
                return Err(Failure::bad_input(
                    "--exploration is for the tree searches: flat spreads its playouts evenly",
                ));
            }
            plylab::search::mcts::check_exploration(c)
                .map_err(|why| Failure::bad_input(format!("--exploration {why}")))?;
        }
        if (self.hold_depth.is_some() || self.hold_playouts.is_some())
            && !matches!(self.algorithm, AlgorithmName::TreeParallel)
        {
            return Err(Failure::bad_input(
                "--hold-depth and --hold-playouts are for --algorithm tree_parallel",
            ));
        }
        let tree_search = mc && !matches!(self.algorithm, AlgorithmName::Flat);
        for (given, flag) in [
            (self.expand_visits.is_some(), "--expand-visits"),
            (self.tree_mb.is_some(), "--tree-mb"),
        ] {
            if given && !tree_search {
                return Err(Failure::bad_input(format!(
                    "{flag} is for --algorithm uct, root_parallel, tree_parallel or tree_parallel_locked"
                )));
            }
        }
        if mc && self.nodes.is_none() && self.time_ms.is_none() {
            return Err(Failure::bad_input(
                "a Monte Carlo search needs a budget: --nodes (playouts) or --time-ms",
            ));
        }
        Ok(())
    }

    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.time_ms.map(Duration::from_millis),
        }
    }
}

/// The configuration `plylab uci` plays, a searcher of `--config` or the flags: the
/// alpha-beta family only, and none of the searches of games with chance nodes (chess has
/// none), which would otherwise quietly play alpha-beta; nor a `--config` searcher of
/// another game, another game's evaluation (a backgammon `--eval`) or an `--oracle`, which
/// would otherwise quietly play with the default chess evaluation.
fn uci_searcher(args: &UciArgs) -> Result<SearcherVariant, String> {
    let searcher = match (&args.config, &args.searcher) {
        (Some(file), Some(name)) => {
            check_flags_beside_config(&args.techniques, file, name)?;
            plylab::uci::searcher_from_file(file, name)?
        }
        _ => args.techniques.searcher(),
    };
    if searcher.mcts.is_some() {
        return Err(
            "uci plays the alpha-beta family only: a Monte Carlo algorithm is for search and suite"
                .to_owned(),
        );
    }
    if searcher.config.algorithm.searches_chance() {
        return Err(format!(
            "algorithm {} searches games with chance nodes, and chess has none",
            searcher.config.algorithm
        ));
    }
    if searcher.config.solve.weak {
        // Its root window (-1, 1) proves only who wins: every move scores as well as any
        // other until one is proven to win, so the engine would play the first it tried.
        return Err(
            "the weak solver (`weak`) proves only a result's sign, so it cannot choose a move to play"
                .to_owned(),
        );
    }
    if args.config.is_none() {
        args.techniques.check().map_err(|f| f.message)?;
        args.techniques
            .check_game_flags(GameName::Chess)
            .map_err(|f| f.message)?;
    }
    let chess_eval = match searcher.eval {
        EvalSetting::Material | EvalSetting::Shannon | EvalSetting::Pst => true,
        EvalSetting::Linear(id) => id.kind() == plylab::games::linear::LinearKind::Chess,
        EvalSetting::Pubeval | EvalSetting::Race => false,
    };
    if !chess_eval {
        return Err(format!(
            "`{}`'s evaluation `{}` is not a chess evaluation, and uci plays chess",
            searcher.label, searcher.eval
        ));
    }
    Ok(searcher)
}

/// Refuses a technique flag beside `uci --config`, whose searcher the file configures: it
/// would be dropped, and the engine would play otherwise than the command line says. The
/// limits (`--depth`, `--nodes`, `--time-ms`) are the engine's own and stay.
fn check_flags_beside_config(
    techniques: &Techniques,
    file: &std::path::Path,
    name: &str,
) -> Result<(), String> {
    let own = ["searcher", "config", "depth", "nodes", "time_ms"];
    match techniques
        .given
        .iter()
        .find(|id| !own.contains(&id.as_str()))
    {
        Some(id) => Err(format!(
            "{} is a technique flag, and --config {} configures searcher `{name}`: set it in the file",
            flag(id),
            file.display()
        )),
        None => Ok(()),
    }
}

#[derive(Args)]
struct SearchArgs {
    /// The game.
    #[arg(value_enum)]
    game: GameName,
    /// The position: `start`, moves (connect four `4453`, tic-tac-toe `519`), FEN (chess),
    /// PDN FEN (checkers, `B:W21-32:B1-12`), for random trees
    /// `b=4,d=8,seed=1[,model=iid|incremental][,path=0.2]`, for chance trees
    /// `b=3,d=5,chance=dice|K[,lo=-1000,hi=1000,seed=1]`, for othello the 64-character
    /// board `a1`..`h8` (`X`, `O`, `-`) and the side to move (`X` or `O`), for backgammon
    /// `start` or a GNU Backgammon Position ID, the roll to play and `;`-separated moves
    /// (`start 31; 8/5 6/5`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    #[command(flatten)]
    techniques: Techniques,
}

#[derive(Args)]
struct SuiteArgs {
    /// The game.
    #[arg(value_enum)]
    game: GameName,
    /// The test set: EPD for chess (`bm`, `am`, `ce`), .obf for othello, else `<position>
    /// <known score>` per line (Pons's connect-four format).
    file: PathBuf,
    /// Only the first N positions (N ≥ 1).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    take: Option<u64>,
    /// Worker threads, 1-256 [default: the number of cores]. With 1, the positions are
    /// searched on the main thread, which also writes their rows, as a single-threaded
    /// solver would.
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Also write one CSV row per position here, as each finishes: its final iteration,
    /// with `solved`, the total work and the depth, nodes and time at which the final
    /// answer first appeared.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Keep the rows already in the --csv file (an interrupted run) and search only the
    /// positions they lack, appending theirs. Rows another search wrote (another set,
    /// limit, seed, algorithm, thread count or technique) are refused.
    #[arg(long, requires = "csv", conflicts_with = "force")]
    resume: bool,
    /// Replace a --csv file that already holds something (without it, or --resume, such a
    /// file is refused).
    #[arg(long, requires = "csv")]
    force: bool,
    /// Skip malformed records of the test set (each is named on stderr and counted)
    /// instead of refusing the file.
    #[arg(long)]
    skip_invalid: bool,
    /// Wipe the whole transposition table between positions, outside the timed search, as
    /// Pons's solver does (his `reset()`); it leaves the table in the cache for the search
    /// that follows. Default: wipe only what the last position wrote, which costs less wall
    /// time on sets of small searches. Refused without a table (--tt-mb 0, Monte Carlo).
    #[arg(long)]
    wipe_table: bool,
    #[command(flatten)]
    techniques: Techniques,
}

#[derive(Args)]
struct PerftArgs {
    /// The game.
    #[arg(value_enum)]
    game: GameName,
    /// The position (as for `search`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Plies (at most 5000).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_DEPTH)))]
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
    let command = Cli::command();
    let matches = command.clone().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let given = matches.subcommand().and_then(|(name, sub)| {
        let subcommand = command.find_subcommand(name)?;
        Some(given_flags(subcommand, sub))
    });
    if let (Some(techniques), Some(given)) = (cli.command.techniques(), given) {
        techniques.given = given;
    }
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
        Command::Merge(args) => run_merge(&args),
        Command::Slurm(args) => run_slurm(&args),
        Command::Uci(args) => uci_searcher(&args)
            .map_err(Failure::bad_input)
            .and_then(|s| {
                plylab::uci::run_stdio(&s, args.techniques.limits()).map_err(Failure::failed)
            }),
        Command::Tablebase { action } => tablebase(&action),
        Command::Book { action } => book(&action),
        Command::Learn(args) => run_learn(&args),
    };
    match outcome {
        Ok(()) if plylab::output::stdout_failed() => {
            tell!("error: some of the output to stdout could not be written");
            ExitCode::from(1)
        }
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            tell!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn run_learn(args: &LearnArgs) -> Result<(), Failure> {
    use plylab::learn::{LearnError, LearnOptions, run};
    let options = LearnOptions {
        out: args.out.clone(),
        weights_dir: args.weights_dir.clone(),
        restart: args.restart,
        force: args.force,
        progress: !args.quiet,
        charts: !args.no_plot,
        stop_after: args.stop_after,
    };
    let report = run(&args.file, &options).map_err(|e| match e {
        LearnError::BadInput(m) => Failure::bad_input(m),
        LearnError::Failed(m) => Failure::failed(m),
        LearnError::Interrupted(m) => {
            // The same command resumes from the checkpoint; --restart would throw it away.
            let mut again: Vec<String> = std::env::args().collect();
            again.retain(|a| a != "--restart");
            Failure {
                code: plylab::interrupt::exit_code(),
                message: format!("{m}. Resume with:\n  {}", shell_words(&again)),
            }
        }
    })?;
    say!(
        "wrote {} and {}: loss {:.6} -> {:.6} in {:.1} s",
        report.weights_path.display(),
        report.out.display(),
        report.first_loss,
        report.last_loss,
        report.seconds
    );
    Ok(())
}

/// A knowledge command's error with its exit code: 2 for bad input, 130 for Ctrl-C, 1
/// otherwise.
fn command_failure(e: plylab::knowledge::commands::CommandError) -> Failure {
    use plylab::knowledge::commands::CommandError;
    match e {
        CommandError::BadInput(m) => Failure::bad_input(m),
        CommandError::Failed(m) => Failure::failed(m),
        CommandError::Interrupted(message) => Failure {
            code: plylab::interrupt::exit_code(),
            message,
        },
    }
}

fn tablebase(action: &TablebaseAction) -> Result<(), Failure> {
    use plylab::knowledge::commands;
    match action {
        TablebaseAction::Build {
            game,
            ending,
            out,
            force,
        } => commands::build_tablebase(game, ending, out.as_deref(), *force),
        TablebaseAction::Probe { file, fen } => commands::probe_tablebase(file, fen),
    }
    .map_err(command_failure)
}

fn book(action: &BookAction) -> Result<(), Failure> {
    match action {
        BookAction::Build(args) => build_book(args),
        BookAction::Probe { file, fen } => plylab::knowledge::commands::probe_book(file, fen),
    }
    .map_err(command_failure)
}

/// `book build`: a chess book from PGN or a connect-four book by search. A flag of the other
/// game's builder is refused rather than ignored.
fn build_book(args: &BookBuildArgs) -> Result<(), plylab::knowledge::commands::CommandError> {
    use plylab::knowledge::commands::{self, CommandError};
    let game = args.game.as_str();
    let connect4_flags = [
        ("--positions", args.positions.is_some()),
        ("--depth", args.depth.is_some()),
        ("--omega", args.omega.is_some()),
        ("--from", args.from.is_some()),
    ];
    let chess_flags = [
        ("--pgn", args.pgn.is_some()),
        ("--max-ply", args.max_ply.is_some()),
    ];
    let (others, whose) = match game {
        "chess" => (&connect4_flags[..], "connect4"),
        "connect4" => (&chess_flags[..], "chess"),
        _ => (&[][..], ""),
    };
    if let Some((flag, _)) = others.iter().find(|(_, given)| *given) {
        return Err(CommandError::BadInput(format!(
            "book build {game}: {flag} is for `book build {whose}`"
        )));
    }
    if let Some(pgn) = args
        .pgn
        .as_deref()
        .filter(|p| plylab::input::same_file(&args.out, p))
    {
        return Err(CommandError::BadInput(format!(
            "book build: --out {} is the PGN being read; give another file for the book",
            pgn.display()
        )));
    }
    match (game, &args.pgn) {
        ("chess", Some(pgn)) => {
            commands::build_chess_book(pgn, &args.out, args.max_ply.unwrap_or(1024), args.force)
        }
        ("chess", None) => Err(CommandError::BadInput(
            "book build chess: --pgn FILE is needed (the games the book is made from)".into(),
        )),
        ("connect4", _) => commands::build_connect4_book(
            args.from.as_deref().unwrap_or("start"),
            &args.out,
            args.positions.unwrap_or(200),
            args.depth.unwrap_or(8),
            args.omega.unwrap_or(4),
            args.force,
        ),
        _ => Err(CommandError::BadInput(format!(
            "book build: game `{game}` has no book builder here (chess: --pgn FILE; connect4)"
        ))),
    }
}

/// A learning file given where an experiment or a match is expected: said as such, not as
/// the first key an experiment lacks.
fn refuse_learning_file(file: &std::path::Path, text: &str) -> Result<(), Failure> {
    if plylab::learn::is_learning(text) {
        return Err(Failure::bad_input(format!(
            "{}: a learning file (it has `method`), not an experiment: run `plylab learn {}`",
            file.display(),
            file.display()
        )));
    }
    Ok(())
}

fn experiment(args: &ExperimentArgs) -> Result<(), Failure> {
    // Unreadable here, it is read again by spec::load, which says why.
    let text = plylab::input::read_text(&args.file, plylab::input::Cap::TEXT).unwrap_or_default();
    if plylab::arena::spec::is_arena(&text) {
        return arena(args);
    }
    refuse_learning_file(&args.file, &text)?;
    let mut plan = spec::load(&args.file).map_err(Failure::bad_input)?;
    let mut out = args.out.clone();
    if args.quick {
        plan = plan.quick();
        out = out.or_else(|| Some(std::path::Path::new("target/quick").join(&plan.name)));
    }
    let shard = args
        .shard
        .map(|s| ShardRecord::of_plan(&plan, s, args.quick));
    let last = |s| ShardRecord::of_plan(&plan, s, args.quick);
    refuse_empty_shard(shard.as_ref(), last, &args.file)?;
    if args.dry_run {
        // A shard's jobs only, with their ids in the whole plan.
        if let Some(shard) = &shard {
            plan.jobs.retain(|j| shard.holds(j.id));
        }
        let threads = args
            .jobs
            .map_or_else(plylab::lab::machine::cores, |j| j as usize);
        // As the run would refuse it: a dry run that passes promises a run that starts.
        runner::check_tables_fit(&plan.jobs.iter().collect::<Vec<_>>(), threads)
            .map_err(run_failure)?;
        let budget_at = |t| plylab::cluster::shard::budget_seconds(&plan.jobs, t);
        let earlier = earlier_run(&plan.name, &plan.file, args.out.as_deref(), args.quick);
        let estimate = EstimateLine {
            budget_at: &budget_at,
            count: plan.jobs.len(),
            threads,
            unit: "jobs",
            bound_means: "every job spending its whole time limit, `exclusive` ones one at a \
                          time",
        };
        return print_stdout(|out| {
            runner::describe_jobs(&plan, out)?;
            writeln!(out, "{}", estimate.line(earlier.as_ref()))
        });
    }
    let options = run_options(args, out);
    let threads = options.jobs.unwrap_or_else(machine::cores);
    tell!(
        "{}: {} jobs{} on {threads} thread{} -> {}",
        plan.name,
        shard.as_ref().map_or(plan.jobs.len(), |s| s.jobs.len()),
        args.shard
            .map_or(String::new(), |s| format!(" (shard {s})")),
        if threads == 1 { "" } else { "s" },
        runner::output_dir(&plan, &options).display()
    );
    let report = runner::run_jobs(&plan, &options, shard.as_ref()).map_err(run_failure)?;
    say!(
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
    let drawn = draw_after_run(&report.out)?;
    say!(
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

/// The finished run of experiment `name` (read from `file`) recorded in `out` (when given),
/// else in its default directory (runs/<name>, where a run without `--out` writes), else in
/// results/<name> (the committed results) of the working directory or beside the
/// experiment file's folder (experiments/ and results/ are siblings: a dry run from another
/// directory finds them too), for `--dry-run`'s estimate; for a `--quick` dry run, a quick
/// run in `out` or target/quick/<name> (a full run's time says little of a reduced one's,
/// nor the reverse).
fn earlier_run(
    name: &str,
    file: &std::path::Path,
    out: Option<&std::path::Path>,
    quick: bool,
) -> Option<(PathBuf, plylab::lab::machine::RunInfo)> {
    let beside = std::fs::canonicalize(file).ok().and_then(|file| {
        let root = file.parent()?.parent()?;
        Some(root.join("results").join(name))
    });
    let defaults = if quick {
        vec![std::path::Path::new("target/quick").join(name)]
    } else {
        let results = std::path::Path::new("results").join(name);
        [runner::default_dir(name), results]
            .into_iter()
            .chain(beside)
            .collect()
    };
    let dirs = out
        .map(std::path::Path::to_path_buf)
        .into_iter()
        .chain(defaults);
    dirs.into_iter().find_map(|dir| {
        let run = plylab::lab::machine::recorded_run(&dir)?;
        let run_quick = run.quick || run.shard.as_ref().is_some_and(|s| s.quick);
        (run.experiment == name
            && run.elapsed_s.is_some()
            && run.job_count > 0
            && run_quick == quick)
            .then_some((dir, run))
    })
}

/// What `--dry-run`'s last line is made from.
struct EstimateLine<'a> {
    /// The estimate from the limits on a number of workers
    /// ([`plylab::cluster::shard::budget_seconds`]).
    budget_at: &'a dyn Fn(usize) -> Option<plylab::cluster::shard::Estimate>,
    /// The jobs (or games) it is for.
    count: usize,
    /// The workers (or games at once) it is for.
    threads: usize,
    /// "jobs" or "games".
    unit: &'a str,
    /// What a bound from the limits assumes, for the line.
    bound_means: &'a str,
}

impl EstimateLine<'_> {
    /// `--dry-run`'s last line: the time an earlier run of the experiment took, scaled to
    /// this plan, if there is one; else the estimate from the limits, said to be a bound
    /// only where it is one.
    fn line(&self, earlier: Option<&(PathBuf, plylab::lab::machine::RunInfo)>) -> String {
        match earlier {
            Some((dir, run)) => self.scaled(dir, run),
            None => self.by_limits(),
        }
    }

    /// The time the earlier `run` in `dir` took, scaled to this plan's jobs and threads.
    fn scaled(&self, dir: &std::path::Path, run: &plylab::lab::machine::RunInfo) -> String {
        let took = run.elapsed_s.unwrap_or(0.0);
        // A shard's run ran its own jobs, not the plan's.
        let ran = run.shard.as_ref().map_or(run.job_count, |s| s.jobs.len());
        let scaled =
            took * self.count as f64 / ran.max(1) as f64 * self.thread_factor(run.jobs.max(1));
        format!(
            "estimated time: {} on {} threads, scaled from the run in {} ({took:.0} s for {} \
             {} on {} threads)",
            plylab::cluster::shard::rough_duration(scaled),
            self.threads,
            dir.display(),
            ran,
            self.unit,
            run.jobs
        )
    }

    /// The estimate from the limits: "at most" only where it is a bound, else a guess and
    /// why.
    fn by_limits(&self) -> String {
        let (threads, unit) = (self.threads, self.unit);
        match (self.budget_at)(threads) {
            Some(e) if e.is_bound() => format!(
                "estimated time: at most {} on {threads} threads ({}; setting each up aside)",
                plylab::cluster::shard::rough_duration(e.seconds),
                self.bound_means
            ),
            Some(e) => format!(
                "estimated time: {} on {threads} threads, a guess and not a bound: {}; --quick \
                 times a reduced run",
                plylab::cluster::shard::rough_duration(e.seconds),
                self.why_a_guess(&e)
            ),
            None => format!(
                "estimated time: none from the limits (some {unit} are bounded only by depth \
                 or by the end of the game); --quick times a reduced run"
            ),
        }
    }

    /// Why estimate `e` is no bound: the jobs timed by their nodes, the judging left out.
    fn why_a_guess(&self, e: &plylab::cluster::shard::Estimate) -> String {
        use plylab::cluster::shard::NODES_PER_SECOND;
        use plylab::lab::runner::JUDGE_NODES;
        let mut why = Vec::new();
        if e.by_nodes > 0 {
            why.push(format!(
                "{} {} have only a node (playout) limit, taken at {NODES_PER_SECOND}/s a \
                 thread, which a search can fall far short of",
                e.by_nodes, self.unit
            ));
        }
        if e.judged > 0 {
            why.push(format!(
                "{} Monte Carlo moves are judged after their search by a solve of up to \
                 {JUDGE_NODES} nodes, left out (up to seconds each)",
                e.judged
            ));
        }
        why.join("; ")
    }

    /// How much longer this plan takes on `self.threads` workers than on `earlier`: as the
    /// estimates from the limits say where there are some (jobs run one at a time,
    /// `exclusive`, take as long on any number), else in inverse proportion.
    fn thread_factor(&self, earlier: usize) -> f64 {
        if earlier == self.threads {
            return 1.0;
        }
        let seconds = |t| (self.budget_at)(t).map(|e| e.seconds).filter(|&s| s > 0.0);
        match (seconds(self.threads), seconds(earlier)) {
            (Some(now), Some(then)) => now / then,
            _ => earlier as f64 / self.threads.max(1) as f64,
        }
    }
}

/// The run options the flags give, writing to `out`.
fn run_options(args: &ExperimentArgs, out: Option<PathBuf>) -> RunOptions {
    RunOptions {
        jobs: args.jobs.map(|j| j as usize),
        out,
        resume: args.resume,
        force: args.force,
        quick: args.quick,
        progress: true,
    }
}

/// The exit code and message of a run that did not end normally: 2 for results it must not
/// mix with, 130 (as for SIGINT) for Ctrl-C, with the exact command that resumes the run.
fn run_failure(e: RunError) -> Failure {
    match e {
        RunError::Resume(m) | RunError::Refused(m) => Failure::bad_input(m),
        RunError::Interrupted {
            out,
            finished,
            total,
            unit,
            file,
        } => Failure {
            code: plylab::interrupt::exit_code(),
            message: format!(
                "interrupted: {finished} of {total} {unit} finished, their rows in {}; \
                 no summary or charts were drawn. Resume with:\n  {}",
                out.join(file).display(),
                resume_command(&out)
            ),
        },
        other => Failure::failed(other),
    }
}

/// The command line of this process with `--resume` (and `--out DIR`) added and `--force`
/// dropped, quoted for a POSIX shell.
fn resume_command(out: &std::path::Path) -> String {
    resume_command_with(Some(("--out", out)))
}

/// The command line of this process with `--resume` added, `--force` dropped and, where
/// given and absent, the flag `(name, path)`, quoted for a POSIX shell.
fn resume_command_with(flag: Option<(&str, &std::path::Path)>) -> String {
    let mut args: Vec<String> = std::env::args().collect();
    args.retain(|a| a != "--force");
    if let Some((name, path)) = flag
        && !args
            .iter()
            .any(|a| a == name || a.starts_with(&format!("{name}=")))
    {
        args.push(name.into());
        args.push(path.display().to_string());
    }
    if !args.iter().any(|a| a == "--resume") {
        args.push("--resume".into());
    }
    shell_words(&args)
}

/// Ctrl-C stopped a suite after `finished` of its `total` positions: their rows are in
/// `csv` (and the command that resumes is given), or nowhere without one.
fn suite_interrupted(finished: usize, total: usize, csv: Option<&std::path::Path>) -> Failure {
    let message = match csv {
        Some(csv) => format!(
            "interrupted: {finished} of {total} positions finished, their rows in {}. Resume \
             with:\n  {}",
            csv.display(),
            resume_command_with(None)
        ),
        None => format!(
            "interrupted: {finished} of {total} positions finished; without --csv FILE their \
             rows are not kept"
        ),
    };
    Failure {
        code: plylab::interrupt::exit_code(),
        message,
    }
}

/// `args` as one command line, each quoted for a POSIX shell where it needs to be.
fn shell_words(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
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
    let shard = args
        .shard
        .map(|s| ShardRecord::of_match(&plan, s, args.quick));
    let last = |s| ShardRecord::of_match(&plan, s, args.quick);
    refuse_empty_shard(shard.as_ref(), last, &args.file)?;
    plan.check_programs().map_err(Failure::bad_input)?;
    if args.dry_run {
        let concurrency = args.jobs.map_or(plan.concurrency, |j| j as usize);
        // A shard's games only, as for an experiment's jobs.
        let games: Vec<usize> = shard
            .as_ref()
            .map_or_else(|| (0..plan.schedule().len()).collect(), |s| s.jobs.clone());
        let slots: Vec<_> = plan
            .schedule()
            .into_iter()
            .filter(|s| shard.as_ref().is_none_or(|sh| sh.holds(s.index)))
            .collect();
        plylab::arena::run::check_tables_fit(&plan, &slots, concurrency).map_err(run_failure)?;
        let budget_at = |c| plylab::cluster::shard::match_budget_seconds(&plan, &games, c);
        let earlier = earlier_run(&plan.name, &plan.file, args.out.as_deref(), args.quick);
        let estimate = EstimateLine {
            budget_at: &budget_at,
            count: games.len(),
            threads: concurrency,
            unit: "games",
            bound_means: "every game played to its last ply, each move at its whole time \
                          limit or clock",
        };
        return print_stdout(|out| {
            plylab::arena::describe(&plan, out)?;
            writeln!(out, "{}", estimate.line(earlier.as_ref()))
        });
    }
    let options = run_options(args, out);
    tell!(
        "{}: {} games{}, {} at once -> {}",
        plan.name,
        shard
            .as_ref()
            .map_or(plan.schedule().len(), |s| s.jobs.len()),
        args.shard
            .map_or(String::new(), |s| format!(" (shard {s})")),
        options.jobs.unwrap_or(plan.concurrency),
        arena_run::output_dir(&plan, &options).display()
    );
    let report = arena_run::run_games(&plan, &options, shard.as_ref()).map_err(|e| match e {
        ArenaError::Run(e) => run_failure(e),
        refused @ ArenaError::Engine { refused: true, .. } => Failure::bad_input(refused),
        other => Failure::failed(other),
    })?;
    say!(
        "{} games played ({} kept from an earlier run, {} skipped after an SPRT verdict, {} under way at it dropped) in {:.1} s -> {}",
        report.played,
        report.kept,
        report.skipped,
        report.dropped,
        report.elapsed_s,
        report.out.join("games.csv").display()
    );
    for s in report.standings.iter().filter(|s| s.kind == "pairing") {
        let t = &s.games;
        say!(
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
        let drawn = draw_after_run(&report.out)?;
        say!("{} charts in {}", drawn.files.len(), report.out.display());
    }
    Ok(())
}

/// Draws the charts and summary.md of a run's results in `out`. A first Ctrl-C waits for them
/// (a few seconds): cut off, a chart would leave its temporary file and the run no summary.
fn draw_after_run(out: &std::path::Path) -> Result<plot::PlotReport, Failure> {
    let _catching = plylab::interrupt::Catching::new(true);
    plot::plot_dir(out, &Format::ALL).map_err(Failure::failed)
}

fn run_merge(args: &MergeArgs) -> Result<(), Failure> {
    use plylab::cluster::merge::{MergeError, merge};
    let report = merge(&args.dirs, &args.out, args.force).map_err(|e| match e {
        MergeError::Refused(m) => Failure::bad_input(m),
        MergeError::Run(e) => Failure::failed(e),
    })?;
    say!(
        "{} shards merged: {} {} -> {}",
        report.shards,
        report.jobs,
        if report.arena { "games" } else { "jobs" },
        report.out.display()
    );
    if !args.no_plot {
        let drawn = draw_after_run(&report.out)?;
        say!(
            "{} files drawn in {}",
            drawn.files.len(),
            report.out.display()
        );
    }
    Ok(())
}

/// A shard with nothing to run is a mistake in `--shard` (more shards than jobs, or than a
/// match's pairs of games, as `slurm --tasks` refuses), not an empty result.
fn refuse_empty_shard(
    shard: Option<&ShardRecord>,
    last: impl FnOnce(Shard) -> ShardRecord,
    file: &std::path::Path,
) -> Result<(), Failure> {
    // Shards are dealt in order: if any holds nothing, the last does. Every shard is
    // refused then, not only the empty ones, so that no run starts that could never merge.
    let Some(s) = shard else {
        return Ok(());
    };
    let last_shard = Shard {
        index: s.count,
        count: s.count,
    };
    if s.jobs.is_empty() || last(last_shard).jobs.is_empty() {
        return Err(Failure::bad_input(format!(
            "--shard {}: {} has too few jobs (or pairs of games) for {} shards, some of \
             which would hold none: give fewer shards",
            s.shard(),
            file.display(),
            s.count,
        )));
    }
    Ok(())
}

fn run_slurm(args: &SlurmArgs) -> Result<(), Failure> {
    use plylab::cluster::slurm::{self, SlurmJob};
    // Unreadable here, it is read again by plan_facts, which says why.
    let text = plylab::input::read_text(&args.file, plylab::input::Cap::TEXT).unwrap_or_default();
    refuse_learning_file(&args.file, &text)?;
    let facts = slurm::plan_facts(&args.file).map_err(Failure::bad_input)?;
    let tasks = args.tasks as usize;
    if tasks > facts.units {
        return Err(Failure::bad_input(format!(
            "--tasks {tasks}: {} has only {} jobs (or game pairs) to share out",
            args.file.display(),
            facts.units
        )));
    }
    if let Some(t) = &args.time {
        slurm::check_time(t).map_err(Failure::bad_input)?;
    }
    for (flag, value) in [("partition", &args.partition), ("account", &args.account)] {
        if let Some(v) = value {
            slurm::check_name(flag, v).map_err(Failure::bad_input)?;
        }
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| runner::default_dir(&facts.name));
    slurm::check_directive_path("out", &out).map_err(Failure::bad_input)?;
    // Slurm opens the tasks' log files but does not create their directory. A file in the
    // way is the command line's mistake; a directory that cannot be made, the machine's.
    if let Some(file) = out.ancestors().find(|a| a.is_file()) {
        return Err(Failure::bad_input(format!(
            "--out {}: {} is a file, not a directory",
            out.display(),
            file.display()
        )));
    }
    let logs = out.join("logs");
    std::fs::create_dir_all(&logs)
        .map_err(|e| Failure::failed(format!("{}: {e}", logs.display())))?;
    let binary = match &args.binary {
        Some(b) => b.clone(),
        None => std::env::current_exe().map_err(Failure::failed)?,
    };
    let job = SlurmJob {
        name: facts.name,
        file: args.file.clone(),
        tasks,
        throttle: args.throttle.map(|k| k as usize),
        cpus_per_task: facts.widest,
        time: args.time.clone(),
        partition: args.partition.clone(),
        account: args.account.clone(),
        out,
        binary,
    };
    print_stdout(|out| std::io::Write::write_all(out, slurm::script(&job).as_bytes()))
}

fn run_plot(args: &PlotArgs) -> Result<(), Failure> {
    let formats: Vec<Format> = if args.format.is_empty() {
        Format::ALL.to_vec()
    } else {
        args.format.iter().map(|&f| f.into()).collect()
    };
    let start = std::time::Instant::now();
    let dir = if args.path.is_dir() {
        args.path.as_path()
    } else {
        // A bare file name's parent is "": the working directory, told as ".".
        args.path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."))
    };
    // Without run.json the summary says it knows no machine or command; with a damaged one
    // it would say the same of a run that recorded them: refused, as a match's is.
    let json = dir.join("run.json");
    let run = plot::data::RunInfo::read(&json);
    if json.exists() && (!run.found || !run.mistyped.is_empty()) {
        let what = if run.found {
            let keys: Vec<String> = run.mistyped.iter().map(|k| format!("`{k}`")).collect();
            format!("the type of {} is not what", keys.join(", "))
        } else {
            "not the JSON object".into()
        };
        return Err(Failure::bad_input(format!(
            "{}: {what} `plylab experiment` writes (damaged?): restore it, or remove it to \
             plot without the run's machine and command",
            json.display()
        )));
    }
    // A match's files are read with its run.json, from its directory.
    let name = args
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    if args.path.is_file()
        && let Some(name) = name.filter(|n| n.starts_with("games.csv") || n == "standings.csv")
    {
        return Err(Failure::bad_input(format!(
            "{}: a match's {name} is drawn from its directory, with its run.json: plylab plot {}",
            args.path.display(),
            dir.display()
        )));
    }
    // A match's summary and standings come from its games, not from a chart's CSV.
    let redrawn = if args.path.is_dir() && plylab::arena::redraw::is_match_dir(&args.path) {
        plylab::arena::redraw::redraw(&args.path).map_err(run_failure)?
    } else {
        Vec::new()
    };
    let report = if args.path.is_dir() {
        plot::plot_dir(&args.path, &formats)
    } else {
        plot::plot_csv(&args.path, dir, &formats)
    }
    .map_err(Failure::bad_input)?;
    say!(
        "{} files written in {:.2} s -> {}",
        redrawn.len() + report.files.len(),
        start.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(())
}

fn parse_position(game: GameName, text: &str) -> Result<GamePosition, Failure> {
    let kind = GameKind::from(game);
    GamePosition::parse(kind, text)
        .map_err(|e| Failure::bad_input(format!("bad {kind} position `{text}`: {e}")))
}

/// Says on stderr that a search of `root` without a limit deepens to the end of the game,
/// and how far that is: from the start of an othello or connect-four game it takes longer
/// than anyone waits, and would look hung.
fn note_unlimited<G: Game>(root: &G, limits: &Limits) {
    let unlimited = limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none();
    if unlimited && root.status() == Status::Ongoing {
        let plies = root
            .remaining_plies()
            .map_or(String::new(), |n| format!(", at most {n} plies from here"));
        tell!(
            "note: no --depth, --nodes or --time-ms: the search deepens to the end of the \
             game{plies} (Ctrl-C stops it)"
        );
    }
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
        note_unlimited(root, &self.limits);
        let print = |it: &Iteration<G::Move>| say!("{}", info_line(it));
        let result = search_observed(root, eval, &self.config, &self.limits, print);
        match result.last() {
            Some(last) => {
                let best = match (last.best_move, root.status()) {
                    (Some(m), _) => m.to_string(),
                    // A finished position (a draw by the rules, too) has no move to search.
                    (None, Status::Over(outcome)) => format!(
                        "(none: the game is over, {})",
                        plylab::arena::play::rule_reason(root, outcome)
                    ),
                    (None, Status::Ongoing) => "(none)".into(),
                };
                // Only a search that saw the end of the game has an exact game result.
                let exact = score::is_decisive(last.score)
                    || root.remaining_plies().is_some_and(|r| last.depth >= r);
                let in_set = to_set_score(last.score);
                let solved = if exact && in_set != last.score {
                    format!(" (exact; test-set convention: {in_set})")
                } else {
                    String::new()
                };
                say!("bestmove {best} score {}{solved}", score_text(last.score));
            }
            None => say!("no iteration completed"),
        }
        tell!(
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
    args.techniques.check()?;
    args.techniques.check_game_flags(args.game)?;
    let searcher = args.techniques.searcher();
    if let Some(algorithm) = searcher.mcts {
        if position.is_chance() {
            return Err(Failure::bad_input(format!(
                "`{}`: {}",
                args.position,
                plylab::lab::spec::MCTS_AT_CHANCE_ROOT
            )));
        }
        let task = MonteCarloLine {
            algorithm,
            config: searcher.mcts_config,
            limits: args.techniques.limits(),
            threads: searcher.config.threads,
        };
        with_game(&position, searcher.eval_choice(searcher.config.seed), task);
        return Ok(());
    }
    require_limit(&position, &args.techniques.limits())?;
    require_chance_search(&position, &searcher.config)?;
    let task = InfoLines {
        config: searcher.config_for(&position),
        limits: args.techniques.limits(),
    };
    with_game(&position, searcher.eval_choice(searcher.config.seed), task);
    Ok(())
}

/// Runs a Monte Carlo search and prints its root statistics and choice.
struct MonteCarloLine {
    algorithm: MctsAlgorithm,
    config: MctsConfig,
    limits: Limits,
    threads: usize,
}

impl GameTask for MonteCarloLine {
    type Output = ();
    fn run<G: Game, E: Evaluator<G>>(self, root: &G, eval: &E, _: &dyn Fn(Score) -> i32) {
        let budget = MctsBudget {
            iterations: self.limits.nodes,
            time: self.limits.time,
            stop: None,
        };
        let result = self
            .algorithm
            .run(root, eval, &self.config, &budget, self.threads);
        for (mv, visits, mean) in &result.root_visits {
            say!("info move {mv} visits {visits} mean {mean:.3}");
        }
        let best = result.best_move.map_or("(none)".into(), |m| m.to_string());
        say!("bestmove {best}");
        tell!(
            "{} playouts, {} tree nodes in {:.3} s",
            result.playouts,
            result.tree_nodes,
            result.elapsed.as_secs_f64()
        );
        if let Some(note) = result.memory_note(&self.config) {
            tell!("note: {note}");
        }
    }
}

/// A game with chance nodes needs a search over chance, and only such a game takes one.
fn require_chance_search(position: &GamePosition, config: &SearchConfig) -> Result<(), Failure> {
    let kind = position.kind();
    match (kind.has_chance(), config.algorithm.searches_chance()) {
        (true, false) => Err(Failure::bad_input(format!(
            "{kind} has chance nodes: --algorithm {} cannot search them (use expectiminimax, star1 or star2)",
            config.algorithm
        ))),
        (false, true) => Err(Failure::bad_input(format!(
            "--algorithm {} searches games with chance nodes, and {kind} has none",
            config.algorithm
        ))),
        _ => Ok(()),
    }
}

/// Chess, checkers and backgammon have no bound on their length: a search there needs a
/// depth, node or time limit.
fn require_limit(position: &GamePosition, limits: &Limits) -> Result<(), Failure> {
    if position.kind().search_never_ends(limits) {
        return Err(Failure::bad_input(format!(
            "a {} search needs a limit: --depth, --nodes or --time-ms (--movetime)",
            position.kind()
        )));
    }
    Ok(())
}

fn run_suite(args: &SuiteArgs) -> Result<(), Failure> {
    // More than the address space holds is as good as all of them.
    let take = args.take.map(|t| usize::try_from(t).unwrap_or(usize::MAX));
    let loaded = test_set::read_checked(args.game.into(), &args.file, take, args.skip_invalid)
        .map_err(Failure::bad_input)?;
    for skipped in &loaded.skipped {
        tell!("skipped: {skipped}");
    }
    let positions = loaded.entries;
    args.techniques.check()?;
    args.techniques.check_game_flags(args.game)?;
    if let Some(first) = positions.first() {
        require_limit(&first.position, &args.techniques.limits())?;
    }
    let threads = args.jobs.map_or_else(machine::cores, |j| j as usize);
    // Named by its limits as a sweep variant is (`cli[depth=5]`): every row then says what
    // searched it, and a resumed file must have been written by the same search.
    let mut searcher = args.techniques.searcher();
    searcher.add_swept(&args.techniques.limits().assignments());
    if args.wipe_table && (searcher.mcts.is_some() || searcher.config.tt_mb == 0) {
        return Err(Failure::bad_input(
            "--wipe-table wipes the workers' transposition tables between positions, and this search has none (--tt-mb 0, or a Monte Carlo algorithm)",
        ));
    }
    // Each worker searches with a table of its own.
    let workers = threads.min(positions.len()).max(1);
    if searcher.mcts.is_none() {
        let mb = searcher.config.tt_mb as u64 * workers as u64;
        runner::tables_fit(mb, workers).map_err(Failure::bad_input)?;
    }
    if let Some(csv) = args
        .csv
        .as_deref()
        .filter(|c| plylab::input::same_file(c, &args.file))
    {
        return Err(Failure::bad_input(format!(
            "--csv {}: the test set being read; give another file for the rows",
            csv.display()
        )));
    }
    let (done, mut csv) = match &args.csv {
        Some(path) => SuiteCsv::open(path, args.resume, args.force, &positions, &searcher)
            .map(|(done, csv)| (done, Some(csv)))
            .map_err(suite_csv_failure)?,
        None if args.resume => {
            return Err(Failure::bad_input(
                "--resume needs --csv FILE: the rows to resume from",
            ));
        }
        None => (Vec::new(), None),
    };
    let total = positions.len();
    // Each CSV row carries the searcher's columns (searchers.csv's), with the machine's real
    // cores and whether the positions ran alone.
    let searcher_row = plylab::lab::record::SearcherRow::of_variant(&searcher, None).with_machine(
        machine::cores(),
        threads.min(total.max(1)),
        searcher.config.threads,
    );
    let mut progress = SuiteProgress::new(total, done.len());
    let catching = plylab::interrupt::Catching::new(true);
    let report = suite::run(
        positions,
        &searcher,
        args.techniques.limits(),
        threads,
        args.wipe_table,
        done,
        |outcome| {
            if let Some(csv) = &mut csv {
                csv.append(outcome, &searcher_row);
            }
            progress.finished(outcome);
        },
    )
    .map_err(Failure::failed);
    drop(catching);
    let report = report?;
    progress.close();
    if let Some(csv) = &csv {
        csv.check().map_err(suite_csv_failure)?;
    }
    if report.outcomes.len() < total {
        return Err(suite_interrupted(
            report.outcomes.len(),
            total,
            args.csv.as_deref(),
        ));
    }
    if let Some(csv) = csv {
        csv.finish(&report.outcomes, &searcher_row)
            .map_err(suite_csv_failure)?;
    }
    for (position, expected) in report.misses.iter().take(10) {
        let expected = expected.as_ref().map_or("?".into(), ToString::to_string);
        say!("miss: {position} (expected {expected})");
    }
    let lines = report.summary();
    say!("{}: {}", args.file.display(), lines.join("\n  "));
    if !loaded.skipped.is_empty() {
        say!(
            "  {} malformed records skipped (--skip-invalid)",
            loaded.skipped.len()
        );
    }
    Ok(())
}

/// A suite CSV that cannot be used (exit code 2) or written (1).
fn suite_csv_failure(e: SuiteCsvError) -> Failure {
    match e {
        SuiteCsvError::BadInput(message) => Failure::bad_input(message),
        SuiteCsvError::Failed(message) => Failure::failed(message),
    }
}

/// Progress of a suite: a bar on a terminal, else a line per finished position.
struct SuiteProgress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    done: usize,
    exact: usize,
    start: std::time::Instant,
}

impl SuiteProgress {
    fn new(total: usize, done: usize) -> Self {
        let bar = plylab::progress::bar_drawn().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64).with_position(done as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} positions, {msg}, ETA {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        Self {
            bar,
            total,
            done,
            exact: 0,
            start: std::time::Instant::now(),
        }
    }

    fn finished(&mut self, outcome: &suite::Outcome) {
        self.done += 1;
        self.exact += usize::from(outcome.row.solved == Some(true));
        let verdict = match outcome.row.solved {
            Some(true) => "exact",
            Some(false) => "miss",
            None => "searched",
        };
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{} exact", self.exact));
            bar.inc(1);
        } else {
            // Formatted first and written at once: stderr is unbuffered, and `eprintln!`
            // with arguments makes a write for every piece (on the easy sets, most of a
            // suite's time went to those writes).
            let line = format!(
                "[{}/{}] {} {verdict} depth {} nodes {} in {:.3} s ({:.0} s elapsed)\n",
                self.done,
                self.total,
                outcome.row.position,
                outcome.row.depth,
                outcome.total_nodes(),
                outcome.total_seconds(),
                self.start.elapsed().as_secs_f64()
            );
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        }
    }

    fn close(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
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
    // Othello's published table (Aart Bik's) counts a game over before the depth as one
    // leaf; every other game's counts sequences of exactly the depth, as chess's does.
    let (count, note) = if let GamePosition::Othello(o) = &position {
        let (exact, with_early) = o.perft(args.depth);
        let note = format!(
            "; a game over sooner counts as one leaf, as in Bik's table: {exact} sequences of \
             exactly {} plies",
            args.depth
        );
        (with_early, note)
    } else {
        let count = with_game(&position, EvalChoice::default(), Perft(args.depth));
        (count, String::new())
    };
    say!(
        "perft {} = {count} ({:.3} s{note})",
        args.depth,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_bench() {
    let print = |name: &str, line: bench::BenchLine| {
        say!(
            "{name:<36} {:>12} nodes {:>8.3} s {:>12.0} nodes/s",
            line.nodes,
            line.seconds,
            line.nodes_per_second()
        );
    };
    let mut games: Vec<(String, bench::BenchLine)> = Vec::new();
    let total = bench::run(|name, game, line| {
        print(name, line);
        match games.iter_mut().find(|(g, _)| g == game) {
            Some((_, sum)) => *sum += line,
            None => games.push((game.to_string(), line)),
        }
    });
    for (game, line) in &games {
        print(game, *line);
    }
    say!(
        "bench: {} nodes {:.0} nodes/s",
        total.nodes,
        total.nodes_per_second()
    );
}
