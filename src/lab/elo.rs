//! Match statistics: Elo from game results, confidence intervals, LOS and the SPRT.
//!
//! Formulas follow two reference implementations:
//!
//! - fastchess (<https://github.com/Disservin/fastchess>), `app/src/matchmaking/elo/elo_wdl.cpp`,
//!   `elo_pentanomial.cpp` (score, variance, interval, LOS) and
//!   `app/src/matchmaking/sprt/sprt.cpp` (SPRT bounds, LLR);
//! - OpenBench (<https://github.com/AndyGrant/OpenBench>), `OpenBench/stats.py`: the same
//!   interval (`Elo`), the same pentanomial LLR (`PentanomialSPRT`, normalized Elo, taken from
//!   Fishtest), a BayesElo LLR for trinomial counts (not implemented here).
//!
//! The LLR uses the *normalized Elo* model of fastchess (its default `model=normalized`;
//! fastchess's `logistic` model is available too): the maximum-likelihood distributions of
//! M. Van den Bergh, "Comments on Normalized Elo",
//! <https://www.cantate.be/Fishtest/normalized_elo_practical.pdf> (section 4.1; proposition 1.1
//! for the logistic model). fastchess finds the root of the secular equation with the ITP
//! method to a tolerance of 1e-7 (1e-3 for logistic) and stops the fixed-point iteration at a
//! change of 1e-4; here plain bisection to machine precision and a fixed-point tolerance of
//! 1e-12 are used. On fastchess's own SPRT tests (`app/tests/sprt_test.cpp`) the LLRs agree
//! to its 2 printed decimals, or within 0.02% on its two degenerate ones (4250 wins, elo 0
//! to 10: 120.56; 5550 WW pairs, elo 0 to 5: 111.82). Before fastchess's commit 05d6451c
//! (#794, February 2025) those two expected 2.97 and 2.94, figures of its older
//! approximation ½·N·ln(σ₀²/σ₁²) with half a game added to each count of a record with at
//! most one non-empty cell (commit 8fdb0dd3, `sprt.cpp` lines 54–90 and 96–136), not of the
//! maximum-likelihood LLR. Empty cells count 1e-3 here, as in fastchess (`regularize`),
//! OpenBench and Fishtest (`LLRcalc.regularize`).
//!
//! Zero counts never panic: quantities that need at least one game return `None` when there are
//! none, and LLRs are 0 with no games.

use std::f64::consts::LN_10;

/// The two-sided 95% normal quantile, Φ⁻¹(0.975) (fastchess's `CI95ZSCORE`).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference of an expected score: −400·log10(1/score − 1).
///
/// Scores are clamped to [0, 1]; 0 gives −∞ and 1 gives +∞.
pub fn score_to_elo(score: f64) -> f64 {
    let s = score.clamp(0.0, 1.0);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of an Elo difference: 1 / (1 + 10^(−elo/400)).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, Abramowitz and Stegun formula 7.1.26 (absolute error below 1.5·10⁻⁷).
pub fn erf(x: f64) -> f64 {
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] = [
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    ];
    let t = 1.0 / (1.0 + P * x.abs());
    let poly = A.iter().rev().fold(0.0, |acc, a| acc * t + a) * t;
    let y = 1.0 - poly * (-x * x).exp();
    y.copysign(x)
}

/// The standard normal CDF, Φ(x) = (1 + erf(x/√2)) / 2.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The standard normal quantile Φ⁻¹(p), P. J. Acklam's rational approximation (relative error
/// below 1.15·10⁻⁹). `None` unless 0 < p < 1.
pub fn normal_quantile(p: f64) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    const P_LOW: f64 = 0.024_25;
    if p < P_LOW {
        Some(acklam_tail(p))
    } else if p <= 1.0 - P_LOW {
        Some(acklam_central(p))
    } else {
        Some(-acklam_tail(1.0 - p))
    }
}

/// Acklam's central region, P_LOW ≤ p ≤ 1 − P_LOW.
fn acklam_central(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    let q = p - 0.5;
    let r = q * q;
    let num = A.iter().fold(0.0, |acc, a| acc * r + a);
    let den = B.iter().fold(0.0, |acc, b| acc * r + b) * r + 1.0;
    q * num / den
}

/// Acklam's lower tail, p < P_LOW (the upper tail by symmetry).
fn acklam_tail(p: f64) -> f64 {
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let q = (-2.0 * p.ln()).sqrt();
    let num = C.iter().fold(0.0, |acc, c| acc * q + c);
    let den = D.iter().fold(0.0, |acc, d| acc * q + d) * q + 1.0;
    num / den
}

/// A confidence interval on the Elo scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end (−∞ when the score interval reaches 0).
    pub lower: f64,
    /// Upper end (+∞ when the score interval reaches 1).
    pub upper: f64,
}

impl Interval {
    /// Half the width: fastchess's "±" error, (upper − lower)/2.
    pub fn half_width(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Mean and variance of a discrete distribution: `values[i]` with weight `weights[i]`
/// (weights need not be normalized; `None` when they sum to 0).
fn mean_variance(values: &[f64], weights: &[f64]) -> Option<(f64, f64)> {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let dot = |f: &dyn Fn(f64) -> f64| -> f64 {
        values
            .iter()
            .zip(weights)
            .map(|(&a, &w)| w * f(a))
            .sum::<f64>()
            / total
    };
    let mean = dot(&|a| a);
    let var = dot(&|a| (a - mean) * (a - mean));
    Some((mean, var))
}

/// Elo interval of `score ± z·√(variance/n)`, each end mapped through [`score_to_elo`];
/// `None` without variance (all games alike: all draws, all wins), where the normal
/// approximation gives a zero-width interval that no number of games supports.
fn interval(score: f64, variance: f64, n: f64, confidence: f64) -> Option<Interval> {
    if variance <= 0.0 {
        return None;
    }
    let z = normal_quantile(0.5 + confidence / 2.0)?;
    let half = z * (variance / n).sqrt();
    Some(Interval {
        lower: score_to_elo(score - half),
        upper: score_to_elo(score + half),
    })
}

/// Normal-approximation LOS, (1 − erf(−(score − ½)/√(2·variance/n)))/2 (fastchess's form).
/// With zero variance: 1, 0 or ½ as the score is above, below or at ½.
fn los_normal(score: f64, variance: f64, n: f64) -> f64 {
    let sd = (2.0 * variance / n).sqrt();
    if sd > 0.0 {
        (1.0 - erf(-(score - 0.5) / sd)) / 2.0
    } else if score > 0.5 {
        1.0
    } else if score < 0.5 {
        0.0
    } else {
        0.5
    }
}

/// Win, draw and loss counts of single games, from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Per-game scores of a loss, a draw and a win.
    const SCORES: [f64; 3] = [0.0, 0.5, 1.0];

    /// Counts in the order of [`Self::SCORES`] (loss, draw, win).
    fn counts(&self) -> [f64; 3] {
        [self.losses as f64, self.draws as f64, self.wins as f64]
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score (W + D/2)/N; `None` with no games.
    pub fn score(&self) -> Option<f64> {
        self.mean_variance().map(|(m, _)| m)
    }

    /// Fraction of games drawn; `None` with no games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// Per-game score variance Σ pᵢ(aᵢ − score)² over the outcomes; `None` with no games.
    pub fn variance(&self) -> Option<f64> {
        self.mean_variance().map(|(_, v)| v)
    }

    fn mean_variance(&self) -> Option<(f64, f64)> {
        mean_variance(&Self::SCORES, &self.counts())
    }

    /// Elo difference of the mean score ([`score_to_elo`]; ±∞ for a score of 1 or 0);
    /// `None` with no games.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(score_to_elo)
    }

    /// Elo interval at `confidence` (e.g. 0.95) from the normal approximation
    /// score ± z·σ/√N (fastchess `EloWDL`, OpenBench `Elo`); `None` with no games, no
    /// variance (every game alike) or a confidence outside (0, 1).
    pub fn elo_interval(&self, confidence: f64) -> Option<Interval> {
        let (score, var) = self.mean_variance()?;
        interval(score, var, self.games() as f64, confidence)
    }

    /// Likelihood of superiority from decisive games only,
    /// ½·(1 + erf((W − L)/√(2(W + L)))) (the classic form, as in cutechess and the Chess
    /// Programming Wiki); ½ when there are no decisive games.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }

    /// Likelihood of superiority as fastchess's `EloWDL::los` computes it, from the mean score
    /// and per-game variance (normal approximation); `None` with no games.
    pub fn los_normal(&self) -> Option<f64> {
        let (score, var) = self.mean_variance()?;
        Some(los_normal(score, var, self.games() as f64))
    }
}

/// Counts of game pairs (one opening played twice, colours swapped) by the pair's total score
/// for the first player: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs scoring 0 (two losses).
    pub ll: u64,
    /// Pairs scoring ½ (a loss and a draw).
    pub ld: u64,
    /// Pairs scoring 1 (two draws, or a win and a loss).
    pub dd_or_wl: u64,
    /// Pairs scoring 1½ (a win and a draw).
    pub wd: u64,
    /// Pairs scoring 2 (two wins).
    pub ww: u64,
}

impl Pentanomial {
    /// Per-game mean score of each pair outcome (pair score / 2), as fastchess and OpenBench
    /// use.
    const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    fn counts(&self) -> [f64; 5] {
        [self.ll, self.ld, self.dd_or_wl, self.wd, self.ww].map(|c| c as f64)
    }

    /// Number of game pairs.
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.dd_or_wl + self.wd + self.ww
    }

    /// Mean per-game score (WW + ¾WD + ½(DD+WL) + ¼LD)/pairs; `None` with no pairs.
    pub fn score(&self) -> Option<f64> {
        self.mean_variance().map(|(m, _)| m)
    }

    /// Per-pair variance of the per-game pair score, Σ pᵢ(aᵢ − score)² with aᵢ in
    /// {0, ¼, ½, ¾, 1} (fastchess `EloPentanomial::calcVariance`); `None` with no pairs.
    pub fn variance(&self) -> Option<f64> {
        self.mean_variance().map(|(_, v)| v)
    }

    fn mean_variance(&self) -> Option<(f64, f64)> {
        mean_variance(&Self::SCORES, &self.counts())
    }

    /// Elo difference of the mean score; `None` with no pairs.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(score_to_elo)
    }

    /// Elo interval at `confidence` from score ± z·√(variance/pairs) (fastchess
    /// `EloPentanomial`, OpenBench `Elo` on five counts); `None` with no pairs, no variance
    /// (every pair alike) or a confidence outside (0, 1).
    pub fn elo_interval(&self, confidence: f64) -> Option<Interval> {
        let (score, var) = self.mean_variance()?;
        interval(score, var, self.pairs() as f64, confidence)
    }

    /// Likelihood of superiority, (1 − erf(−(score − ½)/√(2·variance/pairs)))/2 (fastchess
    /// `EloPentanomial::los`); with zero variance 1, 0 or ½; `None` with no pairs.
    pub fn los(&self) -> Option<f64> {
        let (score, var) = self.mean_variance()?;
        Some(los_normal(score, var, self.pairs() as f64))
    }
}

/// How the SPRT turns Elo hypotheses into outcome distributions (fastchess's `model`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Model {
    /// Normalized Elo (fastchess's default; OpenBench's and Fishtest's pentanomial SPRT).
    #[default]
    Normalized,
    /// Logistic Elo: hypotheses fix the expected score 1/(1 + 10^(−elo/400)).
    Logistic,
}

/// An SPRT's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR reached the lower bound: accept H0 (Elo = elo0).
    AcceptH0,
    /// The LLR reached the upper bound: accept H1 (Elo = elo1).
    AcceptH1,
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`, with
/// type I error `alpha` and type II error `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Counts below this are replaced by it in the LLR (fastchess's and OpenBench's `1e-3`).
const REGULARIZE: f64 = 1e-3;

/// 800/ln 10: the Elo per unit of normalized t-value for single games.
const NELO_SCALE: f64 = 800.0 / LN_10;

/// The largest size of an SPRT's `elo0` and `elo1`, in normalized Elo. Beyond about 240 the
/// maximum-likelihood fit of the normalized model (Van den Bergh's fixed-point iteration,
/// as fastchess and OpenBench compute it, `mle_normalized` here) no longer meets its
/// constraint for every pentanomial record, and the LLR comes out wrong (with `elo1` = 500,
/// +1.007 for 30 wins, 10 draws and 20 losses, which H1 fits far worse than H0). Practical
/// bounds are a few normalized Elo.
pub const MAX_SPRT_ELO: f64 = 200.0;

impl Sprt {
    /// A test, if `elo0 < elo1`, 0 < α, β < 1 and α + β < 1 (fastchess's checks), both Elo
    /// within ±[`MAX_SPRT_ELO`] (an infinite one makes every LLR NaN, a vast one a wrong
    /// LLR); else `None`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<Self> {
        let unit = |x: f64| x > 0.0 && x < 1.0;
        let fits = |elo: f64| elo.abs() <= MAX_SPRT_ELO;
        (fits(elo0) && fits(elo1) && elo0 < elo1 && unit(alpha) && unit(beta) && alpha + beta < 1.0)
            .then_some(Self {
                elo0,
                elo1,
                alpha,
                beta,
            })
    }

    /// Lower bound ln(β/(1 − α)): accept H0 at or below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound ln((1 − β)/α): accept H1 at or above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The decision for a log-likelihood ratio; `None` means keep playing.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        if llr >= self.upper_bound() {
            Some(Verdict::AcceptH1)
        } else if llr <= self.lower_bound() {
            Some(Verdict::AcceptH0)
        } else {
            None
        }
    }

    /// Log-likelihood ratio of H1 to H0 from game counts (fastchess `SPRT::getLLR(win, draw,
    /// loss)`); 0 with no games.
    pub fn llr_trinomial(&self, t: &Trinomial, model: Model) -> f64 {
        let t_scale = 1.0;
        self.llr(&Trinomial::SCORES, t.counts(), t_scale, model)
    }

    /// Log-likelihood ratio of H1 to H0 from pair counts (fastchess `SPRT::getLLR` with
    /// pentanomial counts, OpenBench `PentanomialSPRT`); 0 with no pairs.
    pub fn llr_pentanomial(&self, p: &Pentanomial, model: Model) -> f64 {
        let t_scale = std::f64::consts::SQRT_2;
        self.llr(&Pentanomial::SCORES, p.counts(), t_scale, model)
    }

    /// N·Σ p̂ᵢ·ln(p1ᵢ/p0ᵢ), with p0, p1 the maximum-likelihood distributions under each
    /// hypothesis. `t_scale` is √2 for pairs (normalized Elo is defined per game).
    fn llr<const N: usize>(
        &self,
        scores: &[f64; N],
        counts: [f64; N],
        t_scale: f64,
        model: Model,
    ) -> f64 {
        if counts.iter().all(|&c| c == 0.0) {
            return 0.0;
        }
        let counts = counts.map(|c| c.max(REGULARIZE));
        let total: f64 = counts.iter().sum();
        let phat = counts.map(|c| c / total);
        let mle = |elo: f64| match model {
            Model::Normalized => mle_normalized(scores, &phat, t_scale * elo / NELO_SCALE),
            Model::Logistic => mle_expected_score(scores, &phat, elo_to_score(elo)),
        };
        let (p0, p1) = (mle(self.elo0), mle(self.elo1));
        let mean_log_ratio: f64 = (0..N).map(|i| phat[i] * (p1[i] / p0[i]).ln()).sum();
        total * mean_log_ratio
    }
}

/// Root of the secular equation Σ p̂ᵢ·φᵢ/(1 + θ·φᵢ) = 0 on −1/max φ < θ < −1/min φ, where the
/// left side decreases from +∞ to −∞; bisection. 0 if φ does not change sign.
fn secular_root(phat: &[f64], phi: &[f64]) -> f64 {
    let (lo_phi, hi_phi) = phi
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if !(lo_phi < 0.0 && hi_phi > 0.0) {
        return 0.0;
    }
    let f = |theta: f64| -> f64 {
        phat.iter()
            .zip(phi)
            .map(|(&p, &x)| p * x / (1.0 + theta * x))
            .sum()
    };
    let (mut a, mut b) = (-1.0 / hi_phi, -1.0 / lo_phi);
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        if f(mid) > 0.0 { a = mid } else { b = mid }
    }
    0.5 * (a + b)
}

/// p̂ᵢ/(1 + θ·φᵢ) for the root θ of the secular equation.
fn reweight<const N: usize>(phat: &[f64; N], phi: &[f64; N]) -> [f64; N] {
    let theta = secular_root(phat, phi);
    std::array::from_fn(|i| phat[i] / (1.0 + theta * phi[i]))
}

/// The distribution on `scores` nearest `phat` (maximum likelihood) with expected score `s`:
/// Van den Bergh, proposition 1.1 (fastchess `getLLR_logistic`).
fn mle_expected_score<const N: usize>(scores: &[f64; N], phat: &[f64; N], s: f64) -> [f64; N] {
    let phi = scores.map(|a| a - s);
    reweight(phat, &phi)
}

/// The maximum-likelihood distribution on `scores` with normalized t-value
/// (μ − ½)/σ = `t`: Van den Bergh, section 4.1, a fixed-point iteration from the uniform
/// distribution (fastchess `getLLR_normalized`, OpenBench `MLE_tvalue`).
fn mle_normalized<const N: usize>(scores: &[f64; N], phat: &[f64; N], t: f64) -> [f64; N] {
    let mut p = [1.0 / N as f64; N];
    for _ in 0..1000 {
        let Some((mu, var)) = mean_variance(scores, &p) else {
            break;
        };
        let sigma = var.sqrt();
        let phi = scores.map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)));
        let next = reweight(phat, &phi);
        let change = (0..N).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distributions of every record of `games` games over `N` outcomes, each count
    /// regularized as [`Sprt::llr`] does.
    fn records<const N: usize>(games: usize) -> Vec<[f64; N]> {
        fn fill<const N: usize>(
            at: usize,
            left: usize,
            counts: &mut [usize; N],
            out: &mut Vec<[f64; N]>,
        ) {
            if at == N - 1 {
                counts[at] = left;
                let regularized = counts.map(|c| (c as f64).max(REGULARIZE));
                let total: f64 = regularized.iter().sum();
                out.push(regularized.map(|c| c / total));
                return;
            }
            for c in 0..=left {
                counts[at] = c;
                fill(at + 1, left - c, counts, out);
            }
        }
        let mut out = Vec::new();
        fill(0, games, &mut [0; N], &mut out);
        out
    }

    /// The t-value `(μ − ½)/σ` the fit for `t` reaches, against `t`, worst over `records`.
    fn worst_miss<const N: usize>(scores: &[f64; N], records: &[[f64; N]], t: f64) -> f64 {
        records
            .iter()
            .map(|phat| {
                let (mu, var) = mean_variance(scores, &mle_normalized(scores, phat, t))
                    .expect("a distribution");
                ((mu - 0.5) / var.sqrt() - t).abs()
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn secular_root_is_zero_when_phi_does_not_change_sign() {
        // The documented contract: "0 if φ does not change sign" (a zero counts as no change).
        assert_eq!(secular_root(&[0.5, 0.5], &[0.0, 1.0]), 0.0);
        assert_eq!(secular_root(&[0.5, 0.5], &[-1.0, 0.0]), 0.0);
        assert_eq!(secular_root(&[0.5, 0.5], &[0.5, 1.0]), 0.0);
    }

    #[test]
    fn the_normalized_fit_meets_its_constraint_within_the_elo_cap_and_not_far_beyond() {
        let (three, five) = (records::<3>(24), records::<5>(16));
        let miss = |elo: f64| {
            let t = elo / NELO_SCALE;
            let pairs = std::f64::consts::SQRT_2 * t;
            let tri = worst_miss(&Trinomial::SCORES, &three, t);
            tri.max(worst_miss(&Pentanomial::SCORES, &five, pairs))
        };
        for elo in [-MAX_SPRT_ELO, -10.0, 0.0, 5.0, 100.0, MAX_SPRT_ELO] {
            assert!(miss(elo) < 1e-9, "{elo}: {}", miss(elo));
        }
        // Where the cap comes from: the fit fails for some record not far beyond it.
        assert!(miss(2.5 * MAX_SPRT_ELO) > 1.0);
        assert!(Sprt::new(0.0, MAX_SPRT_ELO, 0.05, 0.05).is_some());
        assert!(Sprt::new(0.0, MAX_SPRT_ELO + 1.0, 0.05, 0.05).is_none());
        assert!(Sprt::new(-MAX_SPRT_ELO - 1.0, 0.0, 0.05, 0.05).is_none());
    }
}
