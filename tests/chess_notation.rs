//! Chess notation against the suites of experiments/data/chess: every EPD line reads,
//! every `bm` and `pv` resolves to legal moves, SAN round-trips on every legal move of the
//! perft positions, castling both ways, FEN round-trips; the evaluators are colour-symmetric.

use std::path::{Path, PathBuf};

use plylab::game::{Evaluator, Game, Notation, Status};
use plylab::games::chess::{Chess, ChessMove, Material, Pst, Shannon};
use plylab::lab::epd::{self, EpdError};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments/data/chess")
        .join(name)
}

fn pos(fen: &str) -> Chess {
    Chess::parse_position(fen).expect(fen)
}

#[test]
fn every_suite_line_reads() {
    for (file, count) in [
        ("wac.epd", 300),
        ("bratko-kopec.epd", 24),
        ("mate_in_1.epd", 64),
        ("mate_in_2.epd", 880),
        ("mate_in_3.epd", 1277),
        ("zugzwang.epd", 30),
        ("noob_3moves.sample2k.epd", 2013),
        ("UHO_4060_v4.sample2k.epd", 1998),
    ] {
        let records = epd::read(&data(file), None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(records.len(), count, "{file}");
        if !file.contains("sample2k") {
            assert!(
                records.iter().all(|r| !r.best.is_empty()),
                "{file}: a record without bm"
            );
        }
    }
    assert_eq!(epd::read(&data("wac.epd"), Some(10)).unwrap().len(), 10);
    let bk = epd::read(&data("bratko-kopec.epd"), None).unwrap();
    assert_eq!(bk[0].id.as_deref(), Some("BK.01"));
    assert_eq!(bk[0].position.san(bk[0].best[0]), "Qd1+");
    let zz = epd::read(&data("zugzwang.epd"), None).unwrap();
    assert!(
        zz[0]
            .comment
            .as_deref()
            .is_some_and(|c| c.contains("Gerd Isenberg"))
    );
}

/// Every `bm` of the mate suites is read as long algebraic, the `pv` starts with one of
/// them, is 2n − 1 plies long and ends in checkmate.
#[test]
fn mate_suites_resolve_and_mate() {
    for (file, n) in [
        ("mate_in_1.epd", 1),
        ("mate_in_2.epd", 2),
        ("mate_in_3.epd", 3),
    ] {
        for r in epd::read(&data(file), None).unwrap() {
            let at = format!("{file}:{}", r.line);
            assert_eq!(r.mate_in, Some(n), "{at}");
            assert_eq!(r.pv.len() as u32, 2 * n - 1, "{at}");
            assert!(r.best.contains(&r.pv[0]), "{at}");
            if n == 1 {
                // Every best move mates (mate_in_1.epd line 55 lists six knight moves).
                for &m in &r.best {
                    let mut p = r.position.clone();
                    p.play(m);
                    assert_eq!(
                        p.status(),
                        Status::Over(plylab::game::Outcome::Loss),
                        "{at}"
                    );
                }
            }
            let mut p = r.position.clone();
            for &m in &r.pv {
                p.play(m);
            }
            assert!(
                p.in_check() && p.legal_moves().is_empty(),
                "{at}: pv does not mate"
            );
            assert_eq!(
                p.status(),
                Status::Over(plylab::game::Outcome::Loss),
                "{at}"
            );
        }
    }
}

#[test]
fn long_algebraic_forms() {
    // En passant written f4xe3/ep.
    let p = pos("4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1");
    assert_eq!(
        p.parse_long_algebraic("f4xe3/ep").unwrap().to_string(),
        "f4e3"
    );
    // Castling, promotion with and without `=`, checks and mates.
    let p = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.parse_long_algebraic("O-O-O").unwrap().to_string(), "e1c1");
    assert_eq!(
        p.parse_long_algebraic("Ke1-g1").unwrap().to_string(),
        "e1g1"
    );
    assert_eq!(
        p.parse_long_algebraic("b7xa8=Q+").unwrap().to_string(),
        "b7a8q"
    );
    assert_eq!(
        p.parse_long_algebraic("b7-b8N").unwrap().to_string(),
        "b7b8n"
    );
    assert_eq!(
        p.parse_long_algebraic("Ra1xa8+").unwrap().to_string(),
        "a1a8"
    );
    assert!(
        p.parse_long_algebraic("Qa1xa8").is_err(),
        "wrong piece letter"
    );
    assert!(p.parse_long_algebraic("Ra1-b2").is_err());
    assert!(
        p.parse_long_algebraic("b7-b8").is_err(),
        "promotion missing"
    );
    assert!(p.parse_long_algebraic("").is_err());
    assert!(p.parse_long_algebraic("Ra1").is_err());
}

/// Positions for the round trips: every perft.epd position and every position one ply on
/// (but the unreachable one that `parse_position` refuses: see tests/chess_perft.rs).
fn perft_positions() -> Vec<Chess> {
    let text = std::fs::read_to_string(data("perft.epd")).unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(fen) = line.split(';').next().filter(|f| !f.trim().is_empty()) else {
            continue;
        };
        let Ok(p) = Chess::parse_position(fen) else {
            assert!(fen.starts_with("B6b/8/8/8/2K5/5k2/8/b6B b"), "{fen}");
            continue;
        };
        for m in p.legal_moves() {
            let mut child = p.clone();
            child.play(m);
            out.push(child);
        }
        out.push(p);
    }
    out
}

#[test]
fn san_and_uci_round_trip_on_every_legal_move() {
    let mut moves = 0;
    for p in perft_positions() {
        for m in p.legal_moves() {
            let san = p.san(m);
            assert_eq!(p.parse_san(&san), Ok(m), "{san} in {}", p.to_fen());
            assert_eq!(p.parse_move(&m.to_string()), Ok(m), "{m} in {}", p.to_fen());
            moves += 1;
        }
        assert_eq!(pos(&p.to_fen()), p, "FEN round trip of {}", p.to_fen());
    }
    assert!(moves > 30_000, "{moves}");
}

#[test]
fn san_writes_the_standard_forms() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let san = |uci: &str| p.san(p.parse_move(uci).unwrap());
    assert_eq!(san("e1g1"), "O-O");
    assert_eq!(san("e1h1"), "O-O");
    assert_eq!(san("e1c1"), "O-O-O");
    assert_eq!(san("e5f7"), "Nxf7");
    assert_eq!(san("d5e6"), "dxe6");
    assert_eq!(san("c3b1"), "Nb1");
    assert_eq!(san("a1b1"), "Rb1");
    assert_eq!(san("a1d1"), "Rd1");
    assert_eq!(san("f3h3"), "Qxh3");
    // File, rank and full-square disambiguation; promotion; mate.
    let p = pos("6k1/8/8/8/Q3Q3/8/8/Q3K3 w - - 0 1");
    let san = |uci: &str| p.san(p.parse_move(uci).unwrap());
    assert_eq!(san("a4b4"), "Qab4");
    assert_eq!(san("a1a3"), "Q1a3");
    assert_eq!(san("a4a3"), "Q4a3");
    assert_eq!(san("e4b1"), "Qeb1");
    assert_eq!(san("a4d1"), "Q4d1");
    assert_eq!(san("a4d4"), "Qa4d4");
    let p = pos("k7/2P5/1K6/8/8/8/8/8 w - - 0 1");
    assert_eq!(p.san(p.parse_move("b6b5").unwrap()), "Kb5");
    let check = pos("k7/8/1K6/8/8/8/8/7R w - - 0 1");
    assert_eq!(check.san(check.parse_move("h1h8").unwrap()), "Rh8#");
    assert_eq!(check.san(check.parse_move("h1a1").unwrap()), "Ra1+");
    assert_eq!(p.san(p.parse_move("c7c8q").unwrap()), "c8=Q#");
    assert_eq!(p.san(p.parse_move("c7c8n").unwrap()), "c8=N");
    assert_eq!(p.san(p.parse_move("c7c8r").unwrap()), "c8=R#");
    let p = pos("4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1");
    assert_eq!(p.san(p.parse_move("f4e3").unwrap()), "fxe3");
}

#[test]
fn san_reading_is_tolerant_but_strict_about_legality() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = p.parse_move("e1g1").unwrap();
    for text in ["O-O", "0-0", "O-O+", "O-O!?", "O-O#"] {
        assert_eq!(p.parse_san(text), Ok(short), "{text}");
    }
    assert_eq!(p.parse_san("0-0-0").unwrap().to_string(), "e1c1");
    assert!(p.parse_san("Ra8").is_ok());
    assert!(p.parse_san("Rxa8+").is_ok());
    assert!(p.parse_san("Rd1").is_ok());
    assert_eq!(
        p.parse_san("Rb1").unwrap().to_string(),
        "a1b1",
        "the h1 rook is blocked"
    );
    assert_eq!(
        p.parse_san("Rab1").unwrap().to_string(),
        "a1b1",
        "a redundant hint reads"
    );
    let q = pos("6k1/8/8/8/Q3Q3/8/8/Q3K3 w - - 0 1");
    assert!(
        q.parse_san("Qa3")
            .unwrap_err()
            .to_string()
            .contains("ambiguous")
    );
    assert!(
        q.parse_san("Qb4")
            .unwrap_err()
            .to_string()
            .contains("ambiguous")
    );
    assert!(q.parse_san("Qz4").is_err());
    assert!(q.parse_san("").is_err());
    assert!(q.parse_san("Q").is_err());
    assert!(q.parse_san("Qa9").is_err());
    assert!(q.parse_san("Kb8").is_err());
    let promo = pos("k7/2P5/1K6/8/8/8/8/8 w - - 0 1");
    assert_eq!(promo.parse_san("c8Q").unwrap().to_string(), "c7c8q");
    assert!(promo.parse_san("c8").is_err(), "promotion missing");
    assert!(promo.parse_san("c8=K").is_err());
}

/// The same position with colours exchanged and the board mirrored (FEN surgery).
fn flipped(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap(fields[2]).chars().collect();
    castling.sort_by_key(|c| "KQkq-".find(*c));
    let ep = if fields[3] == "-" {
        "-".to_owned()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    format!(
        "{} {side} {} {ep} {}",
        board.join("/"),
        castling.iter().collect::<String>(),
        fields[4..].join(" ")
    )
}

#[test]
fn evaluators_are_colour_symmetric() {
    let evals: [(&str, &dyn Evaluator<Chess>); 3] = [
        ("material", &Material),
        ("shannon", &Shannon),
        ("pst", &Pst),
    ];
    let mut suites = epd::read(&data("wac.epd"), None).unwrap();
    suites.extend(epd::read(&data("noob_3moves.sample2k.epd"), Some(200)).unwrap());
    for r in suites {
        let p = r.position;
        let q = pos(&flipped(&p.to_fen()));
        assert_eq!(q.legal_moves().len(), p.legal_moves().len());
        for (name, e) in evals {
            assert_eq!(e.evaluate(&p), e.evaluate(&q), "{name} on {}", p.to_fen());
        }
    }
}

#[test]
fn evaluator_reference_values() {
    let start = Chess::startpos();
    assert_eq!(Material.evaluate(&start), 0);
    assert_eq!(Pst.evaluate(&start), 0);
    assert_eq!(Shannon.evaluate(&start), 0);
    // White is a queen up; Black to move sees −900.
    let up = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(Material.evaluate(&up), 900);
    assert_eq!(
        Material.evaluate(&pos(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
        )),
        -900
    );
    assert!(Pst.evaluate(&up) > 800);
    // Bare kings: PeSTO's endgame king tables only.
    let kings = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(Pst.evaluate(&kings), 0);
    assert!(
        Pst.evaluate(&pos("8/8/8/3k4/8/8/8/K7 w - - 0 1")) < 0,
        "a cornered king is worse"
    );
}

#[test]
fn malformed_epd_lines_name_file_and_line() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess/malformed.epd");
    let err = epd::read(&path, None).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, EpdError::Line { line: 3, .. }), "{text}");
    assert!(
        text.contains("malformed.epd:3") && text.contains("`Qd1` is not a legal move"),
        "{text}"
    );
    assert_eq!(epd::read(&path, Some(1)).unwrap().len(), 1);
    let missing = epd::read(Path::new("no/such.epd"), None).unwrap_err();
    assert!(matches!(missing, EpdError::Io { .. }));
}

#[test]
fn moves_display_as_standard_uci() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    let shown: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m: &ChessMove| m.is_castle())
        .map(|m| m.to_string())
        .collect();
    assert_eq!(shown.len(), 2);
    assert!(shown.contains(&"e8g8".to_owned()) && shown.contains(&"e8c8".to_owned()));
}
