//! Lazy SMP: with one thread it is exactly the single-threaded alpha-beta (same iterations,
//! same node counts); with several threads it returns a legal move and, on positions solved
//! to the end, the exact value (Pons's scores on Test_L3_R1). The caller's stop flag ends
//! every thread.

use std::sync::atomic::AtomicBool;

use plylab::game::{Game, Notation};
use plylab::games::chess::{Chess, Pst};
use plylab::games::connect4::{CentreFirst, Connect4, pons_score};
use plylab::search::smp::{Shared, lazy_smp_observed};
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
