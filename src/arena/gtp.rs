//! A client for external othello engines that speak GTP, the Go Text Protocol (Gunnar
//! Farnebäck, GTP version 2 draft 2, <https://www.lysator.liu.se/~gunnar/gtp/>), which
//! othello programs such as grhino's `gtp-rhino` (Debian package `grhino`) adopt with
//! othello moves as vertices: `play black F5`, `genmove white` → `= D6`, `pass`.
//!
//! [`GtpEngine::start`] runs the command, checks `protocol_version` (2) and records `name`;
//! [`GtpEngine::new_game`] sends `boardsize 8` and `clear_board`; [`GtpEngine::play`] and
//! [`GtpEngine::genmove`] exchange moves; dropping the engine or [`GtpEngine::quit`] sends
//! `quit` and kills it if it lingers. Every command waits for its response (`= ...` or
//! `? ...`, ended by an empty line) under the caller's deadline, on the same process
//! machinery as the UCI client: an engine that does not answer in time is killed
//! ([`EngineError::Hung`]), one whose output ends has crashed ([`EngineError::Crashed`]),
//! and a refused command (`? ...`) is [`EngineError::Protocol`] with the engine's reason.

use std::time::Duration;

use super::engine::EngineError;
use super::process::{Deadline, EngineProcess};
use crate::game::Player;

/// What `genmove` answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpMove {
    /// A vertex, lower-cased (`f5`): the move text of [`crate::games::othello`].
    Vertex(String),
    /// `pass`.
    Pass,
    /// `resign`.
    Resign,
}

/// A GTP engine as an arena file gives it (othello): `engine = { cmd = "/usr/games/gtp-rhino",
/// args = ["--level=1"] }`. Its strength is set by its arguments; the arena's per-move
/// limits do not apply to it (GTP has no per-move depth or node limit).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GtpSpec {
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments.
    #[serde(default)]
    pub args: Vec<String>,
}

/// A running GTP engine, driven by one caller one command at a time.
#[derive(Debug)]
pub struct GtpEngine {
    process: EngineProcess,
}

/// GTP's colour argument for a player: the first player is black.
const fn colour(player: Player) -> &'static str {
    match player {
        Player::First => "black",
        Player::Second => "white",
    }
}

impl GtpEngine {
    /// Runs `cmd` with `args`, checks that it speaks GTP version 2 and records its `name`,
    /// all within `timeout`.
    ///
    /// # Errors
    /// [`EngineError::Spawn`] when the command cannot run; [`EngineError::Protocol`] when it
    /// does not answer `protocol_version` with 2; [`EngineError::Crashed`] or
    /// [`EngineError::Hung`] when it exits or does not answer in time (it is then killed).
    pub fn start(cmd: &str, args: &[String], timeout: Duration) -> Result<Self, EngineError> {
        let deadline = Deadline::new(timeout);
        let mut engine = Self {
            process: EngineProcess::spawn(cmd, args, "gtp-engine-reader")?,
        };
        let version = engine.command("protocol_version", &deadline)?;
        if version != "2" {
            return Err(EngineError::Protocol {
                message: format!("`protocol_version` answered `{version}`, not 2"),
            });
        }
        let name = engine.command("name", &deadline)?;
        if !name.is_empty() {
            engine.process.name = name;
        }
        Ok(engine)
    }

    /// The engine's `name`, or its command if it gave none.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.process.name
    }

    /// The program's process id.
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

    /// Sets up a new game from the start position: `boardsize 8`, `clear_board`.
    ///
    /// # Errors
    /// As for [`GtpEngine::start`].
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let deadline = Deadline::new(timeout);
        self.command("boardsize 8", &deadline)?;
        self.command("clear_board", &deadline).map(drop)
    }

    /// Sets the engine's board to an othello position other than the start: `board` is the
    /// 64-character string (`X` black, `O` white, `-` empty, a1 to h8 row by row) and
    /// `to_move` the side to move. GTP has no standard command for it; this sends grhino's
    /// extension `grhino-setup_board BOARD X|O` after checking with `known_command` that
    /// the engine has it.
    ///
    /// # Errors
    /// [`EngineError::Protocol`] when the engine does not know the command or refuses the
    /// board; [`EngineError::BadRequest`] for a board that is not 64 such characters
    /// (nothing is sent); otherwise as for [`GtpEngine::start`].
    pub fn setup_board(
        &mut self,
        board: &str,
        to_move: Player,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        if board.len() != 64 || !board.bytes().all(|b| matches!(b, b'X' | b'O' | b'-')) {
            return Err(EngineError::BadRequest {
                message: format!(
                    "`{}` is not a 64-square othello board",
                    board.escape_debug()
                ),
            });
        }
        self.check_setup_board(timeout)?;
        let deadline = Deadline::new(timeout);
        let side = match to_move {
            Player::First => "X",
            Player::Second => "O",
        };
        self.command(&format!("grhino-setup_board {board} {side}"), &deadline)
            .map(drop)
    }

    /// Whether the engine can be set to a position other than the start (grhino's
    /// `grhino-setup_board`, asked with `known_command`).
    ///
    /// # Errors
    /// [`EngineError::BadRequest`] when it cannot (the match asks what the engine does not
    /// have); otherwise as for [`GtpEngine::start`].
    pub fn check_setup_board(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let deadline = Deadline::new(timeout);
        if self.command("known_command grhino-setup_board", &deadline)? == "true" {
            return Ok(());
        }
        Err(EngineError::BadRequest {
            message: format!(
                "`{}` cannot be set to a position other than the start (it lacks \
                 grhino-setup_board): play it from the start position",
                self.process.name
            ),
        })
    }

    /// Tells the engine that `player` played `mv` (`f5`, or `pass`).
    ///
    /// A pass is only ever forced in othello, and some engines skip a side that cannot move
    /// by themselves and refuse `play COLOUR pass` (gtp-rhino 0.16.1 answers `? syntax
    /// error`): a refused pass is therefore not an error. Whether the engine really agrees
    /// shows at its next `genmove`, whose move the caller checks for legality.
    ///
    /// # Errors
    /// [`EngineError::BadRequest`] for move text that is not one word (nothing is sent);
    /// [`EngineError::Protocol`] when the engine refuses the move; otherwise as for
    /// [`GtpEngine::start`].
    pub fn play(&mut self, player: Player, mv: &str, timeout: Duration) -> Result<(), EngineError> {
        if mv.is_empty() || mv.contains(char::is_whitespace) {
            return Err(EngineError::BadRequest {
                message: format!("move `{}` is empty or contains spaces", mv.escape_debug()),
            });
        }
        let deadline = Deadline::new(timeout);
        match self.command(&format!("play {} {mv}", colour(player)), &deadline) {
            Err(EngineError::Protocol { .. }) if mv.eq_ignore_ascii_case("pass") => Ok(()),
            other => other.map(drop),
        }
    }

    /// Asks the engine for `player`'s move (which it also plays on its own board).
    ///
    /// # Errors
    /// [`EngineError::Protocol`] for an answer that is no vertex, `pass` or `resign`, or a
    /// refusal; otherwise as for [`GtpEngine::start`].
    pub fn genmove(&mut self, player: Player, timeout: Duration) -> Result<GtpMove, EngineError> {
        let deadline = Deadline::new(timeout);
        let answer = self.command(&format!("genmove {}", colour(player)), &deadline)?;
        parse_genmove(&answer)
    }

    /// Sends `quit`, waits briefly for the engine to exit, and kills it if it has not.
    /// Dropping the engine does the same.
    pub fn quit(mut self) {
        self.process.shut_down();
    }

    /// Sends `text` and returns the response's text (after `=`, lines joined by `\n`), or
    /// the engine's refusal as [`EngineError::Protocol`].
    fn command(&mut self, text: &str, deadline: &Deadline) -> Result<String, EngineError> {
        self.process.send(text)?;
        let mut response: Option<(bool, String)> = None;
        self.process
            .wait_for(deadline, "a response ended by an empty line", |line| {
                read_response_line(&mut response, line)
            })?;
        match response {
            Some((true, answer)) => Ok(answer),
            Some((false, reason)) => Err(EngineError::Protocol {
                message: format!("GTP `{text}` was refused: `? {reason}`"),
            }),
            None => unreachable!("a response ends only after its first line"),
        }
    }
}

/// Takes one output line into `response` (success flag and text); `Some(())` once the empty
/// line ending a started response arrives. Lines before a response's `=` or `?` are skipped.
fn read_response_line(response: &mut Option<(bool, String)>, line: &str) -> Option<()> {
    match response {
        None => {
            let (ok, rest) = match line.chars().next() {
                Some('=') => (true, &line[1..]),
                Some('?') => (false, &line[1..]),
                _ => return None,
            };
            *response = Some((ok, rest.trim().to_owned()));
            None
        }
        Some(_) if line.trim().is_empty() => Some(()),
        Some((_, text)) => {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line.trim());
            None
        }
    }
}

/// Reads `genmove`'s answer.
fn parse_genmove(answer: &str) -> Result<GtpMove, EngineError> {
    let word = answer.trim().to_ascii_lowercase();
    let b = word.as_bytes();
    match word.as_str() {
        "pass" | "ps" => Ok(GtpMove::Pass),
        "resign" => Ok(GtpMove::Resign),
        _ if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) => {
            Ok(GtpMove::Vertex(word))
        }
        _ => Err(EngineError::Protocol {
            message: format!("`genmove` answered `{answer}`, which is no vertex, pass or resign"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_and_moves_are_read() {
        let mut r = None;
        assert_eq!(read_response_line(&mut r, "noise"), None);
        assert_eq!(read_response_line(&mut r, "= F5"), None);
        assert_eq!(read_response_line(&mut r, ""), Some(()));
        assert_eq!(r, Some((true, "F5".to_owned())));
        let mut r = None;
        read_response_line(&mut r, "=");
        read_response_line(&mut r, "line one");
        read_response_line(&mut r, "line two");
        assert_eq!(r, Some((true, "line one\nline two".to_owned())));
        let mut r = None;
        read_response_line(&mut r, "? illegal move");
        assert_eq!(r, Some((false, "illegal move".to_owned())));
        assert_eq!(parse_genmove("F5").unwrap(), GtpMove::Vertex("f5".into()));
        assert_eq!(parse_genmove("PASS").unwrap(), GtpMove::Pass);
        assert_eq!(parse_genmove("resign").unwrap(), GtpMove::Resign);
        assert!(parse_genmove("z9").is_err() && parse_genmove("").is_err());
    }
}
