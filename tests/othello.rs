//! The othello endgame solver against published and independent truths:
//!
//! - the FFO positions 1-19 (fforum-1-19.obf, from Edax's repository: every legal move with
//!   its exact final disc difference) are solved with the exact score and a best move, by
//!   every configuration of the endgame switches that runs in a fraction of a second;
//! - on positions it was not tuned on (seeded random play-outs to 10-14 empties) every
//!   combination of the switches returns the value of plain alpha-beta (no ordering, no
//!   table: exact by Knuth and Moore's theorem, and itself checked against minimax in
//!   tests/equivalence.rs), and its best move reaches that value;
//! - lazy SMP on two threads solves FFO positions exactly, and Monte Carlo search, the arena
//!   and the command line run on othello.

use crate::common::{self, plylab};
use plylab::game::{Game, Notation, Status};
use plylab::games::othello::obf::{ObfRecord, parse_line};
use plylab::games::othello::{DISC, Othello, OthelloEval, OthelloMove};
use plylab::rng::XorShift;
use plylab::search::mcts::{MctsBudget, MctsConfig, uct};
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, SolveSwitches, search};

fn ffo() -> Vec<ObfRecord> {
    include_str!("../experiments/data/othello/fforum-1-19.obf")
        .lines()
        .map(|l| parse_line(l).expect("a valid record"))
        .collect()
}

/// An endgame configuration: `switches` bits 0-6 turn on the table (16 MiB, its move
/// first), fastest-first, parity, the last-6-empties solver, principal variation search,
/// the score window (every node below the root within ±64 discs) and refined mobility.
fn endgame_config(switches: usize) -> SearchConfig {
    let bit = |i: usize| switches >> i & 1 == 1;
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering: Ordering {
            tt_move: bit(0),
            fastest_first: bit(1),
            parity: bit(2),
            refined_mobility: bit(6),
            ..Ordering::default()
        },
        tt_mb: if bit(0) { 16 } else { 0 },
        endgame_solver: bit(3).then_some(6),
        pvs: bit(4),
        solve: SolveSwitches {
            score_window: bit(5),
            ..SolveSwitches::default()
        },
        iterative: false,
        ..SearchConfig::default()
    }
}

/// Solves `pos` to the end with `config`: (score in discs, best move, nodes).
fn solve(pos: &Othello, config: &SearchConfig) -> (i32, Option<OthelloMove>, u64) {
    let result = search(pos, &OthelloEval::STANDARD, config, &Limits::default());
    let last = result.last().expect("a completed search");
    assert_eq!(last.score % DISC, 0, "an exact score is whole discs");
    (last.score / DISC, last.best_move, result.total.nodes)
}

/// The last-empties solver obeys the search's limits as the search's own nodes do: on a
/// 26-empty board (FFO #14 with six edge discs taken off) its calls at 20 empties had run
/// 58 s past a 20 ms limit (3.7 billion nodes) before the solver looked at the limits.
#[test]
fn the_endgame_solver_stops_at_the_search_limits() {
    let pos = Othello::parse_position(
        "----------OOOX---XOOXXX--OOOOOOOOOOXXXOOOOOXXOOX--XXOO----XXXXX- X",
    )
    .expect("a legal board");
    let config = SearchConfig {
        endgame_solver: Some(20),
        ..endgame_config(0b11_0111)
    };
    let limits = Limits {
        nodes: Some(300_000),
        ..Limits::default()
    };
    let result = search(&pos, &OthelloEval::STANDARD, &config, &limits);
    let nodes = result.total.nodes;
    // Time limits and stop flags are read by the same check, every 4,096 solver nodes.
    assert!(
        (300_000..300_000 + 2 * 4096).contains(&nodes),
        "{nodes} nodes under a 300,000-node limit"
    );
}

#[test]
fn ffo_1_to_19_are_solved_with_exact_scores_and_best_moves() {
    // Fastest-first is what makes these positions (14-16 empties) quick: configurations with
    // it, each without one of the table, parity, the last-empties solver, PVS; and with
    // refined mobility in its place.
    for switches in [0b111111, 0b11111, 0b11011, 0b10111, 0b01110, 0b1111101] {
        let config = endgame_config(switches);
        let mut nodes = 0;
        for (i, record) in ffo().iter().enumerate() {
            let (score, best, n) = solve(&record.position, &config);
            let what = format!("FFO #{} switches {switches:05b}", i + 1);
            assert_eq!(Some(score), record.score(), "{what}");
            let best = best.expect("a best move");
            assert!(record.best_moves().contains(&best), "{what}: {best}");
            nodes += n;
        }
        assert!(nodes > 0);
    }
}

/// Random games from the start until `empties` squares are empty (ongoing ones only).
fn untuned_positions(seed: u64, per_count: usize) -> Vec<Othello> {
    let mut rng = XorShift::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for empties in 10..=14 {
        while out.len() < (empties as usize - 9) * per_count {
            let mut pos = Othello::new();
            while pos.empties() > empties && pos.status() == Status::Ongoing {
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            if pos.status() == Status::Ongoing {
                out.push(pos);
            }
        }
    }
    out
}

#[test]
fn every_switch_combination_matches_plain_alpha_beta_on_untuned_positions() {
    let plain = endgame_config(0);
    for pos in untuned_positions(2026, 1) {
        let (truth, _, _) = solve(&pos, &plain);
        for switches in 1..128 {
            let what = format!("{} switches {switches:07b}", pos.to_board_string());
            assert_solves(&pos, &endgame_config(switches), truth, &what);
        }
    }
}

/// Asserts that `config` finds `truth` (discs) for `pos`, and a best move that keeps it.
fn assert_solves(pos: &Othello, config: &SearchConfig, truth: i32, what: &str) {
    let (score, best, _) = solve(pos, config);
    assert_eq!(score, truth, "{what}");
    let mut child = *pos;
    child.play(best.expect("a best move"));
    let after = match child.status() {
        Status::Over(_) => -child.final_discs(),
        Status::Ongoing => -solve(&child, &endgame_config(0b01110)).0,
    };
    assert_eq!(after, truth, "{what}: best move");
}

/// `mtd` reaching the end of the game tests only values between two even disc differences
/// (othello's `FINAL_SCORE_STEP`) and steps one at a time; the score window beside it
/// narrows by the stability ceiling. Every value and best move as plain alpha-beta's, on
/// positions of 10-14 empties and on FFO 1-19 (values from -8 to +32 discs, so that the
/// tests walk far from 0), with and without the table and the last-empties solver.
#[test]
fn mtd_over_even_disc_differences_matches_plain_alpha_beta() {
    let with_mtd = |switches: usize| {
        let mut config = endgame_config(switches);
        config.solve.mtd = true;
        config
    };
    let configs = [0b0000000, 0b0100000, 0b1111001, 0b1111111].map(with_mtd);
    let plain = endgame_config(0);
    for pos in untuned_positions(29, 1) {
        let (truth, _, _) = solve(&pos, &plain);
        for config in &configs {
            let what = format!("{} {:?}", pos.to_board_string(), config.solve);
            assert_solves(&pos, config, truth, &what);
        }
    }
    for (i, record) in ffo().iter().enumerate() {
        let (score, best, _) = solve(&record.position, &configs[3]);
        assert_eq!(Some(score), record.score(), "FFO #{}", i + 1);
        let best = best.expect("a best move");
        assert!(
            record.best_moves().contains(&best),
            "FFO #{}: {best}",
            i + 1
        );
    }
}

/// FFO #39 (Edax's problem/fforum-20-39.obf, its last line): 26 empties, White wipes Black
/// out (+64) with any of nine moves. Without the score window, a search that has proved +64
/// for its first move still searches every other one to prove none does better, and every
/// node on the winning line does the same below it (more than 25 minutes here); with it,
/// +64 is the best score possible and cuts off at once.
#[test]
fn the_score_window_cuts_off_a_wipeout() {
    let line = "O-OOOO--XOXXOX--XOOOXXX-XOOOXX--XOOXOX--XOXXX---X-XX------------ O; \
                A8:+64; B1:+64; G1:+64; G5:+64; G6:+64; C8:+64; H3:+64; E8:+64; H4:+64; \
                F7:+62; D8:+62; E7:+62; H2:+62; B8:+62; G2:+60; G4:+60; F6:+32;";
    let record = parse_line(line).expect("FFO #39");
    let config = SearchConfig {
        tt_mb: 64,
        ..endgame_config(0b111111)
    };
    let limits = Limits {
        nodes: Some(1_000_000_000),
        ..Limits::default()
    };
    let result = search(&record.position, &OthelloEval::STANDARD, &config, &limits);
    // One iteration, to the end of the game: none completes within the budget without
    // the window.
    let last = result.last().expect("solved within the node budget");
    assert_eq!(last.score, 64 * DISC);
    let best = last.best_move.expect("a best move");
    assert!(record.best_moves().contains(&best), "{best}");
}

/// Refined mobility (Edax's endgame move sorting: corner replies twice, then corner
/// stability, then potential mobility) in place of plain fastest-first, everything else
/// alike, orders FFO 1-19 better: a fifth fewer nodes.
#[test]
fn refined_mobility_visits_fewer_nodes_than_fastest_first() {
    let total = |switches| -> u64 {
        ffo()
            .iter()
            .map(|r| solve(&r.position, &endgame_config(switches)).2)
            .sum()
    };
    let (fastest_first, refined) = (total(0b111111), total(0b1111101));
    assert!(
        refined * 5 < fastest_first * 4,
        "{refined} nodes against {fastest_first}"
    );
}

#[test]
fn lazy_smp_on_two_threads_solves_ffo_positions_exactly() {
    let config = SearchConfig {
        algorithm: Algorithm::LazySmp,
        threads: 2,
        ..endgame_config(0b11111)
    };
    for record in ffo().iter().take(6) {
        let (score, best, _) = solve(&record.position, &config);
        assert_eq!(Some(score), record.score(), "{}", record.board);
        assert!(
            record.best_moves().contains(&best.unwrap()),
            "{}",
            record.board
        );
    }
}

#[test]
fn uct_finds_the_only_winning_move_of_small_endgames() {
    let mut found = 0;
    for pos in untuned_positions(77, 4).into_iter().take(8) {
        // Play on to 6 empties, then keep positions where exactly one move wins.
        let mut pos = pos;
        let mut moves = Vec::new();
        while pos.empties() > 6 && pos.status() == Status::Ongoing {
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(moves[0]);
        }
        if pos.status() != Status::Ongoing {
            continue;
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        let winning: Vec<OthelloMove> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut child = pos;
                child.play(m);
                let v = match child.status() {
                    Status::Over(_) => -child.final_discs(),
                    Status::Ongoing => -solve(&child, &endgame_config(0b01110)).0,
                };
                v > 0
            })
            .collect();
        if winning.len() != 1 || moves.len() < 2 {
            continue;
        }
        let config = MctsConfig {
            seed: 5,
            ..MctsConfig::default()
        };
        let budget = MctsBudget {
            iterations: Some(20_000),
            ..MctsBudget::default()
        };
        let result = uct(&pos, &OthelloEval::STANDARD, &config, &budget);
        assert_eq!(
            result.best_move,
            Some(winning[0]),
            "{}",
            pos.to_board_string()
        );
        found += 1;
    }
    assert!(found > 0, "no position with a single winning move");
}

/// Edax's .obf grammar (src/obftest.c): `%` comment lines and comments after a record, and
/// a record without moves that gives the position's score alone (what Edax writes for a
/// position whose side to move has no move), judged by that score.
#[test]
fn edax_comments_and_scores_given_alone_are_read() {
    let first = include_str!("../experiments/data/othello/fforum-1-19.obf")
        .lines()
        .next()
        .expect("FFO #1");
    let board = first.split(';').next().expect("a board");
    let record = parse_line(&format!("{first} % FFO #1")).expect("a comment after a record");
    assert_eq!(record.score(), Some(18));
    let bare = parse_line(&format!("{board}; +18;")).expect("a score alone");
    assert_eq!((bare.score(), bare.moves.len()), (Some(18), 0));
    for refused in [
        format!("{board}; +18; G8:+18;"),
        format!("{board}; +18; +18;"),
    ] {
        assert!(parse_line(&refused).is_err(), "{refused}");
    }
    let dir = common::TempDir::new("obf-comments");
    let set = dir.path("set.obf");
    std::fs::write(
        &set,
        format!("% FFO #1, its score alone\n{board}; +18; % Edax writes these\n"),
    )
    .expect("write the set");
    let (code, stdout, stderr) = plylab(&[
        "suite",
        "othello",
        set.to_str().expect("UTF-8"),
        "--jobs",
        "1",
        "--endgame-solver",
        "6",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("exact 1/1"), "{stdout}");
}

#[test]
fn the_command_line_solves_ffo_and_refuses_bad_othello_input() {
    let set = "experiments/data/othello/fforum-1-19.obf";
    let args = [
        "suite",
        "othello",
        set,
        "--take",
        "4",
        "--jobs",
        "1",
        "--no-iterative",
        "--tt-move",
        "--fastest-first",
        "--parity",
        "--endgame-solver",
        "6",
        "--pvs",
    ];
    let (code, stdout, stderr) = plylab(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("exact 4/4"), "{stdout}");
    // Bik's table: a game over before depth 10 counts as one leaf (228 of them).
    let (code, stdout, _) = plylab(&["perft", "othello", "start", "10"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("perft 10 = 24571284 ("), "{stdout}");
    assert!(
        stdout.contains("24571056 sequences of exactly 10 plies"),
        "{stdout}"
    );
    let (code, _, stderr) = plylab(&["search", "othello", "start X", "--depth", "2"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("squares"), "{stderr}");
    let board = "-".repeat(64);
    let (code, _, stderr) = plylab(&["search", "othello", &format!("{board} Q"), "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("side to move"), "{stderr}");
}

#[test]
fn an_othello_match_is_played_to_the_end_of_every_game() {
    let dir = common::TempDir::new("othello-arena");
    let file = dir.path("match.toml");
    let text = r#"
name = "othello_match"
seed = 3

[match]
game = "othello"
games = 4
openings = { random_plies = 4 }
concurrency = 1

[[searchers]]
label = "endgame"
algorithm = "alphabeta"
tt_mb = 1
endgame_solver = 6
ordering = { tt_move = true, fastest_first = true, parity = true }
limits = { depth = 3 }

[[searchers]]
label = "uct"
algorithm = "uct"
limits = { nodes = 200 }
"#;
    std::fs::write(&file, text).unwrap();
    let out = dir.path("out");
    let args = [
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-plot",
    ];
    let (code, stdout, stderr) = plylab(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut lines = games.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (opening, line) = (column("opening"), column("line"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4, "{games}");
    for row in rows {
        assert!(row.contains("neither side can move"), "{row}");
        // Replay the line from the opening: every move legal, and the game over at the end.
        let fields: Vec<&str> = row.split(',').collect();
        let mut pos = Othello::parse_position(fields[opening]).unwrap();
        for mv in fields[line].split_whitespace() {
            let mv = pos.parse_move(mv).unwrap();
            pos.play(mv);
        }
        assert_ne!(pos.status(), Status::Ongoing, "{row}");
    }
}
