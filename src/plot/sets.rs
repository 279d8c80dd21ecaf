//! The summary.md sections for test sets (positions with known answers) and for published
//! reference figures: per set and searcher, how many positions were answered exactly and how
//! many nodes a position cost, beside what the literature reports.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Format;
use super::chart::{Chart, Point, Series, SeriesKind, YScale};
use super::data::{Reference, SearchRow};
use super::model::Dataset;
use super::stats::Stats;

/// Group prefix of the test-set charts.
const SET_GROUP: &str = "set_";

/// Per test set, two charts with one point per searcher (x = the searcher's place in the
/// legend): the share of positions answered exactly, and the mean nodes per position
/// (min–max whiskers). Together they show what each configuration buys and what it costs.
#[must_use]
pub fn set_charts(data: &Dataset) -> Vec<Chart> {
    let sets = jobs_by_set(&data.rows);
    let mut names: Vec<&str> = Vec::new();
    for ((set, _), _) in &sets {
        if !names.contains(&set.as_str()) {
            names.push(set);
        }
    }
    names
        .iter()
        .flat_map(|set| set_pair(data, &sets, set))
        .collect()
}

fn set_pair(data: &Dataset, sets: &[(SetKey, Vec<JobTotal>)], set: &str) -> Vec<Chart> {
    let slug: String = set
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let of_set: Vec<(&String, &Vec<JobTotal>)> = sets
        .iter()
        .filter(|((s, _), _)| s == set)
        .map(|((_, searcher), jobs)| (searcher, jobs))
        .collect();
    let series = |value: &dyn Fn(&[JobTotal]) -> Option<Point>| -> Vec<Series> {
        of_set
            .iter()
            .enumerate()
            .filter_map(|(i, (searcher, jobs))| {
                let mut point = value(jobs)?;
                point.x = i as f64 + 1.0;
                Some(Series {
                    label: (*searcher).clone(),
                    kind: SeriesKind::Measured,
                    slot: data
                        .searchers
                        .iter()
                        .position(|s| s == *searcher)
                        .unwrap_or(i),
                    points: vec![point],
                })
            })
            .collect()
    };
    let solved = series(&|jobs| {
        let judged = jobs.iter().filter(|j| j.solved.is_some()).count();
        let exact = jobs.iter().filter(|j| j.solved == Some(true)).count();
        (judged > 0).then(|| Point::new(0.0, 100.0 * exact as f64 / judged as f64))
    });
    let cost = series(&|jobs| {
        let nodes: Vec<f64> = jobs.iter().map(|j| j.nodes).collect();
        Stats::of(&nodes).map(|s| Point {
            x: 0.0,
            y: s.mean,
            spread: Some((s.min, s.max)),
        })
    });
    let chart =
        |kind: &str, caption: &str, y_label: &str, y_scale: YScale, series: Vec<Series>| Chart {
            stem: format!("{kind}_{slug}"),
            group: format!("{SET_GROUP}{slug}"),
            caption: format!("{caption}, {set}"),
            title: format!("{}: {caption}, {set}", data.experiment),
            x_label: "searcher (numbered as in the legend)".into(),
            y_label: y_label.into(),
            y_scale,
            series,
        };
    let mut out = Vec::new();
    if !solved.is_empty() {
        let scale = YScale::Linear {
            range: Some((0.0, 100.0)),
        };
        out.push(chart(
            "solved",
            "positions answered exactly",
            "answered exactly (% of positions)",
            scale,
            solved,
        ));
    }
    if !cost.is_empty() {
        out.push(chart(
            "cost",
            "nodes per position",
            "nodes per position (all iterations, log scale)",
            YScale::Log,
            cost,
        ));
    }
    out
}

/// Sets that are not test sets: positions without known answers.
const NOT_TEST_SETS: [&str; 4] = ["", "start", "list", "random_tree"];

/// One job's totals: nodes and seconds over every iteration, and the final verdict.
#[derive(Default)]
struct JobTotal {
    nodes: f64,
    seconds: f64,
    solved: Option<bool>,
}

/// A (set, searcher) pair.
type SetKey = (String, String);
/// A job's identity within a set: (position, seed, repetition).
type JobKey = (String, String, String);

/// (set, searcher) -> the jobs of that searcher on that set, in first-seen order of pairs.
fn jobs_by_set(rows: &[SearchRow]) -> Vec<(SetKey, Vec<JobTotal>)> {
    let mut order: Vec<SetKey> = Vec::new();
    let mut jobs: BTreeMap<SetKey, BTreeMap<JobKey, JobTotal>> = BTreeMap::new();
    for row in rows
        .iter()
        .filter(|r| !NOT_TEST_SETS.contains(&r.set.as_str()) && r.playouts.is_none())
    {
        let key = (row.set.clone(), row.searcher.clone());
        if !jobs.contains_key(&key) {
            order.push(key.clone());
        }
        let job = (
            row.position.clone(),
            row.seed.clone(),
            row.repetition.clone(),
        );
        let total = jobs.entry(key).or_default().entry(job).or_default();
        total.nodes += row.nodes;
        total.seconds += row.elapsed_s.unwrap_or(0.0);
        total.solved = row.solved.or(total.solved);
    }
    order
        .into_iter()
        .map(|key| {
            let totals = jobs
                .remove(&key)
                .map(|m| m.into_values().collect())
                .unwrap_or_default();
            (key, totals)
        })
        .collect()
}

/// Mean total nodes per position of `searcher` on `set`, if it ran there.
fn mean_nodes(sets: &[(SetKey, Vec<JobTotal>)], set: &str, searcher: &str) -> Option<(f64, usize)> {
    let (_, jobs) = sets.iter().find(|((s, l), _)| s == set && l == searcher)?;
    let stats = Stats::of(&jobs.iter().map(|j| j.nodes).collect::<Vec<_>>())?;
    Some((stats.mean, jobs.len()))
}

/// The "Test sets" and "Published figures" sections, empty when there is nothing to show;
/// the test-set charts among `charts` are linked in `format`.
#[must_use]
pub fn sections(data: &Dataset, charts: &[Chart], format: Option<Format>) -> String {
    let sets = jobs_by_set(&data.rows);
    let mut out = String::new();
    if !sets.is_empty() {
        out.push_str(&test_set_table(&sets));
        if let Some(format) = format {
            out.push('\n');
            let set_charts = charts.iter().filter(|c| c.group.starts_with(SET_GROUP));
            out.push_str(&super::summary::chart_links(set_charts, format));
        }
    }
    if !data.run.references.is_empty() {
        out.push_str(&reference_table(&sets, &data.run.references));
    }
    out
}

fn test_set_table(sets: &[(SetKey, Vec<JobTotal>)]) -> String {
    let mut out = String::from(
        "\n## Test sets\n\nPer position: nodes and time summed over every iteration of the search; \
         exact = the final answer equals the set's known score.\n\n\
         | set | searcher | positions | exact | mean nodes per position | [min–max] | mean time per position (s) |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    for ((set, searcher), jobs) in sets {
        let judged = jobs.iter().filter(|j| j.solved.is_some()).count();
        let exact = jobs.iter().filter(|j| j.solved == Some(true)).count();
        let nodes = Stats::of(&jobs.iter().map(|j| j.nodes).collect::<Vec<_>>());
        let seconds = Stats::of(&jobs.iter().map(|j| j.seconds).collect::<Vec<_>>());
        let (mean, range) = nodes.map_or(("–".into(), "–".into()), |s| {
            (
                format!("{:.1}", s.mean),
                format!("{:.0}–{:.0}", s.min, s.max),
            )
        });
        let _ = writeln!(
            out,
            "| {set} | {searcher} | {} | {exact}/{judged} | {mean} | {range} | {} |",
            jobs.len(),
            seconds.map_or("–".into(), |s| format!("{:.6}", s.mean)),
        );
    }
    out
}

fn reference_table(sets: &[(SetKey, Vec<JobTotal>)], references: &[Reference]) -> String {
    let mut out = String::from(
        "\n## Published figures\n\n\
         | set | searcher | metric | measured (positions) | published | measured / published | source |\n\
         |---|---|---|---:|---:|---:|---|\n",
    );
    for r in references {
        let measured = (r.metric == "nodes")
            .then(|| mean_nodes(sets, &r.set, &r.searcher))
            .flatten();
        let (value, ratio) = measured.map_or(("not run".into(), "–".into()), |(m, n)| {
            (format!("{m:.1} ({n})"), format!("{:.3}", m / r.value))
        });
        let _ = writeln!(
            out,
            "| {} | {} | {} | {value} | {} | {ratio} | {} |",
            r.set, r.searcher, r.metric, r.value, r.source
        );
    }
    out
}
