//! Lazy SMP: with one thread it is exactly the single-threaded alpha-beta (same iterations,
//! same node counts); with several threads it returns a legal move and, on positions solved
//! to the end, the exact value (Pons's scores on Test_L3_R1). A helper that finishes first
//! gives the result, whatever the main thread's node and time limits, searched with the
//! configuration given; the caller's stop flag ends every thread.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::thread::ThreadId;

use plylab::game::{Evaluator, Game, Notation, Score};
use plylab::games::chess::{Chess, Pst};
use plylab::games::connect4::{CentreFirst, Connect4, pons_score};
use plylab::search::smp::{Shared, lazy_smp, lazy_smp_observed};
use plylab::search::{
    Algorithm, HelperDepths, Limits, MainDepths, Ordering, Quiescence, SearchConfig, Table, search,
};

fn config(algorithm: Algorithm, threads: usize) -> SearchConfig {
    SearchConfig {
        algorithm,
        ordering: Ordering::HEURISTICS,
        tt_mb: 4,
        threads,
        ..SearchConfig::default()
    }
}

#[test]
fn one_thread_is_the_single_threaded_search() {
    let text = include_str!("../experiments/data/connect4/Test_L2_R1");
    for line in text.lines().take(20) {
        let (moves, _) = line.split_once(' ').unwrap();
        let root = Connect4::parse_position(moves).unwrap();
        let limits = Limits {
            depth: Some(10),
            ..Limits::default()
        };
        let single = search(
            &root,
            &CentreFirst,
            &config(Algorithm::Alphabeta, 1),
            &limits,
        );
        let smp = search(&root, &CentreFirst, &config(Algorithm::LazySmp, 1), &limits);
        // Everything but the clock is identical.
        let strip = |r: &plylab::search::SearchResult<_>| -> Vec<_> {
            r.iterations
                .iter()
                .map(|i| (i.depth, i.score, i.best_move, i.pv.clone(), i.stats))
                .collect()
        };
        assert_eq!(strip(&single), strip(&smp), "{moves}");
        assert_eq!(single.total.nodes, smp.total.nodes, "{moves}");
    }
}

/// Pons's connect-four positions with their exact scores.
const TEST_L3_R1: &str = include_str!("../experiments/data/connect4/Test_L3_R1");

#[test]
fn two_threads_solve_test_l3_r1_exactly() {
    for line in TEST_L3_R1.lines().take(200) {
        let (moves, expected) = line.split_once(' ').unwrap();
        let root = Connect4::parse_position(moves).unwrap();
        let result = search(
            &root,
            &CentreFirst,
            &config(Algorithm::LazySmp, 2),
            &Limits::default(),
        );
        let best = result.best_move().expect("a move");
        let mut legal = Vec::new();
        root.generate_moves(&mut legal);
        assert!(legal.contains(&best), "{moves}: {best} is not legal");
        assert_eq!(
            pons_score(&root, result.score().unwrap()),
            Some(expected.parse().unwrap()),
            "{moves}"
        );
    }
}

/// Asserts that `config` gives Pons's exact score on the positions of Test_L3_R1 that
/// `lines` picks.
fn solves_exactly<'a>(config: &SearchConfig, lines: impl Iterator<Item = &'a str>) {
    for line in lines {
        let (moves, expected) = line.split_once(' ').unwrap();
        let root = Connect4::parse_position(moves).unwrap();
        let result = search(&root, &CentreFirst, config, &Limits::default());
        assert_eq!(
            pons_score(&root, result.score().unwrap()),
            Some(expected.parse().unwrap()),
            "{moves}"
        );
    }
}

#[test]
fn helpers_at_the_main_threads_depths_solve_exactly_too() {
    let mut config = config(Algorithm::LazySmp, 4);
    config.helper_depths = HelperDepths::Same;
    solves_exactly(&config, TEST_L3_R1.lines().take(50));
}

#[test]
fn a_main_thread_at_alternate_depths_solves_exactly_too() {
    let mut config = config(Algorithm::LazySmp, 4);
    config.main_depths = MainDepths::Alternate;
    solves_exactly(&config, TEST_L3_R1.lines().skip(50).take(50));
}

#[test]
fn two_threads_return_a_legal_chess_move() {
    let pos =
        Chess::parse_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let cfg = SearchConfig {
        quiescence: Some(Quiescence::default()),
        pvs: true,
        ..config(Algorithm::LazySmp, 2)
    };
    let result = search(
        &pos,
        &Pst,
        &cfg,
        &Limits {
            depth: Some(6),
            ..Limits::default()
        },
    );
    let best = result.best_move().expect("a move");
    assert!(pos.legal_moves().contains(&best));
    assert_eq!(result.last().map(|i| i.depth), Some(6));
}

#[test]
fn a_depth_schedule_skips_depths_and_ends_at_the_limit() {
    use plylab::search::Searcher;
    let root = Connect4::parse_position("44").unwrap();
    let config = config(Algorithm::Alphabeta, 1);
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let depths = |first, step| -> Vec<u32> {
        Searcher::new(&CentreFirst, &config)
            .with_depth_schedule(first, step)
            .run(&root, &limits)
            .iterations
            .iter()
            .map(|i| i.depth)
            .collect()
    };
    assert_eq!(depths(1, 1), (1..=8).collect::<Vec<_>>());
    assert_eq!(depths(1, 2), [1, 3, 5, 7, 8]);
    assert_eq!(depths(2, 2), [2, 4, 6, 8]);
    // The last depth's value does not depend on the way there.
    let last = |first, step| {
        Searcher::new(&CentreFirst, &config)
            .with_depth_schedule(first, step)
            .run(&root, &limits)
            .score()
    };
    assert_eq!(last(1, 1), last(2, 2));
}

#[test]
fn several_threads_reach_the_depth_limit_with_a_legal_move() {
    let root =
        Chess::parse_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let mut config = config(Algorithm::LazySmp, 3);
    config.quiescence = Some(Quiescence::default());
    for depth in 1..=6 {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let result = search(&root, &Pst, &config, &limits);
        let last = result.last().expect("an iteration");
        // The main thread's last iteration or a helper's that finished first: the limit.
        assert_eq!(last.depth, depth);
        assert!(!result.stopped);
        let mv = last.best_move.expect("a move");
        let mut legal = Vec::new();
        root.generate_moves(&mut legal);
        assert!(legal.contains(&mv));
        // Iteration times add up to no more than the whole search.
        let sum: std::time::Duration = result.iterations.iter().map(|i| i.elapsed).sum();
        assert!(sum <= result.elapsed, "{sum:?} > {:?}", result.elapsed);
    }
}

/// How many helper threads have ended: raised by a thread-local guard that a helper plants
/// at its first evaluation and that is dropped when the thread exits, after its search has
/// returned.
struct Exits(Arc<AtomicUsize>);

impl Drop for Exits {
    fn drop(&mut self) {
        self.0.fetch_add(1, SeqCst);
    }
}

thread_local! {
    static EXIT_GUARD: RefCell<Option<Exits>> = const { RefCell::new(None) };
}

/// `inner`, except that on the thread that made it (lazy SMP's main thread, which runs on
/// the caller's) the first evaluation waits until every helper thread has ended. The
/// helpers then finish their whole search before the main thread completes its first
/// iteration, whatever the scheduler does: the "first to the depth" rule must apply.
struct MainWaitsForHelpers<E> {
    inner: E,
    home: ThreadId,
    helpers: usize,
    ended: Arc<AtomicUsize>,
    waited: AtomicBool,
}

impl<E> MainWaitsForHelpers<E> {
    fn new(inner: E, helpers: usize) -> Self {
        Self {
            inner,
            home: std::thread::current().id(),
            helpers,
            ended: Default::default(),
            waited: Default::default(),
        }
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for MainWaitsForHelpers<E> {
    fn evaluate(&self, pos: &G) -> Score {
        if std::thread::current().id() == self.home {
            if !self.waited.swap(true, SeqCst) {
                // A helper ends only once its search has returned; a bug that kept it
                // searching would hang here, as it would hang the search itself.
                while self.ended.load(SeqCst) < self.helpers {
                    std::thread::yield_now();
                }
            }
        } else {
            EXIT_GUARD.with(|guard| {
                guard
                    .borrow_mut()
                    .get_or_insert_with(|| Exits(self.ended.clone()));
            });
        }
        self.inner.evaluate(pos)
    }

    fn is_noisy(&self, pos: &G, mv: G::Move) -> bool {
        self.inner.is_noisy(pos, mv)
    }

    fn noisy_moves(&self, pos: &G, out: &mut Vec<G::Move>) -> usize {
        self.inner.noisy_moves(pos, out)
    }

    fn material_gain(&self, pos: &G, mv: G::Move) -> Option<Score> {
        self.inner.material_gain(pos, mv)
    }

    fn order_hint(&self, pos: &G, mv: G::Move, depth: u32) -> i32 {
        self.inner.order_hint(pos, mv, depth)
    }
}

/// A helper that completes the whole search before the main thread is reported ("first to
/// the depth" rule, smp.rs's module doc): the result ends with an iteration at the depth
/// limit, not stopped, at the serial search's value, after at most the main thread's first
/// iteration. Node and time limits bind the main thread only (same doc), so a node limit
/// far below the helper's search and a time limit of zero do not stop it. The truth: the
/// serial alpha-beta value at the same depth (connect four's table entries are exact for
/// their depth, tests/ybw.rs), and the serial search's node count as the size of the work
/// the limits must not cut short.
#[test]
fn a_helper_that_finishes_first_gives_the_result_whatever_the_main_threads_limits() {
    let root = Connect4::parse_position("44").unwrap();
    let serial = search(
        &root,
        &CentreFirst,
        &config(Algorithm::Alphabeta, 1),
        &Limits {
            depth: Some(8),
            ..Limits::default()
        },
    );
    let few_nodes = 500;
    assert!(
        serial.total.nodes > 10 * few_nodes,
        "the search must outlast the node limit: {} nodes",
        serial.total.nodes
    );
    let cases = [
        ("depth only", None, None),
        ("a node limit", Some(few_nodes), None),
        ("no time", None, Some(std::time::Duration::ZERO)),
    ];
    for (what, nodes, time) in cases {
        let limits = Limits {
            depth: Some(8),
            nodes,
            time,
        };
        let eval = MainWaitsForHelpers::new(CentreFirst, 1);
        let result = lazy_smp(
            &root,
            &eval,
            &config(Algorithm::LazySmp, 2),
            &limits,
            2,
            |_| {},
        );
        let depths: Vec<u32> = result.iterations.iter().map(|i| i.depth).collect();
        // The main thread completes depth 1 at most (none when the helper was done before
        // it began), then stops: the helper's depth 8 follows.
        assert!(
            depths == [8] || depths == [1, 8],
            "{what}: iterations at depths {depths:?}, not the main thread's depth 1 at most \
             and then the helper's depth 8"
        );
        assert!(!result.stopped, "{what}: a complete search is not stopped");
        assert_eq!(result.score(), serial.score(), "{what}: the serial value");
        let mut legal = Vec::new();
        root.generate_moves(&mut legal);
        let best = result.best_move().expect("a move");
        assert!(legal.contains(&best), "{what}: {best} is not legal");
    }
}

/// A helper searches with the main thread's configuration (only its seed differs): the
/// result a helper finishes first with is the value of that configuration. Chess to depth 2
/// with quiescence, on the Bratko-Kopec positions where quiescence changes the value (so
/// that a helper searching without it would show). The truth: the serial search with the
/// same configuration (no table effect at depth 2: quiescence does not use the table here,
/// and the nodes one ply below the root are all different positions).
#[test]
fn a_helper_searches_with_the_configuration_it_was_given() {
    let cfg = SearchConfig {
        quiescence: Some(Quiescence::default()),
        ..config(Algorithm::Alphabeta, 1)
    };
    let plain = SearchConfig {
        quiescence: None,
        ..cfg.clone()
    };
    let smp = SearchConfig {
        algorithm: Algorithm::LazySmp,
        threads: 2,
        ..cfg.clone()
    };
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let epd = include_str!("../experiments/data/chess/bratko-kopec.epd");
    let mut checked = 0;
    for line in epd.lines() {
        let root = Chess::parse_position(line.split(" bm ").next().unwrap()).unwrap();
        let serial = search(&root, &Pst, &cfg, &limits).score();
        if search(&root, &Pst, &plain, &limits).score() == serial {
            continue;
        }
        checked += 1;
        let eval = MainWaitsForHelpers::new(Pst, 1);
        let result = lazy_smp(&root, &eval, &smp, &limits, 2, |_| {});
        // The main thread may have been stopped inside its depth 1 (quiescence can take
        // it past the point where it looks at the helper's flag): the helper's depth 2
        // ends the result.
        assert_eq!(
            result.last().map(|i| i.depth),
            Some(2),
            "{line}: the helper's depth"
        );
        assert!(!result.stopped, "{line}: a complete search is not stopped");
        assert_eq!(result.score(), serial, "{line}: the value with quiescence");
    }
    assert!(
        checked >= 3,
        "quiescence changed only {checked} values: the test shows little"
    );
}

/// The caller's stop flag ends every thread of a lazy SMP search, the helpers included,
/// which have no limit of their own but the main thread's end (smp.rs: "When the main
/// thread finishes, it raises the helpers' stop flag"). Raised before the search starts,
/// with no depth limit from chess's starting position (a search without end), the main
/// thread stops before its first iteration and the search returns stopped with none; a
/// helper left searching would keep it from returning at all.
#[test]
fn the_stop_flag_ends_every_thread() {
    let root = Chess::parse_position("start").unwrap();
    let table = Table::new(4);
    let stop = AtomicBool::new(true);
    let shared = Shared {
        table: &table,
        stop: &stop,
        history: &[],
    };
    for threads in [2, 4] {
        let cfg = config(Algorithm::LazySmp, threads);
        let result = lazy_smp_observed(
            &root,
            &Pst,
            &cfg,
            &Limits::default(),
            threads,
            &shared,
            |_| {},
        );
        assert!(result.stopped, "{threads} threads: not stopped");
        assert!(
            result.iterations.is_empty(),
            "{threads} threads: {} iterations after the stop",
            result.iterations.len()
        );
    }
}
