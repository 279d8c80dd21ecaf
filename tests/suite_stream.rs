//! `plylab suite` reports what a paper can cite: the total work under a limit (the
//! interrupted iteration included), a row for a position that completed no iteration,
//! exactness only when proven, rows streamed as positions finish and resumed from the CSV,
//! and malformed records skipped only when asked.

use std::path::Path;

use crate::common::{self, TempDir, plylab};
use plylab::lab::record::Row;

/// Pons's Test_L3_R1 (end games: every one solved at once by ordered alpha-beta).
const SET: &str = "experiments/data/connect4/Test_L3_R1";

fn run(args: &[&str]) -> (String, String) {
    let (code, stdout, stderr) = plylab(args);
    assert_eq!(code, 0, "`plylab {}`\n{stdout}\n{stderr}", args.join(" "));
    (stdout, stderr)
}

fn rows(path: &Path) -> Vec<Row> {
    csv::Reader::from_path(path)
        .expect("the CSV opens")
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("rows")
}

fn text(p: &Path) -> &str {
    p.to_str().expect("UTF-8")
}

#[test]
fn total_work_under_a_node_limit_counts_the_interrupted_iteration() {
    let tmp = TempDir::new("suite-work");
    let csv = tmp.path("rows.csv");
    let (stdout, _) = run(&[
        "suite",
        "connect4",
        "experiments/data/connect4/Test_L2_R1",
        "--take",
        "6",
        "--nodes",
        "2000",
        "--jobs",
        "1",
        "--csv",
        text(&csv),
    ]);
    let rows = rows(&csv);
    assert_eq!(rows.len(), 6);
    let mut stopped = 0;
    for r in &rows {
        let total = r.total_nodes.expect("total nodes");
        let done = r.nodes_to_depth.expect("nodes to depth");
        assert!(done <= total && total <= 2000, "{r:?}");
        assert!(r.total_s.expect("total seconds") >= r.time_to_depth_s.unwrap_or(0.0));
        if total == 2000 {
            // Stopped by the limit: the interrupted iteration cost work the completed
            // ones do not show.
            assert!(done < total, "{r:?}");
            stopped += 1;
        }
    }
    assert!(stopped > 0, "some positions hit the limit: {rows:?}");
    let mean = rows
        .iter()
        .map(|r| r.total_nodes.unwrap() as f64)
        .sum::<f64>()
        / 6.0;
    let expected = format!(
        "total work (every iteration, the interrupted one included): nodes per position mean {mean:.0}"
    );
    assert!(stdout.contains(&expected), "{expected}\n{stdout}");
    assert!(
        stdout.contains("work to the final completed iteration"),
        "{stdout}"
    );
}

#[test]
fn a_position_with_no_completed_iteration_gets_an_unsolved_row() {
    let tmp = TempDir::new("suite-none");
    let csv = tmp.path("rows.csv");
    let (stdout, _) = run(&[
        "suite",
        "connect4",
        SET,
        "--take",
        "3",
        "--nodes",
        "2",
        "--csv",
        text(&csv),
    ]);
    let rows = rows(&csv);
    assert_eq!(rows.len(), 3, "one row per position");
    for r in &rows {
        assert_eq!(
            (r.depth, r.solved, r.total_nodes),
            (0, Some(false), Some(2))
        );
    }
    assert!(stdout.contains("exact 0/3"), "{stdout}");
    assert!(
        stdout.contains("3 positions completed no iteration (counted unsolved)"),
        "{stdout}"
    );
}

#[test]
fn a_heuristic_draw_at_depth_one_is_not_exact() {
    let tmp = TempDir::new("suite-draw");
    let set = tmp.path("draw.txt");
    // Test_L2_R2's `674122772662275 0`: the centre-first evaluation also says 0 at depth 1.
    std::fs::write(&set, "674122772662275 0\n").unwrap();
    let (stdout, _) = run(&["suite", "connect4", text(&set), "--depth", "1"]);
    assert!(stdout.contains("exact 0/1"), "{stdout}");
}

#[test]
fn rows_stream_as_positions_finish_and_a_run_resumes() {
    let tmp = TempDir::new("suite-stream");
    let csv = tmp.path("rows.csv");
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "suite".to_owned(),
            "connect4".into(),
            SET.into(),
            "--take".into(),
            "8".into(),
            "--ordered".into(),
            "--csv".into(),
            text(&csv).into(),
        ];
        a.extend(extra.iter().map(|s| (*s).to_owned()));
        a
    };
    let call = |extra: &[&'static str]| {
        let a = args(extra);
        run(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (first, progress) = call(&[]);
    assert!(first.contains("exact 8/8"), "{first}");
    // Without a terminal, a line per finished position.
    let lines: Vec<&str> = progress.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(lines.len(), 8, "{progress}");
    assert!(lines.iter().any(|l| l.starts_with("[8/8] ")), "{progress}");
    // An interrupted run: the header and three rows written. Resuming searches the other
    // five only, and the file ends with every position once.
    let text_csv = std::fs::read_to_string(&csv).unwrap();
    let kept: Vec<&str> = text_csv.lines().take(4).collect();
    std::fs::write(&csv, kept.join("\n") + "\n").unwrap();
    let (resumed, progress) = call(&["--resume"]);
    assert_eq!(
        progress.lines().filter(|l| l.starts_with('[')).count(),
        5,
        "{progress}"
    );
    assert!(
        progress.contains("[4/8] "),
        "counting on from the kept rows: {progress}"
    );
    assert!(resumed.contains("exact 8/8"), "{resumed}");
    // Streamed as they finished, the rows of the finished run are in the set's order.
    let jobs: Vec<usize> = rows(&csv).iter().map(|r| r.job).collect();
    assert_eq!(jobs, (0..8).collect::<Vec<_>>());
    // Rows of another search are not resumed: a limit or a technique changed.
    std::fs::write(&csv, kept.join("\n") + "\n").unwrap();
    for (extra, column) in [
        (&["--resume", "--depth", "3"][..], "`searcher` is `cli`"),
        (&["--resume", "--tt-mb", "1"][..], "`params`"),
        (&["--resume", "--algorithm", "ybw"][..], "`algorithm`"),
    ] {
        let a = args(extra);
        let (code, _, stderr) = plylab(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 2, "{extra:?}: {stderr}");
        assert!(
            stderr.contains(column) && stderr.contains("cannot be resumed"),
            "{extra:?}: {stderr}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        kept.join("\n") + "\n"
    );
}

/// The --csv file is the run's record: one that holds something is replaced only with
/// --force; --resume reads only what a suite wrote (its header, exactly), and drops a last
/// line that a killed run left without its line end, searching that position again.
#[test]
fn a_csv_file_is_kept_unless_forced_and_resumed_only_from_a_suites_rows() {
    let tmp = TempDir::new("suite-csv-file");
    let csv = tmp.path("rows.csv");
    let suite = |extra: &[&str]| {
        let mut args = vec!["suite", "connect4", SET, "--take", "4", "--jobs", "1"];
        args.extend(["--csv", text(&csv)]);
        args.extend(extra);
        plylab(&args)
    };
    let (code, _, stderr) = suite(&[]);
    assert_eq!(code, 0, "{stderr}");
    let whole = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = whole.lines().next().unwrap().split(',').collect();
    assert_eq!(header, plylab::lab::record::suite_columns());
    let (code, _, stderr) = suite(&[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the file exists"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        whole,
        "left as it was"
    );
    let (code, _, stderr) = suite(&["--force"]);
    assert_eq!(code, 0, "{stderr}");
    let before = rows(&csv);
    let whole = std::fs::read_to_string(&csv).unwrap();
    // Killed while writing the third row: resumed, it is written again, whole.
    let third = whole.lines().take(3).map(str::len).sum::<usize>() + 3;
    std::fs::write(&csv, &whole[..third + 40]).unwrap();
    let (code, _, stderr) = suite(&["--resume"]);
    assert_eq!(code, 0, "{stderr}");
    let after = rows(&csv);
    let work = |rows: &[Row]| -> Vec<(usize, u64, Option<bool>)> {
        rows.iter().map(|r| (r.job, r.nodes, r.solved)).collect()
    };
    assert_eq!(work(&after), work(&before));
    // Another file's header (or a file that is no CSV of ours) is not appended to.
    for foreign in ["a,b,c\n", "notes\n"] {
        std::fs::write(&csv, foreign).unwrap();
        let (code, _, stderr) = suite(&["--resume"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("is not the header"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), foreign);
    }
}

#[test]
fn malformed_records_are_refused_unless_skipped_and_counted() {
    let tmp = TempDir::new("suite-skip");
    let set = tmp.path("bad.txt");
    std::fs::write(&set, "274552224131661 0\nxyz 3\n5455174361263362 -1\n").unwrap();
    let (code, _, stderr) = plylab(&["suite", "connect4", text(&set), "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("bad.txt:2: bad position `xyz 3`"),
        "{stderr}"
    );
    let (stdout, stderr) = run(&[
        "suite",
        "connect4",
        text(&set),
        "--depth",
        "2",
        "--skip-invalid",
    ]);
    assert!(
        stderr.contains("skipped: ") && stderr.contains("bad.txt:2"),
        "{stderr}"
    );
    assert!(stdout.contains("1 malformed records skipped"), "{stdout}");
    assert!(stdout.contains("/2 ="), "two positions judged: {stdout}");
}

#[test]
fn monte_carlo_algorithms_run_from_the_command_line() {
    for flag in [["--exploration", "1.0"], ["--playout-cutoff", "6"]] {
        let uct = ["search", "connect4", "start", "--algorithm", "uct"];
        let (stdout, _) = run(&[&uct[..], &flag, &["--nodes", "500"]].concat());
        assert!(stdout.contains("bestmove "), "{stdout}");
    }
    let (stdout, _) = run(&[
        "suite",
        "connect4",
        SET,
        "--take",
        "4",
        "--algorithm",
        "root_parallel",
        "--threads",
        "2",
        "--nodes",
        "300",
    ]);
    assert!(stdout.contains("/4 ="), "{stdout}");
    let (stdout, _) = run(&[
        "search",
        "connect4",
        "start",
        "--algorithm",
        "tree_parallel",
        "--threads",
        "2",
        "--hold-depth",
        "4",
        "--hold-playouts",
        "16",
        "--expand-visits",
        "4",
        "--nodes",
        "2000",
    ]);
    assert!(stdout.contains("bestmove "), "{stdout}");
    for bad in [
        &["suite", "connect4", SET, "--algorithm", "flat"][..],
        &[
            "search",
            "connect4",
            "start",
            "--algorithm",
            "uct",
            "--hold-depth",
            "2",
            "--nodes",
            "100",
        ][..],
        &[
            "search",
            "connect4",
            "start",
            "--exploration",
            "1",
            "--depth",
            "2",
        ][..],
    ] {
        let (code, _, stderr) = plylab(bad);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
    }
    // No tree to expand or cap, a threshold below one playout, a cap of nothing.
    for (algorithm, flag, value) in [
        ("flat", "--expand-visits", "2"),
        ("uct", "--expand-visits", "0"),
        ("flat", "--tree-mb", "64"),
        ("uct", "--tree-mb", "0"),
    ] {
        let args = ["search", "connect4", "start", "--nodes", "100"];
        let more = ["--algorithm", algorithm, flag, value];
        let bad: Vec<&str> = args.iter().chain(&more).copied().collect();
        let (code, _, stderr) = plylab(&bad);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
    }
}

/// A Monte Carlo tree capped by `--tree-mb` stops the search where it can grow no further,
/// short of its budget: the move is still given, and a note says why the budget was not
/// spent.
#[test]
fn a_tree_cap_stops_the_search_with_a_note() {
    let args = [
        "search",
        "connect4",
        "start",
        "--algorithm",
        "tree_parallel",
        "--threads",
        "2",
        "--nodes",
        "10000000",
        "--tree-mb",
        "1",
    ];
    let (code, stdout, stderr) = plylab(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("bestmove "), "{stdout}");
    let note = "note: the Monte Carlo tree could grow no further within tree_mb = 1 MiB";
    assert!(stderr.contains(note), "{stderr}");
    let playouts: u64 = stderr
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a playout count first");
    assert!(playouts < 1_000_000, "{stderr}");
}

/// A Monte Carlo move is judged by solving the position after it, within a node budget: an
/// early connect-four position (two stones: hours to solve) ends in seconds, its move
/// counted unsolved and reported as not judged, and the CSV's `solved` is left empty
/// rather than guessed.
#[test]
fn a_monte_carlo_move_too_far_from_the_end_to_judge_is_not_judged() {
    let tmp = TempDir::new("suite-unjudged");
    let set = tmp.path("early.txt");
    std::fs::write(&set, "44 0\n").expect("write");
    let csv = tmp.path("rows.csv");
    let (stdout, _) = run(&[
        "suite",
        "connect4",
        set.to_str().expect("UTF-8"),
        "--algorithm",
        "uct",
        "--nodes",
        "10",
        "--csv",
        csv.to_str().expect("UTF-8"),
    ]);
    assert!(stdout.contains("exact 0/1"), "{stdout}");
    let unjudged = "1 Monte Carlo moves not judged: the position after the move was not solved";
    assert!(stdout.contains(unjudged), "{stdout}");
    let rows = rows(&csv);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].solved, None);
}

/// Ctrl-C in a suite: no further position starts, those searching finish and write their
/// rows, the exit code is 130 with the command that resumes, and that command ends with
/// the rows of a run that went straight through.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_suite_between_positions_and_it_resumes() {
    let tmp = TempDir::new("suite-ctrl-c");
    let csv = tmp.path("rows.csv");
    let args = [
        "suite",
        "chess",
        "experiments/data/chess/wac.epd",
        "--take",
        "30",
        "--depth",
        "5",
        "--ordered",
        "--jobs",
        "1",
        "--csv",
        text(&csv),
    ];
    let lines = || std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count());
    let (code, stderr) = common::interrupted_when(&args, || lines() >= 3);
    assert_eq!(code, Some(130), "{stderr}");
    let message = stderr
        .lines()
        .find(|l| l.starts_with("error: interrupted: "))
        .unwrap_or_else(|| panic!("no interruption message in {stderr}"));
    assert!(
        message.contains(" of 30 positions finished, their rows in "),
        "{message}"
    );
    let finished = rows(&csv).len();
    assert!((2..30).contains(&finished), "{finished} rows");
    assert!(
        stderr.contains(&format!("--csv {} --resume", text(&csv))),
        "{stderr}"
    );
    run(&[&args[..], &["--resume"]].concat());
    let whole = tmp.path("whole.csv");
    let straight: Vec<&str> = args
        .iter()
        .map(|&a| if a == text(&csv) { text(&whole) } else { a })
        .collect();
    run(&straight);
    let searched = |path: &Path| -> Vec<(usize, String, Option<u64>)> {
        let mut r: Vec<_> = rows(path)
            .into_iter()
            .map(|r| (r.job, r.best_move, r.nodes_to_depth))
            .collect();
        r.sort_unstable();
        r
    };
    assert_eq!(searched(&csv), searched(&whole));
}

/// In an experiment, `tree_mb` caps each job's tree: the job whose tree outgrows its cap
/// stops short of its playout budget with a note naming it, the other spends its budget.
#[test]
fn an_experiment_names_the_job_its_tree_cap_stopped() {
    let tmp = TempDir::new("tree-cap");
    let file = tmp.path("capped.toml");
    let experiment = r#"
name = "capped"

[[games]]
game = "connect4"
positions = ["44"]

[[searchers]]
label = "uct"
algorithm = "uct"
tree_mb = [1, 64]
limits = { nodes = 50000 }
"#;
    std::fs::write(&file, experiment).unwrap();
    let out = tmp.path("out");
    let args = [
        "experiment",
        text(&file),
        "--out",
        text(&out),
        "--jobs",
        "1",
    ];
    let (code, _, stderr) = plylab(&args);
    assert_eq!(code, 0, "{stderr}");
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("note: job"))
        .collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    assert!(
        notes[0].starts_with("note: job 0 (uct[tree_mb=1] on 44): the Monte Carlo tree"),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(out.join("searches.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let column = rows.headers().unwrap().iter().position(|h| h == "playouts");
    let playouts: Vec<u64> = rows
        .records()
        .map(|r| {
            r.unwrap()[column.expect("a playouts column")]
                .parse()
                .unwrap()
        })
        .collect();
    assert!(
        playouts[0] < 50_000 && playouts[1] == 50_000,
        "{playouts:?}"
    );
}
