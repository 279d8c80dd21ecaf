//! Limits: a search interrupted by a node limit, a time limit or a stop request returns the
//! iterations it completed, identical to those of a search that was never interrupted.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use plylab::game::Notation;
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, Searcher, search};

fn ordered() -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering: Ordering::HEURISTICS,
        tt_mb: 4,
        iterative: true,
        seed: 1,
        ..SearchConfig::default()
    }
}

fn start() -> Connect4 {
    Connect4::parse_position("start").unwrap()
}

#[test]
fn a_node_limit_keeps_the_completed_iterations() {
    let limits = Limits {
        depth: Some(30),
        nodes: Some(50_000),
        time: None,
    };
    let stopped = search(&start(), &CentreFirst, &ordered(), &limits);
    assert!(stopped.stopped);
    assert_eq!(stopped.total.nodes, 50_000, "the limit is exact");
    let last = stopped
        .last()
        .expect("some iterations complete within 50,000 nodes");
    assert!(last.best_move.is_some());
    // The same search limited only by the depth it completed gives the same iterations.
    let full = search(
        &start(),
        &CentreFirst,
        &ordered(),
        &Limits {
            depth: Some(last.depth),
            ..Limits::default()
        },
    );
    assert!(!full.stopped);
    let strip = |r: &plylab::search::SearchResult<_>| -> Vec<_> {
        r.iterations
            .iter()
            .map(|i| (i.depth, i.score, i.best_move, i.pv.clone(), i.stats))
            .collect()
    };
    assert_eq!(strip(&stopped), strip(&full));
}

#[test]
fn a_stop_request_before_the_search_ends_it_at_once() {
    let stop = AtomicBool::new(true);
    let config = ordered();
    let mut searcher = Searcher::new(&CentreFirst, &config).with_stop(&stop);
    let result = searcher.run(
        &start(),
        &Limits {
            depth: Some(40),
            ..Limits::default()
        },
    );
    assert!(result.stopped);
    assert!(result.iterations.is_empty());
    assert_eq!(result.total.nodes, 0);
}

#[test]
fn a_time_limit_stops_a_search_that_would_take_far_longer() {
    // Solving connect four from the start takes hours; a 50 ms budget must end it.
    let limits = Limits {
        depth: None,
        nodes: None,
        time: Some(Duration::from_millis(50)),
    };
    let result = search(&start(), &CentreFirst, &ordered(), &limits);
    assert!(result.stopped);
    assert!(result.last().is_some_and(|it| it.depth < 42));
}

#[test]
fn a_depth_beyond_max_depth_searches_to_max_depth() {
    // The library takes any depth; it searches no deeper than MAX_DEPTH (whose buffers it
    // sizes), and a node limit still stops a single deep iteration.
    let config = SearchConfig {
        iterative: false,
        ..ordered()
    };
    let limits = Limits {
        depth: Some(u32::MAX),
        nodes: Some(10_000),
        time: None,
    };
    let stopped = search(&start(), &CentreFirst, &config, &limits);
    assert!(stopped.stopped && stopped.iterations.is_empty());
    assert_eq!(stopped.total.nodes, 10_000);
    let chess = plylab::games::chess::Chess::parse_position("start").unwrap();
    let eval = plylab::games::chess::Pst;
    let deep = search(&chess, &eval, &config, &limits);
    assert!(deep.stopped && deep.total.max_ply < plylab::search::MAX_DEPTH);
}
