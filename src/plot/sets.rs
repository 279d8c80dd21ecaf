//! The summary.md sections for test sets (positions with known answers) and for published
//! reference figures: per set and searcher, how many positions were answered exactly and how
//! many nodes a position cost, beside what the literature reports.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Format;
use super::chart::{Chart, Point, Series, SeriesKind, YScale};
use super::data::{Reference, SearchRow};
use super::model::Dataset;
use super::stats::{Geometric, LEVEL, Paired, Stats, median, wilson_rate};

/// Group prefix of the test-set charts.
const SET_GROUP: &str = "set_";

/// Per test set, two charts with one point per searcher (x = the searcher's place in the
/// legend): the share of positions answered exactly (bars: its Wilson interval), and the
/// geometric mean of the nodes per position (bars: the 95% interval of the log-mean). Together they show what each configuration buys and what it costs.
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
    // Where searchers ran on different numbers of the set's positions, each label says how
    // many: their points are not over the same positions.
    let uneven = of_set
        .iter()
        .any(|(_, jobs)| jobs.len() != of_set[0].1.len());
    let series = |value: &dyn Fn(&[JobTotal]) -> Option<Point>| -> Vec<Series> {
        of_set
            .iter()
            .enumerate()
            .filter_map(|(i, (searcher, jobs))| {
                let mut point = value(jobs)?;
                point.x = i as f64 + 1.0;
                Some(Series {
                    label: if uneven {
                        let n = jobs.len();
                        format!("{searcher} ({n} position{})", if n == 1 { "" } else { "s" })
                    } else {
                        (*searcher).clone()
                    },
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
        let (exact, judged) = exact_of(jobs);
        let rate = exact / judged.max(1) as f64;
        (judged > 0).then(|| Point {
            x: 0.0,
            y: 100.0 * rate,
            spread: wilson_rate(rate, judged, LEVEL).map(|i| (100.0 * i.lo, 100.0 * i.hi)),
        })
    });
    // The geometric mean, as the table's first nodes column: a few costly positions do not
    // dominate it, and its interval is symmetric on the log axis.
    let cost = series(&|jobs| {
        let nodes: Vec<f64> = jobs.iter().map(|j| j.nodes).collect();
        Geometric::of(&nodes, LEVEL).map(|g| Point {
            x: 0.0,
            y: g.mean,
            spread: g.interval.map(|i| (i.lo, i.hi)),
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
            "answered exactly (% of positions, bars 95% Wilson interval)",
            scale,
            solved,
        ));
    }
    if !cost.is_empty() {
        out.push(chart(
            "cost",
            "nodes per position",
            "nodes per position, all iterations (geometric mean, bars 95%, log scale)",
            YScale::Log,
            cost,
        ));
    }
    out
}

/// Sets that are not test sets: positions without known answers.
const NOT_TEST_SETS: [&str; 4] = ["", "start", "list", "random_tree"];

/// One job's totals: nodes and seconds over every iteration (the interrupted last one
/// included where the CSV has `total_nodes` and `total_s`), and the final verdict; once
/// [`by_position`] has merged a position's repetitions, their means and the share of them
/// answered exactly.
#[derive(Default)]
struct JobTotal {
    /// The job's identity, to pair it with another searcher's job on the same position.
    key: JobKey,
    nodes: f64,
    seconds: f64,
    /// Nodes and seconds of the completed iterations alone.
    completed_nodes: f64,
    completed_seconds: f64,
    /// Those of the later searches of a job played out, which the first search's totals
    /// leave out.
    later_nodes: f64,
    later_seconds: f64,
    total_nodes: Option<f64>,
    total_s: Option<f64>,
    solved: Option<bool>,
    /// The share of the position's repetitions answered exactly (`None`: not judged).
    exact: Option<f64>,
}

impl JobTotal {
    /// Takes the totals of the whole search (and the later searches of a play-out) over the
    /// sums of completed iterations.
    fn finish(mut self) -> Self {
        self.nodes = self
            .total_nodes
            .map_or(self.completed_nodes, |n| n + self.later_nodes);
        self.seconds = self
            .total_s
            .map_or(self.completed_seconds, |s| s + self.later_seconds);
        self
    }
}

/// A (set, searcher) pair.
type SetKey = (String, String);
/// A job's identity within a set: (position, seed, repetition).
type JobKey = (String, String, String);

/// One total per position of `jobs`: its repetitions (and seeds) merged, so that each
/// position counts once in the rates, intervals and paired tests (repeated searches of one
/// position are not independent positions: a deterministic searcher repeats itself). Nodes
/// and seconds are the means over the repetitions; `exact` the share answered exactly.
fn by_position(jobs: impl IntoIterator<Item = JobTotal>) -> Vec<JobTotal> {
    let mut positions: BTreeMap<String, Vec<JobTotal>> = BTreeMap::new();
    for job in jobs {
        positions.entry(job.key.0.clone()).or_default().push(job);
    }
    positions
        .into_iter()
        .map(|(position, reps)| {
            let n = reps.len() as f64;
            let mean = |f: fn(&JobTotal) -> f64| reps.iter().map(f).sum::<f64>() / n;
            let judged: Vec<bool> = reps.iter().filter_map(|j| j.solved).collect();
            JobTotal {
                key: (position, String::new(), String::new()),
                nodes: mean(|j| j.nodes),
                seconds: mean(|j| j.seconds),
                completed_nodes: mean(|j| j.completed_nodes),
                completed_seconds: mean(|j| j.completed_seconds),
                exact: (!judged.is_empty())
                    .then(|| judged.iter().filter(|s| **s).count() as f64 / judged.len() as f64),
                ..JobTotal::default()
            }
        })
        .collect()
}

/// (set, searcher) -> the positions of that searcher on that set ([`by_position`]), in
/// first-seen order of pairs.
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
        let total = jobs
            .entry(key)
            .or_default()
            .entry(job.clone())
            .or_insert_with(|| JobTotal {
                key: job,
                ..JobTotal::default()
            });
        total.completed_nodes += row.nodes;
        total.completed_seconds += row.elapsed_s.unwrap_or(0.0);
        if row.later_search {
            total.later_nodes += row.nodes;
            total.later_seconds += row.elapsed_s.unwrap_or(0.0);
        }
        // The first search's last row carries the whole search's work.
        if total.total_nodes.is_none() {
            total.total_nodes = row.total_nodes;
            total.total_s = row.total_s;
        }
        total.solved = row.solved.or(total.solved);
    }
    order
        .into_iter()
        .map(|key| {
            let totals = jobs
                .remove(&key)
                .map(|m| by_position(m.into_values().map(JobTotal::finish)))
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
            out.push_str(&super::format::chart_links(set_charts, format));
        }
    }
    if !data.run.references.is_empty() {
        out.push_str(&reference_table(&sets, &data.run.references));
    }
    out
}

fn test_set_table(sets: &[(SetKey, Vec<JobTotal>)]) -> String {
    let mut out = String::from(
        "\n## Test sets\n\nPer position: the work of the whole search, every iteration \
         including one a time or node limit interrupted (`total_nodes`, `total_s`; the sum of \
         the completed iterations where the CSV lacks them), and, apart, the work to the \
         final completed iteration. exact = the final answer equals the set's known score, \
         proven; in brackets its 95% Wilson interval. A position searched more than once \
         (repetitions) counts once: its nodes and seconds are the means over its searches, \
         and it counts as the share of them answered exactly (to two decimals where they \
         disagree). Nodes: geometric mean [95% interval \
         of the log-mean], median, and arithmetic mean [95% t interval], which a few costly \
         positions dominate (a lower end below 0 is shown as 0).\n\n\
         | set | searcher | positions | exact | 95% interval | nodes: geometric mean [95%] | median | mean [95%] | to the final completed iteration: geometric mean | time per position (s): mean [95%] |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for ((set, searcher), jobs) in sets {
        let (exact, judged) = exact_of(jobs);
        let nodes: Vec<f64> = jobs.iter().map(|j| j.nodes).collect();
        let completed: Vec<f64> = jobs.iter().map(|j| j.completed_nodes).collect();
        let seconds: Vec<f64> = jobs.iter().map(|j| j.seconds).collect();
        let rate = wilson_rate(exact / judged.max(1) as f64, judged, LEVEL).map_or_else(
            || "–".into(),
            |i| format!("{:.1}–{:.1}%", 100.0 * i.lo, 100.0 * i.hi),
        );
        let count = |x: f64| format!("{x:.0}");
        let _ = writeln!(
            out,
            "| {set} | {searcher} | {} | {}/{judged} | {rate} | {} | {} | {} | {} | {} |",
            jobs.len(),
            share(exact),
            geometric(&nodes, count),
            median(&nodes).map_or_else(|| "–".into(), count),
            mean_interval(&nodes, count),
            Geometric::of(&completed, LEVEL).map_or_else(|| "–".into(), |g| count(g.mean)),
            mean_interval(&seconds, |x| format!("{x:.6}")),
        );
    }
    out.push_str(&paired_table(sets));
    out
}

/// The positions answered exactly (each its share of repetitions) and the positions judged.
fn exact_of(positions: &[JobTotal]) -> (f64, usize) {
    let judged: Vec<f64> = positions.iter().filter_map(|p| p.exact).collect();
    // A fold from +0.0: an empty f64 sum is -0.0, which would print as "-0".
    (judged.iter().fold(0.0, |a, b| a + b), judged.len())
}

/// A count of positions answered exactly: whole, or to two decimals where repetitions of a
/// position disagreed.
fn share(exact: f64) -> String {
    if (exact - exact.round()).abs() < 1e-9 {
        format!("{exact:.0}")
    } else {
        format!("{exact:.2}")
    }
}

/// "G [lo–hi]": a geometric mean with its interval; "–" if a value is not positive.
pub(super) fn geometric(values: &[f64], f: impl Fn(f64) -> String) -> String {
    match Geometric::of(values, LEVEL) {
        None => "–".into(),
        Some(Geometric {
            mean,
            interval: None,
            ..
        }) => f(mean),
        Some(Geometric {
            mean,
            interval: Some(i),
            ..
        }) if f(i.lo) != f(i.hi) => format!("{} [{}–{}]", f(mean), f(i.lo), f(i.hi)),
        Some(g) => f(g.mean),
    }
}

/// "M [lo–hi]": an arithmetic mean with its t interval.
pub(super) fn mean_interval(values: &[f64], f: impl Fn(f64) -> String) -> String {
    let Some(stats) = Stats::of(values) else {
        return "–".into();
    };
    match super::stats::t_interval(values, LEVEL) {
        // Counts and times are never negative: a lower end below 0 (skewed data, few
        // positions) is shown as 0.
        Some(i) if stats.min >= 0.0 => {
            format!("{} [{}–{}]", f(stats.mean), f(i.lo.max(0.0)), f(i.hi))
        }
        Some(i) => format!("{} [{}–{}]", f(stats.mean), f(i.lo), f(i.hi)),
        None => f(stats.mean),
    }
}

/// Each searcher of a set against the set's first searcher, on the positions both searched:
/// the per-position ratio of total nodes, its geometric mean and interval, its median, and
/// the sign and Wilcoxon signed-rank tests of "neither needs fewer nodes".
fn paired_table(sets: &[(SetKey, Vec<JobTotal>)]) -> String {
    let mut out = String::new();
    let mut done: Vec<&str> = Vec::new();
    for ((set, _), _) in sets {
        if done.contains(&set.as_str()) {
            continue;
        }
        done.push(set);
        let of_set: Vec<(&String, &Vec<JobTotal>)> = sets
            .iter()
            .filter(|((s, _), _)| s == set)
            .map(|((_, searcher), jobs)| (searcher, jobs))
            .collect();
        let Some(((base_name, base), others)) = of_set.split_first() else {
            continue;
        };
        for (name, jobs) in others {
            let pairs: Vec<(f64, f64)> = jobs
                .iter()
                .filter_map(|j| {
                    let b = base.iter().find(|k| k.key == j.key)?;
                    (b.nodes > 0.0 && j.nodes > 0.0).then_some((b.nodes, j.nodes))
                })
                .collect();
            let Some(p) = Paired::of(&pairs, LEVEL) else {
                continue;
            };
            if out.is_empty() {
                out.push_str(
                    "\n### Paired comparisons\n\n\
                     Each searcher against the set's first, on the positions both searched: \
                     per position the ratio of total nodes (searcher / first). Geometric mean \
                     of the ratios with its 95% interval (t interval of the log ratios), their \
                     median, the positions where the searcher needed fewer / more nodes, the \
                     exact two-sided sign test and the Wilcoxon signed-rank test (normal \
                     approximation with tie and continuity corrections) of \"neither needs \
                     fewer\".\n\n\
                     | set | searcher | against | positions | node ratio: geometric mean [95%] | median | fewer / more | sign test p | Wilcoxon p |\n\
                     |---|---|---|---:|---:|---:|---:|---:|---:|\n",
                );
            }
            let ratio = |x: f64| format!("{x:.3}");
            let interval = p.ratio.interval.map_or_else(String::new, |i| {
                format!(" [{}–{}]", ratio(i.lo), ratio(i.hi))
            });
            let _ = writeln!(
                out,
                "| {set} | {name} | {base_name} | {} | {}{interval} | {} | {} / {} | {} | {} |",
                p.n,
                ratio(p.ratio.mean),
                ratio(p.median),
                p.fewer,
                p.more,
                fmt_p(p.sign_p),
                p.wilcoxon_p.map_or_else(|| "–".into(), fmt_p),
            );
        }
    }
    out
}

/// A p-value: three decimals, in scientific notation below 0.001, "< 1e-6" below that.
pub(super) fn fmt_p(p: f64) -> String {
    if p < 1e-6 {
        "< 1e-6".into()
    } else if p < 1e-3 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
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

#[cfg(test)]
mod tests {
    use super::fmt_p;

    /// `fmt_p`'s doc: three decimals, scientific notation below 0.001, "< 1e-6" below that;
    /// a bound itself is not below itself, so it prints in the range above it.
    #[test]
    fn a_p_value_at_a_bound_prints_in_the_range_above_it() {
        assert_eq!(fmt_p(1e-3), "0.001");
        assert_eq!(fmt_p(1e-6), "1.0e-6");
        assert_eq!(fmt_p(0.25), "0.250");
    }
}
