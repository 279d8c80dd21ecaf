//! A match's standings.csv and summary.md written again from its games.csv and run.json,
//! without playing a game: what `plylab plot` does for an arena directory before it draws
//! the charts, so that a summary follows the code that writes it (as `plot` redraws an
//! experiment's summary from searches.csv). The machine facts come from run.json, as they
//! did when the match was played: the machine that played, not the one redrawing (a run.json
//! written before it recorded the match's CPU time leaves that sentence out).

use std::path::{Path, PathBuf};

use super::run::{LeftOut, read_games};
use super::spec::{self, MatchPlan};
use super::standings::{standings, write_csv};
use super::summary;
use crate::lab::error::{RunError, csv_err, io};
use crate::lab::machine::{RunInfo, recorded_run};

/// Whether `dir` holds a match's results (a games.csv, plain or compressed).
#[must_use]
pub fn is_match_dir(dir: &Path) -> bool {
    crate::compressed::exists(&dir.join("games.csv"))
}

/// Rewrites `dir/standings.csv` and `dir/summary.md` from `dir/games.csv` and the match that
/// `dir/run.json` records; returns the files written.
///
/// # Errors
/// [`RunError::Refused`] when run.json is missing or unreadable, its match no longer
/// parses (an openings file moved, say), or games.csv holds no game of it;
/// [`RunError::Io`] or [`RunError::Csv`] when a file cannot be read or written.
pub fn redraw(dir: &Path) -> Result<Vec<PathBuf>, RunError> {
    let json = dir.join("run.json");
    let info = recorded_run(dir)
        .ok_or_else(|| RunError::Refused(format!("{}: missing or unreadable", json.display())))?;
    let plan = recorded_plan(&info, &json)?;
    let games = dir.join("games.csv");
    let (mut rows, left_out) = read_games(&plan, &games)?;
    if rows.is_empty() {
        return Err(RunError::Refused(format!(
            "{}: no game of the match that {} records{}",
            games.display(),
            json.display(),
            describe(&left_out).map_or_else(String::new, |rows| format!(" ({rows})")),
        )));
    }
    if let Some(rows) = describe(&left_out) {
        // Standings from fewer games than the file holds: say so rather than drop them quietly.
        crate::tell!(
            "warning: {}: {rows}; the match is the one {} records",
            games.display(),
            json.display()
        );
    }
    rows.sort_by_key(|r| r.game);
    let table = standings(&plan, &rows);
    let standings_csv = dir.join("standings.csv");
    write_csv(&standings_csv, &table).map_err(csv_err(&standings_csv))?;
    let summary_md = dir.join("summary.md");
    summary::write(&plan, dir, &rows, &table, &info).map_err(io(&summary_md))?;
    Ok(vec![standings_csv, summary_md])
}

/// The rows left out of games.csv, the first five named with their lines and reasons;
/// `None` when none was.
pub(crate) fn describe(left_out: &[LeftOut]) -> Option<String> {
    if left_out.is_empty() {
        return None;
    }
    let rows: Vec<String> = left_out
        .iter()
        .map(|(line, why)| format!("line {line} ({why})"))
        .collect();
    Some(format!(
        "{} rows left out, {}",
        left_out.len(),
        crate::lab::diagnose::first_few(&rows, 5, ", ")
    ))
}

/// The match `info` records, parsed again from its text (files it names are found from the
/// experiment file's recorded path: [`RunInfo::experiment_path`]); the reduced plan of a
/// `--quick` run.
fn recorded_plan(info: &RunInfo, json: &Path) -> Result<MatchPlan, RunError> {
    if !spec::is_arena(&info.text) {
        return Err(RunError::Refused(format!(
            "{}: records an experiment, not a match",
            json.display()
        )));
    }
    let dir = json.parent().unwrap_or(Path::new("."));
    let plan = spec::parse(&info.experiment_path(dir), &info.text)
        .map_err(|e| RunError::Refused(format!("{}: the match it records: {e}", json.display())))?;
    let quick = info.quick || info.shard.as_ref().is_some_and(|s| s.quick);
    Ok(if quick { plan.quick() } else { plan })
}
