//! The xboard/CECP client against a real xboard engine: Fairy-Max 5.0b (Debian package
//! `fairymax`, installed by .ci/run). Directly through [`XboardEngine`]: the handshake, a
//! move from the initial position, one from a FEN with Black to move (Fairy-Max has no
//! `setboard`, so the client sets it up in edit mode), a game's moves replayed, an option
//! the engine does not declare refused; then in the arena, Fairy-Max against plylab's
//! alpha-beta from EPD openings on a clock, every game ending by the rules (no crash, hang
//! or illegal move), games.pgn with the standard's tags (PlyCount, TimeControl, a standard
//! Termination) replayed by python-chess and checked by `pgn-extract` without a word.
//! Skipped, with the reason printed, where Fairy-Max is not installed. Everywhere, the fake
//! xboard engine tests/uci/fake_xboard.py (which logs what it receives): the commands of the
//! module documentation in their order, with and without `setboard`, `usermove` and `ping`,
//! refusals and resignations, undeclared options and line breaks.

use std::path::Path;
use std::time::Duration;

use crate::common::{TempDir, pgn_extract_reads_cleanly, plylab, python_chess, python_script};
use plylab::arena::engine::{Clock, EngineError, EngineScore, EngineSpec, Go, Protocol};
use plylab::arena::xboard::{ChessEngine, XboardEngine};
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

/// The fake xboard engine (tests/uci/fake_xboard.py), which logs what it receives.
const FAKE_XBOARD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci/fake_xboard.py");

/// The bound for every answer the fake engine should give.
const GENEROUS: Duration = Duration::from_secs(10);

/// The fake xboard engine in `mode`, announcing `features`, logging to `log`.
fn fake_xboard(mode: &str, features: &[&str], log: &Path) -> EngineSpec {
    let mut args = vec![FAKE_XBOARD.to_owned(), mode.to_owned()];
    args.extend(features.iter().map(|f| (*f).to_owned()));
    args.extend(["--log".to_owned(), log.to_str().expect("UTF-8").to_owned()]);
    EngineSpec {
        cmd: "python3".to_owned(),
        args,
        protocol: Protocol::Xboard,
        ..EngineSpec::default()
    }
}

/// The lines the fake engine received.
fn received(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).expect("the fake engine's log");
    text.lines().map(str::to_owned).collect()
}

/// The module documentation's exchange with an engine that announces `setboard`,
/// `usermove`, `ping` and `san=1`: `xboard`, `protover 2`, every feature answered
/// (`accepted`, `san=1` `rejected`), options as `option NAME=VALUE` (a button as `option
/// NAME`), `easy`, `post`, `ping`/`pong`; each `go` after `new` and `force`, the opening
/// by `setboard` (none for the initial position: `new` alone), the moves as `usermove`,
/// a depth alone with `st 86400` (EXPERIMENTS.md), a time per move as `st` alone in
/// whole seconds rounded up, a `ping` before `go` and `force` after `move`; the reply's
/// depth, score and nodes from the last thinking line (its fail-high `+` dropped), and the
/// engine named by `myname`; all through [`ChessEngine`], which starts the protocol that
/// `protocol = "xboard"` names.
#[test]
fn an_xboard_engine_gets_the_documented_commands_in_order() {
    let dir = TempDir::new("xboard-fake-ok");
    let log = dir.path("received.txt");
    let mut spec = fake_xboard("ok", &["setboard=1", "usermove=1", "ping=1", "san=1"], &log);
    spec.options = vec![
        ("Resign Threshold".to_owned(), "600".to_owned()),
        ("Clear Hash".to_owned(), String::new()),
    ];
    let mut engine = ChessEngine::start(&spec, GENEROUS).expect("starts");
    assert!(matches!(engine, ChessEngine::Xboard(_)), "{engine:?}");
    assert_eq!(engine.name(), "Fake xboard");
    engine.new_game(GENEROUS).expect("new game");
    let black = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
    let moves = ["g8f6".to_owned(), "d2d3".to_owned()];
    let depth = Go {
        depth: Some(3),
        ..Go::default()
    };
    let reply = engine
        .go(Some(black), &moves, &depth, GENEROUS)
        .expect("a move");
    assert_eq!(reply.best_move, "e2e4");
    assert_eq!(
        (reply.depth, reply.score, reply.nodes),
        (Some(2), Some(EngineScore::Cp(17)), Some(120))
    );
    let per_move = Go {
        movetime: Some(Duration::from_millis(1500)),
        ..Go::default()
    };
    let start = plylab::games::chess::START_FEN;
    engine
        .go(Some(start), &[], &per_move, GENEROUS)
        .expect("a move");
    engine.quit();
    let expected = [
        "xboard",
        "protover 2",
        "accepted myname",
        "accepted setboard",
        "accepted usermove",
        "accepted ping",
        "rejected san",
        "accepted option",
        "accepted option",
        "option Resign Threshold=600",
        "option Clear Hash",
        "easy",
        "post",
        "ping 1",
        "new",
        "force",
        "ping 2",
        "new",
        "force",
        &format!("setboard {black}"),
        "usermove g8f6",
        "usermove d2d3",
        "sd 3",
        "st 86400",
        "ping 3",
        "go",
        "force",
        "new",
        "force",
        "st 2",
        "ping 4",
        "go",
        "force",
        "quit",
    ];
    assert_eq!(received(&log), expected);
}

/// The module documentation's set-up for an engine that announces `setboard=0` (as
/// Fairy-Max does) and neither `usermove` nor `ping`: the opening in `edit` mode (for
/// Black to move, a White move first, then `edit`, `#`, White's pieces, `c`, Black's, `.`),
/// the moves as bare coordinates, no `ping`; on a clock, `level 0 M:SS INC` with the
/// mover's time and increment, `time` and `otim` in centiseconds, the mover found from the
/// opening's side to move.
#[test]
fn an_engine_without_setboard_gets_edit_mode_and_bare_moves() {
    let dir = TempDir::new("xboard-fake-edit");
    let log = dir.path("received.txt");
    let mut engine =
        XboardEngine::start(&fake_xboard("ok", &["setboard=0"], &log), GENEROUS).expect("starts");
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    let clock = Go {
        clock: Some(Clock {
            wtime: Duration::from_secs(90),
            btime: Duration::from_millis(75_500),
            winc: Duration::from_secs(1),
            binc: Duration::from_secs(2),
            period: None,
        }),
        ..Go::default()
    };
    let moves = ["e8d8".to_owned(), "e2e4".to_owned()];
    engine
        .go(Some(fen), &moves, &clock, GENEROUS)
        .expect("a move");
    engine.quit();
    let expected = [
        "xboard",
        "protover 2",
        "accepted myname",
        "accepted setboard",
        "accepted option",
        "accepted option",
        "easy",
        "post",
        "new",
        "force",
        "a2a3",
        "edit",
        "#",
        "Pe2",
        "Ke1",
        "c",
        "Ke8",
        ".",
        "e8d8",
        "e2e4",
        "level 0 1:15 2",
        "time 7550",
        "otim 9000",
        "go",
        "force",
        "quit",
    ];
    assert_eq!(received(&log), expected);
}

/// The module documentation's refusals: an `Illegal move` or `Error` answer to the
/// position or moves (caught by `ping`), a refusal after `go` and a resignation are
/// protocol errors, not a silent desynchronisation or a wait until the timeout.
#[test]
fn refusals_and_resignations_are_protocol_errors() {
    let dir = TempDir::new("xboard-fake-refusals");
    let log = dir.path("received.txt");
    let depth = Go {
        depth: Some(2),
        ..Go::default()
    };
    let moves = ["e2e4".to_owned()];
    for mode in ["illegal", "error", "resign", "refuse_go"] {
        let spec = fake_xboard(mode, &["ping=1"], &log);
        let mut engine = XboardEngine::start(&spec, GENEROUS).expect("starts");
        let err = engine.go(None, &moves, &depth, GENEROUS).unwrap_err();
        assert!(matches!(err, EngineError::Protocol { .. }), "{mode}: {err}");
        engine.quit();
    }
}

/// `XboardEngine::start`'s documented refusals: an option the engine's `feature option`
/// lines do not declare (the message naming those it does) and an option value with a
/// line break; and `go`'s: a position with a line break is a bad request, nothing sent,
/// the engine still playing.
#[test]
fn undeclared_options_and_line_breaks_are_bad_requests() {
    let dir = TempDir::new("xboard-fake-bad");
    let log = dir.path("received.txt");
    let spec = fake_xboard("ok", &[], &log);
    let with = |name: &str, value: &str| EngineSpec {
        options: vec![(name.to_owned(), value.to_owned())],
        ..spec.clone()
    };
    let err = XboardEngine::start(&with("Resign Treshold", "600"), GENEROUS).unwrap_err();
    assert!(matches!(err, EngineError::BadRequest { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("declares no option `Resign Treshold`")
            && text.contains("Resign Threshold, Clear Hash"),
        "{text}"
    );
    let err = XboardEngine::start(&with("Resign Threshold", "600\nquit"), GENEROUS).unwrap_err();
    assert!(matches!(err, EngineError::BadRequest { .. }), "{err}");
    let mut engine = XboardEngine::start(&spec, GENEROUS).expect("starts");
    let depth = Go {
        depth: Some(2),
        ..Go::default()
    };
    let err = engine
        .go(None, &["e2e4\nquit".to_owned()], &depth, GENEROUS)
        .unwrap_err();
    assert!(matches!(err, EngineError::BadRequest { .. }), "{err}");
    let reply = engine.go(None, &[], &depth, GENEROUS).expect("still plays");
    assert_eq!(reply.best_move, "e2e4");
    engine.quit();
}
