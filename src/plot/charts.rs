//! Chart builders: CSV rows of one group in, [`Chart`] descriptions out.

use super::chart::{Chart, Point, Series, SeriesKind, YScale};
use super::data::SearchRow;
use super::model::{Dataset, Group, fmt_plain};
use super::stats::{Geometric, LEVEL, Stats, integral, minimal_leaves, pearl_r};

/// A chart builder: `None` when the group has nothing to show for this chart.
pub type Builder = fn(&Dataset, &Group<'_>) -> Option<Chart>;

/// Every chart builder, in the order the charts appear in summary.md.
pub const BUILDERS: [Builder; 3] = [nodes_chart, ebf_chart, cutoff_chart];

/// All charts of a dataset: every builder applied to every group.
#[must_use]
pub fn all_charts(data: &Dataset) -> Vec<Chart> {
    data.groups()
        .iter()
        .flat_map(|g| BUILDERS.iter().filter_map(move |build| build(data, g)))
        .chain(super::sets::set_charts(data))
        .chain(super::parallel::charts(data))
        .collect()
}

/// Node counts against depth on a log scale, one line per searcher (mean over positions,
/// trees and seeds, error bars its 95% t interval, kept within min–max).
///
/// Random trees plot **leaf** nodes against b^d, b^(d/2) and the Knuth–Moore minimal leaf
/// count; games plot all nodes against B^d and B^(d/2), B the mean number of legal moves.
#[must_use]
pub fn nodes_chart(data: &Dataset, group: &Group<'_>) -> Option<Chart> {
    let random = group.is_random_tree();
    let value = if random { leaves } else { nodes };
    let mut series = measured(data, group, value, 1.0);
    if series.is_empty() {
        return None;
    }
    series.extend(numbered(node_references(group)));
    let what = if random { "leaf nodes" } else { "nodes" };
    Some(Chart {
        stem: format!("nodes_{}", group.stem()),
        group: group.stem(),
        caption: format!("{what} against depth"),
        title: format!(
            "{}: {what} per iteration, {}",
            data.experiment,
            group.label()
        ),
        x_label: group.depth_label(),
        y_label: format!("{what} per iteration (mean, bars 95% interval, log scale)"),
        y_scale: YScale::Log,
        series,
    })
}

/// The effective branching factor `ebf` = nodes(d) / nodes(d−1) per searcher and depth,
/// with horizontal lines at b, Pearl's R(b) and √b (random trees) or B and √B (games).
///
/// A ratio is averaged geometrically: one position whose previous iteration was answered
/// almost whole from the table (nodes(d−1) = 3, a lazy SMP helper's entries) has an `ebf`
/// of 10^5, which would be the whole arithmetic mean of a hundred positions near 3.
#[must_use]
pub fn ebf_chart(data: &Dataset, group: &Group<'_>) -> Option<Chart> {
    let mut series: Vec<Series> = group
        .searchers()
        .into_iter()
        .filter_map(|s| {
            let points: Vec<Point> = group
                .values_per_depth(s, |r| r.ebf)
                .iter()
                .filter_map(|(d, values)| geometric_point(*d, values))
                .collect();
            measured_series(data, s, points)
        })
        .collect();
    if series.is_empty() {
        return None;
    }
    series.extend(numbered(ebf_references(group)));
    Some(Chart {
        stem: format!("ebf_{}", group.stem()),
        group: group.stem(),
        caption: "effective branching factor".into(),
        title: format!(
            "{}: effective branching factor, {}",
            data.experiment,
            group.label()
        ),
        x_label: group.depth_label(),
        y_label: "EBF = nodes(d) / nodes(d-1) (geometric mean, bars 95%)".into(),
        y_scale: YScale::Linear { range: None },
        series,
    })
}

/// The share of beta cutoffs produced by the first move searched, in percent, per searcher
/// and depth. Searchers without cutoffs (minimax) are left out.
#[must_use]
pub fn cutoff_chart(data: &Dataset, group: &Group<'_>) -> Option<Chart> {
    let series = measured(data, group, |r| r.first_move_cutoff_rate, 100.0);
    if series.is_empty() {
        return None;
    }
    Some(Chart {
        stem: format!("cutoff_{}", group.stem()),
        group: group.stem(),
        caption: "first-move cutoff rate".into(),
        title: format!(
            "{}: first-move cutoff rate, {}",
            data.experiment,
            group.label()
        ),
        x_label: group.depth_label(),
        y_label: "first-move cutoffs (% of beta cutoffs)".into(),
        y_scale: YScale::Linear {
            range: Some((0.0, 100.0)),
        },
        series,
    })
}

fn leaves(row: &SearchRow) -> Option<f64> {
    Some(row.leaf_nodes)
}

fn nodes(row: &SearchRow) -> Option<f64> {
    Some(row.nodes)
}

/// One measured series per searcher with at least one value, scaled by `scale`.
fn measured(
    data: &Dataset,
    group: &Group<'_>,
    value: fn(&SearchRow) -> Option<f64>,
    scale: f64,
) -> Vec<Series> {
    group
        .searchers()
        .into_iter()
        .filter_map(|s| {
            let points: Vec<Point> = group
                .per_depth(s, value)
                .iter()
                .map(|(d, st)| mean_point(*d, st, scale))
                .collect();
            measured_series(data, s, points)
        })
        .collect()
}

/// The series of `searcher` through `points`, in its colour; `None` without points.
fn measured_series(data: &Dataset, searcher: &str, points: Vec<Point>) -> Option<Series> {
    (!points.is_empty()).then(|| Series {
        label: searcher.to_string(),
        kind: SeriesKind::Measured,
        slot: data
            .searchers
            .iter()
            .position(|x| x == searcher)
            .unwrap_or(0),
        points,
    })
}

/// The geometric mean of `values` at `depth`, its 95% interval (of the log-mean) as the
/// error bar.
fn geometric_point(depth: u32, values: &[f64]) -> Option<Point> {
    let g = Geometric::of(values, LEVEL)?;
    Some(Point {
        x: f64::from(depth),
        y: g.mean,
        spread: g.interval.map(|i| (i.lo, i.hi)),
    })
}

/// The mean at `depth` with its 95% t interval as the error bar, the lower end kept at
/// the least value (counts and rates are positive; a log axis cannot draw below 0).
fn mean_point(depth: u32, stats: &Stats, scale: f64) -> Point {
    Point {
        x: f64::from(depth),
        y: stats.mean * scale,
        spread: stats
            .interval
            .map(|i| (i.lo.max(stats.min) * scale, i.hi.min(stats.max) * scale)),
    }
}

/// Gives reference series consecutive colour slots.
fn numbered(mut refs: Vec<Series>) -> Vec<Series> {
    for (i, s) in refs.iter_mut().enumerate() {
        s.slot = i;
    }
    refs
}

/// A reference series evaluated at every depth of the group.
fn curve(group: &Group<'_>, label: String, f: impl Fn(u32) -> f64) -> Series {
    Series {
        label,
        kind: SeriesKind::Reference,
        slot: 0,
        points: group
            .depths()
            .into_iter()
            .map(|d| Point::new(f64::from(d), f(d)))
            .collect(),
    }
}

fn node_references(group: &Group<'_>) -> Vec<Series> {
    let b = group.branching();
    if !b.is_finite() || b <= 0.0 {
        return Vec::new();
    }
    let pow = move |e: f64| b.powf(e);
    if group.is_random_tree() {
        let mut refs = vec![
            curve(group, "b^d (all leaves)".into(), move |d| pow(f64::from(d))),
            curve(group, "b^(d/2)".into(), move |d| pow(f64::from(d) / 2.0)),
        ];
        if integral(b).is_some() {
            let km = curve(group, "Knuth–Moore minimal leaves".into(), move |d| {
                minimal_leaves(b, d)
            });
            refs.push(km);
        }
        refs
    } else {
        vec![
            curve(
                group,
                format!("B^d, B = {} moves", fmt_plain(b)),
                move |d| pow(f64::from(d)),
            ),
            curve(group, "B^(d/2)".into(), move |d| pow(f64::from(d) / 2.0)),
        ]
    }
}

fn ebf_references(group: &Group<'_>) -> Vec<Series> {
    let b = group.branching();
    if !b.is_finite() || b <= 0.0 {
        return Vec::new();
    }
    let level = |label: String, y: f64| curve(group, label, move |_| y);
    if group.is_random_tree() {
        let mut refs = vec![level(format!("b = {}", fmt_plain(b)), b)];
        if let Some(r) = pearl_r(b) {
            refs.push(level(format!("Pearl R(b) = {r:.3}"), r));
        }
        refs.push(level(format!("√b = {:.3}", b.sqrt()), b.sqrt()));
        refs
    } else {
        vec![
            level(format!("B = {} (mean moves)", fmt_plain(b)), b),
            level(format!("√B = {:.3}", b.sqrt()), b.sqrt()),
        ]
    }
}
