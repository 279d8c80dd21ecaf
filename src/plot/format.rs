//! The cells and links of summary.md's tables, one format for every section: counts,
//! ratios, percentages and seconds, a mean with its interval, the empty cell, chart links.

use std::fmt::Write as _;

use super::Format;
use super::chart::Chart;
use super::stats::Stats;

/// A markdown image line per chart, linking its file in `format`.
pub(super) fn chart_links<'a>(charts: impl Iterator<Item = &'a Chart>, format: Format) -> String {
    let mut out = String::new();
    for chart in charts {
        let _ = writeln!(
            out,
            "![{}]({}.{})",
            chart.caption,
            chart.stem,
            format.extension()
        );
    }
    out
}

/// The mark of an empty cell.
pub(super) fn dash() -> String {
    "–".into()
}

/// "mean [lo–hi]" with the mean's 95% t interval, or just the mean when all values are
/// equal or there is one; "–" when there are none.
pub(super) fn cell(stats: Option<Stats>, f: fn(f64) -> String) -> String {
    match stats {
        None => dash(),
        Some(s) if s.min == s.max => f(s.mean),
        Some(Stats {
            mean,
            min,
            interval: Some(i),
            ..
        }) => {
            // Counts, rates and times are never negative: a lower end below 0 (skewed
            // data, few runs) is shown as 0.
            let lo = if min >= 0.0 { i.lo.max(0.0) } else { i.lo };
            format!("{} [{}–{}]", f(mean), f(lo), f(i.hi))
        }
        Some(s) => f(s.mean),
    }
}

/// The mean alone, in `f`'s format; "–" when there are no values.
pub(super) fn mean(stats: Option<Stats>, f: fn(f64) -> String) -> String {
    stats.map_or_else(dash, |s| f(s.mean))
}

/// A count: whole where it is, else to one decimal (a mean over repetitions).
pub(super) fn fmt_count(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// A number rounded to a whole one.
pub(super) fn fmt_integer(x: f64) -> String {
    format!("{x:.0}")
}

/// A ratio to three decimals.
pub(super) fn fmt_ratio(x: f64) -> String {
    format!("{x:.3}")
}

/// A fraction as a percentage to one decimal.
pub(super) fn fmt_percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Seconds to four decimals.
pub(super) fn fmt_seconds(x: f64) -> String {
    format!("{x:.4}")
}
