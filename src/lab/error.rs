//! What can go wrong while an experiment or a match runs, its file already valid: a file
//! that cannot be read or written, results that must not be mixed, Ctrl-C.

use std::path::{Path, PathBuf};

/// Errors while running (the experiment file itself was valid).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A file could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The CSV could not be written or read back.
    #[error("{path}: {source}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: csv::Error,
    },
    /// `--resume` found results of a different experiment file.
    #[error("{0}")]
    Resume(String),
    /// The output directory holds results that this run must not mix with or overwrite,
    /// or the plan cannot be written as asked (bad input).
    #[error("{0}")]
    Refused(String),
    /// Ctrl-C stopped the run after the jobs (or a match's games) then running had
    /// finished; their rows are in searches.csv (games.csv), and `--resume` runs the rest.
    #[error("interrupted: {finished} of {total} {unit} finished")]
    Interrupted {
        /// The output directory.
        out: PathBuf,
        /// Jobs (games) whose rows are in the file (kept ones included).
        finished: usize,
        /// Jobs (games) of the run.
        total: usize,
        /// `jobs` or `games`.
        unit: &'static str,
        /// The file in `out` that holds their rows.
        file: &'static str,
    },
    /// The thread pool could not start.
    #[error("cannot start {0} worker threads")]
    Pool(usize),
}

/// Wraps an I/O error on `path`.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> RunError + '_ {
    move |source| RunError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Wraps a CSV error on `path`.
pub(crate) fn csv_err(path: &Path) -> impl FnOnce(csv::Error) -> RunError + '_ {
    move |source| RunError::Csv {
        path: path.to_path_buf(),
        source,
    }
}
