//! The UCI engine client (`plylab::arena::engine`) against engines on real pipes: the fake
//! engine tests/uci/fake_engine.py in each of its modes (a good engine, with the commands it
//! received checked in its log; a crash during `go`; a hang, detected and killed; a crash
//! before `uciok`; junk output), a command that does not exist, and plylab's own UCI front
//! (`plylab uci`), whose moves are checked for legality with plylab's chess rules.
//!
//! Success cases wait up to [`GENEROUS`], so a loaded machine does not make them fail; only
//! the hang test uses a short timeout.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::TempDir;
use plylab::arena::engine::{
    Clock, EngineError, EngineScore, EngineSpec, Go, QUIT_GRACE, UciEngine,
};
use plylab::game::{Game, Notation};
use plylab::games::chess::Chess;

/// The bound for every answer that should come (CI machines can be slow and busy).
const GENEROUS: Duration = Duration::from_secs(10);

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci/fake_engine.py");

/// A position after 1. e4 e5 2. Nf3, Black to move.
const FEN: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

/// The fake engine in `mode`, with extra arguments.
fn fake(mode: &str, extra: &[&str]) -> EngineSpec {
    let mut args = vec![FAKE.to_owned(), mode.to_owned()];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    EngineSpec {
        cmd: "python3".to_owned(),
        args,
        options: Vec::new(),
        ..EngineSpec::default()
    }
}

fn depth(d: u32) -> Go {
    Go {
        depth: Some(d),
        ..Go::default()
    }
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// Whether process `pid` still exists (a zombie counts: it has not been reaped); `None`
/// where this cannot be checked simply (outside Linux).
fn exists(pid: u32) -> Option<bool> {
    cfg!(target_os = "linux").then(|| Path::new(&format!("/proc/{pid}")).exists())
}

#[test]
fn ok_engine_gets_options_position_and_go() {
    let dir = TempDir::new("engine-ok");
    let log = dir.path("received.txt");
    let mut spec = fake("ok", &["e7e8q", "--log", log.to_str().unwrap()]);
    spec.options = vec![
        ("Threads".to_owned(), "1".to_owned()),
        ("Hash".to_owned(), "16".to_owned()),
        ("Clear Hash".to_owned(), String::new()),
    ];
    let mut engine = UciEngine::start(&spec, GENEROUS).expect("starts");
    assert_eq!(engine.name(), "Fake ok");
    engine.new_game(GENEROUS).expect("new game");
    let go = Go {
        depth: Some(3),
        nodes: Some(5000),
        movetime: Some(Duration::from_millis(250)),
        clock: Some(Clock {
            wtime: Duration::from_secs(60),
            btime: Duration::from_millis(59_500),
            winc: Duration::from_millis(100),
            binc: Duration::from_millis(100),
            period: None,
        }),
    };
    let reply = engine
        .go(Some(FEN), &strings(&["b8c6", "f1b5"]), &go, GENEROUS)
        .expect("a move");
    assert_eq!(reply.best_move, "e7e8q");
    assert_eq!(reply.depth, Some(2));
    assert_eq!(reply.nodes, Some(120));
    assert_eq!(reply.score, Some(EngineScore::Cp(17)));
    assert!(reply.elapsed < GENEROUS);
    let reply = engine.go(None, &[], &depth(1), GENEROUS).expect("a move");
    assert_eq!(reply.best_move, "e7e8q");
    engine.quit();

    let received = std::fs::read_to_string(&log).expect("the log");
    let expected = [
        "uci",
        "setoption name Threads value 1",
        "setoption name Hash value 16",
        "setoption name Clear Hash",
        "isready",
        "ucinewgame",
        "isready",
        &format!("position fen {FEN} moves b8c6 f1b5"),
        "go depth 3 nodes 5000 movetime 250 wtime 60000 btime 59500 winc 100 binc 100",
        "position startpos",
        "go depth 1",
        "quit",
    ];
    assert_eq!(received.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn no_move_is_an_error_and_the_engine_lives_on() {
    for text in ["(none)", "0000"] {
        let mut engine = UciEngine::start(&fake("ok", &[text]), GENEROUS).expect("starts");
        let err = engine.go(None, &[], &depth(1), GENEROUS).unwrap_err();
        assert!(matches!(err, EngineError::NoMove), "{text}: {err}");
        engine.new_game(GENEROUS).expect("still answers");
    }
}

#[test]
fn bad_requests_send_nothing_and_the_engine_lives_on() {
    let mut engine = UciEngine::start(&fake("ok", &[]), GENEROUS).expect("starts");
    let err = engine.go(None, &[], &Go::default(), GENEROUS).unwrap_err();
    assert!(matches!(err, EngineError::BadRequest { .. }), "{err}");
    let err = engine
        .go(Some("8/8 w\nquit"), &[], &depth(1), GENEROUS)
        .unwrap_err();
    assert!(matches!(err, EngineError::BadRequest { .. }), "{err}");
    assert_eq!(
        engine
            .go(None, &[], &depth(1), GENEROUS)
            .expect("a move")
            .best_move,
        "e2e4"
    );
}

#[test]
fn crash_during_go_is_reported_with_the_exit_status() {
    let mut engine = UciEngine::start(&fake("crash", &[]), GENEROUS).expect("starts");
    let err = engine.go(None, &[], &depth(3), GENEROUS).unwrap_err();
    let EngineError::Crashed { reason } = &err else {
        panic!("expected a crash, got {err}");
    };
    assert!(reason.contains("Fake crash"), "{reason}");
    assert!(reason.contains("`bestmove`"), "{reason}");
    assert!(reason.contains("exit status: 3"), "{reason}");
    let err = engine.new_game(GENEROUS).unwrap_err();
    assert!(
        matches!(&err, EngineError::Crashed { reason } if reason.contains("no longer running")),
        "{err}"
    );
}

#[test]
fn hang_is_detected_and_the_engine_killed() {
    let mut engine = UciEngine::start(&fake("hang", &[]), GENEROUS).expect("starts");
    let pid = engine.pid();
    let timeout = Duration::from_millis(300);
    let started = Instant::now();
    let err = engine.go(None, &[], &depth(3), timeout).unwrap_err();
    let took = started.elapsed();
    assert!(
        matches!(err, EngineError::Hung { waited } if waited == timeout),
        "{err}"
    );
    assert!(took >= timeout, "gave up after {took:?}");
    assert!(
        took < timeout + QUIT_GRACE + Duration::from_secs(2),
        "{took:?}"
    );
    assert_ne!(exists(pid), Some(true), "process {pid} still exists");
    let err = engine.go(None, &[], &depth(3), GENEROUS).unwrap_err();
    let EngineError::Crashed { reason } = &err else {
        panic!("expected the engine dead, got {err}");
    };
    assert!(reason.contains("was killed"), "{reason}");
}

#[test]
fn crash_before_uciok_fails_the_start() {
    let err = UciEngine::start(&fake("crash_on_start", &[]), GENEROUS).unwrap_err();
    let EngineError::Crashed { reason } = &err else {
        panic!("expected a crash, got {err}");
    };
    assert!(reason.contains("`uciok`"), "{reason}");
    assert!(reason.contains("exit status: 2"), "{reason}");
}

#[test]
fn garbage_output_is_ignored() {
    let mut engine = UciEngine::start(&fake("garbage", &[]), GENEROUS).expect("starts");
    assert_eq!(engine.name(), "Fake garbage");
    engine.new_game(GENEROUS).expect("new game");
    let reply = engine.go(None, &[], &depth(2), GENEROUS).expect("a move");
    assert_eq!(reply.best_move, "e2e4");
    assert_eq!(
        (reply.depth, reply.score),
        (Some(2), Some(EngineScore::Cp(17)))
    );
}

/// Option names are matched against the engine's `option name` lines in any case (UCI's
/// names are case-insensitive; EXPERIMENTS.md: "must be one the engine declares (`option
/// name NAME ...`, any case)"), and sent as the file writes them.
#[test]
fn option_names_are_matched_in_any_case() {
    let dir = TempDir::new("engine-case");
    let log = dir.path("received.txt");
    let mut spec = fake("ok", &["--log", log.to_str().unwrap()]);
    spec.options = vec![
        ("hash".to_owned(), "16".to_owned()),
        ("THREADS".to_owned(), "1".to_owned()),
    ];
    UciEngine::start(&spec, GENEROUS).expect("starts").quit();
    let received = std::fs::read_to_string(&log).expect("the log");
    let sent: Vec<&str> = received
        .lines()
        .filter(|l| l.starts_with("setoption"))
        .collect();
    assert_eq!(
        sent,
        [
            "setoption name hash value 16",
            "setoption name THREADS value 1"
        ]
    );
}

/// `UciEngine::start`'s documented refusal of an option value with a line break (it would
/// smuggle a second command into the protocol): a bad request, not a command sent.
#[test]
fn an_option_value_with_a_line_break_is_a_bad_request() {
    let mut spec = fake("ok", &[]);
    spec.options = vec![("Hash".to_owned(), "16\nquit".to_owned())];
    let err = UciEngine::start(&spec, GENEROUS).unwrap_err();
    assert!(matches!(err, EngineError::BadRequest { .. }), "{err}");
    assert!(err.to_string().contains("line break"), "{err}");
}

/// The module documentation's "unknown lines are ignored", for junk that only begins like
/// an answer (`uciokay`, `bestmovez e2e4`): the handshake waits for `uciok` itself (so the
/// option the engine declares after `uciokay` is known), the move is the one of the real
/// `bestmove`, and the node count the last one an `info` line gave.
#[test]
fn junk_that_begins_like_an_answer_is_not_taken_for_it() {
    let mut spec = fake("garbage", &["d2d4"]);
    spec.options = vec![("Junk".to_owned(), "3".to_owned())];
    let mut engine = UciEngine::start(&spec, GENEROUS).expect("starts");
    let reply = engine.go(None, &[], &depth(2), GENEROUS).expect("a move");
    assert_eq!(reply.best_move, "d2d4");
    assert_eq!(reply.nodes, Some(120));
    engine.quit();
}

#[test]
fn missing_command_is_a_spawn_error_naming_it() {
    let spec = EngineSpec {
        cmd: "plylab-no-such-engine".to_owned(),
        ..EngineSpec::default()
    };
    let err = UciEngine::start(&spec, GENEROUS).unwrap_err();
    assert!(
        matches!(&err, EngineError::Spawn { cmd, .. } if cmd == "plylab-no-such-engine"),
        "{err}"
    );
    assert!(err.to_string().contains("plylab-no-such-engine"), "{err}");
}

#[test]
fn quit_ends_the_process() {
    let engine = UciEngine::start(&fake("ok", &[]), GENEROUS).expect("starts");
    let pid = engine.pid();
    let started = Instant::now();
    engine.quit();
    assert!(started.elapsed() < QUIT_GRACE + Duration::from_secs(2));
    assert_ne!(exists(pid), Some(true), "process {pid} still exists");
}

/// Checks that `best` is a legal move after `moves` from `fen` (the start position if None).
fn assert_legal(fen: Option<&str>, moves: &[String], best: &str) {
    let mut position = Chess::parse_position(fen.unwrap_or("startpos")).expect("position");
    for mv in moves {
        let mv = position.parse_move(mv).expect("a legal move in the line");
        position.play(mv);
    }
    if let Err(e) = position.parse_move(best) {
        panic!("{best} after {moves:?} from {fen:?}: {e}");
    }
}

#[test]
fn plylab_uci_plays_legal_moves() {
    let spec = EngineSpec {
        cmd: env!("CARGO_BIN_EXE_plylab").to_owned(),
        args: vec!["uci".to_owned()],
        options: vec![("Threads".to_owned(), "1".to_owned())],
        ..EngineSpec::default()
    };
    // A misspelt option is an error naming the engine's options, not a silent no-op.
    let typo = EngineSpec {
        options: vec![("Treads".to_owned(), "1".to_owned())],
        ..spec.clone()
    };
    let err = UciEngine::start(&typo, GENEROUS).unwrap_err().to_string();
    assert!(
        err.contains("declares no option `Treads`") && err.contains("Threads"),
        "{err}"
    );
    let mut engine = UciEngine::start(&spec, GENEROUS).expect("starts");
    assert!(engine.name().starts_with("plylab"), "{}", engine.name());
    engine.new_game(GENEROUS).expect("new game");
    let line = strings(&["e2e4", "c7c5", "g1f3"]);
    for (fen, moves) in [(None, &[][..]), (None, &line[..]), (Some(FEN), &line[..0])] {
        let reply = engine.go(fen, moves, &depth(3), GENEROUS).expect("a move");
        assert_legal(fen, moves, &reply.best_move);
        assert_eq!(reply.depth, Some(3), "{reply:?}");
        assert!(reply.nodes.is_some_and(|n| n > 0), "{reply:?}");
        assert!(matches!(reply.score, Some(EngineScore::Cp(_))), "{reply:?}");
    }
    engine.quit();
}
