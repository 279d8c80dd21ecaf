//! run.json: what ran, where and when — the experiment text, seed, git commit, crate
//! version, CPU model, cores and date — so that every figure can be traced and reproduced.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::error::RunError;
use super::shards::{ShardRecord, ShardRun};
use super::spec::{Plan, ReferenceSpec};

/// The contents of run.json.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct RunInfo {
    /// The experiment's name.
    pub experiment: String,
    /// The experiment file as given on the command line.
    pub file: String,
    /// The experiment file's full text.
    pub text: String,
    /// Its one-line description.
    pub description: String,
    /// Notes copied into summary.md.
    pub notes: String,
    /// Published figures for summary.md.
    pub references: Vec<ReferenceSpec>,
    /// The experiment seed.
    pub seed: u64,
    /// The commit the plylab binary was built from (`git rev-parse HEAD` when it was
    /// compiled), `-dirty` if its source files had uncommitted changes then, or `unknown`
    /// for a build outside a git checkout. See build.rs.
    pub git_commit: String,
    /// plylab's version.
    pub crate_version: String,
    /// The CPU model from /proc/cpuinfo.
    pub cpu_model: String,
    /// Logical cores available.
    pub cores: usize,
    /// Worker threads used for jobs.
    pub jobs: usize,
    /// When the run ended or was stopped (while it runs: when it started, or last recorded its
    /// time so far), ISO 8601 UTC.
    pub date: String,
    /// Wall-clock seconds of the whole run, a resumed run's added to those of the interrupted
    /// run it continues (the time between them not counted); absent while it is running.
    pub elapsed_s: Option<f64>,
    /// Seconds an experiment had run when it stopped short, for the run that resumes it to
    /// add to its own: when Ctrl-C stopped it, or, for a run killed outright, when its last
    /// job finished (recorded as the jobs finish, at most once a second, so it is present
    /// while a run goes on too); absent once the run has finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted_after_s: Option<f64>,
    /// Number of jobs in the plan.
    pub job_count: usize,
    /// Whether the run was `--quick` (a reduced plan: see [`Plan::quick`]); `--resume`
    /// rebuilds the earlier plan with it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quick: bool,
    /// A shard's run (`--shard I/N`): which part, and the jobs it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
    /// A merged run (`plylab merge`): the shards' runs it was made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<ShardRun>,
    /// A finished match: CPU seconds used by plylab and by the external engines, as its
    /// summary.md reports them (so that `plylab plot` can write that sentence again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_s: Option<(f64, f64)>,
    /// The files the searchers read (weights, endgame databases, books), by their names in
    /// the experiment file, with a fingerprint of their contents
    /// ([`crate::input::fingerprint`]); a directory of databases by each of its `*.plytb`
    /// files and by itself ([`crate::lab::spec::input_fingerprints`]): `--resume` runs again
    /// the jobs of a file changed since.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, String>,
}

impl RunInfo {
    /// Where the recorded experiment file is, for a command that reads its text again
    /// (plot and merge of a match, whose openings file it names) on the results in `dir`:
    /// `file` as recorded, relative to the directory that run was started in, when it is
    /// there from this one; else the first folder above `dir` that holds it (committed
    /// results/NAME and runs/NAME sit two levels below it); else `file` as recorded, which
    /// the parse then reports missing.
    #[must_use]
    pub fn experiment_path(&self, dir: &Path) -> PathBuf {
        let recorded = PathBuf::from(&self.file);
        if recorded.is_absolute() || recorded.exists() {
            return recorded;
        }
        std::fs::canonicalize(dir)
            .ok()
            .and_then(|dir| {
                dir.ancestors()
                    .skip(1)
                    .map(|above| above.join(&recorded))
                    .find(|candidate| candidate.is_file())
            })
            .unwrap_or(recorded)
    }

    /// The wall-clock seconds the recorded run spent: all of them when it finished, else
    /// those up to its stop (or its last recorded job); what a run resuming it adds.
    #[must_use]
    pub fn seconds_spent(&self) -> Option<f64> {
        self.elapsed_s.or(self.interrupted_after_s)
    }
}

/// CPU seconds this process has used (user + system), and those of its children that have
/// ended and been waited for (the external engines, which the arena quits before
/// summary.md is written; getrusage's `RUSAGE_CHILDREN`), from /proc/self/stat (fields
/// 14-15 and 16-17, in Linux's USER_HZ of 100 ticks per second); `None` elsewhere.
#[must_use]
pub fn cpu_seconds() -> Option<(f64, f64)> {
    let fields = proc_stat(std::process::id())?;
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((
        (ticks(11)? + ticks(12)?) / 100.0,
        (ticks(13)? + ticks(14)?) / 100.0,
    ))
}

/// CPU seconds (user + system) used so far by `pid`, a live child of this process, and by
/// its live descendants, with the children each has reaped, from /proc/PID/stat (fields
/// 14-17) and /proc/PID/task/TID/children; `None` when `pid` is not a child of this process
/// (it has ended and been reaped, so its time is in [`cpu_seconds`]'s children, or the
/// number now names another process) or outside Linux. An external engine's time while it
/// runs: what a match killed outright would otherwise never count.
#[must_use]
pub fn child_cpu_seconds(pid: u32) -> Option<f64> {
    let fields = proc_stat(pid)?;
    let parent: u32 = fields.get(1)?.parse().ok()?;
    (parent == std::process::id()).then(|| tree_cpu_seconds(pid, &fields))
}

/// The fields of /proc/PID/stat after the command name (field 3 first).
fn proc_stat(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; fields after it follow its ')'.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

/// The CPU seconds of the process whose stat `fields` are given (its own and its reaped
/// children's), plus those of its live descendants.
fn tree_cpu_seconds(pid: u32, fields: &[String]) -> f64 {
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    let own = (11..15).filter_map(ticks).sum::<f64>() / 100.0;
    let descendants: f64 = children_of(pid)
        .into_iter()
        .filter_map(|child| Some(tree_cpu_seconds(child, &proc_stat(child)?)))
        .sum();
    own + descendants
}

/// The live children of `pid`, from each of its threads' /proc children list.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Logical cores available to this process.
#[must_use]
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The CPU model name, or `unknown`.
#[must_use]
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The commit the running binary was built from, marked `-dirty` when its source files had
/// uncommitted changes, or `unknown` (build.rs records it at compile time: the working
/// directory's repository, if any, says nothing about the binary).
#[must_use]
pub fn git_commit() -> String {
    env!("PLYLAB_GIT_COMMIT").to_owned()
}

/// The `git_commit` of a run that continues `earlier` (with `--resume`): this build's, after
/// those of the earlier run where they differ, joined by ` + ` as `merge` lists its shards'.
/// A difference is said on stderr: rows of two builds are kept together, and their node
/// counts agree only where the builds' `bench` signatures do.
#[must_use]
pub fn commits_continuing(earlier: Option<&RunInfo>) -> String {
    let now = git_commit();
    let Some(earlier) = earlier.filter(|e| !e.git_commit.is_empty()) else {
        return now;
    };
    if earlier.git_commit.split(" + ").any(|c| c == now) {
        return earlier.git_commit.clone();
    }
    crate::tell!(
        "note: the results kept were written by plylab commit {}, and this is {now}: run.json \
         records both (`plylab bench` on each tells whether their node counts agree)",
        earlier.git_commit
    );
    format!("{} + {now}", earlier.git_commit)
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
#[must_use]
pub fn now_iso8601() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// What run.json records of the experiment itself (an experiment plan or an arena match).
#[derive(Clone, Copy, Debug)]
pub struct Described<'a> {
    /// The experiment's name.
    pub name: &'a str,
    /// The file it was read from.
    pub file: &'a Path,
    /// The file's text.
    pub text: &'a str,
    /// The one-line description.
    pub description: &'a str,
    /// Notes for summary.md.
    pub notes: &'a str,
    /// Published figures for summary.md.
    pub references: &'a [ReferenceSpec],
    /// The experiment seed.
    pub seed: u64,
    /// Jobs (or games) in the plan.
    pub job_count: usize,
    /// The shard run, if only a part of the plan runs.
    pub shard: Option<&'a ShardRecord>,
    /// Whether the run is `--quick` ([`RunInfo::quick`]).
    pub quick: bool,
    /// The files its searchers read, with their fingerprints ([`RunInfo::inputs`]).
    pub inputs: Option<&'a BTreeMap<String, String>>,
}

impl<'a> Described<'a> {
    /// The description of an experiment plan.
    #[must_use]
    pub fn plan(plan: &'a Plan) -> Self {
        Self {
            name: &plan.name,
            file: &plan.file,
            text: &plan.text,
            description: &plan.description,
            notes: &plan.notes,
            references: &plan.references,
            seed: plan.seed,
            job_count: plan.jobs.len(),
            shard: None,
            quick: false,
            inputs: Some(&plan.inputs),
        }
    }
}

/// How far an experiment's run has got, as its run.json records it.
#[derive(Clone, Copy, Debug)]
pub enum Spent {
    /// Going on.
    Running,
    /// Finished after this many seconds.
    Finished(f64),
    /// Going on, a job having just finished after this many seconds: what a run killed now
    /// would have spent up to its last finished job.
    SoFar(f64),
    /// Stopped by Ctrl-C after this many seconds.
    Interrupted(f64),
}

/// Writes run.json into `out` for the whole plan, or for one `shard` of it; `quick` if the
/// plan is [`Plan::quick`]'s; `commits` as [`commits_continuing`] gives them.
pub fn write_run_json(
    plan: &Plan,
    out: &Path,
    jobs: usize,
    spent: Spent,
    shard: Option<&ShardRecord>,
    quick: bool,
    commits: &str,
) -> Result<(), RunError> {
    let what = Described {
        shard,
        quick,
        ..Described::plan(plan)
    };
    let finished = match spent {
        Spent::Finished(s) => Some(s),
        _ => None,
    };
    let mut info = run_info(&what, jobs, finished);
    commits.clone_into(&mut info.git_commit);
    if let Spent::SoFar(s) | Spent::Interrupted(s) = spent {
        info.interrupted_after_s = Some(s);
    }
    write_info(&info, out)
}

/// The run.json of `what` run now on this machine with `jobs` worker threads.
#[must_use]
pub fn run_info(what: &Described<'_>, jobs: usize, elapsed_s: Option<f64>) -> RunInfo {
    RunInfo {
        experiment: what.name.to_owned(),
        file: what.file.display().to_string(),
        text: what.text.to_owned(),
        description: what.description.to_owned(),
        notes: what.notes.to_owned(),
        references: what.references.to_vec(),
        seed: what.seed,
        git_commit: git_commit(),
        crate_version: env!("CARGO_PKG_VERSION").into(),
        cpu_model: cpu_model(),
        cores: cores(),
        jobs,
        date: now_iso8601(),
        elapsed_s,
        interrupted_after_s: None,
        job_count: what.job_count,
        quick: what.quick,
        shard: what.shard.cloned(),
        merged_from: Vec::new(),
        cpu_s: None,
        inputs: what.inputs.cloned().unwrap_or_default(),
    }
}

/// Writes `info` as `out/run.json`, whole or not at all (through a temporary file renamed
/// over it: a run killed while writing leaves the earlier run.json).
pub fn write_info(info: &RunInfo, out: &Path) -> Result<(), RunError> {
    let path = out.join("run.json");
    let json = serde_json::to_string_pretty(info).expect("run info serializes");
    crate::output::replace_bytes(&path, (json + "\n").as_bytes())
        .map_err(|source| RunError::Io { path, source })
}

/// The run recorded in `out/run.json`, if any.
#[must_use]
pub fn recorded_run(out: &Path) -> Option<RunInfo> {
    read_recorded_run(out).ok().flatten()
}

/// [`recorded_run`], telling a missing run.json (`Ok(None)`) from one that does not read
/// (the reader's cause: line, column and what).
///
/// # Errors
/// run.json exists and cannot be read, or is not a run's record.
pub fn read_recorded_run(out: &Path) -> Result<Option<RunInfo>, String> {
    let json = match crate::input::read_text(&out.join("run.json"), crate::input::Cap::TEXT) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
        Ok(json) => json,
    };
    serde_json::from_str::<RunInfo>(&json)
        .map(Some)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_match_known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
    }
}
