//! `plylab suite GAME FILE`: every position of a test set ([`super::test_set`]) searched under
//! the same configuration, the final answer compared with the known one.

use rayon::prelude::*;

use super::answer::Answer;
use super::record::Row;
use super::runner::execute_with_table;
use super::spec::{Job, PositionEntry, SearcherVariant};
use crate::search::{Limits, Table};

/// A suite that cannot run.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The thread pool could not start.
    #[error("cannot start {0} worker threads")]
    Pool(usize),
}

/// The outcome of a suite run.
#[derive(Debug)]
pub struct SuiteReport {
    /// Positions whose final answer equals the known one.
    pub exact: usize,
    /// Positions with a known answer.
    pub total: usize,
    /// Mean nodes per position (all iterations).
    pub mean_nodes: f64,
    /// Mean seconds per position.
    pub mean_seconds: f64,
    /// Every row, sorted by position.
    pub rows: Vec<Row>,
    /// Positions not solved exactly, with their known answers.
    pub misses: Vec<(String, Option<Answer>)>,
}

/// Searches every position with `searcher` under `limits` on `threads` threads.
pub fn run(
    positions: Vec<PositionEntry>,
    searcher: &SearcherVariant,
    limits: Limits,
    threads: usize,
) -> Result<SuiteReport, SuiteError> {
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|_| SuiteError::Pool(threads))?;
    // One table per worker, cleared between positions (allocating a fresh one for every
    // position cost more than searching the easy sets).
    let mb = searcher.config.tt_mb;
    let per_job: Vec<Vec<Row>> = pool.install(|| {
        jobs.par_iter()
            .map_init(
                || (mb > 0).then(|| Table::new_tracked(mb)),
                |table, j| execute_with_table(j, "suite", table.as_ref()),
            )
            .collect()
    });
    Ok(summarise(&jobs, per_job))
}

fn summarise(jobs: &[Job], per_job: Vec<Vec<Row>>) -> SuiteReport {
    let n = jobs.len().max(1) as f64;
    let mut report = SuiteReport {
        exact: 0,
        total: 0,
        mean_nodes: 0.0,
        mean_seconds: 0.0,
        rows: Vec::new(),
        misses: Vec::new(),
    };
    for (job, rows) in jobs.iter().zip(per_job) {
        report.mean_nodes += rows.iter().map(|r| r.nodes as f64).sum::<f64>() / n;
        report.mean_seconds += rows.iter().map(|r| r.elapsed_s).sum::<f64>() / n;
        if job.position.answer.is_some() {
            report.total += 1;
            if rows.last().and_then(|r| r.solved) == Some(true) {
                report.exact += 1;
            } else {
                report
                    .misses
                    .push((job.position.label.clone(), job.position.answer.clone()));
            }
        }
        report.rows.extend(rows);
    }
    report
}
