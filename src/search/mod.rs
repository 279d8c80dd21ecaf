//! Searches, generic over [`Game`] and [`Evaluator`], statically dispatched inside.
//!
//! - [`minimax`]: negamax without pruning, the reference every exact configuration must match;
//! - [`alphabeta`]: fail-soft alpha-beta, each technique a switch ([`Ordering`], the table);
//! - [`ordering`]: the move-ordering switches (static hint, table move, killers, history,
//!   seeded shuffle);
//! - [`tt`]: the lock-free transposition table;
//! - [`stats`]: the node counters;
//! - this module: configuration, limits, and iterative deepening ([`Searcher::run`]).

pub mod alphabeta;
pub mod minimax;
pub mod ordering;
pub mod stats;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, Score, score};
pub use ordering::Ordering;
pub use stats::Stats;
pub use tt::Table;

/// Which node function to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Negamax over every move: visits the whole tree to the horizon (Shannon 1950).
    Minimax,
    /// Fail-soft alpha-beta (Knuth and Moore 1975) with the switches of [`SearchConfig`].
    Alphabeta,
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Minimax => "minimax",
            Self::Alphabeta => "alphabeta",
        })
    }
}

/// A search configuration: the algorithm and its switches.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// The node function.
    pub algorithm: Algorithm,
    /// Move-ordering switches (alpha-beta only).
    pub ordering: Ordering,
    /// Transposition-table size in MiB; 0 means no table (alpha-beta only).
    pub tt_mb: usize,
    /// Search depths 1, 2, ... up to the limit (true), or only the limit (false).
    pub iterative: bool,
    /// Seed of every random choice the search makes (the shuffle ordering).
    pub seed: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::Alphabeta,
            ordering: Ordering::default(),
            tt_mb: 0,
            iterative: true,
            seed: 0,
        }
    }
}

/// When a search stops. A search interrupted by `nodes`, `time` or a stop request returns
/// the last iteration it completed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies. `None`: until the end of the game where the game bounds
    /// its length ([`Game::remaining_plies`]), otherwise until another limit stops it.
    pub depth: Option<u32>,
    /// Most nodes over all iterations.
    pub nodes: Option<u64>,
    /// Longest wall-clock time.
    pub time: Option<Duration>,
}

/// One completed iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The root score for the side to move.
    pub score: Score,
    /// The best root move (none when the root has no moves).
    pub best_move: Option<M>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Counters of this iteration alone.
    pub stats: Stats,
    /// Wall-clock time of this iteration alone.
    pub elapsed: Duration,
}

/// What a search found: the deepest completed iteration, every iteration, and the totals.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The completed iterations, shallowest first.
    pub iterations: Vec<Iteration<M>>,
    /// Counters over every iteration, including an interrupted last one.
    pub total: Stats,
    /// Wall-clock time of the whole search.
    pub elapsed: Duration,
    /// True when a limit other than depth interrupted an iteration.
    pub stopped: bool,
}

impl<M: Copy> SearchResult<M> {
    /// The deepest completed iteration.
    #[must_use]
    pub fn last(&self) -> Option<&Iteration<M>> {
        self.iterations.last()
    }

    /// The best move of the deepest completed iteration.
    #[must_use]
    pub fn best_move(&self) -> Option<M> {
        self.last().and_then(|i| i.best_move)
    }

    /// The score of the deepest completed iteration.
    #[must_use]
    pub fn score(&self) -> Option<Score> {
        self.last().map(|i| i.score)
    }
}

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_INTERVAL: u64 = 1024;

/// Decides when to stop: node and time limits and an external stop flag.
struct Control<'a> {
    start: Instant,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    next_check: u64,
    aborted: bool,
}

impl Control<'_> {
    /// True once a limit is reached; `nodes` is the count over all iterations so far.
    #[inline]
    fn should_stop(&mut self, nodes: u64) -> bool {
        if nodes >= self.node_limit {
            self.aborted = true;
        } else if nodes >= self.next_check {
            self.next_check = nodes + CHECK_INTERVAL;
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let asked = self.stop.is_some_and(|s| s.load(Relaxed));
            self.aborted = late || asked;
        }
        self.aborted
    }
}

/// A search in progress: configuration, table, per-ply buffers, counters.
///
/// Reused across iterations (and searches), so that nothing is allocated per node: move
/// lists, ordering keys and principal variations live in per-ply buffers that only grow.
pub struct Searcher<'a, G: Game, E: Evaluator<G>> {
    eval: &'a E,
    config: &'a SearchConfig,
    table: Option<&'a Table>,
    owned_table: Option<Table>,
    stop: Option<&'a AtomicBool>,
    ordering: ordering::OrderingState<G>,
    moves: Vec<Vec<G::Move>>,
    pv: Vec<Vec<G::Move>>,
    stats: Stats,
    nodes_before: u64,
    control: Option<Control<'a>>,
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    /// A searcher for `config`. With `tt_mb > 0` and no shared table ([`Self::with_table`])
    /// it allocates its own table when it first runs.
    ///
    /// Killers and history persist across runs of one searcher (as in an engine playing a
    /// game); a fresh searcher gives a search that depends on nothing before it.
    #[must_use]
    pub fn new(eval: &'a E, config: &'a SearchConfig) -> Self {
        Self {
            eval,
            config,
            table: None,
            owned_table: None,
            stop: None,
            ordering: ordering::OrderingState::new(&config.ordering, config.seed),
            moves: Vec::new(),
            pv: Vec::new(),
            stats: Stats::default(),
            nodes_before: 0,
            control: None,
        }
    }

    /// Uses `table` (shared with other searchers) instead of a private one.
    #[must_use]
    pub fn with_table(mut self, table: &'a Table) -> Self {
        self.table = Some(table);
        self
    }

    /// Stops the search when `flag` becomes true.
    #[must_use]
    pub fn with_stop(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    fn table(&self) -> Option<&Table> {
        self.table.or(self.owned_table.as_ref())
    }

    /// Iterative deepening from `root` under `limits` (Slate and Atkin, Chess 4.5, 1977):
    /// depths 1, 2, ... each a complete search, until the depth limit, the end of the game,
    /// a proven win or loss, or another limit. With `iterative = false`, only the last depth.
    pub fn run(&mut self, root: &G, limits: &Limits) -> SearchResult<G::Move> {
        self.run_observed(root, limits, |_| {})
    }

    /// [`Self::run`], calling `on_iteration` as each iteration completes (for engine-style
    /// info lines and progress).
    pub fn run_observed(
        &mut self,
        root: &G,
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let uses_table = self.config.algorithm == Algorithm::Alphabeta && self.config.tt_mb > 0;
        if uses_table && self.table.is_none() && self.owned_table.is_none() {
            self.owned_table = Some(Table::new(self.config.tt_mb));
        }
        let start = Instant::now();
        self.control = Some(Control {
            start,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| start + t),
            stop: self.stop,
            next_check: CHECK_INTERVAL,
            aborted: false,
        });
        if let Some(t) = self.table() {
            t.new_search();
        }
        let max_depth = limits
            .depth
            .or_else(|| root.remaining_plies())
            .unwrap_or(score::MAX_PLY as u32 / 2)
            .max(1);
        let first_depth = if self.config.iterative { 1 } else { max_depth };
        let mut result = SearchResult {
            iterations: Vec::new(),
            total: Stats::default(),
            elapsed: Duration::ZERO,
            stopped: false,
        };
        for depth in first_depth..=max_depth {
            if self.stop.is_some_and(|s| s.load(Relaxed)) {
                result.stopped = true;
                break;
            }
            let iteration = self.iterate(root, depth);
            result.total += self.stats;
            self.nodes_before += self.stats.nodes;
            let Some(iteration) = iteration else {
                result.stopped = true;
                break;
            };
            let proven = score::plies_to_end(iteration.score).is_some_and(|p| p <= depth as i32);
            let exhausted = root.remaining_plies().is_some_and(|r| depth >= r);
            on_iteration(&iteration);
            result.iterations.push(iteration);
            if proven || exhausted {
                break;
            }
        }
        self.nodes_before = 0;
        result.elapsed = start.elapsed();
        result
    }

    /// One complete search to `depth`, or `None` if a limit interrupted it.
    fn iterate(&mut self, root: &G, depth: u32) -> Option<Iteration<G::Move>> {
        let started = Instant::now();
        self.stats = Stats::default();
        self.ensure_buffers(depth as usize + 1);
        let inf = score::INFINITY;
        let score = match self.config.algorithm {
            Algorithm::Minimax => self.minimax(root, depth, 0),
            Algorithm::Alphabeta => self.alphabeta(root, depth, -inf, inf, 0),
        };
        if self.aborted() {
            return None;
        }
        let pv = self.pv[0].clone();
        Some(Iteration {
            depth,
            score,
            best_move: pv.first().copied(),
            pv,
            stats: self.stats,
            elapsed: started.elapsed(),
        })
    }

    fn ensure_buffers(&mut self, plies: usize) {
        while self.moves.len() < plies + 1 {
            self.moves.push(Vec::new());
            self.pv.push(Vec::new());
        }
        self.ordering.ensure_plies(plies + 1);
    }

    /// Counts a visit to a node at `ply`; true if the search must stop.
    #[inline]
    fn enter(&mut self, ply: usize) -> bool {
        self.stats.nodes += 1;
        self.stats.max_ply = self.stats.max_ply.max(ply as u32);
        self.pv[ply].clear();
        let nodes = self.nodes_before + self.stats.nodes;
        self.control.as_mut().is_some_and(|c| c.should_stop(nodes))
    }

    fn aborted(&self) -> bool {
        self.control.as_ref().is_some_and(|c| c.aborted)
    }

    /// The score of a node that is not expanded: the game's result, or the static evaluation
    /// at the horizon. `None` if the node must be expanded.
    #[inline]
    fn leaf_score(&mut self, pos: &G, depth: u32, ply: usize) -> Option<Score> {
        let value = match pos.status() {
            crate::game::Status::Over(outcome) => score::of_outcome(outcome, ply as i32),
            crate::game::Status::Ongoing if depth == 0 => self.eval.evaluate(pos),
            crate::game::Status::Ongoing => return None,
        };
        self.stats.leaf_nodes += 1;
        Some(value)
    }

    /// Fills the move buffer of `ply` with the legal moves of `pos` (taken out of `self`
    /// while the node searches; [`Self::put_moves`] returns it) and counts the expansion.
    #[inline]
    fn take_moves(&mut self, pos: &G, ply: usize) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        self.stats.expanded_nodes += 1;
        self.stats.generated_moves += moves.len() as u64;
        moves
    }

    /// Returns the buffer of `ply`, keeping its capacity for the next node.
    #[inline]
    fn put_moves(&mut self, ply: usize, moves: Vec<G::Move>) {
        self.moves[ply] = moves;
    }

    /// Makes `mv` followed by the child's principal variation the variation at `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Wall-clock time since the search started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.control
            .as_ref()
            .map_or(Duration::ZERO, |c| c.start.elapsed())
    }
}

/// Searches `root` with `config` under `limits`: the one-call form of [`Searcher::run`].
pub fn search<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
) -> SearchResult<G::Move> {
    Searcher::new(eval, config).run(root, limits)
}
