//! Young Brothers Wait (src/search/ybw.rs): with one thread it is exactly the
//! single-threaded alpha-beta; with 2, 3 and 4 threads (and split depths of 1 and 2 plies,
//! so that nearly every node splits) it returns the minimax value on tic-tac-toe and random
//! trees and the serial alpha-beta value on connect four and chess, run after run; a cutoff
//! at a split point abandons the brothers other threads are searching; the time limit and
//! the stop flag stop every thread, a stopped search leaves only sound entries in its
//! table, and a helper thread's panic ends the search and is passed on (lazy SMP's too).
//! Without a table one thread is still the serial search; a node exactly `split_plies`
//! from the horizon splits; a cutoff reaches threads deep below the split depth; the
//! principal variation leads to a leaf of the root value; check extensions apply to the
//! moves of a split point.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use plylab::game::{Evaluator, Game, Neutral, Notation, Outcome, Player, Score, Status};
use plylab::games::chess::{Chess, Pst};
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::games::random_tree::{RandomTree, TreeValue};
use plylab::games::tictactoe::TicTacToe;
use plylab::search::smp::Shared;
use plylab::search::ybw::{SplitCounters, ybw_observed, ybw_with};
use plylab::search::{
    Algorithm, Extensions, Limits, NullMove, Ordering, Quiescence, Reduction, SearchConfig,
    SearchResult, Searcher, Table, search,
};

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// The default configuration searched in one iteration, to the depth limit at once.
fn one_iteration() -> SearchConfig {
    SearchConfig {
        iterative: false,
        ..SearchConfig::default()
    }
}

fn with(algorithm: Algorithm, base: &SearchConfig) -> SearchConfig {
    SearchConfig {
        algorithm,
        ..base.clone()
    }
}

/// YBW's result with `threads` threads splitting down to `split` plies from the horizon.
fn ybw<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    base: &SearchConfig,
    limits: &Limits,
    threads: usize,
    split: u32,
) -> (SearchResult<G::Move>, SplitCounters) {
    let config = SearchConfig {
        threads,
        ..with(Algorithm::Ybw, base)
    };
    ybw_with(root, eval, &config, limits, threads, split, |_| {})
}

/// Checks YBW's value on 2, 3 and 4 threads against `expected`, and that the nodes of
/// every thread are counted (the iterations add up to the total).
fn agrees<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    base: &SearchConfig,
    limits: &Limits,
    expected: Option<Score>,
    what: &str,
) -> u64 {
    let mut splits = 0;
    for threads in 2..=4 {
        for split in [1, 2] {
            let (result, counters) = ybw(root, eval, base, limits, threads, split);
            assert_eq!(
                result.score(),
                expected,
                "{what}: {threads} threads, split depth {split}"
            );
            let sum: u64 = result.iterations.iter().map(|i| i.stats.nodes).sum();
            assert_eq!(sum, result.total.nodes, "{what}");
            if let Some(mv) = result.best_move() {
                let mut legal = Vec::new();
                root.generate_moves(&mut legal);
                assert!(legal.contains(&mv), "{what}: {mv} is not legal");
            }
            splits += counters.splits;
        }
    }
    splits
}

/// An iteration without its clock.
type Timeless<M> = (u32, Score, Option<M>, Vec<M>, plylab::search::Stats);

/// Everything of a result but the clock.
fn strip<M: Copy>(r: &SearchResult<M>) -> Vec<Timeless<M>> {
    r.iterations
        .iter()
        .map(|i| (i.depth, i.score, i.best_move, i.pv.clone(), i.stats))
        .collect()
}

/// Alpha-beta with the ordering heuristics, a 4 MiB table and PVS.
fn ordered() -> SearchConfig {
    SearchConfig {
        ordering: Ordering::HEURISTICS,
        tt_mb: 4,
        pvs: true,
        ..SearchConfig::default()
    }
}

/// The first `n` positions of Test_L2_R1 (connect-four middle games), with their moves.
fn connect4_positions(n: usize) -> Vec<(&'static str, Connect4)> {
    include_str!("../experiments/data/connect4/Test_L2_R1")
        .lines()
        .take(n)
        .map(|line| {
            let (moves, _) = line.split_once(' ').unwrap();
            (moves, Connect4::parse_position(moves).unwrap())
        })
        .collect()
}

#[test]
fn one_thread_is_the_single_threaded_search() {
    let base = ordered();
    for (moves, root) in connect4_positions(6) {
        let serial = search(
            &root,
            &CentreFirst,
            &with(Algorithm::Alphabeta, &base),
            &depth(10),
        );
        let (one, counters) = ybw(&root, &CentreFirst, &base, &depth(10), 1, 1);
        assert_eq!(strip(&serial), strip(&one), "{moves}");
        assert_eq!(serial.total.nodes, one.total.nodes, "{moves}");
        assert_eq!(counters, SplitCounters::default());
    }
    // Chess with every switch of the alpha-beta family, and through `search`.
    let chess = SearchConfig {
        quiescence: Some(Quiescence::default()),
        null_move: Some(NullMove {
            reduction: Reduction::Adaptive,
            verify: false,
        }),
        aspiration: Some(50),
        ..base
    };
    let epd = include_str!("../experiments/data/chess/bratko-kopec.epd");
    for line in epd.lines().take(3) {
        let root = Chess::parse_position(line.split(" bm ").next().unwrap()).unwrap();
        let serial = search(&root, &Pst, &with(Algorithm::Alphabeta, &chess), &depth(4));
        let one = search(&root, &Pst, &with(Algorithm::Ybw, &chess), &depth(4));
        assert_eq!(strip(&serial), strip(&one), "{line}");
    }
}

#[test]
fn several_threads_find_the_minimax_value_of_tic_tac_toe() {
    let mut splits = 0;
    for moves in ["", "5", "51", "519", "1"] {
        let root = TicTacToe::parse_position(moves).unwrap();
        let reference = search(
            &root,
            &Neutral,
            &with(Algorithm::Minimax, &SearchConfig::default()),
            &Limits::default(),
        )
        .score();
        for tt_mb in [0, 1] {
            let base = SearchConfig {
                tt_mb,
                ..SearchConfig::default()
            };
            splits += agrees(&root, &Neutral, &base, &Limits::default(), reference, moves);
        }
    }
    assert!(splits > 0, "the searches never split");
}

#[test]
fn several_threads_find_the_minimax_value_of_random_trees() {
    let mut splits = 0;
    for seed in 1..=4 {
        for model in ["iid", "incremental"] {
            let text = format!("b=5,d=7,seed={seed},model={model}");
            let root = RandomTree::parse_position(&text).unwrap();
            let reference = search(
                &root,
                &TreeValue,
                &with(Algorithm::Minimax, &SearchConfig::default()),
                &depth(7),
            )
            .score();
            let base = SearchConfig {
                pvs: seed % 2 == 0,
                tt_mb: 1,
                ..SearchConfig::default()
            };
            splits += agrees(&root, &TreeValue, &base, &depth(7), reference, &text);
        }
    }
    assert!(splits > 0, "the searches never split");
}

#[test]
fn several_threads_find_the_serial_value_of_connect_four_positions() {
    // With the table: a connect-four position always lies as many plies below the root, so
    // its stored entries have exactly the depth asked for and the value cannot depend on
    // which thread stored what first.
    let base = ordered();
    let mut splits = 0;
    for (moves, root) in connect4_positions(5) {
        let serial = search(
            &root,
            &CentreFirst,
            &with(Algorithm::Alphabeta, &base),
            &depth(9),
        )
        .score();
        splits += agrees(&root, &CentreFirst, &base, &depth(9), serial, moves);
        // Run after run, the same value.
        for _ in 0..3 {
            let (again, _) = ybw(&root, &CentreFirst, &base, &depth(9), 2, 1);
            assert_eq!(again.score(), serial, "{moves}");
        }
    }
    assert!(splits > 0, "the searches never split");
}

#[test]
fn several_threads_find_the_serial_value_of_chess_positions() {
    // No table (chess transposes across plies, so a shared table may legitimately give
    // another value), but quiescence, killers, history and PVS.
    let base = SearchConfig {
        ordering: Ordering::HEURISTICS,
        quiescence: Some(Quiescence::default()),
        pvs: true,
        ..SearchConfig::default()
    };
    let epd = include_str!("../experiments/data/chess/bratko-kopec.epd");
    let mut splits = 0;
    for line in epd.lines().take(4) {
        let root = Chess::parse_position(line.split(" bm ").next().unwrap()).unwrap();
        let serial = search(&root, &Pst, &with(Algorithm::Alphabeta, &base), &depth(4)).score();
        splits += agrees(&root, &Pst, &base, &depth(4), serial, line);
    }
    assert!(splits > 0, "the searches never split");
}

#[test]
fn the_time_limit_and_the_stop_flag_stop_every_thread() {
    let root = Chess::parse_position("start").unwrap();
    let base = SearchConfig {
        ordering: Ordering::HEURISTICS,
        tt_mb: 4,
        quiescence: Some(Quiescence::default()),
        threads: 2,
        ..with(Algorithm::Ybw, &SearchConfig::default())
    };
    let started = Instant::now();
    let limits = Limits {
        time: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let result = search(&root, &Pst, &base, &limits);
    assert!(result.stopped);
    assert!(result.best_move().is_some());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );

    let started = Instant::now();
    let result = stopped_after(
        &root,
        &Pst,
        &base,
        &Limits::default(),
        &Table::new(4),
        Duration::from_millis(300),
    );
    assert!(result.stopped);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// Connect four's evaluation with a bug in every thread but the one that made it: past its
/// first `after` calls there, it panics.
struct PanicsInAHelper {
    home: std::thread::ThreadId,
    calls: AtomicU64,
    after: u64,
}

impl Evaluator<Connect4> for PanicsInAHelper {
    fn evaluate(&self, pos: &Connect4) -> Score {
        let helper = std::thread::current().id() != self.home;
        assert!(
            !helper || self.calls.fetch_add(1, Relaxed) < self.after,
            "a helper's bug"
        );
        CentreFirst.evaluate(pos)
    }
}

/// A helper thread that panics stops the search, which passes the panic on: lazy SMP (its
/// main thread stops with the helpers' flag) and YBW (the pool is poisoned and its sleeping
/// helpers woken) do not search on to the end of their time, here far longer than the test
/// allows.
#[test]
fn a_panicking_helper_stops_the_search() {
    for algorithm in [Algorithm::LazySmp, Algorithm::Ybw] {
        let eval = PanicsInAHelper {
            home: std::thread::current().id(),
            calls: AtomicU64::new(0),
            after: 20_000,
        };
        let config = SearchConfig {
            ordering: Ordering::HEURISTICS,
            tt_mb: 4,
            threads: 2,
            split_plies: 2,
            ..with(algorithm, &SearchConfig::default())
        };
        let limits = Limits {
            time: Some(Duration::from_secs(40)),
            ..Limits::default()
        };
        let start = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            search(&Connect4::new(), &eval, &config, &limits)
        }));
        assert!(outcome.is_err(), "{algorithm}: the panic is passed on");
        assert!(
            eval.calls.load(Relaxed) > 20_000,
            "{algorithm}: a helper panicked"
        );
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{algorithm}: searched on for {:?} after the panic",
            start.elapsed()
        );
    }
}

#[test]
fn a_stopped_search_leaves_only_sound_entries_in_its_table() {
    // A stop can come while a helper owns a split point: it reads the stop flag only every
    // few nodes, and the split point's best over the moves its helpers finished before they
    // stopped bounds only some of them; stored, it would mislead every later search that
    // keeps the table (a UCI game, an arena player, a mate played out). Stopped at
    // staggered moments, the table left behind must not change the value of a plain search
    // of the root, its children or its grandchildren to the depths the stopped search
    // reached: entries with sound bounds cannot. Before the mend, the second stop already
    // left one.
    let roots = ["", "4", "44", "4453"].map(|moves| Connect4::parse_position(moves).unwrap());
    let config = SearchConfig {
        split_plies: 1,
        threads: 16,
        ..with(Algorithm::Ybw, &ordered())
    };
    let plain = SearchConfig {
        iterative: false,
        ..ordered()
    };
    let value = |pos: &Connect4, d: u32, table: &Table| {
        Searcher::new(&CentreFirst, &plain)
            .with_table(table)
            .run(pos, &depth(d))
            .score()
            .unwrap()
    };
    let mut fresh = std::collections::HashMap::new();
    let mut stopped = 0;
    for trial in 0..100u64 {
        let root = &roots[trial as usize % roots.len()];
        let table = Table::new(4);
        let delay = Duration::from_micros(200 + trial * 7919 % 8_000);
        let result = stopped_after(root, &CentreFirst, &config, &depth(10), &table, delay);
        if !result.stopped {
            continue;
        }
        stopped += 1;
        let reached = result.last().map_or(1, |it| it.depth + 1);
        let mut below = vec![(*root, reached)];
        for ply in 0..2 {
            let at_ply = |p: &Connect4| p.plies_played() == root.plies_played() + ply;
            for (pos, d) in below.clone().into_iter().filter(|(p, _)| at_ply(p)) {
                for child in children(&pos) {
                    below.push((child, d.saturating_sub(1)));
                }
            }
        }
        for (pos, d) in below.into_iter().filter(|(_, d)| *d > 0) {
            let want = *fresh
                .entry((pos.hash(), d))
                .or_insert_with(|| value(&pos, d, &Table::new(4)));
            assert_eq!(value(&pos, d, &table), want, "trial {trial}: to depth {d}");
        }
    }
    assert!(
        stopped >= 50,
        "only {stopped} of 100 searches were stopped before depth 10"
    );
}

/// YBW's search of `root` on `config.threads` threads sharing `table`, stopped by its stop
/// flag after `delay`.
fn stopped_after<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    table: &Table,
    delay: Duration,
) -> SearchResult<G::Move> {
    let stop = AtomicBool::new(false);
    let shared = Shared {
        table,
        stop: &stop,
        history: &[],
    };
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(delay);
            stop.store(true, Relaxed);
        });
        ybw_observed(root, eval, config, limits, config.threads, &shared, |_| {})
    })
}

/// The positions one move after `pos`.
fn children<G: Game>(pos: &G) -> Vec<G> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            child
        })
        .collect()
}

/// A tree built so that the second move of node B fails high after a while, and the
/// brothers after it are huge trees that alpha-beta cannot prune (worst-first ordering,
/// Knuth and Moore 1975): the serial search never enters them, a parallel one enters them
/// as the second move starts and must abandon them when it fails high.
///
/// The root's first move draws (alpha 0); at B (window (-inf, 0) for its side) the first
/// move loses, the second (`Slow`, branching [`SLOW_B`]) is worth less than 0 to the
/// opponent and so cuts B off, and the next three (`Huge`, branching [`HUGE_B`]) are worth
/// more.
#[derive(Clone, Debug)]
struct Trap {
    kind: Kind,
    level: u32,
    /// The digits of the moves from the top of a `Slow` or `Huge` tree.
    index: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Root,
    Draw,
    B,
    Lost,
    Slow,
    Huge,
}

const SLOW_B: u64 = 40;
const HUGE_B: u64 = 14;
/// Plies from the top of a `Slow` or `Huge` tree (level 2) to the horizon.
const HEIGHT: u32 = 6;
const TRAP_DEPTH: u32 = 2 + HEIGHT;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Step(u8);

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Trap {
    const ROOT: Self = Self {
        kind: Kind::Root,
        level: 0,
        index: 0,
    };

    fn branching(&self) -> u64 {
        match self.kind {
            Kind::Root => 2,
            Kind::B => 5,
            Kind::Draw | Kind::Lost => 0,
            Kind::Slow => SLOW_B,
            Kind::Huge => HUGE_B,
        }
    }
}

impl Game for Trap {
    type Move = Step;
    const NAME: &'static str = "trap";

    fn side_to_move(&self) -> Player {
        if self.level.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate_moves(&self, out: &mut Vec<Step>) {
        out.extend((0..self.branching()).map(|i| Step(i as u8)));
    }

    fn play(&mut self, mv: Step) {
        let i = u64::from(mv.0);
        self.kind = match (self.kind, i) {
            (Kind::Root, 0) => Kind::Draw,
            (Kind::Root, _) => Kind::B,
            (Kind::B, 0) => Kind::Lost,
            (Kind::B, 1) => Kind::Slow,
            (Kind::B, _) => Kind::Huge,
            (kind, _) => kind,
        };
        if self.level >= 2 {
            self.index = self.index * self.branching() + i;
        }
        self.level += 1;
    }

    fn status(&self) -> Status {
        match self.kind {
            Kind::Draw => Status::Over(Outcome::Draw),
            // The side to move here (the root's) has won: B's first move loses.
            Kind::Lost => Status::Over(Outcome::Win),
            _ => Status::Ongoing,
        }
    }

    fn hash(&self) -> u64 {
        plylab::rng::mix(self.index ^ (u64::from(self.level) << 56) ^ ((self.kind as u64) << 48))
    }

    fn plies_played(&self) -> u32 {
        self.level
    }

    fn move_code(mv: Step) -> u16 {
        u16::from(mv.0)
    }
}

/// The leaves' values: for the root's side, `Huge` leaves are worth 1.. in the order of
/// their digits read with the opponent's digits reversed (so that every node meets its
/// best move last), `Slow` leaves -1 and less (down to -1,000,000).
struct TrapValue;

impl Evaluator<Trap> for TrapValue {
    fn evaluate(&self, pos: &Trap) -> Score {
        let b = pos.branching();
        let rel = pos.level.saturating_sub(2);
        let mut lex: u64 = 0;
        let mut rest = pos.index;
        let mut digits = [0u64; HEIGHT as usize];
        for r in (0..rel as usize).rev() {
            digits[r] = rest % b;
            rest /= b;
        }
        for (r, &d) in digits.iter().enumerate().take(rel as usize) {
            let d = if r % 2 == 0 { d } else { b - 1 - d };
            lex = lex * b + d;
        }
        let for_root = match pos.kind {
            Kind::Huge => 1 + lex as Score,
            _ => -1 - (lex % 1_000_000) as Score,
        };
        if rel.is_multiple_of(2) {
            for_root
        } else {
            -for_root
        }
    }
}

#[test]
fn a_cutoff_abandons_the_brothers_other_threads_are_searching() {
    let root = Trap::ROOT;
    let base = one_iteration();
    let limits = depth(TRAP_DEPTH);
    let serial = search(
        &root,
        &TrapValue,
        &with(Algorithm::Alphabeta, &base),
        &limits,
    );
    // The draw: B is refuted by `Slow`, which the serial search sees before any `Huge`.
    assert_eq!(serial.score(), Some(0));
    let one_huge = HUGE_B.pow(HEIGHT);
    assert!(serial.total.nodes < one_huge / 4, "{}", serial.total.nodes);
    // Whether a helper enters a `Huge` before `Slow` is done depends on the scheduler (the
    // machine may be busy): a few rounds, until some search has been abandoned.
    let mut abandoned = 0;
    for _round in 0..5 {
        for threads in 2..=4 {
            let (result, counters) = ybw(&root, &TrapValue, &base, &limits, threads, 4);
            assert_eq!(result.score(), Some(0), "{threads} threads");
            assert!(
                counters.splits >= 1 && counters.cutoffs >= 1,
                "{counters:?}"
            );
            // A `Huge` searched to the end would take more nodes than this by itself.
            assert!(
                result.total.nodes < one_huge,
                "{threads} threads: {} nodes, {counters:?}",
                result.total.nodes
            );
            abandoned += counters.abandoned;
        }
        if abandoned > 0 {
            break;
        }
    }
    assert!(abandoned > 0, "no search was abandoned");
}

/// `SearchConfig::split_plies` reaches the search: splitting nowhere (a split depth beyond
/// the tree), four threads search exactly as one, iteration by iteration and counter by
/// counter; splitting everywhere, they still find the serial value.
#[test]
fn the_configured_split_depth_is_the_one_searched_with() {
    for (what, pos) in connect4_positions(3) {
        let serial = search(&pos, &CentreFirst, &ordered(), &depth(9));
        for (split_plies, identical) in [(64, true), (1, false)] {
            let config = SearchConfig {
                threads: 4,
                split_plies,
                ..with(Algorithm::Ybw, &ordered())
            };
            let parallel = search(&pos, &CentreFirst, &config, &depth(9));
            assert_eq!(
                parallel.score(),
                serial.score(),
                "{what}, split {split_plies}"
            );
            if identical {
                assert_eq!(
                    strip(&parallel),
                    strip(&serial),
                    "{what}, split {split_plies}"
                );
            }
        }
    }
}

/// With one thread and no table (`tt_mb` 0), YBW is the single-threaded search without a
/// table, iteration by iteration and counter by counter (ybw.rs: a table "none when it is
/// 0, as for single-threaded alpha-beta"; "with one thread ... the same node counts"). The
/// truth: the serial searcher of the same configuration.
#[test]
fn one_thread_without_a_table_is_the_single_threaded_search_without_one() {
    let base = SearchConfig {
        tt_mb: 0,
        ..ordered()
    };
    for (moves, root) in connect4_positions(3) {
        let serial = search(
            &root,
            &CentreFirst,
            &with(Algorithm::Alphabeta, &base),
            &depth(9),
        );
        let (one, _) = ybw(&root, &CentreFirst, &base, &depth(9), 1, 1);
        assert_eq!(
            strip(&serial),
            strip(&one),
            "{moves}: YBW on one thread differs"
        );
    }
}

/// A node splits when it is `split_plies` or more plies from the horizon, not only when it
/// is more (ybw.rs's module doc). Searching a random tree to depth 6 in one iteration, the
/// root alone is 6 plies from the horizon: with a split depth of 6 it splits exactly once
/// (after its first move, every helper idle as the search starts; a split point takes all
/// the node's remaining moves, and the root never cuts off), with 7 never. The truth: the
/// rule itself, and minimax for the value.
#[test]
fn a_node_exactly_at_the_split_depth_splits() {
    let root = RandomTree::parse_position("b=5,d=6,seed=3,model=iid").unwrap();
    let reference = search(
        &root,
        &TreeValue,
        &with(Algorithm::Minimax, &SearchConfig::default()),
        &depth(6),
    )
    .score();
    let base = one_iteration();
    for threads in 2..=4 {
        for (split, splits) in [(6, 1), (7, 0)] {
            let (result, counters) = ybw(&root, &TreeValue, &base, &depth(6), threads, split);
            let what = format!("{threads} threads, split depth {split}");
            assert_eq!(result.score(), reference, "{what}: value");
            assert_eq!(counters.splits, splits, "{what}: splits, {counters:?}");
            assert_eq!(
                counters.cutoffs, 0,
                "{what}: the root cut off, {counters:?}"
            );
        }
    }
}

/// The leaf a principal variation ends in, as a finished game's points for the side to
/// move at the root (negamax: the sign flips with every ply).
fn pv_leaf_value(root: &RandomTree, pv: &[<RandomTree as Game>::Move]) -> Score {
    let mut pos = *root;
    let mut legal = Vec::new();
    for &mv in pv {
        legal.clear();
        pos.generate_moves(&mut legal);
        assert!(legal.contains(&mv), "{mv} is not legal in the line {pv:?}");
        pos.play(mv);
    }
    let Status::Over(Outcome::Points(points)) = pos.status() else {
        panic!("the line {pv:?} does not end the game");
    };
    if pv.len() % 2 == 0 { points } else { -points }
}

/// The principal variation YBW reports, copied from split points by whichever thread
/// raised their alpha, is a legal line to a leaf whose value is the root's, and starts with
/// the best move. Random trees without ties (values a keyed permutation) and without a
/// table (no line cut short at an entry), so the line is the one exact path of the
/// minimax value. The truth: the game's own leaf values and minimax; one thread, the
/// serial search, is checked the same way.
#[test]
fn the_principal_variation_leads_to_a_leaf_of_the_root_value() {
    for seed in 1..=4 {
        let text = format!("b=5,d=7,seed={seed},model=iid");
        let root = RandomTree::parse_position(&text).unwrap();
        let reference = search(
            &root,
            &TreeValue,
            &with(Algorithm::Minimax, &SearchConfig::default()),
            &depth(7),
        )
        .score()
        .unwrap();
        let base = SearchConfig {
            pvs: seed % 2 == 0,
            ..SearchConfig::default()
        };
        for threads in 1..=4 {
            for split in [1, 2] {
                let (result, _) = ybw(&root, &TreeValue, &base, &depth(7), threads, split);
                let what = format!("{text}: {threads} threads, split depth {split}");
                let last = result.last().expect("an iteration");
                assert_eq!(last.score, reference, "{what}: value");
                assert_eq!(last.pv.len(), 7, "{what}: the line {:?}", last.pv);
                assert_eq!(last.best_move, last.pv.first().copied(), "{what}");
                assert_eq!(
                    pv_leaf_value(&root, &last.pv),
                    reference,
                    "{what}: the line {:?} ends elsewhere",
                    last.pv
                );
            }
        }
    }
}

/// Check extensions reach the moves a split point hands out: with them, YBW on 2 and 4
/// threads still finds the serial alpha-beta value of chess positions (no table, as in
/// `several_threads_find_the_serial_value_of_chess_positions`). The truth: the serial
/// search with the same extensions.
#[test]
fn several_threads_extend_checks_as_the_serial_search_does() {
    let base = SearchConfig {
        ordering: Ordering::HEURISTICS,
        quiescence: Some(Quiescence::default()),
        extensions: Extensions {
            check: plylab::search::config::ONE_PLY,
        },
        ..SearchConfig::default()
    };
    let plain = SearchConfig {
        extensions: Extensions::default(),
        ..base.clone()
    };
    let epd = include_str!("../experiments/data/chess/bratko-kopec.epd");
    let mut differs = 0;
    for line in epd.lines().take(6) {
        let root = Chess::parse_position(line.split(" bm ").next().unwrap()).unwrap();
        let serial = search(&root, &Pst, &with(Algorithm::Alphabeta, &base), &depth(3)).score();
        let unextended = search(&root, &Pst, &with(Algorithm::Alphabeta, &plain), &depth(3));
        differs += usize::from(unextended.score() != serial);
        for threads in [2, 4] {
            let (result, _) = ybw(&root, &Pst, &base, &depth(3), threads, 1);
            assert_eq!(result.score(), serial, "{line}: {threads} threads");
        }
    }
    assert!(
        differs > 0,
        "check extensions never changed a value: the test shows nothing"
    );
}

/// A cutoff reaches a thread deep in a subtree too shallow to split: it reads the flags
/// at every node, not only where split points open (ybw.rs's module doc). In the trap tree
/// with a split depth of 7 plies, B alone splits (the root has one move after its first,
/// the `Slow` and `Huge` subtrees are 6 plies deep): exactly one split point and one
/// cutoff. A thread that took a `Huge` brother while another searched `Slow` must give it
/// up when `Slow` fails high; searched to the end, that brother alone would take more
/// nodes than the bound. The truth: the tree's construction (serial value 0, `Huge`
/// unprunable) and the split rule; like
/// `a_cutoff_abandons_the_brothers_other_threads_are_searching`, it assumes only that
/// `Slow` (a small fraction of one `Huge`) is finished before a thread could search a
/// whole `Huge`.
#[test]
fn a_cutoff_reaches_threads_deep_below_the_split_depth() {
    let root = Trap::ROOT;
    let base = one_iteration();
    let one_huge = HUGE_B.pow(HEIGHT);
    for threads in 2..=4 {
        let (result, counters) = ybw(&root, &TrapValue, &base, &depth(TRAP_DEPTH), threads, 7);
        assert_eq!(result.score(), Some(0), "{threads} threads");
        assert_eq!(
            (counters.splits, counters.cutoffs),
            (1, 1),
            "{threads} threads: B alone splits and cuts off, {counters:?}"
        );
        assert!(
            result.total.nodes < one_huge,
            "{threads} threads: {} nodes, a `Huge` brother searched on after the cutoff",
            result.total.nodes
        );
    }
}
