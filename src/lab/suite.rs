//! `plylab suite GAME FILE`: every position of a test set ([`super::test_set`]) searched under
//! the same configuration, the final answer compared with the known one.
//!
//! Positions are handed out to a pool of workers (with one job, searched on the calling
//! thread) and reported one by one as they finish (a progress line, a CSV row), so a long
//! set can be watched, interrupted and resumed from the rows already written. Every
//! position gets its row, also one whose search completed no iteration (depth 0, unsolved).
//! The figures count the whole work of each search, the interrupted last iteration
//! included, and separately the work to the final completed iteration; exactness needs a
//! proven answer (see [`super::answer::solves`]).

use std::collections::HashSet;
use std::sync::{OnceLock, mpsc};

use rayon::prelude::*;

use super::answer::Answer;
use super::record::Row;
use super::runner::execute_with_table;
use super::spec::{Job, PositionEntry, SearcherVariant};
use crate::interrupt;
use crate::plot::stats::{Geometric, Interval, LEVEL, Stats, median, t_interval, wilson};
use crate::search::{Limits, Table};

/// A suite that cannot run.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The thread pool could not start.
    #[error("cannot start {0} worker threads")]
    Pool(usize),
}

/// One position's outcome: the final row of its job (the CSV row), taken from a fresh
/// search or from the CSV of an earlier, interrupted run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The position's row: its final iteration (depth 0 when none completed), with
    /// `solved`, `total_nodes`, `total_s`, `nodes_to_depth` and `time_to_depth_s`.
    pub row: Row,
    /// Whether the row was read back from an earlier run rather than searched now.
    pub resumed: bool,
}

impl Outcome {
    /// Nodes of the whole search, the interrupted iteration included.
    #[must_use]
    pub fn total_nodes(&self) -> f64 {
        self.row.total_nodes.unwrap_or(self.row.nodes) as f64
    }

    /// Seconds of the whole search, the interrupted iteration included.
    #[must_use]
    pub fn total_seconds(&self) -> f64 {
        self.row.total_s.unwrap_or(self.row.elapsed_s)
    }

    /// Nodes to the end of the final completed iteration.
    #[must_use]
    pub fn completed_nodes(&self) -> f64 {
        self.row.nodes_to_depth.unwrap_or(self.row.nodes) as f64
    }

    /// Seconds to the end of the final completed iteration.
    #[must_use]
    pub fn completed_seconds(&self) -> f64 {
        // A Monte Carlo search has no iterations to interrupt: its work is all complete.
        let monte_carlo = self.row.playouts.and(self.row.total_s);
        self.row.time_to_depth_s.or(monte_carlo).unwrap_or(0.0)
    }
}

/// The outcome of a suite run.
#[derive(Debug)]
pub struct SuiteReport {
    /// Positions whose final answer is the known one, proven.
    pub exact: usize,
    /// Positions with a known answer.
    pub total: usize,
    /// Positions whose search completed no iteration.
    pub no_iteration: usize,
    /// Monte Carlo moves with a known answer that could not be judged: solving the
    /// position after the move proved nothing within [`super::runner::JUDGE_NODES`].
    pub unjudged: usize,
    /// Every position's outcome, in the set's order.
    pub outcomes: Vec<Outcome>,
    /// Positions not solved exactly, with their known answers.
    pub misses: Vec<(String, Option<Answer>)>,
}

impl SuiteReport {
    /// Wilson's interval for the rate of exact answers; `None` with no known answer.
    #[must_use]
    pub fn exact_interval(&self) -> Option<Interval> {
        wilson(self.exact, self.total, LEVEL)
    }

    /// The summary lines: the exact rate with its interval, then the work per position,
    /// total and to the final completed iteration, as mean with its t interval, geometric
    /// mean and median.
    #[must_use]
    pub fn summary(&self) -> Vec<String> {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let mut lines = vec![match self.exact_interval() {
            Some(i) => format!(
                "exact {}/{} = {} (95% Wilson interval {}–{})",
                self.exact,
                self.total,
                pct(self.exact as f64 / self.total as f64),
                pct(i.lo),
                pct(i.hi)
            ),
            None => format!(
                "no known answers: {} positions searched",
                self.outcomes.len()
            ),
        }];
        if self.no_iteration > 0 {
            lines.push(format!(
                "{} positions completed no iteration (counted unsolved)",
                self.no_iteration
            ));
        }
        if self.unjudged > 0 {
            lines.push(format!(
                "{} Monte Carlo moves not judged: the position after the move was not solved within {} nodes (counted unsolved)",
                self.unjudged,
                super::runner::JUDGE_NODES
            ));
        }
        let column = |f: fn(&Outcome) -> f64| self.outcomes.iter().map(f).collect::<Vec<_>>();
        lines.push(work_line(
            "total work (every iteration, the interrupted one included)",
            &column(Outcome::total_nodes),
            &column(Outcome::total_seconds),
        ));
        lines.push(work_line(
            "work to the final completed iteration",
            &column(Outcome::completed_nodes),
            &column(Outcome::completed_seconds),
        ));
        lines
    }
}

/// "label: nodes mean M [t interval], geometric mean G, median D; time ... s".
fn work_line(label: &str, nodes: &[f64], seconds: &[f64]) -> String {
    format!(
        "{label}: nodes per position {}; seconds per position {}",
        describe(nodes, |x| format!("{x:.0}")),
        describe(seconds, |x| format!("{x:.4}")),
    )
}

/// Mean with its 95% t interval, geometric mean and median of `values`.
fn describe(values: &[f64], f: impl Fn(f64) -> String) -> String {
    let Some(stats) = Stats::of(values) else {
        return "–".into();
    };
    let mut out = format!("mean {}", f(stats.mean));
    if let Some(i) = t_interval(values, LEVEL) {
        out.push_str(&format!(" [{}, {}]", f(i.lo.max(0.0)), f(i.hi)));
    }
    if let Some(g) = Geometric::of(values, LEVEL) {
        out.push_str(&format!(", geometric mean {}", f(g.mean)));
    }
    if let Some(m) = median(values) {
        out.push_str(&format!(", median {}", f(m)));
    }
    out
}

/// The job ids (positions, counted from 0 in the set's order) that `rows`, read from an
/// earlier run's CSV, already hold; their rows become outcomes. A row whose position is
/// not the one at its index in `positions` is refused: the set or `--take` changed.
///
/// # Errors
/// The first row that does not belong to this set.
pub fn resumed(rows: Vec<Row>, positions: &[PositionEntry]) -> Result<Vec<Outcome>, String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for row in rows {
        match positions.get(row.job) {
            Some(p) if p.label == row.position => {}
            _ => {
                return Err(format!(
                    "row for position {} (`{}`) is not in this test set: was the file or --take changed?",
                    row.job + 1,
                    row.position
                ));
            }
        }
        if seen.insert(row.job) {
            out.push(Outcome { row, resumed: true });
        }
    }
    Ok(out)
}

/// Searches every position with `searcher` under `limits` on `threads` threads, except
/// those with an outcome in `done`; calls `finished` with each new outcome as soon as its
/// search ends (in the order they end), then returns the report over all of them. Once
/// Ctrl-C is pressed ([`interrupt::requested`], where the caller installed the handler) no
/// further search starts; those running finish and are reported.
///
/// # Errors
/// When the worker pool cannot start.
pub fn run(
    positions: Vec<PositionEntry>,
    searcher: &SearcherVariant,
    limits: Limits,
    threads: usize,
    wipe_table: bool,
    done: Vec<Outcome>,
    mut finished: impl FnMut(&Outcome),
) -> Result<SuiteReport, SuiteError> {
    let skip: HashSet<usize> = done.iter().map(|o| o.row.job).collect();
    let jobs: Vec<Job> = positions
        .into_iter()
        .enumerate()
        .map(|(id, position)| Job {
            baseline: None,
            id,
            game_index: 0,
            position,
            searcher: searcher.clone(),
            limits,
            repetition: 0,
            play_out: false,
            seed: searcher.config.seed,
        })
        .collect();
    let (mb, compact) = (searcher.config.tt_mb, searcher.config.solve.tt_compact);
    // One table per worker thread, made on its first position and cleared between positions
    // (allocating a fresh one for every position cost more than searching the easy sets;
    // rayon's `for_each_init` would still make one per split of the work).
    let tables: Vec<OnceLock<Table>> = (0..threads.max(1)).map(|_| OnceLock::new()).collect();
    let search = |job: &Job, worker: usize| {
        let table = (mb > 0).then(|| {
            tables[worker].get_or_init(|| {
                let table = Table::with_layout(mb, compact);
                if wipe_table { table } else { table.tracked() }
            })
        });
        if let Some(table) = table {
            table.clear();
        }
        final_row(execute_with_table(job, table))
    };
    let todo: Vec<&Job> = jobs.iter().filter(|j| !skip.contains(&j.id)).collect();
    let mut outcomes = done;
    let mut report = |row: Row| {
        let outcome = Outcome {
            row,
            resumed: false,
        };
        finished(&outcome);
        outcomes.push(outcome);
    };
    if threads <= 1 {
        // One worker: the searches run on this thread between the writes of their rows, as
        // in a single-threaded solver. A second thread writing rows while the next search
        // runs made the scheduler move the search between cores, away from its table in the
        // core's cache: up to twice the time of Test_L3_R1's 50-position searches.
        for job in todo {
            if interrupt::requested() {
                break;
            }
            report(search(job, 0));
        }
    } else {
        // No more workers than positions (worker indices stay below `threads`: the tables).
        let workers = threads.min(todo.len()).max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .map_err(|_| SuiteError::Pool(workers))?;
        let (tx, rx) = mpsc::channel::<Row>();
        std::thread::scope(|scope| {
            let search = &search;
            scope.spawn(move || {
                pool.install(|| {
                    todo.par_iter().for_each_with(tx, |tx, job| {
                        if interrupt::requested() {
                            return;
                        }
                        let worker = rayon::current_thread_index().unwrap_or(0);
                        // A receiver gone means the caller is unwinding: nothing to report to.
                        let _ = tx.send(search(job, worker));
                    });
                });
            });
            rx.into_iter().for_each(&mut report);
        });
    }
    outcomes.sort_by_key(|o| o.row.job);
    Ok(summarise(&jobs, outcomes))
}

/// The last row of a job's rows (the runner gives every job at least one).
fn final_row(mut rows: Vec<Row>) -> Row {
    rows.pop().expect("the runner writes a row for every job")
}

fn summarise(jobs: &[Job], outcomes: Vec<Outcome>) -> SuiteReport {
    let mut report = SuiteReport {
        exact: 0,
        total: 0,
        no_iteration: 0,
        unjudged: 0,
        outcomes: Vec::new(),
        misses: Vec::new(),
    };
    for outcome in &outcomes {
        let job = &jobs[outcome.row.job];
        // Monte Carlo rows have no depth; a search row at depth 0 completed no iteration.
        if outcome.row.depth == 0 && outcome.row.playouts.is_none() {
            report.no_iteration += 1;
        }
        if job.position.answer.is_some() {
            report.total += 1;
            if outcome.row.playouts.is_some() && outcome.row.solved.is_none() {
                report.unjudged += 1;
            }
            if outcome.row.solved == Some(true) {
                report.exact += 1;
            } else {
                report
                    .misses
                    .push((job.position.label.clone(), job.position.answer.clone()));
            }
        }
    }
    report.outcomes = outcomes;
    report
}
