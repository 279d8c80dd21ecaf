//! Experiments: files in, jobs run, records out.
//!
//! - [`spec`]: an experiment file (TOML) to a validated [`spec::Plan`];
//! - [`sweep`]: fields that take one value or a list to try each;
//! - [`runner`]: jobs on a thread pool, searches.csv written as jobs finish;
//! - [`error`]: what goes wrong while a run runs ([`error::RunError`]);
//! - [`record`]: the CSV rows (searches.csv, searchers.csv);
//! - [`guard`]: results directories that refuse to mix runs, and `--resume` by job identity;
//! - [`machine`]: run.json (experiment text, commit, machine, date);
//! - [`shards`]: run.json's records of a shard's run and of a merge's parts;
//! - [`test_set`]: positions with known answers; [`suite`] runs them, [`suite_csv`] keeps
//!   their rows.

pub mod answer;
pub mod bench;
pub mod diagnose;
pub mod elo;
pub mod epd;
pub mod error;
pub mod guard;
pub mod machine;
pub mod perft;
pub mod record;
pub mod runner;
pub mod settings;
pub mod shards;
pub mod spec;
pub mod suite;
pub mod suite_csv;
pub mod sweep;
pub mod test_set;
