//! Beyond one machine: `experiment --shard I/N`, `merge` and `slurm`. The shards of an
//! experiment (of ordering.toml's structure) merge into exactly the one-machine run's
//! searches.csv, timing columns aside; a missing or duplicated shard is refused; a shard
//! resumes its own jobs; the parallel columns link twins in different shards; an arena's
//! shards merge into the one-machine standings; the sbatch script has what Slurm needs.
//! scripts/slurm-test.sh runs the script against a real Slurm.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{self, TIMING_COLUMNS, TempDir, plylab};
use plylab::cluster::shard::{budget_seconds, job_cost, plan_shard};
use plylab::lab::shards::Shard;
use plylab::lab::spec;

/// Runs the binary and asserts exit code 0; returns stdout.
fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = plylab(args);
    assert_eq!(code, 0, "`plylab {}`\n{stdout}\n{stderr}", args.join(" "));
    stdout
}

/// Runs the binary and asserts exit code 2 (bad input) without a panic; returns stderr.
fn bad_input(args: &[&str]) -> String {
    let (code, stdout, stderr) = plylab(args);
    assert_eq!(code, 2, "`plylab {}`\n{stdout}\n{stderr}", args.join(" "));
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn text(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// experiments/ordering.toml's structure (random trees, tic-tac-toe, connect four with a
/// test set; its four searchers), reduced to seconds.
const ORDERING_SMALL: &str = r#"name = "ordering-small"
seed = 2026

[limits]
nodes = 1_000_000

[[games]]
game = "random_tree"
b = [2, 3]
d = [9, 6]
trees = 2

[[games]]
game = "tictactoe"
positions = ["start", "5"]

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

/// Jobs in ORDERING_SMALL: (4 shapes x 2 trees + 2 + 4 positions) x 4 searchers.
const SMALL_JOBS: usize = 56;

/// Writes `experiment` and its connect-four test set into `dir`; returns the file.
fn write_experiment(dir: &TempDir, experiment: &str) -> PathBuf {
    let set = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cli/c4_small.txt");
    std::fs::copy(set, dir.path("c4_small.txt")).expect("copy the test set");
    let file = dir.path("experiment.toml");
    std::fs::write(&file, experiment).expect("write the experiment");
    file
}

/// Runs `file` whole into DIR/one on `jobs` workers, and as `n` shards into DIR/shard-I;
/// returns the shard directories.
fn run_whole_and_shards(dir: &TempDir, file: &Path, n: usize, jobs: &str) -> Vec<PathBuf> {
    let one = dir.path("one");
    ok(&[
        "experiment",
        text(file),
        "--out",
        text(&one),
        "--no-plot",
        "--jobs",
        jobs,
    ]);
    run_shards(dir, file, n)
}

/// Runs `file` as `n` shards into DIR/shard-I; returns the shard directories.
fn run_shards(dir: &TempDir, file: &Path, n: usize) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let out = dir.path(&format!("shard-{i}"));
            let shard = format!("{i}/{n}");
            ok(&[
                "experiment",
                text(file),
                "--shard",
                &shard,
                "--out",
                text(&out),
                "--no-plot",
            ]);
            out
        })
        .collect()
}

/// `merge DIRS --out OUT` plus `extra`, as arguments.
fn merge_args<'a>(dirs: &'a [PathBuf], out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(|d| text(d)));
    args.extend(["--out", text(out)]);
    args.extend_from_slice(extra);
    args
}

/// The run.json in `dir`, parsed.
fn run_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("run.json")).expect("run.json");
    serde_json::from_str(&text).expect("JSON")
}

/// Applies `edit` to the run.json in `dir`.
fn edit_run_json(dir: &Path, edit: impl Fn(&mut serde_json::Value)) {
    let mut run = run_json(dir);
    edit(&mut run);
    std::fs::write(dir.join("run.json"), run.to_string()).expect("write run.json");
}

/// A CSV's lines without the columns `timing` says are timing ones.
fn untimed(path: &Path, timing: impl Fn(&str) -> bool) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(path).expect("the CSV opens");
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(String::from)
        .collect();
    let keep: Vec<usize> = (0..header.len()).filter(|&i| !timing(&header[i])).collect();
    let pick = |r: Vec<String>| keep.iter().map(|&i| r[i].clone()).collect::<Vec<_>>();
    std::iter::once(pick(header))
        .chain(
            reader
                .records()
                .map(|r| pick(r.expect("a record").iter().map(String::from).collect())),
        )
        .collect()
}

fn searches_untimed(dir: &Path) -> Vec<Vec<String>> {
    untimed(&dir.join("searches.csv"), |h| TIMING_COLUMNS.contains(&h))
}

#[test]
fn shards_are_a_deterministic_balanced_partition_of_ordering_toml() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/ordering.toml");
    let plan = spec::load(&file).expect("ordering.toml is valid");
    let again = spec::load(&file).expect("ordering.toml is valid");
    for count in [1, 3, 4, 64] {
        let mut seen = BTreeSet::new();
        let mut loads = Vec::new();
        for index in 1..=count {
            let shard = Shard { index, count };
            let jobs = plan_shard(&plan, shard);
            assert_eq!(
                jobs,
                plan_shard(&again, shard),
                "shard {shard} not reproducible"
            );
            assert!(
                jobs.windows(2).all(|w| w[0] < w[1]),
                "shard {shard} not ascending"
            );
            for &id in &jobs {
                assert!(seen.insert(id), "job {id} in two shards of {count}");
            }
            loads.push(jobs.iter().map(|&id| job_cost(&plan.jobs[id])).sum::<u64>());
        }
        assert_eq!(
            seen.len(),
            plan.jobs.len(),
            "jobs left out of {count} shards"
        );
        if count == 3 {
            let listed = ok(&["experiment", text(&file), "--shard", "2/3", "--dry-run"]);
            let ids: Vec<usize> = listed
                .lines()
                .skip(1)
                .filter(|l| !l.starts_with("estimated time:"))
                .map(|l| {
                    l.split_whitespace()
                        .next()
                        .and_then(|id| id.parse().ok())
                        .expect("an id")
                })
                .collect();
            assert_eq!(
                ids,
                plan_shard(&plan, Shard { index: 2, count: 3 }),
                "{listed}"
            );
        }
        // Greedy list scheduling: the fullest shard was the emptiest when its last job came,
        // so it exceeds the emptiest by at most the costliest job.
        let largest = plan.jobs.iter().map(job_cost).max().expect("jobs");
        let (min, max) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
        assert!(max - min <= largest, "{count} shards: loads {loads:?}");
    }
}

#[test]
fn bad_shards_are_bad_input() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/ordering.toml");
    for shard in ["0/4", "5/4", "1/0", "three", "1/", "2-4"] {
        let stderr = bad_input(&["experiment", file, "--shard", shard, "--dry-run"]);
        assert!(stderr.contains(&format!("bad shard `{shard}`")), "{stderr}");
    }
}

#[test]
fn a_shard_with_nothing_to_run_is_bad_input() {
    let dir = TempDir::new("shard-empty");
    let file = dir.path("three.toml");
    std::fs::write(
        &file,
        "name = \"three\"\n[[games]]\ngame = \"connect4\"\npositions = [\"4444\", \"4453\", \"1234\"]\n\
         [[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 3 }\n",
    )
    .expect("write");
    let out = dir.path("out");
    let file = file.to_str().expect("utf-8");
    let out = out.to_str().expect("utf-8");
    // Every shard of the five is refused, not only the empty ones: shards 1 to 3 hold a
    // job each, but a run of them could never be merged.
    for (shard, dry_run) in [("5/5", true), ("5/5", false), ("1/5", true), ("3/5", false)] {
        let mut args = vec!["experiment", file, "--shard", shard, "--out", out];
        args.extend(dry_run.then_some("--dry-run"));
        let stderr = bad_input(&args);
        assert!(
            stderr.contains("too few jobs") && stderr.contains("5 shards"),
            "{stderr}"
        );
    }
    assert!(
        !Path::new(out).exists(),
        "nothing is written for an empty shard"
    );
    let arena = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/arena_connect4.toml"
    );
    let stderr = bad_input(&["experiment", arena, "--shard", "9999/9999", "--dry-run"]);
    assert!(
        stderr.contains("too few jobs (or pairs of games)"),
        "{stderr}"
    );
    // Monte Carlo jobs at finished positions (no plies left to play out) cost something
    // too: at cost 0 all of them went to one shard, and `slurm --tasks 3` wrote a script
    // whose every task `--shard` then refused.
    let finished = dir.path("finished.toml");
    std::fs::write(
        &finished,
        "name = \"finished\"\n[[games]]\ngame = \"tictactoe\"\n\
         positions = [\"159287364\", \"951287364\", \"1\"]\n\
         [[searchers]]\nlabel = \"uct\"\nalgorithm = \"uct\"\nlimits = { nodes = 1000 }\n",
    )
    .expect("write");
    for shard in ["1/3", "2/3", "3/3"] {
        ok(&["experiment", text(&finished), "--shard", shard, "--dry-run"]);
    }
    // A negative index is told as one, not as an unexpected argument.
    let stderr = bad_input(&["experiment", file, "--shard", "-1/4", "--dry-run"]);
    assert!(stderr.contains("bad shard `-1/4`"), "{stderr}");
    // A vast count is dealt without making its bins (it aborted on a 1.6 TB allocation).
    let vast = "99999999999/99999999999";
    for args in [
        vec!["experiment", file, "--shard", vast, "--dry-run"],
        vec!["experiment", arena, "--shard", vast, "--dry-run"],
    ] {
        let stderr = bad_input(&args);
        assert!(stderr.contains("too few jobs"), "{stderr}");
    }
}

#[test]
fn three_shards_merge_into_the_one_machine_run() {
    let dir = TempDir::new("shard-merge");
    let file = write_experiment(&dir, ORDERING_SMALL);
    let shards = run_whole_and_shards(&dir, &file, 3, "2");
    let merged = dir.path("merged");
    let stdout = ok(&merge_args(&shards, &merged, &[]));
    assert!(
        stdout.contains(&format!("3 shards merged: {SMALL_JOBS} jobs")),
        "{stdout}"
    );
    assert!(
        searches_untimed(&merged) == searches_untimed(&dir.path("one")),
        "the merged searches.csv differs from the one-machine run"
    );
    // searchers.csv lists the searchers in the one-machine run's order (their first jobs'),
    // not in the order the shards happen to hold them.
    let order = |dir: &Path| -> Vec<String> {
        plylab::lab::record::read_searchers(&dir.join("searchers.csv"))
            .expect("searchers.csv")
            .into_iter()
            .map(|r| r.searcher)
            .collect()
    };
    assert_eq!(order(&merged), order(&dir.path("one")));
    assert!(
        merged.join("summary.md").exists(),
        "merge drew no summary.md"
    );
    let run = run_json(&merged);
    assert_eq!(run["job_count"], SMALL_JOBS);
    assert_eq!(run["merged_from"].as_array().map(Vec::len), Some(3));
    assert_eq!(run["merged_from"][1]["shard"], "2/3");
    let summary = std::fs::read_to_string(merged.join("summary.md")).expect("summary.md");
    assert!(summary.contains("merged from 3 shards"), "{summary}");

    // A shard's searches.csv compressed, as the committed results keep theirs, merges the
    // same; a reader gone from stdout (`| head -1`) loses the report line and nothing else
    // (it had panicked before the charts and summary.md were drawn).
    let plain = shards[2].join("searches.csv");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(shards[2].join("searches.csv.gz")).expect("create .gz"),
        flate2::Compression::default(),
    );
    std::io::copy(&mut std::fs::File::open(&plain).expect("rows"), &mut gz).expect("gzip");
    gz.finish().expect("gzip");
    std::fs::remove_file(&plain).expect("remove the plain rows");
    let again = dir.path("merged-gz");
    let (code, stderr) = common::plylab_to_closed_stdout(&merge_args(&shards, &again, &[]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        searches_untimed(&again) == searches_untimed(&merged),
        "the merge of a compressed shard differs"
    );
    assert!(again.join("summary.md").exists(), "no summary.md: {stderr}");
}

#[test]
fn a_missing_or_duplicated_shard_is_refused() {
    let dir = TempDir::new("shard-refused");
    let file = write_experiment(&dir, ORDERING_SMALL);
    let shards = run_whole_and_shards(&dir, &file, 3, "2");
    let out = dir.path("merged");
    let stderr = bad_input(&merge_args(&shards[..2], &out, &["--no-plot"]));
    assert!(stderr.contains("jobs missing"), "{stderr}");
    assert!(stderr.contains("shards not given: 3"), "{stderr}");
    let third = plan_shard(
        &spec::load(&file).expect("valid"),
        Shard { index: 3, count: 3 },
    );
    assert!(stderr.contains(&format!(": {}", third[0])), "{stderr}");

    let twice = [shards.clone(), vec![shards[1].clone()]].concat();
    let stderr = bad_input(&merge_args(&twice, &out, &["--no-plot"]));
    assert!(stderr.contains("are both shard 2/3"), "{stderr}");
    assert!(stderr.contains("shard-2"), "{stderr}");
    // A job held whole by two shards (a record edited to claim it, its rows copied) is
    // refused by the coverage check, naming both shards.
    let (rows_2, json_2) = (shards[1].join("searches.csv"), shards[1].join("run.json"));
    let (kept_rows, kept_json) = (
        std::fs::read_to_string(&rows_2).expect("rows"),
        std::fs::read_to_string(&json_2).expect("run.json"),
    );
    let rows_1 = std::fs::read_to_string(shards[0].join("searches.csv")).expect("rows");
    let job = rows_1
        .lines()
        .nth(1)
        .expect("a row")
        .split(',')
        .next()
        .expect("a job");
    let copied: String = rows_1
        .lines()
        .filter(|l| l.split(',').next() == Some(job))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&rows_2, format!("{kept_rows}{copied}")).expect("copy the rows");
    let mut run: serde_json::Value = serde_json::from_str(&kept_json).expect("JSON");
    let jobs = run["shard"]["jobs"].as_array_mut().expect("jobs");
    jobs.push(job.parse::<u64>().expect("an id").into());
    jobs.sort_by_key(|j| j.as_u64());
    std::fs::write(&json_2, run.to_string()).expect("claim the job");
    let stderr = bad_input(&merge_args(&shards, &out, &["--no-plot"]));
    assert!(
        stderr.contains(&format!("1 jobs in more than one shard: {job} (in ")),
        "{stderr}"
    );
    std::fs::write(&rows_2, &kept_rows).expect("mend");
    std::fs::write(&json_2, kept_json).expect("mend");
    // The same rows moved (not copied) into shard 2, its record untouched: every job is
    // whole once among the rows, but shard 2 did not run that job (its run.json says
    // which it holds), so the shards are no --shard I/N runs of one plan (module doc).
    let rows_1_path = shards[0].join("searches.csv");
    let kept_1: String = rows_1
        .lines()
        .filter(|l| l.split(',').next() != Some(job))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&rows_1_path, kept_1).expect("take the rows");
    std::fs::write(&rows_2, format!("{kept_rows}{copied}")).expect("move the rows");
    let stderr = bad_input(&merge_args(&shards, &out, &["--no-plot"]));
    assert!(
        stderr.contains(&format!(
            "searches.csv holds jobs {job} that shard 2/3 does not"
        )),
        "{stderr}"
    );
    std::fs::write(&rows_1_path, &rows_1).expect("mend");
    std::fs::write(&rows_2, kept_rows).expect("mend");
    // Shard 3 of 4 is not a second shard 3 of 3, but of another split.
    let other_split = dir.path("shard-3-of-4");
    ok(&[
        "experiment",
        text(&file),
        "--shard",
        "3/4",
        "--out",
        text(&other_split),
        "--no-plot",
    ]);
    let mixed = [shards.clone(), vec![other_split]].concat();
    let stderr = bad_input(&merge_args(&mixed, &out, &["--no-plot"]));
    assert!(stderr.contains("were split differently"), "{stderr}");

    // A shard record no --shard I/N run writes: refused before its rows are read.
    let run_json = shards[0].join("run.json");
    let kept = std::fs::read_to_string(&run_json).expect("run.json");
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 4] = [
        ("names shard 0 of 3", |run| run["shard"]["index"] = 0.into()),
        ("its jobs are out of order", |run| {
            let jobs = run["shard"]["jobs"].as_array_mut().expect("jobs");
            jobs.reverse();
        }),
        // Each job is in exactly one shard, once (module doc): a job listed twice is no
        // record of a run, though its rows are whole and the jobs ascend.
        ("twice", |run| {
            let jobs = run["shard"]["jobs"].as_array_mut().expect("jobs");
            let first = jobs[0].clone();
            jobs.insert(0, first);
        }),
        ("holds job 99999, and the run has", |run| {
            let jobs = run["shard"]["jobs"].as_array_mut().expect("jobs");
            jobs.push(99_999.into());
        }),
    ];
    for (why, edit) in edits {
        let mut run: serde_json::Value = serde_json::from_str(&kept).expect("JSON");
        edit(&mut run);
        std::fs::write(&run_json, run.to_string()).expect("damage run.json");
        let stderr = bad_input(&merge_args(&shards, &out, &["--no-plot"]));
        assert!(stderr.contains(why), "{why}: {stderr}");
    }
    std::fs::write(&run_json, kept).expect("mend");

    let whole = [shards.clone(), vec![dir.path("one")]].concat();
    let stderr = bad_input(&merge_args(&whole, &out, &["--no-plot"]));
    assert!(stderr.contains("records no shard"), "{stderr}");
    assert!(
        !out.join("searches.csv").exists(),
        "a refused merge wrote searches.csv"
    );

    // Into one of the shards it reads, or over results, only with --force; never a file.
    let stderr = bad_input(&merge_args(&shards, &shards[1], &["--no-plot", "--force"]));
    assert!(stderr.contains("is the shard"), "{stderr}");
    let one = dir.path("one");
    let before = std::fs::read(one.join("searches.csv")).expect("the whole run's rows");
    let stderr = bad_input(&merge_args(&shards, &one, &["--no-plot"]));
    assert!(stderr.contains("already holds results"), "{stderr}");
    assert_eq!(
        std::fs::read(one.join("searches.csv")).expect("still there"),
        before,
        "a refused merge overwrote results"
    );
    // --force replaces: a match's files the directory held (as another run left them) go.
    for foreign in ["games.csv", "standings.csv"] {
        std::fs::write(one.join(foreign), "game\n").expect("plant a match's file");
    }
    ok(&merge_args(&shards, &one, &["--no-plot", "--force"]));
    for foreign in ["games.csv", "standings.csv"] {
        assert!(!one.join(foreign).exists(), "merge --force left {foreign}");
    }
    let file = dir.path("a_file");
    std::fs::write(&file, "").expect("write");
    let stderr = bad_input(&merge_args(&shards, &file, &["--no-plot", "--force"]));
    assert!(stderr.contains("is a file"), "{stderr}");
    // Nor a directory that cannot be made (under that file).
    let under = file.join("merged");
    let stderr = bad_input(&merge_args(&shards, &under, &["--no-plot"]));
    assert!(
        stderr.contains("cannot create the output directory"),
        "{stderr}"
    );
    // A finished shard's damaged rows are named, not left to read as "not finished": a
    // row repeated, and a number that does not read.
    let rows_path = shards[0].join("searches.csv");
    let rows = std::fs::read_to_string(&rows_path).expect("rows");
    let first = rows.lines().nth(1).expect("a row");
    let job = first.split(',').next().expect("a job");
    std::fs::write(&rows_path, format!("{rows}{first}\n")).expect("repeat a row");
    let stderr = bad_input(&merge_args(&shards, &dir.path("m1"), &["--no-plot"]));
    let repeated = format!("rows left out as damaged: job {job}: ");
    assert!(stderr.contains(&repeated), "{stderr}");
    let header: Vec<&str> = rows.lines().next().expect("header").split(',').collect();
    let column = |name: &str| header.iter().position(|&c| c == name).expect(name);
    let mut fields: Vec<&str> = first.split(',').collect();
    let iterations: u32 = fields[column("iterations")].parse().expect("iterations");
    let count = format!(
        "searches.csv {} rows for its {iterations} iterations",
        iterations + 1
    );
    assert!(stderr.contains(&count), "{stderr}");
    fields[column("nodes")] = "NaN";
    let damaged = rows.replacen(first, &fields.join(","), 1);
    std::fs::write(&rows_path, damaged).expect("damage a number");
    let stderr = bad_input(&merge_args(&shards, &dir.path("m1"), &["--no-plot"]));
    assert!(
        stderr.contains("searches.csv line 2, column `nodes`: invalid digit"),
        "{stderr}"
    );
    // A measurement that reads as a number but is none (NaN would make every mean NaN).
    let mut fields: Vec<&str> = first.split(',').collect();
    fields[column("elapsed_s")] = "NaN";
    let damaged = rows.replacen(first, &fields.join(","), 1);
    std::fs::write(&rows_path, damaged).expect("damage a measurement");
    let stderr = bad_input(&merge_args(&shards, &dir.path("m1"), &["--no-plot"]));
    assert!(
        stderr.contains("searches.csv line 2, column `elapsed_s`: not a measurement"),
        "{stderr}"
    );
    std::fs::write(&rows_path, rows).expect("mend");
    // A shard whose searchers.csv cannot be read is the shard's fault, as its searches.csv
    // is (it failed with exit 1).
    let searchers = shards[1].join("searchers.csv");
    std::fs::write(&searchers, "a,b\n1\n").expect("damage");
    let stderr = bad_input(&merge_args(&shards, &dir.path("m2"), &["--no-plot"]));
    assert!(stderr.contains("searchers.csv"), "{stderr}");
}

#[test]
fn shards_of_another_seed_are_refused() {
    let dir = TempDir::new("shard-seed");
    let file = write_experiment(&dir, ORDERING_SMALL);
    let a = dir.path("a");
    ok(&[
        "experiment",
        text(&file),
        "--shard",
        "1/2",
        "--out",
        text(&a),
        "--no-plot",
    ]);
    let other = dir.path("other.toml");
    std::fs::write(&other, ORDERING_SMALL.replace("seed = 2026", "seed = 2027")).expect("write");
    let b = dir.path("b");
    ok(&[
        "experiment",
        text(&other),
        "--shard",
        "2/2",
        "--out",
        text(&b),
        "--no-plot",
    ]);
    let stderr = bad_input(&merge_args(&[a, b], &dir.path("m"), &[]));
    assert!(
        stderr.contains("differ in their experiment text"),
        "{stderr}"
    );
}

#[test]
fn a_shard_resumes_its_own_jobs() {
    let dir = TempDir::new("shard-resume");
    let file = write_experiment(&dir, ORDERING_SMALL);
    let complete = dir.path("complete");
    let run = |out: &Path, shard: &str, extra: &[&str]| {
        let mut args = vec![
            "experiment",
            text(&file),
            "--shard",
            shard,
            "--out",
            text(out),
        ];
        args.extend_from_slice(&["--no-plot"]);
        args.extend_from_slice(extra);
        plylab(&args)
    };
    assert_eq!(run(&complete, "2/3", &[]).0, 0);
    // A dry run pointed at the shard's directory scales its time by the shard's jobs, not
    // by the whole plan's (it estimated a third of the time).
    let held = plylab::lab::shards::ShardRecord::of_plan(
        &spec::load(&file).expect("valid"),
        Shard { index: 2, count: 3 },
        false,
    )
    .jobs
    .len();
    let (code, stdout, stderr) = run(&complete, "2/3", &["--dry-run"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("s for {held} jobs on")),
        "{stdout}"
    );
    // An interrupted shard: its run.json, and searches.csv without its last two jobs.
    let cut = dir.path("cut");
    std::fs::create_dir_all(&cut).expect("mkdir");
    std::fs::copy(complete.join("run.json"), cut.join("run.json")).expect("copy");
    let csv = std::fs::read_to_string(complete.join("searches.csv")).expect("csv");
    let jobs: BTreeSet<&str> = csv
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    let last_two: Vec<&str> = jobs.iter().rev().take(2).copied().collect();
    let kept: String = csv
        .lines()
        .filter(|l| !last_two.contains(&l.split(',').next().unwrap_or_default()))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(cut.join("searches.csv"), kept).expect("write");
    let (code, stdout, stderr) = run(&cut, "2/3", &["--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("2 jobs run ({} kept", jobs.len() - 2)),
        "{stdout}"
    );
    assert!(
        searches_untimed(&cut) == searches_untimed(&complete),
        "the resumed shard differs from the complete one"
    );
    let (code, _, stderr) = run(&cut, "1/3", &["--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("holds results of shard 2/3, not shard 1/3"),
        "{stderr}"
    );
}

/// Lazy SMP on one and two threads: each two-thread job's twin is its one-thread job.
const TWINS: &str = r#"name = "twins"
seed = 3

[[games]]
game = "connect4"
positions = ["start", "4453", "444", "3344"]
limits = { depth = 7 }

[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = [1, 2]
tt_mb = 1
ordering = { hint = true, tt_move = true }
"#;

#[test]
fn parallel_columns_link_twins_in_different_shards() {
    let dir = TempDir::new("shard-twins");
    let file = write_experiment(&dir, TWINS);
    let plan = spec::load(&file).expect("valid");
    let shard_of = |id: usize| {
        (1..=3)
            .find(|&index| plan_shard(&plan, Shard { index, count: 3 }).contains(&id))
            .expect("in a shard")
    };
    let split = plan
        .jobs
        .iter()
        .filter_map(|j| Some((j.id, j.baseline?)))
        .filter(|&(a, b)| shard_of(a) != shard_of(b))
        .count();
    assert!(split > 0, "no twins split between shards");
    let shards = run_shards(&dir, &file, 3);
    let merged = dir.path("merged");
    ok(&merge_args(&shards, &merged, &["--no-plot"]));
    let mut reader = csv::Reader::from_path(merged.join("searches.csv")).expect("csv");
    let rows: Vec<plylab::lab::record::Row> =
        reader.deserialize().map(|r| r.expect("row")).collect();
    // Threads are stored once per searcher variant, in searchers.csv.
    let searchers =
        plylab::lab::record::read_searchers(&merged.join("searchers.csv")).expect("searchers");
    let threads_of = |name: &str| {
        searchers
            .iter()
            .find(|s| s.searcher == name)
            .expect("every searcher in searchers.csv")
            .threads
    };
    let finals = |threads: u32| {
        rows.iter()
            .filter(move |r| threads_of(&r.searcher) == threads && r.total_nodes.is_some())
    };
    let mut linked = 0;
    for row in finals(2) {
        let twin = plan.jobs[row.job].baseline.expect("a twin");
        let base = finals(1).find(|r| r.job == twin && r.depth == row.depth);
        let Some(base) = base else { continue };
        let ratio = row.total_nodes.unwrap() as f64 / base.total_nodes.unwrap() as f64;
        assert_eq!(
            row.overhead,
            Some((ratio * 1e4).round() / 1e4),
            "job {}",
            row.job
        );
        let t = (base.time_to_depth_s.unwrap(), row.time_to_depth_s.unwrap());
        assert_eq!(
            row.speedup,
            Some((t.0 / t.1 * 1e4).round() / 1e4),
            "job {}",
            row.job
        );
        linked += 1;
    }
    assert_eq!(
        linked,
        plan.jobs.len() / 2,
        "every two-thread job linked to its twin"
    );
}

/// Two alpha-beta players at fixed depths on connect four: deterministic games.
const MATCH: &str = r#"name = "arena-shards"
seed = 11

[match]
game = "connect4"
games = 12
openings = { random_plies = 3 }
concurrency = 1

[[searchers]]
label = "deep"
algorithm = "alphabeta"
tt_mb = 1
ordering = { hint = true, tt_move = true }
limits = { depth = 3 }

[[searchers]]
label = "shallow"
algorithm = "alphabeta"
tt_mb = 1
ordering = { hint = true }
limits = { depth = 1 }

[[searchers]]
label = "middle"
algorithm = "alphabeta"
tt_mb = 1
limits = { depth = 2 }
"#;

/// An arena file's whole run and its `n` shards merged: standings.csv byte for byte, and
/// games.csv without its seconds (and the annotations, which hold them). Returns the games merged and the games the shards played.
fn check_arena_merge(name: &str, arena: &str, n: usize) -> (usize, usize) {
    let dir = TempDir::new(name);
    let file = write_experiment(&dir, arena);
    // One game at a time, so that an SPRT stops the whole run where the merge stops.
    let shards = run_whole_and_shards(&dir, &file, n, "1");
    let merged = dir.path("merged");
    ok(&merge_args(&shards, &merged, &[]));
    let one = dir.path("one");
    let read = |d: &Path| std::fs::read_to_string(d.join("standings.csv")).expect("standings");
    assert_eq!(read(&merged), read(&one), "standings differ");
    let games = games_untimed;
    assert!(games(&merged) == games(&one), "games.csv differs");
    assert!(merged.join("elo.png").exists(), "no Elo chart drawn");
    // The shards' workers add up, but each shard ran one game at a time: nothing was
    // oversubscribed (the merged summary had said so once the sum passed the cores).
    let summary = std::fs::read_to_string(merged.join("summary.md")).expect("summary.md");
    assert!(
        summary.contains(&format!("games at once in {n} shards")),
        "{summary}"
    );
    assert!(!summary.contains("oversubscribed"), "{summary}");
    let played = shards.iter().map(|d| games(d).len() - 1).sum();
    // Without shard 1 and with no row damaged, the refusal lists the games missing and
    // the shards not given (EXPERIMENTS.md, "Many machines"), and nothing after them.
    let stderr = bad_input(&merge_args(
        &shards[1..],
        &dir.path("short"),
        &["--no-plot"],
    ));
    assert!(
        stderr.trim_end().ends_with("shards not given: 1"),
        "{stderr}"
    );
    // A shard's damaged row leaves its game missing, and the refusal says which line and
    // why (it had said only "1 games missing").
    let rows_path = shards[0].join("games.csv");
    let rows = std::fs::read_to_string(&rows_path).expect("games.csv");
    let last = rows.lines().last().expect("a game");
    let line = rows.lines().count();
    std::fs::write(&rows_path, rows.replace(last, &last[..last.len() / 2])).expect("damage");
    let stderr = bad_input(&merge_args(&shards, &dir.path("damaged"), &["--no-plot"]));
    assert!(stderr.contains("games missing"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "games.csv: 1 rows left out, line {line} (unreadable)"
        )),
        "{stderr}"
    );
    (games(&merged).len() - 1, played)
}

#[test]
fn arena_shards_merge_into_the_one_machine_standings() {
    assert_eq!(check_arena_merge("shard-arena", MATCH, 3), (36, 36));
}

#[test]
fn arena_shards_apply_the_sprt_as_one_machine_would() {
    let sprt = MATCH.replace("games = 12", "games = 40").replace(
        "concurrency = 1\n",
        "concurrency = 1\n\n[match.sprt]\nelo0 = 0\nelo1 = 200\n",
    );
    let (merged, played) = check_arena_merge("shard-sprt", &sprt, 2);
    assert_eq!(played, 120, "a shard stopped early");
    assert!(merged < played, "no SPRT verdict: the test decides nothing");
}

#[test]
fn the_slurm_script_has_the_array_the_cores_and_the_merge() {
    let dir = TempDir::new("slurm-script");
    // A learning file is told as one (it was told as an experiment file's unknown key).
    let learning = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/learn_connect4.toml"
    );
    let stderr = bad_input(&["slurm", learning, "--tasks", "2"]);
    assert!(
        stderr.contains("a learning file") && stderr.contains("plylab learn"),
        "{stderr}"
    );
    let file = write_experiment(&dir, TWINS);
    let out = dir.path("results");
    let script = ok(&[
        "slurm",
        text(&file),
        "--tasks",
        "3",
        "--throttle",
        "2",
        "--time",
        "00:30:00",
        "--partition",
        "debug",
        "--account",
        "lab",
        "--out",
        text(&out),
        "--binary",
        "/opt/plylab",
    ]);
    for line in [
        "#SBATCH --array=0-2%2",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --time=00:30:00",
        "#SBATCH --partition=debug",
        "#SBATCH --account=lab",
        "--dependency=\"afterok:$SLURM_ARRAY_JOB_ID\"",
        "--shard \"$shard/$tasks\" --jobs 1",
        "plylab='/opt/plylab'",
    ] {
        assert!(script.contains(line), "no `{line}` in\n{script}");
    }
    assert!(
        out.join("logs").is_dir(),
        "no logs directory for Slurm's output files"
    );
    let sbatch = dir.path("run.sbatch");
    std::fs::write(&sbatch, &script).expect("write");
    let syntax = std::process::Command::new("bash")
        .arg("-n")
        .arg(&sbatch)
        .status();
    assert!(
        syntax.is_ok_and(|s| s.success()),
        "bash -n refuses the script"
    );

    // Without --out the merged results go to runs/<name>, as a one-machine run's: the merge
    // job replaces what the directory holds, so never the committed results/<name>.
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(["slurm", text(&file)])
        .current_dir(dir.path(""))
        .output()
        .expect("the binary runs");
    let script = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(script.contains("#SBATCH --output=runs/"), "{script}");
    assert!(!script.contains("results/"), "{script}");
    assert!(dir.path("runs").is_dir(), "no runs/<name>/logs");

    let f = text(&file);
    let stderr = bad_input(&["slurm", f, "--time", "1 hour"]);
    assert!(stderr.contains("bad --time `1 hour`"), "{stderr}");
    let stderr = bad_input(&["slurm", f, "--tasks", "9"]);
    assert!(stderr.contains("has only 8 jobs"), "{stderr}");
    let stderr = bad_input(&["slurm", f, "--partition", "a b"]);
    assert!(stderr.contains("bad --partition"), "{stderr}");
    let stderr = bad_input(&["slurm", f, "--time", "99:99:99"]);
    assert!(stderr.contains("bad --time `99:99:99`"), "{stderr}");
    // The logs' path goes into an #SBATCH line, which no quoting protects.
    let spaced = dir.path("with space");
    let stderr = bad_input(&["slurm", f, "--out", text(&spaced)]);
    assert!(stderr.contains("bad --out"), "{stderr}");
    assert!(!spaced.exists(), "a refused script made its directory");
    // A file where the directory should be is the command line's mistake, not the machine's.
    let stderr = bad_input(&["slurm", f, "--out", f]);
    assert!(stderr.contains("is a file, not a directory"), "{stderr}");
}

#[test]
fn the_two_games_of_a_pair_stay_in_one_shard() {
    let plan = plylab::arena::spec::parse(Path::new("match.toml"), MATCH).expect("valid");
    let schedule = plan.schedule();
    let mut seen = BTreeSet::new();
    for index in 1..=5 {
        let games = plylab::cluster::shard::match_shard(&plan, Shard { index, count: 5 });
        for &g in &games {
            assert!(seen.insert(g), "game {g} in two shards");
            let slot = schedule[g];
            let partner = schedule
                .iter()
                .find(|s| s.pairing == slot.pairing && s.round == slot.round && s.leg != slot.leg)
                .expect("games are in pairs");
            assert!(games.contains(&partner.index), "game {g} without its pair");
        }
    }
    assert_eq!(seen.len(), schedule.len());
}

#[test]
fn an_arena_shard_resumes_its_own_games() {
    let dir = TempDir::new("shard-arena-resume");
    let file = write_experiment(&dir, MATCH);
    let complete = dir.path("complete");
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "experiment",
            text(&file),
            "--shard",
            "2/3",
            "--out",
            text(out),
        ];
        args.extend_from_slice(&["--no-plot"]);
        args.extend_from_slice(extra);
        ok(&args)
    };
    run(&complete, &[]);
    let cut = dir.path("cut");
    std::fs::create_dir_all(&cut).expect("mkdir");
    std::fs::copy(complete.join("run.json"), cut.join("run.json")).expect("copy");
    let csv = std::fs::read_to_string(complete.join("games.csv")).expect("games.csv");
    let lines: Vec<&str> = csv.lines().collect();
    let kept = lines[..lines.len() - 2].join("\n") + "\n";
    std::fs::write(cut.join("games.csv"), kept).expect("write");
    let stdout = run(&cut, &["--resume"]);
    assert!(
        stdout.contains(&format!("2 games played ({} kept", lines.len() - 3)),
        "{stdout}"
    );
    let games = games_untimed;
    assert!(games(&cut) == games(&complete), "the resumed shard differs");
}

#[test]
fn merging_what_is_not_a_shard_is_bad_input() {
    let dir = TempDir::new("shard-not");
    let missing = dir.path("no_such_shard");
    let stderr = bad_input(&["merge", text(&missing), "--out", text(&dir.path("m"))]);
    assert!(
        stderr.contains("no_such_shard: no run.json (not a results directory)"),
        "{stderr}"
    );
    // A run.json that does not read is named with the reader's cause, not as missing.
    let damaged = dir.path("damaged");
    std::fs::create_dir_all(&damaged).expect("mkdir");
    std::fs::write(damaged.join("run.json"), "{\"experiment\": 5}").expect("write");
    let stderr = bad_input(&["merge", text(&damaged), "--out", text(&dir.path("m"))]);
    assert!(
        stderr.contains("run.json: unreadable (invalid type: integer `5`"),
        "{stderr}"
    );
}

/// One searcher on two tic-tac-toe positions: two jobs, one in each of two shards, and the
/// searcher in both.
const TWO_JOBS: &str = r#"name = "two-jobs"
seed = 5

[limits]
nodes = 100_000

[[games]]
game = "tictactoe"
positions = ["start", "5"]

[[searchers]]
label = "alphabeta"
algorithm = "alphabeta"
"#;

/// What merged run.json and searchers.csv say of the shards' machines, as EXPERIMENTS.md
/// ("Many machines") defines it: `elapsed_s` the longest shard's, `cores` the most, `jobs`
/// the sum of the workers; a searcher `alone` only if it was in every shard,
/// `oversubscribed` if it was in any. The shards' files are edited to known values, so the
/// expected ones are the docs' rule applied by hand. A shard's table is its plain file
/// where one is (its `.gz` only else), and a shard without either is named by the plain
/// name (src/cluster/merge.rs, `shard_table`).
#[test]
fn a_merge_takes_the_longest_shard_and_every_shards_sharing_of_the_machine() {
    let dir = TempDir::new("shard-facts");
    let file = write_experiment(&dir, TWO_JOBS);
    let shards = run_shards(&dir, &file, 2);
    // Shard 1 ran 7.5 s on 4 cores with 3 workers, its searcher alone and not
    // oversubscribed; shard 2 ran 3.25 s on 16 cores with 5 workers, its searcher neither.
    let facts = [(7.5, 4, 3, true, false), (3.25, 16, 5, false, true)];
    for (shard, &(elapsed, cores, jobs, alone, over)) in shards.iter().zip(&facts) {
        edit_run_json(shard, |run| {
            run["elapsed_s"] = elapsed.into();
            run["cores"] = cores.into();
            run["jobs"] = jobs.into();
        });
        let path = shard.join("searchers.csv");
        let mut rows = plylab::lab::record::read_searchers(&path).expect("searchers.csv");
        assert_eq!(rows.len(), 1, "one searcher in each shard");
        (rows[0].alone, rows[0].oversubscribed) = (alone, over);
        plylab::lab::record::write_searchers(&path, &rows).expect("write searchers.csv");
    }
    // Shard 1 ended on March 1, shard 2 on March 3.
    for (shard, date) in shards
        .iter()
        .zip(["2026-03-01T12:00:00Z", "2026-03-03T12:00:00Z"])
    {
        edit_run_json(shard, |run| run["date"] = date.into());
    }
    // A stale, unreadable searches.csv.gz beside shard 2's plain file is not read.
    std::fs::write(shards[1].join("searches.csv.gz"), "not gzip").expect("write .gz");
    let merged = dir.path("merged");
    ok(&merge_args(&shards, &merged, &["--no-plot"]));
    let run = run_json(&merged);
    assert_eq!(run["elapsed_s"], 7.5, "max(7.5, 3.25)");
    assert_eq!(run["cores"], 16, "max(4, 16)");
    assert_eq!(run["jobs"], 8, "3 + 5");
    assert_eq!(run["merged_from"][0]["elapsed_s"], 7.5);
    assert_eq!(run["merged_from"][1]["elapsed_s"], 3.25);
    assert_eq!(run["date"], "2026-03-03T12:00:00Z", "the later of the two");
    // merged_from lists the shards by index, whatever order they were given in.
    let reversed: Vec<PathBuf> = shards.iter().rev().cloned().collect();
    let again = dir.path("merged-reversed");
    ok(&merge_args(&reversed, &again, &["--no-plot"]));
    let run = run_json(&again);
    assert_eq!(run["merged_from"][0]["shard"], "1/2");
    assert_eq!(run["merged_from"][0]["elapsed_s"], 7.5);
    let rows = plylab::lab::record::read_searchers(&merged.join("searchers.csv"))
        .expect("merged searchers.csv");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        !rows[0].alone,
        "alone in shard 1 only, so not alone: {rows:?}"
    );
    assert!(
        rows[0].oversubscribed,
        "oversubscribed in shard 2: {rows:?}"
    );

    // Without shard 2's table (plain or .gz) the refusal names the plain file.
    let plain = shards[1].join("searches.csv");
    std::fs::remove_file(&plain).expect("remove the rows");
    std::fs::remove_file(shards[1].join("searches.csv.gz")).expect("remove the .gz");
    let stderr = bad_input(&merge_args(&shards, &dir.path("m2"), &["--no-plot"]));
    assert!(
        stderr.contains(&format!("{}: ", plain.display())),
        "{stderr}"
    );
}

/// One job for each branch of the cost model: tic-tac-toe from the start (9 legal moves, 9
/// plies left: one ply fills one of the 9 cells), and a chess mate in 3 played out.
const COSTS: &str = r#"name = "costs"

[[games]]
game = "tictactoe"
positions = ["start"]
searchers = ["minimax", "random", "hinted", "smp", "capped", "timed", "uct", "rootpar", "split"]

[[games]]
game = "chess"
file = "m3.epd"
play_out = true
searchers = ["mate"]

[[searchers]]
label = "minimax"
algorithm = "minimax"
limits = { depth = 4 }

[[searchers]]
label = "random"
algorithm = "alphabeta"
limits = { depth = 4 }

[[searchers]]
label = "hinted"
algorithm = "alphabeta"
ordering = { hint = true }
limits = { depth = 4 }

[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = 2
tt_mb = 1
ordering = { hint = true }
limits = { depth = 2 }

[[searchers]]
label = "capped"
algorithm = "alphabeta"
limits = { depth = 9, nodes = 100 }

[[searchers]]
label = "timed"
algorithm = "minimax"
limits = { time_ms = 5 }

[[searchers]]
label = "uct"
algorithm = "uct"
limits = { nodes = 1000 }

[[searchers]]
label = "rootpar"
algorithm = "root_parallel"
threads = 2
limits = { time_ms = 3 }

[[searchers]]
label = "split"
algorithm = "root_parallel"
threads = 4
limits = { nodes = 4_000_000 }

[[searchers]]
label = "mate"
algorithm = "alphabeta"
limits = { time_ms = 2 }
"#;

/// The job of `plan` whose searcher is `label` (each searcher has one job in COSTS).
fn job_of<'a>(plan: &'a plylab::lab::spec::Plan, label: &str) -> &'a plylab::lab::spec::Job {
    let mut jobs = plan.jobs.iter().filter(|j| j.searcher.label == label);
    let job = jobs.next().expect("a job of the searcher");
    assert!(jobs.next().is_none(), "{label} has more than one job");
    job
}

/// `job_cost` is the model its doc comment states (src/cluster/shard.rs), worked by hand:
/// minimax `b^d`, uninformed alpha-beta `b^ceil(3d/4)`, ordered alpha-beta (a hint is an
/// ordering heuristic) `2 b^ceil(d/2)`, threads multiplying the depth and time estimates,
/// the least of depth, nodes and time, 1,000,000 nodes a second, Monte Carlo playouts times
/// the plies left, and `2n + 1` searches for a mate in n played out. `budget_seconds` reads
/// the same budgets as wall time: a node limit spread over the threads, a played-out mate's
/// time limit `2n + 1` times.
#[test]
fn job_costs_follow_the_documented_tree_sizes() {
    let dir = TempDir::new("shard-costs");
    // Line 1 of experiments/data/chess/mate_in_3.epd: a mate in 3 for White.
    std::fs::write(
        dir.path("m3.epd"),
        "8/8/8/8/1p1N4/1Bk1K3/3N4/b7 w - - bm Nd4-e6; ce +M3; \
         pv Nd4-e6 Ba1-b2 Ne6-c5 Bb2-a1 Nc5-a4+;\n",
    )
    .expect("write the EPD");
    let file = dir.path("costs.toml");
    std::fs::write(&file, COSTS).expect("write the experiment");
    let plan = spec::load(&file).expect("a valid plan");
    let cost = |label: &str| job_cost(job_of(&plan, label));
    // Minimax to depth 4: 9^4.
    assert_eq!(cost("minimax"), 6561, "minimax");
    // Alpha-beta without ordering to depth 4: 9^ceil(12/4) = 9^3.
    assert_eq!(cost("random"), 729, "random");
    // Alpha-beta with a hint to depth 4: 2 * 9^ceil(4/2) = 2 * 81.
    assert_eq!(cost("hinted"), 162, "hinted");
    // Two lazy SMP threads, ordered, depth 2: 2 threads * 2 * 9^1.
    assert_eq!(cost("smp"), 36, "smp");
    // Depth 9 allows 9^7 nodes; the node limit allows 100.
    assert_eq!(cost("capped"), 100, "capped");
    // No depth: the 9 plies left allow 9^9 = 387,420,489; 5 ms allow 5,000.
    assert_eq!(cost("timed"), 5000, "timed");
    // 1,000 playouts of the 9 plies left.
    assert_eq!(cost("uct"), 9000, "uct");
    // 3 ms on each of 2 threads: 6,000 playouts, of 9 plies each.
    assert_eq!(cost("rootpar"), 54_000, "rootpar");
    // A node limit is not multiplied by the threads: 4,000,000 playouts of 9 plies.
    assert_eq!(cost("split"), 36_000_000, "split");
    // 2 ms (2,000 nodes, less than any depth of chess allows) for each of 2*3 + 1 searches.
    assert_eq!(cost("mate"), 14_000, "mate");

    let seconds = |label: &str| {
        let e = budget_seconds([job_of(&plan, label)], 1).expect("an estimate");
        (e.seconds, e.is_bound())
    };
    // 4,000,000 nodes at 1,000,000 a second on each of 4 threads: 1 s, not a bound.
    let (s, bound) = seconds("split");
    assert!(
        (s - 1.0).abs() < 1e-9 && !bound,
        "split: {s} s, bound {bound}"
    );
    // 7 searches of 2 ms each, bounded by the time limit.
    let (s, bound) = seconds("mate");
    assert!(
        (s - 0.014).abs() < 1e-9 && bound,
        "mate: {s} s, bound {bound}"
    );
}

/// Three connect-four players, each on one kind of budget: a time per move, a repeating
/// clock, and a node count.
const CLOCKS: &str = r#"name = "clocks"
seed = 5

[match]
game = "connect4"
games = 4
max_plies = 10
concurrency = 1

[[searchers]]
label = "clocked"
algorithm = "alphabeta"
tc = "2/2+0.1"

[[searchers]]
label = "timed"
algorithm = "alphabeta"
limits = { time_ms = 20 }

[[searchers]]
label = "nodes"
algorithm = "alphabeta"
limits = { nodes = 500_000 }
"#;

/// A match's estimates, its shards and its Slurm units, derived by hand from the doc
/// comments of `match_budget_seconds`, `player_game_budget`, `pairing_game_cost` and
/// `partition` (src/cluster/shard.rs), EXPERIMENTS.md's `[match]` keys (`tc` `"moves/time+
/// increment"` gives the base again every `moves` moves; `games` per pairing, in pairs) and
/// `MatchPlan::schedule` (round by round, each round visiting every pairing).
///
/// Pairings (round robin): p0 = clocked-timed, p1 = clocked-nodes, p2 = timed-nodes; 4
/// games each in pairs: 2 rounds. Games 0-1 are p0's round 0, 2-3 p1's, 4-5 p2's, then
/// 6-11 round 1 in the same order.
#[test]
fn a_match_is_estimated_and_shared_out_by_its_players_budgets() {
    let dir = TempDir::new("shard-clocks");
    let file = dir.path("clocks.toml");
    std::fs::write(&file, CLOCKS).expect("write the match");
    let plan = plylab::arena::spec::parse(&file, CLOCKS).expect("a valid match");
    assert_eq!(plan.pairings, [(0, 1), (0, 2), (1, 2)]);

    // 10 plies (max_plies; connect four allows 42): 5 moves for each player.
    // clocked: ceil(5 / 2) = 3 periods of 2 s, plus 5 increments of 0.1 s: 6.5 s, a bound.
    // timed: 5 moves of 20 ms: 0.1 s, a bound. nodes: 5 moves of 500,000 nodes at
    // 1,000,000 a second: 2.5 s, a guess.
    let estimate = |games: &[usize]| {
        plylab::cluster::shard::match_budget_seconds(&plan, games, 1).expect("an estimate")
    };
    let e = estimate(&[0, 1]);
    assert!((e.seconds - 2.0 * 6.6).abs() < 1e-9, "clocked-timed: {e:?}");
    assert_eq!(e.by_nodes, 0, "clocked-timed");
    assert!(e.is_bound(), "clocked-timed");
    let e = estimate(&[2, 3]);
    assert!((e.seconds - 2.0 * 9.0).abs() < 1e-9, "clocked-nodes: {e:?}");
    assert_eq!(e.by_nodes, 2, "clocked-nodes");
    let e = estimate(&[4, 5]);
    assert!((e.seconds - 2.0 * 2.6).abs() < 1e-9, "timed-nodes: {e:?}");
    assert_eq!(e.by_nodes, 2, "timed-nodes");

    // Costs per move: clocked 2 s / 40 + 0.1 s = 150 ms, timed 20 ms, at 1,000 nodes a
    // millisecond; nodes 500,000. The time limits are the least (uninformed alpha-beta
    // from the start of connect four: 7^ceil(3 * 42 / 4) = 7^32 > 2^64 by depth). A round
    // of a pairing is its 2 games: p0 2 * 170,000, p1 2 * 650,000, p2 2 * 520,000.
    // Units (pairing, round) in schedule order u0..u5 = p0 p1 p2 p0 p1 p2, costs 340k,
    // 1300k, 1040k, 340k, 1300k, 1040k. LPT on 3 shards, costliest first (ties: lower
    // unit; then lower shard): u1 -> 1, u4 -> 2, u2 -> 3 (0 < 1300k), u5 -> 3 (1040k <
    // 1300k), u0 -> 1 (1300k tie, lower), u3 -> 2.
    let shard = |index| plylab::cluster::shard::match_shard(&plan, Shard { index, count: 3 });
    assert_eq!(shard(1), [0, 1, 2, 3], "shard 1/3: units u0 and u1");
    assert_eq!(shard(2), [6, 7, 8, 9], "shard 2/3: units u3 and u4");
    assert_eq!(shard(3), [4, 5, 10, 11], "shard 3/3: units u2 and u5");

    // Slurm shares out the same units: 3 pairings of 2 rounds.
    let facts = plylab::cluster::slurm::plan_facts(&file).expect("facts");
    assert_eq!(
        (facts.units, facts.widest, facts.name.as_str()),
        (6, 1, "clocks")
    );
}

/// Each fact the module doc and EXPERIMENTS.md ("Many machines") say every shard must
/// share (seed, plylab version, job count, files read, the `--quick` split), changed in
/// shard 2's run.json alone, is refused; so is a record naming a job (or a twin) one past
/// the run's last. The same `quick` in every shard merges, and merged run.json says so.
#[test]
fn a_merge_refuses_shards_that_disagree_or_name_jobs_past_the_run() {
    let dir = TempDir::new("shard-disagree");
    let file = write_experiment(&dir, TWO_JOBS);
    let shards = run_shards(&dir, &file, 2);
    let kept = std::fs::read_to_string(shards[1].join("run.json")).expect("run.json");
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 7] = [
        ("differ in their seed", |run| run["seed"] = 6.into()),
        ("differ in their plylab version", |run| {
            run["crate_version"] = "0.0.0".into();
        }),
        ("differ in their job count", |run| {
            run["job_count"] = 3.into();
        }),
        ("differ in their files read", |run| {
            run["inputs"] = serde_json::json!({ "weights/x.bin": "0123" });
        }),
        ("were split differently", |run| {
            run["shard"]["quick"] = true.into();
        }),
        ("holds job 2, and the run has 2", |run| {
            let jobs = run["shard"]["jobs"].as_array_mut().expect("jobs");
            jobs.push(2.into());
        }),
        ("holds job 2, and the run has 2", |run| {
            let job = run["shard"]["jobs"][0].clone();
            run["shard"]["baselines"] = serde_json::json!([[job, 2]]);
        }),
    ];
    for (why, edit) in edits {
        edit_run_json(&shards[1], edit);
        let stderr = bad_input(&merge_args(&shards, &dir.path("m"), &["--no-plot"]));
        assert!(stderr.contains(why), "{why}: {stderr}");
        std::fs::write(shards[1].join("run.json"), &kept).expect("mend");
    }
    for shard in &shards {
        edit_run_json(shard, |run| run["shard"]["quick"] = true.into());
    }
    let merged = dir.path("merged");
    ok(&merge_args(&shards, &merged, &["--no-plot"]));
    let run = run_json(&merged);
    assert_eq!(
        run["quick"], true,
        "shards run with --quick merge into a --quick run"
    );
}

/// Writes an executable shell script `body` to `path`.
#[cfg(unix)]
fn write_stand_in(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("write a stand-in");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The sbatch script run as Slurm runs array tasks (EXPERIMENTS.md, "Many machines"), with
/// stand-ins for plylab, sbatch and squeue that log their arguments: task `t` runs shard
/// `t+1`/N into OUT/shards/(t+1); task 0 first submits the merge, after the whole array
/// (`afterok`), with the array's time, partition and account, `--kill-on-invalid-dep=yes`
/// and `merge ... --force`, and records its id; a requeued task 0 whose merge job is still
/// queued submits none; outside a job array the script refuses to run.
#[cfg(unix)]
#[test]
fn the_slurm_script_runs_each_shard_and_submits_the_merge_once() {
    let dir = TempDir::new("slurm-run");
    let file = write_experiment(&dir, TWINS);
    let bin = dir.path("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let calls = dir.path("calls");
    write_stand_in(
        &bin.join("sbatch"),
        "echo \"sbatch $*\" >> \"$CALLS\"\necho 77",
    );
    write_stand_in(
        &bin.join("squeue"),
        "echo \"squeue $*\" >> \"$CALLS\"\n[ -n \"$QUEUED\" ] && echo 77\nexit 0",
    );
    let fake = dir.path("fake-plylab");
    write_stand_in(&fake, "echo \"plylab $*\" >> \"$CALLS\"");
    let out = dir.path("results");
    let script = ok(&[
        "slurm",
        text(&file),
        "--tasks",
        "3",
        "--time",
        "00:30:00",
        "--partition",
        "debug",
        "--account",
        "lab",
        "--out",
        text(&out),
        "--binary",
        text(&fake),
    ]);
    let sbatch = dir.path("run.sbatch");
    std::fs::write(&sbatch, &script).expect("write");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Runs the script as array task `task` (none: outside an array); returns the exit code
    // and the calls logged.
    let run = |task: Option<&str>, queued: bool| {
        let _ = std::fs::remove_file(&calls);
        let mut command = std::process::Command::new("bash");
        command
            .arg(&sbatch)
            .env("PATH", &path)
            .env("CALLS", &calls)
            .env("SLURM_ARRAY_JOB_ID", "4242")
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env("QUEUED", if queued { "1" } else { "" });
        if let Some(task) = task {
            command.env("SLURM_ARRAY_TASK_ID", task);
        }
        let status = command.output().expect("bash runs").status;
        let logged = std::fs::read_to_string(&calls).unwrap_or_default();
        (
            status.code(),
            logged.lines().map(String::from).collect::<Vec<_>>(),
        )
    };
    let shard = |i: usize| {
        format!(
            "plylab experiment {} --shard {i}/3 --jobs 1 --no-plot --resume --out {}/shards/{i}",
            file.display(),
            out.display()
        )
    };
    let (code, calls_0) = run(Some("0"), false);
    assert_eq!(code, Some(0), "{calls_0:?}");
    assert_eq!(calls_0.len(), 2, "{calls_0:?}");
    let merge = &calls_0[0];
    assert!(merge.starts_with("sbatch --parsable "), "{merge}");
    for option in [
        "--dependency=afterok:4242",
        "--kill-on-invalid-dep=yes",
        "--time=00:30:00",
        "--partition=debug",
        "--account=lab",
        &format!("--output={}/logs/merge.out", out.display()),
    ] {
        assert!(merge.contains(option), "no `{option}` in {merge}");
    }
    let o = out.display();
    assert!(
        merge.ends_with(&format!(" merge '{o}'/shards/* --out '{o}' --force")),
        "{merge}"
    );
    assert_eq!(calls_0[1], shard(1));
    let jobid = std::fs::read_to_string(out.join("logs/merge.jobid")).expect("merge.jobid");
    assert_eq!(jobid.trim(), "77");
    // Requeued while its merge job waits: no second merge job.
    let (code, again) = run(Some("0"), true);
    assert_eq!(code, Some(0), "{again:?}");
    assert_eq!(again, ["squeue -h -j 77".to_owned(), shard(1)]);
    let (code, last) = run(Some("2"), false);
    assert_eq!(code, Some(0), "{last:?}");
    assert_eq!(last, [shard(3)]);
    let (code, none) = run(None, false);
    assert_eq!(code, Some(2), "run outside a job array");
    assert!(none.is_empty(), "{none:?}");
}

/// A match's games without their seconds (and the annotations, which hold them).
fn games_untimed(dir: &Path) -> Vec<Vec<String>> {
    untimed(&dir.join("games.csv"), |h| {
        h.ends_with("_time_s") || h == "annotations"
    })
}

/// A shard's games.csv need not be in schedule order (games played at once end in any
/// order): the merge takes the union in schedule order (EXPERIMENTS.md, "Many machines"),
/// and equals the one-machine games.csv. Shards run with `--quick` merge into the quick
/// match (one pair of games a pairing), not refused as missing the full match's games.
#[test]
fn arena_shards_merge_in_schedule_order_and_quick_ones_as_the_quick_match() {
    let dir = TempDir::new("shard-arena-order");
    let file = write_experiment(&dir, MATCH);
    let shards = run_whole_and_shards(&dir, &file, 2, "1");
    let rows_path = shards[0].join("games.csv");
    let rows = std::fs::read_to_string(&rows_path).expect("games.csv");
    let mut lines: Vec<&str> = rows.lines().collect();
    lines[1..].reverse();
    std::fs::write(&rows_path, lines.join("\n") + "\n").expect("reorder the rows");
    let merged = dir.path("merged");
    ok(&merge_args(&shards, &merged, &["--no-plot"]));
    assert!(
        games_untimed(&merged) == games_untimed(&dir.path("one")),
        "games.csv differs from the one-machine run's"
    );

    let quick: Vec<PathBuf> = (1..=3)
        .map(|i| {
            let out = dir.path(&format!("quick-{i}"));
            let shard = format!("{i}/3");
            ok(&[
                "experiment",
                text(&file),
                "--quick",
                "--shard",
                &shard,
                "--out",
                text(&out),
                "--no-plot",
            ]);
            out
        })
        .collect();
    let stdout = ok(&merge_args(&quick, &dir.path("quick"), &["--no-plot"]));
    assert_eq!(games_untimed(&dir.path("quick")).len() - 1, 6, "{stdout}");
}

/// A clock's share of a game's cost is a fortieth of its base plus the increment
/// (EXPERIMENTS.md, "Many machines"), set against a time per move and a node count: with
/// one round of three pairings on three shards, the costliest pairing goes to shard 1,
/// the next to shard 2, the cheapest to shard 3 (`partition`). And `slurm` asks for the
/// cores of the widest player.
#[test]
fn a_clocks_share_is_a_fortieth_of_its_base_plus_the_increment() {
    // clocked: 4 s / 40 + 0.1 s = 0.2 s a move, timed 0.15 s, nodes 250,000 (0.25 s at
    // 1,000,000 nodes a second). Pairings p0 = clocked-timed 0.35, p1 = clocked-nodes
    // 0.45, p2 = timed-nodes 0.40; games 0-1 are p0's, 2-3 p1's, 4-5 p2's.
    let text = "name = \"share\"\n[match]\ngame = \"connect4\"\ngames = 2\nconcurrency = 1\n\
                [[searchers]]\nlabel = \"clocked\"\nalgorithm = \"alphabeta\"\ntc = \"4+0.1\"\n\
                [[searchers]]\nlabel = \"timed\"\nalgorithm = \"alphabeta\"\n\
                limits = { time_ms = 150 }\n[[searchers]]\nlabel = \"nodes\"\n\
                algorithm = \"alphabeta\"\nlimits = { nodes = 250_000 }\n";
    let plan = plylab::arena::spec::parse(Path::new("share.toml"), text).expect("valid");
    assert_eq!(plan.pairings, [(0, 1), (0, 2), (1, 2)]);
    let shard = |index| plylab::cluster::shard::match_shard(&plan, Shard { index, count: 3 });
    assert_eq!(shard(1), [2, 3], "p1, the costliest");
    assert_eq!(shard(2), [4, 5], "p2");
    assert_eq!(shard(3), [0, 1], "p0, the cheapest");

    let dir = TempDir::new("shard-widest");
    let file = dir.path("widest.toml");
    let smp = text.replace(
        "label = \"nodes\"\nalgorithm = \"alphabeta\"",
        "label = \"nodes\"\nalgorithm = \"lazy_smp\"\nthreads = 2\ntt_mb = 1",
    );
    std::fs::write(&file, smp).expect("write the match");
    let facts = plylab::cluster::slurm::plan_facts(&file).expect("facts");
    assert_eq!(facts.widest, 2, "the widest player's threads");
}

/// Only a Monte Carlo move against a known score is judged by a solve after its search
/// (`Estimate::judged`): on a position without one its time limit bounds the job.
#[test]
fn a_monte_carlo_job_without_a_known_score_is_bounded_by_its_time() {
    let dir = TempDir::new("shard-unjudged");
    let file = dir.path("uct.toml");
    std::fs::write(
        &file,
        "name = \"uct\"\n[[games]]\ngame = \"random_tree\"\nb = [3]\nd = [4]\ntrees = 2\n\
         [[searchers]]\nlabel = \"uct\"\nalgorithm = \"uct\"\nlimits = { time_ms = 5 }\n",
    )
    .expect("write the experiment");
    let plan = spec::load(&file).expect("a valid plan");
    let e = budget_seconds(&plan.jobs, 1).expect("an estimate");
    assert_eq!((e.by_nodes, e.judged), (0, 0), "{e:?}");
    assert!(e.is_bound(), "{e:?}");
}

/// The plies a Monte Carlo job's playouts last are the plies left in the game, at most
/// 64 (EXPERIMENTS.md, "Many machines"): Othello from the start has up to 120 plies left
/// (two for each empty square), so 1,000 playouts cost 64,000.
#[test]
fn a_playouts_length_is_at_most_64_plies() {
    let dir = TempDir::new("shard-long-game");
    let file = dir.path("othello.toml");
    std::fs::write(
        &file,
        "name = \"o\"\n[[games]]\ngame = \"othello\"\npositions = [\"start\"]\n\
         [[searchers]]\nlabel = \"uct\"\nalgorithm = \"uct\"\nlimits = { nodes = 1000 }\n",
    )
    .expect("write the experiment");
    let plan = spec::load(&file).expect("a valid plan");
    assert_eq!(job_cost(&plan.jobs[0]), 64_000);
}

/// The parallel columns are computed again at the merge, not copied from the shards
/// (module doc): a value a shard's row holds without a twin to compare with (as an older
/// or edited shard may) is not carried into the merged searches.csv.
#[test]
fn a_merge_computes_the_parallel_columns_again() {
    let dir = TempDir::new("shard-relink");
    let file = write_experiment(&dir, TWO_JOBS);
    let shards = run_shards(&dir, &file, 2);
    let path = shards[0].join("searches.csv");
    let mut reader = csv::Reader::from_path(&path).expect("searches.csv");
    let header = reader.headers().expect("a header").clone();
    let column = header.iter().position(|h| h == "speedup").expect("speedup");
    let mut writer = csv::Writer::from_path(dir.path("edited.csv")).expect("create");
    writer.write_record(&header).expect("write");
    for record in reader.records() {
        let mut fields: Vec<String> = record.expect("a row").iter().map(String::from).collect();
        fields[column] = "9.5".into();
        writer.write_record(&fields).expect("write");
    }
    writer.flush().expect("flush");
    std::fs::rename(dir.path("edited.csv"), &path).expect("replace the rows");
    let merged = dir.path("merged");
    ok(&merge_args(&shards, &merged, &["--no-plot"]));
    let mut reader = csv::Reader::from_path(merged.join("searches.csv")).expect("merged");
    for record in reader.records() {
        let record = record.expect("a row");
        assert_eq!(
            &record[column], "",
            "a stale speedup carried over: {record:?}"
        );
    }
}
