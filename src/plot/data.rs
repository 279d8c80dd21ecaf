//! Reading `searches.csv` and `run.json` into plain values.
//!
//! Columns are found by header name; unknown columns are ignored, so the runner may add
//! columns without breaking the charts. Empty cells mean "not applicable" and read as `None`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use csv::StringRecord;

use super::error::PlotError;
use super::stats::{ParallelFigures, parallel_ratios};

/// The columns of `searches.csv` that the charts and the summary read.
pub const REQUIRED_COLUMNS: [&str; 15] = [
    "game",
    "position",
    "searcher",
    "seed",
    "repetition",
    "depth",
    "nodes",
    "leaf_nodes",
    "first_move_cutoff_rate",
    "ebf",
    "ebf_root",
    "branching",
    "minimal_leaves",
    "elapsed_s",
    "nps",
];

/// Columns read when present: older or hand-made CSVs may lack them. `experiment`,
/// `threads` and `oversubscribed` are no longer written on every row (the experiment's name is
/// in run.json, a searcher's threads and machine use in searchers.csv): when absent they are
/// taken from those files ([`read_searches`]).
pub const OPTIONAL_COLUMNS: [&str; 16] = [
    "experiment",
    "job",
    "step",
    "set",
    "solved",
    "threads",
    "playouts",
    "playouts_per_s",
    "time_to_depth_s",
    "total_nodes",
    "speedup",
    "overhead",
    "nps_scaling",
    "oversubscribed",
    "total_s",
    "params",
];

/// One completed iteration of one job: one row of `searches.csv`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchRow {
    /// Experiment name.
    pub experiment: String,
    /// Game name: `tictactoe`, `connect4`, `random_tree`, ...
    pub game: String,
    /// Position label (for random trees, the parameters that rebuild the tree).
    pub position: String,
    /// Where the position came from (`start`, `list`, a test set's file name, `random_tree`);
    /// empty if the CSV has no `set` column.
    pub set: String,
    /// The user's label for the search configuration.
    pub searcher: String,
    /// Seed of the job, as written.
    pub seed: String,
    /// Repetition index of the job, as written.
    pub repetition: String,
    /// Iteration depth in plies.
    pub depth: u32,
    /// Nodes visited by this iteration alone.
    pub nodes: f64,
    /// Leaf (horizon or terminal) nodes of this iteration alone.
    pub leaf_nodes: f64,
    /// First-move cutoffs / beta cutoffs, if there were cutoffs.
    pub first_move_cutoff_rate: Option<f64>,
    /// nodes(d) / nodes(d-1) of successive iterations; `None` for the first iteration.
    pub ebf: Option<f64>,
    /// nodes^(1/d).
    pub ebf_root: Option<f64>,
    /// b for uniform random trees, the mean number of legal moves otherwise.
    pub branching: Option<f64>,
    /// Knuth–Moore minimal leaf count for uniform trees.
    pub minimal_leaves: Option<f64>,
    /// Wall time of the iteration in seconds.
    pub elapsed_s: Option<f64>,
    /// Nodes per second.
    pub nps: Option<f64>,
    /// Whether the job's final answer matched the test set's (last row of a job only).
    pub solved: Option<bool>,
    /// Search threads (1 if the CSV has no `threads` column).
    pub threads: u32,
    /// Monte Carlo rows: playouts made; `None` for the alpha-beta family.
    pub playouts: Option<f64>,
    /// Monte Carlo rows: playouts per second.
    pub playouts_per_s: Option<f64>,
    /// Last row of a job's first search (alpha-beta family): seconds to its deepest depth.
    pub time_to_depth_s: Option<f64>,
    /// On the same row: nodes of every thread (alpha-beta family) or tree nodes (Monte Carlo).
    pub total_nodes: Option<f64>,
    /// Time-to-depth speedup against the job's one-thread twin.
    pub speedup: Option<f64>,
    /// Search overhead: total nodes against the one-thread twin's.
    pub overhead: Option<f64>,
    /// Nodes (or playouts) per second against the one-thread twin's.
    pub nps_scaling: Option<f64>,
    /// Whether the job's threads outnumbered the free cores.
    pub oversubscribed: Option<bool>,
    /// On the row with `total_nodes`: seconds of the whole search, the interrupted
    /// iteration included.
    pub total_s: Option<f64>,
    /// Whether the row is from a later search of a job played out (`step` above 0): the
    /// first search's `total_nodes` and `total_s` leave it out.
    pub later_search: bool,
    /// Whether its searcher orders a random tree's moves by their true values
    /// (`oracle=perfect` among the `params` of searchers.csv, or of searches.csv where it
    /// has them), so that its leaves must be exactly the Knuth–Moore minimal tree's.
    pub perfect_order: bool,
}

impl SearchRow {
    /// The identity of the searched instance (game, position, seed, repetition): rows of the
    /// same instance and searcher form one iterative-deepening run.
    #[must_use]
    pub fn instance(&self) -> (&str, &str, &str, &str) {
        (&self.game, &self.position, &self.seed, &self.repetition)
    }
}

/// Reads `searches.csv`, checking the header, every number, and that no row is there twice.
///
/// # Errors
/// [`PlotError::Io`] if the file cannot be opened, [`PlotError::MissingColumn`],
/// [`PlotError::NoRows`], [`PlotError::BadNumber`] or [`PlotError::Csv`] for bad content,
/// [`PlotError::Inconsistent`] for a repeated row.
pub fn read_searches(path: &Path) -> Result<Vec<SearchRow>, PlotError> {
    let keyed = read_rows(path, &REQUIRED_COLUMNS, &OPTIONAL_COLUMNS, |cell| {
        Ok((parse_search(cell)?, row_identity(cell)))
    })?;
    let (mut rows, identities): (Vec<_>, Vec<_>) = keyed.into_iter().unzip();
    refuse_repeated_rows(path, &identities)?;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let searchers = dir.join(SEARCHERS_CSV);
    if searchers.exists() {
        let variants = read_rows(
            &searchers,
            &SEARCHER_COLUMNS,
            &SEARCHER_OPTIONAL_COLUMNS,
            parse_searcher,
        )?;
        let has_threads = crate::compressed::open(path)
            .ok()
            .map(csv::Reader::from_reader)
            .and_then(|mut r| r.headers().ok().map(|h| h.iter().any(|c| c == "threads")))
            .unwrap_or(false);
        if let Some(row) = rows
            .iter()
            .find(|r| !variants.iter().any(|v| v.searcher == r.searcher))
        {
            return Err(PlotError::Inconsistent {
                path: path.to_path_buf(),
                message: format!(
                    "searcher `{}` is not in {} beside it, which describes every searcher of a run",
                    row.searcher,
                    searchers.display()
                ),
            });
        }
        complete_rows(&mut rows, &variants, has_threads);
    }
    if rows.iter().any(|r| r.experiment.is_empty()) {
        let name = RunInfo::read(&dir.join("run.json")).experiment;
        for row in rows.iter_mut().filter(|r| r.experiment.is_empty()) {
            row.experiment
                .clone_from(name.as_ref().unwrap_or(&String::new()));
        }
    }
    Ok(rows)
}

/// The cells that name one iteration of one job: the runner writes each row once, so a row
/// whose identity is already in the file (two files pasted together, a shard merged twice)
/// would count its job twice in every mean.
fn row_identity(cell: &Cell<'_>) -> Vec<String> {
    [
        "experiment",
        "job",
        "searcher",
        "game",
        "set",
        "position",
        "seed",
        "repetition",
        "step",
        "depth",
    ]
    .iter()
    .map(|column| cell.text(column))
    .collect()
}

/// Refuses a file in which two rows have the same [`row_identity`], naming both lines.
fn refuse_repeated_rows(path: &Path, identities: &[Vec<String>]) -> Result<(), PlotError> {
    let mut first_line = HashMap::with_capacity(identities.len());
    for (index, identity) in identities.iter().enumerate() {
        // Line 1 is the header (as in read_rows).
        let line = index + 2;
        if let Some(&first) = first_line.get(identity) {
            return Err(PlotError::Inconsistent {
                path: path.to_path_buf(),
                message: format!(
                    "line {line} repeats line {first}: the same job, step and depth \
                     (searcher `{}`, position `{}`, depth {}); each iteration is written once, \
                     so the file holds a run twice (were two files or shards pasted together?)",
                    identity[2], identity[5], identity[9]
                ),
            });
        }
        first_line.insert(identity, line);
    }
    Ok(())
}

/// The file beside searches.csv that holds each searcher variant's configuration once.
pub const SEARCHERS_CSV: &str = "searchers.csv";

/// The columns of searchers.csv read here.
const SEARCHER_COLUMNS: [&str; 2] = ["searcher", "threads"];

/// Columns of searchers.csv read when present.
const SEARCHER_OPTIONAL_COLUMNS: [&str; 3] = ["baseline", "oversubscribed", "params"];

/// A searcher variant's row of searchers.csv, as far as the charts need it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearcherInfo {
    /// The variant's name (searches.csv's `searcher`).
    pub searcher: String,
    /// Search threads.
    pub threads: u32,
    /// Its one-thread twin's name, if any.
    pub baseline: Option<String>,
    /// Whether its jobs may have shared the cores with more threads than there were.
    pub oversubscribed: Option<bool>,
    /// Whether it orders random trees perfectly ([`SearchRow::perfect_order`]).
    pub perfect_order: bool,
}

/// Whether a `params` cell names the perfect oracle order (`oracle=perfect`).
fn orders_perfectly(params: &str) -> bool {
    params.split_whitespace().any(|p| p == "oracle=perfect")
}

fn parse_searcher(cell: &Cell<'_>) -> Result<SearcherInfo, PlotError> {
    Ok(SearcherInfo {
        searcher: cell.text("searcher"),
        threads: cell.threads()?.ok_or_else(|| cell.bad("threads"))?,
        baseline: Some(cell.text("baseline")).filter(|b| !b.is_empty()),
        oversubscribed: cell.flag("oversubscribed")?,
        perfect_order: orders_perfectly(&cell.text("params")),
    })
}

/// Gives `rows` what searchers.csv holds once per variant: threads and `oversubscribed`
/// where searches.csv has no such column, and the parallel ratios (speedup, overhead,
/// nps_scaling) computed here against each variant's one-thread twin, so that a run that was
/// interrupted or resumed gets them as a whole one does (issue 19, point 12).
fn complete_rows(rows: &mut [SearchRow], variants: &[SearcherInfo], has_threads: bool) {
    let variant = |name: &str| variants.iter().find(|v| v.searcher == name);
    for row in rows.iter_mut() {
        if let Some(v) = variant(&row.searcher) {
            if !has_threads {
                row.threads = v.threads;
            }
            if row.oversubscribed.is_none() {
                row.oversubscribed = v.oversubscribed;
            }
            row.perfect_order |= v.perfect_order;
        }
    }
    if variants.iter().all(|v| v.baseline.is_none()) {
        return;
    }
    // The row of each job's first search that closes it (the one with total_nodes), by
    // searcher and instance and depth.
    type Key = (String, String, String, String, String, String, u32);
    let key = |searcher: &str, r: &SearchRow| -> Key {
        (
            searcher.to_owned(),
            r.game.clone(),
            r.set.clone(),
            r.position.clone(),
            r.seed.clone(),
            r.repetition.clone(),
            r.depth,
        )
    };
    let figures = |r: &SearchRow| {
        Some(ParallelFigures {
            time_to_depth_s: r.time_to_depth_s,
            total_nodes: r.total_nodes?,
            playouts_per_s: r.playouts_per_s,
        })
    };
    let finals: HashMap<Key, ParallelFigures> = rows
        .iter()
        .filter_map(|r| Some((key(&r.searcher, r), figures(r)?)))
        .collect();
    for row in rows.iter_mut() {
        let Some(job) = figures(row) else {
            continue;
        };
        let Some(base) = variant(&row.searcher).and_then(|v| v.baseline.as_deref()) else {
            continue;
        };
        let Some(&twin) = finals.get(&key(base, row)) else {
            continue;
        };
        let ratios = parallel_ratios(twin, job);
        (row.speedup, row.overhead, row.nps_scaling) =
            (ratios.speedup, ratios.overhead, ratios.nps_scaling);
    }
}

/// Reads a CSV file with a header: every `required` column must be there, `optional` ones
/// are read when present, and each record becomes a row through `parse`.
///
/// # Errors
/// As [`read_searches`], with whatever `parse` reports.
pub(crate) fn read_rows<T>(
    path: &Path,
    required: &[&'static str],
    optional: &[&'static str],
    parse: impl Fn(&Cell<'_>) -> Result<T, PlotError>,
) -> Result<Vec<T>, PlotError> {
    // A committed searches.csv is kept as searches.csv.gz (see crate::compressed).
    let file = crate::compressed::open(path).map_err(|e| PlotError::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(file);
    let header = reader.headers().map_err(|e| csv_error(path, &e))?.clone();
    let columns = Columns::find(path, &header, required, optional)?;
    let mut rows = Vec::new();
    let mut record = StringRecord::new();
    loop {
        // The header is line 1 and every record one line (no field plylab writes holds a
        // newline). Not csv's own position: after a long header it counts the header's line
        // end with the first record, so every error named the line above.
        let line = rows.len() as u64 + 2;
        if !reader
            .read_record(&mut record)
            .map_err(|e| csv_error(path, &e))?
        {
            break;
        }
        rows.push(parse(&Cell {
            path,
            line,
            record: &record,
            columns: &columns,
        })?);
    }
    if rows.is_empty() {
        return Err(PlotError::NoRows {
            path: path.to_path_buf(),
        });
    }
    Ok(rows)
}

fn csv_error(path: &Path, error: &csv::Error) -> PlotError {
    // A read that failed (a file past its size cap) is not malformed CSV.
    if let csv::ErrorKind::Io(e) = error.kind() {
        return PlotError::io(path, std::io::Error::new(e.kind(), e.to_string()));
    }
    PlotError::Csv {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

/// Header name to field index, for the columns a reader asked for.
pub(crate) struct Columns(HashMap<&'static str, usize>);

impl Columns {
    fn find(
        path: &Path,
        header: &StringRecord,
        required: &[&'static str],
        optional: &[&'static str],
    ) -> Result<Self, PlotError> {
        let mut map = HashMap::new();
        for &name in required {
            let index =
                header
                    .iter()
                    .position(|h| h == name)
                    .ok_or_else(|| PlotError::MissingColumn {
                        path: path.to_path_buf(),
                        column: name.to_string(),
                    })?;
            map.insert(name, index);
        }
        for &name in optional {
            if let Some(index) = header.iter().position(|h| h == name) {
                map.insert(name, index);
            }
        }
        Ok(Self(map))
    }
}

/// One row of `searches.csv`.
fn parse_search(cell: &Cell<'_>) -> Result<SearchRow, PlotError> {
    Ok(SearchRow {
        experiment: cell.text("experiment"),
        game: cell.game()?,
        position: cell.text("position"),
        set: cell.text("set"),
        searcher: cell.searcher()?,
        seed: cell.whole_text::<u64>("seed")?,
        repetition: cell.whole_text::<u32>("repetition")?,
        depth: cell.depth()?,
        nodes: cell.count("nodes")?,
        leaf_nodes: cell.count("leaf_nodes")?,
        first_move_cutoff_rate: cell.rate("first_move_cutoff_rate")?,
        ebf: cell.measure("ebf")?,
        ebf_root: cell.measure("ebf_root")?,
        branching: cell.measure("branching")?,
        minimal_leaves: cell.whole("minimal_leaves")?,
        elapsed_s: cell.measure("elapsed_s")?,
        nps: cell.measure("nps")?,
        solved: cell.flag("solved")?,
        // searches.csv files written before the column: one thread.
        threads: cell.threads()?.unwrap_or(1),
        playouts: cell.whole("playouts")?,
        playouts_per_s: cell.measure("playouts_per_s")?,
        time_to_depth_s: cell.measure("time_to_depth_s")?,
        total_nodes: cell.whole("total_nodes")?,
        speedup: cell.measure("speedup")?,
        overhead: cell.measure("overhead")?,
        nps_scaling: cell.measure("nps_scaling")?,
        oversubscribed: cell.flag("oversubscribed")?,
        total_s: cell.measure("total_s")?,
        later_search: cell.whole("step")?.is_some_and(|step| step > 0.0),
        perfect_order: orders_perfectly(&cell.text("params")),
    })
}

/// One record seen through the column map, with error reporting.
pub(crate) struct Cell<'a> {
    path: &'a Path,
    /// The record's 1-based line in the file.
    line: u64,
    record: &'a StringRecord,
    columns: &'a Columns,
}

impl Cell<'_> {
    /// The cell's text, empty when the column is absent.
    pub(crate) fn raw(&self, column: &str) -> &str {
        self.columns
            .0
            .get(column)
            .and_then(|&i| self.record.get(i))
            .unwrap_or("")
    }

    /// The cell's text, owned.
    pub(crate) fn text(&self, column: &str) -> String {
        self.raw(column).to_string()
    }

    /// The record's 1-based line in the file.
    fn line(&self) -> u64 {
        self.line
    }

    /// A [`PlotError::BadValue`] for this cell: it holds none of `expected`.
    pub(crate) fn bad_value(&self, column: &str, expected: &str) -> PlotError {
        PlotError::BadValue {
            path: self.path.to_path_buf(),
            line: self.line(),
            column: column.to_string(),
            value: self.raw(column).to_string(),
            expected: expected.to_string(),
        }
    }

    fn bad(&self, column: &str) -> PlotError {
        PlotError::BadNumber {
            path: self.path.to_path_buf(),
            line: self.line(),
            column: column.to_string(),
            value: self.raw(column).to_string(),
        }
    }

    /// The cell's number, `None` when empty.
    pub(crate) fn optional(&self, column: &str) -> Result<Option<f64>, PlotError> {
        let raw = self.raw(column);
        if raw.is_empty() {
            return Ok(None);
        }
        match raw.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Some(v)),
            _ => Err(self.bad(column)),
        }
    }

    fn flag(&self, column: &str) -> Result<Option<bool>, PlotError> {
        match self.raw(column) {
            "" => Ok(None),
            "true" => Ok(Some(true)),
            "false" => Ok(Some(false)),
            _ => Err(self.bad(column)),
        }
    }

    /// A count, time, rate or ratio: `None` when empty, else a number at least 0 (a
    /// negative one is a damaged file, not a measurement).
    fn measure(&self, column: &str) -> Result<Option<f64>, PlotError> {
        match self.optional(column)? {
            Some(v) if v < 0.0 => Err(self.bad_value(column, "a number at least 0")),
            v => Ok(v),
        }
    }

    /// A count: `None` when empty, else a whole number from 0 that a `u64` holds (nodes,
    /// leaves and playouts are counted one by one).
    fn whole(&self, column: &str) -> Result<Option<f64>, PlotError> {
        match self.measure(column)? {
            #[allow(clippy::cast_precision_loss)] // u64::MAX rounds up: the bound is inclusive
            Some(v) if v.fract() != 0.0 || v > u64::MAX as f64 => {
                Err(self.bad_value(column, "a whole number at least 0"))
            }
            v => Ok(v),
        }
    }

    /// A required [`Self::whole`].
    pub(crate) fn count(&self, column: &str) -> Result<f64, PlotError> {
        self.whole(column)?.ok_or_else(|| self.bad(column))
    }

    /// A fraction of events (first-move cutoffs among cutoffs): `None` when empty, else from
    /// 0 to 1.
    fn rate(&self, column: &str) -> Result<Option<f64>, PlotError> {
        match self.measure(column)? {
            Some(v) if v > 1.0 => Err(self.bad_value(column, "a rate from 0 to 1")),
            v => Ok(v),
        }
    }

    /// A column that holds a whole number of type `T` (a seed, a repetition), kept as its
    /// text: it names a search rather than measuring it.
    fn whole_text<T: std::str::FromStr>(&self, column: &str) -> Result<String, PlotError> {
        let text = self.raw(column);
        match text.parse::<T>() {
            Ok(_) => Ok(text.to_owned()),
            Err(_) => Err(self.bad_value(column, "a whole number at least 0")),
        }
    }

    /// The `game` column: one of plylab's games ([`crate::games::NAMES`]).
    fn game(&self) -> Result<String, PlotError> {
        let game = self.raw("game");
        if crate::games::NAMES.contains(&game) {
            Ok(game.to_owned())
        } else {
            Err(self.bad_value("game", &crate::games::NAMES.join(", ")))
        }
    }

    /// The `searcher` column: a label, never empty.
    fn searcher(&self) -> Result<String, PlotError> {
        match self.raw("searcher") {
            "" => Err(self.bad_value("searcher", "a searcher's label")),
            label => Ok(label.to_owned()),
        }
    }

    /// The `threads` column: `None` when empty, else a whole number from 1.
    fn threads(&self) -> Result<Option<u32>, PlotError> {
        match self.optional("threads")? {
            None => Ok(None),
            Some(t) if t >= 1.0 && t.fract() == 0.0 && t <= f64::from(u32::MAX) => {
                Ok(Some(t as u32))
            }
            Some(_) => Err(self.bad_value("threads", "a whole number from 1")),
        }
    }

    /// The `depth` column: plies, at most [`crate::search::MAX_DEPTH`] as every search is.
    pub(crate) fn depth(&self) -> Result<u32, PlotError> {
        let depth: u32 = self.raw("depth").parse().map_err(|_| self.bad("depth"))?;
        if depth > crate::search::MAX_DEPTH {
            let most = crate::search::MAX_DEPTH;
            return Err(self.bad_value("depth", &format!("a depth of 0 to {most} plies")));
        }
        Ok(depth)
    }
}

/// The machine and provenance facts of a run, from `run.json`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunInfo {
    /// Where the file was looked for.
    pub path: PathBuf,
    /// `false` if the file was missing or unreadable; the other fields are then empty.
    pub found: bool,
    /// Experiment name.
    pub experiment: Option<String>,
    /// CPU model name.
    pub cpu_model: Option<String>,
    /// Number of cores.
    pub cores: Option<u64>,
    /// ISO date of the run.
    pub date: Option<String>,
    /// Git commit of the harness.
    pub git_commit: Option<String>,
    /// Crate version of the harness.
    pub crate_version: Option<String>,
    /// The experiment's one-line description.
    pub description: Option<String>,
    /// Markdown notes from the experiment file, copied into summary.md.
    pub notes: Option<String>,
    /// Published figures to set beside the measured ones.
    pub references: Vec<Reference>,
    /// The command that runs the experiment again into the directory of run.json
    /// ([`regeneration_command`]), if run.json names its file.
    pub command: Option<String>,
    /// The shards a merged run was made from (`plylab merge`); 0 for a run on one machine.
    pub shards: usize,
    /// The keys present with another type than plylab writes (`"cores": "two"`): read as
    /// absent, they would quietly drop a fact from every footer.
    pub mistyped: Vec<&'static str>,
}

/// A published figure from the experiment file's `[[references]]`.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
pub struct Reference {
    /// The searcher label it compares with.
    pub searcher: String,
    /// The position set (a test set's file name).
    pub set: String,
    /// What is compared: `nodes` = mean total nodes per position over all iterations.
    pub metric: String,
    /// The published value.
    pub value: f64,
    /// Who published it, and where.
    pub source: String,
}

/// The command that runs experiment file `file` again into `out` as it was run (with `jobs`
/// workers, `--quick` if it was), for the summaries: committed results name the command that
/// regenerates them.
#[must_use]
pub fn regeneration_command(file: &str, out: &Path, jobs: usize, quick: bool) -> String {
    // Relative to the working directory where it lies below it (the command is run from
    // the repository root), and components drop a trailing `/` (`plylab plot results/x/`).
    let cwd = std::env::current_dir().unwrap_or_default();
    let out: PathBuf = out.strip_prefix(&cwd).unwrap_or(out).components().collect();
    format!(
        "plylab experiment {file} --out {} --force --jobs {jobs}{}",
        out.display(),
        if quick { " --quick" } else { "" }
    )
}

/// What a summary says after the regeneration command of a run merged from `shards` shards
/// (nothing for a run on one machine): the command makes the same rows on one machine.
#[must_use]
pub fn merged_note(shards: usize) -> String {
    match shards {
        0 => String::new(),
        n => format!(
            " (on one machine; these results were merged from {n} shards: EXPERIMENTS.md, \
             \"Many machines\")"
        ),
    }
}

impl RunInfo {
    /// Reads `run.json`; a missing or malformed file gives a `RunInfo` with `found == false`
    /// (charts still get drawn, their footer then says so).
    #[must_use]
    pub fn read(path: &Path) -> Self {
        let parsed = crate::input::read_text(path, crate::input::Cap::TEXT)
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .filter(serde_json::Value::is_object);
        let Some(json) = parsed else {
            return Self {
                path: path.to_path_buf(),
                ..Self::default()
            };
        };
        // Read in one order, which the message naming the mistyped keys keeps.
        let mut f = TypedFields {
            json: &json,
            mistyped: Vec::new(),
        };
        let experiment = f.text("experiment");
        let cpu_model = f.text("cpu_model");
        let cores = f.get("cores", serde_json::Value::as_u64);
        let date = f.text("date");
        let git_commit = f.text("git_commit");
        let crate_version = f.text("crate_version");
        let description = f.text("description").filter(|d| !d.is_empty());
        let notes = f.text("notes").filter(|n| !n.trim().is_empty());
        let references = f
            .get("references", |r| serde_json::from_value(r.clone()).ok())
            .unwrap_or_default();
        let file = f.text("file");
        let jobs = f.get("jobs", serde_json::Value::as_u64);
        let quick = f.get("quick", serde_json::Value::as_bool);
        let shards = f.get("merged_from", |v| v.as_array().map(Vec::len));
        Self {
            path: path.to_path_buf(),
            found: true,
            experiment,
            cpu_model,
            cores,
            date,
            git_commit,
            crate_version,
            description,
            notes,
            references,
            command: file.map(|file| {
                regeneration_command(
                    &file,
                    path.parent().unwrap_or(Path::new(".")),
                    usize::try_from(jobs.unwrap_or(1)).unwrap_or(1),
                    quick.unwrap_or(false),
                )
            }),
            shards: shards.unwrap_or(0),
            mistyped: f.mistyped,
        }
    }

    /// The one-line machine summary printed under every chart and atop the summary.
    #[must_use]
    pub fn footer(&self) -> String {
        if !self.found {
            return format!("machine unknown: no readable {}", file_name(&self.path));
        }
        let mut parts = Vec::new();
        if let Some(v) = &self.crate_version {
            parts.push(format!("plylab {v}"));
        }
        if let Some(c) = &self.git_commit {
            parts.push(format!("commit {}", c.chars().take(8).collect::<String>()));
        }
        if let Some(m) = &self.cpu_model {
            parts.push(m.clone());
        }
        if let Some(n) = self.cores {
            parts.push(format!("{n} cores"));
        }
        if let Some(d) = &self.date {
            parts.push(d.clone());
        }
        if parts.is_empty() {
            parts.push(format!("{} has no machine fields", file_name(&self.path)));
        }
        parts.join(" · ")
    }
}

/// run.json's fields read by their type: one present with another type (a `null` is
/// absent) reads as absent, and its key is noted in `mistyped`.
struct TypedFields<'a> {
    json: &'a serde_json::Value,
    mistyped: Vec<&'static str>,
}

impl TypedFields<'_> {
    fn get<T>(
        &mut self,
        key: &'static str,
        read: impl FnOnce(&serde_json::Value) -> Option<T>,
    ) -> Option<T> {
        let value = self.json.get(key).filter(|v| !v.is_null())?;
        let read = read(value);
        if read.is_none() {
            self.mistyped.push(key);
        }
        read
    }

    fn text(&mut self, key: &'static str) -> Option<String> {
        self.get(key, |v| v.as_str().map(str::to_owned))
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TempDir;

    #[test]
    fn the_regeneration_command_names_the_file_the_directory_and_the_workers() {
        let command =
            |out: &str, quick| regeneration_command("experiments/x.toml", Path::new(out), 2, quick);
        let plain = "plylab experiment experiments/x.toml --out results/x --force --jobs 2";
        assert_eq!(command("results/x/", false), plain);
        assert_eq!(command("results/x", true), format!("{plain} --quick"));
        let cwd = std::env::current_dir().unwrap();
        let absolute = cwd.join("results/x");
        assert_eq!(command(&absolute.to_string_lossy(), false), plain);
    }

    #[test]
    fn searchers_csv_gives_threads_and_the_parallel_ratios_on_load() {
        let tmp = TempDir::new("data");
        let dir = tmp.dir();
        // A one-thread job and its two-thread twin, as an interrupted run leaves them:
        // no threads column, the ratios empty.
        let head = "job,game,set,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
                    first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps,\
                    total_nodes,time_to_depth_s,speedup,overhead,nps_scaling,playouts_per_s";
        // And a Monte Carlo pair, whose ratio is of playouts per second (no time to depth).
        let rows = [
            "0,chess,s,p,smp[threads=1],9,0,8,1000,500,,,,,,2.0,500,1000,2.0,,,,",
            "1,chess,s,p,smp[threads=2],9,0,8,1500,700,,,,,,1.25,1200,1500,1.25,,,,",
            "2,chess,s,p,mcts[threads=1],9,0,1,4000,0,,,,,,2.0,2000,4000,,,,,1000",
            "3,chess,s,p,mcts[threads=2],9,0,1,7000,0,,,,,,2.0,3500,7000,,,,,1800",
        ];
        write_tables(
            dir,
            head,
            &rows,
            "searcher,algorithm,threads,params,baseline,exclusive,cores,alone,oversubscribed\n\
             smp[threads=1],lazy_smp,1,x,,true,2,true,false\n\
             smp[threads=2],lazy_smp,2,x,smp[threads=1],true,2,true,true\n\
             mcts[threads=1],root_parallel,1,x,,true,2,true,false\n\
             mcts[threads=2],root_parallel,2,x,mcts[threads=1],true,2,true,true\n",
        );
        std::fs::write(dir.join("run.json"), r#"{"experiment": "twins"}"#).unwrap();
        let read = read_searches(&dir.join("searches.csv")).unwrap();
        assert_eq!(read[0].threads, 1);
        assert_eq!(read[1].threads, 2);
        assert_eq!(read[1].oversubscribed, Some(true));
        assert_eq!(read[1].experiment, "twins");
        assert_eq!(read[0].speedup, None, "the twin itself has no ratio");
        assert_eq!(read[1].speedup, Some(1.6));
        assert_eq!(read[1].overhead, Some(1.5));
        assert_eq!(read[1].nps_scaling, Some(2.4));
        assert_eq!(read[3].speedup, None);
        assert_eq!(read[3].overhead, None);
        assert_eq!(read[3].nps_scaling, Some(1.8));
    }

    #[test]
    fn a_row_written_twice_is_refused_with_both_lines_but_a_position_searched_twice_is_not() {
        let tmp = TempDir::new("repeat");
        let dir = tmp.dir();
        let head = "job,step,game,set,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
                    first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps";
        let row = |job: u32, step: u32, depth: u32| {
            format!("{job},{step},connect4,s,4453,ab,1,0,{depth},10,5,,,,,,0.1,100")
        };
        let csv = dir.join("searches.csv");
        let write = |rows: &[String]| {
            std::fs::write(&csv, format!("{head}\n{}\n", rows.join("\n"))).unwrap();
        };
        // The same position twice in a set (jobs 0 and 1), and a played-out step.
        write(&[row(0, 0, 1), row(0, 0, 2), row(1, 0, 1), row(0, 1, 1)]);
        assert_eq!(read_searches(&csv).unwrap().len(), 4);
        write(&[row(0, 0, 1), row(0, 0, 2), row(1, 0, 1), row(0, 0, 2)]);
        let error = read_searches(&csv).unwrap_err().to_string();
        assert!(error.contains("line 5 repeats line 3"), "{error}");
    }

    /// Writes searches.csv (`head` and `rows`) and searchers.csv (`searchers`) into `dir`.
    fn write_tables(dir: &Path, head: &str, rows: &[impl AsRef<str>], searchers: &str) {
        let rows: Vec<&str> = rows.iter().map(AsRef::as_ref).collect();
        let searches = format!("{head}\n{}\n", rows.join("\n"));
        std::fs::write(dir.join("searches.csv"), searches).unwrap();
        std::fs::write(dir.join("searchers.csv"), searchers).unwrap();
    }

    /// The doc comments of `measure`, `whole`, `rate` and `depth` bound each column: a
    /// measurement is at least 0, a count a whole number a `u64` holds, a rate from 0 to 1,
    /// a depth at most `MAX_DEPTH` plies. The bounds themselves read (0, `u64::MAX`, 1,
    /// `MAX_DEPTH`); the next figure past each does not. By hand: `u64::MAX` = 2^64 - 1
    /// needs 64 significant bits, so as an `f64` (53) it is 2^64, which the bound allows.
    #[test]
    fn each_column_reads_its_bounds_but_nothing_past_them() {
        let tmp = TempDir::new("bounds");
        let dir = tmp.dir();
        let head = "game,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
                    first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps";
        let csv = dir.join("searches.csv");
        let read = |column: &str, value: &str| {
            let mut cells: Vec<&str> = "connect4,p,ab,0,0,3,10,5,0.5,2,2,7,,0.1,100"
                .split(',')
                .collect();
            cells[head.split(',').position(|c| c == column).unwrap()] = value;
            std::fs::write(&csv, format!("{head}\n{}\n", cells.join(","))).unwrap();
            read_searches(&csv).map(|rows| rows[0].clone())
        };
        let most = crate::search::MAX_DEPTH;
        assert_eq!(read("depth", &most.to_string()).unwrap().depth, most);
        assert!(read("depth", &(most + 1).to_string()).is_err());
        let largest = read("nodes", &u64::MAX.to_string()).unwrap();
        assert_eq!(largest.nodes, 2f64.powi(64));
        assert!(
            read("nodes", "36893488147419103232").is_err(),
            "2^65 nodes read"
        );
        let all = read("first_move_cutoff_rate", "1").unwrap();
        assert_eq!(all.first_move_cutoff_rate, Some(1.0));
        assert!(read("first_move_cutoff_rate", "1.001").is_err());
        for column in ["nodes", "leaf_nodes", "ebf", "elapsed_s", "nps"] {
            assert!(read(column, "0").is_ok(), "{column} = 0 did not read");
            assert!(read(column, "-0.001").is_err(), "{column} = -0.001 read");
        }
        let none = read("first_move_cutoff_rate", "0").unwrap();
        assert_eq!(none.first_move_cutoff_rate, Some(0.0));
    }

    /// EXPERIMENTS.md, searches.csv's `speedup`, `overhead`, `nps_scaling`: "a ratio is
    /// empty where either of its figures is 0"; and `overhead` is only on the rows with
    /// `speedup` (lab::record's `Row::overhead`, whose `link_twins` writes them when a run
    /// ends). Loading computes them again, so it must leave the same ones empty. By hand,
    /// for the twins that measured everything: 2 s against 0.8 s is a speedup of 2.5, 1,300
    /// nodes against 1,000 an overhead of 1.3, 1,625 nodes/s against 500 a scaling of
    /// 3.25; 1,000 playouts/s against 400 is 2.5.
    #[test]
    fn a_parallel_ratio_over_a_zero_figure_is_left_empty_on_load() {
        let tmp = TempDir::new("zero-ratios");
        let dir = tmp.dir();
        let head = "job,game,set,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
                    first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps,\
                    total_nodes,time_to_depth_s,playouts_per_s";
        // (position, one thread's (total nodes, time to depth), two threads' likewise).
        let smp = [
            ("all", (1000, "2.0"), (1300, "0.8")),
            ("no_t1", (1000, "0"), (1300, "0.8")),
            ("no_tn", (1000, "2.0"), (1300, "0")),
            ("no_base_nodes", (0, "2.0"), (1300, "0.8")),
        ];
        // (position, one thread's playouts per second, two threads').
        let mcts = [("all", 400, 1000), ("no_p1", 0, 1000), ("no_pn", 400, 0)];
        let mut rows = Vec::new();
        for (position, one, two) in smp {
            for (threads, (total, time)) in [(1, one), (2, two)] {
                rows.push(format!(
                    "{},chess,s,{position},smp[threads={threads}],9,0,8,{total},1,,,,,,1.0,1,\
                     {total},{time},",
                    rows.len()
                ));
            }
        }
        for (position, one, two) in mcts {
            for (threads, rate) in [(1, one), (2, two)] {
                rows.push(format!(
                    "{},chess,s,{position},mcts[threads={threads}],9,0,0,50,0,,,,,,1.0,50,50,,\
                     {rate}",
                    rows.len()
                ));
            }
        }
        write_tables(
            dir,
            head,
            &rows,
            "searcher,threads,baseline\n\
             smp[threads=1],1,\n\
             smp[threads=2],2,smp[threads=1]\n\
             mcts[threads=1],1,\n\
             mcts[threads=2],2,mcts[threads=1]\n",
        );
        let read = read_searches(&dir.join("searches.csv")).unwrap();
        let ratios = |searcher: &str, position: &str| {
            let r = read
                .iter()
                .find(|r| r.searcher == searcher && r.position == position)
                .unwrap();
            (r.speedup, r.overhead, r.nps_scaling)
        };
        let two = "smp[threads=2]";
        assert_eq!(ratios(two, "all"), (Some(2.5), Some(1.3), Some(3.25)));
        assert_eq!(
            ratios(two, "no_t1"),
            (None, None, None),
            "one thread took 0 s"
        );
        assert_eq!(
            ratios(two, "no_tn"),
            (None, None, None),
            "two threads took 0 s"
        );
        let no_nodes = ratios(two, "no_base_nodes");
        assert_eq!(
            no_nodes,
            (Some(2.5), None, None),
            "one thread searched 0 nodes"
        );
        let two = "mcts[threads=2]";
        assert_eq!(ratios(two, "all"), (None, None, Some(2.5)));
        assert_eq!(
            ratios(two, "no_p1"),
            (None, None, None),
            "one thread made 0 playouts/s"
        );
        assert_eq!(
            ratios(two, "no_pn"),
            (None, None, None),
            "two threads made 0 playouts/s"
        );
    }

    /// `SearchRow::perfect_order`'s doc: a searcher orders perfectly where `oracle=perfect`
    /// is among the `params` of searchers.csv, even if searches.csv has no `params` column
    /// (as the runner writes it now); another oracle, or none, is not perfect order.
    #[test]
    fn searchers_csv_params_say_which_searchers_order_perfectly() {
        let tmp = TempDir::new("perfect-order");
        let dir = tmp.dir();
        let head = "game,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
                    first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps";
        let rows: Vec<String> = ["perfect", "random", "plain"]
            .iter()
            .map(|s| format!("random_tree,b=2 d=2,{s},1,0,2,7,4,1,,2,2,3,0.1,70"))
            .collect();
        write_tables(
            dir,
            head,
            &rows,
            "searcher,threads,params\n\
             perfect,1,order=tt oracle=perfect\n\
             random,1,oracle=random\n\
             plain,1,\n",
        );
        let read = read_searches(&dir.join("searches.csv")).unwrap();
        let perfect: Vec<(&str, bool)> = read
            .iter()
            .map(|r| (r.searcher.as_str(), r.perfect_order))
            .collect();
        assert_eq!(
            perfect,
            [("perfect", true), ("random", false), ("plain", false)]
        );
    }

    /// EXPERIMENTS.md's experiment keys `description` (one line, shown atop summary.md) and
    /// `notes` (markdown copied into summary.md), both `""` by default, as run.json records
    /// them: written ones read as written; the defaults, and blank notes, read as none, so
    /// that summary.md shows no empty paragraph for them.
    #[test]
    fn run_json_gives_the_description_and_notes_and_none_for_empty_ones() {
        let tmp = TempDir::new("run-json-text");
        let dir = tmp.dir();
        let path = dir.join("run.json");
        let read = |json: &str| {
            std::fs::write(&path, json).unwrap();
            RunInfo::read(&path)
        };
        let written = read(
            r#"{"description": "Move ordering on random trees.", "notes": "Read **this**.\n"}"#,
        );
        let description = written.description.as_deref();
        assert_eq!(description, Some("Move ordering on random trees."));
        assert_eq!(written.notes.as_deref(), Some("Read **this**.\n"));
        let empty = read(r#"{"description": "", "notes": " \n"}"#);
        assert_eq!((empty.description, empty.notes), (None, None));
    }

    /// `SearchRow::instance`'s doc: the searched instance is the row's game, position, seed
    /// and repetition, so rows that differ in any one of them are different instances (two
    /// repetitions of a position are two runs of iterative deepening, each with its own
    /// EBF), while other depths and searchers on the same four share it.
    #[test]
    fn an_instance_is_its_game_position_seed_and_repetition() {
        let row = SearchRow {
            game: "connect4".into(),
            position: "4453".into(),
            seed: "7".into(),
            repetition: "0".into(),
            searcher: "ab".into(),
            depth: 3,
            ..SearchRow::default()
        };
        assert_eq!(row.instance(), ("connect4", "4453", "7", "0"));
        let other_search = SearchRow {
            searcher: "pvs".into(),
            depth: 4,
            ..row.clone()
        };
        assert_eq!(other_search.instance(), row.instance());
        let others = [
            SearchRow {
                game: "tictactoe".into(),
                ..row.clone()
            },
            SearchRow {
                position: "4454".into(),
                ..row.clone()
            },
            SearchRow {
                seed: "8".into(),
                ..row.clone()
            },
            SearchRow {
                repetition: "1".into(),
                ..row.clone()
            },
        ];
        for other in &others {
            assert_ne!(other.instance(), row.instance(), "{other:?}");
        }
    }

    /// `merged_note`'s doc: nothing after the command of a run on one machine; after that
    /// of a merged run, how many shards it was merged from and where EXPERIMENTS.md
    /// explains them (its section "Many machines: shards, merge and Slurm").
    #[test]
    fn a_merged_run_says_how_many_shards_it_was_merged_from() {
        assert_eq!(merged_note(0), "");
        let note = merged_note(3);
        assert!(note.contains("merged from 3 shards"), "{note}");
        assert!(note.contains("EXPERIMENTS.md, \"Many machines\""), "{note}");
    }
}
