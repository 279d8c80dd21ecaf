//! Beyond one machine: experiments and matches split into shards, run anywhere, merged
//! back into one results directory.
//!
//! - [`shard`]: which jobs (or games) shard `I/N` holds, a pure function of the validated
//!   plan and `N`, balanced by a cost estimate;
//! - [`merge`]: one results directory from shard directories, a pure function of them;
//! - [`slurm`]: the sbatch script that runs the shards as a job array and then the merge.
//!
//! Slurm only submits: a shard is an ordinary `plylab experiment --shard I/N` run.

pub mod merge;
pub mod shard;
pub mod slurm;
