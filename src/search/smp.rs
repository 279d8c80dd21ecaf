//! Lazy SMP: several threads search the same root at once and share only the transposition
//! table, so that each finds entries the others stored (the scheme of most modern chess
//! engines; see the Chess Programming Wiki, "Lazy SMP", and tantabus's `std::thread::scope`
//! implementation).
//!
//! - Thread 0, the main thread, runs iterative deepening under the job's limits; its result
//!   is the reported result ("main thread" rule: the move of its deepest completed iteration).
//! - Helper threads run the same search with the ordering's seeded shuffle switched on and a
//!   seed of their own, so that among moves of equal ordering key each tries a different one
//!   first and they spread over the tree instead of repeating the main thread's work.
//! - When the main thread finishes, it raises the helpers' stop flag.
//! - Each thread counts its own nodes (no shared counter on the hot path); the totals are
//!   added up at the end. Node and time limits apply to the main thread.
//!
//! With one thread this is exactly the single-threaded search.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::game::{Evaluator, Game};
use crate::rng::mix;

use super::{Iteration, Limits, SearchConfig, SearchResult, Searcher, Table};

/// Searches `root` with `threads` threads sharing one table of `config.tt_mb` MiB, calling
/// `on_iteration` for each iteration the main thread completes.
pub fn lazy_smp<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    threads: usize,
    on_iteration: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    let table = Table::new(config.tt_mb.max(1));
    let stop = AtomicBool::new(false);
    let shared = Shared {
        table: &table,
        stop: &stop,
        history: &[],
    };
    lazy_smp_observed(root, eval, config, limits, threads, &shared, on_iteration)
}

/// What the threads of a lazy SMP search share with the caller (an engine front keeps the
/// table between moves and raises the stop flag on `stop`).
pub struct Shared<'a> {
    /// The transposition table.
    pub table: &'a Table,
    /// Raised by the caller to stop the main thread (the helpers stop when it has).
    pub stop: &'a AtomicBool,
    /// Hashes of the positions played before the root, for repetition draws.
    pub history: &'a [u64],
}

/// [`lazy_smp`] with the table, stop flag and history of the caller.
pub fn lazy_smp_observed<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    threads: usize,
    shared: &Shared<'_>,
    on_iteration: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    let helper_configs: Vec<SearchConfig> = (1..threads.max(1))
        .map(|i| helper_config(config, i))
        .collect();
    // Helpers stop when the main thread is done, whatever stopped it.
    let main_done = AtomicBool::new(false);
    let searcher = |config, stop| {
        Searcher::new(eval, config)
            .with_table(shared.table)
            .with_stop(stop)
            .with_history(shared.history)
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = helper_configs
            .iter()
            .map(|helper| {
                let (searcher, main_done) = (&searcher, &main_done);
                scope.spawn(move || {
                    let helper_limits = Limits {
                        nodes: None,
                        time: None,
                        ..*limits
                    };
                    searcher(helper, main_done).run(root, &helper_limits).total
                })
            })
            .collect();
        let mut main = searcher(config, shared.stop).run_observed(root, limits, on_iteration);
        main_done.store(true, Relaxed);
        for helper in helpers {
            // A helper that panicked contributes no nodes; the main thread's answer stands.
            if let Ok(total) = helper.join() {
                main.total += total;
            }
        }
        main
    })
}

/// Helper `index`'s configuration: the main one with the shuffle on and its own seed.
fn helper_config(config: &SearchConfig, index: usize) -> SearchConfig {
    let mut helper = config.clone();
    helper.ordering.shuffle = true;
    helper.seed = mix(config.seed ^ index as u64);
    helper
}
