//! Every committed result can be regenerated: for each results directory with a committed
//! `searches.csv.gz`, some of its reproducible jobs ([`Job::is_reproducible`]: one thread,
//! no time limit, or one far from binding), planned from the experiment text its run.json
//! recorded, are run again here and must give the committed rows in every column but the
//! timing ones. A change to what a search visits (nodes, scores, moves) fails here until
//! the results it alters are regenerated. The jobs are the quick ones (by the committed
//! times), spread over the file.
//!
//! Rows are matched by game, searcher, set, position and repetition rather than by job
//! number: results run at an older commit (the 16-core loans) numbered their jobs as the
//! planner of that commit did.
//!
//! Matches likewise: where every player is a plylab search on one thread at fixed depth or
//! nodes, a shard of the match plays committed games again, move for move.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{self, TIMING_COLUMNS, TempDir, plylab};
use plylab::arena::spec::{MatchPlan, PlayerKind};
use plylab::lab::runner::execute;
use plylab::lab::spec::{self, Job, Plan};

/// Jobs run again per results directory, at most.
const JOBS_PER_RESULT: usize = 12;

/// Jobs run again per results directory, at least (where it has reproducible ones).
const MIN_JOBS_PER_RESULT: usize = 2;

/// The committed seconds of a quick job: the ones run again, so that the whole test takes
/// seconds.
const QUICK_JOB_S: f64 = 0.02;

/// The committed seconds of a job run again for want of quick ones, at most.
const SLOW_JOB_S: f64 = 0.5;

/// A CSV row as column name → value.
type Record = BTreeMap<String, String>;

/// What identifies a job's rows across plans: game, searcher, set, position, repetition.
const JOB_KEY: [&str; 5] = ["game", "searcher", "set", "position", "repetition"];

/// The values of the key columns of a row.
type Key = Vec<String>;

/// A searches.csv value as compared: none for the timing columns and the job's number,
/// which are not the search's own result.
fn search_value(column: &str, value: &str) -> Option<String> {
    (column != "job" && !TIMING_COLUMNS.contains(&column)).then(|| value.to_owned())
}

/// A games.csv value as compared: none for the players' seconds, and the per-move comments
/// (`+0.35/12/0.101`: score, depth, seconds) without their seconds.
fn game_value(column: &str, value: &str) -> Option<String> {
    match column {
        c if c.ends_with("_time_s") => None,
        "annotations" => Some(
            value
                .split(' ')
                .map(|a| a.rsplit_once('/').map_or(a, |(kept, _seconds)| kept))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => Some(value.to_owned()),
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The rows of a CSV text, grouped by the values of `key` columns.
fn rows_by(reader: impl std::io::Read, key: &[&str]) -> BTreeMap<Key, Vec<Record>> {
    let mut csv = csv::Reader::from_reader(reader);
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    let mut jobs: BTreeMap<Key, Vec<Record>> = BTreeMap::new();
    for record in csv.records() {
        let row: Record = header
            .iter()
            .cloned()
            .zip(record.unwrap().iter().map(String::from))
            .collect();
        let values = key.iter().map(|&c| row[c].clone()).collect();
        jobs.entry(values).or_default().push(row);
    }
    jobs
}

/// The results directories with a committed `table` (compressed, as results/.gitignore
/// keeps them; one level of subdirectories below results/ too) and the run.json of the
/// `plylab experiment` that wrote it, sorted.
fn committed_results(table: &str) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(root().join("results")).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        dirs.push(dir.clone());
        for sub in std::fs::read_dir(&dir).unwrap() {
            dirs.push(sub.unwrap().path());
        }
    }
    dirs.retain(|d| d.join(format!("{table}.gz")).is_file());
    dirs.retain(|d| {
        let planned = d.join("run.json").is_file();
        if !planned {
            println!("{}: skipped, no run.json (a script's output)", d.display());
        }
        planned
    });
    dirs.sort();
    dirs
}

/// The committed `table` of `dir`, decompressed (not a plain copy a later run left beside
/// it).
fn committed(dir: &Path, table: &str) -> impl std::io::Read {
    let gz = std::fs::File::open(dir.join(format!("{table}.gz"))).unwrap();
    flate2::read::GzDecoder::new(gz)
}

/// The plan of the experiment text run.json in `dir` recorded (file paths in it are read
/// relative to the file it names).
fn recorded_plan(dir: &Path) -> Plan {
    let (file, text) = recorded_text(dir);
    spec::parse(&file, &text).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

/// The text run.json in `dir` recorded and the file it names.
fn recorded_text(dir: &Path) -> (PathBuf, String) {
    let json = std::fs::read_to_string(dir.join("run.json")).unwrap();
    let info: serde_json::Value = serde_json::from_str(&json).unwrap();
    let file = info["file"].as_str().expect("run.json names its file");
    let text = info["text"].as_str().expect("run.json records the text");
    (root().join(file), text.to_owned())
}

fn key(job: &Job) -> Key {
    vec![
        job.position.position.kind().to_string(),
        job.searcher.name(),
        job.position.set.clone(),
        job.position.label.clone(),
        job.repetition.to_string(),
    ]
}

/// Seconds the committed rows of a job took (its iterations' times).
fn seconds(rows: &[Record]) -> f64 {
    rows.iter()
        .map(|r| r["elapsed_s"].parse::<f64>().unwrap_or(0.0))
        .sum()
}

/// Whether `job` gives the same rows when run again: [`Job::is_reproducible`], or one thread
/// under a time limit that its committed run stayed far inside (under a hundredth of it:
/// experiments/mate.toml caps its searches at a second, and they take milliseconds).
fn reproducible(job: &Job, seconds: f64) -> bool {
    job.is_reproducible()
        || (job.searcher.config.threads == 1
            && job
                .limits
                .time
                .is_some_and(|t| seconds <= t.as_secs_f64() / 100.0))
}

/// Up to [`JOBS_PER_RESULT`] reproducible quick jobs, spread evenly over the file's jobs;
/// where fewer than [`MIN_JOBS_PER_RESULT`] are quick (the 16-core runs' jobs take longer),
/// the quickest ones under [`SLOW_JOB_S`].
fn jobs_to_rerun<'a>(jobs: &'a [Job], committed: &BTreeMap<Key, Vec<Record>>) -> Vec<&'a Job> {
    let mut candidates: Vec<(&Job, f64)> = jobs
        .iter()
        .filter_map(|job| Some((job, seconds(committed.get(&key(job))?))))
        .filter(|&(job, s)| reproducible(job, s) && s <= SLOW_JOB_S)
        .collect();
    let quick: Vec<&Job> = candidates
        .iter()
        .filter(|&&(_, s)| s <= QUICK_JOB_S)
        .map(|&(job, _)| job)
        .collect();
    if quick.len() >= MIN_JOBS_PER_RESULT {
        let stride = quick.len().div_ceil(JOBS_PER_RESULT);
        return quick.into_iter().step_by(stride).collect();
    }
    candidates.sort_by(|a, b| a.1.total_cmp(&b.1));
    candidates
        .into_iter()
        .take(MIN_JOBS_PER_RESULT)
        .map(|(job, _)| job)
        .collect()
}

/// The rows `execute` gives for `job`, as the runner writes them.
fn rerun(job: &Job) -> Vec<Record> {
    let mut csv = csv::Writer::from_writer(Vec::new());
    for row in execute(job) {
        csv.serialize(row).unwrap();
    }
    let text = csv.into_inner().unwrap();
    rows_by(text.as_slice(), &JOB_KEY)
        .remove(&key(job))
        .unwrap_or_default()
}

/// What differs between the committed rows and the fresh ones in the columns `compared`
/// keeps (and the committed file has), as `compared` gives them.
fn differences(
    committed: &[Record],
    fresh: &[Record],
    compared: impl Fn(&str, &str) -> Option<String>,
) -> Vec<String> {
    if committed.len() != fresh.len() {
        return vec![format!(
            "{} rows, committed {}",
            fresh.len(),
            committed.len()
        )];
    }
    let mut found = Vec::new();
    for (i, (old, new)) in committed.iter().zip(fresh).enumerate() {
        for (column, value) in new {
            // A column added since the committed file was written is not compared.
            let (Some(value), Some(before)) = (
                compared(column, value),
                old.get(column).and_then(|v| compared(column, v)),
            ) else {
                continue;
            };
            if before != value {
                found.push(format!("row {i}: {column} {before} -> {value}"));
            }
        }
    }
    found
}

#[test]
fn committed_searches_are_reproduced_by_their_experiment_files() {
    let mut checked = 0;
    let mut failures = Vec::new();
    common::build_the_knowledge_databases(&root().join("experiments/data/tablebase"));
    for dir in committed_results("searches.csv") {
        let plan = recorded_plan(&dir);
        let committed = rows_by(committed(&dir, "searches.csv"), &JOB_KEY);
        let jobs = jobs_to_rerun(&plan.jobs, &committed);
        println!(
            "{}: {} of {} jobs run again",
            dir.display(),
            jobs.len(),
            plan.jobs.len()
        );
        for job in jobs {
            checked += 1;
            let found = differences(&committed[&key(job)], &rerun(job), search_value);
            if !found.is_empty() {
                failures.push(format!(
                    "{} job {} ({} on {}): {}",
                    dir.display(),
                    job.id,
                    job.searcher.name(),
                    job.position.label,
                    found.join("; ")
                ));
            }
        }
    }
    assert!(checked >= 50, "only {checked} jobs were run again");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether every game of `plan` can be played again move for move: plylab's own searchers
/// on one thread with depth or node limits, no clock, no SPRT (which stops on the order
/// games finish in).
fn replayable(plan: &MatchPlan) -> bool {
    plan.sprt.is_none()
        && plan.players.iter().all(|p| {
            matches!(p.kind, PlayerKind::Search(_))
                && p.threads() == 1
                && p.limits.time.is_none()
                && p.tc.is_none()
        })
}

/// Matches at fixed depth or nodes are reproducible to the move: one shard in 40 of each
/// committed one (`experiment --shard 1/40`, or fewer shards for a match of fewer than 40
/// pairs of games) plays the committed games again, the same
/// moves, results, nodes and depths (seconds aside).
#[test]
fn committed_matches_at_fixed_depth_or_nodes_are_played_again_move_for_move() {
    let tmp = TempDir::new("committed-matches");
    let mut games = 0;
    let mut failures = Vec::new();
    for dir in committed_results("games.csv") {
        let (file, text) = recorded_text(&dir);
        if std::fs::read_to_string(&file).ok().as_ref() != Some(&text) {
            println!(
                "{}: skipped, {} changed since",
                dir.display(),
                file.display()
            );
            continue;
        }
        let plan = plylab::arena::spec::load(&file).unwrap();
        if !replayable(&plan) {
            println!(
                "{}: skipped, players on the clock or external",
                dir.display()
            );
            continue;
        }
        let out = tmp.path(&plan.name);
        // No more shards than pairs of games: a shard count that leaves some empty is
        // refused.
        let pairs = plan.schedule().len() / plan.legs() as usize;
        let shard = format!("1/{}", pairs.min(40));
        let (code, _, stderr) = plylab(&[
            "experiment",
            file.to_str().unwrap(),
            "--shard",
            &shard,
            "--no-plot",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{}: {stderr}", dir.display());
        let committed = rows_by(committed(&dir, "games.csv"), &["game"]);
        let fresh = rows_by(
            std::fs::File::open(out.join("games.csv")).unwrap(),
            &["game"],
        );
        println!("{}: {} games played again", dir.display(), fresh.len());
        for (game, rows) in &fresh {
            games += 1;
            let old = committed.get(game).map_or(&[][..], Vec::as_slice);
            let found = differences(old, rows, game_value);
            if !found.is_empty() {
                failures.push(format!(
                    "{} game {}: {}",
                    dir.display(),
                    game[0],
                    found.join("; ")
                ));
            }
        }
    }
    assert!(games >= 20, "only {games} games were played again");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every committed `.gz` is one whole gzip member and nothing after it, so that gzip,
/// pandas, polars and R read it (flate2 reads the first member and ignores what follows,
/// which once hid the tails of five games.csv.gz that two writers left behind).
#[test]
fn committed_gzip_files_hold_one_member_and_nothing_after_it() {
    use std::io::Read;
    let mut checked = 0;
    let dirs: std::collections::BTreeSet<PathBuf> = committed_results("searches.csv")
        .into_iter()
        .chain(committed_results("games.csv"))
        .collect();
    for dir in dirs {
        for table in ["searches.csv.gz", "games.csv.gz"] {
            let Ok(bytes) = std::fs::read(dir.join(table)) else {
                continue;
            };
            let mut member = flate2::bufread::GzDecoder::new(&bytes[..]);
            let mut text = Vec::new();
            member.read_to_end(&mut text).unwrap_or_else(|e| {
                panic!("{}/{table}: {e}", dir.display());
            });
            let after = member.into_inner().len();
            assert_eq!(
                after,
                0,
                "{}/{table}: {after} bytes after the gzip member",
                dir.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} compressed files found");
}

/// The results directories, at any depth below results/, with a committed `summary.md`
/// that `plylab plot` draws: a run.json and a compressed table beside it.
fn plotted_results(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            plotted_results(&path, found);
        }
    }
    let table = ["searches.csv.gz", "games.csv.gz"]
        .iter()
        .any(|t| dir.join(t).is_file());
    if table && dir.join("run.json").is_file() && dir.join("summary.md").is_file() {
        found.push(dir.to_path_buf());
    }
}

/// Every committed summary.md, SVG chart and derived CSV is what `plylab plot` draws from
/// the committed data, byte for byte: a hand edit, a stale run.json or a change to the
/// plots that was not redrawn fails here. Each directory is copied (without the plain CSVs
/// and PNGs a later run may have left beside the committed files) to a scratch tree laid
/// out as the repository, so that the Regenerate line names the same `results/NAME`.
#[cfg(unix)]
#[test]
fn committed_summaries_and_charts_are_what_plot_draws_from_their_data() {
    let tmp = TempDir::new("committed-plots");
    for shared in ["experiments", "weights"] {
        std::os::unix::fs::symlink(root().join(shared), tmp.path(shared)).unwrap();
    }
    let mut dirs = Vec::new();
    plotted_results(&root().join("results"), &mut dirs);
    dirs.sort();
    let mut compared = 0;
    let mut failures = Vec::new();
    for dir in &dirs {
        let relative = dir.strip_prefix(root()).unwrap();
        let copy = tmp.dir().join(relative);
        std::fs::create_dir_all(&copy).unwrap();
        let mut drawn = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            let left_by_a_run = ["searches.csv", "games.csv", "games.pgn"].contains(&name.as_str())
                || name.ends_with(".png");
            if path.is_file() && !left_by_a_run {
                std::fs::copy(&path, copy.join(&name)).unwrap();
                if [".md", ".svg", ".csv"].iter().any(|e| name.ends_with(e)) {
                    drawn.push(name);
                }
            }
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_plylab"))
            .args(["plot", relative.to_str().unwrap()])
            .current_dir(tmp.dir())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "plot {}: {}",
            relative.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        for name in drawn {
            compared += 1;
            if std::fs::read(dir.join(&name)).unwrap() != std::fs::read(copy.join(&name)).unwrap() {
                failures.push(format!("{}/{name}", relative.display()));
            }
        }
    }
    println!("{} directories, {compared} files redrawn", dirs.len());
    assert!(
        dirs.len() >= 40,
        "only {} results directories found",
        dirs.len()
    );
    assert!(
        failures.is_empty(),
        "not what `plylab plot` draws from the committed data (redraw them with it):\n{}",
        failures.join("\n")
    );
}
