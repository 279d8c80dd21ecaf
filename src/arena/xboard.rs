//! A chess engine speaking the Chess Engine Communication Protocol (xboard/CECP, Tim Mann
//! and H. G. Muller, version 2: <https://www.gnu.org/software/xboard/engine-intf.html>), as a
//! player beside UCI engines: Fairy-Max, GNU Chess in xboard mode, Crafty.
//!
//! The client is stateless between moves, like [`super::engine::UciEngine`]'s `position`
//! command: every [`XboardEngine::go`] sends `new` and `force`, sets the opening up
//! (`setboard FEN` where the engine announced `setboard=1`, otherwise the protocol's `edit`
//! mode, which has no castling or en-passant fields: rights follow from kings and rooks on
//! their home squares), replays the game's moves, sets the limits and sends `go`, then
//! reads `move MOVE`. Replaying the moves gives the engine the game's history (repetitions);
//! the price, a lost hash table between moves for engines that clear it on `new`, is the
//! engine's usual cost of a new game.
//!
//! Handshake: `xboard`, `protover 2`, and the `feature` lines up to `done=1` (within the
//! start timeout: an engine of protocol version 1, which sends none, is refused). Features
//! are accepted except `san=1` (moves are exchanged in coordinate notation, `e2e4`,
//! `e7e8q`, castling as the king's move); with `usermove=1` moves are sent as `usermove
//! MOVE`. Options of the arena file are sent as `option NAME=VALUE` and must be among the
//! engine's `feature option="NAME -type ..."` lines: a name it does not declare is an
//! error, not silently ignored. `ping N`/`pong N` (where announced) checks that the engine
//! took the position and moves before `go`; an `Illegal move` or `Error` answer meanwhile
//! is a protocol error.
//!
//! Limits: depth as `sd D`, a time per move as `st S` (whole seconds, rounded up: the
//! protocol has no finer unit), a clock as `level 0 M:SS INC` (the time left) or, for a
//! repeating control, `level MPS M:SS INC` (the period's moves and base time), with `time`
//! and `otim` in centiseconds. A depth alone goes with `st` of [`DEPTH_ONLY_ST`] seconds: the
//! protocol has no unlimited time, and an engine left on its own default control may cut
//! the search short (Fairy-Max 5.0 stopped at depth 1 in half of its first searches).
//! Nodes have no xboard command and are refused. Thinking output (`post`):
//! `PLY SCORE TIME NODES PV`, the score in centipawns from the side to move's view; the last
//! such line gives the reply's depth, score and nodes.

use std::time::{Duration, Instant};

use super::engine::{
    Clock, EngineError, EngineReply, EngineScore, EngineSpec, Go, Protocol, UciEngine, one_line,
};
use super::process::{Deadline, EngineProcess};

/// The FEN of the initial position: a game from it starts with `new` alone.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What the engine announced in its `feature` lines.
#[derive(Debug, Default)]
struct Features {
    setboard: bool,
    usermove: bool,
    ping: bool,
    /// The names of its `option` features.
    options: Vec<String>,
}

/// A running xboard engine, driven by one caller one command at a time.
#[derive(Debug)]
pub struct XboardEngine {
    process: EngineProcess,
    features: Features,
    /// The next `ping` number.
    ping: u32,
}

impl XboardEngine {
    /// Runs `spec.cmd` with `spec.args`, negotiates the features (see the module
    /// documentation) and sends the options of `spec`, all within `timeout`.
    ///
    /// # Errors
    /// [`EngineError::Spawn`], [`EngineError::Crashed`] or [`EngineError::Hung`] (no
    /// `done=1` in time), [`EngineError::BadRequest`] for an option the engine does not
    /// declare or text with a line break.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Self, EngineError> {
        let deadline = Deadline::new(timeout);
        let mut engine = Self {
            process: EngineProcess::spawn(&spec.cmd, &spec.args, "xboard-engine-reader")?,
            features: Features::default(),
            ping: 0,
        };
        engine.send("xboard")?;
        engine.send("protover 2")?;
        let mut replies = Vec::new();
        let mut features = Features::default();
        let mut name = None;
        engine
            .process
            .wait_for(&deadline, "feature done=1", |line| {
                let mut done = false;
                for (key, value) in feature_pairs(line) {
                    let wanted = key != "san" || value == "0";
                    match (key.as_str(), value.as_str()) {
                        ("done", "1") => done = true,
                        ("done", _) => {}
                        ("setboard", v) => features.setboard = v == "1",
                        ("usermove", v) => features.usermove = v == "1",
                        ("ping", v) => features.ping = v == "1",
                        ("myname", v) => name = Some(v.to_owned()),
                        ("option", v) => features
                            .options
                            .extend(v.split(" -").next().map(|n| n.trim().to_owned())),
                        _ => {}
                    }
                    if key != "done" {
                        let verdict = if wanted { "accepted" } else { "rejected" };
                        replies.push(format!("{verdict} {key}"));
                    }
                }
                done.then_some(())
            })?;
        for reply in &replies {
            engine.send(reply)?;
        }
        engine.features = features;
        if let Some(name) = name {
            engine.process.name = name;
        }
        for (option, value) in &spec.options {
            one_line("option", option)?;
            one_line("option value", value)?;
            if !engine.features.options.iter().any(|o| o == option) {
                return Err(EngineError::BadRequest {
                    message: format!(
                        "`{}` declares no option `{option}` (its options: {})",
                        engine.process.name,
                        engine.features.options.join(", ")
                    ),
                });
            }
            engine.send(&if value.is_empty() {
                format!("option {option}")
            } else {
                format!("option {option}={value}")
            })?;
        }
        // No pondering, thinking output on.
        engine.send("easy")?;
        engine.send("post")?;
        engine.sync(&deadline)?;
        Ok(engine)
    }

    /// The engine's `myname`, or its command if it gave none.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.process.name
    }

    /// The engine's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// The traffic logged since the last call: lines sent, read and written to standard
    /// error, with the seconds since the process started (the arena's per-game engine log).
    #[must_use]
    pub fn take_log(&self) -> Vec<String> {
        self.process.take_log()
    }

    /// Starts a new game (`new`, `force`) and waits for the engine within `timeout`.
    ///
    /// # Errors
    /// [`EngineError::Crashed`] or [`EngineError::Hung`].
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let deadline = Deadline::new(timeout);
        self.send("new")?;
        self.send("force")?;
        self.sync(&deadline)
    }

    /// Sets the game up (the opening `fen`, `None` for the initial position, and the
    /// `moves` since, in UCI text), sends the limits of `go` and `go`, and waits for `move`
    /// within `timeout`.
    ///
    /// # Errors
    /// [`EngineError::BadRequest`] for a `go` with nodes or without limits, or text with a
    /// line break (nothing is sent); [`EngineError::Protocol`] for a refused move or
    /// position or a resignation; [`EngineError::Crashed`] or
    /// [`EngineError::Hung`].
    pub fn go(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        go: &Go,
        timeout: Duration,
    ) -> Result<EngineReply, EngineError> {
        let limits = limit_commands(go, fen, moves.len())?;
        for text in fen.iter().copied().chain(moves.iter().map(String::as_str)) {
            one_line("position", text)?;
        }
        // The set-up has the whole timeout, and the move its own from `go`: the set-up is
        // the arena's time, not the engine's (as [`EngineReply::elapsed`] counts).
        let setup = Deadline::new(timeout);
        self.send("new")?;
        self.send("force")?;
        match fen.map(str::trim) {
            None | Some(START_FEN) => {}
            Some(fen) if self.features.setboard => self.send(&format!("setboard {fen}"))?,
            Some(fen) => {
                for command in edit_commands(fen)? {
                    self.send(&command)?;
                }
            }
        }
        for mv in moves {
            let command = if self.features.usermove {
                format!("usermove {mv}")
            } else {
                mv.clone()
            };
            self.send(&command)?;
        }
        for command in &limits {
            self.send(command)?;
        }
        self.sync(&setup)?;
        let deadline = Deadline::new(timeout);
        let started = Instant::now();
        self.send("go")?;
        let mut report = Thinking::default();
        let answer = self.process.wait_for(&deadline, "move", |line| {
            report.read(line);
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("move"), Some(mv)) => Some(Ok(mv.to_owned())),
                (Some("resign"), _) => Some(Err(format!("`{line}`: the engine resigned"))),
                (Some(w), _) if refusal(w) => Some(Err(format!("`{line}` after `go`"))),
                _ => None,
            }
        })?;
        let elapsed = started.elapsed();
        // Back to force mode, so that the engine does not think on while idle.
        self.send("force")?;
        let best_move = answer.map_err(|message| EngineError::Protocol { message })?;
        Ok(EngineReply {
            best_move,
            depth: report.depth,
            nodes: report.nodes,
            score: report.score.map(EngineScore::Cp),
            elapsed,
        })
    }

    /// Sends `quit`, waits briefly for the engine to exit, and kills it if it has not.
    pub fn quit(mut self) {
        self.process.shut_down();
    }

    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.process.send(command)
    }

    /// `ping N` and its `pong N` (where the engine has `ping`), failing on an `Illegal
    /// move` or `Error` answer meanwhile.
    fn sync(&mut self, deadline: &Deadline) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.send(&format!("ping {}", self.ping))?;
        let answer = self.process.wait_for(deadline, &pong, |line| {
            let line = line.trim();
            if line == pong {
                Some(Ok(()))
            } else {
                let first = line.split([' ', ':', '(']).next().unwrap_or_default();
                refusal(first).then(|| Err(line.to_owned()))
            }
        })?;
        answer.map_err(|line| EngineError::Protocol {
            message: format!("the engine refused the position or a move: `{line}`"),
        })
    }
}

/// An external chess engine of either protocol, as the arena plays it: the methods of
/// [`UciEngine`] and [`XboardEngine`], chosen by [`EngineSpec::protocol`].
#[derive(Debug)]
pub enum ChessEngine {
    /// A UCI engine.
    Uci(UciEngine),
    /// An xboard engine.
    Xboard(XboardEngine),
}

impl ChessEngine {
    /// Starts the engine of `spec` with its protocol's handshake ([`UciEngine::start`],
    /// [`XboardEngine::start`]).
    ///
    /// # Errors
    /// As those.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Self, EngineError> {
        Ok(match spec.protocol {
            Protocol::Uci => Self::Uci(UciEngine::start(spec, timeout)?),
            Protocol::Xboard => Self::Xboard(XboardEngine::start(spec, timeout)?),
        })
    }

    /// The engine's name (UCI `id name`, xboard `myname`), or its command.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Self::Uci(e) => e.name(),
            Self::Xboard(e) => e.name(),
        }
    }

    /// The engine's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        match self {
            Self::Uci(e) => e.pid(),
            Self::Xboard(e) => e.pid(),
        }
    }

    /// The traffic logged since the last call ([`UciEngine::take_log`]).
    #[must_use]
    pub fn take_log(&self) -> Vec<String> {
        match self {
            Self::Uci(e) => e.take_log(),
            Self::Xboard(e) => e.take_log(),
        }
    }

    /// Starts a new game ([`UciEngine::new_game`], [`XboardEngine::new_game`]).
    ///
    /// # Errors
    /// As those.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        match self {
            Self::Uci(e) => e.new_game(timeout),
            Self::Xboard(e) => e.new_game(timeout),
        }
    }

    /// Asks for a move ([`UciEngine::go`], [`XboardEngine::go`]).
    ///
    /// # Errors
    /// As those.
    pub fn go(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        go: &Go,
        timeout: Duration,
    ) -> Result<EngineReply, EngineError> {
        match self {
            Self::Uci(e) => e.go(fen, moves, go, timeout),
            Self::Xboard(e) => e.go(fen, moves, go, timeout),
        }
    }

    /// Ends the engine ([`UciEngine::quit`], [`XboardEngine::quit`]).
    pub fn quit(self) {
        match self {
            Self::Uci(e) => e.quit(),
            Self::Xboard(e) => e.quit(),
        }
    }
}

/// Whether a line starting with `word` refuses a command (`Illegal move: ...`, `Error
/// (...): ...`).
fn refusal(word: &str) -> bool {
    matches!(word, "Illegal" | "Error")
}

/// The `key=value` pairs of a `feature` line (values may be quoted); none for other lines.
fn feature_pairs(line: &str) -> Vec<(String, String)> {
    let Some(rest) = line.trim().strip_prefix("feature ") else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    let mut rest = rest.trim_start();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key.trim().to_owned();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            quoted.split_once('"').unwrap_or((quoted, ""))
        } else {
            after.split_once(' ').unwrap_or((after, ""))
        };
        pairs.push((key, value.to_owned()));
        rest = next.trim_start();
    }
    pairs
}

/// The time per move sent with a depth limit alone (`st`, seconds): a day, so that the
/// depth, not the engine's default clock, ends the search.
pub const DEPTH_ONLY_ST: u64 = 86_400;

/// The commands setting the limits of `go`: `sd`, `st`, or `level` with `time` and `otim`.
/// The side to move follows from the opening's side and the number of moves played.
fn limit_commands(go: &Go, fen: Option<&str>, played: usize) -> Result<Vec<String>, EngineError> {
    if go.nodes.is_some() {
        return Err(EngineError::BadRequest {
            message: "xboard engines take no node limit: use depth, time_ms or tc".to_owned(),
        });
    }
    let mut commands = Vec::new();
    if let Some(depth) = go.depth {
        commands.push(format!("sd {depth}"));
    }
    if let Some(t) = go.movetime {
        commands.push(format!("st {}", t.as_millis().div_ceil(1000).max(1)));
    }
    if let Some(Clock {
        wtime,
        btime,
        winc,
        binc,
        period,
    }) = go.clock
    {
        let black_opens = fen.is_some_and(|f| f.split_whitespace().nth(1) == Some("b"));
        let white = played.is_multiple_of(2) != black_opens;
        let (own, other, inc) = if white {
            (wtime, btime, winc)
        } else {
            (btime, wtime, binc)
        };
        // A repeating control is `level MPS BASE INC` with the period's base (the engine
        // counts the moves to the next period from the game's move number); one period is
        // `level 0 ...` with the time left, `time` saying the rest.
        let (mps, base) = period.map_or((0, own), |p| (p.moves, p.base));
        let secs = base.as_secs().max(1);
        commands.push(format!(
            "level {mps} {}:{:02} {}",
            secs / 60,
            secs % 60,
            inc.as_secs_f64()
        ));
        commands.push(format!("time {}", own.as_millis() / 10));
        commands.push(format!("otim {}", other.as_millis() / 10));
    }
    if commands.len() == 1 && go.depth.is_some() {
        commands.push(format!("st {DEPTH_ONLY_ST}"));
    }
    if commands.is_empty() {
        return Err(EngineError::BadRequest {
            message: "`go` without a depth, time or clock would never end".to_owned(),
        });
    }
    Ok(commands)
}

/// The `edit` commands that set `fen` up on an engine without `setboard` (after `new` and
/// `force`): for Black to move, a White move first (the protocol's own recipe: `edit` does
/// not change the side to move), then `edit`, `#` (clear), White's pieces, `c`, Black's,
/// `.`.
fn edit_commands(fen: &str) -> Result<Vec<String>, EngineError> {
    let bad = || EngineError::BadRequest {
        message: format!("cannot set up `{fen}` in xboard edit mode"),
    };
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or_else(bad)?;
    let side = fields.next().ok_or_else(bad)?;
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (r, rank) in placement.split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
                continue;
            }
            if file > 7 || r > 7 {
                return Err(bad());
            }
            let square = format!("{}{}", char::from(b'a' + file), 8 - r);
            let piece = c.to_ascii_uppercase();
            if c.is_ascii_uppercase() {
                white.push(format!("{piece}{square}"));
            } else {
                black.push(format!("{piece}{square}"));
            }
            file += 1;
        }
    }
    let mut commands = Vec::new();
    if side == "b" {
        commands.push("a2a3".to_owned());
    }
    commands.extend(["edit".to_owned(), "#".to_owned()]);
    commands.extend(white);
    commands.push("c".to_owned());
    commands.extend(black);
    commands.push(".".to_owned());
    Ok(commands)
}

/// The last thinking line of a search (`PLY SCORE TIME NODES PV`).
#[derive(Debug, Default)]
struct Thinking {
    depth: Option<u32>,
    score: Option<i32>,
    nodes: Option<u64>,
}

impl Thinking {
    /// Reads a thinking line; other lines are left alone.
    fn read(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let (Some(ply), Some(score), Some(_time), Some(nodes)) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return;
        };
        // Some engines mark fail highs and lows with a trailing `+`/`-` on the depth.
        let ply = ply.trim_end_matches(['+', '-', '.']);
        if let (Ok(ply), Ok(score), Ok(nodes)) = (ply.parse(), score.parse(), nodes.parse()) {
            self.depth = Some(ply);
            self.score = Some(score);
            self.nodes = Some(nodes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_read_with_quotes() {
        let pairs = feature_pairs(r#"feature myname="Fairy-Max 5.0b" setboard=0 ping=1 done=0"#);
        let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["myname", "setboard", "ping", "done"]);
        assert_eq!(pairs[0].1, "Fairy-Max 5.0b");
        let option = feature_pairs(r#"feature option="Resign Threshold -spin 800 200 1200""#);
        assert_eq!(option[0].1, "Resign Threshold -spin 800 200 1200");
        assert!(feature_pairs("tellics say Fairy-Max").is_empty());
    }

    #[test]
    fn limits_and_setup() {
        let clock = Go {
            clock: Some(Clock {
                wtime: Duration::from_millis(61_500),
                btime: Duration::from_millis(30_000),
                winc: Duration::from_secs(1),
                binc: Duration::from_secs(2),
                period: None,
            }),
            ..Go::default()
        };
        // Black to move after one move from the start: Black's clock is its own.
        assert_eq!(
            limit_commands(&clock, None, 1).unwrap(),
            ["level 0 0:30 2", "time 3000", "otim 6150"]
        );
        // 40/60+0.5: the period's base, the time left in `time`.
        let periodic = Go {
            clock: Some(Clock {
                wtime: Duration::from_millis(12_340),
                btime: Duration::from_secs(20),
                winc: Duration::from_millis(500),
                binc: Duration::from_millis(500),
                period: Some(super::super::engine::Period {
                    moves: 40,
                    base: Duration::from_secs(60),
                    to_go: 7,
                }),
            }),
            ..Go::default()
        };
        assert_eq!(
            limit_commands(&periodic, None, 0).unwrap(),
            ["level 40 1:00 0.5", "time 1234", "otim 2000"]
        );
        let st = Go {
            movetime: Some(Duration::from_millis(1200)),
            depth: Some(5),
            ..Go::default()
        };
        assert_eq!(limit_commands(&st, None, 0).unwrap(), ["sd 5", "st 2"]);
        let depth = Go {
            depth: Some(3),
            ..Go::default()
        };
        assert_eq!(
            limit_commands(&depth, None, 0).unwrap(),
            ["sd 3", &format!("st {DEPTH_ONLY_ST}")]
        );
        let nodes = Go {
            nodes: Some(100),
            ..Go::default()
        };
        assert!(limit_commands(&nodes, None, 0).is_err());
        assert!(limit_commands(&Go::default(), None, 0).is_err());
        let edit = edit_commands("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        assert_eq!(edit, ["a2a3", "edit", "#", "Pe2", "Ke1", "c", "Ke8", "."]);
    }

    /// The module documentation's "Nodes have no xboard command and are refused", beside
    /// limits the protocol has too.
    #[test]
    fn a_node_limit_is_refused_beside_other_limits() {
        let go = Go {
            nodes: Some(1000),
            depth: Some(4),
            movetime: Some(Duration::from_secs(2)),
            ..Go::default()
        };
        let err = limit_commands(&go, None, 0).unwrap_err();
        assert!(
            matches!(&err, EngineError::BadRequest { message } if message.contains("no node limit")),
            "{err}"
        );
    }

    /// `edit_commands` names only squares of the board: a placement with a ninth file or
    /// a ninth rank, or a FEN without its side to move, cannot be set up in edit mode.
    #[test]
    fn placements_off_the_board_or_without_a_side_cannot_be_set_up() {
        for fen in [
            "4k3/8/8/8/8/8/8/8K w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3/R7 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3",
        ] {
            let err = edit_commands(fen).expect_err(fen);
            assert!(
                matches!(&err, EngineError::BadRequest { message } if message.contains("edit mode")),
                "{fen}: {err}"
            );
        }
    }

    #[test]
    fn thinking_lines() {
        let mut t = Thinking::default();
        t.read(" 4      0        0       1171 d2d4 d7d5 b1c3 b8c6");
        t.read("# times @ 148477318: real=42 cpu=0");
        assert_eq!((t.depth, t.score, t.nodes), (Some(4), Some(0), Some(1171)));
    }
}
