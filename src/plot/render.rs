//! Drawing a [`Chart`] to PNG or SVG: one frame (title, plot, legend, footer) for all charts.

use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::Format;
use super::axes::{Axis, clip_y, x_axis, y_axis};
use super::chart::{Chart, Point, Series, SeriesKind};
use super::error::PlotError;

/// Image size in pixels.
pub const SIZE: (u32, u32) = (1200, 800);
const FONT: &str = "sans-serif";
/// Height in pixels of the footer's strip (the machine summary) at the bottom of the image.
pub const FOOTER_HEIGHT: u32 = 36;
const LEGEND_WIDTH: u32 = 300;
/// Size of the axes' tick labels, in pixels.
const TICK_FONT: u32 = 18;
const LEGEND_ROW: i32 = 30;
const LEGEND_TEXT_OFFSET: i32 = 58;
/// How much further in a legend label's second and later lines start.
const LEGEND_INDENT: i32 = 12;
/// The x pixel where legend labels start: the first line of every legend label has this x.
pub const LEGEND_TEXT_X: i32 = (SIZE.0 - LEGEND_WIDTH) as i32 + LEGEND_TEXT_OFFSET;
/// The x pixel of a legend label's later lines, where a long label is wrapped at its spaces.
pub const LEGEND_MORE_X: i32 = LEGEND_TEXT_X + LEGEND_INDENT;

/// Colours of measured series (Tableau 10).
const MEASURED: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];
/// Colours of reference series: dark neutrals, distinct from the measured palette.
const REFERENCE: [RGBColor; 4] = [
    RGBColor(0, 0, 0),
    RGBColor(120, 120, 120),
    RGBColor(188, 189, 34),
    RGBColor(90, 60, 20),
];
/// Colour of the plot's grid lines, drawn at every tick from one edge of the plot to the
/// other.
pub const GRID: RGBColor = RGBColor(225, 225, 225);
const FOOTER_TEXT: RGBColor = RGBColor(90, 90, 90);

/// Registers the embedded DejaVu Sans font as `sans-serif` (once per process).
///
/// # Errors
/// [`PlotError::Font`] if the embedded font data cannot be parsed.
pub fn ensure_font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = REGISTERED.get_or_init(|| {
        let normal = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let bold = register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
        normal.is_ok() && bold.is_ok()
    });
    if *ok { Ok(()) } else { Err(PlotError::Font) }
}

/// Draws `chart` into `path` in `format`, with `footer` (the machine summary) at the bottom.
///
/// # Errors
/// [`PlotError::Font`] or [`PlotError::Draw`] (which includes failing to write the file).
pub fn write_chart(
    chart: &Chart,
    footer: &str,
    path: &Path,
    format: Format,
) -> Result<(), PlotError> {
    ensure_font()?;
    let result = match format {
        Format::Png => {
            let mut rgb = vec![0; SIZE.0 as usize * SIZE.1 as usize * 3];
            draw(
                BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area(),
                chart,
                footer,
            )
            .and_then(|()| write_png(path, &rgb).map_err(fail))
        }
        Format::Svg => {
            let mut svg = String::new();
            draw(
                SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
                chart,
                footer,
            )
            .and_then(|()| {
                crate::output::replace_bytes(path, compact_svg(&svg).as_bytes()).map_err(fail)
            })
        }
    };
    result.map_err(|message| PlotError::Draw {
        path: path.to_path_buf(),
        message,
    })
}

/// Encodes the `SIZE` RGB pixels `rgb` as PNG into `path`, written whole (a temporary file
/// renamed: a run killed while writing leaves the old chart, never half of one).
fn write_png(path: &Path, rgb: &[u8]) -> std::io::Result<()> {
    use image::ImageEncoder;
    crate::output::replace(path, |file| {
        image::codecs::png::PngEncoder::new(file)
            .write_image(rgb, SIZE.0, SIZE.1, image::ColorType::Rgb8)
            .map_err(std::io::Error::other)
    })
}

/// `svg` without the attributes plotters writes on every element that say what SVG's
/// defaults already say (`opacity="1"`; a stroke width where there is no stroke): the same
/// picture in about a seventh fewer bytes, which counts with hundreds of charts committed
/// under results/.
fn compact_svg(svg: &str) -> String {
    svg.replace(" opacity=\"1\"", "")
        .replace(" stroke=\"none\" stroke-width=\"1\"", " stroke=\"none\"")
}

type DrawResult = Result<(), String>;

fn fail<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// The shared frame: white page, title, plot on the left, legend on the right, footer.
fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    chart: &Chart,
    footer: &str,
) -> DrawResult {
    root.fill(&WHITE).map_err(fail)?;
    let (body, foot) = root.split_vertically(SIZE.1 - FOOTER_HEIGHT);
    draw_footer(&foot, footer)?;
    let title = title_font(&body, &chart.title);
    let body = body
        .margin(14, 0, 0, 0)
        .titled(&chart.title, title)
        .map_err(fail)?;
    let (plot, legend) = body.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    draw_plot(&plot, chart)?;
    draw_legend(&legend, &chart.series)?;
    root.present().map_err(fail)
}

/// The largest title font from 28 px down to 14 px with which `title` fits the width.
fn title_font<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
) -> TextStyle<'static> {
    let width = area.dim_in_pixel().0.saturating_sub(24);
    let style = |size: u32| TextStyle::from((FONT, size, FontStyle::Bold).into_font());
    (14..=28)
        .rev()
        .map(style)
        .find(|f| fits(area, title, f, width))
        .unwrap_or_else(|| style(14))
}

/// Whether `text` in `style` is at most `width` pixels wide.
fn fits<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle<'_>,
    width: u32,
) -> bool {
    area.estimate_text_size(text, style)
        .is_ok_and(|(w, _)| w <= width)
}

/// Where [`fit`] cuts a text that is too long.
#[derive(Clone, Copy)]
enum Cut {
    /// Keep the start (a footer: the machine summary reads from the left).
    End,
    /// Keep both ends: labels of one chart often share a long start and differ at the end
    /// (`connect4-lazy-smp[threads=2]`, `…[threads=16]`), or differ at both (`A vs B`).
    Middle,
}

/// `text`, shortened with an ellipsis where `cut` says until it fits `width` pixels in
/// `style`.
fn fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle<'_>,
    width: u32,
    cut: Cut,
) -> String {
    if fits(area, text, style, width) {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let shortened = |kept: usize| -> String {
        let head = match cut {
            Cut::End => kept,
            Cut::Middle => kept.div_ceil(2),
        };
        let tail = &chars[chars.len() - (kept - head)..];
        chars[..head]
            .iter()
            .chain(['…'].iter())
            .chain(tail)
            .collect()
    };
    (1..chars.len())
        .rev()
        .map(shortened)
        .find(|t| fits(area, t, style, width))
        .unwrap_or_else(|| "…".into())
}

fn draw_footer<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: &str) -> DrawResult {
    let style = TextStyle::from((FONT, 15).into_font())
        .color(&FOOTER_TEXT)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let text = fit(area, text, &style, SIZE.0 - 32, Cut::End);
    area.draw_text(&text, &style, (16, FOOTER_HEIGHT as i32 / 2))
        .map_err(fail)
}

fn draw_plot<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart) -> DrawResult {
    let (x, y) = (x_axis(chart), y_axis(chart));
    // Room for the widest tick label beside the axis description, which long ticks
    // (20000000) would otherwise write over.
    let tick_style = TextStyle::from((FONT, TICK_FONT).into_font());
    let widest = y
        .ticks
        .iter()
        .filter_map(|t| area.estimate_text_size(&y.label(*t), &tick_style).ok())
        .map(|(w, _)| w)
        .max()
        .unwrap_or(0);
    let mut ctx = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(64)
        .y_label_area_size(96.max(widest + 52))
        .build_cartesian_2d(x.clone(), y.clone())
        .map_err(fail)?;
    let x_fmt = |v: &f64| x.label(*v);
    let y_fmt = |v: &f64| y.label(*v);
    ctx.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style((FONT, TICK_FONT))
        .axis_desc_style((FONT, 20))
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(fail)?;
    // References last, dashed and on top: a measured line lying exactly on a reference
    // (ordered alpha-beta on the Knuth–Moore curve) shows both, the dashes over the data.
    let styled: Vec<(&Series, RGBColor)> = chart.series.iter().zip(colors(&chart.series)).collect();
    for kind in [
        SeriesKind::Points,
        SeriesKind::Measured,
        SeriesKind::Reference,
    ] {
        for (series, color) in styled.iter().filter(|(s, _)| s.kind == kind) {
            draw_series(&mut ctx, series, *color, &x, &y)?;
        }
    }
    Ok(())
}

type Ctx<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

/// One colour per series, from its kind's palette by its slot.
fn colors(series: &[Series]) -> Vec<RGBColor> {
    series
        .iter()
        .map(|s| match s.kind {
            SeriesKind::Measured | SeriesKind::Points => MEASURED[s.slot % MEASURED.len()],
            SeriesKind::Reference => REFERENCE[s.slot % REFERENCE.len()],
        })
        .collect()
}

/// The line of a series and of its legend sample (none for [`SeriesKind::Points`]).
fn line_style(kind: SeriesKind, color: RGBColor) -> Option<ShapeStyle> {
    match kind {
        SeriesKind::Measured => Some(color.stroke_width(3)),
        SeriesKind::Points => None,
        SeriesKind::Reference => Some(color.stroke_width(2)),
    }
}

/// Dash and gap of reference lines, in pixels: the reference palette's colours come round
/// again after [`REFERENCE`]'s length, each round with another dash.
const DASHES: [(u32, u32); 3] = [(10, 6), (3, 4), (20, 5)];

fn dash(series: &Series) -> (u32, u32) {
    DASHES[series.slot / REFERENCE.len() % DASHES.len()]
}

/// The marker of a measured series: the palette's colours come round again after
/// [`MEASURED`]'s length, each round with another shape, so that no two series of a chart
/// with up to 32 searchers look alike.
#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
}

fn marker(series: &Series) -> Marker {
    const SHAPES: [Marker; 4] = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
    ];
    SHAPES[series.slot / MEASURED.len() % SHAPES.len()]
}

/// Draws `marker` centred at `at`, in the coordinates of `area` (data or pixels).
fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    marker: Marker,
    color: RGBColor,
) -> DrawResult
where
    CT::From: Clone + 'static,
{
    let style = color.filled();
    match marker {
        Marker::Circle => area.draw(&Circle::new(at, 5, style)),
        Marker::Square => {
            area.draw(&(EmptyElement::at(at) + Rectangle::new([(-5, -5), (5, 5)], style)))
        }
        Marker::Triangle => area.draw(&TriangleMarker::new(at, 7, style)),
        Marker::Diamond => area.draw(
            &(EmptyElement::at(at) + Polygon::new(vec![(0, -7), (7, 0), (0, 7), (-7, 0)], style)),
        ),
    }
    .map_err(fail)
}

fn draw_series<DB: DrawingBackend>(
    ctx: &mut Ctx<'_, DB>,
    series: &Series,
    color: RGBColor,
    x: &Axis,
    y: &Axis,
) -> DrawResult {
    let mapped = |p: &Point| Some((x.map(p.x)?, y.map(p.y)?));
    let line: Vec<(f64, f64)> = series.points.iter().filter_map(mapped).collect();
    match line_style(series.kind, color) {
        // Cut at the axis, which the measured data chose.
        Some(style) if series.kind == SeriesKind::Reference => {
            let (on, off) = dash(series);
            for part in clip_y(&line, y.lo, y.hi) {
                ctx.draw_series(DashedLineSeries::new(part, on, off, style))
                    .map_err(fail)?;
            }
        }
        Some(style) => {
            ctx.draw_series(LineSeries::new(line.iter().copied(), style))
                .map_err(fail)?;
        }
        None => {}
    }
    if series.kind != SeriesKind::Reference {
        for &at in &line {
            draw_marker(ctx.plotting_area(), at, marker(series), color)?;
        }
        draw_whiskers(ctx, series, color, x, y)?;
    }
    Ok(())
}

/// Vertical error bars (95% intervals of means, or another spread the chart names) of the
/// points that have one.
fn draw_whiskers<DB: DrawingBackend>(
    ctx: &mut Ctx<'_, DB>,
    series: &Series,
    color: RGBColor,
    x: &Axis,
    y: &Axis,
) -> DrawResult {
    // An interval without an end on one side (an Elo at a 0% or 100% score in some
    // games) runs to the axis's edge on that side.
    let end = |v: f64| match v {
        f64::NEG_INFINITY => Some(y.lo),
        f64::INFINITY => Some(y.hi),
        v => y.map(v),
    };
    let whisker = |p: &Point| {
        let (lo, hi) = p.spread?;
        let (px, lo, hi) = (x.map(p.x)?, end(lo)?, end(hi)?);
        (hi > lo)
            .then(|| PathElement::new(vec![(px, lo), (px, hi)], color.mix(0.6).stroke_width(2)))
    };
    ctx.draw_series(series.points.iter().filter_map(whisker))
        .map_err(fail)?;
    Ok(())
}

/// The legend, in its own column right of the plot so it never covers data: a sample line
/// and marker per series, and its label. Its rows close up (and their text shrinks) so that
/// every series fits the column's height. A label too long for the legend's width is
/// wrapped at its spaces where the legend has room for the lines (a sweep's labels may
/// differ in any of their words, which a cut can lose: committed charts once showed
/// `strong[quiesce…tional=false]` twice); the font shrinks from 18 to 12 px before a label
/// is cut in the middle.
fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, series: &[Series]) -> DrawResult {
    let top = 40;
    let room = area.dim_in_pixel().1 as i32 - top - 8;
    let width = LEGEND_WIDTH - LEGEND_TEXT_OFFSET as u32 - 8;
    let layout = legend_layout(area, series, room, width);
    let text =
        TextStyle::from((FONT, layout.font).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let mut yy = top;
    for ((s, color), lines) in series.iter().zip(colors(series)).zip(&layout.lines) {
        match line_style(s.kind, color) {
            Some(style) if s.kind == SeriesKind::Reference => {
                let (on, off) = dash(s);
                area.draw(&DashedPathElement::new(
                    vec![(8, yy), (48, yy)],
                    on,
                    off,
                    style,
                ))
                .map_err(fail)?;
            }
            Some(style) => area
                .draw(&PathElement::new(vec![(8, yy), (48, yy)], style))
                .map_err(fail)?,
            None => {}
        }
        if s.kind != SeriesKind::Reference {
            draw_marker(area, (28, yy), marker(s), color)?;
        }
        for (k, line) in lines.iter().enumerate() {
            let x = if k == 0 {
                LEGEND_TEXT_OFFSET
            } else {
                LEGEND_TEXT_OFFSET + LEGEND_INDENT
            };
            area.draw_text(line, &text, (x, yy + k as i32 * layout.line))
                .map_err(fail)?;
        }
        yy += layout.row + (lines.len() as i32 - 1) * layout.line;
    }
    Ok(())
}

/// How the legend's labels are set: the font size, each label's lines, the height of a
/// wrapped label's extra line and of a series' row.
struct LegendLayout {
    font: i32,
    lines: Vec<Vec<String>>,
    line: i32,
    row: i32,
}

/// The largest font (18 px down to 12) at which every label, wrapped at its spaces into at
/// most three lines, fits `room` pixels of height; where none does, one line per label,
/// cut in the middle, at the font the rows' height allows. Labels that fit on one line are
/// set as they always were: 18 px rows of 30 px, rows as high as the room allows (and the
/// font 8 px less) when there are many.
fn legend_layout<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &[Series],
    room: i32,
    width: u32,
) -> LegendLayout {
    let n = series.len().max(1) as i32;
    for font in (12..=18).rev() {
        let style = TextStyle::from((FONT, font).into_font());
        let indented = width - LEGEND_INDENT as u32;
        let lines: Option<Vec<Vec<String>>> = series
            .iter()
            .map(|s| wrap(area, &s.label, &style, width, indented).filter(|l| l.len() <= 3))
            .collect();
        let Some(lines) = lines else { continue };
        // A row is at least 8 px taller than its font, up to LEGEND_ROW where there is room;
        // a wrapped label's extra lines are 2 px taller than the font.
        let line = font + 2;
        let extra: i32 = lines.iter().map(|l| l.len() as i32 - 1).sum();
        let rows_room = room - extra * line;
        if n * (font + 8) <= rows_room {
            let row = (rows_room / n).clamp(font + 8, LEGEND_ROW);
            return LegendLayout {
                font,
                lines,
                line,
                row,
            };
        }
    }
    let row = (room / n).clamp(14, LEGEND_ROW);
    let font = (row - 8).clamp(12, 18);
    let style = TextStyle::from((FONT, font).into_font());
    let lines = series
        .iter()
        .map(|s| vec![fit(area, &s.label, &style, width, Cut::Middle)])
        .collect();
    LegendLayout {
        font,
        lines,
        line: font + 2,
        row,
    }
}

/// `text` in lines of at most `first` pixels (the later ones `rest`), broken at spaces;
/// `None` where a single word is too wide.
fn wrap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle<'_>,
    first: u32,
    rest: u32,
) -> Option<Vec<String>> {
    let fits_in = |t: &str, width: u32| fits(area, t, style, width);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let width = if lines.is_empty() { first } else { rest };
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if fits_in(&longer, width) {
            line = longer;
        } else if line.is_empty() || !fits_in(word, rest) {
            return None;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    lines.push(line);
    Some(lines)
}
