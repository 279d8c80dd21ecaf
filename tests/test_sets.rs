//! `suite connect4` against Pascal Pons's exact scores: all 1000 positions of Test_L3_R1 and
//! the first 200 of Test_L2_R1 in CI; the whole of Test_L2_R1 in an ignored test.

use std::path::Path;

use plylab::lab::spec::{GameKind, SearcherVariant};
use plylab::lab::{suite, test_set};
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig};

fn ordered_with_table() -> SearcherVariant {
    SearcherVariant::new(
        "ordered",
        SearchConfig {
            algorithm: Algorithm::Alphabeta,
            ordering: Ordering::HEURISTICS,
            tt_mb: 4,
            iterative: true,
            seed: 1,
            ..SearchConfig::default()
        },
    )
}

fn assert_exact(file: &str, take: Option<usize>, expected_total: usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments/data/connect4")
        .join(file);
    let positions = test_set::read(GameKind::Connect4, &path, take).expect("the test set reads");
    let report = suite::run(
        positions,
        &ordered_with_table(),
        Limits::default(),
        2,
        false,
        Vec::new(),
        |_| {},
    )
    .expect("the suite runs");
    assert_eq!(report.total, expected_total);
    assert_eq!(
        report.exact,
        report.total,
        "misses: {:?}",
        &report.misses[..report.misses.len().min(5)]
    );
}

#[test]
fn every_test_l3_r1_position_is_solved_exactly() {
    assert_exact("Test_L3_R1", None, 1000);
}

#[test]
fn the_first_200_test_l2_r1_positions_are_solved_exactly() {
    assert_exact("Test_L2_R1", Some(200), 200);
}

#[test]
#[ignore = "about a minute in release mode: run with --ignored"]
fn every_test_l2_r1_position_is_solved_exactly() {
    assert_exact("Test_L2_R1", None, 1000);
}
