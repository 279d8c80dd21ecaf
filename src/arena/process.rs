//! An engine process shared by the protocol clients (UCI in [`super::engine`], GTP in
//! [`super::gtp`]): the command run with piped input and output, a reader thread forwarding
//! its output line by line over a channel so that every wait has a deadline, and the
//! bookkeeping of a crashed or hung engine (killed, reaped, and every later call refused).
//!
//! Every process keeps a log of its traffic: the lines sent (`>`), the lines read (`<`) and
//! its standard error (`!`), each with the seconds since it started; the arena takes it
//! after each game ([`EngineProcess::take_log`]) and writes it to the game's log file when
//! asked to (`engine_log`) or when an engine crashed or hung. At most [`LOG_LINES`] lines
//! and [`LOG_BYTES`] bytes are kept between two takes (the oldest dropped first).
//!
//! Nothing an engine writes can exhaust memory or outlast a deadline: lines are split at
//! [`MAX_LINE`] bytes, at most [`QUEUED_LINES`] wait unread (the reader thread then blocks,
//! and the engine with it on its full pipe), and a wait ends at its deadline even while
//! lines keep coming (an engine writing without end, newlines or not, is hung).

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// How long [`super::engine::UciEngine::quit`] (and dropping an engine) waits for the
/// engine to exit after `quit`, and for a crashed engine's exit status, before killing it.
pub const QUIT_GRACE: Duration = Duration::from_secs(1);

/// What went wrong with an engine, whichever protocol it speaks.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The command could not be run (not found, not executable, ...).
    #[error("cannot start engine `{cmd}`: {source}")]
    Spawn {
        /// The command, as given.
        cmd: String,
        /// Why it could not run.
        source: io::Error,
    },
    /// The engine closed its output or its input (it exited, most likely), or it is no
    /// longer running because an earlier call found it crashed or hung.
    #[error("engine crashed: {reason}")]
    Crashed {
        /// What happened, with the exit status when known.
        reason: String,
    },
    /// The engine did not answer within the call's timeout; it has been killed.
    #[error("engine hung: no answer within {} ms, so it was killed", waited.as_millis())]
    Hung {
        /// The call's timeout.
        waited: Duration,
    },
    /// The engine answered with something the protocol does not allow (a `bestmove` whose
    /// move is not UCI move text; a GTP command refused with `?`). The engine still runs.
    #[error("engine broke the protocol (UCI or GTP): {message}")]
    Protocol {
        /// The offending line and what is wrong with it.
        message: String,
    },
    /// The engine answered `bestmove (none)` or `bestmove 0000`: it sees no legal move
    /// (checkmate or stalemate, or it disagrees with the caller about the position). This
    /// is an error rather than a move so that a caller cannot play it by mistake. The engine
    /// still runs.
    #[error("engine has no move (`bestmove (none)` or `bestmove 0000`)")]
    NoMove,
    /// The caller asked for something that cannot be sent: a `go` without limits, or a
    /// position, move or option containing a line break. Nothing was sent.
    #[error("cannot send to an engine: {message}")]
    BadRequest {
        /// What is wrong with the request.
        message: String,
    },
}

/// The longest line read from an engine, in bytes; longer lines are split at this length
/// (so that an engine writing without newlines cannot exhaust memory).
const MAX_LINE: u64 = 64 * 1024;

/// The most output lines read from an engine and not yet taken by its client.
const QUEUED_LINES: usize = 256;

/// The most log lines kept between two [`EngineProcess::take_log`] calls.
pub(crate) const LOG_LINES: usize = 20_000;

/// The most bytes of log lines kept between two [`EngineProcess::take_log`] calls.
const LOG_BYTES: usize = 16 << 20;

/// A process's traffic log, shared with its reader threads.
#[derive(Clone)]
struct Log {
    kept: Arc<Mutex<Kept>>,
    start: Instant,
}

/// The lines a [`Log`] keeps, and their bytes.
#[derive(Default)]
struct Kept {
    lines: VecDeque<String>,
    bytes: usize,
}

impl Log {
    fn new() -> Self {
        Self {
            kept: Arc::default(),
            start: Instant::now(),
        }
    }

    /// Adds `text` with its direction mark (`>` sent, `<` read, `!` standard error).
    fn note(&self, mark: char, text: &str) {
        let line = format!("{:9.3} {mark} {text}", self.start.elapsed().as_secs_f64());
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.bytes += line.len();
        kept.lines.push_back(line);
        while kept.lines.len() > LOG_LINES || kept.bytes > LOG_BYTES {
            let dropped = kept.lines.pop_front().map_or(0, |l| l.len());
            kept.bytes -= dropped;
        }
    }

    fn take(&self) -> Vec<String> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.bytes = 0;
        kept.lines.drain(..).collect()
    }
}

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
    /// Its traffic since the last [`Self::take_log`].
    log: Log,
}

/// Why [`EngineProcess::spawn`] could not run `cmd`, or `None` when it can: where it holds
/// a `/` (a path, relative to the working directory) that file, else the first executable
/// file of that name in a directory on the `PATH`, as `execvp` looks.
pub(crate) fn program_fault(cmd: &str) -> Option<&'static str> {
    if cmd.contains('/') {
        let path = Path::new(cmd);
        return if !path.is_file() {
            Some("not found (no such file)")
        } else if !executable(path) {
            Some("cannot be run (not executable)")
        } else {
            None
        };
    }
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| executable(&dir.join(cmd))));
    (!found).then_some("not found (in no directory on the PATH as an executable file)")
}

/// Whether `path` is a file with an execute permission bit set (which even root needs).
fn executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// `command` to be run in a process group of its own. A Ctrl-C at the terminal goes to every
/// process of the foreground group: plylab catches it and lets the games under way finish
/// (then says how to resume), but an engine in plylab's group would die of it in mid-game,
/// and the game would be scored as that engine's crash. The engine still ends with plylab:
/// it is sent `quit`, and its input closes when plylab exits.
fn in_own_process_group(command: &mut Command) -> &mut Command {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    command
}

impl EngineProcess {
    /// Runs `cmd` with `args`, piped input and output, and starts the reader thread
    /// (named `reader`). The process is named after the command until told otherwise.
    pub(crate) fn spawn(cmd: &str, args: &[String], reader: &str) -> Result<Self, EngineError> {
        let spawn_error = |source| EngineError::Spawn {
            cmd: cmd.to_owned(),
            source,
        };
        let mut command = Command::new(cmd);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = in_own_process_group(&mut command)
            .spawn()
            .map_err(spawn_error)?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(spawn_error(abandon(child, io::Error::other("no pipes"))));
        };
        let log = Log::new();
        let (tx, lines) = sync_channel(QUEUED_LINES);
        let out_log = log.clone();
        let reader = thread::Builder::new()
            .name(reader.to_owned())
            .spawn(move || {
                forward_lines(stdout, |line| {
                    out_log.note('<', &line);
                    tx.send(line).is_ok()
                });
            });
        if let Err(e) = reader {
            return Err(spawn_error(abandon(child, e)));
        }
        // Standard error goes to the log only (read, so that an engine writing much of it
        // never blocks on a full pipe).
        let err_log = log.clone();
        let errors = thread::Builder::new()
            .name("engine-stderr".to_owned())
            .spawn(move || {
                forward_lines(stderr, |line| {
                    err_log.note('!', &line);
                    true
                });
            });
        if let Err(e) = errors {
            return Err(spawn_error(abandon(child, e)));
        }
        Ok(Self {
            name: cmd.to_owned(),
            child,
            stdin: Some(stdin),
            lines,
            dead: None,
            log,
        })
    }

    /// Writes one command line.
    pub(crate) fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.check_alive()?;
        self.log.note('>', command);
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

    /// The traffic logged since the last call (see the module documentation), and why the
    /// engine died if it did.
    pub(crate) fn take_log(&self) -> Vec<String> {
        let mut lines = self.log.take();
        if let Some(why) = &self.dead {
            lines.push(format!("# {why}"));
        }
        lines
    }

    /// Reads lines until `answer` returns a value for one, before the deadline (or among
    /// the lines already queued when it passed). `expected` names the awaited line in error
    /// messages.
    pub(crate) fn wait_for<T>(
        &mut self,
        deadline: &Deadline,
        expected: &str,
        mut answer: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, EngineError> {
        self.check_alive()?;
        // Lines read since the deadline passed: those queued then are still in time.
        let mut late = 0;
        loop {
            let left = deadline.left();
            if left.is_zero() {
                late += 1;
                if late > QUEUED_LINES {
                    return Err(self.hung(deadline.timeout));
                }
            }
            match self.lines.recv_timeout(left) {
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

/// A reader thread: gives each line of `output` (without its line ending, decoded lossily,
/// split every [`MAX_LINE`] bytes) to `take` until the output ends or `take` returns false
/// (the engine was dropped).
fn forward_lines(output: impl Read, mut take: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(output);
    let mut bytes = Vec::with_capacity(256);
    loop {
        bytes.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&bytes);
        if !take(line.trim_end_matches(['\n', '\r']).to_owned()) {
            return;
        }
    }
}
