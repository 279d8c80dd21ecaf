//! Files written whole or not at all: results, books, databases, checkpoints; and report
//! lines on stdout that a closed pipe does not turn into a panic.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Writes the file at `path` anew: `write` fills a temporary file beside it, which is then
/// renamed over `path`. Stopped or failing at any moment, `path` holds its old content or
/// the new one whole, never a part (a `--resume` interrupted while it wrote the kept rows
/// back had left searches.csv empty). The temporary file is named after this process, so
/// two writers of one file never share it; a symbolic link is written through (the file it
/// names is replaced, not the link).
///
/// # Errors
/// What `write`, the temporary file or the rename report; the temporary file is removed.
/// A `path` that is there but not a regular file ([`check_regular`]) is refused first.
pub fn replace<T>(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>,
) -> io::Result<T> {
    check_regular(path)?;
    let resolved = path
        .is_symlink()
        .then(|| std::fs::canonicalize(path).ok())
        .flatten();
    let path = resolved.as_deref().unwrap_or(path);
    let tmp = temporary(path);
    let written = File::create(&tmp).and_then(|file| {
        let mut file = BufWriter::new(file);
        let value = write(&mut file)?;
        file.into_inner().map_err(io::IntoInnerError::into_error)?;
        std::fs::rename(&tmp, path)?;
        Ok(value)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    if written.is_ok() {
        remove_orphans(path);
    }
    written
}

/// Refuses a `path` that is there (through symbolic links) but is not a regular file: a
/// directory, a device such as /dev/null, a pipe such as /dev/stdout. [`replace`] renames
/// a file over `path`, which would put a regular file in the place of such a file rather
/// than write to it (run as root, `--csv /dev/null` replaced the device).
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`], saying so.
pub fn check_regular(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (the output is written beside it and renamed over it)",
        )),
        _ => Ok(()),
    }
}

/// Whether [`replace`] could write `path`: refuses what [`check_regular`] refuses, then
/// creates and removes the temporary file it would write beside it. A command whose work
/// takes minutes checks this before the work, so that an unwritable place is told at once
/// (bad input) rather than after the work.
///
/// # Errors
/// Why the file cannot be replaced or created (not a regular file, permissions, a
/// read-only file system, a name too long for the temporary file).
pub fn check_writable(path: &Path) -> io::Result<()> {
    check_regular(path)?;
    let probe = temporary(path);
    File::create(&probe)?;
    std::fs::remove_file(&probe)
}

/// The temporary file [`replace`] writes `path` through: `<path>.<pid>.tmp`, named after
/// this process so that two writers of one file never share it.
fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    PathBuf::from(tmp)
}

/// Removes the temporary files of `path` that writers no longer running left behind (a
/// process killed outright, `kill -9`, while it wrote): `<path>.<pid>.tmp` whose process
/// is gone. Those of running processes are theirs to rename.
fn remove_orphans(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!("{}.", name.to_string_lossy());
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|f| f.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && !process_runs(pid)
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` exists (signal 0 checks without sending anything).
#[cfg(unix)]
fn process_runs(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 sends nothing; it only reports whether the process exists
    // (EPERM: it does, owned by another user).
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Elsewhere every writer is taken to be running: nothing is removed.
#[cfg(not(unix))]
fn process_runs(_: u32) -> bool {
    true
}

/// [`replace`] with `bytes`.
///
/// # Errors
/// As [`replace`].
pub fn replace_bytes(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, |file| file.write_all(bytes))
}

/// Prints a line to stdout as `println!` does, except that a failed write is not a panic. A
/// reader that has seen enough (`| head -1`) closes the pipe, and `println!` would then
/// panic at the run's report line, before the charts and summary.md are drawn; the lost
/// line is all that is lost. Any other failure to write is told on stderr.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::say_line(::std::format_args!($($arg)*))
    };
}

/// Prints a line to stderr as `eprintln!` does, except that a failed write is not a panic:
/// warnings, notes, progress lines and the final error go to a log or a terminal that may
/// be gone (`2>&1 | head -1`, a full disk under a batch system's log, `2>/dev/full`), and
/// `eprintln!` would then panic mid-run, leaving run.json without its end and no charts.
/// There is nowhere left to tell such a failure, so it is ignored.
#[macro_export]
macro_rules! tell {
    ($($arg:tt)*) => {
        $crate::output::tell_line(::std::format_args!($($arg)*))
    };
}

/// The line of [`tell!`]: written to stderr with its newline, any failure ignored. Formatted
/// first and written at once: stderr is unbuffered, and a formatted write would make a
/// write for every piece, which lines of several threads could interleave.
pub fn tell_line(line: std::fmt::Arguments<'_>) {
    let mut text = line.to_string();
    text.push('\n');
    let _ = io::stderr().write_all(text.as_bytes());
}

/// Whether a line of [`say!`] failed for another reason than a closed pipe.
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

/// The line of [`say!`]: written with its newline, a closed pipe ignored. Any other failure
/// (a full disk) is told once on stderr and remembered: [`stdout_failed`].
pub fn say_line(line: std::fmt::Arguments<'_>) {
    let written = writeln!(io::stdout().lock(), "{line}");
    if let Err(e) = written
        && e.kind() != io::ErrorKind::BrokenPipe
        && !STDOUT_FAILED.swap(true, Relaxed)
    {
        tell_line(format_args!("warning: could not write to stdout: {e}"));
    }
}

/// Whether a line meant for stdout was lost for another reason than a reader that closed
/// the pipe: the command then exits with code 1 once its work is done, for a script that
/// kept its output (`plylab perft ... > out.txt` on a full disk) would otherwise take an
/// empty file for success.
#[must_use]
pub fn stdout_failed() -> bool {
    STDOUT_FAILED.load(Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TempDir;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let tmp = TempDir::new("output");
        let dir = tmp.dir();
        let path = dir.join("rows.csv");
        replace_bytes(&path, b"old\n").unwrap();
        let failed = replace(&path, |file| {
            file.write_all(b"half of the new")?;
            Err::<(), _>(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old\n");
        replace_bytes(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }

    /// A writer killed outright leaves its temporary file; the next write of the same file
    /// removes it, but not one of a writer still running nor another file's.
    #[cfg(unix)]
    #[test]
    fn the_next_write_removes_the_temporary_files_of_writers_gone() {
        let tmp = TempDir::new("orphans");
        let dir = tmp.dir();
        let path = dir.join("book.bin");
        let gone = dir.join("book.bin.2147483646.tmp");
        // Process 1 (init) always runs.
        let running = dir.join("book.bin.1.tmp");
        let other = dir.join("other.bin.2147483646.tmp");
        for f in [&gone, &running, &other] {
            std::fs::write(f, b"half").unwrap();
        }
        replace_bytes(&path, b"whole").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
        assert!(!gone.exists());
        assert!(running.exists());
        assert!(other.exists());
    }
}
