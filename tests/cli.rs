//! The command line's happy paths, on small inputs: `experiment` (CSV, run.json, charts,
//! determinism across `--jobs`, `--dry-run`, `--resume`), `search`, `perft`, `suite`,
//! `bench` and `plot`.

use std::path::{Path, PathBuf};

use crate::common::{self, TIMING_COLUMNS, TempDir, plylab};
use plylab::lab::record::round4;

/// Runs the binary and asserts exit code 0; returns stdout.
fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = plylab(args);
    assert_eq!(
        code,
        0,
        "`plylab {}`\nstdout: {stdout}\nstderr: {stderr}",
        args.join(" ")
    );
    stdout
}

fn text(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// A small experiment: random trees (b = 2 and 3), tic-tac-toe and connect four (the start
/// and three end-game positions of Pons's Test_L3_R1), with the four searchers of
/// experiments/ordering.toml.
const SMALL: &str = r#"# A small experiment for the CLI tests.
name = "cli-small"
seed = 7

[[games]]
game = "random_tree"
b = [2, 3]
d = 5
trees = 2

[[games]]
game = "tictactoe"
positions = ["start", "5"]
limits = { depth = 6 }

[[games]]
game = "connect4"
positions = ["start"]
file = "c4_small.txt"
limits = { depth = 6 }

[[searchers]]
label = "minimax"
algorithm = "minimax"
limits = { nodes = 200_000 }

[[searchers]]
label = "alphabeta"
algorithm = "alphabeta"

[[searchers]]
label = "alphabeta-random"
algorithm = "alphabeta"
ordering = { shuffle = true }

[[searchers]]
label = "alphabeta-ordered"
algorithm = "alphabeta"
tt_mb = 1
ordering = { tt_move = true, killers = true, history = true }
oracle = "perfect"
"#;

/// Jobs in SMALL: (2 shapes x 2 trees + 2 + 4 positions) x 4 searchers.
const SMALL_JOBS: usize = 40;

/// Writes SMALL and its test set into `dir`; returns the experiment file's path.
fn write_small(dir: &TempDir) -> PathBuf {
    let set = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cli/c4_small.txt");
    std::fs::copy(set, dir.path("c4_small.txt")).expect("copy the test set");
    let file = dir.path("small.toml");
    std::fs::write(&file, SMALL).expect("write the experiment");
    file
}

/// Runs `experiment FILE --out OUT --no-plot` plus `extra`; returns stdout.
fn run_experiment(file: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["experiment", text(file), "--out", text(out)];
    args.extend_from_slice(extra);
    ok(&args)
}

/// The CSV's header and records.
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path).expect("searches.csv opens");
    let header = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.expect("a record").iter().map(str::to_owned).collect())
        .collect();
    (header, rows)
}

/// The CSV's text without the [`TIMING_COLUMNS`].
fn without_timing(path: &Path) -> String {
    let (header, rows) = read_csv(path);
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !TIMING_COLUMNS.contains(&header[i].as_str()))
        .collect();
    assert_eq!(
        keep.len() + TIMING_COLUMNS.len(),
        header.len(),
        "timing columns present"
    );
    std::iter::once(&header)
        .chain(&rows)
        .map(|r| {
            keep.iter()
                .map(|&i| r[i].as_str())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// searches.csv's columns in their order (EXPERIMENTS.md, "searches.csv columns", says
/// what each holds): readers look them up by name, but the order is the file's format.
const COLUMNS: &[&str] = &[
    "job",
    "game",
    "set",
    "position",
    "searcher",
    "seed",
    "repetition",
    "iterations",
    "step",
    "depth",
    "score",
    "best_move",
    "pv",
    "nodes",
    "leaf_nodes",
    "qnodes",
    "tt_probes",
    "tt_hits",
    "beta_cutoffs",
    "first_move_cutoffs",
    "first_move_cutoff_rate",
    "ebf",
    "ebf_root",
    "branching",
    "minimal_leaves",
    "max_ply",
    "elapsed_s",
    "nps",
    "expected",
    "solved",
    "answer_depth",
    "answer_nodes",
    "answer_s",
    "playouts",
    "playouts_per_s",
    "total_nodes",
    "time_to_depth_s",
    "speedup",
    "overhead",
    "nps_scaling",
    "tb_probes",
    "tb_hits",
    "secondary_nodes",
    "secondary_switches",
    "total_s",
    "nodes_to_depth",
];

#[test]
fn experiment_writes_csv_run_json_charts_and_summary_then_plot_redraws() {
    let tmp = TempDir::new("experiment");
    let file = write_small(&tmp);
    let out = tmp.path("out");
    let stdout = ok(&[
        "experiment",
        text(&file),
        "--out",
        text(&out),
        "--jobs",
        "2",
    ]);
    assert!(
        stdout.contains(&format!("{SMALL_JOBS} jobs run")),
        "{stdout}"
    );

    let (header, rows) = read_csv(&out.join("searches.csv"));
    assert_eq!(
        header, COLUMNS,
        "searches.csv's columns or their order changed"
    );
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (job, depth) = (col("job"), col("depth"));
    let keys: Vec<(usize, u32)> = rows
        .iter()
        .map(|r| {
            (
                r[job].parse().expect("job"),
                r[depth].parse().expect("depth"),
            )
        })
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] < w[1]),
        "rows not sorted by job, depth"
    );
    let jobs: std::collections::BTreeSet<usize> = keys.iter().map(|k| k.0).collect();
    assert_eq!(jobs.len(), SMALL_JOBS, "a row for every job");
    derived_columns_follow_from_the_counters(&header, &rows);
    let games: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r[col("game")].as_str()).collect();
    assert_eq!(
        games.into_iter().collect::<Vec<_>>(),
        ["connect4", "random_tree", "tictactoe"]
    );
    let searchers: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r[col("searcher")].as_str()).collect();
    assert_eq!(
        searchers.into_iter().collect::<Vec<_>>(),
        [
            "alphabeta",
            "alphabeta-ordered",
            "alphabeta-random",
            "minimax"
        ]
    );
    // Each searcher's configuration is stored once, in searchers.csv.
    let (sheader, srows) = read_csv(&out.join("searchers.csv"));
    for column in [
        "searcher",
        "algorithm",
        "threads",
        "params",
        "cores",
        "alone",
    ] {
        assert!(sheader.iter().any(|h| h == column), "no column {column}");
    }
    assert_eq!(srows.len(), 4, "{srows:?}");
    for repeated in ["experiment", "params", "algorithm", "threads"] {
        assert!(!header.iter().any(|h| h == repeated), "{repeated} repeated");
    }

    let json = std::fs::read_to_string(out.join("run.json")).expect("run.json");
    let run: serde_json::Value = serde_json::from_str(&json).expect("run.json parses");
    for key in [
        "experiment",
        "text",
        "seed",
        "git_commit",
        "crate_version",
        "cpu_model",
        "cores",
        "date",
    ] {
        assert!(run.get(key).is_some(), "run.json has no `{key}`: {json}");
    }
    assert_eq!(run["experiment"], "cli-small");
    assert_eq!(run["text"], SMALL);
    assert_eq!(run["seed"], 7);
    assert_eq!(run["crate_version"], env!("CARGO_PKG_VERSION"));
    assert!(run["cores"].as_u64().is_some_and(|c| c >= 1));

    let names: Vec<String> = std::fs::read_dir(&out)
        .expect("results dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n == "summary.md"), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with(".png")), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with(".svg")), "{names:?}");

    // `plot` redraws from the CSV alone.
    let summary = out.join("summary.md");
    std::fs::remove_file(&summary).expect("remove summary.md");
    ok(&["plot", text(&out)]);
    assert!(summary.exists(), "plot did not redraw summary.md");
}

/// The derived columns of every row, recomputed from its counters as EXPERIMENTS.md defines
/// them: `ebf` = nodes / the previous iteration's (the job's row before), `ebf_root` =
/// nodes^(1/depth), both to four decimals; `nps` = nodes / `elapsed_s` (which is written
/// rounded, hence the tolerance). Rows come one job at a time, by depth.
fn derived_columns_follow_from_the_counters(header: &[String], rows: &[Vec<String>]) {
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let num = |row: &[String], name: &str| -> Option<f64> {
        let cell = &row[col(name)];
        (!cell.is_empty()).then(|| cell.parse().expect(name))
    };
    let mut checked_nps = 0;
    for (i, row) in rows.iter().enumerate() {
        let nodes = num(row, "nodes").expect("nodes");
        let depth = num(row, "depth").expect("depth");
        let previous = i
            .checked_sub(1)
            .map(|p| &rows[p])
            .filter(|p| p[col("job")] == row[col("job")]);
        let ebf = previous.map(|p| round4(nodes / num(p, "nodes").expect("nodes")));
        assert_eq!(num(row, "ebf"), ebf, "ebf of {row:?}");
        let ebf_root = round4(nodes.powf(1.0 / depth));
        assert_eq!(num(row, "ebf_root"), Some(ebf_root), "ebf_root of {row:?}");
        if let (Some(s), Some(nps)) = (num(row, "elapsed_s"), num(row, "nps")) {
            let expected = nodes / s;
            assert!(
                (nps - expected).abs() <= 0.01 * expected + 1.0,
                "nps {nps} against nodes / elapsed_s {expected} in {row:?}"
            );
            checked_nps += 1;
        }
    }
    assert!(checked_nps > 0, "no row had a measurable time");
}

#[test]
fn plot_on_a_missing_directory_is_bad_input() {
    let tmp = TempDir::new("plot-missing");
    let missing = tmp.path("no_such_results");
    let (code, _, stderr) = plylab(&["plot", text(&missing)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no_such_results"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A learning run's directory has a curve, not searches: `plot` says so and names the
/// command that draws it, instead of a bare "cannot access searches.csv".
#[test]
fn plot_on_a_learning_run_names_learn() {
    let tmp = TempDir::new("plot-learning");
    let dir = tmp.path("td");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("curve.csv"), "x,train,validation\n0,0.5,0.5\n").unwrap();
    let (code, _, stderr) = plylab(&["plot", text(&dir)]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("learning run's (curve.csv)") && stderr.contains("plylab learn"),
        "{stderr}"
    );
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let tmp = TempDir::new("determinism");
    let file = write_small(&tmp);
    let (one, two) = (tmp.path("one"), tmp.path("two"));
    run_experiment(&file, &one, &["--jobs", "1", "--no-plot"]);
    run_experiment(&file, &two, &["--jobs", "2", "--no-plot"]);
    let a = without_timing(&one.join("searches.csv"));
    let b = without_timing(&two.join("searches.csv"));
    assert!(a == b, "--jobs 1 and --jobs 2 differ");
}

#[test]
fn dry_run_lists_the_jobs_and_writes_nothing() {
    let tmp = TempDir::new("dry-run");
    let file = write_small(&tmp);
    let out = tmp.path("out");
    let stdout = run_experiment(&file, &out, &["--dry-run"]);
    assert!(
        stdout.starts_with(&format!("{SMALL_JOBS} jobs in experiment `cli-small`")),
        "{stdout}"
    );
    // The jobs, then the estimate.
    assert_eq!(stdout.lines().count(), SMALL_JOBS + 2, "{stdout}");
    let estimate = stdout.lines().last().unwrap();
    assert!(estimate.starts_with("estimated time: "), "{estimate}");
    for label in ["minimax", "alphabeta-random", "alphabeta-ordered"] {
        assert!(stdout.contains(label), "{stdout}");
    }
    assert!(!out.exists(), "--dry-run created {}", out.display());
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("results/cli-small")
            .exists()
    );
}

#[test]
fn dry_run_estimates_from_an_earlier_run() {
    let tmp = TempDir::new("dry-run-earlier");
    let (file, complete) = complete_run(&tmp);
    let stdout = run_experiment(&file, &complete, &["--dry-run", "--jobs", "1"]);
    let estimate = stdout.lines().last().unwrap();
    assert!(
        estimate.starts_with("estimated time: about ")
            && estimate.contains(" on 1 threads, scaled from the run in ")
            && estimate.contains(&format!("for {SMALL_JOBS} jobs on 2 threads")),
        "{estimate}"
    );
}

#[test]
fn dry_run_without_out_estimates_from_the_default_directory() {
    let tmp = TempDir::new("dry-run-default");
    let file = write_small(&tmp);
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_plylab"))
            .args(["experiment", text(&file), "--jobs", "2"])
            .args(extra)
            .current_dir(tmp.path(""))
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&["--no-plot"]);
    assert!(tmp.path("runs/cli-small/run.json").exists());
    let stdout = run(&["--dry-run"]);
    let estimate = stdout.lines().last().unwrap();
    assert!(
        estimate.contains("scaled from the run in runs/cli-small"),
        "{estimate}"
    );
}

/// From the limits alone: `exclusive` jobs' time limits add up whatever `--jobs`, said to be
/// a bound; jobs with only a node limit are said to be a guess.
#[test]
fn dry_run_bounds_only_what_time_limits_bound() {
    let tmp = TempDir::new("dry-run-bound");
    let file = tmp.path("bound.toml");
    let out = tmp.path("out");
    let estimate = |limits: &str, jobs: &str| {
        let text = format!(
            "name = \"bound\"\nrepetitions = 30\n[[games]]\ngame = \"tictactoe\"\n\
             positions = [\"start\"]\n[[searchers]]\nlabel = \"s\"\nalgorithm = \"alphabeta\"\n\
             exclusive = true\nlimits = {limits}\n"
        );
        std::fs::write(&file, text).expect("write");
        let stdout = run_experiment(&file, &out, &["--dry-run", "--jobs", jobs]);
        stdout.lines().last().unwrap_or_default().to_owned()
    };
    // 30 jobs of 2 s, one at a time: a minute on 2 threads as on 16.
    for jobs in ["2", "16"] {
        let line = estimate("{ time_ms = 2000 }", jobs);
        assert!(
            line.starts_with(&format!(
                "estimated time: at most about 60 s on {jobs} threads"
            )),
            "{line}"
        );
    }
    let line = estimate("{ nodes = 2000000 }", "2");
    assert!(
        line.starts_with("estimated time: about 60 s on 2 threads, a guess and not a bound: 30 jobs have only a node"),
        "{line}"
    );
}

/// A `--quick` dry run is not scaled from a full run (its jobs are cut to 200,000 nodes),
/// nor a full one from a quick run.
#[test]
fn dry_run_scales_only_from_a_run_of_its_kind() {
    let tmp = TempDir::new("dry-run-quick");
    let (file, complete) = complete_run(&tmp);
    let stdout = run_experiment(&file, &complete, &["--dry-run", "--quick"]);
    let estimate = stdout.lines().last().unwrap();
    assert!(!estimate.contains("scaled from"), "{estimate}");
    let quick = tmp.path("quick");
    run_experiment(&file, &quick, &["--quick", "--no-plot"]);
    let stdout = run_experiment(&file, &quick, &["--dry-run", "--quick"]);
    let estimate = stdout.lines().last().unwrap();
    assert!(estimate.contains("scaled from the run in "), "{estimate}");
    let stdout = run_experiment(&file, &quick, &["--dry-run"]);
    let estimate = stdout.lines().last().unwrap();
    assert!(
        !estimate.contains(&format!("run in {}", quick.display())),
        "{estimate}"
    );
}

/// Runs SMALL to completion into `tmp/complete` and returns the experiment file and that
/// directory.
fn complete_run(tmp: &TempDir) -> (PathBuf, PathBuf) {
    let file = write_small(tmp);
    let complete = tmp.path("complete");
    run_experiment(&file, &complete, &["--jobs", "2", "--no-plot"]);
    (file, complete)
}

/// A copy of `complete`'s run.json and of its searches.csv cut by `cut`, as an interrupted
/// run would leave them.
fn interrupted(tmp: &TempDir, complete: &Path, cut: impl FnOnce(&str) -> String) -> PathBuf {
    let dir = tmp.path("interrupted");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::copy(complete.join("run.json"), dir.join("run.json")).expect("copy run.json");
    let csv = std::fs::read_to_string(complete.join("searches.csv")).expect("searches.csv");
    std::fs::write(dir.join("searches.csv"), cut(&csv)).expect("write searches.csv");
    dir
}

/// The CSV text without the rows of jobs `first..`.
fn without_jobs_from(csv: &str, first: usize) -> String {
    csv.lines()
        .filter(|l| {
            l.split(',')
                .next()
                .and_then(|j| j.parse::<usize>().ok())
                .is_none_or(|j| j < first)
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn resume_runs_only_the_missing_jobs() {
    let tmp = TempDir::new("resume");
    let (file, complete) = complete_run(&tmp);
    let first_missing = SMALL_JOBS - 3;
    let dir = interrupted(&tmp, &complete, |csv| without_jobs_from(csv, first_missing));
    let stdout = run_experiment(&file, &dir, &["--resume", "--jobs", "2", "--no-plot"]);
    assert!(
        stdout.contains(&format!(
            "3 jobs run ({first_missing} kept from an earlier run)"
        )),
        "{stdout}"
    );
    assert!(
        without_timing(&dir.join("searches.csv")) == without_timing(&complete.join("searches.csv")),
        "the resumed CSV differs from the complete one"
    );
}

#[test]
fn resume_reruns_a_job_whose_rows_were_cut_short() {
    let tmp = TempDir::new("resume-partial");
    let (file, complete) = complete_run(&tmp);
    // Job 3 (a random tree) has a row per depth 1..=5: keep its first two rows only.
    let dir = interrupted(&tmp, &complete, |csv| {
        let kept = without_jobs_from(csv, 4);
        let mut lines: Vec<&str> = kept.lines().collect();
        lines.truncate(lines.len() - 3);
        lines.iter().map(|l| format!("{l}\n")).collect()
    });
    run_experiment(&file, &dir, &["--resume", "--no-plot"]);
    assert!(
        without_timing(&dir.join("searches.csv")) == without_timing(&complete.join("searches.csv")),
        "the resumed CSV differs from the complete one"
    );
}

#[test]
fn resume_survives_a_half_written_last_line() {
    let tmp = TempDir::new("resume-half-line");
    let (file, complete) = complete_run(&tmp);
    let dir = interrupted(&tmp, &complete, |csv| {
        let cut = without_jobs_from(csv, 10);
        let last_comma = cut.trim_end().rfind(',').expect("a comma");
        cut[..last_comma].to_owned()
    });
    run_experiment(&file, &dir, &["--resume", "--no-plot"]);
    assert!(
        without_timing(&dir.join("searches.csv")) == without_timing(&complete.join("searches.csv")),
        "the resumed CSV differs from the complete one"
    );
}

#[test]
fn resume_refuses_results_of_another_experiment() {
    let tmp = TempDir::new("resume-other");
    let (_, complete) = complete_run(&tmp);
    let other = tmp.path("other.toml");
    std::fs::write(&other, SMALL.replace("cli-small", "cli-other")).expect("write");
    let before = std::fs::read_to_string(complete.join("searches.csv")).expect("csv");
    let (code, _, stderr) = plylab(&[
        "experiment",
        text(&other),
        "--out",
        text(&complete),
        "--resume",
        "--no-plot",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("different experiment file"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let after = std::fs::read_to_string(complete.join("searches.csv")).expect("csv");
    assert_eq!(before, after, "the refused resume changed searches.csv");
}

#[test]
fn resume_after_a_new_seed_keeps_no_job() {
    // Every job's seed derives from the experiment seed: none is the same job any more.
    let tmp = TempDir::new("resume-seed");
    let (file, complete) = complete_run(&tmp);
    std::fs::write(&file, SMALL.replace("seed = 7", "seed = 8")).expect("write");
    let stdout = run_experiment(&file, &complete, &["--resume", "--no-plot"]);
    assert!(
        stdout.contains(&format!("{SMALL_JOBS} jobs run (0 kept")),
        "{stdout}"
    );
}

#[test]
fn search_prints_an_info_line_per_depth_and_a_best_move() {
    let stdout = ok(&["search", "connect4", "start", "--depth", "6", "--ordered"]);
    let infos: Vec<&str> = stdout.lines().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 6, "{stdout}");
    for (i, line) in infos.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            &words[..3],
            ["info", "depth", &(i + 1).to_string()],
            "{line}"
        );
        let after = |key: &str| {
            let at = words.iter().position(|w| *w == key).expect(key);
            words[at + 1..].to_vec()
        };
        assert!(
            after("nodes")[0].parse::<u64>().is_ok_and(|n| n > 0),
            "{line}"
        );
        // The principal variation of depth d is d columns 1-7.
        let pv = after("pv");
        assert_eq!(pv.len(), i + 1, "{line}");
        assert!(
            pv.iter()
                .all(|m| matches!(*m, "1" | "2" | "3" | "4" | "5" | "6" | "7"))
        );
    }
    let last = stdout.lines().last().expect("output");
    assert!(last.starts_with("bestmove "), "{stdout}");
    // A finished position has no best move, and the line says why.
    for (game, position, why) in [
        (
            "chess",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "insufficient material",
        ),
        ("connect4", "4455667", "four in a row"),
    ] {
        let stdout = ok(&["search", game, position, "--depth", "2"]);
        let expected = format!("bestmove (none: the game is over, {why}) score ");
        assert!(stdout.contains(&expected), "{stdout}");
    }
    // Without a limit the search goes to the end of the game, and says so.
    let (code, stdout, stderr) = plylab(&["search", "tictactoe", "5"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("bestmove "), "{stdout}");
    assert!(
        stderr.contains("deepens to the end of the game, at most 8 plies from here"),
        "{stderr}"
    );
}

#[test]
fn a_lazy_smp_main_thread_at_alternate_depths_prints_every_other_depth() {
    let args = |main_depths| {
        [
            "search",
            "connect4",
            "44",
            "--algorithm",
            "lazy_smp",
            "--threads",
            "2",
            "--ordered",
            "--depth",
            "10",
            "--main-depths",
            main_depths,
        ]
    };
    let depths = |stdout: &str| -> Vec<u32> {
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix("info depth "))
            .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
            .collect()
    };
    let alternate = ok(&args("alternate"));
    let every = ok(&args("every"));
    // Even depths ending at 10 (fewer when the helper finished first), every depth to 10.
    let main = depths(&alternate);
    assert!(main.iter().all(|d| d % 2 == 0), "{alternate}");
    assert_eq!(main.last(), Some(&10), "{alternate}");
    assert_eq!(depths(&every).last(), Some(&10), "{every}");
    let (code, _, stderr) = plylab(&args("sideways"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--main-depths"), "{stderr}");
}

#[test]
fn minimax_finds_that_tictactoe_is_a_draw() {
    let stdout = ok(&[
        "search",
        "tictactoe",
        "start",
        "--algorithm",
        "minimax",
        "--tt-mb",
        "0",
    ]);
    let infos: Vec<&str> = stdout.lines().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 9, "{stdout}");
    assert!(infos[8].contains(" score 0 "), "{stdout}");
    // Minimax without a table visits the whole game tree at depth 9.
    assert!(infos[8].contains(" nodes 549946 "), "{stdout}");
    let last = stdout.lines().last().expect("output");
    assert!(
        last.starts_with("bestmove ") && last.ends_with(" score 0"),
        "{stdout}"
    );
}

/// Games without a bound on their length (chess, checkers, backgammon) are not searched
/// without a limit, which would not end; othello's board bounds it, and the search solves.
#[test]
fn a_search_of_an_unbounded_game_needs_a_limit() {
    for (game, position, algorithm) in [
        ("chess", "startpos", "alphabeta"),
        ("checkers", "start", "alphabeta"),
        ("backgammon", "start 31", "expectiminimax"),
    ] {
        let (code, _, stderr) = plylab(&["search", game, position, "--algorithm", algorithm]);
        assert_eq!(code, 2, "{game}: {stderr}");
        assert!(
            stderr.contains(&format!("a {game} search needs a limit")),
            "{stderr}"
        );
        let (code, _, stderr) = plylab(&[
            "search",
            game,
            position,
            "--algorithm",
            algorithm,
            "--depth",
            "1",
        ]);
        assert_eq!(code, 0, "{game}: {stderr}");
    }
    let near_end = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOO--- X";
    ok(&["search", "othello", near_end]);
}

/// The count printed by `perft GAME POSITION DEPTH`.
fn perft(game: &str, position: &str, depth: u32) -> u64 {
    let stdout = ok(&["perft", game, position, &depth.to_string()]);
    let prefix = format!("perft {depth} = ");
    let rest = stdout.trim().strip_prefix(&prefix).expect("perft line");
    rest.split_whitespace()
        .next()
        .expect("a count")
        .parse()
        .expect("a number")
}

#[test]
fn perft_counts_known_move_sequences() {
    assert_eq!(perft("connect4", "start", 4), 2401);
    assert_eq!(perft("tictactoe", "start", 5), 15_120);
    // 1440 games are won at ply 5, so 13680 positions have 4 replies each.
    assert_eq!(perft("tictactoe", "start", 6), 54_720);
    // Sequences of exactly 9 plies: the games that last all nine moves (81792 won by the
    // first player on the last move, 46080 draws). All 255168 games is a different count.
    assert_eq!(perft("tictactoe", "start", 9), 127_872);
}

#[test]
fn suite_solves_fifty_end_games_exactly() {
    let stdout = ok(&[
        "suite",
        "connect4",
        "experiments/data/connect4/Test_L3_R1",
        "--ordered",
        "--take",
        "50",
    ]);
    assert!(stdout.contains("exact 50/50"), "{stdout}");
    assert!(!stdout.contains("miss:"), "{stdout}");
}

/// The node count of the `bench:` line.
fn bench_nodes() -> u64 {
    let stdout = ok(&["bench"]);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("bench:"))
        .unwrap_or_else(|| panic!("no bench: line in {stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.get(2), Some(&"nodes"), "{line}");
    words[1].parse().expect("a node count")
}

#[test]
fn bench_signature_is_deterministic() {
    let first = bench_nodes();
    assert!(first > 0);
    assert_eq!(first, bench_nodes());
}

#[test]
fn quick_runs_a_reduced_experiment_end_to_end() {
    let tmp = TempDir::new("quick");
    let out = tmp.path("ordering");
    let stdout = ok(&[
        "experiment",
        "experiments/ordering.toml",
        "--quick",
        "--out",
        text(&out),
    ]);
    assert!(stdout.contains("jobs run"), "{stdout}");
    let csv = std::fs::read_to_string(out.join("searches.csv")).expect("searches.csv");
    let positions: std::collections::BTreeSet<(&str, &str)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[1], cells[3]) // game, position
        })
        .collect();
    // Two positions of each of the seven games of ordering.toml with several, and the
    // single tic-tac-toe start position.
    assert_eq!(positions.len(), 7 * 2 + 1, "{positions:?}");
    assert!(out.join("summary.md").exists());
}

/// Every committed experiment, arena and learning file is valid: `experiment --dry-run`
/// accepts the first two (the data files they name included), the learning files parse as
/// `plylab learn` reads them, and `experiment` on a learning file says to run `learn`.
#[test]
fn every_committed_experiment_file_is_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("experiments/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    common::build_the_knowledge_databases(&dir.join("data/tablebase"));
    let (mut experiments, mut learning) = (0, 0);
    for file in &files {
        let path = file.to_str().expect("UTF-8 path");
        let text = std::fs::read_to_string(file).expect("readable");
        let (code, stdout, stderr) = plylab(&["experiment", path, "--dry-run"]);
        if plylab::learn::is_learning(&text) {
            learning += 1;
            let read = plylab::learn::read_spec(file);
            assert!(read.is_ok(), "{path}: {:?}", read.err());
            assert_eq!(code, 2, "{path}: {stderr}");
            assert!(stderr.contains("plylab learn"), "{path}: {stderr}");
        } else if code == 2 && stderr.contains(": program `") && stderr.contains("` not found") {
            // An external player this machine lacks (.ci/run installs them where it can).
            println!("skipped: {}", stderr.trim());
        } else {
            experiments += 1;
            assert_eq!(code, 0, "{path}: {stderr}");
            assert!(!stdout.is_empty(), "{path}: the dry run lists nothing");
        }
    }
    assert!(
        experiments >= 20 && learning >= 5,
        "{experiments} and {learning} files"
    );
}

/// Flags the chosen algorithm or game does not read are refused (exit 2, naming the flag),
/// as an experiment file refuses their keys, rather than quietly ignored; the same flags
/// where they mean something pass, and a flag left at its default is never refused.
#[test]
fn flags_the_algorithm_or_game_does_not_read_are_bad_input() {
    let refused: &[(&[&str], &str)] = &[
        (
            &[
                "search",
                "connect4",
                "start",
                "--threads",
                "4",
                "--depth",
                "4",
            ],
            "--threads is for",
        ),
        (
            &[
                "search",
                "connect4",
                "start",
                "--algorithm",
                "lazy_smp",
                "--split-plies",
                "3",
                "--depth",
                "4",
            ],
            "--split-plies is for --algorithm ybw",
        ),
        (
            &[
                "search",
                "connect4",
                "start",
                "--helper-depths",
                "same",
                "--depth",
                "4",
            ],
            "--helper-depths is for --algorithm lazy_smp",
        ),
        (
            &[
                "search",
                "connect4",
                "start",
                "--algorithm",
                "uct",
                "--tt-mb",
                "4",
                "--nodes",
                "100",
            ],
            "--tt-mb is for the alpha-beta family",
        ),
        (
            &[
                "search",
                "connect4",
                "start",
                "--algorithm",
                "uct",
                "--ordered",
                "--nodes",
                "100",
            ],
            "--ordered is for the alpha-beta family",
        ),
        (
            &[
                "search",
                "connect4",
                "start",
                "--algorithm",
                "uct",
                "--depth",
                "4",
                "--nodes",
                "100",
            ],
            "--depth is for the alpha-beta family",
        ),
        (
            &[
                "search", "connect4", "start", "--oracle", "perfect", "--depth", "3",
            ],
            "--oracle orders random trees",
        ),
        (
            &[
                "search", "chess", "startpos", "--eval", "pubeval", "--depth", "2",
            ],
            "not an evaluation of chess",
        ),
        (
            &[
                "search", "connect4", "start", "--eval", "material", "--depth", "2",
            ],
            "not an evaluation of connect4",
        ),
        (
            &[
                "suite",
                "connect4",
                "experiments/data/connect4/Test_L3_R1",
                "--take",
                "1",
                "--eval",
                "pst",
            ],
            "not an evaluation of connect4",
        ),
        // Techniques the game gives nothing to work on.
        (
            &[
                "search",
                "connect4",
                "start",
                "--null-move",
                "2",
                "--depth",
                "3",
            ],
            "--null-move does nothing here: connect4 has no null move",
        ),
        (
            &[
                "search",
                "othello",
                "start",
                "--quiescence",
                "4",
                "--depth",
                "3",
            ],
            "--quiescence does nothing here: othello has no captures",
        ),
        (
            &[
                "search",
                "checkers",
                "start",
                "--check-extension",
                "12",
                "--depth",
                "3",
            ],
            "--check-extension does nothing here: checkers has no checks",
        ),
        (
            &[
                "search",
                "chess",
                "startpos",
                "--algorithm",
                "minimax",
                "--killers",
                "--depth",
                "2",
            ],
            "--killers does nothing in --algorithm minimax",
        ),
        (
            &[
                "search",
                "backgammon",
                "start 31",
                "--algorithm",
                "expectiminimax",
                "--aspiration",
                "50",
                "--depth",
                "1",
            ],
            "--aspiration does nothing in --algorithm expectiminimax",
        ),
        (
            &[
                "search",
                "chess",
                "startpos",
                "--null-verify",
                "--depth",
                "2",
            ],
            "--null-verify tunes --null-move, which is off",
        ),
        (
            &[
                "suite",
                "chess",
                "experiments/data/chess/mate_in_1.epd",
                "--quiescence-tt",
                "--depth",
                "2",
            ],
            "--quiescence-tt tunes --quiescence, which is off",
        ),
        (
            &[
                "suite",
                "connect4",
                "experiments/data/connect4/Test_L3_R1",
                "--wipe-table",
                "--tt-mb",
                "0",
                "--depth",
                "2",
            ],
            "--wipe-table wipes the workers' transposition tables between positions, and this search has none",
        ),
        (
            &[
                "search", "connect4", "start", "--tt-mb", "0", "--etc", "--depth", "4",
            ],
            "--etc changes how the transposition table is used, and --tt-mb 0 turns it off",
        ),
        (
            &["search", "chess", "startpos", "--parity", "--depth", "2"],
            "--parity does nothing here: chess has no regions of empty squares",
        ),
        (
            &[
                "search",
                "connect4",
                "start",
                "--refined-mobility",
                "--depth",
                "2",
            ],
            "--refined-mobility does nothing here: connect4 has no measure of mobility finer than fastest-first's count of moves",
        ),
        (
            &["search", "checkers", "start", "--pons", "--depth", "2"],
            "--threats (set by --pons) does nothing here: checkers has no winning spots",
        ),
        (
            &["search", "othello", "start", "--win-check", "--depth", "2"],
            "--win-check does nothing here: othello has no wins to check for",
        ),
        (
            &["search", "othello", "start", "--anticipate", "--depth", "2"],
            "--anticipate does nothing here: othello has no losses to anticipate",
        ),
        (
            &[
                "search",
                "random_tree",
                "b=3,d=4,seed=1",
                "--score-grain",
                "2",
                "--depth",
                "2",
            ],
            "--score-grain does nothing here: random_tree has no wins or losses",
        ),
        (
            &[
                "search",
                "connect4",
                "start",
                "--endgame-solver",
                "8",
                "--depth",
                "2",
            ],
            "--endgame-solver does nothing here: connect4 has no dedicated endgame solver",
        ),
        (
            &["uci", "--algorithm", "expectiminimax"],
            "searches games with chance nodes",
        ),
        (
            &["uci", "--algorithm", "star2", "--depth", "3"],
            "searches games with chance nodes",
        ),
        (&["uci", "--eval", "race"], "not an evaluation of chess"),
        (&["uci", "--weak"], "proves only a result's sign"),
        (
            &["plot", "results/arena_connect4/games.csv.gz"],
            "a match's games.csv.gz is drawn from its directory, with its run.json: plylab plot results/arena_connect4",
        ),
        (
            &[
                "uci",
                "--config",
                "experiments/connect4.toml",
                "--searcher",
                "best",
            ],
            "searcher `best` searches connect4 there, not chess",
        ),
        (
            &[
                "uci",
                "--config",
                "experiments/wac.toml",
                "--searcher",
                "strongest",
                "--tt-mb",
                "4",
            ],
            "--tt-mb is a technique flag, and --config experiments/wac.toml configures searcher `strongest`",
        ),
        (
            &["uci", "--oracle", "perfect"],
            "--oracle orders random trees",
        ),
    ];
    for (args, needle) in refused {
        let (code, _, stderr) = plylab(args);
        assert_eq!(code, 2, "`{}`: {stderr}", args.join(" "));
        assert!(stderr.contains(needle), "`{}`: {stderr}", args.join(" "));
    }
    let accepted: &[&[&str]] = &[
        &[
            "search", "chess", "startpos", "--eval", "shannon", "--depth", "2",
        ],
        &[
            "search",
            "backgammon",
            "start 31",
            "--algorithm",
            "star2",
            "--eval",
            "race",
            "--depth",
            "1",
        ],
        &[
            "search",
            "checkers",
            "start",
            "--quiescence",
            "unlimited",
            "--delta-margin",
            "50",
            "--depth",
            "3",
        ],
        &[
            "search",
            "connect4",
            "start",
            "--null-move",
            "off",
            "--depth",
            "3",
        ],
        &[
            "search",
            "random_tree",
            "b=3,d=4",
            "--oracle",
            "perfect",
            "--depth",
            "3",
        ],
        &[
            "search",
            "connect4",
            "start",
            "--algorithm",
            "ybw",
            "--threads",
            "2",
            "--split-plies",
            "3",
            "--depth",
            "5",
        ],
        &[
            "search",
            "connect4",
            "start",
            "--algorithm",
            "root_parallel",
            "--threads",
            "2",
            "--nodes",
            "200",
        ],
        &[
            "search",
            "connect4",
            "start",
            "--threads",
            "1",
            "--depth",
            "3",
        ],
    ];
    for args in accepted {
        ok(args);
    }
}

/// A `--quick` match says so in run.json, and its summary.md's command runs it again
/// reduced, as an experiment's does (without `--quick` it would play the whole match).
#[test]
fn a_quick_match_is_recorded_as_quick() {
    let tmp = TempDir::new("quick-match");
    let out = tmp.path("arena_connect4");
    ok(&[
        "experiment",
        "experiments/arena_connect4.toml",
        "--quick",
        "--out",
        text(&out),
    ]);
    let run = std::fs::read_to_string(out.join("run.json")).expect("run.json");
    assert!(run.contains("\"quick\": true"), "{run}");
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    let regenerate = summary
        .lines()
        .find(|l| l.contains("Regenerate"))
        .expect("a Regenerate line");
    assert!(regenerate.contains("--quick"), "{regenerate}");
}
