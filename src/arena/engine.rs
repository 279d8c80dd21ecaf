//! A client for external chess engines that speak UCI, the Universal Chess Interface (Stefan
//! Meyer-Kahlen and Rudolf Huber, 2000;
//! <https://www.shredderchess.com/chess-features/uci-universal-chess-interface.html>), so
//! that an arena can play them against plylab's searchers or against each other.
//!
//! [`UciEngine::start`] runs the engine's command with piped standard input and output
//! (standard error is discarded), does the handshake (`uci` … `uciok`, every `setoption`,
//! `isready` … `readyok`) and records `id name`. [`UciEngine::go`] sends `position` and `go`
//! and waits for `bestmove`, keeping the last search report of the `info` lines. A reader
//! thread forwards the engine's output line by line over a channel, so every wait has a
//! deadline: an engine that does not answer in time has hung and is killed; an engine whose
//! output ends has crashed. Either way it is then dead, and every later call returns
//! [`EngineError::Crashed`]. Output is never trusted: lines that are not valid UTF-8 are read
//! lossily, very long lines are split, unknown lines and unknown `info` fields are ignored.
//!
//! The caller picks every timeout. A sensible one for [`UciEngine::go`] is the time the move
//! may take (its `movetime`, or the mover's clock time plus increment) plus a margin for the
//! process and the pipes (a second or two on a busy machine); for depth and node limits, a
//! generous bound on what the search can take. The engine is sent `quit` and, if it has not
//! exited after [`QUIT_GRACE`], killed, when it is dropped or [`UciEngine::quit`] is called.
//! An engine started through a wrapper (a shell script) that runs the real engine as a child
//! is only killed at the wrapper: use `exec` in such scripts.

use std::fmt;
use std::time::{Duration, Instant};

use serde::de::{self, Deserializer, MapAccess, Visitor};

use super::process::{Deadline, EngineProcess};
pub use super::process::{EngineError, QUIT_GRACE};

/// How to run an engine, as an experiment file writes it:
/// `engine = { cmd = "stockfish", args = [], options = { Threads = 1, Hash = "16" } }`.
///
/// `cmd` is a path or a name looked up in `PATH`. Option values may be written as strings,
/// numbers or booleans; they are sent as text (`true`, `16`, `0.5`). Options are sent in the
/// order the TOML reader gives them, which (the `toml` crate without `preserve_order`) is the
/// names' alphabetical order, not the file's.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// UCI options as (name, value), each sent as `setoption name NAME value VALUE` (or
    /// `setoption name NAME` when the value is empty, which presses a button option).
    #[serde(default, deserialize_with = "option_table")]
    pub options: Vec<(String, String)>,
    /// The protocol it speaks: `"uci"` (the default) or `"xboard"` (CECP version 2,
    /// [`super::xboard`]; its options are sent as `option NAME=VALUE`).
    #[serde(default)]
    pub protocol: Protocol,
}

/// The protocol of an external chess engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// UCI ([`UciEngine`]).
    #[default]
    Uci,
    /// xboard/CECP ([`super::xboard::XboardEngine`]).
    Xboard,
}

/// The limits of one `go`. At least one must be set: a bare `go` searches until `stop`,
/// which this client never sends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `go depth`: the deepest iteration, in plies.
    pub depth: Option<u32>,
    /// `go nodes`: the most nodes to search.
    pub nodes: Option<u64>,
    /// `go movetime`: the time for this move (sent in whole milliseconds, at least 1).
    pub movetime: Option<Duration>,
    /// `go wtime btime winc binc`: both players' clocks.
    pub clock: Option<Clock>,
}

/// Both players' clocks for `go` (sent in whole milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's time left.
    pub wtime: Duration,
    /// Black's time left.
    pub btime: Duration,
    /// White's increment per move.
    pub winc: Duration,
    /// Black's increment per move.
    pub binc: Duration,
    /// The mover's period of a repeating time control (`40/60`): UCI's `movestogo`,
    /// xboard's `level MPS BASE INC`. `None` for one period (the whole game).
    pub period: Option<Period>,
}

/// A period of a repeating time control, from the mover's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Period {
    /// Moves per period.
    pub moves: u32,
    /// Time given at the start of each period.
    pub base: Duration,
    /// The mover's moves left in the current period, this one included (UCI `movestogo`).
    pub to_go: u32,
}

/// A score as an engine reports it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// `score cp X`: centipawns.
    Cp(i32),
    /// `score mate N`: mate in N moves (not plies), negative when the side to move is mated.
    Mate(i32),
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineReply {
    /// The move of `bestmove`, in UCI text as the engine wrote it (`e2e4`, `e7e8q`); checked
    /// for the form of a move (two squares and an optional promotion letter), not for legality.
    pub best_move: String,
    /// The depth of the last search report (see [`EngineReply::score`]).
    pub depth: Option<u32>,
    /// The last node count given by any `info` line.
    pub nodes: Option<u64>,
    /// The score of the last search report: the last `info` line with an exact score
    /// (`lowerbound` and `upperbound` scores are skipped) for the first principal variation
    /// (no `multipv`, or `multipv 1`). `info string` lines are never read.
    pub score: Option<EngineScore>,
    /// Wall-clock time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// A running UCI engine, driven by one caller one command at a time: it may be moved to
/// another thread (`Send`) but not shared (not `Sync`).
pub struct UciEngine {
    /// The command, as given (the name when the engine gives no `id name`).
    cmd: String,
    /// The process, named by `id name` or the command.
    process: EngineProcess,
}

impl UciEngine {
    /// Runs `spec.cmd` with `spec.args`, sends `uci` and waits for `uciok` (recording
    /// `id name`), sends every option of `spec`, then `isready` and waits for `readyok`; the
    /// whole handshake must finish within `timeout`.
    ///
    /// # Errors
    /// [`EngineError::Spawn`] when the command cannot run, [`EngineError::BadRequest`] for an
    /// option with a line break or one the engine's `option name` lines do not declare (the
    /// engine is then ended), [`EngineError::Crashed`] or [`EngineError::Hung`] when the
    /// engine exits or does not finish the handshake in time (it is then killed).
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Self, EngineError> {
        for (name, value) in &spec.options {
            one_line("option", name)?;
            one_line("option value", value)?;
        }
        let deadline = Deadline::new(timeout);
        let mut engine = Self {
            cmd: spec.cmd.clone(),
            process: EngineProcess::spawn(&spec.cmd, &spec.args, "uci-engine-reader")?,
        };
        engine.send("uci")?;
        let mut name = None;
        let mut declared = Vec::new();
        engine.wait_for(&deadline, "uciok", |line| {
            if let Some(id) = id_name(line) {
                name = Some(id);
            }
            declared.extend(option_name(line));
            (first_word(line) == Some("uciok")).then_some(())
        })?;
        if let Some(name) = name {
            engine.process.name = name;
        }
        // A misspelt option would be ignored by the engine (or answered on a line no one
        // reads): refuse it, as cutechess-cli does. UCI option names are case-insensitive.
        if let Some((option, _)) = spec
            .options
            .iter()
            .find(|(o, _)| !declared.iter().any(|d| d.eq_ignore_ascii_case(o)))
        {
            return Err(EngineError::BadRequest {
                message: format!(
                    "`{}` declares no option `{option}` (its options: {})",
                    engine.process.name,
                    declared.join(", ")
                ),
            });
        }
        for (name, value) in &spec.options {
            engine.send(&set_option(name, value))?;
        }
        engine.ready(&deadline)?;
        Ok(engine)
    }

    /// The engine's `id name`, or its command if it gave none.
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

    /// Sends `ucinewgame`, then `isready`, and waits for `readyok` within `timeout`.
    ///
    /// # Errors
    /// [`EngineError::Crashed`] or [`EngineError::Hung`] (the engine is then killed).
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let deadline = Deadline::new(timeout);
        self.send("ucinewgame")?;
        self.ready(&deadline)
    }

    /// Sends `position fen FEN moves ...` (`position startpos moves ...` when `fen` is
    /// `None`; no `moves` when there are none) and `go` with the limits of `go`, then waits
    /// for `bestmove` within `timeout`: see the module documentation for choosing it.
    ///
    /// # Errors
    /// [`EngineError::BadRequest`] for a `go` without limits or text with a line break
    /// (nothing is sent), [`EngineError::NoMove`] for `bestmove (none)` or `0000`,
    /// [`EngineError::Protocol`] for a malformed `bestmove`, [`EngineError::Crashed`] or
    /// [`EngineError::Hung`] (the engine is then killed).
    pub fn go(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        go: &Go,
        timeout: Duration,
    ) -> Result<EngineReply, EngineError> {
        let position = position_command(fen, moves)?;
        let go_command = go_command(go)?;
        let deadline = Deadline::new(timeout);
        self.send(&position)?;
        let started = Instant::now();
        self.send(&go_command)?;
        let mut report = Report::default();
        let line = self.wait_for(&deadline, "bestmove", |line| {
            report.read(line);
            (first_word(line) == Some("bestmove")).then(|| line.to_owned())
        })?;
        let elapsed = started.elapsed();
        Ok(EngineReply {
            best_move: best_move(&line)?,
            depth: report.depth,
            nodes: report.nodes,
            score: report.score,
            elapsed,
        })
    }

    /// Sends `quit`, waits up to [`QUIT_GRACE`] for the engine to exit, and kills it if it
    /// has not. Dropping the engine does the same.
    pub fn quit(mut self) {
        self.process.shut_down();
    }

    /// Writes one command line.
    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.process.send(command)
    }

    /// Sends `isready` and waits for `readyok`.
    fn ready(&mut self, deadline: &Deadline) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for(deadline, "readyok", |line| {
            (first_word(line) == Some("readyok")).then_some(())
        })
    }

    /// Reads lines until `answer` returns a value for one, before the deadline.
    fn wait_for<T>(
        &mut self,
        deadline: &Deadline,
        expected: &str,
        answer: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, EngineError> {
        self.process.wait_for(deadline, expected, answer)
    }
}

impl fmt::Debug for UciEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UciEngine")
            .field("cmd", &self.cmd)
            .field("process", &self.process)
            .finish_non_exhaustive()
    }
}

/// The first whitespace-separated word of a line (UCI allows any whitespace between tokens).
fn first_word(line: &str) -> Option<&str> {
    line.split_whitespace().next()
}

/// The name of an `id name NAME` line.
fn id_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("id") || words.next() != Some("name") {
        return None;
    }
    let name = words.collect::<Vec<_>>().join(" ");
    (!name.is_empty()).then_some(name)
}

/// The name of an `option name NAME type ...` line (names may hold spaces).
fn option_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("option") || words.next() != Some("name") {
        return None;
    }
    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
    (!name.is_empty()).then(|| name.join(" "))
}

/// [`EngineError::BadRequest`] if `text` would break the line-based protocol.
pub(super) fn one_line(what: &str, text: &str) -> Result<(), EngineError> {
    if text.contains(['\n', '\r']) {
        return Err(EngineError::BadRequest {
            message: format!("{what} `{}` contains a line break", text.escape_debug()),
        });
    }
    Ok(())
}

/// `setoption name NAME value VALUE`, or `setoption name NAME` for an empty value.
fn set_option(name: &str, value: &str) -> String {
    if value.is_empty() {
        format!("setoption name {name}")
    } else {
        format!("setoption name {name} value {value}")
    }
}

/// `position startpos|fen FEN [moves M1 M2 ...]`.
fn position_command(fen: Option<&str>, moves: &[String]) -> Result<String, EngineError> {
    let mut command = match fen.map(str::trim) {
        None => "position startpos".to_owned(),
        Some("") => {
            return Err(EngineError::BadRequest {
                message: "an empty FEN".to_owned(),
            });
        }
        Some(fen) => {
            one_line("FEN", fen)?;
            format!("position fen {fen}")
        }
    };
    if !moves.is_empty() {
        command.push_str(" moves");
    }
    for mv in moves {
        if mv.is_empty() || mv.contains(char::is_whitespace) {
            return Err(EngineError::BadRequest {
                message: format!("move `{}` is empty or contains spaces", mv.escape_debug()),
            });
        }
        command.push(' ');
        command.push_str(mv);
    }
    Ok(command)
}

/// `go depth D nodes N movetime MS wtime MS btime MS winc MS binc MS movestogo N` (the
/// limits given).
fn go_command(go: &Go) -> Result<String, EngineError> {
    let ms = |d: Duration| d.as_millis().to_string();
    let mut words = vec!["go".to_owned()];
    let mut limit = |name: &str, value: String| words.extend([name.to_owned(), value]);
    if let Some(depth) = go.depth {
        limit("depth", depth.to_string());
    }
    if let Some(nodes) = go.nodes {
        limit("nodes", nodes.to_string());
    }
    if let Some(movetime) = go.movetime {
        limit("movetime", ms(movetime.max(Duration::from_millis(1))));
    }
    if let Some(c) = go.clock {
        limit("wtime", ms(c.wtime));
        limit("btime", ms(c.btime));
        limit("winc", ms(c.winc));
        limit("binc", ms(c.binc));
        if let Some(p) = c.period {
            limit("movestogo", p.to_go.to_string());
        }
    }
    if words.len() == 1 {
        return Err(EngineError::BadRequest {
            message: "`go` without a depth, nodes, movetime or clock would never end".to_owned(),
        });
    }
    Ok(words.join(" "))
}

/// The move of a `bestmove MOVE [ponder MOVE]` line.
fn best_move(line: &str) -> Result<String, EngineError> {
    let text = line.split_whitespace().nth(1).unwrap_or_default();
    match text {
        "(none)" | "0000" => Err(EngineError::NoMove),
        _ if is_uci_move(text) => Ok(text.to_owned()),
        _ => Err(EngineError::Protocol {
            message: format!("`{line}` does not name a move in UCI text (like e2e4 or e7e8q)"),
        }),
    }
}

/// Whether `text` has the form of a UCI move: two squares and an optional promotion letter.
fn is_uci_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"qrbn".contains(&b[4]),
        _ => false,
    }
}

/// The search report kept from a `go`'s `info` lines (see [`EngineReply`]).
#[derive(Debug, Default, PartialEq, Eq)]
struct Report {
    depth: Option<u32>,
    nodes: Option<u64>,
    score: Option<EngineScore>,
}

impl Report {
    /// Takes what it needs from one output line; ignores anything that is not `info`.
    fn read(&mut self, line: &str) {
        let Some(info) = Info::parse(line) else {
            return;
        };
        if info.nodes.is_some() {
            self.nodes = info.nodes;
        }
        let main_line = info.multipv.is_none_or(|k| k == 1);
        if let (Some(score), false, true) = (info.score, info.bound, main_line) {
            self.score = Some(score);
            self.depth = info.depth.or(self.depth);
        }
    }
}

/// The fields of one `info` line that the client reads.
#[derive(Debug, Default, PartialEq, Eq)]
struct Info {
    depth: Option<u32>,
    nodes: Option<u64>,
    multipv: Option<u32>,
    score: Option<EngineScore>,
    /// The score is a `lowerbound` or an `upperbound`.
    bound: bool,
}

impl Info {
    /// Reads an `info` line: unknown words are skipped, a value that does not parse counts
    /// as absent, and `string` ends the line (free text follows it).
    fn parse(line: &str) -> Option<Self> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = Self::default();
        while let Some(word) = words.next() {
            match word {
                "depth" => info.depth = words.next().and_then(|w| w.parse().ok()),
                "nodes" => info.nodes = words.next().and_then(|w| w.parse().ok()),
                "multipv" => info.multipv = words.next().and_then(|w| w.parse().ok()),
                "score" => info.score = parse_score(&mut words),
                "lowerbound" | "upperbound" => info.bound = true,
                "string" => break,
                _ => {}
            }
        }
        Some(info)
    }
}

/// `cp X` or `mate N`, after `score`.
fn parse_score<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<EngineScore> {
    let kind = words.next()?;
    let value = words.next()?.parse().ok()?;
    match kind {
        "cp" => Some(EngineScore::Cp(value)),
        "mate" => Some(EngineScore::Mate(value)),
        _ => None,
    }
}

/// Reads the `options` table: option names to strings, numbers or booleans, as text.
fn option_table<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    d.deserialize_map(OptionTable)
}

/// The visitor for [`option_table`].
struct OptionTable;

impl<'de> Visitor<'de> for OptionTable {
    type Value = Vec<(String, String)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of UCI option names and values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut options = Vec::new();
        while let Some((name, OptionValue(value))) = map.next_entry::<String, OptionValue>()? {
            options.push((name, value));
        }
        Ok(options)
    }
}

/// One option value, written as a string, a number or a boolean, kept as text.
struct OptionValue(String);

impl<'de> serde::Deserialize<'de> for OptionValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(OptionValueVisitor)
    }
}

/// The visitor for [`OptionValue`].
struct OptionValueVisitor;

impl Visitor<'_> for OptionValueVisitor {
    type Value = OptionValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a UCI option value: a string, a number or a boolean")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<OptionValue, E> {
        Ok(OptionValue(v.to_owned()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<OptionValue, E> {
        Ok(OptionValue(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<OptionValue, E> {
        Ok(OptionValue(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<OptionValue, E> {
        Ok(OptionValue(v.to_string()))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<OptionValue, E> {
        Ok(OptionValue(v.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Doc {
        engine: EngineSpec,
    }

    fn spec(toml_text: &str) -> Result<EngineSpec, toml::de::Error> {
        toml::from_str::<Doc>(toml_text).map(|d| d.engine)
    }

    #[test]
    fn spec_reads_strings_numbers_and_booleans() {
        let s = spec(
            "engine = { cmd = 'sf', args = ['--x'], options = \
             { Threads = 1, Hash = '16', Ponder = false, Contempt = -5, Slow = 0.5, Path = '' } }",
        )
        .unwrap();
        assert_eq!(s.cmd, "sf");
        assert_eq!(s.args, ["--x"]);
        let mut options = s.options.clone();
        options.sort();
        let expect = [
            ("Contempt", "-5"),
            ("Hash", "16"),
            ("Path", ""),
            ("Ponder", "false"),
            ("Slow", "0.5"),
            ("Threads", "1"),
        ];
        let expect: Vec<(String, String)> = expect
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        assert_eq!(options, expect);
    }

    #[test]
    fn spec_defaults_and_refusals() {
        let s = spec("engine = { cmd = 'sf' }").unwrap();
        assert_eq!(
            s,
            EngineSpec {
                cmd: "sf".to_owned(),
                ..EngineSpec::default()
            }
        );
        for bad in [
            "engine = { args = [] }",
            "engine = { cmd = 'sf', option = {} }",
            "engine = { cmd = 'sf', options = { Hash = [16] } }",
            "engine = { cmd = 'sf', options = { Hash = { mb = 16 } } }",
            "engine = { cmd = 'sf', options = [1] }",
        ] {
            let err = spec(bad).expect_err(bad);
            assert!(err.span().is_some(), "{bad}: {err}");
        }
    }

    #[test]
    fn engines_move_between_threads() {
        fn send<T: Send>() {}
        send::<UciEngine>();
        send::<EngineError>();
    }

    #[test]
    fn go_commands() {
        let go = Go {
            depth: Some(3),
            nodes: Some(1000),
            movetime: Some(Duration::from_micros(1500)),
            clock: Some(Clock {
                wtime: Duration::from_secs(60),
                btime: Duration::from_millis(59_999),
                winc: Duration::from_millis(500),
                binc: Duration::ZERO,
                period: None,
            }),
        };
        assert_eq!(
            go_command(&go).unwrap(),
            "go depth 3 nodes 1000 movetime 1 wtime 60000 btime 59999 winc 500 binc 0"
        );
        // A repeating control (40/60) with 3 moves left in the period.
        let periodic = Go {
            clock: Some(Clock {
                wtime: Duration::from_secs(5),
                btime: Duration::from_secs(6),
                period: Some(Period {
                    moves: 40,
                    base: Duration::from_secs(60),
                    to_go: 3,
                }),
                ..Clock::default()
            }),
            ..Go::default()
        };
        assert_eq!(
            go_command(&periodic).unwrap(),
            "go wtime 5000 btime 6000 winc 0 binc 0 movestogo 3"
        );
        let tiny = Go {
            movetime: Some(Duration::from_micros(10)),
            ..Go::default()
        };
        assert_eq!(go_command(&tiny).unwrap(), "go movetime 1");
        assert!(matches!(
            go_command(&Go::default()),
            Err(EngineError::BadRequest { .. })
        ));
    }

    #[test]
    fn position_commands() {
        let moves = ["e2e4".to_owned(), "e7e5".to_owned()];
        assert_eq!(position_command(None, &[]).unwrap(), "position startpos");
        assert_eq!(
            position_command(None, &moves).unwrap(),
            "position startpos moves e2e4 e7e5"
        );
        assert_eq!(
            position_command(Some(" 8/8/8/8/8/8/8/K1k5 w - - 0 1 "), &moves[..1]).unwrap(),
            "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves e2e4"
        );
        for (fen, mv) in [
            (Some(""), "e2e4"),
            (Some("8/8 w\nquit"), "e2e4"),
            (None, "e2e4 e7e5"),
            (None, ""),
        ] {
            let err = position_command(fen, &[mv.to_owned()]).expect_err(mv);
            assert!(matches!(err, EngineError::BadRequest { .. }), "{err}");
        }
    }

    #[test]
    fn options_as_commands() {
        assert_eq!(set_option("Hash", "16"), "setoption name Hash value 16");
        assert_eq!(set_option("Clear Hash", ""), "setoption name Clear Hash");
        assert_eq!(
            option_name("option name Clear Hash type button").as_deref(),
            Some("Clear Hash")
        );
        assert_eq!(option_name("option name  type spin"), None);
        assert_eq!(option_name("info string option name X"), None);
        assert!(one_line("option", "a\r").is_err());
    }

    #[test]
    fn best_moves() {
        assert_eq!(best_move("bestmove e2e4 ponder e7e5").unwrap(), "e2e4");
        assert_eq!(best_move("bestmove  e7e8q").unwrap(), "e7e8q");
        assert!(matches!(
            best_move("bestmove (none)"),
            Err(EngineError::NoMove)
        ));
        assert!(matches!(
            best_move("bestmove 0000"),
            Err(EngineError::NoMove)
        ));
        for bad in [
            "bestmove",
            "bestmove e2e9",
            "bestmove e7e8k",
            "bestmove Nf3",
        ] {
            assert!(
                matches!(best_move(bad), Err(EngineError::Protocol { .. })),
                "{bad}"
            );
        }
    }

    /// A move is two squares and an optional promotion letter (`EngineReply::best_move`):
    /// squares on the h-file and the eighth rank, and a promotion to a knight, are moves.
    #[test]
    fn moves_on_the_h_file_and_knight_promotions_are_moves() {
        for line in [
            "bestmove h7h8n",
            "bestmove a1h1",
            "bestmove g2g1r ponder h1g1",
        ] {
            let mv = line.split_whitespace().nth(1).unwrap();
            assert_eq!(best_move(line).unwrap(), mv, "{line}");
        }
    }

    /// `EngineReply::score` skips `upperbound` scores as well as `lowerbound` ones.
    #[test]
    fn an_upperbound_score_is_skipped_like_a_lowerbound() {
        let r = report(&[
            "info depth 4 score cp 30 nodes 10",
            "info depth 5 score cp -20 upperbound nodes 20",
        ]);
        assert_eq!(
            (r.depth, r.score, r.nodes),
            (Some(4), Some(EngineScore::Cp(30)), Some(20))
        );
    }

    #[test]
    fn id_names() {
        assert_eq!(
            id_name("id name Stockfish 17").as_deref(),
            Some("Stockfish 17")
        );
        assert_eq!(id_name("id  name\tA  B ").as_deref(), Some("A B"));
        assert_eq!(id_name("id author X"), None);
        assert_eq!(id_name("id name"), None);
    }

    fn report(lines: &[&str]) -> Report {
        let mut r = Report::default();
        for line in lines {
            r.read(line);
        }
        r
    }

    #[test]
    fn report_keeps_the_last_exact_main_line() {
        let r = report(&[
            "info depth 1 seldepth 1 multipv 1 score cp 20 nodes 21 nps 2100 time 10 pv e2e4",
            "info depth 2 score mate -3 nodes 130 pv e2e4 e7e5",
            "info depth 3 multipv 2 score cp -50 nodes 140 pv d2d4",
            "info depth 3 score cp 80 lowerbound nodes 150 pv e2e4",
            "info depth 3 currmove e2e4 currmovenumber 1",
            "info string depth 9 score cp 999 nodes 1",
            "info nodes 160 nps 1000",
        ]);
        assert_eq!(
            r,
            Report {
                depth: Some(2),
                nodes: Some(160),
                score: Some(EngineScore::Mate(-3)),
            }
        );
    }

    #[test]
    fn report_ignores_garbage() {
        let r = report(&[
            "info",
            "info depth",
            "info depth x score cp abc nodes -5",
            "info score mate",
            "info score wdl 1 2 3",
            "information depth 4 score cp 1",
            "",
            "bestmove e2e4",
            "info score cp 99999999999 nodes 18446744073709551616",
        ]);
        assert_eq!(r, Report::default());
        let r = report(&["info depth 5 score cp 7", "info score cp 9"]);
        assert_eq!((r.depth, r.score), (Some(5), Some(EngineScore::Cp(9))));
    }
}
