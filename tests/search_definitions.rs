//! The alpha-beta searcher checked against the algorithms' definitions, written out here.
//!
//! The truth checked: plain fail-soft alpha-beta (Knuth and Moore 1975), with or without
//! principal variation search, is a fixed walk of the tree once the move order is fixed, so
//! its value, its principal variation and every counter of `Stats` (as stats.rs defines
//! them) are those of a dozen-line reference search over the same seeded random tree, node
//! for node. Iterative deepening (Slate and Atkin 1977) is a sequence of such searches, one
//! per depth; aspiration windows re-search with the window widened fourfold around the
//! previous iteration's score until the value lands inside it, every re-search counted and
//! reported. MultiPV's later lines are the best root moves left, in order (under minimax,
//! each visits every node of the moves left), and a limit that cuts them stops the search;
//! a table on a tree without transpositions only counts its look-ups; a database's answers
//! end the walk where they are. Minimax visits the whole uniform tree. The reference here
//! knows the tree only through the `Game` and `Evaluator` traits and shares no code with
//! src/search. Last, the limits: a distant time limit cuts nothing, and a raised stop flag
//! ends the search within the documented interval between two looks at it.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use plylab::game::{Evaluator, Game, Notation, Score, score};
use plylab::games::chess::{Chess, Material};
use plylab::games::random_tree::{Child, Model, RandomTree, TreeParams, TreeValue};
use plylab::search::probe::{Exact, Probe};
use plylab::search::{Limits, RootReport, SearchConfig, Searcher, Stats};

/// A coarse evaluation of random trees: the node's value in steps of 16, so that siblings
/// tie often and the searcher's strict and non-strict comparisons differ.
struct Coarse;

impl Evaluator<RandomTree> for Coarse {
    fn evaluate(&self, pos: &RandomTree) -> Score {
        pos.value().div_euclid(16)
    }
}

/// Random-tree values spread over much of the heuristic range (the node's value times a
/// factor: with 3,000,000 to depth 5 or 700,000 to depth 6, at most 4^5 / 2 or 4^6 / 2
/// times that, 1.54e9 or 1.44e9 in size, below the decisive scores, 1.89e9, and far enough
/// below `i32::MAX` that a window's `guess ± width` cannot overflow), so that a window
/// widened past the decisive scores can still fail.
struct Spread(Score);

impl Evaluator<RandomTree> for Spread {
    fn evaluate(&self, pos: &RandomTree) -> Score {
        pos.value() * self.0
    }
}

/// Random-tree values far from 0 for the side to move: the node's value plus a fixed
/// amount, so that a window around the score (plus or minus the amount, by the parity of
/// the depth) passes `i32::MAX` or `i32::MIN` unless it is kept within the full window.
struct Offset(Score);

impl Evaluator<RandomTree> for Offset {
    fn evaluate(&self, pos: &RandomTree) -> Score {
        pos.value() + self.0
    }
}

/// An endgame database that knows a fifth of the positions below the root (those whose
/// value is a multiple of 5) to be draws.
struct Draws;

impl Probe<RandomTree> for Draws {
    fn probe(&self, pos: &RandomTree) -> Option<Exact> {
        (pos.level() > 0 && pos.value().rem_euclid(5) == 0).then_some(Exact::Draw)
    }
}

/// What the reference search saw at the root, in the order it happened: a root move about
/// to be searched (`Move`: depth, number from 1, nodes from the start of the search) or an
/// aspiration window that failed (`Bound`: depth, value, fail high, line, nodes so far).
#[derive(Clone, Debug, PartialEq)]
enum Event {
    Move(u32, usize, u64),
    Bound(u32, Score, bool, Vec<Child>, u64),
}

/// The searcher's root events, recorded as [`Event`]s.
#[derive(Default)]
struct Recorder(Mutex<Vec<Event>>);

impl RootReport<Child> for Recorder {
    fn current_move(&self, depth: u32, _mv: Child, number: usize, nodes: u64) {
        self.0
            .lock()
            .unwrap()
            .push(Event::Move(depth, number, nodes));
    }

    fn bound(&self, depth: u32, score: Score, lower: bool, pv: &[Child], nodes: u64) {
        let event = Event::Bound(depth, score, lower, pv.to_vec(), nodes);
        self.0.lock().unwrap().push(event);
    }
}

/// The reference: fail-soft negamax alpha-beta over moves in generation order, counting as
/// stats.rs defines (every node visited; leaves at the horizon; expanded nodes and their
/// moves; beta cutoffs and those by the first move; the deepest ply; with a table, a
/// look-up at every node above the horizon, a hit when an earlier search stored it).
struct Reference<'e, E> {
    eval: &'e E,
    pvs: bool,
    /// With a table: the nodes searched above the horizon so far (each stores its result).
    /// The trees have no transpositions and every earlier entry is shallower, so the table
    /// settles nothing here; it only counts.
    stored: Option<HashSet<RandomTree>>,
    /// Root moves left out (MultiPV's later lines).
    excluded: Vec<Child>,
    /// With the [`Draws`] database: below the root, a look-up at every node, and a node it
    /// knows is a leaf scored 0.
    knowledge: bool,
    /// Counters of the iteration under way.
    stats: Stats,
    /// Nodes since the start of the whole search.
    total: u64,
    /// The iteration under way, for the root events.
    depth: u32,
    events: Vec<Event>,
}

impl<'e, E: Evaluator<RandomTree>> Reference<'e, E> {
    /// Plain alpha-beta with `eval`: no PVS, table, excluded moves or database.
    fn new(eval: &'e E) -> Self {
        Self {
            eval,
            pvs: false,
            stored: None,
            excluded: Vec::new(),
            knowledge: false,
            stats: Stats::default(),
            total: 0,
            depth: 0,
            events: Vec::new(),
        }
    }

    /// The value of `node` searched `depth` plies deep with window `(alpha, beta)`, and
    /// its principal variation (the moves that raised alpha, as far as they go).
    fn alphabeta(
        &mut self,
        node: &RandomTree,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> (Score, Vec<Child>) {
        self.stats.nodes += 1;
        self.total += 1;
        self.stats.max_ply = self.stats.max_ply.max(ply);
        if self.knowledge && ply > 0 {
            self.stats.tb_probes += 1;
            if Draws.probe(node).is_some() {
                self.stats.tb_hits += 1;
                self.stats.leaf_nodes += 1;
                return (0, Vec::new());
            }
        }
        if depth == 0 {
            self.stats.leaf_nodes += 1;
            return (self.eval.evaluate(node), Vec::new());
        }
        if let Some(stored) = &self.stored {
            self.stats.tt_probes += 1;
            self.stats.tt_hits += u64::from(stored.contains(node));
        }
        let mut moves = Vec::new();
        node.generate_moves(&mut moves);
        if ply == 0 {
            moves.retain(|mv| !self.excluded.contains(mv));
        }
        self.stats.expanded_nodes += 1;
        self.stats.generated_moves += moves.len() as u64;
        let (mut best, mut line) = (-score::INFINITY, Vec::new());
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = *node;
            child.play(mv);
            if ply == 0 {
                self.events.push(Event::Move(self.depth, i + 1, self.total));
            }
            let (value, tail) = self.child(&child, depth - 1, ply + 1, alpha, beta, i);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    line = [vec![mv], tail].concat();
                }
            }
            if value >= beta {
                self.stats.beta_cutoffs += 1;
                self.stats.first_move_cutoffs += u64::from(i == 0);
                break;
            }
        }
        if let Some(stored) = &mut self.stored {
            stored.insert(*node);
        }
        (best, line)
    }

    /// The `index`-th child's value for its parent; with PVS, a later child is first
    /// searched with the null window above alpha and again only if it lands inside.
    fn child(
        &mut self,
        child: &RandomTree,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        index: usize,
    ) -> (Score, Vec<Child>) {
        if self.pvs && index > 0 && beta > alpha.saturating_add(1) {
            let (value, tail) = self.alphabeta(child, depth, ply, -alpha - 1, -alpha);
            if -value <= alpha || -value >= beta {
                return (-value, tail);
            }
        }
        let (value, tail) = self.alphabeta(child, depth, ply, -beta, -alpha);
        (-value, tail)
    }

    /// The MultiPV lines after the principal one, to `depth`: each a full-window search of
    /// the root without the first moves of the lines before it, until `wanted` lines in all
    /// (or the root moves run out). Their counters are added to `self.stats`.
    fn extra_lines(
        &mut self,
        root: &RandomTree,
        depth: u32,
        first: Child,
        wanted: usize,
    ) -> Vec<(Score, Vec<Child>)> {
        let mut lines = Vec::new();
        let mut stats = self.stats;
        self.excluded = vec![first];
        while lines.len() + 1 < wanted.min(root_moves(root).len()) {
            self.stats = Stats::default();
            let inf = score::INFINITY;
            let (value, line) = self.alphabeta(root, depth, 0, -inf, inf);
            stats += self.stats;
            self.excluded.push(line[0]);
            lines.push((value, line));
        }
        self.excluded.clear();
        self.stats = stats;
        lines
    }

    /// One iteration at `depth`: the full window, or with `aspiration` a window of that
    /// half-width around `guess`, widened fourfold after each failure (a side whose width
    /// reaches the decisive scores opens fully).
    fn iteration(
        &mut self,
        root: &RandomTree,
        depth: u32,
        guess: Option<Score>,
        aspiration: Option<Score>,
    ) -> (Score, Vec<Child>) {
        self.depth = depth;
        self.stats = Stats::default();
        let inf = score::INFINITY;
        let (Some(mut width), Some(guess)) = (aspiration, guess) else {
            return self.alphabeta(root, depth, 0, -inf, inf);
        };
        let (mut alpha, mut beta) = window(guess, width);
        loop {
            let (value, line) = self.alphabeta(root, depth, 0, alpha, beta);
            if alpha < value && value < beta {
                return (value, line);
            }
            let fail_high = value >= beta;
            self.events
                .push(Event::Bound(depth, value, fail_high, line, self.total));
            width = width.saturating_mul(4);
            if fail_high {
                beta = window(guess, width).1;
            } else {
                alpha = window(guess, width).0;
            }
        }
    }
}

/// The aspiration window of half-width `width` around `guess`: the full window once the
/// width reaches the decisive scores, and no wider than the full window.
fn window(guess: Score, width: Score) -> (Score, Score) {
    let inf = i64::from(score::INFINITY);
    if width >= score::DECISIVE {
        return (-score::INFINITY, score::INFINITY);
    }
    // In 64 bits, where `guess ± width` cannot overflow.
    let (guess, width) = (i64::from(guess), i64::from(width));
    let clip = |s: i64| s.clamp(-inf, inf) as Score;
    (clip(guess - width), clip(guess + width))
}

fn root_moves(root: &RandomTree) -> Vec<Child> {
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    moves
}

/// Plain negamax: the value alpha-beta must return with the full window.
fn negamax<E: Evaluator<RandomTree>>(eval: &E, node: &RandomTree, depth: u32) -> Score {
    if depth == 0 {
        return eval.evaluate(node);
    }
    let mut moves = Vec::new();
    node.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *node;
            child.play(mv);
            -negamax(eval, &child, depth - 1)
        })
        .max()
        .expect("a node above the horizon has moves")
}

/// The seeded trees checked: branching 2 to 4, both value models, one level deeper than
/// the deepest search so that every horizon node is evaluated rather than finished.
fn trees(max_depth: u32) -> Vec<RandomTree> {
    let mut out = Vec::new();
    for b in 2..=4 {
        for model in [Model::Iid, Model::Incremental] {
            for seed in 0..3 {
                let params = TreeParams {
                    b,
                    d: max_depth + 1,
                    seed: 1000 * u64::from(b) + seed,
                    model,
                };
                out.push(RandomTree::new(params).unwrap());
            }
        }
    }
    out
}

/// How a search is run besides its configuration.
#[derive(Clone, Copy)]
struct Run {
    depth: u32,
    /// Through the general node function everywhere (the lean one applies below the root
    /// otherwise).
    general: bool,
    /// MultiPV lines asked for (1: the principal variation alone).
    lines: usize,
    /// A time limit (none of the searches here comes near it).
    time: Option<Duration>,
    /// Consult the [`Draws`] database.
    knowledge: bool,
}

impl Run {
    fn to(depth: u32) -> Self {
        Self {
            depth,
            general: false,
            lines: 1,
            time: None,
            knowledge: false,
        }
    }
}

/// Runs the searcher on `root` with `config` as `how` says, recording the root events.
fn run<E: Evaluator<RandomTree>>(
    root: &RandomTree,
    eval: &E,
    config: &SearchConfig,
    how: Run,
) -> (plylab::search::SearchResult<Child>, Vec<Event>) {
    let recorder = Recorder::default();
    let limits = Limits {
        depth: Some(how.depth),
        time: how.time,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(eval, config)
        .with_report(&recorder)
        .with_multipv(how.lines);
    if how.knowledge {
        searcher = searcher.with_knowledge(Some(&Draws));
    }
    if how.general {
        searcher = searcher.with_general_nodes();
    }
    let result = searcher.run(root, &limits);
    (result, recorder.0.into_inner().unwrap())
}

/// Checks every iteration of the searcher against the reference for one tree, evaluator
/// and configuration (PVS, aspiration and the table taken from it; no ordering), run as
/// `how` says, with the general node function and without.
fn check<E: Evaluator<RandomTree>>(root: &RandomTree, eval: &E, config: &SearchConfig, how: Run) {
    let depth = how.depth;
    for general in [false, true] {
        let (result, events) = run(root, eval, config, Run { general, ..how });
        let mut reference = Reference {
            pvs: config.pvs,
            stored: (config.tt_mb > 0).then(HashSet::new),
            knowledge: how.knowledge,
            ..Reference::new(eval)
        };
        let first = if config.iterative { 1 } else { depth };
        let mut guess = None;
        let mut total = Stats::default();
        let what = format!(
            "tree {root}, depth {depth}, pvs {}, aspiration {:?}, iterative {}, table {}, \
             lines {}, knowledge {}, general {general}",
            config.pvs, config.aspiration, config.iterative, config.tt_mb, how.lines, how.knowledge
        );
        assert_eq!(
            result.iterations.len() as u32,
            depth - first + 1,
            "{what}: iterations completed"
        );
        for (it, d) in result.iterations.iter().zip(first..=depth) {
            let (value, line) = reference.iteration(root, d, guess, config.aspiration);
            guess = Some(value);
            let lines = reference.extra_lines(root, d, line[0], how.lines);
            total += reference.stats;
            if !how.knowledge {
                let truth = negamax(eval, root, d);
                assert_eq!(value, truth, "{what}: the reference itself at {d}");
            }
            assert_eq!(it.depth, d, "{what}: iteration depth");
            assert_eq!(it.score, value, "{what}: score at depth {d}");
            assert_eq!(it.pv, line, "{what}: principal variation at depth {d}");
            assert_eq!(
                it.best_move,
                line.first().copied(),
                "{what}: best move at {d}"
            );
            assert_eq!(it.stats, reference.stats, "{what}: counters at depth {d}");
            let found: Vec<(Score, Vec<Child>)> =
                it.lines.iter().map(|l| (l.score, l.pv.clone())).collect();
            assert_eq!(found, lines, "{what}: MultiPV lines at depth {d}");
        }
        assert_eq!(result.total, total, "{what}: counters over all iterations");
        assert!(!result.stopped, "{what}: stopped without a limit");
        assert_eq!(events, reference.events, "{what}: root events");
    }
}

fn config(pvs: bool, aspiration: Option<Score>, iterative: bool) -> SearchConfig {
    SearchConfig {
        pvs,
        aspiration,
        iterative,
        ..SearchConfig::default()
    }
}

/// Checks fixed-depth searches to depths 1 to 5 of every tree, with the exact and the
/// tying (coarse) evaluations, PVS as `pvs` says.
fn check_fixed_depths(pvs: bool) {
    for root in trees(5) {
        for depth in 1..=5 {
            let cfg = config(pvs, None, false);
            check(&root, &TreeValue, &cfg, Run::to(depth));
            check(&root, &Coarse, &cfg, Run::to(depth));
        }
    }
}

/// Plain fail-soft alpha-beta at one fixed depth, general and lean node functions alike:
/// value, principal variation, every counter and the root's move reports equal the
/// reference's on seeded random trees, with exact and with tying (coarse) evaluations.
#[test]
fn fixed_depth_alphabeta_walks_the_reference_tree() {
    check_fixed_depths(false);
}

/// Principal variation search: the null-window probes and re-searches of the reference
/// (Marsland's definition) give the same value, line and counters.
#[test]
fn principal_variation_search_walks_the_reference_tree() {
    check_fixed_depths(true);
}

/// Iterative deepening: iteration d is the fixed-depth search to d (nothing carries over
/// without a table or ordering), in order, and the totals are the sums of the iterations.
#[test]
fn iterative_deepening_is_one_reference_search_per_depth() {
    for root in trees(5) {
        check(&root, &TreeValue, &config(false, None, true), Run::to(5));
        check(&root, &Coarse, &config(true, None, true), Run::to(5));
    }
}

/// Aspiration windows of several half-widths, narrow enough to fail low and high on these
/// trees: every re-search is the reference's, reported as a bound with the nodes so far,
/// and each iteration ends with the full-window value.
#[test]
fn aspiration_windows_research_as_defined_until_the_value_lands_inside() {
    let mut failures = 0;
    for root in trees(5) {
        for width in [1, 3, 20, score::DECISIVE] {
            for pvs in [false, true] {
                check(
                    &root,
                    &TreeValue,
                    &config(pvs, Some(width), true),
                    Run::to(5),
                );
                check(&root, &Coarse, &config(pvs, Some(width), true), Run::to(5));
                let (_, events) = run(
                    &root,
                    &TreeValue,
                    &config(pvs, Some(width), true),
                    Run::to(5),
                );
                failures += events
                    .iter()
                    .filter(|e| matches!(e, Event::Bound(..)))
                    .count();
            }
        }
    }
    // The windows must actually fail, or the re-searches went unchecked.
    assert!(failures > 100, "only {failures} aspiration failures");
}

/// MultiPV (Stockfish's definition, chessprogramming.org's "MultiPV"): after the principal
/// variation, line k is the best line among the root moves not yet the first move of a
/// line, so the lines' scores are the root moves' negamax values in decreasing order, each
/// line starting with its move; each line's search is the reference's, counted into its
/// iteration.
#[test]
fn multipv_lines_are_the_best_root_moves_in_order() {
    for root in trees(4) {
        let moves = root_moves(&root);
        for lines in [2, 3, 9] {
            for (pvs, aspiration) in [(false, None), (true, Some(3))] {
                let cfg = config(pvs, aspiration, true);
                let how = Run {
                    lines,
                    ..Run::to(4)
                };
                check(&root, &TreeValue, &cfg, how);
                let (result, _) = run(&root, &TreeValue, &cfg, how);
                for it in &result.iterations {
                    let mut values: Vec<(Score, Child)> = moves
                        .iter()
                        .map(|&mv| {
                            let mut child = root;
                            child.play(mv);
                            (-negamax(&TreeValue, &child, it.depth - 1), mv)
                        })
                        .collect();
                    values.sort_by_key(|v| std::cmp::Reverse(v.0));
                    values.truncate(lines);
                    let mut found = vec![(it.score, it.pv[0])];
                    found.extend(it.lines.iter().map(|l| (l.score, l.pv[0])));
                    if root.params().model == Model::Iid {
                        // No ties: the order of the moves is the definition's too.
                        assert_eq!(found, values, "tree {root}, {lines} lines at {}", it.depth);
                    } else {
                        let scores =
                            |v: &[(Score, Child)]| v.iter().map(|x| x.0).collect::<Vec<_>>();
                        assert_eq!(
                            scores(&found),
                            scores(&values),
                            "tree {root}, {lines} lines"
                        );
                    }
                }
            }
        }
    }
}

/// A node limit that falls inside MultiPV's later lines cuts them: the last iteration
/// stands with the lines it finished, and the search reports itself stopped (mod.rs: "Extra
/// lines cut off by a limit: the iteration stands, with the lines it has"). The limit is
/// worked from the reference: every node of the iterations before the last and of the
/// last's principal search, and half those of its later lines.
#[test]
fn a_limit_inside_multipv_lines_leaves_them_short_and_the_search_stopped() {
    let cfg = config(false, None, true);
    for root in trees(4) {
        let mut reference = Reference::new(&TreeValue);
        let mut extra = 0;
        for d in 1..=4 {
            let (_, line) = reference.iteration(&root, d, None, None);
            let principal = reference.stats.nodes;
            reference.extra_lines(&root, d, line[0], 3);
            extra = reference.stats.nodes - principal;
        }
        let limit = reference.total - extra / 2;
        let limits = Limits {
            depth: Some(4),
            nodes: Some(limit),
            ..Limits::default()
        };
        let result = Searcher::new(&TreeValue, &cfg)
            .with_multipv(3)
            .run(&root, &limits);
        let wanted = root_moves(&root).len().min(3);
        let last = result.last().expect("the iterations before the limit");
        assert_eq!(last.depth, 4, "tree {root}: the last iteration stands");
        assert!(
            last.lines.len() + 1 < wanted,
            "tree {root}: {} later lines of {} found within {limit} nodes",
            last.lines.len(),
            wanted - 1
        );
        assert!(
            result.stopped,
            "tree {root}: a limit cut the lines, not reported"
        );
        assert_eq!(result.total.nodes, limit, "tree {root}: nodes searched");
    }
}

/// MultiPV under minimax: each later line is a minimax search of the root without the
/// moves of the lines before it, so on a uniform tree of branching b searched k plies the
/// line after i others visits the root and every node of its b - i subtrees, each holding
/// the sum of b^j for j < k nodes (counted here as the definition gives them).
#[test]
fn minimax_multipv_lines_visit_every_node_of_the_moves_left() {
    let cfg = SearchConfig {
        algorithm: plylab::search::Algorithm::Minimax,
        ..config(false, None, false)
    };
    for root in trees(4) {
        let b = u64::from(root.params().b);
        for k in 1..=4u32 {
            let subtree: u64 = (0..k).map(|j| b.pow(j)).sum();
            let (result, _) = run(
                &root,
                &TreeValue,
                &cfg,
                Run {
                    lines: 3,
                    ..Run::to(k)
                },
            );
            let last = result.last().expect("one iteration");
            let lines = 3.min(b);
            let nodes: u64 = (0..lines).map(|i| 1 + (b - i) * subtree).sum();
            assert_eq!(last.lines.len() as u64, lines - 1, "tree {root}, depth {k}");
            assert_eq!(last.stats.nodes, nodes, "tree {root}, depth {k}: nodes");
            assert_eq!(
                last.stats.beta_cutoffs, 0,
                "tree {root}, depth {k}: minimax cut off"
            );
        }
    }
}

/// The table on random trees, which have no transpositions: with iterative deepening every
/// earlier entry is a ply shallower than the node now searched, so nothing is cut off and
/// the walk is the reference's; every node above the horizon looks the table up once, and
/// finds the entry exactly when an earlier iteration searched it above the horizon (the
/// table, 1 MiB, holds tens of thousands of entries, so none is lost here).
#[test]
fn the_table_is_probed_at_every_interior_node_and_hits_earlier_iterations() {
    for root in trees(5) {
        let cfg = SearchConfig {
            tt_mb: 1,
            ..config(false, None, true)
        };
        check(&root, &TreeValue, &cfg, Run::to(5));
        let fixed = SearchConfig {
            iterative: false,
            ..cfg
        };
        check(&root, &TreeValue, &fixed, Run::to(5));
    }
}

/// Minimax to a fixed depth k on a uniform tree of branching b visits every node above the
/// horizon (Shannon 1950): sum of b^i for i <= k nodes, b^k leaves, the nodes above the
/// horizon expanded and each of their b moves generated.
#[test]
fn minimax_counts_every_node_of_the_uniform_tree() {
    for root in trees(5) {
        let b = u64::from(root.params().b);
        for k in 1..=5u32 {
            let cfg = SearchConfig {
                algorithm: plylab::search::Algorithm::Minimax,
                ..config(false, None, false)
            };
            let (result, _) = run(&root, &TreeValue, &cfg, Run::to(k));
            let level = |i: u32| b.pow(i);
            let expected = Stats {
                nodes: (0..=k).map(level).sum(),
                leaf_nodes: level(k),
                expanded_nodes: (0..k).map(level).sum(),
                generated_moves: (1..=k).map(level).sum(),
                max_ply: k,
                ..Stats::default()
            };
            let last = result.last().expect("one iteration");
            assert_eq!(last.stats, expected, "tree {root}, depth {k}: counters");
            assert_eq!(result.total, expected, "tree {root}, depth {k}: totals");
            assert_eq!(
                last.score,
                negamax(&TreeValue, &root, k),
                "tree {root}, depth {k}"
            );
        }
    }
}

/// An endgame database below the root: every node below the root looks it up once (the
/// root never, as `Searcher::with_knowledge` says), and a position it holds is a leaf with
/// the database's value, not searched further.
#[test]
fn database_answers_settle_nodes_below_the_root() {
    for root in trees(5) {
        for pvs in [false, true] {
            let how = Run {
                knowledge: true,
                ..Run::to(5)
            };
            check(&root, &TreeValue, &config(pvs, None, true), how);
            check(&root, &TreeValue, &config(pvs, Some(3), true), how);
        }
    }
}

/// Aspiration windows whose fourfold widening passes the decisive scores: that side of the
/// window opens fully (so a fail low past it ends), on values spread wide enough to fail.
#[test]
fn an_aspiration_window_widened_past_the_decisive_scores_opens_fully() {
    let width = score::DECISIVE / 4 + 1;
    // Failures low and high, counted: both sides must have opened at least once.
    let mut failures = [0, 0];
    // The i.i.d. trees only: their values stay heuristic when spread.
    for root in trees(6)
        .into_iter()
        .filter(|r| r.params().model == Model::Iid)
    {
        // These trees fail high at depth 5 and low at depth 6.
        for (pvs, factor, depth) in [(false, 3_000_000, 5), (true, 700_000, 6)] {
            let cfg = config(pvs, Some(width), true);
            check(&root, &Spread(factor), &cfg, Run::to(depth));
            let (_, events) = run(&root, &Spread(factor), &cfg, Run::to(depth));
            for event in events {
                if let Event::Bound(_, _, fail_high, _, _) = event {
                    failures[usize::from(fail_high)] += 1;
                }
            }
        }
    }
    assert!(
        failures[0] > 0 && failures[1] > 0,
        "failures low and high: {failures:?}"
    );
}

/// Aspiration windows around scores of 1.5e9 in size, below the decisive scores: a
/// half-width of 1e9 takes `guess ± width` past `i32::MAX` (or `i32::MIN`), and the window
/// must stop at the full window's edge, not wrap round to the other end. Each iteration's
/// score flips its sign from the last one's, so every window fails and is re-searched as
/// defined, node for node the reference's, whose windows are reckoned in 64 bits.
#[test]
fn an_aspiration_window_near_the_largest_scores_stays_within_them() {
    let (offset, width) = (1_500_000_000, 1_000_000_000);
    assert!(i64::from(offset) + i64::from(width) > i64::from(i32::MAX));
    let mut failures = 0;
    for root in trees(5)
        .into_iter()
        .filter(|r| r.params().model == Model::Iid)
    {
        for pvs in [false, true] {
            let cfg = config(pvs, Some(width), true);
            check(&root, &Offset(offset), &cfg, Run::to(5));
            let (_, events) = run(&root, &Offset(offset), &cfg, Run::to(5));
            failures += events
                .iter()
                .filter(|e| matches!(e, Event::Bound(..)))
                .count();
        }
    }
    assert!(failures > 0, "no window failed: the test shows nothing");
}

/// The tree of the limit tests: branching 8, searched to depth 6, whose last iteration
/// takes well over the 1024 nodes between two looks at the clock and the stop flag.
fn wide_tree() -> RandomTree {
    let params = TreeParams {
        b: 8,
        d: 7,
        seed: 77,
        model: Model::Iid,
    };
    RandomTree::new(params).unwrap()
}

/// A time limit far beyond what the search needs (an hour for some ten thousand nodes)
/// cuts nothing: every iteration completes, node for node the reference's.
#[test]
fn a_distant_time_limit_stops_nothing() {
    let time = Some(Duration::from_secs(3600));
    let how = Run { time, ..Run::to(6) };
    check(&wide_tree(), &TreeValue, &config(false, None, true), how);
}

/// Raises its stop flag when the root starts its first move at iteration `depth`, and
/// remembers how many nodes the search had visited then.
struct StopAt {
    depth: u32,
    flag: AtomicBool,
    raised_at: Mutex<Option<u64>>,
}

impl RootReport<Child> for StopAt {
    fn current_move(&self, depth: u32, _mv: Child, _number: usize, nodes: u64) {
        if depth == self.depth && !self.flag.swap(true, Relaxed) {
            *self.raised_at.lock().unwrap() = Some(nodes);
        }
    }

    fn bound(&self, _: u32, _: Score, _: bool, _: &[Child], _: u64) {}
}

/// A stop flag raised during an iteration ends the search soon: the flag is read every
/// 1024 nodes (`CHECK_INTERVAL`, src/search/mod.rs), so at most twice that many nodes
/// follow it, where the interrupted iteration alone would take several times more.
#[test]
fn a_stop_flag_raised_mid_iteration_ends_the_search_within_the_check_interval() {
    let root = wide_tree();
    let stop = StopAt {
        depth: 6,
        flag: AtomicBool::new(false),
        raised_at: Mutex::new(None),
    };
    let cfg = config(false, None, true);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let result = Searcher::new(&TreeValue, &cfg)
        .with_stop(&stop.flag)
        .with_report(&stop)
        .run(&root, &limits);
    let raised_at = stop.raised_at.lock().unwrap().expect("iteration 6 started");
    let mut reference = Reference::new(&TreeValue);
    reference.iteration(&root, 6, None, None);
    assert!(
        reference.stats.nodes > 8 * 1024,
        "iteration 6 takes only {} nodes: the test needs a longer one",
        reference.stats.nodes
    );
    assert!(result.stopped, "the search was not reported stopped");
    assert_eq!(
        result.last().map(|i| i.depth),
        Some(5),
        "the last completed iteration"
    );
    assert!(
        result.total.nodes <= raised_at + 2 * 1024,
        "{} nodes after the flag was raised at node {raised_at}",
        result.total.nodes - raised_at
    );
}

/// Searches `root` one ply deep with `history` before it, the root restricted to `only`
/// (UCI `searchmoves`), and returns its score, and the score the definition gives when
/// the position after `only` is not a draw: minus its static evaluation.
fn score_after(root: &Chess, history: &[u64], only: &str) -> (Score, Score) {
    let mv = root.parse_move(only).unwrap();
    let mut child = root.clone();
    child.play(mv);
    let cfg = config(false, None, false);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let result = Searcher::new(&Material, &cfg)
        .with_history(history)
        .with_root_moves(&[Chess::move_code(mv)])
        .run(root, &limits);
    let score = result.score().expect("a completed iteration");
    (score, -Material.evaluate(&child))
}

/// Repetition against the game before the root, as `Searcher::repeats` documents it after
/// FIDE's Laws (9.2): a position that occurred twice before the root is a draw (0) when the
/// search reaches it again; one that occurred once is not, nor is the root itself. White, a
/// queen and a knight up, shuffles Ng1-f3-g1 against Ke8-d8-e8 twice; the root is the start
/// position again after eight reversible plies, and Ng1-f3 leads back into the position
/// that followed it twice (or once, with the first round left out of the history).
#[test]
fn a_position_twice_before_the_root_is_a_draw_and_once_is_not() {
    let mut pos = Chess::parse_position("4k3/8/8/8/8/8/8/4K1NQ w - - 0 1").unwrap();
    let mut history = Vec::new();
    for text in ["g1f3", "e8d8", "f3g1", "d8e8"].repeat(2) {
        history.push(pos.hash());
        let mv = pos.parse_move(text).unwrap();
        pos.play(mv);
    }
    let root = pos;
    // From the position after Ng1-f3 on: its first occurrence is the oldest entry.
    let (twice, _) = score_after(&root, &history[1..], "g1f3");
    assert_eq!(twice, 0, "a position twice before the root is not a draw");
    let (once, evaluation) = score_after(&root, &history[4..], "g1f3");
    assert!(evaluation > 0, "white is not ahead: {evaluation}");
    assert_eq!(
        once, evaluation,
        "a position once before the root is scored as a draw"
    );
    let (never, evaluation) = score_after(&root, &[], "g1f3");
    assert_eq!(
        never, evaluation,
        "without a history the position is a draw"
    );
    // The root itself occurred twice before, but its other moves lead to new positions.
    let (elsewhere, evaluation) = score_after(&root, &history, "g1h3");
    assert_eq!(
        elsewhere, evaluation,
        "a root repeated before the search is scored a draw"
    );
}
