//! Runs a [`Plan`]: jobs on a rayon pool, rows appended to searches.csv as each job
//! finishes, run.json describing the run, and at the end the CSV sorted by job so that the
//! same file and seed give the same bytes (timing columns aside) whatever `--jobs` is.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::answer::{Answer, mate_moves};
use super::error::{RunError, csv_err, io};
use super::guard;
use super::machine::Spent;
use super::record::{Row, SearcherRow, derived, link_scaling, mean_branching, nps, round4};
use super::settings::{EvalChoice, EvalSetting};
use super::shards::ShardRecord;
use super::spec::{GamePosition, Job, Plan};
use crate::game::{Evaluator, Game, Neutral, Score, score};
use crate::game::{Outcome, Status};
use crate::games::backgammon::{PipRace, Pubeval};
use crate::games::chance_tree::ChanceTreeValue;
use crate::games::checkers::CheckersEval;
use crate::games::chess::{Material, Pst, Shannon};
use crate::games::connect4::{CentreFirst, pons_score};
use crate::games::othello::{OthelloEval, othello_discs};
use crate::games::random_tree::{Oracle, TreeParams, TreeValue};
use crate::interrupt;
use crate::progress::Progress;
use crate::search::mcts::{MctsAlgorithm, MctsBudget};
use crate::search::smp::{Shared, lazy_smp_observed};
use crate::search::ybw::{ybw, ybw_observed};
use crate::search::{Algorithm, Iteration, Limits, SearchConfig, SearchResult, Searcher, Table};

/// How to run an experiment.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads (default: the number of cores).
    pub jobs: Option<usize>,
    /// Output directory (default `runs/<name>`: see [`default_dir`]).
    pub out: Option<PathBuf>,
    /// Keep the finished jobs of an earlier run in the directory whose configuration is
    /// unchanged, and run only the rest.
    pub resume: bool,
    /// Write into a directory that holds another run's results, replacing them.
    pub force: bool,
    /// The plan is [`Plan::quick`]'s (recorded in run.json, for `--resume`).
    pub quick: bool,
    /// Show progress: a bar on a terminal, plain lines on stderr otherwise.
    pub progress: bool,
}

/// What a run produced.
#[derive(Debug)]
pub struct RunReport {
    /// The output directory.
    pub out: PathBuf,
    /// Jobs run now.
    pub jobs_run: usize,
    /// Jobs kept from an earlier run (`--resume`).
    pub jobs_kept: usize,
    /// Rows in searches.csv.
    pub rows: usize,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
}

/// Refuses a run whose jobs' transposition tables, as many at once as jobs run at once,
/// need more memory than is available: the spec checks each table alone, and a suite of
/// two 15 GB tables on `--jobs 2` woke the out-of-memory killer. Exclusive jobs run alone;
/// Monte Carlo jobs have no table.
///
/// # Errors
/// [`RunError::Refused`] naming the total, the workers and the memory available.
pub fn check_tables_fit(pending: &[&Job], threads: usize) -> Result<(), RunError> {
    let table = |j: &&Job| (j.searcher.mcts.is_none()).then_some(j.searcher.config.tt_mb as u64);
    let (exclusive, shared): (Vec<&Job>, Vec<&Job>) =
        pending.iter().partition(|j| j.searcher.exclusive);
    let mut shared_mb: Vec<u64> = shared.iter().filter_map(table).collect();
    shared_mb.sort_unstable_by(|a, b| b.cmp(a));
    let workers = threads.min(shared_mb.len());
    let at_once: u64 = shared_mb.iter().take(workers).sum();
    let alone = exclusive.iter().filter_map(table).max().unwrap_or(0);
    tables_fit(at_once.max(alone), workers).map_err(RunError::Refused)
}

/// Refuses `mb` MiB of tables held at once by `workers` searches when more than the memory
/// available ([`crate::memory::available_mb`]; no check where it is unknown).
///
/// # Errors
/// A sentence naming the total and the memory available.
pub fn tables_fit(mb: u64, workers: usize) -> Result<(), String> {
    match crate::memory::available_mb() {
        Some(available) if mb > available => Err(format!(
            "the transposition tables of the {workers} searches run at once need {mb} MiB, \
             more than the memory available ({available} MiB: {}): lower --jobs or the \
             table size",
            crate::memory::AVAILABLE_FROM
        )),
        _ => Ok(()),
    }
}

/// Where a run of the experiment (or match) `name` writes without `--out`: `runs/<name>`,
/// a directory of its own that git ignores, so that a run never overwrites the committed
/// `results/<name>` (scripts/regenerate-results.sh writes those, with `--out`).
#[must_use]
pub fn default_dir(name: &str) -> PathBuf {
    Path::new("runs").join(name)
}

/// The output directory of `plan` under `options`.
#[must_use]
pub fn output_dir(plan: &Plan, options: &RunOptions) -> PathBuf {
    options
        .out
        .clone()
        .unwrap_or_else(|| default_dir(&plan.name))
}

/// Runs every job of `plan` and writes searches.csv and run.json.
pub fn run(plan: &Plan, options: &RunOptions) -> Result<RunReport, RunError> {
    run_jobs(plan, options, None)
}

/// Runs the jobs of `plan` that `shard` holds (all of them without one) and writes
/// searches.csv, searchers.csv and run.json, which records the shard.
///
/// A directory holding results is refused unless `resume` or `force` (see
/// [`super::guard`]). Ctrl-C ends the run with [`RunError::Interrupted`] once the running
/// jobs have written their rows.
pub fn run_jobs(
    plan: &Plan,
    options: &RunOptions,
    shard: Option<&ShardRecord>,
) -> Result<RunReport, RunError> {
    let started = Instant::now();
    let _catching = interrupt::Catching::new(options.progress);
    let out = output_dir(plan, options);
    guard::check_out(&out, options.resume, options.force)?;
    let mut lock = guard::DirLock::take(&out)?;
    let csv_path = out.join("searches.csv");
    let selected = |id: usize| shard.is_none_or(|s| s.holds(id));
    let kept = kept_rows(plan, options, shard, &out, &csv_path)?;
    let searchers =
        super::record::searcher_rows(plan.jobs.iter().filter(|j| selected(j.id)), &plan.jobs)
            .map_err(RunError::Refused)?;
    let done: std::collections::HashSet<usize> = kept.iter().map(|r| r.job).collect();
    let pending: Vec<&Job> = plan
        .jobs
        .iter()
        .filter(|j| selected(j.id) && !done.contains(&j.id))
        .collect();
    let threads = options
        .jobs
        .unwrap_or_else(crate::lab::machine::cores)
        .max(1);
    check_tables_fit(&pending, threads)?;
    guard::create(&out)?;
    lock.hold(&out)?;
    guard::clear_outputs(&out, options.force && !options.resume)?;
    let record = RunRecord::start(plan, &out, threads, shard, options, started)?;
    let sink = Mutex::new(CsvSink::open(&csv_path, &kept)?);
    let finished = run_pending(&pending, threads, searchers, &out, &sink, &record, options)?;
    if finished < pending.len() {
        record.write(Spent::Interrupted(record.seconds()))?;
        return Err(RunError::Interrupted {
            out,
            finished: finished + done.len(),
            total: pending.len() + done.len(),
            unit: "jobs",
            file: "searches.csv",
        });
    }
    let rows = sink
        .into_inner()
        .expect("a writer panicked")
        .finish(&plan.jobs)?;
    let elapsed_s = started.elapsed().as_secs_f64();
    record.write(Spent::Finished(record.seconds()))?;
    Ok(RunReport {
        out,
        jobs_run: pending.len(),
        jobs_kept: done.len(),
        rows,
        elapsed_s,
    })
}

/// The rows of the finished jobs an earlier run left in `csv_path` that this run keeps
/// (`--resume`: those of `shard`'s jobs whose configuration is unchanged); none otherwise.
fn kept_rows(
    plan: &Plan,
    options: &RunOptions,
    shard: Option<&ShardRecord>,
    out: &Path,
    csv_path: &Path,
) -> Result<Vec<Row>, RunError> {
    if !options.resume {
        return Ok(Vec::new());
    }
    guard::check_same_shard(out, shard)?;
    guard::check_same_name(out, &plan.name)?;
    guard::restore_rows(csv_path)?;
    Ok(guard::kept_rows(plan, out, csv_path)?
        .into_iter()
        .filter(|r| shard.is_none_or(|s| s.holds(r.job)))
        .collect())
}

/// Runs `pending` (the shared jobs on a pool of at most `threads` workers, then the
/// exclusive ones alone), appending each one's rows to `sink` as it finishes, after writing
/// `searchers` to searchers.csv; returns how many finished (fewer after Ctrl-C).
fn run_pending(
    pending: &[&Job],
    threads: usize,
    searchers: Vec<SearcherRow>,
    out: &Path,
    sink: &Mutex<CsvSink>,
    record: &RunRecord<'_>,
    options: &RunOptions,
) -> Result<usize, RunError> {
    let progress = Progress::new(options.progress, pending.len(), "jobs");
    let (shared, exclusive): (Vec<&Job>, Vec<&Job>) =
        pending.iter().partition(|j| !j.searcher.exclusive);
    // No more workers than jobs: thousands of idle rayon workers take seconds to start.
    let workers = threads.min(pending.len()).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .map_err(|_| RunError::Pool(workers))?;
    // Any job on the pool may run beside the widest shared one.
    let widest_shared = shared
        .iter()
        .map(|j| j.searcher.config.threads)
        .max()
        .unwrap_or(1);
    let cores = crate::lab::machine::cores();
    let searchers: Vec<SearcherRow> = searchers
        .into_iter()
        .map(|r| r.with_machine(cores, threads, widest_shared))
        .collect();
    super::record::write_searchers(&out.join("searchers.csv"), &searchers)
        .map_err(csv_err(&out.join("searchers.csv")))?;
    let finished = AtomicUsize::new(0);
    // When run.json last recorded the time so far (none yet).
    let recorded: Mutex<Option<Instant>> = Mutex::new(None);
    let finish = |job: &Job| -> Result<(), RunError> {
        if interrupt::requested() {
            return Ok(());
        }
        let rows = execute_reusing_table(job);
        sink.lock().expect("a writer panicked").append(&rows)?;
        finished.fetch_add(1, AtomicOrdering::SeqCst);
        record_time_so_far(&recorded, || record.write(Spent::SoFar(record.seconds())))?;
        progress.finished(&format!(
            "{} on {}",
            job.searcher.name(),
            job.position.label
        ));
        Ok(())
    };
    // One job per task (`with_max_len(1)`): rayon otherwise runs a run of neighbouring jobs
    // on one worker as a block that an idle worker cannot take a job from, so the slow jobs
    // of one searcher could end the run on one core while the others wait. With every job
    // stealable, a worker is never idle while a job waits, and the shared jobs take at most
    // their time spread over the workers plus the longest one (Graham 1969), the bound
    // `--dry-run` prints (`cluster::shard::budget_seconds`).
    let ran = pool
        .install(|| {
            shared
                .par_iter()
                .with_max_len(1)
                .try_for_each(|job| finish(job))
        })
        .and_then(|()| exclusive.iter().try_for_each(|job| finish(job)));
    progress.finish();
    ran?;
    Ok(finished.into_inner())
}

/// What run.json records of an experiment's run, written as it starts, as jobs finish,
/// and at its end: a resumed run counts the time of the runs it continues and their
/// commits.
struct RunRecord<'a> {
    plan: &'a Plan,
    out: &'a Path,
    threads: usize,
    shard: Option<&'a ShardRecord>,
    quick: bool,
    /// The `git_commit` to record ([`super::machine::commits_continuing`]).
    commits: String,
    /// Seconds the runs this one continues took (0 for a fresh run).
    earlier_s: f64,
    started: Instant,
}

impl<'a> RunRecord<'a> {
    /// Reads what an earlier run recorded (with `--resume`; before this run overwrites it)
    /// and writes the run.json of this run, `started` then.
    fn start(
        plan: &'a Plan,
        out: &'a Path,
        threads: usize,
        shard: Option<&'a ShardRecord>,
        options: &RunOptions,
        started: Instant,
    ) -> Result<Self, RunError> {
        let earlier = options
            .resume
            .then(|| super::machine::recorded_run(out))
            .flatten();
        let earlier_s = earlier
            .as_ref()
            .and_then(super::machine::RunInfo::seconds_spent)
            .unwrap_or(0.0);
        let record = Self {
            plan,
            out,
            threads,
            shard,
            quick: options.quick,
            commits: super::machine::commits_continuing(earlier.as_ref()),
            earlier_s,
            started,
        };
        record.write(if earlier_s > 0.0 {
            Spent::SoFar(earlier_s)
        } else {
            Spent::Running
        })?;
        Ok(record)
    }

    /// The seconds spent so far, the earlier runs' included.
    fn seconds(&self) -> f64 {
        self.earlier_s + self.started.elapsed().as_secs_f64()
    }

    fn write(&self, spent: Spent) -> Result<(), RunError> {
        super::machine::write_run_json(
            self.plan,
            self.out,
            self.threads,
            spent,
            self.shard,
            self.quick,
            &self.commits,
        )
    }
}

/// Calls `write` (run.json with the time so far) when a job (or a match's game) has
/// finished, unless it wrote less than a second ago: a run killed outright, which no Ctrl-C
/// handler sees, then still records how long it ran up to its last finished job, for
/// `--resume` to add to its own.
pub(crate) fn record_time_so_far(
    recorded: &Mutex<Option<Instant>>,
    write: impl FnOnce() -> Result<(), RunError>,
) -> Result<(), RunError> {
    let mut last = recorded.lock().expect("a writer panicked");
    if last.is_some_and(|at| at.elapsed() < Duration::from_secs(1)) {
        return Ok(());
    }
    *last = Some(Instant::now());
    write()
}

/// searches.csv while the run goes on: rows appended and flushed per job, kept in memory
/// to be rewritten sorted at the end.
struct CsvSink {
    path: PathBuf,
    writer: csv::Writer<File>,
    rows: Vec<Row>,
}

impl CsvSink {
    /// Starts searches.csv afresh with the `kept` rows (written whole or not at all, so
    /// that a run stopped while it writes them leaves the earlier file), open to append.
    fn open(path: &Path, kept: &[Row]) -> Result<Self, RunError> {
        let writer = if kept.is_empty() {
            // The header goes with the first row.
            csv::Writer::from_path(path).map_err(csv_err(path))?
        } else {
            crate::output::replace(path, |file| super::record::write_csv_rows(file, kept))
                .map_err(io(path))?;
            let file = fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(io(path))?;
            csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(file)
        };
        Ok(Self {
            path: path.to_path_buf(),
            writer,
            rows: kept.to_vec(),
        })
    }

    /// Appends one finished job's rows and flushes them.
    fn append(&mut self, rows: &[Row]) -> Result<(), RunError> {
        for row in rows {
            self.writer.serialize(row).map_err(csv_err(&self.path))?;
        }
        self.writer.flush().map_err(io(&self.path))?;
        self.rows.extend_from_slice(rows);
        Ok(())
    }

    /// Rewrites the file sorted by job and depth (whole or not at all, so an interruption
    /// here leaves the unsorted but complete file).
    fn finish(mut self, jobs: &[Job]) -> Result<usize, RunError> {
        self.rows.sort_by_key(|r| (r.job, r.step, r.depth));
        link_scaling(&mut self.rows, jobs);
        drop(self.writer);
        crate::output::replace(&self.path, |file| {
            super::record::write_csv_rows(file, &self.rows)
        })
        .map_err(io(&self.path))?;
        Ok(self.rows.len())
    }
}

/// Code that runs on any game: [`with_game`] calls it with the concrete game and evaluator
/// types, so everything inside is monomorphized (no dynamic dispatch per node).
pub trait GameTask {
    /// What the task produces.
    type Output;
    /// Runs on `root` with `eval`; `to_set_score` converts a root score to the convention of
    /// the position's test set (Pons's scores for connect four, the score itself elsewhere).
    fn run<G: Game, E: Evaluator<G>>(
        self,
        root: &G,
        eval: &E,
        to_set_score: &dyn Fn(Score) -> i32,
    ) -> Self::Output;
}

/// The one `match` on the game: picks the evaluator for `position` as `eval` says and runs
/// `task` on it.
pub fn with_game<T: GameTask>(position: &GamePosition, eval: EvalChoice, task: T) -> T::Output {
    with_game_pair(position, eval, eval, OneEvaluator(task))
}

/// Code that runs on any game with two evaluators, one per player (the arena: a match
/// between players with different evaluations). [`with_game_pair`] calls it with the
/// concrete types, so everything inside is monomorphized.
pub trait PairTask {
    /// What the task produces.
    type Output;
    /// Runs on `root` with the evaluators `a` and `b`; `to_set_score` as for [`GameTask`].
    fn run<G: Game, A: Evaluator<G>, B: Evaluator<G>>(
        self,
        root: &G,
        a: &A,
        b: &B,
        to_set_score: &dyn Fn(Score) -> i32,
    ) -> Self::Output;
}

/// A [`GameTask`] as a [`PairTask`] that uses the first evaluator only.
struct OneEvaluator<T>(T);

impl<T: GameTask> PairTask for OneEvaluator<T> {
    type Output = T::Output;
    fn run<G: Game, A: Evaluator<G>, B: Evaluator<G>>(
        self,
        root: &G,
        a: &A,
        _: &B,
        to_set_score: &dyn Fn(Score) -> i32,
    ) -> T::Output {
        self.0.run(root, a, to_set_score)
    }
}

/// The one `match` on the game: picks the evaluators for `position` as `a` and `b` say and
/// runs `task` with both: the oracle or not on random trees; chess's material, Shannon or
/// PeSTO; backgammon's pubeval or race; linear weights in chess, connect four, checkers,
/// othello and backgammon. Tic-tac-toe and chance trees have a single evaluator.
pub fn with_game_pair<T: PairTask>(
    position: &GamePosition,
    a: EvalChoice,
    b: EvalChoice,
    task: T,
) -> T::Output {
    let same = |s: Score| s;
    match position {
        GamePosition::TicTacToe(p) => task.run(p, &Neutral, &Neutral, &same),
        GamePosition::Connect4(p) => {
            let to_set = |s| pons_score(p, s).unwrap_or(i32::MIN);
            // Linear weights (validated as connect four's when the file was read).
            let linear = |c: EvalChoice| match c.named {
                EvalSetting::Linear(id) => id.get().connect4.as_ref(),
                _ => None,
            };
            match (linear(a), linear(b)) {
                (Some(x), Some(y)) => task.run(p, x, y, &to_set),
                (Some(x), None) => task.run(p, x, &CentreFirst, &to_set),
                (None, Some(y)) => task.run(p, &CentreFirst, y, &to_set),
                (None, None) => task.run(p, &CentreFirst, &CentreFirst, &to_set),
            }
        }
        GamePosition::Othello(p) => {
            let to_set = |s| othello_discs(s).unwrap_or(i32::MIN);
            // Linear weights (validated as Othello's when the file was read).
            let linear = |c: EvalChoice| match c.named {
                EvalSetting::Linear(id) => id.get().othello.as_ref(),
                _ => None,
            };
            let standard = &OthelloEval::STANDARD;
            match (linear(a), linear(b)) {
                (Some(x), Some(y)) => task.run(p, x, y, &to_set),
                (Some(x), None) => task.run(p, x, standard, &to_set),
                (None, Some(y)) => task.run(p, standard, y, &to_set),
                (None, None) => task.run(p, standard, standard, &to_set),
            }
        }
        GamePosition::RandomTree(p) => {
            let oracle = |c: EvalChoice| c.oracle.map(|order| Oracle::new(order, c.seed));
            match (oracle(a), oracle(b)) {
                (Some(x), Some(y)) => task.run(p, &x, &y, &same),
                (Some(x), None) => task.run(p, &x, &TreeValue, &same),
                (None, Some(y)) => task.run(p, &TreeValue, &y, &same),
                (None, None) => task.run(p, &TreeValue, &TreeValue, &same),
            }
        }
        GamePosition::Checkers(p) => {
            let eval = CheckersEval::default();
            // Checkers sets give signed plies to the end (+31: a win in 31 plies), the
            // distances of the endgame databases (crate::knowledge::tablebase::checkers).
            let plies = |s: Score| match score::plies_to_end(s) {
                Some(d) if s > 0 => d,
                Some(d) => -d,
                None if s == 0 => 0,
                None => i32::MIN,
            };
            // Linear weights (validated as checkers' when the file was read).
            let linear = |c: EvalChoice| match c.named {
                EvalSetting::Linear(id) => id.get().checkers.as_ref(),
                _ => None,
            };
            match (linear(a), linear(b)) {
                (Some(x), Some(y)) => task.run(p, x, y, &plies),
                (Some(x), None) => task.run(p, x, &eval, &plies),
                (None, Some(y)) => task.run(p, &eval, y, &plies),
                (None, None) => task.run(p, &eval, &eval, &plies),
            }
        }
        GamePosition::ChanceTree(p) => task.run(p, &ChanceTreeValue, &ChanceTreeValue, &same),
        GamePosition::Backgammon(p) => {
            // Linear weights (validated as backgammon's when the file was read).
            let linear = |c: EvalChoice| match c.named {
                EvalSetting::Linear(id) => id.get().backgammon.as_ref(),
                _ => None,
            };
            // The second evaluator, for a first one already chosen.
            macro_rules! second {
                ($first:expr) => {
                    match (linear(b), b.named == EvalSetting::Race) {
                        (Some(y), _) => task.run(p, $first, y, &same),
                        (None, true) => task.run(p, $first, &PipRace, &same),
                        (None, false) => task.run(p, $first, &Pubeval, &same),
                    }
                };
            }
            match (linear(a), a.named == EvalSetting::Race) {
                (Some(x), _) => second!(x),
                (None, true) => second!(&PipRace),
                (None, false) => second!(&Pubeval),
            }
        }
        GamePosition::Chess(p) => {
            // The second evaluator, for a first one already chosen.
            macro_rules! second {
                ($first:expr) => {
                    match b.named {
                        EvalSetting::Material => task.run(p, $first, &Material, &same),
                        EvalSetting::Shannon => task.run(p, $first, &Shannon, &same),
                        // Linear weights of another game are refused when files are
                        // validated; PeSTO stands in for them as for backgammon's.
                        EvalSetting::Linear(id) => match &id.get().chess {
                            Some(linear) => task.run(p, $first, linear, &same),
                            None => task.run(p, $first, &Pst, &same),
                        },
                        EvalSetting::Pst | EvalSetting::Pubeval | EvalSetting::Race => {
                            task.run(p, $first, &Pst, &same)
                        }
                    }
                };
            }
            match a.named {
                EvalSetting::Material => second!(&Material),
                EvalSetting::Shannon => second!(&Shannon),
                // Backgammon's evaluations are refused on chess when files are validated.
                EvalSetting::Linear(id) => match &id.get().chess {
                    Some(linear) => second!(linear),
                    None => second!(&Pst),
                },
                EvalSetting::Pst | EvalSetting::Pubeval | EvalSetting::Race => second!(&Pst),
            }
        }
    }
}

/// Runs one job and returns its rows.
#[must_use]
pub fn execute(job: &Job) -> Vec<Row> {
    execute_with_table(job, None)
}

/// [`execute`], with the table (if any) one kept by the worker thread and cleared between
/// jobs ([`crate::search::tt::with_kept_tables`]): allocating and zeroing a fresh 16 MiB
/// table took 2 ms, more than most searches of a connect-four test set (issue 14). The rows
/// are the same.
#[must_use]
pub fn execute_reusing_table(job: &Job) -> Vec<Row> {
    let config = job.searcher.config_for(&job.position.position);
    let layout = (config.tt_mb > 0 && config.algorithm == Algorithm::Alphabeta)
        .then_some((config.tt_mb, config.solve.tt_compact));
    crate::search::tt::with_kept_tables([layout], |[table]| execute_with_table(job, table))
}

/// [`execute`], searching with `table` (which the caller has emptied) instead of a table of
/// its own when the job's searcher uses one of the same size: a caller running many short
/// jobs in a row (`suite`, [`execute_reusing_table`]) reuses one table per thread instead
/// of allocating one per position.
#[must_use]
pub fn execute_with_table(job: &Job, table: Option<&Table>) -> Vec<Row> {
    let config = job.searcher.config_for(&job.position.position);
    let fits = config.tt_mb > 0
        && config.algorithm == Algorithm::Alphabeta
        && table.is_some_and(|t| t.is_layout(config.tt_mb, config.solve.tt_compact));
    let task = JobTask {
        config,
        job,
        table: table.filter(|_| fits),
    };
    with_game(
        &job.position.position,
        job.searcher.eval_choice(job.seed),
        task,
    )
}

struct JobTask<'a> {
    config: SearchConfig,
    job: &'a Job,
    table: Option<&'a Table>,
}

impl GameTask for JobTask<'_> {
    type Output = Vec<Row>;
    fn run<G: Game, E: Evaluator<G>>(
        self,
        root: &G,
        eval: &E,
        to_set_score: &dyn Fn(Score) -> i32,
    ) -> Vec<Row> {
        if let Some(mcts) = self.job.searcher.mcts {
            let mut row = run_mcts(root, eval, mcts, self.job);
            row.solved = self.job.position.answer.as_ref().and_then(|answer| {
                let chosen = root.parse_move(&row.best_move).ok()?;
                keeps_known_value(root, eval, answer, chosen)
            });
            return vec![row];
        }
        run_search(root, eval, &self.config, self.job, to_set_score, self.table)
    }
}

/// Searches `root` and turns each completed iteration into a row; with `play_out`, plays
/// the position out as well. `to_set_score` converts a root score to the test set's
/// convention, for comparing with a known answer.
fn run_search<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    job: &Job,
    to_set_score: &dyn Fn(Score) -> i32,
    table: Option<&Table>,
) -> Vec<Row> {
    let mut searcher =
        Searcher::new(eval, config).with_knowledge(job.searcher.knowledge.probe_for());
    if let Some(table) = table {
        searcher = searcher.with_table(table);
    }
    // Lazy SMP and YBW search on their threads with a table of their own (none for YBW
    // without `tt_mb`), kept from the first search through the play-out, as the searcher's.
    let threaded_table = match config.algorithm {
        Algorithm::LazySmp => Some(config.tt_mb.max(1)),
        Algorithm::Ybw => (config.tt_mb > 0).then_some(config.tt_mb),
        _ => None,
    }
    .map(|mb| Table::with_layout(mb, config.solve.tt_compact));
    let mut search = |pos: &G| {
        let stop = AtomicBool::new(false);
        let shared = threaded_table.as_ref().map(|table| Shared {
            table,
            stop: &stop,
            history: &[],
        });
        match (config.algorithm, &shared) {
            (Algorithm::LazySmp, Some(shared)) => lazy_smp_observed(
                pos,
                eval,
                config,
                &job.limits,
                config.threads,
                shared,
                |_| {},
            ),
            (Algorithm::Ybw, Some(shared)) => ybw_observed(
                pos,
                eval,
                config,
                &job.limits,
                config.threads,
                shared,
                |_| {},
            ),
            (Algorithm::Ybw, None) => ybw(pos, eval, config, &job.limits, config.threads, |_| {}),
            _ => searcher.run(pos, &job.limits),
        }
    };
    let first = search(root);
    let rows_of =
        |result: &SearchResult<G::Move>, step: u32| iteration_rows::<G>(result, job, step);
    let mut rows = rows_of(&first, 0);
    if let Some(last) = rows.last_mut() {
        last.total_nodes = Some(first.total.nodes);
        last.total_s = Some(first.elapsed.as_secs_f64());
        last.nodes_to_depth = Some(first.iterations.iter().map(|i| i.stats.nodes).sum());
        last.time_to_depth_s = Some(
            first
                .iterations
                .iter()
                .map(|i| i.elapsed.as_secs_f64())
                .sum(),
        );
    }
    if rows.is_empty() {
        // No iteration completed (a tight time or node limit): a row all the same, depth 0,
        // so the position is counted (unsolved) and the work it spent is reported.
        rows.push(Row {
            total_nodes: Some(first.total.nodes),
            total_s: Some(first.elapsed.as_secs_f64()),
            nodes_to_depth: Some(0),
            ..Row::for_job(job, G::NAME)
        });
    }
    let mut solved = match (&job.position.answer, first.last()) {
        (Some(answer), Some(last)) if config.solve.weak => {
            Some(answer.accepts_sign(last, to_set_score))
        }
        (Some(answer), Some(last)) => Some(super::answer::solves(answer, root, last, to_set_score)),
        (Some(_), None) => Some(false),
        _ => None,
    };
    if job.play_out
        && let Some(Answer::Moves {
            mate_in: Some(n), ..
        }) = &job.position.answer
    {
        let delivered = play_out(&mut search, root, &first, *n, |result, step| {
            rows.extend(rows_of(result, step));
        });
        solved = solved.map(|s| s && delivered);
    }
    let count = rows.len() as u32;
    rows.iter_mut().for_each(|r| r.iterations = count);
    // The known answer is written once, on the last row beside `solved`.
    let n = rows.len();
    rows.iter_mut()
        .take(n.saturating_sub(1))
        .for_each(|r| r.expected = None);
    if let (Some(last), Some(solved)) = (rows.last_mut(), solved) {
        last.solved = Some(solved);
        record_answer_time(last, &first);
    }
    rows
}

/// Runs a Monte Carlo job: one row, with the job's `nodes` limit as the playout budget.
fn run_mcts<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    algorithm: MctsAlgorithm,
    job: &Job,
) -> Row {
    let budget = MctsBudget {
        iterations: job.limits.nodes,
        time: job.limits.time,
        stop: None,
    };
    let config = &job.searcher.mcts_config;
    let threads = job.searcher.config.threads;
    let result = algorithm.run(root, eval, config, &budget, threads);
    if let Some(note) = result.memory_note(config) {
        crate::tell!(
            "note: job {} ({} on {}): {note}",
            job.id,
            job.searcher.name(),
            job.position.label
        );
    }
    let seconds = result.elapsed.as_secs_f64();
    let per_second = |n: u64| (seconds > 0.0).then(|| (n as f64 / seconds).round());
    let chosen = result
        .root_visits
        .iter()
        .find(|(mv, _, _)| Some(*mv) == result.best_move);
    let best_move = result.best_move.map(|m| m.to_string()).unwrap_or_default();
    Row {
        iterations: 1,
        score: chosen.map_or(0, |&(_, _, mean)| mcts_score(mean)),
        pv: best_move.clone(),
        best_move,
        nodes: result.tree_nodes,
        elapsed_s: seconds,
        nps: per_second(result.tree_nodes),
        playouts: Some(result.playouts),
        playouts_per_s: per_second(result.playouts),
        total_nodes: Some(result.tree_nodes),
        total_s: Some(seconds),
        ..Row::for_job(job, G::NAME)
    }
}

/// The most nodes spent judging a Monte Carlo move against a known score, by solving the
/// position after the move: a few seconds. An early connect-four position, or any checkers
/// position far from its end, would otherwise take hours, whatever budget the Monte Carlo
/// search had.
pub const JUDGE_NODES: u64 = 20_000_000;

/// Whether `mv`, a Monte Carlo search's choice at `root`, is right by the test set's
/// `answer`: for best and avoided moves, as for alpha-beta; for a known score, whether the
/// move keeps the position's game-theoretic outcome (win, draw or loss), found by solving
/// the position after it with ordered alpha-beta and a table, within [`JUDGE_NODES`].
/// `None` when the answer names no move (only a mate distance, which Monte Carlo does not
/// announce), or when the solve proves nothing within its budget.
fn keeps_known_value<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    answer: &Answer,
    mv: G::Move,
) -> Option<bool> {
    match answer {
        Answer::Moves { best, avoid, .. } if best.is_empty() && avoid.is_empty() => None,
        Answer::Moves { best, avoid, .. } => {
            let played = mv.to_string();
            Some((best.is_empty() || best.contains(&played)) && !avoid.contains(&played))
        }
        Answer::Exact { best, .. } => Some(best.contains(&mv.to_string())),
        Answer::Score(expected) => {
            let mut child = root.clone();
            child.play(mv);
            // Only the outcome's sign is asked: the weak solver's window, narrowed further to
            // the scores still possible (both value-preserving for the sign, tests/solve.rs).
            let config = SearchConfig {
                algorithm: Algorithm::Alphabeta,
                ordering: crate::search::Ordering::HEURISTICS,
                tt_mb: 16,
                solve: crate::search::SolveSwitches {
                    weak: true,
                    score_window: true,
                    ..crate::search::SolveSwitches::default()
                },
                ..SearchConfig::default()
            };
            // Scores are for the side to move after the move, the root's opponent.
            let child_score = match child.status() {
                Status::Over(outcome) => score::of_outcome(outcome, 0),
                Status::Ongoing => {
                    let budget = Limits {
                        nodes: Some(JUDGE_NODES),
                        ..Limits::default()
                    };
                    let solved = Searcher::new(eval, &config).run(&child, &budget);
                    let last = solved
                        .last()
                        .filter(|it| super::answer::proven(&child, it))?;
                    last.score
                }
            };
            let after = -child_score;
            Some(after.signum() == expected.signum())
        }
    }
}

/// A Monte Carlo move's mean reward (1 win, 0.5 draw, 0 loss) on the `score` column's
/// scale: −1000 (always lost) to 1000 (always won).
fn mcts_score(mean: f64) -> i32 {
    (1000.0 * (2.0 * mean - 1.0)).round() as i32
}

/// Plays a won position out (seed 000, "forcing progress in winning positions"): the
/// job's searcher (`search`: lazy SMP and YBW on their threads), keeping its table, plays
/// both sides, each move chosen by a new search from the position reached. Each attacking search must end announcing the true distance (n − 1,
/// n − 2, ... moves) and mate must fall on the n-th move. A table that stores mate scores
/// without re-basing them by ply reads the earlier searches' mates back at a shallower ply,
/// overstating their distance. `record` gets every search with the ply it started at. True
/// if every final announcement was right and the mate was delivered on time.
fn play_out<G: Game>(
    search: &mut impl FnMut(&G) -> SearchResult<G::Move>,
    root: &G,
    first: &SearchResult<G::Move>,
    mate_in: u32,
    mut record: impl FnMut(&SearchResult<G::Move>, u32),
) -> bool {
    let mut pos = root.clone();
    let mut attack = first.clone();
    let mut announced_right = true;
    for moves_played in 1..=mate_in {
        let Some(mv) = attack.best_move() else {
            return false;
        };
        pos.play(mv);
        if pos.status() != Status::Ongoing {
            return announced_right
                && moves_played == mate_in
                && pos.status() == Status::Over(Outcome::Loss);
        }
        let defence = search(&pos);
        record(&defence, 2 * moves_played - 1);
        let Some(reply) = defence.best_move() else {
            return false;
        };
        pos.play(reply);
        attack = search(&pos);
        record(&attack, 2 * moves_played);
        announced_right &= attack.score().and_then(mate_moves) == Some(mate_in - moves_played);
    }
    false
}

/// On a job's last row: when the first search's final answer first appeared.
fn record_answer_time<M: PartialEq>(last: &mut Row, first: &SearchResult<M>) {
    if first.iterations.is_empty() {
        return;
    }
    let k = first_stable_iteration(&first.iterations);
    let through = &first.iterations[..=k];
    last.answer_depth = Some(first.iterations[k].depth);
    last.answer_nodes = Some(through.iter().map(|i| i.stats.nodes).sum());
    last.answer_s = Some(through.iter().map(|i| i.elapsed.as_secs_f64()).sum());
}

/// A row per completed iteration of `result`, a search that started `step` plies after the
/// job's position.
fn iteration_rows<G: Game>(result: &SearchResult<G::Move>, job: &Job, step: u32) -> Vec<Row> {
    let uniform_b = match &job.position.position {
        GamePosition::RandomTree(t) => Some(t.params().b),
        _ => None,
    };
    let mut rows = Vec::with_capacity(result.iterations.len());
    let mut previous_nodes = None;
    for it in &result.iterations {
        let (ebf, ebf_root) = derived(&it.stats, it.depth, previous_nodes);
        previous_nodes = Some(it.stats.nodes);
        rows.push(Row {
            step,
            depth: it.depth,
            score: it.score,
            best_move: it.best_move.map(|m| m.to_string()).unwrap_or_default(),
            pv: it
                .pv
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            nodes: it.stats.nodes,
            leaf_nodes: it.stats.leaf_nodes,
            qnodes: it.stats.qnodes,
            tt_probes: it.stats.tt_probes,
            tt_hits: it.stats.tt_hits,
            beta_cutoffs: it.stats.beta_cutoffs,
            first_move_cutoffs: it.stats.first_move_cutoffs,
            first_move_cutoff_rate: it.stats.first_move_cutoff_rate().map(round4),
            ebf,
            ebf_root,
            branching: uniform_b
                .map(f64::from)
                .or_else(|| mean_branching(&it.stats)),
            minimal_leaves: uniform_b.map(|b| TreeParams::minimal_leaves(b, it.depth)),
            max_ply: it.stats.max_ply,
            tb_probes: it.stats.tb_probes,
            tb_hits: it.stats.tb_hits,
            secondary_nodes: it.stats.secondary_nodes,
            secondary_switches: it.stats.secondary_switches,
            elapsed_s: it.elapsed.as_secs_f64(),
            nps: nps(it),
            ..Row::for_job(job, G::NAME)
        });
    }
    rows
}

/// The index of the first iteration from which the best move, and a decisive score, stayed
/// those of the last iteration: when the final answer first appeared.
fn first_stable_iteration<M: PartialEq>(iterations: &[Iteration<M>]) -> usize {
    let Some(last) = iterations.last() else {
        return 0;
    };
    let same = |i: &Iteration<M>| {
        i.best_move == last.best_move && (!score::is_decisive(last.score) || i.score == last.score)
    };
    iterations
        .iter()
        .rposition(|i| !same(i))
        .map_or(0, |k| k + 1)
}

/// Prints the jobs of `plan` without running them (`--dry-run`).
pub fn describe_jobs(plan: &Plan, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{} jobs in experiment `{}`",
        plan.jobs.len(),
        plan.name
    )?;
    for job in &plan.jobs {
        let l = &job.limits;
        writeln!(
            out,
            "{:>5}  {:<11} {:<40} {:<20} {} threads={} depth={} nodes={} time_ms={} rep={}{}",
            job.id,
            job.position.position.kind().to_string(),
            job.position.label,
            job.searcher.label,
            job.searcher.params(),
            job.searcher.config.threads,
            match (job.searcher.mcts, l.depth) {
                (Some(_), _) => "-".into(),
                (None, None) => "end".into(),
                (None, Some(d)) => d.to_string(),
            },
            l.nodes.map_or("-".into(), |n| n.to_string()),
            l.time.map_or("-".into(), |t| t.as_millis().to_string()),
            job.repetition,
            if job.searcher.exclusive {
                " (alone)"
            } else {
                ""
            },
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::chess::Chess;

    /// Mate in 2 from Leorik's suite (experiments/data/chess/mate_in_2.epd): Qf6.
    const MATE_IN_2: &str = "1B1Q1R2/8/qNrn3p/2p1rp2/Rn3k1K/8/5P2/bbN4B w - - 0 1";

    /// Ordered alpha-beta to 4 plies, a fresh table each time: deep enough for the mate.
    fn searched(pos: &Chess) -> SearchResult<<Chess as Game>::Move> {
        let config = SearchConfig {
            ordering: crate::search::Ordering::HEURISTICS,
            tt_mb: 1,
            ..SearchConfig::default()
        };
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        crate::search::search(pos, &Pst, &config, &limits)
    }

    /// [`play_out`] with `search` from the mate-in-2 root searched honestly; the plies at
    /// which it recorded searches.
    fn played_out(
        search: &mut impl FnMut(&Chess) -> SearchResult<<Chess as Game>::Move>,
        mate_in: u32,
        first: &SearchResult<<Chess as Game>::Move>,
    ) -> (bool, Vec<u32>) {
        let root = Chess::parse_position(MATE_IN_2).unwrap();
        let mut steps = Vec::new();
        let delivered = play_out(search, &root, first, mate_in, |_, step| steps.push(step));
        (delivered, steps)
    }

    #[test]
    fn a_mate_counts_as_played_out_only_when_delivered_as_announced() {
        let root = Chess::parse_position(MATE_IN_2).unwrap();
        let first = searched(&root);
        assert_eq!(first.score().and_then(mate_moves), Some(2));
        // Played honestly: the defence (ply 1), the attack announcing mate in 1 (ply 2), mate.
        assert_eq!(played_out(&mut searched, 2, &first), (true, vec![1, 2]));
        // Announced as mate in 3: the attack's mate in 1 should have been a mate in 2, and
        // mate falls a move early.
        assert!(!played_out(&mut searched, 3, &first).0);
        // Announced as mate in 1: no mate after the first move, and the moves run out.
        assert_eq!(played_out(&mut searched, 1, &first), (false, vec![1, 2]));
        // A search with no move to give, the attack's first or the defence's.
        let nothing = |_: &Chess| SearchResult {
            iterations: Vec::new(),
            total: Default::default(),
            elapsed: Duration::ZERO,
            stopped: true,
        };
        assert_eq!(
            played_out(&mut searched, 2, &nothing(&root)),
            (false, vec![])
        );
        assert_eq!(
            played_out(&mut nothing.clone(), 2, &first),
            (false, vec![1])
        );
    }
}
