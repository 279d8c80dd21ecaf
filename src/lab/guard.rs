//! Results directories that never lose or mix results (issue 19, points 8 and 10).
//!
//! - A run into a directory that already holds results refuses (exit code 2) unless
//!   `--resume` (keep the finished jobs, run the rest) or `--force` (start afresh) is given.
//! - `--resume` keeps each finished job whose own resolved configuration (position, searcher
//!   configuration, limits, repetition, seed) is still a job of the experiment file, however
//!   the rest of the file was edited: adding a searcher runs only its jobs. Kept rows take the
//!   job numbers of the new plan.
//! - A run starts by removing the summary and charts that `plot` draws from the CSV, so
//!   that none can disagree with it if the run is interrupted.
//! - What `--resume` and `plylab merge` read back is read here: a result table's rows, job
//!   by job, with a torn last line or a damaged row named rather than fatal
//!   (`whole_jobs`), and run.json's experiment and shard, which must be this run's.

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File};
use std::path::Path;

use super::error::{RunError, csv_err, io};
use super::machine::recorded_run;
use super::record::Row;
use super::shards::{Shard, ShardRecord};
use super::spec::{Job, Plan, SearcherVariant};
use crate::input::{Cap, Capped};

/// The files a run or a merge writes; a directory holding one of them holds results.
pub const RESULT_FILES: [&str; 8] = [
    "searches.csv",
    "searches.csv.gz",
    "searchers.csv",
    "games.csv",
    "games.csv.gz",
    "run.json",
    "standings.csv",
    "games.pgn",
];

/// Whether `out` holds results of a run.
#[must_use]
pub fn holds_results(out: &Path) -> bool {
    RESULT_FILES.iter().any(|f| out.join(f).exists())
}

/// Refuses to write into `out` when it is a file, or holds results unless `resume` or
/// `force`.
///
/// # Errors
/// [`RunError::Refused`] naming the directory, what it holds, and the flags that proceed.
pub fn check_out(out: &Path, resume: bool, force: bool) -> Result<(), RunError> {
    if out.exists() && !out.is_dir() {
        return Err(RunError::Refused(format!(
            "{} is a file, not a results directory: --out DIR writes elsewhere",
            out.display()
        )));
    }
    if resume || force || !holds_results(out) {
        return Ok(());
    }
    let what = recorded_run(out).map_or_else(
        || "results".to_owned(),
        |r| {
            format!(
                "results of experiment `{}` (run of {}, commit {})",
                r.experiment,
                r.date,
                r.git_commit.chars().take(12).collect::<String>()
            )
        },
    );
    Err(RunError::Refused(format!(
        "{} already holds {what}; --resume keeps its finished jobs and runs the rest, \
         --force replaces it, --out DIR writes elsewhere",
        out.display()
    )))
}

/// Removes what `plot` draws from the CSV (summary.md and the .png and .svg charts) from
/// `out`; with `force`, the earlier results too. Only from a directory that holds results
/// ([`holds_results`]): in any other, a .png or a summary.md was not drawn from them, and
/// is the user's. Other files are left alone.
///
/// # Errors
/// [`RunError::Io`] when a file cannot be removed.
pub fn clear_outputs(out: &Path, force: bool) -> Result<(), RunError> {
    if !holds_results(out) {
        return Ok(());
    }
    let Ok(entries) = fs::read_dir(out) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let drawn = name == "summary.md"
            || Path::new(&name)
                .extension()
                .is_some_and(|e| e == "png" || e == "svg");
        let result = force && RESULT_FILES.contains(&name.as_str());
        if (drawn || result) && path.is_file() {
            fs::remove_file(&path).map_err(io(&path))?;
        }
    }
    Ok(())
}

/// The rows of an earlier run in `out` (read from `csv_path`) to keep for `plan`: those of
/// every whole job whose [`Job::identity`] is still a job of `plan`, renumbered as that job.
/// The earlier plan is rebuilt from the experiment text its run.json records.
///
/// The caller has checked that `out` holds this experiment's results ([`check_same_name`]).
///
/// # Errors
/// [`RunError::Refused`] when `out` holds results whose experiment text no longer
/// validates; I/O and CSV errors as they come.
pub fn kept_rows(plan: &Plan, out: &Path, csv_path: &Path) -> Result<Vec<Row>, RunError> {
    if !csv_path.exists() {
        nothing_to_resume(out);
        return Ok(Vec::new());
    }
    let refuse = |why: String| {
        RunError::Refused(format!(
            "{}: {why}; --force starts afresh, --out DIR writes elsewhere",
            out.display()
        ))
    };
    let recorded = recorded_run(out)
        .ok_or_else(|| refuse("no readable run.json to tell which jobs its rows are".into()))?;
    let quick = recorded.quick || recorded.shard.as_ref().is_some_and(|s| s.quick);
    // Parsed as if it were the file run now, whose directory its relative paths (data sets,
    // weights) are found from: the path run.json records is relative to the directory that
    // run was started in, which this one need not share.
    let earlier = super::spec::parse(&plan.file, &recorded.text)
        .map(|p| if quick { p.quick() } else { p })
        .map_err(|e| {
            refuse(format!(
                "the earlier run's experiment text no longer validates: {e}"
            ))
        })?;
    let now: HashMap<String, &Job> = plan.jobs.iter().map(|j| (j.identity(), j)).collect();
    // A job whose searcher reads a file changed since is another job, though its
    // configuration reads the same.
    let changed = changed_inputs(&recorded.inputs, &plan.inputs);
    let then: Vec<Option<&Job>> = earlier
        .jobs
        .iter()
        .map(|j| now.get(&j.identity()).copied())
        .map(|j| j.filter(|j| !reads_any(&j.searcher, &changed)))
        .collect();
    let reader = flexible_csv(csv_path).map_err(io(csv_path))?;
    let (mut rows, damaged) = whole_jobs(reader, csv_path)?;
    if let Some(note) = damaged_note(&damaged) {
        // Run again rather than kept: say so, for a damaged file is not an interrupted one.
        crate::tell!("note: {}: {note}", csv_path.display());
    }
    // A row is kept when its job is still in the plan and names the same searcher and
    // position (the rows themselves are checked, not only the earlier file).
    let mut keep: HashMap<usize, Option<usize>> = HashMap::new();
    for row in &rows {
        let target = then.get(row.job).copied().flatten();
        let same = target.is_some_and(|j| {
            j.searcher.name() == row.searcher
                && j.position.label == row.position
                && j.position.set == row.set
        });
        let entry = keep.entry(row.job).or_insert(target.map(|j| j.id));
        if !same {
            *entry = None;
        }
    }
    rows.retain_mut(|row| match keep.get(&row.job).copied().flatten() {
        Some(id) => {
            row.job = id;
            true
        }
        None => false,
    });
    Ok(rows)
}

/// Refuses to resume into `out` when its run.json records another experiment (or match),
/// whether or not its rows are there: resumed, this run would write its own rows and
/// run.json beside the other's files.
///
/// # Errors
/// [`RunError::Refused`] naming both experiments.
pub fn check_same_name(out: &Path, name: &str) -> Result<(), RunError> {
    match recorded_run(out) {
        Some(recorded) if recorded.experiment != name => Err(RunError::Refused(format!(
            "{}: holds results of a different experiment file (experiment `{}`, not `{name}`); \
             --force starts afresh, --out DIR writes elsewhere",
            out.display(),
            recorded.experiment
        ))),
        _ => Ok(()),
    }
}

/// Where a run to be resumed has only the compressed form of its rows (`csv_path` with
/// `.gz`, as committed results keep them), writes the plain file it appends to
/// ([`crate::compressed::restore`]).
///
/// # Errors
/// [`RunError::Refused`] (bad input) when the compressed file is damaged, naming it;
/// [`RunError::Io`] when the files cannot be read or written.
pub fn restore_rows(csv_path: &Path) -> Result<(), RunError> {
    match crate::compressed::restore(csv_path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Err(RunError::Refused(format!(
            "{e}; --force starts afresh, --out DIR writes elsewhere"
        ))),
        Err(e) => Err(io(csv_path)(e)),
    }
}

/// Says on stderr that `--resume` found no earlier rows in `out`, so that a mistyped `--out`
/// is seen at once rather than after a whole run afresh.
pub fn nothing_to_resume(out: &Path) {
    crate::tell!(
        "note: --resume: {} holds no earlier rows; everything runs",
        out.display()
    );
}

/// The CSV of an earlier run in `out`, opened for `--resume` (records of any length, so
/// that a torn last line can be dropped); `None` when there is none; an error when `out`
/// holds another experiment's results (run.json's text is not `text`).
pub(crate) fn resumable_csv(
    out: &Path,
    csv_path: &Path,
    text: &str,
) -> Result<Option<csv::Reader<Capped<File>>>, RunError> {
    if !csv_path.exists() {
        nothing_to_resume(out);
        return Ok(None);
    }
    check_same_experiment(out, text)?;
    flexible_csv(csv_path).map(Some).map_err(io(csv_path))
}

/// Refuses to resume into `out` unless its run.json records the experiment text `text`.
pub fn check_same_experiment(out: &Path, text: &str) -> Result<(), RunError> {
    let recorded = recorded_run(out);
    if recorded.as_ref().map(|r| r.text.as_str()) != Some(text) {
        return Err(RunError::Resume(format!(
            "{} holds results of a different experiment file (run.json's text differs); \
             remove them or choose another --out",
            out.display()
        )));
    }
    Ok(())
}

/// Refuses to resume into `out` unless its run.json records the same shard (or none).
pub(crate) fn check_same_shard(out: &Path, shard: Option<&ShardRecord>) -> Result<(), RunError> {
    let Some(recorded) = recorded_run(out) else {
        return Ok(());
    };
    let part = |s: Option<&ShardRecord>| s.map(ShardRecord::shard);
    if part(recorded.shard.as_ref()) == part(shard) {
        return Ok(());
    }
    let name = |s: Option<Shard>| {
        s.map_or_else(
            || "the whole experiment".to_owned(),
            |s| format!("shard {s}"),
        )
    };
    Err(RunError::Resume(format!(
        "{} holds results of {}, not {}; remove them or choose another --out",
        out.display(),
        name(part(recorded.shard.as_ref())),
        name(part(shard))
    )))
}

/// A result table of ours opened to be read back, within [`Cap::RESULTS`], its records of
/// any length (a torn last line is then dropped by the caller, not an error).
///
/// # Errors
/// The file cannot be opened, or is larger than the cap.
pub(crate) fn flexible_csv(path: &Path) -> std::io::Result<csv::Reader<Capped<File>>> {
    let file = crate::input::open(path, Cap::RESULTS)?;
    Ok(csv::ReaderBuilder::new().flexible(true).from_reader(file))
}

/// The rows of the jobs whose rows are all in `reader` (the file at `csv_path`), and why
/// each job it left out was left out, by job id: the first of its rows that does not read
/// (line, column and cause), a last line that lacks its line end (torn by a run stopped
/// while writing it, however many of its columns are there), or its rows' count against its
/// `iterations`. The jobs left out run again; `merge` names them (a finished shard's
/// damaged rows are not "unfinished").
pub(crate) fn whole_jobs<R: std::io::Read>(
    mut reader: csv::Reader<R>,
    csv_path: &Path,
) -> Result<(Vec<Row>, BTreeMap<usize, String>), RunError> {
    let headers = reader.headers().map_err(csv_err(csv_path))?.clone();
    let mut why: BTreeMap<usize, String> = BTreeMap::new();
    let mut rows: Vec<Row> = Vec::new();
    let records = readable_records(&mut reader, csv_path)?;
    let torn = !ends_with_line_end(csv_path);
    for (index, record) in records.iter().enumerate() {
        let line = record.position().map_or(0, csv::Position::line);
        let unreadable = if torn && index + 1 == records.len() {
            format!("line {line} has no line end: torn while being written")
        } else if record.len() == headers.len() {
            match record.deserialize::<Row>(Some(&headers)) {
                Ok(row) => match row.implausible_column() {
                    Some((column, why)) => format!("line {line}, column `{column}`: {why}"),
                    None => {
                        rows.push(row);
                        continue;
                    }
                },
                Err(e) => match e.kind() {
                    csv::ErrorKind::Deserialize { err, .. } => {
                        let column = err
                            .field()
                            .and_then(|f| headers.get(usize::try_from(f).ok()?))
                            .unwrap_or("?");
                        format!("line {line}, column `{column}`: {}", err.kind())
                    }
                    _ => format!("line {line}: {e}"),
                },
            }
        } else {
            let (n, m) = (record.len(), headers.len());
            format!("line {line} has {n} fields, not {m}")
        };
        if let Some(job) = record.get(0).and_then(|j| j.parse().ok()) {
            why.entry(job).or_insert(unreadable);
        }
    }
    let mut present = BTreeMap::<usize, u32>::new();
    for row in &rows {
        *present.entry(row.job).or_default() += 1;
    }
    for row in &rows {
        if present[&row.job] != row.iterations {
            let (n, of) = (present[&row.job], row.iterations);
            why.entry(row.job)
                .or_insert_with(|| format!("{n} rows for its {of} iterations"));
        }
    }
    let rows = rows
        .into_iter()
        .filter(|row| !why.contains_key(&row.job))
        .collect();
    Ok((rows, why))
}

/// Whether the file at `path` is empty or ends with a line end, as every file the runner
/// writes does once its last row is whole (true when it cannot be read: the reader reports
/// that; and for a `.gz`, compressed from a finished file and read whole or not at all).
pub(crate) fn ends_with_line_end(path: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    if path.extension().is_some_and(|e| e == "gz") {
        return true;
    }
    let last_byte = || -> std::io::Result<Option<u8>> {
        let mut file = File::open(path)?;
        if file.metadata()?.len() == 0 {
            return Ok(None);
        }
        file.seek(SeekFrom::End(-1))?;
        let mut byte = [0];
        file.read_exact(&mut byte)?;
        Ok(Some(byte[0]))
    };
    last_byte().map_or(true, |b| b.is_none_or(|b| b == b'\n'))
}

/// The records of `reader` that parse (a torn last line does not, and is skipped). An I/O
/// error ends the reading as a refusal: every later read would repeat it (a file past its
/// size cap, [`crate::input::Cap::RESULTS`]), so skipping it would never end.
pub(crate) fn readable_records<R: std::io::Read>(
    reader: &mut csv::Reader<R>,
    csv_path: &Path,
) -> Result<Vec<csv::StringRecord>, RunError> {
    let mut records = Vec::new();
    for record in reader.records() {
        match record {
            Ok(record) => records.push(record),
            Err(e) if e.is_io_error() => {
                return Err(RunError::Resume(format!("{}: {e}", csv_path.display())));
            }
            Err(_) => {}
        }
    }
    Ok(records)
}

/// The files whose fingerprint `now` differs from the one an earlier run `recorded`
/// ([`crate::lab::machine::RunInfo::inputs`]; a run.json from before it records none), each
/// named on stderr: what was searched with their earlier contents is run again.
#[must_use]
pub fn changed_inputs(
    recorded: &BTreeMap<String, String>,
    now: &BTreeMap<String, String>,
) -> Vec<String> {
    let changed: Vec<String> = recorded
        .iter()
        .filter(|&(file, print)| now.get(file) != Some(print))
        .map(|(file, _)| file.clone())
        .collect();
    for file in &changed {
        crate::tell!(
            "note: {file} has changed since the earlier run: what its searchers did is done again"
        );
    }
    changed
}

/// Whether `searcher` reads one of `files`.
#[must_use]
pub fn reads_any(searcher: &SearcherVariant, files: &[String]) -> bool {
    !files.is_empty() && searcher.input_files().iter().any(|f| files.contains(f))
}

/// The jobs whose rows a resumed run does not keep, as [`whole_jobs`] gives them,
/// the first three with why; `None` when every job's rows read.
fn damaged_note(damaged: &BTreeMap<usize, String>) -> Option<String> {
    if damaged.is_empty() {
        return None;
    }
    let jobs: Vec<String> = damaged
        .iter()
        .map(|(job, why)| format!("job {job}: {why}"))
        .collect();
    let (whose, those) = if damaged.len() == 1 {
        ("job's", "that job runs")
    } else {
        ("jobs'", "those jobs run")
    };
    Some(format!(
        "{} {whose} rows are not kept, and {those} again ({})",
        damaged.len(),
        super::diagnose::first_few(&jobs, 3, "; ")
    ))
}

/// A lock on an output directory for as long as one run writes there: a second run into
/// the same directory is refused rather than let in, for the two would each write
/// searches.csv (games.csv) again through a rename and lose the rows the other appended.
/// The lock is the directory's own (`flock` on Linux, through [`fs::File::try_lock`]), so
/// nothing is left behind, and the system drops it when the process ends however it ends.
#[derive(Debug, Default)]
pub struct DirLock(Option<fs::File>);

impl DirLock {
    /// Locks `out` if it is there (before anything there is read); one not there yet is
    /// locked by [`DirLock::hold`] once made.
    ///
    /// # Errors
    /// [`RunError::Refused`] when another run holds the lock.
    pub fn take(out: &Path) -> Result<Self, RunError> {
        if !out.is_dir() {
            return Ok(Self(None));
        }
        let dir = fs::File::open(out).map_err(io(out))?;
        match dir.try_lock() {
            Ok(()) => Ok(Self(Some(dir))),
            Err(fs::TryLockError::WouldBlock) => Err(RunError::Refused(format!(
                "{}: another plylab run is writing there; wait for it to finish, or --out \
                 DIR writes elsewhere",
                out.display()
            ))),
            Err(fs::TryLockError::Error(e)) => Err(io(out)(e)),
        }
    }

    /// Locks `out`, made since [`DirLock::take`], unless it is locked already.
    ///
    /// # Errors
    /// As [`DirLock::take`].
    pub fn hold(&mut self, out: &Path) -> Result<(), RunError> {
        if self.0.is_none() {
            *self = Self::take(out)?;
        }
        Ok(())
    }
}

/// Creates the output directory `out` (and its parents) before anything runs.
///
/// # Errors
/// [`RunError::Refused`] (bad input: the `--out` given, or the place it defaults to, cannot
/// hold results) when it cannot be created.
pub fn create(out: &Path) -> Result<(), RunError> {
    fs::create_dir_all(out).map_err(|e| {
        RunError::Refused(format!(
            "cannot create the output directory {}: {e} (choose another --out)",
            out.display()
        ))
    })
}
