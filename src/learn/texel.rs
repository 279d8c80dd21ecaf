//! Regression on labelled positions: the "Texel" tuning method (Peter Österlund, 2014,
//! Chess Programming Wiki "Texel's Tuning Method"). Each quiet position `i` of a game with
//! result `r_i` (1, ½, 0 for the side to move) has the evaluation `q_i = w · x_i`; the error
//!
//! ```text
//! E(w) = 1/N Σ (r_i − σ(q_i))²,   σ(q) = 1 / (1 + 10^(−K q / 400))
//! ```
//!
//! is minimised over the weights `w`, with `K` first fitted to the starting weights. Where
//! Österlund used local search one weight at a time, the evaluation here is linear, so the
//! gradient is exact and cheap:
//!
//! ```text
//! ∂E/∂w_j = −2/N Σ (r_i − σ_i) σ_i (1 − σ_i) (K ln 10 / 400) x_ij
//! ```
//!
//! and the weights follow Adam (Kingma and Ba, "Adam: A Method for Stochastic Optimization",
//! ICLR 2015), full batch. Sums run over fixed chunks of positions in parallel (rayon) and the
//! chunk sums are added in chunk order, so the result is the same on any number of threads.

use rayon::prelude::*;

/// Positions per parallel chunk: fixed, so that the summation order never depends on the
/// number of threads.
pub const CHUNK: usize = 512;

/// Labelled positions: the rows of `x` (each `width` long) and their results `y`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// Number of weights (columns).
    pub width: usize,
    /// Feature rows, row-major.
    pub x: Vec<f64>,
    /// Results for the side to move: 1, 0.5 or 0.
    pub y: Vec<f64>,
}

impl Dataset {
    /// An empty set with rows of `width` values.
    #[must_use]
    pub fn new(width: usize) -> Self {
        Self {
            width,
            ..Self::default()
        }
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether there are no positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Adds a row.
    pub fn push(&mut self, x: &[f64], y: f64) {
        debug_assert_eq!(x.len(), self.width);
        self.x.extend_from_slice(x);
        self.y.push(y);
    }
}

/// Texel's squashing function: the expected result of evaluation `q` at scale `k`.
#[must_use]
pub fn sigmoid(k: f64, q: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * q / 400.0))
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The mean squared error `E(w)` over `data` at scale `k`, and its gradient if asked.
#[must_use]
pub fn loss_and_gradient(data: &Dataset, w: &[f64], k: f64, gradient: bool) -> (f64, Vec<f64>) {
    let n = data.width;
    let c = k * std::f64::consts::LN_10 / 400.0;
    let parts: Vec<(f64, Vec<f64>)> = data
        .y
        .par_chunks(CHUNK)
        .zip(data.x.par_chunks(CHUNK * n))
        .map(|(ys, xs)| {
            let mut loss = 0.0;
            let mut grad = vec![0.0; if gradient { n } else { 0 }];
            for (y, x) in ys.iter().zip(xs.chunks_exact(n)) {
                let s = sigmoid(k, dot(w, x));
                let err = y - s;
                loss += err * err;
                if gradient {
                    let factor = -2.0 * err * s * (1.0 - s) * c;
                    for (g, xi) in grad.iter_mut().zip(x) {
                        *g += factor * xi;
                    }
                }
            }
            (loss, grad)
        })
        .collect();
    let count = data.len().max(1) as f64;
    let mut loss = 0.0;
    let mut grad = vec![0.0; if gradient { n } else { 0 }];
    for (l, g) in parts {
        loss += l;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    grad.iter_mut().for_each(|g| *g /= count);
    (loss / count, grad)
}

/// The scale `K` that minimises `E` at weights `w`: golden-section search on `log10 K` over
/// [−3, 3] (Österlund fits K once, before tuning, so that the error measures the weights
/// and not the scale).
#[must_use]
pub fn fit_k(data: &Dataset, w: &[f64]) -> f64 {
    let f = |lk: f64| loss_and_gradient(data, w, 10f64.powf(lk), false).0;
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (-3.0f64, 3.0f64);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = f(d);
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// Adam's state: first and second moment estimates and the step count.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Adam {
    /// Step size, in weight units.
    pub rate: f64,
    /// First moments.
    pub m: Vec<f64>,
    /// Second moments.
    pub v: Vec<f64>,
    /// Steps taken.
    pub t: u32,
}

impl Adam {
    /// Fresh state for `n` weights with step size `rate` (β1 = 0.9, β2 = 0.999, ε = 1e−12
    /// relative to the gradients' tiny scale here).
    #[must_use]
    pub fn new(n: usize, rate: f64) -> Self {
        Self {
            rate,
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One descent step on `w` along gradient `g`. Weights listed in `frozen` stay put.
    pub fn step(&mut self, w: &mut [f64], g: &[f64], frozen: &[usize]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        const EPS: f64 = 1e-12;
        self.t += 1;
        let t = i32::try_from(self.t).unwrap_or(i32::MAX);
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        for j in 0..w.len() {
            self.m[j] = B1 * self.m[j] + (1.0 - B1) * g[j];
            self.v[j] = B2 * self.v[j] + (1.0 - B2) * g[j] * g[j];
            if frozen.contains(&j) {
                continue;
            }
            let step = self.rate * (self.m[j] / c1) / ((self.v[j] / c2).sqrt() + EPS);
            w[j] = (w[j] - step).clamp(
                -crate::games::linear::MAX_WEIGHT,
                crate::games::linear::MAX_WEIGHT,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Dataset {
        let mut d = Dataset::new(3);
        let mut rng = crate::rng::XorShift::new(11);
        for i in 0..1500 {
            let x: Vec<f64> = (0..3).map(|_| rng.below(21) as f64 - 10.0).collect();
            d.push(&x, [0.0, 0.5, 1.0][i % 3]);
        }
        d
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let d = tiny();
        let w = [30.0, -12.0, 55.0];
        let k = 1.3;
        let (_, g) = loss_and_gradient(&d, &w, k, true);
        for j in 0..3 {
            let h = 1e-4;
            let (mut up, mut down) = (w, w);
            up[j] += h;
            down[j] -= h;
            let numeric = (loss_and_gradient(&d, &up, k, false).0
                - loss_and_gradient(&d, &down, k, false).0)
                / (2.0 * h);
            assert!(
                (numeric - g[j]).abs() <= 1e-6 * numeric.abs().max(1e-6),
                "weight {j}: analytic {} numeric {numeric}",
                g[j]
            );
        }
    }

    #[test]
    fn same_sum_on_any_thread_count() {
        let d = tiny();
        let w = [3.0, 1.0, -2.0];
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| loss_and_gradient(&d, &w, 1.0, true))
        };
        let one = run(1);
        assert_eq!(one, run(3));
        assert_eq!(one.0.to_bits(), run(2).0.to_bits());
    }

    #[test]
    fn adam_descends_a_quadratic_and_k_fits() {
        // Labels drawn from sigmoid(K = 2) of the first feature: the fitted K comes back.
        let mut d = Dataset::new(1);
        for q in -200..=200 {
            let x = f64::from(q) * 4.0;
            d.push(&[x], sigmoid(2.0, x));
        }
        let k = fit_k(&d, &[1.0]);
        assert!((k - 2.0).abs() < 1e-3, "{k}");
        let mut w = [5.0, -3.0];
        let mut adam = Adam::new(2, 0.1);
        for _ in 0..500 {
            let g = [2.0 * w[0], 2.0 * w[1]];
            adam.step(&mut w, &g, &[1]);
        }
        assert!(w[0].abs() < 0.05, "{w:?}");
        assert!((w[1] + 3.0).abs() < 1e-12, "frozen weight moved: {w:?}");
    }
}
