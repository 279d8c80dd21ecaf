//! Pearl (1982): on uniform trees with i.i.d. continuous leaf values, alpha-beta in random
//! order grows like R(b)^d, R(b) = x/(1-x) with x^b + x - 1 = 0 (R(2) = 1.618,
//! R(4) = 2.630, R(8) = 4.309, shared/data/README.md). Measured on seeded trees at depth ≥ 8.

use plylab::games::random_tree::{Model, RandomTree, TreeParams, TreeValue};
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, search};

/// Mean nodes per iteration depth over `trees` i.i.d. trees of height `d`, random order.
fn mean_nodes(b: u32, d: u32, trees: u64) -> Vec<f64> {
    let mut sums = vec![0.0; d as usize + 1];
    for seed in 0..trees {
        let root = RandomTree::new(TreeParams {
            b,
            d,
            seed: 1000 + seed,
            model: Model::Iid,
        })
        .unwrap();
        let config = SearchConfig {
            algorithm: Algorithm::Alphabeta,
            ordering: Ordering {
                shuffle: true,
                ..Ordering::default()
            },
            tt_mb: 0,
            iterative: true,
            seed,
            ..SearchConfig::default()
        };
        for it in search(&root, &TreeValue, &config, &Limits::default()).iterations {
            sums[it.depth as usize] += it.stats.nodes as f64 / trees as f64;
        }
    }
    sums
}

#[test]
fn random_order_alphabeta_grows_like_pearls_branching_factor() {
    for (b, r, d, trees) in [(2, 1.618, 18, 40), (4, 2.630, 12, 20), (8, 4.309, 9, 20)] {
        let nodes = mean_nodes(b, d, trees);
        // The mean growth per ply from depth 8 to the deepest depth (an even span, so the
        // odd-even swing of alpha-beta cancels).
        let from = if (d - 8) % 2 == 0 { 8 } else { 7 };
        let ebf = (nodes[d as usize] / nodes[from as usize]).powf(1.0 / f64::from(d - from));
        let ratio = ebf / r;
        assert!(
            (0.9..=1.1).contains(&ratio),
            "b={b}: measured {ebf:.3}, R(b) = {r}, ratio {ratio:.3}"
        );
    }
}
