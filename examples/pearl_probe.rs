use plylab::games::random_tree::{Model, RandomTree, TreeParams, TreeValue};
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, search};
fn main() {
    for (b, d, r) in [
        (2u32, 24u32, 1.618),
        (3, 16, 2.148),
        (4, 14, 2.630),
        (6, 11, 3.5),
        (8, 10, 4.309),
        (12, 8, 5.8),
    ] {
        let mut sums = vec![0f64; d as usize + 1];
        let trees = 10;
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
            }
        }
        let line: Vec<String> = (8..=d as usize)
            .map(|k| format!("{k}:{:.3}", (sums[k] / sums[k - 2]).sqrt() / r))
            .collect();
        println!("b={b} ratio to R: {}", line.join(" "));
    }
}
