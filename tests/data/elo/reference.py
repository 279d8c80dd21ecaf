#!/usr/bin/env python3
"""Reference values for tests/elo.rs, written independently of src/lab/elo.rs.

Same formulas as fastchess (app/src/matchmaking/elo/*.cpp, sprt/sprt.cpp) and OpenBench
(OpenBench/stats.py), but with Python's math.erf and statistics.NormalDist (exact to double
precision) instead of the Rust approximations, and plain bisection for the secular equation.
Standard library only. Run: python3 tests/data/elo/reference.py > tests/data/elo/reference.txt
"""
import math
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)


def elo(s):
    return -400 * math.log10(1 / s - 1)


def mean_var(counts, scores):
    n = sum(counts)
    mu = sum(c * a for c, a in zip(counts, scores)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, scores)) / n
    return mu, var


def summary(counts, scores):
    n = sum(counts)
    mu, var = mean_var(counts, scores)
    half = Z95 * math.sqrt(var / n)
    lo, hi = elo(mu - half), elo(mu + half)
    los = (1 - math.erf(-(mu - 0.5) / math.sqrt(2 * var / n))) / 2
    return dict(score=mu, variance=var, elo=elo(mu), lower=lo, upper=hi,
                error=(hi - lo) / 2, los_normal=los)


def los_wl(w, l):
    return 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l))))


def root(phat, phi):
    f = lambda x: sum(p * a / (1 + x * a) for p, a in zip(phat, phi))
    a, b = -1 / max(phi), -1 / min(phi)
    for _ in range(300):
        m = (a + b) / 2
        if f(m) > 0:
            a = m
        else:
            b = m
    return (a + b) / 2


def mle_score(scores, phat, s):
    phi = [a - s for a in scores]
    x = root(phat, phi)
    return [p / (1 + x * f) for p, f in zip(phat, phi)]


def mle_t(scores, phat, t):
    p = [1 / len(scores)] * len(scores)
    for _ in range(1000):
        mu, var = mean_var(p, scores)
        sd = math.sqrt(var)
        phi = [a - 0.5 - t * sd * (1 + ((a - mu) / sd) ** 2) / 2 for a in scores]
        x = root(phat, phi)
        new = [q / (1 + x * f) for q, f in zip(phat, phi)]
        done = max(abs(u - v) for u, v in zip(new, p)) < 1e-13
        p = new
        if done:
            break
    return p


def llr(counts, elo0, elo1, model):
    k = len(counts)
    scores = [i / (k - 1) for i in range(k)]
    c = [max(x, 1e-3) for x in counts]
    n = sum(c)
    phat = [x / n for x in c]
    if model == "normalized":
        scale = math.sqrt(2) if k == 5 else 1.0
        p0, p1 = (mle_t(scores, phat, scale * e / (800 / math.log(10))) for e in (elo0, elo1))
    else:
        p0, p1 = (mle_score(scores, phat, 1 / (1 + 10 ** (-e / 400))) for e in (elo0, elo1))
    return n * sum(h * math.log(b / a) for h, a, b in zip(phat, p0, p1))


def show(name, d):
    print(name + ": " + ", ".join(f"{k}={v:.6f}" for k, v in d.items()))


TRI = [0.0, 0.5, 1.0]
PENTA = [0.0, 0.25, 0.5, 0.75, 1.0]

# Trinomial counts in [losses, draws, wins] order.
for w, d, l in [(60, 20, 20), (136, 111, 96), (76, 123, 89), (40, 20, 40)]:
    show(f"trinomial W={w} D={d} L={l}", dict(summary([l, d, w], TRI), los=los_wl(w, l)))
# Pentanomial counts in [LL, LD, DD+WL, WD, WW] order.
for p in [[5, 20, 50, 20, 5], [10, 30, 80, 50, 15]]:
    show(f"pentanomial {p}", summary(p, PENTA))
for counts, e0, e1, model in [
    ([20, 20, 60], 0, 5, "normalized"),
    ([20, 20, 60], 0, 5, "logistic"),
    ([10, 30, 80, 50, 15], 0, 5, "normalized"),
    ([10, 30, 80, 50, 15], 0, 5, "logistic"),
    ([5, 20, 50, 20, 5], 0, 5, "normalized"),
]:
    print(f"llr {model} {counts} elo0={e0} elo1={e1}: {llr(counts, e0, e1, model):.6f}")
# fastchess's own SPRT tests (app/tests/sprt_test.cpp since its commit 05d6451c), to check
# this script against them.
for counts, e0, e1, model, expect in [
    ([36027, 68692, 36433], 0, 2, "normalized", 0.92),
    ([10650, 20431, 10871], -1.75, 0.25, "normalized", 2.30),
    ([0, 0, 4250], 0, 10, "normalized", 120.56),
    ([21184, 40708, 21404], 0.5, 2.5, "logistic", -1.57),
    ([57030, 106593, 57433], 0, 2, "logistic", -2.59),
    ([365, 16618, 36029 + 200, 16974, 390], 0, 2, "normalized", 2.25),
    ([127, 4883, 10311 + 401, 5150, 104], -1.75, 0.25, "normalized", 3.01),
    ([0, 0, 0, 0, 5550], 0, 5, "normalized", 111.82),
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, "logistic", -3.07),
    ([871, 26175, 55003 + 980, 26678, 821], 0, 2, "logistic", -4.98),
]:
    print(f"fastchess llr {model} {counts} {e0} {e1}: {llr(counts, e0, e1, model):.6f} (fastchess test: {expect})")
# Records with one non-empty cell, the empty ones regularized to 1e-3 as above.
for counts, e0, e1 in [([0, 16700, 0], 0, 5), ([0, 0, 0, 0, 104], 0, 5)]:
    print(f"one-cell llr normalized {counts} {e0} {e1}: {llr(counts, e0, e1, 'normalized'):.6f}")
