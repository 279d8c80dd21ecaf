use super::*;
use crate::game::{Evaluator, Neutral};
use crate::rng::XorShift;

/// Bik's table (tests/data/othello/perft_startpos.txt, from shared/data): leaves at depths
/// 1-11, a forced pass counting one ply and a game over before full depth one leaf.
const BIK: [u64; 11] = [
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
];

fn pos(text: &str) -> Othello {
    Othello::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(p: &Othello) -> Vec<OthelloMove> {
    let mut out = Vec::new();
    p.generate_moves(&mut out);
    out
}

/// Bik's split of depths 11-13: leaves of games that ended before full depth.
const BIK_ENDED_EARLIER: [(u32, u64); 3] = [(11, 228), (12, 584), (13, 6_968)];

#[test]
fn perft_equals_biks_table_to_depth_11() {
    let start = Othello::new();
    let mut ended = Vec::new();
    for (depth, &leaves) in (1..=11).zip(BIK.iter()) {
        let (exact, with_early) = start.perft(depth);
        assert_eq!(with_early, leaves, "depth {depth}");
        ended.push((depth + 1, with_early - exact));
    }
    // Bik's split counts the first pass after a finished game as one more ply (two passes
    // end the game), so his "ended earlier" leaves at depth d are the games over within
    // d - 1 plies: those of the last two depths here.
    assert_eq!(ended[9..], BIK_ENDED_EARLIER[..2]);
    assert!(ended[..9].iter().all(|&(_, n)| n == 0));
    // The generic move-sequence count over the Game trait agrees before any game can end.
    assert_eq!(crate::lab::perft::perft(&start, 8), BIK[7]);
}

#[test]
#[ignore = "about a minute in release: Bik's depths 12 and 13"]
fn perft_equals_biks_table_at_depths_12_and_13() {
    let start = Othello::new();
    assert_eq!(start.perft(12).1, 1_939_886_636);
    let (exact, total) = start.perft(13);
    assert_eq!(total, 18_429_641_748);
    assert_eq!(
        start.perft(12).1 - start.perft(12).0,
        BIK_ENDED_EARLIER[2].1
    );
    assert!(exact < total);
}

#[test]
fn the_start_position_and_its_moves() {
    let start = Othello::new();
    assert_eq!(
        start.to_board_string(),
        format!(
            "{}OX{}XO{} X",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        )
    );
    let written: Vec<String> = moves_of(&start).iter().map(ToString::to_string).collect();
    assert_eq!(written, ["d3", "c4", "f5", "e6"]);
    let mut after = start;
    after.play(start.parse_move("F5").unwrap());
    assert_eq!(after.side_to_move(), Player::Second);
    // f5 flips e5: black has d5, e4, e5, f5.
    let (black, white) = after.black_white();
    assert_eq!(black.count_ones(), 4);
    assert_eq!(white, 1 << 27);
    assert_eq!(after.plies_played(), 1);
    assert_eq!(start.status(), Status::Ongoing);
    assert_eq!(start.remaining_plies(), Some(120));
}

#[test]
fn positions_round_trip_and_bad_ones_are_refused() {
    let mut rng = XorShift::new(7);
    for _ in 0..200 {
        let mut p = Othello::new();
        while p.status() == Status::Ongoing {
            let moves = moves_of(&p);
            let mv = moves[rng.below(moves.len() as u64) as usize];
            assert_eq!(p.parse_move(&mv.to_string()), Ok(mv));
            assert_eq!(OthelloMove::parse(&mv.to_string().to_uppercase()), Ok(mv));
            p.play(mv);
            let back = pos(&p.to_board_string());
            assert_eq!(back.to_board_string(), p.to_board_string());
            // The board string has no passes: read back, the plies are the discs added,
            // and the hash, which keys the plies too, is the same exactly when they are.
            let same_plies = back.plies_played() == p.plies_played();
            assert_eq!(
                back.hash() == p.hash(),
                same_plies,
                "{}",
                p.to_board_string()
            );
        }
    }
    let board = "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27);
    assert_eq!(pos(&format!("{board} X")), Othello::new());
    assert_eq!(pos(&format!("{board}X")).hash(), Othello::new().hash());
    assert_eq!(
        pos(&(board.replace('-', ".").replace('X', "*") + " x")),
        Othello::new()
    );
    for (bad, why) in [
        (board.clone(), "side to move"),
        (format!("{board} Z"), "not a side"),
        (format!("{board} X X"), "unexpected"),
        (format!("{} X", &board[1..]), "63 squares"),
        (format!("{}Q X", &board[1..]), "square 63 (`Q`)"),
        (String::new(), "0 squares"),
    ] {
        let err = Othello::parse_position(&bad).unwrap_err();
        assert!(err.0.contains(why), "{bad}: {err}");
    }
    let start = Othello::new();
    for bad in ["a9", "i1", "pas", "d4", "e3", "pass", ""] {
        assert!(start.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_pass_is_a_move_and_two_passes_end_the_game() {
    // Black everywhere but b1 (white), c1 and h8 (empty). White to move has no disc move
    // (every line from c1 or h8 runs over black discs to the edge); black can take c1,
    // flipping b1. So white must pass.
    let mut board = ['X'; 64];
    board[1] = 'O';
    board[2] = '-';
    board[63] = '-';
    let text: String = board.iter().collect();
    let p = pos(&format!("{text} O"));
    assert_eq!(p.move_set(), 0);
    assert_eq!(moves_of(&p), [OthelloMove::PASS]);
    assert_eq!(p.status(), Status::Ongoing);
    assert!(p.parse_move("PS").is_ok() && p.parse_move("pass").is_ok());
    let mut q = p;
    q.play(OthelloMove::PASS);
    assert_eq!(moves_of(&q), [OthelloMove(2)]);
    q.play(OthelloMove(2));
    // Black holds 63 discs, h8 is empty and nobody can move: over, -64 for white to move
    // (63 discs and the empty square to black).
    assert_eq!(moves_of(&q), []);
    assert_eq!(q.status(), Status::Over(Outcome::Points(-64 * DISC)));
    assert_eq!(q.final_discs(), -64);
}

#[test]
fn transpositions_share_a_hash_and_different_positions_do_not() {
    use std::collections::HashMap;
    // Every position within 5 plies: equal boards and sides if and only if equal hashes.
    let mut by_board = HashMap::new();
    let mut by_hash = HashMap::new();
    let mut frontier = vec![Othello::new()];
    let mut transpositions = 0;
    for _ in 0..5 {
        let mut next = Vec::new();
        for p in frontier {
            for mv in moves_of(&p) {
                let mut child = p;
                child.play(mv);
                let key = (child.black_white(), child.black_to_move());
                if let Some(&h) = by_board.get(&key) {
                    assert_eq!(h, child.hash());
                    transpositions += 1;
                    continue;
                }
                by_board.insert(key, child.hash());
                assert!(by_hash.insert(child.hash(), key).is_none());
                next.push(child);
            }
        }
        frontier = next;
    }
    assert!(transpositions > 0);
    let board = &Othello::new().to_board_string()[..64];
    assert_ne!(
        pos(&format!("{board} X")).hash(),
        pos(&format!("{board} O")).hash()
    );
}

/// Plain negamax over the Game trait to the end: the truth for the dedicated solver.
fn negamax(p: &Othello) -> i32 {
    if let Status::Over(o) = p.status() {
        return crate::game::score::of_outcome(o, 0) / DISC;
    }
    moves_of(p)
        .into_iter()
        .map(|mv| {
            let mut child = *p;
            child.play(mv);
            -negamax(&child)
        })
        .max()
        .expect("an ongoing position has a move")
}

/// Random games from the start, stopped with `empties` empty squares left (or at the end).
fn random_positions(seed: u64, count: usize, empties: u32) -> Vec<Othello> {
    let mut rng = XorShift::new(seed);
    (0..count)
        .map(|_| {
            let mut p = Othello::new();
            while p.empties() > empties && p.status() == Status::Ongoing {
                let moves = moves_of(&p);
                p.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            p
        })
        .collect()
}

#[test]
fn the_last_empties_solver_agrees_with_negamax_in_every_window() {
    // From 7 empties the solver passes through each of its routines (and its passes);
    // started with 1 to 4 it enters each of them first.
    let starts = (1..=4).flat_map(|empties| random_positions(u64::from(empties), 40, empties));
    for p in random_positions(11, 120, 7).into_iter().chain(starts) {
        let truth = negamax(&p);
        let mut nodes = SolverNodes::unlimited();
        assert_eq!(
            endgame::solve(p.player(), p.opponent(), -65, 65, false, &mut nodes),
            truth
        );
        for (a, b) in [
            (truth - 1, truth + 1),
            (truth, truth + 1),
            (truth - 1, truth),
            (-3, 4),
        ] {
            let v = endgame::solve(p.player(), p.opponent(), a, b, false, &mut nodes);
            if v <= a {
                assert!(
                    truth <= v,
                    "{}: {v} in ({a}, {b}), truth {truth}",
                    p.to_board_string()
                );
            } else if v >= b {
                assert!(
                    truth >= v,
                    "{}: {v} in ({a}, {b}), truth {truth}",
                    p.to_board_string()
                );
            } else {
                assert_eq!(v, truth, "{}", p.to_board_string());
            }
        }
        // Through the Game hook, in hundredths of a disc, with a window off the disc grid.
        let s = p.solve_endgame(truth * DISC - 50, truth * DISC + 50, 7, &mut nodes);
        assert_eq!(s, Some(truth * DISC));
        assert_eq!(p.solve_endgame(0, 1, p.empties() - 1, &mut nodes), None);
        assert!(nodes.count > 0);
    }
}

#[test]
fn the_evaluation_is_bounded_and_hints_prefer_corners() {
    for p in random_positions(3, 50, 20) {
        let v = OthelloEval::STANDARD.evaluate(&p);
        assert!(v.abs() <= 64 * DISC);
        assert_eq!(Evaluator::<Othello>::evaluate(&Neutral, &p), 0);
    }
    let hint = |m: &str| {
        OthelloEval::STANDARD.order_hint(&Othello::new(), OthelloMove::parse(m).unwrap(), 1)
    };
    assert!(hint("a1") > hint("c3") && hint("c3") > hint("b2"));
}

#[test]
fn fforum_records_are_read_with_their_best_moves() {
    let text = include_str!("../../../experiments/data/othello/fforum-1-19.obf");
    let records: Vec<obf::ObfRecord> = text.lines().map(|l| obf::parse_line(l).unwrap()).collect();
    assert_eq!(records.len(), 19);
    assert_eq!(records[0].score(), Some(18));
    assert_eq!(records[0].best_moves(), [OthelloMove::parse("g8").unwrap()]);
    // FFO #2 and #4 have two best moves? #4: H8:+0 and A5:+0.
    assert_eq!(records[3].best_moves().len(), 2);
    for r in &records {
        // Every legal move is listed.
        assert_eq!(r.moves.len(), moves_of(&r.position).len(), "{}", r.board);
        assert_eq!(
            r.position.empties(),
            64 - (r.board[..64].matches(['X', 'O']).count() as u32)
        );
    }
    for bad in [
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8+18;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; A1:+18;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:x;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+99;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:2; G8:2;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- ; G8:2;",
        // Odd: a final difference with the empties given to the winner is even.
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+17;",
    ] {
        assert!(obf::parse_line(bad).is_err(), "{bad}");
    }
    let good = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
    assert!(obf::parse_line(good).is_ok());
}

#[test]
fn a_board_with_multi_byte_characters_is_refused_not_split_inside_one() {
    // 63 squares, a three-byte character, and `X` glued on: 65 characters, 67 bytes. Found
    // by the othello fuzz target (fuzz/seeds/othello/crash-board-split-inside-a-character).
    let text = format!("{}€X", "-".repeat(63));
    assert!(Othello::parse_position(&text).is_err());
    // The glued side still reads as the separate one.
    let board = "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27);
    let glued = Othello::parse_position(&format!("{board}X"));
    assert!(glued.is_ok(), "{glued:?}");
    assert_eq!(
        glued.ok(),
        Othello::parse_position(&format!("{board} X")).ok()
    );
}

#[test]
fn a_board_with_an_empty_centre_square_is_refused() {
    let start = "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27);
    assert!(Othello::parse_position(&format!("{start} X")).is_ok());
    for (square, name) in [(27, "d4"), (28, "e4"), (35, "d5"), (36, "e5")] {
        let mut board: Vec<char> = start.chars().collect();
        board[square] = '-';
        let text: String = board.into_iter().collect();
        let err = Othello::parse_position(&format!("{text} X"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("centre square {name} is empty")),
            "{err}"
        );
    }
}
