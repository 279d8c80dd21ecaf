//! Searches, generic over [`Game`] and [`Evaluator`], statically dispatched inside.
//!
//! - [`minimax`]: negamax without pruning, the reference every exact configuration must match;
//! - [`alphabeta`]: fail-soft alpha-beta, each technique a named helper behind a switch;
//!   [`lean`], the same node function for searches that leave its heavier switches off;
//! - [`config`]: the algorithm, the technique switches and the limits;
//! - [`ordering`]: the move-ordering switches (static hint, table move, killers, history,
//!   threats, seeded shuffle);
//! - [`tt`]: the lock-free transposition table; [`probe`], the endgame-database hook;
//! - techniques: [`quiescence`], [`null_move`], [`secondary`] (verifying the chosen move
//!   deeper), [`solve`] (the exact-solver switches of Pons's connect-four ladder);
//! - parallel searches: [`smp`] (lazy SMP, with [`busy`]'s deferral of busy moves) and
//!   [`ybw`] (Young Brothers Wait);
//! - [`expecti`]: expectiminimax and Ballard's Star1 and Star2 for games of chance;
//! - [`mcts`]: Monte Carlo tree search (UCT, flat, root- and tree-parallel);
//! - [`stats`]: the node counters;
//! - this module: the [`Searcher`] and iterative deepening ([`Searcher::run`]).

pub mod alphabeta;
pub mod busy;
pub mod config;
pub mod expecti;
pub mod lean;
pub mod mcts;
pub mod minimax;
pub mod null_move;
pub mod ordering;
pub mod probe;
pub mod quiescence;
pub mod secondary;
pub mod smp;
pub mod solve;
pub mod stats;
pub mod tt;
pub mod ybw;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, Score, score};
use config::ONE_PLY;
pub use config::{
    Algorithm, Extensions, HelperDepths, Limits, MAX_DEPTH, MainDepths, NullMove, Quiescence,
    Reduction, SearchConfig, Secondary, SolveSwitches, time_budget,
};
pub use ordering::Ordering;
pub use stats::Stats;
pub use tt::Table;

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
    /// The next best lines after the principal variation, best first, each searched to the
    /// same depth with the root moves of the lines before it left out (UCI `MultiPV`,
    /// [`Searcher::with_multipv`]); empty unless more than one line was asked for.
    pub lines: Vec<Line<M>>,
}

/// A line of a multi-PV search: its score for the side to move and its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Line<M> {
    /// The line's root score.
    pub score: Score,
    /// The moves, its root move first.
    pub pv: Vec<M>,
}

/// What happens at the root during an iteration, for an engine's `info` lines (UCI
/// `currmove` and `lowerbound`/`upperbound`). Called at most once per root move, never per
/// node below the root.
pub trait RootReport<M> {
    /// The root starts searching `mv`, its `number`-th move (from 1) at iteration `depth`;
    /// `nodes` counts from the start of the search.
    fn current_move(&self, depth: u32, mv: M, number: usize, nodes: u64);
    /// An aspiration window failed at iteration `depth`: `score` is a lower bound of the
    /// root's value (`lower`, a fail high, with `pv` the refuting line) or an upper bound.
    fn bound(&self, depth: u32, score: Score, lower: bool, pv: &[M], nodes: u64);
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

/// Plies of per-ply buffers made before a search's clock starts, at most.
const PRESIZED_PLIES: usize = 128;

/// Moves a per-ply move buffer holds before it first grows.
const MOVES_RESERVED: usize = 32;

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_INTERVAL: u64 = 1024;

/// Decides when to stop: node and time limits and an external stop flag.
struct Control<'a> {
    start: Instant,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: [Option<&'a AtomicBool>; 2],
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
            let asked = self.stop.iter().flatten().any(|s| s.load(Relaxed));
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
    /// Flags that stop the search when raised: a caller's, and lazy SMP's own.
    stop: [Option<&'a AtomicBool>; 2],
    /// The depths of iterative deepening: `(first, step)`, (1, 1) but for lazy SMP helpers.
    depth_schedule: (u32, u32),
    /// Lazy SMP with several threads: the positions other threads are inside.
    busy: Option<&'a busy::BusyTable>,
    /// An endgame database consulted at every node below the root ([`probe`]).
    knowledge: Option<&'a dyn probe::Probe<G>>,
    ordering: ordering::OrderingState<G>,
    moves: Vec<Vec<G::Move>>,
    pv: Vec<Vec<G::Move>>,
    /// Hashes of the positions on the current path, by ply (for repetition detection).
    path: Vec<u64>,
    /// Hashes of the positions before the root, oldest first.
    history: Vec<u64>,
    /// The last completed iteration's score (for aspiration windows).
    previous_score: Option<Score>,
    stats: Stats,
    nodes_before: u64,
    control: Option<Control<'a>>,
    /// Per-ply buffers of the searches over chance nodes (empty for the others).
    chance: expecti::ChanceBuffers<G>,
    /// Move codes ([`Game::move_code`]) the root may play; empty: all (UCI `searchmoves`).
    root_moves: Vec<u16>,
    /// How many best lines each iteration finds (UCI `MultiPV`); 1: the principal one.
    multipv: usize,
    /// Root move codes left out while the lines after the first are searched.
    excluded_root: Vec<u16>,
    /// Receives root events during iterations ([`RootReport`]).
    report: Option<&'a (dyn RootReport<G::Move> + Sync)>,
    /// The depth of the iteration under way, for `report`.
    iteration_depth: u32,
    /// Plies played before the root (the score grain counts the end of the game from the
    /// game's start, [`solve::end_ply`]).
    root_plies: u32,
    /// Move buffers for the solver hooks' defaults ([`Game::winning_move`],
    /// [`Game::non_losing_moves`]), reused.
    solve_scratch: [Vec<G::Move>; 2],
    /// The null-window searches on the score ([`solve`]): the last line that failed high.
    mtd_line: Vec<G::Move>,
    /// Per ply: whether the node's moves all came from [`Game::non_losing_moves`], so that
    /// its children have no immediate win to look for ([`solve`]'s anticipation).
    anticipated: Vec<bool>,
    /// Young Brothers Wait: this searcher's thread in a parallel search ([`ybw`]); None
    /// for every other search.
    ybw: Option<ybw::Seat<'a, G>>,
    /// Whether nodes below the root go to the lean node function ([`lean`]); decided at
    /// the start of each iteration.
    lean: bool,
    /// Never use the lean node function ([`Self::with_general_nodes`]).
    general_nodes: bool,
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
            stop: [None; 2],
            depth_schedule: (1, 1),
            busy: None,
            knowledge: None,
            ordering: ordering::OrderingState::new(&config.ordering, config.seed),
            moves: Vec::new(),
            pv: Vec::new(),
            path: Vec::new(),
            history: Vec::new(),
            previous_score: None,
            stats: Stats::default(),
            nodes_before: 0,
            control: None,
            chance: expecti::ChanceBuffers::default(),
            root_moves: Vec::new(),
            multipv: 1,
            excluded_root: Vec::new(),
            report: None,
            iteration_depth: 0,
            root_plies: 0,
            solve_scratch: [Vec::new(), Vec::new()],
            mtd_line: Vec::new(),
            anticipated: Vec::new(),
            ybw: None,
            lean: false,
            general_nodes: false,
        }
    }

    /// Finds the `lines` best root lines at every iteration instead of one (UCI
    /// `MultiPV`): after the principal variation, each further line is a full-window search
    /// of the same depth with the root moves of the lines before it left out, as Stockfish
    /// does (<https://www.chessprogramming.org/Principal_Variation#MultiPV>). The extra
    /// lines come in [`Iteration::lines`]; their nodes count in the iteration's. Only the
    /// minimax and alpha-beta searches have them.
    #[must_use]
    pub fn with_multipv(mut self, lines: usize) -> Self {
        self.multipv = lines.max(1);
        self
    }

    /// Sends root events ([`RootReport`]) to `report` during iterations.
    #[must_use]
    pub fn with_report(mut self, report: &'a (dyn RootReport<G::Move> + Sync)) -> Self {
        self.report = Some(report);
        self
    }

    /// Searches only these moves at the root (their [`Game::move_code`]s), as UCI's
    /// `go searchmoves` asks; an empty list searches every move.
    #[must_use]
    pub fn with_root_moves(mut self, codes: &[u16]) -> Self {
        self.root_moves = codes.to_vec();
        self
    }

    /// Uses `table` (shared with other searchers) instead of a private one.
    #[must_use]
    pub fn with_table(mut self, table: &'a Table) -> Self {
        self.table = Some(table);
        self
    }

    /// The hashes of the positions played before the root, oldest first, so that a return to
    /// one of them is scored as a draw by repetition.
    #[must_use]
    pub fn with_history(mut self, hashes: &[u64]) -> Self {
        self.set_history(hashes);
        self
    }

    /// Replaces the hashes of the positions played before the next root, oldest first (a
    /// searcher playing a whole game, as in the arena, sets them before each move).
    pub fn set_history(&mut self, hashes: &[u64]) {
        self.history.clear();
        self.history.extend_from_slice(hashes);
    }

    /// Searches every node with the general alpha-beta node function, also where the lean
    /// one ([`lean`]) or the horizon's (`horizon_node`) would apply: the same
    /// values, principal variations and counters, in more time (for tests and benchmarks of
    /// the two).
    #[must_use]
    pub fn with_general_nodes(mut self) -> Self {
        self.general_nodes = true;
        self
    }

    /// Stops the search when `flag` becomes true. Called twice, either flag stops it (a
    /// third call replaces the second flag).
    #[must_use]
    pub fn with_stop(mut self, flag: &'a AtomicBool) -> Self {
        let slot = usize::from(self.stop[0].is_some());
        self.stop[slot] = Some(flag);
        self
    }

    /// Iterative deepening over depths `first`, `first + step`, ... and last the depth
    /// limit, instead of 1, 2, 3, ...: lazy SMP's helpers skip depths so that they run ahead
    /// of the main thread and of each other, and the table holds deeper results when the
    /// main thread gets there (which may skip depths too, [`MainDepths`]). Both are at
    /// least 1.
    #[must_use]
    pub fn with_depth_schedule(mut self, first: u32, step: u32) -> Self {
        self.depth_schedule = (first.max(1), step.max(1));
        self
    }

    /// Shares `busy` with the other threads of a lazy SMP search: moves into positions
    /// another thread is searching are deferred ([`busy`]).
    #[must_use]
    pub fn with_busy(mut self, busy: &'a busy::BusyTable) -> Self {
        self.busy = Some(busy);
        self
    }

    /// Consults `knowledge` (an endgame database) at every node below the root: a position
    /// it holds is scored exactly and not searched. At the root, a position it holds ends
    /// iterative deepening once an iteration agrees with its value.
    #[must_use]
    pub fn with_knowledge(mut self, knowledge: Option<&'a dyn probe::Probe<G>>) -> Self {
        self.knowledge = knowledge;
        self
    }

    /// The exact score of `pos` at `ply` from the endgame database, if it holds `pos`.
    #[inline]
    fn probe_knowledge(&mut self, pos: &G, ply: usize) -> Option<Score> {
        let knowledge = self.knowledge?;
        self.stats.tb_probes += 1;
        let exact = knowledge.probe(pos)?;
        self.stats.tb_hits += 1;
        self.stats.leaf_nodes += 1;
        Some(exact.score_ending(ply as i32, |end| self.end_ply(end)))
    }

    fn stop_requested(&self) -> bool {
        self.stop.iter().flatten().any(|s| s.load(Relaxed))
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
        let algorithm = self.config.algorithm;
        let uses_table =
            (algorithm.is_alphabeta() || algorithm.searches_chance()) && self.config.tt_mb > 0;
        if uses_table && self.table.is_none() && self.owned_table.is_none() {
            self.owned_table = Some(Table::with_layout(
                self.config.tt_mb,
                self.config.solve.tt_compact,
            ));
        }
        self.root_plies = root.plies_played();
        let max_depth = limits
            .depth
            .or_else(|| root.remaining_plies())
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        // The per-ply buffers for the plies the search can be expected to reach are made
        // before the clock starts: setting up is not searching (deeper plies, rare, still
        // grow them as they are reached).
        self.ensure_buffers((max_depth as usize).min(PRESIZED_PLIES) + 1);
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
        let (first, step) = self.depth_schedule;
        let mut depth = if self.config.iterative {
            first.min(max_depth)
        } else {
            max_depth
        };
        self.previous_score = None;
        let root_exact = self
            .knowledge
            .and_then(|k| k.probe(root))
            .map(|e| e.score(0));
        let mut result = SearchResult {
            iterations: Vec::new(),
            total: Stats::default(),
            elapsed: Duration::ZERO,
            stopped: false,
        };
        loop {
            if self.stop_requested() {
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
            let proven = score::plies_to_end(iteration.score).is_some_and(|p| p <= depth as i32)
                || root_exact == Some(iteration.score);
            let exhausted =
                depth == max_depth || root.remaining_plies().is_some_and(|r| depth >= r);
            let mut iteration = iteration;
            if self.multipv > 1 {
                result.total += self.extra_lines(root, depth, &mut iteration);
            }
            // Extra lines cut off by a limit: the iteration stands, with the lines it has.
            let cut = self.aborted();
            if (proven || exhausted)
                && let Some(secondary) = self.config.secondary
            {
                result.total += self.verify_root_move(root, &mut iteration, secondary);
            }
            on_iteration(&iteration);
            result.iterations.push(iteration);
            if proven || exhausted || cut {
                result.stopped |= cut;
                break;
            }
            depth = (depth + step).min(max_depth);
        }
        self.nodes_before = 0;
        result.elapsed = start.elapsed();
        result
    }

    /// One complete search to `depth` plies, or `None` if a limit interrupted it.
    fn iterate(&mut self, root: &G, depth: u32) -> Option<Iteration<G::Move>> {
        let started = Instant::now();
        self.iteration_depth = depth;
        self.stats = Stats::default();
        self.ensure_buffers(depth as usize + 1);
        self.lean = self.lean_nodes();
        let units = depth as i32 * ONE_PLY;
        let score = match self.config.algorithm {
            Algorithm::Minimax => self.minimax(root, units, 0),
            Algorithm::Alphabeta | Algorithm::LazySmp | Algorithm::Ybw => {
                self.aspiration_search(root, units)
            }
            Algorithm::Expectiminimax | Algorithm::Star1 | Algorithm::Star2 => {
                self.chance_search(root, units)
            }
        };
        if self.aborted() {
            return None;
        }
        // The search's time, before the principal variation is copied out for the report.
        let elapsed = started.elapsed();
        self.previous_score = Some(score);
        let pv = self.pv[0].clone();
        Some(Iteration {
            depth,
            score,
            best_move: pv.first().copied(),
            pv,
            stats: self.stats,
            elapsed,
            lines: Vec::new(),
        })
    }

    /// Searches the lines after the principal variation of `iteration` to `depth` (see
    /// [`Self::with_multipv`]) into its [`Iteration::lines`]; their counters, also added to
    /// the iteration's. Stops early at a limit (the lines found so far stay).
    fn extra_lines(&mut self, root: &G, depth: u32, iteration: &mut Iteration<G::Move>) -> Stats {
        let mut total = Stats::default();
        if !matches!(
            self.config.algorithm,
            Algorithm::Minimax | Algorithm::Alphabeta | Algorithm::LazySmp | Algorithm::Ybw
        ) {
            return total;
        }
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        let allowed =
            |m: &G::Move| self.root_moves.is_empty() || self.root_moves.contains(&G::move_code(*m));
        let wanted = self
            .multipv
            .min(moves.iter().filter(|m| allowed(m)).count());
        self.excluded_root.clear();
        self.excluded_root
            .extend(iteration.best_move.map(G::move_code));
        let units = depth as i32 * ONE_PLY;
        while !self.excluded_root.is_empty() && iteration.lines.len() + 1 < wanted {
            self.stats = Stats::default();
            let inf = score::INFINITY;
            let score = match self.config.algorithm {
                Algorithm::Minimax => self.minimax(root, units, 0),
                _ => self.alphabeta(root, units, -inf, inf, 0, false),
            };
            total += self.stats;
            self.nodes_before += self.stats.nodes;
            let pv = self.pv[0].clone();
            let Some(&first) = pv.first().filter(|_| !self.aborted()) else {
                break;
            };
            self.excluded_root.push(G::move_code(first));
            iteration.lines.push(Line { score, pv });
        }
        self.excluded_root.clear();
        iteration.stats += total;
        total
    }

    /// The root search: a full window, or with aspiration windows a window around the
    /// previous iteration's score, widened fourfold on each failure (all re-searches count).
    fn aspiration_search(&mut self, root: &G, depth: i32) -> Score {
        let inf = score::INFINITY;
        // A finished root has its value already; the scores still possible that MTD starts
        // from assume a move to come (a loss one ply away at the nearest).
        if self.config.solve.mtd && root.status() == crate::game::Status::Ongoing {
            return self.mtd_search(root, depth);
        }
        if self.config.solve.weak {
            return self.alphabeta(root, depth, -1, 1, 0, false);
        }
        let (Some(mut width), Some(guess)) = (self.config.aspiration, self.previous_score) else {
            return self.alphabeta(root, depth, -inf, inf, 0, false);
        };
        if score::is_decisive(guess) {
            return self.alphabeta(root, depth, -inf, inf, 0, false);
        }
        let (mut alpha, mut beta) = aspiration_window(guess, width);
        loop {
            let value = self.alphabeta(root, depth, alpha, beta, 0, false);
            if self.aborted() || (value > alpha && value < beta) {
                return value;
            }
            if let Some(report) = self.report {
                let nodes = self.nodes_before + self.stats.nodes;
                report.bound(
                    self.iteration_depth,
                    value,
                    value >= beta,
                    &self.pv[0],
                    nodes,
                );
            }
            width = width.saturating_mul(4);
            let (low, high) = aspiration_window(guess, width);
            if value <= alpha {
                alpha = low;
            } else {
                beta = high;
            }
        }
    }

    fn ensure_buffers(&mut self, plies: usize) {
        while self.moves.len() < plies + 1 {
            self.moves.push(Vec::with_capacity(MOVES_RESERVED));
            // Reserved too: a fresh searcher would otherwise allocate a line at every ply
            // the first time it updates one, inside the timed search.
            self.pv.push(Vec::with_capacity(MOVES_RESERVED));
            self.path.push(0);
            self.anticipated.push(false);
        }
        if self.mtd_line.capacity() == 0 {
            self.mtd_line.reserve(MOVES_RESERVED);
        }
        self.ordering.ensure_plies(plies + 1);
    }

    /// Counts a visit to `pos` at `ply`; true if the search must stop.
    #[inline(always)]
    fn enter(&mut self, pos: &G, ply: usize) -> bool {
        if ply + 1 >= self.pv.len() {
            // Extensions and quiescence can go past the iteration's depth: grow (rarely).
            self.ensure_buffers(ply + 1);
        }
        self.stats.nodes += 1;
        self.stats.max_ply = self.stats.max_ply.max(ply as u32);
        self.pv[ply].clear();
        if G::POSITIONS_REPEAT {
            self.path[ply] = pos.hash();
        }
        let nodes = self.nodes_before + self.stats.nodes;
        self.control.as_mut().is_some_and(|c| c.should_stop(nodes)) || self.split_cut()
    }

    /// True once a limit stopped the search, or (Young Brothers Wait) a cutoff at a split
    /// point above this node abandoned it.
    fn aborted(&self) -> bool {
        self.control.as_ref().is_some_and(|c| c.aborted) || self.split_aborted()
    }

    /// The score of a finished game, or 0 for a position that repeats one earlier on the path
    /// or before the root (within the game's reversible plies); counted as a leaf. `None` if
    /// the game goes on.
    #[inline]
    fn game_over_or_repeated(&mut self, pos: &G, ply: usize) -> Option<Score> {
        let value = match pos.status() {
            crate::game::Status::Over(outcome) => {
                score::of_outcome(outcome, self.end_ply(ply as i32))
            }
            crate::game::Status::Ongoing
                if G::POSITIONS_REPEAT && ply > 0 && self.repeats(pos, ply) =>
            {
                0
            }
            crate::game::Status::Ongoing => return None,
        };
        self.stats.leaf_nodes += 1;
        Some(value)
    }

    /// The value of a node that the searches without a horizon policy of their own
    /// (minimax, expectiminimax, Star1, Star2) score without expanding: a finished or
    /// repeated position, or, at the horizon, the evaluation; counted as a leaf. `None`:
    /// expand it.
    #[inline]
    fn scored_without_children(&mut self, pos: &G, depth: i32, ply: usize) -> Option<Score> {
        if let Some(value) = self.game_over_or_repeated(pos, ply) {
            return Some(value);
        }
        if depth > 0 {
            return None;
        }
        self.stats.leaf_nodes += 1;
        Some(self.eval.evaluate(pos))
    }

    /// Whether `pos` (at `ply`, already on the path) counts as a draw by repetition: it
    /// occurred before within its reversible plies, with the same side to move (so every
    /// second ply), either on the search path (the root included) or twice in the game before
    /// the root. One repetition inside the tree is scored as a draw, as engines do (the side
    /// that could avoid it gains nothing by allowing it), but a position played once before
    /// the root is not: the game is not drawn until it occurs a third time (FIDE Laws 9.2),
    /// and the opponent may still deviate. Stockfish's `Position::is_draw` draws the same
    /// line (a repetition after the root, or one that is already a repetition).
    fn repeats(&self, pos: &G, ply: usize) -> bool {
        let reversible = pos.reversible_plies() as usize;
        let hash = self.path[ply];
        let mut in_history = 0;
        for back in (4..=reversible).step_by(2) {
            if back <= ply {
                if self.path[ply - back] == hash {
                    return true;
                }
            } else {
                let before_root = back - ply;
                if before_root > self.history.len() {
                    break;
                }
                if self.history[self.history.len() - before_root] == hash {
                    in_history += 1;
                    if in_history == 2 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// [`Self::take_moves`] for a quiescence node below the root, out of check: only the
    /// noisy moves ([`Evaluator::noisy_moves`]), its legal moves counted all the same.
    #[inline]
    fn take_noisy_moves(&mut self, pos: &G, ply: usize) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let legal = self.eval.noisy_moves(pos, &mut moves);
        self.stats.expanded_nodes += 1;
        self.stats.generated_moves += legal as u64;
        moves
    }

    /// Fills the move buffer of `ply` with the legal moves of `pos` (taken out of `self`
    /// while the node searches; [`Self::put_moves`] returns it) and counts the expansion.
    #[inline(always)]
    fn take_moves(&mut self, pos: &G, ply: usize) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        if ply == 0 {
            self.filter_root_moves(&mut moves);
        }
        self.stats.expanded_nodes += 1;
        self.stats.generated_moves += moves.len() as u64;
        moves
    }

    /// Keeps the root moves the caller asked for (`searchmoves`), less those MultiPV has
    /// already searched.
    #[cold]
    fn filter_root_moves(&mut self, moves: &mut Vec<G::Move>) {
        if !self.root_moves.is_empty() {
            moves.retain(|&m| self.root_moves.contains(&G::move_code(m)));
        }
        if !self.excluded_root.is_empty() {
            moves.retain(|&m| !self.excluded_root.contains(&G::move_code(m)));
        }
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

/// The aspiration window of half-width `width` around `guess`: the full window once the
/// width reaches the decisive scores, and never past ±[`score::INFINITY`] (a guess far
/// from 0 plus a width below the decisive scores can pass `i32::MAX`).
fn aspiration_window(guess: Score, width: Score) -> (Score, Score) {
    let inf = score::INFINITY;
    if width >= score::DECISIVE {
        return (-inf, inf);
    }
    (
        guess.saturating_sub(width).max(-inf),
        guess.saturating_add(width).min(inf),
    )
}

/// Starts one of a parallel search's `threads` threads in `scope`. A thread the system
/// cannot start (its limit on threads or on memory reached) ends the run with a message
/// that says what to lower, rather than the standard library's bare "failed to spawn".
///
/// # Panics
/// When the thread cannot be started.
pub(crate) fn spawn_search_thread<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    threads: usize,
    work: impl FnOnce() -> T + Send + 'scope,
) -> std::thread::ScopedJoinHandle<'scope, T> {
    std::thread::Builder::new()
        .spawn_scoped(scope, work)
        .unwrap_or_else(|e| {
            panic!(
                "cannot start the {threads} threads of a parallel search ({e}): give fewer \
                 `threads`, or fewer jobs at once (--jobs)"
            )
        })
}

/// Raises its flag when dropped by a panicking thread: a parallel search's thread that
/// panics stops the others, which would otherwise search on to the end of their limits.
pub(crate) struct RaiseOnPanic<'a>(pub(crate) &'a AtomicBool);

impl Drop for RaiseOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Relaxed);
        }
    }
}

/// Searches `root` with `config` under `limits`: the one-call form of [`Searcher::run`], or of
/// [`smp::lazy_smp`] for `Algorithm::LazySmp`, or of [`ybw::ybw`] for `Algorithm::Ybw`.
pub fn search<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
) -> SearchResult<G::Move> {
    search_observed(root, eval, config, limits, |_| {})
}

/// [`search`], calling `on_iteration` as each iteration (of the main thread) completes.
pub fn search_observed<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    on_iteration: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    match config.algorithm {
        Algorithm::LazySmp => {
            smp::lazy_smp(root, eval, config, limits, config.threads, on_iteration)
        }
        Algorithm::Ybw => ybw::ybw(root, eval, config, limits, config.threads, on_iteration),
        _ => Searcher::new(eval, config).run_observed(root, limits, on_iteration),
    }
}
