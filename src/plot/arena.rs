//! The Elo chart of a match, from the arena's `standings.csv`.
//!
//! The arena writes one row per pairing (`kind` = `pairing`, seen from `player`'s side) and
//! one per player (`kind` = `player`, `opponent` empty), with the trinomial Elo difference
//! and its 95% interval (`elo`, `elo_lower`, `elo_upper`), the pentanomial ones when games
//! were played in pairs (`penta_elo`, `penta_elo_lower`, `penta_elo_upper`), and empty cells
//! where a value is undefined (the Elo of a 100% or 0% score is infinite).
//!
//! [`elo_charts`] draws `elo.png` / `elo.svg`: one point per pairing row at x = its place
//! in the legend (the convention of the test-set charts in [`super::sets`]), its whisker
//! the trinomial 95% interval (to the chart's edge on a side without a bound); the
//! pentanomial estimate and interval, if any, stand
//! [`PENTA_OFFSET`] to the right in the same colour; a thin line marks zero (equal strength).
//! Pairings without an Elo cannot be drawn and are named in the footer instead.

use std::path::{Path, PathBuf};

use super::Format;
use super::chart::{Chart, Point, Series, SeriesKind, YScale};
use super::data::{Cell, RunInfo, read_rows};
use super::error::PlotError;
use super::render::write_chart;

/// The name of the arena's standings file in a results directory.
pub const STANDINGS_CSV: &str = "standings.csv";

/// The file-name stem of the Elo chart.
pub const ELO_STEM: &str = "elo";

/// How far right of its trinomial point a pairing's pentanomial point stands (x units).
pub const PENTA_OFFSET: f64 = 0.25;

/// The columns the chart reads; other columns of `standings.csv` are ignored.
pub const STANDINGS_COLUMNS: [&str; 6] = [
    "kind",
    "player",
    "opponent",
    "elo",
    "elo_lower",
    "elo_upper",
];

/// The pentanomial columns, read when present.
pub const PENTA_COLUMNS: [&str; 3] = ["penta_elo", "penta_elo_lower", "penta_elo_upper"];

/// What a row of `standings.csv` is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandingKind {
    /// One player against one opponent, from the player's side.
    Pairing,
    /// One player against the whole field.
    Player,
}

/// An Elo difference with its 95% interval, where defined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The Elo difference (player minus opponent).
    pub elo: f64,
    /// Low and high ends of the 95% interval, if it was computed; an end without a bound
    /// is infinite.
    pub interval: Option<(f64, f64)>,
}

/// The chart's view of one row of `standings.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Pairing or player row.
    pub kind: StandingKind,
    /// The player.
    pub player: String,
    /// The opponent (empty for player rows).
    pub opponent: String,
    /// The trinomial estimate; `None` where the Elo is undefined.
    pub trinomial: Option<Estimate>,
    /// The pentanomial estimate; `None` where absent or undefined.
    pub pentanomial: Option<Estimate>,
}

impl Standing {
    /// `player vs opponent`, the pairing's legend label.
    #[must_use]
    pub fn label(&self) -> String {
        format!("{} vs {}", self.player, self.opponent)
    }
}

/// Reads `standings.csv`.
///
/// # Errors
/// [`PlotError::Io`], [`PlotError::Csv`], [`PlotError::MissingColumn`] or
/// [`PlotError::NoRows`] for the file; [`PlotError::BadNumber`] or [`PlotError::BadValue`]
/// (a `kind` other than `pairing` or `player`, an interval that does not hold its Elo)
/// with the line of the bad cell.
pub fn read_standings(path: &Path) -> Result<Vec<Standing>, PlotError> {
    read_rows(path, &STANDINGS_COLUMNS, &PENTA_COLUMNS, parse_standing)
}

fn parse_standing(cell: &Cell<'_>) -> Result<Standing, PlotError> {
    let kind = match cell.raw("kind") {
        "pairing" => StandingKind::Pairing,
        "player" => StandingKind::Player,
        _ => return Err(cell.bad_value("kind", "`pairing` or `player`")),
    };
    Ok(Standing {
        kind,
        player: cell.text("player"),
        opponent: cell.text("opponent"),
        trinomial: estimate(cell, ["elo", "elo_lower", "elo_upper"])?,
        pentanomial: estimate(cell, PENTA_COLUMNS)?,
    })
}

/// The estimate in the columns `[value, lower, upper]`, `None` if the value is empty.
fn estimate(
    cell: &Cell<'_>,
    [value, lower, upper]: [&str; 3],
) -> Result<Option<Estimate>, PlotError> {
    let (elo, lo, hi) = (
        cell.optional(value)?,
        cell.optional(lower)?,
        cell.optional(upper)?,
    );
    // An interval holds its estimate: one that does not is a damaged file.
    if let (Some(elo), Some(lo)) = (elo, lo)
        && lo > elo
    {
        return Err(cell.bad_value(lower, &format!("at most `{value}`, {elo}")));
    }
    if let (Some(elo), Some(hi)) = (elo, hi)
        && hi < elo
    {
        return Err(cell.bad_value(upper, &format!("at least `{value}`, {elo}")));
    }
    // One empty end beside a defined one: the interval has no bound on that side (a score
    // near 0% or 100% over few games); both empty: no interval was computed.
    let interval = (lo.is_some() || hi.is_some())
        .then(|| (lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY)));
    Ok(elo.map(|elo| Estimate { elo, interval }))
}

/// If `dir/standings.csv` exists, draws the Elo chart from it into `dir` in each of
/// `formats` and returns the files written; otherwise writes nothing.
///
/// # Errors
/// Any error of [`read_standings`], or [`PlotError::Draw`] / [`PlotError::Font`].
pub fn elo_charts(dir: &Path, formats: &[Format]) -> Result<Vec<PathBuf>, PlotError> {
    let csv = dir.join(STANDINGS_CSV);
    if !csv.exists() {
        return Ok(Vec::new());
    }
    elo_charts_from(&csv, dir, formats)
}

/// Draws the Elo chart of the standings file `csv` (and the `run.json` beside it, if any)
/// into `out_dir`, creating it if needed, in each of `formats`.
///
/// # Errors
/// As [`elo_charts`], and [`PlotError::Io`] if `out_dir` cannot be created.
pub fn elo_charts_from(
    csv: &Path,
    out_dir: &Path,
    formats: &[Format],
) -> Result<Vec<PathBuf>, PlotError> {
    let rows = read_standings(csv)?;
    let dir = csv.parent().unwrap_or_else(|| Path::new("."));
    let run = RunInfo::read(&dir.join("run.json"));
    let name = run.experiment.clone().unwrap_or_else(|| dir_name(dir));
    let (chart, undefined) = elo_chart(&name, &rows);
    let footer = elo_footer(&run, &undefined);
    std::fs::create_dir_all(out_dir).map_err(|e| PlotError::io(out_dir, e))?;
    let mut files = Vec::new();
    for format in super::distinct(formats) {
        let path = out_dir.join(format!("{}.{}", chart.stem, format.extension()));
        write_chart(&chart, &footer, &path, format)?;
        files.push(path);
    }
    Ok(files)
}

/// The chart of the pairing rows, and the labels of the pairings without an Elo.
#[must_use]
pub fn elo_chart(name: &str, rows: &[Standing]) -> (Chart, Vec<String>) {
    let pairings = rows.iter().filter(|r| r.kind == StandingKind::Pairing);
    let (drawn, undefined): (Vec<&Standing>, Vec<&Standing>) =
        pairings.partition(|r| r.trinomial.is_some());
    let mut series: Vec<Series> = drawn
        .iter()
        .enumerate()
        .map(|(i, r)| pairing_series(i, r))
        .collect();
    series.push(zero_line(drawn.len()));
    let penta = drawn.iter().any(|r| r.pentanomial.is_some());
    let unbounded = drawn
        .iter()
        .flat_map(|r| r.trinomial.iter().chain(r.pentanomial.iter()))
        .filter_map(|e| e.interval)
        .any(|(lo, hi)| lo.is_infinite() || hi.is_infinite());
    let mut x_label = String::from("pairing (legend order)");
    if penta {
        x_label.push_str("; right-hand bar: pentanomial");
    }
    if unbounded {
        x_label.push_str("; a bar to the edge: no bound that side");
    }
    let chart = Chart {
        stem: ELO_STEM.into(),
        group: "arena".into(),
        caption: "Elo difference per pairing".into(),
        title: format!("{name}: Elo difference per pairing, 95% intervals"),
        x_label,
        y_label: "Elo difference, player minus opponent".into(),
        y_scale: YScale::Linear { range: None },
        series,
    };
    (chart, undefined.iter().map(|r| r.label()).collect())
}

/// The points of the `i`-th drawn pairing: trinomial at `i + 1`, pentanomial offset.
fn pairing_series(i: usize, row: &Standing) -> Series {
    let x = i as f64 + 1.0;
    let point = |x: f64, e: &Estimate| Point {
        x,
        y: e.elo,
        spread: e.interval,
    };
    let points = row
        .trinomial
        .iter()
        .map(|e| point(x, e))
        .chain(row.pentanomial.iter().map(|e| point(x + PENTA_OFFSET, e)))
        .collect();
    Series {
        label: row.label(),
        kind: SeriesKind::Points,
        slot: i,
        points,
    }
}

/// A thin line at zero across all `n` pairings, half a place beyond the first and last.
fn zero_line(n: usize) -> Series {
    let right = n.max(1) as f64 + 0.5;
    Series {
        label: "0 = equal strength".into(),
        kind: SeriesKind::Reference,
        slot: 0,
        points: vec![Point::new(0.5, 0.0), Point::new(right, 0.0)],
    }
}

/// The machine summary, the data file, and the pairings that could not be drawn.
fn elo_footer(run: &RunInfo, undefined: &[String]) -> String {
    let mut footer = format!("{}  ·  data: {STANDINGS_CSV}", run.footer());
    if !undefined.is_empty() {
        footer.push_str(&format!(
            "  ·  no Elo (undefined, e.g. at a 0% or 100% score): {}",
            undefined.join(", ")
        ));
    }
    footer
}

fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map_or_else(|| "arena".to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(player: &str, tri: Option<f64>, penta: Option<f64>) -> Standing {
        let est = |elo: f64| Estimate {
            elo,
            interval: Some((elo - 50.0, elo + 50.0)),
        };
        Standing {
            kind: StandingKind::Pairing,
            player: player.into(),
            opponent: "base".into(),
            trinomial: tri.map(est),
            pentanomial: penta.map(est),
        }
    }

    #[test]
    fn one_points_series_per_drawn_pairing_then_the_zero_line() {
        let mut player = pairing("all", Some(10.0), None);
        player.kind = StandingKind::Player;
        let rows = [
            pairing("a", Some(20.0), Some(25.0)),
            pairing("perfect", None, None),
            player,
            pairing("b", Some(-30.0), None),
        ];
        let (chart, undefined) = elo_chart("m", &rows);
        assert_eq!(undefined, ["perfect vs base"]);
        let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["a vs base", "b vs base", "0 = equal strength"]);
        let a = &chart.series[0];
        assert_eq!(a.kind, SeriesKind::Points);
        assert_eq!(a.points.len(), 2);
        assert_eq!(
            (a.points[0].x, a.points[0].spread),
            (1.0, Some((-30.0, 70.0)))
        );
        assert_eq!((a.points[1].x, a.points[1].y), (1.0 + PENTA_OFFSET, 25.0));
        assert_eq!(
            (chart.series[1].points[0].x, chart.series[1].slot),
            (2.0, 1)
        );
        assert!(chart.series[2].points.iter().all(|p| p.y == 0.0));
        assert!(chart.x_label.contains("pentanomial"));
    }
}
