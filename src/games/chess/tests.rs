//! Unit tests of the chess adapter: position parsing, game status, null moves, move codes.

use super::*;
use crate::game::Evaluator;

fn pos(fen: &str) -> Chess {
    Chess::parse_position(fen).expect(fen)
}

fn err(fen: &str) -> String {
    Chess::parse_position(fen).expect_err(fen).to_string()
}

#[test]
fn start_and_fen_round_trip() {
    assert_eq!(
        Chess::parse_position("startpos").unwrap().to_fen(),
        START_FEN
    );
    assert_eq!(
        Chess::parse_position(" start ").unwrap().to_fen(),
        START_FEN
    );
    assert_eq!(pos(START_FEN), Chess::startpos());
    let four = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(four.to_fen(), START_FEN);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 12 40",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 99 70",
    ] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
}

#[test]
fn malformed_fens_are_refused_with_reasons() {
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq").contains("4 or 6 fields"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0").contains("has 5"));
    assert!(err("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").contains("`x`"));
    assert!(err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").contains("7 squares"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -").contains("7 ranks"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -").contains("side to move"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq -").contains("kings"));
    assert!(err("8/8/8/8/8/8/8/8 w - -").contains("0 white and 0 black kings"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w K -").contains("impossible"));
    assert!(err("4k3/8/8/8/8/8/8/R3K2R w KK -").contains("repeats"));
    assert!(err("4k3/8/8/8/8/8/8/R3K2R w KX -").contains("not one of KQkq"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4").contains("rank 6"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9").contains("not a square"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6").contains("two-square"));
    assert!(err("4k3/8/8/8/8/8/8/4K2P w - -").contains("impossible position"));
    // The side not to move in check.
    assert!(err("4k3/4R3/8/8/8/8/8/4K3 w - -").contains("impossible position"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - x 1").contains("halfmove"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 -1").contains("is not a number"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999").contains("too large"));
    assert!(err("").contains("4 or 6 fields"));
    assert!(err("🙂/8/8/8/8/8/8/8 w - -").contains("not a piece letter"));
    // Two digits in a row, even when they add up to 8 (python-chess refuses them too).
    assert!(err("4k3/44/8/8/8/8/8/4K3 w - -").contains("two digits in a row"));
    assert!(err("4k3/8/8/8/8/8/8/4K12 w - -").contains("two digits in a row"));
    // Tolerated: large clocks (read as 100); refused: fullmove 0.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 w - - 150 1").to_fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 100 1"
    );
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 150 0").contains("fullmove number 0"));
}

/// Positions and python-chess 1.11's verdict (`Board(fen).status() == STATUS_VALID`), with
/// the word our refusal must contain.
const STATUS_CASES: &[(&str, Option<&str>)] = &[
    // OPPOSITE_CHECK: the kings side by side (cozy-chess alone accepted this one).
    ("8/8/8/8/8/3kK3/8/8 w - - 0 1", Some("next to each other")),
    // TOO_MANY_CHECKERS | IMPOSSIBLE_CHECK.
    ("4k3/8/8/8/8/3n1n2/8/r3K3 w - - 0 1", Some("3 checkers")),
    ("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1", None),
    // IMPOSSIBLE_CHECK for python-chess, accepted here: two checkers on one line through
    // the king (perft tables test generators with them; see validate::check_checkers).
    ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", None),
    ("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", None),
    // INVALID_EP_SQUARE: no pawn that just moved, or its start square occupied.
    ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", Some("two-square")),
    ("4k3/8/8/8/4P3/8/4B3/4K3 b - e3 0 1", Some("two-square")),
    // IMPOSSIBLE_CHECK after a double push: the rook's check was there before it.
    (
        "8/8/8/8/4P3/8/8/K2k3R b - e3 0 1",
        Some("no legal last move"),
    ),
    // A check discovered by the double push is possible.
    ("8/8/8/7k/4P3/8/8/K2B4 b - e3 0 1", None),
    ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", Some("first or last rank")),
    ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", Some("9 pawns")),
    (
        "4k3/pppppppp/rnbqqbnr/8/8/8/8/4K3 w - - 0 1",
        Some("17 pieces"),
    ),
    ("3k4/8/8/8/8/8/8/4K2r w - - 0 1", None),
    ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", None),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        None,
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        None,
    ),
    ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", None),
    ("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1", None),
    ("4k3/8/8/8/3pP3/8/8/3RK3 w - - 0 1", None),
];

#[test]
fn positions_are_validated_as_python_chess_does() {
    for &(fen, refusal) in STATUS_CASES {
        match (Chess::parse_position(fen), refusal) {
            (Ok(_), None) => {}
            (Err(e), Some(word)) => assert!(e.to_string().contains(word), "{fen}: {e}"),
            (got, want) => panic!("{fen}: got {got:?}, python-chess says {want:?}"),
        }
    }
}

#[test]
fn mate_stalemate_and_rule_draws() {
    // Fool's mate: White is mated.
    let mut p = Chess::startpos();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        assert_eq!(p.status(), Status::Ongoing);
        p.play(p.parse_move(m).unwrap());
    }
    assert_eq!(p.status(), Status::Over(Outcome::Loss));
    assert!(p.in_check());
    assert!(p.legal_moves().is_empty());
    // Stalemate.
    assert_eq!(
        pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").status(),
        Status::Over(Outcome::Draw)
    );
    // Fifty-move rule, but mate on the hundredth ply stands.
    let fifty = pos("4k3/8/8/8/8/8/4R3/4K3 b - - 100 80");
    assert_eq!(fifty.status(), Status::Over(Outcome::Draw));
    assert!(
        !fifty.legal_moves().is_empty(),
        "a rule draw still lists its moves"
    );
    assert_eq!(
        fifty.clone().with_rule_draws(false).status(),
        Status::Ongoing
    );
    assert_eq!(
        pos("4k3/8/8/8/8/8/4R3/4K3 b - - 99 80").status(),
        Status::Ongoing
    );
    let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
    assert_eq!(mated.status(), Status::Over(Outcome::Loss));
    // Insufficient material.
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/4K3 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", // f8 and c1: both dark squares
    ] {
        assert_eq!(pos(fen).status(), Status::Over(Outcome::Draw), "{fen}");
    }
    for fen in [
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", // f8 dark, d1 light
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",
    ] {
        assert_eq!(pos(fen).status(), Status::Ongoing, "{fen}");
    }
}

#[test]
fn null_move_refusals() {
    let start = Chess::startpos();
    let passed = start.null_move().expect("the start allows a pass");
    assert_eq!(passed.color_to_move(), Color::Black);
    assert_ne!(passed.hash(), start.hash());
    // In check.
    assert!(pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").null_move().is_none());
    // King and pawns only (for the side to move).
    assert!(pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").null_move().is_none());
    assert!(
        pos("4k3/4p3/8/8/8/8/4P3/4K1N1 b - - 0 1")
            .null_move()
            .is_none()
    );
    assert!(
        pos("4k3/4p3/8/8/8/8/4P3/4K1N1 w - - 0 1")
            .null_move()
            .is_some()
    );
}

#[test]
fn plies_clock_and_codes() {
    let mut p = Chess::startpos();
    assert_eq!(p.plies_played(), 0);
    p.play(p.parse_move("g1f3").unwrap());
    assert_eq!(p.plies_played(), 1);
    assert_eq!(p.reversible_plies(), 1);
    p.play(p.parse_move("e7e5").unwrap());
    assert_eq!(p.plies_played(), 2);
    assert_eq!(p.reversible_plies(), 0);
    assert_eq!(pos("4k3/8/8/8/8/8/8/4K3 b - - 7 31").plies_played(), 61);
    // Codes are unique among legal moves, promotions included.
    let p = pos("1n2k3/P7/8/8/8/8/8/R3K2R w KQ - 0 1");
    let moves = p.legal_moves();
    let mut codes: Vec<u16> = moves.iter().map(|&m| Chess::move_code(m)).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), moves.len());
}

#[test]
fn uci_castling_both_ways() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = p.parse_move("e1g1").unwrap();
    assert_eq!(p.parse_move("e1h1").unwrap(), short);
    assert!(short.is_castle() && short.is_short_castle());
    assert_eq!(short.to_string(), "e1g1");
    let long = p.parse_move("e1a1").unwrap();
    assert_eq!(long, p.parse_move("e1c1").unwrap());
    assert_eq!(long.to_string(), "e1c1");
    let mut after = p.clone();
    after.play(short);
    assert_eq!(after.to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    assert!(p.parse_move("e1f1x").is_err());
    assert!(p.parse_move("e2e4").is_err());
    assert!(p.parse_move("").is_err());
    assert!(p.parse_move("é1g1").is_err());
    let promo = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promo.parse_move("a7a8q").unwrap().to_string(), "a7a8q");
    assert!(promo.parse_move("a7a8").is_err());
    assert!(promo.parse_move("a7a8k").is_err());
}

/// Calls `check` on `root` and on every position up to `plies` plies from it.
fn every_position(root: &Chess, plies: u32, check: &mut impl FnMut(&Chess)) {
    check(root);
    if plies > 0 {
        for mv in root.legal_moves() {
            let mut child = root.clone();
            child.play(mv);
            every_position(&child, plies - 1, check);
        }
    }
}

/// The perft positions of the Chess Programming Wiki: castling, en passant, promotions
/// with and without capture, checks and pins; and one with en passant on the board.
const PERFT_FENS: [&str; 7] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// At `pos`: the noisy moves taken from the generator's target sets are exactly those of
/// every move filtered by `eval::is_noisy`, in the same order, and the count returned is the
/// number of legal moves.
fn check_noisy_moves(pos: &Chess) {
    let all = pos.legal_moves();
    let mut noisy = Vec::new();
    let legal = pos.generate_noisy_moves(&mut noisy);
    let expected: Vec<ChessMove> = all
        .iter()
        .copied()
        .filter(|&mv| super::eval::is_noisy(pos, mv))
        .collect();
    assert_eq!(noisy, expected, "{}", pos.to_fen());
    assert_eq!(legal, all.len(), "{}", pos.to_fen());
}

#[test]
fn noisy_moves_are_the_noisy_ones_of_all_moves() {
    for fen in PERFT_FENS {
        every_position(&pos(fen), 3, &mut check_noisy_moves);
    }
}

#[test]
fn eval_sums_kept_by_play_equal_sums_from_scratch() {
    let check = &mut |pos: &Chess| {
        assert_eq!(pos.sums, eval::EvalSums::of(&pos.board), "{}", pos.to_fen());
        let us = pos.color_to_move();
        let material = eval::material_of(&pos.board, us) - eval::material_of(&pos.board, !us);
        assert_eq!(Material.evaluate(pos), material, "{}", pos.to_fen());
    };
    for fen in PERFT_FENS {
        every_position(&pos(fen), 3, check);
    }
    // Chess960 castling: the king and the rook land where standard castling would put
    // them, from other squares (the Chess Programming Wiki's Chess960 perft position 2,
    // and one with both castlings one move away).
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1",
    ] {
        let root = Chess::parse_chess960(fen).expect(fen);
        every_position(&root, 3, check);
    }
    // Null moves keep the sums (nothing moved).
    let root = pos(PERFT_FENS[1]);
    let passed = root.null_move().expect("not in check");
    assert_eq!(passed.sums, root.sums);
}

/// The repetition key counts the en-passant file only where a legal capture takes there
/// (FIDE Laws 9.2.3), python-chess's `_transposition_key`: not after 1. e4, nor where the
/// only pawn that could take is pinned; where a capture is legal, it does.
#[test]
fn the_repetition_key_counts_en_passant_only_where_a_capture_is_legal() {
    let with_ep = |fen: &str| {
        let p = pos(fen);
        let mut plain = fen.split(' ').collect::<Vec<_>>();
        plain[3] = "-";
        (p.clone(), pos(&plain.join(" ")))
    };
    for fen in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        // dxe3 would leave the fourth rank open: the rook on a4 would check the king on h4.
        "8/8/8/8/R2pP2k/8/8/4K3 b - e3 0 1",
    ] {
        let (ep, plain) = with_ep(fen);
        assert_ne!(ep.hash(), plain.hash(), "{fen}");
        assert_eq!(ep.en_passant_capture(), None, "{fen}");
        assert_eq!(ep.repetition_key(), plain.repetition_key(), "{fen}");
    }
    let (ep, plain) = with_ep("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert_eq!(
        ep.en_passant_capture().map(|m| m.to_string()),
        Some("d4e3".into())
    );
    assert_ne!(ep.repetition_key(), plain.repetition_key());
}
