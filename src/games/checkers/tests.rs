use super::notation::{NotationError, parse_fen, parse_move, to_fen};
use super::*;
use crate::game::{Evaluator, Notation};

fn pos(fen: &str) -> Checkers {
    parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn written(p: &Checkers) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves.iter().map(ToString::to_string).collect()
}

fn after(p: &Checkers, mv: &str) -> Checkers {
    let mut child = *p;
    child.play(p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}")));
    child
}

#[test]
fn the_start_position_has_blacks_seven_moves() {
    let start = Checkers::new();
    assert_eq!(
        written(&start),
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
    assert_eq!(
        to_fen(&start),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(pos("B:W21-32:B1-12"), start);
    assert_eq!(pos("start"), start);
    assert_eq!(pos("[FEN \"B:B1-12:W21-32.\"]"), start);
    assert_eq!(start.count(BLACK), (12, 0));
    let black_man = Piece {
        colour: BLACK,
        king: false,
    };
    assert_eq!(start.piece_at(12), Some(black_man));
    assert_eq!(start.piece_at(13), None);
    assert_eq!(start.piece_at(0), None);
    assert_eq!(start.side_to_move(), BLACK);
    assert_eq!(after(&start, "11-15").side_to_move(), WHITE);
}

#[test]
fn captures_are_compulsory_and_multi_jumps_continue() {
    // Black's man on 6 jumps 10 (landing on 15), then 19 (landing on 24).
    let p = pos("B:W10,19:B6,1");
    assert_eq!(written(&p), ["6x24"]);
    let mv = p.parse_move("6x24").unwrap();
    assert_eq!(mv.path(), [6, 15, 24]);
    assert_eq!(p.parse_move("6x15x24"), Ok(mv));
    let done = after(&p, "6x24");
    assert_eq!(to_fen(&done), "W:W:B1,24");
    // White has no piece left: no legal move, lost.
    assert_eq!(done.status(), Status::Over(Outcome::Loss));
    assert!(matches!(
        parse_move(&p, "1-5"),
        Err(NotationError::Illegal {
            hint: " (a capture is compulsory)",
            ..
        })
    ));
}

#[test]
fn a_jump_that_crowns_a_man_ends_the_move_but_a_king_goes_on() {
    // White's man on 11 jumps 7 onto 2 and is crowned; the move ends there although a
    // king on 2 could jump 6.
    let man = pos("W:W11:B6,7");
    assert_eq!(written(&man), ["11x2"]);
    let crowned = after(&man, "11x2");
    let white_king = Piece {
        colour: WHITE,
        king: true,
    };
    assert_eq!(crowned.piece_at(2), Some(white_king));
    assert_eq!(crowned.count(BLACK), (1, 0));
    // A king on 11 goes on from 2, backwards over 6, to 9.
    let king = pos("W:WK11:B6,7");
    assert_eq!(written(&king), ["11x9"]);
    assert_eq!(king.parse_move("11x9").unwrap().path(), [11, 2, 9]);
    // A black man reaching 29-32 by a step is crowned too; kings step backwards.
    let step = after(&pos("B:W5:B26"), "26-31");
    assert_eq!(step.kings(BLACK).count_ones(), 1);
    assert_eq!(
        written(&pos("B:W5:BK18")),
        ["18-14", "18-15", "18-22", "18-23"]
    );
}

#[test]
fn captures_with_the_same_end_squares_are_written_in_full() {
    // Black's man on 6 reaches 22 by way of 13 (taking 9 and 17) or 15 (taking 10 and 18).
    let p = pos("B:W9,10,17,18:B6");
    assert_eq!(written(&p), ["6x13x22", "6x15x22"]);
    assert!(matches!(
        parse_move(&p, "6x22"),
        Err(NotationError::Ambiguous { .. })
    ));
    let left = p.parse_move("6x13x22").unwrap();
    let right = p.parse_move("6x15x22").unwrap();
    assert_ne!(Checkers::move_code(left), Checkers::move_code(right));
    assert_eq!(to_fen(&after(&p, "6x13x22")), "W:W10,18:B22");
}

#[test]
fn a_king_circling_back_to_its_square_is_one_move_whichever_way_round() {
    // Black's king on 2 takes 7, 15, 14 and 6 (or 6, 14, 15 and 7) and ends on 2: one move.
    let p = pos("B:W6,7,14,15:BK2");
    assert_eq!(written(&p), ["2x2"]);
    let done = after(&p, "2x2");
    assert_eq!(to_fen(&done), "W:W:BK2");
    // Jumped pieces stay on the board until the move ends: no landing on their squares.
    assert_eq!(p.parse_move("2x2").unwrap().path().len(), 5);
}

#[test]
fn eighty_quiet_plies_draw_and_a_man_move_or_capture_resets_the_count() {
    let p = pos("B:WK32,20:BK1,5").with_quiet_plies(NO_PROGRESS_PLIES - 1);
    assert_eq!(p.status(), Status::Ongoing);
    let drawn = after(&p, "1-6");
    assert_eq!(drawn.quiet_plies(), NO_PROGRESS_PLIES);
    assert_eq!(drawn.status(), Status::Over(Outcome::Draw));
    assert_eq!(after(&p, "5-9").quiet_plies(), 0);
    assert_eq!(drawn.reversible_plies(), u32::from(NO_PROGRESS_PLIES));
}

#[test]
fn a_side_with_pieces_but_no_move_has_lost() {
    // White's man on 29 is blocked by Black's man on 25 with 22 behind it.
    let blocked = pos("W:W29:B25,22");
    assert!(!blocked.has_moves());
    assert_eq!(blocked.status(), Status::Over(Outcome::Loss));
    assert!(written(&blocked).is_empty());
}

#[test]
fn fen_round_trips_and_bad_positions_are_refused_with_a_reason() {
    for fen in [
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        "W:W21,22,23:B1,2,K3",
        "W:W:B1",
    ] {
        assert_eq!(to_fen(&pos(fen)), fen);
    }
    assert_eq!(to_fen(&pos(" W : B1 , K3 : W22,21 . ")), "W:W21,22:B1,K3");
    let cases: [(&str, &str); 13] = [
        ("start moves", "`moves` with no move after it"),
        ("W:W21:B1 moves  ", "`moves` with no move after it"),
        ("X:W21:B1", "side to move"),
        ("B:W21", "expected"),
        ("B:W21:W22", "each of `W` and `B`"),
        ("B:W21:B33", "`33`"),
        ("B:W21:B1,1", "listed twice"),
        ("B:W21:B21", "both a black and a white"),
        ("B:W2:B1", "would have been crowned"),
        ("B:W21:B5-3", "`5-3`"),
        ("B:W1-32:B", "at most 12"),
        ("B:W:B", "the board is empty"),
        ("B:W21,,22:B1", "`` is not a square"),
    ];
    for (bad, why) in cases {
        let err = Checkers::parse_position(bad).unwrap_err();
        assert!(err.0.contains(why), "{bad}: {err}");
    }
    let line = Checkers::parse_position("start moves 11-15 23-19").unwrap();
    assert_eq!(line, after(&after(&Checkers::new(), "11-15"), "23-19"));
    let err = Checkers::parse_position("start moves 11-15 22-18 9-13").unwrap_err();
    assert!(
        err.0.starts_with(
            "move 3 after `moves`: `9-13` is not a legal move here (a capture is compulsory)"
        ),
        "{err}"
    );
    let start = Checkers::new();
    for bad in ["", "11", "11-", "x15", "11-15-", "0-4", "11-33", "11x15-18"] {
        let err = parse_move(&start, bad).unwrap_err();
        assert!(matches!(err, NotationError::MoveSyntax(_)), "{bad}: {err}");
    }
    let err = parse_move(&start, "11x15").unwrap_err();
    assert!(matches!(err, NotationError::NotACapture(_)), "{err}");
    // A capture may be written either way, as PDN writers do.
    let capture = pos("W:W22:B18");
    assert_eq!(parse_move(&capture, "22x15"), parse_move(&capture, "22-15"));
    assert!(parse_move(&capture, "22x15").is_ok());
    let err = parse_move(&start, "11-18").unwrap_err();
    assert!(err.to_string().contains("legal: 9-13"), "{err}");
}

#[test]
fn hashes_tell_positions_and_sides_apart() {
    let start = Checkers::new();
    let a = after(&after(&start, "9-13"), "22-18");
    let b = after(&after(&start, "9-13"), "21-17");
    assert_ne!(a.hash(), b.hash());
    let black = pos("B:WK32:BK1");
    let white = pos("W:WK32:BK1");
    assert_ne!(black.hash(), white.hash());
    assert_ne!(pos("B:W32:B1").hash(), black.hash());
    // Transpositions meet: kings shuffling back to where they were.
    let back = after(
        &after(&after(&after(&black, "1-5"), "32-27"), "5-1"),
        "27-32",
    );
    assert_eq!(back.hash(), black.hash());
    assert!(std::mem::size_of::<Checkers>() <= 24);
}

#[test]
fn the_evaluation_counts_named_features_for_the_side_to_move() {
    let start = Checkers::new();
    assert_eq!(CheckersEval::features(&start), [0; 5]);
    assert_eq!(CheckersEval::default().evaluate(&start), 0);
    // Black a king and a man up, to move: 100 + 130, minus White's centre man on 22 ...
    let p = pos("B:W32:BK10,1,5");
    let f = CheckersEval::features(&p);
    assert_eq!(FEATURES.len(), f.len());
    // men 2-1, kings 1-0, back rank (Black's 1 vs White's 32), centre (10), advancement
    // (Black: 0 + 1 rows, White: 0).
    assert_eq!(f, [1, 1, 0, 1, 1]);
    let eval = CheckersEval::default();
    assert_eq!(eval.evaluate(&p), 100 + 130 + 4 + 1);
    // Captures are noisy and ordered first, by material.
    let capture = pos("B:W10,19:B6,1");
    let mv = capture.parse_move("6x24").unwrap();
    assert!(eval.is_noisy(&capture, mv));
    assert_eq!(eval.material_gain(&capture, mv), Some(200));
    assert!(eval.order_hint(&capture, mv, 1) > 0);
    let crown = pos("B:W5:B26");
    let mv = crown.parse_move("26-31").unwrap();
    assert!(!eval.is_noisy(&crown, mv));
    assert_eq!(eval.material_gain(&crown, mv), Some(30));
}

/// An independent, naive move generator on an 8 x 8 array, for comparison: `board[row][col]`
/// is 0 (empty), ±1 (man) or ±2 (king), positive for Black; Black's men go down (row + 1).
mod naive {
    use std::collections::BTreeSet;

    pub type Board = [[i8; 8]; 8];

    /// The row and column of square `n` (1-32): four squares a row from the top, rows 0, 2,
    /// 4, 6 starting in column 1.
    pub fn coordinates(n: u8) -> (i8, i8) {
        let i = (n - 1) as i8;
        let row = i / 4;
        (row, 2 * (i % 4) + if row % 2 == 0 { 1 } else { 0 })
    }

    fn square(row: i8, col: i8) -> u8 {
        (row * 4 + col / 2 + 1) as u8
    }

    fn on(row: i8, col: i8) -> bool {
        (0..8).contains(&row) && (0..8).contains(&col)
    }

    /// Every move as (start, end, jumped squares), for the side `sign` (1 Black, -1 White).
    pub fn moves(board: &Board, sign: i8) -> BTreeSet<(u8, u8, Vec<u8>)> {
        let mut captures = BTreeSet::new();
        let mut steps = BTreeSet::new();
        for row in 0..8 {
            for col in 0..8 {
                let piece = board[row as usize][col as usize] * sign;
                if piece <= 0 {
                    continue;
                }
                let dirs: Vec<(i8, i8)> = if piece == 2 {
                    vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]
                } else {
                    vec![(sign, -1), (sign, 1)]
                };
                let mut empty = *board;
                empty[row as usize][col as usize] = 0;
                let from = square(row, col);
                jumps(
                    &empty,
                    sign,
                    &dirs,
                    piece == 2,
                    from,
                    (row, col),
                    &mut Vec::new(),
                    &mut captures,
                );
                for &(dr, dc) in &dirs {
                    let (r, c) = (row + dr, col + dc);
                    if on(r, c) && board[r as usize][c as usize] == 0 {
                        steps.insert((from, square(r, c), Vec::new()));
                    }
                }
            }
        }
        if captures.is_empty() { steps } else { captures }
    }

    #[allow(clippy::too_many_arguments)]
    fn jumps(
        board: &Board,
        sign: i8,
        dirs: &[(i8, i8)],
        king: bool,
        from: u8,
        (row, col): (i8, i8),
        taken: &mut Vec<u8>,
        out: &mut BTreeSet<(u8, u8, Vec<u8>)>,
    ) {
        let crowning_row = if sign > 0 { 7 } else { 0 };
        if !taken.is_empty() && !king && row == crowning_row {
            let mut set = taken.clone();
            set.sort_unstable();
            out.insert((from, square(row, col), set));
            return;
        }
        let mut went_on = false;
        for &(dr, dc) in dirs {
            let (or, oc, lr, lc) = (row + dr, col + dc, row + 2 * dr, col + 2 * dc);
            if !on(lr, lc) || board[or as usize][oc as usize] * sign >= 0 {
                continue;
            }
            let over = square(or, oc);
            if taken.contains(&over) || board[lr as usize][lc as usize] != 0 {
                continue;
            }
            went_on = true;
            taken.push(over);
            jumps(board, sign, dirs, king, from, (lr, lc), taken, out);
            taken.pop();
        }
        if !went_on && !taken.is_empty() {
            let mut set = taken.clone();
            set.sort_unstable();
            out.insert((from, square(row, col), set));
        }
    }
}

/// `pos` on the naive array board.
fn naive_board(pos: &Checkers) -> naive::Board {
    let mut board = [[0i8; 8]; 8];
    for n in 1..=32u8 {
        if let Some(piece) = pos.piece_at(n) {
            let (row, col) = naive::coordinates(n);
            let value = if piece.king { 2 } else { 1 };
            board[row as usize][col as usize] = if piece.colour == BLACK { value } else { -value };
        }
    }
    board
}

/// A random legal placement: up to 12 pieces a side, many of them kings.
fn random_position(rng: &mut crate::rng::XorShift) -> Checkers {
    loop {
        let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
        for _ in 0..rng.below(12) + 1 {
            black |= 1 << rng.below(32);
        }
        for _ in 0..rng.below(12) + 1 {
            white |= 1 << rng.below(32);
        }
        white &= !black;
        for _ in 0..rng.below(10) {
            kings |= 1 << rng.below(32);
        }
        // Men on their crowning row become kings, so that every placement is legal.
        kings = (kings | (black & board::BOTTOM_ROW) | (white & board::TOP_ROW)) & (black | white);
        let side = if rng.below(2) == 0 { BLACK } else { WHITE };
        if let Ok(p) = Checkers::from_pieces(black, white, kings, side) {
            return p;
        }
    }
}

#[test]
fn moves_and_their_results_agree_with_a_naive_generator_on_random_positions() {
    let mut rng = crate::rng::XorShift::new(0x0C4E_C4E5);
    let (mut multi, mut king_captures) = (0, 0);
    for _ in 0..20_000 {
        let p = random_position(&mut rng);
        let sign = if p.side_to_move() == BLACK { 1 } else { -1 };
        let expected = naive::moves(&naive_board(&p), sign);
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        let got: std::collections::BTreeSet<(u8, u8, Vec<u8>)> = moves
            .iter()
            .map(|m| {
                let taken = (1..=32u8)
                    .filter(|n| m.captured() >> (n - 1) & 1 == 1)
                    .collect();
                (m.from_square(), m.to_square(), taken)
            })
            .collect();
        assert_eq!(
            got.len(),
            moves.len(),
            "{}: a move listed twice",
            to_fen(&p)
        );
        assert_eq!(got, expected, "{}", to_fen(&p));
        for mv in moves {
            multi += usize::from(mv.captured().count_ones() > 1);
            king_captures += usize::from(
                mv.is_capture() && p.kings(p.side_to_move()) >> (mv.from_square() - 1) & 1 == 1,
            );
            let mut child = p;
            child.play(mv);
            // The naive result: the piece moved (crowned on the far row), the jumped removed.
            let mut board = naive_board(&p);
            let (fr, fc) = naive::coordinates(mv.from_square());
            let (tr, tc) = naive::coordinates(mv.to_square());
            let mut piece = board[fr as usize][fc as usize];
            board[fr as usize][fc as usize] = 0;
            if piece.abs() == 1 && tr == if sign > 0 { 7 } else { 0 } {
                piece *= 2;
            }
            board[tr as usize][tc as usize] = piece;
            for n in (1..=32u8).filter(|n| mv.captured() >> (n - 1) & 1 == 1) {
                let (r, c) = naive::coordinates(n);
                board[r as usize][c as usize] = 0;
            }
            assert_eq!(naive_board(&child), board, "{} then {mv}", to_fen(&p));
            assert_eq!(child.side_to_move(), p.side_to_move().other());
        }
    }
    assert!(
        multi > 1000 && king_captures > 1000,
        "{multi} multi-jumps, {king_captures} king captures"
    );
}

/// On random positions, what the naive generator settles beyond the move list: the game is
/// lost exactly when it lists no move; quiescence may stand pat exactly when no capture is
/// compulsory; each capture's path is a chain of jumps over its captured pieces; the full
/// path is written exactly when another move has the same end squares; the written moves
/// and the move codes are distinct within a position (the module doc's contract).
#[test]
fn status_paths_and_move_names_agree_with_the_naive_generator() {
    let mut rng = crate::rng::XorShift::new(0x5EED_C4EC);
    let (mut lost, mut multi, mut ambiguous) = (0, 0, 0);
    for _ in 0..40_000 {
        let p = random_position(&mut rng);
        let fen = to_fen(&p);
        let sign = if p.side_to_move() == BLACK { 1 } else { -1 };
        let expected = naive::moves(&naive_board(&p), sign);
        let must_capture = expected.iter().any(|(_, _, taken)| !taken.is_empty());
        let want = if expected.is_empty() {
            Status::Over(Outcome::Loss)
        } else {
            Status::Ongoing
        };
        assert_eq!(p.status(), want, "{fen}: status");
        assert_eq!(p.may_stand_pat(), !must_capture, "{fen}: may_stand_pat");
        lost += usize::from(expected.is_empty());
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        let mut names = std::collections::BTreeSet::new();
        let mut codes = std::collections::BTreeSet::new();
        for &mv in &moves {
            let path = mv.path();
            let hop = if mv.is_capture() { 2 } else { 1 };
            let mut jumped = 0;
            for pair in path.windows(2) {
                let ((r0, c0), (r1, c1)) =
                    (naive::coordinates(pair[0]), naive::coordinates(pair[1]));
                assert!(
                    (r1 - r0).abs() == hop && (c1 - c0).abs() == hop,
                    "{fen}: {mv} path {path:?} is not a chain of {hop}-square diagonal hops"
                );
                if mv.is_capture() {
                    let (r, c) = ((r0 + r1) / 2, (c0 + c1) / 2);
                    jumped |= 1 << (r * 4 + c / 2);
                }
            }
            assert_eq!(
                jumped,
                mv.captured(),
                "{fen}: {mv} path {path:?} jumps other pieces"
            );
            let same_ends = moves
                .iter()
                .filter(|o| (o.from_square(), o.to_square()) == (mv.from_square(), mv.to_square()))
                .count();
            assert_eq!(mv.needs_full_path(), same_ends > 1, "{fen}: {mv} full path");
            assert!(names.insert(mv.to_string()), "{fen}: {mv} written twice");
            assert!(
                codes.insert(Checkers::move_code(mv)),
                "{fen}: {mv} code shared"
            );
            multi += usize::from(path.len() > 2);
            ambiguous += usize::from(same_ends > 1);
        }
    }
    assert!(
        lost > 250 && multi > 2_500 && ambiguous > 20,
        "{lost} lost, {multi} multi-jumps, {ambiguous} ambiguous"
    );
}

/// The distance to the 40-move rule's draw (80 plies without a man move or a capture, the
/// module doc) counts down by one each king step, whoever moves, and is 0 exactly when the
/// game is drawn; a man move starts it again at 80.
#[test]
fn the_no_progress_distance_counts_down_to_the_draw() {
    // Kings shuttling 1-6-1 and 32-28-32, far apart: every ply is a quiet king step.
    let mut p = pos("B:WK32,20:BK1,5");
    let shuttle = ["1-6", "32-28", "6-1", "28-32"];
    for ply in 0..u32::from(NO_PROGRESS_PLIES) {
        let left = u32::from(NO_PROGRESS_PLIES) - ply;
        assert_eq!(
            p.plies_to_no_progress_draw(),
            Some(left),
            "after {ply} king steps"
        );
        assert_eq!(p.status(), Status::Ongoing, "after {ply} king steps");
        p = after(&p, shuttle[ply as usize % 4]);
    }
    assert_eq!(p.plies_to_no_progress_draw(), Some(0));
    assert_eq!(p.status(), Status::Over(Outcome::Draw));
    let p = pos("B:WK32,20:BK1,5").with_quiet_plies(NO_PROGRESS_PLIES - 1);
    assert_eq!(
        after(&p, "5-9").plies_to_no_progress_draw(),
        Some(80),
        "a man moved"
    );
}

/// The evaluation against its features read off the naive array board on random
/// positions: men, kings, men on their own back rank (row 0 for Black, row 7 for White),
/// pieces on Samuel's centre squares 10, 11, 14, 15, 18, 19, 22, 23 and rows advanced by
/// men, each the side to move's minus the opponent's (the module doc), weighted by a table
/// of distinct primes so that no feature can stand in for another; and, for every move,
/// the material gain (captured men and kings by their weights, plus a king's weight over a
/// man's for a man reaching the far row) and the order hint (10 times the captured
/// material, plus 50 for a crowning move).
#[test]
fn the_evaluation_agrees_with_features_counted_on_the_naive_board() {
    const CENTRE: [u8; 8] = [10, 11, 14, 15, 18, 19, 22, 23];
    let weights = [3, 7, 11, 13, 17];
    let eval = CheckersEval {
        weights: Weights(weights),
    };
    let mut rng = crate::rng::XorShift::new(0xE7A1_5EED);
    let (mut crowning, mut king_taken) = (0, 0);
    for _ in 0..4_000 {
        let p = random_position(&mut rng);
        let fen = to_fen(&p);
        let board = naive_board(&p);
        let sign = if p.side_to_move() == BLACK { 1 } else { -1 };
        let mut want = [0; 5];
        for n in 1..=32u8 {
            let (row, col) = naive::coordinates(n);
            let piece = board[row as usize][col as usize];
            if piece == 0 {
                continue;
            }
            // +1 for the side to move's piece, -1 for the opponent's.
            let side = if piece.signum() == sign { 1 } else { -1 };
            let (own_back, advanced) = if piece > 0 { (0, row) } else { (7, 7 - row) };
            if piece.abs() == 1 {
                want[0] += side;
                want[2] += side * i32::from(row == own_back);
                want[4] += side * i32::from(advanced);
            } else {
                want[1] += side;
            }
            want[3] += side * i32::from(CENTRE.contains(&n));
        }
        assert_eq!(CheckersEval::features(&p), want, "{fen}: features");
        let value: i32 = want.iter().zip(weights).map(|(f, w)| f * w).sum();
        assert_eq!(eval.evaluate(&p), value, "{fen}: evaluation");
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        for mv in moves {
            let mut taken = 0;
            for n in (1..=32u8).filter(|n| mv.captured() >> (n - 1) & 1 == 1) {
                let (row, col) = naive::coordinates(n);
                let king = board[row as usize][col as usize].abs() == 2;
                taken += if king { weights[1] } else { weights[0] };
                king_taken += usize::from(king);
            }
            let (from, to) = (
                naive::coordinates(mv.from_square()),
                naive::coordinates(mv.to_square()),
            );
            let man = board[from.0 as usize][from.1 as usize].abs() == 1;
            let crowns = man && to.0 == if sign > 0 { 7 } else { 0 };
            crowning += usize::from(crowns);
            let crown = if crowns { weights[1] - weights[0] } else { 0 };
            assert_eq!(
                eval.material_gain(&p, mv),
                Some(taken + crown),
                "{fen}: {mv} gain"
            );
            let hint = 10 * taken + if crowns { 50 } else { 0 };
            assert_eq!(eval.order_hint(&p, mv, 1), hint, "{fen}: {mv} hint");
            assert_eq!(
                eval.is_noisy(&p, mv),
                mv.captured() != 0,
                "{fen}: {mv} noisy"
            );
        }
    }
    assert!(
        crowning > 100 && king_taken > 100,
        "{crowning} crowning, {king_taken} kings"
    );
}

/// A square is a number 1-32 written in digits (PDN): a sign in front, which Rust's integer
/// parser would accept (`"+21".parse::<u8>()` is 21), is refused in a FEN piece list, a
/// range, a king and a move, each with the item named.
#[test]
fn a_square_written_with_a_sign_is_refused() {
    for (bad, item) in [
        ("B:W+21:B1", "`+21`"),
        ("B:W21:B1,K+5", "`K+5`"),
        ("B:W21:B1-+3", "`1-+3`"),
    ] {
        let err = match Checkers::parse_position(bad) {
            Err(err) => err,
            Ok(p) => panic!("{bad} was read as {}", to_fen(&p)),
        };
        assert!(
            err.0.contains(item) && err.0.contains("is not a square"),
            "{bad}: {err}"
        );
    }
    let start = Checkers::new();
    for bad in ["+9-13", "9-+13"] {
        match parse_move(&start, bad) {
            Err(err) => assert!(matches!(err, NotationError::MoveSyntax(_)), "{bad}: {err}"),
            Ok(mv) => panic!("{bad} was read as the move {mv}"),
        }
    }
}
