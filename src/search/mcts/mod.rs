//! Monte Carlo tree search, generic over [`Game`] and [`Evaluator`] (static dispatch).
//!
//! - [`uct`]: UCT, upper confidence bounds applied to trees (Kocsis and Szepesvári 2006,
//!   "Bandit based Monte-Carlo planning", ECML), with UCB1 selection (Auer, Cesa-Bianchi and
//!   Fischer 2002), one expansion per iteration, a random playout and backpropagation
//!   (shared/seeds/003: "starting at root, successively select best child ... create and add
//!   ... new child ... perform a random playout ... update score at c and all of c's ancestors");
//! - [`flat_monte_carlo`]: random playouts from each root move in turn, best mean (seed 003,
//!   "pure Monte Carlo tree search");
//! - [`root_parallel`] and [`tree_parallel_locked`]: root parallelism and tree parallelism
//!   with virtual loss behind one lock (Chaslot, Winands and van den Herik 2008, "Parallel
//!   Monte-Carlo tree search", Computers and Games);
//! - [`tree_parallel`]: tree parallelism without a lock, atomic statistics with virtual loss
//!   and expansions published by one atomic store (Enzenberger and Müller 2009, "A Lock-free
//!   Multithreaded Monte-Carlo Tree Search Algorithm").
//!
//! Games of chance: at a chance node the tree and the playouts draw the outcome by its
//! weight ([`crate::game::Game::chance_outcomes`]) instead of choosing it.
//!
//! Rewards are 1 for a win, 0.5 for a draw, 0 for a loss; a node's reward is counted for
//! the player who moved into it. One iteration is one playout.

mod lockfree;
mod parallel;
mod tree;

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, Status};
use crate::rng::{XorShift, mix};
pub use lockfree::tree_parallel;
pub use parallel::{root_parallel, tree_parallel_locked};
use tree::{Tree, playout, reward_for};

/// Which Monte Carlo search to run (the `algorithm` of an experiment's searcher).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MctsAlgorithm {
    /// [`uct`], one thread.
    Uct,
    /// [`flat_monte_carlo`], the baseline without a tree.
    FlatMonteCarlo,
    /// [`root_parallel`]: independent trees, root statistics merged.
    RootParallel,
    /// [`tree_parallel`]: one shared lock-free tree with virtual loss.
    TreeParallel,
    /// [`tree_parallel_locked`]: one shared tree with virtual loss behind one lock (the
    /// baseline of the scaling experiment).
    TreeParallelLocked,
}

impl MctsAlgorithm {
    /// Runs this search from `root` within `budget`; `threads` applies to the parallel
    /// schemes (the others run on the calling thread).
    pub fn run<G: Game, E: Evaluator<G>>(
        self,
        root: &G,
        eval: &E,
        config: &MctsConfig,
        budget: &MctsBudget<'_>,
        threads: usize,
    ) -> MctsResult<G::Move> {
        match self {
            Self::Uct => uct(root, eval, config, budget),
            Self::FlatMonteCarlo => flat_monte_carlo(root, eval, config, budget),
            Self::RootParallel => root_parallel(root, eval, config, budget, threads),
            Self::TreeParallel => tree_parallel(root, eval, config, budget, threads),
            Self::TreeParallelLocked => tree_parallel_locked(root, eval, config, budget, threads),
        }
    }

    /// Whether `threads` above 1 means anything to this search.
    #[must_use]
    pub fn is_parallel(self) -> bool {
        matches!(
            self,
            Self::RootParallel | Self::TreeParallel | Self::TreeParallelLocked
        )
    }
}

impl std::fmt::Display for MctsAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Uct => "uct",
            Self::FlatMonteCarlo => "flat_monte_carlo",
            Self::RootParallel => "root_parallel",
            Self::TreeParallel => "tree_parallel",
            Self::TreeParallelLocked => "tree_parallel_locked",
        })
    }
}

/// The largest exploration constant accepted: with rewards in `[0, 1]` a constant this
/// large already makes the search all but uniform, and a larger one can overflow the bound
/// (at 10^308 every child's bound was infinite and one child took nearly every playout).
pub const MAX_EXPLORATION: f64 = 1e6;

/// Refuses an exploration constant outside `0..=`[`MAX_EXPLORATION`] (NaN and the
/// infinities too), writing a vast one in exponent form rather than in its 309 digits.
///
/// # Errors
/// `"<c> is not a number from 0 to 1e6"`.
pub fn check_exploration(c: f64) -> Result<(), String> {
    if (0.0..=MAX_EXPLORATION).contains(&c) {
        return Ok(());
    }
    let shown = if c.abs() < 1e7 {
        c.to_string()
    } else {
        format!("{c:e}")
    };
    Err(format!("{shown} is not a number from 0 to 1e6"))
}

/// Settings of a Monte Carlo search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant `c` in `mean + c · sqrt(ln N / n)`; √2 by default, the
    /// UCB1 constant for rewards in `[0, 1]` (Auer et al. 2002; Kocsis and Szepesvári 2006).
    pub exploration: f64,
    /// Stops each playout after this many plies and scores it with the evaluator, mapped to
    /// a win probability by [`Game::win_probability`] (by default `1 / (1 + 10^(-eval /
    /// 400))`; backgammon's `(eval / POINT + 1) / 2`). `None`: play every playout to the
    /// end of the game.
    pub playout_cutoff: Option<u32>,
    /// The seed of every random choice (expansion order and playouts).
    pub seed: u64,
    /// [`tree_parallel`] with several threads: each thread holds back the statistics of the
    /// nodes this many plies or fewer below the root and publishes them every
    /// [`hold_playouts`](Self::hold_playouts) playouts, instead of writing them (and a
    /// virtual loss) on every iteration ("slow tree parallelization" near the root, after
    /// Gelly et al. 2008; see `lockfree.rs`). 0: every node is written on every iteration, as
    /// in Enzenberger and Müller 2009, the default. On the lent 16-core machine, connect four
    /// at 16 threads: 3.7x one thread's playouts/s with 0, 7-9x with 8-16
    /// (results/scaling_hold).
    pub hold_depth: u32,
    /// [`tree_parallel`]: playouts between two publications of a thread's held-back
    /// statistics (at least 1; default 512).
    pub hold_playouts: u32,
    /// The expansion threshold: a node below the root generates and adds children only once
    /// this many playouts have passed through it; until then an iteration that reaches it
    /// plays out from it, as from a new leaf. 1 (the default) is UCT's rule, a child added on
    /// the second visit (Kocsis and Szepesvári 2006; Coulom 2006 adds one node per playout);
    /// larger values are the threshold of MoGo and Fuego (Gelly et al. 2006; Enzenberger et
    /// al. 2010, `expand_threshold`), which keeps the tree smaller by that factor and its
    /// descents shorter, at the price of playouts from shallower leaves. Applies to every
    /// tree search (not to `flat_monte_carlo`, which has no tree).
    pub expand_visits: u32,
    /// The most memory the tree's nodes may take, in MiB, over all threads (root
    /// parallelism gives each thread's tree an equal share); `None` (the default): no cap of
    /// its own. Either way the tree grows only while the machine has memory to spare
    /// ([`crate::memory::may_grow`]). A search whose tree can grow no further stops after
    /// that iteration, as at the end of its budget, and says so
    /// ([`MctsResult::memory_full`]). Not for `flat_monte_carlo`, which has no tree.
    pub tree_mb: Option<u32>,
}

impl MctsConfig {
    /// [`Self::tree_mb`] in bytes.
    #[must_use]
    pub fn tree_bytes(&self) -> Option<u64> {
        self.tree_mb.map(|mb| u64::from(mb) << 20)
    }
}

impl Default for MctsConfig {
    fn default() -> Self {
        Self {
            exploration: std::f64::consts::SQRT_2,
            playout_cutoff: None,
            seed: 0,
            hold_depth: 0,
            hold_playouts: 512,
            expand_visits: 1,
            tree_mb: None,
        }
    }
}

/// When a Monte Carlo search stops: after `iterations` playouts, after `time`, or when
/// `stop` becomes true, whichever comes first. The clock and the flag are read every
/// [`CHECK_INTERVAL`] iterations (of each thread), and before the first.
///
/// A budget with no limit at all is refused (the search panics), since it would never end.
#[derive(Clone, Copy, Debug, Default)]
pub struct MctsBudget<'a> {
    /// Most iterations (= playouts), over all threads.
    pub iterations: Option<u64>,
    /// Longest wall-clock time (each thread gets all of it).
    pub time: Option<Duration>,
    /// A shared stop flag, as for the alpha-beta [`crate::search::Searcher::with_stop`].
    pub stop: Option<&'a AtomicBool>,
}

impl<'a> MctsBudget<'a> {
    /// At most `n` iterations (playouts).
    #[must_use]
    pub const fn iterations(n: u64) -> Self {
        Self {
            iterations: Some(n),
            time: None,
            stop: None,
        }
    }

    /// At most `time` of wall-clock time.
    #[must_use]
    pub const fn time(time: Duration) -> Self {
        Self {
            iterations: None,
            time: Some(time),
            stop: None,
        }
    }

    /// Also stops when `flag` becomes true.
    #[must_use]
    pub const fn with_stop(mut self, flag: &'a AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    fn assert_limited(&self) {
        assert!(
            self.iterations.is_some() || self.time.is_some() || self.stop.is_some(),
            "an MCTS budget needs iterations, time or a stop flag"
        );
    }
}

/// How often (in iterations of one thread) the clock and the stop flag are read.
pub const CHECK_INTERVAL: u64 = 32;

/// The time and stop-flag part of a budget, started.
#[derive(Clone, Copy)]
struct Clock<'a> {
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    /// Raised when a thread of the same search panics ([`Workers`]).
    failed: Option<&'a AtomicBool>,
}

impl<'a> Clock<'a> {
    fn start(budget: &MctsBudget<'a>, start: Instant) -> Self {
        Self {
            deadline: budget.time.map(|t| start + t),
            stop: budget.stop,
            failed: None,
        }
    }

    /// True when, at iteration `done` of this thread, time is up or a stop was asked for.
    /// Time is not looked at before a thread's first iteration: starting the threads of a
    /// parallel search can take a whole short budget, and a search without a playout has
    /// no move to give (parallel search audit of 2026-11-30). A stop is obeyed at once.
    fn interrupted(&self, done: u64) -> bool {
        done.is_multiple_of(CHECK_INTERVAL)
            && (done > 0 && self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.is_some_and(|s| s.load(Relaxed))
                || self.failed.is_some_and(|f| f.load(Relaxed)))
    }
}

/// The threads of a parallel Monte Carlo search. A thread that panics raises a shared flag
/// that every thread's [`Clock`] reads as a stop, so that the others end at their next
/// check rather than at the end of their budget (which, with a stop flag alone, as UCI's
/// `go infinite`, may never come), and the panic is then passed on when they are joined,
/// as lazy SMP and YBW do with theirs.
#[derive(Default)]
struct Workers {
    failed: AtomicBool,
}

impl Workers {
    /// `clock`, also stopped when a thread panics.
    fn clock<'b>(&'b self, clock: Clock<'b>) -> Clock<'b> {
        Clock {
            failed: Some(&self.failed),
            ..clock
        }
    }

    /// Runs `work(i)` on `threads` threads (at least 1) and returns their results in order.
    ///
    /// # Panics
    /// When a thread panics (after the others have stopped), or cannot be started.
    fn run<T: Send>(&self, threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads.max(1))
                .map(|i| {
                    let work = &work;
                    crate::search::spawn_search_thread(s, threads, move || {
                        let _raise = crate::search::RaiseOnPanic(&self.failed);
                        work(i)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("an MCTS thread panicked"))
                .collect()
        })
    }
}

/// What a Monte Carlo search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The chosen root move: the most visited (UCT, ties to the higher mean) or the best mean
    /// (flat Monte Carlo). `None` when the root has no moves or no playout was made.
    pub best_move: Option<M>,
    /// `(move, visits, mean value)` for every legal root move, in the game's move-generation
    /// order. The mean is the average reward (1 win, 0.5 draw, 0 loss) for the side to move
    /// at the root; 0 for a move never visited.
    pub root_visits: Vec<(M, u64, f64)>,
    /// Playouts made (one per iteration).
    pub playouts: u64,
    /// Nodes in the tree(s), roots included (flat Monte Carlo: the root and its moves).
    pub tree_nodes: u64,
    /// Wall-clock time of the whole search.
    pub elapsed: Duration,
    /// Whether the search stopped because its tree could grow no further: within
    /// [`MctsConfig::tree_mb`], or in the memory the machine could spare
    /// ([`crate::memory::may_grow`]). Its budget was then not spent.
    pub memory_full: bool,
}

impl<M> MctsResult<M> {
    /// Where the search stopped because its tree could grow no further
    /// ([`Self::memory_full`]), a sentence saying so, for a warning; `config` is the
    /// search's.
    #[must_use]
    pub fn memory_note(&self, config: &MctsConfig) -> Option<String> {
        self.memory_full.then(|| {
            let room = match config.tree_mb {
                Some(mb) => {
                    format!("within tree_mb = {mb} MiB and the memory the machine can spare")
                }
                None => "in the memory the machine can spare".to_owned(),
            };
            format!(
                "the Monte Carlo tree could grow no further {room} ({} nodes): the search \
                 stopped after {} playouts, short of its budget",
                self.tree_nodes, self.playouts
            )
        })
    }
}

/// `(move, visits, reward sum)` per root move, in move-generation order.
type Totals<M> = Vec<(M, u64, f64)>;

/// How [`MctsResult::best_move`] is chosen.
#[derive(Clone, Copy)]
enum Choice {
    MostVisits,
    BestMean,
}

/// Builds a result from per-move `(visits, reward sum)` totals.
fn finish<M: Copy>(
    totals: Vec<(M, u64, f64)>,
    choice: Choice,
    (playouts, tree_nodes, memory_full): (u64, u64, bool),
    elapsed: Duration,
) -> MctsResult<M> {
    let root_visits: Vec<(M, u64, f64)> = totals
        .into_iter()
        .map(|(mv, n, r)| (mv, n, if n == 0 { 0.0 } else { r / n as f64 }))
        .collect();
    let key = |&(_, n, mean): &(M, u64, f64)| match choice {
        Choice::MostVisits => (n as f64, mean),
        Choice::BestMean => (mean, n as f64),
    };
    let mut best: Option<&(M, u64, f64)> = None;
    for entry in root_visits.iter().filter(|e| e.1 > 0) {
        if best.is_none_or(|b| key(entry) > key(b)) {
            best = Some(entry);
        }
    }
    MctsResult {
        best_move: best.map(|e| e.0),
        root_visits,
        playouts,
        tree_nodes,
        elapsed,
        memory_full,
    }
}

/// The start of every search: the budget checked, the start time and the clock; or, for a
/// root where the game is over (or no move is legal), the empty result at once.
fn begin<'a, G: Game>(
    root: &G,
    budget: &MctsBudget<'a>,
) -> Result<(Instant, Clock<'a>), MctsResult<G::Move>> {
    budget.assert_limited();
    let start = Instant::now();
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    if root.status() != Status::Ongoing || moves.is_empty() {
        return Err(MctsResult {
            best_move: None,
            root_visits: Vec::new(),
            playouts: 0,
            tree_nodes: 0,
            elapsed: start.elapsed(),
            memory_full: false,
        });
    }
    Ok((start, Clock::start(budget, start)))
}

/// The generator of search thread `index` (0 for [`uct`]): seeded `mix(seed ^ index)`.
fn thread_rng(seed: u64, index: usize) -> XorShift {
    XorShift::new(mix(seed ^ index as u64))
}

/// Grows `tree` for at most `limit` iterations (or until `clock` interrupts) with `rng`;
/// returns the playouts made.
fn grow<G: Game, E: Evaluator<G>>(
    tree: &mut Tree<G>,
    root: &G,
    eval: &E,
    config: &MctsConfig,
    (limit, clock): (u64, Clock<'_>),
    rng: &mut XorShift,
) -> u64 {
    let mut buf = Vec::new();
    let mut outcomes = Vec::new();
    let mut done = 0;
    while done < limit && !tree.is_full() && !clock.interrupted(done) {
        let (leaf, mut pos) = tree.descend(root, rng, &mut buf, false);
        let result = playout(
            &mut pos,
            eval,
            config.playout_cutoff,
            rng,
            (&mut buf, &mut outcomes),
        );
        tree.backpropagate(leaf, result, false);
        done += 1;
    }
    done
}

/// One UCT tree whose nodes may take `cap` bytes, as thread `index` of root parallelism:
/// `(root totals, playouts, tree nodes, the tree)`. The tree is handed back so that the
/// caller frees it after taking the search's time: freeing memory is not searching (the
/// tree-parallel searches, too, free their tree after), and sixteen threads unmapping their
/// trees at once took 5% of a 0.5-s search on the lent 16-core machine.
fn uct_totals<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &MctsConfig,
    (limit, clock): (u64, Clock<'_>),
    (index, cap): (usize, Option<u64>),
) -> (Totals<G::Move>, u64, u64, Tree<G>) {
    let mut tree = Tree::with_cap(root, config, cap);
    let mut rng = thread_rng(config.seed, index);
    let playouts = grow(&mut tree, root, eval, config, (limit, clock), &mut rng);
    (tree.root_totals(root), playouts, tree.size(), tree)
}

/// UCT (Kocsis and Szepesvári 2006) from `root` within `budget`: each iteration selects by
/// UCB1 down the tree (`config.exploration`), adds one child, plays a seeded uniformly random
/// playout from it (see [`MctsConfig::playout_cutoff`]) and backpropagates the reward,
/// flipping perspective per player. The tree is a `Vec` arena; children are expanded in a
/// seeded random order. The chosen move is the most visited root child.
///
/// With an iteration budget the result depends only on `root`, `config` and the budget.
/// The generator is seeded as thread 0 of [`root_parallel`], so that one thread of it gives
/// exactly this search.
pub fn uct<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &MctsConfig,
    budget: &MctsBudget<'_>,
) -> MctsResult<G::Move> {
    let (start, clock) = match begin(root, budget) {
        Ok(started) => started,
        Err(done) => return done,
    };
    let limit = budget.iterations.unwrap_or(u64::MAX);
    let cap = config.tree_bytes();
    let (totals, playouts, nodes, tree) = uct_totals(root, eval, config, (limit, clock), (0, cap));
    let full = tree.is_full();
    finish(
        totals,
        Choice::MostVisits,
        (playouts, nodes, full),
        start.elapsed(),
    )
}

/// Flat Monte Carlo (seed 003, "pure Monte Carlo tree search"; Brügmann 1993, "Monte Carlo
/// Go"): seeded random playouts from each legal root move in turn (round-robin, in
/// move-generation order), and the move with the best mean reward. No tree, no UCB:
/// `config.exploration` is unused.
pub fn flat_monte_carlo<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &MctsConfig,
    budget: &MctsBudget<'_>,
) -> MctsResult<G::Move> {
    let (start, clock) = match begin(root, budget) {
        Ok(started) => started,
        Err(done) => return done,
    };
    let mut buf = Vec::new();
    let mut outcomes = Vec::new();
    root.generate_moves(&mut buf);
    let mut totals: Vec<(G::Move, u64, f64)> = buf.iter().map(|&mv| (mv, 0, 0.0)).collect();
    let limit = budget.iterations.unwrap_or(u64::MAX);
    let mut rng = thread_rng(config.seed, 0);
    let mut done = 0;
    while done < limit && !clock.interrupted(done) {
        let index = (done % totals.len() as u64) as usize;
        let (mv, visits, reward) = &mut totals[index];
        let mut pos = root.clone();
        pos.play(*mv);
        let result = playout(
            &mut pos,
            eval,
            config.playout_cutoff,
            &mut rng,
            (&mut buf, &mut outcomes),
        );
        *visits += 1;
        *reward += reward_for(root.side_to_move(), result.0, result.1);
        done += 1;
    }
    let nodes = 1 + totals.len() as u64;
    finish(
        totals,
        Choice::BestMean,
        (done, nodes, false),
        start.elapsed(),
    )
}
