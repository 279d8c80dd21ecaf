//! Every value-preserving search configuration returns plain minimax's value.
//!
//! The truth checked: alpha-beta is an exact algorithm whatever its move order, with or
//! without the transposition table, with or without iterative deepening. So for every
//! completed iteration of every such configuration,
//!
//! - the root score equals the score of plain minimax ([`Algorithm::Minimax`], iterative) at
//!   the same depth, decisive scores included (same winner, same distance);
//! - the best move achieves that score: playing it and searching the child with minimax to
//!   one ply less gives the same value once negated;
//! - an iterative search completes exactly the depths minimax completes (both stop at the
//!   same proven win or loss).
//!
//! Checked on seeded random trees (both value models, evaluators `TreeValue` and `Oracle` in
//! each order), on random connect-four positions (fixed depths 1-6, solved to the end from
//! 30 stones), on random othello positions (depth 4, solved to the end from 8 empties, with
//! the endgame switches too), on random checkers and chess positions (depths 1-4: from depth
//! 5 a position can recur at another ply, and the table answers the later occurrence with
//! the earlier, deeper search, which fixed-depth minimax does not see; checked to happen in
//! [`table_grafts_a_deeper_value_in_chess`]) and on tic-tac-toe. Each case runs a fixed,
//! rotating sample of the 128
//! alpha-beta configurations (32 ordering combinations x table on/off x iterative on/off), so
//! that every configuration is exercised many times while the file stays fast in release mode.

use std::collections::HashMap;
use std::fmt::Display;

use plylab::game::{Evaluator, Game, Neutral, Notation, Score, Status, score};
use plylab::games::checkers::{Checkers, CheckersEval, notation::to_fen};
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::games::othello::{Othello, OthelloEval};
use plylab::games::random_tree::{Model, Oracle, OracleOrder, RandomTree, TreeParams, TreeValue};
use plylab::games::tictactoe::TicTacToe;
use plylab::rng::mix;
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, search};

/// Alpha-beta configurations: 5 ordering switches, the table, iterative deepening.
const ALPHABETA_CONFIGS: usize = 1 << 7;

/// The oracle orders checked, besides the plain `TreeValue` evaluator.
const ORACLE_ORDERS: [OracleOrder; 4] = [
    OracleOrder::Perfect,
    OracleOrder::Worst,
    OracleOrder::Random,
    OracleOrder::BestFirst(0.7),
];

/// One completed iteration: depth, root score, best move.
type Step<M> = (u32, Score, Option<M>);

/// A small deterministic generator (splitmix64 over a counter).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        ((u128::from(mix(self.0)) * u128::from(n)) >> 64) as u64
    }
}

/// Alpha-beta configuration number `index` (< 128): bits 0-4 turn on hint, tt_move,
/// killers, history and shuffle; bit 5 the table (1 MiB); bit 6 iterative deepening.
fn alphabeta_config(index: usize, seed: u64) -> SearchConfig {
    let bit = |i: usize| index >> i & 1 == 1;
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering: Ordering {
            hint: bit(0),
            tt_move: bit(1),
            killers: bit(2),
            history: bit(3),
            shuffle: bit(4),
            ..Ordering::default()
        },
        tt_mb: usize::from(bit(5)),
        iterative: bit(6),
        seed,
        ..SearchConfig::default()
    }
}

fn minimax_config(iterative: bool) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Minimax,
        iterative,
        ..SearchConfig::default()
    }
}

/// `count` configuration numbers below `total` for case number `case`: consecutive cases
/// take consecutive slices, so all of them are covered every `total / count` cases.
fn sample(case: usize, count: usize, total: usize) -> impl Iterator<Item = usize> {
    (0..count).map(move |j| (case * count + j) % total)
}

/// Runs `config` from `root` to `depth` (`None`: to the end of the game) and returns every
/// completed iteration.
fn run<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    depth: Option<u32>,
) -> Vec<Step<G::Move>> {
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    let result = search(root, eval, config, &limits);
    assert!(!result.stopped, "no limit but depth was set");
    result
        .iterations
        .iter()
        .map(|it| (it.depth, it.score, it.best_move))
        .collect()
}

/// Plain minimax from one root: its per-depth scores, and the value of root moves at each
/// depth, searched on demand and remembered.
struct Reference<'a, G: Game, E> {
    /// The root as written in messages.
    name: String,
    root: G,
    eval: &'a E,
    steps: Vec<Step<G::Move>>,
    move_values: HashMap<(u32, G::Move), Score>,
}

impl<'a, G: Game, E: Evaluator<G>> Reference<'a, G, E> {
    /// Iterative minimax from `root` to `depth`; its own best moves are checked too.
    fn new(name: String, root: &G, eval: &'a E, depth: Option<u32>) -> Self {
        let steps = run(root, eval, &minimax_config(true), depth);
        let mut reference = Self {
            name,
            root: root.clone(),
            eval,
            steps: steps.clone(),
            move_values: HashMap::new(),
        };
        reference.check("minimax", true, &steps);
        reference
    }

    /// Minimax's score at `depth`. Past the depth where minimax proved a win or loss, the
    /// proven score (a forced result within the horizon stays the value of any deeper tree).
    fn score_at(&self, depth: u32) -> Score {
        if let Some(&(_, s, _)) = self.steps.iter().find(|s| s.0 == depth) {
            return s;
        }
        let &(last, s, _) = self.steps.last().expect("minimax completes an iteration");
        let proven = score::plies_to_end(s).is_some_and(|p| p <= last as i32);
        assert!(proven, "no minimax score at depth {depth} (last {last})");
        s
    }

    /// The root's value after `mv`, the child searched by minimax `depth - 1` plies deep.
    fn move_value(&mut self, mv: G::Move, depth: u32) -> Score {
        if let Some(&v) = self.move_values.get(&(depth, mv)) {
            return v;
        }
        let mut child = self.root.clone();
        child.play(mv);
        let child_score = match child.status() {
            Status::Over(outcome) => score::of_outcome(outcome, 0),
            Status::Ongoing if depth == 1 => self.eval.evaluate(&child),
            Status::Ongoing => {
                let steps = run(&child, self.eval, &minimax_config(false), Some(depth - 1));
                steps.last().expect("one iteration").1
            }
        };
        // The child's root-relative score seen one ply below our root, then negated.
        let value = -score::from_table(child_score, 1);
        self.move_values.insert((depth, mv), value);
        value
    }

    /// Checks one search's iterations against minimax; `what` names the search in messages.
    fn check(&mut self, what: impl Display, iterative: bool, steps: &[Step<G::Move>]) {
        if iterative {
            let depths = |s: &[Step<G::Move>]| s.iter().map(|s| s.0).collect::<Vec<_>>();
            assert_eq!(depths(steps), depths(&self.steps), "{what}: depths");
        } else {
            assert_eq!(steps.len(), 1, "{what}: one iteration");
        }
        for &(depth, got, best) in steps {
            assert_eq!(got, self.score_at(depth), "{what}: score at depth {depth}");
            let mv = best.unwrap_or_else(|| panic!("{what}: no best move at depth {depth}"));
            let achieved = self.move_value(mv, depth);
            assert_eq!(achieved, got, "{what}: best move {mv} at depth {depth}");
        }
    }
}

/// Runs alpha-beta configuration `index` with `eval` and checks it against `reference`.
/// Iterative configurations search to `depth`; the others to `fixed` (one iteration).
fn check_config<G: Game, E: Evaluator<G>>(
    reference: &mut Reference<'_, G, impl Evaluator<G>>,
    eval: &E,
    eval_name: impl Display,
    index: usize,
    depth: Option<u32>,
    fixed: Option<u32>,
) {
    let config = alphabeta_config(index, index as u64 + 1);
    let limit = if config.iterative { depth } else { fixed };
    let steps = run(&reference.root, eval, &config, limit);
    let what = format!(
        "{} | {} tt_mb={} iterative={} eval={eval_name} depth={limit:?}",
        reference.name,
        config.ordering.label(),
        config.tt_mb,
        config.iterative,
    );
    reference.check(what, config.iterative, &steps);
}

// --- random trees -----------------------------------------------------------------------

/// Tree number `case`: b in 2..=6, d in 1..=7, models alternating, seeds from `mix`.
fn random_tree(case: u64) -> RandomTree {
    let h = mix(case ^ 0x7EE5);
    let params = TreeParams {
        b: 2 + (h % 5) as u32,
        d: 1 + (h >> 8) as u32 % 7,
        seed: mix(h),
        model: if case.is_multiple_of(2) {
            Model::Iid
        } else {
            Model::Incremental
        },
    };
    RandomTree::new(params).unwrap()
}

/// Checks `per_tree` sampled (evaluator, configuration) pairs on each of `trees` trees.
/// Evaluator 0 is `TreeValue`, 1-4 the oracle orders; minimax uses `TreeValue`, which is
/// also the oracle's static evaluation.
fn check_random_trees(trees: usize, per_tree: usize) {
    let total = ALPHABETA_CONFIGS * (1 + ORACLE_ORDERS.len());
    for case in 0..trees {
        let root = random_tree(case as u64);
        let d = root.params().d;
        let mut reference = Reference::new(root.to_string(), &root, &TreeValue, None);
        for pair in sample(case, per_tree, total) {
            let (evaluator, index) = (pair / ALPHABETA_CONFIGS, pair % ALPHABETA_CONFIGS);
            let fixed = Some(1 + (mix(pair as u64 ^ case as u64) % u64::from(d)) as u32);
            if evaluator == 0 {
                check_config(&mut reference, &TreeValue, "tree_value", index, None, fixed);
            } else {
                let order = ORACLE_ORDERS[evaluator - 1];
                let oracle = Oracle::new(order, case as u64);
                let name = format!("oracle({order})");
                check_config(&mut reference, &oracle, name, index, None, fixed);
            }
        }
    }
}

#[test]
fn random_trees_every_configuration_matches_minimax() {
    // 1200 trees x 32 pairs: each of the 640 pairs is checked on 60 trees.
    check_random_trees(1200, 32);
}

#[test]
#[ignore = "exhaustive: all 640 pairs on every tree, several minutes; run with --ignored"]
fn random_trees_every_configuration_on_every_tree() {
    check_random_trees(1000, ALPHABETA_CONFIGS * (1 + ORACLE_ORDERS.len()));
}

// --- connect four -----------------------------------------------------------------------

/// Stones from which positions are also solved to the end of the game.
const SOLVE_FROM_STONES: u32 = 30;
/// Longest random playout, in plies.
const MAX_PLAYOUT: u64 = 36;

/// An ongoing position reached by `plies` seeded random moves from the start, and the moves
/// written one after the other (Pons's notation in connect four); `None` if the game ended.
fn random_playout<G: Game + Default>(rng: &mut Rng, plies: u64) -> Option<(G, String)> {
    let (mut pos, mut written, mut moves) = (G::default(), String::new(), Vec::new());
    for _ in 0..plies {
        moves.clear();
        pos.generate_moves(&mut moves);
        let mv = *moves.get(rng.below(moves.len() as u64) as usize)?;
        written.push_str(&mv.to_string());
        pos.play(mv);
    }
    (pos.status() == Status::Ongoing).then_some((pos, written))
}

/// Checks `per_position` sampled configurations on each of `count` random positions
/// (playouts of 0..=`MAX_PLAYOUT` plies): to depth 6, or to the end from
/// `SOLVE_FROM_STONES` stones.
fn check_connect4(count: usize, per_position: usize) {
    let mut rng = Rng(0xC4);
    for case in 0..count {
        let plies = rng.below(MAX_PLAYOUT + 1);
        let (root, moves) = std::iter::repeat_with(|| random_playout::<Connect4>(&mut rng, plies))
            .find_map(|p| p)
            .expect("some playout survives");
        let depth = (plies < u64::from(SOLVE_FROM_STONES)).then_some(6);
        let name = format!("connect4 {moves:?}");
        let mut reference = Reference::new(name, &root, &CentreFirst, depth);
        for index in sample(case, per_position, ALPHABETA_CONFIGS) {
            let fixed = depth.map(|_| 1 + (index + case) as u32 % 6);
            check_config(
                &mut reference,
                &CentreFirst,
                "centre_first",
                index,
                depth,
                fixed,
            );
        }
    }
}

#[test]
fn connect4_every_configuration_matches_minimax() {
    // 1024 positions x 64 configurations: each configuration is checked on 512 positions.
    check_connect4(1024, 64);
}

#[test]
#[ignore = "exhaustive: all 128 configurations on every position, about a minute; run with --ignored"]
fn connect4_every_configuration_on_every_position() {
    check_connect4(1024, ALPHABETA_CONFIGS);
}

// --- tic-tac-toe ------------------------------------------------------------------------

/// Every alpha-beta configuration from `root` (written `moves`), solved to the end
/// (iterative ones) or at a fixed depth (the others, chosen by the configuration's number).
/// Returns minimax's value.
fn check_tictactoe(root: &TicTacToe, moves: &str) -> Score {
    let name = format!("tictactoe {moves:?}");
    let mut reference = Reference::new(name, root, &Neutral, None);
    let remaining = root.remaining_plies().unwrap();
    for index in 0..ALPHABETA_CONFIGS {
        let fixed = Some(remaining - (index as u32 % remaining));
        check_config(&mut reference, &Neutral, "neutral", index, None, fixed);
    }
    reference.score_at(remaining)
}

#[test]
fn tictactoe_start_is_a_draw_for_every_configuration() {
    assert_eq!(check_tictactoe(&TicTacToe::new(), ""), 0);
}

#[test]
fn tictactoe_random_positions_every_configuration_matches_minimax() {
    let mut rng = Rng(0x777);
    for _ in 0..200 {
        let plies = 1 + rng.below(7);
        if let Some((pos, moves)) = random_playout::<TicTacToe>(&mut rng, plies) {
            check_tictactoe(&pos, &moves);
        }
    }
}

// --- othello ----------------------------------------------------------------------------

/// Othello configurations: the 128 alpha-beta ones times fastest-first, parity, the
/// dedicated last-empties solver (6 empties) and refined mobility.
const OTHELLO_CONFIGS: usize = ALPHABETA_CONFIGS << 4;

/// Empty squares from which othello positions are solved to the end.
const OTHELLO_SOLVE_EMPTIES: u32 = 8;

/// Othello configuration number `index` (< 2048): bits 0-6 as [`alphabeta_config`], bits
/// 7-10 fastest-first, parity, `endgame_solver = 6` and refined mobility.
fn othello_config(index: usize) -> SearchConfig {
    let mut config = alphabeta_config(index % ALPHABETA_CONFIGS, index as u64 + 1);
    let bit = |i: usize| index >> i & 1 == 1;
    config.ordering.fastest_first = bit(7);
    config.ordering.parity = bit(8);
    config.endgame_solver = bit(9).then_some(6);
    config.ordering.refined_mobility = bit(10);
    config
}

/// A random othello position: `plies` seeded random moves from the start, or (with
/// `empties`) random moves until that many squares are empty. `None` if the game ended.
fn othello_playout(rng: &mut Rng, plies: u64, empties: Option<u32>) -> Option<Othello> {
    let (mut pos, mut moves) = (Othello::new(), Vec::new());
    let mut played = 0;
    while empties.map_or(played < plies, |e| pos.empties() > e) {
        moves.clear();
        pos.generate_moves(&mut moves);
        let mv = *moves.get(rng.below(moves.len() as u64) as usize)?;
        pos.play(mv);
        played += 1;
    }
    (pos.status() == Status::Ongoing).then_some(pos)
}

/// Checks `per_position` sampled configurations on each of `count` random othello
/// positions: every third solved to the end from [`OTHELLO_SOLVE_EMPTIES`] empties, the
/// others searched 4 plies deep after 0-40 random plies.
fn check_othello(count: usize, per_position: usize) {
    let mut rng = Rng(0x0E11);
    for case in 0..count {
        let solve = case % 3 == 2;
        let plies = rng.below(41);
        let empties = solve.then_some(OTHELLO_SOLVE_EMPTIES);
        let root = std::iter::repeat_with(|| othello_playout(&mut rng, plies, empties))
            .find_map(|p| p)
            .expect("some playout survives");
        let depth = (!solve).then_some(4);
        let name = format!("othello {}", root.to_board_string());
        let eval = OthelloEval::STANDARD;
        let mut reference = Reference::new(name, &root, &eval, depth);
        let remaining = root.remaining_plies().unwrap();
        for index in sample(case, per_position, OTHELLO_CONFIGS) {
            let config = othello_config(index);
            let fixed = match depth {
                Some(d) => 1 + (index + case) as u32 % d,
                None => remaining - (index as u32 % 3),
            };
            let limit = if config.iterative { depth } else { Some(fixed) };
            let steps = run(&root, &eval, &config, limit);
            let what = format!(
                "{} | {} tt_mb={} iterative={} endgame_solver={:?} depth={limit:?}",
                reference.name,
                config.ordering.label(),
                config.tt_mb,
                config.iterative,
                config.endgame_solver,
            );
            reference.check(what, config.iterative, &steps);
        }
    }
}

#[test]
fn othello_every_configuration_matches_minimax() {
    // 128 positions x 32 configurations: each of the 1024 is checked on 4 positions.
    check_othello(128, 32);
}

/// A pass is a ply, so in othello the same discs and side to move recur two plies later
/// (one pass each). Here 1,805 positions do so within 14 plies. Keyed without the plies, a
/// table entry from the deeper search of one occurrence answered the other at depth 14
/// (3800, the value of depth 15, against minimax's 3400); keyed with them, every table
/// configuration, at a fixed depth and deepening, keeps minimax's value at every depth.
#[test]
fn othello_passes_do_not_let_the_table_graft() {
    let board = "OOOOO--XOOXXX--XXXOXXXOXXXOOXOX-XOXXOXXXXXOXOOXO-XOOXX---XOX-XX- O";
    let root = Othello::parse_position(board).expect("a legal board");
    let eval = OthelloEval::STANDARD;
    let mut reference = Reference::new(format!("othello {board}"), &root, &eval, Some(14));
    // Shuffled order with a table, with and without history, deepening or not, in tables
    // of 1 and 16 MiB: under the old key six of these gave 3800 at depth 14.
    for seed in 1..=6 {
        for index in [0b111_0000, 0b111_1000, 0b011_0000, 0b011_1000] {
            for tt_mb in [1, 16] {
                let config = SearchConfig {
                    tt_mb,
                    ..alphabeta_config(index, seed)
                };
                let steps = run(&root, &eval, &config, Some(14));
                let what = format!(
                    "{} tt_mb={tt_mb} iterative={} seed {seed}",
                    config.ordering.label(),
                    config.iterative
                );
                reference.check(what, config.iterative, &steps);
            }
        }
    }
}

#[test]
#[ignore = "exhaustive: all 2048 configurations on every position, several minutes"]
fn othello_every_configuration_on_every_position() {
    check_othello(128, OTHELLO_CONFIGS);
}

// --- checkers ---------------------------------------------------------------------------

/// Checks `per_position` sampled configurations on each of `count` random checkers
/// positions (playouts of 0-40 plies from the start, so captures, kings and forced
/// sequences all occur) to depth 4, with the named-feature evaluation.
fn check_checkers(count: usize, per_position: usize) {
    let name = |pos: &Checkers| format!("checkers {}", to_fen(pos));
    let eval = (CheckersEval::default(), "checkers_eval");
    check_playouts(Rng(0xC8EC), 40, &eval, name, count, per_position);
}

/// Checks `per_position` sampled configurations, to depth 4, on each of `count` positions
/// reached by seeded random playouts of 0 to `max_plies` plies from the start, with the
/// evaluator `eval` (and its name in messages); `name` writes a position.
fn check_playouts<G: Game + Default, E: Evaluator<G>>(
    mut rng: Rng,
    max_plies: u64,
    (eval, eval_name): &(E, &str),
    name: impl Fn(&G) -> String,
    count: usize,
    per_position: usize,
) {
    for case in 0..count {
        let plies = rng.below(max_plies + 1);
        let root = std::iter::repeat_with(|| random_playout::<G>(&mut rng, plies))
            .find_map(|p| p)
            .expect("some playout survives")
            .0;
        let depth = Some(4);
        let mut reference = Reference::new(name(&root), &root, eval, depth);
        for index in sample(case, per_position, ALPHABETA_CONFIGS) {
            let fixed = Some(1 + (index + case) as u32 % 4);
            check_config(&mut reference, eval, eval_name, index, depth, fixed);
        }
    }
}

#[test]
fn checkers_every_configuration_matches_minimax() {
    // 512 positions x 64 configurations: each configuration is checked on 256 positions.
    check_checkers(512, 64);
}

// --- chess ------------------------------------------------------------------------------

/// Checks `per_position` sampled configurations on each of `count` random chess positions
/// (playouts of 0-80 plies from the start, so endings with few pieces occur too) to depth
/// 4, with the piece-square evaluation (PeSTO's tables: values differ square by square, so
/// a changed value shows).
///
/// Depth 4 is as deep as the table is exact in chess: a position can recur two plies
/// further down (a king's triangle), and from depth 5 the entry of its first, deeper search
/// answers the later, shallower one (see [`table_grafts_a_deeper_value_in_chess`]).
fn check_chess(count: usize, per_position: usize) {
    use plylab::games::chess::{Chess, Pst};
    let name = |pos: &Chess| format!("chess {}", pos.to_fen());
    check_playouts(Rng(0xC4E5), 80, &(Pst, "pst"), name, count, per_position);
}

#[test]
fn chess_every_configuration_matches_minimax_to_depth_4() {
    // 48 positions x 32 configurations: each configuration is checked on 12 positions.
    check_chess(48, 32);
}

/// Where a position recurs at another ply, the table is not value-preserving against
/// fixed-depth minimax, and EXPERIMENTS.md (`tt_mb`) says so: here Black's king triangles
/// (Kf8-f7-e7 against Kf8-e7), the position after two plies comes back after four, and from
/// depth 5 the deeper search stored at ply 2 (here by the iteration before) answers ply 4
/// ("grafting"). Without the table
/// alpha-beta keeps minimax's value. If this ever fails, the table stopped grafting: update
/// the `tt_mb` row and let [`check_chess`] go deeper.
#[test]
fn table_grafts_a_deeper_value_in_chess() {
    use plylab::games::chess::{Chess, Pst};
    let root = Chess::parse_position("5k2/8/7Q/8/8/8/2K5/8 b - - 2 2").expect("valid");
    let value =
        |config: &SearchConfig| run(&root, &Pst, config, Some(5)).last().expect("depth 5").1;
    let minimax = value(&minimax_config(false));
    let plain = value(&alphabeta_config(0, 1));
    // With the table and iterative deepening: depth 4's entries answer depth 5's nodes.
    let table = value(&alphabeta_config(1 << 5 | 1 << 6, 1));
    assert_eq!(plain, minimax);
    assert_ne!(table, minimax, "the table's value at depth 5");
    // The graft is a deeper search's information: the table's value lies between minimax's
    // at depth 5 and at depth 6 (Black's loss looks worse the deeper White's attack is seen).
    let deeper = run(&root, &Pst, &minimax_config(false), Some(6))[0].1;
    assert!(
        deeper < table && table < minimax,
        "{deeper} < {table} < {minimax}"
    );
}
