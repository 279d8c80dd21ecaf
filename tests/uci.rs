//! `plylab uci` end to end: the binary on piped stdin/stdout. The handshake, a mate in one,
//! `go movetime`, `go infinite` + `stop`, a clock search, game-over positions, bad input of
//! every kind (answered with `info string`, the engine still alive),
//! `quit`, a configuration taken from an experiment file, and python-chess self-play
//! (tests/uci/selfplay.py), and issue 15's points 1 and 4 (`searchmoves`, zero limits,
//! `bestmove (none)`, refused positions) directly and through python-chess
//! (tests/uci/go_points.py), and points 2 and 3 (MultiPV, ponder, `Clear Hash`,
//! `UCI_Chess960`, bound/hashfull/currmove info, repetitions before the root) directly and
//! through python-chess (tests/uci/engine_points.py), and issue 16's knowledge options
//! (`TablebaseFiles`, `BookFile`, `OwnBook`) directly and through python-chess
//! (tests/uci/knowledge_points.py). Every read has a timeout, so a hang fails instead of
//! blocking.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::common::{TempDir, plylab, python_chess, python_script};
use plylab::game::{Game, Notation};
use plylab::games::chess::Chess;

/// Generous bound for any single answer (CI machines can be slow and busy).
const TIMEOUT: Duration = Duration::from_secs(20);

const MATE_IN_ONE: &str = "4k3/Q7/3K4/8/8/8/8/8 w - - 0 1";

/// A running `plylab uci` with its output read on a helper thread.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plylab"))
            .arg("uci")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            stdin: child.stdin.take(),
            child,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, command: &str) {
        self.transcript.push(format!("> {command}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{command}").expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Reads lines until one satisfies `done` (returned with all before it), failing the
    /// test after `timeout`.
    fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut read = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    let finished = done(&line);
                    read.push(line);
                    if finished {
                        return read;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "no expected line within {timeout:?}; transcript:\n{}",
                        self.log()
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output; transcript:\n{}", self.log())
                }
            }
        }
    }

    /// Sends `command` and reads until the line that starts with `answer`.
    fn ask(&mut self, command: &str, answer: &str) -> Vec<String> {
        self.send(command);
        self.read_until(TIMEOUT, |l| l.starts_with(answer))
    }

    /// Reads until `bestmove` and returns its move and every line.
    fn best_move(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.read_until(timeout, |l| l.starts_with("bestmove"));
        let best = lines.last().expect("a line")["bestmove ".len()..]
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string();
        (best, lines)
    }

    /// `isready` must still be answered.
    fn alive(&mut self) {
        self.ask("isready", "readyok");
    }

    fn log(&self) -> String {
        self.transcript.join("\n")
    }

    /// Sends `quit` and returns the exit code, failing after the timeout.
    fn quit(mut self) -> i32 {
        self.send("quit");
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("no exit within {TIMEOUT:?} of quit:\n{}", self.log());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test must not leave the engine running.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Asserts that `mv` is legal after `position` (in `position` command syntax).
fn assert_legal(position: &str, mv: &str) {
    let (setup, moves) = position.split_once(" moves ").unwrap_or((position, ""));
    let setup = setup.strip_prefix("fen ").unwrap_or(setup);
    let mut pos = Chess::parse_position(setup).expect("test position");
    for m in moves.split_whitespace() {
        let m = pos.parse_uci(m).expect("test move");
        pos.play(m);
    }
    assert!(
        pos.parse_uci(mv).is_ok(),
        "bestmove {mv} is not legal after `position {position}`"
    );
}

#[test]
fn handshake_and_quit() {
    let mut engine = Engine::start(&[]);
    let lines = engine.ask("uci", "uciok");
    assert!(lines[0].starts_with("id name plylab"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("id author")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"option name Threads type spin default 1 min 1 max 256".to_string()),
        "{lines:?}"
    );
    engine.alive();
    engine.send("setoption name Hash value 32");
    engine.alive();
    // Two threads search with lazy SMP and still find the mate in one.
    engine.send("setoption name Threads value 2");
    engine.alive();
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go depth 4");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(best, "a7e7", "{}", engine.log());
    assert!(
        lines.contains(&"info string lazy SMP on 2 threads".to_string()),
        "{lines:?}"
    );
    engine.send("ucinewgame");
    engine.alive();
    assert_eq!(engine.quit(), 0);
}

#[test]
fn mate_in_one() {
    let mut engine = Engine::start(&[]);
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go depth 3");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(best, "a7e7", "{}", engine.log());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    let info = lines.iter().find(|l| l.starts_with("info depth")).unwrap();
    for field in ["seldepth", "nodes", "nps", "time", "pv a7e7"] {
        assert!(info.contains(field), "`{field}` missing from {info}");
    }
    // Checkmated already: no legal move.
    engine.send("position fen 4k3/4Q3/3K4/8/8/8/8/8 b - - 1 1");
    engine.send("go depth 2");
    assert_eq!(engine.best_move(TIMEOUT).0, "(none)");
    // Being mated in one: Black to move, every move allows mate (negative mate score).
    engine.send("position fen 4k3/R7/1R6/8/8/8/8/4K3 b - - 0 1");
    engine.send("go depth 3");
    let (_, lines) = engine.best_move(TIMEOUT);
    assert!(
        lines.iter().any(|l| l.contains(" score mate -1 ")),
        "{lines:?}"
    );
    assert_eq!(engine.quit(), 0);
}

#[test]
fn movetime_clock_and_infinite() {
    let mut engine = Engine::start(&[]);
    let position = "startpos moves e2e4 e7e5 g1f3";
    engine.send(&format!("position {position}"));
    let start = Instant::now();
    engine.send("go movetime 200");
    let (best, _) = engine.best_move(Duration::from_secs(10));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "movetime 200 took {:?}",
        start.elapsed()
    );
    assert_legal(position, &best);

    // A clock: 2 s left, so at most about 2000 / 30 + 80 ms.
    let start = Instant::now();
    engine.send("go wtime 2000 btime 2000 winc 100 binc 100");
    let (best, _) = engine.best_move(Duration::from_secs(10));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_legal(position, &best);

    // Infinite: info lines, no bestmove until stop; isready answered meanwhile.
    engine.send("go infinite");
    engine.read_until(TIMEOUT, |l| l.starts_with("info depth"));
    engine.alive();
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let lines = engine.read_until(TIMEOUT, |l| l == "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop: {lines:?}"
    );
    engine.send("stop");
    let (best, _) = engine.best_move(TIMEOUT);
    assert_legal(position, &best);

    // Infinite on a mate in one: the search ends at once, but waits for stop.
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go infinite");
    engine.read_until(TIMEOUT, |l| l.contains("score mate 1"));
    std::thread::sleep(Duration::from_millis(100));
    let lines = engine.ask("isready", "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("stop");
    assert_eq!(engine.best_move(TIMEOUT).0, "a7e7");
    assert_eq!(engine.quit(), 0);
}

#[test]
fn bad_input_is_reported_and_survived() {
    let mut engine = Engine::start(&[]);
    engine.ask("uci", "uciok");
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    for bad in [
        "frobnicate",
        "setoption name Foo value 1",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threads value 0",
        "setoption Hash 3",
    ] {
        engine.send(bad);
        let lines = engine.read_until(TIMEOUT, |l| l.starts_with("info string"));
        assert_eq!(lines.len(), 1, "`{bad}`: {lines:?}");
        engine.alive();
    }
    // Empty and blank lines are ignored; the position is still the last good one.
    engine.send("");
    engine.send("   ");
    engine.send("go depth 3");
    assert_eq!(engine.best_move(TIMEOUT).0, "a7e7", "{}", engine.log());
    // A `go` argument that cannot be read is reported and left out; `bestmove` still comes
    // (at once when nothing else limits the search).
    for bad in [
        "go depth x",
        "go nodes -3",
        "go movetime",
        "go wibble 3",
        "go depth 3 wibble",
    ] {
        engine.send(bad);
        let (best, lines) = engine.best_move(TIMEOUT);
        assert!(lines[0].starts_with("info string"), "`{bad}`: {lines:?}");
        assert_eq!(best, "a7e7", "`{bad}`: {lines:?}");
    }
    // A refused position is not searched: every `go` answers `bestmove (none)` until a
    // valid `position` arrives (issue 15, point 4).
    for bad in [
        "position fen 8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen 8/8/8/8/8/3kK3/8/8 w - - 0 1",
        "position startpos moves e2e5",
        "position startpos moves e2e4 zz",
        "position startpos moves e2e4 e7e5 ☃☃",
        "position startpos moves e2\u{0}e4",
        "position sideways",
        "position",
    ] {
        engine.send(bad);
        let lines = engine.read_until(TIMEOUT, |l| l.starts_with("info string"));
        assert!(lines[0].contains("position refused"), "`{bad}`: {lines:?}");
        assert!(
            !lines[0].chars().any(char::is_control),
            "control characters are echoed escaped: {lines:?}"
        );
        engine.send("go depth 3");
        let (best, lines) = engine.best_move(TIMEOUT);
        assert_eq!(best, "(none)", "after `{bad}`: {lines:?}");
        assert!(lines[0].contains("was refused"), "{lines:?}");
        engine.alive();
    }
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go depth 3");
    assert_eq!(engine.best_move(TIMEOUT).0, "a7e7", "{}", engine.log());
    assert_eq!(engine.quit(), 0);
}

#[test]
fn every_go_answers_bestmove() {
    let mut engine = Engine::start(&[]);
    // searchmoves restricts the root: from the mate in one, only a rook move is allowed
    // (Qa7-e7 mates), and an illegal or malformed move is left out with a note.
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go searchmoves a7a8 a7b7 depth 3");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert!(best == "a7a8" || best == "a7b7", "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("pv a7e7")), "{lines:?}");
    engine.send("go searchmoves a7e7 e2e4 zz depth 2");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(best, "a7e7", "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.contains("left out")).count(), 2);
    // searchmoves with a clock, then alone (searches until stop).
    engine.send("go wtime 1000 btime 1000 searchmoves d6c6");
    assert_eq!(engine.best_move(TIMEOUT).0, "d6c6");
    engine.send("go searchmoves d6e6");
    engine.read_until(TIMEOUT, |l| l.starts_with("info depth"));
    engine.send("stop");
    assert_eq!(engine.best_move(TIMEOUT).0, "d6e6");
    // Zero limits answer at once, with a legal move.
    for zero in ["go depth 0", "go movetime 0", "go nodes 0", "go mate 0"] {
        let start = Instant::now();
        engine.send(zero);
        let (best, _) = engine.best_move(TIMEOUT);
        assert!(start.elapsed() < Duration::from_secs(2), "{zero}");
        assert_eq!(best, "a7e7", "{zero}");
    }
    // No legal move: `bestmove (none)`, as Stockfish writes it, whatever `go` says.
    engine.send("position fen 4k3/4Q3/3K4/8/8/8/8/8 b - - 1 1");
    for go in [
        "go depth 2",
        "go infinite",
        "go searchmoves e8d8",
        "go movetime 0",
    ] {
        engine.send(go);
        if !go.contains("depth") && !go.contains("movetime") {
            // Without a limit, the answer waits for `stop`, as UCI wants.
            engine.send("stop");
        }
        assert_eq!(engine.best_move(TIMEOUT).0, "(none)", "{go}");
    }
    assert_eq!(engine.quit(), 0);
}

/// A `Hash` larger than the memory available is refused and the old table kept (skipped,
/// with a note, on a machine with more than 64 GiB available).
#[test]
fn an_impossible_hash_keeps_the_old_table() {
    let available = plylab::memory::available_mb();
    if available.is_none_or(|mb| mb >= 65_536) {
        eprintln!("skipped: MemAvailable is {available:?} MiB, 65536 MiB would fit");
        return;
    }
    let mut engine = Engine::start(&[]);
    engine.send("setoption name Hash value 65536");
    let lines = engine.read_until(TIMEOUT, |l| l.starts_with("info string"));
    assert!(
        lines[0].contains("more than the memory available") && lines[0].contains("keeping"),
        "{lines:?}"
    );
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go depth 3");
    assert_eq!(engine.best_move(TIMEOUT).0, "a7e7");
    assert_eq!(engine.quit(), 0);
}

#[test]
fn commands_during_a_search_and_end_of_input() {
    let mut engine = Engine::start(&[]);
    engine.send("position startpos");
    engine.send("go infinite");
    engine.read_until(TIMEOUT, |l| l.starts_with("info depth"));
    for busy in ["go depth 1", "setoption name Hash value 1", "ucinewgame"] {
        engine.send(busy);
        let lines = engine.read_until(TIMEOUT, |l| l.starts_with("info string"));
        assert!(
            lines.last().unwrap().contains("while searching"),
            "{lines:?}"
        );
    }
    engine.send("stop");
    let (best, _) = engine.best_move(TIMEOUT);
    assert_legal("startpos", &best);
    // The end of the input ends the engine like quit, stopping a running search.
    engine.send("go infinite");
    engine.read_until(TIMEOUT, |l| l.starts_with("info depth"));
    drop(engine.stdin.take());
    engine.best_move(TIMEOUT);
    let deadline = Instant::now() + TIMEOUT;
    while engine.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "no exit at the end of the input");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(engine.child.try_wait().unwrap().unwrap().code(), Some(0));
}

#[test]
fn repetition_history_is_used() {
    // Black (a knight against a queen) to move in X; after c6b8 d1d2 b8c6 d2d1, X is on the
    // board again. c6b8 now goes to a position played once before: not yet a draw (the game
    // would need a third occurrence), so still a lost position. After the cycle once more,
    // c6b8 makes the third occurrence: a draw (score 0) that only the history of
    // `position ... moves` reveals.
    let x = "k7/8/2n5/8/8/8/8/3Q3K b - - 0 1";
    let cycle = "c6b8 d1d2 b8c6 d2d1";
    let mut engine = Engine::start(&[]);
    engine.send(&format!("position fen {x} moves {cycle}"));
    engine.send("go depth 1 searchmoves c6b8");
    let (_, lines) = engine.best_move(TIMEOUT);
    assert!(lines[0].contains(" score cp -"), "{lines:?}");
    engine.send(&format!("position fen {x} moves {cycle} {cycle}"));
    engine.send("go depth 1");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(best, "c6b8", "{lines:?}");
    assert!(lines[0].contains(" score cp 0 "), "{lines:?}");
    // A root seen once before searches to the depth asked (it used to loop to depth 5000).
    engine.send("position startpos moves g1f3 g8f6 f3g1 f6g8");
    engine.send("go depth 3");
    let (_, lines) = engine.best_move(TIMEOUT);
    assert!(
        lines[lines.len() - 2].starts_with("info depth 3 "),
        "{lines:?}"
    );
    assert_eq!(engine.quit(), 0);
}

#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let mut engine = Engine::start(&[]);
    // Pondering: no `bestmove` while the search has no clock, however long it takes.
    engine.send("position startpos moves e2e4");
    engine.send("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(600));
    let lines = engine.ask("isready", "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    // `ponderhit` starts the 100 ms clock: the answer comes soon after, with a reply to
    // ponder on.
    let hit = Instant::now();
    engine.send("ponderhit");
    let line = engine.read_until(TIMEOUT, |l| l.starts_with("bestmove"));
    let words: Vec<&str> = line.last().unwrap().split_whitespace().collect();
    assert!(hit.elapsed() < Duration::from_secs(5), "{line:?}");
    assert_eq!((words.len(), words[2]), (4, "ponder"), "{line:?}");
    assert_legal("startpos moves e2e4", words[1]);
    assert_legal(&format!("startpos moves e2e4 {}", words[1]), words[3]);
    // A pondering search that finishes by itself (depth 1) still waits; `stop` answers.
    engine.send("go ponder depth 1");
    std::thread::sleep(Duration::from_millis(300));
    let lines = engine.ask("isready", "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("stop");
    engine.best_move(TIMEOUT);
    // Not pondering: `ponderhit` is reported and ignored.
    engine.ask("ponderhit", "info string ponderhit ignored");
    assert_eq!(engine.quit(), 0);
}

#[test]
fn options_of_point_2() {
    let mut engine = Engine::start(&[]);
    let lines = engine.ask("uci", "uciok");
    for option in [
        "option name MultiPV type spin default 1 min 1 max 500",
        "option name Ponder type check default false",
        "option name Clear Hash type button",
        "option name UCI_Chess960 type check default false",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    for bad in [
        "setoption name MultiPV value 0",
        "setoption name MultiPV value many",
        "setoption name UCI_Chess960 value yes",
        "setoption name Ponder value 2",
    ] {
        engine.send(bad);
        let reply = engine.read_until(TIMEOUT, |l| l.starts_with("info string"));
        assert!(reply.last().unwrap().contains("not `"), "{bad}: {reply:?}");
    }
    // MultiPV 2: two ranked lines per depth, different first moves.
    engine.send("setoption name MultiPV value 2");
    engine.send("position startpos");
    engine.send("go depth 2");
    let (_, lines) = engine.best_move(TIMEOUT);
    let depth2: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 2 "))
        .collect();
    assert_eq!(depth2.len(), 2, "{lines:?}");
    assert!(depth2[0].contains(" multipv 1 ") && depth2[1].contains(" multipv 2 "));
    let first = |l: &str| {
        l.split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_owned()
    };
    assert_ne!(first(depth2[0]), first(depth2[1]), "{lines:?}");
    assert!(depth2.iter().all(|l| l.contains(" hashfull ")), "{lines:?}");
    // Chess960: an X-FEN (`KQkq` naming the outer rooks) and castling as king takes rook;
    // the standard form `b1c1` is then the king's step, not the castle.
    engine.send("setoption name MultiPV value 1");
    engine.send("setoption name UCI_Chess960 value true");
    let x_fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    engine.send(&format!("position fen {x_fen} moves b1a1 b8a8"));
    engine.send("go depth 1 searchmoves c1b1");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(
        best, "c1b1",
        "after both castled, the king is on c1: {lines:?}"
    );
    engine.send(&format!("position fen {x_fen}"));
    engine.send("go depth 1 searchmoves b1a1");
    assert_eq!(engine.best_move(TIMEOUT).0, "b1a1");
    engine.send("setoption name UCI_Chess960 value false");
    engine.send("position startpos");
    engine.send("go depth 1");
    engine.best_move(TIMEOUT);
    assert_eq!(engine.quit(), 0);
}

#[test]
fn configuration_from_an_experiment_file() {
    let dir = TempDir::new("uci-config");
    let file = dir.path("engine.toml");
    std::fs::write(
        &file,
        r#"name = "uci-config"
[[games]]
game = "chess"
positions = ["startpos"]
[limits]
depth = 2
[[searchers]]
label = "plain"
algorithm = "alphabeta"
[[searchers]]
label = "strong"
algorithm = "alphabeta"
tt_mb = [4, 8]
ordering = { hint = true, tt_move = true, killers = true, history = true }
quiescence = "unlimited"
null_move = "adaptive"
pvs = true
eval = "shannon"
"#,
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let mut engine = Engine::start(&["--config", path, "--searcher", "strong"]);
    let lines = engine.ask("uci", "uciok");
    let id = &lines[0];
    for part in [
        "[strong]",
        "tt_mb=4",
        "hint+tt_move+killers+history",
        "quiescence=unlimited",
        "pvs",
        "eval=shannon",
    ] {
        assert!(id.contains(part), "`{part}` missing from {id}");
    }
    assert!(
        lines.contains(&"option name Hash type spin default 4 min 1 max 65536".to_string()),
        "{lines:?}"
    );
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go depth 3");
    assert_eq!(engine.best_move(TIMEOUT).0, "a7e7");
    assert_eq!(engine.quit(), 0);

    let (code, _, stderr) = plylab(&["uci", "--config", path, "--searcher", "nobody"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("strong") && stderr.contains("plain"),
        "{stderr}"
    );
    let (code, _, stderr) = plylab(&["uci", "--config", path]);
    assert_eq!(code, 2, "{stderr}");
    // Another game's searcher is refused, not played with the default chess evaluation.
    let learned = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/arena_learn_connect4.toml"
    );
    let (code, _, stderr) = plylab(&["uci", "--config", learned, "--searcher", "learned"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("searcher `learned` searches connect4 there, not chess"),
        "{stderr}"
    );
}

#[test]
fn python_chess_selfplay() {
    if !python_chess("chess, chess.engine", "tests/uci/selfplay.py") {
        return;
    }
    let (ok, stdout, stderr) = python_script("selfplay.py", &[env!("CARGO_BIN_EXE_plylab")]);
    assert!(ok, "selfplay.py failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("ok: 4 games"), "{stdout}");
}

#[test]
fn python_chess_go_points() {
    if !python_chess("chess, chess.engine", "tests/uci/go_points.py") {
        return;
    }
    let (ok, stdout, stderr) = python_script("go_points.py", &[env!("CARGO_BIN_EXE_plylab")]);
    assert!(ok, "go_points.py failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("ok: searchmoves"), "{stdout}");
}

#[test]
fn python_chess_engine_points() {
    if !python_chess("chess, chess.engine", "tests/uci/engine_points.py") {
        return;
    }
    let (ok, stdout, stderr) = python_script("engine_points.py", &[env!("CARGO_BIN_EXE_plylab")]);
    assert!(ok, "engine_points.py failed:\n{stdout}\n{stderr}");
    for point in [
        "multipv",
        "ponderhit",
        "Clear Hash",
        "Chess960",
        "currmove",
        "repetition",
    ] {
        assert!(stdout.contains(point), "{point}: {stdout}");
    }
}

/// Issue 16: the knowledge options. `TablebaseFiles` (a KQK database plylab builds) makes a
/// depth-1 search announce the database's exact mate distance, with `tbhits`, where the
/// plain search sees only material; `BookFile` with `OwnBook` answers `go` with the book's
/// move without searching (within `searchmoves`, and not out of book); a damaged file named
/// by `setoption` is reported and the previous setting kept; an arena file's player brings
/// its database and book (`OwnBook` true), and one that names a damaged book is refused
/// with exit code 2.
/// Builds the KQK database and a Polyglot book (tests/data/book/openings.pgn) in `tmp`;
/// returns their paths.
fn knowledge_files(tmp: &TempDir) -> (std::path::PathBuf, std::path::PathBuf) {
    let tb = tmp.path("KQK.plytb");
    let (code, _, stderr) = plylab(&["tablebase", "build", "chess", "KQK", "--out", &text(&tb)]);
    assert_eq!(code, 0, "{stderr}");
    let book = tmp.path("book.bin");
    let pgn = "tests/data/book/openings.pgn";
    let (code, _, stderr) = plylab(&[
        "book",
        "build",
        "chess",
        "--pgn",
        pgn,
        "--out",
        &text(&book),
    ]);
    assert_eq!(code, 0, "{stderr}");
    (tb, book)
}

fn text(path: &std::path::Path) -> String {
    path.to_str().expect("utf-8").to_owned()
}

#[test]
fn tablebase_and_book_options() {
    let tmp = TempDir::new("uci-knowledge");
    let (tb, book) = knowledge_files(&tmp);
    let (tb_path, book_path) = (&text(&tb), &text(&book));
    // The database's own answer: "win, mate in 13 plies (7 moves)".
    let fen = "1K6/4Q3/8/8/8/8/8/k7 w - - 0 1";
    let (code, probe, _) = plylab(&["tablebase", "probe", tb_path, fen]);
    assert_eq!(code, 0, "{probe}");
    let moves: u32 = probe
        .split_once('(')
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a mate distance in `{probe}`"));

    let mut engine = Engine::start(&[]);
    let uci = engine.ask("uci", "uciok");
    for option in [
        "option name TablebaseFiles type string default <empty>",
        "option name BookFile type string default <empty>",
        "option name OwnBook type check default false",
    ] {
        assert!(uci.iter().any(|l| l == option), "{option}: {uci:?}");
    }
    let last_info = |lines: &[String]| {
        lines
            .iter()
            .rfind(|l| l.starts_with("info depth"))
            .cloned()
            .unwrap_or_default()
    };
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 1");
    let (_, lines) = engine.best_move(TIMEOUT);
    let plain = last_info(&lines);
    assert!(
        plain.contains("score cp") && !plain.contains("tbhits"),
        "{plain}"
    );

    engine.send(&format!("setoption name TablebaseFiles value {tb_path}"));
    engine.send("go depth 1");
    let (_, lines) = engine.best_move(TIMEOUT);
    let probed = last_info(&lines);
    assert!(
        probed.contains(&format!(" score mate {moves} ")),
        "mate in {moves} expected: {probed}"
    );
    let hits: u64 = probed
        .split(" tbhits ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next()?.parse().ok())
        .unwrap_or_default();
    assert!(hits > 0, "{probed}");

    let bytes = std::fs::read(&tb).expect("written");
    let bad = tmp.path("bad.plytb");
    std::fs::write(&bad, &bytes[..bytes.len() / 2]).expect("write");
    let bad_path = bad.to_str().expect("utf-8");
    let lines = engine.ask(
        &format!("setoption name TablebaseFiles value {bad_path}"),
        "info string",
    );
    let said = lines.last().expect("a line");
    assert!(
        said.contains(bad_path) && said.contains("truncated") && said.contains("kept"),
        "{said}"
    );
    engine.send("go depth 1");
    let (_, lines) = engine.best_move(TIMEOUT);
    assert!(
        last_info(&lines).contains(&format!(" score mate {moves} ")),
        "{}",
        engine.log()
    );

    // The book's own answer for the start position, best first: "e2e4 7".
    let (_, listed, _) = plylab(&["book", "probe", book_path, "startpos"]);
    let book_move = listed
        .split_whitespace()
        .next()
        .expect("a book move")
        .to_string();
    engine.send(&format!("setoption name BookFile value {book_path}"));
    engine.send("position startpos");
    engine.send("go depth 2");
    let (_, lines) = engine.best_move(TIMEOUT);
    assert!(!last_info(&lines).is_empty(), "OwnBook false searches");
    engine.ask(
        "setoption name OwnBook value true",
        "info string OwnBook: true",
    );
    engine.send("go depth 2");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(best, book_move, "{}", engine.log());
    assert!(
        last_info(&lines).is_empty()
            && lines
                .iter()
                .any(|l| l.starts_with(&format!("info string book move {book_move}"))),
        "{lines:?}"
    );
    // searchmoves without a book move: searched.
    engine.send("go depth 2 searchmoves g1f3");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(best, "g1f3");
    assert!(!last_info(&lines).is_empty(), "{lines:?}");
    // Out of book: searched.
    engine.send("position startpos moves a2a3 h7h6");
    engine.send("go depth 2");
    let (_, lines) = engine.best_move(TIMEOUT);
    assert!(!last_info(&lines).is_empty(), "{lines:?}");
    let lines = engine.ask(
        &format!("setoption name BookFile value {tb_path}"),
        "info string",
    );
    assert!(
        lines
            .last()
            .expect("a line")
            .contains("not a Polyglot book"),
        "{lines:?}"
    );
    engine.send("position startpos");
    engine.send("go depth 2");
    assert_eq!(
        engine.best_move(TIMEOUT).0,
        book_move,
        "the old book is kept"
    );
    assert_eq!(engine.quit(), 0);

    // Through an arena file (books are an arena player's): the player's book and databases
    // are the defaults, and a damaged file is refused at start.
    let file = tmp.path("engine.toml");
    let player = |label: &str, knowledge: &str| {
        format!(
            "[[searchers]]\nlabel = \"{label}\"\nalgorithm = \"alphabeta\"\n{knowledge}limits = {{ depth = 2 }}\n"
        )
    };
    let text = format!(
        "name = \"k\"\n[match]\ngame = \"chess\"\ngames = 2\n{}{}",
        player("k", "tablebase = \"KQK.plytb\"\nbook = \"book.bin\"\n"),
        player("j", "")
    );
    std::fs::write(&file, text).expect("write");
    let path = file.to_str().expect("utf-8");
    let mut engine = Engine::start(&["--config", path, "--searcher", "k"]);
    let uci = engine.ask("uci", "uciok");
    assert!(
        uci.iter().any(
            |l| l.starts_with("option name TablebaseFiles type string default ")
                && l.ends_with("KQK.plytb")
        ) && uci
            .iter()
            .any(|l| l == "option name OwnBook type check default true"),
        "{uci:?}"
    );
    engine.send("position startpos");
    engine.send("go depth 2");
    assert_eq!(engine.best_move(TIMEOUT).0, book_move);
    assert_eq!(engine.quit(), 0);
    let bytes = std::fs::read(&book).expect("written");
    std::fs::write(&book, &bytes[..bytes.len() - 5]).expect("write");
    let (code, _, stderr) = plylab(&["uci", "--config", path, "--searcher", "k"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("book.bin") && stderr.contains("truncated"),
        "{stderr}"
    );
}

#[test]
fn python_chess_knowledge_options() {
    if !python_chess("chess, chess.engine", "tests/uci/knowledge_points.py") {
        return;
    }
    let tmp = TempDir::new("uci-knowledge-py");
    let (tb, book) = knowledge_files(&tmp);
    let (tb_path, book_path) = (text(&tb), text(&book));
    let (ok, stdout, stderr) = python_script(
        "knowledge_points.py",
        &[env!("CARGO_BIN_EXE_plylab"), &tb_path, &book_path],
    );
    assert!(ok, "knowledge_points.py failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("ok: tablebase") && stdout.contains("ok: book"),
        "{stdout}"
    );
}

#[test]
fn a_ybw_configuration_searches_its_threads_with_young_brothers_wait() {
    let dir = TempDir::new("uci-ybw");
    let file = dir.path("engine.toml");
    std::fs::write(
        &file,
        r#"name = "uci-ybw"
[[games]]
game = "chess"
positions = ["startpos"]
[limits]
depth = 2
[[searchers]]
label = "ybw"
algorithm = "ybw"
tt_mb = 4
ordering = { hint = true, tt_move = true }
"#,
    )
    .unwrap();
    let mut engine = Engine::start(&["--config", file.to_str().unwrap(), "--searcher", "ybw"]);
    engine.ask("uci", "uciok");
    engine.send("setoption name Threads value 3");
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    engine.send("go depth 4");
    let (best, lines) = engine.best_move(TIMEOUT);
    assert_eq!(best, "a7e7", "{}", engine.log());
    assert!(
        lines.contains(&"info string Young Brothers Wait on 3 threads".to_string()),
        "{lines:?}"
    );
    assert_eq!(engine.quit(), 0);
}
