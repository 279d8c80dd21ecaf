//! Axis ranges and tick positions, computed once so that labels never crowd.
//!
//! Log axes are drawn in log10 space: values are transformed before drawing and the tick
//! labels show the original values.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};

use super::chart::{Chart, SeriesKind, YScale};
use super::model::fmt_plain;

/// An axis's ticks span at most this many steps (depths, decades, 1-2-5 steps), so an axis
/// has at most one more tick label.
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

/// The x axis of per-depth charts: integer ticks, padded 0.3 of a depth on each side (less
/// than half a step, so no tick falls beyond the data); a single depth is centred in ±1.
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
/// from the measured data (values and error bars): on a log axis a reference line (b^d,
/// B^d) never stretches it and is cut at its edges; on a linear axis a reference within 10×
/// the data's top (an ideal speedup) is kept whole and a larger one is cut. Only a chart of
/// references alone takes theirs.
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
            linear_axis(lo.min(0.0), hi)
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
        // A low end below zero is covered too: -7..100 by 20 starts at -20.
        let a = linear_axis(-7.0, 100.0);
        assert_eq!((a.lo, a.hi), (-20.0, 100.0));
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

    /// A chart of one series per `(kind, points)`, on the y scale `y_scale`.
    fn chart_of(y_scale: YScale, series: &[(SeriesKind, &[(f64, f64)])]) -> Chart {
        use super::super::chart::{Point, Series};
        Chart {
            stem: "n".into(),
            group: "g".into(),
            caption: "c".into(),
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            y_scale,
            series: series
                .iter()
                .map(|(kind, points)| Series {
                    label: "s".into(),
                    kind: *kind,
                    slot: 0,
                    points: points.iter().map(|&(x, y)| Point::new(x, y)).collect(),
                })
                .collect(),
        }
    }

    /// Data values reach drawing space as the module docs say: unchanged on a linear axis,
    /// as their base-10 logarithm on a log axis; what an axis cannot show maps to nothing:
    /// a value that is not finite, and on a log axis zero and below (`YScale::Log`'s docs:
    /// non-positive values are not drawn).
    #[test]
    fn values_map_to_drawing_space_or_to_nothing() {
        let linear = Axis {
            lo: 0.0,
            hi: 10.0,
            ticks: Vec::new(),
            log: false,
        };
        let log = Axis {
            log: true,
            ..linear.clone()
        };
        assert_eq!(linear.map(3.5), Some(3.5));
        assert_eq!(linear.map(-2.0), Some(-2.0));
        assert_eq!(linear.map(0.0), Some(0.0));
        // log10(100) = 2, log10(0.01) = -2.
        assert_eq!(log.map(100.0), Some(2.0));
        assert_eq!(log.map(0.01), Some(-2.0));
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(linear.map(v), None, "linear {v}");
        }
        for v in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            assert_eq!(log.map(v), None, "log {v}");
        }
    }

    /// Tick labels show the original values (module docs): tick k of a log axis is 10^k,
    /// written as `power_of_ten` documents (10^3 is 1k); a linear tick is its own value.
    #[test]
    fn tick_labels_show_the_original_values() {
        let linear = Axis {
            lo: 0.0,
            hi: 10.0,
            ticks: Vec::new(),
            log: false,
        };
        let log = Axis {
            log: true,
            ..linear.clone()
        };
        assert_eq!(log.label(0.0), "1");
        assert_eq!(log.label(3.0), "1k");
        assert_eq!(linear.label(2.5), "2.5");
        assert_eq!(linear.label(40.0), "40");
    }

    /// Plotters places a value by linear interpolation between the axis ends: on pixels
    /// 100..500 an axis 2..12 puts 4.5 a quarter of the way along, 100 + 400 × 2.5 / 10 =
    /// 200, and its ends at 100 and 500; pixels 500..100 (a y axis, drawn downwards) put
    /// it at 500 - 100 = 400. An axis of no span puts everything midway, (100 + 500) / 2 =
    /// 300. Plotters draws exactly the ticks as bold key points (the `Ranged` impl's docs)
    /// and asks for no light ones.
    #[test]
    fn plotters_places_values_by_linear_interpolation() {
        use plotters::coord::ranged1d::{BoldPoints, LightPoints};
        let axis = Axis {
            lo: 2.0,
            hi: 12.0,
            ticks: vec![2.0, 7.0, 12.0],
            log: false,
        };
        assert_eq!(Ranged::map(&axis, &4.5, (100, 500)), 200);
        assert_eq!(Ranged::map(&axis, &2.0, (100, 500)), 100);
        assert_eq!(Ranged::map(&axis, &12.0, (100, 500)), 500);
        assert_eq!(Ranged::map(&axis, &4.5, (500, 100)), 400);
        // To the nearest pixel: 2 + 10 × 2/3 is 266.67 px along 0..400.
        assert_eq!(Ranged::map(&axis, &(2.0 + 20.0 / 3.0), (0, 400)), 267);
        let flat = Axis {
            lo: 5.0,
            hi: 5.0,
            ..axis.clone()
        };
        assert_eq!(Ranged::map(&flat, &5.0, (100, 500)), 300);
        assert_eq!(axis.range(), 2.0..12.0);
        assert_eq!(axis.key_points(BoldPoints(3)), vec![2.0, 7.0, 12.0]);
        assert!(axis.key_points(LightPoints::new(3, 10)).is_empty());
    }

    /// The x axis of per-depth charts (docs: integer ticks, padded on each side; at most
    /// `MAX_TICKS` = 12 steps of the data, 13 labels): depths 1..4 tick every depth; 10..20
    /// too (11 ticks); 2..40 cannot (a span of 38 is 38 steps of 1, 12.7 of 3), so step 4:
    /// 2, 6, ..., 38. The range holds the data with the same room on each side, no more
    /// than half a step (room for no tick beyond the data). One depth alone is centred.
    #[test]
    fn depth_axes_tick_whole_depths_with_room_on_each_side() {
        let depths = |xs: &[f64]| {
            let points: Vec<(f64, f64)> = xs.iter().map(|&x| (x, 1.0)).collect();
            x_axis(&chart_of(YScale::Log, &[(SeriesKind::Measured, &points)]))
        };
        let cases: [(Vec<f64>, Vec<f64>, f64); 3] = [
            (vec![1.0, 2.0, 3.0, 4.0], vec![1.0, 2.0, 3.0, 4.0], 1.0),
            (
                (10..=20).map(f64::from).collect(),
                (10..=20).map(f64::from).collect(),
                1.0,
            ),
            (
                vec![2.0, 40.0],
                (0..10).map(|i| f64::from(2 + 4 * i)).collect(),
                4.0,
            ),
        ];
        for (xs, ticks, step) in cases {
            let a = depths(&xs);
            assert_eq!(a.ticks, ticks, "{xs:?}");
            assert!(!a.log);
            let (first, last) = (xs[0], xs[xs.len() - 1]);
            let (below, above) = (first - a.lo, a.hi - last);
            assert!(below > 0.0 && below <= step / 2.0, "{xs:?}: {a:?}");
            assert!(
                (below - 0.3).abs() < 1e-9,
                "padded 0.3 of a depth: {xs:?}: {a:?}"
            );
            assert!((below - above).abs() < 1e-9, "{xs:?}: {a:?}");
        }
        let a = depths(&[5.0]);
        assert_eq!(a.ticks, vec![5.0]);
        assert_eq!((a.lo, a.hi), (4.0, 6.0), "a single depth is centred in ±1");
        // Integer ticks within the data where it starts between two depths.
        assert_eq!(depths(&[1.5, 4.0]).ticks, vec![2.0, 3.0, 4.0]);
    }

    /// Log y axes (`YScale::Log`'s docs: non-positive values are not drawn) leave out a
    /// zero: data 0, 10, 1000 span the decades 10^1..10^3. A chart of reference lines
    /// alone takes its range from them (`y_axis`'s docs): 10..1000 gives 10^1..10^3 too.
    #[test]
    fn log_y_axes_skip_zeros_and_a_chart_of_references_takes_theirs() {
        let data: &[(f64, f64)] = &[(1.0, 0.0), (2.0, 10.0), (3.0, 1000.0)];
        let a = y_axis(&chart_of(YScale::Log, &[(SeriesKind::Measured, data)]));
        assert_eq!((a.lo, a.hi, a.log), (1.0, 3.0, true));
        assert_eq!(a.ticks, vec![1.0, 2.0, 3.0]);
        let lines: &[(f64, f64)] = &[(1.0, 10.0), (3.0, 1000.0)];
        let a = y_axis(&chart_of(YScale::Log, &[(SeriesKind::Reference, lines)]));
        assert_eq!((a.lo, a.hi), (1.0, 3.0));
    }

    /// A linear y axis keeps a reference line whole when it is within 10× the data's top
    /// (`y_axis`: an ideal speedup, a branching factor), and cuts a larger one: data up to
    /// 4 with a line up to 30 (< 40), or up to 40 itself, shows all of the line; with a line
    /// up to 50 (> 40) the axis is the data's and stops short of 10.
    #[test]
    fn linear_y_axes_keep_a_near_reference_whole_and_cut_a_far_one() {
        let data: &[(f64, f64)] = &[(1.0, 1.0), (2.0, 2.0), (3.0, 3.0), (4.0, 4.0)];
        for (top, whole) in [(30.0, true), (40.0, true), (50.0, false)] {
            let line: &[(f64, f64)] = &[(0.0, 0.0), (4.0, top)];
            let a = y_axis(&chart_of(
                YScale::Linear { range: None },
                &[(SeriesKind::Measured, data), (SeriesKind::Reference, line)],
            ));
            assert!(a.lo <= 0.0 && a.hi >= 4.0, "{a:?}");
            assert_eq!(a.hi >= top, whole, "line to {top}: {a:?}");
            assert!(whole || a.hi < 10.0, "line to {top}: {a:?}");
        }
    }

    /// A linear y axis runs from 0 to "a rounded maximum above the data"
    /// (`YScale::Linear`'s docs): above it, yet near it: data topping at 100 or at 0.5 fill more than half
    /// the height, so the top lies in (100, 200) and in (0.5, 1).
    #[test]
    fn a_linear_y_axis_tops_the_data_closely() {
        for top in [100.0, 0.5] {
            let data: &[(f64, f64)] = &[(1.0, top / 5.0), (2.0, top)];
            let a = y_axis(&chart_of(
                YScale::Linear { range: None },
                &[(SeriesKind::Measured, data)],
            ));
            assert_eq!(a.lo, 0.0, "{a:?}");
            assert!(a.hi > top && a.hi < 2.0 * top, "top {top}: {a:?}");
        }
    }

    /// Log axes are whole decades, at least one (module docs): a single value 100 lies in
    /// the decade 10^2..10^3; 1e10..1e20 is 10 decades, each ticked (11 ≤ 13 labels).
    #[test]
    fn a_log_axis_is_at_least_one_decade_and_ticks_each_when_it_can() {
        let a = log_axis(Some((100.0, 100.0)));
        assert_eq!((a.lo, a.hi), (2.0, 3.0));
        // Whole decades around the data: 5..50 lies in 10^0..10^2.
        let a = log_axis(Some((5.0, 50.0)));
        assert_eq!((a.lo, a.hi), (0.0, 2.0));
        let a = log_axis(Some((1e10, 1e20)));
        assert_eq!(a.ticks, (10..=20).map(f64::from).collect::<Vec<_>>());
    }

    /// A linear y axis over one value alone is a unit either side of it (`linear_axis`'s
    /// note: an all-draw match's Elo 0 with no interval), as `linear_axis(v, v)` gives:
    /// an Elo chart of draws alone spans -1..1 and a flat -5 spans -6..-4.
    #[test]
    fn a_linear_y_axis_over_one_value_is_a_unit_either_side() {
        for v in [0.0, -5.0] {
            let points: &[(f64, f64)] = &[(1.0, v), (2.0, v)];
            let a = y_axis(&chart_of(
                YScale::Linear { range: None },
                &[(SeriesKind::Points, points)],
            ));
            assert_eq!((a.lo, a.hi), (v - 1.0, v + 1.0), "{v}: {a:?}");
        }
    }

    /// A reference line never stretches a log axis (`y_axis`'s docs): data 10..5000 with a
    /// line up to 1e50 span the decades 10^1..10^4, whether the measured values are a line
    /// or points that no line joins (an Elo chart's pairings: not a chart of references
    /// alone either).
    #[test]
    fn references_never_stretch_a_log_axis() {
        let data: &[(f64, f64)] = &[(1.0, 10.0), (2.0, 5000.0)];
        let line: &[(f64, f64)] = &[(1.0, 10.0), (2.0, 1e50)];
        for kind in [SeriesKind::Measured, SeriesKind::Points] {
            let a = y_axis(&chart_of(
                YScale::Log,
                &[(kind, data), (SeriesKind::Reference, line)],
            ));
            assert_eq!((a.lo, a.hi), (1.0, 4.0), "{kind:?}");
        }
    }

    /// At most `MAX_TICKS` steps, so `MAX_TICKS` + 1 labels, on a log axis of any span:
    /// 14 decades cannot tick each one (15 labels), so they tick every other one, 10^0,
    /// 10^2, ..., 10^14 (8 labels).
    #[test]
    fn a_log_axis_of_many_decades_ticks_every_few() {
        let a = log_axis(Some((1.0, 1e14)));
        assert_eq!((a.lo, a.hi), (0.0, 14.0));
        let every_other: Vec<f64> = (0..=7).map(|i| f64::from(2 * i)).collect();
        assert_eq!(a.ticks, every_other);
        assert!(a.ticks.len() <= MAX_TICKS + 1, "{:?}", a.ticks);
    }

    /// Values that differ by less than a millionth of their size are too narrow a span to
    /// tick (`linear_axis`'s note): they get a unit either side and ticks that are not
    /// all labelled alike.
    #[test]
    fn a_nearly_flat_linear_axis_gets_distinct_tick_labels() {
        let a = linear_axis(250.0, 250.0 + 1e-7);
        assert!(a.lo <= 249.0 && a.hi >= 251.0, "{a:?}");
        let labels: Vec<String> = a.ticks.iter().map(|t| a.label(*t)).collect();
        let distinct: std::collections::HashSet<&String> = labels.iter().collect();
        assert_eq!(distinct.len(), labels.len(), "{labels:?}");
    }

    /// A linear axis is ticked from its low end to its high end, both included, even
    /// where the step does not divide the span exactly in floating point: -18.5..-18.13
    /// by 0.05 is -18.5, -18.45, ..., -18.1.
    #[test]
    fn linear_ticks_run_from_end_to_end() {
        let a = linear_axis(-18.5, -18.13);
        assert_eq!(a.ticks.len(), 9, "{a:?}");
        assert!((a.lo + 18.5).abs() < 1e-9, "{a:?}");
        assert!((a.ticks[1] + 18.45).abs() < 1e-9, "{a:?}");
        assert!(
            (a.ticks[8] - a.hi).abs() < 1e-9 && (a.hi + 18.1).abs() < 1e-9,
            "{a:?}"
        );
    }

    /// A horizontal stretch of a reference line outside the axis is dropped, not drawn
    /// along the axis's edge; a line of one point within the axis is kept.
    #[test]
    fn clipping_drops_flat_stretches_outside_and_keeps_a_lone_point_inside() {
        assert!(clip_y(&[(0.0, 20.0), (1.0, 20.0)], 0.0, 10.0).is_empty());
        let parts = clip_y(
            &[(0.0, 5.0), (1.0, 5.0), (2.0, 15.0), (3.0, 15.0)],
            0.0,
            10.0,
        );
        assert_eq!(parts, vec![vec![(0.0, 5.0), (1.0, 5.0), (1.5, 10.0)]]);
        assert_eq!(clip_y(&[(2.0, 3.0)], 0.0, 10.0), vec![vec![(2.0, 3.0)]]);
        assert!(clip_y(&[(2.0, 30.0)], 0.0, 10.0).is_empty());
    }

    /// `YScale::Linear`'s docs: a linear axis runs from `min` to `max` where they are given
    /// (a win rate's 0..1), whatever the data.
    #[test]
    fn a_fixed_linear_range_is_kept() {
        let data: &[(f64, f64)] = &[(1.0, 0.2), (2.0, 0.4)];
        let a = y_axis(&chart_of(
            YScale::Linear {
                range: Some((-1.0, 1.0)),
            },
            &[(SeriesKind::Measured, data)],
        ));
        assert_eq!((a.lo, a.hi), (-1.0, 1.0));
    }
}
