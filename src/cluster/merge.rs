//! `plylab merge`: one results directory from the directories of an experiment's (or a
//! match's) shards, a pure function of those directories.
//!
//! Every shard must come from the same experiment text, seed and plylab version, and the
//! same split `N`; every job (or game) of the plan must be whole in exactly one of
//! them. The merged searches.csv is the union of the shards' rows sorted as the runner sorts
//! them, with the parallel columns (speedup, overhead, nps_scaling) linked again across
//! shards from the twins their run.json files record; it equals a one-machine run's apart
//! from the timing columns. A match's games are taken in schedule order, its SPRT (if any)
//! applied as one machine playing one game at a time would, and standings.csv, summary.md
//! and games.pgn computed from them.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::arena::record::GameRow;
use crate::arena::run::sprt_in_order;
use crate::arena::spec::MatchPlan;
use crate::arena::standings::standings;
use crate::lab::error::{RunError, csv_err, io};
use crate::lab::guard::whole_jobs;
use crate::lab::machine::{RunInfo, read_recorded_run, write_info};
use crate::lab::record::{Row, SearcherRow, link_twins, read_searchers, write_searchers};
use crate::lab::shards::{ShardRecord, ShardRun};

/// Why a merge could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// The directories do not make one whole run (bad input).
    #[error("{0}")]
    Refused(String),
    /// A file could not be read or written.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// What a merge produced.
#[derive(Debug)]
pub struct MergeReport {
    /// The merged directory.
    pub out: PathBuf,
    /// Shards merged.
    pub shards: usize,
    /// Jobs (or games) in the merged results.
    pub jobs: usize,
    /// Whether it was a match (games.csv) rather than an experiment (searches.csv).
    pub arena: bool,
}

/// One shard's directory and run.json.
struct ShardDir {
    dir: PathBuf,
    info: RunInfo,
}

/// Merges the shard directories `dirs` into `out` (created if needed); an `out` that holds
/// results already is replaced only with `force`.
///
/// # Errors
/// [`MergeError::Refused`] naming the directories and jobs when they do not make one whole
/// run, or `out` when it is a shard, a file, holds results without `force` or cannot be
/// created;
/// [`MergeError::Run`] when a file cannot be read or written.
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<MergeReport, MergeError> {
    check_out(dirs, out, force)?;
    let shards = read_shards(dirs)?;
    check_same_run(&shards)?;
    crate::lab::guard::create(out).map_err(|e| MergeError::Refused(e.to_string()))?;
    let _lock =
        crate::lab::guard::DirLock::take(out).map_err(|e| MergeError::Refused(e.to_string()))?;
    // Nothing of what `out` held stays beside the merge (another experiment's rows would be
    // drawn into its summary).
    crate::lab::guard::clear_outputs(out, force)?;
    let first = &shards[0].info;
    let info = merged_info(&shards);
    let jobs = if crate::arena::spec::is_arena(&first.text) {
        merge_match(&shards, out, &info)?
    } else {
        merge_searches(&shards, out)?
    };
    write_info(&info, out)?;
    Ok(MergeReport {
        out: out.to_path_buf(),
        shards: shards.len(),
        jobs,
        arena: crate::arena::spec::is_arena(&first.text),
    })
}

/// Refuses an `out` that is one of the shards (merging into it would overwrite what it
/// reads), a file, or, as `plylab experiment` does, a directory holding results without
/// `force`.
fn check_out(dirs: &[PathBuf], out: &Path, force: bool) -> Result<(), MergeError> {
    let same = |dir: &PathBuf| match (fs::canonicalize(dir), fs::canonicalize(out)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Some(dir) = dirs.iter().find(|d| same(d)) {
        return Err(MergeError::Refused(format!(
            "--out {} is the shard {}: merge into another directory",
            out.display(),
            dir.display()
        )));
    }
    let refuse = |what: &str| {
        Err(MergeError::Refused(format!(
            "--out {} {what}",
            out.display()
        )))
    };
    if out.exists() && !out.is_dir() {
        return refuse("is a file, not a results directory");
    }
    if !force && crate::lab::guard::holds_results(out) {
        return refuse("already holds results: --force replaces them, or merge elsewhere");
    }
    Ok(())
}

/// The run.json of every directory, which must record a shard.
fn read_shards(dirs: &[PathBuf]) -> Result<Vec<ShardDir>, MergeError> {
    if dirs.is_empty() {
        return Err(MergeError::Refused("no shard directories given".into()));
    }
    dirs.iter()
        .map(|dir| {
            let info = match read_recorded_run(dir) {
                Ok(Some(info)) => info,
                Ok(None) => {
                    let why = format!("{}: no run.json (not a results directory)", dir.display());
                    return Err(MergeError::Refused(why));
                }
                Err(why) => {
                    let path = dir.join("run.json");
                    let why = format!("{}: unreadable ({why})", path.display());
                    return Err(MergeError::Refused(why));
                }
            };
            let Some(record) = &info.shard else {
                return Err(MergeError::Refused(format!(
                    "{}: run.json records no shard (a whole run, not one made with --shard I/N)",
                    dir.display()
                )));
            };
            if let Err(why) = check_record(record, info.job_count) {
                return Err(MergeError::Refused(format!(
                    "{}: run.json's shard record {why}: no --shard I/N run writes that",
                    dir.display()
                )));
            }
            Ok(ShardDir {
                dir: dir.clone(),
                info,
            })
        })
        .collect()
}

/// What a `--shard I/N` run of `total` jobs (or game pairs) could not have recorded: an
/// index outside 1..=N, ids repeated or out of order (they are searched by bisection), or
/// ids beyond the run's. The first pair out of order is named.
fn check_record(record: &ShardRecord, total: usize) -> Result<(), String> {
    let (index, count) = (record.index, record.count);
    if !(1..=count).contains(&index) {
        return Err(format!("names shard {index} of {count}"));
    }
    if let Some(&[a, b]) = record.jobs.windows(2).find(|pair| pair[0] >= pair[1]) {
        return Err(if a == b {
            format!("lists job {a} twice")
        } else {
            format!("lists job {b} after job {a}: its jobs are out of order")
        });
    }
    let ids = record.jobs.iter().chain(record.baselines.iter().flatten());
    if let Some(id) = ids.copied().find(|&id| id >= total) {
        return Err(format!("holds job {id}, and the run has {total}"));
    }
    Ok(())
}

/// A fact of a run that every shard must share.
type Fact = fn(&RunInfo) -> String;

/// Refuses shards of different experiments, seeds, versions, splits, or contents of the
/// files their searchers read.
fn check_same_run(shards: &[ShardDir]) -> Result<(), MergeError> {
    let first = &shards[0];
    let split = |s: &ShardDir| s.info.shard.as_ref().map(|r| (r.count, r.quick));
    // Not the git commit: it is the working tree's when the shard ran, which need not be the
    // binary's (merged run.json lists every commit seen).
    let facts: [(&str, Fact); 5] = [
        ("experiment text", |i| i.text.clone()),
        ("seed", |i| i.seed.to_string()),
        ("plylab version", |i| i.crate_version.clone()),
        ("job count", |i| i.job_count.to_string()),
        ("files read (weights, databases, books)", |i| {
            format!("{:?}", i.inputs)
        }),
    ];
    for other in &shards[1..] {
        for (what, fact) in &facts {
            if fact(&first.info) != fact(&other.info) {
                return Err(MergeError::Refused(format!(
                    "{} and {} differ in their {what}: shards of different runs cannot be merged",
                    first.dir.display(),
                    other.dir.display()
                )));
            }
        }
        // Shard 5/5 and shard 5/7 are not both shard 5, but of two splits.
        if split(first) != split(other) {
            return Err(MergeError::Refused(format!(
                "{} and {} were split differently (shard counts or --quick differ)",
                first.dir.display(),
                other.dir.display()
            )));
        }
        if let Some(twin) = shards.iter().find(|s| {
            !std::ptr::eq(*s, other)
                && record(s).index == record(other).index
                && split(s) == split(other)
        }) {
            return Err(MergeError::Refused(format!(
                "{} and {} are both shard {}",
                twin.dir.display(),
                other.dir.display(),
                record(other).shard()
            )));
        }
    }
    Ok(())
}

/// The shard record of a directory read by [`read_shards`].
fn record(s: &ShardDir) -> &ShardRecord {
    s.info.shard.as_ref().expect("checked by read_shards")
}

/// Checks that each id in `0..total` is held whole by exactly one shard: `held[k]` are the
/// ids whose rows shard `k` holds whole; `damaged` says why a shard's rows of an id were
/// left out, where they were.
fn check_coverage(
    shards: &[ShardDir],
    held: &[Vec<usize>],
    total: usize,
    unit: &str,
    damaged: &BTreeMap<usize, String>,
) -> Result<(), MergeError> {
    let mut holders: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, ids) in held.iter().enumerate() {
        for &id in ids {
            holders.entry(id).or_default().push(k);
        }
    }
    let missing: Vec<usize> = (0..total).filter(|i| !holders.contains_key(i)).collect();
    let doubled: Vec<(usize, &Vec<usize>)> = holders
        .iter()
        .filter(|(_, h)| h.len() > 1)
        .map(|(&i, h)| (i, h))
        .collect();
    let mut problems = Vec::new();
    if !missing.is_empty() {
        let count = record(&shards[0]).count;
        let given: Vec<usize> = shards.iter().map(|s| record(s).index).collect();
        let absent: Vec<usize> = (1..=count).filter(|i| !given.contains(i)).collect();
        let absent = if absent.is_empty() {
            String::new()
        } else {
            format!("; shards not given: {}", ranges(&absent))
        };
        problems.push(format!(
            "{} {unit}s missing (not given, or not finished): {}{absent}",
            missing.len(),
            ranges(&missing)
        ));
        let why: Vec<String> = missing
            .iter()
            .filter_map(|id| Some(format!("{unit} {id}: {}", damaged.get(id)?)))
            .collect();
        if !why.is_empty() {
            problems.push(format!(
                "rows left out as damaged: {}",
                crate::lab::diagnose::first_few(&why, 3, "; ")
            ));
        }
    }
    if !doubled.is_empty() {
        let ids: Vec<usize> = doubled.iter().map(|(i, _)| *i).collect();
        let mut dirs: Vec<String> = doubled
            .iter()
            .flat_map(|(_, h)| h.iter().map(|&k| shards[k].dir.display().to_string()))
            .collect();
        dirs.sort();
        dirs.dedup();
        problems.push(format!(
            "{} {unit}s in more than one shard: {} (in {})",
            ids.len(),
            ranges(&ids),
            dirs.join(", ")
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(MergeError::Refused(format!(
            "the shards do not make one whole run: {}",
            problems.join("; ")
        )))
    }
}

/// `0-3, 7, 9-10`: sorted ids as ranges.
fn ranges(ids: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            ids[i].to_string()
        } else {
            format!("{}-{}", ids[i], ids[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// Refuses rows of a job that `shard` does not hold.
fn check_held(shard: &ShardDir, ids: &[usize], file: &str, unit: &str) -> Result<(), MergeError> {
    let rec = record(shard);
    let foreign: Vec<usize> = ids.iter().copied().filter(|&i| !rec.holds(i)).collect();
    if foreign.is_empty() {
        return Ok(());
    }
    Err(MergeError::Refused(format!(
        "{}: {file} holds {unit}s {} that shard {} does not",
        shard.dir.display(),
        ranges(&foreign),
        rec.shard()
    )))
}

/// A shard's table `name` as scripts/regenerate-results.sh may leave it: the plain file,
/// or else its `.gz` (named in what is said of its rows), or else the plain name, for the
/// error.
fn shard_table(dir: &Path, name: &str) -> PathBuf {
    let plain = dir.join(name);
    let gz = crate::compressed::gz_path(&plain);
    if !plain.exists() && gz.exists() {
        gz
    } else {
        plain
    }
}

/// Merges searches.csv; returns the number of jobs.
fn merge_searches(shards: &[ShardDir], out: &Path) -> Result<usize, MergeError> {
    let mut rows: Vec<Row> = Vec::new();
    let mut held = Vec::new();
    let mut damaged = BTreeMap::new();
    for shard in shards {
        let path = shard_table(&shard.dir, "searches.csv");
        let reader = crate::compressed::open(&path)
            .map(|file| csv::ReaderBuilder::new().flexible(true).from_reader(file))
            .map_err(|e| MergeError::Refused(format!("{}: {e}", path.display())))?;
        // A shard's rows that cannot be read are the shard's fault: bad input, as above.
        let (mine, why) =
            whole_jobs(reader, &path).map_err(|e| MergeError::Refused(e.to_string()))?;
        for (job, why) in why {
            damaged.insert(job, format!("{} {why}", path.display()));
        }
        let mut ids: Vec<usize> = mine.iter().map(|r| r.job).collect();
        ids.dedup();
        check_held(shard, &ids, "searches.csv", "job")?;
        held.push(ids);
        rows.extend(mine);
    }
    let total = shards[0].info.job_count;
    check_coverage(shards, &held, total, "job", &damaged)?;
    let twins: BTreeMap<usize, usize> = shards
        .iter()
        .flat_map(|s| record(s).baselines.iter().map(|&[job, base]| (job, base)))
        .collect();
    rows.sort_by_key(|r| (r.job, r.step, r.depth));
    for row in &mut rows {
        (row.speedup, row.overhead, row.nps_scaling) = (None, None, None);
    }
    link_twins(&mut rows, |job| twins.get(&job).copied());
    let path = out.join("searches.csv");
    crate::output::replace(&path, |file| {
        crate::lab::record::write_csv_rows(file, &rows)
    })
    .map_err(io(&path))?;
    merge_searchers(shards, out, &rows)?;
    Ok(total)
}

/// Merges the shards' searchers.csv: each searcher variant once, in the order of its first
/// job in the merged `rows` (as a run of the whole plan lists them); it ran alone only if it
/// did in every shard, and was oversubscribed if it was in any. Shards written before
/// searchers.csv existed have none, and add nothing.
fn merge_searchers(shards: &[ShardDir], out: &Path, rows: &[Row]) -> Result<(), MergeError> {
    let mut merged: Vec<SearcherRow> = Vec::new();
    for shard in shards {
        let path = shard.dir.join("searchers.csv");
        if !path.exists() {
            continue;
        }
        let rows = read_searchers(&path)
            .map_err(|e| MergeError::Refused(format!("{}: {e}", path.display())))?;
        for row in rows {
            match merged.iter_mut().find(|m| m.searcher == row.searcher) {
                Some(m) => {
                    m.alone &= row.alone;
                    m.oversubscribed |= row.oversubscribed;
                    m.cores = m.cores.max(row.cores);
                    if m.baseline.is_none() {
                        m.baseline = row.baseline;
                    }
                }
                None => merged.push(row),
            }
        }
    }
    if merged.is_empty() {
        return Ok(());
    }
    let mut first_job: BTreeMap<&str, usize> = BTreeMap::new();
    for row in rows {
        first_job.entry(&row.searcher).or_insert(row.job);
    }
    merged.sort_by_key(|m| {
        first_job
            .get(m.searcher.as_str())
            .copied()
            .unwrap_or(usize::MAX)
    });
    let path = out.join("searchers.csv");
    write_searchers(&path, &merged).map_err(|e| MergeError::Run(csv_err(&path)(e)))
}

/// The match plan the shards ran, read again from the text and file their run.json records
/// (an openings file is found from that path).
fn match_plan(shard: &ShardDir) -> Result<MatchPlan, MergeError> {
    let info = &shard.info;
    let file = info.experiment_path(&shard.dir);
    let plan = crate::arena::spec::parse(&file, &info.text).map_err(|e| {
        MergeError::Refused(format!("{}: run.json's match: {e}", shard.dir.display()))
    })?;
    Ok(if record(shard).quick {
        plan.quick()
    } else {
        plan
    })
}

/// Merges games.csv and writes the match's files (summary.md with the machine facts of the
/// merged run.json, `info`); returns the number of games.
fn merge_match(shards: &[ShardDir], out: &Path, info: &RunInfo) -> Result<usize, MergeError> {
    let plan = match_plan(&shards[0])?;
    let schedule = plan.schedule();
    let mut rows: Vec<GameRow> = Vec::new();
    let mut held = Vec::new();
    let mut left_out = Vec::new();
    for shard in shards {
        let path = shard_table(&shard.dir, "games.csv");
        let (mine, dropped) = crate::arena::run::read_games(&plan, &path)
            .map_err(|e| MergeError::Refused(e.to_string()))?;
        if let Some(rows) = crate::arena::redraw::describe(&dropped) {
            left_out.push(format!("{}: {rows}", path.display()));
        }
        let mut ids: Vec<usize> = mine.iter().map(|r| r.game).collect();
        ids.sort_unstable();
        ids.dedup();
        check_held(shard, &ids, "games.csv", "game")?;
        held.push(ids);
        rows.extend(mine);
    }
    // A game row left out has no game number to be told by: where games are missing, every
    // row left out is named with the refusal; where none is, they are warned of.
    check_coverage(shards, &held, schedule.len(), "game", &BTreeMap::new()).map_err(
        |e| match e {
            MergeError::Refused(m) if !left_out.is_empty() => {
                MergeError::Refused(format!("{m}; {}", left_out.join("; ")))
            }
            other => other,
        },
    )?;
    for rows in &left_out {
        crate::tell!("warning: {rows}");
    }
    rows.sort_by_key(|r| r.game);
    let rows = crate::arena::run::write_match_files(&plan, out, sprt_in_order(&plan, rows))?;
    let table = standings(&plan, &rows);
    crate::arena::summary::write(&plan, out, &rows, &table, info)
        .map_err(io(&out.join("summary.md")))?;
    Ok(schedule.len())
}

/// The longest shard's wall-clock seconds (the merged run's, had they run at once).
fn longest(shards: &[ShardDir]) -> Option<f64> {
    shards
        .iter()
        .map(|s| s.info.elapsed_s)
        .try_fold(0.0f64, |m, e| Some(m.max(e?)))
}

/// The merged run.json: the shards' common facts, the longest shard's time, and each shard.
fn merged_info(shards: &[ShardDir]) -> RunInfo {
    let first = &shards[0].info;
    let distinct = |fact: fn(&RunInfo) -> &str| {
        let mut seen: Vec<&str> = shards.iter().map(|s| fact(&s.info)).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.join(" + ")
    };
    let mut sorted: Vec<&ShardDir> = shards.iter().collect();
    sorted.sort_by_key(|s| record(s).index);
    RunInfo {
        experiment: first.experiment.clone(),
        file: first.file.clone(),
        text: first.text.clone(),
        description: first.description.clone(),
        notes: first.notes.clone(),
        references: first.references.clone(),
        seed: first.seed,
        git_commit: distinct(|i| &i.git_commit),
        crate_version: first.crate_version.clone(),
        cpu_model: distinct(|i| &i.cpu_model),
        cores: shards.iter().map(|s| s.info.cores).max().unwrap_or(1),
        jobs: shards.iter().map(|s| s.info.jobs).sum(),
        date: shards
            .iter()
            .map(|s| s.info.date.clone())
            .max()
            .unwrap_or_default(),
        elapsed_s: longest(shards),
        interrupted_after_s: None,
        job_count: first.job_count,
        quick: first.shard.as_ref().is_some_and(|s| s.quick),
        inputs: first.inputs.clone(),
        shard: None,
        merged_from: sorted
            .iter()
            .map(|s| ShardRun {
                shard: record(s).shard().to_string(),
                dir: s.dir.display().to_string(),
                job_count: record(s).jobs.len(),
                cpu_model: s.info.cpu_model.clone(),
                cores: s.info.cores,
                jobs: s.info.jobs,
                date: s.info.date.clone(),
                elapsed_s: s.info.elapsed_s,
            })
            .collect(),
        // Shards' CPU times on machines of their own add up to no share of one machine.
        cpu_s: None,
    }
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn ids_print_as_ranges() {
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3, 7, 9-10");
        assert_eq!(ranges(&[5]), "5");
        assert_eq!(ranges(&[]), "");
    }
}
