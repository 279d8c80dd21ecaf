//! GNU Backgammon (Debian package `gnubg`) as an arena player: gnubg's neural-network
//! evaluation chooses the moves, looking a chosen number of plies ahead.
//!
//! gnubg is run as one long-running child per player process, `gnubg -t -q -p SCRIPT`, with
//! [`SCRIPT`] (src/arena/gnubg_player.py) in its embedded Python: the same way
//! tests/gnubg.rs drives it as the rules oracle, but answering one request a line on its
//! standard input instead of reading a file. For each move the client sends the position
//! as a GNU Backgammon Position ID (relative to the player on roll, as plylab writes it)
//! with the roll; the script sets gnubg's board and dice and answers the first move of
//! gnubg's `hint`, evaluated cubeless and without noise at the chosen plies (gnubg's 0-ply
//! is its network alone, 1-ply averages it over the 21 rolls after each move, and so on).
//! The answer is read with plylab's move notation, which matches moves by the position
//! they reach, so gnubg's spellings (`24/13`, `13/7(2)`, `bar/22*`) all read back.

use std::path::PathBuf;
use std::time::Duration;

use super::engine::EngineError;
use super::process::{Deadline, EngineProcess};

/// The script gnubg runs (its embedded Python), written to a temporary file at start.
pub const SCRIPT: &str = include_str!("gnubg_player.py");

/// Where Debian installs gnubg, then the usual place of other installs.
pub const GNUBG_PATHS: [&str; 2] = ["/usr/games/gnubg", "/usr/bin/gnubg"];

/// A gnubg player as an arena file gives it: `engine = { cmd = "gnubg", plies = 0 }`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GnubgSpec {
    /// The program (default: gnubg where Debian installs it, [`GNUBG_PATHS`]).
    #[serde(default = "default_cmd")]
    pub cmd: String,
    /// How many plies gnubg looks ahead for chequer play (0: its evaluation alone).
    pub plies: u32,
}

/// The first of [`GNUBG_PATHS`] that exists, else plain `gnubg` (found on the `PATH`).
#[must_use]
pub fn default_cmd() -> String {
    GNUBG_PATHS
        .iter()
        .find(|p| std::path::Path::new(p).exists())
        .map_or_else(|| "gnubg".to_owned(), |p| (*p).to_owned())
}

/// The most plies accepted: gnubg's own limit is 7, and beyond 2 a move takes seconds.
pub const MAX_PLIES: u32 = 4;

/// A running gnubg player.
#[derive(Debug)]
pub struct GnubgEngine {
    process: EngineProcess,
    /// The script's file, removed when the engine is dropped.
    script: PathBuf,
}

impl GnubgEngine {
    /// Starts gnubg with the player script and sets its plies, within `timeout` (gnubg
    /// loads its network and databases first: about a second).
    ///
    /// # Errors
    /// [`EngineError::Spawn`] when gnubg cannot run or the script cannot be written;
    /// [`EngineError::Crashed`] or [`EngineError::Hung`] when it exits or does not answer
    /// in time; [`EngineError::Protocol`] when it answers something else.
    pub fn start(spec: &GnubgSpec, timeout: Duration) -> Result<Self, EngineError> {
        let deadline = Deadline::new(timeout);
        let script = script_file().map_err(|source| EngineError::Spawn {
            cmd: spec.cmd.clone(),
            source,
        })?;
        let args = ["-t", "-q", "-p"]
            .map(String::from)
            .into_iter()
            .chain([script.to_string_lossy().into_owned()])
            .collect::<Vec<_>>();
        let process = EngineProcess::spawn(&spec.cmd, &args, "gnubg-reader");
        let mut engine = Self {
            process: process.inspect_err(|_| {
                let _ = std::fs::remove_file(&script);
            })?,
            script,
        };
        engine.answer(None, "ready", &deadline)?;
        let ok = engine.answer(Some(&format!("plies {}", spec.plies)), "ok", &deadline)?;
        if ok != spec.plies.to_string() {
            return Err(EngineError::Protocol {
                message: format!("`plies {}` answered `{ok}`", spec.plies),
            });
        }
        Ok(engine)
    }

    /// The program's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// The traffic logged since the last call ([`super::engine::UciEngine::take_log`]).
    #[must_use]
    pub fn take_log(&self) -> Vec<String> {
        self.process.take_log()
    }

    /// gnubg's move (its notation) for the player on roll in the position `position_id`
    /// with the dice `roll`; `None` when gnubg sees no legal move.
    ///
    /// # Errors
    /// As for [`GnubgEngine::start`]; [`EngineError::BadRequest`] for a Position ID that is
    /// not one word (nothing is sent).
    pub fn best_move(
        &mut self,
        position_id: &str,
        roll: (u8, u8),
        timeout: Duration,
    ) -> Result<Option<String>, EngineError> {
        if position_id.is_empty() || position_id.contains(char::is_whitespace) {
            return Err(EngineError::BadRequest {
                message: format!(
                    "Position ID `{}` is not one word",
                    position_id.escape_debug()
                ),
            });
        }
        let request = format!("move {position_id} {} {}", roll.0, roll.1);
        let deadline = Deadline::new(timeout);
        let mv = self.answer(Some(&request), "move", &deadline)?;
        Ok((mv != "none").then_some(mv))
    }

    /// Sends `request` (if any) and waits for the line `plylab-<word> ...`; returns the
    /// rest of that line. A `plylab-error` line is [`EngineError::Protocol`].
    fn answer(
        &mut self,
        request: Option<&str>,
        word: &str,
        deadline: &Deadline,
    ) -> Result<String, EngineError> {
        if let Some(r) = request {
            self.process.send(r)?;
        }
        let expected = format!("plylab-{word}");
        let line = self.process.wait_for(deadline, &expected, |line| {
            let rest = line.trim().strip_prefix("plylab-")?;
            (rest.starts_with(word) || rest.starts_with("error")).then(|| rest.to_owned())
        })?;
        if let Some(why) = line.strip_prefix("error") {
            return Err(EngineError::Protocol {
                message: format!("gnubg's player script: {}", why.trim()),
            });
        }
        Ok(line[word.len()..].trim().to_owned())
    }
}

impl Drop for GnubgEngine {
    fn drop(&mut self) {
        self.process.shut_down();
        let _ = std::fs::remove_file(&self.script);
    }
}

/// Writes [`SCRIPT`] to a file of its own in the temporary directory.
fn script_file() -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "plylab-gnubg-player-{}-{}.py",
        std::process::id(),
        NEXT.fetch_add(1, Relaxed)
    ));
    // Said with its path: the engine itself is not at fault when TMPDIR names no
    // writable directory.
    std::fs::write(&path, SCRIPT).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!(
                "cannot write its player script {} (in TMPDIR or /tmp): {e}",
                path.display()
            ),
        )
    })?;
    Ok(path)
}
