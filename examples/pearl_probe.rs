use plylab::games::random_tree::{Model, RandomTree, TreeParams, TreeValue};
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, search};
fn main() {
    for (b, d) in [
        (2u32, 20u32),
        (2, 10),
        (3, 10),
        (4, 10),
        (6, 10),
        (8, 10),
        (12, 8),
    ] {
        let mut sums = vec![0f64; d as usize + 1];
        let mut leaves = vec![0f64; d as usize + 1];
        let trees = 5;
        for seed in 0..trees {
            let root = RandomTree::new(TreeParams {
                b,
                d,
                seed,
                model: Model::Iid,
            })
            .unwrap();
            let cfg = SearchConfig {
                algorithm: Algorithm::Alphabeta,
                ordering: Ordering {
                    shuffle: true,
                    ..Default::default()
                },
                tt_mb: 0,
                iterative: true,
                seed,
            };
            let r = search(&root, &TreeValue, &cfg, &Limits::default());
            for it in &r.iterations {
                sums[it.depth as usize] += it.stats.nodes as f64 / trees as f64;
                leaves[it.depth as usize] += it.stats.leaf_nodes as f64 / trees as f64;
            }
        }
        let k = d as usize;
        println!(
            "b={b} d={d}: ratio N(d)/N(d-1)={:.3} sqrt(N(d)/N(d-2))={:.3} root={:.3} leafratio2={:.3} ",
            sums[k] / sums[k - 1],
            (sums[k] / sums[k - 2]).sqrt(),
            sums[k].powf(1.0 / d as f64),
            (leaves[k] / leaves[k - 2]).sqrt()
        );
    }
}
