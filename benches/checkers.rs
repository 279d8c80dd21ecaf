//! Checkers move generation speed: perft from the start position (leaves per second; the
//! counts are the published ones, tests/checkers_perft.rs) and ordered alpha-beta with the
//! table from the start to depth 12 (nodes per second).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use plylab::games::checkers::{Checkers, CheckersEval};
use plylab::lab::perft::perft;
use plylab::search::{Limits, Ordering, SearchConfig, search};

fn checkers(c: &mut Criterion) {
    let mut g = c.benchmark_group("checkers");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
    let start = Checkers::new();
    // perft(9) = 3 963 680 leaves (dctl's table).
    g.throughput(Throughput::Elements(3_963_680));
    g.bench_function("perft 9 from the start", |b| {
        b.iter(|| perft(black_box(&start), 9));
    });
    let config = SearchConfig {
        ordering: Ordering::HEURISTICS,
        tt_mb: 16,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(12),
        ..Limits::default()
    };
    let nodes = search(&start, &CheckersEval::default(), &config, &limits)
        .total
        .nodes;
    println!("ordered alpha-beta to depth 12: {nodes} nodes per iteration");
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("ordered alpha-beta to depth 12", |b| {
        b.iter(|| {
            search(
                black_box(&start),
                &CheckersEval::default(),
                &config,
                &limits,
            )
        });
    });
    g.finish();
}

criterion_group!(benches, checkers);
criterion_main!(benches);
