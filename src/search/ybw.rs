//! Young Brothers Wait: the classic parallel alpha-beta (Feldmann, Monien, Mysliwietz and
//! Vornberger 1989, "Distributed game tree search", ICCA Journal 12(2); Feldmann 1993,
//! "Spielbaumsuche mit massiv parallelen Systemen", PhD thesis, Paderborn; Feldmann, Monien
//! and Mysliwietz 1994, "Game tree search on massively parallel systems", in *Advances in
//! Computer Chess 7*).
//!
//! The rule: at a node, the eldest brother (the first move in order) is searched alone; only
//! once it has returned without a cutoff may its younger brothers be searched in parallel.
//! With good ordering a node whose first move does not cut off is an ALL node, whose every
//! move must be searched anyway, so the parallel work is rarely wasted (Feldmann's "search
//! overhead"), while the eldest brother's value gives the younger ones a bound to search
//! against.
//!
//! This implementation is the shared-memory form of Crafty, Glaurung and Stockfish (up to
//! version 6): split points, not messages.
//!
//! - A search has `threads` threads: the caller's (thread 0, which runs iterative deepening
//!   exactly as the single-threaded [`Searcher::run`]) and `threads - 1` helpers that wait for
//!   work. Each keeps its own [`Searcher`] for the whole search, so the serial part allocates
//!   nothing per node; all share one transposition table (the lock-free [`Table`]).
//! - A thread at a node at least `split_plies` plies from the horizon
//!   ([`SearchConfig::split_plies`], default [`SPLIT_DEPTH`]) that has searched a
//!   move without a cutoff, and finds idle threads, opens a *split point* (one of a fixed
//!   number per thread, so nothing is allocated per split but the position's copy): the
//!   node's position, its moves not yet searched, its window and best score so far. The
//!   booked helpers and the thread itself then take moves from it one at a time under its
//!   lock. Below the split depth, and wherever no thread is idle, search is serial alpha-beta.
//! - The node's alpha is shared: each move is searched against the best alpha any thread has
//!   found so far (an atomic read as the move starts), and the principal variation of a move
//!   that raises it is copied into the split point.
//! - A move that fails high marks the split point cut off. Every thread searching under it
//!   (its moves, and split points opened below them) reads the cutoff flags of its split point
//!   and of the split points above at every node, and unwinds: the other brothers are
//!   abandoned, as Feldmann's processors are told to stop when a brother's bound refutes
//!   their node.
//! - A thread that has no moves left at its own split point waits for its helpers, and
//!   meanwhile helps at split points opened below its own ("helpful master", Stockfish 1.x;
//!   Hyatt's DTS lets any idle processor join any node). A waiting thread spins for at most
//!   `SPIN`, watching its bell, then sleeps on a condition variable: waking a sleeping
//!   thread takes tens of microseconds (more on a virtual machine, where an idle core
//!   halts), as long as a split point near the horizon of a fast game lasts (connect four:
//!   a node in about 0.15 µs). On a 16-core machine spinning made connect four 1.16 times
//!   faster at 8 threads; the split depth mattered far more (results/scaling_summary.md).
//!   The bound keeps the spinning cheap where threads outnumber cores.
//!
//! For comparison, Hyatt's DTS (Hyatt 1994, "The DTS high-performance parallel tree search
//! algorithm"; Cray Blitz, speedup 11.1 on 16 processors) lets an idle processor choose where
//! to split among all active nodes of all processors, which needs every node's state to be
//! shareable; YBW splits only where the owning thread stands, right after an eldest brother.
//!
//! Limits: the caller's stop flag and the time limit are watched by thread 0, at every
//! `CHECK_INTERVAL` nodes and while it waits at a split point; when they fire, every thread
//! stops (a shared flag its own searcher watches). A node limit counts thread 0's nodes and
//! those of the helpers at each split point once it has closed, so it is approximate. An
//! endgame database is not consulted (as in lazy SMP).
//!
//! With one thread there is no pool and no split: the search is exactly the single-threaded
//! alpha-beta of the same configuration (same iterations, same node counts).

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use crate::game::{Evaluator, Game, Score};

use super::config::ONE_PLY;
use super::smp::Shared;
use super::{
    CHECK_INTERVAL, Control, Iteration, Limits, SearchConfig, SearchResult, Searcher, Stats, Table,
};

pub use super::config::SPLIT_DEPTH;

/// The most threads a search can have (threads are bits of a 64-bit mask).
pub const MAX_THREADS: usize = 64;

/// Split points a thread can have open at once (one per node of its own path, nested).
const SPLITS_PER_THREAD: usize = 16;

/// No split point.
const NONE: usize = usize::MAX;

/// How often a thread waiting for its helpers looks at the clock and the stop flags.
const POLL: Duration = Duration::from_millis(1);

/// How long a thread with nothing to do spins, watching its bell, before it sleeps.
const SPIN: Duration = Duration::from_micros(200);

/// What a search did in parallel: how often it split and how many searches of a younger
/// brother a cutoff abandoned (the aborted work the design exists to bound).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitCounters {
    /// Split points opened.
    pub splits: u64,
    /// Split points that a move's cutoff closed.
    pub cutoffs: u64,
    /// Moves whose search was abandoned because a brother (or a node above) cut off.
    pub abandoned: u64,
}

/// Searches `root` with Young Brothers Wait on `threads` threads sharing a table of
/// `config.tt_mb` MiB (none when it is 0, as for single-threaded alpha-beta), calling
/// `on_iteration` for each iteration completed.
pub fn ybw<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    threads: usize,
    on_iteration: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    ybw_with(
        root,
        eval,
        config,
        limits,
        threads,
        config.split_plies,
        on_iteration,
    )
    .0
}

/// [`ybw`] with the split depth in plies (at least 1) instead of `config.split_plies`, and
/// the split counters returned.
pub fn ybw_with<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    threads: usize,
    split_plies: u32,
    on_iteration: impl FnMut(&Iteration<G::Move>),
) -> (SearchResult<G::Move>, SplitCounters) {
    let table =
        (config.tt_mb > 0).then(|| Table::with_layout(config.tt_mb, config.solve.tt_compact));
    let stop = AtomicBool::new(false);
    let setup = Setup {
        table: table.as_ref(),
        stop: &stop,
        history: &[],
        threads,
        split_plies,
    };
    young_brothers_wait(root, eval, config, limits, &setup, on_iteration)
}

/// [`ybw`] with the table, stop flag and history of the caller (an engine front or the
/// arena keeps the table between moves), as [`super::smp::lazy_smp_observed`].
pub fn ybw_observed<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    threads: usize,
    shared: &Shared<'_>,
    on_iteration: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    let setup = Setup {
        table: Some(shared.table),
        stop: shared.stop,
        history: shared.history,
        threads,
        split_plies: config.split_plies,
    };
    young_brothers_wait(root, eval, config, limits, &setup, on_iteration).0
}

/// What every thread of one search starts from.
struct Setup<'s> {
    table: Option<&'s Table>,
    stop: &'s AtomicBool,
    history: &'s [u64],
    threads: usize,
    split_plies: u32,
}

fn young_brothers_wait<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    setup: &Setup<'_>,
    on_iteration: impl FnMut(&Iteration<G::Move>),
) -> (SearchResult<G::Move>, SplitCounters) {
    let threads = setup.threads.clamp(1, MAX_THREADS);
    let searcher = || {
        let searcher = Searcher::new(eval, config).with_history(setup.history);
        match setup.table {
            Some(table) => searcher.with_table(table),
            None => searcher,
        }
    };
    if threads == 1 {
        let result = searcher()
            .with_stop(setup.stop)
            .run_observed(root, limits, on_iteration);
        return (result, SplitCounters::default());
    }
    let pool = Pool::new(threads, setup.split_plies.max(1) as i32 * ONE_PLY);
    let result = std::thread::scope(|scope| {
        // Raised however thread 0 ends, even by a panic (a helper the system cannot start
        // included): the helpers would wait forever.
        let _quit = QuitOnDrop(&pool);
        for index in 1..threads {
            let (pool, searcher) = (&pool, &searcher);
            super::spawn_search_thread(scope, threads, move || {
                let _poison = PoisonOnPanic(pool);
                let mut helper = searcher();
                helper.take_seat(pool, index, root);
                pool.idle.fetch_or(1 << index, Release);
                helper.serve();
            });
        }
        // Thread 0 starts once every helper waits for work, so that the first nodes can
        // split (or once one has panicked: it will never wait).
        let helpers = (threads - 1) as u32;
        while pool.idle.load(Acquire).count_ones() < helpers && !pool.poisoned.load(Relaxed) {
            std::thread::yield_now();
        }
        let mut main = searcher().with_stop(setup.stop);
        main.ybw = Some(Seat::new(&pool, 0));
        main.run_observed(root, limits, on_iteration)
    });
    let counters = SplitCounters {
        splits: pool.splits_opened.load(Relaxed),
        cutoffs: pool.cutoffs.load(Relaxed),
        abandoned: pool.abandoned.load(Relaxed),
    };
    (result, counters)
}

/// The threads of one search and their split points.
pub(super) struct Pool<G: Game> {
    /// Least remaining depth (1/24 ply) of a split node.
    split_depth: i32,
    /// Raised when thread 0 hits a limit: every thread stops.
    stop: AtomicBool,
    /// Raised when a helper panicked (thread 0 must not wait for it forever).
    poisoned: AtomicBool,
    /// Held while idle threads are booked for a split point and while a waiting thread
    /// stops being available, so that no thread is booked twice or after it left.
    booking: Mutex<()>,
    /// Bit i: thread i waits for work (a plain helper, or a thread waiting for its helpers,
    /// which may only join split points below its own).
    idle: AtomicU64,
    workers: Vec<Worker>,
    /// `SPLITS_PER_THREAD` split points per thread, thread i's from `i * SPLITS_PER_THREAD`.
    splits: Vec<SplitPoint<G>>,
    splits_opened: AtomicU64,
    cutoffs: AtomicU64,
    abandoned: AtomicU64,
}

/// One thread's mailbox and bookkeeping.
struct Worker {
    mail: Mutex<Mail>,
    bell: Condvar,
    /// Raised with every ring of `bell` (a job, quit, the last helper gone), so that a
    /// spinning thread sees it without the lock; a hint only: the state is read under `mail`.
    rung: AtomicBool,
    /// The split point this thread waits on as its owner (it helps only below it), or NONE.
    waiting_on: AtomicUsize,
    /// How many of its split points are open (a stack; only the thread itself changes it).
    open: AtomicUsize,
}

#[derive(Default)]
struct Mail {
    /// A split point to help at.
    job: Option<usize>,
    /// The search is over.
    quit: bool,
}

/// A node whose younger brothers several threads search.
struct SplitPoint<G: Game> {
    /// A move failed high: the others are abandoned.
    cutoff: AtomicBool,
    /// The split point the owner was searching under when it opened this one, or NONE.
    parent: AtomicUsize,
    /// The node's alpha, raised by whichever thread finds a better move.
    alpha: AtomicI32,
    /// Bit i: thread i searches here (the owner until it has finished waiting).
    working: AtomicU64,
    state: Mutex<SplitState<G>>,
}

/// What the threads at a split point share under its lock.
struct SplitState<G: Game> {
    pos: Option<G>,
    /// The moves not searched when the node split, and the next one to hand out.
    moves: Vec<G::Move>,
    next: usize,
    /// The index of `moves[0]` among the node's moves (for PVS and the cutoff counters).
    first_index: usize,
    depth: i32,
    beta: Score,
    ply: usize,
    best: Score,
    best_move: Option<G::Move>,
    /// The node's principal variation, its move first.
    pv: Vec<G::Move>,
    /// The hashes of the positions from the root to the node (repetitions).
    path: Vec<u64>,
    /// Whether the node's moves were anticipated (part 9): its children then skip the
    /// immediate-win check, so a helper must not read its own stale flag for this ply.
    anticipated: bool,
    /// The helpers' counters, added to the owner's when the split point closes.
    stats: Stats,
    owner: usize,
    /// Whether a thread left a move half searched because the search was stopped: `best`
    /// then bounds only some of the moves, and must go neither up the tree nor into the
    /// table (a cutoff's abandoned moves are no loss: its `best` already fails high).
    stopped: bool,
}

impl<G: Game> Pool<G> {
    fn new(threads: usize, split_depth: i32) -> Self {
        let workers = (0..threads)
            .map(|_| Worker {
                mail: Mutex::new(Mail::default()),
                bell: Condvar::new(),
                rung: AtomicBool::new(false),
                waiting_on: AtomicUsize::new(NONE),
                open: AtomicUsize::new(0),
            })
            .collect();
        let splits = (0..threads * SPLITS_PER_THREAD)
            .map(|_| SplitPoint {
                cutoff: AtomicBool::new(false),
                parent: AtomicUsize::new(NONE),
                alpha: AtomicI32::new(0),
                working: AtomicU64::new(0),
                state: Mutex::new(SplitState {
                    pos: None,
                    moves: Vec::new(),
                    next: 0,
                    first_index: 0,
                    depth: 0,
                    beta: 0,
                    ply: 0,
                    best: 0,
                    best_move: None,
                    pv: Vec::new(),
                    path: Vec::new(),
                    anticipated: false,
                    stats: Stats::default(),
                    owner: 0,
                    stopped: false,
                }),
            })
            .collect();
        Self {
            split_depth,
            stop: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
            booking: Mutex::new(()),
            idle: AtomicU64::new(0),
            workers,
            splits,
            splits_opened: AtomicU64::new(0),
            cutoffs: AtomicU64::new(0),
            abandoned: AtomicU64::new(0),
        }
    }

    /// Whether split point `id` or one above it has been cut off. The chain is alive: a
    /// split point closes only after every thread below it has left.
    fn chain_cut(&self, mut id: usize) -> bool {
        while id != NONE {
            let sp = &self.splits[id];
            if sp.cutoff.load(Relaxed) {
                return true;
            }
            id = sp.parent.load(Relaxed);
        }
        false
    }

    /// Whether split point `target` is `id` or above it.
    fn above(&self, target: usize, mut id: usize) -> bool {
        while id != NONE {
            if id == target {
                return true;
            }
            id = self.splits[id].parent.load(Relaxed);
        }
        false
    }

    /// The idle threads other than `me` that may help at a split point opened under
    /// `parent`, at most `wanted` of them. Called under `booking`.
    fn joinable(&self, me: usize, parent: usize, wanted: usize) -> u64 {
        let mut idle = self.idle.load(Relaxed) & !(1 << me);
        let mut chosen = 0u64;
        while idle != 0 && chosen.count_ones() < wanted as u32 {
            let t = idle.trailing_zeros() as usize;
            idle &= idle - 1;
            let waiting = self.workers[t].waiting_on.load(Relaxed);
            // A thread waiting for its own helpers has its search stack in use down to its
            // split node: it may only take work below that node, which closes first.
            if waiting == NONE || self.above(waiting, parent) {
                chosen |= 1u64 << t;
            }
        }
        chosen
    }

    /// Tells every thread the search is over.
    fn quit(&self) {
        for worker in &self.workers {
            worker.mail.lock().quit = true;
            worker.ring();
        }
    }
}

impl Worker {
    /// Wakes this thread, spinning or asleep; the caller has changed what it waits for.
    fn ring(&self) {
        self.rung.store(true, Release);
        self.bell.notify_one();
    }

    /// Spins until the bell rings, `done` holds, or [`SPIN`] has passed, then lowers the
    /// bell: the caller reads the state it waits for under `mail`.
    fn spin(&self, done: impl Fn() -> bool) {
        let start = Instant::now();
        let mut spins = 0u32;
        while !self.rung.load(Acquire) && !done() {
            std::hint::spin_loop();
            spins += 1;
            if spins.is_multiple_of(64) && start.elapsed() >= SPIN {
                break;
            }
        }
        self.rung.store(false, Relaxed);
    }
}

/// Marks the pool poisoned if a helper thread unwinds.
struct PoisonOnPanic<'p, G: Game>(&'p Pool<G>);

impl<G: Game> Drop for PoisonOnPanic<'_, G> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.poisoned.store(true, Relaxed);
            self.0.stop.store(true, Relaxed);
            for worker in &self.0.workers {
                let _mail = worker.mail.lock();
                worker.ring();
            }
        }
    }
}

/// Sends the helpers home when dropped.
struct QuitOnDrop<'p, G: Game>(&'p Pool<G>);

impl<G: Game> Drop for QuitOnDrop<'_, G> {
    fn drop(&mut self) {
        self.0.stop.store(true, Relaxed);
        self.0.quit();
    }
}

/// A searcher's place in a YBW search.
pub(super) struct Seat<'a, G: Game> {
    pool: &'a Pool<G>,
    index: usize,
    /// The split point whose moves this thread searches now; NONE: its own nodes only.
    split_at: usize,
    /// A cutoff at `split_at` or above has ended this thread's work there.
    cut: bool,
}

impl<'a, G: Game> Seat<'a, G> {
    fn new(pool: &'a Pool<G>, index: usize) -> Self {
        Self {
            pool,
            index,
            split_at: NONE,
            cut: false,
        }
    }

    /// Moves to split point `id` (or back to `NONE`), reading whether it is already cut.
    fn stand_at(&mut self, id: usize) {
        self.split_at = id;
        self.cut = id != NONE && self.pool.chain_cut(id);
    }
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    /// Whether a cutoff at the split point this thread works under (or above it) asks it to
    /// unwind; read at every node. Always false outside a YBW split.
    #[inline]
    pub(super) fn split_cut(&mut self) -> bool {
        match &mut self.ybw {
            Some(seat) if seat.split_at != NONE => {
                if !seat.cut {
                    seat.cut = seat.pool.chain_cut(seat.split_at);
                }
                seat.cut
            }
            _ => false,
        }
    }

    /// Whether this thread is unwinding from a split point that was cut off.
    #[inline]
    pub(super) fn split_aborted(&self) -> bool {
        self.ybw.as_ref().is_some_and(|seat| seat.cut)
    }

    /// Young Brothers Wait's split, called after each move of an alpha-beta node that did
    /// not cut off, with the moves still to search: `None` to go on serially (not a YBW
    /// search, too near the horizon, nothing left, or no idle thread); else the node's best
    /// score and move once `rest` has been searched by this thread and the idle ones. The
    /// node's principal variation is updated; a cutoff is recorded by the thread that found
    /// it. `searched` moves came before `rest`; `best`, `best_move` and `alpha` are the
    /// node's so far.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn young_brothers(
        &mut self,
        pos: &G,
        rest: &[G::Move],
        searched: usize,
        depth: i32,
        (alpha, beta): (Score, Score),
        ply: usize,
        (best, best_move): (Score, Option<G::Move>),
    ) -> Option<(Score, Option<G::Move>)> {
        let seat = self.ybw.as_ref()?;
        let pool = seat.pool;
        if rest.len() < 2 || depth < pool.split_depth || pool.idle.load(Relaxed) == 0 {
            return None;
        }
        let (me, parent) = (seat.index, seat.split_at);
        let worker = &pool.workers[me];
        let open = worker.open.load(Relaxed);
        if open >= SPLITS_PER_THREAD {
            return None;
        }
        let id = me * SPLITS_PER_THREAD + open;
        let sp = &pool.splits[id];
        {
            let _booking = pool.booking.lock();
            // This thread takes a move itself: helpers for the others.
            let helpers = pool.joinable(me, parent, rest.len() - 1);
            if helpers == 0 {
                return None;
            }
            {
                let mut state = sp.state.lock();
                state.pos = Some(pos.clone());
                state.moves.clear();
                state.moves.extend_from_slice(rest);
                state.next = 0;
                state.first_index = searched;
                state.depth = depth;
                state.beta = beta;
                state.ply = ply;
                state.best = best;
                state.best_move = best_move;
                state.pv.clear();
                state.pv.extend_from_slice(&self.pv[ply]);
                state.path.clear();
                state.path.extend_from_slice(&self.path[..=ply]);
                state.anticipated = self.anticipated[ply];
                state.stats = Stats::default();
                state.owner = me;
                state.stopped = false;
            }
            sp.cutoff.store(false, Relaxed);
            sp.parent.store(parent, Relaxed);
            sp.alpha.store(alpha, Relaxed);
            sp.working.store(helpers | 1 << me, Relaxed);
            worker.open.store(open + 1, Relaxed);
            pool.idle.fetch_and(!helpers, Relaxed);
            pool.splits_opened.fetch_add(1, Relaxed);
            let mut booked = helpers;
            while booked != 0 {
                let t = booked.trailing_zeros() as usize;
                booked &= booked - 1;
                let mut mail = pool.workers[t].mail.lock();
                debug_assert!(mail.job.is_none(), "thread {t} booked twice");
                mail.job = Some(id);
                drop(mail);
                pool.workers[t].ring();
            }
        }
        self.seat().stand_at(id);
        self.search_split(id);
        self.wait_for_helpers(id);
        self.seat().stand_at(parent);
        worker.open.store(open, Relaxed);
        let state = sp.state.lock();
        if state.stopped {
            // Unwind as a stopped search does, storing nothing (audit of 2026-11-30: a
            // helper owning this split point reads the stop flag only every few nodes).
            self.control
                .as_mut()
                .expect("a YBW thread has limits")
                .aborted = true;
        }
        self.stats += state.stats;
        self.pv[ply].clear();
        self.pv[ply].extend_from_slice(&state.pv);
        Some((state.best, state.best_move))
    }

    fn seat(&mut self) -> &mut Seat<'a, G> {
        self.ybw.as_mut().expect("a YBW searcher")
    }

    /// Searches moves of split point `id` until none is left, a move fails high, or this
    /// thread must stop; the results go into the split point.
    fn search_split(&mut self, id: usize) {
        let pool = self.seat().pool;
        let sp = &pool.splits[id];
        let (parent, depth, beta, ply) = {
            let state = sp.state.lock();
            let pos = state.pos.clone().expect("an open split point");
            (pos, state.depth, state.beta, state.ply)
        };
        let plies_left = (depth / ONE_PLY).max(0) as u32;
        loop {
            if self.aborted() {
                break;
            }
            let (mv, index) = {
                let mut state = sp.state.lock();
                if sp.cutoff.load(Relaxed) || state.next >= state.moves.len() {
                    break;
                }
                let i = state.next;
                state.next += 1;
                (state.moves[i], state.first_index + i)
            };
            let mut child = parent.clone();
            child.play(mv);
            let alpha = sp.alpha.load(Relaxed);
            let child_depth = depth - ONE_PLY + self.extension(&child);
            let value = self.search_move(&child, child_depth, alpha, beta, ply, index);
            if self.aborted() {
                if self.control.as_ref().is_some_and(|c| c.aborted) {
                    sp.state.lock().stopped = true;
                } else {
                    pool.abandoned.fetch_add(1, Relaxed);
                }
                break;
            }
            let first_cut = {
                let mut state = sp.state.lock();
                if value > state.best {
                    state.best = value;
                    state.best_move = Some(mv);
                    if value > sp.alpha.load(Relaxed) {
                        sp.alpha.store(value, Relaxed);
                        state.pv.clear();
                        state.pv.push(mv);
                        state.pv.extend_from_slice(&self.pv[ply + 1]);
                    }
                }
                value >= beta && !sp.cutoff.swap(true, Relaxed)
            };
            if first_cut {
                pool.cutoffs.fetch_add(1, Relaxed);
                self.record_cutoff(&parent, mv, index, ply, plies_left);
            }
            if value >= beta {
                break;
            }
        }
        if self.control.as_ref().is_some_and(|c| c.aborted) {
            pool.stop.store(true, Relaxed);
        }
    }

    /// Waits until every helper has left split point `id`, helping meanwhile at split points
    /// opened below it, and watching the limits.
    fn wait_for_helpers(&mut self, id: usize) {
        let seat = self.seat();
        let (pool, me) = (seat.pool, seat.index);
        let (worker, sp, alone) = (&pool.workers[me], &pool.splits[id], 1u64 << me);
        {
            let _booking = pool.booking.lock();
            worker.waiting_on.store(id, Relaxed);
            pool.idle.fetch_or(alone, Relaxed);
        }
        loop {
            worker.spin(|| sp.working.load(Relaxed) == alone);
            let job = {
                let mut mail = worker.mail.lock();
                loop {
                    if let Some(job) = mail.job.take() {
                        break Some(job);
                    }
                    if sp.working.load(Relaxed) == alone {
                        break None;
                    }
                    assert!(
                        !pool.poisoned.load(Relaxed),
                        "a Young Brothers Wait helper thread panicked"
                    );
                    worker.bell.wait_for(&mut mail, POLL);
                    self.poll_limits(pool);
                }
            };
            if let Some(job) = job {
                self.help(job);
                let _booking = pool.booking.lock();
                if sp.working.load(Relaxed) != alone {
                    pool.idle.fetch_or(alone, Relaxed);
                }
                continue;
            }
            let _booking = pool.booking.lock();
            // Booked between the look at the mail and the lock: that job first.
            if worker.mail.lock().job.is_some() {
                continue;
            }
            pool.idle.fetch_and(!alone, Relaxed);
            worker.waiting_on.store(NONE, Relaxed);
            break;
        }
    }

    /// Looks at the clock and the stop flags now (a waiting thread visits no nodes); stops
    /// every thread when a limit is reached.
    fn poll_limits(&mut self, pool: &Pool<G>) {
        let nodes = self.nodes_before + self.stats.nodes;
        if let Some(control) = &mut self.control {
            control.next_check = 0;
            if control.should_stop(nodes) {
                pool.stop.store(true, Relaxed);
            }
        }
    }

    /// Works at split point `id` as a helper, then leaves it: its counters go to the split
    /// point, and its owner is woken when it was the last helper.
    fn help(&mut self, id: usize) {
        let seat = self.seat();
        let (pool, me, outer) = (seat.pool, seat.index, seat.split_at);
        let sp = &pool.splits[id];
        // Counters start afresh for the split point; the node count the limits read goes on.
        let saved = std::mem::take(&mut self.stats);
        self.nodes_before += saved.nodes;
        {
            let state = sp.state.lock();
            self.ensure_buffers(state.ply + 1);
            self.path[..=state.ply].copy_from_slice(&state.path);
            self.anticipated[state.ply] = state.anticipated;
        }
        self.seat().stand_at(id);
        self.search_split(id);
        self.seat().stand_at(outer);
        let done = std::mem::replace(&mut self.stats, saved);
        self.nodes_before -= saved.nodes;
        let now = self.nodes_before + self.stats.nodes;
        if let Some(control) = &mut self.control {
            control.next_check = control.next_check.min(now + CHECK_INTERVAL);
        }
        let owner = {
            let mut state = sp.state.lock();
            state.stats += done;
            state.owner
        };
        let left = sp.working.fetch_and(!(1 << me), Relaxed) & !(1 << me);
        if left == 1 << owner {
            let _mail = pool.workers[owner].mail.lock();
            pool.workers[owner].ring();
        }
    }

    /// Joins `pool` as helper `index` for a search from `root`.
    fn take_seat(&mut self, pool: &'a Pool<G>, index: usize, root: &G) {
        self.ybw = Some(Seat::new(pool, index));
        self.root_plies = root.plies_played();
        self.control = Some(Control {
            start: Instant::now(),
            node_limit: u64::MAX,
            deadline: None,
            stop: [Some(&pool.stop), None],
            next_check: CHECK_INTERVAL,
            aborted: false,
        });
    }

    /// A helper's life: wait for a split point to help at, help, until the search is over.
    fn serve(&mut self) {
        let seat = self.seat();
        let (pool, me) = (seat.pool, seat.index);
        let worker = &pool.workers[me];
        // Idle from the start (marked before thread 0 starts) and after each job; never
        // marked again while booked, or a second split point could take it.
        loop {
            worker.spin(|| false);
            let job = {
                let mut mail = worker.mail.lock();
                loop {
                    if mail.quit {
                        return;
                    }
                    if let Some(job) = mail.job.take() {
                        break job;
                    }
                    worker.bell.wait(&mut mail);
                }
            };
            self.help(job);
            pool.idle.fetch_or(1 << me, Relaxed);
        }
    }
}
