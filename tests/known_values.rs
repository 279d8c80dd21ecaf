//! Search results checked against numbers from the literature (shared/data/README.md).

use plylab::game::{Neutral, Notation};
use plylab::games::random_tree::{Model, Oracle, OracleOrder, RandomTree, TreeParams, TreeValue};
use plylab::games::tictactoe::TicTacToe;
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, search};

fn config(algorithm: Algorithm, ordering: Ordering, tt_mb: usize, iterative: bool) -> SearchConfig {
    SearchConfig {
        algorithm,
        ordering,
        tt_mb,
        iterative,
        seed: 1,
        ..SearchConfig::default()
    }
}

#[test]
fn tictactoe_full_minimax_visits_549946_nodes_and_draws() {
    let root = TicTacToe::parse_position("start").unwrap();
    let cfg = config(Algorithm::Minimax, Ordering::default(), 0, false);
    let result = search(&root, &Neutral, &cfg, &Limits::default());
    let last = result.last().unwrap();
    assert_eq!(last.depth, 9);
    assert_eq!(last.stats.nodes, 549_946);
    // 255,168 finished games are the leaves of the full tree.
    assert_eq!(last.stats.leaf_nodes, 255_168);
    assert_eq!(last.score, 0);
}

#[test]
fn oracle_ordered_alphabeta_visits_exactly_the_knuth_moore_minimal_tree() {
    for b in 2..=8u32 {
        for d in 1..=8u32 {
            let seeds = if u64::from(b).pow(d) > 100_000 { 1 } else { 3 };
            for seed in 0..seeds {
                let params = TreeParams {
                    b,
                    d,
                    seed,
                    model: Model::Iid,
                };
                let root = RandomTree::new(params).unwrap();
                let oracle = Oracle::new(OracleOrder::Perfect, seed);
                let ordering = Ordering {
                    hint: true,
                    ..Ordering::default()
                };
                let cfg = config(Algorithm::Alphabeta, ordering, 0, true);
                let result = search(&root, &oracle, &cfg, &Limits::default());
                assert_eq!(result.iterations.len(), d as usize);
                for it in &result.iterations {
                    assert_eq!(
                        it.stats.leaf_nodes,
                        TreeParams::minimal_leaves(b, it.depth),
                        "b={b} tree depth={d} iteration={} seed={seed}",
                        it.depth
                    );
                }
                if u64::from(b).pow(d) <= 300_000 {
                    let mm = config(Algorithm::Minimax, Ordering::default(), 0, false);
                    let reference = search(&root, &TreeValue, &mm, &Limits::default());
                    let last = reference.last().unwrap();
                    assert_eq!(last.stats.leaf_nodes, u64::from(b).pow(d));
                    assert_eq!(Some(last.score), result.score());
                }
            }
        }
    }
}

#[test]
fn connect4_solver_matches_pons_scores_on_test_l3_r1_sample() {
    use plylab::games::connect4::{CentreFirst, Connect4, pons_score};
    let text = include_str!("../experiments/data/connect4/Test_L3_R1");
    let ordering = Ordering::HEURISTICS;
    let cfg = config(Algorithm::Alphabeta, ordering, 4, true);
    for line in text.lines().take(100) {
        let (moves, expected) = line.split_once(' ').unwrap();
        let root = Connect4::parse_position(moves).unwrap();
        let result = search(&root, &CentreFirst, &cfg, &Limits::default());
        let got = pons_score(&root, result.score().unwrap());
        assert_eq!(got, Some(expected.parse().unwrap()), "position {moves}");
    }
}
