//! Charts as data: what to draw, independent of the drawing library.
//!
//! Chart builders ([`super::charts`]) turn CSV rows into [`Chart`] values; one renderer
//! ([`super::render`]) draws any [`Chart`] with the shared frame, title, legend and footer.
//! New kinds of chart (Elo with error bars, speedup against threads, solve rate) are new
//! builders producing the same type: error bars are [`Point::spread`], and categories that
//! must not be joined by a line are [`SeriesKind::Points`].

/// How the y axis maps values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum YScale {
    /// Base-10 logarithmic; non-positive values are not drawn.
    Log,
    /// Linear, from `min` to `max` if given, else from 0 (or the least value) to a rounded
    /// maximum above the data.
    Linear {
        /// Fixed axis range, if any.
        range: Option<(f64, f64)>,
    },
}

/// Whether a series is a measurement or a theoretical reference (drawn thinner, unmarked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesKind {
    /// Measured data: thick line with markers and spread whiskers.
    Measured,
    /// Measured values that no line may join (one category each, such as the pairings of an
    /// Elo chart): markers and whiskers only, in the measured palette.
    Points,
    /// A reference curve or line from theory.
    Reference,
}

/// One point of a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Abscissa.
    pub x: f64,
    /// Ordinate (a mean, for measured series).
    pub y: f64,
    /// Low and high end of the spread (min–max, or an error bar), drawn as a whisker.
    pub spread: Option<(f64, f64)>,
}

impl Point {
    /// A point without spread.
    #[must_use]
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y, spread: None }
    }
}

/// One line of a chart, with its legend entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend text.
    pub label: String,
    /// Measured or reference.
    pub kind: SeriesKind,
    /// Colour slot within its kind: measured series use the searcher's position in the
    /// experiment, so a searcher keeps its colour in every chart.
    pub slot: usize,
    /// The points, in x order.
    pub points: Vec<Point>,
}

/// A complete chart description.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// File-name stem of the image files (`nodes_random_b4` gives `nodes_random_b4.png`).
    pub stem: String,
    /// Stem of the group (random-tree branching factor or game) the chart belongs to.
    pub group: String,
    /// Short description used as the link text in summary.md.
    pub caption: String,
    /// Title printed atop the image; names the experiment.
    pub title: String,
    /// X-axis label with unit.
    pub x_label: String,
    /// Y-axis label with unit.
    pub y_label: String,
    /// Y-axis mapping.
    pub y_scale: YScale,
    /// The series; measured ones first, then references.
    pub series: Vec<Series>,
}
