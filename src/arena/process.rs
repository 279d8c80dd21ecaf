//! An engine process shared by the protocol clients (UCI in [`super::engine`], GTP in
//! [`super::gtp`]): the command run with piped input and output, a reader thread forwarding
//! its output line by line over a channel so that every wait has a deadline, and the
//! bookkeeping of a crashed or hung engine (killed, reaped, and every later call refused).

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use super::engine::{EngineError, QUIT_GRACE};

/// The longest line read from an engine, in bytes; longer lines are split at this length
/// (so that an engine writing without newlines cannot exhaust memory).
const MAX_LINE: u64 = 64 * 1024;

/// How often an exiting engine is polled for its exit status.
const POLL: Duration = Duration::from_millis(5);

/// A running engine process, driven by one caller one command at a time.
pub(crate) struct EngineProcess {
    /// The name used in messages: the engine's own name once known, else the command.
    pub(crate) name: String,
    child: Child,
    /// The engine's input; `None` once it has been closed.
    stdin: Option<ChildStdin>,
    /// The engine's output lines, from the reader thread; disconnected at its end.
    lines: Receiver<String>,
    /// Why the engine no longer runs, once it does not.
    dead: Option<String>,
}

impl EngineProcess {
    /// Runs `cmd` with `args`, piped input and output, and starts the reader thread
    /// (named `reader`). The process is named after the command until told otherwise.
    pub(crate) fn spawn(cmd: &str, args: &[String], reader: &str) -> Result<Self, EngineError> {
        let spawn_error = |source| EngineError::Spawn {
            cmd: cmd.to_owned(),
            source,
        };
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(spawn_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(spawn_error(abandon(child, io::Error::other("no pipes"))));
        };
        let (tx, lines) = channel();
        let reader = thread::Builder::new()
            .name(reader.to_owned())
            .spawn(move || forward_lines(stdout, &tx));
        if let Err(e) = reader {
            return Err(spawn_error(abandon(child, e)));
        }
        Ok(Self {
            name: cmd.to_owned(),
            child,
            stdin: Some(stdin),
            lines,
            dead: None,
        })
    }

    /// Writes one command line.
    pub(crate) fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.check_alive()?;
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.crashed("has no input any more"));
        };
        match writeln!(stdin, "{command}").and_then(|()| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.crashed(&format!("stopped reading its input ({e})"))),
        }
    }

    /// The process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Reads lines until `answer` returns a value for one, before the deadline.
    /// `expected` names the awaited line in error messages.
    pub(crate) fn wait_for<T>(
        &mut self,
        deadline: &Deadline,
        expected: &str,
        mut answer: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, EngineError> {
        self.check_alive()?;
        loop {
            match self.lines.recv_timeout(deadline.left()) {
                Ok(line) => {
                    if let Some(value) = answer(&line) {
                        return Ok(value);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(self.hung(deadline.timeout)),
                Err(RecvTimeoutError::Disconnected) => {
                    let what =
                        format!("closed its output while the client waited for `{expected}`");
                    return Err(self.crashed(&what));
                }
            }
        }
    }

    /// [`EngineError::Crashed`] if an earlier call found the engine dead.
    fn check_alive(&self) -> Result<(), EngineError> {
        match &self.dead {
            None => Ok(()),
            Some(why) => Err(EngineError::Crashed {
                reason: format!("no longer running: {why}"),
            }),
        }
    }

    /// Records a crash: waits briefly for the exit status (killing the engine if it does
    /// not exit) and returns the error.
    fn crashed(&mut self, what: &str) -> EngineError {
        let status = self.reap(QUIT_GRACE);
        let reason = format!("`{}` {what} ({status})", self.name);
        self.dead = Some(reason.clone());
        EngineError::Crashed { reason }
    }

    /// Records a hang: kills the engine and returns the error.
    fn hung(&mut self, waited: Duration) -> EngineError {
        let status = self.reap(Duration::ZERO);
        self.dead = Some(format!(
            "`{}` gave no answer within {} ms and was killed ({status})",
            self.name,
            waited.as_millis()
        ));
        EngineError::Hung { waited }
    }

    /// Closes the engine's input and waits up to `grace` for it to exit, then kills it;
    /// returns its exit status as text. The process is always reaped.
    fn reap(&mut self, grace: Duration) -> String {
        self.stdin = None;
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if start.elapsed() < grace => thread::sleep(POLL),
                Ok(None) | Err(_) => break,
            }
        }
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(status) => format!("killed: {status}"),
            Err(e) => format!("killed; exit status unknown: {e}"),
        }
    }

    /// Sends `quit` (the same word in UCI and GTP) to a live engine and reaps it; does
    /// nothing to a dead one.
    pub(crate) fn shut_down(&mut self) {
        if self.dead.is_some() {
            return;
        }
        let _ = self.send("quit");
        if self.dead.is_none() {
            let status = self.reap(QUIT_GRACE);
            self.dead = Some(format!("`{}` was sent `quit` ({status})", self.name));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shut_down();
    }
}

impl fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineProcess")
            .field("name", &self.name)
            .field("pid", &self.child.id())
            .field("dead", &self.dead)
            .finish_non_exhaustive()
    }
}

/// Kills and reaps a child that cannot be used; returns `error`.
fn abandon(mut child: Child, error: io::Error) -> io::Error {
    let _ = child.kill();
    let _ = child.wait();
    error
}

/// A call's time limit.
pub(crate) struct Deadline {
    start: Instant,
    timeout: Duration,
}

impl Deadline {
    pub(crate) fn new(timeout: Duration) -> Self {
        Self {
            start: Instant::now(),
            timeout,
        }
    }

    /// Time left (zero once passed). `recv_timeout` treats a huge value as no limit.
    pub(crate) fn left(&self) -> Duration {
        self.timeout.saturating_sub(self.start.elapsed())
    }
}

/// The reader thread: sends each line of `stdout` (without its line ending, decoded
/// lossily, split every [`MAX_LINE`] bytes) until the output ends or the engine is dropped.
fn forward_lines(stdout: ChildStdout, tx: &Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut bytes = Vec::with_capacity(256);
    loop {
        bytes.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&bytes);
        if tx
            .send(line.trim_end_matches(['\n', '\r']).to_owned())
            .is_err()
        {
            return;
        }
    }
}
