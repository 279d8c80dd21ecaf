//! `plylab suite --csv FILE`: the rows of a suite, appended as positions finish, read back by
//! `--resume`, and written again in the test set's order once the suite is done.
//!
//! A file that holds something is replaced only with `--force` and continued only with
//! `--resume`, and only by the same search (set, searcher, seed, algorithm, threads and
//! techniques): rows of two searches never mix in one file.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::record::{Row, SearcherRow, suite_columns};
use super::spec::{PositionEntry, SearcherVariant};
use super::suite::{self, Outcome};

/// Why the CSV cannot be used, split as the exit codes are.
#[derive(Debug, thiserror::Error)]
pub enum SuiteCsvError {
    /// The `--csv` given cannot be used as asked (exit code 2): a directory, a file that
    /// holds rows without `--resume` or `--force`, rows of another search.
    #[error("{0}")]
    BadInput(String),
    /// Writing the rows failed while the suite ran or after it (exit code 1).
    #[error("{0}")]
    Failed(String),
}

/// The suite's CSV file, open for appending rows.
pub struct SuiteCsv {
    path: PathBuf,
    writer: csv::Writer<File>,
    /// The first write that failed: the suite goes on, and [`SuiteCsv::finish`] reports it.
    error: Option<String>,
}

impl SuiteCsv {
    /// Opens `path` for `searcher`'s rows on `positions`: with `resume`, the rows already
    /// there (a torn last line dropped) and the file to append to; else a fresh file (one
    /// that holds something only with `force`).
    ///
    /// # Errors
    /// [`SuiteCsvError::BadInput`]: a directory or another file that is not a regular one,
    /// a file that holds something without `resume` or `force`, rows that cannot be
    /// resumed, or a file that cannot be opened or replaced.
    pub fn open(
        path: &Path,
        resume: bool,
        force: bool,
        positions: &[PositionEntry],
        searcher: &SearcherVariant,
    ) -> Result<(Vec<Outcome>, Self), SuiteCsvError> {
        let bad = |message: String| SuiteCsvError::BadInput(message);
        if path.is_dir() {
            return Err(bad(format!(
                "--csv {}: a directory; give a file to write the rows to",
                path.display()
            )));
        }
        // The rows are written again through a rename at the end (`finish`): told now
        // that it cannot be done (a device, a name too long for the temporary file), not
        // after the suite.
        crate::output::check_writable(path).map_err(|e| {
            bad(format!(
                "cannot write the --csv file {}: {e}",
                path.display()
            ))
        })?;
        let holds_something = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        if holds_something && !resume && !force {
            return Err(bad(format!(
                "--csv {}: the file exists; --resume to continue the run it holds, --force to \
                 replace it",
                path.display()
            )));
        }
        let (done, kept_bytes) = if resume && holds_something {
            resumed_rows(path, searcher, positions)?
        } else {
            (Vec::new(), 0)
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(resume)
            .write(true)
            .truncate(!resume)
            .open(path)
            .and_then(|file| {
                // A line torn by a run killed while writing it is cut off before appending.
                if resume {
                    file.set_len(kept_bytes)?;
                }
                Ok(file)
            })
            // The --csv given cannot be opened, before anything is searched: a bad flag.
            .map_err(|e| {
                bad(format!(
                    "cannot write the --csv file {}: {e}",
                    path.display()
                ))
            })?;
        let writer = csv::WriterBuilder::new()
            .has_headers(kept_bytes == 0)
            .from_writer(file);
        let csv = Self {
            path: path.to_path_buf(),
            writer,
            error: None,
        };
        Ok((done, csv))
    }

    /// Appends a finished position's row and flushes it, so that an interrupted suite
    /// loses no finished position. After a failed write nothing more is written.
    pub fn append(&mut self, outcome: &Outcome, searcher: &SearcherRow) {
        if self.error.is_some() {
            return;
        }
        let written = self
            .writer
            .serialize((&outcome.row, searcher.columns()))
            .and_then(|()| Ok(self.writer.flush()?));
        if let Err(e) = written {
            self.error = Some(format!("{}: {e}", self.path.display()));
        }
    }

    /// The first write that failed, if one did.
    ///
    /// # Errors
    /// [`SuiteCsvError::Failed`], naming the file.
    pub fn check(&self) -> Result<(), SuiteCsvError> {
        self.error
            .clone()
            .map_or(Ok(()), |e| Err(SuiteCsvError::Failed(e)))
    }

    /// Writes the finished suite's rows to the file again, in the test set's order, so
    /// that runs on any `--jobs` differ only in their timings (the rows were appended as
    /// positions finished, in no fixed order with several workers).
    ///
    /// # Errors
    /// [`SuiteCsvError::Failed`]: an earlier write failed, or this one did.
    pub fn finish(self, outcomes: &[Outcome], searcher: &SearcherRow) -> Result<(), SuiteCsvError> {
        self.check()?;
        let Self { path, writer, .. } = self;
        drop(writer);
        let failed =
            |e: &dyn std::fmt::Display| SuiteCsvError::Failed(format!("{}: {e}", path.display()));
        let mut w = csv::Writer::from_writer(Vec::new());
        for outcome in outcomes {
            w.serialize((&outcome.row, searcher.columns()))
                .map_err(|e| failed(&e))?;
        }
        let bytes = w.into_inner().map_err(|e| failed(&e))?;
        crate::output::replace_bytes(&path, &bytes).map_err(|e| failed(&e))
    }
}

/// The rows an interrupted `suite --csv` left in `path`, and the length of the file that
/// holds them: a last line without its line end was torn by a run killed while writing it,
/// and is dropped (its position searched again). Refused: a first line that is not the
/// header the suite writes, a row that does not read, or one that another search wrote
/// ([`same_search`]).
fn resumed_rows(
    path: &Path,
    searcher: &SearcherVariant,
    positions: &[PositionEntry],
) -> Result<(Vec<Outcome>, u64), SuiteCsvError> {
    let bad =
        |e: &dyn std::fmt::Display| SuiteCsvError::BadInput(format!("{}: {e}", path.display()));
    let bytes = crate::input::read(path, crate::input::Cap::RESULTS).map_err(|e| bad(&e))?;
    let whole_lines = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole_lines == 0 {
        // Not even the header was finished: nothing to keep.
        return Ok((Vec::new(), 0));
    }
    let mut reader = csv::Reader::from_reader(&bytes[..whole_lines]);
    let headers = reader.headers().map_err(|e| bad(&e))?.clone();
    let columns = suite_columns();
    if !headers.iter().eq(columns.iter().copied()) {
        return Err(bad(&format!(
            "line 1 is not the header `plylab suite --csv` writes ({} columns, from `{}`), so \
             its rows cannot be resumed: give the file an interrupted suite wrote, or --force \
             to replace it",
            columns.len(),
            columns[..3].join(",")
        )));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| bad(&e))?;
        let row: Row = record.deserialize(Some(&headers)).map_err(|e| bad(&e))?;
        same_search(&headers, &record, searcher, positions).map_err(|e| bad(&e))?;
        rows.push(row);
    }
    let done = suite::resumed(rows, positions).map_err(|e| bad(&e))?;
    Ok((done, whole_lines as u64))
}

/// Refuses a row of an earlier suite run that another search wrote: another test set,
/// searcher (limits included), seed, algorithm, thread count or techniques.
fn same_search(
    headers: &csv::StringRecord,
    record: &csv::StringRecord,
    searcher: &SearcherVariant,
    positions: &[PositionEntry],
) -> Result<(), String> {
    let set = positions.first().map_or("", |p| p.set.as_str());
    let expected = [
        ("set", set.to_owned()),
        ("searcher", searcher.name()),
        ("seed", searcher.config.seed.to_string()),
        ("algorithm", searcher.algorithm_name()),
        ("threads", searcher.config.threads.to_string()),
        ("params", searcher.params()),
    ];
    for (column, want) in expected {
        let found = headers
            .iter()
            .position(|h| h == column)
            .and_then(|i| record.get(i));
        if found != Some(want.as_str()) {
            return Err(format!(
                "line {}: `{column}` is `{}` but this run's is `{want}`: rows of another search \
                 cannot be resumed (give the same set, flags and limits, or another --csv)",
                record.position().map_or(0, csv::Position::line),
                found.unwrap_or("(missing)"),
            ));
        }
    }
    Ok(())
}
