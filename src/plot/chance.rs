//! Charts and tables of games with chance: what Ballard's *-minimax pruning saves against
//! expectiminimax (experiments/chance.toml), and points per game of a backgammon match.
//!
//! **Savings.** From searches.csv (its `algorithm` column): for each game and depth, the
//! nodes of every searcher summed over the instances (position, seed, repetition) that the
//! expectiminimax searcher also searched to that depth, and the saving
//! `1 - nodes / expectiminimax's nodes`. Written as savings.csv, drawn as
//! `savings_<game>.png` (savings in percent against depth, one line per searcher, Ballard's
//! 1983 figures as reference lines: Star1 25%, Star2 50%), and appended to summary.md as a
//! table. Nothing is written for an experiment without an expectiminimax searcher.
//!
//! **Points.** From an arena's points.csv ([`crate::arena::chance`]): `points.png`, the
//! points per game of each pairing with its 95% interval.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::Format;
use super::chart::{Chart, Point, Series, SeriesKind, YScale};
use super::data::{Cell, RunInfo, SEARCHERS_CSV, read_rows};
use super::error::PlotError;
use super::model::Dataset;
use super::render::write_chart;

/// The savings of one searcher at one depth of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Saving {
    /// The game (`chance_tree`, `backgammon`).
    pub game: String,
    /// The depth, chance levels included.
    pub depth: u32,
    /// The searcher's label.
    pub searcher: String,
    /// Its algorithm.
    pub algorithm: String,
    /// Instances summed.
    pub instances: usize,
    /// Its nodes, summed.
    pub nodes: f64,
    /// Expectiminimax's nodes on the same instances.
    pub reference_nodes: f64,
}

impl Saving {
    /// `1 - nodes / reference_nodes` (negative when the searcher visits more nodes).
    #[must_use]
    pub fn saving(&self) -> f64 {
        1.0 - self.nodes / self.reference_nodes
    }
}

/// One row of searches.csv as the savings read it.
struct Row {
    game: String,
    instance: String,
    searcher: String,
    algorithm: String,
    depth: u32,
    nodes: f64,
}

const COLUMNS: [&str; 7] = [
    "game",
    "position",
    "seed",
    "repetition",
    "searcher",
    "depth",
    "nodes",
];

/// A searcher's algorithm: on every row in older files, else once in searchers.csv.
const OPTIONAL: [&str; 1] = ["algorithm"];

/// searchers.csv's columns read here.
const SEARCHER_COLUMNS: [&str; 2] = ["searcher", "algorithm"];

fn parse_row(cell: &Cell<'_>) -> Result<Row, PlotError> {
    Ok(Row {
        game: cell.text("game"),
        instance: format!(
            "{}|{}|{}",
            cell.raw("position"),
            cell.raw("seed"),
            cell.raw("repetition")
        ),
        searcher: cell.text("searcher"),
        algorithm: cell.text("algorithm"),
        depth: cell.depth()?,
        nodes: cell.count("nodes")?,
    })
}

/// The savings against expectiminimax in `csv`, by game (in file order), depth and searcher
/// (in file order); empty when no searcher's algorithm (searches.csv's `algorithm` column or
/// searchers.csv's) is expectiminimax.
///
/// # Errors
/// As `read_rows` for a file that has the columns but unreadable numbers.
pub fn savings(csv: &Path) -> Result<Vec<Saving>, PlotError> {
    let mut rows = match read_rows(csv, &COLUMNS, &OPTIONAL, parse_row) {
        Ok(rows) => rows,
        Err(PlotError::MissingColumn { .. }) => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let searchers = csv.with_file_name(SEARCHERS_CSV);
    if rows.iter().any(|r| r.algorithm.is_empty()) && searchers.exists() {
        let algorithms = read_rows(&searchers, &SEARCHER_COLUMNS, &[], |cell| {
            Ok((cell.text("searcher"), cell.text("algorithm")))
        })?;
        for row in rows.iter_mut().filter(|r| r.algorithm.is_empty()) {
            if let Some((_, algorithm)) = algorithms.iter().find(|(s, _)| *s == row.searcher) {
                row.algorithm.clone_from(algorithm);
            }
        }
    }
    // (game, instance, depth) -> expectiminimax's nodes.
    let mut reference: BTreeMap<(&str, &str, u32), f64> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.algorithm == "expectiminimax") {
        reference.insert((&r.game, &r.instance, r.depth), r.nodes);
    }
    let mut order: Vec<(&str, u32, &str)> = Vec::new();
    let mut sums: BTreeMap<(&str, u32, &str), Saving> = BTreeMap::new();
    for r in &rows {
        let Some(&reference_nodes) =
            reference.get(&(r.game.as_str(), r.instance.as_str(), r.depth))
        else {
            continue;
        };
        let key = (r.game.as_str(), r.depth, r.searcher.as_str());
        let s = sums.entry(key).or_insert_with(|| {
            order.push(key);
            Saving {
                game: r.game.clone(),
                depth: r.depth,
                searcher: r.searcher.clone(),
                algorithm: r.algorithm.clone(),
                instances: 0,
                nodes: 0.0,
                reference_nodes: 0.0,
            }
        });
        s.instances += 1;
        s.nodes += r.nodes;
        s.reference_nodes += reference_nodes;
    }
    // Games in file order, then depth, then searchers in file order.
    let games = distinct(order.iter().map(|k| k.0));
    let mut keys = order.clone();
    let searcher_rank = |s: &str| order.iter().position(|k| k.2 == s).unwrap_or(usize::MAX);
    let game_rank = |g: &str| games.iter().position(|x| *x == g).unwrap_or(usize::MAX);
    keys.sort_by_key(|k| (game_rank(k.0), k.1, searcher_rank(k.2)));
    Ok(keys.iter().filter_map(|k| sums.remove(k)).collect())
}

/// Writes savings.csv, the savings charts and the savings table (appended to summary.md)
/// for the experiment of `data` into `out_dir`; returns the files written (none when the
/// experiment has no expectiminimax searcher).
///
/// # Errors
/// As [`savings`], and [`PlotError::Io`], [`PlotError::Draw`] or [`PlotError::Font`] for
/// files that cannot be written.
pub fn savings_files(
    data: &Dataset,
    out_dir: &Path,
    formats: &[Format],
    footer: &str,
) -> Result<Vec<PathBuf>, PlotError> {
    let all = savings(&data.source)?;
    if all.is_empty() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    let csv_path = out_dir.join("savings.csv");
    let mut text = String::from(
        "game,depth,searcher,algorithm,instances,nodes,expectiminimax_nodes,savings\n",
    );
    for s in &all {
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{},{:.4}",
            s.game,
            s.depth,
            s.searcher,
            s.algorithm,
            s.instances,
            s.nodes,
            s.reference_nodes,
            s.saving()
        );
    }
    crate::output::replace_bytes(&csv_path, text.as_bytes())
        .map_err(|e| PlotError::io(&csv_path, e))?;
    files.push(csv_path);
    let mut md = String::from(
        "\n## Savings against expectiminimax\n\n1 − nodes / expectiminimax's nodes at the same \
         depth, summed over the instances both searched (savings.csv; negative: more nodes). \
         Ballard (1983) reports 25–30% for Star1, over 50% for Star2 with random ordering, \
         about an order of magnitude (90%) with good ordering.\n\n",
    );
    for game in distinct(all.iter().map(|s| s.game.as_str())) {
        let rows: Vec<&Saving> = all.iter().filter(|s| s.game == game).collect();
        let chart = savings_chart(&data.experiment, game, &rows);
        for &format in formats {
            let path = out_dir.join(format!("{}.{}", chart.stem, format.extension()));
            write_chart(&chart, footer, &path, format)?;
            files.push(path);
        }
        let _ = writeln!(md, "### {game}\n");
        md.push_str(
            "| depth | searcher | algorithm | instances | nodes | expectiminimax | saving |\n",
        );
        md.push_str("|---:|---|---|---:|---:|---:|---:|\n");
        for s in rows.iter().filter(|s| s.algorithm != "expectiminimax") {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {:.1}% |",
                s.depth,
                s.searcher,
                s.algorithm,
                s.instances,
                s.nodes,
                s.reference_nodes,
                100.0 * s.saving()
            );
        }
        if let Some(format) = formats.first() {
            let _ = writeln!(
                md,
                "\n![savings against expectiminimax, {game}]({}.{})\n",
                chart.stem,
                format.extension()
            );
        }
    }
    let summary = out_dir.join(super::SUMMARY_MD);
    if summary.exists() {
        let mut text = crate::input::read_text(&summary, crate::input::Cap::TEXT)
            .map_err(|e| PlotError::io(&summary, e))?;
        text.push_str(&md);
        crate::output::replace_bytes(&summary, text.as_bytes())
            .map_err(|e| PlotError::io(&summary, e))?;
    }
    Ok(files)
}

/// The distinct items, in the order of their first appearance.
fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// Savings in percent against depth for one game: a line per searcher other than
/// expectiminimax, Ballard's figures as reference lines.
#[must_use]
pub fn savings_chart(experiment: &str, game: &str, rows: &[&Saving]) -> Chart {
    let searchers = distinct(
        rows.iter()
            .filter(|s| s.algorithm != "expectiminimax")
            .map(|s| s.searcher.as_str()),
    );
    let mut series: Vec<Series> = searchers
        .iter()
        .enumerate()
        .map(|(slot, name)| Series {
            label: (*name).to_owned(),
            kind: SeriesKind::Measured,
            slot,
            points: rows
                .iter()
                .filter(|s| s.searcher == *name)
                .map(|s| Point::new(f64::from(s.depth), 100.0 * s.saving()))
                .collect(),
        })
        .collect();
    let depths = rows.iter().map(|s| f64::from(s.depth));
    let (lo, hi) = depths.fold((f64::MAX, f64::MIN), |(a, b), d| (a.min(d), b.max(d)));
    for (slot, (label, y)) in [
        ("0 = no saving", 0.0),
        ("Ballard 1983: Star1, 25%", 25.0),
        ("Ballard 1983: Star2, 50%", 50.0),
    ]
    .into_iter()
    .enumerate()
    {
        series.push(Series {
            label: label.into(),
            kind: SeriesKind::Reference,
            slot,
            points: vec![Point::new(lo, y), Point::new(hi, y)],
        });
    }
    Chart {
        stem: format!("savings_{game}"),
        group: game.to_owned(),
        caption: "savings against expectiminimax".into(),
        title: format!("{experiment}: node savings against expectiminimax, {game}"),
        x_label: "depth (plies, chance levels included)".into(),
        y_label: "saving, % of expectiminimax's nodes".into(),
        y_scale: YScale::Linear { range: None },
        series,
    }
}

/// A cell that must hold a number.
fn number(cell: &Cell<'_>, column: &str) -> Result<f64, PlotError> {
    cell.optional(column)?
        .ok_or_else(|| cell.bad_value(column, "a number"))
}

/// One pairing of points.csv.
struct PointsRow {
    label: String,
    ppg: f64,
    interval: Option<(f64, f64)>,
}

fn parse_points(cell: &Cell<'_>) -> Result<PointsRow, PlotError> {
    let ppg = number(cell, "points_per_game")?;
    let (lo, hi) = (cell.optional("ppg_lower")?, cell.optional("ppg_upper")?);
    // An interval holds its estimate (as the Elo's, plot/arena.rs): one that does not is a
    // damaged file, and would be drawn as a bar beside its point.
    if lo.is_some_and(|lo| lo > ppg) {
        return Err(cell.bad_value("ppg_lower", &format!("at most `points_per_game`, {ppg}")));
    }
    if hi.is_some_and(|hi| hi < ppg) {
        return Err(cell.bad_value("ppg_upper", &format!("at least `points_per_game`, {ppg}")));
    }
    Ok(PointsRow {
        label: format!("{} vs {}", cell.raw("player"), cell.raw("opponent")),
        ppg,
        interval: lo.zip(hi),
    })
}

/// If `dir/points.csv` exists (an arena of a game with chance), draws `points.png` /
/// `points.svg` from it into `dir`: the points per game of each pairing with its 95%
/// interval; returns the files written.
///
/// # Errors
/// As `read_rows` for points.csv, and the drawing errors.
pub fn points_charts(dir: &Path, formats: &[Format]) -> Result<Vec<PathBuf>, PlotError> {
    let csv = dir.join("points.csv");
    if !csv.exists() {
        return Ok(Vec::new());
    }
    let rows = read_points(&csv)?;
    let run = RunInfo::read(&dir.join("run.json"));
    let name = run.experiment.clone().unwrap_or_else(|| "arena".into());
    let chart = points_chart(&name, &rows);
    let footer = format!("{}  ·  data: points.csv", run.footer());
    let mut files = Vec::new();
    for &format in formats {
        let path = dir.join(format!("points.{}", format.extension()));
        write_chart(&chart, &footer, &path, format)?;
        files.push(path);
    }
    Ok(files)
}

/// The pairings of the points file `csv`, in file order.
fn read_points(csv: &Path) -> Result<Vec<PointsRow>, PlotError> {
    read_rows(
        csv,
        &["player", "opponent", "points_per_game"],
        &["ppg_lower", "ppg_upper"],
        parse_points,
    )
}

/// The points per game of each pairing at x = its place in the legend, its whisker the
/// 95% interval where both ends are known, and a line at zero (even) across them.
fn points_chart(name: &str, rows: &[PointsRow]) -> Chart {
    let mut series: Vec<Series> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| Series {
            label: r.label.clone(),
            kind: SeriesKind::Points,
            slot: i,
            points: vec![Point {
                x: i as f64 + 1.0,
                y: r.ppg,
                spread: r.interval,
            }],
        })
        .collect();
    series.push(Series {
        label: "0 = even".into(),
        kind: SeriesKind::Reference,
        slot: 0,
        points: vec![
            Point::new(0.5, 0.0),
            Point::new(rows.len().max(1) as f64 + 0.5, 0.0),
        ],
    });
    Chart {
        stem: "points".into(),
        group: "arena".into(),
        caption: "points per game per pairing".into(),
        title: format!("{name}: points per game per pairing, 95% intervals"),
        x_label: "pairing (legend order)".into(),
        y_label: "net points per game, player minus opponent".into(),
        y_scale: YScale::Linear { range: None },
        series,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TempDir;

    #[test]
    fn savings_sum_the_instances_both_searched_at_each_depth() {
        let scratch = TempDir::new("savings");
        let dir = scratch.dir();
        let csv = dir.join("searches.csv");
        std::fs::write(
            &csv,
            "game,position,seed,repetition,searcher,algorithm,depth,nodes\n\
             g,p1,1,0,emm,expectiminimax,1,10\n\
             g,p1,1,0,emm,expectiminimax,2,100\n\
             g,p1,1,0,s2,star2,1,10\n\
             g,p1,1,0,s2,star2,2,40\n\
             g,p2,1,0,emm,expectiminimax,2,100\n\
             g,p2,1,0,s2,star2,2,80\n\
             g,p3,1,0,s2,star2,2,5\n",
        )
        .unwrap();
        let s = savings(&csv).unwrap();
        let star2: Vec<_> = s.iter().filter(|s| s.searcher == "s2").collect();
        assert_eq!(star2.len(), 2);
        assert_eq!(
            (star2[1].depth, star2[1].instances),
            (2, 2),
            "p3 has no reference"
        );
        assert!((star2[1].saving() - 0.4).abs() < 1e-12);
        assert!(star2[0].saving().abs() < 1e-12);
        // Today's schema: the algorithm once per searcher, in searchers.csv.
        std::fs::write(
            &csv,
            "game,position,seed,repetition,searcher,depth,nodes\n\
             g,p1,1,0,emm,2,100\n\
             g,p1,1,0,s2,2,40\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("searchers.csv"),
            "searcher,algorithm,threads\nemm,expectiminimax,1\ns2,star2,1\n",
        )
        .unwrap();
        let s = savings(&csv).unwrap();
        assert_eq!(s.len(), 2, "{s:?}");
        assert!((s[1].saving() - 0.6).abs() < 1e-12);
        std::fs::write(&csv, "game,depth\ng,1\n").unwrap();
        assert!(savings(&csv).unwrap().is_empty());
    }

    /// points.png: a point per pairing at x = its place in file (legend) order, its
    /// whisker the 95% interval where points.csv gives both ends (none without), and the
    /// zero line from half a place before the first to half a place after the last.
    #[test]
    fn points_stand_per_pairing_in_file_order_with_their_intervals() {
        let scratch = TempDir::new("points");
        let csv = scratch.path("points.csv");
        std::fs::write(
            &csv,
            "player,opponent,points_per_game,ppg_lower,ppg_upper\n\
             a,b,0.5,0.25,0.75\n\
             b,c,-1,,\n",
        )
        .unwrap();
        let chart = points_chart("m", &read_points(&csv).unwrap());
        let drawn: Vec<_> = chart
            .series
            .iter()
            .map(|s| {
                (
                    s.label.as_str(),
                    s.slot,
                    s.points[0].x,
                    s.points[0].y,
                    s.points[0].spread,
                )
            })
            .collect();
        assert_eq!(
            drawn,
            [
                ("a vs b", 0, 1.0, 0.5, Some((0.25, 0.75))),
                ("b vs c", 1, 2.0, -1.0, None),
                ("0 = even", 0, 0.5, 0.0, None),
            ]
        );
        assert_eq!(chart.series[2].points[1].x, 2.5);
        assert_eq!(chart.title, "m: points per game per pairing, 95% intervals");
    }
}
