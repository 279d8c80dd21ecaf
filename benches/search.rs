//! Search speed in nodes per second, on one core; table throughput on one and two.
//!
//! What is measured: how fast the searches visit nodes, not how few they visit. Each
//! benchmark counts the nodes of its workload once before timing it (the workloads are
//! deterministic: fixed positions, seeds and a table cleared before every run) and declares
//! them as `Throughput::Elements`, so criterion's "thrpt" line reads in nodes per second.
//! The table benchmarks count probes or stores instead.
//!
//! - `connect4`: ordered alpha-beta with the table (hint + tt_move + killers + history,
//!   16 MiB), solving the first ten Test_L3_R1 positions, and the start position to depth 12;
//!   Pons's step 12 with enhanced transposition cutoff on the same positions, with the lean
//!   node function and (`_general`) without it;
//! - `random_tree`: alpha-beta in natural order with `TreeValue` on i.i.d. trees b=8 d=9 and
//!   b=4 d=12;
//! - `othello`: ordered alpha-beta with the table from the start to depth 8, and rung 14
//!   of experiments/othello.toml solving FFO positions 1-5 exactly
//!   (`solve_ffo_1_5`: refined mobility, parity, the last-six-empties solver, null-window
//!   searches on the score);
//! - `othello_bits`: othello's legal moves and flips on the boards of FFO 1-19, as the
//!   searches call them (AVX2 where the processor has it) and portable (`_portable`), in
//!   calls per second;
//! - `tictactoe`: minimax over the full tree from the start (549 946 nodes);
//! - `table`: stores and probes of the transposition table, 16 MiB, random keys, on one
//!   thread and split between two threads sharing the table;
//! - `mcts`: playouts per second (declared as elements) of UCT and of root- and lock-free
//!   tree-parallel MCTS on one and two threads, 50 000 playouts from connect four's `44`,
//!   the tree-parallel ones writing every node on every iteration (`hold0`) and holding back
//!   the top 8 plies (`hold8`, `MctsConfig::hold_depth`), and UCT expanding a node only
//!   after 64 playouts through it (`uct_expand64`, `MctsConfig::expand_visits`).
//!
//! The project's targets on one core: connect four ≥ 10 M nodes/s, random trees ≥ 20 M nodes/s.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, Bencher, BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group,
    criterion_main,
};
use plylab::game::{Evaluator, Game, Neutral, Notation};
use plylab::games::backgammon::{Backgammon, Pubeval};
use plylab::games::chess::{Chess, Pst};
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::games::othello::{Othello, OthelloEval, bits, obf};
use plylab::games::random_tree::{Model, RandomTree, TreeParams, TreeValue};
use plylab::games::tictactoe::TicTacToe;
use plylab::rng::mix;
use plylab::search::mcts::{MctsAlgorithm, MctsBudget, MctsConfig};
use plylab::search::tt::{Bound, Entry};
use plylab::search::{
    Algorithm, Limits, Ordering, Quiescence, SearchConfig, Searcher, SolveSwitches, Table,
};

/// Table size of the connect-four benchmarks, in MiB.
const TABLE_MB: usize = 16;
/// Positions of Test_L3_R1 solved by the connect-four benchmark.
const L3_POSITIONS: usize = 10;
/// FFO endgame positions (of 1-19) solved by the othello benchmark.
const FFO_POSITIONS: usize = 5;
/// Table operations per iteration of the table benchmarks.
const TABLE_OPS: u64 = 1 << 20;

/// A group with short measurements, so that `cargo bench` finishes in a few minutes.
fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
    g
}

/// Benchmarks `routine` as `name`, declaring `elements` (nodes, probes, ...) per iteration.
fn bench_elements(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    elements: u64,
    routine: impl FnMut(&mut Bencher<'_, WallTime>),
) {
    println!("{name}: {elements} per iteration");
    g.throughput(Throughput::Elements(elements));
    g.bench_function(name, routine);
}

/// Searches every root in turn with one `config` and returns the nodes visited. With
/// `table`, all share it (the caller clears it first); a fresh searcher per root, so that
/// killers and history do not carry over and every run visits the same nodes.
fn search_all<G: Game, E: Evaluator<G>>(
    roots: &[G],
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    table: Option<&Table>,
) -> u64 {
    roots
        .iter()
        .map(|root| {
            let mut searcher = Searcher::new(eval, config);
            if let Some(t) = table {
                searcher = searcher.with_table(t);
            }
            searcher.run(black_box(root), limits).total.nodes
        })
        .sum()
}

/// Benchmarks `search_all`, counting its nodes once first. With `table`, the table is
/// cleared before every run, outside the timing.
fn bench_search<G: Game, E: Evaluator<G>>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    roots: &[G],
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    table: Option<&Table>,
) {
    let clear = || table.inspect(|t| t.clear());
    clear();
    let nodes = search_all(roots, eval, config, limits, table);
    bench_elements(g, name, nodes, |b| {
        b.iter_batched(
            clear,
            |_| search_all(roots, eval, config, limits, table),
            BatchSize::PerIteration,
        );
    });
}

fn alphabeta(ordering: Ordering) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering,
        // The benchmarks share one table (`Searcher::with_table`): no private one.
        tt_mb: 0,
        iterative: true,
        seed: 1,
        ..SearchConfig::default()
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn connect4(c: &mut Criterion) {
    let config = alphabeta(Ordering::HEURISTICS);
    let table = Table::new(TABLE_MB);
    let l3: Vec<Connect4> = include_str!("../experiments/data/connect4/Test_L3_R1")
        .lines()
        .take(L3_POSITIONS)
        .map(|line| Connect4::parse_position(line.split(' ').next().unwrap()).unwrap())
        .collect();
    let mut g = group(c, "connect4");
    let (eval, solve) = (&CentreFirst, Limits::default());
    bench_search(
        &mut g,
        "solve_l3_r1_10",
        &l3,
        eval,
        &config,
        &solve,
        Some(&table),
    );
    let start = [Connect4::new()];
    bench_search(
        &mut g,
        "start_depth_12",
        &start,
        eval,
        &config,
        &depth(12),
        Some(&table),
    );
    // Pons's step 12 with enhanced transposition cutoff (experiments/connect4.toml's `best`),
    // in its compact table, on the same positions.
    let best = SearchConfig {
        iterative: false,
        etc: true,
        ordering: Ordering {
            hint: true,
            threats: true,
            ..Ordering::default()
        },
        solve: SolveSwitches {
            win_check: true,
            score_window: true,
            score_grain: 2,
            mtd: true,
            anticipate: true,
            tt_compact: true,
            ..SolveSwitches::default()
        },
        ..alphabeta(Ordering::default())
    };
    let compact = Table::compact(TABLE_MB);
    bench_search(
        &mut g,
        "solve_l3_r1_10_best",
        &l3,
        eval,
        &best,
        &solve,
        Some(&compact),
    );
    bench_general_nodes(&mut g, "solve_l3_r1_10_best_general", &l3, &best, &compact);
    g.finish();
}

/// `config` solving `roots` with the general node function at every node
/// ([`Searcher::with_general_nodes`]): beside the same searches with the lean node
/// function, what that one saves (the nodes are the same).
fn bench_general_nodes(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    roots: &[Connect4],
    config: &SearchConfig,
    table: &Table,
) {
    let run = || -> u64 {
        roots
            .iter()
            .map(|root| {
                let mut searcher = Searcher::new(&CentreFirst, config)
                    .with_table(table)
                    .with_general_nodes();
                searcher
                    .run(black_box(root), &Limits::default())
                    .total
                    .nodes
            })
            .sum()
    };
    table.clear();
    let nodes = run();
    bench_elements(g, name, nodes, |b| {
        b.iter_batched(|| table.clear(), |()| run(), BatchSize::PerIteration);
    });
}

/// The node function on chess, othello and backgammon: ordered alpha-beta (expectiminimax's
/// Star2 for backgammon's chance nodes) from the start to a fixed depth.
fn other_games(c: &mut Criterion) {
    let table = Table::new(TABLE_MB);
    let chess = SearchConfig {
        quiescence: Some(Quiescence::default()),
        ..alphabeta(Ordering::HEURISTICS)
    };
    let mut g = group(c, "chess");
    bench_search(
        &mut g,
        "start_depth_6_quiescence",
        &[Chess::default()],
        &Pst,
        &chess,
        &depth(6),
        Some(&table),
    );
    g.finish();
    let mut g = group(c, "othello");
    let ordered = alphabeta(Ordering::HEURISTICS);
    bench_search(
        &mut g,
        "start_depth_8",
        &[Othello::default()],
        &OthelloEval::default(),
        &ordered,
        &depth(8),
        Some(&table),
    );
    // Rung 14 of experiments/othello.toml solving FFO positions 1-5 (14-16 empties): the
    // general node down to seven empties, the last-empties solver below.
    let ffo = &ffo_positions()[..FFO_POSITIONS];
    let endgame = SearchConfig {
        iterative: false,
        ordering: Ordering {
            tt_move: true,
            refined_mobility: true,
            parity: true,
            hint: true,
            ..Ordering::default()
        },
        pvs: true,
        endgame_solver: Some(6),
        solve: SolveSwitches {
            score_window: true,
            mtd: true,
            ..SolveSwitches::default()
        },
        ..alphabeta(Ordering::default())
    };
    bench_search(
        &mut g,
        "solve_ffo_1_5",
        ffo,
        &OthelloEval::default(),
        &endgame,
        &Limits::default(),
        Some(&table),
    );
    g.finish();
    let mut g = group(c, "backgammon");
    let star2 = SearchConfig {
        algorithm: Algorithm::Star2,
        ..alphabeta(Ordering::HEURISTICS)
    };
    bench_search(
        &mut g,
        "start_star2_depth_2",
        &[Backgammon::default()],
        &Pubeval,
        &star2,
        &depth(2),
        Some(&table),
    );
    g.finish();
}

/// FFO endgame positions 1-19 (experiments/data/othello).
fn ffo_positions() -> Vec<Othello> {
    include_str!("../experiments/data/othello/fforum-1-19.obf")
        .lines()
        .map(|line| obf::parse_line(line).unwrap().position)
        .collect()
}

/// Othello's legal moves and flips, as the searches call them (AVX2 where the processor
/// has it) and portable, on the boards of FFO 1-19: the moves of each side, the flips of
/// each side on every empty square.
fn othello_bits(c: &mut Criterion) {
    let boards: Vec<(u64, u64)> = ffo_positions()
        .iter()
        .flat_map(|p| [(p.player(), p.opponent()), (p.opponent(), p.player())])
        .collect();
    let squares: Vec<(u32, u64, u64)> = boards
        .iter()
        .flat_map(|&(p, o)| {
            (0..64)
                .filter(move |sq| !(p | o) >> sq & 1 == 1)
                .map(move |sq| (sq, p, o))
        })
        .collect();
    let mut g = group(c, "othello_bits");
    let all_moves = |moves: fn(u64, u64) -> u64| {
        boards
            .iter()
            .fold(0, |acc, &(p, o)| acc ^ moves(black_box(p), black_box(o)))
    };
    let all_flips = |flips: fn(u32, u64, u64) -> u64| {
        squares
            .iter()
            .fold(0, |acc, &(sq, p, o)| acc ^ flips(black_box(sq), p, o))
    };
    let n = boards.len() as u64;
    bench_elements(&mut g, "moves", n, |b| b.iter(|| all_moves(bits::moves)));
    bench_elements(&mut g, "moves_portable", n, |b| {
        b.iter(|| all_moves(bits::moves_portable))
    });
    let n = squares.len() as u64;
    bench_elements(&mut g, "flips", n, |b| b.iter(|| all_flips(bits::flips)));
    bench_elements(&mut g, "flips_portable", n, |b| {
        b.iter(|| all_flips(bits::flips_portable))
    });
    g.finish();
}

fn random_tree(c: &mut Criterion) {
    let config = SearchConfig {
        iterative: false,
        ..alphabeta(Ordering::default())
    };
    let mut g = group(c, "random_tree");
    for (b, d) in [(8, 9), (4, 12)] {
        let params = TreeParams {
            b,
            d,
            seed: 1,
            model: Model::Iid,
        };
        let root = [RandomTree::new(params).unwrap()];
        let name = format!("alphabeta_b{b}_d{d}");
        bench_search(
            &mut g,
            &name,
            &root,
            &TreeValue,
            &config,
            &Limits::default(),
            None,
        );
    }
    g.finish();
}

fn tictactoe(c: &mut Criterion) {
    let config = SearchConfig {
        algorithm: Algorithm::Minimax,
        iterative: false,
        ..SearchConfig::default()
    };
    let mut g = group(c, "tictactoe");
    let start = [TicTacToe::new()];
    bench_search(
        &mut g,
        "minimax_full",
        &start,
        &Neutral,
        &config,
        &Limits::default(),
        None,
    );
    g.finish();
}

fn table(c: &mut Criterion) {
    let table = Table::new(TABLE_MB);
    let keys: Vec<u64> = (0..TABLE_OPS).map(mix).collect();
    let entry = |k: u64| Entry {
        score: (k % 1000) as i32,
        move_code: Some((k % 7) as u16),
        depth: (k % 20) as i32 * plylab::search::config::ONE_PLY,
        bound: Bound::Exact,
    };
    let store = |keys: &[u64]| keys.iter().for_each(|&k| table.store(k, 3, entry(k)));
    let probe = |keys: &[u64]| {
        keys.iter()
            .filter(|&&k| table.probe(k, 3).is_some())
            .count()
    };
    store(&keys);
    let mut g = group(c, "table");
    bench_elements(&mut g, "store", TABLE_OPS, |b| b.iter(|| store(&keys)));
    bench_elements(&mut g, "probe", TABLE_OPS, |b| b.iter(|| probe(&keys)));
    // The same operations split between two threads on the one shared table, as lazy SMP
    // uses it: what the lock-free entries cost when both cores hit them at once.
    let (first, second) = keys.split_at(keys.len() / 2);
    let on_two_threads = |op: &(dyn Fn(&[u64]) + Sync)| {
        std::thread::scope(|s| {
            s.spawn(|| op(first));
            op(second);
        });
    };
    bench_elements(&mut g, "store_2_threads", TABLE_OPS, |b| {
        b.iter(|| on_two_threads(&|k| store(k)));
    });
    bench_elements(&mut g, "probe_2_threads", TABLE_OPS, |b| {
        b.iter(|| {
            on_two_threads(&|k| {
                black_box(probe(k));
            });
        });
    });
    g.finish();
}

/// Playouts of each Monte Carlo benchmark.
const PLAYOUTS: u64 = 50_000;

fn mcts(c: &mut Criterion) {
    let root = Connect4::parse_position("44").expect("a position");
    let budget = MctsBudget::iterations(PLAYOUTS);
    let held = |hold_depth| MctsConfig {
        seed: 1,
        hold_depth,
        ..MctsConfig::default()
    };
    let mut g = group(c, "mcts");
    for (name, algorithm, threads, config) in [
        ("uct", MctsAlgorithm::Uct, 1, held(0)),
        (
            "uct_expand64",
            MctsAlgorithm::Uct,
            1,
            MctsConfig {
                expand_visits: 64,
                ..held(0)
            },
        ),
        ("root_parallel_2", MctsAlgorithm::RootParallel, 2, held(0)),
        ("tree_parallel_1", MctsAlgorithm::TreeParallel, 1, held(0)),
        (
            "tree_parallel_2_hold0",
            MctsAlgorithm::TreeParallel,
            2,
            held(0),
        ),
        (
            "tree_parallel_2_hold8",
            MctsAlgorithm::TreeParallel,
            2,
            held(8),
        ),
    ] {
        bench_elements(&mut g, name, PLAYOUTS, |b| {
            b.iter(|| algorithm.run(black_box(&root), &Neutral, &config, &budget, threads));
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    connect4,
    random_tree,
    tictactoe,
    other_games,
    othello_bits,
    table,
    mcts
);
criterion_main!(benches);
