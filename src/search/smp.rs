//! Lazy SMP: several threads search the same root at once and share only the transposition
//! table, so that each finds entries the others stored (the scheme of most modern chess
//! engines; see the Chess Programming Wiki, "Lazy SMP", and tantabus's `std::thread::scope`
//! implementation).
//!
//! - Thread 0, the main thread, runs iterative deepening under the job's limits; its result
//!   is the reported result ("main thread" rule: the move of its deepest completed
//!   iteration), with one exception below.
//! - Helper threads run the same search but skip depths ([`HelperDepths::Alternate`], the
//!   default): helper i searches every other depth, odd ones (1, 3, 5, ...) for odd i and
//!   even ones (2, 4, ...) for even i, and the depth limit last (after the skip schedule of
//!   Stockfish 7-10's lazy SMP, `SkipSize` / `SkipPhase`), so that they run ahead of the
//!   main thread and the table already holds deeper results when it gets there. On
//!   Bratko-Kopec to depth 9 with two threads this cut the search overhead from about
//!   1.3-1.4 (helpers at the main thread's depths, shuffling ties, or one ply ahead) to
//!   about 1.17. [`HelperDepths::Same`] puts every helper at the main thread's depths:
//!   with 16 threads time-shared on the 2-core development machine it cut connect four's
//!   overhead (six openings to depth 20) from 1.5-1.7 to 1.2-1.3, but with 16 threads on a
//!   16-core machine it was 1.69 against 1.61 alternating, the speedup 8.4 against 8.9
//!   (results/scaling_check), so the default stays.
//! - The main thread searches every depth, or with [`MainDepths::Alternate`] every other
//!   depth ending at the depth limit, leaving the depths between to the helpers: with 16
//!   threads its earlier iterations were half of its nodes, though the helpers a ply ahead
//!   had already filled the table for them; skipping every other one raised the chess
//!   time-to-depth speedup at 16 threads from 8.3 to 10.3 in one run, but only by 1-5% in
//!   two later runs on other machines (results/scaling_main_depths). Two threads gained
//!   nothing, so the default stays every depth.
//! - A helper that completes its whole search (the depth limit, or a proven result) before
//!   the main thread stops the main thread, and its final iteration is appended to the main
//!   thread's as the result ("first to the depth" rule): its search is as complete as the
//!   main thread's would have been. That iteration's `elapsed` runs from the end of the main
//!   thread's last iteration to the helper's finish, so iteration times still add up to the
//!   time to depth.
//! - With several threads, a node's moves after the first that lead into a position another
//!   thread is searching are deferred to the end of the node's move list (simplified
//!   ABDADA, [`super::busy`]), so that threads spread over different subtrees.
//! - When the main thread finishes, it raises the helpers' stop flag.
//! - Each thread counts its own nodes (no shared counter on the hot path); the totals are
//!   added up at the end. Node and time limits apply to the main thread.
//!
//! With one thread this is exactly the single-threaded search.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game};
use crate::rng::mix;

use super::busy::BusyTable;
use super::{
    HelperDepths, Iteration, Limits, MainDepths, SearchConfig, SearchResult, Searcher, Table,
};

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
    let table = Table::with_layout(config.tt_mb.max(1), config.solve.tt_compact);
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
    mut on_iteration: impl FnMut(&Iteration<G::Move>),
) -> SearchResult<G::Move> {
    let helper_configs: Vec<SearchConfig> = (1..threads.max(1))
        .map(|i| helper_config(config, i))
        .collect();
    let start = Instant::now();
    // Helpers stop when the main thread is done, whatever stopped it; the main thread stops
    // when a helper has finished the whole search first, or has panicked.
    let main_done = AtomicBool::new(false);
    let helper_ended = AtomicBool::new(false);
    let busy = BusyTable::new();
    let searcher = |config, stop| {
        let searcher = Searcher::new(eval, config)
            .with_table(shared.table)
            .with_stop(stop)
            .with_history(shared.history);
        if threads > 1 {
            searcher.with_busy(&busy)
        } else {
            searcher
        }
    };
    std::thread::scope(|scope| {
        // Raised however the main thread ends, even by a panic (a helper the system cannot
        // start included): the helpers have no other limit and would keep the scope from
        // ever joining.
        let done = RaiseOnDrop(&main_done);
        let helpers: Vec<_> = helper_configs
            .iter()
            .enumerate()
            .map(|(i, helper)| {
                let (searcher, main_done, helper_ended) = (&searcher, &main_done, &helper_ended);
                super::spawn_search_thread(scope, threads, move || {
                    let _stops_main_on_panic = super::RaiseOnPanic(helper_ended);
                    let helper_limits = Limits {
                        nodes: None,
                        time: None,
                        ..*limits
                    };
                    let (first, step) = depth_schedule(helper.helper_depths, i + 1);
                    let result = searcher(helper, main_done)
                        .with_depth_schedule(first, step)
                        .run(root, &helper_limits);
                    let finished = (!result.stopped).then(|| {
                        helper_ended.store(true, Relaxed);
                        start.elapsed()
                    });
                    (result, finished)
                })
            })
            .collect();
        let (first, step) = main_schedule(config.main_depths, threads, limits.depth);
        let mut main = searcher(config, shared.stop)
            .with_stop(&helper_ended)
            .with_depth_schedule(first, step)
            .run_observed(root, limits, &mut on_iteration);
        drop(done);
        let mut first_helper: Option<(SearchResult<G::Move>, Duration)> = None;
        let mut panicked = None;
        for helper in helpers {
            match helper.join() {
                Ok((result, finished)) => {
                    main.total += result.total;
                    if let Some(at) = finished
                        && first_helper.as_ref().is_none_or(|(_, t)| at < *t)
                    {
                        first_helper = Some((result, at));
                    }
                }
                // A helper's panic is a bug, not a thread fewer: the search fails with it
                // (as YBW's and parallel MCTS's), rather than report one thread's answer as
                // that of them all.
                Err(payload) => panicked = panicked.or(Some(payload)),
            }
        }
        if let Some(payload) = panicked {
            std::panic::resume_unwind(payload);
        }
        if main.stopped
            && let Some((helper, at)) = first_helper
        {
            adopt_final_iteration(&mut main, helper, at, &mut on_iteration);
        }
        main.elapsed = start.elapsed();
        main
    })
}

/// The first depth and the step of helper `index` (from 1): odd depths for odd helpers and
/// even ones for even helpers, or every depth.
fn depth_schedule(depths: HelperDepths, index: usize) -> (u32, u32) {
    match depths {
        HelperDepths::Alternate if index % 2 == 1 => (1, 2),
        HelperDepths::Alternate => (2, 2),
        HelperDepths::Same => (1, 1),
    }
}

/// The first depth and the step of the main thread: every depth alone or with
/// [`MainDepths::Every`], otherwise every other depth, of the depth limit's parity (odd
/// without a limit), so that its last iteration is the limit.
fn main_schedule(depths: MainDepths, threads: usize, limit: Option<u32>) -> (u32, u32) {
    match depths {
        MainDepths::Alternate if threads > 1 => (2 - limit.unwrap_or(1) % 2, 2),
        _ => (1, 1),
    }
}

/// Raises its flag when dropped.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// Appends the final iteration of a helper that finished at `at` (from the start) to the
/// main thread's result, if it is deeper than the main thread's last; its `elapsed` becomes
/// the time from the end of the main thread's last iteration to `at`.
fn adopt_final_iteration<M>(
    main: &mut SearchResult<M>,
    helper: SearchResult<M>,
    at: Duration,
    on_iteration: &mut impl FnMut(&Iteration<M>),
) {
    let Some(mut last) = helper.iterations.into_iter().last() else {
        return;
    };
    if main
        .iterations
        .last()
        .is_some_and(|m| m.depth >= last.depth)
    {
        return;
    }
    let main_time: Duration = main.iterations.iter().map(|i| i.elapsed).sum();
    last.elapsed = at.saturating_sub(main_time);
    on_iteration(&last);
    main.iterations.push(last);
    main.stopped = false;
}

/// Helper `index`'s configuration: the main one with its own seed (for a shuffle the
/// configuration asks for; the helpers' own divergence comes from their depths and the
/// deferral of busy moves).
fn helper_config(config: &SearchConfig, index: usize) -> SearchConfig {
    let mut helper = config.clone();
    helper.seed = mix(config.seed ^ index as u64);
    helper
}

#[cfg(test)]
mod tests {
    use super::{HelperDepths, MainDepths, depth_schedule, main_schedule};

    #[test]
    fn helpers_alternate_odd_and_even_depths_or_follow_the_main_thread() {
        let alternate: Vec<_> = (1..=4)
            .map(|i| depth_schedule(HelperDepths::Alternate, i))
            .collect();
        assert_eq!(alternate, [(1, 2), (2, 2), (1, 2), (2, 2)]);
        assert_eq!(depth_schedule(HelperDepths::Same, 3), (1, 1));
    }

    #[test]
    fn the_main_thread_alternates_towards_the_depth_limit_only_with_helpers() {
        assert_eq!(main_schedule(MainDepths::Alternate, 16, Some(9)), (1, 2));
        assert_eq!(main_schedule(MainDepths::Alternate, 16, Some(20)), (2, 2));
        assert_eq!(main_schedule(MainDepths::Alternate, 2, None), (1, 2));
        assert_eq!(main_schedule(MainDepths::Alternate, 1, Some(9)), (1, 1));
        assert_eq!(main_schedule(MainDepths::Every, 16, Some(9)), (1, 1));
    }
}
