//! Ctrl-C or a polite kill during a run: the first SIGINT or SIGTERM asks the running work
//! to finish (experiments, suites, matches, learning, book builds), a second ends the
//! process at once. SIGTERM is what `kill`, `timeout` and Slurm (at a job's time limit, or
//! `scancel`) send first, before SIGKILL some seconds later: caught, a run started no new
//! job and records itself as interrupted in the time it is given. Every command that runs
//! long work reads [`requested`]: a module of its own at the crate's root, beside `input`
//! and `output`, so that each command can read it without knowing the others.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The signal caught since the handler was installed ([`Catching`]), 0 for none.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

/// Whether Ctrl-C was pressed (or SIGTERM received) since the handler was installed
/// ([`Catching`]).
#[must_use]
pub fn requested() -> bool {
    CAUGHT.load(Ordering::SeqCst) != 0
}

/// The exit code of a run stopped by the signal caught: 128 plus its number, as a shell
/// reports a process the signal ended: 143 for SIGTERM, else 130 (Ctrl-C's).
#[must_use]
pub fn exit_code() -> u8 {
    #[cfg(unix)]
    if CAUGHT.load(Ordering::SeqCst) == libc::SIGTERM {
        return 143;
    }
    130
}

/// The signals caught: Ctrl-C and the polite kill.
#[cfg(unix)]
const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// Which of [`SIGNALS`] `install` gave the handler (not those found ignored), so that the
/// handler and `uninstall` give the default action back to those alone.
#[cfg(unix)]
static HANDLED: [AtomicBool; 2] = [AtomicBool::new(false), AtomicBool::new(false)];

/// Catches the first SIGINT or SIGTERM: it sets [`requested`] and says on stderr that the
/// running jobs are finishing; the handler then gives both signals back their default
/// action, so a second ends the process at once. A signal ignored when the process started
/// stays ignored: a job run in the background by a shell without job control (`cmd &` in
/// a script) or under `nohup`-like wrappers starts with SIGINT ignored, as POSIX shells
/// leave such a job alone, and a Ctrl-C meant for the foreground does not stop it.
#[cfg(unix)]
fn install() {
    extern "C" fn on_signal(signal: libc::c_int) {
        CAUGHT.store(signal, Ordering::SeqCst);
        const CTRL_C: &[u8] =
            b"\ninterrupted: finishing what is running (Ctrl-C again to stop at once)\n";
        const TERM: &[u8] =
            b"\nterminated: finishing what is running (a second SIGTERM stops at once)\n";
        let note = if signal == libc::SIGTERM {
            TERM
        } else {
            CTRL_C
        };
        keeping_errno(|| {
            write_from_handler(2, note);
            for (caught, handled) in SIGNALS.into_iter().zip(&HANDLED) {
                if handled.load(Ordering::SeqCst) {
                    // SAFETY: signal(2) is async-signal-safe (POSIX.1-2017, 2.4.3).
                    unsafe {
                        libc::signal(caught, libc::SIG_DFL);
                    }
                }
            }
        });
    }
    CAUGHT.store(0, Ordering::SeqCst);
    let handler: extern "C" fn(libc::c_int) = on_signal;
    for (signal, handled) in SIGNALS.into_iter().zip(&HANDLED) {
        let catch = !ignored(signal);
        handled.store(catch, Ordering::SeqCst);
        if catch {
            // SAFETY: the handler only touches atomics and calls async-signal-safe
            // functions.
            unsafe {
                libc::signal(signal, handler as libc::sighandler_t);
            }
        }
    }
}

/// Writes `note` to `fd` from the signal handler: write(2) is async-signal-safe
/// (POSIX.1-2017, 2.4.3), and a failure (a closed stderr) is ignored, as nothing can be
/// done about it there.
#[cfg(unix)]
fn write_from_handler(fd: libc::c_int, note: &[u8]) {
    // SAFETY: the buffer is a slice of the given length.
    unsafe {
        libc::write(fd, note.as_ptr().cast(), note.len());
    }
}

/// The calling thread's errno.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn errno_location() -> *mut libc::c_int {
    // SAFETY: no preconditions; the pointer is the calling thread's, valid while it lives.
    unsafe { libc::__errno_location() }
}

/// The calling thread's errno.
#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
fn errno_location() -> *mut libc::c_int {
    // SAFETY: as above.
    unsafe { libc::__error() }
}

/// Elsewhere errno is not reached (null): it is not kept.
#[cfg(all(
    unix,
    not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd"
    ))
))]
fn errno_location() -> *mut libc::c_int {
    std::ptr::null_mut()
}

/// Runs `f` and puts errno back as it was: a signal handler runs between two statements of
/// whichever thread it interrupts, and its write(2) to a closed stderr sets errno to EPIPE,
/// which that thread could read as the cause of its own failed call (the rule for handlers
/// in POSIX.1-2017, 2.4.3: save and restore errno).
#[cfg(unix)]
fn keeping_errno(f: impl FnOnce()) {
    let errno = errno_location();
    if errno.is_null() {
        return f();
    }
    // SAFETY: errno_location is the calling thread's errno, a valid int.
    let saved = unsafe { errno.read() };
    f();
    // SAFETY: as above.
    unsafe { errno.write(saved) };
}

/// Whether `signal` is ignored: read without changing it (sigaction with no new action).
#[cfg(unix)]
fn ignored(signal: libc::c_int) -> bool {
    // SAFETY: a zeroed sigaction is a valid out-parameter; a null new action only reads.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &raw mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// Elsewhere Ctrl-C keeps its default action.
#[cfg(not(unix))]
fn install() {}

/// Gives SIGINT and SIGTERM back their default actions once the run is over (one found
/// ignored stays ignored).
#[cfg(unix)]
fn uninstall() {
    for (signal, handled) in SIGNALS.into_iter().zip(&HANDLED) {
        if handled.swap(false, Ordering::SeqCst) {
            // SAFETY: restoring the default action has no preconditions.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
    }
}

/// Elsewhere there is nothing to undo.
#[cfg(not(unix))]
fn uninstall() {}

/// The handler, for as long as this lives: installed when made (where `active`: a run that
/// shows no progress, as a test's, leaves the signals alone), and the default actions given
/// back when it is dropped, on every way out of the work it covers, an error's included.
/// Made before a run writes anything, so that a Ctrl-C during its first writes (run.json,
/// the kept rows) waits for them: a run.json of the new experiment beside the rows of the
/// old one would be resumed as if they were the new one's.
#[must_use = "the handler goes when this is dropped"]
pub struct Catching(bool);

impl Catching {
    /// Installs the handler where `active`.
    pub fn new(active: bool) -> Self {
        if active {
            install();
        }
        Self(active)
    }
}

impl Drop for Catching {
    fn drop(&mut self) {
        if self.0 {
            uninstall();
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The handler's write leaves errno as the interrupted thread had it, even when the
    /// write fails (here on a descriptor that is not open, as EPIPE on a closed stderr).
    #[test]
    fn a_failed_write_in_the_handler_keeps_errno() {
        // SAFETY: this thread's errno.
        unsafe { errno_location().write(libc::ENOENT) };
        keeping_errno(|| write_from_handler(-1, b"x"));
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::ENOENT)
        );
        // And without keeping it, the write would have changed it.
        write_from_handler(-1, b"x");
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::EBADF)
        );
    }
}
