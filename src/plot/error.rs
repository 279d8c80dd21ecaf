//! The errors of the plotting module: each names the file and the problem.

use std::path::PathBuf;

/// Why a plot or a summary could not be made.
///
/// Every variant names the file it is about, so that a message printed by the CLI or the
/// experiment runner can be acted on without a debugger.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// A file could not be read, created or written.
    #[error("cannot access {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The CSV header lacks a column the charts need.
    #[error("missing column `{column}` in {path}")]
    MissingColumn {
        /// The CSV file.
        path: PathBuf,
        /// The header name that was looked for.
        column: String,
    },
    /// The CSV file has a header but no data rows.
    #[error("{path} has no rows")]
    NoRows {
        /// The CSV file.
        path: PathBuf,
    },
    /// A cell that must hold a number holds something else.
    #[error("unreadable number `{value}` in {path} line {line} column `{column}`")]
    BadNumber {
        /// The CSV file.
        path: PathBuf,
        /// The 1-based line number in the file (the header is line 1).
        line: u64,
        /// The header name of the cell.
        column: String,
        /// The text found in the cell.
        value: String,
    },
    /// A cell holds a word outside its column's vocabulary.
    #[error(
        "unexpected value `{value}` in {path} line {line} column `{column}` (expected {expected})"
    )]
    BadValue {
        /// The CSV file.
        path: PathBuf,
        /// The 1-based line number in the file (the header is line 1).
        line: u64,
        /// The header name of the cell.
        column: String,
        /// The text found in the cell.
        value: String,
        /// What the column may hold.
        expected: String,
    },
    /// The CSV file is not well-formed (for example a row with too many fields).
    #[error("malformed CSV in {path}: {message}")]
    Csv {
        /// The CSV file.
        path: PathBuf,
        /// What the CSV reader reported.
        message: String,
    },
    /// Files of one run that contradict each other.
    #[error("{path}: {message}")]
    Inconsistent {
        /// The file read first.
        path: PathBuf,
        /// How it disagrees with the other.
        message: String,
    },
    /// A learning run's directory (a curve.csv, no searches.csv): `plylab learn` draws it.
    #[error(
        "{path} holds no searches.csv or standings.csv to draw from: it is a learning run's \
         (curve.csv), whose chart and summary `plylab learn` draws (its summary.md names the \
         command)"
    )]
    LearningRun {
        /// The directory.
        path: PathBuf,
    },
    /// The embedded font could not be loaded (a build problem, not an input problem).
    #[error("cannot load the embedded chart font")]
    Font,
    /// The drawing library failed while drawing a chart.
    #[error("cannot draw {path}: {message}")]
    Draw {
        /// The image file being drawn.
        path: PathBuf,
        /// What the drawing library reported.
        message: String,
    },
}

impl PlotError {
    /// Wraps an I/O error with the file it concerns.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
