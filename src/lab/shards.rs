//! What run.json records of sharded runs: the part `I/N` a run held, the jobs (or games)
//! in it, and, in a merged run, the shards' runs it was made from.
//!
//! These are records, read and written by the runners here and by the arena;
//! [`crate::cluster::shard`] deals the jobs out ([`ShardRecord::of_plan`],
//! [`ShardRecord::of_match`]) and [`crate::cluster::merge`] joins the parts.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One part `index`/`count` (1-based) of a job list split `count` ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, from 1.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

/// A shard written wrongly on the command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad shard `{text}`: {why} (write I/N with 1 <= I <= N, e.g. 3/64)")]
pub struct ShardError {
    /// What was written.
    pub text: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Self, ShardError> {
        let bad = |why| ShardError {
            text: text.to_owned(),
            why,
        };
        let (i, n) = text.split_once('/').ok_or_else(|| bad("no `/`"))?;
        let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad("not a number"));
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad("I must be between 1 and N"));
        }
        Ok(Self { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What run.json records of a shard's run: enough for `plylab merge` to check coverage and
/// to link parallel jobs with their one-thread twins in other shards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// Which part, from 1.
    pub index: usize,
    /// How many parts.
    pub count: usize,
    /// Whether the plan was the reduced `--quick` one.
    pub quick: bool,
    /// The ids of the jobs (or arena games) this shard holds, ascending.
    pub jobs: Vec<usize>,
    /// `[job, its one-thread twin]` for the jobs here that have one (see `Job::baseline`).
    pub baselines: Vec<[usize; 2]>,
}

impl ShardRecord {
    /// The shard, without its job list.
    #[must_use]
    pub fn shard(&self) -> Shard {
        Shard {
            index: self.index,
            count: self.count,
        }
    }

    /// Whether job (or game) `id` is in this shard.
    #[must_use]
    pub fn holds(&self, id: usize) -> bool {
        self.jobs.binary_search(&id).is_ok()
    }
}

/// What merged run.json records of each shard's run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardRun {
    /// The shard, `I/N`.
    pub shard: String,
    /// Its results directory as given to `plylab merge`.
    pub dir: String,
    /// Jobs (or games) it held.
    pub job_count: usize,
    /// The CPU it ran on.
    pub cpu_model: String,
    /// Cores of that machine.
    pub cores: usize,
    /// Worker threads.
    pub jobs: usize,
    /// When it ended.
    pub date: String,
    /// Its wall-clock seconds.
    pub elapsed_s: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_print() {
        let s: Shard = "3/64".parse().expect("valid");
        assert_eq!(
            s,
            Shard {
                index: 3,
                count: 64
            }
        );
        assert_eq!(s.to_string(), "3/64");
        for bad in ["0/4", "5/4", "1/0", "x", "1/", "/4", "a/b", "-1/4", "1/4/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad} accepted");
        }
    }

    /// `N` of `I/N` is told wrong as such, not as an index out of range.
    #[test]
    fn a_shard_count_of_zero_is_told_as_such() {
        let e = "1/0".parse::<Shard>().expect_err("no shards");
        assert_eq!(e.why, "N must be at least 1");
        let e = "4/3".parse::<Shard>().expect_err("past the last shard");
        assert_eq!(e.why, "I must be between 1 and N");
        assert!("3/3".parse::<Shard>().is_ok(), "the last shard");
    }
}
