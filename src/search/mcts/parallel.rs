//! Parallel MCTS (Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo tree
//! search", Computers and Games, LNCS 5131): root parallelism, and tree parallelism with
//! virtual loss behind one lock (the baseline of the lock-free [`super::tree_parallel`]).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use parking_lot::Mutex;

use super::tree::{Tree, playout};
use super::{
    Choice, Clock, MctsBudget, MctsConfig, MctsResult, Workers, begin, finish, thread_rng,
    uct_totals,
};
use crate::game::{Evaluator, Game};

/// The iterations of thread `index` out of `threads` sharing `total`: the quotient, plus
/// one for the first `total % threads` threads (so they add up to `total`).
fn share(total: u64, threads: usize, index: usize) -> u64 {
    let t = threads as u64;
    total / t + u64::from((index as u64) < total % t)
}

/// Root parallelism (Chaslot et al. 2008): `threads` (at least 1) independent UCT trees on
/// [`std::thread::scope`], thread `i` seeded `mix(config.seed ^ i)`, their root statistics
/// merged (visits and rewards summed per root move); the best move is the most visited in
/// the merged statistics.
///
/// Budget: the iterations are divided between the threads (the first `n % threads` get one
/// more), while each thread gets the full time budget and watches the same stop flag. With
/// an iteration budget the result is deterministic, and with one thread it equals [`super::uct`]
/// with the same seed (apart from `elapsed`).
pub fn root_parallel<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &MctsConfig,
    budget: &MctsBudget<'_>,
    threads: usize,
) -> MctsResult<G::Move> {
    let (start, clock) = match begin(root, budget) {
        Ok(started) => started,
        Err(done) => return done,
    };
    let threads = threads.max(1);
    let workers = Workers::default();
    let clock = workers.clock(clock);
    let runs = workers.run(threads, |i| {
        let limit = budget.iterations.map_or(u64::MAX, |n| share(n, threads, i));
        let cap = config.tree_bytes().map(|c| c / threads as u64);
        uct_totals(root, eval, config, (limit, clock), (i, cap))
    });
    let (mut totals, mut playouts, mut nodes) = (Vec::new(), 0, 0);
    let mut trees = Vec::with_capacity(threads);
    for (run, p, n, tree) in runs {
        merge(&mut totals, run);
        playouts += p;
        nodes += n;
        trees.push(tree);
    }
    let full = trees.iter().any(Tree::is_full);
    // The trees are freed after the time is taken (see `uct_totals`).
    finish(
        totals,
        Choice::MostVisits,
        (playouts, nodes, full),
        start.elapsed(),
    )
}

/// Adds one tree's root totals to `into` (both in move-generation order).
fn merge<M: Copy>(into: &mut Vec<(M, u64, f64)>, run: Vec<(M, u64, f64)>) {
    if into.is_empty() {
        *into = run;
        return;
    }
    for (a, b) in into.iter_mut().zip(run) {
        a.1 += b.1;
        a.2 += b.2;
    }
}

/// Tree parallelism with virtual loss behind one global lock (Chaslot et al. 2008), kept as
/// the baseline of the lock-free [`super::tree_parallel`]: `threads` (at least 1) threads
/// grow one shared UCT tree. The tree sits behind a single `parking_lot::Mutex` (a lock per
/// tree, the simplest correct design, not lock-free): a thread locks it to select and expand,
/// unlocks it for the playout, and locks it again to backpropagate. Each node on a selected
/// path gets a virtual loss (an extra visit with reward 0) until its playout is
/// backpropagated, which steers the other threads to other paths.
///
/// Budget: the iteration budget is shared (a counter of started iterations), each thread
/// gets the full time budget and watches the stop flag. Thread `i` is seeded
/// `mix(config.seed ^ i)`, but the result is not deterministic: which statistics (and
/// virtual losses) a selection sees depends on how the operating system interleaves the
/// threads.
pub fn tree_parallel_locked<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &MctsConfig,
    budget: &MctsBudget<'_>,
    threads: usize,
) -> MctsResult<G::Move> {
    let (start, clock) = match begin(root, budget) {
        Ok(started) => started,
        Err(done) => return done,
    };
    let workers = Workers::default();
    let shared = Shared {
        tree: Mutex::new(Tree::new(root, config)),
        started: AtomicU64::new(0),
        limit: budget.iterations.unwrap_or(u64::MAX),
        clock: workers.clock(clock),
    };
    let playouts: u64 = workers
        .run(threads, |i| shared.work(root, eval, config, i))
        .into_iter()
        .sum();
    let tree = shared.tree.into_inner();
    let totals = tree.root_totals(root);
    finish(
        totals,
        Choice::MostVisits,
        (playouts, tree.size(), tree.is_full()),
        start.elapsed(),
    )
}

/// What the threads of [`tree_parallel_locked`] share.
struct Shared<'a, G: Game> {
    tree: Mutex<Tree<G>>,
    started: AtomicU64,
    limit: u64,
    clock: Clock<'a>,
}

impl<G: Game> Shared<'_, G> {
    /// One thread's loop; returns its playouts.
    fn work<E: Evaluator<G>>(&self, root: &G, eval: &E, config: &MctsConfig, index: usize) -> u64 {
        let mut rng = thread_rng(config.seed, index);
        let mut buf = Vec::new();
        let mut outcomes = Vec::new();
        let mut done = 0;
        while !self.clock.interrupted(done) && self.started.fetch_add(1, Relaxed) < self.limit {
            let (leaf, mut pos, full) = {
                let mut tree = self.tree.lock();
                let (leaf, pos) = tree.descend(root, &mut rng, &mut buf, true);
                (leaf, pos, tree.is_full())
            };
            let result = playout(
                &mut pos,
                eval,
                config.playout_cutoff,
                &mut rng,
                (&mut buf, &mut outcomes),
            );
            self.tree.lock().backpropagate(leaf, result, true);
            done += 1;
            if full {
                break;
            }
        }
        done
    }
}
