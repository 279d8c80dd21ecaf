//! Wins and losses keep their exact distance through the transposition table.
//!
//! The truth checked (Eppstein, ICS 180, "Forcing progress in winning positions", seed 000):
//! a win `p` plies from the root scores `score::win_in(p)`, so a faster win scores higher;
//! the table stores decisive scores relative to the node and re-bases them by the ply at
//! which they are read back. Hence, with the table on:
//!
//! - a side that can win at once and also has slower wins plays the immediate win and scores
//!   `win_in(1)`, at every depth and to the end of the game, even when move ordering tries a
//!   slower win first;
//! - at every iteration, positions with a forced result score exactly as plain minimax does:
//!   same winner, same distance;
//! - a table filled by searches from other roots (the parent, the grandchildren, the start
//!   of the game), whose entries are read back at another ply than they were stored at,
//!   gives the same exact scores as a fresh table.
//!
//! Checked against mutants of the crate: dropping the re-basing on read or on store, or
//! re-basing the wrong way, fails tests here.

use std::collections::HashSet;

use plylab::game::{Evaluator, Game, Neutral, Notation, Score, Status, score};
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::games::tictactoe::TicTacToe;
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, Searcher, Table};

/// One completed iteration: depth, root score, best move.
type Step<M> = (u32, Score, Option<M>);

/// Table size of the searches here, in MiB.
const TABLE_MB: usize = 4;

/// Alpha-beta with the table, the static hint, the table move, killers and history.
fn table_config(iterative: bool) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering: Ordering::HEURISTICS,
        tt_mb: TABLE_MB,
        iterative,
        seed: 1,
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

/// Runs `config` from `root` to `depth` (`None`: to the end of the game), with `table`
/// shared if given, and returns every completed iteration.
fn run<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    config: &SearchConfig,
    depth: Option<u32>,
    table: Option<&Table>,
) -> Vec<Step<G::Move>> {
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(eval, config);
    if let Some(t) = table {
        searcher = searcher.with_table(t);
    }
    let result = searcher.run(root, &limits);
    assert!(!result.stopped);
    result
        .iterations
        .iter()
        .map(|it| (it.depth, it.score, it.best_move))
        .collect()
}

/// The last iteration of `run`.
fn last<M: Copy>(steps: &[Step<M>]) -> Step<M> {
    *steps.last().expect("a completed iteration")
}

fn position<G: Notation>(moves: &str) -> G {
    G::parse_position(moves).unwrap_or_else(|e| panic!("{moves}: {e}"))
}

/// The value of `mv` for the side to move at `root` by plain minimax: the child searched to
/// the end of the game, its score seen one ply below the root and negated.
fn minimax_move_value<G: Game, E: Evaluator<G>>(root: &G, eval: &E, mv: G::Move) -> Score {
    let mut child = root.clone();
    child.play(mv);
    let child_score = match child.status() {
        Status::Over(outcome) => score::of_outcome(outcome, 0),
        Status::Ongoing => last(&run(&child, eval, &minimax_config(true), None, None)).1,
    };
    -score::from_table(child_score, 1)
}

/// `moves` without its last move: the position one ply earlier (one character per move
/// in both notations used here).
fn parent_of(moves: &str) -> &str {
    &moves[..moves.len() - 1]
}

/// The positions one ply below `pos`.
fn children<G: Game>(pos: &G) -> Vec<G> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let play = |mv| {
        let mut child = pos.clone();
        child.play(mv);
        child
    };
    moves.into_iter().map(play).collect()
}

/// The positions two plies below `root`.
fn grandchildren<G: Game>(root: &G) -> Vec<G> {
    children(root).iter().flat_map(children).collect()
}

/// A table filled by solving each of `roots` in turn with `config`.
fn filled_table<G: Game, E: Evaluator<G>>(roots: &[G], eval: &E, config: &SearchConfig) -> Table {
    let table = Table::new(TABLE_MB);
    for root in roots {
        run(root, eval, config, None, Some(&table));
    }
    table
}

/// From `moves`, `fast` wins at once and `slow` wins later (checked with minimax); the
/// table search must choose `fast` with score `win_in(1)` at each of `depths` (`None`: to
/// the end), iterative or not, with a fresh table, with one filled by solving the parent
/// (entries read one ply shallower than stored) and with one filled by solving every
/// grandchild (entries stored at ply 0, read at ply 2: without re-basing, a grandchild that
/// wins at once would make a slow win look as fast as the immediate one).
fn check_takes_the_fastest_win<G: Notation, E: Evaluator<G>>(
    moves: &str,
    eval: &E,
    fast: &str,
    slow: &str,
    depths: &[Option<u32>],
) {
    let root: G = position(moves);
    let (fast, slow) = (
        root.parse_move(fast).unwrap(),
        root.parse_move(slow).unwrap(),
    );
    assert_eq!(minimax_move_value(&root, eval, fast), score::win_in(1));
    let slow_value = minimax_move_value(&root, eval, slow);
    let slow_plies = score::plies_to_end(slow_value).filter(|_| slow_value > 0);
    assert!(slow_plies > Some(1), "{moves}: {slow} must win, later");

    let fillers = [
        ("fresh", vec![]),
        ("parent", vec![position::<G>(parent_of(moves))]),
        ("grandchildren", grandchildren(&root)),
    ];
    for &depth in depths {
        for iterative in [false, true] {
            let config = table_config(iterative);
            for (filler, roots) in &fillers {
                let table = filled_table(roots, eval, &config);
                let (_, got, best) = last(&run(&root, eval, &config, depth, Some(&table)));
                let what = format!("{moves} depth {depth:?} iterative {iterative} {filler}");
                assert_eq!(got, score::win_in(1), "{what}: score");
                assert_eq!(best, Some(fast), "{what}: best move");
            }
        }
    }
}

/// From `moves` the side to move wins or loses by force (`expected`). At every iteration,
/// the table search scores as minimax does; at fixed depths from the distance on it scores
/// `expected` with a best move that achieves it; and with a table filled from the parent
/// it still scores `expected` (and the parent, searched after `moves`, scores as fresh).
fn check_decisive<G: Notation, E: Evaluator<G>>(moves: &str, eval: &E, expected: Score) {
    let root: G = position(moves);
    let plies = score::plies_to_end(expected).expect("a decisive score") as u32;
    let scores = |steps: Vec<Step<G::Move>>| steps.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>();
    let reference = scores(run(&root, eval, &minimax_config(true), None, None));
    assert_eq!(
        reference.last().map(|s| s.1),
        Some(expected),
        "{moves}: minimax"
    );
    let searched = scores(run(&root, eval, &table_config(true), None, None));
    assert_eq!(searched, reference, "{moves}: iterations");

    for depth in plies..plies + 3 {
        let (_, got, best) = last(&run(&root, eval, &table_config(false), Some(depth), None));
        assert_eq!(got, expected, "{moves}: depth {depth}");
        let best = best.expect("a best move");
        assert_eq!(
            minimax_move_value(&root, eval, best),
            expected,
            "{moves}: {best}"
        );
    }

    let parent: G = position(parent_of(moves));
    let config = table_config(true);
    let fresh_parent = last(&run(&parent, eval, &config, None, None)).1;
    let shared = Table::new(TABLE_MB);
    run(&parent, eval, &config, None, Some(&shared));
    assert_eq!(
        last(&run(&root, eval, &config, None, Some(&shared))).1,
        expected
    );
    let shared = Table::new(TABLE_MB);
    run(&root, eval, &config, None, Some(&shared));
    let parent_after = last(&run(&parent, eval, &config, None, Some(&shared))).1;
    assert_eq!(
        parent_after, fresh_parent,
        "{moves}: parent after the child"
    );
}

#[test]
fn connect4_takes_the_win_in_one_tried_after_a_slower_win() {
    // Column 1 wins at once; centre-first order tries column 3 (a win in 3) before it.
    let depths = [Some(1), Some(2), Some(3), Some(5), Some(8), None];
    check_takes_the_fastest_win::<Connect4, _>(
        "214742774674434121257",
        &CentreFirst,
        "1",
        "3",
        &depths,
    );
}

#[test]
fn connect4_takes_the_win_in_one_when_every_move_wins() {
    // Every column wins: 7 at once, 4 and 5 in 3 plies, the others in 5. Centre-first
    // order tries column 7 last.
    let depths = [Some(1), Some(4), Some(6), Some(9), None];
    check_takes_the_fastest_win::<Connect4, _>(
        "77116364222636451265137",
        &CentreFirst,
        "7",
        "4",
        &depths,
    );
}

#[test]
fn tictactoe_takes_the_win_in_one_over_a_fork() {
    // X on 1 and 5, O on 3 and 7: square 9 wins at once; 2, 4, 6 and 8 win in 3 plies.
    // Squares are generated in order, so 2 is tried first.
    check_takes_the_fastest_win::<TicTacToe, _>(
        "1357",
        &Neutral,
        "9",
        "2",
        &[Some(1), Some(3), None],
    );
}

#[test]
fn connect4_decisive_scores_match_minimax_in_every_iteration() {
    let cases = [
        ("1745774132217716", score::win_in(3)),
        ("217471663637245", score::win_in(5)),
        ("33331364752543", score::win_in(7)),
        ("5424627145274173", score::loss_in(2)),
        ("6724142516741112", score::loss_in(6)),
        ("11532617145316453", score::loss_in(8)),
    ];
    for (moves, expected) in cases {
        check_decisive::<Connect4, _>(moves, &CentreFirst, expected);
    }
}

#[test]
fn tictactoe_decisive_scores_match_minimax_in_every_iteration() {
    let cases = [
        ("2357", score::win_in(1)),
        ("9152", score::win_in(3)),
        ("27", score::win_in(5)),
        ("47538", score::loss_in(2)),
        ("721", score::loss_in(4)),
    ];
    for (moves, expected) in cases {
        check_decisive::<TicTacToe, _>(moves, &Neutral, expected);
    }
}

/// Every ongoing tic-tac-toe position with `plies` stones, with one way to reach it.
fn tictactoe_positions(plies: u32) -> Vec<(TicTacToe, String)> {
    let mut level = vec![(TicTacToe::new(), String::new())];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for (pos, written) in &level {
            moves.clear();
            pos.generate_moves(&mut moves);
            for &mv in &moves {
                let mut child = *pos;
                child.play(mv);
                if seen.insert(child) {
                    next.push((child, format!("{written}{mv}")));
                }
            }
        }
        level = next;
    }
    level.retain(|(pos, _)| pos.status() == Status::Ongoing);
    level
}

#[test]
fn tictactoe_table_filled_from_the_start_keeps_exact_scores_deeper_down() {
    // Solving from the start stores every position's score relative to itself; read back
    // with those positions as roots (ply 0 instead of 2-6), the scores must be re-based.
    let config = table_config(true);
    let shared = Table::new(TABLE_MB);
    let start_score = last(&run(
        &TicTacToe::new(),
        &Neutral,
        &config,
        None,
        Some(&shared),
    ))
    .1;
    assert_eq!(start_score, 0);
    for plies in 2..=6 {
        for (pos, moves) in tictactoe_positions(plies) {
            let reference = last(&run(&pos, &Neutral, &minimax_config(true), None, None)).1;
            let (_, got, best) = last(&run(&pos, &Neutral, &config, None, Some(&shared)));
            assert_eq!(got, reference, "{moves}");
            let best = best.expect("a best move");
            assert_eq!(
                minimax_move_value(&pos, &Neutral, best),
                reference,
                "{moves}: {best}"
            );
        }
    }
}
