//! Summary statistics and the theoretical reference values of alpha-beta analysis.
//!
//! Intervals are 95% two-sided unless a level is given. The distributions' quantiles come
//! from the `statrs` crate (Student's t, beta, normal), not from hand-written
//! approximations; the formulas are the textbook ones, cited where each is defined.

use statrs::distribution::{Beta, ContinuousCDF, Normal, StudentsT};
use statrs::statistics::{Data, OrderStatistics};

/// The confidence level of every interval in the summaries.
pub const LEVEL: f64 = 0.95;

/// Mean and spread of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Sample standard deviation (n − 1 in the denominator; 0 for a single value).
    pub sd: f64,
    /// The mean's 95% Student t interval ([`t_interval`]); `None` for a single value.
    pub interval: Option<Interval>,
}

impl Stats {
    /// The statistics of `values`, or `None` if there are none.
    #[must_use]
    pub fn of(values: &[f64]) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n as f64;
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sd = if n > 1 {
            let ss: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
            (ss / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let interval = (n > 1).then(|| {
            let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
                .map_or(f64::NAN, |d| d.inverse_cdf(0.5 + LEVEL / 2.0));
            let half = t * sd / (n as f64).sqrt();
            Interval {
                lo: mean - half,
                hi: mean + half,
            }
        });
        Some(Self {
            n,
            mean,
            min,
            max,
            sd,
            interval,
        })
    }
}

/// A two-sided confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// The standard normal quantile for a two-sided interval at `level`.
fn z_of(level: f64) -> f64 {
    Normal::standard().inverse_cdf(0.5 + level / 2.0)
}

/// Wilson's score interval for a rate of `successes` in `n` trials (Wilson 1927; Agresti &
/// Coull 1998 recommend it over the normal "Wald" interval for small n and rates near 0
/// or 1). `None` for `n = 0`.
#[must_use]
pub fn wilson(successes: usize, n: usize, level: f64) -> Option<Interval> {
    wilson_rate(successes as f64 / n.max(1) as f64, n, level)
}

/// [`wilson`] for an observed `rate` over `n` units that need not be whole successes (a
/// position's share of repetitions answered: n counts the positions). `None` for `n = 0`.
#[must_use]
pub fn wilson_rate(rate: f64, n: usize, level: f64) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let z = z_of(level);
    let p = rate;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    Some(Interval {
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    })
}

/// The Clopper–Pearson "exact" interval for a rate (Clopper & Pearson 1934): the beta
/// quantiles Beta(α/2; k, n−k+1) and Beta(1−α/2; k+1, n−k), 0 and 1 at the extremes.
/// `None` for `n = 0`.
#[must_use]
pub fn clopper_pearson(successes: usize, n: usize, level: f64) -> Option<Interval> {
    if n == 0 || successes > n {
        return None;
    }
    let alpha = 1.0 - level;
    let (k, n) = (successes as f64, n as f64);
    let lo = if successes == 0 {
        0.0
    } else {
        Beta::new(k, n - k + 1.0).ok()?.inverse_cdf(alpha / 2.0)
    };
    let hi = if k == n {
        1.0
    } else {
        Beta::new(k + 1.0, n - k)
            .ok()?
            .inverse_cdf(1.0 - alpha / 2.0)
    };
    Some(Interval { lo, hi })
}

/// Student's t interval for the mean of `values`: mean ± t(n−1) · sd / √n. `None` for
/// fewer than two values (no spread to estimate).
#[must_use]
pub fn t_interval(values: &[f64], level: f64) -> Option<Interval> {
    let s = Stats::of(values)?;
    if s.n < 2 {
        return None;
    }
    let t = StudentsT::new(0.0, 1.0, (s.n - 1) as f64)
        .ok()?
        .inverse_cdf(0.5 + level / 2.0);
    let half = t * s.sd / (s.n as f64).sqrt();
    Some(Interval {
        lo: s.mean - half,
        hi: s.mean + half,
    })
}

#[cfg(test)]
mod interval_in_stats {
    #[test]
    fn stats_carry_the_95_percent_t_interval() {
        let values = super::tests::SLEEP;
        assert_eq!(
            super::Stats::of(&values).unwrap().interval,
            super::t_interval(&values, super::LEVEL)
        );
    }
}

/// What one job of a parallel comparison measured at a depth: the terms of its ratios
/// against its one-thread twin ([`parallel_ratios`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParallelFigures {
    /// Seconds to complete the depth (the alpha-beta family), if measured.
    pub time_to_depth_s: Option<f64>,
    /// Nodes of every thread over the whole search.
    pub total_nodes: f64,
    /// Playouts per second (Monte Carlo), if measured.
    pub playouts_per_s: Option<f64>,
}

/// A job's ratios against its one-thread twin: searches.csv's `speedup`, `overhead` and
/// `nps_scaling` (EXPERIMENTS.md).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParallelRatios {
    /// Time to the depth with one thread / with the job's threads.
    pub speedup: Option<f64>,
    /// Nodes of the job / nodes of its twin (search overhead).
    pub overhead: Option<f64>,
    /// Nodes (or playouts) per second of the job / of its twin.
    pub nps_scaling: Option<f64>,
}

/// `job` against its one-thread `twin`, each ratio to four decimals. Where both have a
/// time to depth above 0, all three ratios (nodes/s scaling = speedup × overhead, of nodes);
/// else, where both have a playout rate, the nodes/s scaling alone, of playouts; else none.
/// A ratio with a term at or below 0 is none. Written when a run ends (lab::record) and
/// computed again when searches.csv is read back, so that an interrupted run's file gets
/// them too: one definition for both.
#[must_use]
pub fn parallel_ratios(twin: ParallelFigures, job: ParallelFigures) -> ParallelRatios {
    let ratio = |a: f64, b: f64| (a > 0.0 && b > 0.0).then(|| (a / b * 1e4).round() / 1e4);
    let (n1, n) = (twin.total_nodes, job.total_nodes);
    match (twin.time_to_depth_s, job.time_to_depth_s) {
        (Some(t1), Some(tn)) if t1 > 0.0 && tn > 0.0 => ParallelRatios {
            speedup: ratio(t1, tn),
            overhead: ratio(n, n1),
            nps_scaling: ratio(n / tn, n1 / t1),
        },
        _ => ParallelRatios {
            nps_scaling: twin
                .playouts_per_s
                .zip(job.playouts_per_s)
                .and_then(|(p1, pn)| ratio(pn, p1)),
            ..ParallelRatios::default()
        },
    }
}

/// The median of `values` (the mean of the two middle ones for an even count).
#[must_use]
pub fn median(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| Data::new(values.to_vec()).median())
}

/// A geometric mean with its interval: the t interval of the logarithms, mapped back
/// (the usual interval for log-normal data such as node counts and their ratios).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometric {
    /// Number of values.
    pub n: usize,
    /// exp(mean(ln x)).
    pub mean: f64,
    /// exp of the t interval of ln x; `None` for a single value.
    pub interval: Option<Interval>,
}

impl Geometric {
    /// The geometric mean of `values`, or `None` if there are none or any is not positive.
    #[must_use]
    pub fn of(values: &[f64], level: f64) -> Option<Self> {
        if values.is_empty()
            || values
                .iter()
                .any(|v| v.is_nan() || *v <= 0.0 || !v.is_finite())
        {
            return None;
        }
        let logs: Vec<f64> = values.iter().map(|v| v.ln()).collect();
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        Some(Self {
            n: values.len(),
            mean: mean.exp(),
            interval: t_interval(&logs, level).map(|i| Interval {
                lo: i.lo.exp(),
                hi: i.hi.exp(),
            }),
        })
    }
}

/// Two configurations compared on the same positions: per position the ratio b / a.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// Positions compared.
    pub n: usize,
    /// Geometric mean of the per-position ratios b / a, with its interval.
    pub ratio: Geometric,
    /// Median of the ratios.
    pub median: f64,
    /// Positions where b is smaller, where it is larger (ties are left out).
    pub fewer: usize,
    /// See `fewer`.
    pub more: usize,
    /// The exact two-sided sign test's p-value for "b < a as often as b > a".
    pub sign_p: f64,
    /// The Wilcoxon signed-rank test's two-sided p-value on the log ratios; `None` with
    /// no untied pair.
    pub wilcoxon_p: Option<f64>,
}

impl Paired {
    /// The comparison of `pairs` (a, b), all positive; `None` if there are none or a value
    /// is not positive.
    #[must_use]
    pub fn of(pairs: &[(f64, f64)], level: f64) -> Option<Self> {
        let ratios: Vec<f64> = pairs.iter().map(|(a, b)| b / a).collect();
        let ratio = Geometric::of(&ratios, level)?;
        let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
        let fewer = logs.iter().filter(|d| **d < 0.0).count();
        let more = logs.iter().filter(|d| **d > 0.0).count();
        Some(Self {
            n: pairs.len(),
            ratio,
            median: median(&ratios)?,
            fewer,
            more,
            sign_p: sign_test(fewer, more),
            wilcoxon_p: wilcoxon(&logs),
        })
    }
}

/// The exact two-sided sign test: P(X ≤ min(k, m)) doubled, capped at 1, for X ~ Bin(k + m,
/// ½) (Conover, Practical Nonparametric Statistics, §3.4). 1 when there is no untied pair.
#[must_use]
pub fn sign_test(fewer: usize, more: usize) -> f64 {
    let n = fewer + more;
    if n == 0 {
        return 1.0;
    }
    let k = fewer.min(more);
    // Sum C(n, i) / 2^n for i ≤ k in logarithms, so that large n neither overflows nor
    // underflows before the sum.
    let ln_choose = |i: usize| ln_factorial(n) - ln_factorial(i) - ln_factorial(n - i);
    let tail: f64 = (0..=k)
        .map(|i| (ln_choose(i) - n as f64 * std::f64::consts::LN_2).exp())
        .sum();
    (2.0 * tail).min(1.0)
}

fn ln_factorial(n: usize) -> f64 {
    statrs::function::factorial::ln_factorial(n as u64)
}

/// The Wilcoxon signed-rank test, two-sided, by the normal approximation with the tie
/// correction of the variance and a continuity correction, as R's `wilcox.test(exact =
/// FALSE)` computes it. Zero differences are dropped. `None` with no nonzero difference.
#[must_use]
pub fn wilcoxon(differences: &[f64]) -> Option<f64> {
    let mut d: Vec<f64> = differences.iter().copied().filter(|x| *x != 0.0).collect();
    let n = d.len();
    if n == 0 {
        return None;
    }
    d.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Average ranks over ties of |d|; the tie sizes correct the variance.
    let mut v = 0.0;
    let mut ties = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && d[j + 1].abs() == d[i].abs() {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        v += d[i..=j].iter().filter(|x| **x > 0.0).count() as f64 * rank;
        let t = (j - i + 1) as f64;
        ties += t * t * t - t;
        i = j + 1;
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0;
    if var <= 0.0 {
        return Some(1.0);
    }
    let diff = v - mean;
    // R's `sign(z) * 0.5`: no correction where the statistic is at its mean (Rust's
    // `signum` of 0.0 is 1, which would push z off 0 and the p-value below 1).
    let correction = if diff == 0.0 {
        0.0
    } else {
        0.5 * diff.signum()
    };
    let z = (diff - correction) / var.sqrt();
    let phi = Normal::standard().cdf(z);
    Some((2.0 * phi.min(1.0 - phi)).min(1.0))
}

/// Pearl's asymptotic branching factor of alpha-beta on uniform random trees of branching
/// `b` with continuous leaf values: R(b) = x / (1 − x), where x is the positive root of
/// x^b + x − 1 = 0 (Pearl 1982). Found by bisection; `b` need not be an integer.
///
/// Returns `None` for `b < 1` or a non-finite `b`, where the definition does not apply.
#[must_use]
pub fn pearl_r(b: f64) -> Option<f64> {
    if !b.is_finite() || b < 1.0 {
        return None;
    }
    // f(x) = x^b + x − 1 rises from −1 at x = 0 to 1 at x = 1: one root in between.
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid.powf(b) + mid - 1.0 < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    Some(x / (1.0 - x))
}

/// The Knuth–Moore minimal number of leaves that any alpha-beta search must examine in a
/// uniform tree of branching `b` and depth `d`: b^⌈d/2⌉ + b^⌊d/2⌋ − 1.
#[must_use]
pub fn minimal_leaves(b: f64, d: u32) -> f64 {
    b.powi(d.div_ceil(2) as i32) + b.powi((d / 2) as i32) - 1.0
}

/// `b` as an integer if it is one (uniform random trees), else `None`.
#[must_use]
pub fn integral(b: f64) -> Option<u32> {
    (b.fract() == 0.0 && b >= 1.0 && b <= f64::from(u32::MAX)).then_some(b as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pearl_matches_literature() {
        let table = [
            (2.0, 1.618),
            (3.0, 2.148),
            (4.0, 2.630),
            (5.0, 3.080),
            (8.0, 4.309),
            (10.0, 5.064),
            (20.0, 8.425),
        ];
        for (b, r) in table {
            let got = pearl_r(b).unwrap();
            assert!((got - r).abs() < 0.0015, "R({b}) = {got}, literature {r}");
        }
    }

    #[test]
    fn pearl_lies_between_sqrt_b_and_b() {
        for b in 2..40 {
            let b = f64::from(b);
            let r = pearl_r(b).unwrap();
            assert!(b.sqrt() < r && r < b, "R({b}) = {r}");
        }
        assert_eq!(pearl_r(0.5), None);
        assert_eq!(pearl_r(f64::NAN), None);
    }

    #[test]
    fn knuth_moore_small_cases() {
        assert_eq!(minimal_leaves(2.0, 1), 2.0);
        assert_eq!(minimal_leaves(2.0, 2), 3.0);
        assert_eq!(minimal_leaves(3.0, 3), 11.0);
        assert_eq!(minimal_leaves(4.0, 8), 511.0);
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn rate_intervals_match_published_values() {
        // 8 of 10: Wilson [0.4902, 0.9433], Clopper–Pearson [0.4439, 0.9748] (as R's
        // prop.test(correct = FALSE) and binom.test report).
        let w = wilson(8, 10, 0.95).unwrap();
        assert!(
            close(w.lo, 0.4902, 5e-4) && close(w.hi, 0.9433, 5e-4),
            "{w:?}"
        );
        let c = clopper_pearson(8, 10, 0.95).unwrap();
        assert!(
            close(c.lo, 0.4439, 5e-4) && close(c.hi, 0.9748, 5e-4),
            "{c:?}"
        );
        // 200 of 200: Clopper–Pearson's lower end is (α/2)^(1/n).
        let all = clopper_pearson(200, 200, 0.95).unwrap();
        assert!(close(all.lo, 0.025_f64.powf(1.0 / 200.0), 1e-9) && all.hi == 1.0);
        assert_eq!(clopper_pearson(0, 5, 0.95).unwrap().lo, 0.0);
        assert_eq!(wilson(0, 0, 0.95), None);
    }

    /// Student's sleep data (Cushny & Peebles 1905, as in "Student" 1908): the extra sleep
    /// of drug 2 over drug 1 in ten patients. R's `t.test(..., paired = TRUE)` gives mean
    /// 1.58 with the 95% interval [0.7001142, 2.4598858]; `wilcox.test(..., paired = TRUE)`
    /// V = 45, p = 0.009091 (normal approximation, ties).
    pub(super) const SLEEP: [f64; 10] = [1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4];

    #[test]
    fn t_interval_matches_the_textbook_example() {
        let i = t_interval(&SLEEP, 0.95).unwrap();
        assert!(close(i.lo, 0.700_114_2, 1e-6), "{i:?}");
        assert!(close(i.hi, 2.459_885_8, 1e-6), "{i:?}");
        assert_eq!(t_interval(&[3.0], 0.95), None);
    }

    #[test]
    fn rank_and_sign_tests_match_r() {
        let p = wilcoxon(&SLEEP).unwrap();
        assert!(close(p, 0.009_091, 5e-6), "{p}");
        // V = 3 = n(n + 1)/4: wilcox.test(c(0.2297, 0.3435, -0.3937), exact = FALSE)
        // gives p = 1 (with the correction pushed to one side it had been 0.789).
        assert_eq!(wilcoxon(&[0.2297, 0.3435, -0.3937]), Some(1.0));
        // 9 positive, 1 zero: 2 / 2^9.
        assert!(close(sign_test(0, 9), 2.0 / 512.0, 1e-12));
        assert_eq!(sign_test(5, 5), 1.0);
        // binom.test(3, 20): p = 0.002577.
        assert!(close(sign_test(3, 17), 0.002_576_828, 1e-8));
    }

    #[test]
    fn geometric_means_medians_and_paired_ratios() {
        let g = Geometric::of(&[1.0, 10.0, 100.0], 0.95).unwrap();
        assert!(close(g.mean, 10.0, 1e-9));
        // ln values 0, ln 10, 2 ln 10: sd = ln 10, t(2) = 4.302653.
        let i = g.interval.unwrap();
        assert!(close(
            i.hi.ln(),
            10f64.ln() * (1.0 + 4.302_653 / 3f64.sqrt()),
            1e-5
        ));
        assert_eq!(Geometric::of(&[1.0, 0.0], 0.95), None);
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        let p = Paired::of(&[(100.0, 50.0), (10.0, 5.0), (8.0, 4.0), (2.0, 4.0)], 0.95).unwrap();
        assert_eq!((p.n, p.fewer, p.more), (4, 3, 1));
        assert!(close(
            p.ratio.mean,
            (0.5f64.powi(3) * 2.0).powf(0.25),
            1e-12
        ));
        assert!(close(p.median, 0.5, 1e-12));
        assert!(close(p.sign_p, 0.625, 1e-12));
    }

    #[test]
    fn stats_mean_spread() {
        let s = Stats::of(&[1.0, 2.0, 3.0, 6.0]).unwrap();
        assert_eq!((s.n, s.mean, s.min, s.max), (4, 3.0, 1.0, 6.0));
        assert!((s.sd - 2.160_246_899).abs() < 1e-6);
        assert_eq!(Stats::of(&[]), None);
        assert_eq!(Stats::of(&[5.0]).unwrap().sd, 0.0);
    }

    /// One value has no spread to estimate, so its mean has no interval (`None`, as the
    /// field promises), not one from Student's t with 0 degrees of freedom (NaN ends).
    #[test]
    fn a_single_value_has_no_interval() {
        let one = Stats::of(&[5.0]).unwrap();
        assert_eq!((one.n, one.mean, one.min, one.max), (1, 5.0, 5.0, 5.0));
        assert_eq!(one.interval, None);
        assert!(Stats::of(&[5.0, 7.0]).unwrap().interval.is_some());
    }

    /// A rate over no trials has no interval from either method, rather than the whole
    /// of [0, 1] (which Clopper–Pearson's extremes rule would give for 0 of 0); nor has a
    /// count of successes above the trials.
    #[test]
    fn rates_of_no_trials_have_no_interval() {
        assert_eq!(clopper_pearson(0, 0, 0.95), None);
        assert_eq!(clopper_pearson(6, 5, 0.95), None);
        assert_eq!(wilson_rate(0.5, 0, 0.95), None);
    }

    /// R(1) = 1: with one child per node, x + x − 1 = 0 gives x = ½, and alpha-beta
    /// visits one node per ply. b = 1 is inside the definition's domain (b ≥ 1), so it
    /// has a value.
    #[test]
    fn pearl_of_a_single_child_is_one() {
        let r = pearl_r(1.0).unwrap();
        assert!(close(r, 1.0, 1e-12), "R(1) = {r}");
        assert_eq!(pearl_r(0.999), None);
    }

    /// `integral` gives back a whole branching factor of at least 1 as that integer, and
    /// nothing for fractions, values below 1 or beyond `u32`.
    #[test]
    fn integral_branching_factors() {
        assert_eq!(integral(1.0), Some(1));
        assert_eq!(integral(4.0), Some(4));
        assert_eq!(integral(f64::from(u32::MAX)), Some(u32::MAX));
        for b in [
            0.0,
            0.5,
            2.5,
            -3.0,
            f64::from(u32::MAX) + 1.0,
            f64::NAN,
            f64::INFINITY,
        ] {
            assert_eq!(integral(b), None, "b = {b}");
        }
    }

    /// By hand: 2 s against 0.8 s is a speedup of 2.5, 1,300 nodes against 1,000 an
    /// overhead of 1.3, 1,625 nodes/s against 500 a scaling of 3.25 (= 2.5 × 1.3); 1,000
    /// playouts/s against 400 is 2.5, and a time on one side only counts for nothing;
    /// 1 s against 1.5 s and 2 nodes against 3 are 0.6667 each, their nodes/s (2 / 1.5
    /// against 3 / 1) 0.4444: four decimals.
    #[test]
    fn parallel_ratios_are_time_node_and_rate_quotients() {
        let figures = |time, nodes, rate| ParallelFigures {
            time_to_depth_s: time,
            total_nodes: nodes,
            playouts_per_s: rate,
        };
        let all = parallel_ratios(
            figures(Some(2.0), 1000.0, None),
            figures(Some(0.8), 1300.0, None),
        );
        assert_eq!(
            (all.speedup, all.overhead, all.nps_scaling),
            (Some(2.5), Some(1.3), Some(3.25))
        );
        let playouts = ParallelRatios {
            nps_scaling: Some(2.5),
            ..ParallelRatios::default()
        };
        let rates = |t1, tn| {
            parallel_ratios(
                figures(t1, 50.0, Some(400.0)),
                figures(tn, 50.0, Some(1000.0)),
            )
        };
        assert_eq!(rates(None, None), playouts);
        assert_eq!(rates(Some(1.0), None), playouts);
        assert_eq!(rates(None, Some(1.0)), playouts);
        assert_eq!(
            rates(Some(0.0), Some(1.0)),
            playouts,
            "no time to divide by"
        );
        let none = parallel_ratios(figures(None, 1.0, None), figures(None, 1.0, Some(9.0)));
        assert_eq!(none, ParallelRatios::default());
        let thirds = parallel_ratios(figures(Some(1.0), 3.0, None), figures(Some(1.5), 2.0, None));
        assert_eq!(thirds.speedup, Some(0.6667));
        assert_eq!(thirds.overhead, Some(0.6667));
        assert_eq!(thirds.nps_scaling, Some(0.4444));
    }
}
