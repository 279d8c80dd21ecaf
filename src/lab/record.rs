//! The rows of searches.csv: one per job and completed iteration. Every column is defined in
//! EXPERIMENTS.md; the counters mean exactly what [`crate::search::Stats`] says.

use serde::{Deserialize, Serialize};

use crate::search::{Iteration, Stats};

/// One row of searches.csv. Empty cells (`None`) mean "not applicable".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Job index in the plan (rows are sorted by it).
    pub job: usize,
    /// The experiment's name.
    pub experiment: String,
    /// The game's name.
    pub game: String,
    /// Where the position came from: `start`, `list`, a file's name, `random_tree`.
    pub set: String,
    /// The position as written (for random trees: the parameters that rebuild it).
    pub position: String,
    /// The searcher's label.
    pub searcher: String,
    /// The algorithm.
    pub algorithm: String,
    /// The full configuration and any swept values.
    pub params: String,
    /// Search threads.
    pub threads: u32,
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
    /// `bm ...; am ...; mate n` (chess EPD).
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
