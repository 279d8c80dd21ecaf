//! Runs that never lose or mix results (issue 19, points 8 to 11): a directory holding
//! another run's results is refused, Ctrl-C says how many jobs finished and how to resume
//! and leaves no summary or chart beside the CSV, a run killed outright still records its
//! time up to its last finished job, `--resume` after adding a searcher runs only its jobs,
//! and progress is printed as plain lines when stderr is not a terminal.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{self, TempDir, plylab};

/// Tic-tac-toe from the start and after one move, by minimax (the whole tree, no table)
/// and alpha-beta: 2 positions × 2 searchers × 6 repetitions = 24 jobs of a few tens of
/// milliseconds each.
const TINY: &str = r#"
name = "tiny"
seed = 3
repetitions = 6

[[games]]
game = "tictactoe"
positions = ["start", "5"]

[[searchers]]
label = "minimax"
algorithm = "minimax"
tt_mb = 0

[[searchers]]
label = "alphabeta"
algorithm = "alphabeta"
tt_mb = 0
"#;

const TINY_JOBS: usize = 24;

/// A third searcher to add to TINY.
const ORDERED: &str = r#"
[[searchers]]
label = "ordered"
algorithm = "alphabeta"
tt_mb = 1
ordering = { tt_move = true, killers = true, history = true }
"#;

fn text(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// Writes `body` as tiny.toml in `tmp`.
fn write(tmp: &TempDir, body: &str) -> std::path::PathBuf {
    let file = tmp.path("tiny.toml");
    std::fs::write(&file, body).expect("write the experiment");
    file
}

/// Runs `experiment FILE --out OUT` plus `extra`; returns (code, stdout, stderr).
fn experiment(file: &Path, out: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["experiment", text(file), "--out", text(out), "--jobs", "2"];
    args.extend_from_slice(extra);
    plylab(&args)
}

/// Starts `experiment FILE --out OUT --jobs 1` plus `extra` and reads its stderr up to the
/// first progress line (one job has finished, the others have not); returns the running
/// child, the rest of its stderr, and what was read.
#[cfg(unix)]
fn run_until_first_job(
    file: &Path,
    out: &Path,
    extra: &[&str],
) -> (
    std::process::Child,
    BufReader<std::process::ChildStderr>,
    String,
) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_plylab"));
    command
        .args(["experiment", text(file), "--out", text(out), "--jobs", "1"])
        .args(extra);
    until_first_job(command)
}

/// Starts `command` (a run, SIGINT at its default: [`common::default_sigint`]) and reads its
/// stderr up to the first progress line; returns the running child, the rest of its stderr,
/// and what was read.
#[cfg(unix)]
fn until_first_job(
    mut command: Command,
) -> (
    std::process::Child,
    BufReader<std::process::ChildStderr>,
    String,
) {
    let mut child = common::default_sigint(&mut command)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut seen = String::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).expect("stderr reads") > 0 {
        seen.push_str(&line);
        if line.starts_with("progress: ") {
            break;
        }
        line.clear();
    }
    assert!(seen.contains("progress: 1/"), "{seen}");
    (child, stderr, seen)
}

/// Sends `signal` (`INT`, `TERM`) to process `pid`.
#[cfg(unix)]
fn send(signal: &str, pid: u32) {
    assert!(kill(signal, pid));
}

/// Whether `kill -SIGNAL PID` succeeded.
#[cfg(unix)]
fn kill(signal: &str, pid: u32) -> bool {
    Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("kill runs")
        .success()
}

/// Sends `signal` to process `pid` if it is still there: an engine may have been closed
/// by plylab, whose own signal came first, before the signal meant for it is sent.
#[cfg(target_os = "linux")]
fn send_unless_gone(signal: &str, pid: u32) {
    let sent = kill(signal, pid);
    let gone = !Path::new(&format!("/proc/{pid}")).exists();
    assert!(sent || gone, "kill -{signal} {pid} failed");
}

/// What `out/run.json` records under `key` (null if nothing).
fn recorded(out: &Path, key: &str) -> serde_json::Value {
    let json = std::fs::read_to_string(out.join("run.json")).expect("run.json");
    let value: serde_json::Value = serde_json::from_str(&json).expect("json");
    value.get(key).cloned().unwrap_or_default()
}

/// The number of seconds `out/run.json` records under `key`, if any.
fn recorded_seconds(out: &Path, key: &str) -> Option<f64> {
    recorded(out, key).as_f64()
}

/// The rows of searches.csv as (searcher, position, repetition, depth, nodes, score).
fn rows(dir: &Path) -> Vec<(String, String, String, String, String, String)> {
    let mut reader = csv::Reader::from_path(dir.join("searches.csv")).expect("searches.csv");
    let header = reader.headers().expect("a header").clone();
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let cols = [
        col("searcher"),
        col("position"),
        col("repetition"),
        col("depth"),
        col("nodes"),
        col("score"),
    ];
    let mut rows: Vec<_> = reader
        .records()
        .map(|r| {
            let r = r.expect("a record");
            let c = |i: usize| r[cols[i]].to_owned();
            (c(0), c(1), c(2), c(3), c(4), c(5))
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_directory_with_results_is_refused_unless_resume_or_force() {
    let tmp = TempDir::new("refuse");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let before = std::fs::read(out.join("searches.csv")).expect("searches.csv");

    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 2, "{stderr}");
    for needle in [text(&out), "already holds", "`tiny`", "--resume", "--force"] {
        assert!(stderr.contains(needle), "no `{needle}` in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    let after = std::fs::read(out.join("searches.csv")).expect("searches.csv");
    assert_eq!(before, after, "a refused run touched searches.csv");

    // An arena match is refused the same way (before any engine starts).
    let (code, _, stderr) = plylab(&[
        "experiment",
        "experiments/arena_connect4.toml",
        "--out",
        text(&out),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("already holds"), "{stderr}");

    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("{TINY_JOBS} jobs run (0 kept")),
        "{stdout}"
    );

    // A file where the directory should be is bad input, even with --force.
    let (code, _, stderr) = experiment(&file, &file, &["--no-plot", "--force"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("is a file, not a results directory"),
        "{stderr}"
    );

    // A directory that cannot be made (under a file) is bad input too, for an experiment,
    // a match and a suite's --csv, before anything runs.
    let under_file = file.join("out");
    let csv = under_file.join("rows.csv");
    let set = "experiments/data/connect4/Test_L3_R1";
    let cases: [(&[&str], &str); 3] = [
        (
            &["experiment", text(&file), "--out", text(&under_file)],
            "cannot create the output directory",
        ),
        (
            &[
                "experiment",
                "experiments/arena_connect4.toml",
                "--out",
                text(&under_file),
            ],
            "cannot create the output directory",
        ),
        (
            &["suite", "connect4", set, "--take", "1", "--csv", text(&csv)],
            "cannot write the --csv file",
        ),
    ];
    for (args, needle) in cases {
        let (code, _, stderr) = plylab(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// A run into a directory without results removes none of its files: a picture or a
/// summary.md there was not drawn by plylab (a run into a results directory removes the
/// charts drawn from the earlier rows, so that none disagrees with the new ones).
#[test]
fn a_run_into_a_directory_without_results_leaves_its_pictures_alone() {
    let tmp = TempDir::new("pictures");
    let file = write(&tmp, TINY);
    let out = tmp.path("mine");
    std::fs::create_dir(&out).expect("mkdir");
    let mine = ["photo.png", "architecture.svg", "summary.md"];
    for name in mine {
        std::fs::write(out.join(name), name).expect("write");
    }
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    for name in mine {
        assert!(out.join(name).exists(), "{name} was removed");
    }
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    for name in mine {
        assert!(
            !out.join(name).exists(),
            "{name} beside the results was kept"
        );
    }
}

#[test]
fn more_workers_than_jobs_start_no_more_threads_than_jobs_and_past_256_are_refused() {
    let tmp = TempDir::new("workers");
    let file = write(&tmp, TINY);
    // 256 workers for 24 jobs: as quick as a few (thousands of idle workers once hung).
    let (code, stdout, stderr) = plylab(&[
        "experiment",
        text(&file),
        "--out",
        text(&tmp.path("out")),
        "--no-plot",
        "--jobs",
        "256",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("{TINY_JOBS} jobs run (0 kept")),
        "{stdout}"
    );
    let (code, _, stderr) = plylab(&[
        "experiment",
        text(&file),
        "--out",
        text(&tmp.path("out2")),
        "--jobs",
        "10000",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not in 1..=256"), "{stderr}");
}

#[test]
fn resume_after_adding_a_searcher_runs_only_its_jobs() {
    let tmp = TempDir::new("resume-added");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let first = rows(&out);

    // The new searcher's jobs interleave with the old ones (jobs go position by position),
    // so every kept job takes a new number.
    write(&tmp, &format!("{TINY}{ORDERED}"));
    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    let added = TINY_JOBS / 2;
    assert!(
        stdout.contains(&format!("{added} jobs run ({TINY_JOBS} kept")),
        "{stdout}"
    );
    let second = rows(&out);
    let old: Vec<_> = second
        .iter()
        .filter(|r| r.0 != "ordered")
        .cloned()
        .collect();
    assert_eq!(old, first, "the kept rows changed");
    assert!(second.iter().any(|r| r.0 == "ordered"));
    let jobs: std::collections::BTreeSet<usize> = csv::Reader::from_path(out.join("searches.csv"))
        .expect("csv")
        .records()
        .map(|r| r.expect("record")[0].parse().expect("job"))
        .collect();
    assert_eq!(jobs, (0..TINY_JOBS + added).collect(), "job numbers");
    let searchers = std::fs::read_to_string(out.join("searchers.csv")).expect("searchers.csv");
    assert_eq!(searchers.lines().count(), 4, "{searchers}");

    // Changing one searcher's configuration reruns its jobs only.
    write(
        &tmp,
        &format!("{TINY}{}", ORDERED.replace("tt_mb = 1", "tt_mb = 2")),
    );
    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("{added} jobs run ({TINY_JOBS} kept")),
        "{stdout}"
    );
}

/// Runs TINY in `tmp` without charts; returns the experiment file, the output directory,
/// its searches.csv and that file's text.
fn tiny_run(tmp: &TempDir) -> (PathBuf, PathBuf, PathBuf, String) {
    let file = write(tmp, TINY);
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let csv = out.join("searches.csv");
    let text = std::fs::read_to_string(&csv).expect("searches.csv");
    (file, out, csv, text)
}

/// The lines of `csv` (a header, then rows) with each `(line, column, value)` of `edits`
/// written into its cell.
fn with_cells(csv: &str, edits: &[(usize, &str, &str)]) -> Vec<String> {
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let mut lines: Vec<String> = csv.lines().map(str::to_owned).collect();
    for &(line, column, value) in edits {
        let at = header.iter().position(|&c| c == column).expect(column);
        let mut cells: Vec<&str> = lines[line].split(',').collect();
        cells[at] = value;
        lines[line] = cells.join(",");
    }
    lines
}

/// A last row cut short (its file has no line end: a run stopped while writing it) is not
/// kept even where all its columns are there, nor is a damaged row: each job is named on
/// stderr and run again, and the resumed file equals the whole run's.
#[test]
fn a_torn_or_damaged_row_is_named_and_its_job_run_again() {
    let tmp = TempDir::new("resume-torn");
    let (file, out, csv, text) = tiny_run(&tmp);
    let whole = rows(&out);
    // The last row loses the final digits of its last column (nodes_to_depth), and the
    // second row's `nodes` is no number.
    let torn = text
        .trim_end()
        .strip_suffix(|c: char| c.is_ascii_digit())
        .expect("a digit");
    let lines = with_cells(torn, &[(2, "nodes", "many")]);
    std::fs::write(&csv, lines.join("\n")).expect("write");
    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("2 jobs' rows are not kept"), "{stderr}");
    assert!(stderr.contains("column `nodes`"), "{stderr}");
    assert!(stderr.contains("has no line end: torn"), "{stderr}");
    assert!(stdout.contains("2 jobs run"), "{stdout}");
    assert_eq!(rows(&out), whole);
}

/// A row holding what no run writes (a game plylab does not have, a cutoff rate above 1, a
/// depth beyond any search) is damage, not a result: its job runs again, rather than the row
/// being kept and refused by the charts once the run is over (exit 1 after the work).
#[test]
fn a_row_no_run_writes_is_run_again_not_kept() {
    let tmp = TempDir::new("resume-implausible");
    let (file, out, csv, text) = tiny_run(&tmp);
    let whole = rows(&out);
    let edits = [
        (1, "game", "abc"),
        (4, "first_move_cutoff_rate", "1.5"),
        (7, "depth", "5001"),
    ];
    std::fs::write(&csv, with_cells(&text, &edits).join("\n") + "\n").expect("write");
    let (code, _, stderr) = experiment(&file, &out, &["--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("column `game`: not a game of plylab"),
        "{stderr}"
    );
    assert_eq!(rows(&out), whole);
}

/// A searcher's weights file edited between a run and its resume: its jobs run again with
/// the new weights (the path alone reads the same), the other searcher's are kept.
#[test]
fn resume_runs_again_the_jobs_of_a_weights_file_changed_since() {
    let tmp = TempDir::new("resume-weights");
    let weights = tmp.path("c4.toml");
    let original = std::fs::read_to_string("weights/connect4-tdleaf.toml").expect("weights");
    std::fs::write(&weights, &original).expect("write");
    let body = format!(
        "name = \"w\"\n[limits]\ndepth = 4\n[[games]]\ngame = \"connect4\"\n\
         positions = [\"start\", \"4\"]\n[[searchers]]\nlabel = \"plain\"\n\
         algorithm = \"alphabeta\"\n[[searchers]]\nlabel = \"learned\"\n\
         algorithm = \"alphabeta\"\neval = \"linear:{}\"\n",
        text(&weights)
    );
    let file = write(&tmp, &body);
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let edited = original.replace("tempo = 3.99", "tempo = -9.99");
    assert_ne!(edited, original);
    std::fs::write(&weights, &edited).expect("write");
    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("c4.toml has changed since"), "{stderr}");
    assert!(stdout.contains("2 jobs run (2 kept"), "{stdout}");
    let fresh = tmp.path("fresh");
    let (code, _, stderr) = experiment(&file, &fresh, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(rows(&out), rows(&fresh));
    // Unchanged since: everything kept.
    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("0 jobs run (4 kept"), "{stdout}");
}

/// `plylab tablebase build chess ENDING --out DIR/NAME`.
fn build_database(dir: &Path, ending: &str, name: &str) {
    std::fs::create_dir_all(dir).expect("mkdir");
    let out = dir.join(name);
    let (code, _, stderr) = plylab(&["tablebase", "build", "chess", ending, "--out", text(&out)]);
    assert_eq!(code, 0, "{stderr}");
}

/// A KRK position, searched by a plain searcher and by one with `tablebase = "tbd"`, a
/// directory of databases: 2 jobs.
const WITH_DATABASES: &str = r#"
name = "tbdir"
[limits]
depth = 2
[[games]]
game = "chess"
positions = ["8/8/8/8/3k4/8/8/R3K3 w - - 0 1"]
[[searchers]]
label = "plain"
algorithm = "alphabeta"
[[searchers]]
label = "tb"
algorithm = "alphabeta"
tablebase = "tbd"
"#;

/// A `tablebase` directory stands for its databases: run.json records each (and the
/// directory), and a database added to it, changed in it or removed from it since runs the
/// searcher's jobs again on `--resume` (its path alone reads the same), the other's kept.
#[test]
fn resume_runs_again_the_jobs_of_a_database_directory_changed_since() {
    let tmp = TempDir::new("resume-tbdir");
    let dir = tmp.path("tbd");
    build_database(&dir, "KRK", "KRK.plytb");
    let file = write(&tmp, WITH_DATABASES);
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let inputs = recorded(&out, "inputs");
    let krk = dir.join("KRK.plytb");
    let print = plylab::input::fingerprint(&krk).expect("fingerprint");
    assert_eq!(inputs[text(&krk)], print.as_str(), "{inputs}");
    assert!(inputs[text(&dir)].is_string(), "{inputs}");
    let resume = |changed: bool| {
        let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
        assert_eq!(code, 0, "{stderr}");
        let said = stderr.contains("tbd has changed since");
        assert_eq!(said, changed, "{stderr}");
        let expected = if changed {
            "1 jobs run (1 kept"
        } else {
            "0 jobs run (2 kept"
        };
        assert!(stdout.contains(expected), "{stdout}");
    };
    resume(false);
    build_database(&dir, "KQK", "KQK.plytb");
    resume(true);
    resume(false);
    // Changed in place: KQK's file holds KRK's database now.
    std::fs::copy(&krk, dir.join("KQK.plytb")).expect("copy");
    resume(true);
    std::fs::remove_file(dir.join("KQK.plytb")).expect("remove");
    resume(true);
    resume(false);
}

/// A file the plan read but that cannot be read again to fingerprint (removed since) is
/// refused, naming it, rather than left out of run.json, where `--resume` could not see it
/// change; the experiment command says so with exit code 2 (`SpecError`).
#[test]
fn a_database_gone_before_its_fingerprint_is_refused_naming_it() {
    let tmp = TempDir::new("fingerprint-gone");
    let dir = tmp.path("tbd");
    build_database(&dir, "KRK", "KRK.plytb");
    let file = write(&tmp, WITH_DATABASES);
    let plan = plylab::lab::spec::load(&file).expect("the plan reads");
    let searchers = || plan.jobs.iter().map(|j| &j.searcher);
    let prints = plylab::lab::spec::input_fingerprints(searchers()).expect("readable");
    let krk = dir.join("KRK.plytb");
    assert_eq!(prints.keys().collect::<Vec<_>>(), [text(&dir), text(&krk)]);
    std::fs::remove_file(&krk).expect("remove");
    let err = plylab::lab::spec::input_fingerprints(searchers()).expect_err("gone");
    assert_eq!(err.file, text(&dir));
    assert!(err.why.contains("no *.plytb"), "{err}");
    let err = err.in_file(&file).to_string();
    assert!(err.contains("tiny.toml") && err.contains("tbd"), "{err}");
    // A database named by its file.
    build_database(&dir, "KRK", "KRK.plytb");
    let file = write(
        &tmp,
        &WITH_DATABASES.replace("\"tbd\"", "\"tbd/KRK.plytb\""),
    );
    let plan = plylab::lab::spec::load(&file).expect("the plan reads");
    std::fs::remove_file(&krk).expect("remove");
    let err = plylab::lab::spec::input_fingerprints(plan.jobs.iter().map(|j| &j.searcher))
        .expect_err("gone");
    assert_eq!(err.file, text(&krk), "{err}");
}

/// Results kept from a run of another build: said on stderr, and run.json records both
/// commits, the earlier first (as a merge of shards run by several builds does).
#[test]
fn resume_by_another_build_records_both_commits() {
    let tmp = TempDir::new("resume-build");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let json = out.join("run.json");
    let commit = |out: &Path| -> String {
        recorded(out, "git_commit")
            .as_str()
            .expect("git_commit")
            .to_owned()
    };
    let now = commit(&out);
    let text = std::fs::read_to_string(&json).expect("run.json");
    std::fs::write(&json, text.replace(&now, "0123abc")).expect("write");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("written by plylab commit 0123abc"),
        "{stderr}"
    );
    assert_eq!(commit(&out), format!("0123abc + {now}"));
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("written by plylab commit"), "{stderr}");
    assert_eq!(commit(&out), format!("0123abc + {now}"));
}

#[test]
fn progress_is_printed_as_lines_without_a_terminal() {
    let tmp = TempDir::new("progress");
    let file = write(&tmp, TINY);
    let (code, _, stderr) = experiment(&file, &tmp.path("out"), &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(
        lines
            .first()
            .is_some_and(|l| l.starts_with(&format!("progress: 1/{TINY_JOBS} jobs, "))),
        "{stderr}"
    );
    let last = format!("progress: {TINY_JOBS}/{TINY_JOBS} jobs, ");
    assert!(
        lines.last().is_some_and(|l| l.starts_with(&last)),
        "{stderr}"
    );
    assert!(
        lines.iter().all(|l| l.contains(" elapsed, ETA ")),
        "{stderr}"
    );
}

/// While one run writes into a directory, a second run into it (`--resume` or `--force`
/// alike) is refused, exit code 2, and touches nothing: the two would each rewrite
/// searches.csv through a rename and lose the rows the other appended. The first run's lock
/// is held here by the test itself (the directory's own `flock`, as a run holds it), so
/// the check does not race a run's timing.
#[cfg(target_os = "linux")]
#[test]
fn a_second_run_into_a_directory_being_written_is_refused() {
    let tmp = TempDir::new("locked");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let before = std::fs::read(out.join("searches.csv")).expect("searches.csv");
    let running = std::fs::File::open(&out).expect("the directory");
    running.try_lock().expect("no run holds it");
    for flag in ["--resume", "--force"] {
        let (code, _, stderr) = experiment(&file, &out, &["--no-plot", flag]);
        assert_eq!(code, 2, "{flag}: {stderr}");
        assert!(
            stderr.contains("another plylab run is writing there"),
            "{flag}: {stderr}"
        );
    }
    let (code, _, stderr) = plylab(&[
        "experiment",
        "experiments/arena_connect4.toml",
        "--out",
        text(&out),
        "--force",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("another plylab run is writing there"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(out.join("searches.csv")).expect("searches.csv"),
        before
    );
    drop(running);
    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("0 jobs run ({TINY_JOBS} kept")),
        "{stdout}"
    );
}

/// `--resume` from another working directory: the earlier run's text is read as the file
/// run now, so its relative `file =` is found from that file's directory, not from the
/// directory the earlier run was started in (which made the resume refused, offering only
/// `--force`).
#[test]
fn resume_from_another_working_directory_keeps_the_finished_jobs() {
    let tmp = TempDir::new("resume-cwd");
    let dir = tmp.path("e2");
    std::fs::create_dir(&dir).expect("mkdir");
    let set = "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n";
    std::fs::write(dir.join("t.txt"), set).expect("set");
    let body = "name = \"set\"\n[limits]\ndepth = 2\n[[games]]\ngame = \"connect4\"\n\
                file = \"t.txt\"\n[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\n";
    std::fs::write(dir.join("set.toml"), body).expect("experiment");
    let run = |cwd: &Path, file: &str, out: &str, extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_plylab"))
            .args(["experiment", file, "--out", out, "--no-plot"])
            .args(extra)
            .current_dir(cwd)
            .output()
            .expect("plylab runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stdout, stderr)
    };
    let (code, _, stderr) = run(&tmp.path(""), "e2/set.toml", "o2", &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stdout, stderr) = run(&dir, "set.toml", "../o2", &["--resume"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("0 jobs run (2 kept"), "{stdout}");
}

/// A stderr that takes no writes (a full disk under a batch log; here /dev/full) costs the
/// progress lines and notes, not the run: every job, run.json's end and the charts are
/// written, exit code 0 (a failed `eprintln!` had panicked before anything ran).
#[cfg(target_os = "linux")]
#[test]
fn a_full_stderr_loses_the_messages_not_the_run() {
    let tmp = TempDir::new("full-stderr");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(["experiment", text(&file), "--out", text(&out)])
        .stdout(std::process::Stdio::null())
        .stderr(full)
        .status()
        .expect("plylab runs");
    assert_eq!(status.code(), Some(0));
    let reference = tmp.path("reference");
    let (code, _, stderr) = experiment(&file, &reference, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(rows(&out), rows(&reference));
    assert!(recorded_seconds(&out, "elapsed_s").is_some());
    assert!(out.join("summary.md").exists());
}

/// A stdout that takes no writes for another reason than a closed pipe (a full disk) is a
/// failure of a command whose product it is: exit code 1 after the work, said once, where
/// `plylab perft ... > out.txt` had left an empty file and exit code 0. A reader that has
/// seen enough (`| head -1`) is not a failure.
#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_a_failure_a_closed_pipe_is_not() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(["perft", "connect4", "start", "4"])
        .stdout(full)
        .output()
        .expect("plylab runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.matches("could not write to stdout").count(),
        1,
        "{stderr}"
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(["perft", "connect4", "start", "6"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("plylab runs");
    drop(child.stdout.take());
    assert_eq!(child.wait().expect("it ends").code(), Some(0));
}

/// A match stopped by Ctrl-C: the games being played finish, those not begun are not,
/// the exit code is 130 with the count and the command that resumes, and the resumed match
/// has the games of one that ran straight through.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_match_between_games_and_it_resumes() {
    let tmp = TempDir::new("ctrl-c-match");
    let file = tmp.path("match.toml");
    std::fs::write(
        &file,
        "name = \"m\"\nseed = 1\n[match]\ngame = \"connect4\"\nformat = \"round_robin\"\n\
         games = 20\nopenings = { random_plies = 2 }\nconcurrency = 1\n[[searchers]]\n\
         label = \"x\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 8 }\n\
         [[searchers]]\nlabel = \"y\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 8 }\n",
    )
    .expect("write the match");
    let out = tmp.path("out");
    // Stopped once two games are in games.csv (its header, then a line per game).
    let games = out.join("games.csv");
    let lines = || std::fs::read_to_string(&games).map_or(0, |t| t.lines().count());
    let args = ["experiment", text(&file), "--out", text(&out)];
    let (code, stderr) = common::interrupted_when(&args, || lines() >= 3);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains(" of 20 games finished, their rows in "),
        "{stderr}"
    );
    assert!(stderr.contains("--resume"), "{stderr}");
    let (code, stdout, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("kept from an earlier run"), "{stdout}");
    let whole = tmp.path("whole");
    let (code, _, stderr) = experiment(&file, &whole, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let moves = |dir: &Path| -> Vec<(String, String)> {
        common::games_csv(dir)
            .into_iter()
            .map(|g| (g["game"].clone(), g["line"].clone()))
            .collect()
    };
    assert_eq!(moves(&out), moves(&whole));
}

/// Writes a chess match of 8 games between plylab's UCI front (`uci --ordered`) and
/// in-process alpha-beta, both to `depth`; returns its file.
fn engine_match(tmp: &TempDir, depth: u32) -> PathBuf {
    let file = tmp.path("match.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"e\"\nseed = 9\n[match]\ngame = \"chess\"\nformat = \"round_robin\"\n\
             games = 8\nopenings = {{ random_plies = 4 }}\nconcurrency = 2\nmax_plies = 120\n\
             [[searchers]]\nlabel = \"uci\"\n\
             engine = {{ cmd = \"{}\", args = [\"uci\", \"--ordered\"] }}\n\
             limits = {{ depth = {depth} }}\n[[searchers]]\nlabel = \"ab\"\n\
             algorithm = \"alphabeta\"\nlimits = {{ depth = {depth} }}\n",
            env!("CARGO_BIN_EXE_plylab")
        ),
    )
    .expect("write the match");
    file
}

/// Resumes the interrupted match `file` in `out`, and checks that its games (moves and
/// endings) are those of the same match run straight through.
fn resumes_to_the_whole_match(tmp: &TempDir, file: &Path, out: &Path) {
    let (code, _, stderr) = experiment(file, out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    let whole = tmp.path("whole");
    let (code, _, stderr) = experiment(file, &whole, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let results = |dir: &Path| -> Vec<(String, String, String)> {
        common::games_csv(dir)
            .into_iter()
            .map(|g| (g["game"].clone(), g["line"].clone(), g["reason"].clone()))
            .collect()
    };
    assert_eq!(results(out), results(&whole));
}

/// Ctrl-C at the terminal reaches the whole foreground process group: the engines a match
/// started must not get it, or the games they are playing end as crashes (a forfeit that
/// `--resume` then keeps). The engine here is plylab's own UCI front.
#[cfg(unix)]
#[test]
fn ctrl_c_at_the_terminal_leaves_the_engines_playing() {
    let tmp = TempDir::new("ctrl-c-engine");
    let file = engine_match(&tmp, 3);
    let out = tmp.path("out");
    let games = out.join("games.csv");
    let lines = || std::fs::read_to_string(&games).map_or(0, |t| t.lines().count());
    let args = ["experiment", text(&file), "--out", text(&out)];
    let (code, stderr) = common::interrupted_when(&args, || lines() >= 2);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(!stderr.contains("forfeits"), "{stderr}");
    resumes_to_the_whole_match(&tmp, &file, &out);
}

/// Slurm, at a job's time limit, sends SIGTERM to every process of the job: the engines of a
/// match die with plylab's run. A game an engine died in after the interruption is not
/// recorded as a forfeit (which `--resume` would keep) but played again on resume.
#[cfg(target_os = "linux")]
#[test]
fn sigterm_to_the_engines_too_forfeits_no_game() {
    let tmp = TempDir::new("sigterm-engines");
    let file = engine_match(&tmp, 4);
    let out = tmp.path("out");
    let games = out.join("games.csv");
    let lines = || std::fs::read_to_string(&games).map_or(0, |t| t.lines().count());
    let mut child = Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(["experiment", text(&file), "--out", text(&out)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let begun = std::time::Instant::now();
    while lines() < 2 && begun.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let engines = children(child.id());
    assert!(!engines.is_empty(), "no engine process found");
    send("TERM", child.id());
    std::thread::sleep(std::time::Duration::from_millis(50));
    for engine in engines {
        send_unless_gone("TERM", engine);
    }
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
        .expect("stderr reads");
    assert_eq!(
        child.wait().expect("the run ends").code(),
        Some(143),
        "{stderr}"
    );
    assert!(!stderr.contains("forfeits"), "{stderr}");
    let reasons: Vec<String> = common::games_csv(&out)
        .into_iter()
        .map(|g| g["reason"].clone())
        .collect();
    assert!(reasons.iter().all(|r| r != "crash"), "{reasons:?}");
    resumes_to_the_whole_match(&tmp, &file, &out);
}

/// The processes whose parent is `pid` (Linux's /proc/PID/stat: the parent is the field
/// after the parenthesised command name).
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            std::fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

/// `experiment FILE --out OUT --jobs 1` plus `extra`, started as a script's `cmd &` starts
/// it: with SIGINT ignored.
#[cfg(unix)]
fn with_sigint_ignored(file: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .args(["-c", "trap '' INT; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_plylab"))
        .args(["experiment", text(file), "--out", text(out), "--jobs", "1"])
        .args(extra);
    command
}

/// The interruption message of an interrupted run's stderr, and the command it prints to
/// resume (on the next line).
fn interruption(stderr: &str) -> (&str, &str) {
    let mut lines = stderr
        .lines()
        .skip_while(|l| !l.starts_with("error: interrupted: "));
    let message = lines
        .next()
        .unwrap_or_else(|| panic!("no interruption message in {stderr}"));
    (message, lines.next().expect("the resume command").trim())
}

/// A run started with SIGINT ignored (`cmd &` in a script: the shell leaves background jobs
/// alone) keeps ignoring it: a Ctrl-C meant for the foreground does not stop it.
#[cfg(unix)]
#[test]
fn a_run_started_with_sigint_ignored_ignores_it() {
    let tmp = TempDir::new("sigint-ignored");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let command = with_sigint_ignored(&file, &out, &["--no-plot"]);
    // Interrupted once a job's rows are in (the header, then at least one row).
    let csv = out.join("searches.csv");
    let lines = || std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count());
    let (code, stderr) = common::interrupted(command, || lines() >= 2);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("interrupted"), "{stderr}");
    assert!(lines() > TINY_JOBS, "{} lines", lines());
}

#[cfg(unix)]
#[test]
fn ctrl_c_says_how_many_jobs_finished_and_how_to_resume() {
    let tmp = TempDir::new("ctrl-c");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    // A finished run with its summary and charts, then a forced run over it, interrupted.
    let (code, _, stderr) = experiment(&file, &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.join("summary.md").exists());
    let (mut child, mut stderr, seen) = run_until_first_job(&file, &out, &["--force"]);
    send("INT", child.id());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).expect("stderr reads");
    let code = child.wait().expect("the run ends").code();
    assert_eq!(code, Some(130), "{seen}{rest}");
    let (message, command) = interruption(&rest);
    let finished: usize = message["error: interrupted: ".len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count of finished jobs");
    assert!(
        message.contains(&format!("of {TINY_JOBS} jobs finished")),
        "{message}"
    );
    assert!((1..TINY_JOBS).contains(&finished), "{message}");
    assert!(command.ends_with("--resume"), "{command}");
    assert!(!command.contains("--force"), "{command}");
    // No summary or chart of the earlier run is left to disagree with the CSV.
    let drawn: Vec<String> = std::fs::read_dir(&out)
        .expect("out")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n == "summary.md" || n.ends_with(".png") || n.ends_with(".svg"))
        .collect();
    assert!(drawn.is_empty(), "{drawn:?}");
    // run.json says how long the interrupted run ran, not that it finished.
    let seconds = |key: &str| recorded_seconds(&out, key);
    let before = seconds("interrupted_after_s").expect("interrupted_after_s");
    assert!(before > 0.0 && seconds("elapsed_s").is_none());

    // The printed command resumes: only the unfinished jobs run.
    let words: Vec<&str> = command.split_whitespace().collect();
    let args: Vec<&str> = words[1..].to_vec();
    let (code, stdout, stderr) = plylab(&[&args[..], &["--no-plot"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!(
            "{} jobs run ({finished} kept",
            TINY_JOBS - finished
        )),
        "{stdout}"
    );
    // The finished run's time counts the interrupted run's.
    let whole = seconds("elapsed_s").expect("elapsed_s");
    assert!(whole > before, "{whole} after {before}");
    assert!(seconds("interrupted_after_s").is_none());
}

/// SIGTERM (`kill`, `timeout`, Slurm at a job's time limit) stops a run as Ctrl-C does, with
/// exit code 143, even in a run started with SIGINT ignored (`cmd &` in a script), whose
/// SIGINT stays ignored; the printed command resumes it.
#[cfg(unix)]
#[test]
fn sigterm_stops_a_run_as_ctrl_c_does_even_with_sigint_ignored() {
    let tmp = TempDir::new("sigterm");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let command = with_sigint_ignored(&file, &out, &[]);
    let (mut child, mut stderr, seen) = until_first_job(command);
    send("INT", child.id());
    send("TERM", child.id());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).expect("stderr reads");
    let code = child.wait().expect("the run ends").code();
    assert_eq!(code, Some(143), "{seen}{rest}");
    assert!(
        rest.contains("terminated: finishing what is running"),
        "{rest}"
    );
    assert!(!rest.contains("Ctrl-C again"), "SIGINT was caught: {rest}");
    let (message, command) = interruption(&rest);
    assert!(
        message.contains(&format!("of {TINY_JOBS} jobs finished")),
        "{message}"
    );
    assert!(recorded_seconds(&out, "interrupted_after_s").is_some());
    let words: Vec<&str> = command.split_whitespace().collect();
    let (code, stdout, stderr) = plylab(&[&words[1..], &["--no-plot"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("kept from an earlier run"), "{stdout}");
    let jobs: std::collections::BTreeSet<_> = rows(&out)
        .into_iter()
        .map(|(searcher, position, repetition, ..)| (searcher, position, repetition))
        .collect();
    assert_eq!(jobs.len(), TINY_JOBS, "{stdout}");
}

#[cfg(unix)]
#[test]
fn a_killed_run_records_its_time_up_to_its_last_finished_job() {
    let tmp = TempDir::new("killed");
    let file = write(&tmp, TINY);
    let out = tmp.path("out");
    let (mut child, _, seen) = run_until_first_job(&file, &out, &["--no-plot"]);
    // SIGKILL: no handler runs, nothing is written after this.
    child.kill().expect("kill");
    child.wait().expect("the run ends");
    let before = recorded_seconds(&out, "interrupted_after_s")
        .unwrap_or_else(|| panic!("no time recorded after {seen}"));
    assert!(before > 0.0 && recorded_seconds(&out, "elapsed_s").is_none());
    // The resumed run counts the killed run's time in its own, and leaves no temporary
    // file (`<file>.<pid>.tmp`) of the killed one.
    let (code, _, stderr) = experiment(&file, &out, &["--resume", "--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&out)
        .expect("the results")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let whole = recorded_seconds(&out, "elapsed_s").expect("elapsed_s");
    assert!(whole > before, "{whole} after {before}");
    // And its rows are those of a run never stopped.
    let straight = tmp.path("straight");
    let (code, _, stderr) = experiment(&file, &straight, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(rows(&out), rows(&straight));
}

/// A match's files are written whole or not at all, through a temporary file renamed over
/// them: the temporary files a writer killed outright left (`<file>.<pid>.tmp` of a process
/// that is gone) are removed by the next write, here `plot`'s redraw of standings.csv and
/// summary.md and a resumed match's games.pgn.
#[cfg(unix)]
#[test]
fn a_matchs_files_are_replaced_whole() {
    let tmp = TempDir::new("match-files");
    let file = tmp.path("match.toml");
    std::fs::write(
        &file,
        "name = \"w\"\nseed = 3\n[match]\ngame = \"chess\"\nformat = \"round_robin\"\n\
         games = 2\nopenings = { random_plies = 4 }\nmax_plies = 40\n[[searchers]]\n\
         label = \"x\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 2 }\n\
         [[searchers]]\nlabel = \"y\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 1 }\n",
    )
    .expect("write the match");
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    // A process id no process has (above Linux's largest, 2^22).
    let orphans = ["standings.csv", "summary.md", "games.pgn"]
        .map(|name| out.join(format!("{name}.999999999.tmp")));
    for orphan in &orphans {
        std::fs::write(orphan, "torn").expect("plant an orphan");
    }
    let (code, _, stderr) = plylab(&["plot", text(&out)]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    for orphan in &orphans {
        assert!(!orphan.exists(), "{} is left", orphan.display());
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
}

/// `--resume` into a directory with no earlier rows (a mistyped `--out`) says so at once,
/// then runs everything, for an experiment and for a match alike.
#[test]
fn resuming_from_nothing_says_so() {
    let tmp = TempDir::new("resume-nothing");
    let file = write(&tmp, TINY);
    let out = tmp.path("typo");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    let note = format!("note: --resume: {} holds no earlier rows", out.display());
    assert!(stderr.contains(&note), "{stderr}");
    let matchfile = tmp.path("match.toml");
    std::fs::write(
        &matchfile,
        "name = \"n\"\nseed = 1\n[match]\ngame = \"tictactoe\"\nformat = \"round_robin\"\n\
         games = 2\nopenings = { random_plies = 1 }\n[[searchers]]\nlabel = \"x\"\n\
         algorithm = \"alphabeta\"\n[[searchers]]\nlabel = \"y\"\nalgorithm = \"minimax\"\n",
    )
    .expect("write the match");
    let out = tmp.path("typo-match");
    let (code, _, stderr) = experiment(&matchfile, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    let note = format!("note: --resume: {} holds no earlier rows", out.display());
    assert!(stderr.contains(&note), "{stderr}");
}

/// A tic-tac-toe match of two games, named `n`.
const TINY_MATCH: &str = "name = \"n\"\nseed = 1\n[match]\ngame = \"tictactoe\"\n\
    format = \"round_robin\"\ngames = 2\nopenings = { random_plies = 1 }\n[[searchers]]\n\
    label = \"x\"\nalgorithm = \"alphabeta\"\n[[searchers]]\nlabel = \"y\"\n\
    algorithm = \"minimax\"\n";

/// An experiment's and a match's results never share a directory: `--force` removes
/// whichever the directory held, `--resume` into another experiment's directory is refused
/// even where its rows are not there, and a damaged compressed row file to resume from is
/// bad input naming it.
#[test]
fn force_and_resume_never_mix_two_experiments() {
    let tmp = TempDir::new("mix");
    let file = write(&tmp, TINY);
    let matchfile = tmp.path("match.toml");
    std::fs::write(&matchfile, TINY_MATCH).expect("write the match");
    let out = tmp.path("out");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = experiment(&matchfile, &out, &["--no-plot", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    for gone in ["searches.csv", "searchers.csv"] {
        assert!(!out.join(gone).exists(), "the match's --force left {gone}");
    }
    assert!(out.join("games.csv").exists());
    // Resumed into the match's directory (no searches.csv there), the experiment is refused,
    // and the match's files stay as they were.
    let before = std::fs::read(out.join("run.json")).expect("run.json");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("different experiment file"), "{stderr}");
    assert!(stderr.contains("`n`"), "{stderr}");
    assert_eq!(
        std::fs::read(out.join("run.json")).expect("run.json"),
        before
    );
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    for gone in ["games.csv", "standings.csv", "games.pgn"] {
        assert!(
            !out.join(gone).exists(),
            "the experiment's --force left {gone}"
        );
    }
    let (code, _, stderr) = experiment(&matchfile, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("different experiment file"), "{stderr}");

    // searches.csv kept compressed, then cut in half: resuming from it is bad input.
    let csv = std::fs::read(out.join("searches.csv")).expect("searches.csv");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, &csv).expect("compress");
    let gz = gz.finish().expect("compress");
    std::fs::write(out.join("searches.csv.gz"), &gz[..gz.len() / 2]).expect("write .gz");
    std::fs::remove_file(out.join("searches.csv")).expect("remove the plain rows");
    let (code, _, stderr) = experiment(&file, &out, &["--no-plot", "--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("searches.csv.gz is not a whole gzip file"),
        "{stderr}"
    );
}
