//! Test sets with known answers (`plylab suite GAME FILE`): every position searched under the
//! same configuration, the final answer compared with the known one.
//!
//! File format: `<position> <known score>` per line (Pons's connect-four sets: a move string
//! and the exact score in his convention), blank lines and `#` comments ignored.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::record::Row;
use super::runner::execute;
use super::spec::{GameKind, Job, PositionEntry, SearcherVariant, parse_test_line};
use crate::search::Limits;

/// A test set that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file is unreadable.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A line holds a bad position or score.
    #[error("{path}:{line}: bad position `{text}`: {reason}")]
    Position {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The line's text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// No positions at all.
    #[error("{0}: no positions")]
    Empty(PathBuf),
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
    pub misses: Vec<(String, Option<i32>)>,
}

/// Reads a test set: the first `take` positions of `path`.
pub fn read(
    kind: GameKind,
    path: &Path,
    take: Option<usize>,
) -> Result<Vec<PositionEntry>, SuiteError> {
    let text = std::fs::read_to_string(path).map_err(|source| SuiteError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let set = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if take.is_some_and(|t| out.len() >= t) {
            break;
        }
        let entry = parse_test_line(kind, line, &set).map_err(|e| SuiteError::Position {
            path: path.to_path_buf(),
            line: number + 1,
            text: line.to_owned(),
            reason: e.to_string(),
        })?;
        out.push(entry);
    }
    if out.is_empty() {
        return Err(SuiteError::Empty(path.to_path_buf()));
    }
    Ok(out)
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
            id,
            game_index: 0,
            position,
            searcher: searcher.clone(),
            limits,
            repetition: 0,
            seed: searcher.config.seed,
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|_| SuiteError::Pool(threads))?;
    let per_job: Vec<Vec<Row>> =
        pool.install(|| jobs.par_iter().map(|j| execute(j, "suite")).collect());
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
        if job.position.expected.is_some() {
            report.total += 1;
            if rows.last().and_then(|r| r.solved) == Some(true) {
                report.exact += 1;
            } else {
                report
                    .misses
                    .push((job.position.label.clone(), job.position.expected));
            }
        }
        report.rows.extend(rows);
    }
    report
}
