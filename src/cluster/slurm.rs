//! `plylab slurm`: the sbatch script that runs an experiment (or match) as a Slurm job array,
//! one shard per array task, and then merges the shards in a job that depends on the whole
//! array (`--dependency=afterok:<array job id>`).
//!
//! Each task gets `--cpus-per-task` cores, the widest job's threads, and runs its jobs one
//! at a time (`--jobs 1`), so that jobs which measure time run alone on their cores. The
//! first task submits the merge job (unless the one it recorded in `logs/merge.jobid` is
//! still queued, as when the task is requeued).
//! The option names are sbatch's own (Slurm's sbatch(1) manual page).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the script needs to know of the plan: its name, its widest job's threads, and how
/// many units sharding deals out (jobs, or a match's pairing rounds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanFacts {
    /// The experiment's name.
    pub name: String,
    /// The most threads of any job (or player).
    pub widest: usize,
    /// Jobs, or a match's pairing rounds.
    pub units: usize,
}

/// Reads the experiment or arena `file` for [`PlanFacts`].
///
/// # Errors
/// The file's [`crate::lab::spec::SpecError`].
pub fn plan_facts(file: &Path) -> Result<PlanFacts, crate::lab::spec::SpecError> {
    let text = crate::lab::spec::read_file(file)?;
    if crate::arena::spec::is_arena(&text) {
        let plan = crate::arena::spec::parse(file, &text)?;
        return Ok(PlanFacts {
            widest: plan.players.iter().map(|p| p.threads()).max().unwrap_or(1),
            units: plan.pairings.len() * (plan.games_per_pairing / plan.legs()) as usize,
            name: plan.name,
        });
    }
    let plan = crate::lab::spec::parse(file, &text)?;
    Ok(PlanFacts {
        widest: plan
            .jobs
            .iter()
            .map(|j| j.searcher.config.threads)
            .max()
            .unwrap_or(1),
        units: plan.jobs.len(),
        name: plan.name,
    })
}

/// Everything the script needs.
#[derive(Clone, Debug)]
pub struct SlurmJob {
    /// The experiment's name (names the Slurm jobs).
    pub name: String,
    /// The experiment or arena file, as the tasks will open it.
    pub file: PathBuf,
    /// Array tasks: shards.
    pub tasks: usize,
    /// Most tasks running at once (`%K`), if limited.
    pub throttle: Option<usize>,
    /// Cores per task: the widest job's threads.
    pub cpus_per_task: usize,
    /// Time limit per task, in a form sbatch accepts.
    pub time: Option<String>,
    /// Partition.
    pub partition: Option<String>,
    /// Account.
    pub account: Option<String>,
    /// The merged results directory; shards go to `out/shards/I`, logs to `out/logs`.
    pub out: PathBuf,
    /// The plylab binary the tasks run.
    pub binary: PathBuf,
}

/// A flag value sbatch would not accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad --{flag} `{value}`: {why}")]
pub struct SlurmError {
    /// The flag.
    pub flag: &'static str,
    /// Its value.
    pub value: String,
    /// What is wrong.
    pub why: String,
}

/// Checks a time limit in one of sbatch's forms: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`,
/// `D-H:M:S`. The leading field may be any number; the minutes and seconds after it are
/// below 60, and the hours after days below 24.
pub fn check_time(time: &str) -> Result<(), SlurmError> {
    let bad = || SlurmError {
        flag: "time",
        value: time.to_owned(),
        why: "use minutes, MM:SS, HH:MM:SS or D-HH[:MM[:SS]] (sbatch's forms; minutes and \
              seconds below 60, hours after days below 24)"
            .into(),
    };
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    let (days, clock) = match time.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, time),
    };
    let parts: Option<Vec<u64>> = clock.split(':').map(number).collect();
    let Some(parts) = parts.filter(|p| p.len() <= 3) else {
        return Err(bad());
    };
    // With days the first clock field is hours; without, the first is unbounded.
    let bounded = if days.is_some() {
        &parts[..]
    } else {
        &parts[1..]
    };
    let limit = |i: usize| if days.is_some() && i == 0 { 24 } else { 60 };
    let ok = days.is_none_or(|d| number(d).is_some())
        && bounded.iter().enumerate().all(|(i, &v)| v < limit(i));
    if ok { Ok(()) } else { Err(bad()) }
}

/// Checks a path that goes into an `#SBATCH` line, which sbatch reads without a shell:
/// no quoting can protect white space, quotes or a backslash there, and `%` starts one of
/// its file-name patterns.
pub fn check_directive_path(flag: &'static str, path: &Path) -> Result<(), SlurmError> {
    let text = path.display().to_string();
    let ok = !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "\"'\\%".contains(c));
    if ok {
        Ok(())
    } else {
        Err(SlurmError {
            flag,
            value: text,
            why: "sbatch's #SBATCH lines take no spaces, quotes, backslashes or `%` in a path"
                .into(),
        })
    }
}

/// Checks a partition or account name (`flag` is `partition` or `account`): letters, digits,
/// `_`, `-`, `.`, and `,` between partitions.
pub fn check_name(flag: &'static str, value: &str) -> Result<(), SlurmError> {
    let partitions = flag == "partition";
    let allowed = if partitions { "_-.," } else { "_-." };
    let ok = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || allowed.contains(c));
    if ok {
        Ok(())
    } else {
        let comma = if partitions {
            " (`,` between partitions)"
        } else {
            ""
        };
        Err(SlurmError {
            flag,
            value: value.to_owned(),
            why: format!("use letters, digits, `_`, `-`, `.`{comma}"),
        })
    }
}

/// `text` as one single-quoted shell word.
#[must_use]
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn quote_path(path: &Path) -> String {
    shell_quote(&path.display().to_string())
}

/// The sbatch options both the array and the merge job take (time, partition, account).
fn common_options(job: &SlurmJob) -> Vec<String> {
    let mut options = Vec::new();
    if let Some(t) = &job.time {
        options.push(format!("--time={t}"));
    }
    if let Some(p) = &job.partition {
        options.push(format!("--partition={p}"));
    }
    if let Some(a) = &job.account {
        options.push(format!("--account={a}"));
    }
    options
}

/// The sbatch script.
#[must_use]
pub fn script(job: &SlurmJob) -> String {
    let mut s = String::new();
    let out = &job.out;
    let logs = out.join("logs");
    let last = job.tasks - 1;
    let throttle = job.throttle.map_or(String::new(), |k| format!("%{k}"));
    let _ = writeln!(s, "#!/bin/bash");
    let _ = writeln!(
        s,
        "# plylab {}: `{}` as a Slurm job array of {} shards, then their merge.",
        env!("CARGO_PKG_VERSION"),
        job.name,
        job.tasks
    );
    let _ = writeln!(
        s,
        "# Submit from the directory it was written in (paths are relative to it):\n\
         #     sbatch <this file>\n\
         # Each task runs one shard alone on its cores, one job at a time (--jobs 1), resuming\n\
         # if requeued; task 0 submits the merge job, which waits for every task to succeed\n\
         # (--dependency=afterok on the array) and writes {}.",
        out.display()
    );
    let mut directives = vec![
        format!("--job-name=plylab-{}", job.name),
        format!("--array=0-{last}{throttle}"),
        "--ntasks=1".to_owned(),
        format!("--cpus-per-task={}", job.cpus_per_task),
    ];
    directives.extend(common_options(job));
    directives.push(format!("--output={}/shard-%a.out", logs.display()));
    for d in &directives {
        let _ = writeln!(s, "#SBATCH {d}");
    }
    let merge_options: Vec<String> = [
        format!("--job-name=plylab-{}-merge", job.name),
        "--ntasks=1".to_owned(),
        "--cpus-per-task=1".to_owned(),
        "--kill-on-invalid-dep=yes".to_owned(),
    ]
    .into_iter()
    .chain(common_options(job))
    .collect();
    // --force: the merge job owns OUT, and a requeued one replaces what it began to write.
    let merge_command = format!(
        "exec {} merge {}/shards/* --out {} --force",
        quote_path(&job.binary),
        quote_path(out),
        quote_path(out)
    );
    let _ = write!(
        s,
        r#"set -euo pipefail

plylab={binary}
file={file}
out={out}
tasks={tasks}

if [ -z "${{SLURM_ARRAY_TASK_ID:-}}" ]; then
    echo "submit this script with sbatch: it runs as a Slurm job array" >&2
    exit 2
fi
shard=$((SLURM_ARRAY_TASK_ID + 1))
# Task 0 submits the merge job, unless one it submitted earlier is still queued.
merge_queued() {{
    [ -s "$out/logs/merge.jobid" ] \
        && squeue -h -j "$(cat "$out/logs/merge.jobid")" 2>/dev/null | grep -q .
}}
if [ "$SLURM_ARRAY_TASK_ID" -eq 0 ] && ! merge_queued; then
    sbatch --parsable {merge_options} \
        --dependency="afterok:$SLURM_ARRAY_JOB_ID" \
        --output="$out/logs/merge.out" \
        --wrap={wrap} > "$out/logs/merge.jobid"
fi
exec "$plylab" experiment "$file" --shard "$shard/$tasks" --jobs 1 --no-plot --resume \
    --out "$out/shards/$shard"
"#,
        binary = quote_path(&job.binary),
        file = quote_path(&job.file),
        out = quote_path(out),
        tasks = job.tasks,
        merge_options = merge_options.join(" "),
        wrap = shell_quote(&merge_command),
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_in_sbatch_forms_pass() {
        for ok in ["30", "30:00", "01:00:00", "2-0", "2-12:00", "2-12:00:00"] {
            assert!(check_time(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "1h",
            "1:2:3:4",
            "-1",
            "a-1",
            "1:",
            "01:00:00 x",
            "99:99:99",
            "1:60",
        ] {
            assert!(check_time(bad).is_err(), "{bad}");
        }
        for bad in ["1-24", "1-23:60", "1-0:0:60"] {
            assert!(check_time(bad).is_err(), "{bad}");
        }
        assert!(check_time("100:59:59").is_ok(), "hours alone are unbounded");
    }

    #[test]
    fn directive_paths_refuse_what_sbatch_cannot_read() {
        assert!(check_directive_path("out", Path::new("results/x_1.2-b")).is_ok());
        for bad in ["a b", "a\nb", "it's", "a\"b", "a%j", "a\\b", ""] {
            assert!(
                check_directive_path("out", Path::new(bad)).is_err(),
                "{bad}"
            );
        }
    }

    /// sbatch(1): `--partition` takes a comma-separated list of partitions, `--account` one
    /// account; the doc comment of `check_name` allows `,` between partitions only.
    #[test]
    fn partitions_may_be_a_list_and_an_account_may_not() {
        assert!(check_name("partition", "gpu,debug").is_ok());
        assert!(check_name("account", "lab_1.x-y").is_ok());
        let e = check_name("account", "a,b").expect_err("a list of accounts");
        assert_eq!(e.flag, "account");
        assert!(!e.why.contains("between partitions"), "{e}");
    }

    /// sbatch's time fields are digits: a sign that Rust's integer parser would take is no
    /// part of `M`, `M:S` or `D-H`.
    #[test]
    fn a_signed_time_is_refused() {
        for bad in ["+30", "30:+5", "+1-0", "1-+5", "1:2:+3"] {
            assert!(check_time(bad).is_err(), "{bad}");
        }
    }

    /// An empty partition or account is no name (`--partition=` would be an empty
    /// directive), and a control character (an escape, say) is no part of a path sbatch
    /// reads from an `#SBATCH` line.
    #[test]
    fn empty_names_and_control_characters_are_refused() {
        for flag in ["partition", "account"] {
            assert!(check_name(flag, "").is_err(), "{flag}");
        }
        assert!(check_directive_path("out", Path::new("a\u{1b}b")).is_err());
    }

    #[test]
    fn quoting_survives_single_quotes() {
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
