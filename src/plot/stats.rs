//! Summary statistics and the theoretical reference values of alpha-beta analysis.

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
        Some(Self {
            n,
            mean,
            min,
            max,
            sd,
        })
    }
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

    #[test]
    fn stats_mean_spread() {
        let s = Stats::of(&[1.0, 2.0, 3.0, 6.0]).unwrap();
        assert_eq!((s.n, s.mean, s.min, s.max), (4, 3.0, 1.0, 6.0));
        assert!((s.sd - 2.160_246_899).abs() < 1e-6);
        assert_eq!(Stats::of(&[]), None);
        assert_eq!(Stats::of(&[5.0]).unwrap().sd, 0.0);
    }
}
