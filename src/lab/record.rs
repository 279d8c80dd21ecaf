//! The rows of searches.csv: one per job and completed iteration. Every column is defined in
//! EXPERIMENTS.md; the counters mean exactly what [`crate::search::Stats`] says.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::spec::{Job, SearcherVariant};
use crate::plot::stats::{ParallelFigures, parallel_ratios};
use crate::search::{Iteration, Stats};

/// One row of searches.csv. Empty cells (`None`) mean "not applicable".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Job index in the plan (rows are sorted by it).
    pub job: usize,
    /// The game's name.
    pub game: String,
    /// Where the position came from: `start`, `list`, a file's name, `random_tree`.
    pub set: String,
    /// The position as written (for random trees: the parameters that rebuild it).
    pub position: String,
    /// The searcher's label.
    pub searcher: String,
    /// The job's seed.
    pub seed: u64,
    /// Repetition number.
    pub repetition: u32,
    /// Completed iterations of the job, over all its searches: the number of rows it has (a
    /// job with fewer rows in the file was interrupted while being written).
    pub iterations: u32,
    /// Plies from the job's position to the position this row's search started from: 0,
    /// except when a game's positions are played out (`play_out`).
    pub step: u32,
    /// Iteration depth in plies.
    pub depth: u32,
    /// Root score for the side to move.
    pub score: i32,
    /// Best move of this iteration.
    pub best_move: String,
    /// Principal variation, moves separated by spaces.
    pub pv: String,
    /// Counters of this iteration alone.
    pub nodes: u64,
    /// See [`Stats::leaf_nodes`].
    pub leaf_nodes: u64,
    /// See [`Stats::qnodes`].
    pub qnodes: u64,
    /// See [`Stats::tt_probes`].
    pub tt_probes: u64,
    /// See [`Stats::tt_hits`].
    pub tt_hits: u64,
    /// See [`Stats::beta_cutoffs`].
    pub beta_cutoffs: u64,
    /// See [`Stats::first_move_cutoffs`].
    pub first_move_cutoffs: u64,
    /// first_move_cutoffs / beta_cutoffs.
    pub first_move_cutoff_rate: Option<f64>,
    /// nodes(d) / nodes(d−1) between successive iterations of the job.
    pub ebf: Option<f64>,
    /// nodes^(1/d).
    pub ebf_root: Option<f64>,
    /// b for uniform trees; mean legal moves at the expanded nodes otherwise.
    pub branching: Option<f64>,
    /// Knuth–Moore's b^ceil(d/2) + b^floor(d/2) − 1 for uniform trees.
    pub minimal_leaves: Option<u64>,
    /// Deepest ply reached.
    pub max_ply: u32,
    /// Seconds for this iteration.
    pub elapsed_s: f64,
    /// nodes / elapsed_s.
    pub nps: Option<f64>,
    /// The test set's known answer: a score in the set's convention (connect four), or
    /// `bm ...; am ...; mate n` (chess EPD). On the last row of a job only, beside `solved`.
    pub expected: Option<String>,
    /// Whether the final iteration's answer is the known one (last row of a job only).
    pub solved: Option<bool>,
    /// The depth of the first iteration from which the best move (and the score, for a mate)
    /// stayed the final one (last row of a job only).
    pub answer_depth: Option<u32>,
    /// Nodes of all iterations up to and including that one.
    pub answer_nodes: Option<u64>,
    /// Seconds of all iterations up to and including that one.
    pub answer_s: Option<f64>,
    /// Monte Carlo searches: playouts made (one per iteration of the search).
    pub playouts: Option<u64>,
    /// playouts / elapsed_s.
    pub playouts_per_s: Option<f64>,
    /// On the last row of a job's first search: nodes of every thread over every iteration
    /// (alpha-beta family), or tree nodes (Monte Carlo).
    pub total_nodes: Option<u64>,
    /// On the same row (alpha-beta family): seconds from the start of the search to the end
    /// of its deepest completed iteration.
    pub time_to_depth_s: Option<f64>,
    /// On the same row, for a job with several threads whose one-thread twin reached the
    /// same depth: time_to_depth_s(1) / time_to_depth_s(n).
    pub speedup: Option<f64>,
    /// Search overhead: total_nodes(n) / total_nodes(1), on the rows that have `speedup`.
    pub overhead: Option<f64>,
    /// Throughput scaling against the one-thread twin: nodes per second (total_nodes /
    /// time_to_depth_s) for the alpha-beta family, playouts_per_s for Monte Carlo.
    pub nps_scaling: Option<f64>,
    /// See [`Stats::tb_probes`] (0 without an endgame database).
    #[serde(default)]
    pub tb_probes: u64,
    /// See [`Stats::tb_hits`].
    #[serde(default)]
    pub tb_hits: u64,
    /// See [`Stats::secondary_nodes`].
    #[serde(default)]
    pub secondary_nodes: u64,
    /// See [`Stats::secondary_switches`].
    #[serde(default)]
    pub secondary_switches: u64,
    /// On the row with `total_nodes`: seconds of the whole first search, the interrupted
    /// last iteration included (under a time or node limit, the work it really cost).
    #[serde(default)]
    pub total_s: Option<f64>,
    /// On the same row: nodes of the completed iterations alone, the work to the final
    /// answer (`total_nodes` less the interrupted iteration, for one thread).
    #[serde(default)]
    pub nodes_to_depth: Option<u64>,
}

impl Row {
    /// The first column holding what no run writes, and what it should hold: a game plylab
    /// does not have, an empty searcher, a depth beyond [`crate::search::MAX_DEPTH`], a rate
    /// above 1, or NaN, an infinity or a negative number where a measurement belongs. Such
    /// a file is damaged: kept by `--resume`, the row would be refused only when the charts
    /// read it back, after the run, and a NaN would turn every mean computed from it into NaN.
    #[must_use]
    pub fn implausible_column(&self) -> Option<(&'static str, &'static str)> {
        if !crate::games::NAMES.contains(&self.game.as_str()) {
            return Some(("game", "not a game of plylab"));
        }
        if self.searcher.is_empty() {
            return Some(("searcher", "no label"));
        }
        if self.depth > crate::search::MAX_DEPTH {
            return Some(("depth", "deeper than any search"));
        }
        if self.first_move_cutoff_rate.is_some_and(|r| r > 1.0) {
            return Some(("first_move_cutoff_rate", "a rate above 1"));
        }
        self.unmeasured_column()
            .map(|column| (column, "not a measurement"))
    }

    /// The first column that should hold a measurement and holds NaN, an infinity or a
    /// negative number.
    fn unmeasured_column(&self) -> Option<&'static str> {
        let measures = [
            ("first_move_cutoff_rate", self.first_move_cutoff_rate),
            ("ebf", self.ebf),
            ("ebf_root", self.ebf_root),
            ("branching", self.branching),
            ("elapsed_s", Some(self.elapsed_s)),
            ("nps", self.nps),
            ("answer_s", self.answer_s),
            ("playouts_per_s", self.playouts_per_s),
            ("time_to_depth_s", self.time_to_depth_s),
            ("speedup", self.speedup),
            ("overhead", self.overhead),
            ("nps_scaling", self.nps_scaling),
            ("total_s", self.total_s),
        ];
        let measured = |v: f64| v.is_finite() && v >= 0.0;
        measures
            .into_iter()
            .find(|(_, v)| v.is_some_and(|v| !measured(v)))
            .map(|(column, _)| column)
    }

    /// A row naming `job` with every counter empty, for the runner to fill in. The
    /// searcher's configuration is not repeated here: it is in searchers.csv
    /// ([`SearcherRow`]).
    #[must_use]
    pub fn for_job(job: &Job, game: &str) -> Self {
        Self {
            job: job.id,
            game: game.to_owned(),
            set: job.position.set.clone(),
            position: job.position.label.clone(),
            searcher: job.searcher.name(),
            seed: job.seed,
            repetition: job.repetition,
            iterations: 0,
            step: 0,
            depth: 0,
            score: 0,
            best_move: String::new(),
            pv: String::new(),
            nodes: 0,
            leaf_nodes: 0,
            qnodes: 0,
            tt_probes: 0,
            tt_hits: 0,
            beta_cutoffs: 0,
            first_move_cutoffs: 0,
            first_move_cutoff_rate: None,
            ebf: None,
            ebf_root: None,
            branching: None,
            minimal_leaves: None,
            max_ply: 0,
            elapsed_s: 0.0,
            nps: None,
            expected: job.position.answer.as_ref().map(ToString::to_string),
            solved: None,
            answer_depth: None,
            answer_nodes: None,
            answer_s: None,
            playouts: None,
            playouts_per_s: None,
            total_nodes: None,
            time_to_depth_s: None,
            speedup: None,
            overhead: None,
            nps_scaling: None,
            tb_probes: 0,
            tb_hits: 0,
            secondary_nodes: 0,
            secondary_switches: 0,
            total_s: None,
            nodes_to_depth: None,
        }
    }
}

/// The header of `plylab suite --csv`'s table: a [`Row`]'s columns, then its
/// [`SearcherColumns`] (searchers.csv's without the name), in the order they are written.
#[must_use]
pub fn suite_columns() -> Vec<&'static str> {
    let searcher = field_names::<SearcherRow>();
    let mut columns = field_names::<Row>().to_vec();
    columns.extend(searcher.iter().filter(|&&c| c != "searcher"));
    columns
}

/// The field names of a struct that derives `Deserialize`, in declaration order (the order
/// `Serialize` writes them): serde hands them to `deserialize_struct`, which is all this
/// deserializer answers.
fn field_names<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    struct Fields(&'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for &mut Fields {
        type Error = serde::de::value::Error;
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            _visitor: V,
        ) -> Result<V::Value, Self::Error> {
            self.0 = fields;
            Err(serde::de::Error::custom("fields read"))
        }
        fn deserialize_any<V: serde::de::Visitor<'de>>(
            self,
            _visitor: V,
        ) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("not a struct"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    let mut fields = Fields(&[]);
    let _ = T::deserialize(&mut fields);
    fields.0
}

/// One row of searchers.csv: what every row of searches.csv with this `searcher` shares,
/// stored once per searcher variant instead of on every row (issue 19, point 13). Join it
/// to searches.csv on `searcher`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearcherRow {
    /// The searcher variant's name, as in searches.csv's `searcher` column.
    pub searcher: String,
    /// The algorithm.
    pub algorithm: String,
    /// Search threads.
    pub threads: u32,
    /// The full configuration and any swept values.
    pub params: String,
    /// The variant's one-thread twin (the same searcher with `threads = 1`), against which
    /// `speedup`, `overhead` and `nps_scaling` are measured; empty when it has none.
    pub baseline: Option<String>,
    /// Whether its jobs run alone on the machine (`exclusive = true` in the file).
    pub exclusive: bool,
    /// Cores of the machine that ran its jobs.
    pub cores: u32,
    /// Whether its jobs ran alone on the machine (exclusive, or one worker).
    pub alone: bool,
    /// Whether its jobs' threads, with those of the jobs running beside them, could
    /// outnumber the cores: their timings then measure time-sharing, not parallel search.
    pub oversubscribed: bool,
}

/// searchers.csv's columns without the name: what follows a searches.csv row, which
/// carries the name already, in `plylab suite --csv`'s one wide table (a column named twice
/// could not be read back).
#[derive(Clone, Debug, Serialize)]
pub struct SearcherColumns<'a> {
    algorithm: &'a str,
    threads: u32,
    params: &'a str,
    baseline: Option<&'a str>,
    exclusive: bool,
    cores: u32,
    alone: bool,
    oversubscribed: bool,
}

impl SearcherRow {
    /// The row of `job`'s searcher variant, with its twin's name `baseline` and how its jobs
    /// shared the machine left for the runner to fill in.
    #[must_use]
    pub fn of_job(job: &Job, baseline: Option<String>) -> Self {
        Self::of_variant(&job.searcher, baseline)
    }

    /// Its columns without the name ([`SearcherColumns`]).
    #[must_use]
    pub fn columns(&self) -> SearcherColumns<'_> {
        SearcherColumns {
            algorithm: &self.algorithm,
            threads: self.threads,
            params: &self.params,
            baseline: self.baseline.as_deref(),
            exclusive: self.exclusive,
            cores: self.cores,
            alone: self.alone,
            oversubscribed: self.oversubscribed,
        }
    }

    /// The row of the searcher variant `v` (see [`Self::of_job`]).
    #[must_use]
    pub fn of_variant(v: &SearcherVariant, baseline: Option<String>) -> Self {
        Self {
            searcher: v.name(),
            algorithm: v.algorithm_name(),
            threads: v.config.threads as u32,
            params: v.params(),
            baseline,
            exclusive: v.exclusive,
            cores: 0,
            alone: false,
            oversubscribed: false,
        }
    }

    /// Records how the searcher's jobs shared a machine of `cores` cores when `workers`
    /// jobs ran at once, each with at most `widest` threads: alone when exclusive or one
    /// worker; oversubscribed when a job's threads with those of the `workers` − 1 beside
    /// it (counted at `widest`) could outnumber the cores.
    #[must_use]
    pub fn with_machine(mut self, cores: usize, workers: usize, widest: usize) -> Self {
        let alone = self.exclusive || workers <= 1;
        let threads = self.threads as usize;
        let busy = if alone {
            threads
        } else {
            threads + (workers - 1) * widest
        };
        self.cores = cores as u32;
        self.alone = alone;
        self.oversubscribed = busy > cores;
        self
    }

    /// Whether `other` describes the same configuration (machine use aside).
    #[must_use]
    pub fn same_config(&self, other: &Self) -> bool {
        (
            &self.searcher,
            &self.algorithm,
            self.threads,
            &self.params,
            self.exclusive,
        ) == (
            &other.searcher,
            &other.algorithm,
            other.threads,
            &other.params,
            other.exclusive,
        )
    }
}

/// The searchers.csv rows of `jobs`, one per searcher variant in order of first
/// appearance, or the name of a variant given to two different configurations (two
/// searchers with the same label: their rows could not be told apart).
pub fn searcher_rows<'a>(
    jobs: impl IntoIterator<Item = &'a Job>,
    all: &[Job],
) -> Result<Vec<SearcherRow>, String> {
    let mut rows: Vec<SearcherRow> = Vec::new();
    for job in jobs {
        let twin = job
            .baseline
            .and_then(|b| all.get(b))
            .map(|b| b.searcher.name());
        let row = SearcherRow::of_job(job, twin);
        match rows.iter_mut().find(|r| r.searcher == row.searcher) {
            Some(known) if !known.same_config(&row) => {
                return Err(format!(
                    "searcher `{}` names two different configurations ({} and {}): give the \
                     searchers distinct labels",
                    row.searcher, known.params, row.params
                ));
            }
            Some(known) => {
                if known.baseline.is_none() {
                    known.baseline = row.baseline;
                }
            }
            None => rows.push(row),
        }
    }
    Ok(rows)
}

/// Writes searchers.csv at `path` (whole or not at all: [`crate::output::replace`]).
pub fn write_searchers(path: &Path, rows: &[SearcherRow]) -> Result<(), csv::Error> {
    crate::output::replace(path, |file| write_csv_rows(file, rows)).map_err(csv::Error::from)
}

/// Writes `rows` under their header into `out`.
///
/// # Errors
/// What writing to `out` reports.
pub fn write_csv_rows<T: Serialize>(out: impl std::io::Write, rows: &[T]) -> std::io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for row in rows {
        writer.serialize(row)?;
    }
    writer.flush()
}

/// Reads searchers.csv at `path` (within [`crate::input::Cap::RESULTS`]).
///
/// # Errors
/// The file cannot be read, is larger than the cap, or a row does not parse.
pub fn read_searchers(path: &Path) -> Result<Vec<SearcherRow>, csv::Error> {
    let file = crate::input::open(path, crate::input::Cap::RESULTS)?;
    csv::Reader::from_reader(file).deserialize().collect()
}

/// Fills in the parallel columns of `rows` (sorted by job, step and depth): each row with a
/// `total_nodes` whose job has a one-thread twin (see [`Job::baseline`]) is compared with
/// the twin's row of the same step and depth.
pub fn link_scaling(rows: &mut [Row], jobs: &[Job]) {
    link_twins(rows, |id| jobs.get(id).and_then(|j| j.baseline));
}

/// [`link_scaling`] with the twins given by `baseline` (job id to its one-thread twin's id):
/// how `plylab merge` links jobs that ran in different shards, from their run.json files.
pub fn link_twins(rows: &mut [Row], baseline: impl Fn(usize) -> Option<usize>) {
    let key = |r: &Row| (r.job, r.step, r.depth);
    let figures = |r: &Row| {
        Some(ParallelFigures {
            time_to_depth_s: r.time_to_depth_s,
            total_nodes: r.total_nodes? as f64,
            playouts_per_s: r.playouts_per_s,
        })
    };
    let finals: std::collections::HashMap<_, ParallelFigures> = rows
        .iter()
        .filter_map(|r| Some((key(r), figures(r)?)))
        .collect();
    for row in rows.iter_mut() {
        let Some(job) = figures(row) else {
            continue;
        };
        let Some(base) = baseline(row.job) else {
            continue;
        };
        let Some(&twin) = finals.get(&(base, row.step, row.depth)) else {
            continue;
        };
        let ratios = parallel_ratios(twin, job);
        (row.speedup, row.overhead, row.nps_scaling) =
            (ratios.speedup, ratios.overhead, ratios.nps_scaling);
    }
}

/// Rounds a derived ratio to four decimals: the CSV stays readable and smaller, and no
/// figure here is meaningful beyond that.
#[must_use]
pub fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The per-iteration figures derived from counters: `ebf` and `ebf_root`, rounded.
#[must_use]
pub fn derived(
    it_stats: &Stats,
    depth: u32,
    previous_nodes: Option<u64>,
) -> (Option<f64>, Option<f64>) {
    let nodes = it_stats.nodes as f64;
    let ebf = previous_nodes
        .filter(|&p| p > 0)
        .map(|p| round4(nodes / p as f64));
    let ebf_root = (depth > 0).then(|| round4(nodes.powf(1.0 / f64::from(depth))));
    (ebf, ebf_root)
}

/// Mean legal moves at the nodes this iteration expanded.
#[must_use]
pub fn mean_branching(stats: &Stats) -> Option<f64> {
    (stats.expanded_nodes > 0)
        .then(|| round4(stats.generated_moves as f64 / stats.expanded_nodes as f64))
}

/// Nodes per second, when the time is measurable.
#[must_use]
pub fn nps<M>(it: &Iteration<M>) -> Option<f64> {
    let s = it.elapsed.as_secs_f64();
    (s > 0.0).then(|| (it.stats.nodes as f64 / s).round())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row as a run writes it: a game of plylab, a labelled searcher, every measurement a
    /// finite number of at least 0 (hand-picked values, not a search's).
    fn plausible() -> Row {
        Row {
            job: 0,
            game: "connect4".to_owned(),
            set: "start".to_owned(),
            position: "start".to_owned(),
            searcher: "alphabeta".to_owned(),
            seed: 1,
            repetition: 0,
            iterations: 1,
            step: 0,
            depth: 3,
            score: 0,
            best_move: "4".to_owned(),
            pv: "4".to_owned(),
            nodes: 100,
            leaf_nodes: 60,
            qnodes: 0,
            tt_probes: 0,
            tt_hits: 0,
            beta_cutoffs: 2,
            first_move_cutoffs: 1,
            first_move_cutoff_rate: Some(0.5),
            ebf: Some(0.0),
            ebf_root: Some(0.0),
            branching: Some(0.0),
            minimal_leaves: None,
            max_ply: 3,
            elapsed_s: 0.0,
            nps: Some(0.0),
            expected: None,
            solved: None,
            answer_depth: None,
            answer_nodes: None,
            answer_s: Some(0.0),
            playouts: None,
            playouts_per_s: Some(0.0),
            total_nodes: Some(100),
            time_to_depth_s: Some(0.0),
            speedup: Some(0.0),
            overhead: Some(0.0),
            nps_scaling: Some(0.0),
            tb_probes: 0,
            tb_hits: 0,
            secondary_nodes: 0,
            secondary_switches: 0,
            total_s: Some(0.0),
            nodes_to_depth: Some(100),
        }
    }

    /// [`Row::implausible_column`]'s doc refuses a depth *beyond* `MAX_DEPTH`, a rate
    /// *above* 1 and a *negative* measurement: a depth of `MAX_DEPTH`, a rate of exactly 1
    /// (every cutoff by the first move) or of 0.5, and zero seconds are all plausible.
    #[test]
    fn a_row_at_the_edges_of_plausible_has_no_implausible_column() {
        let row = plausible();
        assert_eq!(row.implausible_column(), None, "{row:?}");
        let edge = Row {
            depth: crate::search::MAX_DEPTH,
            first_move_cutoff_rate: Some(1.0),
            ..plausible()
        };
        assert_eq!(edge.implausible_column(), None, "{edge:?}");
    }

    /// Each damage [`Row::implausible_column`]'s doc names is reported with its column: a
    /// game not in plylab's list, an empty searcher, a depth of `MAX_DEPTH` + 1, a rate of
    /// 1.5, and NaN, an infinity or −1 in each column that holds a measurement.
    #[test]
    fn each_column_no_run_writes_is_named_as_implausible() {
        let named = |row: Row| row.implausible_column();
        let game = Row {
            game: "go".to_owned(),
            ..plausible()
        };
        assert_eq!(named(game), Some(("game", "not a game of plylab")));
        let searcher = Row {
            searcher: String::new(),
            ..plausible()
        };
        assert_eq!(named(searcher), Some(("searcher", "no label")));
        let depth = Row {
            depth: crate::search::MAX_DEPTH + 1,
            ..plausible()
        };
        assert_eq!(named(depth), Some(("depth", "deeper than any search")));
        let rate = Row {
            first_move_cutoff_rate: Some(1.5),
            ..plausible()
        };
        assert_eq!(
            named(rate),
            Some(("first_move_cutoff_rate", "a rate above 1"))
        );
        type Set = fn(&mut Row, f64);
        let measures: [(&str, Set); 13] = [
            ("first_move_cutoff_rate", |r, v| {
                r.first_move_cutoff_rate = Some(v);
            }),
            ("ebf", |r, v| r.ebf = Some(v)),
            ("ebf_root", |r, v| r.ebf_root = Some(v)),
            ("branching", |r, v| r.branching = Some(v)),
            ("elapsed_s", |r, v| r.elapsed_s = v),
            ("nps", |r, v| r.nps = Some(v)),
            ("answer_s", |r, v| r.answer_s = Some(v)),
            ("playouts_per_s", |r, v| r.playouts_per_s = Some(v)),
            ("time_to_depth_s", |r, v| r.time_to_depth_s = Some(v)),
            ("speedup", |r, v| r.speedup = Some(v)),
            ("overhead", |r, v| r.overhead = Some(v)),
            ("nps_scaling", |r, v| r.nps_scaling = Some(v)),
            ("total_s", |r, v| r.total_s = Some(v)),
        ];
        for (column, set) in measures {
            for bad in [f64::NAN, f64::INFINITY, -1.0] {
                let mut row = plausible();
                set(&mut row, bad);
                // An infinite rate is above 1 too, and the rate is checked first.
                let why = if column == "first_move_cutoff_rate" && bad > 1.0 {
                    "a rate above 1"
                } else {
                    "not a measurement"
                };
                assert_eq!(named(row), Some((column, why)), "{column} = {bad}");
            }
        }
    }

    /// [`round4`] keeps four decimals, to the nearest (by hand: 2/3 = 0.666666... → 0.6667;
    /// 12.345651 → 12.3457; −1.23454 → −1.2345; 7 stays 7).
    #[test]
    fn round4_keeps_four_decimals() {
        assert_eq!(round4(2.0 / 3.0), 0.6667);
        assert_eq!(round4(12.345_651), 12.3457);
        assert_eq!(round4(-1.234_54), -1.2345);
        assert_eq!(round4(7.0), 7.0);
    }

    /// EXPERIMENTS.md: `ebf` = nodes(d) / nodes(d−1), empty for the first iteration;
    /// `ebf_root` = nodes^(1/d). By hand: 1,000 nodes after 100 give 10; the cube root of
    /// 1,000 is 10; the square root of 1,000 is 31.6228. A previous iteration of no nodes
    /// or a depth of 0 leave no ratio to take (x / 0 and x^(1/0) are not measurements).
    #[test]
    fn ebf_and_ebf_root_follow_experiments_md() {
        let stats = Stats {
            nodes: 1000,
            ..Stats::default()
        };
        assert_eq!(derived(&stats, 3, Some(100)), (Some(10.0), Some(10.0)));
        assert_eq!(derived(&stats, 2, Some(400)), (Some(2.5), Some(31.6228)));
        assert_eq!(derived(&stats, 2, None), (None, Some(31.6228)));
        assert_eq!(derived(&stats, 2, Some(0)), (None, Some(31.6228)));
        assert_eq!(derived(&stats, 0, Some(100)), (Some(10.0), None));
    }

    /// EXPERIMENTS.md: `branching` is the mean number of legal moves at the nodes the
    /// iteration expanded, `generated_moves / expanded_nodes` ([`Stats`]'s doc): 90 moves
    /// at 20 nodes is 4.5; with no node expanded there is no mean.
    #[test]
    fn branching_is_moves_generated_per_node_expanded() {
        let stats = Stats {
            expanded_nodes: 20,
            generated_moves: 90,
            ..Stats::default()
        };
        assert_eq!(mean_branching(&stats), Some(4.5));
        assert_eq!(mean_branching(&Stats::default()), None);
    }

    /// EXPERIMENTS.md: `nps` = nodes / elapsed_s: 1,000 nodes in a quarter second are 4,000
    /// a second; an iteration timed at zero has no measurable rate.
    #[test]
    fn nps_is_nodes_over_seconds_when_the_time_is_measurable() {
        let iteration = |nodes, elapsed| Iteration::<u8> {
            depth: 1,
            score: 0,
            best_move: None,
            pv: Vec::new(),
            stats: Stats {
                nodes,
                ..Stats::default()
            },
            elapsed,
            lines: Vec::new(),
        };
        let quarter = std::time::Duration::from_millis(250);
        assert_eq!(nps(&iteration(1000, quarter)), Some(4000.0));
        assert_eq!(nps(&iteration(1000, std::time::Duration::ZERO)), None);
    }

    /// A searchers.csv row with `threads` threads, exclusive or not, machine use unset.
    fn searcher(threads: u32, exclusive: bool) -> SearcherRow {
        SearcherRow {
            searcher: "s".to_owned(),
            algorithm: "lazy_smp".to_owned(),
            threads,
            params: format!("threads={threads}"),
            baseline: None,
            exclusive,
            cores: 0,
            alone: false,
            oversubscribed: false,
        }
    }

    /// [`SearcherRow::with_machine`]'s doc and EXPERIMENTS.md's searchers.csv: alone when
    /// exclusive or one worker; oversubscribed when the job's threads plus `widest` threads
    /// for each of the other workers outnumber (exceed) the cores. Hand counts: 2 threads
    /// with 2 other workers of 3 threads busy 2 + 2 × 3 = 8 threads, not more than 8
    /// cores; of 4 threads, 2 + 2 × 4 = 10 > 8; alone, 2 threads on 4 cores.
    #[test]
    fn machine_use_follows_the_documented_counts() {
        let machine = |s: SearcherRow, cores, workers, widest| {
            let s = s.with_machine(cores, workers, widest);
            (s.cores, s.alone, s.oversubscribed)
        };
        assert_eq!(machine(searcher(2, false), 4, 1, 8), (4, true, false));
        assert_eq!(machine(searcher(2, true), 4, 3, 8), (4, true, false));
        assert_eq!(machine(searcher(2, false), 8, 3, 3), (8, false, false));
        assert_eq!(machine(searcher(2, false), 8, 3, 4), (8, false, true));
        assert_eq!(machine(searcher(8, true), 4, 1, 8), (4, true, true));
    }

    /// [`SearcherRow::same_config`]'s doc: the same configuration, machine use aside; a
    /// different `params` is another configuration.
    #[test]
    fn same_config_ignores_machine_use_only() {
        let a = searcher(2, false);
        let used = searcher(2, false).with_machine(1, 4, 8);
        assert!(a.same_config(&used));
        let other = SearcherRow {
            params: "threads=2 tt_mb=16".to_owned(),
            ..searcher(2, false)
        };
        assert!(!a.same_config(&other));
    }

    /// The rows of job 1 (two threads, twin of job 0) and job 0 at depth 5 of step 0, with
    /// total nodes and time to depth as given.
    fn twins(t1: f64, tn: f64, total1: u64, totaln: u64) -> Vec<Row> {
        let row = |job, t, total| Row {
            job,
            depth: 5,
            time_to_depth_s: Some(t),
            total_nodes: Some(total),
            speedup: None,
            overhead: None,
            nps_scaling: None,
            ..plausible()
        };
        vec![row(0, t1, total1), row(1, tn, totaln)]
    }

    /// EXPERIMENTS.md: speedup = time_to_depth_s(1) / time_to_depth_s(n), overhead =
    /// total_nodes(n) / total_nodes(1), nps_scaling = speedup × overhead. By hand: 2 s
    /// against 0.8 s is 2.5; 1,300 nodes against 1,000 is 1.3; 2.5 × 1.3 = 3.25 (1,625
    /// nodes/s against 500). The one-thread job itself gets nothing.
    #[test]
    fn speedup_overhead_and_scaling_follow_experiments_md() {
        let mut rows = twins(2.0, 0.8, 1000, 1300);
        link_twins(&mut rows, |job| (job == 1).then_some(0));
        let ratios = |r: &Row| (r.speedup, r.overhead, r.nps_scaling);
        assert_eq!(ratios(&rows[1]), (Some(2.5), Some(1.3), Some(3.25)));
        assert_eq!(ratios(&rows[0]), (None, None, None));
    }

    /// Monte Carlo (EXPERIMENTS.md): nps_scaling = playouts_per_s(n) / playouts_per_s(1),
    /// 1,000 against 400 is 2.5; no time to depth, so no speedup or overhead. A rate of 0
    /// on either side (rounded from under half a playout a second) gives no ratio
    /// (EXPERIMENTS.md: "a ratio is empty where either of its figures is 0").
    #[test]
    fn monte_carlo_scaling_is_the_ratio_of_playout_rates() {
        for (rates, scaling) in [([400.0, 1000.0], Some(2.5)), ([400.0, 0.0], None)] {
            let mut rows = twins(0.0, 0.0, 1000, 1300);
            for (row, pps) in rows.iter_mut().zip(rates) {
                row.time_to_depth_s = None;
                row.playouts_per_s = Some(pps);
            }
            link_twins(&mut rows, |job| (job == 1).then_some(0));
            let r = &rows[1];
            assert_eq!(
                (r.speedup, r.overhead, r.nps_scaling),
                (None, None, scaling),
                "rates {rates:?}"
            );
        }
    }

    /// A zero time or a twin of no nodes leaves nothing to divide by: no ratio is written,
    /// and in particular no infinity (which [`Row::implausible_column`] refuses), and no
    /// `overhead` without `speedup` (Row's doc: overhead is on the rows that have speedup).
    #[test]
    fn no_parallel_ratio_is_taken_over_nothing() {
        for (t1, tn) in [(0.0, 0.8), (2.0, 0.0)] {
            let mut rows = twins(t1, tn, 1000, 1300);
            link_twins(&mut rows, |job| (job == 1).then_some(0));
            let r = &rows[1];
            assert_eq!(
                (r.speedup, r.overhead, r.nps_scaling),
                (None, None, None),
                "times {t1} and {tn}"
            );
        }
        let mut rows = twins(2.0, 0.8, 0, 1300);
        link_twins(&mut rows, |job| (job == 1).then_some(0));
        let r = &rows[1];
        assert_eq!(
            (r.speedup, r.overhead, r.nps_scaling),
            (Some(2.5), None, None)
        );
        assert_eq!(r.implausible_column(), None);
    }

    /// The header of `suite --csv` is a [`Row`]'s columns, then [`SearcherColumns`]', as
    /// serde writes them (csv's own header, read here from written rows), with no column
    /// named twice.
    #[test]
    fn suite_columns_are_the_written_headers_of_row_and_searcher_columns() {
        let header = |bytes: Vec<u8>| -> Vec<String> {
            let text = String::from_utf8(bytes).expect("utf-8");
            let first = text.lines().next().expect("a header").to_owned();
            first.split(',').map(str::to_owned).collect()
        };
        let mut row = Vec::new();
        write_csv_rows(&mut row, &[plausible()]).expect("write");
        let s = searcher(2, false);
        let mut columns = Vec::new();
        write_csv_rows(&mut columns, &[s.columns()]).expect("write");
        let mut written = header(row);
        written.extend(header(columns));
        assert_eq!(suite_columns(), written);
        let distinct: std::collections::BTreeSet<_> = written.iter().collect();
        assert_eq!(distinct.len(), written.len(), "{written:?}");
    }

    /// searchers.csv read back is what was written, row for row.
    #[test]
    fn searchers_csv_reads_back_what_was_written() {
        let tmp = crate::testing::TempDir::new("record");
        let path = tmp.path("searchers.csv");
        let rows = [
            searcher(1, false).with_machine(4, 2, 2),
            SearcherRow {
                searcher: "t".to_owned(),
                baseline: Some("s".to_owned()),
                ..searcher(2, true).with_machine(4, 2, 2)
            },
        ];
        write_searchers(&path, &rows).expect("write");
        assert_eq!(read_searchers(&path).expect("read"), rows);
    }

    /// Tic-tac-toe's start and one other position, searched by a plain alpha-beta and by
    /// lazy SMP on one and two threads: the two-thread jobs have one-thread twins.
    const TWINS: &str = r#"
name = "record-twins"
[limits]
depth = 2
[[games]]
game = "tictactoe"
positions = ["start", "5"]
[[searchers]]
label = "plain"
algorithm = "alphabeta"
[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = [1, 2]
"#;

    fn twin_jobs() -> Vec<Job> {
        crate::lab::spec::parse(Path::new("record-twins.toml"), TWINS)
            .expect("parses")
            .jobs
    }

    /// [`searcher_rows`]'s doc: one row per searcher variant, in order of first appearance
    /// (each variant here has two jobs, one per position), a variant's `baseline` naming
    /// its one-thread twin's variant; a label given to two configurations is refused.
    #[test]
    fn searcher_rows_are_one_per_variant_and_refuse_a_label_for_two_configurations() {
        let jobs = twin_jobs();
        let mut names: Vec<String> = Vec::new();
        for job in &jobs {
            let name = job.searcher.name();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        assert_eq!(names.len(), 3, "plain, smp on 1 and on 2 threads");
        assert!(jobs.len() > names.len(), "variants with several jobs");
        let rows = searcher_rows(&jobs, &jobs).expect("distinct labels");
        let listed: Vec<&str> = rows.iter().map(|r| r.searcher.as_str()).collect();
        assert_eq!(listed, names);
        for row in &rows {
            let job = jobs.iter().find(|j| j.searcher.name() == row.searcher);
            let twin = job
                .and_then(|j| j.baseline)
                .map(|b| jobs[b].searcher.name());
            assert_eq!(row.baseline, twin, "{row:?}");
            assert_eq!(row.baseline.is_some(), row.threads == 2, "{row:?}");
        }
        // One job of `plain` given another table size: the same name, another params.
        let mut changed = jobs.clone();
        let plain = changed
            .iter_mut()
            .rfind(|j| j.searcher.name() == names[0])
            .expect("a plain job");
        plain.searcher.config.tt_mb += 1;
        let refused = searcher_rows(&changed, &changed).expect_err("two configurations");
        assert!(
            refused.contains("names two different configurations"),
            "{refused}"
        );
    }

    /// [`link_scaling`] takes the twins from the jobs' [`Job::baseline`]: a two-thread
    /// job's row gets its speedup over its twin's row of the same step and depth (2 s
    /// against 0.5 s: 4 by hand).
    #[test]
    fn link_scaling_finds_the_twin_in_the_jobs() {
        let jobs = twin_jobs();
        let job = jobs
            .iter()
            .find(|j| j.baseline.is_some())
            .expect("a job with a twin");
        let twin = job.baseline.expect("twin");
        let row = |id, t| Row {
            job: id,
            time_to_depth_s: Some(t),
            total_nodes: Some(1000),
            speedup: None,
            overhead: None,
            nps_scaling: None,
            ..plausible()
        };
        let mut rows = vec![row(twin, 2.0), row(job.id, 0.5)];
        link_scaling(&mut rows, &jobs);
        assert_eq!(rows[1].speedup, Some(4.0), "{:?}", rows[1]);
        assert_eq!(rows[0].speedup, None);
    }
}
