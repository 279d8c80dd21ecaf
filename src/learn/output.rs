//! What a learning run leaves in `results/<name>/`: the learning curve (`curve.csv`, drawn
//! as `curve.png` and `curve.svg` with the project's chart frame), `summary.md` and
//! `run.json` (the learning file, commit, machine, date, time taken).

use std::fmt::Write as _;
use std::fs;

use super::{CurvePoint, LearnError, LearnGame, Method, Run, io_err};
use crate::games::linear::Weights;
use crate::lab::machine;
use crate::output::replace_bytes;
use crate::plot::Format;
use crate::plot::chart::{Chart, Point, Series, SeriesKind, YScale};
use crate::plot::render::write_chart;

/// The most points of a curve series drawn in the charts.
const CHART_POINTS: usize = 600;

/// The last value of a curve point's headline loss: validation where measured.
fn headline(p: &CurvePoint) -> f64 {
    p.validation.unwrap_or(p.train)
}

/// Writes curve.csv, the charts, summary.md and run.json; returns the first and last
/// headline loss.
pub(super) fn write_results<G: LearnGame>(
    run: &Run<'_, G>,
    weights: &Weights,
    curve: &[CurvePoint],
    facts: &str,
    seconds: f64,
) -> Result<(f64, f64), LearnError> {
    let out = &run.out;
    fs::create_dir_all(out).map_err(io_err(out))?;
    let texel = run.spec.method == Method::Texel;
    write_curve_csv(run, curve, texel)?;
    if run.options.charts {
        draw_curve(run, curve, texel, seconds)?;
    }
    let losses = (
        curve.first().map_or(f64::NAN, headline),
        curve.last().map_or(f64::NAN, headline),
    );
    write_summary(run, weights, curve, facts, seconds, losses)?;
    write_run_json(run, seconds)?;
    Ok(losses)
}

/// curve.csv: every point of the curve (Texel: epochs; TD: batches of self-play games).
fn write_curve_csv<G: LearnGame>(
    run: &Run<'_, G>,
    curve: &[CurvePoint],
    texel: bool,
) -> Result<(), LearnError> {
    let mut csv = String::from(if texel {
        "epoch,train_loss,validation_loss\n"
    } else {
        "games,td_error,held_out_loss\n"
    });
    for p in curve {
        if texel {
            let v = p.validation.map_or(String::new(), |v| format!("{v:.6}"));
            let _ = writeln!(csv, "{},{:.6},{v}", p.x, p.train);
        } else {
            let r = p.validation.unwrap_or(f64::NAN);
            let _ = writeln!(csv, "{},{:.6},{r:.6}", p.x, p.train);
        }
    }
    let path = run.out.join("curve.csv");
    replace_bytes(&path, csv.as_bytes()).map_err(io_err(&path))
}

/// curve.png and curve.svg: the training loss (or TD error) and, where measured, the
/// validation (or held-out) loss.
fn draw_curve<G: LearnGame>(
    run: &Run<'_, G>,
    curve: &[CurvePoint],
    texel: bool,
    seconds: f64,
) -> Result<(), LearnError> {
    let name = &run.spec.name;
    let footer = format!(
        "plylab learn, {} on {} cores, {}, {seconds:.0} s",
        machine::cpu_model(),
        machine::cores(),
        machine::now_iso8601()
    );
    // Long curves (thousands of TD batches) are drawn from every `step`-th point and the
    // last, so that the SVG stays small; curve.csv keeps them all.
    let step = curve.len().div_ceil(CHART_POINTS).max(1);
    let drawn = |i: usize| i.is_multiple_of(step) || i + 1 == curve.len();
    let series_of = |label: &str, slot, pick: &dyn Fn(&CurvePoint) -> Option<f64>| Series {
        label: label.into(),
        kind: SeriesKind::Measured,
        slot,
        points: curve
            .iter()
            .enumerate()
            .filter(|&(i, _)| drawn(i))
            .filter_map(|(_, p)| pick(p).map(|y| Point::new(p.x, y)))
            .collect(),
    };
    let mut series = vec![series_of(
        if texel {
            "training loss"
        } else {
            "mean squared TD error"
        },
        0,
        &|p| Some(p.train),
    )];
    if curve.iter().any(|p| p.validation.is_some()) {
        let label = if texel {
            "validation loss"
        } else {
            "held-out loss (fixed positions)"
        };
        series.push(series_of(label, 1, &|p| p.validation));
    }
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.y));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let pad = ((hi - lo) * 0.05).max(1e-6);
    let chart = Chart {
        stem: "curve".into(),
        group: format!("learn/{name}"),
        caption: "learning curve".into(),
        title: format!("{name}: learning curve"),
        x_label: if texel { "epoch" } else { "self-play games" }.into(),
        y_label: "mean squared error, results and predictions σ(K·eval/400) in [0, 1]".into(),
        // TD's two errors differ by orders of magnitude: a log scale shows both.
        y_scale: if texel {
            YScale::Linear {
                range: Some((lo - pad, hi + pad)),
            }
        } else {
            YScale::Log
        },
        series,
    };
    for format in Format::ALL {
        let path = run.out.join(format!("curve.{}", format.extension()));
        write_chart(&chart, &footer, &path, format)
            .map_err(|e| LearnError::Failed(e.to_string()))?;
    }
    Ok(())
}

/// summary.md: how to regenerate, the method, data, seed, time, the headline loss from
/// `first` to `last`, the chart and the weights from start to learned.
fn write_summary<G: LearnGame>(
    run: &Run<'_, G>,
    weights: &Weights,
    curve: &[CurvePoint],
    facts: &str,
    seconds: f64,
    (first, last): (f64, f64),
) -> Result<(), LearnError> {
    let name = &run.spec.name;
    let texel = run.spec.method == Method::Texel;
    let mut md = String::new();
    let _ = writeln!(md, "# {name}\n");
    if !run.spec.description.is_empty() {
        let _ = writeln!(md, "{}\n", run.spec.description);
    }
    let method = match run.spec.method {
        Method::Texel => "Texel regression (logistic error against game results)",
        Method::Td => "TD(λ) from self-play",
        Method::Tdleaf => "TDLeaf(λ) from self-play (Baxter, Tridgell and Weaver 2000)",
    };
    let _ = writeln!(
        md,
        "- regenerate: `plylab learn {} --force` (seeded: the same weights file byte for byte)",
        run.file.display()
    );
    let _ = writeln!(md, "- method: {method}");
    let _ = writeln!(md, "- data: {facts}");
    let _ = writeln!(md, "- seed {}, {} threads", run.spec.seed, run.spec.threads);
    let _ = writeln!(md, "- wall-clock time: {seconds:.1} s");
    let what = if texel {
        if curve.iter().any(|p| p.validation.is_some()) {
            "validation loss"
        } else {
            "training loss"
        }
    } else {
        "held-out loss, Texel's error on fixed positions of the starting weights' games (after the first batch → last)"
    };
    let _ = writeln!(md, "- {what}: {first:.6} → {last:.6}");
    let _ = writeln!(
        md,
        "- weights: `{}`\n",
        run.options
            .weights_dir
            .join(format!("{name}.toml"))
            .display()
    );
    if run.options.charts {
        // The SVG: results directories keep their charts as SVG (PNG files are not
        // committed).
        let _ = writeln!(md, "![learning curve](curve.svg)\n");
    }
    let _ = writeln!(md, "| weight | start | learned |\n|---|---:|---:|");
    let d = G::KIND.decimals();
    for ((n, s), l) in G::KIND.names().iter().zip(&run.start).zip(&weights.values) {
        let _ = writeln!(md, "| {n} | {s:.d$} | {l:.d$} |");
    }
    let path = run.out.join("summary.md");
    replace_bytes(&path, md.as_bytes()).map_err(io_err(&path))
}

/// run.json: the learning file's text, seed, threads, commit, machine, date and time taken.
fn write_run_json<G: LearnGame>(run: &Run<'_, G>, seconds: f64) -> Result<(), LearnError> {
    let info = serde_json::json!({
        "learn": run.spec.name,
        "text": run.text,
        "seed": run.spec.seed,
        "threads": run.spec.threads,
        "git_commit": machine::git_commit(),
        "crate_version": env!("CARGO_PKG_VERSION"),
        "cpu_model": machine::cpu_model(),
        "cores": machine::cores(),
        "date": machine::now_iso8601(),
        "elapsed_s": (seconds * 10.0).round() / 10.0,
    });
    let path = run.out.join("run.json");
    let text =
        serde_json::to_string_pretty(&info).map_err(|e| LearnError::Failed(e.to_string()))?;
    replace_bytes(&path, (text + "\n").as_bytes()).map_err(io_err(&path))
}
