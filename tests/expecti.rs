//! Searches over chance nodes: expectiminimax against an independent recursive reference,
//! and Star1 and Star2 (every ordering, with and without iterative deepening) against
//! expectiminimax, on random trees with chance layers at every depth.

use plylab::game::Notation;
use plylab::game::{Game, Score, Status, Weight, score};
use plylab::games::backgammon::{Backgammon, PipRace, Pubeval};
use plylab::games::chance_tree::{ChanceKind, ChanceTree, ChanceTreeParams, ChanceTreeValue};
use plylab::games::random_tree::Child;
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, search};

fn tree(b: u32, d: u32, chance: ChanceKind, seed: u64) -> ChanceTree {
    ChanceTree::new(ChanceTreeParams {
        b,
        d,
        chance,
        lo: -1000,
        hi: 1000,
        seed,
    })
    .unwrap()
}

/// Expectiminimax written out from its definition, independent of the searcher: the value
/// for the side to move, a chance node's value `floor(Σ w·v / Σ w)`. Also returns the exact
/// rational value (as f64) for comparison.
fn reference(node: &ChanceTree, depth: u32) -> (Score, f64) {
    if let Status::Over(plylab::game::Outcome::Points(p)) = node.status() {
        return (p, f64::from(p));
    }
    if depth == 0 {
        return (node.value(), f64::from(node.value()));
    }
    if node.is_chance() {
        let mut outcomes: Vec<(Child, Weight)> = Vec::new();
        node.chance_outcomes(&mut outcomes);
        let total: i64 = outcomes.iter().map(|&(_, w)| i64::from(w)).sum();
        let (mut sum, mut exact) = (0i64, 0.0);
        for (c, w) in outcomes {
            let mut child = *node;
            child.play(c);
            let (v, x) = reference(&child, depth - 1);
            sum += i64::from(w) * i64::from(v);
            exact += f64::from(w) * x;
        }
        return (sum.div_euclid(total) as Score, exact / total as f64);
    }
    let mut moves = Vec::new();
    node.generate_moves(&mut moves);
    let mut best = (-score::INFINITY, f64::NEG_INFINITY);
    for mv in moves {
        let mut child = *node;
        child.play(mv);
        let (v, x) = reference(&child, depth - 1);
        let sign = if child.side_to_move() == node.side_to_move() {
            1
        } else {
            -1
        };
        best.0 = best.0.max(sign * v);
        best.1 = best.1.max(f64::from(sign) * x);
    }
    best
}

fn run(
    root: &ChanceTree,
    algorithm: Algorithm,
    ordering: Ordering,
    iterative: bool,
    depth: u32,
) -> (Score, u64) {
    run_with_table(
        root,
        &ChanceTreeValue,
        algorithm,
        ordering,
        (iterative, 0),
        depth,
    )
}

/// A search of `root` to `depth` with `(iterative, tt_mb)`: the root value and the nodes of
/// the last iteration.
fn run_with_table<G: Game, E: plylab::game::Evaluator<G>>(
    root: &G,
    eval: &E,
    algorithm: Algorithm,
    ordering: Ordering,
    (iterative, tt_mb): (bool, usize),
    depth: u32,
) -> (Score, u64) {
    let config = SearchConfig {
        algorithm,
        ordering,
        iterative,
        tt_mb,
        seed: 11,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = search(root, eval, &config, &limits);
    let last = result.last().expect("a completed iteration");
    assert_eq!(last.depth, depth);
    (last.score, last.stats.nodes)
}

fn shapes() -> Vec<(u32, u32, ChanceKind)> {
    vec![
        (2, 7, ChanceKind::Uniform(2)),
        (3, 6, ChanceKind::Uniform(3)),
        (4, 5, ChanceKind::Uniform(5)),
        (3, 5, ChanceKind::Dice),
        (2, 6, ChanceKind::Uniform(1)),
    ]
}

#[test]
fn expectiminimax_equals_the_definition() {
    for (b, d, chance) in shapes() {
        for seed in 0..4 {
            let root = tree(b, d, chance, seed);
            for depth in 1..=d {
                let (truth, exact) = reference(&root, depth);
                let (value, _) = run(
                    &root,
                    Algorithm::Expectiminimax,
                    Ordering::default(),
                    false,
                    depth,
                );
                assert_eq!(value, truth, "{root} depth {depth}");
                let (tabled, _) = run_with_table(
                    &root,
                    &ChanceTreeValue,
                    Algorithm::Expectiminimax,
                    Ordering::default(),
                    (true, 1),
                    depth,
                );
                assert_eq!(tabled, truth, "with a table: {root} depth {depth}");
                // Each chance level floors once: the value is within that many units of
                // the exact rational expectation.
                assert!(
                    (f64::from(value) - exact).abs() <= f64::from(depth),
                    "{root} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn star1_and_star2_equal_expectiminimax_on_every_tree_and_depth() {
    let orderings = [
        Ordering::default(),
        Ordering {
            shuffle: true,
            ..Ordering::default()
        },
        Ordering {
            killers: true,
            history: true,
            ..Ordering::default()
        },
    ];
    let mut savings = [0u64; 3];
    for (b, d, chance) in shapes() {
        for seed in 10..16 {
            let root = tree(b, d, chance, seed);
            for depth in 1..=d {
                let (truth, full) = run(
                    &root,
                    Algorithm::Expectiminimax,
                    Ordering::default(),
                    false,
                    depth,
                );
                savings[0] += full;
                for (i, algorithm) in [Algorithm::Star1, Algorithm::Star2].into_iter().enumerate() {
                    for ordering in orderings {
                        for (iterative, tt_mb) in [(false, 0), (true, 0), (true, 1)] {
                            let (value, nodes) = run_with_table(
                                &root,
                                &ChanceTreeValue,
                                algorithm,
                                ordering,
                                (iterative, tt_mb),
                                depth,
                            );
                            assert_eq!(
                                value,
                                truth,
                                "{algorithm} {} iterative={iterative} tt_mb={tt_mb} on {root} depth {depth}",
                                ordering.label()
                            );
                            if !iterative && ordering == Ordering::default() {
                                savings[i + 1] += nodes;
                                if algorithm == Algorithm::Star1 {
                                    assert!(nodes <= full, "Star1 visits a subset of the tree");
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    // Star1 prunes. (Star2's probes are extra visits that pay only where they cut off
    // early; on these i.i.d. trees with loose bounds they can cost more than they save.)
    assert!(savings[1] < savings[0], "{savings:?}");
}

#[test]
fn chance_root_and_single_outcome_trees() {
    // A tree whose chance nodes have one outcome is a plain minimax tree: the value is the
    // negamax value computed by the reference with no averaging.
    let root = tree(3, 6, ChanceKind::Uniform(1), 5);
    let mut at_chance = root;
    at_chance.play(Child(1));
    assert!(at_chance.is_chance());
    for algorithm in [
        Algorithm::Expectiminimax,
        Algorithm::Star1,
        Algorithm::Star2,
    ] {
        let (value, _) = run(&at_chance, algorithm, Ordering::default(), true, 5);
        assert_eq!(value, reference(&at_chance, 5).0);
    }
}

/// Player nodes met in a seeded random backgammon game.
fn backgammon_positions(n: usize) -> Vec<Backgammon> {
    let mut rng = plylab::rng::XorShift::new(31);
    let (mut out, mut moves, mut rolls) = (Vec::new(), Vec::new(), Vec::new());
    let mut pos = Backgammon::default();
    while out.len() < n {
        if pos.result().is_some() {
            pos = Backgammon::default();
        } else if pos.is_chance() {
            rolls.clear();
            pos.chance_outcomes(&mut rolls);
            pos.play(rolls[rng.below(21) as usize].0);
        } else {
            if rng.below(6) == 0 {
                out.push(pos);
            }
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    out
}

#[test]
fn star1_and_star2_equal_expectiminimax_on_backgammon() {
    let hinted = Ordering {
        hint: true,
        ..Ordering::default()
    };
    for (i, pos) in backgammon_positions(8).into_iter().enumerate() {
        // Every other position from its chance node: the roll still to come.
        let root = if i % 2 == 0 { pos } else { chance_root(&pos) };
        for depth in 1..=3 {
            for eval in [0, 1] {
                let run = |algorithm, ordering| match eval {
                    0 => run_with_table(&root, &Pubeval, algorithm, ordering, (true, 0), depth),
                    _ => run_with_table(&root, &PipRace, algorithm, ordering, (true, 0), depth),
                };
                let (truth, full) = run(Algorithm::Expectiminimax, Ordering::default());
                for algorithm in [Algorithm::Star1, Algorithm::Star2] {
                    for ordering in [Ordering::default(), hinted] {
                        let (value, nodes) = run(algorithm, ordering);
                        assert_eq!(value, truth, "{algorithm} on {root} depth {depth}");
                        if algorithm == Algorithm::Star1 && ordering == Ordering::default() {
                            assert!(nodes <= full);
                        }
                    }
                }
            }
        }
    }
}

/// The chance node before `pos`'s roll: the same board with the dice not yet thrown.
fn chance_root(pos: &Backgammon) -> Backgammon {
    let id = pos.to_string();
    Backgammon::parse_position(id.split_whitespace().next().unwrap()).unwrap()
}
