//! summary.md sections for Monte Carlo searches and for parallel scaling.
//!
//! Both read only columns of searches.csv: `playouts`, `playouts_per_s` and `solved` for Monte
//! Carlo rows; `speedup`, `overhead`, `nps_scaling`, `time_to_depth_s`, `total_nodes` and
//! `oversubscribed` for jobs with several threads (the runner compares each with its
//! one-thread twin: the same searcher, position, limits and repetition).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Format;
use super::chart::{Chart, Point, Series, SeriesKind, YScale};
use super::data::SearchRow;
use super::format::{cell, chart_links, dash, fmt_count, fmt_integer, fmt_percent, fmt_ratio};
use super::model::Dataset;
use super::sets::geometric;
use super::stats::{Geometric, Interval, LEVEL, Stats, wilson_rate};

/// Group prefix of the Monte Carlo and scaling charts.
const PARALLEL_GROUP: &str = "parallel_";

/// The classic figure of parallel alpha-beta: Hyatt's DTS on Cray Blitz, time-to-depth
/// speedup on 1, 2, 4, 8 and 16 processors (Hyatt 1997, "The dynamic tree-splitting
/// parallel search algorithm", ICCA Journal 20(1)). Drawn on every speedup chart beside the
/// ideal line, and quoted under the scaling table by [`literature`].
const DTS_SPEEDUP: [(u32, f64); 5] = [(1, 1.0), (2, 2.0), (4, 3.7), (8, 6.6), (16, 11.1)];

/// The literature's figures quoted under summary.md's scaling table, DTS's from
/// [`DTS_SPEEDUP`].
fn literature() -> String {
    let dts = |pick: fn(&(u32, f64)) -> String| {
        let parts: Vec<String> = DTS_SPEEDUP[1..].iter().map(pick).collect();
        let (last, rest) = parts.split_last().expect("DTS figures");
        format!("{} and {last}", rest.join(", "))
    };
    format!(
        "The literature, to compare with: Hyatt's DTS on Cray Blitz (Hyatt 1997, ICCA Journal \
         20(1)), chess, time-to-depth speedup {} on {} processors (the dashed DTS line of the \
         speedup charts); Chaslot, Winands and van den Herik (2008, \"Parallel Monte-Carlo tree \
         search\"), 9×9 Go, strength speedup (how much longer one thread must think to play as \
         well; not playouts/s) of root parallelization 3.0, 6.5 and 14.9 on 2, 4 and 16 \
         threads, of tree parallelization with virtual loss 2.0, 3.6 and 8.5.\n",
        dts(|&(_, s)| format!("{s:.1}")),
        dts(|&(n, _)| n.to_string()),
    )
}

/// The Monte Carlo and parallel-scaling sections (empty when the data has neither), with
/// links to their charts among `charts` in `format`.
#[must_use]
pub fn sections(data: &Dataset, charts: &[Chart], format: Option<Format>) -> String {
    let mut out = monte_carlo(data);
    out.push_str(&scaling(data));
    if let Some(format) = format {
        let ours: Vec<&Chart> = charts
            .iter()
            .filter(|c| c.group.starts_with(PARALLEL_GROUP))
            .collect();
        if !ours.is_empty() {
            out.push('\n');
            out.push_str(&chart_links(ours.into_iter(), format));
        }
    }
    out
}

/// `name` without the swept values `keys` (`uct[exploration=1 nodes=100]` without `nodes`
/// is `uct[exploration=1]`).
fn without_swept(name: &str, keys: &[&str]) -> String {
    let Some((label, rest)) = name.split_once('[') else {
        return name.to_owned();
    };
    let swept: Vec<&str> = rest
        .trim_end_matches(']')
        .split(' ')
        .filter(|part| !keys.iter().any(|k| part.starts_with(&format!("{k}="))))
        .collect();
    if swept.is_empty() {
        label.to_owned()
    } else {
        format!("{label}[{}]", swept.join(" "))
    }
}

/// The charts of Monte Carlo and parallel searches: strength against playouts per
/// algorithm, playouts/s against threads, and speedup, overhead and nodes/s scaling
/// against threads, each scaling chart with its ideal line.
#[must_use]
pub fn charts(data: &Dataset) -> Vec<Chart> {
    let games: Vec<String> = grouped(data.rows.iter(), |r| r.game.clone())
        .into_iter()
        .map(|(g, _)| g)
        .collect();
    let mut out = Vec::new();
    for game in &games {
        let rows: Vec<&SearchRow> = data.rows.iter().filter(|r| &r.game == game).collect();
        out.extend(strength_chart(data, game, &rows));
        out.extend(playout_rate_chart(data, game, &rows));
        for metric in ScalingMetric::ALL {
            out.extend(scaling_chart(data, game, &rows, metric));
        }
    }
    out
}

fn chart(
    data: &Dataset,
    stem: String,
    caption: String,
    x: &str,
    y: &str,
    y_scale: YScale,
    series: Vec<Series>,
) -> Chart {
    Chart {
        group: format!("{PARALLEL_GROUP}{stem}"),
        title: format!("{}: {caption}", data.experiment),
        stem,
        caption,
        x_label: x.into(),
        y_label: y.into(),
        y_scale,
        series,
    }
}

/// Monte Carlo on test sets: the share of right moves against the playouts made, one
/// series per algorithm (its budget and threads taken out of the name), error bars the
/// Wilson interval over positions ([`rightness`]).
fn strength_chart(data: &Dataset, game: &str, rows: &[&SearchRow]) -> Option<Chart> {
    let judged = rows
        .iter()
        .copied()
        .filter(|r| r.playouts.is_some() && r.solved.is_some());
    let mut series: Vec<Series> = Vec::new();
    for (searcher, rows) in grouped(judged, |r| r.searcher.clone()) {
        let playouts = stats(&rows, |r| r.playouts)?.mean;
        let right = rightness(&rows)?;
        let point = Point {
            x: playouts.log10(),
            y: 100.0 * right.right as f64 / right.runs as f64,
            spread: right.interval.map(|i| (100.0 * i.lo, 100.0 * i.hi)),
        };
        let label = without_swept(&searcher, &["nodes", "threads"]);
        match series.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => series.push(Series {
                slot: series.len(),
                label,
                kind: SeriesKind::Measured,
                points: vec![point],
            }),
        }
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    (!series.is_empty()).then(|| {
        chart(
            data,
            format!("strength_{game}"),
            format!("Monte Carlo strength against playouts, {game}"),
            "playouts per search (log10; mean over the positions)",
            "right moves (% of searches, bars 95% Wilson interval over positions)",
            YScale::Linear {
                range: Some((0.0, 100.0)),
            },
            series,
        )
    })
}

/// The ideal line through `base` at one thread: y = base × threads, over `threads`.
fn ideal(label: String, slot: usize, base: f64, threads: &[f64]) -> Series {
    Series {
        label,
        kind: SeriesKind::Reference,
        slot,
        points: threads.iter().map(|&t| Point::new(t, base * t)).collect(),
    }
}

/// Monte Carlo playouts per second against threads, one series per algorithm (mean with
/// its t interval), each with its ideal line (one thread's rate × threads).
fn playout_rate_chart(data: &Dataset, game: &str, rows: &[&SearchRow]) -> Option<Chart> {
    let timed = rows.iter().copied().filter(|r| r.playouts_per_s.is_some());
    let x_label = threads_label(timed.clone());
    let mut series = Vec::new();
    let mut refs = Vec::new();
    for (label, rows) in grouped(timed, |r| without_threads(&r.searcher)) {
        let by_threads = grouped(rows.iter().copied(), |r| {
            (r.threads, r.oversubscribed == Some(true))
        });
        if by_threads.len() < 2 {
            continue;
        }
        let mut points: Vec<(bool, Point)> = by_threads
            .iter()
            .filter_map(|((threads, over), rows)| {
                let s = stats(rows, |r| r.playouts_per_s)?;
                Some((
                    *over,
                    Point {
                        x: f64::from(*threads),
                        y: s.mean,
                        spread: s.interval.map(|i| (i.lo.max(s.min), i.hi)),
                    },
                ))
            })
            .collect();
        // Groups come in the rows' order; a series is drawn in x order.
        points.sort_by(|a, b| a.1.x.total_cmp(&b.1.x));
        let Some(base) = by_threads
            .iter()
            .find(|((t, _), _)| *t == 1)
            .and_then(|(_, rows)| stats(rows, |r| r.playouts_per_s))
        else {
            continue;
        };
        let threads: Vec<f64> = points.iter().map(|(_, p)| p.x).collect();
        refs.push(ideal(
            format!("ideal for {label}"),
            refs.len(),
            base.mean,
            &threads,
        ));
        push_split(&mut series, &label, points);
    }
    (!series.is_empty()).then(|| {
        series.extend(refs);
        chart(
            data,
            format!("playouts_{game}"),
            format!("playouts per second against threads, {game}"),
            &x_label,
            "playouts per second (mean, bars 95% interval)",
            YScale::Linear { range: None },
            series,
        )
    })
}

/// The thread axis's label: `search threads`, and where `rows` come from several sets,
/// that the points pool them (as the table's `all N sets` rows do).
fn threads_label<'a>(rows: impl Iterator<Item = &'a SearchRow>) -> String {
    let mut sets: Vec<&str> = rows.map(|r| r.set.as_str()).collect();
    sets.sort_unstable();
    sets.dedup();
    if sets.len() < 2 {
        return "search threads".into();
    }
    format!(
        "search threads (all {} sets pooled: {})",
        sets.len(),
        sets.join(", ")
    )
}

/// Adds `points` as a measured series named `label`, and those of oversubscribed jobs as
/// a separate, unjoined series that says so.
fn push_split(series: &mut Vec<Series>, label: &str, points: Vec<(bool, Point)>) {
    let slot = series.len();
    let (over, fair): (Vec<_>, Vec<_>) = points.into_iter().partition(|(o, _)| *o);
    if !fair.is_empty() {
        series.push(Series {
            label: label.to_owned(),
            kind: SeriesKind::Measured,
            slot,
            points: fair.into_iter().map(|(_, p)| p).collect(),
        });
    }
    if !over.is_empty() {
        series.push(Series {
            label: format!("{label} (oversubscribed)"),
            kind: SeriesKind::Points,
            slot,
            points: over.into_iter().map(|(_, p)| p).collect(),
        });
    }
}

/// A scaling chart's (stem, caption, y label, ideal at n threads, ideal's legend).
type Texts = (
    &'static str,
    &'static str,
    &'static str,
    fn(f64) -> f64,
    &'static str,
);

/// A scaling figure of the alpha-beta family against one thread.
#[derive(Clone, Copy)]
enum ScalingMetric {
    Speedup,
    Overhead,
    NodesPerSecond,
}

impl ScalingMetric {
    const ALL: [Self; 3] = [Self::Speedup, Self::Overhead, Self::NodesPerSecond];

    fn value(self, r: &SearchRow) -> Option<f64> {
        match self {
            Self::Speedup => r.speedup,
            Self::Overhead => r.overhead,
            // Monte Carlo throughput has its own chart.
            Self::NodesPerSecond => r.nps_scaling.filter(|_| r.playouts.is_none()),
        }
    }

    /// (stem, caption, y label, ideal at n threads, ideal's legend).
    fn texts(self) -> Texts {
        match self {
            Self::Speedup => (
                "speedup",
                "speedup against threads",
                "time to depth, 1 thread / n (geometric mean, bars 95%)",
                |n| n,
                "ideal: n",
            ),
            Self::Overhead => (
                "overhead",
                "search overhead against threads",
                "nodes of all threads / 1 thread's (geometric mean, bars 95%)",
                |_| 1.0,
                "ideal: 1 (no extra nodes)",
            ),
            Self::NodesPerSecond => (
                "nps",
                "nodes per second scaling against threads",
                "nodes/s with n threads / with 1 (geometric mean, bars 95%)",
                |n| n,
                "ideal: n",
            ),
        }
    }
}

/// One scaling figure against threads per searcher (its thread count taken out of the
/// name), 1 at one thread by definition, with the ideal line.
fn scaling_chart(
    data: &Dataset,
    game: &str,
    rows: &[&SearchRow],
    metric: ScalingMetric,
) -> Option<Chart> {
    let measured = rows.iter().copied().filter(|r| metric.value(r).is_some());
    let x_label = threads_label(measured.clone());
    let mut series = Vec::new();
    let mut all_threads = vec![1.0];
    for (label, rows) in grouped(measured, |r| without_threads(&r.searcher)) {
        let mut points = vec![(false, Point::new(1.0, 1.0))];
        for ((threads, over), rows) in grouped(rows.iter().copied(), |r| {
            (r.threads, r.oversubscribed == Some(true))
        }) {
            let values: Vec<f64> = rows.iter().filter_map(|r| metric.value(r)).collect();
            let Some(g) = Geometric::of(&values, LEVEL) else {
                continue;
            };
            let x = f64::from(threads);
            if !all_threads.contains(&x) {
                all_threads.push(x);
            }
            points.push((
                over,
                Point {
                    x,
                    y: g.mean,
                    spread: g.interval.map(|i| (i.lo, i.hi)),
                },
            ));
        }
        if points.len() > 1 {
            // Groups come in the rows' order; a series is drawn in x order.
            points.sort_by(|a, b| a.1.x.total_cmp(&b.1.x));
            push_split(&mut series, &label, points);
        }
    }
    if series.is_empty() {
        return None;
    }
    all_threads.sort_by(f64::total_cmp);
    let (stem, caption, y_label, ideal_at, ideal_label) = metric.texts();
    series.push(Series {
        label: ideal_label.into(),
        kind: SeriesKind::Reference,
        slot: 0,
        points: all_threads
            .iter()
            .map(|&n| Point::new(n, ideal_at(n)))
            .collect(),
    });
    if matches!(metric, ScalingMetric::Speedup) {
        series.push(dts_reference(all_threads.last().copied().unwrap_or(1.0)));
    }
    Some(chart(
        data,
        format!("{stem}_{game}"),
        format!("{caption}, {game}"),
        &x_label,
        y_label,
        YScale::Linear { range: None },
        series,
    ))
}

/// [`DTS_SPEEDUP`] as a reference series, up to `max_threads` threads.
fn dts_reference(max_threads: f64) -> Series {
    Series {
        label: "DTS, chess (Hyatt 1997)".into(),
        kind: SeriesKind::Reference,
        slot: 1,
        points: DTS_SPEEDUP
            .iter()
            .filter(|&&(n, _)| f64::from(n) <= max_threads)
            .map(|&(n, s)| Point::new(f64::from(n), s))
            .collect(),
    }
}

/// `name` without a `threads=N` swept value: `smp[threads=2]` → `smp`,
/// `smp[threads=2 tt_mb=16]` → `smp[tt_mb=16]`.
#[must_use]
pub fn without_threads(name: &str) -> String {
    let Some((label, rest)) = name.split_once('[') else {
        return name.to_owned();
    };
    let swept: Vec<&str> = rest
        .trim_end_matches(']')
        .split(' ')
        .filter(|part| !part.starts_with("threads="))
        .collect();
    if swept.is_empty() {
        label.to_owned()
    } else {
        format!("{label}[{}]", swept.join(" "))
    }
}

/// Rows grouped by a key, groups in order of first appearance.
fn grouped<'a, K: Ord + Clone>(
    rows: impl Iterator<Item = &'a SearchRow>,
    key: impl Fn(&SearchRow) -> K,
) -> Vec<(K, Vec<&'a SearchRow>)> {
    let mut order = Vec::new();
    let mut groups: BTreeMap<K, Vec<&SearchRow>> = BTreeMap::new();
    for row in rows {
        let k = key(row);
        if !groups.contains_key(&k) {
            order.push(k.clone());
        }
        groups.entry(k).or_default().push(row);
    }
    order
        .into_iter()
        .map(|k| {
            let rows = groups.remove(&k).unwrap_or_default();
            (k, rows)
        })
        .collect()
}

fn stats(rows: &[&SearchRow], f: impl Fn(&SearchRow) -> Option<f64>) -> Option<Stats> {
    Stats::of(&rows.iter().filter_map(|r| f(r)).collect::<Vec<_>>())
}

/// Per game, set and searcher: playouts, their rate, tree nodes and, on test sets, how
/// often the chosen move was right.
fn monte_carlo(data: &Dataset) -> String {
    let rows = data.rows.iter().filter(|r| r.playouts.is_some());
    let groups = grouped(rows, |r| {
        (r.game.clone(), r.set.clone(), r.searcher.clone())
    });
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## Monte Carlo searches\n\n\
         One row per search. `right` (test sets only): the chosen move is a best move of \
         the set, or keeps the position's known outcome (win, draw or loss), checked by \
         solving the position after it; the runs right, and the 95% Wilson interval over \
         positions (a position searched in several runs, each with its own seed, counts \
         once, as the share of its runs that were right: its runs are not independent \
         positions).\n\n\
         | game | set | searcher | threads | runs | playouts | playouts/s | tree nodes | right |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for ((game, set, searcher), rows) in groups {
        let right = right_cell(&rows);
        let _ = writeln!(
            out,
            "| {game} | {set} | {searcher} | {} | {} | {} | {} | {} | {right} |",
            rows[0].threads,
            rows.len(),
            cell(stats(&rows, |r| r.playouts), fmt_count),
            cell(stats(&rows, |r| r.playouts_per_s), fmt_integer),
            cell(stats(&rows, |r| Some(r.nodes)), fmt_count),
        );
    }
    out
}

/// How often a Monte Carlo group's chosen move was right: the runs right of the runs
/// judged, and the Wilson interval over positions, each counting as the share of its runs
/// right (as the test-set tables count repetitions, [`super::sets`]).
struct Rightness {
    right: usize,
    runs: usize,
    positions: usize,
    interval: Option<Interval>,
}

fn rightness(rows: &[&SearchRow]) -> Option<Rightness> {
    let mut by_position: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for row in rows {
        if let Some(solved) = row.solved {
            let (right, runs) = by_position.entry(row.position.as_str()).or_default();
            *right += usize::from(solved);
            *runs += 1;
        }
    }
    let positions = by_position.len();
    let (right, runs) = by_position
        .values()
        .fold((0, 0), |(a, b), (r, n)| (a + r, b + n));
    let rate = by_position
        .values()
        .map(|&(r, n)| r as f64 / n as f64)
        .sum::<f64>()
        / positions.max(1) as f64;
    (positions > 0).then(|| Rightness {
        right,
        runs,
        positions,
        interval: wilson_rate(rate, positions, LEVEL),
    })
}

/// The `right` cell of a Monte Carlo group.
fn right_cell(rows: &[&SearchRow]) -> String {
    let Some(r) = rightness(rows) else {
        return dash();
    };
    let interval = r.interval.map_or_else(String::new, |i| {
        format!(
            "; 95% {}–{} over {} positions",
            fmt_percent(i.lo),
            fmt_percent(i.hi),
            r.positions
        )
    });
    format!(
        "{}/{} ({}{interval})",
        r.right,
        r.runs,
        fmt_percent(r.right as f64 / r.runs as f64)
    )
}

/// Per game, set, searcher and thread count: the speedup, overhead and throughput scaling
/// against one thread, as a ratio of sums over the jobs and as the mean of per-job ratios.
fn scaling(data: &Dataset) -> String {
    let rows = data
        .rows
        .iter()
        .filter(|r| r.speedup.is_some() || r.nps_scaling.is_some());
    // Oversubscribed jobs get rows of their own: their timings measure time-sharing and
    // are never averaged with the rest.
    let groups = grouped(rows, |r| {
        (
            r.game.clone(),
            r.set.clone(),
            without_threads(&r.searcher),
            r.threads,
            r.oversubscribed == Some(true),
        )
    });
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## Parallel scaling\n\n\
         Each job with n threads against its one-thread twin (same searcher, position, \
         limits and repetition). Alpha-beta family: `speedup` = time to reach the same depth \
         with 1 thread / with n; `overhead` = nodes of all threads / nodes with 1 thread; \
         `nps scaling` = nodes per second with n / with 1 (= speedup × overhead). Monte Carlo: \
         `nps scaling` = playouts per second with n / with 1. `total` columns are ratios of \
         sums over the jobs (Σ time(1) / Σ time(n), ...); `per job` are geometric means of \
         the jobs' own ratios with their 95% interval (t interval of the log ratios). \
         **oversubscribed** rows: jobs whose threads outnumbered the free cores, so their \
         timings measure time-sharing, not parallel search; they are kept apart from the \
         others, never averaged with them.\n\n\
         | game | set | searcher | threads | jobs | speedup total | speedup per job | overhead total | overhead per job | nps scaling total | nps scaling per job | oversubscribed |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let mut pooled_games = BTreeMap::new();
    for ((game, set, searcher, threads, over), rows) in &groups {
        out.push_str(&scaling_row(game, set, searcher, *threads, *over, rows));
        pooled_games
            .entry(game.clone())
            .or_insert_with(Vec::new)
            .push(set.clone());
    }
    // A game measured on several sets: its charts pool them, so the table gives the pooled
    // figures too (the charts' points are their `per job` columns).
    for (game, sets) in &mut pooled_games {
        sets.sort();
        sets.dedup();
        if sets.len() < 2 {
            continue;
        }
        let set = format!("all {} sets", sets.len());
        let rows = groups.iter().filter(|((g, ..), _)| g == game);
        let pooled = grouped(rows.flat_map(|(_, rows)| rows.iter().copied()), |r| {
            (
                without_threads(&r.searcher),
                r.threads,
                r.oversubscribed == Some(true),
            )
        });
        for ((searcher, threads, over), rows) in pooled {
            out.push_str(&scaling_row(game, &set, &searcher, threads, over, &rows));
        }
    }
    out.push('\n');
    out.push_str(&literature());
    out
}

/// One row of the parallel-scaling table: the jobs `rows` of `searcher` at `threads`.
fn scaling_row(
    game: &str,
    set: &str,
    searcher: &str,
    threads: u32,
    over: bool,
    rows: &[&SearchRow],
) -> String {
    let totals = Totals::of(rows);
    let per_job = |f: fn(&SearchRow) -> Option<f64>| {
        geometric(
            &rows.iter().filter_map(|r| f(r)).collect::<Vec<_>>(),
            fmt_ratio,
        )
    };
    format!(
        "| {game} | {set} | {searcher} | {threads} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        rows.len(),
        totals.speedup.map_or_else(dash, fmt_ratio),
        per_job(|r| r.speedup),
        totals.overhead.map_or_else(dash, fmt_ratio),
        per_job(|r| r.overhead),
        totals.nps_scaling.map_or_else(dash, fmt_ratio),
        per_job(|r| r.nps_scaling),
        if over {
            "**oversubscribed**: timings are time-sharing"
        } else {
            "no"
        },
    )
}

/// Ratios of sums over the jobs of one thread count. The one-thread twin's figures are
/// recovered from each row's ratios: time(1) = speedup × time(n), nodes(1) = nodes(n) /
/// overhead, playouts/s(1) = playouts/s(n) / nps_scaling.
struct Totals {
    speedup: Option<f64>,
    overhead: Option<f64>,
    nps_scaling: Option<f64>,
}

impl Totals {
    fn of(rows: &[&SearchRow]) -> Self {
        let (mut t1, mut tn, mut n1, mut nn) = (0.0, 0.0, 0.0, 0.0);
        let (mut rate1, mut rate_n) = (0.0, 0.0);
        for r in rows {
            if let (Some(rate), Some(scaling)) = (r.playouts_per_s, r.nps_scaling) {
                rate1 += rate / scaling;
                rate_n += rate;
            }
            if let (Some(s), Some(o), Some(t), Some(n)) =
                (r.speedup, r.overhead, r.time_to_depth_s, r.total_nodes)
            {
                t1 += s * t;
                tn += t;
                n1 += n / o;
                nn += n;
            }
        }
        let ratio = |a: f64, b: f64| (a > 0.0 && b > 0.0).then(|| a / b);
        Self {
            speedup: ratio(t1, tn),
            overhead: ratio(nn, n1),
            nps_scaling: ratio(nn / tn, n1 / t1).or_else(|| ratio(rate_n, rate1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{
        Chart, Dataset, Format, SearchRow, SeriesKind, charts, dts_reference, rightness,
        scaling_row, sections, threads_label, without_threads,
    };

    /// A hand-made run. connect4: lazy SMP jobs against their one-thread twins on two
    /// sets, one of them oversubscribed. nim: Monte Carlo searches of two test positions
    /// (`a` searched twice with two threads), and flat searches off any test set.
    fn hand_made() -> Dataset {
        let smp = |set: &str, threads: u32, s: f64, o: f64, t: f64, n: f64| SearchRow {
            game: "connect4".into(),
            set: set.into(),
            searcher: format!("smp[threads={threads}]"),
            threads,
            speedup: Some(s),
            overhead: Some(o),
            nps_scaling: Some(s * o),
            time_to_depth_s: Some(t),
            total_nodes: Some(n),
            ..SearchRow::default()
        };
        let mc =
            |searcher: &str, threads: u32, position: &str, playouts: f64, rate: f64| SearchRow {
                game: "nim".into(),
                set: "start".into(),
                searcher: searcher.into(),
                threads,
                position: position.into(),
                playouts: Some(playouts),
                playouts_per_s: Some(rate),
                ..SearchRow::default()
            };
        let judged = |row: SearchRow, solved: bool, nodes: f64, scaling: Option<f64>| SearchRow {
            solved: Some(solved),
            nodes,
            nps_scaling: scaling,
            ..row
        };
        let one = |position: &str, rate: f64| mc("mcts[threads=1]", 1, position, 100.0, rate);
        let two = |position: &str, rate: f64| mc("mcts[threads=2]", 2, position, 1000.0, rate);
        let mut over = smp("list", 4, 1.5, 2.0, 2.0, 1000.0);
        over.oversubscribed = Some(true);
        let rows = vec![
            smp("start", 2, 2.0, 1.25, 1.0, 500.0),
            smp("start", 2, 1.0, 2.0, 3.0, 1200.0),
            smp("list", 2, 4.0, 1.0, 0.5, 800.0),
            over,
            // One thread: playouts/s 2000 on `a`, 500 on `b`; two threads: 3000 and 1000.
            judged(one("a", 2000.0), true, 50.0, None),
            judged(one("b", 500.0), false, 50.0, None),
            judged(two("a", 3000.0), true, 400.0, Some(1.5)),
            judged(two("a", 3000.0), true, 400.0, Some(1.5)),
            judged(two("b", 1000.0), false, 400.0, Some(2.0)),
            mc("flat[threads=1]", 1, "a", 50.0, 4000.0),
        ];
        Dataset::from_rows(
            std::path::Path::new("hand/searches.csv"),
            rows,
            super::super::data::RunInfo::default(),
        )
    }

    /// The table lines of `text` after the heading `heading`, up to the blank line.
    fn table(text: &str, heading: &str) -> Vec<String> {
        let rest = &text[text.find(heading).unwrap_or_else(|| panic!("{text}"))..];
        rest.lines()
            .skip_while(|l| !l.starts_with("|---"))
            .skip(1)
            .take_while(|l| l.starts_with('|'))
            .map(str::to_owned)
            .collect()
    }

    /// `line` with each interval ` [lo–hi]` left out (searcher names here have none).
    fn without_intervals(line: &str) -> String {
        let mut out = String::new();
        let mut rest = line;
        while let Some(start) = rest.find(" [") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find(']').expect("closed interval");
            rest = &rest[start + end + 1..];
        }
        out + rest
    }

    /// The scaling table as EXPERIMENTS.md and the section's own text define it: `total`
    /// columns are ratios of sums, Σ time(1) / Σ time(n) with time(1) = speedup ×
    /// time(n), Σ nodes(n) / Σ nodes(1) with nodes(1) = nodes(n) / overhead,
    /// (Σ nodes(n) / Σ time(n)) / (Σ nodes(1) / Σ time(1)), and for Monte Carlo
    /// Σ playouts/s(n) / Σ playouts/s(1); `per job` columns are geometric means of the
    /// jobs' ratios (EXPERIMENTS.md: geometric, not arithmetic); oversubscribed jobs get
    /// their own rows; a game on several sets gets `all N sets` rows pooling its jobs.
    /// Every figure below is computed by hand from `hand_made`.
    #[test]
    fn the_scaling_table_gives_ratios_of_sums_and_geometric_means_per_job() {
        let text = sections(&hand_made(), &[], None);
        let rows: Vec<String> = table(&text, "## Parallel scaling")
            .iter()
            .map(|l| without_intervals(l))
            .collect();
        let over = "**oversubscribed**: timings are time-sharing";
        let want = [
            // start: time(1) 2 + 3 = 5 over time(n) 1 + 3 = 4: 1.250; nodes(n) 500 + 1200 =
            // 1700 over nodes(1) 400 + 600 = 1000: 1.700; (1700 / 4) / (1000 / 5) = 2.125.
            // Per job: √(2 × 1) = 1.414, √(1.25 × 2) = 1.581, √(2.5 × 2) = 2.236.
            "| connect4 | start | smp | 2 | 2 | 1.250 | 1.414 | 1.700 | 1.581 | 2.125 | 2.236 \
             | no |"
                .to_owned(),
            "| connect4 | list | smp | 2 | 1 | 4.000 | 4.000 | 1.000 | 1.000 | 4.000 | 4.000 | no |"
                .to_owned(),
            format!(
                "| connect4 | list | smp | 4 | 1 | 1.500 | 1.500 | 2.000 | 2.000 | 3.000 | 3.000 \
                 | {over} |"
            ),
            // Playouts/s 3000 + 3000 + 1000 = 7000 against one thread's 2000 + 2000 + 500 =
            // 4500: 1.556; per job ∛(1.5 × 1.5 × 2) = ∛4.5 = 1.651.
            "| nim | start | mcts | 2 | 3 | – | – | – | – | 1.556 | 1.651 | no |".to_owned(),
            // Pooled: time(1) 5 + 2 = 7 over 4.5: 1.556; nodes 2500 over 1800: 1.389;
            // (2500 / 4.5) / (1800 / 7) = 2.160. Per job ∛(2 × 1 × 4) = 2, ∛2.5 = 1.357,
            // ∛(2.5 × 2 × 4) = ∛20 = 2.714.
            "| connect4 | all 2 sets | smp | 2 | 3 | 1.556 | 2.000 | 1.389 | 1.357 | 2.160 \
             | 2.714 | no |"
                .to_owned(),
            format!(
                "| connect4 | all 2 sets | smp | 4 | 1 | 1.500 | 1.500 | 2.000 | 2.000 | 3.000 \
                 | 3.000 | {over} |"
            ),
        ];
        assert_eq!(rows, want, "{text}");
        assert!(
            text.contains("speedup 2.0, 3.7, 6.6 and 11.1 on 2, 4, 8 and 16 processors"),
            "Hyatt 1997's DTS figures under the table: {text}"
        );
    }

    /// The Monte Carlo table: one row per game, set and searcher; `right` counts runs
    /// (2 of 3 for two threads) while its Wilson interval is over positions, each the share
    /// of its runs right (EXPERIMENTS.md): a rate of (1 + 0) / 2 over 2 positions. By hand,
    /// z = 1.96, z²/n = 1.921, centre (0.5 + 0.960) / 2.921 = 0.5, half-width
    /// 1.96 / 2.921 × √(0.125 + 0.240) = 0.405: 9.5%–90.5%. Searches off a test set have
    /// no `right`. Playouts/s: 1250 ± t(0.975, 1) 12.706 × 750 = [0–10780] (the lower
    /// end below 0 shown as 0), 2333.3 ± t(0.975, 2) 4.303 × 666.7 = [0–5202].
    #[test]
    fn the_monte_carlo_table_counts_runs_right_and_its_interval_over_positions() {
        let text = sections(&hand_made(), &[], None);
        let interval = "95% 9.5%–90.5% over 2 positions";
        assert_eq!(
            table(&text, "## Monte Carlo searches"),
            [
                format!(
                    "| nim | start | mcts[threads=1] | 1 | 2 | 100 | 1250 [0–10780] | 50 \
                     | 1/2 (50.0%; {interval}) |"
                ),
                format!(
                    "| nim | start | mcts[threads=2] | 2 | 3 | 1000 | 2333 [0–5202] | 400 \
                     | 2/3 (66.7%; {interval}) |"
                ),
                "| nim | start | flat[threads=1] | 1 | 1 | 50 | 4000 | 0 | – |".to_owned(),
            ],
            "{text}"
        );
    }

    /// A series as (label, kind, points as (x, y)).
    type Line = (String, SeriesKind, Vec<(f64, f64)>);

    /// `chart`'s series, y rounded to three decimals.
    fn lines(chart: &Chart) -> Vec<Line> {
        chart
            .series
            .iter()
            .map(|s| {
                let xy = s.points.iter().map(|p| (p.x, (p.y * 1e3).round() / 1e3));
                (s.label.clone(), s.kind, xy.collect())
            })
            .collect()
    }

    /// The charts of the hand-made run: the scaling charts pool connect4's two sets, 1 at
    /// one thread by definition, the geometric means of the jobs' ratios (as in the table's
    /// pooled rows), the oversubscribed job apart and unjoined, the ideal line over every
    /// thread count measured, and Hyatt's DTS figures (2.0 on 2, 3.7 on 4) up to 4
    /// threads; Monte Carlo strength is the share of runs right against log10 of the mean
    /// playouts, one series per algorithm (budget and threads out of the name); playouts/s
    /// against threads with its ideal line through one thread's mean 1250, for searchers
    /// measured at two thread counts or more (not `flat`).
    #[test]
    fn the_parallel_charts_plot_the_hand_computed_means() {
        let data = hand_made();
        let all = charts(&data);
        let stems: Vec<&str> = all.iter().map(|c| c.stem.as_str()).collect();
        assert_eq!(
            stems,
            [
                "speedup_connect4",
                "overhead_connect4",
                "nps_connect4",
                "strength_nim",
                "playouts_nim"
            ]
        );
        assert!(
            all.iter()
                .all(|c| c.group == format!("parallel_{}", c.stem))
        );
        let speedup = &all[0];
        assert_eq!(
            speedup.x_label,
            "search threads (all 2 sets pooled: list, start)"
        );
        assert_eq!(speedup.title, format!("hand: {}", speedup.caption));
        use SeriesKind::{Measured, Points, Reference};
        let ideal = |ys: [f64; 3]| vec![(1.0, ys[0]), (2.0, ys[1]), (4.0, ys[2])];
        assert_eq!(
            lines(speedup),
            [
                ("smp".into(), Measured, vec![(1.0, 1.0), (2.0, 2.0)]),
                ("smp (oversubscribed)".into(), Points, vec![(4.0, 1.5)]),
                ("ideal: n".into(), Reference, ideal([1.0, 2.0, 4.0])),
                (
                    "DTS, chess (Hyatt 1997)".into(),
                    Reference,
                    ideal([1.0, 2.0, 3.7])
                ),
            ]
        );
        // ∛2.5 = 1.357 and ∛20 = 2.714; their ideal lines are 1 and n.
        assert_eq!(lines(&all[1])[0].2, [(1.0, 1.0), (2.0, 1.357)]);
        assert_eq!(
            lines(&all[1])[2],
            (
                "ideal: 1 (no extra nodes)".into(),
                Reference,
                ideal([1.0; 3])
            )
        );
        assert_eq!(lines(&all[2])[0].2, [(1.0, 1.0), (2.0, 2.714)]);
        assert_eq!(lines(&all[2])[2].2, ideal([1.0, 2.0, 4.0]));
        // Strength: 100 playouts, 1 of 2 right; 1000 playouts, 2 of 3 right.
        let strength = &all[3];
        assert_eq!(
            lines(strength),
            [("mcts".into(), Measured, vec![(2.0, 50.0), (3.0, 66.667)])]
        );
        for p in &strength.series[0].points {
            let (lo, hi) = p.spread.unwrap();
            assert!(
                (lo - 9.453).abs() < 1e-3 && (hi - 90.547).abs() < 1e-3,
                "{lo}–{hi}"
            );
        }
        // Playouts/s: (2000 + 500) / 2 = 1250 and (3000 + 3000 + 1000) / 3 = 2333.3.
        assert_eq!(
            lines(&all[4]),
            [
                (
                    "mcts".into(),
                    Measured,
                    vec![(1.0, 1250.0), (2.0, 2333.333)]
                ),
                (
                    "ideal for mcts".into(),
                    Reference,
                    vec![(1.0, 1250.0), (2.0, 2500.0)]
                ),
            ]
        );
    }

    /// searches.csv may hold a ratio of 0 (`speedup` is "a number at least 0"), but behind
    /// it is a figure too small to measure, which EXPERIMENTS.md makes "no base for a
    /// ratio": the table gives no speedup for it, total (Σ time(1) = 0 × 1 = 0) or per
    /// job, and no chart draws a searcher with nothing but the 1 at one thread.
    #[test]
    fn a_zero_speedup_gives_no_figure_and_no_chart() {
        let row = SearchRow {
            game: "nim".into(),
            set: "start".into(),
            searcher: "smp[threads=2]".into(),
            threads: 2,
            speedup: Some(0.0),
            overhead: Some(1.0),
            nps_scaling: Some(0.0),
            time_to_depth_s: Some(1.0),
            total_nodes: Some(100.0),
            ..SearchRow::default()
        };
        let line = scaling_row("nim", "start", "smp", 2, false, &[&row]);
        assert!(
            line.starts_with("| nim | start | smp | 2 | 1 | – | – | 1.000 | 1.000 |"),
            "{line}"
        );
        let data = Dataset::from_rows(
            std::path::Path::new("zero/searches.csv"),
            vec![row],
            super::super::data::RunInfo::default(),
        );
        let stems: Vec<String> = charts(&data).into_iter().map(|c| c.stem).collect();
        assert_eq!(stems, ["overhead_nim"]);
    }

    /// Chart points are "in x order" (chart.rs, `Series::points`), and the renderer joins
    /// them in the order given: a run that lists 4 threads before 1 and 2 (an experiment
    /// sweeping `threads = [4, 1, 2]`) must still draw 1, 2, 4 from left to right.
    #[test]
    fn thread_chart_points_are_in_thread_order_whatever_the_row_order() {
        let row = |threads: u32, speedup: Option<f64>, rate: f64| SearchRow {
            game: "nim".into(),
            searcher: format!("smp[threads={threads}]"),
            threads,
            speedup,
            playouts_per_s: Some(rate),
            ..SearchRow::default()
        };
        let rows = vec![
            row(4, Some(3.0), 3000.0),
            row(1, None, 1000.0),
            row(2, Some(1.8), 1900.0),
        ];
        let data = Dataset::from_rows(
            std::path::Path::new("order/searches.csv"),
            rows,
            super::super::data::RunInfo::default(),
        );
        let all = charts(&data);
        let xy = |stem: &str, label: &str| -> Vec<(f64, f64)> {
            let chart = all.iter().find(|c| c.stem == stem).expect(stem);
            let series = chart.series.iter().find(|s| s.label == label).expect(label);
            let round = |y: f64| (y * 1e9).round() / 1e9;
            series.points.iter().map(|p| (p.x, round(p.y))).collect()
        };
        assert_eq!(
            xy("speedup_nim", "smp"),
            [(1.0, 1.0), (2.0, 1.8), (4.0, 3.0)]
        );
        assert_eq!(
            xy("playouts_nim", "smp"),
            [(1.0, 1000.0), (2.0, 1900.0), (4.0, 3000.0)]
        );
        // The ideal line through one thread's 1000 playouts/s: 1000 × n.
        assert_eq!(
            xy("playouts_nim", "ideal for smp"),
            [(1.0, 1000.0), (2.0, 2000.0), (4.0, 4000.0)]
        );
    }

    /// summary.md links the section's charts in the format asked for, and only those.
    #[test]
    fn the_sections_link_their_charts_only() {
        let data = hand_made();
        let mut all = charts(&data);
        let mut other = all[0].clone();
        other.group = "nodes_b4".into();
        other.stem = "nodes_b4".into();
        all.push(other);
        let text = sections(&data, &all, Some(Format::Svg));
        assert!(text.contains("\n![speedup against threads, connect4](speedup_connect4.svg)\n"));
        assert!(text.contains("](playouts_nim.svg)\n"), "{text}");
        assert!(!text.contains("nodes_b4"), "{text}");
        assert!(!sections(&data, &all, None).contains("!["));
    }

    /// Two positions searched three times each, one always right, one once: 4/6 runs, and
    /// the interval is that of a rate of (1 + 1/3)/2 over two positions, not over six runs.
    #[test]
    fn monte_carlo_rightness_counts_a_position_once() {
        let row = |position: &str, solved: bool| SearchRow {
            position: position.into(),
            solved: Some(solved),
            ..SearchRow::default()
        };
        let rows = [
            row("a", true),
            row("a", true),
            row("a", true),
            row("b", true),
            row("b", false),
            row("b", false),
        ];
        let r = rightness(&rows.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!((r.right, r.runs, r.positions), (4, 6, 2));
        let i = r.interval.unwrap();
        let over_positions = super::wilson_rate(2.0 / 3.0, 2, super::LEVEL).unwrap();
        assert_eq!((i.lo, i.hi), (over_positions.lo, over_positions.hi));
        assert!(i.hi - i.lo > 0.5, "two positions: a wide interval");
    }

    #[test]
    fn the_dts_line_stops_at_the_most_threads_measured() {
        let xy = |max: f64| -> Vec<(f64, f64)> {
            dts_reference(max)
                .points
                .iter()
                .map(|p| (p.x, p.y))
                .collect()
        };
        assert_eq!(xy(8.0), [(1.0, 1.0), (2.0, 2.0), (4.0, 3.7), (8.0, 6.6)]);
        assert_eq!(
            xy(16.0).last(),
            Some(&(16.0, 11.1)),
            "Hyatt 1997: 11.1 on 16"
        );
        assert_eq!(xy(12.0).len(), 4, "no point beyond the data");
    }

    /// A game measured on two sets: its pooled row takes every job of both, and its charts'
    /// thread axis names the sets it pools.
    #[test]
    fn a_game_of_several_sets_is_pooled_in_the_table_and_named_on_the_axis() {
        let row = |set: &str, speedup: f64| SearchRow {
            game: "connect4".into(),
            set: set.into(),
            searcher: "smp[threads=2]".into(),
            threads: 2,
            speedup: Some(speedup),
            ..SearchRow::default()
        };
        let rows = [row("start", 2.0), row("list", 1.0), row("list", 4.0)];
        assert_eq!(
            threads_label(rows.iter()),
            "search threads (all 2 sets pooled: list, start)"
        );
        assert_eq!(threads_label(rows[1..].iter()), "search threads");
        let all: Vec<&SearchRow> = rows.iter().collect();
        let line = scaling_row("connect4", "all 2 sets", "smp", 2, false, &all);
        // The geometric mean of 2, 1 and 4 is 2.
        assert!(
            line.starts_with("| connect4 | all 2 sets | smp | 2 | 3 | – | 2.000 ["),
            "{line}"
        );
    }

    #[test]
    fn thread_counts_are_taken_out_of_searcher_names() {
        assert_eq!(without_threads("smp[threads=2]"), "smp");
        assert_eq!(without_threads("smp[threads=8 tt_mb=16]"), "smp[tt_mb=16]");
        assert_eq!(
            without_threads("uct[exploration=0.5]"),
            "uct[exploration=0.5]"
        );
        assert_eq!(without_threads("flat"), "flat");
    }
}
