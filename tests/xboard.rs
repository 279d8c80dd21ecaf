//! The xboard/CECP client against a real xboard engine: Fairy-Max 5.0b (Debian package
//! `fairymax`, installed by .ci/run). Directly through [`XboardEngine`]: the handshake, a
//! move from the initial position, one from a FEN with Black to move (Fairy-Max has no
//! `setboard`, so the client sets it up in edit mode), a game's moves replayed, an option
//! the engine does not declare refused; then in the arena, Fairy-Max against plylab's
//! alpha-beta from EPD openings on a clock, every game ending by the rules (no crash, hang
//! or illegal move), games.pgn with the standard's tags (PlyCount, TimeControl, a standard
//! Termination) replayed by python-chess and checked by `pgn-extract` without a word.
//! Skipped, with the reason printed, where Fairy-Max is not installed.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{TempDir, pgn_extract_reads_cleanly, plylab, python_chess, python_script};
use plylab::arena::engine::{Clock, EngineError, EngineSpec, Go, Protocol};
use plylab::arena::xboard::XboardEngine;
use plylab::game::{Game, Notation};
use plylab::games::chess::Chess;

const FAIRYMAX: &str = "/usr/games/fairymax";
const TIMEOUT: Duration = Duration::from_secs(20);

/// Fairy-Max's spec, or `None` (with the reason printed) when it is not installed.
fn fairymax() -> Option<EngineSpec> {
    if !Path::new(FAIRYMAX).exists() {
        eprintln!("SKIPPED: {FAIRYMAX} is absent (apt-get install fairymax)");
        return None;
    }
    Some(EngineSpec {
        cmd: FAIRYMAX.to_owned(),
        protocol: Protocol::Xboard,
        ..EngineSpec::default()
    })
}

/// Whether `mv` is legal in `fen` after `moves`.
fn legal(fen: &str, moves: &[String], mv: &str) -> bool {
    let mut pos = Chess::parse_position(fen).expect("a valid FEN");
    for m in moves {
        let m = pos.parse_move(m).expect("a legal game move");
        pos.play(m);
    }
    pos.parse_move(mv).is_ok()
}

#[test]
fn fairymax_plays_legal_moves_from_positions_and_games() {
    let Some(spec) = fairymax() else { return };
    let mut engine = XboardEngine::start(&spec, TIMEOUT).expect("Fairy-Max starts");
    assert!(engine.name().contains("Fairy-Max"), "{}", engine.name());
    engine.new_game(TIMEOUT).expect("new game");
    let depth = Go {
        depth: Some(3),
        ..Go::default()
    };
    let start = plylab::games::chess::START_FEN;
    let reply = engine.go(None, &[], &depth, TIMEOUT).expect("a move");
    assert!(legal(start, &[], &reply.best_move), "{reply:?}");
    assert_eq!(reply.depth, Some(3), "thinking output read: {reply:?}");
    assert!(reply.nodes.is_some_and(|n| n > 0) && reply.score.is_some());
    // Black to move, set up without `setboard`: only Black's moves are legal answers.
    let black = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
    let reply = engine
        .go(Some(black), &[], &depth, TIMEOUT)
        .expect("a move");
    assert!(legal(black, &[], &reply.best_move), "{reply:?}");
    // A game's moves replayed, on a clock: White's move after 1. e4 e5 2. Nf3.
    let moves: Vec<String> = ["e2e4", "e7e5", "g1f3", "b8c6"].map(String::from).to_vec();
    let clock = Go {
        clock: Some(Clock {
            wtime: Duration::from_secs(5),
            btime: Duration::from_secs(5),
            winc: Duration::from_millis(100),
            binc: Duration::from_millis(100),
            period: None,
        }),
        ..Go::default()
    };
    let reply = engine
        .go(Some(start), &moves, &clock, TIMEOUT)
        .expect("a move");
    assert!(legal(start, &moves, &reply.best_move), "{reply:?}");
    assert!(reply.elapsed < Duration::from_secs(3), "{reply:?}");
    // A move the engine refuses is a protocol error, not a silent desynchronisation.
    let bad = ["e2e4".to_owned(), "e2e4".to_owned()];
    let err = engine.go(None, &bad, &depth, TIMEOUT).unwrap_err();
    assert!(matches!(err, EngineError::Protocol { .. }), "{err}");
    engine.quit();

    // Options: a declared one is sent; a typo is an error naming the engine's options.
    let with = |name: &str| EngineSpec {
        options: vec![(name.to_owned(), "600".to_owned())],
        ..spec.clone()
    };
    XboardEngine::start(&with("Resign Threshold"), TIMEOUT)
        .expect("a declared option")
        .quit();
    let err = XboardEngine::start(&with("Resign Treshold"), TIMEOUT).unwrap_err();
    assert!(
        err.to_string()
            .contains("declares no option `Resign Treshold`")
            && err.to_string().contains("Resign Threshold"),
        "{err}"
    );
}

#[test]
fn fairymax_plays_in_the_arena_beside_plylab() {
    if fairymax().is_none() {
        return;
    }
    let dir = TempDir::new("arena-xboard");
    let file = dir.path("xboard.toml");
    let text = format!(
        concat!(
            "name = \"xboard\"\nseed = 3\n\n[match]\ngame = \"chess\"\ngames = 2\n",
            "max_plies = 60\ntc = \"4+0.05\"\n",
            "openings = {{ file = \"{}/experiments/data/chess/noob_3moves.sample2k.epd\", order = \"random\" }}\n\n",
            "[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\ntt_mb = 1\n",
            "ordering = {{ hint = true, tt_move = true, killers = true, history = true }}\n\n",
            "[[searchers]]\nlabel = \"fairymax\"\n",
            "engine = {{ cmd = \"{}\", protocol = \"xboard\" }}\n"
        ),
        env!("CARGO_MANIFEST_DIR"),
        FAIRYMAX
    );
    std::fs::write(&file, text).expect("write the arena file");
    let out = dir.path("out");
    let (code, stdout, stderr) = plylab(&[
        "experiment",
        file.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
        "--no-plot",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let mut reader = csv::Reader::from_path(out.join("games.csv")).expect("games.csv");
    let header = reader.headers().expect("a header").clone();
    let reason = header.iter().position(|h| h == "reason").expect("reason");
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("a row")).collect();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert!(
            !["crash", "hang", "illegal move", "engine error"].contains(&&row[reason]),
            "{row:?}"
        );
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    assert_eq!(pgn.matches("[PlyCount ").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("[TimeControl \"4+0.05\"]").count(), 2, "{pgn}");
    let standard = [
        "normal",
        "adjudication",
        "time forfeit",
        "rules infraction",
        "abandoned",
    ];
    for line in pgn.lines().filter(|l| l.starts_with("[Termination ")) {
        assert!(
            standard.iter().any(|t| line.contains(&format!("\"{t}\""))),
            "{line}"
        );
    }
    pgn_extract_reads_cleanly(&out.join("games.pgn"));
    if !python_chess("chess, chess.pgn", "tests/uci/replay_pgn.py") {
        return;
    }
    let (ok, stdout, stderr) = python_script("replay_pgn.py", &[out.join("games.pgn")]);
    assert!(ok, "replay_pgn.py failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("ok: 2 games"), "{stdout}");
}
