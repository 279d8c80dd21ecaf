//! Searches over chance nodes: expectiminimax against an independent recursive reference,
//! and Star1 and Star2 (every ordering, with and without iterative deepening) against
//! expectiminimax, on random trees with chance layers at every depth.

use plylab::game::Notation;
use plylab::game::{Game, Score, Status, Weight, score};
use plylab::games::backgammon::{Backgammon, PipRace, Pubeval};
use plylab::games::chance_tree::{ChanceKind, ChanceTree, ChanceTreeParams, ChanceTreeValue};
use plylab::games::random_tree::Child;
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, search};

/// A random chance tree with values in [-1000, 1000], where ties are rare.
fn tree(b: u32, d: u32, chance: ChanceKind, seed: u64) -> ChanceTree {
    narrow_tree(b, d, chance, (-1000, 1000), seed)
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

/// A random chance tree whose values lie in `[lo, hi]`: a narrow range makes equal values
/// (ties between moves, windows met exactly) common.
fn narrow_tree(
    b: u32,
    d: u32,
    chance: ChanceKind,
    (lo, hi): (Score, Score),
    seed: u64,
) -> ChanceTree {
    ChanceTree::new(ChanceTreeParams {
        b,
        d,
        chance,
        lo,
        hi,
        seed,
    })
    .unwrap()
}

/// The last iteration of a search of `root` to `depth`, no table, no iterative deepening.
fn iteration<E: plylab::game::Evaluator<ChanceTree>>(
    root: &ChanceTree,
    eval: &E,
    algorithm: Algorithm,
    depth: u32,
) -> plylab::search::Iteration<Child> {
    let config = SearchConfig {
        algorithm,
        iterative: false,
        tt_mb: 0,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    search(root, eval, &config, &limits)
        .last()
        .expect("a completed iteration")
        .clone()
}

/// ChanceTreeValue's values without its bounds: the evaluator declares none
/// ([`plylab::game::Evaluator::bounds`] is `None`).
struct Unbounded;

impl plylab::game::Evaluator<ChanceTree> for Unbounded {
    fn evaluate(&self, pos: &ChanceTree) -> Score {
        pos.value()
    }
}

/// Without declared bounds Star1 and Star2 take the widest scores as `[L, U]` (and prune
/// nothing at chance nodes): still the expectiminimax value. Every other test's evaluator
/// declares bounds, so only this one reaches that default.
#[test]
fn star1_and_star2_are_exact_without_declared_bounds() {
    for (b, d, chance) in shapes() {
        for seed in 20..23 {
            let root = tree(b, d, chance, seed);
            for depth in 1..=d {
                let truth = reference(&root, depth).0;
                for algorithm in [Algorithm::Star1, Algorithm::Star2] {
                    let it = iteration(&root, &Unbounded, algorithm, depth);
                    assert_eq!(it.score, truth, "{algorithm} on {root} depth {depth}");
                }
            }
        }
    }
}

/// `(nodes, leaves, expanded, generated)` of the whole tree below `node` to `depth`
/// levels, counted by walking it: what expectiminimax, which visits every node, reports.
fn walk(node: &ChanceTree, depth: u32) -> (u64, u64, u64, u64) {
    if depth == 0 || matches!(node.status(), Status::Over(_)) {
        return (1, 1, 0, 0);
    }
    let mut children = Vec::new();
    if node.is_chance() {
        let mut outcomes: Vec<(Child, Weight)> = Vec::new();
        node.chance_outcomes(&mut outcomes);
        children.extend(outcomes.into_iter().map(|(c, _)| c));
    } else {
        node.generate_moves(&mut children);
    }
    let mut counts = (1, 0, 1, children.len() as u64);
    for c in children {
        let mut child = *node;
        child.play(c);
        let (n, l, e, g) = walk(&child, depth - 1);
        counts = (counts.0 + n, counts.1 + l, counts.2 + e, counts.3 + g);
    }
    counts
}

/// Expectiminimax's counters are the tree's own: every node to the horizon visited, each
/// interior one (chance nodes too) expanded once with all its moves or outcomes
/// generated. Every search reaches the horizon (chance levels count as plies), so its
/// deepest ply is the depth.
#[test]
fn counters_of_the_chance_searches() {
    for (b, d, chance) in shapes() {
        let root = tree(b, d, chance, 3);
        for depth in 1..=d {
            let it = iteration(&root, &ChanceTreeValue, Algorithm::Expectiminimax, depth);
            let (nodes, leaves, expanded, generated) = walk(&root, depth);
            let s = it.stats;
            let got = (s.nodes, s.leaf_nodes, s.expanded_nodes, s.generated_moves);
            assert_eq!(
                got,
                (nodes, leaves, expanded, generated),
                "{root} depth {depth}"
            );
            for algorithm in [
                Algorithm::Expectiminimax,
                Algorithm::Star1,
                Algorithm::Star2,
            ] {
                let it = iteration(&root, &ChanceTreeValue, algorithm, depth);
                assert_eq!(
                    it.stats.max_ply, depth,
                    "{algorithm} on {root} depth {depth}"
                );
            }
        }
    }
}

/// On trees with few distinct values, where moves tie and outcomes meet the windows
/// exactly, all three searches still return the expectiminimax value, and the best move
/// (the principal variation's first) is the first root move, in generation order, whose
/// value is the root's: a later move that only ties, or whose fail-soft bound equals the
/// best value, must not replace it.
#[test]
fn ties_keep_the_first_best_move() {
    let mut ties = 0;
    for (b, d, chance) in shapes() {
        for (seed, range) in (0..24).map(|s| (s, [(-2, 2), (-1, 1), (0, 1)][s as usize % 3])) {
            let root = narrow_tree(b, d, chance, range, seed);
            for depth in 1..=d {
                let mut moves = Vec::new();
                root.generate_moves(&mut moves);
                let values: Vec<Score> = moves
                    .iter()
                    .map(|&mv| {
                        let mut child = root;
                        child.play(mv);
                        let v = reference(&child, depth - 1).0;
                        if child.side_to_move() == root.side_to_move() {
                            v
                        } else {
                            -v
                        }
                    })
                    .collect();
                let best = *values.iter().max().unwrap();
                let first = values.iter().position(|&v| v == best).unwrap();
                ties += usize::from(values.iter().filter(|&&v| v == best).count() > 1);
                for algorithm in [
                    Algorithm::Expectiminimax,
                    Algorithm::Star1,
                    Algorithm::Star2,
                ] {
                    let it = iteration(&root, &ChanceTreeValue, algorithm, depth);
                    let at = format!("{algorithm} on {root} depth {depth}");
                    assert_eq!(it.score, best, "{at}");
                    assert_eq!(it.best_move, Some(moves[first]), "{at}");
                    assert_eq!(it.pv.first(), Some(&moves[first]), "{at}");
                }
            }
        }
    }
    assert!(ties > 10, "the trees have ties: {ties}");
}

/// The cutoff counters of Star1 and Star2: there are cutoffs, first-move ones among them,
/// no more first-move cutoffs than cutoffs, and fewer cutoffs than expanded nodes.
#[test]
fn cutoff_counters_of_star1_and_star2() {
    for algorithm in [Algorithm::Star1, Algorithm::Star2] {
        let (mut cutoffs, mut first) = (0, 0);
        for seed in 0..4 {
            for (b, d, chance) in shapes() {
                let s = iteration(&tree(b, d, chance, seed), &ChanceTreeValue, algorithm, d).stats;
                assert!(s.first_move_cutoffs <= s.beta_cutoffs, "{algorithm} {s:?}");
                assert!(s.beta_cutoffs < s.expanded_nodes, "{algorithm} {s:?}");
                (cutoffs, first) = (cutoffs + s.beta_cutoffs, first + s.first_move_cutoffs);
            }
        }
        assert!(
            first > 0 && cutoffs > first,
            "{algorithm}: {cutoffs} {first}"
        );
    }
}

/// A second search of the same root with the same table finds the first one's values
/// there: every child of the root (the root itself is always searched) is cut off by its
/// stored value, so the search visits the root and its children only. Expectiminimax
/// stores exact values, Star1 and Star2 exact ones where the window was full.
#[test]
fn a_second_search_takes_its_values_from_the_table() {
    for algorithm in [
        Algorithm::Expectiminimax,
        Algorithm::Star1,
        Algorithm::Star2,
    ] {
        for (b, d, chance) in shapes() {
            let root = tree(b, d, chance, 7);
            let config = SearchConfig {
                algorithm,
                iterative: false,
                ..SearchConfig::default()
            };
            let limits = Limits {
                depth: Some(d),
                ..Limits::default()
            };
            let table = plylab::search::Table::new(1);
            let mut runs = (0..2).map(|_| {
                let result = plylab::search::Searcher::new(&ChanceTreeValue, &config)
                    .with_table(&table)
                    .run(&root, &limits);
                let last = result.last().expect("a completed iteration");
                (last.score, last.stats.nodes)
            });
            let (first, second) = (runs.next().unwrap(), runs.next().unwrap());
            assert_eq!(second.0, first.0, "{algorithm} on {root}");
            assert_eq!(
                second.1,
                1 + u64::from(b),
                "{algorithm} on {root}: {first:?}"
            );
        }
    }
}

/// Star2's probing phase cuts off chance nodes that Star1 searches further (Hauk, Buro and
/// Schaeffer 2004): on some of these trees Star2 visits fewer nodes than Star1. (Probes
/// that never cut off, or none at all, leave Star2 with at least Star1's nodes.)
#[test]
fn star2_probes_save_nodes_on_some_trees() {
    let mut fewer = 0;
    for (b, d, chance) in shapes() {
        for (seed, range) in (0..6).map(|s| (s, [(-1000, 1000), (-2, 2)][s as usize % 2])) {
            let root = narrow_tree(b, d, chance, range, seed);
            for depth in 2..=d {
                let star1 = iteration(&root, &ChanceTreeValue, Algorithm::Star1, depth)
                    .stats
                    .nodes;
                let star2 = iteration(&root, &ChanceTreeValue, Algorithm::Star2, depth)
                    .stats
                    .nodes;
                fewer += usize::from(star2 < star1);
            }
        }
    }
    assert!(fewer > 0);
}
