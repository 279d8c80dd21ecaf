//! summary.md sections for Monte Carlo searches and for parallel scaling.
//!
//! Both read only columns of searches.csv: `playouts`, `playouts_per_s` and `solved` for Monte
//! Carlo rows; `speedup`, `overhead`, `nps_scaling`, `time_to_depth_s`, `total_nodes` and
//! `oversubscribed` for jobs with several threads (the runner compares each with its
//! one-thread twin: the same searcher, position, limits and repetition).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::data::SearchRow;
use super::model::Dataset;
use super::stats::Stats;
use super::summary::{cell, dash, fmt_count, fmt_integer, fmt_percent, fmt_ratio};

/// The Monte Carlo and parallel-scaling sections (empty when the data has neither).
#[must_use]
pub fn sections(data: &Dataset) -> String {
    let mut out = monte_carlo(data);
    out.push_str(&scaling(data));
    out
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
         solving the position after it.\n\n\
         | game | set | searcher | threads | runs | playouts | playouts/s | tree nodes | right |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for ((game, set, searcher), rows) in groups {
        let judged: Vec<bool> = rows.iter().filter_map(|r| r.solved).collect();
        let right = if judged.is_empty() {
            dash()
        } else {
            let n = judged.iter().filter(|&&s| s).count();
            format!(
                "{n}/{} ({})",
                judged.len(),
                fmt_percent(n as f64 / judged.len() as f64)
            )
        };
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

/// Per game, set, searcher and thread count: the speedup, overhead and throughput scaling
/// against one thread, as a ratio of sums over the jobs and as the mean of per-job ratios.
fn scaling(data: &Dataset) -> String {
    let rows = data
        .rows
        .iter()
        .filter(|r| r.speedup.is_some() || r.nps_scaling.is_some());
    let groups = grouped(rows, |r| {
        (
            r.game.clone(),
            r.set.clone(),
            without_threads(&r.searcher),
            r.threads,
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
         sums over the jobs (Σ time(1) / Σ time(n), ...); `per job` are means [min–max] of \
         the jobs' own ratios. `oversubscribed`: jobs whose threads outnumbered the free \
         cores, so their timings measure time-sharing, not parallel search.\n\n\
         | game | set | searcher | threads | jobs | speedup total | speedup per job | overhead total | overhead per job | nps scaling total | nps scaling per job | oversubscribed |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for ((game, set, searcher, threads), rows) in groups {
        let totals = Totals::of(&rows);
        let over = rows
            .iter()
            .filter(|r| r.oversubscribed == Some(true))
            .count();
        let _ = writeln!(
            out,
            "| {game} | {set} | {searcher} | {threads} | {} | {} | {} | {} | {} | {} | {} | {} |",
            rows.len(),
            totals.speedup.map_or_else(dash, fmt_ratio),
            cell(stats(&rows, |r| r.speedup), fmt_ratio),
            totals.overhead.map_or_else(dash, fmt_ratio),
            cell(stats(&rows, |r| r.overhead), fmt_ratio),
            totals.nps_scaling.map_or_else(dash, fmt_ratio),
            cell(stats(&rows, |r| r.nps_scaling), fmt_ratio),
            if over == 0 {
                "no".to_owned()
            } else {
                format!("{over}/{}", rows.len())
            },
        );
    }
    out
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
    use super::without_threads;

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
