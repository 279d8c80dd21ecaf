//! Ctrl-C during a run: the first SIGINT asks the running work to finish (experiments,
//! suites, matches, learning, book builds), a second ends the process at once. Every
//! command that runs long work reads [`requested`]: a module of its own at the crate's root,
//! beside `input` and `output`, so that each command can read it without knowing the others.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed since [`install`].
#[must_use]
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Catches the first SIGINT: it sets [`requested`] and says on stderr that the running
/// jobs are finishing; the handler then gives SIGINT back its default action, so a second
/// Ctrl-C ends the process at once. A process that started with SIGINT ignored (run in
/// the background by a shell without job control, `cmd &` in a script, or under
/// `nohup`-like wrappers) keeps ignoring it, as POSIX shells leave such a job alone: a
/// Ctrl-C meant for the foreground does not stop it.
#[cfg(unix)]
pub fn install() {
    extern "C" fn on_sigint(_: libc::c_int) {
        REQUESTED.store(true, Ordering::SeqCst);
        const NOTE: &[u8] =
            b"\ninterrupted: finishing the jobs or games running (Ctrl-C again to stop at once)\n";
        // SAFETY: write(2) and signal(2) are async-signal-safe (POSIX.1-2017, 2.4.3); the
        // buffer is a static of the given length.
        unsafe {
            libc::write(2, NOTE.as_ptr().cast(), NOTE.len());
            libc::signal(libc::SIGINT, libc::SIG_DFL);
        }
    }
    REQUESTED.store(false, Ordering::SeqCst);
    if ignored() {
        return;
    }
    let handler: extern "C" fn(libc::c_int) = on_sigint;
    // SAFETY: the handler only touches an atomic and calls async-signal-safe functions.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

/// Whether SIGINT is ignored: read without changing it (sigaction with no new action).
#[cfg(unix)]
fn ignored() -> bool {
    // SAFETY: a zeroed sigaction is a valid out-parameter; a null new action only reads.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGINT, std::ptr::null(), &raw mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// Elsewhere Ctrl-C keeps its default action.
#[cfg(not(unix))]
pub fn install() {}

/// Gives SIGINT back its default action once the run is over (an ignored one stays
/// ignored).
#[cfg(unix)]
pub fn uninstall() {
    if ignored() {
        return;
    }
    // SAFETY: restoring the default action has no preconditions.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Elsewhere there is nothing to undo.
#[cfg(not(unix))]
pub fn uninstall() {}
