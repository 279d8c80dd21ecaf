//! Axis ranges and tick positions, computed once so that labels never crowd.
//!
//! Log axes are drawn in log10 space: values are transformed before drawing and the tick
//! labels show the original values.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};

use super::chart::{Chart, SeriesKind, YScale};
use super::model::fmt_plain;

/// At most this many tick labels on an axis.
const MAX_TICKS: usize = 12;

/// A drawn axis: range and ticks in drawing space, and whether it is logarithmic.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Low end, in drawing space.
    pub lo: f64,
    /// High end, in drawing space.
    pub hi: f64,
    /// Tick positions, in drawing space.
    pub ticks: Vec<f64>,
    /// Base-10 logarithmic.
    pub log: bool,
}

impl Axis {
    /// Drawing-space position of a data value (`None` if a log axis cannot show it).
    #[must_use]
    pub fn map(&self, v: f64) -> Option<f64> {
        match (self.log, v > 0.0) {
            (false, _) if v.is_finite() => Some(v),
            (true, true) if v.is_finite() => Some(v.log10()),
            _ => None,
        }
    }

    /// Tick label for a drawing-space position.
    #[must_use]
    pub fn label(&self, t: f64) -> String {
        if self.log {
            power_of_ten(t.round() as i32)
        } else {
            fmt_plain(t)
        }
    }
}

/// Plotters draws an [`Axis`] directly: ticks are exactly [`Axis::ticks`].
impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        if span <= 0.0 {
            return (limit.0 + limit.1) / 2;
        }
        let t = (value - self.lo) / span;
        limit.0 + (f64::from(limit.1 - limit.0) * t).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// The x axis of per-depth charts: integer ticks, padded half a step on each side.
#[must_use]
pub fn x_axis(chart: &Chart) -> Axis {
    let xs = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.x));
    let (lo, hi) = bounds(xs).unwrap_or((0.0, 1.0));
    let step = ((hi - lo) / MAX_TICKS as f64).ceil().max(1.0);
    let first = lo.ceil();
    let ticks = (0..=MAX_TICKS)
        .map(|i| first + step * i as f64)
        .take_while(|t| *t <= hi)
        .collect();
    let pad = if hi > lo { 0.3 } else { 1.0 };
    Axis {
        lo: lo - pad,
        hi: hi + pad,
        ticks,
        log: false,
    }
}

/// The y axis: whole decades for log scales, a 1-2-5 step for linear ones. The range comes
/// from the measured data (values and error bars) alone: a reference line (b^d, B^d) never
/// stretches it, and is cut at its edges. Only a chart of references alone takes theirs.
#[must_use]
pub fn y_axis(chart: &Chart) -> Axis {
    let measured = chart.series.iter().any(|s| s.kind != SeriesKind::Reference);
    let ys_of = |with_references: bool| {
        chart
            .series
            .iter()
            .filter(move |s| with_references || !measured || s.kind != SeriesKind::Reference)
            .flat_map(|s| {
                s.points
                    .iter()
                    .flat_map(|p| [Some(p.y), p.spread.map(|x| x.0), p.spread.map(|x| x.1)])
                    .flatten()
            })
    };
    let ys = || ys_of(false);
    match chart.y_scale {
        YScale::Log => log_axis(bounds(ys().filter(|y| *y > 0.0))),
        YScale::Linear { range: Some(r) } => linear_axis(r.0, r.1),
        YScale::Linear { range: None } => {
            let data = bounds(ys()).unwrap_or((0.0, 1.0));
            // On a linear axis a reference within 10× the data's top (an ideal speedup of
            // n, a branching factor) is kept whole; a larger one would flatten the data.
            let all = bounds(ys_of(true)).unwrap_or(data);
            let (lo, hi) = if all.1 <= 10.0 * data.1.max(0.0) {
                all
            } else {
                data
            };
            let hi = if hi > 0.0 { hi * 1.08 } else { hi };
            linear_axis(lo.min(0.0), hi.max(lo.min(0.0) + 1e-9))
        }
    }
}

fn bounds(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

fn log_axis(bounds: Option<(f64, f64)>) -> Axis {
    let (lo, hi) = bounds.unwrap_or((1.0, 10.0));
    let lo = lo.log10().floor();
    let hi = lo.max(hi.log10().ceil()).max(lo + 1.0);
    let step = ((hi - lo) / MAX_TICKS as f64).ceil().max(1.0);
    let ticks = (0..)
        .map(|i| lo + step * f64::from(i))
        .take_while(|t| *t <= hi)
        .collect();
    Axis {
        lo,
        hi,
        ticks,
        log: true,
    }
}

fn linear_axis(lo: f64, hi: f64) -> Axis {
    // A span too narrow to tick (every value the same: an all-draw match's Elo 0 with no
    // interval) is one unit either side of it, not ticks all labelled alike.
    let (lo, hi) = if hi - lo > 1e-6 * lo.abs().max(hi.abs()).max(1.0) {
        (lo, hi)
    } else {
        (lo - 1.0, hi + 1.0)
    };
    let step = nice_step((hi - lo) / (MAX_TICKS - 2) as f64);
    let lo = (lo / step).floor() * step;
    let hi = (hi / step).ceil() * step;
    let n = ((hi - lo) / step).round() as usize;
    let ticks = (0..=n).map(|i| lo + step * i as f64).collect();
    Axis {
        lo,
        hi,
        ticks,
        log: false,
    }
}

/// The smallest of 1, 2, 5 × 10^k that is at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let decade = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * decade)
}

/// `10^k` in compact form: 1, 10, 100, 1k, ..., 100M, 1G, then 1e12 and so on.
fn power_of_ten(k: i32) -> String {
    const NAMES: [(i32, &str); 3] = [(9, "G"), (6, "M"), (3, "k")];
    if !(0..12).contains(&k) {
        return format!("1e{k}");
    }
    NAMES.iter().find(|(e, _)| k >= *e).map_or_else(
        || format!("{}", 10i64.pow(k as u32)),
        |(e, name)| format!("{}{name}", 10i64.pow((k - e) as u32)),
    )
}

/// The parts of the polyline `line` (drawing space) that lie between `lo` and `hi` in y,
/// cut where it crosses them: a reference curve drawn on an axis chosen from the data.
#[must_use]
pub fn clip_y(line: &[(f64, f64)], lo: f64, hi: f64) -> Vec<Vec<(f64, f64)>> {
    let mut parts: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let mut close = |current: &mut Vec<(f64, f64)>| {
        if current.len() > 1 {
            parts.push(std::mem::take(current));
        }
        current.clear();
    };
    if let [(x, y)] = line
        && (lo..=hi).contains(y)
    {
        return vec![vec![(*x, *y)]];
    }
    for pair in line.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        // The part t0..t1 of the segment (t in 0..1) where lo <= y <= hi.
        let (t0, t1) = if y0 == y1 {
            if (lo..=hi).contains(&y0) {
                (0.0, 1.0)
            } else {
                (1.0, 0.0)
            }
        } else {
            let (a, b) = ((lo - y0) / (y1 - y0), (hi - y0) / (y1 - y0));
            (a.min(b).max(0.0), a.max(b).min(1.0))
        };
        if t0 > t1 {
            close(&mut current);
            continue;
        }
        let at = |t: f64| (x0 + t * (x1 - x0), (y0 + t * (y1 - y0)).clamp(lo, hi));
        let start = at(t0);
        if current.last() != Some(&start) {
            close(&mut current);
            current.push(start);
        }
        current.push(at(t1));
        if t1 < 1.0 {
            close(&mut current);
        }
    }
    close(&mut current);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_lines_are_cut_at_the_axis() {
        // Rises through the top between x = 1 and 2: kept up to the crossing at y = 10.
        let parts = clip_y(&[(0.0, 0.0), (1.0, 5.0), (2.0, 15.0)], 0.0, 10.0);
        assert_eq!(parts, vec![vec![(0.0, 0.0), (1.0, 5.0), (1.5, 10.0)]]);
        // Wholly above: nothing.
        assert!(clip_y(&[(0.0, 20.0), (1.0, 30.0)], 0.0, 10.0).is_empty());
        // Comes down into the range and leaves it again.
        let parts = clip_y(&[(0.0, 20.0), (1.0, 5.0), (2.0, -10.0)], 0.0, 10.0);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].len(), 3);
        assert!((parts[0][0].1 - 10.0).abs() < 1e-9 && (parts[0][2].1).abs() < 1e-9);
    }

    #[test]
    fn references_never_stretch_the_y_axis() {
        use super::super::chart::{Point, Series};
        let series = |kind, ys: &[f64]| Series {
            label: "s".into(),
            kind,
            slot: 0,
            points: ys
                .iter()
                .enumerate()
                .map(|(i, &y)| Point::new(i as f64, y))
                .collect(),
        };
        let chart = Chart {
            stem: "n".into(),
            group: "g".into(),
            caption: "c".into(),
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            y_scale: YScale::Log,
            series: vec![
                series(SeriesKind::Measured, &[10.0, 5000.0]),
                series(SeriesKind::Reference, &[10.0, 1e50]),
            ],
        };
        let a = y_axis(&chart);
        assert_eq!((a.lo, a.hi), (1.0, 4.0));
    }

    #[test]
    fn powers_of_ten_are_compact() {
        let got: Vec<String> = [0, 1, 2, 3, 5, 6, 9, 11, 12, -1]
            .into_iter()
            .map(power_of_ten)
            .collect();
        let want = [
            "1", "10", "100", "1k", "100k", "1M", "1G", "100G", "1e12", "1e-1",
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(1.3), 2.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(12.5), 20.0);
        assert_eq!(nice_step(10.0), 10.0);
    }

    #[test]
    fn linear_axis_covers_range_with_few_ticks() {
        let a = linear_axis(0.0, 100.0);
        assert_eq!((a.lo, a.hi), (0.0, 100.0));
        assert!(a.ticks.len() <= MAX_TICKS + 1);
        let a = linear_axis(0.0, 4.3);
        assert!(a.hi >= 4.3 && a.ticks.len() <= MAX_TICKS + 1);
        // One value alone (an all-draw match's Elo): a unit either side, a few whole ticks.
        for v in [0.0, 250.0] {
            let a = linear_axis(v, v);
            assert_eq!((a.lo, a.hi), (v - 1.0, v + 1.0));
            assert!(a.ticks.len() <= MAX_TICKS + 1, "{:?}", a.ticks);
        }
    }

    #[test]
    fn log_axis_is_whole_decades() {
        let a = log_axis(Some((3.0, 2000.0)));
        assert_eq!((a.lo, a.hi), (0.0, 4.0));
        assert_eq!(a.ticks, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        let a = log_axis(Some((1.0, 1e30)));
        assert!(a.ticks.len() <= MAX_TICKS + 1);
    }
}
