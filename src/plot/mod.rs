//! Charts and summary.md from the CSV files of an experiment run.
//!
//! Everything here is drawn from `searches.csv` (and the machine facts in `run.json`), never
//! from in-memory search state, so a results directory can be re-plotted at any time. A
//! match's directory holds the arena's `standings.csv` instead (or as well), from which
//! [`arena`] draws the Elo chart:
//!
//! ```no_run
//! use plylab::plot::{Format, plot_dir};
//! let report = plot_dir(std::path::Path::new("results/ordering"), &[Format::Png, Format::Svg])?;
//! for file in &report.files {
//!     println!("wrote {}", file.display());
//! }
//! # Ok::<(), plylab::plot::PlotError>(())
//! ```
//!
//! Layout: [`data`] reads the files, [`model`] groups the rows (random trees by branching
//! factor, games by name), [`charts`] turns a group into [`chart::Chart`] descriptions,
//! [`render`] draws any chart with the shared frame, [`summary`] writes the markdown,
//! [`arena`] reads `standings.csv` and builds the Elo chart.

pub mod arena;
pub mod axes;
pub mod chance;
pub mod chart;
pub mod charts;
pub mod data;
mod error;
pub mod format;
pub mod model;
pub mod parallel;
pub mod render;
pub mod sets;
pub mod stats;
pub mod summary;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

pub use arena::{STANDINGS_CSV, elo_charts};
pub use error::PlotError;
pub use model::Dataset;
pub use stats::{minimal_leaves, pearl_r};

/// The name of the per-job CSV file in a results directory.
pub const SEARCHES_CSV: &str = "searches.csv";
/// The name of the markdown summary written beside the charts.
pub const SUMMARY_MD: &str = "summary.md";

/// An image format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Raster image, 1200 × 800.
    Png,
    /// Vector image with text kept as text.
    Svg,
}

impl Format {
    /// Both formats, SVG first: summary.md links the first (committed results keep the
    /// small vector charts, the PNGs are not committed).
    pub const ALL: [Self; 2] = [Self::Svg, Self::Png];

    /// The file extension, without the dot.
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Svg => "svg",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

impl FromStr for Format {
    type Err = String;

    /// Parses `png` or `svg` (any case), for the CLI's `--format`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "png" => Ok(Self::Png),
            "svg" => Ok(Self::Svg),
            _ => Err(format!("unknown image format `{s}` (expected png or svg)")),
        }
    }
}

/// What a plotting call wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlotReport {
    /// Every file written (images, then summary.md, then the Elo chart), in writing order.
    pub files: Vec<PathBuf>,
}

/// Reads `dir/searches.csv` (and `dir/run.json` if present) and writes the charts in each
/// of `formats` and `summary.md` into `dir`; if `dir/standings.csv` exists, also the Elo
/// chart of the match ([`arena::elo_charts`]), and then searches.csv may be absent.
///
/// # Errors
/// A [`PlotError`] naming the file and the problem: unreadable or malformed CSV, a missing
/// column, no rows, an unreadable number, or an image that could not be written.
pub fn plot_dir(dir: &Path, formats: &[Format]) -> Result<PlotReport, PlotError> {
    let searches = dir.join(SEARCHES_CSV);
    if !dir.join(STANDINGS_CSV).exists() {
        if !crate::compressed::exists(&searches) && dir.join("curve.csv").exists() {
            return Err(PlotError::LearningRun {
                path: dir.to_path_buf(),
            });
        }
        return plot_csv(&searches, dir, formats);
    }
    let mut report = if crate::compressed::exists(&searches) {
        plot_csv(&searches, dir, formats)?
    } else {
        PlotReport::default()
    };
    report.files.extend(elo_charts(dir, formats)?);
    report.files.extend(chance::points_charts(dir, formats)?);
    Ok(report)
}

/// Reads `csv` (and the `run.json` beside it, if present) and writes the charts in each of
/// `formats` and `summary.md` into `out_dir`, creating it if needed. A file named
/// `standings.csv` gives the Elo chart alone.
///
/// # Errors
/// As [`plot_dir`].
pub fn plot_csv(csv: &Path, out_dir: &Path, formats: &[Format]) -> Result<PlotReport, PlotError> {
    if csv.file_name().is_some_and(|n| n == STANDINGS_CSV) {
        let files = arena::elo_charts_from(csv, out_dir, formats)?;
        return Ok(PlotReport { files });
    }
    let data = Dataset::load(csv)?;
    write_all(&data, out_dir, formats)
}

/// Writes every chart of `data` in each of `formats`, then `summary.md`, into `out_dir`.
///
/// # Errors
/// [`PlotError::Io`] if `out_dir` cannot be created or summary.md written,
/// [`PlotError::Draw`] or [`PlotError::Font`] if a chart cannot be drawn.
pub fn write_all(
    data: &Dataset,
    out_dir: &Path,
    formats: &[Format],
) -> Result<PlotReport, PlotError> {
    std::fs::create_dir_all(out_dir).map_err(|e| PlotError::io(out_dir, e))?;
    let formats = distinct(formats);
    let charts = charts::all_charts(data);
    let footer = footer(data);
    let mut report = PlotReport::default();
    for chart in &charts {
        for &format in &formats {
            let path = out_dir.join(format!("{}.{}", chart.stem, format.extension()));
            render::write_chart(chart, &footer, &path, format)?;
            report.files.push(path);
        }
    }
    let summary_path = out_dir.join(SUMMARY_MD);
    let text = summary::render(data, &charts, formats.first().copied());
    crate::output::replace_bytes(&summary_path, text.as_bytes())
        .map_err(|e| PlotError::io(&summary_path, e))?;
    report.files.push(summary_path);
    report
        .files
        .extend(chance::savings_files(data, out_dir, &formats, &footer)?);
    Ok(report)
}

/// The chart footer: machine summary and data file name.
#[must_use]
pub fn footer(data: &Dataset) -> String {
    let source = data.source.file_name().map_or_else(
        || data.source.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    format!("{}  ·  data: {source}", data.run.footer())
}

fn distinct(formats: &[Format]) -> Vec<Format> {
    let mut out: Vec<Format> = Vec::new();
    for f in formats {
        if !out.contains(f) {
            out.push(*f);
        }
    }
    out
}
