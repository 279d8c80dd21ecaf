//! Helpers shared by the command-line tests: run the binary, scratch directories.

use std::path::PathBuf;
use std::process::Command;

/// Runs the binary with `args` from the crate's root and returns (exit code, stdout, stderr).
pub fn plylab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the binary with `args` from the crate's root, its stdout a pipe whose reader is
/// already gone (as `| head -1` leaves it once it has its line); returns (exit code,
/// stderr).
pub fn plylab_to_closed_stdout(args: &[&str]) -> (i32, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(writer)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The library's unit-test scratch directory (src/testing.rs), removed when dropped: one
/// definition for both kinds of test.
#[path = "../../src/testing.rs"]
mod testing;
pub(crate) use testing::TempDir;

/// Whether python3 can import `imports` (python-chess modules, e.g. `chess, chess.pgn`) for
/// `script`. Without it a test skips with a note locally and fails under CI (the `CI`
/// environment variable set and not `false`/`0`), where .ci/run installs python-chess.
pub fn python_chess(imports: &str, script: &str) -> bool {
    let found = std::process::Command::new("python3")
        .args(["-c", &format!("import {imports}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return true;
    }
    let message = format!(
        "python-chess is not installed: `python3 -m pip install chess` (PyPI package \
         `chess`) to run {script}"
    );
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") {
        panic!("{message}");
    }
    eprintln!("note: skipped: {message}");
    false
}

/// Runs `python3 tests/uci/<script> args...` from the crate's root and returns (success,
/// stdout, stderr).
pub fn python_script<S: AsRef<std::ffi::OsStr>>(
    script: &str,
    args: &[S],
) -> (bool, String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/uci")
        .join(script);
    let out = Command::new("python3")
        .arg(path)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The columns of searches.csv that measure time (or derive from timings): the only ones
/// allowed to differ between two runs of the same plan. scripts/slurm-test.sh keeps the same
/// list (with searchers.csv's `alone` and `oversubscribed`) in its Python check.
pub const TIMING_COLUMNS: [&str; 9] = [
    "elapsed_s",
    "total_s",
    "nps",
    "answer_s",
    "playouts_per_s",
    "time_to_depth_s",
    "speedup",
    "overhead",
    "nps_scaling",
];

/// A games.csv (`out`/games.csv) as maps from column to value, one a game.
pub fn games_csv(out: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("games.csv")).expect("games.csv");
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// `pgn-extract -r -s` (Debian `pgn-extract`: check the games, report only problems) says
/// nothing about `pgn`; skipped, with the reason printed, where it is absent.
pub fn pgn_extract_reads_cleanly(pgn: &std::path::Path) {
    const PGN_EXTRACT: &str = "/usr/games/pgn-extract";
    if !std::path::Path::new(PGN_EXTRACT).exists() {
        eprintln!("SKIPPED: {PGN_EXTRACT} is absent (apt-get install pgn-extract)");
        return;
    }
    let out = Command::new(PGN_EXTRACT)
        .args(["-r", "-s"])
        .arg(pgn)
        .output()
        .expect("pgn-extract runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && said.trim().is_empty(),
        "pgn-extract: {said}"
    );
}

/// A sparse file `name` in `tmp`, one byte past `cap` (zeros that cost no disk): an input
/// refused without being read. Its path as text.
pub fn past_cap(tmp: &TempDir, name: &str, cap: plylab::input::Cap) -> String {
    let path = tmp.path(name);
    std::fs::File::create(&path)
        .and_then(|f| f.set_len(cap.bytes + 1))
        .expect("sparse file");
    path.to_str().expect("utf-8").to_owned()
}

/// The endgame databases experiments/knowledge.toml names, built as its notes say where they
/// are not yet (a fresh clone: they are too big to commit; about 7 s in release). Test
/// binaries that run at once may both build one: each writes its own temporary file and
/// renames it into place.
pub fn build_the_knowledge_databases(dir: &std::path::Path) {
    let builds = [
        ("chess", "KQK", "KQK.plytb"),
        ("chess", "KRK", "KRK.plytb"),
        ("chess", "KPK", "KPK.plytb"),
        ("chess", "KBNK", "KBNK.plytb"),
        ("checkers", "4", "checkers4.plytb"),
    ];
    for (game, ending, name) in builds {
        let file = dir.join(name);
        if file.exists() {
            continue;
        }
        let out = file.to_str().expect("UTF-8 path");
        let (code, _, stderr) = plylab(&["tablebase", "build", game, ending, "--out", out]);
        assert_eq!(code, 0, "building {out}: {stderr}");
    }
}

/// Starts the binary with `args` and interrupts it once `ready()` holds ([`interrupted`]).
#[cfg(unix)]
pub fn interrupted_when(args: &[&str], ready: impl Fn() -> bool) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_plylab"));
    command.args(args);
    interrupted(command, ready)
}

/// Makes `command` start with SIGINT's default action, as a command typed at a terminal
/// does. A child inherits an ignored SIGINT (tests started in the background of a
/// non-interactive shell: `.ci/run &`), and plylab then keeps it ignored, as a background
/// job should: a test of Ctrl-C would see no interruption, or wait forever for one.
#[cfg(unix)]
pub fn default_sigint(command: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: signal(2) is async-signal-safe, as a pre_exec hook must be.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        })
    }
}

/// Starts `command` (from the crate's root, stderr captured, SIGINT at its default:
/// [`default_sigint`]) in a process group of its own, waits up to a minute until `ready()` holds, sends the group SIGINT as a terminal's Ctrl-C
/// does (every process of the foreground group gets it, the programs the binary started
/// included, unless they are in a group of their own), and returns the exit code and stderr
/// once it has ended.
#[cfg(unix)]
pub fn interrupted(mut command: Command, ready: impl Fn() -> bool) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let mut child = default_sigint(&mut command)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("the binary runs");
    let begun = std::time::Instant::now();
    while !ready() && begun.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let status = Command::new("kill")
        .args(["-INT", "--", &format!("-{}", child.id())])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
        .expect("stderr reads");
    (child.wait().expect("the run ends").code(), stderr)
}
